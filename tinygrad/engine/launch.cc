// File: tinygrad/engine/launch.cc
#include "tinygrad/engine/launch.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/uop/render.h"

namespace tg {

namespace {

absl::StatusOr<int64_t> SizeOf(const UOp& u, const absl::flat_hash_map<std::string, ConstValue>& vars) {
  ASSIGN_OR_RETURN(ConstValue v, SymInfer(u, vars));
  return v.to_int64();
}

}  // namespace

absl::StatusOr<LaunchShape> LaunchShapeOf(const ProgramSpec& spec,
                                          const absl::flat_hash_map<std::string, ConstValue>& vars) {
  LaunchShape shape;
  for (size_t i = 0; i < 3 && i < spec.global_size.size(); ++i) {
    ASSIGN_OR_RETURN(shape.global[i], SizeOf(spec.global_size[i], vars));
  }
  if (spec.local_size) {
    shape.local = LaunchDims{1, 1, 1};
    for (size_t i = 0; i < 3 && i < spec.local_size->size(); ++i) {
      ASSIGN_OR_RETURN((*shape.local)[i], SizeOf((*spec.local_size)[i], vars));
    }
  }
  return shape;
}

bool NeedsLocalSize(const Renderer& renderer, const ProgramSpec& spec) {
  return renderer.has_local && !spec.local_size.has_value() &&
         std::all_of(spec.global_size.begin(), spec.global_size.end(),
                     [](const UOp& u) { return u.op() == Ops::CONST; });
}

std::vector<LaunchDims> LocalSizeCandidates(const LaunchDims& global, int64_t max_workgroup) {
  std::vector<int64_t> axis[3];
  for (int i = 0; i < 3; ++i) {
    const int64_t sz = global[i];
    std::vector<int64_t> sizes = {1, 2, 4, 8, 16, 32, 64, 128, 256, max_workgroup, sz};
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (int64_t l : sizes)
      if (l >= 1 && l <= sz && sz % l == 0) axis[i].push_back(l);
  }
  std::vector<LaunchDims> out;
  for (int64_t a : axis[0])
    for (int64_t b : axis[1])
      for (int64_t c : axis[2])
        if (a * b * c <= max_workgroup) out.push_back({a, b, c});
  return out;
}

absl::StatusOr<LaunchShape> OptimizeLocalSize(Program& prog, std::span<void* const> args,
                                              std::span<const int64_t> vals, const LaunchDims& global,
                                              double stop_after_s) {
  const std::vector<LaunchDims> candidates = LocalSizeCandidates(global);
  if (candidates.empty())
    return absl::InvalidArgumentError(absl::StrCat("no block tiles the grid (", absl::StrJoin(global, ", "), ")"));
  double best_s = std::numeric_limits<double>::infinity();
  std::optional<LaunchShape> best;
  absl::Status last_error;
  for (int round = 0; round < 2; ++round) {
    for (const LaunchDims& local : candidates) {
      LaunchShape shape{.global = global, .local = local};
      for (int i = 0; i < 3; ++i) shape.global[i] = global[i] / local[i];
      absl::StatusOr<double> t = prog.Run(args, vals, shape.global, shape.local, /*wait=*/true, stop_after_s);
      if (!t.ok()) {
        if (IsDeviceLost(t.status())) return t.status();
        last_error = t.status();
        continue;
      }
      if (*t < best_s) {
        best_s = *t;
        best = shape;
      }
    }
  }
  if (!best)
    return absl::Status(last_error.code(), absl::StrCat("every local size for the grid (", absl::StrJoin(global, ", "),
                                                        ") failed; the last: ", last_error.message()));
  return *best;
}

}  // namespace tg
