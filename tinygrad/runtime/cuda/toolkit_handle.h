// File: tinygrad/runtime/cuda/toolkit_handle.h
// What NVRTC's and nvJitLink's C APIs have alike, for their compilers: a handle that must be
// destroyed on every path out of a compile (an nvrtcProgram, an nvJitLinkHandle), and a log
// handed out in two calls (its size, then its bytes).
//
// Example:
//   ToolkitHandle<nvrtcProgram> prog(api.nvrtcDestroyProgram);
//   api.nvrtcCreateProgram(prog.out(), ...);
//   std::string log = ReadToolkitText([&](size_t* n) { return api.nvrtcGetProgramLogSize(prog.get(), n) == 0; },
//                                     [&](char* p) { return api.nvrtcGetProgramLog(prog.get(), p) == 0; });
#ifndef TINYGRAD_RUNTIME_CUDA_TOOLKIT_HANDLE_H_
#define TINYGRAD_RUNTIME_CUDA_TOOLKIT_HANDLE_H_

#include <cstddef>
#include <string>

namespace tg {

// Owns a handle of a toolkit library: `destroy` (the library's nvrtcDestroyProgram,
// nvJitLinkDestroy, ...) runs when the holder goes, if the handle was made.
template <typename Handle, typename Result>
class ToolkitHandle {
 public:
  explicit ToolkitHandle(Result (*destroy)(Handle*)) : destroy_(destroy) {}
  ToolkitHandle(const ToolkitHandle&) = delete;
  ToolkitHandle& operator=(const ToolkitHandle&) = delete;
  ~ToolkitHandle() {
    if (handle_ != nullptr) destroy_(&handle_);
  }
  Handle* out() { return &handle_; }
  Handle get() const { return handle_; }

 private:
  Result (*const destroy_)(Handle*);
  Handle handle_ = nullptr;
};

// Text a library hands out in two calls, each answering whether it succeeded: `get_size(&n)`,
// then `get(buffer of n)`. Trailing NULs and newlines are dropped; "" when a call fails or
// there is nothing.
template <typename GetSize, typename Get>
std::string ReadToolkitText(GetSize get_size, Get get) {
  size_t size = 0;
  if (!get_size(&size) || size == 0) return "";
  std::string text(size, '\0');
  if (!get(text.data())) return "";
  while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
  return text;
}

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_TOOLKIT_HANDLE_H_
