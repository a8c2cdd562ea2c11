/* own_task_fixture.c - see own_task_fixture.h. */
#include "own_task_fixture.h"

#include "fsutil.h"
#include "manifest.h"

#include <npukb/util.h>

#include <criterion/criterion.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *env_or_dot(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : ".";
}

void own_task_mkdir(char *dir, size_t len)
{
	cr_assert_lt((size_t)snprintf(dir, len, "/tmp/npukb-own-task-XXXXXX"), len);
	cr_assert_not_null(mkdtemp(dir));
}

void own_task_cleanup(const char *dir)
{
	npukb_rm_rf(dir);
}

void own_task_write(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;

	cr_assert_lt((size_t)snprintf(path, sizeof(path), "%s/%s", dir, rel), sizeof(path));
	slash = strrchr(path, '/');
	*slash = '\0';
	cr_assert_eq(npukb_mkdir_p(path, 0755), 0);
	*slash = '/';
	cr_assert_eq(npukb_write_file(path, text, strlen(text)), 0);
}

void own_task_copy_plugin(const char *dir, const char *name)
{
	char src[PATH_MAX], rel[256], *text = NULL;
	FILE *f;
	long n;

	snprintf(src, sizeof(src), "%s/tests/refplugins/.libs/%s.so", env_or_dot("NPUKB_BUILDDIR"),
		 name);
	f = fopen(src, "rb");
	if (!f) {
		snprintf(src, sizeof(src), "%s/tests/plugins/.libs/%s.so",
			 env_or_dot("NPUKB_BUILDDIR"), name);
		f = fopen(src, "rb");
	}
	cr_assert_not_null(f, "test plugin %s not built", src);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n);
	cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	snprintf(rel, sizeof(rel), "%s/%s.so", dir, name);
	cr_assert_eq(npukb_write_file(rel, text, (size_t)n), 0);
	free(text);
}

void own_task_manifest(const char *dir, const char *reference, const char *case_extra)
{
	char xml[4096];

	snprintf(xml, sizeof(xml),
		 "<?xml version=\"1.0\"?>\n"
		 "<task xmlns=\"urn:npukb:task:1\" id=\"level1/Custom/Own\" level=\"1\"\n"
		 "      category=\"Custom\" name=\"Own\"><summary>y = f(x)</summary>\n"
		 "  <kernel name=\"own\">\n"
		 "    <param name=\"x\" role=\"input\"/>\n"
		 "    <param name=\"y\" role=\"output\"/>\n"
		 "  </kernel>\n"
		 "  <tensors>\n"
		 "    <input name=\"x\" dtype=\"$dtype\">\n"
		 "      <distribution kind=\"uniform\" a=\"-1\" b=\"1\"/>\n"
		 "    </input>\n"
		 "    <output name=\"y\" dtype=\"$dtype\" shape-of=\"x\"/>\n"
		 "  </tensors>\n"
		 "  <tolerance rule=\"default\"/>\n"
		 "  %s\n"
		 "  <cases>\n"
		 "    <case id=\"0\" dtype=\"float32\">\n"
		 "      <shape tensor=\"x\">4 8</shape>\n"
		 "      %s\n"
		 "    </case>\n"
		 "  </cases>\n"
		 "</task>\n",
		 reference, case_extra);
	own_task_write(dir, "task.xml", xml);
}

int own_task_load(const char *dir, struct npukb_task **t, char *err, size_t errlen)
{
	char path[PATH_MAX], schema[PATH_MAX];

	snprintf(path, sizeof(path), "%s/task.xml", dir);
	snprintf(schema, sizeof(schema), "%s/levels/schema/task.rng", env_or_dot("NPUKB_SRCDIR"));
	return npukb_manifest_load(path, schema, t, err, errlen);
}
