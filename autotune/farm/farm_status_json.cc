// File: autotune/farm/farm_status_json.cc
// Each struct's fields are listed once (name, member), and both directions walk that list.
#include "autotune/farm/farm_status_json.h"

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <variant>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace tg::autotune::farm {
namespace {

using nlohmann::json;

template <class T>
struct Field {
  const char* name;
  std::variant<std::string T::*, int T::*, int64_t T::*, double T::*, bool T::*> member;
};

const Field<WorkerStatus> kWorkerFields[] = {
    {"id", &WorkerStatus::id},
    {"host", &WorkerStatus::host},
    {"device_class", &WorkerStatus::device_class},
    {"device", &WorkerStatus::device},
    {"build_id", &WorkerStatus::build_id},
    {"capacity", &WorkerStatus::capacity},
    {"credits", &WorkerStatus::credits},
    {"in_flight", &WorkerStatus::in_flight},
    {"last_seen_s", &WorkerStatus::last_seen_s},
    {"jobs", &WorkerStatus::jobs},
    {"errors", &WorkerStatus::errors},
    {"lost", &WorkerStatus::lost},
    {"deadline_misses", &WorkerStatus::deadline_misses},
    {"overdue", &WorkerStatus::overdue},
    {"unroutable", &WorkerStatus::unroutable},
};

const Field<FarmStatus::ClassQueue> kClassFields[] = {
    {"device_class", &FarmStatus::ClassQueue::device_class},
    {"workers", &FarmStatus::ClassQueue::workers},
    {"slots", &FarmStatus::ClassQueue::slots},
    {"queued", &FarmStatus::ClassQueue::queued},
    {"in_flight", &FarmStatus::ClassQueue::in_flight},
};

const Field<EvictedWorker> kEvictedFields[] = {
    {"id", &EvictedWorker::id},
    {"host", &EvictedWorker::host},
    {"key", &EvictedWorker::key},
    {"deadline_misses", &EvictedWorker::deadline_misses},
};

const Field<FarmStatus> kCounterFields[] = {
    {"submitted", &FarmStatus::submitted},
    {"completed", &FarmStatus::completed},
    {"pending", &FarmStatus::pending},
    {"jobs_sent", &FarmStatus::jobs_sent},
    {"results", &FarmStatus::results},
    {"dropped_results", &FarmStatus::dropped_results},
    {"requeued", &FarmStatus::requeued},
    {"task_resends", &FarmStatus::task_resends},
    {"job_errors", &FarmStatus::job_errors},
    {"poisoned", &FarmStatus::poisoned},
    {"dead_workers", &FarmStatus::dead_workers},
    {"rejected_hellos", &FarmStatus::rejected_hellos},
    {"revoked_messages", &FarmStatus::revoked_messages},
    {"reconnects", &FarmStatus::reconnects},
    {"deadline_misses", &FarmStatus::deadline_misses},
    {"evicted_workers", &FarmStatus::evicted_workers},
    {"evicted_hellos", &FarmStatus::evicted_hellos},
    {"backups_sent", &FarmStatus::backups_sent},
    {"backups_won", &FarmStatus::backups_won},
    {"speculative_losses", &FarmStatus::speculative_losses},
    {"broker_cpu_s", &FarmStatus::broker_cpu_s},
};

template <class T>
json Write(const T& v, std::span<const Field<T>> fields) {
  json j = json::object();
  for (const Field<T>& f : fields) std::visit([&](auto m) { j[f.name] = v.*m; }, f.member);
  return j;
}

template <class T>
absl::Status Read(const json& j, T& v, std::span<const Field<T>> fields, const std::string& where) {
  if (!j.is_object()) return absl::InvalidArgumentError(absl::StrCat(where, " is not an object"));
  for (const Field<T>& f : fields) {
    auto it = j.find(f.name);
    if (it == j.end()) return absl::InvalidArgumentError(absl::StrCat(where, ".", f.name, " is missing"));
    const json& x = *it;
    bool ok = std::visit(
        [&](auto m) {
          using V = std::remove_reference_t<decltype(v.*m)>;
          if constexpr (std::is_same_v<V, std::string>) {
            if (!x.is_string()) return false;
          } else if constexpr (std::is_same_v<V, bool>) {
            if (!x.is_boolean()) return false;
          } else if constexpr (std::is_same_v<V, double>) {
            if (!x.is_number()) return false;
          } else {
            if (!x.is_number_integer()) return false;
          }
          v.*m = x.get<V>();
          return true;
        },
        f.member);
    if (!ok) return absl::InvalidArgumentError(absl::StrCat(where, ".", f.name, " has the wrong type"));
  }
  return absl::OkStatus();
}

template <class T>
json WriteList(const std::vector<T>& items, std::span<const Field<T>> fields) {
  json a = json::array();
  for (const T& item : items) a.push_back(Write(item, fields));
  return a;
}

template <class T>
absl::Status ReadList(const json& j, const char* name, std::vector<T>& out, std::span<const Field<T>> fields) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_array()) return absl::InvalidArgumentError(absl::StrCat(name, " is missing or not a list"));
  for (size_t i = 0; i < it->size(); ++i) {
    T item;
    if (absl::Status s = Read((*it)[i], item, fields, absl::StrCat(name, "[", i, "]")); !s.ok()) return s;
    out.push_back(std::move(item));
  }
  return absl::OkStatus();
}

}  // namespace

std::string FarmStatusToJson(const FarmStatus& s) {
  json j = json::object();
  j["workers"] = WriteList<WorkerStatus>(s.workers, kWorkerFields);
  j["classes"] = WriteList<FarmStatus::ClassQueue>(s.classes, kClassFields);
  j["evicted"] = WriteList<EvictedWorker>(s.evicted, kEvictedFields);
  j["counters"] = Write<FarmStatus>(s, kCounterFields);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

absl::StatusOr<FarmStatus> FarmStatusFromJson(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError("the farm status is not JSON");
  if (!j.is_object()) return absl::InvalidArgumentError("the farm status is not a JSON object");
  FarmStatus s;
  if (absl::Status e = ReadList<WorkerStatus>(j, "workers", s.workers, kWorkerFields); !e.ok()) return e;
  if (absl::Status e = ReadList<FarmStatus::ClassQueue>(j, "classes", s.classes, kClassFields); !e.ok()) return e;
  if (absl::Status e = ReadList<EvictedWorker>(j, "evicted", s.evicted, kEvictedFields); !e.ok()) return e;
  auto counters = j.find("counters");
  if (counters == j.end()) return absl::InvalidArgumentError("counters is missing");
  if (absl::Status e = Read<FarmStatus>(*counters, s, kCounterFields, "counters"); !e.ok()) return e;
  return s;
}

}  // namespace tg::autotune::farm
