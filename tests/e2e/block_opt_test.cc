// File: tests/e2e/block_opt_test.cc
// The cache-blocking opts (ours) end to end on CPU: a matmul of odd sizes with BLOCK in
// opts_to_apply goes through GetProgram and the CPU device (clang) and computes exactly what
// the unoptimized kernel computes (BLOCK reorders output loops, never the reduction), for
// every block size that divides an output axis, alone and with the opts BEAM combines it with;
// and the loop over blocks is the outermost loop of the C source. PACK (a copy of an operand's
// panel into a stack array) likewise, on odd shapes and on a 16-wide SIMD tile whose vector
// loads read the copy; its copy runs once per block, outside the row loop.
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/uop.h"

namespace tg {
namespace {

struct Dims {
  int64_t m, n, k;
};
// Odd on purpose: 30 = 2*3*5 rows, 12 columns, a reduction of 7.
constexpr Dims kOdd{30, 12, 7};
constexpr int64_t kM = kOdd.m, kN = kOdd.n;

UOp DG(int64_t size, int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(size), {}, slot); }

// c[i, j] = sum_k a[i, k] * b[k, j]: (m x k) @ (k x n).
UOp MatmulAst(Dims d) {
  UOp c = DG(d.m * d.n, 0), a = DG(d.m * d.k, 1), b = DG(d.k * d.n, 2);
  UOp i = UOp::Range(d.m, 1), j = UOp::Range(d.n, 2), r = UOp::Range(d.k, 0, AxisType::REDUCE);
  UOp mul = a.index(std::vector<UOp>{i * d.k + r}) * b.index(std::vector<UOp>{r * d.n + j});
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {mul, r}, Ops::ADD);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {c.index(std::vector<UOp>{i * d.n + j}, true).store(red), i, j})});
}

class BlockOptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DeviceOptions two_cores;
    two_cores.cpu.renderer = {.threads = true, .cpu_count = 2};
    two_cores.cpu.cachelevel = 0;
    absl::StatusOr<Device*> dev = GetDevice("CPU", two_cores);
    ASSERT_TRUE(dev.ok()) << dev.status();
    dev_ = *dev;
  }

  // The kernel's output with `opts` applied, and its source in *src.
  std::vector<float> Run(const std::vector<Opt>& opts, std::string* src = nullptr, Dims d = kOdd) {
    // values whose products and sums are exact in float: every order gives the same bits
    std::vector<float> a_(d.m * d.k), b_(d.k * d.n);
    for (size_t x = 0; x < a_.size(); ++x) a_[x] = static_cast<float>(static_cast<int>(x % 11) - 5);
    for (size_t x = 0; x < b_.size(); ++x) b_[x] = static_cast<float>(static_cast<int>(x % 7) - 3) * 0.5f;
    KernelInfo ki;
    ki.opts_to_apply.emplace();
    for (const Opt& o : opts) ki.opts_to_apply->push_back(OptToArg(o));
    ResetKernelNameCounts();
    absl::StatusOr<ProgramSpec> spec = GetProgram(MatmulAst(d).replace_arg(ki.ToArg()), dev_->renderer());
    EXPECT_TRUE(spec.ok()) << spec.status();
    if (!spec.ok()) return {};
    if (src != nullptr) *src = spec->src;
    absl::StatusOr<std::string> lib = dev_->Compile(*spec);
    EXPECT_TRUE(lib.ok()) << lib.status();
    absl::StatusOr<std::unique_ptr<Program>> prog = dev_->Load(spec->function_name, *lib);
    EXPECT_TRUE(prog.ok()) << prog.status();
    if (!lib.ok() || !prog.ok()) return {};
    auto c = *dev_->Allocate(d.m * d.n * sizeof(float));
    auto a = *dev_->Allocate(a_.size() * sizeof(float));
    auto b = *dev_->Allocate(b_.size() * sizeof(float));
    EXPECT_TRUE(a->CopyIn(std::as_bytes(std::span<const float>(a_))).ok());
    EXPECT_TRUE(b->CopyIn(std::as_bytes(std::span<const float>(b_))).ok());
    std::vector<float> poison(d.m * d.n, -1234.0f);
    EXPECT_TRUE(c->CopyIn(std::as_bytes(std::span<const float>(poison))).ok());
    LaunchDims global{1, 1, 1};
    for (size_t x = 0; x < 3; ++x) global[x] = spec->global_size[x].arg().int64();
    std::vector<void*> bufs{c->data(), a->data(), b->data()};
    EXPECT_TRUE((*prog)->Run(bufs, {}, global, std::nullopt, true, Program::kNoStop).ok());
    std::vector<float> out(d.m * d.n);
    EXPECT_TRUE(c->CopyOut(std::as_writable_bytes(std::span<float>(out))).ok());
    return out;
  }

  Device* dev_ = nullptr;
};

std::string Describe(const std::vector<Opt>& opts) {
  std::string what;
  for (const Opt& o : opts) what += o.ToString() + " ";
  return what;
}

TEST_F(BlockOptTest, EveryBlockSizeMatchesTheUnoptimizedKernel) {
  const std::vector<float> want = Run({});
  ASSERT_EQ(want.size(), static_cast<size_t>(kM * kN));
  for (int64_t axis : {0, 1}) {
    const int64_t size = axis == 0 ? kM : kN;
    for (int64_t block = 1; block < size; ++block) {
      if (size % block != 0) continue;
      const Opt o{OptOps::BLOCK, axis, block};
      EXPECT_EQ(Run({o}), want) << o.ToString();
    }
  }
}

TEST_F(BlockOptTest, CombinedWithUpcastsAndThreadsMatchesTheUnoptimizedKernel) {
  const std::vector<float> want = Run({});
  using O = OptOps;
  const std::vector<std::vector<Opt>> lists = {
      {{O::UPCAST, 1, int64_t{4}}, {O::UPCAST, 0, int64_t{3}}, {O::BLOCK, 1, int64_t{1}}},
      {{O::UPCAST, 1, int64_t{4}}, {O::BLOCK, 0, int64_t{5}}, {O::THREAD, 0, int64_t{2}}},
      {{O::BLOCK, 1, int64_t{4}}, {O::UPCAST, 2, int64_t{4}}, {O::THREAD, 1, int64_t{2}}},
      {{O::THREAD, 0, int64_t{2}}, {O::BLOCK, 0, int64_t{3}}, {O::UNROLL, 0, int64_t{7}}},
      {{O::BLOCK, 0, int64_t{6}}, {O::UPCAST, 1, int64_t{2}}, {O::UPCAST, 2, int64_t{12}}},
  };
  for (const std::vector<Opt>& opts : lists) EXPECT_EQ(Run(opts), want) << Describe(opts);
}

// PACK of B (buffer 2) or A (1), with and without the BLOCK loop that bounds the copy (or the
// loop PACK moves outermost itself), with upcasts, unrolls and threads, on odd shapes: the
// same bits as the unoptimized kernel.
TEST_F(BlockOptTest, PackMatchesTheUnoptimizedKernel) {
  using O = OptOps;
  const Opt pack_a{O::PACK, std::nullopt, int64_t{1}}, pack_b{O::PACK, std::nullopt, int64_t{2}};
  const std::vector<std::pair<Dims, std::vector<std::vector<Opt>>>> cases = {
      {kOdd,
       {
           {pack_b},
           {pack_a, pack_b},
           {{O::BLOCK, 1, int64_t{4}}, pack_b},
           {{O::UPCAST, 1, int64_t{4}}, {O::UPCAST, 0, int64_t{3}}, {O::BLOCK, 1, int64_t{1}}, pack_b},
           {{O::UPCAST, 1, int64_t{4}}, {O::BLOCK, 0, int64_t{5}}, {O::THREAD, 0, int64_t{2}}, pack_a, pack_b},
           {{O::BLOCK, 1, int64_t{4}}, {O::UPCAST, 2, int64_t{4}}, {O::THREAD, 1, int64_t{2}}, pack_b},
           {pack_b, {O::THREAD, 0, int64_t{2}}, {O::BLOCK, 1, int64_t{3}}, {O::UNROLL, 0, int64_t{7}}},
           {{O::BLOCK, 0, int64_t{6}}, {O::UPCAST, 1, int64_t{2}}, {O::UPCAST, 1, int64_t{3}}, pack_a},
       }},
      {{21, 20, 9},
       {
           {pack_b},
           {{O::BLOCK, 1, int64_t{4}}, pack_b},
           {{O::UPCAST, 1, int64_t{5}}, {O::UPCAST, 0, int64_t{3}}, {O::UNROLL, 0, int64_t{3}}, {O::BLOCK, 1, int64_t{2}}, pack_b},
           {{O::BLOCK, 0, int64_t{7}}, {O::UPCAST, 2, int64_t{4}}, {O::UNROLL, 0, int64_t{9}}, pack_a, pack_b},
       }},
      // B of 300 x 512 is more than a copy holds: PACK moves the column loop outermost first
      {{6, 512, 300},
       {
           {pack_b},
           {{O::UPCAST, 1, int64_t{16}}, {O::UPCAST, 0, int64_t{3}}, {O::UNROLL, 0, int64_t{4}}, pack_b},
       }},
  };
  for (const auto& [d, lists] : cases) {
    const std::vector<float> want = Run({}, nullptr, d);
    ASSERT_EQ(want.size(), static_cast<size_t>(d.m * d.n));
    for (const std::vector<Opt>& opts : lists)
      EXPECT_EQ(Run(opts, nullptr, d), want) << d.m << "x" << d.n << "x" << d.k << ": " << Describe(opts);
  }
}

// BLOCK of the reduce axis (K blocks: the output read back and added to between blocks) alone
// for every block size, and with the opts BEAM combines it with (upcasts, unrolls, threads,
// output BLOCK, PACK inside a K block), on the odd shapes and a tall-K one: the values' sums are
// exact in float, so any order gives the unoptimized kernel's bits. The output starts as
// poison: block 0 must not read it.
TEST_F(BlockOptTest, BlockOfTheReductionMatchesTheUnoptimizedKernel) {
  using O = OptOps;
  const Opt pack_a{O::PACK, std::nullopt, int64_t{1}}, pack_b{O::PACK, std::nullopt, int64_t{2}};
  const std::vector<std::pair<Dims, std::vector<std::vector<Opt>>>> cases = {
      {kOdd,
       {
           {{O::UPCAST, 1, int64_t{4}}, {O::UPCAST, 0, int64_t{3}}, {O::BLOCK, 4, int64_t{1}}},
           {{O::BLOCK, 2, int64_t{1}}, {O::THREAD, 1, int64_t{2}}, pack_b},
           {{O::BLOCK, 1, int64_t{4}}, {O::BLOCK, 3, int64_t{1}}, pack_a, pack_b},
       }},
      {{21, 20, 9},
       {
           {{O::BLOCK, 2, int64_t{3}}, {O::UPCAST, 2, int64_t{4}}, {O::UNROLL, 0, int64_t{3}}, {O::BLOCK, 2, int64_t{1}}, pack_b},
           {{O::UNROLL, 0, int64_t{3}}, {O::BLOCK, 2, int64_t{1}}, {O::UPCAST, 1, int64_t{3}}, pack_a},
       }},
      {{6, 512, 300},
       {
           {{O::BLOCK, 2, int64_t{60}}, pack_b},
           {{O::UPCAST, 1, int64_t{16}}, {O::UPCAST, 0, int64_t{3}}, {O::UNROLL, 0, int64_t{4}}, {O::BLOCK, 4, int64_t{25}}, pack_b},
           {{O::UPCAST, 1, int64_t{16}}, {O::THREAD, 1, int64_t{2}}, {O::BLOCK, 4, int64_t{50}}, pack_b},
       }},
      // tall K: 64 columns of B's panel per block, packed per (K block, column tile)
      {{8, 48, 1024},
       {
           {{O::UPCAST, 1, int64_t{16}}, {O::UPCAST, 0, int64_t{4}}, {O::SIMD, std::nullopt, int64_t{16}}, {O::UNROLL, 0, int64_t{4}},
            {O::BLOCK, 1, int64_t{1}}, {O::BLOCK, 4, int64_t{64}}, {O::THREAD, 2, int64_t{2}}, pack_b},
           {{O::BLOCK, 2, int64_t{256}}, {O::UPCAST, 2, int64_t{16}}, {O::THREAD, 1, int64_t{2}}, pack_b, pack_a},
       }},
  };
  for (const auto& [d, lists] : cases) {
    const std::vector<float> want = Run({}, nullptr, d);
    ASSERT_EQ(want.size(), static_cast<size_t>(d.m * d.n));
    for (int64_t block = 1; block < d.k; ++block) {
      if (d.k % block != 0) continue;
      const Opt o{O::BLOCK, 2, block};
      EXPECT_EQ(Run({o}, nullptr, d), want) << d.m << "x" << d.n << "x" << d.k << ": " << o.ToString();
    }
    for (const std::vector<Opt>& opts : lists)
      EXPECT_EQ(Run(opts, nullptr, d), want) << d.m << "x" << d.n << "x" << d.k << ": " << Describe(opts);
  }
}

// The loop over K blocks is the outermost loop; the packed panel holds one K block of the
// column tile; the output is read back under a condition (block 0 reads nothing).
TEST_F(BlockOptTest, TheLoopOverKBlocksIsOutermostAndThePanelHoldsOneBlock) {
  using O = OptOps;
  const Dims d{8, 48, 1024};
  std::string src;
  const std::vector<Opt> opts{{O::UPCAST, 1, int64_t{16}}, {O::UPCAST, 0, int64_t{4}}, {O::SIMD, std::nullopt, int64_t{16}},
                              {O::UNROLL, 0, int64_t{4}},  {O::BLOCK, 1, int64_t{1}},  {O::BLOCK, 4, int64_t{64}},
                              {O::PACK, std::nullopt, int64_t{2}}};
  EXPECT_EQ(Run(opts, &src, d), Run({}, nullptr, d)) << Describe(opts);
  const size_t k_blocks = src.find("< 4; Lidxm2++)");  // 1024 = 4 blocks of 64 x 4 (UNROLL)
  ASSERT_NE(k_blocks, std::string::npos) << src;
  EXPECT_EQ(src.find("for ("), src.rfind("for (", k_blocks)) << src;
  EXPECT_NE(src.find("float temp0[4096];"), std::string::npos) << src;  // 256 x 16
  EXPECT_NE(src.find("?*((float16*)((data0_"), std::string::npos) << src;
}

// A 16-wide register tile reads the copy with float16 loads: the stack array is aligned for
// them (a misaligned one crashes), and the copy of each block's panel precedes the row loop.
const std::vector<Opt>& SimdPackOpts() {
  using O = OptOps;
  static const auto* const kOpts = new std::vector<Opt>{{O::UPCAST, 1, int64_t{16}}, {O::UPCAST, 0, int64_t{4}}, {O::SIMD, std::nullopt, int64_t{16}},
                                 {O::UNROLL, 0, int64_t{4}},  {O::BLOCK, 1, int64_t{2}},  {O::PACK, std::nullopt, int64_t{2}}};
  return *kOpts;
}

TEST_F(BlockOptTest, PackFeedsSimdLoadsOncePerBlock) {
  const Dims d{32, 64, 24};
  const std::vector<Opt>& opts = SimdPackOpts();
  const std::vector<float> want = Run({}, nullptr, d);
  std::string src;
  EXPECT_EQ(Run(opts, &src, d), want) << Describe(opts);
  // 2 blocks of 2 x 16 columns; the panel is 2 x 24 x 16 floats
  EXPECT_NE(src.find("__attribute__((aligned(64))) float temp0[768];"), std::string::npos) << src;
  EXPECT_NE(src.find("float16 "), std::string::npos) << src;
  const size_t blocks = src.find("for (int Lidxm1 = 0; Lidxm1 < 2;");
  const size_t copy = src.find("*(temp0+");
  const size_t rows = src.find("for (int Lidx1 = 0; Lidx1 < 8;");
  ASSERT_NE(blocks, std::string::npos) << src;
  ASSERT_NE(copy, std::string::npos) << src;
  ASSERT_NE(rows, std::string::npos) << src;
  EXPECT_LT(blocks, copy);
  EXPECT_LT(copy, rows) << src;
}

// The same tile through LLVM (CPU_LLVM=1, which has no SIMD opt: its vectors stop at 4 floats).
TEST_F(BlockOptTest, PackFeedsSimdLoadsThroughLlvm) {
  const Dims d{32, 64, 24};
  const std::vector<float> want = Run({}, nullptr, d);
  DeviceOptions llvm;
  llvm.cpu.renderer = {.threads = true, .cpu_count = 2};
  llvm.cpu.cachelevel = 0;
  llvm.cpu.llvm = true;
  absl::StatusOr<Device*> dev = GetDevice("CPU", llvm);
  ASSERT_TRUE(dev.ok()) << dev.status();
  dev_ = *dev;
  std::vector<Opt> opts;
  for (const Opt& o : SimdPackOpts())
    if (o.op != OptOps::SIMD) opts.push_back(o);
  std::string src;
  EXPECT_EQ(Run(opts, &src, d), want) << Describe(opts);
  EXPECT_NE(src.find("%local_0 = alloca"), std::string::npos) << src;  // the copy is a stack array
}

TEST_F(BlockOptTest, TheLoopOverBlocksIsOutermost) {
  std::string src;
  Run({{OptOps::BLOCK, 1, int64_t{4}}}, &src);
  // the loop over 3 blocks of columns, then the rows, then the 4 columns of a block
  const size_t blocks = src.find("for (int Lidxm1 = 0; Lidxm1 < 3;");
  ASSERT_NE(blocks, std::string::npos) << src;
  EXPECT_EQ(src.find("for ("), blocks) << src;
  const size_t rows = src.find("for (int Lidx1 = 0; Lidx1 < 30;");
  const size_t cols = src.find("< 4;");
  ASSERT_NE(rows, std::string::npos) << src;
  ASSERT_NE(cols, std::string::npos) << src;
  EXPECT_LT(blocks, rows);
  EXPECT_LT(rows, cols) << src;
  // block 1: the column loop itself moves outside the row loop
  Run({{OptOps::BLOCK, 1, int64_t{1}}}, &src);
  EXPECT_EQ(src.find("for ("), src.find("for (int Lidxm1 = 0; Lidxm1 < 12;")) << src;
}

}  // namespace
}  // namespace tg
