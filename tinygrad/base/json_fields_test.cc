// File: tinygrad/base/json_fields_test.cc
// Checked JSON reads: every wrong input is an InvalidArgument that names the value's path,
// never an exception, an abort or a silently narrowed number.
#include "tinygrad/base/json_fields.h"

#include <cstdint>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

Json Parsed(const std::string& text) {
  absl::StatusOr<Json> j = ParseJson(text);
  EXPECT_TRUE(j.ok()) << j.status();
  return j.ok() ? *j : Json();
}

template <class T>
std::string Error(const absl::StatusOr<T>& r) {
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  return std::string(r.status().message());
}

TEST(JsonFieldsTest, ReadsEachType) {
  Json j = Parsed(R"({"s":"x","b":true,"d":1.5,"i":-3,"c":7,"a":["p","q"],"n":[1,2.5],"z":null})");
  JsonFields f(j, "doc");
  EXPECT_TRUE(f.IsObject().ok());
  EXPECT_EQ(*f.String("s"), "x");
  EXPECT_EQ(*f.OptionalString("s"), "x");
  EXPECT_EQ(*f.OptionalString("absent"), "");
  EXPECT_TRUE(*f.Bool("b"));
  EXPECT_EQ(*f.Number("d"), 1.5);
  EXPECT_EQ(*f.Number("i"), -3.0) << "an integer is a number";
  EXPECT_EQ(*f.Int("i"), -3);
  EXPECT_EQ(*f.Count("c"), 7u);
  EXPECT_EQ(*f.Index("c", 8, "a node"), 7u);
  EXPECT_EQ(*f.Strings("a"), (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(*f.Numbers("n"), (std::vector<double>{1, 2.5}));
  EXPECT_EQ(*f.NullableNumber("z"), std::nullopt);
  EXPECT_EQ(*f.NullableNumber("d"), 1.5);
  EXPECT_EQ((*f.Array("a"))->size(), 2u);
  EXPECT_TRUE(f.Has("z"));
  EXPECT_FALSE(f.Has("absent"));
}

TEST(JsonFieldsTest, MissingFieldsNameTheirPath) {
  Json j = Parsed(R"({"x":1})");
  EXPECT_EQ(Error(JsonFields(j, "trace").String("name")), "trace.name: is missing");
  EXPECT_EQ(Error(JsonFields(j, "").Count("n")), "n: is missing") << "an unnamed root";
  EXPECT_EQ(Error(JsonFields(j, "t").NullableNumber("z")), "t.z: is missing") << "null is not absent";
}

TEST(JsonFieldsTest, WrongTypesSayWhatWasExpected) {
  Json j = Parsed(R"({"n":7,"s":"7","o":{},"f":7.5,"neg":-1})");
  JsonFields f(j, "r");
  EXPECT_EQ(Error(f.String("n")), "r.n: is not a string");
  EXPECT_EQ(Error(f.OptionalString("n")), "r.n: is not a string") << "present, so checked";
  EXPECT_EQ(Error(f.Bool("n")), "r.n: is not true or false");
  EXPECT_EQ(Error(f.Number("s")), "r.s: is not a number");
  EXPECT_EQ(Error(f.NullableNumber("s")), "r.s: is not a number");
  EXPECT_EQ(Error(f.Int("s")), "r.s: is not an integer");
  EXPECT_EQ(Error(f.Int("f")), "r.f: is not an integer: 7.5");
  EXPECT_EQ(Error(f.Count("neg")), "r.neg: is not a non-negative integer");
  EXPECT_EQ(Error(f.Count("f")), "r.f: is not a non-negative integer");
  EXPECT_EQ(Error(f.Array("o")), "r.o: is not an array");
  EXPECT_EQ(Error(f.Strings("o")), "r.o: is not an array");
  EXPECT_EQ(Error(f.Numbers("s")), "r.s: is not an array");
  // reads on something that is not an object say so, not "missing"
  Json a = Parsed("[1]");
  EXPECT_EQ(Error(JsonFields(a, "doc").String("x")), "doc: is not an object");
  EXPECT_EQ(Error(JsonFields(a, "doc").OptionalString("x")), "doc: is not an object");
  EXPECT_FALSE(JsonFields(a, "doc").Has("x"));
  EXPECT_EQ(JsonFields(a, "").IsObject().message(), "is not an object");
}

TEST(JsonFieldsTest, IntegersOutOfRangeAreErrorsNotWrapped) {
  Json j = Parsed(R"({"big":9223372036854775808,"max":9223372036854775807,"min":-9223372036854775808,)"
                  R"("u64":18446744073709551615,"past":18446744073709551616,"i32":4294967296,"m":-2147483649})");
  JsonFields f(j, "");
  EXPECT_EQ(*f.Int("max"), INT64_MAX);
  EXPECT_EQ(*f.Int("min"), INT64_MIN);
  EXPECT_EQ(Error(f.Int("big")), "big: is out of range: 9223372036854775808");
  EXPECT_EQ(*f.Count("big"), 9223372036854775808u);
  EXPECT_EQ(*f.Count("u64"), UINT64_MAX);
  // past uint64, nlohmann reads a float: not an integer, never a wrapped count
  EXPECT_THAT(Error(f.Count("past")), HasSubstr("past: is not a non-negative integer"));
  EXPECT_THAT(Error(f.Int("past")), HasSubstr("past: is not an integer: 1.8446744073709552e+19"));
  EXPECT_EQ(Error(f.Int("i32", INT32_MIN, INT32_MAX)), "i32: is out of range: 4294967296 (not in [-2147483648, 2147483647])");
  EXPECT_THAT(Error(f.Int("m", INT32_MIN, INT32_MAX)), HasSubstr("m: is out of range: -2147483649"));
  EXPECT_EQ(*f.Int("max", 0, INT64_MAX), INT64_MAX);
  EXPECT_EQ(Error(f.Index("max", 3, "a group")), "max: 9223372036854775807 is not a group (there are 3)");
}

TEST(JsonFieldsTest, NestedPathsNameEveryStep) {
  Json j = Parsed(R"({"rewrites":[{"matches":[{"ns":1},{"ns":-2}]}],"linear":["a",3]})");
  JsonFields root(j, "trace");
  const Json& rewrites = **root.Array("rewrites");
  JsonFields rewrite(rewrites[0], JsonIndexPath(root.At("rewrites"), 0));
  const Json& matches = **rewrite.Array("matches");
  JsonFields match(matches[1], JsonIndexPath(rewrite.At("matches"), 1));
  EXPECT_EQ(Error(match.Count("ns")), "trace.rewrites[0].matches[1].ns: is not a non-negative integer");
  EXPECT_EQ(match.Bad("ns", "is odd").message(), "trace.rewrites[0].matches[1].ns: is odd");
  EXPECT_EQ(Error(root.Strings("linear")), "trace.linear[1]: is not a string");
  EXPECT_EQ(Error(JsonNumbers(Parsed(R"([1,"x"])"), "samples")), "samples[1]: is not a number");
  EXPECT_EQ(JsonError("", "bare").message(), "bare");
}

TEST(JsonFieldsTest, HostileTextIsAnErrorThatSaysWhere) {
  auto err = [](const std::string& text, JsonParseLimits limits = {}) { return Error(ParseJson(text, limits)); };
  EXPECT_THAT(err(""), HasSubstr("bad JSON at offset 0: parse error at line 1, column 1"));
  EXPECT_THAT(err(R"({"key": tru})"), HasSubstr("bad JSON at offset 11: parse error at line 1, column 12: syntax error"));
  EXPECT_THAT(err(R"({"a":1} x)"), HasSubstr("expected end of input"));
  EXPECT_THAT(err("\"\xff\""), HasSubstr("bad JSON at offset")) << "invalid UTF-8";
  EXPECT_THAT(err(std::string("{\"a\0\":1}", 8)), HasSubstr("bad JSON")) << "a NUL in a name";
  EXPECT_THAT(err("1e400"), HasSubstr("bad JSON")) << "past a double";
  EXPECT_THAT(err("[\"\\ud800\"]"), HasSubstr("bad JSON")) << "a lone surrogate";
  for (size_t n = 0; n < 9; ++n) EXPECT_THAT(err(std::string(R"({"a":[1,)").substr(0, n)), HasSubstr("bad JSON")) << n;
  // nesting: unlimited by default (the parser does not recurse), limited on request
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_TRUE(ParseJson(deep).ok());
  EXPECT_EQ(err(deep, {.max_depth = 16}), "bad JSON: nests deeper than 16 levels");
  EXPECT_TRUE(ParseJson(std::string(16, '[') + std::string(16, ']'), {.max_depth = 16}).ok());
  // duplicate names: the last wins unless refused, at any level
  EXPECT_EQ((*ParseJson(R"({"k":1,"k":2})"))["k"], 2);
  EXPECT_EQ(err(R"({"k":1,"k":2})", {.reject_duplicate_names = true}), "bad JSON: names 'k' twice");
  EXPECT_EQ(err(R"({"a":{"k":1,"k":2}})", {.reject_duplicate_names = true}), "bad JSON: names 'k' twice");
  EXPECT_TRUE(ParseJson(R"({"a":{"k":1},"b":{"k":2}})", {.reject_duplicate_names = true}).ok())
      << "the same name in two objects";
}

}  // namespace
}  // namespace tg
