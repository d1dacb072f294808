// File: tinygrad/uop/kernel_info.h
// Port of tinygrad/uop/ops.py KernelInfo and tinygrad/schedule/indexing.py BufferizeOpts: the
// structured args of a kernel's SINK and of BUFFERIZE.
//
// Both travel inside the UOp as a tagged Arg tuple, so they take part in structural keys and
// equality like any other arg; these structs are the typed view.
//
// Example:
//   KernelInfo ki{.name = "r_16_8_32"};
//   UOp sink = UOp::Make(Ops::SINK, dtypes::void_, stores, ki.ToArg());
//   KernelInfo back = KernelInfo::FromArg(sink.arg());   // CHECKs that it is one
#ifndef TINYGRAD_UOP_KERNEL_INFO_H_
#define TINYGRAD_UOP_KERNEL_INFO_H_

#include <optional>
#include <string>
#include <vector>

#include "tinygrad/base/terminal.h"  // StripAnsi: kernel names are coloured
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/uop/arg.h"

namespace tg {

struct KernelInfo {
  std::string name = "test";
  std::vector<AxisType> axis_types;
  bool dont_use_locals = false;
  // Opts are (op name, axis or None, arg) tuples until the optimizer gives them a type.
  std::vector<Arg> applied_opts;
  std::optional<std::vector<Arg>> opts_to_apply;

  // name with every character outside [A-Za-z0-9_] replaced by its two hex digits
  // (tinygrad's to_function_name; ANSI color codes are stripped first).
  std::string function_name() const;

  Arg ToArg() const;
  static bool IsKernelInfo(const Arg& a);
  static KernelInfo FromArg(const Arg& a);
};

struct BufferizeOpts {
  // GLOBAL: the device name (none for a local staging buffer); LOCAL: the buffer id.
  Arg device;
  AddrSpace addrspace = AddrSpace::GLOBAL;
  bool removable = true;

  Arg ToArg() const;
  static bool IsBufferizeOpts(const Arg& a);
  static BufferizeOpts FromArg(const Arg& a);
};

}  // namespace tg

#endif  // TINYGRAD_UOP_KERNEL_INFO_H_
