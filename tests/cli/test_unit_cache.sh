#!/bin/sh
# test_unit_cache.sh - the verdict cache (core/lib/unit_cache.h) as a user
# meets it, on the test backend "fixed" (tests/backends/fixed.c), which
# logs every build: a unit that is built was judged, one that is not was
# replayed. A run with nothing changed replays every unit; a change to
# anything the verdicts depend on judges again; a replayed journal says
# what a judged one says; --no-cache neither reads nor writes the cache; a
# corrupt entry is ignored and replaced; entries are read-only; a backend
# that does not call its results reproducible is never cached. Prints
# "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
plugins="${NPUKB_BUILDDIR:-.}/tests/backends/.libs"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-ucache-XXXXXX)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

export NPUKB_CACHE_DIR="$tmp/cache"
export FIXED_LOG="$tmp/builds.log"
export FIXED_REPRODUCIBLE=1
task=level1/Math/AddCustom
mkdir -p "$tmp/s1"
cp "$src/levels/$task/answer/"* "$tmp/s1/"
cp -r "$src/levels" "$tmp/levels"

judge() { # [options]: one run into $tmp/out; the count of builds it made
	: >"$FIXED_LOG"
	"$npukb" run --plugin-dir "$plugins" --backend fixed --task $task --case 0 --seeds 1 \
		--no-answer --sample "$tmp/s1" -q -o "$tmp/out" "$@" >"$tmp/run.log" 2>&1
	st=$?
	if [ "$st" -le 1 ]; then
		wc -l <"$FIXED_LOG" | tr -d ' '
	else
		echo "no count (npukb run $* exited $st)"
		sed 's/^/  /' "$tmp/run.log" >&2
	fi
}
judged() { # name builds: the run judged its unit
	[ "$2" = 1 ] && ok || bad "$1: expected the unit judged, got: $2 builds"
}
replayed() { # name builds
	[ "$2" = 0 ] && ok || bad "$1: expected the unit replayed, got: $2 builds"
}
# The records of the journal's last run, without what differs between two
# runs of the same thing (run id, times).
last_run() {
	id=$(grep '"type":"run"' "$tmp/out/journal.jsonl" | tail -1 | sed 's/.*"run":"\([^"]*\)".*/\1/')
	grep "\"run\":\"$id\"" "$tmp/out/journal.jsonl" | grep -v '"type":"\(run\|end\)"' |
		sed 's/"run":"[^"]*"//; s/"wall_seconds":[^,}]*//'
}

judged "a cold run" "$(judge)"
last_run >"$tmp/cold"
replayed "the same run again" "$(judge)"
last_run >"$tmp/warm"
if [ -s "$tmp/cold" ] && cmp -s "$tmp/cold" "$tmp/warm"; then ok; else
	bad "a replayed unit's records differ from the judged ones:"
	diff "$tmp/cold" "$tmp/warm" | head -10
fi
grep -q '"type":"unit".*"sample":"s1"' "$tmp/out/journal.jsonl" && ok || bad "no unit record"

# every entry is read-only, in a folder only this user may enter
n=$(find "$tmp/cache/units" -type f | wc -l)
[ "$n" -eq 1 ] && ok || bad "expected 1 unit entry, found $n"
w=$(find "$tmp/cache/units" -type f -perm /222 | wc -l)
[ "$w" -eq 0 ] && ok || bad "$w unit entries are writable"
[ "$(stat -c %a "$tmp/cache/units")" = 700 ] && ok || bad "the units folder is not 0700"

# --no-cache: judged, and the cache is as it was (names, sizes, times)
snap() { find "$tmp/cache" -type f -printf '%p %s %T@\n' | sort; }
snap >"$tmp/before"
judged "--no-cache" "$(judge --no-cache)"
snap >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && ok || bad "--no-cache changed the cache"
last_run >"$tmp/nocache"
cmp -s "$tmp/cold" "$tmp/nocache" && ok || bad "--no-cache's records differ from the cached ones"
[ -z "$(find "$tmp/out" -maxdepth 1 -name '.npukb-shared-*')" ] && ok ||
	bad "--no-cache left its shared folder behind"

# each change to what the verdicts depend on judges the unit again
judged "another seed" "$(judge --seed 7)"
judged "another seed count" "$(judge --seeds 2)"
judged "another case selection" "$(judge --case 1)"
judged "another run timeout" "$(judge --run-timeout 59)"
judged "a backend option" "$(judge --backend-opt flavour=b)"
judged "another SoC" "$(judge --soc ascend910b3)"
judged "another plugin environment" "$(NPUKB_CXX=c++ judge)"
replayed "nothing changed after all that" "$(judge)"
echo '// one more line' >>"$tmp/s1/add_custom.cpp"
judged "a sample file edited" "$(judge)"
replayed "the edited sample again" "$(judge)"
echo 'x' >"$tmp/s1/.hidden.h"
judged "a dot file added to the sample" "$(judge)"
judged "another levels folder (same manifests)" "$(judge --levels "$tmp/levels")"
replayed "that levels folder again" "$(judge --levels "$tmp/levels")"
sed -i 's/<summary>/<summary>Edited. /' "$tmp/levels/$task/task.xml"
grep -q 'Edited\.' "$tmp/levels/$task/task.xml" || bad "the manifest edit did not apply"
judged "a manifest edited" "$(judge --levels "$tmp/levels")"

# an entry of another npukb version, or corrupt, is not trusted
for f in $(find "$tmp/cache/units" -type f); do
	chmod u+w "$f"
	sed -i '2s/^version .*/version 0.0.0-other/' "$f"
	chmod a-w "$f"
done
judged "an entry of another npukb version" "$(judge --levels "$tmp/levels")"
replayed "its replacement" "$(judge --levels "$tmp/levels")"
for f in $(find "$tmp/cache/units" -type f); do
	chmod u+w "$f"
	printf 'X' | dd of="$f" bs=1 seek=$(($(stat -c %s "$f") - 5)) conv=notrunc 2>/dev/null
	chmod a-w "$f"
done
judged "a corrupt entry" "$(judge --levels "$tmp/levels")"
last_run >"$tmp/fresh"
replayed "its replacement" "$(judge --levels "$tmp/levels")"
last_run >"$tmp/again"
cmp -s "$tmp/fresh" "$tmp/again" && ok || bad "the replacement replays other records"
for f in $(find "$tmp/cache/units" -type f); do chmod u+w "$f"; done
judged "a writable entry" "$(judge --levels "$tmp/levels")"

# a replayed failing unit is named under its task as the judged one was
# (the fixed backend writes no output: every unit fails)
rm -rf "$tmp/cache"
for pass_ in cold warm; do
	"$npukb" run --plugin-dir "$plugins" --backend fixed --task $task --case 0 --seeds 1 \
		--no-answer --sample "$tmp/s1" -o "$tmp/out-lines" >"$tmp/lines-$pass_" 2>&1
done
grep '^  s1: unwritten-output: ' "$tmp/lines-cold" >"$tmp/line-cold"
grep '^  s1: unwritten-output: ' "$tmp/lines-warm" >"$tmp/line-warm"
if [ -s "$tmp/line-cold" ] && cmp -s "$tmp/line-cold" "$tmp/line-warm"; then ok; else
	bad "a replayed failure is not named as the judged one was:"
	cat "$tmp/lines-cold" "$tmp/lines-warm"
fi

# a backend that does not call its results reproducible is always judged
rm -rf "$tmp/cache"
unset FIXED_REPRODUCIBLE
judged "not reproducible" "$(judge)"
judged "not reproducible, again" "$(judge)"
[ -z "$(find "$tmp/cache" -path '*/units/*' -type f 2>/dev/null)" ] && ok ||
	bad "a backend that is not reproducible left unit entries"

# npukb cache shows each kind; clean empties it
export FIXED_REPRODUCIBLE=1
judge >/dev/null
"$npukb" cache >"$tmp/show" 2>&1
grep -q '^  units  *1 files' "$tmp/show" && grep -q '^  data ' "$tmp/show" && ok ||
	{ bad "npukb cache:"; cat "$tmp/show"; }
"$npukb" cache clean >/dev/null 2>&1 && [ ! -e "$tmp/cache" ] && ok || bad "cache clean"

# a cache folder inside the output folder (where samples write) is refused
NPUKB_CACHE_DIR="$tmp/out/cache" judge >/dev/null
judged "a cache inside the output folder" "$(NPUKB_CACHE_DIR="$tmp/out/cache" judge)"
grep -q 'no verdict cache for this run' "$tmp/run.log" && ok || bad "no note of the refused cache"
[ ! -e "$tmp/out/cache/units" ] && ok || bad "units were kept inside the output folder"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
