// File: autotune/db/opts_text_test.cc
#include "autotune/db/opts_text.h"

#include <array>
#include <vector>

#include "gtest/gtest.h"

namespace tg::autotune {
namespace {

TEST(OptsTextTest, EveryOpShapeRoundTrips) {
  std::vector<Opt> opts = {
      Opt{OptOps::UPCAST, 0, int64_t{4}},
      Opt{OptOps::UNROLL, 1, int64_t{0}},
      Opt{OptOps::LOCAL, 2, int64_t{16}},
      Opt{OptOps::GROUPTOP, 0, int64_t{256}},
      Opt{OptOps::GROUP, 1, int64_t{8}},
      Opt{OptOps::THREAD, 0, int64_t{2}},
      Opt{OptOps::PADTO, 6, int64_t{32}},
      Opt{OptOps::SWAP, 0, int64_t{4}},
      Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}},
      Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}},
      Opt{OptOps::GEMM, std::nullopt, std::array<int64_t, 3>{128, 256, 4}},
  };
  std::string text = OptsToText(opts);
  EXPECT_EQ(text,
            "[[\"UPCAST\",0,4],[\"UNROLL\",1,0],[\"LOCAL\",2,16],[\"GROUPTOP\",0,256],"
            "[\"GROUP\",1,8],[\"THREAD\",0,2],[\"PADTO\",6,32],[\"SWAP\",0,4],"
            "[\"TC\",0,[-1,2,1]],[\"NOLOCALS\",null,null],[\"GEMM\",null,[128,256,4]]]");
  absl::StatusOr<std::vector<Opt>> back = OptsFromText(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, opts);
}

TEST(OptsTextTest, ShortTextForPeople) {
  EXPECT_EQ(OptsToShortText(std::vector<Opt>{Opt{OptOps::UPCAST, 0, int64_t{4}},
                                            Opt{OptOps::TC, 0, std::array<int64_t, 3>{-1, 2, 1}},
                                            Opt{OptOps::NOLOCALS, std::nullopt, std::monostate{}}}),
            "UPCAST0:4 TC0:-1,2,1 NOLOCALS");
  EXPECT_EQ(OptsToShortText(std::vector<Opt>{}), "");
}

TEST(OptsTextTest, EmptyListAndWhitespace) {
  EXPECT_EQ(OptsToText({}), "[]");
  EXPECT_TRUE(OptsFromText("[]")->empty());
  absl::StatusOr<std::vector<Opt>> spaced = OptsFromText(" [ [ \"UPCAST\" , 0 , 4 ] ]\n");
  ASSERT_TRUE(spaced.ok()) << spaced.status();
  EXPECT_EQ(*spaced, (std::vector<Opt>{Opt{OptOps::UPCAST, 0, int64_t{4}}}));
}

TEST(OptsTextTest, MalformedTextIsAnErrorNamingTheProblem) {
  for (const char* bad : {"", "[", "[[\"UPCAST\",0,4]", "[[\"UPCAST\",0,4]]x", "[[\"BOGUS\",0,4]]",
                          "[[\"UPCAST\",\"0\",4]]", "[[\"TC\",0,[1,2]]]", "[[\"UPCAST\",0]]",
                          "[[\"UP\\\"CAST\",0,4]]", "[[UPCAST,0,4]]", "{}",
                          "[[\"UPCAST\",0,99999999999999999999]]"}) {
    absl::StatusOr<std::vector<Opt>> r = OptsFromText(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("expected"), std::string::npos) << r.status();
  }
  EXPECT_NE(OptsFromText("[[\"BOGUS\",0,4]]").status().message().find("'BOGUS'"),
            std::string::npos);
}

}  // namespace
}  // namespace tg::autotune
