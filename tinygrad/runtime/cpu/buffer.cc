// File: tinygrad/runtime/cpu/buffer.cc
// Port of tinygrad/runtime/ops_cpu.py: CPUAllocator (aligned heap memory instead of mmap).
#include "tinygrad/runtime/cpu/buffer.h"

#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"

namespace tg {

absl::StatusOr<CpuBuffer> CpuBuffer::Allocate(size_t nbytes) {
  // aligned_alloc needs a size that is a multiple of the alignment (and non-zero)
  size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr) return absl::ResourceExhaustedError(absl::StrCat("can't allocate ", nbytes, " bytes"));
  std::memset(p, 0, rounded);
  return CpuBuffer(p, nbytes);
}

CpuBuffer& CpuBuffer::operator=(CpuBuffer&& o) noexcept {
  if (this != &o) {
    std::free(data_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

CpuBuffer::~CpuBuffer() { std::free(data_); }

void CpuBuffer::CopyIn(std::span<const std::byte> src) {
  TG_CHECK(src.size() == size_) << "copyin of " << src.size() << " bytes into " << size_;
  if (size_ > 0) std::memcpy(data_, src.data(), size_);
}

void CpuBuffer::CopyOut(std::span<std::byte> dst) const {
  TG_CHECK(dst.size() == size_) << "copyout of " << size_ << " bytes into " << dst.size();
  if (size_ > 0) std::memcpy(dst.data(), data_, size_);
}

}  // namespace tg
