#!/bin/sh
# test_rtapp.sh - `-w rtapp:file=PATH` on the command line: malformed files
# (tests/data/rtapp/) exit 2 with one stderr line naming the file, the line
# and the key, before anything runs; the examples (examples/rt-app/) run
# and report their metrics in JSON, the same seed giving the same output.
# When Debian's rt-app is installed, each example is also run by the real
# rt-app for 1 s (calibration fixed at 100 ns per loop, since calibrating
# on a loaded machine can take arbitrarily long): it must exit 0, print no
# <error> or <crit> line and write one log per thread.
#
# Until the workload is registered (`schedlab list workloads` lacks rtapp)
# the script checks nothing and reports "rtapp: 0 passed, 0 failed".
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
S=${SCHEDLAB:-./schedlab}
M=p4dpe-2x2ht
D=tests/data/rtapp
E=examples/rt-app
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if ! "$S" list workloads 2>/dev/null | grep -q '^rtapp '; then
	finish rtapp
	exit 0
fi

# bad_file FILE PATTERN: exit 2, one stderr line matching PATTERN, no output
bad_file() {
	expect_exit 2 "$S" run -m $M -p o1 -w "rtapp:file=$1"
	expect_err "$2"
	out=$("$S" run -m $M -p o1 -w "rtapp:file=$1" 2>/dev/null)
	[ -z "$out" ] && ok || bad "output despite a bad file $1: $out"
}

# ---- the loader, through the CLI ----
bad_file $D/bad-json.json "$D/bad-json.json:7: not valid JSON"
bad_file $D/unknown-key.json "$D/unknown-key.json:6: tasks.thread0.frobnicate: unknown key"
bad_file $D/unknown-global.json "$D/unknown-global.json:7: global.durration"
bad_file $D/wrong-type-run.json "$D/wrong-type-run.json:4: tasks.t.run: expected an integer"
bad_file $D/negative-sleep.json "$D/negative-sleep.json:5: tasks.t.sleep: negative duration"
bad_file $D/negative-period.json "$D/negative-period.json:7: tasks.t.phases.p.timer.period"
bad_file $D/duplicate-key.json "$D/duplicate-key.json:6: tasks.t.instance: key repeated"
# a CPU the machine lacks (p4dpe-2x2ht has 0-3), a class the policy lacks
bad_file $D/cpus-outside.json "$D/cpus-outside.json: tasks.t.cpus: CPU 7: machine '$M' has CPUs 0-3"
bad_file $D/deadline.json "$D/deadline.json: tasks.t.policy: thread 't' asks for SCHED_DEADLINE, which policy 'o1' does not implement"
bad_file $D/sem.json "$D/sem.json:4: tasks.t.sem_post: .*not of rt-app 1.0"
bad_file $D/nothere.json "$D/nothere.json: cannot open"
expect_exit 2 "$S" run -m $M -p o1 -w rtapp
expect_err "file= is required"
expect_exit 2 "$S" run -m $M -p o1 -w "rtapp:file=$E/periodic.json,duration=-1"
expect_err "duration"
# the broken file is refused once, not once per repetition or policy
expect_exit 2 "$S" run -m $M -p o1 -p ht -r 3 -w "rtapp:file=$D/sem.json"
expect_err "tasks.t.sem_post"
# a forever thread runs once a duration is given, and without one to the
# default horizon, saying so in one note on stderr
expect_exit 0 "$S" run -m $M -p o1 -w "rtapp:file=$D/forever.json,duration=0.1"
expect_exit 0 "$S" run -m $M -p o1 -w "rtapp:file=$D/forever.json"
expect_err "^schedlab: note: $D/forever.json: thread 't' loops for ever .* stops after 10 s"
out=$("$S" run -m $M -p o1 -w "rtapp:file=$D/forever.json" -o json 2>/dev/null)
case $out in *'"elapsed_s": 10,'*) ok ;; *) bad "forever.json: not 10 s: $out" ;; esac
# cfs: a fair task left alone on a CPU that a FIFO thread keeps 75 % busy,
# its RT runs starting just after each tick, moves to the idle CPU (6.12's
# misfit rule for a CPU RT cut, sched_reduced_capacity): the two threads
# use 2.5 CPU-seconds of the 4 in 2 s (2.0 while it stayed, CPU 1 idle)
out=$("$S" run -m "pack:1 core:2 pu:1" -p cfs -w "rtapp:file=$D/rt-beside-fair.json" -o json 2>/dev/null)
pct=$(printf '%s\n' "$out" | grep -o '"cpu_pct": [0-9][0-9.]*' | head -n 1 | sed 's/.*: //')
case $pct in 12[0-9]*|13[0-9]*) ok ;; *) bad "rt-beside-fair.json under cfs: cpu_pct '$pct', want about 125" ;; esac
# a file whose threads deadlock (a barrier one party never reaches: its
# loop is 0; found by the rtapp fuzz harness) is the file's doing: exit 2
# naming it, as the real rt-app would hang (it was an internal error)
expect_exit 2 "$S" run -m $M -p o1 -w "rtapp:file=$D/deadlock-barrier.json"
expect_err "$D/deadlock-barrier.json: deadlock at .* task 1 (worker) sleeps for ever"
# simulated time (docs/robustness.md): a thread whose loops need more than
# the horizon is refused before anything runs, unless a duration cuts it;
# threads that each fit but follow each other stop at the horizon, exit 2
bad_file $D/too-long.json "$D/too-long.json: tasks.t: needs more than .* the horizon of 1000000 s"
bad_file $D/too-long-duration.json "$D/too-long-duration.json:2: global.duration: 2000000 .*horizon"
out=$("$S" run -m $M -p o1 -w "rtapp:file=$D/too-long.json,duration=10" -o json 2>&1)
case $out in *'"elapsed_s": 10,'*) ok ;;
	*) bad "too-long.json with duration=10: $out" ;; esac
expect_exit 2 "$S" run -m $M -p o1 -w "rtapp:file=$D/horizon-fork.json"
# (a's sleep ends at a tick: o1's nanosleep rounds up to jiffies, sim/timers.c)
expect_err "horizon-fork.json', seed 1: simulated time would pass the horizon of 1000000 s .*after 600000.00[1-3] s: task 2 (b) is not done"

"$S" list workloads | grep -q 'file=' && ok || bad "list workloads lacks rtapp's file="

# ---- the examples run ----
for f in periodic lock-pair barrier-group; do
	w="rtapp:file=$E/$f.json,duration=0.3"
	if "$S" run -m $M -p o1 -p ht -w "$w" -s 3 -o json >"$tmp/$f.json" 2>"$tmp/err"; then
		ok
	else
		bad "$f: $(cat "$tmp/err")"
		continue
	fi
	"$S" run -m $M -p o1 -p ht -w "$w" -s 3 -o json >"$tmp/$f-2.json" 2>/dev/null
	cmp -s "$tmp/$f.json" "$tmp/$f-2.json" && ok || bad "$f: same seed, different output"
	python3 - "$tmp/$f.json" "$f" <<'EOF' && ok || bad "$f: JSON metrics"
import json, sys
d = json.load(open(sys.argv[1]))
want = {"periodic": 4, "lock-pair": 2, "barrier-group": 4}[sys.argv[2]]
for run in d["runs"]:
    m = run["metrics"]
    assert m["threads"] == want, m["threads"]
    assert m["loops"] > 10, m["loops"]
    assert abs(m["elapsed_s"] - 0.3) < 1e-9, m["elapsed_s"]
    assert run["units"]["run_s"] == "s"
    if sys.argv[2] == "periodic":
        assert m["missed"] == 0 and m["slack_mean_us"] > 0, m
assert set(d["summary"]) == {"o1", "ht"}
EOF
done

# ---- a class and a mask from the file reach the policy ----
# realtime.json's SCHED_FIFO audio thread beside two hogs on its CPU runs
# the moment its timer fires; as SCHED_OTHER (pinned.json) o1 makes it wait
# (exact timers: the scheduler's wait alone, not the jiffy's rounding)
for f in realtime pinned; do
	if "$S" run -m $M -p o1:timers=exact -w "rtapp:file=$E/$f.json,duration=1" -o json >"$tmp/$f.json" 2>"$tmp/err"; then
		ok; else bad "$f: $(cat "$tmp/err")"; fi
done
python3 -c 'import json, sys
rt, other = (json.load(open(f))["runs"][0]["metrics"] for f in sys.argv[1:])
assert rt["audio_missed"] == 0 and rt["audio_wu_lat_us"] < 50, rt["audio_wu_lat_us"]
assert other["audio_wu_lat_us"] > 1000, other["audio_wu_lat_us"]' "$tmp/realtime.json" "$tmp/pinned.json" &&
	ok || bad "realtime.json and pinned.json under o1: the FIFO thread waited, or the other did not"

# ---- rt-app's log files (--rtapp-logdir) ----
L=$tmp/logs
if "$S" run -m $M -p o1 -w "rtapp:file=$E/periodic.json,duration=0.3" --rtapp-logdir "$L" \
	>/dev/null 2>"$tmp/err"; then ok; else bad "--rtapp-logdir: $(cat "$tmp/err")"; fi
[ "$(ls "$L" | tr '\n' ' ')" = "periodic-audio-0.log periodic-ui-2.log periodic-ui-3.log periodic-video-1.log " ] &&
	ok || bad "--rtapp-logdir wrote: $(ls "$L")"
[ "$(sed -n 1p "$L/periodic-audio-0.log")" = "# Policy : SCHED_OTHER priority : -5" ] && ok ||
	bad "audio log header: $(sed -n 1p "$L/periodic-audio-0.log")"
hdr='#idx     perf      run   period           start             end          rel_st      slack c_duration   c_period     wu_lat'
[ "$(sed -n 2p "$L/periodic-video-1.log")" = "$hdr" ] && ok || bad "log columns: $(sed -n 2p "$L/periodic-video-1.log")"
# audio: every 10 ms for 0.3 s, 1000 us of run (perf: 1 loop per us with
# "CPU0"), a 10000 us period in each row
awk 'NR > 2 { n++; if ($1 != 0 || $3 < 1000 || $9 != 1000 || $10 != 10000 || NF != 11) bad++ }
     END { exit !(n >= 28 && n <= 30 && !bad) }' "$L/periodic-audio-0.log" && ok ||
	bad "audio log rows: $(head -5 "$L/periodic-audio-0.log")"
# never overwritten: the same run again is refused before it starts
expect_exit 2 "$S" run -m $M -p o1 -w "rtapp:file=$E/periodic.json,duration=0.3" --rtapp-logdir "$L"
expect_err "logdir '$L' has 'periodic-.*' already, a log of thread .* never overwritten"
expect_exit 2 "$S" run -m $M -p o1 -r 2 -w "rtapp:file=$E/periodic.json" --rtapp-logdir "$tmp/l2"
expect_err "one -p, -r 1"
expect_exit 2 "$S" run -m $M -p o1 -w spin --rtapp-logdir "$tmp/l2"
expect_err "rtapp"

# ---- every example of Debian's rt-app runs (16 of them) ----
X=/usr/share/doc/rt-app/examples
if [ -d $X/tutorial ]; then
	n=0
	for f in $X/*.json $X/tutorial/*.json; do
		# SCHED_OTHER only in these files; linux24 keeps tasks in a mask
		# given at fork or later (example 5 and 8 pin threads)
		if "$S" run -m $M -p linux24 -w "rtapp:file=$f,duration=0.5" -o json >"$tmp/x.json" 2>"$tmp/err" &&
			python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["runs"][0]["metrics"]
assert m["threads"] > 0 and m["loops"] > 0, m' "$tmp/x.json"; then n=$((n + 1)); else
			bad "$f: $(cat "$tmp/err")"; fi
	done
	[ $n -eq 16 ] && ok || bad "$n of 16 Debian examples ran"
else
	echo "rtapp: $X is absent (Debian's rt-app package): its examples are not run"
fi

# ---- the real rt-app accepts the examples ----
if command -v rt-app >/dev/null 2>&1; then
	for fw in periodic:4 lock-pair:2 barrier-group:4; do
		f=${fw%:*}; want=${fw#*:}
		mkdir "$tmp/real-$f"
		sed -e 's/"calibration" : "CPU0"/"calibration" : 100/' \
		    -e 's/"duration" : [0-9]*/"duration" : 1/' "$E/$f.json" >"$tmp/real-$f/x.json"
		(cd "$tmp/real-$f" && timeout -s KILL 30 rt-app x.json >out.txt 2>&1)
		rc=$?
		[ $rc -eq 0 ] && ok || bad "rt-app $f.json: exit $rc: $(tail -n 3 "$tmp/real-$f/out.txt")"
		grep -q '<error>\|<crit>' "$tmp/real-$f/out.txt" &&
			bad "rt-app $f.json: $(grep '<error>\|<crit>' "$tmp/real-$f/out.txt")" || ok
		logs=$(ls "$tmp/real-$f" | grep -c '\.log$')
		[ "$logs" -eq "$want" ] && ok || bad "rt-app $f.json wrote $logs logs, not $want"
		# the simulated logs have the real one's names and header lines
		if [ $f = periodic ]; then
			(cd "$tmp/real-$f" && ls *.log) >"$tmp/real-names"
			ls "$L" >"$tmp/sim-names"
			cmp -s "$tmp/real-names" "$tmp/sim-names" && ok || bad "log names: real $(cat "$tmp/real-names"), simulated $(cat "$tmp/sim-names")"
			for g in $(cat "$tmp/real-names"); do
				[ "$(head -2 "$tmp/real-$f/$g")" = "$(head -2 "$L/$g")" ] && ok ||
					bad "$g: real header $(head -2 "$tmp/real-$f/$g"), simulated $(head -2 "$L/$g")"
			done
		fi
	done
fi

# ---- validate: the real rt-app beside the simulation ----
expect_exit 2 env PATH=/nonexistent "$S" validate -w "rtapp:file=$E/periodic.json,duration=1"
expect_err "rt-app is not installed"
expect_exit 2 "$S" validate -w "rtapp:file=$D/forever.json"
expect_err "thread 't' loops for ever .* give duration=SECONDS"
if command -v rt-app >/dev/null 2>&1; then
	if "$S" validate -w "rtapp:file=$E/periodic.json,duration=1,calibration=100" -o json \
		>"$tmp/v.json" 2>"$tmp/err"; then ok; else bad "validate rtapp: $(cat "$tmp/err")"; fi
	python3 - "$tmp/v.json" <<'EOF2' && ok || bad "validate rtapp: $(head -c 600 "$tmp/v.json")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in d["metrics"]}
for name in ("threads", "audio_slack_us", "audio_wu_lat_us", "video_slack_us", "ui_loops"):
    r = rows[name]
    assert r["real"]["n"] == 1 and r["simulated"]["n"] == 1, (name, r)
assert rows["threads"]["real"]["mean"] == 4, rows["threads"]
assert rows["audio_loops"]["real"]["mean"] >= 90, rows["audio_loops"]   # 10 ms period, 1 s
assert 0 < rows["audio_slack_us"]["real"]["mean"] <= 10000, rows["audio_slack_us"]
EOF2
fi

finish rtapp
