// File: autotune/net/curve_keys_test.cc
#include "autotune/net/curve_keys.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace tg::autotune::net {
namespace {

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

bool Has(const absl::Status& s, std::string_view text) {
  return Msg(s).find(text) != std::string::npos;
}

// A fresh directory under the test's temp dir.
std::string TempDir(std::string_view name) {
  const char* root = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(root != nullptr ? root : "/tmp") + "/" + std::string(name);
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return dir;
}

void WriteFile(const std::string& path, const std::string& text, mode_t mode) {
  std::ofstream(path) << text;
  ASSERT_EQ(chmod(path.c_str(), mode), 0);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(stat(path.c_str(), &st), 0);
  return st.st_mode & 07777;
}

CurveKeyPair NewPair() {
  absl::StatusOr<CurveKeyPair> kp = GenerateCurveKeyPair();
  EXPECT_TRUE(kp.ok()) << kp.status();
  return *kp;
}

TEST(CurveKeysTest, GeneratedPairsAreValidAndDistinct) {
  CurveKeyPair a = NewPair(), b = NewPair();
  EXPECT_EQ(a.public_z85.size(), kZ85KeyLength);
  EXPECT_TRUE(ValidateZ85Key(a.public_z85).ok());
  EXPECT_TRUE(ValidateZ85Key(a.secret_z85).ok());
  EXPECT_NE(a.public_z85, b.public_z85);
  EXPECT_NE(a.secret_z85, b.secret_z85);
  EXPECT_EQ(*DerivePublicKey(a.secret_z85), a.public_z85);
  EXPECT_EQ(KeyPrefix(a.public_z85), a.public_z85.substr(0, 8) + "...");
}

TEST(CurveKeysTest, ValidateZ85KeyRejectsWrongLengthAndAlphabet) {
  EXPECT_FALSE(ValidateZ85Key("short").ok());
  EXPECT_FALSE(ValidateZ85Key(std::string(41, '0')).ok());
  EXPECT_TRUE(ValidateZ85Key(std::string(40, '0')).ok());
  EXPECT_FALSE(ValidateZ85Key(std::string(39, '0') + "~").ok());  // '~' is not Z85
  EXPECT_FALSE(ValidateZ85Key("#" + std::string(39, '0')).ok());  // overflows 32 bits
}

TEST(CurveKeysTest, KeyPairFilesRoundTripWithTheirModes) {
  const std::string dir = TempDir("roundtrip");
  const CurveKeyPair kp = NewPair();
  absl::StatusOr<KeyFilePaths> paths = WriteKeyPairFiles(kp, dir, "worker-1");
  ASSERT_TRUE(paths.ok()) << paths.status();
  EXPECT_EQ(paths->secret_path, dir + "/worker-1.key");
  EXPECT_EQ(paths->public_path, dir + "/worker-1.pub");
  EXPECT_EQ(ModeOf(paths->secret_path), 0600u);
  EXPECT_EQ(ModeOf(paths->public_path), 0644u);

  const std::string secret_text = ReadFile(paths->secret_path);
  EXPECT_NE(secret_text.find("curve-public-key = " + kp.public_z85 + "\n"), std::string::npos);
  EXPECT_NE(secret_text.find("curve-secret-key = " + kp.secret_z85 + "\n"), std::string::npos);
  const std::string public_text = ReadFile(paths->public_path);
  EXPECT_NE(public_text.find("curve-public-key = " + kp.public_z85), std::string::npos);
  EXPECT_EQ(public_text.find(kp.secret_z85), std::string::npos);

  absl::StatusOr<CurveKeyPair> back = ReadSecretKeyFile(paths->secret_path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->public_z85, kp.public_z85);
  EXPECT_EQ(back->secret_z85, kp.secret_z85);
  absl::StatusOr<std::string> pub = ReadPublicKeyFile(paths->public_path);
  ASSERT_TRUE(pub.ok()) << pub.status();
  EXPECT_EQ(*pub, kp.public_z85);
}

TEST(CurveKeysTest, WritingRefusesToOverwriteAndBadNames) {
  const std::string dir = TempDir("overwrite");
  const CurveKeyPair first = NewPair();
  ASSERT_TRUE(WriteKeyPairFiles(first, dir, "farm").ok());
  absl::StatusOr<KeyFilePaths> again = WriteKeyPairFiles(NewPair(), dir, "farm");
  EXPECT_EQ(again.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_TRUE(Has(again.status(), "farm.key")) << again.status();
  EXPECT_EQ(ReadSecretKeyFile(dir + "/farm.key")->secret_z85, first.secret_z85);

  // Only the .pub exists: still refused, and no .key is left behind.
  WriteFile(dir + "/lonely.pub", "x", 0644);
  EXPECT_EQ(WriteKeyPairFiles(NewPair(), dir, "lonely").status().code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_NE(access((dir + "/lonely.key").c_str(), F_OK), 0);

  for (const char* bad : {"", ".hidden", "a/b", "sp ace", "../up"}) {
    EXPECT_EQ(WriteKeyPairFiles(NewPair(), dir, bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
  CurveKeyPair mismatched = NewPair();
  mismatched.public_z85 = NewPair().public_z85;
  EXPECT_FALSE(WriteKeyPairFiles(mismatched, dir, "mismatched").ok());
}

TEST(CurveKeysTest, SecretKeyFileAccessibleByOthersIsRefused) {
  const std::string dir = TempDir("perms");
  ASSERT_TRUE(WriteKeyPairFiles(NewPair(), dir, "k").ok());
  const std::string path = dir + "/k.key";
  for (mode_t mode : {0640, 0604, 0660, 0644, 0700 | 0004}) {
    ASSERT_EQ(chmod(path.c_str(), mode), 0);
    absl::StatusOr<CurveKeyPair> r = ReadSecretKeyFile(path);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied) << mode;
    EXPECT_TRUE(Has(r.status(), path)) << r.status();
    char mode_text[8];
    std::snprintf(mode_text, sizeof mode_text, "0%03o", mode);
    EXPECT_TRUE(Has(r.status(), mode_text)) << r.status();
    EXPECT_TRUE(Has(r.status(), "chmod 600 " + path)) << r.status();
  }
  ASSERT_EQ(chmod(path.c_str(), 0400), 0);  // read-only for the owner is fine
  EXPECT_TRUE(ReadSecretKeyFile(path).ok());
}

TEST(CurveKeysTest, SecretKeyFileOfAnotherUserIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
  const std::string dir = TempDir("owner");
  ASSERT_TRUE(WriteKeyPairFiles(NewPair(), dir, "k").ok());
  const std::string path = dir + "/k.key";
  if (chown(path.c_str(), 12345, 12345) != 0) {
    // Bazel's sandbox maps only our own uid: there is no other user to give the file to.
    GTEST_SKIP() << "chown to another uid failed here: " << std::strerror(errno);
  }
  absl::StatusOr<CurveKeyPair> r = ReadSecretKeyFile(path);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(Has(r.status(), "owned by uid 12345")) << r.status();
  EXPECT_TRUE(Has(r.status(), path)) << r.status();
}

TEST(CurveKeysTest, MalformedSecretKeyFilesNameFileAndLine) {
  const std::string dir = TempDir("malformed");
  const CurveKeyPair kp = NewPair();
  const std::string pub_line = "curve-public-key = " + kp.public_z85 + "\n";
  const std::string sec_line = "curve-secret-key = " + kp.secret_z85 + "\n";
  struct Case {
    std::string text;
    std::string want;
  };
  const Case cases[] = {
      {"# c\n" + pub_line + "colour = blue\n", ":3: unknown entry 'colour'"},
      {pub_line + "curve-secret-key = tooshort\n", ":2: the value of curve-secret-key"},
      {pub_line + "just some words\n", ":2: expected"},
      {pub_line + sec_line + sec_line, ":3: curve-secret-key given twice"},
      {pub_line, "no curve-secret-key line"},
      {"curve-public-key = " + NewPair().public_z85 + "\n" + sec_line, "does not belong"},
      {sec_line.substr(0, sec_line.size() - 1) + " trailing\n", ":1: the value of"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string path = dir + "/bad" + std::to_string(i++) + ".key";
    WriteFile(path, c.text, 0600);
    absl::StatusOr<CurveKeyPair> r = ReadSecretKeyFile(path);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_TRUE(Has(r.status(), path)) << r.status();
    EXPECT_TRUE(Has(r.status(), c.want)) << r.status() << " wanted " << c.want;
    EXPECT_FALSE(Has(r.status(), kp.secret_z85)) << "error echoes the secret";
  }
  // A secret file with the optional public line left out; CRLF line ends; trailing comments.
  const std::string path = dir + "/ok.key";
  WriteFile(path, "# mine\r\n" + sec_line.substr(0, sec_line.size() - 1) + "  # note\r\n", 0600);
  absl::StatusOr<CurveKeyPair> r = ReadSecretKeyFile(path);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->public_z85, kp.public_z85);

  EXPECT_EQ(ReadSecretKeyFile(dir + "/missing.key").status().code(), absl::StatusCode::kNotFound);
  // A .pub must not carry a secret.
  WriteFile(dir + "/leak.pub", pub_line + sec_line, 0644);
  EXPECT_TRUE(Has(ReadPublicKeyFile(dir + "/leak.pub").status(), "holds a secret key"));
}

TEST(CurveKeysTest, KeyListFileFormat) {
  const std::string a = NewPair().public_z85, b = NewPair().public_z85, c = NewPair().public_z85;
  const std::string text = "# farm workers\n\n" + a + "\n  " + b + "   # laptop\ncurve-public-key = " +
                           c + "\n" + a + "\n";
  absl::StatusOr<KeyList> list = ParseKeyList(text, "allow.txt");
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->size(), 3u);
  EXPECT_TRUE(list->Contains(a));
  EXPECT_TRUE(list->Contains(b));
  EXPECT_TRUE(list->Contains(c));
  EXPECT_EQ(list->Origin(a), "allow.txt:3");  // the first listing wins
  EXPECT_EQ(list->Origin(b), "allow.txt:4");
  EXPECT_FALSE(list->Contains(NewPair().public_z85));

  absl::StatusOr<KeyList> bad = ParseKeyList(a + "\nnot-a-key\n", "allow.txt");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Has(bad.status(), "allow.txt:2: not a key")) << bad.status();
  bad = ParseKeyList(a + " trailing words\n", "allow.txt");
  EXPECT_TRUE(Has(bad.status(), "allow.txt:1")) << bad.status();
  bad = ParseKeyList("curve-public-key " + a + "\n", "allow.txt");
  EXPECT_TRUE(Has(bad.status(), "allow.txt:1: expected 'curve-public-key = KEY'")) << bad.status();
  EXPECT_TRUE(ParseKeyList("", "empty").ok());
}

TEST(CurveKeysTest, KeyListFromDirectoryAndFile) {
  const std::string dir = TempDir("allow.d");
  const CurveKeyPair w1 = NewPair(), w2 = NewPair();
  ASSERT_TRUE(WriteKeyPairFiles(w1, dir, "w1").ok());
  ASSERT_TRUE(WriteKeyPairFiles(w2, dir, "w2").ok());
  // Secret .key files in the directory are not read: only *.pub.
  ASSERT_EQ(chmod(dir.c_str(), 0755), 0);
  absl::StatusOr<KeyList> list = LoadKeyList(dir);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->size(), 2u);
  EXPECT_TRUE(list->Contains(w1.public_z85));
  EXPECT_EQ(list->Origin(w2.public_z85), "w2.pub:2");

  // A list others may edit is refused: file, directory.
  ASSERT_EQ(chmod((dir + "/w1.pub").c_str(), 0666), 0);
  absl::StatusOr<KeyList> r = LoadKeyList(dir);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(Has(r.status(), "w1.pub has mode 0666")) << r.status();
  ASSERT_EQ(chmod((dir + "/w1.pub").c_str(), 0644), 0);
  ASSERT_EQ(chmod(dir.c_str(), 0777), 0);
  r = LoadKeyList(dir);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(Has(r.status(), "chmod go-w")) << r.status();
  ASSERT_EQ(chmod(dir.c_str(), 0700), 0);

  const std::string file = TempDir("lists") + "/revoked.txt";
  WriteFile(file, "# revoked\n" + w2.public_z85 + "\n", 0644);
  r = LoadKeyList(file);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->Contains(w2.public_z85));
  EXPECT_EQ(LoadKeyList(file + ".missing").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tg::autotune::net
