#!/usr/bin/env python3
"""fit-kernbench.py CSV - fit the kernbench model to a real build's process accounting.

Reads the BSD process accounting dump of a real `make -j2 vmlinux` (a
tinyconfig build of Linux 6.1 recorded on the project's development host,
a 2-vCPU VM; one CSV row per process, as `dump-acct` prints it; the record
itself is not shipped) and prints the statistics that src/workload/kernbench.c uses:

  * process structure of a compile unit (make -> sh -> gcc -> cc1, as; sh ->
    fixdep, rm) and how many of each process a unit has;
  * the cc1 CPU-time distribution: a two-part mixture of "tiny" cc1 runs
    (assembler sources and near-empty files, a few ticks) and real C files
    (lognormal: median and log-sd);
  * user CPU of the unit's other processes relative to cc1, and the user
    CPU of make itself, and of the final link and of the nm of vmlinux
    per compile unit linked;
  * the system/user ratio per process kind (printed for information: the
    model scales kernel time to the 2002-2004 ratio, see kernbench.c);
  * the directory tree: top-level directories, compile units per directory
    (lognormal), fan-out;
  * the serial head (what the root make runs before the first directory
    make) in mean cc1 runs of user CPU: an amount of work, not a share,
    because prepare does the same whatever the config compiles.  Only the
    root make's descendants count: the record also holds processes that
    ran before the build (the shell, kernel workers), which an earlier
    version of this script counted into the head (then 2.19 % of all CPU;
    the build's own head is 1.6 %).

The last block repeats the constants in C syntax, exactly as they appear in
src/workload/kernbench.h.  Python 3 standard library only.

Accounting ticks are sampled (100 per second): a process shorter than a
tick is usually charged nothing, a few are charged a whole tick, so totals
over many processes are unbiased while single small processes are not.
That is why ratios below are ratios of totals.
"""
import collections
import csv
import math
import statistics
import sys

TINY_CC1_TICKS = 8	# cc1 runs below this are assembler sources / tiny files


def load(path):
	with open(path, newline="") as f:
		rows = list(csv.DictReader(f))
	for r in rows:
		r["user"] = float(r["user_ticks"])
		r["sys"] = float(r["sys_ticks"])
		r["elapsed"] = float(r["elapsed_ticks"])
	return rows


def index(rows):
	by_pid = {r["pid"]: r for r in rows}
	kids = collections.defaultdict(list)
	for r in rows:
		kids[r["ppid"]].append(r)
	return by_pid, kids


def compile_units(rows, by_pid, kids):
	"""A compile unit is a gcc driver with a cc1 child, started by a make's sh."""
	units = []
	for g in rows:
		if g["comm"] != "gcc":
			continue
		cc1 = [c for c in kids[g["pid"]] if c["comm"] == "cc1"]
		sh = by_pid.get(g["ppid"])
		if not cc1 or not sh or sh["comm"] != "sh":
			continue
		procs = {"sh": [sh], "gcc": [g]}
		for c in kids[g["pid"]]:
			procs.setdefault(c["comm"], []).append(c)
		for c in kids[sh["pid"]]:
			if c is not g:
				procs.setdefault(c["comm"], []).append(c)
		units.append(procs)
	return units


def lognormal_fit(values):
	logs = [math.log(v) for v in values]
	return math.exp(statistics.median(logs)), statistics.stdev(logs)


def fit_cc1(units):
	cpu = [u["cc1"][0]["user"] + u["cc1"][0]["sys"] for u in units]
	elapsed = [u["cc1"][0]["elapsed"] for u in units]
	tiny = [e for e in elapsed if e < TINY_CC1_TICKS]
	# Real files: CPU ticks (what the model's work is); tiny ones: elapsed
	# ticks, because a 1-3 tick process is mostly charged 0 or 1 CPU tick.
	big = [c for c, e in zip(cpu, elapsed) if e >= TINY_CC1_TICKS]
	big_median, big_sigma = lognormal_fit(big)
	tiny_median, tiny_sigma = lognormal_fit([max(e, 0.5) for e in tiny])
	return {
		"n": len(cpu),
		"tiny_frac": len(tiny) / len(cpu),
		"tiny_median_rel": tiny_median / big_median,
		"tiny_sigma": tiny_sigma,
		"big_median_ticks": big_median,
		"big_sigma": big_sigma,
		"user_total": sum(u["cc1"][0]["user"] for u in units),
		"sys_total": sum(u["cc1"][0]["sys"] for u in units),
	}


def role_totals(units):
	tot = collections.defaultdict(lambda: [0, 0.0, 0.0])
	for u in units:
		for comm, procs in u.items():
			for p in procs:
				t = tot[comm]
				t[0] += 1
				t[1] += p["user"]
				t[2] += p["sys"]
	return tot


def make_tree(rows, by_pid, kids):
	"""Directory makes of the body: the root's child make with the most units below it."""
	def own_units(m):
		n = 0
		for s in kids[m["pid"]]:
			for g in kids[s["pid"]]:
				if g["comm"] == "gcc" and any(c["comm"] == "cc1" for c in kids[g["pid"]]):
					n += 1
		return n

	memo = {}

	def subtree(m):
		if m["pid"] not in memo:
			memo[m["pid"]] = own_units(m) + sum(subtree(k) for k in kids[m["pid"]]
							 if k["comm"] == "make")
		return memo[m["pid"]]

	makes = [r for r in rows if r["comm"] == "make"]
	top = [m for m in makes if by_pid.get(m["ppid"], {}).get("comm") != "make"]
	root = max(top, key=subtree)
	body = max((k for k in kids[root["pid"]] if k["comm"] == "make"), key=subtree)
	dirs = []

	def walk(m, depth):
		sub = [k for k in kids[m["pid"]] if k["comm"] == "make" and subtree(k) > 0]
		dirs.append({"depth": depth, "units": own_units(m), "subdirs": len(sub)})
		for k in sub:
			walk(k, depth + 1)

	walk(body, 0)
	return root, body, dirs[1:], dirs[0]["subdirs"]


def main():
	if len(sys.argv) != 2:
		sys.stderr.write("usage: fit-kernbench.py kbuild-tinyconfig-j2.csv\n")
		return 2
	rows = load(sys.argv[1])
	by_pid, kids = index(rows)
	all_cpu = sum(r["user"] + r["sys"] for r in rows)
	all_user = sum(r["user"] for r in rows)
	all_sys = sum(r["sys"] for r in rows)

	print("== whole build")
	print("processes                 %d" % len(rows))
	print("user s / sys s (acct)     %.2f / %.2f   sys/user %.3f" %
	      (all_user / 100, all_sys / 100, all_sys / all_user))

	units = compile_units(rows, by_pid, kids)
	n = len(units)
	tot = role_totals(units)
	print("\n== compile unit: make -> sh -> gcc -> {cc1, as}; sh -> fixdep, rm")
	print("compile units             %d" % n)
	for comm in ("sh", "gcc", "cc1", "as", "fixdep", "rm"):
		t = tot[comm]
		print("  %-8s per unit %.3f   user/cc1-user %.5f   sys/user %s" %
		      (comm, t[0] / n, t[1] / tot["cc1"][1],
		       "%.3f" % (t[2] / t[1]) if t[1] else "n/a (no user ticks)"))

	cc1 = fit_cc1(units)
	print("\n== cc1 CPU time (ticks of 10 ms)")
	print("tiny runs (< %d ticks)     fraction %.3f  median/real-median %.4f  log-sd %.3f" %
	      (TINY_CC1_TICKS, cc1["tiny_frac"], cc1["tiny_median_rel"], cc1["tiny_sigma"]))
	print("real files                median %.1f ticks  log-sd %.3f" %
	      (cc1["big_median_ticks"], cc1["big_sigma"]))

	make_user = sum(r["user"] for r in rows if r["comm"] == "make")
	links = [r for r in rows if r["comm"] == "ld"]
	vmlinux_ld = max(links, key=lambda r: r["user"] + r["sys"])
	root, body, dirs, top_dirs = make_tree(rows, by_pid, kids)
	# nm of vmlinux (System.map): the busiest nm started after the final link
	tail_nm = [r for r in rows if r["comm"] == "nm" and int(r["pid"]) > int(vmlinux_ld["pid"])]
	nm_per_cc1 = max(r["user"] for r in tail_nm) / tot["cc1"][1] if tail_nm else 0.0
	print("\n== make and link")
	print("make user / cc1 user, per unit       %.5f" % (make_user / tot["cc1"][1]))
	print("final vmlinux ld user per unit / cc1 per unit  %.5f" %
	      (vmlinux_ld["user"] / tot["cc1"][1]))
	print("nm of vmlinux user per unit / cc1 per unit     %.5f" % nm_per_cc1)

	with_units = [d["units"] for d in dirs if d["units"] > 0]
	dir_median, dir_sigma = lognormal_fit(with_units)
	fan = [d["subdirs"] for d in dirs if d["subdirs"] > 0]
	print("\n== directory tree (makes of the body with compile units below them)")
	print("directories               %d   top-level %d   max depth %d" %
	      (len(dirs), top_dirs, max(d["depth"] for d in dirs)))
	print("units per directory       mean %.2f  median(lognormal) %.2f  log-sd %.3f" %
	      (statistics.mean(with_units), dir_median, dir_sigma))
	print("directories without units %d   fan-out of non-leaves mean %.2f" %
	      (len(dirs) - len(with_units), statistics.mean(fan)))

	def descendants(p):
		out = []
		for k in kids[p["pid"]]:
			out += [k] + descendants(k)
		return out

	head = [r for r in descendants(root) if int(r["pid"]) < int(body["pid"])]
	head_cpu = sum(r["user"] + r["sys"] for r in head)
	head_user = sum(r["user"] for r in head)
	head_cc1 = head_user / (tot["cc1"][1] / n)
	print("\n== serial head (the root make's children before the first directory make)")
	print("processes %d   CPU %.2f s (%.4f of all CPU)   user %.2f s = %.2f mean cc1 runs" %
	      (len(head), head_cpu / 100, head_cpu / all_cpu, head_user / 100, head_cc1))

	print("\n== constants (src/workload/kernbench.h)")
	consts = [
		("KB_CC1_TINY_FRAC", cc1["tiny_frac"]),
		("KB_CC1_TINY_REL", cc1["tiny_median_rel"]),
		("KB_CC1_TINY_SIGMA", cc1["tiny_sigma"]),
		("KB_CC1_SIGMA", cc1["big_sigma"]),
		("KB_AS_PER_CC1", tot["as"][1] / tot["cc1"][1]),
		("KB_GCC_PER_CC1", tot["gcc"][1] / tot["cc1"][1]),
		("KB_FIXDEP_PER_CC1", tot["fixdep"][1] / tot["cc1"][1]),
		("KB_SH_PER_CC1", tot["sh"][1] / tot["cc1"][1]),
		("KB_RM_PER_CC1", tot["rm"][1] / tot["cc1"][1]),
		("KB_MAKE_PER_CC1", make_user / tot["cc1"][1]),
		("KB_LD_PER_CC1", vmlinux_ld["user"] / tot["cc1"][1]),
		("KB_NM_PER_CC1", nm_per_cc1),
		("KB_DIR_UNITS_MEDIAN", dir_median),
		("KB_DIR_UNITS_SIGMA", dir_sigma),
		("KB_HEAD_CC1", head_cc1),
	]
	for name, value in consts:
		print("#define %-20s %.4g" % (name, value))
	print("#define %-20s %d" % ("KB_TOP_DIRS", top_dirs))
	return 0


if __name__ == "__main__":
	sys.exit(main())
