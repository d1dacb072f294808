// File: tools/cli/compile_server_command.cc
#include "tools/cli/compile_server_command.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "autotune/compile/compile_server.h"
#include "autotune/compile/target_info.h"
#include "autotune/net/curve_keys.h"
#include "autotune/net/zap_handler.h"
#include "tinygrad/base/config.h"
#include "tools/cli/command_line.h"
#include "tools/cli/compile_target.h"
#include "tools/cli/security_flags.h"

namespace tg {
namespace {

namespace net = autotune::net;

constexpr char kDescription[] =
    "Serves a GPU target's compiling: GPU machines tuning with tg tune --compile-with EP send each\n"
    "batch of candidates here and get them back lowered, rendered and compiled (NVRTC to CUBIN;\n"
    "with --ptx the PTX renderer's text for CUDA_PTX=1 clients, whose driver assembles it), so\n"
    "that their own CPUs are free while their GPU times kernels. A client whose GPU is another\n"
    "target (arch, renderer limits, NVRTC version) is refused, naming the difference, and prepares\n"
    "its batches itself. tcp:// needs CURVE keys (--key, and --allow with the clients' public\n"
    "keys; make them with tg keygen) or --insecure. SIGTERM or SIGINT stops it.";

std::atomic<bool> g_stop = false;

void OnSignal(int) { g_stop = true; }  // async-signal-safe

// A compile target's renderer and compiler as the measurer's phase 1 uses them.
class TargetCandidateCompiler : public autotune::CandidateCompiler {
 public:
  explicit TargetCandidateCompiler(CompileTarget& target) : target_(target) {}
  const Renderer& renderer() const override { return target_.renderer(); }
  std::string compiler_id() const override { return target_.compiler().id(); }
  absl::StatusOr<std::string> Compile(const ProgramSpec& spec) override { return target_.compiler().Compile(spec.src); }

 private:
  CompileTarget& target_;
};

}  // namespace

int CompileServerCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg compile-server");
  SetUpCommandApp(app);
  CompileTargetOptions target_options;
  std::string endpoint;
  int threads = std::max(1, GetConfig().cpu_count);
  SecurityFlags security;
  app.add_option("--device", target_options.device, "the GPU kind: CUDA")
      ->required()
      ->check(CLI::IsMember({"CUDA"}, CLI::ignore_case));
  app.add_option("--arch", target_options.arch, "the clients' GPU arch: sm_75 ... sm_90a")->required();
  app.add_option("--bind", endpoint, "where clients connect: tcp://*:PORT or ipc://PATH")
      ->required()
      ->type_name("EP")
      ->check([](const std::string& ep) {
        return ep.starts_with("tcp://") || ep.starts_with("ipc://")
                   ? std::string()
                   : "takes tcp://HOST:PORT or ipc://PATH, not '" + ep + "'";
      });
  app.add_flag("--ptx", target_options.cuda_ptx,
               "serve CUDA_PTX=1 clients: render PTX with the PTX renderer and answer the PTX text,\n"
               "which their driver's JIT assembles at load (lowering is done here, assembling there)");
  app.add_option("--threads", threads, "lowering and compiling threads (default: CPU_COUNT, else the cores)")
      ->check(IntAtLeast(1));
  AddSecurityFlags(app, security, SecurityRole::kServer);
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  if (endpoint.starts_with("tcp://") && security.key.empty() && !security.insecure)
    return UsageError(app, "tcp:// needs --key FILE --allow PATH (CURVE), or --insecure");

  auto fail = [](const absl::Status& s) {
    std::fprintf(stderr, "tg compile-server: %s\n", std::string(s.message()).c_str());
    return kExitFailed;
  };
  target_options.cuda = CudaLibraryOptions::FromEnvironment();
  target_options.ptx_for_driver_jit = target_options.cuda_ptx;
  absl::StatusOr<std::unique_ptr<CompileTarget>> target = CompileTarget::Create(target_options);
  if (!target.ok()) {
    if (target.status().code() == absl::StatusCode::kInvalidArgument)
      return UsageError(app, std::string(target.status().message()));
    return fail(target.status());
  }
  TargetCandidateCompiler compiler(**target);
  // an NVRTC per thread: threads sharing one sleep on its lock
  const char* tmp = std::getenv("TMPDIR");
  if (absl::Status s = (*target)->compiler().PrepareThreads(threads, tmp != nullptr && *tmp != '\0' ? tmp : "/tmp"); !s.ok())
    std::fprintf(stderr, "tg compile-server: warning: %s\n", std::string(s.message()).c_str());

  net::ZmqContext ctx;
  std::unique_ptr<net::ZapHandler> zap;
  net::SecurityOptions sec = net::SecurityOptions::FilePermissions();
  if (!security.key.empty()) {
    absl::StatusOr<net::CurveKeyPair> keys = net::ReadSecretKeyFile(security.key);
    if (!keys.ok()) return fail(keys.status());
    absl::StatusOr<std::unique_ptr<net::ZapHandler>> z = net::ZapHandler::Start(ctx, {.allowlist_path = security.allow});
    if (!z.ok()) return fail(z.status());
    zap = *std::move(z);
    sec = net::SecurityOptions::CurveServer(*keys, zap.get());
  } else if (security.insecure) {
    sec = net::SecurityOptions::Insecure();
  }
  const autotune::codec::CompileTargetInfo info =
      autotune::TargetInfoOf("CUDA", (*target)->arch(), compiler);
  absl::StatusOr<std::unique_ptr<autotune::CompileServer>> server = autotune::CompileServer::Bind(
      ctx, compiler, info,
      {.endpoint = endpoint,
       .security = sec,
       .threads = threads,
       .on_answer = [](size_t candidates, double wall_s) {
         std::fprintf(stderr, "tg compile-server: prepared %zu candidates in %.3f s\n", candidates, wall_s);
       }});
  if (!server.ok()) return fail(server.status());
  std::fprintf(stderr, "tg compile-server: serving CUDA %s (%s) on %s with %d threads\n", info.arch.c_str(),
               info.compiler_id.c_str(), (*server)->endpoint().c_str(), threads);
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  absl::Status s = (*server)->Serve(g_stop);
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  if (!s.ok()) return fail(s);
  std::fprintf(stderr, "tg compile-server: stopped after %llu requests\n",
               static_cast<unsigned long long>((*server)->answered()));
  return kExitOk;
}

}  // namespace tg
