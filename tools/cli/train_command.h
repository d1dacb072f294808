// File: tools/cli/train_command.h
// `tg train fashion_mnist [--model mlp|cnn] [--steps N] [--batch N] [--lr X] [--seed N]
// [--out FILE]`: trains a classifier with Adam on Fashion-MNIST, showing step, loss and
// speed, then prints the test-set accuracy and saves the weights as safetensors.
#ifndef TOOLS_CLI_TRAIN_COMMAND_H_
#define TOOLS_CLI_TRAIN_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 ok, 1 the training failed (no dataset, a failed step or
// save), 2 usage error.
int TrainCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_TRAIN_COMMAND_H_
