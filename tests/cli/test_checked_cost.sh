#!/bin/sh
# test_checked_cost.sh - on cpusim, whose cycles are a cost model's, the
# performance verdict is the cost of the first checked launch: the kernel
# is not launched a second time for its time (the perf stage's work folder
# is never made), and the verdict still carries cycles and microseconds.
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
tmp=$(mktemp -d /tmp/npukb-cost-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$npukb" run --task level1/Math/AddCustom --case 4 --seeds 2 --keep-work -q \
	-o "$tmp/out" >"$tmp/log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "FAIL: npukb run exited $rc"
	sed 's/^/  /' "$tmp/log" | head -20
	exit 1
fi
fail=0
perf=$(grep '"stage":"performance"' "$tmp/out/journal.jsonl")
if ! echo "$perf" | grep -q '"outcome":"pass".*"message":"[0-9.e+]* cycles, [0-9.e+]* us".*"cycles":[1-9]'; then
	echo "FAIL: no performance pass with cycles and microseconds:"
	echo "$perf" | sed 's/^/  /'
	fail=1
fi
seeds=$(find "$tmp/out/work" -type d -name 'seed-*' | wc -l)
launched=$(find "$tmp/out/work" -type d -path '*perf-*/perf' | wc -l)
if [ "$seeds" -lt 2 ]; then
	echo "FAIL: the kept work folders hold $seeds seed folders (2 seeds and the re-check expected)"
	fail=1
fi
if [ "$launched" -ne 0 ]; then
	echo "FAIL: the performance stage launched the kernel again:"
	find "$tmp/out/work" -type d -path '*perf-*/perf' | sed 's/^/  /'
	fail=1
fi
[ "$fail" -eq 0 ] && echo "checked cost: performance from the checked launch, no second launch"
exit "$fail"
