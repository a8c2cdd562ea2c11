#!/bin/sh
# test_failure_lines.sh - where a failure is, said where a user looks: the
# per-task progress line names each failing sample with its first message
# and its own file:line (not npukb's emulation headers'); summary.txt and
# results.xml (case/@at-file, @at-line) point at the same line. Needs
# xmllint (skips with 77 without it).
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
command -v xmllint >/dev/null 2>&1 || { echo "SKIP: xmllint is not installed"; exit 77; }
tmp=$(mktemp -d /tmp/npukb-faillines-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/checks.sh"
eq() { if [ "$2" = "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1: got '$2', want '$3'"; fi; }

s="$src/tests/samples/AddCustom"
# stdout is a file: a line per finished task, then one per failing sample
check "run" 1 "$npukb" run --task level1/Math/AddCustom --cases smallest-one --seeds 1 \
	--no-answer --sample "$s/compile_error" --sample "$s/out_of_bounds" \
	--sample "$s/wrong_result" -o "$tmp/r"
cp "$tmp/out" "$tmp/progress"
grep_out "task line" '^\[3/3\] level1/Math/AddCustom: 3 samples' "$tmp/progress"
grep_out "compile error at the sample's line" \
	"^  compile_error: api-signature at add_custom.cpp:39: error: no matching function" \
	"$tmp/progress"
grep_out "runtime fault at the sample's line" \
	"^  out_of_bounds: out-of-bounds at add_custom.cpp:39: seed 0: " "$tmp/progress"
grep_out "mismatch has no line" "^  wrong_result: mismatch: mismatch in z" "$tmp/progress"
no_grep "no emulation header named" "kernel_operator.h" "$tmp/progress"

grep_out "summary.txt: compile error at the line" \
	"	compile_error	case [0-9]*	fail	api-signature	at add_custom.cpp:39	" "$tmp/r/summary.txt"
grep_out "summary.txt: runtime fault at the line" \
	"	out_of_bounds	case [0-9]*	fail	out-of-bounds	at add_custom.cpp:39	" "$tmp/r/summary.txt"

x() { xmllint --xpath "$1" "$tmp/r/results.xml" 2>/dev/null; }
eq "results.xml at-file" "$(x "string(//sample[@id='compile_error']/case/@at-file)")" add_custom.cpp
eq "results.xml at-line" "$(x "string(//sample[@id='compile_error']/case/@at-line)")" 39
eq "results.xml at-line (run fault)" "$(x "string(//sample[@id='out_of_bounds']/case/@at-line)")" 39
eq "no location for a mismatch" "$(x "count(//sample[@id='wrong_result']/case/@at-file)")" 0

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
