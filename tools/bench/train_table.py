#!/usr/bin/env python3
# Formats tools/bench/train_bench.sh's measurements as README's Markdown table: ms per
# training step under TinyJit (without TinyJit in parentheses), ours with the heuristic's and
# with BEAM-tuned kernels against Python tinygrad, the ratios (our time / tinygrad's: below 1
# is faster), and each side's per-step TinyJit replay overhead (the tiny MLP).
#   python3 tools/bench/train_table.py [--machine TEXT] OUT_DIR
import argparse, json, os

def load(path):
  if not os.path.exists(path): return []
  with open(path) as f: return [json.loads(l) for l in f if l.strip()]

def ms(row): return f"{row['jit_ms']:.2f} ({row['eager_ms']:.2f})" if row else "-"

def tuned(row):  # ours: how many of the kernels compiled had tuned opts
  return f"{ms(row)}, {row['kernels_tuned']}/{row['kernels_compiled']} tuned" if row else "-"

def ratio(a, b): return f"{a['jit_ms'] / b['jit_ms']:.2f}" if a and b else "-"

def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--machine", default="")
  ap.add_argument("out_dir")
  args = ap.parse_args()
  ours = load(os.path.join(args.out_dir, "ours.jsonl"))
  ref = {(r["model"], r["batch"]): r for r in load(os.path.join(args.out_dir, "tinygrad.jsonl"))}
  tuned_label = next((r["kernels"] for r in ours if r["kernels"] != "heuristic"), "beam")
  cases = list(dict.fromkeys((r["model"], r["batch"]) for r in ours))
  if args.machine: print(f"Machine: {args.machine}.\n")
  print(f"| model | batch | kernels/step | ours, heuristic | ours, {tuned_label} | tinygrad | heuristic / tinygrad | {tuned_label} / tinygrad |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- |")
  for model, batch in cases:
    h = next((r for r in ours if (r["model"], r["batch"], r["kernels"]) == (model, batch, "heuristic")), None)
    t = next((r for r in ours if (r["model"], r["batch"]) == (model, batch) and r["kernels"] != "heuristic"), None)
    g = ref.get((model, batch))
    kernels = f"{h['kernels_per_step']:.0f}" if h else "-"
    print(f"| {model} | {batch} | {kernels} | {ms(h)} | {tuned(t)} | {ms(g)} | {ratio(h, g)} | {ratio(t, g)} |")
  print("\nms per step under TinyJit, median; in parentheses without TinyJit (scheduled every step); "
        "N/M tuned: of the M kernels compiled, N had opts from the tuning database.")
  tiny_path = os.path.join(args.out_dir, "tiny_ours.json")
  if os.path.exists(tiny_path):
    with open(tiny_path) as f: tiny = json.load(f)
    medians = {b["run_name"].split("/")[0]: b["real_time"] / 1e3 for b in tiny["benchmarks"]
               if b.get("aggregate_name") == "median"}  # us -> ms
    line = (f"\nTinyJit replay overhead per step (a tiny MLP, batch 4, 8-16-4, whose kernels take next to no "
            f"time): ours {medians.get('BM_JitReplayStep', float('nan')):.3f} ms replayed against "
            f"{medians.get('BM_EagerStep', float('nan')):.3f} ms scheduled")
    g = ref.get(("tiny", 4))
    if g: line += f"; tinygrad {g['jit_ms']:.3f} ms replayed against {g['eager_ms']:.3f} ms"
    print(line + ".")

if __name__ == "__main__": main()
