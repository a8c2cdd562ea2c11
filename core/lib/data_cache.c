/* data_cache.c - a case's inputs and expected outputs, shared
 * (data_cache.h). */
#include "config.h"
#include "data_cache.h"
#include "ref_plugin.h"

#include "cache_key.h"
#include "fsutil.h"

#include <npukb/util.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIND "data"

/* Set by begin, read by every (case, seed) of the run: workers may be
 * threads, so the key's run-wide part is computed once, here. */
static char *dir;
static char *private_dir; /* dir, when it is the run's own */
static int stored;
static struct npukb_sha256 base;
/* What is worth keeping (npukb_data_cache_plan): the tasks several units
 * of the run judge, sorted, and whether the others' data is kept too. */
static char **shared_ids;
static size_t nshared;
static int keep_others = 1;

int npukb_data_cache_begin(const char *cache_dir, const char *output_dir)
{
	Dl_info self;

	char why[512];

	npukb_data_cache_end();
	/* a cache a sample could see holds no reference data: the run
	 * shares through its own folder instead (unit_cache says why) */
	if (cache_dir && npukb_cache_guard(cache_dir, output_dir, why, sizeof why))
		cache_dir = NULL;
	if (cache_dir) {
		dir = strdup(cache_dir);
	} else {
		char *tmpl = NULL;
		if (npukb_mkdir_p(output_dir, 0755) != 0 ||
		    asprintf(&tmpl, "%s/.npukb-shared-XXXXXX", output_dir) < 0)
			return -ENOMEM;
		if (!mkdtemp(tmpl)) {
			int e = errno;
			free(tmpl);
			return -e;
		}
		dir = private_dir = tmpl;
	}
	if (!dir)
		return -ENOMEM;
	npukb_sha256_init(&base);
	npukb_key_str(&base, "format", "npukb case data 1");
	npukb_key_str(&base, "npukb", PACKAGE_VERSION);
	/* the generators and the references are libnpukb's code */
	if (dladdr((void *)npukb_data_cache_begin, &self) && self.dli_fname)
		npukb_key_file(&base, "lib", self.dli_fname);
	return 0;
}

void npukb_data_cache_end(void)
{
	/* workers (run_workers.h) store in their own processes: the run's
	 * process holds the cap whether or not it stored anything itself */
	if (dir && !private_dir)
		npukb_cache_evict(dir, npukb_cache_max_bytes());
	stored = 0;
	if (private_dir)
		npukb_rm_rf(private_dir);
	for (size_t i = 0; i < nshared; i++)
		free(shared_ids[i]);
	free(shared_ids);
	shared_ids = NULL;
	nshared = 0;
	keep_others = 1;
	if (dir != private_dir)
		free(dir);
	free(private_dir);
	dir = private_dir = NULL;
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int npukb_data_cache_plan(const char *const *ids, size_t n, uint64_t others_bytes)
{
	size_t i;
	for (i = 0; i < nshared; i++)
		free(shared_ids[i]);
	free(shared_ids);
	nshared = 0;
	if (!(shared_ids = calloc(n + 1, sizeof(*shared_ids))))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!(shared_ids[i] = strdup(ids[i])))
			return -ENOMEM;
		nshared++;
	}
	qsort(shared_ids, nshared, sizeof(*shared_ids), cmp_id);
	/* a run's own folder dies with the run: what no other unit of it
	 * reads is written for nothing. A lasting cache keeps it for later
	 * runs, unless the run's data is more than the cache holds: the run
	 * would push out its own first entries before a later run, going
	 * through the cases in the same order, asks for them, and every
	 * write would be lost time (half the cap leaves room for the rest
	 * of the cache) */
	keep_others = !private_dir && others_bytes <= npukb_cache_max_bytes() / 2;
	return 0;
}

static int worth_keeping(const char *task_id)
{
	return keep_others ||
	       (task_id && bsearch(&task_id, shared_ids, nshared, sizeof(*shared_ids), cmp_id));
}

static int data_key(const struct npukb_task *t, const struct npukb_case *c, uint64_t seed,
		    char key[NPUKB_SHA256_HEX_LEN + 1])
{
	struct npukb_sha256 k = base;
	char s[32];

	npukb_key_str(&k, "task", t->id);
	if (!t->manifest_path || npukb_key_file(&k, "manifest", t->manifest_path) != 0)
		return -ENOENT;
	/* a reference plugin's code is the reference: its file is in the
	 * key, and a task whose plugin cannot be found shares nothing (its
	 * run must say so, not replay what the plugin once computed) */
	if (t->reference_plugin) {
		char *plugin = NULL, why[512];
		int rc;
		if (npukb_ref_plugin_locate(t, &plugin, why, sizeof(why)) != 0)
			return -ENOENT;
		rc = npukb_key_file(&k, "reference-plugin", plugin);
		free(plugin);
		if (rc)
			return -ENOENT;
	}
	npukb_key_str(&k, "case", c->id);
	snprintf(s, sizeof s, "%016llx", (unsigned long long)seed);
	npukb_key_str(&k, "seed", s);
	npukb_sha256_final_hex(&k, key);
	return 0;
}

const struct npukb_case_tensor *npukb_data_cache_part(const struct npukb_case_data *d, size_t i,
						      int *expected)
{
	size_t k;
	/* the inputs first (in-place tensors among them), then the outputs */
	for (k = 0; k < d->ntensors; k++) {
		const struct npukb_case_tensor *ct = &d->tensors[k];
		if (ct->is_absent || (ct->is_output && !ct->is_inout))
			continue;
		if (i-- == 0) {
			*expected = 0;
			return ct;
		}
	}
	for (k = 0; k < d->ntensors; k++) {
		const struct npukb_case_tensor *ct = &d->tensors[k];
		if (ct->is_absent || !ct->is_output)
			continue;
		if (i-- == 0) {
			*expected = 1;
			return ct;
		}
	}
	return NULL;
}

int npukb_data_cache_find(const struct npukb_task *t, const struct npukb_case *c, uint64_t seed,
			  const struct npukb_case_data *d, struct npukb_cache_blob *b)
{
	char key[NPUKB_SHA256_HEX_LEN + 1];
	const struct npukb_case_tensor *ct;
	size_t i;
	int expected;

	memset(b, 0, sizeof(*b));
	if (!dir || data_key(t, c, seed, key) != 0 || npukb_cache_get(dir, KIND, key, b) != 0)
		return -ENOENT;
	/* the same manifest lays out the same tensors; check it all the same */
	for (i = 0; (ct = npukb_data_cache_part(d, i, &expected)) != NULL; i++)
		if (i >= b->nparts || b->len[i] != ct->bytes)
			break;
	if (ct || i != b->nparts) {
		npukb_cache_blob_free(b);
		return -ENOENT;
	}
	return 0;
}

void npukb_data_cache_keep(const struct npukb_task *t, const struct npukb_case *c, uint64_t seed,
			   const struct npukb_case_data *d)
{
	struct npukb_cache_part parts[NPUKB_CACHE_MAX_PARTS];
	char key[NPUKB_SHA256_HEX_LEN + 1];
	const struct npukb_case_tensor *ct;
	uint64_t total = 0, max = npukb_cache_max_bytes();
	size_t i;
	int expected;

	if (!dir || !worth_keeping(t->id) || data_key(t, c, seed, key) != 0)
		return;
	for (i = 0; (ct = npukb_data_cache_part(d, i, &expected)) != NULL; i++) {
		if (i == NPUKB_CACHE_MAX_PARTS)
			return;
		parts[i].data = expected ? ct->expected : ct->data;
		parts[i].len = ct->bytes;
		if (!parts[i].data && ct->bytes)
			return;
		total += ct->bytes;
	}
	/* an entry of more than a quarter of the cap would push out the
	 * rest for one case */
	if (total > max / 4 || npukb_cache_put(dir, KIND, key, parts, i) != 0)
		return;
	stored = 1;
	/* the run's own folder is never cleaned by a later run: keep it
	 * within the cap as it fills */
	if (private_dir)
		npukb_cache_evict(private_dir, max);
}
