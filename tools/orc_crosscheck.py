#!/usr/bin/env python3
"""Cross-check comb's ORC files with Apache ORC C++'s tools.

Run through tools/orc_crosscheck.sh (which finds the tools and comb and
says how ORC C++ was built).  This script:

1. generates rows of every column type comb supports (NULLs at every
   level, NaN/Inf/-0.0, integer extremes, dates and timestamps before
   1970 and 1582, 38-digit decimals, bytes that need escaping, runs for
   the RLE encoders), loads them into TEXTFILE staging tables and copies
   them into full-ACID, insert-only and plain ORC tables, one per
   compression codec, then UPDATEs, DELETEs and INSERT OVERWRITEs some;
2. for every ORC data file compares, row by row and value by value:
   orc-contents (ORC C++) with `comb orcfiledump -d` (comb's reader);
3. for every table compares the rows ORC C++ sees (ACID delete events
   applied) with comb's own SELECT, matched by ROW__ID or id, and comb's
   SELECT with the generated rows;
4. compares column statistics, per stripe and per file, between
   orc-statistics (ORC C++), `comb orcfiledump` and what the rows imply;
5. checks the metadata: codec, row and stripe counts, the ACID key
   index and stats;
6. the other way round: reads files ORC C++'s csv-import wrote (three
   writer zones) as an external table, copies them into a full-ACID one
   and checks both as above; and compares both readers on the first rows
   and the statistics of Apache ORC's example files (../shared/testdata).

Only the Python 3 standard library.  Exit status 1 on any mismatch.
tools/README.md says what is compared how, and what is not.
"""

import argparse
import csv
import io
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from decimal import Decimal, getcontext

getcontext().prec = 100

CODECS = ["NONE", "ZLIB", "SNAPPY", "LZ4", "ZSTD"]
KINDS = ["acid", "insert_only", "plain"]

# --------------------------------------------------------------- types

INT_RANGE = {"tinyint": 8, "smallint": 16, "int": 32, "bigint": 64}
PRIMS = {"boolean", "tinyint", "smallint", "int", "bigint", "float",
         "double", "string", "binary", "date", "timestamp"}
STRS = {"string", "varchar", "char"}


class T:
    """A type tree; column ids are pre-order from the root (0)."""

    def __init__(self, kind, children=(), names=(), prec=0, scale=0,
                 length=0):
        self.kind = kind
        self.children = list(children)
        self.names = list(names)
        self.prec = prec
        self.scale = scale
        self.length = length
        self.id = 0

    def number(self, first=0):
        self.id = first
        nxt = first + 1
        for c in self.children:
            nxt = c.number(nxt)
        return nxt

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def __str__(self):
        k = self.kind
        if k == "decimal":
            return "decimal(%d,%d)" % (self.prec, self.scale)
        if k in ("char", "varchar"):
            return "%s(%d)" % (k, self.length)
        if k == "array":
            return "array<%s>" % self.children[0]
        if k == "map":
            return "map<%s,%s>" % (self.children[0], self.children[1])
        if k == "struct":
            return "struct<%s>" % ",".join(
                "%s:%s" % (n, c) for n, c in zip(self.names, self.children))
        if k == "union":
            return "uniontype<%s>" % ",".join(str(c) for c in self.children)
        return k


def parse_type(s):
    pos = [0]

    def ident():
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(s, pos[0])
        if not m:
            raise ValueError("bad type at %d: %s" % (pos[0], s))
        pos[0] = m.end()
        return m.group(0)

    def expect(ch):
        if s[pos[0]] != ch:
            raise ValueError("expected %r at %d: %s" % (ch, pos[0], s))
        pos[0] += 1

    def number():
        m = re.compile(r"\d+").match(s, pos[0])
        pos[0] = m.end()
        return int(m.group(0))

    def typ():
        name = ident().lower()
        if name in ("char", "varchar"):
            expect("(")
            n = number()
            expect(")")
            return T(name, length=n)
        if name == "decimal":
            p, sc = 10, 0
            if pos[0] < len(s) and s[pos[0]] == "(":
                expect("(")
                p = number()
                expect(",")
                sc = number()
                expect(")")
            return T(name, prec=p, scale=sc)
        if name == "array":
            expect("<")
            e = typ()
            expect(">")
            return T("array", [e])
        if name == "map":
            expect("<")
            k = typ()
            expect(",")
            v = typ()
            expect(">")
            return T("map", [k, v])
        if name == "struct":
            expect("<")
            names, kids = [], []
            while s[pos[0]] != ">":
                if names:
                    expect(",")
                if s[pos[0]] == "`":
                    end = s.index("`", pos[0] + 1)
                    names.append(s[pos[0] + 1:end])
                    pos[0] = end + 1
                else:
                    names.append(ident())
                expect(":")
                kids.append(typ())
            expect(">")
            return T("struct", kids, names)
        if name == "uniontype":
            expect("<")
            kids = [typ()]
            while s[pos[0]] == ",":
                expect(",")
                kids.append(typ())
            expect(">")
            return T("union", kids)
        if name not in PRIMS:
            raise ValueError("unknown type %s" % name)
        return T(name)

    t = typ()
    if pos[0] != len(s):
        raise ValueError("trailing text in type: %s" % s)
    t.number()
    return t


def ddl_type(t):
    return str(t).upper().replace("STRUCT<", "STRUCT<")


# ------------------------------------------------- canonical values
#
# Every source is turned into the same canonical values: None for NULL,
# bool, int, ('x', float) exact floats or ('g', text) as ORC C++ printed
# them (%.7g / %.14g), Decimal, bytes for strings and binaries, dates as
# day numbers, timestamps as (seconds, nanos) of the wall clock, lists,
# maps as lists of (key, value) pairs, structs as lists of field values.

def days_of(y, m, d):
    """Days from 1970-01-01 of a proleptic Gregorian date, any year
    (year 0 and before included: ORC readers can produce them)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


class Ymd:
    def __init__(self, y, m, d):
        self.year, self.month, self.day = y, m, d


def date_of_days(z):
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return Ymd(yoe + era * 400 + (m <= 2), m, d)


def parse_date_text(b):
    m = re.fullmatch(rb"([+-]?\d+)-(\d\d)-(\d\d)", b)
    if not m:
        raise ValueError("bad date %r" % b)
    return days_of(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def parse_ts_text(b):
    m = re.fullmatch(rb"([+-]?\d+)-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?", b)
    if not m:
        raise ValueError("bad timestamp %r" % b)
    days = days_of(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    secs = days * 86400 + int(m.group(4)) * 3600 + int(m.group(5)) * 60 + \
        int(m.group(6))
    frac = m.group(7) or b"0"
    return (secs, int(frac.ljust(9, b"0")))


def ts_text(ts):
    secs, nanos = ts
    d = date_of_days(secs // 86400)
    tod = secs % 86400
    s = "%04d-%02d-%02d %02d:%02d:%02d" % (d.year, d.month, d.day, tod // 3600,
                                           tod // 60 % 60, tod % 60)
    if nanos:
        s += ("." + "%09d" % nanos).rstrip("0")
    return s


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def gfmt(x, float_kind):
    """x formatted as ORC C++ prints it; NaN's sign dropped."""
    s = ("%.7g" if float_kind else "%.14g") % x
    return "nan" if s in ("nan", "-nan") else s


def norm_g(tok):
    s = tok.decode() if isinstance(tok, bytes) else tok
    return "nan" if s in ("nan", "-nan") else s


def float_eq(t, a, b):
    """Two canonical floats: exact where both are exact."""
    if a[0] == "x" and b[0] == "x":
        x, y = a[1], b[1]
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        return x == y and math.copysign(1, x) == math.copysign(1, y)
    fk = t.kind == "float"
    ta = gfmt(a[1], fk) if a[0] == "x" else a[1]
    tb = gfmt(b[1], fk) if b[0] == "x" else b[1]
    return ta == tb


class Counter:
    def __init__(self):
        self.values = 0
        self.mismatches = []

    def bad(self, where, what):
        self.mismatches.append("%s: %s" % (where, what))


def show(v):
    if isinstance(v, bytes):
        return repr(v)[:120]
    s = repr(v)
    return s if len(s) < 160 else s[:157] + "..."


class Unprintable:
    """A value ORC C++'s tool cannot print; not compared, but counted."""
    count = 0

    def __repr__(self):
        return "<unprintable>"


UNPRINTABLE = Unprintable()


def compare(t, a, b, where, cnt):
    """Compare canonical values a and b of type t; count leaves."""
    if a is UNPRINTABLE or b is UNPRINTABLE:
        Unprintable.count += 1
        return
    if a is None or b is None:
        cnt.values += 1
        if a is not None or b is not None:
            cnt.bad(where, "%s vs %s" % (show(a), show(b)))
        return
    k = t.kind
    if k == "array":
        if len(a) != len(b):
            cnt.values += 1
            cnt.bad(where, "length %d vs %d" % (len(a), len(b)))
            return
        for i, (x, y) in enumerate(zip(a, b)):
            compare(t.children[0], x, y, "%s[%d]" % (where, i), cnt)
        return
    if k == "map":
        if len(a) != len(b):
            cnt.values += 1
            cnt.bad(where, "map size %d vs %d" % (len(a), len(b)))
            return
        for i, ((ka, va), (kb, vb)) in enumerate(zip(a, b)):
            compare(t.children[0], ka, kb, "%s{%d}.key" % (where, i), cnt)
            compare(t.children[1], va, vb, "%s{%d}.value" % (where, i), cnt)
        return
    if k == "struct":
        for n, c, x, y in zip(t.names, t.children, a, b):
            compare(c, x, y, "%s.%s" % (where, n), cnt)
        return
    if k == "union":
        if a[0] != b[0]:
            cnt.values += 1
            cnt.bad(where, "union tag %d vs %d" % (a[0], b[0]))
            return
        compare(t.children[a[0]], a[1], b[1], "%s<%d>" % (where, a[0]), cnt)
        return
    cnt.values += 1
    if k in ("float", "double"):
        ok = float_eq(t, a, b)
    elif k == "decimal" and t.prec == 0:
        # a Hive 0.11 decimal (no precision in the footer): ORC C++ reads
        # it at scale 6 and comb at 10 (ORC Java's default), so the
        # digits are compared as far as ORC C++ has them
        cut = Decimal("0.000001")
        ok = a.quantize(cut, rounding="ROUND_DOWN") == b.quantize(cut, rounding="ROUND_DOWN")
    else:
        ok = a == b
    if not ok:
        cnt.bad(where, "%s vs %s" % (show(a), show(b)))


# ----------------------------------------------- JSON-ish text parsers

class Src:
    def __init__(self, b):
        self.b = b
        self.i = 0

    def ws(self):
        b, i = self.b, self.i
        while i < len(b) and b[i] in b" \t":
            i += 1
        self.i = i

    def peek(self):
        self.ws()
        return self.b[self.i:self.i + 1]

    def take(self, lit):
        self.ws()
        if not self.b.startswith(lit, self.i):
            raise ValueError("expected %r at %d in %r" % (lit, self.i,
                                                         self.b[:300]))
        self.i += len(lit)

    def token(self, stops=b",]}: "):
        self.ws()
        j = self.i
        b = self.b
        while j < len(b) and b[j] not in stops:
            j += 1
        tok = b[self.i:j]
        self.i = j
        return tok

    def items(self, open_, close, item):
        """open_ item (, item)* close: the list of item() results."""
        self.take(open_)
        out = []
        if self.peek() == close:
            self.take(close)
            return out
        while True:
            out.append(item())
            if self.peek() == b",":
                self.take(b",")
                continue
            self.take(close)
            return out

    def string(self):
        """A quoted string: \\X escapes and \\uXXXX (as UTF-8); other
        bytes as they are (orc-contents prints them raw)."""
        self.take(b'"')
        out = bytearray()
        b = self.b
        i = self.i
        simple = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("b"): 8,
                  ord("f"): 12}
        while True:
            c = b[i]
            if c == 0x22:
                break
            if c == 0x5C:
                e = b[i + 1]
                if e == ord("u"):
                    out += chr(int(b[i + 2:i + 6], 16)).encode("utf-8", "surrogatepass")
                    i += 6
                    continue
                out.append(simple.get(e, e))
                i += 2
                continue
            out.append(c)
            i += 1
        self.i = i + 1
        return bytes(out)


def jparse(src):
    """orc-contents / orcfiledump -d JSON: objects as (key, value) pair
    lists, strings as bytes, other scalars as raw tokens."""
    c = src.peek()
    if c == b"{":
        def pair():
            k = src.string()
            src.take(b":")
            return (k, jparse(src))
        return src.items(b"{", b"}", pair)
    if c == b"[":
        return src.items(b"[", b"]", lambda: jparse(src))
    if c == b'"':
        return ("s", src.string())
    return ("t", src.token())


def scalar_bytes(v):
    return v[1]


def from_json(t, v, exact, map_keys):
    """A jparse value as canonical.  exact: floats are exact (comb's
    -d dump) rather than %.Ng text (orc-contents)."""
    if isinstance(v, tuple) and v[0] == "t" and v[1] == b"null":
        return None
    k = t.kind
    if k == "struct":
        got = [n.decode() for n, _ in v]
        if [n.lower() for n in got] != [n.lower() for n in t.names]:
            raise ValueError("struct fields %s, want %s" % (got, t.names))
        return [from_json(c, x, exact, map_keys) for c, (_, x) in
                zip(t.children, v)]
    if k == "array":
        return [from_json(t.children[0], x, exact, map_keys) for x in v]
    if k == "map":
        out = []
        for entry in v:
            d = dict((n.decode(), x) for n, x in entry)
            out.append((from_json(t.children[0], d[map_keys[0]], exact, map_keys),
                        from_json(t.children[1], d[map_keys[1]], exact, map_keys)))
        return out
    if k == "binary":
        return bytes(int(x[1]) for x in v)
    if k == "union":    # {"tag": n, "value": v} (orc-contents' form)
        d = dict((n.decode(), x) for n, x in v)
        tag = int(d["tag"][1])
        return (tag, from_json(t.children[tag], d["value"], exact, map_keys))
    b = scalar_bytes(v)
    if k == "boolean":
        return {b"true": True, b"false": False}[b]
    if k in INT_RANGE:
        return int(b)
    if k in ("float", "double"):
        if not exact:
            return ("g", norm_g(b))
        x = float(b.decode())
        return ("x", f32(x) if k == "float" else x)
    if k == "decimal":
        return Decimal(b.decode())
    if k in STRS:
        return b
    if k == "date":
        return parse_date_text(b)
    if k == "timestamp":
        if not exact and not re.fullmatch(rb"-?\d{1,4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+", b):
            # orc-contents formats into 20 bytes: a year past 9999 (a
            # writer zone east of UTC moves 9999-12-31 there) is garbage
            return UNPRINTABLE
        return parse_ts_text(b)
    raise ValueError("kind %s" % k)


def hive_json(t, src):
    """comb's (Hive's) text of a value inside a complex one: map keys
    bare, binaries as unquoted text, floats in Java's form."""
    c = src.peek()
    if c == b"n" and src.b.startswith(b"null", src.i):
        src.i += 4
        return None
    k = t.kind
    if k == "array":
        return src.items(b"[", b"]", lambda: hive_json(t.children[0], src))
    if k == "map":
        def entry():
            key = hive_json(t.children[0], src)
            src.take(b":")
            return (key, hive_json(t.children[1], src))
        return src.items(b"{", b"}", entry)
    if k == "struct":
        src.take(b"{")
        out = []
        for i, (n, ct) in enumerate(zip(t.names, t.children)):
            if i:
                src.take(b",")
            name = src.string()
            if name.decode().lower() != n.lower():
                raise ValueError("field %s, want %s" % (name, n))
            src.take(b":")
            out.append(hive_json(ct, src))
        src.take(b"}")
        return out
    if k in STRS or k in ("date", "timestamp"):
        s = src.string()
        if k == "date":
            return parse_date_text(s)
        if k == "timestamp":
            return parse_ts_text(s)
        return s
    if k == "binary":
        return src.token(b",]}")
    tok = src.token()
    return scalar_text(t, tok)


def scalar_text(t, tok):
    k = t.kind
    if k == "boolean":
        return {b"true": True, b"false": False}[tok]
    if k in INT_RANGE:
        return int(tok)
    if k == "float":
        return ("x", f32(float(tok.decode())))
    if k == "double":
        return ("x", float(tok.decode()))
    if k == "decimal":
        return Decimal(tok.decode())
    if k == "date":
        return parse_date_text(tok)
    if k == "timestamp":
        return parse_ts_text(tok)
    raise ValueError("scalar %s" % k)


# --------------------------------------------------- data generation

SPECIAL_FLOATS = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0]
SPECIAL_DOUBLES = SPECIAL_FLOATS + [5e-324, 1.7976931348623157e308,
                                    -1.7976931348623157e308,
                                    2.2250738585072014e-308, 0.1, 1 / 3,
                                    -1e-300, 123456789.123456789]
SPECIAL_F32 = SPECIAL_FLOATS + [3.4028234663852886e38, -3.4028234663852886e38,
                                1.401298464324817e-45, 1.1754943508222875e-38,
                                0.1, -2.5, 16777217.0]
SPECIAL_STRINGS = [b"", b" ", b"NULL", b"\\N", b"null", b"a\tb", b"line\nbreak",
                   b"cr\rlf\r\n", b'quote"s\'', b"back\\slash",
                   b"\x01\x02\x03\x04\x05\x06\x07\x08ctl", b"\x7f",
                   "ünïcödé".encode(), "日本語".encode(), "😀🂡".encode(),
                   "\u0085\u2028\u2000x".encode(), b"</tag>", b"trail  ",
                   b"\xff\xfe bad utf8", b"x" * 1500, b"{\"k\":[1,2]}",
                   b",;:[]{}"]
SPECIAL_DATES = [(1, 1, 1), (1969, 12, 31), (1970, 1, 1), (1582, 10, 4),
                 (1582, 10, 15), (1582, 10, 10), (1000, 1, 1), (4, 2, 29),
                 (1900, 2, 28), (2000, 2, 29), (2038, 1, 19), (2038, 1, 20),
                 (9999, 12, 31), (2015, 1, 1), (1899, 12, 31)]
SPECIAL_TS = ["1969-12-31 23:59:59.999999999", "1969-12-31 23:59:59",
              "1969-12-31 23:59:58.5", "1969-12-31 23:59:58.000000001",
              "1969-12-31 23:59:59.001", "1969-12-31 23:59:59.000001",
              "1970-01-01 00:00:00", "1970-01-01 00:00:00.000000001",
              "1969-01-01 00:00:00.123456789", "1900-01-01 00:00:00.000000001",
              "0001-01-01 00:00:00", "0001-01-01 00:00:00.5",
              "9999-12-31 23:59:59.999999999", "1582-10-10 12:00:00.25",
              "1582-10-04 23:59:59.999", "2015-01-01 00:00:00",
              "2014-12-31 23:59:59.999", "2038-01-19 03:14:08.123",
              "1960-06-15 12:34:56.789012345", "2024-02-29 12:00:00.1"]

# Characters for binaries inside complex values: comb (as Hive) prints
# those as unquoted text, so only bytes that cannot end the value there.
SAFE_BIN = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+"


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def chance(self, p):
        return self.r.random() < p

    def value(self, t, depth, null_p=0.08):
        if self.chance(null_p):
            return None
        r = self.r
        k = t.kind
        if k == "boolean":
            return r.random() < 0.5
        if k in INT_RANGE:
            bits = INT_RANGE[k]
            lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
            x = r.random()
            if x < 0.1:
                return r.choice([lo, hi, 0, -1, 1, lo + 1, hi - 1])
            if x < 0.5:
                return r.randint(-100, 100)
            return r.randint(lo, hi)
        if k == "float":
            if self.chance(0.2):
                return f32(r.choice(SPECIAL_F32))
            return f32(r.uniform(-1e6, 1e6) * 10 ** r.randint(-30, 30))
        if k == "double":
            if self.chance(0.2):
                return r.choice(SPECIAL_DOUBLES)
            return r.uniform(-1, 1) * 10 ** r.randint(-300, 300)
        if k == "decimal":
            return self.decimal(t)
        if k == "date":
            if self.chance(0.25):
                return days_of(*r.choice(SPECIAL_DATES))
            return r.randint(days_of(1, 1, 1), days_of(9999, 12, 31))
        if k == "timestamp":
            if self.chance(0.25):
                return parse_ts_text(r.choice(SPECIAL_TS).encode())
            secs = r.randint(days_of(1, 1, 1) * 86400, days_of(9999, 12, 31) * 86400 + 86399)
            nanos = r.choice([0, r.randint(0, 999) * 1000000,
                              r.randint(0, 999999) * 1000,
                              r.randint(0, 999999999)])
            return (secs, nanos)
        if k == "binary":
            if depth > 0:
                return bytes(r.choice(SAFE_BIN) for _ in range(r.randint(0, 12)))
            if self.chance(0.2):
                return r.choice([b"", b"\x00", b"\xff" * 3, b"\x00\x01\x02\\N"])
            return bytes(r.randint(0, 255) for _ in range(r.randint(0, 40)))
        if k == "string":
            return self.string(None)
        if k == "varchar":
            s = self.string(t.length)
            return s
        if k == "char":
            s = self.string(t.length).rstrip(b" ")
            n = len(s.decode("utf-8"))
            return s + b" " * (t.length - n)
        if k == "array":
            n = r.choice([0, 0, 1, 2, 3, r.randint(0, 12)])
            out = [self.value(t.children[0], depth + 1) for _ in range(n)]
            return out
        if k == "map":
            n = r.choice([0, 1, 2, 3, r.randint(0, 8)])
            out, seen = [], set()
            for _ in range(n):
                key = self.value(t.children[0], depth + 1, null_p=0)
                ck = canon_key(t.children[0], key)
                if ck in seen:
                    continue
                seen.add(ck)
                out.append((key, self.value(t.children[1], depth + 1)))
            return out
        if k == "struct":
            return [self.value(c, depth + 1) for c in t.children]
        raise ValueError(k)

    def string(self, maxlen):
        r = self.r
        if self.chance(0.002):
            # orc-contents stops printing a row at a NUL byte: kept rare
            s = b"\x00nul"
        elif self.chance(0.25):
            s = r.choice(SPECIAL_STRINGS)
        else:
            alphabet = "abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789_-.é€𝄞"
            s = "".join(r.choice(alphabet) for _ in range(r.randint(0, 30))).encode()
        if maxlen is not None:
            # varchar/char: characters, valid UTF-8 (comb checks them)
            try:
                txt = s.decode("utf-8")
            except UnicodeDecodeError:
                txt = s.decode("utf-8", "replace")
            s = txt[:maxlen].encode("utf-8")
        return s

    def decimal(self, t):
        r = self.r
        ip = t.prec - t.scale
        if self.chance(0.2):
            big = Decimal(10) ** ip - Decimal(1).scaleb(-t.scale)
            tiny = Decimal(1).scaleb(-t.scale)
            v = r.choice([big, -big, tiny, -tiny, Decimal(0), Decimal("1.5"), Decimal(-1)])
            return v.quantize(Decimal(1).scaleb(-t.scale), rounding="ROUND_HALF_UP")
        digits = r.randint(1, t.prec)
        unscaled = r.randint(0, 10 ** digits - 1)
        if self.chance(0.3):
            unscaled -= unscaled % (10 ** min(t.scale, 3))   # trailing zeros
        return Decimal(unscaled * r.choice([1, -1])).scaleb(-t.scale)


def canon_key(t, v):
    if isinstance(v, float):
        return ("nan",) if math.isnan(v) else (v, math.copysign(1, v))
    return repr(v)


QUIRKS = [0]


def orc_readback(ts):
    """A timestamp as every ORC reader reads it back.  ORC Java's writer
    (and comb's, which follows it) stores the seconds of the
    milliseconds truncated toward zero, and readers subtract a second
    again when the stored seconds are negative and the nanos exceed
    999999.  An instant in the second before 1970 with such nanos
    (1969-12-31 23:59:59.001 .. .999999999) is stored with seconds 0 and
    so reads as the same fraction after 1970: the format cannot hold it."""
    secs, nanos = ts
    if secs == -1 and nanos >= 1000000:
        QUIRKS[0] += 1
        return (0, nanos)
    return ts


def canon_from_model(t, v):
    """Generated values in the canonical form, as ORC can hold them."""
    if v is None:
        return None
    k = t.kind
    if k == "timestamp":
        return orc_readback(v)
    if k in ("float", "double"):
        return ("x", v)
    if k == "array":
        return [canon_from_model(t.children[0], x) for x in v]
    if k == "map":
        return [(canon_from_model(t.children[0], a), canon_from_model(t.children[1], b))
                for a, b in v]
    if k == "struct":
        return [canon_from_model(c, x) for c, x in zip(t.children, v)]
    return v


def shaped_column(gen, t, n):
    """n top-level values; integers, booleans and strings come in blocks
    shaped for the RLE encoders (repeats, steps, small values with
    outliers for PATCHED_BASE), nested values at random."""
    r = gen.r
    out = []
    while len(out) < n:
        block = r.choice([1, 3, 7, 10, 11, 64, 130, 511, 512, 600])
        mode = r.choice(["random", "random", "repeat", "step", "patched"])
        k = t.kind
        if k in INT_RANGE and mode != "random":
            bits = INT_RANGE[k]
            lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
            base = r.randint(lo, hi)
            step = r.choice([0, 1, -1, 7, -1000, r.randint(-50, 50)])
            for j in range(block):
                if mode == "repeat":
                    v = base
                elif mode == "step":
                    v = base + step * j
                    if v < lo or v > hi:
                        base, v = 0, 0
                else:
                    v = r.randint(0, 15) if r.random() > 0.03 else r.choice([lo, hi, r.randint(lo, hi)])
                out.append(v if r.random() > 0.02 else None)
        elif mode in ("repeat", "step") and k in ("boolean", "string", "date", "double"):
            v = gen.value(t, 0, null_p=0)
            out.extend([v] * block)
        else:
            out.extend(gen.value(t, 0) for _ in range(block))
    return out[:n]


# ------------------------------------------------ TEXTFILE serialising

SEPS = [bytes([i]) for i in range(1, 9)]   # LazySimpleSerDe, 8 levels


def text_escape(b):
    out = bytearray()
    for c in b:
        if c == 10:
            out += b"\\n"
        elif c == 13:
            out += b"\\r"
        elif c == 0x5C or 1 <= c <= 8:
            out += b"\\" + bytes([c])
        else:
            out.append(c)
    return bytes(out)


def text_value(t, v, level):
    if v is None:
        return b"\\N"
    k = t.kind
    if k == "boolean":
        return b"true" if v else b"false"
    if k in INT_RANGE:
        return str(v).encode()
    if k in ("float", "double"):
        if math.isnan(v):
            return b"NaN"
        if math.isinf(v):
            return b"Infinity" if v > 0 else b"-Infinity"
        return repr(v).encode()
    if k == "decimal":
        return format(v, "f").encode()
    if k in STRS:
        return text_escape(v)
    if k == "binary":
        import base64
        return base64.b64encode(v)
    if k == "date":
        d = date_of_days(v)
        return b"%04d-%02d-%02d" % (d.year, d.month, d.day)
    if k == "timestamp":
        secs, nanos = v
        return (ts_text((secs, 0)) + ".%09d" % nanos).encode()
    if k == "array":
        return SEPS[level].join(text_value(t.children[0], x, level + 1) for x in v)
    if k == "map":
        return SEPS[level].join(text_value(t.children[0], a, level + 2) + SEPS[level + 1] +
                                text_value(t.children[1], b, level + 2) for a, b in v)
    if k == "struct":
        return SEPS[level].join(text_value(c, x, level + 1) for c, x in zip(t.children, v))
    raise ValueError(k)


def fix_for_text(t, v):
    """Values LazySimpleSerDe cannot tell apart in text are changed into
    ones it can: a one-element list whose element is empty text reads as
    an empty list."""
    if v is None:
        return None
    k = t.kind
    if k == "array":
        v = [fix_for_text(t.children[0], x) for x in v]
        if len(v) == 1 and text_value(t.children[0], v[0], 1) in (b"", b"\\N"):
            v = v * 2
        return v
    if k == "map":
        return [(fix_for_text(t.children[0], a), fix_for_text(t.children[1], b)) for a, b in v]
    if k == "struct":
        v = [fix_for_text(c, x) for c, x in zip(t.children, v)]
        return v
    return v


# ------------------------------------------------------------ schemas

SCHEMAS = {
    "prim": [
        ("id", "int"), ("b", "boolean"), ("ti", "tinyint"), ("si", "smallint"),
        ("i", "int"), ("bi", "bigint"), ("f", "float"), ("d", "double"),
        ("s", "string"), ("vc", "varchar(10)"), ("ch", "char(8)"),
        ("dsm", "decimal(18,4)"), ("dlg", "decimal(38,18)"),
        ("dz", "decimal(10,0)"), ("dt", "date"), ("ts", "timestamp"),
        ("bin", "binary"), ("run_i", "bigint"), ("run_s", "string"),
    ],
    "nested": [
        ("id", "int"), ("a", "array<int>"), ("asx", "array<string>"),
        ("m", "map<string,double>"), ("mi", "map<int,array<timestamp>>"),
        ("st", "struct<x:tinyint,y:varchar(5),z:decimal(38,10)>"),
        ("deep", "array<struct<k:string,v:map<date,array<decimal(5,2)>>>>"),
        ("sb", "struct<b:binary,bo:boolean,c:char(3),f:float>"),
        ("ast", "array<struct<f:float,n:array<bigint>,d:date>>"),
        ("mm", "map<bigint,map<string,boolean>>"),
        ("e", "array<array<smallint>>"),
    ],
}

# UPDATE per schema: the SET clause and the same change on a model row.
UPDATES = {
    "prim": ("s = 'upd\\tX', bi = NULL, ts = TIMESTAMP '1969-12-31 23:59:58.5'",
             {"s": b"upd\tX", "bi": None, "ts": (-2, 500000000)}),
    "nested": ("a = array(7, NULL, -2147483647), st = NULL",
               {"a": [7, None, -2147483647], "st": None}),
}


def schema_types(cols):
    root = parse_type("struct<%s>" % ",".join("%s:%s" % c for c in cols))
    return [c[0] for c in cols], root


# ------------------------------------------------------------- running

class Comb:
    def __init__(self, exe, warehouse, log):
        self.exe = exe
        self.wh = warehouse
        self.log = log

    def run_sql(self, sql, csv_out=False):
        args = [self.exe, "--warehouse", self.wh, "--silent"]
        if csv_out:
            args += ["--outputformat", "csv"]
        self.log.write(b"-- " + sql.encode("utf-8", "surrogateescape")[:2000] + b"\n")
        p = subprocess.run(args + ["-e", sql], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise RuntimeError("comb failed (%d) on %s\n%s" % (
                p.returncode, sql[:500], p.stderr.decode("utf-8", "replace")))
        return p.stdout

    def dump(self, path, mode):
        args = [self.exe, "orcfiledump"] + ([mode] if mode else []) + [path]
        # stderr holds Hive's "Processing data file" lines: kept for errors
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                                  p.stderr.decode("utf-8", "replace")))
        return p.stdout


def tool(tools, name, *args):
    p = subprocess.run([os.path.join(tools, name)] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s %s failed: %s" % (name, " ".join(args),
                                                 p.stderr.decode("utf-8", "replace")))
    return p.stdout


# ----------------------------------------------------------- the model

class Table:
    def __init__(self, name, schema, kind, codec, bucketed=False, cols=None):
        self.name = name
        self.schema = schema
        self.kind = kind
        self.codec = codec
        self.bucketed = bucketed
        self.names, self.root = schema_types(cols or SCHEMAS[schema])
        self.rows = {}       # id -> model row (list, table order); None: none
        self.location = None  # the directory of an external table
        self.canon = None     # instead of rows: id -> canonical row
        self.parts = []       # partition columns (STRING, in key order)


# Row index every INDEX_STRIDE rows, small compression chunks (positions
# inside and on chunk boundaries) and bloom filters on every primitive
# top-level column of comb's tables.
INDEX_STRIDE = 1000
INDEX_BLOCK = 8192


def table_props(kind, codec, stripe, bloom=()):
    props = {"acid": [("transactional", "true")],
             "insert_only": [("transactional", "true"),
                             ("transactional_properties", "insert_only")],
             "plain": [("transactional", "false")]}[kind]
    props = props + [("orc.compress", codec), ("orc.stripe.size", str(stripe)),
                     ("orc.row.index.stride", str(INDEX_STRIDE)),
                     ("orc.compress.size", str(INDEX_BLOCK))]
    if bloom:
        props += [("orc.bloom.filter.columns", ",".join(bloom)),
                  ("orc.bloom.filter.fpp", "0.02")]
    return ", ".join("'%s'='%s'" % kv for kv in props)


def bloom_columns(cols):
    """The top-level columns of a schema that get bloom filters."""
    return [n for n, ty in cols if parse_type(ty).kind in PRIMS | STRS | {"decimal"}]


def build(comb, work, n_rows, seed, stripe, codecs, log):
    tables = []
    stage_rows = {}
    for si, schema in enumerate(SCHEMAS):
        names, root = schema_types(SCHEMAS[schema])
        gen = Gen(seed * 31 + si)
        cols = [list(range(n_rows))]
        for c in root.children[1:]:
            cols.append(shaped_column(gen, c, n_rows))
        rows = [list(r) for r in zip(*cols)]
        rows = [[fix_for_text(c, v) for c, v in zip(root.children, r)] for r in rows]
        stage_rows[schema] = rows
        path = os.path.join(work, "%s.txt" % schema)
        with open(path, "wb") as f:
            for r in rows:
                f.write(SEPS[0].join(text_value(c, v, 1) for c, v in
                                     zip(root.children, r)) + b"\n")
        coldefs = ", ".join("%s %s" % (n, ddl_type(c)) for n, c in zip(names, root.children))
        comb.run_sql("CREATE TABLE stage_%s (%s) ROW FORMAT DELIMITED FIELDS TERMINATED BY "
                     "'\\001' ESCAPED BY '\\\\' STORED AS TEXTFILE TBLPROPERTIES "
                     "('transactional'='false'); LOAD DATA LOCAL INPATH '%s' INTO TABLE stage_%s"
                     % (schema, coldefs, path, schema))
        specs = [(kind, codec, False) for kind in KINDS for codec in codecs]
        specs.append(("acid", codecs[0] if "ZLIB" not in codecs else "ZLIB", True))
        for kind, codec, bucketed in specs:
            t = Table("%s_%s_%s%s" % (schema, kind, codec.lower(), "_b" if bucketed else ""),
                      schema, kind, codec, bucketed)
            clustered = " CLUSTERED BY (id) INTO 3 BUCKETS" if bucketed else ""
            comb.run_sql("CREATE TABLE %s (%s)%s STORED AS ORC TBLPROPERTIES (%s)"
                         % (t.name, coldefs, clustered,
                            table_props(kind, codec, stripe, bloom_columns(SCHEMAS[schema]))))
            run_ops(comb, t, rows, n_rows)
            tables.append(t)
    return tables


def run_ops(comb, t, rows, n):
    """The statements each table gets, applied to its model too."""
    half = n // 2
    stage = "stage_" + t.schema
    ins = "INSERT INTO %s SELECT * FROM %s WHERE " % (t.name, stage)
    model = {}
    if t.kind in ("acid", "plain"):
        comb.run_sql(ins + "id < %d" % half)
        comb.run_sql(ins + "id >= %d" % half)
        model = {r[0]: list(r) for r in rows}
    if t.kind == "insert_only":
        comb.run_sql(ins + "id >= 0")
        comb.run_sql("INSERT OVERWRITE TABLE %s SELECT * FROM %s WHERE id %% 2 = 0"
                     % (t.name, stage))
        comb.run_sql(ins + "id %% 2 = 1 AND id < %d" % half)
        model = {r[0]: list(r) for r in rows if r[0] % 2 == 0 or r[0] < half}
    if t.kind == "acid":
        set_sql, changes = UPDATES[t.schema]
        comb.run_sql("UPDATE %s SET %s WHERE id %% 10 = 3" % (t.name, set_sql))
        comb.run_sql("DELETE FROM %s WHERE id %% 7 = 5" % t.name)
        idx = {n: i for i, n in enumerate(t.names)}
        for k, r in model.items():
            if k % 10 == 3:
                for col, v in changes.items():
                    r[idx[col]] = v
        model = {k: r for k, r in model.items() if k % 7 != 5}
    t.rows = model


# ---------------------------------------------------- reading results

def select_exprs(t):
    out = []
    for n, c in zip(t.names, t.root.children):
        if c.kind in STRS:
            out.append("array(%s)" % n)
        elif c.kind == "binary":
            out.append("array(CAST(%s AS STRING))" % n)
        else:
            out.append(n)
    return out


def comb_select(comb, t):
    """comb's SELECT as canonical rows: {key: row}, key = ROW__ID triple
    for full ACID, else id."""
    exprs = select_exprs(t) + t.parts
    acid = t.kind == "acid"
    sql = "SELECT %s%s FROM %s" % ("ROW__ID, " if acid else "", ", ".join(exprs), t.name)
    text = comb.run_sql(sql, csv_out=True).decode("utf-8", "surrogateescape")
    rd = csv.reader(io.StringIO(text, newline=""))
    next(rd)
    out = {}
    str_list = T("array", [T("string")])
    for rec in rd:
        fields = [f.encode("utf-8", "surrogateescape") for f in rec]
        key = None
        if acid:
            rid = json.loads(fields[0])
            # ROW__IDs repeat across partitions: the partition is part of the key
            pvals = tuple(f.decode("utf-8", "surrogateescape")
                          for f in fields[len(fields) - len(t.parts):])
            key = pvals + (rid["writeid"], rid["bucketid"], rid["rowid"])
            fields = fields[1:]
        row = []
        for c, f in zip(t.root.children, fields):
            if c.kind in STRS or c.kind == "binary":
                lst = hive_json(str_list, Src(f))
                row.append(lst[0])
            elif f == b"NULL":
                row.append(None)
            elif c.kind in ("array", "map", "struct"):
                src = Src(f)
                row.append(hive_json(c, src))
                if src.i != len(f):
                    raise ValueError("trailing text %r" % f[src.i:])
            else:
                row.append(scalar_text(c, f))
        if not acid:
            key = row[0]
        if key in out:
            raise ValueError("%s: key %s twice in SELECT" % (t.name, key))
        out[key] = row
    return out


def partition_dirs(t, table_dir):
    """[(partition values, directory)]: the table's own directory, or one
    k=v/... directory per partition (values as comb names them: plain
    text, %XX for the characters Hive escapes)."""
    level = [((), table_dir)]
    for key in t.parts:
        nxt = []
        for vals, d in level:
            for n in sorted(os.listdir(d)):
                if n.startswith(key + "=") and os.path.isdir(os.path.join(d, n)):
                    v = re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
                               n[len(key) + 1:])
                    nxt.append((vals + (v,), os.path.join(d, n)))
        level = nxt
    return level


def data_files(t, table_dir):
    """The files a reader of t reads, with their directory kinds:
    [(path, 'insert'|'delete')]."""
    files = []
    if t.kind == "plain":
        for n in sorted(os.listdir(table_dir)):
            if not n.startswith((".", "_")):
                files.append((os.path.join(table_dir, n), "insert"))
        return files
    dirs = sorted(os.listdir(table_dir))
    base = -1
    for d in dirs:
        m = re.fullmatch(r"base_(\d+)(_v\d+)?", d)
        if m:
            base = max(base, int(m.group(1)))
    for d in dirs:
        m = re.fullmatch(r"(base|delta|delete_delta)_(\d+)(?:_(\d+))?(?:_\d+)?(_v\d+)?", d)
        if not m:
            continue
        lo = int(m.group(2))
        if m.group(1) == "base" and lo != base:
            continue
        if m.group(1) != "base" and lo <= base:
            continue
        kind = "delete" if m.group(1) == "delete_delta" else "insert"
        full = os.path.join(table_dir, d)
        for n in sorted(os.listdir(full)):
            # streaming deltas' side files are no data files (§1.7)
            if not n.startswith((".", "_")) and not n.endswith("_flush_length"):
                files.append((os.path.join(full, n), kind))
    return files


# ---------------------------------------------------------- statistics

INT64 = (-(1 << 63), (1 << 63) - 1)


class Acc:
    """Column statistics as ORC Java's writer accumulates them."""

    def __init__(self, t):
        self.t = t
        self.count = 0
        self.has_null = False
        self.mn = self.mx = None
        self.sum = Decimal(0) if t.kind == "decimal" else 0
        self.sum_ok = True
        self.dsum = 0.0
        self.true_count = 0
        self.children = []

    def add(self, v):
        if v is None:
            self.has_null = True
            return
        k = self.t.kind
        self.count += 1
        if k in ("array", "map"):
            n = len(v)
            self.children.append(n)
            return
        if k == "struct":
            return
        if k == "boolean":
            self.true_count += 1 if v else 0
            return
        if k in ("float", "double"):
            x = v[1]
            if self.mn is None:
                self.mn = self.mx = x
            else:
                if x < self.mn:
                    self.mn = x
                if x > self.mx:
                    self.mx = x
            self.dsum += x
            return
        if k in STRS or k == "binary":
            self.sum += len(v)
            if k != "binary":
                self.minmax(v)
            return
        if k == "timestamp":
            self.minmax(v[0] * 10 ** 9 + v[1])
            return
        self.minmax(v)
        if k in INT_RANGE:
            if self.sum_ok:
                self.sum += v
                self.sum_ok = INT64[0] <= self.sum <= INT64[1]
        elif k == "decimal":
            self.dec_add(v)

    def dec_add(self, v):
        if self.sum_ok:
            self.sum += v
            self.sum_ok = dec_fits(self.sum, self.t)

    def minmax(self, v):
        if self.mn is None or v < self.mn:
            self.mn = v
        if self.mx is None or v > self.mx:
            self.mx = v

    def merge(self, o):
        """File statistics: the stripes' merged, as the writer does."""
        k = self.t.kind
        self.has_null = self.has_null or o.has_null
        self.true_count += o.true_count
        self.children += o.children
        if k in INT_RANGE:
            self.sum_ok = self.sum_ok and o.sum_ok
            if self.sum_ok:
                self.sum += o.sum
                self.sum_ok = INT64[0] <= self.sum <= INT64[1]
        elif k == "decimal":
            self.sum_ok = self.sum_ok and o.sum_ok
            if self.sum_ok:
                self.sum += o.sum
                self.sum_ok = dec_fits(self.sum, self.t)
        else:
            self.sum += o.sum
        self.dsum += o.dsum
        if o.count and o.mn is not None:
            if self.mn is None:
                self.mn, self.mx = o.mn, o.mx
            else:
                if o.mn < self.mn:
                    self.mn = o.mn
                if o.mx > self.mx:
                    self.mx = o.mx
        self.count += o.count

    def expect(self):
        """What the file should hold, as ORC Java's writer serialises it
        (ColumnStatisticsImpl.serialize): min/max only with values; sums
        of integers (unless they overflowed), doubles, binaries and
        decimals (unless beyond 38 digits) always; string sums only with
        values; collection totals when not 0."""
        k = self.t.kind
        n = self.count
        e = {"count": n, "hasNull": self.has_null}
        if k == "boolean":
            e["true"] = self.true_count
        elif k in ("array", "map"):
            if n:
                e["minChildren"] = min(self.children)
                e["maxChildren"] = max(self.children)
            if sum(self.children):
                e["totalChildren"] = sum(self.children)
        elif k in ("float", "double"):
            if n:
                e["min"], e["max"] = ("x", self.mn), ("x", self.mx)
            e["sum"] = ("x", self.dsum)
        elif k in STRS:
            if n:
                e["min"], e["max"] = self.mn, self.mx
                e["sum"] = self.sum
        elif k == "binary":
            e["sum"] = self.sum
        elif k in INT_RANGE or k == "decimal":
            if n:
                e["min"], e["max"] = self.mn, self.mx
            if self.sum_ok:
                e["sum"] = self.sum
        elif k in ("date", "timestamp"):
            if n:
                e["min"], e["max"] = self.mn, self.mx
        return e


def hive_view(t, e):
    """What Hive's orcfiledump prints of statistics e (ORC Java's
    ColumnStatisticsImpl.toString): string bounds as Java's Text.toString
    decodes their bytes (U+FFFD for each bad part)."""
    k = t.kind
    out = dict(e)
    if e["count"] == 0 and (k in ("binary", "decimal") or k in STRS):
        for key in ("min", "max", "sum"):
            out.pop(key, None)
    return java_text_view(t, out)


def java_text_view(t, e):
    """e with its string bounds as Java prints them: decoded as UTF-8, a
    U+FFFD for each bad part (orc-statistics prints the bytes)."""
    out = dict(e)
    if t.kind in STRS:
        for key in ("min", "max"):
            if isinstance(out.get(key), bytes):
                out[key] = out[key].decode("utf-8", "replace").encode("utf-8")
    return out


def cpp_view(t, e):
    """What orc-statistics prints of statistics e: doubles with 6
    digits, timestamps in milliseconds."""
    k = t.kind
    out = dict(e)
    if k in ("float", "double"):
        for key in ("min", "max", "sum"):
            if key in out:
                out[key] = ("g6", gfmt6(out[key][1]))
    if k == "timestamp":
        for key in ("min", "max"):
            if key in out:
                out[key] = out[key] // 10 ** 6
    return out


def dec_fits(v, t):
    unscaled = abs(v.scaleb(t.scale))
    return unscaled < Decimal(10) ** 38


def feed(t, v, accs):
    """One value of column t (and its subtree) into accs by column id."""
    accs[t.id].add(v)
    if v is None:
        return
    k = t.kind
    if k == "struct":
        for c, x in zip(t.children, v):
            feed(c, x, accs)
    elif k == "array":
        for x in v:
            feed(t.children[0], x, accs)
    elif k == "map":
        for a, b in v:
            feed(t.children[0], a, accs)
            feed(t.children[1], b, accs)


def implied_stats(root, rows, stripe_rows):
    """[(stripe accs...)], file accs from the rows of each stripe."""
    cols = list(root.walk())
    stripes = []
    pos = 0
    for n in stripe_rows:
        accs = {c.id: Acc(c) for c in cols}
        for r in rows[pos:pos + n]:
            feed(root, r, accs)
        pos += n
        stripes.append(accs)
    total = {c.id: Acc(c) for c in cols}
    for s in stripes:
        for cid, a in s.items():
            total[cid].merge(a)
    return stripes, total


# comb orcfiledump statistics: "Column N: count: C hasNull: B ..."

def parse_comb_stats(text, root):
    kinds = {c.id: c for c in root.walk()}
    m = re.search(rb"\nStripe Statistics:\n(.*?)\nFile Statistics:\n(.*?)\n?\nStripes:\n",
                  text, re.S)
    if not m:
        raise ValueError("no statistics in orcfiledump output")
    stripes = []
    for block in re.split(rb"\n?  Stripe \d+:\n", m.group(1))[1:]:
        stripes.append(comb_stat_entries(block, "    ", kinds))
    return stripes, comb_stat_entries(m.group(2), "  ", kinds)


def stat_sections(text, pat, kinds, parse):
    """{column id: parse(its text, its type)} of the sections of text that
    start with pat (which captures the column id); the section's last
    newline is dropped (a value may end in one)."""
    parts = re.split(pat, text)
    out = {}
    for i in range(1, len(parts), 2):
        cid = int(parts[i])
        body = parts[i + 1]
        body = body[:-1] if body.endswith(b"\n") else body
        out[cid] = parse(body, kinds[cid])
    return out


def comb_stat_entries(block, indent, kinds):
    return stat_sections(block, rb"(?:^|\n)" + indent.encode() + rb"Column (\d+): ", kinds,
                         comb_stat)


class TextOrHex(bytes):
    """A string statistic as orcfiledump prints it: the bytes as they are
    (as Java decodes them), or in hex as comb printed those with control
    characters before it printed them as Hive does.  Text of hex digits
    reads either way, so it equals both."""

    def alternatives(self):
        out = [bytes(self)]
        if re.fullmatch(rb"([0-9a-f]{2})+", self):
            raw = bytes.fromhex(self.decode())
            if any(c < 0x20 and c not in (9, 10) for c in raw):
                out.append(raw)
        return out

    def __eq__(self, other):
        return bytes(other) in self.alternatives()

    def __ne__(self, other):
        return not self == other

    __hash__ = bytes.__hash__


def comb_stat(s, t):
    # bytesOnDisk (ORC 1.6+ writers) is the writer's, not the data's
    m = re.match(rb"count: (\d+) hasNull: (true|false)(?: bytesOnDisk: \d+)?(.*)$",
                 s, re.S)
    e = {"count": int(m.group(1)), "hasNull": m.group(2) == b"true"}
    rest = m.group(3)
    k = t.kind
    if k == "boolean":
        e["true"] = int(re.fullmatch(rb" true: (\d+)", rest).group(1))
    elif k in ("array", "map"):
        mm = re.fullmatch(rb"(?: minChildren: (\d+) maxChildren: (\d+))?(?: totalChildren: (\d+))?", rest)
        if mm.group(1):
            e["minChildren"], e["maxChildren"] = int(mm.group(1)), int(mm.group(2))
        if mm.group(3):
            e["totalChildren"] = int(mm.group(3))
    elif k in ("float", "double"):
        mm = re.fullmatch(rb"(?: min: (\S+) max: (\S+))?(?: sum: (\S+))?", rest)
        if mm.group(1):
            e["min"] = ("x", float(mm.group(1)))
            e["max"] = ("x", float(mm.group(2)))
        if mm.group(3):
            e["sum"] = ("x", float(mm.group(3)))
    elif k in STRS:
        mm = re.fullmatch(rb" min: (.*) max: (.*) sum: (\d+)", rest, re.S) or \
            re.fullmatch(rb"(?: min: (.*) max: (.*))?(?: sum: (\d+))?", rest, re.S)
        if not mm:
            raise ValueError("string statistics %r" % rest[:300])
        if mm.group(1) is not None:
            e["min"], e["max"] = TextOrHex(mm.group(1)), TextOrHex(mm.group(2))
        if mm.group(3) is not None:
            e["sum"] = int(mm.group(3))
    elif k == "binary":
        mm = re.fullmatch(rb"(?: sum: (\d+))?", rest)
        if mm.group(1):
            e["sum"] = int(mm.group(1))
    elif k in INT_RANGE or k in ("decimal", "date"):
        mm = re.fullmatch(rb"(?: min: (\S+) max: (\S+))?(?: sum: (\S+))?", rest)
        conv = {"decimal": lambda b: Decimal(b.decode()),
                "date": parse_date_text}.get(k, int)
        if mm.group(1):
            e["min"], e["max"] = conv(mm.group(1)), conv(mm.group(2))
        if mm.group(3):
            e["sum"] = conv(mm.group(3))
    elif k == "timestamp":
        mm = re.fullmatch(rb"(?: min: (.+) max: (.+))?", rest)
        if mm.group(1):
            for key, g in (("min", 1), ("max", 2)):
                secs, nanos = parse_ts_text(mm.group(g))
                e[key] = secs * 10 ** 9 + nanos
    elif rest.strip():
        raise ValueError("unexpected statistics %r for %s" % (rest, k))
    return e


# orc-statistics: "*** Column N ***" / "--- Column N ---" sections

def parse_cpp_stats(text, root):
    kinds = {c.id: c for c in root.walk()}
    head, stripes_text = re.split(rb"\nFile .* has \d+ stripes\n", text, maxsplit=1)
    file_stats = cpp_sections(head, rb"\*\*\* Column (\d+) \*\*\*\n", kinds)
    stripes = []
    for block in re.split(rb"\*\*\* Stripe \d+ \*\*\*\n", stripes_text)[1:]:
        stripes.append(cpp_sections(block, rb"--- Column (\d+) ---\n", kinds))
    return stripes, file_stats


def cpp_sections(text, pat, kinds):
    return stat_sections(text, pat, kinds, cpp_stat)


def cpp_ts(b):
    """ORC C++ prints millis as gmtime(ms / 1000) '.' ms % 1000 (C
    division: both toward zero)."""
    m = re.fullmatch(rb"([+-]?\d+)-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(-?\d+)", b)
    if not m or len(m.group(1)) > 4:
        return UNPRINTABLE      # a year past 9999: see from_json
    secs = days_of(int(m.group(1)), int(m.group(2)), int(m.group(3))) * 86400 + \
        int(m.group(4)) * 3600 + int(m.group(5)) * 60 + int(m.group(6))
    return secs * 1000 + int(m.group(7))


def cpp_stat(body, t):
    if not body.endswith(b"\n"):
        body += b"\n"
    m = re.match(rb"Column has (\d+) values and has null value: (yes|no)\n?$", body)
    if m:
        return {"count": int(m.group(1)), "hasNull": m.group(2) == b"yes"}
    k = t.kind
    if k in STRS:
        mm = re.fullmatch(rb"Data type: String\nValues: (\d+)\nHas null: (yes|no)\n"
                          rb"(?:Minimum: (.*)\nMaximum: (.*)\n|Minimum is not defined\n"
                          rb"Maximum is not defined\n)(?:Total length: (\d+)|Total length is not "
                          rb"defined)\n", body, re.S)
        if not mm:
            raise ValueError("string statistics %r" % body[:300])
        e = {"count": int(mm.group(1)), "hasNull": mm.group(2) == b"yes"}
        if mm.group(5) is not None:
            e["sum"] = int(mm.group(5))
        if mm.group(3) is not None:
            e["min"], e["max"] = mm.group(3), mm.group(4)
        return e
    lines = dict()
    for line in body.split(b"\n"):
        if b": " in line:
            key, _, val = line.partition(b": ")
            lines[key.decode()] = val
        elif line.strip():
            lines[line.decode()] = None
    e = {"count": int(lines["Values"]), "hasNull": lines["Has null"] == b"yes"}
    if k == "boolean":
        if b"\n(true: not defined; false: not defined)\n" in body:
            return e
        mm = re.search(rb"\n\(true: (\d+); false: (\d+)\)", body)
        if not mm:
            raise ValueError("boolean statistics %r" % body)
        e["true"] = int(mm.group(1))
        if int(mm.group(1)) + int(mm.group(2)) != e["count"]:
            raise ValueError("boolean statistics do not add up: %r" % body)
        return e
    if k in ("array", "map"):
        if "MinChildren" in lines:
            e["minChildren"] = int(lines["MinChildren"])
            e["maxChildren"] = int(lines["MaxChildren"])
        if "TotalChildren" in lines:
            e["totalChildren"] = int(lines["TotalChildren"])
        return e
    conv = {"date": int, "timestamp": cpp_ts, "decimal": lambda b: Decimal(b.decode()),
            "float": lambda b: ("g6", b.decode()), "double": lambda b: ("g6", b.decode())}
    cv = conv.get(k, int)
    for name, key in (("Minimum", "min"), ("Maximum", "max"), ("Sum", "sum")):
        if lines.get(name) not in (None, b"not defined"):
            e[key] = cv(lines[name])
    if k == "binary" and lines.get("Total length") not in (None, b"not defined"):
        e["sum"] = int(lines["Total length"])
    return e


def gfmt6(x):
    s = "%g" % x
    return "nan" if s in ("nan", "-nan") else s


def cpp_norm(e):
    out = dict(e)
    for key in ("min", "max", "sum"):
        v = out.get(key)
        if isinstance(v, tuple) and v[0] == "g6":
            out[key] = ("g6", "nan" if v[1] in ("nan", "-nan") else v[1])
    return out


def stats_agree(t, a, b):
    """The statistics both readers show (one may leave out an empty
    one) are the same."""
    keys = set(a) & set(b)
    return {"count", "hasNull"} <= keys and stats_equal(t, {k: a[k] for k in keys},
                                                       {k: b[k] for k in keys})


def stats_equal(t, a, b):
    if set(a) != set(b):
        return False
    for key in a:
        x, y = a[key], b[key]
        if x is UNPRINTABLE or y is UNPRINTABLE:
            Unprintable.count += 1
        elif isinstance(x, tuple) and x[0] == "x":
            if not float_eq(T("double"), x, y):
                return False
        elif x != y:
            return False
    return True


# ------------------------------------------------------------ checking

class Report:
    def __init__(self):
        self.files = 0
        self.stripes = 0
        self.file_rows = 0
        self.table_rows = 0
        self.rows_cmp = Counter()      # orc-contents vs comb -d, per file
        self.select_cmp = Counter()    # ORC C++'s rows vs comb SELECT
        self.model_cmp = Counter()     # generated rows vs comb SELECT
        self.stats_cmp = Counter()     # statistics, three ways
        self.meta_cmp = Counter()      # codec, counts, ACID metadata
        self.index_cmp = Counter()     # row indexes, bloom filters in ORC C++
        self.index_checks = []
        self.copy_cmp = Counter()      # ORC C++ file rows vs comb's copy
        self.conf_cmp = Counter()      # ORC's example files, both readers
        self.conf_stats_cmp = Counter()
        self.conf_files = self.conf_rows = 0
        self.conf_skipped = []
        self.tables = 0
        self.nul_rows = 0
        self.multi_stripe = 0

    def all_counters(self):
        return [("file rows (orc-contents vs comb orcfiledump -d)", self.rows_cmp),
                ("table rows (ORC C++ vs comb SELECT)", self.select_cmp),
                ("table rows (generated vs comb SELECT)", self.model_cmp),
                ("ORC C++ files copied by comb (file rows vs SELECT)", self.copy_cmp),
                ("ORC's example files (orc-contents vs comb orcfiledump -d)", self.conf_cmp),
                ("ORC's example files' statistics (both readers)", self.conf_stats_cmp),
                ("statistics (orc-statistics vs comb orcfiledump vs data)", self.stats_cmp),
                ("metadata (codec, counts, ACID key index and stats)", self.meta_cmp),
                ("row indexes and bloom filters (ORC C++ seeks and sargs)", self.index_cmp)]


def check_file(path, t, fkind, comb, tools, rep):
    meta = json.loads(tool(tools, "orc-metadata", path).decode("utf-8", "surrogateescape"))
    root = parse_type(meta["type"])
    contents = split_contents(tool(tools, "orc-contents", path), root.names[0])
    dump = [l for l in comb.dump(path, "-d").split(b"\n") if l]
    rep.files += 1
    rel = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
    if len(contents) != meta["rows"] or len(dump) != meta["rows"]:
        rep.rows_cmp.bad(rel, "rows: metadata %d, orc-contents %d, comb -d %d"
                         % (meta["rows"], len(contents), len(dump)))
    cpp_rows, comb_rows = [], []
    for i, (a, b) in enumerate(zip(contents, dump)):
        y = from_json(root, jparse(Src(b)), True, ("_key", "_value"))
        comb_rows.append(y)
        if not a.endswith(b"\n"):
            # orc-contents writes each row with strlen(): a NUL byte in a
            # string ends its output there, without the newline.  Check
            # that the row really holds one there: comb's row as ORC C++
            # prints it, cut at its first NUL, is what ORC C++ printed.
            rep.rows_cmp.values += 1
            rep.nul_rows += 1
            mine = cpp_text(root, y).replace(b"-nan", b"nan")
            if b"\0" not in mine or mine.split(b"\0")[0] != a.replace(b"-nan", b"nan"):
                rep.rows_cmp.bad("%s row %d" % (rel, i), "orc-contents stopped early: %s vs %s"
                                 % (show(a), show(mine)))
            cpp_rows.append(y)
            continue
        x = cpp_row(root, a)
        if x is UNPRINTABLE:     # garbled past parsing: take comb's row
            cpp_rows.append(y)
            continue
        compare(root, x, y, "%s row %d" % (rel, i), rep.rows_cmp)
        cpp_rows.append(x)
    rep.file_rows += len(contents)
    # metadata
    stripe_rows = [s["rows"] for s in meta["stripes"]]
    rep.stripes += len(stripe_rows)
    if len(stripe_rows) > 1:
        rep.multi_stripe += 1
    m = rep.meta_cmp
    m.values += 1
    if meta["compression"].upper() != t.codec:
        m.bad(rel, "compression %s, table says %s" % (meta["compression"], t.codec))
    m.values += 1
    if sum(stripe_rows) != meta["rows"]:
        m.bad(rel, "stripe rows %s do not add up to %d" % (stripe_rows, meta["rows"]))
    if t.kind == "acid":
        check_acid_meta(rel, meta, comb_rows, stripe_rows, fkind, m)
    if not t.location:
        check_index(path, rel, t, meta, tools, rep)
    # statistics
    stripes_imp, file_imp = implied_stats(root, comb_rows, stripe_rows)
    comb_stripes, comb_file = parse_comb_stats(comb.dump(path, None), root)
    cpp_stripes, cpp_file = parse_cpp_stats(tool(tools, "orc-statistics", path), root)
    levels = [("file", file_imp, comb_file, cpp_file)]
    for i, s in enumerate(stripes_imp):
        levels.append(("stripe %d" % i, s, comb_stripes[i] if i < len(comb_stripes) else {},
                       cpp_stripes[i] if i < len(cpp_stripes) else {}))
    if len(comb_stripes) != len(stripe_rows) or len(cpp_stripes) != len(stripe_rows):
        rep.stats_cmp.bad(rel, "stripe statistics: %d stripes, comb %d, ORC C++ %d"
                          % (len(stripe_rows), len(comb_stripes), len(cpp_stripes)))
    for level, imp, cs, ps in levels:
        for c in root.walk():
            want = imp[c.id].expect()
            got_comb = cs.get(c.id)
            got_cpp = ps.get(c.id)
            where = "%s %s column %d (%s)" % (rel, level, c.id, c)
            rep.stats_cmp.values += 2
            if t.location:
                # not comb's file: its writer's statistics are its own
                # (ORC C++ turns timestamps of other zones into stats
                # that disagree with its data); the two readers agree
                if got_comb is None or got_cpp is None or \
                        not stats_agree(c, cpp_view(c, got_comb),
                                        java_text_view(c, cpp_norm(got_cpp))):
                    rep.stats_cmp.bad(where, "comb orcfiledump %s, orc-statistics %s"
                                      % (show(got_comb), show(got_cpp)))
                continue
            want_hive = hive_view(c, want)
            if got_comb is None or not stats_equal(c, want_hive, got_comb):
                rep.stats_cmp.bad(where, "comb orcfiledump %s, data %s" % (show(got_comb),
                                                                          show(want_hive)))
            want_cpp = cpp_view(c, want)
            if got_cpp is None or not stats_equal(c, want_cpp, cpp_norm(got_cpp)):
                rep.stats_cmp.bad(where, "orc-statistics %s, data %s" % (show(got_cpp), show(want_cpp)))
    return root, cpp_rows


def cpp_text(t, v):
    """A canonical value (exact floats) as ORC C++'s orc-contents prints
    it (ColumnPrinter.cc)."""
    if v is None:
        return b"null"
    k = t.kind
    if k == "struct":
        return b"{" + b", ".join(b'"' + n.encode() + b'": ' + cpp_text(c, x)
                                 for n, c, x in zip(t.names, t.children, v)) + b"}"
    if k == "array":
        return b"[" + b", ".join(cpp_text(t.children[0], x) for x in v) + b"]"
    if k == "map":
        return b"[" + b", ".join(b'{"key": ' + cpp_text(t.children[0], a) + b', "value": ' +
                                 cpp_text(t.children[1], b) + b"}" for a, b in v) + b"]"
    if k == "binary":
        return b"[" + b", ".join(str(c).encode() for c in v) + b"]"
    if k == "boolean":
        return b"true" if v else b"false"
    if k in INT_RANGE:
        return str(v).encode()
    if k in ("float", "double"):
        return gfmt(v[1], k == "float").encode()
    if k == "decimal":
        txt = format(v, "f")
        if "." in txt:
            txt = txt.rstrip("0").rstrip(".")
        return b'"' + txt.encode() + b'"'
    if k in STRS:
        esc = {0x5C: b"\\\\", 8: b"\\b", 12: b"\\f", 10: b"\\n", 13: b"\\r", 9: b"\\t",
               0x22: b'\\"'}
        return b'"' + b"".join(esc.get(c, bytes([c])) for c in v) + b'"'
    if k == "date":
        d = date_of_days(v)
        return b'"%d-%02d-%02d"' % (d.year, d.month, d.day)
    if k == "timestamp":
        secs, nanos = v
        d = date_of_days(secs // 86400)
        tod = secs % 86400
        frac = "0" if nanos == 0 else ("%09d" % nanos).rstrip("0")
        return b'"%d-%02d-%02d %02d:%02d:%02d.%s"' % (d.year, d.month, d.day, tod // 3600,
                                                    tod // 60 % 60, tod % 60, frac.encode())
    raise ValueError(k)


def cpp_row(root, text):
    """An orc-contents row as canonical values, or UNPRINTABLE when a year
    past 9999 garbled it (its 20-byte buffer: any byte may come out, a
    quote too, so the row may not parse)."""
    try:
        return from_json(root, jparse(Src(text)), False, ("key", "value"))
    except (ValueError, IndexError):
        if not re.search(rb'": "\d{5}-\d\d-\d\d ', text):
            raise
        Unprintable.count += 1
        return UNPRINTABLE


def split_contents(out, first):
    """orc-contents' rows.  A row starts with '{"<first field>": ',
    which cannot occur inside a value (quotes in strings are escaped)."""
    pat = re.compile(rb'\{"' + re.escape(first.encode()) + rb'": ')
    starts = [m.start() for m in pat.finditer(out)]
    return [out[a:b] for a, b in zip(starts, starts[1:] + [len(out)])]


def check_acid_meta(rel, meta, rows, stripe_rows, fkind, m):
    um = meta.get("user metadata", {})
    keys = []
    pos = 0
    for n in stripe_rows:
        pos += n
        last = rows[pos - 1]
        keys.append("%d,%d,%d;" % (last[1], last[2], last[3]))
    m.values += 3
    if um.get("hive.acid.key.index") != "".join(keys):
        m.bad(rel, "hive.acid.key.index %r, rows imply %r" % (um.get("hive.acid.key.index"),
                                                             "".join(keys)))
    n = meta["rows"]
    want = "%d,0,0" % n if fkind == "insert" else "0,0,%d" % n
    if um.get("hive.acid.stats") != want:
        m.bad(rel, "hive.acid.stats %r, want %r" % (um.get("hive.acid.stats"), want))
    if um.get("hive.acid.version") != "2":
        m.bad(rel, "hive.acid.version %r" % um.get("hive.acid.version"))
    ops = {0: "insert", 2: "delete"}
    for i, r in enumerate(rows):
        m.values += 1
        if ops.get(r[0]) != fkind or (fkind == "delete") != (r[5] is None) or \
                (fkind == "insert" and r[1] != r[4]):
            m.bad(rel, "row %d: operation %s, originalTransaction %s, currentTransaction %s "
                  "in a %s file" % (i, r[0], r[1], r[4], fkind))
    prev = None
    for i, r in enumerate(rows):
        key = (r[1], r[2], r[3])
        m.values += 1
        if prev is not None and not prev < key:
            m.bad(rel, "row %d: key %s not after %s" % (i, key, prev))
        prev = key


def check_index(path, rel, t, meta, tools, rep):
    """comb's row index and bloom filters as ORC C++ sees them: the footer's
    stride, a ROW_INDEX stream per column in every stripe, a
    BLOOM_FILTER_UTF8 one (kind 8) per bloom column, and orc_index_check
    (seekToRow to every row group and search-argument scans through the
    filters give the full scan's rows)."""
    cnt = rep.index_cmp
    cnt.values += 1
    if meta.get("row index stride") != INDEX_STRIDE:
        cnt.bad(rel, "row index stride %s" % meta.get("row index stride"))
    v = json.loads(tool(tools, "orc-metadata", "-v", path).decode("utf-8", "surrogateescape"))
    root = parse_type(v["type"])
    n_cols = sum(1 for _ in root.walk())
    for st in v["stripes"]:
        kinds = [(s["column"], s["kind"]) for s in st["streams"]]
        cnt.values += 1
        if sum(1 for c, k in kinds if k == "index") != n_cols:
            cnt.bad(rel, "stripe %d: %d ROW_INDEX streams for %d columns"
                    % (st["stripe"], sum(1 for c, k in kinds if k == "index"), n_cols))
        if t.kind != "acid":
            cnt.values += 1
            blooms = sum(1 for c, k in kinds if k == "unknown - 8")
            want = len(bloom_columns(SCHEMAS[t.schema]))
            if blooms != want:
                cnt.bad(rel, "stripe %d: %d bloom filter streams, want %d"
                        % (st["stripe"], blooms, want))
    if not INDEX_CHECK[0]:
        return
    p = subprocess.run([INDEX_CHECK[0], path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    cnt.values += 1
    rep.index_checks.append(p.stdout.decode("utf-8", "replace").strip())
    if p.returncode != 0:
        cnt.bad(rel, "orc_index_check: %s" % (p.stderr or p.stdout).decode("utf-8", "replace")
                .strip()[:300])


INDEX_CHECK = [None]


def check_table(t, wh, comb, tools, rep, on_file=None):
    """on_file(path, fkind, root, rows), if given, sees each file's rows
    as ORC C++ read them."""
    tdir = t.location or os.path.join(wh, t.name)
    files = [(pv, path, fkind) for pv, d in partition_dirs(t, tdir)
             for path, fkind in data_files(t, d)]
    if not files:
        rep.meta_cmp.bad(t.name, "no data files")
    inserted, deleted = {}, set()
    for pvals, path, fkind in files:
        root, rows = check_file(path, t, fkind, comb, tools, rep)
        if on_file:
            on_file(path, fkind, root, rows)
        if t.kind == "acid":
            if fkind == "delete":
                deleted.update(pvals + (r[1], r[2], r[3]) for r in rows)
            else:
                for r in rows:
                    inserted[pvals + (r[1], r[2], r[3])] = r[5]
            ver = os.path.join(os.path.dirname(path), "_orc_acid_version")
            rep.meta_cmp.values += 1
            if not os.path.exists(ver) or open(ver, "rb").read() != b"2":
                rep.meta_cmp.bad(path, "_orc_acid_version missing or not '2'")
        else:
            for r in rows:
                if r[0] in inserted:
                    rep.select_cmp.bad(t.name, "id %s in two files" % r[0])
                inserted[r[0]] = r
    if t.kind == "acid":
        visible = {k: v for k, v in inserted.items() if k not in deleted}
    else:
        visible = inserted
    sel = comb_select(comb, t)
    rep.tables += 1
    rep.table_rows += len(sel)
    cnt = rep.select_cmp
    for k in sorted(set(visible) | set(sel), key=repr):
        where = "%s key %s" % (t.name, k)
        if k not in sel or k not in visible:
            cnt.values += 1
            cnt.bad(where, "only in %s" % ("ORC C++'s rows" if k in visible else "comb's SELECT"))
            continue
        compare(t.root, visible[k], sel[k], where, cnt)
    by_id = {}
    for k, r in sel.items():
        by_id[r[0]] = r
    if t.canon is not None:
        want, cnt, what = t.canon, rep.copy_cmp, "the source file's rows"
    elif t.rows is not None:
        want = {i: canon_from_model(t.root, r) for i, r in t.rows.items()}
        cnt, what = rep.model_cmp, "the generated rows"
    else:
        return visible
    for i in sorted(set(by_id) | set(want)):
        where = "%s id %s" % (t.name, i)
        if i not in by_id or i not in want:
            cnt.values += 1
            cnt.bad(where, "only in %s" % (what if i in want else "comb's SELECT"))
            continue
        compare(t.root, want[i], by_id[i], where, cnt)
    return visible


# ------------------------------------------- files ORC C++ writes

# csv-import takes primitive columns only, a NULL as an empty field and no
# quoting; its timestamps go through a double (nanos may lose a digit) and
# its dates through mktime (run in UTC).  Whatever it stores, comb must
# read what ORC C++ reads.
FOREIGN_COLS = [
    ("id", "int"), ("b", "boolean"), ("ti", "tinyint"), ("si", "smallint"),
    ("i", "int"), ("bi", "bigint"), ("f", "float"), ("d", "double"),
    ("s", "string"), ("vc", "varchar(10)"), ("ch", "char(8)"),
    ("dsm", "decimal(18,4)"), ("dlg", "decimal(38,18)"), ("dt", "date"),
    ("ts", "timestamp"), ("bin", "binary"), ("run", "bigint"),
]
# Zones where ORC C++ and Java agree on the offsets before the first
# transition (the standard time of today): Asia/Kolkata, for one, had two
# other standard times before 1900, which ORC C++ uses and Java and comb
# do not.
FOREIGN_ZONES = ["GMT", "America/Los_Angeles", "Asia/Tokyo"]


def csv_field(t, v):
    if v is None:
        return b""
    k = t.kind
    if k in ("float", "double"):
        if math.isnan(v):
            return b"nan"
        if math.isinf(v):
            return b"inf" if v > 0 else b"-inf"
        return repr(v).encode()
    if k in STRS or k == "binary":
        v = bytes(c for c in v if c not in b"|\n\r\x00")
        return v or b"x"
    return text_value(t, v, 1)


def foreign_files(comb, tools, work, n_rows, seed, rep):
    """Files written by ORC C++'s csv-import (one per writer time zone,
    several stripes, its own RLE choices and row indexes), read by comb
    as an external table and copied into a full-ACID one."""
    names, root = schema_types(FOREIGN_COLS)
    gen = Gen(seed * 31 + 7)
    cols = [list(range(n_rows))] + [shaped_column(gen, c, n_rows) for c in root.children[1:]]
    csv_path = os.path.join(work, "cpp.csv")
    with open(csv_path, "wb") as f:
        for r in zip(*cols):
            f.write(b"|".join(csv_field(c, v) for c, v in zip(root.children, r)) + b"\n")
    coldefs = ", ".join("%s %s" % (n, ddl_type(c)) for n, c in zip(names, root.children))
    env = dict(os.environ, TZ="UTC")
    tables = []
    for zone in FOREIGN_ZONES:
        name = "cpp_" + re.sub(r"\W", "_", zone).lower()
        d = os.path.join(work, name)
        os.makedirs(d)
        subprocess.run([os.path.join(tools, "csv-import"), "-d", "|", "-s", "65536",
                        "-t", zone, str(root), csv_path, os.path.join(d, "part-00000.orc")],
                       stdout=subprocess.DEVNULL, check=True, env=env)
        t = Table(name, None, "plain", "ZLIB", cols=FOREIGN_COLS)
        t.location, t.rows = d, None
        comb.run_sql("CREATE EXTERNAL TABLE %s (%s) STORED AS ORC LOCATION '%s'"
                     % (name, coldefs, d))
        copy = Table(name + "_copy", None, "acid", "ZSTD", cols=FOREIGN_COLS)
        comb.run_sql("CREATE TABLE %s (%s) STORED AS ORC TBLPROPERTIES (%s); "
                     "INSERT INTO %s SELECT * FROM %s"
                     % (copy.name, coldefs, table_props("acid", "ZSTD", 1 << 20),
                        copy.name, name))
        tables.append((t, copy))
    return tables


# ---------------------------------------- Apache ORC's conformance files

CONF_ROWS = 4000   # rows compared per example file (some have 1.9 million)


def head_output(args, env, limit=8 << 20):
    """The first `limit` bytes a command prints, and whether that was all."""
    p = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read(limit)
    whole = len(out) < limit
    p.stdout.close()
    if whole:
        rc = p.wait()
    else:
        p.kill()
        p.wait()
        rc = 0
    return out, whole, rc


def conformance_files(comb, tools, testdata, rep):
    """The ORC project's example files (written by ORC Java, ORC C++ and
    Hive 0.11): their first rows as orc-contents and comb's reader read
    them, and their statistics.  Files that name no writer zone are read
    in the local zone: $TZ is unset (ORC C++'s statistics of such a file
    were seen to take /etc/localtime with $TZ set)."""
    d = os.path.join(testdata, "orc")
    if not os.path.isdir(d):
        print("  (no %s: the ORC conformance files were not compared)" % d)
        return
    env = {k: v for k, v in os.environ.items() if k != "TZ"}
    cnt = rep.conf_cmp
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        if not name.endswith(".orc"):
            continue
        p = subprocess.run([os.path.join(tools, "orc-metadata"), path], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        m = re.search(rb'\n  "type": "([^"]*)",', p.stdout)
        if p.returncode != 0 or not m:
            rep.conf_skipped.append("%s (ORC C++ cannot open it)" % name)
            continue
        root = parse_type(m.group(1).decode())
        # comb's -d prints a union's value only (as Hive's): a file with
        # one is compared in comb's orc-contents form, tags included
        union = any(c.kind == "union" for c in root.walk())
        mode = "--contents" if union else "-d"
        mine, mine_whole, rc = head_output([comb.exe, "orcfiledump", mode, path], env)
        if rc != 0:
            err = subprocess.run([comb.exe, "orcfiledump", path], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE).stderr.decode("utf-8", "replace")
            if "future ORC version" in err:
                rep.conf_skipped.append("%s (a future format version, which comb refuses)"
                                        % name)
            else:
                cnt.values += 1
                cnt.bad(name, "comb cannot read it: %s" % err.strip()[:200])
            continue
        cpp, cpp_whole, _ = head_output([os.path.join(tools, "orc-contents"), path], env)
        first = root.names[0] if root.kind == "struct" else None
        # after the last newline: nothing, or part of a row when cut short
        if first:
            a_rows = split_contents(cpp, first)
            a_rows = a_rows if cpp_whole else a_rows[:-1]
        else:
            a_rows = [l + b"\n" for l in cpp.split(b"\n")[:-1]]
        b_rows = mine.split(b"\n")[:-1]
        rep.conf_files += 1
        if cpp_whole and mine_whole and len(a_rows) != len(b_rows) and (first or b_rows):
            cnt.values += 1
            cnt.bad(name, "%d rows in orc-contents, %d in comb's" % (len(a_rows), len(b_rows)))
        n = min(len(a_rows), len(b_rows), CONF_ROWS)
        rep.conf_rows += n
        for i in range(n):
            x = cpp_row(root, a_rows[i])
            y = from_json(root, jparse(Src(b_rows[i])), not union,
                          ("key", "value") if union else ("_key", "_value"))
            compare(root, x, y, "%s row %d" % (name, i), cnt)
        conformance_stats(comb, tools, path, name, root, env, rep)


def conformance_stats(comb, tools, path, name, root, env, rep):
    """The statistics of an example file as both readers show them."""
    dump = subprocess.run([comb.exe, "orcfiledump", path], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    cpp = subprocess.run([os.path.join(tools, "orc-statistics"), path], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    cnt = rep.conf_stats_cmp
    try:
        comb_stripes, comb_file = parse_comb_stats(dump, root)
        cpp_stripes, cpp_file = parse_cpp_stats(cpp, root)
    except (ValueError, AttributeError, KeyError) as e:
        cnt.values += 1
        cnt.bad(name, "statistics not understood: %s" % str(e)[:200])
        return
    levels = [("file", comb_file, cpp_file)] + [
        ("stripe %d" % i, a, b) for i, (a, b) in enumerate(zip(comb_stripes, cpp_stripes))]
    for level, cs, ps in levels:
        for c in root.walk():
            a, b = cs.get(c.id), ps.get(c.id)
            cnt.values += 1
            if a is None and b is None:     # the file has none
                continue
            if a is None or b is None or not stats_agree(c, cpp_view(c, a), cpp_norm(b)):
                cnt.bad("%s %s column %d (%s)" % (name, level, c.id, c),
                        "comb orcfiledump %s, orc-statistics %s" % (show(a), show(b)))


def print_counters(counters, show):
    """One line per (name, Counter) with its first `show` mismatches; the
    number of mismatches in all."""
    total = 0
    for name, c in counters:
        print("  %-66s %9d values, %d mismatches" % (name, c.values, len(c.mismatches)))
        for line in c.mismatches[:show]:
            print("    " + line)
        if len(c.mismatches) > show:
            print("    ... %d more" % (len(c.mismatches) - show))
        total += len(c.mismatches)
    return total


def finish(tool, total, keep, wh, work):
    """The verdict line; the warehouse kept on a mismatch or when asked.
    The exit status."""
    print("%s: %s (%d mismatches)" % (tool, "FAILED" if total else "OK", total))
    if keep or total:
        print("warehouse kept in %s" % wh)
    else:
        shutil.rmtree(work)
    return 1 if total else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--comb", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stripe-size", type=int, default=1 << 16,
                    help="orc.stripe.size of the tables (deltas get 1/8)")
    ap.add_argument("--codecs", default=",".join(CODECS))
    ap.add_argument("--keep", action="store_true", help="keep the warehouse")
    ap.add_argument("--testdata", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "..", "shared", "testdata"),
        help="test data with Apache ORC's example files in orc/")
    ap.add_argument("--show", type=int, default=20, help="mismatches shown per check")
    ap.add_argument("--index-check", default=None,
                    help="orc_index_check binary (built against ORC C++ by orc_crosscheck.sh)")
    args = ap.parse_args()
    INDEX_CHECK[0] = args.index_check
    work = tempfile.mkdtemp(prefix="orc-crosscheck.")
    wh = os.path.join(work, "warehouse")
    rep = Report()
    with open(os.path.join(work, "statements.log"), "wb") as log:
        comb = Comb(args.comb, wh, log)
        codecs = [c.strip().upper() for c in args.codecs.split(",") if c.strip()]
        tables = build(comb, work, args.rows, args.seed, args.stripe_size, codecs, log)
        for t in tables:
            check_table(t, wh, comb, args.tools, rep)
        for ext, copy in foreign_files(comb, args.tools, work, args.rows, args.seed, rep):
            copy.canon = check_table(ext, wh, comb, args.tools, rep)
            check_table(copy, wh, comb, args.tools, rep)
        conformance_files(comb, args.tools, args.testdata, rep)
    print("orc_crosscheck: %d tables, %d files (%d of them with several stripes), %d stripes,"
          " %d file rows, %d table rows" % (rep.tables, rep.files, rep.multi_stripe,
                                            rep.stripes, rep.file_rows, rep.table_rows))
    if rep.conf_files or rep.conf_skipped:
        print("  (%d of ORC's example files, %d rows; not compared: %s)"
              % (rep.conf_files, rep.conf_rows, "; ".join(rep.conf_skipped) or "none"))
    if rep.index_checks:
        seeks = sum(int(re.search(r"(\d+) seeks", l).group(1)) for l in rep.index_checks
                    if re.search(r"(\d+) seeks", l))
        sargs = sum(int(re.search(r"(\d+) search arguments", l).group(1))
                    for l in rep.index_checks if re.search(r"(\d+) search arguments", l))
        print("  (ORC C++ seekToRow through comb's row indexes: %d seeks; %d search-argument"
              " scans through its statistics and bloom filters, in %d files)"
              % (seeks, sargs, len(rep.index_checks)))
    elif not INDEX_CHECK[0]:
        print("  (orc_index_check not built: ORC C++'s seeks and search arguments not tried)")
    if rep.nul_rows:
        print("  (%d file rows hold a NUL byte in a string, where orc-contents stops"
              " printing: checked up to it)" % rep.nul_rows)
    if Unprintable.count:
        print("  (%d timestamps after 9999-12-31 23:59:59 that orc-contents cannot print,"
              " not compared, or rows they garbled)" % Unprintable.count)
    if QUIRKS[0]:
        print("  (%d timestamps of the generated rows lie in 1969-12-31 23:59:59.001 to"
              " .999999999, which ORC reads as a second later: expected so)" % QUIRKS[0])
    total = print_counters(rep.all_counters(), args.show)
    return finish("orc_crosscheck", total, args.keep, wh, work)


if __name__ == "__main__":
    sys.exit(main())
