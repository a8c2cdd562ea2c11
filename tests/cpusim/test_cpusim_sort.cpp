/* test_cpusim_sort.cpp - cpusim's 910B sort family (npukb_cpusim/sort.h):
 * Sort32, MrgSort (lists, repeats, exhausted suspension, GetMrgSortResult),
 * the high-level Concat/Sort/Extract/MrgSort and GetSortOffset/GetSortLen,
 * compiled against the emulation headers and checked against values worked
 * out by hand (the full-sort and merge cases are the examples of CANN's Sort
 * and MrgSort pages). A failed check exits with status 3. */
#include <criterion/criterion.h>

#include "kernel_operator.h"

#include <stdio.h>
#include <string.h>

using namespace AscendC;
namespace rt = npukb_cpusim;

#include "block_fixture.h"

/* Every UB tensor on a 256-byte boundary (what Sort32 wants of its
 * destination). */
static void setup_sort_block(void)
{
	setup_block();
	ub_align = 256;
}

/* Pair p of a sorted tensor: its score (as a float) and its index. */
static float score_h(const LocalTensor<half> &t, uint32_t p) { return (float)t.addr_[4 * p]; }
static float score_f(const LocalTensor<float> &t, uint32_t p) { return t.addr_[2 * p]; }
template <class T>
static uint32_t index_of(const LocalTensor<T> &t, uint32_t p)
{
	uint32_t u;
	memcpy(&u, (const unsigned char *)t.addr_ + 8 * p + 4, 4);
	return u;
}

/* Writes (score, index) pairs as Sort32 lays them out, for merge inputs. */
static void put_h(const LocalTensor<half> &t, uint32_t p, float s, uint32_t idx)
{
	t.addr_[4 * p] = half(s);
	t.addr_[4 * p + 1] = half(0.0f);
	memcpy((unsigned char *)t.addr_ + 8 * p + 4, &idx, 4);
}

TestSuite(cpusim_sort, .init = setup_sort_block);

/* Scores (13 i) mod 32 in group 0 and 100 + the same in group 1: 13 x 5 = 65
 * = 1 (mod 32), so score v sits at i = 5 v mod 32, and pair p (score 31 - p)
 * carries index base + 5 (31 - p) mod 32. Group 1's larger scores stay in
 * group 1: the repeats do not merge. Half pairs: score in bytes 0-1, bytes
 * 2-3 zero, index in bytes 4-7. */
Test(cpusim_sort, sort32_half_groups_descending_with_indices)
{
	LocalTensor<half> sc = ub<half>(64), dst = ub<half>(256);
	LocalTensor<uint32_t> ix = ub<uint32_t>(64);
	for (uint32_t i = 0; i < 32; i++) {
		sc.addr_[i] = half((float)((13 * i) % 32));
		sc.addr_[32 + i] = half((float)(100 + (13 * i) % 32));
		ix.addr_[i] = 1000 + i;
		ix.addr_[32 + i] = 2000 + i;
	}
	Sort32(dst, sc, ix, 2);
	for (uint32_t p = 0; p < 32; p++) {
		cr_expect_eq(score_h(dst, p), (float)(31 - p), "group 0 pair %u", p);
		cr_expect_eq(index_of(dst, p), 1000 + (5 * (31 - p)) % 32, "group 0 pair %u", p);
		cr_expect_eq(dst.addr_[4 * p + 1].bits, 0, "reserved bytes of pair %u", p);
		cr_expect_eq(score_h(dst, 32 + p), (float)(131 - p), "group 1 pair %u", p);
		cr_expect_eq(index_of(dst, 32 + p), 2000 + (5 * (31 - p)) % 32, "group 1 pair %u", p);
	}
	cr_expect_eq(rt::defects_n, 0);
}

/* Equal scores keep their input order; a float pair is score then index. */
Test(cpusim_sort, sort32_float_ties_keep_input_order)
{
	LocalTensor<float> sc = ub<float>(32), dst = ub<float>(64);
	LocalTensor<uint32_t> ix = ub<uint32_t>(32);
	for (uint32_t i = 0; i < 32; i++) {
		sc.addr_[i] = i % 2 ? 1.5f : -2.0f; /* odd positions 1.5, even -2 */
		ix.addr_[i] = i;
	}
	sc.addr_[7] = 9.0f;
	Sort32(dst, sc, ix, 1);
	cr_expect_eq(score_f(dst, 0), 9.0f);
	cr_expect_eq(index_of(dst, 0), 7u);
	/* then the other 15 odd positions in order, then the 16 even ones */
	const uint32_t odd[15] = {1, 3, 5, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31};
	for (uint32_t p = 0; p < 15; p++) {
		cr_expect_eq(score_f(dst, 1 + p), 1.5f, "pair %u", 1 + p);
		cr_expect_eq(index_of(dst, 1 + p), odd[p], "pair %u", 1 + p);
	}
	for (uint32_t p = 0; p < 16; p++) {
		cr_expect_eq(score_f(dst, 16 + p), -2.0f, "pair %u", 16 + p);
		cr_expect_eq(index_of(dst, 16 + p), 2 * p, "pair %u", 16 + p);
	}
}

/* repeatTime 0 writes nothing. */
Test(cpusim_sort, sort32_zero_repeats_is_a_nop)
{
	LocalTensor<half> sc = ub<half>(32), dst = ub<half>(128);
	LocalTensor<uint32_t> ix = ub<uint32_t>(32);
	Sort32(dst, sc, ix, 0);
	cr_expect_eq(dst.addr_[0].bits, 0xeeee);
}

/* A destination 32-byte aligned but not on 256 bytes: a defect (each
 * repeat's pairs must start on 256 bytes), the sort still done. */
Test(cpusim_sort, sort32_destination_off_256_bytes_is_a_defect)
{
	LocalTensor<half> sc = ub<half>(32), dst = ub<half>(256);
	LocalTensor<uint32_t> ix = ub<uint32_t>(32);
	for (uint32_t i = 0; i < 32; i++)
		sc.addr_[i] = half((float)i), ix.addr_[i] = i;
	Sort32(dst[16], sc, ix, 1);
	cr_expect_eq(rt::defects_n, 1);
	cr_expect(strstr(rt::defects_seen[0].text, "256") != nullptr, "%s", rt::defects_seen[0].text);
	cr_expect_eq(score_h(dst[16], 0), 31.0f);
}

Test(cpusim_sort, sort32_repeat_256_trips, .exit_code = 3)
{
	LocalTensor<half> sc = ub<half>(32), dst = ub<half>(128);
	LocalTensor<uint32_t> ix = ub<uint32_t>(32);
	Sort32(dst, sc, ix, 256);
}

/* Four lists of lengths 3, 2, 3, 1: 9 5 1 | 8 5 | 7 6 3 | 2. The two 5s
 * tie: list 1's comes first. Everything after the 9 pairs is left alone. */
Test(cpusim_sort, mrgsort_four_lists_descending_ties_to_the_earlier_list)
{
	LocalTensor<half> l = ub<half>(4 * 16), dst = ub<half>(4 * 12);
	LocalTensor<half> l1 = l, l2 = l[16], l3 = l[32], l4 = l[48];
	put_h(l1, 0, 9, 10), put_h(l1, 1, 5, 11), put_h(l1, 2, 1, 12);
	put_h(l2, 0, 8, 20), put_h(l2, 1, 5, 21);
	put_h(l3, 0, 7, 30), put_h(l3, 1, 6, 31), put_h(l3, 2, 3, 32);
	put_h(l4, 0, 2, 40);
	MrgSortSrcList<half> src(l1, l2, l3, l4);
	const uint16_t len[4] = {3, 2, 3, 1};
	MrgSort(dst, src, MrgSort4Info(len, false, 15, 1));
	const float s[9] = {9, 8, 7, 6, 5, 5, 3, 2, 1};
	const uint32_t x[9] = {10, 20, 30, 31, 11, 21, 32, 40, 12};
	for (uint32_t p = 0; p < 9; p++) {
		cr_expect_eq(score_h(dst, p), s[p], "pair %u", p);
		cr_expect_eq(index_of(dst, p), x[p], "pair %u", p);
	}
	cr_expect_eq(dst.addr_[36].bits, 0xeeee);
	uint16_t a, b, c, d;
	GetMrgSortResult(a, b, c, d);
	cr_expect(a == 3 && b == 2 && c == 3 && d == 1, "%u %u %u %u", a, b, c, d);
}

/* Exhausted suspension with two lists, 9 1 and 8 7 6: 9, 8, 7, 6 are taken,
 * list 2 is then empty and the merge stops with list 1's 1 not written;
 * GetMrgSortResult and the high-level sortedNum say 1 and 3. */
Test(cpusim_sort, mrgsort_exhausted_suspension_stops_at_the_first_empty_list)
{
	LocalTensor<half> a = ub<half>(8), b = ub<half>(12), dst = ub<half>(20);
	put_h(a, 0, 9, 0), put_h(a, 1, 1, 1);
	put_h(b, 0, 8, 2), put_h(b, 1, 7, 3), put_h(b, 2, 6, 4);
	MrgSortSrcList<half> src(a, b, LocalTensor<half>(), LocalTensor<half>());
	const uint16_t len[4] = {2, 3, 0, 0};
	uint32_t sorted[4] = {99, 99, 99, 99};
	MrgSort<half, true>(dst, src, len, sorted, 3, 1);
	const float s[4] = {9, 8, 7, 6};
	for (uint32_t p = 0; p < 4; p++)
		cr_expect_eq(score_h(dst, p), s[p], "pair %u", p);
	cr_expect_eq(dst.addr_[16].bits, 0xeeee, "the fifth pair is not written");
	cr_expect(sorted[0] == 1 && sorted[1] == 3 && sorted[2] == 0 && sorted[3] == 0, "%u %u %u %u", sorted[0],
		  sorted[1], sorted[2], sorted[3]);
	uint16_t r1, r2, r3, r4;
	GetMrgSortResult(r1, r2, r3, r4);
	cr_expect(r1 == 1 && r2 == 3 && r3 == 0 && r4 == 0);
}

/* repeatTimes 2: eight back-to-back lists of 2 pairs, each four merged on
 * its own: 4 3 | 8 1 | 6 5 | 7 2 gives 8 7 6 5 4 3 2 1, and the second
 * four (the same scores + 10) gives 18 .. 11 in the next 8 pairs. */
Test(cpusim_sort, mrgsort_repeats_merge_each_four_lists)
{
	LocalTensor<float> l = ub<float>(2 * 16), dst = ub<float>(2 * 16);
	const float v[8] = {4, 3, 8, 1, 6, 5, 7, 2};
	for (uint32_t r = 0; r < 2; r++)
		for (uint32_t i = 0; i < 8; i++) {
			l.addr_[2 * (8 * r + i)] = v[i] + 10.0f * (float)r;
			const uint32_t idx = 8 * r + i;
			memcpy(&l.addr_[2 * (8 * r + i) + 1], &idx, 4);
		}
	MrgSortSrcList<float> src(l, l[4], l[8], l[12]);
	const uint16_t len[4] = {2, 2, 2, 2};
	MrgSort(dst, src, MrgSort4Info(len, false, 15, 2));
	for (uint32_t p = 0; p < 8; p++) {
		cr_expect_eq(score_f(dst, p), (float)(8 - p), "repeat 0 pair %u", p);
		cr_expect_eq(score_f(dst, 8 + p), (float)(18 - p), "repeat 1 pair %u", p);
	}
	/* score 8 came from position 2, score 1 from position 3 */
	cr_expect_eq(index_of(dst, 0), 2u);
	cr_expect_eq(index_of(dst, 7), 3u);
	cr_expect_eq(index_of(dst, 8), 10u);
}

Test(cpusim_sort, mrgsort_repeats_on_lists_apart_trip, .exit_code = 3)
{
	LocalTensor<float> l = ub<float>(64), dst = ub<float>(64);
	MrgSortSrcList<float> src(l, l[8], l[16], l[24]); /* 4 pairs apart, lists of 2 */
	const uint16_t len[4] = {2, 2, 2, 2};
	MrgSort(dst, src, MrgSort4Info(len, false, 15, 2));
}

Test(cpusim_sort, mrgsort_valid_bit_5_trips, .exit_code = 3)
{
	LocalTensor<float> l = ub<float>(64), dst = ub<float>(64);
	MrgSortSrcList<float> src(l, l[8], l[16], l[24]);
	const uint16_t len[4] = {2, 2, 2, 2};
	MrgSort(dst, src, MrgSort4Info(len, false, 5, 1));
}

Test(cpusim_sort, mrgsort_list_overlapping_destination_trips, .exit_code = 3)
{
	LocalTensor<float> l = ub<float>(64);
	MrgSortSrcList<float> src(l, l[8], l[16], l[24]);
	const uint16_t len[4] = {2, 2, 2, 2};
	MrgSort(l[16], src, MrgSort4Info(len, false, 15, 1));
}

/* Pairs count 4 halves or 2 floats. */
Test(cpusim_sort, sort_offset_and_length_count_elements_of_t)
{
	cr_expect_eq(GetSortOffset<half>(32), 128u);
	cr_expect_eq(GetSortOffset<float>(32), 64u);
	cr_expect_eq(GetSortLen<half>(128), 512u);
	cr_expect_eq(GetSortLen<float>(3), 6u);
}

/* CANN's Sort example: 128 halves 31..0, 63..32, 95..64, 127..96 with
 * indices equal to the values; Concat, a full Sort of 4 repeats and
 * Extract give 127..0 for both. Extract of half takes indices from twice
 * the pairs (8 GatherMask repeats for 4), so dstIndex and sorted hold 256. */
Test(cpusim_sort, full_sort_and_extract_cann_example)
{
	LocalTensor<half> val = ub<half>(128), tmpc = ub<half>(128), sorted = ub<half>(1024), tmp = ub<half>(512);
	LocalTensor<half> outv = ub<half>(128);
	LocalTensor<uint32_t> ix = ub<uint32_t>(128), outi = ub<uint32_t>(256);
	for (uint32_t g = 0; g < 4; g++)
		for (uint32_t i = 0; i < 32; i++) {
			val.addr_[32 * g + i] = half((float)(32 * g + 31 - i));
			ix.addr_[32 * g + i] = 32 * g + 31 - i;
		}
	LocalTensor<half> concat;
	Concat(concat, val, tmpc, 8);
	cr_expect_eq(concat.addr_, val.addr_, "Concat hands back its source");
	Sort<half, true>(sorted, concat, ix, tmp, 4);
	Extract(outv, outi, sorted, 4);
	for (uint32_t p = 0; p < 128; p++) {
		cr_expect_eq((float)outv.addr_[p], (float)(127 - p), "value %u", p);
		cr_expect_eq(outi.addr_[p], 127 - p, "index %u", p);
	}
	for (uint32_t p = 0; p < 128; p++)
		cr_expect_eq(score_h(tmp, p), (float)(127 - p), "tmp ends holding the result, pair %u", p);
}

/* Without isFullSort each group of 32 is sorted alone; CANN's MrgSort
 * example then merges the four groups (GetSortOffset(32) apart) into
 * 127..0. */
Test(cpusim_sort, groups_then_high_level_merge_cann_example)
{
	LocalTensor<half> val = ub<half>(128), sorted = ub<half>(512), merged = ub<half>(1024), tmp;
	LocalTensor<half> outv = ub<half>(128);
	LocalTensor<uint32_t> ix = ub<uint32_t>(128), outi = ub<uint32_t>(256);
	for (uint32_t g = 0; g < 4; g++)
		for (uint32_t i = 0; i < 32; i++) {
			val.addr_[32 * g + i] = half((float)(32 * g + 31 - i));
			ix.addr_[32 * g + i] = 32 * g + 31 - i;
		}
	Sort<half, false>(sorted, val, ix, tmp, 4);
	cr_expect_eq(score_h(sorted, 32), 63.0f, "group 1 stays apart");
	const uint32_t off = GetSortOffset<half>(32);
	MrgSortSrcList<half> src(sorted, sorted[off], sorted[2 * off], sorted[3 * off]);
	const uint16_t len[4] = {32, 32, 32, 32};
	uint32_t sortedNum[4];
	MrgSort<half>(merged, src, len, sortedNum, 0b1111, 1);
	Extract(outv, outi, merged, 4);
	for (uint32_t p = 0; p < 128; p++) {
		cr_expect_eq((float)outv.addr_[p], (float)(127 - p), "value %u", p);
		cr_expect_eq(outi.addr_[p], 127 - p, "index %u", p);
	}
}

/* Float Extract: 32 values and 32 indices a repeat. */
Test(cpusim_sort, extract_float_one_repeat)
{
	LocalTensor<float> sorted = ub<float>(64), outv = ub<float>(32);
	LocalTensor<uint32_t> outi = ub<uint32_t>(40);
	for (uint32_t p = 0; p < 32; p++) {
		sorted.addr_[2 * p] = 0.25f * (float)p;
		const uint32_t idx = 3 * p;
		memcpy(&sorted.addr_[2 * p + 1], &idx, 4);
	}
	Extract(outv, outi, sorted, 1);
	for (uint32_t p = 0; p < 32; p++) {
		cr_expect_eq(outv.addr_[p], 0.25f * (float)p);
		cr_expect_eq(outi.addr_[p], 3 * p);
	}
	cr_expect_eq(outi.addr_[32], 0xeeeeeeeeu, "float extracts 32 indices, not 64");
}

/* Half Extract writes 64 indices a repeat: a 32-entry index tensor is short. */
Test(cpusim_sort, extract_half_index_tensor_short_trips, .exit_code = 3)
{
	LocalTensor<half> sorted = ub<half>(256), outv = ub<half>(32);
	LocalTensor<uint32_t> outi = ub<uint32_t>(32);
	Extract(outv, outi, sorted, 1);
}

/* Signed half scores and -inf (what a kernel pads a short line with):
 * 2.5, 0, -0.5, -3, -inf in that order, the -inf last. */
Test(cpusim_sort, sort32_half_negative_scores_and_minus_infinity)
{
	LocalTensor<half> sc = ub<half>(32), dst = ub<half>(128);
	LocalTensor<uint32_t> ix = ub<uint32_t>(32);
	const float v[5] = {-3.0f, 0.0f, -__builtin_huge_valf(), 2.5f, -0.5f};
	for (uint32_t i = 0; i < 32; i++) {
		sc.addr_[i] = half(i < 5 ? v[i] : -__builtin_huge_valf());
		ix.addr_[i] = i;
	}
	Sort32(dst, sc, ix, 1);
	const float s[4] = {2.5f, 0.0f, -0.5f, -3.0f};
	const uint32_t x[4] = {3, 1, 4, 0};
	for (uint32_t p = 0; p < 4; p++) {
		cr_expect_eq(score_h(dst, p), s[p], "pair %u", p);
		cr_expect_eq(index_of(dst, p), x[p], "pair %u", p);
	}
	/* then the 28 -inf in input order: position 2, then 5..31 */
	cr_expect_eq(dst.addr_[16].bits, 0xfc00);
	cr_expect_eq(index_of(dst, 4), 2u);
	for (uint32_t p = 5; p < 32; p++)
		cr_expect_eq(index_of(dst, p), p, "pair %u", p);
}

/* Three lists (validBit 7), float: 5 2 | 4 4 | 6 -1; the 4s come from list
 * 2 in order; the fourth list's tensor is not read. */
Test(cpusim_sort, mrgsort_three_lists)
{
	LocalTensor<float> a = ub<float>(8), b = ub<float>(8), c = ub<float>(8), dst = ub<float>(16);
	const float va[2] = {5, 2}, vb[2] = {4, 4}, vc[2] = {6, -1};
	for (uint32_t i = 0; i < 2; i++) {
		a.addr_[2 * i] = va[i], b.addr_[2 * i] = vb[i], c.addr_[2 * i] = vc[i];
		const uint32_t ia = 10 + i, ib = 20 + i, ic = 30 + i;
		memcpy(&a.addr_[2 * i + 1], &ia, 4), memcpy(&b.addr_[2 * i + 1], &ib, 4), memcpy(&c.addr_[2 * i + 1], &ic, 4);
	}
	MrgSortSrcList<float> src(a, b, c, LocalTensor<float>());
	const uint16_t len[4] = {2, 2, 2, 0};
	MrgSort(dst, src, MrgSort4Info(len, false, 7, 1));
	const float s[6] = {6, 5, 4, 4, 2, -1};
	const uint32_t x[6] = {30, 10, 20, 21, 11, 31};
	for (uint32_t p = 0; p < 6; p++) {
		cr_expect_eq(score_f(dst, p), s[p], "pair %u", p);
		cr_expect_eq(index_of(dst, p), x[p], "pair %u", p);
	}
}

/* The full sort is stable across groups: 64 scores, all 1.0 but for a 2.0
 * at position 40 and a 0.5 at position 3; the 1.0s keep their order. */
Test(cpusim_sort, full_sort_keeps_equal_scores_in_input_order_across_groups)
{
	LocalTensor<float> sc = ub<float>(64), dst = ub<float>(128), tmp = ub<float>(128);
	LocalTensor<uint32_t> ix = ub<uint32_t>(64);
	for (uint32_t i = 0; i < 64; i++)
		sc.addr_[i] = 1.0f, ix.addr_[i] = i;
	sc.addr_[40] = 2.0f;
	sc.addr_[3] = 0.5f;
	Sort<float, true>(dst, sc, ix, tmp, 2);
	cr_expect_eq(index_of(dst, 0), 40u);
	uint32_t p = 1;
	for (uint32_t i = 0; i < 64; i++)
		if (i != 40 && i != 3) {
			cr_expect_eq(index_of(dst, p), i, "pair %u", p);
			p++;
		}
	cr_expect_eq(index_of(dst, 63), 3u);
	cr_expect_eq(score_f(dst, 63), 0.5f);
}
