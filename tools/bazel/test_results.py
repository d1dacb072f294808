#!/usr/bin/env python3
"""Reads a Bazel build event stream (--build_event_json_file) and summarizes its test results.

  test_results.py totals BEP.json     "P F": gtest test cases passed and failed (tools/test)
  test_results.py runs BEP.json       a line per test target: runs passed / runs, and the
                                      failed runs' numbers (tools/stress_tests)

A target that did not pass but whose test.xml shows no failure (a crash after the last test,
a leak found at exit, a timeout) counts as one failure, and so does a test target that was
analyzed but never ran.
"""
import json
import sys
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET


def read_events(path):
    """(test target labels, {(label, run, shard): (attempt, status, test.xml path)})"""
    targets = set()
    results = {}
    with open(path) as f:
        for line in f:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            eid = ev.get("id", {})
            if "targetConfigured" in eid and "testSize" in ev.get("configured", {}):
                targets.add(eid["targetConfigured"]["label"])
            if "testResult" in eid:
                t = eid["testResult"]
                key = (t["label"], t.get("run", 1), t.get("shard", 1))
                r = ev.get("testResult", {})
                xml = None
                for out in r.get("testActionOutput", []):
                    if out.get("name") == "test.xml" and out.get("uri", "").startswith("file://"):
                        xml = urllib.request.url2pathname(urllib.parse.urlparse(out["uri"]).path)
                attempt = t.get("attempt", 1)
                if key not in results or results[key][0] <= attempt:
                    results[key] = (attempt, r.get("status", "NO_STATUS"), xml)
    return targets, results


def xml_counts(path):
    """(passed, failed) gtest cases from a test.xml, or None if it cannot be read."""
    try:
        root = ET.parse(path).getroot()
    except Exception:
        return None
    suites = list(root.iter("testsuite"))
    if not suites:
        return None
    p = f = 0
    for s in suites:
        n = lambda k: int(s.get(k, "0") or 0)
        bad = n("failures") + n("errors")
        p += max(0, n("tests") - bad - n("disabled") - n("skipped"))
        f += bad
    return p, f


def passed(status):
    return status in ("PASSED", "FLAKY")


def totals(path):
    targets, results = read_events(path)
    p = f = 0
    ran = set()
    for (label, _, _), (_, status, xml) in results.items():
        ran.add(label)
        c = xml_counts(xml) if xml else None
        if c is None:
            c = (1, 0) if passed(status) else (0, 1)
        elif not passed(status) and c[1] == 0:
            c = (c[0], 1)
        p += c[0]
        f += c[1]
    f += len(targets - ran)
    print(p, f)


def runs(path):
    targets, results = read_events(path)
    per = {label: [] for label in targets}
    for (label, run, shard), (_, status, _) in results.items():
        per.setdefault(label, []).append((run, shard, passed(status), status))
    bad = 0
    for label in sorted(per):
        rs = sorted(per[label])
        ok = sum(1 for r in rs if r[2])
        failed = [f"{r[0]}:{r[3]}" for r in rs if not r[2]]
        if not rs or failed:
            bad += 1
        print(f"{ok:3d}/{len(rs):<3d} {label}" + (f"  failed runs: {' '.join(failed)}" if failed else "")
              + ("  never ran" if not rs else ""))
    print(f"{len(per) - bad} of {len(per)} test targets passed every run")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("totals", "runs"):
        sys.exit("usage: test_results.py totals|runs BEP.json")
    sys.exit(totals(sys.argv[2]) if sys.argv[1] == "totals" else runs(sys.argv[2]))
