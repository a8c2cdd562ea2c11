#!/bin/sh
# test_cache.sh - the build cache as a user meets it: the first run fills
# it, the next takes cpusim's harness from it, --no-cache neither reads nor
# writes it, every run gives the same verdicts and cycles, and `npukb cache`
# shows and empties it. Prints "N passed, N failed".
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
n=$(find "$tmp/cache" -type f | wc -l)
[ "$n" -eq 1 ] && ok || bad "a cold run left $n files in the cache, expected 1"
commands cold | grep -q 'harness.cpp' && ok || bad "a cold run did not compile the harness"

judge warm
commands warm | grep -q '^# harness object from the cache' && ok || bad "a warm run did not use the cache"
commands warm | grep -q 'harness.cpp' && bad "a warm run compiled the harness again" || ok

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

"$npukb" cache >"$tmp/show" 2>&1 && grep -q "$tmp/cache: 1 files" "$tmp/show" && ok || { bad "npukb cache:"; cat "$tmp/show"; }
"$npukb" cache clean >/dev/null 2>&1 && [ ! -e "$tmp/cache" ] && ok || bad "npukb cache clean left the folder"
"$npukb" cache frobnicate >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "npukb cache frobnicate: not a usage error"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
