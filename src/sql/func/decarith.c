/*
 * decarith.c - DECIMAL + - * / % as Hive computes them (GenericUDFOPPlus,
 * Minus, Multiply, Divide, Mod over HiveDecimal, then the result type's
 * enforcePrecisionScale).
 *
 * HiveDecimal keeps at most 38 digits: an exact result with more is
 * rounded HALF_UP to 38 - (integer digits) fraction digits (NULL with more
 * than 38 integer digits), and division first rounds HALF_UP to 38
 * fraction digits (BigDecimal.divide(d, 38, HALF_UP)).  The result type's
 * scale then rounds HALF_UP once more.  Rounding twice differs from
 * rounding once: 127 / 0.000000000000000000011 is ...45454545|4545 and
 * Hive's decimal(38,14) answer ends in 546, not 545.  So results that
 * need more than 38 digits are worked out exactly, as decimal digits,
 * and rounded in Hive's steps; results that fit 38 digits take the direct
 * routines of common/decimal.h (one rounding, the same answer).
 */
#include "sql/func/expr.h"

#include <stdint.h>
#include <string.h>

#include "common/decimal.h"

typedef unsigned __int128 u128;

#define MAXD COMB_DEC_MAX_DIGITS
#define P19 10000000000000000000ULL

/* A magnitude as decimal digits, most significant first, `scale` of them
 * after the point. */
typedef struct Digits {
    int n;
    int scale;
    unsigned char d[4 * MAXD + 8];
} Digits;

static int max_int(int a, int b) { return a > b ? a : b; }
static int min_int(int a, int b) { return a < b ? a : b; }

static u128 mag(comb_i128 u)
{
    return u < 0 ? (u128)0 - (u128)u : (u128)u;
}

/* Append the `width` decimal digits of v (zero padded; width 0: as many
 * as v has, none for 0). */
static void put_digits(Digits *x, u128 v, int width)
{
    unsigned char tmp[2 * MAXD];
    int k = 0;
    while (v || k < width) {
        tmp[k++] = (unsigned char)(v % 10);
        v /= 10;
    }
    while (k > 0)
        x->d[x->n++] = tmp[--k];
}

/* One unit more in the last digit kept (a carry may add a digit). */
static void add_unit(Digits *x)
{
    int k = x->n - 1;
    while (k >= 0 && x->d[k] == 9)
        x->d[k--] = 0;
    if (k >= 0) {
        x->d[k]++;
        return;
    }
    memmove(x->d + 1, x->d, (size_t)x->n);
    x->d[0] = 1;
    x->n++;
}

/* Round HALF_UP to `scale` fraction digits (scale < x->scale). */
static void round_to(Digits *x, int scale)
{
    int keep = x->n - (x->scale - scale);
    bool up = keep >= 0 && keep < x->n && x->d[keep] >= 5;
    x->n = keep < 0 ? 0 : keep;
    x->scale = scale;
    if (up)
        add_unit(x);
}

/* HiveDecimal's 38 digits, then enforcePrecisionScale(p, s): the value
 * at scale s, false when NULL. */
static bool finish(Digits *x, bool negative, int p, int s, comb_i128 *out)
{
    int lead = 0, int_digits, max_scale;
    u128 v = 0;
    while (lead < x->n && x->d[lead] == 0)
        lead++;
    memmove(x->d, x->d + lead, (size_t)(x->n - lead));
    x->n -= lead;
    int_digits = x->n - x->scale;
    if (int_digits > MAXD)
        return false;
    max_scale = int_digits >= 1 ? MAXD - int_digits : MAXD;
    if (x->scale > max_scale)
        round_to(x, max_scale);
    if (x->scale > s)
        round_to(x, s);
    if (x->n - x->scale > p - s)
        return false;
    for (int k = 0; k < x->n; k++)
        v = v * 10 + x->d[k];
    for (int k = x->scale; k < s; k++)
        v *= 10;
    *out = negative ? -(comb_i128)v : (comb_i128)v;
    return true;
}

/* (2 * r) mod d and its quotient bit, for r < d < 2^127. */
static u128 twice(u128 r, u128 d, unsigned *q)
{
    r <<= 1;
    *q = r >= d;
    return *q ? r - d : r;
}

/* The next digit of r / d (r < d < 10^38): floor(10 r / d), and r becomes
 * 10 r mod d, without leaving 128 bits (10 r = 8 r + 2 r). */
static unsigned next_digit(u128 *r, u128 d)
{
    unsigned b1, b2, b3, digit;
    u128 r2 = twice(*r, d, &b1), r4 = twice(r2, d, &b2), r8 = twice(r4, d, &b3);
    u128 sum = r8 + r2;
    digit = (b1 * 4 + b2 * 2 + b3) + b1;   /* floor(8r/d) + floor(2r/d) */
    if (sum >= d) {
        sum -= d;
        digit++;
    }
    *r = sum;
    return digit;
}

/* (a / 10^sa) / (b / 10^sb) rounded HALF_UP to 38 fraction digits. */
static void divide_38(u128 a, int sa, u128 b, int sb, Digits *x)
{
    int e = sb - sa, frac = MAXD + e;   /* fraction digits of a / b needed */
    u128 r = a % b;
    x->n = 0;
    put_digits(x, a / b, 0);
    for (int k = 0; k < frac; k++)
        x->d[x->n++] = (unsigned char)next_digit(&r, b);
    x->scale = MAXD;
    /* a / b has `frac` fraction digits here, times 10^e: scale 38 */
    if (r >= b - r)     /* HALF_UP on what is left: 2r >= b */
        add_unit(x);
}

/* |a| * |b| exactly (up to 76 digits), at scale sa + sb. */
static void multiply(u128 a, int sa, u128 b, int sb, Digits *x)
{
    u128 ah = a / P19, al = a % P19, bh = b / P19, bl = b % P19;
    u128 ll = al * bl, mid = ah * bl + al * bh, hh = ah * bh;
    u128 limb0, limb1, limb2, top;
    limb0 = ll % P19;
    mid += ll / P19;
    limb1 = mid % P19;
    top = hh + mid / P19;
    limb2 = top % P19;
    x->n = 0;
    put_digits(x, top / P19, 0);
    put_digits(x, limb2, 19);
    put_digits(x, limb1, 19);
    put_digits(x, limb0, 19);
    x->scale = sa + sb;
}

/* a +/- b exactly (the sum of two 38-digit values at a common scale may
 * need 39 digits). */
static void add(comb_i128 a, int sa, comb_i128 b, int sb, bool *negative, Digits *x)
{
    int c = max_int(sa, sb);
    Digits ya, yb;
    bool na = a < 0, nb = b < 0, same = na == nb;
    int carry = 0, n;
    ya.n = yb.n = 0;
    put_digits(&ya, mag(a), 0);
    put_digits(&yb, mag(b), 0);
    /* align: pad fractions to c digits, integer parts to one width */
    for (int k = sa; k < c; k++)
        ya.d[ya.n++] = 0;
    for (int k = sb; k < c; k++)
        yb.d[yb.n++] = 0;
    n = max_int(ya.n, yb.n) + 1;
    memmove(ya.d + (n - ya.n), ya.d, (size_t)ya.n);
    memset(ya.d, 0, (size_t)(n - ya.n));
    memmove(yb.d + (n - yb.n), yb.d, (size_t)yb.n);
    memset(yb.d, 0, (size_t)(n - yb.n));
    if (!same && memcmp(ya.d, yb.d, (size_t)n) < 0) {
        Digits t = ya;   /* subtract the smaller magnitude; its sign wins */
        ya = yb;
        yb = t;
        na = nb;
    }
    for (int k = n - 1; k >= 0; k--) {
        int v = same ? ya.d[k] + yb.d[k] + carry : ya.d[k] - yb.d[k] - carry;
        carry = same ? v >= 10 : v < 0;
        x->d[k] = (unsigned char)(same ? v % 10 : (v + 10) % 10);
    }
    x->n = n;
    x->scale = c;
    *negative = na;
}

/* Within 64 bits: products and sums of two such values at scales up to
 * 18 apart cannot leave 128 bits. */
static bool fits_64(comb_i128 v)
{
    return v >= INT64_MIN && v <= INT64_MAX;
}

bool sql_dec_arith(AstOp op, comb_i128 a, int sa, comb_i128 b, int sb,
                   int p, int s, comb_i128 *out)
{
    Digits x;
    comb_i128 r, y, z;
    bool negative = (a < 0) != (b < 0);
    int c;
    switch (op) {
    case AST_OP_MUL:
        /* both within 64 bits at the result's scale: |a * b| < 2^126, an
         * exact product of at most 38 digits */
        if (sa + sb == s && fits_64(a) && fits_64(b)) {
            *out = a * b;
            return comb_dec_fits(*out, p);
        }
        if (comb_dec_digits(a) + comb_dec_digits(b) <= MAXD && sa + sb <= MAXD)
            return comb_dec_mul(a, b, sa + sb - s, out) && comb_dec_fits(*out, p);
        multiply(mag(a), sa, mag(b), sb, &x);
        break;
    case AST_OP_DIV:
        if (b == 0)
            return false;
        divide_38(mag(a), sa, mag(b), sb, &x);
        break;
    case AST_OP_MOD:
        /* the remainder has at most 38 digits: no rounding before s */
        return b != 0 && comb_dec_mod(a, sa, b, sb, &r) &&
               comb_dec_rescale(r, max_int(sa, sb), s, out) && comb_dec_fits(*out, p);
    default:
        if (op == AST_OP_SUB)
            b = -b;
        c = max_int(sa, sb);
        if (c == s && c - min_int(sa, sb) <= 18 && fits_64(a) && fits_64(b)) {
            /* below 2^63 * 10^18 < 2^123 each: the sum is exact */
            *out = a * comb_dec_pow10(c - sa) + b * comb_dec_pow10(c - sb);
            return comb_dec_fits(*out, p);
        }
        if (comb_dec_rescale(a, sa, c, &y) && comb_dec_rescale(b, sb, c, &z) &&
            comb_dec_add(y, z, &r))
            return comb_dec_rescale(r, c, s, out) && comb_dec_fits(*out, p);
        add(a, sa, b, sb, &negative, &x);
        break;
    }
    return finish(&x, negative, p, s, out);
}
