#!/bin/sh
# test_questions.sh - every task of every level ships both questions: the
# kernel-only one (written by hand) and the host+device one, which must be
# what `npukb question --mode hostdev` derives from the manifest and the
# kernel-only question (`make questions` regenerates them).
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
levels="${NPUKB_SRCDIR:-.}/levels"
tmp=$(mktemp -d /tmp/npukb-questions-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$npukb" list --levels "$levels" | cut -f1 >"$tmp/tasks" || bad "npukb list"
while read -r task; do
	dir="$levels/$task"
	name=${task##*/}
	if [ ! -s "$dir/question-kernel.md" ]; then
		bad "$task: no question-kernel.md"
		continue
	fi
	if ! "$npukb" question --levels "$levels" --mode hostdev "$task" >"$tmp/q" 2>"$tmp/err"; then
		bad "$task: npukb question failed: $(cat "$tmp/err")"
		continue
	fi
	if ! cmp -s "$tmp/q" "$dir/question-hostdev.md"; then
		bad "$task: question-hostdev.md differs from npukb question's (run make questions)"
		diff "$dir/question-hostdev.md" "$tmp/q" 2>&1 | head -10 | sed 's/^/  /'
		continue
	fi
	for want in "# $name (host and device)" "OP_ADD($name)" "## What to answer" "## Cases" \
		"## Correctness" "op_kernel/"; do
		grep -qF -- "$want" "$tmp/q" || bad "$task: the host+device question lacks '$want'"
	done
	# The launch section follows the kernel-only question's target: a cube
	# task's project counts AI cores (24) and sizes L1/L0 tiles, a vector
	# task's counts vector cores (48).
	if grep -qF "cube unit (AIC)" "$dir/question-kernel.md"; then
		grep -qF 'GetCoreNumAic()`: 24' "$tmp/q" && ! grep -q "GetCoreNumAiv" "$tmp/q" ||
			bad "$task: a cube task's host+device question does not target the AI cores"
	else
		grep -qF 'GetCoreNumAiv()`: 48' "$tmp/q" && ! grep -q "GetCoreNumAic" "$tmp/q" ||
			bad "$task: a vector task's host+device question does not target the vector cores"
	fi
	# Nothing of the kernel-only framework contract may leak into it.
	if grep -q "The framework fills the tiling argument" "$tmp/q"; then
		bad "$task: the host+device question describes the framework's tiling struct"
	fi
	# A task whose expert answer keeps data in the workspace (GetUserWorkspace,
	# or the workspace argument handed on) must not be told it needs none.
	if [ -d "$dir/answer" ] && grep -qE 'GetUserWorkspace\(|[(,] *workspace *[),]' "$dir"/answer/* &&
		tr '\n' ' ' <"$dir/question-kernel.md" | grep -q "this operator does not *need it"; then
		bad "$task: its answer uses the workspace, its question says it needs none"
	fi
	pass=$((pass + 1))
done <"$tmp/tasks"

"$npukb" question --mode bogus level1/Math/Neg >/dev/null 2>&1
[ $? -eq 2 ] && pass=$((pass + 1)) || bad "--mode bogus: exit status not 2"
"$npukb" question --levels "$levels" level1/No/Such >/dev/null 2>&1
[ $? -eq 1 ] && pass=$((pass + 1)) || bad "unknown task: exit status not 1"
"$npukb" question --levels "$levels" --write level1/Math/Neg >/dev/null 2>&1
[ $? -eq 2 ] && pass=$((pass + 1)) || bad "--write without --mode hostdev: exit status not 2"
"$npukb" question --levels "$levels" level1/Math/Neg >"$tmp/k" 2>&1 &&
	cmp -s "$tmp/k" "$levels/level1/Math/Neg/question-kernel.md" && pass=$((pass + 1)) ||
	bad "--mode kernel does not print question-kernel.md"

# An optional input is described as one, with what an absent one looks like.
variants="${NPUKB_SRCDIR:-.}/tests/data/levels-variants"
mkdir -p "$tmp/levels" && ln -s "$levels/schema" "$tmp/levels/schema" &&
	ln -s "$variants/level1" "$tmp/levels/level1" || bad "cannot lay out the variants' levels"
if "$npukb" question --levels "$tmp/levels" --mode hostdev level1/Test/OptionalAdd >"$tmp/q" 2>"$tmp/err"; then
	grep -qF -- '- `bias`: `float32`, `float16` (optional: `OPTIONAL` in the OpDef; where a case leaves it out the kernel gets a null `GM_ADDR`)' "$tmp/q" &&
		pass=$((pass + 1)) || bad "OptionalAdd: bias is not described as optional: $(grep bias "$tmp/q")"
else
	bad "OptionalAdd: npukb question failed: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
