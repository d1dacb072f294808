// File: autotune/search/gpu_lower_benchmark.cc
// What lowering a GPU BEAM search's candidates costs, candidate by candidate. A BEAM=2 search
// of a half matmul on sm_90 runs against a measurer that only lowers: each batch's candidates
// are lowered as the measurer's phase 1a lowers them (GetProgram of CandidateAst, on T threads
// taking the next candidate from a shared counter), duplicates and programs over BEAM_UOPS_MAX
// are dropped as the measurer drops them, and the rest get a made-up time that favours bigger
// programs (3 ms x 1000 / uops), so that the search goes where the real one went on an H200:
// tensor cores, then upcasts and unrolls up to the uops limit. No GPU needed.
//
//   bazel run -c opt //autotune/search:gpu_lower_benchmark -- [--n=4096] [--beam=2]
//       [--threads=T] [--top=15] [--passes=K] [--full-lowering] [--sizes]
//
// Prints the distribution of the lowerings' thread CPU time, how much of it went into programs
// the search then rejects for their size, the costliest candidates, and, over all lowerings,
// the sum of their wall times (what the measurer reports as a candidate's lower_s), of their
// thread CPU times, and of the time they spent asleep (blocked on a lock) or runnable (waiting
// for a CPU: more threads than cores). --passes=K prints each codegen pass's thread CPU time
// for the K costliest candidates. Candidates are lowered as the measurer lowers them
// (prepare_batch.h CandidateCodegen: a program far past BEAM_UOPS_MAX stops after devectorize);
// --full-lowering lowers every one to its end, as the reference does; --sizes (lowering to the
// end too) prints how far the passes after devectorize move the node count.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "autotune/key/search_settings.h"
#include "autotune/measure/candidate_ast.h"
#include "autotune/measure/measurer.h"
#include "autotune/measure/prepare_batch.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/measure/thread_cpu_time.h"
#include "autotune/search/beam_search.h"
#include "tinygrad/base/asleep_meter.h"
#include "tinygrad/base/stable_hash.h"
#include "tinygrad/codegen/pipeline.h"
#include "tinygrad/renderer/cuda/cuda.h"
#include "tinygrad/runtime/cuda/arch.h"

namespace tg::autotune {
namespace {

std::string Repr(const std::vector<Opt>& opts) {
  std::string s;
  for (const Opt& o : opts) s += (s.empty() ? "" : " ") + o.ToString();
  return s;
}

struct Lowering {
  std::vector<Opt> opts;
  double cpu_s = 0, wall_s = 0;
  int64_t uops = 0;
  bool ok = false;
  bool stopped = false;  // too big: stopped after devectorize
};

// Lowers every candidate of a batch on `threads` threads (the measurer's phase 1a) and makes
// up a time for the ones it would time.
class LoweringMeasurer : public Measurer {
 public:
  LoweringMeasurer(const Renderer& ren, int threads, bool full_lowering)
      : ren_(ren), threads_(threads), full_lowering_(full_lowering) {}

  absl::StatusOr<MeasureBatch> Measure(const KernelTask& task,
                                       std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions& options) override {
    const size_t n = candidates.size();
    MeasureBatch batch;
    batch.results.resize(n);
    std::vector<Lowering> low(n);
    std::atomic<size_t> next{0};
    using Clock = std::chrono::steady_clock;
    auto work = [&] {
      const AsleepMeter meter;
      for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
        const Clock::time_point w0 = Clock::now();
        const double c0 = ThreadCpuSeconds();
        absl::StatusOr<ProgramSpec> p = GetProgram(CandidateAst(task.ast, candidates[i]), ren_,
                                                   full_lowering_ ? task.codegen : CandidateCodegen(task, options));
        low[i].cpu_s = ThreadCpuSeconds() - c0;
        low[i].wall_s = std::chrono::duration<double>(Clock::now() - w0).count();
        low[i].opts = candidates[i];
        low[i].ok = p.ok();
        CandidateResult& r = batch.results[i];
        r.cost.lower_s = low[i].wall_s;
        if (!p.ok()) {
          // (too big: stopped mid-lowering, as the measurer stops it)
          low[i].stopped = absl::IsResourceExhausted(p.status());
          r.outcome = low[i].stopped ? Outcome::kRejected : Outcome::kLoweringError;
          r.error = std::string(p.status().message());
          continue;
        }
        low[i].uops = r.uops = static_cast<int64_t>(p->uops.size());
        r.program_hash = StableHasher().AddBytes(p->src).Finish();
      }
      asleep_s_ += meter.AsleepSeconds();  // (atomic: the threads end at once)
    };
    const Clock::time_point t0 = Clock::now();
    std::vector<std::thread> pool;
    for (int t = 1; t < threads_; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    batch.prepare_wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    absl::flat_hash_map<uint64_t, int> first_of;
    for (size_t i = 0; i < n; ++i) {
      CandidateResult& r = batch.results[i];
      if (r.outcome != Outcome::kOk) continue;
      if (options.known_programs.contains(r.program_hash)) {
        r.outcome = Outcome::kDuplicate;
      } else if (auto [it, fresh] = first_of.try_emplace(r.program_hash, static_cast<int>(i));
                 !fresh) {
        r.outcome = Outcome::kDuplicate;
        r.duplicate_of = it->second;
      } else if (options.uops_max > 0 && r.uops >= options.uops_max) {
        r.outcome = Outcome::kRejected;
      } else {
        const double t = 3.0 / static_cast<double>(r.uops);
        r.samples_s.assign(static_cast<size_t>(options.runs), t);
        r.min_s = t;
      }
    }
    lowerings_.insert(lowerings_.end(), low.begin(), low.end());
    return batch;
  }

  const std::vector<Lowering>& lowerings() const { return lowerings_; }
  // Seconds the lowering threads spent asleep (on a lock), over every batch.
  double asleep_s() const { return asleep_s_; }

 private:
  const Renderer& ren_;
  int threads_;
  bool full_lowering_;  // the reference's: every candidate lowered to its end
  std::vector<Lowering> lowerings_;
  std::atomic<double> asleep_s_{0};
};

void PrintPasses(const UOp& ast, const Lowering& l, const Renderer& ren) {
  const UOp cand = CandidateAst(ast, l.opts);
  std::printf("[%s] passes (thread CPU):\n", Repr(l.opts).c_str());
  const CodegenOptions codegen;
  double last = ThreadCpuSeconds();
  const double t0 = last;
  absl::StatusOr<UOp> sink =
      FullRewriteToSinkTraced(cand, ren, true, codegen, [&](std::string_view name, const UOp&) {
        const double t = ThreadCpuSeconds();
        if (t - last >= 0.5e-3)
          std::printf("  %8.1f ms  %s\n", (t - last) * 1e3, std::string(name).c_str());
        last = ThreadCpuSeconds();
      });
  const double rewrite = ThreadCpuSeconds() - t0;
  const double g0 = ThreadCpuSeconds();
  const bool ok = GetProgram(cand, ren, codegen).ok();
  const double whole = ThreadCpuSeconds() - g0;
  std::printf("  %8.1f ms  linearize + render (GetProgram %.1f ms - rewrite %.1f ms)%s\n",
              (whole - rewrite) * 1e3, whole * 1e3, rewrite * 1e3,
              sink.ok() && ok ? "" : " (failed)");
}

// How far the passes after devectorize move a program's node count, over `all` (lowered to
// their end): the evidence for the margin of CodegenOptions::max_devectorized_nodes.
void PrintSizes(const UOp& ast, const std::vector<Lowering>& all, const Renderer& ren, int uops_max) {
  double lo = 1e9, hi = 0;
  int64_t below = 0, below_nodes = 0, past = INT64_MAX, past_nodes = 0;
  for (const Lowering& l : all) {
    if (!l.ok || l.uops == 0) continue;
    int64_t nodes = 0;
    absl::StatusOr<UOp> sink = FullRewriteToSinkTraced(
        CandidateAst(ast, l.opts), ren, true, CodegenOptions{}, [&](std::string_view name, const UOp& s) {
          if (name == "devectorize") nodes = static_cast<int64_t>(s.toposort().size());
        });
    if (!sink.ok() || nodes == 0) continue;
    const double ratio = static_cast<double>(l.uops) / static_cast<double>(nodes);
    lo = std::min(lo, ratio);
    hi = std::max(hi, ratio);
    if (l.uops < uops_max && l.uops > below) below = l.uops, below_nodes = nodes;
    if (l.uops >= uops_max && l.uops < past) past = l.uops, past_nodes = nodes;
  }
  std::printf("final uops / nodes after devectorize: %.3f to %.3f; the biggest program under %d uops: %ld (%ld nodes), "
              "the smallest at or past it: %ld (%ld nodes)\n",
              lo, hi, uops_max, static_cast<long>(below), static_cast<long>(below_nodes),
              static_cast<long>(past == INT64_MAX ? 0 : past), static_cast<long>(past_nodes));
}

int Run(int64_t n, int beam, int threads, size_t top, size_t passes, bool full_lowering, bool sizes) {
  const CudaRenderer ren(*ParseCudaArch("sm_90"));
  const UOp ast = MatmulKernel(n, dtypes::float16);
  SearchSettings settings;
  settings.width = beam;
  settings.local_max = std::min(settings.local_max, 1024);  // an H100/H200's threads per block
  absl::StatusOr<SearchStart> start = StartSearch(ast, ren, CodegenOptions{});
  if (!start.ok()) {
    std::fprintf(stderr, "%s\n", std::string(start.status().message()).c_str());
    return 1;
  }
  LoweringMeasurer m(ren, threads, full_lowering || sizes);
  const auto t0 = std::chrono::steady_clock::now();
  absl::StatusOr<BeamResult> r = BeamSearch(start->task, ren, m, settings, start->options);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", std::string(r.status().message()).c_str());
    return 1;
  }
  std::printf(
      "BEAM=%d on %d lowering threads: %ld candidates, %d rounds, winner [%s], search %.2f s wall, "
      "lowering %.2f s wall\n",
      beam, threads, static_cast<long>(r->candidates), r->rounds, Repr(r->opts).c_str(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
      r->prepare_wall_s);

  std::vector<Lowering> all = m.lowerings();
  std::sort(all.begin(), all.end(),
            [](const Lowering& a, const Lowering& b) { return a.cpu_s > b.cpu_s; });
  double cpu = 0, wall = 0, over_cpu = 0, top10 = 0;
  const double asleep = m.asleep_s();
  size_t failed = 0, over = 0, stopped = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    cpu += all[i].cpu_s;
    wall += all[i].wall_s;
    failed += !all[i].ok && !all[i].stopped;
    stopped += all[i].stopped;
    if (all[i].stopped || (all[i].ok && settings.uops_max > 0 && all[i].uops >= settings.uops_max)) {
      over += 1;
      over_cpu += all[i].cpu_s;
    }
    if (i < all.size() / 10) top10 += all[i].cpu_s;
  }
  auto at = [&](double q) {
    return all[std::min(all.size() - 1, static_cast<size_t>(q * static_cast<double>(all.size())))]
               .cpu_s *
           1e3;
  };
  const double per = 1e3 / static_cast<double>(all.size());
  std::printf(
      "%zu lowerings (%zu failed): thread CPU mean %.1f ms, median %.1f, p90 %.1f, p99 %.1f, max "
      "%.1f ms; "
      "the costliest 10%% take %.0f%%\n",
      all.size(), failed, cpu * per, at(0.5), at(0.1), at(0.01), at(0), 100 * top10 / cpu);
  std::printf(
      "per lowering: %.1f ms wall (summed: %.2f s, tg tune's lower_wall_sum_s), %.1f ms thread CPU "
      "(%.2f s, its lower_cpu_s), %.1f ms asleep, "
      "%.1f ms runnable or other\n",
      wall * per, wall, cpu * per, cpu, asleep * per, (wall - cpu - asleep) * per);
  std::printf("%zu lowered to >= %d uops (then rejected; %zu of them stopped after devectorize): %.2f s thread CPU\n",
              over, settings.uops_max, stopped, over_cpu);
  for (size_t i = 0; i < std::min(top, all.size()); ++i)
    std::printf("  %7.1f ms CPU %7.1f ms wall %6ld uops%s  [%s]\n", all[i].cpu_s * 1e3,
                all[i].wall_s * 1e3, static_cast<long>(all[i].uops), all[i].ok ? "" : " (failed)",
                Repr(all[i].opts).c_str());
  for (size_t i = 0; i < std::min(passes, all.size()); ++i) PrintPasses(ast, all[i], ren);
  if (sizes) PrintSizes(ast, all, ren, settings.uops_max);
  return 0;
}

}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) {
  int64_t n = 4096;
  int beam = 2, threads = 1;
  size_t top = 15, passes = 0;
  bool full_lowering = false, sizes = false;
  CLI::App app("gpu_lower_benchmark: what lowering a BEAM search's candidates for sm_90 costs");
  app.add_option("--n", n, "the half matmul's size")->check(CLI::PositiveNumber);
  app.add_option("--beam", beam, "beam width")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "lowering threads")->check(CLI::PositiveNumber);
  app.add_option("--top", top, "the costliest lowerings to list");
  app.add_option("--passes", passes, "each pass's time for the K costliest");
  app.add_flag("--full-lowering", full_lowering, "lower every candidate to its end (the reference's way)");
  app.add_flag("--sizes", sizes, "how far the passes after devectorize move the node count");
  CLI11_PARSE(app, argc, argv);
  return tg::autotune::Run(n, beam, threads, top, passes, full_lowering, sizes);
}
