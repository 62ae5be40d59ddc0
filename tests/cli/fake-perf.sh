#!/bin/sh
# fake-perf.sh - a stand-in for perf in test_trace.sh (copied as "perf" into
# a directory put first in PATH), so that trace record's handling of perf is
# checked where perf is not installed.  "perf sched record ... -o DATA ...
# -- COMMAND..." writes a one-line DATA and runs COMMAND as its child, as
# perf does, writing "PERF_PID COMMAND_PID" to $FAKE_PERF_DIR/pids;
# "perf script -i DATA --ns -F FIELDS" prints DATA and writes its arguments
# to $FAKE_PERF_DIR/script-args.
case "$1 $2" in
"sched record")
	shift 2
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		[ "$1" = "-o" ] && { data=$2; shift; }
		shift
	done
	shift
	echo "            perf     1 [000]     1.000000000:       sched:sched_switch: fake" >"$data"
	"$@" &
	echo "$$ $!" >"$FAKE_PERF_DIR/pids.tmp"
	mv "$FAKE_PERF_DIR/pids.tmp" "$FAKE_PERF_DIR/pids"
	wait $!
	;;
"script -i")
	echo "$*" >"$FAKE_PERF_DIR/script-args"
	cat "$3"
	;;
*)
	echo "fake perf: unexpected arguments: $*" >&2
	exit 3
	;;
esac
