#!/bin/sh
# test_junit_consumer.sh - npukb's junit.xml read by a real consumer:
# junit2json from the npm registry (count.mjs beside this script). A run of
# AddCustom with the expert answer and a sample that computes the wrong
# result must read back with the same tests, failures and skipped counts
# npukb reports in summary.txt (plus one "build" test case per sample), and
# the cases named by id, dtype and shape. Skips (exit 77) only when node or npm is
# missing. Prints "N passed, N failed".
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
here="$src/tests/junit-consumer"

for tool in node npm; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed (scripts/setup-debian.sh installs nodejs and npm)"
		exit 77
	fi
done

tmp=$(mktemp -d /tmp/npukb-junit-consumer-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The consumer as set up by scripts/setup-debian.sh (npm ci in this folder);
# a read-only source tree without it (make distcheck) gets its own copy,
# installed from the lock file (from npm's cache when it can).
consumer="$here"
if [ ! -d "$here/node_modules/junit2json" ]; then
	consumer="$tmp/consumer"
	mkdir -p "$consumer"
	cp "$here/package.json" "$here/package-lock.json" "$here/count.mjs" "$consumer/"
	if ! (cd "$consumer" && npm ci --prefer-offline --no-audit --no-fund >"$tmp/npm.log" 2>&1); then
		cat "$tmp/npm.log"
		echo "FAIL: npm ci could not install the consumer (see above)"
		echo "junit-consumer: 0 passed, 1 failed"
		exit 1
	fi
fi

"$npukb" run --task level1/Math/AddCustom --seeds 1 \
	--sample "$src/tests/samples/AddCustom/wrong_result" -o "$tmp/r" >"$tmp/out" 2>&1
status=$?
[ "$status" -eq 1 ] && ok || { bad "npukb exit $status, expected 1 (a sample fails)"; cat "$tmp/out"; }

# npukb's own count: summary.txt's last line
last=$(tail -n 1 "$tmp/r/summary.txt" 2>/dev/null)
passed=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1/p')
failed=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\2/p')
skipped=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\3/p')
if [ -z "$passed" ]; then
	bad "summary.txt has no count line: '$last'"
	echo "junit-consumer: $pass passed, $fail failed"
	exit 1
fi
# each sample's build is a test case of its own ("build"); the samples
# here all compile, so the builds add tests and no failures
builds=$(cut -f1,2 "$tmp/r/summary.txt" | grep '	' | sort -u | wc -l)
[ "${builds:-0}" -eq 2 ] && ok || bad "expected 2 samples in summary.txt, got '${builds:-}'"
total=$((passed + failed + skipped + builds))
# the run must have something of each kind it is about, or the test proves nothing
[ "$passed" -gt 0 ] && [ "$failed" -gt 0 ] && ok || bad "expected passes and failures, got '$last'"

line=$(cd "$consumer" && node count.mjs "$tmp/r/junit.xml" 2>"$tmp/node.err")
[ -n "$line" ] && ok || { bad "the consumer read nothing"; cat "$tmp/node.err"; }
echo "npukb:    tests=$total failures=$failed skipped=$skipped"
echo "consumer: $line"
get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

check_eq() { # what got want
	if [ "$2" = "$3" ]; then ok; else bad "$1: the consumer read '$2', npukb says '$3'"; fi
}
check_eq "tests" "$(get tests)" "$total"
check_eq "failures + errors" "$(( $(get failures) + $(get errors) ))" "$failed"
check_eq "skipped" "$(get skipped)" "$skipped"
check_eq "declared tests" "$(get declared_tests)" "$total"
check_eq "declared failures + errors" "$(( $(get declared_failures) + $(get declared_errors) ))" "$failed"
check_eq "declared skipped" "$(get declared_skipped)" "$skipped"

# case names: sortable and telling (id, dtype and shape of the first input)
n=$(grep -c '<testcase name="build"' "$tmp/r/junit.xml")
check_eq "build test cases" "$n" "$builds"
n=$(grep -c '<testcase name="case-[0-9]* float16 [0-9x]*"' "$tmp/r/junit.xml")
check_eq "case names with dtype and shape" "$n" "$((passed + failed + skipped))"
grep -q '<testcase name="case-0 float16 48x128x512"' "$tmp/r/junit.xml" && ok ||
	bad "no test case named 'case-0 float16 48x128x512'"

echo "junit-consumer: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
