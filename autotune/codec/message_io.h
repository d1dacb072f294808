// File: autotune/codec/message_io.h
// Cap'n Proto messages <-> bytes, and the boundary where capnp's exceptions become Statuses.
//
// The byte form is the standard flat-array serialization (segment table, then segments), so
// `capnp decode` reads it. Canonical bytes (one segment in Cap'n Proto's canonical layout) are
// the same on every machine for the same content: they are what digests hash.
// Internal to autotune/codec.
#ifndef AUTOTUNE_CODEC_MESSAGE_IO_H_
#define AUTOTUNE_CODEC_MESSAGE_IO_H_

#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "autotune/codec/limits.h"
#include "capnp/any.h"
#include "capnp/message.h"
#include "capnp/serialize.h"
#include "kj/exception.h"

namespace tg::autotune::codec::internal {

// The flat-array bytes of `builder`'s message (deterministic for one sequence of builds).
std::string ToBytes(capnp::MessageBuilder& builder);

// The canonical single-segment bytes of the struct `root` (with a one-segment table in front).
std::string CanonicalBytes(capnp::AnyStruct::Reader root);

// A reader over a copy of `bytes` (word-aligned) under `limits`. Errors: over the size cap,
// not whole words, a bad segment table.
class ParsedMessage {
 public:
  static absl::StatusOr<std::unique_ptr<ParsedMessage>> Parse(std::string_view bytes,
                                                              const DecodeLimits& limits);
  capnp::MessageReader& reader() { return *reader_; }

 private:
  kj::Array<capnp::word> words_;
  std::unique_ptr<capnp::FlatArrayMessageReader> reader_;
};

// Runs `fn` (returning absl::StatusOr<T> or absl::Status); a kj::Exception or std::exception
// thrown inside (a hostile pointer, a traversal limit, an allocation) becomes an
// InvalidArgument Status prefixed with `what`. Our code throws nothing: this is only for
// capnp/kj, which do.
template <typename Fn>
auto CatchCapnp(absl::string_view what, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const kj::Exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": malformed message: ", e.getDescription().cStr()));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": malformed message: ", e.what()));
  } catch (...) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": malformed message"));
  }
}

// Decodes a message whose root is `Root` with `read(root_reader)`, under the limits, with
// capnp's exceptions turned into Statuses (`what` names the message in them).
template <typename Root, typename Read>
auto DecodeRoot(absl::string_view what, std::string_view bytes, const DecodeLimits& limits,
                Read&& read) -> decltype(read(std::declval<typename Root::Reader>())) {
  return CatchCapnp(what, [&]() -> decltype(read(std::declval<typename Root::Reader>())) {
    absl::StatusOr<std::unique_ptr<ParsedMessage>> parsed = ParsedMessage::Parse(bytes, limits);
    if (!parsed.ok()) return parsed.status();
    return read((*parsed)->reader().template getRoot<Root>());
  });
}

// std::string_view -> absl::string_view (this absl is not built on std::string_view).
inline absl::string_view Sv(std::string_view s) { return {s.data(), s.size()}; }

// A std::string as capnp Text with its length: kj's implicit conversion from std::string
// uses c_str() and strlen, which cuts a string at its first NUL byte.
inline capnp::Text::Reader Txt(const std::string& s) { return capnp::Text::Reader(s.data(), s.size()); }

// An InvalidArgument error "<where>: <what>".
absl::Status Bad(absl::string_view where, absl::string_view what);
// An error naming `where` for a NaN.
absl::Status CheckNotNan(double v, absl::string_view where);

// Text with a length check; `where` names the field.
absl::StatusOr<std::string> ReadText(capnp::Text::Reader t, const DecodeLimits& limits,
                                     absl::string_view where);
// A list-length check.
absl::Status CheckLen(size_t n, int64_t max, absl::string_view where);

}  // namespace tg::autotune::codec::internal

#endif  // AUTOTUNE_CODEC_MESSAGE_IO_H_
