// File: tinygrad/runtime/cpu/clang_inprocess_test.cc
// ClangInProcessCompiler against the `clang` process path on ClangRenderer's golden kernels
// (renderer/c/testdata): the same .text as `clang -c` with the same flags, bit-identical results
// to ClangCompiler's shared objects, compile errors as Status, the cache, 8 threads at once.
#include "tinygrad/runtime/cpu/clang_inprocess.h"

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tinygrad/runtime/cpu/buffer.h"
#include "tinygrad/runtime/cpu/compiler.h"
#include "tinygrad/runtime/cpu/llvm_compiler.h"
#include "tinygrad/runtime/cpu/program.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {
namespace {

constexpr char kTestdata[] = "tinygrad/renderer/c/testdata";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A golden kernel: its source and the parameters of its signature.
struct Kernel {
  std::string file, src, name;
  std::vector<size_t> buf_elems;  // per buffer parameter (dataN_SIZE; 64 when unsized)
  int num_vars = 0;
};

Kernel ParseKernel(const std::string& file) {
  Kernel k{file, ReadFile(absl::StrCat(kTestdata, "/", file)), "", {}, 0};
  std::smatch m;
  EXPECT_TRUE(std::regex_search(k.src, m, std::regex(R"(\nvoid (\w+)\(([^)]*)\))"))) << file;
  k.name = m[1];
  std::string params = m[2];
  std::regex data(R"(data\d+(_(\d+))?)"), var(R"(const int \w+)");
  for (auto it = std::sregex_iterator(params.begin(), params.end(), data);
       it != std::sregex_iterator(); ++it)
    k.buf_elems.push_back((*it)[2].matched ? std::stoul((*it)[2]) : 64);
  k.num_vars = static_cast<int>(std::distance(
      std::sregex_iterator(params.begin(), params.end(), var), std::sregex_iterator()));
  return k;
}

std::vector<Kernel> GoldenKernels() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kTestdata))
    if (e.path().extension() == ".c") files.push_back(e.path().filename());
  std::sort(files.begin(), files.end());
  std::vector<Kernel> out;
  for (const std::string& f : files) out.push_back(ParseKernel(f));
  return out;
}

std::string WithEntry(const Kernel& k) {
  return WithCpuEntry(k.src, k.name, static_cast<int>(k.buf_elems.size()), k.num_vars);
}

ClangInProcessOptions MemoryOnly() {
  ClangInProcessOptions o;
  o.flags = ClangInProcessOptions::DefaultFlags();
  o.cachelevel = 0;
  return o;
}

// The bytes of an ELF64 object's `.text` section ("" if none).
std::string TextSection(const std::string& obj) {
  if (obj.size() < sizeof(Elf64_Ehdr)) return "";
  Elf64_Ehdr eh;
  std::memcpy(&eh, obj.data(), sizeof(eh));
  auto shdr = [&](int i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, obj.data() + eh.e_shoff + static_cast<size_t>(i) * eh.e_shentsize, sizeof(sh));
    return sh;
  };
  Elf64_Shdr names = shdr(eh.e_shstrndx);
  for (int i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh = shdr(i);
    if (std::strcmp(obj.data() + names.sh_offset + sh.sh_name, ".text") == 0)
      return obj.substr(sh.sh_offset, sh.sh_size);
  }
  return "";
}

// Runs `prg` on buffers filled with a fixed byte pattern (nonzero everywhere: no division by
// zero) and vars = 8; returns every buffer's bytes afterwards.
std::vector<std::string> RunOnPattern(const Kernel& k, const CpuProgram& prg) {
  std::vector<std::string> bufs;
  for (size_t n : k.buf_elems) {
    std::string b(n * 8 + 64, '\0');
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<char>(0x31 + (i * 7) % 13);
    bufs.push_back(std::move(b));
  }
  std::vector<void*> ptrs;
  for (std::string& b : bufs) ptrs.push_back(b.data());
  std::vector<int32_t> vars(k.num_vars, 8);
  prg.Run(ptrs, vars, 1);
  return bufs;
}

TEST(ClangInProcessTest, CompilerIdNamesVersionFlagsAndHost) {
  ClangInProcessCompiler cc(MemoryOnly());
  ASSERT_TRUE(cc.init_status().ok()) << cc.init_status();
  EXPECT_NE(cc.id().find("clang version 14"), std::string::npos) << cc.id();
  EXPECT_NE(cc.id().find("in-process"), std::string::npos);
  EXPECT_NE(cc.id().find("-fno-math-errno"), std::string::npos);
  EXPECT_NE(cc.id().find("-target-cpu"), std::string::npos);  // -march=native resolved
  for (const std::string& a : cc.cc1_args()) {
    EXPECT_NE(a, "-disable-free");
    EXPECT_NE(a, "-mllvm");
    EXPECT_EQ(a.find("-fdebug-compilation-dir"), std::string::npos);
  }
}

// The object's .text equals `clang -c` with the same flags, for every golden kernel.
TEST(ClangInProcessTest, TextSectionEqualsClangProcess) {
  ClangInProcessCompiler cc(MemoryOnly());
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_clang_inproc_");
  ASSERT_TRUE(dir.ok()) << dir.status();
  std::vector<Kernel> kernels = GoldenKernels();
  ASSERT_GE(kernels.size(), 40u);
  int rejected = 0;
  for (const Kernel& k : kernels) {
    SCOPED_TRACE(k.file);
    std::string src = WithEntry(k), c = dir->path() + "/k.c", o = dir->path() + "/k.o";
    std::ofstream(c, std::ios::binary) << src;
    std::vector<std::string> argv{"clang"};
    for (const std::string& f : ClangInProcessOptions::DefaultFlags()) argv.push_back(f);
    argv.insert(argv.end(), {c, "-o", o});
    absl::StatusOr<ProcessResult> r = RunProcess(argv);
    ASSERT_TRUE(r.ok()) << r.status();
    absl::StatusOr<std::string> obj = cc.Compile(src);
    if (r->exit_code != 0) {  // clang 14 rejects some (__bf16 arithmetic): so must we
      ASSERT_FALSE(obj.ok());
      EXPECT_EQ(obj.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(obj.status().message().find("error:"), std::string::npos);
      ++rejected;
      continue;
    }
    ASSERT_TRUE(obj.ok()) << obj.status();
    std::string want = TextSection(ReadFile(o)), got = TextSection(*obj);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(got.size(), want.size());
    EXPECT_TRUE(got == want) << "the .text bytes differ";
  }
  EXPECT_LE(rejected, 3);
}

// Loaded with ORC, each golden kernel leaves the same bytes in every buffer as the shared
// object from the `clang` process path.
TEST(ClangInProcessTest, ResultsEqualClangProcessPath) {
  ClangInProcessCompiler cc(MemoryOnly());
  ClangCompilerOptions so_opts = ClangCompilerOptions::FromConfig(Config{});
  so_opts.cachelevel = 0;
  ClangCompiler so(so_opts);
  int ran = 0;
  for (const Kernel& k : GoldenKernels()) {
    SCOPED_TRACE(k.file);
    std::string src = WithEntry(k);
    absl::StatusOr<std::string> lib = so.Compile(src);
    if (!lib.ok()) continue;  // clang 14 rejects it (see TextSectionEqualsClangProcess)
    absl::StatusOr<CpuProgram> want = CpuProgram::Load(*lib, k.name);
    ASSERT_TRUE(want.ok()) << want.status();
    absl::StatusOr<std::string> obj = cc.Compile(src);
    ASSERT_TRUE(obj.ok()) << obj.status();
    absl::StatusOr<CpuProgram> got = LoadLlvmObject(*obj, k.name);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_TRUE(RunOnPattern(k, *got) == RunOnPattern(k, *want));
    ++ran;
  }
  EXPECT_GE(ran, 40);
}

TEST(ClangInProcessTest, SyntaxErrorIsStatusWithClangsMessage) {
  ClangInProcessCompiler cc(MemoryOnly());
  absl::StatusOr<std::string> obj = cc.Compile("void f(float* restrict a) { a[0] = 1.0f }\n");
  ASSERT_FALSE(obj.ok());
  EXPECT_EQ(obj.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(obj.status().message().find("kernel.c:1:"), std::string::npos) << obj.status();
  EXPECT_NE(obj.status().message().find("error: expected ';'"), std::string::npos)
      << obj.status();
  EXPECT_EQ(obj.status().message().find("\x1b["), std::string::npos);  // no color codes
  // an unknown identifier, and the compiler still works afterwards
  obj = cc.Compile("void f(float* restrict a) { a[0] = nope; }\n");
  ASSERT_FALSE(obj.ok());
  EXPECT_NE(obj.status().message().find("use of undeclared identifier 'nope'"), std::string::npos)
      << obj.status();
  EXPECT_TRUE(cc.Compile("void f(float* restrict a) { a[0] = 1.0f; }\n").ok());
}

TEST(ClangInProcessTest, BadFlagsFailEveryCompile) {
  ClangInProcessOptions o = MemoryOnly();
  o.flags.push_back("-fno-such-flag");
  ClangInProcessCompiler cc(o);
  EXPECT_EQ(cc.init_status().code(), absl::StatusCode::kFailedPrecondition);
  absl::StatusOr<std::string> obj = cc.Compile("void f(void) {}\n");
  ASSERT_FALSE(obj.ok());
  EXPECT_NE(obj.status().message().find("-fno-such-flag"), std::string::npos) << obj.status();
}

TEST(ClangInProcessTest, MemoryAndDiskCache) {
  absl::StatusOr<TempDir> dir = TempDir::Create("tg_clang_inproc_cache_");
  ASSERT_TRUE(dir.ok());
  ClangInProcessOptions o = MemoryOnly();
  o.cachelevel = 2;
  o.cache_dir = dir->path();
  std::string src = WithEntry(ParseKernel("pipe_add_float.c"));
  {
    ClangInProcessCompiler cc(o);
    absl::StatusOr<std::string> a = cc.Compile(src), b = cc.Compile(src);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b);
    EXPECT_EQ(cc.cache_stats().memory_hits, 1);
  }
  EXPECT_TRUE(std::filesystem::exists(dir->path() + "/compile_clang_jit"));
  ClangInProcessCompiler fresh(o);
  ASSERT_TRUE(fresh.Compile(src).ok());
  EXPECT_EQ(fresh.cache_stats().disk_hits, 1);
}

// 8 threads compile different golden kernels at once; each object equals the one-thread one.
TEST(ClangInProcessTest, EightThreadsCompileAtOnce) {
  ClangInProcessCompiler cc(MemoryOnly());
  std::vector<Kernel> kernels = GoldenKernels();
  std::vector<std::string> alone;
  for (int t = 0; t < 8; ++t) {
    absl::StatusOr<std::string> obj = cc.CompileUncached(WithEntry(kernels[t * 5]));
    ASSERT_TRUE(obj.ok()) << obj.status();
    alone.push_back(TextSection(*obj));
  }
  std::vector<std::string> got(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 3; ++rep) {
        absl::StatusOr<std::string> obj = cc.CompileUncached(WithEntry(kernels[t * 5]));
        got[t] = obj.ok() ? TextSection(*obj) : std::string(obj.status().message());
        if (got[t] != alone[t]) return;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_TRUE(got[t] == alone[t]) << kernels[t * 5].file;
}

}  // namespace
}  // namespace tg
