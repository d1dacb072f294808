// File: tinygrad/nn/gzip_test_files.h
// Test helpers: gzip'ed and plain files written under the test's temporary directory.
#ifndef TINYGRAD_NN_GZIP_TEST_FILES_H_
#define TINYGRAD_NN_GZIP_TEST_FILES_H_

#include <string>
#include <string_view>

namespace tg::testing {

// A new, empty directory $TEST_TMPDIR/<name> (removed first if it exists).
std::string FreshTestDir(std::string_view name);

// The gzip compression of `bytes` (one member, as gzip(1) writes it).
std::string Gzip(std::string_view bytes);

// Writes `bytes` to `path` as they are; fails the test (gtest ADD_FAILURE) on an IO error.
void WriteFile(const std::string& path, std::string_view bytes);

}  // namespace tg::testing

#endif  // TINYGRAD_NN_GZIP_TEST_FILES_H_
