/* cann_options.h - the --backend-opt options of the two Ascend backends
 * (shared by ascend-device and ascend-hostdev, compiled into each, so each
 * plugin keeps its own settings).
 *
 * Each option has an environment variable as its default, so a machine
 * set up with CANN's set_env.sh needs none of them; an option given wins
 * over the variable. */
#ifndef NPUKB_CANN_OPTIONS_H
#define NPUKB_CANN_OPTIONS_H

#include <npukb/plugin.h>

#include <stddef.h>

/* ascend-home, cxx, device; ended by a NULL name. */
extern const struct npukb_backend_option npukb_cann_options[];

/* The backends' configure(): checks and keeps the run's values (0), or
 * non-zero with a one-line reason in err. A later call replaces them;
 * options NULL forgets them (the plugin's fini). */
int npukb_cann_configure(const struct npukb_options *options, char *err, size_t len);

/* The toolkit root the ascend-home option names, or NULL. */
const char *npukb_cann_home_option(void);

/* The host C++ compiler: the cxx option, else $NPUKB_CXX, else NULL (the
 * command builders' own default). */
const char *npukb_cann_host_cxx(void);

/* The NPU to use: the device option, else $NPUKB_ASCEND_DEVICE; -1 when
 * neither names one (the runtime's default device). */
int npukb_cann_device_option(void);

#endif
