/* text.h - text helpers for the report writers (private). */
#ifndef NPUKB_TEXT_H
#define NPUKB_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Copy of s that is valid UTF-8 and holds only characters XML 1.0 allows:
 * invalid bytes become U+FFFD, forbidden control characters are dropped.
 * Compiler output and sample stdout are arbitrary bytes. NULL -> "". */
char *npukb_text_clean(const char *s);

/* Write s as a JSON string literal (quotes included) to f. */
void npukb_json_string(FILE *f, const char *s);

#endif
