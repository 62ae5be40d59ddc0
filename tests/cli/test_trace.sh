#!/bin/sh
# test_trace.sh - traces from the command line (docs/traces.md): run
# --trace writes perf script (or ftrace) text of one run, trace import turns
# it - or a real recording - into a workload with one summary line, bad
# input exits 2 with one line naming the file and line, and (when the
# workload table lists `trace`) the replay of an export reproduces the run.
# trace record is checked for its usage errors, for a missing perf (exit
# 1), and - where perf and the tracepoints work - for a real recording.
# $SCHEDLAB is the binary under test.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
S=${SCHEDLAB:-./schedlab}
M="p4dpe-2x2ht,noht"
W=javabench:size=0.2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

bad_input() {
	pat=$1; shift
	expect_exit 2 "$S" "$@"
	expect_err "$pat"
}

# check DESCRIPTION COMMAND...: the command succeeds
check() {
	what=$1; shift
	if "$@"; then ok; else bad "$what"; fi
}

# json_tasks FILE: the number of tasks of a workload JSON
json_tasks() {
	python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tasks"]))' "$1"
}

# ---- run --trace ----
expect_exit 0 "$S" run -m $M -p o1 -w $W --trace "$tmp/t.txt"
check "trace has switches" grep -q 'sched:sched_switch: prev_comm=swapper/0 prev_pid=0' "$tmp/t.txt"
check "trace has forks" grep -q 'sched:sched_process_fork: comm=java pid=1000' "$tmp/t.txt"
check "trace has exits" grep -q 'sched:sched_process_exit: comm=java pid=1000' "$tmp/t.txt"
check "trace header" grep -q '^# cmdline        : policy o1, workload javabench:size=0.2, seed 1' "$tmp/t.txt"
expect_exit 0 "$S" run -m $M -p o1 -w $W --trace="$tmp/f.txt" --trace-format ftrace
check "ftrace header" sh -c "head -1 '$tmp/f.txt' | grep -qx '# tracer: nop'"
check "ftrace lines" grep -q '^            java-1000    (   1000) \[000\] .... ' "$tmp/f.txt"
# the same run's result with and without the trace
"$S" run -m $M -p o1 -w $W -o json > "$tmp/a.json"
"$S" run -m $M -p o1 -w $W -o json --trace "$tmp/t2.txt" > "$tmp/b.json"
check "tracing changes no result" cmp -s "$tmp/a.json" "$tmp/b.json"
check "same trace twice" cmp -s "$tmp/t.txt" "$tmp/t2.txt"

# chrome: the trace-event JSON the viewers need, showing the same run as perf's
expect_exit 0 "$S" run -m $M -p o1 -w $W --trace "$tmp/c.json" --trace-format chrome
check "chrome trace has the viewers' fields and perf's run" \
	python3 tests/cli/check_chrome_trace.py "$tmp/c.json" "$tmp/t.txt"
"$S" run -m p4dpe-2x2ht -p ht -w kernbench:jobs=3,size=0.3 --trace "$tmp/k.json" --trace-format chrome >/dev/null
"$S" run -m p4dpe-2x2ht -p ht -w kernbench:jobs=3,size=0.3 --trace "$tmp/k.txt" >/dev/null
check "chrome trace of a kernbench on 4 CPUs" \
	python3 tests/cli/check_chrome_trace.py "$tmp/k.json" "$tmp/k.txt"
# CPUs named by their LLC where a package holds several (here an L3 per
# chiplet), and not on a preset, whose LLC is its package
"$S" run -m "pack:1 l3:2 core:2 pu:1" -p cfs -w spin:seconds=0.01 --trace "$tmp/l.json" \
	--trace-format chrome >/dev/null
check "chrome trace names each CPU's LLC on a package of two" \
	grep -q '"CPU 3 (core 3, LLC 1, package 0, node 0)"' "$tmp/l.json"
check "chrome trace names no LLC on a preset" \
	sh -c "grep -q '\"CPU 3 (core 1, package 1, node 0)\"' '$tmp/k.json' && ! grep -q LLC '$tmp/k.json'"
check "the checker catches a broken trace" sh -c \
	"sed 's/\"dur\":/\"dux\":/' '$tmp/c.json' > '$tmp/c2.json'; ! python3 tests/cli/check_chrome_trace.py '$tmp/c2.json' '$tmp/t.txt' >/dev/null"

bad_input "one -p" run -m $M -p o1 -p linux24 -w $W --trace "$tmp/x.txt"
bad_input "-r 1" run -m $M -p o1 -w $W -r 2 --trace "$tmp/x.txt"
bad_input "--trace-format 'xml': expected perf, ftrace or chrome" run -m $M -p o1 -w $W --trace "$tmp/x.txt" --trace-format xml
bad_input "without --trace" run -m $M -p o1 -w $W --trace-format ftrace
bad_input "/nonexistent/dir/x.txt" run -m $M -p o1 -w $W --trace /nonexistent/dir/x.txt
bad_input "'--trace'" run -m $M -p o1 -w $W --trace
bad_input "--trace given twice" run -m $M -p o1 -w $W --trace a --trace b
bad_input "'--tracex'" run -m $M -p o1 -w $W --tracex foo

# ---- the user's files: written whole or not at all ----
# a run that fails leaves an existing file as it was, and no temporary file
echo keep >"$tmp/old.txt"
bad_input "bogus" run -m $M -p o1:bogus=1 -w $W --trace "$tmp/old.txt"
check "failed run leaves the file" grep -qx keep "$tmp/old.txt"
check "failed run leaves no temporary" test -z "$(ls "$tmp" | grep 'old.txt.')"
# a symlink is replaced, not written through
echo target >"$tmp/target.txt"
ln -s target.txt "$tmp/link.txt"
expect_exit 0 "$S" run -m $M -p o1 -w $W --trace "$tmp/link.txt"
check "symlink's target untouched" grep -qx target "$tmp/target.txt"
check "the trace replaced the link" test ! -L "$tmp/link.txt"
check "trace file mode from the umask" test -r "$tmp/link.txt"
# a stream (a named pipe, /dev/null, /dev/stdout) is written, not replaced
# by a file; a directory is refused before the run
mkfifo "$tmp/fifo"
timeout 60 cat "$tmp/fifo" >"$tmp/fifo.out" &
expect_exit 0 timeout 60 "$S" run -m $M -p o1 -w $W --trace "$tmp/fifo"
wait
check "a named pipe stays a pipe" test -p "$tmp/fifo"
check "the trace went through the pipe" cmp -s "$tmp/fifo.out" "$tmp/link.txt"
expect_exit 2 "$S" run -m $M -p o1 -w $W --trace "$tmp"
expect_err "is a directory"
# one name for the trace and the page: the second would replace the first
expect_exit 2 "$S" run -m $M -p o1 -w $W --trace "$tmp/same.txt" --html "$tmp/./same.txt"
expect_err "both name '$tmp/./same.txt'"
# a signal during the run: the temporary file is removed, and the run ends
# by the signal
for sig in SIGINT SIGTERM; do
	mkdir -p "$tmp/sig"
	r=$(python3 - "$S" $sig "$tmp/sig" <<'EOF'
import os, signal, subprocess, sys, time
S, name, d = sys.argv[1], sys.argv[2], sys.argv[3]
signal.signal(signal.SIGINT, signal.SIG_DFL)
p = subprocess.Popen([S, "run", "-m", "p4dpe-2x2ht", "-p", "o1", "-w",
                      "hackbench:groups=10,loops=200", "--trace", d + "/t.txt"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for i in range(3000):	# until the trace is being written
    if any(os.path.getsize(os.path.join(d, f)) > 0 for f in os.listdir(d)) or p.poll() is not None:
        break
    time.sleep(0.01)
p.send_signal(getattr(signal, name))
p.wait()
print("rc=%d files=%s" % (p.returncode, ",".join(os.listdir(d)) or "none"))
EOF
)
	num=$(python3 -c "import signal; print(int(signal.$sig))")
	check "$sig during run --trace leaves no file: $r" test "$r" = "rc=-$num files=none"
	rm -rf "$tmp/sig"
done
# a directory that cannot hold it is bad input, before the run
bad_input "nodir/t.txt" run -m $M -p o1 -w $W --trace "$tmp/nodir/t.txt"
# "-": the trace on standard output, the results on standard error
"$S" run -m $M -p o1 -w $W --trace - >"$tmp/out.txt" 2>"$tmp/err.txt"
check "--trace - writes the trace to stdout" grep -q '^# captured on    : simulated by schedlab' "$tmp/out.txt"
check "--trace - keeps the results off stdout" test -z "$(grep '^elapsed_s' "$tmp/out.txt")"
check "--trace - puts the results on stderr" grep -q '^elapsed_s' "$tmp/err.txt"

# ---- trace import ----
expect_exit 0 "$S" trace import "$tmp/t.txt" -o "$tmp/w.json"
expect_err "trace import: [0-9]* lines, [0-9]* events used, [0-9]* skipped .*; 5 of 5 tasks kept"
check "workload tasks" test "$(json_tasks "$tmp/w.json")" = 5
expect_exit 0 "$S" trace import "$tmp/f.txt" -o "$tmp/wf.json"
check "ftrace import" test "$(json_tasks "$tmp/wf.json")" = 5
expect_exit 0 "$S" trace import tests/data/traces/ls3.txt -o "$tmp/ls3.json"
expect_err "4 of 21 tasks kept (the recorded command 'sh', pid [0-9]*, and its descendants)"
expect_exit 0 "$S" trace import tests/data/traces/ls3.txt --all -o "$tmp/all.json"
check "--all keeps more" test "$(json_tasks "$tmp/all.json")" -gt 4
pid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tasks"][0]["pid"])' "$tmp/ls3.json")
expect_exit 0 "$S" trace import tests/data/traces/ls3.txt --pid "$pid" -o "$tmp/pid.json"
check "--pid keeps the tree" test "$(json_tasks "$tmp/pid.json")" = 4
expect_exit 0 "$S" trace import tests/data/traces/pingpong.txt -o -
expect_err "2 of 23 tasks kept (the recorded command 'perl'"
expect_err "; 0.00[0-9] s of CPU time in 0.009 s on 2 CPUs$"
# a busy host's recording (tests/data/traces/README.md): every task's CPU
# time fits in the CPUs' time, and one warning line names what the repairs
# dropped (daemons whose switch-outs are not in the trace)
"$S" trace import tests/data/traces/busy-make.txt --all -o "$tmp/busy.json" 2>"$tmp/busy.err"
check "busy host: two lines" test "$(grep -c . "$tmp/busy.err")" = 2
check "busy host: summary" grep -q '; 3.79[0-9] s of CPU time in 1.899 s on 2 CPUs$' "$tmp/busy.err"
check "busy host: the warning names what it dropped" grep -q \
	'^schedlab: trace import: warning: repaired [0-9]* tasks (.*): dropped [0-9.]* s of CPU time: tokio-rt-worker pid 75 1.1[0-9]* s, ' \
	"$tmp/busy.err"
check "busy host: CPU time fits" python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))
sys.exit(0 if sum(t["cpu_ns"] for t in w["tasks"]) <= w["cpus"] * w["duration_ns"] else 1)' "$tmp/busy.json"
expect_exit 0 "$S" trace import tests/data/traces/busy-make.txt -o "$tmp/busy1.json"
expect_err "5 of 52 tasks kept (the recorded command 'make'"

# ---- trace import's memory: the lines streamed, the workload written as it goes ----
# a long trace (a run's export repeated, each copy shifted past the last in
# time) is imported with at most twice its size in memory beyond what a
# one-copy import takes (the whole workload as a json-c tree took ten times)
"$S" run -m p4dpe-2x2ht -p o1 -w hackbench:groups=2,loops=20 --trace "$tmp/hb.txt" >/dev/null 2>&1
mem=$(python3 - "$S" "$tmp/hb.txt" 12 "$tmp" <<'EOF'
import os, resource, subprocess, sys
S, src, n, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
lines = [l for l in open(src) if l.strip() and not l.lstrip().startswith("#")]
def stamp(l):			# where the timestamp is, and its ns
    i = l.index("]") + 1
    j = l.index(":", i)
    tok = l[i:j].split()[-1]
    a, b = tok.split(".")
    return j - len(tok), j, int(a) * 10**9 + int(b.ljust(9, "0")[:9])
span = stamp(lines[-1])[2] - stamp(lines[0])[2] + 1000
with open(d + "/long.txt", "w") as f:
    for k in range(n):
        for l in lines:
            i, j, t = stamp(l)
            t += k * span
            f.write("%s%d.%09d%s" % (l[:i], t // 10**9, t % 10**9, l[j:]))
def peak(path):			# the import's peak RSS (KiB), in a child of its own
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], "
            "stderr=subprocess.DEVNULL, check=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, S, "trace", "import", path, "--all",
                          "-o", d + "/long.json"], stdout=subprocess.PIPE, check=True)
    return int(out.stdout)
one, many = peak(src), peak(d + "/long.txt")
size = os.path.getsize(d + "/long.txt") // 1024
print("ok" if many - one < 2 * size else
      "peak %d KiB for %d KiB of text, %d KiB for one copy" % (many, size, one))
EOF
)
check "trace import's memory grows with at most twice the text: $mem" test "$mem" = ok

head -20 "$tmp/t.txt" > "$tmp/bad.txt"
echo 'java 1000 [000] 0.5x: sched:sched_switch: prev_comm=a' >> "$tmp/bad.txt"
bad_input "bad.txt:21: '0.5x:': expected a timestamp" trace import "$tmp/bad.txt" -o "$tmp/x.json"
# a clock past sl_time's 292 years is refused, not overflowed (a fuzz finding)
head -20 "$tmp/t.txt" > "$tmp/far.txt"
echo 'java 1000 [000] 9861958305.5: sched:sched_switch: prev_comm=a' >> "$tmp/far.txt"
bad_input "far.txt:21: '9861958305.5:': expected a timestamp" trace import "$tmp/far.txt" -o "$tmp/x.json"
# ... and lines years apart are a span no run can replay (their CPU sums overflowed)
head -20 "$tmp/t.txt" > "$tmp/years.txt"
sed -n 21,40p "$tmp/t.txt" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { $i = "5090867673.5:"; break } print }' >> "$tmp/years.txt"
bad_input "years.txt:21: time 5090867673.500000000 is more than 1000000 s after the first line's" trace import "$tmp/years.txt" -o "$tmp/x.json"
bad_input "years.txt:21: time 5090867673.500000000 is more than 1000000 s after the first line's" trace stats "$tmp/years.txt"
# the line reader both commands share holds the end-of-run comment to the same recording
head -20 "$tmp/t.txt" | grep -v 'end of run' > "$tmp/endc.txt"
echo '# schedlab: end of run at 9000000000.0' >> "$tmp/endc.txt"
bad_input "endc.txt: its end-of-run comment's time 9000000000.000000000 is more than 1000000 s" trace stats "$tmp/endc.txt"
bad_input "endc.txt: its end-of-run comment's time 9000000000.000000000 is more than 1000000 s" trace import "$tmp/endc.txt" -o "$tmp/x.json"
# -o that cannot be written is refused before the trace is read
bad_input "trace import -o '$tmp/nodir/x.json': cannot write beside it" trace import "$tmp/bad.txt" -o "$tmp/nodir/x.json"
python3 -c 'print("  sh 10 [000] 1.0: sched:sched_switch: " + "x" * 70000)' > "$tmp/long1.txt"
bad_input "long1.txt:1: a line longer than 65536 bytes" trace import "$tmp/long1.txt" -o "$tmp/x.json"
printf '# nothing\n' > "$tmp/empty.txt"
bad_input "empty.txt: no scheduling events" trace import "$tmp/empty.txt" -o "$tmp/x.json"
bad_input "nothere.txt: cannot read" trace import "$tmp/nothere.txt" -o "$tmp/x.json"
bad_input "missing -o" trace import "$tmp/t.txt"
bad_input "missing the trace FILE" trace import -o "$tmp/x.json"
bad_input "'--frob'" trace import "$tmp/t.txt" -o "$tmp/x.json" --frob
bad_input "exclude each other" trace import "$tmp/t.txt" -o "$tmp/x.json" --all --pid 3
bad_input "--pid 'x'" trace import "$tmp/t.txt" -o "$tmp/x.json" --pid x
bad_input "no task" trace import "$tmp/t.txt" -o "$tmp/x.json" --pid 99
bad_input "expected 'import', 'record' or 'stats'" trace
bad_input "'frob'" trace frob
check "trace help" sh -c "'$S' help trace | grep -q 'schedlab trace import FILE'"

# ---- trace stats: perf sched latency's table and the run's wait percentiles ----
# by hand: B is woken at 1.0001 s and runs at 1.0006 s (a 0.5 ms wakeup
# wait), is preempted at 1.0010 s and runs again at 1.0030 s (2 ms); A runs
# 0.6 ms then 2 ms (to the end at 1.0050 s)
cat >"$tmp/hand.txt" <<'TXT'
               a  101 [000]     1.000000000: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=101 next_prio=120
               a  101 [000]     1.000100000: sched:sched_waking: comm=b pid=102 prio=120 target_cpu=000
               a  101 [000]     1.000600000: sched:sched_switch: prev_comm=a prev_pid=101 prev_prio=120 prev_state=S ==> next_comm=b next_pid=102 next_prio=120
               b  102 [000]     1.001000000: sched:sched_switch: prev_comm=b prev_pid=102 prev_prio=120 prev_state=R ==> next_comm=a next_pid=101 next_prio=120
               a  101 [000]     1.003000000: sched:sched_switch: prev_comm=a prev_pid=101 prev_prio=120 prev_state=S ==> next_comm=b next_pid=102 next_prio=120
# schedlab: end of run at 1.005000000
TXT
"$S" trace stats "$tmp/hand.txt" >"$tmp/hand.out" 2>&1; rc=$?
check "trace stats: by hand" test $rc = 0
check "trace stats: b's waits" grep -Eq '^  b:102 +\| +2\.400 \| +2 \| +1\.250 \| +2\.000 \| +1\.003000$' "$tmp/hand.out"
check "trace stats: a's runtime" grep -Eq '^  a:101 +\| +2\.600 \| +2 \|' "$tmp/hand.out"
check "trace stats: one wakeup wait of 500 us" grep -Eq '^wakeup_lat_us .* max +500\.00 +\(1 waits\)' "$tmp/hand.out"
check "trace stats: two waits in all" grep -Eq '^runq_delay_us .* max +2000\.00 +\(2 waits\)' "$tmp/hand.out"
# --tree: only what pid 100 forked, directly (a) or not (b); x's child c
# and 100 itself are left out (a system-wide recording of one run)
cat >"$tmp/tree.txt" <<'TXT'
            root  100 [000]     1.000000000: sched:sched_process_fork: comm=root pid=100 child_comm=a child_pid=101
               x  200 [001]     1.000000000: sched:sched_process_fork: comm=x pid=200 child_comm=c child_pid=201
            root  100 [000]     1.000100000: sched:sched_switch: prev_comm=root prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=a next_pid=101 next_prio=120
               a  101 [000]     1.000200000: sched:sched_process_fork: comm=a pid=101 child_comm=b child_pid=102
               x  200 [001]     1.000300000: sched:sched_switch: prev_comm=x prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=c next_pid=201 next_prio=120
               a  101 [000]     1.001200000: sched:sched_switch: prev_comm=a prev_pid=101 prev_prio=120 prev_state=S ==> next_comm=b next_pid=102 next_prio=120
# schedlab: end of run at 1.002000000
TXT
"$S" trace stats --tree 100 "$tmp/tree.txt" >"$tmp/tree.out" 2>&1
check "trace stats --tree: the tree's two tasks" grep -q '^2 tasks' "$tmp/tree.out"
check "trace stats --tree: b waited 1 ms" grep -Eq '^  b:102 +\| +0\.800 \| +1 \| +1\.000 ' "$tmp/tree.out"
check "trace stats --tree: not c" sh -c "! grep -q 'c:201' '$tmp/tree.out'"
check "trace stats --tree: two waits" grep -Eq '^runq_delay_us .* \(2 waits\)' "$tmp/tree.out"
"$S" trace stats "$tmp/tree.txt" >"$tmp/all.out" 2>&1
check "trace stats without --tree: every task" grep -q '^5 tasks' "$tmp/all.out"
bad_input "trace stats: --tree 'x': expected a process id" trace stats --tree x "$tmp/tree.txt"
bad_input "trace stats: --tree needs a process id" trace stats "$tmp/tree.txt" --tree
bad_input "unknown option '--pid'" trace stats --pid 1 "$tmp/tree.txt"
# a simulated run's trace gives the percentiles the run itself reports
for spec in "ht hackbench:groups=1,loops=20" "o1:version=2.6.0 kernbench:jobs=3,size=0.3" \
	    "cfs javabench:size=0.2"; do
	set -- $spec
	"$S" run -m p4dpe-2x2ht -p "$1" -w "$2" -o json --trace "$tmp/st.txt" >"$tmp/st.json"
	"$S" trace stats "$tmp/st.txt" >"$tmp/st.out"
	check "trace stats of $1 $2: the run's percentiles" python3 - "$tmp/st.json" "$tmp/st.out" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))["runs"][0]["metrics"]
out = open(sys.argv[2]).read()
bad = []
for name in ("wakeup_lat_us", "runq_delay_us"):
    line = re.search(r"^%s (.*)$" % name, out, re.M).group(1)
    got = re.findall(r"(p50|p90|p99\.9|p99|max) +([\d.]+)", line)
    for k, v in got:
        v, want = float(v), m["%s_%s" % (name, k)]
        # the same waits in the same histogram (the root's first one too:
        # its sched_wakeup_new): equal but for the two decimals printed
        if abs(v - want) > 0.006:
            bad.append("%s_%s: stats %g, run %g" % (name, k, v, want))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
done
"$S" trace stats tests/data/traces/busy-make.txt >"$tmp/real.out"; rc=$?
check "trace stats of a real recording" sh -c "test $rc = 0 && grep -q '^  make:' '$tmp/real.out'"
bad_input "trace stats: expected one trace file" trace stats
bad_input "trace stats: expected one trace file" trace stats a b
bad_input "cannot read it" trace stats "$tmp/none.txt"
printf 'garbage line\n' >"$tmp/garbage.txt"
bad_input "garbage.txt:1: no \[CPU\] column" trace stats "$tmp/garbage.txt"
# events but no sched task (found by the import fuzz harness: an empty table)
printf '  x 1 [000] 1.0: sched:sched_stat_runtime: comm=x pid=1 runtime=5\n' >"$tmp/notask.txt"
check "trace stats: no task" sh -c "'$S' trace stats '$tmp/notask.txt' | grep -q '^0 tasks'"
printf '# only a comment\n' >"$tmp/empty.txt"
bad_input "no event lines" trace stats "$tmp/empty.txt"

# ---- the replay (once the workload table lists it) ----
if "$S" list workloads | grep -q '^trace '; then
	# round trip: the replay's trace shows every task with the CPU time
	# it had, and the run takes as long
	"$S" run -m $M -p o1 -w "trace:file=$tmp/w.json" -o json --trace "$tmp/r.txt" > "$tmp/r.json"
	"$S" trace import "$tmp/r.txt" -o "$tmp/rw.json" 2>/dev/null
	check "round trip" python3 - "$tmp/w.json" "$tmp/rw.json" "$tmp/a.json" "$tmp/r.json" <<'EOF'
import json, sys
w1, w2, r1, r2 = (json.load(open(p)) for p in sys.argv[1:])
cpu1 = {t["pid"]: t["cpu_ns"] for t in w1["tasks"]}
cpu2 = {t["pid"]: t["cpu_ns"] for t in w2["tasks"]}
e1 = r1["runs"][0]["metrics"]["elapsed_s"]
e2 = r2["runs"][0]["metrics"]["elapsed_s"]
sys.exit(0 if cpu1 == cpu2 and abs(e2 - e1) <= 0.01 * e1 else 1)
EOF
	expect_exit 0 "$S" run -m p4dpe-2x2ht -p ht -p linux24 -w "trace:file=$tmp/ls3.json"
	bad_input "missing file=" run -m $M -p o1 -w trace
	bad_input "nothere.json" run -m $M -p o1 -w "trace:file=$tmp/nothere.json"
	bad_input "not a trace workload" run -m $M -p o1 -w "trace:file=$tmp/a.json"
	# simulated time (docs/robustness.md): ops bounded by the trace's span,
	# or the horizon without one; refused before anything runs
	root='{"id": 0, "comm": "a", "parent": null, "ops": '
	# (a run 4 times the span: were it accepted, it would replay quickly)
	echo '{"schedlab_trace": 1, "duration_ns": 12398928, "tasks": ['"$root"'[{"op": "run",
	      "ns": 50000000}, {"op": "exit"}]}]}' > "$tmp/long.json"
	bad_input "long.json: tasks\[0\].ops\[0\]: a run of 50000000 ns is longer than the trace's span ('duration_ns' 12398928 ns)" \
		run -m $M -p o1 -w "trace:file=$tmp/long.json"
	s62='{"op": "sleep", "ns": 4611686018427387904}'
	echo '{"schedlab_trace": 1, "tasks": ['"$root"'['"$s62, $s62, $s62"', {"op": "exit"}]}]}' \
		> "$tmp/sleep62.json"
	bad_input "sleep62.json: tasks\[0\].ops\[0\]: a sleep of 4611686018427387904 ns is longer than the horizon of 1000000000000000 ns" \
		run -m $M -p o1 -w "trace:file=$tmp/sleep62.json"
	s6='{"op": "sleep", "ns": 6000000}'
	echo '{"schedlab_trace": 1, "duration_ns": 10000000, "tasks": ['"$root"'['"$s6, $s6"', {"op": "exit"}]}]}' \
		> "$tmp/sum.json"
	bad_input "sum.json: tasks\[0\] (a): its ops take 12000000 ns by ops\[1\], more than the trace's span ('duration_ns' 10000000 ns) and its slack" \
		run -m $M -p o1 -w "trace:file=$tmp/sum.json"
else
	echo "note: the workload table does not list 'trace' yet: replay checks skipped"
fi

# ---- trace record ----
bad_input "missing -o" trace record -- true
bad_input "missing the COMMAND" trace record -o "$tmp/rec.txt"
bad_input "command 'no-such-command-x' not found" trace record -o "$tmp/rec.txt" -- no-such-command-x
bad_input "unknown option '--frob'" trace record --frob -o "$tmp/rec.txt" -- true
nopath=$(dirname "$(command -v sh)")
expect_exit 1 env PATH="$tmp" "$S" trace record -o "$tmp/rec.txt" -- "$nopath/sh" -c true
expect_err "perf not found"
# a fake perf (tests/cli/fake-perf.sh: it writes the data file and runs the
# command as its child, as `perf sched record` does), so that what record
# does around perf is checked wherever the sched tracepoints exist
if [ -e /sys/kernel/tracing/events/sched/sched_switch ] ||
   [ -e /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
	fp=$tmp/fp; mkdir -p "$fp/bin" "$fp/tmp" "$fp/pids"
	cp tests/cli/fake-perf.sh "$fp/bin/perf"; chmod +x "$fp/bin/perf"
	PATH="$fp/bin:$PATH" TMPDIR="$fp/tmp" FAKE_PERF_DIR="$fp/pids" \
		"$S" trace record -o "$fp/rec.txt" -- true 2>"$fp/err"; rc=$?
	check "fake perf: recorded" test $rc = 0
	check "fake perf: the script's text after the command" sh -c \
		"head -1 '$fp/rec.txt' | grep -qx '# schedlab trace record -- true' &&
		 grep -q 'sched:sched_switch' '$fp/rec.txt'"
	check "fake perf: one line" grep -qx "schedlab: trace record: wrote $fp/rec.txt; true exit status 0" "$fp/err"
	# the PID/TID column, by which the import tells threads from processes
	check "fake perf: the script asked for pid and tid" grep -q -- \
		"--ns -F comm,pid,tid,cpu,time,event,trace" "$fp/pids/script-args"
	check "fake perf: the temporary directory removed" test -z "$(ls "$fp/tmp")"
	# a signal while perf records: perf and the command killed and reaped,
	# the temporary directory and the output's temporary file removed, and
	# schedlab dies of the signal (the shell sees 128 + signal)
	for sig in SIGTERM SIGHUP SIGINT; do
		rm -f "$fp/rec.txt" "$fp/pids/pids"
		r=$(python3 - "$S" $sig "$fp" <<'EOF'
import os, signal, subprocess, sys, time
S, name, d = sys.argv[1], sys.argv[2], sys.argv[3]
def alive(pid):
    try:
        st = open("/proc/%d/stat" % pid).read()
    except OSError:
        return False
    return st[st.rindex(")") + 2] != "Z"
signal.signal(signal.SIGINT, signal.SIG_DFL)
env = dict(os.environ, PATH=d + "/bin:" + os.environ["PATH"], TMPDIR=d + "/tmp",
           FAKE_PERF_DIR=d + "/pids")
p = subprocess.Popen([S, "trace", "record", "-o", d + "/rec.txt", "--", "sleep", "60"],
                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     env=env)
pids = []
for i in range(3000):	# until the fake perf has started the command
    try:
        pids = [int(x) for x in open(d + "/pids/pids").read().split()]
    except (OSError, ValueError):
        pids = []
    if len(pids) == 2 or p.poll() is not None:
        break
    time.sleep(0.01)
p.send_signal(getattr(signal, name))
try:
    out, err = p.communicate(timeout=30)
    rc = p.returncode
except subprocess.TimeoutExpired:	# perf and the command hold its pipes
    p.kill()
    p.wait()
    rc, err = "timeout", b""
left = [k for k in pids if alive(k)]
for k in left:
    os.kill(k, signal.SIGKILL)
files = os.listdir(d + "/tmp") + [f for f in os.listdir(d) if f.startswith("rec.txt")]
print("started=%d rc=%s left=%d files=%d err=%s" % (len(pids), rc, len(left), len(files),
                                                   err.decode().strip()))
EOF
)
		num=$(python3 -c "import signal; print(int(signal.$sig))")
		case $r in
		"started=2 rc=-$num left=0 files=0 err=schedlab: interrupted by $sig; every child process was killed") ok ;;
		*) bad "$sig during trace record: $r" ;;
		esac
	done
	# ^C typed at the terminal goes to perf and the command, not to
	# schedlab: the recording stops and the trace is written (exit 0)
	rm -f "$fp/rec.txt" "$fp/pids/pids"
	r=$(python3 - "$S" "$fp" <<'EOF'
import os, pty, select, sys, time
S, d = sys.argv[1], sys.argv[2]
os.environ.update(PATH=d + "/bin:" + os.environ["PATH"], TMPDIR=d + "/tmp",
                  FAKE_PERF_DIR=d + "/pids")
pid, fd = pty.fork()
if pid == 0:
    os.execv(S, [S, "trace", "record", "-o", d + "/rec.txt", "--", "sleep", "60"])
out, sent, end = b"", False, time.time() + 60
while time.time() < end:
    if not sent and os.path.exists(d + "/pids/pids"):
        os.write(fd, b"\x03")
        sent = True
    r, _, _ = select.select([fd], [], [], 0.05)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
else:
    os.kill(pid, 9)
_, st = os.waitpid(pid, 0)
print("rc=%s written=%s" % (os.waitstatus_to_exitcode(st), os.path.exists(d + "/rec.txt")))
EOF
)
	check "^C at the terminal: $r" test "$r" = "rc=0 written=True"
else
	echo "note: no sched tracepoints here: trace record's checks with a fake perf skipped"
fi
# a $PATH candidate that does not fit the path buffer (4096 bytes) is no
# match: cut to DIR/ab it named another program than 'abc'
long=$tmp; comp=$(printf '%0200d' 0)
while [ $((${#long} + 201)) -le 4092 ]; do long=$long/$comp; done
long=$long/$(printf '%0*d' $((4092 - ${#long} - 1)) 0)
if mkdir -p "$long" && cp "$nopath/sh" "$long/ab"; then
	expect_exit 2 env PATH="$long" "$S" trace record -o "$tmp/rec.txt" -- abc
	expect_err "command 'abc' not found"
else
	bad "cannot make a $((${#long}))-byte directory path"
fi
if command -v perf >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	"$S" trace record -o "$tmp/rec.txt" -- sh -c 'ls >/dev/null' 2>"$tmp/rec.err"; rc=$?
	if [ $rc -eq 0 ]; then
		expect_exit 0 "$S" trace import "$tmp/rec.txt" -o "$tmp/rec.json"
		check "recorded ls" grep -q '"comm": "ls"' "$tmp/rec.json"
	elif [ $rc -eq 1 ]; then
		echo "note: perf could not record here: $(cat "$tmp/rec.err")"
	else
		bad "trace record: exit $rc: $(cat "$tmp/rec.err")"
	fi
fi

finish trace
