#!/bin/sh
# test_shard.sh - --shard K/N and `schedlab merge` (docs/scale-out.md): a
# 2-way shard of a run through GNU parallel, through `mpirun -n 2`
# (scripts/mpi-shard.sh) and through the Slurm array script run as a task
# would run it, and a 3-way shard of an experiment, each merged and equal
# byte for byte to the unsharded -o json; the Slurm script is checked by
# `sbatch --test-only` where Slurm is present and else parsed; merge's
# checks (a missing or doubled point, different commands, an existing
# OUT) and --shard's bad values.  The parallel and mpirun recipes are
# skipped, saying so, when those programs are absent.
. "$(dirname "$0")/lib.sh"
S=${SCHEDLAB:-./schedlab}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R="run -m p4dpe-2x2ht -p o1 -p cfs -w hackbench:groups=1,fds=2,loops=10 -r 3"
E="reproduce seed-002-pipe -r 1"

$S $R -o json >"$T/run.json" && ok || bad "unsharded run"
$S $E -o json >"$T/exp.json" && ok || bad "unsharded reproduce"

# ---- by hand, and the slices' contents ----
$S $R --shard 0/2 >"$T/h0.json" && $S $R --shard=1/2 >"$T/h1.json" && ok || bad "shards by hand"
grep -q '"schedlab_shard": 1' "$T/h0.json" && ok || bad "shard file marked"
grep -q '"--shard' "$T/h0.json" && bad "--shard left in the shard's command" || ok
[ "$(grep -c '"point":' "$T/h0.json")" -eq 3 ] && ok || bad "slice 0/2 of 6 points: 3"
grep -q '"point": 1,' "$T/h1.json" && grep -q '"point": 5,' "$T/h1.json" && ok ||
	bad "slice 1/2: points 1, 3, 5 (round robin)"
expect_exit 0 $S merge "$T/hm.json" "$T/h1.json" "$T/h0.json"
cmp -s "$T/hm.json" "$T/run.json" && ok || bad "merged by hand differs from the unsharded run"
# slices run with other -j, --quiet, --progress or --stats are slices of one command
$S $R --shard 0/2 -j 1 --quiet >"$T/j0.json" && $S $R -j 2 --stats --shard 1/2 >"$T/j1.json" 2>/dev/null &&
	$S merge - "$T/j0.json" "$T/j1.json" | cmp -s - "$T/run.json" && ok ||
	bad "slices with different -j/--quiet/--stats do not merge to the unsharded run"
grep -q '"-j"\|"--quiet"\|"--stats"' "$T/j0.json" "$T/j1.json" && bad "-j/--quiet/--stats recorded in a slice" || ok
# a slice runs its points only: the events of the two slices add up to the whole
events() { "$@" --stats 2>&1 >/dev/null | sed -n 's/^schedlab: stats: \([0-9]*\) events.*/\1/p'; }
all=$(events $S $R) e0=$(events $S $R --shard 0/2) e1=$(events $S $R --shard 1/2)
[ -n "$all" ] && [ "$e0" -gt 0 ] && [ "$e1" -gt 0 ] && [ $((e0 + e1)) -eq "$all" ] && ok ||
	bad "slice events $e0 + $e1, expected $all in all"
# one slice of one is the whole
$S $E --shard 0/1 >"$T/e1.json" && $S merge - "$T/e1.json" | cmp -s - "$T/exp.json" && ok ||
	bad "--shard 0/1 merged differs"
for k in 0 1 2; do $S $E --shard $k/3 -o json >"$T/e3.$k.json" || bad "reproduce shard $k/3"; done
expect_exit 0 $S merge "$T/em.json" "$T/e3.2.json" "$T/e3.0.json" "$T/e3.1.json"
cmp -s "$T/em.json" "$T/exp.json" && ok || bad "3-way reproduce merge differs from unsharded"

# ---- GNU parallel, one line ----
if command -v parallel >/dev/null 2>&1; then
	parallel --halt now,fail=1 "$S $R --shard {}/2 > $T/par.{}.json" ::: 0 1 && ok ||
		bad "parallel"
	expect_exit 0 $S merge "$T/par.json" "$T"/par.*.json
	cmp -s "$T/par.json" "$T/run.json" && ok || bad "GNU parallel merge differs"
else
	echo "skip: GNU parallel not installed (apt-get install parallel): its recipe untested"
fi

# ---- mpirun -n 2 ----
if command -v mpirun >/dev/null 2>&1; then
	asroot=
	[ "$(id -u)" -eq 0 ] && asroot=--allow-run-as-root
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		mpirun $asroot --oversubscribe -n 2 sh "$ROOT/scripts/mpi-shard.sh" "$T/mpi" $S $R \
		>"$T/mpirun.log" 2>&1 && ok || bad "mpirun: $(cat "$T/mpirun.log")"
	expect_exit 0 $S merge "$T/mpi.json" "$T/mpi.0.json" "$T/mpi.1.json"
	cmp -s "$T/mpi.json" "$T/run.json" && ok || bad "mpirun merge differs"
else
	echo "skip: mpirun not installed (apt-get install openmpi-bin): its recipe untested"
fi
expect_exit 2 sh "$ROOT/scripts/mpi-shard.sh" "$T/x" $S $R
expect_err "no MPI rank"

# ---- the Slurm job array script ----
B="$ROOT/scripts/slurm-shard.sbatch"
bash -n "$B" && ok || bad "slurm-shard.sbatch does not parse"
grep -q '^#SBATCH --array=0-[0-9][0-9]*$' "$B" && ok || bad "#SBATCH --array=0-N"
grep '^#SBATCH' "$B" | grep -vqE '^#SBATCH --[a-z-]+=[^ ]+$' && bad "#SBATCH line not --opt=value" || ok
# every #SBATCH line before the first command, where sbatch reads them
awk '/^[^#]/ && !done {done = NR} /^#SBATCH/ && done {bad = 1} END {exit bad}' "$B" && ok ||
	bad "#SBATCH after a command (sbatch ignores it)"
if command -v sbatch >/dev/null 2>&1; then
	sbatch --test-only --array=0-1 "$B" "$T/slurm" $S $R >/dev/null 2>&1 && ok ||
		bad "sbatch --test-only"
else
	echo "skip: sbatch not installed: slurm-shard.sbatch parsed, not submitted"
fi
# the tasks as Slurm would start them (the array's environment)
for k in 0 1; do
	SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=2 bash "$B" "$T/slurm" $S $R || bad "task $k"
done
expect_exit 0 $S merge "$T/slurm.json" "$T/slurm.0.json" "$T/slurm.1.json"
cmp -s "$T/slurm.json" "$T/run.json" && ok || bad "Slurm array merge differs"
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MAX=1 bash "$B" "$T/max" $S $R &&
	grep -q '"shards": 2' "$T/max.1.json" && ok || bad "N from SLURM_ARRAY_TASK_MAX"

# ---- merge's checks: exit 2, one line, no OUT ----
expect_exit 2 $S merge "$T/m.json" "$T/h0.json"
expect_err "point 1 is missing (expected shard 1/2"
[ -e "$T/m.json" ] && bad "OUT written by a failed merge" || ok
expect_exit 2 $S merge "$T/m.json" "$T/h0.json" "$T/h1.json" "$T/par.0.json"
expect_err "point 0 is in both"
expect_exit 2 $S merge "$T/m.json" "$T/h0.json" "$T/e3.1.json"
expect_err "shards of different commands"
expect_exit 2 $S merge "$T/m.json" "$T/h0.json" "$T/e1.json"
expect_err "different commands"
expect_exit 2 $S merge "$T/hm.json" "$T/h0.json" "$T/h1.json"
expect_err "'.*hm.json' exists"
cmp -s "$T/hm.json" "$T/run.json" && ok || bad "an existing OUT was changed"
expect_exit 2 $S merge "$T/m.json" "$T/run.json"
expect_err "not a shard"
sed 's/"points": 6/"points": 7/' "$T/h1.json" >"$T/h1x.json"
expect_exit 2 $S merge "$T/m.json" "$T/h0.json" "$T/h1x.json"
expect_err "h1x.json is shard 1/2 of 7 points but .*h0.json is 0/2 of 6"
sed 's/"shards": 2/"shards": 3/' "$T/h1.json" >"$T/h1y.json"
expect_exit 2 $S merge "$T/m.json" "$T/h0.json" "$T/h1y.json"
expect_err "point 3 is not in shard 1/3"
sed 's/"policy": "cfs"/"policy": "sl"/' "$T/h1.json" >"$T/h1p.json"
expect_exit 2 $S merge "$T/m.json" "$T/h0.json" "$T/h1p.json"
expect_err "point 3 is policy 'sl'"
printf '{ "schedlab_shard": 1' >"$T/trunc.json"
expect_exit 2 $S merge "$T/m.json" "$T/trunc.json"
expect_err "merge: .*trunc.json:1: invalid JSON (unexpected end of file)"
expect_exit 2 timeout 20 $S merge "$T/m.json" /dev/zero
expect_err "merge: /dev/zero: a NUL byte at offset 0 (expected a shard file)"
expect_exit 2 $S merge "$T/m.json"
expect_err "at least one shard"

# ---- --shard's values ----
for bad_k in 2/2 -1/2 1 a/2 0/0 1/; do
	expect_exit 2 $S $R --shard "$bad_k"
	expect_err "run: --shard '$bad_k'"
done
expect_exit 2 $S $R --shard 0/2 --shard 1/2
expect_err "given twice"
expect_exit 2 $S $R --shard 0/2 -o table
expect_err "not -o table"
expect_exit 2 $S run -m p4dpe-2x2ht -p o1 -w hackbench:groups=1,fds=2,loops=10 --shard 0/2 \
	--trace "$T/t.perf"
expect_err "with --trace"
expect_exit 2 $S $E --shard 0/2 -o table
expect_err "reproduce: --shard writes its slice as JSON"
finish test_shard
