// File: autotune/compile/compile_relay.cc
#include "autotune/compile/compile_relay.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/net/zmq_socket.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/unique_fd.h"

namespace tg::autotune {
namespace {

using SteadyClock = std::chrono::steady_clock;

// A request's tag: its number, as the 8 bytes of the envelope frame the server sends back.
std::string Tag(uint64_t id) { return std::string(reinterpret_cast<const char*>(&id), sizeof(id)); }

std::optional<uint64_t> TagId(const std::string& frame) {
  if (frame.size() != sizeof(uint64_t)) return std::nullopt;
  uint64_t id = 0;
  std::memcpy(&id, frame.data(), sizeof(id));
  return id;
}

}  // namespace

struct CompileRelay::Impl {
  RemotePreparerOptions options;
  net::ZmqContext ctx;
  net::ZmqSocket socket;
  UniqueFd wake_fd;
  std::thread thread;

  // Shared with Forward, under mu.
  mutable std::mutex mu;
  std::deque<std::pair<std::string, CompileRelay::Answer>> incoming;
  bool stopping = false;
  Stats stats;

  // The relay's thread only.
  struct Pending {
    CompileRelay::Answer answer;
    SteadyClock::time_point deadline;
  };
  std::map<uint64_t, Pending> pending;
  uint64_t next_id = 1;
  std::optional<SteadyClock::time_point> quiet_until;

  void Wake() {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake_fd.get(), &one, sizeof(one));
  }
  void Reply(CompileRelay::Answer& a, std::string answer) {
    {
      std::lock_guard<std::mutex> l(mu);
      ++(answer.empty() ? stats.unanswered : stats.answered);
    }
    a(std::move(answer));
  }
  // Sends what Forward queued; while the server is quiet, answers it "" at once.
  void SendIncoming() {
    std::deque<std::pair<std::string, CompileRelay::Answer>> batch;
    {
      std::lock_guard<std::mutex> l(mu);
      batch.swap(incoming);
    }
    const SteadyClock::time_point now = SteadyClock::now();
    for (auto& [request, answer] : batch) {
      if (quiet_until && now < *quiet_until) {
        Reply(answer, "");
        continue;
      }
      const uint64_t id = next_id++;
      // a full queue (the server unreachable for long) is the same as no answer
      if (!socket.Send({Tag(id), std::move(request)}, net::SendMode::kDontWait).ok()) {
        Reply(answer, "");
        continue;
      }
      {
        std::lock_guard<std::mutex> l(mu);
        ++stats.forwarded;
      }
      pending.emplace(id, Pending{std::move(answer), now + FromSeconds(options.reply_timeout_s)});
    }
  }
  void ReceiveAnswers() {
    for (;;) {
      absl::StatusOr<net::Frames> in = socket.TryReceive();
      if (!in.ok()) return;
      if (in->size() != 2) continue;
      std::optional<uint64_t> id = TagId((*in)[0]);
      auto it = id ? pending.find(*id) : pending.end();
      if (it == pending.end()) continue;  // answered "" already (timed out)
      Reply(it->second.answer, std::move((*in)[1]));
      pending.erase(it);
    }
  }
  // Answers "" what waited too long; the server is then left alone for retry_after_s.
  void ExpirePending() {
    const SteadyClock::time_point now = SteadyClock::now();
    bool expired = false;
    for (auto it = pending.begin(); it != pending.end();) {
      if (it->second.deadline > now) {
        ++it;
        continue;
      }
      Reply(it->second.answer, "");
      it = pending.erase(it);
      expired = true;
    }
    if (expired) quiet_until = now + FromSeconds(options.retry_after_s);
  }
  void Loop() {
    pthread_setname_np(pthread_self(), "tg-compile-relay");
    for (;;) {
      {
        std::lock_guard<std::mutex> l(mu);
        if (stopping) return;
      }
      SendIncoming();
      ReceiveAnswers();
      ExpirePending();
      std::chrono::milliseconds wait(-1);
      for (const auto& [id, p] : pending) {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(p.deadline - SteadyClock::now());
        if (wait.count() < 0 || left < wait) wait = std::max(left, std::chrono::milliseconds(0));
      }
      net::PollItem items[2] = {{.socket = &socket}, {.fd = wake_fd.get()}};
      absl::StatusOr<int> ready = net::Poll(items, wait);
      if (!ready.ok()) return;  // the context is going away
      if (items[1].readable) {
        uint64_t v;
        [[maybe_unused]] ssize_t r = read(wake_fd.get(), &v, sizeof(v));
      }
    }
  }
};

CompileRelay::CompileRelay(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

CompileRelay::~CompileRelay() {
  {
    std::lock_guard<std::mutex> l(impl_->mu);
    impl_->stopping = true;
  }
  impl_->Wake();
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_->socket.Close();
}

absl::StatusOr<std::unique_ptr<CompileRelay>> CompileRelay::Start(RemotePreparerOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  impl->wake_fd.reset(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (!impl->wake_fd) return absl::InternalError("compile relay: eventfd failed");
  ASSIGN_OR_RETURN(impl->socket, net::ZmqSocket::Create(impl->ctx, net::SocketType::kDealer));
  RETURN_IF_ERROR(net::ConfigureClient(impl->socket, impl->options.endpoint, impl->options.security));
  std::unique_ptr<CompileRelay> relay(new CompileRelay(std::move(impl)));
  Impl* i = relay->impl_.get();
  i->thread = std::thread([i] { i->Loop(); });
  return relay;
}

void CompileRelay::Forward(std::string request, Answer answer) {
  {
    std::lock_guard<std::mutex> l(impl_->mu);
    impl_->incoming.emplace_back(std::move(request), std::move(answer));
  }
  impl_->Wake();
}

CompileRelay::Stats CompileRelay::stats() const {
  std::lock_guard<std::mutex> l(impl_->mu);
  return impl_->stats;
}

}  // namespace tg::autotune
