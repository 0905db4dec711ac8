/*
 * tz.c - the time zones ORC timestamps are written in.  A stripe footer
 * names its writer's zone (Hive 3+ writes "UTC"; older writers their
 * JVM's zone, e.g. "America/Los_Angeles"); the stored seconds count from
 * 2015-01-01 00:00:00 in that zone, and a reader turns them back into the
 * writer's wall clock (ORC's TimestampColumnReader with a GMT reader zone,
 * Hive's reader with useUTCTimestamp).  Zones come from the system's
 * zoneinfo files (RFC 8536 TZif, version 1 to 4, with the POSIX TZ rule of
 * the footer for instants after the last listed transition); the UTC
 * aliases need no file.  Before 1900 a zone's offset is its standard
 * offset of today, as java.util.TimeZone has it (its table starts in
 * 1900), which ORC Java's reader and so Hive use: not the local mean time
 * a zoneinfo file gives for the time before its first transition.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "common/datetime.h"
#include "fs/fs.h"

#include <stdlib.h>
#include <string.h>

#define TZ_DEFAULT_DIR "/usr/share/zoneinfo"
/* More transitions than this only come from a damaged file. */
#define TZ_MAX_TRANSITIONS 100000
#define TZ_MAX_TYPES 256
/* 1900-01-01 00:00:00 UTC, where java.util.TimeZone's table begins */
#define TZ_JAVA_TABLE_START (-2208988800LL)

/* A day of the year in a POSIX TZ rule: Jn (1..365, February 29 never
 * counted), n (0..365, counted) or Mm.w.d (day d of week w of month m, w
 * 5 = the last), plus the local time of day of the change. */
typedef struct TzDay {
    char form;        /* 'J', 'D' (plain n) or 'M' */
    int n, m, w, d;
    int32_t secs;     /* local time of the change, may be < 0 or > 24h */
} TzDay;

typedef struct TzRule {
    int32_t std_off;  /* seconds east of UTC */
    int32_t dst_off;
    bool has_dst;
    TzDay start, end; /* DST begins at start (standard time), ends at end
                         (daylight time) */
} TzRule;

struct OrcTz {
    CombArena arena;  /* the arrays below */
    int n_trans;
    int64_t *trans;   /* transition instants, ascending */
    uint8_t *trans_type;
    int n_types;
    int32_t *type_off;
    uint8_t *type_dst;
    int32_t raw_off;  /* before 1900: the standard offset of today */
    bool has_rule;    /* rule applies after the last transition */
    TzRule rule;
};

/* ------------------------------------------------------------ POSIX rule */

typedef struct TzText {
    const char *p, *end;
} TzText;

static bool tz_digit(const TzText *t)
{
    return t->p < t->end && *t->p >= '0' && *t->p <= '9';
}

static int tz_number(TzText *t, int max)
{
    int v = 0;
    if (!tz_digit(t))
        return -1;
    while (tz_digit(t)) {
        v = v * 10 + (*t->p++ - '0');
        if (v > max)
            return -1;
    }
    return v;
}

/* An abbreviation: three or more letters, or <...> quoted. */
static bool tz_abbrev(TzText *t)
{
    const char *start = t->p;
    if (t->p < t->end && *t->p == '<') {
        while (t->p < t->end && *t->p != '>')
            t->p++;
        if (t->p == t->end)
            return false;
        t->p++;
        return true;
    }
    while (t->p < t->end && ((*t->p >= 'a' && *t->p <= 'z') ||
                             (*t->p >= 'A' && *t->p <= 'Z')))
        t->p++;
    return t->p - start >= 3;
}

/* [+-]hh[:mm[:ss]] as seconds; hours up to 167 (RFC 8536 extension). */
static bool tz_hms(TzText *t, int32_t *out)
{
    int sign = 1, h, m = 0, s = 0;
    if (t->p < t->end && (*t->p == '+' || *t->p == '-'))
        sign = *t->p++ == '-' ? -1 : 1;
    if ((h = tz_number(t, 167)) < 0)
        return false;
    if (t->p < t->end && *t->p == ':') {
        t->p++;
        if ((m = tz_number(t, 59)) < 0)
            return false;
        if (t->p < t->end && *t->p == ':') {
            t->p++;
            if ((s = tz_number(t, 59)) < 0)
                return false;
        }
    }
    *out = sign * (h * 3600 + m * 60 + s);
    return true;
}

static bool tz_day(TzText *t, TzDay *day)
{
    memset(day, 0, sizeof *day);
    day->secs = 2 * 3600;
    if (t->p < t->end && *t->p == 'M') {
        t->p++;
        day->form = 'M';
        if ((day->m = tz_number(t, 12)) < 1 || t->p >= t->end ||
            *t->p++ != '.' || (day->w = tz_number(t, 5)) < 1 ||
            t->p >= t->end || *t->p++ != '.' ||
            (day->d = tz_number(t, 6)) < 0)
            return false;
    } else if (t->p < t->end && *t->p == 'J') {
        t->p++;
        day->form = 'J';
        if ((day->n = tz_number(t, 365)) < 1)
            return false;
    } else {
        day->form = 'D';
        if ((day->n = tz_number(t, 365)) < 0)
            return false;
    }
    if (t->p < t->end && *t->p == '/') {
        t->p++;
        return tz_hms(t, &day->secs);
    }
    return true;
}

/* std offset [dst [offset] [,start[/time],end[/time]]]; a DST zone
 * without dates uses the US rule, as POSIX leaves it to the system. */
static bool tz_rule_parse(const char *s, size_t n, TzRule *r)
{
    TzText t = {s, s + n};
    int32_t west;
    memset(r, 0, sizeof *r);
    if (!tz_abbrev(&t) || !tz_hms(&t, &west))
        return false;
    r->std_off = -west;
    if (t.p == t.end)
        return true;
    if (!tz_abbrev(&t))
        return false;
    r->has_dst = true;
    r->dst_off = r->std_off + 3600;
    if (t.p < t.end && *t.p != ',') {
        if (!tz_hms(&t, &west))
            return false;
        r->dst_off = -west;
    }
    if (t.p == t.end) {
        TzText us = {"M3.2.0,M11.1.0", NULL};
        us.end = us.p + strlen(us.p);
        t = us;
    } else if (*t.p++ != ',') {
        return false;
    }
    if (!tz_day(&t, &r->start) || t.p >= t.end || *t.p++ != ',' ||
        !tz_day(&t, &r->end))
        return false;
    return t.p == t.end;
}

static bool is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days since 1970-01-01 of the rule's day in year y. */
static int64_t tz_day_of(const TzDay *d, int64_t y)
{
    int64_t jan1 = comb_days_from_civil(y, 1, 1);
    if (d->form == 'J')
        return jan1 + d->n - 1 + (is_leap(y) && d->n >= 60);
    if (d->form == 'D')
        return jan1 + d->n;
    int64_t first = comb_days_from_civil(y, d->m, 1);
    int64_t next = d->m == 12 ? comb_days_from_civil(y + 1, 1, 1)
                              : comb_days_from_civil(y, d->m + 1, 1);
    /* 1970-01-01 was a Thursday (4); Sunday is 0 */
    int wd_first = (int)(((first % 7) + 7 + 4) % 7);
    int64_t day = first + (d->d - wd_first + 7) % 7 + (int64_t)(d->w - 1) * 7;
    while (day >= next)
        day -= 7;
    return day;
}

static int32_t tz_rule_offset(const TzRule *r, int64_t t)
{
    if (!r->has_dst)
        return r->std_off;
    int64_t y;
    int m, d;
    comb_civil_from_days(comb_seconds_to_days(t + r->std_off), &y, &m, &d);
    int64_t start = tz_day_of(&r->start, y) * COMB_SECONDS_PER_DAY +
                    r->start.secs - r->std_off;
    int64_t end = tz_day_of(&r->end, y) * COMB_SECONDS_PER_DAY +
                  r->end.secs - r->dst_off;
    bool dst = start < end ? (t >= start && t < end)
                           : !(t >= end && t < start);
    return dst ? r->dst_off : r->std_off;
}

/* ------------------------------------------------------------ TZif file */

typedef struct TzFile {
    const uint8_t *p;
    size_t len, pos;
} TzFile;

static bool tzf_take(TzFile *f, size_t n, const uint8_t **out)
{
    if (n > f->len - f->pos)
        return false;
    *out = f->p + f->pos;
    f->pos += n;
    return true;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

static int64_t be64(const uint8_t *p)
{
    return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

typedef struct TzHeader {
    char version;
    uint32_t isut, isstd, leap, time, type, chars;
} TzHeader;

static bool tzf_header(TzFile *f, TzHeader *h)
{
    const uint8_t *p;
    if (!tzf_take(f, 44, &p) || memcmp(p, "TZif", 4) != 0)
        return false;
    h->version = (char)p[4];
    h->isut = be32(p + 20);
    h->isstd = be32(p + 24);
    h->leap = be32(p + 28);
    h->time = be32(p + 32);
    h->type = be32(p + 36);
    h->chars = be32(p + 40);
    return h->type >= 1 && h->type <= TZ_MAX_TYPES &&
           h->time <= TZ_MAX_TRANSITIONS && h->chars <= 65536 &&
           h->leap <= 65536 && h->isut <= h->type && h->isstd <= h->type;
}

/* The data block after a header; times are 4 or 8 bytes wide. */
static bool tzf_block(TzFile *f, const TzHeader *h, size_t tw, OrcTz *tz)
{
    const uint8_t *times, *idx, *types, *rest;
    size_t rest_len = h->chars + (size_t)h->leap * (tw + 4) + h->isstd +
                      h->isut;
    if (!tzf_take(f, (size_t)h->time * tw, &times) ||
        !tzf_take(f, h->time, &idx) ||
        !tzf_take(f, (size_t)h->type * 6, &types) ||
        !tzf_take(f, rest_len, &rest))
        return false;
    tz->n_trans = (int)h->time;
    tz->n_types = (int)h->type;
    tz->trans = comb_arena_alloc(&tz->arena, (h->time + 1) * sizeof *tz->trans);
    tz->trans_type = comb_arena_alloc(&tz->arena, h->time + 1);
    tz->type_off = comb_arena_alloc(&tz->arena,
                                    h->type * sizeof *tz->type_off);
    tz->type_dst = comb_arena_alloc(&tz->arena, h->type);
    if (!tz->trans || !tz->trans_type || !tz->type_off || !tz->type_dst)
        return false;
    for (uint32_t i = 0; i < h->time; i++) {
        tz->trans[i] = tw == 8 ? be64(times + 8 * i)
                               : (int64_t)(int32_t)be32(times + 4 * i);
        tz->trans_type[i] = idx[i];
        if (idx[i] >= h->type || (i > 0 && tz->trans[i] <= tz->trans[i - 1]))
            return false;
    }
    for (uint32_t i = 0; i < h->type; i++) {
        tz->type_off[i] = (int32_t)be32(types + 6 * i);
        tz->type_dst[i] = types[6 * i + 4];
    }
    return true;
}

/* java.util.TimeZone's raw offset: the standard offset of the rule in
 * force now, else of the last standard time the file lists. */
static int32_t tz_raw_offset(const OrcTz *tz)
{
    if (tz->has_rule)
        return tz->rule.std_off;
    for (int i = tz->n_trans - 1; i >= 0; i--)
        if (!tz->type_dst[tz->trans_type[i]])
            return tz->type_off[tz->trans_type[i]];
    return tz->type_off[0];
}

static bool tzf_parse(TzFile *f, OrcTz *tz)
{
    TzHeader h;
    if (!tzf_header(f, &h))
        return false;
    if (h.version < '2')
        return tzf_block(f, &h, 4, tz);
    /* skip the 32-bit block; the 64-bit one follows its own header */
    const uint8_t *skip;
    size_t v1 = (size_t)h.time * 5 + (size_t)h.type * 6 + h.chars +
                (size_t)h.leap * 8 + h.isstd + h.isut;
    if (!tzf_take(f, v1, &skip) || !tzf_header(f, &h) ||
        !tzf_block(f, &h, 8, tz))
        return false;
    /* footer: "\n<POSIX TZ>\n", possibly empty */
    if (f->pos < f->len && f->p[f->pos] == '\n') {
        const uint8_t *start = f->p + f->pos + 1;
        const uint8_t *nl = memchr(start, '\n', f->len - f->pos - 1);
        if (nl && nl > start)
            tz->has_rule = tz_rule_parse((const char *)start,
                                         (size_t)(nl - start), &tz->rule);
    }
    return true;
}

/* ----------------------------------------------------------------- zones */

static OrcTz *tz_new(void)
{
    OrcTz *tz = comb_calloc(1, sizeof *tz);
    if (tz)
        comb_arena_init(&tz->arena, 4096);
    return tz;
}

void orc_tz_free(OrcTz *tz)
{
    if (!tz)
        return;
    comb_arena_free(&tz->arena);
    comb_free(tz);
}

static bool is_utc_alias(const char *name)
{
    static const char *const utc[] = {"UTC", "GMT", "Etc/UTC", "Etc/GMT",
                                      "Z", "UCT", "Etc/UCT", "GMT0",
                                      "Etc/GMT0", "Universal", "Zulu"};
    for (size_t i = 0; i < sizeof utc / sizeof utc[0]; i++)
        if (strcmp(name, utc[i]) == 0)
            return true;
    return false;
}

/* Zone names come from files: only plain relative paths below the
 * zoneinfo directory may be opened. */
static bool name_is_safe(const char *name)
{
    if (!*name || name[0] == '/' || strlen(name) > 200)
        return false;
    for (const char *p = name; *p; p++) {
        bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                  (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
                  *p == '+' || *p == '/' || *p == '.';
        if (!ok || (p[0] == '.' && (p == name || p[-1] == '/')))
            return false;
    }
    return true;
}

static int tz_from_file(const char *path, OrcTz **out, CombErr *err)
{
    CombArena scratch;
    unsigned char *bytes;
    size_t len;
    OrcTz *tz = tz_new();
    int rc;
    if (!tz)
        return comb_err_nomem(err);
    comb_arena_init(&scratch, 0);
    rc = fs_read_file(path, &scratch, &bytes, &len, err);
    if (rc == COMB_OK) {
        TzFile f = {bytes, len, 0};
        if (!tzf_parse(&f, tz))
            rc = comb_err(err, COMB_ECORRUPT,
                          "time zone file '%s' is not a valid TZif file",
                          path);
        else
            tz->raw_off = tz_raw_offset(tz);
    }
    comb_arena_free(&scratch);
    if (rc) {
        orc_tz_free(tz);
        return rc;
    }
    *out = tz;
    return COMB_OK;
}

static const char *zone_dir(void)
{
    const char *dir = getenv("TZDIR");
    return dir && *dir ? dir : TZ_DEFAULT_DIR;
}

int orc_tz_load(const char *name, OrcTz **out, CombErr *err)
{
    char path[512];
    *out = NULL;
    if (is_utc_alias(name)) {
        *out = tz_new();
        return *out ? COMB_OK : comb_err_nomem(err);
    }
    snprintf(path, sizeof path, "%s/%s", zone_dir(), name);
    if (!name_is_safe(name) || !fs_exists(path) || fs_is_dir(path))
        return comb_err(err, COMB_EUNSUPPORTED,
                        "time zone '%.200s' is not in the time zone "
                        "database (%s)", name, zone_dir());
    return tz_from_file(path, out, err);
}

int orc_tz_local(OrcTz **out, CombErr *err)
{
    const char *tz = getenv("TZ");
    *out = NULL;
    if (tz && *tz == ':')
        tz++;
    if (tz && *tz) {
        OrcTz *z;
        TzRule rule;
        if (tz[0] == '/')
            return tz_from_file(tz, out, err);
        if (orc_tz_load(tz, out, err) == COMB_OK)
            return COMB_OK;
        /* TZ may also be a rule itself ("EST5EDT,M3.2.0,M11.1.0") */
        if (!tz_rule_parse(tz, strlen(tz), &rule))
            return comb_err(err, COMB_EUNSUPPORTED,
                            "the local time zone TZ='%.200s' is neither in "
                            "the time zone database (%s) nor a POSIX rule",
                            tz, zone_dir());
        comb_err_clear(err);
        if (!(z = tz_new()))
            return comb_err_nomem(err);
        z->has_rule = true;
        z->rule = rule;
        *out = z;
        return COMB_OK;
    }
    if (tz || !fs_exists("/etc/localtime"))
        return orc_tz_load("UTC", out, err);  /* TZ="" means UTC */
    return tz_from_file("/etc/localtime", out, err);
}

int32_t orc_tz_offset(const OrcTz *tz, int64_t t)
{
    int lo = 0, hi = tz->n_trans;
    if (tz->n_types == 0)
        return tz->has_rule ? tz_rule_offset(&tz->rule, t) : 0;
    if (t < TZ_JAVA_TABLE_START)
        return tz->raw_off;
    if (tz->n_trans == 0 || t < tz->trans[0])
        return tz->type_off[0];  /* RFC 8536: type 0 before the first */
    if (t >= tz->trans[tz->n_trans - 1] && tz->has_rule)
        return tz_rule_offset(&tz->rule, t);
    /* the last transition at or before t */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (tz->trans[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return tz->type_off[tz->trans_type[lo]];
}

bool orc_tz_fixed(const OrcTz *tz, int32_t *off)
{
    if (tz->n_types != 0 || (tz->has_rule && tz->rule.has_dst))
        return false;
    *off = tz->has_rule ? tz->rule.std_off : 0;
    return true;
}

int64_t orc_tz_from_local(const OrcTz *tz, int64_t w)
{
    int64_t t = w - orc_tz_offset(tz, w);
    int32_t off = orc_tz_offset(tz, t);
    return w - off;
}
