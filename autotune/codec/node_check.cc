// File: autotune/codec/node_check.cc
// Preconditions of interning a decoded node (see node_check.h for why each exists).
#include "autotune/codec/node_check.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "autotune/codec/message_io.h"
#include "tinygrad/uop/kernel_info.h"

namespace tg::autotune::codec {
using internal::Sv;
namespace {

constexpr OpSet kTensorGraphOps =
    GroupOp::Movement |
    OpSet{Ops::UNIQUE,   Ops::DEVICE,      Ops::KERNEL,     Ops::ASSIGN,     Ops::CUSTOM_KERNEL,
          Ops::LUNIQUE,  Ops::CONTIGUOUS,  Ops::CONTIGUOUS_BACKWARD,        Ops::DETACH,
          Ops::BUFFERIZE, Ops::COPY,       Ops::BUFFER,     Ops::BUFFER_VIEW, Ops::MSELECT,
          Ops::MSTACK,   Ops::ENCDEC,      Ops::MULTI,      Ops::REDUCE_AXIS, Ops::ALLREDUCE};

// Ops whose interning (or any later pass) reads src[0].
constexpr OpSet kNeedsSource{Ops::INDEX, Ops::REDUCE, Ops::AFTER,   Ops::END,  Ops::BITCAST,
                             Ops::CAST,  Ops::RANGE,  Ops::SPECIAL, Ops::GEP,  Ops::BIND,
                             Ops::LOAD,  Ops::STORE};

bool IsIntNumber(const Arg& a) {
  return a.is_number() && (a.number().is_int() || a.number().is_bool());
}

bool IsIdentifier(std::string_view s) {
  auto word = [](char c) { return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  return !s.empty() && !absl::ascii_isdigit(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), word);
}

// The first string in `a` (depth first) that is not an identifier; `skip` is exempt.
const std::string* FirstNonIdentifier(const Arg& a, const Arg* skip) {
  if (&a == skip) return nullptr;
  if (a.is_string()) return IsIdentifier(a.str()) ? nullptr : &a.str();
  if (!a.is_tuple()) return nullptr;
  for (const Arg& item : a.tuple())
    if (const std::string* s = FirstNonIdentifier(item, skip)) return s;
  return nullptr;
}

// At most `n` characters of `s`, quoted, with what would not print escaped.
std::string Quoted(const std::string& s, size_t n = 60) {
  std::string out = absl::CHexEscape(s.substr(0, n));
  return absl::StrCat("\"", out, s.size() > n ? "\"..." : "\"");
}

}  // namespace

bool IsWireKernelOp(Ops op) { return !kTensorGraphOps.contains(op); }

absl::Status CheckNode(Ops op, DType dtype, std::span<const UOp> src, const Arg& arg) {
  auto bad = [](auto&&... parts) { return absl::InvalidArgumentError(absl::StrCat(parts...)); };
  if (!IsWireKernelOp(op)) return bad(Sv(OpName(op)), " is not a kernel-level op");
  size_t want = GroupOp::Unary.contains(op)     ? 1
                : GroupOp::Binary.contains(op)  ? 2
                : GroupOp::Ternary.contains(op) ? 3
                                                : 0;
  if (want != 0 && src.size() != want)
    return bad(Sv(OpName(op)), " needs ", want, " sources, got ", src.size());
  if (kNeedsSource.contains(op) && src.empty()) return bad(Sv(OpName(op)), " without a source");
  if (op == Ops::STORE && src.size() < 2) return bad("STORE needs (target, value)");
  for (size_t i = 0; i < src.size(); ++i)
    if (src[i].vmin().is_invalid() || src[i].vmax().is_invalid())
      return bad("source ", i, " has an Invalid range");
  switch (op) {
    case Ops::CONST:
      if (!arg.is_number()) return bad("CONST arg ", arg.repr(), " is not a number");
      break;
    case Ops::VCONST:
      if (!arg.is_tuple()) return bad("VCONST arg ", arg.repr(), " is not a tuple");
      for (const Arg& a : arg.tuple())
        if (!a.is_number()) return bad("VCONST lane ", a.repr(), " is not a number");
      break;
    case Ops::DEFINE_VAR:
      if (!arg.is_tuple() || arg.size() != 3 || !arg[0].is_string() || !IsIntNumber(arg[1]) ||
          !IsIntNumber(arg[2]))
        return bad("DEFINE_VAR arg ", arg.repr(), " is not (name, min, max) with int bounds");
      break;
    case Ops::BITCAST:
      if (dtype.itemsize() == 0 || src[0].dtype().itemsize() == 0)
        return bad("BITCAST between ", src[0].dtype().repr(), " and ", dtype.repr());
      break;
    default:
      break;
  }
  return absl::OkStatus();
}

absl::Status CheckNoSourceText(Ops op, const Arg& arg) {
  if (op == Ops::CUSTOM || op == Ops::CUSTOMI) {
    return absl::InvalidArgumentError(absl::StrCat(
        "source text ", arg.is_string() ? Quoted(arg.str()) : arg.repr(),
        " would be compiled as it is: a worker takes no code from the network"));
  }
  // The kernel name may be any text: the renderers spell it as an identifier.
  const Arg* name = op == Ops::SINK && KernelInfo::IsKernelInfo(arg) ? &arg[1] : nullptr;
  if (const std::string* s = FirstNonIdentifier(arg, name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "arg string ", Quoted(*s),
        " is not an identifier, and names are pasted into the kernel's source as they are"));
  }
  return absl::OkStatus();
}

}  // namespace tg::autotune::codec
