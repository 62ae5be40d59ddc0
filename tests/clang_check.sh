#!/bin/sh
# clang_check.sh CC "FLAGS" FILE... - each file through CC -fsyntax-only
# with FLAGS (the build's warnings, -Werror): the unit tests are built with
# gcc, and clang's warnings differ (-Wmissing-field-initializers on
# positional initializers, for one); the library's sources meet them in
# the fuzz build.  Prints the diagnostics of the files that fail, then
# "clang: N passed, N failed".
set -u
cc=$1; flags=$2; shift 2
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "clang: $cc is not installed (scripts/install-deps.sh installs it)"
	echo "clang: 0 passed, 1 failed"
	exit 1
fi
passed=0; failed=0
for f in "$@"; do
	# shellcheck disable=SC2086 # FLAGS is a list
	if "$cc" $flags -fsyntax-only "$f"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "clang: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
