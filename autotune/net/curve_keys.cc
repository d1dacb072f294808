// File: autotune/net/curve_keys.cc
#include "autotune/net/curve_keys.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "autotune/net/str_cat.h"
#include "absl/strings/str_format.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/unique_fd.h"

namespace tg::autotune::net {

using internal::Cat;
namespace {

constexpr std::string_view kPublicEntry = "curve-public-key";
constexpr std::string_view kSecretEntry = "curve-secret-key";
constexpr size_t kMaxKeyFileBytes = 64 * 1024;
constexpr size_t kMaxKeyListBytes = 16 * 1024 * 1024;

std::string Errno(int err) { return std::strerror(err); }

// Debian's Abseil has its own string_view (not std's): small local helpers instead of absl's.
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  return s;
}

std::string_view Trim(std::string_view s) {
  s = TrimLeft(s);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string ModeText(mode_t mode) { return absl::StrFormat("0%03o", mode & 07777); }

// Reads an open file of at most `max_bytes`.
absl::StatusOr<std::string> ReadAll(int fd, std::string_view path, size_t max_bytes) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return absl::UnavailableError(Cat("reading ", path, ": ", Errno(errno)));
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > max_bytes) {
      return absl::InvalidArgumentError(
          Cat(path, ": file is larger than ", max_bytes, " bytes; not a key file"));
    }
  }
  return out;
}

absl::Status OpenError(std::string_view path, int err) {
  std::string msg = Cat("cannot open ", path, ": ", Errno(err));
  if (err == ENOENT) return absl::NotFoundError(msg);
  if (err == EACCES) return absl::PermissionDeniedError(msg);
  return absl::UnavailableError(msg);
}

// Refuses a key list (file or directory) that group or others may modify, or that belongs to
// someone other than us or root: whoever can edit it can admit their own key to the farm.
absl::Status CheckNotWritableByOthers(std::string_view path, const struct stat& st) {
  const uid_t me = geteuid();
  if (st.st_uid != me && st.st_uid != 0) {
    return absl::PermissionDeniedError(Cat(
        path, " is owned by uid ", st.st_uid, ", not by the current user (uid ", me,
        ") or root; a key list must be controlled by the farm's owner"));
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return absl::PermissionDeniedError(Cat(
        path, " has mode ", ModeText(st.st_mode),
        ": group or others can modify this key list and admit their own keys; fix: chmod go-w ",
        path));
  }
  return absl::OkStatus();
}

// Writes `text` into a new file with exactly `mode`; fails if the file exists.
absl::Status WriteNewFile(const std::string& path, std::string_view text, mode_t mode) {
  UniqueFd fd(open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode));
  if (!fd) {
    if (errno == EEXIST) {
      return absl::AlreadyExistsError(Cat(path, " already exists; not overwriting it"));
    }
    return absl::UnavailableError(Cat("cannot create ", path, ": ", Errno(errno)));
  }
  // The umask may have removed bits from `mode`; set exactly what the format promises.
  if (fchmod(fd.get(), mode) != 0) {
    return absl::UnavailableError(Cat("chmod ", path, ": ", Errno(errno)));
  }
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return absl::UnavailableError(Cat("writing ", path, ": ", Errno(errno)));
    done += static_cast<size_t>(n);
  }
  if (fsync(fd.get()) != 0) {
    return absl::UnavailableError(Cat("fsync ", path, ": ", Errno(errno)));
  }
  return absl::OkStatus();
}

// One non-blank, non-comment line of a key file, split at the first '='.
struct Entry {
  std::string_view name;
  std::string_view value;
  int line = 0;
};

// Splits text into trimmed lines, numbering them from 1; CR before LF is dropped by the trim.
std::vector<std::pair<int, std::string_view>> Lines(std::string_view text) {
  std::vector<std::pair<int, std::string_view>> out;
  int n = 0;
  while (!text.empty() || n == 0) {
    const size_t end = std::min(text.find('\n'), text.size());
    out.emplace_back(++n, Trim(text.substr(0, end)));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return out;
}

// "VALUE [# comment]" -> VALUE; nullopt when something other than a comment follows.
std::optional<std::string_view> ValueToken(std::string_view rest) {
  rest = TrimLeft(rest);
  const size_t end = std::min(rest.find_first_of(" \t"), rest.size());
  std::string_view token = rest.substr(0, end);
  std::string_view tail = TrimLeft(rest.substr(end));
  if (!tail.empty() && tail.front() != '#') return std::nullopt;
  return token;
}

// Parses `NAME = VALUE [# comment]` lines (the .key format). Errors never echo a value: this
// also reads secret keys.
absl::StatusOr<std::vector<Entry>> ParseEntries(std::string_view text, std::string_view path) {
  std::vector<Entry> out;
  for (auto [n, line] : Lines(text)) {
    if (line.empty() || line.front() == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      return absl::InvalidArgumentError(Cat(
          path, ":", n, ": expected 'curve-public-key = KEY' or 'curve-secret-key = KEY'"));
    }
    std::string_view name = Trim(line.substr(0, eq));
    if (name != kPublicEntry && name != kSecretEntry) {
      return absl::InvalidArgumentError(
          Cat(path, ":", n, ": unknown entry '", name.substr(0, 40),
                       "' (expected curve-public-key or curve-secret-key)"));
    }
    std::optional<std::string_view> value = ValueToken(line.substr(eq + 1));
    if (!value.has_value() || !ValidateZ85Key(*value).ok()) {
      return absl::InvalidArgumentError(Cat(
          path, ":", n, ": the value of ", name, " is not one 40-character Z85 key"));
    }
    out.push_back(Entry{name, *value, n});
  }
  return out;
}

}  // namespace

absl::StatusOr<CurveKeyPair> GenerateCurveKeyPair() {
  char pub[kZ85KeyLength + 1] = {};
  char sec[kZ85KeyLength + 1] = {};
  if (zmq_curve_keypair(pub, sec) != 0) {
    return absl::UnimplementedError(Cat(
        "zmq_curve_keypair: ", zmq_strerror(zmq_errno()), " (is libzmq built with CURVE?)"));
  }
  CurveKeyPair kp{pub, sec};
  std::memset(sec, 0, sizeof sec);
  return kp;
}

absl::Status ValidateZ85Key(std::string_view key) {
  if (key.size() != kZ85KeyLength) {
    return absl::InvalidArgumentError(Cat("a CURVE key is ", kZ85KeyLength,
                                                   " Z85 characters, this one has ", key.size()));
  }
  std::string text(key);
  uint8_t bytes[32];
  if (zmq_z85_decode(bytes, text.c_str()) == nullptr) {
    return absl::InvalidArgumentError("a CURVE key must be Z85 text (ZeroMQ RFC 32)");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> DerivePublicKey(std::string_view secret_z85) {
  RETURN_IF_ERROR(ValidateZ85Key(secret_z85));
  std::string sec(secret_z85);
  char pub[kZ85KeyLength + 1] = {};
  if (zmq_curve_public(pub, sec.c_str()) != 0) {
    return absl::InvalidArgumentError(
        Cat("zmq_curve_public: ", zmq_strerror(zmq_errno())));
  }
  return std::string(pub);
}

std::string KeyPrefix(std::string_view public_z85) {
  return Cat(public_z85.substr(0, 8), public_z85.size() > 8 ? "..." : "");
}

absl::Status ValidateKeyName(std::string_view name) {
  const bool ok_chars = std::all_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
  if (name.empty() || name.size() > 128 || name.front() == '.' || !ok_chars) {
    return absl::InvalidArgumentError(Cat(
        "bad key name '", name.substr(0, 128),
        "': use letters, digits, '.', '_' and '-' (not starting with '.'), at most 128"));
  }
  return absl::OkStatus();
}

KeyFilePaths KeyFilePathsFor(std::string_view dir, std::string_view name) {
  std::string base = dir.empty() ? std::string(".") : std::string(dir);
  if (base.size() > 1 && base.back() == '/') base.pop_back();
  return KeyFilePaths{Cat(base, "/", name, ".key"), Cat(base, "/", name, ".pub")};
}

absl::StatusOr<KeyFilePaths> WriteKeyPairFiles(const CurveKeyPair& keys, std::string_view dir,
                                               std::string_view name) {
  RETURN_IF_ERROR(ValidateKeyName(name));
  RETURN_IF_ERROR(ValidateZ85Key(keys.public_z85));
  ASSIGN_OR_RETURN(std::string derived, DerivePublicKey(keys.secret_z85));
  if (derived != keys.public_z85) {
    return absl::InvalidArgumentError("the public key does not belong to the secret key");
  }
  KeyFilePaths paths = KeyFilePathsFor(dir, name);
  struct stat st;
  for (const std::string& p : {paths.secret_path, paths.public_path}) {
    if (lstat(p.c_str(), &st) == 0) {
      return absl::AlreadyExistsError(Cat(p, " already exists; not overwriting it"));
    }
  }
  const std::string secret_text = Cat(
      "# tinygrad-cc CURVE secret key '", name, "' (tg keygen).\n",
      "# Keep this file private (mode 0600). Share only ", name, ".pub.\n", kPublicEntry, " = ",
      keys.public_z85, "\n", kSecretEntry, " = ", keys.secret_z85, "\n");
  const std::string public_text =
      Cat("# tinygrad-cc CURVE public key '", name,
                   "' (tg keygen): add it to the farm's allowlist.\n", kPublicEntry, " = ",
                   keys.public_z85, "\n");
  RETURN_IF_ERROR(WriteNewFile(paths.secret_path, secret_text, 0600));
  if (absl::Status s = WriteNewFile(paths.public_path, public_text, 0644); !s.ok()) {
    unlink(paths.secret_path.c_str());
    return s;
  }
  return paths;
}

absl::StatusOr<CurveKeyPair> ReadSecretKeyFile(std::string_view path_view) {
  const std::string path(path_view);
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return OpenError(path, errno);
  // fstat on the open file: the checks apply to exactly what we read.
  struct stat st;
  if (fstat(fd.get(), &st) != 0) {
    return absl::UnavailableError(Cat("stat ", path, ": ", Errno(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(Cat(path, " is not a regular file"));
  }
  const uid_t me = geteuid();
  if (st.st_uid != me) {
    return absl::PermissionDeniedError(Cat(
        "secret key file ", path, " is owned by uid ", st.st_uid,
        ", not by the current user (uid ", me,
        "); a secret key must belong to the user who uses it: run as its owner, or copy it and "
        "chmod 600 the copy"));
  }
  if ((st.st_mode & 077) != 0) {
    return absl::PermissionDeniedError(Cat(
        "secret key file ", path, " has mode ", ModeText(st.st_mode),
        ": group or others can access it, so the key may be compromised; fix: chmod 600 ", path,
        " (and consider making a new key with tg keygen)"));
  }
  ASSIGN_OR_RETURN(std::string text, ReadAll(fd.get(), path, kMaxKeyFileBytes));
  ASSIGN_OR_RETURN(std::vector<Entry> entries, ParseEntries(text, path));
  CurveKeyPair kp;
  for (const Entry& e : entries) {
    std::string& slot = e.name == kPublicEntry ? kp.public_z85 : kp.secret_z85;
    if (!slot.empty()) {
      return absl::InvalidArgumentError(
          Cat(path, ":", e.line, ": ", e.name, " given twice"));
    }
    slot = std::string(e.value);
  }
  if (kp.secret_z85.empty()) {
    return absl::InvalidArgumentError(Cat(path, ": no ", kSecretEntry,
                                                   " line; is this a .pub file?"));
  }
  ASSIGN_OR_RETURN(std::string derived, DerivePublicKey(kp.secret_z85));
  if (kp.public_z85.empty()) {
    kp.public_z85 = derived;  // the public half is optional: it follows from the secret
  } else if (kp.public_z85 != derived) {
    return absl::InvalidArgumentError(
        Cat(path, ": ", kPublicEntry, " does not belong to ", kSecretEntry));
  }
  return kp;
}

absl::StatusOr<std::string> ReadPublicKeyFile(std::string_view path_view) {
  const std::string path(path_view);
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return OpenError(path, errno);
  ASSIGN_OR_RETURN(std::string text, ReadAll(fd.get(), path, kMaxKeyFileBytes));
  if (text.find(kSecretEntry) != std::string::npos) {
    return absl::InvalidArgumentError(Cat(
        path, " holds a secret key; a .pub file must hold only the public key"));
  }
  ASSIGN_OR_RETURN(KeyList list, ParseKeyList(text, path));
  if (list.size() != 1) {
    return absl::InvalidArgumentError(
        Cat(path, ": a public key file holds exactly one key, this one has ", list.size()));
  }
  return list.entries().begin()->first;
}

std::string KeyList::Origin(std::string_view key) const {
  auto it = keys_.find(std::string(key));
  return it == keys_.end() ? "" : it->second;
}

void KeyList::Add(std::string key, std::string origin) {
  keys_.emplace(std::move(key), std::move(origin));
}

bool KeyList::Remove(std::string_view key) { return keys_.erase(std::string(key)) > 0; }

absl::StatusOr<KeyList> ParseKeyList(std::string_view text, std::string_view origin) {
  KeyList list;
  for (auto [n, line] : Lines(text)) {
    // '#' is a Z85 character, but a key starting with it would overflow 32 bits (invalid).
    if (line.empty() || line.front() == '#') continue;
    std::optional<std::string_view> key;
    if (line.starts_with(kPublicEntry)) {
      std::string_view rest = TrimLeft(line.substr(kPublicEntry.size()));
      if (!rest.empty() && rest.front() == '=') key = ValueToken(rest.substr(1));
      if (!key.has_value() || !ValidateZ85Key(*key).ok()) {
        return absl::InvalidArgumentError(Cat(
            origin, ":", n, ": expected 'curve-public-key = KEY' with a 40-character Z85 key"));
      }
    } else {
      key = ValueToken(line);
    }
    if (!key.has_value() || !ValidateZ85Key(*key).ok()) {
      return absl::InvalidArgumentError(Cat(
          origin, ":", n,
          ": not a key: expected a 40-character Z85 public key, 'curve-public-key = KEY', or a "
          "'#' comment"));
    }
    list.Add(std::string(*key), Cat(origin, ":", n));
  }
  return list;
}

absl::StatusOr<KeyList> LoadKeyList(std::string_view path_view) {
  const std::string path(path_view);
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return OpenError(path, errno);
  RETURN_IF_ERROR(CheckNotWritableByOthers(path, st));
  if (!S_ISDIR(st.st_mode)) {
    UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) return OpenError(path, errno);
    ASSIGN_OR_RETURN(std::string text, ReadAll(fd.get(), path, kMaxKeyListBytes));
    return ParseKeyList(text, path);
  }
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) return OpenError(path, errno);
  std::vector<std::string> names;
  while (struct dirent* e = readdir(dir)) {
    std::string_view name = e->d_name;
    if (!name.empty() && name.front() != '.' && name.ends_with(".pub")) {
      names.emplace_back(name);
    }
  }
  closedir(dir);
  std::sort(names.begin(), names.end());  // deterministic origins for keys listed twice
  KeyList list;
  for (const std::string& name : names) {
    const std::string file = Cat(path, "/", name);
    UniqueFd fd(open(file.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) return OpenError(file, errno);
    if (fstat(fd.get(), &st) != 0) {
      return absl::UnavailableError(Cat("stat ", file, ": ", Errno(errno)));
    }
    if (!S_ISREG(st.st_mode)) continue;
    RETURN_IF_ERROR(CheckNotWritableByOthers(file, st));
    ASSIGN_OR_RETURN(std::string text, ReadAll(fd.get(), file, kMaxKeyFileBytes));
    ASSIGN_OR_RETURN(KeyList one, ParseKeyList(text, name));
    for (const auto& [key, origin] : one.entries()) list.Add(key, origin);
  }
  return list;
}

}  // namespace tg::autotune::net
