/*
 * base64.h - the standard Base64 alphabet (RFC 4648 section 4, '+' '/'),
 * as Hive's text format stores BINARY values: written with padding and
 * no line breaks (commons-codec Base64.encodeBase64), read with Java's
 * strict java.util.Base64 decoder (LazyBinary).  Pure functions, no
 * allocation.
 */
#ifndef COMB_BASE64_H
#define COMB_BASE64_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the encoding of n bytes (4 per 3, padded). */
size_t comb_base64_encoded_len(size_t n);

/* Encode src[0..n) into dst, which holds comb_base64_encoded_len(n)
 * bytes (no NUL is written). */
void comb_base64_encode(const unsigned char *src, size_t n, char *dst);

/*
 * Decode src[0..n) as java.util.Base64.getDecoder() does: only the
 * alphabet (no blanks, no line breaks); '=' ends the data and must pad
 * the final unit exactly ("xx==", "xxx="), but padding may be left out
 * ("xx", "xxx"); a final unit of one character, a '=' at the start of a
 * unit and anything after the padding are errors; unused bits of the
 * last character are ignored.  dst holds at least n * 3 / 4 bytes.
 * Returns false for text Java would refuse; *out_len = bytes decoded.
 */
bool comb_base64_decode(const char *src, size_t n, unsigned char *dst,
                        size_t *out_len);

#endif
