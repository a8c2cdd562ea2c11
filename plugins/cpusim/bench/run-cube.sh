#!/bin/sh
# run-cube.sh - cpusim's cube benchmark (a program that prints numbers, not a
# test): bench_matmul.cpp's tiled low-level-cube matmul against a plain
# blocked C matmul of the same square sizes, their wall-time ratio and the
# modelled cycles. `make bench` runs it after run-speed.sh.
#
#   plugins/cpusim/bench/run-cube.sh [SIZES...]    (default: 256 512 1024)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cpusim=$(cd "$here/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/npukb-bench-cube-XXXXXX")
trap 'rm -rf "$work"' EXIT
"${NPUKB_CXX:-g++}" -std=c++17 -O2 -I"$cpusim/include" -I"$here" "$here/bench_matmul.cpp" -o "$work/bench_matmul"
"$work/bench_matmul" "$@"
