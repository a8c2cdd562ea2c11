#!/bin/sh
# own_task.sh BINDIR LIBDIR - the installcheck of a task of your own: with
# only the installed npukb (its templates, npukb.pc, headers and plugins),
# `npukb task new` writes a task, its Makefile builds the reference plugin
# with pkg-config, and `npukb run --task DIR` on cpusim passes the answer
# and finds a wrong sample's mismatch. Exit 0 when all of that holds.
set -u
bindir=$1
libdir=$2
npukb="$bindir/npukb"
tmp=$(mktemp -d /tmp/npukb-installcheck-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The installed npukb only: nothing of a build tree.
unset NPUKB_DATADIR NPUKB_PLUGIN_PATH NPUKB_CPUSIM_DIR NPUKB_CLASSIFY_RULES
export NPUKB_CACHE_DIR="$tmp/cache"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
dir="$tmp/MyScale"
die() { echo "installcheck (own task): $*"; [ -f "$tmp/log" ] && cat "$tmp/log"; exit 1; }

"$npukb" task new MyScale -o "$dir" >"$tmp/log" 2>&1 || die "npukb task new failed"
"$npukb" validate "$dir/task.xml" >"$tmp/log" 2>&1 || die "the new task does not validate"
make -C "$dir" CFLAGS="-O2 -Werror" >"$tmp/log" 2>&1 || die "its reference plugin does not build"
"$npukb" validate "$dir/task.xml" >"$tmp/log" 2>&1 || die "the task with its plugin does not validate"
grep -q note: "$tmp/log" && die "validate does not see the plugin just built"

"$npukb" run --task "$dir" --seeds 2 -q -o "$tmp/r1" >"$tmp/log" 2>&1 || die "the answer did not pass"
grep -q "^level1/Custom/MyScale	answer	case 0	pass" "$tmp/r1/summary.txt" ||
	die "no pass in $(cat "$tmp/r1/summary.txt")"

mkdir "$tmp/wrong"
sed 's/\* 2\.0f/* 3.0f/' "$dir/answer/my_scale.cpp" >"$tmp/wrong/my_scale.cpp"
"$npukb" run --task "$dir" --no-answer --sample "$tmp/wrong" --seeds 2 -q -o "$tmp/r2" \
	>"$tmp/log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || die "a wrong sample: exit $rc, expected 1"
grep -q "^level1/Custom/MyScale	wrong	case 0	fail	mismatch" "$tmp/r2/summary.txt" ||
	die "no mismatch in $(cat "$tmp/r2/summary.txt")"
echo "installcheck: a task of your own builds its reference plugin and judges samples"
