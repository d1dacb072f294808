// `tg tune --dashboard`: the tune's state, read from /api/state every second until it finishes.
import {color, counters, el, fmtRatio, fmtTime, linePlot, poll, section, setStatus, setTitle,
        sortableTable} from "./common.js";
import {renderFarm} from "./farm_view.js";

const main = document.getElementById("main");
let last = null;

const kernelColumns = [
  {key: "index", label: "#"},
  {key: "name", label: "kernel", cls: "text"},
  {key: "state", label: "state", cls: "text state"},
  {key: "round", label: "round", render: (k) => (k.state === "searching" ? `${k.phase} ${k.round}` : k.round)},
  {key: "candidates", label: "candidates", render: (k) => `${k.timed} / ${k.candidates}`},
  {key: "best_s", label: "best", render: (k) => fmtTime(k.best_s)},
  {key: "heuristic_s", label: "heuristic", render: (k) => fmtTime(k.heuristic_s)},
  {key: "noopt_s", label: "baseline", render: (k) => fmtTime(k.noopt_s)},
  {key: "vs_heuristic", label: "vs heuristic", render: (k) => fmtRatio(k.vs_heuristic)},
  {key: "vs_noopt", label: "vs baseline", render: (k) => fmtRatio(k.vs_noopt)},
  {key: "search_s", label: "search", render: (k) => k.search_s.toFixed(1) + " s"},
  {key: "opts", label: "opts", cls: "opts"},
];

function render() {
  const s = last;
  setTitle(`tg tune: ${s.title}`);
  const st = s.states;
  section(main, "summary", el("p", {class: "summary"},
    el("b", {}, `${st.done + st.cached + st.failed} / ${s.kernels.length}`), " kernels decided (",
    `${st.cached} from the database, ${st.failed} failed, ${st.searching} searching, ${st.queued} queued); `,
    el("b", {}, s.progress.in_flight), " jobs in flight, ",
    el("b", {}, s.progress.measured), " candidates measured, ",
    s.progress.journal_hits, " from the journal"));
  section(main, "kernels", el("h2", {}, s.finished ? "Kernels (final)" : "Kernels"),
          sortableTable("kernel-table", kernelColumns, s.kernels,
                        (k) => ({"data-kernel": k.index, class: `state-${k.state}`}), render));
  const series = s.kernels.filter((k) => k.best_over_time.length > 0)
                          .map((k) => ({label: k.name, color: color(k.index), points: k.best_over_time}));
  section(main, "plot", el("h2", {}, "Best time over search time"),
          linePlot(series, {xLabel: "search time (s)", yFormat: fmtTime}),
          el("div", {class: "legend"}, ...series.map((x) => el("span", {}, el("i", {style: `background:${x.color}`}), x.label))));
  const failures = Object.entries(s.failures);
  const errors = s.kernels.filter((k) => k.error);
  section(main, "failures", el("h2", {}, "Failed candidates by kind"),
          failures.length ? counters(failures) : el("p", {class: "empty"}, "none"),
          ...errors.map((k) => el("p", {class: "status error"}, `${k.name}: ${k.error}`)));
  if (s.farm) renderFarm(main, s.farm, render);
}

poll("/api/state", (data) => {
  last = data;
  render();
  if (data.finished) {
    setStatus("finished: the final table", "finished");
    return "stop";
  }
  setStatus(`tuning; updated ${new Date().toLocaleTimeString()}`);
});
