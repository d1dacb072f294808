#include "tinygrad/base/check.h"

#include <cstdio>
#include <cstdlib>

namespace tg::base_internal {

CheckFailure::CheckFailure(const char* cond, const char* file, int line) {
  stream_ << file << ":" << line << ": TG_CHECK failed: " << cond << " ";
}

CheckFailure::~CheckFailure() {
  std::string msg = stream_.str();
  std::fprintf(stderr, "%s\n", msg.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace tg::base_internal
