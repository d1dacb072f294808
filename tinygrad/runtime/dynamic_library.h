// File: tinygrad/runtime/dynamic_library.h
// A shared library opened at run time (dlopen) and its symbols (dlsym), with every failure an
// absl::Status that names the library and the symbol. This is how the GPU runtimes reach
// vendor libraries (NVRTC, nvJitLink, the CUDA driver) without a build-time dependency on them,
// as tinygrad reaches them through ctypes (runtime/support/c.py DLL).
//
// A library, once opened, stays loaded for the life of the process: the handle is never
// dlclose'd. The vendor libraries start threads and register exit handlers that must not
// outlive their code, and the reference's ctypes.CDLL never unloads either. So a
// DynamicLibrary is a plain value (copyable).
//
// Example:
//   ASSIGN_OR_RETURN(DynamicLibrary lib, DynamicLibrary::Open("NVRTC", {"libnvrtc.so.13"}));
//   int (*version)(int*, int*) = nullptr;
//   RETURN_IF_ERROR(lib.Bind(version, {"nvrtcVersion"}));
#ifndef TINYGRAD_RUNTIME_DYNAMIC_LIBRARY_H_
#define TINYGRAD_RUNTIME_DYNAMIC_LIBRARY_H_

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tg {

class DynamicLibrary {
 public:
  // Opens the first of `candidates` that loads: each is a file name the dynamic loader looks up
  // ("libnvrtc.so.13") or a path. NotFound when none loads; the message names `what` and every
  // candidate tried with the loader's reason. No candidates is InvalidArgument.
  static absl::StatusOr<DynamicLibrary> Open(std::string_view what,
                                             std::span<const std::string> candidates);

  // How the library's own references are resolved.
  enum class Binding {
    kDefault,  // the process's symbols first (a symbol this process already has wins)
    // The library's own symbols and its dependencies' first (RTLD_DEEPBIND): for a library that
    // brings a second copy of something this process already links, e.g. comgr's LLVM 15 next to
    // our in-process LLVM 14, whose same-named C++ symbols would otherwise be taken from ours.
    kOwnSymbolsFirst,
  };
  static absl::StatusOr<DynamicLibrary> Open(std::string_view what,
                                             std::span<const std::string> candidates,
                                             Binding binding);

  // The address of the first of `names` the library exports; NotFound naming the library and
  // the symbols when it has none of them.
  absl::StatusOr<void*> Symbol(std::initializer_list<const char*> names) const;

  // Symbol() cast to the function pointer type of `fn`, which the caller declares with the
  // entry point's C signature. `fn` is untouched on error.
  template <typename Fn>
  absl::Status Bind(Fn*& fn, std::initializer_list<const char*> names) const {
    absl::StatusOr<void*> address = Symbol(names);
    if (!address.ok()) return address.status();
    fn = reinterpret_cast<Fn*>(*address);
    return absl::OkStatus();
  }

  // What was asked for ("NVRTC") and the candidate that loaded ("libnvrtc.so.13").
  const std::string& what() const { return what_; }
  const std::string& loaded_from() const { return loaded_from_; }
  // The file the loader opened, as a path ("/usr/local/cuda/lib64/libnvrtc.so.13" for a
  // loaded_from of "libnvrtc.so.13"): where the library's toolkit is. "" if the loader cannot say.
  std::string file() const;

 private:
  DynamicLibrary(void* handle, std::string what, std::string loaded_from)
      : handle_(handle), what_(std::move(what)), loaded_from_(std::move(loaded_from)) {}

  void* handle_ = nullptr;  // never dlclose'd: see the file comment
  std::string what_;
  std::string loaded_from_;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_DYNAMIC_LIBRARY_H_
