// File: autotune/driver.cc
// Many BeamSearchers stepped at once over one Measurer, with the database and the journal.
#include "autotune/driver.h"

#include <algorithm>
#include <cstdint>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "autotune/db/opts_text.h"
#include "autotune/key/vector_isa.h"
#include "autotune/search_record.h"
#include "tinygrad/base/clock.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {
namespace {

using SteadyClock = std::chrono::steady_clock;

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

using JournalMap = absl::flat_hash_map<std::string, std::pair<CandidateResult, MeasuredBy>>;  // by opts text

absl::StatusOr<JournalMap> ReadJournal(TuningDb& db, const std::string& key) {
  ASSIGN_OR_RETURN(std::vector<MeasurementRecord> rows, db.ListMeasurements(key));
  JournalMap out;
  for (const MeasurementRecord& m : rows)
    out.try_emplace(OptsToText(m.opts), FromJournal(m), MeasuredBy{.worker = m.worker, .host = m.host});
  return out;
}

// One kernel's search in flight.
struct Search {
  size_t index = 0;
  std::string digest;  // TuningKey::Digest(): the journal's search key
  SteadyClock::time_point start;
  std::unique_ptr<BeamSearcher> searcher;
  std::shared_ptr<const KernelTask> task;
  JournalMap journal;         // the rounds' results
  JournalMap journal_retime;  // the re-timing being answered (BeamRequest::retime)
  std::vector<std::string> retimes;  // every re-timing asked for: their journal rows go too
  std::optional<BeamRequest> req;
  std::vector<CandidateResult> results;
  std::vector<MeasuredBy> measured_by;
  double prepare_wall_s = 0, run_wall_s = 0;  // of req's parts
  size_t outstanding = 0;  // parts of req not answered yet
  bool finished = false;
  // The last final phase's batch and who timed each: the winner's provenance.
  std::vector<CandidateResult> final_results;
  std::vector<MeasuredBy> final_measured_by;
};

struct Completion {
  Search* search = nullptr;  // read only on Run's thread, while the searches live
  MeasuredPart part;
};

// Where the measurer leaves answered parts. Shared with its callbacks, so a TuneKernels that
// returns early (an error) leaves them a live inbox.
struct Channel {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Completion> inbox;
  int in_flight = 0;
};

class Driver {
 public:
  Driver(std::span<const UOp> asts, const DriverOptions& o)
      : asts_(asts), o_(o), journal_(o.journal && o.db != nullptr), out_(asts.size()) {
    progress_.kernels = static_cast<int>(asts.size());
  }

  absl::StatusOr<std::vector<KernelTuning>> Run() {
    if (o_.renderer == nullptr) return absl::InvalidArgumentError("the tuning driver needs the device's renderer");
    if (o_.measurer == nullptr && !o_.lookup_only)
      return absl::InvalidArgumentError("the tuning driver needs a measurer to search");
    if (o_.observer != nullptr) o_.observer->RunStarted(asts_);
    for (size_t k = 0; k < asts_.size(); ++k) RETURN_IF_ERROR(Start(k));
    for (auto& s : searches_)
      if (!s->finished) RETURN_IF_ERROR(Advance(*s));
    Report(true);
    while (Active()) {
      std::optional<Completion> c = NextCompletion();
      if (!c.has_value()) {
        Report(false);
        continue;
      }
      RETURN_IF_ERROR(Answer(*c->search, std::move(c->part)));
    }
    Report(true);
    return std::move(out_);
  }

 private:
  // The database's answer, or a search started (and journal read).
  absl::Status Start(size_t k) {
    KernelTuning& r = out_[k];
    const SteadyClock::time_point t0 = SteadyClock::now();
    r.ast = asts_[k];
    r.key = TuningKey::Make(asts_[k], o_.device_class, o_.settings, o_.codegen);
    if (o_.db != nullptr && !o_.ignore_cache) {
      std::optional<TuningRecord> hit;
      if (o_.lookup_only) {
        ASSIGN_OR_RETURN(hit, o_.db->LookupBest(r.key));
      } else {
        ASSIGN_OR_RETURN(hit, o_.db->Lookup(r.key));
      }
      if (!o_.lookup_only) TakeIfUnusable(r, hit);
      if (hit.has_value()) {
        r.record = std::move(hit);
        r.from_cache = true;
        r.wall_s = SecondsSince(t0);
        ++progress_.done;
        ++progress_.cached;
        if (o_.observer != nullptr) o_.observer->KernelDone(r);
        return absl::OkStatus();
      }
    }
    if (o_.lookup_only) {
      r.wall_s = SecondsSince(t0);
      ++progress_.done;
      if (o_.observer != nullptr) o_.observer->KernelDone(r);
      return absl::OkStatus();
    }
    auto s = std::make_unique<Search>();
    s->index = k;
    s->start = t0;
    s->digest = r.key.Digest();
    Search& search = *s;
    searches_.push_back(std::move(s));
    BeamOptions bo{.beam_debug = o_.beam_debug, .debug = o_.debug, .vector_isa = VectorIsaOf(o_.device_class)};
    if (o_.observer != nullptr) o_.observer->SearchStarted(asts_[k]);
    if (o_.search_progress || o_.observer != nullptr) {
      bo.progress = [this, k](const BeamProgress& p) {
        if (o_.search_progress) o_.search_progress(asts_[k], p);
        if (o_.observer != nullptr) o_.observer->SearchProgress(asts_[k], p);
      };
    }
    absl::StatusOr<SearchStart> start = StartSearch(asts_[k], *o_.renderer, o_.codegen, std::move(bo));
    if (!start.ok()) return Fail(search, start.status()), absl::OkStatus();
    search.task = std::make_shared<const KernelTask>(start->task);
    absl::StatusOr<std::unique_ptr<BeamSearcher>> searcher =
        BeamSearcher::Create(std::move(start->task), *o_.renderer, o_.settings, std::move(start->options));
    if (!searcher.ok()) return Fail(search, searcher.status()), absl::OkStatus();
    search.searcher = *std::move(searcher);
    if (journal_) {
      ASSIGN_OR_RETURN(search.journal, ReadJournal(*o_.db, search.digest));
    }
    return absl::OkStatus();
  }

  // Steps `s` until it waits for the measurer (or is done): answers what the journal holds,
  // submits the rest.
  absl::Status Advance(Search& s) {
    while (!s.finished) {
      s.req = s.searcher->Next();
      if (!s.req.has_value()) return Finish(s);
      const BeamRequest& req = *s.req;
      const size_t n = req.candidates.size();
      s.results.assign(n, CandidateResult{});
      s.measured_by.assign(n, MeasuredBy{});
      s.prepare_wall_s = s.run_wall_s = 0;
      if (!req.retime.empty()) {
        if (std::find(s.retimes.begin(), s.retimes.end(), req.retime) == s.retimes.end())
          s.retimes.push_back(req.retime);
        s.journal_retime.clear();
        if (journal_) {
          ASSIGN_OR_RETURN(s.journal_retime, ReadJournal(*o_.db, JournalKey(s.digest, req.retime)));
        }
      }
      const JournalMap& jmap = req.retime.empty() ? s.journal : s.journal_retime;
      std::vector<size_t> missing;
      for (size_t i = 0; i < n; ++i) {
        auto it = jmap.empty() ? jmap.end() : jmap.find(OptsToText(req.candidates[i]));
        if (it != jmap.end()) {
          s.results[i] = it->second.first;
          s.measured_by[i] = it->second.second;
        } else {
          missing.push_back(i);
        }
      }
      // A re-timing is timed together or not at all: a partial journal of it is measured again.
      if (!req.retime.empty() && !missing.empty()) {
        missing.clear();
        for (size_t i = 0; i < n; ++i) missing.push_back(i);
      }
      const int64_t hits = static_cast<int64_t>(n - missing.size());
      out_[s.index].journal_hits += hits;
      progress_.journal_hits += hits;
      if (missing.empty()) {
        Feed(s);
        continue;
      }
      std::vector<std::vector<Opt>> candidates;
      candidates.reserve(missing.size());
      for (size_t i : missing) candidates.push_back(req.candidates[i]);
      // The parts may arrive before Submit returns: they wait in the inbox until Run reads it.
      Search* sp = &s;
      s.outstanding = o_.measurer->Submit(
          s.task, std::move(candidates), req.options, s.index + 1,
          [ch = ch_, sp, missing = std::move(missing)](MeasuredPart part) {
            for (size_t& i : part.indices) i = i < missing.size() ? missing[i] : SIZE_MAX;
            std::lock_guard<std::mutex> lock(ch->mu);
            ch->inbox.push_back(Completion{.search = sp, .part = std::move(part)});
            ch->cv.notify_one();
          });
      std::lock_guard<std::mutex> lock(ch_->mu);
      ch_->in_flight += static_cast<int>(s.outstanding);
      return absl::OkStatus();
    }
    return absl::OkStatus();
  }

  // One answered part of s.req: journaled, then, with the last part, fed to the search.
  absl::Status Answer(Search& s, MeasuredPart part) {
    if (s.finished) return absl::OkStatus();
    if (!part.batch.ok()) return Fail(s, part.batch.status()), absl::OkStatus();
    const BeamRequest& req = *s.req;
    MeasureBatch& batch = *part.batch;
    if (batch.results.size() != part.indices.size() || part.measured_by.size() != part.indices.size())
      return Fail(s, absl::InternalError("the measurer answered a part with the wrong number of results")),
             absl::OkStatus();
    const std::string search_key = JournalKey(s.digest, req.retime);
    for (size_t k = 0; k < part.indices.size(); ++k) {
      CandidateResult& cr = batch.results[k];
      const size_t i = part.indices[k];
      if (i >= s.results.size()) return Fail(s, absl::InternalError("the measurer answered an unknown candidate")), absl::OkStatus();
      if (cr.duplicate_of >= 0 && static_cast<size_t>(cr.duplicate_of) < part.indices.size())
        cr.duplicate_of = static_cast<int>(part.indices[static_cast<size_t>(cr.duplicate_of)]);
      if (journal_) {
        MeasurementRecord m{.search_key = search_key,
                            .opts = req.candidates[i],
                            .outcome = std::string(OutcomeName(cr.outcome)),
                            .error = cr.error,
                            .samples_s = cr.samples_s,
                            .min_s = cr.min_s,
                            .program_hash = cr.program_hash,
                            .worker = part.measured_by[k].worker,
                            .host = part.measured_by[k].host};
        ASSIGN_OR_RETURN(bool added, o_.db->PutMeasurement(m));
        journal_rows_ += added ? 1 : 0;
      }
      s.results[i] = std::move(cr);
      s.measured_by[i] = std::move(part.measured_by[k]);
    }
    // (A real kill can also land between two rows of one part: a finalist batch journaled in
    // part is then measured again as a whole.)
    if (o_.abort_after_journal_rows >= 0 && journal_rows_ >= o_.abort_after_journal_rows)
      return absl::AbortedError("aborted after the journal rows asked for (test hook)");
    const auto n = static_cast<int64_t>(part.indices.size());
    out_[s.index].measured += n;
    progress_.measured += n;
    s.prepare_wall_s = std::max(s.prepare_wall_s, batch.prepare_wall_s);
    s.run_wall_s = std::max(s.run_wall_s, batch.run_wall_s);
    if (--s.outstanding > 0) return absl::OkStatus();
    Feed(s);
    return Advance(s);
  }

  // s.req's whole batch to the search.
  void Feed(Search& s) {
    const BeamRequest& req = *s.req;
    MeasureBatch b;
    b.results = std::move(s.results);
    b.prepare_wall_s = s.prepare_wall_s;
    b.run_wall_s = s.run_wall_s;
    DedupAcrossParts(b, req.options);
    if (req.final_phase()) s.final_results = b.results, s.final_measured_by = s.measured_by;
    s.searcher->Feed(b);
  }

  // Moves `hit` into r.unusable when its opts do not apply to r's kernel (with why).
  void TakeIfUnusable(KernelTuning& r, std::optional<TuningRecord>& hit) const {
    if (!hit.has_value()) return;
    absl::Status usable = CheckOptsApply(r.ast, *o_.renderer, o_.codegen, hit->opts);
    if (usable.ok()) return;
    r.unusable = std::move(hit);
    r.unusable_why = std::move(usable);
    hit.reset();
  }

  // The winner goes to the database and the search's journal goes away.
  absl::Status Finish(Search& s) {
    s.finished = true;
    KernelTuning& r = out_[s.index];
    const BeamResult& br = s.searcher->result();
    TuningRecord rec = RecordOfSearch(r.key, br, o_.device_class);
    for (size_t i = 0; i < s.final_results.size(); ++i)
      if (s.final_results[i].program_hash == br.program_hash && s.final_results[i].timed()) {
        rec.worker = s.final_measured_by[i].worker;
        rec.host = s.final_measured_by[i].host;
        rec.samples_s = s.final_results[i].samples_s;  // as the machine that ran it measured them
        break;
      }
    if (o_.db != nullptr && br.time_s < kInf) {
      if (o_.ignore_cache) {
        // Nothing was looked up: a stored record whose opts do not apply would otherwise keep
        // its place with whatever time it claims.
        ASSIGN_OR_RETURN(std::optional<TuningRecord> stored, o_.db->Lookup(r.key));
        TakeIfUnusable(r, stored);
      }
      if (r.unusable.has_value()) {
        RETURN_IF_ERROR(o_.db->ReplaceUnusable(rec, r.unusable->opts).status());
      } else {
        RETURN_IF_ERROR(o_.db->Put(rec).status());
      }
      if (journal_) {
        RETURN_IF_ERROR(o_.db->DeleteMeasurements(s.digest).status());
        for (const std::string& retime : s.retimes)
          RETURN_IF_ERROR(o_.db->DeleteMeasurements(JournalKey(s.digest, retime)).status());
      }
    }
    r.record = std::move(rec);
    r.search = br;
    r.wall_s = SecondsSince(s.start);
    ++progress_.done;
    if (br.noopt_s < kInf && br.time_s > 0 && br.time_s < kInf) progress_.speedups.push_back(br.noopt_s / br.time_s);
    if (o_.observer != nullptr) o_.observer->KernelDone(r);
    Report(true);
    return absl::OkStatus();
  }

  void Fail(Search& s, absl::Status st) {
    s.finished = true;
    out_[s.index].status = std::move(st);
    out_[s.index].wall_s = SecondsSince(s.start);
    ++progress_.done;
    ++progress_.failed;
    if (o_.observer != nullptr) o_.observer->KernelDone(out_[s.index]);
    Report(true);
  }

  bool Active() const {
    return std::any_of(searches_.begin(), searches_.end(), [](const auto& s) { return !s->finished; });
  }

  // The next answered part; nullopt after 100 ms without one (time to report progress).
  std::optional<Completion> NextCompletion() {
    std::unique_lock<std::mutex> lock(ch_->mu);
    if (!ch_->cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return !ch_->inbox.empty(); }))
      return std::nullopt;
    Completion c = std::move(ch_->inbox.front());
    ch_->inbox.pop_front();
    --ch_->in_flight;
    return c;
  }

  void Report(bool force) {
    if (!o_.progress && o_.observer == nullptr) return;
    const SteadyClock::time_point now = SteadyClock::now();
    if (!force && now - last_report_ < std::chrono::milliseconds(100)) return;
    last_report_ = now;
    {
      std::lock_guard<std::mutex> lock(ch_->mu);
      progress_.in_flight = ch_->in_flight;
    }
    if (o_.progress) o_.progress(progress_);
    if (o_.observer != nullptr) o_.observer->RunProgress(progress_);
  }

  std::span<const UOp> asts_;
  const DriverOptions& o_;
  const bool journal_;
  std::vector<KernelTuning> out_;
  std::vector<std::unique_ptr<Search>> searches_;
  std::shared_ptr<Channel> ch_ = std::make_shared<Channel>();
  TuningProgress progress_;
  int64_t journal_rows_ = 0;
  SteadyClock::time_point last_report_;
};

}  // namespace

absl::StatusOr<std::vector<KernelTuning>> TuneKernels(std::span<const UOp> asts, const DriverOptions& options) {
  return Driver(asts, options).Run();
}

}  // namespace tg::autotune
