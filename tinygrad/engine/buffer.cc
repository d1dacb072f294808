// File: tinygrad/engine/buffer.cc
#include "tinygrad/engine/buffer.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

Buffer::Buffer(std::shared_ptr<Buffer> base, int64_t size, DType dtype, int64_t offset)
    : device_(base->device()), size_(size), dtype_(dtype), base_(std::move(base)),
      offset_(offset) {
  TG_CHECK(base_->base() == nullptr) << "a view's base must be a plain buffer";
  TG_CHECK(offset_ + static_cast<int64_t>(nbytes()) <= static_cast<int64_t>(base_->nbytes()))
      << "view of " << nbytes() << " bytes at " << offset_ << " exceeds its base of "
      << base_->nbytes();
}

bool Buffer::is_allocated() const { return base_ ? base_->is_allocated() : raw_ != nullptr; }

bool Buffer::has_pending_contents() const {
  return base_ ? base_->has_pending_contents() : pending_owner_ != nullptr;
}

bool Buffer::has_contents() const { return is_allocated() || has_pending_contents(); }

absl::Status Buffer::SetPendingContents(std::span<const std::byte> bytes,
                                        std::shared_ptr<const void> owner) {
  if (base_ || raw_)
    return absl::InvalidArgumentError("pending contents need an unallocated plain buffer");
  if (bytes.size() != nbytes())
    return absl::InvalidArgumentError(
        absl::StrCat("pending contents of ", bytes.size(), " bytes for a buffer of ", nbytes()));
  if (!owner) return absl::InvalidArgumentError("pending contents need an owner");
  pending_ = bytes;
  pending_owner_ = std::move(owner);
  return absl::OkStatus();
}

absl::Status Buffer::EnsureAllocated(const DeviceOptions& options) {
  if (base_) return base_->EnsureAllocated(options);
  if (raw_) return absl::OkStatus();
  ASSIGN_OR_RETURN(Device * dev, GetDevice(device_, options));
  // Zero-size buffers still get an address: kernels may take them as (unused) arguments.
  ASSIGN_OR_RETURN(std::shared_ptr<RawBuffer> raw, dev->Allocate(std::max<size_t>(nbytes(), 1)));
  if (pending_owner_) {
    // Stays pending if the copy fails, so a later use can try again.
    RETURN_IF_ERROR(raw->CopyIn(pending_, 0));
    pending_ = {};
    pending_owner_.reset();
  }
  raw_ = std::move(raw);
  return absl::OkStatus();
}

void* Buffer::data() {
  if (base_) return static_cast<std::byte*>(base_->data()) + offset_;
  TG_CHECK(raw_) << "buffer of " << nbytes() << " bytes on " << device_ << " is not allocated";
  return raw_->data();
}

absl::Status Buffer::CopyIn(std::span<const std::byte> src, const DeviceOptions& options) {
  if (src.size() != nbytes())
    return absl::InvalidArgumentError(
        absl::StrCat("copyin of ", src.size(), " bytes into a buffer of ", nbytes()));
  RETURN_IF_ERROR(EnsureAllocated(options));
  if (base_) return base_->raw_->CopyIn(src, static_cast<size_t>(offset_));
  return raw_->CopyIn(src, 0);
}

absl::Status Buffer::CopyOut(std::span<std::byte> dst) {
  if (dst.size() != nbytes())
    return absl::InvalidArgumentError(
        absl::StrCat("copyout of a buffer of ", nbytes(), " bytes into ", dst.size()));
  Buffer& plain = base_ ? *base_ : *this;
  if (!plain.raw_ && plain.pending_owner_) {  // not on the device yet: read the host contents
    if (!dst.empty()) std::memcpy(dst.data(), plain.pending_.data() + offset_, dst.size());
    return absl::OkStatus();
  }
  if (!is_allocated())
    return absl::FailedPreconditionError("copyout of a buffer that was never written");
  return plain.raw_->CopyOut(dst, static_cast<size_t>(offset_));
}

absl::Status Buffer::CopyFromDevice(Buffer& src, const DeviceOptions& options) {
  if (src.nbytes() != nbytes())
    return absl::InvalidArgumentError(
        absl::StrCat("copy of a buffer of ", src.nbytes(), " bytes into one of ", nbytes()));
  if (!src.is_allocated())
    return absl::FailedPreconditionError("copy of a buffer that was never written");
  RETURN_IF_ERROR(EnsureAllocated(options));
  Buffer& dst_base = base_ ? *base_ : *this;
  Buffer& src_base = src.base_ ? *src.base_ : src;
  return dst_base.raw_->CopyFromDevice(*src_base.raw_, static_cast<size_t>(src.offset_),
                                       static_cast<size_t>(offset_), nbytes());
}

BufferTable& BufferTable::Get() {
  static BufferTable* const table = new BufferTable();
  return *table;
}

std::vector<std::shared_ptr<Buffer>>& BufferTable::ShardsLocked(const UOp& b) {
  TG_CHECK(b.op() == Ops::BUFFER) << "not a BUFFER: " << b.op();
  std::vector<std::shared_ptr<Buffer>>& slot = table_[b];
  if (slot.empty()) {
    const Arg& devices = b.device();
    for (const Arg& d : devices.is_tuple() ? devices.tuple() : std::span<const Arg>(&devices, 1))
      slot.push_back(std::make_shared<Buffer>(d.str(), b.arg().int64(), b.dtype()));
  }
  return slot;
}

std::shared_ptr<Buffer> BufferTable::GetOrCreate(const UOp& b) {
  std::lock_guard<std::mutex> lock(mu_);
  if (b.op() == Ops::MSELECT) {
    std::vector<std::shared_ptr<Buffer>>& shards = ShardsLocked(b.src(0));
    const int64_t i = b.arg().int64();
    TG_CHECK(i >= 0 && i < static_cast<int64_t>(shards.size()))
        << "MSELECT " << i << " of " << shards.size();
    return shards[i];
  }
  TG_CHECK(!b.device().is_tuple()) << "a multi-device BUFFER has a Buffer per device";
  return ShardsLocked(b)[0];
}

std::vector<std::shared_ptr<Buffer>> BufferTable::GetOrCreateShards(const UOp& b) {
  std::lock_guard<std::mutex> lock(mu_);
  return ShardsLocked(b);
}

std::shared_ptr<Buffer> BufferTable::Find(const UOp& b) {
  std::vector<std::shared_ptr<Buffer>> shards = FindShards(b);
  return shards.size() == 1 ? shards[0] : nullptr;
}

std::vector<std::shared_ptr<Buffer>> BufferTable::FindShards(const UOp& b) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = table_.find(b);
  return it == table_.end() ? std::vector<std::shared_ptr<Buffer>>{} : it->second;
}

void BufferTable::Set(const UOp& b, std::shared_ptr<Buffer> buffer) {
  std::lock_guard<std::mutex> lock(mu_);
  table_[b] = {std::move(buffer)};
}

size_t BufferTable::Sweep() {
  std::lock_guard<std::mutex> lock(mu_);
  size_t dropped = 0;
  for (auto it = table_.begin(); it != table_.end();) {
    if (it->first.use_count() == 1) {
      table_.erase(it++);
      ++dropped;
    } else {
      ++it;
    }
  }
  return dropped;
}

absl::flat_hash_set<const Buffer*> BufferTable::Named() {
  std::lock_guard<std::mutex> lock(mu_);
  absl::flat_hash_set<const Buffer*> named;
  for (const auto& [uop, shards] : table_)
    for (const std::shared_ptr<Buffer>& buffer : shards) {
      named.insert(buffer.get());
      if (buffer->base() != nullptr) named.insert(buffer->base().get());
    }
  return named;
}

size_t BufferTable::size() {
  std::lock_guard<std::mutex> lock(mu_);
  return table_.size();
}

}  // namespace tg
