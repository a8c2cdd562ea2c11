/* test_shard.c - `--shard I/N`: strict parsing, and a split that puts
 * every unit in exactly one shard, round-robin in the run's order. */
#include <criterion/criterion.h>

#include "shard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char err[256];

Test(shard, parses_i_of_n)
{
	struct npukb_shard s = { 9, 9 };
	cr_assert_eq(npukb_shard_parse("0/1", &s, err, sizeof err), 0, "%s", err);
	cr_assert_eq(s.index, 0);
	cr_assert_eq(s.count, 1);
	cr_assert_eq(npukb_shard_parse("3/4", &s, err, sizeof err), 0, "%s", err);
	cr_assert_eq(s.index, 3);
	cr_assert_eq(s.count, 4);
	cr_assert_eq(npukb_shard_parse("999999/1000000", &s, err, sizeof err), 0, "%s", err);
	cr_assert_eq(s.index, 999999);
	cr_assert_eq(s.count, 1000000);
}

Test(shard, refuses_anything_else_and_says_why)
{
	static const char *const bad[] = {
		"", "4", "/4", "1/", "1/4/", "4/4", "5/4", "0/0", "1/0", "-1/4", "+1/4", " 1/4",
		"1/4 ", "1 /4", "0x1/4", "1/0x4", "1.0/4", "a/b", "0/1000001", "0/99999999",
		"99999999/1", "1//4",
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct npukb_shard s = { 7, 8 };
		err[0] = '\0';
		cr_assert_eq(npukb_shard_parse(bad[i], &s, err, sizeof err), -EINVAL,
			     "'%s' was taken", bad[i]);
		cr_assert_neq(err[0], '\0', "'%s': no reason given", bad[i]);
		cr_assert(strstr(err, bad[i]) != NULL, "'%s': the message does not quote it: %s",
			  bad[i], err);
		/* a refused value leaves the shard as it was */
		cr_assert_eq(s.index, 7);
		cr_assert_eq(s.count, 8);
	}
	npukb_shard_parse("4/4", &(struct npukb_shard){ 0, 0 }, err, sizeof err);
	cr_assert(strstr(err, "below N=4"), "%s", err);
	npukb_shard_parse("0/0", &(struct npukb_shard){ 0, 0 }, err, sizeof err);
	cr_assert(strstr(err, "1 to"), "%s", err);
}

Test(shard, every_unit_is_in_exactly_one_shard)
{
	static const unsigned counts[] = { 1, 2, 3, 4, 7, 16, 100 };
	const size_t units = 1000;
	size_t c, k;
	for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		unsigned n = counts[c], i;
		size_t *per = calloc(n, sizeof(*per));
		cr_assert_not_null(per);
		for (k = 0; k < units; k++) {
			unsigned owners = 0, owner = 0;
			for (i = 0; i < n; i++) {
				struct npukb_shard s = { i, n };
				if (npukb_shard_owns(&s, k)) {
					owners++;
					owner = i;
				}
			}
			cr_assert_eq(owners, 1, "N=%u: unit %zu has %u shards", n, k, owners);
			/* round-robin: merge relies on shard I's j-th unit being j*N+I */
			cr_assert_eq(owner, k % n, "N=%u: unit %zu is shard %u's", n, k, owner);
			per[owner]++;
		}
		/* balanced: sizes differ by at most one */
		for (i = 0; i < n; i++)
			cr_assert(per[i] == units / n || per[i] == units / n + 1,
				  "N=%u: shard %u has %zu units", n, i, per[i]);
		free(per);
	}
}

Test(shard, no_shard_owns_every_unit)
{
	struct npukb_shard whole = { 0, 0 };
	size_t k;
	for (k = 0; k < 100; k++)
		cr_assert(npukb_shard_owns(&whole, k));
}
