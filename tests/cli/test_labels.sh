#!/bin/sh
# test_labels.sh - `npukb run --label NAME`: the label is kept in the
# journal's header record and shown by `npukb report` (text and JSON),
# results.xml and `npukb leaderboard` (leaderboard.xml: entry/@label, and
# entry/@name, the label or else the run id); bad labels are usage errors.
# A sample's response.json (model, response hash) reaches the journal's
# unit record and results.xml; a bad one is noted and ignored.
# Needs xmllint (skips with 77 without it).
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
command -v xmllint >/dev/null 2>&1 || { echo "SKIP: xmllint is not installed"; exit 77; }
tmp=$(mktemp -d /tmp/npukb-labels-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/checks.sh"
eq() { if [ "$2" = "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1: got '$2', want '$3'"; fi; }

sel="--task level1/Math/AddCustom --cases smallest-one --seeds 1 -q --no-answer
	--sample $src/tests/samples/AddCustom/wrong_result"
# shellcheck disable=SC2086
check "run --label" 1 "$npukb" run $sel --label 'model <A> & "b"' -o "$tmp/a"
grep_out "label in the journal header" '^{"type":"run",.*"label":"model <A> & \\"b\\""' "$tmp/a/journal.jsonl"
eq "results.xml run/@label" "$(xmllint --xpath 'string(/run/@label)' "$tmp/a/results.xml")" \
	'model <A> & "b"'
grep_out "summary.txt names the label" '(label model <A> & "b")' "$tmp/a/summary.txt"
# shellcheck disable=SC2086
check "run without --label" 1 "$npukb" run $sel -o "$tmp/b"
no_grep "no label in the journal without --label" '"label"' "$tmp/b/journal.jsonl"
eq "no results.xml run/@label" "$(xmllint --xpath 'count(/run/@label)' "$tmp/b/results.xml")" 0

check "empty label" 2 "$npukb" run $sel --label '' -o "$tmp/c"
grep_out "empty label: reason" "invalid value" "$tmp/err"
check "label with a newline" 2 "$npukb" run $sel --label "$(printf 'a\nb')" -o "$tmp/c"
check "label over 128 bytes" 2 "$npukb" run $sel \
	--label "$(printf '%0129d' 0)" -o "$tmp/c"
[ -e "$tmp/c/journal.jsonl" ] && { fail=$((fail + 1)); echo "FAIL: a refused label still ran"; }

check "report" 0 "$npukb" report "$tmp/a/journal.jsonl" "$tmp/b/journal.jsonl"
grep_out "report names the label" "label model <A> & \"b\"" "$tmp/out"
check "report --json" 0 "$npukb" report --json - "$tmp/a/journal.jsonl" "$tmp/b/journal.jsonl"
grep_out "report --json has the label" '"label": "model <A> & \\"b\\""' "$tmp/out"
grep_out "report --json: null label without one" '"label": null' "$tmp/out"

check "leaderboard" 0 "$npukb" leaderboard "$tmp/a" "$tmp/b" -o "$tmp/lb"
x() { xmllint --xpath "$1" "$tmp/lb/leaderboard.xml" 2>/dev/null; }
ida=$(sed -n 's/^{"type":"run","run":"\([^"]*\)".*/\1/p' "$tmp/a/journal.jsonl")
idb=$(sed -n 's/^{"type":"run","run":"\([^"]*\)".*/\1/p' "$tmp/b/journal.jsonl")
eq "entry/@label" "$(x "string(//entry[@run='$ida']/@label)")" 'model <A> & "b"'
eq "entry/@name is the label" "$(x "string(//entry[@run='$ida']/@name)")" 'model <A> & "b"'
eq "no entry/@label without one" "$(x "count(//entry[@run='$idb']/@label)")" 0
eq "entry/@name falls back to the run id" "$(x "string(//entry[@run='$idb']/@name)")" "$idb"

# the model and response hash of an imported sample (its response.json)
# go into the journal's unit record and results.xml's <sample>
mkdir -p "$tmp/m"
cp -R "$src/tests/samples/AddCustom/wrong_result" "$tmp/m/s1"
chmod -R u+w "$tmp/m"
sha=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
printf '{"task":"level1/Math/AddCustom","model":"model-7b","sample":"s1","response_sha256":"%s"}\n' \
	"$sha" >"$tmp/m/s1/response.json"
cp -R "$tmp/m/s1" "$tmp/m/s2"
head -c 3000 /dev/urandom >"$tmp/m/s2/response.json"
check "run with response.json" 1 "$npukb" run --task level1/Math/AddCustom --cases smallest-one \
	--seeds 1 -q --no-answer --sample "$tmp/m/s1" --sample "$tmp/m/s2" -o "$tmp/mr"
grep_out "a bad response.json is noted" "s2/response.json: .*ignored" "$tmp/err"
grep_out "model in the unit record" \
	"^{\"type\":\"unit\",.*\"sample\":\"s1\",.*\"model\":\"model-7b\",\"response_sha256\":\"$sha\"" \
	"$tmp/mr/journal.jsonl"
eq "results.xml sample/@model" "$(xmllint --xpath "string(//sample[@id='s1']/@model)" "$tmp/mr/results.xml")" model-7b
eq "results.xml sample/@response-sha256" \
	"$(xmllint --xpath "string(//sample[@id='s1']/@response-sha256)" "$tmp/mr/results.xml")" "$sha"
eq "no model from a bad response.json" \
	"$(xmllint --xpath "count(//sample[@id='s2']/@model)" "$tmp/mr/results.xml")" 0

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
