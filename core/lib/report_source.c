/* report_source.c - a sample's source files, line by line, into the
 * in-memory results document the run report is rendered from.
 *
 * The source is the user's own submission: the report may show it, but only
 * for a sample that failed (what a passing sample holds or prints reaches no
 * report), and it is untrusted bytes. Only regular files under the sample's folder are
 * read (no symlink is followed, neither to a file nor to a folder), hidden
 * names are skipped, and every figure is capped (files, bytes per file,
 * bytes per sample, folder depth). Bytes that are not UTF-8 show U+FFFD,
 * control characters XML cannot carry are dropped (text.h); a file with a NUL byte
 * is listed as binary with no content. libxml2 escapes the rest when the
 * page is written. */
#include "report_source.h"
#include "text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct budget {
	size_t files;   /* files still to list */
	size_t bytes;   /* bytes still to show */
	int truncated;  /* something was left out */
};

/* <line n="..."> children of file, one per line of text[0..n). */
static int add_lines(xmlNodePtr file, const unsigned char *text, size_t n)
{
	size_t start = 0, lineno = 0;
	while (start < n) {
		const unsigned char *nl = memchr(text + start, '\n', n - start);
		size_t end = nl ? (size_t)(nl - text) : n;
		char num[24], *s, *line_text;
		xmlNodePtr line;
		size_t len = end - start;
		if (len > 0 && text[start + len - 1] == '\r')
			len--;
		line_text = strndup((const char *)text + start, len);
		s = line_text ? npukb_text_clean(line_text) : NULL;
		free(line_text);
		if (!s)
			return -ENOMEM;
		line = xmlNewTextChild(file, NULL, BAD_CAST "line", NULL);
		snprintf(num, sizeof(num), "%zu", ++lineno);
		if (!line || !xmlNewProp(line, BAD_CAST "n", BAD_CAST num)) {
			free(s);
			return -ENOMEM;
		}
		xmlNodeAddContent(line, BAD_CAST s);
		free(s);
		start = end + 1;
	}
	return 0;
}

/* One regular file (opened without following a symlink), read up to the
 * budget, as <file path=".." bytes=".."> with its lines. */
static int add_file(xmlNodePtr source, int dirfd, const char *name, const char *rel,
		    struct budget *b)
{
	struct stat st;
	unsigned char *buf;
	size_t cap, n = 0;
	ssize_t got;
	char num[32];
	xmlNodePtr file;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), rc = 0;
	if (fd < 0)
		return 0; /* vanished or not readable: not shown */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	cap = b->bytes < NPUKB_SOURCE_FILE_MAX ? b->bytes : NPUKB_SOURCE_FILE_MAX;
	buf = malloc(cap + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (n < cap && (got = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)got;
	close(fd);
	file = xmlNewChild(source, NULL, BAD_CAST "file", NULL);
	snprintf(num, sizeof(num), "%lld", (long long)st.st_size);
	if (!file || !xmlNewProp(file, BAD_CAST "path", BAD_CAST rel) ||
	    !xmlNewProp(file, BAD_CAST "bytes", BAD_CAST num)) {
		free(buf);
		return -ENOMEM;
	}
	if (memchr(buf, '\0', n)) {
		xmlNewProp(file, BAD_CAST "binary", BAD_CAST "true");
		n = 0;
	} else if ((off_t)n < st.st_size) {
		xmlNewProp(file, BAD_CAST "truncated", BAD_CAST "true");
		b->truncated = 1;
	}
	b->bytes -= n;
	rc = add_lines(file, buf, n);
	free(buf);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dirfd, sorted, hidden ones left out. */
static char **list_dir(int dirfd, size_t *count)
{
	int fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((e = readdir(d)) != NULL && n < NPUKB_SOURCE_ENTRIES_MAX) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **grown = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*grown));
			if (!grown)
				break;
			names = grown;
		}
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), by_name);
	*count = n;
	return names;
}

static int walk(xmlNodePtr source, int dirfd, const char *prefix, int depth, struct budget *b)
{
	size_t n = 0, i;
	char **names = list_dir(dirfd, &n);
	int rc = 0;
	for (i = 0; i < n; i++) {
		struct stat st;
		char *rel = NULL;
		if (rc == 0 && fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    asprintf(&rel, "%s%s", prefix, names[i]) >= 0) {
			if (S_ISREG(st.st_mode)) {
				if (b->files == 0 || b->bytes == 0)
					b->truncated = 1;
				else {
					b->files--;
					rc = add_file(source, dirfd, names[i], rel, b);
				}
			} else if (S_ISDIR(st.st_mode) && depth < NPUKB_SOURCE_DEPTH_MAX) {
				int sub = openat(dirfd, names[i],
						 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				char *subprefix = NULL;
				if (sub >= 0 && asprintf(&subprefix, "%s/", rel) >= 0)
					rc = walk(source, sub, subprefix, depth + 1, b);
				free(subprefix);
				if (sub >= 0)
					close(sub);
			}
		}
		free(rel);
		free(names[i]);
	}
	free(names);
	return rc;
}

int npukb_report_source_attach(xmlNodePtr sample, const char *dir)
{
	struct budget b = { NPUKB_SOURCE_FILES_MAX, NPUKB_SOURCE_BYTES_MAX, 0 };
	xmlNodePtr source;
	int fd, rc;
	if (!dir || dir[0] != '/')
		return 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0; /* gone since the run: the page says so */
	source = xmlNewChild(sample, NULL, BAD_CAST "source", NULL);
	if (!source) {
		close(fd);
		return -ENOMEM;
	}
	rc = walk(source, fd, "", 0, &b);
	close(fd);
	if (rc == 0 && b.truncated && !xmlNewProp(source, BAD_CAST "truncated", BAD_CAST "true"))
		rc = -ENOMEM;
	return rc;
}

static int has_outcome(xmlNodePtr n, const char *outcome)
{
	xmlChar *o = xmlGetProp(n, BAD_CAST "outcome");
	int yes = xmlStrEqual(o, BAD_CAST outcome);
	xmlFree(o);
	return yes;
}

/* A sample failed when its compile or any of its cases did. */
static int sample_failed(xmlNodePtr sample)
{
	xmlNodePtr c;
	for (c = sample->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    (xmlStrEqual(c->name, BAD_CAST "compile") || xmlStrEqual(c->name, BAD_CAST "case")) &&
		    has_outcome(c, "fail"))
			return 1;
	return 0;
}

int npukb_report_sources_attach(xmlDocPtr doc)
{
	xmlNodePtr run = xmlDocGetRootElement(doc), task, sample;
	int rc = 0;
	if (!run)
		return 0;
	for (task = run->children; task && rc == 0; task = task->next) {
		if (task->type != XML_ELEMENT_NODE || !xmlStrEqual(task->name, BAD_CAST "task"))
			continue;
		for (sample = task->children; sample && rc == 0; sample = sample->next) {
			xmlChar *dir, *answer;
			if (sample->type != XML_ELEMENT_NODE ||
			    !xmlStrEqual(sample->name, BAD_CAST "sample"))
				continue;
			answer = xmlGetProp(sample, BAD_CAST "answer");
			dir = xmlGetProp(sample, BAD_CAST "dir");
			/* the expert answers are the task's, not the user's: left out;
			 * nothing a sample holds reaches a report unless it failed */
			if (!xmlStrEqual(answer, BAD_CAST "true") && sample_failed(sample))
				rc = npukb_report_source_attach(sample, (const char *)dir);
			xmlFree(dir);
			xmlFree(answer);
		}
	}
	return rc;
}
