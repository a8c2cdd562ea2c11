#!/bin/sh
# test_level3.sh - make check's Level 3 suite: the smallest case of every
# task (the matmul families on the cube, attention, TopK), two seeds, as
# Level 2's does. `make check-level3` runs every case with the default five
# seeds.
exec "${NPUKB_SRCDIR:-.}/tests/levels/check_level.sh" 3 smallest-one 2
