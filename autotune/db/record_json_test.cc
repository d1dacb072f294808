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
  EXPECT_NE(RecordFromJson(no_time).status().message().find("field 'time_s': missing"),
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
  EXPECT_NE(err(line + "x").find("trailing text"), std::string::npos);
  EXPECT_NE(err("[1,2]").find("not a JSON object"), std::string::npos);
  std::string other_key = line;
  other_key[9] = other_key[9] == '0' ? '1' : '0';
  EXPECT_NE(err(other_key).find("field 'key': is not the digest"), std::string::npos);
  std::string bad_opts = line;
  bad_opts.replace(bad_opts.find("UPCAST"), 6, "UPCASX");
  EXPECT_NE(err(bad_opts).find("field 'opts'"), std::string::npos);
  std::string neg = line;
  neg.replace(neg.find("\"time_s\":0.5"), 12, "\"time_s\":-0.5");
  EXPECT_NE(err(neg).find("not a finite time"), std::string::npos) << err(neg);
  std::string str_num = line;
  str_num.replace(str_num.find("\"candidates\":73"), 15, "\"candidates\":\"73\"");
  EXPECT_NE(err(str_num).find("field 'candidates': wrong type"), std::string::npos);
}

}  // namespace
}  // namespace tg::autotune
