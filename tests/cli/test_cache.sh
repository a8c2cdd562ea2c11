#!/bin/sh
# test_cache.sh - the cache as a user meets it on cpusim: the first run
# fills it, the next takes cpusim's harness from it, the same run again
# (same output folder) replays the unit without building it, --no-cache
# neither reads nor writes it, every run gives the same verdicts and
# cycles, and `npukb cache` shows and empties it. Prints "N passed, N
# failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
tmp=$(mktemp -d /tmp/npukb-cache-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

export NPUKB_CACHE_DIR="$tmp/cache"
judge() { # output-folder [options]
	out=$1
	shift
	"$npukb" run --task level1/Math/AddCustom --case 0 --seeds 1 -q --keep-work -o "$tmp/$out" "$@" \
		>"$tmp/$out.log" 2>&1 || { bad "npukb run $out: exit $?"; cat "$tmp/$out.log"; }
}
commands() { cat "$tmp/$1"/work/*/answer/build/commands.log; }
verdicts() { grep '^level1/' "$tmp/$1/summary.txt"; }

judge nocache --no-cache
[ ! -e "$tmp/cache" ] && ok || bad "--no-cache created the cache folder"
commands nocache | grep -q 'harness.cpp' && ok || bad "--no-cache did not compile the harness"

judge cold
n=$(find "$tmp/cache/cpusim-harness" -type f | wc -l)
[ "$n" -eq 1 ] && ok || bad "a cold run left $n harness objects in the cache, expected 1"
n=$(find "$tmp/cache/units" -type f | wc -l)
[ "$n" -eq 1 ] && ok || bad "a cold run left $n unit entries in the cache, expected 1"
commands cold | grep -q 'harness.cpp' && ok || bad "a cold run did not compile the harness"

judge warm
commands warm | grep -q '^# harness object from the cache' && ok || bad "a warm run did not use the cache"
commands warm | grep -q 'harness.cpp' && bad "a warm run compiled the harness again" || ok

# the same run again: replayed, nothing built (no work folder kept)
records() { grep '"type":"verdict"' "$tmp/$1/journal.jsonl" | sed 's/"run":"[^"]*"//; s/"wall_seconds":[^,}]*//'; }
records cold >"$tmp/r.cold"
rm -rf "$tmp/cold/work"
judge cold
[ ! -e "$tmp/cold/work/level1_Math_AddCustom/answer/build" ] && ok ||
	bad "the same run again built the sample"
n=$(grep -c '"type":"unit"' "$tmp/cold/journal.jsonl")
[ "$n" -eq 2 ] && ok || bad "two runs in one folder wrote $n unit records"
records cold | tail -n "$(wc -l <"$tmp/r.cold")" >"$tmp/r.again"
[ "$(wc -l <"$tmp/r.cold")" -gt 0 ] && cmp -s "$tmp/r.cold" "$tmp/r.again" && ok ||
	{ bad "the replayed records differ:"; diff "$tmp/r.cold" "$tmp/r.again" | head; }

verdicts nocache >"$tmp/v.nocache"
for r in cold warm; do
	verdicts "$r" >"$tmp/v.$r"
	if [ -s "$tmp/v.$r" ] && cmp -s "$tmp/v.nocache" "$tmp/v.$r"; then
		ok
	else
		bad "$r run's verdicts differ from --no-cache's:"
		cat "$tmp/v.$r" "$tmp/v.nocache"
	fi
done

"$npukb" cache >"$tmp/show" 2>&1 && grep -q "^$tmp/cache: [0-9]* files" "$tmp/show" &&
	grep -q "^  cpusim-harness  *1 files" "$tmp/show" && ok || { bad "npukb cache:"; cat "$tmp/show"; }
"$npukb" cache clean >/dev/null 2>&1 && [ ! -e "$tmp/cache" ] && ok || bad "npukb cache clean left the folder"
"$npukb" cache frobnicate >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "npukb cache frobnicate: not a usage error"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
