// File: autotune/farm/farm_tuner.cc
// Many BeamSearchers driven at once over the Broker, with the measurement journal.
#include "autotune/farm/farm_tuner.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "autotune/codec/farm_codec.h"
#include "autotune/farm/farm_measurer.h"
#include "autotune/search_record.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune::farm {
namespace {

using Clock = std::chrono::steady_clock;

Outcome ParseOutcome(const std::string& name) {
  for (int i = 0; i < kNumOutcomes; ++i)
    if (OutcomeName(static_cast<Outcome>(i)) == name) return static_cast<Outcome>(i);
  return Outcome::kWorkerLost;  // a journal row of a newer build: measure it again is not worth it
}

// The journal key of a search's batch: the search's digest, "<digest>/<retime>" for a re-timing
// (BeamRequest::retime) of programs the search measured before.
std::string JournalKey(const std::string& digest, const std::string& retime) {
  return retime.empty() ? digest : absl::StrCat(digest, "/", retime);
}

CandidateResult FromJournal(const MeasurementRecord& m) {
  CandidateResult r;
  r.outcome = ParseOutcome(m.outcome);
  r.error = m.error;
  r.samples_s = m.samples_s;
  r.min_s = m.min_s;
  r.program_hash = m.program_hash;
  return r;
}

// One kernel's search in flight.
struct Search {
  size_t index = 0;
  std::string digest;  // TuningKey::Digest(): the journal's search key
  std::unique_ptr<BeamSearcher> searcher;
  std::shared_ptr<const KernelTask> task;
  // By EncodeOpts: the stored result and who measured it.
  absl::flat_hash_map<std::string, std::pair<CandidateResult, MeasuredBy>> journal;  // the rounds
  // The re-timing batch being answered (BeamRequest::retime), loaded when it is asked for.
  absl::flat_hash_map<std::string, std::pair<CandidateResult, MeasuredBy>> journal_retime;
  std::vector<std::string> retimes;  // every re-timing batch asked for: their journal keys go too
  std::optional<BeamRequest> req;
  std::vector<CandidateResult> results;
  std::vector<MeasuredBy> measured_by;
  size_t outstanding = 0;  // FarmJobs of req not answered yet
  bool finished = false;
  // The finalist phase's batch and who timed each: the winner's provenance.
  std::vector<CandidateResult> final_results;
  std::vector<MeasuredBy> final_measured_by;
};


struct Completion {
  size_t search = 0;
  std::vector<size_t> indices;  // the job's candidates in the batch
  absl::StatusOr<JobResult> result;
};

// Where broker callbacks leave finished jobs. Shared with the callbacks, so a TuneAll that
// returns early (an error) leaves them a live inbox.
struct Channel {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Completion> inbox;
  int in_flight = 0;
};

}  // namespace

FarmTuner::FarmTuner(FarmTunerOptions options) : o_(std::move(options)) {
  TG_CHECK(o_.broker != nullptr && o_.renderer != nullptr) << "FarmTuner needs a broker and a renderer";
}

absl::StatusOr<std::vector<FarmKernelResult>> FarmTuner::TuneAll(std::span<const UOp> asts) {
  const std::string device_class = o_.device_class.Digest();
  const bool journal = o_.journal && o_.db != nullptr;
  std::vector<FarmKernelResult> out(asts.size());
  std::vector<std::unique_ptr<Search>> searches;
  FarmProgress progress{.kernels = static_cast<int>(asts.size())};
  int64_t journal_rows = 0;

  auto ch = std::make_shared<Channel>();
  Clock::time_point last_report;

  auto report = [&](bool force) {
    if (!o_.progress) return;
    Clock::time_point& last = last_report;
    const Clock::time_point now = Clock::now();
    if (!force && now - last < std::chrono::milliseconds(100)) return;
    last = now;
    {
      std::lock_guard<std::mutex> lock(ch->mu);
      progress.jobs_in_flight = ch->in_flight;
    }
    progress.workers = static_cast<int>(o_.broker->Status().workers.size());
    o_.progress(progress);
  };

  // The winner goes to the database and the journal of the search goes away.
  auto finish = [&](Search& s) -> absl::Status {
    s.finished = true;
    FarmKernelResult& r = out[s.index];
    const BeamResult& br = s.searcher->result();
    TuningRecord rec = RecordOfSearch(r.key, r.ast, br, o_.device_class);
    rec.samples_s.clear();  // the winner's samples as its worker measured them, below
    for (size_t i = 0; i < s.final_results.size(); ++i)
      if (s.final_results[i].program_hash == br.program_hash && s.final_results[i].timed()) {
        rec.worker = s.final_measured_by[i].worker;
        rec.host = s.final_measured_by[i].host;
        rec.samples_s = s.final_results[i].samples_s;
        break;
      }
    if (o_.db != nullptr && br.time_s < kInf) {
      RETURN_IF_ERROR(o_.db->Put(rec).status());
      if (journal) {
        RETURN_IF_ERROR(o_.db->DeleteMeasurements(s.digest).status());
        for (const std::string& retime : s.retimes)
          RETURN_IF_ERROR(o_.db->DeleteMeasurements(JournalKey(s.digest, retime)).status());
      }
    }
    r.record = std::move(rec);
    r.search = br;
    ++progress.done;
    if (br.noopt_s < kInf && br.time_s > 0 && br.time_s < kInf) progress.speedups.push_back(br.noopt_s / br.time_s);
    report(true);
    return absl::OkStatus();
  };

  auto fail = [&](Search& s, absl::Status st) {
    s.finished = true;
    out[s.index].status = std::move(st);
    ++progress.done;
    ++progress.failed;
    report(true);
  };

  // Steps `s` until it waits for jobs (or is done): answers what the journal holds, submits
  // the rest.
  auto advance = [&](Search& s) -> absl::Status {
    while (!s.finished) {
      s.req = s.searcher->Next();
      if (!s.req.has_value()) return finish(s);
      const BeamRequest& req = *s.req;
      const size_t n = req.candidates.size();
      s.results.assign(n, CandidateResult{});
      s.measured_by.assign(n, MeasuredBy{});
      if (!req.retime.empty()) {
        if (std::find(s.retimes.begin(), s.retimes.end(), req.retime) == s.retimes.end())
          s.retimes.push_back(req.retime);
        s.journal_retime.clear();
        if (journal) {
          ASSIGN_OR_RETURN(std::vector<MeasurementRecord> rows,
                           o_.db->ListMeasurements(JournalKey(s.digest, req.retime)));
          for (const MeasurementRecord& m : rows)
            s.journal_retime.try_emplace(codec::EncodeOpts(m.opts), FromJournal(m),
                                         MeasuredBy{.worker = m.worker, .host = m.host});
        }
      }
      auto& jmap = req.retime.empty() ? s.journal : s.journal_retime;
      std::vector<size_t> missing;
      std::vector<std::string> keys(n);
      for (size_t i = 0; i < n; ++i) {
        keys[i] = codec::EncodeOpts(req.candidates[i]);
        auto it = jmap.find(keys[i]);
        if (it != jmap.end()) {
          s.results[i] = it->second.first;
          s.measured_by[i] = it->second.second;
        } else {
          missing.push_back(i);
        }
      }
      // A re-timing is timed together or not at all: a partial journal of it is re-measured.
      if (!req.retime.empty() && !missing.empty()) {
        missing.clear();
        for (size_t i = 0; i < n; ++i) missing.push_back(i);
      }
      const int64_t hits = static_cast<int64_t>(n - missing.size());
      out[s.index].journal_hits += hits;
      progress.journal_hits += hits;
      if (missing.empty()) {
        MeasureBatch b;
        b.results = std::move(s.results);
        DedupAcrossChunks(b, req.options);
        if (req.final_phase()) s.final_results = b.results, s.final_measured_by = s.measured_by;
        s.searcher->Feed(b);
        continue;
      }
      std::vector<std::pair<size_t, size_t>> chunks =
          PlanChunks(missing.size(), o_.broker->Slots(device_class), req.options.interleaved);
      s.outstanding = chunks.size();
      for (auto [b, e] : chunks) {
        FarmJob job{.device_class = device_class, .task = s.task, .search_id = s.index + 1, .options = req.options};
        std::vector<size_t> indices(missing.begin() + static_cast<std::ptrdiff_t>(b),
                                    missing.begin() + static_cast<std::ptrdiff_t>(e));
        for (size_t i : indices) job.candidates.push_back(req.candidates[i]);
        {
          std::lock_guard<std::mutex> lock(ch->mu);
          ++ch->in_flight;
        }
        const size_t si = s.index;
        o_.broker->Submit(std::move(job), [ch, si, indices = std::move(indices)](absl::StatusOr<JobResult> r) mutable {
          std::lock_guard<std::mutex> lock(ch->mu);
          ch->inbox.push_back(Completion{.search = si, .indices = std::move(indices), .result = std::move(r)});
          ch->cv.notify_one();
        });
      }
      return absl::OkStatus();
    }
    return absl::OkStatus();
  };

  // ** start every search: the database first, then the journal **
  std::vector<Search*> by_index(asts.size(), nullptr);
  for (size_t k = 0; k < asts.size(); ++k) {
    FarmKernelResult& r = out[k];
    r.ast = asts[k];
    r.key = TuningKey::Make(asts[k], o_.device_class, o_.settings, o_.codegen);
    if (o_.db != nullptr && !o_.ignore_cache) {
      ASSIGN_OR_RETURN(std::optional<TuningRecord> hit, o_.db->Lookup(r.key));
      if (hit.has_value()) {
        r.record = std::move(hit);
        r.from_cache = true;
        ++progress.done;
        ++progress.cached;
        continue;
      }
    }
    auto s = std::make_unique<Search>();
    s->index = k;
    s->digest = r.key.Digest();
    absl::StatusOr<SearchStart> start =
        StartSearch(asts[k], *o_.renderer, o_.codegen,
                    BeamOptions{.beam_debug = o_.beam_debug, .debug = o_.debug});
    if (!start.ok()) {
      fail(*s, start.status());
      continue;
    }
    s->task = std::make_shared<const KernelTask>(start->task);
    absl::StatusOr<std::unique_ptr<BeamSearcher>> searcher = BeamSearcher::Create(
        std::move(start->task), *o_.renderer, o_.settings, std::move(start->options));
    if (!searcher.ok()) {
      fail(*s, searcher.status());
      continue;
    }
    s->searcher = *std::move(searcher);
    if (journal) {
      ASSIGN_OR_RETURN(std::vector<MeasurementRecord> rows, o_.db->ListMeasurements(s->digest));
      for (const MeasurementRecord& m : rows)
        s->journal.try_emplace(codec::EncodeOpts(m.opts), FromJournal(m), MeasuredBy{.worker = m.worker, .host = m.host});
    }
    by_index[k] = s.get();
    searches.push_back(std::move(s));
  }
  for (auto& s : searches) RETURN_IF_ERROR(advance(*s));
  report(true);

  // ** the event loop: one finished job at a time **
  auto active = [&] {
    for (const auto& s : searches)
      if (!s->finished) return true;
    return false;
  };
  while (active()) {
    Completion c;
    {
      std::unique_lock<std::mutex> lock(ch->mu);
      if (!ch->cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return !ch->inbox.empty(); })) {
        lock.unlock();
        report(false);
        continue;
      }
      c = std::move(ch->inbox.front());
      ch->inbox.pop_front();
      --ch->in_flight;
    }
    Search& s = *by_index[c.search];
    if (s.finished) continue;
    if (!c.result.ok()) {
      fail(s, c.result.status());
      continue;
    }
    const BeamRequest& req = *s.req;
    JobResult& jr = *c.result;
    const std::string search_key = JournalKey(s.digest, req.retime);
    for (size_t k = 0; k < c.indices.size(); ++k) {
      CandidateResult& cr = jr.batch.results[k];
      if (cr.duplicate_of >= 0) cr.duplicate_of = static_cast<int>(c.indices[static_cast<size_t>(cr.duplicate_of)]);
      const size_t i = c.indices[k];
      if (journal) {
        MeasurementRecord m{.search_key = search_key,
                            .opts = req.candidates[i],
                            .outcome = std::string(OutcomeName(cr.outcome)),
                            .error = cr.error,
                            .samples_s = cr.samples_s,
                            .min_s = cr.min_s,
                            .program_hash = cr.program_hash,
                            .worker = jr.measured_by[k].worker,
                            .host = jr.measured_by[k].host};
        ASSIGN_OR_RETURN(bool added, o_.db->PutMeasurement(m));
        journal_rows += added ? 1 : 0;
      }
      s.results[i] = std::move(cr);
      s.measured_by[i] = jr.measured_by[k];
    }
    // (A real kill can also land between two rows of one job: a finalist batch journaled in
    // part is then measured again as a whole.)
    if (o_.abort_after_journal_rows >= 0 && journal_rows >= o_.abort_after_journal_rows)
      return absl::AbortedError("aborted after the journal rows asked for (test hook)");
    out[s.index].measured += static_cast<int64_t>(c.indices.size());
    progress.measured += static_cast<int64_t>(c.indices.size());
    if (--s.outstanding > 0) continue;
    MeasureBatch b;
    b.results = std::move(s.results);
    b.prepare_wall_s = jr.batch.prepare_wall_s;
    b.run_wall_s = jr.batch.run_wall_s;
    DedupAcrossChunks(b, req.options);
    if (req.final_phase()) s.final_results = b.results, s.final_measured_by = s.measured_by;
    s.searcher->Feed(b);
    RETURN_IF_ERROR(advance(s));
  }
  report(true);
  return out;
}

}  // namespace tg::autotune::farm
