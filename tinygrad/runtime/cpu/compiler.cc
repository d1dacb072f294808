// File: tinygrad/runtime/cpu/compiler.cc
// Port of tinygrad/runtime/support/compiler_cpu.py: ClangJITCompiler (as a shared object).
#include "tinygrad/runtime/cpu/compiler.h"

#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/runtime/cpu/cpu_target.h"
#include "tinygrad/runtime/subprocess.h"

namespace tg {

std::vector<std::string> ClangCompilerOptions::DefaultFlags(std::string_view target) {
  std::vector<std::string> flags = {"-shared", "-x", "c"};
  for (std::string& f : CpuArchFlags(target)) flags.push_back(std::move(f));
  // -fno-math-errno makes __builtin_sqrt an instruction instead of a libm call
  for (const char* f : {"-O2", "-fPIC", "-ffreestanding", "-fno-math-errno", "-nostdlib", "-fno-ident"})
    flags.emplace_back(f);
  return flags;
}

ClangCompilerOptions ClangCompilerOptions::FromConfig(const Config& config) {
  ClangCompilerOptions o;
  if (!config.cc.empty()) o.cc = config.cc;
  o.flags = DefaultFlags();
  o.cachelevel = config.cachelevel;
  o.cache_dir = config.cache_dir;
  return o;
}

ClangCompiler::ClangCompiler(ClangCompilerOptions options)
    : options_(std::move(options)),
      cache_(CompileCacheDir(options_.cachelevel, options_.cache_dir, "clang_so")) {}

absl::StatusOr<std::string> ClangCompiler::CompilerId() {
  std::lock_guard<std::mutex> lock(id_mu_);
  if (compiler_id_.empty()) {
    ASSIGN_OR_RETURN(ProcessResult r, RunProcess({options_.cc, "--version"}));
    if (r.exit_code != 0)
      return absl::UnavailableError(absl::StrCat(options_.cc, " --version failed: ", r.output));
    compiler_id_ = options_.cc + "\n" + r.output;
  }
  return compiler_id_;
}

absl::StatusOr<uint64_t> ClangCompiler::CacheKey(std::string_view src) {
  ASSIGN_OR_RETURN(std::string id, CompilerId());
  StableHasher h;
  h.AddBytes("compile_clang_so").AddBytes(id).AddBytes(absl::StrJoin(options_.flags, " "));
  h.AddBytes(std::string(src));
  return h.Finish();
}

absl::StatusOr<std::string> ClangCompiler::CompileUncached(std::string_view src) const {
  ASSIGN_OR_RETURN(TempDir dir, TempDir::Create("tg_clang_"));
  std::string src_path = dir.path() + "/kernel.c", lib_path = dir.path() + "/kernel.so";
  {
    std::ofstream out(src_path, std::ios::binary);
    out.write(src.data(), static_cast<std::streamsize>(src.size()));
    if (!out.good()) return absl::UnavailableError("can't write " + src_path);
  }
  std::vector<std::string> argv{options_.cc};
  argv.insert(argv.end(), options_.flags.begin(), options_.flags.end());
  argv.insert(argv.end(), {src_path, "-o", lib_path});
  ASSIGN_OR_RETURN(ProcessResult r, RunProcess(argv));
  if (r.exit_code != 0)
    return absl::InvalidArgumentError(absl::StrCat("clang compile failed (exit ", r.exit_code,
                                                   "):\n", r.output));
  std::ifstream in(lib_path, std::ios::binary);
  std::string lib((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (lib.empty()) return absl::UnavailableError("compiler wrote no output: " + lib_path);
  return lib;
}

absl::StatusOr<std::string> ClangCompiler::Compile(std::string_view src) {
  ASSIGN_OR_RETURN(uint64_t key, CacheKey(src));
  if (std::optional<std::string> hit = cache_.Get(key)) return *std::move(hit);
  ASSIGN_OR_RETURN(std::string lib, CompileUncached(src));
  cache_.Put(key, lib);
  return lib;
}

}  // namespace tg
