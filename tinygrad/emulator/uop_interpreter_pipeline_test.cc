// File: tinygrad/emulator/uop_interpreter_pipeline_test.cc
// The uop interpreter on kernels made by our own pipeline for the emulator's renderer (a GPU:
// locals, shared memory, vectors), their text parsed back as the device does, against the CPU device's results for the same Tensor programs:
// elementwise with broadcasting, casts, reductions, matmuls, gated loads (padding), argmax,
// integer division, and explicit opts that use locals, GROUP reductions in shared memory,
// UPCAST and UNROLL.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tinygrad/base/stack_probe.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/emulator/emulator_renderer.h"
#include "tinygrad/emulator/emulator_test_util.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {
namespace {

using emulator_testing::As;
using emulator_testing::EmulatedResult;
using emulator_testing::EmulatorOptions;
using emulator_testing::In;
using emulator_testing::Inputs;
using emulator_testing::IntIn;
using emulator_testing::RunOnEmulator;

// The stack TensorCoresOfEveryTarget runs on: it needs about 40 KiB (120 KiB under ASan); when
// the pattern matcher recursed per source it needed 7 MiB (26 MiB under ASan).
constexpr size_t kStackLimit = size_t{1} << 20;

// The emulated result of `t` equals the CPU's: exactly for ints, within `rtol` for floats.
// Returns the emulated run (no programs when it failed).
template <typename T>
EmulatedResult ExpectMatchesCpu(const Tensor& t, const EmulatorOptions& o = {}, double rtol = 1e-5) {
  absl::StatusOr<EmulatedResult> got = RunOnEmulator(t, o);
  absl::StatusOr<std::vector<T>> want = t.to_vector<T>();
  if (!got.ok() || !want.ok()) {
    ADD_FAILURE() << "emulated: " << got.status() << "; CPU: " << want.status();
    return {};
  }
  std::vector<T> emulated = As<T>(got->bytes);
  if (emulated.size() != want->size()) {
    ADD_FAILURE() << emulated.size() << " elements emulated, " << want->size() << " on the CPU";
    return {};
  }
  int bad = 0;
  for (size_t i = 0; i < want->size() && bad < 5; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      double w = (*want)[i], e = emulated[i];
      if (!(std::fabs(w - e) <= rtol * std::max(1.0, std::fabs(w)))) {
        ADD_FAILURE() << "element " << i << ": emulated " << e << ", CPU " << w;
        ++bad;
      }
    } else {
      if (emulated[i] != (*want)[i]) {
        ADD_FAILURE() << "element " << i << ": emulated " << +emulated[i] << ", CPU " << +(*want)[i];
        ++bad;
      }
    }
  }
  if (bad) {
    for (const ProgramSpec& p : got->programs) std::cerr << p.function_name << ":\n" << p.src;  // the linear program as text
  }
  return *std::move(got);
}

bool UsesOp(const EmulatedResult& r, Ops op) {
  for (const ProgramSpec& p : r.programs)
    for (const UOp& u : p.uops)
      if (u.op() == op) return true;
  return false;
}

TEST(UopInterpreterPipeline, Elementwise) {
  ExpectMatchesCpu<float>(In({64, 64}, 1) * In({64, 64}, 2) + 0.5);
  ExpectMatchesCpu<float>(In({64, 1}, 3) - In({1, 64}, 4));
  Tensor a = In({4096}, 5), b = In({4096}, 6);
  ExpectMatchesCpu<float>((a > 0).where(a.div(b.abs() + 1), b * 2));
  ExpectMatchesCpu<float>((In({1024}, 7).exp() + 1).log() + In({1024}, 8).sin() + In({1024}, 9).abs().sqrt(), {}, 1e-5);
}

TEST(UopInterpreterPipeline, Casts) {
  Tensor a = In({512}, 10) * 200;
  ExpectMatchesCpu<int32_t>(a.cast(dtypes::int32));
  ExpectMatchesCpu<uint8_t>(a.cast(dtypes::int32).cast(dtypes::uint8));
  ExpectMatchesCpu<float>(a.cast(dtypes::float16).cast(dtypes::float32) * 3);
  // The CPU's clang keeps half products in float within an expression; the emulator rounds
  // every half op, as the reference's python_alu does: equal to half precision.
  ExpectMatchesCpu<float>((a.cast(dtypes::float16) * 1.37).cast(dtypes::float32), {}, 1e-3);
  ExpectMatchesCpu<int32_t>(IntIn({512}, 11, -1000, 1000).cast(dtypes::float16).cast(dtypes::int32));
  ExpectMatchesCpu<float>(IntIn({512}, 11, -1000, 1000).cast(dtypes::float32) / 7);
}

// bfloat16 against the host (the CPU device's clang has no __bf16 on every target): each op
// rounds to bfloat16.
TEST(UopInterpreterPipeline, Bfloat16) {
  std::vector<float> x = Inputs(512, 12);
  for (float& v : x) v *= 200;
  Tensor a = Tensor::FromVector<float>(x, {512}, "CPU");
  absl::StatusOr<EmulatedResult> r = RunOnEmulator((a.cast(dtypes::bfloat16) + 0.01).cast(dtypes::float32));
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<float> got = As<float>(r->bytes);
  ASSERT_EQ(got.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(got[i], RoundToBFloat16(RoundToBFloat16(x[i]) + RoundToBFloat16(0.01))) << i;
}

TEST(UopInterpreterPipeline, Reductions) {
  ExpectMatchesCpu<float>(In({256, 300}, 12).sum(1));
  ExpectMatchesCpu<float>(In({4096}, 13).sum());
  ExpectMatchesCpu<float>(In({64, 100}, 14).max(1));
  ExpectMatchesCpu<float>(In({32, 48}, 15).max(0));
  ExpectMatchesCpu<int32_t>(In({32, 50}, 16).argmax(1));
  ExpectMatchesCpu<float>(In({16, 64}, 17).softmax(1));
}

TEST(UopInterpreterPipeline, IntegerDivision) {
  Tensor a = IntIn({1000}, 18, -500, 500), b = IntIn({1000}, 19, -9, 9, /*nonzero=*/true);
  ExpectMatchesCpu<int32_t>(a.idiv(b));
  ExpectMatchesCpu<int32_t>(a.mod(b));
  ExpectMatchesCpu<int32_t>(a.idiv(7) + a.mod(3));
}

TEST(UopInterpreterPipeline, PaddingGatesLoads) {
  Tensor x = In({40, 30}, 20);
  EmulatedResult r = ExpectMatchesCpu<float>(x.pad({{1, 2}, {3, 0}}) + 1);
  // a 1-D convolution-like window sum over a padded input
  Tensor v = In({300}, 21);
  Tensor padded = v.pad({{1, 1}});
  ExpectMatchesCpu<float>(padded.shrink({{0, 300}}) + padded.shrink({{1, 301}}) * 2 + padded.shrink({{2, 302}}));
  bool gated = false;
  for (const ProgramSpec& p : r.programs)
    for (const UOp& u : p.uops) gated |= u.op() == Ops::INDEX && u.src().size() == 3;
  EXPECT_TRUE(gated) << "padding should load through a gated INDEX";
}

// A loop bound by a variable: the kernel's DEFINE_VAR takes the bound value.
TEST(UopInterpreterPipeline, SymbolicLoopBound) {
  Tensor t = In({10, 4}, 34);
  Variable rows("rows", 1, 10);
  for (int64_t v : {1, 6, 10}) {
    SCOPED_TRACE(v);
    EmulatedResult r = ExpectMatchesCpu<float>(t.shrink({{0, rows.bind(v)}, {0, 4}}).sum(0));
    EXPECT_TRUE(UsesOp(r, Ops::DEFINE_VAR));
  }
}

TEST(UopInterpreterPipeline, Matmul) {
  Tensor a = In({64, 64}, 22), b = In({64, 64}, 23);
  ExpectMatchesCpu<float>(a.matmul(b));
  ExpectMatchesCpu<float>(a.matmul(b), {.codegen = {.noopt = true}});
  ExpectMatchesCpu<float>(In({33, 17}, 24).matmul(In({17, 29}, 25)));
}

// Opts that put a reduction in shared memory (GROUP, GROUPTOP: DEFINE_LOCAL and BARRIER).
TEST(UopInterpreterPipeline, GroupReductionsUseSharedMemory) {
  Tensor x = In({128, 256}, 26);
  for (OptOps op : {OptOps::GROUP, OptOps::GROUPTOP}) {
    SCOPED_TRACE(std::string(OptOpsName(op)));
    EmulatorOptions o{.last_kernel_opts = std::vector<Opt>{{op, 0, int64_t{16}}}};
    EmulatedResult r = ExpectMatchesCpu<float>(x.sum(1), o);
    EXPECT_TRUE(UsesOp(r, Ops::DEFINE_LOCAL));
    EXPECT_TRUE(UsesOp(r, Ops::BARRIER));
  }
  EmulatorOptions both{.last_kernel_opts = std::vector<Opt>{{OptOps::LOCAL, 0, int64_t{8}}, {OptOps::GROUPTOP, 0, int64_t{8}}}};
  ExpectMatchesCpu<float>(x.max(1), both);
}

TEST(UopInterpreterPipeline, LocalsUpcastsAndUnrolls) {
  Tensor x = In({128, 256}, 27);
  ExpectMatchesCpu<float>(x.sum(1), {.last_kernel_opts = std::vector<Opt>{{OptOps::LOCAL, 0, int64_t{16}}}});
  ExpectMatchesCpu<float>(x.sum(1), {.last_kernel_opts = std::vector<Opt>{{OptOps::UPCAST, 0, int64_t{4}}}});
  ExpectMatchesCpu<float>(x.sum(1), {.last_kernel_opts = std::vector<Opt>{{OptOps::UNROLL, 0, int64_t{4}}}});
  Tensor a = In({64, 64}, 28), b = In({64, 64}, 29);
  EmulatorOptions mm{.last_kernel_opts = std::vector<Opt>{{OptOps::LOCAL, 0, int64_t{4}},
                                                          {OptOps::LOCAL, 1, int64_t{8}},
                                                          {OptOps::UPCAST, 0, int64_t{4}},
                                                          {OptOps::UPCAST, 1, int64_t{4}},
                                                          {OptOps::UNROLL, 0, int64_t{4}}}};
  EmulatedResult r = ExpectMatchesCpu<float>(a.matmul(b), mm);
  bool vector_load = false;
  for (const ProgramSpec& p : r.programs)
    for (const UOp& u : p.uops) vector_load |= u.op() == Ops::LOAD && u.dtype().count() > 1;
  EXPECT_TRUE(vector_load) << "upcasts should load float vectors";
}

// Matmuls on every emulated target's tensor cores: WMMA uops with each device's lane layout.
// Inputs are multiples of 1/64 in [-1, 1), so every sum is exact in float32 in any order.
// Run on a small stack: lowering tensor-core kernels meets nodes with hundreds of sources, and
// the lowering's stack use must not grow with them (the pattern matcher once recursed per
// source and overflowed even the 8 MiB main stack under ASan).
void TensorCoresOfEveryTarget();
TEST(UopInterpreterPipeline, TensorCoresOfEveryTarget) {
  size_t used = RunOnSmallStack(kStackLimit, TensorCoresOfEveryTarget);
  std::printf("tensor-core kernels of every target used %zu KiB of stack\n", used >> 10);
}

void TensorCoresOfEveryTarget() {
  Tensor a = In({64, 64}, 32), b = In({64, 64}, 33);
  for (EmulateTarget target : {EmulateTarget::kCuda, EmulateTarget::kCudaSm75, EmulateTarget::kCudaSm89, EmulateTarget::kAmd,
                               EmulateTarget::kAmdMfma, EmulateTarget::kAmdRdna4, EmulateTarget::kMetal,
                               EmulateTarget::kIntel, EmulateTarget::kAmx}) {
    SCOPED_TRACE(std::string(EmulateTargetName(target)));
    const bool amx = target == EmulateTarget::kAmx;  // AMX multiplies floats
    Tensor matmul = amx ? a.matmul(b) : a.cast(dtypes::float16).matmul(b.cast(dtypes::float16), dtypes::float32);
    EmulatedResult r = ExpectMatchesCpu<float>(matmul, {.target = target}, 0);
    EXPECT_TRUE(UsesOp(r, Ops::WMMA));
    std::cout << EmulateTargetName(target) << ": " << r.run_seconds * 1e3 << " ms in the interpreter\n";
  }
  // half accumulation: the WMMA result is rounded when it is stored
  ExpectMatchesCpu<float>(a.cast(dtypes::float16).matmul(b.cast(dtypes::float16)).cast(dtypes::float32),
                          {.target = EmulateTarget::kCuda}, 1e-3);
}

// Not a pass/fail check of speed (tests never depend on the machine's): the time is printed.
TEST(UopInterpreterPipeline, MatmulRunTime) {
  Tensor a = In({64, 64}, 30), b = In({64, 64}, 31);
  for (bool noopt : {false, true}) {
    absl::StatusOr<EmulatedResult> r = RunOnEmulator(a.matmul(b), {.codegen = {.noopt = noopt}});
    ASSERT_TRUE(r.ok()) << r.status();
    std::cout << "64x64x64 float matmul (" << (noopt ? "NOOPT" : "default opts") << "): " << r->run_seconds * 1e3
              << " ms in the interpreter\n";
  }
}

}  // namespace
}  // namespace tg
