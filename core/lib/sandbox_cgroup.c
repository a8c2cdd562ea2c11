/* sandbox_cgroup.c - a pids and a memory cgroup per sandboxed run.
 *
 * RLIMIT_NPROC counts processes per user (and nobody's are shared by every
 * run), so the process limit is a pids cgroup; the memory limit is a memory
 * cgroup, so that a memory bomb is killed by the OOM killer of its own
 * cgroup and reported as a limit rather than as whatever a failed malloc
 * makes of it. Each run gets cgroups of its own, created with mkdir (which
 * fails on an existing folder, so a name is never shared): a folder of the
 * same name left by a killed run is removed, or, when it still has tasks,
 * another name is taken. When a hierarchy is there but no cgroup can be
 * made, the run fails rather than going on without its limits.
 *
 * Where: NPUKB_SANDBOX_CGROUP unset = our own cgroup in each v1 hierarchy
 * (pids, memory) or in the v2 one when it delegates those controllers to
 * children; "0" = no cgroups (limits then rest on rlimits and the wall
 * clock); an absolute path = create per-run cgroups under it (v2). */

#include "sandbox_private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>

static int has_token(const char *list, const char *word, const char *seps)
{
	size_t n = strlen(word);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, seps);

		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p += len;
		p += strspn(p, seps);
	}
	return 0;
}

/* Our cgroup path in the v1 hierarchy of controller (v1) and in the
 * unified hierarchy (v2), empty when absent. */
static void own_cgroups(const char *controller, char *v1, char *v2, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *line = NULL;
	size_t cap = 0;

	v1[0] = v2[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (has_token(c1 + 1, controller, ","))
			snprintf(v1, len, "%s", c2 + 1);
		else if (strcmp(line, "0") == 0 && c1[1] == '\0')
			snprintf(v2, len, "%s", c2 + 1);
	}
	free(line);
	fclose(f);
}

/* Mount point and mount root of controller's v1 hierarchy or of v2. */
static int find_mount(const char *controller, int v2, char *point, char *root, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - ");
		char *save = NULL;
		char *tok, *fstype, *opts;
		char *mroot = NULL, *mpoint = NULL;

		if (!sep)
			continue;
		*sep = '\0';
		tok = strtok_r(line, " ", &save);
		for (int i = 0; tok && i < 5; i++, tok = strtok_r(NULL, " ", &save)) {
			if (i == 3)
				mroot = tok;
			if (i == 4)
				mpoint = tok;
		}
		save = NULL;
		fstype = strtok_r(sep + 3, " ", &save);
		(void)strtok_r(NULL, " ", &save);
		opts = strtok_r(NULL, " \n", &save);
		if (!mroot || !mpoint || !fstype)
			continue;
		if (v2 ? strcmp(fstype, "cgroup2") == 0
		       : (strcmp(fstype, "cgroup") == 0 && opts && has_token(opts, controller, ","))) {
			snprintf(point, len, "%s", mpoint);
			snprintf(root, len, "%s", mroot);
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}

static int join_cgroup_path(const char *point, const char *root, const char *path,
			    char *out, size_t len)
{
	size_t rl = strlen(root);

	if (strcmp(root, "/") != 0 && strncmp(path, root, rl) == 0 &&
	    (path[rl] == '/' || path[rl] == '\0'))
		path += rl;
	if (strcmp(path, "/") == 0)
		path = "";
	return (size_t)snprintf(out, len, "%s%s", point, path) < len ? 0 : -1;
}

static int file_has_token(const char *path, const char *word)
{
	char buf[512];
	FILE *f = fopen(path, "re");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(buf, sizeof buf, f))
		found = has_token(buf, word, " \n");
	fclose(f);
	return found;
}

/* Folder under which per-run cgroups of controller can be made: 1 on v1,
 * 2 on v2, 0 none. */
static int cgroup_base(const char *controller, char *out, size_t len)
{
	const char *env = getenv("NPUKB_SANDBOX_CGROUP");
	char v1[PATH_MAX], v2[PATH_MAX], point[PATH_MAX], root[PATH_MAX];
	char probe[PATH_MAX + 32];

	if (env && *env) {
		if (env[0] != '/')
			return 0;
		return (size_t)snprintf(out, len, "%s", env) < len ? 2 : 0;
	}
	own_cgroups(controller, v1, v2, sizeof v1);
	if (v1[0] && find_mount(controller, 0, point, root, sizeof point) &&
	    join_cgroup_path(point, root, v1, out, len) == 0) {
		snprintf(probe, sizeof probe, "%s/cgroup.procs", out);
		if (access(probe, W_OK) == 0)
			return 1;
	}
	if (v2[0] && find_mount(controller, 1, point, root, sizeof point) &&
	    join_cgroup_path(point, root, v2, out, len) == 0) {
		/* Only a delegated subtree with the controller on for children. */
		snprintf(probe, sizeof probe, "%s/cgroup.subtree_control", out);
		if (file_has_token(probe, controller))
			return 2;
	}
	return 0;
}

static int write_setting(const char *dir, const char *name, unsigned long long v)
{
	char file[PATH_MAX + 64], num[32];

	snprintf(file, sizeof file, "%s/%s", dir, name);
	snprintf(num, sizeof num, "%llu", v);
	return sbx_write_file_str(file, num);
}

/* mkdir a fresh cgroup under base; a stale empty one of the same name is
 * removed, a busy one makes us pick another name. malloc'd path or NULL. */
static char *make_unique(const char *base)
{
	static atomic_uint counter;
	size_t dlen = strlen(base) + 96;

	for (int attempt = 0; attempt < 8; attempt++) {
		unsigned id = atomic_fetch_add(&counter, 1);
		unsigned salt = 0;
		char *dir = malloc(dlen);

		if (!dir)
			return NULL;
		if (getrandom(&salt, sizeof salt, GRND_NONBLOCK) != sizeof salt)
			salt = (unsigned)time(NULL) ^ id;
		snprintf(dir, dlen, "%s/npukb-%ld-%u-%08x", base, (long)getpid(), id, salt);
		if (mkdir(dir, 0755) == 0)
			return dir;
		if (errno == EEXIST && rmdir(dir) == 0 && mkdir(dir, 0755) == 0)
			return dir;
		free(dir);
		if (errno != EEXIST && errno != EBUSY)
			return NULL;
	}
	errno = EEXIST;
	return NULL;
}

static int open_one(struct cgroup_run *cg, int slot, const char *base, int v2,
		    int max_processes, uint64_t memory_bytes)
{
	char file[PATH_MAX + 64];
	int rc = 0;

	cg->dir[slot] = make_unique(base);
	if (!cg->dir[slot])
		return -errno;
	if (max_processes > 0 && (slot == 0 || v2))
		rc |= write_setting(cg->dir[slot], "pids.max", (unsigned long long)max_processes);
	if (memory_bytes > 0 && (slot == 1 || v2)) {
		if (v2) {
			rc |= write_setting(cg->dir[slot], "memory.max", memory_bytes);
			(void)write_setting(cg->dir[slot], "memory.swap.max", 0);
		} else {
			rc |= write_setting(cg->dir[slot], "memory.limit_in_bytes", memory_bytes);
			/* memsw exists only with swap accounting; without it the
			 * limit above already bounds a machine without swap. */
			(void)write_setting(cg->dir[slot], "memory.memsw.limit_in_bytes", memory_bytes);
		}
	}
	if (rc)
		return -EIO;
	snprintf(file, sizeof file, "%s/cgroup.procs", cg->dir[slot]);
	cg->procs_fd[slot] = open(file, O_WRONLY | O_CLOEXEC);
	return cg->procs_fd[slot] < 0 ? -errno : 0;
}

int sbx_cg_open(struct cgroup_run *cg, int max_processes, uint64_t memory_bytes,
		char *err, size_t errlen)
{
	static const char *const ctl[2] = { "pids", "memory" };
	const int want[2] = { max_processes > 0, memory_bytes > 0 };
	char base[PATH_MAX];

	memset(cg, 0, sizeof *cg);
	cg->procs_fd[0] = cg->procs_fd[1] = -1;
	for (int i = 0; i < 2; i++) {
		int kind, rc;

		if (!want[i])
			continue;
		kind = cgroup_base(ctl[i], base, sizeof base);
		if (kind == 0)
			continue;
		if (kind == 2) {
			/* One folder holds both controllers on v2. */
			if (cg->dir[0] || cg->dir[1])
				continue;
			cg->v2 = 1;
		}
		rc = open_one(cg, i, base, kind == 2, max_processes, memory_bytes);
		if (rc < 0) {
			if (err && errlen)
				snprintf(err, errlen, "sandbox: cannot create the run's %s cgroup under %s: %s",
					 kind == 2 ? "" : ctl[i], base, strerror(-rc));
			sbx_cg_close(cg);
			return rc;
		}
	}
	return 0;
}

/* Value of "key N" in a flat-keyed cgroup file; 0 when absent. */
static unsigned long long keyed(const char *dir, const char *name, const char *key)
{
	char file[PATH_MAX + 64], line[256];
	unsigned long long v = 0;
	size_t kl = strlen(key);
	FILE *f;

	snprintf(file, sizeof file, "%s/%s", dir, name);
	f = fopen(file, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, kl) == 0 && line[kl] == ' ')
			v = strtoull(line + kl + 1, NULL, 10);
	fclose(f);
	return v;
}

int sbx_cg_hits(const struct cgroup_run *cg)
{
	int hits = 0;
	const char *mem = cg->v2 ? cg->dir[0] ? cg->dir[0] : cg->dir[1] : cg->dir[1];
	const char *pids = cg->v2 ? mem : cg->dir[0];

	if (mem && (keyed(mem, cg->v2 ? "memory.events" : "memory.oom_control", "oom_kill") > 0))
		hits |= NPUKB_LIMIT_MEMORY;
	if (pids && keyed(pids, "pids.events", "max") > 0)
		hits |= NPUKB_LIMIT_PROCESSES;
	return hits;
}

void sbx_cg_close(struct cgroup_run *cg)
{
	for (int i = 0; i < 2; i++) {
		if (cg->procs_fd[i] >= 0)
			close(cg->procs_fd[i]);
		if (cg->dir[i]) {
			/* Everything in it has been reaped by S, but the kernel
			 * may release the last task's membership a moment later. */
			for (int k = 0; k < 100 && rmdir(cg->dir[i]) < 0 && errno == EBUSY; k++)
				sbx_sleep_ms(2);
			free(cg->dir[i]);
		}
		cg->dir[i] = NULL;
		cg->procs_fd[i] = -1;
	}
}
