/* text.c - UTF-8 cleaning, JSON strings. */
#include "text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *p, uint32_t *cp)
{
	size_t n, i;
	uint32_t c;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if ((p[0] & 0xE0) == 0xC0) {
		n = 2;
		c = p[0] & 0x1F;
	} else if ((p[0] & 0xF0) == 0xE0) {
		n = 3;
		c = p[0] & 0x0F;
	} else if ((p[0] & 0xF8) == 0xF0) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3F);
	}
	/* overlong forms, surrogates and out-of-range code points */
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF || c == 0xFFFE || c == 0xFFFF)
		return 0;
	*cp = c;
	return n;
}

char *npukb_text_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p);
	char *out = malloc(len * 3 + 1), *o = out;
	if (!out)
		return NULL;
	while (*p) {
		uint32_t cp;
		size_t n = utf8_len(p, &cp);
		if (n == 0) {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			p++;
			continue;
		}
		if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') {
			p += n;
			continue;
		}
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = '\0';
	return out;
}

void npukb_json_string(FILE *f, const char *s)
{
	char *clean = npukb_text_clean(s);
	const unsigned char *p = (const unsigned char *)(clean ? clean : "");
	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
	free(clean);
}
