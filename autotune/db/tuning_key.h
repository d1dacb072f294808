// File: autotune/db/tuning_key.h
// The tuning database's key: what a cached search result is valid for.
//
// Extends the reference's beam-search cache key (tinygrad/codegen/opt/search.py beam_search:
// ast key, beam width, allow_test_size, device name, renderer suffix). A result is reused only
// when every input that changes what a candidate compiles to or how fast it runs is the same:
//   - the kernel AST's structure (AstTuningHash),
//   - the device class (CPU model and ISA flags / GPU arch, cores; autotune/key/device_class.h),
//   - the renderer and the kernel compiler's identity,
//   - the version of our code generator (tinygrad/base/version.h kVersion, bumped when generated
//     kernels may differ: the renderer's name alone does not change when its output does),
//   - the meaning of opts (kOptSemanticsVersion),
//   - the search settings (width and the BEAM_* knobs),
//   - the codegen options the candidates were lowered with (NOOPT's heuristic settings,
//     DEVECTORIZE, TRANSCENDENTAL, DISABLE_FAST_IDIV, ...: tinygrad/codegen/codegen_options.h).
//
// Example:
//   TuningKey key = TuningKey::Make(ast, device_class, settings, task.codegen);
//   key.Digest()   // 32 hex digits: the row's primary key
#ifndef AUTOTUNE_DB_TUNING_KEY_H_
#define AUTOTUNE_DB_TUNING_KEY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "autotune/key/device_class.h"
#include "autotune/key/search_settings.h"
#include "tinygrad/base/version.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/uop/uop.h"

namespace tg::autotune {

// Bump when what an Opt does to a kernel changes (tinygrad/codegen/opt: a new amount rule, an
// axis numbering change, a different TC lowering): stored opts then mean something else, and
// every older entry must miss.
inline constexpr int kOptSemanticsVersion = 1;

// The structural hash of a kernel AST (UOp::key(): op names, dtypes, args, children; stable
// across processes and machines), except that a SINK's KernelInfo name is left out: names are
// counted per process ("r_16_16n1"), and a name never changes the code.
uint64_t AstTuningHash(const UOp& ast);

struct TuningKey {
  uint64_t ast_hash = 0;  // AstTuningHash
  std::string device;     // DeviceClass::Digest()
  std::string renderer;   // RendererName()
  std::string compiler;   // the kernel compiler's identity (Device::compiler_id())
  std::string codegen_version = std::string(kVersion);  // tinygrad-cc's kVersion
  int opt_version = kOptSemanticsVersion;
  SearchSettings settings;
  // nullopt only in rows stored before the options were part of the key (they keep their
  // digests, and never match a key that Make builds).
  std::optional<CodegenOptions> codegen_options;

  static TuningKey Make(const UOp& ast, const DeviceClass& device, const SearchSettings& settings,
                        const CodegenOptions& codegen);

  // 32 hex digits of two independent stable hashes over every part (length-prefixed, so no
  // two different keys print the same text).
  std::string Digest() const;
  // "ast=<hex> device=<digest> renderer=... codegen=V opt_version=N settings=(...)": for people.
  std::string ToString() const;
  std::string AstHex() const;  // 16 hex digits of ast_hash

  friend bool operator==(const TuningKey&, const TuningKey&) = default;
};

}  // namespace tg::autotune

#endif  // AUTOTUNE_DB_TUNING_KEY_H_
