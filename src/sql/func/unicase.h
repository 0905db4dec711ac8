/*
 * unicase.h - upper and lower case of UTF-8 text as Hive's upper() and
 * lower() give it: Java's String.toUpperCase / toLowerCase outside the
 * Turkish and Lithuanian locales, with the full mappings that change the
 * length ('ß' -> "SS", 'ﬁ' -> "FI") and the final-sigma rule.  Bytes that
 * are not UTF-8 become U+FFFD, as they do when Hive decodes the text.
 */
#ifndef COMB_SQL_UNICASE_H
#define COMB_SQL_UNICASE_H

#include <stdbool.h>

#include "common/arena.h"
#include "common/batch.h"

/* The converted text in arena a (*out borrows it).  COMB_ENOMEM. */
int sql_utf8_case(CombStr in, bool upper, CombArena *a, CombStr *out);

#endif
