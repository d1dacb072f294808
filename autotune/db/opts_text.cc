// File: autotune/db/opts_text.cc
// Opt lists as JSON text: printer and a small recursive-descent reader for exactly that shape.
#include "autotune/db/opts_text.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tg::autotune {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  absl::StatusOr<std::vector<Opt>> OptList() {
    std::vector<Opt> opts;
    if (!Eat('[')) return Error("'['");
    if (Eat(']')) return Done(std::move(opts));
    do {
      absl::StatusOr<Opt> o = OneOpt();
      if (!o.ok()) return o.status();
      opts.push_back(*o);
    } while (Eat(','));
    if (!Eat(']')) return Error("',' or ']'");
    return Done(std::move(opts));
  }

 private:
  absl::StatusOr<Opt> OneOpt() {
    Opt o{};
    if (!Eat('[')) return Error("'[' starting an opt");
    std::optional<std::string_view> name = String();
    if (!name) return Error("an op name string");
    std::optional<OptOps> op = OptOpsFromName(*name);
    if (!op) return Error(absl::StrCat("a known op name, not '", std::string(*name), "'"));
    o.op = *op;
    if (!Eat(',')) return Error("','");
    if (!EatWord("null")) {
      std::optional<int64_t> axis = Int();
      if (!axis) return Error("an axis (integer or null)");
      o.axis = *axis;
    }
    if (!Eat(',')) return Error("','");
    if (EatWord("null")) {
      o.arg = std::monostate{};
    } else if (Eat('[')) {
      std::array<int64_t, 3> tc{};
      for (int i = 0; i < 3; ++i) {
        if (i > 0 && !Eat(',')) return Error("',' in TC's arg");
        std::optional<int64_t> v = Int();
        if (!v) return Error("an integer in TC's arg");
        tc[i] = *v;
      }
      if (!Eat(']')) return Error("']' closing TC's arg");
      o.arg = tc;
    } else {
      std::optional<int64_t> v = Int();
      if (!v) return Error("an arg (integer, [a,b,c] or null)");
      o.arg = *v;
    }
    if (!Eat(']')) return Error("']' closing an opt");
    return o;
  }

  absl::StatusOr<std::vector<Opt>> Done(std::vector<Opt> opts) {
    SkipSpace();
    if (pos_ != text_.size()) return Error("end of text");
    return opts;
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool EatWord(std::string_view w) {
    SkipSpace();
    if (text_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  // Op names are plain identifiers: no escapes.
  std::optional<std::string_view> String() {
    if (!Eat('"')) return std::nullopt;
    size_t end = text_.find('"', pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string_view s = text_.substr(pos_, end - pos_);
    if (s.find('\\') != std::string_view::npos) return std::nullopt;
    pos_ = end + 1;
    return s;
  }
  std::optional<int64_t> Int() {
    SkipSpace();
    int64_t v = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (ec != std::errc()) return std::nullopt;
    pos_ = end - text_.data();
    return v;
  }
  absl::Status Error(std::string_view expected) const {
    return absl::InvalidArgumentError(absl::StrCat("opts text: expected ", std::string(expected),
                                                   " at offset ", pos_, " of '",
                                                   std::string(text_.substr(0, 200)), "'"));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::string OptsToText(std::span<const Opt> opts) {
  std::string out = "[";
  for (size_t i = 0; i < opts.size(); ++i) {
    const Opt& o = opts[i];
    absl::StrAppend(&out, i ? "," : "", "[\"", std::string(OptOpsName(o.op)), "\",",
                    o.axis ? absl::StrCat(*o.axis) : "null", ",");
    if (const auto* n = std::get_if<int64_t>(&o.arg)) {
      absl::StrAppend(&out, *n);
    } else if (const auto* tc = std::get_if<std::array<int64_t, 3>>(&o.arg)) {
      absl::StrAppend(&out, "[", (*tc)[0], ",", (*tc)[1], ",", (*tc)[2], "]");
    } else {
      out += "null";
    }
    out += "]";
  }
  return out + "]";
}

absl::StatusOr<std::vector<Opt>> OptsFromText(std::string_view text) {
  return Reader(text).OptList();
}

std::string OptsToShortText(std::span<const Opt> opts) {
  std::string out;
  for (const Opt& o : opts) {
    absl::StrAppend(&out, out.empty() ? "" : " ", std::string(OptOpsName(o.op)), o.axis ? absl::StrCat(*o.axis) : "");
    if (const auto* n = std::get_if<int64_t>(&o.arg)) {
      absl::StrAppend(&out, ":", *n);
    } else if (const auto* tc = std::get_if<std::array<int64_t, 3>>(&o.arg)) {
      absl::StrAppend(&out, ":", (*tc)[0], ",", (*tc)[1], ",", (*tc)[2]);
    }
  }
  return out;
}

}  // namespace tg::autotune
