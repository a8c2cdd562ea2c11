/* sandbox_seccomp.c - the system-call filter on every sandboxed command.
 *
 * A deny-list, not an allow-list: the command is a compiler driver (g++,
 * cc1plus, as, ld, all spawning each other) or a cpusim harness linked with
 * whatever libstdc++ and glibc the machine has, and the set of calls those
 * make changes with every toolchain and libc release; an allow-list that
 * misses one turns a correct sample into a false "sandbox-violation". The
 * namespaces already take away what the calls could reach (files, network,
 * processes, the uid); the filter removes the kernel surface a kernel never
 * needs and that escapes go through: ptrace, mounts, new namespaces,
 * module/kexec/bpf/keyring/perf/io_uring/userfaultfd, raw handles, clock
 * and host settings, non-Unix sockets, personality changes, and signals to
 * process groups, to every process or to the namespace's init.
 *
 * Denied calls are not killed blindly: the filter hands them to a
 * user-notification listener that the namespace's init holds, so the run
 * ends as `sandbox-violation` naming the call (SECCOMP_RET_KILL would only
 * say "SIGSYS"). Calls from a foreign architecture (x32, i386 via int 0x80)
 * kill the process: libseccomp's default bad-arch action. clone3 fails with
 * ENOSYS (its flags are in memory the filter cannot read) so that glibc
 * falls back to clone, whose flags it can. */

#include "sandbox_private.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

/* Denied whatever their arguments. */
static const char *const denied[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"mount", "umount2", "pivot_root", "chroot", "mount_setattr", "move_mount",
	"open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
	"unshare", "setns",
	"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"reboot", "swapon", "swapoff", "syslog", "acct", "quotactl", "quotactl_fd",
	"bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
	"io_uring_register", "keyctl", "add_key", "request_key",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"sethostname", "setdomainname", "iopl", "ioperm",
	"open_by_handle_at", "name_to_handle_at", "fanotify_init", "lookup_dcookie",
	"vhangup", "uselib", "_sysctl", "nfsservctl",
};

static const unsigned long ns_flags[] = {
	CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
	CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct sock_fprog program;
static char build_error[256];

static int add(scmp_filter_ctx ctx, uint32_t action, const char *name, unsigned n,
	       const struct scmp_arg_cmp *cmp)
{
	int nr = seccomp_syscall_resolve_name(name);
	int rc;

	if (nr == __NR_SCMP_ERROR)
		return 0; /* not a call of this architecture */
	rc = seccomp_rule_add_array(ctx, action, nr, n, cmp);
	if (rc < 0)
		snprintf(build_error, sizeof build_error, "seccomp rule for %s: %s", name,
			 strerror(-rc));
	return rc;
}

static int add_rules(scmp_filter_ctx ctx)
{
	const uint32_t deny = SCMP_ACT_NOTIFY;
	struct scmp_arg_cmp c[1];
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < sizeof denied / sizeof *denied; i++)
		rc = add(ctx, deny, denied[i], 0, NULL);
	for (size_t i = 0; rc == 0 && i < sizeof ns_flags / sizeof *ns_flags; i++) {
		c[0] = SCMP_A0(SCMP_CMP_MASKED_EQ, ns_flags[i], ns_flags[i]);
		rc = add(ctx, deny, "clone", 1, c);
	}
	if (rc == 0)
		rc = add(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
	if (rc == 0) {
		c[0] = SCMP_A0(SCMP_CMP_NE, AF_UNIX);
		rc = add(ctx, deny, "socket", 1, c);
	}
	if (rc == 0) {
		c[0] = SCMP_A0(SCMP_CMP_NE, 0);
		rc = add(ctx, deny, "personality", 1, c);
	}
	/* kill(0) (the group), kill(1) (init: the sample's parent), kill(<0)
	 * (-1: everything; -pgid: a group): never a kernel's business. */
	for (int k = 0; rc == 0 && k < 3; k++) {
		static const uint64_t mask[] = { 0xffffffffu, 0xffffffffu, 0x80000000u };
		static const uint64_t want[] = { 0, 1, 0x80000000u };

		c[0] = SCMP_A0(SCMP_CMP_MASKED_EQ, mask[k], want[k]);
		rc = add(ctx, deny, "kill", 1, c);
	}
	if (rc == 0) {
		c[0] = SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, 1);
		rc = add(ctx, deny, "tgkill", 1, c);
	}
	if (rc == 0) {
		c[0] = SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, 1);
		rc = add(ctx, deny, "tkill", 1, c);
	}
	return rc;
}

static void build(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	struct stat st;
	int fd = -1, rc;

	if (!ctx) {
		snprintf(build_error, sizeof build_error, "seccomp_init failed");
		return;
	}
	rc = add_rules(ctx);
	if (rc == 0) {
		fd = memfd_create("npukb-seccomp", MFD_CLOEXEC);
		if (fd < 0)
			rc = -errno;
	}
	if (rc == 0)
		rc = seccomp_export_bpf(ctx, fd);
	if (rc == 0 && fstat(fd, &st) < 0)
		rc = -errno;
	if (rc == 0) {
		void *buf = malloc((size_t)st.st_size);

		if (!buf || st.st_size == 0 || st.st_size % (off_t)sizeof(struct sock_filter) ||
		    pread(fd, buf, (size_t)st.st_size, 0) != st.st_size) {
			free(buf);
			rc = -EIO;
		} else {
			/* Process lifetime: every run loads the same program. */
			program.filter = buf;
			program.len = (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter));
		}
	}
	if (rc < 0 && !build_error[0])
		snprintf(build_error, sizeof build_error, "seccomp filter: %s", strerror(-rc));
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
}

const void *sbx_seccomp_program(char *err, size_t errlen)
{
	pthread_once(&once, build);
	if (program.filter)
		return &program;
	if (err && errlen)
		snprintf(err, errlen, "%s", build_error);
	return NULL;
}

int sbx_seccomp_load(const void *prog)
{
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, prog);
}

int sbx_seccomp_take(int fd)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	memset(&req, 0, sizeof req);
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
		return -1;
	memset(&resp, 0, sizeof resp);
	resp.id = req.id;
	resp.error = -EPERM;
	(void)ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	return req.data.nr;
}

void sbx_seccomp_name(int nr, char *buf, size_t len)
{
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

	snprintf(buf, len, "%s", name ? name : "unknown");
	free(name);
}
