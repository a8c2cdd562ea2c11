#!/bin/sh
# test_level2.sh - make check's Level 2 suite: the smallest case of each
# dtype combination of every task, one seed (Level 2 has about three times
# Level 1's tasks, and make check's time is shared; one seed still runs
# every answer on every dtype it is compiled for). `make check-level2`
# runs every case with the default five seeds.
exec "${NPUKB_SRCDIR:-.}/tests/levels/check_level.sh" 2 smallest-per-dtype 1
