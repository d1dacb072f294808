// File: autotune/search/simd_actions_test.cc
// BEAM_SIMD's actions sized by the vector unit: the lists for AVX2 and AVX-512, the register
// bound, the reference's list untouched without BEAM_SIMD, and every new candidate shape (and
// tiles of a linear + relu kernel) correct against the unoptimized kernel on a device compiling
// for that ISA.
#include "autotune/search/simd_actions.h"

#include <algorithm>
#include <set>
#include <vector>

#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/search/beam_search.h"
#include "autotune/search/search_test_util.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/runtime/cpu/cpu_target.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::autotune {
namespace {

constexpr VectorIsa kAvx2{256, 16}, kAvx512{512, 32};

SearchSettings Simd(bool on) {
  SearchSettings s;
  s.simd = on;
  return s;
}

std::set<int64_t> SimdWidthsOf(const std::vector<Opt>& actions) {
  std::set<int64_t> out;
  for (const Opt& o : actions)
    if (o.op == OptOps::SIMD) out.insert(std::get<int64_t>(o.arg));
  return out;
}

const Renderer& Cpu() {
  absl::StatusOr<Device*> d = GetDevice("CPU");
  TG_CHECK(d.ok());
  return (*d)->renderer();
}

TEST(SimdActionsTest, WidthsFollowTheIsa) {
  EXPECT_EQ(SimdWidthsOf(SimdActions(kAvx2)), (std::set<int64_t>{8}));  // no 16-float vectors on AVX2
  EXPECT_EQ(SimdWidthsOf(SimdActions(kAvx512)), (std::set<int64_t>{8, 16}));
  EXPECT_EQ(SimdUpcastAmounts(kAvx2), (std::vector<int64_t>{6, 8, 16}));
  EXPECT_EQ(SimdUpcastAmounts(kAvx512), (std::vector<int64_t>{6, 8, 16}));
  // unknown vector unit: the extension as it was (UPCAST 8/16 on 8 axes, SIMD 8/16)
  EXPECT_EQ(SimdUpcastAmounts({}), (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(SimdWidthsOf(SimdActions({})), (std::set<int64_t>{8, 16}));
  EXPECT_EQ(SimdActions({}).size(), 16u + 2);
}

TEST(SimdActionsTest, OnlyWithBeamSimd) {
  // without BEAM_SIMD the ISA changes nothing: the reference's list
  EXPECT_EQ(BeamActions(Simd(false), kAvx2), BeamActions(Simd(false)));
  EXPECT_EQ(BeamActions(Simd(false), kAvx512), BeamActions(Simd(false)));
  // with it, the reference's list comes first, then ours for the ISA
  std::vector<Opt> base = BeamActions(Simd(false)), avx2 = BeamActions(Simd(true), kAvx2);
  ASSERT_EQ(avx2.size(), base.size() + SimdActions(kAvx2).size());
  EXPECT_TRUE(std::equal(base.begin(), base.end(), avx2.begin()));
  EXPECT_EQ(SimdWidthsOf(avx2), (std::set<int64_t>{8}));
  EXPECT_EQ(SimdWidthsOf(BeamActions(Simd(true), kAvx512)), (std::set<int64_t>{8, 16}));
}

// A 64x64 matmul with an 8-row, 16-column tile: 128 accumulators, 16 ymm registers (AVX2
// keeps 12 for them: it would spill) or 8 zmm (AVX-512: fits).
TEST(SimdActionsTest, RegisterBound) {
  Scheduler k(MatmulKernel(64), Cpu());
  k.ConvertLoopToGlobal();
  ASSERT_TRUE(k.ApplyOpt(Opt{OptOps::UPCAST, 0, int64_t{8}}).ok());
  EXPECT_EQ(AccumulatorFloats(k), 8);
  const std::vector<Opt> actions = {Opt{OptOps::UPCAST, 1, int64_t{16}}, Opt{OptOps::UPCAST, 1, int64_t{8}}};
  auto tried = [&](const SearchSettings& s, const VectorIsa& isa) { return AmountsTried(k, actions, s, isa); };
  EXPECT_EQ(tried(Simd(true), kAvx2), std::vector<int64_t>{8});  // 8x8 = 64 floats = 8 ymm
  EXPECT_EQ(tried(Simd(true), kAvx512), (std::vector<int64_t>{16, 8}));
  EXPECT_EQ(tried(Simd(false), kAvx2), (std::vector<int64_t>{16, 8}));  // no bound without BEAM_SIMD
  EXPECT_EQ(tried(Simd(true), VectorIsa{}), (std::vector<int64_t>{16, 8}));  // nor for an unknown unit
  Scheduler tile = k;
  ASSERT_TRUE(tile.ApplyOpt(Opt{OptOps::UPCAST, 1, int64_t{16}}).ok());
  EXPECT_EQ(AccumulatorFloats(tile), 128);
  EXPECT_FALSE(FitsVectorRegisters(tile, kAvx2));
  EXPECT_TRUE(FitsVectorRegisters(tile, kAvx512));
  // an elementwise kernel holds no accumulators
  Scheduler add(AddKernel(256), Cpu());
  add.ConvertLoopToGlobal();
  ASSERT_TRUE(add.ApplyOpt(Opt{OptOps::UPCAST, 0, int64_t{16}}).ok());
  EXPECT_EQ(AccumulatorFloats(add), 0);
}

// Every candidate BEAM_SIMD's actions make from a 48x48 matmul in two steps (6-row tiles
// included) runs correctly, compiled for the ISA the actions were sized for.
void ExpectEveryCandidateCorrect(const char* target, const VectorIsa& isa) {
  if (absl::Status s = CheckCpuTarget(target); !s.ok()) GTEST_SKIP() << s;
  Device* dev = CpuDeviceFor(target);
  Scheduler root(MatmulKernel(48), dev->renderer());
  root.ConvertLoopToGlobal();
  const std::vector<Opt> actions = SimdActions(isa);
  std::vector<std::vector<Opt>> candidates;
  for (const auto& [i, child] : GetKernelActions(root, actions, Simd(true), false, isa)) {
    candidates.push_back(child.applied_opts());
    for (const auto& [j, grandchild] : GetKernelActions(child, actions, Simd(true), false, isa))
      candidates.push_back(grandchild.applied_opts());
  }
  ASSERT_GT(candidates.size(), 20u);
  ExpectCandidatesCorrect(dev, MatmulKernel(48), candidates);
  int simd = 0;
  for (const std::vector<Opt>& c : candidates)
    simd += std::any_of(c.begin(), c.end(), [](const Opt& x) { return x.op == OptOps::SIMD; });
  EXPECT_GT(simd, 0);
}

TEST(SimdActionsTest, EveryAvx2CandidateIsCorrect) { ExpectEveryCandidateCorrect("x86-64-v3", kAvx2); }

// The register tiles measured for AVX2 (tools/bench/cpu_matmul_log.md, "AVX2 register tiles"), on a
// 64x64 matmul whose 64 rows a 6-row tile must pad (PADTO after SIMD clamps the padded rows'
// loads), with their accumulators as C vectors: each correct against the unoptimized kernel. Also a
// padded column axis (its B loads clamped lane by lane) and a padded reduce axis (which stays
// gated: its padding must add zeros).
void ExpectTilesCorrect(const char* target, int64_t lanes) {
  if (absl::Status s = CheckCpuTarget(target); !s.ok()) GTEST_SKIP() << s;
  const Opt simd{OptOps::SIMD, std::nullopt, lanes};
  auto up = [](int64_t axis, int64_t amt) { return Opt{OptOps::UPCAST, axis, amt}; };
  auto pad = [](int64_t axis, int64_t amt) { return Opt{OptOps::PADTO, axis, amt}; };
  const Opt unroll4{OptOps::UNROLL, 0, int64_t{4}}, thread0{OptOps::THREAD, 0, int64_t{2}},
      thread1{OptOps::THREAD, 1, int64_t{2}}, pack_b{OptOps::PACK, std::nullopt, int64_t{2}};
  const std::vector<std::vector<Opt>> candidates = {
      {up(1, 16), up(0, 4), simd},                                       // 4x16
      {up(1, 16), up(0, 4), simd, unroll4, thread0, pack_b},             // 4x16 U4, packed B
      {up(1, 16), up(1, 2), up(0, 2), simd, unroll4},                    // 2x32
      {up(1, 8), up(0, 8), simd, unroll4},                               // 8x8
      {simd, pad(0, 6), up(0, 6), up(1, 16), thread1, pack_b},           // 6x16, rows padded 64 -> 66
      {simd, pad(0, 6), up(0, 6), up(1, 16), unroll4},
      {simd, pad(0, 3), up(0, 3), up(1, 16), up(1, 2)},                  // 3x32
      {simd, pad(1, 24), up(1, 8), up(0, 4)},                            // columns padded 64 -> 72
      {simd, pad(2, 48), up(1, 16), up(0, 4)},                           // the reduce padded (gated)
      {pad(0, 6), up(0, 6), up(1, 16), simd},                            // PADTO before SIMD: gated
  };
  ExpectCandidatesCorrect(CpuDeviceFor(target), MatmulKernel(64), candidates);
}

TEST(SimdActionsTest, Avx2TilesAreCorrect) { ExpectTilesCorrect("x86-64-v3", 8); }
TEST(SimdActionsTest, Avx512TilesAreCorrect) { ExpectTilesCorrect("x86-64-v4", 16); }

// relu(x @ w + bias), all n x n: a linear layer whose tile is stored through a fused epilogue, so
// its accumulators are C vectors read lane by lane by the epilogue (renderer/c/vector_acc.h).
UOp LinearReluKernel(int64_t n) {
  const std::vector<int64_t> shape{n, n};
  return LastKernelAst(Tensor::Empty(shape).linear(Tensor::Empty(shape), Tensor::Empty({n})).relu());
}

// Tiles of the linear + relu kernel, each correct against its unoptimized kernel.
void ExpectEpilogueTilesCorrect(const char* target, int64_t lanes) {
  if (absl::Status s = CheckCpuTarget(target); !s.ok()) GTEST_SKIP() << s;
  const Opt simd{OptOps::SIMD, std::nullopt, lanes};
  auto up = [](int64_t axis, int64_t amt) { return Opt{OptOps::UPCAST, axis, amt}; };
  const Opt unroll4{OptOps::UNROLL, 0, int64_t{4}}, thread0{OptOps::THREAD, 0, int64_t{2}},
      pad6{OptOps::PADTO, 0, int64_t{6}};
  const std::vector<std::vector<Opt>> candidates = {
      {up(1, 16), up(0, 4), simd},                            // 4x16
      {up(1, 16), up(0, 4), simd, unroll4, thread0},          // 4x16 U4, two threads
      {up(1, 16), up(1, 2), up(0, 2), simd},                  // 2x32
      {up(1, 8), up(0, 8), simd, unroll4},                    // 8x8
      {simd, pad6, up(0, 6), up(1, 16)},                      // 6x16, rows padded 64 -> 66
  };
  ExpectCandidatesCorrect(CpuDeviceFor(target), LinearReluKernel(64), candidates);
}

TEST(SimdActionsTest, Avx2EpilogueTilesAreCorrect) { ExpectEpilogueTilesCorrect("x86-64-v3", 8); }
TEST(SimdActionsTest, Avx512EpilogueTilesAreCorrect) { ExpectEpilogueTilesCorrect("x86-64-v4", 16); }
TEST(SimdActionsTest, EveryAvx512CandidateIsCorrect) { ExpectEveryCandidateCorrect("x86-64-v4", kAvx512); }

}  // namespace
}  // namespace tg::autotune
