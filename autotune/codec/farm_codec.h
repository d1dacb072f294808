// File: autotune/codec/farm_codec.h
// Encode/decode of the farm protocol's values (farm_messages.h) and of their parts on their
// own (opt lists, kernel tasks, measure options, measure batches, device classes).
//
// Encoders write canonical bytes (Cap'n Proto canonical form, one segment) for values that are
// hashed or cached (opt lists, tasks, device classes) and plain flat-array bytes otherwise;
// both are ordinary messages `capnp decode` prints. Decoders take untrusted bytes and return a
// Status naming the field for anything malformed, truncated, over DecodeLimits, or
// inconsistent (an unknown enum ordinal or union tag, a TC arg on a non-TC opt, a device
// digest that doesn't match its fields, ...); they never abort and never throw.
#ifndef AUTOTUNE_CODEC_FARM_CODEC_H_
#define AUTOTUNE_CODEC_FARM_CODEC_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "autotune/codec/farm_messages.h"
#include "autotune/codec/limits.h"
#include "autotune/key/device_class.h"
#include "autotune/measure/measurer.h"
#include "tinygrad/codegen/opt/opt.h"

namespace tg::autotune::codec {

std::string EncodeFarmMessage(const FarmMessage& m);
absl::StatusOr<FarmMessage> DecodeFarmMessage(std::string_view bytes,
                                              const DecodeLimits& limits = {});

// The ids of a job message, read without the rest of it: a worker answers a job it cannot
// decode (a task it refuses, a bad candidate) with the decode error, rather than leaving the
// coordinator waiting for it. nullopt: not a readable job message.
struct JobIds {
  uint64_t job_id = 0;
  uint64_t search_id = 0;
};
std::optional<JobIds> PeekJobIds(std::string_view bytes, const DecodeLimits& limits = {});

std::string EncodeOpts(std::span<const Opt> opts);  // canonical OptList
absl::StatusOr<std::vector<Opt>> DecodeOpts(std::string_view bytes,
                                            const DecodeLimits& limits = {});

std::string EncodeKernelTask(const KernelTask& task);  // canonical
absl::StatusOr<KernelTask> DecodeKernelTask(std::string_view bytes,
                                            const DecodeLimits& limits = {});
// WireDigest of EncodeKernelTask: the key a worker keeps tasks under.
uint64_t KernelTaskDigest(const KernelTask& task);

std::string EncodeMeasureOptions(const MeasureOptions& o);
absl::StatusOr<MeasureOptions> DecodeMeasureOptions(std::string_view bytes,
                                                    const DecodeLimits& limits = {});

// A MeasureResult message without ids (job_id = search_id = 0, status OK).
std::string EncodeMeasureBatch(const MeasureBatch& b);
absl::StatusOr<MeasureBatch> DecodeMeasureBatch(std::string_view bytes,
                                                const DecodeLimits& limits = {});

std::string EncodeDeviceClass(const DeviceClass& d);  // canonical, with its Digest()
absl::StatusOr<DeviceClass> DecodeDeviceClass(std::string_view bytes,
                                              const DecodeLimits& limits = {});

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_FARM_CODEC_H_
