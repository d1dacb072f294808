// File: tests/gpu/gemm_check.cc
// Runs the generated Hopper matmul kernels (renderer/cuda/gemm_sm90) on a GPU: every tiling BEAM
// may pick, each checked against a float64 product of sampled outputs and timed with CUDA events.
// A line per tiling: compile time, whether it is right, its best time and TFLOP/s.
//
//   gemm_check [--m 4096 --n 4096 --k 4096] [--dtype half|bfloat16] [--runs 10]
//              [--tilings BMxBNxSTAGES,...]     the tilings to run (default: all that fit)
//              [--loader cp.async|tma|tma-ws]   how the kernels load their tiles (gemm_sm90.h
//                                             GemmLoader; the copy engine's take tensor maps)
//              [--blocks N|sms]                 launch N blocks (or one per SM) in a 1-D grid
//                                             instead of one per output tile: for a persistent
//                                             kernel (an experiment) that loops over the tiles
//   gemm_check --print BMxBNxSTAGES [...]       the kernel's source, nothing run
//   gemm_check --compile-only [...]             the kernels compiled for sm_90a by NVRTC alone,
//                                             failing where ptxas serializes their MMAs,
//                                             no GPU (exit 3 without NVRTC)
//   gemm_check --source FILE --tilings T [...]  FILE's kernel (an edited --print of the same
//                                             loader: same name, parameters and launch) instead
//                                             of the generator's, checked and timed the same
//                                             way: kernel experiments on a GPU without changing
//                                             the generator
//
// Exit status: 0 every kernel run was right, 1 some was not, 2 usage or no GPU.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "tests/gpu/exact_inputs.h"
#include "tinygrad/renderer/cuda/gemm_sm90.h"
#include "tinygrad/runtime/cuda/buffer.h"
#include "tinygrad/runtime/cuda/context.h"
#include "tinygrad/runtime/cuda/driver_api.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/cuda/nvrtc_compiler.h"
#include "tinygrad/runtime/cuda/program.h"
#include "tinygrad/runtime/cuda/tensor_map.h"

namespace tg {
namespace {

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Exact for ExactInputs (normal numbers with few mantissa bits, and zero).
uint16_t ToHalfBits(float f) {
  if (f == 0.0f) return 0;
  const uint32_t u = Bits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const int exp = static_cast<int>((u >> 23) & 0xff) - 127 + 15;
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exp) << 10) | ((u >> 13) & 0x3ffu));
}

float FromHalfBits(uint16_t h) {
  const int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0)
    v = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mant | 0x400), exp - 25);
  return (h & 0x8000) ? -v : v;
}

float FromBf16Bits(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

absl::StatusOr<GemmTiling> ParseTiling(const std::string& s) {
  std::vector<std::string> parts = absl::StrSplit(s, 'x');
  GemmTiling t;
  if (parts.size() != 3 || !absl::SimpleAtoi(parts[0], &t.bm) ||
      !absl::SimpleAtoi(parts[1], &t.bn) || !absl::SimpleAtoi(parts[2], &t.stages))
    return absl::InvalidArgumentError(absl::StrCat("tiling '", s, "': want BMxBNxSTAGES"));
  return t;
}

int Run(int argc, char** argv) {
  GemmProblem p{.m = 4096,
                .n = 4096,
                .k = 4096,
                .in = dtypes::float16,
                .acc = dtypes::float32,
                .out = dtypes::float16};
  int runs = 10;
  std::string dtype = "half", loader_name = "cp.async", blocks_text, tilings_text, print_text;
  std::string source_file;
  bool compile_only = false;
  CLI::App app("gemm_check: the generated Hopper matmul kernels, checked and timed on a GPU "
               "(see the file comment)", "gemm_check");
  app.add_option("--m", p.m, "rows of a and of the product")->check(CLI::PositiveNumber);
  app.add_option("--n", p.n, "columns of b and of the product")->check(CLI::PositiveNumber);
  app.add_option("--k", p.k, "the reduced size")->check(CLI::PositiveNumber);
  app.add_option("--runs", runs, "timed runs per kernel")->check(CLI::PositiveNumber);
  app.add_option("--dtype", dtype, "input and output type")->check(CLI::IsMember({"half", "bfloat16"}));
  app.add_option("--loader", loader_name, "how the kernels load their tiles (gemm_sm90.h)")
      ->check(CLI::IsMember({"cp.async", "tma", "tma-ws"}));
  app.add_option("--blocks", blocks_text, "N blocks, or 'sms' (one per SM), in a 1-D grid");
  app.add_option("--tilings", tilings_text, "BMxBNxSTAGES,...: the tilings to run");
  app.add_option("--print", print_text, "BMxBNxSTAGES: print that kernel's source, run nothing");
  app.add_flag("--compile-only", compile_only, "compile for sm_90a with NVRTC alone, no GPU");
  app.add_option("--source", source_file, "a kernel file to run instead of the generator's");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (dtype == "bfloat16") p.in = p.out = dtypes::bfloat16;
  const GemmLoader loader = *GemmLoaderFromName(loader_name);  // IsMember checked the name
  int blocks = 0;  // 0: a block per output tile; -1: one per SM
  if (!blocks_text.empty() &&
      !(blocks_text == "sms" ? (blocks = -1, true)
                             : absl::SimpleAtoi(blocks_text, &blocks) && blocks > 0)) {
    std::fprintf(stderr, "gemm_check: --blocks: want a number of blocks >= 1 or 'sms', got '%s'\n",
                 blocks_text.c_str());
    return 2;
  }
  std::vector<GemmTiling> tilings;
  const std::string& listed = print_text.empty() ? tilings_text : print_text;
  if (!listed.empty()) {
    for (const std::string& t_text : std::vector<std::string>(absl::StrSplit(listed, ','))) {
      absl::StatusOr<GemmTiling> t = ParseTiling(t_text);
      if (!t.ok()) {
        std::fprintf(stderr, "gemm_check: %s\n", std::string(t.status().message()).c_str());
        return 2;
      }
      tilings.push_back(*t);
    }
  }
  std::string source;
  if (!source_file.empty()) {
    std::ifstream in(source_file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in || text.str().empty()) {
      std::fprintf(stderr, "gemm_check: --source %s: cannot read it\n", source_file.c_str());
      return 2;
    }
    source = text.str();
  }
  if (!print_text.empty()) {
    absl::StatusOr<GemmKernel> k = RenderGemmSm90(p, tilings[0], "gemm", loader);
    if (!k.ok()) {
      std::fprintf(stderr, "gemm_check: %s\n", std::string(k.status().message()).c_str());
      return 2;
    }
    std::printf("%s", k->src.c_str());
    return 0;
  }

  const CudaLibraryOptions libs = CudaLibraryOptions::FromEnvironment();
  if (compile_only) {
    // NVRTC alone: each kernel to an sm_90a CUBIN, or why not
    absl::StatusOr<std::shared_ptr<const NvrtcApi>> api = NvrtcApi::Load(libs);
    if (!api.ok()) {
      std::fprintf(stderr, "gemm_check: no NVRTC here: %s\n",
                   std::string(api.status().message()).c_str());
      return 3;
    }
    absl::StatusOr<std::unique_ptr<NvrtcCompiler>> c =
        NvrtcCompiler::Create(*api, {.arch = "sm_90a",
                                     .output = CudaBinaryKind::kCubin,
                                     .include_dirs = CudaIncludeDirs(libs)});
    if (!c.ok()) {
      std::fprintf(stderr, "gemm_check: %s\n", std::string(c.status().message()).c_str());
      return 2;
    }
    int failed = 0;
    for (const GemmTiling& t : tilings.empty() ? GemmSm90Tilings(loader) : tilings) {
      absl::StatusOr<GemmKernel> k = RenderGemmSm90(p, t, "gemm", loader);
      if (k.ok() && !source.empty()) k->src = source;
      std::string log;
      absl::StatusOr<std::string> cubin = k.ok() ? (*c)->CompileUncached(k->src, &log) : k.status();
      // a kernel whose MMAs ptxas serializes compiles, but fails here: it would be timed slow
      const std::vector<std::string> remarks = cubin.ok() ? PtxasPerformanceRemarks(log) : std::vector<std::string>{};
      std::printf("%lldx%lldx%lld %s\n", static_cast<long long>(t.bm), static_cast<long long>(t.bn),
                  static_cast<long long>(t.stages),
                  !cubin.ok()        ? std::string(cubin.status().message()).c_str()
                  : remarks.empty() ? absl::StrCat("compiled, ", cubin->size(), " bytes").c_str()
                                    : absl::StrCat("compiled, but ptxas: ", absl::StrJoin(remarks, "; ")).c_str());
      failed += cubin.ok() && remarks.empty() ? 0 : 1;
    }
    return failed ? 1 : 0;
  }
  absl::StatusOr<std::shared_ptr<const CudaDriverApi>> cu = CudaDriverApi::Load(libs);
  absl::StatusOr<std::shared_ptr<const NvrtcApi>> nvrtc = NvrtcApi::Load(libs);
  if (!cu.ok() || !nvrtc.ok()) {
    std::fprintf(stderr, "gemm_check: no CUDA here: %s %s\n",
                 std::string(cu.status().message()).c_str(),
                 std::string(nvrtc.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<std::shared_ptr<CudaContext>> ctx = CudaContext::Open(*cu, 0);
  if (!ctx.ok()) {
    std::fprintf(stderr, "gemm_check: %s\n", std::string(ctx.status().message()).c_str());
    return 2;
  }
  const CudaDeviceInfo& info = (*ctx)->info();
  std::printf("gemm_check: %s; %lldx%lldx%lld %s, loader %s\n", info.Describe().c_str(),
              static_cast<long long>(p.m), static_cast<long long>(p.n), static_cast<long long>(p.k),
              p.in.name().c_str(), std::string(GemmLoaderName(loader)).c_str());
  if (info.cc_major != 9 || info.cc_minor != 0) {
    std::fprintf(stderr, "gemm_check: the kernels are for sm_90a, this GPU is %s\n",
                 info.arch().c_str());
    return 2;
  }
  absl::StatusOr<std::unique_ptr<NvrtcCompiler>> compiler = NvrtcCompiler::Create(
      *nvrtc,
      {.arch = "sm_90a", .output = CudaBinaryKind::kCubin, .include_dirs = CudaIncludeDirs(libs)});
  if (!compiler.ok()) {
    std::fprintf(stderr, "gemm_check: %s\n", std::string(compiler.status().message()).c_str());
    return 2;
  }
  if (tilings.empty()) tilings = GemmSm90Tilings(loader);

  // inputs, as bits of the input dtype
  const std::vector<float> a = ExactInputs(p.m * p.k, 1), b = ExactInputs(p.k * p.n, 2);
  auto bits = [&](const std::vector<float>& v) {
    std::vector<uint16_t> out(v.size());
    for (size_t i = 0; i < v.size(); ++i)
      out[i] = p.in == dtypes::float16 ? ToHalfBits(v[i]) : static_cast<uint16_t>(Bits(v[i]) >> 16);
    return out;
  };
  const std::vector<uint16_t> a_bits = bits(a), b_bits = bits(b);
  auto da = CudaBuffer::Allocate(*ctx, a_bits.size() * 2);
  auto db = CudaBuffer::Allocate(*ctx, b_bits.size() * 2);
  auto dc = CudaBuffer::Allocate(*ctx, static_cast<size_t>(p.m * p.n) * 2);
  if (!da.ok() || !db.ok() || !dc.ok()) {
    std::fprintf(stderr, "gemm_check: allocation failed\n");
    return 2;
  }
  (void)da->CopyIn(std::as_bytes(std::span(a_bits)));
  (void)db->CopyIn(std::as_bytes(std::span(b_bits)));
  // sampled outputs: a tile's corners and random ones
  std::vector<std::pair<int64_t, int64_t>> samples;
  uint32_t x = 7;
  for (int s = 0; s < 4096; ++s) {
    x = x * 1664525u + 1013904223u;
    const int64_t r = (x >> 8) % p.m;
    x = x * 1664525u + 1013904223u;
    samples.push_back({r, (x >> 8) % p.n});
  }
  for (int64_t r : {int64_t{0}, p.m - 1})
    for (int64_t c : {int64_t{0}, p.n - 1}) samples.push_back({r, c});
  std::vector<double> ref(samples.size());
  for (size_t s = 0; s < samples.size(); ++s) {
    double acc = 0;
    for (int64_t k = 0; k < p.k; ++k)
      acc += static_cast<double>(a[samples[s].first * p.k + k]) * b[k * p.n + samples[s].second];
    ref[s] = acc;
  }

  const double flops = 2.0 * p.m * p.n * p.k;
  int wrong = 0;
  std::printf("%-14s %8s %8s %10s %10s %9s %s\n", "tiling", "smem_KiB", "compile", "max_err",
              "best_ms", "TFLOP/s", "result");
  for (const GemmTiling& t : tilings) {
    const std::string name = absl::StrCat(t.bm, "x", t.bn, "x", t.stages);
    if (absl::Status s = CheckGemmSm90(p, t, info.max_shared_per_block_optin, loader); !s.ok()) continue;
    absl::StatusOr<GemmKernel> k = RenderGemmSm90(p, t, "gemm", loader);
    if (k.ok() && !source.empty()) k->src = source;
    if (!k.ok()) {
      std::printf("%-14s render failed: %s\n", name.c_str(),
                  std::string(k.status().message()).c_str());
      ++wrong;
      continue;
    }
    const absl::Time t0 = absl::Now();
    absl::StatusOr<std::string> cubin = (*compiler)->CompileUncached(k->src);
    const double compile_ms = absl::ToDoubleMilliseconds(absl::Now() - t0);
    if (!cubin.ok()) {
      std::printf("%-14s compile failed: %s\n", name.c_str(),
                  std::string(cubin.status().message()).c_str());
      ++wrong;
      continue;
    }
    absl::StatusOr<CudaProgram> prg = CudaProgram::Load(*ctx, "gemm", *cubin);
    if (!prg.ok()) {
      std::printf("%-14s load failed: %s\n", name.c_str(),
                  std::string(prg.status().message()).c_str());
      ++wrong;
      continue;
    }
    // the copy engine's view of a and b, as the generator describes them
    std::vector<cuda_abi::CUtensorMap> maps;
    for (const TensorMapSpec& m : k->tensor_maps) {
      absl::StatusOr<cuda_abi::CUtensorMap> map = EncodeTiledTensorMap(
          **cu, {.element = p.in == dtypes::float16 ? TensorMapElement::kFloat16
                                                    : TensorMapElement::kBfloat16,
                 .address = m.buffer == p.a_slot ? da->address() : db->address(),
                 .cols = static_cast<uint64_t>(m.cols),
                 .rows = static_cast<uint64_t>(m.rows),
                 .row_stride_bytes = static_cast<uint64_t>(m.cols) * 2,
                 .box_cols = static_cast<uint32_t>(m.box_cols),
                 .box_rows = static_cast<uint32_t>(m.box_rows)});
      if (!map.ok()) {
        std::printf("%-14s tensor map: %s\n", name.c_str(),
                    std::string(map.status().message()).c_str());
        return 2;
      }
      maps.push_back(*map);
    }
    (void)dc->Fill(0xff);  // NaN everywhere: an output never written shows
    std::vector<CudaBuffer::CUdeviceptr> bufs(3);
    bufs[p.out_slot] = dc->address();
    bufs[p.a_slot] = da->address();
    bufs[p.b_slot] = db->address();
    const uint32_t grid_1d = static_cast<uint32_t>(blocks == -1 ? info.sm_count : blocks);
    const CudaLaunchDims dims{.grid = {blocks != 0 ? grid_1d
                                                   : static_cast<uint32_t>(k->global_size[0]),
                                       blocks != 0 ? 1 : static_cast<uint32_t>(k->global_size[1]),
                                       1},
                              .block = {static_cast<uint32_t>(k->local_size[0]), 1, 1},
                              .shared_bytes = static_cast<uint32_t>(k->dynamic_shared_bytes)};
    absl::StatusOr<double> first = prg->Launch(bufs, {}, dims, true, maps);
    if (!first.ok()) {
      std::printf("%-14s launch failed: %s\n", name.c_str(),
                  std::string(first.status().message()).c_str());
      return 1;  // a fault leaves the context unusable
    }
    std::vector<uint16_t> c(static_cast<size_t>(p.m * p.n));
    (void)dc->CopyOut(std::as_writable_bytes(std::span(c)));
    double max_err = 0;
    int bad = 0;
    std::string first_bad;
    for (size_t s = 0; s < samples.size(); ++s) {
      const uint16_t h = c[samples[s].first * p.n + samples[s].second];
      const double got = p.out == dtypes::float16 ? FromHalfBits(h) : FromBf16Bits(h);
      const double err = std::fabs(got - ref[s]) / (std::fabs(ref[s]) + 1.0);
      if (!(err <= (p.out == dtypes::float16 ? 2e-3 : 1e-2)) && ++bad <= 6)
        absl::StrAppend(&first_bad, " (", samples[s].first, ",", samples[s].second, ")=", got,
                        " want ", ref[s]);
      if (!(err <= max_err)) max_err = err;
    }
    double best = 1e30;
    for (int r = 0; r < runs; ++r) {
      absl::StatusOr<double> s = prg->Launch(bufs, {}, dims, true, maps);
      if (s.ok()) best = std::min(best, *s);
    }
    if (bad) ++wrong;
    std::printf(
        "%-14s %8lld %7.0fms %10.2e %10.4f %9.1f %s\n", name.c_str(),
        static_cast<long long>(k->dynamic_shared_bytes / 1024), compile_ms, max_err, best * 1e3,
        flops / best / 1e12,
        bad ? absl::StrCat("WRONG (", bad, " of ", samples.size(), " sampled)", first_bad).c_str()
            : "ok");
    std::fflush(stdout);
  }
  return wrong ? 1 : 0;
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) { return tg::Run(argc, argv); }
