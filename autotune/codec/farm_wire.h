// File: autotune/codec/farm_wire.h
// The farm protocol's values <-> their schema structs. Internal to autotune/codec; Read*
// may throw kj::Exception (callers run them inside CatchCapnp).
#ifndef AUTOTUNE_CODEC_FARM_WIRE_H_
#define AUTOTUNE_CODEC_FARM_WIRE_H_

#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/codec/limits.h"
#include "autotune/proto/farm.capnp.h"
#include "autotune/proto/kernel.capnp.h"

namespace tg::autotune::codec::internal {

void WriteOpts(std::span<const Opt> opts, proto::OptList::Builder b);
absl::StatusOr<std::vector<Opt>> ReadOpts(proto::OptList::Reader r, const DecodeLimits& limits,
                                          absl::string_view where);

void WriteTask(const KernelTask& t, proto::KernelTask::Builder b);
absl::StatusOr<KernelTask> ReadTask(proto::KernelTask::Reader r, const DecodeLimits& limits);

void WriteOptions(const MeasureOptions& o, proto::MeasureOptions::Builder b);
absl::StatusOr<MeasureOptions> ReadOptions(proto::MeasureOptions::Reader r,
                                           const DecodeLimits& limits);

// A batch-level status (code and message); writers leave the field unset for OK. ReadStatus
// sets `*status` to the one on the wire and returns an error naming `where` for a bad one.
void WriteStatus(const absl::Status& s, proto::BatchStatus::Builder b);
absl::Status ReadStatus(proto::BatchStatus::Reader r, const DecodeLimits& limits,
                        absl::string_view where, absl::Status* status);

void WriteResult(const MeasureResult& m, proto::MeasureResult::Builder b);
absl::StatusOr<MeasureResult> ReadResult(proto::MeasureResult::Reader r,
                                         const DecodeLimits& limits);

void WriteRequest(const MeasureRequest& m, proto::MeasureRequest::Builder b);
absl::StatusOr<MeasureRequest> ReadRequest(proto::MeasureRequest::Reader r,
                                           const DecodeLimits& limits);

void WriteDevice(const DeviceClass& d, proto::DeviceDescription::Builder b);
absl::StatusOr<DeviceClass> ReadDevice(proto::DeviceDescription::Reader r,
                                       const DecodeLimits& limits);

void WriteMessage(const FarmMessage& m, proto::FarmMessage::Builder b);
absl::StatusOr<FarmMessage> ReadMessage(proto::FarmMessage::Reader r, const DecodeLimits& limits);

}  // namespace tg::autotune::codec::internal

#endif  // AUTOTUNE_CODEC_FARM_WIRE_H_
