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
