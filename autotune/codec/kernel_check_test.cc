// File: autotune/codec/kernel_check_test.cc
// The kernel checks of a task from the network: every kernel the scheduler writes passes, each
// hostile task of the corpus is refused naming its rule, variables stay within their bounds.
#include "autotune/codec/kernel_check.h"

#include <map>
#include <string>

#include "absl/strings/match.h"
#include "autotune/codec/codec_test_kernels.h"
#include "autotune/codec/corpus.h"
#include "autotune/codec/farm_codec.h"
#include "gtest/gtest.h"

namespace tg::autotune::codec {
namespace {

void ExpectTaskDecodes(const std::string& name, const UOp& ast) {
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(ast);
  ASSERT_TRUE(task.ok()) << name << ": " << task.status();
  EXPECT_TRUE(CheckKernelTask(*task).ok()) << name << ": " << CheckKernelTask(*task);
  absl::StatusOr<KernelTask> back = DecodeKernelTask(EncodeKernelTask(*task));
  EXPECT_TRUE(back.ok() && back->ast == ast) << name << ": " << back.status();
}

TEST(KernelCheckTest, EveryKernelTheSchedulerWritesIsATask) {
  std::vector<NamedKernel> kernels = WorkloadKernels();
  for (NamedKernel& k : TensorKernels()) kernels.push_back(std::move(k));
  ASSERT_GE(kernels.size(), 30u);
  for (const NamedKernel& k : kernels) ExpectTaskDecodes(k.name, k.ast);
  ExpectTaskDecodes("hand-built add", HandBuiltAddKernel());
}

TEST(KernelCheckTest, HostileTasksAreRefusedNamingTheRule) {
  // what each refusal says (the corpus's hostile_task_*.bin, corpus.cc)
  const std::map<std::string, std::string> kWhy = {
      {"hostile_task_sink_arg_not_kernelinfo.bin", "KernelInfo name 5 is not a string"},
      {"hostile_task_sink_arg_bad_applied_opt.bin", "KernelInfo applied_opts: not an Opt ()"},
      {"hostile_task_sink_of_a_value.bin", "(SINK dtypes.void): source REDUCE is a value"},
      {"hostile_task_reduce_sub.bin", "(REDUCE dtypes.float): reduce op Ops.SUB is not ADD, MUL or MAX"},
      {"hostile_task_reduce_to_half.bin", "reduces a dtypes.float to a dtypes.half"},
      {"hostile_task_range_of_2_pow_100.bin", "does not fit dtypes.long"},
      {"hostile_task_range_of_nan.bin", "constant nan is not an int"},
      {"hostile_task_range_of_0.bin", "a range of 0 to 0 iterations"},
      {"hostile_task_reduce_range_of_1.bin", "a range of 1 to 1 iterations"},
      {"hostile_task_const_with_a_source.bin", "(CONST dtypes.index): has sources"},
      {"hostile_task_range_arg_not_a_tuple.bin", "arg 0 is not (id, LOOP|REDUCE|OUTER)"},
      {"hostile_task_range_local_axis.bin", "AxisType.LOCAL) is not (id, LOOP|REDUCE|OUTER)"},
      {"hostile_task_fdiv_of_index.bin", "(FDIV dtypes.index): is an op on floats"},
      {"hostile_task_cmplt_of_index_type.bin", "a comparison is a bool"},
      {"hostile_task_end_of_no_range.bin", "(END dtypes.void): source 1 is a STORE, not a RANGE"},
      {"hostile_task_const_of_0_lanes.bin", "a task's kernel is scalar"},
      {"hostile_task_range_of_a_range.bin", "(RANGE dtypes.index): the bound, a ADD, is not a shape"},
      {"hostile_task_invalid_divisor.bin", "source 1 is Invalid, which only a WHERE's false branch"},
      {"hostile_task_sink_of_an_ended_store.bin", "(SINK dtypes.void): source 1, a STORE, lies under another"},
      {"hostile_task_define_reg_of_an_index.bin", "(DEFINE_REG dtypes.index): is a pointer to register memory"},
      {"hostile_task_end_of_a_reduced_range.bin", "(END dtypes.void): source 2 is a range a REDUCE under the store closes"},
      {"hostile_task_gep_of_no_lanes.bin", "(GEP dtypes.float): arg None is not a tuple of lanes"},
      {"hostile_task_buffer_slot_not_in_ast.bin", "buffers are not the 2 its kernel's DEFINE_GLOBALs define"},
  };
  ASSERT_EQ(HostileTasks().size(), kWhy.size());
  for (const NamedTask& t : HostileTasks()) {
    auto why = kWhy.find(t.name);
    ASSERT_NE(why, kWhy.end()) << t.name << " has no expected error here";
    absl::StatusOr<KernelTask> back = DecodeKernelTask(EncodeKernelTask(t.task));
    ASSERT_FALSE(back.ok()) << t.name;
    EXPECT_EQ(back.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(back.status().message(), why->second))
        << t.name << ": '" << back.status().message() << "' lacks '" << why->second << "'";
    EXPECT_TRUE(absl::StartsWith(back.status().message(), "task: ")) << back.status();
  }
}

// out[i] = 1 for i < n, n a variable from 1 to `most`.
UOp SymbolicKernel(int64_t most = 16) {
  DType p = dtypes::float32.ptr(16);
  UOp g0 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 0);
  UOp n = UOp::Make(Ops::DEFINE_VAR, dtypes::index, {}, Arg::Tuple({"n", 1, most}));
  UOp r = UOp::Make(Ops::RANGE, dtypes::index, {n}, Arg::Tuple({0, AxisType::LOOP}));
  UOp st = UOp::Make(Ops::STORE, dtypes::void_,
                     {UOp::Make(Ops::INDEX, p, {g0, r}), UOp::Const(dtypes::float32, 1.0)});
  return UOp::Make(Ops::SINK, dtypes::void_, {UOp::Make(Ops::END, dtypes::void_, {st, r})});
}

TEST(KernelCheckTest, VariableValuesLieWithinTheirBounds) {
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(SymbolicKernel());
  ASSERT_TRUE(task.ok()) << task.status();
  EXPECT_TRUE(CheckKernelTask(*task).ok()) << CheckKernelTask(*task);
  task->var_vals = {{"n", 16}, {"unused", 99}};  // a value no variable of the kernel has: ignored
  EXPECT_TRUE(DecodeKernelTask(EncodeKernelTask(*task)).ok());
  task->var_vals = {{"n", 17}};
  absl::StatusOr<KernelTask> back = DecodeKernelTask(EncodeKernelTask(*task));
  ASSERT_FALSE(back.ok());
  EXPECT_TRUE(absl::StrContains(back.status().message(), "variable n = 17 is outside its bounds 1 to 16"))
      << back.status();
}

TEST(KernelCheckTest, VariableBoundsAreAnInt32Interval) {
  absl::Status s = CheckTaskKernel(SymbolicKernel(int64_t{1} << 40));
  EXPECT_TRUE(absl::StrContains(s.message(), "bounds 1 to 1099511627776 are not an int32 interval")) << s;
}

// out[i] = 1.0 / 3.0 as an FDIV of floats: the Clang renderer spells it, CUDA's CHECK-fails,
// and no scheduler writes one (lowering_fuzz_test's mutants of train_mlp found it).
TEST(KernelCheckTest, FdivOfFloatsIsNotATask) {
  DType p = dtypes::float32.ptr(16);
  UOp g0 = UOp::Make(Ops::DEFINE_GLOBAL, p, {}, 0);
  UOp r = UOp::Make(Ops::RANGE, dtypes::index, {UOp::Const(dtypes::index, 16)},
                    Arg::Tuple({0, AxisType::LOOP}));
  UOp third = UOp::Make(Ops::FDIV, dtypes::float32,
                        {UOp::Const(dtypes::float32, 1.0), UOp::Const(dtypes::float32, 3.0)});
  UOp st = UOp::Make(Ops::STORE, dtypes::void_, {UOp::Make(Ops::INDEX, p, {g0, r}), third});
  UOp ast = UOp::Make(Ops::SINK, dtypes::void_, {UOp::Make(Ops::END, dtypes::void_, {st, r})});
  absl::Status s = CheckTaskKernel(ast);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "(FDIV dtypes.float): FDIV is made by codegen")) << s;
}

TEST(KernelCheckTest, AnOptimizedKernelIsNotATask) {
  // the optimizer's output: UPCAST ranges, vectors, applied opts
  UOp opt = OptimizedAst(TensorKernels().front().ast);
  ASSERT_TRUE(opt);
  EXPECT_FALSE(CheckTaskKernel(opt).ok());
}

}  // namespace
}  // namespace tg::autotune::codec
