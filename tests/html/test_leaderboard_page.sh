#!/bin/sh
# test_leaderboard_page.sh - the leaderboard as a person meets it: headless
# Chromium opens it from file:// (one real `npukb run` folder with its run
# report, and a bare journal). Checks: every figure in the DOM the browser
# built equals `npukb report --json` over the same journals, every link
# resolves to a file or anchor and nothing points to the network, a click on
# a column heading sorts the rows, the key columns (run, scores, pass rate,
# speedup, tasks) lie inside a 1280 px window without scrolling, the chart
# has a bar per run and series matching the figures, no console message; a
# screenshot is saved
# (tests/html/leaderboard.png). Skips (77) only when chromium, xmllint or
# node is missing. Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
shots="${NPUKB_BUILDDIR:-.}/tests/html"
chromium="${CHROMIUM:-}"
if [ -z "$chromium" ]; then
	for c in chromium chromium-browser; do
		command -v "$c" >/dev/null 2>&1 && { chromium=$(command -v "$c"); break; }
	done
fi
[ -n "$chromium" ] || { echo "SKIP: chromium is not installed"; exit 77; }
for t in node xmllint; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t is not installed"; exit 77; }
done
tmp=$(mktemp -d /tmp/npukb-lbhtml-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$shots"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check_eq() { if [ "$2" = "$3" ]; then ok; else bad "$1: the page says '$2', want '$3'"; fi; }
browse() { # url, then extra flags; stdout: the DOM; $tmp/console: its log
	url=$1
	shift
	rm -rf "$tmp/profile"
	timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
		"$@" "$url" 2>"$tmp/console.raw"
	grep 'CONSOLE' "$tmp/console.raw" >"$tmp/console" || true
}
. "$src/tests/leaderboard_fixture.sh"

# a real run folder beside the fixture's: its report is what the links reach
"$npukb" run --task level1/Math/AddCustom --seeds 1 \
	--sample "$src/tests/samples/AddCustom/single_buffer" -o "$tmp/run-real" >"$tmp/out" 2>&1
[ -f "$tmp/run-real/report/index.html" ] && ok || { bad "the run wrote no report"; cat "$tmp/out"; }
"$npukb" leaderboard "$tmp/run-real" "$tmp/run-a" "$tmp/b.jsonl" -o "$tmp/lb" >"$tmp/out" 2>&1 &&
	ok || { bad "npukb leaderboard failed"; cat "$tmp/out"; }
"$npukb" report --json - "$tmp/run-real/journal.jsonl" "$tmp/run-a/journal.jsonl" "$tmp/b.jsonl" \
	>"$tmp/report.json" && ok || bad "npukb report --json failed"
expected_figures "$tmp/report.json" >"$tmp/expected" || bad "node could not read the JSON"

browse "file://$tmp/lb/index.html" --dump-dom >"$tmp/dom"
if [ -s "$tmp/console" ]; then bad "console messages:"; cat "$tmp/console"; else ok; fi
n=0
while IFS="$(printf '\t')" read -r key want raw; do
	got=$(xmllint --html --xpath "normalize-space(//*[@data-k='$key'])" "$tmp/dom" 2>/dev/null)
	n=$((n + 1))
	check_eq "$key" "$got" "$want"
	[ "$raw" = - ] ||
		check_eq "$key data-v" "$(xmllint --html --xpath "string(//*[@data-k='$key']/@data-v)" "$tmp/dom" 2>/dev/null)" "$raw"
done <"$tmp/expected"
[ "$n" -ge 70 ] && ok || bad "only $n figures compared"
# a run's label stands for it; its run id stays in small print
check_eq "run B's label" "$(xmllint --html --xpath "normalize-space((//*[@data-k='lb:RUN-B:label'])[1])" "$tmp/dom" 2>/dev/null)" "model-b <v2>"
check_eq "run B's id beside its label" \
	"$(xmllint --html --xpath "count((//tr[@data-run='RUN-B'])[1]//small[contains(@class,'runid')][contains(., 'RUN-B')])" "$tmp/dom" 2>/dev/null)" 1
check_eq "run B's label in the chart" \
	"$(xmllint --html --xpath "count(//*[@data-k='lb-chart']//*[local-name()='text'][normalize-space(text()[last()])='model-b <v2>'])" "$tmp/dom" 2>/dev/null)" 1
echo "leaderboard page: $n figures compared with npukb report --json"

# links: files exist (relative to the page), anchors exist, no network
xmllint --html --xpath '//@href | //@src' "$tmp/dom" 2>/dev/null |
	sed -n 's/^ *\(href\|src\)="\([^"]*\)"$/\2/p' | sort -u >"$tmp/links"
grep -q 'run-real/report/index.html' "$tmp/links" && ok || bad "no link to the real run's report"
grep -q 'run-a/report/index.html' "$tmp/links" && ok || bad "no link to run A's report"
while read -r link; do
	case "$link" in
	data:*) ok ;;
	http:* | https:* | //*) bad "links to the network: $link" ;;
	\#*) grep -q "id=\"${link#\#}\"" "$tmp/dom" && ok || bad "anchor $link has no target" ;;
	*) [ -e "$tmp/lb/${link%%#*}" ] && ok || bad "link $link does not resolve" ;;
	esac
done <"$tmp/links"
# the linked run report opens without console messages
browse "file://$tmp/run-real/report/index.html" --dump-dom >"$tmp/run.dom"
if [ -s "$tmp/console" ]; then bad "console messages on the run report:"; cat "$tmp/console"; else ok; fi

# sorting: a page that clicks the compile@1 heading of the first table
# twice, then lists the run order (descending, then ascending)
cat >"$tmp/lb/sort-check.html" <<'HTML'
<!DOCTYPE html><html><body><iframe id="f" src="index.html"></iframe><pre id="out"></pre>
<script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, t = d.querySelector("table.board");
  var ths = t.querySelectorAll("thead th"), col = -1, res = [];
  ths.forEach(function (th, i) { if (th.textContent.trim() === "compile@1") col = i; });
  function order() {
    return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
      return r.getAttribute("data-run") + "=" + r.cells[col].getAttribute("data-v"); }).join(" ");
  }
  ths[col].click(); res.push(order());
  ths[col].click(); res.push(order());
  document.getElementById("out").textContent = res.join("\n");
};
</script></body></html>
HTML
browse "file://$tmp/lb/sort-check.html" --allow-file-access-from-files --virtual-time-budget=5000 \
	--dump-dom >"$tmp/sort.dom"
desc=$(xmllint --html --xpath "string(//pre[@id='out'])" "$tmp/sort.dom" 2>/dev/null | sed -n 1p)
asc=$(xmllint --html --xpath "string(//pre[@id='out'])" "$tmp/sort.dom" 2>/dev/null | sed -n 2p)
want_desc=$(node -e '
const runs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs;
const v = runs.map((r) => [r.run, r.overall.compile_pass_at_k["1"].value]);
v.sort((a, b) => b[1] - a[1]);
console.log(v.map((x) => x[0] + "=" + x[1]).join(" "));' "$tmp/report.json")
check_eq "sorted by compile@1, descending" "$desc" "$want_desc"
[ -n "$asc" ] && [ "$asc" != "$desc" ] && ok || bad "a second click does not reverse the order ('$asc')"
rm -f "$tmp/lb/sort-check.html"

# the key columns fit a 1280 px window: the page opens in a 1280 px wide
# frame, and each key heading of the first table must lie inside both the
# window and the table's scroll box (nothing to scroll to see it)
cat >"$tmp/lb/fit-check.html" <<'HTML'
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="index.html" style="border:0;width:1280px;height:900px"></iframe><pre id="out"></pre>
<script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, res = [];
  var t = d.querySelector("table.board"), box = t.closest(".scroll") || t;
  var vw = d.documentElement.clientWidth, b = box.getBoundingClientRect();
  t.querySelectorAll("thead th[data-col]").forEach(function (th) {
    var r = th.getBoundingClientRect();
    var inside = r.width > 0 && r.left >= Math.max(0, b.left) - 0.5 &&
      r.right <= Math.min(vw, b.right) + 0.5;
    res.push(th.getAttribute("data-col") + "=" + (inside ? "visible" : "hidden:" + Math.round(r.right)));
  });
  res.push("page-scroll=" + (d.documentElement.scrollWidth > vw ? "yes" : "no"));
  document.getElementById("out").textContent = res.join(" ");
};
</script></body></html>
HTML
browse "file://$tmp/lb/fit-check.html" --allow-file-access-from-files --window-size=1300,1000 \
	--virtual-time-budget=5000 --dump-dom >"$tmp/fit.dom"
fit=$(xmllint --html --xpath "string(//pre[@id='out'])" "$tmp/fit.dom" 2>/dev/null)
echo "at 1280 px: $fit"
for col in run pass-rate speedup tasks; do
	case " $fit " in *" $col=visible "*) ok ;; *) bad "column $col is not visible at 1280 px ($fit)" ;; esac
done
case "$fit" in *score-*=visible*) ok ;; *) bad "no score column visible at 1280 px ($fit)" ;; esac
case "$fit" in *hidden*) bad "a key column is hidden at 1280 px ($fit)" ;; *) ok ;; esac
case "$fit" in *page-scroll=no*) ok ;; *) bad "the page scrolls sideways at 1280 px ($fit)" ;; esac
rm -f "$tmp/lb/fit-check.html"

# the chart: one bar per run and series; the pass-rate bar of each run is
# its overall correct@1 (as data-v), 320 px for 100 %
nruns=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs.length)' "$tmp/report.json")
check_eq "chart present" "$(xmllint --html --xpath "count(//*[local-name()='svg'][@data-k='lb-chart'])" "$tmp/dom" 2>/dev/null)" 1
check_eq "pass-rate bars" "$(xmllint --html --xpath "count(//*[@data-k='lb-chart']//*[@data-series='correct-1'])" "$tmp/dom" 2>/dev/null)" "$nruns"
nser=$(xmllint --html --xpath "count(//*[@data-k='lb-chart']//*[local-name()='rect'][@data-run=//tr[1]/@data-run])" "$tmp/dom" 2>/dev/null)
[ "$nser" -ge 2 ] && ok || bad "the chart shows $nser series per run, want a score and the pass rate"
check_eq "bars" "$(xmllint --html --xpath "count(//*[@data-k='lb-chart']//*[local-name()='rect'][@data-run])" "$tmp/dom" 2>/dev/null)" "$((nruns * nser))"
node -e '
for (const r of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs) {
	const v = r.overall.correct_pass_at_k["1"].value;
	console.log(r.run + "\t" + (v === null ? "" : v) + "\t" + (v === null ? 0 : Math.round(320 * Math.min(v, 1))));
}' "$tmp/report.json" >"$tmp/bars"
while IFS="$(printf '\t')" read -r run v w; do
	bar="//*[@data-k='lb-chart']//*[@data-series='correct-1'][@data-run='$run']"
	check_eq "$run pass-rate bar value" "$(xmllint --html --xpath "string($bar/@data-v)" "$tmp/dom" 2>/dev/null)" "$v"
	check_eq "$run pass-rate bar width" "$(xmllint --html --xpath "string($bar/@width)" "$tmp/dom" 2>/dev/null)" "$w"
done <"$tmp/bars"

browse "file://$tmp/lb/index.html" --window-size=1280,900 --screenshot="$shots/leaderboard.png" >/dev/null
[ -s "$shots/leaderboard.png" ] && ok || bad "no screenshot"
echo "screenshot: $shots/leaderboard.png"
echo "leaderboard page: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
