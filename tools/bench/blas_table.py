#!/usr/bin/env python3
# Renders tools/bench/blas_bench.sh's results as Markdown: one table per CPU target, one row per
# shape, GFLOP/s of OpenBLAS sgemm and of `tg tune` at every BEAM width and mode, and the best
# tuned kernel's ratio to OpenBLAS and to the FMA peak (both on the same threads).
#   python3 tools/bench/blas_table.py OUT_DIR     (bench.jsonl and ours.<mode>.jsonl in it)
# A workload of several kernels counts all of them: its flops over the sum of their times.
import glob, json, os, sys
from collections import OrderedDict

def load(path):
  with open(path) as f: return [json.loads(line) for line in f if line.strip()]

def shape_name(workload, params):
  if workload == "matmul":
    m, n, k = params["m"], params["n"], params["k"]
    return f"matmul {m}" if m == n == k else f"matmul {m}x{n}x{k}"
  return workload + " " + "x".join(str(v) for v in params.values())

def main(out):
  bench = load(os.path.join(out, "bench.jsonl"))
  machine = next((r for r in bench if r["kind"] == "machine"), {})
  threads = machine.get("threads", 1)
  # (target, shape) -> mode/beam -> [flops, seconds]
  ours = OrderedDict()
  columns = []
  for path in sorted(glob.glob(os.path.join(out, "ours.*.jsonl")), key=lambda p: (not p.endswith("ours.base.jsonl"), p)):
    mode = os.path.basename(path)[len("ours."):-len(".jsonl")]
    for r in load(path):
      col = f"BEAM={r['beam']}" + ("" if mode == "base" else f" {mode}")
      if col not in columns: columns.append(col)
      key = (r.get("cpu_target") or "native", shape_name(r["workload"], r["params"]))
      cell = ours.setdefault(key, OrderedDict()).setdefault(col, [0, 0.0])
      cell[0] += r["flops"]
      cell[1] += r["tuned_s"]
  columns.sort(key=lambda c: (c.split(" ", 1)[1] if " " in c else "", c))
  targets = list(OrderedDict.fromkeys([r["target"] for r in bench if "target" in r] + [t for t, _ in ours]))
  for target in targets:
    peak = {r["threads"]: r["gflops"] for r in bench if r["kind"] == "peak" and r.get("target") == target}
    loads = {r["when"]: r["loadavg"] for r in bench if r["kind"] == "load" and r.get("target") == target}
    blas = OrderedDict()
    for r in bench:
      if r["kind"] == "openblas" and r.get("target") == target:
        blas[shape_name("matmul", {"m": r["m"], "n": r["n"], "k": r["k"]})] = (r["gflops"], r.get("core", "?"))
    isa = {"x86-64-v3": "AVX2 + FMA (x86-64-v3)", "x86-64-v4": "AVX-512 (x86-64-v4)"}.get(target, target)
    print(f"#### {isa} on {machine.get('model', '?')}, {threads} threads\n")
    peaks = ", ".join(f"{t} thread{'s' if t > 1 else ''} {g:.0f}" for t, g in sorted(peak.items()))
    core = next(iter(blas.values()), (0, "?"))[1]
    print(f"FMA peak (GFLOP/s): {peaks or '-'}; OpenBLAS kernels: {core}; load average "
          f"{loads.get('start', '?')} at the start, {loads.get('end', '?')} at the end.\n")
    print("| shape | OpenBLAS | " + " | ".join(columns) + " | best / OpenBLAS | best / peak |")
    print("|---" * (len(columns) + 4) + "|")
    shapes = list(blas) + [s for t, s in ours if t == target and s not in blas]
    for shape in shapes:
      cells = ours.get((target, shape), {})
      g = {c: cells[c][0] / cells[c][1] * 1e-9 for c in cells if cells[c][1] > 0}
      best = max(g.values()) if g else None
      b = blas.get(shape, (None,))[0]
      row = [shape, f"{b:.1f}" if b else "-"] + [f"{g[c]:.1f}" if c in g else "-" for c in columns]
      row.append(f"{best / b:.2f}x" if best and b else "-")
      p = peak.get(threads)
      row.append(f"{best / p:.2f}" if best and p else "-")
      print("| " + " | ".join(row) + " |")
    print()

if __name__ == "__main__":
  if len(sys.argv) != 2:
    sys.exit("usage: blas_table.py OUT_DIR")
  main(sys.argv[1])
