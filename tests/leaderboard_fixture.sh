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
	echo '{"type":"run","run":"RUN-B","backend":"cpusim","soc":"ascend910b2"}'
	v RUN-B level1/Math/AddCustom answer - compile pass
	v RUN-B level1/Math/AddCustom answer 0 correctness pass
	v RUN-B level1/Math/AddCustom answer 0 performance pass ',"cycles":1000,"time_us":1'
	v RUN-B level1/Math/AddCustom s1 - compile pass
	v RUN-B level1/Math/AddCustom s1 0 correctness pass
	v RUN-B level1/Math/AddCustom s1 0 performance pass ',"cycles":50,"time_us":0.05'
	v RUN-B level2/Norm/RmsNorm s1 - compile pass
	v RUN-B level2/Norm/RmsNorm s1 0 correctness fail ',"category":"mismatch"'
} >"$tmp/b.jsonl"

expected_figures() { # report.json -> data-k<TAB>text lines
	node -e '
const runs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs;
const out = [];
const fig = (f, na) => (f.value === null ? na : String(f.value));
for (const r of runs) {
	for (const a of [...r.levels, r.overall]) {
		const k = `lb:${r.run}:${a.name}:`;
		out.push([k + "tasks", `${a.tasks - a.tasks_missing}/${a.tasks}`]);
		out.push([k + "samples", String(a.samples)]);
		for (const n of Object.keys(a.compile_pass_at_k)) out.push([k + "compile-" + n, fig(a.compile_pass_at_k[n], "n<k")]);
		for (const n of Object.keys(a.correct_pass_at_k)) out.push([k + "correct-" + n, fig(a.correct_pass_at_k[n], "n<k")]);
		for (const p of Object.keys(a.fast_p)) out.push([k + "fast-" + p, fig(a.fast_p[p], "n/a")]);
		out.push([k + "speedup", fig(a.geomean_speedup, "n/a")]);
		out.push([k + "suspect", String(a.suspect_speedups)]);
	}
	out.push([`lb:${r.run}:weighted`, fig(r.fast0_weighted_score, "n/a")]);
}
console.log(out.map((x) => x.join("\t")).join("\n"));
' "$1"
}
