// File: autotune/db/tuning_db_fixture.cc
// Fills a tuning database with known records and journal rows for the `tg db` test
// (tools/cli/db_command_test.sh):
//
//   tuning_db_fixture LOCATION      stores 4 records (one of an old codegen version) and
//                                   3 journal rows (2 of a finished search, 1 of a running one)
//   tuning_db_fixture --better      prints 2 JSON lines: record 1 faster, and a new record 5
//   tuning_db_fixture --many        prints 17 JSON lines of records 100-116 (so two of their key
//                                   digests begin with the same hex digit)
#include <cstdio>
#include <string>
#include <string_view>

#include "autotune/db/db_test_util.h"
#include "autotune/db/record_json.h"
#include "autotune/db/tuning_db.h"

namespace tg::autotune {
namespace {

int Main(std::string_view arg) {
  if (arg == "--better") {
    TuningRecord faster = testing::SampleRecord(1, 0.0005);
    faster.worker = "site-b worker 1";
    std::printf("%s\n%s\n", RecordToJson(faster).c_str(),
                RecordToJson(testing::SampleRecord(5, 0.01)).c_str());
    return 0;
  }
  if (arg == "--many") {
    for (int i = 100; i < 117; ++i) std::printf("%s\n", RecordToJson(testing::SampleRecord(i, 0.001)).c_str());
    return 0;
  }
  absl::StatusOr<std::unique_ptr<TuningDb>> db = OpenTuningDb(std::string(arg));
  if (!db.ok()) {
    std::fprintf(stderr, "%s\n", std::string(db.status().message()).c_str());
    return 1;
  }
  TuningRecord llvm = testing::SampleRecord(2, 0.002);
  llvm.key.renderer = "tg::LLVMRenderer";
  TuningRecord other_device = testing::SampleRecord(3, 0.003);
  other_device.key.device = "00112233445566778899aabbccddeeff";
  other_device.device_description = "CPU | Intel Xeon | avx2 | 8 cores";
  TuningRecord old = testing::SampleRecord(4, 0.004);
  old.key.codegen_version = "0.0.9";
  for (const TuningRecord& r : {testing::SampleRecord(1, 0.001), llvm, other_device, old})
    if (!(*db)->Put(r).ok()) return 1;
  std::string finished = testing::SampleKey(1).Digest(), running = testing::SampleKey(9).Digest();
  for (auto [search, amount] : {std::pair{finished, 2}, {finished, 4}, {running, 2}}) {
    MeasurementRecord m{.search_key = search,
                        .opts = {Opt{OptOps::UPCAST, 0, int64_t{amount}}},
                        .outcome = "ok",
                        .samples_s = {0.001},
                        .min_s = 0.001};
    if (!(*db)->PutMeasurement(m).ok()) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tuning_db_fixture LOCATION | --better\n");
    return 2;
  }
  return tg::autotune::Main(argv[1]);
}
