/*
 * duration.h - Hive's time values (HiveConf's TimeValidator settings such
 * as hive.txn.timeout or hive.server2.idle.session.timeout) read from
 * text, for every layer that takes them from --hiveconf, SET or a site
 * file (server/, hms/, sql/).  Pure function, no allocation.
 */
#ifndef COMB_DURATION_H
#define COMB_DURATION_H

#include <stdbool.h>
#include <stdint.h>

/* text as a time in milliseconds: a number, optionally signed, of unit_ms
 * milliseconds (the setting's own unit), or followed by a unit (ns, us,
 * ms, s, m, h, d or their long names, any case: 30s, 5 min, 7d).  The
 * number is whole, as Hive has it, or with a fraction, which comb also
 * takes ("1.5s", "0.1s"; what is below a millisecond is dropped).  Blanks
 * around the number and the unit are allowed.  false, *out untouched,
 * when malformed or beyond what milliseconds hold. */
bool comb_duration_ms(const char *text, int64_t unit_ms, int64_t *out);

#endif
