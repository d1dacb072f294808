// File: autotune/codec/compile_wire.cc
// The compile service's values <-> schema structs, with the readers' checks. Tasks, options,
// opt lists and statuses go through the farm protocol's readers (farm_wire.h).
#include "autotune/codec/compile_wire.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/codec/farm_wire.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::codec::internal {
namespace {

// ** parts **

void WriteDims(const std::array<int64_t, 3>& d, proto::Dims3::Builder b) {
  b.setX(d[0]);
  b.setY(d[1]);
  b.setZ(d[2]);
}

// Launch sizes are positive and limits never negative (a limit may be 0: the dimensions a CPU
// renderer's threads do not use); anything else is a broken peer.
enum class DimsRule { kPositive, kNonNegative };
absl::StatusOr<std::array<int64_t, 3>> ReadDims(proto::Dims3::Reader r, absl::string_view where,
                                                DimsRule rule = DimsRule::kPositive) {
  std::array<int64_t, 3> d{r.getX(), r.getY(), r.getZ()};
  const int64_t least = rule == DimsRule::kPositive ? 1 : 0;
  for (int64_t v : d)
    if (v < least)
      return Bad(where, absl::StrCat("(", d[0], ", ", d[1], ", ", d[2], ") is ",
                                     rule == DimsRule::kPositive ? "not positive" : "negative"));
  return d;
}

// An optional Dims3 (a `none`/`value` union group).
template <typename Group>
void WriteOptionalDims(const std::optional<std::array<int64_t, 3>>& d, Group b) {
  if (d) {
    WriteDims(*d, b.initValue());
  } else {
    b.setNone();
  }
}

template <typename Group>
absl::StatusOr<std::optional<std::array<int64_t, 3>>> ReadOptionalDims(Group r,
                                                                       absl::string_view where,
                                                                       DimsRule rule = DimsRule::kPositive) {
  using Which = decltype(r.which());
  switch (r.which()) {
    case Which::NONE: return std::optional<std::array<int64_t, 3>>();
    case Which::VALUE: {
      ASSIGN_OR_RETURN(auto d, ReadDims(r.getValue(), where, rule));
      return std::optional<std::array<int64_t, 3>>(d);
    }
  }
  return Bad(where, absl::StrCat("unknown union tag ", static_cast<uint16_t>(r.which())));
}

// A program's source or binary: bounded by max_program_bytes, not max_string_bytes.
absl::Status CheckProgramBytes(size_t n, const DecodeLimits& limits, absl::string_view where) {
  if (static_cast<int64_t>(n) > limits.max_program_bytes)
    return Bad(where, absl::StrCat(n, " bytes is over the limit of ", limits.max_program_bytes));
  return absl::OkStatus();
}

absl::Status CheckNotNegative(int64_t v, absl::string_view where) {
  return v < 0 ? Bad(where, absl::StrCat(v, " is negative")) : absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> ReadSlots(capnp::List<int64_t>::Reader r,
                                               const DecodeLimits& limits,
                                               absl::string_view where) {
  RETURN_IF_ERROR(CheckLen(r.size(), limits.max_list_len, where));
  std::vector<int64_t> out;
  out.reserve(r.size());
  for (unsigned i = 0; i < r.size(); ++i) {
    RETURN_IF_ERROR(CheckNotNegative(r[i], absl::StrCat(where, "[", i, "]")));
    out.push_back(r[i]);
  }
  return out;
}

void WriteSlots(const std::vector<int64_t>& v, capnp::List<int64_t>::Builder b) {
  for (unsigned i = 0; i < v.size(); ++i) b.set(i, v[i]);
}

// ** target **

void WriteTarget(const CompileTargetInfo& t, proto::CompileTargetInfo::Builder b) {
  b.setDevice(Txt(t.device));
  b.setArch(Txt(t.arch));
  b.setRenderer(Txt(t.renderer));
  b.setCompilerId(Txt(t.compiler_id));
  WriteOptionalDims(t.global_max, b.getGlobalMax());
  WriteOptionalDims(t.local_max, b.getLocalMax());
  b.setSharedMax(t.shared_max);
}

absl::StatusOr<CompileTargetInfo> ReadTarget(proto::CompileTargetInfo::Reader r,
                                             const DecodeLimits& limits, absl::string_view where) {
  CompileTargetInfo t;
  ASSIGN_OR_RETURN(t.device, ReadText(r.getDevice(), limits, absl::StrCat(where, ".device")));
  ASSIGN_OR_RETURN(t.arch, ReadText(r.getArch(), limits, absl::StrCat(where, ".arch")));
  ASSIGN_OR_RETURN(t.renderer, ReadText(r.getRenderer(), limits, absl::StrCat(where, ".renderer")));
  ASSIGN_OR_RETURN(t.compiler_id,
                   ReadText(r.getCompilerId(), limits, absl::StrCat(where, ".compilerId")));
  ASSIGN_OR_RETURN(t.global_max, ReadOptionalDims(r.getGlobalMax(), absl::StrCat(where, ".globalMax"), DimsRule::kNonNegative));
  ASSIGN_OR_RETURN(t.local_max, ReadOptionalDims(r.getLocalMax(), absl::StrCat(where, ".localMax"), DimsRule::kNonNegative));
  t.shared_max = r.getSharedMax();
  RETURN_IF_ERROR(CheckNotNegative(t.shared_max, absl::StrCat(where, ".sharedMax")));
  return t;
}

// ** request **

void WritePrepareRequest(const PrepareRequest& m, proto::PrepareRequest::Builder b) {
  b.setProtocolVersion(m.protocol_version);
  b.setRequestId(m.request_id);
  WriteTarget(m.target, b.initTarget());
  WriteTask(m.task, b.initTask());
  auto c = b.initCandidates(static_cast<unsigned>(m.candidates.size()));
  for (unsigned i = 0; i < m.candidates.size(); ++i) WriteOpts(m.candidates[i], c[i]);
  WriteOptions(m.options, b.initOptions());
}

absl::StatusOr<PrepareRequest> ReadPrepareRequest(proto::PrepareRequest::Reader r,
                                           const DecodeLimits& limits) {
  PrepareRequest m;
  // Carried, not checked: the server answers another version with an error reply.
  m.protocol_version = r.getProtocolVersion();
  m.request_id = r.getRequestId();
  ASSIGN_OR_RETURN(m.target, ReadTarget(r.getTarget(), limits, "request.target"));
  if (!r.hasTask()) return Bad("request.task", "missing");
  ASSIGN_OR_RETURN(m.task, ReadTask(r.getTask(), limits));
  auto c = r.getCandidates();
  RETURN_IF_ERROR(CheckLen(c.size(), limits.max_candidates, "request.candidates"));
  m.candidates.reserve(c.size());
  for (unsigned i = 0; i < c.size(); ++i) {
    ASSIGN_OR_RETURN(std::vector<Opt> opts,
                     ReadOpts(c[i], limits, absl::StrCat("request.candidates[", i, "]")));
    m.candidates.push_back(std::move(opts));
  }
  ASSIGN_OR_RETURN(m.options, ReadOptions(r.getOptions(), limits));
  return m;
}

// ** prepared programs **

void WriteProgram(const PreparedProgram& p, proto::PreparedProgram::Builder b) {
  b.setOutcome(ToWire(p.outcome));
  b.setError(Txt(p.error));
  b.setDuplicateOf(p.duplicate_of);
  b.setProgramHash(p.program_hash);
  b.setUops(p.uops);
  auto cost = b.initCost();
  cost.setLowerS(p.cost.lower_s);
  cost.setCompileS(p.cost.compile_s);
  cost.setRunS(p.cost.run_s);
  cost.setLowerCpuS(p.cost.lower_cpu_s);
  b.setName(Txt(p.name));
  b.setFunctionName(Txt(p.function_name));
  b.setSrc(Txt(p.src));
  WriteDims(p.global_size, b.initGlobalSize());
  WriteOptionalDims(p.local_size, b.getLocalSize());
  auto vars = b.initVars(static_cast<unsigned>(p.vars.size()));
  for (unsigned i = 0; i < p.vars.size(); ++i) {
    vars[i].setName(Txt(p.vars[i].name));
    vars[i].setMin(p.vars[i].min);
    vars[i].setMax(p.vars[i].max);
    WriteDType(p.vars[i].dtype, vars[i].initDtype());
  }
  WriteSlots(p.globals, b.initGlobals(static_cast<unsigned>(p.globals.size())));
  WriteSlots(p.outs, b.initOuts(static_cast<unsigned>(p.outs.size())));
  WriteSlots(p.ins, b.initIns(static_cast<unsigned>(p.ins.size())));
  b.setOps(p.ops);
  b.setMem(p.mem);
  b.setLds(p.lds);
  b.setDynamicSharedBytes(p.dynamic_shared_bytes);
  auto maps = b.initTensorMaps(static_cast<unsigned>(p.tensor_maps.size()));
  for (unsigned i = 0; i < p.tensor_maps.size(); ++i) {
    const TensorMapSpec& t = p.tensor_maps[i];
    maps[i].setBuffer(t.buffer);
    WriteDType(t.element, maps[i].initElement());
    maps[i].setRows(t.rows);
    maps[i].setCols(t.cols);
    maps[i].setBoxRows(t.box_rows);
    maps[i].setBoxCols(t.box_cols);
  }
  b.setBinary(capnp::Data::Reader(reinterpret_cast<const kj::byte*>(p.binary.data()),
                                  p.binary.size()));
}

absl::StatusOr<ProgramVar> ReadVar(proto::ProgramVar::Reader r, const DecodeLimits& limits,
                                   absl::string_view where) {
  ProgramVar v;
  ASSIGN_OR_RETURN(v.name, ReadText(r.getName(), limits, absl::StrCat(where, ".name")));
  v.min = r.getMin();
  v.max = r.getMax();
  if (v.min > v.max) return Bad(where, absl::StrCat("min ", v.min, " > max ", v.max));
  ASSIGN_OR_RETURN(v.dtype, ReadDType(r.getDtype(), absl::StrCat(where, ".dtype")));
  return v;
}

absl::StatusOr<TensorMapSpec> ReadTensorMap(proto::TensorMap::Reader r, absl::string_view where) {
  TensorMapSpec t;
  t.buffer = r.getBuffer();
  ASSIGN_OR_RETURN(t.element, ReadDType(r.getElement(), absl::StrCat(where, ".element")));
  if (t.element.is_ptr()) return Bad(absl::StrCat(where, ".element"), "a pointer dtype");
  t.rows = r.getRows();
  t.cols = r.getCols();
  t.box_rows = r.getBoxRows();
  t.box_cols = r.getBoxCols();
  for (int64_t v : {t.buffer, t.rows, t.cols, t.box_rows, t.box_cols})
    if (v < 0) return Bad(where, "a negative buffer, size or box");
  return t;
}

absl::StatusOr<PreparedProgram> ReadProgram(proto::PreparedProgram::Reader r, size_t batch_size,
                                            const DecodeLimits& limits, absl::string_view where) {
  auto at = [&](absl::string_view field) { return absl::StrCat(where, ".", field); };
  PreparedProgram p;
  ASSIGN_OR_RETURN(p.outcome, FromWire(r.getOutcome(), at("outcome")));
  if (!DecidedBeforeRun(p.outcome))
    return Bad(at("outcome"), absl::StrCat(Sv(OutcomeName(p.outcome)), " is not an outcome of preparing"));
  ASSIGN_OR_RETURN(p.error, ReadText(r.getError(), limits, at("error")));
  p.duplicate_of = r.getDuplicateOf();
  if (p.duplicate_of < -1 || p.duplicate_of >= static_cast<int64_t>(batch_size))
    return Bad(at("duplicateOf"), absl::StrCat(p.duplicate_of, " is not a candidate of the request"));
  p.program_hash = r.getProgramHash();
  p.uops = r.getUops();
  auto cost = r.getCost();
  p.cost = {cost.getLowerS(), cost.getCompileS(), cost.getRunS(), cost.getLowerCpuS()};
  ASSIGN_OR_RETURN(p.name, ReadText(r.getName(), limits, at("name")));
  ASSIGN_OR_RETURN(p.function_name, ReadText(r.getFunctionName(), limits, at("functionName")));
  capnp::Text::Reader src = r.getSrc();
  RETURN_IF_ERROR(CheckProgramBytes(src.size(), limits, at("src")));
  p.src.assign(src.cStr(), src.size());
  ASSIGN_OR_RETURN(p.global_size, ReadDims(r.getGlobalSize(), at("globalSize")));
  ASSIGN_OR_RETURN(p.local_size, ReadOptionalDims(r.getLocalSize(), at("localSize")));
  auto vars = r.getVars();
  RETURN_IF_ERROR(CheckLen(vars.size(), limits.max_list_len, at("vars")));
  p.vars.reserve(vars.size());
  for (unsigned i = 0; i < vars.size(); ++i) {
    ASSIGN_OR_RETURN(ProgramVar v, ReadVar(vars[i], limits, absl::StrCat(at("vars"), "[", i, "]")));
    p.vars.push_back(std::move(v));
  }
  ASSIGN_OR_RETURN(p.globals, ReadSlots(r.getGlobals(), limits, at("globals")));
  ASSIGN_OR_RETURN(p.outs, ReadSlots(r.getOuts(), limits, at("outs")));
  ASSIGN_OR_RETURN(p.ins, ReadSlots(r.getIns(), limits, at("ins")));
  p.ops = r.getOps();
  p.mem = r.getMem();
  p.lds = r.getLds();
  RETURN_IF_ERROR(CheckNotNan(p.ops, at("ops")));
  RETURN_IF_ERROR(CheckNotNan(p.mem, at("mem")));
  RETURN_IF_ERROR(CheckNotNan(p.lds, at("lds")));
  p.dynamic_shared_bytes = r.getDynamicSharedBytes();
  RETURN_IF_ERROR(CheckNotNegative(p.dynamic_shared_bytes, at("dynamicSharedBytes")));
  auto maps = r.getTensorMaps();
  RETURN_IF_ERROR(CheckLen(maps.size(), limits.max_list_len, at("tensorMaps")));
  p.tensor_maps.reserve(maps.size());
  for (unsigned i = 0; i < maps.size(); ++i) {
    ASSIGN_OR_RETURN(TensorMapSpec t, ReadTensorMap(maps[i], absl::StrCat(at("tensorMaps"), "[", i, "]")));
    p.tensor_maps.push_back(t);
  }
  capnp::Data::Reader binary = r.getBinary();
  RETURN_IF_ERROR(CheckProgramBytes(binary.size(), limits, at("binary")));
  p.binary.assign(reinterpret_cast<const char*>(binary.begin()), binary.size());
  return p;
}

// ** reply **

void WritePrepareReply(const PrepareReply& m, proto::PrepareReply::Builder b) {
  b.setRequestId(m.request_id);
  if (!m.status.ok()) WriteStatus(m.status, b.initStatus());
  WriteTarget(m.target, b.initTarget());
  auto list = b.initPrograms(static_cast<unsigned>(m.programs.size()));
  for (unsigned i = 0; i < m.programs.size(); ++i) WriteProgram(m.programs[i], list[i]);
  b.setPrepareWallS(m.prepare_wall_s);
}

absl::StatusOr<PrepareReply> ReadPrepareReply(proto::PrepareReply::Reader r, const DecodeLimits& limits) {
  PrepareReply m;
  m.request_id = r.getRequestId();
  if (r.hasStatus()) RETURN_IF_ERROR(ReadStatus(r.getStatus(), limits, "reply.status", &m.status));
  ASSIGN_OR_RETURN(m.target, ReadTarget(r.getTarget(), limits, "reply.target"));
  auto list = r.getPrograms();
  RETURN_IF_ERROR(CheckLen(list.size(), limits.max_candidates, "reply.programs"));
  // A failed request has no programs: a client must not load what came with an error.
  if (!m.status.ok() && list.size() != 0)
    return Bad("reply.programs", absl::StrCat(list.size(), " programs with the failed status ",
                                              m.status.ToString()));
  m.programs.reserve(list.size());
  for (unsigned i = 0; i < list.size(); ++i) {
    ASSIGN_OR_RETURN(PreparedProgram p,
                     ReadProgram(list[i], list.size(), limits, absl::StrCat("reply.programs[", i, "]")));
    m.programs.push_back(std::move(p));
  }
  m.prepare_wall_s = r.getPrepareWallS();
  RETURN_IF_ERROR(CheckNotNan(m.prepare_wall_s, "reply.prepareWallS"));
  return m;
}

}  // namespace

// ** the message union **

void WriteCompileMessage(const CompileMessage& m, proto::CompileMessage::Builder b) {
  if (const auto* req = std::get_if<PrepareRequest>(&m)) {
    WritePrepareRequest(*req, b.initRequest());
  } else {
    WritePrepareReply(std::get<PrepareReply>(m), b.initReply());
  }
}

absl::StatusOr<CompileMessage> ReadCompileMessage(proto::CompileMessage::Reader r,
                                                  const DecodeLimits& limits) {
  using W = proto::CompileMessage::Which;
  switch (r.which()) {
    case W::REQUEST: {
      ASSIGN_OR_RETURN(PrepareRequest req, ReadPrepareRequest(r.getRequest(), limits));
      return CompileMessage(std::move(req));
    }
    case W::REPLY: {
      ASSIGN_OR_RETURN(PrepareReply rep, ReadPrepareReply(r.getReply(), limits));
      return CompileMessage(std::move(rep));
    }
  }
  return Bad("compile message", absl::StrCat("unknown message kind ", static_cast<uint16_t>(r.which())));
}

}  // namespace tg::autotune::codec::internal
