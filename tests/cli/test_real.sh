#!/bin/sh
# test_real.sh - `schedlab real` and `schedlab validate`: bad input exits 2
# with one line; short real runs (spin, hackbench, schedbench) print sane
# GNU-time metrics in table, JSON and CSV; --cpus pins; a run interrupted by
# SIGTERM or SIGINT leaves no process behind and prints no results (schbench:
# threads of one root);
# kernbench's tree handling (unpack once, configure, warm up, log, failure)
# on a tiny fake kernel tree; validate puts real and simulated side by side.
# Timing is never asserted beyond generous bounds.  $SCHEDLAB is the binary.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
S=${SCHEDLAB:-./schedlab}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
NCPU=$(nproc)
export SCHEDLAB_CACHE="$tmp/cache"	# never the user's kernel tree cache

bad_input() {
	pat=$1; shift
	expect_exit 2 "$S" "$@"
	expect_err "$pat"
}
# json FILE EXPR: evaluate a Python expression on the parsed JSON as j
json() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
check() {	# check DESCRIPTION COMMAND...: the command succeeds
	d=$1; shift
	if "$@"; then ok; else bad "$d"; fi
}
is_true() { [ "$1" = True ]; }

# ---- bad input: exit 2, one line ----
bad_input "missing -w" real
bad_input "nosuch" real -w nosuch
bad_input "no real version" real -w javabench
bad_input "frob" real -w spin:frob=1
bad_input "tasks" real -w spin:tasks=0
bad_input "mode" real -w hackbench:mode=tcp
bad_input "readsize" real -w hackbench:readsize=50
bad_input "--cpus 'x'" real -w spin --cpus x
bad_input "--cpus '1-0'" real -w spin --cpus 1-0
bad_input "--cpus '0,'" real -w spin --cpus 0,
bad_input "CPU 4096 is not available\|--cpus '4096'" real -w spin --cpus 4096
bad_input "CPU $NCPU is not available" real -w spin --cpus "$NCPU"
bad_input "'--cpus': expected a value" real -w spin --cpus
bad_input "-r '0'" real -w spin -r 0
bad_input "-r 'x'" real -w spin -r x
bad_input "-o 'xml'" real -w spin -o xml
bad_input "'--frob'" real -w spin --frob
bad_input "-w given twice" real -w spin -w spin
bad_input "src '$tmp/none'" real -w kernbench:src="$tmp/none"
bad_input "not a kernel source tree" real -w kernbench:src="$tmp"
bad_input "missing -w" validate
bad_input "nosuch" validate -w nosuch
bad_input "o9" validate -w spin -p o9
bad_input "nosuchbox" validate -w spin -m nosuchbox
bad_input "nosuchload" validate -w spin --sim nosuchload
bad_input "-r '0'" validate -w spin -r 0

# ---- spin: two hogs, unpinned and pinned to one CPU ----
# cpu_pct > 100 needs two free CPUs: on a busy host (other processes took
# more than half a CPU meanwhile, as other_cpu_pct measures) the check is
# not about us, so it passes; allow one retry.
spin2() {
	"$S" real -w spin:tasks=2,seconds=1 -o json >"$tmp/spin.json" 2>"$tmp/err" &&
		json "$tmp/spin.json" 'j["runs"][0]["metrics"]["cpu_pct"] > 100 or j["runs"][0]["metrics"]["other_cpu_pct"] > 50'
}
if [ "$NCPU" -ge 2 ]; then
	r=$(spin2); [ "$r" = True ] || r=$(spin2)
	if [ "$r" = True ]; then ok; else
		bad "2 spinners on $NCPU CPUs got cpu_pct $(json "$tmp/spin.json" \
			'j["runs"][0]["metrics"]["cpu_pct"]') <= 100 (load: $(cat /proc/loadavg))"
	fi
fi
"$S" real -w spin:tasks=2,seconds=1 -o json >"$tmp/spin.json"
m='j["runs"][0]["metrics"]'
check "spin elapsed within [1, 20] s" is_true "$(json "$tmp/spin.json" "1 <= $m['elapsed_s'] < 20")"
# (unless other load took the CPUs, as for spin2 above)
check "spin user time > 0" is_true "$(json "$tmp/spin.json" \
	"$m['user_s'] > 0.2 or ($m['other_cpu_pct'] > 50 and $m['user_s'] > 0)")"
check "spin per-task shares ordered" is_true \
	"$(json "$tmp/spin.json" "0 < $m['task_min_pct'] <= $m['task_max_pct'] <= 105")"
check "spin JSON shape" is_true "$(json "$tmp/spin.json" \
	'j["machine"] == "host" and j["reps"] == 1 and j["runs"][0]["policy"].startswith("real: Linux") and "summary" in j')"
"$S" real -w spin:tasks=2,seconds=0.5 --cpus 0 -o json >"$tmp/pin.json"
check "pinned to one CPU: cpu_pct <= 105" is_true "$(json "$tmp/pin.json" "$m['cpu_pct'] <= 105")"
check "pinned label" is_true "$(json "$tmp/pin.json" '"CPUs 0 (pinned)" in j["runs"][0]["policy"]')"

# ---- table and CSV, repetitions ----
"$S" real -w spin:tasks=1,seconds=0.2 -r 2 >"$tmp/table.txt"
check "table header" grep -q '^workload spin:tasks=1,seconds=0.2 on host' "$tmp/table.txt"
check "table repetitions" grep -q 'min/med/max' "$tmp/table.txt"
check "table metric rows" grep -q '^elapsed_s' "$tmp/table.txt"
"$S" real -w hackbench:groups=2,loops=50 -o csv >"$tmp/hb.csv"
check "csv header" grep -q '^policy,rep,seed,metric,value,unit,machine,workload,policy_spec' "$tmp/hb.csv"
check "csv hackbench time" grep -q ',time_s,' "$tmp/hb.csv"
check "csv messages" grep -q ',messages,40000,count,host,' "$tmp/hb.csv"
check "csv rows carry the workload's parameters" sh -c "head -1 '$tmp/hb.csv' | grep -q ',policy_spec,groups,fds,loops,mode,datasize,readsize,cpus\$' &&
	grep -q ',real,2,20,50,socket,100,100,all\$' '$tmp/hb.csv'"
"$S" real -w hackbench:groups=1,fds=4,loops=10,mode=pipe -o json >"$tmp/hb.json"
check "hackbench pipes: processes" is_true "$(json "$tmp/hb.json" "$m['processes'] == 9")"
check "hackbench time within elapsed" is_true "$(json "$tmp/hb.json" "0 < $m['time_s'] <= $m['elapsed_s'] < 30")"
"$S" real -w pingpong:loops=2000 -o json >"$tmp/pp.json"
check "pingpong round trip" is_true "$(json "$tmp/pp.json" \
	"0 < $m['round_trip_us'] and abs($m['round_trip_us'] * 2000e-6 - $m['time_s']) < 1e-9")"
"$S" real -w pingpong:loops=2000,mode=socket --cpus 0 -o json >"$tmp/pps.json"
check "pingpong socket, one CPU" is_true "$(json "$tmp/pps.json" "$m['time_s'] <= $m['elapsed_s']")"
"$S" real -w schedbench:tasks=2,mb=2,passes=3,hackbench=1,hackbench_at=0 -o json >"$tmp/sb.json"
check "schedbench totals" is_true "$(json "$tmp/sb.json" \
	"abs($m['avg_user_s'] * 2 - $m['total_user_s']) < 1e-6 and $m['total_user_s'] <= $m['user_s'] + 1e-9 and $m['hackbench_s'] > 0")"

# ---- interrupted runs leave nothing behind ----
# interrupt SIG WORKLOAD: start `real -w WORKLOAD` with default signal
# actions, send SIG after a second, and print one line: how many processes
# (children and the members of their groups, read from /proc) it had, its
# exit (-N: killed by signal N), bytes on stdout, survivors, stderr.  A run
# that does not stop within 30 s is killed and reported as a timeout.
interrupt() {
	python3 - "$S" "$1" "$2" <<'EOF'
import os, signal, subprocess, sys, time
def procs():
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                f = open("/proc/%s/stat" % d).read()
            except OSError:
                continue
            rest = f[f.rindex(")") + 2:].split()
            out.append((int(d), int(rest[1]), int(rest[2])))	# pid, ppid, pgrp
    return out
signal.signal(signal.SIGINT, signal.SIG_DFL)
p = subprocess.Popen([sys.argv[1], "real", "-w", sys.argv[3]],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(1)
ps = procs()
groups = {g for pid, pp, g in ps if pp == p.pid}
kids = [pid for pid, pp, g in ps if pp == p.pid or g in groups]
p.send_signal(getattr(signal, sys.argv[2]))
try:
    out, err = p.communicate(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    for k in kids:
        try:
            os.kill(k, signal.SIGKILL)
        except OSError:
            pass
    print("timeout")
    sys.exit()
left = [k for k in kids if os.path.exists("/proc/%d" % k)]
print("kids=%d rc=%d out=%d left=%d err=%s" % (len(kids), p.returncode, len(out), len(left),
                                                err.decode().strip()))
EOF
}
r=$(interrupt SIGTERM hackbench:groups=4,loops=100000)
case $r in
"kids="[1-9]*" rc=-15 out=0 left=0 err=schedlab: interrupted by SIGTERM; every child process was killed") ok ;;
*) bad "SIGTERM during hackbench: $r" ;;
esac
r=$(interrupt SIGINT spin:tasks=3,seconds=60)
case $r in
"kids=3 rc=-2 out=0 left=0 err=schedlab: interrupted by SIGINT; every child process was killed") ok ;;
*) bad "SIGINT during spin: $r" ;;
esac
# threads of one root process: the root's group goes, threads and all
r=$(interrupt SIGTERM schbench:runtime_s=60)
case $r in
"kids=1 rc=-15 out=0 left=0 err=schedlab: interrupted by SIGTERM; every child process was killed") ok ;;
*) bad "SIGTERM during schbench: $r" ;;
esac

# ---- kernbench on a fake kernel tree ----
mk_tree() {	# mk_tree DIR: a Makefile with kernbench's targets, and a Kconfig
	mkdir -p "$1"
	: >"$1/Kconfig"
	printf '%s\n' \
		'tinyconfig:' '	echo tiny > .config' \
		'clean:' '	rm -f vmlinux' \
		'vmlinux: a.o b.o' '	test ! -e FAIL' '	cat a.o b.o > vmlinux' \
		'	echo "level=$(MAKELEVEL) flags=$(MAKEFLAGS)" >> built.txt' \
		'a.o b.o:' '	sh -c '"'"'i=0; while [ $$i -lt 20000 ]; do i=$$((i+1)); done'"'"'; touch $@' \
		'.PHONY: clean tinyconfig a.o b.o' >"$1/Makefile"
}
mk_tree "$tmp/src/linux-fake"
# as under `make validate`: a parent make's variables must not reach the build
expect_exit 0 env MAKELEVEL=3 MAKEFLAGS=-j7 "$S" real -w kernbench:src="$tmp/src/linux-fake",jobs=2 -r 2 -o json
check "kernbench: configured" [ -f "$tmp/src/linux-fake/.config" ]
check "kernbench: config stamp" grep -qx tinyconfig "$tmp/src/linux-fake/.schedlab-config"
check "kernbench: warm stamp" [ -f "$tmp/src/linux-fake/.schedlab-warm" ]
check "kernbench: warm-up + 2 timed builds" [ "$(grep -c . "$tmp/src/linux-fake/built.txt")" -eq 3 ]
check "kernbench: no parent make's variables" sh -c \
	"! grep -v '^level=0 ' '$tmp/src/linux-fake/built.txt' | grep -q ."
check "kernbench: not the parent's -j7" sh -c "! grep -q j7 '$tmp/src/linux-fake/built.txt'"
check "kernbench: log kept" [ -s "$tmp/cache/kernbench.log" ]
"$S" real -w kernbench:src="$tmp/src/linux-fake",jobs=1,warmup=auto -o json >"$tmp/kb.json"
check "kernbench: no second warm-up" [ "$(grep -c . "$tmp/src/linux-fake/built.txt")" -eq 4 ]
check "kernbench metrics" is_true "$(json "$tmp/kb.json" "$m['jobs'] == 1 and $m['elapsed_s'] > 0 and $m['sleeps'] > 0")"
# from a tarball: unpacked once into the cache
rm -rf "$tmp/src/linux-fake"
mk_tree "$tmp/src/linux-fake"
tar -czf "$tmp/src/linux-fake.tar.gz" -C "$tmp/src" linux-fake
expect_exit 0 "$S" real -w kernbench:src="$tmp/src/linux-fake.tar.gz",warmup=no
check "kernbench: unpacked into the cache" [ -f "$tmp/cache/linux-fake/.schedlab-unpacked" ]
check "kernbench: no unpack leftovers" sh -c "! ls -a '$tmp/cache' | grep -q unpack"
check "kernbench: no log leftovers" sh -c "! ls -a '$tmp/cache' | grep -q 'log.tmp'"
touch "$tmp/cache/linux-fake/FAIL"
expect_exit 1 "$S" real -w kernbench:src="$tmp/src/linux-fake.tar.gz",warmup=no
expect_err "make in '.*linux-fake' failed (log: .*kernbench.log)"

# ---- validate: real beside simulated ----
"$S" validate -w spin:tasks=2,seconds=0.5 -p o1 -o json >"$tmp/val.json"
check "validate JSON" is_true "$(json "$tmp/val.json" \
	'j["simulated"]["policy"] == "o1" and j["simulated"]["workload"].startswith("spin:tasks=2,seconds=0.5")')"
check "validate elapsed both sides" is_true "$(json "$tmp/val.json" \
	'[m for m in j["metrics"] if m["name"] == "elapsed_s" and m["real"]["n"] == 1 and m["simulated"]["n"] == 1 and m["error_pct"] is not None] != []')"
# without -p: cfs with the host kernel's preemption model, HZ and NO_HZ
# (whatever this host's are: the knobs validate names are the ones it runs)
"$S" validate -w spin:tasks=1,seconds=0.2 -o json >"$tmp/valk.json"
check "validate: the host kernel said, and cfs run with what it read" is_true "$(json "$tmp/valk.json" \
	'j["real"]["kernel"].startswith("host kernel: ") and (j["simulated"]["policy"] == "cfs" or j["simulated"]["policy"].startswith("cfs:preempt=") or j["simulated"]["policy"].startswith("cfs:preemption="))')"
if [ -r /proc/config.gz ] && zcat /proc/config.gz | grep -q '^CONFIG_HZ=250$'; then
	check "validate: this host's HZ 250 simulated" is_true "$(json "$tmp/valk.json" \
		'",hz=250," in j["simulated"]["policy"] + ","')"
fi
"$S" validate -w spin:tasks=1,seconds=0.3 -p o1 --sim spin:tasks=1,seconds=0.3 >"$tmp/val.txt"
check "validate table" grep -q '^metric  *unit  *real  *simulated  *error$' "$tmp/val.txt"
check "validate table names both" grep -q 'simulated: spin:tasks=1,seconds=0.3 under o1 on host' "$tmp/val.txt"
"$S" validate -w spin:tasks=1,seconds=0.3 -p o1 -o csv >"$tmp/val.csv"
check "validate csv" grep -q '^elapsed_s,s,' "$tmp/val.csv"
expect_exit 0 "$S" validate -w hackbench:groups=1,loops=10 -p o1
# a model whose messages cost 200 us each does unlike work: one warning
# line, after the table (exit 0: the comparison is printed)
expect_exit 0 "$S" validate -w hackbench:groups=1,loops=10 -p o1 \
	--sim hackbench:groups=1,loops=10,msg_us=200
check "validate: unlike work warned" sh -c "printf '%s' \"\$1\" | grep -q 'warning: the simulated runs used [0-9]* % more CPU time (user + sys) than the real ones'" _ "$ERR"

# ---- --calibrate: a pinned pingpong, real and simulated, gives kcost ----
bad_input "validate: --calibrate given twice" validate -w spin --calibrate --calibrate
bad_input "the simulated machine must be 'host' (with its options), not 'p4dpe-2x2ht'" \
	validate -w spin -m p4dpe-2x2ht --calibrate
bad_input "give 'host,ipi=19,kcost=0.5' or --calibrate, not both" \
	validate -w spin -m host,ipi=19,kcost=0.5 --calibrate
"$S" validate -w spin:tasks=1,seconds=0.2 -p o1 -m host,ipi=19 --calibrate -o json \
	>"$tmp/vcal.json"
# the real round trip over the simulated one at kcost=1 (both above 1 us
# on any host), and the model run on the machine given with that kcost
check "validate --calibrate: kcost is the round trips' ratio" is_true "$(json "$tmp/vcal.json" \
	'(lambda c: c["real_round_trip_us"] > 1 and c["simulated_round_trip_us"] > 1 and abs(c["kcost"] - c["real_round_trip_us"] / c["simulated_round_trip_us"]) < 1e-3 * c["kcost"])(j["calibration"])')"
check "validate --calibrate: the model on host,kcost=F" is_true "$(json "$tmp/vcal.json" \
	'j["simulated"]["machine"] == "host,ipi=19,kcost=%.4g" % j["calibration"]["kcost"]')"
# the cross-check: the same pinned round trip over a socket pair, its own
# factor reported (the pipe's is the one used)
check "validate --calibrate: a socket's round trip cross-checks it" is_true "$(json "$tmp/vcal.json" \
	'(lambda c: c["socket_real_round_trip_us"] > 1 and c["socket_simulated_round_trip_us"] > c["simulated_round_trip_us"] and abs(c["socket_kcost"] - c["socket_real_round_trip_us"] / c["socket_simulated_round_trip_us"]) < 1e-6 * c["socket_kcost"])(j["calibration"])')"
"$S" validate -w spin:tasks=1,seconds=0.2 --calibrate >"$tmp/vcal.txt" 2>"$tmp/vcal.err"
check "validate --calibrate: the cross-check's line" grep -q \
	"^  cross-check: the same over a socket pair, [0-9.]* us real, [0-9.]* us simulated: [0-9.]*$" \
	"$tmp/vcal.txt"
# warned exactly when the two factors are more than 1.25x apart
apart=$(python3 -c 'import re,sys
t = open(sys.argv[1]).read()
k = float(re.search(r"kcost=([0-9.e+-]+)\n", t).group(1))
s = float(re.search(r"us simulated: ([0-9.e+-]+)\n", t).group(1))
print("yes" if s / k > 1.25 or s / k < 0.8 else "no")' "$tmp/vcal.txt")
if [ "$apart" = yes ]; then
	check "validate --calibrate: factors apart, warned" grep -q \
		"warning: --calibrate: a socket's round trip gives kcost=" "$tmp/vcal.err"
else
	check "validate --calibrate: factors close, not warned" sh -c \
		"! grep -q 'a socket.s round trip gives' \"\$1\"" _ "$tmp/vcal.err"
fi

# ---- cpus= in the spec: taskset -c, as --cpus and as the simulated workloads take it ----
"$S" real -w spin:tasks=1,seconds=0.2,cpus=$((NCPU - 1)) -o csv >"$tmp/pin.csv"
check "real cpus=: pinned" grep -q "CPUs $((NCPU - 1)) (pinned)" "$tmp/pin.csv"
bad_input "workload 'spin': cpus=0 and --cpus 0 (expected one)" real -w spin:cpus=0 --cpus 0
bad_input "cpus 'x': expected a CPU list" real -w spin:cpus=x
bad_input "cpus '0-1-2': expected a CPU list" real -w hackbench:cpus=0-1-2
"$S" validate -w spin:tasks=1,seconds=0.2,cpus=0 -p o1 >"$tmp/vpin.txt" 2>&1
check "validate cpus=: the simulated spin pinned alike" grep -q "simulated: spin:.*cpus=0 under o1" "$tmp/vpin.txt"

# ---- --latency: each repetition recorded system-wide by perf; the waits
# of the processes schedlab forked, and only those (pingpong: its two) ----
bad_input "real: --latency given twice" real -w spin --latency --latency
bad_input "validate: --latency given twice" validate -w spin --latency --latency
expect_exit 1 env PATH="$tmp" "$(command -v "$S" || echo "$PWD/$S")" real -w spin:seconds=0.1 --latency
expect_err "needs perf, not found"
if command -v perf >/dev/null && { [ -e /sys/kernel/tracing/events/sched/sched_switch ] ||
   [ -e /sys/kernel/debug/tracing/events/sched/sched_switch ]; }; then
	mkdir -p "$tmp/lt"
	TMPDIR="$tmp/lt" "$S" real -w pingpong:loops=2000 --latency -r 2 -o json >"$tmp/lat.json"
	check "--latency: ran" test $? = 0
	check "--latency: pingpong's two processes in each repetition" is_true "$(json "$tmp/lat.json" \
		'all(r["metrics"]["latency_tasks"] == 2 for r in j["runs"])')"
	check "--latency: percentiles in order, waits seen" is_true "$(json "$tmp/lat.json" \
		'all(0 < m["wakeup_lat_us_p50"] <= m["wakeup_lat_us_p99"] <= m["wakeup_lat_us_max"] and m["runq_delay_us_p50"] > 0 for m in (r["metrics"] for r in j["runs"]))')"
	check "--latency: the recordings removed" test -z "$(ls "$tmp/lt")"
	"$S" validate -w pingpong:loops=2000 -p o1 --latency -o csv >"$tmp/lval.csv" 2>/dev/null
	check "validate --latency: real and simulated wakeup latency side by side" \
		grep -Eq '^wakeup_lat_us_p50,us,[0-9.]+,[0-9.]+,1,[0-9.]+,' "$tmp/lval.csv"
	# interrupted: perf killed and reaped, its directory removed
	TMPDIR="$tmp/lt" "$S" real -w spin:seconds=20 --latency >/dev/null 2>&1 &
	pid=$!
	sleep 2
	kill -TERM $pid
	wait $pid; rc=$?
	check "--latency interrupted: died of SIGTERM" test $rc = 143
	check "--latency interrupted: no perf left" sh -c "! pgrep -f 'record -a -q -D -1 --control fd:[0-9]*,[0-9]* -o $tmp/lt/' >/dev/null"
	check "--latency interrupted: nothing left in TMPDIR" test -z "$(ls "$tmp/lt")"
else
	echo "note: perf or the sched tracepoints missing: real --latency checks skipped"
fi

finish real
