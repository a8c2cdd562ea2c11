#!/bin/sh
# test_slurm.sh - scripts/npukb-slurm against a real single-node Slurm that
# this test starts (munged, slurmctld, slurmd on localhost, everything in a
# temporary folder): a 4-shard job array of a Level 1 subset, then the
# merge job; the merged journal's verdicts must be those of one `npukb run`
# of the same selection, in the same order (issue 17).
#
# Skipped (exit 77, with the reason) where Slurm cannot start: not root,
# slurm-wlm or munge missing (scripts/setup-debian.sh installs them), a
# daemon that does not come up; with NPUKB_REQUIRE_SLURM=1 (CI) a skip is
# a failure. Every wait has a deadline; every process
# it started is stopped and the folder removed on every exit path.
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
src="${NPUKB_SRCDIR:-.}"
case $npukb in /*) ;; *) npukb="$(pwd)/$npukb" ;; esac
case $src in /*) ;; *) src="$(pwd)/$src" ;; esac

skip() {
	if [ "${NPUKB_REQUIRE_SLURM:-0}" = 1 ]; then
		echo "FAIL (NPUKB_REQUIRE_SLURM=1, so no skip): $1"
		exit 1
	fi
	echo "SKIP: $1"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "Slurm's daemons need root here (SlurmUser=root); run as root"
for cmd in munged slurmctld slurmd sbatch squeue sinfo scancel; do
	command -v "$cmd" >/dev/null 2>&1 ||
		skip "$cmd not found: install slurm-wlm and munge (scripts/setup-debian.sh)"
done

tmp=$(mktemp -d /tmp/npukb-slurm-XXXXXX) || exit 99
chmod 755 "$tmp"
conf="$tmp/slurm.conf"
pids=""
# Only what talks to this test's Slurm gets SLURM_CONF (so ours() below
# finds those processes and no others).
sl() { SLURM_CONF="$conf" "$@"; }

# Every process whose environment names this test's slurm.conf: the
# daemons, the slurmstepd they forked (reparented away from slurmd) and
# the jobs. Nothing else on the machine is touched.
ours() {
	for e in /proc/[0-9]*/environ; do
		p=${e#/proc/}
		p=${p%/environ}
		[ "$p" = "$$" ] && continue
		{ tr '\0' '\n' <"$e" | grep -qx "SLURM_CONF=$conf"; } 2>/dev/null && echo "$p"
	done
}

# 0 when pid has ended (or is a zombie: it holds nothing any more)
gone() {
	! kill -0 "$1" 2>/dev/null ||
		[ "$(sed 's/^.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# TERM, then KILL after 5 s, each of the given pids; returns when all ended
stop() {
	for sig in TERM KILL; do
		left=""
		for p in "$@"; do
			gone "$p" || left="$left $p"
		done
		[ -n "$left" ] || return 0
		# shellcheck disable=SC2086
		kill -s "$sig" $left 2>/dev/null
		t=0
		while [ "$t" -lt 50 ]; do
			still=""
			for p in $left; do
				gone "$p" || still="$still $p"
			done
			[ -n "$still" ] || return 0
			sleep 0.1
			t=$((t + 1))
		done
	done
}

cleanup() {
	trap - EXIT INT TERM HUP
	sl scancel --quiet --full --user=root >/dev/null 2>&1 # only this cluster's jobs
	# shellcheck disable=SC2046,SC2086
	stop $pids $(ours)
	# munged last: it saves its seed into $tmp as it exits
	[ -z "${munge_pid:-}" ] && munge_pid=$(cat "$tmp/munged.pid" 2>/dev/null)
	[ -n "$munge_pid" ] && stop "$munge_pid"
	cd / && rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 99' INT TERM HUP

# wait_for SECONDS WHAT COMMAND...: poll until COMMAND succeeds
wait_for() {
	secs=$1 what=$2
	shift 2
	t=0
	while ! "$@" >/dev/null 2>&1; do
		t=$((t + 1))
		if [ "$t" -gt "$secs" ]; then
			echo "timed out after $secs s waiting for $what"
			return 1
		fi
		sleep 1
	done
	return 0
}

# ---- munge: a key of our own, a socket of our own ----
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge.key"
mkdir -m 755 "$tmp/munge"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge/munge.sock" \
	--pid-file="$tmp/munged.pid" --seed-file="$tmp/munge.seed" \
	--log-file="$tmp/munged.log" >"$tmp/munged.out" 2>&1 ||
	skip "munged does not start: $(tail -3 "$tmp/munged.out" "$tmp/munged.log" 2>/dev/null)"
wait_for 10 "munged" test -S "$tmp/munge/munge.sock" || skip "munged made no socket"
munge_pid=$(cat "$tmp/munged.pid" 2>/dev/null)

# ---- slurm.conf: one node, localhost, every path in $tmp ----
# Ports off the defaults (6817/6818) so a real Slurm on the machine is not
# in the way; from the PID, so two runs of this test rarely collide.
port=$((20000 + ($$ % 20000) * 2))
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/work"
cat >"$conf" <<EOF
ClusterName=npukbtest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
MailProg=/bin/true
NodeName=localhost CPUs=$cpus RealMemory=256 State=UNKNOWN
PartitionName=npukb Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

env SLURM_CONF="$conf" slurmctld -D -c -f "$conf" >"$tmp/slurmctld.out" 2>&1 &
pids="$pids $!"
env SLURM_CONF="$conf" slurmd -D -N localhost -f "$conf" >"$tmp/slurmd.out" 2>&1 &
pids="$pids $!"
node_idle() { [ "$(sl sinfo -h -n localhost -o %T 2>/dev/null)" = idle ]; }
if ! wait_for 60 "the node" node_idle; then
	echo "slurmctld:" && tail -5 "$tmp/slurmctld.log" "$tmp/slurmctld.out" 2>/dev/null
	echo "slurmd:" && tail -5 "$tmp/slurmd.log" "$tmp/slurmd.out" 2>/dev/null
	skip "the Slurm node did not become idle within 60 s (logs above)"
fi

# ---- the run: 6 Level 1 tasks, smallest case, one seed ----
set -- --task level1/Comparison/Equal --task level1/Condition/IsFinite \
	--task level1/Math/AddCustom --task level1/Condition/IsInf \
	--task level1/Comparison/LessEqual --task level1/Math/AbsMath \
	--cases smallest-one --seeds 1
# one worker writes its units in plan order, the order merge restores
"$npukb" run -q -j 1 "$@" -o "$tmp/single" >"$tmp/single.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "FAIL: the single-process run exited $rc"
	tail -20 "$tmp/single.out"
	exit 1
fi

cd "$tmp/work" || exit 99
sl timeout 60 "$src/scripts/npukb-slurm" -n 4 -o "$tmp/out" --npukb "$npukb" -- "$@" >"$tmp/submit.out" 2>&1
rc=$?
cat "$tmp/submit.out"
if [ "$rc" -ne 0 ]; then
	echo "FAIL: npukb-slurm exited $rc"
	exit 1
fi
# The array and the merge job leave the queue when done (150 s at most)
queue_empty() { sl squeue >/dev/null 2>&1 && [ -z "$(sl squeue -h -o %i 2>/dev/null)" ]; }
if ! wait_for 150 "the jobs" queue_empty; then
	echo "FAIL: the jobs did not finish within 150 s:"
	sl squeue
	exit 1
fi

fail=0
for i in 0 1 2 3; do
	if ! grep -q "\"shard\":\"$i/4\"" "$tmp/out/shard-$i/journal.jsonl" 2>/dev/null; then
		echo "FAIL: shard $i/4 wrote no journal; its log:"
		sed 's/^/  /' "$tmp/out/slurm/shard-$i.log" 2>/dev/null | tail -10
		fail=1
	fi
done
if [ ! -s "$tmp/out/merged/journal.jsonl" ]; then
	echo "FAIL: no merged journal; the merge job's log:"
	sed 's/^/  /' "$tmp/out/slurm/merge.log" 2>/dev/null | tail -10
	exit 1
fi
. "$src/tests/cli/checks.sh"
verdicts "$tmp/single/journal.jsonl" >"$tmp/v.single"
verdicts "$tmp/out/merged/journal.jsonl" >"$tmp/v.merged"
if [ "$(wc -l <"$tmp/v.single")" -lt 6 ] || ! cmp -s "$tmp/v.single" "$tmp/v.merged"; then
	echo "FAIL: the merged 4-shard Slurm run's verdicts are not the single run's:"
	diff "$tmp/v.single" "$tmp/v.merged" | sed 's/^/  /' | head -20
	fail=1
fi
[ "$fail" -eq 0 ] && echo "slurm: 4 shards merged == single run ($(wc -l <"$tmp/v.merged") verdicts)"
exit "$fail"
