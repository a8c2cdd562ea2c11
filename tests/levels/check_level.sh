#!/bin/sh
# check_level.sh - a level suite: every task of the level has an expert
# answer, and every answer passes every selected case on cpusim.
#
#   check_level.sh LEVEL SUBSET SEEDS
#
# SUBSET is npukb run's --cases (all | smallest-per-dtype | smallest-one).
# Prints a line per task with its wall time, then the totals; exits 0 only
# when every task of the level passed. Used by `make check` (level 1,
# smallest case of each dtype) and `make check-level1` (every case, default
# seeds).
set -u
level=${1:?level}
subset=${2:?subset}
seeds=${3:?seeds}
npukb="${NPUKB_BUILDDIR:-.}/npukb"
out=$(mktemp -d /tmp/npukb-level-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail=0

"$npukb" list --level "$level" >"$out/tasks" 2>"$out/list.err" || {
	echo "FAIL: npukb list --level $level:"; cat "$out/list.err"; exit 1; }
ntasks=$(grep -c . "$out/tasks")
if [ "$ntasks" -eq 0 ]; then
	echo "FAIL: level $level has no tasks"
	exit 1
fi

start=$(date +%s)
: >"$out/summary"
# One run per task: a line per task as it finishes, and a task's failure
# does not hide the others'.
while IFS="$(printf '\t')" read -r task _rest; do
	t0=$(date +%s)
	"$npukb" run --task "$task" --cases "$subset" --seeds "$seeds" -q \
		-o "$out/run" >"$out/run.out" 2>&1
	rc=$?
	t1=$(date +%s)
	answers=$(grep -c "^$task	answer	" "$out/run/summary.txt" 2>/dev/null)
	bad=$(grep "^$task	answer	" "$out/run/summary.txt" 2>/dev/null | grep -v "	pass	")
	if [ ! -d "${NPUKB_DATADIR:-.}/levels/$task/answer" ]; then
		echo "FAIL: $task: no expert answer (levels/$task/answer/)"
		fail=$((fail + 1))
	elif [ "$rc" -ne 0 ] || [ "${answers:-0}" -eq 0 ] || [ -n "$bad" ]; then
		echo "FAIL: $task: npukb run exit $rc, $answers answer cases"
		[ -n "$bad" ] && echo "$bad" | sed 's/^/  /'
		sed 's/^/  out: /' "$out/run.out" | tail -5
		fail=$((fail + 1))
	else
		echo "ok   $task: $answers cases x $seeds seeds, $((t1 - t0)) s"
	fi
	cat "$out/run/summary.txt" >>"$out/summary" 2>/dev/null
	rm -rf "$out/run"
done <"$out/tasks"
end=$(date +%s)
echo "level $level ($subset, $seeds seeds): $((ntasks - fail)) of $ntasks tasks passed in $((end - start)) s"
[ "$fail" -eq 0 ]
