/* cann_options.c - the Ascend backends' options (see cann_options.h). */
#include "cann_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct npukb_backend_option npukb_cann_options[] = {
	{ "ascend-home", "the CANN toolkit root, the only one looked at (default: $ASCEND_HOME_PATH, "
			 "$ASCEND_TOOLKIT_HOME, then the default install locations)" },
	{ "cxx", "the host C++ compiler for the launch program (default: $NPUKB_CXX, else g++)" },
	{ "device", "the NPU to run on, 0-1023 (default: $NPUKB_ASCEND_DEVICE, else the runtime's "
		    "default)" },
	{ NULL, NULL }
};

/* The run's values; the strings are copies (the options may not outlive
 * configure()). */
static struct {
	char *home, *cxx;
	int device;
} config = { NULL, NULL, -1 };

/* A device number 0..1023, or -1. */
static int parse_device(const char *v)
{
	char *end = NULL;
	long id;
	if (!v || !*v)
		return -1;
	errno = 0;
	id = strtol(v, &end, 10);
	if (errno || *end || id < 0 || id > 1023 || !(*v >= '0' && *v <= '9'))
		return -1;
	return (int)id;
}

static void forget(void)
{
	free(config.home);
	free(config.cxx);
	config.home = config.cxx = NULL;
	config.device = -1;
}

int npukb_cann_configure(const struct npukb_options *options, char *err, size_t len)
{
	const char *home, *cxx, *device;
	forget();
	if (!options)
		return 0;
	home = npukb_backend_opt(options, "ascend-home");
	cxx = npukb_backend_opt(options, "cxx");
	device = npukb_backend_opt(options, "device");
	if ((home && !*home) || (cxx && !*cxx)) {
		snprintf(err, len, "%s is empty", home && !*home ? "ascend-home" : "cxx");
		return 1;
	}
	if (device && parse_device(device) < 0) {
		snprintf(err, len, "device must be a number 0-1023, not '%s'", device);
		return 1;
	}
	if ((home && !(config.home = strdup(home))) || (cxx && !(config.cxx = strdup(cxx)))) {
		forget();
		snprintf(err, len, "out of memory");
		return 1;
	}
	config.device = device ? parse_device(device) : -1;
	return 0;
}

const char *npukb_cann_home_option(void)
{
	return config.home;
}

const char *npukb_cann_host_cxx(void)
{
	const char *v = getenv("NPUKB_CXX");
	if (config.cxx)
		return config.cxx;
	return v && *v ? v : NULL;
}

int npukb_cann_device_option(void)
{
	if (config.device >= 0)
		return config.device;
	return parse_device(getenv("NPUKB_ASCEND_DEVICE"));
}
