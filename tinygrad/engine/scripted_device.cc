// File: tinygrad/engine/scripted_device.cc
#include "tinygrad/engine/scripted_device.h"

#include <cmath>
#include <cstring>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg {

class ScriptedDevice::ScriptedProgram : public Program {
 public:
  ScriptedProgram(ScriptedDevice& dev, Compiled& compiled, std::unique_ptr<Program> real)
      : dev_(dev), compiled_(compiled), real_(std::move(real)) {}

  absl::StatusOr<double> Run(std::span<void* const> bufs, std::span<const int64_t> vals,
                             const LaunchDims& global_size, const std::optional<LaunchDims>& local_size,
                             bool wait, double stop_after_s) override {
    ScriptedRun run{.stop_after_s = stop_after_s};
    std::vector<std::string> before;  // each buffer's bytes before the run
    {
      std::lock_guard<std::mutex> g(dev_.mu_);
      run.opts = compiled_.opts;
      run.run = compiled_.runs++;
      ++dev_.total_runs_;
      for (void* b : bufs) {
        auto it = dev_.buffer_bytes_.find(b);
        TG_CHECK(it != dev_.buffer_bytes_.end()) << "a buffer not allocated on the scripted device";
        before.emplace_back(static_cast<const char*>(b), it->second);
      }
    }
    ASSIGN_OR_RETURN(double real_s, real_->Run(bufs, vals, global_size, local_size, wait, Program::kNoStop));
    (void)real_s;
    const double time_s = dev_.script_(run);
    if (time_s <= stop_after_s) {
      dev_.clock_.AdvanceSeconds(time_s);
      return time_s;
    }
    // stopped at the limit, part way through: the tail of every buffer is as before the run
    const double share = stop_after_s / time_s;
    for (size_t i = 0; i < bufs.size(); ++i) {
      const size_t elements = before[i].size() / 4;
      // (the epsilon keeps a share like 0.25, computed as 0.2499...9, at its exact count)
      const size_t kept = static_cast<size_t>(std::floor(share * static_cast<double>(elements) + 1e-9)) * 4;
      std::memcpy(static_cast<char*>(bufs[i]) + kept, before[i].data() + kept, before[i].size() - kept);
    }
    dev_.clock_.AdvanceSeconds(stop_after_s);
    return absl::DeadlineExceededError(absl::StrCat("scripted run stopped at ", stop_after_s, " s of ", time_s, " s"));
  }

 private:
  ScriptedDevice& dev_;
  Compiled& compiled_;
  std::unique_ptr<Program> real_;
};

ScriptedDevice::ScriptedDevice(Device* real, FakeClock& clock, Script script)
    : real_(real), clock_(clock), script_(std::move(script)) {
  TG_CHECK(real_ != nullptr);
}

// The library is the real one behind a tag line naming what was compiled ("<index>\n"), so
// that Load knows the program's opts.
absl::StatusOr<std::string> ScriptedDevice::Compile(const ProgramSpec& spec) {
  ASSIGN_OR_RETURN(std::string lib, real_->Compile(spec));
  auto c = std::make_unique<Compiled>();
  for (const Arg& a : spec.applied_opts) {
    ASSIGN_OR_RETURN(Opt o, OptFromArg(a));
    c->opts.push_back(o);
  }
  std::lock_guard<std::mutex> g(mu_);
  compiled_.push_back(std::move(c));
  return absl::StrCat(compiled_.size() - 1, "\n", lib);
}

absl::StatusOr<std::unique_ptr<Program>> ScriptedDevice::Load(const std::string& function_name,
                                                              const std::string& lib) {
  const size_t eol = lib.find('\n');
  size_t index = 0;
  Compiled* compiled = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (eol == std::string::npos || !absl::SimpleAtoi(lib.substr(0, eol), &index) || index >= compiled_.size())
      return absl::InvalidArgumentError("not a library compiled by this scripted device");
    compiled = compiled_[index].get();
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Program> real, real_->Load(function_name, lib.substr(eol + 1)));
  return std::unique_ptr<Program>(new ScriptedProgram(*this, *compiled, std::move(real)));
}

absl::StatusOr<std::shared_ptr<RawBuffer>> ScriptedDevice::Allocate(size_t nbytes) {
  ASSIGN_OR_RETURN(std::shared_ptr<RawBuffer> b, real_->Allocate(nbytes));
  std::lock_guard<std::mutex> g(mu_);
  buffer_bytes_[b->data()] = nbytes;
  return b;
}

int ScriptedDevice::runs() const {
  std::lock_guard<std::mutex> g(mu_);
  return total_runs_;
}

}  // namespace tg
