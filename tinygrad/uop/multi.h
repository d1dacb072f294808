// File: tinygrad/uop/multi.h
// Multi-device tensors in the UOp graph (tinygrad/uop/ops.py's multi-device helpers): a tensor
// on several devices has a tuple of device names as its DEVICE arg; one split along an axis is
// a MULTI(shard, axis) whose source is one device's shard, the shard picked by the variable
// `_device_num` that each device's kernel binds to its position (tinygrad's
// `_shard`/`_unshard`). schedule/multi.h rewrites a graph of them into per-device kernels.
//
// In the Tensor API's device strings a tuple is spelled "(CPU, CPU:1)" (MultiDeviceName in
// base/device_name.h); DeviceArg and DeviceNameOf convert between the two.
//
// Example:
//   UOp x = ...;                                            // (8, 4) on "CPU"
//   UOp m = ShardOnDevices(x, DeviceArg("(CPU, CPU:1)"), 0); // MULTI of a (4, 4) shard, axis 0
//   MultiAxis(m)                                            // 0
#ifndef TINYGRAD_UOP_MULTI_H_
#define TINYGRAD_UOP_MULTI_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// The DEVICE arg for a device string: a tuple of names for "(A, B)", else the name itself.
Arg DeviceArg(std::string_view name);
// The device string of a DEVICE arg ("" for none): DeviceArg's inverse.
std::string DeviceNameOf(const Arg& device);

// The variable each device's kernels bind to the device's position in the tuple.
inline constexpr std::string_view kDeviceNumVar = "_device_num";
UOp DeviceNum(int64_t device_count);  // DEFINE_VAR _device_num in [0, device_count)

// tinygrad's UOp.axis: the axis a multi-device value is split along (MULTI's arg, carried
// through ALU, reduce, reshape and permute), nullopt for a value that is not split.
std::optional<int64_t> MultiAxis(const UOp& u);
// tinygrad's bounds: each device's (begin, end) along the split axis of a MULTI.
std::vector<std::pair<int64_t, int64_t>> MultiBounds(const UOp& multi);

UOp Multi(const UOp& shard, int64_t axis);               // MULTI(shard, axis)
UOp Mselect(const UOp& u, int64_t index);                // MSELECT: one device's buffer
UOp Mstack(DType dtype, std::vector<UOp> srcs);          // MSTACK: a buffer per device
UOp Allreduce(const UOp& u, Ops op, const Arg& device);  // ALLREDUCE(u, DEVICE(device)), op
// COPY to `device`; with `from`, of device `from`'s part of a multi-device `u` (MSELECT).
UOp CopyToDevice(const UOp& u, const Arg& device, std::optional<int64_t> from = std::nullopt);

// tinygrad's _shard: this device's slice of `u` along `axis` (a shrink by _device_num).
// InvalidArgument when the axis does not divide evenly among the devices.
absl::StatusOr<UOp> ShardSlice(const UOp& u, int64_t axis);
// tinygrad's _unshard: `u` padded with zeros to the whole axis, at this device's place.
UOp UnshardPad(const UOp& u, int64_t axis);
// tinygrad's UOp.shard: `u` (one device) copied to `devices` and split along `axis`.
absl::StatusOr<UOp> ShardOnDevices(const UOp& u, const Arg& devices, int64_t axis);

}  // namespace tg

#endif  // TINYGRAD_UOP_MULTI_H_
