#!/bin/sh
# run.sh - `make bench`: time the standard benchmarks of the simulator and
# print, per benchmark, the wall time of the whole process, the events
# processed and events per CPU-second (from --stats: the process's CPU
# time, all threads, so that other load on a shared host does not count;
# per core, as issue 14 states its goal), and the peak resident
# memory (GNU time's %M, when /usr/bin/time is GNU time); then the wall
# time of every built-in experiment (`reproduce`, default repetitions) and
# the scaling table of bench/scale.py (2 to 1,024 CPUs, every policy) and
# the events/s matrix of bench/rate.py (every preset, workload and policy).
# Everything printed is also kept in bench/results.md, the latest figures
# with the machine they came from; a hackbench of a million tasks (issue 14's
# memory goal: peak MB).  About 5 minutes on 2 vCPUs.
set -u
cd "$(dirname "$0")/.."
S=./schedlab
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
results=bench/results.md
exec 3>"$tmp/results"
# out: print a line and keep it for results.md
out() { printf '%s\n' "$*"; printf '%s\n' "$*" >&3; }

gnu_time=
if /usr/bin/time -f %M -o "$tmp/probe" true 2>/dev/null; then
	gnu_time=yes
fi

now_ns() { date +%s%N; }

# bench LABEL ARGS...: run schedlab ARGS --stats and print one line
bench() {
	label=$1; shift
	start=$(now_ns)
	if [ -n "$gnu_time" ]; then
		/usr/bin/time -f %M -o "$tmp/mem" "$S" "$@" --stats >/dev/null 2>"$tmp/err"
	else
		"$S" "$@" --stats >/dev/null 2>"$tmp/err"
	fi
	rc=$?
	end=$(now_ns)
	if [ $rc -ne 0 ]; then
		echo "bench: '$label' failed (exit $rc):" >&2
		cat "$tmp/err" >&2
		exit 1
	fi
	stats=$(grep 'stats: [0-9]* events in' "$tmp/err")
	events=$(echo "$stats" | sed -E 's/.*stats: ([0-9]+) events.*/\1/')
	cpu_s=$(echo "$stats" | sed -E 's/.*, ([0-9.]+) s CPU.*/\1/')
	rate=$(awk -v e="$events" -v c="$cpu_s" 'BEGIN { printf (c > 0 ? "%.3g" : "-"), e / c }')
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	mem=-
	if [ -n "$gnu_time" ]; then
		mem=$(awk '/^[0-9]+$/ { printf "%.1f", $1 / 1024 }' "$tmp/mem")
	fi
	out "$(printf '%-44s %9s %12s %12s %9s' "$label" "$wall" "$events" "$rate" "$mem")"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
out "# make bench: the latest figures"
out ""
out "From $(date -u '+%Y-%m-%d %H:%M UTC'), ${cpu:-unknown CPU}, $(nproc) CPUs, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start (bench/run.sh; a shared machine's figures vary by tens of percent)."
out ""
out '```'
out "$(printf '%-44s %9s %12s %12s %9s' benchmark "wall s" events "events/CPU-s" "peak MB")"
bench "reproduce seed-000 (5 reps)" reproduce seed-000 -r 5
bench "run -m numaq-16 -p o1 -w kernbench:jobs=32" run -m numaq-16 -p o1 -w kernbench:jobs=32
bench "run -m numaq-16 -p o1 -w dbench" run -m numaq-16 -p o1 -w dbench
bench "run -m numaq-16 -p o1 -w chat" run -m numaq-16 -p o1 -w chat
bench "run -m numaq-16 -p cfs -w kernbench:jobs=32" run -m numaq-16 -p cfs -w kernbench:jobs=32
# a run's set-up: 2,000 runs of 1 ms on 8 CPUs (0.1 ms each since Dec 2026, 1.1 ms before)
bench "2,000 runs of 1 ms (set-up), 8 CPUs, o1" run -m "pack:1 core:4 pu:2" -p o1 -w spin:seconds=0.001 -r 2000 -j 1
# issue 14, goal 4: a million tasks (25,000 groups of 40) in under 2 GiB
bench "hackbench of 1 M tasks, xeon-2s-smt, o1" run -m xeon-2s-smt -p o1 -w hackbench:groups=25000,loops=1
[ -n "$gnu_time" ] || out "(peak memory not measured: /usr/bin/time is not GNU time)"
bench "reproduce (every experiment, -j 2)" reproduce -o json -j 2
out '```'
out ""
python3 bench/scale.py "$S" >"$tmp/scale" || exit 1
cat "$tmp/scale"
cat "$tmp/scale" >&3
out ""
python3 bench/rate.py "$S" >"$tmp/rate" || exit 1
cat "$tmp/rate"
cat "$tmp/rate" >&3
exec 3>&-
cp "$tmp/results" "$results"
python3 bench/update-readme.py "$results" README.md || exit 1
echo "(kept in $results; README.md's benchmark block rewritten from it)"
