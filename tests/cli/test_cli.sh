#!/bin/sh
# test_cli.sh - the npukb command as a user meets it: help, version, exit
# codes, plugins, list, validate. Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/checks.sh"

check "--help" 0 "$npukb" --help
grep_out "--help lists run" "run " "$tmp/out"
grep_out "--help lists exit status" "Exit status" "$tmp/out"
check "--version" 0 "$npukb" --version
grep_out "--version" "npukb [0-9]" "$tmp/out"
check "no command" 2 "$npukb"
check "unknown command" 2 "$npukb" frobnicate
grep_out "unknown command named" "frobnicate" "$tmp/err"
check "run --help" 0 "$npukb" run --help
grep_out "run --help documents --sample" "--sample DIR" "$tmp/out"
grep_out "run --help documents --dump-tensors" "--dump-tensors" "$tmp/out"
grep_out "run --help documents --strict" "--strict           fail a case on a defect too" "$tmp/out"
grep_out "run --help documents --case" "--case ID" "$tmp/out"
check "help run" 0 "$npukb" help run
grep_out "help run" "--run-timeout" "$tmp/out"
check "run bad option" 2 "$npukb" run --no-such-option
check "run bad level" 2 "$npukb" run --level 9
check "run bad seeds" 2 "$npukb" run --seeds abc

# every plugin of the build loads; each backend says whether it is usable
check "plugins" 0 "$npukb" plugins
for p in compile correctness performance classify cpusim ascend-device ascend-hostdev skeleton; do
	grep_out "plugin $p loaded" "^$p  *loaded" "$tmp/out"
done
grep_out "ascend backends say why they skip" "CANN" "$tmp/out"
grep_out "plugins lists a backend's options" "backend-opt data-dir=VALUE" "$tmp/out"

# --backend-opt: NAME=VALUE, a name the backend lists, a value it accepts;
# a refused option stops the run before any work
check "backend-opt without =" 2 "$npukb" run --backend-opt cxx -o "$tmp/bo"
check "backend-opt unknown" 3 "$npukb" run --task level1/Math/AddCustom --backend-opt nope=1 -o "$tmp/bo"
grep_out "unknown backend-opt names the valid ones" "no such option; it takes cxx, data-dir" "$tmp/err"
test ! -e "$tmp/bo/junit.xml" || { fail=$((fail + 1)); echo "FAIL: a refused option still judged"; }
check "backend-opt refused value" 3 "$npukb" run --task level1/Math/AddCustom --backend-opt cxx= -o "$tmp/bo"
grep_out "refused value says why" "refuses its options: cxx is empty" "$tmp/err"
check "backend-opt cxx reaches the backend" 0 "$npukb" run --task level1/Math/AddCustom \
	--cases smallest-one --seeds 1 --backend-opt cxx=/nonexistent/g++ -o "$tmp/bo2"
grep_out "backend-opt cxx is the compiler probed" "'/nonexistent/g++' does not run" "$tmp/bo2/summary.txt"

# a rejected plugin is listed with its reason and turns the status to 1
mkdir -p "$tmp/plugins"
cp "${NPUKB_BUILDDIR:-.}/tests/plugins/.libs/wrongabi.so" "$tmp/plugins/"
check "plugins with a rejected one" 1 "$npukb" plugins --plugin-dir "$tmp/plugins"
# wrongabi.c declares the header's ABI + 98
abi=$(sed -n 's/^#define NPUKB_PLUGIN_ABI \([0-9]*\)$/\1/p' "${NPUKB_SRCDIR:-.}/core/include/npukb/plugin.h")
grep_out "rejection reason" "plugin ABI $((abi + 98)), npukb expects $abi" "$tmp/out"

check "list" 0 "$npukb" list --level 1
grep_out "list shows AddCustom" "level1/Math/AddCustom" "$tmp/out"
check "list level 2" 0 "$npukb" list --level 2
grep_out "list shows a Level 2 task" "^level2/Foreach/ForeachAbs	" "$tmp/out"
if grep -q "^level1/" "$tmp/out"; then
	fail=$((fail + 1)); echo "FAIL: list --level 2 shows Level 1 tasks"
else
	pass=$((pass + 1))
fi
# Level 3: all 18 tasks listed; with no expert answers yet, a run of the
# level selects nothing and says why (exit 3), it does not crash
check "list level 3" 0 "$npukb" list --level 3
grep_out "list shows a Level 3 GMM task" "^level3/GMM/GroupedMatmulSliceKPerTokenDequant	" "$tmp/out"
grep_out "list shows Level 3's TopKV3" "^level3/Sort/TopKV3	" "$tmp/out"
if [ "$(grep -c "^level3/" "$tmp/out")" -eq 18 ] && ! grep -q "^level[12]/" "$tmp/out"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); echo "FAIL: list --level 3 does not show exactly Level 3's 18 tasks"
fi
if [ -d "$src/levels/level3/GMM/BasicMatmul/answer" ]; then
	pass=$((pass + 1)) # answers have arrived: the level suites judge them
else
	check "run level 3 without answers" 3 "$npukb" run --level 3 -o "$tmp/r3"
	grep_out "run level 3 says there is no answer" "no sample to judge on the 18 selected tasks (no expert answer" "$tmp/err"
fi
# a level without tasks is said so, and is no success
mkdir -p "$tmp/levels/schema" "$tmp/levels/level1/Math" "$tmp/levels/level2"
cp "$src/levels/schema/task.rng" "$tmp/levels/schema/"
cp -r "$src/levels/level1/Math/AddCustom" "$tmp/levels/level1/Math/"
check "list an empty level" 3 "$npukb" list --levels "$tmp/levels" --level 2
grep_out "empty level named" "level 2 has no tasks" "$tmp/err"
check "list a level with tasks" 0 "$npukb" list --levels "$tmp/levels" --level 1
check "run an empty level" 3 "$npukb" run --levels "$tmp/levels" --level 2 -o "$tmp/r0"
check "validate all" 0 "$npukb" validate
check "validate one" 0 "$npukb" validate "$src/levels/level1/Math/AddCustom/task.xml"
check "validate malformed" 1 "$npukb" validate "$src/tests/data/manifests/malformed_unquoted.xml"
grep_out "validate gives file:line" "malformed_unquoted.xml:[0-9][0-9]*:" "$tmp/err"

check "run on a missing sample folder" 3 "$npukb" run --task level1/Math/AddCustom \
	--no-answer --sample "$tmp/does-not-exist" -o "$tmp/r1"
grep_out "missing sample named" "does-not-exist" "$tmp/err"
check "run on an unknown task" 3 "$npukb" run --task level9/Nope/Nope -o "$tmp/r2"
check "run with an unknown backend" 4 "$npukb" run --backend nope -o "$tmp/r3"
grep_out "unknown backend named" "backend 'nope'" "$tmp/err"

# an unusable backend skips everything with its reason: exit 0, nothing passes silently
check "run on ascend-device without CANN" 0 "$npukb" run --task level1/Math/AddCustom \
	--backend ascend-device -o "$tmp/r4" --seeds 1
grep_out "skipped, not passed" "0 passed, 0 failed, 5 skipped" "$tmp/out"
grep_out "junit says skipped" "<skipped message=" "$tmp/r4/junit.xml"

# report: the leaderboard figures of journals; bad input names file:line
j="$src/tests/data/journals"
check "report" 0 "$npukb" report "$j/small.jsonl"
grep_out "report overall row" "^overall  *4  *10 " "$tmp/out"
grep_out "report weighted score" "missing level3" "$tmp/out"
check "report --by task --json" 0 "$npukb" report "$j/small.jsonl" --by task --json "$tmp/report.json"
grep_out "report task row" "^level2/Norm/RmsNorm " "$tmp/out"
grep_out "report json n/a" '"reason": "n<k"' "$tmp/report.json"
check "report two runs" 0 "$npukb" report "$j/small.jsonl" "$j/runB.jsonl"
grep_out "report second run" "^run runB " "$tmp/out"
check "report torn last line" 0 "$npukb" report "$j/torn.jsonl"
grep_out "report warns of a torn line" "torn.jsonl:4: torn last line" "$tmp/err"
check "report bad line" 3 "$npukb" report "$j/bad.jsonl"
grep_out "report names file:line" "bad.jsonl:3: " "$tmp/err"
check "report missing journal" 3 "$npukb" report "$tmp/no-such.jsonl"
check "report no journal" 2 "$npukb" report
check "report bad --by" 2 "$npukb" report --by week "$j/small.jsonl"

# --case narrows every selected task to the named cases
check "run one case" 0 "$npukb" run --task level1/Math/AddCustom --case 4 \
	--backend ascend-device -o "$tmp/r5" --seeds 1
grep_out "one case only" "0 passed, 0 failed, 1 skipped" "$tmp/out"

# lint: no Level 1 task is passed by all-zero, copied or constant outputs
check "lint level 1" 0 "$npukb" lint --level 1
grep_out "lint reports every task" "0 flagged, 0 invalid manifests" "$tmp/out"
grep_out "lint names allowed trivial outputs" "Fill: ok .*allowed: constant" "$tmp/out"
check "lint bad option" 2 "$npukb" lint --level 7

# the shared options: the commands --help names take them, the others refuse them
shared=$("$npukb" --help | sed -n 's/^Options of \(.*\):$/\1/p' | sed 's/,//g; s/ and / /')
[ -n "$shared" ] && pass=$((pass + 1)) || { echo "FAIL: --help names no commands for --levels"; fail=$((fail + 1)); }
for c in run import list plugins validate lint question report merge leaderboard cache task; do
	want=2
	case " $shared " in *" $c "*) want=0 ;; esac
	check "$c --levels" $want "$npukb" $c --levels "$src/levels" --help
	check "$c --plugin-dir" $want "$npukb" $c --plugin-dir "$tmp" --help
done

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
