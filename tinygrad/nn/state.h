// File: tinygrad/nn/state.h
// Tensors saved to and loaded from safetensors files (safetensors_format.h describes the
// format). Port of tinygrad/nn/state.py: safe_save, safe_load, safe_load_metadata. The state
// dicts of nn modules build on these.
//
// Example:
//   RETURN_IF_ERROR(SafeSave("model.safetensors", {{"bias", b}, {"weight", w}}, {{"step", "3"}}));
//   ASSIGN_OR_RETURN(auto state, SafeLoad("model.safetensors"));   // nothing read yet
//   Tensor y = x.linear(state.at("weight"), state.at("bias"));     // read when y is realized
//
// SafeLoad is lazy, as the reference's DISK tensors are: it maps the file, checks its header,
// and gives tensors whose buffers are views of the mapping. A tensor's bytes are copied onto its
// device only when it is realized (realize(), reading it with to_vector, a kernel that reads
// it); to() another device copies straight from the mapping. The mapping lives while some
// tensor's bytes are still only there, and goes when the last of them has been copied or its
// tensor dropped (the engine lets go of a dropped tensor's buffer at the next realize). Loaded tensors are ordinary tensors: ops, assign and SafeSave (even to the
// same path: a new file replaces the old one, which the mapping keeps) all work on them.
#ifndef TINYGRAD_NN_STATE_H_
#define TINYGRAD_NN_STATE_H_

#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/nn/safetensors_format.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {

// Writes `tensors` (realized together first, then written in name order, back to back) and
// `metadata` as a safetensors file at `path`, through a new file renamed over `path` at the
// end (a failed save leaves what was there). Errors name the tensor: an errored one, a
// symbolic shape, a dtype the format can't hold (index, vectors); and the path for IO errors.
absl::Status SafeSave(const std::string& path, const std::map<std::string, Tensor>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

// The tensors of the safetensors file at `path`, lazily loaded onto `device` (above). Every
// problem of the file (ParseSafetensors lists them) is an InvalidArgument naming the path and
// the tensor; a missing file is NotFound.
absl::StatusOr<std::map<std::string, Tensor>> SafeLoad(const std::string& path,
                                                       const std::string& device = DefaultDevice());

// The checked header of the file at `path`: each tensor's dtype, shape and byte range, and the
// metadata (the reference's safe_load_metadata). Reads the header only.
absl::StatusOr<SafetensorsHeader> SafeLoadMetadata(const std::string& path);

}  // namespace tg

#endif  // TINYGRAD_NN_STATE_H_
