// File: tinygrad/runtime/cuda/fake_cuda_driver.cc
// A stand-in for libcuda in tests (the idea of tinygrad's MOCKGPU): the driver entry points
// driver_api.h binds, with host memory as device memory and two kernels implemented here, so
// the loading, error reporting, argument passing, copies and timing of the CUDA runtime are
// tested on machines without a GPU. Built as a shared library (cc_binary linkshared) that the
// tests open by path.
//
// Modules: an image "tg-fake-module\n" followed by kernel names, one a line. Kernels:
//   add_n(float* out, const float* in, int n): out[i] = in[i] + n for every thread i < n
//   fault():  an illegal address, reported by the next synchronizing call (as a GPU does)
// An ELF image (a CUBIN, as NVRTC makes for the engine's CUDA device) or PTX text with an
// .entry (CUDA_PTX) loads too and has every kernel name asked for; launching one of those runs
// nothing (the fake cannot run GPU code) but
// is logged, with its dimensions and the first tgFakeCudaRecordParams(k) arguments read as
// 8-byte values (buffer addresses), so tests check what the engine launches.
// One GPU unless a test asks for more (tgFakeCudaSetDevices, or TG_FAKE_CUDA_DEVICES=N in the
// environment of a process that cannot call it, read at the first cuInit): each has its own
// primary context;
// memory is the host's, so cuMemcpyPeer between them is a memcpy (counted, and made to fail on
// request: tgFakeCudaFailPeerCopies).
// Variants (compile-time defines): TG_FAKE_CUDA_NO_DEVICE (cuInit answers
// CUDA_ERROR_NO_DEVICE), TG_FAKE_CUDA_WITHOUT_LAUNCH (no cuLaunchKernel symbol),
// TG_FAKE_CUDA_WITHOUT_TENSOR_MAPS (a driver before CUDA 12: no cuTensorMapEncodeTiled and no
// graphs).
// cuTensorMapEncodeTiled checks cuda.h's documented rules and writes what it was given into the
// map (opaque[0] the address, [1..] the sizes, row strides, box, data type and swizzle), so a
// test sees the map a launch passed.
// Graphs (cuGraph*): nodes keep copies of their arguments and run in the order added; every
// node's launch is logged as a launch, and tgFakeCudaGraphLaunches counts cuGraphLaunch calls.
// Pinned memory and cuMemcpyHtoDAsync: an asynchronous copy happens later, as on a GPU: it is
// queued and done at the next call that is ordered after it on the default stream (a launch, a
// synchronous copy or memset, a synchronize, a free), so a caller that reuses its pinned source
// before then copies what it wrote last. Only pinned memory is accepted as the source, and
// freeing pinned memory a queued copy still reads is refused (CUDA_ERROR_INVALID_VALUE).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;

constexpr CUresult kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2, kNotInitialized = 3,
                   kNoDevice = 100, kInvalidDevice = 101, kInvalidImage = 200,
                   kInvalidContext = 201, kPeerAccessUnsupported = 217, kInvalidHandle = 400,
                   kNotFound = 500, kIllegalAddress = 700;
constexpr int kMaxDevices = 4;

struct Module {
  std::set<std::string> kernels;
  bool any_kernel = false;  // an ELF image: every name is a (do-nothing) kernel
};
constexpr int kSharedOptin = 232448;  // an H100's shared memory per block, opted in

struct Function {
  std::string name;
  int max_dynamic_shared = 49152;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
};
struct Event {
  std::chrono::steady_clock::time_point at;
  bool recorded = false;
};

// All state behind one lock: tests may call from several threads.
std::mutex mu;
bool initialized = false;
int device_count = 1;
int context_refs[kMaxDevices] = {};
bool context_current = false;  // some retained context was made current
bool poisoned = false;  // a kernel faulted: every later call fails, as on a GPU
std::set<CUdeviceptr> allocations;
int live_modules = 0;
int live_events = 0;
std::map<std::string, Function> functions;  // by name; handles point into it

// Pinned host memory (cuMemHostAlloc: start -> size) and the asynchronous copies not done yet.
std::map<const char*, size_t> pinned;
struct QueuedCopy {
  CUdeviceptr dst;
  const void* src;
  size_t n;
};
std::vector<QueuedCopy> queued_copies;
int async_copies = 0;
CUresult host_alloc_result =
    kSuccess;  // what cuMemHostAlloc answers (allocating nothing) if not success

// Whether [p, p + n) lies in one pinned allocation.
bool IsPinned(const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  auto it = pinned.upper_bound(c);
  if (it == pinned.begin()) return false;
  --it;
  return c >= it->first && c + n <= it->first + it->second;
}

// Does the queued copies, in order: what comes next on the stream sees them. `mu` held.
void Drain() {
  for (const QueuedCopy& c : queued_copies) std::memcpy(reinterpret_cast<void*>(c.dst), c.src, c.n);
  queued_copies.clear();
}

int fake_context_objects[kMaxDevices] = {};  // a primary context's handle is its address

// The ordinal of the context `ctx` names, or -1.
int ContextOrdinal(const void* ctx) {
  for (int d = 0; d < kMaxDevices; ++d)
    if (ctx == &fake_context_objects[d]) return d;
  return -1;
}

bool ValidDevice(int dev) { return dev >= 0 && dev < device_count; }

// The launch log (every cuLaunchKernel that was accepted) and the memsets.
int launches = 0;
unsigned last_dims[6] = {};  // grid x y z, block x y z
std::string last_kernel;
int recorded_params = 0;
unsigned long long last_params[16] = {};
int memsets = 0;
size_t last_memset_bytes = 0;
int fault_countdown = 0;  // > 0: the launch that brings it to 0 faults (an illegal address)
int peer_copies = 0;
CUresult peer_copy_result = kSuccess;  // what cuMemcpyPeer answers (without copying) if not success

CUresult Ready() {
  if (!initialized) return kNotInitialized;
  if (!context_current) return kInvalidContext;
  return poisoned ? kIllegalAddress : kSuccess;
}

// One launch (cuLaunchKernel's, or a graph node's), `mu` held.
CUresult Launch(Function* fn, const std::array<unsigned, 6>& dims, unsigned shared, void** params) {
  if (CUresult r = Ready(); r != kSuccess) return r;
  Drain();
  if (fn == nullptr) return kInvalidHandle;
  for (unsigned d : dims)
    if (d == 0) return kInvalidValue;
  if (uint64_t{dims[3]} * dims[4] * dims[5] > 1024 ||
      shared > static_cast<unsigned>(fn->max_dynamic_shared))
    return kInvalidValue;
  const uint64_t threads = uint64_t{dims[0]} * dims[1] * dims[2] * dims[3] * dims[4] * dims[5];
  ++launches;
  last_kernel = fn->name;
  for (int i = 0; i < 6; ++i) last_dims[i] = dims[i];
  for (int i = 0; params != nullptr && i < recorded_params; ++i)
    last_params[i] = *static_cast<unsigned long long*>(params[i]);
  if (fault_countdown > 0 && --fault_countdown == 0) {
    poisoned = true;
    return kSuccess;
  }
  if (fn->name == "add_n") {
    float* out = *static_cast<float**>(params[0]);
    const float* in = *static_cast<const float**>(params[1]);
    const int n = *static_cast<const int*>(params[2]);
    for (uint64_t i = 0; i < threads && i < static_cast<uint64_t>(n); ++i)
      out[i] = in[i] + static_cast<float>(n);
  } else if (fn->name == "fault") {
    poisoned = true;  // reported later, as a GPU reports a fault at the next sync
  }
  return kSuccess;
}

// cuda.h's CUDA_KERNEL_NODE_PARAMS_v2.
struct KernelNodeParams {
  Function* func;
  unsigned dims[6];  // grid x y z, block x y z
  unsigned shared;
  void** params;
  void** extra;
  void* kern;
  void* ctx;
};

// A kernel node keeps copies of its arguments, as the driver does when a node is added or set
// (the caller's storage may be gone by the launch). The fake knows parameter sizes only for
// add_n (two pointers and an int); of other kernels it keeps the first recorded_params 8-byte
// values, what the launch log shows.
struct GraphNode {
  Function* func = nullptr;
  std::array<unsigned, 6> dims{};
  unsigned shared = 0;
  std::vector<unsigned long long> words;  // pointer-sized arguments
  int n = 0;                              // add_n's int
  std::vector<int> after;                 // nodes this one waits for
  bool enabled = true;

  CUresult Set(const KernelNodeParams& p) {
    if (p.func == nullptr || p.extra != nullptr) return kInvalidValue;
    for (unsigned d : p.dims)
      if (d == 0) return kInvalidValue;
    func = p.func;
    std::copy(std::begin(p.dims), std::end(p.dims), dims.begin());
    shared = p.shared;
    const bool add_n = func->name == "add_n";
    const int count = add_n ? 2 : recorded_params;
    words.assign(count, 0);
    for (int i = 0; i < count && p.params != nullptr; ++i)
      words[i] = *static_cast<unsigned long long*>(p.params[i]);
    if (add_n) n = *static_cast<int*>(p.params[2]);
    return kSuccess;
  }
  CUresult Run() {
    std::vector<void*> params;
    for (unsigned long long& w : words) params.push_back(&w);
    if (func->name == "add_n") params.push_back(&n);
    return Launch(func, dims, shared, params.empty() ? nullptr : params.data());
  }
};
struct Graph {
  std::vector<GraphNode*> nodes;  // in the order added: every node after those it waits for
  ~Graph() {
    for (GraphNode* n : nodes) delete n;
  }
};
struct GraphExec {
  std::vector<GraphNode> nodes;              // the graph's nodes as instantiated
  std::map<const GraphNode*, size_t> index;  // a graph node's handle -> its place here
};
int live_graphs = 0;
int graph_launches = 0;

}  // namespace

extern "C" {

// The test's view of the fake: what is alive (leak checks), and a way out of a fault.
int tgFakeCudaLiveObjects() {
  std::lock_guard<std::mutex> lock(mu);
  return static_cast<int>(allocations.size() + pinned.size()) + live_modules + live_events +
         live_graphs;
}
// The error cuMemHostAlloc answers from now on (0: it allocates again), as a driver out of
// page-locked memory.
void tgFakeCudaFailHostAllocs(int result) {
  std::lock_guard<std::mutex> lock(mu);
  host_alloc_result = result;
}
// cuMemcpyHtoDAsync calls so far; the pinned allocations alive; the copies queued, not yet done.
int tgFakeCudaAsyncCopies(int* pinned_alive, int* queued) {
  std::lock_guard<std::mutex> lock(mu);
  if (pinned_alive != nullptr) *pinned_alive = static_cast<int>(pinned.size());
  if (queued != nullptr) *queued = static_cast<int>(queued_copies.size());
  return async_copies;
}
int tgFakeCudaGraphLaunches() {
  std::lock_guard<std::mutex> lock(mu);
  return graph_launches;
}
int tgFakeCudaContextRefs() {
  std::lock_guard<std::mutex> lock(mu);
  int refs = 0;
  for (int r : context_refs) refs += r;
  return refs;
}
// How many GPUs the driver reports from now on (1 .. 4).
void tgFakeCudaSetDevices(int n) {
  std::lock_guard<std::mutex> lock(mu);
  device_count = n < 1 ? 1 : (n > kMaxDevices ? kMaxDevices : n);
}
// cuMemcpyPeer calls that copied so far; and the error the next ones answer instead of copying
// (0: they copy again), as a driver that cannot reach one GPU from the other.
int tgFakeCudaPeerCopies() {
  std::lock_guard<std::mutex> lock(mu);
  return peer_copies;
}
void tgFakeCudaFailPeerCopies(int result) {
  std::lock_guard<std::mutex> lock(mu);
  peer_copy_result = result;
}
void tgFakeCudaReset() {
  std::lock_guard<std::mutex> lock(mu);
  poisoned = false;
  host_alloc_result = kSuccess;
}
// The launch log: launches so far; the last one's name (into `name`, NUL-terminated),
// dimensions (grid x y z, block x y z) and recorded arguments.
void tgFakeCudaRecordParams(int k) {
  std::lock_guard<std::mutex> lock(mu);
  recorded_params = k < 0 ? 0 : (k > 16 ? 16 : k);
}
int tgFakeCudaLaunches() {
  std::lock_guard<std::mutex> lock(mu);
  return launches;
}
void tgFakeCudaLastLaunch(char* name, int name_len, unsigned* dims, unsigned long long* params) {
  std::lock_guard<std::mutex> lock(mu);
  if (name != nullptr && name_len > 0) std::snprintf(name, static_cast<size_t>(name_len), "%s", last_kernel.c_str());
  for (int i = 0; i < 6; ++i) dims[i] = last_dims[i];
  for (int i = 0; i < recorded_params; ++i) params[i] = last_params[i];
}
// The n-th launch from now (n >= 1) faults as `fault` does, whatever kernel it runs.
void tgFakeCudaFaultOnLaunch(int n) {
  std::lock_guard<std::mutex> lock(mu);
  fault_countdown = n;
}
// cuMemsetD8 calls so far, and the size of the last.
int tgFakeCudaMemsets(size_t* last_bytes) {
  std::lock_guard<std::mutex> lock(mu);
  if (last_bytes != nullptr) *last_bytes = last_memset_bytes;
  return memsets;
}

CUresult cuInit(unsigned flags) {
  std::lock_guard<std::mutex> lock(mu);
#ifdef TG_FAKE_CUDA_NO_DEVICE
  (void)flags;
  return kNoDevice;
#else
  if (flags != 0) return kInvalidValue;
  if (!initialized) {
    // a process that cannot call tgFakeCudaSetDevices (tg) asks for more GPUs here
    const char* n = std::getenv("TG_FAKE_CUDA_DEVICES");
    if (n != nullptr) device_count = std::clamp(std::atoi(n), 1, kMaxDevices);
  }
  initialized = true;
  return kSuccess;
#endif
}

CUresult cuDriverGetVersion(int* v) {
  *v = 13000;
  return kSuccess;
}

CUresult cuGetErrorName(CUresult e, const char** s) {
  switch (e) {
    case kSuccess:
      *s = "CUDA_SUCCESS";
      return kSuccess;
    case kInvalidValue:
      *s = "CUDA_ERROR_INVALID_VALUE";
      return kSuccess;
    case kOutOfMemory:
      *s = "CUDA_ERROR_OUT_OF_MEMORY";
      return kSuccess;
    case kNotInitialized:
      *s = "CUDA_ERROR_NOT_INITIALIZED";
      return kSuccess;
    case kNoDevice:
      *s = "CUDA_ERROR_NO_DEVICE";
      return kSuccess;
    case kInvalidDevice:
      *s = "CUDA_ERROR_INVALID_DEVICE";
      return kSuccess;
    case kInvalidImage:
      *s = "CUDA_ERROR_INVALID_IMAGE";
      return kSuccess;
    case kInvalidContext:
      *s = "CUDA_ERROR_INVALID_CONTEXT";
      return kSuccess;
    case kPeerAccessUnsupported:
      *s = "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED";
      return kSuccess;
    case kInvalidHandle:
      *s = "CUDA_ERROR_INVALID_HANDLE";
      return kSuccess;
    case kNotFound:
      *s = "CUDA_ERROR_NOT_FOUND";
      return kSuccess;
    case kIllegalAddress:
      *s = "CUDA_ERROR_ILLEGAL_ADDRESS";
      return kSuccess;
    default:
      *s = nullptr;
      return kInvalidValue;
  }
}

CUresult cuGetErrorString(CUresult e, const char** s) {
  *s = e == kOutOfMemory      ? "out of memory"
       : e == kIllegalAddress ? "an illegal memory access was encountered"
                              : "fake error";
  return kSuccess;
}

CUresult cuDeviceGetCount(int* n) {
  std::lock_guard<std::mutex> lock(mu);
  if (!initialized) return kNotInitialized;
  *n = device_count;
  return kSuccess;
}

CUresult cuDeviceGet(int* dev, int ordinal) {
  std::lock_guard<std::mutex> lock(mu);
  if (!ValidDevice(ordinal)) return kInvalidDevice;
  *dev = ordinal;
  return kSuccess;
}

CUresult cuDeviceGetName(char* name, int len, int dev) {
  std::lock_guard<std::mutex> lock(mu);
  if (!ValidDevice(dev) || len <= 0) return kInvalidValue;
  std::strncpy(name, "tinygrad-cc fake GPU", static_cast<size_t>(len));
  return kSuccess;
}

CUresult cuDeviceGetAttribute(int* v, int attribute, int dev) {
  std::lock_guard<std::mutex> lock(mu);
  if (!ValidDevice(dev)) return kInvalidDevice;
  switch (attribute) {
    case 1:
      *v = 1024;
      return kSuccess;  // max threads per block
    case 2:
    case 3:
      *v = 1024;
      return kSuccess;  // max block dims x, y
    case 4:
      *v = 64;
      return kSuccess;  // max block dim z
    case 5:
      *v = 2147483647;
      return kSuccess;  // max grid dim x
    case 6:
    case 7:
      *v = 65535;
      return kSuccess;  // max grid dims y, z
    case 8:
      *v = 49152;
      return kSuccess;  // shared memory per block
    case 10:
      *v = 32;
      return kSuccess;  // warp size
    case 16:
      *v = 132;
      return kSuccess;  // SMs
    case 38:
      *v = 50 << 20;
      return kSuccess;  // L2 bytes
    case 75:
      *v = 9;
      return kSuccess;  // compute capability
    case 76:
      *v = 0;
      return kSuccess;
    case 97:
      *v = kSharedOptin;
      return kSuccess;  // shared memory per block, opted in
    default:
      return kInvalidValue;
  }
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, int dev) {
  std::lock_guard<std::mutex> lock(mu);
  if (!ValidDevice(dev)) return kInvalidDevice;
  *bytes = size_t{80} << 30;
  return kSuccess;
}

CUresult cuDevicePrimaryCtxRetain(void** ctx, int dev) {
  std::lock_guard<std::mutex> lock(mu);
  if (!initialized) return kNotInitialized;
  if (!ValidDevice(dev)) return kInvalidDevice;
  ++context_refs[dev];
  *ctx = &fake_context_objects[dev];
  return kSuccess;
}

CUresult cuDevicePrimaryCtxRelease_v2(int dev) {
  std::lock_guard<std::mutex> lock(mu);
  if (dev < 0 || dev >= kMaxDevices || context_refs[dev] == 0) return kInvalidValue;
  --context_refs[dev];
  int refs = 0;
  for (int r : context_refs) refs += r;
  if (refs == 0) context_current = false;
  return kSuccess;
}

CUresult cuCtxSetCurrent(void* ctx) {
  std::lock_guard<std::mutex> lock(mu);
  const int d = ContextOrdinal(ctx);
  if (d < 0 || context_refs[d] == 0) return kInvalidContext;
  context_current = true;
  return kSuccess;
}

CUresult cuCtxSynchronize() {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  Drain();
  return kSuccess;
}

CUresult cuMemAlloc_v2(CUdeviceptr* ptr, size_t bytes) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  if (bytes == 0) return kInvalidValue;  // as the driver does
  if (bytes > (size_t{1} << 36)) return kOutOfMemory;
  void* p = std::calloc(1, bytes);
  if (p == nullptr) return kOutOfMemory;
  *ptr = reinterpret_cast<uintptr_t>(p);
  allocations.insert(*ptr);
  return kSuccess;
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
  std::lock_guard<std::mutex> lock(mu);
  Drain();  // cuMemFree waits for the GPU
  if (allocations.erase(ptr) == 0) return kInvalidValue;
  std::free(reinterpret_cast<void*>(ptr));
  return kSuccess;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  Drain();
  std::memcpy(reinterpret_cast<void*>(dst), src, n);
  return kSuccess;
}

CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  Drain();
  std::memcpy(dst, reinterpret_cast<const void*>(src), n);
  return kSuccess;
}

CUresult cuMemcpyPeer(CUdeviceptr dst, void* dst_ctx, CUdeviceptr src, void* src_ctx, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  for (const void* ctx : {dst_ctx, src_ctx})
    if (const int d = ContextOrdinal(ctx); d < 0 || context_refs[d] == 0) return kInvalidContext;
  if (peer_copy_result != kSuccess) return peer_copy_result;
  Drain();
  std::memcpy(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), n);
  ++peer_copies;
  return kSuccess;
}

CUresult cuMemHostAlloc(void** ptr, size_t bytes, unsigned flags) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  if (ptr == nullptr || bytes == 0 || flags > 0xf) return kInvalidValue;
  if (host_alloc_result != kSuccess) return host_alloc_result;
  void* p = std::malloc(bytes);
  if (p == nullptr) return kOutOfMemory;
  pinned[static_cast<const char*>(p)] = bytes;
  *ptr = p;
  return kSuccess;
}

CUresult cuMemFreeHost(void* ptr) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = pinned.find(static_cast<const char*>(ptr));
  if (it == pinned.end()) return kInvalidValue;
  for (const QueuedCopy& c : queued_copies)
    if (c.src >= static_cast<const void*>(it->first) &&
        c.src < static_cast<const void*>(it->first + it->second))
      return kInvalidValue;  // a queued copy still reads it: the caller did not wait
  pinned.erase(it);
  std::free(ptr);
  return kSuccess;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t n, void* stream) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  if (stream != nullptr || !IsPinned(src, n)) return kInvalidValue;
  queued_copies.push_back({dst, src, n});
  ++async_copies;
  return kSuccess;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  if (allocations.count(dst) == 0) return kInvalidValue;  // callers fill whole allocations
  Drain();
  std::memset(reinterpret_cast<void*>(dst), value, n);
  ++memsets;
  last_memset_bytes = n;
  return kSuccess;
}

CUresult cuModuleLoadDataEx(Module** module, const void* image, unsigned num_options, int* options,
                            void** values) {
  std::lock_guard<std::mutex> lock(mu);
  if (CUresult r = Ready(); r != kSuccess) return r;
  const char* text = static_cast<const char*>(image);
  const bool ptx = std::strstr(text, ".version") != nullptr && std::strstr(text, ".entry") != nullptr;
  if (std::memcmp(image, "\x7f" "ELF", 4) == 0 || ptx) {
    auto* m = new Module;
    m->any_kernel = true;
    ++live_modules;
    *module = m;
    return kSuccess;
  }
  std::istringstream in(static_cast<const char*>(image));
  std::string line;
  if (!std::getline(in, line) || line != "tg-fake-module") {
    // the JIT's error log, where the caller gave a buffer for it (options 5 and 6)
    char* log = nullptr;
    size_t log_size = 0;
    for (unsigned i = 0; i < num_options; ++i) {
      if (options[i] == 5) log = static_cast<char*>(values[i]);
      if (options[i] == 6) log_size = reinterpret_cast<uintptr_t>(values[i]);
    }
    if (log != nullptr && log_size > 0)
      std::snprintf(log, log_size, "fake ptxas: line 1; error: not a tg-fake-module image");
    return kInvalidImage;
  }
  auto* m = new Module;
  ++live_modules;
  while (std::getline(in, line))
    if (!line.empty()) m->kernels.insert(line);
  *module = m;
  return kSuccess;
}

CUresult cuModuleUnload(Module* module) {
  std::lock_guard<std::mutex> lock(mu);
  if (module == nullptr) return kInvalidHandle;
  delete module;
  --live_modules;
  return kSuccess;
}

CUresult cuModuleGetFunction(Function** fn, Module* module, const char* name) {
  std::lock_guard<std::mutex> lock(mu);
  if (module == nullptr) return kInvalidHandle;
  if (!module->any_kernel && module->kernels.count(name) == 0) return kNotFound;
  Function& f = functions[name];
  f.name = name;
  *fn = &f;
  return kSuccess;
}

CUresult cuFuncSetAttribute(Function* fn, int attrib, int value) {
  std::lock_guard<std::mutex> lock(mu);
  if (fn == nullptr) return kInvalidHandle;
  // only the dynamic shared memory limit, up to the opt-in maximum cuDeviceGetAttribute reports
  if (attrib != 8 || value < 0 || value > kSharedOptin) return kInvalidValue;
  fn->max_dynamic_shared = value;
  return kSuccess;
}

#ifndef TG_FAKE_CUDA_WITHOUT_LAUNCH
CUresult cuLaunchKernel(Function* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void* stream, void** params,
                        void** extra) {
  std::lock_guard<std::mutex> lock(mu);
  if (stream != nullptr || extra != nullptr) return kInvalidValue;
  return Launch(fn, {gx, gy, gz, bx, by, bz}, shared, params);
}
#endif

#ifndef TG_FAKE_CUDA_WITHOUT_TENSOR_MAPS
CUresult cuTensorMapEncodeTiled(uint64_t* map, int data_type, uint32_t rank, void* address,
                                const uint64_t* dims, const uint64_t* strides,
                                const uint32_t* box, const uint32_t* element_strides,
                                int interleave, int swizzle, int l2_promotion, int oob_fill) {
  static const int kElementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  if (map == nullptr || reinterpret_cast<uintptr_t>(map) % 64 != 0) return kInvalidValue;
  if (data_type < 0 || data_type > 12 || rank < 1 || rank > 5 || address == nullptr ||
      reinterpret_cast<uintptr_t>(address) % 16 != 0 || interleave != 0 || swizzle < 0 ||
      swizzle > 3 || l2_promotion < 0 || l2_promotion > 3 || oob_fill < 0 || oob_fill > 1)
    return kInvalidValue;
  const uint64_t elem = kElementBytes[data_type];
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] == 0 || dims[i] > (uint64_t{1} << 32) || box[i] == 0 || box[i] > 256 ||
        element_strides[i] == 0 || element_strides[i] > 8)
      return kInvalidValue;
    if (i > 0 && (strides[i - 1] % 16 != 0 || strides[i - 1] >= (uint64_t{1} << 40)))
      return kInvalidValue;
  }
  if (box[0] * elem % 16 != 0 || (swizzle == 3 && box[0] * elem > 128)) return kInvalidValue;
  std::memset(map, 0, 128);
  map[0] = reinterpret_cast<uintptr_t>(address);
  for (uint32_t i = 0; i < rank && i < 2; ++i) {
    map[1 + i] = dims[i];
    map[3 + i] = i > 0 ? strides[i - 1] : elem;
    map[5 + i] = box[i];
  }
  map[7] = static_cast<uint64_t>(data_type) | (static_cast<uint64_t>(swizzle) << 8);
  return kSuccess;
}
#endif

CUresult cuEventCreate(Event** event, unsigned flags) {
  std::lock_guard<std::mutex> lock(mu);
  if (flags != 0) return kInvalidValue;
  *event = new Event;
  ++live_events;
  return kSuccess;
}

CUresult cuEventRecord(Event* event, void* stream) {
  if (event == nullptr || stream != nullptr) return kInvalidHandle;
  event->at = std::chrono::steady_clock::now();
  event->recorded = true;
  return kSuccess;
}

CUresult cuEventSynchronize(Event* event) {
  std::lock_guard<std::mutex> lock(mu);
  if (event == nullptr || !event->recorded) return kInvalidHandle;
  if (CUresult r = Ready(); r != kSuccess) return r;
  Drain();
  return kSuccess;
}

CUresult cuEventElapsedTime_v2(float* ms, Event* start, Event* end) {
  if (start == nullptr || end == nullptr || !start->recorded || !end->recorded)
    return kInvalidHandle;
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return kSuccess;
}

CUresult cuEventDestroy_v2(Event* event) {
  std::lock_guard<std::mutex> lock(mu);
  if (event == nullptr) return kInvalidHandle;
  delete event;
  --live_events;
  return kSuccess;
}

// CUDA graphs (CUDA 12's _v2 kernel nodes): absent from the variant of a driver before CUDA 12.
#ifndef TG_FAKE_CUDA_WITHOUT_TENSOR_MAPS
CUresult cuGraphCreate(Graph** graph, unsigned flags) {
  std::lock_guard<std::mutex> lock(mu);
  if (graph == nullptr || flags != 0) return kInvalidValue;
  *graph = new Graph;
  ++live_graphs;
  return kSuccess;
}

CUresult cuGraphAddKernelNode_v2(GraphNode** node, Graph* graph, GraphNode* const* deps,
                                 size_t count, const KernelNodeParams* params) {
  std::lock_guard<std::mutex> lock(mu);
  if (node == nullptr || graph == nullptr || params == nullptr || (count > 0 && deps == nullptr))
    return kInvalidValue;
  auto n = std::make_unique<GraphNode>();
  for (size_t i = 0; i < count; ++i) {
    auto it = std::find(graph->nodes.begin(), graph->nodes.end(), deps[i]);
    if (it == graph->nodes.end()) return kInvalidValue;  // not a node of this graph
    n->after.push_back(static_cast<int>(it - graph->nodes.begin()));
  }
  if (CUresult r = n->Set(*params); r != kSuccess) return r;
  *node = n.get();
  graph->nodes.push_back(n.release());
  return kSuccess;
}

CUresult cuGraphInstantiateWithFlags(GraphExec** exec, Graph* graph, unsigned long long flags) {
  std::lock_guard<std::mutex> lock(mu);
  if (exec == nullptr || graph == nullptr || flags != 0) return kInvalidValue;
  auto e = std::make_unique<GraphExec>();
  for (const GraphNode* n : graph->nodes) {
    e->index[n] = e->nodes.size();
    e->nodes.push_back(*n);
  }
  *exec = e.release();
  ++live_graphs;
  return kSuccess;
}

CUresult cuGraphExecKernelNodeSetParams_v2(GraphExec* exec, const GraphNode* node,
                                           const KernelNodeParams* params) {
  std::lock_guard<std::mutex> lock(mu);
  if (exec == nullptr || params == nullptr) return kInvalidValue;
  auto it = exec->index.find(node);
  if (it == exec->index.end()) return kInvalidValue;
  GraphNode& n = exec->nodes[it->second];
  if (params->func != n.func) return kInvalidValue;  // a node's kernel cannot change here
  return n.Set(*params);
}

CUresult cuGraphNodeSetEnabled(GraphExec* exec, const GraphNode* node, unsigned enabled) {
  std::lock_guard<std::mutex> lock(mu);
  if (exec == nullptr) return kInvalidValue;
  auto it = exec->index.find(node);
  if (it == exec->index.end()) return kInvalidValue;
  exec->nodes[it->second].enabled = enabled != 0;
  return kSuccess;
}

// Runs the nodes in the order they were added (each after those it waits for).
CUresult cuGraphLaunch(GraphExec* exec, void* stream) {
  std::lock_guard<std::mutex> lock(mu);
  if (exec == nullptr || stream != nullptr) return kInvalidValue;
  if (CUresult r = Ready(); r != kSuccess) return r;
  Drain();
  ++graph_launches;
  for (GraphNode& n : exec->nodes) {
    if (poisoned) break;  // a node faulted: the rest never runs, the next sync reports it
    if (n.enabled)
      if (CUresult r = n.Run(); r != kSuccess) return r;
  }
  return kSuccess;
}

CUresult cuGraphExecDestroy(GraphExec* exec) {
  std::lock_guard<std::mutex> lock(mu);
  if (exec == nullptr) return kInvalidValue;
  delete exec;
  --live_graphs;
  return kSuccess;
}

CUresult cuGraphDestroy(Graph* graph) {
  std::lock_guard<std::mutex> lock(mu);
  if (graph == nullptr) return kInvalidValue;
  delete graph;
  --live_graphs;
  return kSuccess;
}
#endif

}  // extern "C"
