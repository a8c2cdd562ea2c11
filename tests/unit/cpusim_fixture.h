/* cpusim_fixture.h - what the tests of the cpusim backend through its
 * descriptor share (test_cpusim.c, test_cpusim_snippets.c): AddCustom's
 * task built by hand, samples built in scratch folders, hand-made case
 * files, and reference half arithmetic independent of the emulation. */
#ifndef NPUKB_TEST_CPUSIM_FIXTURE_H
#define NPUKB_TEST_CPUSIM_FIXTURE_H

#include <npukb/plugin.h>

#include <stddef.h>
#include <stdint.h>

extern const struct npukb_plugin npukb_cpusim_plugin;

#define POISON 0x7e55u
#define TILE_NUM 8u
#define ANSWER "levels/level1/Math/AddCustom/answer"
#define SAMPLES "tests/samples/AddCustom/"
#define CASE0_NUMEL ((size_t)48 * 128 * 512)

struct built {
	struct npukb_task task;
	struct npukb_sample sample;
	struct npukb_options opts;
	struct npukb_build_result res;
	char *workdir;
};

/* One case's files: x, y random fp16 in [-100, 100], z poisoned, tiling. */
struct case_files {
	size_t n;
	uint16_t *x, *y;
	char *dir, *px, *py, *pz, *pt;
	struct npukb_kernel_arg args[5];
	struct npukb_case_data data;
};

/* half <-> double, written from the IEEE format, not from the emulation */
double h2d(uint16_t h);
uint16_t d2h(double d);

/* $NPUKB_SRCDIR, else "." */
const char *srcdir(void);
/* NPUKB_CPUSIM_DIR defaults to $NPUKB_SRCDIR/plugins/cpusim. */
void setup_env(void);
/* A scratch folder removed when the process exits (kept with
 * NPUKB_KEEP_TMP); malloc'd path. */
char *tempdir(void);
/* dir/name, malloc'd. */
char *path_in(const char *dir, const char *name);

/* The one source of AddCustom's kernel-only samples. */
extern const char *const kernel_files[];

void fake_task(struct npukb_task *t);
void fake_options(struct npukb_options *o, double run_wall);
/* Builds the sample in dir in workdir (which may hold files planted by
 * the test); the result is in b->res, success or not. */
void build_dir_in(struct built *b, const char *dir, double run_wall, char *workdir);
void build_dir(struct built *b, const char *dir, double run_wall);
/* rel is relative to the source tree. */
void build_sample(struct built *b, const char *rel, double run_wall);
/* ... and the build must succeed. */
void build_ok(struct built *b, const char *rel);

void write_file(const char *path, const void *buf, size_t len);
/* n elements in block_dim blocks, inputs drawn from seed. */
void make_case(struct case_files *c, size_t n, int block_dim, uint64_t seed);
uint16_t *read_u16(const char *path, size_t n);
void run_case(struct built *b, struct case_files *c, struct npukb_run_result *r);
/* Elements of z that differ from x + y rounded to half; *poisoned of them
 * still hold the poison. */
size_t count_wrong(struct case_files *c, size_t *first, size_t *poisoned);
void assert_inputs_intact(struct case_files *c);

#endif
