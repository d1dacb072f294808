// File: autotune/db/record_json_test.cc
// JSON lines of tuning records: exact round trips, escapes, and errors that name the field.
#include "autotune/db/record_json.h"

#include <string>

#include "autotune/db/db_test_util.h"
#include "gtest/gtest.h"

namespace tg::autotune {
namespace {

using testing::SampleRecord;

TEST(RecordJsonTest, RoundTripsEveryField) {
  TuningRecord r = SampleRecord(0xdeadbeef12345678ull, 0.1 + 0.2);
  r.kernel_name = "r_\x1b[34m16\x1b[0m_é \"quoted\" back\\slash\ttab\n";
  r.samples_s = {1e-300, 0.30000000000000004, 5e-324};
  r.noopt_time_s.reset();
  std::string line = RecordToJson(r);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "one line";
  EXPECT_NE(line.find("\"noopt_time_s\":null"), std::string::npos) << line;
  EXPECT_NE(line.find("\"opts\":[[\"UPCAST\",0,4]"), std::string::npos) << line;
  absl::StatusOr<TuningRecord> back = RecordFromJson(line);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << line;
  EXPECT_EQ(*back, r);
}

// The codegen options of the key round-trip; a record exported before they were part of the
// key has none (and keeps its digest); options that do not parse are an error naming them.
TEST(RecordJsonTest, CodegenOptions) {
  TuningRecord r = SampleRecord(9, 0.5);
  r.key.codegen_options = CodegenOptions{.devectorize = 0, .disable_fast_idiv = true};
  const std::string line = RecordToJson(r);
  EXPECT_NE(line.find("\"codegen_options\":\"noopt=0 "), std::string::npos) << line;
  absl::StatusOr<TuningRecord> back = RecordFromJson(line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, r);

  TuningRecord old = SampleRecord(9, 0.5);
  std::string old_line = RecordToJson(old);
  const size_t at = old_line.find(",\"codegen_options\":\"\"");
  ASSERT_NE(at, std::string::npos) << old_line;
  old_line.erase(at, std::string(",\"codegen_options\":\"\"").size());
  back = RecordFromJson(old_line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->key.codegen_options, std::nullopt);
  EXPECT_EQ(*back, old);

  std::string bad = line;
  bad.replace(bad.find("devectorize=0"), 13, "devectorize=x");
  EXPECT_NE(RecordFromJson(bad).status().message().find("codegen_options"), std::string::npos)
      << RecordFromJson(bad).status();
}

TEST(RecordJsonTest, ProvenanceMayBeMissingOtherFieldsMayNot) {
  TuningRecord r = SampleRecord(3, 0.5);
  std::string line = RecordToJson(r);
  std::string no_worker = line;
  no_worker.erase(no_worker.find(",\"worker\""),
                  no_worker.find(",\"host\"") - no_worker.find(",\"worker\""));
  absl::StatusOr<TuningRecord> ok = RecordFromJson(no_worker);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->worker, "");
  std::string no_time = line;
  no_time.replace(no_time.find("\"time_s\""), 8, "\"tim_s\"");
  EXPECT_NE(RecordFromJson(no_time).status().message().find("time_s: is missing"),
            std::string::npos);
  std::string u = "{\"x\":\"\\u00e9\\ud83d\\ude00\"," + line.substr(1);
  EXPECT_TRUE(RecordFromJson(u).ok()) << "unknown fields are ignored";
}

TEST(RecordJsonTest, ErrorsNameWhatIsWrong) {
  std::string line = RecordToJson(SampleRecord(3, 0.5));
  auto err = [](const std::string& text) {
    return std::string(RecordFromJson(text).status().message());
  };
  EXPECT_NE(err("").find("bad JSON at offset 0"), std::string::npos);
  EXPECT_NE(err(line.substr(0, line.size() - 1)).find("bad JSON"), std::string::npos);
  EXPECT_NE(err(line + "x").find("expected end of input"), std::string::npos);
  EXPECT_NE(err("[1,2]").find("not a JSON object"), std::string::npos);
  std::string other_key = line;
  other_key[9] = other_key[9] == '0' ? '1' : '0';
  EXPECT_NE(err(other_key).find("key: is not the digest"), std::string::npos);
  std::string bad_opts = line;
  bad_opts.replace(bad_opts.find("UPCAST"), 6, "UPCASX");
  EXPECT_NE(err(bad_opts).find("opts: "), std::string::npos);
  std::string neg = line;
  neg.replace(neg.find("\"time_s\":0.5"), 12, "\"time_s\":-0.5");
  EXPECT_NE(err(neg).find("not a finite time"), std::string::npos) << err(neg);
  std::string str_num = line;
  str_num.replace(str_num.find("\"candidates\":73"), 15, "\"candidates\":\"73\"");
  EXPECT_NE(err(str_num).find("candidates: is not an integer"), std::string::npos);
}

// Malformed lines are errors that say where or which field, never a crash or an exception.
TEST(RecordJsonTest, MalformedInputIsAnErrorThatSaysWhere) {
  const std::string line = RecordToJson(SampleRecord(3, 0.5));
  auto err = [](const std::string& text) {
    absl::StatusOr<TuningRecord> r = RecordFromJson(text);
    EXPECT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    return std::string(r.status().message());
  };
  // truncated anywhere: the offset where it stopped
  for (size_t n : {size_t{1}, size_t{10}, line.size() / 2, line.size() - 2}) {
    std::string e = err(line.substr(0, n));
    EXPECT_NE(e.find("bad JSON at offset "), std::string::npos) << e;
  }
  EXPECT_NE(err("{\"key\": tru}").find("bad JSON at offset 11: parse error at line 1, column 12: syntax error "
                                      "while parsing value - invalid literal"),
            std::string::npos);
  EXPECT_NE(err("{\"key\":\"\\x\"}").find("bad JSON"), std::string::npos) << "bad escape";
  EXPECT_NE(err("\"\xff\"").find("bad JSON"), std::string::npos) << "invalid UTF-8";
  EXPECT_NE(err("null").find("not a JSON object"), std::string::npos);

  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = line;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
  };
  // wrong types
  EXPECT_NE(err(replaced("\"kernel_name\":\"", "\"kernel_name\":7,\"x\":\"")).find("kernel_name: is not a string"),
            std::string::npos);
  EXPECT_NE(err(replaced("\"opts\":[", "\"opts\":{\"a\":[")).find("bad JSON"), std::string::npos);
  EXPECT_NE(err(replaced("\"time_s\":0.5", "\"time_s\":\"0.5\"")).find("time_s: is not a number"),
            std::string::npos);
  EXPECT_NE(err(replaced("\"noopt_time_s\":", "\"noopt_time_s\":[],\"x\":")).find("noopt_time_s: is not a number"),
            std::string::npos);
  EXPECT_NE(err(replaced("\"samples_s\":[", "\"samples_s\":[\"a\",")).find("samples_s[0]: is not a number"),
            std::string::npos);
  EXPECT_NE(err(replaced("\"candidates\":73", "\"candidates\":7.5")).find("candidates: is not an integer"),
            std::string::npos);
  // missing fields
  EXPECT_NE(err(replaced("\"opts\":", "\"optz\":")).find("opts: is missing"), std::string::npos);
  EXPECT_NE(err(replaced("\"noopt_time_s\":", "\"noopt_tim_s\":")).find("noopt_time_s: is missing"),
            std::string::npos);
  EXPECT_NE(err("{}").find("key: is missing"), std::string::npos);
  // huge numbers
  EXPECT_NE(err(replaced("\"candidates\":73", "\"candidates\":9223372036854775808")).find("candidates: is out of range"),
            std::string::npos);
  EXPECT_NE(err(replaced("\"candidates\":73", "\"candidates\":123456789012345678901234567890")).find("candidates: is not an integer"),
            std::string::npos);
  EXPECT_NE(err(replaced("\"opt_version\":", "\"opt_version\":4294967296,\"x\":")).find("opt_version: is out of range"),
            std::string::npos);
  EXPECT_NE(err(replaced("\"time_s\":0.5", "\"time_s\":1e999")).find("bad JSON"), std::string::npos);
  // deep nesting in an ignored field: parsed without recursion, then rejected or ignored
  std::string deep = "{\"x\":" + std::string(100000, '[') + std::string(100000, ']') + "," + line.substr(1);
  EXPECT_TRUE(RecordFromJson(deep).ok());
  EXPECT_NE(err(std::string(100000, '[')).find("bad JSON"), std::string::npos);
}

TEST(RecordJsonTest, IntegralDoublesAndInvalidUtf8) {
  TuningRecord r = SampleRecord(5, 2.0);
  r.search_wall_s = 4;
  std::string line = RecordToJson(r);
  EXPECT_NE(line.find("\"search_wall_s\":4.0"), std::string::npos) << line;
  absl::StatusOr<TuningRecord> back = RecordFromJson(line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, r);
  r.kernel_name = "bad \xff byte";
  back = RecordFromJson(RecordToJson(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->kernel_name, "bad \xef\xbf\xbd byte");
}

}  // namespace
}  // namespace tg::autotune
