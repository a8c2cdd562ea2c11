/* call_facts.h - what g++'s "no matching function" diagnostics say about a
 * call, in words the note rules of rules.conf can match.
 *
 * g++ prints the call's argument types on the error line and every
 * candidate's parameter types on its notes; which note g++ prints first for
 * a candidate depends on its deduction order, not on the mistake. Comparing
 * the two lists says what a careful reader would: no candidate takes that
 * many arguments, two arguments are in each other's place, or an argument
 * is passed by its address where its value goes. The facts are
 * lines beginning "npukb-call: "; the rules file decides their category. */
#ifndef NPUKB_CLASSIFY_CALL_FACTS_H
#define NPUKB_CLASSIFY_CALL_FACTS_H

#include <stddef.h>

#define CALL_FACT_PREFIX "npukb-call: "

/* error: the normalised error line; notes: the normalised lines under it.
 * Returns the fact lines (malloc'd, '\n'-separated), or NULL when the
 * lines are not a g++ overload failure or say nothing decisive. */
char *classify_call_facts(const char *error, char *const *notes, size_t nnotes);

/* Two conversion errors in a row for one function (g++ on a call of a
 * function that is no template: "invalid conversion from 'A' to 'B'" and
 * "initializing argument N of 'F'"), each argument of the kind the other
 * one's parameter takes: the two arguments are in each other's place.
 * error/notes: the first error and the lines under it; next_error and
 * next_notes: the error after it and its lines. Returns the fact line
 * (malloc'd) or NULL. */
char *classify_conversion_facts(const char *error, char *const *notes, size_t nnotes,
				const char *next_error, char *const *next_notes, size_t nnext);

#endif
