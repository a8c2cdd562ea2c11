/* unit_cache.c - a unit's verdict records kept across runs (unit_cache.h). */
#include "config.h"
#include "unit_cache.h"
#include "ref_plugin.h"

#include "cache_key.h"
#include "cache_store.h"
#include "fsutil.h"

#include <npukb/sandbox.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KIND "units"

extern char **environ;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The environment a plugin or a sandboxed command reads, in name order. */
static void key_environment(struct npukb_sha256 *k)
{
	size_t n = 0, i;
	char **vars;

	for (char **e = environ; *e; e++)
		n++;
	vars = calloc(n + 1, sizeof(*vars));
	if (!vars) {
		npukb_key_str(k, "env", "(out of memory)");
		return;
	}
	n = 0;
	for (char **e = environ; *e; e++) {
		const char *v = *e;
		size_t name = strcspn(v, "=");
		/* the cache's own place and size change no verdict */
		if (strncmp(v, "NPUKB_CACHE_", 12) == 0)
			continue;
		if (strncmp(v, "NPUKB_", 6) == 0 || strncmp(v, "ASCEND_", 7) == 0 ||
		    strncmp(v, "PATH=", 5) == 0 || strncmp(v, "LD_LIBRARY_PATH=", 16) == 0 ||
		    (name >= 11 && strncmp(v + name - 11, "SAN_OPTIONS", 11) == 0))
			vars[n++] = *e;
	}
	qsort(vars, n, sizeof(*vars), cmp_str);
	for (i = 0; i < n; i++) {
		const char *value = strchr(vars[i], '=') + 1;
		npukb_key_str(k, "env", vars[i]);
		/* a variable naming a file (the classify rules): its bytes */
		if (value[0] == '/' && npukb_is_file(value))
			npukb_key_file(k, "env-file", value);
	}
	free(vars);
}

static void key_plugin(struct npukb_sha256 *k, const struct npukb_loaded_plugin *lp)
{
	npukb_key_str(k, "plugin", lp ? lp->name : NULL);
	if (!lp)
		return;
	npukb_key_str(k, "plugin-version", lp->desc ? lp->desc->version : NULL);
	npukb_key_file(k, "plugin-file", lp->path);
}

static void key_limits(struct npukb_sha256 *k, const char *tag, const struct npukb_limits *l)
{
	npukb_key_str(k, "limits", tag);
	npukb_key_num(k, "wall", l->wall_seconds);
	npukb_key_num(k, "cpu", l->cpu_seconds);
	npukb_key_num(k, "memory", (double)l->memory_bytes);
	npukb_key_num(k, "file", (double)l->file_bytes);
	npukb_key_num(k, "processes", l->max_processes);
}

/* Everything the run's units share. */
static int key_run(struct npukb_sha256 *k, const struct npukb_run_config *cfg,
		   const struct npukb_options *o, const char *identity)
{
	Dl_info self;
	char *out = realpath(cfg->output_dir, NULL), *common = NULL;
	const char *extra = getenv("NPUKB_SANDBOX_READ");
	int rc = 0;

	npukb_sha256_init(k);
	npukb_key_str(k, "format", "npukb unit records 1");
	npukb_key_str(k, "npukb", PACKAGE_VERSION);
	/* a rebuilt npukb is another npukb, whatever its version says */
	npukb_key_file(k, "exe", "/proc/self/exe");
	if (dladdr((void *)npukb_unit_cache_open, &self) && self.dli_fname)
		npukb_key_file(k, "lib", self.dli_fname);
	npukb_key_str(k, "backend", cfg->backend);
	npukb_key_str(k, "identity", identity);
	key_plugin(k, npukb_plugins_find(cfg->plugins, NPUKB_PLUGIN_BACKEND, cfg->backend));
	for (int id = NPUKB_STAGE_COMPILE; id <= NPUKB_STAGE_CLASSIFY; id++)
		key_plugin(k, npukb_plugins_find_stage(cfg->plugins, (enum npukb_stage_id)id));
	npukb_key_str(k, "soc", o->soc);
	key_limits(k, "build", &o->build_limits);
	key_limits(k, "run", &o->run_limits);
	npukb_key_num(k, "seeds", o->nseeds);
	npukb_key_num(k, "base-seed", (double)o->base_seed);
	npukb_key_num(k, "base-seed-high", (double)(o->base_seed >> 32));
	npukb_key_num(k, "verbose", o->verbose);
	npukb_key_num(k, "dump", o->dump_tensors);
	npukb_key_str(k, "dump-dir", o->dump_tensors ? o->dump_dir : NULL);
	npukb_key_num(k, "perf-warmup", o->perf_warmup);
	npukb_key_num(k, "perf-runs", o->perf_runs);
	npukb_key_num(k, "strict", o->strict);
	for (size_t i = 0; o->backend_opts && o->backend_opts[i]; i++)
		npukb_key_str(k, "backend-opt", o->backend_opts[i]);
	npukb_key_num(k, "unsafe", npukb_sandbox_unsafe());
	key_environment(k);
	/* records name files below the output folder (a build's command) */
	npukb_key_str(k, "output", out ? out : cfg->output_dir);
	free(out);
	/* what a sample can include besides its own files */
	if (cfg->levels_dir && asprintf(&common, "%s/common", cfg->levels_dir) >= 0) {
		if (npukb_is_dir(common))
			rc = npukb_key_tree(k, "common", common);
		free(common);
	}
	while (rc == 0 && extra && *extra) {
		size_t n = strcspn(extra, ":");
		char *d = strndup(extra, n);
		if (!d)
			return -ENOMEM;
		if (n && npukb_is_dir(d))
			rc = npukb_key_tree(k, "sandbox-read", d);
		free(d);
		extra += n + (extra[n] == ':');
	}
	return rc;
}

int npukb_unit_cache_open(struct npukb_unit_cache *uc, const struct npukb_run_config *cfg,
			  const struct npukb_options *options, const char *identity,
			  int reproducible, FILE *warn)
{
	char why[1024];

	memset(uc, 0, sizeof(*uc));
	if (!options->cache_dir || !*options->cache_dir || !reproducible)
		return 0;
	if (npukb_cache_guard(options->cache_dir, cfg->output_dir, why, sizeof why)) {
		if (warn)
			fprintf(warn, "npukb: no verdict cache for this run: %s\n", why);
		return 0;
	}
	if (key_run(&uc->base, cfg, options, identity) != 0)
		return 0; /* a folder too large to key: judge everything */
	uc->dir = strdup(options->cache_dir);
	return uc->dir ? 0 : -ENOMEM;
}

/* The unit's key into key; -E2BIG (and "") when it cannot have one. */
static int unit_key(const struct npukb_unit_cache *uc, const struct npukb_task *t,
		    const struct npukb_sample_entry *s, char key[NPUKB_UNIT_KEY_LEN + 1])
{
	struct npukb_sha256 k = uc->base;
	int rc;

	key[0] = '\0';
	npukb_key_str(&k, "task", t->id);
	if ((rc = npukb_key_file(&k, "manifest", t->manifest_path)) != 0)
		return rc;
	/* what the manifest names beside it: golden files, a reference
	 * plugin built in the task's folder, the answer */
	if (t->dir && (rc = npukb_key_tree(&k, "task-files", t->dir)) != 0)
		return rc;
	if (t->reference_plugin) {
		char *plugin = NULL, why[512];
		if (npukb_ref_plugin_locate(t, &plugin, why, sizeof(why)) == 0) {
			rc = npukb_key_file(&k, "reference-plugin", plugin);
			free(plugin);
			if (rc)
				return rc;
		} else {
			npukb_key_str(&k, "reference-plugin", "(not found)");
		}
	}
	npukb_key_num(&k, "cases", (double)t->ncases);
	for (size_t i = 0; i < t->ncases; i++)
		npukb_key_str(&k, "case", t->cases[i].id);
	npukb_key_str(&k, "sample", s->id);
	npukb_key_str(&k, "sample-dir", s->dir);
	npukb_key_num(&k, "answer", s->is_answer);
	npukb_key_num(&k, "mode", s->pub.mode);
	if ((rc = npukb_key_tree(&k, "sample-files", s->dir)) != 0)
		return rc;
	npukb_sha256_final_hex(&k, key);
	return 0;
}

/* The progress display's line for a failure, as the cache keeps it. */
#define FAILURE_TEXT 400

/* Part 0 of an entry: "verdicts N", for a sample that failed "failure
 * <the line naming its first failure>", then a line per case, "<outcome>
 * <flagged> <category or ->": what the progress display shows. */
static char *summary(const struct npukb_sample_result *r, const struct npukb_sample_entry *s,
		     size_t nverdicts)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ok = f != NULL;

	if (!f)
		return NULL;
	fprintf(f, "verdicts %zu\n", nverdicts);
	for (size_t i = 0; i < r->ncases; i++) {
		const char *cat, *rule;
		const struct npukb_verdict *v = npukb_case_outcome(r, i, &cat, &rule);
		char line[FAILURE_TEXT];
		if (v->outcome != NPUKB_FAIL)
			continue;
		npukb_progress_failure_line(line, sizeof line, s->id, s->dir, cat, v);
		if (strchr(line, '\n'))
			ok = 0;
		fprintf(f, "failure %s\n", line);
		break;
	}
	for (size_t i = 0; i < r->ncases; i++) {
		const char *cat, *rule;
		const struct npukb_verdict *v = npukb_case_outcome(r, i, &cat, &rule);
		if (cat && (!*cat || strpbrk(cat, " \n")))
			ok = 0;
		fprintf(f, "%d %d %s\n", (int)v->outcome,
			r->cases[i].correctness.flags && *r->cases[i].correctness.flags, cat ? cat : "-");
	}
	if (fclose(f) != 0 || !ok) {
		free(text);
		return NULL;
	}
	return text;
}

/* Tells progress of each case, from a summary; the verdict count, or -1
 * when the summary is not one of ncases cases. */
static long replay_summary(const unsigned char *p, size_t len, size_t ncases,
			   struct npukb_progress *progress, int tell)
{
	char *text = strndup((const char *)p, len), *line, *save = NULL, *end;
	long nverdicts = -1;
	size_t cases = 0;
	const char *failure = NULL;

	if (!text || strlen(text) != len)
		goto out;
	line = strtok_r(text, "\n", &save);
	if (!line || strncmp(line, "verdicts ", 9) != 0)
		goto out;
	nverdicts = strtol(line + 9, &end, 10);
	if (*end || nverdicts < 0) {
		nverdicts = -1;
		goto out;
	}
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		int outcome, flagged;
		char cat[128];
		if (strncmp(line, "failure ", 8) == 0 && !failure && cases == 0) {
			failure = line + 8;
			/* shown on a terminal: printable text only, as it was made */
			for (const char *c = failure; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					nverdicts = -1;
			if (strlen(failure) >= FAILURE_TEXT || nverdicts < 0) {
				nverdicts = -1;
				goto out;
			}
			continue;
		}
		if (sscanf(line, "%d %d %127s", &outcome, &flagged, cat) != 3 ||
		    outcome < NPUKB_PASS || outcome > NPUKB_SKIPPED) {
			nverdicts = -1;
			goto out;
		}
		cases++;
		if (!tell)
			continue;
		if (outcome == NPUKB_FAIL && failure) { /* before the unit, as run.c does */
			npukb_progress_failure_text(progress, failure);
			failure = NULL;
		}
		npukb_progress_unit(progress, (enum npukb_outcome)outcome,
				    strcmp(cat, "-") ? cat : NULL);
		if (flagged)
			npukb_progress_flagged(progress);
	}
	if (cases != ncases)
		nverdicts = -1;
out:
	free(text);
	return nverdicts;
}

int npukb_unit_cache_replay(struct npukb_unit_cache *uc, const struct npukb_task *t,
			    const struct npukb_sample_entry *s, const struct npukb_journal *j,
			    struct npukb_journal_batch *batch, struct npukb_progress *progress,
			    char key[NPUKB_UNIT_KEY_LEN + 1])
{
	struct npukb_cache_blob b;
	long n;
	int rc;

	key[0] = '\0';
	if (!uc->dir || unit_key(uc, t, s, key) != 0)
		return 0;
	if (npukb_cache_get(uc->dir, KIND, key, &b) != 0)
		return 0;
	rc = 0;
	n = b.nparts == 2 ? replay_summary(b.part[0], b.len[0], t->ncases, progress, 0) : -1;
	if (n >= 0 && npukb_journal_batch_attach(batch, j, (const char *)b.part[1], b.len[1],
						 (size_t)n) == 0) {
		replay_summary(b.part[0], b.len[0], t->ncases, progress, 1);
		uc->hits++;
		rc = 1;
	}
	npukb_cache_blob_free(&b);
	return rc;
}

/* A verdict that says more about the machine than about the sample. */
static int machine_bound(const struct npukb_verdict *v)
{
	static const char *const cats[] = { "internal-error", "timeout", "compile-timeout",
					    "resource-limit" };
	if (v->outcome == NPUKB_SKIPPED)
		return 1;
	for (size_t i = 0; v->category && i < sizeof cats / sizeof *cats; i++)
		if (strcmp(v->category, cats[i]) == 0)
			return 1;
	return 0;
}

void npukb_unit_cache_store(struct npukb_unit_cache *uc, const char *key,
			    const struct npukb_sample_entry *s, const struct npukb_sample_result *r,
			    const struct npukb_journal *j, const struct npukb_journal_batch *batch)
{
	struct npukb_cache_part parts[2];
	char *sum, *records = NULL;
	size_t len = 0;

	if (!uc->dir || !key || !key[0] || machine_bound(&r->compile) ||
	    machine_bound(&r->compile_classify))
		return;
	for (size_t i = 0; i < r->ncases; i++)
		if (machine_bound(&r->cases[i].correctness) ||
		    machine_bound(&r->cases[i].classify) ||
		    machine_bound(&r->cases[i].performance))
			return;
	sum = summary(r, s, batch->nverdicts);
	if (sum && npukb_journal_batch_detach(j, batch, &records, &len) == 0) {
		parts[0].data = sum;
		parts[0].len = strlen(sum);
		parts[1].data = records;
		parts[1].len = len;
		if (npukb_cache_put(uc->dir, KIND, key, parts, 2) == 0)
			uc->stored++;
	}
	free(records);
	free(sum);
}

void npukb_unit_cache_close(struct npukb_unit_cache *uc)
{
	/* workers store in their own copies of uc: the run's process cannot
	 * tell whether anything was stored, so it always holds the cap */
	if (uc->dir)
		npukb_cache_evict(uc->dir, npukb_cache_max_bytes());
	free(uc->dir);
	memset(uc, 0, sizeof(*uc));
}
