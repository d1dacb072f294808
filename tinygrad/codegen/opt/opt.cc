// File: tinygrad/codegen/opt/opt.cc
// Port of tinygrad/codegen/opt/__init__.py: OptOps names, Opt repr and Arg form, KernelOptError.
#include "tinygrad/codegen/opt/opt.h"

#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace tg {
namespace {

constexpr std::pair<OptOps, std::string_view> kNames[] = {
    {OptOps::TC, "TC"},         {OptOps::UPCAST, "UPCAST"},     {OptOps::UNROLL, "UNROLL"},
    {OptOps::LOCAL, "LOCAL"},   {OptOps::THREAD, "THREAD"},     {OptOps::GROUP, "GROUP"},
    {OptOps::GROUPTOP, "GROUPTOP"}, {OptOps::NOLOCALS, "NOLOCALS"}, {OptOps::PADTO, "PADTO"},
    {OptOps::SWAP, "SWAP"},         {OptOps::SIMD, "SIMD"},
    {OptOps::BLOCK, "BLOCK"},       {OptOps::PACK, "PACK"},         {OptOps::GEMM, "GEMM"},
};

// The payload that tells a KernelOptError from other kFailedPrecondition statuses.
constexpr char kKernelOptErrorUrl[] = "tinygrad-cc/KernelOptError";

std::string ArgRepr(const OptArg& arg) {
  if (const auto* i = std::get_if<int64_t>(&arg)) return absl::StrCat(*i);
  if (const auto* t = std::get_if<std::array<int64_t, 3>>(&arg))
    return absl::StrCat("(", (*t)[0], ", ", (*t)[1], ", ", (*t)[2], ")");
  return "None";
}

}  // namespace

std::string_view OptOpsName(OptOps op) {
  for (const auto& [o, name] : kNames)
    if (o == op) return name;
  return "?";
}

std::optional<OptOps> OptOpsFromName(std::string_view name) {
  for (const auto& [o, n] : kNames)
    if (n == name) return o;
  return std::nullopt;
}

std::string Opt::ToString() const {
  return absl::StrCat("Opt(op=OptOps.", std::string(OptOpsName(op)), ", axis=", axis ? absl::StrCat(*axis) : "None",
                      ", arg=", ArgRepr(arg), ")");
}

Arg OptToArg(const Opt& o) {
  Arg axis = o.axis ? Arg(*o.axis) : Arg();
  Arg arg;
  if (const auto* i = std::get_if<int64_t>(&o.arg)) arg = Arg(*i);
  if (const auto* t = std::get_if<std::array<int64_t, 3>>(&o.arg)) arg = Arg::Tuple({(*t)[0], (*t)[1], (*t)[2]});
  return Arg::Tuple({std::string(OptOpsName(o.op)), axis, arg});
}

absl::StatusOr<Opt> OptFromArg(const Arg& a) {
  auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("not an Opt ", a.repr(), ": ", std::string(why)));
  };
  if (!a.is_tuple() || a.size() != 3) return bad("expected a tuple (op, axis, arg)");
  if (!a[0].is_string()) return bad("op is not a name");
  std::optional<OptOps> op = OptOpsFromName(a[0].str());
  if (!op) return bad("unknown op");
  Opt o{*op, std::nullopt, std::monostate{}};
  if (!a[1].is_none()) {
    if (!a[1].is_number() || !a[1].number().is_int()) return bad("axis is not an int");
    o.axis = a[1].int64();
  }
  if (a[2].is_tuple()) {
    if (a[2].size() != 3) return bad("a tuple arg must have 3 ints");
    std::array<int64_t, 3> t{};
    for (size_t i = 0; i < 3; ++i) {
      if (!a[2][i].is_number() || !a[2][i].number().is_int()) return bad("a tuple arg must have 3 ints");
      t[i] = a[2][i].int64();
    }
    o.arg = t;
  } else if (!a[2].is_none()) {
    if (!a[2].is_number() || !a[2].number().is_int()) return bad("arg is not an int");
    o.arg = a[2].int64();
  }
  return o;
}

absl::Status KernelOptError(std::string_view msg) {
  absl::Status s = absl::FailedPreconditionError(std::string(msg));
  s.SetPayload(kKernelOptErrorUrl, absl::Cord("1"));
  return s;
}

bool IsKernelOptError(const absl::Status& s) {
  return s.code() == absl::StatusCode::kFailedPrecondition && s.GetPayload(kKernelOptErrorUrl).has_value();
}

}  // namespace tg
