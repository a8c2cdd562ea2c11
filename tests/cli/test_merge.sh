#!/bin/sh
# test_merge.sh - `npukb run --shard I/N` and `npukb merge` (issue 17): every
# unit (task, sample) is judged by exactly one shard, an empty shard is a
# run with no verdicts, the merged journal holds the single run's verdicts
# in its order, and merge refuses (exit 3, naming the folder and what
# differs) shards that are not one run. Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-merge-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/checks.sh"

# 5 tasks x 3 samples (the answer, a wrong one, one that does not compile)
# = 15 units, with passes and failures in every stage
sel="--task level1/Comparison/Equal --task level1/Condition/IsFinite
	--task level1/Math/AddCustom --task level1/Condition/IsInf
	--task level1/Comparison/LessEqual --cases smallest-one --seeds 1 -q --label m1
	--sample $src/tests/samples/AddCustom/wrong_result
	--sample $src/tests/samples/AddCustom/compile_error"

check "--help documents --shard" 0 "$npukb" run --help
grep_out "--shard in run --help" "--shard I/N" "$tmp/out"
check "help merge" 0 "$npukb" help merge
grep_out "merge --help says what it refuses" "Refused (exit 3" "$tmp/out"
check "merge is a command" 0 "$npukb" --help
grep_out "--help lists merge" "^  merge " "$tmp/out"
for bad in 4 4/4 1/0 -1/4 " 1/4" 0/4x 0x1/4 1/ /4; do
	check "--shard '$bad' is a usage error" 2 "$npukb" run --shard "$bad" -o "$tmp/bad"
	grep_out "--shard '$bad' says why" "npukb run: --shard: '$bad'" "$tmp/err"
done
test ! -e "$tmp/bad" || { fail=$((fail + 1)); echo "FAIL: a refused --shard still ran"; }

# shellcheck disable=SC2086
# one worker writes its units in plan order, the order merge restores
check "single run" 1 "$npukb" run $sel -j 1 -o "$tmp/single"
units "$tmp/single/journal.jsonl" >"$tmp/units.single"
sort "$tmp/units.single" >"$tmp/sorted"
n=$(wc -l <"$tmp/units.single")
if [ "$n" -eq 15 ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: the single run judged $n units, expected 15"
fi

# N=16 > 15 units leaves shard 15 empty
for N in 3 16; do
	: >"$tmp/units.$N"
	dirs=""
	i=0
	while [ "$i" -lt "$N" ]; do
		# a shard without a failing unit exits 0, one with some 1
		# shellcheck disable=SC2086
		"$npukb" run $sel --shard "$i/$N" -o "$tmp/s$N-$i" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -gt 1 ]; then
			fail=$((fail + 1))
			echo "FAIL: shard $i/$N exited $rc"
			sed 's/^/  err: /' "$tmp/err" | head
		fi
		grep_out "shard $i/$N in the header" "\"shard\":\"$i/$N\",\"units\":[0-9]*,\"units_total\":15" \
			"$tmp/s$N-$i/journal.jsonl"
		units "$tmp/s$N-$i/journal.jsonl" >>"$tmp/units.$N"
		dirs="$dirs $tmp/s$N-$i"
		i=$((i + 1))
	done
	# every unit in exactly one shard
	if sort "$tmp/units.$N" | cmp -s - "$tmp/sorted"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: N=$N: the shards' units are not the single run's, each once:"
		sort "$tmp/units.$N" | diff - "$tmp/sorted" | sed 's/^/  /' | head
	fi
	# shellcheck disable=SC2086
	check "merge of $N shards" 0 "$npukb" merge $dirs -o "$tmp/m$N"
	verdicts "$tmp/single/journal.jsonl" >"$tmp/v.single"
	verdicts "$tmp/m$N/journal.jsonl" >"$tmp/v.m$N"
	if [ -s "$tmp/v.single" ] && cmp -s "$tmp/v.single" "$tmp/v.m$N"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: N=$N: the merged verdicts are not the single run's, in order:"
		diff "$tmp/v.single" "$tmp/v.m$N" | sed 's/^/  /' | head
	fi
	grep_out "merged journal ends" '"type":"end"' "$tmp/m$N/journal.jsonl"
	grep_out "merge renders metrics.json" '"overall"' "$tmp/m$N/metrics.json"
	# the unit records (task, sample, place in the plan, answer, cases)
	# are the single run's, and the reports come from the merged journal
	unitrecs "$tmp/single/journal.jsonl" >"$tmp/u.single"
	unitrecs "$tmp/m$N/journal.jsonl" >"$tmp/u.m$N"
	if [ "$(wc -l <"$tmp/u.single")" -eq 15 ] && cmp -s "$tmp/u.single" "$tmp/u.m$N"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: N=$N: the merged unit records are not the single run's:"
		diff "$tmp/u.single" "$tmp/u.m$N" | sed 's/^/  /' | head
	fi
	for f in junit.xml results.xml summary.txt report/index.html; do
		test -s "$tmp/m$N/$f" && pass=$((pass + 1)) ||
			{ fail=$((fail + 1)); echo "FAIL: N=$N: merge rendered no $f"; }
	done
	if [ "$(grep -o '<testcase ' "$tmp/m$N/junit.xml" | wc -l)" -gt 0 ] &&
	   [ "$(grep -o '<testcase ' "$tmp/m$N/junit.xml" | wc -l)" = \
	     "$(grep -o '<testcase ' "$tmp/single/junit.xml" | wc -l)" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1)); echo "FAIL: N=$N: merged junit.xml has other test cases than the single run's"
	fi
	no_grep "merged header is of a whole run" '"shard":' "$tmp/m$N/journal.jsonl"
	grep_out "merge keeps the run's label" '"type":"run".*"label":"m1"' "$tmp/m$N/journal.jsonl"
done
# shellcheck disable=SC2086
check "an empty shard exits 0" 0 "$npukb" run $sel --shard 15/16 -o "$tmp/empty"
grep_out "an empty shard's journal ends" '"verdicts":0' "$tmp/empty/journal.jsonl"
check "an empty selection is still exit 3" 3 "$npukb" run --task level1/Math/AddCustom \
	--no-answer --seeds 1 --shard 0/2 -o "$tmp/none"

# Refusals: copies of the 3 shards, one header field changed in the copy of
# shard 1.
s0="$tmp/s3-0" s1="$tmp/s3-1" s2="$tmp/s3-2"
refuse() { # name sed-expression-on-shard-1's-header expected-message
	rm -rf "$tmp/x1" "$tmp/out3"
	cp -r "$s1" "$tmp/x1"
	sed -i "1$2" "$tmp/x1/journal.jsonl"
	check "merge refuses $1" 3 "$npukb" merge "$s0" "$tmp/x1" "$s2" -o "$tmp/out3"
	grep_out "merge says $1 differs" "$3" "$tmp/err"
	test ! -e "$tmp/out3/journal.jsonl" ||
		{ fail=$((fail + 1)); echo "FAIL: merge refused $1 but wrote a journal"; }
}
refuse "seeds" 's/"seeds":1,/"seeds":2,/' "$s0 and $tmp/x1 differ in seeds: 1 and 2"
refuse "base seed" 's/"base_seed":1,/"base_seed":7,/' "$s0 and $tmp/x1 differ in base seed: 1 and 7"
refuse "backends" 's/"backend":"cpusim"/"backend":"skeleton"/' "differ in backend: \"cpusim\" and \"skeleton\""
refuse "SoCs" 's/"soc":"ascend910b2"/"soc":"ascend310p"/' "$tmp/x1 differ in SoC"
refuse "npukb versions" 's/"npukb":"[^"]*"/"npukb":"0.0.1"/' "$tmp/x1 differ in npukb version: .* and \"0.0.1\""
refuse "selections" 's/"units_total":15/"units_total":14/' "differ in units_total (15 and 14)"
refuse "labels" 's/"label":"m1"/"label":"m2"/' "differ in label: \"m1\" and \"m2\""
refuse "shard counts" 's/"shard":"1\/3"/"shard":"1\/4"/' "differ in shard count: 3 and 4"
refuse "--strict" 's/"seeds":1,/"seeds":1,"strict":1,/' "$s0 and $tmp/x1 differ in --strict: off and on"
# shards of a --strict run: the merged run is one too
rm -rf "$tmp/st" "$tmp/st-out" && mkdir -p "$tmp/st"
for k in 0 1 2; do
	mkdir "$tmp/st/$k"
	sed '1s/"seeds":1,/"seeds":1,"strict":1,/' "$tmp/s3-$k/journal.jsonl" >"$tmp/st/$k/journal.jsonl"
done
check "merge of --strict shards" 0 "$npukb" merge "$tmp/st/0" "$tmp/st/1" "$tmp/st/2" -o "$tmp/st-out"
grep_out "the merged header keeps --strict" '^{"type":"run".*"strict":1' "$tmp/st-out/journal.jsonl"

check "merge refuses a missing shard" 3 "$npukb" merge "$s0" "$s2" -o "$tmp/out3"
grep_out "merge names the missing shard" "1 of 3 shards missing: 1/3" "$tmp/err"
check "merge refuses a shard given twice" 3 "$npukb" merge "$s0" "$s1" "$s2" "$s1" -o "$tmp/out3"
grep_out "merge names the twice-given shard" "$s1 and $s1 are both shard 1/3" "$tmp/err"
# shard 0's verdicts under the header of shard 2: every unit judged twice
rm -rf "$tmp/x2" && mkdir "$tmp/x2"
sed '1s/"shard":"0\/3"/"shard":"2\/3"/' "$s0/journal.jsonl" >"$tmp/x2/journal.jsonl"
check "merge refuses a unit judged twice" 3 "$npukb" merge "$s0" "$s1" "$tmp/x2" -o "$tmp/out3"
grep_out "merge names the unit and both folders" "was judged by both $s0 and $tmp/x2" "$tmp/err"
# every shard once and no unit twice, but shard 1's units under shard 2's
# header and the other way round: their places in the plan give them away
rm -rf "$tmp/x1" "$tmp/x2" && mkdir "$tmp/x1" "$tmp/x2"
sed '1s/"shard":"1\/3"/"shard":"2\/3"/' "$s1/journal.jsonl" >"$tmp/x2/journal.jsonl"
sed '1s/"shard":"2\/3"/"shard":"1\/3"/' "$s2/journal.jsonl" >"$tmp/x1/journal.jsonl"
check "merge refuses units of another shard" 3 "$npukb" merge "$s0" "$tmp/x1" "$tmp/x2" -o "$tmp/out3"
grep_out "merge names the unit of another shard" "is not shard [12]/3's" "$tmp/err"
rm -rf "$tmp/x2" && mkdir "$tmp/x2"
sed '$d' "$s2/journal.jsonl" >"$tmp/x2/journal.jsonl"
check "merge refuses a shard that did not finish" 3 "$npukb" merge "$s0" "$s1" "$tmp/x2" -o "$tmp/out3"
grep_out "merge says which shard did not finish" "$tmp/x2: run .* did not finish" "$tmp/err"
check "merge refuses a folder without a journal" 3 "$npukb" merge "$s0" "$tmp/nowhere" -o "$tmp/out3"
grep_out "merge names the folder without a journal" "$tmp/nowhere" "$tmp/err"
check "merge refuses an OUT that holds a journal" 3 "$npukb" merge "$s0" "$s1" "$s2" -o "$tmp/m3"
grep_out "merge says OUT holds a journal" "already exists" "$tmp/err"
check "merge without -o" 2 "$npukb" merge "$s0"
check "merge without a folder" 2 "$npukb" merge -o "$tmp/out3"

# scripts/npukb-slurm without a Slurm: its usage errors, and what it hands
# to sbatch (a stand-in that records its arguments; test_slurm.sh submits
# to a real one)
slurm="$src/scripts/npukb-slurm"
check "npukb-slurm --help" 0 "$slurm" --help
grep_out "npukb-slurm --help" "afterok" "$tmp/out"
check "npukb-slurm -n 0" 2 "$slurm" -n 0 -o "$tmp/sl" --npukb "$npukb"
check "npukb-slurm -n x" 2 "$slurm" -n x -o "$tmp/sl" --npukb "$npukb"
check "npukb-slurm without -o" 2 "$slurm" -n 2 --npukb "$npukb"
check "npukb-slurm refuses --shard in the run options" 2 "$slurm" -n 2 -o "$tmp/sl" \
	--npukb "$npukb" -- --shard 0/2
mkdir -p "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'EOF'
#!/bin/sh
n=$(ls "$SBATCH_LOG".* 2>/dev/null | wc -l)
printf '%s\n' "$@" >"$SBATCH_LOG.$n"
echo "$((n + 41))"
EOF
chmod +x "$tmp/bin/sbatch"
check "npukb-slurm submits" 0 env PATH="$tmp/bin:$PATH" SBATCH_LOG="$tmp/sbatch" "$slurm" -n 3 \
	-o "$tmp/sl" --npukb "$npukb" --sbatch-opt --partition=p1 -- --task "level1/Math/Add Custom" --seeds 1
grep_out "the array has 3 tasks" "^--array=0-2$" "$tmp/sbatch.0"
grep_out "sbatch options reach the array" "^--partition=p1$" "$tmp/sbatch.0"
grep_out "the merge waits for the array" "^--dependency=afterok:41$" "$tmp/sbatch.1"
grep_out "sbatch options reach the merge" "^--partition=p1$" "$tmp/sbatch.1"
grep_out "the shard job runs its shard" 'run --shard "$i/3" -o' "$tmp/sl/slurm/shard.sh"
grep_out "run options keep their words" "'level1/Math/Add Custom'" "$tmp/sl/slurm/shard.sh"
grep_out "the merge job merges into OUT/merged" "merge \"\$@\" -o '$tmp/sl'/merged" "$tmp/sl/slurm/merge.sh"
check "a shard job that cannot run fails its array task" 3 env SLURM_ARRAY_TASK_ID=1 \
	"$tmp/sl/slurm/shard.sh"
# a failing sample is a verdict: the array task succeeds, so afterok holds
check "npukb-slurm submits a failing selection" 0 env PATH="$tmp/bin:$PATH" \
	SBATCH_LOG="$tmp/sbatch2" "$slurm" -n 1 -o "$tmp/sl2" --npukb "$npukb" -- \
	--task level1/Math/AddCustom --cases smallest-one --seeds 1 --no-answer \
	--sample "$src/tests/samples/AddCustom/wrong_result"
check "a shard job whose sample failed succeeds" 0 env SLURM_ARRAY_TASK_ID=0 "$tmp/sl2/slurm/shard.sh"
grep_out "... and judged it" '"outcome":"fail"' "$tmp/sl2/shard-0/journal.jsonl"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
