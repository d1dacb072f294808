// File: autotune/driver_test.cc
// The tuning driver over in-process measurers with fake timing (every time a function of the
// program, so searches are deterministic): many kernels at once find what one-kernel searches
// find, batches answered in parts and out of order are put back together, a kernel whose
// batch cannot run fails alone, lookup-only mode never searches, and bad options are errors.
// The driver over the farm is tested in autotune/farm/farm_tuning_test.cc.
#include "autotune/driver.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "autotune/measure/local_measurer.h"
#include "autotune/measure/test_kernels.h"
#include "gtest/gtest.h"
#include "tinygrad/base/check.h"
#include "tinygrad/engine/device.h"

namespace tg::autotune {
namespace {

Device& Cpu() {
  absl::StatusOr<Device*> d = GetDevice("CPU");
  TG_CHECK(d.ok()) << d.status();
  return **d;
}

std::vector<UOp> Kernels() { return {MatmulKernel(16), SumKernel(16, 64), AddKernel(256)}; }

SearchSettings Settings() {
  SearchSettings s;
  s.width = 2;
  return s;
}

std::shared_ptr<LocalMeasurer> FakeTimed() {
  absl::StatusOr<std::unique_ptr<LocalMeasurer>> m = LocalMeasurer::Create({.compile_threads = 1, .fake_timing = true});
  TG_CHECK(m.ok()) << m.status();
  return *std::move(m);
}

// What a one-kernel search over a fresh fake-timed measurer finds for `ast`.
BeamResult OneSearch(const UOp& ast) {
  absl::StatusOr<SearchStart> start = StartSearch(ast, Cpu().renderer(), CodegenOptions{});
  TG_CHECK(start.ok()) << start.status();
  std::shared_ptr<LocalMeasurer> m = FakeTimed();
  absl::StatusOr<BeamResult> r = BeamSearch(start->task, Cpu().renderer(), *m, Settings(), start->options);
  TG_CHECK(r.ok()) << r.status();
  return *r;
}

std::unique_ptr<TuningDb> TempDb(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
  std::filesystem::remove(path);
  absl::StatusOr<std::unique_ptr<TuningDb>> db = OpenTuningDb(path);
  TG_CHECK(db.ok()) << db.status();
  return *std::move(db);
}

DriverOptions Options(Measurer* m, TuningDb* db) {
  absl::StatusOr<DeviceClass> dc = DeviceClassFor(Cpu());
  TG_CHECK(dc.ok()) << dc.status();
  return DriverOptions{.measurer = m, .db = db, .device_class = *dc, .renderer = &Cpu().renderer(), .settings = Settings()};
}

void ExpectSameAsOneSearch(const std::vector<KernelTuning>& got) {
  std::vector<UOp> ks = Kernels();
  ASSERT_EQ(got.size(), ks.size());
  for (size_t k = 0; k < ks.size(); ++k) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(got[k].status.ok()) << got[k].status;
    ASSERT_TRUE(got[k].search.has_value());
    ASSERT_TRUE(got[k].record.has_value());
    BeamResult want = OneSearch(ks[k]);
    EXPECT_EQ(got[k].search->program_hash, want.program_hash);
    EXPECT_EQ(got[k].search->candidates, want.candidates);
    EXPECT_EQ(got[k].search->timed, want.timed);
    EXPECT_EQ(got[k].search->outcomes, want.outcomes);
    EXPECT_EQ(got[k].record->opts, want.opts);
    EXPECT_EQ(got[k].record->time_s, want.time_s);
    EXPECT_EQ(got[k].record->kernel_name, want.kernel_name);  // "r_16_16_4": tg db show's "kernel:"
    EXPECT_FALSE(want.kernel_name.empty());
  }
}

TEST(DriverTest, ManyKernelsFindWhatOneKernelSearchesFindAndAreStored) {
  std::shared_ptr<LocalMeasurer> m = FakeTimed();
  std::unique_ptr<TuningDb> db = TempDb("driver_many.db");
  DriverOptions o = Options(m.get(), db.get());
  o.journal = true;
  TuningProgress last;
  o.progress = [&](const TuningProgress& p) { last = p; };
  std::vector<UOp> ks = Kernels();
  absl::StatusOr<std::vector<KernelTuning>> r = TuneKernels(ks, o);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSameAsOneSearch(*r);
  for (const KernelTuning& t : *r) {
    EXPECT_FALSE(t.from_cache);
    EXPECT_GT(t.measured, 0);
    EXPECT_EQ(t.record->worker, "local");  // provenance: the measurer's parts
    EXPECT_EQ(t.record->host, HostName());
    EXPECT_FALSE(t.record->samples_s.empty());
  }
  EXPECT_EQ(last.done, 3);
  EXPECT_EQ(last.failed, 0);
  EXPECT_EQ(last.in_flight, 0);
  EXPECT_EQ(last.speedups.size(), 3u);
  EXPECT_EQ(*db->Count(), 3);
  EXPECT_EQ(*db->CountMeasurements(), 0) << "a finished search's journal is deleted";
  // held: a range-for over List().value() of the temporary StatusOr reads freed memory
  const std::vector<TuningRecord> stored_records = db->List().value();
  for (const TuningRecord& stored : stored_records) EXPECT_FALSE(stored.kernel_name.empty());

  absl::StatusOr<std::vector<KernelTuning>> again = TuneKernels(ks, o);
  ASSERT_TRUE(again.ok()) << again.status();
  for (size_t k = 0; k < ks.size(); ++k) {
    EXPECT_TRUE((*again)[k].from_cache);
    EXPECT_EQ((*again)[k].measured, 0);
    EXPECT_EQ((*again)[k].record->opts, (*r)[k].record->opts);
  }
}

// Answers every batch one candidate per part, last candidate first, before Submit returns:
// the driver must put the batch back in order and apply the duplicate rule across parts.
class OnePerPartReversed : public Measurer {
 public:
  absl::StatusOr<MeasureBatch> Measure(const KernelTask& task, std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions& options) override {
    return inner_->Measure(task, candidates, options);
  }
  size_t Submit(std::shared_ptr<const KernelTask> task, std::vector<std::vector<Opt>> candidates,
                const MeasureOptions& options, uint64_t, PartCallback done) override {
    for (size_t i = candidates.size(); i-- > 0;) {
      MeasuredPart p{.indices = {i}, .measured_by = {MeasuredBy{.worker = "w" + std::to_string(i % 2), .host = "h"}}};
      MeasureOptions one = options;
      one.keep = std::max(one.keep, 1);
      p.batch = inner_->Measure(*task, std::span<const std::vector<Opt>>(&candidates[i], 1), one);
      done(std::move(p));
    }
    ++batches;
    return candidates.size();
  }
  int batches = 0;

 private:
  std::shared_ptr<LocalMeasurer> inner_ = FakeTimed();
};

TEST(DriverTest, BatchesAnsweredInPartsAndOutOfOrderAreReassembled) {
  OnePerPartReversed m;
  absl::StatusOr<std::vector<KernelTuning>> r = TuneKernels(Kernels(), Options(&m, nullptr));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(m.batches, 3);
  ASSERT_EQ(r->size(), 3u);
  for (const KernelTuning& t : *r) {
    ASSERT_TRUE(t.status.ok()) << t.status;
    ASSERT_TRUE(t.search.has_value());
    EXPECT_EQ(t.search->program_hash, OneSearch(t.ast).program_hash);
    EXPECT_TRUE(t.record->worker == "w0" || t.record->worker == "w1") << t.record->worker;
    EXPECT_EQ(t.record->host, "h");
  }
}

// Fails every batch of one kernel as a whole; measures the others.
class FailsOneKernel : public Measurer {
 public:
  explicit FailsOneKernel(UOp bad) : bad_(std::move(bad)) {}
  absl::StatusOr<MeasureBatch> Measure(const KernelTask& task, std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions& options) override {
    if (task.ast == bad_) return absl::ResourceExhaustedError("no memory for this kernel");
    return inner_->Measure(task, candidates, options);
  }

 private:
  UOp bad_;
  std::shared_ptr<LocalMeasurer> inner_ = FakeTimed();
};

TEST(DriverTest, AKernelWhoseBatchCannotRunFailsAlone) {
  std::vector<UOp> ks = Kernels();
  FailsOneKernel m(ks[1]);
  std::unique_ptr<TuningDb> db = TempDb("driver_fail.db");
  absl::StatusOr<std::vector<KernelTuning>> r = TuneKernels(ks, Options(&m, db.get()));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE((*r)[0].status.ok());
  EXPECT_EQ((*r)[1].status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE((*r)[1].record.has_value());
  EXPECT_TRUE((*r)[2].status.ok());
  EXPECT_EQ(*db->Count(), 2);
}

// Answers with fewer results than candidates.
class ShortAnswers : public Measurer {
 public:
  absl::StatusOr<MeasureBatch> Measure(const KernelTask&, std::span<const std::vector<Opt>> candidates,
                                       const MeasureOptions&) override {
    MeasureBatch b;
    b.results.resize(candidates.empty() ? 0 : candidates.size() - 1);
    return b;
  }
};

TEST(DriverTest, AMeasurerAnsweringTheWrongCountFailsTheKernelNotTheProcess) {
  ShortAnswers m;
  absl::StatusOr<std::vector<KernelTuning>> r = TuneKernels(Kernels(), Options(&m, nullptr));
  ASSERT_TRUE(r.ok()) << r.status();
  for (const KernelTuning& t : *r) {
    EXPECT_EQ(t.status.code(), absl::StatusCode::kInternal);
    EXPECT_NE(t.status.message().find("wrong number of results"), std::string::npos) << t.status;
  }
}

TEST(DriverTest, LookupOnlyAnswersTheDatabaseAndNeverSearches) {
  std::unique_ptr<TuningDb> db = TempDb("driver_lookup.db");
  std::vector<UOp> ks = Kernels();
  DriverOptions lookup = Options(nullptr, db.get());
  lookup.lookup_only = true;
  absl::StatusOr<std::vector<KernelTuning>> miss = TuneKernels(ks, lookup);
  ASSERT_TRUE(miss.ok()) << miss.status();
  for (const KernelTuning& t : *miss) {
    EXPECT_TRUE(t.status.ok());
    EXPECT_FALSE(t.record.has_value());
    EXPECT_FALSE(t.search.has_value());
  }
  // Stored by a search with other settings: lookup-only takes the best under any settings.
  std::shared_ptr<LocalMeasurer> m = FakeTimed();
  DriverOptions wide = Options(m.get(), db.get());
  wide.settings.width = 3;
  ASSERT_TRUE(TuneKernels(std::span<const UOp>(ks.data(), 1), wide).ok());
  absl::StatusOr<std::vector<KernelTuning>> hit = TuneKernels(ks, lookup);
  ASSERT_TRUE(hit.ok()) << hit.status();
  EXPECT_TRUE((*hit)[0].from_cache);
  EXPECT_FALSE((*hit)[1].record.has_value());
}

TEST(DriverTest, MissingPartsAreErrors) {
  std::shared_ptr<LocalMeasurer> m = FakeTimed();
  DriverOptions no_renderer = Options(m.get(), nullptr);
  no_renderer.renderer = nullptr;
  EXPECT_EQ(TuneKernels(Kernels(), no_renderer).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(TuneKernels(Kernels(), Options(nullptr, nullptr)).status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::vector<KernelTuning>> none = TuneKernels({}, Options(m.get(), nullptr));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace tg::autotune
