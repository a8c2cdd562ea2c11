#!/bin/sh
# bench_cache.sh - what the caches buy (issue 16), as numbers:
#  1. `npukb run --level 1 --cases smallest-per-dtype` on the expert
#     answers with an empty cache, then the same run again (the full Level
#     1 takes about 15 minutes on two cores: this measures the subset);
#  2. the extra time of a second sample (a copy of the answer, so it
#     compiles and runs the same) on AddCustom (every case, 5 seeds) in a
#     run that judges the answer too, against the bare compile and kernel
#     launches of that sample, timed by hand from its kept work folder.
# Every figure is printed with the load average beside it: the machine
# may be shared. Run from the build tree (make bench-cache);
# BENCH_LEVEL1=0 leaves out the first part (minutes on a busy machine).
set -u
b="${NPUKB_BUILDDIR:-$(pwd)}"
npukb="$b/npukb"
tmp=$(mktemp -d /tmp/npukb-bench-cache-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export NPUKB_CACHE_DIR="$tmp/cache"
unset NPUKB_CACHE_MAX # the default cap, as a user has it
task=level1/Math/AddCustom

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
secs() { echo "$2 - $1" | bc; }
timed() { # label command...: runs it, prints its wall time; $t holds it
	label=$1
	shift
	t0=$(now)
	"$@" >"$tmp/log" 2>&1
	st=$?
	t=$(secs "$t0" "$(now)")
	[ "$st" -le 1 ] || { echo "$label: exit $st"; tail -5 "$tmp/log"; exit 1; }
	printf '%-44s %8.2f s   (load %s)\n' "$label" "$t" "$(load)"
}

echo "npukb cache benchmark on $(nproc) cores"
if [ "${BENCH_LEVEL1:-1}" != 0 ]; then
	timed "level 1 smallest-per-dtype, cold cache" \
		nice -n 10 "$npukb" run --level 1 --cases smallest-per-dtype -q -o "$tmp/l1"
	cold=$t
	timed "the same run again" \
		nice -n 10 "$npukb" run --level 1 --cases smallest-per-dtype -q -o "$tmp/l1"
	printf '%-44s %8.1fx\n' "re-run speedup" "$(echo "$cold / $t" | bc -l)"
fi

# 2. a second sample on a task already judged in the run
rm -rf "$tmp/cache"
mkdir -p "$tmp/copy"
cp "$NPUKB_DATADIR/levels/$task/answer/"* "$tmp/copy/"
timed "AddCustom: the answer alone" \
	nice -n 10 "$npukb" run --task $task -q -o "$tmp/one"
one=$t
rm -rf "$tmp/cache"
timed "AddCustom: the answer and a second sample" \
	nice -n 10 "$npukb" run --task $task --sample "$tmp/copy" --keep-work -q -o "$tmp/two"
extra=$(secs "$one" "$t")
printf '%-44s %8.2f s\n' "the second sample's extra time" "$extra"

# the bare work of the second sample: its compile command, then each
# launch it made (correctness seeds, re-check, performance), by hand
w="$tmp/two/work/level1_Math_AddCustom/copy"
bare0=$(now)
(cd "$w/build" && tail -1 commands.log >"$tmp/compile.sh" && nice -n 10 sh "$tmp/compile.sh") ||
	{ echo "the bare compile failed"; exit 1; }
for d in "$w"/case-*/seed-* "$w"/recheck/seed-* "$w"/perf-*/perf; do
	[ -f "$d/x.bin" ] || continue
	cp "$d/z.bin" "$tmp/z.bin"
	rm -f "$tmp/stats" # the harness takes an existing stats file for a forgery
	nice -n 10 "$w/build/kernel.exe" --blocks 48 --soc ascend910b2 --stats "$tmp/stats" \
		"in=$d/x.bin" "in=$d/y.bin" "out=$tmp/z.bin" ws=16777216 "tiling=$d/tiling.bin" \
		>/dev/null 2>&1 || { echo "a bare launch in $d failed"; exit 1; }
done
bare=$(secs "$bare0" "$(now)")
printf '%-44s %8.2f s   (load %s)\n' "its bare compile and launches" "$bare" "$(load)"
printf '%-44s %8.2fx\n' "extra / bare" "$(echo "$extra / $bare" | bc -l)"
