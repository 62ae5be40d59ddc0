#!/bin/sh
# docs_current.sh - the docs' generated parts are what the current build
# prints: `make docs`'s scripts run in a copy of the pages, and each page
# must come out unchanged.  A change that moves results runs `make docs`
# (and `make golden`) in the same commit.  Prints "docs: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -R README.md docs scripts examples "$tmp"/
ln -s "$PWD/schedlab" "$tmp/schedlab"
log="$tmp/log"
(
	cd "$tmp" &&
	sh scripts/readme-examples.sh &&
	python3 scripts/seed-tables.py ./schedlab &&
	python3 scripts/schedbench-tables.py ./schedlab --write &&
	python3 scripts/sl-table.py ./schedlab --write &&
	python3 scripts/roundtrip-table.py ./schedlab --write &&
	python3 scripts/compare-example.py ./schedlab --write &&
	python3 scripts/experiment-example.py ./schedlab --write
) >"$log" 2>&1 || { cat "$log"; echo "docs: 0 passed, 1 failed"; exit 1; }
passed=0; failed=0
for page in README.md docs/workloads.md docs/policies/o1.md docs/policies/sl.md docs/traces.md \
	docs/report.md docs/experiments.md; do
	if cmp -s "$page" "$tmp/$page"; then
		passed=$((passed + 1))
	else
		echo "FAIL docs: $page is not what 'make docs' makes of the current build:"
		diff "$page" "$tmp/$page" | head -20
		failed=$((failed + 1))
	fi
done
echo "docs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
