// File: tinygrad/base/status_macros.h
// RETURN_IF_ERROR / ASSIGN_OR_RETURN with the meaning of the upstream Abseil macros (absent in
// Debian's Abseil 20220623), so moving to a newer Abseil is a search-and-replace.
#ifndef TINYGRAD_BASE_STATUS_MACROS_H_
#define TINYGRAD_BASE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define TG_STATUS_CONCAT_INNER_(a, b) a##b
#define TG_STATUS_CONCAT_(a, b) TG_STATUS_CONCAT_INNER_(a, b)

#define RETURN_IF_ERROR(expr)                          \
  do {                                                 \
    if (::absl::Status _st = (expr); !_st.ok()) return _st; \
  } while (0)

#define ASSIGN_OR_RETURN(lhs, expr) \
  TG_ASSIGN_OR_RETURN_IMPL_(TG_STATUS_CONCAT_(_statusor_, __LINE__), lhs, expr)

#define TG_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                              \
  if (!statusor.ok()) return statusor.status();        \
  lhs = std::move(statusor).value()

#endif  // TINYGRAD_BASE_STATUS_MACROS_H_
