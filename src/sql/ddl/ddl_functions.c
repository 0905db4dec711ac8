/*
 * ddl_functions.c - SHOW FUNCTIONS [LIKE 'pattern']: the names comb
 * runs, as Hive lists its registry: scalar functions, aggregates, table
 * functions and the operators and forms that are functions in Hive
 * (`+`, `and`, `case`, `between`, ...), sorted as Java sorts strings.
 * The pattern is Hive's FunctionRegistry.getFunctionNamesByLikePattern:
 * alternatives split at '|', each a LIKE pattern ('%', '_') matched
 * ignoring case.  DESCRIBE FUNCTION [EXTENDED] f: Hive's usage line
 * for f (texts in ddl_funcdoc.c).
 */
#include "sql/sql_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sql/ddl/ddl_int.h"
#include "sql/func/agg.h"
#include "sql/func/expr.h"
#include "sql/func/udtf.h"
#include "sql/func/unicase.h"
#include "sql/func/value.h"
#include "sql/func/window.h"

/* Operators and syntax that Hive's registry lists as functions. */
static const char *const syntax_names[] = {
    "!", "!=", "%", "*", "+", "-", "/", "<", "<=", "<=>", "<>", "=", "==",
    ">", ">=", "and", "array", "between", "case", "current_database",
    "current_date", "current_timestamp", "current_user", "div", "if", "in", "index",
    "like", "map", "named_struct", "not", "or", "size", "struct", "when",
    NULL,
};

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One alternative of the pattern matched against name, ignoring case. */
static bool like_any(const char *pattern, const char *name)
{
    CombArena a;
    bool hit = false;
    char *low = NULL, *alt, *save = NULL;
    comb_arena_init(&a, 256);
    if (!(low = comb_arena_strdup(&a, pattern))) {
        comb_arena_free(&a);
        return false;
    }
    for (alt = strtok_r(low, "|", &save); alt && !hit; alt = strtok_r(NULL, "|", &save)) {
        CombStr n = {name, (uint32_t)strlen(name)}, p;
        CombStr ln, lp;
        while (*alt == ' ')
            alt++;
        p = (CombStr){alt, (uint32_t)strlen(alt)};
        while (p.len && p.ptr[p.len - 1] == ' ')
            p.len--;
        if (sql_utf8_case(n, false, &a, &ln) || sql_utf8_case(p, false, &a, &lp))
            break;
        hit = sql_like_match(ln, lp);
    }
    comb_arena_free(&a);
    return hit;
}

/* Every name SHOW FUNCTIONS lists, sorted as Java sorts strings (with
 * repeats, which callers skip). */
static int registry_names(SqlStmtCtx *c, const char ***out, int *n_out, CombErr *err)
{
    const char *const *aggs = sql_agg_names(), *const *udtfs = sql_udtf_names();
    const char *const *wins = sql_window_fn_names();
    const char **scalars, **all;
    int n_scalar, n = 0;
    size_t cap;
    if (sql_function_names(&scalars, &n_scalar, c->arena))
        return comb_err_nomem(err);
    cap = (size_t)n_scalar + 64 + sizeof syntax_names / sizeof syntax_names[0];
    for (int i = 0; aggs[i]; i++)
        cap++;
    for (int i = 0; wins[i]; i++)
        cap++;
    if (!(all = comb_arena_alloc(c->arena, cap * sizeof *all)))
        return comb_err_nomem(err);
    for (int i = 0; i < n_scalar; i++)
        all[n++] = scalars[i];
    for (int i = 0; aggs[i]; i++)
        all[n++] = aggs[i];
    for (int i = 0; udtfs[i]; i++)
        all[n++] = udtfs[i];
    for (int i = 0; wins[i]; i++)
        all[n++] = wins[i];
    for (int i = 0; syntax_names[i]; i++)
        all[n++] = syntax_names[i];
    qsort(all, (size_t)n, sizeof *all, cmp_names);
    *out = all;
    *n_out = n;
    return COMB_OK;
}

int sql_exec_show_functions(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {"tab_name"};
    const char **all;
    int n, rc;
    TextResult tr;
    if ((rc = registry_names(c, &all, &n, err)))
        return rc;
    if (sql_text_begin(&tr, 1))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        if (i > 0 && strcmp(all[i], all[i - 1]) == 0)
            continue;
        if (c->stmt->like_pattern && !like_any(c->stmt->like_pattern, all[i]))
            continue;
        rc = sql_text_row(&tr, &all[i], err);
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}

/* ----------------------------------------------------- DESCRIBE FUNCTION */

/* doc's usage with the name as asked for _FUNC_, then " - " and the text. */
static const char *usage_line(SqlStmtCtx *c, const SqlFuncDoc *doc, const char *name)
{
    const char *u = doc->usage, *hit, *line = "";
    while (line && (hit = strstr(u, "_FUNC_"))) {
        line = comb_arena_printf(c->arena, "%s%.*s%s", line, (int)(hit - u), u, name);
        u = hit + strlen("_FUNC_");
    }
    return line ? comb_arena_printf(c->arena, "%s%s - %s", line, u, doc->text) : NULL;
}

/* "Synonyms: a, b": doc's other names; NULL without any. */
static const char *synonyms_line(SqlStmtCtx *c, const SqlFuncDoc *doc, const char *name)
{
    char *names = comb_arena_strdup(c->arena, doc->names), *save = NULL;
    const char *line = NULL;
    if (!names)
        return NULL;
    for (char *w = strtok_r(names, "|", &save); w; w = strtok_r(NULL, "|", &save))
        if (strcasecmp(w, name) != 0)
            line = comb_arena_printf(c->arena, "%s%s%s", line ? line : "Synonyms: ",
                                     line ? ", " : "", w);
    return line;
}

static bool registered(const char **all, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(all[i], name) == 0)
            return true;
    return false;
}

/* Hive's DESCRIBE FUNCTION [EXTENDED]: the usage line (EXTENDED adds the
 * synonyms and the function's type); an unknown name is a row saying so,
 * not an error. */
int sql_exec_describe_function(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {"tab_name"};
    const char *name = c->stmt->func_name, *lines[3];
    const char **all;
    const SqlFuncDoc *doc = NULL;
    int n, n_lines = 1, rc;
    TextResult tr;
    if ((rc = registry_names(c, &all, &n, err)))
        return rc;
    if (!registered(all, n, name))
        lines[0] = comb_arena_printf(c->arena, "Function '%s' does not exist.", name);
    else if (!(doc = sql_func_doc(name)))
        lines[0] = comb_arena_printf(c->arena, "There is no documentation for function '%s'", name);
    else
        lines[0] = usage_line(c, doc, name);
    if (doc && c->stmt->describe_extended) {
        if ((lines[n_lines] = synonyms_line(c, doc, name)))
            n_lines++;
        lines[n_lines++] = "Function type:BUILTIN";
    }
    if (!lines[0] || sql_text_begin(&tr, 1))
        return comb_err_nomem(err);
    for (int i = 0; i < n_lines && !rc; i++)
        rc = sql_text_row(&tr, &lines[i], err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}
