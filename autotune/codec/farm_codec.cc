// File: autotune/codec/farm_codec.cc
// Byte-level entry points of the farm protocol's codec.
#include "autotune/codec/farm_codec.h"

#include "autotune/codec/ast_codec.h"
#include "autotune/codec/farm_wire.h"
#include "autotune/codec/message_io.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::codec {

std::string_view FarmMessageKind(const FarmMessage& m) {
  static constexpr std::string_view kNames[] = {"hello", "ready", "heartbeat",
                                                "job",   "result", "bye"};
  return kNames[m.index()];
}

std::string EncodeFarmMessage(const FarmMessage& m) {
  capnp::MallocMessageBuilder message;
  internal::WriteMessage(m, message.initRoot<proto::FarmMessage>());
  return internal::ToBytes(message);
}

absl::StatusOr<FarmMessage> DecodeFarmMessage(std::string_view bytes, const DecodeLimits& limits) {
  return internal::DecodeRoot<proto::FarmMessage>("farm message", bytes, limits, [&](auto r) {
    return internal::ReadMessage(r, limits);
  });
}

std::optional<JobIds> PeekJobIds(std::string_view bytes, const DecodeLimits& limits) {
  absl::StatusOr<JobIds> ids = internal::DecodeRoot<proto::FarmMessage>(
      "farm message", bytes, limits, [](auto r) -> absl::StatusOr<JobIds> {
        if (r.which() != proto::FarmMessage::JOB) return absl::InvalidArgumentError("not a job");
        return JobIds{.job_id = r.getJob().getJobId(), .search_id = r.getJob().getSearchId()};
      });
  if (!ids.ok()) return std::nullopt;
  return *ids;
}

std::string EncodeOpts(std::span<const Opt> opts) {
  capnp::MallocMessageBuilder message;
  auto b = message.initRoot<proto::OptList>();
  internal::WriteOpts(opts, b);
  return internal::CanonicalBytes(b.asReader());
}

absl::StatusOr<std::vector<Opt>> DecodeOpts(std::string_view bytes, const DecodeLimits& limits) {
  return internal::DecodeRoot<proto::OptList>("opt list", bytes, limits, [&](auto r) {
    return internal::ReadOpts(r, limits, "opt list");
  });
}

std::string EncodeKernelTask(const KernelTask& task) {
  capnp::MallocMessageBuilder message;
  auto b = message.initRoot<proto::KernelTask>();
  internal::WriteTask(task, b);
  return internal::CanonicalBytes(b.asReader());
}

absl::StatusOr<KernelTask> DecodeKernelTask(std::string_view bytes, const DecodeLimits& limits) {
  return internal::DecodeRoot<proto::KernelTask>("kernel task", bytes, limits, [&](auto r) {
    return internal::ReadTask(r, limits);
  });
}

uint64_t KernelTaskDigest(const KernelTask& task) { return WireDigest(EncodeKernelTask(task)); }

std::string EncodeMeasureOptions(const MeasureOptions& o) {
  capnp::MallocMessageBuilder message;
  auto b = message.initRoot<proto::MeasureOptions>();
  internal::WriteOptions(o, b);
  return internal::CanonicalBytes(b.asReader());
}

absl::StatusOr<MeasureOptions> DecodeMeasureOptions(std::string_view bytes,
                                                    const DecodeLimits& limits) {
  return internal::DecodeRoot<proto::MeasureOptions>("measure options", bytes, limits, [&](auto r) {
    return internal::ReadOptions(r, limits);
  });
}

std::string EncodeMeasureBatch(const MeasureBatch& b) {
  capnp::MallocMessageBuilder message;
  MeasureResult m;
  m.batch = b;
  internal::WriteResult(m, message.initRoot<proto::MeasureResult>());
  return internal::ToBytes(message);
}

absl::StatusOr<MeasureBatch> DecodeMeasureBatch(std::string_view bytes, const DecodeLimits& limits) {
  return internal::DecodeRoot<proto::MeasureResult>("measure batch", bytes, limits,
                                          [&](auto r) -> absl::StatusOr<MeasureBatch> {
                                            ASSIGN_OR_RETURN(MeasureResult m, internal::ReadResult(r, limits));
                                            return std::move(m.batch);
                                          });
}

std::string EncodeDeviceClass(const DeviceClass& d) {
  capnp::MallocMessageBuilder message;
  auto b = message.initRoot<proto::DeviceDescription>();
  internal::WriteDevice(d, b);
  return internal::CanonicalBytes(b.asReader());
}

absl::StatusOr<DeviceClass> DecodeDeviceClass(std::string_view bytes, const DecodeLimits& limits) {
  return internal::DecodeRoot<proto::DeviceDescription>("device description", bytes, limits, [&](auto r) {
    return internal::ReadDevice(r, limits);
  });
}

}  // namespace tg::autotune::codec
