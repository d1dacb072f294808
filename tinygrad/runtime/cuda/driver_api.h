// File: tinygrad/runtime/cuda/driver_api.h
// Our declarations of the CUDA driver API entry points tinygrad-cc uses (cuda.h's C ABI, as the
// reference's runtime/autogen/cuda.py declares them for ctypes), bound at run time from libcuda
// (the GPU driver's library). No CUDA header or library is needed to build this.
//
// Entry points cuda.h renames by macro (cuMemAlloc -> cuMemAlloc_v2) are bound under the name
// the macro gives (the ABI the driver keeps for that signature); members keep the plain name.
// Every driver failure becomes a Status through Check(), which names the call and the CUDA
// error (cuGetErrorName: "CUDA_ERROR_OUT_OF_MEMORY") and carries the numeric code as a payload
// (CudaErrorCode) so a caller can tell, say, a poisoned context from a bad launch.
#ifndef TINYGRAD_RUNTIME_CUDA_DRIVER_API_H_
#define TINYGRAD_RUNTIME_CUDA_DRIVER_API_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tinygrad/runtime/cuda/library_search.h"
#include "tinygrad/runtime/dynamic_library.h"

namespace tg {

// The C ABI's types, spelled as cuda.h spells them.
namespace cuda_abi {
using CUresult = int;  // an enum in cuda.h: 0 is CUDA_SUCCESS
using CUdevice = int;
using CUdeviceptr = unsigned long long;  // CUdeviceptr_v2 on 64-bit hosts
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;
struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUevent = CUevent_st*;
using CUstream = CUstream_st*;
using CUgraph = CUgraph_st*;
using CUgraphNode = CUgraphNode_st*;
using CUgraphExec = CUgraphExec_st*;
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;
using cuuint32_t = uint32_t;
using cuuint64_t = uint64_t;
// CUtensorMap: the copy engine's description of a region of global memory (cuda.h: 16 quad
// words, 64-byte aligned), passed to a kernel by value.
struct alignas(64) CUtensorMap {
  cuuint64_t opaque[16];
};
// A kernel node of a CUDA graph (cuda.h's CUDA_KERNEL_NODE_PARAMS_v2, CUDA 12 on): what
// cuLaunchKernel takes, as a struct. The driver copies the parameter values when the node is
// added or set, so kernelParams may point at temporaries.
struct CUDA_KERNEL_NODE_PARAMS_v2 {
  CUfunction func = nullptr;
  unsigned gridDimX = 1, gridDimY = 1, gridDimZ = 1;
  unsigned blockDimX = 1, blockDimY = 1, blockDimZ = 1;
  unsigned sharedMemBytes = 0;
  void** kernelParams = nullptr;
  void** extra = nullptr;
  void* kern = nullptr;     // a CUkernel; unused when func is set
  CUcontext ctx = nullptr;  // ignored when func is set
};
// The CUtensorMap* enums, as ints (their values are cuda.h's).
inline constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6;
inline constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7;
inline constexpr int CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9;
inline constexpr int CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
inline constexpr int CU_TENSOR_MAP_SWIZZLE_NONE = 0;
inline constexpr int CU_TENSOR_MAP_SWIZZLE_128B = 3;
inline constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3;
inline constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_INSUFFICIENT_DRIVER = 35;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
inline constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
inline constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
inline constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
inline constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
inline constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
inline constexpr CUresult CUDA_ERROR_LAUNCH_TIMEOUT = 702;
inline constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;

// CUdevice_attribute values.
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;  // Y 3, Z 4
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;   // Y 6, Z 7
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
// CUfunction_attribute: how much dynamic shared memory a launch of the function may ask for
// (48 KiB unless raised, up to the device's opt-in maximum).
inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUjit_option values: where cuModuleLoadDataEx writes the PTX JIT's error log.
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
}  // namespace cuda_abi

struct CudaDriverApi {
  using CUresult = cuda_abi::CUresult;
  using CUdevice = cuda_abi::CUdevice;
  using CUdeviceptr = cuda_abi::CUdeviceptr;
  using CUcontext = cuda_abi::CUcontext;
  using CUmodule = cuda_abi::CUmodule;
  using CUfunction = cuda_abi::CUfunction;
  using CUevent = cuda_abi::CUevent;
  using CUstream = cuda_abi::CUstream;

  // Opens libcuda (library_search.h), binds every entry point below and runs cuInit(0).
  // NotFound naming the library (each file tried) or the missing symbol where there is no
  // driver; cuInit's failure (no GPU, a stub library, a driver too old) as Check() reports it.
  static absl::StatusOr<std::shared_ptr<const CudaDriverApi>> Load(
      const CudaLibraryOptions& options);

  // OK for CUDA_SUCCESS; else a Status naming `call` and the error:
  //   "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"
  // with the code as payload. The Status code: ResourceExhausted (out of memory), Unavailable
  // (no usable driver or device), InvalidArgument (a bad binary, value or launch
  // configuration), NotFound (no such kernel), Internal (a fault in a kernel: the context is
  // unusable from then on, every later call fails), Unknown (the rest).
  absl::Status Check(CUresult r, std::string_view call) const;

  DynamicLibrary library;

  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int* version) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char** str) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char** str) = nullptr;
  CUresult (*cuDeviceGetCount)(int* count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int len, CUdevice dev) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int* value, cuda_abi::CUdevice_attribute attrib,
                                   CUdevice dev) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t* bytes, CUdevice dev) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* ctx, CUdevice dev) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext ctx) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr* ptr, size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr ptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void* src, size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void* dst, CUdeviceptr src, size_t bytes) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value, size_t bytes) = nullptr;
  CUresult (*cuMemcpyPeer)(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx,
                           size_t bytes) = nullptr;
  // Pinned host memory and the copy from it that does not wait (pinned_uploader.h).
  CUresult (*cuMemHostAlloc)(void** ptr, size_t bytes, unsigned flags) = nullptr;
  CUresult (*cuMemFreeHost)(void* ptr) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void* src, size_t bytes,
                                CUstream stream) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule* module, const void* image, unsigned num_options,
                                 cuda_abi::CUjit_option* options, void** values) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction* fn, CUmodule module, const char* name) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction fn, cuda_abi::CUfunction_attribute attrib,
                                 int value) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction fn, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                             unsigned block_x, unsigned block_y, unsigned block_z,
                             unsigned shared_bytes, CUstream stream, void** params,
                             void** extra) = nullptr;
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float* ms, CUevent start, CUevent end) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;
  // Optional (drivers of CUDA 12 and later; null where the driver lacks it): a tiled tensor map
  // for the copy engine (cp.async.bulk.tensor). tensor_map.h wraps it.
  CUresult (*cuTensorMapEncodeTiled)(cuda_abi::CUtensorMap* map, int data_type, cuda_abi::cuuint32_t rank,
                                     void* global_address, const cuda_abi::cuuint64_t* global_dim,
                                     const cuda_abi::cuuint64_t* global_strides,
                                     const cuda_abi::cuuint32_t* box_dim,
                                     const cuda_abi::cuuint32_t* element_strides, int interleave,
                                     int swizzle, int l2_promotion, int oob_fill) = nullptr;
  // Optional (CUDA 12 on, all non-null or all null: HasGraphs()): CUDA graphs, a batch of kernel
  // launches recorded once and launched with one call (graph.h wraps them).
  CUresult (*cuGraphCreate)(cuda_abi::CUgraph* graph, unsigned flags) = nullptr;
  CUresult (*cuGraphAddKernelNode)(cuda_abi::CUgraphNode* node, cuda_abi::CUgraph graph,
                                   const cuda_abi::CUgraphNode* dependencies, size_t count,
                                   const cuda_abi::CUDA_KERNEL_NODE_PARAMS_v2* params) = nullptr;
  CUresult (*cuGraphInstantiate)(cuda_abi::CUgraphExec* exec, cuda_abi::CUgraph graph,
                                 unsigned long long flags) = nullptr;
  CUresult (*cuGraphExecKernelNodeSetParams)(cuda_abi::CUgraphExec exec, cuda_abi::CUgraphNode node,
                                             const cuda_abi::CUDA_KERNEL_NODE_PARAMS_v2* params) =
      nullptr;
  CUresult (*cuGraphNodeSetEnabled)(cuda_abi::CUgraphExec exec, cuda_abi::CUgraphNode node,
                                    unsigned enabled) = nullptr;
  CUresult (*cuGraphLaunch)(cuda_abi::CUgraphExec exec, CUstream stream) = nullptr;
  CUresult (*cuGraphExecDestroy)(cuda_abi::CUgraphExec exec) = nullptr;
  CUresult (*cuGraphDestroy)(cuda_abi::CUgraph graph) = nullptr;
  bool HasGraphs() const { return cuGraphCreate != nullptr; }

 private:
  explicit CudaDriverApi(DynamicLibrary lib) : library(std::move(lib)) {}
};

// The CUresult a Check() error carries; nullopt for any other Status.
std::optional<int> CudaErrorCode(const absl::Status& status);

}  // namespace tg

#endif  // TINYGRAD_RUNTIME_CUDA_DRIVER_API_H_
