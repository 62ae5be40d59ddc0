#!/bin/sh
# run.sh - run every test tier and print one closing line "N passed, N failed".
#   unit + scenario tests: build/test_runner (ASan/UBSan build)
#   runner isolation:      the runner reports tests that crash, by name
#   the same under clang:  make clang-tests (its warnings, a syntax check)
#   golden results:        scripts/golden.py against ./schedlab
#   generated docs:        tests/docs_current.sh (make docs) against ./schedlab
#   CLI tests:             tests/cli/*.sh against build/schedlab-san
#
# The tiers run side by side, as many at a time as there are CPUs
# (SL_TEST_TIERS=N to choose; 1: one after the other), the longest first:
# most are one process, and in a row they took 11 minutes on 2 CPUs where
# DESIGN.md asks for under 10.  Each tier writes a log of its own; a line
# on stderr says when each ends, and the logs are printed whole, in the
# order above, once all have ended, so the output reads the same whatever
# the number of tiers at a time.
#
#   sh tests/run.sh --tier NAME    run one tier, its log on stdout
set -u
cd "$(dirname "$0")/.."

# One tier, by name; its output on stdout, its exit status its own.
run_tier() {
	case $1 in
	unit)	# one test at a time: the tiers beside it fill the other CPUs
		SL_TEST_JOBS=1 build/test_runner ;;
	isolation)	# tests/unit/test_runner_self.c: three tests that crash on
			# purpose are each reported by name, and the one after them runs
		out=$(SL_TEST_CRASH=1 SL_TEST_JOBS=1 build/test_runner runner_ 2>&1)
		if [ "$(printf '%s\n' "$out" | grep -c '^FAIL runner_crash_[a-z_]*: crashed')" -eq 3 ] &&
		   printf '%s\n' "$out" | grep -q '^unit: 1 passed, 3 failed$'; then
			echo "runner isolation: 1 passed, 0 failed"
		else
			printf '%s\n' "$out"; echo "runner isolation: 0 passed, 1 failed"; return 1
		fi ;;
	clang)	make -s clang-tests ;;
	golden)	# every built-in experiment's simulated numbers, with the
		# optimised ./schedlab (tests/golden/reproduce.tsv)
		python3 scripts/golden.py check ./schedlab tests/golden/reproduce.tsv ;;
	docs)	sh tests/docs_current.sh ;;
	tests/cli/test_*.sh)
		SCHEDLAB="$PWD/build/schedlab-san" sh "$1" ;;
	*)	echo "run.sh: no tier '$1'"; return 2 ;;
	esac
}

if [ "${1:-}" = "--tier" ]; then
	[ $# -eq 2 ] || { echo "usage: sh tests/run.sh [--tier NAME]" >&2; exit 2; }
	run_tier "$2"
	exit
fi

# The order the logs are printed in.
order="unit isolation clang golden docs $(ls tests/cli/test_*.sh)"
# The order they start in: the longest first (seconds on 2 CPUs, 6 Dec
# 2026: docs 250, unit 154, test_trace 86, golden 79 of CPU on two
# threads), then the rest.
first="docs unit tests/cli/test_trace.sh golden"
start="$first"
for t in $order; do
	case " $first " in *" $t "*) ;; *) start="$start $t" ;; esac
done

jobs=${SL_TEST_TIERS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in
''|*[!0-9]*|0) echo "run.sh: SL_TEST_TIERS=$jobs: a number of tiers at once, 1 or more" >&2
	exit 2 ;;
esac

logs=$(mktemp -d); trap 'rm -rf "$logs"' EXIT
# each tier's log and exit status under a name without slashes
key() { echo "$1" | tr / _; }
for t in $start; do echo "$t"; done |
	xargs -P "$jobs" -I TIER sh -c '
		t=$1; k=$(echo "$t" | tr / _); s=$(date +%s)
		sh tests/run.sh --tier "$t" >"$2/$k.log" 2>&1; echo $? >"$2/$k.rc"
		echo "tests/run.sh: $t done ($(( $(date +%s) - s )) s)" >&2' _ TIER "$logs"

passed=0; failed=0
for t in $order; do
	log="$logs/$(key "$t").log"
	cat "$log"
	# add "X passed, Y failed" from the log's last such line; a tier
	# that printed none, or failed without a failure among its counts,
	# counts as one failure
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(echo "$line" | sed -E 's/.*[^0-9]([0-9]+) passed.*/\1/; s/^([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -n "$line" ] || { p=0; f=1; }
	rc=$(cat "$logs/$(key "$t").rc" 2>/dev/null || echo 1)
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	passed=$((passed + p)); failed=$((failed + f))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
