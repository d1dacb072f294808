// File: tools/cli/workload_flags.cc
#include "tools/cli/workload_flags.h"

#include "absl/strings/str_cat.h"
#include "tools/cli/command_line.h"

namespace tg {
namespace {

std::string WorkloadList() {
  std::string out = "workloads (their parameters and defaults):\n";
  for (const Workload& w : Workloads()) {
    std::string params;
    for (const auto& [name, value] : w.params) absl::StrAppend(&params, " --", std::string(name), " ", value);
    absl::StrAppend(&out, "  ", std::string(w.name), std::string(w.name.size() < 13 ? 13 - w.name.size() : 1, ' '),
                    std::string(w.summary), "\n  ", std::string(13, ' '), params, "\n");
  }
  return out;
}

}  // namespace

const Workload* AddWorkloadFlags(CLI::App& app, std::span<const std::string_view> args,
                                 std::string& name, WorkloadParams& params, DType* dtype) {
  app.add_option("WORKLOAD", name, "a built-in workload (listed below)")
      ->required()
      ->check([](const std::string& n) {
        return FindWorkload(n) != nullptr ? std::string() : "unknown workload '" + n + "'";
      });
  app.footer(WorkloadList());
  if (dtype != nullptr) {
    std::string names;
    for (const auto& [n, dt] : WorkloadDTypes()) absl::StrAppend(&names, names.empty() ? "" : ", ", std::string(n));
    app.add_option_function<std::string>(
           "--dtype",
           [dtype](const std::string& n) {
             for (const auto& [known, dt] : WorkloadDTypes())
               if (known == n) *dtype = dt;
           },
           absl::StrCat("the workload's dtype: ", names, " (default float32; half and bfloat16\n"
                        "matmuls use tensor cores where the target has them)"))
        ->type_name("NAME")
        ->check([names](const std::string& n) {
          for (const auto& [known, dt] : WorkloadDTypes())
            if (known == n) return std::string();
          return absl::StrCat("unknown dtype '", n, "' (one of ", names, ")");
        });
  }
  const Workload* w = nullptr;
  for (std::string_view a : args) {  // the first word that names one; a flag's value may not
    w = a.starts_with("-") ? nullptr : FindWorkload(a);
    if (w != nullptr) break;
  }
  if (w == nullptr) return nullptr;
  params = w->Defaults();
  for (const auto& [param, value] : w->params) {
    app.add_option(absl::StrCat("--", std::string(param)), params[std::string(param)],
                   absl::StrCat(std::string(w->name), "'s ", std::string(param), " (default ", value, ")"))
        ->check(IntAtLeast(1))
        ->group(absl::StrCat(std::string(w->name), " parameters"));
  }
  return w;
}

}  // namespace tg
