#!/bin/sh
# test_hostile.sh - every sample of tests/hostile/ is judged by `npukb run`
# on level1/Math/AddCustom, and each must get its expected verdict (the
# `expect` file beside it; alternatives separated by |) AND do no harm:
# npukb exits 1 with every report written, no report file holds a planted
# secret (environment and file), the host's /etc/passwd, the expert answer
# or a LEAKED marker, no file appears outside the output folder, and no
# process of the run survives it. Samples listed in PENDING are reported,
# not failed.
#
# The whole test runs in a PID namespace of its own (it re-executes itself
# under `unshare --pid --fork --mount-proc`), so that if the sandbox ever
# regresses, kill(-1, SIGKILL) from kill_all takes down this test only.
set -u

if [ -z "${NPUKB_HOSTILE_INNER:-}" ]; then
	if [ "$(id -u)" -ne 0 ] || ! unshare --pid --fork --mount-proc true 2>/dev/null; then
		echo "SKIP: needs root and unshare --pid (the kill-everything sample must not reach this machine)"
		exit 77
	fi
	NPUKB_HOSTILE_INNER=1 exec unshare --pid --fork --mount-proc "$0" "$@"
fi

src="${NPUKB_SRCDIR:-.}"
npukb="${NPUKB_BUILDDIR:-.}/npukb"
hostile="$src/tests/hostile"
tmp=$(mktemp -d /tmp/npukb-hostile-run-XXXXXX)
out="$tmp/out"
secret="npukb-hostile-s3cr3t-$$-$(date +%s)"
fails=0
pending=0

cleanup() {
	rm -rf "$tmp" /tmp/npukb-hostile-secret /tmp/npukb-hostile-escape
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# Secrets a sample must never get into a report.
mkdir -p /tmp/npukb-hostile-secret
echo "$secret-file" > /tmp/npukb-hostile-secret/secret.txt
chmod 755 /tmp/npukb-hostile-secret
chmod 644 /tmp/npukb-hostile-secret/secret.txt
export NPUKB_HOSTILE_SECRET="$secret-env"
rm -f /tmp/npukb-hostile-escape /usr/npukb-hostile-escape
touch "$tmp/marker"

set --
for d in "$hostile"/*/; do
	set -- "$@" --sample "${d%/}"
done
nsamples=$(($# / 2))
[ "$nsamples" -ge 40 ] || fail "only $nsamples hostile samples (want at least 40)"

start=$(date +%s)
"$npukb" run --task level1/Math/AddCustom --no-answer "$@" --cases smallest-per-dtype \
	--seeds 1 --run-timeout 5 --build-timeout 60 --memory-limit 1024 -q -o "$out" \
	>"$tmp/stdout" 2>"$tmp/stderr" &
npukb_pid=$!
wait $npukb_pid
status=$?
echo "npukb run: exit $status, $(($(date +%s) - start)) s for $nsamples samples"
[ "$status" -eq 1 ] || { fail "npukb exited $status, want 1"; cat "$tmp/stderr"; }

for f in journal.jsonl junit.xml results.xml summary.txt report/index.html; do
	[ -s "$out/$f" ] || fail "report $f missing or empty"
done

# No secret, no host file, no answer, no leak marker in any report file.
for needle in "$secret" "root:x:0:0" "AddCustom expert answer" "LEAKED"; do
	hits=$(grep -rl -- "$needle" "$out" 2>/dev/null)
	[ -z "$hits" ] || fail "'$needle' found in: $hits"
done

# Nothing written outside the work folder.
for f in /tmp/npukb-hostile-escape /usr/npukb-hostile-escape; do
	[ ! -e "$f" ] || fail "a sample created $f"
done
# (An in-tree `make check` writes this script's own .log and .trs here.)
new=$(find "$hostile" "$src/levels/level1/Math/AddCustom" -newer "$tmp/marker" \
	! -name 'test_hostile.sh.log' ! -name 'test_hostile.sh.trs' 2>/dev/null)
[ -z "$new" ] || fail "files changed in the sources: $new"
if grep -q forged "$out/journal.jsonl" 2>/dev/null; then
	fail "a sample wrote into the journal"
fi

# No process of the run survives it (this PID namespace holds only us).
sleep 0.5
left=$(ps -e -o pid=,comm= | awk -v me=$$ '$1 != me && $2 != "ps" && $2 != "awk" && $2 != "sh" && $2 != "test_hostile.sh"')
[ -z "$left" ] || fail "processes left behind: $left"
for cg in /sys/fs/cgroup/pids /sys/fs/cgroup/memory; do
	stale=$(find "$cg" -maxdepth 4 -type d -name "npukb-$npukb_pid-*" 2>/dev/null)
	[ -z "$stale" ] || fail "cgroups left behind: $stale"
done

# Each sample's verdict: "pass", or the failure's category (summary.txt).
for d in "$hostile"/*/; do
	name=$(basename "$d")
	want=$(cat "$d/expect")
	line=$(awk -F '\t' -v s="$name" '$2 == s { print; exit }' "$out/summary.txt")
	outcome=$(printf '%s' "$line" | cut -f4)
	got=$outcome
	[ "$outcome" = fail ] && got=$(printf '%s' "$line" | cut -f5)
	[ -n "$got" ] || got="(no verdict)"
	case "|$want|" in
	*"|$got|"*) ok=1 ;;
	*) ok=0 ;;
	esac
	# A suspicion flag is looked for beside the sample's verdicts.
	case "$want" in
	suspect-*)
		if grep "\"sample\":\"$name\"" "$out/journal.jsonl" | grep -q "\"$want\""; then
			ok=1
			got=$want
		fi
		;;
	esac
	why=$(awk -v s="$name" '$1 == s { $1 = ""; print; exit }' "$hostile/PENDING")
	if [ -n "$why" ]; then
		if [ $ok -eq 1 ]; then
			echo "PASS (listed in PENDING: remove its line) $name: $got"
		else
			echo "pending $name: got $got, want $want:$why"
			pending=$((pending + 1))
		fi
	elif [ $ok -eq 1 ]; then
		echo "ok $name: $got"
	else
		fail "$name: got $got, want $want ($(printf '%s' "$line" | cut -f6 | cut -c1-200))"
	fi
done

echo "$nsamples samples, $fails failures, $pending pending"
[ "$fails" -eq 0 ]
