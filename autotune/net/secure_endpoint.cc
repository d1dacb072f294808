// File: autotune/net/secure_endpoint.cc
#include "autotune/net/secure_endpoint.h"

#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "autotune/net/str_cat.h"
#include "absl/strings/str_format.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::net {

using internal::Cat;
namespace {

// Debian's zmq.h declares ZMQ_ZAP_ENFORCE_DOMAIN only under ZMQ_BUILD_DRAFT_API, but libzmq
// 4.3.4 accepts the option (value 93) in every build; the tests check that it takes effect.
#ifdef ZMQ_ZAP_ENFORCE_DOMAIN
constexpr int kZapEnforceDomain = ZMQ_ZAP_ENFORCE_DOMAIN;
#else
constexpr int kZapEnforceDomain = 93;
#endif

enum class Transport { kTcp, kIpc, kInproc };

absl::StatusOr<Transport> TransportOf(std::string_view endpoint) {
  if (endpoint.starts_with("tcp://")) return Transport::kTcp;
  if (endpoint.starts_with("ipc://")) return Transport::kIpc;
  if (endpoint.starts_with("inproc://")) return Transport::kInproc;
  return absl::InvalidArgumentError(Cat(
      "unsupported farm endpoint '", endpoint, "': use tcp://, ipc:// or inproc://"));
}

void WarnInsecure(std::string_view endpoint, std::string_view extra) {
  std::fprintf(stderr,
               "tg: WARNING: farm traffic on %.*s is neither authenticated nor encrypted%.*s "
               "(--insecure); anyone who can reach it can send kernels to run\n",
               static_cast<int>(endpoint.size()), endpoint.data(),
               static_cast<int>(extra.size()), extra.data());
}

// The directory of an ipc:// path ("." for a bare file name).
std::string IpcDirectory(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  if (slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

// Validates the combination of options; `server` selects the role.
absl::Status CheckOptions(std::string_view endpoint, Transport t, const SecurityOptions& o,
                          bool server) {
  const bool curve = o.curve_keys.has_value();
  if (curve && o.insecure) {
    return absl::InvalidArgumentError(Cat(
        endpoint, ": CURVE keys and --insecure together; choose one"));
  }
  if (curve) {
    ASSIGN_OR_RETURN(std::string derived, DerivePublicKey(o.curve_keys->secret_z85));
    if (derived != o.curve_keys->public_z85) {
      return absl::InvalidArgumentError(
          Cat(endpoint, ": our public CURVE key does not belong to our secret key"));
    }
  }
  if (server) {
    if (!o.server_public_key.empty()) {
      return absl::InvalidArgumentError(Cat(
          endpoint, ": a server public key is for clients; a server uses its own key pair"));
    }
    if (curve && o.zap == nullptr) {
      return absl::InvalidArgumentError(Cat(
          endpoint, ": a CURVE server needs a ZAP handler with an allowlist of client keys "
                    "(without one libzmq admits any client that knows the server key)"));
    }
    if (!curve && o.zap != nullptr) {
      return absl::InvalidArgumentError(Cat(
          endpoint, ": a ZAP handler only admits CURVE clients; give the server its key pair"));
    }
  } else {
    if (o.zap != nullptr) {
      return absl::InvalidArgumentError(
          Cat(endpoint, ": a ZAP handler is for servers, not clients"));
    }
    if (curve && o.server_public_key.empty()) {
      return absl::InvalidArgumentError(Cat(
          endpoint, ": a CURVE client needs the server's public key (its .pub file)"));
    }
    if (!curve && !o.server_public_key.empty()) {
      return absl::InvalidArgumentError(Cat(
          endpoint, ": a server public key without our own key pair; give the client its "
                    "key pair (tg keygen)"));
    }
    if (!o.server_public_key.empty()) {
      if (absl::Status s = ValidateZ85Key(o.server_public_key); !s.ok()) {
        return absl::InvalidArgumentError(
            Cat(endpoint, ": bad server public key: ", s.message()));
      }
    }
  }
  if (t == Transport::kIpc) {
    // sockaddr_un.sun_path is 108 bytes with the NUL; libzmq's own error is a bare ENAMETOOLONG.
    const size_t len = endpoint.size() - std::strlen("ipc://");
    if (len > 107) {
      return absl::InvalidArgumentError(Cat(endpoint, ": the socket path is ", len,
                                            " bytes; Unix sockets allow at most 107"));
    }
  }
  if (curve || o.insecure) return absl::OkStatus();
  if (t == Transport::kTcp) {
    return absl::FailedPreconditionError(Cat(
        endpoint, " needs CURVE: farm traffic over TCP must be authenticated and encrypted; "
                  "make keys with `tg keygen` and pass them, or pass --insecure to accept "
                  "unauthenticated, unencrypted traffic"));
  }
  if (t == Transport::kIpc) {
    std::string_view path = endpoint.substr(std::strlen("ipc://"));
    if (path.starts_with("@") || path.empty()) {
      return absl::FailedPreconditionError(Cat(
          endpoint, ": an abstract or unnamed ipc socket has no file permissions to rely on; "
                    "use a path in a private directory, or CURVE"));
    }
    // Relying on file permissions: only this user may reach the socket file.
    if (absl::Status s = EnsurePrivateDirectory(IpcDirectory(path), /*create=*/server);
        !s.ok()) {
      return absl::Status(s.code(), Cat(endpoint, " without CURVE: ", s.message()));
    }
  }
  return absl::OkStatus();
}

// ZMQ_MAXMSGSIZE is an int64_t option (SetIntOption sets ints).
absl::Status SetMaxMessageSize(ZmqSocket& socket, int64_t bytes) {
  if (zmq_setsockopt(socket.raw(), ZMQ_MAXMSGSIZE, &bytes, sizeof bytes) != 0) {
    return ZmqError("zmq_setsockopt(ZMQ_MAXMSGSIZE)");
  }
  return absl::OkStatus();
}

}  // namespace

SecurityOptions SecurityOptions::CurveServer(CurveKeyPair keys, ZapHandler* zap) {
  SecurityOptions o;
  o.curve_keys = std::move(keys);
  o.zap = zap;
  return o;
}

SecurityOptions SecurityOptions::CurveClient(CurveKeyPair keys, std::string server_public_key) {
  SecurityOptions o;
  o.curve_keys = std::move(keys);
  o.server_public_key = std::move(server_public_key);
  return o;
}

SecurityOptions SecurityOptions::Insecure() {
  SecurityOptions o;
  o.insecure = true;
  return o;
}

absl::Status EnsurePrivateDirectory(std::string_view dir_view, bool create) {
  const std::string dir(dir_view);
  struct stat st;
  if (lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT || !create) {
      return absl::FailedPreconditionError(
          Cat("socket directory ", dir, ": ", std::strerror(errno)));
    }
    // Make each missing component, all 0700 (mkdir -p -m 700).
    for (size_t pos = 1; pos <= dir.size(); ++pos) {
      if (pos != dir.size() && dir[pos] != '/') continue;
      const std::string prefix = dir.substr(0, pos);
      if (mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
        return absl::FailedPreconditionError(
            Cat("cannot create socket directory ", prefix, ": ", std::strerror(errno)));
      }
    }
    if (lstat(dir.c_str(), &st) != 0) {
      return absl::FailedPreconditionError(
          Cat("socket directory ", dir, ": ", std::strerror(errno)));
    }
  }
  if (S_ISLNK(st.st_mode)) {
    return absl::FailedPreconditionError(Cat(
        "socket directory ", dir, " is a symbolic link; use the real directory"));
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(Cat(dir, " is not a directory"));
  }
  if (st.st_uid != geteuid()) {
    return absl::PermissionDeniedError(Cat(
        "socket directory ", dir, " is owned by uid ", st.st_uid, ", not by us (uid ", geteuid(),
        "); use a directory of your own"));
  }
  if ((st.st_mode & 077) != 0) {
    return absl::PermissionDeniedError(absl::StrFormat(
        "socket directory %s has mode 0%03o, so other users may reach the farm socket; "
        "fix: chmod 700 %s (or use CURVE)",
        dir, st.st_mode & 07777, dir));
  }
  return absl::OkStatus();
}

absl::Status ConfigureServer(ZmqSocket& socket, std::string_view endpoint,
                             const SecurityOptions& opts) {
  ASSIGN_OR_RETURN(Transport t, TransportOf(endpoint));
  RETURN_IF_ERROR(CheckOptions(endpoint, t, opts, /*server=*/true));
  RETURN_IF_ERROR(SetMaxMessageSize(socket, opts.max_message_bytes));
  if (opts.curve_keys.has_value()) {
    if (opts.zap->context() != socket.context()) {
      return absl::InvalidArgumentError(Cat(
          endpoint, ": the ZAP handler runs on another ZeroMQ context than this socket"));
    }
    if (!opts.zap->running()) {
      return absl::FailedPreconditionError(
          Cat(endpoint, ": the ZAP handler is not running"));
    }
    RETURN_IF_ERROR(socket.SetIntOption(ZMQ_CURVE_SERVER, 1));
    RETURN_IF_ERROR(socket.SetBytesOption(ZMQ_CURVE_SECRETKEY, opts.curve_keys->secret_z85));
    RETURN_IF_ERROR(socket.SetBytesOption(ZMQ_ZAP_DOMAIN, opts.zap->domain()));
    // Without this a handshake with no ZAP handler answering succeeds (libzmq's default).
    RETURN_IF_ERROR(socket.SetIntOption(kZapEnforceDomain, 1));
  } else if (opts.insecure) {
    WarnInsecure(endpoint, t == Transport::kIpc ? ", and its directory is not checked" : "");
  }
  return socket.Bind(endpoint);
}

absl::Status ConfigureClient(ZmqSocket& socket, std::string_view endpoint,
                             const SecurityOptions& opts) {
  ASSIGN_OR_RETURN(Transport t, TransportOf(endpoint));
  RETURN_IF_ERROR(CheckOptions(endpoint, t, opts, /*server=*/false));
  RETURN_IF_ERROR(SetMaxMessageSize(socket, opts.max_message_bytes));
  if (opts.curve_keys.has_value()) {
    RETURN_IF_ERROR(socket.SetBytesOption(ZMQ_CURVE_SERVERKEY, opts.server_public_key));
    RETURN_IF_ERROR(socket.SetBytesOption(ZMQ_CURVE_PUBLICKEY, opts.curve_keys->public_z85));
    RETURN_IF_ERROR(socket.SetBytesOption(ZMQ_CURVE_SECRETKEY, opts.curve_keys->secret_z85));
  } else if (opts.insecure) {
    WarnInsecure(endpoint, t == Transport::kIpc ? ", and its directory is not checked" : "");
  }
  return socket.Connect(endpoint);
}

}  // namespace tg::autotune::net
