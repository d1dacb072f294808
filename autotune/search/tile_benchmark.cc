// File: autotune/search/tile_benchmark.cc
// Register tiles of a float32 matmul on one CPU target: GFLOP/s of an RxC output tile (UPCAST
// of the M axis by R, of the N axis by C, UNROLL 4 of the reduction, SIMD of the target's
// vector lanes, THREAD 2), to measure where a tile stops fitting the vector register file
// (autotune/key/vector_isa.h's bound). Every tile is checked against the unoptimized kernel.
//
//   bazel run -c opt //autotune/search:tile_benchmark -- TARGET N RxC [RxC...]
//   e.g. x86-64-v3 960 4x16 6x16 4x24 8x16 4x32    (AVX2: 16 ymm registers)
//        x86-64-v4 896 8x32 14x32 16x32 8x64       (AVX-512: 32 zmm registers)
// N must be a multiple of every R and C (tinygrad's UPCAST splits an axis exactly); C over 16 is
// two UPCASTs of N (16, then C/16).
#include <cstdio>
#include <cstdlib>
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

int Main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: tile_benchmark TARGET N RxC [RxC...]\n");
    return 2;
  }
  const std::string target = argv[1] == std::string("native") ? "" : argv[1];
  const int64_t n = std::atoll(argv[2]);
  DeviceOptions o = DeviceOptions::FromConfig(GetConfig());
  o.cpu.cpu_target = target;
  absl::StatusOr<Device*> dev = GetDevice("CPU", o);
  if (!dev.ok()) {
    std::fprintf(stderr, "%s\n", dev.status().ToString().c_str());
    return 1;
  }
  LocalMeasurer measurer(*dev, {});
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(MatmulKernel(n));
  if (!task.ok()) {
    std::fprintf(stderr, "%s\n", task.status().ToString().c_str());
    return 1;
  }
  const int64_t lanes = target == "x86-64-v3" ? 8 : 16;
  std::vector<std::vector<Opt>> candidates;
  std::vector<std::string> names;
  for (int i = 3; i < argc; ++i) {
    int64_t r = 0, c = 0;
    if (std::sscanf(argv[i], "%ldx%ld", &r, &c) != 2) {
      std::fprintf(stderr, "bad tile '%s' (want RxC)\n", argv[i]);
      return 2;
    }
    // one UPCAST takes at most 16 (the reference's rule): wider tiles upcast N twice
    std::vector<Opt> opts = {Opt{OptOps::UPCAST, 1, std::min<int64_t>(c, 16)}};
    if (c > 16) opts.push_back(Opt{OptOps::UPCAST, 1, c / 16});
    for (const Opt& op : {Opt{OptOps::SIMD, std::nullopt, std::min(lanes, c)}, Opt{OptOps::UPCAST, 0, r},
                          Opt{OptOps::UNROLL, 0, int64_t{4}}, Opt{OptOps::THREAD, 1, int64_t{2}}})
      opts.push_back(op);
    candidates.push_back(std::move(opts));
    names.push_back(argv[i]);
  }
  MeasureOptions mo;
  mo.runs = 7;
  mo.interleaved = true;
  mo.uops_max = 0;
  absl::StatusOr<MeasureBatch> b = measurer.Measure(*task, candidates, mo);
  if (!b.ok()) {
    std::fprintf(stderr, "%s\n", b.status().ToString().c_str());
    return 1;
  }
  const double flops = 2.0 * n * n * n;
  for (size_t i = 0; i < names.size(); ++i) {
    const CandidateResult& r = b->results[i];
    if (r.timed())
      std::printf("%s N=%lld tile %-6s %7.1f GFLOP/s  (%lld uops)\n", target.empty() ? "native" : target.c_str(),
                  static_cast<long long>(n), names[i].c_str(), flops / r.min_s * 1e-9, static_cast<long long>(r.uops));
    else
      std::printf("%s N=%lld tile %-6s %s: %.200s\n", target.c_str(), static_cast<long long>(n), names[i].c_str(),
                  std::string(OutcomeName(r.outcome)).c_str(), r.error.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace tg::autotune

int main(int argc, char** argv) { return tg::autotune::Main(argc, argv); }
