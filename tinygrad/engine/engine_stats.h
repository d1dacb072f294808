// File: tinygrad/engine/engine_stats.h
// tinygrad's GlobalCounters: what the engine has done since the process started. Realize()
// and every ExecItem run (a TinyJit replay too) add to it.
#ifndef TINYGRAD_ENGINE_ENGINE_STATS_H_
#define TINYGRAD_ENGINE_ENGINE_STATS_H_

#include <cstdint>

namespace tg {

struct EngineStats {
  int64_t kernel_count = 0;
  int64_t global_ops = 0;
  double time_sum_s = 0;  // kernel time; measured only with DEBUG>=1 (tinygrad's wait)
  // Where the rest of the time goes (wall seconds).
  double schedule_s = 0;  // tensor graph -> kernel ASTs (including schedule-cache lookups)
  double codegen_s = 0;   // kernel AST -> rendered source (method-cache misses only)
  double compile_s = 0;   // source -> loaded program
  int64_t programs_built = 0;
  int64_t schedules = 0;  // tensor graphs scheduled (cache hits too): one per Realize() with work
  // Kernels built with the default opts because the opts a KernelOptChooser gave did not work
  // (each warned about on stderr).
  int64_t chosen_opts_failed = 0;
};
EngineStats& GetEngineStats();

}  // namespace tg

#endif  // TINYGRAD_ENGINE_ENGINE_STATS_H_
