// File: tinygrad/nn/safetensors_format_test.cc
// The header reader against hand-made files: good ones, and each way a file can be truncated,
// inconsistent or malicious (a clear error naming the file, the tensor and the problem).
#include "tinygrad/nn/safetensors_format.h"

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

// A file: the 8-byte length of `json`, `json`, then `data`.
std::string File(const std::string& json, const std::string& data = "") {
  uint64_t n = json.size();
  std::string out(8, '\0');
  std::memcpy(out.data(), &n, 8);
  return out + json + data;
}

absl::StatusOr<SafetensorsHeader> Parse(const std::string& file) {
  return ParseSafetensors(std::as_bytes(std::span(file.data(), file.size())), "m.safetensors");
}

// The error of parsing `file`, which must fail as InvalidArgument naming the file.
std::string ErrorOf(const std::string& file) {
  absl::StatusOr<SafetensorsHeader> h = Parse(file);
  if (h.ok()) return "(parsed)";
  EXPECT_EQ(h.status().code(), absl::StatusCode::kInvalidArgument) << h.status();
  EXPECT_NE(h.status().message().find("safetensors file 'm.safetensors': "), std::string::npos)
      << h.status();
  return std::string(h.status().message());
}

#define EXPECT_ERROR(file, text) EXPECT_NE(ErrorOf(file).find(text), std::string::npos) << ErrorOf(file)

TEST(SafetensorsDTypeTest, NamesRoundTrip) {
  const std::vector<std::pair<DType, std::string>> names = {
      {dtypes::bool_, "BOOL"},     {dtypes::int8, "I8"},       {dtypes::uint8, "U8"},
      {dtypes::int16, "I16"},      {dtypes::uint16, "U16"},    {dtypes::int32, "I32"},
      {dtypes::uint32, "U32"},     {dtypes::int64, "I64"},     {dtypes::uint64, "U64"},
      {dtypes::float16, "F16"},    {dtypes::bfloat16, "BF16"}, {dtypes::float32, "F32"},
      {dtypes::float64, "F64"},    {dtypes::fp8e4m3, "F8_E4M3"}, {dtypes::fp8e5m2, "F8_E5M2"}};
  for (const auto& [dt, name] : names) {
    EXPECT_EQ(SafetensorsDTypeName(dt), name);
    EXPECT_EQ(DTypeFromSafetensorsName(name), dt) << name;
  }
  EXPECT_EQ(SafetensorsDTypeName(dtypes::index), std::nullopt);
  EXPECT_EQ(SafetensorsDTypeName(dtypes::void_), std::nullopt);
  EXPECT_EQ(SafetensorsDTypeName(dtypes::float32.vec(4)), std::nullopt);
  EXPECT_EQ(SafetensorsDTypeName(dtypes::float32.ptr()), std::nullopt);
  EXPECT_EQ(DTypeFromSafetensorsName("f32"), std::nullopt) << "names are case-sensitive";
  EXPECT_EQ(DTypeFromSafetensorsName("F8_E8M0"), std::nullopt);
}

TEST(ParseSafetensorsTest, ReadsEntriesMetadataAndDataStart) {
  std::string json = R"({"__metadata__":{"a":"b","n":3,"o":{"x":[1]}},)"
                     R"("w":{"dtype":"F32","shape":[2,1],"data_offsets":[2,10]},)"
                     R"("s":{"dtype":"U16","shape":[],"data_offsets":[0,2]},)"
                     R"("e":{"dtype":"I64","shape":[0,5],"data_offsets":[10,10]}}   )";
  auto h = Parse(File(json, std::string(10, 'x')));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->data_start, 8 + json.size());
  ASSERT_EQ(h->tensors.size(), 3u);
  EXPECT_EQ(h->tensors.at("w"), (SafetensorsEntry{dtypes::float32, {2, 1}, 2, 10}));
  EXPECT_EQ(h->tensors.at("s"), (SafetensorsEntry{dtypes::uint16, {}, 0, 2}));
  EXPECT_EQ(h->tensors.at("e"), (SafetensorsEntry{dtypes::int64, {0, 5}, 10, 10}));
  // Non-string values (the reference writes what it is given) are kept as JSON text.
  EXPECT_EQ(h->metadata, (std::map<std::string, std::string>{{"a", "b"}, {"n", "3"}, {"o", R"({"x":[1]})"}}));
}

TEST(ParseSafetensorsTest, EmptyHeaderAndUnknownFieldsAreFine) {
  EXPECT_TRUE(Parse(File("{}")).ok());
  auto h = Parse(File(R"({"t":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"extra":true}})", "z"));
  EXPECT_TRUE(h.ok()) << h.status();
}

TEST(ParseSafetensorsTest, TruncatedFiles) {
  EXPECT_ERROR("", "file of 0 bytes is shorter than the 8-byte header length");
  EXPECT_ERROR(std::string(7, '\0'), "file of 7 bytes");
  std::string f = File(R"({"t":{"dtype":"U8","shape":[4],"data_offsets":[0,4]}})", "abcd");
  EXPECT_ERROR(f.substr(0, 20), "header length 53 goes past the end of the file (20 bytes)");
  EXPECT_ERROR(f.substr(0, f.size() - 1),
               "tensor 't': data_offsets [0, 4) go past the end of the data section (3 bytes)");
}

TEST(ParseSafetensorsTest, AbsurdHeaderLengths) {
  std::string f(8, '\xff');  // 2^64 - 1
  EXPECT_ERROR(f + "{}", "header length 18446744073709551615 goes past the end of the file (10 bytes)");
  std::string big = File(std::string(kMaxSafetensorsHeaderBytes + 1, ' '));
  EXPECT_ERROR(big, "header length 100000001 is over the format's limit of 100000000 bytes");
}

TEST(ParseSafetensorsTest, BadJson) {
  EXPECT_ERROR(File(""), "header: bad JSON at offset 0: parse error at line 1, column 1");
  EXPECT_ERROR(File(R"({"t":)"), "header: bad JSON");
  EXPECT_ERROR(File(R"({"t":{}} x)"), "header: bad JSON");
  EXPECT_ERROR(File("{\"\xff\":1}"), "header: bad JSON") << "invalid UTF-8";
  EXPECT_ERROR(File(std::string("{\"a\0\":1}", 8)), "header: bad JSON");
  EXPECT_ERROR(File(std::string(100000, '[') + std::string(100000, ']')),
               "header: bad JSON: nests deeper than 16 levels");
}

TEST(ParseSafetensorsTest, HeaderThatIsNotAnObject) {
  EXPECT_ERROR(File("[]"), "header JSON is not an object");
  EXPECT_ERROR(File("3"), "header JSON is not an object");
  EXPECT_ERROR(File(R"("x")"), "header JSON is not an object");
  EXPECT_ERROR(File("null"), "header JSON is not an object");
}

TEST(ParseSafetensorsTest, DuplicateNames) {
  EXPECT_ERROR(File(R"({"t":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                    R"("t":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", "ab"),
               "header: bad JSON: names 't' twice");
  EXPECT_ERROR(File(R"({"t":{"dtype":"U8","dtype":"I8","shape":[1],"data_offsets":[0,1]}})", "a"),
               "header: bad JSON: names 'dtype' twice");
  EXPECT_ERROR(File(R"({"__metadata__":{"k":"a","k":"b"}})"), "names 'k' twice");
  // The same name in different objects is fine.
  EXPECT_TRUE(Parse(File(R"({"__metadata__":{"t":"x"},"t":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "a")).ok());
}

TEST(ParseSafetensorsTest, BadEntries) {
  auto entry = [](const std::string& e, const std::string& data = "") {
    return File("{\"w\":" + e + "}", data);
  };
  EXPECT_ERROR(entry("[]"), "tensor 'w': entry is not an object");
  EXPECT_ERROR(entry(R"({"shape":[1],"data_offsets":[0,1]})", "a"), "tensor 'w': no \"dtype\" string");
  EXPECT_ERROR(entry(R"({"dtype":5,"shape":[1],"data_offsets":[0,1]})", "a"), "no \"dtype\" string");
  EXPECT_ERROR(entry(R"({"dtype":"F128","shape":[1],"data_offsets":[0,16]})", std::string(16, 'a')),
               "tensor 'w': unknown dtype 'F128'");
  EXPECT_ERROR(entry(R"({"dtype":"U8","data_offsets":[0,1]})", "a"), "no \"shape\" array");
  EXPECT_ERROR(entry(R"({"dtype":"U8","shape":1,"data_offsets":[0,1]})", "a"), "no \"shape\" array");
  for (const char* shape : {"[-1]", "[1.5]", "[\"1\"]", "[[1]]", "[1e2]", "[18446744073709551616]"})
    EXPECT_ERROR(entry(std::string(R"({"dtype":"U8","shape":)") + shape + R"(,"data_offsets":[0,1]})", "a"),
                 "has a dim that is not a non-negative integer");
  EXPECT_ERROR(entry(R"({"dtype":"U8","shape":[1]})", "a"), "no \"data_offsets\" array of two numbers");
  EXPECT_ERROR(entry(R"({"dtype":"U8","shape":[1],"data_offsets":[0]})", "a"), "no \"data_offsets\"");
  EXPECT_ERROR(entry(R"({"dtype":"U8","shape":[1],"data_offsets":[0,1,2]})", "a"), "no \"data_offsets\"");
  EXPECT_ERROR(entry(R"({"dtype":"U8","shape":[1],"data_offsets":{"a":1}})", "a"), "no \"data_offsets\"");
  for (const char* offsets : {"[-1,0]", "[0,0.5]", "[1,0]", "[null,1]", "[0,18446744073709551616]"})
    EXPECT_ERROR(entry(std::string(R"({"dtype":"U8","shape":[0],"data_offsets":)") + offsets + "}", "a"),
                 "are not non-negative integers [begin, end] with begin <= end");
  EXPECT_ERROR(File(R"({"__metadata__":[1]})"), "\"__metadata__\" is not an object");
}

TEST(ParseSafetensorsTest, ShapesThatDisagreeWithTheirBytes) {
  EXPECT_ERROR(File(R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,20]}})", std::string(20, 'a')),
               "tensor 'w': shape [2,3] of F32 does not fill data_offsets [0,20] (20 bytes)");
  EXPECT_ERROR(File(R"({"w":{"dtype":"F32","shape":[],"data_offsets":[0,0]}})"), "does not fill");
  EXPECT_ERROR(File(R"({"w":{"dtype":"U8","shape":[0],"data_offsets":[0,1]}})", "a"), "does not fill");
  // Products that wrap around (2^32 * 2^32 = 0 mod 2^64) or pass int64.
  EXPECT_ERROR(File(R"({"w":{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,0]}})"),
               "has more elements than an int64 counts");
  EXPECT_ERROR(File(R"({"w":{"dtype":"U8","shape":[9223372036854775808],"data_offsets":[0,0]}})"),
               "has more elements than an int64 counts");
  EXPECT_ERROR(File(R"({"w":{"dtype":"U8","shape":[0,4294967296,4294967296],"data_offsets":[0,0]}})"),
               "has more elements than an int64 counts") << "a zero dim does not excuse the others";
  // Elements that fit int64 but whose bytes don't fit u64.
  EXPECT_ERROR(File(R"({"w":{"dtype":"F64","shape":[4611686018427387904],"data_offsets":[0,0]}})"),
               "does not fill");
  EXPECT_TRUE(Parse(File(R"({"w":{"dtype":"U8","shape":[0,9223372036854775807],"data_offsets":[0,0]}})")).ok());
}

TEST(ParseSafetensorsTest, DataSectionMustBeCoveredExactly) {
  const std::string u8 = R"({"dtype":"U8","shape":[2],"data_offsets":)";
  // Out of JSON order is fine: the data section's order is by offsets.
  auto ok = Parse(File("{\"b\":" + u8 + "[0,2]},\"a\":" + u8 + "[2,4]}}", "wxyz"));
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->tensors.at("a").begin, 2u);
  EXPECT_ERROR(File("{\"a\":" + u8 + "[0,2]},\"b\":" + u8 + "[1,3]}}", "xyz"),
               "tensor 'b': data_offsets [1, 3) overlap those of tensor 'a'");
  EXPECT_ERROR(File("{\"a\":" + u8 + "[0,2]},\"b\":" + u8 + "[0,2]}}", "xy"), "overlap those of tensor 'a'");
  EXPECT_ERROR(File("{\"a\":" + u8 + "[0,2]},\"b\":" + u8 + "[3,5]}}", "vwxyz"),
               "tensor 'b': data_offsets [3, 5) leave the bytes [2, 3) of the data section unused");
  EXPECT_ERROR(File("{\"a\":" + u8 + "[1,3]}}", "xyz"), "leave the bytes [0, 1)");
  EXPECT_ERROR(File("{\"a\":" + u8 + "[0,2]}}", "xyz"),
               "the data section's last 1 of 3 bytes belong to no tensor");
  EXPECT_ERROR(File("{}", "x"), "last 1 of 1 bytes belong to no tensor");
  // A 0-byte tensor sits where the covered part ends; inside another tensor it overlaps it.
  const std::string empty = R"({"dtype":"U8","shape":[0],"data_offsets":)";
  EXPECT_TRUE(Parse(File("{\"a\":" + u8 + "[0,2]},\"e\":" + empty + "[2,2]},\"f\":" + empty + "[0,0]}}", "xy")).ok());
  EXPECT_ERROR(File("{\"a\":" + u8 + "[0,2]},\"e\":" + empty + "[1,1]}}", "xy"),
               "tensor 'e': data_offsets [1, 1) overlap those of tensor 'a'");
  EXPECT_ERROR(File("{\"e\":" + empty + "[5,5]}}"), "go past the end of the data section (0 bytes)");
}

TEST(SafetensorsHeaderBytesTest, WritesThePaddedCompactHeader) {
  std::vector<std::pair<std::string, SafetensorsEntry>> t = {
      {"b", {dtypes::float32, {2, 3}}}, {"a\xc3\xa9", {dtypes::bool_, {}}}, {"z", {dtypes::int64, {0}}}};
  auto bytes = SafetensorsHeaderBytes(t, {{"k", "v\n"}});
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  std::string json = R"({"__metadata__":{"k":"v\n"},"b":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},)"
                     R"("a\u00e9":{"dtype":"BOOL","shape":[],"data_offsets":[24,25]},)"
                     R"("z":{"dtype":"I64","shape":[0],"data_offsets":[25,25]}})";
  json.append((8 - json.size() % 8) % 8, ' ');
  EXPECT_EQ(*bytes, File(json));
  EXPECT_EQ(bytes->size() % 8, 0u);
  EXPECT_EQ(t[1].second.begin, 24u);
  EXPECT_EQ(t[1].second.end, 25u);
  // It reads back (with the data it promises).
  auto h = Parse(*bytes + std::string(25, '\0'));
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->tensors.at("a\xc3\xa9"), t[1].second);
  EXPECT_EQ(h->metadata.at("k"), "v\n");
}

TEST(SafetensorsHeaderBytesTest, RefusesWhatTheFormatCannotHold) {
  std::vector<std::pair<std::string, SafetensorsEntry>> meta = {{"__metadata__", {dtypes::uint8, {1}}}};
  EXPECT_FALSE(SafetensorsHeaderBytes(meta, {}).ok());
  std::vector<std::pair<std::string, SafetensorsEntry>> index = {{"i", {dtypes::index, {1}}}};
  auto s = SafetensorsHeaderBytes(index, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("tensor 'i': dtype dtypes.index has no safetensors name"),
            std::string::npos) << s.status();
  std::vector<std::pair<std::string, SafetensorsEntry>> bad_utf8 = {{"\xff", {dtypes::uint8, {1}}}};
  EXPECT_FALSE(SafetensorsHeaderBytes(bad_utf8, {}).ok());
  EXPECT_FALSE(SafetensorsHeaderBytes(index = {}, {{"k", "\xfe"}}).ok());
}

}  // namespace
}  // namespace tg
