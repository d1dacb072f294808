// File: tinygrad/codegen/py_sort.h
// CPython 3.11's list.sort (timsort with the powersort merge policy), so that a sort whose
// order is not a strict weak ordering lands exactly where Python's does.
//
// tinygrad's linearizer sorts nodes by (run_count, priority, extra) + tuplize, and tuplize
// compares dtypes with DType.__lt__, under which pointers that differ only in size or address
// space are unordered (neither is less, yet they are not equal). With such keys the result
// depends on which pairs the algorithm compares, so std::stable_sort and Python disagree; this
// port compares the same pairs in the same order. It uses only `less`, and is stable.
//
// Example:
//   std::vector<int> v = {3, 1, 2};
//   PySort(v, [](int a, int b) { return a < b; });   // {1, 2, 3}
//
// A template (the element type is the caller's); the algorithm follows CPython's
// Objects/listobject.c and Objects/listsort.txt.
#ifndef TINYGRAD_CODEGEN_PY_SORT_H_
#define TINYGRAD_CODEGEN_PY_SORT_H_

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tg {
namespace py_sort_internal {

constexpr std::ptrdiff_t kMinGallop = 7;

template <typename T, typename Less>
class TimSort {
 public:
  TimSort(std::vector<T>& v, Less less) : v_(v), less_(less), n_(static_cast<std::ptrdiff_t>(v.size())) {}

  void Run() {
    if (n_ < 2) return;
    std::ptrdiff_t lo = 0, remaining = n_;
    std::ptrdiff_t minrun = MinRun(remaining);
    do {
      bool descending = false;
      std::ptrdiff_t n = CountRun(lo, lo + remaining, &descending);
      if (descending) std::reverse(v_.begin() + lo, v_.begin() + lo + n);
      // short runs are extended to min(minrun, remaining) by binary insertion
      if (n < minrun) {
        std::ptrdiff_t force = remaining <= minrun ? remaining : minrun;
        BinarySort(lo, lo + force, lo + n);
        n = force;
      }
      FoundNewRun(n);
      pending_.push_back(Run_{lo, n, 0});
      lo += n;
      remaining -= n;
    } while (remaining > 0);
    // merge_force_collapse
    while (pending_.size() > 1) {
      std::ptrdiff_t i = static_cast<std::ptrdiff_t>(pending_.size()) - 2;
      if (i > 0 && pending_[i - 1].len < pending_[i + 1].len) --i;
      MergeAt(i);
    }
  }

 private:
  struct Run_ {
    std::ptrdiff_t base, len;
    int power;
  };

  bool Lt(const T& a, const T& b) { return less_(a, b); }

  static std::ptrdiff_t MinRun(std::ptrdiff_t n) {
    std::ptrdiff_t r = 0;
    while (n >= 64) {
      r |= n & 1;
      n >>= 1;
    }
    return n + r;
  }

  // The length of the run starting at lo; strictly descending runs are reported as such.
  std::ptrdiff_t CountRun(std::ptrdiff_t lo, std::ptrdiff_t hi, bool* descending) {
    *descending = false;
    if (lo + 1 == hi) return 1;
    std::ptrdiff_t n = 2, i = lo + 1;
    if (Lt(v_[i], v_[i - 1])) {
      *descending = true;
      for (++i; i < hi; ++i, ++n)
        if (!Lt(v_[i], v_[i - 1])) break;
    } else {
      for (++i; i < hi; ++i, ++n)
        if (Lt(v_[i], v_[i - 1])) break;
    }
    return n;
  }

  // [lo, start) is sorted; inserts [start, hi) one at a time with a binary search.
  void BinarySort(std::ptrdiff_t lo, std::ptrdiff_t hi, std::ptrdiff_t start) {
    if (lo == start) ++start;
    for (; start < hi; ++start) {
      T pivot = v_[start];
      std::ptrdiff_t l = lo, r = start;
      while (l < r) {
        std::ptrdiff_t p = l + ((r - l) >> 1);
        if (Lt(pivot, v_[p])) {
          r = p;
        } else {
          l = p + 1;
        }
      }
      for (std::ptrdiff_t p = start; p > l; --p) v_[p] = v_[p - 1];
      v_[l] = pivot;
    }
  }

  // powerloop: the node power of the boundary between runs [s1, s1+n1) and [s1+n1, +n2).
  int PowerLoop(std::ptrdiff_t s1, std::ptrdiff_t n1, std::ptrdiff_t n2) const {
    int result = 0;
    std::ptrdiff_t a = 2 * s1 + n1, b = a + n1 + n2;
    for (;;) {
      ++result;
      if (a >= n_) {
        a -= n_;
        b -= n_;
      } else if (b >= n_) {
        break;
      }
      a <<= 1;
      b <<= 1;
    }
    return result;
  }

  void FoundNewRun(std::ptrdiff_t n2) {
    if (pending_.empty()) return;
    const Run_& last = pending_.back();
    int power = PowerLoop(last.base, last.len, n2);
    while (pending_.size() > 1 && pending_[pending_.size() - 2].power > power)
      MergeAt(static_cast<std::ptrdiff_t>(pending_.size()) - 2);
    pending_.back().power = power;
  }

  // Where key goes in sorted a[0, n): the leftmost position (gallop_left), starting at hint.
  std::ptrdiff_t GallopLeft(const T& key, std::ptrdiff_t a, std::ptrdiff_t n, std::ptrdiff_t hint) {
    std::ptrdiff_t lastofs = 0, ofs = 1;
    if (Lt(v_[a + hint], key)) {
      std::ptrdiff_t maxofs = n - hint;
      while (ofs < maxofs) {
        if (Lt(v_[a + hint + ofs], key)) {
          lastofs = ofs;
          ofs = (ofs << 1) + 1;
        } else {
          break;
        }
      }
      if (ofs > maxofs) ofs = maxofs;
      lastofs += hint;
      ofs += hint;
    } else {
      std::ptrdiff_t maxofs = hint + 1;
      while (ofs < maxofs) {
        if (Lt(v_[a + hint - ofs], key)) break;
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      std::ptrdiff_t k = lastofs;
      lastofs = hint - ofs;
      ofs = hint - k;
    }
    ++lastofs;
    while (lastofs < ofs) {
      std::ptrdiff_t m = lastofs + ((ofs - lastofs) >> 1);
      if (Lt(v_[a + m], key)) {
        lastofs = m + 1;
      } else {
        ofs = m;
      }
    }
    return ofs;
  }

  // The rightmost position for key in sorted a[0, n) (gallop_right), starting at hint.
  std::ptrdiff_t GallopRight(const T& key, const T* a, std::ptrdiff_t n, std::ptrdiff_t hint) {
    std::ptrdiff_t lastofs = 0, ofs = 1;
    if (Lt(key, a[hint])) {
      std::ptrdiff_t maxofs = hint + 1;
      while (ofs < maxofs) {
        if (Lt(key, a[hint - ofs])) {
          lastofs = ofs;
          ofs = (ofs << 1) + 1;
        } else {
          break;
        }
      }
      if (ofs > maxofs) ofs = maxofs;
      std::ptrdiff_t k = lastofs;
      lastofs = hint - ofs;
      ofs = hint - k;
    } else {
      std::ptrdiff_t maxofs = n - hint;
      while (ofs < maxofs) {
        if (Lt(key, a[hint + ofs])) break;
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      lastofs += hint;
      ofs += hint;
    }
    ++lastofs;
    while (lastofs < ofs) {
      std::ptrdiff_t m = lastofs + ((ofs - lastofs) >> 1);
      if (Lt(key, a[m])) {
        ofs = m;
      } else {
        lastofs = m + 1;
      }
    }
    return ofs;
  }

  std::ptrdiff_t GallopLeftIn(const T& key, const T* a, std::ptrdiff_t n, std::ptrdiff_t hint) {
    // gallop_left over an arbitrary array (the temp copy in merge_hi)
    std::ptrdiff_t lastofs = 0, ofs = 1;
    if (Lt(a[hint], key)) {
      std::ptrdiff_t maxofs = n - hint;
      while (ofs < maxofs) {
        if (Lt(a[hint + ofs], key)) {
          lastofs = ofs;
          ofs = (ofs << 1) + 1;
        } else {
          break;
        }
      }
      if (ofs > maxofs) ofs = maxofs;
      lastofs += hint;
      ofs += hint;
    } else {
      std::ptrdiff_t maxofs = hint + 1;
      while (ofs < maxofs) {
        if (Lt(a[hint - ofs], key)) break;
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      std::ptrdiff_t k = lastofs;
      lastofs = hint - ofs;
      ofs = hint - k;
    }
    ++lastofs;
    while (lastofs < ofs) {
      std::ptrdiff_t m = lastofs + ((ofs - lastofs) >> 1);
      if (Lt(a[m], key)) {
        lastofs = m + 1;
      } else {
        ofs = m;
      }
    }
    return ofs;
  }

  void MergeAt(std::ptrdiff_t i) {
    std::ptrdiff_t sa = pending_[i].base, na = pending_[i].len;
    std::ptrdiff_t sb = pending_[i + 1].base, nb = pending_[i + 1].len;
    pending_[i].len = na + nb;
    if (i == static_cast<std::ptrdiff_t>(pending_.size()) - 3) pending_[i + 1] = pending_[i + 2];
    pending_.pop_back();
    // elements of a before where b[0] goes are already in place
    std::ptrdiff_t k = GallopRight(v_[sb], v_.data() + sa, na, 0);
    sa += k;
    na -= k;
    if (na == 0) return;
    // elements of b after where a's last goes are already in place
    nb = GallopLeft(v_[sa + na - 1], sb, nb, nb - 1);
    if (nb <= 0) return;
    if (na <= nb) {
      MergeLo(sa, na, sb, nb);
    } else {
      MergeHi(sa, na, sb, nb);
    }
  }

  void MergeLo(std::ptrdiff_t sa, std::ptrdiff_t na, std::ptrdiff_t sb, std::ptrdiff_t nb) {
    std::vector<T> tmp(v_.begin() + sa, v_.begin() + sa + na);
    std::ptrdiff_t dest = sa, pa = 0, pb = sb;
    v_[dest++] = v_[pb++];
    --nb;
    auto succeed = [&]() {
      for (std::ptrdiff_t i = 0; i < na; ++i) v_[dest + i] = tmp[pa + i];
    };
    auto copy_b = [&]() {
      for (std::ptrdiff_t i = 0; i < nb; ++i) v_[dest + i] = v_[pb + i];
      v_[dest + nb] = tmp[pa];
    };
    if (nb == 0) return succeed();
    if (na == 1) return copy_b();
    std::ptrdiff_t min_gallop = min_gallop_;
    for (;;) {
      std::ptrdiff_t acount = 0, bcount = 0;
      for (;;) {
        if (Lt(v_[pb], tmp[pa])) {
          v_[dest++] = v_[pb++];
          ++bcount;
          acount = 0;
          if (--nb == 0) return succeed();
          if (bcount >= min_gallop) break;
        } else {
          v_[dest++] = tmp[pa++];
          ++acount;
          bcount = 0;
          if (--na == 1) return copy_b();
          if (acount >= min_gallop) break;
        }
      }
      ++min_gallop;
      do {
        min_gallop -= min_gallop > 1;
        min_gallop_ = min_gallop;
        std::ptrdiff_t k = GallopRight(v_[pb], tmp.data() + pa, na, 0);
        acount = k;
        if (k) {
          for (std::ptrdiff_t i = 0; i < k; ++i) v_[dest + i] = tmp[pa + i];
          dest += k;
          pa += k;
          na -= k;
          if (na == 1) return copy_b();
          if (na == 0) return succeed();
        }
        v_[dest++] = v_[pb++];
        if (--nb == 0) return succeed();
        k = GallopLeft(tmp[pa], pb, nb, 0);
        bcount = k;
        if (k) {
          for (std::ptrdiff_t i = 0; i < k; ++i) v_[dest + i] = v_[pb + i];
          dest += k;
          pb += k;
          nb -= k;
          if (nb == 0) return succeed();
        }
        v_[dest++] = tmp[pa++];
        if (--na == 1) return copy_b();
      } while (acount >= kMinGallop || bcount >= kMinGallop);
      ++min_gallop;  // penalize leaving galloping mode
      min_gallop_ = min_gallop;
    }
  }

  void MergeHi(std::ptrdiff_t sa, std::ptrdiff_t na, std::ptrdiff_t sb, std::ptrdiff_t nb) {
    std::vector<T> tmp(v_.begin() + sb, v_.begin() + sb + nb);
    std::ptrdiff_t dest = sb + nb - 1, pa = sa + na - 1, pb = nb - 1;
    const std::ptrdiff_t basea = sa;
    v_[dest--] = v_[pa--];
    --na;
    auto succeed = [&]() {
      for (std::ptrdiff_t i = 0; i < nb; ++i) v_[dest - (nb - 1) + i] = tmp[i];
    };
    auto copy_a = [&]() {
      dest -= na;
      pa -= na;
      for (std::ptrdiff_t i = na; i >= 1; --i) v_[dest + i] = v_[pa + i];
      v_[dest] = tmp[pb];
    };
    if (na == 0) return succeed();
    if (nb == 1) return copy_a();
    std::ptrdiff_t min_gallop = min_gallop_;
    for (;;) {
      std::ptrdiff_t acount = 0, bcount = 0;
      for (;;) {
        if (Lt(tmp[pb], v_[pa])) {
          v_[dest--] = v_[pa--];
          ++acount;
          bcount = 0;
          if (--na == 0) return succeed();
          if (acount >= min_gallop) break;
        } else {
          v_[dest--] = tmp[pb--];
          ++bcount;
          acount = 0;
          if (--nb == 1) return copy_a();
          if (bcount >= min_gallop) break;
        }
      }
      ++min_gallop;
      do {
        min_gallop -= min_gallop > 1;
        min_gallop_ = min_gallop;
        std::ptrdiff_t k = GallopRight(tmp[pb], v_.data() + basea, na, na - 1);
        k = na - k;
        acount = k;
        if (k) {
          dest -= k;
          pa -= k;
          for (std::ptrdiff_t i = k; i >= 1; --i) v_[dest + i] = v_[pa + i];
          na -= k;
          if (na == 0) return succeed();
        }
        v_[dest--] = tmp[pb--];
        if (--nb == 1) return copy_a();
        k = GallopLeftIn(v_[pa], tmp.data(), nb, nb - 1);
        k = nb - k;
        bcount = k;
        if (k) {
          dest -= k;
          pb -= k;
          for (std::ptrdiff_t i = 1; i <= k; ++i) v_[dest + i] = tmp[pb + i];
          nb -= k;
          if (nb == 1) return copy_a();
          if (nb == 0) return succeed();
        }
        v_[dest--] = v_[pa--];
        if (--na == 0) return succeed();
      } while (acount >= kMinGallop || bcount >= kMinGallop);
      ++min_gallop;
      min_gallop_ = min_gallop;
    }
  }

  std::vector<T>& v_;
  Less less_;
  std::ptrdiff_t n_;
  std::ptrdiff_t min_gallop_ = kMinGallop;
  std::vector<Run_> pending_;
};

}  // namespace py_sort_internal

// Sorts `v` in place exactly as CPython 3.11's sorted(v, key) / list.sort with `less` as the
// key comparison.
template <typename T, typename Less>
void PySort(std::vector<T>& v, Less less) {
  py_sort_internal::TimSort<T, Less>(v, less).Run();
}

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_PY_SORT_H_
