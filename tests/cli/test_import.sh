#!/bin/sh
# test_import.sh - issue 20: model responses in. A sample holding NO_CODE
# (a response without code) is judged `no-code`, never a stopped batch;
# `--samples ROOT` judges only the tasks with samples under ROOT; `npukb
# import` turns JSONL, markdown and NPUKernelBench run folders into such a
# ROOT, skipping (and naming) bad records without stopping.
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

# ---- npukb import: JSONL of two models, junk among them ----------------------
# json_text FILE: the file's text as a JSON string (\\, \", tab, newlines)
json_text() {
	awk 'BEGIN { printf "\"" } {
		gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); gsub(/\r/, "\\r")
		printf "%s\\n", $0 } END { printf "\"" }' "$1"
}
{
	printf '```cpp\n' >"$tmp/fenced.md"
	cat "$src/levels/$add/answer/add_custom.cpp" >>"$tmp/fenced.md"
	printf '```\n' >>"$tmp/fenced.md"
	printf '{"task_id":"%s","model":"model-a","sample_id":"0","response":%s}\n' \
		"$add" "$(json_text "$tmp/fenced.md")"
	printf '{"task_id":"%s","model":"model-b","completion":"I cannot help with that."}\n' "$add"
	printf '\001\377garbage {\n'
	printf '{"task_id":"level1/Math/NoSuchTask","model":"model-b","response":"x"}\n'
	printf '{"task_id":"%s","model":"model-a","sample_id":"0","response":"again"}\n' "$add"
} >"$tmp/responses.jsonl"
check "import with junk: exit 1" 1 "$npukb" import "$tmp/responses.jsonl" -o "$tmp/imp"
grep_out "the garbage line is named" "responses.jsonl:3: not a JSON object" "$tmp/err"
grep_out "the unknown task is named" "responses.jsonl:4: unknown task 'level1/Math/NoSuchTask'" "$tmp/err"
grep_out "the duplicate is named" "responses.jsonl:5: sample $add/model-a-0 exists already" "$tmp/err"
grep_out "the totals" "2 samples written .* (1 without code), 3 records skipped" "$tmp/out"
s="$tmp/imp/$add"
[ -f "$s/model-a-0/add_custom.cpp" ] && cmp -s "$s/model-a-0/add_custom.cpp" "$src/levels/$add/answer/add_custom.cpp" &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: model-a's code is not the fenced block"; ls -R "$tmp/imp"; }
[ -f "$s/model-b-1/NO_CODE" ] && [ ! -f "$s/model-b-1/add_custom.cpp" ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: model-b has no NO_CODE marker"; ls -R "$tmp/imp"; }
sha=$(printf 'I cannot help with that.' | sha256sum | cut -d' ' -f1)
grep_out "provenance: model, source line, sha256" \
	"\"model\":\"model-b\".*\"line\":2,\"response_sha256\":\"$sha\"" "$s/model-b-1/response.json"
check "the imported tree runs" 1 "$npukb" run --samples "$tmp/imp" --cases smallest-one --seeds 1 \
	-q -o "$tmp/imp-out"
grep_out "model-a passes" "^$add	model-a-0	case [0-9]*	pass" "$tmp/imp-out/summary.txt"
grep_out "model-b is no-code" "^$add	model-b-1	case [0-9]*	fail	no-code	no code: no <kernel_impl>" \
	"$tmp/imp-out/summary.txt"
n=$(grep -c '^level' "$tmp/imp-out/summary.txt")
others=$(grep '^level' "$tmp/imp-out/summary.txt" | grep -vc "^$add	")
[ "$n" -eq 3 ] && [ "$others" -eq 0 ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: judged $n rows, $others of other tasks"; cat "$tmp/imp-out/summary.txt"; }

# ---- markdown, host+device file headers, NPUKernelBench's run folder ---------
printf 'Plan first.\n\n================== op_host/add_custom_tiling.h ==================\n```cpp\nstruct T {};\n```\n================== op_kernel/add_custom.cpp ==================\n```cpp\nint k;\n```\n' >"$tmp/hd.md"
check "markdown needs --task" 1 "$npukb" import "$tmp/hd.md" "$tmp/responses.jsonl" -o "$tmp/md0"
grep_out "markdown without --task is named" "hd.md: a markdown response needs --task" "$tmp/err"
check "markdown import" 0 "$npukb" import --task $add --model m --sample s "$tmp/hd.md" -o "$tmp/md"
[ -f "$tmp/md/$add/m-s/op_host/add_custom_tiling.h" ] && [ -f "$tmp/md/$add/m-s/op_kernel/add_custom.cpp" ] &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: host+device files not laid out"; ls -R "$tmp/md"; }
run="$tmp/runs/cann-ops/lvl1/Math/AddCustom/sample3/log"
mkdir -p "$run"
printf '{\n  "reasoning_content": "think",\n  "gen_content": "<kernel_impl>\\nint k;\\n</kernel_impl>"\n}\n' \
	>"$run/lvl1_categoryMath_AddCustom_sample3_rag_simple_code_gen_prompt.json"
check "run-folder import" 0 "$npukb" import --model up "$tmp/runs" -o "$tmp/up"
grep_out "the run folder's kernel_impl" "^int k;" "$tmp/up/$add/up-sample3/add_custom.cpp"
# CRLF records; a sample id and a model that try to leave ROOT stay in it
printf '{"task":"%s","model":"../w","sample":"../../../esc","response":"```cpp\\r\\nint a;\\r\\n```\\r\\n"}\r\n\r\n' \
	"$add" >"$tmp/crlf.jsonl"
check "CRLF JSONL import" 0 "$npukb" import "$tmp/crlf.jsonl" -o "$tmp/crlf/root"
[ "$(cat "$tmp/crlf/root/$add/_.._w-.._.._.._esc/add_custom.cpp")" = "int a;" ] &&
	[ "$(find "$tmp/crlf" -name add_custom.cpp | wc -l)" -eq 1 ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: CRLF or unsafe ids:"; find "$tmp/crlf"; }
check "help import" 0 "$npukb" help import
grep_out "help names the formats" "kernel_impl" "$tmp/out"
check "import --help" 0 "$npukb" import --help
check "import without -o" 2 "$npukb" import "$tmp/hd.md"

echo "import: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
