#!/bin/sh
# mpi-shard.sh PREFIX SCHEDLAB COMMAND [ARGS...] - one MPI rank's shard of a
# schedlab run or reproduce (docs/scale-out.md).  Under `mpirun -n N`, rank K
# runs "SCHEDLAB COMMAND ARGS... --shard K/N" and leaves its slice in
# PREFIX.K.json, which appears only when the slice is complete.  No MPI
# library is involved: the rank and the size come from the environment the
# launcher sets (Open MPI: OMPI_COMM_WORLD_RANK/SIZE; MPICH, Intel MPI and
# other PMI launchers: PMI_RANK/PMI_SIZE; PMIx: PMIX_RANK with PMI_SIZE).
#
#   mpirun -n 4 scripts/mpi-shard.sh out/part ./schedlab reproduce seed-000
#   ./schedlab merge out/all.json out/part.*.json
set -eu
if [ $# -lt 3 ]; then
	echo "usage: mpirun -n N mpi-shard.sh PREFIX SCHEDLAB COMMAND [ARGS...]" >&2
	exit 2
fi
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-}}}
size=${OMPI_COMM_WORLD_SIZE:-${PMI_SIZE:-}}
if [ -z "$rank" ] || [ -z "$size" ]; then
	echo "mpi-shard.sh: no MPI rank in the environment (OMPI_COMM_WORLD_RANK or PMI_RANK," \
	     "and the size); start it with mpirun" >&2
	exit 2
fi
prefix=$1
shift
tmp="$prefix.$rank.json.tmp.$$"
trap 'rm -f "$tmp"' EXIT
"$@" --shard "$rank/$size" >"$tmp"
mv "$tmp" "$prefix.$rank.json"
