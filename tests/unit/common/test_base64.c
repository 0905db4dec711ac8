/* Base64 as Hive's text format writes (commons-codec) and reads
 * (java.util.Base64's strict decoder) BINARY values (common/base64.h). */
#include "unit.h"
#include "common/base64.h"

static const char *enc(const char *s)
{
    static char out[64];
    size_t n = strlen(s);
    comb_base64_encode((const unsigned char *)s, n, out);
    out[comb_base64_encoded_len(n)] = '\0';
    return out;
}

/* The decoding of s, "!" when Java's decoder would refuse it. */
static const char *dec(const char *s)
{
    static char out[64];
    size_t n;
    if (!comb_base64_decode(s, strlen(s), (unsigned char *)out, &n))
        return "!";
    out[n] = '\0';
    return out;
}

TEST(base64_encode_padded)
{
    CHECK_STR(enc(""), "");
    CHECK_STR(enc("f"), "Zg==");
    CHECK_STR(enc("fo"), "Zm8=");
    CHECK_STR(enc("foo"), "Zm9v");
    CHECK_STR(enc("foob"), "Zm9vYg==");
    CHECK_STR(enc("\xff\xfe\xfd"), "//79");
}

TEST(base64_decode_like_java_strict)
{
    CHECK_STR(dec(""), "");
    CHECK_STR(dec("Zg=="), "f");
    CHECK_STR(dec("Zm8="), "fo");
    CHECK_STR(dec("Zm9vYg=="), "foob");
    /* padding may be left out */
    CHECK_STR(dec("Zg"), "f");
    CHECK_STR(dec("Zm8"), "fo");
    /* unused low bits are not checked */
    CHECK_STR(dec("Zh"), "f");
    /* refused: one character in the last unit, bad padding, blanks,
     * other alphabets, data after the padding */
    CHECK_STR(dec("Z"), "!");
    CHECK_STR(dec("Zm9vY"), "!");
    CHECK_STR(dec("Zg="), "!");
    CHECK_STR(dec("Z==="), "!");
    CHECK_STR(dec("="), "!");
    CHECK_STR(dec("Zm9v="), "!");
    CHECK_STR(dec("Zg==Zg=="), "!");
    CHECK_STR(dec("Zm9v\n"), "!");
    CHECK_STR(dec("Zm 9v"), "!");
    CHECK_STR(dec("Zm-_"), "!");
    CHECK_STR(dec("hello"), "!");
    CHECK_STR(dec("abcd"), "i\xb7\x1d");
}
