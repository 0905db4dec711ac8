/*
 * parse_int.h - internals of the recursive-descent HiveQL parser, shared
 * by parser.c (token stream, errors, helpers, statement dispatch),
 * parse_ddl.c (database and table statements, SHOW, USE, SET),
 * parse_catalog.c (SHOW CREATE/TBLPROPERTIES/COLUMNS/PARTITIONS, DESCRIBE,
 * MSCK), parse_locks.c (SHOW LOCKS/TRANSACTIONS, ABORT TRANSACTIONS), parse_alter.c (ALTER TABLE/VIEW, TRUNCATE),
 * parse_dml.c (SELECT, INSERT, UPDATE, DELETE, FROM-first statements) and
 * parse_expr.c (expressions and type names).  Nothing outside the parser
 * includes it.
 *
 * Conventions: every parse function returns COMB_OK or an error code with
 * p->err filled, and consumes exactly the tokens of its rule.  Functions
 * named sp_<rule> expect the rule's first token to be current.
 */
#ifndef COMB_SQL_PARSE_INT_H
#define COMB_SQL_PARSE_INT_H

#include "sql/parse/ast.h"
#include "sql/parse/lexer.h"

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
/* Words matched by spelling (any case, quoted names excluded) where the
 * grammar expects them, so that they stay identifiers everywhere else. */
bool sp_is_word_at(SqlParser *p, int k, const char *w);
bool sp_accept_word(SqlParser *p, const char *w);
int sp_expect_word(SqlParser *p, const char *w);

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

/* --------------------------------------------------------- statements */

int sp_create(SqlParser *p, AstStmt *s);
int sp_drop(SqlParser *p, AstStmt *s);
int sp_show(SqlParser *p, AstStmt *s);
int sp_describe(SqlParser *p, AstStmt *s);
int sp_use(SqlParser *p, AstStmt *s);
int sp_set(SqlParser *p, AstStmt *s);
/* SELECT, INSERT, FROM-first, UPDATE and DELETE (the statements EXPLAIN
 * takes): sp_at_dml tells whether t opens one, sp_dml parses it. */
bool sp_at_dml(const SqlToken *t);
int sp_dml(SqlParser *p, AstStmt *s);
/* parse_query.c: [WITH ...] query (set operations, ORDER BY ... LIMIT);
 * a SELECT block without the clauses after HAVING (FROM items given by
 * a FROM statement: with_from false), and those clauses; FROM items; the
 * WITH list, and a WITH list put in front of a query's own. */
int sp_select(SqlParser *p, AstSelect **out);
int sp_select_block(SqlParser *p, AstSelect *sel, bool with_from);
int sp_select_tail(SqlParser *p, AstSelect *sel);
int sp_from_clause(SqlParser *p, AstFrom **out);
/* One FROM item: [db.]name [[AS] alias] or (query) alias (MERGE's USING). */
int sp_from_item(SqlParser *p, AstFrom **out);
/* INSERT's (col, ...) item (names and positions) and UPDATE's
 * `column = expr` item (an AstAssignment), shared with MERGE. */
typedef struct SpInsertCols {
    SqlVec names;
    SqlVec positions;
} SpInsertCols;
int sp_insert_column(SqlParser *p, void *cols);
int sp_assignment(SqlParser *p, void *assignments);
/* MERGE INTO ... (parse_merge.c) */
int sp_merge(SqlParser *p, AstStmt *s);
int sp_with(SqlParser *p, int *n, AstCte **ctes);
int sp_attach_with(SqlParser *p, AstSelect *q, int n, AstCte *ctes);
int sp_with_statement(SqlParser *p, AstStmt *s);
/* expr [ASC|DESC] [NULLS FIRST|LAST], appended to the AstOrderItem
 * SqlVec ctx (ORDER BY, SORT BY, a window's ORDER BY). */
int sp_order_item(SqlParser *p, void *items);
/* parse_window.c: after a call's ')': [IGNORE|RESPECT NULLS] OVER spec;
 * after HAVING: WINDOW name AS spec, ... */
int sp_over(SqlParser *p, AstExpr *call);
int sp_window_clause(SqlParser *p, AstSelect *sel);
int sp_insert(SqlParser *p, AstStmt *s);
int sp_from(SqlParser *p, AstStmt *s);
int sp_update(SqlParser *p, AstStmt *s);
int sp_delete(SqlParser *p, AstStmt *s);
int sp_load(SqlParser *p, AstStmt *s);
/* START TRANSACTION, BEGIN, COMMIT, ROLLBACK (parse_txn.c): sp_at_txn
 * tells whether the current token opens one. */
bool sp_at_txn(SqlParser *p);
int sp_txn(SqlParser *p, AstStmt *s);
int sp_alter(SqlParser *p, AstStmt *s);
int sp_truncate(SqlParser *p, AstStmt *s);

/* Clauses shared by the DDL rules (parse_ddl.c). */
/* IF EXISTS, or with not_too IF NOT EXISTS: *flag set when given. */
int sp_if_exists(SqlParser *p, bool not_too, bool *flag);
/* ('key' = 'value', ...): keys and values in either quotes. */
int sp_property_list(SqlParser *p, int *n, AstProperty **props);
/* KEYWORD 'string', when the keyword is there. */
int ddl_string_clause(SqlParser *p, SqlKeyword kw, char **out);
/* item for sp_list: name type [COMMENT 'text'], appended to the
 * AstColumnDef SqlVec ctx (constraints refused as unsupported). */
int sp_column_item(SqlParser *p, void *columns);
/* (column definition, ...) */
int sp_column_list(SqlParser *p, int *n, AstColumnDef **cols);
/* parse_catalog.c: MSCK; after SHOW, its catalog forms (*handled false
 * when the next word opens none of them); after ROW FORMAT, SERDE ...;
 * after STORED AS, INPUTFORMAT ... OUTPUTFORMAT ... */
int sp_analyze(SqlParser *p, AstStmt *s);
int sp_msck(SqlParser *p, AstStmt *s);
int sp_show_catalog(SqlParser *p, AstStmt *s, bool *handled);
/* parse_locks.c: after SHOW, LOCKS and TRANSACTIONS (*handled false
 * otherwise); ABORT TRANSACTIONS. */
int sp_show_locks(SqlParser *p, AstStmt *s, bool *handled);
/* authorization (parse_auth.c) */
int sp_grant(SqlParser *p, AstStmt *s);
int sp_revoke(SqlParser *p, AstStmt *s);
/* CREATE ROLE / DROP ROLE, the parser at ROLE */
int sp_role_ddl(SqlParser *p, AstStmt *s, bool create);
bool sp_at_set_role(SqlParser *p);
int sp_set_role(SqlParser *p, AstStmt *s);
int sp_show_auth(SqlParser *p, AstStmt *s, bool *handled);
int sp_abort(SqlParser *p, AstStmt *s);

/* parse_compact.c */
/* ALTER TABLE ... COMPACT 'type' [AND WAIT] [WITH OVERWRITE TBLPROPERTIES
 * (...)], after COMPACT. */
int sp_alter_compact(SqlParser *p, AstAlter *a);
/* CREATE TABLE's CLUSTERED BY (c, ...) [SORTED BY (...)] INTO n BUCKETS
 * into s (parse_ddl.c); nothing without CLUSTERED. */
int sp_clustered_by(SqlParser *p, AstStmt *s);
/* SHOW COMPACTIONS (at COMPACTIONS; *handled false when it is not). */
int sp_show_compactions(SqlParser *p, AstStmt *s, bool *handled);
/* ABORT COMPACTIONS id ... (at ABORT). */
int sp_abort_compactions(SqlParser *p, AstStmt *s);
int sp_row_format_serde(SqlParser *p, AstStmt *s);
int sp_stored_as_formats(SqlParser *p, AstStmt *s);
/* parse_view.c: views, EXPLAIN, a CTAS's query (s->qdef, made on first
 * use by sp_query_def; NULL when out of memory). */
AstQueryDef *sp_query_def(SqlParser *p, AstStmt *s);
int sp_query(SqlParser *p, AstQueryDef *q);
int sp_create_view(SqlParser *p, AstStmt *s);
int sp_drop_view(SqlParser *p, AstStmt *s);
/* ALTER VIEW v AS query, at AS (sp_alter reads ALTER VIEW v) */
int sp_alter_view_as(SqlParser *p, AstStmt *s);
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
