// File: tinygrad/codegen/codegen_options_test.cc
#include "tinygrad/codegen/codegen_options.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

TEST(CodegenOptionsTest, DefaultsAreTheReferences) {
  const CodegenOptions o;
  EXPECT_EQ(o.KeyText(),
            "noopt=0 tc=1 tc_select=-1 tc_opt=0 nolocals=0 allow_tf32=0 devectorize=1 transcendental=1 "
            "disable_fast_idiv=0");
  EXPECT_EQ(CodegenOptions::FromConfig(Config{}), o);
}

TEST(CodegenOptionsTest, FromConfigTakesEveryProgramSetting) {
  Config c;
  c.noopt = true;
  c.tc = 2;
  c.tc_select = 1;
  c.tc_opt = 2;
  c.nolocals = true;
  c.allow_tf32 = true;
  c.devectorize = 0;
  c.transcendental = 2;
  c.disable_fast_idiv = true;
  c.spec = 0;
  c.debug = 6;
  const CodegenOptions o = CodegenOptions::FromConfig(c);
  EXPECT_EQ(o.KeyText(),
            "noopt=1 tc=2 tc_select=1 tc_opt=2 nolocals=1 allow_tf32=1 devectorize=0 transcendental=2 "
            "disable_fast_idiv=1");
  EXPECT_FALSE(o.spec);
  EXPECT_EQ(o.debug, 6);
}

TEST(CodegenOptionsTest, KeyTextRoundTrips) {
  CodegenOptions o;
  o.devectorize = 2;
  o.disable_fast_idiv = true;
  o.tc_select = 0;
  absl::StatusOr<CodegenOptions> back = CodegenOptions::FromKeyText(o.KeyText());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, o);
}

// Checks and traces never change a program: they stay out of the key.
TEST(CodegenOptionsTest, ChecksAndTracesAreNotInTheKey) {
  CodegenOptions a, b;
  b.spec = false;
  b.debug = 6;
  EXPECT_EQ(a.KeyText(), b.KeyText());
}

TEST(CodegenOptionsTest, BadTextNamesTheField) {
  CodegenOptions o;
  std::string text = o.KeyText();
  EXPECT_THAT(CodegenOptions::FromKeyText("devectorize=x").status().message(),
              HasSubstr("bad value 'x' for devectorize"));
  EXPECT_THAT(CodegenOptions::FromKeyText(text + " speed=9").status().message(), HasSubstr("unknown field 'speed'"));
  EXPECT_THAT(CodegenOptions::FromKeyText(text + " tc=1").status().message(), HasSubstr("'tc' given twice"));
  EXPECT_THAT(CodegenOptions::FromKeyText("noopt=0").status().message(), HasSubstr("missing tc"));
  EXPECT_THAT(CodegenOptions::FromKeyText("noopt=2").status().message(), HasSubstr("bad value '2' for noopt"));
}

}  // namespace
}  // namespace tg
