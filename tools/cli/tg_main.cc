// File: tools/cli/tg_main.cc
//
// The `tg` command line. Each subcommand is one row of kCommands: a name, a one-line
// summary for the usage text, and a function taking the arguments after the name.
// Later rows: worker, keygen, db, ...
//
// Exit codes: 0 success, 1 the command failed, 2 usage error.

#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tinygrad/base/config.h"
#include "tinygrad/base/version.h"
#include "tinygrad/engine/diagnostics.h"
#include "tools/cli/compile_command.h"
#include "tools/cli/compile_server_command.h"
#include "tools/cli/db_command.h"
#include "tools/cli/devices_command.h"
#include "tools/cli/farm_command.h"
#include "tools/cli/keygen_command.h"
#include "tools/cli/run_command.h"
#include "tools/cli/train_command.h"
#include "tools/cli/tune_command.h"
#include "tools/cli/viz_command.h"
#include "tools/cli/worker_command.h"

namespace tg {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;

using Args = std::span<const std::string_view>;

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(Args args);
};

int RunHelp(Args args);
int RunVersion(Args args);

constexpr Command kCommands[] = {
    {"help", "show this help", RunHelp},
    {"version", "print the version, the tinygrad reference commit and the compiler", RunVersion},
    {"run", "run a built-in workload, printing its kernels and times (tg run --help)",
     RunWorkloadCommand},
    {"tune", "tune every kernel of a workload with BEAM search (tg tune --help)", TuneWorkloadCommand},
    {"train", "train a model on a dataset: tg train fashion_mnist --model mlp|cnn (tg train --help)",
     TrainCommand},
    {"devices", "which devices work here, and the default: CPU, CUDA, PYTHON (tg devices --help)",
     DevicesCommand},
    {"compile", "render and compile a workload's kernels for a GPU target: CUDA sm_*, HIP gfx* (tg compile --help)",
     CompileWorkloadCommand},
    {"compile-server", "serve a GPU target's compiling to GPU machines that tune (tg compile-server --help)",
     CompileServerCommand},
    {"db", "tuning database: stats, show, export, import, gc, serve (a web page) (tg db --help)", DbCommand},
    {"keygen", "make a CURVE key pair for the tuning farm (tg keygen --help)", KeygenCommand},
    {"viz", "serve the VIZ rewrite viewer on a saved trace (tg viz --help)", VizCommand},
    {"farm", "tuning farm: status of a running coordinator (tg farm --help)", FarmCommand},
    {"worker", "run a tuning-farm worker: tg worker --connect ENDPOINT (tg worker --help)", WorkerCommand},
};

void PrintUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tg <command> [args...]\n"
               "\n"
               "tinygrad-cc: tinygrad's compiler core in C++.\n"
               "\n"
               "commands:\n");
  int width = 0;  // the longest command name: the summaries start in one column
  for (const Command& c : kCommands) width = std::max(width, static_cast<int>(c.name.size()));
  for (const Command& c : kCommands) {
    std::fprintf(out, "  %-*.*s %.*s\n", width, static_cast<int>(c.name.size()), c.name.data(),
                 static_cast<int>(c.summary.size()), c.summary.data());
  }
  std::fprintf(out,
               "\n"
               "options:\n"
               "  -h, --help  show this help\n");
}

int UsageError(std::string_view message) {
  std::fprintf(stderr, "tg: %.*s\n\n", static_cast<int>(message.size()), message.data());
  PrintUsage(stderr);
  return kExitUsage;
}

int RunHelp(Args args) {
  if (!args.empty()) return UsageError("help takes no arguments");
  PrintUsage(stdout);
  return kExitOk;
}

int RunVersion(Args args) {
  if (!args.empty()) return UsageError("version takes no arguments");
  std::printf("tinygrad-cc %.*s\n", static_cast<int>(kVersion.size()), kVersion.data());
  std::printf("tinygrad reference commit %.*s\n",
              static_cast<int>(kTinygradReferenceCommit.size()), kTinygradReferenceCommit.data());
  std::printf("compiler %.*s\n", static_cast<int>(kCompilerVersion.size()),
              kCompilerVersion.data());
  return kExitOk;
}

int Main(Args args) {
  // SPEC and TRACK_MATCH_STATS for every command, also those that compile without realizing.
  ApplyDiagnostics(GetConfig());
  if (args.empty()) return UsageError("no command given");
  const std::string_view name = args.front();
  if (name == "-h" || name == "--help") return RunHelp(args.subspan(1));
  for (const Command& c : kCommands) {
    if (c.name == name) return c.run(args.subspan(1));
  }
  return UsageError("unknown command '" + std::string(name) + "'");
}

}  // namespace
}  // namespace tg

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  return tg::Main(args);
}
