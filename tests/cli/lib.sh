# lib.sh - helpers for CLI tests (sourced).  Each check prints "ok" or
# "FAIL ..." and the file ends with "NAME: N passed, N failed".
pass=0; fail=0
ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); echo "FAIL $*"; }
# expect_exit CODE CMD...: run, check the exit code, keep stderr in $ERR
expect_exit() {
	want=$1; shift
	ERR=$("$@" 2>&1 >/dev/null); got=$?
	if [ "$got" -eq "$want" ]; then ok; else bad "exit $got (wanted $want): $*: $ERR"; fi
}
# expect_one_line: the last expect_exit printed exactly one stderr line matching $1
expect_err() {
	n=$(printf '%s\n' "$ERR" | grep -c .)
	if [ "$n" -eq 1 ] && printf '%s' "$ERR" | grep -q -- "$1"; then ok
	else bad "stderr should be one line matching '$1', got: $ERR"; fi
}
finish() { echo "$1: $pass passed, $fail failed"; }
