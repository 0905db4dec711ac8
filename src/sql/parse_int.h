/*
 * parse_int.h - internals of the recursive-descent HiveQL parser, shared
 * by parser.c (token stream, errors, helpers, statement dispatch),
 * parse_ddl.c (database and table statements, SHOW, DESCRIBE, USE, SET),
 * parse_dml.c (SELECT, INSERT, UPDATE, DELETE) and parse_expr.c
 * (expressions and type names).  Nothing outside the parser includes it.
 *
 * Conventions: every parse function returns COMB_OK or an error code with
 * p->err filled, and consumes exactly the tokens of its rule.  Functions
 * named sp_<rule> expect the rule's first token to be current.
 */
#ifndef COMB_SQL_PARSE_INT_H
#define COMB_SQL_PARSE_INT_H

#include "sql/ast.h"
#include "sql/lexer.h"

/* Tokens the parser may look ahead; the grammar needs at most 4. */
#define SP_LOOKAHEAD 8

typedef struct SqlParser {
    const char *src;
    size_t len;
    CombArena *arena;
    CombErr *err;
    SqlLexer lx;
    SqlToken ahead[SP_LOOKAHEAD];   /* ring of scanned, unconsumed tokens */
    int head;
    int n_ahead;
    size_t prev_end;                /* end offset of the last consumed token */
    int depth;                      /* expression nesting, for the limit */
} SqlParser;

#define SP_TRY(call)                        \
    do {                                    \
        int sp_rc_ = (call);                \
        if (sp_rc_ != COMB_OK)              \
            return sp_rc_;                  \
    } while (0)

/* ------------------------------------------------------- token stream */

const SqlToken *sp_peek(SqlParser *p, int k);     /* k-th token ahead */
SqlToken sp_next(SqlParser *p);                   /* consume one */
bool sp_is(SqlParser *p, SqlTokKind kind);
bool sp_is_kw(SqlParser *p, SqlKeyword kw);
bool sp_is_kw_at(SqlParser *p, int k, SqlKeyword kw);
bool sp_accept(SqlParser *p, SqlTokKind kind);
bool sp_accept_kw(SqlParser *p, SqlKeyword kw);
int sp_expect(SqlParser *p, SqlTokKind kind, const char *shown);
int sp_expect_kw(SqlParser *p, SqlKeyword kw);
AstPos sp_pos(const SqlToken *t);

/* ------------------------------------------------------------- errors */

/* "ParseException line L:C <what> near '<token>'", COMB_ESYNTAX. */
int sp_error(SqlParser *p, const SqlToken *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "line L:C <what> is not supported", COMB_EUNSUPPORTED. */
int sp_unsupported(SqlParser *p, const SqlToken *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Zeroed arena memory; NULL (with p->err set) when out of memory. */
void *sp_alloc(SqlParser *p, size_t n);
/* Track expression nesting; sp_enter fails past AST_MAX_DEPTH. */
int sp_enter(SqlParser *p);
void sp_leave(SqlParser *p);

/* ------------------------------------------------------------ helpers */

/* An identifier: a word that is not reserved, or a backquoted name. */
bool sp_is_ident_tok(const SqlToken *t);
int sp_ident(SqlParser *p, char **out, AstPos *pos);
int sp_name(SqlParser *p, AstName *out);                /* [db.]name */
/* [AS] alias, or nothing (*out = NULL). */
int sp_alias(SqlParser *p, char **out);
/* One string literal, or several adjacent ones joined. */
int sp_string(SqlParser *p, char **out, size_t *len);
/* A plain integer literal within [lo, hi]; `what` names it in errors. */
int sp_int(SqlParser *p, int64_t lo, int64_t hi, const char *what,
           int64_t *out);
/* The source text from offset start to the end of the last token. */
char *sp_text(SqlParser *p, size_t start);
/* For SET: the offset where the raw rest of the statement ends (its ';'
 * or the end of input, white space trimmed); the stream resumes there. */
size_t sp_raw_rest(SqlParser *p);
/* A token standing for the byte at off, for errors found in raw text. */
SqlToken sp_token_at(SqlParser *p, size_t off);

/* A growable array in the arena (outgrown copies stay there till reset). */
typedef struct SqlVec {
    void *data;
    int n;
    int cap;
} SqlVec;
int sp_vec_push(SqlParser *p, SqlVec *v, const void *elem, size_t size);

/* item(p, ctx) once per element of "item, item, ..."; with parens the list
 * must be wrapped in ( ). */
typedef int (*SqlItemFn)(SqlParser *p, void *ctx);
int sp_list(SqlParser *p, bool parens, SqlItemFn item, void *ctx);
/* item for sp_list: an identifier appended to the char * SqlVec ctx. */
int sp_ident_item(SqlParser *p, void *vec_of_names);
/* item for sp_list: an expression appended to the AstExpr * SqlVec ctx. */
int sp_expr_item(SqlParser *p, void *vec_of_exprs);

/* Clauses of the catalog statements (parse_ddl.c): IF EXISTS (with
 * not_too: IF NOT EXISTS); KEYWORD 'string' when kw is there; the
 * ('key' = 'value', ...) list of TBLPROPERTIES into s->props. */
int ddl_if(SqlParser *p, bool not_too, bool *flag);
int ddl_string_clause(SqlParser *p, SqlKeyword kw, char **out);
int ddl_properties(SqlParser *p, AstStmt *s);

/* --------------------------------------------------------- statements */

int sp_create(SqlParser *p, AstStmt *s);
int sp_drop(SqlParser *p, AstStmt *s);
int sp_show(SqlParser *p, AstStmt *s);
int sp_describe(SqlParser *p, AstStmt *s);
int sp_use(SqlParser *p, AstStmt *s);
int sp_set(SqlParser *p, AstStmt *s);
int sp_select(SqlParser *p, AstSelect **out);
int sp_insert(SqlParser *p, AstStmt *s);
int sp_update(SqlParser *p, AstStmt *s);
int sp_delete(SqlParser *p, AstStmt *s);
int sp_load(SqlParser *p, AstStmt *s);
/* parse_view.c: views, EXPLAIN, a CTAS's query (s->qdef, made on first
 * use by sp_query_def; NULL when out of memory). */
AstQueryDef *sp_query_def(SqlParser *p, AstStmt *s);
int sp_query(SqlParser *p, AstQueryDef *q);
int sp_create_view(SqlParser *p, AstStmt *s);
int sp_drop_view(SqlParser *p, AstStmt *s);
int sp_alter_view(SqlParser *p, AstStmt *s);
int sp_explain(SqlParser *p, AstStmt *s);

/* -------------------------------------------------------- expressions */

int sp_expr(SqlParser *p, AstExpr **out);
/* PARTITION (key [= constant], ...); with require_values every key needs
 * a value (ALTER TABLE ... PARTITION). */
int sp_partition_spec(SqlParser *p, bool require_values, AstPartSpec *out);
/* An expression inside a comma list (same result as sp_expr, with a fast
 * path for a lone literal). */
int sp_list_expr(SqlParser *p, AstExpr **out);
int sp_type(SqlParser *p, AstTypeName *out);
/* An AST_STAR node for "*" or "qualifier.*" just consumed from start. */
int sp_star(SqlParser *p, char *qualifier, AstPos pos, size_t start,
            AstExpr **out);

#endif
