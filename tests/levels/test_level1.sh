#!/bin/sh
# test_level1.sh - make check's Level 1 suite: the smallest case of each
# dtype combination of every task, two seeds. `make check-level1` runs
# every case with the default five seeds.
exec "${NPUKB_SRCDIR:-.}/tests/levels/check_level.sh" 1 smallest-per-dtype 2
