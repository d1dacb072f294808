// File: autotune/net/curve_keys.h
// CURVE (CurveZMQ, Curve25519) key pairs for the farm: generation, key files with safe
// permissions, allowlists and revocation lists of public keys.
//
// Key file formats (text, UTF-8, '\n' or "\r\n" line ends; blank lines and lines starting
// with '#' are comments):
//
//   NAME.key  (secret; mode 0600, owned by the user who reads it; holds both halves)
//     # tinygrad-cc CURVE secret key ...
//     curve-public-key = <40-character Z85 key>
//     curve-secret-key = <40-character Z85 key>
//
//   NAME.pub  (public; mode 0644; give it to the other side's allowlist)
//     # tinygrad-cc CURVE public key ...
//     curve-public-key = <40-character Z85 key>
//
// Key lists (an allowlist of client keys, or a revocation list) are either a directory whose
// *.pub files each hold keys, or one file with one key per line: a bare 40-character Z85 key,
// or a `curve-public-key = KEY` line (so .pub files can simply be concatenated); either may be
// followed by spaces and a `# comment`. ('#' is a Z85 character, but no valid key starts with
// it: '#' opening a 5-character group overflows 32 bits, so '#' lines are never keys.)
//
// Key lists must not be writable by group or others (whoever can edit the allowlist can join
// the farm); secret key files must not be readable by them either.
#ifndef AUTOTUNE_NET_CURVE_KEYS_H_
#define AUTOTUNE_NET_CURVE_KEYS_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tg::autotune::net {

inline constexpr size_t kZ85KeyLength = 40;  // Z85 text of a 32-byte key

struct CurveKeyPair {
  std::string public_z85;
  std::string secret_z85;
};

absl::StatusOr<CurveKeyPair> GenerateCurveKeyPair();
// OK when `key` is 40 Z85 characters that decode to 32 bytes. Never echoes the key.
absl::Status ValidateZ85Key(std::string_view key);
// The public half of a secret key (zmq_curve_public).
absl::StatusOr<std::string> DerivePublicKey(std::string_view secret_z85);
// The first 8 characters, for logs ("rq:rM>}U…"): enough to tell keys apart, never a secret.
std::string KeyPrefix(std::string_view public_z85);

struct KeyFilePaths {
  std::string secret_path;  // DIR/NAME.key
  std::string public_path;  // DIR/NAME.pub
};

// NAME: letters, digits, '.', '_', '-'; not starting with '.'; at most 128 characters.
absl::Status ValidateKeyName(std::string_view name);
KeyFilePaths KeyFilePathsFor(std::string_view dir, std::string_view name);
// Writes DIR/NAME.key (0600) and DIR/NAME.pub (0644). Refuses to overwrite either file; on a
// failure nothing is left behind.
absl::StatusOr<KeyFilePaths> WriteKeyPairFiles(const CurveKeyPair& keys, std::string_view dir,
                                               std::string_view name);
// Reads a NAME.key file. Refused when the file is not a regular file, is not owned by the
// current user, or is readable/writable by group or others (the error says how to fix it), or
// when its public key is not the secret key's.
absl::StatusOr<CurveKeyPair> ReadSecretKeyFile(std::string_view path);
// Reads a NAME.pub file (exactly one key).
absl::StatusOr<std::string> ReadPublicKeyFile(std::string_view path);

// A set of public keys, each with where it came from ("alice.pub", "allow.txt:12").
class KeyList {
 public:
  bool Contains(std::string_view key) const { return keys_.find(std::string(key)) != keys_.end(); }
  // The origin of `key`, or "" when absent.
  std::string Origin(std::string_view key) const;
  // Keeps the first origin of a key listed twice.
  void Add(std::string key, std::string origin);
  bool Remove(std::string_view key);
  size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.empty(); }
  const std::map<std::string, std::string>& entries() const { return keys_; }

 private:
  std::map<std::string, std::string> keys_;  // key -> origin
};

// Parses key-list text; `origin` names it in errors ("FILE:LINE: ...") and in entry origins.
absl::StatusOr<KeyList> ParseKeyList(std::string_view text, std::string_view origin);
// Loads a directory of *.pub files or one key-list file (see the format above).
absl::StatusOr<KeyList> LoadKeyList(std::string_view path);

}  // namespace tg::autotune::net

#endif  // AUTOTUNE_NET_CURVE_KEYS_H_
