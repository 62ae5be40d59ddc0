#!/bin/sh
# test_schbench.sh - the schbench workload from the command line: bad
# parameters exit 2 with one line (run and real); a short simulated run
# reports schbench's metrics (wakeup_us_*, request_us_*, requests, rps) and
# the engine's per-role latencies; `list workloads` shows every parameter;
# short real runs (normal and -R mode) report the same names with values
# that follow from the parameters; validate puts both side by side.
# Timing is never asserted beyond what the parameters force (a request
# sleeps at least sleep_us).  $SCHEDLAB is the binary.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
S=${SCHEDLAB:-./schedlab}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

bad_input() {
	pat=$1; shift
	expect_exit 2 "$S" "$@"
	expect_err "$pat"
}
json() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
check() {
	d=$1; shift
	if "$@"; then ok; else bad "$d"; fi
}
is_true() { [ "$1" = True ]; }
m='j["runs"][0]["metrics"]'
R="run -m p4dpe-2x2ht -p o1"

# ---- bad parameters: exit 2, one line ----
bad_input "warmup_s (5) must be less than runtime_s (5)" $R -w schbench:warmup_s=5,runtime_s=5
bad_input "lock" $R -w schbench:lock=2
bad_input "footprint_kb" $R -w schbench:footprint_kb=0
bad_input "message_threads" $R -w schbench:message_threads=0
bad_input "rps=3 gives 4 message threads no request" $R -w schbench:message_threads=4,rps=3
bad_input "more than 16384 threads" $R -w schbench:message_threads=100,workers=200
bad_input "frob" $R -w schbench:frob=1
bad_input "warmup_s (1) must be less than runtime_s (1)" real -w schbench:warmup_s=1,runtime_s=1
bad_input "more than the 1024 real workers" real -w schbench:message_threads=2,workers=600
bad_input "workers" real -w schbench:workers=0

# ---- every parameter listed ----
list=$("$S" list workloads)
for p in message_threads workers runtime_s warmup_s sleep_us loops footprint_kb lock rps class op_ns; do
	printf '%s\n' "$list" | sed -n '/^schbench /,/^$/p' | grep -q "^    $p=" && ok ||
		bad "list workloads lacks schbench's $p"
done

# ---- a short simulated run ----
"$S" $R -w schbench:runtime_s=0.5,warmup_s=0.1 -o json >"$tmp/sim.json"
check "sim metrics" is_true "$(json "$tmp/sim.json" "all(k in $m for k in \
	['wakeup_us_p50', 'wakeup_us_p99.9', 'wakeup_us_max', 'request_us_p90', 'request_us_max', \
	 'requests', 'rps', 'sched_delay_us_msg', 'sched_delay_us_workers', \
	 'msg_wakeup_lat_us_p99', 'workers_runq_delay_us_max'])")"
check "sim request >= sleep" is_true "$(json "$tmp/sim.json" "$m['request_us_p50'] >= 100")"
check "sim rps = requests / 0.4 s" is_true "$(json "$tmp/sim.json" \
	"$m['requests'] > 0 and abs($m['rps'] - $m['requests'] / 0.4) < 1e-6")"
check "sim percentiles ordered" is_true "$(json "$tmp/sim.json" \
	"$m['wakeup_us_p50'] <= $m['wakeup_us_p99'] <= $m['wakeup_us_max']")"
# rps mode: 1000 a second for 0.5 s, posted at the start of the second
"$S" $R -w schbench:runtime_s=0.5,rps=1000,loops=1 -o json >"$tmp/rps.json"
check "sim rps mode" is_true "$(json "$tmp/rps.json" "0 < $m['requests'] <= 1000")"

# ---- short real runs ----
"$S" real -w schbench:runtime_s=0.3,loops=1 -o json >"$tmp/real.json"
check "real metrics" is_true "$(json "$tmp/real.json" "all(k in $m for k in \
	['wakeup_us_p50', 'wakeup_us_p99', 'request_us_p99.9', 'requests', 'rps', 'elapsed_s'])")"
check "real requests" is_true "$(json "$tmp/real.json" \
	"$m['requests'] > 0 and abs($m['rps'] - $m['requests'] / 0.3) < 1e-6")"
check "real request >= sleep" is_true "$(json "$tmp/real.json" "$m['request_us_p50'] >= 100")"
if [ -r /proc/thread-self/schedstat ]; then
	check "real sched delay" is_true "$(json "$tmp/real.json" \
		"$m['sched_delay_us_msg'] >= 0 and $m['sched_delay_us_workers'] >= 0")"
fi
check "real workers resolved" is_true "$(json "$tmp/real.json" "'workers=' in j['workload']")"
# the math's own CPU time per multiply-add: what validate gives the model
check "real op_ns" is_true "$(json "$tmp/real.json" "$m['op_ns'] > 0")"
# -R: 20 a second, one worker, 1.2 s: the posts at 0 s and 1 s, at most 40
"$S" real -w schbench:runtime_s=1.2,rps=20,workers=1,loops=1,lock=off -o json >"$tmp/rrps.json"
check "real rps mode" is_true "$(json "$tmp/rrps.json" "0 < $m['requests'] <= 40")"
# the stopping post is no wakeup: 2 a second, posted at 0 s and 1 s; the
# worker idles from about 1 s to the end at 1.9 s, and that wait is no sample
"$S" real -w schbench:runtime_s=1.9,rps=2,workers=1,loops=1,lock=off -o json >"$tmp/rend.json"
check "real end is no wakeup" is_true "$(json "$tmp/rend.json" "$m['wakeup_us_max'] < 500000")"

# ---- validate: the same names on both sides ----
"$S" validate -w schbench:runtime_s=0.3,loops=1 -p cfs -o csv >"$tmp/val.csv" 2>/dev/null
check "validate rows" grep -q '^wakeup_us_p99,us,' "$tmp/val.csv"
check "validate rps" grep -q '^rps,req/s,' "$tmp/val.csv"
# the model is given the real runs' cost of a multiply-add (real_mean, sim_mean)
check "validate op_ns given" is_true "$(python3 -c "
import csv, sys
r = [row for row in csv.reader(open(sys.argv[1])) if row and row[0] == 'op_ns']
print(bool(r) and abs(float(r[0][2]) - float(r[0][5])) <= 1e-6 * float(r[0][2]))" "$tmp/val.csv")"

finish test_schbench
