// A farm's status (FarmStatusToJson, autotune/farm/farm_status_json.h) as tables: workers with
// their device classes, the classes' queues and jobs in flight, the coordinator's counters
// (requeues, poisoned candidates, dead workers, ...) and evicted workers. Used by the tuning
// dashboard and by `tg farm status --web`.
import {counters, el, section, sortableTable} from "./common.js";

const short = (digest) => (digest || "").slice(0, 12);

export function renderFarm(main, farm, refresh) {
  const workers = sortableTable("workers", [
    {key: "id", label: "worker", cls: "text"},
    {key: "host", label: "host", cls: "text"},
    {key: "device", label: "device class", cls: "text"},
    {key: "device_class", label: "digest", cls: "text", render: (w) => short(w.device_class)},
    {key: "capacity", label: "slots"},
    {key: "in_flight", label: "in flight"},
    {key: "jobs", label: "jobs"},
    {key: "errors", label: "errors"},
    {key: "lost", label: "lost"},
    {key: "deadline_misses", label: "deadline misses"},
    {key: "last_seen_s", label: "last seen", render: (w) => w.last_seen_s.toFixed(1) + " s"},
  ], farm.workers, (w) => ({"data-worker": w.id}), refresh);
  const classes = sortableTable("classes", [
    {key: "device_class", label: "device class", cls: "text", render: (c) => short(c.device_class)},
    {key: "workers", label: "workers"},
    {key: "slots", label: "slots"},
    {key: "queued", label: "jobs queued"},
    {key: "in_flight", label: "jobs in flight"},
  ], farm.classes, () => ({}), refresh);
  const c = farm.counters;
  const totals = counters([
    ["jobs submitted", c.submitted], ["jobs answered", c.completed], ["jobs pending", c.pending],
    ["requests sent", c.jobs_sent], ["requeued", c.requeued], ["poisoned candidates", c.poisoned],
    ["job errors", c.job_errors], ["workers declared dead", c.dead_workers],
    ["deadline misses", c.deadline_misses], ["workers evicted", c.evicted_workers],
    ["results dropped", c.dropped_results], ["task resends", c.task_resends],
    ["reconnects", c.reconnects], ["backups sent", c.backups_sent], ["backups won", c.backups_won],
    ["rejected hellos", c.rejected_hellos], ["broker CPU", c.broker_cpu_s.toFixed(2) + " s"],
  ]);
  section(main, "farm",
          el("h2", {}, `Workers (${farm.workers.length})`),
          farm.workers.length ? workers : el("p", {class: "empty"}, "no worker connected"),
          el("h2", {}, "Device classes"), classes,
          el("h2", {}, "Farm counters"), totals,
          ...(farm.evicted.length ? [el("h2", {}, "Evicted workers"),
                                     sortableTable("evicted", [
                                       {key: "id", label: "worker", cls: "text"},
                                       {key: "host", label: "host", cls: "text"},
                                       {key: "deadline_misses", label: "deadline misses"},
                                     ], farm.evicted, () => ({}), refresh)] : []));
}
