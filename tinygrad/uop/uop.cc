// Port of tinygrad/uop/ops.py: UOpMetaClass (interning), UOp helpers and pretty_print.
#include "tinygrad/uop/uop.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/uop/min_max.h"
#include "tinygrad/uop/shape.h"

namespace tg {

using uop_internal::Node;

// The intern table's shard lock. The critical sections are a few hash-set probes, far shorter
// than a futex sleep and wake-up, and BEAM lowers candidates on many threads at once (a thread
// per core), so a lock spins a little before it sleeps:
// - std::mutex sleeps at the first contended try: two lowering threads slept up to 4 ms per
//   tensor-core candidate (of 12 ms of CPU) in futex waits on shard locks
//   (autotune/measure:tc_lower_benchmark --threads=2).
// - absl::Mutex spins first, but where Abseil is built without NDEBUG (Debian's packages are)
//   every Lock also runs its deadlock detector under one process-wide spin lock, on one shared
//   graph: every interning thread of the process meets there, however many shards there are
//   (12% of a lowering's CPU on one thread; autotune/search:gpu_lower_benchmark --threads=2).
// - std::mutex tried with try_lock for the same while first: its waiters then sleep at once,
//   38-103 ms asleep per lowering on 8 threads of 2 vCPUs against 8-11 ms for the lock below
//   (gpu_lower_benchmark --threads=8 --n=1024, alternating runs), where C++20's atomic wait
//   spins and yields before it sleeps.
// So: a futex mutex (Drepper's "Futexes Are Tricky", mutex 3, on C++20 atomic wait) that first
// spins on a plain load, which stays in the spinning core's cache until the holder's release.
class ShardLock {
 public:
  void lock() {
    for (int i = 0; i < kSpins; ++i) {
      int free = 0;
      if (state_.load(std::memory_order_relaxed) == 0 &&
          state_.compare_exchange_weak(free, 1, std::memory_order_acquire, std::memory_order_relaxed))
        return;
      CpuRelax();
    }
    // contended: mark it so (2), sleep until a release, take it marked (others may still wait)
    int c = state_.exchange(2, std::memory_order_acquire);
    while (c != 0) {
      state_.wait(2, std::memory_order_relaxed);
      c = state_.exchange(2, std::memory_order_acquire);
    }
  }
  void unlock() {
    if (state_.exchange(0, std::memory_order_release) == 2) state_.notify_one();
  }

 private:
  // About a microsecond: a few times the longest critical section.
  static constexpr int kSpins = 200;
  static void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  std::atomic<int> state_{0};  // 0: free, 1: held, 2: held and someone may be asleep on it
};

// The weak intern table: nodes are found by structure, owned by their handles. A node whose
// count reached zero may still sit in the table until its releasing thread removes it; a
// lookup never revives such a node (it only increments counts that are above zero) but
// replaces it with a fresh one.
class Interner {
 public:
  static Interner& Get() {
    static Interner* const kInstance = new Interner();  // never destroyed: handles may outlive main
    return *kInstance;
  }

  UOp Intern(Ops op, DType dtype, std::span<const UOp> src, Arg&& arg, Arg&& tag) {
    for (const UOp& s : src) TG_CHECK(s) << "null source building a UOp of " << op;
    Key k{op, dtype, src, &arg, &tag, KeyOf(op, dtype, src, arg)};
    Shard& shard = shards_[k.hash % kNumShards];
    {
      std::lock_guard<ShardLock> lock(shard.mu);
      if (UOp hit = Lookup(shard, k)) return hit;
    }
    // Built outside the lock: a symbolic shape may intern other nodes (maybe in this shard).
    UOp fresh(NewNode(op, dtype, src, std::move(arg), std::move(tag), k.hash));
    const Node* n = fresh.node_;
    std::lock_guard<ShardLock> lock(shard.mu);
    Key nk{n->op, n->dtype, {n->src(), n->num_src}, &n->arg, &n->tag, k.hash};
    // Another thread may have won the race; then `fresh` is dropped after the lock is released
    // (its release takes this shard's lock).
    if (UOp hit = Lookup(shard, nk)) return hit;
    shard.set.insert(n);
    return fresh;
  }

  // Called when a node's count reached zero. Iterative: dropping a 100k-deep chain must not
  // recurse 100k frames.
  void Release(const Node* n) {
    thread_local std::vector<const Node*> pending;
    thread_local bool draining = false;
    pending.push_back(n);
    if (draining) return;
    draining = true;
    while (!pending.empty()) {
      const Node* d = pending.back();
      pending.pop_back();
      {
        Shard& shard = shards_[d->key % kNumShards];
        std::lock_guard<ShardLock> lock(shard.mu);
        if (auto it = shard.set.find(d); it != shard.set.end() && *it == d) shard.set.erase(it);
      }
      UOp* srcs = const_cast<UOp*>(d->src());
      for (uint32_t i = 0; i < d->num_src; ++i) {
        const Node* c = srcs[i].node_;
        srcs[i].node_ = nullptr;  // its reference moves to us
        if (c->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) pending.push_back(c);
      }
      delete d->tensor_info;  // may release shape dims: they join `pending`
      delete d->ranges_memo.load(std::memory_order_acquire);
      d->~Node();
      ::operator delete(const_cast<Node*>(d), std::align_val_t(alignof(Node)));
    }
    draining = false;
  }

  size_t LiveCount() {
    size_t total = 0;
    for (Shard& s : shards_) {
      std::lock_guard<ShardLock> lock(s.mu);
      total += s.set.size();
    }
    return total;
  }

 private:
  // Many shards: threads building different nodes rarely meet on one.
  static constexpr size_t kNumShards = 256;
  // A cache line, so that threads on neighbouring shards do not invalidate each other's lock.
  static constexpr size_t kCacheLine = 64;

  struct Key {
    Ops op;
    DType dtype;
    std::span<const UOp> src;
    const Arg* arg;
    const Arg* tag;
    uint64_t hash;
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(const Node* n) const { return n->key; }
    size_t operator()(const Key& k) const { return k.hash; }
  };
  struct Eq {
    using is_transparent = void;
    static bool Same(const Node* n, Ops op, DType dtype, std::span<const UOp> src, const Arg& arg,
                     const Arg& tag) {
      if (n->op != op || n->dtype != dtype || n->num_src != src.size()) return false;
      for (size_t i = 0; i < src.size(); ++i)
        if (n->src()[i] != src[i]) return false;
      return n->arg == arg && n->tag == tag;
    }
    bool operator()(const Node* a, const Node* b) const {
      return a == b || Same(a, b->op, b->dtype, {b->src(), b->num_src}, b->arg, b->tag);
    }
    bool operator()(const Node* a, const Key& k) const {
      return Same(a, k.op, k.dtype, k.src, *k.arg, *k.tag);
    }
    bool operator()(const Key& k, const Node* a) const { return (*this)(a, k); }
  };
  struct alignas(kCacheLine) Shard {
    ShardLock mu;
    absl::flat_hash_set<const Node*, Hash, Eq> set;
  };

  // A live entry equal to `k`, with a new reference; erases a dying one.
  static UOp Lookup(Shard& shard, const Key& k) {
    auto it = shard.set.find(k);
    if (it == shard.set.end()) return {};
    const Node* n = *it;
    int32_t r = n->refs.load(std::memory_order_relaxed);
    while (r > 0) {
      if (n->refs.compare_exchange_weak(r, r + 1, std::memory_order_acq_rel)) return UOp(n);
    }
    shard.set.erase(it);  // dying: its releaser will see it is no longer the entry
    return {};
  }

  // tinygrad's UOp.key: op, dtype, arg and the children's keys; not the tag.
  static uint64_t KeyOf(Ops op, DType dtype, std::span<const UOp> src, const Arg& arg) {
    static const auto* const kOpHashes = [] {
      auto* t = new std::array<uint64_t, kNumOps>();
      for (int i = 0; i < kNumOps; ++i)
        (*t)[i] = StableHasher().AddBytes(OpName(static_cast<Ops>(i))).Finish();
      return t;
    }();
    StableHasher h;
    h.Add((*kOpHashes)[static_cast<int>(op)]).Add(dtype.StableHash()).Add(arg.StableHash());
    h.Add(src.size());
    for (const UOp& s : src) h.Add(s.key());
    return h.Finish();
  }

  static const Node* NewNode(Ops op, DType dtype, std::span<const UOp> src, Arg&& arg, Arg&& tag,
                             uint64_t key) {
    void* mem =
        ::operator new(sizeof(Node) + src.size() * sizeof(UOp), std::align_val_t(alignof(Node)));
    auto [vmin, vmax] = uop_internal::ComputeMinMax(op, dtype, src, arg);
    OpSet src_ops;
    for (const UOp& s : src) src_ops.Add(s.op());
    const uop_internal::TensorInfo* tinfo = uop_internal::ComputeTensorInfo(op, dtype, src, arg);
    Node* n = new (mem) Node{{1},
                             op,
                             static_cast<uint32_t>(src.size()),
                             dtype,
                             key,
                             src_ops,
                             std::move(arg),
                             std::move(tag),
                             vmin,
                             vmax,
                             tinfo};
    UOp* out = const_cast<UOp*>(n->src());
    for (size_t i = 0; i < src.size(); ++i) new (&out[i]) UOp(src[i]);
    return n;
  }

  std::array<Shard, kNumShards> shards_;
};

namespace uop_internal {
void ReleaseNode(const Node* n) { Interner::Get().Release(n); }
}  // namespace uop_internal

size_t LiveUOpCount() { return Interner::Get().LiveCount(); }

UOp UOp::Make(Ops op, DType dtype, std::span<const UOp> src, Arg arg, Arg tag) {
  return Interner::Get().Intern(op, dtype, src, std::move(arg), std::move(tag));
}

const UOp& UOp::src(size_t i) const {
  TG_CHECK(i < node_->num_src) << "src(" << i << ") of " << op() << " with " << node_->num_src
                               << " sources";
  return node_->src()[i];
}

// ** replace **

UOp UOp::replace_src(std::span<const UOp> s) const {
  if (std::equal(s.begin(), s.end(), src().begin(), src().end())) return *this;
  return Make(op(), dtype(), s, arg(), tag());
}
UOp UOp::replace_arg(Arg a) const {
  return a == arg() ? *this : Make(op(), dtype(), src(), std::move(a), tag());
}
UOp UOp::replace_dtype(DType d) const {
  return d == dtype() ? *this : Make(op(), d, src(), arg(), tag());
}
UOp UOp::replace_tag(Arg t) const {
  return t == tag() ? *this : Make(op(), dtype(), src(), arg(), std::move(t));
}
UOp UOp::replace_op(Ops o) const {
  return o == op() ? *this : Make(o, dtype(), src(), arg(), tag());
}

// ** constructors **

UOp UOp::Const(DType dtype, ConstValue v) {
  return Make(Ops::CONST, dtype, {}, Arg(v.is_invalid() ? v : dtypes::as_const(v, dtype)));
}

UOp UOp::VConst(DType dtype, std::span<const ConstValue> lanes) {
  TG_CHECK(!lanes.empty()) << "can't create const from empty tuple";
  bool all_same = true;
  for (const ConstValue& l : lanes) all_same &= (l == lanes[0]);
  if (all_same) return Const(dtype, lanes[0]);
  std::vector<Arg> items;
  for (const ConstValue& l : lanes)
    items.emplace_back(l.is_invalid() ? l : dtypes::as_const(l, dtype));
  return Make(Ops::VCONST, dtype, {}, Arg::Tuple(std::move(items)));
}

UOp UOp::Variable(std::string name, ConstValue min, ConstValue max, DType dtype) {
  return Make(Ops::DEFINE_VAR, dtype, {}, Arg::Tuple({Arg(std::move(name)), min, max}));
}

UOp UOp::Range(UOp end, int64_t axis_id, AxisType type) {
  return Make(Ops::RANGE, end.dtype(), {end}, Arg::Tuple({axis_id, type}));
}
UOp UOp::Range(int64_t end, int64_t axis_id, AxisType type) {
  return Range(Const(dtypes::index, end), axis_id, type);
}
UOp UOp::Special(UOp end, std::string name) {
  return Make(Ops::SPECIAL, end.dtype(), {end}, Arg(std::move(name)));
}
UOp UOp::Sink(std::span<const UOp> srcs) {
  std::vector<UOp> kept;
  for (const UOp& s : srcs)
    if (s) kept.push_back(s);
  return Make(Ops::SINK, dtypes::void_, kept);
}
UOp UOp::Invalid(int count) {
  return Make(Ops::CONST, dtypes::index.vec(count), {}, Arg(ConstValue::Invalid()));
}

// ** sugar **

UOp UOp::const_like(ConstValue v) const { return Const(dtype(), v); }

UOp UOp::alu(Ops o, std::initializer_list<UOp> rest) const {
  std::vector<UOp> srcs{*this};
  srcs.insert(srcs.end(), rest.begin(), rest.end());
  DType out = srcs.back().dtype();
  if (GroupOp::Comparison.contains(o))
    out = out.count() > 1 ? dtypes::bool_.vec(out.count()) : dtypes::bool_;
  return Make(o, out, srcs);
}

UOp UOp::cast(DType d) const {
  if (d.count() == 1 && d.count() != dtype().count()) d = d.vec(dtype().count());
  return d == dtype() ? *this : Make(Ops::CAST, d, {*this});
}
UOp UOp::bitcast(DType d) const { return Make(Ops::BITCAST, d, {*this}); }

UOp UOp::gep(int i) const {
  // Shortcuts that tinygrad takes instead of folding later.
  if (op() == Ops::VECTORIZE) return src(i);
  if (op() == Ops::VCONST) return Const(dtype().scalar(), arg()[i].number());
  if (op() == Ops::CONST) return Const(dtype().scalar(), arg().number());
  return Make(Ops::GEP, dtype().scalar(), {*this}, Arg::Tuple({i}));
}
UOp UOp::gep(std::span<const int> lanes) const {
  if (lanes.size() == 1) return gep(lanes[0]);
  std::vector<Arg> items(lanes.begin(), lanes.end());
  return Make(Ops::GEP, dtype().scalar().vec(static_cast<int>(lanes.size())), {*this},
              Arg::Tuple(std::move(items)));
}
UOp UOp::broadcast(int count) const {
  TG_CHECK(dtype().vcount() == 1) << "broadcast of a vector " << dtype();
  if (count == 1) return *this;
  std::vector<UOp> srcs(count, *this);
  return Make(Ops::VECTORIZE, dtype().vec(count), srcs);
}
UOp UOp::vectorize(std::span<const UOp> rest) const {
  std::vector<UOp> srcs{*this};
  srcs.insert(srcs.end(), rest.begin(), rest.end());
  return Make(Ops::VECTORIZE, dtype().vec(static_cast<int>(srcs.size())), srcs);
}
UOp UOp::index(std::span<const UOp> idx, bool ptr) const {
  std::vector<UOp> srcs{*this};
  for (const UOp& i : idx)
    if (i) srcs.push_back(i);
  return Make(Ops::INDEX, ptr ? dtype() : dtype().base(), srcs);
}
UOp UOp::load(std::span<const UOp> rest) const {
  std::vector<UOp> srcs{*this};
  srcs.insert(srcs.end(), rest.begin(), rest.end());
  return Make(Ops::LOAD, dtype().base(), srcs);
}
UOp UOp::store(UOp value) const { return Make(Ops::STORE, dtypes::void_, {*this, value}); }
UOp UOp::bind(int64_t value) const {
  TG_CHECK(op() == Ops::DEFINE_VAR) << "bind of " << op() << ", expected a DEFINE_VAR";
  return Make(Ops::BIND, dtype(), {*this, const_like(value)});
}
UOp UOp::where(UOp t, UOp f) const { return alu(Ops::WHERE, {t, f}); }
UOp UOp::logical_not() const { return ne(ConstValue(true)); }
UOp UOp::neg() const {
  return dtype().scalar() == dtypes::bool_ ? logical_not() : *this * ConstValue(-1);
}
UOp UOp::idiv(const UOp& x) const { return alu(Ops::IDIV, {x}); }
UOp UOp::maximum(const UOp& x) const { return alu(Ops::MAX, {x}); }
UOp UOp::minimum(const UOp& x) const { return -((-*this).maximum(-x)); }
UOp UOp::lt(const UOp& x) const { return alu(Ops::CMPLT, {x}); }
UOp UOp::gt(const UOp& x) const { return x.alu(Ops::CMPLT, {*this}); }
UOp UOp::ne(const UOp& x) const { return alu(Ops::CMPNE, {x}); }

// ** operators: tinygrad's _binop, with ufix turning numbers into consts of the UOp's dtype **

UOp operator+(const UOp& a, const UOp& b) { return a.alu(Ops::ADD, {b}); }
UOp operator+(const UOp& a, ConstValue b) { return a + a.const_like(b); }
UOp operator+(ConstValue a, const UOp& b) { return b.const_like(a) + b; }
UOp operator-(const UOp& a, const UOp& b) { return a + (-b); }
UOp operator-(const UOp& a, ConstValue b) { return a + a.const_like(-b); }
UOp operator-(ConstValue a, const UOp& b) { return b.const_like(a) + (-b); }
UOp operator*(const UOp& a, const UOp& b) { return a.alu(Ops::MUL, {b}); }
UOp operator*(const UOp& a, ConstValue b) { return a * a.const_like(b); }
UOp operator*(ConstValue a, const UOp& b) { return b.const_like(a) * b; }
UOp operator/(const UOp& a, const UOp& b) { return a * b.reciprocal(); }
UOp operator/(const UOp& a, ConstValue b) { return a * a.const_like(b).reciprocal(); }
UOp operator/(ConstValue a, const UOp& b) { return b.const_like(a) * b.reciprocal(); }
UOp operator%(const UOp& a, const UOp& b) { return a.alu(Ops::MOD, {b}); }
UOp operator%(const UOp& a, ConstValue b) { return a % a.const_like(b); }
UOp operator%(ConstValue a, const UOp& b) { return b.const_like(a) % b; }
UOp operator&(const UOp& a, const UOp& b) { return a.alu(Ops::AND, {b}); }
UOp operator&(const UOp& a, ConstValue b) { return a & a.const_like(b); }
UOp operator|(const UOp& a, const UOp& b) { return a.alu(Ops::OR, {b}); }
UOp operator|(const UOp& a, ConstValue b) { return a | a.const_like(b); }
UOp operator^(const UOp& a, const UOp& b) { return a.alu(Ops::XOR, {b}); }
UOp operator^(const UOp& a, ConstValue b) { return a ^ a.const_like(b); }
UOp operator<<(const UOp& a, const UOp& b) { return a.alu(Ops::SHL, {b}); }
UOp operator<<(const UOp& a, ConstValue b) { return a << a.const_like(b); }
UOp operator>>(const UOp& a, const UOp& b) { return a.alu(Ops::SHR, {b}); }
UOp operator>>(const UOp& a, ConstValue b) { return a >> a.const_like(b); }
UOp operator-(const UOp& a) { return a.neg(); }

// ** graph walks **

std::vector<UOp> UOp::toposort() const {
  std::vector<UOp> order;
  absl::flat_hash_set<const void*> done;
  std::vector<std::pair<const UOp*, bool>> stack{{this, false}};
  while (!stack.empty()) {
    auto [u, visited] = stack.back();
    stack.pop_back();
    if (done.contains(u->id())) continue;
    if (visited) {
      done.insert(u->id());
      order.push_back(*u);
      continue;
    }
    stack.push_back({u, true});
    std::span<const UOp> s = u->src();
    for (auto it = s.rbegin(); it != s.rend(); ++it) stack.push_back({&*it, false});
  }
  return order;
}

std::vector<UOp> UOp::backward_slice() const {
  std::vector<UOp> order = toposort();
  order.pop_back();  // the root is always last
  return order;
}

// ** printing **

namespace {
std::string ArgStr(const UOp& u) {
  if (u.op() == Ops::REDUCE_AXIS && u.arg().is_tuple()) {
    std::string out = "(";
    for (size_t i = 0; i < u.arg().size(); ++i) out += (i ? ", " : "") + u.arg()[i].repr();
    return out + ")";
  }
  return u.arg().repr();
}
}  // namespace

std::string PrettyPrint(const UOp& root) {
  // Pass 1: number nodes in tinygrad's pre-order (a child is numbered when first reached, then
  // walked before its siblings) and count their uses. The root gets a number only at the end.
  struct Info {
    int id = 0;
    int uses = 0;
    bool printed = false;
  };
  absl::flat_hash_map<const void*, Info> info;
  std::vector<std::pair<UOp, size_t>> walk{{root, 0}};
  int next_id = 0;
  while (!walk.empty()) {
    auto& [u, i] = walk.back();
    if (i == u.src().size()) {
      walk.pop_back();
      continue;
    }
    const UOp& child = u.src()[i++];
    auto [entry, inserted] = info.try_emplace(child.id(), Info{next_id, 0, false});
    if (inserted) ++next_id;
    if (++entry->second.uses == 1) walk.push_back({child, 0});
  }
  info.try_emplace(root.id(), Info{0, 0, false});
  // Pass 2: print, with shared nodes named once.
  std::ostringstream out;
  struct Frame {
    UOp u;
    int depth;
    size_t next_src;
  };
  std::vector<Frame> frames{{root, 0, 0}};
  bool first = true;
  while (!frames.empty()) {
    Frame& f = frames.back();
    if (f.next_src == 0 && !first) out << "\n";
    if (f.next_src == 0) {
      first = false;
      Info& in = info[f.u.id()];
      out << std::string(f.depth, ' ');
      if (in.printed) {
        out << "x" << in.id;
        frames.pop_back();
        if (!frames.empty()) out << ",";
        continue;
      }
      in.printed = true;
      if (in.uses > 1) out << "x" << in.id << ":=";
      out << "UOp(" << f.u.op() << ", " << f.u.dtype() << ", arg=" << ArgStr(f.u);
      if (!f.u.tag().is_none()) out << ", tag=" << f.u.tag();
      out << ", src=(";
    }
    if (f.next_src < f.u.src().size()) {
      UOp child = f.u.src()[f.next_src++];
      frames.push_back({child, f.depth + 2, 0});
      continue;
    }
    out << "))";
    frames.pop_back();
    if (!frames.empty()) out << ",";
  }
  return out.str();
}

std::ostream& operator<<(std::ostream& os, const UOp& u) {
  return u ? os << PrettyPrint(u) : os << "UOp(null)";
}

}  // namespace tg

namespace tg {
namespace {

void EraseOne(std::vector<UOp>& v, const UOp& u) {
  auto it = std::find(v.begin(), v.end(), u);
  if (it != v.end()) v.erase(it);
}

bool Has(const std::vector<UOp>& v, const UOp& u) {
  return std::find(v.begin(), v.end(), u) != v.end();
}

}  // namespace

int RangeStart(Ops op) {
  switch (op) {
    case Ops::BUFFERIZE:
    case Ops::REDUCE:
    case Ops::END:
      return 1;
    case Ops::STORE:
      return 2;
    case Ops::WMMA:
      return 3;
    default:
      return -1;
  }
}

bool UOp::has_range(const UOp& range) const { return Has(ranges(), range); }

std::vector<UOp> UOp::ended_ranges() const {
  std::vector<UOp> out;
  if (int start = RangeStart(op()); start >= 0) {
    for (size_t i = start; i < src().size(); ++i) out.push_back(src(i));
  } else if (op() == Ops::AFTER) {
    for (const UOp& s : src().subspan(1)) {
      std::vector<UOp> e = s.ended_ranges();
      out.insert(out.end(), e.begin(), e.end());
    }
  }
  return out;
}

const std::vector<UOp>& UOp::ranges() const {
  if (const auto* r = node_->ranges_memo.load(std::memory_order_acquire)) return *r;
  // Nodes below this one without a memo, children first (explicit stack).
  std::vector<UOp> order;
  {
    absl::flat_hash_set<const void*> seen;
    std::vector<std::pair<UOp, size_t>> stack{{*this, 0}};
    seen.insert(id());
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next < u.src().size()) {
        const UOp& s = u.src(next++);
        if (s.node_->ranges_memo.load(std::memory_order_acquire) == nullptr &&
            seen.insert(s.id()).second)
          stack.emplace_back(s, 0);
        continue;
      }
      order.push_back(u);
      stack.pop_back();
    }
  }
  for (const UOp& u : order) {
    std::vector<UOp> ret;
    for (const UOp& s : u.src())
      for (const UOp& r : s.ranges())
        if (!Has(ret, r)) ret.push_back(r);
    for (const UOp& er : u.ended_ranges()) {
      if (er.op() == Ops::RANGE) {
        EraseOne(ret, er);  // a closed RANGE does not flow through
      } else {
        for (const UOp& r : er.ranges()) EraseOne(ret, r);
      }
    }
    if (u.op() == Ops::RANGE && !Has(ret, u)) ret.insert(ret.begin(), u);
    auto* fresh = new std::vector<UOp>(std::move(ret));
    const std::vector<UOp>* expected = nullptr;
    if (!u.node_->ranges_memo.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel))
      delete fresh;  // another thread computed the same list first
  }
  return *node_->ranges_memo.load(std::memory_order_acquire);
}

}  // namespace tg
