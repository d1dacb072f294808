// File: tinygrad/engine/emulator_device.cc
#include "tinygrad/engine/emulator_device.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/emulator/emulator_renderer.h"
#include "tinygrad/emulator/uop_interpreter.h"
#include "tinygrad/engine/host_buffer.h"
#include "tinygrad/uop/linear_text.h"

namespace tg {
namespace {

// Where each live buffer of the device lies, so a kernel argument (a buffer's start, or a view
// into one) resolves to the bytes it may touch.
class BufferTable {
 public:
  void Add(const std::byte* start, size_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    spans_[start] = n;
  }
  void Remove(const std::byte* start) {
    std::lock_guard<std::mutex> lock(mu_);
    spans_.erase(start);
  }
  // The bytes from `p` to the end of the buffer holding it; NotFound for memory the device did
  // not allocate (or has freed).
  absl::StatusOr<std::span<std::byte>> Find(void* p) const {
    auto* b = static_cast<std::byte*>(p);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = spans_.upper_bound(b);
    if (it != spans_.begin()) {
      --it;
      if (b <= it->first + it->second)
        return std::span<std::byte>(b, static_cast<size_t>(it->first + it->second - b));
    }
    return absl::NotFoundError("a kernel argument is not memory of this device");
  }

 private:
  mutable std::mutex mu_;
  std::map<const std::byte*, size_t> spans_;
};

class EmulatorBuffer : public HostRawBuffer {
 public:
  EmulatorBuffer(CpuBuffer b, std::shared_ptr<BufferTable> table)
      : HostRawBuffer(std::move(b)), table_(std::move(table)) {
    table_->Add(static_cast<const std::byte*>(data()), nbytes());
  }
  ~EmulatorBuffer() override { table_->Remove(static_cast<const std::byte*>(data())); }

 private:
  std::shared_ptr<BufferTable> table_;
};

class EmulatedKernel : public Program {
 public:
  EmulatedKernel(UopInterpreter program, std::shared_ptr<const BufferTable> table)
      : program_(std::move(program)), table_(std::move(table)) {}

  absl::StatusOr<double> Run(std::span<void* const> bufs, std::span<const int64_t> vals,
                             const LaunchDims& global_size, const std::optional<LaunchDims>& local_size,
                             bool, double stop_after_s) override {
    std::vector<std::span<std::byte>> memory;
    for (size_t i = 0; i < bufs.size(); ++i) {
      absl::StatusOr<std::span<std::byte>> m = table_->Find(bufs[i]);
      if (!m.ok()) return absl::InvalidArgumentError(absl::StrCat("buffer argument ", i, ": ", m.status().message()));
      memory.push_back(*m);
    }
    const auto start = std::chrono::steady_clock::now();
    auto stop_at = std::chrono::steady_clock::time_point::max();
    if (stop_after_s < 1e9)  // beyond that (and kNoStop): no deadline
      stop_at = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(std::max(stop_after_s, 0.0)));
    absl::Status run = program_.Run(memory, vals, global_size, local_size.value_or(LaunchDims{1, 1, 1}), stop_at);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (absl::IsDeadlineExceeded(run))
      return absl::DeadlineExceededError(absl::StrCat("stopped after ", seconds, " s (allowed ", stop_after_s, " s)"));
    RETURN_IF_ERROR(run);
    return seconds;
  }

 private:
  UopInterpreter program_;
  std::shared_ptr<const BufferTable> table_;
};

class EmulatorDevice : public Device {
 public:
  EmulatorDevice(std::string name, EmulateTarget target)
      : name_(std::move(name)), renderer_(target),
        compiler_id_(absl::StrCat("emulator EMULATE=", std::string(EmulateTargetName(target)))) {}

  const std::string& name() const override { return name_; }
  const Renderer& renderer() const override { return renderer_; }
  std::string compiler_id() const override { return compiler_id_; }
  // The rendered program is what runs (the reference's PythonCompiler decodes what it rendered).
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override { return spec.src; }
  absl::StatusOr<std::unique_ptr<Program>> Load(const std::string&, const std::string& lib) override {
    ASSIGN_OR_RETURN(std::vector<UOp> uops, ParseLinearProgram(lib));
    ASSIGN_OR_RETURN(UopInterpreter program, UopInterpreter::Load(uops));
    return std::make_unique<EmulatedKernel>(std::move(program), buffers_);
  }
  absl::StatusOr<std::shared_ptr<RawBuffer>> Allocate(size_t nbytes) override {
    ASSIGN_OR_RETURN(CpuBuffer b, CpuBuffer::Allocate(nbytes));
    return std::make_shared<EmulatorBuffer>(std::move(b), buffers_);
  }

 private:
  const std::string name_;
  const EmulatorRenderer renderer_;
  const std::string compiler_id_;
  std::shared_ptr<BufferTable> buffers_ = std::make_shared<BufferTable>();
};

}  // namespace

absl::StatusOr<std::unique_ptr<Device>> MakeEmulatorDevice(const std::string& name,
                                                           const EmulatorDeviceOptions& options) {
  ASSIGN_OR_RETURN(EmulateTarget target, ParseEmulateTarget(options.emulate));
  return std::make_unique<EmulatorDevice>(name, target);
}

}  // namespace tg
