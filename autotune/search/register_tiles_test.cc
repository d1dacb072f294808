// File: autotune/search/register_tiles_test.cc
// BEAM_SIMD's register tiles: which seeds and limits an ISA and a kernel get, that seeds are
// never offered where the kernel's shape does not allow them and run correctly (checked against
// the unoptimized kernel) compiled for their ISA, that the search times them in its first round
// only, and that without them (no BEAM_SIMD, tiles off, unknown ISA) nothing changes.
#include "autotune/search/register_tiles.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/search/beam_search.h"
#include "autotune/search/search_test_util.h"
#include "autotune/search/simd_actions.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/runtime/cpu/cpu_target.h"

namespace tg::autotune {
namespace {

constexpr VectorIsa kAvx2{256, 16}, kAvx512{512, 32};

SearchSettings Tiles(bool simd = true, bool tiles = true) {
  SearchSettings s;
  s.simd = simd;
  s.tiles = tiles;
  return s;
}

const Renderer& Cpu() {
  absl::StatusOr<Device*> d = GetDevice("CPU");
  TG_CHECK(d.ok());
  return (*d)->renderer();
}

Scheduler Root(const UOp& ast, const Renderer& ren = Cpu()) {
  Scheduler k(ast, ren);
  k.ConvertLoopToGlobal();
  return k;
}

// "mr x nr" of each seed: the product of the UPCASTs on axis 0 (rows) and on axis 1 (columns),
// "p" when the rows are padded.
std::vector<std::string> TileShapes(const std::vector<std::vector<Opt>>& seeds) {
  std::vector<std::string> out;
  for (const std::vector<Opt>& seed : seeds) {
    int64_t rows = 1, cols = 1;
    for (const Opt& o : seed)
      if (o.op == OptOps::UPCAST) (o.axis == 0 ? rows : cols) *= std::get<int64_t>(o.arg);
    const bool padded = std::any_of(seed.begin(), seed.end(), [](const Opt& o) { return o.op == OptOps::PADTO; });
    out.push_back(absl::StrCat(rows, "x", cols, padded ? "p" : ""));
  }
  return out;
}

TEST(RegisterTilesTest, LimitsFollowTheIsaWithSimdAndTilesOnly) {
  const SearchLimits reference{.upcast_max = 256, .unroll_max = 0, .uops_max = 3000};
  EXPECT_EQ(SearchLimitsFor(SearchSettings{}, kAvx512), reference);
  EXPECT_EQ(SearchLimitsFor(Tiles(/*simd=*/false), kAvx512), reference);  // no BEAM_SIMD
  EXPECT_EQ(SearchLimitsFor(Tiles(true, /*tiles=*/false), kAvx512), reference);
  EXPECT_EQ(SearchLimitsFor(Tiles(), VectorIsa{}), reference);  // unknown vector unit
  EXPECT_FALSE(UsesRegisterTiles(Tiles(), VectorIsa{}));
  // AVX-512: 28 zmm of accumulators (448 floats), UNROLL apart
  EXPECT_EQ(SearchLimitsFor(Tiles(), kAvx512), (SearchLimits{.upcast_max = 448, .unroll_max = 8, .uops_max = 21000}));
  // AVX2: the registers (96 floats) bound a reducing kernel's tile below the reference's 256
  EXPECT_EQ(SearchLimitsFor(Tiles(), kAvx2), (SearchLimits{.upcast_max = 256, .unroll_max = 8, .uops_max = 4500}));
  // limits the user set stand
  SearchSettings user = Tiles();
  user.upcast_max = 1024;
  user.uops_max = 10000;
  EXPECT_EQ(SearchLimitsFor(user, kAvx512), (SearchLimits{.upcast_max = 1024, .unroll_max = 0, .uops_max = 10000}));
  user.uops_max = 0;  // off
  EXPECT_EQ(SearchLimitsFor(user, kAvx2).uops_max, 0);
}

TEST(RegisterTilesTest, SeedsOfEachIsa) {
  const Scheduler m1024 = Root(MatmulKernel(1024)), m48 = Root(MatmulKernel(48));
  // rows that do not divide by the full tile's: the largest that does, and the full one padded
  EXPECT_EQ(TileShapes(RegisterTileSeeds(m1024, kAvx512)),
            (std::vector<std::string>{"16x16", "8x32", "14x32p", "4x64", "6x64p"}));
  EXPECT_EQ(TileShapes(RegisterTileSeeds(m1024, kAvx2)), (std::vector<std::string>{"8x8", "12x8p", "4x16", "6x16p", "2x32"}));
  // rows are the largest divisor of M that fits: 6x16 and 4x24 on AVX2 where 48 allows them
  EXPECT_EQ(TileShapes(RegisterTileSeeds(m48, kAvx2)), (std::vector<std::string>{"12x8", "6x16", "4x24"}));
  EXPECT_EQ(TileShapes(RegisterTileSeeds(m48, kAvx512)), (std::vector<std::string>{"16x16", "8x48", "9x48p"}));
  // the opts: vectors first (stride 1), then their count, the rows, the SIMD width
  EXPECT_EQ(RegisterTileSeeds(m1024, kAvx512)[3],
            (std::vector<Opt>{Opt{OptOps::UPCAST, 1, int64_t{16}}, Opt{OptOps::UPCAST, 1, int64_t{4}},
                              Opt{OptOps::UPCAST, 0, int64_t{4}}, Opt{OptOps::SIMD, std::nullopt, int64_t{16}}}));
  // padded: SIMD, then PADTO to two tiles (THREAD on the rows still splits them), rows, columns
  EXPECT_EQ(RegisterTileSeeds(m1024, kAvx2)[3],
            (std::vector<Opt>{Opt{OptOps::SIMD, std::nullopt, int64_t{8}}, Opt{OptOps::PADTO, 0, int64_t{12}},
                              Opt{OptOps::UPCAST, 0, int64_t{6}}, Opt{OptOps::UPCAST, 1, int64_t{8}},
                              Opt{OptOps::UPCAST, 1, int64_t{2}}}));
  // every seed applies to the kernel and fits the registers
  for (const VectorIsa& isa : {kAvx2, kAvx512})
    for (const Scheduler& root : {m1024, m48})
      for (const std::vector<Opt>& seed : RegisterTileSeeds(root, isa)) {
        Scheduler t = root;
        for (const Opt& o : seed) ASSERT_TRUE(t.ApplyOpt(o).ok()) << o.ToString();
        EXPECT_TRUE(FitsVectorRegisters(t, isa));
        EXPECT_TRUE(WithinLimits(t, SearchLimitsFor(Tiles(), isa), Tiles(), isa));
      }
}

TEST(RegisterTilesTest, NoSeedsWhereTheKernelDoesNotAllowThem) {
  EXPECT_TRUE(RegisterTileSeeds(Root(MatmulKernel(1024)), VectorIsa{}).empty());  // unknown ISA
  EXPECT_TRUE(RegisterTileSeeds(Root(AddKernel(4096)), kAvx512).empty());          // no reduction
  EXPECT_TRUE(RegisterTileSeeds(Root(SumKernel(64, 64)), kAvx512).empty());        // one output axis
  // columns that no whole number of vectors divides
  EXPECT_TRUE(RegisterTileSeeds(Root(MatmulKernel(20)), kAvx2).empty());
  EXPECT_TRUE(RegisterTileSeeds(Root(MatmulKernel(40)), kAvx512).empty());
  // 40 columns take 8-float vectors, but no 2 (16), 3 (24) or 4 (32) of them; 10 rows divide 40
  EXPECT_EQ(TileShapes(RegisterTileSeeds(Root(MatmulKernel(40)), kAvx2)), (std::vector<std::string>{"10x8", "12x8p"}));
}

// The 4x64 seed's UNROLL 4 (1024 by the reference's count) is a child with register tiles, and
// not without them; a user's BEAM_UPCAST_MAX counts it as the reference does.
TEST(RegisterTilesTest, UnrollIsBoundedApartFromTheTile) {
  Scheduler tile = Root(MatmulKernel(1024));
  const std::vector<std::vector<Opt>> seeds = RegisterTileSeeds(tile, kAvx512);
  ASSERT_EQ(TileShapes(seeds).at(3), "4x64");
  for (const Opt& o : seeds[3]) ASSERT_TRUE(tile.ApplyOpt(o).ok()) << o.ToString();
  const std::vector<Opt> unroll = {Opt{OptOps::UNROLL, 0, int64_t{4}}, Opt{OptOps::UNROLL, 0, int64_t{16}}};
  auto tried = [&](const SearchSettings& s, const VectorIsa& isa) { return AmountsTried(tile, unroll, s, isa); };
  EXPECT_EQ(tried(Tiles(), kAvx512), std::vector<int64_t>{4});  // 16 is over kTileUnrollMax
  EXPECT_TRUE(tried(Tiles(true, false), kAvx512).empty());
  EXPECT_TRUE(tried(Tiles(), VectorIsa{}).empty());
  SearchSettings user = Tiles();
  user.upcast_max = 1024;
  EXPECT_EQ(tried(user, kAvx512), std::vector<int64_t>{4});
  user.upcast_max = 512;
  EXPECT_TRUE(tried(user, kAvx512).empty());
}

// Every seed, and every seed with UNROLL 4, runs correctly compiled for its ISA.
void ExpectSeedsCorrect(const char* target, const VectorIsa& isa, int n) {
  if (absl::Status s = CheckCpuTarget(target); !s.ok()) GTEST_SKIP() << s;
  Device* dev = CpuDeviceFor(target);
  std::vector<std::vector<Opt>> candidates = RegisterTileSeeds(Root(MatmulKernel(n), dev->renderer()), isa);
  ASSERT_GE(candidates.size(), 2u);
  for (size_t i = 0, seeds = candidates.size(); i < seeds; ++i) {
    candidates.push_back(candidates[i]);
    candidates.back().push_back(Opt{OptOps::UNROLL, 0, int64_t{4}});
  }
  ExpectCandidatesCorrect(dev, MatmulKernel(n), candidates);
}

TEST(RegisterTilesTest, Avx2SeedsAreCorrect) { ExpectSeedsCorrect("x86-64-v3", kAvx2, 48); }
TEST(RegisterTilesTest, Avx512SeedsAreCorrect) { ExpectSeedsCorrect("x86-64-v4", kAvx512, 64); }

// Answers every candidate with a time that favours long opt lists, and records the batches.
class RecordingMeasurer : public Measurer {
 public:
  absl::StatusOr<MeasureBatch> Measure(const KernelTask&, std::span<const std::vector<Opt>> cands,
                                       const MeasureOptions& o) override {
    batches.emplace_back(cands.begin(), cands.end());
    uops_max.push_back(o.uops_max);
    MeasureBatch b;
    for (const std::vector<Opt>& opts : cands) {
      CandidateResult r;
      std::string text;
      for (const Opt& x : opts) text += x.ToString();
      r.program_hash = std::hash<std::string>()(text) | 1;
      r.min_s = 1e-3 / (1 + static_cast<double>(opts.size()));
      r.samples_s = {r.min_s};
      b.results.push_back(r);
    }
    return b;
  }
  std::vector<std::vector<std::vector<Opt>>> batches;
  std::vector<int64_t> uops_max;
};

int SeedsIn(const std::vector<std::vector<Opt>>& batch, const std::vector<std::vector<Opt>>& seeds) {
  return static_cast<int>(std::count_if(batch.begin(), batch.end(), [&](const std::vector<Opt>& c) {
    return std::find(seeds.begin(), seeds.end(), c) != seeds.end();
  }));
}

TEST(RegisterTilesTest, TheFirstRoundTimesTheSeeds) {
  const UOp ast = MatmulKernel(64);
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(ast);
  ASSERT_TRUE(task.ok());
  absl::StatusOr<UOp> input = OptimizerInput(ast, Cpu(), task->codegen);
  ASSERT_TRUE(input.ok()) << input.status();
  const std::vector<std::vector<Opt>> seeds = RegisterTileSeeds(Root(*input), kAvx512);
  ASSERT_EQ(seeds.size(), 5u);  // 16x16, 8x32, 14x32 padded, 4x64, 6x64 padded
  struct Case {
    SearchSettings settings;
    VectorIsa isa;
    int seeds_in_round1;
    int64_t uops_max;
  };
  for (const Case& c : {Case{Tiles(), kAvx512, 5, 21000}, Case{Tiles(true, false), kAvx512, 0, 3000},
                        Case{Tiles(), VectorIsa{}, 0, 3000}, Case{Tiles(false, true), kAvx512, 0, 3000}}) {
    SCOPED_TRACE(c.settings.ToString());
    RecordingMeasurer m;
    SearchSettings s = c.settings;
    s.width = 2;
    s.min_progress_us = 40;  // a few rounds (each longer list gains less)
    absl::StatusOr<BeamResult> r = BeamSearch(*task, Cpu(), m, s, {.vector_isa = c.isa});
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_GE(m.batches.size(), 3u);  // baselines, round 1, round 2, ...
    EXPECT_EQ(SeedsIn(m.batches[1], seeds), c.seeds_in_round1);
    EXPECT_EQ(SeedsIn(m.batches[2], seeds), 0);  // later rounds extend them
    EXPECT_EQ(m.uops_max[1], c.uops_max);
  }
}

}  // namespace
}  // namespace tg::autotune
