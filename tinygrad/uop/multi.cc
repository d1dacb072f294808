// File: tinygrad/uop/multi.cc
// Port of tinygrad/uop/ops.py: UOp.axis, bounds, multi, mselect, allreduce, copy_to_device,
// _shard, _unshard, shard.
#include "tinygrad/uop/multi.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/device_name.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/uop/shape.h"

namespace tg {

Arg DeviceArg(std::string_view name) {
  if (!IsMultiDeviceName(name)) return Arg(std::string(name));
  std::vector<Arg> items;
  for (std::string& n : DeviceNames(name)) items.emplace_back(std::move(n));
  return Arg::Tuple(std::move(items));
}

std::string DeviceNameOf(const Arg& device) {
  if (device.is_string()) return device.str();
  if (!device.is_tuple()) return "";
  std::vector<std::string> names;
  for (const Arg& a : device.tuple()) names.push_back(a.is_string() ? a.str() : a.repr());
  return MultiDeviceName(names);
}

UOp DeviceNum(int64_t device_count) {
  return UOp::Variable(std::string(kDeviceNumVar), 0, device_count - 1);
}

namespace {

std::optional<int64_t> AxisOf(const UOp& u,
                              absl::flat_hash_map<UOp, std::optional<int64_t>>& memo) {
  if (u.op() == Ops::MULTI) return u.arg().int64();
  // a value on one device (or none) is never split: the walk stops there
  if (u.src().empty() || !u.device().is_tuple()) return std::nullopt;
  if (auto it = memo.find(u); it != memo.end()) return it->second;
  std::optional<int64_t> out;
  if (GroupOp::ALU.contains(u.op())) {
    // the sources share an axis; tinygrad takes the last distinct one
    std::vector<int64_t> axes;
    for (const UOp& s : u.src())
      if (std::optional<int64_t> a = AxisOf(s, memo);
          a.has_value() && std::find(axes.begin(), axes.end(), *a) == axes.end())
        axes.push_back(*a);
    if (!axes.empty()) out = axes.back();
  } else {
    std::optional<int64_t> src_axis = AxisOf(u.src(0), memo);
    out = src_axis;
    if (src_axis.has_value() && u.op() == Ops::REDUCE_AXIS) {
      for (const Arg& a : u.arg()[1].tuple())
        if (a.int64() == *src_axis) out = std::nullopt;
    } else if (src_axis.has_value() && u.op() == Ops::RESHAPE) {
      // the last axis of the new shape whose prefix product is the old axis's
      const Shape& before = *u.src(0).shape();
      const Shape after = u.marg_shape();
      SInt prefix = Prod(std::span<const SInt>(before).first(*src_axis));
      std::vector<SInt> acc{SInt(1)};
      for (const SInt& s : after) acc.push_back(acc.back() * s);
      out = std::nullopt;
      for (int64_t i = static_cast<int64_t>(acc.size()) - 1; i >= 0; --i)
        if (acc[i] == prefix) {
          out = i;
          break;
        }
    } else if (src_axis.has_value() && u.op() == Ops::PERMUTE) {
      const auto& order = u.arg().tuple();
      out = std::nullopt;
      for (size_t i = 0; i < order.size(); ++i)
        if (order[i].int64() == *src_axis) out = static_cast<int64_t>(i);
    }
  }
  memo[u] = out;
  return out;
}

}  // namespace

std::optional<int64_t> MultiAxis(const UOp& u) {
  absl::flat_hash_map<UOp, std::optional<int64_t>> memo;
  return AxisOf(u, memo);
}

std::vector<std::pair<int64_t, int64_t>> MultiBounds(const UOp& multi) {
  std::vector<std::pair<int64_t, int64_t>> out;
  const int64_t n = (*multi.src(0).shape())[multi.arg().int64()].value();
  for (size_t i = 0; i < multi.device().size(); ++i)
    out.emplace_back(static_cast<int64_t>(i) * n, static_cast<int64_t>(i + 1) * n);
  return out;
}

UOp Multi(const UOp& shard, int64_t axis) {
  return UOp::Make(Ops::MULTI, shard.dtype(), {shard}, axis);
}

UOp Mselect(const UOp& u, int64_t index) { return UOp::Make(Ops::MSELECT, u.dtype(), {u}, index); }

UOp Mstack(DType dtype, std::vector<UOp> srcs) {
  return UOp::Make(Ops::MSTACK, dtype, std::move(srcs));
}

UOp Allreduce(const UOp& u, Ops op, const Arg& device) {
  return UOp::Make(Ops::ALLREDUCE, u.dtype(),
                   {u, UOp::Make(Ops::DEVICE, dtypes::void_, {}, device)}, op);
}

UOp CopyToDevice(const UOp& u, const Arg& device, std::optional<int64_t> from) {
  UOp in = from.has_value() ? Mselect(u, *from) : u;
  return UOp::Make(Ops::COPY, u.dtype(), {in, UOp::Make(Ops::DEVICE, dtypes::void_, {}, device)});
}

absl::StatusOr<UOp> ShardSlice(const UOp& u, int64_t axis) {
  const Shape& shape = *u.shape();
  const int64_t count = static_cast<int64_t>(u.device().size());
  const SInt& whole = shape[axis];
  if (!whole.is_int() || whole.value() % count != 0)
    return absl::InvalidArgumentError(absl::StrCat("multi axis uneven: shape[", axis,
                                                   "]=", whole.repr(), " on ", count, " devices"));
  const int64_t size = whole.value() / count;
  const SInt dnum(DeviceNum(count));
  PadArg arg;
  for (size_t i = 0; i < shape.size(); ++i)
    arg.emplace_back(static_cast<int64_t>(i) == axis
                         ? std::pair<SInt, SInt>{dnum * size, dnum * size + size}
                         : std::pair<SInt, SInt>{0, shape[i]});
  return u.shrink(arg);
}

UOp UnshardPad(const UOp& u, int64_t axis) {
  const Shape& shape = *u.shape();
  const int64_t count = static_cast<int64_t>(u.device().size());
  const SInt bsz = shape[axis];
  const SInt dnum(DeviceNum(count));
  PadArg arg;
  for (size_t i = 0; i < shape.size(); ++i)
    arg.emplace_back(static_cast<int64_t>(i) == axis
                         ? std::pair<SInt, SInt>{bsz * dnum, bsz * SInt(count - 1) - bsz * dnum}
                         : std::pair<SInt, SInt>{0, 0});
  return u.pad(arg);
}

absl::StatusOr<UOp> ShardOnDevices(const UOp& u, const Arg& devices, int64_t axis) {
  ASSIGN_OR_RETURN(UOp slice, ShardSlice(CopyToDevice(u, devices), axis));
  return Multi(slice, axis);
}

}  // namespace tg
