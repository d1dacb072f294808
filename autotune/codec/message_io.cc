// File: autotune/codec/message_io.cc
// Flat-array serialization with size checks, canonical bytes, limit checks.
#include "autotune/codec/message_io.h"

#include <cmath>
#include <cstring>

namespace tg::autotune::codec::internal {

std::string ToBytes(capnp::MessageBuilder& builder) {
  kj::Array<capnp::word> words = capnp::messageToFlatArray(builder);
  kj::ArrayPtr<const char> chars = words.asChars();
  return std::string(chars.begin(), chars.size());
}

std::string CanonicalBytes(capnp::AnyStruct::Reader root) {
  kj::Array<capnp::word> canon = root.canonicalize();
  // The segment table of a one-segment message: (segment count - 1) = 0, then its size in
  // words, both little-endian uint32.
  std::string out(8 + canon.size() * sizeof(capnp::word), '\0');
  uint32_t header[2] = {0, static_cast<uint32_t>(canon.size())};
  for (int i = 0; i < 2; ++i)
    for (int b = 0; b < 4; ++b) out[i * 4 + b] = static_cast<char>((header[i] >> (8 * b)) & 0xff);
  std::memcpy(out.data() + 8, canon.begin(), canon.size() * sizeof(capnp::word));
  return out;
}

absl::StatusOr<std::unique_ptr<ParsedMessage>> ParsedMessage::Parse(std::string_view bytes,
                                                                    const DecodeLimits& limits) {
  if (static_cast<int64_t>(bytes.size()) > limits.max_message_bytes)
    return absl::InvalidArgumentError(absl::StrCat("message of ", bytes.size(),
                                                   " bytes is over the limit of ",
                                                   limits.max_message_bytes));
  if (bytes.size() < 8 || bytes.size() % sizeof(capnp::word) != 0)
    return absl::InvalidArgumentError(absl::StrCat(
        "truncated message: ", bytes.size(), " bytes is not a whole number of 8-byte words"));
  auto m = std::unique_ptr<ParsedMessage>(new ParsedMessage());
  m->words_ = kj::heapArray<capnp::word>(bytes.size() / sizeof(capnp::word));
  std::memcpy(m->words_.begin(), bytes.data(), bytes.size());
  capnp::ReaderOptions options;
  options.traversalLimitInWords = limits.traversal_limit_words;
  options.nestingLimit = limits.nesting_limit;
  // The segment table is parsed (and checked against the data) in the constructor.
  absl::Status s = CatchCapnp("segment table", [&]() -> absl::Status {
    m->reader_ = std::make_unique<capnp::FlatArrayMessageReader>(m->words_.asPtr(), options);
    if (m->reader_->getEnd() != m->words_.end())
      return absl::InvalidArgumentError("trailing bytes after the message's segments");
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return m;
}

absl::Status Bad(absl::string_view where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

absl::Status CheckNotNan(double v, absl::string_view where) {
  return std::isnan(v) ? Bad(where, "NaN") : absl::OkStatus();
}

absl::StatusOr<std::string> ReadText(capnp::Text::Reader t, const DecodeLimits& limits,
                                     absl::string_view where) {
  if (static_cast<int64_t>(t.size()) > limits.max_string_bytes)
    return absl::InvalidArgumentError(absl::StrCat(where, ": text of ", t.size(),
                                                   " bytes is over the limit of ",
                                                   limits.max_string_bytes));
  return std::string(t.cStr(), t.size());
}

absl::Status CheckLen(size_t n, int64_t max, absl::string_view where) {
  if (static_cast<int64_t>(n) > max)
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": list of ", n, " items is over the limit of ", max));
  return absl::OkStatus();
}

}  // namespace tg::autotune::codec::internal
