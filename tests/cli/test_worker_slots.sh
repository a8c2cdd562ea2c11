#!/bin/sh
# test_worker_slots.sh - a backend's say in the worker pool (plugin.h:
# max_workers, worker_start), on the test backend "fixed"
# (tests/backends/fixed.c), which logs each worker's start: a backend that
# serves N workers side by side (one per NPU) gets no more than N whatever
# -j asks; each worker is started once, numbered from 0, told how many
# there are; without a limit -j decides; a worker the backend refuses to
# start fails the run with the backend's reason. Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-slots-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/checks.sh"

export FIXED_WORKERS="$tmp/workers.log"
unset FIXED_SLOTS FIXED_REFUSE_WORKER FIXED_REPRODUCIBLE
task=level1/Math/AddCustom
set --
for s in s1 s2 s3 s4 s5 s6; do
	mkdir -p "$tmp/$s" && cp "$src/levels/$task/answer/"* "$tmp/$s/"
	set -- "$@" --sample "$tmp/$s"
done

judge() { # -j N: one run of the 6 units (exit 1: the backend writes no output)
	: >"$FIXED_WORKERS"
	rm -rf "$tmp/run"
	"$npukb" run --plugin-dir "${NPUKB_BUILDDIR:-.}/tests/backends/.libs" --backend fixed \
		--task $task --case 0 --seeds 1 --no-answer --no-cache -q -o "$tmp/run" "$@"
}
started() { # name expected: the workers' starts, sorted, one line
	got=$(sort "$FIXED_WORKERS" | tr '\n' ';')
	if [ "$got" = "$2" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1))
		echo "FAIL: $1: expected $2, got $got"
	fi
}

FIXED_SLOTS=2 check "2 slots, -j 4" 1 judge -j 4 "$@"
started "2 slots, -j 4: two workers" "start 0 of 2;start 1 of 2;"
[ "$(grep -c '"type":"unit"' "$tmp/run/journal.jsonl")" = 6 ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: 2 slots: the 6 units were not all judged"; }
FIXED_SLOTS=1 check "1 slot, -j 3" 1 judge -j 3 "$@"
started "1 slot, -j 3: one worker" "start 0 of 1;"
check "no limit, -j 3" 1 judge -j 3 "$@"
started "no limit, -j 3: -j decides" "start 0 of 3;start 1 of 3;start 2 of 3;"
FIXED_SLOTS=8 check "8 slots, -j 2" 1 judge -j 2 "$@"
started "8 slots, -j 2: -j decides" "start 0 of 2;start 1 of 2;"
FIXED_SLOTS=2 FIXED_REFUSE_WORKER=1 check "a refused worker fails the run as bad input" 3 judge -j 2 "$@"
grep_out "the run's error carries the backend's reason" \
	'the fixed backend cannot start worker 1: worker 1 refused on purpose' "$tmp/err"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
