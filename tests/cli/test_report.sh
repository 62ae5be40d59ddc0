#!/bin/sh
# test_report.sh - `schedlab report`: the page's structure (the tables as
# run / reproduce print them, a timeline per policy, the CDFs, an
# experiment's charts with published markers), escaping of input strings,
# the slice bound, nothing fetched, output file handling and bad input;
# then the page in a real browser (headless Chromium): the SVG elements
# are in its DOM, no console errors (also after zooming), a screenshot
# renders.  The browser checks are skipped, saying so, without chromium.
. "$(dirname "$0")/lib.sh"
S=${SCHEDLAB:-./schedlab}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
M="-m p4dpe-2x2ht"
W="kernbench:jobs=2,size=4,units=40"

# The text of the page's first <pre>, unescaped.
first_pre() {
	sed -n '/<pre>/,/<\/pre>/p' "$1" | awk '/<\/pre>/{print; exit} {print}' |
		sed 's/^<pre>//; s/<\/pre>$//' |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' |
		sed '${/^$/d;}'	# the line </pre> closes
}

# ---- a run's page ----
expect_exit 0 $S report $M -p ht -p o1:version=2.5.33 -w $W -o "$T/run.html"
P="$T/run.html"
[ "$(grep -c '<svg class="timeline"' "$P")" -eq 2 ] && ok || bad "run page: 2 timelines"
grep -q '<svg id="tl0"' "$P" && grep -q '<svg id="tl1"' "$P" && ok || bad "run page: lanes"
[ "$(grep -c '<svg class="cdf"' "$P")" -eq 2 ] && ok || bad "run page: 2 CDFs"
[ "$(grep -c 'class="cdfline"' "$P")" -eq 4 ] && ok || bad "run page: a CDF line per policy"
$S run $M -p ht -p o1:version=2.5.33 -w $W >"$T/run.txt"
first_pre "$P" >"$T/pre.txt"
cmp -s "$T/run.txt" "$T/pre.txt" && ok || bad "run page: the table differs from run's"
# self-contained: nothing to fetch, and the one script is inline
grep -Eq 'src=|href=|url\(|@import' "$P" && bad "run page fetches something" || ok
[ "$(grep -c '<script' "$P")" -eq 1 ] && ok || bad "run page: one inline script"
tail -n 1 "$P" | grep -q '^</html>$' && ok || bad "run page: complete"
# -o - writes the page to standard output
$S report $M -p ht -w $W -o - >"$T/stdout.html" 2>"$T/err" && grep -q '</html>' "$T/stdout.html" &&
	[ ! -s "$T/err" ] && ok || bad "report -o -"

# run --html: the table as usual, and the same page
$S run $M -p ht -p o1:version=2.5.33 -w $W --html "$T/run2.html" >"$T/run2.txt"
cmp -s "$T/run.txt" "$T/run2.txt" && ok || bad "run --html: the table changed"
first_pre "$T/run2.html" | cmp -s - "$T/run.txt" && ok || bad "run --html: the page's table"
[ "$(grep -c '<svg class="timeline"' "$T/run2.html")" -eq 2 ] && ok || bad "run --html: timelines"
expect_exit 2 $S run $M -p ht -w $W --html - --trace -
expect_err "at most one on standard output"

# ---- escaping: a label and a task name from input ----
cat >"$T/tasks.json" <<'JSON'
{ "tasks" : { "<i>x&'" : { "loop" : 5, "run" : 1000, "sleep" : 1000 } },
  "global" : { "duration" : 1 } }
JSON
expect_exit 0 $S report $M -p 'ht:label=<b>&x"' -w "rtapp:file=$T/tasks.json" -o "$T/esc.html"
grep -q '&lt;b&gt;&amp;x&quot;' "$T/esc.html" && ok || bad "escaped label"
grep -q "&lt;i&gt;x&amp;&#39; (group 1) 1001, CPU" "$T/esc.html" && ok || bad "escaped task name"
grep -q '<b>&\|<i>x' "$T/esc.html" && bad "raw markup from input" || ok

# ---- the slice bound: two kernbench runs of more than half the budget each ----
expect_exit 0 $S report $M -p ht -p o1:version=2.5.33 -w kernbench:jobs=2 -o "$T/big.html"
n=$(grep -c '<rect class="k' "$T/big.html")
[ "$n" -ge 40000 ] && [ "$n" -le 40008 ] && ok || bad "slice bound: $n slices (budget 40000 + a CPU each)"
[ "$(grep -c 'The run had more than 20000 slices' "$T/big.html")" -eq 2 ] && ok ||
	bad "slice bound: the page says where it cut"

# ---- an experiment's page ----
expect_exit 0 $S report seed-000 -r 1 --row 'make -j2 bzImage' -o "$T/exp.html"
E="$T/exp.html"
grep -q '<h3>What the CPUs ran: make -j2 bzImage</h3>' "$E" && ok || bad "experiment page: --row"
grep -q '<svg class="exp"' "$E" && ok || bad "experiment page: charts"
[ "$(grep -c '<path class="pub' "$E")" -ge 20 ] && ok || bad "experiment page: published markers"
grep -q 'class="pub miss"' "$E" && ok || bad "experiment page: misses marked"
[ "$(grep -c '<svg class="timeline"' "$E")" -eq 3 ] && ok || bad "experiment page: a timeline per column"
$S reproduce seed-000 -r 1 >"$T/exp.txt"
first_pre "$E" >"$T/epre.txt"
cmp -s "$T/exp.txt" "$T/epre.txt" && ok || bad "experiment page: the table differs from reproduce's"

# ---- bad input: exit 2, one line, no file ----
expect_exit 2 $S report $M -p ht -w $W
expect_err "missing -o FILE"
expect_exit 2 $S report -o "$T/x.html"
expect_err "nothing to run"
expect_exit 2 $S report seed-000 $M -o "$T/x.html"
expect_err "either"
expect_exit 2 $S report seed-000 -s 3 -o "$T/x.html"
expect_err "own seeds"
expect_exit 2 $S report no-such-experiment -o "$T/x.html"
expect_err "no-such-experiment"
expect_exit 2 $S report $M -p nosuchpolicy -w $W -o "$T/x.html"
expect_err "nosuchpolicy"
expect_exit 2 $S report $M -p ht -w $W -o "$T/no/such/dir/x.html"
expect_err "cannot write beside it"
expect_exit 2 $S report seed-000 --row 'make -j9' -o "$T/x.html"
expect_err "no such row"
expect_exit 2 $S report $M -p ht -w $W --row x -o "$T/x.html"
expect_err "is for experiments"
expect_exit 2 $S report $M -p ht -w $W -o "$T/x.html" --frobnicate
expect_err "unknown option '--frobnicate'"
[ ! -e "$T/x.html" ] && [ -z "$(ls "$T" | grep 'x.html')" ] && ok || bad "a failed report left a file"

# ---- in a real browser ----
if ! command -v chromium >/dev/null 2>&1; then
	echo "test_report: SKIP the browser checks: chromium is not installed" \
		"(Debian: apt-get install chromium; .ci/run installs it)"
	finish report
	exit 0
fi
browse() {	# browse LOG ARGS...: headless Chromium, its console on LOG
	log=$1; shift
	timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile" \
		--enable-logging=stderr --v=0 "$@" 2>"$log"
}
browse "$T/log1" --dump-dom "file://$P" >"$T/dom.html"
[ "$(grep -o '<svg class="timeline"' "$T/dom.html" | wc -l)" -eq 2 ] && ok || bad "DOM: timelines"
[ "$(grep -o '<svg class="cdf"' "$T/dom.html" | wc -l)" -eq 2 ] && ok || bad "DOM: CDFs"
[ "$(grep -o '<rect class="k' "$T/dom.html" | wc -l)" -eq "$(grep -c '<rect class="k' "$P")" ] &&
	ok || bad "DOM: every slice parsed"
grep -q ':CONSOLE' "$T/log1" && bad "console messages: $(grep ':CONSOLE' "$T/log1")" || ok
browse "$T/log4" --dump-dom "file://$E" >"$T/edom.html"
[ "$(grep -o '<svg class="exp"' "$T/edom.html" | wc -l)" -eq "$(grep -c '<svg class="exp"' "$E")" ] &&
	ok || bad "DOM: experiment charts"
grep -q ':CONSOLE' "$T/log4" && bad "console messages: $(grep ':CONSOLE' "$T/log4")" || ok
# the zoom: a copy of the page that zooms the first timeline when loaded
# (the buttons' calls, then a click on the lanes)
sed 's|^</body>$|<script>tz("tl0","in");tz("tl0","r");tz("tl0","out");tz("tl0","in",.25);\
document.getElementById("tl0").dispatchEvent(new MouseEvent("click",{clientX:600}));\
document.body.setAttribute("data-zoom",document.getElementById("tl0").getAttribute("viewBox")+\
"/"+document.getElementsByClassName("tk-tl0")[0].textContent)</script>\n</body>|' "$P" >"$T/zoom.html"
browse "$T/log2" --dump-dom "file://$T/zoom.html" >"$T/zdom.html"
z=$(grep -o 'data-zoom="[^"]*"' "$T/zdom.html")
before=$(grep -o '<svg id="tl0"[^>]*viewBox="[^"]*"' "$P" | sed 's/.*viewBox="//; s/"$//')
[ -n "$z" ] && ! printf '%s' "$z" | grep -q "\"$before/" && ok || bad "zoom: viewBox $before -> $z"
grep -q ':CONSOLE' "$T/log2" && bad "console messages when zooming: $(grep ':CONSOLE' "$T/log2")" || ok
# a screenshot (the README's, docs/img/report.png, is made the same way)
if sh "$(dirname "$0")/../../scripts/report-screenshot.sh" "$S" "$T/shot.png" 2>"$T/log3" &&
	[ "$(head -c 8 "$T/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	[ "$(wc -c <"$T/shot.png")" -gt 20000 ]; then
	ok
else
	bad "screenshot: $(cat "$T/log3")"
fi
finish report
