/* cmake_sources.h - the op_host sources a CANN operator project's
 * CMakeLists.txt gives to the targets cpusim needs (every one but opapi),
 * target by target. */
#ifndef NPUKB_CPUSIM_CMAKE_SOURCES_H
#define NPUKB_CPUSIM_CMAKE_SOURCES_H

#include <stddef.h>

struct file_list {
	char **files; /* "op_host/x.cpp", NULL-terminated; owned */
	size_t n;
};

/* One CANN target (optiling, opsproto, op_host_aclnn...): CANN links
 * each into its own library, so cpusim does too (see cpusim.c). */
struct cmake_target {
	char *name;             /* owned */
	struct file_list files; /* in the order the project names them */
};

struct cmake_host_sources {
	struct file_list built; /* named by the targets cpusim needs */
	struct file_list opapi; /* named by the opapi target */
	int built_exists;       /* one of `built` is in the sample */
	struct cmake_target *targets; /* the targets making up `built` */
	size_t ntargets;
};

/* Reads <sample_dir>/CMakeLists.txt, its placeholder custom_op standing
 * for `kernel`. No file is not an error (both lists empty). Returns 0 or
 * a negative errno. */
int cmake_host_sources_read(const char *sample_dir, const char *kernel, struct cmake_host_sources *out);

/* Whether the op_host source at relpath ("op_host/x.cpp") is built: never
 * when opapi names it; else every source when the project names none that
 * exists, or only the ones it names. */
int cmake_host_sources_wants(const struct cmake_host_sources *s, const char *relpath);

void cmake_host_sources_free(struct cmake_host_sources *s);

#endif
