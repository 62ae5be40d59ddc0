#!/bin/sh
# install-validate-deps.sh - the Debian packages `make validate` needs to
# build a real kernel (kernbench on the host): the kernel source and the
# tools its build runs; and perf, to record the traces of
# validate-traces.sh.  Kept out of the default list so that `make` and CI
# do not fetch ~140 MB of kernel source.  Safe to run repeatedly.
exec sh "$(dirname "$0")/install-deps.sh" linux-source-6.1 flex bison bc libelf-dev make gcc xz-utils linux-perf
