/* test_cpusim_api.cpp - cpusim's AscendC vector, copy and reduction APIs,
 * compiled directly against the emulation headers and checked against
 * hand-computed values: masks (lane count, bit pattern, counter mode,
 * register mask), block and repeat strides, Cast rounding modes and
 * saturation, Compare/Select bit masks, pairwise reduction order, DataCopyPad
 * layouts, atomic copies, SoftmaxGrad, the high-level Matmul, the cycle
 * model, and the checks (a failed check
 * exits with status 3). Static-assert checks compile small snippets with
 * $NPUKB_CXX (default g++) against $NPUKB_SRCDIR/plugins/cpusim/include. */
#include <criterion/criterion.h>

#include "kernel_operator.h"
/* The per-API and implementation headers kernels include directly. */
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"
#include "kernel_tiling/kernel_tiling.h"
#include "kernel_utils.h"
#include "lib/math/kernel_operator_acos_intf.h"
#include "lib/math/kernel_operator_asin_intf.h"
#include "lib/math/kernel_operator_atan_intf.h"
#include "lib/math/kernel_operator_cos_intf.h"
#include "lib/math/kernel_operator_erf_intf.h"
#include "lib/math/kernel_operator_power_intf.h"
#include "lib/math/kernel_operator_sin_intf.h"
#include "lib/math/kernel_operator_tan_intf.h"
#include "lib/math/kernel_operator_tanh_intf.h"
#include "lib/sigmoid/kernel_operator_sigmoid_intf.h"
#include "lib/matmul_intf.h"

#include "../trig_hard_floats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <vector>
#include <algorithm>

using namespace AscendC;
namespace rt = npukb_cpusim;

#include "block_fixture.h"


static uint16_t hb(half h) { return h.bits; }
static uint16_t hbits(double d) { return half(d).bits; }
static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static const uint16_t UNTOUCHED16 = 0xeeee;
static uint32_t raw32(const void *p)
{
	uint32_t u;
	memcpy(&u, p, 4);
	return u;
}

TestSuite(cpusim_api, .init = setup_block);

/* ---- Cast ---------------------------------------------------------------------- */

static uint16_t f2h(float v, RoundMode m)
{
	LocalTensor<float> s = ub<float>(8);
	LocalTensor<half> d = ub<half>(16);
	s.addr_[0] = v;
	Cast(d, s, m, 8);
	return d.addr_[0].bits;
}

Test(cpusim_api, cast_float_to_half_round_modes)
{
	const float tie = 1.0f + 1.0f / 2048, tie_odd = 1.0f + 3.0f / 2048, below = 1.0f + 1.0f / 4096;
	cr_expect_eq(f2h(tie, RoundMode::CAST_RINT), 0x3c00);
	cr_expect_eq(f2h(tie_odd, RoundMode::CAST_RINT), 0x3c02);
	cr_expect_eq(f2h(tie_odd, RoundMode::CAST_NONE), 0x3c02);
	cr_expect_eq(f2h(tie, RoundMode::CAST_ROUND), 0x3c01);
	cr_expect_eq(f2h(below, RoundMode::CAST_ROUND), 0x3c00);
	cr_expect_eq(f2h(tie_odd, RoundMode::CAST_TRUNC), 0x3c01);
	cr_expect_eq(f2h(-tie, RoundMode::CAST_FLOOR), 0xbc01);
	cr_expect_eq(f2h(-tie, RoundMode::CAST_CEIL), 0xbc00);
	cr_expect_eq(f2h(tie, RoundMode::CAST_CEIL), 0x3c01);
	cr_expect_eq(f2h(below, RoundMode::CAST_ODD), 0x3c01);
	cr_expect_eq(f2h(tie_odd, RoundMode::CAST_ODD), 0x3c01);
	cr_expect_eq(f2h(1.0f, RoundMode::CAST_ODD), 0x3c00);
}

Test(cpusim_api, cast_float_to_half_overflow_and_subnormals)
{
	cr_expect_eq(f2h(70000.0f, RoundMode::CAST_RINT), 0x7c00);
	cr_expect_eq(f2h(70000.0f, RoundMode::CAST_TRUNC), 0x7bff);
	cr_expect_eq(f2h(70000.0f, RoundMode::CAST_ODD), 0x7bff);
	cr_expect_eq(f2h(-70000.0f, RoundMode::CAST_FLOOR), 0xfc00);
	cr_expect_eq(f2h(-70000.0f, RoundMode::CAST_CEIL), 0xfbff);
	cr_expect_eq(f2h(65519.0f, RoundMode::CAST_RINT), 0x7bff);
	cr_expect_eq(f2h(65520.0f, RoundMode::CAST_RINT), 0x7c00);
	cr_expect_eq(f2h(ldexpf(1, -25), RoundMode::CAST_RINT), 0x0000);
	cr_expect_eq(f2h(ldexpf(3, -26), RoundMode::CAST_RINT), 0x0001);
	cr_expect_eq(f2h(ldexpf(1, -26), RoundMode::CAST_ODD), 0x0001);
	cr_expect_eq(f2h(ldexpf(1, -26), RoundMode::CAST_CEIL), 0x0001);
	cr_expect_eq(f2h(-ldexpf(1, -26), RoundMode::CAST_CEIL), 0x8000);
	cr_expect_eq(f2h(INFINITY, RoundMode::CAST_TRUNC), 0x7c00);
	cr_expect_eq(f2h(NAN, RoundMode::CAST_RINT) & 0x7c00, 0x7c00);
}

Test(cpusim_api, cast_float_to_int32_modes_and_saturation)
{
	LocalTensor<float> s = ub<float>(8);
	LocalTensor<int32_t> d = ub<int32_t>(8);
	const float in[8] = {2.5f, -2.5f, 3.5f, -2.7f, 3e9f, -3e9f, NAN, 0.5f};
	memcpy(s.addr_, in, sizeof in);
	Cast(d, s, RoundMode::CAST_RINT, 8);
	const int32_t rint_want[8] = {2, -2, 4, -3, INT32_MAX, INT32_MIN, 0, 0};
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], rint_want[i], "rint %d: %d", i, d.addr_[i]);
	Cast(d, s, RoundMode::CAST_ROUND, 8);
	cr_expect_eq(d.addr_[0], 3);
	cr_expect_eq(d.addr_[1], -3);
	cr_expect_eq(d.addr_[7], 1);
	Cast(d, s, RoundMode::CAST_FLOOR, 8);
	cr_expect_eq(d.addr_[1], -3);
	cr_expect_eq(d.addr_[3], -3);
	Cast(d, s, RoundMode::CAST_CEIL, 8);
	cr_expect_eq(d.addr_[1], -2);
	cr_expect_eq(d.addr_[0], 3);
	Cast(d, s, RoundMode::CAST_TRUNC, 8);
	cr_expect_eq(d.addr_[3], -2);
	cr_expect_eq(d.addr_[2], 3);
}

Test(cpusim_api, cast_half_to_int8_uint8_saturates)
{
	LocalTensor<half> s = ub<half>(16);
	LocalTensor<int8_t> d8 = ub<int8_t>(32);
	LocalTensor<uint8_t> u8 = ub<uint8_t>(32);
	const double in[6] = {300, -300, 2.5, 255.5, -1, 254.5};
	for (int i = 0; i < 6; i++)
		s.addr_[i] = half(in[i]);
	Cast(d8, s, RoundMode::CAST_RINT, 6);
	cr_expect_eq(d8.addr_[0], 127);
	cr_expect_eq(d8.addr_[1], -128);
	cr_expect_eq(d8.addr_[2], 2);
	Cast(u8, s, RoundMode::CAST_RINT, 6);
	cr_expect_eq(u8.addr_[1], 0);
	cr_expect_eq(u8.addr_[3], 255);
	cr_expect_eq(u8.addr_[4], 0);
	cr_expect_eq(u8.addr_[5], 254);
	Cast(u8, s, RoundMode::CAST_ROUND, 6);
	cr_expect_eq(u8.addr_[5], 255);
	/* int8 -> half is exact */
	LocalTensor<half> back = ub<half>(16);
	Cast(back, d8, RoundMode::CAST_NONE, 3);
	cr_expect_eq(hb(back.addr_[1]), hbits(-128));
}

Test(cpusim_api, cast_int32_float_half_bf16)
{
	LocalTensor<int32_t> s = ub<int32_t>(8);
	LocalTensor<float> f = ub<float>(8);
	LocalTensor<half> h = ub<half>(16);
	const int32_t in[4] = {16777217, 16777219, 65519, 70000};
	memcpy(s.addr_, in, sizeof in);
	Cast(f, s, RoundMode::CAST_RINT, 4);
	cr_expect_eq(f.addr_[0], 16777216.0f);
	cr_expect_eq(f.addr_[1], 16777220.0f);
	Cast(f, s, RoundMode::CAST_TRUNC, 4);
	cr_expect_eq(f.addr_[1], 16777218.0f);
	Cast(h, s, RoundMode::CAST_NONE, 4);
	cr_expect_eq(hb(h.addr_[2]), 0x7bff);
	cr_expect_eq(hb(h.addr_[3]), 0x7c00);

	LocalTensor<float> a = ub<float>(8);
	LocalTensor<bfloat16_t> b = ub<bfloat16_t>(16);
	a.addr_[0] = 1.0f + 1.0f / 256;
	a.addr_[1] = 1.0f + 3.0f / 256;
	a.addr_[2] = -1.0f - 1.0f / 256;
	Cast(b, a, RoundMode::CAST_RINT, 3);
	cr_expect_eq(b.addr_[0].bits, 0x3f80);
	cr_expect_eq(b.addr_[1].bits, 0x3f82);
	Cast(b, a, RoundMode::CAST_TRUNC, 3);
	cr_expect_eq(b.addr_[1].bits, 0x3f81);
	Cast(b, a, RoundMode::CAST_FLOOR, 3);
	cr_expect_eq(b.addr_[2].bits, 0xbf81);
	Cast(f, b, RoundMode::CAST_NONE, 3);
	cr_expect_eq(fbits(f.addr_[2]), 0xbf810000u);
}

Test(cpusim_api, cast_float_to_float_rounds_to_integral)
{
	LocalTensor<float> s = ub<float>(8), d = ub<float>(8);
	s.addr_[0] = -1.5f;
	s.addr_[1] = 2.5f;
	Cast(d, s, RoundMode::CAST_FLOOR, 2);
	cr_expect_eq(d.addr_[0], -2.0f);
	Cast(d, s, RoundMode::CAST_RINT, 2);
	cr_expect_eq(d.addr_[1], 2.0f);
	Cast(d, s, RoundMode::CAST_NONE, 2);
	cr_expect_eq(d.addr_[1], 2.5f);
}

Test(cpusim_api, cast_mask_form_half_to_float)
{
	LocalTensor<half> s = ub<half>(128);
	LocalTensor<float> d = ub<float>(128);
	for (int i = 0; i < 128; i++)
		s.addr_[i] = half(i + 0.5);
	/* 64 lanes per repeat (float side); the half source advances 4 blocks. */
	Cast(d, s, RoundMode::CAST_NONE, 10, 2, UnaryRepeatParams(1, 1, 8, 4));
	for (int i = 0; i < 128; i++) {
		const bool on = (i % 64) < 10;
		if (on)
			cr_expect_eq(d.addr_[i], i + 0.5f, "lane %d", i);
		else
			cr_expect_eq(raw32(&d.addr_[i]), 0xeeeeeeeeu, "lane %d written", i);
	}
}

/* ---- masks, repeats and strides ------------------------------------------------- */

Test(cpusim_api, add_len_mask_two_repeats)
{
	LocalTensor<float> a = ub<float>(128), b = ub<float>(128), c = ub<float>(128);
	for (int i = 0; i < 128; i++) {
		a.addr_[i] = (float)i;
		b.addr_[i] = 1000.0f;
	}
	Add(c, a, b, 10, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
	for (int i = 0; i < 128; i++) {
		if (i % 64 < 10)
			cr_expect_eq(c.addr_[i], 1000.0f + i, "lane %d", i);
		else
			cr_expect_eq(raw32(&c.addr_[i]), 0xeeeeeeeeu, "lane %d written", i);
	}
}

Test(cpusim_api, sub_bit_mask_half)
{
	LocalTensor<half> a = ub<half>(128), b = ub<half>(128), c = ub<half>(128);
	for (int i = 0; i < 128; i++) {
		a.addr_[i] = half(i);
		b.addr_[i] = half(1);
	}
	uint64_t mask[2] = {0x5, 0x1};
	Sub(c, a, b, mask, 1, BinaryRepeatParams());
	for (int i = 0; i < 128; i++) {
		if (i == 0 || i == 2 || i == 64)
			cr_expect_eq(hb(c.addr_[i]), hbits(i - 1.0), "lane %d", i);
		else
			cr_expect_eq(hb(c.addr_[i]), UNTOUCHED16, "lane %d written", i);
	}
}

Test(cpusim_api, block_and_repeat_strides)
{
	LocalTensor<float> a = ub<float>(256), c = ub<float>(256);
	for (int i = 0; i < 256; i++)
		a.addr_[i] = (float)i;
	/* Source repeat stride 0: both repeats read elements 0..63. Destination
	 * block stride 2: lane l goes to block 2*(l/8). */
	Muls(c, a, 2.0f, 64, 2, UnaryRepeatParams(2, 1, 16, 0));
	for (int r = 0; r < 2; r++)
		for (int l = 0; l < 64; l++) {
			const int at = r * 128 + (l / 8) * 16 + l % 8;
			cr_expect_eq(c.addr_[at], 2.0f * l, "repeat %d lane %d", r, l);
		}
	cr_expect_eq(raw32(&c.addr_[8]), 0xeeeeeeeeu, "gap block written");
}

Test(cpusim_api, counter_mode_and_register_mask)
{
	LocalTensor<float> a = ub<float>(256), b = ub<float>(256), c = ub<float>(256);
	for (int i = 0; i < 256; i++) {
		a.addr_[i] = (float)i;
		b.addr_[i] = 2.0f;
	}
	SetMaskCount();
	SetVectorMask<float, MaskMode::COUNTER>(0, 100);
	Mul<float, false>(c, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
	SetMaskNorm();
	ResetMask();
	for (int i = 0; i < 128; i++) {
		if (i < 100)
			cr_expect_eq(c.addr_[i], 2.0f * i, "element %d", i);
		else
			cr_expect_eq(raw32(&c.addr_[i]), 0xeeeeeeeeu, "element %d written", i);
	}
	/* Normal mode, register mask: lanes 0..3 and 64 of the half pattern. */
	LocalTensor<half> h = ub<half>(128), hd = ub<half>(128);
	for (int i = 0; i < 128; i++)
		h.addr_[i] = half(-i);
	SetVectorMask<half>(0x1, 0xf);
	Abs<half, false>(hd, h, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
	ResetMask();
	for (int i = 0; i < 128; i++) {
		if (i < 4 || i == 64)
			cr_expect_eq(hb(hd.addr_[i]), hbits(i), "lane %d", i);
		else
			cr_expect_eq(hb(hd.addr_[i]), UNTOUCHED16, "lane %d written", i);
	}
}

Test(cpusim_api, scalar_and_unary_mask_forms)
{
	LocalTensor<float> a = ub<float>(64), c = ub<float>(64);
	for (int i = 0; i < 64; i++)
		a.addr_[i] = (float)(i - 32);
	Adds(c, a, 0.5f, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[0], -31.5f);
	Maxs(c, a, 3.0f, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[0], 3.0f);
	cr_expect_eq(c.addr_[63], 31.0f);
	Mins(c, a, 3.0f, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[63], 3.0f);
	Relu(c, a, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[0], 0.0f);
	cr_expect_eq(c.addr_[40], 8.0f);
	Div(c, a, a, 64, 1, BinaryRepeatParams());
	cr_expect_eq(c.addr_[1], 1.0f);
	Reciprocal(c, a, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[34], 0.5f);
	Sqrt(c, a, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[36], 2.0f);
	Rsqrt(c, a, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[36], 0.5f);
	Ln(c, a, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[33], 0.0f);
	Exp(c, a, 64, 1, UnaryRepeatParams());
	cr_expect_eq(c.addr_[32], 1.0f);
	Max(c, a, a, 64, 1, BinaryRepeatParams());
	Min(c, a, a, 64, 1, BinaryRepeatParams());
	cr_expect_eq(c.addr_[5], -27.0f);
	/* half: Muls rounds once (1025 * 3 = 3075 -> 3076 in half). */
	LocalTensor<half> h = ub<half>(128);
	h.addr_[0] = half(1025);
	Muls(h, h, half(3), 1, 1, UnaryRepeatParams());
	cr_expect_eq(hb(h.addr_[0]), hbits(3076));
}

Test(cpusim_api, duplicate_mask_and_strides)
{
	LocalTensor<half> d = ub<half>(128);
	Duplicate(d, half(2), 32, 1, 2, 8);
	for (int i = 0; i < 64; i++) {
		const bool on = i < 16 || (i >= 32 && i < 48);
		cr_expect_eq(hb(d.addr_[i]), on ? hbits(2) : UNTOUCHED16, "element %d", i);
	}
	LocalTensor<int32_t> n = ub<int32_t>(64);
	Duplicate(n, (int32_t)-7, 64);
	cr_expect_eq(n.addr_[63], -7);
}

Test(cpusim_api, in_place_repeat_reads_before_writing)
{
	/* Source block stride 0 reads block 0 eight times; in place, the
	 * destination's block 0 is written only after the repeat's reads. */
	LocalTensor<float> a = ub<float>(64);
	for (int i = 0; i < 64; i++)
		a.addr_[i] = (float)i;
	Adds(a, a, 100.0f, 64, 1, UnaryRepeatParams(1, 0, 8, 8));
	for (int i = 0; i < 64; i++)
		cr_expect_eq(a.addr_[i], 100.0f + (i % 8), "element %d", i);
}

Test(cpusim_api, repeat_256_trips, .exit_code = 3)
{
	LocalTensor<float> a = ub<float>(64);
	Adds(a, a, 1.0f, 64, 256, UnaryRepeatParams(1, 1, 0, 0));
}

Test(cpusim_api, mask_beyond_lanes_trips, .exit_code = 3)
{
	LocalTensor<float> a = ub<float>(64);
	Adds(a, a, 1.0f, 65, 1, UnaryRepeatParams());
}

Test(cpusim_api, strided_extent_beyond_tensor_trips, .exit_code = 3)
{
	LocalTensor<float> a = ub<float>(64), c = ub<float>(64);
	Adds(c, a, 1.0f, 64, 2, UnaryRepeatParams());
}

Test(cpusim_api, strided_extent_exactly_fits)
{
	LocalTensor<float> a = ub<float>(128), c = ub<float>(72);
	/* dst rep stride 1 block: repeat 1 ends at 8 + 64 floats = 72. */
	Adds(c, a, 1.0f, 64, 2, UnaryRepeatParams(1, 1, 1, 8));
	cr_expect(true);
}

Test(cpusim_api, cycle_model_charges_repeats)
{
	LocalTensor<float> a = ub<float>(512);
	const double before = rt::g.busy[rt::P_V];
	Adds(a, a, 1.0f, 64, 4, UnaryRepeatParams());
	const double one = rt::g.busy[rt::P_V] - before;
	Exp(a, a, 64, 4, UnaryRepeatParams());
	const double two = rt::g.busy[rt::P_V] - before - one;
	cr_expect_eq(one, 10 + 4 * 1.0, "adds: %f", one);
	cr_expect_eq(two, 10 + 4 * 4.0, "exp: %f", two);
	SetMaskCount();
	SetVectorMask<float, MaskMode::COUNTER>(0, 130);
	const double b2 = rt::g.busy[rt::P_V];
	Adds<float, false>(a, a, 1.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
	cr_expect_eq(rt::g.busy[rt::P_V] - b2, 10 + 3 * 1.0, "counter mode: 3 repeats");
}

Test(cpusim_api, set_flag_builtins_order_pipes)
{
	LocalTensor<float> a = ub<float>(512);
	Exp(a, a, 64, 8, UnaryRepeatParams());
	const double v_done = rt::g.done[rt::P_V];
	cr_expect_gt(v_done, rt::g.busy[rt::P_S]);
	set_flag(PIPE_V, PIPE_S, EVENT_ID1);
	wait_flag(PIPE_V, PIPE_S, EVENT_ID1);
	cr_expect_geq(rt::g.busy[rt::P_S], v_done, "scalar pipe waited for V");
	static_assert(IsSameType<half, half>::value && !IsSameType<half, float>::value, "IsSameType");
	cr_expect(likely(1) && !unlikely(0));
}

Test(cpusim_api, set_flag_between_unrelated_pipes_trips, .exit_code = 3)
{
	set_flag(PIPE_ALL, PIPE_S, EVENT_ID0);
}

/* ---- bitwise ---------------------------------------------------------------------- */

Test(cpusim_api, and_or_not_shifts)
{
	LocalTensor<uint16_t> a = ub<uint16_t>(16), b = ub<uint16_t>(16), c = ub<uint16_t>(16);
	a.addr_[0] = 0xf0f0;
	b.addr_[0] = 0x3c3c;
	a.addr_[1] = 0x8000;
	And(c, a, b, 2);
	cr_expect_eq(c.addr_[0], 0x3030);
	Or(c, a, b, 2);
	cr_expect_eq(c.addr_[0], 0xfcfc);
	Not(c, a, 2);
	cr_expect_eq(c.addr_[0], 0x0f0f);
	ShiftRight(c, a, (uint16_t)15, 2);
	cr_expect_eq(c.addr_[1], 1);
	LocalTensor<int16_t> s = ub<int16_t>(128), t = ub<int16_t>(128);
	s.addr_[0] = -8;
	s.addr_[1] = 0x4000;
	ShiftRight(t, s, (int16_t)1, 2);
	cr_expect_eq(t.addr_[0], -4);
	ShiftLeft(t, s, (int16_t)1, 2);
	cr_expect_eq(t.addr_[1], (int16_t)-32768);
	And(t, s, s, 128, 1, BinaryRepeatParams());
	cr_expect_eq(t.addr_[0], -8);
}

/* ---- Compare and Select ----------------------------------------------------------- */

Test(cpusim_api, compare_and_select)
{
	LocalTensor<float> a = ub<float>(64), b = ub<float>(64), d = ub<float>(64);
	LocalTensor<uint8_t> m = ub<uint8_t>(32);
	for (int i = 0; i < 64; i++) {
		a.addr_[i] = (float)i;
		b.addr_[i] = 10.0f;
	}
	Compare(m, a, b, CMPMODE::LT, 64);
	cr_expect_eq(m.addr_[0], 0xff);
	cr_expect_eq(m.addr_[1], 0x03);
	cr_expect_eq(m.addr_[2], 0x00);
	Compare(m, a, b, CMPMODE::EQ, 64);
	cr_expect_eq(m.addr_[1], 0x04);
	CompareScalar(m, a, 60.0f, CMPMODE::GE, 64);
	cr_expect_eq(m.addr_[7], 0xf0);
	cr_expect_eq(m.addr_[6], 0x00);
	Compare(m, a, b, CMPMODE::GT, 64);
	Select(d, m, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
	cr_expect_eq(d.addr_[5], 10.0f);
	cr_expect_eq(d.addr_[11], 11.0f);
	Select(d, m, a, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
	cr_expect_eq(d.addr_[5], -1.0f);
	cr_expect_eq(d.addr_[63], 63.0f);
	/* Mask form, two repeats packed: bits of repeat 1 start at bit 64. */
	LocalTensor<float> a2 = ub<float>(128), b2 = ub<float>(128);
	for (int i = 0; i < 128; i++) {
		a2.addr_[i] = (float)i;
		b2.addr_[i] = 70.0f;
	}
	memset(m.addr_, 0, 32);
	Compare(m, a2, b2, CMPMODE::GT, 64, 2, BinaryRepeatParams());
	cr_expect_eq(m.addr_[8], 0x80);
	cr_expect_eq(m.addr_[9], 0xff);
	cr_expect_eq(m.addr_[7], 0x00);
}

Test(cpusim_api, select_mode0_reuses_first_mask)
{
	LocalTensor<half> a = ub<half>(256), b = ub<half>(256), d = ub<half>(256);
	LocalTensor<uint8_t> m = ub<uint8_t>(32);
	for (int i = 0; i < 256; i++) {
		a.addr_[i] = half(1);
		b.addr_[i] = half(2);
	}
	memset(m.addr_, 0, 32);
	m.addr_[0] = 0x01; /* lane 0 of every repeat */
	Select(d, m, a, b, SELMODE::VSEL_CMPMASK_SPR, 256);
	cr_expect_eq(hb(d.addr_[0]), hbits(1));
	cr_expect_eq(hb(d.addr_[128]), hbits(1));
	cr_expect_eq(hb(d.addr_[129]), hbits(2));
}

Test(cpusim_api, compare_count_not_256_bytes_trips, .exit_code = 3)
{
	LocalTensor<float> a = ub<float>(64);
	LocalTensor<uint8_t> m = ub<uint8_t>(32);
	Compare(m, a, a, CMPMODE::LT, 32);
}

/* ---- reductions ------------------------------------------------------------------- */

Test(cpusim_api, reduce_sum_half_saturates_pairwise)
{
	LocalTensor<half> s = ub<half>(16), d = ub<half>(16), w = ub<half>(16);
	const double in[4] = {60000, 60000, -30000, 100};
	for (int i = 0; i < 4; i++)
		s.addr_[i] = half(in[i]);
	/* 60000 + 60000 saturates to 65504 (not inf); -30000 + 100 = -29900
	 * rounds to -29904; 65504 - 29904 = 35600 is a tie between 35584 and
	 * 35616 and goes to the even 35584. */
	ReduceSum(d, s, w, 4);
	cr_expect_eq(hb(d.addr_[0]), hbits(35584), "got %f", (double)(float)d.addr_[0]);
	WholeReduceSum(d, s, 4, 1, 1, 1, 8);
	cr_expect_eq(hb(d.addr_[0]), hbits(35584), "got %f", (double)(float)d.addr_[0]);
}

Test(cpusim_api, reduce_sum_float_tree_order_and_repeats)
{
	LocalTensor<float> s = ub<float>(256), d = ub<float>(8), w = ub<float>(256);
	s.addr_[0] = 16777216.0f;
	s.addr_[1] = s.addr_[2] = s.addr_[3] = 1.0f;
	/* (2^24 + 1) rounds to 2^24, (1 + 1) = 2: the tree gives 2^24 + 2, a
	 * left-to-right sum 2^24. */
	ReduceSum(d, s, w, 4);
	cr_expect_eq(d.addr_[0], 16777218.0f);
	for (int i = 0; i < 130; i++)
		s.addr_[i] = 1.0f;
	ReduceSum(d, s, w, 130);
	cr_expect_eq(d.addr_[0], 130.0f);
}

Test(cpusim_api, reduce_max_min_with_index)
{
	LocalTensor<float> s = ub<float>(200), d = ub<float>(8), w = ub<float>(256);
	for (int i = 0; i < 200; i++)
		s.addr_[i] = (float)(i % 50);
	ReduceMax(d, s, w, 200, true);
	cr_expect_eq(d.addr_[0], 49.0f);
	cr_expect_eq(raw32(&d.addr_[1]), 49u);
	ReduceMin(d, s, w, 200, true);
	cr_expect_eq(d.addr_[0], 0.0f);
	cr_expect_eq(raw32(&d.addr_[1]), 0u);
	LocalTensor<half> h = ub<half>(64), hd = ub<half>(16), hw = ub<half>(64);
	for (int i = 0; i < 64; i++)
		h.addr_[i] = half(100 - i);
	h.addr_[40] = half(-5);
	ReduceMin(hd, h, hw, 64, true);
	cr_expect_eq(hb(hd.addr_[0]), hbits(-5));
	cr_expect_eq(hd.addr_[1].bits, 40);
	ReduceMax(hd, h, hw, 64);
	cr_expect_eq(hb(hd.addr_[0]), hbits(100));
}

Test(cpusim_api, reduce_mask_forms)
{
	LocalTensor<float> s = ub<float>(256), d = ub<float>(8), w = ub<float>(256);
	for (int i = 0; i < 256; i++)
		s.addr_[i] = (float)i;
	/* 3 repeats, first 4 lanes each, repeats 16 floats apart. */
	ReduceSum(d, s, w, 4, 3, 2);
	cr_expect_eq(d.addr_[0], (0 + 1 + 2 + 3) + (16 + 17 + 18 + 19) + (32 + 33 + 34 + 35.0f));
	ReduceMax(d, s, w, 4, 3, 2, true);
	cr_expect_eq(d.addr_[0], 35.0f);
	cr_expect_eq(raw32(&d.addr_[1]), 35u);
	uint64_t m[2] = {0x2, 0};
	ReduceMin(d, s, w, m, 2, 8, true);
	cr_expect_eq(d.addr_[0], 1.0f);
	cr_expect_eq(raw32(&d.addr_[1]), 1u);
}

Test(cpusim_api, reduce_max_min_register)
{
	LocalTensor<float> s = ub<float>(64), d = ub<float>(8), w = ub<float>(64);
	for (int i = 0; i < 64; i++)
		s.addr_[i] = (float)((i * 7) % 64);
	ReduceMax(d, s, w, 64);
	float v = 0, idx = 0;
	GetReduceMaxMinCount<float>(v, idx);
	cr_expect_eq(v, 63.0f);
	cr_expect_eq(raw32(&idx), 9u); /* 9 * 7 = 63 */
}

Test(cpusim_api, reduce_max_min_nan_wins)
{
	/* The first NaN is the maximum and the minimum, with its index. */
	LocalTensor<float> s = ub<float>(128), d = ub<float>(8), w = ub<float>(128);
	for (int i = 0; i < 128; i++)
		s.addr_[i] = (float)i;
	s.addr_[30] = NAN;
	s.addr_[50] = NAN;
	ReduceMax(d, s, w, 128, true);
	cr_expect(d.addr_[0] != d.addr_[0], "max %g", (double)d.addr_[0]);
	cr_expect_eq(raw32(&d.addr_[1]), 30u);
	ReduceMin(d, s, w, 128, true);
	cr_expect(d.addr_[0] != d.addr_[0], "min %g", (double)d.addr_[0]);
	cr_expect_eq(raw32(&d.addr_[1]), 30u);
	WholeReduceMax(d, s, 64, 2, 1, 1, 8);
	cr_expect(d.addr_[0] != d.addr_[0]);
	cr_expect_eq(d.addr_[2], 127.0f);
}

Test(cpusim_api, whole_reduce_counter_mode_feeds_the_register)
{
	/* Counter mode: one WholeReduceMax over 100 elements (2 repeats);
	 * GetReduceMaxMinCount gives the best of all and its position. */
	LocalTensor<float> s = ub<float>(128), d = ub<float>(8);
	for (int i = 0; i < 128; i++)
		s.addr_[i] = (float)((i * 37) % 128);
	s.addr_[110] = 1000.0f; /* beyond the count: not seen */
	SetMaskCount();
	SetVectorMask<float, MaskMode::COUNTER>(0, 100);
	WholeReduceMax<float, false>(d, s, MASK_PLACEHOLDER, 1, 1, 1, 8);
	SetMaskNorm();
	ResetMask();
	float v = 0, idx = 0;
	GetReduceMaxMinCount<float>(v, idx);
	cr_expect_eq(v, 127.0f);
	cr_expect_eq(raw32(&idx), 83u); /* 83 * 37 = 3071 = 23 * 128 + 127 */
}

Test(cpusim_api, pair_reduce_masked_tail_fits_its_destination)
{
	/* 20 lanes make 10 results: a 10-float destination is enough. */
	LocalTensor<float> s = ub<float>(64), d = ub<float>(10);
	for (int i = 0; i < 64; i++)
		s.addr_[i] = (float)i;
	PairReduceSum(d, s, 1, 20, 1, 1, 8);
	for (int k = 0; k < 10; k++)
		cr_expect_eq(d.addr_[k], (float)(4 * k + 1), "result %d", k);
}

Test(cpusim_api, gather_mask_patterns)
{
	LocalTensor<float> s = ub<float>(128), d = ub<float>(128);
	LocalTensor<uint32_t> p = ub<uint32_t>(8);
	uint64_t cnt = 0;
	for (int i = 0; i < 128; i++)
		s.addr_[i] = (float)i;
	GatherMask(d, s, 1, false, 0, {1, 2, 8, 8}, cnt); /* even lanes */
	cr_expect_eq(cnt, 64u);
	for (int k = 0; k < 64; k++)
		cr_expect_eq(d.addr_[k], (float)(2 * k), "even %d", k);
	GatherMask(d, s, 4, false, 0, {1, 2, 8, 8}, cnt); /* lane 1 of every 4 */
	cr_expect_eq(cnt, 32u);
	cr_expect_eq(d.addr_[0], 1.0f);
	cr_expect_eq(d.addr_[31], 125.0f);
	memset(p.addr_, 0, 32);
	p.addr_[0] = 0xf; /* lanes 0..3, the same pattern for both repeats */
	GatherMask(d, s, p, false, 0, {1, 2, 8, 0}, cnt);
	cr_expect_eq(cnt, 8u);
	cr_expect_eq(d.addr_[3], 3.0f);
	cr_expect_eq(d.addr_[4], 64.0f);
	cr_expect_eq(d.addr_[7], 67.0f);
}

/* Counter mode: the pattern's bits run on over the repeats (bit i for
 * element i) whatever src1RepeatStride says, as a Compare over all the
 * elements lays them out; 200 half elements need only 25 pattern bytes. */
Test(cpusim_api, gather_mask_counter_mode_reads_the_pattern_bits_in_a_row)
{
	LocalTensor<half> s = ub<half>(256), d = ub<half>(256);
	LocalTensor<uint16_t> p = ub<uint16_t>(16);
	uint64_t cnt = 0;
	for (int i = 0; i < 256; i++)
		s.addr_[i] = (half)(float)i;
	memset(p.addr_, 0, 32);
	/* elements 3, 130 and 199: bit i of the pattern, across two repeats */
	p.addr_[0] = 1u << 3;
	p.addr_[130 / 16] = 1u << (130 % 16);
	p.addr_[199 / 16] = 1u << (199 % 16);
	GatherMask(d, s, p, true, 200, {1, 1, 8, 1}, cnt);
	cr_assert_eq(cnt, 3u);
	cr_expect_eq((float)d.addr_[0], 3.0f);
	cr_expect_eq((float)d.addr_[1], 130.0f);
	cr_expect_eq((float)d.addr_[2], 199.0f);
}

/* ... and a pattern shorter than the count's bits is out of bounds. */
Test(cpusim_api, gather_mask_counter_mode_short_pattern_trips, .exit_code = 3)
{
	LocalTensor<half> s = ub<half>(512), d = ub<half>(512);
	LocalTensor<uint16_t> p = ub<uint16_t>(16); /* 256 bits */
	uint64_t cnt = 0;
	GatherMask(d, s, p, true, 257, {1, 1, 8, 1}, cnt);
}

Test(cpusim_api, buffers_span_their_rounded_length)
{
	TPipe pipe;
	TQue<TPosition::VECIN, 1> q;
	TBuf<TPosition::VECCALC> b, unset;
	pipe.InitBuffer(q, 1, 4);
	pipe.InitBuffer(b, 40);
	LocalTensor<float> t = q.AllocTensor<float>();
	cr_expect_eq(t.GetSize(), 8u);
	q.FreeTensor(t);
	cr_expect_eq(b.Get<half>().GetSize(), 32u);
	/* Get on a TBuf with no memory is an empty tensor, not a failure. */
	cr_expect_eq(unset.Get<float>().GetSize(), 0u);
}

Test(cpusim_api, using_an_unset_tbuf_trips, .exit_code = 3)
{
	TPipe pipe;
	TBuf<TPosition::VECCALC> unset;
	LocalTensor<float> t = unset.Get<float>();
	Duplicate(t, 1.0f, 8);
}

Test(cpusim_api, copy_mask_strides)
{
	LocalTensor<int32_t> s = ub<int32_t>(64), d = ub<int32_t>(64);
	for (int i = 0; i < 64; i++)
		s.addr_[i] = i;
	Copy(d, s, 16, 1, CopyRepeatParams(2, 1, 8, 8)); /* lanes 0..15: blocks 0, 1 -> 0, 2 */
	cr_expect_eq(d.addr_[0], 0);
	cr_expect_eq(d.addr_[16], 8);
	cr_expect_eq(raw32(&d.addr_[8]), 0xeeeeeeeeu);
	cr_expect_eq(raw32(&d.addr_[24]), 0xeeeeeeeeu);
}

Test(cpusim_api, whole_reduce_forms)
{
	LocalTensor<float> s = ub<float>(128), d = ub<float>(8);
	for (int i = 0; i < 128; i++)
		s.addr_[i] = (float)i;
	WholeReduceSum(d, s, 64, 2, 1, 1, 8);
	cr_expect_eq(d.addr_[0], 2016.0f);
	cr_expect_eq(d.addr_[1], 6112.0f);
	WholeReduceSum(d, s, 3, 2, 2, 1, 8);
	cr_expect_eq(d.addr_[0], 3.0f);
	cr_expect_eq(d.addr_[2], 64.0f + 65 + 66);
	LocalTensor<half> h = ub<half>(256), hd = ub<half>(16);
	for (int i = 0; i < 256; i++)
		h.addr_[i] = half(i % 100);
	WholeReduceMax(hd, h, 128, 2, 1, 1, 8);
	cr_expect_eq(hb(hd.addr_[0]), hbits(99));
	cr_expect_eq(hd.addr_[1].bits, 99);
	cr_expect_eq(hb(hd.addr_[2]), hbits(99));
	cr_expect_eq(hd.addr_[3].bits, 199 - 128);
	WholeReduceMin(hd, h, 128, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
	cr_expect_eq(hb(hd.addr_[0]), hbits(0));
	cr_expect_eq(hb(hd.addr_[1]), hbits(0));
}

Test(cpusim_api, pair_reduce_sum_in_place)
{
	LocalTensor<float> s = ub<float>(128);
	for (int i = 0; i < 128; i++)
		s.addr_[i] = (float)i;
	/* In place, results of repeat r at 32*r: repeat 1 reads 64..127 after
	 * repeat 0 wrote 0..31. */
	PairReduceSum(s, s, 2, 64, 1, 1, 8);
	for (int k = 0; k < 64; k++)
		cr_expect_eq(s.addr_[k], (float)(4 * k + 1), "result %d", k);
	cr_expect_eq(s.addr_[64], 64.0f);
}

Test(cpusim_api, block_reduce_sum)
{
	LocalTensor<float> s = ub<float>(64), d = ub<float>(8);
	for (int i = 0; i < 64; i++)
		s.addr_[i] = (float)i;
	BlockReduceSum(d, s, 1, 64, 1, 1, 8);
	for (int j = 0; j < 8; j++)
		cr_expect_eq(d.addr_[j], (float)(64 * j + 28), "block %d", j);
	BlockReduceMax(d, s, 1, 64, 1, 1, 8);
	cr_expect_eq(d.addr_[3], 31.0f);
}

/* ---- Axpy, Brcb ----------------------------------------------------------------------- */

Test(cpusim_api, axpy_and_brcb)
{
	LocalTensor<float> d = ub<float>(64);
	LocalTensor<half> s = ub<half>(64);
	for (int i = 0; i < 64; i++) {
		d.addr_[i] = 1.0f;
		s.addr_[i] = half(i);
	}
	Axpy(d, s, half(0.5), 64);
	cr_expect_eq(d.addr_[10], 6.0f);
	LocalTensor<float> src = ub<float>(16), dst = ub<float>(128);
	for (int i = 0; i < 16; i++)
		src.addr_[i] = (float)(i + 1);
	Brcb(dst, src, 2, BrcbRepeatParams(1, 8));
	for (int i = 0; i < 128; i++)
		cr_expect_eq(dst.addr_[i], (float)(i / 8 + 1), "element %d", i);
}

Test(cpusim_api, gather_by_byte_offsets)
{
	LocalTensor<float> s = ub<float>(16), d = ub<float>(8);
	LocalTensor<uint32_t> off = ub<uint32_t>(8);
	for (int i = 0; i < 16; i++)
		s.addr_[i] = (float)(i * 10);
	for (int i = 0; i < 8; i++)
		off.addr_[i] = (uint32_t)((7 - i) * 4);
	Gather(d, s, off, 32, 8); /* base 32 bytes = element 8 */
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], (float)((15 - i) * 10), "element %d", i);
}

Test(cpusim_api, gather_past_source_trips, .exit_code = 3)
{
	LocalTensor<float> s = ub<float>(16), d = ub<float>(8);
	LocalTensor<uint32_t> off = ub<uint32_t>(8);
	for (int i = 0; i < 8; i++)
		off.addr_[i] = 64;
	Gather(d, s, off, 0, 8);
}

Test(cpusim_api, data_copy_ub_to_ub_strides)
{
	LocalTensor<float> s = ub<float>(64), d = ub<float>(64);
	for (int i = 0; i < 64; i++)
		s.addr_[i] = (float)i;
	DataCopy(d, s, DataCopyParams(2, 1, 1, 2)); /* src blocks 0, 2 -> dst blocks 0, 3 */
	cr_expect_eq(d.addr_[0], 0.0f);
	cr_expect_eq(d.addr_[24], 16.0f);
	cr_expect_eq(raw32(&d.addr_[8]), 0xeeeeeeeeu);
}

/* ---- copies --------------------------------------------------------------------------- */

Test(cpusim_api, data_copy_pad_in_and_out)
{
	static half src[100], out[40];
	for (int i = 0; i < 100; i++)
		src[i] = half(i);
	for (int i = 0; i < 40; i++)
		out[i] = half(-1);
	GlobalTensor<half> g = gm(src, 100), o = gm(out, 40);
	LocalTensor<half> u = ub<half>(64);
	/* Two blocks of 10 halves, 5 halves apart in GM; each padded in UB to
	 * 16 halves with 7s, with one empty block between them. */
	DataCopyPad(u, g, DataCopyExtParams(2, 20, 10, 1, 0), DataCopyPadExtParams<half>(true, 0, 6, half(7)));
	for (int i = 0; i < 10; i++) {
		cr_expect_eq(hb(u.addr_[i]), hbits(i));
		cr_expect_eq(hb(u.addr_[32 + i]), hbits(15 + i));
	}
	for (int i = 10; i < 16; i++) {
		cr_expect_eq(hb(u.addr_[i]), hbits(7), "pad %d", i);
		cr_expect_eq(hb(u.addr_[32 + i]), hbits(7), "pad %d", 32 + i);
	}
	cr_expect_eq(hb(u.addr_[16]), UNTOUCHED16, "dstStride gap written");
	/* Back out: UB blocks 32 bytes + 1 block apart, GM blocks 2 halves apart. */
	PipeBarrier<PIPE_ALL>();
	DataCopyPad(o, u, DataCopyExtParams(2, 20, 1, 4, 0));
	for (int i = 0; i < 10; i++) {
		cr_expect_eq(hb(out[i]), hbits(i));
		cr_expect_eq(hb(out[12 + i]), hbits(15 + i));
	}
	cr_expect_eq(hb(out[10]), hbits(-1));
	cr_expect_eq(hb(out[22]), hbits(-1));
}

Test(cpusim_api, data_copy_pad_gm_overrun_trips, .exit_code = 3)
{
	/* The host array is larger than the argument: only the check stops it. */
	static float src[32];
	GlobalTensor<float> g = gm(src, 10);
	LocalTensor<float> u = ub<float>(64);
	DataCopyPad(u, g, DataCopyExtParams(2, 20, 4, 0, 0), DataCopyPadExtParams<float>());
}

Test(cpusim_api, data_copy_params_strides)
{
	static float src[64], out[64];
	for (int i = 0; i < 64; i++) {
		src[i] = (float)i;
		out[i] = -1.0f;
	}
	GlobalTensor<float> g = gm(src, 64), o = gm(out, 64);
	LocalTensor<float> u = ub<float>(64);
	DataCopy(u, g, DataCopyParams(2, 1, 1, 0)); /* GM blocks 0 and 2 -> UB 0, 1 */
	cr_expect_eq(u.addr_[8], 16.0f);
	PipeBarrier<PIPE_ALL>();
	DataCopy(o, u, DataCopyParams(2, 1, 0, 2)); /* UB 0, 1 -> GM blocks 0 and 3 */
	cr_expect_eq(out[24], 16.0f);
	cr_expect_eq(out[8], -1.0f);
}

Test(cpusim_api, atomic_add_on_copies)
{
	static float out[16];
	for (int i = 0; i < 16; i++)
		out[i] = 1.5f;
	GlobalTensor<float> o = gm(out, 16);
	LocalTensor<float> u = ub<float>(16);
	for (int i = 0; i < 16; i++)
		u.addr_[i] = (float)i;
	SetAtomicAdd<float>();
	DataCopy(o, u, 16);
	DataCopyPad(o, u, DataCopyExtParams(1, 8, 0, 0, 0));
	SetAtomicNone();
	cr_expect_eq(out[1], 1.5f + 1 + 1);
	cr_expect_eq(out[2], 1.5f + 2);
	DataCopy(o, u, 8);
	cr_expect_eq(out[3], 3.0f);
}

Test(cpusim_api, tensor_helpers)
{
	static int32_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	GlobalTensor<int32_t> g = gm(buf, 8);
	cr_expect_eq(g.GetValue(3), 4);
	g.SetValue(3, 40);
	cr_expect_eq(buf[3], 40);
	LocalTensor<float> f = ub<float>(8);
	f.addr_[0] = 1.0f;
	LocalTensor<uint32_t> u = f.ReinterpretCast<uint32_t>();
	cr_expect_eq(u.GetValue(0), 0x3f800000u);
	LocalTensor<half> h = f.ReinterpretCast<half>();
	cr_expect_eq(h.GetSize(), 16u);
	DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
	cr_expect_eq(GetSysWorkSpacePtr(), (GM_ADDR) nullptr);
	cr_expect(TILING_KEY_IS(0));
	rt::g.tiling_key = 3;
	cr_expect(TILING_KEY_IS(3) && !TILING_KEY_IS(0));
	float32_t f32 = 1.0f;
	float16_t f16 = half(2.0);
	cr_expect_eq((float)f16 + f32, 3.0f);
}

/* ---- static checks: wrong dtype for an API is a compile error ------------------- */

static void expect_compile_error(const char *body, const char *needle)
{
	const char *cxx = getenv("NPUKB_CXX") ? getenv("NPUKB_CXX") : "g++";
	const char *src = getenv("NPUKB_SRCDIR") ? getenv("NPUKB_SRCDIR") : ".";
	char tmpl[] = "/tmp/npukb-api-XXXXXX";
	int fd = mkstemp(tmpl);
	cr_assert(fd >= 0);
	std::string text = std::string("#include \"kernel_operator.h\"\nusing namespace AscendC;\nvoid f() {\n") + body + "\n}\n";
	cr_assert_eq(write(fd, text.data(), text.size()), (ssize_t)text.size());
	close(fd);
	std::string cmd = std::string(cxx) + " -std=c++17 -fsyntax-only -x c++ -I" + src + "/plugins/cpusim/include " +
			  tmpl + " 2>&1";
	FILE *p = popen(cmd.c_str(), "r");
	cr_assert_not_null(p);
	std::string out;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		out.append(buf, n);
	const int status = pclose(p);
	unlink(tmpl);
	cr_expect_neq(status, 0, "compiled: %s", body);
	cr_expect(out.find(needle) != std::string::npos, "want '%s' in:\n%s", needle, out.c_str());
}

Test(cpusim_api, wrong_dtype_is_a_compile_error, .timeout = 120)
{
	expect_compile_error("LocalTensor<float> a; LocalTensor<int8_t> b; Cast(b, a, RoundMode::CAST_RINT, 8);",
			     "Cast: this source/destination type pair is not supported");
	expect_compile_error("LocalTensor<int32_t> a; Exp(a, a, 8);", "Exp: element type not supported");
	expect_compile_error("LocalTensor<float> a; And(a, a, a, 8);", "And: element type not supported");
	expect_compile_error("LocalTensor<int32_t> a; ReduceSum(a, a, a, 8);", "ReduceSum: element type not supported");
	expect_compile_error("LocalTensor<bfloat16_t> a; Add(a, a, a, 8);", "Add: element type not supported");
	expect_compile_error("LocalTensor<int16_t> a; Adds(a, a, (int16_t)1, 8, 1, UnaryRepeatParams()); Div(a, a, a, 8);",
			     "Div: element type not supported");
}

/* ---- high-level math (math.h) ------------------------------------------------ */

Test(cpusim_api, high_level_math_float)
{
	LocalTensor<float> x = ub<float>(8), y = ub<float>(8);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(256);
	const float in[8] = { 0.0f, 1.0f, -1.0f, 2.0f, -2.5f, 0.5f, 3.0f, -0.0f };
	for (int i = 0; i < 8; i++)
		x.addr_[i] = in[i];
	Sigmoid(y, x, 8);
	cr_expect_eq(y.addr_[0], 0.5f);
	cr_expect_eq(y.addr_[3], (float)(1.0 / (1.0 + exp(-2.0))));
	Tanh(y, x, tmp, 8);
	cr_expect_eq(y.addr_[1], (float)tanh(1.0));
	cr_expect_eq(fbits(y.addr_[7]), fbits(-0.0f), "tanh(-0) keeps the sign");
	Sin(y, x, 8);
	cr_expect_eq(y.addr_[2], (float)sin(-1.0));
	Cos(y, x, 8);
	cr_expect_eq(y.addr_[0], 1.0f);
	Log(y, x, 8);
	cr_expect(isinf(y.addr_[0]) && y.addr_[0] < 0, "log(0) = -inf");
	cr_expect(isnan(y.addr_[2]), "log(-1) = NaN");
	cr_expect_eq(y.addr_[3], (float)log(2.0));
	Erf(y, x, 8);
	cr_expect_eq(y.addr_[5], (float)erf(0.5));
	Floor(y, x, 8);
	cr_expect_eq(y.addr_[4], -3.0f);
	Ceil(y, x, 8);
	cr_expect_eq(y.addr_[4], -2.0f);
	Trunc(y, x, 8);
	cr_expect_eq(y.addr_[4], -2.0f);
	Round(y, x, 8);
	cr_expect_eq(y.addr_[4], -2.0f, "half to even");
	cr_expect_eq(y.addr_[5], 0.0f, "half to even");
	Frac(y, x, 8);
	cr_expect_eq(y.addr_[4], -0.5f);
	Sign(y, x, 8);
	cr_expect(y.addr_[2] == -1.0f && y.addr_[3] == 1.0f && y.addr_[0] == 0.0f);
	Gelu(y, x, 8);
	cr_expect_eq(y.addr_[1], (float)(1.0 / (1.0 + exp(-1.5957691216057308 * 1.044715))));
	cr_expect_eq(y.addr_[0], 0.0f);
}

/* Cast's bulk conversions (fp16_bulk.h) give the per-element bits: every
 * half and bfloat16 value widened, and floats narrowed over every exponent
 * and many mantissas (ties, NaNs with payloads, subnormals, overflow), on
 * both the F16C path (where the CPU has it) and the portable one. */
Test(cpusim_api, bulk_casts_match_the_per_element_conversions)
{
	static half h[65536];
	static bfloat16_t b[65536];
	static float f[65536];
	int bad = 0;
	for (uint32_t u = 0; u < 65536; u++) {
		h[u] = half::from_bits((uint16_t)u);
		b[u] = bfloat16_t::from_bits((uint16_t)u);
	}
	rt::f16_to_f32_n(h, f, 65536);
	for (uint32_t u = 0; u < 65536; u++)
		bad += fbits(f[u]) != fbits(rt::f16_to_f32((uint16_t)u));
	cr_expect_eq(bad, 0, "half -> float: %d values differ", bad);
	bad = 0;
	rt::bf16_to_f32_n(b, f, 65536);
	for (uint32_t u = 0; u < 65536; u++)
		bad += fbits(f[u]) != fbits(rt::bf16_to_f32((uint16_t)u));
	cr_expect_eq(bad, 0, "bfloat16 -> float: %d values differ", bad);

	/* floats: each of the 512 sign+exponent patterns with 128 mantissas:
	 * the halfway patterns of both targets, their neighbours, and spread
	 * ones (0x7fc00001, 0x7f800001: quiet and signalling NaN payloads) */
	int bad_h = 0, bad_hp = 0, bad_b = 0;
	static const uint32_t tails[] = { 0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x3000, 0x7fff, 0x8000,
					  0x8001, 0x18000, 0x400000, 0x400001, 0x7fffff, 0x7fe000, 0x7ff000,
					  0x3ff000, 0x17000 };
	const size_t ntails = sizeof tails / sizeof tails[0];
	for (uint32_t se = 0; se < 512; se++) {
		float in[128];
		half out[128], outp[128];
		bfloat16_t outb[128];
		uint32_t n = 0;
		for (size_t t = 0; t < ntails; t++, n++) {
			const uint32_t bits = (se << 23) | tails[t];
			memcpy(&in[n], &bits, 4);
		}
		for (uint32_t k = 0; n < 128; n++, k++) {
			const uint32_t bits = (se << 23) | ((k * 2654435761u) & 0x7fffff);
			memcpy(&in[n], &bits, 4);
		}
		rt::f32_to_f16_n(in, out, 128);
		rt::f32_to_f16_n_portable(in, outp, 128);
		rt::f32_to_bf16_n(in, outb, 128);
		for (uint32_t i = 0; i < 128; i++) {
			bad_h += out[i].bits != rt::f64_to_f16((double)in[i]);
			bad_hp += outp[i].bits != rt::f64_to_f16((double)in[i]);
			bad_b += outb[i].bits != rt::f64_to_bf16((double)in[i]);
		}
	}
	cr_expect_eq(bad_h, 0, "float -> half: %d values differ", bad_h);
	cr_expect_eq(bad_hp, 0, "float -> half (portable): %d values differ", bad_hp);
	cr_expect_eq(bad_b, 0, "float -> bfloat16: %d values differ", bad_b);

	/* by hand: 1 + 2^-11 is the half tie between 1 and 1 + 2^-10 (to even:
	 * 1.0); 1 + 3 * 2^-11 rounds up to 1 + 2^-9; 65520 overflows to inf;
	 * bfloat16 1 + 2^-8 ties to 1.0, 1 + 3 * 2^-8 to 1 + 2^-6 */
	const float hand[4] = { 1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65520.0f, -65519.0f };
	half ho[4];
	rt::f32_to_f16_n(hand, ho, 4);
	cr_expect_eq(ho[0].bits, 0x3c00);
	cr_expect_eq(ho[1].bits, 0x3c02);
	cr_expect_eq(ho[2].bits, 0x7c00);
	cr_expect_eq(ho[3].bits, 0xfbff);
	const float handb[2] = { 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f };
	bfloat16_t bo[2];
	rt::f32_to_bf16_n(handb, bo, 2);
	cr_expect_eq(bo[0].bits, 0x3f80);
	cr_expect_eq(bo[1].bits, 0x3f82);

	/* through Cast's count form, which takes the bulk path */
	LocalTensor<float> x = ub<float>(64);
	LocalTensor<half> y = ub<half>(64);
	for (int i = 0; i < 64; i++)
		x.addr_[i] = hand[i % 4];
	Cast(y, x, RoundMode::CAST_RINT, 64);
	cr_expect(y.addr_[0].bits == 0x3c00 && y.addr_[1].bits == 0x3c02 && y.addr_[2].bits == 0x7c00 &&
		  y.addr_[63].bits == 0xfbff);
}

/* Unary ops on half look their results up in a table made on first use:
 * every one of the 65,536 inputs, NaNs and infinities included, must give
 * the bits the op's formula rounded once gives, through the count form and
 * the mask form alike, and each op must keep its own table. */
Test(cpusim_api, half_unary_ops_over_every_input)
{
	const int chunk = 4096;
	LocalTensor<half> x = ub<half>(chunk), y = ub<half>(chunk);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(256);
	int bad_sin = 0, bad_cos = 0, bad_exp = 0, bad_ln = 0, bad_rsqrt = 0;
	for (int base = 0; base < 65536; base += chunk) {
		for (int i = 0; i < chunk; i++)
			x.addr_[i] = half::from_bits((uint16_t)(base + i));
		Sin(y, x, tmp, chunk);
		for (int i = 0; i < chunk; i++)
			bad_sin += hb(y.addr_[i]) != hbits(sin((double)(float)x.addr_[i]));
		Cos(y, x, chunk);
		for (int i = 0; i < chunk; i++)
			bad_cos += hb(y.addr_[i]) != hbits(cos((double)(float)x.addr_[i]));
		Exp(y, x, chunk);
		for (int i = 0; i < chunk; i++)
			bad_exp += hb(y.addr_[i]) != hbits(exp((double)(float)x.addr_[i]));
		/* mask form: 128 lanes a repeat, contiguous */
		Ln(y, x, 128, chunk / 128, UnaryRepeatParams());
		for (int i = 0; i < chunk; i++)
			bad_ln += hb(y.addr_[i]) != hbits(log((double)(float)x.addr_[i]));
		Rsqrt(y, x, chunk);
		for (int i = 0; i < chunk; i++)
			bad_rsqrt += hb(y.addr_[i]) != hbits(1.0 / sqrt((double)(float)x.addr_[i]));
	}
	cr_expect_eq(bad_sin, 0, "Sin: %d inputs differ from the formula", bad_sin);
	cr_expect_eq(bad_cos, 0, "Cos: %d inputs differ from the formula", bad_cos);
	cr_expect_eq(bad_exp, 0, "Exp: %d inputs differ from the formula", bad_exp);
	cr_expect_eq(bad_ln, 0, "Ln: %d inputs differ from the formula", bad_ln);
	cr_expect_eq(bad_rsqrt, 0, "Rsqrt: %d inputs differ from the formula", bad_rsqrt);
	/* spot values, computed by hand: sin(pi/2 as half 0x3e48 = 1.5703125) */
	x.addr_[0] = half::from_bits(0x3e48);
	Sin(y, x, 16);
	cr_expect_eq(hb(y.addr_[0]), 0x3c00, "sin(1.5703125) rounds to 1.0 in half");
	x.addr_[0] = half::from_bits(0x7c00); /* +inf */
	Exp(y, x, 16);
	cr_expect_eq(hb(y.addr_[0]), 0x7c00, "exp(+inf) = +inf");
}

/* Sin and Cos on float (float_trig.h) give the float that rounding libm's
 * double gives, bit for bit: a stride through every bit pattern, the floats
 * around each multiple of pi/2 below 1024, the floats where rounding the
 * fast double without the boundary test goes wrong, and specials; with and
 * without the temporary buffer, in place, and with a destination that
 * overlaps the source further on (element by element: each reads what an
 * earlier one wrote). */
static uint32_t f32bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}
static float f32of(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}
static bool same_f32(float a, float b)
{
	return f32bits(a) == f32bits(b) || (a != a && b != b);
}

Test(cpusim_api, float_sin_cos_give_libm_bits)
{
	static const uint32_t hard[] = { NPUKB_TRIG_HARD_FLOATS };
	static const float special[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1023.9999f, 1024.0f,
					 -1024.0f, 0x1p-149f, -0x1p-126f, 0x1p-20f, 3.4028235e38f };
	std::vector<float> in;
	for (uint64_t u = 0; u < ((uint64_t)1 << 32); u += 1019)
		in.push_back(f32of((uint32_t)u));
	for (int m = -651; m <= 651; m++) {
		const uint32_t b = f32bits((float)(m * 1.5707963267948966));
		for (int d = -64; d <= 64; d++)
			in.push_back(f32of(b + (uint32_t)d));
	}
	for (uint32_t h : hard)
		in.push_back(f32of(h));
	for (float f : special)
		in.push_back(f);

	const uint32_t chunk = 4096;
	LocalTensor<float> x = ub<float>(chunk + 8), y = ub<float>(chunk), z = ub<float>(chunk);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(256);
	size_t bad_sin = 0, bad_cos = 0, bad_inplace = 0;
	for (size_t base = 0; base < in.size(); base += chunk) {
		const uint32_t n = (uint32_t)std::min<size_t>(chunk, in.size() - base);
		memcpy(x.addr_, &in[base], n * 4);
		Sin(y, x, n);
		Cos(z, x, tmp, n);
		for (uint32_t i = 0; i < n; i++) {
			bad_sin += !same_f32(y.addr_[i], (float)sin((double)x.addr_[i]));
			bad_cos += !same_f32(z.addr_[i], (float)cos((double)x.addr_[i]));
		}
		Sin(x, x, n);
		for (uint32_t i = 0; i < n; i++)
			bad_inplace += !same_f32(x.addr_[i], y.addr_[i]);
	}
	cr_expect_eq(bad_sin, 0, "Sin: %zu of %zu floats differ from libm's", bad_sin, in.size());
	cr_expect_eq(bad_cos, 0, "Cos: %zu of %zu floats differ from libm's", bad_cos, in.size());
	cr_expect_eq(bad_inplace, 0, "Sin in place: %zu floats differ", bad_inplace);

	/* the destination 8 elements (32 bytes, the alignment) past the
	 * source, 64 elements: element i + 8 is the cosine of what element
	 * i holds by then */
	float want[72];
	for (int i = 0; i < 72; i++)
		x.addr_[i] = want[i] = 0.5f + (float)i;
	for (int i = 0; i < 64; i++)
		want[i + 8] = (float)cos((double)want[i]);
	Cos(x[8], x, 64);
	size_t bad_overlap = 0;
	for (int i = 0; i < 72; i++)
		bad_overlap += !same_f32(x.addr_[i], want[i]);
	cr_expect_eq(bad_overlap, 0, "Cos with an overlapping destination: %zu floats differ", bad_overlap);

	/* by hand: the float nearest pi is 3.14159274, 8.74e-8 above pi, so
	 * its sine is -8.74228e-8 (-0x1.777a5cp-24); cos(-0.0) is 1 */
	x.addr_[0] = 3.14159274f;
	x.addr_[1] = -0.0f;
	Sin(y, x, 8);
	Cos(z, x, 8);
	cr_expect_eq(y.addr_[0], -0x1.777a5cp-24f, "sin(3.14159274f) = %a", (double)y.addr_[0]);
	cr_expect_eq(f32bits(y.addr_[1]), 0x80000000u, "sin(-0) = -0");
	cr_expect_eq(z.addr_[1], 1.0f);
}

Test(cpusim_api, power_forms_and_half_rounding)
{
	LocalTensor<float> a = ub<float>(8), b = ub<float>(8), c = ub<float>(8);
	LocalTensor<half> h = ub<half>(16), hy = ub<half>(16);
	for (int i = 0; i < 8; i++) {
		a.addr_[i] = (float)(i + 1);
		b.addr_[i] = 2.0f;
	}
	Power(c, a, b, 8);
	cr_expect(c.addr_[0] == 1.0f && c.addr_[2] == 9.0f && c.addr_[7] == 64.0f);
	Power(c, a, 0.5f, 8);
	cr_expect_eq(c.addr_[3], 2.0f);
	Power(c, 2.0f, a, 8);
	cr_expect_eq(c.addr_[9 - 2], 256.0f);
	for (int i = 0; i < 16; i++)
		h.addr_[i] = half(0.1);
	/* exp(-0.1) in double, rounded once to half */
	Sigmoid(hy, h, 16);
	cr_expect_eq(hb(hy.addr_[0]), hbits(1.0 / (1.0 + exp(-(double)npukb_cpusim::f16_to_f32(half(0.1).bits)))));
}

Test(cpusim_api, high_level_math_counts_are_checked, .exit_code = 3)
{
	LocalTensor<float> x = ub<float>(8), y = ub<float>(8);
	Sigmoid(y, x, 16);
}

/* A tensor's device allocation is rounded up to 512 bytes: reading or
 * writing the rest of it is harmless on the device (kernels copy whole
 * 32-byte blocks of small tensors); past the allocation is not. */
Test(cpusim_api, device_allocation_sizes)
{
	/* 32 bytes more than asked, rounded up to 512 (aclrtMalloc, torch_npu). */
	cr_expect_eq(rt::gm_alloc_bytes(2), 512u);
	cr_expect_eq(rt::gm_alloc_bytes(480), 512u);
	cr_expect_eq(rt::gm_alloc_bytes(481), 1024u);
	cr_expect_eq(rt::gm_alloc_bytes(2048), 2560u);
	cr_expect_eq(rt::gm_alloc_bytes(12288), 12800u);
}

Test(cpusim_api, reads_may_reach_the_allocation_padding)
{
	static float src[128];
	GlobalTensor<float> g = gm(src, 6);
	rt::g.gm[rt::g.ngm - 1].read_hi = rt::g.gm[rt::g.ngm - 1].lo + 512;
	LocalTensor<float> u = ub<float>(64);
	src[0] = 3.0f;
	DataCopy(u, g, 8); /* 32 bytes from a 24-byte tensor */
	cr_expect_eq(u.addr_[0], 3.0f);
	cr_expect_eq(g.GetValue(7), src[7]);
}

Test(cpusim_api, writes_may_reach_the_allocation_padding)
{
	static float dst[128];
	GlobalTensor<float> g = gm(dst, 6);
	rt::g.gm[rt::g.ngm - 1].read_hi = rt::g.gm[rt::g.ngm - 1].lo + 512;
	LocalTensor<float> u = ub<float>(64);
	u.addr_[7] = 5.0f;
	DataCopy(g, u, 8); /* 32 bytes into a 24-byte tensor */
	cr_expect_eq(dst[7], 5.0f);
}

Test(cpusim_api, writes_past_the_allocation_trip, .exit_code = 3)
{
	static float dst[256];
	GlobalTensor<float> g = gm(dst, 6);
	rt::g.gm[rt::g.ngm - 1].read_hi = rt::g.gm[rt::g.ngm - 1].lo + 512;
	LocalTensor<float> u = ub<float>(256);
	DataCopy(g, u, 136); /* 544 bytes */
}

Test(cpusim_api, reads_past_the_allocation_trip, .exit_code = 3)
{
	static float src[256];
	GlobalTensor<float> g = gm(src, 6);
	rt::g.gm[rt::g.ngm - 1].read_hi = rt::g.gm[rt::g.ngm - 1].lo + 512;
	LocalTensor<float> u = ub<float>(256);
	DataCopy(u, g, 136); /* 544 bytes */
}

/* ---- auto-sync (--cce-auto-sync, CANN's default) ------------------------------------ */

/* The compiler orders the scalar unit after MTE2: the scalar read waits for
 * the copy to land instead of racing it. */
Test(cpusim_api, auto_sync_orders_scalar_after_mte2)
{
	static float src[64];
	for (int i = 0; i < 64; i++)
		src[i] = (float)(i * 3);
	rt::auto_sync = true;
	GlobalTensor<float> g = gm(src, 64);
	LocalTensor<float> u = ub<float>(64);
	DataCopy(u, g, 64);
	const double landed = rt::g.done[rt::P_MTE2];
	cr_expect_eq(u.GetValue(5), 15.0f);
	cr_expect_geq(rt::g.busy[rt::P_S], landed, "the scalar read did not wait for MTE2");
	/* ...and the vector pipe after the scalar unit's writes. */
	u.SetValue(0, 2.0f);
	const double s_done = rt::g.busy[rt::P_S];
	Adds(u, u, 1.0f, 64);
	cr_expect_geq(rt::g.busy[rt::P_V], s_done);
}

Test(cpusim_api, scalar_read_racing_mte2_trips_without_auto_sync, .exit_code = 3)
{
	static float src[64];
	rt::auto_sync = false;
	GlobalTensor<float> g = gm(src, 64);
	LocalTensor<float> u = ub<float>(64);
	DataCopy(u, g, 64);
	(void)u.GetValue(5);
}

/* MTE2 -> vector is the kernel's own job (a queue or a flag) either way. */
Test(cpusim_api, vector_racing_mte2_trips_with_auto_sync, .exit_code = 3)
{
	static float src[64];
	rt::auto_sync = true;
	GlobalTensor<float> g = gm(src, 64);
	LocalTensor<float> u = ub<float>(64);
	DataCopy(u, g, 64);
	Adds(u, u, 1.0f, 64);
}

/* ReduceSum's count form finishes on the scalar unit on 910B and sets
 * S_V and S_MTE3 itself, so copying the sum out right after it (a
 * CrossEntropyLossGrad pattern) is ordered even with auto-sync off. */
Test(cpusim_api, reduce_sum_orders_mte3_after_its_result)
{
	static float out[8];
	rt::auto_sync = false;
	LocalTensor<float> s = ub<float>(256), d = ub<float>(8), w = ub<float>(64);
	for (int i = 0; i < 256; i++)
		s.addr_[i] = 1.0f;
	ReduceSum(d, s, w, 200);
	const double s_done = rt::g.busy[rt::P_S];
	cr_expect_geq(s_done, rt::g.done[rt::P_V], "the scalar store did not wait for the vcadd");
	cr_expect_geq(rt::g.busy[rt::P_V], s_done, "S_V: the vector pipe is not held until the store");
	GlobalTensor<float> o = gm(out, 8);
	DataCopyPad(o, d, DataCopyExtParams(1, sizeof(float), 0, 0, 0));
	cr_expect_eq(out[0], 200.0f);
	rt::auto_sync = true;
}

/* ReduceMax/ReduceMin's count forms end on the scalar unit the same way... */
Test(cpusim_api, reduce_max_orders_mte3_after_its_result)
{
	static float out[8];
	rt::auto_sync = false;
	LocalTensor<float> s = ub<float>(256), d = ub<float>(8), w = ub<float>(64);
	for (int i = 0; i < 256; i++)
		s.addr_[i] = (float)(i % 50);
	ReduceMax(d, s, w, 200, true);
	GlobalTensor<float> o = gm(out, 8);
	DataCopyPad(o, d, DataCopyExtParams(1, sizeof(float), 0, 0, 0));
	cr_expect_eq(out[0], 49.0f);
	ReduceMin(d, s, w, 100, false);
	DataCopyPad(o, d, DataCopyExtParams(1, sizeof(float), 0, 0, 0));
	cr_expect_eq(out[0], 0.0f);
	rt::auto_sync = true;
}

/* ...except with calIndex over one repeat: one vector instruction writes
 * the result and the API sets no flag after it. */
Test(cpusim_api, reduce_max_with_index_in_one_repeat_leaves_the_flag_to_the_kernel, .exit_code = 3)
{
	static float out[8];
	rt::auto_sync = false;
	LocalTensor<float> s = ub<float>(64), d = ub<float>(8), w = ub<float>(64);
	for (int i = 0; i < 64; i++)
		s.addr_[i] = (float)i;
	ReduceMax(d, s, w, 64, true);
	GlobalTensor<float> o = gm(out, 8);
	DataCopyPad(o, d, DataCopyExtParams(1, 2 * sizeof(float), 0, 0, 0));
}

/* ---- TransDataTo5HD ------------------------------------------------------------------- */

/* A 16x16 half matrix (rows 32 bytes apart) transposed; two repeats move
 * every address one 32-byte block on (srcRepStride 1) and 16 blocks on. */
Test(cpusim_api, trans5hd_b16_transposes_blocks_with_repeats)
{
	LocalTensor<int16_t> src = ub<int16_t>(16 * 16 * 2), dst = ub<int16_t>(16 * 16 * 2);
	for (int i = 0; i < 512; i++)
		src.addr_[i] = (int16_t)i;
	LocalTensor<int16_t> s[16], d[16];
	for (int i = 0; i < 16; i++) {
		s[i] = src[i * 32]; /* row i of the first matrix: 64 bytes apart */
		d[i] = dst[i * 16];
	}
	TransDataTo5HD<int16_t>(d, s, TransDataTo5HDParams(false, false, 2, 16, 1));
	for (int j = 0; j < 16; j++)
		for (int i = 0; i < 16; i++) {
			cr_expect_eq(dst.addr_[j * 16 + i], i * 32 + j, "repeat 0 [%d][%d]", j, i);
			cr_expect_eq(dst.addr_[256 + j * 16 + i], i * 32 + 16 + j, "repeat 1 [%d][%d]", j, i);
		}
}

/* 32-bit: element j of the 16 sources fills destination blocks 2j, 2j+1;
 * the addresses as GetPhyAddr() gives them. */
Test(cpusim_api, trans5hd_b32_fills_two_blocks_per_element)
{
	LocalTensor<float> src = ub<float>(16 * 8), dst = ub<float>(16 * 8);
	for (int i = 0; i < 128; i++)
		src.addr_[i] = (float)i;
	uint64_t s[16], d[16];
	for (int i = 0; i < 16; i++) {
		s[i] = (uint64_t)src[i * 8].GetPhyAddr();
		d[i] = (uint64_t)dst[i * 8].GetPhyAddr();
	}
	TransDataTo5HD<float>(d, s, TransDataTo5HDParams(false, false, 1, 0, 0));
	for (int j = 0; j < 8; j++)
		for (int i = 0; i < 16; i++)
			cr_expect_eq(dst.addr_[j * 16 + i], (float)(i * 8 + j), "row %d col %d", j, i);
}

/* 8-bit: the source half and destination half are chosen by the params;
 * the other half of each destination block is left alone. Kernels call
 * the pointer form (TransDataTo5HDImpl) with plain arrays. */
Test(cpusim_api, trans5hd_b8_halves)
{
	LocalTensor<uint8_t> src = ub<uint8_t>(16 * 32), dst = ub<uint8_t>(16 * 32);
	for (int i = 0; i < 512; i++)
		src.addr_[i] = (uint8_t)(i & 0xff);
	__ubuf__ uint8_t *s[16], *d[16];
	for (int i = 0; i < 16; i++) {
		s[i] = (__ubuf__ uint8_t *)src.GetPhyAddr() + i * 32;
		d[i] = (__ubuf__ uint8_t *)dst.GetPhyAddr() + i * 32;
	}
	TransDataTo5HDParams p;
	p.dstHighHalf = true;
	p.srcHighHalf = true;
	p.repeatTimes = 1;
	TransDataTo5HDImpl(d, s, p);
	for (int j = 0; j < 16; j++) {
		for (int i = 0; i < 16; i++)
			cr_expect_eq(dst.addr_[j * 32 + 16 + i], (uint8_t)((i * 32 + 16 + j) & 0xff), "block %d byte %d", j, 16 + i);
		cr_expect_eq(dst.addr_[j * 32], 0xee, "low half of block %d written", j);
	}
}

Test(cpusim_api, trans5hd_misaligned_address_trips, .exit_code = 3)
{
	LocalTensor<half> src = ub<half>(512), dst = ub<half>(512);
	uint64_t s[16], d[16];
	for (int i = 0; i < 16; i++) {
		s[i] = (uint64_t)src.GetPhyAddr() + i * 32 + (i == 5 ? 2 : 0);
		d[i] = (uint64_t)dst.GetPhyAddr() + i * 32;
	}
	TransDataTo5HD<half>(d, s, TransDataTo5HDParams(false, false, 1, 0, 0));
}

/* ---- families without a test of their own so far -------------------------------------- */

Test(cpusim_api, atomic_max_min_on_copies)
{
	static int32_t out[8];
	for (int i = 0; i < 8; i++)
		out[i] = 3;
	GlobalTensor<int32_t> o = gm(out, 8);
	LocalTensor<int32_t> u = ub<int32_t>(8);
	for (int i = 0; i < 8; i++)
		u.addr_[i] = i; /* 0..7 against 3 */
	SetAtomicMax<int32_t>();
	DataCopy(o, u, 8);
	cr_expect_eq(out[1], 3);
	cr_expect_eq(out[6], 6);
	SetAtomicMin<int32_t>();
	DataCopy(o, u, 8);
	SetAtomicNone();
	for (int i = 0; i < 8; i++)
		cr_expect_eq(out[i], i, "min(max(3, %d), %d)", i, i);
}

/* A VECIN -> VECOUT queue of one 64-float buffer, allocated and filled
 * from g by MTE2 (the start the queue hand-off tests share). */
struct CopiedIn {
	TPipe pipe;
	TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
	LocalTensor<float> t;
	explicit CopiedIn(const GlobalTensor<float> &g)
	{
		pipe.InitBuffer(q, 1, 64 * sizeof(float));
		t = q.AllocTensor<float>();
		DataCopy(t, g, 64);
	}
};

/* A queue bound from VECIN to VECOUT carries a copy-in straight to the
 * copy-out: MTE3 waits for MTE2 through the hand-off, no race. */
Test(cpusim_api, tque_bind_hands_mte2_to_mte3)
{
	static float src[64], out[64];
	for (int i = 0; i < 64; i++)
		src[i] = (float)(i * i);
	GlobalTensor<float> g = gm(src, 64), o = gm(out, 64);
	CopiedIn in(g);
	TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> &q = in.q;
	LocalTensor<float> t = in.t;
	const double in_done = rt::g.done[rt::P_MTE2];
	q.EnQue(t);
	LocalTensor<float> r = q.DeQue<float>();
	DataCopy(o, r, 64);
	q.FreeTensor(r);
	cr_expect_gt(rt::g.done[rt::P_MTE3], in_done, "the copy-out did not wait for the copy-in");
	for (int i = 0; i < 64; i++)
		cr_expect_eq(out[i], (float)(i * i));
}

Test(cpusim_api, pipe_barrier_builtin_joins_pipes)
{
	LocalTensor<float> a = ub<float>(512);
	Exp(a, a, 64, 8, UnaryRepeatParams());
	const double v_done = rt::g.done[rt::P_V];
	pipe_barrier(PIPE_V); /* in-order pipe: nothing to wait for */
	cr_expect_lt(rt::g.busy[rt::P_S], v_done);
	pipe_barrier(PIPE_ALL);
	cr_expect_geq(rt::g.busy[rt::P_S], v_done, "PIPE_ALL did not wait for the vector pipe");
}

/* Kernel-only builds have no system workspace in front of the user's. */
Test(cpusim_api, user_workspace_is_the_argument_in_kernel_only_builds)
{
	static uint8_t ws[64];
	cr_expect_eq(GetUserWorkspace(ws), ws);
	cr_expect_null(GetUserWorkspace(nullptr));
}

Test(cpusim_api, silu_and_atan_values)
{
	LocalTensor<float> x = ub<float>(8), y = ub<float>(8);
	const float in[8] = { 0.0f, 1.0f, -1.0f, 2.0f, -2.5f, 0.5f, 3.0f, -0.0f };
	for (int i = 0; i < 8; i++)
		x.addr_[i] = in[i];
	Silu(y, x, 8);
	cr_expect_eq(y.addr_[0], 0.0f);
	cr_expect_eq(y.addr_[1], (float)(1.0 / (1.0 + exp(-1.0))));
	cr_expect_eq(y.addr_[4], (float)(-2.5 / (1.0 + exp(2.5))));
	Atan(y, x, 8);
	cr_expect_eq(y.addr_[1], (float)(M_PI / 4));
	cr_expect_eq(y.addr_[2], (float)(-M_PI / 4));
	cr_expect_eq(fbits(y.addr_[7]), fbits(-0.0f), "atan(-0) keeps the sign");
}

/* A position holds at most 8 queue buffers (TBufs do not count). */
Test(cpusim_api, eight_queue_buffers_on_a_position_fit)
{
	TPipe pipe;
	TQue<TPosition::VECIN, 2> a, b, c, d;
	TQue<TPosition::VECOUT, 2> e;
	TBuf<TPosition::VECCALC> t;
	pipe.InitBuffer(a, 2, 32);
	pipe.InitBuffer(b, 2, 32);
	pipe.InitBuffer(c, 2, 32);
	pipe.InitBuffer(d, 2, 32);
	pipe.InitBuffer(e, 2, 32);
	pipe.InitBuffer(t, 32);
	LocalTensor<float> x = d.AllocTensor<float>();
	d.FreeTensor(x);
}

Test(cpusim_api, nine_queue_buffers_on_a_position_trip, .exit_code = 3)
{
	TPipe pipe;
	TQue<TPosition::VECIN, 2> a, b, c, d;
	TQue<TPosition::VECIN, 1> e;
	pipe.InitBuffer(a, 2, 32);
	pipe.InitBuffer(b, 2, 32);
	pipe.InitBuffer(c, 2, 32);
	pipe.InitBuffer(d, 2, 32);
	pipe.InitBuffer(e, 1, 32);
}

/* ---- ops passed as template arguments (function pointers) ----------------------- */

/* Kernels (the Foreach family) take an op's address with its exact AscendC
 * signature, as a non-type template argument. */
template <class T>
using NpukbBinaryOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<T> &,
			   const int32_t &);
template <class T>
using NpukbScalarOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const T &, const int32_t &);
template <class T>
using NpukbUnaryOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const int32_t &);
template <class T>
using NpukbMathOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const uint32_t);

template <class T, NpukbBinaryOp<T> *op>
static void apply_binary(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, int32_t n)
{
	op(d, a, b, n);
}
template <class T, NpukbScalarOp<T> *op>
static void apply_scalar(const LocalTensor<T> &d, const LocalTensor<T> &a, T s, int32_t n)
{
	op(d, a, s, n);
}
template <class T, NpukbUnaryOp<T> *op>
static void apply_unary(const LocalTensor<T> &d, const LocalTensor<T> &a, int32_t n)
{
	op(d, a, n);
}
template <class T, NpukbMathOp<T> *op>
static void apply_math(const LocalTensor<T> &d, const LocalTensor<T> &a, uint32_t n)
{
	op(d, a, n);
}

Test(cpusim_api, ops_as_template_arguments)
{
	LocalTensor<float> a = ub<float>(16), b = ub<float>(16), d = ub<float>(16);
	LocalTensor<int32_t> ia = ub<int32_t>(8), id = ub<int32_t>(8);
	for (int i = 0; i < 16; i++) {
		a.addr_[i] = (float)(i + 1);
		b.addr_[i] = 2.0f;
	}
	for (int i = 0; i < 8; i++)
		ia.addr_[i] = i - 4;

	apply_binary<float, Sub>(d, a, b, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], (float)(i + 1) - 2.0f, "Sub lane %d", i);
	cr_expect_eq(raw32(&d.addr_[8]), 0xeeeeeeeeu, "Sub wrote past its count");

	apply_binary<float, Div>(d, a, b, 16);
	for (int i = 0; i < 16; i++)
		cr_expect_eq(d.addr_[i], (float)(i + 1) / 2.0f, "Div lane %d", i);

	apply_scalar<float, Muls>(d, a, 3.0f, 16);
	for (int i = 0; i < 16; i++)
		cr_expect_eq(d.addr_[i], 3.0f * (float)(i + 1), "Muls lane %d", i);

	apply_scalar<int32_t, Adds>(id, ia, 10, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(id.addr_[i], i - 4 + 10, "Adds int32 lane %d", i);

	apply_scalar<int32_t, Maxs>(id, ia, 0, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(id.addr_[i], i < 4 ? 0 : i - 4, "Maxs int32 lane %d", i);

	a.addr_[0] = 16.0f;
	a.addr_[1] = 0.25f;
	apply_unary<float, Sqrt>(d, a, 2);
	cr_expect_eq(d.addr_[0], 4.0f);
	cr_expect_eq(d.addr_[1], 0.5f);

	a.addr_[0] = 0.0f;
	a.addr_[1] = 1.0f;
	apply_math<float, Acos>(d, a, 2);
	cr_expect_float_eq(d.addr_[0], 1.5707963f, 1e-6f, "acos(0)");
	cr_expect_float_eq(d.addr_[1], 0.0f, 1e-6f, "acos(1)");

	/* the located forms still win for direct calls, the mask form too */
	Add(d, a, b, 2, 1, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
	cr_expect_eq(d.addr_[0], 2.0f);
	cr_expect_eq(d.addr_[1], 3.0f);
}

/* The whole-tensor forms of the high-level math ops: no count, the source
 * tensor's size. */
Test(cpusim_api, math_whole_tensor_forms)
{
	LocalTensor<float> a = ub<float>(8), d = ub<float>(8), e = ub<float>(16);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(1024);
	for (int i = 0; i < 8; i++)
		a.addr_[i] = (float)(1 << i); /* 1, 2, 4 ... 128 */

	Log2(d, a);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], (float)i, "Log2 lane %d", i);

	Log(d, a, tmp);
	cr_expect_eq(d.addr_[0], 0.0f);
	cr_expect_float_eq(d.addr_[1], 0.69314718f, 1e-6f, "log(2)");
	cr_expect_float_eq(d.addr_[7], 4.8520303f, 1e-5f, "log(128)");

	/* the count is the source's: a longer destination keeps its tail */
	for (int i = 0; i < 8; i++)
		a.addr_[i] = (float)i + 0.75f;
	Floor(e, a);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(e.addr_[i], (float)i, "Floor lane %d", i);
	cr_expect_eq(raw32(&e.addr_[8]), 0xeeeeeeeeu, "wrote past the source's size");
}

/* Power on int32_t: the exact integer power wrapped to 32 bits. */
Test(cpusim_api, power_int32)
{
	LocalTensor<int32_t> a = ub<int32_t>(8), b = ub<int32_t>(8), d = ub<int32_t>(8);
	const int32_t base[8] = { 2, -3, 7, 0, 1, -1, 5, 65536 };
	const int32_t expo[8] = { 10, 3, 0, 5, -4, -3, -1, 2 };
	const int32_t want[8] = { 1024, -27, 1, 0, 1, -1, 0, 0 }; /* 2^32 wraps to 0 */
	for (int i = 0; i < 8; i++) {
		a.addr_[i] = base[i];
		b.addr_[i] = expo[i];
	}
	Power(d, a, b, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(d.addr_[i], want[i], "lane %d: %d ^ %d = %d", i, base[i], expo[i], d.addr_[i]);

	Power(d, a, (int32_t)2, 3);
	cr_expect_eq(d.addr_[0], 4);
	cr_expect_eq(d.addr_[1], 9);
	cr_expect_eq(d.addr_[2], 49);

	Power(d, (int32_t)3, b, 2);
	cr_expect_eq(d.addr_[0], 59049);
	cr_expect_eq(d.addr_[1], 27);

	LocalTensor<float> f = ub<float>(8), g = ub<float>(8);
	f.addr_[0] = 2.0f;
	f.addr_[1] = 9.0f;
	Power(g, f, 0.5f, 2);
	cr_expect_float_eq(g.addr_[0], 1.41421356f, 1e-6f);
	cr_expect_eq(g.addr_[1], 3.0f);

	/* the scalar forms with a shared temporary buffer */
	LocalTensor<uint8_t> tmp = ub<uint8_t>(1024);
	Power<float, false>(g, f, 3.0f, tmp, 2);
	cr_expect_eq(g.addr_[0], 8.0f);
	cr_expect_eq(g.addr_[1], 729.0f);
	Power(g, 2.0f, f, tmp, 2);
	cr_expect_eq(g.addr_[0], 4.0f);
	cr_expect_eq(g.addr_[1], 512.0f);
}

/* The binary mask form passed as a template argument, with the AscendC
 * signature (uint64_t mask, const uint8_t repeats). */
template <class T>
using NpukbBinaryMaskOp = void(const LocalTensor<T> &, const LocalTensor<T> &, const LocalTensor<T> &, uint64_t,
			       const uint8_t, const BinaryRepeatParams &);
template <class T, NpukbBinaryMaskOp<T> *op>
static void apply_binary_mask(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b,
			      uint64_t mask, uint8_t repeats)
{
	op(d, a, b, mask, repeats, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
}

Test(cpusim_api, binary_mask_form_as_template_argument)
{
	LocalTensor<float> a = ub<float>(128), b = ub<float>(128), d = ub<float>(128);
	for (int i = 0; i < 128; i++) {
		a.addr_[i] = 0.0f;
		b.addr_[i] = (float)i;
	}
	/* a direct call with uint32_t mask and repeats stays unambiguous */
	const uint32_t mask32 = 64, reps32 = 1;
	Max(d, a, b, mask32, reps32, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
	cr_expect_eq(d.addr_[5], 5.0f);
	/* Neg as 0 - x, the first 3 lanes of each of 2 repeats */
	memset(d.addr_, 0xee, 128 * sizeof(float));
	apply_binary_mask<float, Sub>(d, a, b, 3, 2);
	for (int i = 0; i < 128; i++) {
		if (i % 64 < 3)
			cr_expect_eq(d.addr_[i], -(float)i, "lane %d", i);
		else
			cr_expect_eq(raw32(&d.addr_[i]), 0xeeeeeeeeu, "lane %d written", i);
	}
}

/* The kernel side of host+device mode (the op_host tiling header forced in)
 * sees the op-host names those headers use besides the tiling data. */
Test(cpusim_api, kernel_side_tiling_header_sees_ge_names, .timeout = 120)
{
	const char *cxx = getenv("NPUKB_CXX") ? getenv("NPUKB_CXX") : "g++";
	const char *src = getenv("NPUKB_SRCDIR") ? getenv("NPUKB_SRCDIR") : ".";
	char tmpl[] = "/tmp/npukb-api-XXXXXX";
	int fd = mkstemp(tmpl);
	cr_assert(fd >= 0);
	const std::string text = "#define NPUKB_CPUSIM_KERNEL_SIDE 1\n"
				 "#include \"register/tilingdata_base.h\"\n"
				 "namespace optiling {\n"
				 "struct Params { ge::DataType dt{ ge::DT_FLOAT }; const ge::char_t *name = nullptr; };\n"
				 "BEGIN_TILING_DATA_DEF(KTiling)\n"
				 "TILING_DATA_FIELD_DEF(uint32_t, n);\n"
				 "END_TILING_DATA_DEF;\n"
				 "}\n"
				 "using namespace optiling;\n"
				 "#include \"kernel_operator.h\"\n"
				 "using namespace AscendC;\n"
				 "int f() { KTiling t; t.n = 1; Params p; return (int)t.n + (int)p.dt; }\n";
	cr_assert_eq(write(fd, text.data(), text.size()), (ssize_t)text.size());
	close(fd);
	const std::string cmd = std::string(cxx) + " -std=c++17 -fsyntax-only -x c++ -I" + src +
				"/plugins/cpusim/include " + tmpl + " 2>&1";
	FILE *p = popen(cmd.c_str(), "r");
	cr_assert_not_null(p);
	std::string out;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		out.append(buf, n);
	const int status = pclose(p);
	unlink(tmpl);
	cr_expect_eq(status, 0, "does not compile:\n%s", out.c_str());
}

/* Sum: each row's first n elements of inner (padded to 32 bytes). */
Test(cpusim_api, sum_rows)
{
	LocalTensor<half> src = ub<half>(32), dst = ub<half>(16);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(256);
	for (int i = 0; i < 32; i++)
		src.addr_[i] = half((double)(i % 16 < 3 ? i % 16 + 1 + 3 * (i / 16) : 100));
	/* rows [1 2 3 | pad] and [4 5 6 | pad]: 6 and 15 */
	SumParams p;
	p.outter = 2;
	p.inner = 16;
	p.n = 3;
	Sum(dst, src, tmp, p);
	cr_expect_eq(hb(dst.addr_[0]), hbits(6.0));
	cr_expect_eq(hb(dst.addr_[1]), hbits(15.0));
	cr_expect_eq(hb(dst.addr_[2]), UNTOUCHED16, "wrote past outter results");

	LocalTensor<float> fs = ub<float>(8), fd = ub<float>(8);
	for (int i = 0; i < 8; i++)
		fs.addr_[i] = 0.5f * (float)i;
	p.outter = 1;
	p.inner = 8;
	p.n = 8;
	Sum(fd, fs, p);
	cr_expect_eq(fd.addr_[0], 14.0f);
}

/* InitGlobalMemory / InitOutput: GM set to a value, within the tensor. */
Test(cpusim_api, init_global_memory)
{
	int32_t buf[16];
	for (int i = 0; i < 16; i++)
		buf[i] = -1;
	GlobalTensor<int32_t> g = gm(buf, 16);
	InitGlobalMemory(g, 4, (int32_t)7);
	InitOutput<int32_t>(g[8], 2, 0);
	for (int i = 0; i < 16; i++)
		cr_expect_eq(buf[i], i < 4 ? 7 : (i == 8 || i == 9) ? 0 : -1, "element %d", i);
}

/* AscendCUtils::SetMask and the vcadd instruction on UB addresses: per
 * repeat the sum of the masked lanes into dst[r * dstRepStride]. */
Test(cpusim_api, ascendc_utils_set_mask_and_vcadd)
{
	LocalTensor<float> src = ub<float>(128), dst = ub<float>(8);
	for (int i = 0; i < 128; i++)
		src.addr_[i] = (float)i;
	AscendCUtils::SetMask<float>(4);
	vcadd((__ubuf__ float *)dst.GetPhyAddr(), (__ubuf__ float *)src.GetPhyAddr(), 2, 1, 1, 8, false);
	cr_expect_eq(dst.addr_[0], 0.0f + 1 + 2 + 3);
	cr_expect_eq(dst.addr_[1], 64.0f + 65 + 66 + 67);
	cr_expect_eq(raw32(&dst.addr_[2]), 0xeeeeeeeeu, "wrote a third result");
	cr_expect_eq(AscendCUtils::GetC0Count(sizeof(half)), 16u);
	int runs = 0;
	if ASCEND_IS_AIV {
		runs++;
	}
	if ASCEND_IS_AIC {
		runs += 10;
	}
	cr_expect_eq(runs, 1);
	cr_expect(g_coreType == AIV);
}

/* vcadd's accumulating form: the masked sums of every repeat added into
 * the accumulator GetAccVal reads (float bits in the low 32). */
Test(cpusim_api, vcadd_accumulates_into_get_acc_val)
{
	LocalTensor<float> src = ub<float>(192);
	for (int i = 0; i < 192; i++)
		src.addr_[i] = (float)(i % 64);
	AscendCUtils::SetMask<float>(3);
	vcadd(nullptr, (__ubuf__ float *)src.GetPhyAddr(), 3, 1, 1, 8, true);
	uint64_t acc = GetAccVal();
	float value;
	memcpy(&value, &acc, sizeof value);
	cr_expect_eq(value, 3 * (0.0f + 1 + 2), "three repeats of lanes 0..2");
	cr_expect_eq(acc >> 32, 0u, "the high half is not zero");
	AscendCUtils::SetMask<float>(64);
	vcadd(nullptr, (__ubuf__ float *)src.GetPhyAddr(), 1, 1, 1, 8, true);
	acc = get_acc_val();
	memcpy(&value, &acc, sizeof value);
	cr_expect_eq(value, 63.0f * 64 / 2, "a new call starts from zero");
}

Test(cpusim_api, vcadd_null_destination_without_accumulate_trips, .exit_code = 3)
{
	LocalTensor<float> src = ub<float>(64);
	vcadd(nullptr, (__ubuf__ float *)src.GetPhyAddr(), 1, 1, 1, 8, false);
}

/* SetDeqScale(half) scales Cast int32_t -> half (the s322f16 path). */
Test(cpusim_api, set_deq_scale_scales_int32_to_half)
{
	LocalTensor<int32_t> s = ub<int32_t>(8);
	LocalTensor<half> d = ub<half>(16);
	for (int i = 0; i < 8; i++)
		s.addr_[i] = i - 3;
	Cast(d, s, RoundMode::CAST_NONE, 8);
	cr_expect_eq(hb(d.addr_[7]), hbits(4.0), "the register starts at 1");
	SetDeqScale((half)0.5f);
	Cast(d, s, RoundMode::CAST_NONE, 8);
	for (int i = 0; i < 8; i++)
		cr_expect_eq(hb(d.addr_[i]), hbits((i - 3) * 0.5), "element %d", i);
	s.addr_[0] = 4097; /* 2048.5 rounds to even: 2048 */
	Cast(d, s, RoundMode::CAST_NONE, 8);
	cr_expect_eq(hb(d.addr_[0]), hbits(2048.0));
}

/* BroadCast: a row or a column repeated, in place too. */
Test(cpusim_api, broadcast_rows_and_columns)
{
	LocalTensor<float> src = ub<float>(8), dst = ub<float>(32);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(256);
	for (int i = 0; i < 8; i++)
		src.addr_[i] = (float)(i + 1);
	const uint32_t dst_shape[2] = { 4, 8 }, row[2] = { 1, 8 }, col[2] = { 4, 1 };
	BroadCast<float, 2, 0>(dst, src, dst_shape, row, tmp);
	for (int i = 0; i < 32; i++)
		cr_expect_eq(dst.addr_[i], (float)(i % 8 + 1), "row broadcast, element %d", i);
	BroadCast<float, 2, 1>(dst, src, dst_shape, col);
	for (int i = 0; i < 32; i++)
		cr_expect_eq(dst.addr_[i], (float)(i / 8 + 1), "column broadcast, element %d", i);
	/* In place: dst is src, the first row broadcast down. */
	BroadCast<float, 2, 0>(dst, dst, dst_shape, row);
	for (int i = 0; i < 32; i++)
		cr_expect_eq(dst.addr_[i], 1.0f, "in place, element %d", i);
	const uint32_t one[1] = { 1 }, sixteen[1] = { 16 };
	LocalTensor<half> hs = ub<half>(16), hd = ub<half>(16);
	hs.addr_[0] = half(2.5);
	BroadCast<half, 1, 0>(hd, hs, sixteen, one);
	for (int i = 0; i < 16; i++)
		cr_expect_eq(hb(hd.addr_[i]), hbits(2.5));
}

Test(cpusim_api, broadcast_past_the_destination_trips, .exit_code = 3)
{
	LocalTensor<float> src = ub<float>(8), dst = ub<float>(16);
	const uint32_t dst_shape[2] = { 4, 8 }, row[2] = { 1, 8 };
	BroadCast<float, 2, 0>(dst, src, dst_shape, row);
}

Test(cpusim_api, mean_rows)
{
	/* Three float rows of 8 (one 32-byte block), the first 5 averaged:
	 * row r holds r*8 .. r*8+7, so its mean is r*8 + 2. */
	LocalTensor<float> src = ub<float>(24), dst = ub<float>(8);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(256);
	for (int i = 0; i < 24; i++)
		src.addr_[i] = (float)i;
	MeanParams p;
	p.outter = 3;
	p.inner = 8;
	p.n = 5;
	Mean<float>(dst, src, tmp, p);
	for (int r = 0; r < 3; r++)
		cr_expect_eq(dst.addr_[r], (float)(r * 8 + 2), "row %d", r);
	cr_expect_eq(raw32(&dst.addr_[3]), 0xeeeeeeeeu, "wrote past outter results");
	/* half rows averaged exactly, rounded once: (1 + 2 + 2) / 3 */
	LocalTensor<half> hs = ub<half>(16), hd = ub<half>(16);
	hs.addr_[0] = half(1.0);
	hs.addr_[1] = hs.addr_[2] = half(2.0);
	p.outter = 1;
	p.inner = 16;
	p.n = 3;
	Mean<half, float>(hd, hs, p);
	cr_expect_eq(hb(hd.addr_[0]), hbits(5.0 / 3.0));
}

/* DeQue without a type, and the forms naming the user positions: GM ->
 * VECIN orders the vector pipe after MTE2, VECIN -> VECOUT the vector pipe
 * after itself (the copy-out needs its own flag). */
Test(cpusim_api, deque_untyped_and_user_position_forms)
{
	static float src[64], out[64];
	for (int i = 0; i < 64; i++)
		src[i] = (float)(3 * i);
	GlobalTensor<float> g = gm(src, 64), o = gm(out, 64);
	CopiedIn in(g);
	TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> &q = in.q;
	LocalTensor<float> t = in.t;
	const double in_done = rt::g.done[rt::P_MTE2];
	q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
	LocalTensor<float> r = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
	Adds(r, r, 1.0f, 64);
	cr_expect_gt(rt::g.done[rt::P_V], in_done, "the vector pipe did not wait for the copy-in");
	q.EnQue<TPosition::VECIN, TPosition::VECOUT, float>(r);
	r = q.DeQue<TPosition::VECIN, TPosition::VECOUT, float>();
	SetFlag<HardEvent::V_MTE3>(0);
	WaitFlag<HardEvent::V_MTE3>(0);
	DataCopy(o, r, 64);
	q.FreeTensor(r);
	LocalTensor<float> u = q.AllocTensor<float>();
	q.EnQue(u);
	cr_expect_eq((void *)q.DeQue(), (void *)u.GetPhyAddr(), "the untyped DeQue names the buffer");
	/* A dequeued tensor may be enqueued again (AscendC allows it). */
	q.EnQue(u);
	LocalTensor<float> again = q.DeQue<float>();
	q.FreeTensor(again);
	for (int i = 0; i < 64; i++)
		cr_expect_eq(out[i], (float)(3 * i + 1));
	cr_expect_eq(q.GetTensorCountInQue(), 0);
}

/* VECIN -> VECOUT is a vector-to-vector hand-off: a copy-out straight
 * after the copy-in is not ordered by it. */
Test(cpusim_api, user_position_hand_off_does_not_order_mte2_and_mte3, .exit_code = 3)
{
	static float src[64], out[64];
	GlobalTensor<float> g = gm(src, 64), o = gm(out, 64);
	CopiedIn in(g);
	TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> &q = in.q;
	LocalTensor<float> t = in.t;
	q.EnQue<TPosition::VECIN, TPosition::VECOUT, float>(t);
	LocalTensor<float> r = q.DeQue<TPosition::VECIN, TPosition::VECOUT, float>();
	DataCopy(o, r, 64);
}

/* A kernel's own AlignUp beside `using namespace AscendC` (npukb's Level 1
 * answers define one): its exact matches win, no call is ambiguous (were
 * AscendC's a uint64_t function, this file would not compile). */
static uint64_t AlignUp(uint64_t a, uint64_t b) { return (a + b - 1) / b * b + 1000; }
/* Likewise a kernel's own DivCeil, a template of one type (common in
 * answers' tiling headers, which the kernel side includes). */
template <typename T> static T DivCeil(T a, T b) { return (a + b - 1) / b + 1000; }

/* Device-compiler and library names kernels use unqualified. */
Test(cpusim_api, device_globals_and_constants)
{
	cr_expect_eq(AlignUp((uint64_t)33, (uint64_t)32), 1064u, "the kernel's own AlignUp was not chosen");
	/* (uint64_t, int): AscendC's template matches exactly, the same value. */
	cr_expect_eq(AlignUp((uint64_t)33, 32), 64u);
	rt::begin_block(5, 8);
	cr_expect_eq(block_idx, 5);
	cr_expect_eq(block_num, 8);
	cr_expect_eq(AlignUp(33u, 32u), 64u);
	cr_expect_eq(AlignUp(0u, 0u), 0u);
	cr_expect_eq(DivCeil(33u, 32u), 1002u, "the kernel's own DivCeil was not chosen");
	cr_expect_eq(DivCeil(33u, 16), 3u);
	cr_expect_eq(DivCeil((uint64_t)64, 32u), 2u);
	cr_expect_eq(DivCeil(7u, 0), 0u);
	cr_expect_eq(ONE_BLK_FLOAT_NUM, 8);
	cr_expect_eq(ONE_BLK_HALF_NUM, 16);
	TPipe pipe;
	cr_expect_eq(::GetTPipePtr(), &pipe);
	/* half from bfloat16_t converts through the exact value, implicitly
	 * (a kernel assigns a bf16 scalar to a half one in a branch it never
	 * takes for half). */
	half from_bf16 = bfloat16_t(1.5);
	cr_expect_eq(hb(from_bf16), hbits(1.5));
	from_bf16 = bfloat16_t(-3.0e5); /* beyond half's range */
	cr_expect_eq(hb(from_bf16), hbits(-HUGE_VAL));
	bfloat16_t buf[16];
	for (int i = 0; i < 16; i++)
		buf[i] = bfloat16_t(1.0);
	GlobalTensor<bfloat16_t> bg = gm(buf, 16);
	InitOutput<bfloat16_t>(bg[4], 4, bfloat16_t(0.0));
	for (int i = 0; i < 16; i++)
		cr_expect_eq(buf[i].bits, bfloat16_t(i >= 4 && i < 8 ? 0.0 : 1.0).bits, "element %d", i);
}

/* A queue passed by value is a handle to the same queue. */
static void alloc_in_copy(TQue<TPosition::VECIN, 1> q, LocalTensor<float> *out)
{
	*out = q.AllocTensor<float>();
	q.EnQue(*out);
}

Test(cpusim_api, queue_copies_share_the_queue)
{
	TPipe pipe;
	TQue<TPosition::VECIN, 1> q;
	pipe.InitBuffer(q, 1, 256);
	LocalTensor<float> t;
	alloc_in_copy(q, &t);
	cr_expect_eq(q.GetTensorCountInQue(), 1, "the copy's EnQue is not in the original");
	LocalTensor<float> r = q.DeQue<float>();
	cr_expect_eq(r.GetPhyAddr(), t.GetPhyAddr());
	q.FreeTensor(r);
}

/* A four-element braced list is DataCopyParams (bytes with DataCopyPad),
 * not DataCopyExtParams, which takes five. */
Test(cpusim_api, data_copy_pad_braced_params)
{
	static half src[32];
	for (int i = 0; i < 32; i++)
		src[i] = half((double)i);
	GlobalTensor<half> g = gm(src, 32);
	LocalTensor<half> d = ub<half>(32);
	DataCopyPad(d, g, { 1, static_cast<uint16_t>(6 * sizeof(half)), 0, 0 }, { false, 0, 0, 0 });
	for (int i = 0; i < 6; i++)
		cr_expect_eq(hb(d.addr_[i]), hbits((double)i), "element %d", i);
	DataCopyPad(d, g, { 1, static_cast<uint32_t>(3 * sizeof(half)), 0, 0, 0 }, { false, 0, 0, half(0.0) });
	cr_expect_eq(hb(d.addr_[2]), hbits(2.0));
}

/* The raw mask builtins drive the same register as the AscendC calls. */
Test(cpusim_api, raw_mask_builtins)
{
	set_mask_count();
	set_vector_mask(0x0, 70);
	cr_expect(rt::g.mask_counter);
	cr_expect_eq(rt::g.vmask[0], 70u);
	LocalTensor<float> a = ub<float>(128);
	for (int i = 0; i < 128; i++)
		a.addr_[i] = 1.0f;
	Adds<float, false>(a, a, 1.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
	cr_expect_eq(a.addr_[69], 2.0f);
	cr_expect_eq(a.addr_[70], 1.0f, "counter mode went past 70 elements");
	set_mask_norm();
	cr_expect(!rt::g.mask_counter);
}

/* A queue with CANN's third argument (a TQueConfig), and PopStackBuffer:
 * the UB the pipe has not given out. */
static constexpr TQueConfig test_que_config = { false, false, false, 0, 1, 0, {} };

Test(cpusim_api, queue_config_and_pop_stack_buffer)
{
	TPipe pipe;
	TQue<TPosition::VECIN, 1, &test_que_config> q;
	pipe.InitBuffer(q, 1, 1000);
	LocalTensor<half> t = q.AllocTensor<half>();
	q.FreeTensor(t);
	LocalTensor<int16_t> stack;
	const bool popped = PopStackBuffer<int16_t, TPosition::LCM>(stack);
	cr_expect(popped);
	cr_expect_eq((uint8_t *)stack.GetPhyAddr() - rt::ub_arena, 1024, "not after the 1000-byte buffer, 32-byte aligned");
	cr_expect_eq(stack.GetSize(), (196608u - 1024u) / 2u);
	cr_expect_eq(MAX_REPEAT_TIMES, 255);
}

/* ---- LocalTensor operator forms -------------------------------------------------- */

/* `dst = a op b` runs the count form over dst's size: the last 16 of c's
 * 64 elements are outside the 48-element view and stay untouched. */
Test(cpusim_api, tensor_operators_cover_the_destination)
{
	LocalTensor<float> a = ub<float>(64), b = ub<float>(64), c = ub<float>(64);
	for (int i = 0; i < 64; i++) {
		a.addr_[i] = (float)(i + 1);
		b.addr_[i] = 2.0f;
	}
	LocalTensor<float> c48 = c;
	c48.SetSize(48);
	c48 = a * b;
	for (int i = 0; i < 64; i++) {
		if (i < 48)
			cr_expect_eq(c.addr_[i], 2.0f * (i + 1), "mul lane %d", i);
		else
			cr_expect_eq(raw32(&c.addr_[i]), 0xeeeeeeeeu, "mul lane %d written", i);
	}
	c = a + b;
	cr_expect_eq(c.addr_[63], 66.0f);
	c = a - b;
	cr_expect_eq(c.addr_[0], -1.0f);
	c = a / b;
	cr_expect_eq(c.addr_[4], 2.5f);

	LocalTensor<int32_t> x = ub<int32_t>(64), y = ub<int32_t>(64), z = ub<int32_t>(64);
	for (int i = 0; i < 64; i++) {
		x.addr_[i] = (int32_t)0xf0f0ff00u;
		y.addr_[i] = 0x0ff00ff0;
	}
	z = x & y;
	cr_expect_eq((uint32_t)z.addr_[63], 0x00f00f00u, "32-bit And runs as 16-bit halves");
	z = x | y;
	cr_expect_eq((uint32_t)z.addr_[0], 0xfff0fff0u);

	/* A comparison covers src0's 64 elements: 8 bytes of bits. */
	LocalTensor<uint8_t> m = ub<uint8_t>(32);
	m = a > b;
	cr_expect_eq(m.addr_[0], 0xfc, "1 and 2 are not above 2");
	cr_expect_eq(m.addr_[7], 0xff);
	cr_expect_eq(m.addr_[8], 0xee, "bits beyond 64 elements written");
	m = a == b;
	cr_expect_eq(m.addr_[0], 0x02);
}

/* The operator form is checked like the count form it runs. */
Test(cpusim_api, tensor_operator_beyond_source_trips, .exit_code = 3)
{
	LocalTensor<float> a = ub<float>(32), b = ub<float>(64), c = ub<float>(64);
	c = a * b;
}

/* ---- CANN-internal pointer forms ------------------------------------------------- */

Test(cpusim_api, impl_pointer_forms_duplicate_and_copy_out)
{
	static int16_t dst[64];
	gm(dst, 64);
	LocalTensor<int16_t> u = ub<int16_t>(64);
	DuplicateImpl<int16_t>((int16_t *)u.GetPhyAddr(), 7, 48);
	cr_expect_eq(u.addr_[47], 7);
	cr_expect_eq((uint16_t)u.addr_[48], UNTOUCHED16, "Duplicate wrote past its count");
	SetFlag<HardEvent::V_MTE3>(0);
	WaitFlag<HardEvent::V_MTE3>(0);
	DataCopyUB2GMImpl(dst + 16, (int16_t *)u.GetPhyAddr(), {1, 2, 0, 0});
	cr_expect_eq(dst[15], 0);
	cr_expect_eq(dst[16], 7);
	cr_expect_eq(dst[47], 7, "two 32-byte blocks copied");
	cr_expect_eq(dst[48], 0);
}

/* A raw UB address is bounded by the end of the unified buffer. */
Test(cpusim_api, impl_pointer_form_past_the_ub_trips, .exit_code = 3)
{
	int16_t *last = (int16_t *)(void *)(rt::ub_arena + rt::g.soc.ub_bytes - 64);
	DuplicateImpl<int16_t>(last, 1, 64);
}

/* ---- SelectWithBytesMask ----------------------------------------------------------- */

/* Two rows of 8 floats; the mask rows are 32 bytes long, only their first 8
 * elements count. A zero mask element picks src0. */
Test(cpusim_api, select_with_bytes_mask_both_forms)
{
	LocalTensor<float> src = ub<float>(16), dst = ub<float>(16);
	LocalTensor<uint8_t> mask = ub<uint8_t>(64), tmp = ub<uint8_t>(256);
	for (int i = 0; i < 16; i++)
		src.addr_[i] = (float)i;
	memset(mask.addr_, 0, 64);
	mask.addr_[1] = 1;
	mask.addr_[7] = 255;
	mask.addr_[8] = 1;   /* beyond srcLastAxis: ignored */
	mask.addr_[32] = 2;  /* row 1, element 0 */
	SelectWithBytesMaskShapeInfo info;
	info.firstAxis = 2;
	info.srcLastAxis = 8;
	info.maskLastAxis = 32;
	SelectWithBytesMask(dst, src, -1.0f, mask, tmp, info);
	const float want[16] = {0, -1, 2, 3, 4, 5, 6, -1, -1, 9, 10, 11, 12, 13, 14, 15};
	for (int i = 0; i < 16; i++)
		cr_expect_eq(dst.addr_[i], want[i], "tensor-scalar lane %d", i);
	SelectWithBytesMask(src, -2.0f, src, mask, tmp, info); /* in place, scalar first */
	const float want2[16] = {-2, 1, -2, -2, -2, -2, -2, 7, 8, -2, -2, -2, -2, -2, -2, -2};
	for (int i = 0; i < 16; i++)
		cr_expect_eq(src.addr_[i], want2[i], "scalar-tensor lane %d", i);
}

Test(cpusim_api, select_with_bytes_mask_short_mask_rows_trip, .exit_code = 3)
{
	LocalTensor<float> src = ub<float>(48), dst = ub<float>(48);
	LocalTensor<uint8_t> mask = ub<uint8_t>(64), tmp = ub<uint8_t>(256);
	SelectWithBytesMaskShapeInfo info;
	info.firstAxis = 1;
	info.srcLastAxis = 48;
	info.maskLastAxis = 32; /* aligned, but fewer than the source's 48 */
	SelectWithBytesMask(dst, src, 0.0f, mask, tmp, info);
}

/* The high-level Exp's Taylor level changes its cost, not its result here. */
Test(cpusim_api, high_level_exp_taylor_levels)
{
	LocalTensor<half> a = ub<half>(128), b = ub<half>(128), c = ub<half>(128);
	LocalTensor<uint8_t> tmp = ub<uint8_t>(1024);
	for (int i = 0; i < 128; i++)
		a.addr_[i] = half((i - 64) / 16.0);
	const double t0 = rt::g.busy[rt::P_V];
	Exp<half, 15, false>(b, a, 128);
	const double t15 = rt::g.busy[rt::P_V] - t0;
	Exp<half, 0>(c, a, tmp, 128);
	const double tbasic = rt::g.busy[rt::P_V] - t0 - t15;
	for (int i = 0; i < 128; i++) {
		cr_expect_eq(hb(b.addr_[i]), hbits(exp((i - 64) / 16.0)), "lane %d", i);
		cr_expect_eq(hb(c.addr_[i]), hb(b.addr_[i]), "lane %d", i);
	}
	cr_expect_gt(t15, tbasic, "15 Taylor terms cost no more than none (%g vs %g)", t15, tbasic);
}

/* ---- the device compiler's raw builtins --------------------------------------------- */

/* The address-register form of the b16 transpose: VA0/VA1 hold the 16
 * destinations, VA2/VA3 the 16 sources, as the AscendC form's list would. */
Test(cpusim_api, scatter_vnchwconv_b16_reads_the_va_registers)
{
	LocalTensor<int16_t> src = ub<int16_t>(256), dst = ub<int16_t>(256);
	for (int i = 0; i < 256; i++)
		src.addr_[i] = (int16_t)i;
	uint64_t d[16], s[16];
	for (int i = 0; i < 16; i++) {
		d[i] = dst[i * 16].GetPhyAddr();
		s[i] = src[i * 16].GetPhyAddr();
	}
	set_va_reg_sb(VA0, d);
	set_va_reg_sb(VA1, d + 8);
	set_va_reg_sb(VA2, s);
	set_va_reg_sb(VA3, s + 8);
	scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
	for (int j = 0; j < 16; j++)
		for (int i = 0; i < 16; i++)
			cr_expect_eq(dst.addr_[j * 16 + i], i * 16 + j, "[%d][%d]", j, i);
}

Test(cpusim_api, scatter_vnchwconv_from_va7_trips, .exit_code = 3)
{
	scatter_vnchwconv_b16(VA7, VA2, 1, 0, 0);
}

/* vector_dup and vor run under the mask register as it stands; vtranspose
 * is a 16x16 transpose; copy_ubuf_to_ubuf copies bursts of 32-byte blocks. */
Test(cpusim_api, raw_vector_builtins)
{
	LocalTensor<int16_t> a = ub<int16_t>(256), b = ub<int16_t>(256), c = ub<int16_t>(256);
	set_vector_mask(0x0, 0xffff); /* 16 lanes */
	vector_dup((int16_t *)a.GetPhyAddr(), (int16_t)3, 1, 1, 1, (uint8_t)8, (uint8_t)8);
	cr_expect_eq(a.addr_[15], 3);
	cr_expect_eq((uint16_t)a.addr_[16], UNTOUCHED16, "lane 16 is masked off");
	for (int i = 0; i < 256; i++)
		b.addr_[i] = (int16_t)(i << 4);
	set_vector_mask(~0ull, ~0ull);
	/* src1 repeat stride 0: the same 3s OR-ed into both repeats */
	vor((int16_t *)c.GetPhyAddr(), (int16_t *)b.GetPhyAddr(), (int16_t *)a.GetPhyAddr(), 2, 1, 1, 1, 8, 8, 0);
	cr_expect_eq(c.addr_[5], (5 << 4) | 3);
	cr_expect_eq(c.addr_[128 + 5], ((128 + 5) << 4) | 3);
	vtranspose((uint16_t *)c.GetPhyAddr(), (uint16_t *)b.GetPhyAddr());
	cr_expect_eq(c.addr_[1 * 16 + 2], b.addr_[2 * 16 + 1]);
	cr_expect_eq(c.addr_[15 * 16 + 0], b.addr_[0 * 16 + 15]);
	/* two bursts of one block, source gap one block, destination gap none */
	copy_ubuf_to_ubuf((int16_t *)a.GetPhyAddr(), (int16_t *)b.GetPhyAddr(), 0, 2, 1, 1, 0);
	cr_expect_eq(a.addr_[16], b.addr_[32], "second burst skips one source block");
}

Test(cpusim_api, fused_mul_add_multiplies_the_destination)
{
	LocalTensor<float> d = ub<float>(64), x = ub<float>(64), y = ub<float>(64);
	for (int i = 0; i < 64; i++) {
		d.addr_[i] = 2.0f;
		x.addr_[i] = (float)i;
		y.addr_[i] = 1.0f;
	}
	FusedMulAdd(d, x, y, 40);
	cr_expect_eq(d.addr_[10], 21.0f);
	cr_expect_eq(d.addr_[40], 2.0f, "beyond the count");
}

/* ---- SoftMax ------------------------------------------------------------------------ */

/* Two rows 8 floats apart, 5 of them real (oriSrcK); the padding stays. */
Test(cpusim_api, softmax_rows_over_the_unpadded_extent)
{
	LocalTensor<float> x = ub<float>(16), y = ub<float>(16), sum = ub<float>(16), mx = ub<float>(16);
	for (int i = 0; i < 16; i++)
		x.addr_[i] = (float)(i % 8);
	SoftMaxTiling tiling;
	SoftMaxShapeInfo info = {2, 8, 2, 5};
	SoftMax<float>(y, sum, mx, x, tiling, info);
	double s = 0;
	for (int j = 0; j < 5; j++)
		s += exp(j - 4.0);
	for (int r = 0; r < 2; r++) {
		for (int j = 0; j < 5; j++)
			cr_expect_eq(y.addr_[r * 8 + j], (float)(exp(j - 4.0) / s), "row %d col %d", r, j);
		cr_expect_eq(raw32(&y.addr_[r * 8 + 5]), 0xeeeeeeeeu, "row %d padding written", r);
		cr_expect_eq(sum.addr_[r * 8 + 7], (float)s);
		cr_expect_eq(mx.addr_[r * 8 + 0], 4.0f);
	}
	/* in place, rows and columns from the tiling */
	tiling.srcM = 2;
	tiling.srcK = 8;
	SoftMax<float>(x, x, tiling);
	cr_expect_eq(x.addr_[8 + 7], (float)(1.0 / (1.0 + exp(-1.0) + exp(-2.0) + exp(-3.0) + exp(-4.0) + exp(-5.0) +
						 exp(-6.0) + exp(-7.0))));
}

Test(cpusim_api, softmax_unaligned_rows_trip, .exit_code = 3)
{
	LocalTensor<half> x = ub<half>(64);
	SoftMaxTiling tiling;
	SoftMax<half>(x, x, tiling, SoftMaxShapeInfo{2, 10, 2, 10}); /* 20-byte rows */
}

/* TransDataTo5HD over a 16x16 matrix whose last row MTE2 copies in from
 * src; with_flag: MTE2_V orders the copy and the transpose. */
static void trans5hd_after_copy_in(int16_t *src, bool with_flag)
{
	GlobalTensor<int16_t> g = gm(src, 16);
	LocalTensor<int16_t> in = ub<int16_t>(16 * 16), out = ub<int16_t>(16 * 16);
	LocalTensor<int16_t> s[16], d[16];
	for (int i = 0; i < 16; i++) {
		s[i] = in[i * 16];
		d[i] = out[i * 16];
	}
	DataCopy(s[15], g, 16);
	if (with_flag) {
		SetFlag<HardEvent::MTE2_V>(0);
		WaitFlag<HardEvent::MTE2_V>(0);
	}
	TransDataTo5HD<int16_t>(d, s, TransDataTo5HDParams(false, false, 1, 0, 0));
	cr_expect_eq(out.addr_[15 * 16 + 15], src[15]);
}

/* The race check sees every one of TransDataTo5HD's 16 sources: the last
 * one, copied in by MTE2 with no flag, is read by the vector pipe. */
Test(cpusim_api, trans5hd_race_on_the_last_source_trips, .exit_code = 3)
{
	static int16_t src[16];
	trans5hd_after_copy_in(src, false);
}

Test(cpusim_api, trans5hd_after_a_flag_passes)
{
	static int16_t src[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
	trans5hd_after_copy_in(src, true);
}

/* ---- SoftmaxGrad ---------------------------------------------------------------- */

/* Two rows 8 floats apart, 6 of them real: (g - sum(g*y)) * y; isFront
 * writes each row's sum over one 32-byte block. */
Test(cpusim_api, softmax_grad_rows_and_front)
{
	LocalTensor<float> g = ub<float>(16), y = ub<float>(16), d = ub<float>(16), f = ub<float>(16);
	for (int i = 0; i < 16; i++) {
		g.addr_[i] = (float)(i % 8) - 2.0f;
		y.addr_[i] = 0.25f * (float)(i % 5);
	}
	SoftMaxTiling tiling;
	SoftmaxGrad<float>(d, g, y, tiling, false, SoftMaxShapeInfo{2, 8, 2, 6});
	SoftmaxGrad<float>(f, g, y, tiling, true, SoftMaxShapeInfo{2, 8, 2, 6});
	for (int r = 0; r < 2; r++) {
		double s = 0;
		for (int j = 0; j < 6; j++)
			s += (double)g.addr_[r * 8 + j] * y.addr_[r * 8 + j];
		for (int j = 0; j < 6; j++)
			cr_expect_eq(d.addr_[r * 8 + j], (float)((g.addr_[r * 8 + j] - s) * y.addr_[r * 8 + j]),
				     "row %d col %d", r, j);
		cr_expect_eq(raw32(&d.addr_[r * 8 + 6]), 0xeeeeeeeeu, "row %d padding written", r);
		for (int j = 0; j < 8; j++)
			cr_expect_eq(f.addr_[r * 8 + j], (float)s, "front row %d lane %d", r, j);
	}
}

/* ---- Matmul -------------------------------------------------------------------------- */

using MmA16 = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using MmB16T = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using MmB16 = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using MmC32 = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using MmC16 = MatmulType<TPosition::GM, CubeFormat::ND, half>;

static TCubeTiling mm_tiling(int m, int n, int ka, int kb, int sm, int sn, int sk)
{
	TCubeTiling t;
	t.M = m;
	t.N = n;
	t.Ka = ka;
	t.Kb = kb;
	t.singleCoreM = sm;
	t.singleCoreN = sn;
	t.singleCoreK = sk;
	return t;
}

/* 2x3 by a transposed B (stored N x K), fp16 in, float out. */
Test(cpusim_api, matmul_fp16_transposed_b)
{
	half a[6] = {1, 2, 3, 4, 5, 6};
	half bt[6] = {1, 0, 2, 0.5, 1, -1};
	float c[4] = {-99, -99, -99, -99};
	TPipe pipe;
	matmul::Matmul<MmA16, MmB16T, MmC32> mm;
	TCubeTiling t = mm_tiling(2, 2, 3, 3, 2, 2, 3);
	REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
	mm.SetTensorA(gm(a, 6));
	mm.SetTensorB(gm(bt, 6), true);
	mm.IterateAll(gm(c, 4));
	mm.End();
	cr_expect_eq(c[0], 7.0f);
	cr_expect_eq(c[1], -0.5f);
	cr_expect_eq(c[2], 16.0f);
	cr_expect_eq(c[3], 1.0f);
}

/* int8 in, int32 out, A given K-major (stored K x orgM, read transposed)
 * from its column 1, C rows 3 apart (orgKc) with 2 columns written. The
 * products of -128 and 127 and their sums are exact integers:
 * A = [-128 -128 127; 7 -3 4], B = [-128 2; -128 -1; 127 3], so
 * C = [16384 + 16384 + 16129, -256 + 128 + 381; -896 + 384 + 508, 14 + 3 + 12]. */
Test(cpusim_api, matmul_int8_k_major_a_into_int32_c)
{
	using A8T = MatmulType<TPosition::GM, CubeFormat::ND, int8_t, true>;
	using B8 = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
	using C32 = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
	int8_t at[12] = {5, -128, 7, 9, 1, -128, -3, 2, 0, 127, 4, 1};
	int8_t b[6] = {-128, 2, -128, -1, 127, 3};
	int32_t c[6] = {-99, -99, -99, -99, -99, -99};
	TPipe pipe;
	matmul::Matmul<A8T, B8, C32> mm;
	TCubeTiling t = mm_tiling(4, 2, 3, 3, 2, 2, 3);
	REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
	mm.SetOrgShape(4, 2, 3, 3, 3);
	mm.SetTensorA(gm(at, 12)[1], true);
	mm.SetTensorB(gm(b, 6));
	mm.IterateAll(gm(c, 6));
	mm.End();
	const int32_t want[6] = {48897, 253, -99, -4, 29, -99};
	for (int i = 0; i < 6; i++)
		cr_expect_eq(c[i], want[i], "C element %d: %d, not %d", i, c[i], want[i]);
}

/* A 2x4 block of a 4x6 A times a 4x3 block of a 6x8 B into a 2x3 block of
 * a 4x8 C: rows are Ka, N and N elements apart; the rest of C stays. */
Test(cpusim_api, matmul_leading_dims_beyond_the_single_shape)
{
	half a[24], b[48];
	float c[32];
	for (int i = 0; i < 24; i++)
		a[i] = (double)(i % 5);
	for (int i = 0; i < 48; i++)
		b[i] = (double)(i % 3 - 1);
	for (int i = 0; i < 32; i++)
		c[i] = -99;
	matmul::Matmul<MmA16, MmB16, MmC32> mm;
	mm.Init(nullptr);
	mm.SetOrgShape(4, 8, 6, 6);
	mm.SetSingleShape(2, 3, 4);
	GlobalTensor<half> ga = gm(a, 24), gb = gm(b, 48);
	GlobalTensor<float> gc = gm(c, 32);
	mm.SetTensorA(ga[1 * 6 + 1]);  /* from A[1][1] */
	mm.SetTensorB(gb[2 * 8 + 3]);  /* from B[2][3] */
	mm.IterateAll(gc[1 * 8 + 2]);  /* into C[1][2] */
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 8; j++) {
			float want = -99;
			if (i >= 1 && i < 3 && j >= 2 && j < 5) {
				const int ai = i, bj = j + 1;
				want = 0;
				for (int p = 0; p < 4; p++)
					want += (float)(((ai * 6 + 1 + p) % 5) * (((2 + p) * 8 + bj) % 3 - 1));
			}
			cr_expect_eq(c[i * 8 + j], want, "C[%d][%d]", i, j);
		}
	/* A[1][1..4] = 2 3 4 0, B[2..5][3] = 0 -1 1 0 */
	cr_expect_eq(c[1 * 8 + 2], 1.0f, "C[1][2] by hand");
}

/* enAtomic adds the product to what C holds; a bias adds per column. */
Test(cpusim_api, matmul_atomic_accumulates_and_bias)
{
	half a[4] = {1, 2, 3, 4};
	half b[4] = {1, 1, 0, 1};
	float bias[2] = {0.5f, -1.0f};
	float c[4] = {10, 20, 30, 40};
	matmul::Matmul<MmA16, MmB16, MmC32, MmC32> mm;
	TCubeTiling t = mm_tiling(2, 2, 2, 2, 2, 2, 2);
	mm.Init(&t);
	mm.SetTensorA(gm(a, 4));
	mm.SetTensorB(gm(b, 4));
	mm.IterateAll(gm(c, 4), 1);
	cr_expect_eq(c[0], 11.0f); /* 10 + 1 */
	cr_expect_eq(c[1], 23.0f); /* 20 + 1 + 2 */
	cr_expect_eq(c[2], 33.0f);
	cr_expect_eq(c[3], 47.0f);
	mm.IterateAll(gm(c, 4), 1);
	cr_expect_eq(c[3], 54.0f, "a second atomic IterateAll adds again");
	mm.SetBias(gm(bias, 2));
	mm.IterateAll(gm(c, 4));
	cr_expect_eq(c[0], 1.5f, "plain IterateAll overwrites, bias added");
	cr_expect_eq(c[1], 2.0f);
	mm.DisableBias();
	mm.IterateAll(gm(c, 4));
	cr_expect_eq(c[1], 3.0f);
}

/* Every element is one dot product in double, bias first and the products
 * in the order of K, rounded once to float (then added to C when atomic):
 * the blocked loop gives exactly those bits across its row and column
 * blocks (7 rows: a block of 4 and one of 3; 259 columns: 128, 128, 3),
 * with either operand transposed. Products of halves of varied magnitude
 * make the order of the sum matter in the last bits. */
Test(cpusim_api, matmul_blocked_sum_matches_one_dot_product_per_element)
{
	enum { M = 7, N = 259, K = 33 };
	static half a[M * K], b[K * N];
	static float bias[N], c[M * N], c0[M * N];
	uint32_t r = 12345;
	auto next = [&r]() { r = r * 1664525u + 1013904223u; return (double)(r >> 8) / (1 << 24); };
	for (int i = 0; i < M * K; i++)
		a[i] = ldexp(next() * 2 - 1, (int)(next() * 12) - 6);
	for (int i = 0; i < K * N; i++)
		b[i] = ldexp(next() * 2 - 1, (int)(next() * 12) - 6);
	for (int j = 0; j < N; j++)
		bias[j] = (float)(next() - 0.5);
	for (int i = 0; i < M * N; i++)
		c0[i] = (float)(next() * 4 - 2);
	for (int form = 0; form < 4; form++) {
		const bool ta = form & 1, tb = form & 2, atomic = form == 3;
		/* The operands as the Matmul reads them: A as K x M when ta, B as
		 * N x K when tb (the same values, laid out transposed). */
		static half as[M * K], bs[K * N];
		for (int i = 0; i < M; i++)
			for (int p = 0; p < K; p++)
				as[ta ? p * M + i : i * K + p] = a[i * K + p];
		for (int p = 0; p < K; p++)
			for (int j = 0; j < N; j++)
				bs[tb ? j * K + p : p * N + j] = b[p * N + j];
		memcpy(c, c0, sizeof c);
		matmul::Matmul<MmA16, MmB16, MmC32, MmC32> mm;
		TCubeTiling t = mm_tiling(M, N, K, K, M, N, K);
		mm.Init(&t);
		mm.SetTensorA(gm(as, M * K), ta);
		mm.SetTensorB(gm(bs, K * N), tb);
		if (form == 2)
			mm.SetBias(gm(bias, N));
		mm.IterateAll(gm(c, M * N), atomic ? 1 : 0);
		int bad = 0;
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				double s = form == 2 ? (double)bias[j] : 0.0;
				for (int p = 0; p < K; p++)
					s += (double)(float)a[i * K + p] * (double)(float)b[p * N + j];
				const float want = atomic ? (float)((double)c0[i * N + j] + (double)(float)s) : (float)s;
				if (memcmp(&want, &c[i * N + j], sizeof want) != 0 && bad++ < 3)
					cr_log_error("form %d C[%d][%d] = %a, one dot product gives %a", form, i, j,
						     (double)c[i * N + j], (double)want);
			}
		cr_expect_eq(bad, 0, "form %d: %d elements differ from one dot product each", form, bad);
	}
}

/* A half C is the float L0C value rounded to nearest, ties to even:
 * 1 + 2^-11 -> 1, 1 + 3 * 2^-11 -> 1 + 2^-9 (truncation would give 1 and
 * 1 + 2^-10; rounding half up 1 + 2^-10 and 1 + 2^-9). */
Test(cpusim_api, matmul_half_c_rounds_to_nearest_even)
{
	half a[2] = {1, 1};
	half b[4] = {1, 1, ldexp(1.0, -11), 3 * ldexp(1.0, -11)};
	half c[2];
	matmul::Matmul<MmA16, MmB16, MmC16> mm;
	TCubeTiling t = mm_tiling(1, 2, 2, 2, 1, 2, 2);
	mm.Init(&t);
	mm.SetTensorA(gm(a, 2));
	mm.SetTensorB(gm(b, 4));
	mm.IterateAll(gm(c, 2));
	cr_expect_eq(hb(c[0]), 0x3c00, "1 + 2^-11 -> 1, got 0x%04x", hb(c[0]));
	cr_expect_eq(hb(c[1]), 0x3c02, "1 + 3 * 2^-11 -> 1 + 2^-9, got 0x%04x", hb(c[1]));
}

/* 16x16x16 fp16 -> float: A and B (1024 bytes) at 32 bytes a cycle, one
 * fractal, C (1024 bytes) back: 200 + max(32, 1) + 32 + 100 cycles on the
 * cube pipe, and the scalar unit waits for it. */
Test(cpusim_api, matmul_charges_the_cube_pipe)
{
	static half a[256], b[256];
	static float c[256];
	for (int i = 0; i < 256; i++)
		a[i] = b[i] = 0;
	matmul::Matmul<MmA16, MmB16, MmC32> mm;
	TCubeTiling t = mm_tiling(16, 16, 16, 16, 16, 16, 16);
	mm.Init(&t);
	mm.SetTensorA(gm(a, 256));
	mm.SetTensorB(gm(b, 256));
	mm.IterateAll(gm(c, 256));
	cr_expect_eq(rt::g.busy[rt::P_M], 364.0);
	cr_expect_eq(rt::g.busy[rt::P_S], 364.0);
	cr_expect_eq(rt::g.gm_bytes, 2048u);
}

/* A whose single shape (2 x 3) runs past its 4-element GM tensor. */
Test(cpusim_api, matmul_a_beyond_its_tensor_trips, .exit_code = 3)
{
	half a[4] = {1, 2, 3, 4};
	half b[6] = {1, 2, 3, 4, 5, 6};
	float c[4];
	matmul::Matmul<MmA16, MmB16, MmC32> mm;
	TCubeTiling t = mm_tiling(2, 2, 3, 3, 2, 2, 3);
	mm.Init(&t);
	mm.SetTensorA(gm(a, 4));
	mm.SetTensorB(gm(b, 6));
	mm.IterateAll(gm(c, 4));
}
