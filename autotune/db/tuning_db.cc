// File: autotune/db/tuning_db.cc
// Choosing and opening a tuning database.
#include "autotune/db/tuning_db.h"

#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "autotune/db/postgres_tuning_db.h"
#include "autotune/db/sqlite_tuning_db.h"
#include "tinygrad/base/status_macros.h"
#include "tinygrad/base/version.h"

namespace tg::autotune {

std::string TinygradCcBuild() {
  return absl::StrCat(std::string(kVersion), " (tinygrad ",
                      std::string(kTinygradReferenceCommit.substr(0, 8)), ", ",
                      std::string(kCompilerVersion), ")");
}

std::string DefaultTuningDbPath(const Config& c) { return c.cache_dir + "/tuning.db"; }

absl::StatusOr<std::unique_ptr<TuningDb>> OpenTuningDb(std::string_view location, DbCreate create) {
  std::string path(location);
  if (path.starts_with("postgresql://") || path.starts_with("postgres://")) {
    ASSIGN_OR_RETURN(std::unique_ptr<PostgresTuningDb> db, PostgresTuningDb::Open(path));
    return std::unique_ptr<TuningDb>(std::move(db));
  }
  if (path.starts_with("sqlite:")) path = path.substr(7);
  if (path.empty()) return absl::InvalidArgumentError("tuning database: empty path");
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (create == DbCreate::kFileAndDirectories && !dir.empty()) {
    std::filesystem::create_directories(dir, ec);
    if (ec)
      return absl::UnavailableError(absl::StrCat("tuning database: cannot create directory ",
                                                 dir.string(), ": ", ec.message()));
  }
  if (create == DbCreate::kFile && !dir.empty() && !std::filesystem::is_directory(dir, ec))
    return absl::FailedPreconditionError(absl::StrCat(
        "tuning database ", path, ": its directory ", dir.string(),
        " does not exist (create it first; nothing was made)"));
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTuningDb> db,
                   SqliteTuningDb::Open(path, {.create_if_missing = create != DbCreate::kNothing}));
  return std::unique_ptr<TuningDb>(std::move(db));
}

absl::StatusOr<std::unique_ptr<TuningDb>> OpenDefaultTuningDb(const Config& c) {
  // CACHELEVEL=0 turns every on-disk cache off; this is where the tuning cache obeys it.
  if (c.cachelevel <= 0) return std::unique_ptr<TuningDb>();
  return OpenTuningDb(DefaultTuningDbPath(c), DbCreate::kFileAndDirectories);
}

}  // namespace tg::autotune
