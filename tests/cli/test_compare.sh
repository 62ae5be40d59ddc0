#!/bin/sh
# test_compare.sh - `schedlab compare`: hand-made results with known
# samples (one clearly significant difference, one not: Welch's t-test,
# p 0.006 and 0.106, closed form for df = 2), a simulated run beside a
# real run's host column, run against reproduce output, --metric, and bad
# input (exit 2, one line).
. "$(dirname "$0")/lib.sh"
S=${SCHEDLAB:-./schedlab}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# run_json FILE POLICY SPEC V1 V2: a `run -o json` result with two reps of elapsed_s
run_json() {
	cat >"$1" <<EOT
{ "machine": "m", "workload": "spin", "seed": 1, "reps": 2, "runs": [
  { "policy": "$2", "policy_spec": "$3", "rep": 0, "seed": 1,
    "metrics": { "elapsed_s": $4, "cpu_pct": 100 }, "units": { "elapsed_s": "s", "cpu_pct": "%" } },
  { "policy": "$2", "policy_spec": "$3", "rep": 1, "seed": 2,
    "metrics": { "elapsed_s": $5, "cpu_pct": 100 }, "units": { "elapsed_s": "s", "cpu_pct": "%" } } ] }
EOT
}
run_json "$T/a.json" o1 o1 1 2
run_json "$T/sig.json" o1 o1 10 11	# t 12.73, df 2, p 0.0061
run_json "$T/not.json" o1 o1 1 3	# from a: t 0.45; (1,3) vs (5,7) below: p 0.106
run_json "$T/b.json" o1 o1 5 7
run_json "$T/host.json" "real: Linux" real 10 11

out=$($S compare "$T/a.json" "$T/sig.json" "$T/not.json")
echo "$out" | grep -q "Welch's t-test, two-sided, alpha 0.05" && ok || bad "header names the test"
echo "$out" | grep -q '^Amean     o1 .*\*  600.00%\*.*(   33.33%)' && ok ||
	bad "significant *600%* and not significant (33%): $out"
echo "$out" | grep -q 'cpu_pct.*' && echo "$out" | grep -q '(    0.00%)  *100 (    0.00%)' && ok ||
	bad "equal constant samples: not significant"
out=$($S compare "$T/not.json" "$T/b.json" --metric elapsed_s)
echo "$out" | grep -q '(  200.00%)' && ok || bad "p 0.106: not significant: $out"
echo "$out" | grep -q cpu_pct && bad "--metric elapsed_s shows cpu_pct" || ok
# a real run's one column (host) against the policy
out=$($S compare "$T/a.json" "$T/host.json")
echo "$out" | grep -q '# file .*host.json: real, m' && ok || bad "real file named: $out"
echo "$out" | grep -q '^Amean     o1 .*\*  600.00%\*' && ok || bad "host against o1: $out"

# schema_version 1 (docs/experiments.md): coordinates in every row, several
# machines and workloads in one file
v1() {	# FILE V1 V2: elapsed_s of o1 on two machines x two workloads
	r=""
	for m in mA mB; do for w in "kernbench:jobs=1" "kernbench:jobs=2"; do for v in $2 $3; do
		r="$r${r:+,} { \"machine\": \"$m\", \"workload\": \"$w\", \"policy\": \"o1\",
		  \"policy_spec\": \"o1\", \"metrics\": { \"elapsed_s\": $v }, \"units\": { \"elapsed_s\": \"s\" } }"
	done; done; done
	printf '{ "schema_version": 1, "command": "run", "runs": [ %s ] }\n' "$r" >"$1"
}
v1 "$T/v1a.json" 1 2
v1 "$T/v1b.json" 10 11
out=$($S compare "$T/v1a.json" "$T/v1b.json")
[ "$(echo "$out" | grep -c '^Amean     o1 .*\*  600.00%\*')" -eq 4 ] && ok || bad "schema 1: 4 cells: $out"
echo "$out" | grep -q '^mB kernbench:jobs=2  elapsed_s (s)$' && ok || bad "schema 1: machine in the group: $out"

# real simulated results: run against itself, reproduce against itself
R="run -m p4dpe-2x2ht -p o1 -p cfs -w hackbench:groups=1,fds=2,loops=10 -r 3"
$S $R -o json >"$T/r1.json" && $S $R -s 7 -o json >"$T/r2.json" || bad "run -o json"
out=$($S compare "$T/r1.json" "$T/r2.json")
[ "$(echo "$out" | grep -c '^Amean     o1 ')" -ge 5 ] && ok || bad "run: a line per metric: $out"
echo "$out" | grep -q '^Amean     cfs ' && ok || bad "run: both policies"
$S reproduce seed-002-pipe -r 2 -o json >"$T/e.json" || bad "reproduce -o json"
out=$($S compare "$T/e.json" "$T/e.json")
echo "$out" | grep -q '# baseline .*e.json: reproduce, p4-2400' && ok || bad "reproduce file: $out"
[ "$(echo "$out" | grep -c '^Amean ')" -ge 8 ] && ok || bad "reproduce: a line per cell: $out"
echo "$out" | grep -v '^#' | grep -q '\*' && bad "a file against itself: nothing significant" || ok

# ---- bad input: exit 2, one line ----
expect_exit 2 $S compare "$T/a.json"
expect_err "expected a baseline and at least one other"
expect_exit 2 $S compare "$T/a.json" "$T/none.json"
expect_err "none.json: cannot open it (No such file or directory)"
# a stream without end, or a directory: refused at once, not read into memory
expect_exit 2 timeout 20 $S compare "$T/a.json" /dev/zero
expect_err "/dev/zero: a NUL byte at offset 0 (expected a result of run, real or reproduce -o json)"
expect_exit 2 $S compare "$T/a.json" "$T"
expect_err "is a directory"
printf '{ "runs": [ 1' >"$T/bad.json"
expect_exit 2 $S compare "$T/a.json" "$T/bad.json"
expect_err "bad.json:1: invalid JSON (unexpected end of file)"
echo '{ "x": 1 }' >"$T/other.json"
expect_exit 2 $S compare "$T/a.json" "$T/other.json"
expect_err "neither \"runs\" nor \"experiments\""
expect_exit 2 $S compare "$T/a.json" "$T/e.json"
expect_err "no cell in common"
expect_exit 2 $S compare "$T/a.json" "$T/b.json" --metric nosuch
expect_err "--metric 'nosuch'"
expect_exit 2 $S compare "$T/a.json" "$T/b.json" -x
expect_err "unknown option '-x'"
$S $R --shard 0/2 >"$T/shard.json"
expect_exit 2 $S compare "$T/r1.json" "$T/shard.json"
expect_err "a shard of a run (merge the shards first"
finish test_compare
