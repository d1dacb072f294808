// File: tinygrad/renderer/c/clang_test.cc
// Golden tests of ClangRenderer: every testdata/<case>.uops (a linear program from the reference
// tinygrad) must render exactly testdata/<case>.c, and every golden source must compile with
// clang. Regenerate the goldens with tools/golden/gen_clang_golden.py.
#include "tinygrad/renderer/c/clang.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/renderer/c/float_patterns.h"
#include "tinygrad/runtime/cpu/buffer.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/program.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/c/testdata";

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kTestdata))
    if (e.path().extension() == ".uops") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

Config TestConfig() {
  Config c;
  c.threads = 1;
  c.cpu_count = 8;
  return c;
}

class ClangGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ClangGoldenTest, RendersLikeTinygrad) {
  std::filesystem::path base = std::filesystem::path(kTestdata) / GetParam();
  absl::StatusOr<std::vector<UOp>> uops = ParseLinearProgram(ReadFile(base.string() + ".uops"));
  ASSERT_TRUE(uops.ok()) << uops.status();
  ClangRenderer ren(CpuRendererOptions::FromConfig(TestConfig()));
  EXPECT_EQ(ren.Render(*uops), ReadFile(base.string() + ".c"));
}

std::string TmpDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp ? tmp : "/tmp";
}

// Compiles `src_path` with tinygrad's CPU flags; true on success.
bool ClangCompiles(const std::string& src_path, const std::string& name) {
  std::string cmd = "clang -c -x c -O2 -fPIC -ffreestanding -fno-math-errno -nostdlib -fno-ident "
                    "-Werror=implicit-function-declaration " + src_path + " -o " + TmpDir() +
                    "/" + name + ".o 2>&1";
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

// clang < 15 has no __bf16 on x86 (tinygrad's own CI uses a newer clang).
bool ClangHasBf16() {
  static const bool kHas = [] {
    std::string path = TmpDir() + "/bf16_probe.c";
    std::ofstream(path) << "void f(__bf16* p, float* q) { *q = (float)(*p); }\n";
    return ClangCompiles(path, "bf16_probe");
  }();
  return kHas;
}

TEST_P(ClangGoldenTest, GoldenSourceCompiles) {
  std::filesystem::path src = std::filesystem::path(kTestdata) / (GetParam() + ".c");
  if (ReadFile(src).find("__bf16") != std::string::npos && !ClangHasBf16())
    GTEST_SKIP() << "this clang has no __bf16";
  EXPECT_TRUE(ClangCompiles(src.string(), GetParam())) << src;
}

INSTANTIATE_TEST_SUITE_P(Goldens, ClangGoldenTest, ::testing::ValuesIn(CaseNames()),
                         [](const auto& info) { return info.param; });

// Renders a golden linear program, compiles it with the CPU runtime and returns the program.
CpuProgram CompileGolden(const std::string& name, int* num_bufs) {
  absl::StatusOr<std::vector<UOp>> uops =
      ParseLinearProgram(ReadFile(std::string(kTestdata) + "/" + name + ".uops"));
  TG_CHECK(uops.ok()) << uops.status();
  ClangRenderer ren(CpuRendererOptions::FromConfig(TestConfig()));
  CStyleLanguage::Body body = ren.RenderBody(*uops);
  int bufs = 0, vars = 0;
  for (const KernelParam& p : body.bufs) (p.dtype.is_ptr() ? bufs : vars)++;
  *num_bufs = bufs;
  ClangCompilerOptions o;
  o.flags = ClangCompilerOptions::DefaultFlags();
  o.cachelevel = 0;
  ClangCompiler cc(o);
  absl::StatusOr<std::string> lib =
      cc.Compile(WithCpuEntry(ren.Render(*uops), body.function_name, bufs, vars));
  TG_CHECK(lib.ok()) << lib.status();
  absl::StatusOr<CpuProgram> prg = CpuProgram::Load(*lib, body.function_name);
  TG_CHECK(prg.ok()) << prg.status();
  return std::move(*prg);
}

TEST(ClangRendererRunTest, MatmulWithFourThreads) {
  int nbufs = 0;
  CpuProgram prg = CompileGolden("pipe_matmul_threads", &nbufs);
  ASSERT_EQ(nbufs, 3);
  std::vector<float> a(256), b(256), c(256), want(256, 0.0f);
  for (int i = 0; i < 256; ++i) {
    a[i] = static_cast<float>(i % 7) - 3;
    b[i] = static_cast<float>(i % 5) * 0.5f;
  }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k) want[i * 16 + j] += a[i * 16 + k] * b[k * 16 + j];
  void* bufs[] = {c.data(), a.data(), b.data()};
  prg.Run(bufs, {}, /*threads=*/4);  // the kernel's gidx0 = core_id covers 4 row blocks
  EXPECT_EQ(c, want);
}

TEST(ClangRendererRunTest, VariableBound) {
  int nbufs = 0;
  CpuProgram prg = CompileGolden("pipe_var", &nbufs);
  ASSERT_EQ(nbufs, 2);
  std::vector<float> out(16, -1.0f), in(16);
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i);
  void* bufs[] = {out.data(), in.data()};
  int32_t n = 7;
  prg.Run(bufs, std::span<const int32_t>(&n, 1));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i < 7 ? i + 2.0f : -1.0f) << i;
}

// Every int dtype's min and max, and an unsigned const written as -1 (tinygrad keeps the Python
// int; the renderer wraps uint32/uint64 and casts the small ones), render as literals clang
// accepts (int64 min is `-9223372036854775808ll`, as in tinygrad: a warning, not an error) and
// store the wrapped value.
TEST(ClangRendererRunTest, IntConstsAtTheirLimits) {
  for (DType d : {dtypes::int8, dtypes::uint8, dtypes::int16, dtypes::uint16, dtypes::int32,
                  dtypes::uint32, dtypes::int64, dtypes::uint64}) {
    SCOPED_TRACE(d.name());
    std::vector<ConstValue> vals{dtypes::min(d), dtypes::max(d)};
    if (dtypes::is_unsigned(d)) vals.push_back(ConstValue(-1));
    int n = static_cast<int>(vals.size());
    UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, d.ptr(n), {}, int64_t{0});
    std::vector<UOp> uops{buf}, stores;
    for (int i = 0; i < n; ++i) {
      UOp at = UOp::Const(dtypes::int32, i), v = UOp::Make(Ops::CONST, d, {}, Arg(vals[i]));
      UOp idx = UOp::Make(Ops::INDEX, d.ptr(n), {buf, at});
      stores.push_back(UOp::Make(Ops::STORE, dtypes::void_, {idx, v}));
      uops.insert(uops.end(), {at, v, idx, stores.back()});
    }
    KernelInfo ki;
    ki.name = "consts";
    uops.push_back(UOp::Make(Ops::SINK, dtypes::void_, stores, ki.ToArg()));
    ClangRenderer ren(CpuRendererOptions::FromConfig(TestConfig()));
    ClangCompilerOptions o;
    o.flags = ClangCompilerOptions::DefaultFlags();
    o.cachelevel = 0;
    std::string src = ren.Render(uops);
    absl::StatusOr<std::string> lib = ClangCompiler(o).Compile(WithCpuEntry(src, "consts", 1, 0));
    ASSERT_TRUE(lib.ok()) << lib.status() << "\n" << src;
    absl::StatusOr<CpuProgram> prg = CpuProgram::Load(*lib, "consts");
    ASSERT_TRUE(prg.ok()) << prg.status();
    std::vector<uint8_t> out(n * d.itemsize(), 0xab);
    void* bufs[] = {out.data()};
    prg->Run(bufs, {});
    for (int i = 0; i < n; ++i) {
      // the stored bytes are the little-endian low bytes of the wrapped value
      i128 want = Truncate(vals[i], d).to_int();
      for (int b = 0; b < d.itemsize(); ++b)
        EXPECT_EQ(out[i * d.itemsize() + b], static_cast<uint8_t>(want >> (8 * b)))
            << vals[i] << " byte " << b;
    }
  }
}

TEST(ClangRendererTest, Capabilities) {
  Config c = TestConfig();
  c.threads = 0;
  c.cpu_count = 12;
  ClangRenderer ren(CpuRendererOptions::FromConfig(c));
  EXPECT_EQ(ren.device, "CPU");
  EXPECT_FALSE(ren.has_local);
  EXPECT_FALSE(ren.has_threads);
  ASSERT_TRUE(ren.global_max.has_value());
  EXPECT_EQ((*ren.global_max)[0], 12);
  EXPECT_EQ((*ren.global_max)[1], 0);
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN, Ops::RECIPROCAL, Ops::MAX})
    EXPECT_FALSE(ren.code_for_op.contains(op)) << op;
  for (Ops op : {Ops::SQRT, Ops::TRUNC, Ops::FDIV, Ops::WHERE, Ops::NEG})
    EXPECT_TRUE(ren.code_for_op.contains(op)) << op;
  EXPECT_EQ(ren.extra_matcher, &ClangExtraMatcher());
}

TEST(ClangRendererTest, StripParens) {
  EXPECT_EQ(StripParens("(a+b)"), "a+b");
  EXPECT_EQ(StripParens("(a)+(b)"), "(a)+(b)");
  EXPECT_EQ(StripParens("((a+b))"), "(a+b)");
  EXPECT_EQ(StripParens("a"), "a");
}

TEST(ClangRendererTest, FormatCustom) {
  std::vector<std::string> args{"x", "y"};
  EXPECT_EQ(FormatCustom("f({0}, {1}) {{}}", args), "f(x, y) {}");
  EXPECT_EQ(FormatCustom("{}+{}", args), "x+y");
}

TEST(ClangRendererTest, ExtraMatcherDevectorizesSqrtAndWhere) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.vec(4).ptr(4), {}, Arg(0));
  UOp x = buf.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)}).load();
  UOp s = x.sqrt();
  UOp r = GraphRewrite(s, ClangExtraMatcher());
  ASSERT_EQ(r.op(), Ops::VECTORIZE);
  ASSERT_EQ(r.src().size(), 4u);
  EXPECT_EQ(r.src(0).op(), Ops::SQRT);
  EXPECT_EQ(r.src(0).dtype(), dtypes::float32);
}

TEST(ClangRendererTest, ExtraMatcherBf16GoesThroughFloat) {
  UOp buf = UOp::Make(Ops::DEFINE_GLOBAL, dtypes::bfloat16.ptr(4), {}, Arg(0));
  UOp x = buf.index(std::vector<UOp>{UOp::Const(dtypes::int32, 0)}).load();
  UOp add = x + x;
  UOp r = GraphRewrite(add, ClangExtraMatcher());
  // bf16 math is float math cast back; the casts are manual bit operations
  for (const UOp& u : r.toposort()) {
    if (GroupOp::ALU.contains(u.op())) {
      EXPECT_NE(u.dtype(), dtypes::bfloat16) << u.op();
    }
    if (u.op() == Ops::CAST) {
      EXPECT_NE(u.dtype(), dtypes::bfloat16);
      EXPECT_NE(u.src(0).dtype(), dtypes::bfloat16);
    }
  }
}

}  // namespace
}  // namespace tg
