// File: tests/e2e/thread_opt_test.cc
// The THREAD opt end to end on CPU: a kernel AST with THREAD in opts_to_apply goes through
// GetProgram (Scheduler -> codegen -> C) and the CPU device (clang, CoreThreadPool launch over
// core_id) and computes what the unthreaded kernel and a plain loop compute.
#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/uop.h"

namespace tg {
namespace {

UOp DG(int64_t size, int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(size), {}, slot); }

// out[i] = sum_j in[i*32 + j] for a 64x32 input (x.sum(axis=1)).
UOp RowSumAst() {
  UOp out = DG(64, 0), r = UOp::Range(64, 1), in = DG(2048, 1), k = UOp::Range(32, 0, AxisType::REDUCE);
  UOp red = UOp::Make(Ops::REDUCE, dtypes::float32, {in.index(std::vector<UOp>{r * 32 + k}), k}, Ops::ADD);
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, {out.index(std::vector<UOp>{r}, true).store(red), r})});
}

// Runs the kernel with `opts` applied; the 64 outputs.
std::vector<float> RunRowSum(Device* dev, const std::vector<Opt>& opts, const std::vector<float>& input,
                             ProgramSpec* spec_out) {
  KernelInfo ki;
  ki.opts_to_apply.emplace();
  for (const Opt& o : opts) ki.opts_to_apply->push_back(OptToArg(o));
  ResetKernelNameCounts();
  absl::StatusOr<ProgramSpec> spec = GetProgram(RowSumAst().replace_arg(ki.ToArg()), dev->renderer());
  EXPECT_TRUE(spec.ok()) << spec.status();
  if (!spec.ok()) return {};
  *spec_out = *spec;
  absl::StatusOr<std::string> lib = dev->Compile(*spec);
  EXPECT_TRUE(lib.ok()) << lib.status();
  absl::StatusOr<std::unique_ptr<Program>> prog = dev->Load(spec->function_name, *lib);
  EXPECT_TRUE(prog.ok()) << prog.status();
  auto out = *dev->Allocate(64 * sizeof(float));
  auto in = *dev->Allocate(input.size() * sizeof(float));
  EXPECT_TRUE(in->CopyIn(std::as_bytes(std::span<const float>(input))).ok());
  std::vector<float> zeros(64, -1.0f);
  EXPECT_TRUE(out->CopyIn(std::as_bytes(std::span<const float>(zeros))).ok());
  LaunchDims global{1, 1, 1};
  for (size_t i = 0; i < 3; ++i) global[i] = spec->global_size[i].arg().int64();
  std::vector<void*> bufs{out->data(), in->data()};
  EXPECT_TRUE((*prog)->Run(bufs, {}, global, std::nullopt, true, Program::kNoStop).ok());
  std::vector<float> result(64);
  EXPECT_TRUE(out->CopyOut(std::as_writable_bytes(std::span<float>(result))).ok());
  return result;
}

TEST(ThreadOptTest, ThreadedKernelMatchesTheUnthreadedOne) {
  // Two cores whatever this machine has (on one core the threads take turns).
  DeviceOptions two_cores;
  two_cores.cpu.renderer = {.threads = true, .cpu_count = 2};
  two_cores.cpu.cachelevel = 0;
  absl::StatusOr<Device*> dev = GetDevice("CPU", two_cores);
  ASSERT_TRUE(dev.ok()) << dev.status();
  std::vector<float> input(2048);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 7) - 2.5f;
  std::vector<float> want(64, 0.0f);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 32; ++j) want[i] += input[i * 32 + j];

  ProgramSpec plain, threaded, threaded_upcast;
  EXPECT_EQ(RunRowSum(*dev, {}, input, &plain), want);
  EXPECT_EQ(plain.global_size[0].arg().int64(), 1);

  EXPECT_EQ(RunRowSum(*dev, {{OptOps::THREAD, 0, int64_t{2}}}, input, &threaded), want);
  EXPECT_EQ(threaded.global_size[0].arg().int64(), 2) << "two cores launched";
  EXPECT_NE(threaded.src.find("core_id"), std::string::npos) << threaded.src;

  // THREAD with vector code on the rest of the axis
  EXPECT_EQ(RunRowSum(*dev, {{OptOps::THREAD, 0, int64_t{2}}, {OptOps::UPCAST, 0, int64_t{4}}, {OptOps::UNROLL, 0, int64_t{4}}},
                input, &threaded_upcast),
            want);
  EXPECT_EQ(threaded_upcast.global_size[0].arg().int64(), 2);
  EXPECT_NE(threaded_upcast.src.find("float4"), std::string::npos) << threaded_upcast.src;
}

}  // namespace
}  // namespace tg
