// File: tinygrad/base/stack_probe.cc
#include "tinygrad/base/stack_probe.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "tinygrad/base/check.h"

#if defined(__SANITIZE_ADDRESS__)
#define TG_STACK_PROBE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TG_STACK_PROBE_ASAN 1
#endif
#endif
#ifdef TG_STACK_PROBE_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace tg {
namespace {

constexpr unsigned char kPaint = 0xA5;

void* Trampoline(void* fn) {
  (*static_cast<const std::function<void()>*>(fn))();
  return nullptr;
}

// Reads the finished thread's stack, which AddressSanitizer may still mark as poisoned (the
// redzones of the frames it had).
__attribute__((no_sanitize("address"))) size_t FirstTouched(const unsigned char* p, size_t n) {
  size_t i = 0;
  while (i < n && p[i] == kPaint) ++i;
  return i;
}

}  // namespace

size_t RunOnSmallStack(size_t stack_bytes, const std::function<void()>& fn) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t size = (stack_bytes + page - 1) / page * page;
  void* region = mmap(nullptr, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  TG_CHECK(region != MAP_FAILED) << "mmap of a " << size << "-byte test stack failed";
  unsigned char* base = static_cast<unsigned char*>(region);
  TG_CHECK(mprotect(base, page, PROT_NONE) == 0) << "mprotect of the guard page failed";
  unsigned char* stack = base + page;
  std::memset(stack, kPaint, size);

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  TG_CHECK(pthread_attr_setstack(&attr, stack, size) == 0) << "pthread_attr_setstack failed";
  pthread_attr_setguardsize(&attr, 0);
  pthread_t thread;
  TG_CHECK(pthread_create(&thread, &attr, Trampoline, const_cast<std::function<void()>*>(&fn)) == 0)
      << "pthread_create failed";
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);

  const size_t used = size - FirstTouched(stack, size);
#ifdef TG_STACK_PROBE_ASAN
  __asan_unpoison_memory_region(stack, size);  // the memory may be reused by another mapping
#endif
  munmap(region, size + page);
  return used;
}

}  // namespace tg
