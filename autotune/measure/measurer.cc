// File: autotune/measure/measurer.cc
// Port of tinygrad/codegen/opt/postrange.py bufs_from_ast and beam_search's var_vals.
#include "autotune/measure/measurer.h"

#include <unistd.h>

#include <algorithm>
#include <limits>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"

namespace tg::autotune {
namespace {

void MakeDuplicate(CandidateResult& r, int of) {
  r.outcome = Outcome::kDuplicate;
  r.duplicate_of = of;
  r.error = of >= 0 ? absl::StrCat("same program as candidate ", of) : "measured before";
  r.samples_s.clear();
  r.min_s = kInf;
}

}  // namespace

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kOk: return "ok";
    case Outcome::kInvalidOpts: return "invalid_opts";
    case Outcome::kLoweringError: return "lowering_error";
    case Outcome::kRejected: return "rejected";
    case Outcome::kCompileError: return "compile_error";
    case Outcome::kRuntimeError: return "runtime_error";
    case Outcome::kTimeout: return "timeout";
    case Outcome::kTooSlow: return "too_slow";
    case Outcome::kWrongResult: return "wrong_result";
    case Outcome::kDuplicate: return "duplicate";
    case Outcome::kWorkerLost: return "worker_lost";
  }
  TG_CHECK(false) << "bad Outcome " << static_cast<int>(o);
  return "";
}

bool DecidedBeforeRun(Outcome o) {
  switch (o) {
    case Outcome::kOk:
    case Outcome::kInvalidOpts:
    case Outcome::kLoweringError:
    case Outcome::kRejected:
    case Outcome::kCompileError:
    case Outcome::kTimeout:
    case Outcome::kDuplicate: return true;
    case Outcome::kRuntimeError:
    case Outcome::kTooSlow:
    case Outcome::kWrongResult:
    case Outcome::kWorkerLost: return false;
  }
  return false;
}

namespace {

// An int that int64 holds: a slot or a variable bound a task can carry (an AST from the network
// may have None or 2**100 there).
bool FitsInt64(const ConstValue& v) {
  return v.is_int() && v.to_int() >= std::numeric_limits<int64_t>::min() &&
         v.to_int() <= std::numeric_limits<int64_t>::max();
}
bool FitsInt64(const Arg& a) { return a.is_number() && FitsInt64(a.number()); }

}  // namespace

absl::StatusOr<KernelTask> KernelTask::FromAst(const UOp& ast) {
  if (!ast || ast.op() != Ops::SINK) return absl::InvalidArgumentError("a kernel task needs a SINK kernel AST");
  KernelTask task;
  task.ast = ast;
  for (const UOp& u : ast.toposort()) {
    if (u.op() == Ops::DEFINE_GLOBAL) {
      if (!u.dtype().is_ptr() || u.dtype().size() < 0)
        return absl::InvalidArgumentError(absl::StrCat("DEFINE_GLOBAL ", u.arg().repr(), " has no size"));
      if (!FitsInt64(u.arg()))
        return absl::InvalidArgumentError(absl::StrCat("DEFINE_GLOBAL ", u.arg().repr(), " is not a slot number"));
      BufferSpec b{.slot = u.arg().int64(), .dtype = u.dtype().base(), .size = u.dtype().size()};
      if (std::find(task.buffers.begin(), task.buffers.end(), b) == task.buffers.end()) task.buffers.push_back(b);
    } else if (u.op() == Ops::DEFINE_VAR) {
      // (vmax+vmin)//2, as beam_search: a size the kernel can actually be run with
      if (!FitsInt64(u.vmin()) || !FitsInt64(u.vmax()))
        return absl::InvalidArgumentError(absl::StrCat("DEFINE_VAR ", u.arg().repr(), " has bounds past int64"));
      std::string name = u.arg()[0].str();
      int64_t v = static_cast<int64_t>((i128{u.vmin().to_int64()} + u.vmax().to_int64()) / 2);
      if (std::none_of(task.var_vals.begin(), task.var_vals.end(), [&](const auto& p) { return p.first == name; }))
        task.var_vals.emplace_back(name, v);
    }
  }
  std::sort(task.buffers.begin(), task.buffers.end(),
            [](const BufferSpec& a, const BufferSpec& b) { return a.slot < b.slot; });
  for (size_t i = 1; i < task.buffers.size(); ++i)
    if (task.buffers[i].slot == task.buffers[i - 1].slot)
      return absl::InvalidArgumentError(absl::StrCat("two DEFINE_GLOBALs for slot ", task.buffers[i].slot));
  std::sort(task.var_vals.begin(), task.var_vals.end());
  return task;
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

size_t Measurer::Submit(std::shared_ptr<const KernelTask> task, std::vector<std::vector<Opt>> candidates,
                        const MeasureOptions& options, uint64_t /*search_id*/, PartCallback done) {
  MeasuredPart part;
  part.indices.resize(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) part.indices[i] = i;
  part.measured_by.assign(candidates.size(), MeasuredBy{.worker = "local", .host = HostName()});
  part.batch = Measure(*task, candidates, options);
  done(std::move(part));
  return 1;
}

void DedupAcrossParts(MeasureBatch& batch, const MeasureOptions& options) {
  absl::flat_hash_map<uint64_t, int> first_of;
  for (size_t i = 0; i < batch.results.size(); ++i) {
    CandidateResult& r = batch.results[i];
    if (r.program_hash == 0) continue;  // never rendered
    if (options.known_programs.contains(r.program_hash)) {
      if (r.outcome != Outcome::kDuplicate || r.duplicate_of >= 0) MakeDuplicate(r, -1);
      continue;
    }
    auto [it, fresh] = first_of.try_emplace(r.program_hash, static_cast<int>(i));
    if (fresh) continue;
    if (r.outcome == Outcome::kDuplicate) {
      r.duplicate_of = it->second;
    } else {
      MakeDuplicate(r, it->second);
    }
  }
}

}  // namespace tg::autotune
