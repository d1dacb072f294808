// File: autotune/compile/target_info.cc
#include "autotune/compile/target_info.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "autotune/key/device_class.h"

namespace tg::autotune {
namespace {

std::string DimsText(const std::optional<std::array<int64_t, 3>>& d) {
  return d ? absl::StrCat("(", absl::StrJoin(*d, ", "), ")") : "none";
}

}  // namespace

codec::CompileTargetInfo TargetInfoOf(std::string device, std::string arch, const CandidateCompiler& compiler) {
  const Renderer& r = compiler.renderer();
  return codec::CompileTargetInfo{.device = std::move(device),
                                  .arch = std::move(arch),
                                  .renderer = RendererName(r),
                                  .compiler_id = compiler.compiler_id(),
                                  .global_max = r.global_max,
                                  .local_max = r.local_max,
                                  .shared_max = r.shared_max};
}

std::string TargetMismatch(const codec::CompileTargetInfo& server, const codec::CompileTargetInfo& client) {
  std::vector<std::string> diffs;
  auto field = [&](const char* name, const std::string& a, const std::string& b) {
    if (a != b) diffs.push_back(absl::StrCat(name, ": server ", a.empty() ? "none" : a, ", client ", b.empty() ? "none" : b));
  };
  field("device", server.device, client.device);
  field("arch", server.arch, client.arch);
  field("renderer", server.renderer, client.renderer);
  field("compiler", server.compiler_id, client.compiler_id);
  field("global max", DimsText(server.global_max), DimsText(client.global_max));
  field("local max", DimsText(server.local_max), DimsText(client.local_max));
  field("shared max", absl::StrCat(server.shared_max), absl::StrCat(client.shared_max));
  return absl::StrJoin(diffs, "; ");
}

}  // namespace tg::autotune
