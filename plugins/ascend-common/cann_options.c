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
	{ "device", "the NPUs to run on, one worker each: ids 0-1023, comma-separated, e.g. 0,1,2,3 "
		    "(default: $NPUKB_ASCEND_DEVICE, else the runtime's default device, one worker)" },
	{ NULL, NULL }
};

/* The run's values; the strings are copies (the options may not outlive
 * configure()). */
static struct {
	char *home, *cxx;
	int devices[NPUKB_CANN_MAX_DEVICES];
	size_t ndevices;
} config;

/* A list of distinct device numbers 0..1023 ("3" or "0,1,2,3") into out;
 * their count, or -1 with the reason in err (NULL: none wanted). */
static int parse_devices(const char *v, int *out, char *err, size_t len)
{
	size_t n = 0;
	const char *p = v;

	if (!v || !*v) {
		if (err)
			snprintf(err, len, "device is empty");
		return -1;
	}
	for (;;) {
		char *end = NULL;
		long id;
		errno = 0;
		id = (*p >= '0' && *p <= '9') ? strtol(p, &end, 10) : -1;
		if (errno || id < 0 || id > 1023 || (*end && *end != ',')) {
			if (err)
				snprintf(err, len, "device must be NPU ids 0-1023, comma-separated, not '%s'",
					 v);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			if (out[i] == (int)id) {
				if (err)
					snprintf(err, len, "device names NPU %ld twice (one worker per NPU)",
						 id);
				return -1;
			}
		if (n == NPUKB_CANN_MAX_DEVICES) {
			if (err)
				snprintf(err, len, "device names more than %d NPUs",
					 NPUKB_CANN_MAX_DEVICES);
			return -1;
		}
		out[n++] = (int)id;
		if (!*end)
			return (int)n;
		p = end + 1;
	}
}

static void forget(void)
{
	free(config.home);
	free(config.cxx);
	config.home = config.cxx = NULL;
	config.ndevices = 0;
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
	if (device) {
		int n = parse_devices(device, config.devices, err, len);
		if (n < 0)
			return 1;
		config.ndevices = (size_t)n;
	}
	if ((home && !(config.home = strdup(home))) || (cxx && !(config.cxx = strdup(cxx)))) {
		forget();
		snprintf(err, len, "out of memory");
		return 1;
	}
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

size_t npukb_cann_devices(int *out)
{
	int n;

	if (config.ndevices) {
		memcpy(out, config.devices, config.ndevices * sizeof *out);
		return config.ndevices;
	}
	n = parse_devices(getenv("NPUKB_ASCEND_DEVICE"), out, NULL, 0);
	return n > 0 ? (size_t)n : 0;
}
