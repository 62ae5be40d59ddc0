#!/usr/bin/env python3
"""sl-table.py - regenerate the "Results" table of docs/policies/sl.md.

  scripts/sl-table.py [SCHEDLAB] [--write]

Runs every row below (machine, workload, metric, the policies to compare)
with `SCHEDLAB run -r 3 -o csv` (seeds 1-3, the defaults otherwise) and
prints the table's Markdown rows: `sl`'s mean, then every other policy's
mean, the sd in parentheses where it is more than 1 % of the mean, the best
of the row in bold (lowest for times, highest for throughputs; every policy
within 0.1 % of the best is bold too).  With --write the page's table is
rewritten in place, between `<!-- sl-table.py -->` and `<!-- end
sl-table.py -->` (scripts/doc_blocks.py); nothing in it is typed by hand.
Takes several minutes of CPU.
"""
import functools
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_blocks import table_main, run_metrics  # noqa: E402

# The policies each machine's rows compare sl with.
P4DPE = ["ht", "o1", "linux24", "domains", "cfs"]
P4HT = ["o1:version=2.6.0", "domains", "cfs", "up"]
NUMAQ = ["o1:version=2.5.59", "domains", "cfs"]
XEON_MP = ["linux24", "ht", "cfs"]
P4DPE_MSG = ["cfs", "domains", "ht", "o1"]
KB_P4DPE = "kernbench:jobs=%d,target=bzimage,size=178"
KB_P4HT = "kernbench:jobs=%d,target=vmlinux,pipe=1,size=60.15"	# seed-002's

# machine, workload, metric, unit shown, higher is better, other policies
ROWS = (
    [("p4dpe-2x2ht", KB_P4DPE % j, "elapsed_s", "elapsed s", False, P4DPE) for j in (1, 2, 3, 4)]
    + [("p4dpe-2x2ht", "javabench:size=277", "elapsed_s", "elapsed s", False, P4DPE)]
    + [("p4ht-3066", KB_P4HT % j, "elapsed_s", "elapsed s", False, P4HT) for j in (1, 2, 8)]
    + [("numaq-16", "schedbench:tasks=%d" % n, "elapsed_s", "elapsed s", False, NUMAQ)
       for n in (4, 8, 16, 32, 64)]
    + [("xeon-1600ht", "tbench:clients=30", "throughput", "MB/s", True, XEON_MP),
       ("xeon-1600ht", "chat:rooms=20", "throughput", "msg/s", True, XEON_MP),
       ("xeon-1600ht", "dbench:clients=60", "throughput", "MB/s", True, XEON_MP),
       ("p4dpe-2x2ht", "hackbench", "time_s", "time s", False, P4DPE_MSG),
       ("p4dpe-2x2ht", "sdet:scripts=8", "throughput", "scripts/h", True, P4DPE_MSG),
       ("xeon-2s-smt", "kernbench:jobs=8", "elapsed_s", "elapsed s", False, ["cfs"]),
       ("p4dpe-2x2ht", "spin:tasks=2,seconds=10", "pkg1_user_pct", "package 1 user %", True,
        ["cfs", "domains", "ht", "o1", "linux24"])]
    # latency: schbench's own percentiles (a worker per CPU and a message thread)
    + [("xeon-2s-smt", "schbench", m, unit, higher, ["cfs"])
       for m, unit, higher in (("wakeup_us_p99", "p99 wakeup µs", False),
                               ("request_us_p99", "p99 request µs", False),
                               ("rps", "requests/s", True))]
)
REPS = 3


@functools.lru_cache(maxsize=None)
def cell_runs(schedlab, machine, policy, workload, reps):
    """One cell's runs, shared by the rows that read other metrics of it."""
    return run_metrics(schedlab, machine, policy, workload, reps)


def runs(schedlab, machine, policy, workload, metric, reps):
    return cell_runs(schedlab, machine, policy, workload, reps)[metric]


def decimals(v):
    """Four significant digits, none past the units from 1,000 on."""
    v = abs(v)
    return 0 if v >= 1000 else 1 if v >= 100 else 2 if v >= 10 else 3


def fmt(v, places):
    return "{:,.{}f}".format(v, places).replace(",", " ")


def cell(mean, sd, bold):
    places = decimals(mean)
    s = fmt(mean, places)
    if bold:
        s = "**" + s + "**"
    if mean and sd > 0.01 * abs(mean):
        s += " (%s)" % fmt(sd, places)
    return s


def short(policy):
    return policy.replace("o1:version=", "o1:")


def table(schedlab):
    out = ["| machine | workload | metric | `sl` | others |", "|---|---|---|---|---|"]
    for machine, workload, metric, unit, higher, others in ROWS:
        stats = {}
        for p in ["sl"] + others:
            v = runs(schedlab, machine, p, workload, metric, REPS)
            stats[p] = (statistics.mean(v), statistics.stdev(v) if len(v) > 1 else 0.0)
        best = (max if higher else min)(m for m, _ in stats.values())

        def is_best(p):
            return abs(stats[p][0] - best) <= 0.001 * abs(best)
        sl = cell(*stats["sl"], is_best("sl"))
        rest = ", ".join("%s %s" % (short(p), cell(*stats[p], is_best(p))) for p in others)
        out.append("| %s | `%s` | %s | %s | %s |" % (machine, workload, unit, sl, rest))
    return out


def main():
    table_main("docs/policies/sl.md", "sl-table.py", table)


if __name__ == "__main__":
    main()
