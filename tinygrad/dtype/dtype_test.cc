// File: tinygrad/dtype/dtype_test.cc
// DType against the reference: the golden tables in testdata/ come from tinygrad itself
// (tools/golden/gen_dtype_golden.py); the unit tests pin the C++-only parts (CHECKs, hashing).
#include "tinygrad/dtype/dtype.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "tinygrad/dtype/golden_test_util.h"

namespace tg {
namespace {

using golden::ParseSpec;
using golden::ReadTable;

static_assert(sizeof(DType) == 16, "DType is documented as a 16-byte value type");

bool InLattice(DType d) {
  return d.scalar_type() != ScalarType::kVoid && d.scalar_type() != ScalarType::kIndex;
}

// ---- golden tables ----

TEST(DTypeGoldenTest, LeastUpperDtypeAllPairs) {
  int pairs = 0, errors = 0, nary = 0;
  for (const auto& row : ReadTable("least_upper_dtype.txt")) {
    if (row.size() == 2) {  // "a , b , c | lub": n-ary, not foldable from pairs
      std::vector<DType> ds;
      std::string list = row[0];
      for (size_t start = 0, sep;; start = sep + 3) {
        sep = list.find(" , ", start);
        ds.push_back(ParseSpec(list.substr(start, sep - start)));
        if (sep == std::string::npos) break;
      }
      EXPECT_EQ(dtypes::least_upper_dtype(std::span<const DType>(ds)), ParseSpec(row[1])) << row[0];
      ++nary;
      continue;
    }
    ASSERT_EQ(row.size(), 3u);
    DType a = ParseSpec(row[0]), b = ParseSpec(row[1]);
    ++pairs;
    if (row[2] == "error") {
      // tinygrad raises KeyError exactly for the dtypes outside the lattice; we CHECK-fail
      // (death-tested below).
      EXPECT_FALSE(InLattice(a) && InLattice(b)) << row[0] << ", " << row[1];
      ++errors;
      continue;
    }
    DType want = ParseSpec(row[2]);
    EXPECT_EQ(dtypes::least_upper_dtype({a, b}), want) << row[0] << ", " << row[1];
    EXPECT_EQ(dtypes::least_upper_dtype({a}), a);
  }
  EXPECT_EQ(pairs, 17 * 17);
  EXPECT_EQ(errors, 17 * 17 - 15 * 15);
  EXPECT_EQ(nary, 200);
}

TEST(DTypeGoldenTest, CanLosslessCastAllPairs) {
  int n = 0;
  for (const auto& row : ReadTable("can_lossless_cast.txt")) {
    ASSERT_EQ(row.size(), 3u);
    EXPECT_EQ(dtypes::can_lossless_cast(ParseSpec(row[0]), ParseSpec(row[1])), row[2] == "1")
        << row[0] << " -> " << row[1];
    ++n;
  }
  EXPECT_EQ(n, 21 * 21);
}

TEST(DTypeGoldenTest, LessThan) {
  int n = 0;
  for (const auto& row : ReadTable("dtype_lt.txt")) {
    ASSERT_EQ(row.size(), 3u);
    EXPECT_EQ(ParseSpec(row[0]) < ParseSpec(row[1]), row[2] == "1") << row[0] << " < " << row[1];
    ++n;
  }
  EXPECT_EQ(n, 40 * 40);
}

std::string FmtString(DType d) { return d.fmt() == '\0' ? "-" : std::string(1, d.fmt()); }

TEST(DTypeGoldenTest, Properties) {
  int n = 0;
  for (const auto& r : ReadTable("dtype_props.txt")) {
    ASSERT_EQ(r.size(), 21u);
    DType d = ParseSpec(r[0]);
    SCOPED_TRACE(r[0]);
    EXPECT_EQ(d.repr(), r[1]);
    EXPECT_EQ(d.name(), r[2]);
    EXPECT_EQ(std::to_string(d.priority()), r[3]);
    EXPECT_EQ(std::to_string(d.bitsize()), r[4]);
    EXPECT_EQ(std::to_string(d.itemsize()), r[5]);
    EXPECT_EQ(std::to_string(d.count()), r[6]);
    EXPECT_EQ(std::to_string(d.vcount()), r[7]);
    EXPECT_EQ(FmtString(d), r[8]);
    EXPECT_EQ(dtypes::is_float(d), r[9] == "1");
    EXPECT_EQ(dtypes::is_int(d), r[10] == "1");
    EXPECT_EQ(dtypes::is_unsigned(d), r[11] == "1");
    EXPECT_EQ(dtypes::is_bool(d), r[12] == "1");
    // r[13], r[14] (min/max) are checked in const_value_test.
    EXPECT_EQ(d.scalar().repr(), r[15]);
    EXPECT_EQ(d.base().repr(), r[16]);
    if (r[17] != "error") {
      EXPECT_EQ(std::to_string(d.nbytes()), r[17]);
    } else {
      EXPECT_TRUE(!d.is_ptr() || d.size() == -1);
    }
    // The promotion helpers raise in tinygrad exactly where d's scalar is outside the lattice.
    bool promotable = !d.is_ptr() && InLattice(d);
    EXPECT_EQ(r[18] != "error", promotable);
    if (promotable) {
      EXPECT_EQ(dtypes::least_upper_float(d).repr(), r[18]);
    }
    EXPECT_EQ(r[19] != "error", promotable);
    if (promotable) {
      EXPECT_EQ(dtypes::sum_acc_dtype(d).repr(), r[19]);
    }
    if (r[20] != "error") {
      auto [e, m] = dtypes::finfo(d);
      EXPECT_EQ(std::to_string(e) + "," + std::to_string(m), r[20]);
    } else {
      EXPECT_FALSE(dtypes::is_float(d) && d.count() == 1);
    }
    ++n;
  }
  EXPECT_EQ(n, 40);
}

// ---- the examples of the header, spelled out ----

TEST(DTypeTest, ReprExamples) {
  EXPECT_EQ(dtypes::float32.vec(4).repr(), "dtypes.float.vec(4)");
  EXPECT_EQ(dtypes::float32.ptr(16, AddrSpace::LOCAL).repr(),
            "dtypes.float.ptr(16, AddrSpace.LOCAL)");
  EXPECT_EQ(dtypes::float32.ptr(-1).vec(4).repr(), "dtypes.float.ptr(-1).vec(4)");
  EXPECT_EQ(dtypes::uint8.vec(4).name(), "uchar4");
  EXPECT_EQ(dtypes::uint8.name(), "unsigned char");
  std::ostringstream os;
  os << dtypes::int64.ptr(2, AddrSpace::REG) << " " << AddrSpace::LOCAL << " " << AddrSpace::GLOBAL;
  EXPECT_EQ(os.str(), "dtypes.long.ptr(2, AddrSpace.REG) AddrSpace.LOCAL AddrSpace.GLOBAL");
}

TEST(DTypeTest, PointerFields) {
  DType p = dtypes::float32.vec(4).ptr(16, AddrSpace::LOCAL);
  EXPECT_TRUE(p.is_ptr());
  EXPECT_EQ(p.count(), 4);  // the pointee's width
  EXPECT_EQ(p.v(), 1);
  EXPECT_EQ(p.size(), 16);
  EXPECT_EQ(p.addrspace(), AddrSpace::LOCAL);
  EXPECT_EQ(p.base(), dtypes::float32.vec(4));
  EXPECT_EQ(p.nbytes(), 16 * 16);
  DType pv = p.vec(2);
  EXPECT_EQ(pv.v(), 2);
  EXPECT_EQ(pv.vcount(), 2);
  EXPECT_EQ(pv.count(), 4);
  EXPECT_EQ(pv.scalar(), p);
  EXPECT_EQ(pv.base(), dtypes::float32.vec(4));
  EXPECT_NE(pv, p);
  EXPECT_FALSE(dtypes::is_float(p));
  EXPECT_FALSE(dtypes::is_float(pv));
}

TEST(DTypeTest, VecOfOneAndVoidAreIdentity) {
  EXPECT_EQ(dtypes::float32.vec(1), dtypes::float32);
  EXPECT_EQ(dtypes::void_.vec(4), dtypes::void_);
  EXPECT_EQ(dtypes::int32.ptr().vec(1), dtypes::int32.ptr());
}

TEST(DTypeTest, EqualityIsFieldwise) {
  EXPECT_EQ(dtypes::default_float, dtypes::float32);
  EXPECT_EQ(dtypes::default_int, dtypes::int32);
  EXPECT_NE(dtypes::float32.ptr(16), dtypes::float32.ptr(17));
  EXPECT_NE(dtypes::float32.ptr(16), dtypes::float32.ptr(16, AddrSpace::LOCAL));
  EXPECT_NE(dtypes::float32.ptr(), dtypes::float32);
  EXPECT_NE(dtypes::float32.vec(2), dtypes::float32.vec(3));
  EXPECT_EQ(DType(), dtypes::void_);
  constexpr DType kConst = dtypes::bfloat16;  // usable in constant expressions
  EXPECT_EQ(kConst.scalar_type(), ScalarType::kBFloat16);
}

TEST(DTypeTest, FromName) {
  DType d;
  EXPECT_TRUE(dtypes::FromName("float32", &d));
  EXPECT_EQ(d, dtypes::float32);
  EXPECT_TRUE(dtypes::FromName("half", &d));
  EXPECT_EQ(d, dtypes::float16);
  EXPECT_TRUE(dtypes::FromName("uchar", &d));
  EXPECT_EQ(d, dtypes::uint8);
  EXPECT_TRUE(dtypes::FromName("Long", &d));  // to_dtype lowercases
  EXPECT_EQ(d, dtypes::int64);
  EXPECT_TRUE(dtypes::FromName("index", &d));
  EXPECT_EQ(d, dtypes::index);
  EXPECT_TRUE(dtypes::FromName("void", &d));
  EXPECT_EQ(d, dtypes::void_);
  d = dtypes::int8;
  EXPECT_FALSE(dtypes::FromName("float128", &d));
  EXPECT_FALSE(dtypes::FromName("unsigned char", &d));  // a C name, not a dtypes attribute
  EXPECT_FALSE(dtypes::FromName("", &d));
  EXPECT_EQ(d, dtypes::int8);  // untouched on failure
}

TEST(DTypeTest, FpSixteensAndFp8sAreFloats) {
  for (DType d : {dtypes::fp8e4m3, dtypes::fp8e5m2, dtypes::float16, dtypes::bfloat16}) {
    EXPECT_TRUE(dtypes::is_float(d)) << d;
    EXPECT_TRUE(dtypes::is_float(d.vec(2))) << d;
    EXPECT_FALSE(dtypes::is_int(d)) << d;
  }
  EXPECT_TRUE(dtypes::is_int(dtypes::index));
  EXPECT_FALSE(dtypes::is_unsigned(dtypes::index));
  EXPECT_FALSE(dtypes::is_int(dtypes::bool_));
}

TEST(DTypeTest, LeastUpperDtypeIsNotAssociative) {
  DType lu = dtypes::least_upper_dtype({dtypes::int64, dtypes::uint64});
  EXPECT_EQ(lu, dtypes::fp8e4m3);
  EXPECT_EQ(dtypes::least_upper_dtype({lu, dtypes::fp8e5m2}), dtypes::float16);
  EXPECT_EQ(dtypes::least_upper_dtype({dtypes::int64, dtypes::uint64, dtypes::fp8e5m2}),
            dtypes::fp8e5m2);
  // Vectors promote by their scalar and give a scalar.
  EXPECT_EQ(dtypes::least_upper_dtype({dtypes::int8.vec(4), dtypes::uint8}), dtypes::int16);
}

// ---- hashing ----

TEST(DTypeTest, StableHashIsPinned) {
  // If one of these changes, every tuning database keyed on UOp structure is invalidated:
  // update them only on purpose.
  EXPECT_EQ(dtypes::float32.StableHash(), 0xea0b1f1e9f15856dULL);
  EXPECT_EQ(dtypes::float32.vec(4).StableHash(), 0x3e90f55391943e88ULL);
  EXPECT_EQ(dtypes::float32.ptr(16, AddrSpace::LOCAL).vec(2).StableHash(), 0x3a1c65d946d82896ULL);
  EXPECT_EQ(dtypes::index.StableHash(), 0x71e60241b2ff70cbULL);
}

TEST(DTypeTest, HashesSeparateAllGoldenDtypes) {
  std::vector<DType> all;
  for (const auto& r : ReadTable("dtype_props.txt")) {
    DType d = ParseSpec(r[0]);
    bool dup = false;
    for (DType e : all) dup |= e == d;
    if (!dup) all.push_back(d);
  }
  absl::flat_hash_set<uint64_t> stable;
  absl::flat_hash_set<DType> absl_set(all.begin(), all.end());
  for (DType d : all) stable.insert(d.StableHash());
  EXPECT_EQ(stable.size(), all.size());
  EXPECT_EQ(absl_set.size(), all.size());
  EXPECT_TRUE(absl_set.contains(dtypes::float32.ptr(16, AddrSpace::LOCAL)));
}

// ---- programming errors CHECK-fail with a message ----

TEST(DTypeDeathTest, BadConstruction) {
  EXPECT_DEATH(dtypes::float32.vec(4).vec(2), "can't vectorize dtypes.float.vec\\(4\\)");
  EXPECT_DEATH(dtypes::float32.ptr().vec(2).vec(2), "can't vectorize ptr");
  EXPECT_DEATH(dtypes::float32.ptr().ptr(), "can't make a pointer from a pointer");
  EXPECT_DEATH(dtypes::float32.ptr().vec(0), "bad vector width 0");
  EXPECT_EQ(dtypes::index.vec(0).count(), 0);  // 0-d movement args
  EXPECT_DEATH(dtypes::float32.ptr(-2), "pointer size");
  EXPECT_DEATH(dtypes::float32.nbytes(), "only ptr types have nbytes");
  EXPECT_DEATH(dtypes::float32.ptr().nbytes(), "unlimited size");
}

TEST(DTypeDeathTest, OutsideTheLattice) {
  EXPECT_DEATH(dtypes::least_upper_dtype({dtypes::index, dtypes::int32}),
               "not in the promotion lattice");
  EXPECT_DEATH(dtypes::least_upper_dtype({dtypes::float32.ptr()}), "pointer");
  EXPECT_DEATH(dtypes::least_upper_dtype(std::span<const DType>()), "at least one");
  EXPECT_DEATH(dtypes::sum_acc_dtype(dtypes::index), "not in the promotion lattice");
  EXPECT_DEATH(dtypes::finfo(dtypes::int32), "not a scalar floating point type");
  EXPECT_DEATH(dtypes::finfo(dtypes::float32.vec(2)), "not a scalar floating point type");
}

}  // namespace
}  // namespace tg
