// File: tinygrad/runtime/cuda/buffer.cc
// Port of tinygrad/runtime/ops_cuda.py: CUDAAllocator (_alloc, _free, _copyin, _copyout).
#include "tinygrad/runtime/cuda/buffer.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

absl::StatusOr<CudaBuffer> CudaBuffer::Allocate(std::shared_ptr<CudaContext> ctx, size_t nbytes) {
  RETURN_IF_ERROR(ctx->MakeCurrent());
  CUdeviceptr ptr = 0;
  RETURN_IF_ERROR(ctx->api().Check(ctx->api().cuMemAlloc(&ptr, std::max<size_t>(nbytes, 1)),
                                   absl::StrCat("cuMemAlloc(", nbytes, " bytes)")));
  return CudaBuffer(std::move(ctx), ptr, nbytes);
}

CudaBuffer::CudaBuffer(CudaBuffer&& o) noexcept
    : ctx_(std::move(o.ctx_)), ptr_(o.ptr_), size_(o.size_) {
  o.ptr_ = 0;
  o.size_ = 0;
}

CudaBuffer& CudaBuffer::operator=(CudaBuffer&& o) noexcept {
  if (this != &o) {
    Free();
    ctx_ = std::move(o.ctx_);
    ptr_ = o.ptr_;
    size_ = o.size_;
    o.ptr_ = 0;
    o.size_ = 0;
  }
  return *this;
}

CudaBuffer::~CudaBuffer() { Free(); }

void CudaBuffer::Free() {
  if (ctx_ == nullptr) return;
  // Errors are dropped: a poisoned context refuses the free, and the memory goes with it.
  if (ctx_->MakeCurrent().ok()) (void)ctx_->api().cuMemFree(ptr_);
  ctx_.reset();
  ptr_ = 0;
}

absl::Status CudaBuffer::CheckRange(size_t offset, size_t n) const {
  if (ctx_ == nullptr) return absl::FailedPreconditionError("CUDA buffer was moved from");
  if (offset > size_ || n > size_ - offset)
    return absl::InvalidArgumentError(absl::StrCat("copy of ", n, " bytes at offset ", offset,
                                                   " is outside a ", size_, "-byte CUDA buffer"));
  return absl::OkStatus();
}

absl::Status CudaBuffer::CopyIn(std::span<const std::byte> src, size_t offset) {
  RETURN_IF_ERROR(CheckRange(offset, src.size()));
  if (src.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  return ctx_->api().Check(ctx_->api().cuMemcpyHtoD(ptr_ + offset, src.data(), src.size()),
                           "cuMemcpyHtoD");
}

absl::Status CudaBuffer::CopyIn(std::span<const std::byte> src, size_t offset,
                                PinnedUploader& uploader) {
  RETURN_IF_ERROR(CheckRange(offset, src.size()));
  return uploader.CopyIn(ptr_ + offset, src);
}

absl::Status CudaBuffer::CopyOut(std::span<std::byte> dst, size_t offset) const {
  RETURN_IF_ERROR(CheckRange(offset, dst.size()));
  if (dst.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  return ctx_->api().Check(ctx_->api().cuMemcpyDtoH(dst.data(), ptr_ + offset, dst.size()),
                           "cuMemcpyDtoH");
}

absl::Status CudaBuffer::CopyFrom(const CudaBuffer& src, size_t src_offset, size_t offset, size_t n) {
  RETURN_IF_ERROR(CheckRange(offset, n));
  RETURN_IF_ERROR(src.CheckRange(src_offset, n));
  if (n == 0) return absl::OkStatus();
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  return ctx_->api().Check(
      ctx_->api().cuMemcpyPeer(ptr_ + offset, ctx_->handle(), src.ptr_ + src_offset, src.ctx_->handle(), n),
      "cuMemcpyPeer");
}

absl::Status CudaBuffer::Fill(uint8_t value) {
  RETURN_IF_ERROR(CheckRange(0, 0));
  if (size_ == 0) return absl::OkStatus();
  RETURN_IF_ERROR(ctx_->MakeCurrent());
  return ctx_->api().Check(ctx_->api().cuMemsetD8(ptr_, value, size_), "cuMemsetD8");
}

}  // namespace tg
