// File: tinygrad/engine/diagnostics.cc
#include "tinygrad/engine/diagnostics.h"

#include <atomic>
#include <cstdlib>
#include <iostream>

#include "tinygrad/uop/pattern_matcher.h"
#include "tinygrad/uop/rewrite_trace.h"
#include "tinygrad/uop/spec.h"

namespace tg {
namespace {

void ReportAtExit() {
  PrintRewriteReport(std::cout);
  std::cout.flush();
}

}  // namespace

void ApplyDiagnostics(const Config& c) {
  SetSpecCheckLevel(c.spec);
  SetTrackMatchStats(c.track_match_stats);
  static std::atomic<bool> registered{false};
  // Under VIZ the trace is the report (tinygrad prints no table then).
  if (c.track_match_stats > 0 && c.viz == 0 && !registered.exchange(true)) std::atexit(ReportAtExit);
}

void PrintRewriteReport(std::ostream& os) {
  RewriteTrace trace = SnapshotRewriteTrace();
  if (!trace.rewrites.empty())
    os << "rewrote " << trace.rewrites.size() << " graphs and matched " << trace.num_matches()
       << " times\n";
  PrintMatchStats(os);
}

}  // namespace tg
