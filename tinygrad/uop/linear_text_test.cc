// File: tinygrad/uop/linear_text_test.cc
#include "tinygrad/uop/linear_text.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(DTypeSpecTest, WritesWhatItReads) {
  for (DType d : {dtypes::float32, dtypes::uint8, dtypes::float16.vec(4), dtypes::float32.ptr(16),
                  dtypes::int32.ptr(-1, AddrSpace::LOCAL), dtypes::float16.vec(4).ptr(8, AddrSpace::REG).vec(2),
                  dtypes::bool_.vec(3), dtypes::index, dtypes::void_, dtypes::fp8e4m3.ptr(32)}) {
    absl::StatusOr<DType> back = ParseDTypeSpec(DTypeSpec(d));
    ASSERT_TRUE(back.ok()) << DTypeSpec(d) << ": " << back.status();
    EXPECT_EQ(*back, d) << DTypeSpec(d);
  }
  EXPECT_EQ(DTypeSpec(dtypes::uint8.ptr(4)), "uchar ptr:4:GLOBAL");
}

TEST(DTypeSpecTest, RefusesDTypesThatCannotExist) {
  for (const char* bad : {"", "floaty", "float vec:4 vec:2", "float ptr:4:GLOBAL ptr:4:GLOBAL",
                          "float vec:70000", "float vec:-2",
                          "float ptr:-5:GLOBAL", "float ptr:4:SHARED", "float ptr:4", "float vec:x",
                          "float ptr:4:GLOBAL vec:0"}) {
    absl::StatusOr<DType> d = ParseDTypeSpec(bad);
    EXPECT_FALSE(d.ok()) << "'" << bad << "' gave " << d->repr();
  }
}

TEST(ArgTextTest, ReadsEveryKindArgReprWrites) {
  std::vector<Arg> args = {Arg(),
                           Arg(true),
                           Arg(int64_t{-7}),
                           Arg(2.5),
                           Arg(-0.0),
                           Arg(1e300),
                           Arg(std::numeric_limits<double>::infinity()),
                           Arg(ConstValue(static_cast<i128>(1) << 100)),
                           Arg(ConstValue::Invalid()),
                           Arg("gidx0"),
                           Arg("it's \"quoted\"\n\\ \x01"),
                           Arg(Ops::ADD),
                           Arg(AxisType::LOOP),
                           Arg::Tuple({0, AxisType::LOOP}),
                           Arg::Tuple({Arg::Tuple({1, 2}), Arg::Tuple({}), Arg::Tuple({"a"})})};
  for (const Arg& a : args) {
    absl::StatusOr<Arg> back = ParseArgText(a.repr());
    ASSERT_TRUE(back.ok()) << a.repr() << ": " << back.status();
    EXPECT_EQ(*back, a) << a.repr() << " read back as " << back->repr();
  }
  absl::StatusOr<Arg> nan = ParseArgText("nan");
  ASSERT_TRUE(nan.ok());
  EXPECT_TRUE(std::isnan(nan->number().to_float()));
}

TEST(ArgTextTest, RefusesMalformedText) {
  std::string deep(10000, '(');
  for (const std::string& bad : {std::string(""), std::string("'open"), std::string("(1, 2"), std::string("(1 2)"),
                                 std::string("Ops.NOPE"), std::string("AxisType.NOPE"), std::string("1x"),
                                 std::string("'\\q'"), std::string("'\\x4'"), std::string("1 2"), std::string("-"),
                                 std::string(60, '9'), deep}) {
    EXPECT_FALSE(ParseArgText(bad).ok()) << bad.substr(0, 40);
  }
}

TEST(LinearProgramTest, TheReferencesProgramsComeBackAsTheSameUops) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator("tinygrad/renderer/c/testdata")) {
    if (entry.path().extension() != ".uops") continue;
    ++files;
    absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(ReadFile(entry.path()));
    ASSERT_TRUE(uops.ok()) << entry.path() << ": " << uops.status();
    std::string text = FormatLinearProgram(*uops);
    absl::StatusOr<std::vector<UOp>> back = ParseLinearProgram(text);
    ASSERT_TRUE(back.ok()) << entry.path() << ": " << back.status() << "\n" << text;
    EXPECT_EQ(*back, *uops) << entry.path();  // hash-consed: equal nodes are the same node
    EXPECT_EQ(FormatLinearProgram(*back), text);
  }
  EXPECT_GT(files, 5);
}

TEST(LinearProgramTest, ASinkKeepsItsKernelInfo) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(4), {}, 0);
  UOp idx = UOp::Make(Ops::INDEX, dtypes::float32.ptr(4), {buf, UOp::Const(dtypes::index, 1)});
  UOp st = UOp::Make(Ops::STORE, dtypes::void_, {idx, UOp::Const(dtypes::float32, 1.5)});
  UOp sink = UOp::Make(Ops::SINK, dtypes::void_, {st}, Arg::Tuple({"E_4", Arg::Tuple({}), false}));
  std::vector<UOp> prog = {buf, idx.src(1), idx, st.src(1), st, sink};
  absl::StatusOr<std::vector<UOp>> back = ParseLinearProgram(FormatLinearProgram(prog));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, prog);
}

TEST(LinearProgramTest, RefusesTextThatIsNoProgram) {
  for (const char* bad : {"0 | Ops.CONST | float | - ",
                          "0 | Ops.CONST | float | - | 1.0 | extra",
                          "0 | Ops.NOPE | float | - | None",
                          "0 | Ops.CONST | nofloat | - | 1.0",
                          "0 | Ops.ADD | float | 1,2 | None",
                          "0 | Ops.CONST | float | - | 1.0\n1 | Ops.NEG | float | 0,? | None",
                          "0 | Ops.CONST | float | - | 1.0\n1 | Ops.NEG | float | -1 | None",
                          "0 | Ops.CONST | float | - | (((("}) {
    absl::StatusOr<std::vector<UOp>> p = ParseLinearProgram(bad);
    EXPECT_FALSE(p.ok()) << bad;
    if (!p.ok()) EXPECT_NE(p.status().message().find("line "), std::string::npos) << p.status();
  }
}

// Found by the emulator's program fuzz test: shape inference of a sourceless INDEX/END/AFTER/...
// read past the sources. A malformed program is the interpreter's (or spec's) to refuse; making
// its uops must not crash.
TEST(LinearProgramTest, OpsWithoutTheirSourcesAreMadeWithoutReadingPastThem) {
  for (const char* op : {"INDEX", "END", "AFTER", "BITCAST", "REDUCE", "CONTIGUOUS", "DETACH", "MSELECT", "MSTACK"}) {
    absl::StatusOr<std::vector<UOp>> p = ParseLinearProgram(absl::StrCat("0 | Ops.", op, " | float ptr:4:GLOBAL | - | None"));
    EXPECT_TRUE(p.ok()) << op << ": " << p.status();
  }
}

}  // namespace
}  // namespace tg
