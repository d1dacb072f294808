// File: tinygrad/dtype/golden_test_util.h
// Test-only readers for the golden tables in tinygrad/dtype/testdata/ (written by
// tools/golden/gen_dtype_golden.py from the reference tinygrad).
#ifndef TINYGRAD_DTYPE_GOLDEN_TEST_UTIL_H_
#define TINYGRAD_DTYPE_GOLDEN_TEST_UTIL_H_

#include <string>
#include <string_view>
#include <vector>

#include "tinygrad/dtype/const_value.h"
#include "tinygrad/dtype/dtype.h"

namespace tg::golden {

// The records of testdata/<name>: fields split on " | ", '#' comment and blank lines skipped.
// CHECK-fails when the file can't be read (run from the workspace root, as Bazel tests do).
std::vector<std::vector<std::string>> ReadTable(std::string_view name);

// Builds a dtype from the generator's spec: "float vec:4 ptr:16:LOCAL vec:2".
DType ParseSpec(std::string_view spec);

// Parses a Python repr of a bool, int or float ("True", "-12", "1e+20", "nan", "-inf").
ConstValue ParsePyValue(std::string_view repr);

}  // namespace tg::golden

#endif  // TINYGRAD_DTYPE_GOLDEN_TEST_UTIL_H_
