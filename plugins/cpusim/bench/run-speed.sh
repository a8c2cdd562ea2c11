#!/bin/sh
# run-speed.sh - cpusim's speed benchmark (a program that prints numbers, not
# a test): the wall time of a cpusim kernel run against a plain C loop doing
# the same arithmetic on the same files, for element-wise add, exp, a cast
# (float -> half) and a row reduction (rows of 1024 floats), at 1M, 4M and
# 16M elements. Both sides are whole processes mapping the same files; the
# cpusim side runs all 48 blocks of a 910B launch one after the other on one
# host thread, with every check on, and counts cycles.
#
#   plugins/cpusim/bench/run-speed.sh [SIZES...]    (default: 1048576 4194304 16777216)
#
# Each side's time is the best of $NPUKB_BENCH_REPS runs (default 3).
#
# `make bench` runs it. Needs g++ and cc.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cpusim=$(cd "$here/.." && pwd)
sizes=${*:-1048576 4194304 16777216}
# The tensor files live in memory (tmpfs) when the machine has one: the
# page faults of a disk file system's newly written pages would otherwise
# be most of what is timed, on both sides.
tmproot=/tmp
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	tmproot=/dev/shm
fi
work=$(mktemp -d "$tmproot/npukb-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cxx=${NPUKB_CXX:-g++}
cc=${CC:-cc}
reps=${NPUKB_BENCH_REPS:-3}

now() { date +%s.%N; }

"$cc" -O2 -o "$work/plain" "$here/plain.c" -lm
build() { # op nargs
	{
		echo '#include <stdint.h>'
		printf 'extern "C" void bench('
		i=0; while [ $i -lt "$2" ]; do [ $i -gt 0 ] && printf ', '; printf 'uint8_t *'; i=$((i + 1)); done
		echo ');'
		echo "extern \"C\" const int npukb_cpusim_nargs = $2;"
		printf 'extern "C" void npukb_cpusim_launch(uint8_t **a) { bench('
		i=0; while [ $i -lt "$2" ]; do [ $i -gt 0 ] && printf ', '; printf 'a[%d]' $i; i=$((i + 1)); done
		echo '); }'
	} >"$work/launch_$1.cpp"
	"$cxx" -std=c++17 -O2 -I"$cpusim/include" -DNPUKB_CPUSIM_SOCDIR="\"$cpusim/soc\"" \
		"$here/bench_$1.cpp" "$work/launch_$1.cpp" "$cpusim/runtime/harness.cpp" \
		"$cpusim/runtime/gm_buffers.cpp" -o "$work/$1.exe"
}
build add 4
build exp 3
build cast 3
build rowsum 3

printf '%-7s %10s %10s %10s %7s %12s\n' op elements plain_s cpusim_s ratio cycles
for n in $sizes; do
	"$work/plain" gen "$n" "$work/x.bin"
	"$work/plain" gen "$n" "$work/y.bin"
	"$work/plain" count "$n" "$work/n.bin"
	for op in add exp cast rowsum; do
		case $op in
		add) outb=$((n * 4)); plain_args="$work/x.bin $work/y.bin $work/out.bin"
		     sim_args="in=$work/x.bin in=$work/y.bin out=$work/out.bin in=$work/n.bin" ;;
		cast) outb=$((n * 2)); plain_args="$work/x.bin $work/out.bin"
		      sim_args="in=$work/x.bin out=$work/out.bin in=$work/n.bin" ;;
		rowsum) outb=$((n / 1024 * 4)); plain_args="$work/x.bin $work/out.bin"
			sim_args="in=$work/x.bin out=$work/out.bin in=$work/n.bin" ;;
		*) outb=$((n * 4)); plain_args="$work/x.bin $work/out.bin"
		   sim_args="in=$work/x.bin out=$work/out.bin in=$work/n.bin" ;;
		esac
		# The best of $reps runs of each side: other load on the machine
		# only ever adds time.
		p=""; s=""; r=0
		while [ $r -lt "$reps" ]; do
			# A fresh output file for each side, so that both pay the
			# same page faults of a newly written file.
			rm -f "$work/out.bin"
			truncate -s "$outb" "$work/out.bin"
			t0=$(now)
			# shellcheck disable=SC2086
			"$work/plain" "$op" "$n" $plain_args
			t1=$(now)
			rm -f "$work/out.bin"
			truncate -s "$outb" "$work/out.bin"
			# The harness creates its stats file exclusively (a stats
			# file already there is a kernel forging one).
			rm -f "$work/stats.txt"
			t2=$(now)
			# shellcheck disable=SC2086
			(cd "$work" && "./$op.exe" --blocks 48 --soc ascend910b2 --stats stats.txt $sim_args)
			t3=$(now)
			p=$(awk -v a="$t0" -v b="$t1" -v m="$p" 'BEGIN { d = b - a; print (m == "" || d < m) ? d : m }')
			s=$(awk -v a="$t2" -v b="$t3" -v m="$s" 'BEGIN { d = b - a; print (m == "" || d < m) ? d : m }')
			r=$((r + 1))
		done
		cycles=$(sed -n 's/^cycles=//p' "$work/stats.txt")
		awk -v op="$op" -v n="$n" -v p="$p" -v s="$s" -v cy="$cycles" 'BEGIN {
			printf "%-7s %10d %10.3f %10.3f %7.2f %12s\n", op, n, p, s, s / p, cy }'
	done
done
