#!/bin/sh
# test_workroot.sh - where a run keeps its work folders (core/lib/workroot.h):
# --work-dir (and NPUKB_WORK_DIR) name the parent folder; the run's own
# folder there is gone when it ends; folders of runs that died (pid gone)
# are swept, a live run's and foreign names are left alone; --keep-work
# keeps them under the output folder whatever the parent; an empty
# --work-dir is a usage error.
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
tmp=$(mktemp -d /tmp/npukb-workroot-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
run() { # output-folder extra-options...
	out=$1
	shift
	"$npukb" run --task level1/Math/AddCustom --cases smallest-one --seeds 1 -q -o "$tmp/$out" "$@" \
		>"$tmp/$out.log" 2>&1 || { bad "npukb run $* exited $?"; sed 's/^/  /' "$tmp/$out.log" | head; }
}

# a pid that existed and is gone: a finished child's; folders are named
# by PID namespace too: a run in another one (unshare --pid, a container
# sharing /dev/shm) has pids that mean nothing here, and is left alone
dead=$(sh -c 'echo $$')
ns=$(stat -L -c %i /proc/self/ns/pid)
other=$((ns + 1))
mkdir -p "$tmp/wd/npukb-work-$ns-$dead-AbC123" "$tmp/wd/npukb-work-$ns-$$-LiVe99" \
	"$tmp/wd/npukb-work-$other-$dead-OtHeR1" "$tmp/wd/npukb-work-x-1" "$tmp/wd/other"
echo stale >"$tmp/wd/npukb-work-$ns-$dead-AbC123/x.bin"
run a --work-dir "$tmp/wd"
[ -e "$tmp/wd/npukb-work-$ns-$dead-AbC123" ] && bad "a dead run's work folder was not swept"
[ -d "$tmp/wd/npukb-work-$ns-$$-LiVe99" ] || bad "a live process's work folder was removed"
[ -d "$tmp/wd/npukb-work-$other-$dead-OtHeR1" ] || bad "another PID namespace's work folder was removed"
[ -d "$tmp/wd/npukb-work-x-1" ] && [ -d "$tmp/wd/other" ] || bad "a folder of another name was removed"
left=$(find "$tmp/wd" -mindepth 1 -maxdepth 1 -name 'npukb-work-*' | wc -l)
[ "$left" -eq 3 ] || { bad "the run left its work folder in --work-dir:"; ls "$tmp/wd" | sed 's/^/  /'; }
[ -e "$tmp/a/work" ] && bad "the work folder was made under the output folder despite --work-dir"
grep -q '"outcome":"pass"' "$tmp/a/journal.jsonl" || bad "the run in --work-dir did not pass"

# a record names the work folder as <work>: a random folder outside the
# output folder would make two runs of the same judging differ
src="${NPUKB_SRCDIR:-.}"
"$npukb" run --task level1/Comparison/Equal --no-answer --cases smallest-one --seeds 1 -q \
	--sample "$src/tests/samples/AddCustom/wrong_result" -o "$tmp/e" --work-dir "$tmp/wd" \
	>"$tmp/e.log" 2>&1
grep -q '<work>/level1_Comparison_Equal/wrong_result/build' "$tmp/e/journal.jsonl" ||
	bad "the failed build's command does not name <work>: $(grep -o '"details":"[^"]*' "$tmp/e/journal.jsonl" | head -c 400)"
grep -q "$tmp/wd" "$tmp/e/journal.jsonl" "$tmp/e/junit.xml" "$tmp/e/results.xml" &&
	bad "a report names the random work folder"

# the environment names the parent too, and a missing parent is created
NPUKB_WORK_DIR="$tmp/env/deeper" run b
[ -d "$tmp/env/deeper" ] || bad "NPUKB_WORK_DIR was not used"
[ -z "$(ls "$tmp/env/deeper")" ] || bad "the run left its work folder in NPUKB_WORK_DIR"

# --keep-work: under the output folder, where the user looks
NPUKB_WORK_DIR="$tmp/env2" run c --keep-work
[ -d "$tmp/c/work/level1_Math_AddCustom/answer" ] || bad "--keep-work did not keep DIR/work"
[ -z "$(ls "$tmp/env2" 2>/dev/null)" ] || bad "--keep-work still used NPUKB_WORK_DIR"

"$npukb" run --task level1/Math/AddCustom --work-dir '' -o "$tmp/d" >"$tmp/d.log" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--work-dir' "$tmp/d.log" || bad "an empty --work-dir exited $rc: $(cat "$tmp/d.log")"

[ "$fail" -eq 0 ] && echo "workroot: --work-dir, NPUKB_WORK_DIR, sweep of dead runs, --keep-work"
exit "$fail"
