// File: tinygrad/codegen/lower/load_store.cc
// Port of tinygrad/codegen/late/devectorizer.py: load_store_folding (expand_index,
// fold_expanded_index, cat_after_store, gep_on_store), correct_load_store (split_load_store)
// and load_store_indexing (simplify_valid_load).
// TODO(parity): images (ImageDType, image_fixup) are not ported; nor are AMX, ALLOW_HALF8 and
// UNSAFE_DISABLE_MASK, which tinygrad reads from the environment.
#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "tinygrad/base/check.h"
#include "tinygrad/codegen/lower/devectorizer.h"
#include "tinygrad/codegen/renderer.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/symbolic/helpers.h"
#include "tinygrad/uop/symbolic/symbolic.h"

namespace tg {
namespace {

std::vector<int> Iota(int start, int end) {
  std::vector<int> v;
  for (int i = start; i < end; ++i) v.push_back(i);
  return v;
}

// the pointer to `len` consecutive elements of buf's base dtype
DType VecPtr(DType buf_ptr, int len) {
  return buf_ptr.base().vec(len).ptr(buf_ptr.size(), buf_ptr.addrspace());
}

// ***** load/store grouping *****

// INDEX(VECTORIZE(buf...), vec) -> VECTORIZE of one pointer INDEX per lane
UOp ExpandIndex(const Match& m) {
  const UOp &buf = m["buf"], &vec = m["vec"];
  std::vector<UOp> idxs;
  for (int i = 0; i < vec.dtype().count(); ++i)
    idxs.push_back(buf.index(std::vector<UOp>{vec.gep(i)}, /*ptr=*/true));
  return UOp::Make(Ops::VECTORIZE, buf.dtype(), idxs);
}

// The grouping key of a lane's index: (valid, root) where the index is root + const.
struct RootKey {
  UOp valid;
  UOp root;      // null for the "CONST" and "INVALID" roots
  int special;   // 0: root is a UOp, 1: "CONST", 2: "INVALID"
  bool operator==(const RootKey& o) const {
    return valid == o.valid && root == o.root && special == o.special;
  }
};

// VECTORIZE of per-lane INDEXes -> consecutive lanes as vector pointers in a PTRCAT, then GEP
UOp FoldExpandedIndex(const Match& m) {
  const UOp& midx = m["midx"];
  const UOp buf = midx.src(0).src(0);
  for (const UOp& s : midx.src())
    if (s.src(0) != buf || !s.dtype().is_ptr()) return {};

  // extract all the relevant offsets; keys keep their first-seen order (a Python dict)
  std::vector<std::pair<RootKey, std::map<i128, std::vector<int>>>> offsets_rootsrc;
  for (int i = 0; i < static_cast<int>(midx.src().size()); ++i) {
    const UOp& sidx = midx.src(i).src(1);
    UOp idx = GetIdx(sidx);
    RootKey key{GetValid(sidx), idx, 0};
    i128 arg = 0;
    if (idx.op() == Ops::ADD && idx.src(1).op() == Ops::CONST) {
      key.root = idx.src(0), arg = ConstArg(idx.src(1)).to_int();
    } else if (idx.op() == Ops::ADD && idx.src(0).op() == Ops::CONST) {
      key.root = idx.src(1), arg = ConstArg(idx.src(0)).to_int();
    } else if (idx.op() == Ops::CONST && ConstArg(idx).is_invalid()) {
      key.root = UOp(), key.special = 2;
    } else if (idx.op() == Ops::CONST) {
      key.root = UOp(), key.special = 1, arg = ConstArg(idx).to_int();
    }
    auto it = std::find_if(offsets_rootsrc.begin(), offsets_rootsrc.end(),
                           [&](const auto& e) { return e.first == key; });
    if (it == offsets_rootsrc.end()) {
      offsets_rootsrc.push_back({key, {}});
      it = offsets_rootsrc.end() - 1;
    }
    it->second[arg].push_back(i);
  }

  // then rewrite everything we can into groups
  std::vector<UOp> ret;
  std::vector<int> idxs(midx.src().size(), -1);
  int global_offset = 0;
  DType bp = buf.dtype();
  for (const auto& [key, offsets] : offsets_rootsrc) {
    // runs of consecutive offsets (sorted keys: the map's order)
    std::vector<std::vector<i128>> groups;
    for (const auto& [off, lanes] : offsets) {
      if (!groups.empty() && groups.back().back() + 1 == off) groups.back().push_back(off);
      else groups.push_back({off});
    }
    for (const std::vector<i128>& grp : groups) {
      // the index of the group's first element (all lanes with that offset are the same)
      UOp lidx = midx.src(offsets.at(grp[0])[0]);
      int len = static_cast<int>(grp.size());
      if (len > 1) lidx = lidx.cast(VecPtr(bp, len));
      for (int i = 0; i < len; ++i)
        for (int oo : offsets.at(grp[i])) idxs[oo] = global_offset + i;
      ret.push_back(lidx);
      global_offset += len;
    }
  }
  TG_CHECK(std::find(idxs.begin(), idxs.end(), -1) == idxs.end()) << "some idxs are missing";
  // a normal pointer of the base dtype (tinygrad: for images)
  DType cat_dt = bp.base().ptr(bp.size(), bp.addrspace()).vec(global_offset);
  return UOp::Make(Ops::PTRCAT, cat_dt, ret).gep(idxs);
}

// LOAD(GEP(p)) -> GEP(LOAD(p))
UOp GepAfterLoad(const Match& m) {
  const UOp &gep = m["gep"], &ld = m["ld"];
  std::vector<UOp> srcs(ld.src().begin(), ld.src().end());
  srcs[0] = gep.src(0);
  std::vector<int> lanes;
  for (const Arg& a : gep.arg().tuple()) lanes.push_back(static_cast<int>(a.int64()));
  return ld.replace_dtype(ld.dtype().scalar().vec(gep.dtype().count())).replace_src(srcs).gep(lanes);
}

// STORE(GEP(p), st) -> STORE(p, GEP(st)) with the inverse lane order
UOp GepOnStore(const Match& m) {
  const UOp &gep = m["gep"], &st = m["st"], &sto = m["sto"];
  // NOTE: an expanding gep has duplicates; the last lane that reads an element wins
  std::map<int64_t, int> a;
  int i = 0;
  for (const Arg& x : gep.arg().tuple()) a[x.int64()] = i++;
  std::vector<int> new_arg;
  for (const auto& [k, v] : a) new_arg.push_back(v);
  std::vector<UOp> srcs{gep.src(0), st.gep(new_arg)};
  for (size_t j = 2; j < sto.src().size(); ++j) srcs.push_back(sto.src(j));
  return sto.replace_src(srcs);
}

// LOAD(PTRCAT(p...)) -> CAT(LOAD(p)...)
UOp PtrcatAfterLoad(const Match& m) {
  const UOp &cat = m["cat"], &ld = m["ld"];
  std::vector<UOp> loads;
  for (const UOp& x : cat.src()) {
    std::vector<UOp> srcs(ld.src().begin(), ld.src().end());
    srcs[0] = x;
    loads.push_back(ld.replace_dtype(x.dtype().base()).replace_src(srcs));
  }
  return UOp::Make(Ops::CAT, cat.dtype().base().vec(cat.dtype().vcount()), loads);
}

// STORE(PTRCAT(p...), data) -> GROUP(STORE(p, lanes of data)...)
UOp CatAfterStore(const Match& m) {
  const UOp &cat = m["cat"], &data = m["data"], &sto = m["sto"];
  int offset = 0;
  std::vector<UOp> ret;
  for (const UOp& s : cat.src()) {
    int cnt = s.dtype().count();
    std::vector<UOp> srcs{s, data.gep(Iota(offset, offset + cnt))};
    for (size_t j = 2; j < sto.src().size(); ++j) srcs.push_back(sto.src(j));
    ret.push_back(UOp::Make(Ops::STORE, dtypes::void_, srcs));
    offset += cnt;
  }
  return Group(ret);
}

// ***** correct load/store *****

// A vector LOAD/STORE through a cast pointer, split into the widths the target supports.
UOp SplitLoadStore(const Match& m) {
  const LoadStoreTarget& target = m.ctx<const LoadStoreTarget>();
  const Renderer& ren = *target.ren;
  const UOp &ls = m["ls"], &idx = m["idx"];
  // if there's only one element to load/store, no splitting needed
  int sz = ls.src(0).dtype().count();
  if (sz == 1) return {};
  const UOp& buf = idx.src(0);
  DType bp = buf.dtype();

  // determine fold lengths
  std::vector<int> lengths;
  bool must_divide = true;
  DType base = bp.base();
  bool foldable = base == dtypes::float32 || base == dtypes::float16 ||
                  base == dtypes::fp8e4m3 || base == dtypes::fp8e5m2;
  if (ren.device == "DSP") {
    lengths = {128, 64, 32, 16, 8, 4};
    must_divide = false;
  } else if (!foldable || bp.addrspace() == AddrSpace::REG) {
    // scalars only
  } else if (target.simd_width > 0) {
    // the SIMD opt (ours): every power of two up to its width
    for (int w = target.simd_width; w >= 2; w /= 2) lengths.push_back(w);
  } else if (ren.supports_float4) {
    lengths = {4, 2};
  }
  lengths.push_back(1);  // worst case, it's not folded

  // filter fold lengths that don't divide
  UOp offset = GetIdx(idx.src(1)), mask = GetValid(idx.src(1));
  if (must_divide)
    std::erase_if(lengths, [&](int x) { return !Divides(offset, x); });

  // split based on the fold lengths
  int global_offset = 0;
  std::vector<UOp> ret;
  while (global_offset < sz) {
    // with 1 at the end of the lengths list, this will always hit
    for (int fold_length : lengths) {
      if (global_offset + fold_length > sz) continue;
      UOp lidx = buf.index(std::vector<UOp>{Valid(offset + global_offset, mask)}, true);
      if (fold_length > 1) lidx = lidx.cast(VecPtr(bp, fold_length));
      std::vector<UOp> srcs(ls.src().begin(), ls.src().end());
      srcs[0] = lidx;
      if (ls.op() == Ops::STORE) {
        srcs[1] = ls.src(1).gep(Iota(global_offset, global_offset + fold_length));
        ret.push_back(ls.replace_src(srcs));
      } else {
        ret.push_back(ls.replace_dtype(ls.dtype().scalar().vec(fold_length)).replace_src(srcs));
      }
      global_offset += fold_length;
      break;
    }
  }
  // if it wasn't split, we return None. otherwise we CAT them
  if (ret.size() <= 1) return {};
  return ls.op() == Ops::LOAD ? UOp::Make(Ops::CAT, ls.dtype(), ret) : Group(ret);
}

// ***** load_store_indexing *****

// INDEX(buf, where(valid, idx, Invalid)): idx simplified given valid.
UOp SimplifyValidLoad(const UOp& buf, const UOp& start_idx, const UOp& valid) {
  UOp idx = UOpGivenValid(valid, start_idx);
  if (idx == start_idx) return {};
  return buf.index(std::vector<UOp>{Valid(idx, valid)}, true);
}

}  // namespace

const PatternMatcher& LoadStoreFolding() {
  static const PatternMatcher* const kRules = new PatternMatcher({
      // INDEX(VECTORIZE(buf, buf, ...), vec) -> per-lane INDEXes
      Rule(UPat(Ops::INDEX).src({UPat(Ops::VECTORIZE).src_repeat(UPat::Any(
                                     {UPat(GroupOp::Defines).named("buf"),
                                      UPat(Ops::AFTER).src({UPat(GroupOp::Defines)}).allow_any_len().named("buf")})),
                                 UPat::Var("vec")}),
           ExpandIndex),
      Rule(UPat(Ops::VECTORIZE).src_repeat(UPat(Ops::INDEX)).named("midx"), FoldExpandedIndex),
      // GEP after LOAD
      Rule(UPat(Ops::LOAD).src({UPat(Ops::GEP).named("gep")}).allow_any_len().named("ld"),
           GepAfterLoad),
      // GEP on data of STORE
      Rule(UPat(Ops::STORE).src({UPat(Ops::GEP).named("gep"), UPat::Var("st")}).allow_any_len()
               .named("sto"),
           GepOnStore),
      // put PTRCAT after LOAD
      Rule(UPat(Ops::LOAD).src({UPat(Ops::PTRCAT).named("cat")}).allow_any_len().named("ld"),
           PtrcatAfterLoad),
      // put PTRCAT after STORE
      Rule(UPat(Ops::STORE).src({UPat(Ops::PTRCAT).named("cat"), UPat().named("data")})
               .allow_any_len().named("sto"),
           CatAfterStore),
  });
  return *kRules;
}

const PatternMatcher& CorrectLoadStore() {
  static const PatternMatcher* const kRules = new PatternMatcher({
      // split LOAD/STORE
      Rule(UPat(OpSet{Ops::LOAD, Ops::STORE}).src({UPat(Ops::INDEX).named("idx").cast()})
               .allow_any_len().named("ls"),
           SplitLoadStore),
  });
  return *kRules;
}

const PatternMatcher& LoadStoreIndexing() {
  static const PatternMatcher* const kRules = new PatternMatcher({
      // valid idx simplification
      Rule(UPat(Ops::INDEX).src({UPat::Var("buf"),
                                 UPat::Var("cond").where(UPat::Var("x"),
                                     UPat(Ops::CONST).arg(Arg(ConstValue::Invalid())).named("i"))}),
           [](const Match& m) { return SimplifyValidLoad(m["buf"], m["x"], m["cond"]); }),
      // simplify away long after index has been lowered
      Rule(UPat(Ops::INDEX).src({UPat::Var("buf"), UPat::Var("x", {dtypes::int64}),
                                 UPat::Var("c", {dtypes::bool_})}),
           [](const Match& m) { return SimplifyValidLoad(m["buf"], m["x"], m["c"]); }),
      // drop true gate
      Rule(UPat(Ops::INDEX).src({UPat::Var("buf"), UPat::Var("x"), UPat::Const(dtypes::bool_, true)}),
           [](const Match& m) { return m["buf"].index(std::vector<UOp>{m["x"]}, true); }),
  });
  return *kRules;
}

}  // namespace tg
