#include "tinygrad/base/config.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(ConfigTest, DefaultsAreTinygrads) {
  unsetenv("DEBUG");
  unsetenv("NOOPT");
  Config c = Config::FromEnvironment();
  EXPECT_EQ(c.debug, 0);
  EXPECT_FALSE(c.noopt);
  EXPECT_EQ(c.cachelevel, 2);
  EXPECT_EQ(c.devectorize, 1);
  EXPECT_GE(c.cpu_count, 1);
}

TEST(ConfigTest, ReadsEnvironmentAndKeepsDefaultOnGarbage) {
  setenv("DEBUG", "3", 1);
  setenv("NOOPT", "1", 1);
  setenv("BEAM", "two", 1);
  setenv("TG_CACHE_DIR", "/tmp/tgcache", 1);
  Config c = Config::FromEnvironment();
  EXPECT_EQ(c.debug, 3);
  EXPECT_TRUE(c.noopt);
  EXPECT_EQ(c.beam, 0);
  EXPECT_EQ(c.cache_dir, "/tmp/tgcache");
  unsetenv("DEBUG");
  unsetenv("NOOPT");
  unsetenv("BEAM");
  unsetenv("TG_CACHE_DIR");
}

// tinygrad's TRACK_MATCH_STATS defaults to 2 under VIZ (the trace VIZ shows); either sign of
// VIZ turns it on, and a higher level stays.
TEST(ConfigTest, VizTurnsOnTheRewriteTrace) {
  unsetenv("TRACK_MATCH_STATS");
  unsetenv("VIZ_PATH");
  EXPECT_EQ(Config::FromEnvironment().viz, 0);
  EXPECT_EQ(Config::FromEnvironment().viz_path, "");
  for (const char* viz : {"1", "-1"}) {
    setenv("VIZ", viz, 1);
    EXPECT_EQ(Config::FromEnvironment().viz, std::atoi(viz));
    EXPECT_EQ(Config::FromEnvironment().track_match_stats, 2) << viz;
  }
  setenv("TRACK_MATCH_STATS", "3", 1);
  setenv("VIZ_PATH", "trace.json", 1);
  EXPECT_EQ(Config::FromEnvironment().track_match_stats, 3);
  EXPECT_EQ(Config::FromEnvironment().viz_path, "trace.json");
  unsetenv("VIZ");
  unsetenv("VIZ_PATH");
  EXPECT_EQ(Config::FromEnvironment().track_match_stats, 3);
  unsetenv("TRACK_MATCH_STATS");
}

TEST(ConfigTest, JitSettingsHaveTheReferenceDefaultsAndReadTheEnvironment) {
  for (const char* v :
       {"JIT", "JIT_BATCH_SIZE", "GRAPH_ONE_KERNEL", "JITBEAM", "IGNORE_JIT_FIRST_BEAM"})
    unsetenv(v);
  Config d = Config::FromEnvironment();
  EXPECT_EQ(d.jit, 1);
  EXPECT_EQ(d.jit_batch_size, 32);
  EXPECT_FALSE(d.graph_one_kernel);
  EXPECT_FALSE(d.jitbeam.has_value()) << "unset: a capture uses BEAM's width";
  EXPECT_FALSE(d.ignore_jit_first_beam);
  setenv("JIT", "2", 1);
  setenv("JIT_BATCH_SIZE", "0", 1);
  setenv("GRAPH_ONE_KERNEL", "1", 1);
  setenv("JITBEAM", "0", 1);
  setenv("IGNORE_JIT_FIRST_BEAM", "1", 1);
  Config c = Config::FromEnvironment();
  EXPECT_EQ(c.jit, 2);
  EXPECT_EQ(c.jit_batch_size, 0);
  EXPECT_TRUE(c.graph_one_kernel);
  EXPECT_EQ(c.jitbeam, 0) << "JITBEAM=0 is a value (no search in the capture), not unset";
  EXPECT_TRUE(c.ignore_jit_first_beam);
  for (const char* v :
       {"JIT", "JIT_BATCH_SIZE", "GRAPH_ONE_KERNEL", "JITBEAM", "IGNORE_JIT_FIRST_BEAM"})
    unsetenv(v);
}

TEST(ConfigTest, BeamKnobsHaveTheReferenceDefaultsAndReadTheEnvironment) {
  Config d = Config::FromEnvironment();
  EXPECT_EQ(d.beam_upcast_max, 256);
  EXPECT_EQ(d.beam_local_max, 1024);
  EXPECT_EQ(d.beam_uops_max, 3000);
  EXPECT_DOUBLE_EQ(d.beam_min_progress, 0.01);
  EXPECT_EQ(d.beam_timeout_sec, 10);
  EXPECT_FALSE(d.beam_padto);
  EXPECT_FALSE(d.nolocals);
  EXPECT_FALSE(d.ignore_beam_cache);
  EXPECT_EQ(d.tc, 1);
  EXPECT_EQ(d.tc_select, -1);
  EXPECT_FALSE(d.tc_opt.has_value());
  EXPECT_FALSE(d.beam_simd);
  EXPECT_FALSE(d.beam_block);
  setenv("BEAM_MIN_PROGRESS", "2.5", 1);
  setenv("BEAM_BLOCK", "1", 1);
  setenv("BEAM_UPCAST_MAX", "64", 1);
  setenv("TC_OPT", "1", 1);
  setenv("IGNORE_BEAM_CACHE", "1", 1);
  Config c = Config::FromEnvironment();
  EXPECT_DOUBLE_EQ(c.beam_min_progress, 2.5);
  EXPECT_EQ(c.beam_upcast_max, 64);
  EXPECT_EQ(c.tc_opt, 1);
  EXPECT_TRUE(c.ignore_beam_cache);
  EXPECT_TRUE(c.beam_block);
  unsetenv("BEAM_MIN_PROGRESS");
  unsetenv("BEAM_BLOCK");
  unsetenv("BEAM_UPCAST_MAX");
  unsetenv("TC_OPT");
  unsetenv("IGNORE_BEAM_CACHE");
}

// CPU_TARGET (ours): the CPU kernels' compile target, the host's when unset; the name is
// checked where the CPU device is made, not here.
TEST(ConfigTest, CpuTargetReadsTheEnvironment) {
  EXPECT_EQ(Config::FromEnvironment().cpu_target, "");
  setenv("CPU_TARGET", "x86-64-v3", 1);
  EXPECT_EQ(Config::FromEnvironment().cpu_target, "x86-64-v3");
  unsetenv("CPU_TARGET");
}

TEST(ConfigTest, ScopedConfigRestores) {
  int before = GetConfig().debug;
  {
    Config c = GetConfig();
    c.debug = before + 5;
    ScopedConfig scoped(c);
    EXPECT_EQ(GetConfig().debug, before + 5);
  }
  EXPECT_EQ(GetConfig().debug, before);
}

}  // namespace
}  // namespace tg
