// File: autotune/codec/corpus.cc (testonly)
// The fuzz seed corpus: valid messages of every kind and hostile ones.
#include "autotune/codec/corpus.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "autotune/codec/ast_codec.h"
#include "autotune/codec/ast_wire.h"
#include "autotune/codec/codec_test_kernels.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "tinygrad/base/check.h"

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
  {
    std::string b = EncodeFarmMessage(Bye{.reason = "x"});
    b[8 + 8] = 0x33;  // the FarmMessage union discriminant: first data word of the root struct
    out.push_back({"hostile_farm_bad_tag.bin", b});
  }
  return out;
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
