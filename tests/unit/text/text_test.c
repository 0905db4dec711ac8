/*
 * text_test.c - helpers of the text/ unit tests (text_test.h).
 */
#include "text_test.h"

#include <stdio.h>
#include <string.h>

#include "common/datetime.h"
#include "common/decimal.h"
#include "common/numfmt.h"
#include "fs/fs.h"
#include "unit.h"

const CombType *const *tt_schema(CombArena *a, const char *structure,
                                 int *n_cols)
{
    CombType *t;
    CombErr err;
    if (comb_type_parse(a, structure, strlen(structure), &t, &err) ||
        t->kind != COMB_T_STRUCT)
        return NULL;
    comb_type_assign_ids(t);
    *n_cols = t->n_children;
    return (const CombType *const *)t->children;
}

const char *tt_file(CombArena *a, const char *name, const void *bytes,
                    size_t n)
{
    char *path = fs_join(a, unit_tmpdir(), name);
    CombErr err;
    if (!path || fs_write_file(path, bytes, n, &err))
        return NULL;
    return path;
}

const char *tt_text_file(CombArena *a, const char *name, const char *text)
{
    return tt_file(a, name, text, strlen(text));
}

static void render_str(CombStr s, CombBuf *out)
{
    comb_buf_append_byte(out, '\'');
    for (uint32_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c < ' ' || c > '~' || c == '\'' || c == '\\')
            comb_buf_printf(out, "\\x%02X", c);
        else
            comb_buf_append_byte(out, c);
    }
    comb_buf_append_byte(out, '\'');
}

static void render(const CombVector *v, int row, CombBuf *out)
{
    char buf[96];
    if (comb_vec_is_null(v, row)) {
        comb_buf_append_byte(out, 'N');
        return;
    }
    switch (v->kind) {
    case COMB_T_BOOLEAN:
        comb_buf_append_str(out, v->i64[row] ? "true" : "false");
        break;
    case COMB_T_FLOAT:
        comb_format_float((float)v->f64[row], buf, sizeof buf);
        comb_buf_append_str(out, buf);
        break;
    case COMB_T_DOUBLE:
        comb_format_double(v->f64[row], buf, sizeof buf);
        comb_buf_append_str(out, buf);
        break;
    case COMB_T_DECIMAL:
        comb_dec_format(v->dec[row], (int)v->type->scale, buf, sizeof buf);
        comb_buf_append_str(out, buf);
        break;
    case COMB_T_DATE:
        comb_date_format(v->i64[row], buf, sizeof buf);
        comb_buf_append_str(out, buf);
        break;
    case COMB_T_TIMESTAMP:
        comb_timestamp_format(v->i64[row], v->nanos[row], buf, sizeof buf);
        comb_buf_append_str(out, buf);
        break;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        render_str(v->str[row], out);
        break;
    case COMB_T_LIST:
        comb_buf_append_byte(out, '[');
        for (uint32_t i = 0; i < v->len[row]; i++) {
            if (i)
                comb_buf_append_byte(out, ',');
            render(&v->children[0], (int)(v->off[row] + i), out);
        }
        comb_buf_append_byte(out, ']');
        break;
    case COMB_T_MAP:
        comb_buf_append_byte(out, '{');
        for (uint32_t i = 0; i < v->len[row]; i++) {
            if (i)
                comb_buf_append_byte(out, ',');
            render(&v->children[0], (int)(v->off[row] + i), out);
            comb_buf_append_byte(out, ':');
            render(&v->children[1], (int)(v->off[row] + i), out);
        }
        comb_buf_append_byte(out, '}');
        break;
    case COMB_T_STRUCT:
        comb_buf_append_byte(out, '(');
        for (int i = 0; i < v->n_children; i++) {
            if (i)
                comb_buf_append_byte(out, ',');
            render(&v->children[i], row, out);
        }
        comb_buf_append_byte(out, ')');
        break;
    case COMB_T_UNION:
        comb_buf_printf(out, "<%d:", v->tag[row]);
        render(&v->children[v->tag[row]], row, out);
        comb_buf_append_byte(out, '>');
        break;
    default:
        comb_buf_printf(out, "%lld", (long long)v->i64[row]);
        break;
    }
}

void tt_render_row(const CombBatch *b, int row, CombBuf *out)
{
    for (int c = 0; c < b->n_cols; c++) {
        if (c)
            comb_buf_append_byte(out, '|');
        render(&b->cols[c], row, out);
    }
}

const char *tt_read(CombArena *a, const char *path, const TextOptions *o,
                    const char *structure, int batch_rows)
{
    CombBuf out = COMB_BUF_INIT;
    CombBatch b;
    CombErr err;
    TextReader *r = NULL;
    int n_cols, rc;
    const CombType *const *types = tt_schema(a, structure, &n_cols);
    char *result;
    if (!types)
        return "bad schema";
    if (comb_batch_init_types(&b, n_cols, types, batch_rows))
        return "out of memory";
    rc = text_reader_open(path, o, n_cols, types, &r, &err);
    while (rc == COMB_OK && (rc = text_reader_next(r, &b, &err)) == COMB_OK &&
           b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++) {
            tt_render_row(&b, i, &out);
            comb_buf_append_byte(&out, '\n');
        }
    if (rc) {
        comb_buf_clear(&out);
        comb_buf_printf(&out, "error %d: %s", rc, err.msg);
    }
    text_reader_close(r);
    comb_batch_free(&b);
    result = comb_arena_strndup(a, out.data ? (const char *)out.data : "",
                                out.len);
    comb_buf_free(&out);
    return result;
}

TextOptions tt_opts(const char *const *kv)
{
    TextOptions o;
    CombErr err;
    text_options_default(&o);
    for (; kv && kv[0]; kv += 2)
        if (text_options_set(&o, kv[0], kv[1], &err))
            fprintf(stderr, "bad option %s=%s: %s\n", kv[0], kv[1], err.msg);
    return o;
}

TextOptions tt_opt(const char *key, const char *value)
{
    const char *kv[] = {key, value, NULL};
    return tt_opts(kv);
}
