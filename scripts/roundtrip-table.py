#!/usr/bin/env python3
"""roundtrip-table.py - regenerate the round-trip table of docs/traces.md
("Round trip"): how exactly a simulated run comes back when its trace is
exported, imported and replayed on the same machine under the same policy.

  scripts/roundtrip-table.py [SCHEDLAB] [--write]

For every row: `SCHEDLAB run -r 1 --trace` (seed 1), `trace import` of that
trace, `run -w trace:file=...,OPTIONS --trace` of the import, `trace import`
of the replay's trace; then it compares each task's CPU time in the two
imports and the two runs' elapsed times.  Prints the Markdown table; with
--write, rewrites it in place between `<!-- roundtrip-table.py -->` and
`<!-- end roundtrip-table.py -->` (scripts/doc_blocks.py).  The differences
are explained under the table; any change to the model may move them, so
the table is regenerated, never edited by hand.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_blocks import table_main  # noqa: E402

K = "kernbench:size=2,units=20,pipe=0"
NOHT = "p4dpe-2x2ht,noht"
# machine, policies, workloads, replay options
ROWS = [
    (NOHT, ["o1", "ht", "o1:version=2.5.59", "o1:version=2.6.0", "linux24", "domains", "cfs"],
     [K], "footprint=8"),
    (NOHT, ["o1"], ["kernbench:size=1,units=10,pipe=0", "kernbench:size=2,units=20",
                    "hackbench:groups=1,loops=5", "sdet:scripts=2", "spin:tasks=3,seconds=0.5"],
     "footprint=8"),
    (NOHT, ["o1"], ["javabench:size=0.3", "javabench:size=3"], "class=int"),
    ("p4dpe-2x2ht", ["o1", "linux24", "o1:version=2.6.0", "cfs", "ht", "domains"], [K],
     "footprint=8,bursts=time"),
    ("p4dpe-2x2ht", ["o1"], ["hackbench:groups=1,loops=5", "sdet:scripts=2"],
     "footprint=8,bursts=time"),
    ("p4dpe-2x2ht", ["o1"], ["javabench:size=3"], "bursts=time,class=mem"),
    ("p4dpe-2x2ht", ["o1"], [K], "footprint=8"),
    ("xeon-2s-smt", ["cfs"], [K], "footprint=8,bursts=time"),
    ("numaq-16", ["o1"], [K, "schedbench:tasks=8"], "footprint=8,bursts=time"),
]


def sh(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def run(schedlab, machine, policy, workload, trace):
    out = sh(schedlab, "run", "-m", machine, "-p", policy, "-w", workload, "-r", "1", "-o", "json",
             "--trace", trace)
    return json.loads(out)["runs"][0]["metrics"]["elapsed_s"]


def fork_paths(tasks):
    """Each task's place in the fork tree: its parent's place and the
    order of its fork among the parent's (roots by their order).  A replay
    may create two tasks in the other order and so give them each other's
    pids; their places stay."""
    forked = {}
    for t in tasks:
        forks = [op["child"] for op in t["ops"] if op["op"] == "fork"]
        for k, child in enumerate(forks):
            forked[child] = (t["id"], k)
    roots = [t["id"] for t in tasks if t["parent"] is None]
    paths = {}

    def path(i):
        if i not in paths:
            paths[i] = path(forked[i][0]) + (forked[i][1],) if i in forked else (roots.index(i),)
        return paths[i]
    return {t["id"]: path(t["id"]) for t in tasks}


def cpu_times(schedlab, trace, out):
    sh(schedlab, "trace", "import", trace, "-o", out)
    tasks = json.load(open(out))["tasks"]
    paths = fork_paths(tasks)
    return {paths[t["id"]]: t["cpu_ns"] for t in tasks}


def ns(x):
    """A signed difference of CPU time in ns, µs or ms."""
    if abs(x) < 1000:
        return "%+d ns" % x
    return "%+.2f µs" % (x / 1e3) if abs(x) < 1e6 else "%+.2f ms" % (x / 1e6)


def round_trip(schedlab, tmp, machine, policy, workload, opts):
    """(tasks with another CPU time, elapsed) cells of one round trip."""
    p = lambda name: os.path.join(tmp, name)  # noqa: E731
    for f in ("a.txt", "b.txt"):
        if os.path.exists(p(f)):
            os.remove(p(f))	# --trace does not overwrite a file
    e1 = run(schedlab, machine, policy, workload, p("a.txt"))
    c1 = cpu_times(schedlab, p("a.txt"), p("aw.json"))
    e2 = run(schedlab, machine, policy, "trace:file=%s,%s" % (p("aw.json"), opts), p("b.txt"))
    c2 = cpu_times(schedlab, p("b.txt"), p("bw.json"))
    diffs = sorted((c2.get(k, 0) - c for k, c in c1.items() if c2.get(k) != c),
                   key=abs, reverse=True)
    tasks = "%d of %d" % (len(diffs), len(c1))
    if 0 < len(diffs) <= 3:
        tasks += " (%s)" % ", ".join(ns(d) for d in diffs)
    elif diffs:
        tasks += " (largest %s)" % ns(diffs[0])
    d = round((e2 - e1) * 1e9)
    elapsed = ("equal" if d == 0 else "%+d ns" % d if abs(d) < 10000
               else "%+.2f %%" % (100.0 * (e2 - e1) / e1))
    return tasks, elapsed


def table(schedlab):
    out = ["| machine | policy | workload | replay | tasks with other CPU time | elapsed |",
           "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for machine, policies, workloads, opts in ROWS:
            for workload in workloads:
                for policy in policies:
                    tasks, elapsed = round_trip(schedlab, tmp, machine, policy, workload, opts)
                    out.append("| %s | `%s` | `%s` | `%s` | %s | %s |"
                               % (machine, policy, workload, opts, tasks, elapsed))
    return out


def main():
    table_main("docs/traces.md", "roundtrip-table.py", table)


if __name__ == "__main__":
    main()
