# leaderboard_fixture.sh - sourced by the leaderboard tests: two runs in $tmp.
# run-a/ is a run folder (journal.jsonl and a report/index.html) with level 1
# only: the answer and a sample twice as fast, one that does not compile.
# b.jsonl is a bare journal over levels 1 and 2 with a 20x (suspect) speedup
# and a mismatch. expected_figures FILE writes "data-k<TAB>text" lines from
# `npukb report --json` output, as the leaderboard page must show them.
mkdir -p "$tmp/run-a/report"
echo '<!DOCTYPE html><title>run A</title><p>run A</p>' >"$tmp/run-a/report/index.html"
v() { # run task sample case stage outcome [extra json]
	c=null
	[ "$4" = - ] || c="\"$4\""
	printf '{"type":"verdict","run":"%s","task":"%s","sample":"%s","case":%s,"stage":"%s","outcome":"%s"%s}\n' \
		"$1" "$2" "$3" "$c" "$5" "$6" "${7:-}"
}
{
	echo '{"type":"run","run":"RUN-A","backend":"cpusim","soc":"ascend910b2"}'
	v RUN-A level1/Math/AddCustom answer - compile pass
	v RUN-A level1/Math/AddCustom answer 0 correctness pass
	v RUN-A level1/Math/AddCustom answer 0 performance pass ',"cycles":1000,"time_us":1'
	v RUN-A level1/Math/AddCustom fast - compile pass
	v RUN-A level1/Math/AddCustom fast 0 correctness pass
	v RUN-A level1/Math/AddCustom fast 0 performance pass ',"cycles":500,"time_us":0.5'
	v RUN-A level1/Math/AddCustom broken - compile fail ',"category":"api-signature"'
} >"$tmp/run-a/journal.jsonl"
{
	echo '{"type":"run","run":"RUN-B","label":"model-b <v2>","backend":"cpusim","soc":"ascend910b2"}'
	v RUN-B level1/Math/AddCustom answer - compile pass
	v RUN-B level1/Math/AddCustom answer 0 correctness pass
	v RUN-B level1/Math/AddCustom answer 0 performance pass ',"cycles":1000,"time_us":1'
	v RUN-B level1/Math/AddCustom s1 - compile pass
	v RUN-B level1/Math/AddCustom s1 0 correctness pass
	v RUN-B level1/Math/AddCustom s1 0 performance pass ',"cycles":50,"time_us":0.05'
	v RUN-B level2/Norm/RmsNorm s1 - compile pass
	v RUN-B level2/Norm/RmsNorm s1 0 correctness fail ',"category":"mismatch"'
} >"$tmp/b.jsonl"

expected_figures() { # report.json -> data-k<TAB>text<TAB>raw lines
	# text: as the page formats it (shares as percentages with one decimal,
	# speedups with two and an x); raw: the data-v beside it ("-": none)
	node -e '
const runs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs;
const out = [];
const pct = (v) => (v * 100).toFixed(1) + "%";
const spd = (v) => v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + "x";
const fig = (k, f, na, fmt) => out.push([k, f.value === null ? na : (fmt || pct)(f.value),
	f.value === null ? "" : String(f.value)]);
for (const r of runs) {
	out.push([`lb:${r.run}:label`, r.label || r.run, "-"]);
	for (const a of [...r.levels, r.overall]) {
		const k = `lb:${r.run}:${a.name}:`;
		out.push([k + "tasks", `${a.tasks - a.tasks_missing}/${a.tasks}`, "-"]);
		out.push([k + "samples", String(a.samples), "-"]);
		for (const n of Object.keys(a.compile_pass_at_k)) fig(k + "compile-" + n, a.compile_pass_at_k[n], "n<k");
		for (const n of Object.keys(a.correct_pass_at_k)) fig(k + "correct-" + n, a.correct_pass_at_k[n], "n<k");
		for (const p of Object.keys(a.fast_p)) fig(k + "fast-" + p, a.fast_p[p], "n/a");
		fig(k + "speedup", a.geomean_speedup, "n/a", spd);
		out.push([k + "suspect", String(a.suspect_speedups), "-"]);
	}
	if (r.npukernelbench_score) fig(`lb:${r.run}:npukernelbench-score`, r.npukernelbench_score, "n/a");
	if (r.fast0_weighted_score) fig(`lb:${r.run}:fast0-weighted-score`, r.fast0_weighted_score, "n/a");
	if (r.weighted_score && !r.npukernelbench_score && !r.fast0_weighted_score)
		fig(`lb:${r.run}:weighted`, r.weighted_score, "n/a");
}
console.log(out.map((x) => x.join("\t")).join("\n"));
' "$1"
}
