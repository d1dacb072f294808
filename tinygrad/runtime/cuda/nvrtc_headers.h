// File: tinygrad/runtime/cuda/nvrtc_headers.h
// The CUDA headers a kernel may include, read into memory once and handed to NVRTC with every
// compile (nvrtcCreateProgram's header list), so that NVRTC opens no file while it compiles.
// A worker's sandboxed child (workers/sandbox.h) can open no file at all: with -I alone, every
// half kernel failed there ("cannot open source file cuda_fp16.h: Permission denied", seen on
// an H200 on 2026-11-27) while float kernels, which include nothing, ran.
//
// What is read: the headers tinygrad's CUDARenderer includes (kCudaKernelHeaders) and,
// transitively, every header an #include line of theirs names that an include dir holds.
// Names found in no include dir are left to NVRTC: its built-in headers and the C++ library's
// (<utility>, <cstring>), which --minimal keeps out of the way anyway. NVRTC matches an
// #include against the list by the name as written, for the headers' own includes too.
//
// Example (at the compiler's creation, before any sandbox):
//   ASSIGN_OR_RETURN(std::vector<NvrtcHeader> headers,
//                    ReadHeaderClosure(CudaIncludeDirs(libs), kCudaKernelHeaders));
#ifndef TINYGRAD_RUNTIME_CUDA_NVRTC_HEADERS_H_
#define TINYGRAD_RUNTIME_CUDA_NVRTC_HEADERS_H_

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tg {

// What renderer/cuda/cuda.cc may put in a kernel's prefix (one per dtype family).
inline constexpr std::array<std::string_view, 3> kCudaKernelHeaders = {"cuda_fp16.h", "cuda_bf16.h",
                                                                       "cuda_fp8.h"};

// A header as NVRTC is given it: the name an #include uses and the text.
struct NvrtcHeader {
  std::string name;
  std::string text;
  friend bool operator==(const NvrtcHeader&, const NvrtcHeader&) = default;
};

// More than this in all is not a CUDA include dir (the closure above is about 2 MB).
inline constexpr size_t kMaxHeaderBytes = 64 << 20;

// `roots` and every header they include, transitively, each from the first of `include_dirs`
// that holds it (a quoted include is looked for next to the including header first, as the
// preprocessor does), in the order found. Names no dir holds are skipped. Errors: a file that
// exists but cannot be read (Internal, naming it), more than kMaxHeaderBytes
// (ResourceExhausted).
absl::StatusOr<std::vector<NvrtcHeader>> ReadHeaderClosure(std::span<const std::string> include_dirs,
                                                           std::span<const std::string_view> roots);

// The names an #include line of `text` names (<x> and "x" alike), in order; each with
// whether it was quoted. Includes through a macro are not followed.
struct IncludeLine {
  std::string name;
  bool quoted = false;
  friend bool operator==(const IncludeLine&, const IncludeLine&) = default;
};
std::vector<IncludeLine> IncludesOf(std::string_view text);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_NVRTC_HEADERS_H_
