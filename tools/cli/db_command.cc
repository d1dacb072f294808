// File: tools/cli/db_command.cc
// `tg db`: stats, show, export, import, drop and gc over any TuningDb backend.
#include "tools/cli/db_command.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "autotune/db/opts_text.h"
#include "autotune/db/record_json.h"
#include "autotune/db/tuning_db.h"
#include "autotune/db/tuning_key.h"
#include "tinygrad/base/config.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/version.h"
#include "tools/cli/command_line.h"
#include "tools/cli/serve_flags.h"
#include "tools/dashboard/db_page.h"
#include "tools/web/local_server.h"

namespace tg {
namespace {

using autotune::TuningDb;
using autotune::TuningRecord;

constexpr char kDescription[] =
    "Looks after the tuning database. LOCATION: a SQLite file (default: tuning.db in the\n"
    "tinygrad-cc cache directory), sqlite:PATH, or postgresql://user@host:port/dbname.";

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "tg db: %s\n", std::string(s.message()).c_str());
  return kExitFailed;
}

std::string Seconds(const std::optional<double>& s) {
  return s ? absl::StrFormat("%.6g s", *s) : "-";
}

std::string Date(int64_t unix_ms) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%E3S UTC", absl::FromUnixMillis(unix_ms),
                          absl::UTCTimeZone());
}

// Counts per label, printed largest first.
void PrintCounts(const std::string& title, const std::map<std::string, int64_t>& counts) {
  std::printf("%s:\n", title.c_str());
  std::vector<std::pair<int64_t, std::string>> rows;
  for (const auto& [label, n] : counts) rows.emplace_back(-n, label);
  std::sort(rows.begin(), rows.end());
  for (const auto& [n, label] : rows)
    std::printf("  %8lld  %s\n", static_cast<long long>(-n), label.c_str());
}

int Stats(TuningDb& db) {
  absl::StatusOr<std::vector<TuningRecord>> all = db.List();
  if (!all.ok()) return Fail(all.status());
  absl::StatusOr<int64_t> journal = db.CountMeasurements();
  if (!journal.ok()) return Fail(journal.status());
  std::map<std::string, int64_t> by_device, by_renderer, by_version;
  int64_t candidates = 0;
  for (const TuningRecord& r : *all) {
    ++by_device[absl::StrCat(r.key.device, "  ", r.device_description)];
    ++by_renderer[r.key.renderer];
    ++by_version[absl::StrCat("codegen ", r.key.codegen_version, ", opt semantics ",
                              r.key.opt_version)];
    candidates += r.candidates;
  }
  std::printf("database: %s\n", db.location().c_str());
  std::printf("records: %zu\n", all->size());
  std::printf("candidates timed: %lld\n", static_cast<long long>(candidates));
  std::printf("journal rows: %lld\n", static_cast<long long>(*journal));
  PrintCounts("by device class", by_device);
  PrintCounts("by renderer", by_renderer);
  PrintCounts("by version", by_version);
  return kExitOk;
}

void PrintRecord(const TuningRecord& r) {
  std::vector<std::string> samples;
  for (double s : r.samples_s) samples.push_back(absl::StrFormat("%.6g", s));
  std::printf(
      "key:                 %s\n"
      "kernel:              %s\n"
      "ast hash:            %s\n"
      "device class:        %s  %s\n"
      "renderer:            %s\n"
      "compiler:            %s\n"
      "codegen version:     %s (opt semantics %d)\n"
      "search settings:     %s\n"
      "opts:                %s\n"
      "time:                %s\n"
      "unoptimized:         %s\n"
      "heuristic:           %s\n"
      "candidates:          %lld in %.3f s\n"
      "samples:             %s\n"
      "measured by:         %s on %s\n"
      "tinygrad-cc build:   %s\n"
      "stored:              %s\n",
      r.key.Digest().c_str(), r.kernel_name.c_str(), r.key.AstHex().c_str(), r.key.device.c_str(),
      r.device_description.c_str(), r.key.renderer.c_str(),
      absl::StrJoin(absl::StrSplit(r.key.compiler, '\n'), " | ").c_str(),
      r.key.codegen_version.c_str(), r.key.opt_version, r.key.settings.ToString().c_str(),
      autotune::OptsToText(r.opts).c_str(), Seconds(r.time_s).c_str(),
      Seconds(r.noopt_time_s).c_str(), Seconds(r.heuristic_time_s).c_str(),
      static_cast<long long>(r.candidates), r.search_wall_s,
      samples.empty() ? "-" : absl::StrJoin(samples, " ").c_str(),
      r.worker.empty() ? "?" : r.worker.c_str(), r.host.empty() ? "?" : r.host.c_str(),
      r.tinygrad_cc_version.c_str(), Date(r.created_unix_ms).c_str());
}

int Show(TuningDb& db, const std::string& prefix) {
  absl::StatusOr<std::vector<TuningRecord>> all = db.List();
  if (!all.ok()) return Fail(all.status());
  int shown = 0;
  for (const TuningRecord& r : *all) {
    if (!r.key.Digest().starts_with(prefix)) continue;
    if (shown++ > 0) std::printf("\n");
    PrintRecord(r);
  }
  if (shown == 0) {
    std::fprintf(stderr, "tg db: no record whose key starts with '%s' in %s\n", prefix.c_str(),
                 db.location().c_str());
    return kExitFailed;
  }
  return kExitOk;
}

// Every KEY must name exactly one record (a digest or a beginning of one no other record
// shares), or nothing is dropped.
int Drop(TuningDb& db, const std::vector<std::string>& prefixes) {
  absl::StatusOr<std::vector<TuningRecord>> all = db.List();
  if (!all.ok()) return Fail(all.status());
  std::vector<const TuningRecord*> chosen;
  std::vector<std::string> errors;
  for (const std::string& prefix : prefixes) {
    std::vector<const TuningRecord*> matches;
    for (const TuningRecord& r : *all)
      if (r.key.Digest().starts_with(prefix)) matches.push_back(&r);
    if (prefix.empty()) {
      errors.push_back("an empty KEY would name every record");
    } else if (matches.empty()) {
      errors.push_back(absl::StrCat("no record whose key starts with '", prefix, "'"));
    } else if (matches.size() > 1) {
      std::vector<std::string> keys;  // the first few, for a prefix that starts thousands
      for (size_t i = 0; i < matches.size() && i < 4; ++i) keys.push_back(matches[i]->key.Digest());
      if (matches.size() > keys.size()) keys.push_back("...");
      errors.push_back(absl::StrCat("'", prefix, "' starts ", matches.size(), " keys (",
                                    absl::StrJoin(keys, ", "), "): give more of the one to drop"));
    } else if (std::find(chosen.begin(), chosen.end(), matches[0]) == chosen.end()) {
      chosen.push_back(matches[0]);
    }
  }
  if (!errors.empty()) {
    for (const std::string& e : errors) std::fprintf(stderr, "tg db: %s\n", e.c_str());
    std::fprintf(stderr, "tg db: nothing was dropped from %s\n", db.location().c_str());
    return kExitFailed;
  }
  for (const TuningRecord* r : chosen) {
    absl::StatusOr<bool> dropped = db.Drop(r->key.Digest());
    if (!dropped.ok()) return Fail(dropped.status());
    std::printf("%s %s (%s, opts %s)\n", *dropped ? "dropped" : "already gone:", r->key.Digest().c_str(),
                r->kernel_name.c_str(), autotune::OptsToText(r->opts).c_str());
  }
  return kExitOk;
}

int Export(TuningDb& db, const std::string& out_path) {
  absl::StatusOr<std::vector<TuningRecord>> all = db.List();
  if (!all.ok()) return Fail(all.status());
  std::ofstream file;
  if (!out_path.empty()) {
    file.open(out_path, std::ios::trunc);
    if (!file) {
      std::fprintf(stderr, "tg db: cannot write %s\n", out_path.c_str());
      return kExitFailed;
    }
  }
  std::ostream& out = out_path.empty() ? std::cout : file;
  for (const TuningRecord& r : *all) out << autotune::RecordToJson(r) << '\n';
  out.flush();
  if (!out) {
    std::fprintf(stderr, "tg db: writing %s failed\n",
                 out_path.empty() ? "stdout" : out_path.c_str());
    return kExitFailed;
  }
  std::fprintf(stderr, "exported %zu records from %s%s\n", all->size(), db.location().c_str(),
               out_path.empty() ? "" : absl::StrCat(" to ", out_path).c_str());
  return kExitOk;
}

// Every line is read and checked before the database is opened (or made): a bad file leaves
// nothing behind.
int Import(const std::function<absl::StatusOr<std::unique_ptr<TuningDb>>()>& open_db,
           const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "tg db: cannot read %s\n", path.c_str());
    return kExitFailed;
  }
  std::vector<TuningRecord> records;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines
    absl::StatusOr<TuningRecord> r = autotune::RecordFromJson(line);
    if (!r.ok()) {
      std::fprintf(stderr, "tg db: %s:%d: %s (nothing was imported)\n", path.c_str(), n,
                   std::string(r.status().message()).c_str());
      return kExitFailed;
    }
    records.push_back(std::move(*r));
  }
  absl::StatusOr<std::unique_ptr<TuningDb>> db = open_db();
  if (!db.ok()) return Fail(db.status());
  absl::StatusOr<int64_t> stored = (*db)->PutAll(records);
  if (!stored.ok()) return Fail(stored.status());
  std::printf("%zu records read, %lld stored (new or faster), %lld kept (stored one as fast)\n",
              records.size(), static_cast<long long>(*stored),
              static_cast<long long>(records.size() - *stored));
  return kExitOk;
}

int Serve(TuningDb& db, const web::ServeOptions& options) {
  absl::StatusOr<std::unique_ptr<web::LocalServer>> server = dashboard::ServeDbPage(options, &db);
  if (!server.ok()) return Fail(server.status());
  std::printf("db serve: %s (%s; Ctrl-C to stop)\n", (*server)->url().c_str(), db.location().c_str());
  std::fflush(stdout);
  web::WaitForInterrupt();
  return kExitOk;
}

int Gc(TuningDb& db, bool dry_run) {
  absl::StatusOr<autotune::GcCounts> c = db.Gc(kVersion, autotune::kOptSemanticsVersion, dry_run);
  if (!c.ok()) return Fail(c.status());
  std::printf(
      "%s %lld records of other versions than codegen %s / opt semantics %d, "
      "%lld journal rows of finished searches\n",
      dry_run ? "would drop" : "dropped", static_cast<long long>(c->old_records),
      std::string(kVersion).c_str(), autotune::kOptSemanticsVersion,
      static_cast<long long>(c->journal_rows));
  return kExitOk;
}

}  // namespace

int DbCommand(std::span<const std::string_view> args) {
  CLI::App app(kDescription, "tg db");
  SetUpCommandApp(app);
  app.fallthrough();  // --db may also follow the command (tg db stats --db FILE)
  app.require_subcommand(1);
  std::string location, prefix, in_path, out_path;
  std::vector<std::string> drop_keys;
  bool dry_run = false;
  app.add_option("--db", location, "the database LOCATION");
  CLI::App* stats = app.add_subcommand("stats", "records by device class, renderer and version; journal rows");
  CLI::App* show = app.add_subcommand("show", "every field of the records whose key digest starts with KEY");
  show->add_option("KEY", prefix, "a key digest or its beginning ('' for all)")->required();
  CLI::App* export_cmd = app.add_subcommand("export", "every record as one JSON line (default: to stdout)");
  export_cmd->add_option("--out", out_path, "write to FILE instead")->type_name("FILE");
  CLI::App* import = app.add_subcommand("import", "merge JSON lines (better results win; all or nothing)");
  import->add_option("FILE", in_path, "JSON lines, as export writes them")->required();
  CLI::App* drop = app.add_subcommand(
      "drop", "remove the records whose key digests start with KEY... (one record each; e.g. a\n"
              "record whose opts no longer work, which `tg run` names)");
  drop->add_option("KEY", drop_keys, "a key digest or a beginning of it that only one record has")->required();
  CLI::App* gc = app.add_subcommand(
      "gc", absl::StrFormat("drop records of other codegen/opt versions than this build's (%s, opt semantics\n"
                            "%d) and the journal of finished searches",
                            std::string(kVersion), autotune::kOptSemanticsVersion));
  gc->add_flag("--dry-run", dry_run, "only count what would go");
  web::ServeOptions serve_options;
  CLI::App* serve = app.add_subcommand(
      "serve",
      "the records as a web page on loopback (URL printed; until Ctrl-C): kernels with device\n"
      "class, baseline/heuristic/tuned times, speedups and opts, sortable by a click on a column");
  AddServeFlags(*serve, serve_options);
  if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;
  if (serve->parsed()) {
    if (std::optional<int> rc = CheckServeFlags(serve_options, "db serve")) return *rc;
  }

  // Only import stores: it may make the file (and, at the default location in the cache
  // directory, that directory), never a folder of a path the user gave. The others read (or
  // trim: drop, gc) what exists and make nothing.
  const bool default_location = location.empty();
  if (default_location) location = autotune::DefaultTuningDbPath(GetConfig());
  if (import->parsed()) {
    return Import(
        [&] {
          return autotune::OpenTuningDb(location, default_location
                                                      ? autotune::DbCreate::kFileAndDirectories
                                                      : autotune::DbCreate::kFile);
        },
        in_path);
  }
  absl::StatusOr<std::unique_ptr<TuningDb>> db =
      autotune::OpenTuningDb(location, autotune::DbCreate::kNothing);
  if (!db.ok()) return Fail(db.status());
  if (stats->parsed()) return Stats(**db);
  if (show->parsed()) return Show(**db, prefix);
  if (export_cmd->parsed()) return Export(**db, out_path);
  if (drop->parsed()) return Drop(**db, drop_keys);
  if (serve->parsed()) return Serve(**db, serve_options);
  TG_CHECK(gc->parsed()) << "require_subcommand(1) lets no other case through";
  return Gc(**db, dry_run);
}

}  // namespace tg
