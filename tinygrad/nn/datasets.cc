// File: tinygrad/nn/datasets.cc
#include "tinygrad/nn/datasets.h"

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/nn/gzip_file.h"
#include "tinygrad/nn/idx_format.h"

namespace tg {
namespace {

constexpr char kInstallHint[] =
    "install the Debian package dataset-fashion-mnist (tools/bootstrap does), or name the "
    "directory "
    "holding the four IDX files";

// One IDX file's uint8 elements, checked to have `rank` dimensions.
struct IdxBytes {
  std::string bytes;
  IdxHeader header;
  std::span<const std::byte> data() const {
    return std::as_bytes(std::span<const char>(bytes))
        .subspan(header.data_offset, header.data_size);
  }
};

absl::StatusOr<IdxBytes> ReadUint8Idx(const std::string& path, size_t rank) {
  IdxBytes f;
  absl::StatusOr<std::string> bytes = ReadGzipFile(path);
  if (absl::IsNotFound(bytes.status())) {
    return absl::NotFoundError(
        absl::StrCat("Fashion-MNIST file ", path, " not found: ", kInstallHint));
  }
  if (!bytes.ok()) return bytes.status();
  f.bytes = *std::move(bytes);
  ASSIGN_OR_RETURN(f.header, ParseIdxHeader(std::as_bytes(std::span<const char>(f.bytes)), path));
  if (f.header.type_code != kIdxUint8) {
    return absl::InvalidArgumentError(
        absl::StrCat("IDX file ", path, ": elements are of type code ", int{f.header.type_code},
                     ", expected uint8 (8)"));
  }
  if (f.header.dims.size() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("IDX file ", path, ": rank ", f.header.dims.size(), ", expected ", rank));
  }
  return f;
}

// The images (n, 1, rows, cols) and labels (n,) of one split ("train" or "t10k").
absl::StatusOr<std::pair<Tensor, Tensor>> LoadSplit(const std::filesystem::path& dir,
                                                    std::string_view split,
                                                    const std::string& device) {
  const std::string images_path =
      (dir / absl::StrCat(std::string(split), "-images-idx3-ubyte.gz")).string();
  const std::string labels_path =
      (dir / absl::StrCat(std::string(split), "-labels-idx1-ubyte.gz")).string();
  ASSIGN_OR_RETURN(IdxBytes images, ReadUint8Idx(images_path, 3));
  ASSIGN_OR_RETURN(IdxBytes labels, ReadUint8Idx(labels_path, 1));
  const std::vector<int64_t>& d = images.header.dims;
  if (labels.header.dims[0] != d[0]) {
    return absl::InvalidArgumentError(absl::StrCat(labels_path, " has ", labels.header.dims[0],
                                                   " labels but ", images_path, " has ", d[0],
                                                   " images"));
  }
  Tensor x = Tensor::FromBytes(images.data(), dtypes::uint8, {d[0], 1, d[1], d[2]}, device);
  Tensor y = Tensor::FromBytes(labels.data(), dtypes::uint8, {d[0]}, device);
  if (!x.ok()) return x.status();  // e.g. an unknown device
  if (!y.ok()) return y.status();
  return std::pair{std::move(x), std::move(y)};
}

}  // namespace

absl::StatusOr<FashionMnist> LoadFashionMnist(const std::string& dir, const std::string& device) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::NotFoundError(
        absl::StrCat("Fashion-MNIST directory ", dir, " not found: ", kInstallHint));
  }
  ASSIGN_OR_RETURN(auto train, LoadSplit(dir, "train", device));
  ASSIGN_OR_RETURN(auto test, LoadSplit(dir, "t10k", device));
  return FashionMnist{std::move(train.first), std::move(train.second), std::move(test.first),
                      std::move(test.second)};
}

std::string DefaultFashionMnistDir() {
  const char* v = std::getenv(kFashionMnistDirEnv);
  return v != nullptr && *v != '\0' ? std::string(v) : std::string(kDebianFashionMnistDir);
}

}  // namespace tg
