#!/bin/sh
# test_import.sh - issue 20: model responses in. A sample holding NO_CODE
# (a response without code) is judged `no-code`, never a stopped batch.
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

echo "import: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
