#!/bin/sh
# test_sweep.sh - experiments as files and sweeps (docs/experiments.md):
# the documented example runs and draws its table, lists and ranges in -w
# and -p, results that keep their coordinates (CSV, JSON schema_version),
# -j N byte for byte as -j 1, the progress line only on a terminal (or
# --progress), and bad files and lists refused with exit 2 and one line
# (file:line for files).  $SCHEDLAB is the binary under test.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
S=${SCHEDLAB:-./schedlab}
M=p4dpe-2x2ht
K=kernbench:size=0.05,units=50	# a small build, so that the sweeps are quick
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

bad_input() {
	pat=$1; shift
	expect_exit 2 "$S" "$@"
	expect_err "$pat"
}
check() {	# check NAME CMD...: CMD must succeed
	name=$1; shift
	if "$@" >/dev/null 2>&1; then ok; else bad "$name"; fi
}

# ---- the documented example, as it stands in docs/experiments.md ----
sed -n '/<!-- example:begin -->/,/<!-- example:end -->/p' docs/experiments.md |
	sed '1,2d;$d' | sed '$d' >"$tmp/example.json"
"$S" reproduce "$tmp/example.json" -j 1 >"$tmp/ex1.txt" 2>"$tmp/ex1.err"
check "example runs" test $? -eq 0
check "example: no progress off a terminal" test ! -s "$tmp/ex1.err"
check "example: title" grep -q '^example: kernbench -j1..8 under three policies' "$tmp/ex1.txt"
check "example: three columns" grep -Eq '^ +O\(1\) 2\.5\.33 +CFS +sl$' "$tmp/ex1.txt"
n=$(grep -c '^make jobs=[1-8] ' "$tmp/ex1.txt")
check "example: a row per jobs value (got $n)" test "$n" -eq 8
check "example: the row's cells" grep -Eq '^make jobs=8 +s +[0-9.]+/[0-9.]+/[0-9.]+ +- +' "$tmp/ex1.txt"
# -j 2 and -j 1 byte for byte, table and JSON
"$S" reproduce "$tmp/example.json" -j 2 >"$tmp/ex2.txt" 2>/dev/null
check "reproduce -j 2 = -j 1 (table)" cmp "$tmp/ex1.txt" "$tmp/ex2.txt"
"$S" reproduce "$tmp/example.json" -j 1 -r 1 -o json >"$tmp/ex1.json"
"$S" reproduce "$tmp/example.json" -j 2 -r 1 -o json >"$tmp/ex2.json"
check "reproduce -j 2 = -j 1 (json)" cmp "$tmp/ex1.json" "$tmp/ex2.json"
python3 - "$tmp/ex1.json" <<'PY' && ok || bad "reproduce json: schema_version, path, params"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 1
e = d["experiments"][0]
assert e["path"].endswith("example.json") and e["source"] is None
rows = [r for r in e["rows"] if r["kind"] == "data"]
assert [r["params"]["jobs"] for r in rows] == [str(j) for j in range(1, 9)], rows
assert all(r["params"]["size"] == "0.05" for r in rows)
PY

# a machine list: one table per machine
sed 's/"machine": "p4dpe-2x2ht"/"machine": ["p4dpe-2x2ht", "p4dpe-2x2ht,noht"]/; s/jobs=1\.\.8/jobs=1,2/' \
	"$tmp/example.json" >"$tmp/two.json"
"$S" reproduce "$tmp/two.json" -r 1 >"$tmp/two.txt" 2>/dev/null
check "two machines: two tables" test "$(grep -c '^machine: p4dpe-2x2ht' "$tmp/two.txt")" -eq 2
check "two machines: noht" grep -q '^machine: p4dpe-2x2ht,noht ' "$tmp/two.txt"

# ---- bad files: exit 2, one line, file:line: field ----
sed 's/"reps": 2,/"reps": 2, "colour": "red",/' "$tmp/example.json" >"$tmp/bad.json"
bad_input "bad.json:4: colour: unknown field" reproduce "$tmp/bad.json"
sed 's/jobs=1\.\.8/jobs=8..1/' "$tmp/example.json" >"$tmp/back.json"
bad_input "back.json:14: rows\[0\].workload: .*range jobs=8..1 runs backwards" reproduce "$tmp/back.json"
sed 's/"reps": 2,/"reps": 0,/' "$tmp/example.json" >"$tmp/reps.json"
bad_input "reps.json:4: reps: expected an integer" reproduce "$tmp/reps.json"
bad_input "nothere.json': cannot open" reproduce "$tmp/nothere.json"
bad_input "seed-999" reproduce seed-999
printf '{ "title": "t",\n  "reps": 1,\n' >"$tmp/cut.json"
bad_input "cut.json:3: invalid JSON" reproduce "$tmp/cut.json"
bad_input "-j '0': expected a number of threads" reproduce "$tmp/example.json" -j 0

# ---- run: lists in -w and -p ----
"$S" run -m $M -p o1 -p cfs -p sl -w "$K,jobs=1..8" -o csv -j 2 >"$tmp/run2.csv"
check "run sweep csv" test $? -eq 0
python3 - "$tmp/run2.csv" <<'PY' && ok || bad "run csv: the jobs value in every row"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(re.search(r"[:,]jobs=%s(,|$)" % r["jobs"], r["workload"]) for r in rows), rows[:2]
assert {r["jobs"] for r in rows} == {str(j) for j in range(1, 9)}
assert {r["policy"] for r in rows} == {"o1", "cfs", "sl"}
assert all(r["machine"] == "p4dpe-2x2ht" and r["size"] == "0.05" for r in rows)
assert len({(r["jobs"], r["policy"]) for r in rows if r["metric"] == "elapsed_s"}) == 24
PY
"$S" run -m $M -p o1 -p cfs -p sl -w "$K,jobs=1..8" -o csv -j 1 >"$tmp/run1.csv"
check "run -j 2 = -j 1 (csv)" cmp "$tmp/run1.csv" "$tmp/run2.csv"
"$S" run -m $M -m $M,noht -p o1 -p cfs:base_slice_us=750,3000 -w "$K,jobs=1,2" -r 2 -o json \
	>"$tmp/run.json"
python3 - "$tmp/run.json" <<'PY' && ok || bad "run json: schema_version and coordinates"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 1 and d["ncells"] == 12 and len(d["cells"]) == 12
assert [m["name"] for m in d["machines"]] == ["p4dpe-2x2ht", "p4dpe-2x2ht,noht"]
c = d["cells"][7]    # machine 1, row 0 (jobs=1), column 1
assert c["index"] == 7 and c["machine"] == "p4dpe-2x2ht,noht" and c["params"]["jobs"] == "1"
assert c["policy_spec"] == "cfs:base_slice_us=750" and len(c["metrics"]["elapsed_s"]["values"]) == 2
assert len(d["runs"]) == 24 and all("machine" in r and "workload" in r for r in d["runs"])
assert "summary" not in d and "workload" not in d    # a sweep: coordinates per cell only
PY
# the sweep table: rows = values, columns = policies, per machine and metric
"$S" run -m $M -p o1 -p sl -w "$K,jobs=1,2,4" --metric elapsed_s --metric migrations \
	>"$tmp/table.txt"
check "sweep table: rows" test "$(grep -c '^jobs=[124] ' "$tmp/table.txt")" -eq 6
check "sweep table: columns" grep -Eq '^elapsed_s \(s\) +o1 +sl$' "$tmp/table.txt"
check "sweep table: second metric" grep -Eq '^migrations \(count\) +o1 +sl$' "$tmp/table.txt"
# a plain run keeps its per-metric table
"$S" run -m $M -p o1 -w "$K,jobs=2" >"$tmp/plain.txt"
check "plain run: metric table" grep -Eq '^metric +unit +o1$' "$tmp/plain.txt"

# ---- bad lists: exit 2, one line, before any run ----
bad_input "workload 'kernbench:1,2': expected key=value, got '1'" run -m $M -p o1 -w kernbench:1,2
bad_input "size='0.5..2' is not a range of integers" run -m $M -p o1 -w kernbench:size=0.5..2
bad_input "label= with a list" run -m $M -p o1:label=x,hz=100,1000 -w $K
bad_input "more than 4096 cells" run -m $M -p o1 -w kernbench:jobs=1..100000
bad_input "= 4160 cells" run -m $M -m $M,noht -p cfs:base_slice_us=100..164 -w kernbench:jobs=1..32
bad_input "run: --metric 'nope': no run reports it" run -m $M -p o1 -w "$K,jobs=1" --metric nope
bad_input "run: --trace records one run" run -m $M -p o1 -w "$K,jobs=1,2" --trace "$tmp/t.txt"
check "--trace refused: no file" test ! -e "$tmp/t.txt"
bad_input "run: --quiet and --progress" run -m $M -p o1 -w "$K" --quiet --progress

# ---- progress: on stderr when it is a terminal, or with --progress ----
"$S" run -m $M -p o1 -w "$K,jobs=1..4" --progress >/dev/null 2>"$tmp/prog.err"
check "--progress: the last line" grep -q '^schedlab: 4/4 runs, [0-9.]* s$' "$tmp/prog.err"
if command -v script >/dev/null 2>&1; then
	script -qec "$S run -m $M -p o1 -w $K,jobs=1..4 >/dev/null" /dev/null >"$tmp/tty.out" 2>&1
	check "terminal: progress drawn in place" grep -q "$(printf '\r')schedlab: 4/4 runs" "$tmp/tty.out"
	script -qec "$S run -m $M -p o1 -w $K,jobs=1..4 --quiet >/dev/null" /dev/null >"$tmp/q.out" 2>&1
	check "terminal: --quiet" test ! -s "$tmp/q.out"
	script -qec "$S reproduce $tmp/example.json -r 1 -j 2 >/dev/null" /dev/null >"$tmp/rp.out" 2>&1
	check "reproduce: progress" grep -q "schedlab: 24/24 runs" "$tmp/rp.out"
else
	echo "note: no script(1): terminal progress not tested"
fi

finish sweep
