#!/bin/sh
# check_level.sh - a level suite: every task of the level has an expert
# answer, and every answer passes every selected case on cpusim.
#
#   check_level.sh LEVEL SUBSET SEEDS
#
# SUBSET is npukb run's --cases (all | smallest-per-dtype | smallest-one).
# Tasks run NPUKB_LEVEL_JOBS at a time (default: the online cores, at most
# 4): a task's build and kernel launch use one core, so a second task fills
# the other while the first one's data path is idle. A line per task as it
# finishes, with its wall time; then every failure in task order and the
# totals. Exits 0 only when every task of the level passed. Used by `make
# check` (smallest cases) and `make check-level1`/`check-level2` (every
# case, default seeds).
set -u

# One task: its line on stdout, its failure details in $out/res/$idx.
if [ "${1:-}" = "--one" ]; then
	out=$2 idx=$3 task=$4 subset=$5 seeds=$6
	npukb="${NPUKB_BUILDDIR:-.}/npukb"
	run="$out/run-$idx"
	t0=$(date +%s)
	# a cache of the suite's own: every unit is judged (a suite does not
	# replay verdicts of an earlier one), while cpusim's harness object is
	# compiled once for all tasks (--no-cache would compile it each time)
	NPUKB_CACHE_DIR="$out/cache" \
	"$npukb" run --task "$task" --cases "$subset" --seeds "$seeds" -q \
		-o "$run" >"$run.out" 2>&1
	rc=$?
	t1=$(date +%s)
	answers=$(grep -c "^$task	answer	" "$run/summary.txt" 2>/dev/null)
	bad=$(grep "^$task	answer	" "$run/summary.txt" 2>/dev/null | grep -v "	pass	")
	res="$out/res/$idx"
	if [ ! -d "${NPUKB_DATADIR:-.}/levels/$task/answer" ]; then
		echo "FAIL: $task: no expert answer (levels/$task/answer/)" >"$res.fail"
	elif [ "$rc" -ne 0 ] || [ "${answers:-0}" -eq 0 ] || [ -n "$bad" ]; then
		{
			echo "FAIL: $task: npukb run exit $rc, ${answers:-0} answer cases"
			[ -n "$bad" ] && echo "$bad" | sed 's/^/  /'
			sed 's/^/  out: /' "$run.out" | tail -5
		} >"$res.fail"
	fi
	if [ -f "$res.fail" ]; then
		echo "FAIL $task: $((t1 - t0)) s"
	else
		echo "ok   $task: $answers cases x $seeds seeds, $((t1 - t0)) s"
	fi
	rm -rf "$run" "$run.out"
	exit 0
fi

level=${1:?level}
subset=${2:?subset}
seeds=${3:?seeds}
npukb="${NPUKB_BUILDDIR:-.}/npukb"
# The runs' work folders (each case's tensor files) live in memory when the
# machine has a tmpfs with room (NPUKB_LEVEL_TMPFS_GB, default 12 GiB free):
# on a disk file system, faulting in and dirtying the pages of freshly
# made multi-GiB tensor files costs more CPU than judging them. The
# samples are npukb's own answers, not untrusted code.
tmproot=/tmp
need_kb=$(( ${NPUKB_LEVEL_TMPFS_GB:-12} * 1024 * 1024 ))
if [ -d /dev/shm ] && [ -w /dev/shm ] &&
	[ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -ge "$need_kb" ] 2>/dev/null; then
	tmproot=/dev/shm
fi
out=$(mktemp -d "$tmproot/npukb-level-XXXXXX")
trap 'rm -rf "$out"' EXIT
mkdir "$out/res"

jobs=${NPUKB_LEVEL_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
[ "$jobs" -gt 4 ] && jobs=4

"$npukb" list --level "$level" >"$out/tasks" 2>"$out/list.err" || {
	echo "FAIL: npukb list --level $level:"; cat "$out/list.err"; exit 1; }
ntasks=$(grep -c . "$out/tasks")
if [ "$ntasks" -eq 0 ]; then
	echo "FAIL: level $level has no tasks"
	exit 1
fi

start=$(date +%s)
# "index task" lines, index zero-padded so the failures sort in task order.
cut -f1 "$out/tasks" | awk '{ printf "%05d %s\n", NR, $1 }' |
	xargs -P "$jobs" -L 1 sh -c '"$0" --one "$1" "$4" "$5" "$2" "$3"' "$0" "$out" \
		"$subset" "$seeds"
end=$(date +%s)
fail=0
for f in "$out"/res/*.fail; do
	[ -f "$f" ] || continue
	cat "$f"
	fail=$((fail + 1))
done
echo "level $level ($subset, $seeds seeds, $jobs at a time): $((ntasks - fail)) of $ntasks tasks passed in $((end - start)) s"
[ "$fail" -eq 0 ]
