#!/bin/sh
# run.sh - run every test tier and print one closing line "N passed, N failed".
#   unit + scenario tests: build/test_runner (ASan/UBSan build)
#   the same under clang:  make clang-tests (its warnings, a syntax check)
#   golden results:        scripts/golden.py against ./schedlab
#   generated docs:        tests/docs_current.sh (make docs) against ./schedlab
#   CLI tests:             tests/cli/*.sh against build/schedlab-san
set -u
cd "$(dirname "$0")/.."
passed=0; failed=0

count() {	# add "X passed, Y failed" from the last such line of $1
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	p=$(echo "$line" | sed -E 's/.*[^0-9]([0-9]+) passed.*/\1/; s/^([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -n "$line" ] || { p=0; f=1; }
	passed=$((passed + p)); failed=$((failed + f))
}

out=$(mktemp); trap 'rm -f "$out"' EXIT
build/test_runner >"$out" 2>&1; rc=$?
cat "$out"; count "$out"
[ $rc -eq 0 ] || grep -q ' failed' "$out" || failed=$((failed + 1))

# The runner's isolation (tests/unit/test_runner_self.c): three tests that
# crash on purpose are each reported by name, and the one after them runs.
SL_TEST_CRASH=1 build/test_runner runner_ >"$out" 2>&1
if [ "$(grep -c '^FAIL runner_crash_[a-z_]*: crashed' "$out")" -eq 3 ] &&
   grep -q '^unit: 1 passed, 3 failed$' "$out"; then
	echo "runner isolation: 1 passed, 0 failed"; passed=$((passed + 1))
else
	cat "$out"; echo "runner isolation: 0 passed, 1 failed"; failed=$((failed + 1))
fi

# The unit tests under clang's warnings (tests/clang_check.sh).
make -s clang-tests >"$out" 2>&1
cat "$out"; count "$out"

# Golden results (scripts/golden.py, tests/golden/reproduce.tsv): every
# built-in experiment's simulated numbers, with the optimised ./schedlab.
python3 scripts/golden.py check ./schedlab tests/golden/reproduce.tsv >"$out" 2>&1
cat "$out"; count "$out"

# The docs' generated parts (make docs) against the current build.
sh tests/docs_current.sh >"$out" 2>&1
cat "$out"; count "$out"

for t in tests/cli/test_*.sh; do
	SCHEDLAB="$PWD/build/schedlab-san" sh "$t" >"$out" 2>&1
	cat "$out"; count "$out"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
