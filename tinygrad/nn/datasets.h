// File: tinygrad/nn/datasets.h
// Datasets as tensors. Port of tinygrad/nn/datasets.py's mnist(fashion=True): the reference
// downloads Fashion-MNIST's four gzip'ed IDX files; here they come from Debian's
// dataset-fashion-mnist package (tools/bootstrap installs it), read from a directory the caller
// names.
//
// Example (a command-line tool):
//   ASSIGN_OR_RETURN(FashionMnist d, LoadFashionMnist(DefaultFashionMnistDir()));
//   // d.x_train: uint8 (60000, 1, 28, 28), d.y_train: uint8 (60000,), d.x_test, d.y_test: 10000
#ifndef TINYGRAD_NN_DATASETS_H_
#define TINYGRAD_NN_DATASETS_H_

#include <string>

#include "absl/status/statusor.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {

// Where Debian's dataset-fashion-mnist package puts its files.
inline constexpr char kDebianFashionMnistDir[] = "/usr/share/datasets/fashion-mnist";
// Overrides kDebianFashionMnistDir in DefaultFashionMnistDir().
inline constexpr char kFashionMnistDirEnv[] = "TG_FASHION_MNIST_DIR";

// The reference's mnist() tuple, in its order. Images are uint8 (n, 1, rows, cols), labels
// uint8 (n,), as the reference's raw byte tensors are (rows and cols come from the files: 28).
struct FashionMnist {
  Tensor x_train, y_train, x_test, y_test;
};

// Loads train-{images-idx3,labels-idx1}-ubyte.gz and t10k-... from `dir` onto `device`. The
// bytes are read and checked now and copied into the tensors (60 MB in all). Errors name the
// file: NotFound for a missing directory or file (saying to install dataset-fashion-mnist);
// InvalidArgument for a corrupt gzip stream, a bad IDX file (ParseIdxHeader), elements that are
// not uint8, images not of rank 3 or labels not of rank 1, or a label count that differs from
// the image count. MNIST's files, which have the same names and format, load too.
absl::StatusOr<FashionMnist> LoadFashionMnist(const std::string& dir,
                                              const std::string& device = DefaultDevice());

// For command-line tools: $TG_FASHION_MNIST_DIR when set and not empty, else where Debian's
// package installs. Library code takes the directory as a parameter instead.
std::string DefaultFashionMnistDir();

}  // namespace tg

#endif  // TINYGRAD_NN_DATASETS_H_
