// File: autotune/codec/codec_fuzz_test.cc
// Seeded random mutation fuzzing of every decoder: bit flips, byte changes, truncations,
// splices, inserted/deleted words and inflated length fields over the seed corpus (in-process
// entries and tests/codec_corpus/). Every decoder gets every mutant; none may crash, abort,
// throw or leak (run under ASan too), and whatever decodes must re-encode to a message that
// decodes to the same value. Bounded by an iteration count and a wall-clock budget.
#include <chrono>
#include <cstring>
#include <limits>
#include <cstdio>
#include <random>

#include "absl/strings/match.h"
#include "autotune/codec/ast_codec.h"
#include "autotune/codec/compile_codec.h"
#include "autotune/codec/corpus.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/codec/message_io.h"
#include "autotune/codec/value_wire.h"
#include "autotune/codec/wire_enums.h"
#include "autotune/proto/kernel.capnp.h"
#include "gtest/gtest.h"

namespace tg::autotune::codec {
namespace {

constexpr int kMutants = 50000;
constexpr int kStructuredMutants = 20000;
constexpr double kBudgetS = 40;  // per test
const DecodeLimits kTrusted{.allow_source_text = true};

// Runs every decoder on `bytes`; returns how many accepted it.
int DecodeAll(const std::string& bytes) {
  int ok = 0;
  if (absl::StatusOr<UOp> u = DecodeAst(bytes); u.ok()) {
    ++ok;
    absl::StatusOr<UOp> again = DecodeAst(EncodeAst(*u));
    EXPECT_TRUE(again.ok() && *again == *u) << "AST re-encode differs: " << again.status() << "\nFIRST\n" << *u << "\nSECOND\n" << (again.ok() ? *again : UOp());
  }
  ok += DecodeAst(bytes, kTrusted).ok();  // interning past a CUSTOMI too
  if (absl::StatusOr<FarmMessage> m = DecodeFarmMessage(bytes); m.ok()) {
    ++ok;
    absl::StatusOr<FarmMessage> again = DecodeFarmMessage(EncodeFarmMessage(*m));
    EXPECT_TRUE(again.ok() && again->index() == m->index()) << "message re-encode differs";
  }
  if (absl::StatusOr<std::vector<Opt>> o = DecodeOpts(bytes); o.ok()) {
    ++ok;
    absl::StatusOr<std::vector<Opt>> again = DecodeOpts(EncodeOpts(*o));
    EXPECT_TRUE(again.ok() && *again == *o) << "opts re-encode differs";
  }
  if (absl::StatusOr<CompileMessage> m = DecodeCompileMessage(bytes); m.ok()) {
    ++ok;
    absl::StatusOr<CompileMessage> again = DecodeCompileMessage(EncodeCompileMessage(*m));
    EXPECT_TRUE(again.ok() && again->index() == m->index()) << "compile message re-encode differs";
  }
  ok += DecodeKernelTask(bytes).ok();
  ok += DecodeMeasureOptions(bytes).ok();
  ok += DecodeMeasureBatch(bytes).ok();
  ok += DecodeDeviceClass(bytes).ok();
  return ok;
}

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  std::string Mutate(const std::string& in, const std::string& other) {
    std::string b = in;
    int rounds = 1 + static_cast<int>(Uniform(3));
    for (int r = 0; r < rounds && !b.empty(); ++r) {
      switch (Uniform(8)) {
        case 0:  // flip bits
          for (int k = 0, n = 1 + static_cast<int>(Uniform(8)); k < n; ++k)
            b[Uniform(b.size())] ^= static_cast<char>(1 << Uniform(8));
          break;
        case 1: {  // set a byte to an interesting value
          static constexpr unsigned char kVals[] = {0, 1, 0x7f, 0x80, 0xff, 0xfe, 0x40, 0x20};
          b[Uniform(b.size())] = static_cast<char>(kVals[Uniform(std::size(kVals))]);
          break;
        }
        case 2:  // truncate (at a word boundary or anywhere)
          b.resize(Uniform(2) ? Uniform(b.size() / 8 + 1) * 8 : Uniform(b.size()));
          break;
        case 3: {  // splice: a prefix of this, a suffix of another
          size_t cut = Uniform(b.size() / 8 + 1) * 8, from = Uniform(other.size() / 8 + 1) * 8;
          b = b.substr(0, cut) + other.substr(std::min(from, other.size()));
          break;
        }
        case 4: {  // inflate a length field: pointer size bits of a random word
          size_t w = Uniform(b.size() / 8) * 8;
          if (w + 8 > b.size()) break;
          uint64_t v = Load(b, w);
          if ((v & 3) == 1) {
            v |= uint64_t{Uniform(2) ? 0x1FFFFFFFu : 0x00FFFFFFu} << 35;  // list element count
          } else if ((v & 3) == 0) {
            v |= uint64_t{0xFFFF} << (Uniform(2) ? 32 : 48);  // struct data / pointer words
          } else {
            v ^= uint64_t{1} << (32 + Uniform(32));
          }
          Store(&b, w, v);
          break;
        }
        case 5: {  // the segment table: segment count or a segment size
          if (b.size() < 8) break;
          uint64_t v = Load(b, 0);
          v ^= uint64_t{1} << Uniform(64);
          Store(&b, 0, v);
          break;
        }
        case 6: {  // insert or delete a word
          size_t w = Uniform(b.size() / 8 + 1) * 8;
          if (Uniform(2) && w + 8 <= b.size()) {
            b.erase(w, 8);
          } else {
            b.insert(std::min(w, b.size()), std::string(8, static_cast<char>(Uniform(256))));
          }
          break;
        }
        default: {  // duplicate a chunk
          size_t at = Uniform(b.size()), len = std::min<size_t>(Uniform(64) + 1, b.size() - at);
          b.insert(Uniform(b.size()), b.substr(at, len));
          break;
        }
      }
    }
    return b;
  }

 private:
  uint64_t Uniform(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  static uint64_t Load(const std::string& b, size_t at) {
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= uint64_t{static_cast<unsigned char>(b[at + k])} << (8 * k);
    return v;
  }
  static void Store(std::string* b, size_t at, uint64_t v) {
    for (int k = 0; k < 8; ++k) (*b)[at + k] = static_cast<char>((v >> (8 * k)) & 0xff);
  }
  std::mt19937_64 rng_;
};

// Whether the decoder the name says ("<root type>_...", "hostile_<root type>_...") accepts it.
// (Cap'n Proto is schema-less on the wire: a KernelAst read as MeasureOptions is just
// defaults, so only the labelled decoder's answer means anything.)
// "trusted_" ones with DecodeLimits::allow_source_text, the others as from the network.
bool OwnDecoderAccepts(const CorpusEntry& e) {
  absl::string_view n = e.name;
  if (absl::StartsWith(n, "hostile_")) n.remove_prefix(8);
  if (absl::StartsWith(n, "trusted_")) {
    n.remove_prefix(8);
    if (absl::StartsWith(n, "ast_")) return DecodeAst(e.bytes, kTrusted).ok();
    ADD_FAILURE() << "corpus file " << e.name << ": only ASTs are trusted";
    return false;
  }
  if (absl::StartsWith(n, "ast_")) return DecodeAst(e.bytes).ok();
  if (absl::StartsWith(n, "farm_")) return DecodeFarmMessage(e.bytes).ok();
  if (absl::StartsWith(n, "compile_")) return DecodeCompileMessage(e.bytes).ok();
  if (absl::StartsWith(n, "opts_")) return DecodeOpts(e.bytes).ok();
  if (absl::StartsWith(n, "task_")) return DecodeKernelTask(e.bytes).ok();
  if (absl::StartsWith(n, "device_")) return DecodeDeviceClass(e.bytes).ok();
  ADD_FAILURE() << "corpus file " << e.name << " has no known prefix";
  return false;
}

void ExpectLabelsHold(const std::vector<CorpusEntry>& entries) {
  for (const CorpusEntry& e : entries) {
    bool hostile = absl::StartsWith(e.name, "hostile_");
    EXPECT_EQ(OwnDecoderAccepts(e), !hostile) << e.name;
    DecodeAll(e.bytes);  // and no decoder crashes on it
  }
}

TEST(CodecFuzzTest, CommittedCorpusStillDecodesAsLabelled) {
  std::vector<CorpusEntry> files = CommittedCorpus();
  ASSERT_GE(files.size(), 20u);
  ExpectLabelsHold(files);
}

TEST(CodecFuzzTest, InProcessCorpusMatchesLabels) { ExpectLabelsHold(SeedCorpus()); }

TEST(CodecFuzzTest, MutantsNeverCrash) {
  std::vector<CorpusEntry> seeds = SeedCorpus();
  for (CorpusEntry& e : CommittedCorpus()) seeds.push_back(std::move(e));
  Mutator m(0x5eed0f7a11c0dec5ULL);
  auto start = std::chrono::steady_clock::now();
  int done = 0, accepted = 0;
  for (; done < kMutants; ++done) {
    if (done % 64 == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kBudgetS)
      break;
    const std::string& a = seeds[static_cast<size_t>(done) % seeds.size()].bytes;
    const std::string& b = seeds[static_cast<size_t>(done * 7 + 3) % seeds.size()].bytes;
    accepted += DecodeAll(m.Mutate(a, b)) > 0;
  }
  std::printf("%d mutants, %d accepted by some decoder, %.1f s\n", done, accepted,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  EXPECT_GE(done, 500);
}

// Structured mutations: valid Cap'n Proto, but random ops, dtypes, sources and args in an
// AST, so that the node checks (not the byte-level parser) are what stands between a hostile
// sender and UOp::Make's CHECKs.
TEST(CodecFuzzTest, StructuredAstMutantsNeverCrash) {
  std::vector<std::string> seeds;
  for (const CorpusEntry& e : SeedCorpus())
    if (absl::StartsWith(e.name, "ast_") || absl::StartsWith(e.name, "trusted_ast_")) seeds.push_back(e.bytes);
  ASSERT_FALSE(seeds.empty());
  std::mt19937_64 rng(0xa57a57a57ULL);
  auto uniform = [&](uint64_t n) { return n == 0 ? 0 : rng() % n; };
  auto start = std::chrono::steady_clock::now();
  int done = 0, accepted = 0, trusted = 0;
  for (; done < kStructuredMutants; ++done) {
    if (done % 64 == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kBudgetS)
      break;
    absl::StatusOr<UOp> seed = DecodeAst(seeds[uniform(seeds.size())], kTrusted);
    ASSERT_TRUE(seed.ok());
    capnp::MallocMessageBuilder m;
    // Re-encode into a builder we can edit.
    std::string bytes = EncodeAst(*seed);
    {
      kj::Array<capnp::word> words = kj::heapArray<capnp::word>(bytes.size() / 8);
      std::memcpy(words.begin(), bytes.data(), bytes.size());
      capnp::FlatArrayMessageReader r(words.asPtr());
      m.setRoot(r.getRoot<proto::KernelAst>());
    }
    auto nodes = m.getRoot<proto::KernelAst>().getNodes();
    for (int k = 0, edits = 1 + static_cast<int>(uniform(4)); k < edits; ++k) {
      auto n = nodes[static_cast<unsigned>(uniform(nodes.size()))];
      switch (uniform(6)) {
        case 0: n.setOp(static_cast<proto::Op>(uniform(kNumOps + 2))); break;
        case 1: {
          auto d = n.getDtype();
          d.setScalar(static_cast<proto::ScalarType>(uniform(kNumScalarTypes)));
          d.setCount(static_cast<uint16_t>(uniform(3) ? 1 : uniform(9)));
          if (uniform(3) == 0) {
            d.setIsPtr(!d.getIsPtr());
            d.setSize(d.getIsPtr() ? static_cast<int64_t>(uniform(64)) : -1);
            d.setV(1);
          }
          break;
        }
        case 2: {
          auto s = n.getSrc();
          if (s.size() > 0) s.set(static_cast<unsigned>(uniform(s.size())), static_cast<uint32_t>(uniform(nodes.size())));
          break;
        }
        case 3: {
          // Drop or add a source (of an earlier node, when there is one).
          auto s = n.getSrc();
          std::vector<uint32_t> v;
          for (unsigned j = 0; j < s.size(); ++j) v.push_back(s[j]);
          if (!v.empty() && uniform(2)) {
            v.pop_back();
          } else if (v.empty() || uniform(2)) {
            v.push_back(v.empty() ? 0 : v[0]);
          }
          auto ns = n.initSrc(static_cast<unsigned>(v.size()));
          for (unsigned j = 0; j < v.size(); ++j) ns.set(j, v[j]);
          break;
        }
        case 4: {
          static const Arg kArgs[] = {Arg(), Arg(0), Arg(-3), Arg(2.5), Arg(true), Arg("x"),
                                      Arg(ConstValue::Invalid()), Arg(Ops::ADD),
                                      Arg(AxisType::REDUCE), Arg::Tuple({}),
                                      Arg::Tuple({"v", 0, 10}), Arg::Tuple({"v", 0.5, Arg()}),
                                      Arg::Tuple({1, 2, 3, 4}), Arg::Tuple({0, AxisType::LOOP}),
                                      Arg(ConstValue(std::numeric_limits<double>::quiet_NaN()))};
          internal::WriteArg(kArgs[uniform(std::size(kArgs))], n.initArg());
          break;
        }
        default: {
          auto t = n.initTag();
          internal::WriteArg(Arg(static_cast<int>(uniform(3))), t);
          break;
        }
      }
    }
    // As from the network, and trusted: then the mutants reach interning past a CUSTOMI too.
    const std::string mutant = internal::ToBytes(m);
    absl::StatusOr<UOp> u = DecodeAst(mutant);
    absl::StatusOr<UOp> t = DecodeAst(mutant, kTrusted);
    if (u.ok()) {
      ++accepted;
      absl::StatusOr<UOp> again = DecodeAst(EncodeAst(*u));
      EXPECT_TRUE(again.ok() && *again == *u);
      EXPECT_TRUE(t.ok() && *t == *u) << "trusting the bytes refused what the network may send";
    }
    if (t.ok()) {
      ++trusted;
      absl::StatusOr<UOp> again = DecodeAst(EncodeAst(*t), kTrusted);
      EXPECT_TRUE(again.ok() && *again == *t);
    }
  }
  std::printf("%d structured AST mutants, %d accepted (%d when trusted), %.1f s\n", done, accepted, trusted,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  EXPECT_GE(done, 500);
}

}  // namespace
}  // namespace tg::autotune::codec
