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

class KernelOptChooser {
 public:
  virtual ~KernelOptChooser() = default;
  // Opts for the kernel `ast` (a SINK with its KernelInfo) on `dev`, which will be lowered with
  // `codegen`; nullopt for the default. Called from the thread that realizes, one kernel at a
  // time.
  virtual absl::StatusOr<std::optional<std::vector<Opt>>> Choose(const UOp& ast, Device& dev,
                                                                 const CodegenOptions& codegen) = 0;
  // Part of the method-cache key: two choosers that may pick differently must differ here.
  virtual std::string id() const = 0;
};

// Installs `chooser` (not owned; it must outlive its use); nullptr uninstalls. Set up front,
// not while another thread realizes.
void SetKernelOptChooser(KernelOptChooser* chooser);
KernelOptChooser* GetKernelOptChooser();

// The kernel to lower: `ast` with the chooser's opts as opts_to_apply. Unchanged when no chooser
// is installed, the chooser returns nullopt, the AST is already optimized (tagged) or names
// its own opts.
absl::StatusOr<UOp> WithChosenOpts(const UOp& ast, Device& dev, const CodegenOptions& codegen);

}  // namespace tg

#endif  // TINYGRAD_ENGINE_OPT_CHOOSER_H_
