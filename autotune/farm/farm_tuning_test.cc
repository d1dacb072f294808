// File: autotune/farm/farm_tuning_test.cc
// FarmMeasurer and the tuning driver over it end to end on loopback (ipc) with in-test workers that measure
// for real in fake-timing mode (LocalMeasurer{.fake_timing}): the same winners as the
// in-process measurer, with workers that freeze and die; the journal resumes a search that was
// stopped as if killed, and re-measures nothing already stored; a worker that never answers
// does not stall it (backups).
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/db/tuning_db.h"
#include "autotune/driver.h"
#include "autotune/farm/farm_measurer.h"
#include "autotune/farm/test_worker.h"
#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "autotune/search/beam_search.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/wait_until.h"
#include "tinygrad/engine/device.h"

namespace tg::autotune::farm {
namespace {

using std::chrono::milliseconds;

Device& Cpu() {
  absl::StatusOr<Device*> d = GetDevice("CPU");
  TG_CHECK(d.ok());
  return **d;
}

std::vector<UOp> Kernels() { return {MatmulKernel(16), SumKernel(16, 64), AddKernel(256)}; }

SearchSettings Settings() {
  SearchSettings s;
  s.width = 2;
  return s;
}

// A TuningDb that records which journal rows (search key, opts) are put, and passes every
// call on to the real one.
class RecordingDb : public TuningDb {
 public:
  explicit RecordingDb(std::unique_ptr<TuningDb> db) : db_(std::move(db)) {}
  absl::StatusOr<std::optional<TuningRecord>> Lookup(const TuningKey& k) override { return db_->Lookup(k); }
  absl::StatusOr<std::optional<TuningRecord>> LookupBest(const TuningKey& k) override { return db_->LookupBest(k); }
  absl::StatusOr<std::optional<TuningRecord>> LookupBestForArch(const TuningKey& k, std::string_view a) override {
    return db_->LookupBestForArch(k, a);
  }
  absl::StatusOr<bool> Put(const TuningRecord& r) override { return db_->Put(r); }
  absl::StatusOr<bool> ReplaceUnusable(const TuningRecord& r, const std::vector<Opt>& o) override {
    return db_->ReplaceUnusable(r, o);
  }
  absl::StatusOr<bool> Drop(std::string_view k) override { return db_->Drop(k); }
  absl::StatusOr<std::vector<TuningRecord>> List() override { return db_->List(); }
  absl::StatusOr<int64_t> Count() override { return db_->Count(); }
  absl::StatusOr<int64_t> PutAll(const std::vector<TuningRecord>& r) override { return db_->PutAll(r); }
  absl::StatusOr<bool> PutMeasurement(const MeasurementRecord& m) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      puts_.emplace(m.search_key, codec::EncodeOpts(m.opts));
    }
    return db_->PutMeasurement(m);
  }
  absl::StatusOr<std::vector<MeasurementRecord>> ListMeasurements(std::string_view k) override {
    return db_->ListMeasurements(k);
  }
  absl::StatusOr<int64_t> DeleteMeasurements(std::string_view k) override { return db_->DeleteMeasurements(k); }
  absl::StatusOr<int64_t> CountMeasurements() override { return db_->CountMeasurements(); }
  absl::StatusOr<GcCounts> Gc(std::string_view v, int o, bool dry_run) override { return db_->Gc(v, o, dry_run); }
  std::string location() const override { return db_->location(); }

  // (search key, EncodeOpts) of every PutMeasurement since the last call
  std::set<std::pair<std::string, std::string>> TakePuts() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(puts_, {});
  }

 private:
  std::unique_ptr<TuningDb> db_;
  std::mutex mu_;
  std::set<std::pair<std::string, std::string>> puts_;
};

// What the in-process measurer picks for `ast` with fake timing.
BeamResult InProcess(const UOp& ast) {
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create({.fake_timing = true});
  TG_CHECK(m.ok());
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(ast);
  TG_CHECK(task.ok());
  BeamOptions bo;
  if (absl::StatusOr<std::vector<Opt>> h = HeuristicOpts(ast, Cpu().renderer(), CodegenOptions{}); h.ok()) bo.heuristic_opts = *h;
  absl::StatusOr<BeamResult> r = BeamSearch(*task, Cpu().renderer(), **m, Settings(), bo);
  TG_CHECK(r.ok()) << r.status();
  return *r;
}

class FarmTuningTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/farm_tuning_testXXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    absl::StatusOr<DeviceClass> dc = DeviceClassFor(Cpu());
    ASSERT_TRUE(dc.ok());
    dc_ = *dc;
    auto b = Broker::Start({.endpoint = absl::StrCat("ipc://", dir_, "/farm"),
                            .heartbeat = milliseconds(100),
                            .clock = Liveness(),
                            .context = &ctx_});
    ASSERT_TRUE(b.ok()) << b.status();
    broker_ = *std::move(b);
    measurer_ = std::make_unique<FarmMeasurer>(broker_.get(), dc_.Digest());
  }
  void TearDown() override {
    workers_.clear();
    broker_->Shutdown();
    std::filesystem::remove_all(dir_);
  }
  // A worker measuring with its own LocalMeasurer in fake-timing mode; a `silent` one never
  // sends its answers (it heartbeats).
  TestWorker& AddWorker(const std::string& id, bool silent = false) {
    auto m = LocalMeasurer::Create({.compile_threads = 1, .fake_timing = true});
    TG_CHECK(m.ok());
    std::shared_ptr<LocalMeasurer> lm = *std::move(m);
    auto mu = std::make_shared<std::mutex>();  // Freeze/Kill never run two measures at once, but be safe
    workers_.push_back(std::make_unique<TestWorker>(
        ctx_, TestWorkerOptions{.endpoint = broker_->endpoint(),
                                .id = id,
                                .device = dc_,
                                .capacity = 2,
                                .heartbeat = milliseconds(100),
                                .clock = Liveness(),
                                .measure = [lm, mu](const KernelTask& t, std::span<const std::vector<Opt>> c,
                                                    const MeasureOptions& o) {
                                  std::lock_guard<std::mutex> lock(*mu);
                                  return lm->Measure(t, c, o);
                                },
                                .hold_answers = silent}));
    return *workers_.back();
  }
  std::unique_ptr<TuningDb> Db(const std::string& name) {
    auto db = OpenTuningDb(absl::StrCat(dir_, "/", name));
    TG_CHECK(db.ok()) << db.status();
    return *std::move(db);
  }
  DriverOptions Options(TuningDb* db) {
    return DriverOptions{.measurer = measurer_.get(),
                         .db = db,
                         .device_class = dc_,
                         .renderer = &Cpu().renderer(),
                         .settings = Settings(),
                         .journal = true};
  }
  // The in-process search's winner, and the same search (candidate counts). `chaos`: workers
  // died and froze under real heartbeats, and a candidate lost with two workers is quarantined
  // (poison, kWorkerLost) - how often depends on the machine's speed and load. A search that
  // lost no candidate is still exactly the in-process one; one that did took another path (a
  // lost candidate may have been the winner, or a beam member whose children are never
  // searched), so its winner need only be a program it measured, no slower than the untuned
  // kernel.
  void ExpectSameWinners(const std::vector<KernelTuning>& got, bool chaos = false) {
    std::vector<UOp> ks = Kernels();
    ASSERT_EQ(got.size(), ks.size());
    for (size_t k = 0; k < ks.size(); ++k) {
      SCOPED_TRACE(k);
      ASSERT_TRUE(got[k].status.ok()) << got[k].status;
      BeamResult want = InProcess(ks[k]);
      ASSERT_TRUE(got[k].record.has_value());
      const bool lost =
          got[k].search.has_value() && got[k].search->outcomes[static_cast<int>(Outcome::kWorkerLost)] > 0;
      EXPECT_TRUE(chaos || !lost) << "only chaos loses candidates";
      if (lost) {
        EXPECT_EQ(got[k].record->time_s, FakeTimeS(got[k].search->program_hash));
        EXPECT_LE(got[k].record->time_s, got[k].search->noopt_s);
      } else {
        EXPECT_EQ(got[k].record->opts, want.opts);
        EXPECT_EQ(got[k].record->time_s, want.time_s);
        EXPECT_EQ(got[k].record->kernel_name, want.kernel_name);  // named as in-process
      }
      EXPECT_FALSE(got[k].record->kernel_name.empty());
      if (got[k].from_cache) continue;  // stored by an earlier run
      ASSERT_TRUE(got[k].search.has_value());
      if (!lost) {
        EXPECT_EQ(got[k].search->program_hash, want.program_hash);
        EXPECT_EQ(got[k].search->candidates, want.candidates);
        EXPECT_EQ(got[k].search->timed, want.timed);
      }
      EXPECT_FALSE(got[k].record->worker.empty());
      // provenance: the host the winner's worker announced
      EXPECT_EQ(got[k].record->host, "host-of-" + got[k].record->worker);
    }
  }

  // The clock of the broker's and workers' heartbeats: a scripted one that never moves, so no
  // worker of a loaded machine is declared dead (its results then dropped); the chaos test
  // uses the machine's.
  virtual Clock* Liveness() { return &clock_; }

  FakeClock clock_;
  std::string dir_;
  net::ZmqContext ctx_;
  DeviceClass dc_;
  std::unique_ptr<Broker> broker_;
  std::unique_ptr<FarmMeasurer> measurer_;
  std::vector<std::unique_ptr<TestWorker>> workers_;
};

TEST(PlanChunksTest, SpreadsEvenlyAndKeepsFinalistsTogether) {
  EXPECT_TRUE(PlanChunks(0, 4, false).empty());
  EXPECT_EQ(PlanChunks(10, 4, false), (std::vector<std::pair<size_t, size_t>>{{0, 3}, {3, 6}, {6, 8}, {8, 10}}));
  EXPECT_EQ(PlanChunks(10, 4, true), (std::vector<std::pair<size_t, size_t>>{{0, 10}}));
  EXPECT_EQ(PlanChunks(3, 8, false), (std::vector<std::pair<size_t, size_t>>{{0, 3}}));  // min_chunk 2
  EXPECT_EQ(PlanChunks(5, 1, false), (std::vector<std::pair<size_t, size_t>>{{0, 5}}));
}

TEST(DedupAcrossPartsTest, LaterCopiesOfAProgramBecomeDuplicates) {
  MeasureBatch b;
  auto timed = [](uint64_t h) {
    CandidateResult r;
    r.program_hash = h;
    r.min_s = 1e-3;
    r.samples_s = {1e-3};
    return r;
  };
  b.results = {timed(7), timed(8), timed(7), timed(9)};
  MeasureOptions o;
  o.known_programs = {9};
  DedupAcrossParts(b, o);
  EXPECT_EQ(b.results[0].outcome, Outcome::kOk);
  EXPECT_EQ(b.results[2].outcome, Outcome::kDuplicate);
  EXPECT_EQ(b.results[2].duplicate_of, 0);
  EXPECT_TRUE(b.results[2].samples_s.empty());
  EXPECT_EQ(b.results[3].outcome, Outcome::kDuplicate);
  EXPECT_EQ(b.results[3].duplicate_of, -1);
}

TEST_F(FarmTuningTest, FarmMeasurerSearchMatchesInProcess) {
  for (int i = 0; i < 3; ++i) AddWorker(absl::StrCat("w", i));
  ASSERT_TRUE(broker_->WaitForWorkers(dc_.Digest(), 3, kTestWaitLimit));
  FarmMeasurer m(broker_.get(), dc_.Digest());
  const UOp ast = MatmulKernel(16);
  absl::StatusOr<KernelTask> task = KernelTask::FromAst(ast);
  ASSERT_TRUE(task.ok());
  BeamOptions bo;
  if (absl::StatusOr<std::vector<Opt>> h = HeuristicOpts(ast, Cpu().renderer(), CodegenOptions{}); h.ok()) bo.heuristic_opts = *h;
  absl::StatusOr<BeamResult> r = BeamSearch(*task, Cpu().renderer(), m, Settings(), bo);
  ASSERT_TRUE(r.ok()) << r.status();
  BeamResult want = InProcess(ast);
  EXPECT_EQ(r->program_hash, want.program_hash);
  EXPECT_EQ(r->time_s, want.time_s);
  EXPECT_EQ(r->outcomes, want.outcomes);
  int busy = 0;
  for (const auto& w : workers_) busy += w->jobs() > 0;
  EXPECT_GE(busy, 2);
}

TEST_F(FarmTuningTest, TunesManyKernelsAtOnceWithTheInProcessWinnersAndCachesThem) {
  for (int i = 0; i < 3; ++i) AddWorker(absl::StrCat("w", i));
  ASSERT_TRUE(broker_->WaitForWorkers(dc_.Digest(), 3, kTestWaitLimit));
  std::unique_ptr<TuningDb> db = Db("clean.db");
  DriverOptions o = Options(db.get());
  int reports = 0;
  TuningProgress last;
  o.progress = [&](const TuningProgress& p) {
    ++reports;
    last = p;
  };
  std::vector<UOp> ks = Kernels();
  absl::StatusOr<std::vector<KernelTuning>> r = TuneKernels(ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSameWinners(*r);
  EXPECT_GT(reports, 0);
  EXPECT_EQ(last.done, 3);
  EXPECT_EQ(last.speedups.size(), 3u);
  EXPECT_EQ(last.in_flight, 0);
  // Stored (with the kernels' names), journal gone; a second run answers from the database.
  EXPECT_EQ(*db->Count(), 3);
  // held: a range-for over List().value() of the temporary StatusOr reads freed memory
  const std::vector<TuningRecord> stored_records = db->List().value();
  for (const TuningRecord& stored : stored_records) EXPECT_FALSE(stored.kernel_name.empty());
  EXPECT_EQ(*db->CountMeasurements(), 0);
  absl::StatusOr<std::vector<KernelTuning>> again = TuneKernels(ks, o);
  ASSERT_TRUE(again.ok());
  for (const KernelTuning& k : *again) {
    EXPECT_TRUE(k.from_cache);
    EXPECT_EQ(k.measured, 0);
  }
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.dropped_results, 0);
  EXPECT_EQ(s.job_errors, 0);
}

TEST_F(FarmTuningTest, ResumesFromTheJournalAndReMeasuresNothingStored) {
  for (int i = 0; i < 3; ++i) AddWorker(absl::StrCat("w", i));
  ASSERT_TRUE(broker_->WaitForWorkers(dc_.Digest(), 3, kTestWaitLimit));
  RecordingDb db(Db("resume.db"));
  DriverOptions o = Options(&db);
  o.abort_after_journal_rows = 40;
  std::vector<UOp> ks = Kernels();
  absl::StatusOr<std::vector<KernelTuning>> killed = TuneKernels(ks, o);
  ASSERT_EQ(killed.status().code(), absl::StatusCode::kAborted);
  // 40 or more rows were written; a kernel whose search ended before the stop dropped its own.
  const int64_t rows = *db.CountMeasurements();
  EXPECT_GT(rows, 0);
  // What the journal holds, as (search key, opts): the rounds under the search's digest, its
  // re-timings (the finalists, a check before the search ends) under "<digest>/<name>".
  std::set<std::pair<std::string, std::string>> stored;
  for (const auto& [key, opts] : db.TakePuts()) {
    absl::StatusOr<std::vector<MeasurementRecord>> kept = db.ListMeasurements(key);
    ASSERT_TRUE(kept.ok());
    for (const MeasurementRecord& m : *kept) {
      stored.emplace(key, codec::EncodeOpts(m.opts));
      if (!m.worker.empty()) {  // poison rows have neither
        EXPECT_EQ(m.host, "host-of-" + m.worker);
      }
    }
  }
  EXPECT_EQ(static_cast<int64_t>(stored.size()), rows);
  // The jobs the "killed" coordinator left running finish before the restart.
  ASSERT_TRUE(WaitUntil([&] { return broker_->Status().pending == 0; })) << "the abandoned jobs never finished";
  o.abort_after_journal_rows = -1;
  absl::StatusOr<std::vector<KernelTuning>> resumed = TuneKernels(ks, o);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  ExpectSameWinners(*resumed);
  int64_t hits = 0;
  for (const KernelTuning& k : *resumed) hits += k.journal_hits;
  EXPECT_GE(hits, rows);
  for (const auto& row : db.TakePuts())
    EXPECT_FALSE(stored.contains(row)) << "re-measured a journaled candidate: " << row.first << " " << row.second;
  EXPECT_EQ(*db.CountMeasurements(), 0);
}

// Real heartbeats: frozen workers are declared dead (or not) as the machine's speed decides;
// whatever happens, the winners are the same.
class FarmTuningChaosTest : public FarmTuningTest {
 protected:
  Clock* Liveness() override { return &Clock::Real(); }
};

TEST_F(FarmTuningChaosTest, FrozenAndKilledWorkersSameWinners) {
  for (int i = 0; i < 4; ++i) AddWorker(absl::StrCat("w", i));
  ASSERT_TRUE(broker_->WaitForWorkers(dc_.Digest(), 4, kTestWaitLimit));
  std::atomic<bool> done{false};
  std::thread chaos([&] {
    TestWorker& frozen = *workers_[0];
    TestWorker& killed = *workers_[1];
    for (int round = 0; !done; ++round) {
      std::this_thread::sleep_for(milliseconds(300));
      if (done) break;
      if (round % 2 == 0) {
        frozen.Freeze();
        killed.Kill();
      } else {
        frozen.Thaw();
        killed.Restart();
      }
    }
    frozen.Thaw();
  });
  std::unique_ptr<TuningDb> db = Db("chaos.db");
  absl::StatusOr<std::vector<KernelTuning>> r = TuneKernels(Kernels(), Options(db.get()));
  done = true;
  chaos.join();
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSameWinners(*r, /*chaos=*/true);
  FarmStatus s = broker_->Status();
  EXPECT_EQ(s.job_errors, 0);
  EXPECT_EQ(*db->CountMeasurements(), 0);
}

// Issue 16: a worker that heartbeats but never answers holds the jobs it gets (its 2 slots)
// until their deadlines, minutes away; backups on the honest workers finish them once they run
// 3x longer than the class's jobs take (at least 3 heartbeats, 0.3 s here), and the search
// goes on. Real heartbeats, so an honest worker of a loaded machine may be declared dead now
// and then (hence chaos winners).
TEST_F(FarmTuningChaosTest, ASilentWorkerDoesNotStallTheSearch) {
  TestWorker& silent = AddWorker("a_silent", /*silent=*/true);
  for (int i = 0; i < 2; ++i) AddWorker(absl::StrCat("w", i));
  ASSERT_TRUE(broker_->WaitForWorkers(dc_.Digest(), 3, kTestWaitLimit));
  std::unique_ptr<TuningDb> db = Db("silent.db");
  absl::StatusOr<std::vector<KernelTuning>> r = TuneKernels(Kernels(), Options(db.get()));
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSameWinners(*r, /*chaos=*/true);
  FarmStatus s = broker_->Status();
  EXPECT_GE(silent.received(), 1);
  EXPECT_GE(s.backups_won, 1);
  EXPECT_EQ(s.deadline_misses, 0);
  EXPECT_EQ(s.job_errors, 0);
}

}  // namespace
}  // namespace tg::autotune::farm
