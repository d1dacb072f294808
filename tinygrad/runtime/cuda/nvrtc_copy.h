// File: tinygrad/runtime/cuda/nvrtc_copy.h
// A private instance of NVRTC, for compiling on several threads of one process at once.
//
// NVRTC takes a process-wide lock for part of every compile (a futex in libnvrtc, woken from
// under nvrtcCompileProgram), so two threads of one process sleep on each other where two
// processes do not (compile_benchmark: BM_NvrtcToCubin/threads:2). The lock belongs to the
// loaded library, not the process: a copy of the library's file, loaded from a path of its own,
// is a second instance (the dynamic loader tells libraries apart by file, i.e. device and inode)
// with a lock of its own. dlmopen into a new link namespace, which needs no file, crashed NVRTC
// 13.0. The copy (about 110 MB for NVRTC 13.0) is deleted as soon as it is loaded: the mapping
// outlives the file, and nothing is left behind, whatever happens to the process later. What an
// instance costs while it lives: the pages of its code that compiles touch (page cache, as for
// any file) and its own writable data (about 15 MB).
//
// Copies are made where files can still be opened: a sandboxed worker child (workers/sandbox.h)
// makes them before its sandbox closes, as it reads the CUDA headers (nvrtc_headers.h).
//
// Example:
//   ASSIGN_OR_RETURN(std::shared_ptr<const NvrtcApi> own, LoadNvrtcCopy(*nvrtc, "/tmp"));
#ifndef TINYGRAD_RUNTIME_CUDA_NVRTC_COPY_H_
#define TINYGRAD_RUNTIME_CUDA_NVRTC_COPY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/nvrtc_api.h"

namespace tg {

// A new instance of the library `loaded` came from, copied into a fresh directory under
// `temp_dir`, loaded, and deleted again. Errors say which step failed and why:
// FailedPrecondition when the loader cannot say which file `loaded` is, or `temp_dir` is empty;
// Internal for a directory or copy that cannot be made (a full disk, no permission); the
// errors of NvrtcApi::LoadFile; Internal when the copy reports another version than `loaded`.
absl::StatusOr<std::shared_ptr<const NvrtcApi>> LoadNvrtcCopy(const NvrtcApi& loaded, const std::string& temp_dir);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_NVRTC_COPY_H_
