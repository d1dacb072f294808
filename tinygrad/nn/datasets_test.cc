// File: tinygrad/nn/datasets_test.cc
// LoadFashionMnist on small synthetic datasets written here (shapes, values, every error, each
// naming the file), and on Debian's dataset-fashion-mnist files when the package is installed
// (found with dpkg-query; the test says it skipped otherwise).
#include "tinygrad/nn/datasets.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/dtype/dtype.h"
#include "tinygrad/nn/dataset_test_files.h"

namespace tg {
namespace {

using ::testing::ElementsAre;
using testing::FreshTestDir;
using testing::Gzip;
using ::testing::HasSubstr;
using testing::IdxFile;
using testing::WriteFile;

std::string Bytes(size_t n, int start) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(start + i));
  return s;
}

// A dataset of `n_train` / `n_test` 2x3 images with labels 0, 1, ... under a fresh directory.
std::string WriteDataset(const std::string& name, uint32_t n_train = 3, uint32_t n_test = 2) {
  std::string dir = FreshTestDir(name);
  WriteFile(dir + "/train-images-idx3-ubyte.gz",
            Gzip(IdxFile(0x08, {n_train, 2, 3}, Bytes(6 * n_train, 10))));
  WriteFile(dir + "/train-labels-idx1-ubyte.gz", Gzip(IdxFile(0x08, {n_train}, Bytes(n_train, 0))));
  WriteFile(dir + "/t10k-images-idx3-ubyte.gz",
            Gzip(IdxFile(0x08, {n_test, 2, 3}, Bytes(6 * n_test, 100))));
  WriteFile(dir + "/t10k-labels-idx1-ubyte.gz", Gzip(IdxFile(0x08, {n_test}, Bytes(n_test, 5))));
  return dir;
}

template <typename T>
std::vector<int> Ints(const Tensor& t) {
  absl::StatusOr<std::vector<T>> v = t.to_vector<T>();
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? std::vector<int>(v->begin(), v->end()) : std::vector<int>{};
}

TEST(DatasetsTest, LoadsASyntheticDataset) {
  absl::StatusOr<FashionMnist> d = LoadFashionMnist(WriteDataset("synthetic"));
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->x_train.shape(), (std::vector<int64_t>{3, 1, 2, 3}));
  EXPECT_EQ(d->y_train.shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(d->x_test.shape(), (std::vector<int64_t>{2, 1, 2, 3}));
  EXPECT_EQ(d->y_test.shape(), (std::vector<int64_t>{2}));
  for (const Tensor* t : {&d->x_train, &d->y_train, &d->x_test, &d->y_test})
    EXPECT_EQ(t->dtype(), dtypes::uint8);
  std::vector<int> x_train(18), x_test(12);
  std::iota(x_train.begin(), x_train.end(), 10);
  std::iota(x_test.begin(), x_test.end(), 100);
  EXPECT_EQ(Ints<uint8_t>(d->x_train), x_train);
  EXPECT_EQ(Ints<uint8_t>(d->x_test), x_test);
  EXPECT_THAT(Ints<uint8_t>(d->y_train), ElementsAre(0, 1, 2));
  EXPECT_THAT(Ints<uint8_t>(d->y_test), ElementsAre(5, 6));
}

TEST(DatasetsTest, MissingDirectorySaysToInstallThePackage) {
  const std::string dir = FreshTestDir("parent") + "/no_such_dir";
  absl::Status s = LoadFashionMnist(dir).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("no_such_dir"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("dataset-fashion-mnist"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("tools/bootstrap"));
}

TEST(DatasetsTest, MissingFileSaysToInstallThePackage) {
  const std::string dir = WriteDataset("missing_file");
  std::filesystem::remove(dir + "/t10k-labels-idx1-ubyte.gz");
  absl::Status s = LoadFashionMnist(dir).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("t10k-labels-idx1-ubyte.gz not found"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("dataset-fashion-mnist"));
}

// Replaces one file of a good dataset with `contents` (gzip'ed) and returns the load's error.
absl::Status ErrorWith(const std::string& name, const std::string& file,
                       const std::string& contents) {
  const std::string dir = WriteDataset(name);
  WriteFile(dir + "/" + file, Gzip(contents));
  return LoadFashionMnist(dir).status();
}

TEST(DatasetsTest, BadFilesAreErrorsNamingTheFile) {
  struct Case {
    std::string file, contents, message;
  };
  const std::vector<Case> cases = {
      {"train-images-idx3-ubyte.gz", std::string("\x1f\x8b\x08\x00", 4),
       "train-images-idx3-ubyte.gz: bad magic number"},
      {"train-labels-idx1-ubyte.gz", IdxFile(0x08, {3}, "\x01\x02"),
       "train-labels-idx1-ubyte.gz: truncated data"},
      {"t10k-images-idx3-ubyte.gz", IdxFile(0x08, {2, 2, 3}, "").substr(0, 12),
       "t10k-images-idx3-ubyte.gz: truncated header"},
      {"t10k-images-idx3-ubyte.gz", IdxFile(0x08, {0xffffffff, 0xffffffff, 0xffffffff}, ""),
       "overflows"},
      {"train-images-idx3-ubyte.gz", IdxFile(0x08, {3, 6}, Bytes(18, 0)),
       "train-images-idx3-ubyte.gz: rank 2, expected 3"},
      {"train-labels-idx1-ubyte.gz", IdxFile(0x0C, {3}, Bytes(12, 0)),
       "elements are of type code 12, expected uint8"},
      {"train-labels-idx1-ubyte.gz", IdxFile(0x08, {4}, Bytes(4, 0)), "has 4 labels but"},
  };
  int i = 0;
  for (const Case& c : cases) {
    absl::Status s = ErrorWith("bad_" + std::to_string(i++), c.file, c.contents);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message << ": " << s;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message));
  }
}

TEST(DatasetsTest, TruncatedGzipIsAnError) {
  const std::string dir = WriteDataset("truncated_gzip");
  const std::string packed = Gzip(IdxFile(0x08, {3, 2, 3}, Bytes(18, 10)));
  WriteFile(dir + "/train-images-idx3-ubyte.gz", packed.substr(0, packed.size() - 6));
  absl::Status s = LoadFashionMnist(dir).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("train-images-idx3-ubyte.gz"));
}

TEST(DatasetsTest, DefaultDirIsDebiansUnlessOverridden) {
  unsetenv(kFashionMnistDirEnv);
  EXPECT_EQ(DefaultFashionMnistDir(), kDebianFashionMnistDir);
  setenv(kFashionMnistDirEnv, "", 1);
  EXPECT_EQ(DefaultFashionMnistDir(), kDebianFashionMnistDir);
  setenv(kFashionMnistDirEnv, "some/dir", 1);
  EXPECT_EQ(DefaultFashionMnistDir(), "some/dir");
  unsetenv(kFashionMnistDirEnv);
}

// Where dpkg says dataset-fashion-mnist put its training images; empty when it is not installed.
std::string InstalledPackageDir() {
  FILE* p = popen("dpkg-query -L dataset-fashion-mnist 2>/dev/null", "r");
  if (p == nullptr) return "";
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    std::filesystem::path f{std::string(line)};
    if (f.filename() == "train-images-idx3-ubyte.gz" && std::filesystem::exists(f))
      return f.parent_path().string();
  }
  return "";
}

TEST(DatasetsTest, DebianPackageFiles) {
  const std::string dir = InstalledPackageDir();
  if (dir.empty())
    GTEST_SKIP() << "dataset-fashion-mnist is not installed (tools/bootstrap installs it)";
  absl::StatusOr<FashionMnist> d = LoadFashionMnist(dir);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->x_train.shape(), (std::vector<int64_t>{60000, 1, 28, 28}));
  EXPECT_EQ(d->y_train.shape(), (std::vector<int64_t>{60000}));
  EXPECT_EQ(d->x_test.shape(), (std::vector<int64_t>{10000, 1, 28, 28}));
  EXPECT_EQ(d->y_test.shape(), (std::vector<int64_t>{10000}));
  for (const Tensor* t : {&d->x_train, &d->y_train, &d->x_test, &d->y_test})
    EXPECT_EQ(t->dtype(), dtypes::uint8);

  // Expected values from the reference's own mnist(fashion=True) run on the same files:
  // tools/golden/gen_fashion_mnist_golden.py.
  std::vector<int> y_train = Ints<uint8_t>(d->y_train), y_test = Ints<uint8_t>(d->y_test);
  ASSERT_EQ(y_train.size(), 60000u);
  ASSERT_EQ(y_test.size(), 10000u);
  EXPECT_THAT(std::vector<int>(y_train.begin(), y_train.begin() + 5), ElementsAre(9, 0, 0, 3, 0));
  EXPECT_THAT(std::vector<int>(y_test.begin(), y_test.begin() + 5), ElementsAre(9, 2, 1, 1, 6));
  for (int label : y_train) ASSERT_TRUE(label >= 0 && label <= 9) << label;
  for (int label : y_test) ASSERT_TRUE(label >= 0 && label <= 9) << label;
  EXPECT_EQ(std::accumulate(y_train.begin(), y_train.end(), 0), 270000);  // 6000 of each class
  EXPECT_EQ(std::accumulate(y_test.begin(), y_test.end(), 0), 45000);
  std::vector<int> x_train = Ints<uint8_t>(d->x_train), x_test = Ints<uint8_t>(d->x_test);
  ASSERT_EQ(x_train.size(), 60000u * 784);
  ASSERT_EQ(x_test.size(), 10000u * 784);
  EXPECT_EQ(std::accumulate(x_train.begin(), x_train.begin() + 784, 0), 76247);
  EXPECT_EQ(std::accumulate(x_test.begin(), x_test.begin() + 784, 0), 33456);
  EXPECT_EQ(x_train[14 * 28 + 14], 217);  // x_train[0, 0, 14, 14]
}

}  // namespace
}  // namespace tg
