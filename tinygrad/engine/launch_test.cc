#include "tinygrad/engine/launch.h"

#include <map>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

// A program whose run takes a time decided by its block, and which records its launches.
class TimedByBlock : public Program {
 public:
  explicit TimedByBlock(std::map<LaunchDims, double> times) : times_(std::move(times)) {}
  absl::StatusOr<double> Run(std::span<void* const>, std::span<const int64_t>, const LaunchDims& global,
                             const std::optional<LaunchDims>& local, bool, double) override {
    launches.push_back({global, local});
    if (!local) return absl::InternalError("launched without a block");
    if (lose_device_on && *local == *lose_device_on) return DeviceLostError("CUDA is lost: illegal address");
    auto it = times_.find(*local);
    if (it == times_.end()) return absl::InvalidArgumentError("too many resources requested for launch");
    return it->second;
  }
  std::vector<LaunchShape> launches;
  std::optional<LaunchDims> lose_device_on;

 private:
  std::map<LaunchDims, double> times_;
};

class GpuLike : public Renderer {
 public:
  std::string Render(std::span<const UOp>) const override { return ""; }
};

ProgramSpec SpecWithGrid(std::vector<UOp> global, std::optional<std::vector<UOp>> local) {
  ProgramSpec spec;
  spec.global_size = std::move(global);
  spec.local_size = std::move(local);
  return spec;
}

UOp Index(int64_t v) { return UOp::Const(dtypes::index, ConstValue(v)); }

TEST(LocalSizeCandidatesTest, DivisorsFromTheReferencesListWithinTheWorkgroup) {
  EXPECT_EQ(LocalSizeCandidates({12, 1, 1}),
            (std::vector<LaunchDims>{{1, 1, 1}, {2, 1, 1}, {4, 1, 1}, {12, 1, 1}}))
      << "8 does not divide 12; the axis's own size is a candidate";
  std::vector<LaunchDims> big = LocalSizeCandidates({4096, 4, 1});
  for (const LaunchDims& l : big) {
    EXPECT_LE(l[0] * l[1] * l[2], 1024);
    EXPECT_EQ(4096 % l[0], 0);
  }
  EXPECT_NE(std::find(big.begin(), big.end(), LaunchDims{256, 4, 1}), big.end());
  EXPECT_NE(std::find(big.begin(), big.end(), LaunchDims{1024, 1, 1}), big.end());
  EXPECT_EQ(std::find(big.begin(), big.end(), LaunchDims{1024, 2, 1}), big.end()) << "2048 threads";
  EXPECT_EQ(std::find(big.begin(), big.end(), LaunchDims{512, 1, 1}), big.end()) << "not in the list";
  EXPECT_TRUE(LocalSizeCandidates({0, 1, 1}).empty());
}

TEST(OptimizeLocalSizeTest, TimesEachBlockTwiceAndKeepsTheFastest) {
  TimedByBlock prog({{{1, 1, 1}, 9.0}, {{2, 1, 1}, 3.0}, {{4, 1, 1}, 1.0}, {{12, 1, 1}, 1.0}});
  absl::StatusOr<LaunchShape> s = OptimizeLocalSize(prog, {}, {}, {12, 1, 1}, Program::kNoStop);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->local, (LaunchDims{4, 1, 1})) << "a tie goes to the first candidate";
  EXPECT_EQ(s->global, (LaunchDims{3, 1, 1})) << "the grid is in blocks";
  EXPECT_EQ(prog.launches.size(), 8u);
}

TEST(OptimizeLocalSizeTest, FailedBlocksAreRuledOutAndAllFailingIsAnError) {
  TimedByBlock some({{{1, 1, 1}, 5.0}});
  absl::StatusOr<LaunchShape> s = OptimizeLocalSize(some, {}, {}, {8, 1, 1}, Program::kNoStop);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->local, (LaunchDims{1, 1, 1}));

  TimedByBlock none({});
  s = OptimizeLocalSize(none, {}, {}, {8, 1, 1}, Program::kNoStop);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("every local size for the grid (8, 1, 1) failed"), std::string::npos)
      << s.status();
  EXPECT_NE(s.status().message().find("too many resources"), std::string::npos) << s.status();
}

TEST(OptimizeLocalSizeTest, ALostDeviceEndsTheSearch) {
  TimedByBlock prog({{{1, 1, 1}, 5.0}, {{2, 1, 1}, 4.0}, {{4, 1, 1}, 3.0}});
  prog.lose_device_on = LaunchDims{2, 1, 1};
  absl::StatusOr<LaunchShape> s = OptimizeLocalSize(prog, {}, {}, {4, 1, 1}, Program::kNoStop);
  EXPECT_TRUE(IsDeviceLost(s.status())) << s.status();
  EXPECT_EQ(prog.launches.size(), 2u) << "nothing runs after the fault";
}

TEST(LaunchShapeTest, SizesWithVariablesSubstituted) {
  UOp n = UOp::Variable("n", ConstValue(int64_t{1}), ConstValue(int64_t{64}), dtypes::index);
  ProgramSpec spec = SpecWithGrid({n, Index(2), Index(1)}, std::vector<UOp>{Index(16), Index(1), Index(1)});
  absl::StatusOr<LaunchShape> s = LaunchShapeOf(spec, {{"n", ConstValue(int64_t{8})}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->global, (LaunchDims{8, 2, 1}));
  EXPECT_EQ(s->local, (LaunchDims{16, 1, 1}));
  EXPECT_FALSE(LaunchShapeOf(spec, {}).ok()) << "n has no value";
}

TEST(LaunchShapeTest, OnlyAGpuKernelWithoutBlockAndWithANumericGridNeedsOne) {
  GpuLike gpu;
  GpuLike cpu;
  cpu.has_local = false;
  const ProgramSpec nolocals = SpecWithGrid({Index(64), Index(1), Index(1)}, std::nullopt);
  EXPECT_TRUE(NeedsLocalSize(gpu, nolocals));
  EXPECT_FALSE(NeedsLocalSize(cpu, nolocals));
  EXPECT_FALSE(NeedsLocalSize(gpu, SpecWithGrid({Index(64), Index(1), Index(1)},
                                                std::vector<UOp>{Index(8), Index(1), Index(1)})));
  UOp n = UOp::Variable("n", ConstValue(int64_t{1}), ConstValue(int64_t{64}), dtypes::index);
  EXPECT_FALSE(NeedsLocalSize(gpu, SpecWithGrid({n, Index(1), Index(1)}, std::nullopt)))
      << "a grid of variables is launched as it is (the reference's all_int)";
}

}  // namespace
}  // namespace tg
