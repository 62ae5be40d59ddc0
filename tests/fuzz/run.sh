#!/bin/sh
# run.sh NAME... - run each libFuzzer harness build/fuzz/NAME for
# $FUZZ_SECONDS (default 60) on its seed corpus tests/fuzz/corpus/NAME
# (and, with FUZZ_REGRESS=1, tests/fuzz/regress/NAME: reproducers of
# defects whose fixes are not in yet; move them to corpus/ once they
# are), and print one line per harness: executions, corpus
# size, findings.  New corpus entries go to build/fuzz/work/NAME/corpus,
# findings (crash-*, timeout-*, oom-*, leak-*) and the log to
# build/fuzz/work/NAME/ (emptied first: each pass starts from the seeds,
# so it is repeatable); the tree is only read.  Exits 1 on any finding.
# FUZZ_SEED=N fixes libFuzzer's random seed (CI's gate: the same inputs
# on every run, so that a finding is the change's and not the draw's);
# unset, each pass draws its own and explores further.
set -u
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-60}
seed=${FUZZ_SEED:+-seed=$FUZZ_SEED}
total=0; bad=0

for name in "$@"; do
	work=build/fuzz/work/$name
	rm -rf "$work"
	mkdir -p "$work/corpus" "$work/findings"
	seeds=tests/fuzz/corpus/$name
	[ "${FUZZ_REGRESS:-0}" = 1 ] && [ -d tests/fuzz/regress/$name ] && seeds="$seeds tests/fuzz/regress/$name"
	# -max_len as FUZZ_MAX_LEN (fuzz.h); -timeout per input, s; RSS per process, MB
	# shellcheck disable=SC2086
	LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp:print_suppressions=0 \
	build/fuzz/"$name" $seed -max_total_time="$secs" -max_len=8192 -timeout=10 \
		-rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/findings/" "$work/corpus" $seeds \
		>"$work/log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
	corp=$(grep -o 'corp: [0-9]*' "$work/log" | tail -n 1 | sed 's/corp: //')
	found=$(find "$work/findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
	[ $rc -ne 0 ] && [ "$found" -eq 0 ] && found=1	# died without saving an input
	printf '%-12s %10s executions  corpus %5s  findings %s\n' "$name" "${execs:-?}" \
		"${corp:-?}" "$found"
	if [ "$found" -ne 0 ]; then
		bad=$((bad + 1))
		ls "$work/findings" | sed "s|^|    $work/findings/|"
		grep -a -m 3 -E 'ERROR|fuzz:|runtime error' "$work/log" | sed 's/^/    /'
	fi
	total=$((total + ${execs:-0}))
done
echo "fuzz: $total executions in all, $bad harness(es) with findings (${secs} s each${FUZZ_SEED:+, seed $FUZZ_SEED})"
[ $bad -eq 0 ]
