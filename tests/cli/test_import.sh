#!/bin/sh
# test_import.sh - issue 20: model responses in. A sample holding NO_CODE
# (a response without code) is judged `no-code`, never a stopped batch;
# `--samples ROOT` judges only the tasks with samples under ROOT.
# Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
tmp=$(mktemp -d /tmp/npukb-import-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/checks.sh"
add=level1/Math/AddCustom

# ---- a sample without code fails its compile stage as no-code ----------------
mkdir -p "$tmp/nc/empty_reply"
echo "empty response" >"$tmp/nc/empty_reply/NO_CODE"
check "a NO_CODE sample is judged" 1 "$npukb" run --task $add --no-answer --cases smallest-one \
	--seeds 1 -q --sample "$tmp/nc/empty_reply" -o "$tmp/nc/out"
grep_out "NO_CODE is a no-code verdict with its reason" \
	"empty_reply	case [0-9]*	fail	no-code	no code: empty response" "$tmp/nc/out/summary.txt"
grep_out "classify keeps no-code" '"stage":"classify".*"category":"no-code"' "$tmp/nc/out/journal.jsonl"
grep_out "JUnit names the category" 'type="no-code"' "$tmp/nc/out/junit.xml"

# ---- --samples judges only the tasks with samples (and their answers) ------
mkdir -p "$tmp/sel/root/$add/s1"
cp "$src/levels/$add/answer/add_custom.cpp" "$tmp/sel/root/$add/s1/"
check "--samples on level 1" 0 "$npukb" run --samples "$tmp/sel/root" --cases smallest-one \
	--seeds 1 -q -o "$tmp/sel/out"
n=$(grep -c '^level' "$tmp/sel/out/summary.txt")
others=$(grep '^level' "$tmp/sel/out/summary.txt" | grep -vc "^$add	")
[ "$n" -eq 2 ] && [ "$others" -eq 0 ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: --samples judged $n rows, $others of other tasks:"; cat "$tmp/sel/out/summary.txt"; }
grep_out "the answer is the baseline" "^$add	answer	" "$tmp/sel/out/summary.txt"
grep_out "the sample is judged" "^$add	s1	case [0-9]*	pass" "$tmp/sel/out/summary.txt"
# a flat file where a sample folder belongs selects nothing
mkdir -p "$tmp/flat/$add"
cp "$src/levels/$add/answer/add_custom.cpp" "$tmp/flat/$add/"
check "--samples with no sample folder" 3 "$npukb" run --samples "$tmp/flat" -o "$tmp/flat-out"
grep_out "says what it looked for and where" \
	"nothing selected: .*flat holds no folder <task id>/<sample>/ .*it holds $add" "$tmp/err"
[ -e "$tmp/flat-out" ] && { fail=$((fail + 1)); echo "FAIL: nothing selected, yet an output folder"; }

echo "import: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
