#!/bin/sh
# test_default_seeds.sh - `npukb run` without --seeds judges every case on
# five seeds (README, "Correctness"): the journal header says so and the
# correctness verdict counts five. Every other CLI test passes --seeds, so
# a changed default would pass them all.
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-seeds-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$npukb" run --task level1/Math/AddCustom --case 4 --no-answer -q \
	--sample "$src/tests/samples/checks/flags_mte2_v" -o "$tmp/out" >"$tmp/log" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "FAIL: npukb run exited $rc"
	sed 's/^/  /' "$tmp/log" | head -20
	exit 1
fi
journal="$tmp/out/journal.jsonl"
fail=0
if ! head -1 "$journal" | grep -q '"seeds":5,'; then
	echo "FAIL: the journal header does not record 5 seeds:"
	head -1 "$journal" | sed 's/^/  /'
	fail=1
fi
if ! grep '"stage":"correctness"' "$journal" | grep -q '"message":"5 seeds,'; then
	echo "FAIL: the correctness verdict was not judged on 5 seeds:"
	grep '"stage":"correctness"' "$journal" | sed 's/^/  /'
	fail=1
fi
[ "$fail" -eq 0 ] && echo "default seeds: 5 (header and verdict)"
exit "$fail"
