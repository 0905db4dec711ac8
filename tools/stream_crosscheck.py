#!/usr/bin/env python3
"""Cross-check the files `comb stream` writes with Apache ORC C++'s tools.

Run through tools/stream_crosscheck.sh.  For every codec (orc.compress)
it streams CSV records of every column type the stream takes through
`comb stream` into three full-ACID tables: one with dynamic partitions,
one bucketed, one in upsert mode (a change stream of inserts, updates and
deletes by key, so delete deltas too), a few transactions per batch and
several batches.  The records go in one transaction at a time; once a
commit is visible to a SELECT in another process (exactly the rows
committed so far, no more) every streaming file and its `_flush_length`
side file are copied while the batch is still open.  Then:

1. every committed length of every side file: the file's prefix of that
   length, as a file of its own, goes through orc_crosscheck's file check
   (orc-contents against `comb orcfiledump -d` value by value, orc-metadata's
   codec, stripe rows, hive.acid.key.index / stats / version, statistics of
   every column in three ways) and must hold exactly the rows of the
   transactions committed by then, one stripe per transaction, the same
   rows as the closed file begins with; a prefix must have the same bytes
   in every later copy (the writer only appends);
2. after close: no side file is left, and every table goes through
   orc_crosscheck's table check (each file as above, ORC C++'s rows with
   delete events applied against comb's SELECT, comb's SELECT against the
   records streamed); a streaming file has one stripe per transaction;
3. the layout against Hive's own streaming file
   (../shared/testdata/hive-acid-tables/impala_streaming_delta_1_2): the
   same ACID row schema, one stripe per transaction, a key index entry per
   stripe naming that transaction's last row, rowIds starting at 0 in
   every transaction, hive.acid.stats over the whole file.

Only the Python 3 standard library and tools/orc_crosscheck.py.  Exit
status 1 on any mismatch.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True      # no __pycache__ in the tree
import orc_crosscheck as oc  # noqa: E402

# the stream takes the primitive types (tools/orc_crosscheck.py's "prim")
COLS = oc.SCHEMAS["prim"]
SHAPES = ["part", "bucket", "upsert"]
N_PARTS = 3
N_BUCKETS = 3
STRIPE_SIZE = 4 << 20


def stream_field(t, v):
    """A value as a CSV field of `comb stream` (docs/stream.md): NULL an
    unquoted empty field, text and binary (Base64) always quoted (so ""
    is the empty value), the rest as Hive's text."""
    if v is None:
        return b""
    if t.kind in oc.STRS:
        return b'"' + v.replace(b'"', b'""') + b'"'
    if t.kind == "binary":
        return b'"' + oc.text_value(t, v, 1) + b'"'
    return oc.text_value(t, v, 1)


def part_of(i):
    return "p%d" % (i % N_PARTS)


class Stream:
    """A table, its records in transactions and the model of its rows."""

    def __init__(self, shape, codec, n_rows, per_txn, seed):
        self.shape = shape
        self.t = oc.Table("s_%s_%s" % (shape, codec.lower()), None, "acid", codec, cols=COLS)
        if shape == "part":
            self.t.parts = ["p"]
        self.per_txn = per_txn
        self.txns = []        # [[record bytes]]
        self.counts = []      # rows visible after each txn
        self.make(n_rows, seed)

    def record(self, row, op=None):
        fields = [stream_field(c, v) for c, v in zip(self.t.root.children, row)]
        if self.shape == "part":
            fields.append(part_of(row[0]).encode())
        if op:
            fields.insert(0, op.encode())
        return b",".join(fields) + b"\n"

    def make(self, n_rows, seed):
        gen = oc.Gen(seed)
        cols = [list(range(n_rows))] + [oc.shaped_column(gen, c, n_rows)
                                        for c in self.t.root.children[1:]]
        rows = [list(r) for r in zip(*cols)]
        model, recs = {}, []
        if self.shape != "upsert":
            for r in rows:
                model[r[0]] = r
                recs.append(self.record(r))
                self.counts.append(len(model))
        else:
            # a change stream over n_rows / 3 keys: inserts of new keys,
            # updates (whole new rows) and deletes of present ones
            rnd = random.Random(seed)
            for r in rows:
                key = rnd.randrange(max(1, n_rows // 3))
                if key in model and rnd.random() < 0.3:
                    del model[key]
                    recs.append(self.record([key] + [None] * (len(r) - 1), "D"))
                else:
                    op = "U" if key in model else "I"
                    model[key] = [key] + r[1:]
                    recs.append(self.record(model[key], op))
                self.counts.append(len(model))
        self.t.rows = model
        self.txns = [recs[i:i + self.per_txn] for i in range(0, len(recs), self.per_txn)]
        self.counts = [self.counts[min(i + self.per_txn, len(recs)) - 1]
                       for i in range(0, len(recs), self.per_txn)]

    def ddl(self):
        coldefs = ", ".join("%s %s" % (n, oc.ddl_type(c))
                            for n, c in zip(self.t.names, self.t.root.children))
        extra = {"part": " PARTITIONED BY (p STRING)",
                 "bucket": " CLUSTERED BY (id) INTO %d BUCKETS" % N_BUCKETS,
                 "upsert": ""}[self.shape]
        # orc_crosscheck's settings: a row index every 1000 rows, 8 KiB
        # compression chunks, bloom filters; stripes large enough for a
        # txn's rows (deltas get 1/8)
        return ("CREATE TABLE %s (%s)%s STORED AS ORC TBLPROPERTIES (%s)"
                % (self.t.name, coldefs, extra,
                   oc.table_props("acid", self.t.codec, STRIPE_SIZE, oc.bloom_columns(COLS))))


def count_rows(comb, name):
    out = comb.run_sql("SELECT count(*) FROM %s" % name, csv_out=True).split(b"\n")
    return int(out[1])


def side_files(table_dir):
    """{path of the data file relative to the table: its side file's bytes}"""
    out = {}
    for d, _, names in os.walk(table_dir):
        for n in names:
            if n.endswith("_flush_length"):
                data = os.path.join(d, n[:-len("_flush_length")])
                with open(os.path.join(d, n), "rb") as f:
                    out[os.path.relpath(data, table_dir)] = f.read()
    return out


def lengths(side):
    return [int.from_bytes(side[i:i + 8], "big") for i in range(0, len(side) - 7, 8)]


class Snapshot:
    """Copies of a table's streaming files and side files after one commit."""

    def __init__(self, txn, table_dir):
        self.txn = txn
        self.files = {}
        for rel, side in side_files(table_dir).items():
            with open(os.path.join(table_dir, rel), "rb") as f:
                self.files[rel] = (lengths(side), f.read())


def run_stream(comb, s, batch, wh, rep):
    """Streams s's records one txn at a time; after each visible commit a
    Snapshot of the open batch's files.  Returns the snapshots, None when
    a commit was not seen (counted; the table is not checked further)."""
    args = [comb.exe, "--warehouse", wh, "stream", "--table", s.t.name, "--format", "csv",
            "--batch-size", str(batch), "--commit-rows", str(s.per_txn),
            "--commit-interval", "0", "--quiet"]
    if s.shape == "upsert":
        args += ["--upsert-key", "id", "--op-column", "op"]
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stderr=err)
    tdir = os.path.join(wh, s.t.name)
    snaps = []
    cnt = rep.visible_cmp
    for j, recs in enumerate(s.txns):
        p.stdin.write(b"".join(recs))
        p.stdin.flush()
        if j == len(s.txns) - 1:
            break           # the last one commits at the end of input
        deadline = time.time() + 120
        while True:
            try:
                n = count_rows(comb, s.t.name)
            except RuntimeError as e:   # comb cannot read what was committed
                n = str(e).strip().split("\n")[-1]
                break
            if n == s.counts[j] or time.time() > deadline or p.poll() is not None:
                break
            time.sleep(0.05)
        cnt.values += 1
        if n != s.counts[j]:
            cnt.bad("%s txn %d" % (s.t.name, j + 1), "a SELECT sees %s rows, %d committed"
                    % (n, s.counts[j]))
            p.kill()
            p.wait()
            return None
        snaps.append(Snapshot(j, tdir))
    p.stdin.close()
    rc = p.wait()
    err.seek(0)
    msg = err.read().decode("utf-8", "replace")
    if rc != 0:
        raise RuntimeError("comb stream into %s: exit %d: %s" % (s.t.name, rc, msg))
    cnt.values += 1
    if count_rows(comb, s.t.name) != s.counts[-1]:
        cnt.bad(s.t.name, "after close a SELECT sees %d rows, %d committed"
                % (count_rows(comb, s.t.name), s.counts[-1]))
    left = side_files(tdir)
    rep.meta_cmp.values += 1
    if left:
        rep.meta_cmp.bad(s.t.name, "side files left after close: %s" % sorted(left))
    return snaps


def stripe_count(tools, path):
    meta = json.loads(oc.tool(tools, "orc-metadata", path).decode("utf-8", "surrogateescape"))
    return len(meta["stripes"]), meta


def check_final(s, wh, comb, tools, rep):
    """The closed table: orc_crosscheck's table check, and one stripe per
    transaction in each file (as Hive's streaming file).  Returns the rows
    ORC C++ read from each insert file: {path relative to the table: rows}."""
    rows_of = {}

    def keep_rows(path, fkind, root, rows):
        rel = os.path.relpath(path, s.tdir)
        rows_of[rel] = (root, rows)
        n, _ = stripe_count(tools, path)
        wids = len(set(r[4] for r in rows))
        rep.layout_cmp.values += 1
        if fkind == "insert" and n != wids:
            rep.layout_cmp.bad(rel, "%d stripes for %d transactions" % (n, wids))

    oc.check_table(s.t, wh, comb, tools, rep.final, keep_rows)
    return rows_of


def check_prefixes(s, snaps, final, work, comb, tools, rep):
    """Every committed length of every snapshot's files: the prefix read
    alone has exactly the rows committed by then."""
    seen = {}          # (rel, length) -> prefix bytes
    committed = rep.prefix_rows_cmp
    for snap in snaps:
        in_batch = 0
        for rel, (lens, data) in sorted(snap.files.items()):
            where = "%s %s after txn %d" % (s.t.name, rel, snap.txn + 1)
            if rel not in final:
                rep.prefix.meta_cmp.bad(where, "no such file after close")
                continue
            root, rows = final[rel]
            first_wid = rows[0][4] if rows else 0
            for e, length in enumerate(lens):
                if e == 0 or length == 0:
                    continue    # the side file starts with 0: nothing committed
                committed.values += 1
                if length > len(data):
                    committed.bad(where, "committed length %d beyond the file's %d bytes"
                                  % (length, len(data)))
                    continue
                prefix = data[:length]
                old = seen.get((rel, length))
                if old is not None:
                    if old != prefix:
                        committed.bad(where, "the first %d bytes changed after their commit"
                                      % length)
                    continue
                seen[(rel, length)] = prefix
                path = os.path.join(work, "prefix", "%s.%s" % (s.t.name, os.path.dirname(rel)
                                                                .replace("/", ".")),
                                    "%s.len%d" % (os.path.basename(rel), length))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(prefix)
                _, got = oc.check_file(path, s.t, "insert", comb, tools, rep.prefix)
                # entry e is the e-th txn of the batch
                want = [r for r in rows if r[4] < first_wid + e]
                if len(got) != len(want):
                    committed.bad("%s length %d" % (where, length),
                                  "%d rows, %d committed by then" % (len(got), len(want)))
                for i, (x, y) in enumerate(zip(got, want)):
                    oc.compare(root, x, y, "%s length %d row %d" % (where, length, i), committed)
                n, _ = stripe_count(tools, path)
                rep.layout_cmp.values += 1
                if n != e:
                    rep.layout_cmp.bad("%s length %d" % (where, length),
                                       "%d stripes after %d transactions" % (n, e))
            if lens and lens[-1] and rows:
                in_batch += sum(1 for r in rows if r[4] < first_wid + len(lens) - 1)
        if s.shape != "upsert" and snap.files:
            # the rows below the last lengths: exactly this batch's commits
            k = snap.txn % s.batch + 1
            committed.values += 1
            if in_batch != k * s.per_txn:
                committed.bad("%s after txn %d" % (s.t.name, snap.txn + 1),
                              "%d rows below the committed lengths, %d committed in the batch"
                              % (in_batch, k * s.per_txn))
        elif s.shape != "upsert" and snap.txn % s.batch != s.batch - 1:
            committed.bad("%s after txn %d" % (s.t.name, snap.txn + 1),
                          "no side file while the batch is open")


def key_index(meta):
    um = meta.get("user metadata", {})
    return [tuple(int(x) for x in e.split(",")) for e in
            um.get("hive.acid.key.index", "").split(";") if e]


def check_layout(streams, finals, tools, testdata, rep):
    """comb's streaming files shaped as Hive's own one."""
    hive = os.path.join(testdata, "hive-acid-tables", "impala_streaming_delta_1_2",
                        "delta_1_2", "streaming.orc")
    if not os.path.exists(hive):
        rep.layout_notes.append("Hive's streaming file not found (%s): not compared" % hive)
        return
    n, hmeta = stripe_count(tools, hive)
    cnt = rep.layout_cmp
    want_type = oc.parse_type(hmeta["type"])
    hive_keys = key_index(hmeta)
    rep.layout_notes.append(
        "Hive's streaming file: %s, %d stripes of %s rows, key index %s, hive.acid.stats %s"
        % (os.path.relpath(hive, testdata), n, [st["rows"] for st in hmeta["stripes"]],
           hmeta["user metadata"].get("hive.acid.key.index"),
           hmeta["user metadata"].get("hive.acid.stats")))
    shown = False
    for s, final in zip(streams, finals):
        for rel, (root, rows) in sorted(final.items()):
            if not rel.split("/")[-2].startswith("delta_") or not rows:
                continue
            path = os.path.join(s.tdir, rel)
            n, meta = stripe_count(tools, path)
            keys = key_index(meta)
            where = "%s %s" % (s.t.name, rel)
            # the ACID columns as Hive names them (the row struct is the table's)
            cnt.values += 1
            if oc.parse_type(meta["type"]).names != want_type.names:
                cnt.bad(where, "row schema %s, Hive's %s" % (meta["type"][:80], hmeta["type"]))
            # one key index entry per stripe: the last row of each txn,
            # rowIds from 0 in each txn
            last = {}
            for r in rows:
                last[r[4]] = (r[1], r[2], r[3])
            firsts = {}
            for r in rows:
                firsts.setdefault(r[4], r[3])
            cnt.values += 2
            if keys != [last[w] for w in sorted(last)] or len(keys) != n:
                cnt.bad(where, "key index %s for %d stripes, txns' last rows %s"
                        % (keys, n, [last[w] for w in sorted(last)]))
            if any(v != 0 for v in firsts.values()) and s.shape != "upsert":
                cnt.bad(where, "first rowIds per txn %s, Hive starts each at 0" % firsts)
            if not shown and n > 1:
                shown = True
                rep.layout_notes.append(
                    "comb's %s: %d stripes of %s rows, key index %s, hive.acid.stats %s"
                    % (where, n, [st["rows"] for st in meta["stripes"]],
                       meta["user metadata"].get("hive.acid.key.index"),
                       meta["user metadata"].get("hive.acid.stats")))
    if hive_keys and [k[2] for k in hive_keys] != [1] * len(hive_keys):
        cnt.bad(hive, "Hive's key index %s is not what the README says" % hive_keys)


class Report:
    def __init__(self):
        self.final = oc.Report()      # the closed tables
        self.prefix = oc.Report()     # the prefixes at committed lengths
        self.visible_cmp = oc.Counter()
        self.prefix_rows_cmp = oc.Counter()
        self.layout_cmp = oc.Counter()
        self.layout_notes = []
        # orc_crosscheck's checks count into these two
        self.meta_cmp = self.final.meta_cmp

    def counters(self):
        out = [("SELECT during the stream sees exactly the commits", self.visible_cmp),
               ("prefixes at committed lengths: the rows committed by then", self.prefix_rows_cmp),
               ("layout: stripes per txn, key index, Hive's streaming file", self.layout_cmp)]
        for what, r in (("closed", self.final), ("prefix", self.prefix)):
            for name, c in r.all_counters():
                if c.values:
                    out.append(("%s: %s" % (what, name), c))
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--comb", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--rows", type=int, default=1200, help="records per table")
    ap.add_argument("--commit-rows", type=int, default=150, help="records per txn")
    ap.add_argument("--batch-size", type=int, default=3, help="txns per batch")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--codecs", default=",".join(oc.CODECS))
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--keep", action="store_true", help="keep the warehouse")
    ap.add_argument("--testdata", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "..", "shared", "testdata"))
    ap.add_argument("--show", type=int, default=20, help="mismatches shown per check")
    ap.add_argument("--index-check", default=None,
                    help="orc_index_check binary (built against ORC C++ by the .sh)")
    args = ap.parse_args()
    oc.INDEX_CHECK[0] = args.index_check
    work = tempfile.mkdtemp(prefix="stream-crosscheck.")
    wh = os.path.join(work, "warehouse")
    rep = Report()
    streams, finals = [], []
    n_snaps = n_txns = 0
    with open(os.path.join(work, "statements.log"), "wb") as log:
        comb = oc.Comb(args.comb, wh, log)
        codecs = [c.strip().upper() for c in args.codecs.split(",") if c.strip()]
        for ci, codec in enumerate(codecs):
            for si, shape in enumerate(s for s in args.shapes.split(",") if s):
                s = Stream(shape, codec, args.rows, args.commit_rows,
                           args.seed * 97 + ci * 7 + si)
                s.batch = args.batch_size
                s.tdir = os.path.join(wh, s.t.name)
                comb.run_sql(s.ddl())
                snaps = run_stream(comb, s, args.batch_size, wh, rep)
                if snaps is None:
                    continue
                final = check_final(s, wh, comb, args.tools, rep)
                check_prefixes(s, snaps, final, work, comb, args.tools, rep)
                streams.append(s)
                finals.append(final)
                n_snaps += len(snaps)
                n_txns += len(s.txns)
        check_layout(streams, finals, args.tools, args.testdata, rep)
    print("stream_crosscheck: %d tables (%s x %s), %d txns, %d copies of open batches;"
          " closed: %d files, %d stripes, %d file rows, %d table rows;"
          " %d prefixes at committed lengths, %d rows"
          % (len(streams), args.shapes, ",".join(codecs), n_txns, n_snaps, rep.final.files,
             rep.final.stripes, rep.final.file_rows, rep.final.table_rows,
             rep.prefix.files, rep.prefix.file_rows))
    for line in rep.layout_notes:
        print("  " + line)
    total = oc.print_counters(rep.counters(), args.show)
    return oc.finish("stream_crosscheck", total, args.keep, wh, work)


if __name__ == "__main__":
    sys.exit(main())
