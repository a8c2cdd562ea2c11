/* socs.c - which SoC names soc/ *.conf covers. */
#include "socs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_conf(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return e->d_name[0] != '.' && n > 5 && strcmp(e->d_name + n - 5, ".conf") == 0;
}

int cpusim_soc_check(const char *socdir, const char *soc, char *known, size_t len)
{
	struct dirent **names = NULL;
	size_t off = 0;
	int n, i, found = 0;

	if (len)
		known[0] = '\0';
	n = scandir(socdir, &names, is_conf, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		size_t plen = strlen(names[i]->d_name) - 5, k;
		int prefix = strlen(soc) >= plen;
		for (k = 0; prefix && k < plen; k++)
			prefix = tolower((unsigned char)soc[k]) == names[i]->d_name[k];
		found |= prefix;
		if (off < len)
			off += (size_t)snprintf(known + off, len - off, "%s%.*s*", i ? ", " : "",
						(int)plen, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return n == 0 || found ? 0 : 1;
}
