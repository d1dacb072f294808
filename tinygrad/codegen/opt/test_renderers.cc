// File: tinygrad/codegen/opt/test_renderers.cc
// Port of the capability attributes of tinygrad/renderer/cstyle.py CUDARenderer and
// AMDHIPRenderer (no rendering).
#include "tinygrad/codegen/opt/test_renderers.h"

#include <string>

namespace tg {
namespace {

// Only the capabilities matter; the optimizer never renders.
class CapabilityRenderer : public Renderer {
 public:
  std::string Render(std::span<const UOp>) const override { return "/* capability-only test renderer */"; }
};

}  // namespace

const Renderer& CudaLikeRenderer() {
  static const auto* const kRen = [] {
    auto* r = new CapabilityRenderer();
    r->device = "CUDA";
    r->global_max = LaunchDims{2147483647, 65535, 65535};
    r->local_max = LaunchDims{1024, 1024, 64};
    r->shared_max = 49152;
    r->tensor_cores = tensor_cores::CudaSm89();
    return r;
  }();
  return *kRen;
}

const Renderer& AmdRdna3LikeRenderer() {
  static const auto* const kRen = [] {
    auto* r = new CapabilityRenderer();
    r->device = "AMD";
    r->shared_max = 65536;
    r->global_max = LaunchDims{2147483647, 65535, 65535};
    r->tensor_cores = tensor_cores::AmdRdna3();
    return r;
  }();
  return *kRen;
}

const Renderer& AmdCdna3LikeRenderer() {
  static const auto* const kRen = [] {
    auto* r = new CapabilityRenderer();
    r->device = "AMD";
    r->shared_max = 65536;
    r->global_max = LaunchDims{2147483647, 65535, 65535};
    r->tensor_cores = tensor_cores::AmdCdna3();
    return r;
  }();
  return *kRen;
}

}  // namespace tg
