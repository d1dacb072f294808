// File: tinygrad/base/check.h
// Invariant checks: TG_CHECK is a bug in our code (never the caller's bad input, which gets an
// absl::Status). A failed check prints the condition, location and streamed context, then aborts.
//
// Example:
//   TG_CHECK(a == b) << "a=" << a << " b=" << b;
#ifndef TINYGRAD_BASE_CHECK_H_
#define TINYGRAD_BASE_CHECK_H_

#include <sstream>

namespace tg::base_internal {

// Collects the streamed message; its destructor reports and aborts.
class CheckFailure {
 public:
  CheckFailure(const char* cond, const char* file, int line);
  [[noreturn]] ~CheckFailure();
  template <typename T>
  CheckFailure& operator<<(const T& v) {
    stream_ << v;
    return *this;
  }

 private:
  std::ostringstream stream_;
};

// Lets `cond ? (void)0 : Voidify() & CheckFailure(...) << x` type-check as void.
struct Voidify {
  void operator&(const CheckFailure&) {}
};

}  // namespace tg::base_internal

#define TG_CHECK(cond)                   \
  (cond) ? (void)0                       \
         : ::tg::base_internal::Voidify() & \
               ::tg::base_internal::CheckFailure(#cond, __FILE__, __LINE__)

#ifdef NDEBUG
#define TG_DCHECK(cond) \
  true ? (void)0 : ::tg::base_internal::Voidify() & ::tg::base_internal::CheckFailure(#cond, __FILE__, __LINE__)
#else
#define TG_DCHECK(cond) TG_CHECK(cond)
#endif

#endif  // TINYGRAD_BASE_CHECK_H_
