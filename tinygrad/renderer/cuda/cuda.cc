// File: tinygrad/renderer/cuda/cuda.cc
// Port of tinygrad/renderer/cstyle.py: CUDARenderer (and uops_to_dtypes / wmma_args).
#include "tinygrad/renderer/cuda/cuda.h"

#include "tinygrad/renderer/cuda/gemm_sm90.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/codegen/tensor_core.h"
#include "tinygrad/renderer/c/float_patterns.h"
#include "tinygrad/renderer/cuda/gemm_sm90.h"
#include "tinygrad/uop/upat.h"

namespace tg {
namespace {

bool IsFp8(DType dt) { return dt.scalar() == dtypes::fp8e4m3 || dt.scalar() == dtypes::fp8e5m2; }
bool IsHalfOrBf16(DType dt) { return dt == dtypes::float16 || dt == dtypes::bfloat16; }

// mma.sync's spellings of the operand types.
std::string PtxTypeIn(DType dt) {
  switch (dt.scalar_type()) {
    case ScalarType::kFloat32: return "tf32";
    case ScalarType::kFloat16: return "f16";
    case ScalarType::kBFloat16: return "bf16";
    case ScalarType::kFp8e4m3: return "e4m3";
    case ScalarType::kFp8e5m2: return "e5m2";
    default: TG_CHECK(false) << "mma.sync has no input type " << dt; return "";
  }
}
std::string PtxTypeOut(DType dt) {
  if (dt == dtypes::float32) return "f32";
  TG_CHECK(dt == dtypes::float16) << "mma.sync has no accumulator type " << dt;
  return "f16";
}

// "%a, %a+1, ..." for operands [from, to).
std::string Operands(int from, int to) {
  std::vector<std::string> r;
  for (int i = from; i < to; ++i) r.push_back("%" + std::to_string(i));
  return absl::StrJoin(r, ", ");
}
// `"r"(a_pk[0]), "r"(a_pk[1]), ...`
std::string Constraints(const std::string& constraint, const std::string& packed, int n) {
  std::vector<std::string> r;
  for (int i = 0; i < n; ++i) r.push_back(absl::StrCat("\"", constraint, "\"(", packed, "[", i, "])"));
  return absl::StrJoin(r, ", ");
}

// How the generated matmuls load their tiles: cp.async, the loader measured on an H200 (0.73x
// cuBLAS at 4096). A copy-engine loader (gemm_sm90.h) takes its place once a GPU run shows it
// right and faster (tools/gpu_check steps gemm_kernels_tma, gemm_kernels_tma_ws); the engine
// already passes such a kernel's tensor maps (ProgramSpec::tensor_maps).
constexpr GemmLoader kGemmLoader = GemmLoader::kCpAsync;

}  // namespace

CudaRenderer::CudaRenderer(const CudaArch& arch) : arch_(arch) {
  device = "CUDA";
  global_max = LaunchDims{2147483647, 65535, 65535};
  local_max = LaunchDims{1024, 1024, 64};
  shared_max = 49152;
  tensor_cores = arch.sm() >= 89   ? tensor_cores::CudaSm89()
                 : arch.sm() >= 80 ? tensor_cores::CudaSm80()
                 : arch.sm() >= 75 ? tensor_cores::CudaSm75()
                                      : std::vector<TensorCore>{};
  // language options (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html)
  kernel_typedef = "extern \"C\" __global__ void __launch_bounds__({launch_bounds})";
  smem_prefix = "__shared__ __align__(16) ";
  smem_prefix_for_cast = false;
  barrier = "__syncthreads();";
  float4 = "make_float4";
  gep_arr_threshold = 8;
  type_map = {{ScalarType::kBFloat16, "nv_bfloat16"},
              {ScalarType::kFp8e4m3, "__nv_fp8_e4m3"},
              {ScalarType::kFp8e5m2, "__nv_fp8_e5m2"}};
  // code_for_op: the C-style set (CStyleLanguage's constructor), half/bf16 spellings below
  extra_matcher = &CudaExtraMatcher();
  // Hopper's generated matmuls (GEMM opt): wgmma, an sm_90a feature of exactly compute 9.0
  if (arch.major == 9 && arch.minor == 0) gemm_tilings = GemmSm90Tilings(kGemmLoader);
}

absl::Status CudaRenderer::CheckGemm(const GemmProblem& p, const GemmTiling& t) const {
  if (gemm_tilings.empty())
    return absl::UnimplementedError(
        absl::StrCat("CUDA ", arch_.name(), " generates no matmul kernels (sm_90 only)"));
  return CheckGemmSm90(p, t, kSm90SharedPerBlockOptIn, kGemmLoader);
}

absl::StatusOr<GemmKernel> CudaRenderer::RenderGemm(const GemmProblem& p, const GemmTiling& t,
                                                    std::string_view function_name) const {
  RETURN_IF_ERROR(CheckGemm(p, t));
  return RenderGemmSm90(p, t, function_name, kGemmLoader);
}

std::string CudaRenderer::CodeForOp(Ops op, std::span<const std::string> args, DType dtype) const {
  if (IsHalfOrBf16(dtype)) {
    switch (op) {
      case Ops::TRUNC: return absl::StrCat("htrunc(", args[0], ")");
      case Ops::SIN: return absl::StrCat("hsin(", args[0], ")");
      case Ops::LOG2: return absl::StrCat("hlog2(", args[0], ")");
      case Ops::EXP2: return absl::StrCat("hexp2(", args[0], ")");
      case Ops::SQRT: return absl::StrCat("hsqrt(", args[0], ")");
      case Ops::RECIPROCAL: return absl::StrCat("hrcp(", args[0], ")");
      default: break;
    }
  }
  return CStyleLanguage::CodeForOp(op, args, dtype);
}

std::string CudaRenderer::CodeForWorkitem(char kind, std::string_view dim) const {
  TG_CHECK(dim.size() == 1 && dim[0] >= '0' && dim[0] <= '2') << "bad launch dimension " << dim;
  char axis = static_cast<char>('x' + (dim[0] - '0'));
  switch (kind) {
    case 'g': return absl::StrCat("blockIdx.", std::string(1, axis));
    case 'l': return absl::StrCat("threadIdx.", std::string(1, axis));
    case 'i':
      return absl::StrCat("(blockIdx.", std::string(1, axis), "*blockDim.", std::string(1, axis),
                          "+threadIdx.", std::string(1, axis), ")");
    default: return CStyleLanguage::CodeForWorkitem(kind, dim);
  }
}

std::optional<std::string> CudaRenderer::StringRewrite(const UOp& u, const RenderNames& r) const {
  // a bit cast through a union (CUDA has no __builtin_bit_cast in device code for all types)
  if (u.op() == Ops::BITCAST)
    return absl::StrCat("tg_bitcast<", RenderDType(u.dtype()), ">((", RenderDType(u.src(0).dtype()), ")(",
                        NameOf(r, u.src(0)), "))");
  return BaseRewrite(u, r);
}

std::string CudaRenderer::RenderVectorPrefix(DType dt) const {
  std::string vec = RenderDType(dt), scal = RenderDType(dt.scalar());
  std::vector<std::string> names = VectorMemberNames(dt.count()), header;
  for (const std::string& n : names) header.push_back(scal + " " + n);
  std::string elems = absl::StrJoin(names, ", ");
  return absl::StrCat("struct __align__(", dt.itemsize(), ") ", vec, " { ", scal, " ", elems, "; }; __device__ ", vec,
                      " make_", vec, "(", absl::StrJoin(header, ", "), ") { ", vec, " r={", elems, "}; return r; }");
}

std::string CudaRenderer::RenderWmma(const Arg& wmma_arg, DType dtype_out) const {
  const std::string& name = wmma_arg[0].str();
  int64_t n = wmma_arg[1][0].int64(), m = wmma_arg[1][1].int64(), k = wmma_arg[1][2].int64();
  DType dtype_in = WmmaDTypeIn(wmma_arg);
  // per operand (a, b, c): its lanes, its rendered vector type, and its 32-bit registers
  DType dts[3] = {dtype_in, dtype_in, dtype_out};
  std::string types[3];
  int regs[3];
  for (int i = 0; i < 3; ++i) {
    int64_t size = 1;
    for (const Arg& axis : wmma_arg[6][i].tuple()) size *= axis[1].int64();
    types[i] = RenderDType(dts[i].vec(static_cast<int>(size)));
    regs[i] = static_cast<int>(size * dts[i].itemsize() / 4);  // 4: a CUDA register's bytes
  }
  int total = regs[0] + regs[1] + regs[2];
  std::string in = PtxTypeIn(dtype_in), out = PtxTypeOut(dtype_out);
  // mma operands => {c}, {a}, {b}, {c}
  return absl::StrCat(
      "__device__ ", types[2], " __", name, "(", types[0], " a, ", types[1], " b, ", types[2], " c){\n",
      "  int *a_pk = (int *)(&a), *b_pk = (int *)(&b), *c_pk = (int *)(&c);\n",
      "  asm(\"mma.sync.aligned.m", m, "n", n, "k", k, ".row.col.", out, ".", in, ".", in, ".", out, "\"\n",
      "      \"{", Operands(0, regs[2]), "}, {", Operands(regs[2], regs[2] + regs[0]), "},\"\n",
      "      \"{", Operands(total - regs[1], total), "}, {", Operands(0, regs[2]), "};\"\n",
      "    : ", Constraints("+r", "c_pk", regs[2]), "\n",
      "    : ", Constraints("r", "a_pk", regs[0]), ", ", Constraints("r", "b_pk", regs[1]), ");\n",
      "  return c;\n}");
}

std::string CudaRenderer::RenderKernel(const std::string& function_name, std::span<const std::string> kernel,
                                       std::span<const KernelParam> bufs, std::span<const UOp> uops,
                                       const std::vector<std::string>* /*prefix*/) const {
  std::vector<std::string> prefix = {
      "#define INFINITY (__int_as_float(0x7f800000))", "#define NAN (__int_as_float(0x7fffffff))",
      "template <class T, class F> __device__ __forceinline__ T tg_bitcast(F v) { union U { F f; T t; }; U u; u.f = v; "
      "return u.t; }"};
  std::vector<DType> used = UopsToDTypes(uops);
  auto any = [&](auto pred) { return std::any_of(used.begin(), used.end(), pred); };
  if (any([](DType d) { return IsFp8(d); })) prefix.push_back("#include <cuda_fp8.h>");
  if (any([](DType d) { return d.scalar() == dtypes::float16; })) prefix.push_back("#include <cuda_fp16.h>");
  if (any([](DType d) { return d.scalar() == dtypes::bfloat16; })) prefix.push_back("#include <cuda_bf16.h>");
  for (DType dt : used) {
    int c = dt.count();
    bool half_like = dt.scalar() == dtypes::float16 || dt.scalar() == dtypes::bfloat16;
    if ((half_like && (c == 4 || c == 8)) || (IsFp8(dt) && (c == 2 || c == 4 || c == 8 || c == 16)))
      prefix.push_back(RenderVectorPrefix(dt));
  }
  for (const auto& [arg, out] : WmmaArgs(uops)) prefix.push_back(RenderWmma(arg, out));
  return CStyleLanguage::RenderKernel(function_name, kernel, bufs, uops, &prefix);
}

const PatternMatcher& CudaExtraMatcher() {
  static const auto* const kRules = [] {
    std::vector<DType> fp8s = {dtypes::fp8e4m3, dtypes::fp8e5m2};
    PatternMatcher own({
        // fp8 -> another fp8 goes through float
        Rule(UPat(Ops::CAST).dtype(fp8s).src({UPat::Var("x", fp8s)}).named("y"),
             [](const Match& m) {
               const UOp &x = m["x"], &y = m["y"];
               if (x.dtype() == y.dtype()) return UOp();
               return x.cast(dtypes::float32).cast(y.dtype());
             }),
    });
    return new PatternMatcher(CreateNonNativeFloatPats(fp8s, /*casting=*/false) + own + CStyleExtraPm());
  }();
  return *kRules;
}

}  // namespace tg
