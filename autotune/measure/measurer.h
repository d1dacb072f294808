// File: autotune/measure/measurer.h
// The Measurer interface: what BEAM search asks of whatever times candidates (in this
// process, or on a worker farm), with no transport in it.
//
// Port of the measuring half of tinygrad/codegen/opt/search.py (_try_compile, _time_program,
// bufs_from_ast, the var_vals of beam_search), split from the search so that the search never
// knows where or how a candidate runs.
//
// A KernelTask is one kernel to tune: its AST plus what running it needs (the buffers its
// DEFINE_GLOBALs describe and a value for every variable). A batch is a list of candidates,
// each an opt list applied to the unoptimized kernel. Each candidate comes back as data: its
// time samples, or a typed failure (an opt that does not apply, a compile error, a wrong
// answer, ...). A Status error means the batch as a whole could not run (no device, out of
// memory), never that one candidate failed.
//
// Example:
//   ASSIGN_OR_RETURN(KernelTask task, KernelTask::FromAst(kernel_ast));
//   std::vector<std::vector<Opt>> cands = {{}, {Opt{OptOps::UPCAST, 0, 4}}};
//   ASSIGN_OR_RETURN(MeasureBatch b, measurer.Measure(task, cands, MeasureOptions{}));
//   b.results[1].outcome      // Outcome::kOk
//   b.results[1].min_s        // best of the timed runs, seconds
#ifndef AUTOTUNE_MEASURE_MEASURER_H_
#define AUTOTUNE_MEASURE_MEASURER_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// One DEFINE_GLOBAL of the kernel (tinygrad's bufs_from_ast): slot, element type, elements.
struct BufferSpec {
  int64_t slot = 0;
  DType dtype = dtypes::float32;
  int64_t size = 0;
  friend bool operator==(const BufferSpec&, const BufferSpec&) = default;
};

// One kernel to tune.
struct KernelTask {
  UOp ast;                                  // the kernel AST (SINK), unoptimized
  std::vector<BufferSpec> buffers;          // sorted by slot
  // A value for every DEFINE_VAR, sorted by name.
  std::vector<std::pair<std::string, int64_t>> var_vals;
  uint64_t seed = 0;                        // of the input data
  // How candidates and the reference lower (the optimizer's and lowering settings): part of
  // the tuning key, sent to farm workers with the task.
  CodegenOptions codegen;

  // Buffers from the AST's DEFINE_GLOBALs, each variable at (vmin+vmax)/2 (beam_search's
  // var_vals). Errors: not a SINK, a DEFINE_GLOBAL without a size.
  static absl::StatusOr<KernelTask> FromAst(const UOp& ast);
};

// What became of one candidate.
enum class Outcome : uint8_t {
  kOk,             // timed
  kInvalidOpts,    // an opt does not apply (KernelOptError)
  kLoweringError,  // lowering or rendering failed (anything else GetProgram reports)
  kRejected,       // not worth timing: too many uops (BEAM_UOPS_MAX) or >1000x the least compute
  kCompileError,
  kRuntimeError,
  kTimeout,        // compiling or one run took longer than the limit
  kTooSlow,        // early exit: slower than early_stop_s, or stopped at first_run_stop_s (samples kept)
  kWrongResult,    // outputs differ from the unoptimized kernel's
  kDuplicate,      // renders to a program measured before (in this batch or known_programs)
  kWorkerLost,     // a farm worker (or its isolated child) died while measuring it
};
inline constexpr int kNumOutcomes = 11;
std::string_view OutcomeName(Outcome o);  // "ok", "invalid_opts", ...
// Whether `o` is decided before any run (preparing: lowering, the rejections, compiling), as a
// compile server may answer it; kRuntimeError, kTooSlow, kWrongResult and kWorkerLost are not.
bool DecidedBeforeRun(Outcome o);

// Seconds spent on a candidate, by stage (lowering and compiling run on several threads, so
// these add up to more than the wall time of a batch). The stages' times are wall times: they
// include any wait for a CPU (more threads than free cores) or on a lock, which lower_cpu_s
// leaves out.
struct MeasureCost {
  double lower_s = 0;    // opts + lowering + rendering
  double compile_s = 0;  // compiling + loading
  double run_s = 0;      // every run on the device, warm-up and checks included
  double lower_cpu_s = 0;  // the lowering thread's CPU time in lower_s (ThreadCpuSeconds)
  friend bool operator==(const MeasureCost&, const MeasureCost&) = default;
};

struct CandidateResult {
  Outcome outcome = Outcome::kOk;
  std::string error;            // why, for failures
  std::vector<double> samples_s;  // timed runs, in order (kOk, kTooSlow)
  double min_s = kInf;          // min of samples_s
  uint64_t program_hash = 0;    // of the rendered source; 0 when it never rendered
  int64_t uops = 0;             // length of the linear program
  int duplicate_of = -1;        // kDuplicate: the batch index measured instead (-1: known)
  MeasureCost cost;

  // Has a time the search may rank (a too-slow candidate keeps its time, as the reference).
  bool timed() const { return outcome == Outcome::kOk || outcome == Outcome::kTooSlow; }
};

inline constexpr double kMinFirstRunStopS = 1e-3;

struct MeasureOptions {
  // Timed runs per candidate (reference: cnt=3); the first is also the result check.
  int runs = 3;
  double early_stop_s = kInf;     // stop timing a candidate once its best exceeds this
  // A first run still going at this point is stopped and its time estimated from how much of
  // its output it wrote (the caller only needs to rank it; inf: stop at the early stop only).
  // Never below kMinFirstRunStopS: runs that short cost nothing worth saving.
  double first_run_stop_s = kInf;
  // The caller ranks the batch and keeps its best `keep`: at least that many get an exact time
  // even when slower than early_stop_s (a run past the early stop may be cut short otherwise).
  int keep = 0;
  // Only candidates whose first run is within refine_ratio x the batch's best first run get
  // the rest of their runs (inf: all of them). Not used when interleaved.
  double refine_ratio = kInf;
  // Finalists: time the batch round robin (run r of every candidate, then run r+1), no early
  // exit, so that a slow drift of the machine hits every candidate alike.
  bool interleaved = false;
  bool check_results = true;      // compare outputs with the unoptimized kernel's
  int64_t uops_max = 3000;        // BEAM_UOPS_MAX; <= 0: no limit
  double max_compute_ratio = 1000;  // reject ops > ratio * the batch's least ops
  double timeout_s = 10;          // BEAM_TIMEOUT_SEC, for one compile or one run
  // Programs the caller has measured already: candidates that render to them are kDuplicate.
  absl::flat_hash_set<uint64_t> known_programs;
};

struct MeasureBatch {
  std::vector<CandidateResult> results;  // one per candidate, in order
  double prepare_wall_s = 0;  // lowering + compiling the batch (wall)
  double run_wall_s = 0;      // timing the batch (wall)
};

// This machine's host name (what MeasuredBy and tuning records name), "unknown" if it has none.
std::string HostName();

// Who measured a candidate: a farm worker's id and the host it announced; in this process,
// "local" and this host.
struct MeasuredBy {
  std::string worker;
  std::string host;
  bool operator==(const MeasuredBy&) const = default;
};

// Part of the answer to a submitted batch: the results of some of its candidates.
struct MeasuredPart {
  std::vector<size_t> indices;          // positions in the batch
  // Their results, in the order of `indices` (a result's duplicate_of counts in this part);
  // an error: the part could not run at all.
  absl::StatusOr<MeasureBatch> batch = MeasureBatch{};
  std::vector<MeasuredBy> measured_by;  // one per index
};
using PartCallback = std::function<void(MeasuredPart)>;

class Measurer {
 public:
  virtual ~Measurer() = default;
  // Measures every candidate (an opt list applied to the unoptimized kernel, as
  // KernelInfo.opts_to_apply). Errors: the task itself cannot run (device, memory, the
  // unoptimized kernel fails).
  virtual absl::StatusOr<MeasureBatch> Measure(const KernelTask& task,
                                               std::span<const std::vector<Opt>> candidates,
                                               const MeasureOptions& options) = 0;

  // Measure() without waiting, so that one driver can keep the batches of many searches in
  // flight: `done` gets the results in parts (each candidate in exactly one part), on any
  // thread, possibly before Submit returns. Answers how many parts there will be.
  // `search_id` names the search in logs. The default measures the whole batch here, as one
  // part measured by {"local", this host}.
  virtual size_t Submit(std::shared_ptr<const KernelTask> task, std::vector<std::vector<Opt>> candidates,
                        const MeasureOptions& options, uint64_t search_id, PartCallback done);
};

// The duplicate rule over a batch answered in parts: a result whose program an earlier
// candidate of the batch renders to becomes a duplicate of it (each part only saw its own
// candidates), and one whose program is in options.known_programs "measured before". Applied
// to a batch of one part it changes nothing.
void DedupAcrossParts(MeasureBatch& batch, const MeasureOptions& options);

}  // namespace tg::autotune

#endif  // AUTOTUNE_MEASURE_MEASURER_H_
