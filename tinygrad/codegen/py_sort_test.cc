// File: tinygrad/codegen/py_sort_test.cc
// PySort against CPython 3.11's sorted(): a total order, stability, and a comparison that is
// not a strict weak order (values within 3 of each other unordered), where only the same
// algorithm gives the same permutation. The expected permutations were printed with Python 3.11:
//   import random
//   random.seed(7)
//   class K:
//     def __init__(s, i, v): s.i, s.v = i, v
//     def __lt__(s, o): return s.v < o.v - 3
//   for n in (40, 300):
//     vals = [random.randrange(100) for _ in range(n)]
//     print(vals, [k.i for k in sorted([K(i, v) for i, v in enumerate(vals)])])
#include "tinygrad/codegen/py_sort.h"

#include <numeric>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tg {
namespace {

void Check(const std::vector<int>& vals, const std::vector<int>& want) {
  std::vector<int> idx(vals.size());
  std::iota(idx.begin(), idx.end(), 0);
  PySort(idx, [&](int a, int b) { return vals[a] < vals[b] - 3; });
  EXPECT_EQ(idx, want);
}

TEST(PySortTest, MatchesCPythonOnAPartialOrder) {
  {
    std::vector<int> vals =
      {41, 19, 50, 83, 6, 9, 68, 12, 46, 74, 7, 64, 27, 4, 11, 55, 53, 8, 30, 11, 70, 54, 7, 72,
      15, 28, 80, 80, 74, 7, 73, 74, 50, 6, 28, 5, 71, 17, 37, 53};
    std::vector<int> want =
      {4, 13, 5, 10, 17, 22, 29, 33, 35, 7, 14, 19, 24, 1, 37, 12, 18, 25, 34, 38, 0, 8, 2, 32,
      15, 16, 21, 39, 11, 6, 20, 9, 23, 28, 30, 31, 36, 3, 26, 27};
    Check(vals, want);
  }
  {
    std::vector<int> vals =
      {18, 69, 15, 73, 39, 71, 87, 23, 13, 74, 73, 81, 24, 47, 12, 70, 91, 8, 72, 7, 79, 26, 63,
      87, 68, 54, 99, 40, 59, 74, 58, 46, 38, 31, 23, 89, 99, 31, 10, 73, 38, 67, 63, 43, 93,
      57, 36, 77, 9, 15, 65, 53, 21, 96, 43, 19, 62, 53, 5, 85, 9, 97, 71, 73, 40, 43, 88, 44,
      76, 63, 74, 58, 8, 11, 34, 60, 89, 85, 8, 7, 93, 89, 39, 82, 73, 87, 57, 36, 91, 49, 85,
      44, 2, 59, 45, 21, 78, 14, 63, 7, 27, 98, 36, 16, 94, 31, 50, 50, 63, 10, 21, 57, 51, 70,
      35, 17, 55, 70, 35, 90, 53, 45, 87, 48, 29, 19, 10, 22, 19, 29, 84, 29, 1, 62, 75, 23, 33,
      36, 0, 18, 53, 68, 47, 78, 72, 40, 16, 88, 65, 79, 83, 86, 94, 6, 58, 99, 87, 71, 50, 50,
      51, 50, 13, 61, 81, 51, 7, 24, 8, 26, 56, 20, 14, 43, 76, 6, 13, 0, 72, 19, 68, 12, 46,
      78, 3, 9, 26, 78, 48, 19, 81, 32, 44, 77, 46, 60, 15, 14, 62, 59, 61, 61, 39, 10, 18, 13,
      95, 43, 94, 33, 61, 88, 20, 66, 2, 26, 67, 46, 18, 88, 69, 3, 97, 67, 38, 82, 11, 89, 33,
      66, 46, 21, 45, 98, 28, 68, 69, 99, 64, 42, 81, 28, 78, 97, 24, 30, 51, 94, 29, 25, 66,
      63, 45, 93, 3, 3, 35, 60, 33, 24, 88, 77, 44, 57, 92, 44, 46, 10, 28, 13, 29, 60, 25, 43,
      26, 61, 79, 78, 0, 61, 83, 44, 82, 10, 84, 15, 49, 91, 96, 25, 61, 22, 55, 81, 42, 11, 92,
      50, 59, 51};
    std::vector<int> want =
      {92, 132, 138, 177, 214, 153, 221, 166, 168, 175, 184, 254, 255, 278, 17, 19, 58, 38, 48,
      60, 72, 78, 79, 99, 73, 0, 2, 8, 14, 109, 126, 185, 162, 203, 267, 172, 176, 181, 196,
      197, 205, 226, 269, 283, 49, 97, 295, 7, 12, 52, 55, 103, 115, 95, 110, 125, 127, 128,
      139, 146, 285, 171, 179, 189, 204, 21, 34, 135, 212, 218, 167, 231, 169, 186, 215, 244,
      259, 234, 241, 249, 268, 272, 191, 270, 274, 289, 291, 100, 33, 37, 105, 124, 129, 131,
      209, 228, 245, 248, 74, 4, 27, 32, 40, 46, 114, 118, 136, 82, 87, 102, 137, 256, 258, 43,
      54, 64, 65, 145, 202, 224, 13, 31, 67, 91, 94, 121, 173, 182, 192, 194, 207, 217, 230,
      232, 239, 252, 262, 265, 294, 266, 273, 89, 106, 107, 112, 123, 142, 281, 158, 159, 160,
      161, 165, 188, 246, 286, 25, 51, 57, 86, 116, 120, 140, 297, 299, 28, 30, 45, 71, 154,
      170, 22, 42, 56, 69, 75, 93, 111, 1, 41, 50, 98, 108, 133, 163, 195, 198, 199, 200, 201,
      210, 213, 216, 229, 238, 251, 257, 263, 292, 271, 275, 279, 290, 298, 157, 180, 235, 178,
      220, 223, 236, 250, 3, 5, 15, 24, 84, 113, 117, 141, 148, 9, 10, 18, 29, 39, 62, 63, 47,
      68, 70, 96, 134, 144, 11, 20, 143, 149, 174, 193, 261, 164, 183, 187, 6, 23, 59, 77, 83,
      130, 150, 190, 225, 240, 242, 276, 277, 280, 282, 156, 284, 293, 16, 35, 66, 76, 81, 85,
      90, 80, 88, 119, 122, 147, 151, 211, 219, 227, 260, 44, 26, 36, 53, 61, 104, 152, 206,
      208, 247, 253, 264, 287, 296, 101, 155, 222, 233, 237, 243, 288};
    Check(vals, want);
  }
}

TEST(PySortTest, SortsAndIsStable) {
  std::mt19937 rng(1);
  for (int n : {0, 1, 2, 5, 63, 64, 65, 200, 1000, 5000}) {
    std::vector<std::pair<int, int>> v(n);
    for (int i = 0; i < n; ++i) v[i] = {static_cast<int>(rng() % 50), i};
    std::vector<std::pair<int, int>> want = v;
    std::stable_sort(want.begin(), want.end(), [](auto a, auto b) { return a.first < b.first; });
    PySort(v, [](auto a, auto b) { return a.first < b.first; });
    EXPECT_EQ(v, want) << n;
  }
  std::vector<int> runs;  // ascending and descending runs, to exercise galloping merges
  for (int i = 0; i < 3000; ++i) runs.push_back(i % 700 < 350 ? i % 700 : 700 - i % 700);
  std::vector<int> want = runs;
  std::sort(want.begin(), want.end());
  PySort(runs, [](int a, int b) { return a < b; });
  EXPECT_EQ(runs, want);
}

}  // namespace
}  // namespace tg
