// File: tinygrad/renderer/c/uops_text.cc (testonly)
// Reader of the golden linear UOp lists (format in uops_text.h).
#include "tinygrad/uop/linear_text.h"

#include <cmath>
#include <limits>
#include <string>

#include <charconv>
#include <cstdlib>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg {
namespace {

// Debian's Abseil has its own string_view, so the splitting and number parsing are local.
std::vector<std::string> Split(std::string_view s, std::string_view sep, size_t max_splits = -1) {
  std::vector<std::string> out;
  size_t start = 0;
  while (out.size() < max_splits) {
    size_t at = s.find(sep, start);
    if (at == std::string_view::npos) break;
    out.emplace_back(s.substr(start, at - start));
    start = at + sep.size();
  }
  out.emplace_back(s.substr(start));
  return out;
}

template <typename T>
bool ParseInt(std::string_view s, T* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

std::string_view Strip(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool AxisTypeFromName(std::string_view name, AxisType* out) {
  for (int i = 0; i <= static_cast<int>(AxisType::PLACEHOLDER); ++i) {
    if (AxisTypeName(static_cast<AxisType>(i)) == name) {
      *out = static_cast<AxisType>(i);
      return true;
    }
  }
  return false;
}

// Recursive descent over the arg text.
class ArgParser {
 public:
  explicit ArgParser(std::string_view s) : s_(s) {}

  absl::StatusOr<Arg> ParseAll() {
    ASSIGN_OR_RETURN(Arg a, Parse());
    SkipSpace();
    if (pos_ != s_.size()) return Error("trailing text");
    return a;
  }

 private:
  absl::StatusOr<Arg> Parse() {
    // tuples nest a few levels in real args; a bound keeps hostile text off the stack's end
    if (++depth_ > kMaxDepth) return Error("args nested too deep");
    absl::StatusOr<Arg> a = ParseValue();
    --depth_;
    return a;
  }

  absl::StatusOr<Arg> ParseValue() {
    SkipSpace();
    if (pos_ >= s_.size()) return Error("unexpected end");
    char c = s_[pos_];
    if (c == '(') return ParseTuple();
    if (c == '\'' || c == '"') return ParseString(c);
    if (s_.substr(pos_).starts_with("KernelInfo(")) {
      pos_ += 11;
      ASSIGN_OR_RETURN(Arg name, Parse());
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != ')') return Error("expected ')'");
      ++pos_;
      return KernelInfo{.name = name.str()}.ToArg();
    }
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != ')' && s_[pos_] != ' ') ++pos_;
    std::string_view tok = s_.substr(start, pos_ - start);
    if (tok.empty()) return Error("expected a value");
    if (tok == "None") return Arg();
    if (tok == "Invalid") return Arg(ConstValue::Invalid());
    if (tok == "True") return Arg(true);
    if (tok == "False") return Arg(false);
    if (tok == "inf") return Arg(std::numeric_limits<double>::infinity());
    if (tok == "-inf") return Arg(-std::numeric_limits<double>::infinity());
    if (tok == "nan") return Arg(std::numeric_limits<double>::quiet_NaN());
    if (tok.starts_with("AxisType.")) {
      AxisType t;
      if (!AxisTypeFromName(tok.substr(9), &t)) return Error("bad AxisType");
      return Arg(t);
    }
    if (tok.starts_with("Ops.")) {
      Ops op;
      if (!OpFromName(tok, &op)) return Error("bad Ops");
      return Arg(op);
    }
    if (tok.find_first_of(".eE") == std::string_view::npos) {
      int64_t v;
      if (ParseInt(tok, &v)) return Arg(v);
      // beyond int64 (uint64 consts): through 128 bits
      bool neg = tok.starts_with("-");
      std::string_view digits = tok.substr(neg ? 1 : 0);
      // 38 digits always fit 127 bits; ConstValue holds no more
      if (digits.empty() || digits.size() > 38) return Error("bad number");
      __int128 acc = 0;
      for (char d : digits) {
        if (d < '0' || d > '9') return Error("bad number");
        acc = acc * 10 + (d - '0');
      }
      return Arg(ConstValue(neg ? -acc : acc));
    }
    std::string t(tok);
    char* end = nullptr;
    double d = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size()) return Error("bad float");
    return Arg(d);
  }

  // A Python str literal as repr() writes it: either quote, backslash escapes of the quote,
  // the backslash, \n, \t and \xNN.
  absl::StatusOr<Arg> ParseString(char quote) {
    std::string out;
    for (++pos_; pos_ < s_.size() && s_[pos_] != quote; ++pos_) {
      char c = s_[pos_];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (++pos_ >= s_.size()) break;
      switch (s_[pos_]) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case '\\': case '\'': case '"': out += s_[pos_]; break;
        case 'x': {
          unsigned v = 0;
          if (pos_ + 2 >= s_.size() || std::from_chars(s_.data() + pos_ + 1, s_.data() + pos_ + 3, v, 16).ptr != s_.data() + pos_ + 3)
            return Error("bad \\x escape");
          out += static_cast<char>(v);
          pos_ += 2;
          break;
        }
        default: return Error("unknown escape");
      }
    }
    if (pos_ >= s_.size()) return Error("unclosed string");
    ++pos_;
    return Arg(std::move(out));
  }

  absl::StatusOr<Arg> ParseTuple() {
    ++pos_;  // '('
    std::vector<Arg> items;
    while (true) {
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ')') break;
      ASSIGN_OR_RETURN(Arg a, Parse());
      items.push_back(std::move(a));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') ++pos_;
      else if (pos_ >= s_.size() || s_[pos_] != ')') return Error("expected ',' or ')'");
    }
    ++pos_;
    return Arg::Tuple(std::move(items));
  }

  void SkipSpace() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), " at ", pos_, " in: ", std::string(s_)));
  }

  static constexpr int kMaxDepth = 64;
  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

absl::StatusOr<DType> ParseDTypeSpec(std::string_view spec) {
  std::vector<std::string> toks;
  for (std::string& t : Split(spec, " "))
    if (!t.empty()) toks.push_back(std::move(t));
  if (toks.empty()) return absl::InvalidArgumentError("empty dtype spec");
  DType d;
  if (!dtypes::FromName(toks[0], &d)) return absl::InvalidArgumentError("dtype " + toks[0]);
  for (size_t i = 1; i < toks.size(); ++i) {
    std::vector<std::string> p = Split(toks[i], ":");
    int64_t n = 0;
    if (p.size() < 2 || !ParseInt(p[1], &n))
      return absl::InvalidArgumentError("dtype step " + toks[i]);
    if (p[0] == "vec" && p.size() == 2) {
      // once for the value, once more for a pointer to it; void has no vectors
      if ((d.is_ptr() ? d.v() : d.count()) != 1 || n < (d.is_ptr() ? 1 : 0) || n > 0xFFFF)
        return absl::InvalidArgumentError("dtype step " + toks[i] + " on " + d.repr());
      d = d.vec(static_cast<int>(n));
    } else if (p[0] == "ptr" && p.size() == 3 && !d.is_ptr() && n >= -1) {
      AddrSpace as;
      if (p[2] == "GLOBAL") as = AddrSpace::GLOBAL;
      else if (p[2] == "LOCAL") as = AddrSpace::LOCAL;
      else if (p[2] == "REG") as = AddrSpace::REG;
      else return absl::InvalidArgumentError("address space " + p[2]);
      d = d.ptr(n, as);
    } else {
      return absl::InvalidArgumentError("dtype step " + toks[i]);
    }
  }
  return d;
}

absl::StatusOr<Arg> ParseArgText(std::string_view text) { return ArgParser(text).ParseAll(); }

std::string DTypeSpec(DType d) {
  DType base = d.base();
  std::string out = base.scalar().repr().substr(7);  // "dtypes.uchar": the name FromName reads
  if (base.count() != 1) absl::StrAppend(&out, " vec:", base.count());
  if (!d.is_ptr()) return out;
  absl::StrAppend(&out, " ptr:", d.size(), ":",
                  d.addrspace() == AddrSpace::GLOBAL  ? "GLOBAL"
                  : d.addrspace() == AddrSpace::LOCAL ? "LOCAL"
                                                      : "REG");
  if (d.v() != 1) absl::StrAppend(&out, " vec:", d.v());
  return out;
}

std::string FormatLinearProgram(std::span<const UOp> uops) {
  absl::flat_hash_map<UOp, size_t> index;
  std::string out;
  for (size_t i = 0; i < uops.size(); ++i) {
    const UOp& u = uops[i];
    std::vector<std::string> srcs;
    for (const UOp& s : u.src()) {
      auto it = index.find(s);
      // a source outside the list cannot be written: the line says so, and parsing refuses it
      srcs.push_back(it == index.end() ? "?" : std::to_string(it->second));
    }
    absl::StrAppend(&out, i, " | Ops.", std::string(OpName(u.op())), " | ", DTypeSpec(u.dtype()), " | ",
                    srcs.empty() ? "-" : absl::StrJoin(srcs, ","), " | ", u.arg().repr(), "\n");
    index.emplace(u, i);
  }
  return out;
}

absl::StatusOr<std::vector<UOp>> ParseLinearProgram(std::string_view text) {
  std::vector<UOp> uops;
  int line_no = 0;
  for (const std::string& raw : Split(text, "\n")) {
    ++line_no;
    std::string_view line = Strip(raw);
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string> f = Split(line, " | ", 4);
    auto err = [&](std::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_no, ": ", std::string(what), ": ", std::string(line)));
    };
    if (f.size() != 5) return err("expected 5 fields");
    Ops op;
    if (!OpFromName(f[1], &op)) return err("unknown op");
    absl::StatusOr<DType> dt = ParseDTypeSpec(f[2]);
    if (!dt.ok()) return err(std::string(dt.status().message()));
    std::vector<UOp> srcs;
    if (f[3] != "-") {
      for (const std::string& s : Split(f[3], ",")) {
        size_t i;
        if (!ParseInt(s, &i) || i >= uops.size()) return err("bad src index");
        srcs.push_back(uops[i]);
      }
    }
    absl::StatusOr<Arg> arg = ParseArgText(f[4]);
    if (!arg.ok()) return err(std::string(arg.status().message()));
    uops.push_back(UOp::Make(op, *dt, srcs, *arg));
  }
  return uops;
}

}  // namespace tg
