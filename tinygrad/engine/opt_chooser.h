// File: tinygrad/engine/opt_chooser.h
// Who picks a kernel's opts before it is lowered: tinygrad's `BEAM >= 1` branch of apply_opts,
// turned around so that the library does not depend on the tuner.
//
// tinygrad calls beam_search from inside the optimizer. Here the tuner lives in autotune/,
// which depends on the library, so it installs a KernelOptChooser instead. When one is
// installed, Realize asks it for every kernel it compiles; opts it returns become the
// kernel's KernelInfo.opts_to_apply, and nullopt leaves the default (the hand-coded heuristic,
// or nothing under NOOPT). With no chooser installed, Realize warns once about BEAM >= 1 and
// uses the default, since there is nothing that could search.
//
// Opts a chooser returns may come from far away (a tuning database shared by a cluster), so a
// kernel they do not lower (an opt that does not apply, launch dims past the device's limits)
// is not the end of the run: Realize warns, naming the opts, why, and where they came from
// (ChosenOpts::origin), and lowers the kernel with the default opts instead. Only a kernel
// that fails with the default opts too is an error.
//
// Example (autotune/ does this for `tg run`, `tg tune` and BEAM=n):
//   static MyTuner tuner;              // implements KernelOptChooser
//   SetKernelOptChooser(&tuner);
//   Realize({t});                      // kernels compile with the tuner's opts
#ifndef TINYGRAD_ENGINE_OPT_CHOOSER_H_
#define TINYGRAD_ENGINE_OPT_CHOOSER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/uop/uop.h"

namespace tg {

// A chooser's answer for one kernel.
struct ChosenOpts {
  std::vector<Opt> opts;
  // Where they came from, for messages: "record 0a1b... of the tuning database sqlite:tuning.db".
  std::string origin;
  // What to do about opts that do not work, for messages; "" for nothing to say.
  std::string remedy;
};

class KernelOptChooser {
 public:
  virtual ~KernelOptChooser() = default;
  // Opts for the kernel `ast` (a SINK with its KernelInfo) on `dev`, which will be lowered with
  // `codegen`; nullopt for the default. `beam` is the realize's BEAM width (BEAM, or JITBEAM
  // while a TinyJit captures): a tuner searches a kernel it has no record of with it, and only
  // looks records up at 0. Called from the thread that realizes, one kernel at a time.
  virtual absl::StatusOr<std::optional<ChosenOpts>> Choose(const UOp& ast, Device& dev,
                                                           const CodegenOptions& codegen,
                                                           int beam) = 0;
  // Part of the method-cache key: two choosers that may pick differently must differ here.
  virtual std::string id() const = 0;
};

// Installs `chooser` (not owned; it must outlive its use); nullptr uninstalls. Set up front,
// not while another thread realizes.
void SetKernelOptChooser(KernelOptChooser* chooser);
KernelOptChooser* GetKernelOptChooser();

// The kernel to lower and where its opts came from.
struct ChosenKernel {
  UOp ast;
  std::optional<ChosenOpts> chosen;  // nullopt: `ast` is the kernel as it was given
};

// The kernel to lower: `ast` with the chooser's opts as opts_to_apply. Unchanged (chosen =
// nullopt) when no chooser is installed, the chooser returns nullopt, the AST is already
// optimized (tagged) or names its own opts. `beam`: the realize's width, for the chooser.
// Errors: the chooser's.
absl::StatusOr<ChosenKernel> WithChosenOpts(const UOp& ast, Device& dev,
                                            const CodegenOptions& codegen, int beam);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_OPT_CHOOSER_H_
