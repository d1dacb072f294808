// File: autotune/tuner_test.cc
// The tuner end to end on real small kernels: search then store, a second ask answered from
// the database, IGNORE_BEAM_CACHE searching again, lookup-only mode, no database at
// CACHELEVEL=0, and the tuner installed as the engine's chooser producing correct results.
#include "autotune/tuner.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "autotune/measure/test_kernels.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/base/config.h"
#include "tinygrad/engine/device.h"
#include "tinygrad/engine/opt_chooser.h"
#include "tinygrad/tensor/tensor.h"

namespace tg::autotune {
namespace {

using ::testing::HasSubstr;

std::string TempDb(const std::string& name) {
  std::string dir = std::string(std::getenv("TEST_TMPDIR") != nullptr ? std::getenv("TEST_TMPDIR") : "/tmp");
  std::string path = dir + "/" + name;
  std::filesystem::remove(path);
  return path;
}

Device& Cpu() {
  absl::StatusOr<Device*> d = GetDevice("CPU");
  EXPECT_TRUE(d.ok()) << d.status();
  return **d;
}

// Small settings keep the searches short.
TunerOptions Small(const std::string& db, int beam) {
  SearchSettings s = SearchSettings::FromConfig(GetConfig());
  s.upcast_max = 16;
  return TunerOptions{.beam = beam, .db = db, .settings = s};
}

TEST(TunerTest, SearchesStoresThenAnswersFromTheDatabase) {
  std::string db = TempDb("tuner_cache.db");
  UOp ast = SumKernel(16, 64);
  absl::StatusOr<std::unique_ptr<Tuner>> tuner = Tuner::Create(Small(db, 2));
  ASSERT_TRUE(tuner.ok()) << tuner.status();
  absl::StatusOr<KernelTuning> first = (*tuner)->Tune(ast, Cpu());
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(first->record.has_value());
  EXPECT_FALSE(first->from_cache);
  ASSERT_TRUE(first->search.has_value());
  EXPECT_GT(first->record->candidates, 0);
  ASSERT_TRUE(first->record->noopt_time_s.has_value());
  // Never slower than the untuned kernel (it is a candidate re-measured with the finalists).
  EXPECT_LE(first->record->time_s, *first->record->noopt_time_s);
  // provenance: measured here, with the winner's final runs
  EXPECT_EQ(first->record->worker, "local");
  EXPECT_EQ(first->record->host, HostName());
  ASSERT_FALSE(first->record->samples_s.empty());
  EXPECT_EQ(*std::min_element(first->record->samples_s.begin(), first->record->samples_s.end()),
            first->record->time_s);

  // A new tuner on the same file (as a second process would be) answers from it.
  absl::StatusOr<std::unique_ptr<Tuner>> again = Tuner::Create(Small(db, 2));
  ASSERT_TRUE(again.ok()) << again.status();
  absl::StatusOr<KernelTuning> second = (*again)->Tune(ast, Cpu());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_TRUE(second->from_cache);
  EXPECT_FALSE(second->search.has_value());
  EXPECT_EQ(second->record->opts, first->record->opts);

  // IGNORE_BEAM_CACHE: searches again.
  TunerOptions ignore = Small(db, 2);
  ignore.ignore_cache = true;
  absl::StatusOr<std::unique_ptr<Tuner>> fresh = Tuner::Create(ignore);
  ASSERT_TRUE(fresh.ok());
  absl::StatusOr<KernelTuning> third = (*fresh)->Tune(ast, Cpu());
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_FALSE(third->from_cache);
  EXPECT_TRUE(third->search.has_value());
}

TEST(TunerTest, LookupOnlyUsesAnyStoredResultAndMissesOtherwise) {
  std::string db = TempDb("tuner_lookup.db");
  UOp tuned = AddKernel(4096);
  UOp untuned = AddKernel(2048);
  {
    absl::StatusOr<std::unique_ptr<Tuner>> t = Tuner::Create(Small(db, 2));
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE((*t)->Tune(tuned, Cpu()).ok());
  }
  absl::StatusOr<std::unique_ptr<Tuner>> lookup = Tuner::Create(Small(db, 0));
  ASSERT_TRUE(lookup.ok());
  absl::StatusOr<KernelTuning> hit = (*lookup)->Tune(tuned, Cpu());
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_TRUE(hit->from_cache);
  absl::StatusOr<KernelTuning> miss = (*lookup)->Tune(untuned, Cpu());
  ASSERT_TRUE(miss.ok()) << miss.status();
  EXPECT_FALSE(miss->record.has_value());
  absl::StatusOr<std::optional<ChosenOpts>> chosen =
      (*lookup)->Choose(untuned, Cpu(), CodegenOptions{}, 0);
  ASSERT_TRUE(chosen.ok());
  EXPECT_FALSE(chosen->has_value()) << "a miss keeps the default opts";
  // A hit's origin names the database and the record (for the engine's warning when its opts
  // do not work).
  absl::StatusOr<std::optional<ChosenOpts>> found =
      (*lookup)->Choose(tuned, Cpu(), CodegenOptions{}, 0);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->opts, hit->record->opts);
  const std::string key = hit->key.Digest().substr(0, 16);
  EXPECT_THAT((*found)->origin, HasSubstr("record " + key + " of the tuning database sqlite:" + db));
  EXPECT_THAT((*found)->remedy, HasSubstr("`tg db drop " + key + "` drops it"));
}

// As the engine's chooser the tuner searches at the width the realize asks for (BEAM, or
// JITBEAM in a TinyJit's capture), not the one it was made with: a lookup-only tuner searches
// a miss when asked with a width, and stores the winner for later lookups.
TEST(TunerTest, AsAChooserItSearchesAtTheRealizesWidth) {
  std::string db = TempDb("tuner_choose_width.db");
  UOp ast = AddKernel(1024);
  absl::StatusOr<std::unique_ptr<Tuner>> lookup = Tuner::Create(Small(db, 0));
  ASSERT_TRUE(lookup.ok());
  absl::StatusOr<std::optional<ChosenOpts>> before =
      (*lookup)->Choose(ast, Cpu(), CodegenOptions{}, 0);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_FALSE(before->has_value()) << "width 0 only looks up";
  absl::StatusOr<std::optional<ChosenOpts>> searched =
      (*lookup)->Choose(ast, Cpu(), CodegenOptions{}, 2);
  ASSERT_TRUE(searched.ok()) << searched.status();
  ASSERT_TRUE(searched->has_value());
  EXPECT_EQ((*searched)->origin, "this BEAM search's winner");
  absl::StatusOr<std::optional<ChosenOpts>> after =
      (*lookup)->Choose(ast, Cpu(), CodegenOptions{}, 0);
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_TRUE(after->has_value()) << "the search stored its winner";
  EXPECT_EQ((*after)->opts, (*searched)->opts);
  EXPECT_FALSE((*lookup)->Choose(ast, Cpu(), CodegenOptions{}, -1).ok());
}

// A record whose opts do not apply to its kernel (a damaged or hand-edited row, here made
// faster than any search so that Put alone would keep it): a search does not trust it, searches
// again and replaces it; a lookup-only tuner answers it as stored (the engine falls back).
TEST(TunerTest, ARecordWhoseOptsDoNotApplyIsSearchedAgainAndReplaced) {
  std::string db = TempDb("tuner_unusable.db");
  UOp ast = SumKernel(16, 96);
  {
    absl::StatusOr<std::unique_ptr<Tuner>> t = Tuner::Create(Small(db, 1));
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE((*t)->Tune(ast, Cpu()).ok());
  }
  absl::StatusOr<std::unique_ptr<TuningDb>> raw = OpenTuningDb(db);
  ASSERT_TRUE(raw.ok()) << raw.status();
  std::vector<TuningRecord> all = (*raw)->List().value();
  ASSERT_EQ(all.size(), 1u);
  TuningRecord bad = all[0];
  bad.opts = {Opt{OptOps::UPCAST, 9, int64_t{4}}};
  bad.time_s = 1e-9;
  ASSERT_TRUE((*raw)->Put(bad).value());

  absl::StatusOr<std::unique_ptr<Tuner>> lookup = Tuner::Create(Small(db, 0));
  ASSERT_TRUE(lookup.ok());
  absl::StatusOr<KernelTuning> as_stored = (*lookup)->Tune(ast, Cpu());
  ASSERT_TRUE(as_stored.ok()) << as_stored.status();
  EXPECT_TRUE(as_stored->from_cache);
  EXPECT_EQ(as_stored->record->opts, bad.opts);

  absl::StatusOr<std::unique_ptr<Tuner>> search = Tuner::Create(Small(db, 1));
  ASSERT_TRUE(search.ok());
  absl::StatusOr<KernelTuning> t = (*search)->Tune(ast, Cpu());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_FALSE(t->from_cache);
  ASSERT_TRUE(t->unusable.has_value());
  EXPECT_EQ(t->unusable->opts, bad.opts);
  EXPECT_THAT(t->unusable_why.message(), HasSubstr("Opt(op=OptOps.UPCAST, axis=9, arg=4): invalid axis"));
  ASSERT_TRUE(t->search.has_value());
  std::optional<TuningRecord> now = (*raw)->Lookup(t->key).value();
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->opts, t->record->opts);
  EXPECT_NE(now->opts, bad.opts);
  EXPECT_TRUE(CheckOptsApply(ast, Cpu().renderer(), CodegenOptions{}, now->opts).ok());

  // IGNORE_BEAM_CACHE looks nothing up, but checks what is stored when its winner is stored.
  ASSERT_TRUE((*raw)->Drop(t->key.Digest()).value());
  ASSERT_TRUE((*raw)->Put(bad).value());
  TunerOptions ignore = Small(db, 1);
  ignore.ignore_cache = true;
  absl::StatusOr<std::unique_ptr<Tuner>> fresh = Tuner::Create(ignore);
  ASSERT_TRUE(fresh.ok());
  absl::StatusOr<KernelTuning> again = (*fresh)->Tune(ast, Cpu());
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_TRUE(again->unusable.has_value());
  now = (*raw)->Lookup(t->key).value();
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->opts, again->record->opts);
}

TEST(TunerTest, NoDatabaseAtCacheLevelZero) {
  Config c = GetConfig();
  c.cachelevel = 0;
  TunerOptions o = TunerOptions::FromConfig(c);
  EXPECT_EQ(o.db, "");
  o.beam = 2;
  o.settings = Small("", 2).settings;
  o.lock_dir.clear();
  absl::StatusOr<std::unique_ptr<Tuner>> t = Tuner::Create(o);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->db(), nullptr);
  absl::StatusOr<KernelTuning> a = (*t)->Tune(AddKernel(1024), Cpu());
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_FALSE(a->from_cache);
  absl::StatusOr<KernelTuning> b = (*t)->Tune(AddKernel(1024), Cpu());
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_FALSE(b->from_cache) << "nothing is cached with CACHELEVEL=0";
}

TEST(TunerTest, BadOptionsAndDatabaseAreErrors) {
  EXPECT_EQ(Tuner::Create(Small(TempDb("x.db"), -1)).status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::unique_ptr<Tuner>> t = Tuner::Create(Small("/proc/no/such/dir/tuning.db", 2));
  EXPECT_FALSE(t.ok());
}

TEST(TunerTest, AsTheEnginesChooserKernelsStayCorrect) {
  std::string db = TempDb("tuner_chooser.db");
  absl::StatusOr<std::unique_ptr<Tuner>> t = Tuner::Create(Small(db, 2));
  ASSERT_TRUE(t.ok());
  Config config = GetConfig();
  config.beam = 2;  // the realize's width is what the chooser searches at
  ScopedConfig scoped(config);
  SetKernelOptChooser(t->get());
  std::vector<float> a(24 * 40), b(40 * 8);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) - 3;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) - 2;
  Tensor c = Tensor::FromVector<float>(a, {24, 40}).matmul(Tensor::FromVector<float>(b, {40, 8}));
  absl::StatusOr<std::vector<float>> got = c.to_vector<float>();
  SetKernelOptChooser(nullptr);
  ASSERT_TRUE(got.ok()) << got.status();
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 8; ++j) {
      float want = 0;
      for (int k = 0; k < 40; ++k) want += a[i * 40 + k] * b[k * 8 + j];
      EXPECT_FLOAT_EQ((*got)[i * 8 + j], want) << i << "," << j;
    }
  absl::StatusOr<int64_t> stored = (*t)->db()->Count();
  ASSERT_TRUE(stored.ok());
  EXPECT_GE(*stored, 1);
}

}  // namespace
}  // namespace tg::autotune
