#!/usr/bin/env python3
# Summarizes repeated searches of the same kernels (the JSON lines of `tg tune --json`, written
# by tools/bench/stability.sh): per kernel, the searches, the distinct winning programs (by the
# rendered program's hash; different opt lists can render the same program), how many searches
# the most common winner won, and the winners' times (fastest, slowest, spread).
#   python3 tools/bench/stability.py STABILITY.jsonl
import json, sys
from collections import Counter, OrderedDict

def main():
  runs = OrderedDict()
  with open(sys.argv[1]) as f:
    for line in f:
      if not line.strip(): continue
      r = json.loads(line)
      key = (r["workload"], json.dumps(r["params"], sort_keys=True), r["kernel"])
      runs.setdefault(key, []).append(r)
  print("| workload | kernel | searches | distinct winners | most common winner | fastest | slowest | spread |")
  print("|" + "---|" * 8)
  same = total = 0
  for (workload, _, _), rs in runs.items():
    winners = Counter(r.get("program") or " ".join(r["opts"]) for r in rs)
    times = [r["tuned_s"] for r in rs]
    total += 1
    same += len(winners) == 1
    cells = [workload, rs[0]["name"], str(len(rs)), str(len(winners)), f"{winners.most_common(1)[0][1]}/{len(rs)}",
             f"{min(times) * 1e6:.1f} us", f"{max(times) * 1e6:.1f} us", f"{(max(times) / min(times) - 1) * 100:.1f}%"]
    print("| " + " | ".join(cells) + " |")
  print(f"\n{same} of {total} kernels had the same winning program in every search.")

if __name__ == "__main__":
  main()
