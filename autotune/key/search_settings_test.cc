// File: autotune/search_settings_test.cc
#include "autotune/key/search_settings.h"

#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "tinygrad/base/config.h"

namespace tg::autotune {
namespace {

TEST(SearchSettingsTest, DefaultsAreTheReferences) {
  SearchSettings s = SearchSettings::FromConfig(Config{});
  EXPECT_EQ(s.width, 2);  // BEAM off in the config: the tune command's default width
  EXPECT_EQ(s.upcast_max, 256);
  EXPECT_EQ(s.local_max, 1024);
  EXPECT_EQ(s.uops_max, 3000);
  EXPECT_DOUBLE_EQ(s.min_progress_us, 0.01);
  EXPECT_EQ(s.timeout_sec, 10);
  EXPECT_FALSE(s.padto);
  EXPECT_FALSE(s.nolocals);
  EXPECT_EQ(s.tc, 1);
  EXPECT_EQ(s.tc_opt, 2);  // search.py's getenv("TC_OPT", 2), not the heuristic's 0
  EXPECT_EQ(s, SearchSettings{});
}

TEST(SearchSettingsTest, FromConfigTakesEveryKnob) {
  Config c;
  c.beam = 4;
  c.beam_upcast_max = 64;
  c.beam_local_max = 256;
  c.beam_uops_max = 0;
  c.beam_min_progress = 0.5;
  c.beam_timeout_sec = 3;
  c.beam_padto = true;
  c.nolocals = true;
  c.tc = 2;
  c.tc_opt = 1;
  c.beam_simd = true;
  c.beam_block = true;
  SearchSettings s = SearchSettings::FromConfig(c);
  EXPECT_EQ(s.ToString(),
            "width=4 upcast_max=64 local_max=256 uops_max=0 min_progress_us=0.5 timeout_sec=3 "
            "padto=1 nolocals=1 tc=2 tc_opt=1 simd=1 block=1 tiles=1");
  // the register tiles come with BEAM_SIMD only
  c.beam_simd = false;
  EXPECT_FALSE(SearchSettings::FromConfig(c).tiles);
  EXPECT_FALSE(SearchSettings::FromConfig(Config{}).tiles);
}

TEST(SearchSettingsTest, TextRoundTrips) {
  SearchSettings s;
  s.width = 7;
  s.min_progress_us = 0.1 + 0.2;  // not exactly representable in short decimal: shortest form
  s.nolocals = true;
  absl::StatusOr<SearchSettings> back = SearchSettings::Parse(s.ToString());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, s);
  EXPECT_EQ(SearchSettings::Parse(SearchSettings{}.ToString()).value(), SearchSettings{});
}

TEST(SearchSettingsTest, ParseNamesWhatIsWrong) {
  std::string good = SearchSettings{}.ToString();
  EXPECT_NE(
      SearchSettings::Parse(good + " bogus=1").status().message().find("unknown field 'bogus'"),
      std::string::npos);
  EXPECT_NE(SearchSettings::Parse(good + " width=3").status().message().find("twice"),
            std::string::npos);
  EXPECT_NE(SearchSettings::Parse("width=2").status().message().find("missing upcast_max"),
            std::string::npos);
  std::string bad = good;
  bad.replace(bad.find("padto=0"), 7, "padto=x");
  EXPECT_NE(SearchSettings::Parse(bad).status().message().find("bad value 'x' for padto"),
            std::string::npos);
  bad = good;
  bad.replace(bad.find("padto=0"), 7, "padto=2");
  EXPECT_FALSE(SearchSettings::Parse(bad).ok());
}

}  // namespace
// Records stored before BEAM_SIMD existed have no simd field: they mean simd=0.
TEST(SearchSettingsTest, TextWithoutLaterFieldsParsesToTheirDefaults) {
  std::string old = SearchSettings{}.ToString();
  old.erase(old.find(" simd=0"));
  absl::StatusOr<SearchSettings> s = SearchSettings::Parse(old);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, SearchSettings{});
}

// BLOCK, PACK and the register tiles (ours) are in the text only when on: keys of searches
// without them stay what they were.
TEST(SearchSettingsTest, BlockPackAndTilesAreInTheTextOnlyWhenOn) {
  for (const auto& [name, flag] : {std::pair{"block", &SearchSettings::block}, std::pair{"pack", &SearchSettings::pack},
                                   std::pair{"tiles", &SearchSettings::tiles}}) {
    SCOPED_TRACE(name);
    SearchSettings s;
    EXPECT_EQ(s.ToString().find(name), std::string::npos);
    s.*flag = true;
    EXPECT_EQ(s.ToString(), SearchSettings{}.ToString() + " " + name + "=1");
    absl::StatusOr<SearchSettings> back = SearchSettings::Parse(s.ToString());
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, s);
    EXPECT_EQ(SearchSettings::Parse(SearchSettings{}.ToString() + " " + name + "=0").value(), SearchSettings{});
    EXPECT_NE(SearchSettings::Parse(s.ToString() + " " + name + "=1").status().message().find("twice"), std::string::npos);
  }
  SearchSettings both;
  both.block = both.pack = true;
  EXPECT_EQ(both.ToString(), SearchSettings{}.ToString() + " block=1 pack=1");
  EXPECT_EQ(SearchSettings::Parse(both.ToString()).value(), both);
  SearchSettings simd;  // what `tg tune --simd --pack` searches with
  simd.simd = simd.pack = simd.tiles = true;
  EXPECT_TRUE(simd.ToString().ends_with(" simd=1 pack=1 tiles=1")) << simd.ToString();
  EXPECT_EQ(SearchSettings::Parse(simd.ToString()).value(), simd);
}

}  // namespace tg::autotune
