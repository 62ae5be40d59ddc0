#!/bin/sh
# test_cli.sh - the command-line contract (DESIGN.md "Interface contract"):
# exit codes, one-line errors naming the argument, list output, JSON/CSV
# shapes, determinism.  $SCHEDLAB is the binary under test.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
S=${SCHEDLAB:-./schedlab}
M=p4dpe-2x2ht
W=spin:tasks=2,seconds=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# bad_input PATTERN ARGS...: exit 2 and one stderr line matching PATTERN
bad_input() {
	pat=$1; shift
	expect_exit 2 "$S" "$@"
	expect_err "$pat"
}

# ---- bad input: exit 2, exactly one line naming the argument ----
bad_input 'missing command'
bad_input "frobnicate" frobnicate
# pinned workloads: the CPU list is checked against the machine before any run
bad_input "cpus '4': CPU 4 is not on the machine (CPUs 0-3)" run -m p4dpe-2x2ht -p o1 -w spin:cpus=4
bad_input "range 3-1 runs backwards" run -m p4dpe-2x2ht -p o1 -w hackbench:cpus=3-1
bad_input "cpus '1x': unexpected 'x'" run -m p4dpe-2x2ht -p o1 -w pingpong:cpus=1x
bad_input "policy 'up' knows CPU 0 only" run -m p4dpe-2x2ht -p up -w spin:cpus=1+3
expect_exit 0 "$S" run -m p4dpe-2x2ht -p o1 -w spin:seconds=0.05,cpus=all
# sizes whose run cannot end within the simulated-time horizon: before any
# run (not after hours at the horizon), on the machine asked for
bad_input "workload 'kernbench': size=1e+07 s of work on 4 CPUs: at least 2500000 simulated s, but a run must end within 1000000 s" \
	run -m p4dpe-2x2ht -p o1 -w kernbench:size=1e7
bad_input "workload 'javabench': size=1e+06 s of work on 1 CPU: at least 1000000" \
	run -m p4dpe-2x2ht -p o1 -w javabench:size=1e6,threads=1
bad_input "workload 'schedbench': hackbench_at=1e+06 (dispatch starts the hackbench then): at least 1000000" \
	run -m p4dpe-2x2ht -p o1 -w schedbench:hackbench_at=1e6
bad_input "workload 'schedbench': 8 tasks of size=500000 s on 4 CPUs: at least 1000000" \
	run -m p4dpe-2x2ht -p o1 -w schedbench:tasks=8,size=5e5
bad_input "workload 'sdet': 999 scripts of size=100000 s of work on 64 CPUs: at least 1551054 simulated s, but a run must end within 1000000 s" \
	run -m xeon-2s-smt -p o1 -w sdet:scripts=999,size=1e5
expect_exit 0 "$S" run -m p4dpe-2x2ht -p o1 -w sdet:scripts=1,size=0.01
# the walkers' memory must fit the machine's RAM (4 x 1 TB ran on a 256 GB
# machine as if it fitted; 4096 x 1 TB ran for minutes)
bad_input "workload 'schedbench': 4 tasks x mb=1048576 = 4194304 MB that the walkers touch, more than the 262144 MB of machine 'xeon-2s-smt' (the model does not swap)" \
	run -m xeon-2s-smt -p o1 -w schedbench:tasks=4,mb=1048576
expect_exit 0 "$S" run -m numaq-16 -p o1 -w schedbench:tasks=4,mb=4096,size=0.5,hackbench=0
# dbench's documented maximum: its reads miss a 2.5 GB cache, one disk
# request each (a lower bound: half the expected misses)
bad_input "workload 'dbench': 100000 clients' reads of 759000 MB of files through a 2651 MB page cache, one disk request each: at least 11265814 simulated s" \
	run -m xeon-1600ht -p o1 -w dbench:clients=100000
bad_input "workload 'dbench': 10 clients' 748 fsyncs of fsync_ms=1e+06, one at a time: at least 3740000" \
	run -m xeon-1600ht -p o1 -w dbench:fsync_ms=1e6
# the clients' own CPU work: copy_us at its maximum had run a minute before
# the horizon stopped it, as tbench's send_us and recv_us did
bad_input "workload 'dbench': 10 clients' 62477 operations of user_us=2 and 348 MB copied at copy_us=1e+06 per KB on 2 CPUs: at least 1692927 simulated s" \
	run -m xeon-1600ht -p o1 -w dbench:copy_us=1e6
# dbench's kept files are the load's first large writes: no more than it
# has, and no page-cache parameter without the page cache
bad_input "workload 'dbench': kept_mb=500 is more than the load writes: at most 126.56 with ops=62477" \
	run -m xeon-1600ht -p o1 -w dbench:kept_mb=500
bad_input "workload 'dbench': read_mb: the page cache is off (pagecache=0)" \
	run -m xeon-1600ht -p o1 -w dbench:pagecache=0,read_mb=3
bad_input "workload 'tbench': 10 client pairs' 62477 operations of 2000015 us each and 348 MB copied twice at copy_us=1 per KB on 1 CPU: at least 1248653" \
	run -m p4-2400 -p o1 -w tbench:send_us=1e6
expect_exit 0 "$S" run -m xeon-1600ht -p o1 -w dbench:clients=2000,ops=3
# a long quote keeps the reason at the end of its one line; a long -w is
# no business of --rtapp-logdir when that is not given
long=$(printf '%05000d' 0 | tr 0 a)
expect_exit 2 "$S" run -m p4dpe-2x2ht -p o1 -w "spin:seconds=$long"
expect_err "^schedlab: workload 'spin:seconds=aaa.* \.\.\. aaa.*': parameter too long$"
# repetition i runs with seed + i: the last seed must be one -s takes
bad_input "schedlab: -s 9223372036854775807 with -r 2: the last repetition's seed would be 9223372036854775808" \
	run -m p4dpe-2x2ht -p o1 -w spin -s 9223372036854775807 -r 2
expect_exit 0 "$S" run -m p4dpe-2x2ht -p o1 -w spin:seconds=0.01 -s 9223372036854775806 -r 2
# chat's and hackbench's maxima: their messages' kernel work alone (before
# December 2026 both ran for days, to fail at the horizon)
bad_input "workload 'chat': 20000 users' 1000000 messages of 382 us of work each on 2 CPUs: at least 3819996 simulated s" \
	run -m xeon-1600ht -p o1 -w chat:rooms=1000,messages=1000000
bad_input "workload 'hackbench': 100000000000000 messages of 2.82 us of kernel work each on 1 CPU: at least 281581292 simulated s" \
	run -m p4-2400 -p o1 -w hackbench:groups=25000,loops=10000000
# scheduling classes: chrt's rules, and a class the policy lacks, before any run
bad_input "spin': policy=fifo needs rtprio=1..99" run -m $M -p o1 -w spin:policy=fifo
bad_input "rtprio=5 is for policy=fifo or rr, not policy=other" run -m $M -p o1 -w spin:rtprio=5
bad_input "rtprio=100 is out of range" run -m $M -p o1 -w spin:policy=rr,rtprio=100
bad_input "policy 'linux24' has no SCHED_BATCH: workload 'spin:policy=batch' asks for it" \
	run -m $M -p linux24 -w spin:policy=batch
expect_exit 0 "$S" run -m $M -p linux24 -p up -p o1 -p ht -w spin:seconds=0.05,policy=rr,rtprio=9
bad_input "list"  list
bad_input "gadgets" list gadgets
bad_input "extra" list policies extra
bad_input "nosuch" help nosuch
bad_input "missing -m" run -p o1 -w $W
bad_input "missing -p" run -m $M -w $W
bad_input "missing -w" run -m $M -p o1
bad_input "nosuchbox" run -m nosuchbox -p o1 -w $W
bad_input "o9" run -m $M -p o9 -w $W
bad_input "bogus" run -m $M -p o1:bogus=1 -w $W
bad_input "key=value" run -m $M -p o1:version -w $W
bad_input "nosuchload" run -m $M -p o1 -w nosuchload
bad_input "frob" run -m $M -p o1 -w spin:frob=2
bad_input "tasks" run -m $M -p o1 -w spin:tasks=abc
bad_input "-r 'abc'" run -m $M -p o1 -w $W -r abc
bad_input "-r '0'" run -m $M -p o1 -w $W -r 0
bad_input "-r '-3'" run -m $M -p o1 -w $W -r -3
bad_input "-r '2x'" run -m $M -p o1 -w $W -r 2x
bad_input "-s 'xyz'" run -m $M -p o1 -w $W -s xyz
bad_input "-o 'xml'" run -m $M -p o1 -w $W -o xml
bad_input "'-m'" run -p o1 -w $W -m
bad_input "'--frob'" run -m $M -p o1 -w $W --frob
bad_input "'stray'" run -m $M -p o1 -w $W stray
bad_input "-m given twice" run -m $M -m $M -p o1 -w $W
# single-valued options are refused when repeated, not last-wins
bad_input "run: -r given twice ('2' and '3'; expected one)" run -m $M -p o1 -w $W -r 2 -r 3
bad_input "run: -s given twice" run -m $M -p o1 -w $W -s 1 --seed=2
bad_input "run: -o given twice ('json' and 'table'" run -m $M -p o1 -w $W -o json -o table
bad_input "reproduce: -o given twice" reproduce seed-000 -o json -o json
bad_input "reproduce: -r given twice" reproduce seed-000 -r 1 -r 1
bad_input "validate: --work given twice" validate -w spin --work measured --work recorded
# every -o format is named, from the formats' table
bad_input "-o 'xml': expected table, json, csv, sdet or sdet-percent" run -m $M -p o1 -w $W -o xml
bad_input "-o 'csv': expected table or json" reproduce seed-000 -o csv
bad_input "-s '-1': expected an integer seed from 0 to 9223372036854775807" run -m $M -p o1 -w $W -s -1
# numbers: a plain decimal, nothing around it
bad_input "-r '+2'" run -m $M -p o1 -w $W -r +2
bad_input "-r ' 2'" run -m $M -p o1 -w $W -r " 2"
bad_input "hz=' 1000' is not an integer" run -m $M -p "o1:hz= 1000" -w $W
bad_input "tasks='+2' is not an integer" run -m $M -p o1 -w spin:tasks=+2
bad_input "option 'ratio=0x1p1'" run -m "numaq-16,ratio=0x1p1" -p o1 -w $W
# like= names a preset, and gives its numbers to a machine that is not one
bad_input "option 'like=p4': expected a preset's name (p4dpe-2x2ht, " run -m "pack:2 core:1 pu:2,like=p4" -p o1 -w $W
bad_input "option 'like=numaq-16': a preset has model numbers of its own" run -m "$M,like=numaq-16" -p o1 -w $W
bad_input "option 'mhz=2.2e3': expected a clock in MHz" run -m "$M,mhz=2.2e3" -p o1 -w $W
expect_exit 0 "$S" run -m "pack:2 core:1 pu:2,like=p4dpe-2x2ht,mhz=2800" -p o1 -w $W -o json
# labels: printable UTF-8, not echoed; at most 127 bytes
bad_input "byte 11 of the policy text is a control character" run -m $M -p "o1:label=$(printf 'a\033[2Jb')" -w $W
bad_input "byte 11 of the policy text is a control character or invalid UTF-8" run -m $M -p "o1:label=$(printf 'a\377b')" -w $W
bad_input "label= is 130 bytes, at most 127" run -m $M -p "o1:label=$(printf '%0130d' 0)" -w $W
expect_exit 0 "$S" run -m $M -p "o1:label=$(printf 'caf\303\251')" -w $W -o json
bad_input "label 'o1' used twice" run -m $M -p o1 -p o1 -w $W
bad_input "label 'x' used twice" run -m $M -p o1:label=x -p linux24:label=x -w $W
bad_input "broken.xml" run -m tests/data/machines/broken.xml -p o1 -w $W
bad_input "nothere.xml" run -m tests/data/machines/nothere.xml -p o1 -w $W
bad_input "1024" run -m "pack:1100 core:1 pu:1" -p o1 -w $W
bad_input "pack:0" run -m "pack:0 core:1 pu:1" -p o1 -w $W
bad_input "frob" run -m "$M,frob" -p o1 -w $W
bad_input "version" run -m $M -p o1:version=9.9 -w $W
bad_input "hz" run -m $M -p o1:hz=fast -w $W
bad_input "ht_tweak" run -m $M -p linux24:ht_tweak=maybe -w $W
bad_input "jobs" run -m $M -p o1 -w kernbench:jobs=-1
bad_input "size" run -m $M -p o1 -w kernbench:size=0
bad_input "seconds" run -m $M -p o1 -w spin:seconds=1e999
bad_input "seed-999" reproduce seed-999
bad_input "-r '0'" reproduce seed-000 -r 0
bad_input "-o 'csv'" reproduce seed-000 -o csv
bad_input "'--bogus'" reproduce --bogus

# ---- listing and help: exit 0 with output ----
for what in machines policies workloads experiments; do
	expect_exit 0 "$S" list $what
	[ -n "$("$S" list $what)" ] && ok || bad "list $what printed nothing"
done
"$S" list machines | grep -q "^$M " && ok || bad "list machines lacks $M"
"$S" list machines | grep -q "noht" && ok || bad "list machines lacks the ,noht line"
"$S" list machines | grep -q "^azusa-16 *ia64 " && ok || bad "list machines lacks azusa-16's arch"
"$S" list policies | grep -q "^o1 - " && ok || bad "list policies lacks o1"
"$S" list policies | grep -q "default" && ok || bad "list policies shows no knob defaults"
"$S" list workloads | grep -q "headline metric" && ok || bad "list workloads lacks metrics"
"$S" list experiments | grep -q "^seed-000 " && ok || bad "list experiments lacks seed-000"
expect_exit 0 "$S" --version
"$S" --version | grep -q '^schedlab [0-9]' && ok || bad "--version"
expect_exit 0 "$S" help
expect_exit 0 "$S" help run
expect_exit 0 "$S" run --help
"$S" help reproduce | grep -q 'usage: schedlab reproduce' && ok || bad "help reproduce"

# ---- a tiny run in every format ----
run="$S run -m $M -p o1 -p ht -w $W -r 2"
expect_exit 0 $run -o json
$run -o json >"$tmp/a.json" 2>"$tmp/err" && ok || bad "run -o json failed: $(cat "$tmp/err")"
python3 - "$tmp/a.json" <<'PY' && ok || bad "run -o json: wrong shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["machine"] == "p4dpe-2x2ht" and d["workload"] == "spin:tasks=2,seconds=1"
assert len(d["runs"]) == 4, d["runs"]
assert [r["policy"] for r in d["runs"]] == ["o1", "o1", "ht", "ht"]
assert [r["seed"] for r in d["runs"]] == [1, 2, 1, 2]
assert [r["rep"] for r in d["runs"]] == [0, 1, 0, 1]
for r in d["runs"]:
    for k in ("elapsed_s", "user_s", "sys_s", "cpu_pct"):
        assert isinstance(r["metrics"][k], (int, float)), k
        assert k in r["units"], k
for p in ("o1", "ht"):
    s = d["summary"][p]["elapsed_s"]
    assert s["n"] == 2 and s["min"] <= s["mean"] <= s["max"] and s["sd"] >= 0
PY
$run -o csv >"$tmp/a.csv" && ok || bad "run -o csv failed"
# the six columns as before, then the coordinates (docs/experiments.md)
[ "$(head -n 1 "$tmp/a.csv" | cut -d, -f1-9)" = "policy,rep,seed,metric,value,unit,machine,workload,policy_spec" ] && ok || bad "csv header"
grep -q '^ht,1,2,elapsed_s,' "$tmp/a.csv" && ok || bad "csv lacks a row per run x metric"
$run >"$tmp/a.txt" && ok || bad "run -o table failed"
grep -q 'elapsed_s' "$tmp/a.txt" && grep -q 'mean (sd)' "$tmp/a.txt" && ok || bad "table shape"
$run --stats -o json 2>"$tmp/stats" >/dev/null && ok || bad "--stats failed"
grep -q 'events' "$tmp/stats" && ok || bad "--stats printed no event count"
# the events by kind add up to the total, and a kernbench has bursts and ticks
python3 - "$tmp/stats" <<'PY' && ok || bad "--stats: events by kind do not add up to the total"
import re, sys
text = open(sys.argv[1]).read()
total = int(re.search(r"stats: (\d+) events in", text).group(1))
kinds = dict((k, int(n)) for k, n in re.findall(r"(\w+) (\d+) \([0-9.]+ %\)", text))
assert set(kinds) == {"burst", "timer", "tick", "ipi", "migration", "disk"}, kinds
assert sum(kinds.values()) == total and total > 0, (kinds, total)
assert kinds["burst"] > 0 and kinds["tick"] > 0, kinds
# the third line: completions timed, and no bandwidth re-timing on a
# machine without a bandwidth limit that binds
timed = int(re.search(r"stats: (\d+) completions timed", text).group(1))
nodes = int(re.search(r"(\d+) node re-timings for bandwidth contention", text).group(1))
assert timed > 0 and nodes == 0, (timed, nodes)
PY
# numaq-16's kernel work draws on node 0: its contention changes re-time
$S run -m numaq-16 -p o1 -w kernbench:jobs=4,units=20,size=2 --stats -o json 2>"$tmp/nstats" >/dev/null &&
	grep -Eq 'stats: [0-9]+ completions timed \([0-9.]+ per event\), [1-9][0-9]* node re-timings' "$tmp/nstats" &&
	ok || bad "--stats: no node re-timings on numaq-16"

# ---- determinism: same seed, same bytes; another seed, other numbers ----
D="$S run -m $M -p o1 -p linux24 -w kernbench:jobs=2,units=50,size=10"
$D -s 3 -o json >"$tmp/s3a" 2>&1
$D -s 3 -o json >"$tmp/s3b" 2>&1
$D -s 4 -o json >"$tmp/s4" 2>&1
cmp -s "$tmp/s3a" "$tmp/s3b" && ok || bad "same seed gave different JSON"
python3 - "$tmp/s3a" "$tmp/s4" <<'PY' && ok || bad "seeds 3 and 4 gave the same metrics"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert [r["metrics"] for r in a["runs"]] != [r["metrics"] for r in b["runs"]]
PY

# ---- reproduce: table and JSON with published beside simulated ----
"$S" reproduce seed-000 -r 1 -o json >"$tmp/r.json" 2>"$tmp/err" && ok \
	|| bad "reproduce -o json failed: $(cat "$tmp/err")"
python3 - "$tmp/r.json" <<'PY' && ok || bad "reproduce -o json: wrong shape"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["experiments"][0]
assert e["name"] == "seed-000" and e["reps"] == 1
assert [c["label"] for c in e["columns"]] == ["2.5.33-HT-aware", "2.5.33", "2.4.8-10bigmem"]
cell = e["rows"][1]["cells"][1]
assert cell["published"] == [138, 147], cell
for k in ("min", "median", "max", "mean", "sd", "n"):
    assert k in cell["simulated"], k
assert isinstance(cell["miss"], bool)
PY
"$S" reproduce seed-000 -r 1 >"$tmp/r.txt" && ok || bad "reproduce table failed"
grep -q '2.5.33-HT-aware' "$tmp/r.txt" && grep -q 'make -j2 bzImage' "$tmp/r.txt" \
	&& grep -q 'marks a miss' "$tmp/r.txt" && ok || bad "reproduce table shape"

# ---- seed 002's reply: metric columns, idle = real - user - sys ----
"$S" list experiments | grep -q "^seed-002-pipe " && ok || bad "list experiments lacks seed-002-pipe"
"$S" reproduce seed-002-pipe -r 1 -o json >"$tmp/p.json" 2>"$tmp/err" && ok \
	|| bad "reproduce seed-002-pipe failed: $(cat "$tmp/err")"
python3 - "$tmp/p.json" <<'PY' && ok || bad "reproduce seed-002-pipe -o json: wrong shape"
import json, sys
e = json.load(open(sys.argv[1]))["experiments"][0]
assert e["machine"] == "p4-2400" and e["policy"].startswith("o1:"), e
assert [c["label"] for c in e["columns"]] == ["real", "user", "sys", "idle"]
assert e["columns"][3]["minus"] == ["user_s", "sys_s"]
assert [r["label"] for r in e["rows"]] == ["-j1", "-j1 -pipe", "-j3", "-j3 -pipe"]
for r in e["rows"]:
    real, user, sys_, idle = (c["simulated"]["values"][0] for c in r["cells"])
    assert abs(idle - (real - user - sys_)) < 1e-6, r
    assert r["cells"][0]["published"] and isinstance(r["cells"][3]["miss"], bool)
assert e["rows"][0]["cells"][3]["published"] == [79.1]
PY
"$S" reproduce seed-002-pipe -r 1 >"$tmp/p.txt" && grep -q 'idle' "$tmp/p.txt" \
	&& grep -q -- '-j3 -pipe' "$tmp/p.txt" && grep -q 'policy: o1' "$tmp/p.txt" && ok \
	|| bad "reproduce seed-002-pipe table shape"

# ---- the scoreboard: with several experiments, the cells within tolerance
# per experiment and in all; the JSON's counts agree with its cells ----
"$S" reproduce seed-002 seed-002-pipe -r 1 -o json >"$tmp/s.json" 2>"$tmp/err" && ok \
	|| bad "reproduce of two experiments failed: $(cat "$tmp/err")"
python3 - "$tmp/s.json" <<'PY' && ok || bad "reproduce -o json: scoreboard does not count the cells"
import json, sys
d = json.load(open(sys.argv[1]))
board, tp, tw = d["scoreboard"], 0, 0
assert [b["name"] for b in board["experiments"]] == ["seed-002", "seed-002-pipe"], board
for e, b in zip(d["experiments"], board["experiments"]):
    cells = [c for r in e["rows"] if r["kind"] != "section" for c in r["cells"] if c["published"]]
    p, w = len(cells), sum(not c["miss"] for c in cells)
    assert (b["published"], b["within"]) == (p, w), (b, p, w)
    tp, tw = tp + p, tw + w
assert board["all"] == {"published": tp, "within": tw}, board
assert board["experiments"][0]["published"] == 12 and board["experiments"][1]["published"] == 16
PY
"$S" reproduce seed-002 seed-002-pipe -r 1 >"$tmp/s.txt" \
	&& grep -q '^scoreboard: published cells within tolerance' "$tmp/s.txt" \
	&& grep -Eq '^  all +[0-9]+ of +28 ' "$tmp/s.txt" && ok || bad "reproduce table: no scoreboard"
grep -q '^scoreboard' "$tmp/p.txt" && bad "one experiment named: scoreboard printed" || ok

# ---- seed 004: HT on vs off speed-ups with geometric means.  The
# optimised binary: 4000-thread chat rooms with per-event invariant checks
# under ASan take many minutes. ----
O=./schedlab
"$S" list experiments | grep -q "^seed-004 " && ok || bad "list experiments lacks seed-004"
bad_input "-r '0'" reproduce seed-004 -r 0
$O reproduce seed-004 -r 1 -o json >"$tmp/h.json" 2>"$tmp/err" && ok \
	|| bad "reproduce seed-004 failed: $(cat "$tmp/err")"
python3 - "$tmp/h.json" <<'PY' && ok || bad "reproduce seed-004 -o json: wrong shape"
import json, math, sys
e = json.load(open(sys.argv[1]))["experiments"][0]
assert e["form"] == "speedup" and e["compare"] == "xeon-1600ht,noht"
assert e["tolerance_points"] == 5
assert [c["label"] for c in e["columns"]] == ["2.4.19", "2.5.32"]
kinds = [r["kind"] for r in e["rows"]]
assert kinds == (["section"] + ["data"] * 4 + ["geomean"] + ["section"] + ["data"] * 5
                 + ["geomean"] + ["section"] + ["data"] * 5 + ["geomean"]), kinds
rows, section = e["rows"], []
for r in rows:
    if r["kind"] == "section":
        section = []
        continue
    for i, c in enumerate(r["cells"]):
        if r["kind"] == "data":
            on, off = c["simulated"]["values"][0], c["compare"]["values"][0]
            assert abs(c["value"] - 100 * (on / off - 1)) < 1e-6, c
        else:
            f = [1 + s["cells"][i]["value"] / 100 for s in section]
            g = 100 * (math.exp(sum(map(math.log, f)) / len(f)) - 1)
            assert abs(c["value"] - g) < 1e-6, (c, g)
        pub = c["published"][0]
        assert c["miss"] == (abs(c["value"] - pub) > 5), c
    if r["kind"] == "data":
        section.append(r)
assert rows[1]["workload"] == "chat:rooms=20,pthreads=linuxthreads" and rows[1]["cells"][1]["published"] == [51]
assert rows[12]["label"] == "Geometric Mean" and rows[12]["cells"][0]["published"] == [18]
PY

# ---- SDET's table shapes from run (-o sdet, -o sdet-percent) ----
bad_input "not a throughput" run -m $M -p o1 -w kernbench:jobs=2,size=1 -o sdet
"$S" run -m $M -p o1 -p linux24 -w sdet:scripts=2,size=0.2 -r 2 -o sdet-percent >"$tmp/sdet" 2>&1 \
	&& grep -q "^o1 *100.0%" "$tmp/sdet" && grep -q "not compliant SDET" "$tmp/sdet" && ok \
	|| bad "run -o sdet-percent: $(cat "$tmp/sdet")"
"$S" run -m $M -p o1 -w sdet:scripts=2,size=0.2 -o sdet >"$tmp/sdet" 2>&1 \
	&& grep -q "Average Throughput" "$tmp/sdet" && ok || bad "run -o sdet: $(cat "$tmp/sdet")"

# hackbench's groups: up to 25,000 (a million processes, issue 14), no more
bad_input "groups=25001 is out of range \[1, 25000\]" run -m $M -p o1 -w hackbench:groups=25001

# ---- work conservation: why stock O(1) lost -j2 on the 2x2 HT box ----
# (issue 11: seed-000's -j2 row) stock 2.5.33 keeps both jobs on one
# package's siblings while the other package idles; F3's shared runqueue
# per package does not.  How long stock shares is a placement lottery:
# seeds 1-3 measured 7.6, 44.7 and 14.3 % against F3's under 0.01 % (7 Dec
# 2026), so the test takes the worst of three.
"$S" run -m p4dpe-2x2ht -p o1:version=2.5.33 -p ht:version=f3 -w kernbench:jobs=2,target=bzimage \
	-r 3 -o csv >"$tmp/smt.csv" 2>&1
python3 - "$tmp/smt.csv" <<'PY' && ok || bad "smt_shared_while_idle_pct: stock o1 against ht f3 at -j2: $(grep smt_shared "$tmp/smt.csv")"
import csv, sys
v = {}
for r in csv.reader(open(sys.argv[1])):
    if len(r) > 4 and r[3] == "smt_shared_while_idle_pct":
        v[r[0]] = max(v.get(r[0], 0.0), float(r[4]))
assert v["o1:version=2.5.33"] > 10 and v["ht:version=f3"] < 1, v
PY

finish cli
