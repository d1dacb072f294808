// File: tinygrad/schedule/schedule.cc
// Port of tinygrad/engine/schedule.py: create_schedule (Kahn order over the KERNEL DAG, OUTER
// range expansion), pm_pre_sched_cache / pm_post_sched_cache and
// complete_create_schedule_with_vars (without memory planning: the engine's).
#include "tinygrad/schedule/schedule.h"

#include <deque>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/schedule/kernelize.h"
#include "tinygrad/schedule/multi.h"
#include "tinygrad/uop/graph_rewrite.h"
#include "tinygrad/uop/graph_util.h"
#include "tinygrad/uop/multi.h"
#include "tinygrad/uop/rewrite_trace.h"
#include "tinygrad/uop/spec.h"

namespace tg {
namespace {

// One scheduled kernel before its buffers are known (tinygrad's pre_schedule ExecItem).
struct PreItem {
  UOp ast;
  absl::flat_hash_map<std::string, int64_t> fixedvars;
};

struct CacheEntry {
  std::vector<PreItem> pre_schedule;
  UOp combined;  // SINK(SINK(tensor_map k, v, ...), SINK(SINK(bufs of item i)...))
};

// ** create_schedule **

absl::StatusOr<std::pair<std::vector<PreItem>, UOp>> CreateSchedule(const UOp& sched_sink) {
  // the KERNEL children graph, from the AFTERs; in_degree keeps first-seen order
  absl::flat_hash_map<UOp, std::vector<UOp>> children;
  std::vector<UOp> order;
  absl::flat_hash_map<UOp, int> in_degree;
  auto seed = [&](const UOp& k) {
    if (in_degree.try_emplace(k, 0).second) order.push_back(k);
  };
  for (const UOp& u : sched_sink.toposort()) {
    if (u.op() == Ops::RANGE) {
      seed(u);
      continue;
    }
    if (u.op() != Ops::AFTER || u.src(1).op() == Ops::RANGE) continue;
    const UOp& k = u.src(1);
    seed(k);
    const UOp& kern = k.op() == Ops::END ? k.src(0) : k;
    if (kern.op() != Ops::KERNEL) return absl::InternalError("AFTER of a non-KERNEL");
    for (const UOp& s : KernelInputs(kern)) {
      if (s.op() == Ops::AFTER) {
        children[s.src(1)].push_back(k);
        in_degree[k]++;
      } else if (s.op() == Ops::MSELECT || s.op() == Ops::MSTACK) {
        for (UOp ss : s.src()) {
          if (ss.op() == Ops::MSELECT) ss = ss.src(0);
          if (ss.op() == Ops::BUFFER) continue;
          if (ss.op() != Ops::AFTER) return absl::InternalError("MSTACK source is not AFTER");
          children[ss.src(1)].push_back(k);
          in_degree[k]++;
        }
      } else if (s.op() != Ops::BUFFER && s.op() != Ops::BIND) {
        return absl::InternalError(std::string("input to kernel must be AFTER or BUFFER, not ") +
                                   std::string(OpName(s.op())));
      }
    }
  }

  // Kahn's algorithm, FIFO
  struct Entry {
    UOp marker;  // a RANGE or END(KERNEL, RANGE), else null
    UOp ast;
    std::vector<UOp> bufs;
    std::vector<UOp> bound_ranges;
  };
  std::deque<UOp> queue;
  for (const UOp& k : order)
    if (in_degree[k] == 0) queue.push_back(k);
  std::vector<Entry> schedule;
  while (!queue.empty()) {
    UOp rk = queue.front();
    queue.pop_front();
    UOp k = rk.op() == Ops::END ? rk.src(0) : rk;
    if (k.op() == Ops::RANGE) {
      schedule.push_back({k, {}, {}, {}});
    } else if (k.op() == Ops::KERNEL) {
      Entry e{UOp(), KernelAst(k), {}, {}};
      for (const UOp& s : KernelInputs(k)) {
        if (s.op() == Ops::BIND) {
          if (s.src().size() > 1 && s.src(1).op() == Ops::RANGE) e.bound_ranges.push_back(s);
        } else {
          e.bufs.push_back(BufUop(s));
        }
      }
      schedule.push_back(std::move(e));
      if (rk.op() == Ops::END) schedule.push_back({rk, {}, {}, {}});
    } else {
      return absl::InternalError(std::string("can't schedule ") + std::string(OpName(k.op())));
    }
    for (const UOp& x : children[rk])
      if (--in_degree[x] == 0) queue.push_back(x);
  }

  // expand OUTER ranges: the kernels between RANGE and END repeat with the range fixed
  std::vector<PreItem> pre;
  std::vector<UOp> buf_sinks;
  absl::flat_hash_map<UOp, int64_t> in_ranges;
  absl::flat_hash_map<UOp, size_t> range_ptrs;
  for (size_t p = 0; p < schedule.size();) {
    const Entry& si = schedule[p];
    if (si.marker) {
      if (si.marker.op() == Ops::RANGE) {
        in_ranges[si.marker] = 0;
        range_ptrs[si.marker] = p + 1;
      } else {
        const UOp& r = si.marker.src(1);
        if (in_ranges[r] < r.vmax().to_int64()) {
          in_ranges[r]++;
          p = range_ptrs[r];
          continue;
        }
      }
    } else {
      PreItem item{si.ast, {}};
      for (const UOp& b : si.bound_ranges)
        item.fixedvars[b.src(0).arg()[0].str()] = in_ranges[b.src(1)];
      pre.push_back(std::move(item));
      buf_sinks.push_back(UOp::Sink(si.bufs));
    }
    ++p;
  }
  return std::make_pair(std::move(pre), UOp::Sink(buf_sinks));
}

// ** pm_pre_sched_cache / pm_post_sched_cache **

struct PreCtx {
  absl::flat_hash_map<UOp, UOp> input_buffers;  // original -> normalized
  absl::flat_hash_map<std::string, int64_t> var_vals;
  std::string error;
};

UOp Lunique(size_t n) { return UOp::Make(Ops::LUNIQUE, dtypes::void_, {}, static_cast<int64_t>(n)); }

UOp ReplaceInputBuffer(const Match& m) {
  PreCtx& ctx = m.ctx<PreCtx>();
  const UOp& b = m["b"];
  if (auto it = ctx.input_buffers.find(b); it != ctx.input_buffers.end()) return it->second;
  UOp ret = b.op() == Ops::BUFFER ? b.replace_src({Lunique(ctx.input_buffers.size()), b.src(1)})
                                  : b.replace_src({b.src(0), Lunique(ctx.input_buffers.size())});
  ctx.input_buffers[b] = ret;
  return ret;
}

// strip the value from BIND so different values hit the same cache entry
UOp StripBind(const Match& m) {
  PreCtx& ctx = m.ctx<PreCtx>();
  const UOp& b = m["b"];
  const std::string& name = b.src(0).arg()[0].str();
  int64_t val = b.src(1).arg().int64();
  auto [it, inserted] = ctx.var_vals.try_emplace(name, val);
  if (!inserted && it->second != val && ctx.error.empty())
    ctx.error = "bind mismatch on " + name + ", " + std::to_string(it->second) + " != " + std::to_string(val);
  auto bi = ctx.input_buffers.find(b);
  if (bi != ctx.input_buffers.end()) return bi->second;
  UOp ret = b.replace_src({b.src(0)});
  ctx.input_buffers[b] = ret;
  return ret;
}

const PatternMatcher& PmPreSchedCache() {
  static const auto* const kRules = new PatternMatcher({
      // replace input buffers
      Rule(UPat(Ops::BUFFER).src({UPat(Ops::UNIQUE), UPat(Ops::DEVICE)}).named("b"), ReplaceInputBuffer),
      // remove unique consts
      Rule(UPat(Ops::CONST).src({UPat(Ops::DEVICE), UPat(Ops::UNIQUE)}).named("b"), ReplaceInputBuffer),
      Rule(UPat(Ops::BIND).src({UPat(Ops::DEFINE_VAR), UPat(Ops::CONST)}).named("b"), StripBind),
  });
  return *kRules;
}

UOp ReplaceInputBufferBack(const Match& m) {
  auto& ctx = m.ctx<absl::flat_hash_map<UOp, UOp>>();
  const UOp& b = m["b"];
  if (auto it = ctx.find(b); it != ctx.end()) return it->second;
  TG_CHECK(b.op() == Ops::BUFFER) << "unknown normalized " << OpName(b.op());
  // not an input: a fresh buffer
  UOp ret = UOp::NewBuffer(DeviceNameOf(b.src(1).arg()), b.arg().int64(), b.dtype());
  ctx[b] = ret;
  return ret;
}

const PatternMatcher& PmPostSchedCache() {
  static const auto* const kRules = new PatternMatcher({
      Rule(UPat(Ops::BUFFER).src({UPat(Ops::LUNIQUE), UPat(Ops::DEVICE)}).named("b"), ReplaceInputBufferBack),
      Rule(UPat(Ops::CONST).src({UPat(Ops::DEVICE), UPat(Ops::LUNIQUE)}).named("b"), ReplaceInputBufferBack),
      // restore the BIND value stripped in pm_pre_sched_cache
      Rule(UPat(Ops::BIND).src({UPat(Ops::DEFINE_VAR)}).named("b"),
           [](const Match& m) {
             auto& ctx = m.ctx<absl::flat_hash_map<UOp, UOp>>();
             auto it = ctx.find(m["b"]);
             return it == ctx.end() ? UOp() : it->second;
           }),
  });
  return *kRules;
}

struct Cache {
  absl::Mutex mu;
  // key: the normalized sink's structural key and the options' text; the sink is kept to rule
  // out hash collisions
  absl::flat_hash_map<std::pair<uint64_t, std::string>, std::pair<UOp, std::shared_ptr<const CacheEntry>>> entries;
};
Cache& GetCache() {
  static auto* c = new Cache();
  return *c;
}

}  // namespace

absl::StatusOr<Schedule> CreateScheduleWithVars(const UOp& big_sink, const ScheduleOptions& options) {
  // TRACK_MATCH_STATS >= 2: the schedule's rewrites form one group, renamed for its kernels below
  ScopedTraceGroup trace_group("complete_create_schedule_with_vars");
  PreCtx pre;
  UOp big_sink_cache = GraphRewrite(big_sink, PmPreSchedCache(),
                                    {.name = "rewrite for sched cache", .ctx = RewriteCtx::Of(pre)});
  if (!pre.error.empty()) return absl::InvalidArgumentError(pre.error);
  const std::pair<uint64_t, std::string> key = {big_sink_cache.key(), options.KeyText()};

  Schedule out;
  std::shared_ptr<const CacheEntry> entry;
  {
    Cache& c = GetCache();
    absl::MutexLock lock(&c.mu);
    auto it = c.entries.find(key);
    if (it != c.entries.end() && it->second.first == big_sink_cache) entry = it->second.second;
  }
  out.cache_hit = entry != nullptr;
  if (!entry) {
    // tinygrad's SPEC: the Tensors match tensor_spec (on a cache miss only, as the reference).
    if (options.spec) RETURN_IF_ERROR(VerifySpec(big_sink, SpecKind::kTensor));
    absl::flat_hash_map<UOp, UOp> tensor_map;
    if (HasMultiDevice(big_sink_cache)) {
      // multi-device values become per-device ones; the sink takes each MULTI's shard
      ASSIGN_OR_RETURN(tensor_map, GetMultiMap(big_sink_cache, options));
      UOp split = Substitute(big_sink_cache, tensor_map);
      std::vector<UOp> roots;
      for (const UOp& r : split.src()) roots.push_back(r.op() == Ops::MULTI ? r.src(0) : r);
      big_sink_cache = UOp::Sink(roots);
    }
    ASSIGN_OR_RETURN(auto rangeify_map, GetRangeifyMap(big_sink_cache, options));
    for (auto& [k, v] : rangeify_map) tensor_map[k] = v;
    UOp kernel_sink = Substitute(big_sink_cache, tensor_map);
    ASSIGN_OR_RETURN(auto sched, CreateSchedule(kernel_sink));
    // the cache keeps the tensor map (with the AFTERs) so it does not need big_sink
    std::vector<UOp> tm;
    for (const auto& [k, v] : tensor_map) {
      tm.push_back(k);
      tm.push_back(v);
    }
    for (const UOp& u : kernel_sink.toposort()) {
      if (u.op() != Ops::AFTER) continue;
      tm.push_back(u);
      tm.push_back(BufUop(u));
    }
    auto e = std::make_shared<CacheEntry>();
    e->pre_schedule = std::move(sched.first);
    e->combined = UOp::Sink({UOp::Sink(tm), sched.second});
    entry = e;
    Cache& c = GetCache();
    absl::MutexLock lock(&c.mu);
    c.entries[key] = {big_sink_cache, entry};
  }

  // LUNIQUEs back to the caller's buffers, BIND values restored
  absl::flat_hash_map<UOp, UOp> reverse;
  for (const auto& [k, v] : pre.input_buffers) reverse[v] = k;
  UOp combined = GraphRewrite(entry->combined, PmPostSchedCache(),
                              {.name = "unrewrite combined", .ctx = RewriteCtx::Of(reverse)});
  const UOp& tm_sink = combined.src(0);
  const UOp& bufs_sink = combined.src(1);
  for (size_t i = 0; i + 1 < tm_sink.src().size(); i += 2)
    out.becomes_map[tm_sink.src(i)] = tm_sink.src(i + 1);
  TG_CHECK(bufs_sink.src().size() == entry->pre_schedule.size());
  for (size_t i = 0; i < entry->pre_schedule.size(); ++i) {
    const PreItem& p = entry->pre_schedule[i];
    std::span<const UOp> b = bufs_sink.src(i).src();
    out.items.push_back({p.ast, std::vector<UOp>(b.begin(), b.end()), p.fixedvars});
  }
  if (!out.items.empty()) out.var_vals = std::move(pre.var_vals);
  trace_group.Rename(absl::StrCat("Schedule ", out.items.size(), out.items.size() == 1 ? " Kernel" : " Kernels"));
  return out;
}

void ClearScheduleCache() {
  Cache& c = GetCache();
  absl::MutexLock lock(&c.mu);
  c.entries.clear();
}

size_t ScheduleCacheSize() {
  Cache& c = GetCache();
  absl::MutexLock lock(&c.mu);
  return c.entries.size();
}

}  // namespace tg
