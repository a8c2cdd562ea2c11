#!/bin/sh
# test_report_page.sh - the HTML run report as a person meets it: headless
# Chromium opens report/index.html and every sample page from file://.
# Checks: the figures on the page equal the run's own counts (summary.txt
# and journal.jsonl, counted here independently of the templates), the
# metrics section equals `npukb report --json` for the run's journal, every
# link resolves to a file or an anchor that exists and nothing points to the
# network, the browser logs no console message, and screenshots are saved
# under the build tree (tests/html/*.png). Also: the model samples come
# before the answers, failing ones first; the filter (text, outcome,
# category) shows the rows it should; a sample page shows the sample's source
# line by line, marks the line results.xml names (at-file, at-line), and
# plots each mismatch's bad elements. Skips (exit 77) only when
# chromium, xmllint or node is missing. Prints "N passed, N failed".
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
if [ -z "$chromium" ]; then
	echo "SKIP: chromium is not installed (scripts/setup-debian.sh installs Debian's chromium)"
	exit 77
fi
if ! command -v xmllint >/dev/null 2>&1; then
	echo "SKIP: xmllint is not installed (Debian package libxml2-utils)"
	exit 77
fi
if ! command -v node >/dev/null 2>&1; then
	echo "SKIP: node is not installed (scripts/setup-debian.sh installs nodejs)"
	exit 77
fi

tmp=$(mktemp -d /tmp/npukb-html-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$shots"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check_eq() { # what got want
	if [ "$2" = "$3" ]; then ok; else bad "$1: the page says '$2', the run says '$3'"; fi
}

# One browser per page, as the machine's closed network wants it: no
# background connections, a fresh profile each time.
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

# ---- the run: an answer that passes, a wrong result, a compile error, a ----
# ---- correct but slower sample (a speedup below 1) ------------------------
"$npukb" run --task level1/Math/AddCustom --seeds 1 \
	--sample "$src/tests/samples/AddCustom/wrong_result" \
	--sample "$src/tests/samples/AddCustom/single_buffer" \
	--sample "$src/tests/samples/AddCustom/compile_error" -o "$tmp/r" >"$tmp/out" 2>&1
status=$?
[ "$status" -eq 1 ] && ok || { bad "npukb exit $status, expected 1"; cat "$tmp/out"; }
report="$tmp/r/report"
[ -f "$report/index.html" ] && ok || { bad "no report/index.html"; echo "html: $pass passed, $fail failed"; exit 1; }

# ---- the run's own counts ----------------------------------------------------
last=$(tail -n 1 "$tmp/r/summary.txt")
n_passed=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, .*/\1/p')
n_failed=$(echo "$last" | sed -n 's/.* \([0-9]*\) failed, .*/\1/p')
n_skipped=$(echo "$last" | sed -n 's/.* \([0-9]*\) skipped$/\1/p')
n_units=$((n_passed + n_failed + n_skipped))
j="$tmp/r/journal.jsonl"
n_samples=$(grep -c '"stage":"compile","outcome":' "$j")
n_compiled=$(grep -c '"stage":"compile","outcome":"pass"' "$j")
n_mismatch=$(grep -c '"stage":"classify","outcome":"fail","category":"mismatch"' "$j")
n_apisig=$(grep -c '"stage":"classify","outcome":"fail","category":"api-signature"' "$j")
echo "run: $n_units units, $n_passed passed, $n_failed failed, $n_skipped skipped;" \
	"$n_samples samples, $n_compiled compiled; mismatch $n_mismatch, api-signature $n_apisig"
[ "$n_passed" -gt 0 ] && [ "$n_failed" -gt 0 ] && [ "$n_mismatch" -gt 0 ] && [ "$n_apisig" -gt 0 ] &&
	ok || bad "the run lacks a pass, a mismatch or a compile failure: the test would prove little"

# ---- index.html as the browser built it --------------------------------------
browse "file://$report/index.html" --dump-dom >"$tmp/index.dom"
grep -q 'data-k="all-units"' "$tmp/index.dom" && ok || bad "the browser shows no summary table"
if [ -s "$tmp/console" ]; then bad "console messages on index.html:"; cat "$tmp/console"; else ok; fi
val() { xmllint --html --xpath "normalize-space(//*[@data-k='$2'])" "$1" 2>/dev/null; }
check_eq "units" "$(val "$tmp/index.dom" all-units)" "$n_units"
check_eq "passed" "$(val "$tmp/index.dom" all-passed)" "$n_passed"
check_eq "failed" "$(val "$tmp/index.dom" all-failed)" "$n_failed"
check_eq "skipped" "$(val "$tmp/index.dom" all-skipped)" "$n_skipped"
check_eq "level 1 units" "$(val "$tmp/index.dom" level1-units)" "$n_units"
check_eq "samples" "$(val "$tmp/index.dom" all-samples)" "$n_samples"
check_eq "compiled" "$(val "$tmp/index.dom" all-compiled)" "$n_compiled"
check_eq "mismatch failures" "$(val "$tmp/index.dom" fail-mismatch)" "mismatch $n_mismatch"
check_eq "api-signature failures" "$(val "$tmp/index.dom" fail-api-signature)" "api-signature $n_apisig"
run_id=$(sed -n 's/^{"type":"run","run":"\([^"]*\)".*/\1/p' "$j")
check_eq "run id" "$(val "$tmp/index.dom" run-id)" "$run_id"
check_eq "charts" "$(xmllint --html --xpath "count(//*[local-name()='svg'])" "$tmp/index.dom" 2>/dev/null)" 3
check_eq "metrics section" "$(xmllint --html --xpath "count(//*[@id='metrics'])" "$tmp/index.dom" 2>/dev/null)" 1

# ---- the metrics section equals `npukb report --json` for the same journal --
# node flattens the JSON into "data-k<TAB>expected text<TAB>raw" lines: a
# figure that is not available shows n<k (pass@k) or n/a; shares show as
# percentages with one decimal, speedups with two and an x; the raw value
# (data-v; "-": none) compares as a number with the JSON's.
"$npukb" report --json - "$j" >"$tmp/report.json" 2>"$tmp/report.err" && ok ||
	{ bad "npukb report --json failed"; cat "$tmp/report.err"; }
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
const out = [];
const pct = (v) => (v * 100).toFixed(1) + "%";
const spd = (v) => v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + "x";
const fig = (k, f, na, fmt) => out.push([k, f.value === null ? na : (fmt || pct)(f.value),
	f.value === null ? "-" : String(f.value)]);
for (const a of [...r.levels, r.overall]) {
	const n = a.name;
	out.push([`m-${n}-tasks`, a.tasks_missing ? `${a.tasks} (${a.tasks_missing} missing)` : String(a.tasks), "-"]);
	out.push([`m-${n}-samples`, String(a.samples), "-"]);
	for (const k of Object.keys(a.compile_pass_at_k)) fig(`m-${n}-compile-${k}`, a.compile_pass_at_k[k], "n<k");
	for (const k of Object.keys(a.correct_pass_at_k)) fig(`m-${n}-correct-${k}`, a.correct_pass_at_k[k], "n<k");
	for (const p of Object.keys(a.fast_p)) fig(`m-${n}-fast-${p}`, a.fast_p[p], "n/a");
	fig(`m-${n}-speedup`, a.geomean_speedup, "n/a", spd);
	for (const c of a.categories) fig(`m-${n}-share-${c.category}`, { value: c.share });
}
if (r.npukernelbench_score) fig("m-npukernelbench-score", r.npukernelbench_score, "n/a");
if (r.fast0_weighted_score) fig("m-fast0-weighted-score", r.fast0_weighted_score, "n/a");
if (r.weighted_score && !r.npukernelbench_score && !r.fast0_weighted_score)
	fig("m-weighted-score", r.weighted_score, "n/a");
out.push(["speedups", String(r.overall.speedups), "-"]);
console.log(out.map((x) => x.join("\t")).join("\n"));
' "$tmp/report.json" >"$tmp/expected" || bad "node could not read the JSON report"
nfig=0
while IFS="$(printf '\t')" read -r key want raw; do
	if [ "$key" = speedups ]; then
		got=$(xmllint --html --xpath "sum(//*[@data-k='m-speedup-chart']//*[@data-n]/@data-n)" "$tmp/index.dom" 2>/dev/null)
		check_eq "speedups in the distribution chart" "$got" "$want"
		[ "$want" -gt 0 ] && ok || bad "the run has no speedup: the chart goes untested"
		continue
	fi
	nfig=$((nfig + 1))
	check_eq "metrics $key" "$(val "$tmp/index.dom" "$key")" "$want"
	[ "$raw" = - ] && continue
	got=$(xmllint --html --xpath "string(//*[@data-k='$key']/@data-v)" "$tmp/index.dom" 2>/dev/null)
	if awk -v a="$got" -v b="$raw" 'BEGIN { if (a ~ /^-?[0-9.e+-]+$/ && b ~ /^-?[0-9.e+-]+$/) exit !(a + 0 == b + 0); exit 1 }'; then
		ok
	else
		check_eq "metrics $key data-v" "$got" "$raw"
	fi
done <"$tmp/expected"
echo "metrics: $nfig figures compared with npukb report --json"
[ "$nfig" -ge 30 ] && ok || bad "only $nfig metrics figures compared"
grep -q 'n&lt;k\|n<k' "$tmp/index.dom" && ok || bad "no n<k marker on the page"

# ---- links: every file exists, every anchor exists, nothing on the network --
check_links() { # dom file, page name
	xmllint --html --xpath '//@href | //@src' "$1" 2>/dev/null |
		sed -n 's/^ *\(href\|src\)="\([^"]*\)"$/\2/p' >"$tmp/links"
	[ -s "$tmp/links" ] || { bad "$2: no links found"; return; }
	while read -r link; do
		case "$link" in
		data:*) ok ;;
		http:* | https:* | //*) bad "$2 links to the network: $link" ;;
		\#*)
			id=${link#\#}
			if grep -q "id=\"$id\"" "$1"; then ok; else bad "$2: anchor $link has no target"; fi
			;;
		*)
			f=${link%%#*}
			if [ -e "$report/$f" ]; then ok; else bad "$2: link $link does not resolve"; fi
			;;
		esac
	done <"$tmp/links"
}
check_links "$tmp/index.dom" index.html

# ---- every sample page --------------------------------------------------------
pages=$(xmllint --html --xpath "//table[@class='tasks']//a/@href" "$tmp/index.dom" 2>/dev/null |
	sed -n 's/^ *href="\([^"]*\)"$/\1/p')
check_eq "sample pages linked" "$(echo "$pages" | grep -c .)" "$n_samples"
for p in $pages; do
	browse "file://$report/$p" --dump-dom >"$tmp/page.dom"
	cp "$tmp/page.dom" "$tmp/dom-$p" # read again below
	if [ -s "$tmp/console" ]; then bad "console messages on $p:"; cat "$tmp/console"; else ok; fi
	check_eq "$p run id" "$(val "$tmp/page.dom" run-id)" "$run_id"
	sample=$(xmllint --html --xpath "string(//h1)" "$tmp/page.dom" 2>/dev/null |
		sed 's/^.* — //; s/ expert answer$//')
	# the page lists as many cases, and as many failing ones, as summary.txt
	want_cases=$(awk -F'\t' -v s="$sample" '$2 == s' "$tmp/r/summary.txt" | grep -c .)
	want_fail=$(awk -F'\t' -v s="$sample" '$2 == s && $4 == "fail"' "$tmp/r/summary.txt" | grep -c .)
	check_eq "$p cases" "$(xmllint --html --xpath "count(//table[@class='cases']/tbody/tr)" "$tmp/page.dom" 2>/dev/null)" "$want_cases"
	check_eq "$p failing cases" "$(xmllint --html --xpath "count(//table[@class='cases']/tbody/tr[.//span[contains(@class,'fail')]])" "$tmp/page.dom" 2>/dev/null)" "$want_fail"
	check_links "$tmp/page.dom" "$p"
done

# ---- model samples first, failing ones first; the answers after --------------
units=$(grep '"type":"unit"' "$j")
n_model=$(echo "$units" | grep -c '"answer":false')
n_answers=$(echo "$units" | grep -c '"answer":true')
model_failing=$(awk -F'\t' '$2 != "answer" && $4 == "fail" { print $2 }' "$tmp/r/summary.txt" | sort -u)
n_model_failing=$(echo "$model_failing" | grep -c .)
n_api=$(awk -F'\t' '$2 != "answer" && $5 == "api-signature" { print $2 }' "$tmp/r/summary.txt" | sort -u | grep -c .)
check_eq "model sample rows" "$(xmllint --html --xpath "count(//table[@id='sample-rows']/tbody/tr)" "$tmp/index.dom" 2>/dev/null)" "$n_model"
check_eq "answer rows" "$(xmllint --html --xpath "count(//table[@id='answer-rows']/tbody/tr)" "$tmp/index.dom" 2>/dev/null)" "$n_answers"
check_eq "the model samples come before the answers" \
	"$(xmllint --html --xpath "count(//section[@id='samples']/following::section[@id='answers'])" "$tmp/index.dom" 2>/dev/null)" 1
order=$(xmllint --html --xpath "//table[@id='sample-rows']/tbody/tr/@data-outcome" "$tmp/index.dom" 2>/dev/null |
	sed -n 's/^ *data-outcome="\([^"]*\)"$/\1/p' | tr '\n' ' ')
echo "model sample outcomes in page order: $order"
case "$order" in *fail*) ok ;; *) bad "no failing model sample: the order goes untested" ;; esac
case "$order" in *pass*fail* | *skipped*fail*) bad "a failing sample after a passing one: $order" ;; *) ok ;; esac
for smp in $model_failing; do
	check_eq "$smp is marked failing" \
		"$(xmllint --html --xpath "string(//table[@id='sample-rows']/tbody/tr[@data-sample='$smp']/@data-outcome)" "$tmp/index.dom" 2>/dev/null)" fail
done

# ---- the filter: the browser types and picks, a frame counts the rows --------
cat >"$report/filter-check.html" <<'HTML'
<!DOCTYPE html><html><body><iframe id="f" src="index.html"></iframe><pre id="out"></pre>
<script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, res = [];
  var text = d.getElementById("filter-text"), oc = d.getElementById("filter-outcome"),
      cat = d.getElementById("filter-category");
  function set(el, v) { el.value = v; el.dispatchEvent(new Event("input")); el.dispatchEvent(new Event("change")); }
  function shown() {
    return Array.prototype.filter.call(d.querySelectorAll("#sample-rows tbody tr"),
      function (r) { return !r.hidden && r.getBoundingClientRect().height > 0; })
      .map(function (r) { return r.getAttribute("data-sample"); }).sort().join(",");
  }
  res.push("all=" + shown());
  set(oc, "fail"); res.push("fail=" + shown());
  set(oc, "pass"); res.push("pass=" + shown());
  set(oc, ""); set(text, "WRONG_res"); res.push("text=" + shown());
  set(text, ""); set(cat, "api-signature"); res.push("category=" + shown());
  res.push("count=" + d.getElementById("filter-count").textContent);
  document.getElementById("out").textContent = res.join("\n");
};
</script></body></html>
HTML
browse "file://$report/filter-check.html" --allow-file-access-from-files --virtual-time-budget=5000 \
	--dump-dom >"$tmp/filter.dom"
rm -f "$report/filter-check.html"
fl() { xmllint --html --xpath "string(//pre[@id='out'])" "$tmp/filter.dom" 2>/dev/null | sed -n "s/^$1=//p"; }
list() { tr ' ' '\n' | grep . | sort | tr '\n' ',' | sed 's/,$//'; }
all_model=$(echo "$units" | grep '"answer":false' | sed 's/.*"sample":"\([^"]*\)".*/\1/' | list)
check_eq "filter: nothing set" "$(fl all)" "$all_model"
check_eq "filter: outcome fail" "$(fl fail)" "$(echo $model_failing | list)"
check_eq "filter: outcome pass" "$(fl pass)" \
	"$(for smp in $(echo "$all_model" | tr ',' ' '); do echo "$model_failing" | grep -qx "$smp" || echo "$smp"; done | list)"
check_eq "filter: text (any case)" "$(fl text)" wrong_result
check_eq "filter: category" "$(fl category)" \
	"$(awk -F'\t' '$2 != "answer" && $5 == "api-signature" { print $2 }' "$tmp/r/summary.txt" | sort -u | list)"
check_eq "filter: count" "$(fl count)" "$n_api of $n_model shown"

# ---- a sample page: the source, its failing line, the bad elements' plot -----
wr=$(echo "$pages" | grep wrong_result | head -n 1)
cp "$tmp/dom-$wr" "$tmp/wr.dom"
srcfile="$src/tests/samples/AddCustom/wrong_result/add_custom.cpp"
check_eq "source view of add_custom.cpp" \
	"$(xmllint --html --xpath "count(//section[@id='source']//details[@data-path='add_custom.cpp'])" "$tmp/wr.dom" 2>/dev/null)" 1
check_eq "source lines" \
	"$(xmllint --html --xpath "count(//details[@data-path='add_custom.cpp']//tr)" "$tmp/wr.dom" 2>/dev/null)" \
	"$(awk 'END { print NR }' "$srcfile")"
n40=$(sed -n 40p "$srcfile" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; s/[[:space:]][[:space:]]*/ /g')
check_eq "source line 40" \
	"$(xmllint --html --xpath "normalize-space(//details[@data-path='add_custom.cpp']//tr[@id='L1-40']/td[2])" "$tmp/wr.dom" 2>/dev/null)" "$n40"
bins=$(xmllint --html --xpath "count(//*[@data-k='bad-plot'])" "$tmp/wr.dom" 2>/dev/null)
check_eq "a plot of the bad elements per mismatching case" "$bins" \
	"$(awk -F'\t' '$2 == "wrong_result" && $5 == "mismatch"' "$tmp/r/summary.txt" | grep -c .)"
sum=$(xmllint --html --xpath "sum((//*[@data-k='bad-plot'])[1]//*[@data-n]/@data-n)" "$tmp/wr.dom" 2>/dev/null)
want_bad=$(xmllint --xpath "string((//sample[@id='wrong_result']/case[@outcome='fail'])[1]/correctness/errors/@bad-count)" "$tmp/r/results.xml" 2>/dev/null)
# xmllint writes big sums as 3.14513e+06: compare the bins' own figures
sum=$(xmllint --html --xpath "(//*[@data-k='bad-plot'])[1]//*[@data-n]/@data-n" "$tmp/wr.dom" 2>/dev/null |
	sed -n 's/^ *data-n="\([0-9]*\)"$/\1/p' | awk '{ s += $1 } END { print s + 0 }')
check_eq "the plot's bins add up to the bad elements" "$sum" "$want_bad"
# the line a failing case names (results.xml's at-file and at-line) is marked
for smp in $model_failing; do
	at=$(xmllint --xpath "(//sample[@id='$smp']//*[@at-file])[1]" "$tmp/r/results.xml" 2>/dev/null)
	[ -n "$at" ] || continue
	file=$(xmllint --xpath "string((//sample[@id='$smp']//*[@at-file])[1]/@at-file)" "$tmp/r/results.xml")
	line=$(xmllint --xpath "string((//sample[@id='$smp']//*[@at-file])[1]/@at-line)" "$tmp/r/results.xml")
	p=$(echo "$pages" | grep "$smp" | head -n 1)
	cp "$tmp/dom-$p" "$tmp/at.dom"
	n_marked=$((n_marked + 1))
	check_eq "$smp: the marked line" "$(xmllint --html --xpath "string(//details[@data-path='$file']//tr[contains(@class,'marked')][1]/td[1])" "$tmp/at.dom" 2>/dev/null)" "$line"
	check_eq "$smp: the header links to it" "$(xmllint --html --xpath "normalize-space(//*[@data-k='at'])" "$tmp/at.dom" 2>/dev/null)" "$file:$line"
done
echo "failing lines checked: ${n_marked:-0} (samples whose results.xml names one)"
[ "${n_marked:-0}" -ge 1 ] && ok || bad "results.xml names no failing line (at-file): the marking goes untested"

# ---- screenshots, for a person to look at ------------------------------------
browse "file://$report/index.html" --window-size=1280,1100 --screenshot="$shots/report-index.png" >/dev/null
[ -s "$shots/report-index.png" ] && ok || bad "no screenshot of index.html"
first=$(echo "$pages" | grep wrong_result | head -n 1)
browse "file://$report/$first" --window-size=1280,1100 --screenshot="$shots/report-sample.png" >/dev/null
[ -s "$shots/report-sample.png" ] && ok || bad "no screenshot of $first"
echo "screenshots: $shots/report-index.png $shots/report-sample.png"

echo "html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
