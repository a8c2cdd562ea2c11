/* gm_buffers.cpp - guarded GM buffers, tensor files and tensor lists of a
 * cpusim kernel executable (see gm_buffers.h). */
#include <signal.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <string>
#include <vector>

#include "npukb_cpusim/runtime.h"
#include "gm_buffers.h"

namespace rt = npukb_cpusim;

namespace npukb_harness {

/* What an empty tensor file's argument points at: a valid address that
 * no kernel may read past. */
static unsigned char empty_arg[32];

/* ---- guard zones ----------------------------------------------------------- */

/* Every GM buffer a kernel gets (tensor files, list data, workspace) sits in
 * a reservation of its own: GUARD_ZONE_BYTES of inaccessible pages before
 * it, the device allocation (gm_alloc_bytes), poisoned bytes to the end of
 * its last page, and GUARD_ZONE_BYTES of inaccessible pages after it.
 * Accesses through the checked APIs never get there (gm_check stops them
 * at the allocation's end); what reaches a guard zone is a raw pointer
 * running off a buffer. Without the zones such a write lands in whatever
 * the kernel's neighbour mapping is - often another argument - and shows
 * up as a mutated input instead of as the out-of-bounds write it is. */
static constexpr size_t GUARD_ZONE_BYTES = 1u << 20;
static constexpr unsigned char GUARD_POISON = 0xa5;

struct Guarded {
	uintptr_t area_lo, area_hi; /* the whole reservation */
	uintptr_t lo;               /* the buffer's first byte */
	uintptr_t alloc_hi;         /* end of its device allocation */
	uintptr_t page_hi;          /* end of the poisoned bytes after it */
	uint64_t bytes;             /* the buffer's own size */
	int arg;                    /* kernel parameter, -1 until known */
	const char *role;
};

static Guarded guarded[rt::MAX_GM_RANGES + 1];
static int nguarded;

static uintptr_t page_up(uintptr_t v)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	return (v + page - 1) / page * page;
}

/* Reserves a guarded area for a buffer of `bytes` and returns its first
 * byte; the area is readable and writable up to the page after the
 * allocation's end, zero-filled. */
uint8_t *reserve_guarded(uint64_t bytes, const char *what)
{
	if (nguarded >= (int)(sizeof guarded / sizeof guarded[0]))
		usage_error("more than %d GM buffers", (int)(sizeof guarded / sizeof guarded[0]));
	const uint64_t alloc = rt::gm_alloc_bytes(bytes);
	const size_t body = (size_t)page_up((uintptr_t)alloc);
	const size_t total = GUARD_ZONE_BYTES + body + GUARD_ZONE_BYTES;
	void *area = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED)
		usage_error("cannot reserve the allocation of %s: %s", what, strerror(errno));
	uint8_t *lo = (uint8_t *)area + GUARD_ZONE_BYTES;
	if (mprotect(lo, body, PROT_READ | PROT_WRITE) != 0)
		usage_error("cannot reserve the allocation of %s: %s", what, strerror(errno));
	Guarded &gd = guarded[nguarded++];
	gd.area_lo = (uintptr_t)area;
	gd.area_hi = (uintptr_t)area + total;
	gd.lo = (uintptr_t)lo;
	gd.alloc_hi = gd.lo + alloc;
	gd.page_hi = gd.lo + body;
	gd.bytes = bytes;
	gd.arg = -1;
	gd.role = what;
	return lo;
}

/* Fills the bytes between the allocation's end and the page's end. Done
 * once the buffer's contents are in place (a file mapped over the area's
 * start may reach into that page). */
void poison_tail(uint8_t *lo)
{
	for (int i = 0; i < nguarded; i++)
		if (guarded[i].lo == (uintptr_t)lo)
			memset((void *)guarded[i].alloc_hi, GUARD_POISON, guarded[i].page_hi - guarded[i].alloc_hi);
}

void name_guarded(uint8_t *lo, int arg, const char *role)
{
	for (int i = 0; i < nguarded; i++)
		if (guarded[i].lo == (uintptr_t)lo) {
			guarded[i].arg = arg;
			guarded[i].role = role;
		}
}

/* Async-signal-safe enough for a report that ends the process: no malloc,
 * no stdio locks taken by anyone else (the kernel is single-threaded). */
[[noreturn]] static void guard_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] static void guard_report(const char *fmt, ...)
{
	char msg[512];
	int n = snprintf(msg, sizeof msg, "npukb-cpusim: out-of-bounds: ");
	va_list ap;
	va_start(ap, fmt);
	n += vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof msg - 40)
		n = (int)sizeof msg - 40;
	n += snprintf(msg + n, sizeof msg - (size_t)n, " (block %lld) at ?:0\n", (long long)rt::g.block_idx);
	if (write(STDERR_FILENO, msg, (size_t)n) < 0) {
		/* nothing left to tell it to */
	}
	_exit(3);
}

static void on_guard_fault(int sig, siginfo_t *si, void *)
{
	const uintptr_t a = (uintptr_t)si->si_addr;
	for (int i = 0; i < nguarded; i++) {
		const Guarded &gd = guarded[i];
		if (a < gd.area_lo || a >= gd.area_hi)
			continue;
		if (a < gd.lo)
			guard_report("an access %llu bytes before the start of argument %d (%s, %llu bytes), "
				     "through an unchecked pointer",
				     (unsigned long long)(gd.lo - a), gd.arg, gd.role, (unsigned long long)gd.bytes);
		guard_report("an access at byte offset %llu of argument %d (%s, %llu bytes), %llu bytes past "
			     "its end, through an unchecked pointer",
			     (unsigned long long)(a - gd.lo), gd.arg, gd.role, (unsigned long long)gd.bytes,
			     (unsigned long long)(a - gd.lo - gd.bytes));
	}
	/* Not ours (a stack overflow, a wild pointer): die of it as before. */
	signal(sig, SIG_DFL);
	raise(sig);
}

void install_guard_handler()
{
	static unsigned char alt[64 * 1024];
	stack_t ss;
	memset(&ss, 0, sizeof ss);
	ss.ss_sp = alt;
	ss.ss_size = sizeof alt;
	sigaltstack(&ss, nullptr);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_guard_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, nullptr);
	sigaction(SIGBUS, &sa, nullptr);
}

/* After the launch: a changed poisoned byte is a write past an allocation. */
void check_poison()
{
	for (int i = 0; i < nguarded; i++) {
		const Guarded &gd = guarded[i];
		for (uintptr_t p = gd.alloc_hi; p < gd.page_hi; p++) {
			if (*(const unsigned char *)p == GUARD_POISON)
				continue;
			uintptr_t last = p;
			for (uintptr_t q = p; q < gd.page_hi; q++)
				if (*(const unsigned char *)q != GUARD_POISON)
					last = q;
			rt::fail("out-of-bounds", rt::SrcLoc(rt::SrcLocTag(), "?", 0),
				 "the kernel wrote past the end of argument %d (%s, %llu bytes): bytes %llu..%llu "
				 "beyond its device allocation changed, through an unchecked pointer",
				 gd.arg, gd.role, (unsigned long long)gd.bytes,
				 (unsigned long long)(p - gd.lo), (unsigned long long)(last - gd.lo));
		}
	}
}

/* The last partial page of a writable tensor file, held in anonymous memory
 * while the kernel runs (see map_file). */
struct FileTail {
	dev_t dev;
	ino_t ino;       /* the file: one tail however many arguments map it */
	int fd;
	int memfd;       /* the page holding the tail while the kernel runs */
	uint64_t offset; /* in the file */
	uint8_t *addr;   /* one of its mappings */
	uint64_t bytes;
};

static FileTail tails[rt::MAX_GM_RANGES + 1];
static int ntails;

/* Maps the last partial page of a writable file (rest bytes at offset
 * whole) at at: a page of shared memory of its own, read from the file
 * once, so that two arguments naming one file (an in-place output passed
 * again as var_out) still see each other's writes, as they did through
 * the file's page cache. */
static void map_tail(int fd, const struct stat &st, uint64_t whole, uint64_t rest, uint8_t *at,
	      const char *path)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int i;
	for (i = 0; i < ntails; i++)
		if (tails[i].dev == st.st_dev && tails[i].ino == st.st_ino)
			break;
	if (i == ntails) {
		if (ntails >= (int)(sizeof tails / sizeof tails[0]))
			usage_error("more than %d tensor files", (int)(sizeof tails / sizeof tails[0]));
		const int m = memfd_create("npukb-tail", MFD_CLOEXEC);
		if (m < 0 || ftruncate(m, (off_t)page) != 0)
			usage_error("cannot hold the last page of %s: %s", path, strerror(errno));
		tails[ntails++] = FileTail{ st.st_dev, st.st_ino, dup(fd), m, whole, at, rest };
		if (tails[i].fd < 0)
			usage_error("cannot keep %s open: %s", path, strerror(errno));
	}
	if (mmap(at, page, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_SHARED, tails[i].memfd, 0) == MAP_FAILED)
		usage_error("cannot map the last page of %s: %s", path, strerror(errno));
	if (tails[i].addr == at && pread(fd, at, (size_t)rest, (off_t)whole) != (ssize_t)rest)
		usage_error("cannot read %s: %s", path, strerror(errno));
}

uint8_t *map_file(const char *path, bool writable, uint64_t *size)
{
	int fd = open(path, writable ? O_RDWR : O_RDONLY);
	if (fd < 0)
		usage_error("cannot open %s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		usage_error("%s is not a regular file", path);
	*size = (uint64_t)st.st_size;
	if (st.st_size == 0) {
		close(fd);
		return empty_arg;
	}
	/* The whole device allocation (rt::gm_alloc_bytes) in a guarded
	 * area, the file mapped over its start: the padding past the file's
	 * last page reads as zeros. Tiling is read through a private
	 * copy-on-write mapping: a kernel that scribbles on it must not
	 * change the file the core reuses. */
	uint8_t *area = reserve_guarded(*size, path);
	/* Only the file's whole pages are mapped; its last partial page is
	 * copied into the area's own anonymous memory. Mapped, that page would
	 * hold the poison past the file's end, and the kernel's writeback
	 * zeroes a shared page past EOF whenever it flushes it (every 30 s
	 * or so): a long case would then see "changed" poison and report an
	 * out-of-bounds write nobody made. */
	const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	const uint64_t whole = *size / page * page;
	if (whole > 0 && mmap(area, (size_t)whole, PROT_READ | PROT_WRITE,
			      MAP_FIXED | (writable ? MAP_SHARED : MAP_PRIVATE), fd, 0) == MAP_FAILED)
		usage_error("cannot map %s: %s", path, strerror(errno));
	const uint64_t rest = *size - whole;
	if (rest > 0 && writable)
		map_tail(fd, st, whole, rest, area + whole, path);
	else if (rest > 0 && pread(fd, area + whole, (size_t)rest, (off_t)whole) != (ssize_t)rest)
		usage_error("cannot read %s: %s", path, strerror(errno));
	close(fd);
	poison_tail(area);
	return area;
}

/* After a launch that ended well: the copied last pages go back to their
 * files, where the core reads outputs and checks inputs. Through a mapping,
 * not write(): the sandbox's file-size limit (RLIMIT_FSIZE) would stop a
 * write at an offset past it, and these files are the core's, not the
 * kernel's. */
void write_back_tails()
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < ntails; i++) {
		const FileTail &t = tails[i];
		void *m = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_SHARED, t.fd, (off_t)t.offset);
		if (m == MAP_FAILED)
			usage_error("cannot map a tensor file's last page back: %s", strerror(errno));
		memcpy(m, t.addr, (size_t)t.bytes);
		munmap(m, page);
		close(t.fd);
		close(t.memfd);
	}
	ntails = 0;
}


/* A tensor list argument, "OFF[xD0xD1...],OFF[x...]...@PATH": the members'
 * byte offsets in the file and their shapes. The kernel gets the layout
 * ListTensorDesc reads (kernel_operator_list_tensor_intf.h): a u64 byte
 * offset of the pointer table, then per member a u64 rank and its dims, then
 * the table of member addresses. The descriptor is a GM range of its own. */
uint8_t *build_list(const char *spec, uint64_t *desc_size, uint8_t **data, uint64_t *data_size)
{
	const char *at = strchr(spec, '@');
	if (!at)
		usage_error("list argument '%s' has no @PATH", spec);
	std::string members(spec, (size_t)(at - spec));
	*data = map_file(at + 1, true, data_size);

	std::vector<uint64_t> words(1, 0), offsets;
	size_t pos = 0;
	while (pos <= members.size()) {
		size_t end = members.find(',', pos);
		if (end == std::string::npos)
			end = members.size();
		std::string m = members.substr(pos, end - pos);
		std::vector<uint64_t> nums;
		size_t q = 0;
		while (q <= m.size()) {
			size_t x = m.find('x', q);
			if (x == std::string::npos)
				x = m.size();
			uint64_t v;
			if (!parse_u64(m.substr(q, x - q).c_str(), &v))
				usage_error("bad list member '%s' in '%s'", m.c_str(), spec);
			nums.push_back(v);
			q = x + 1;
		}
		if (nums[0] > *data_size)
			usage_error("list member offset %llu is past the %llu-byte file",
				    (unsigned long long)nums[0], (unsigned long long)*data_size);
		offsets.push_back(nums[0]);
		words.push_back(nums.size() - 1);
		words.insert(words.end(), nums.begin() + 1, nums.end());
		pos = end + 1;
	}
	words[0] = words.size() * sizeof(uint64_t);
	for (uint64_t off : offsets)
		words.push_back((uint64_t)(uintptr_t)(*data + off));
	*desc_size = words.size() * sizeof(uint64_t);
	uint8_t *desc = (uint8_t *)malloc(*desc_size);
	if (!desc)
		usage_error("out of memory");
	memcpy(desc, words.data(), *desc_size);
	return desc;
}

} // namespace npukb_harness
