// File: tinygrad/base/config.h
// The library's settings: tinygrad's ContextVars (DEBUG, NOOPT, BEAM, ...) as one struct.
//
// The environment is read in exactly one place, FromEnvironment(); everything else reads
// GetConfig(). Library users and tests fill a Config directly and install it:
//
//   Config c = GetConfig();
//   c.debug = 2;
//   ScopedConfig scoped(c);   // restored when `scoped` goes out of scope
//
// Defaults are tinygrad's at the reference commit.
#ifndef TINYGRAD_BASE_CONFIG_H_
#define TINYGRAD_BASE_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>

namespace tg {

struct Config {
  // ** reporting **
  // DEBUG: 1 kernel count + total time, 2 a line per kernel, 3 AST + opts, 4 source, 5 the
  // kernel AST as codegen gets it, 6 the linear program, 7 the disassembly
  int debug = 0;
  // TRACK_MATCH_STATS: 1 the per-rule table at exit, 2 + the rewrite trace, 3 + a line per match
  int track_match_stats = 0;
  // VIZ: > 0 serves the rewrite viewer after `tg run`, < 0 saves its trace to viz_path instead;
  // either turns track_match_stats up to 2 (the trace it shows), as tinygrad's VIZ does.
  int viz = 0;
  std::string viz_path;  // VIZ_PATH: where VIZ=-1 saves the trace ("" = <cache_dir>/viz.json)
  // SPEC: 1 tensor_spec / kernel_spec / program_spec at the pipeline's entries, 2 + full_spec on
  // every node a rewrite makes
  int spec = 1;

  // ** optimizer **
  bool noopt = false;  // NOOPT: no hand-coded opts
  int beam = 0;        // BEAM: beam width, 0 off
  int devectorize = 1;             // DEVECTORIZE
  int transcendental = 1;          // TRANSCENDENTAL: >=2 forces software exp2/log2/sin
  bool disable_fast_idiv = false;  // DISABLE_FAST_IDIV
  int threads = 1;                 // THREADS: CPU kernels may use THREAD opts
  int cpu_count = 1;               // CPU_COUNT: defaults to the CPUs this process may run on
  int tc = 1;                      // TC: tensor cores (USE_TC), 0 off, 2 emulated
  int tc_select = -1;              // TC_SELECT: which tensor core, -1 any
  // TC_OPT: the reference reads it with two defaults, 0 in the heuristic and 2 in BEAM's TC
  // actions; unset here means "each reader's default".
  std::optional<int> tc_opt;
  bool nolocals = false;           // NOLOCALS: BEAM may try NOLOCALS
  bool allow_tf32 = false;         // ALLOW_TF32: float (tf32) tensor cores on CUDA/NV

  // ** BEAM search (tinygrad/codegen/opt/search.py) **
  int beam_upcast_max = 256;        // BEAM_UPCAST_MAX: largest upcast product of a candidate
  int beam_local_max = 1024;        // BEAM_LOCAL_MAX: largest local size of a candidate
  int beam_uops_max = 3000;         // BEAM_UOPS_MAX: candidates with more uops are skipped, 0 off
  double beam_min_progress = 0.01;  // BEAM_MIN_PROGRESS: microseconds a round must gain to go on
  int beam_timeout_sec = 10;        // BEAM_TIMEOUT_SEC: compile time limit of one candidate
  bool beam_padto = false;          // BEAM_PADTO: PADTO actions in the search
  bool beam_simd = false;           // BEAM_SIMD (ours): the SIMD extension opt in the search
  bool beam_block = false;          // BEAM_BLOCK (ours): the BLOCK cache-blocking opt in the search
  int beam_debug = 0;               // BEAM_DEBUG: search trace
  bool ignore_beam_cache = false;   // IGNORE_BEAM_CACHE: search again even when cached

  // ** scheduler **
  bool split_reduceop = true;                 // SPLIT_REDUCEOP
  int64_t reduceop_split_threshold = 32768;   // REDUCEOP_SPLIT_THRESHOLD
  int reduceop_split_size = 22;               // REDUCEOP_SPLIT_SIZE (log2 of the split budget)
  int pcontig = 0;                            // PCONTIG
  // Multi-device all-reduce: RING (1: ring on more than two devices past the threshold, 2:
  // always), ALL2ALL (the same for all-to-all, which wins over ring), RING_ALLREDUCE_THRESHOLD
  // (elements); otherwise every device sums a copy of every shard.
  int ring = 1;
  int all2all = 0;
  int64_t ring_allreduce_threshold = 256000;
  bool no_memory_planner = false;             // NO_MEMORY_PLANNER
  // JIT: 0 TinyJit runs its function on every call; 1 captures and replays, kernels batched into
  // device graphs (CUDA graphs) where the device has them; 2 captures and replays, no graphs.
  int jit = 1;
  int jit_batch_size = 32;        // JIT_BATCH_SIZE: kernels in a JIT's first graph (then 2x each)
  bool graph_one_kernel = false;  // GRAPH_ONE_KERNEL: a graph of one kernel is made too
  // JITBEAM: the BEAM width of the kernels a TinyJit's capture call compiles; unset: BEAM's.
  std::optional<int> jitbeam;
  bool ignore_jit_first_beam = false;  // IGNORE_JIT_FIRST_BEAM: a TinyJit's first call at BEAM=0
  int max_kernel_buffers = 0;                 // MAX_KERNEL_BUFFERS, 0 = the device's limit

  // ** caches **
  int cachelevel = 2;     // CACHELEVEL: 0 disables the on-disk caches
  std::string cache_dir;  // TG_CACHE_DIR, else $XDG_CACHE_HOME/tinygrad-cc, else ~/.cache/tinygrad-cc
  std::string cc;         // CPU_CC: the C compiler for CPU kernels ("" = clang)
  int cpu_llvm = 0;       // CPU_LLVM: CPU kernels as LLVM IR compiled in-process (else C + clang)
  int llvmopt = 1;        // LLVMOPT: the LLVM compiler's default<O2> (0: default<O0>)
  // CPU_TARGET (ours): the ISA CPU kernels are compiled for, "" or "native" the host's, else an
  // x86-64 level ("x86-64-v3": AVX2); checked where the CPU device is made
  std::string cpu_target;

  // Defaults overridden by the process environment.
  static Config FromEnvironment();
};

// The process-wide settings; the first call reads the environment.
const Config& GetConfig();
// Replaces the settings (not thread-safe against concurrent readers: set up front).
void SetConfig(const Config& c);

// Installs `c` for a scope and puts the previous settings back.
class ScopedConfig {
 public:
  explicit ScopedConfig(const Config& c) : saved_(GetConfig()) { SetConfig(c); }
  ~ScopedConfig() { SetConfig(saved_); }
  ScopedConfig(const ScopedConfig&) = delete;
  ScopedConfig& operator=(const ScopedConfig&) = delete;

 private:
  Config saved_;
};

}  // namespace tg

#endif  // TINYGRAD_BASE_CONFIG_H_
