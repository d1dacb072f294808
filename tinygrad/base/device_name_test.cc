#include "tinygrad/base/device_name.h"

#include <map>
#include <string>

#include "gtest/gtest.h"

namespace tg {
namespace {

TEST(DeviceNameTest, CanonicalizesAsTinygrad) {
  EXPECT_EQ(CanonicalDeviceName("cpu"), "CPU");
  EXPECT_EQ(CanonicalDeviceName("CPU"), "CPU");
  EXPECT_EQ(CanonicalDeviceName("cuda"), "CUDA");
  EXPECT_EQ(CanonicalDeviceName("cuda:0"), "CUDA");
  EXPECT_EQ(CanonicalDeviceName("CUDA:1"), "CUDA:1");
  EXPECT_EQ(CanonicalDeviceName("cuda:10"), "CUDA:10");
  // only the kind is upper-cased; only a final ":0" goes
  EXPECT_EQ(CanonicalDeviceName("disk:/tmp/a:0"), "DISK:/tmp/a:0");
  EXPECT_EQ(CanonicalDeviceName("disk:a"), "DISK:a");
  EXPECT_EQ(CanonicalDeviceName(""), "");
}

TEST(DeviceNameTest, KindAndOrdinal) {
  EXPECT_EQ(DeviceKind("CUDA:1"), "CUDA");
  EXPECT_EQ(DeviceKind("CPU"), "CPU");
  EXPECT_EQ(DeviceOrdinal("CUDA").value(), 0);
  EXPECT_EQ(DeviceOrdinal("CUDA:3").value(), 3);
  for (const char* bad : {"CUDA:", "CUDA:-1", "CUDA:x", "CUDA: 1", "CUDA:1:2", "CUDA:99999999999"}) {
    absl::StatusOr<int> o = DeviceOrdinal(bad);
    EXPECT_FALSE(o.ok()) << bad;
    EXPECT_NE(o.status().message().find(bad), std::string_view::npos) << o.status();
  }
}

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(DeviceNameTest, DeviceFromEnvironment) {
  EXPECT_EQ(DeviceFromEnvironment(Env({})).value(), std::nullopt);
  EXPECT_EQ(DeviceFromEnvironment(Env({{"DEV", "cuda"}})).value(), "CUDA");
  EXPECT_EQ(DeviceFromEnvironment(Env({{"DEVICE", "cuda:1"}})).value(), "CUDA:1");
  EXPECT_EQ(DeviceFromEnvironment(Env({{"CUDA", "1"}})).value(), "CUDA");
  EXPECT_EQ(DeviceFromEnvironment(Env({{"CUDA", "0"}})).value(), std::nullopt);
  EXPECT_EQ(DeviceFromEnvironment(Env({{"DEV", ""}})).value(), std::nullopt);
  // settings that agree count once
  EXPECT_EQ(DeviceFromEnvironment(Env({{"DEV", "CUDA"}, {"CUDA", "1"}})).value(), "CUDA");
  EXPECT_EQ(DeviceFromEnvironment(Env({{"DEV", "CUDA:0"}, {"DEVICE", "cuda"}})).value(), "CUDA");
  // an unknown name is passed on: the registry says what exists when it is opened
  EXPECT_EQ(DeviceFromEnvironment(Env({{"DEV", "metal"}})).value(), "METAL");
}

TEST(DeviceNameTest, ConflictingSettingsAreAnError) {
  absl::StatusOr<std::optional<std::string>> d = DeviceFromEnvironment(Env({{"DEV", "CPU"}, {"CUDA", "1"}}));
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("DEV=CPU"), std::string_view::npos) << d.status();
  EXPECT_NE(d.status().message().find("CUDA=1"), std::string_view::npos) << d.status();
  EXPECT_FALSE(DeviceFromEnvironment(Env({{"CPU", "1"}, {"CUDA", "1"}})).ok());
}

}  // namespace
}  // namespace tg
