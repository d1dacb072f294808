// File: autotune/farm/farm_status_json.cc
// Each struct's fields are listed once (name, member), and both directions walk that list.
#include "autotune/farm/farm_status_json.h"

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <variant>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "tinygrad/base/json_fields.h"
#include "tinygrad/base/status_macros.h"

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

// Each member read by its type's checked read: an int field out of int's range is an error,
// not a wrapped number.
template <class T>
absl::Status Read(const json& j, T& v, std::span<const Field<T>> fields, const std::string& where) {
  JsonFields in(j, where);
  RETURN_IF_ERROR(in.IsObject());
  for (const Field<T>& f : fields) {
    absl::Status read = std::visit(
        [&](auto m) -> absl::Status {
          using V = std::remove_reference_t<decltype(v.*m)>;
          if constexpr (std::is_same_v<V, std::string>) {
            ASSIGN_OR_RETURN(v.*m, in.String(f.name));
          } else if constexpr (std::is_same_v<V, bool>) {
            ASSIGN_OR_RETURN(v.*m, in.Bool(f.name));
          } else if constexpr (std::is_same_v<V, double>) {
            ASSIGN_OR_RETURN(v.*m, in.Number(f.name));
          } else {
            ASSIGN_OR_RETURN(v.*m, in.Int(f.name, std::numeric_limits<V>::min(), std::numeric_limits<V>::max()));
          }
          return absl::OkStatus();
        },
        f.member);
    RETURN_IF_ERROR(read);
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
absl::Status ReadList(const JsonFields& in, const char* name, std::vector<T>& out, std::span<const Field<T>> fields) {
  ASSIGN_OR_RETURN(const json* list, in.Array(name));
  for (size_t i = 0; i < list->size(); ++i) {
    T item;
    RETURN_IF_ERROR(Read((*list)[i], item, fields, JsonIndexPath(name, i)));
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
  absl::StatusOr<json> j = ParseJson(text);
  if (!j.ok()) return absl::InvalidArgumentError(absl::StrCat("the farm status is not JSON: ", j.status().message()));
  if (!j->is_object()) return absl::InvalidArgumentError("the farm status is not a JSON object");
  JsonFields in(*j, "");
  FarmStatus s;
  RETURN_IF_ERROR(ReadList<WorkerStatus>(in, "workers", s.workers, kWorkerFields));
  RETURN_IF_ERROR(ReadList<FarmStatus::ClassQueue>(in, "classes", s.classes, kClassFields));
  RETURN_IF_ERROR(ReadList<EvictedWorker>(in, "evicted", s.evicted, kEvictedFields));
  ASSIGN_OR_RETURN(const json* counters, in.Get("counters"));
  RETURN_IF_ERROR(Read<FarmStatus>(*counters, s, kCounterFields, "counters"));
  return s;
}

}  // namespace tg::autotune::farm
