#!/bin/sh
# install-validate-deps.sh - the Debian packages `make validate` needs to
# build a real kernel (kernbench on the host): the kernel source and the
# tools its build runs.  Kept out of install-deps.sh so that `make` and CI
# do not fetch ~140 MB of kernel source.  Safe to run repeatedly.
set -eu

PACKAGES="linux-source-6.1 flex bison bc libelf-dev make gcc xz-utils"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "make validate needs these Debian packages:$missing" >&2
	echo "run as root: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
