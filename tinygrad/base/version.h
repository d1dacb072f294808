// File: tinygrad/base/version.h
//
// The one place the tinygrad-cc version is defined. Anything that must change when the
// compiler's output may change (e.g. the tuning DB key) reads these constants.

#ifndef TINYGRAD_BASE_VERSION_H_
#define TINYGRAD_BASE_VERSION_H_

#include <string_view>

namespace tg {

// Version of this implementation. Bump when generated kernels may differ.
inline constexpr std::string_view kVersion = "0.1.0";

// The tinygrad commit whose semantics this port follows (see tinygrad/README.md).
inline constexpr std::string_view kTinygradReferenceCommit =
    "35900290b246ec5f5eb49d2677c41db5e8b108d3";

// The C++ compiler that built this binary.
#if defined(__clang__)
inline constexpr std::string_view kCompilerVersion = __VERSION__;  // "Clang x.y.z ..."
#elif defined(__GNUC__)
inline constexpr std::string_view kCompilerVersion = "GCC " __VERSION__;
#else
inline constexpr std::string_view kCompilerVersion = "unknown compiler";
#endif

}  // namespace tg

#endif  // TINYGRAD_BASE_VERSION_H_
