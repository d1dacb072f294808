// File: tinygrad/nn/dataset_test_files.h
// Test helpers for the file formats' tests: IDX files, gzip'ed and plain, and files written
// under and read from the test's temporary directory.
#ifndef TINYGRAD_NN_DATASET_TEST_FILES_H_
#define TINYGRAD_NN_DATASET_TEST_FILES_H_

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tinygrad/dtype/dtype.h"

namespace tg::testing {

// An IDX file's bytes: magic (0, 0, `type`, rank), big-endian `dims`, then `data` as it is
// (so a test can write files whose data does not match their dims).
std::string IdxFile(uint8_t type, std::initializer_list<uint32_t> dims, std::string_view data);

// A new, empty directory $TEST_TMPDIR/<name> (removed first if it exists).
std::string FreshTestDir(std::string_view name);

// The gzip compression of `bytes` (one member, as gzip(1) writes it).
std::string Gzip(std::string_view bytes);

// Writes `bytes` to `path` as they are; fails the test (gtest ADD_FAILURE) on an IO error.
void WriteFile(const std::string& path, std::string_view bytes);

// $TEST_TMPDIR/<name> (./<name> outside Bazel).
std::string TestTmpPath(std::string_view name);
// Writes `bytes` to TestTmpPath(name) and returns that path.
std::string WriteTestTmpFile(std::string_view name, std::string_view bytes);
// A file's bytes ("" when it can't be read).
std::string ReadFileBytes(const std::string& path);

// Little-endian float16 / bfloat16 / float32 / float64 elements as doubles.
std::vector<double> DecodeFloats(std::span<const std::byte> b, DType dt);

}  // namespace tg::testing

#endif  // TINYGRAD_NN_DATASET_TEST_FILES_H_
