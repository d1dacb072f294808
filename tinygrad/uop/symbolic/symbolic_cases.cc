#include "tinygrad/uop/symbolic/symbolic_cases.h"

#include <cstdlib>
#include <fstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tinygrad/dtype/dtype.h"

namespace tg {
namespace {


// A pseudo-case that fails with `message` (so a broken table shows up as a failing test).
Case LoadError(std::string message) {
  Case c;
  c.name = "LoadError";
  c.expr = std::move(message);
  return c;
}

}  // namespace

std::string CasesPath() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir != nullptr && workspace != nullptr)
    return absl::StrCat(srcdir, "/", workspace, "/", std::string(kCasesPath));
  return std::string(kCasesPath);
}

// The table, or one pseudo-case whose `expr` holds the load error (so the failure is visible).
std::vector<Case> LoadCases() {
  std::ifstream in(CasesPath());
  if (!in) return {LoadError("cannot open " + CasesPath())};
  std::vector<Case> cases;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    if (f.size() != 11) return {LoadError(absl::StrCat("line ", n, ": ", f.size(), " columns"))};
    cases.push_back(Case{n, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]});
  }
  return cases;
}

// A value as the generator writes it: 3, -1, True, False, 2.0, inf, nan, Invalid, index_min/max.
std::optional<ConstValue> ParseValue(std::string_view s) {
  if (s == "True") return ConstValue(true);
  if (s == "False") return ConstValue(false);
  if (s == "Invalid") return ConstValue::Invalid();
  if (s == "index_min") return dtypes::min(dtypes::index);
  if (s == "index_max") return dtypes::max(dtypes::index);
  if (s.find_first_of(".ein") != std::string_view::npos) {  // 2.0, 1e-05, inf, -inf, nan
    double d;
    if (!absl::SimpleAtod(std::string(s), &d)) return std::nullopt;
    return ConstValue(d);
  }
  if (s.empty()) return std::nullopt;
  bool neg = s[0] == '-';
  i128 v = 0;
  for (size_t i = neg ? 1 : 0; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9' || i > 36) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return ConstValue(neg ? -v : v);
}

namespace {

// Reader of the generator's S-expressions:
//   (DEFINE_VAR dtype name min max) (CONST dtype value) (RANGE dtype axis AxisType end)
//   (OP dtype src...)
class ExprReader {
 public:
  explicit ExprReader(std::string_view text) : text_(text) {}

  absl::StatusOr<UOp> ReadAll() {
    absl::StatusOr<UOp> u = Read();
    if (u.ok() && !Token().empty()) return Error("trailing text");
    return u;
  }

 private:
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), " at offset ", pos_, " of: ", std::string(text_)));
  }
  void SkipSpaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  // The next token's first character, without consuming it; '\0' at the end.
  char Peek() {
    SkipSpaces();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  // The next token: "(", ")" or an atom; empty at the end.
  std::string_view Token() {
    SkipSpaces();
    if (pos_ >= text_.size()) return {};
    size_t start = pos_;
    if (text_[pos_] == '(' || text_[pos_] == ')') return text_.substr(pos_++, 1);
    while (pos_ < text_.size() && text_[pos_] != ' ' && text_[pos_] != '(' && text_[pos_] != ')')
      ++pos_;
    return text_.substr(start, pos_ - start);
  }
  absl::StatusOr<ConstValue> Value() {
    std::string_view t = Token();
    std::optional<ConstValue> v = ParseValue(t);
    if (!v) return Error(absl::StrCat("bad value '", std::string(t), "'"));
    return *v;
  }

  absl::StatusOr<UOp> Read() {
    if (Token() != "(") return Error("expected '('");
    std::string_view op_name = Token(), dtype_name = Token();
    Ops op;
    DType dtype;
    if (!OpFromName(op_name, &op)) return Error(absl::StrCat("unknown op ", std::string(op_name)));
    if (!dtypes::FromName(dtype_name, &dtype))
      return Error(absl::StrCat("unknown dtype ", std::string(dtype_name)));
    UOp u;
    if (op == Ops::DEFINE_VAR) {
      std::string name(Token());
      absl::StatusOr<ConstValue> lo = Value();
      if (!lo.ok()) return lo.status();
      absl::StatusOr<ConstValue> hi = Value();
      if (!hi.ok()) return hi.status();
      u = UOp::Variable(name, *lo, *hi, dtype);
    } else if (op == Ops::CONST) {
      absl::StatusOr<ConstValue> v = Value();
      if (!v.ok()) return v.status();
      u = UOp::Const(dtype, *v);
    } else if (op == Ops::RANGE) {
      int64_t axis;
      if (!absl::SimpleAtoi(std::string(Token()), &axis)) return Error("bad axis id");
      std::string_view type_name = Token();
      std::optional<AxisType> type;
      for (int i = 0; i <= static_cast<int>(AxisType::PLACEHOLDER); ++i)
        if (AxisTypeName(static_cast<AxisType>(i)) == type_name) type = static_cast<AxisType>(i);
      if (!type) return Error(absl::StrCat("unknown AxisType ", std::string(type_name)));
      absl::StatusOr<UOp> end = Read();
      if (!end.ok()) return end.status();
      u = UOp::Range(*end, axis, *type);
      if (u.dtype() != dtype) return Error("RANGE dtype differs from its end's");
    } else {
      std::vector<UOp> src;
      while (Peek() == '(') {
        absl::StatusOr<UOp> s = Read();
        if (!s.ok()) return s.status();
        src.push_back(*std::move(s));
      }
      u = UOp::Make(op, dtype, src);
    }
    if (Token() != ")") return Error("expected ')'");
    return u;
  }

  std::string_view text_;
  size_t pos_ = 0;
};


}  // namespace

absl::StatusOr<UOp> ParseExpr(std::string_view text) { return ExprReader(text).ReadAll(); }

}  // namespace tg
