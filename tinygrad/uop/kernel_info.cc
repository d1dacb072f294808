// File: tinygrad/uop/kernel_info.cc
#include "tinygrad/uop/kernel_info.h"

#include <cstdio>

#include "tinygrad/base/check.h"

namespace tg {
namespace {

constexpr const char* kKernelInfoTag = "KernelInfo";
constexpr const char* kBufferizeTag = "BufferizeOpts";

bool HasTag(const Arg& a, const char* tag, size_t n) {
  return a.is_tuple() && a.size() == n && a[0].is_string() && a[0].str() == tag;
}

}  // namespace

std::string KernelInfo::function_name() const {
  std::string out;
  for (unsigned char c : StripAnsi(name)) {
    if (std::isalnum(c) || c == '_') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      snprintf(buf, sizeof(buf), "%02X", c);
      out += buf;
    }
  }
  return out;
}

Arg KernelInfo::ToArg() const {
  std::vector<Arg> axes(axis_types.begin(), axis_types.end());
  return Arg::Tuple({kKernelInfoTag, name, Arg::Tuple(std::move(axes)), dont_use_locals,
                     Arg::Tuple(applied_opts), opts_to_apply ? Arg::Tuple(*opts_to_apply) : Arg()});
}

bool KernelInfo::IsKernelInfo(const Arg& a) { return HasTag(a, kKernelInfoTag, 6); }

KernelInfo KernelInfo::FromArg(const Arg& a) {
  TG_CHECK(IsKernelInfo(a)) << "not a KernelInfo arg: " << a;
  KernelInfo k;
  k.name = a[1].str();
  for (const Arg& t : a[2].tuple()) k.axis_types.push_back(t.axis_type());
  k.dont_use_locals = a[3].int64() != 0;
  k.applied_opts.assign(a[4].tuple().begin(), a[4].tuple().end());
  if (!a[5].is_none()) k.opts_to_apply.emplace(a[5].tuple().begin(), a[5].tuple().end());
  return k;
}

Arg BufferizeOpts::ToArg() const {
  return Arg::Tuple({kBufferizeTag, device, static_cast<int>(addrspace), removable});
}

bool BufferizeOpts::IsBufferizeOpts(const Arg& a) { return HasTag(a, kBufferizeTag, 4); }

BufferizeOpts BufferizeOpts::FromArg(const Arg& a) {
  TG_CHECK(IsBufferizeOpts(a)) << "not a BufferizeOpts arg: " << a;
  return {.device = a[1],
          .addrspace = static_cast<AddrSpace>(a[2].int64()),
          .removable = a[3].int64() != 0};
}

}  // namespace tg
