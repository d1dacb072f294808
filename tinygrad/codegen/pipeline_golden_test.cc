// File: tinygrad/codegen/pipeline_golden_test.cc
// Golden test of the whole codegen pipeline (GetProgram) without opts: the kernel ASTs of the
// design note's section 4.5 (a)-(g), built here by hand exactly as the reference's scheduler
// builds them (the pyrender dumps are in the testdata's comments), lowered with three test
// renderers and compared uop by uop with the reference's NOOPT=1 linear programs in
// testdata/pipeline_noopt.txt (tools/golden/gen_codegen_pipeline.py). More kernels (h-s:
// store-range cuts, permutes, reshapes with div/mod, arange, gather, range merging, cumsum,
// MAX, int division, symbolic shapes) are read from the testdata's serialized ASTs, and so
// are kernels the reference optimizer already optimized (opt_*: heuristic UPCAST/UNROLL,
// LOCAL, GROUP/GROUPTOP), which lower without apply_opts on both sides.
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/codegen/opt/scheduler.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/codegen/ast_text.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/render.h"

namespace tg {
namespace {

// ** the kernel ASTs, transcribed from the reference's pyrender **

UOp DG(int64_t size, int slot) { return UOp::Make(Ops::DEFINE_GLOBAL, dtypes::float32.ptr(size), {}, slot); }
UOp R(int64_t n, int64_t id, AxisType t = AxisType::LOOP) { return UOp::Range(n, id, t); }
UOp F(double v) { return UOp::Const(dtypes::float32, v); }
UOp I(const UOp& buf, const UOp& i) { return buf.index(std::vector<UOp>{i}); }
UOp P(const UOp& buf, const UOp& i) { return buf.index(std::vector<UOp>{i}, true); }
UOp Red(const UOp& x, std::vector<UOp> rngs, Ops op) {
  std::vector<UOp> src{x};
  src.insert(src.end(), rngs.begin(), rngs.end());
  return UOp::Make(Ops::REDUCE, x.dtype(), src, op);
}
UOp Sink(const UOp& st, std::vector<UOp> rngs) {
  std::vector<UOp> src{st};
  src.insert(src.end(), rngs.begin(), rngs.end());
  return UOp::Sink({UOp::Make(Ops::END, dtypes::void_, src)});
}
UOp Relu(const UOp& x) { return F(0.0).lt(x).where(x, F(0.0)); }
UOp Valid(const UOp& r, int64_t lo, int64_t hi) { return r.lt(lo).ne(true) & r.lt(hi); }

UOp MatmulRelu() {
  UOp c0 = DG(128, 0), c2 = R(16, 1), c5 = R(8, 2), c9 = DG(512, 1), c12 = R(32, 0, AxisType::REDUCE),
      c15 = DG(256, 2);
  UOp c20 = Red(I(c9, c2 * 32 + c12) * I(c15, c12 * 8 + c5), {c12}, Ops::ADD);
  return Sink(P(c0, c2 * 8 + c5).store(Relu(c20)), {c2, c5});
}

UOp Sum() {
  UOp c0 = DG(64, 0), c2 = R(64, 1), c4 = DG(2048, 1), c7 = R(32, 0, AxisType::REDUCE);
  return Sink(P(c0, c2).store(Red(I(c4, c2 * 32 + c7), {c7}, Ops::ADD)), {c2});
}

UOp SoftmaxMax() {
  UOp c0 = DG(8, 0), c2 = R(8, 1), c4 = DG(256, 1), c7 = R(32, 0, AxisType::REDUCE);
  return Sink(P(c0, c2).store(Red(I(c4, c2 * 32 + c7), {c7}, Ops::MAX)), {c2});
}

UOp SoftmaxSum() {
  UOp c0 = DG(8, 0), c2 = R(8, 1), c4 = DG(256, 1), c7 = R(32, 0, AxisType::REDUCE), c10 = DG(8, 2);
  UOp c17 = ((I(c4, c2 * 32 + c7) + I(c10, c2) * -1.0) * 1.4426950408889634).exp2();
  return Sink(P(c0, c2).store(Red(c17, {c7}, Ops::ADD)), {c2});
}

UOp SoftmaxDiv() {
  UOp c0 = DG(256, 0), c2 = R(8, 0), c5 = R(32, 1), c6 = c2 * 32 + c5, c8 = DG(256, 1), c10 = DG(8, 2),
      c18 = DG(8, 3);
  UOp c21 = ((I(c8, c6) + I(c10, c2) * -1.0) * 1.4426950408889634).exp2() * I(c18, c2).reciprocal();
  return Sink(P(c0, c6).store(c21), {c2, c5});
}

UOp Conv() {
  UOp c0 = DG(512, 0), c2 = R(8, 4), c4 = R(8, 5), c6 = R(8, 3), c11 = DG(400, 1),
      c13 = R(3, 2, AxisType::REDUCE), c15 = R(3, 1, AxisType::REDUCE), c21 = R(4, 0, AxisType::REDUCE),
      c26 = DG(288, 2);
  UOp c36 = I(c11, c4 + c13 + (c2 + c15) * 10 + c21 * 100) * I(c26, c15 * 3 + c13 + c21 * 9 + c6 * 36);
  UOp c37 = Red(c36, {c21, c15, c13}, Ops::ADD);
  return Sink(P(c0, c2 * 8 + c4 + c6 * 64).store(c37), {c6, c2, c4});
}

UOp ConvPadRelu() {
  UOp c0 = DG(800, 0), c2 = R(10, 4), c4 = R(10, 5), c7 = R(8, 3), c14 = R(3, 1, AxisType::REDUCE);
  UOp c15 = c2 + c14, c22 = Valid(c15, 1, 11), c23 = R(3, 2, AxisType::REDUCE), c24 = c4 + c23;
  UOp c28 = Valid(c24, 1, 11), c30 = DG(400, 1), c35 = R(4, 0, AxisType::REDUCE);
  UOp c41 = (c28 & c22).where(c24 + c15 * 10 + c35 * 100 + -11, ConstValue::Invalid());
  UOp c43 = (c22 & c28).where(I(c30, c41), F(0.0));
  UOp c44 = DG(288, 2);
  UOp c54 = c43 * I(c44, c14 * 3 + c23 + c35 * 9 + c7 * 36);
  UOp c55 = Red(c54, {c35, c14, c23}, Ops::ADD);
  return Sink(P(c0, c2 * 10 + c4 + c7 * 100).store(Relu(c55)), {c7, c2, c4});
}

UOp PadAdd() {
  UOp c0 = DG(36, 0), c2 = R(6, 0), c4 = R(6, 1), c13 = Valid(c2, 1, 5), c17 = Valid(c4, 1, 5), c19 = DG(16, 1);
  UOp c27 = (c17 & c13).where(c2 * 4 + c4 + -5, ConstValue::Invalid());
  UOp c30 = (c13 & c17).where(I(c19, c27), F(0.0));
  return Sink(P(c0, c2 * 6 + c4).store(c30 + 1.0), {c2, c4});
}

UOp Mean() {
  UOp c0 = DG(8, 0), c2 = R(8, 1), c4 = DG(256, 1), c7 = R(32, 0, AxisType::REDUCE);
  return Sink(P(c0, c2).store(Red(I(c4, c2 * 32 + c7), {c7}, Ops::ADD) * 0.03125), {c2});
}

UOp SubMean() {
  UOp c0 = DG(256, 0), c2 = R(8, 0), c5 = R(32, 1), c6 = c2 * 32 + c5, c8 = DG(256, 1), c10 = DG(8, 2);
  return Sink(P(c0, c6).store(I(c8, c6) + I(c10, c2) * -1.0), {c2, c5});
}

UOp Ast(const std::string& name, int k) {
  if (name == "a_matmul_relu") return MatmulRelu();
  if (name == "b_sum") return Sum();
  if (name == "c_softmax") return k == 0 ? SoftmaxMax() : k == 1 ? SoftmaxSum() : SoftmaxDiv();
  if (name == "d_conv") return Conv();
  if (name == "d2_conv_pad_relu") return ConvPadRelu();
  if (name == "e_pad_add") return PadAdd();
  if (name == "g_sub_mean") return k == 0 ? Mean() : SubMean();
  return UOp();
}

// ** the renderers and the golden file **

struct Kernel {
  std::string renderer, ast_name, name;
  int index = 0;
  std::vector<std::string> global, local, estimates, buffers, uops;
};

struct Variant {
  std::string base;
  std::vector<std::pair<std::string, int>> settings;  // (devectorize|transcendental, value)
};

struct Golden {
  std::map<std::string, GoldenRenderer> renderers;
  std::map<std::string, Variant> variants;
  std::vector<Kernel> kernels;
  std::map<std::string, std::vector<std::string>> asts;  // "case k" -> serialized AST lines
};


Golden ReadGolden() {
  Golden g;
  std::ifstream in("tinygrad/codegen/testdata/pipeline_noopt.txt");
  EXPECT_TRUE(in.good()) << "missing testdata";
  std::string line;
  Kernel* cur = nullptr;
  std::vector<std::string>* ast = nullptr;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> w = absl::StrSplit(line, ' ');
    if (w[0] == "ast") {
      ast = &g.asts[w[1] + " " + w[2]];
      cur = nullptr;
    } else if (ast != nullptr) {
      if (w[0] == "end") {
        ast = nullptr;
      } else {
        ast->push_back(line);
      }
    } else if (w[0] == "variant") {
      Variant& v = g.variants[w[1]];
      v.base = w[2];
      for (size_t i = 3; i < w.size(); ++i) {
        std::vector<std::string> kv = absl::StrSplit(w[i], '=');
        v.settings.emplace_back(kv[0], std::stoi(kv[1]));
      }
    } else if (w[0] == "renderer") {
      GoldenRenderer& r = g.renderers[w[1]];
      r.device = w[2];
      r.has_local = w[3] == "1";
      r.global_max = ParseLaunchDims(w[4]);
      r.local_max = ParseLaunchDims(w[5]);
      for (const std::string& op : std::vector<std::string>(absl::StrSplit(w[6], ','))) {
        Ops o;
        EXPECT_TRUE(OpFromName(op, &o)) << op;
        r.code_for_op.Add(o);
      }
    } else if (w[0] == "kernel") {
      g.kernels.push_back(Kernel{.renderer = w[1], .ast_name = w[2], .index = std::stoi(w[3])});
      cur = &g.kernels.back();
    } else if (w[0] == "name") {
      cur->name = w[1];
    } else if (w[0] == "global") {
      cur->global.assign(w.begin() + 1, w.end());
    } else if (w[0] == "local") {
      cur->local.assign(w.begin() + 1, w.end());
    } else if (w[0] == "estimates") {
      cur->estimates.assign(w.begin() + 1, w.end());
    } else if (w[0] == "buffers") {
      cur->buffers.assign(w.begin() + 1, w.end());
    } else if (w[0] != "end") {
      cur->uops.push_back(line);
    }
  }
  return g;
}

void RunRenderer(const std::string& which, int min_kernels) {
  CodegenOptions cfg{.noopt = true};
  Golden g = ReadGolden();
  std::string base = which;
  if (g.variants.contains(which)) {
    base = g.variants.at(which).base;
    for (const auto& [key, value] : g.variants.at(which).settings) {
      if (key == "devectorize") {
        cfg.devectorize = value;
      } else if (key == "transcendental") {
        cfg.transcendental = value;
      } else {
        FAIL() << "unknown setting " << key;
      }
    }
  }
  ASSERT_TRUE(g.renderers.contains(base));
  const Renderer& ren = g.renderers.at(base);
  ResetKernelNameCounts();
  int n = 0;
  for (const Kernel& k : g.kernels) {
    if (k.renderer != which) continue;
    ++n;
    SCOPED_TRACE(which + " " + k.ast_name + " " + std::to_string(k.index));
    UOp parsed = ParseAst(g.asts[k.ast_name + " " + std::to_string(k.index)]);
    ASSERT_TRUE(parsed) << "no serialized AST";
    UOp ast = Ast(k.ast_name, k.index);
    if (ast) {
      EXPECT_EQ(ast, parsed) << "the hand-built AST is not the reference's";
    } else {
      ast = parsed;
    }
    absl::StatusOr<ProgramSpec> p = GetProgram(ast, ren, cfg);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->function_name, k.name);
    EXPECT_EQ(FormatSizes(p->global_size), absl::StrJoin(k.global, " "));
    EXPECT_EQ(p->local_size ? FormatSizes(*p->local_size) : "none", absl::StrJoin(k.local, " "));
    EXPECT_EQ(FormatSizes({p->estimates.ops, p->estimates.lds, p->estimates.mem}), absl::StrJoin(k.estimates, " "));
    auto slots = [](const std::vector<int64_t>& v) { return v.empty() ? std::string("-") : absl::StrJoin(v, ","); };
    std::vector<std::string> vars;
    for (const UOp& v : p->vars) vars.push_back(v.arg()[0].str());
    EXPECT_EQ(slots(p->globals) + " " + slots(p->outs) + " " + slots(p->ins) + " " +
                  (vars.empty() ? "-" : absl::StrJoin(vars, ",")),
              absl::StrJoin(k.buffers, " "));
    std::vector<std::string> got = FormatLinearUops(p->uops);
    // exact, CONST order included: the linearizer sorts as CPython does (py_sort.h), which
    // also places NaN constants (unordered keys) where the reference does
    const std::vector<std::string>& want = k.uops;
    size_t diff = 0;
    while (diff < got.size() && diff < want.size() && got[diff] == want[diff]) ++diff;
    if (diff < got.size() || diff < want.size()) {
      ADD_FAILURE() << "first difference at uop " << diff << "\n  want: "
                    << (diff < want.size() ? want[diff] : "<end>") << "\n  got:  "
                    << (diff < got.size() ? got[diff] : "<end>") << "\nwhole program:\n"
                    << absl::StrJoin(got, "\n");
    }
  }
  EXPECT_GE(n, min_kernels);
}

TEST(PipelineGoldenTest, CpuNoopt) { RunRenderer("cpu", 27); }
TEST(PipelineGoldenTest, GpuNoopt) { RunRenderer("gpu", 27); }
// with the late decompositions (shifts, fast idiv, transcendental, ...) of a C target
TEST(PipelineGoldenTest, ClangNoopt) { RunRenderer("clang", 27); }
TEST(PipelineGoldenTest, CpuDevectorize0) { RunRenderer("cpu_dv0", 5); }
TEST(PipelineGoldenTest, CpuDevectorize2) { RunRenderer("cpu_dv2", 5); }
TEST(PipelineGoldenTest, ClangTranscendental2) { RunRenderer("clang_tr2", 4); }

}  // namespace
}  // namespace tg
