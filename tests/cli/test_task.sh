#!/bin/sh
# test_task.sh - a task of your own as a user meets it: `npukb task new`
# writes a folder that validates as generated (its plugin not built yet is
# a note), refuses a bad name and a folder in use; the folder's Makefile
# builds the reference plugin; `npukb run --task DIR` passes the answer and
# finds the mismatch of a wrong sample; a run without the plugin is refused
# before any work, saying which file it looked for. (The installcheck does the same against the installed
# npukb.pc.) Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-task-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
status() { # expected-exit description command...
	want=$1
	what=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	got=$?
	[ "$got" -eq "$want" ] && ok || { bad "$what: exit $got, expected $want"; cat "$tmp/out"; }
}
export NPUKB_CACHE_DIR="${NPUKB_CACHE_DIR:-$tmp/cache}"
dir="$tmp/MyScale"

status 0 "task --help" "$npukb" task --help
grep -q '^Usage: npukb task new NAME' "$tmp/out" && ok || bad "task --help shows no usage"
status 2 "task new with a bad name" "$npukb" task new 9lives -o "$tmp/x"
status 2 "task without new" "$npukb" task MyScale

status 0 "task new" "$npukb" task new MyScale -o "$dir"
for f in task.xml Makefile my_scale_ref.c answer/my_scale.cpp; do
	[ -s "$dir/$f" ] && ok || bad "task new wrote no $f"
done
grep -q 'skeleton\|Skeleton' "$dir/task.xml" "$dir/my_scale_ref.c" "$dir/Makefile" \
	"$dir/answer/my_scale.cpp" && bad "the skeleton's name is left in the new task" || ok
grep -q 'id="level1/Custom/MyScale"' "$dir/task.xml" && ok || bad "task.xml has not the task's id"
status 3 "task new over a folder in use" "$npukb" task new MyScale -o "$dir"

status 0 "validate as generated" "$npukb" validate "$dir/task.xml"
grep -q 'note: reference plugin my_scale_ref.so is not built yet' "$tmp/out" && ok ||
	bad "validate does not note the unbuilt plugin: $(cat "$tmp/out")"

status 0 "make the reference plugin" make -C "$dir" NPUKB_CFLAGS="-I$src/core/include" NPUKB_LIBS= \
	CFLAGS="-O2 -Werror"
status 0 "validate with the plugin built" "$npukb" validate "$dir/task.xml"
grep -q 'note:' "$tmp/out" && bad "validate still notes the plugin once built" || ok

status 0 "run the answer" "$npukb" run --task "$dir" --seeds 2 -q -o "$tmp/r1"
grep -q "^level1/Custom/MyScale	answer	case 0	pass" "$tmp/r1/summary.txt" && ok ||
	bad "the answer did not pass: $(cat "$tmp/r1/summary.txt")"

mkdir "$tmp/wrong"
sed 's/\* 2\.0f/* 3.0f/' "$dir/answer/my_scale.cpp" >"$tmp/wrong/my_scale.cpp"
status 1 "run a wrong sample" "$npukb" run --task "$dir" --no-answer --sample "$tmp/wrong" --seeds 2 \
	-q -o "$tmp/r2"
grep -q "^level1/Custom/MyScale	wrong	case 0	fail	mismatch" "$tmp/r2/summary.txt" && ok ||
	bad "the wrong sample is no mismatch: $(cat "$tmp/r2/summary.txt")"

# the same run again into the same folder: the verdict cache replays it
status 0 "run the answer again" "$npukb" run --task "$dir" --seeds 2 -q -o "$tmp/r1"
rm "$dir/my_scale_ref.so"
# neither cache may stand in for the reference plugin once it is gone: the
# run refuses before any work (bad input), naming the file it looked for
status 3 "the same run without the plugin" "$npukb" run --task "$dir" --seeds 2 -q -o "$tmp/r1"
status 3 "run without the plugin" "$npukb" run --task "$dir" --seeds 1 -q -o "$tmp/r3"
grep -q "task.xml:[0-9]*: reference plugin my_scale_ref.so not found in $dir" "$tmp/out" &&
	ok || bad "no message naming the missing plugin: $(cat "$tmp/out")"
[ ! -e "$tmp/r3/journal.jsonl" ] && ok || bad "a refused run wrote a journal"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
