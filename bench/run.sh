#!/bin/sh
# run.sh - `make bench`: time the standard benchmarks of the simulator and
# print, per benchmark, the wall time of the whole process, the events
# processed and events per second (from --stats), and the peak resident
# memory (GNU time's %M, when /usr/bin/time is GNU time).
set -u
cd "$(dirname "$0")/.."
S=./schedlab
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

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
	stats=$(grep 'stats:' "$tmp/err")
	events=$(echo "$stats" | sed -E 's/.*stats: ([0-9]+) events.*/\1/')
	rate=$(echo "$stats" | sed -E 's/.*\(([^ ]+) events\/s\).*/\1/')
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	mem=-
	if [ -n "$gnu_time" ]; then
		mem=$(awk '/^[0-9]+$/ { printf "%.1f", $1 / 1024 }' "$tmp/mem")
	fi
	printf '%-44s %9s %12s %12s %9s\n' "$label" "$wall" "$events" "$rate" "$mem"
}

printf '%-44s %9s %12s %12s %9s\n' benchmark "wall s" events "events/s" "peak MB"
bench "reproduce seed-000 (5 reps)" reproduce seed-000 -r 5
bench "run -m numaq-16 -p o1 -w kernbench:jobs=32" run -m numaq-16 -p o1 -w kernbench:jobs=32
[ -n "$gnu_time" ] || echo "(peak memory not measured: /usr/bin/time is not GNU time)"
