// File: autotune/codec/corpus.cc (testonly)
// The fuzz seed corpus: valid messages of every kind and hostile ones.
#include "autotune/codec/corpus.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "autotune/codec/ast_codec.h"
#include "autotune/codec/ast_wire.h"
#include "autotune/codec/codec_test_kernels.h"
#include "autotune/codec/compile_codec.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg::autotune::codec {
namespace {

// A KernelAst of NOOPs chained by `src(i)` and a SINK of the last, edited by `edit`.
template <typename Edit>
std::string HostileAst(int n, Edit edit) {
  capnp::MallocMessageBuilder m;
  auto nodes = m.initRoot<proto::KernelAst>().initNodes(static_cast<unsigned>(n));
  for (int i = 0; i < n; ++i) {
    auto node = nodes[static_cast<unsigned>(i)];
    node.setOp(internal::ToWire(i == n - 1 ? Ops::SINK : Ops::NOOP));
    internal::WriteDType(dtypes::void_, node.initDtype());
    if (i > 0) node.initSrc(1).set(0, static_cast<uint32_t>(i - 1));
  }
  edit(nodes);
  return internal::ToBytes(m);
}

// `kernel` rebuilt children first (toposort order), each node with its sources rebuilt passed
// through `edit(node, index, rebuilt)` (`rebuilt`: the nodes before it), which returns it or
// its replacement.
template <typename Edit>
UOp Rebuilt(const UOp& kernel, Edit edit) {
  std::vector<UOp> order = kernel.toposort(), rebuilt;
  absl::flat_hash_map<const void*, size_t> index;
  for (size_t i = 0; i < order.size(); ++i) {
    std::vector<UOp> src;
    for (const UOp& x : order[i].src()) src.push_back(rebuilt[index.at(x.id())]);
    index.emplace(order[i].id(), i);
    rebuilt.push_back(edit(order[i].replace_src(src), i, std::span<const UOp>(rebuilt)));
  }
  return rebuilt.back();
}

// Kernel tasks that decoded before the kernel checks (kernel_check.h) and then aborted or hung
// a worker child's lowering (found by lowering_fuzz_test), each one edit of a workload's kernel
// (node numbers are toposort positions, as the fuzz test reports them): the SINK arg that only
// looks like a KernelInfo first. Most edit the rowsum kernel out[r] = sum_c a[r, c].
std::vector<NamedTask> MakeHostileTasks() {
  std::vector<NamedTask> out;
  const UOp rowsum = KernelsOf("rowsum").back().ast;
  // the task of `base` with its AST edited (the buffers are the AST's: the edits keep them)
  auto add = [&](const char* what, const UOp& base, auto edit) {
    absl::StatusOr<KernelTask> t = KernelTask::FromAst(base);
    TG_CHECK(t.ok()) << t.status();
    t->ast = Rebuilt(base, edit);
    out.push_back({absl::StrCat("hostile_task_", what, ".bin"), *std::move(t)});
  };
  // edits: of every node of an op, of node i
  auto each = [](Ops op, auto change) {
    return [op, change](const UOp& u, size_t, std::span<const UOp>) { return u.op() == op ? change(u) : u; };
  };
  auto node = [](size_t at, auto change) {
    return [at, change](const UOp& u, size_t i, std::span<const UOp> before) { return i == at ? change(u, before) : u; };
  };
  // the reduce range's CONST bound replaced by `c`
  auto reduce_bound = [](UOp c) {
    return [c](const UOp& u, size_t, std::span<const UOp>) {
      return u.op() == Ops::RANGE && u.arg()[1] == Arg(AxisType::REDUCE) ? u.replace_src({c}) : u;
    };
  };
  auto kernel = [](const char* workload, size_t k) { return KernelsOf(workload).at(k).ast; };
  add("sink_arg_not_kernelinfo", rowsum, each(Ops::SINK, [](const UOp& u) {
        return u.replace_arg(Arg::Tuple({"KernelInfo", 5, Arg::Tuple({}), false, Arg::Tuple({}), Arg()}));
      }));
  add("sink_arg_bad_applied_opt", rowsum, each(Ops::SINK, [](const UOp& u) {
        return u.replace_arg(KernelInfo{.applied_opts = {Arg::Tuple({})}}.ToArg());
      }));
  add("sink_of_a_value", kernel("attention", 3), node(22, [](const UOp& u, std::span<const UOp> before) {
        return u.replace_src({u.src(0), before[17]});
      }));
  add("reduce_sub", rowsum, each(Ops::REDUCE, [](const UOp& u) { return u.replace_arg(Ops::SUB); }));
  add("reduce_to_half", rowsum, each(Ops::REDUCE, [](const UOp& u) { return u.replace_dtype(dtypes::float16); }));
  add("range_of_2_pow_100", rowsum, reduce_bound(UOp::Const(dtypes::index, ConstValue(i128{1} << 100))));
  add("range_of_nan", rowsum,
      reduce_bound(UOp::Make(Ops::CONST, dtypes::index, {}, std::numeric_limits<double>::quiet_NaN())));
  add("range_of_0", kernel("mlp", 7), node(1, [](const UOp& u, auto) { return u.replace_arg(0); }));
  add("reduce_range_of_1", rowsum, reduce_bound(UOp::Const(dtypes::index, 1)));
  add("const_with_a_source", kernel("softmax", 1), node(5, [](const UOp& u, std::span<const UOp> before) {
        return u.replace_src({before[3]});
      }));
  add("range_arg_not_a_tuple", rowsum, each(Ops::RANGE, [](const UOp& u) {
        return u.arg()[1] == Arg(AxisType::REDUCE) ? u.replace_arg(0) : u;
      }));
  add("range_local_axis", rowsum, each(Ops::RANGE, [](const UOp& u) {
        return u.arg()[1] == Arg(AxisType::LOOP) ? u.replace_arg(Arg::Tuple({u.arg()[0], AxisType::LOCAL})) : u;
      }));
  add("fdiv_of_index", kernel("softmax", 2), node(6, [](const UOp& u, auto) { return u.replace_op(Ops::FDIV); }));
  add("cmplt_of_index_type", rowsum, each(Ops::MUL, [](const UOp& u) {
        return u.dtype() == dtypes::index ? u.replace_op(Ops::CMPLT) : u;
      }));
  add("end_of_no_range", rowsum, each(Ops::END, [](const UOp& u) { return u.replace_src({u.src(0), u.src(0)}); }));
  add("const_of_0_lanes", kernel("resnet_block", 4), node(8, [](const UOp& u, auto) {
        return UOp::Make(Ops::CONST, u.dtype().vec(0), {}, u.arg());
      }));
  add("range_of_a_range", kernel("train_cnn", 72), node(7, [](const UOp& u, std::span<const UOp> before) {
        return u.replace_src({before[5]});  // an ADD of two other ranges
      }));
  add("invalid_divisor", kernel("train_cnn", 45), node(9, [](const UOp& u, auto) {
        return u.replace_arg(ConstValue::Invalid());  // the 5 of an IDIV and a MOD
      }));
  // found under UBSan with 20000 cases: a STORE both under its END and a SINK source (the
  // linearizer's control flow became a cycle), and a CONST made a DEFINE_REG of an index
  add("sink_of_an_ended_store", kernel("attention", 7), node(26, [](const UOp& u, std::span<const UOp> before) {
        return u.replace_src({u.src(0), before[24]});
      }));
  add("define_reg_of_an_index", kernel("attention", 7), node(19, [](const UOp& u, auto) {
        return u.replace_op(Ops::DEFINE_REG);
      }));
  // and with 100000 cases: an END closing the range its REDUCE closes (the range simplifier
  // ran for minutes), a RECIPROCAL made a GEP (arg None: the passes read a tuple of lanes)
  add("end_of_a_reduced_range", kernel("rowsum", 1), node(12, [](const UOp& u, std::span<const UOp> before) {
        return u.replace_src({u.src(0), u.src(1), before[7]});
      }));
  add("gep_of_no_lanes", kernel("attention", 9), node(43, [](const UOp& u, auto) {
        return u.replace_op(Ops::GEP);
      }));
  // The AST as it is, but a buffer of another slot: the measurer looks each program global's
  // buffer up by slot, and CHECK-fails where there is none.
  absl::StatusOr<KernelTask> moved = KernelTask::FromAst(rowsum);
  TG_CHECK(moved.ok()) << moved.status();
  moved->buffers.back().slot += 7;
  out.push_back({"hostile_task_buffer_slot_not_in_ast.bin", *std::move(moved)});
  return out;
}

DeviceClass Device() {
  return DeviceClass{.device = "CPU", .cpu_model = "Example CPU (family 6, model 1)",
                     .isa_flags = {"avx2", "fma"}, .cores = 4, .gpu_name = "", .gpu_arch = "",
                     .gpu_driver = "", .compiler_id = "clang 14", .renderer = "tg::ClangRenderer"};
}

}  // namespace

std::vector<CorpusEntry> SeedCorpus() {
  std::vector<CorpusEntry> out;
  UOp add = HandBuiltAddKernel();
  out.push_back({"ast_add.bin", EncodeAst(add)});
  // Its CUSTOMI is source text: only a reader that trusts the bytes takes it.
  out.push_back({"trusted_ast_zoo.bin", EncodeAst(HandBuiltArgZoo())});
  UOp rowsum = KernelsOf("rowsum").back().ast;
  out.push_back({"ast_rowsum.bin", EncodeAst(rowsum)});
  UOp rewritten = FullyRewritten(rowsum);
  TG_CHECK(rewritten) << "rowsum did not rewrite";
  out.push_back({"ast_rowsum_rewritten.bin", EncodeAst(rewritten)});

  std::vector<Opt> opts = {Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}},
                           Opt{OptOps::UPCAST, 1, int64_t{4}}, Opt{OptOps::NOLOCALS, std::nullopt, {}}};
  out.push_back({"opts_tc.bin", EncodeOpts(opts)});
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(add);
  TG_CHECK(task.ok()) << task.status();
  task->seed = 1234;
  out.push_back({"task_add.bin", EncodeKernelTask(*task)});
  out.push_back({"device_cpu.bin", EncodeDeviceClass(Device())});

  MeasureBatch batch;
  for (int o = 0; o < kNumOutcomes; ++o) {
    CandidateResult c;
    c.outcome = static_cast<Outcome>(o);
    c.error = o ? "error text" : "";
    c.samples_s = {1e-3, 2e-3};
    c.min_s = 1e-3;
    c.program_hash = 77 + o;
    c.uops = 42;
    batch.results.push_back(c);
  }
  MeasureRequest job{.job_id = 7, .search_id = 3, .task_digest = KernelTaskDigest(*task),
                     .task = *task, .candidates = {{}, opts}, .options = MeasureOptions{},
                     .run_deadline_s = 0.5};
  job.options.known_programs = {5, 9};
  out.push_back({"farm_hello.bin", EncodeFarmMessage(Hello{.protocol_version = kProtocolVersion,
                                                           .build_id = "tg-corpus",
                                                           .device = Device(),
                                                           .worker_id = "worker-1",
                                                           .capacity = 4,
                                                           .incarnation = 0x5eed,
                                                           .holding = {7, 8}})});
  out.push_back({"farm_ready.bin", EncodeFarmMessage(Ready{.credits = 2})});
  out.push_back({"farm_heartbeat.bin", EncodeFarmMessage(Heartbeat{.seq = 5, .in_flight = 1})});
  out.push_back({"farm_job.bin", EncodeFarmMessage(job)});
  out.push_back({"farm_result.bin", EncodeFarmMessage(MeasureResult{.job_id = 7, .search_id = 3,
                                                                    .status = absl::OkStatus(),
                                                                    .batch = batch})});
  out.push_back({"farm_bye.bin", EncodeFarmMessage(Bye{.reason = "done", .refused = true})});

  // The compile service: a request for the add kernel's candidates and a reply with an ok
  // program (local size, a variable, a tensor map, a binary with NUL bytes), a compile error
  // and a duplicate; a reply that says a run-only outcome.
  CompileTargetInfo target{.device = "CUDA", .arch = "sm_90", .renderer = "PTX",
                           .compiler_id = "ptxas 12.4", .local_max = {{1024, 1024, 64}},
                           .shared_max = 232448};
  out.push_back({"compile_request.bin",
                 EncodeCompileMessage(PrepareRequest{.request_id = 11, .target = target,
                                                     .task = *task, .candidates = {{}, opts},
                                                     .options = job.options})});
  PreparedProgram ok{.outcome = Outcome::kOk, .program_hash = 77, .uops = 42, .name = "E_16",
                     .function_name = "E_16", .src = "// ptx", .global_size = {16, 1, 1},
                     .local_size = {{4, 1, 1}}, .globals = {0, 1, 2}, .outs = {0}, .ins = {1, 2},
                     .ops = 16, .mem = 192, .lds = 128,
                     .binary = std::string("\x7f" "ELF\0\0", 6)};
  ok.vars = {ProgramVar{.name = "n", .min = 1, .max = 16}};
  ok.tensor_maps = {TensorMapSpec{.buffer = 1, .element = dtypes::float16, .rows = 16, .cols = 8,
                                  .box_rows = 8, .box_cols = 8}};
  PrepareReply reply{.request_id = 11, .target = target, .prepare_wall_s = 0.5};
  reply.programs = {ok, PreparedProgram{.outcome = Outcome::kCompileError, .error = "ptxas: error"},
                    PreparedProgram{.outcome = Outcome::kDuplicate, .duplicate_of = 0, .program_hash = 77}};
  out.push_back({"compile_reply.bin", EncodeCompileMessage(reply)});
  reply.programs[1].outcome = Outcome::kWrongResult;
  out.push_back({"hostile_compile_reply_run_outcome.bin", EncodeCompileMessage(reply)});

  // Hostile: each must be rejected.
  out.push_back({"hostile_ast_self_ref.bin",
                 HostileAst(3, [](auto nodes) { nodes[1].getSrc().set(0, 1); })});
  out.push_back({"hostile_ast_forward_ref.bin",
                 HostileAst(3, [](auto nodes) { nodes[0].initSrc(1).set(0, 2); })});
  out.push_back({"hostile_ast_out_of_range.bin",
                 HostileAst(3, [](auto nodes) { nodes[2].getSrc().set(0, 0xFFFFFFF0u); })});
  out.push_back({"hostile_ast_unknown_op.bin",
                 HostileAst(2, [](auto nodes) { nodes[0].setOp(static_cast<proto::Op>(4000)); })});
  out.push_back({"hostile_ast_deep_tuple.bin", HostileAst(1, [](auto nodes) {
                   auto a = nodes[0].initArg();
                   for (int i = 0; i < 40; ++i) a = a.initTuple(1)[0];
                 })});
  out.push_back({"hostile_ast_bad_dtype.bin", HostileAst(1, [](auto nodes) {
                   nodes[0].getDtype().setCount(8);  // void.vec(8)
                 })});
  out.push_back({"hostile_ast_bad_node.bin", HostileAst(2, [](auto nodes) {
                   nodes[0].setOp(internal::ToWire(Ops::DEFINE_VAR));
                   internal::WriteArg(Arg::Tuple({"x", ConstValue::Invalid(), 1}), nodes[0].initArg());
                 })});
  out.push_back({"hostile_ast_unreachable.bin",
                 HostileAst(3, [](auto nodes) { nodes[2].getSrc().set(0, 0); })});
  {
    // The node list's element count inflated past the segment: the list pointer is word 1 of
    // the root struct's pointer section (segment table 8 bytes, root pointer 8, struct 8).
    std::string b = EncodeAst(add);
    size_t list_ptr = 16;  // the KernelAst struct has no data words: its one pointer is here
    uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= uint64_t{static_cast<unsigned char>(b[list_ptr + k])} << (8 * k);
    w |= uint64_t{0x1FFFFFFF} << 35;  // element count bits
    for (int k = 0; k < 8; ++k) b[list_ptr + k] = static_cast<char>((w >> (8 * k)) & 0xff);
    out.push_back({"hostile_ast_inflated_list.bin", b});
  }
  {
    std::string b = EncodeAst(add);
    out.push_back({"hostile_ast_truncated.bin", b.substr(0, b.size() / 2 / 8 * 8)});
  }
  // Code on the wire: C text in a CUSTOMI, in an AST, a task and a job; a name that is C.
  UOp code = CustomCodeKernel("system(\"id\")");
  out.push_back({"hostile_ast_custom_code.bin", EncodeAst(code)});
  absl::StatusOr<KernelTask> code_task = KernelTask::FromAst(code);
  TG_CHECK(code_task.ok()) << code_task.status();
  out.push_back({"hostile_task_custom_code.bin", EncodeKernelTask(*code_task)});
  MeasureRequest code_job{.job_id = 8, .search_id = 3, .task_digest = KernelTaskDigest(*code_task),
                          .task = *code_task, .candidates = {{}}};
  out.push_back({"hostile_farm_job_custom_code.bin", EncodeFarmMessage(code_job)});
  out.push_back({"hostile_ast_name_injection.bin",
                 HostileAst(2, [](auto nodes) {
                   nodes[0].setOp(internal::ToWire(Ops::DEFINE_VAR));
                   internal::WriteDType(dtypes::index, nodes[0].getDtype());
                   internal::WriteArg(Arg::Tuple({"n){system(\"id\");}int f(int n", 1, 8}),
                                      nodes[0].initArg());
                 })});
  for (const NamedTask& t : HostileTasks()) out.push_back({t.name, EncodeKernelTask(t.task)});
  {
    std::string b = EncodeFarmMessage(Bye{.reason = "x"});
    b[8 + 8] = 0x33;  // the FarmMessage union discriminant: first data word of the root struct
    out.push_back({"hostile_farm_bad_tag.bin", b});
  }
  return out;
}

const std::vector<NamedTask>& HostileTasks() {
  static const auto* const kTasks = new std::vector<NamedTask>(MakeHostileTasks());
  return *kTasks;
}

std::vector<CorpusEntry> CommittedCorpus(const std::string& dir) {
  std::vector<CorpusEntry> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".bin") continue;
    std::ifstream f(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    out.push_back({e.path().filename().string(), ss.str()});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace tg::autotune::codec
