#!/bin/sh
# test_workers.sh - `npukb run -j N` (issue 17): the same verdicts, unit
# records and reports whatever the number of workers; a log shows each
# task's line once, with its own counts, whatever order workers finish in;
# a worker killed under the run fails the run with the signal named, and
# --resume completes it to the same verdicts. Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-workers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/checks.sh"

# 4 tasks, 2 samples each (the answer and a wrong or broken one), every
# dtype's smallest case: 8 units with passes and failures
sel="--task level1/Math/AddCustom --task level1/Comparison/Equal
	--task level1/Condition/IsFinite --task level1/Math/Neg
	--cases smallest-per-dtype --seeds 1
	--sample $src/tests/samples/AddCustom/wrong_result"

# what must not depend on the workers: every record but the run's id,
# times and the output folder (which commands and paths name), sorted
records() { # journal
	sed -e 's/"run":"[^"]*",//' -e "s#$2#OUT#g" \
	    -e 's/"\(wall_seconds\|seconds\|started\)":[^,}]*//g' "$1" |
		grep -v '"type":"run"\|"type":"end"' | sort
}
# The machine's memory is volatile too: a VM's balloon moves it between two
# runs (CI saw 13.46 and 13.59 GiB a minute apart).
masked() { # report file, output folder: times, ids, memory and the folder masked
	sed -e "s#$2#OUT#g" \
	    -e 's/\(time\|timestamp\|started\|written\|seconds\|value\|memory-bytes\|memory-gib\)="[^"]*"/\1=""/g' \
	    -e 's/[0-9]\{8\}T[0-9]\{6\}Z-[0-9]*//g' "$1"
}

check "-j 0 is a usage error" 2 "$npukb" run -j 0 -o "$tmp/bad"
grep_out "-j 0 says why" "a number of workers" "$tmp/err"
check "-j x is a usage error" 2 "$npukb" run --jobs x -o "$tmp/bad"
check "--help documents -j" 0 "$npukb" run --help
grep_out "-j in run --help" "-j, --jobs N" "$tmp/out"

for n in 1 3; do
	# shellcheck disable=SC2086
	check "-j $n run" 1 "$npukb" run $sel -j "$n" -o "$tmp/j$n"
	cp "$tmp/out" "$tmp/log.j$n"
	records "$tmp/j$n/journal.jsonl" "$tmp/j$n" >"$tmp/rec.j$n"
	for f in junit.xml results.xml; do
		masked "$tmp/j$n/$f" "$tmp/j$n" >"$tmp/$f.j$n"
	done
done
n=$(grep -c '"type":"unit"' "$tmp/rec.j1")
if [ "$n" -eq 8 ] && cmp -s "$tmp/rec.j1" "$tmp/rec.j3"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: -j 1 and -j 3 journals differ (or not 8 units: $n):"
	diff "$tmp/rec.j1" "$tmp/rec.j3" | cut -c1-300 | head
fi
for f in junit.xml results.xml; do
	if cmp -s "$tmp/$f.j1" "$tmp/$f.j3"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $f differs between -j 1 and -j 3:"
		diff "$tmp/$f.j1" "$tmp/$f.j3" | head
	fi
done
if [ "$(tail -n 1 "$tmp/j1/summary.txt")" = "$(tail -n 1 "$tmp/j3/summary.txt")" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAIL: the summaries' totals differ between -j 1 and -j 3"
fi
# each task's log line once, with the counts of a one-worker run
for n in 1 3; do
	grep '^\[' "$tmp/log.j$n" | sed 's/^\[ *[0-9]*\/[0-9]*\] //; s/, [0-9:]*$//' | sort >"$tmp/tasks.j$n"
done
if [ "$(wc -l <"$tmp/tasks.j1")" -eq 4 ] && cmp -s "$tmp/tasks.j1" "$tmp/tasks.j3"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: the task lines of -j 3 are not those of -j 1:"
	diff "$tmp/tasks.j1" "$tmp/tasks.j3" | head
fi
grep_out "the log's last task line counts every unit" "^\[[0-9]*/\([0-9]*\)\] .*" "$tmp/log.j3"
last=$(grep '^\[' "$tmp/log.j3" | tail -n 1 | sed 's/^\[ *\([0-9]*\)\/\([0-9]*\)\].*/\1 \2/')
set -- $last
if [ "$#" -eq 2 ] && [ "$1" = "$2" ]; then pass=$((pass + 1)); else
	fail=$((fail + 1)); echo "FAIL: the last task line is not [N/N]: $last"; fi

# A worker killed by a signal: the run fails saying so, no reports are
# written from a partial journal, and --resume ends it with the verdicts
# of the undisturbed run.
# shellcheck disable=SC2086
"$npukb" run $sel -j 2 -q --no-cache -o "$tmp/k" >"$tmp/k.out" 2>"$tmp/k.err" &
runpid=$!
killed=""
i=0
while [ "$i" -lt 300 ] && [ -z "$killed" ]; do
	sleep 0.1
	# once the journal's header is written the run's own children are
	# its workers (before, a backend's probe may be one); the first goes
	grep -q '"type":"run"' "$tmp/k/journal.jsonl" 2>/dev/null || { i=$((i + 1)); continue; }
	for c in $(pgrep -P "$runpid" 2>/dev/null); do
		kill -KILL "$c" 2>/dev/null && killed=$c
		break
	done
	i=$((i + 1))
done
wait "$runpid"
rc=$?
if [ -n "$killed" ] && [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAIL: killing worker '$killed' gave exit $rc"
fi
grep_out "the run names the dead worker's signal" "died of signal 9" "$tmp/k.err"
test ! -e "$tmp/k/junit.xml" && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: a run whose worker died wrote junit.xml"; }
# shellcheck disable=SC2086
check "--resume after a worker died" 1 "$npukb" run $sel -j 2 --resume -o "$tmp/k"
records "$tmp/k/journal.jsonl" "$tmp/k" >"$tmp/rec.k"
if cmp -s "$tmp/rec.j1" "$tmp/rec.k"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: the resumed run's records are not the undisturbed run's:"
	diff "$tmp/rec.j1" "$tmp/rec.k" | cut -c1-300 | head
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
