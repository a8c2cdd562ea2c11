/* test_unwritten.c - the unwritten-output check of the correctness stage
 * scans large outputs across the data path's threads and says what one
 * thread says: the count, the first index and the indices listed (issue
 * 16). It includes correctness.c to reach the static check. */
#include <criterion/criterion.h>

#include "../../plugins/correctness/correctness.c"

#include "data_threads.h"

static void verdict_with_threads(unsigned threads, const struct npukb_case_tensor *t,
				 struct npukb_verdict *v)
{
	npukb_set_data_threads(threads);
	npukb_verdict_init(v, NPUKB_STAGE_CORRECTNESS);
	cr_assert_eq(check_unwritten(t, v, 2), 1);
	npukb_set_data_threads(0);
}

Test(unwritten, threads_give_the_one_thread_verdict)
{
	const size_t n = 5u << 20;
	/* unwritten: one near the start, the rest spread over the later parts */
	const size_t holes[] = { 7, n / 4 + 3, n / 2, n / 2 + 1, 3 * n / 4, n - 1 };
	float *out = malloc(n * sizeof(float)), *ref = calloc(n, sizeof(float));
	struct npukb_case_tensor t;
	struct npukb_verdict one, many;
	size_t i, h = 0;

	cr_assert(out && ref);
	npukb_poison_fill(NPUKB_DT_FLOAT32, out, n);
	for (i = 0; i < n; i++) {
		if (h < sizeof(holes) / sizeof(holes[0]) && i == holes[h]) {
			h++;
			continue;
		}
		out[i] = (float)i;
	}
	memset(&t, 0, sizeof(t));
	t.name = (char *)"y";
	t.is_output = 1;
	t.dtype = NPUKB_DT_FLOAT32;
	t.numel = n;
	t.bytes = n * sizeof(float);
	t.data = out;
	t.expected = ref;

	verdict_with_threads(1, &t, &one);
	verdict_with_threads(4, &t, &many);
	cr_assert_eq(one.bad_count, 6);
	cr_assert_eq(one.first_bad_index, 7);
	cr_assert_str_eq(one.category, "unwritten-output");
	cr_assert_str_eq(one.message, many.message);
	cr_assert_str_eq(one.details, many.details);
	cr_assert_eq(many.bad_count, one.bad_count);
	cr_assert(strstr(one.details, "7, 1310723, 2621440, 2621441, 3932160, 5242879"), "%s",
		  one.details);
	npukb_verdict_clear(&one);
	npukb_verdict_clear(&many);
	free(out);
	free(ref);
}

Test(unwritten, written_output_passes)
{
	float out[64], ref[64];
	struct npukb_case_tensor t;
	struct npukb_verdict v;
	memset(out, 0, sizeof(out));
	memset(ref, 0, sizeof(ref));
	memset(&t, 0, sizeof(t));
	t.name = (char *)"y";
	t.is_output = 1;
	t.dtype = NPUKB_DT_FLOAT32;
	t.numel = 64;
	t.data = out;
	t.expected = ref;
	npukb_verdict_init(&v, NPUKB_STAGE_CORRECTNESS);
	cr_assert_eq(check_unwritten(&t, &v, 0), 0);
	npukb_verdict_clear(&v);
}
