// File: autotune/search/beam_benchmark.cc
// BEAM search throughput on a matmul: candidates timed per second, where the search's wall
// time goes (lowering + compiling vs running kernels), and how stable the winner is.
//
//   bazel run -c opt //autotune/search:beam_benchmark -- [N=256] [WIDTH=2] [REPEATS=1]
//
// Compare with tinygrad on the same machine: `DEV=CPU BEAM=2 IGNORE_BEAM_CACHE=1` on a 256
// matmul timed 49 candidates in 16.6 s (2.95 per second), tools/bench/tinygrad_beam.py.
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/search/beam_search.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/device.h"

namespace tg::autotune {
namespace {

std::string OptsStr(const std::vector<Opt>& opts) {
  std::string s = "[";
  for (const Opt& o : opts) s += (s.size() > 1 ? ", " : "") + o.ToString();
  return s + "]";
}

int Main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 256;
  const int width = argc > 2 ? std::atoi(argv[2]) : 2;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 1;
  absl::StatusOr<Device*> dev = GetDevice("CPU");
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> measurer = LocalMeasurer::Create();
  if (!dev.ok() || !measurer.ok()) {
    std::fprintf(stderr, "no CPU device\n");
    return 1;
  }
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(MatmulKernel(n));
  if (!task.ok()) {
    std::fprintf(stderr, "%s\n", std::string(task.status().message()).c_str());
    return 1;
  }
  SearchSettings settings = SearchSettings::FromConfig(GetConfig());
  settings.width = width;
  const double flops = 2.0 * n * n * n;
  std::map<std::string, int> winners;
  std::map<uint64_t, int> programs;
  double best = kInf, worst = 0;
  for (int rep = 0; rep < repeats; ++rep) {
    task->seed = static_cast<uint64_t>(rep);  // new inputs: a new task, nothing reused
    BeamOptions o;
    absl::StatusOr<std::vector<Opt>> h = HeuristicOpts(task->ast, (*dev)->renderer(), task->codegen);
    if (h.ok()) o.heuristic_opts = *h;
    o.progress = [&](const BeamProgress& p) {
      if (p.phase == BeamProgress::Phase::kRound)
        std::fprintf(stderr, "  round %d: %4d candidates, %4d timed, best %8.1f us  %.1f s\n", p.round,
                     p.candidates, p.timed, p.best_s * 1e6, p.elapsed_s);
    };
    absl::StatusOr<BeamResult> r = BeamSearch(*task, (*dev)->renderer(), **measurer, settings, o);
    if (!r.ok()) {
      std::fprintf(stderr, "search failed: %s\n", std::string(r.status().message()).c_str());
      return 1;
    }
    winners[OptsStr(r->opts)] += 1;
    programs[r->program_hash] += 1;
    best = std::min(best, r->time_s);
    worst = std::max(worst, r->time_s);
    std::printf("matmul %lld BEAM=%d (run %d)\n", static_cast<long long>(n), width, rep + 1);
    std::printf("  winner      %s\n", OptsStr(r->opts).c_str());
    std::printf("  time        %.1f us (%.1f GFLOP/s); noopt %.1f us (%.1f GFLOP/s); heuristic %.1f us (%.1f GFLOP/s)\n",
                r->time_s * 1e6, flops / r->time_s * 1e-9, r->noopt_s * 1e6, flops / r->noopt_s * 1e-9,
                r->heuristic_s * 1e6, flops / r->heuristic_s * 1e-9);
    std::printf("  heuristic   %s\n", o.heuristic_opts ? OptsStr(*o.heuristic_opts).c_str() : "none");
    std::printf("  rounds %d, candidates %lld, timed %lld, failed %lld\n", r->rounds,
                static_cast<long long>(r->candidates), static_cast<long long>(r->timed),
                static_cast<long long>(r->failed()));
    std::printf("  outcomes   ");
    for (int k = 0; k < kNumOutcomes; ++k)
      if (r->outcomes[k] > 0)
        std::printf(" %s=%lld", std::string(OutcomeName(static_cast<Outcome>(k))).c_str(),
                    static_cast<long long>(r->outcomes[k]));
    for (int k = 0; k < kNumOutcomes; ++k)
      if (!r->first_error[k].empty())
        std::printf("\n    first %s: %.150s", std::string(OutcomeName(static_cast<Outcome>(k))).c_str(),
                    r->first_error[k].c_str());
    std::printf("\n  search      %.2f s wall: prepare (lower+compile) %.2f s, run %.2f s, actions %.2f s\n",
                r->search_wall_s, r->prepare_wall_s, r->run_wall_s, r->actions_wall_s);
    std::printf("  per stage   lower %.2f s (%.2f s thread CPU), compile %.2f s, run %.2f s (summed wall times)\n",
                r->cost.lower_s, r->cost.lower_cpu_s, r->cost.compile_s, r->cost.run_s);
    std::printf("  timed/s     %.1f (tinygrad: 2.95), run fraction %.1f%%\n", r->timed / r->search_wall_s,
                100 * r->run_fraction());
  }
  if (repeats > 1) {
    std::printf("winner stability: %zu distinct opt lists, %zu distinct programs in %d searches; winner times %.1f..%.1f us (%.1f%% spread)\n",
                winners.size(), programs.size(), repeats, best * 1e6, worst * 1e6, 100 * (worst - best) / best);
    for (const auto& [opts, count] : winners) std::printf("  %dx %s\n", count, opts.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) { return tg::autotune::Main(argc, argv); }
