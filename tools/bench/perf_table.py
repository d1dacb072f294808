#!/usr/bin/env python3
# Renders README's Performance table from the JSON lines of `tg tune --json` (ours) and of
# tools/bench/tinygrad_beam.py (Python tinygrad on the same machine). tools/bench/tune_bench.sh
# produces both and calls this.
#   python3 tools/bench/perf_table.py OURS.jsonl [TINYGRAD.jsonl]
# One row per kernel: GFLOP/s (GB/s for kernels under 1 flop per byte) with NOOPT, the
# heuristic, BEAM=2 and BEAM=4; search wall time, candidates timed and candidates per second
# for each width; the share of our search spent running kernels; and tinygrad's numbers as
# ratios (ours / tinygrad: above 1 is better for speed and rate, below 1 for search time).
# With tinygrad's numbers, a last table says where our search time goes and how many candidates
# per second compiling alone would allow.
import json, os, re, sys
from collections import OrderedDict

# Cores that lower and compile candidates at once: this machine's (the benchmark's) unless
# PERF_CORES says otherwise.
CORES = int(os.environ.get("PERF_CORES", os.cpu_count() or 1))

# Benchmark case -> (workload, params) of `tg tune`; tinygrad_beam.py uses the case names.
CASES = OrderedDict([
  ("matmul256", ("matmul", {"m": 256, "n": 256, "k": 256})),
  ("matmul512", ("matmul", {"m": 512, "n": 512, "k": 512})),
  ("matmul1024", ("matmul", {"m": 1024, "n": 1024, "k": 1024})),
  ("sum4M", ("sum", {"n": 4 * 1024 * 1024})),
  ("rowsum4096x1024", ("rowsum", {"rows": 4096, "cols": 1024})),
  ("softmax4096x1024", ("softmax", {"rows": 4096, "cols": 1024})),
  ("conv2d_1x32x56x56_64x3x3", ("conv2d", {"batch": 1, "cin": 32, "cout": 64, "size": 56, "kernel": 3})),
  ("workload_conv2d", ("conv2d", {"batch": 8, "cin": 16, "cout": 32, "size": 32, "kernel": 3})),
  ("workload_mlp", ("mlp", {"batch": 64, "in": 784, "hidden": 512, "out": 10})),
  ("workload_attention", ("attention", {"batch": 4, "seq": 64, "dim": 128, "heads": 4})),
  ("workload_resnet_block", ("resnet_block", {"batch": 1, "channels": 64, "size": 32})),
])

def case_of(row):
  for case, (w, p) in CASES.items():
    if row["workload"] == w and row["params"] == p: return case
  return f'{row["workload"]}{row["params"]}'

def load(path):
  with open(path) as f: return [json.loads(line) for line in f if line.strip()]

def rate(row, seconds):
  """GFLOP/s, or GB/s for memory-bound kernels, as text."""
  if seconds is None or seconds <= 0: return "-"
  if row["flops"] >= row["bytes"]: return f'{row["flops"] / seconds * 1e-9:.1f}'
  return f'{row["bytes"] / seconds * 1e-9:.1f} GB/s'

def ratio(a, b, fmt="{:.2f}x"):
  return fmt.format(a / b) if a and b else "-"

def main():
  ours, simd = {}, {}
  for r in load(sys.argv[1]):
    if r.get("block"): continue  # tg tune --blocking: another search space, not in these tables
    (simd if r.get("simd") else ours)[(case_of(r), r["kernel"], r["beam"])] = r
  ref = {}
  if len(sys.argv) > 2:
    for r in load(sys.argv[2]): ref[(r["case"], r["kernel"])] = r
  keys = sorted({(c, k) for (c, k, _) in ours}, key=lambda x: (list(CASES).index(x[0]) if x[0] in CASES else 99, x[1]))
  print("| case | kernel | NOOPT | heuristic | BEAM=2 | BEAM=4 | search s (2/4) | timed (2/4) | cand/s (2/4) | run share (2/4) "
        "| tinygrad heuristic | tinygrad BEAM=2 | tinygrad BEAM=4 | search s vs tinygrad (2/4) | cand/s vs tinygrad (2/4) |")
  print("|" + "---|" * 15)
  for case, k in keys:
    b2, b4 = ours.get((case, k, 2)), ours.get((case, k, 4))
    base = b2 or b4
    t = ref.get((case, k), {})
    def col(b, f): return f(b) if b else "-"
    # Candidates timed (not failed or duplicate), as tinygrad counts its _time_program calls.
    def cps(b): return f'{b["candidates"] / b["search_s"]:.1f}' if b and b["search_s"] else "-"
    def tcps(w): return t[f"beam{w}_timed"] / t[f"beam{w}_search_s"] if t.get(f"beam{w}_search_s") else None
    def ocps(b): return b["candidates"] / b["search_s"] if b and b["search_s"] else None
    cells = [
      case, base["name"], rate(base, base["noopt_s"]), rate(base, base["heuristic_s"]),
      col(b2, lambda b: rate(b, b["tuned_s"])), col(b4, lambda b: rate(b, b["tuned_s"])),
      f'{col(b2, lambda b: "%.1f" % b["search_s"])} / {col(b4, lambda b: "%.1f" % b["search_s"])}',
      f'{col(b2, lambda b: str(b["candidates"]))} / {col(b4, lambda b: str(b["candidates"]))}',
      f"{cps(b2)} / {cps(b4)}",
      f'{col(b2, lambda b: "%.0f%%" % (100 * b["run_fraction"]) if "run_fraction" in b else "-")} / '
      f'{col(b4, lambda b: "%.0f%%" % (100 * b["run_fraction"]) if "run_fraction" in b else "-")}',
      rate(base, t.get("heuristic_s")), rate(base, t.get("beam2_s")), rate(base, t.get("beam4_s")),
      f'{ratio(b2 and b2["search_s"], t.get("beam2_search_s"))} / {ratio(b4 and b4["search_s"], t.get("beam4_search_s"))}',
      f"{ratio(ocps(b2), tcps(2))} / {ratio(ocps(b4), tcps(4))}",
    ]
    print("| " + " | ".join(cells) + " |")
  if simd: simd_table(ours, simd, ref)
  if ref: cost_table(ours, ref, keys)

def short_opt(text):
  """"Opt(op=OptOps.UPCAST, axis=0, arg=4)" -> "UPCAST0:4", as tg tune prints opts."""
  m = re.match(r"Opt\(op=OptOps\.(\w+), axis=(\w+), arg=(.+)\)$", text)
  if not m: return text
  op, axis, arg = m.groups()
  return op + ("" if axis == "None" else axis) + ("" if arg == "None" else ":" + arg)

def simd_table(ours, simd, ref):
  """Second table: the same cases tuned with our SIMD extension opt (tg tune --simd)."""
  print()
  print("| case | kernel | BEAM=2 | BEAM=4 | BEAM=2 +SIMD | BEAM=4 +SIMD | search s +SIMD (2/4) | timed +SIMD (2/4) "
        "| tinygrad best | +SIMD best vs tinygrad best | opts (BEAM=4 +SIMD) |")
  print("|" + "---|" * 11)
  keys = sorted({(c, k) for (c, k, _) in simd}, key=lambda x: (list(CASES).index(x[0]) if x[0] in CASES else 99, x[1]))
  for case, k in keys:
    s2, s4 = simd.get((case, k, 2)), simd.get((case, k, 4))
    b2, b4 = ours.get((case, k, 2)), ours.get((case, k, 4))
    base = s2 or s4
    t = ref.get((case, k), {})
    def tuned(b): return rate(base, b["tuned_s"]) if b else "-"
    best = min([b["tuned_s"] for b in (s2, s4) if b] or [None])
    tbest = min([v for v in (t.get("beam2_s"), t.get("beam4_s")) if v] or [None])
    cells = [
      case, base["name"], tuned(b2), tuned(b4), tuned(s2), tuned(s4),
      f'{"%.1f" % s2["search_s"] if s2 else "-"} / {"%.1f" % s4["search_s"] if s4 else "-"}',
      f'{s2["candidates"] if s2 else "-"} / {s4["candidates"] if s4 else "-"}',
      rate(base, tbest), ratio(tbest, best), " ".join(short_opt(o) for o in (s4 or s2)["opts"]),
    ]
    print("| " + " | ".join(cells) + " |")

def compile_s(b):
  """Compiling's summed wall times (JSON lines before 2026-11-28 called them compile_cpu_s)."""
  return b.get("compile_wall_sum_s", b.get("compile_cpu_s"))

def cost_table(ours, ref, keys):
  """Third table: where our search time goes (lowering: thread CPU seconds, compiling: summed
  wall seconds, per timed candidate), and the most candidates per second that compiling alone
  allows: timed / (compile seconds / CORES), as if lowering and running cost nothing, against
  tinygrad's rate."""
  print()
  print(f"| case | kernel | lowering ms/cand (2/4) | compiling ms/cand (2/4) | cand/s vs tinygrad (2/4) "
        f"| compile-only bound vs tinygrad (2/4), {CORES} cores |")
  print("|" + "---|" * 6)
  below = total = 0
  for case, k in keys:
    t = ref.get((case, k), {})
    cells = {"lower": [], "compile": [], "rate": [], "bound": []}
    for w in (2, 4):
      b = ours.get((case, k, w))
      tr = t[f"beam{w}_timed"] / t[f"beam{w}_search_s"] if t.get(f"beam{w}_search_s") else None
      if not b or not b["candidates"] or compile_s(b) is None:
        for v in cells.values(): v.append("-")
        continue
      n = b["candidates"]
      cells["lower"].append(f'{1e3 * b["lower_cpu_s"] / n:.1f}')
      cells["compile"].append(f'{1e3 * compile_s(b) / n:.1f}')
      cells["rate"].append(ratio(n / b["search_s"] if b["search_s"] else None, tr, "{:.1f}x"))
      bound = n / (compile_s(b) / CORES) if compile_s(b) > 0 else None
      cells["bound"].append(ratio(bound, tr, "{:.1f}x"))
      if bound and tr:
        total += 1
        below += bound / tr < 10
    print(f"| {case} | {ours.get((case, k, 2), ours.get((case, k, 4)))['name']} | "
          + " | ".join(" / ".join(v) for v in cells.values()) + " |")
  print()
  print(f"Compiling alone keeps {below} of {total} searches under 10x tinygrad's candidates per second.")

if __name__ == "__main__":
  main()
