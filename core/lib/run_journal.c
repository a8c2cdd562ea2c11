/* run_journal.c - a run's journal opened for judging: fresh, or resumed
 * (run_journal.h). */
#include "config.h"
#include "run_journal.h"

#include "fsutil.h"

#include <npukb/util.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh run appends to what the folder's journal holds; a line a killed
 * run left unterminated would glue onto its first record: cut it. */
static int drop_torn_tail(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	off_t end, at;
	char c = '\n';
	int rc = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	end = lseek(fd, 0, SEEK_END);
	for (at = end; at > 0; at--) {
		if (pread(fd, &c, 1, at - 1) != 1) {
			rc = -EIO;
			break;
		}
		if (c == '\n')
			break;
	}
	if (rc == 0 && at != end && ftruncate(fd, at) != 0)
		rc = -errno;
	if (rc)
		snprintf(err, errlen, "%s: cannot cut a torn last line: %s", path, strerror(-rc));
	close(fd);
	return rc;
}

/* --resume: the journal's run must be the one this invocation would
 * start: same npukb, backend, seeds and SoC. NULL when it is, else why
 * not (in why). */
/* The journal's "shard" field (NULL: a whole run) names cfg's shard. */
static int shard_matches(const struct npukb_run_config *cfg, const char *shard)
{
	char want[64];
	if (!cfg->shard.count)
		return shard == NULL;
	snprintf(want, sizeof(want), "%u/%u", cfg->shard.index, cfg->shard.count);
	return shard && strcmp(shard, want) == 0;
}

static const char *resume_mismatch(const struct npukb_run_config *cfg,
				   const struct npukb_journal_resume *res, char *why, size_t len)
{
	if (!res->has_units)
		snprintf(why, len, "its run was written by an npukb without unit records");
	else if (!res->npukb || strcmp(res->npukb, PACKAGE_VERSION) != 0)
		snprintf(why, len, "its run was judged by npukb %s, this is npukb %s",
			 res->npukb ? res->npukb : "(unknown)", PACKAGE_VERSION);
	else if (!res->backend || strcmp(res->backend, cfg->backend) != 0)
		snprintf(why, len, "its run used --backend %s, this one --backend %s",
			 res->backend ? res->backend : "(unknown)", cfg->backend);
	else if (!res->soc || strcmp(res->soc, cfg->options.soc) != 0)
		snprintf(why, len, "its run used --soc %s, this one --soc %s",
			 res->soc ? res->soc : "(unknown)", cfg->options.soc);
	else if (!res->has_seeds || res->nseeds != (double)cfg->options.nseeds)
		snprintf(why, len, "its run used --seeds %.0f, this one --seeds %u", res->nseeds,
			 cfg->options.nseeds);
	else if (res->base_seed != (double)cfg->options.base_seed)
		snprintf(why, len, "its run used --seed %.0f, this one --seed %llu", res->base_seed,
			 (unsigned long long)cfg->options.base_seed);
	else if (res->strict != (cfg->options.strict != 0))
		snprintf(why, len, "its run was %s--strict, this one %s", res->strict ? "" : "not ",
			 cfg->options.strict ? "is" : "is not");
	else if (!shard_matches(cfg, res->shard))
		snprintf(why, len, "its run was shard %s, this one %s", res->shard ? res->shard : "(none)",
			 cfg->shard.count ? "another shard" : "a whole run");
	else
		return NULL;
	return why;
}

/* Opens the journal at path for this run: a fresh run appends its header;
 * --resume continues the journal's last run, cut back to its whole units
 * (res lists them), and appends no header. A --resume with no run to
 * continue starts a fresh one. */
int npukb_run_open_journal(struct npukb_journal *j, const struct npukb_run_config *cfg,
			   const char *path, const char *new_id,
			   struct npukb_journal_header *head, struct npukb_journal_resume *res,
			   char *err, size_t errlen)
{
	int rc;

	memset(res, 0, sizeof(*res));
	if (cfg->resume && npukb_is_file(path)) {
		char why[512];
		if ((rc = npukb_journal_resume_scan(path, res, err, errlen)) != 0)
			return rc == -EINVAL ? NPUKB_RUN_EBADINPUT : rc;
		if (res->has_run && resume_mismatch(cfg, res, why, sizeof(why))) {
			snprintf(err, errlen, "%s: cannot resume: %s", path, why);
			return NPUKB_RUN_EBADINPUT;
		}
		/* what follows the whole part is a unit cut short by the kill */
		if (truncate(path, res->keep) != 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: cannot cut the unfinished records: %s", path,
				 strerror(-rc));
			return rc;
		}
	} else if ((rc = drop_torn_tail(path, err, errlen)) != 0) {
		return rc;
	}
	rc = npukb_journal_open(j, path, res->has_run ? res->run_id : new_id, err,
				errlen);
	if (rc)
		return rc;
	j->level = cfg->level;
	j->label = cfg->label;
	if (res->has_run) {
		j->nverdicts = res->nverdicts;
		return 0;
	}
	head->backend = cfg->backend;
	head->soc = cfg->options.soc;
	head->nseeds = cfg->options.nseeds;
	head->base_seed = (unsigned long long)cfg->options.base_seed;
	head->strict = cfg->options.strict;
	rc = npukb_journal_write_header(j, head);
	if (rc)
		snprintf(err, errlen, "%s: cannot write the journal: %s", path, strerror(-rc));
	return rc;
}

