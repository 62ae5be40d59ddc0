#!/bin/sh
# report-screenshot.sh [SCHEDLAB [PNG]] - the README's picture of `schedlab
# report`: the page of a short kernbench -j2 under ht and stock o1 2.5.33 on
# the 2 x 2 HT box, rendered by headless Chromium (Debian package chromium)
# into PNG (default docs/img/report.png).  tests/cli/test_report.sh runs it
# into a temporary file, so the picture is the one the test checks.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
schedlab=${1:-$root/schedlab}
png=${2:-$root/docs/img/report.png}
if ! command -v chromium >/dev/null 2>&1; then
	echo "report-screenshot.sh: chromium is not installed (apt-get install chromium)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $schedlab in /*) ;; *) schedlab=$PWD/$schedlab ;; esac
# written as report.html in its directory: the page shows its command line,
# and the picture should not change with the temporary directory's name
(cd "$tmp" && "$schedlab" report -m p4dpe-2x2ht -p ht -p o1:version=2.5.33 \
	-w kernbench:jobs=2,size=20,units=100 -o report.html)
# --no-sandbox: root in containers has no user namespaces; the page is ours.
# A profile of its own, so that runs in parallel do not share a lock.
if ! timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$tmp/profile" --window-size=1200,1900 \
	--screenshot="$tmp/shot.png" "file://$tmp/report.html" >"$tmp/log" 2>&1 ||
	[ ! -s "$tmp/shot.png" ]; then
	cat "$tmp/log" >&2
	echo "report-screenshot.sh: chromium wrote no screenshot" >&2
	exit 1
fi
mkdir -p "$(dirname "$png")"
mv "$tmp/shot.png" "$png"
