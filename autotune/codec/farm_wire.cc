// File: autotune/codec/farm_wire.cc
// The farm protocol's values <-> schema structs, with the readers' checks.
#include "autotune/codec/farm_wire.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "autotune/codec/ast_wire.h"
#include "autotune/codec/kernel_check.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::codec::internal {
namespace {

template <typename L>
absl::Status CheckList(const L& list, int64_t max, absl::string_view where) {
  return CheckLen(list.size(), max, where);
}

}  // namespace

// ** opts **

void WriteOpts(std::span<const Opt> opts, proto::OptList::Builder b) {
  auto list = b.initOpts(static_cast<unsigned>(opts.size()));
  for (unsigned i = 0; i < opts.size(); ++i) {
    const Opt& o = opts[i];
    auto w = list[i];
    w.setOp(ToWire(o.op));
    if (o.axis) {
      w.getAxis().setValue(*o.axis);
    } else {
      w.getAxis().setNone();
    }
    if (const auto* n = std::get_if<int64_t>(&o.arg)) {
      w.getArg().setInt(*n);
    } else if (const auto* tc = std::get_if<std::array<int64_t, 3>>(&o.arg)) {
      auto t = w.getArg().initTc();
      t.setTcSelect((*tc)[0]);
      t.setTcOpt((*tc)[1]);
      t.setUseTensorCores((*tc)[2]);
    } else {
      w.getArg().setNone();
    }
  }
}

absl::StatusOr<std::vector<Opt>> ReadOpts(proto::OptList::Reader r, const DecodeLimits& limits,
                                          absl::string_view where) {
  auto list = r.getOpts();
  RETURN_IF_ERROR(CheckList(list, limits.max_opts, where));
  std::vector<Opt> out;
  out.reserve(list.size());
  for (unsigned i = 0; i < list.size(); ++i) {
    auto w = list[i];
    std::string at = absl::StrCat(where, " opt ", i);
    Opt o{};
    ASSIGN_OR_RETURN(o.op, FromWire(w.getOp(), at));
    switch (w.getAxis().which()) {
      case proto::Opt::Axis::NONE: break;
      case proto::Opt::Axis::VALUE: o.axis = w.getAxis().getValue(); break;
      default: return Bad(at, "unknown axis kind");
    }
    switch (w.getArg().which()) {
      case proto::Opt::Arg::NONE: break;
      case proto::Opt::Arg::INT: o.arg = w.getArg().getInt(); break;
      case proto::Opt::Arg::TC: {
        auto t = w.getArg().getTc();
        o.arg = std::array<int64_t, 3>{t.getTcSelect(), t.getTcOpt(), t.getUseTensorCores()};
        break;
      }
      default: return Bad(at, "unknown arg kind");
    }
    // TC's arg is its triple and so is GEMM's (bm, bn, stages), in the same three fields; no
    // other op has one (opt.h's OptArg).
    bool is_triple = std::holds_alternative<std::array<int64_t, 3>>(o.arg);
    if (is_triple != (o.op == OptOps::TC || o.op == OptOps::GEMM))
      return Bad(at, absl::StrCat("TC and GEMM, and only they, have a triple arg, got ",
                                  Sv(OptOpsName(o.op)), is_triple ? " with one" : " without one"));
    out.push_back(o);
  }
  return out;
}

// ** kernel task **

void WriteTask(const KernelTask& t, proto::KernelTask::Builder b) {
  WriteAst(t.ast, b.initAst());
  auto bufs = b.initBuffers(static_cast<unsigned>(t.buffers.size()));
  for (unsigned i = 0; i < t.buffers.size(); ++i) {
    bufs[i].setSlot(t.buffers[i].slot);
    WriteDType(t.buffers[i].dtype, bufs[i].initDtype());
    bufs[i].setSize(t.buffers[i].size);
  }
  auto vars = b.initVarVals(static_cast<unsigned>(t.var_vals.size()));
  for (unsigned i = 0; i < t.var_vals.size(); ++i) {
    vars[i].setName(Txt(t.var_vals[i].first));
    vars[i].setValue(t.var_vals[i].second);
  }
  b.setSeed(t.seed);
  b.setCodegen(Txt(t.codegen.KeyText()));
}

absl::StatusOr<KernelTask> ReadTask(proto::KernelTask::Reader r, const DecodeLimits& limits) {
  KernelTask t;
  ASSIGN_OR_RETURN(t.ast, ReadAst(r.getAst(), limits));
  if (t.ast.op() != Ops::SINK) return Bad("task ast", absl::StrCat("root is ", Sv(OpName(t.ast.op())), ", not SINK"));
  auto bufs = r.getBuffers();
  RETURN_IF_ERROR(CheckList(bufs, limits.max_list_len, "task buffers"));
  for (unsigned i = 0; i < bufs.size(); ++i) {
    std::string at = absl::StrCat("task buffer ", i);
    BufferSpec s;
    s.slot = bufs[i].getSlot();
    ASSIGN_OR_RETURN(s.dtype, ReadDType(bufs[i].getDtype(), at));
    s.size = bufs[i].getSize();
    if (s.slot < 0 || s.size < 0 || s.size > kMaxPtrSize || s.dtype.is_ptr())
      return Bad(at, "negative slot or size, size over 2**40, or a pointer dtype");
    t.buffers.push_back(s);
  }
  auto vars = r.getVarVals();
  RETURN_IF_ERROR(CheckList(vars, limits.max_list_len, "task varVals"));
  for (unsigned i = 0; i < vars.size(); ++i) {
    ASSIGN_OR_RETURN(std::string name, ReadText(vars[i].getName(), limits, absl::StrCat("task varVal ", i)));
    t.var_vals.emplace_back(std::move(name), vars[i].getValue());
  }
  t.seed = r.getSeed();
  ASSIGN_OR_RETURN(std::string codegen, ReadText(r.getCodegen(), limits, "task codegen"));
  if (!codegen.empty()) {
    absl::StatusOr<CodegenOptions> o = CodegenOptions::FromKeyText(codegen);
    if (!o.ok()) return Bad("task codegen", o.status().message());
    t.codegen = *o;
  }
  // The worker lowers this kernel: what the pipeline would abort on is refused here.
  if (absl::Status s = CheckKernelTask(t); !s.ok()) return Bad("task", s.message());
  return t;
}

// ** options **

void WriteOptions(const MeasureOptions& o, proto::MeasureOptions::Builder b) {
  b.setRuns(o.runs);
  b.setEarlyStopS(o.early_stop_s);
  b.setInterleaved(o.interleaved);
  b.setCheckResults(o.check_results);
  b.setUopsMax(o.uops_max);
  b.setMaxComputeRatio(o.max_compute_ratio);
  b.setTimeoutS(o.timeout_s);
  b.setKeep(o.keep);
  b.setRefineRatio(o.refine_ratio);
  b.setFirstRunStopS(o.first_run_stop_s);
  // A hash set has no order: sorted, so equal options give equal bytes.
  std::vector<uint64_t> known(o.known_programs.begin(), o.known_programs.end());
  std::sort(known.begin(), known.end());
  auto k = b.initKnownPrograms(static_cast<unsigned>(known.size()));
  for (unsigned i = 0; i < known.size(); ++i) k.set(i, known[i]);
}

absl::StatusOr<MeasureOptions> ReadOptions(proto::MeasureOptions::Reader r,
                                           const DecodeLimits& limits) {
  MeasureOptions o;
  o.runs = r.getRuns();
  if (o.runs < 0 || o.runs > 1000000) return Bad("options runs", absl::StrCat(o.runs, " out of range"));
  o.early_stop_s = r.getEarlyStopS();
  o.interleaved = r.getInterleaved();
  o.check_results = r.getCheckResults();
  o.uops_max = r.getUopsMax();
  o.max_compute_ratio = r.getMaxComputeRatio();
  o.timeout_s = r.getTimeoutS();
  o.keep = r.getKeep();
  if (o.keep < 0) return Bad("options keep", absl::StrCat(o.keep, " is negative"));
  o.refine_ratio = r.getRefineRatio();
  RETURN_IF_ERROR(CheckNotNan(o.refine_ratio, "options refineRatio"));
  o.first_run_stop_s = r.getFirstRunStopS();
  RETURN_IF_ERROR(CheckNotNan(o.first_run_stop_s, "options firstRunStopS"));
  RETURN_IF_ERROR(CheckNotNan(o.early_stop_s, "options earlyStopS"));
  RETURN_IF_ERROR(CheckNotNan(o.max_compute_ratio, "options maxComputeRatio"));
  RETURN_IF_ERROR(CheckNotNan(o.timeout_s, "options timeoutS"));
  auto k = r.getKnownPrograms();
  RETURN_IF_ERROR(CheckList(k, limits.max_list_len, "options knownPrograms"));
  o.known_programs.reserve(k.size());
  for (unsigned i = 0; i < k.size(); ++i) o.known_programs.insert(k[i]);
  return o;
}

// ** status **

void WriteStatus(const absl::Status& s, proto::BatchStatus::Builder b) {
  b.setCode(static_cast<uint32_t>(s.code()));
  b.setMessage(Txt(std::string(s.message())));
}

absl::Status ReadStatus(proto::BatchStatus::Reader r, const DecodeLimits& limits,
                        absl::string_view where, absl::Status* status) {
  if (r.getCode() > static_cast<uint32_t>(absl::StatusCode::kUnauthenticated))
    return Bad(where, absl::StrCat("unknown status code ", r.getCode()));
  ASSIGN_OR_RETURN(std::string msg, ReadText(r.getMessage(), limits, absl::StrCat(where, " message")));
  *status = r.getCode() == 0 ? absl::OkStatus()
                             : absl::Status(static_cast<absl::StatusCode>(r.getCode()), msg);
  return absl::OkStatus();
}

// ** results **

void WriteResult(const MeasureResult& m, proto::MeasureResult::Builder b) {
  b.setJobId(m.job_id);
  b.setSearchId(m.search_id);
  if (!m.status.ok()) WriteStatus(m.status, b.initStatus());
  auto list = b.initResults(static_cast<unsigned>(m.batch.results.size()));
  for (unsigned i = 0; i < m.batch.results.size(); ++i) {
    const CandidateResult& c = m.batch.results[i];
    auto w = list[i];
    w.setOutcome(ToWire(c.outcome));
    if (!c.error.empty()) w.setError(Txt(c.error));
    auto s = w.initSamplesS(static_cast<unsigned>(c.samples_s.size()));
    for (unsigned j = 0; j < c.samples_s.size(); ++j) s.set(j, c.samples_s[j]);
    w.setMinS(c.min_s);
    w.setProgramHash(c.program_hash);
    w.setUops(c.uops);
    w.setDuplicateOf(c.duplicate_of);
    auto cost = w.initCost();
    cost.setLowerS(c.cost.lower_s);
    cost.setCompileS(c.cost.compile_s);
    cost.setRunS(c.cost.run_s);
    cost.setLowerCpuS(c.cost.lower_cpu_s);
  }
  b.setPrepareWallS(m.batch.prepare_wall_s);
  b.setRunWallS(m.batch.run_wall_s);
}

absl::StatusOr<MeasureResult> ReadResult(proto::MeasureResult::Reader r,
                                         const DecodeLimits& limits) {
  MeasureResult m;
  m.job_id = r.getJobId();
  m.search_id = r.getSearchId();
  if (r.hasStatus()) RETURN_IF_ERROR(ReadStatus(r.getStatus(), limits, "result status", &m.status));
  auto list = r.getResults();
  RETURN_IF_ERROR(CheckList(list, limits.max_candidates, "result results"));
  m.batch.results.reserve(list.size());
  for (unsigned i = 0; i < list.size(); ++i) {
    auto w = list[i];
    std::string at = absl::StrCat("result candidate ", i);
    CandidateResult c;
    ASSIGN_OR_RETURN(c.outcome, FromWire(w.getOutcome(), absl::StrCat(at, " outcome")));
    ASSIGN_OR_RETURN(c.error, ReadText(w.getError(), limits, absl::StrCat(at, " error")));
    auto s = w.getSamplesS();
    RETURN_IF_ERROR(CheckList(s, limits.max_list_len, absl::StrCat(at, " samplesS")));
    c.samples_s.reserve(s.size());
    for (unsigned j = 0; j < s.size(); ++j) {
      RETURN_IF_ERROR(CheckNotNan(s[j], absl::StrCat(at, " samplesS[", j, "]")));
      c.samples_s.push_back(s[j]);
    }
    c.min_s = w.getMinS();
    RETURN_IF_ERROR(CheckNotNan(c.min_s, absl::StrCat(at, " minS")));
    c.program_hash = w.getProgramHash();
    c.uops = w.getUops();
    c.duplicate_of = w.getDuplicateOf();
    if (c.duplicate_of < -1 || c.duplicate_of >= static_cast<int64_t>(list.size()))
      return Bad(at, absl::StrCat("duplicateOf ", c.duplicate_of, " is not a candidate of the batch"));
    auto cost = w.getCost();
    c.cost = {cost.getLowerS(), cost.getCompileS(), cost.getRunS(), cost.getLowerCpuS()};
    m.batch.results.push_back(std::move(c));
  }
  m.batch.prepare_wall_s = r.getPrepareWallS();
  m.batch.run_wall_s = r.getRunWallS();
  return m;
}

// ** request **

void WriteRequest(const MeasureRequest& m, proto::MeasureRequest::Builder b) {
  b.setJobId(m.job_id);
  b.setSearchId(m.search_id);
  b.setTaskDigest(m.task_digest);
  if (m.task) {
    WriteTask(*m.task, b.getTask().initFull());
  } else {
    b.getTask().setByDigest();
  }
  auto c = b.initCandidates(static_cast<unsigned>(m.candidates.size()));
  for (unsigned i = 0; i < m.candidates.size(); ++i) WriteOpts(m.candidates[i], c[i]);
  WriteOptions(m.options, b.initOptions());
  b.setRunDeadlineS(m.run_deadline_s);
}

absl::StatusOr<MeasureRequest> ReadRequest(proto::MeasureRequest::Reader r,
                                           const DecodeLimits& limits) {
  MeasureRequest m;
  m.job_id = r.getJobId();
  m.search_id = r.getSearchId();
  m.task_digest = r.getTaskDigest();
  switch (r.getTask().which()) {
    case proto::MeasureRequest::Task::FULL: {
      ASSIGN_OR_RETURN(m.task, ReadTask(r.getTask().getFull(), limits));
      break;
    }
    case proto::MeasureRequest::Task::BY_DIGEST: break;
    default: return Bad("job task", "unknown task kind");
  }
  auto c = r.getCandidates();
  RETURN_IF_ERROR(CheckList(c, limits.max_candidates, "job candidates"));
  m.candidates.reserve(c.size());
  for (unsigned i = 0; i < c.size(); ++i) {
    ASSIGN_OR_RETURN(std::vector<Opt> opts, ReadOpts(c[i], limits, absl::StrCat("job candidate ", i)));
    m.candidates.push_back(std::move(opts));
  }
  ASSIGN_OR_RETURN(m.options, ReadOptions(r.getOptions(), limits));
  m.run_deadline_s = r.getRunDeadlineS();
  RETURN_IF_ERROR(CheckNotNan(m.run_deadline_s, "job runDeadlineS"));
  return m;
}

// ** device **

void WriteDevice(const DeviceClass& d, proto::DeviceDescription::Builder b) {
  b.setDevice(Txt(d.device));
  b.setCpuModel(Txt(d.cpu_model));
  auto f = b.initIsaFlags(static_cast<unsigned>(d.isa_flags.size()));
  for (unsigned i = 0; i < d.isa_flags.size(); ++i) f.set(i, Txt(d.isa_flags[i]));
  b.setCores(static_cast<uint32_t>(d.cores));
  b.setGpuName(Txt(d.gpu_name));
  b.setGpuArch(Txt(d.gpu_arch));
  b.setGpuDriver(Txt(d.gpu_driver));
  b.setCompilerId(Txt(d.compiler_id));
  b.setRenderer(Txt(d.renderer));
  b.setDigest(Txt(d.Digest()));
}

absl::StatusOr<DeviceClass> ReadDevice(proto::DeviceDescription::Reader r,
                                       const DecodeLimits& limits) {
  DeviceClass d;
  ASSIGN_OR_RETURN(d.device, ReadText(r.getDevice(), limits, "device device"));
  ASSIGN_OR_RETURN(d.cpu_model, ReadText(r.getCpuModel(), limits, "device cpuModel"));
  auto f = r.getIsaFlags();
  RETURN_IF_ERROR(CheckList(f, limits.max_list_len, "device isaFlags"));
  for (unsigned i = 0; i < f.size(); ++i) {
    ASSIGN_OR_RETURN(std::string flag, ReadText(f[i], limits, absl::StrCat("device isaFlags[", i, "]")));
    d.isa_flags.push_back(std::move(flag));
  }
  if (r.getCores() > 1u << 20) return Bad("device cores", absl::StrCat(r.getCores(), " out of range"));
  d.cores = static_cast<int>(r.getCores());
  ASSIGN_OR_RETURN(d.gpu_name, ReadText(r.getGpuName(), limits, "device gpuName"));
  ASSIGN_OR_RETURN(d.gpu_arch, ReadText(r.getGpuArch(), limits, "device gpuArch"));
  ASSIGN_OR_RETURN(d.gpu_driver, ReadText(r.getGpuDriver(), limits, "device gpuDriver"));
  ASSIGN_OR_RETURN(d.compiler_id, ReadText(r.getCompilerId(), limits, "device compilerId"));
  ASSIGN_OR_RETURN(d.renderer, ReadText(r.getRenderer(), limits, "device renderer"));
  ASSIGN_OR_RETURN(std::string digest, ReadText(r.getDigest(), limits, "device digest"));
  // The digest is what timings are filed under: one that doesn't match the fields means a
  // peer that hashes differently (another version) or a forged description.
  if (digest != d.Digest())
    return Bad("device digest", absl::StrCat("'", digest, "' does not match its fields ('",
                                             d.Digest(), "')"));
  return d;
}

// ** the message union **

void WriteMessage(const FarmMessage& m, proto::FarmMessage::Builder b) {
  if (const auto* h = std::get_if<Hello>(&m)) {
    auto w = b.initHello();
    w.setProtocolVersion(h->protocol_version);
    w.setBuildId(Txt(h->build_id));
    WriteDevice(h->device, w.initDevice());
    w.setWorkerId(Txt(h->worker_id));
    w.setCapacity(h->capacity);
    w.setHost(Txt(h->host));
    w.setIncarnation(h->incarnation);
    auto held = w.initHolding(static_cast<unsigned>(h->holding.size()));
    for (size_t i = 0; i < h->holding.size(); ++i) held.set(static_cast<unsigned>(i), h->holding[i]);
  } else if (const auto* r = std::get_if<Ready>(&m)) {
    b.initReady().setCredits(r->credits);
  } else if (const auto* hb = std::get_if<Heartbeat>(&m)) {
    auto w = b.initHeartbeat();
    w.setSeq(hb->seq);
    w.setInFlight(hb->in_flight);
  } else if (const auto* job = std::get_if<MeasureRequest>(&m)) {
    WriteRequest(*job, b.initJob());
  } else if (const auto* res = std::get_if<MeasureResult>(&m)) {
    WriteResult(*res, b.initResult());
  } else {
    auto bye = b.initBye();
    bye.setReason(Txt(std::get<Bye>(m).reason));
    bye.setRefused(std::get<Bye>(m).refused);
  }
}

absl::StatusOr<FarmMessage> ReadMessage(proto::FarmMessage::Reader r, const DecodeLimits& limits) {
  using W = proto::FarmMessage::Which;
  switch (r.which()) {
    case W::HELLO: {
      auto w = r.getHello();
      Hello h;
      h.protocol_version = w.getProtocolVersion();
      ASSIGN_OR_RETURN(h.build_id, ReadText(w.getBuildId(), limits, "hello buildId"));
      ASSIGN_OR_RETURN(h.device, ReadDevice(w.getDevice(), limits));
      ASSIGN_OR_RETURN(h.worker_id, ReadText(w.getWorkerId(), limits, "hello workerId"));
      h.capacity = w.getCapacity();
      ASSIGN_OR_RETURN(h.host, ReadText(w.getHost(), limits, "hello host"));
      h.incarnation = w.getIncarnation();
      RETURN_IF_ERROR(CheckList(w.getHolding(), limits.max_list_len, "hello holding"));
      for (uint64_t id : w.getHolding()) h.holding.push_back(id);
      return FarmMessage(std::move(h));
    }
    case W::READY: return FarmMessage(Ready{r.getReady().getCredits()});
    case W::HEARTBEAT:
      return FarmMessage(Heartbeat{r.getHeartbeat().getSeq(), r.getHeartbeat().getInFlight()});
    case W::JOB: {
      ASSIGN_OR_RETURN(MeasureRequest job, ReadRequest(r.getJob(), limits));
      return FarmMessage(std::move(job));
    }
    case W::RESULT: {
      ASSIGN_OR_RETURN(MeasureResult res, ReadResult(r.getResult(), limits));
      return FarmMessage(std::move(res));
    }
    case W::BYE: {
      ASSIGN_OR_RETURN(std::string reason, ReadText(r.getBye().getReason(), limits, "bye reason"));
      return FarmMessage(Bye{.reason = std::move(reason), .refused = r.getBye().getRefused()});
    }
  }
  return Bad("farm message", absl::StrCat("unknown message kind ", static_cast<uint16_t>(r.which())));
}

}  // namespace tg::autotune::codec::internal
