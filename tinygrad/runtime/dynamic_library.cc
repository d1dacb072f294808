// File: tinygrad/runtime/dynamic_library.cc
#include "tinygrad/runtime/dynamic_library.h"

#include <dlfcn.h>
#include <link.h>

#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

// The sanitizers' runtimes refuse RTLD_DEEPBIND (they must interpose malloc & co. everywhere).
// Under them a kOwnSymbolsFirst library is not loaded at all: bound plainly, comgr's LLVM 15
// took our in-process LLVM 14's same-named symbols and crashed (an ASan run of tg compile).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TG_NO_DEEPBIND 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TG_NO_DEEPBIND 1
#endif
#endif

namespace tg {
namespace {

// dlerror() is a per-thread string that the next dl* call replaces; read it right after the
// failing call. The lock keeps two threads' dlopen/dlerror pairs apart where libc's dlerror
// state is process-wide.
std::mutex dl_mu;

std::string LastDlError() {
  const char* e = dlerror();
  return e ? e : "unknown dlopen error";
}

}  // namespace

absl::StatusOr<DynamicLibrary> DynamicLibrary::Open(std::string_view what,
                                                    std::span<const std::string> candidates) {
  return Open(what, candidates, Binding::kDefault);
}

absl::StatusOr<DynamicLibrary> DynamicLibrary::Open(std::string_view what,
                                                    std::span<const std::string> candidates,
                                                    Binding binding) {
  if (candidates.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("no file names given to look for ", std::string(what), " under"));
#if defined(TG_NO_DEEPBIND)
  if (binding == Binding::kOwnSymbolsFirst)
    return absl::NotFoundError(absl::StrCat(
        std::string(what), " (", absl::StrJoin(candidates, " or "),
        ") is not loaded in a sanitizer build: it must bind its own symbols first "
        "(RTLD_DEEPBIND), which the sanitizer runtime refuses"));
#endif
  std::vector<std::string> tried;
  std::lock_guard<std::mutex> lock(dl_mu);
  for (const std::string& name : candidates) {
    // RTLD_LOCAL: the vendor symbols stay out of the global namespace, so two copies (a
    // toolkit's and a Python wheel's) cannot collide.
    int flags = RTLD_NOW | RTLD_LOCAL;
#if defined(RTLD_DEEPBIND)
    if (binding == Binding::kOwnSymbolsFirst) flags |= RTLD_DEEPBIND;
#endif
    if (void* handle = dlopen(name.c_str(), flags))
      return DynamicLibrary(handle, std::string(what), name);
    tried.push_back(absl::StrCat("  ", name, ": ", LastDlError()));
  }
  return absl::NotFoundError(
      absl::StrCat(std::string(what), " not found; tried:\n", absl::StrJoin(tried, "\n")));
}

absl::StatusOr<void*> DynamicLibrary::Symbol(std::initializer_list<const char*> names) const {
  std::lock_guard<std::mutex> lock(dl_mu);
  for (const char* name : names) {
    dlerror();  // clears a stale error, so a null result is told apart from a null symbol
    void* address = dlsym(handle_, name);
    if (address != nullptr) return address;
  }
  return absl::NotFoundError(
      absl::StrCat(what_, " (", loaded_from_, ") has no symbol ", absl::StrJoin(names, " or ")));
}

std::string DynamicLibrary::file() const {
  struct link_map* map = nullptr;
  if (dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr) return "";
  return map->l_name;
}

}  // namespace tg
