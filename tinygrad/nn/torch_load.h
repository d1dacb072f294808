// File: tinygrad/nn/torch_load.h
// PyTorch checkpoints (what torch.save writes) loaded into named tensors, and the zip archives
// they are. Port of tinygrad/nn/state.py: torch_load, zip_extract.
//
// Example:
//   ASSIGN_OR_RETURN(auto state, TorchLoad("model.pt"));   // nothing read yet but the pickle
//   Tensor y = x.linear(state.at("fc.weight"), state.at("fc.bias"));
//
// Formats: the zip archive torch.save writes since torch 1.6 (`<name>/data.pkl`, storages in
// `<name>/data/<key>`, stored or deflated), and the legacy format before it
// (_use_new_zipfile_serialization=False: pickles and storages back to back). The pickle is read
// by a small strict unpickler of our own that runs nothing: it knows the opcodes torch writes,
// and the globals the reference accepts (torch._utils._rebuild_tensor(_v2), the typed storage
// classes, collections.OrderedDict; numpy and _codecs objects become opaque values that hold
// no tensor). Anything else in the pickle is an error naming the opcode or global and its byte
// offset. The file is untrusted input: every length and offset is checked, and sizes, nesting
// and object counts are bounded.
//
// What the pickle holds is flattened as the reference's get_state_dict(torch_load(path)) does:
// nested dicts and lists give dotted names ("model.layer.weight", "tensors.0"), values that
// are not tensors (ints, strings, None, ...) are dropped, and a tensor the pickle names twice
// is the same Tensor under both names.
//
// Loading is lazy as SafeLoad's is (state.h): the file is mapped, and a tensor's buffer is a
// view of the mapping, copied onto `device` when first used. A deflated storage is inflated
// when loading (into memory the tensors then hold). Transposed and other permuted tensors are
// that view, reshaped and permuted.
//
// Differences from the reference (TODO(parity) where we could follow it):
// - The storages the reference has no entry for (ByteStorage, CharStorage, ShortStorage,
//   DoubleStorage: uint8, int8, int16, float64) load; the reference raises KeyError.
// - Deflated storages load; the reference reads their compressed bytes as data.
// - bfloat16 tensors with permuted strides load; the reference refuses ("can't permute BF16").
// - A `byteorder` member other than "little", a legacy header that says big-endian, and a
//   tensor that reaches past its storage are errors; the reference reads such files anyway.
// - TODO(parity): the tar format of torch < 0.1.10 is not read (an error says so), and
//   globals from other modules are errors where the reference makes dummy objects of them.
#ifndef TINYGRAD_NN_TORCH_LOAD_H_
#define TINYGRAD_NN_TORCH_LOAD_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {

// The tensors of the PyTorch checkpoint at `path`, lazily loaded onto `device` (above). A
// missing file is NotFound; every problem of the file is an InvalidArgument naming the path,
// the archive member or pickle byte offset, and what was wrong.
absl::StatusOr<std::map<std::string, Tensor>> TorchLoad(
    const std::string& path, const std::string& device = DefaultDevice());

// Each member of the zip archive at `path` as a 1-D uint8 tensor of its contents, by member
// name (the reference's zip_extract): stored members are views of the mapped file, deflated
// ones are inflated now. Other compression methods, encrypted members and a damaged archive
// are InvalidArgument errors naming the path and the member.
absl::StatusOr<std::map<std::string, Tensor>> ZipExtract(
    const std::string& path, const std::string& device = DefaultDevice());

}  // namespace tg

#endif  // TINYGRAD_NN_TORCH_LOAD_H_
