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
#include <string>

namespace tg {

struct Config {
  // ** reporting **
  int debug = 0;  // DEBUG: 1 kernel count + total time, 2 a line per kernel, 3 AST + opts, 4 source
  int track_match_stats = 0;  // TRACK_MATCH_STATS
  int spec = 1;               // SPEC: verify graphs at pass boundaries

  // ** optimizer **
  bool noopt = false;  // NOOPT: no hand-coded opts
  int beam = 0;        // BEAM: beam width, 0 off
  int devectorize = 1;             // DEVECTORIZE
  int transcendental = 1;          // TRANSCENDENTAL: >=2 forces software exp2/log2/sin
  bool disable_fast_idiv = false;  // DISABLE_FAST_IDIV
  int threads = 1;                 // THREADS: CPU kernels may use THREAD opts
  int cpu_count = 1;               // CPU_COUNT: defaults to the CPUs this process may run on

  // ** scheduler **
  bool split_reduceop = true;                 // SPLIT_REDUCEOP
  int64_t reduceop_split_threshold = 32768;   // REDUCEOP_SPLIT_THRESHOLD
  int reduceop_split_size = 22;               // REDUCEOP_SPLIT_SIZE (log2 of the split budget)
  int pcontig = 0;                            // PCONTIG
  bool no_memory_planner = false;             // NO_MEMORY_PLANNER
  int max_kernel_buffers = 0;                 // MAX_KERNEL_BUFFERS, 0 = the device's limit

  // ** caches **
  int cachelevel = 2;     // CACHELEVEL: 0 disables the on-disk caches
  std::string cache_dir;  // TG_CACHE_DIR, else $XDG_CACHE_HOME/tinygrad-cc, else ~/.cache/tinygrad-cc
  std::string cc;         // CPU_CC: the C compiler for CPU kernels ("" = clang)

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
