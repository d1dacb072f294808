// File: tinygrad/runtime/hip/hip_compiler_test.cc
// Compiles the HIP renderer's golden sources (tinygrad/renderer/hip/testdata) to AMD code
// objects: RDNA3 (gfx1100, WMMA) through clang, CDNA2 (gfx90a, MFMA) through comgr, CDNA3's
// instructions on gfx940 through clang. Needs comgr, clang-15 and rocm-device-libs (see
// tools/bootstrap), not a GPU; each test skips, with the reason printed, where its compiler
// is missing.
#include "tinygrad/runtime/hip/hip_compiler.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tg {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kTestdata[] = "tinygrad/renderer/hip/testdata";

std::string ReadGolden(const std::string& name) {
  std::ifstream f(std::string(kTestdata) + "/" + name + ".hip");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The kernel's name: what follows the launch-bounds attribute of its definition.
std::string KernelName(const std::string& src) {
  size_t at = src.find("amdgpu_flat_work_group_size(");
  if (at == std::string::npos) return "";
  at = src.find(")))", at);
  if (at == std::string::npos) return "";
  at += 4;
  return src.substr(at, src.find('(', at) - at);
}

// EF_AMDGPU_MACH_AMDGCN_* (llvm/BinaryFormat/ELF.h) of the targets compiled here.
uint32_t ElfMach(std::string_view processor) {
  if (processor == "gfx90a") return 0x3f;
  if (processor == "gfx940") return 0x40;
  if (processor == "gfx1100") return 0x41;
  return 0;
}

// A 64-bit little-endian ELF shared object for AMDGPU (EM_AMDGPU = 224) whose e_flags name
// `processor`, holding the kernel's symbol.
void ExpectCodeObject(const std::string& elf, std::string_view processor, const std::string& kernel,
                      const std::string& what) {
  ASSERT_GE(elf.size(), 64u) << what;
  EXPECT_EQ(elf.substr(0, 4), "\x7f" "ELF") << what;
  EXPECT_EQ(elf[4], 2) << what << ": ELFCLASS64";
  uint16_t type = 0, machine = 0;
  uint32_t flags = 0;
  std::memcpy(&type, elf.data() + 16, 2);
  std::memcpy(&machine, elf.data() + 18, 2);
  std::memcpy(&flags, elf.data() + 48, 4);
  EXPECT_EQ(type, 3) << what << ": ET_DYN";
  EXPECT_EQ(machine, 224) << what << ": EM_AMDGPU";
  EXPECT_EQ(flags & 0xff, ElfMach(processor)) << what << ": e_flags mach";
  EXPECT_THAT(elf, HasSubstr(kernel + ".kd")) << what << ": the kernel descriptor symbol";
}

class HipCompilerTest : public ::testing::Test {
 protected:
  void SetUp() override { tools_ = HipToolchainOptions::FromEnvironment(); }

  // The compiler, or nullptr after GTEST_SKIP when this machine lacks the toolchain.
  std::unique_ptr<HipCompiler> Make(const std::string& arch,
                                    HipCompilerBackend backend = HipCompilerBackend::kAuto) {
    absl::StatusOr<std::unique_ptr<HipCompiler>> c =
        HipCompiler::Create(tools_, {.arch = arch, .backend = backend});
    if (!c.ok()) {
      if (c.status().code() == absl::StatusCode::kNotFound) {
        skipped_ = true;
        return nullptr;
      }
      ADD_FAILURE() << arch << ": " << c.status();
      return nullptr;
    }
    return *std::move(c);
  }

  // Compiles every golden for `arch` and checks the code objects.
  void CompileGoldens(const std::string& arch, HipCompilerBackend want,
                      const std::vector<std::string>& names) {
    if (want == HipCompilerBackend::kComgr) {
      // not installed, or refused (a sanitizer build loads no comgr): the automatic choice is
      // then clang, and this test's point is comgr's
      absl::StatusOr<std::unique_ptr<HipCompiler>> comgr =
          HipCompiler::Create(tools_, {.arch = arch, .backend = want});
      if (!comgr.ok() && comgr.status().code() == absl::StatusCode::kNotFound)
        GTEST_SKIP() << "no comgr for " << arch << " here: " << comgr.status();
    }
    std::unique_ptr<HipCompiler> c = Make(arch);
    if (skipped_) GTEST_SKIP() << "no HIP compiler for " << arch << " here (see tools/bootstrap)";
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->backend(), want) << c->compiler_id();
    for (const std::string& name : names) {
      std::string src = ReadGolden(name);
      ASSERT_FALSE(src.empty()) << name << ": golden missing";
      absl::StatusOr<std::string> elf = c->CompileUncached(src);
      ASSERT_TRUE(elf.ok()) << name << " for " << arch << ": " << elf.status();
      ExpectCodeObject(*elf, c->target().processor, KernelName(src), name + " for " + arch);
    }
  }

  HipToolchainOptions tools_;
  bool skipped_ = false;
};

// The kernels rendered for RDNA3 without tensor cores, which any target compiles.
const std::vector<std::string> kPlainKernels = {
    "pipe_add_float",  "pipe_add_float4",   "pipe_argmax",       "pipe_bf16",
    "pipe_bf16_math",  "pipe_big_sum",      "pipe_bitcast",      "pipe_bool_vec",
    "pipe_casts",      "pipe_conv2d",       "pipe_cumsum",       "pipe_double_to_half",
    "pipe_exp_log_sin", "pipe_fp8",         "pipe_fp8_to_half",  "pipe_fp8_vec",
    "pipe_group_local_matmul", "pipe_grouptop_sum", "pipe_half", "pipe_half4",
    "pipe_half_math",  "pipe_int_cmp_bool", "pipe_int_ops",      "pipe_layernorm",
    "pipe_local_sum",  "pipe_long_ulong",   "pipe_matmul",       "pipe_matmul_big",
    "pipe_matmul_unroll", "pipe_max_relu",  "pipe_pad_conv",     "pipe_pad_gated",
    "pipe_softmax",    "pipe_sqrt_recip",   "pipe_sum_reduce",   "pipe_to_bf16",
    "pipe_uint_shift", "pipe_var",          "pipe_where_cmp",    "lin_alu_float",
    "lin_alu_half",    "lin_alu_int",       "lin_control",       "lin_misc",
    "lin_vector",
};

TEST_F(HipCompilerTest, Gfx1100CompilesRdna3KernelsAndWmmaThroughClang) {
  // comgr 2.4 does not know gfx11: clang compiles it (with comgr 3, comgr would).
  std::vector<std::string> names = kPlainKernels;
  for (const char* tc : {"tc_rdna3_0_16_16_16_half_float", "tc_rdna3_1_16_16_16_half_half",
                         "tc_rdna3_2_16_16_16_bfloat16_float", "tc_rdna3_half_emulated",
                         "tc_rdna3_half_heuristic", "tc_rdna3_half_pad",
                         "tc_rdna3_half_upcast_local", "lin_wmma_rdna3_16_16_16_half_float",
                         "lin_wmma_rdna3_16_16_16_half_half",
                         "lin_wmma_rdna3_16_16_16_bfloat16_float"})
    names.push_back(tc);
  std::unique_ptr<HipCompiler> probe = Make("gfx1100");
  if (skipped_) GTEST_SKIP() << "no HIP compiler for gfx1100 here (see tools/bootstrap)";
  ASSERT_NE(probe, nullptr);
  CompileGoldens("gfx1100", probe->backend(), names);
}

TEST_F(HipCompilerTest, Gfx90aCompilesKernelsAndMfmaThroughComgr) {
  std::vector<std::string> names = kPlainKernels;
  // CDNA3's fp16/bf16 MFMA builtins exist on CDNA2 already; its fp8 ones do not.
  for (const char* tc : {"pipe_gfx90a_softmax", "pipe_cdna3_bf16", "tc_cdna3_2_16_16_16_half_float",
                         "tc_cdna3_3_16_16_16_bfloat16_float", "tc_cdna3_half_heuristic",
                         "tc_cdna3_bf16_heuristic"})
    names.push_back(tc);
  CompileGoldens("gfx90a", HipCompilerBackend::kComgr, names);
}

TEST_F(HipCompilerTest, Gfx940CompilesCdna3MfmaIncludingFp8) {
  // gfx942 (the reference's CDNA3 arch) is unknown to LLVM 15; gfx940 has the same MFMA and fp8
  // instructions.
  CompileGoldens("gfx940", HipCompilerBackend::kClang,
                 {"pipe_cdna3_bf16", "pipe_cdna3_fp8", "pipe_cdna3_fp8_e5m2",
                  "tc_cdna3_0_16_16_32_fp8e5m2_float", "tc_cdna3_1_16_16_32_fp8e4m3_float",
                  "tc_cdna3_2_16_16_16_half_float", "tc_cdna3_3_16_16_16_bfloat16_float",
                  "tc_cdna3_half_heuristic", "tc_cdna3_bf16_heuristic"});
}

TEST_F(HipCompilerTest, TargetIdFeaturesReachTheCompiler) {
  std::unique_ptr<HipCompiler> c = Make("gfx90a:sramecc+:xnack-");
  if (skipped_) GTEST_SKIP() << "no HIP compiler for gfx90a here (see tools/bootstrap)";
  ASSERT_NE(c, nullptr);
  std::string src = ReadGolden("pipe_add_float");
  absl::StatusOr<std::string> elf = c->Compile(src);
  ASSERT_TRUE(elf.ok()) << elf.status();
  ExpectCodeObject(*elf, "gfx90a", KernelName(src), "gfx90a:sramecc+:xnack-");
  uint32_t flags = 0;
  std::memcpy(&flags, elf->data() + 48, 4);
  // Code object v4 target-ID bits: xnack off (0x200 in 0x300), sramecc on (0xc00 in 0xc00).
  EXPECT_EQ(flags & 0x300, 0x200u);
  EXPECT_EQ(flags & 0xc00, 0xc00u);
}

// Rejected source: InvalidArgument with the compiler's diagnostics, from either back end.
TEST_F(HipCompilerTest, BadSourceIsAnErrorCarryingTheLog) {
  const std::string bad = "extern \"C\" __attribute__((global)) void k(float* a) { a[0] = undefined_thing; }\n";
  for (auto [arch, backend] : {std::pair{"gfx90a", HipCompilerBackend::kComgr},
                               std::pair{"gfx1100", HipCompilerBackend::kClang}}) {
    skipped_ = false;
    std::unique_ptr<HipCompiler> c = Make(arch, backend);
    if (skipped_) {
      std::printf("[ SKIPPED  ] %s through %s: not installed here\n", arch,
                  std::string(HipCompilerBackendName(backend)).c_str());
      continue;
    }
    ASSERT_NE(c, nullptr);
    absl::StatusOr<std::string> elf = c->Compile(bad);
    EXPECT_EQ(elf.status().code(), absl::StatusCode::kInvalidArgument) << arch << ": " << elf.status();
    EXPECT_THAT(elf.status().message(), HasSubstr("undefined_thing")) << arch;
    EXPECT_THAT(elf.status().message(), HasSubstr("error")) << arch;
  }
}

TEST_F(HipCompilerTest, TargetsNoCompilerKnowsAreInvalidArguments) {
  absl::StatusOr<std::unique_ptr<HipCompiler>> c =
      HipCompiler::Create(tools_, {.arch = "gfx1100", .backend = HipCompilerBackend::kComgr});
  if (c.status().code() == absl::StatusCode::kNotFound) GTEST_SKIP() << c.status();
  if (c.ok()) GTEST_SKIP() << "this comgr knows gfx1100 (comgr 3): " << (*c)->compiler_id();
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(), HasSubstr("does not know gfx1100"));
  EXPECT_THAT(c.status().message(), HasSubstr("gfx90a"));  // the list of what it knows

  // gfx1200 (RDNA4): neither comgr 2.4 nor clang 15 has it.
  c = HipCompiler::Create(tools_, {.arch = "gfx1200"});
  if (c.ok()) GTEST_SKIP() << "this toolchain knows gfx1200: " << (*c)->compiler_id();
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument) << c.status();
  EXPECT_THAT(c.status().message(), HasSubstr("no HIP compiler for gfx1200"));
  EXPECT_THAT(c.status().message(), HasSubstr("comgr: "));
  EXPECT_THAT(c.status().message(), HasSubstr("clang: "));

  c = HipCompiler::Create(tools_, {.arch = "sm_90"});
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(), HasSubstr("bad AMD GPU target \"sm_90\""));
}

TEST_F(HipCompilerTest, MissingToolchainPiecesAreNamed) {
  HipToolchainOptions none = tools_;
  none.comgr_path = "/nonexistent/libamd_comgr.so.2";
  none.clang_path = "/nonexistent/clang";
  absl::StatusOr<std::unique_ptr<HipCompiler>> c = HipCompiler::Create(none, {.arch = "gfx90a"});
  if (c.status().code() == absl::StatusCode::kNotFound &&
      absl::StrContains(c.status().message(), "device libraries"))
    GTEST_SKIP() << c.status();
  EXPECT_EQ(c.status().code(), absl::StatusCode::kNotFound) << c.status();
  EXPECT_THAT(c.status().message(), HasSubstr("/nonexistent/libamd_comgr.so.2"));
  EXPECT_THAT(c.status().message(), HasSubstr("/nonexistent/clang"));

  HipToolchainOptions no_libs = tools_;
  no_libs.device_lib_dir = "/nonexistent/bitcode";
  c = HipCompiler::Create(no_libs, {.arch = "gfx90a"});
  EXPECT_EQ(c.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(c.status().message(), HasSubstr("/nonexistent/bitcode"));
}

TEST_F(HipCompilerTest, CompilesAreCachedAndIdsNameNoMachinePath) {
  std::unique_ptr<HipCompiler> c = Make("gfx90a");
  if (skipped_) GTEST_SKIP() << "no HIP compiler for gfx90a here (see tools/bootstrap)";
  ASSERT_NE(c, nullptr);
  std::string src = ReadGolden("pipe_add_float");
  absl::StatusOr<std::string> first = c->Compile(src);
  absl::StatusOr<std::string> second = c->Compile(src);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(c->cache_stats().memory_hits, 1);
  EXPECT_THAT(c->compiler_id(), HasSubstr("gfx90a"));
  EXPECT_THAT(c->compiler_id(), HasSubstr("ocml.bc"));
  EXPECT_THAT(c->compiler_id(), Not(HasSubstr("/")));
}

}  // namespace
}  // namespace tg
