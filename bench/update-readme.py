#!/usr/bin/env python3
"""update-readme.py - put `make bench`'s latest figures (bench/results.md)
into README.md between the lines <!-- bench:begin --> and <!-- bench:end -->,
so that README's benchmark table is regenerated, never remembered:

  - the headline table (wall time, events, events per CPU-second, peak RSS);
  - per workload and policy, the scaling table's "8-1024" column (the cost
    per simulated CPU-second at its largest over its smallest, 8 to 1,024
    CPUs; issue 14 asks for at most 2);
  - a 16-CPU kernbench's speed against real time per policy;
  - the events/s matrix's summary line and its slowest runs.

  update-readme.py [RESULTS [README]]
"""
import re
import sys

results = sys.argv[1] if len(sys.argv) > 1 else "bench/results.md"
readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
text = open(results).read()

head = re.search(r"^From (.*?)\(bench/run.sh", text, re.M)
table = re.search(r"```\n(.*?)```", text, re.S)
if not head or not table:
    sys.exit("update-readme.py: %s has no headline table" % results)

ratios = {}
policies = []
for m in re.finditer(r"^\| (spin|kernbench|hackbench) \| (\w+) \|.*\| ([^|]+) \|$", text, re.M):
    wl, pol, ratio = m.group(1), m.group(2), m.group(3).strip()
    ratios.setdefault(wl, {})[pol] = ratio
    if pol not in policies:
        policies.append(pol)

rate = re.search(r"^(\d+ of \d+ runs at .*)\n((?:  .*\n)*)", text, re.M)
speed = re.search(r"^(kernbench -j32 on numaq-16 .*)\n\n((?:\|.*\n)+)", text, re.M)

out = ["Measured %s(bench/results.md has every figure):" % head.group(1), ""]
out += ["    " + l for l in table.group(1).rstrip("\n").split("\n")]
if ratios:
    out += ["", "Cost per simulated CPU-second, largest over smallest from 8 to 1,024 CPUs "
            "(the scaling table's last column; the goal is at most 2):", ""]
    out.append("| workload | " + " | ".join(policies) + " |")
    out.append("|---|" + "---:|" * len(policies))
    for wl in ("spin", "kernbench", "hackbench"):
        if wl in ratios:
            out.append("| %s | %s |" % (wl, " | ".join(ratios[wl].get(p, "") for p in policies)))
if speed:
    out += ["", speed.group(1) + ":", ""] + speed.group(2).rstrip("\n").split("\n")
if rate:
    out += ["", "Events per CPU-second over every preset, workload and policy (bench/rate.py; "
            "a run below the goal is the best of three): "
            + re.sub(r"; the slowest:$", "", rate.group(1)) + ". The slowest:", ""]
    out += ["    " + l.strip() for l in rate.group(2).rstrip("\n").split("\n")]
    out += ["", "(Except under linux24 one tick event ticks every CPU of the machine, so "
            "tick-bound runs on many-CPU presets read low here: bench/results.md.)"]

body = open(readme).read()
new, n = re.subn(r"(<!-- bench:begin -->\n).*?(<!-- bench:end -->)",
                 lambda m: m.group(1) + "\n".join(out) + "\n" + m.group(2), body, flags=re.S)
if n != 1:
    sys.exit("update-readme.py: %s has no <!-- bench:begin --> ... <!-- bench:end --> block" % readme)
open(readme, "w").write(new)
