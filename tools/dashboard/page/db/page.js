// `tg db serve`: the tuning database's records, sortable by a click on a column, filtered by
// the text box (matched against kernel, device, renderer and opts).
import {el, fmtRatio, fmtTime, section, setStatus, setTitle, sortableTable} from "./common.js";

const main = document.getElementById("main");
const filter = el("input", {class: "filter", id: "filter", placeholder: "filter: kernel, device, opts..."});
main.append(filter);
let data = null;

const columns = [
  {key: "kernel", label: "kernel", cls: "text"},
  {key: "device_description", label: "device class", cls: "text"},
  {key: "noopt_s", label: "baseline", render: (r) => fmtTime(r.noopt_s)},
  {key: "heuristic_s", label: "heuristic", render: (r) => fmtTime(r.heuristic_s)},
  {key: "tuned_s", label: "tuned", render: (r) => fmtTime(r.tuned_s)},
  {key: "vs_noopt", label: "vs baseline", render: (r) => fmtRatio(r.vs_noopt)},
  {key: "vs_heuristic", label: "vs heuristic", render: (r) => fmtRatio(r.vs_heuristic)},
  {key: "candidates", label: "candidates"},
  {key: "search_s", label: "search", render: (r) => r.search_s.toFixed(1) + " s"},
  {key: "opts", label: "opts", cls: "opts"},
];

function render() {
  if (!data) return;
  const words = filter.value.toLowerCase().split(/\s+/).filter((w) => w);
  const rows = data.records.filter((r) => {
    const text = [r.kernel, r.device, r.device_description, r.renderer, r.opts].join(" ").toLowerCase();
    return words.every((w) => text.includes(w));
  });
  section(main, "records",
          el("p", {class: "summary"}, `${rows.length} of ${data.records.length} records`),
          sortableTable("records-table", columns, rows, (r) => ({"data-key": r.key}), render));
}

filter.addEventListener("input", render);
fetch("/api/records", {cache: "no-store"})
  .then((r) => r.json())
  .then((d) => {
    data = d;
    setTitle(`tg db: ${d.db}`);
    if (d.error) setStatus(`cannot read the database: ${d.error}`, "error");
    else setStatus(`${d.records.length} records`);
    render();
  })
  .catch((e) => setStatus(`cannot read /api/records (${e.message})`, "error"));
