#!/bin/sh
# bench_suite.sh - every speed figure issue 16 asks for, printed as numbers
# (a program, not a test: nothing here passes or fails on time):
#  1. the full Level 1 (every case, 5 seeds, the expert answers) with empty
#     caches, default workers; with BENCH_J1=1 also with one worker;
#  2. the same run again with nothing changed, and the ratio;
#  3. StridesliceNegConcatV2's largest case (1x512x1024x1024 fp16) with one
#     seed, and the peak memory of its largest process against the case's
#     tensor bytes;
#  4. an extra sample on a task already judged, against its bare compile
#     and launches (bench_cache.sh's second part);
#  5. cpusim against a plain C loop (make bench, run-speed.sh).
# Each figure has the load average beside it: a loaded machine gives no
# figure worth quoting. `make bench-suite` runs it from the build tree;
# BENCH_PARTS="1 3" runs only the parts named (default: all).
set -u
b="${NPUKB_BUILDDIR:-$(pwd)}"
src="${NPUKB_SRCDIR:-$b}"
npukb="$b/npukb"
parts=${BENCH_PARTS:-1 2 3 4 5}
tmp=$(mktemp -d /tmp/npukb-bench-suite-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export NPUKB_CACHE_DIR="$tmp/cache"
unset NPUKB_CACHE_MAX

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
want() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
# label command...: runs it, prints its wall time; $t holds the seconds.
# An exit above 1 (a failed verdict is 1) makes the figure worthless.
timed() {
	label=$1
	shift
	t0=$(now)
	"$@" >"$tmp/log" 2>&1
	st=$?
	t=$(echo "$(now) - $t0" | bc)
	if [ "$st" -gt 1 ]; then
		echo "$label: exit $st"
		tail -n 5 "$tmp/log"
		exit 1
	fi
	printf '%-52s %9.2f s   (exit %d, load %s)\n' "$label" "$t" "$st" "$(load)"
}

echo "npukb bench-suite on $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
if want 1 || want 2; then
	rm -rf "$NPUKB_CACHE_DIR"
	timed "1. level 1, all cases x 5 seeds, cold caches" \
		"$npukb" run --level 1 -q -o "$tmp/l1"
	cold=$t
	tail -n 1 "$tmp/l1/summary.txt"
	if [ "${BENCH_J1:-0}" = 1 ]; then
		rm -rf "$NPUKB_CACHE_DIR"
		timed "1. the same with one worker (-j1), cold caches" \
			"$npukb" run --level 1 -j1 -q -o "$tmp/l1j1"
	fi
	if want 2; then
		[ "${BENCH_J1:-0}" = 1 ] && "$npukb" run --level 1 -q -o "$tmp/l1" >/dev/null 2>&1
		timed "2. the same run again, nothing changed" \
			"$npukb" run --level 1 -q -o "$tmp/l1"
		printf '%-52s %9.1fx\n' "2. re-run speedup" "$(echo "$cold / $t" | bc -l)"
	fi
fi
if want 3; then
	task=level1/Math/StridesliceNegConcatV2
	rm -rf "$NPUKB_CACHE_DIR"
	t0=$(now)
	/usr/bin/time -f '%M' -o "$tmp/rss" "$npukb" run --task "$task" --case 3 --seeds 1 \
		-q -o "$tmp/ss" >"$tmp/log" 2>&1
	st=$?
	t=$(echo "$(now) - $t0" | bc)
	printf '%-52s %9.2f s   (exit %d, load %s)\n' "3. StridesliceNegConcatV2 case 3, one seed" "$t" "$st" "$(load)"
	# input 1x512x1024x1024 fp16 and an output of the same size
	bytes=$((2 * 512 * 1024 * 1024 * 2))
	rss=$(tail -n 1 "$tmp/rss")
	printf '%-52s %9.2f GB   (%.2fx the %.2f GB of tensors)\n' "3. peak RSS of its largest process" \
		"$(echo "$rss * 1024 / 1000000000" | bc -l)" "$(echo "$rss * 1024 / $bytes" | bc -l)" \
		"$(echo "$bytes / 1000000000" | bc -l)"
fi
if want 4; then
	echo "4. a second sample on a task already judged (bench_cache.sh):"
	BENCH_LEVEL1=0 sh "$src/tests/bench/bench_cache.sh" | sed 's/^/   /'
fi
if want 5; then
	echo "5. cpusim against a plain C loop (run-speed.sh):"
	sh "$src/plugins/cpusim/bench/run-speed.sh" | sed 's/^/   /'
fi
