#!/bin/sh
# test_resume.sh - `npukb run --resume` after SIGKILL at random moments:
# a run killed again and again (some kills land while a sample builds,
# some while a unit's records are written) and resumed each time ends with
# exactly the verdicts of an uninterrupted run, none lost, none judged
# twice; a journal of another run's options is refused (exit 3).
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-resume-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
KILLS=${NPUKB_RESUME_KILLS:-20}
fail=0

# three small Level 1 tasks, one case each, one seed; a sample that fails
# (a wrong result on AddCustom, a compile error elsewhere) beside the
# answers. The killed runs start with an empty build cache of their own, so
# builds take real time and kills land in them.
sel="--task level1/Math/AddCustom --task level1/Math/Neg --task level1/Comparison/Equal
	--cases smallest-one --seeds 1 -q
	--sample $src/tests/samples/AddCustom/wrong_result"

# (task, sample, case, stage, outcome) of every verdict record, sorted
verdicts() {
	sed -n 's/^{"type":"verdict","run":"[^"]*","task":"\([^"]*\)","sample":"\([^"]*\)","case":\(null\|"[^"]*"\),"stage":"\([^"]*\)","outcome":"\([^"]*\)".*/\1 \2 \3 \4 \5/p' "$1" | sort
}

# a random delay in seconds: a third of them under 0.3 s (process start,
# plugin loading, the first build), the rest up to $1 s
delay() {
	r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
	if [ $((r % 3)) -eq 0 ]; then
		awk -v r="$r" 'BEGIN { printf "%.3f", (r % 300) / 1000 }'
	else
		awk -v r="$r" -v m="$1" 'BEGIN { printf "%.3f", (r % 1000) / 1000 * m }'
	fi
}

# shellcheck disable=SC2086
"$npukb" run $sel --no-cache -o "$tmp/ref" >"$tmp/ref.log" 2>&1
rc=$?
if [ "$rc" -ne 1 ]; then
	echo "FAIL: the uninterrupted run exited $rc (1 expected: samples fail)"
	sed 's/^/  /' "$tmp/ref.log" | head -20
	exit 1
fi
verdicts "$tmp/ref/journal.jsonl" >"$tmp/ref.v"
nref=$(wc -l <"$tmp/ref.v")
NPUKB_CACHE_DIR="$tmp/cache"
export NPUKB_CACHE_DIR
if [ "$nref" -lt 6 ]; then
	echo "FAIL: the uninterrupted run journaled only $nref verdicts"
	exit 1
fi

kills=0 round=0 iter=0
while [ "$kills" -lt "$KILLS" ]; do
	round=$((round + 1))
	out="$tmp/k$round"
	most=0.6 # grows while kills land before any progress
	while :; do
		iter=$((iter + 1))
		if [ "$iter" -gt 150 ]; then
			echo "FAIL: no end after 150 starts (is work judged again after each kill?)"
			exit 1
		fi
		before=$(grep -c '"type":"unit"' "$out/journal.jsonl" 2>/dev/null)
		# shellcheck disable=SC2086
		"$npukb" run $sel --resume -o "$out" >"$tmp/last.log" 2>&1 &
		pid=$!
		sleep "$(delay "$most")"
		if kill -9 "$pid" 2>/dev/null; then
			wait "$pid" 2>/dev/null
			rc=$?
		else
			wait "$pid"
			rc=$?
		fi
		if [ "$rc" -eq 137 ]; then
			kills=$((kills + 1))
			after=$(grep -c '"type":"unit"' "$out/journal.jsonl" 2>/dev/null)
			if [ "${after:-0}" -gt "${before:-0}" ]; then
				most=0.6
			else
				most=$(awk -v m="$most" 'BEGIN { printf "%.2f", m + 0.4 }')
			fi
			continue
		fi
		if [ "$rc" -ne 1 ]; then
			echo "FAIL: round $round: a resumed run exited $rc"
			sed 's/^/  /' "$tmp/last.log" | head -20
			exit 1
		fi
		break # the run ended by itself
	done
	verdicts "$out/journal.jsonl" >"$tmp/k.v"
	dups=$(uniq -d <"$tmp/k.v" | wc -l)
	if ! cmp -s "$tmp/ref.v" "$tmp/k.v"; then
		echo "FAIL: round $round: the resumed journal's verdicts differ from the uninterrupted run's:"
		diff "$tmp/ref.v" "$tmp/k.v" | sed 's/^/  /' | head -20
		fail=1
	fi
	if [ "$dups" -ne 0 ]; then
		echo "FAIL: round $round: $dups verdicts journaled twice"
		fail=1
	fi
	n=$(grep -c '"type":"run"' "$out/journal.jsonl")
	e=$(grep -c '"type":"end"' "$out/journal.jsonl")
	if [ "$n" -ne 1 ] || [ "$e" -ne 1 ] || ! tail -1 "$out/journal.jsonl" | grep -q '"type":"end"'; then
		echo "FAIL: round $round: $n run headers and $e end records (1 and 1, last)"
		fail=1
	fi
	# the reports are the whole run's: the same summary lines as the
	# uninterrupted run (paths of the output folder aside)
	sed "s|$tmp/ref|OUT|g" "$tmp/ref/summary.txt" | tail -n +2 >"$tmp/ref.s"
	sed "s|$out|OUT|g" "$out/summary.txt" | tail -n +2 >"$tmp/k.s"
	if ! cmp -s "$tmp/ref.s" "$tmp/k.s"; then
		echo "FAIL: round $round: summary.txt differs from the uninterrupted run's:"
		diff "$tmp/ref.s" "$tmp/k.s" | sed 's/^/  /' | head -20
		fail=1
	fi
done
echo "resume: $kills kills over $round round(s), $iter starts; $nref verdicts, none lost or repeated"

# a journal of another run is not continued
# shellcheck disable=SC2086
"$npukb" run $sel --resume --seeds 2 -o "$tmp/ref" >"$tmp/mis.log" 2>&1
rc=$?
if [ "$rc" -ne 3 ] || ! grep -q "cannot resume: its run used --seeds 1, this one --seeds 2" "$tmp/mis.log"; then
	echo "FAIL: resuming with other seeds: exit $rc (3 expected):"
	sed 's/^/  /' "$tmp/mis.log" | head -5
	fail=1
fi
# nor one whose verdicts --strict would change
# shellcheck disable=SC2086
"$npukb" run $sel --resume --strict -o "$tmp/ref" >"$tmp/mis.log" 2>&1
rc=$?
if [ "$rc" -ne 3 ] || ! grep -q "cannot resume: its run was not --strict, this one is" "$tmp/mis.log"; then
	echo "FAIL: resuming with --strict: exit $rc (3 expected):"
	sed 's/^/  /' "$tmp/mis.log" | head -5
	fail=1
fi
exit "$fail"
