// File: tools/cli/counting_chooser.h
// A KernelOptChooser around another (the tuner) that counts the kernels it is asked about
// (each kernel a run compiles) and those it has opts for, so a run can say whether tuned
// kernels were used (tg train, tools/bench:train_step_bench).
#ifndef TOOLS_CLI_COUNTING_CHOOSER_H_
#define TOOLS_CLI_COUNTING_CHOOSER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tinygrad/codegen/codegen_options.h"
#include "tinygrad/codegen/opt/opt.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/opt_chooser.h"

namespace tg {

class CountingChooser : public KernelOptChooser {
 public:
  explicit CountingChooser(KernelOptChooser& inner) : inner_(inner) {}
  absl::StatusOr<std::optional<ChosenOpts>> Choose(const UOp& ast, Device& dev,
                                                   const CodegenOptions& codegen,
                                                   int beam) override {
    absl::StatusOr<std::optional<ChosenOpts>> opts = inner_.Choose(ast, dev, codegen, beam);
    ++asked_;
    if (opts.ok() && opts->has_value()) ++tuned_;
    return opts;
  }
  std::string id() const override { return inner_.id(); }
  int asked() const { return asked_; }
  int tuned() const { return tuned_; }

 private:
  KernelOptChooser& inner_;
  int asked_ = 0, tuned_ = 0;
};

}  // namespace tg

#endif  // TOOLS_CLI_COUNTING_CHOOSER_H_
