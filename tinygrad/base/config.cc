// File: tinygrad/base/config.cc
#include "tinygrad/base/config.h"

#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "tinygrad/base/check.h"

namespace tg {
namespace {

template <typename T>
void ReadInt(const char* name, T& out) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return;
  int64_t parsed;
  // A malformed value is the user's typo, not a reason to stop: keep the default, say so.
  if (!absl::SimpleAtoi(v, &parsed)) {
    fprintf(stderr, "tinygrad: ignoring %s=%s (not an integer)\n", name, v);
    return;
  }
  out = static_cast<T>(parsed);
}

void ReadDouble(const char* name, double& out) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return;
  if (!absl::SimpleAtod(v, &out)) fprintf(stderr, "tinygrad: ignoring %s=%s (not a number)\n", name, v);
}

void ReadOptionalInt(const char* name, std::optional<int>& out) {
  int value = 0;
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return;
  if (!absl::SimpleAtoi(v, &value)) {
    fprintf(stderr, "tinygrad: ignoring %s=%s (not an integer)\n", name, v);
    return;
  }
  out = value;
}

void ReadString(const char* name, std::string& out) {
  const char* v = std::getenv(name);
  if (v != nullptr && *v != '\0') out = v;
}

int AffinityCpuCount() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string DefaultCacheDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    return std::string(xdg) + "/tinygrad-cc";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::string(home) + "/.cache/tinygrad-cc";
  return "/tmp/tinygrad-cc";
}

Config& Current() {
  static Config* const config = new Config(Config::FromEnvironment());
  return *config;
}

}  // namespace

Config Config::FromEnvironment() {
  Config c;
  c.cpu_count = AffinityCpuCount();
  ReadInt("DEBUG", c.debug);
  ReadInt("TRACK_MATCH_STATS", c.track_match_stats);
  ReadInt("VIZ", c.viz);
  ReadString("VIZ_PATH", c.viz_path);
  if (c.viz != 0 && c.track_match_stats < 2) c.track_match_stats = 2;
  ReadInt("SPEC", c.spec);
  ReadInt("NOOPT", c.noopt);
  ReadInt("BEAM", c.beam);
  ReadInt("DEVECTORIZE", c.devectorize);
  ReadInt("TRANSCENDENTAL", c.transcendental);
  ReadInt("DISABLE_FAST_IDIV", c.disable_fast_idiv);
  ReadInt("THREADS", c.threads);
  ReadInt("CPU_COUNT", c.cpu_count);
  ReadInt("TC", c.tc);
  ReadInt("TC_SELECT", c.tc_select);
  ReadOptionalInt("TC_OPT", c.tc_opt);
  ReadInt("NOLOCALS", c.nolocals);
  ReadInt("ALLOW_TF32", c.allow_tf32);
  ReadInt("BEAM_UPCAST_MAX", c.beam_upcast_max);
  ReadInt("BEAM_LOCAL_MAX", c.beam_local_max);
  ReadInt("BEAM_UOPS_MAX", c.beam_uops_max);
  ReadDouble("BEAM_MIN_PROGRESS", c.beam_min_progress);
  ReadInt("BEAM_TIMEOUT_SEC", c.beam_timeout_sec);
  ReadInt("BEAM_PADTO", c.beam_padto);
  ReadInt("BEAM_SIMD", c.beam_simd);
  ReadInt("BEAM_BLOCK", c.beam_block);
  ReadInt("BEAM_DEBUG", c.beam_debug);
  ReadInt("IGNORE_BEAM_CACHE", c.ignore_beam_cache);
  ReadInt("SPLIT_REDUCEOP", c.split_reduceop);
  ReadInt("REDUCEOP_SPLIT_THRESHOLD", c.reduceop_split_threshold);
  ReadInt("REDUCEOP_SPLIT_SIZE", c.reduceop_split_size);
  ReadInt("PCONTIG", c.pcontig);
  ReadInt("RING", c.ring);
  ReadInt("ALL2ALL", c.all2all);
  ReadInt("RING_ALLREDUCE_THRESHOLD", c.ring_allreduce_threshold);
  ReadInt("NO_MEMORY_PLANNER", c.no_memory_planner);
  ReadInt("JIT", c.jit);
  ReadInt("JIT_BATCH_SIZE", c.jit_batch_size);
  ReadInt("GRAPH_ONE_KERNEL", c.graph_one_kernel);
  ReadOptionalInt("JITBEAM", c.jitbeam);
  ReadInt("IGNORE_JIT_FIRST_BEAM", c.ignore_jit_first_beam);
  ReadInt("MAX_KERNEL_BUFFERS", c.max_kernel_buffers);
  ReadInt("CACHELEVEL", c.cachelevel);
  c.cache_dir = DefaultCacheDir();
  ReadString("TG_CACHE_DIR", c.cache_dir);
  ReadString("CPU_CC", c.cc);
  ReadInt("CPU_LLVM", c.cpu_llvm);
  ReadInt("LLVMOPT", c.llvmopt);
  ReadString("CPU_TARGET", c.cpu_target);
  return c;
}

const Config& GetConfig() { return Current(); }

void SetConfig(const Config& c) { Current() = c; }

}  // namespace tg
