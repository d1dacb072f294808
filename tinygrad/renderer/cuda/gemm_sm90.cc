// File: tinygrad/renderer/cuda/gemm_sm90.cc
// The generated kernel, per block (one output tile of bm x bn):
//   - shared memory holds `stages` k-tiles of a (bm x 64, k contiguous) and b (64 x bn, n
//     contiguous), each in the 128-byte swizzle wgmma reads: a row of 64 halves is 128 bytes,
//     its 16-byte chunk c lies at chunk c ^ (row % 8); b is cut into 64-column strips so that
//     its rows are 128 bytes too (wgmma reads it "N-major": the transpose bit set);
//   - every thread copies 16-byte chunks of upcoming tiles with cp.async (no registers), so
//     `stages - 2` tiles are in flight while the tensor cores work on the current one and the
//     previous one's MMAs may still run;
//   - warpgroup g (128 threads) multiplies rows 64g..64g+63 of the tile by all bn columns: four
//     wgmma.mma_async m64n<bn>k16 per k-tile, float accumulators in registers;
//   - at the end each thread casts its accumulators and stores them (the wgmma D layout: warp w
//     of the group holds rows 16w.., lane l row l/4 and l/4+8, columns 8i + 2(l%4) and +1).
// The async proxy (wgmma) only sees what the generic proxy (cp.async) wrote after a
// fence.proxy.async; a stage is refilled only after every warpgroup's MMAs on it completed.
//
// The copy-engine loaders (GemmLoader::kTma, kTmaWarpSpecialized) keep that shared layout and
// the MMAs, and load each stage with cp.async.bulk.tensor: 64 x 64 boxes of a and b through the
// tensor maps the launch passes (the 128-byte swizzle is the map's), issued by one thread, a
// stage's arrival counted in bytes on its mbarrier ("full"). kTma keeps the loop above (block
// barrier per k-tile, the stage of tile kt - 2 refilled at kt). kTmaWarpSpecialized adds a
// producer warpgroup whose one thread refills each stage as soon as every MMA thread has
// arrived on its second mbarrier ("empty") after its MMAs on it completed: the MMA warpgroups
// never wait for one another.
#include "tinygrad/renderer/cuda/gemm_sm90.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/substitute.h"
#include "tinygrad/base/status_macros.h"

namespace tg {
namespace {

constexpr int64_t kRowBytes = 128;  // one swizzled row: 64 halves
constexpr int64_t kAlign = 1024;    // the 128-byte swizzle's period, 8 rows

int64_t StageBytes(const GemmTiling& t) { return (t.bm + t.bn) * kRowBytes; }

// The shared memory a launch asks for: the stages and the slack to align them to 1024 bytes.
int64_t SharedBytes(const GemmTiling& t) { return t.stages * StageBytes(t) + kAlign; }

int64_t Threads(const GemmTiling& t, GemmLoader loader);

absl::Status CheckTiling(const GemmProblem& p, const GemmTiling& t, GemmLoader loader) {
  if (t.bm < 64 || t.bm % 64 != 0 || t.bm > 256)
    return absl::InvalidArgumentError(absl::StrCat(
        "GEMM tile of ", t.bm, " rows: must be 64, 128, 192 or 256 (64 per warpgroup)"));
  if (t.bn < 64 || t.bn % 64 != 0 || t.bn > 256)
    return absl::InvalidArgumentError(
        absl::StrCat("GEMM tile of ", t.bn, " columns: must be 64, 128, 192 or 256"));
  if (t.stages < 3 || t.stages > 8)
    return absl::InvalidArgumentError(
        absl::StrCat("GEMM with ", t.stages,
                     " stages: must be 3 to 8 (one being refilled, one "
                     "multiplied, one whose MMAs may still run)"));
  if (p.m <= 0 || p.n <= 0 || p.k <= 0 || p.m % t.bm != 0 || p.n % t.bn != 0 ||
      p.k % GemmTiling::kBk != 0)
    return absl::InvalidArgumentError(absl::StrCat("GEMM tiling ", t.bm, "x", t.bn, " (k by ",
                                                   GemmTiling::kBk, ") does not divide the ", p.m,
                                                   "x", p.n, "x", p.k, " matmul"));
  // the kernel's int sizes and index math, and CUDA's grid (y at most 65535 blocks)
  if (p.m > INT32_MAX || p.n > INT32_MAX || p.k > INT32_MAX || p.m / t.bm > 65535)
    return absl::InvalidArgumentError(absl::StrCat("GEMM of ", p.m, "x", p.n, "x", p.k,
                                                   ": sizes past 2^31, or more than 65535 tile "
                                                   "rows of ",
                                                   t.bm));
  // registers: bn/2 float accumulators per thread (and some 40 more), 64K registers per SM for
  // the block's threads (a producer warpgroup's too)
  if (Threads(t, loader) * (t.bn / 2 + 40) > 65536)
    return absl::InvalidArgumentError(absl::StrCat("GEMM tile ", t.bm, "x", t.bn, " (",
                                                   std::string(GemmLoaderName(loader)),
                                                   "): its accumulators do not fit one SM's "
                                                   "registers"));
  return absl::OkStatus();
}

// CUDA's names of the element types.
absl::StatusOr<std::string> CudaType(DType d) {
  if (d == dtypes::float16) return std::string("half");
  if (d == dtypes::bfloat16) return std::string("__nv_bfloat16");
  if (d == dtypes::float32) return std::string("float");
  return absl::InvalidArgumentError(absl::StrCat("GEMM has no CUDA type for ", d.name()));
}

// One wgmma of a 64 x bn x 16 product, accumulating into d[0 .. bn/2).
std::string WgmmaFunction(const GemmTiling& t, std::string_view in_ptx) {
  const int64_t acc = t.bn / 2;
  std::string regs, outs;
  for (int64_t i = 0; i < acc; ++i) {
    absl::StrAppend(&regs, i == 0 ? "" : ", ", "%", i);
    absl::StrAppend(&outs, i == 0 ? "" : ", ", "\"+f\"(d[", i, "])");
  }
  return absl::Substitute(
      R"(__device__ __forceinline__ void tg_wgmma(float* d, unsigned long long da, unsigned long long db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n$0k16.f32.$1.$1 {$2}, %$3, %$4, p, 1, 1, 0, 1;\n}\n"
               : $5 : "l"(da), "l"(db));
}
)",
      t.bn, std::string(in_ptx), regs, acc, acc + 1, outs);
}

// The pieces of the kernels, with @NAME@ placeholders for the problem, the tiling and the types.
constexpr std::string_view kDescriptor = R"(
// a shared-memory matrix descriptor of a 128-byte-swizzled operand (bits: address / 16, leading
// and stride byte offsets / 16, swizzle mode 1 = 128 bytes)
__device__ __forceinline__ unsigned long long tg_desc(unsigned addr, unsigned lead, unsigned stride) {
  return (unsigned long long)((addr & 0x3FFFF) >> 4) | ((unsigned long long)((lead & 0x3FFFF) >> 4) << 16) |
         ((unsigned long long)((stride & 0x3FFFF) >> 4) << 32) | (1ull << 62);
}
)";
constexpr std::string_view kCpAsyncCopy = R"(__device__ __forceinline__ void tg_cp16(unsigned dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
}
)";
constexpr std::string_view kStorePair =
    "__device__ __forceinline__ void tg_store2(@OUT_T@* o, float x, float y) { @STORE_PAIR@ }\n";

// mbarriers and the copy engine's 2-D tile load (the map is a __grid_constant__ parameter: its
// generic address is what cp.async.bulk.tensor takes).
constexpr std::string_view kCopyEngine = R"(struct __align__(64) tg_tmap { unsigned long long v[16]; };
__device__ __forceinline__ void tg_bar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void tg_bar_expect(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void tg_bar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void tg_bar_wait(unsigned bar, unsigned parity) {
  asm volatile("{\n.reg .pred p;\nTG_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra TG_WAIT;\n}\n" :: "r"(bar), "r"(parity) : "memory");
}
__device__ __forceinline__ void tg_tma2d(unsigned dst, const tg_tmap* map, int x, int y, unsigned bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n"
               :: "r"(dst), "l"(reinterpret_cast<unsigned long long>(map)), "r"(x), "r"(y), "r"(bar) : "memory");
}
)";

// One k-tile's MMAs, every kernel's: warpgroup wg's 64 rows of a by all of b from stage kt, the
// MMAs of the k-tile before it complete once this returns (wait_group 1).
constexpr std::string_view kMmaStep = R"(    const unsigned sa = base + (kt % STAGES) * STAGE + wg * 64 * 128, sb = base + (kt % STAGES) * STAGE + BM * 128;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
    for (int kk = 0; kk < BK / 16; ++kk)
      tg_wgmma(d, tg_desc(sa + kk * 32, 16, 1024), tg_desc(sb + kk * 2048, BK * 128, 1024));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
)";

// The cp.async kernel, up to its epilogue.
constexpr std::string_view kCpAsyncKernel = R"(
extern "C" __global__ void __launch_bounds__(@THREADS@, 1) @NAME@(@P0@, @P1@, @P2@) {
  constexpr int M = @M@, N = @N@, K = @K@, BM = @BM@, BN = @BN@, BK = 64, STAGES = @STAGES@;
  constexpr int KT = K / BK, STAGE = (BM + BN) * 128, THREADS = @THREADS@;
  const @IN_T@* __restrict__ A = data@A@;
  const @IN_T@* __restrict__ B = data@B@;
  @OUT_T@* __restrict__ C = data@C@;
  extern __shared__ __align__(128) unsigned char tg_smem[];
  const unsigned base = ((unsigned)__cvta_generic_to_shared(tg_smem) + 1023u) & ~1023u;
  const int tid = threadIdx.x, wg = tid >> 7;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  // k-tile kt into stage s: a's rows of 8 chunks, b's 64 rows of BN/8 chunks in 64-column strips
  auto load = [&](int kt, int s) {
    const unsigned sa = base + s * STAGE, sb = sa + BM * 128;
#pragma unroll
    for (int i = tid; i < BM * 8; i += THREADS) {
      const int r = i >> 3, c = i & 7;
      tg_cp16(sa + r * 128 + ((c ^ (r & 7)) << 4), A + (size_t)(m0 + r) * K + kt * BK + c * 8);
    }
#pragma unroll
    for (int i = tid; i < BK * (BN / 8); i += THREADS) {
      const int r = i / (BN / 8), j = i % (BN / 8), c = j & 7;
      tg_cp16(sb + (j >> 3) * (BK * 128) + r * 128 + ((c ^ (r & 7)) << 4),
              B + (size_t)(kt * BK + r) * N + n0 + j * 8);
    }
  };
  float d[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) d[i] = 0.0f;
  // Tiles kt + 1 .. kt + STAGES - 2 are being copied while tile kt is multiplied and the MMAs of
  // tile kt - 1 may still run: the stage refilled at kt is the one of tile kt - 2, whose MMAs
  // every warpgroup waited for (wait_group 1 at kt - 1) before this iteration's barrier.
#pragma unroll
  for (int s = 0; s < STAGES - 2; ++s) {
    if (s < KT) load(s, s);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  for (int kt = 0; kt < KT; ++kt) {
    asm volatile("cp.async.wait_group %0;\n" :: "n"(STAGES - 3));
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    if (kt + STAGES - 2 < KT) load(kt + STAGES - 2, (kt + STAGES - 2) % STAGES);
    asm volatile("cp.async.commit_group;\n" ::);
@MMA_STEP@
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
)";

// The copy-engine kernels' start: the maps after the buffers, the full (and empty) barriers, and
// the stage load one thread issues.
constexpr std::string_view kCopyEngineStart = R"(
extern "C" __global__ void __launch_bounds__(@THREADS@, 1) @NAME@(@P0@, @P1@, @P2@,
    const __grid_constant__ tg_tmap tma_a, const __grid_constant__ tg_tmap tma_b) {
  constexpr int M = @M@, N = @N@, K = @K@, BM = @BM@, BN = @BN@, BK = 64, STAGES = @STAGES@;
  constexpr int KT = K / BK, STAGE = (BM + BN) * 128;
  @OUT_T@* __restrict__ C = data@C@;
  extern __shared__ __align__(128) unsigned char tg_smem[];
  const unsigned base = ((unsigned)__cvta_generic_to_shared(tg_smem) + 1023u) & ~1023u;
  const int tid = threadIdx.x, wg = tid >> 7;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  // full[s]: stage s holds its next tile; empty[s] (warp-specialized): every MMA thread is done with it
  __shared__ __align__(8) unsigned long long tg_bars[2 * STAGES];
  const unsigned full = (unsigned)__cvta_generic_to_shared(tg_bars), empty = full + 8 * STAGES;
  if (tid == 0) {
#pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      tg_bar_init(full + 8 * s, 1);
      tg_bar_init(empty + 8 * s, BM / 64 * 128);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  // k-tile kt into stage s (one thread): a's BM rows and b's BN columns, 64 x 64 boxes each
  auto load = [&](int kt, int s) {
    const unsigned sa = base + s * STAGE, sb = sa + BM * 128, bar = full + 8 * s;
    tg_bar_expect(bar, STAGE);
#pragma unroll
    for (int i = 0; i < BM / 64; ++i) tg_tma2d(sa + i * 8192, &tma_a, kt * BK, m0 + 64 * i, bar);
#pragma unroll
    for (int j = 0; j < BN / 64; ++j) tg_tma2d(sb + j * 8192, &tma_b, n0 + 64 * j, kt * BK, bar);
  };
)";

// kTma: the cp.async kernel's loop, thread 0 loading.
constexpr std::string_view kTmaLoop = R"(  float d[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) d[i] = 0.0f;
#pragma unroll
  for (int s = 0; s < STAGES - 2; ++s)
    if (tid == 0 && s < KT) load(s, s);
  for (int kt = 0; kt < KT; ++kt) {
    tg_bar_wait(full + 8 * (kt % STAGES), (kt / STAGES) & 1);
    __syncthreads();
    if (tid == 0 && kt + STAGES - 2 < KT) load(kt + STAGES - 2, (kt + STAGES - 2) % STAGES);
    __syncwarp();  // warp 0 whole again before the warpgroup-wide (.aligned) MMA instructions
@MMA_STEP@
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
)";

// kTmaWarpSpecialized: the last warpgroup produces, the others multiply.
constexpr std::string_view kTmaWarpSpecializedLoop = R"(  if (wg == BM / 64) {
    // the producer warpgroup: one thread refills each stage as soon as every consumer released it
    if (tid == BM / 64 * 128) {
      for (int kt = 0; kt < KT; ++kt) {
        if (kt >= STAGES) tg_bar_wait(empty + 8 * (kt % STAGES), ((kt / STAGES) - 1) & 1);
        load(kt, kt % STAGES);
      }
    }
    return;
  }
  // a consumer warpgroup: rows 64 wg .. 64 wg + 63 of the tile; each of its threads releases a
  // stage once the MMAs on it are complete (wait_group 1: those of the previous k-tile)
  float d[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) d[i] = 0.0f;
  for (int kt = 0; kt < KT; ++kt) {
    tg_bar_wait(full + 8 * (kt % STAGES), (kt / STAGES) & 1);
@MMA_STEP@
    if (kt > 0) tg_bar_arrive(empty + 8 * ((kt - 1) % STAGES));
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
)";

// Every kernel's end: each MMA thread casts and stores its accumulators.
constexpr std::string_view kEpilogue = R"(  const int warp = (tid & 127) >> 5, lane = tid & 31;
  const int row = m0 + wg * 64 + warp * 16 + (lane >> 2);
#pragma unroll
  for (int i = 0; i < BN / 8; ++i) {
    const int col = n0 + i * 8 + (lane & 3) * 2;
    tg_store2(C + (size_t)row * N + col, d[4 * i], d[4 * i + 1]);
    tg_store2(C + (size_t)(row + 8) * N + col, d[4 * i + 2], d[4 * i + 3]);
  }
}
)";

// Threads of a block: a warpgroup per 64 rows, and the producer's.
int64_t Threads(const GemmTiling& t, GemmLoader loader) {
  return (t.bm / 64 + (loader == GemmLoader::kTmaWarpSpecialized ? 1 : 0)) * 128;
}

// The mbarriers of the copy-engine kernels (static shared memory beside the dynamic stages).
int64_t BarrierBytes(const GemmTiling& t, GemmLoader loader) {
  return loader == GemmLoader::kCpAsync ? 0 : 2 * 8 * t.stages;
}

}  // namespace

std::string_view GemmLoaderName(GemmLoader loader) {
  switch (loader) {
    case GemmLoader::kCpAsync:
      return "cp.async";
    case GemmLoader::kTma:
      return "tma";
    case GemmLoader::kTmaWarpSpecialized:
      return "tma-ws";
  }
  return "?";
}

std::optional<GemmLoader> GemmLoaderFromName(std::string_view name) {
  for (GemmLoader l : {GemmLoader::kCpAsync, GemmLoader::kTma, GemmLoader::kTmaWarpSpecialized})
    if (GemmLoaderName(l) == name) return l;
  return std::nullopt;
}

absl::Status CheckGemmSm90(const GemmProblem& p, const GemmTiling& t, int64_t shared_max,
                           GemmLoader loader) {
  if (absl::Status s = CheckTiling(p, t, loader); !s.ok()) return s;
  const int64_t bytes = SharedBytes(t) + BarrierBytes(t, loader);
  if (bytes > shared_max)
    return absl::InvalidArgumentError(absl::StrCat(
        "GEMM tiling ", t.bm, "x", t.bn, " with ", t.stages, " stages needs ", bytes,
        " bytes of shared memory, more than the ", shared_max, " a block may have"));
  return absl::OkStatus();
}

std::vector<GemmTiling> GemmSm90Tilings(GemmLoader loader) {
  std::vector<GemmTiling> out;
  for (int64_t bm : {64, 128, 256})
    for (int64_t bn : {64, 128, 256})
      for (int64_t stages : {3, 4, 5, 6})
        if (CheckTiling({.m = bm, .n = bn, .k = 64}, {bm, bn, stages}, loader).ok())
          out.push_back({bm, bn, stages});
  return out;
}

absl::StatusOr<GemmKernel> RenderGemmSm90(const GemmProblem& p, const GemmTiling& t,
                                          std::string_view function_name, GemmLoader loader) {
  if (absl::Status s = CheckTiling(p, t, loader); !s.ok()) return s;
  if (!(p.in == dtypes::float16 || p.in == dtypes::bfloat16) || p.acc != dtypes::float32 ||
      !(p.out == dtypes::float16 || p.out == dtypes::bfloat16 || p.out == dtypes::float32))
    return absl::InvalidArgumentError(absl::StrCat(
        "GEMM on sm_90 takes half or bfloat16 inputs, a float sum and a half, bfloat16 or float "
        "output, not ",
        p.in.name(), " -> ", p.acc.name(), " -> ", p.out.name()));
  if (!(p.out_slot != p.a_slot && p.out_slot != p.b_slot && p.a_slot != p.b_slot &&
        p.out_slot >= 0 && p.a_slot >= 0 && p.b_slot >= 0 && p.out_slot < 3 && p.a_slot < 3 &&
        p.b_slot < 3))
    return absl::InvalidArgumentError(absl::StrCat("GEMM buffer slots ", p.out_slot, ", ", p.a_slot,
                                                   ", ", p.b_slot,
                                                   ": want 0, 1 and 2 in some order"));
  const std::string in_ptx = p.in == dtypes::float16 ? "f16" : "bf16";
  ASSIGN_OR_RETURN(std::string in_t, CudaType(p.in));
  ASSIGN_OR_RETURN(std::string out_t, CudaType(p.out));
  const std::string fn(function_name);

  // the parameters in slot order
  std::string params[3];
  params[p.out_slot] = absl::StrCat(out_t, "* __restrict__ data", p.out_slot);
  params[p.a_slot] = absl::StrCat("const ", in_t, "* __restrict__ data", p.a_slot);
  params[p.b_slot] = absl::StrCat("const ", in_t, "* __restrict__ data", p.b_slot);

  const int64_t threads = Threads(t, loader);
  std::string src = "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n";
  absl::StrAppend(&src, WgmmaFunction(t, in_ptx));
  // The pair stored at once, per output type.
  std::string store_pair;
  if (p.out == dtypes::float32) {
    store_pair = "*reinterpret_cast<float2*>(o) = make_float2(x, y);";
  } else if (p.out == dtypes::float16) {
    store_pair = "*reinterpret_cast<half2*>(o) = __floats2half2_rn(x, y);";
  } else {
    store_pair = "*reinterpret_cast<__nv_bfloat162*>(o) = __floats2bfloat162_rn(x, y);";
  }
  const std::vector<std::pair<std::string, std::string>> values = {
      {"@THREADS@", absl::StrCat(threads)},
      {"@NAME@", fn},
      {"@P0@", params[0]},
      {"@P1@", params[1]},
      {"@P2@", params[2]},
      {"@M@", absl::StrCat(p.m)},
      {"@N@", absl::StrCat(p.n)},
      {"@K@", absl::StrCat(p.k)},
      {"@BM@", absl::StrCat(t.bm)},
      {"@BN@", absl::StrCat(t.bn)},
      {"@STAGES@", absl::StrCat(t.stages)},
      {"@IN_T@", in_t},
      {"@OUT_T@", out_t},
      {"@STORE_PAIR@", store_pair},
      {"@MMA_STEP@\n", std::string(kMmaStep)},
      {"@A@", absl::StrCat(p.a_slot)},
      {"@B@", absl::StrCat(p.b_slot)},
      {"@C@", absl::StrCat(p.out_slot)}};
  const bool copy_engine = loader != GemmLoader::kCpAsync;
  std::string kernel;
  for (std::string_view piece :
       copy_engine ? std::vector<std::string_view>{kDescriptor, kCopyEngine, kStorePair,
                                                   kCopyEngineStart,
                                                   loader == GemmLoader::kTma
                                                       ? kTmaLoop
                                                       : kTmaWarpSpecializedLoop,
                                                   kEpilogue}
                   : std::vector<std::string_view>{kDescriptor, kCpAsyncCopy, kStorePair,
                                                   kCpAsyncKernel, kEpilogue})
    kernel.append(piece);
  absl::StrAppend(&src, absl::StrReplaceAll(kernel, values));
  GemmKernel k;
  k.src = std::move(src);
  k.function_name = fn;
  k.global_size = {p.n / t.bn, p.m / t.bm, 1};
  k.local_size = {threads, 1, 1};
  k.dynamic_shared_bytes = SharedBytes(t);
  if (copy_engine) {
    // a as (m, k) and b as (k, n), each in 64 x 64 boxes: the launch encodes the maps
    k.tensor_maps = {{.buffer = p.a_slot, .element = p.in, .rows = p.m, .cols = p.k,
                      .box_rows = 64, .box_cols = 64},
                     {.buffer = p.b_slot, .element = p.in, .rows = p.k, .cols = p.n,
                      .box_rows = 64, .box_cols = 64}};
  }
  return k;
}

}  // namespace tg
