// Tests for the WMMA lane models: every tensor core of every table the emulator supports runs a
// random matmul scattered into lane fragments and gathered back, compared with a plain matmul.
// CUDA's fragments are laid out from the PTX ISA's own description of mma.m16n8k{8,16,32}
// (independent of the models); the other devices have no such statement here, so their test
// inverts the model's maps and checks that they cover every entry and slot exactly once, and a
// golden test replays what the reference's own emulator computed for every tensor core.
#include "tinygrad/emulator/wmma_models.h"

#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/codegen/tensor_core.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

struct Table {
  const char* name;
  const char* device;  // the renderer's device, as the WMMA arg carries it
  const std::vector<TensorCore>& (*tcs)();
};

const std::vector<Table>& Tables() {
  static const auto* const kTables = new std::vector<Table>{
      {"CudaSm75", "CUDA", tensor_cores::CudaSm75}, {"CudaSm80", "CUDA", tensor_cores::CudaSm80},
      {"CudaSm89", "CUDA", tensor_cores::CudaSm89}, {"AmdRdna3", "AMD", tensor_cores::AmdRdna3},
      {"AmdRdna4", "AMD", tensor_cores::AmdRdna4}, {"AmdCdna3", "AMD", tensor_cores::AmdCdna3},
      {"AmdCdna4", "AMD", tensor_cores::AmdCdna4}, {"Metal", "METAL", tensor_cores::Metal},
      {"Intel", "INTEL", tensor_cores::Intel},     {"Amx", "CPU", tensor_cores::Amx},
  };
  return *kTables;
}

// The arg the TC optimizer builds (scheduler_tc.cc); the axes are not read by the models.
Arg WmmaArg(const TensorCore& tc, const std::string& device) {
  return Arg::Tuple({tc.ToString(), Arg::Tuple({tc.dims[0], tc.dims[1], tc.dims[2]}), tc.dtype_in.repr(),
                     tc.dtype_out.repr(), device, tc.threads, Arg::Tuple({}), Arg::Tuple({})});
}

// One operand's layout: which matrix entry each (element, lane) slot holds.
using SlotMap = std::vector<std::pair<WmmaSlot, WmmaEntry>>;
struct Layouts {
  SlotMap a, b, d;
};

// ** CUDA, from the PTX ISA ("Matrix Fragments for mma.m16n8k*") **
// groupID = lane >> 2, threadID_in_group = lane % 4; register i of a lane holds:
SlotMap PtxFragment(int regs, WmmaEntry (*entry)(int i, int group, int tig)) {
  SlotMap m;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < regs; ++i) m.push_back({{i, lane}, entry(i, lane >> 2, lane % 4)});
  return m;
}
// C/D of every m16n8 shape: row groupID (+8 for c2, c3), col threadID_in_group*2 + (i & 1)
WmmaEntry PtxC(int i, int g, int t) { return {g + 8 * (i >= 2), t * 2 + (i & 1)}; }
// m16n8k16 .f16/.bf16 A: row groupID (+8 for a2, a3, a6, a7); col tig*2 + (i & 1) (+8 for i >= 4)
WmmaEntry PtxK16A(int i, int g, int t) { return {g + 8 * ((i >> 1) & 1), t * 2 + (i & 1) + 8 * (i >= 4)}; }
// m16n8k16 B: row tig*2 + (i & 1) (+8 for i >= 2); col groupID
WmmaEntry PtxK16B(int i, int g, int t) { return {t * 2 + (i & 1) + 8 * (i >= 2), g}; }
// m16n8k32 .e4m3/.e5m2 A: row groupID (+8 for a4..a7, a12..a15); col tig*4 + (i & 3) (+16 for i >= 8)
WmmaEntry PtxK32A(int i, int g, int t) { return {g + 8 * ((i >> 2) & 1), t * 4 + (i & 3) + 16 * (i >= 8)}; }
// m16n8k32 B: row tig*4 + (i & 3) (+16 for i >= 4); col groupID
WmmaEntry PtxK32B(int i, int g, int t) { return {t * 4 + (i & 3) + 16 * (i >= 4), g}; }
// m16n8k8 .f16 A: row groupID (+8 for a2, a3); col tig*2 + (i & 1)
WmmaEntry PtxK8HalfA(int i, int g, int t) { return {g + 8 * (i >= 2), t * 2 + (i & 1)}; }
// m16n8k8 .f16 B: row tig*2 + i; col groupID
WmmaEntry PtxK8HalfB(int i, int g, int t) { return {t * 2 + i, g}; }
// m16n8k8 .tf32 A: row groupID (+8 for a1, a3); col tig (+4 for a2, a3)
WmmaEntry PtxK8Tf32A(int i, int g, int t) { return {g + 8 * (i & 1), t + 4 * (i >= 2)}; }
// m16n8k8 .tf32 B: row tig (+4 for b1); col groupID
WmmaEntry PtxK8Tf32B(int i, int g, int t) { return {t + 4 * i, g}; }

Layouts PtxLayouts(const TensorCore& tc) {
  Layouts l{.d = PtxFragment(4, PtxC)};
  if (tc.dims[2] == 16) {
    l.a = PtxFragment(8, PtxK16A), l.b = PtxFragment(4, PtxK16B);
  } else if (tc.dims[2] == 32) {
    l.a = PtxFragment(16, PtxK32A), l.b = PtxFragment(8, PtxK32B);
  } else if (tc.dtype_in == dtypes::float16) {
    l.a = PtxFragment(4, PtxK8HalfA), l.b = PtxFragment(2, PtxK8HalfB);
  } else {
    l.a = PtxFragment(4, PtxK8Tf32A), l.b = PtxFragment(2, PtxK8Tf32B);
  }
  return l;
}

// ** every other device: the model's own maps, inverted **
Layouts ModelLayouts(const WmmaLayout& w) {
  Layouts l;
  for (int row = 0; row < w.m; ++row) {
    for (int k = 0; k < w.k; ++k) {
      WmmaSlot s = w.A(row, k);
      l.a.push_back({s, {row, k}});
      if (w.duplicated_half_warps) l.a.push_back({{s.elem, s.lane + w.threads / 2}, {row, k}});
    }
  }
  for (int k = 0; k < w.k; ++k) {
    for (int col = 0; col < w.n; ++col) {
      WmmaSlot s = w.B(k, col);
      l.b.push_back({s, {k, col}});
      if (w.duplicated_half_warps) l.b.push_back({{s.elem, s.lane + w.threads / 2}, {k, col}});
    }
  }
  for (int lane = 0; lane < w.threads; ++lane)
    for (int e = 0; e < w.num_c; ++e) l.d.push_back({{e, lane}, w.D(lane, e)});
  return l;
}

// Every slot of the fragment (elems x threads) holds exactly one entry, and every entry of the
// rows x cols matrix sits in some slot (exactly once unless `copies` lanes repeat it).
void ExpectCovers(const SlotMap& m, int elems, int threads, int rows, int cols, int copies, const char* what) {
  SCOPED_TRACE(what);
  std::set<std::pair<int, int>> slots;
  std::map<std::pair<int, int>, int> entries;
  for (const auto& [s, e] : m) {
    ASSERT_TRUE(s.elem >= 0 && s.elem < elems && s.lane >= 0 && s.lane < threads) << s.elem << " " << s.lane;
    ASSERT_TRUE(e.row >= 0 && e.row < rows && e.col >= 0 && e.col < cols) << e.row << " " << e.col;
    EXPECT_TRUE(slots.insert({s.elem, s.lane}).second) << "slot " << s.elem << "," << s.lane << " twice";
    ++entries[{e.row, e.col}];
  }
  EXPECT_EQ(slots.size(), static_cast<size_t>(elems * threads));
  EXPECT_EQ(entries.size(), static_cast<size_t>(rows * cols));
  for (const auto& [e, n] : entries) EXPECT_EQ(n, copies) << "entry " << e.first << "," << e.second;
}

using Matrix = std::vector<std::vector<double>>;

Matrix Random(int rows, int cols, std::mt19937* rng) {
  std::uniform_int_distribution<int> dist(-8, 8);  // small ints: every sum is exact in double
  Matrix m(rows, std::vector<double>(cols));
  for (auto& r : m)
    for (double& x : r) x = dist(*rng);
  return m;
}

void Scatter(const SlotMap& map, const Matrix& m, int goff, WmmaFragment* frag) {
  for (const auto& [s, e] : map) (*frag)[s.elem][goff + s.lane] = m[e.row][e.col];
}

// Runs `warps` independent MMAs in one workgroup through EmulateWmma and compares each with
// A x B + C computed directly.
void CheckMatmul(const Arg& arg, const WmmaLayout& w, const Layouts& l, int warps, std::mt19937* rng) {
  SCOPED_TRACE(absl::StrCat(warps, " warps"));
  const int lanes = warps * w.threads;
  WmmaFragment a(w.num_a, std::vector<double>(lanes)), b(w.num_b, std::vector<double>(lanes)),
      c(w.num_c, std::vector<double>(lanes));
  std::vector<Matrix> want;
  for (int g = 0; g < warps; ++g) {
    Matrix ma = Random(w.m, w.k, rng), mb = Random(w.k, w.n, rng), mc = Random(w.m, w.n, rng);
    Scatter(l.a, ma, g * w.threads, &a);
    Scatter(l.b, mb, g * w.threads, &b);
    Scatter(l.d, mc, g * w.threads, &c);
    for (int i = 0; i < w.m; ++i)
      for (int j = 0; j < w.n; ++j)
        for (int k = 0; k < w.k; ++k) mc[i][j] += ma[i][k] * mb[k][j];
    want.push_back(std::move(mc));
  }
  absl::StatusOr<WmmaFragment> d = EmulateWmma(arg, a, b, c);
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_EQ(d->size(), static_cast<size_t>(w.num_c));
  for (int g = 0; g < warps; ++g) {
    for (const auto& [s, e] : l.d) {
      ASSERT_EQ((*d)[s.elem].size(), static_cast<size_t>(lanes));
      EXPECT_EQ((*d)[s.elem][g * w.threads + s.lane], want[g][e.row][e.col])
          << "warp " << g << " D[" << e.row << "][" << e.col << "] at element " << s.elem << " lane " << s.lane;
    }
  }
}

TEST(WmmaModelsTest, EveryTensorCoreOfEveryTableComputesItsMatmul) {
  std::mt19937 rng(1234);
  int checked = 0;
  for (const Table& t : Tables()) {
    for (const TensorCore& tc : t.tcs()) {
      SCOPED_TRACE(absl::StrCat(t.name, " ", tc.ToString()));
      const Arg arg = WmmaArg(tc, t.device);
      absl::StatusOr<WmmaLayout> w = WmmaLayoutFor(arg, tc.elements_per_thread[0]);
      ASSERT_TRUE(w.ok()) << w.status();
      // the table and the model agree on the shape
      EXPECT_EQ(w->threads, tc.threads);
      EXPECT_EQ(w->n, tc.dims[0]);
      EXPECT_EQ(w->m, tc.dims[1]);
      EXPECT_EQ(w->k, tc.dims[2]);
      EXPECT_EQ(w->num_a, tc.elements_per_thread[0]);
      EXPECT_EQ(w->num_b, tc.elements_per_thread[1]);
      EXPECT_EQ(w->num_c, tc.elements_per_thread[2]);
      const bool cuda = std::string(t.device) == "CUDA";
      const Layouts l = cuda ? PtxLayouts(tc) : ModelLayouts(*w);
      const int copies = w->duplicated_half_warps ? 2 : 1;
      ExpectCovers(l.a, w->num_a, w->threads, w->m, w->k, copies, "A");
      ExpectCovers(l.b, w->num_b, w->threads, w->k, w->n, copies, "B");
      ExpectCovers(l.d, w->num_c, w->threads, w->m, w->n, 1, "D");
      if (cuda) {  // the model places each entry where the PTX ISA says
        for (const auto& [s, e] : l.a) {
          WmmaSlot m = w->A(e.row, e.col);
          EXPECT_TRUE(m.elem == s.elem && m.lane == s.lane) << "A[" << e.row << "][" << e.col << "]";
        }
        for (const auto& [s, e] : l.b) {
          WmmaSlot m = w->B(e.row, e.col);
          EXPECT_TRUE(m.elem == s.elem && m.lane == s.lane) << "B[" << e.row << "][" << e.col << "]";
        }
      }
      CheckMatmul(arg, *w, l, 1, &rng);
      CheckMatmul(arg, *w, l, 2, &rng);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 + 6 + 8 + 3 + 4 + 4 + 8 + 5 + 1 + 1);
}

// ** the reference's own results (testdata/wmma_golden.txt, tools/golden/gen_wmma_golden.py) **

// The operand values the generator's threads build (its `operand`): keep the two in step.
double GoldenOperand(int op, int e, int t) { return (t * 7 + e * 13 + op * 5) % 17 - 8; }

// Checks the layouts the test cannot state independently (AMD, METAL, INTEL, AMX) against what
// the reference's PythonProgram computed, and CUDA's once more.
TEST(WmmaModelsTest, MatchesTheReferenceEmulatorOnEveryTensorCore) {
  std::ifstream in("tinygrad/emulator/testdata/wmma_golden.txt");
  ASSERT_TRUE(in.good()) << "missing testdata";
  std::set<std::string> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string device, name, din, dout, colon;
    int64_t n, m, k, threads, warps, num_a, num_b, num_c;
    ls >> device >> name >> n >> m >> k >> din >> dout >> threads >> warps >> num_a >> num_b >> num_c >> colon;
    ASSERT_EQ(colon, ":") << line.substr(0, 80);
    SCOPED_TRACE(absl::StrCat(device, " ", name, " ", num_a));
    cases.insert(absl::StrCat(device, " ", name, " ", num_a));
    const int lanes = static_cast<int>(threads * warps);
    const bool rdna3 = device == "AMD" && threads == 32 && num_a == 16;
    WmmaFragment ops[3] = {WmmaFragment(num_a, std::vector<double>(lanes)),
                           WmmaFragment(num_b, std::vector<double>(lanes)),
                           WmmaFragment(num_c, std::vector<double>(lanes))};
    for (int op = 0; op < 3; ++op)
      for (size_t e = 0; e < ops[op].size(); ++e)
        for (int t = 0; t < lanes; ++t) ops[op][e][t] = GoldenOperand(op, e, rdna3 ? t - (t % 32) / 16 * 16 : t);
    const Arg arg = Arg::Tuple({name, Arg::Tuple({n, m, k}), din, dout, device, threads, Arg::Tuple({}), Arg::Tuple({})});
    absl::StatusOr<WmmaFragment> d = EmulateWmma(arg, ops[0], ops[1], ops[2]);
    ASSERT_TRUE(d.ok()) << d.status();
    for (int t = 0; t < lanes; ++t) {
      for (int e = 0; e < num_c; ++e) {
        double want;
        ASSERT_TRUE(ls >> want) << "short line";
        EXPECT_EQ((*d)[e][t], want) << "thread " << t << " element " << e;
      }
    }
    double extra;
    EXPECT_FALSE(ls >> extra) << "long line";
  }
  // every tensor core of every table the emulator supports (the test above counts them)
  for (const Table& t : Tables())
    for (const TensorCore& tc : t.tcs())
      EXPECT_TRUE(cases.contains(absl::StrCat(t.device, " ", tc.ToString(), " ", tc.elements_per_thread[0])))
          << t.name << " " << tc.ToString();
}

// The reference adds the K products up first, then adds C: with C = 2^53 each product alone
// would be rounded away, their sum is not.
TEST(WmmaModelsTest, SumsTheProductsBeforeAddingC) {
  const TensorCore& tc = tensor_cores::Intel()[0];
  WmmaFragment a(16, std::vector<double>(8, 1.0)), b(16, std::vector<double>(8, 1.0)),
      c(8, std::vector<double>(8, 9007199254740992.0));
  absl::StatusOr<WmmaFragment> d = EmulateWmma(WmmaArg(tc, "INTEL"), a, b, c);
  ASSERT_TRUE(d.ok()) << d.status();
  for (const auto& e : *d)
    for (double x : e) EXPECT_EQ(x, 9007199254740992.0 + 16);
}

// ** bad input: InvalidArgument with what was wrong, never an abort **

struct Operands {
  WmmaFragment a, b, c;
};
Operands Zeros(const TensorCore& tc, int lanes) {
  return {WmmaFragment(tc.elements_per_thread[0], std::vector<double>(lanes)),
          WmmaFragment(tc.elements_per_thread[1], std::vector<double>(lanes)),
          WmmaFragment(tc.elements_per_thread[2], std::vector<double>(lanes))};
}

void ExpectInvalid(const Arg& arg, const Operands& o, const std::string& message) {
  absl::StatusOr<WmmaFragment> d = EmulateWmma(arg, o.a, o.b, o.c);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(d.status().message()), HasSubstr(message));
}

const TensorCore& Cuda16() { return tensor_cores::CudaSm80()[0]; }  // WMMA_8_16_16_half_float

TEST(WmmaModelsTest, UnknownDeviceIsAnError) {
  ExpectInvalid(WmmaArg(Cuda16(), "TPU"), Zeros(Cuda16(), 32), "no WMMA model for device 'TPU'");
  ExpectInvalid(WmmaArg(Cuda16(), "PYTHON"), Zeros(Cuda16(), 32), "known: METAL, AMD, CUDA, INTEL, CPU");
}

TEST(WmmaModelsTest, UnknownDimsAreAnError) {
  TensorCore tc = Cuda16();
  tc.dims = {8, 16, 64};
  ExpectInvalid(WmmaArg(tc, "CUDA"), Zeros(Cuda16(), 32),
                "WMMA_8_16_64_half_float on CUDA dims (8, 16, 64): unknown tensor core dims");
}

TEST(WmmaModelsTest, ThreadsOtherThanTheModelsAreAnError) {
  TensorCore tc = Cuda16();
  tc.threads = 16;
  ExpectInvalid(WmmaArg(tc, "CUDA"), Zeros(Cuda16(), 32), "no model with 16 threads");
}

TEST(WmmaModelsTest, M16N8K8NeedsHalfOrFloatInputs) {
  TensorCore tc = tensor_cores::CudaSm75()[0];
  tc.dtype_in = dtypes::bfloat16;
  ExpectInvalid(WmmaArg(tc, "CUDA"), Zeros(tc, 32), "no model for input dtype dtypes.bfloat16");
}

TEST(WmmaModelsTest, WrongElementsPerThreadAreAnError) {
  Operands o = Zeros(Cuda16(), 32);
  o.a.pop_back();
  ExpectInvalid(WmmaArg(Cuda16(), "CUDA"), o, "A must have 8 elements per thread, it has 7");
  o = Zeros(Cuda16(), 32);
  o.c.push_back(o.c[0]);
  ExpectInvalid(WmmaArg(Cuda16(), "CUDA"), o, "C must have 4 elements per thread, it has 5");
  o = Zeros(Cuda16(), 32);
  o.a.clear();
  ExpectInvalid(WmmaArg(Cuda16(), "CUDA"), o, "A must have 8 elements per thread, it has 0");
  // AMD's 32-lane models tell RDNA3 from RDNA4 by A's elements
  const TensorCore& rdna = tensor_cores::AmdRdna4()[0];
  o = Zeros(tensor_cores::AmdRdna3()[0], 32);
  o.a.resize(12, o.a[0]);
  ExpectInvalid(WmmaArg(rdna, "AMD"), o, "A must have 8 or 16 elements per thread, it has 12");
}

TEST(WmmaModelsTest, LanesOfDifferentLengthsAreAnError) {
  Operands o = Zeros(Cuda16(), 32);
  o.b[2].pop_back();
  ExpectInvalid(WmmaArg(Cuda16(), "CUDA"), o, "lanes of different lengths: B element 2 has 31 threads");
}

TEST(WmmaModelsTest, WorkgroupNotAMultipleOfTheWarpIsAnError) {
  ExpectInvalid(WmmaArg(Cuda16(), "CUDA"), Zeros(Cuda16(), 48), "workgroup of 48 threads is not a multiple of the warp of 32");
  ExpectInvalid(WmmaArg(Cuda16(), "CUDA"), Zeros(Cuda16(), 0), "workgroup of 0 threads");
  const TensorCore& cdna = tensor_cores::AmdCdna3()[2];
  ExpectInvalid(WmmaArg(cdna, "AMD"), Zeros(cdna, 32), "not a multiple of the warp of 64");
}

TEST(WmmaModelsTest, Rdna3OperandsMustBeDuplicatedAcrossHalfWarps) {
  const TensorCore& tc = tensor_cores::AmdRdna3()[0];
  Operands o = Zeros(tc, 64);
  o.b[5][32 + 3] = 1.0;  // second warp, lane 3; its twin, lane 19, holds 0
  ExpectInvalid(WmmaArg(tc, "AMD"), o, "not duplicated across lanes: B element 5 is 1 on thread 35 but 0 on thread 51");
  o = Zeros(tc, 32);
  o.a[0][20] = 2.0;
  ExpectInvalid(WmmaArg(tc, "AMD"), o, "A element 0 is 0 on thread 4 but 2 on thread 20");
  // NaN twins are duplicates
  o = Zeros(tc, 32);
  o.a[1][4] = o.a[1][20] = std::nan("");
  EXPECT_TRUE(EmulateWmma(WmmaArg(tc, "AMD"), o.a, o.b, o.c).ok());
}

TEST(WmmaModelsTest, AnArgThatIsNotAWmmaArgIsAnError) {
  const TensorCore& tc = Cuda16();
  const Operands o = Zeros(tc, 32);
  const Arg good = WmmaArg(tc, "CUDA");
  auto with = [&](size_t i, Arg v) {
    std::vector<Arg> items(good.tuple().begin(), good.tuple().end());
    items[i] = std::move(v);
    return Arg::Tuple(std::move(items));
  };
  ExpectInvalid(Arg(3), o, "not a WMMA arg");
  ExpectInvalid(Arg(), o, "not a tuple of 8");
  ExpectInvalid(Arg::Tuple({"WMMA", Arg::Tuple({8, 16, 16})}), o, "not a tuple of 8");
  ExpectInvalid(with(0, 7), o, "name or device is not a string");
  ExpectInvalid(with(4, Arg::Tuple({})), o, "name or device is not a string");
  ExpectInvalid(with(1, "8,16,16"), o, "dims is not a tuple of 3");
  ExpectInvalid(with(1, Arg::Tuple({8, 16})), o, "dims is not a tuple of 3");
  ExpectInvalid(with(1, Arg::Tuple({8, 16, 16.0})), o, "dims are not small non-negative ints");
  ExpectInvalid(with(1, Arg::Tuple({8, -16, 16})), o, "dims are not small non-negative ints");
  ExpectInvalid(with(1, Arg::Tuple({8, 16, int64_t{1} << 40})), o, "dims are not small non-negative ints");
  ExpectInvalid(with(2, "half"), o, "dtype 'half' is not a dtype repr");
  ExpectInvalid(with(3, "dtypes.quux"), o, "dtype 'dtypes.quux' is not a dtype repr");
  ExpectInvalid(with(5, "32"), o, "threads is not a small non-negative int");
  ExpectInvalid(with(5, true), o, "threads is not a small non-negative int");
}

}  // namespace
}  // namespace tg
