// The VIZ page: a kernel list on the left; a kernel's rewrites under it; a rewrite's graph at
// each match (SVG laid out by the server with Graphviz), stepped with the buttons, the slider
// or the arrow keys; the kernel's source and linear program; the match-stats table.
// Left/Right: previous/next match. Up/Down: previous/next rewrite of the kernel.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { kernels: [], kernel: -1, rewrite: -1, step: 0, steps: 0, matches: [], token: 0, statsLoaded: false };

async function api(path) {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(body.error || `${path}: HTTP ${response.status}`), { status: response.status });
  return body;
}

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function saveLocation() {
  const parts = [`k=${state.kernel}`];
  if (state.rewrite >= 0) parts.push(`r=${state.rewrite}`, `s=${state.step}`);
  history.replaceState(null, "", "#" + parts.join("&"));
}

// ** the kernel list

function renderKernelList() {
  const list = $("kernel-list");
  list.textContent = "";
  for (const k of state.kernels) {
    const li = el("li", { class: "kernel", "data-kernel": k.kernel });
    const total = k.rewrites.reduce((n, r) => n + r.matches, 0);
    const name = li.appendChild(el("div", { class: "kernel-name", title: k.name }, `${k.name} `));
    name.appendChild(el("span", { class: "muted" }, `(${k.rewrites.length})`));
    name.onclick = () => selectKernel(k.kernel, true);
    const ul = li.appendChild(el("ul"));
    for (const r of k.rewrites) {
      const item = ul.appendChild(el("li", {
        class: "rewrite" + (r.matches === 0 ? " no-matches" : ""), "data-kernel": k.kernel,
        "data-rewrite": r.rewrite, "data-matches": r.matches, title: `${r.name}: ${r.matches} matches`,
        style: `padding-left: ${4 + 10 * r.depth}px`,
      }, `${r.name} `));
      item.appendChild(el("span", { class: "count" }, `${r.matches}`));
      item.onclick = () => selectRewrite(k.kernel, r.rewrite, 0);
    }
    li.dataset.totalMatches = total;
    list.appendChild(li);
  }
  $("trace-summary").textContent = `${state.kernels.length} kernels and schedules`;
}

function selectKernel(k, toggle) {
  const li = document.querySelector(`.kernel[data-kernel="${k}"]`);
  if (!li) return;
  const wasActive = state.kernel === k;
  for (const other of document.querySelectorAll(".kernel.active")) other.classList.remove("active");
  li.classList.add("active");
  if (toggle && wasActive) li.classList.toggle("expanded"); else li.classList.add("expanded");
  state.kernel = k;
  if (!wasActive) loadProgram(k);
  saveLocation();
}

// ** a rewrite and its steps

async function selectRewrite(k, r, step) {
  selectKernel(k, false);
  for (const other of document.querySelectorAll(".rewrite.active")) other.classList.remove("active");
  document.querySelector(`.rewrite[data-rewrite="${r}"]`)?.classList.add("active");
  showTab("graph");
  const token = ++state.token;
  try {
    const info = await api(`/api/rewrite?rewrite=${r}`);
    if (token !== state.token) return;
    Object.assign(state, { rewrite: r, steps: info.steps, matches: info.matches });
    $("rewrite-name").textContent = `${info.name}${info.bottom_up ? " (bottom up)" : ""}`;
    $("rewrite-name").classList.remove("muted");
    $("step-slider").max = info.steps - 1;
    const list = $("step-list");
    list.textContent = "";
    list.start = 0;
    list.appendChild(el("li", { "data-step": 0 }, "input graph"));
    info.matches.forEach((m, i) => list.appendChild(el("li", { "data-step": i + 1, title: m.function }, m.rule)));
    for (const li of list.children) li.onclick = () => showStep(Number(li.dataset.step));
    await showStep(step);
  } catch (e) {
    showError(e);
  }
}

async function showStep(step) {
  if (state.rewrite < 0) return;
  step = Math.max(0, Math.min(state.steps - 1, step));
  const token = ++state.token;
  state.step = step;
  $("step-label").textContent = `step ${step} / ${state.steps - 1}`;
  $("prev-step").disabled = step === 0;
  $("next-step").disabled = step >= state.steps - 1;
  $("step-slider").disabled = state.steps <= 1;
  $("step-slider").value = step;
  for (const li of $("step-list").children) li.classList.toggle("active", Number(li.dataset.step) === step);
  $("step-list").children[step]?.scrollIntoView({ block: "nearest" });
  saveLocation();
  try {
    const data = await api(`/api/step?rewrite=${state.rewrite}&step=${step}`);
    if (token !== state.token) return;
    renderStep(data);
  } catch (e) {
    if (token !== state.token) return;
    showError(e);
    // 503: the server was laying out another graph; ask again while this step is still wanted.
    if (e.status === 503) setTimeout(() => { if (token === state.token) showStep(step); }, 1000);
  }
}

function renderStep(data) {
  const graph = $("graph");
  graph.textContent = "";
  if (data.svg) {
    const svg = new DOMParser().parseFromString(data.svg, "image/svg+xml").documentElement;
    graph.appendChild(document.importNode(svg, true));
  }
  $("graph-message").textContent = data.message || "";
  $("node-count").textContent = data.node_count;
  $("changed-count").textContent = data.changed_count;
  $("rule-name").textContent = data.rule ?? "(input graph)";
  $("rule-function").textContent = data.function ?? "-";
  $("rule-time").textContent = data.ns != null ? `${(data.ns / 1000).toFixed(2)} us` : "";
  $("rule-code").textContent = data.code || "";
  $("rule-change").textContent = data.before && data.after ? `${data.before.op} -> ${data.after.op}` : "";
  // Set last: a test waits for these to name the step it asked for.
  graph.dataset.rewrite = data.rewrite;
  graph.dataset.step = data.step;
  graph.dataset.nodeCount = data.node_count;
}

function showError(e) {
  $("graph-message").textContent = `error: ${e.message}`;
}

// ** source and linear program

async function loadProgram(k) {
  const kernel = state.kernels[k];
  $("program-source").textContent = "";
  $("program-linear").textContent = "";
  if (!kernel.program) {
    $("program-title").textContent = `${kernel.name} made no program`;
    return;
  }
  try {
    const p = await api(`/api/program?kernel=${k}`);
    if (state.kernel !== k) return;
    $("program-title").textContent = `${p.name} on ${p.device}`;
    $("program-source").textContent = p.source;
    $("program-linear").textContent = p.linear.map((line, i) => `${String(i).padStart(4)} ${line}`).join("\n");
  } catch (e) {
    $("program-title").textContent = `error: ${e.message}`;
  }
}

// ** match stats

async function loadMatchStats() {
  if (state.statsLoaded) return;
  state.statsLoaded = true;
  const { rows } = await api("/api/match_stats");
  const body = $("match-stats").tBodies[0];
  body.textContent = "";
  let matches = 0, ns = 0;
  for (const r of rows) {
    const tr = body.appendChild(el("tr", { "data-rule": r.rule }));
    tr.appendChild(el("td", {}, r.rule));
    tr.appendChild(el("td", {}, r.function));
    tr.appendChild(el("td", { class: "num" }, String(r.matches)));
    tr.appendChild(el("td", { class: "num" }, String(r.attempts)));
    tr.appendChild(el("td", { class: "num" }, (r.ns / 1e6).toFixed(3)));
    tr.appendChild(el("td", { class: "num" }, r.matches ? (r.ns / 1e3 / r.matches).toFixed(2) : "-"));
    matches += r.matches;
    ns += r.ns;
  }
  $("stats-summary").textContent = rows.length
    ? `${rows.length} rules, ${matches} matches, ${(ns / 1e6).toFixed(2)} ms, slowest first`
    : "no match stats in this trace (TRACK_MATCH_STATS=1 records them)";
}

// ** tabs and keys

function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === `panel-${name}`);
  if (name === "stats") loadMatchStats().catch((e) => { $("stats-summary").textContent = `error: ${e.message}`; });
}

function moveRewrite(delta) {
  const kernel = state.kernels[state.kernel];
  if (!kernel || !kernel.rewrites.length) return;
  const i = kernel.rewrites.findIndex((r) => r.rewrite === state.rewrite);
  const next = kernel.rewrites[Math.max(0, Math.min(kernel.rewrites.length - 1, (i < 0 ? -1 : i) + delta))];
  selectRewrite(state.kernel, next.rewrite, 0);
}

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
  const actions = {
    ArrowLeft: () => showStep(state.step - 1), ArrowRight: () => showStep(state.step + 1),
    Home: () => showStep(0), End: () => showStep(state.steps - 1),
    ArrowUp: () => moveRewrite(-1), ArrowDown: () => moveRewrite(1),
  };
  if (actions[e.key]) {
    e.preventDefault();
    actions[e.key]();
  }
});

for (const t of document.querySelectorAll(".tab")) t.onclick = () => showTab(t.dataset.tab);
$("prev-step").onclick = () => showStep(state.step - 1);
$("next-step").onclick = () => showStep(state.step + 1);
$("step-slider").oninput = (e) => showStep(Number(e.target.value));
$("zoom-toggle").onclick = () => {
  const fit = $("graph").classList.toggle("fit");
  $("zoom-toggle").textContent = fit ? "fit" : "100%";
};

async function main() {
  try {
    state.kernels = (await api("/api/kernels")).kernels;
  } catch (e) {
    $("trace-summary").textContent = `error: ${e.message}`;
    return;
  }
  renderKernelList();
  document.body.dataset.ready = "1";
  // Reopen what the address names (#k=..&r=..&s=..), e.g. after a reload.
  const at = Object.fromEntries(location.hash.slice(1).split("&").map((p) => p.split("=")));
  const k = Number(at.k), r = Number(at.r), s = Number(at.s);
  if (Number.isInteger(k) && state.kernels[k]) {
    if (Number.isInteger(r) && state.kernels[k].rewrites.some((x) => x.rewrite === r)) selectRewrite(k, r, s || 0);
    else selectKernel(k, false);
  }
}
main();
