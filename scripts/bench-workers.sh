#!/bin/sh
# bench-workers.sh - wall time of a Level 1 run with 1 and with 2 workers
# (issue 17's figure: 1 -> 2 workers on smallest-per-dtype >= 1.8x).
# Prints the seconds of each run, the ratio and the load average before
# and after (a loaded machine gives no result worth quoting).
# Usage: scripts/bench-workers.sh [CASES [SEEDS [JOBS...]]]
#   CASES: smallest-per-dtype (default), smallest-one or all; SEEDS: 1.
# Run from a build tree (./npukb) or with npukb installed on PATH.
set -eu
cases=${1:-smallest-per-dtype}
seeds=${2:-1}
shift 2 2>/dev/null || shift $#
jobs=${*:-1 2}
npukb=${NPUKB:-./npukb}
[ -x "$npukb" ] || npukb=npukb
tmp=$(mktemp -d /tmp/npukb-bench-workers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

now() { awk '{ print $1 }' /proc/uptime; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "bench-workers: level 1, --cases $cases, --seeds $seeds; load before: $(load)"
base=""
for j in $jobs; do
	# each run starts from a cache of its own holding only cpusim's
	# harness object: no run reuses the inputs or verdicts of another
	export NPUKB_CACHE_DIR="$tmp/cache-$j"
	"$npukb" run --task level1/Math/AddCustom --cases smallest-one --seeds 1 -q \
		-o "$tmp/warm-$j" >/dev/null 2>&1 || true
	rm -rf "$NPUKB_CACHE_DIR/units" "$NPUKB_CACHE_DIR/data"
	t0=$(now)
	set +e
	"$npukb" run --level 1 --cases "$cases" --seeds "$seeds" -j "$j" -q -o "$tmp/j$j" \
		>"$tmp/j$j.log" 2>&1
	rc=$?
	set -e
	t1=$(now)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	[ -n "$base" ] || base=$secs
	printf '  -j %-3s %8s s  (exit %d: %s)  speedup %s\n' "$j" "$secs" "$rc" \
		"$(tail -n 1 "$tmp/j$j/summary.txt" 2>/dev/null)" \
		"$(awk -v a="$base" -v b="$secs" 'BEGIN { printf "%.2fx", a / b }')"
done
echo "load after: $(load)"
