#!/bin/sh
# test_mem.sh - memory bounds (docs/robustness.md "Memory"): a run whose
# estimated memory exceeds --max-mem (default half of physical memory) is
# refused with exit 2 and one line before anything is allocated or run;
# trace JSON is priced by its tokens before json-c parses it; real and
# validate refuse a workload beyond the host's MemAvailable.  No test here
# allocates more than a few MB: every big case is refused.
# $SCHEDLAB is the binary under test.
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh
S=${SCHEDLAB:-./schedlab}
M=p4dpe-2x2ht
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

bad_input() {
	pat=$1; shift
	expect_exit 2 "$S" "$@"
	expect_err "$pat"
}

# --- the issue's reproducer: 20,000,001 tasks, 8 GB in 170 s before ---
bad_input "workload 'hackbench:groups=10000,fds=1000,loops=1' on $M needs about [12][0-9] GiB of memory (20000001 tasks on 4 CPUs, results of 1 run), more than --max-mem 8.0 GiB$" \
	run -m $M -p o1 -w hackbench:groups=10000,fds=1000,loops=1 --max-mem 8G
# ... under the default limit, the message says what the limit is and how to raise it
expect_exit 2 "$S" run -m $M -p o1 -w hackbench:groups=10000,fds=1000,loops=1 --max-mem 1G
expect_err "more than --max-mem 1.0 GiB"

# --- within the limit it runs; a little below, refused ---
expect_exit 0 "$S" run -m $M -p o1 -w hackbench:groups=2,loops=1 --max-mem 64M
bad_input "workload 'hackbench:groups=2,loops=1' on $M needs about 4.[0-9] MiB of memory (81 tasks on 4 CPUs, results of 1 run), more than --max-mem 4.0 MiB$" \
	run -m $M -p o1 -w hackbench:groups=2,loops=1 --max-mem 4M
# every policy and repetition counts: 3 reps' results are in the line
bad_input "results of 3 runs" run -m $M -p o1 -p cfs -w spin:seconds=0.1 -r 3 --max-mem 1M
expect_exit 0 "$S" run -m $M -p o1 -p cfs -w spin:seconds=0.1 -r 3 --max-mem=32M

# --- --max-mem itself ---
for v in 12X 0 -1 +4M " 4M" "4M " 1.5G 4MB ""; do
	bad_input "^schedlab: --max-mem '$v': expected a size: a positive number of bytes with an optional K, M, G or T (binary), e.g. 512M or 4G$" \
		run -m $M -p o1 -w spin --max-mem "$v"
done
bad_input "^schedlab: --max-mem '99999999999999999999': too large (expected at most 16777215T)$" \
	run -m $M -p o1 -w spin --max-mem 99999999999999999999
bad_input "^schedlab: run: --max-mem given twice (expected one)$" \
	run -m $M -p o1 -w spin --max-mem 1G --max-mem 2G
bad_input "option '--max-mem': expected a value after it" run -m $M -p o1 -w spin --max-mem
expect_exit 0 "$S" run -m $M -p o1 -w spin:seconds=0.1 --max-mem 16777215T

# --- reproduce: every experiment is checked before the first runs ---
out=$("$S" reproduce seed-000 seed-002 --max-mem 4M 2>"$tmp/err"); rc=$?
ERR=$(cat "$tmp/err")
if [ $rc -eq 2 ] && [ -z "$out" ]; then ok; else bad "reproduce --max-mem 4M: exit $rc, stdout '$out'"; fi
expect_err "^schedlab: experiments/seed-000.json: rows\[0\] x columns\[0\]: workload '.*' on $M needs about .* more than --max-mem 4.0 MiB$"
bad_input "reproduce: --max-mem given twice" reproduce seed-002 --max-mem 1G --max-mem 1G

# --- rt-app and trace replay files ---
bad_input "workload 'rtapp:file=examples/rt-app/barrier-group.json' on $M needs about .* (5 tasks on 4 CPUs" \
	run -m $M -p o1 -w rtapp:file=examples/rt-app/barrier-group.json --max-mem 4M
expect_exit 0 "$S" run -m $M -p o1 -w rtapp:file=examples/rt-app/barrier-group.json,duration=0.1
# 300,000 empty objects: 900 KB of text that json-c turns into ~230 MB
{ printf '{"schedlab_trace":1,"tasks":[{"comm":"a","ops":['
  awk 'BEGIN { for (i = 0; i < 299999; i++) printf "{},"; printf "{}" }'
  printf ']}]}\n'; } >"$tmp/objects.json"
bad_input "^schedlab: workload 'trace': $tmp/objects.json: loading it needs about 2[0-9][0-9] MiB of memory (a JSON tree of 300002 objects, 2 arrays and 300006 values), more than --max-mem 64 MiB$" \
	run -m $M -p o1 -w trace:file="$tmp/objects.json" --max-mem 64M
# ... and a text larger than the limit is not even read
bad_input "^schedlab: workload 'trace': $tmp/objects.json: loading it needs about 879 KiB of memory (its text alone), more than --max-mem 512 KiB$" \
	run -m $M -p o1 -w trace:file="$tmp/objects.json" --max-mem 512K
"$S" trace import tests/data/traces/busy-make.txt -o "$tmp/make.json" 2>/dev/null
expect_exit 0 "$S" run -m $M -p o1 -w trace:file="$tmp/make.json" --max-mem 64M
bad_input "workload 'trace:file=$tmp/make.json' on $M needs about" \
	run -m $M -p o1 -w trace:file="$tmp/make.json" --max-mem 4M

# --- real and validate: the walkers' 4 TB is refused before any runs ---
bad_input "^schedlab: real: workload 'schedbench:tasks=1024,mb=4096[^']*' needs about 3.8 TiB of memory (1825 processes), more than the limit of .* (half of this host's .*; raise it with --max-mem SIZE)$" \
	real -w schedbench:tasks=1024,mb=4096
bad_input "^schedlab: real: workload 'schedbench:tasks=1024,mb=4096[^']*' would touch about 3.8 TiB of this host's memory (1825 processes), more than the .* it has available (MemAvailable in /proc/meminfo)$" \
	real -w schedbench:tasks=1024,mb=4096 --max-mem 16777215T
bad_input "^schedlab: validate: workload 'schedbench:tasks=1024,mb=4096[^']*' needs about 3.8 TiB" \
	validate -w schedbench:tasks=1024,mb=4096
bad_input "real: workload 'spin:tasks=64[^']*' needs about 32 MiB of memory (64 processes), more than --max-mem 1.0 MiB" \
	real -w spin:tasks=64,seconds=0.01 --max-mem 1M
bad_input "real: --max-mem given twice" real -w spin --max-mem 1G --max-mem 1G

# --- the option is documented where it is accepted ---
for c in run reproduce real validate; do
	if "$S" help $c | grep -q -- "--max-mem SIZE"; then ok; else bad "help $c lacks --max-mem"; fi
done

finish mem
