// File: tinygrad/runtime/cuda/fake_cuda.cc
#include "tinygrad/runtime/cuda/fake_cuda.h"

#include <cstdlib>
#include <fstream>

#include "tinygrad/base/status_macros.h"

namespace tg {

absl::StatusOr<FakeCuda> FakeCuda::Open() {
  const char *srcdir = std::getenv("TEST_SRCDIR"), *ws = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || ws == nullptr)
    return absl::FailedPreconditionError("the fake CUDA driver is found through Bazel's runfiles");
  std::string path = std::string(srcdir) + "/" + ws + "/tinygrad/runtime/cuda/libfake_cuda.so";
  if (!std::ifstream(path))
    return absl::FailedPreconditionError(
        "no fake CUDA driver in the runfiles: add //tinygrad/runtime/cuda:libfake_cuda.so to the "
        "test's data");
  const std::string candidates[] = {path};
  ASSIGN_OR_RETURN(DynamicLibrary lib, DynamicLibrary::Open("the fake CUDA driver", candidates));
  FakeCuda f(path, std::move(lib));
  RETURN_IF_ERROR(f.lib_.Bind(f.record_params_, {"tgFakeCudaRecordParams"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.launches_, {"tgFakeCudaLaunches"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.last_launch_, {"tgFakeCudaLastLaunch"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.fault_on_launch_, {"tgFakeCudaFaultOnLaunch"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.reset_, {"tgFakeCudaReset"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.memsets_, {"tgFakeCudaMemsets"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.live_objects_, {"tgFakeCudaLiveObjects"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.set_devices_, {"tgFakeCudaSetDevices"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.peer_copies_, {"tgFakeCudaPeerCopies"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.fail_peer_copies_, {"tgFakeCudaFailPeerCopies"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.graph_launches_, {"tgFakeCudaGraphLaunches"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.async_copies_, {"tgFakeCudaAsyncCopies"}));
  RETURN_IF_ERROR(f.lib_.Bind(f.fail_host_allocs_, {"tgFakeCudaFailHostAllocs"}));
  return f;
}

void FakeCuda::RecordParams(int k) const {
  recorded_params_ = k < 0 ? 0 : (k > 16 ? 16 : k);
  record_params_(recorded_params_);
}

int FakeCuda::Launches() const { return launches_(); }

FakeLaunch FakeCuda::LastLaunch() const {
  char name[256] = {};
  unsigned dims[6] = {};
  unsigned long long params[16] = {};
  last_launch_(name, sizeof(name), dims, params);
  FakeLaunch l{.kernel = name,
               .grid = {dims[0], dims[1], dims[2]},
               .block = {dims[3], dims[4], dims[5]}};
  for (int i = 0; i < recorded_params_; ++i) l.params.push_back(params[i]);
  return l;
}

void FakeCuda::FaultOnLaunch(int n) const { fault_on_launch_(n); }
void FakeCuda::Reset() const {
  reset_();
  RecordParams(0);
  FaultOnLaunch(0);
}
int FakeCuda::Memsets(size_t* last_bytes) const { return memsets_(last_bytes); }
int FakeCuda::LiveObjects() const { return live_objects_(); }
void FakeCuda::SetDevices(int n) const { set_devices_(n); }
int FakeCuda::PeerCopies() const { return peer_copies_(); }
void FakeCuda::FailPeerCopies(int code) const { fail_peer_copies_(code); }
int FakeCuda::GraphLaunches() const { return graph_launches_(); }
void FakeCuda::FailHostAllocs(int code) const { fail_host_allocs_(code); }
FakeAsyncCopies FakeCuda::AsyncCopies() const {
  FakeAsyncCopies c;
  c.copies = async_copies_(&c.pinned_alive, &c.queued);
  return c;
}

}  // namespace tg
