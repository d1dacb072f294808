// File: autotune/db/tuning_key_test.cc
#include "autotune/db/tuning_key.h"

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {
namespace {

UOp Kernel(const std::string& name, int64_t n, std::vector<Arg> applied = {}) {
  UOp a = UOp::Variable("a", 0, 10);
  UOp r = UOp::Range(n, 0, AxisType::LOOP);
  KernelInfo info{.name = name, .applied_opts = std::move(applied)};
  return UOp::Make(Ops::SINK, dtypes::void_, {a * 4 + r}, info.ToArg());
}

TEST(TuningKeyTest, AstHashIsStructuralAndPinned) {
  // Pinned: the hash must be the same in every process and on every machine (UOp::key() is,
  // see uop_test's StructuralKeyIsStableAcrossProcesses). Changing it orphans cached results.
  EXPECT_EQ(AstTuningHash(Kernel("r_16", 16)), 0xa950045a625ef15dULL)
      << std::hex << AstTuningHash(Kernel("r_16", 16));
  EXPECT_EQ(AstTuningHash(Kernel("r_16", 16)), AstTuningHash(Kernel("r_16", 16)));
  EXPECT_NE(AstTuningHash(Kernel("r_16", 16)), AstTuningHash(Kernel("r_16", 17)));
}

TEST(TuningKeyTest, KernelNameIsNotPartOfTheAstHashButOptsAre) {
  EXPECT_EQ(AstTuningHash(Kernel("r_16", 16)), AstTuningHash(Kernel("r_16n1", 16)));
  EXPECT_NE(AstTuningHash(Kernel("r_16", 16)),
            AstTuningHash(Kernel("r_16", 16, {Arg::Tuple({Arg("UPCAST"), Arg(0), Arg(4)})})));
}

TEST(TuningKeyTest, OtherAstsHashAsTheirKey) {
  UOp e = UOp::Variable("a", 0, 10) + 1;
  EXPECT_EQ(AstTuningHash(e), e.key());
  UOp plain_sink = UOp::Sink({e});
  EXPECT_EQ(AstTuningHash(plain_sink), plain_sink.key());
}

TEST(TuningKeyTest, DigestSeesEveryPart) {
  DeviceClass dc{.device = "CPU",
                 .cpu_model = "AMD EPYC",
                 .isa_flags = {"avx2"},
                 .cores = 2,
                 .compiler_id = "clang -O2",
                 .renderer = "tg::ClangRenderer"};
  TuningKey base = TuningKey::Make(Kernel("r", 16), dc, SearchSettings{}, CodegenOptions{});
  EXPECT_EQ(base.device, dc.Digest());
  EXPECT_EQ(base.renderer, "tg::ClangRenderer");
  EXPECT_EQ(base.compiler, "clang -O2");
  EXPECT_EQ(base.opt_version, kOptSemanticsVersion);
  EXPECT_EQ(base.Digest().size(), 32u);
  EXPECT_EQ(base.Digest(), TuningKey::Make(Kernel("r", 16), dc, SearchSettings{}, CodegenOptions{}).Digest());
  std::set<std::string> seen = {base.Digest()};
  auto flip = [&](auto mutate) {
    TuningKey k = base;
    mutate(k);
    EXPECT_TRUE(seen.insert(k.Digest()).second) << k.ToString();
  };
  flip([](TuningKey& k) { k.ast_hash ^= 1; });
  flip([](TuningKey& k) { k.device = "0000000000000000"; });
  flip([](TuningKey& k) { k.renderer = "tg::LLVMRenderer"; });
  flip([](TuningKey& k) { k.compiler = "clang -O3"; });
  flip([](TuningKey& k) { k.codegen_version = "0.2.0"; });
  flip([](TuningKey& k) { k.opt_version += 1; });
  flip([](TuningKey& k) { k.settings.width = 4; });
  flip([](TuningKey& k) { k.settings.upcast_max = 128; });
  flip([](TuningKey& k) { k.settings.local_max = 512; });
  flip([](TuningKey& k) { k.settings.uops_max = 0; });
  flip([](TuningKey& k) { k.settings.min_progress_us = 0.02; });
  flip([](TuningKey& k) { k.settings.timeout_sec = 5; });
  flip([](TuningKey& k) { k.settings.padto = true; });
  flip([](TuningKey& k) { k.settings.simd = true; });
  flip([](TuningKey& k) { k.settings.nolocals = true; });
  flip([](TuningKey& k) { k.settings.tc = 0; });
  flip([](TuningKey& k) { k.settings.tc_opt = 0; });
  // every codegen option that changes a program
  flip([](TuningKey& k) { k.codegen_options->devectorize = 0; });
  flip([](TuningKey& k) { k.codegen_options->transcendental = 2; });
  flip([](TuningKey& k) { k.codegen_options->disable_fast_idiv = true; });
  flip([](TuningKey& k) { k.codegen_options->noopt = true; });
  flip([](TuningKey& k) { k.codegen_options->tc = 2; });
  flip([](TuningKey& k) { k.codegen_options->tc_select = 0; });
  flip([](TuningKey& k) { k.codegen_options->tc_opt = 1; });
  flip([](TuningKey& k) { k.codegen_options->nolocals = true; });
  flip([](TuningKey& k) { k.codegen_options->allow_tf32 = true; });
  // a row stored before the options were keyed
  flip([](TuningKey& k) { k.codegen_options.reset(); });
  // Length-prefixed parts: text moved from one part to the next is another key.
  flip([](TuningKey& k) {
    k.renderer = "tg::ClangRenderer clang";
    k.compiler = " -O2";
  });
  EXPECT_NE(base.ToString().find(" codegen=0.1.0 opt_version=1 settings=(width=2 "),
            std::string::npos)
      << base.ToString();
  EXPECT_NE(base.ToString().find(" codegen_options=(noopt=0 tc=1 "), std::string::npos) << base.ToString();
  // Checks and traces do not change programs: the same key.
  TuningKey traced = base;
  traced.codegen_options->debug = 6;
  traced.codegen_options->spec = false;
  EXPECT_EQ(traced.Digest(), base.Digest());
}

}  // namespace
}  // namespace tg::autotune
