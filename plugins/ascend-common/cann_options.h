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

/* The most NPUs the device option names. */
#define NPUKB_CANN_MAX_DEVICES 64

/* The NPUs to use, one worker each, into out (room for
 * NPUKB_CANN_MAX_DEVICES): the device option's list, else
 * $NPUKB_ASCEND_DEVICE's; their count, 0 when neither names any (the
 * runtime's default device; an unreadable variable counts as unset). */
size_t npukb_cann_devices(int *out);

#endif
