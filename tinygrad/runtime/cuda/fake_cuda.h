// File: tinygrad/runtime/cuda/fake_cuda.h
// For tests: the fake libcuda (fake_cuda_driver.cc) as a test finds it in its Bazel runfiles
// (a test lists //tinygrad/runtime/cuda:libfake_cuda.so in its data), and its controls: the
// launch log, fault injection and the reset out of a fault.
//
// Example:
//   absl::StatusOr<FakeCuda> fake = FakeCuda::Open();
//   if (!fake.ok()) GTEST_SKIP() << fake.status();
//   CudaLibraryOptions libs; libs.driver_path = fake->path();
//   fake->FaultOnLaunch(2);   // the second launch from now poisons the context
#ifndef TINYGRAD_RUNTIME_CUDA_FAKE_CUDA_H_
#define TINYGRAD_RUNTIME_CUDA_FAKE_CUDA_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/runtime/dynamic_library.h"

namespace tg {

struct FakeLaunch {
  std::string kernel;
  std::array<unsigned, 3> grid{}, block{};
  std::vector<uint64_t> params;  // the first RecordParams(k) arguments, as 8-byte values
};

// The asynchronous copies (cuMemcpyHtoDAsync) so far, the pinned host allocations alive, and
// the copies queued but not done (the fake does them at the next call ordered after them).
struct FakeAsyncCopies {
  int copies = 0, pinned_alive = 0, queued = 0;
};

class FakeCuda {
 public:
  // FailedPrecondition outside a Bazel test (no runfiles) or when the test lacks the data dep.
  static absl::StatusOr<FakeCuda> Open();

  // The library file: what CudaLibraryOptions::driver_path (or CUDA_DRIVER_PATH) takes.
  const std::string& path() const { return path_; }

  void RecordParams(int k) const;
  int Launches() const;
  FakeLaunch LastLaunch() const;
  void FaultOnLaunch(int n) const;  // the n-th launch from now poisons the context
  // Out of a fault (the context works again); no arguments recorded, no fault pending, host
  // allocations work.
  void Reset() const;
  int Memsets(size_t* last_bytes = nullptr) const;
  int LiveObjects() const;  // allocations (device and pinned) + modules + events + graphs
  // cuGraphLaunch calls that ran (each node's launch is in the launch log too).
  int GraphLaunches() const;
  // How many GPUs the driver reports from now on (1, the default, to 4): "CUDA:1" needs 2.
  void SetDevices(int n) const;
  // cuMemcpyPeer calls that copied; FailPeerCopies(code): the next ones answer the CUresult
  // `code` (e.g. 217, CUDA_ERROR_PEER_ACCESS_UNSUPPORTED) without copying; 0 copies again.
  int PeerCopies() const;
  void FailPeerCopies(int code) const;
  FakeAsyncCopies AsyncCopies() const;
  // cuMemHostAlloc answers the CUresult `code` from now on (e.g. 2, out of memory); 0 (and
  // Reset) allocates again.
  void FailHostAllocs(int code) const;

 private:
  FakeCuda(std::string path, DynamicLibrary lib) : path_(std::move(path)), lib_(std::move(lib)) {}
  std::string path_;
  DynamicLibrary lib_;
  void (*record_params_)(int) = nullptr;
  int (*launches_)() = nullptr;
  void (*last_launch_)(char*, int, unsigned*, unsigned long long*) = nullptr;
  void (*fault_on_launch_)(int) = nullptr;
  void (*reset_)() = nullptr;
  int (*memsets_)(size_t*) = nullptr;
  int (*live_objects_)() = nullptr;
  void (*set_devices_)(int) = nullptr;
  int (*peer_copies_)() = nullptr;
  void (*fail_peer_copies_)(int) = nullptr;
  int (*graph_launches_)() = nullptr;
  int (*async_copies_)(int*, int*) = nullptr;
  void (*fail_host_allocs_)(int) = nullptr;
  mutable int recorded_params_ = 0;
};

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_FAKE_CUDA_H_
