/* trig_hard_floats.h - floats (bit patterns) whose cosine, computed the
 * fast way of plugins/cpusim/include/npukb_cpusim/float_trig.h and rounded
 * to float without its boundary test, is not the float libm's double
 * rounds to: the fast double and libm's lie on either side of a float
 * midpoint. Found by running every float below 1024 in magnitude through
 * both (gcc 12 -O2, x86-64); these four are all there were (sin has none
 * but -0). A test that runs them fails if the boundary test is lost. The
 * expected values are always libm's, computed by the test. */
#ifndef NPUKB_TESTS_TRIG_HARD_FLOATS_H
#define NPUKB_TESTS_TRIG_HARD_FLOATS_H

#define NPUKB_TRIG_HARD_FLOATS 0x3a544395u, 0x3c107fe6u, 0xba544395u, 0xbc107fe6u

#endif
