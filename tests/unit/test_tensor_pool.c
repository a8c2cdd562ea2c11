/* test_tensor_pool.c - the tensor memory kept from one seed of a case to
 * the next: reused only when the file is as the pool made it, never
 * handed to a kernel with a second name, and invisible in the data. */
#include <criterion/criterion.h>

#include <npukb/case_data.h>
#include <npukb/util.h>
#include "fsutil.h"
#include "tensor_pool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[] = "/tmp/npukb-pool-XXXXXX";
static char seed0[4200], seed1[4200];

static void setup(void)
{
	strcpy(root, "/tmp/npukb-pool-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(seed0, sizeof seed0, "%s/seed-0", root);
	snprintf(seed1, sizeof seed1, "%s/seed-1", root);
	cr_assert_eq(npukb_mkdir_p(seed0, 0700), 0);
	cr_assert_eq(npukb_mkdir_p(seed1, 0700), 0);
}

static void teardown(void)
{
	npukb_tensor_pool_close();
	npukb_rm_rf(root);
}

static char *at(const char *dir, const char *name)
{
	static char buf[2][4300];
	static int k;
	k ^= 1;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

TestSuite(tensor_pool, .init = setup, .fini = teardown);

Test(tensor_pool, is_off_until_opened)
{
	void *m;
	int reused;
	cr_expect_eq(npukb_tensor_pool_file(at(seed0, "x.bin"), 4096, &m, &reused), -ENOSYS);
	cr_expect_null(npukb_tensor_pool_buffer(1 << 20));
	cr_expect_eq(npukb_tensor_pool_keep(&reused), 0);
}

Test(tensor_pool, a_kept_file_is_the_next_seeds_file)
{
	void *m0, *m1;
	int reused;
	struct stat st;

	cr_assert_eq(npukb_tensor_pool_open(root), 0);
	cr_assert_eq(npukb_tensor_pool_file(at(seed0, "x.bin"), 1 << 16, &m0, &reused), 0);
	cr_expect_eq(reused, 0);
	memset(m0, 0x5A, 1 << 16);
	cr_assert_eq(npukb_tensor_pool_keep(m0), 1);
	/* moved out of the seed's folder */
	cr_expect_neq(stat(at(seed0, "x.bin"), &st), 0);
	cr_assert_eq(npukb_tensor_pool_file(at(seed1, "y.bin"), 1 << 16, &m1, &reused), 0);
	cr_expect_eq(reused, 1);
	cr_expect_eq(m1, m0);
	cr_assert_eq(stat(at(seed1, "y.bin"), &st), 0);
	cr_expect_eq(st.st_nlink, 1, "a kernel is handed a file of one name only");
	cr_expect_eq(st.st_size, 1 << 16);
	cr_expect_eq(((unsigned char *)m1)[123], 0x5A);
}

Test(tensor_pool, another_size_gets_a_new_file_and_the_old_goes)
{
	void *m0, *m1;
	int reused, n = 0;
	char pooldir[4300];
	struct dirent *e;
	DIR *d;

	cr_assert_eq(npukb_tensor_pool_open(root), 0);
	cr_assert_eq(npukb_tensor_pool_file(at(seed0, "x.bin"), 8192, &m0, &reused), 0);
	cr_assert_eq(npukb_tensor_pool_keep(m0), 1);
	cr_assert_eq(npukb_tensor_pool_file(at(seed1, "x.bin"), 4096, &m1, &reused), 0);
	cr_expect_eq(reused, 0);
	/* what the last case left is gone before this one's memory comes */
	snprintf(pooldir, sizeof pooldir, "%s/.tensor-pool-%ld", root, (long)getpid());
	d = opendir(pooldir);
	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	cr_expect_eq(n, 0);
}

/* What a kernel may do to the file it was handed, each of which makes
 * the pool forget the file rather than keep it. */
static void truncate_it(const char *p)
{
	cr_assert_eq(truncate(p, 100), 0);
}

static void link_it(const char *p)
{
	cr_assert_eq(link(p, at(seed0, "second-name.bin")), 0);
}

static void replace_it(const char *p)
{
	int fd = open(at(seed0, "other.bin"), O_CREAT | O_WRONLY, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, 1 << 16), 0);
	close(fd);
	cr_assert_eq(rename(at(seed0, "other.bin"), p), 0);
}

static void symlink_it(const char *p)
{
	cr_assert_eq(rename(p, at(seed0, "moved.bin")), 0);
	cr_assert_eq(symlink(at(seed0, "moved.bin"), p), 0);
}

static void not_kept_after(void (*tamper)(const char *))
{
	void *m0, *m1;
	int reused;
	char *p = strdup(at(seed0, "x.bin"));
	struct stat st;

	cr_assert_eq(npukb_tensor_pool_open(root), 0);
	cr_assert_eq(npukb_tensor_pool_file(p, 1 << 16, &m0, &reused), 0);
	tamper(p);
	cr_expect_eq(npukb_tensor_pool_keep(m0), 1, "the pool's mapping, forgotten");
	/* what the kernel left stays where it left it */
	cr_expect_eq(lstat(p, &st), 0);
	cr_assert_eq(npukb_tensor_pool_file(at(seed1, "x.bin"), 1 << 16, &m1, &reused), 0);
	cr_expect_eq(reused, 0, "a file a kernel changed is not handed out again");
	free(p);
}

Test(tensor_pool, a_truncated_file_is_not_kept) { not_kept_after(truncate_it); }
Test(tensor_pool, a_file_with_a_second_name_is_not_kept) { not_kept_after(link_it); }
Test(tensor_pool, a_replaced_file_is_not_kept) { not_kept_after(replace_it); }
Test(tensor_pool, a_symlink_in_its_place_is_not_kept) { not_kept_after(symlink_it); }

Test(tensor_pool, an_output_replaced_during_the_run_is_read_from_its_path)
{
	void *m0;
	int reused;
	char *p = strdup(at(seed0, "y.bin"));

	cr_assert_eq(npukb_tensor_pool_open(root), 0);
	cr_assert_eq(npukb_tensor_pool_file(p, 1 << 16, &m0, &reused), 0);
	cr_expect_eq(npukb_tensor_pool_check(m0, p), 1);
	cr_assert_eq(truncate(p, 10), 0);
	cr_expect_eq(npukb_tensor_pool_check(m0, p), -EMSGSIZE);
	cr_assert_eq(truncate(p, 1 << 16), 0);
	replace_it(p);
	cr_expect_eq(npukb_tensor_pool_check(m0, p), 2);
	/* forgotten: no longer the pool's */
	cr_expect_eq(npukb_tensor_pool_keep(m0), 0);
	free(p);
}

Test(tensor_pool, buffers_are_kept_by_size)
{
	void *a, *b;
	cr_assert_eq(npukb_tensor_pool_open(root), 0);
	cr_expect_null(npukb_tensor_pool_buffer(100), "small buffers are malloc's");
	a = npukb_tensor_pool_buffer(4 << 20);
	cr_assert_not_null(a);
	memset(a, 1, 4 << 20);
	cr_assert_eq(npukb_tensor_pool_return(a), 1);
	b = npukb_tensor_pool_buffer(4 << 20);
	cr_expect_eq(b, a);
	cr_assert_eq(npukb_tensor_pool_return(b), 1);
	cr_expect_eq(npukb_tensor_pool_return(b), 0, "returned twice");
}

Test(tensor_pool, a_forked_process_does_not_use_its_parents_pool)
{
	void *m0;
	int reused, status;
	pid_t pid;

	cr_assert_eq(npukb_tensor_pool_open(root), 0);
	cr_assert_eq(npukb_tensor_pool_file(at(seed0, "x.bin"), 4096, &m0, &reused), 0);
	cr_assert_eq(npukb_tensor_pool_keep(m0), 1);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		void *m;
		int r;
		_exit(npukb_tensor_pool_file(at(seed1, "x.bin"), 4096, &m, &r) == -ENOSYS ? 0 : 1);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
