#!/bin/sh
# install-deps.sh [PACKAGE...] - install the Debian packages schedlab needs
# to build and test (or the ones given).  Used by the Makefile (when a
# dependency is missing and we are root), by .ci/run, and by
# install-validate-deps.sh.  Safe to run repeatedly.
set -eu

PACKAGES="build-essential pkg-config libjson-c-dev libhwloc-dev libxml2-dev zlib1g-dev hwloc valgrind python3 rt-app"
# real --latency and trace record: perf (its tests skip where the kernel has no sched tracepoints)
PACKAGES="$PACKAGES linux-perf"
# the scale-out recipes' tests (docs/scale-out.md): GNU parallel and mpirun
PACKAGES="$PACKAGES parallel openmpi-bin"
# make fuzz: libFuzzer harnesses (clang, and its fuzzer and sanitizer runtimes)
PACKAGES="$PACKAGES clang libclang-rt-14-dev"
[ $# -gt 0 ] && PACKAGES="$*"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "schedlab needs these Debian packages:$missing" >&2
	echo "run as root: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q $missing >/dev/null
