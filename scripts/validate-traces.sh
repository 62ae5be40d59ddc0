#!/bin/sh
# validate-traces.sh [SCHEDLAB] - the trace-driven half of `make validate`
# (docs/validation.md, "From recorded traces"): record spin, hackbench and
# a `make -j2 vmlinux` of the cached kernel tree with `schedlab trace
# record` (perf sched), import each, and validate the real program against
# the replay of its own trace under cfs on `host`.  Needs root (perf) and
# the tree `schedlab validate -w kernbench` prepared.  Traces and workloads
# are kept in build/validate/ for a look in Perfetto or a rerun.
set -eu

SL=${1:-./schedlab}
OUT=build/validate
TREE=${SCHEDLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schedlab}/linux-source-6.1
mkdir -p "$OUT"

trace() {	# NAME COMMAND...: record and import build/validate/NAME.{perf,json}
	name=$1
	shift
	"$SL" trace record -o "$OUT/$name.perf" -- "$@"
	"$SL" trace import "$OUT/$name.perf" -o "$OUT/$name.json"
}

set -x
trace spin "$SL" real -w spin:seconds=10
"$SL" validate -w spin:seconds=10 --sim "trace:file=$OUT/spin.json" -r 3
trace hackbench "$SL" real -w hackbench
"$SL" validate -w hackbench --sim "trace:file=$OUT/hackbench.json" -r 3
if [ -f "$TREE/.schedlab-warm" ]; then
	make -C "$TREE" -s clean
	sync
	trace kernbench-j2 make -C "$TREE" -s -j2 vmlinux
	"$SL" validate -w kernbench:jobs=2 --sim "trace:file=$OUT/kernbench-j2.json"
else
	echo "validate-traces: no built kernel tree in $TREE (run 'schedlab validate -w kernbench' first); kernbench skipped" >&2
fi
