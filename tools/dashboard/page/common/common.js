// Helpers shared by the tuning pages (tools/dashboard): building elements, formatting times,
// polling a JSON endpoint, sortable tables that keep their order across refreshes, and an SVG
// line plot.

// el("td", {class: "x", "data-col": "name"}, "text", child, ...)
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children) if (c !== undefined && c !== null) e.append(c instanceof Node ? c : String(c));
  return e;
}

// Seconds as people read them: "12.3 us", "1.234 ms", "2.50 s"; "-" when not measured.
export function fmtTime(s) {
  if (s === null || s === undefined || !isFinite(s)) return "-";
  if (s < 1e-3) return (s * 1e6).toFixed(1) + " us";
  if (s < 1) return (s * 1e3).toFixed(3) + " ms";
  return s.toFixed(2) + " s";
}

export function fmtRatio(x) {
  return x === null || x === undefined || !isFinite(x) ? "-" : x.toFixed(2) + "x";
}

export function setTitle(text) {
  document.title = text;
  document.getElementById("title").textContent = text;
}

// The header's status line; kind "", "error" or "finished".
export function setStatus(text, kind = "") {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = "status " + kind;
}

// Fetches `url` now and then every `intervalMs`, calling onData(json) with each answer; an
// answer for which onData returns "stop" ends the polling. A failed fetch is shown and retried.
export function poll(url, onData, intervalMs = 1000) {
  const tick = async () => {
    let data;
    try {
      const r = await fetch(url, {cache: "no-store"});
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      data = await r.json();
    } catch (e) {
      setStatus(`cannot read ${url} (${e.message}); retrying`, "error");
      setTimeout(tick, intervalMs);
      return;
    }
    if (onData(data) !== "stop") setTimeout(tick, intervalMs);
  };
  tick();
}

// Replaces the children of the element with id `id` (creating it under `parent` the first time).
export function section(parent, id, ...children) {
  let s = document.getElementById(id);
  if (!s) {
    s = el("section", {id});
    parent.append(s);
  }
  s.replaceChildren(...children);
  return s;
}

// Sort state of each table by id, so a refresh keeps the user's order.
const sortState = new Map();

// A table of `rows` with `columns` [{key, label, value(row) (sort key; default row[key]),
// render(row) (cell text or node; default value), cls}]; a click on a header sorts by it
// (again: the other way). `rowAttrs(row)` gives each <tr>'s attributes. Cells carry data-col.
export function sortableTable(id, columns, rows, rowAttrs = () => ({}), onSort = null) {
  const state = sortState.get(id) || {key: null, dir: 1};
  const col = columns.find((c) => c.key === state.key);
  const valueOf = (c, r) => (c.value ? c.value(r) : r[c.key]);
  let shown = rows.slice();
  if (col) {
    shown.sort((a, b) => {
      const x = valueOf(col, a), y = valueOf(col, b);
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;  // unmeasured last, either way
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * state.dir;
    });
  }
  const head = el("tr", {}, ...columns.map((c) => {
    const th = el("th", {class: (c.cls || "") + (c.key === state.key ? ` sorted ${state.dir > 0 ? "asc" : "desc"}` : ""),
                         "data-col": c.key}, c.label);
    th.addEventListener("click", () => {
      sortState.set(id, {key: c.key, dir: state.key === c.key ? -state.dir : 1});
      if (onSort) onSort();
    });
    return th;
  }));
  const body = shown.map((r) => el("tr", rowAttrs(r), ...columns.map((c) => {
    const v = c.render ? c.render(r) : valueOf(c, r);
    // long text (a device class) is cut by the style; its whole text is the cell's tooltip
    return el("td", {class: c.cls, "data-col": c.key, title: typeof v === "string" ? v : undefined},
              v === null || v === undefined ? "-" : v);
  })));
  return el("table", {id}, el("thead", {}, head), el("tbody", {}, ...body));
}

// Labels and values as a grid of "label  value" lines.
export function counters(pairs) {
  return el("div", {class: "counters"}, ...pairs.map(([k, v]) => el("div", {}, el("span", {}, k), el("b", {}, v))));
}

const COLORS = ["#1f5fbf", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d"];
export function color(i) { return COLORS[i % COLORS.length]; }

// An SVG line plot of `series` [{label, color, points: [[x, y], ...]}], y on a log scale
// (times span orders of magnitude), each line a step function (a best time holds until the next).
export function linePlot(series, {width = 640, height = 260, xLabel = "", yFormat = String} = {}) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("class", "plot");
  const pts = series.flatMap((s) => s.points).filter(([x, y]) => isFinite(x) && y > 0);
  if (pts.length === 0) {
    add("text", {x: 10, y: 20}, "no times yet");
    return svg;
  }
  const m = {l: 70, r: 10, t: 10, b: 30};
  const xMax = Math.max(...pts.map((p) => p[0]), 1e-9);
  let yMin = Math.log10(Math.min(...pts.map((p) => p[1])));
  let yMax = Math.log10(Math.max(...pts.map((p) => p[1])));
  if (yMax - yMin < 0.1) { yMin -= 0.05; yMax += 0.05; }
  const X = (x) => m.l + (x / xMax) * (width - m.l - m.r);
  const Y = (y) => m.t + (1 - (Math.log10(y) - yMin) / (yMax - yMin)) * (height - m.t - m.b);
  add("line", {x1: m.l, y1: height - m.b, x2: width - m.r, y2: height - m.b, class: "axis"});
  add("line", {x1: m.l, y1: m.t, x2: m.l, y2: height - m.b, class: "axis"});
  for (let i = 0; i <= 4; ++i) {
    const y = Math.pow(10, yMin + (i / 4) * (yMax - yMin));
    add("text", {x: m.l - 4, y: Y(y) + 4, "text-anchor": "end"}, yFormat(y));
    const x = (i / 4) * xMax;
    add("text", {x: X(x), y: height - m.b + 14, "text-anchor": "middle"}, x.toFixed(1));
  }
  add("text", {x: width - m.r, y: height - 2, "text-anchor": "end"}, xLabel);
  for (const s of series) {
    if (s.points.length === 0) continue;
    let d = "";
    s.points.forEach(([x, y], i) => {
      d += i === 0 ? `M${X(x)},${Y(y)}` : `H${X(x)}V${Y(y)}`;
    });
    d += `H${X(s.points[s.points.length - 1][0])}`;
    add("path", {d, fill: "none", stroke: s.color, "stroke-width": 2, "data-label": s.label});
  }
  return svg;
}
