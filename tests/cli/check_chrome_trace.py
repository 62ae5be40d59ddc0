#!/usr/bin/env python3
"""check_chrome_trace.py CHROME.json PERF.txt - a `--trace-format chrome`
file has every field Perfetto's and chrome://tracing's JSON importers need
(the Trace Event Format's JSON Object Format), and shows the same run as the
perf-script trace of it: a named track per CPU, no two slices overlapping
on one CPU, each task's run time and the wakeups as perf's sched_switch and
sched_wakeup lines give them.  Prints one line per problem; exit 1 if any."""
import collections
import json
import re
import sys

problems = []


def bad(msg):
    problems.append(msg)


doc = json.load(open(sys.argv[1]))
perf = open(sys.argv[2]).read().splitlines()

if not isinstance(doc.get("traceEvents"), list):
    bad("no traceEvents array")
if doc.get("displayTimeUnit") not in ("ms", "ns"):
    bad("displayTimeUnit must be ms or ns")
ncpus = int(re.search(r"nrcpus avail\s*:\s*(\d+)", "\n".join(perf[:10])).group(1))

names = {}
slices = collections.defaultdict(list)
run_us = collections.defaultdict(float)
wakeups = 0
for e in doc["traceEvents"]:
    for key, kind in (("name", str), ("ph", str), ("pid", int), ("tid", int)):
        if not isinstance(e.get(key), kind):
            bad("event without %s: %r" % (key, e))
    ph = e.get("ph")
    if ph == "M":
        if e["name"] == "thread_name":
            names[e["tid"]] = e["args"]["name"]
        continue
    if not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
        bad("event without a ts >= 0: %r" % e)
    if ph == "X":
        if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
            bad("slice without a dur >= 0: %r" % e)
            continue
        slices[e["tid"]].append((e["ts"], e["ts"] + e["dur"]))
        run_us[e["args"]["pid"]] += e["dur"]
    elif ph == "i":
        if e.get("s") not in ("t", "p", "g"):
            bad("instant event without a scope: %r" % e)
        wakeups += e["name"] == "sched_wakeup"
    else:
        bad("unexpected phase %r" % ph)

for cpu in range(ncpus):
    if cpu not in names:
        bad("CPU %d has no thread_name" % cpu)
for tid, s in slices.items():
    s.sort()
    for (a0, a1), (b0, b1) in zip(s, s[1:]):
        if b0 < a1 - 1e-6:
            bad("slices overlap on CPU %d at %.3f us" % (tid, b0))
            break

# perf: each CPU's lane between switches, and the wakeups
lane = {}
perf_run = collections.defaultdict(float)
perf_wakeups = 0
sw = re.compile(r"\[(\d+)\]\s+([\d.]+): +sched:sched_switch: .* next_pid=(\d+)")
end = None
for line in perf:
    m = sw.search(line)
    if m:
        cpu, ts, nxt = int(m.group(1)), float(m.group(2)) * 1e6, int(m.group(3))
        if cpu in lane and lane[cpu][0] != 0:
            perf_run[lane[cpu][0]] += ts - lane[cpu][1]
        lane[cpu] = (nxt, ts)
    elif "sched:sched_wakeup:" in line:
        perf_wakeups += 1
    elif line.startswith("# schedlab: end of run at "):
        end = float(line.split()[-1]) * 1e6
for cpu, (pid, since) in lane.items():
    if pid != 0 and end is not None:
        perf_run[pid] += end - since
if wakeups != perf_wakeups:
    bad("%d sched_wakeup instants, perf trace has %d" % (wakeups, perf_wakeups))
for pid in set(perf_run) | set(run_us):
    if abs(perf_run[pid] - run_us[pid]) > 0.01 + 1e-6 * perf_run[pid]:
        bad("pid %d ran %.3f us in chrome, %.3f us in perf" % (pid, run_us[pid], perf_run[pid]))
        break
if not slices:
    bad("no slices")

for p in problems[:10]:
    print(p)
sys.exit(1 if problems else 0)
