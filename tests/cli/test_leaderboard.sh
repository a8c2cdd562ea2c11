#!/bin/sh
# test_leaderboard.sh - `npukb leaderboard` as a user meets it: usage and
# exit codes, the files it writes, links to run reports only where they
# exist, coverage and suspect flags in its data, and every figure of the
# page equal to `npukb report --json` over the same journals. Needs node
# and xmllint (skips with 77 without them). Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
for t in node xmllint; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t is not installed"; exit 77; }
done
tmp=$(mktemp -d /tmp/npukb-lb-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # name expected-status command...
	name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then ok; else
		bad "$name: exit $got, expected $want"
		sed 's/^/  out: /' "$tmp/out" | head -20
		sed 's/^/  err: /' "$tmp/err" | head -20
	fi
}
check_eq() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }
. "$src/tests/leaderboard_fixture.sh"

check "--help" 0 "$npukb" leaderboard --help
grep -q "JOURNAL_OR_RUN_DIR" "$tmp/out" && ok || bad "--help does not show the usage"
check "no -o" 2 "$npukb" leaderboard "$tmp/b.jsonl"
grep -q "no output folder" "$tmp/err" && ok || bad "no -o: no reason given"
check "no journal" 2 "$npukb" leaderboard -o "$tmp/lb"
check "missing journal" 3 "$npukb" leaderboard "$tmp/nonexistent.jsonl" -o "$tmp/lb"
printf '{"type":"run","run":"X"}\nnot json\n{"type":"run","run":"X"}\n' >"$tmp/bad.jsonl"
check "invalid journal" 3 "$npukb" leaderboard "$tmp/bad.jsonl" -o "$tmp/lb"
grep -q "bad.jsonl:2" "$tmp/err" && ok || bad "invalid journal: file:line not named"
check "unknown option" 2 "$npukb" leaderboard --bogus "$tmp/b.jsonl" -o "$tmp/lb"

# a run folder and a bare journal
check "leaderboard" 0 "$npukb" leaderboard "$tmp/run-a" "$tmp/b.jsonl" -o "$tmp/lb"
for f in index.html leaderboard.xml style.css; do
	[ -s "$tmp/lb/$f" ] && ok || bad "no $f written"
done
x() { xmllint --xpath "$1" "$tmp/lb/leaderboard.xml" 2>/dev/null; }
check_eq "entries" "$(x 'count(/leaderboard/entry)')" 2
check_eq "task universe" "$(x 'string(/leaderboard/@tasks)')" 2
check_eq "run A links its report" "$(x "string(/leaderboard/entry[@run='RUN-A']/@report)")" \
	"../run-a/report/index.html"
check_eq "run B has no report" "$(x "count(/leaderboard/entry[@run='RUN-B']/@report)")" 0
check_eq "run A misses a task" \
	"$(x "string(//entry[@run='RUN-A']//aggregate[@name='overall']/@tasks-missing)")" 1
check_eq "run B's 20x speedup is suspect" \
	"$(x "string(//entry[@run='RUN-B']//aggregate[@name='overall']/@suspect-speedups)")" 1

# every figure on the page equals npukb report --json over the same journals
"$npukb" report --json - "$tmp/run-a/journal.jsonl" "$tmp/b.jsonl" >"$tmp/report.json" &&
	ok || bad "npukb report --json failed"
expected_figures "$tmp/report.json" >"$tmp/expected" || bad "node could not read the JSON"
n=0
while IFS="$(printf '\t')" read -r key want raw; do
	got=$(xmllint --html --xpath "normalize-space(//*[@data-k='$key'])" "$tmp/lb/index.html" 2>/dev/null)
	n=$((n + 1))
	check_eq "$key" "$got" "$want"
	[ "$raw" = - ] ||
		check_eq "$key data-v" "$(xmllint --html --xpath "string(//*[@data-k='$key']/@data-v)" "$tmp/lb/index.html" 2>/dev/null)" "$raw"
done <"$tmp/expected"
[ "$n" -ge 50 ] && ok || bad "only $n figures compared"
echo "leaderboard: $n figures compared with npukb report --json"
# a suspect flag beside run B's scores, none beside run A's
check_eq "suspect flags for run B" \
	"$(xmllint --html --xpath "count(//tr[@data-run='RUN-B']//span[contains(@class,'suspect')]) > 0" "$tmp/lb/index.html" 2>/dev/null)" true
check_eq "no suspect flags for run A" \
	"$(xmllint --html --xpath "count(//tr[@data-run='RUN-A']//span[contains(@class,'suspect')])" "$tmp/lb/index.html" 2>/dev/null)" 0
# sortable: every heading of every table can be clicked (inline script, no src)
check_eq "inline script" "$(xmllint --html --xpath "count(//script[not(@src)])" "$tmp/lb/index.html" 2>/dev/null)" 1

# running again over the same folder replaces the page
check "again" 0 "$npukb" leaderboard "$tmp/b.jsonl" -o "$tmp/lb"
check_eq "one entry now" "$(x 'count(/leaderboard/entry)')" 1

echo "leaderboard: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
