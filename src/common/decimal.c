/*
 * decimal.c - DECIMAL values as 128-bit scaled integers (decimal.h).
 *
 * Values are handled as sign and magnitude.  Every exact path that can
 * outgrow 128 bits (the product of two 38-digit numbers, a dividend scaled
 * up before division, operands brought to a common scale) goes through a
 * private 256-bit unsigned integer of four 64-bit limbs: 10^77 < 2^256, so
 * any 38-digit magnitude times 10^38, or two 38-digit magnitudes
 * multiplied, fits.  No floating point is used except in the two
 * conversions to and from double, which go through decimal text.
 *
 * Parsing follows Hive's FastHiveDecimalImpl.fastSetFromBytes (the parser
 * behind HiveDecimal.create(String)) rule by rule; see dec_scan().
 */
#include "common/decimal.h"

#include "common/textout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define P19 10000000000000000000ULL

/* 10^n as unsigned 128-bit, n = 0..38. */
static const u128 POW10[COMB_DEC_MAX_DIGITS + 1] = {
    1ULL,
    10ULL,
    100ULL,
    1000ULL,
    10000ULL,
    100000ULL,
    1000000ULL,
    10000000ULL,
    100000000ULL,
    1000000000ULL,
    10000000000ULL,
    100000000000ULL,
    1000000000000ULL,
    10000000000000ULL,
    100000000000000ULL,
    1000000000000000ULL,
    10000000000000000ULL,
    100000000000000000ULL,
    1000000000000000000ULL,
    P19,
    (u128)P19 * 10ULL,
    (u128)P19 * 100ULL,
    (u128)P19 * 1000ULL,
    (u128)P19 * 10000ULL,
    (u128)P19 * 100000ULL,
    (u128)P19 * 1000000ULL,
    (u128)P19 * 10000000ULL,
    (u128)P19 * 100000000ULL,
    (u128)P19 * 1000000000ULL,
    (u128)P19 * 10000000000ULL,
    (u128)P19 * 100000000000ULL,
    (u128)P19 * 1000000000000ULL,
    (u128)P19 * 10000000000000ULL,
    (u128)P19 * 100000000000000ULL,
    (u128)P19 * 1000000000000000ULL,
    (u128)P19 * 10000000000000000ULL,
    (u128)P19 * 100000000000000000ULL,
    (u128)P19 * 1000000000000000000ULL,
    (u128)P19 * P19,
};

/* Largest decimal magnitude: 38 nines. */
#define DEC_MAX (POW10[COMB_DEC_MAX_DIGITS] - 1)

/* ---- 256-bit unsigned helper ------------------------------------------ */

/* A 256-bit unsigned integer, least significant limb first. */
typedef struct {
    uint64_t limb[4];
} U256;

static U256 u256_from(u128 v)
{
    U256 r = {{(uint64_t)v, (uint64_t)(v >> 64), 0, 0}};
    return r;
}

static bool u256_fits_u128(U256 a)
{
    return a.limb[2] == 0 && a.limb[3] == 0;
}

static u128 u256_low(U256 a)
{
    return ((u128)a.limb[1] << 64) | a.limb[0];
}

static int u256_cmp(U256 a, U256 b)
{
    for (int i = 3; i >= 0; i--)
        if (a.limb[i] != b.limb[i])
            return a.limb[i] < b.limb[i] ? -1 : 1;
    return 0;
}

/* a + b; callers keep the sum below 2^256. */
static U256 u256_add(U256 a, U256 b)
{
    U256 r;
    uint64_t carry = 0;
    for (int i = 0; i < 4; i++) {
        u128 t = (u128)a.limb[i] + b.limb[i] + carry;
        r.limb[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    return r;
}

/* a * b (a: 4 limbs, b: 128 bits); false when it needs more than 256
 * bits.  Schoolbook on 64-bit limbs: each partial sum fits 128 bits. */
static bool u256_mul(U256 a, u128 b, U256 *out)
{
    uint64_t bl[2] = {(uint64_t)b, (uint64_t)(b >> 64)};
    uint64_t r[6] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 2; j++) {
            u128 t = (u128)a.limb[i] * bl[j] + r[i + j] + carry;
            r[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        r[i + 2] = carry;
    }
    memcpy(out->limb, r, sizeof out->limb);
    return r[4] == 0 && r[5] == 0;
}

/* a * 10^k for any k >= 0; false on overflow beyond 256 bits. */
static bool u256_mul_pow10(U256 a, int k, U256 *out)
{
    *out = a;
    while (k > 0) {
        int step = k > COMB_DEC_MAX_DIGITS ? COMB_DEC_MAX_DIGITS : k;
        if (!u256_mul(*out, POW10[step], out))
            return false;
        k -= step;
    }
    return true;
}

/* n / d for a divisor below 2^64, limb by limb; returns the remainder. */
static uint64_t u256_divmod_small(U256 n, uint64_t d, U256 *q)
{
    u128 rem = 0;
    for (int i = 3; i >= 0; i--) {
        u128 cur = (rem << 64) | n.limb[i];
        q->limb[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}

/* n / d for a 128-bit divisor d > 0: shift-and-subtract from the highest
 * set bit of n.  The running remainder stays below d and is a prefix of
 * n, so shifting it left cannot lose a bit as long as d <= 2^127 or
 * n < 2^128; every caller keeps to that (a divisor scaled past 2^127
 * only ever meets an unscaled dividend). */
static U256 u256_divmod(U256 n, u128 d, u128 *rem)
{
    U256 q = {{0, 0, 0, 0}};
    if (d >> 64 == 0) {
        *rem = u256_divmod_small(n, (uint64_t)d, &q);
        return q;
    }
    u128 r = 0;
    int top = 3;
    while (top > 0 && n.limb[top] == 0)
        top--;
    for (int bit = top * 64 + 63; bit >= 0; bit--) {
        r = (r << 1) | ((n.limb[bit / 64] >> (bit % 64)) & 1);
        if (r >= d) {
            r -= d;
            q.limb[bit / 64] |= 1ULL << (bit % 64);
        }
    }
    *rem = r;
    return q;
}

/* n / 10^k rounded HALF_UP, as floor((n + 10^k / 2) / 10^k).  n is at
 * most 2^254 (a product of two signed 128-bit magnitudes) and half of
 * 10^77 is below 2^255, so the sum fits; from k = 78 on the quotient
 * rounds to 0. */
static U256 u256_round_pow10(U256 n, int k)
{
    if (k <= 0)
        return n;
    if (k > 77)
        return u256_from(0);
    U256 half;
    u256_mul_pow10(u256_from(5), k - 1, &half);
    U256 sum = u256_add(n, half);
    while (k > 0) {
        int step = k > 19 ? 19 : k;
        u256_divmod_small(sum, (uint64_t)POW10[step], &sum);
        k -= step;
    }
    return sum;
}

/* ---- sign and magnitude ------------------------------------------------ */

static u128 mag(comb_i128 u)
{
    return u < 0 ? -(u128)u : (u128)u;
}

/* The signed value of a magnitude that fits 38 digits; false otherwise. */
static bool dec_signed(bool negative, u128 m, comb_i128 *out)
{
    if (m > DEC_MAX)
        return false;
    *out = negative ? -(comb_i128)m : (comb_i128)m;
    return true;
}

static bool dec_signed_wide(bool negative, U256 m, comb_i128 *out)
{
    return u256_fits_u128(m) && dec_signed(negative, u256_low(m), out);
}

static int mag_digits(u128 m)
{
    int n = 1;
    while (n <= COMB_DEC_MAX_DIGITS && m >= POW10[n])
        n++;
    return n;
}

/* m / 10^k rounded HALF_UP, k >= 0. */
static u128 mag_round(u128 m, int k)
{
    if (k == 0)
        return m;
    if (k > COMB_DEC_MAX_DIGITS) /* m < 3.5 * 10^38 < 0.5 * 10^39 */
        return 0;
    u128 q = m / POW10[k], r = m % POW10[k];
    return r >= POW10[k] - r ? q + 1 : q;
}

/* ---- public: basics ---------------------------------------------------- */

comb_i128 comb_dec_pow10(int n)
{
    if (n < 0 || n > COMB_DEC_MAX_DIGITS)
        return 0;
    return (comb_i128)POW10[n];
}

int comb_dec_digits(comb_i128 u)
{
    return mag_digits(mag(u));
}

bool comb_dec_fits(comb_i128 u, int precision)
{
    if (precision < 0)
        return false;
    return precision > COMB_DEC_MAX_DIGITS || mag(u) < POW10[precision];
}

bool comb_dec_rescale(comb_i128 u, int from, int to, comb_i128 *out)
{
    u128 m = mag(u);
    int k = to - from;
    if (k <= 0)
        return dec_signed(u < 0, mag_round(m, -k), out);
    if (m == 0) {
        *out = 0;
        return true;
    }
    if (k > COMB_DEC_MAX_DIGITS || m >= POW10[COMB_DEC_MAX_DIGITS - k])
        return false;
    return dec_signed(u < 0, m * POW10[k], out);
}

/* ---- parse ------------------------------------------------------------- */

/* The number in a decimal text, as Hive's parser reads it. */
typedef struct {
    bool negative;
    u128 digits;     /* at most 38 significant digits of the mantissa */
    int frac_digits; /* how many of them follow the point */
    bool round_up;   /* the first dropped digit (the 39th) was >= 5 */
    int exponent;
} DecText;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/*
 * Hive's grammar: blanks (only ' '), [+|-], integer digits, optional '.'
 * and fraction digits (one digit at least in all), optional e/E, [+|-] and
 * exponent digits, blanks.  Leading integer zeros are not significant;
 * from the first significant digit (or the first fraction digit when the
 * integer part is zero) 38 digits are kept: a 39th integer digit is an
 * error, further fraction digits are dropped rounding HALF_UP on the
 * first of them.  The exponent may have two significant digits; its
 * digits may be missing when blanks follow (Hive accepts "1e ").
 */
static bool dec_scan(const char *s, size_t n, DecText *t)
{
    size_t i = 0;
    memset(t, 0, sizeof *t);
    while (i < n && s[i] == ' ')
        i++;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        t->negative = s[i] == '-';
        i++;
    }
    int kept = 0;
    bool any_digit = false;
    for (; i < n && is_digit(s[i]); i++) {
        any_digit = true;
        if (kept == 0 && s[i] == '0')
            continue;
        if (kept == COMB_DEC_MAX_DIGITS)
            return false;
        t->digits = t->digits * 10 + (unsigned)(s[i] - '0');
        kept++;
    }
    if (i < n && s[i] == '.') {
        bool dropped = false;
        for (i++; i < n && is_digit(s[i]); i++) {
            any_digit = true;
            if (kept == COMB_DEC_MAX_DIGITS) {
                if (!dropped)
                    t->round_up = s[i] >= '5';
                dropped = true;
                continue;
            }
            t->digits = t->digits * 10 + (unsigned)(s[i] - '0');
            kept++;
            t->frac_digits++;
        }
    }
    if (!any_digit)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        bool negative = false;
        int significant = 0;
        if (++i == n)
            return false;
        if (s[i] == '-' || s[i] == '+') {
            negative = s[i] == '-';
            if (++i == n)
                return false;
        }
        for (; i < n && is_digit(s[i]); i++) {
            if (significant == 2)
                return false;
            if (s[i] != '0' || t->exponent != 0) {
                t->exponent = t->exponent * 10 + (s[i] - '0');
                significant++;
            }
        }
        if (negative)
            t->exponent = -t->exponent;
    }
    while (i < n && s[i] == ' ')
        i++;
    return i == n;
}

/* Drop fraction zeros at the end (Hive keeps decimals normalized). */
static void strip_zeros(u128 *m, int *scale)
{
    while (*scale > 0 && *m != 0 && *m % 10 == 0) {
        *m /= 10;
        (*scale)--;
    }
    if (*m == 0)
        *scale = 0;
}

/* The value of a scanned text as HiveDecimal.create builds it: a
 * magnitude of at most 38 digits and a scale 0..38, trailing fraction
 * zeros removed.  False when the integer part needs more than 38
 * digits. */
static bool dec_text_value(const DecText *t, u128 *m_out, int *scale_out)
{
    u128 m = t->digits + (t->round_up ? 1 : 0);
    int scale = t->frac_digits;
    if (m > DEC_MAX) { /* 38 nines rounded up */
        if (scale == 0)
            return false;
        m /= 10;
        scale--;
    }
    strip_zeros(&m, &scale);
    if (m == 0) {
        *m_out = 0;
        *scale_out = 0;
        return true;
    }
    int e = t->exponent;
    if (e > 0) {
        if (mag_digits(m) - scale + e > COMB_DEC_MAX_DIGITS)
            return false;
        if (e >= scale) {
            m *= POW10[e - scale];
            scale = 0;
        } else {
            scale -= e;
        }
    } else if (e < 0) {
        scale -= e;
        if (scale > COMB_DEC_MAX_DIGITS) {
            int drop = scale - COMB_DEC_MAX_DIGITS;
            /* Hive zeroes the value outright when 38 or more digits go */
            m = drop >= COMB_DEC_MAX_DIGITS ? 0 : mag_round(m, drop);
            scale = COMB_DEC_MAX_DIGITS;
        }
    }
    strip_zeros(&m, &scale);
    *m_out = m;
    *scale_out = scale;
    return true;
}

bool comb_dec_parse(const char *s, size_t n, int scale, comb_i128 *out)
{
    DecText t;
    u128 m;
    int from;
    comb_i128 value;
    if (!dec_scan(s, n, &t) || !dec_text_value(&t, &m, &from) ||
        !dec_signed(t.negative, m, &value))
        return false;
    return comb_dec_rescale(value, from, scale, out);
}

bool comb_dec_parse_exact(const char *s, size_t n, comb_i128 *out,
                          int *precision, int *scale)
{
    DecText t;
    u128 m;
    int s_out;
    if (!dec_scan(s, n, &t) || !dec_text_value(&t, &m, &s_out) ||
        !dec_signed(t.negative, m, out))
        return false;
    int digits = mag_digits(m);
    *precision = digits > s_out ? digits : s_out;
    *scale = s_out;
    return true;
}

/* ---- format ------------------------------------------------------------ */

size_t comb_dec_format(comb_i128 u, int scale, char *buf, size_t cap)
{
    char rev[COMB_DEC_MAX_DIGITS + 2]; /* digits, least significant first */
    int n_digits = 0;
    u128 m = mag(u);
    do {
        rev[n_digits++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m != 0);

    CombTextOut o = comb_textout(buf, cap);
    if (u < 0)
        comb_textout_char(&o, '-');
    int frac = scale > 0 ? scale : 0;
    if (n_digits <= frac)
        comb_textout_char(&o, '0');
    for (int i = n_digits - 1; i >= frac; i--)
        comb_textout_char(&o, rev[i]);
    if (scale < 0 && u != 0) /* a negative scale means trailing zeros */
        for (int i = 0; i < -scale; i++)
            comb_textout_char(&o, '0');
    if (frac > 0) {
        comb_textout_char(&o, '.');
        for (int i = frac - 1; i >= 0; i--)
            comb_textout_char(&o, i < n_digits ? rev[i] : '0');
    }
    return comb_textout_finish(&o);
}

size_t comb_dec_format_normalized(comb_i128 u, int scale, char *buf, size_t cap)
{
    size_t len = comb_dec_format(u, scale, buf, cap);
    if (scale <= 0 || len >= cap)
        return len;
    while (len > 0 && buf[len - 1] == '0')
        len--;
    if (len > 0 && buf[len - 1] == '.')
        len--;
    buf[len] = '\0';
    return len;
}

/* ---- compare and arithmetic ------------------------------------------- */

int comb_dec_cmp(comb_i128 a, int sa, comb_i128 b, int sb)
{
    int sign_a = (a > 0) - (a < 0), sign_b = (b > 0) - (b < 0);
    comb_i128 scaled;
    /* the common cases in 128 bits: one scale (a column and a constant
     * of its type), or the smaller-scale operand scaled up without
     * overflow (l_quantity < 24) */
    if (sa == sb)
        return (a > b) - (a < b);
    if (sa < sb && sb - sa <= COMB_DEC_MAX_DIGITS &&
        !__builtin_mul_overflow(a, (comb_i128)POW10[sb - sa], &scaled))
        return (scaled > b) - (scaled < b);
    if (sb < sa && sa - sb <= COMB_DEC_MAX_DIGITS &&
        !__builtin_mul_overflow(b, (comb_i128)POW10[sa - sb], &scaled))
        return (a > scaled) - (a < scaled);
    if (sign_a != sign_b || sign_a == 0)
        return sign_a < sign_b ? -1 : sign_a > sign_b;
    U256 ma = u256_from(mag(a)), mb = u256_from(mag(b));
    int c;
    /* only the operand with the smaller scale is scaled up; if that
     * overflows 256 bits it is the larger one */
    if (sa < sb)
        c = u256_mul_pow10(ma, sb - sa, &ma) ? u256_cmp(ma, mb) : 1;
    else
        c = u256_mul_pow10(mb, sa - sb, &mb) ? u256_cmp(ma, mb) : -1;
    return sign_a < 0 ? -c : c;
}

bool comb_dec_add(comb_i128 a, comb_i128 b, comb_i128 *out)
{
    comb_i128 r;
    if (__builtin_add_overflow(a, b, &r) || mag(r) > DEC_MAX)
        return false;
    *out = r;
    return true;
}

bool comb_dec_sub(comb_i128 a, comb_i128 b, comb_i128 *out)
{
    comb_i128 r;
    if (__builtin_sub_overflow(a, b, &r) || mag(r) > DEC_MAX)
        return false;
    *out = r;
    return true;
}

bool comb_dec_mul(comb_i128 a, comb_i128 b, int drop, comb_i128 *out)
{
    U256 product;
    u256_mul(u256_from(mag(a)), mag(b), &product); /* < 2^254: exact */
    bool negative = (a < 0) != (b < 0);
    if (drop < 0) {
        if (!u256_mul_pow10(product, -drop, &product))
            return false;
        return dec_signed_wide(negative, product, out);
    }
    return dec_signed_wide(negative, u256_round_pow10(product, drop), out);
}

bool comb_dec_div(comb_i128 a, int sa, comb_i128 b, int sb, int scale,
                  comb_i128 *out)
{
    if (b == 0)
        return false;
    bool negative = (a < 0) != (b < 0);
    /* result = a * 10^e / b with e = scale - sa + sb */
    int e = scale - sa + sb;
    U256 num = u256_from(mag(a)), den = u256_from(mag(b));
    if (e > 0 && !u256_mul_pow10(num, e, &num))
        return false; /* >= 2^256 / 10^38: far beyond 38 digits */
    if (e < 0 && !u256_mul_pow10(den, -e, &den)) {
        *out = 0; /* the divisor dwarfs any 128-bit dividend */
        return true;
    }
    U256 q;
    if (u256_fits_u128(den)) {
        u128 d = u256_low(den), r;
        q = u256_divmod(num, d, &r);
        if (r >= d - r)
            q = u256_add(q, u256_from(1));
    } else {
        /* den >= 2^128 > num (num was not scaled, e < 0): quotient 0,
         * rounded up when num is at least half of den */
        q = u256_from(u256_cmp(u256_add(num, num), den) >= 0 ? 1 : 0);
    }
    return dec_signed_wide(negative, q, out);
}

bool comb_dec_mod(comb_i128 a, int sa, comb_i128 b, int sb, comb_i128 *out)
{
    if (b == 0)
        return false;
    int scale = sa > sb ? sa : sb;
    U256 ma, mb;
    if (!u256_mul_pow10(u256_from(mag(a)), scale - sa, &ma) ||
        !u256_mul_pow10(u256_from(mag(b)), scale - sb, &mb))
        return false;
    /* Only one operand was scaled up, and the smaller of the two fits
     * 128 bits either way: the unscaled one is a 128-bit magnitude, and
     * a scaled one below it is too.  So is mb when it divides. */
    u128 r;
    if (u256_cmp(ma, mb) < 0)
        r = u256_low(ma);
    else
        u256_divmod(ma, u256_low(mb), &r);
    return dec_signed(a < 0, r, out);
}

/* ---- conversions ------------------------------------------------------- */

double comb_dec_to_double(comb_i128 u, int scale)
{
    /* strtod rounds decimal text correctly: the text is the exact path to
     * the nearest double */
    char digits[48], text[64];
    comb_dec_format(u, 0, digits, sizeof digits);
    snprintf(text, sizeof text, "%se%d", digits, -scale);
    return strtod(text, NULL);
}

/* The shortest "%.*e" text of d that reads back as d; 17 significant
 * digits always do. */
static void shortest_text(double d, char *buf, size_t cap)
{
    for (int prec = 0; prec < 16; prec++) {
        snprintf(buf, cap, "%.*e", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
    snprintf(buf, cap, "%.16e", d);
}

bool comb_dec_from_double(double d, int scale, comb_i128 *out)
{
    if (!isfinite(d))
        return false;
    char text[40];
    shortest_text(d, text, sizeof text);
    return comb_dec_parse(text, strlen(text), scale, out);
}

bool comb_dec_to_int64(comb_i128 u, int scale, int64_t *out)
{
    u128 m = mag(u);
    if (scale > COMB_DEC_MAX_DIGITS)
        m = 0;
    else if (scale > 0)
        m /= POW10[scale];
    else if (scale < 0 && m != 0) {
        if (-scale > 19 || m > (u128)UINT64_MAX / POW10[-scale])
            return false;
        m *= POW10[-scale];
    }
    if (u < 0) {
        if (m > (u128)INT64_MAX + 1)
            return false;
        *out = m == (u128)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
    } else {
        if (m > (u128)INT64_MAX)
            return false;
        *out = (int64_t)m;
    }
    return true;
}

int comb_dec_to_bytes(comb_i128 u, unsigned char out[16])
{
    unsigned char be[16];
    u128 bits = (u128)u;
    for (int i = 15; i >= 0; i--) {
        be[i] = (unsigned char)bits;
        bits >>= 8;
    }
    /* drop a leading byte while the next one still carries the sign */
    int start = 0;
    while (start < 15 &&
           ((be[start] == 0x00 && !(be[start + 1] & 0x80)) ||
            (be[start] == 0xff && (be[start + 1] & 0x80))))
        start++;
    memcpy(out, be + start, (size_t)(16 - start));
    return 16 - start;
}
