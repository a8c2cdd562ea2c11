#!/bin/sh
# test_integrity.sh - issue 15: what a sample prints stays out of the
# reports unless it failed, and bad input gets a clear error with the exit
# status the README gives, losing nothing. Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-integrity-XXXXXX)
cleanup() {
	[ -n "${full:-}" ] && umount "$full" 2>/dev/null
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
. "$src/tests/cli/checks.sh"
add=level1/Math/AddCustom
hy="$src/tests/samples/hygiene"

# ---- reports never carry what a passing sample printed ----------------------
check "printing samples run" 1 "$npukb" run --task $add --no-answer --case 0 --seeds 1 -q \
	--sample "$hy/prints_and_passes" --sample "$hy/prints_and_crashes" -o "$tmp/h"
grep_out "the printing sample passes" "prints_and_passes	case 0	pass" "$tmp/h/summary.txt"
grep_out "the crashing sample fails" "prints_and_crashes	case 0	fail	crash" "$tmp/h/summary.txt"
no_grep "a passing sample's output is in no report" "NPUKB-SECRET" \
	"$tmp/h/journal.jsonl" "$tmp/h/junit.xml" "$tmp/h/results.xml" "$tmp/h/summary.txt" \
	"$tmp/h/report"
grep_out "a failing sample keeps its last words" "NPUKB-LAST-WORDS-42002" "$tmp/h/journal.jsonl"
grep_out "the excerpt says it was cut" "bytes of output left out" "$tmp/h/journal.jsonl"
# 2000 noise lines were printed; the excerpt keeps at most 4 KiB of them
noise=$(grep -o 'noise line [0-9]*' "$tmp/h/journal.jsonl" | wc -l)
if [ "$noise" -gt 0 ] && [ "$noise" -lt 100 ]; then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: capped excerpt: $noise noise lines in the journal"; fi
[ -d "$tmp/h/work" ] && { fail=$((fail + 1)); echo "FAIL: work folder left without --keep-work"; }

# a call with one argument too many reads as that, not as the emulation's
# hidden source-location parameter
check "extra argument to AllocTensor" 1 "$npukb" run --task $add --no-answer --case 0 -q \
	--seeds 1 --sample "$hy/alloc_extra_argument" -o "$tmp/loc"
grep_out "too many arguments" "alloc_extra_argument.*api-signature.*too many arguments" \
	"$tmp/loc/summary.txt"
no_grep "no SrcLoc in any report" "SrcLoc\|NoLoc\|NPUKB_LOC" "$tmp/loc/journal.jsonl" \
	"$tmp/loc/junit.xml" "$tmp/loc/results.xml" "$tmp/loc/summary.txt" "$tmp/loc/report"

# ---- a kernel that reports no work is a suspect speedup ----------------------
check "zero-cycle sample" 0 "$npukb" run --task $add --case 0 --seeds 1 -q \
	--sample "$hy/zero_cycles" -o "$tmp/zc"
grep_out "0 cycles flagged" "zero_cycles	case 0	pass	0 cycles	\[suspect-speedup\]" "$tmp/zc/summary.txt"
grep_out "the journal carries the flag" '"sample":"zero_cycles","case":"0","stage":"performance".*"flags":"suspect-speedup"' \
	"$tmp/zc/journal.jsonl"
no_grep "the answer is not flagged" "answer	case 0	pass.*suspect" "$tmp/zc/summary.txt"

# ---- verdict paths no other test reaches (issue 15's surviving mutants) -----
# the default seed count is 5: every other CLI run passes --seeds
check "default seeds" 1 "$npukb" run --task $add --case 0 -q \
	--sample "$hy/writes_input" -o "$tmp/mut"
grep_out "the run header says 5 seeds" '"type":"run".*"seeds":5,' "$tmp/mut/journal.jsonl"
grep_out "the answer was checked on 5 seeds" \
	'"sample":"answer","case":"0","stage":"correctness","outcome":"pass",.*"message":"5 seeds' \
	"$tmp/mut/journal.jsonl"
# a kernel writing into its input is caught, whatever else it gets right
grep_out "input mutation caught" "writes_input	case 0	fail	input-mutated	input x was modified" \
	"$tmp/mut/summary.txt"
# Eye's reference is the same on every seed while its inputs change: a
# correct answer is not a suspect constant output
check "Eye's answer" 0 "$npukb" run --task level1/TensorCreation/Eye --cases smallest-per-dtype \
	--seeds 2 -q -o "$tmp/eye"
no_grep "a constant reference is not a suspect constant output" "suspect-constant-output" \
	"$tmp/eye/summary.txt" "$tmp/eye/journal.jsonl"

# ---- the journal ends with an end-of-run record; report and leaderboard
# say when a run has none (killed, or still running) --------------------------
grep_out "end-of-run record" '^{"type":"end","run":"[^"]*","finished":"[^"]*","verdicts":[1-9]' \
	"$tmp/h/journal.jsonl"
check "report on a complete run" 0 "$npukb" report "$tmp/h/journal.jsonl"
no_grep "a complete run is not called incomplete" "incomplete" "$tmp/err"
grep -v '"type":"end"' "$tmp/h/journal.jsonl" >"$tmp/killed.jsonl"
check "report on a killed run" 0 "$npukb" report "$tmp/killed.jsonl"
grep_out "report says incomplete" "killed.jsonl: run .* is incomplete" "$tmp/err"
check "leaderboard of a killed run" 0 "$npukb" leaderboard "$tmp/killed.jsonl" -o "$tmp/lb"
grep_out "leaderboard says incomplete" "killed.jsonl: run .* is incomplete" "$tmp/err"
grep_out "leaderboard page marks it" 'complete="no"' "$tmp/lb/leaderboard.xml"

# ---- numbers are parsed strictly and bounded ---------------------------------
for v in nan inf 0x10 -1 1e3 " 5" "" . 0.05 90000; do
	check "--run-timeout '$v' rejected" 2 "$npukb" run --run-timeout "$v" -o "$tmp/n"
	grep_out "--run-timeout '$v' named" "run-timeout: invalid value '$v'" "$tmp/err"
	check "--build-timeout '$v' rejected" 2 "$npukb" run --build-timeout "$v" -o "$tmp/n"
done
for v in -1 +5 " 5" 0 1001 18446744073709551617; do
	check "--seeds '$v' rejected" 2 "$npukb" run --seeds "$v" -o "$tmp/n"
done
check "--memory-limit -1 rejected" 2 "$npukb" run --memory-limit -1 -o "$tmp/n"
[ -e "$tmp/n" ] && { fail=$((fail + 1)); echo "FAIL: a rejected option still created the output folder"; }
# accepted forms reach the backend (an unknown one: exit 4, nothing judged)
for v in 2.5 .5 7 86400; do
	check "--run-timeout '$v' accepted" 4 "$npukb" run --run-timeout "$v" --backend nope -o "$tmp/n"
done

# ---- nothing selected: exit 3 saying what was looked for, no output folder --
check "--case 999" 3 "$npukb" run --task $add --case 999 -o "$tmp/sel"
grep_out "--case 999 named" "nothing selected: no case '999' .*has cases 0, 1" "$tmp/err"
mkdir -p "$tmp/root/level1/Math/AddCustm/s1"
cp "$src/tests/samples/AddCustom/compile_error/add_custom.cpp" "$tmp/root/level1/Math/AddCustm/s1/"
check "--samples root matching nothing" 3 "$npukb" run --task $add --samples "$tmp/root" -o "$tmp/sel"
grep_out "--samples says what it looked for and found" \
	"nothing selected: .*root holds no folder .*level1/Math/AddCustom/.*it holds level1/Math/AddCustm" \
	"$tmp/err"
check "misspelled task" 3 "$npukb" run --task level1/Math/AddCustm -o "$tmp/sel"
grep_out "misspelled task named" "nothing selected: no task named level1/Math/AddCustm" "$tmp/err"
check "no sample at all" 3 "$npukb" run --task $add --no-answer -o "$tmp/sel"
grep_out "no sample named" "nothing selected: no sample to judge" "$tmp/err"
[ -e "$tmp/sel" ] && { fail=$((fail + 1)); echo "FAIL: nothing selected, yet an output folder"; }

# ---- an unknown SoC is refused before any work, with the SoCs known ---------
check "--soc nosuchsoc" 3 "$npukb" run --task $add --soc nosuchsoc -o "$tmp/soc"
grep_out "--soc lists the known SoCs" "soc nosuchsoc: the cpusim backend knows no such SoC; it knows .*ascend910b\*" "$tmp/err"
[ -e "$tmp/soc" ] && { fail=$((fail + 1)); echo "FAIL: unknown SoC, yet an output folder"; }

# ---- sample folders: what is wrong with the path, and distinct ids ----------
: >"$tmp/a-file"
ln -s "$tmp/loop" "$tmp/loop"
check "--sample missing" 3 "$npukb" run --task $add --no-answer --sample "$tmp/nope" -o "$tmp/s"
grep_out "missing: not found" "nope: sample folder not found" "$tmp/err"
check "--sample a file" 3 "$npukb" run --task $add --no-answer --sample "$tmp/a-file" -o "$tmp/s"
grep_out "a file: not a folder" "a-file: not a folder" "$tmp/err"
check "--sample a symlink loop" 3 "$npukb" run --task $add --no-answer --sample "$tmp/loop" -o "$tmp/s"
grep_out "a loop: says so" "loop: sample folder is a symbolic link loop" "$tmp/err"
check "--samples a file" 3 "$npukb" run --task $add --samples "$tmp/a-file" -o "$tmp/s"
grep_out "--samples a file: not a folder" "a-file: not a folder" "$tmp/err"
mkdir -p "$tmp/m1/k" "$tmp/m2/k" "$tmp/m3/answer"
for d in m1/k m2/k m3/answer; do
	cp "$src/tests/samples/AddCustom/compile_error/add_custom.cpp" "$tmp/$d/"
done
check "same base names" 1 "$npukb" run --task $add --case 0 --seeds 1 -q \
	--sample "$tmp/m1/k" --sample "$tmp/m2/k" --sample "$tmp/m3/answer" -o "$tmp/ids"
grep_out "first k kept apart" "	m1/k	case 0	fail" "$tmp/ids/summary.txt"
grep_out "second k kept apart" "	m2/k	case 0	fail" "$tmp/ids/summary.txt"
grep_out "a sample named answer is not the answer" "	m3/answer	case 0	fail" "$tmp/ids/summary.txt"
grep_out "the answer stays the answer" "	answer	case 0	pass" "$tmp/ids/summary.txt"
check "the same folder twice" 3 "$npukb" run --task $add --no-answer \
	--sample "$tmp/m1/k" --sample "$tmp/m1/k/" -o "$tmp/s"
grep_out "the same folder twice named" "the same sample folder is given twice" "$tmp/err"

# ---- validate: unreadable files are bad input; references and sizes checked -
m="$src/tests/data/manifests"
check "validate a missing file" 3 "$npukb" validate "$tmp/no-such-task.xml"
grep_out "validate names the missing file" "no-such-task.xml: cannot read: No such file" "$tmp/err"
check "validate an unknown reference" 1 "$npukb" validate "$m/unknown_reference.xml"
grep_out "unknown reference named" "reference function 'no_such_reference' does not exist" "$tmp/err"
check "validate a tensor above the ceiling" 1 "$npukb" validate "$m/huge_tensor.xml"
grep_out "the ceiling named" "case 4: tensor x has 2621440000 elements, above the ceiling of 2147483648" "$tmp/err"
check "the ceiling is configurable" 0 "$npukb" validate --max-elements 4000000000 "$m/huge_tensor.xml"
check "validate --max-elements 0" 2 "$npukb" validate --max-elements 0 "$m/huge_tensor.xml"
check "every level manifest passes the default ceiling" 0 "$npukb" validate

# ---- one run at a time per output folder ------------------------------------
"$npukb" run --task $add --case 0 --seeds 1 --no-answer -q --run-timeout 3 \
	--sample "$src/tests/samples/AddCustom/hang" -o "$tmp/lk" >/dev/null 2>&1 &
holder=$!
i=0
while [ ! -s "$tmp/lk/.npukb.lock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "a second run into a busy folder" 3 "$npukb" run --task $add --case 0 --seeds 1 -q \
	-o "$tmp/lk"
grep_out "the second run names the holder's pid" "another npukb run (pid $holder)" "$tmp/err"
wait $holder
check "the folder is free once the first run ended" 0 "$npukb" run --task $add --case 0 \
	--seeds 1 -q -o "$tmp/lk"

# ---- a full disk: npukb's I/O error with its path, exit 4, the old reports
# kept whole (needs root for a small tmpfs; skipped otherwise) -----------------
mkdir -p "$tmp/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=32m tmpfs "$tmp/full" 2>/dev/null; then
	full="$tmp/full"
	check "run on a roomy disk" 0 "$npukb" run --task $add --case 0 --seeds 1 -q -o "$full/out"
	cp "$full/out/junit.xml" "$full/out/summary.txt" "$full/out/results.xml" "$tmp/"
	dd if=/dev/zero of="$full/filler" bs=64k 2>/dev/null
	# --no-cache: the run must judge on the full disk, not replay the
	# unit the roomy run left in the cache; its work folder is on that
	# disk too (a report alone failing to be written: test_junit)
	check "run on a full disk" 4 "$npukb" run --task $add --case 0 --seeds 1 -q --no-cache \
		-o "$full/out" --work-dir "$full/work"
	grep_out "the error names the path" "$full/out.*No space left on device" "$tmp/err"
	for f in junit.xml summary.txt results.xml; do
		if cmp -s "$full/out/$f" "$tmp/$f"; then pass=$((pass + 1)); else
			fail=$((fail + 1)); echo "FAIL: full disk: the old $f was replaced"; fi
	done
	grep_out "the old HTML report stays" "AddCustom" "$full/out/report/index.html"
	no_grep "no sample blamed in the reports" "internal-error\|\blink\b" \
		"$full/out/junit.xml" "$full/out/summary.txt"
	check "report: the stopped run is incomplete" 0 "$npukb" report "$full/out/journal.jsonl"
	grep_out "the stopped run is incomplete" "is incomplete" "$tmp/err"
	umount "$full" && full=
	# room for the journal but not for a case's tensor files (128 MiB, in
	# the work folder, put on that disk): that case's verdict says so; no
	# worker dies of SIGBUS writing them
	if mount -t tmpfs -o size=16m tmpfs "$tmp/full" 2>/dev/null; then
		full="$tmp/full"
		check "a case larger than the disk" 1 "$npukb" run --task level1/Math/StridesliceNegConcatV2 \
			--case 2 --seeds 1 -q --no-cache -o "$full/out" --work-dir "$full/work"
		grep_out "its verdict names the file and the full disk" \
			"internal-error.*input.bin: cannot create .*No space left on device" "$full/out/summary.txt"
		umount "$full" && full=
	fi
else
	echo "SKIP: full-disk checks need root and tmpfs"
fi

echo "integrity: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
