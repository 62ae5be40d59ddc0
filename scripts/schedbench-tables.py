#!/usr/bin/env python3
"""schedbench-tables.py - regenerate the NUMA schedbench tables of
docs/workloads.md ("Calibration and the numaq-16 check") and
docs/policies/o1.md ("What it does to NUMA schedbench").

  scripts/schedbench-tables.py [SCHEDLAB] [workloads|o1|--write]

Runs `schedbench:tasks=N` on numaq-16 with `SCHEDLAB run -o csv` and prints
the pages' Markdown rows; with --write, rewrites both tables in place in
their pages, between the markers `<!-- schedbench-tables.py workloads -->`
(o1) and `<!-- end schedbench-tables.py -->` (scripts/doc_blocks.py).  Where each walker first touches its memory is a
lottery under these kernels (docs/workloads.md), so any change to the model
reshuffles these rows: they are regenerated, never edited by hand.

  workloads  stock 2.5.33 (the NUMA-blind O(1) of 2.5.44), seeds 1-5: median
             (min-max) of AvgUser and Elapsed, medians of the rest.
  o1         the O(1) versions with a NUMA scheduler, and 2.6.0's knobs,
             seeds 1-3: AvgUser / Elapsed medians, each seed's share of
             time at home, the background hackbench's time.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_blocks import replace_block, run_metrics  # noqa: E402

NS = (4, 8, 16, 32, 64)
# the published 2.5.4x NUMA-blind rows beside the workloads table's
PUBLISHED = {
    4: "AvgUser ~49 (2.5.54); 32.5 / 49.5 / 130 (2.5.44)",
    8: "~43 (2.5.54); 39.9 / 61.5 / 319 (2.5.44)",
    16: "63.0 / 93.6 / 1008 (2.5.44)",
    32: "88.1 / 194.5 / 2821 (2.5.44)",
    64: "123.3 / 511.8 / 7890 (2.5.58); – / 608.8 / 9418 (2.5.48); "
        "159.9 / 653.8 / 10236 (2.5.44)",
}
# policy, N: the o1 page's rows
O1_ROWS = ([("o1:version=2.5.59", n) for n in NS] + [("o1:version=2.6.0", n) for n in NS]
           + [("o1:version=2.6.0,idle_tick=idle", 4),
              ("o1:version=2.6.0,node_balance=rate", 32),
              ("o1:version=2.6.0,imbalance=half", 32)])


def runs(schedlab, policy, n, reps):
    """{metric: [value per seed]} of `reps` seeds."""
    return run_metrics(schedlab, "numaq-16", policy, "schedbench:tasks=%d" % n, reps)


def num(v):
    return "%.0f" % v if v >= 100 else "%.1f" % v


def spread(v):
    return "%s (%s–%s)" % (num(statistics.median(v)), num(min(v)), num(max(v)))


def workloads_table(schedlab):
    out = ["| N | AvgUser | Elapsed | TotalUser | TotalSys | home % | moved | hackbench "
           "| published (NUMA-blind) |", "|---|---|---|---|---|---|---|---|---|"]
    for n in NS:
        v = runs(schedlab, "o1:version=2.5.33", n, 5)
        med = {m: statistics.median(x) for m, x in v.items()}
        sys_s = med["total_sys_s"]
        out.append("| %d | %s | %s | %.0f | %s | %.0f | %.0f | %.1f | %s |"
                   % (n, spread(v["avg_user_s"]), spread(v["bench_elapsed_s"]),
                      med["total_user_s"], "%.2f" % sys_s if sys_s < 1 else "%.1f" % sys_s,
                      med["home_pct"], med["moved"], med["hackbench_s"], PUBLISHED[n]))
    return out


def o1_table(schedlab):
    out = ["| policy | N | AvgUser | Elapsed | home % per seed | hackbench |",
           "|---|---|---|---|---|---|"]
    for policy, n in O1_ROWS:
        v = runs(schedlab, policy, n, 3)
        med = {m: statistics.median(x) for m, x in v.items()}
        homes = ", ".join("%.0f" % h for h in v["home_pct"])
        out.append("| `%s` | %d | %s | %s | %s | %.1f |"
                   % (policy.replace("o1:version=", "o1:"), n, num(med["avg_user_s"]),
                      num(med["bench_elapsed_s"]), homes, med["hackbench_s"]))
    return out


TABLES = {"workloads": ("docs/workloads.md", workloads_table),
          "o1": ("docs/policies/o1.md", o1_table)}


def main():
    schedlab = sys.argv[1] if len(sys.argv) > 1 else "./schedlab"
    which = sys.argv[2] if len(sys.argv) > 2 else "workloads"
    if which == "--write":
        for name, (page, make) in TABLES.items():
            replace_block(page, "schedbench-tables.py", name, make(schedlab))
    elif which in TABLES:
        print("\n".join(TABLES[which][1](schedlab)))
    else:
        sys.exit("schedbench-tables: which table: workloads, o1 or --write, not '%s'" % which)


if __name__ == "__main__":
    main()
