/* gm_buffers.h - the GM buffers a cpusim kernel executable hands its
 * kernel: tensor files mapped in guarded areas, tensor-list descriptors,
 * the workspace (gm_buffers.cpp), and the two helpers of the harness's
 * command line they report through (harness.cpp).
 *
 * Every buffer sits between two inaccessible guard zones, with poisoned
 * bytes from the end of its device allocation to the end of its page, so
 * that a raw pointer running off a buffer is reported as the out-of-bounds
 * write it is, naming the argument, instead of changing a neighbour. */
#ifndef NPUKB_CPUSIM_GM_BUFFERS_H
#define NPUKB_CPUSIM_GM_BUFFERS_H

#include <stdint.h>

namespace npukb_harness {

/* harness.cpp: a message on stderr with the usage, exit status 2. */
[[noreturn]] void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* harness.cpp: a decimal unsigned 64-bit number, nothing else. */
bool parse_u64(const char *s, uint64_t *out);

/* A guarded, zero-filled area for a buffer of bytes; its first byte. */
uint8_t *reserve_guarded(uint64_t bytes, const char *what);
/* Poisons the bytes after the buffer at lo, once its contents are in. */
void poison_tail(uint8_t *lo);
/* The kernel parameter and role reports name the buffer at lo by. */
void name_guarded(uint8_t *lo, int arg, const char *role);
/* SIGSEGV/SIGBUS in a guard zone: an out-of-bounds report, exit 3. */
void install_guard_handler();
/* After the launch: a changed poisoned byte fails the run. */
void check_poison();

/* A tensor file in a guarded area of its device allocation, shared when
 * writable (the core reads outputs from the files), a private copy
 * otherwise; *size is the file's size. */
uint8_t *map_file(const char *path, bool writable, uint64_t *size);
/* After a launch that ended well: the files' last partial pages, held
 * apart while the kernel ran, go back to their files. */
void write_back_tails();

/* A tensor list argument "OFF[xD0xD1...],...@PATH": the descriptor
 * ListTensorDesc reads (malloc'd, *desc_size bytes); the members' file is
 * mapped at *data (*data_size bytes). */
uint8_t *build_list(const char *spec, uint64_t *desc_size, uint8_t **data, uint64_t *data_size);

} // namespace npukb_harness

#endif
