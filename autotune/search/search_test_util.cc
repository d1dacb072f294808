// File: autotune/search/search_test_util.cc
#include "autotune/search/search_test_util.h"

#include <string>

#include "autotune/measure/local_measurer.h"
#include "autotune/search/beam_search.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/config.h"
#include "tinygrad/runtime/cpu/cpu_target.h"

namespace tg::autotune {

std::vector<int64_t> AmountsTried(const Scheduler& s, const std::vector<Opt>& actions, const SearchSettings& settings,
                                  const VectorIsa& isa) {
  std::vector<int64_t> amts;
  for (const auto& [i, child] : GetKernelActions(s, actions, settings, /*include_0=*/false, isa))
    amts.push_back(std::get<int64_t>(actions[i - 1].arg));
  return amts;
}

Device* CpuDeviceFor(const char* target) {
  CpuDeviceOptions o = CpuDeviceOptions::FromConfig(GetConfig());
  o.cpu_target = target;
  o.cachelevel = 0;
  absl::StatusOr<Device*> dev = GetDevice("CPU", DeviceOptions{.cpu = o});
  TG_CHECK(dev.ok()) << dev.status();
  return *dev;
}

void ExpectCandidatesCorrect(Device* dev, const UOp& ast, const std::vector<std::vector<Opt>>& candidates) {
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(ast);
  ASSERT_TRUE(task.ok()) << task.status();
  LocalMeasurer m(dev, {});
  MeasureOptions mo;
  mo.runs = 1;
  mo.uops_max = 0;  // check big tiles too (the search would skip those over BEAM_UOPS_MAX)
  absl::StatusOr<MeasureBatch> b = m.Measure(*task, candidates, mo);
  ASSERT_TRUE(b.ok()) << b.status();
  for (size_t i = 0; i < candidates.size(); ++i) {
    const CandidateResult& r = b->results[i];
    std::string opts;
    for (const Opt& x : candidates[i]) opts += x.ToString() + " ";
    EXPECT_TRUE(r.outcome == Outcome::kOk || r.outcome == Outcome::kDuplicate || r.outcome == Outcome::kTooSlow)
        << opts << OutcomeName(r.outcome) << ": " << r.error;
  }
}

}  // namespace tg::autotune
