/*
 * textval.h - one primitive value from its text, as Hive's lazy objects
 * read a field (LazyBoolean, LazyInteger .. LazyLong, LazyFloat /
 * LazyDouble, LazyHiveDecimal, LazyDate, LazyTimestamp, LazyHiveVarchar /
 * LazyHiveChar), into a row of a batch vector.  Shared by text/ (fields of
 * TEXTFILE rows, where a value that does not read is NULL) and stream/
 * (records of an ingest stream, where it is an error): the rules are the
 * same, the callers decide what a refusal means.  No state; the sized
 * strings allocate in the caller's arena only when bytes must change.
 */
#ifndef COMB_TEXTVAL_H
#define COMB_TEXTVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"

/*
 * s[0..n) as a value of t's kind into v's row `row` (the payload arrays
 * only; the null mask is the caller's):
 *   boolean    "true" / "false" in any case
 *   integers   common/numparse.h's comb_parse_int (`trim`: blanks around
 *              the number allowed, as CAST; text files do not trim)
 *   float, double  comb_parse_double
 *   decimal    comb_dec_parse rounded HALF_UP to t's scale, refused when
 *              it needs more digits than t's precision
 *   date       8 bytes at least (isDateMaybe), comb_date_parse
 *   timestamp  8 bytes at least, comb_timestamp_parse
 * False when the text is not such a value, and for every other kind.
 */
bool comb_textval_read(const CombType *t, const char *s, size_t n, bool trim,
                       CombVector *v, int row);

/*
 * The bytes s[0..n) as a VARCHAR(n) / CHAR(n) value of t, as Hadoop's
 * Text.decode and Hive's HiveBaseChar do: malformed UTF-8 replaced by
 * U+FFFD (Java's decoder: the longest start of a valid sequence is one
 * replacement, an encoded surrogate as a whole), cut to t->max_length
 * characters (code points), CHAR padded with blanks to its length.  *out
 * is s itself when nothing changes, else bytes in arena a.  0 or
 * COMB_ENOMEM.
 */
int comb_textval_sized(const CombType *t, const unsigned char *s, size_t n,
                       CombArena *a, CombStr *out);

/* s[0..n) equals the lower-case ASCII word w in any case. */
bool comb_textval_word(const unsigned char *s, size_t n, const char *w);

#endif
