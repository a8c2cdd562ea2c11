/* line_facts.h - what the source line g++ quotes under an error says
 * about the mistake, in words the note rules of rules.conf can match.
 *
 * g++ quotes the line it complains about ("   70 | text") under the error.
 * Some mistakes are plain in that text and in no message: English prose
 * left among the code ("'This' does not name a type"), a scope operator
 * written with one colon, a template argument list never closed (both
 * "template argument 1 is invalid"). The message names whatever the parser
 * tripped over; the quoted line says the text is not C++ at all. The facts
 * are lines beginning "npukb-line: "; the rules file decides their
 * category. */
#ifndef NPUKB_CLASSIFY_LINE_FACTS_H
#define NPUKB_CLASSIFY_LINE_FACTS_H

#include <stddef.h>

#define LINE_FACT_PREFIX "npukb-line: "

/* error: the normalised error line; notes: the normalised lines under it
 * (the quoted source line among them). Returns one fact line (malloc'd),
 * or NULL when no source line is quoted or it says nothing decisive. */
char *classify_line_facts(const char *error, char *const *notes, size_t nnotes);

#endif
