/* test_defects.c - a verdict's defects (contracts a kernel broke with no
 * effect on the device's output): listed once each in the order found,
 * copied with the verdict, and under --strict turned into a failure of the
 * first one's category, never changing a verdict that already failed. */
#include <criterion/criterion.h>

#include <npukb/verdict.h>

#include <string.h>

Test(defects, listed_once_each_in_order)
{
	struct npukb_verdict v, c;

	npukb_verdict_init(&v, NPUKB_STAGE_CORRECTNESS);
	npukb_verdict_add_defects(&v, NULL);
	npukb_verdict_add_defects(&v, "");
	cr_assert_null(v.defects);
	npukb_verdict_add_defects(&v, "ub-overflow: InitBuffer at a.cpp:3\nqueue-misuse: freed at a.cpp:9");
	/* a second seed reports the same places, and one more */
	npukb_verdict_add_defects(&v, "queue-misuse: freed at a.cpp:9\n\nsync-race: same values at a.cpp:12\n");
	cr_assert_str_eq(v.defects, "ub-overflow: InitBuffer at a.cpp:3\nqueue-misuse: freed at a.cpp:9\n"
				    "sync-race: same values at a.cpp:12\n");
	/* a line that only starts like a listed one is another defect */
	npukb_verdict_add_defects(&v, "ub-overflow: InitBuffer at a.cpp:30");
	cr_assert_not_null(strstr(v.defects, "\nub-overflow: InitBuffer at a.cpp:30\n"), "%s", v.defects);
	cr_assert_eq(npukb_verdict_copy(&c, &v), 0);
	cr_assert_str_eq(c.defects, v.defects);
	cr_assert_neq(c.defects, v.defects, "the copy owns its text");
	npukb_verdict_clear(&c);
	npukb_verdict_clear(&v);
	cr_assert_null(v.defects);
}

Test(defects, strict_fails_a_pass_on_the_first_defect)
{
	struct npukb_verdict v;

	npukb_verdict_init(&v, NPUKB_STAGE_CORRECTNESS);
	npukb_verdict_pass(&v);
	cr_assert_eq(npukb_verdict_strict(&v), 0, "no defect: nothing to fail");
	cr_assert_eq(v.outcome, NPUKB_PASS);

	npukb_verdict_add_defects(&v, "queue-misuse: freed at a.cpp:9\nub-overflow: InitBuffer at a.cpp:3\n");
	cr_assert_eq(npukb_verdict_strict(&v), 1);
	cr_assert_eq(v.outcome, NPUKB_FAIL);
	cr_assert_str_eq(v.category, "queue-misuse");
	cr_assert_str_eq(v.message, "defect (--strict): queue-misuse: freed at a.cpp:9");
	cr_assert_not_null(v.defects, "the defects stay listed");
	npukb_verdict_clear(&v);

	/* a failure keeps its own category: the numbers came first */
	npukb_verdict_init(&v, NPUKB_STAGE_CORRECTNESS);
	npukb_verdict_fail(&v, "mismatch", "z differs");
	npukb_verdict_add_defects(&v, "sync-race: same values at a.cpp:12\n");
	cr_assert_eq(npukb_verdict_strict(&v), 0);
	cr_assert_str_eq(v.category, "mismatch");
	cr_assert_str_eq(v.message, "z differs");
	npukb_verdict_clear(&v);
}
