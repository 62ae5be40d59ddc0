#!/bin/sh
# test_valgrind.sh - the optimised binary under valgrind memcheck: no invalid
# access, no use of uninitialised memory, no definite leak, on a short run of
# every policy and workload and on an error path.  (ASan/UBSan cover the
# rest of the suite; valgrind also sees the -O2 build and the libraries.)
. "$(dirname "$0")/lib.sh"
BIN="$(dirname "$0")/../../schedlab"

if ! command -v valgrind >/dev/null 2>&1; then
	bad "valgrind is not installed (scripts/install-deps.sh installs it)"
	finish valgrind
	exit 0
fi
vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "$@"; }

for w in kernbench:jobs=2,size=3 spin:tasks=3,seconds=0.5 javabench:threads=2,size=2; do
	vg "$BIN" run -m p4dpe-2x2ht -p ht -p o1 -p linux24 -p up -w "$w" -r 2 -o json >/dev/null 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok || bad "valgrind: run $w exited $rc"
done
for w in kernbench:jobs=2,size=3 hackbench:groups=1,loops=5 pingpong:loops=200 sdet:scripts=2; do
	vg "$BIN" run -m p4dpe-2x2ht -p domains -p cfs -p sl -w "$w" -o json >/dev/null 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok || bad "valgrind: run $w under domains, cfs, sl exited $rc"
done
vg "$BIN" run -m numaq-16 -p sl -p cfs -w schedbench:tasks=8,size=0.5,hackbench=1 -o csv >/dev/null 2>&1
rc=$?; [ $rc -eq 0 ] && ok || bad "valgrind: numaq-16 schedbench exited $rc"
vg "$BIN" run -m "node:2 pack:1 core:2 pu:2" -p o1 -w kernbench:jobs=4,size=2 -o csv >/dev/null 2>&1
rc=$?; [ $rc -eq 0 ] && ok || bad "valgrind: synthetic NUMA machine run exited $rc"
# validate reads the host kernel's configuration (zlib for /proc/config.gz)
vg "$BIN" validate -w spin:tasks=1,seconds=0.1 -o json >/dev/null 2>&1
rc=$?; [ $rc -eq 0 ] && ok || bad "valgrind: validate with the host kernel's knobs exited $rc"
vg "$BIN" run -m nosuchmachine -p o1 -w spin >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ] && ok || bad "valgrind: bad machine should exit 2, got $rc"
finish valgrind
