/*
 * parse_expr.c - expressions and type names.
 *
 * Binary operators are parsed by precedence climbing, so one loop serves
 * every level and a parenthesis costs a handful of C frames, not one per
 * level.  Hive's levels, loosest first:
 *   OR < AND < NOT < comparison (= <> < IS NULL BETWEEN IN LIKE ...)
 *      < || < + - < * / % DIV < unary - + ! < field access
 * Each node's text is the source from its first token to its last, and its
 * height is capped at AST_MAX_DEPTH so later tree walks cannot run deep.
 */
#include "sql/parse/parse_int.h"
#include "common/str.h"

#include <stdlib.h>
#include <string.h>

enum {
    PREC_OR = 1,
    PREC_AND,
    PREC_NOT,
    PREC_CMP,
    PREC_CONCAT,
    PREC_ADD,
    PREC_MUL
};

static int ex_prec(SqlParser *p, int min, AstExpr **out);
static int ex_unary(SqlParser *p, AstExpr **out);

/* ---------------------------------------------------------------- nodes */

static AstExpr *ex_new(SqlParser *p, AstExprKind kind, AstPos pos)
{
    AstExpr *e = sp_alloc(p, sizeof *e);
    if (e) {
        e->kind = kind;
        e->pos = pos;
        e->height = 1;
    }
    return e;
}

static int max_height(int h, const AstExpr *child)
{
    return child && child->height > h ? child->height : h;
}

/* Seal a node built from the tokens since `start`. */
static int ex_finish(SqlParser *p, AstExpr *e, size_t start)
{
    int h = 0;
    h = max_height(h, e->left);
    h = max_height(h, e->right);
    h = max_height(h, e->third);
    for (int i = 0; i < e->n_args; i++)
        h = max_height(h, e->args[i]);
    for (int i = 0; e->over && i < e->over->n_partition; i++)
        h = max_height(h, e->over->partition[i]);
    for (int i = 0; e->over && i < e->over->n_order; i++)
        h = max_height(h, e->over->order[i].expr);
    e->height = h + 1;
    if (e->height > AST_MAX_DEPTH)
        return sp_error(p, sp_peek(p, 0), "expression nested too deeply");
    e->text = sp_text(p, start);
    return e->text ? COMB_OK : COMB_ENOMEM;
}

/* The common shape: kind with op over left (and right), sealed. */
static int ex_make(SqlParser *p, AstExprKind kind, AstOp op, AstPos pos,
                   AstExpr *left, AstExpr *right, size_t start,
                   AstExpr **out)
{
    AstExpr *e = ex_new(p, kind, pos);
    if (!e)
        return COMB_ENOMEM;
    e->op = op;
    e->left = left;
    e->right = right;
    *out = e;
    return ex_finish(p, e, start);
}

static void ex_set_args(AstExpr *e, const SqlVec *v)
{
    e->n_args = v->n;
    e->args = v->data;
}

/* --------------------------------------------------------------- literals */

/* Fold unary minus into a numeric literal; false when it cannot be.  A
 * DOUBLE-or-DECIMAL literal keeps its digits and notes the sign, so the
 * binder types it by its digits as Hive does (-9223372036854775808 is the
 * negation of the DECIMAL 9223372036854775808). */
static bool ex_fold_negation(AstExpr *e)
{
    if (e->kind == AST_LIT_INT) {
        e->ival = -e->ival;
        return true;
    }
    if (e->kind != AST_LIT_DOUBLE)
        return false;
    e->dval = -e->dval;
    e->negated = !e->negated;
    return true;
}

static int ex_number(SqlParser *p, AstExpr **out)
{
    SqlToken t = sp_next(p);
    size_t digits = t.len - (t.suffix == 'B' ? 2 : t.suffix ? 1 : 0);
    AstExpr *e = ex_new(p, AST_LIT_INT, sp_pos(&t));
    if (!e)
        return COMB_ENOMEM;
    e->lit_suffix = t.suffix;
    *out = e;
    if (t.kind == SQL_TK_INT && comb_digits_to_i64(p->src + t.off, digits, &e->ival))
        return ex_finish(p, e, t.off);
    /* too big for int64, or has a fraction/exponent: the binder decides
     * between DECIMAL and DOUBLE from the digits */
    e->sval = comb_arena_strndup(p->arena, p->src + t.off, digits);
    if (!e->sval)
        return comb_err_nomem(p->err);
    e->sval_len = digits;
    e->kind = AST_LIT_DOUBLE;
    e->dval = strtod(e->sval, NULL);
    return ex_finish(p, e, t.off);
}

static int ex_string(SqlParser *p, AstExpr **out)
{
    const SqlToken *t = sp_peek(p, 0);
    size_t start = t->off;
    AstExpr *e = ex_new(p, AST_LIT_STRING, sp_pos(t));
    if (!e)
        return COMB_ENOMEM;
    *out = e;
    SP_TRY(sp_string(p, &e->sval, &e->sval_len));
    return ex_finish(p, e, start);
}

/* TRUE, FALSE, NULL. */
static int ex_keyword_literal(SqlParser *p, AstExpr **out)
{
    SqlToken t = sp_next(p);
    AstExpr *e = ex_new(p, t.kw == KW_NULL ? AST_LIT_NULL : AST_LIT_BOOL,
                        sp_pos(&t));
    if (!e)
        return COMB_ENOMEM;
    e->bval = t.kw == KW_TRUE;
    *out = e;
    return ex_finish(p, e, t.off);
}

/* DATE '...' and TIMESTAMP '...': a cast of the string, as Hive types
 * them. */
static int ex_typed_literal(SqlParser *p, AstExpr **out)
{
    SqlToken t = sp_next(p);
    AstExpr *e = ex_new(p, AST_CAST, sp_pos(&t));
    if (!e)
        return COMB_ENOMEM;
    e->cast_type.kind = t.kw == KW_DATE ? COMB_T_DATE : COMB_T_TIMESTAMP;
    e->cast_type.p1 = e->cast_type.p2 = -1;
    e->cast_type.pos = sp_pos(&t);
    e->cast_type.type = comb_type_new(p->arena, e->cast_type.kind);
    e->typed_literal = true;
    *out = e;
    if (!e->cast_type.type)
        return comb_err_nomem(p->err);
    SP_TRY(ex_string(p, &e->left));
    return ex_finish(p, e, t.off);
}

/* ------------------------------------------------------------ primaries */

/* [qualifier.]name; ROW__ID is a column, so ROW__ID.x is a field of it. */
static int ex_colref(SqlParser *p, AstExpr **out)
{
    const SqlToken *t = sp_peek(p, 0);
    size_t start = t->off;
    AstExpr *e = ex_new(p, AST_COLREF, sp_pos(t));
    if (!e)
        return COMB_ENOMEM;
    *out = e;
    SP_TRY(sp_ident(p, &e->name, NULL));
    if (sp_is(p, SQL_TK_DOT) && sp_is_ident_tok(sp_peek(p, 1)) &&
        strcmp(e->name, "row__id") != 0) {
        sp_next(p);
        e->qualifier = e->name;
        SP_TRY(sp_ident(p, &e->name, NULL));
    }
    return ex_finish(p, e, start);
}

/* name([DISTINCT|ALL] args) or name(*). */
static int ex_call(SqlParser *p, AstExpr **out)
{
    SqlToken name = sp_next(p);
    AstExpr *e = ex_new(p, AST_FUNC, sp_pos(&name));
    if (!e)
        return COMB_ENOMEM;
    *out = e;
    e->name = sql_ident_value(p->arena, p->src, &name);
    if (!e->name)
        return comb_err_nomem(p->err);
    SP_TRY(sp_expect(p, SQL_TK_LPAREN, "'('"));
    if (sp_accept(p, SQL_TK_STAR)) {
        e->star_arg = true;
    } else if (!sp_is(p, SQL_TK_RPAREN)) {
        SqlVec args = {0};
        if (sp_accept_kw(p, KW_DISTINCT))
            e->distinct = true;
        else
            sp_accept_kw(p, KW_ALL);
        SP_TRY(sp_list(p, false, sp_expr_item, &args));
        ex_set_args(e, &args);
    }
    SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    SP_TRY(sp_over(p, e));
    return ex_finish(p, e, name.off);
}

/* CURRENT_DATE / CURRENT_TIMESTAMP: functions that need no parentheses. */
static int ex_niladic(SqlParser *p, AstExpr **out)
{
    SqlToken t = sp_next(p);
    AstExpr *e = ex_new(p, AST_FUNC, sp_pos(&t));
    if (!e)
        return COMB_ENOMEM;
    *out = e;
    e->name = sql_ident_value(p->arena, p->src, &t);
    if (!e->name)
        return comb_err_nomem(p->err);
    return ex_finish(p, e, t.off);
}

static int ex_cast(SqlParser *p, AstExpr **out)
{
    SqlToken t = sp_next(p);
    AstExpr *e = ex_new(p, AST_CAST, sp_pos(&t));
    if (!e)
        return COMB_ENOMEM;
    *out = e;
    SP_TRY(sp_expect(p, SQL_TK_LPAREN, "'('"));
    SP_TRY(sp_expr(p, &e->left));
    SP_TRY(sp_expect_kw(p, KW_AS));
    SP_TRY(sp_type(p, &e->cast_type));
    SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    return ex_finish(p, e, t.off);
}

/* CASE [operand] WHEN a THEN b ... [ELSE c] END */
static int ex_case(SqlParser *p, AstExpr **out)
{
    SqlToken t = sp_next(p);
    AstExpr *e = ex_new(p, AST_CASE, sp_pos(&t));
    SqlVec arms = {0};
    if (!e)
        return COMB_ENOMEM;
    *out = e;
    if (!sp_is_kw(p, KW_WHEN))
        SP_TRY(sp_expr(p, &e->left));
    if (!sp_is_kw(p, KW_WHEN))
        return sp_error(p, sp_peek(p, 0), "missing WHEN");
    while (sp_accept_kw(p, KW_WHEN)) {
        SP_TRY(sp_expr_item(p, &arms));
        SP_TRY(sp_expect_kw(p, KW_THEN));
        SP_TRY(sp_expr_item(p, &arms));
    }
    ex_set_args(e, &arms);
    if (sp_accept_kw(p, KW_ELSE))
        SP_TRY(sp_expr(p, &e->right));
    SP_TRY(sp_expect_kw(p, KW_END));
    return ex_finish(p, e, t.off);
}

static bool starts_query(SqlParser *p, int k)
{
    return sp_is_kw_at(p, k, KW_SELECT) || sp_is_kw_at(p, k, KW_WITH);
}

/* ( query ): the query of a subquery expression, counted towards the
 * nesting limit like any parenthesis. */
static int ex_query(SqlParser *p, AstSelect **out)
{
    int rc;
    SP_TRY(sp_expect(p, SQL_TK_LPAREN, "'('"));
    if (!starts_query(p, 0))
        return sp_error(p, sp_peek(p, 0), "missing SELECT");
    SP_TRY(sp_enter(p));
    rc = sp_select(p, out);
    sp_leave(p);
    if (rc)
        return rc;
    return sp_expect(p, SQL_TK_RPAREN, "')'");
}

/* (query) as a value, or EXISTS (query) */
static int ex_subquery(SqlParser *p, AstExprKind kind, AstExpr **out)
{
    const SqlToken *t = sp_peek(p, 0);
    size_t start = t->off;
    AstExpr *e = ex_new(p, kind, sp_pos(t));
    if (!e)
        return COMB_ENOMEM;
    if (kind == AST_EXISTS)
        sp_next(p);
    SP_TRY(ex_query(p, &e->query));
    *out = e;
    return ex_finish(p, e, start);
}

static int ex_paren(SqlParser *p, AstExpr **out)
{
    if (starts_query(p, 1))
        return ex_subquery(p, AST_SUBQUERY, out);
    sp_next(p);
    SP_TRY(sp_expr(p, out));
    if (sp_is(p, SQL_TK_COMMA))
        return sp_unsupported(p, sp_peek(p, 0), "a parenthesized list");
    return sp_expect(p, SQL_TK_RPAREN, "')'");
}

/* A primary that starts with a word: keyword forms, calls, columns. */
static int ex_word(SqlParser *p, AstExpr **out)
{
    const SqlToken *t = sp_peek(p, 0);
    bool call = sp_peek(p, 1)->kind == SQL_TK_LPAREN;
    switch (t->kind == SQL_TK_WORD ? t->kw : KW_NONE) {
    case KW_TRUE:
    case KW_FALSE:
    case KW_NULL:
        return ex_keyword_literal(p, out);
    case KW_CAST:
        return ex_cast(p, out);
    case KW_CASE:
        return ex_case(p, out);
    case KW_EXISTS:
        if (call)
            return ex_subquery(p, AST_EXISTS, out);
        break;
    case KW_INTERVAL:
        return sp_unsupported(p, t, "INTERVAL");
    case KW_DATE:
    case KW_TIMESTAMP:
        if (sp_peek(p, 1)->kind == SQL_TK_STRING)
            return ex_typed_literal(p, out);
        break;
    case KW_CURRENT_DATE:
    case KW_CURRENT_TIMESTAMP:
        if (!call)
            return ex_niladic(p, out);
        break;
    default:
        break;
    }
    bool func_kw = sql_keyword_class(t->kw) == SQL_KWC_FUNC;
    if (call && (sp_is_ident_tok(t) || func_kw))
        return ex_call(p, out);
    if (sp_is_ident_tok(t))
        return ex_colref(p, out);
    return sp_error(p, t, "expected expression");
}

static int ex_primary(SqlParser *p, AstExpr **out)
{
    const SqlToken *t = sp_peek(p, 0);
    switch (t->kind) {
    case SQL_TK_INT:
    case SQL_TK_NUMBER:
        return ex_number(p, out);
    case SQL_TK_STRING:
        return ex_string(p, out);
    case SQL_TK_LPAREN:
        return ex_paren(p, out);
    case SQL_TK_WORD:
    case SQL_TK_QUOTED_ID:
        return ex_word(p, out);
    default:
        return sp_error(p, t, "expected expression");
    }
}

/* left[index] */
static int ex_subscript(SqlParser *p, size_t start, AstExpr **left)
{
    SqlToken open = sp_next(p);
    AstExpr *e = ex_new(p, AST_INDEX, sp_pos(&open));
    if (!e)
        return COMB_ENOMEM;
    e->left = *left;
    *left = e;
    SP_TRY(sp_expr(p, &e->right));
    SP_TRY(sp_expect(p, SQL_TK_RBRACKET, "']'"));
    return ex_finish(p, e, start);
}

/* primary ('.' field | '[' index ']')* */
static int ex_postfix(SqlParser *p, AstExpr **out)
{
    size_t start = sp_peek(p, 0)->off;
    SP_TRY(ex_primary(p, out));
    for (;;) {
        if (sp_is(p, SQL_TK_LBRACKET)) {
            SP_TRY(ex_subscript(p, start, out));
            continue;
        }
        if (!sp_accept(p, SQL_TK_DOT))
            return COMB_OK;
        AstExpr *e = ex_new(p, AST_FIELD, sp_pos(sp_peek(p, 0)));
        if (!e)
            return COMB_ENOMEM;
        e->left = *out;
        SP_TRY(sp_ident(p, &e->name, NULL));
        *out = e;
        SP_TRY(ex_finish(p, e, start));
    }
}

/* ('-' | '+' | '!') unary | postfix */
static int ex_unary(SqlParser *p, AstExpr **out)
{
    const SqlToken *t = sp_peek(p, 0);
    AstOp op;
    switch (t->kind) {
    case SQL_TK_MINUS: op = AST_OP_NEG; break;
    case SQL_TK_PLUS: op = AST_OP_PLUS; break;
    case SQL_TK_BANG: op = AST_OP_NOT; break;
    case SQL_TK_TILDE: return sp_unsupported(p, t, "bitwise operator '~'");
    default: return ex_postfix(p, out);
    }
    SqlToken optok = sp_next(p);
    AstExpr *operand;
    SP_TRY(sp_enter(p));
    int rc = ex_unary(p, &operand);
    sp_leave(p);
    if (rc != COMB_OK)
        return rc;
    if (op == AST_OP_NEG && ex_fold_negation(operand)) {
        operand->pos = sp_pos(&optok);
        *out = operand;
        return ex_finish(p, operand, optok.off);
    }
    return ex_make(p, AST_UNARY, op, sp_pos(&optok), operand, NULL,
                   optok.off, out);
}

/* ------------------------------------------------- comparison postfixes */

static bool is_like_kw(SqlParser *p, int k)
{
    return sp_is_kw_at(p, k, KW_LIKE) || sp_is_kw_at(p, k, KW_RLIKE) ||
           sp_is_kw_at(p, k, KW_REGEXP);
}

/* The comparison-level forms that are not plain binary operators:
 * IS [NOT] NULL, IS [NOT] DISTINCT FROM, [NOT] BETWEEN, [NOT] IN,
 * [NOT] LIKE/RLIKE/REGEXP. */
static bool at_cmp_postfix(SqlParser *p)
{
    int k = sp_is_kw(p, KW_NOT) ? 1 : 0;
    if (k == 0 && sp_is_kw(p, KW_IS))
        return true;
    return sp_is_kw_at(p, k, KW_BETWEEN) || sp_is_kw_at(p, k, KW_IN) ||
           is_like_kw(p, k);
}

/* IS [NOT] NULL; what else may follow IS is read before (ex_is_truth,
 * ex_distinct_from), so anything left is junk. */
static int ex_is_null(SqlParser *p, AstExpr *e)
{
    e->negated = sp_accept_kw(p, KW_NOT);
    if (sp_accept_kw(p, KW_NULL))
        return COMB_OK;
    if (sp_accept_kw(p, KW_DISTINCT))
        return sp_expect_kw(p, KW_FROM);
    return sp_error(p, sp_peek(p, 0), "missing NULL, TRUE, FALSE or DISTINCT FROM");
}

static int ex_between(SqlParser *p, AstExpr *e)
{
    SP_TRY(ex_prec(p, PREC_CONCAT, &e->right));
    SP_TRY(sp_expect_kw(p, KW_AND));
    return ex_prec(p, PREC_CONCAT, &e->third);
}

static int ex_in_list(SqlParser *p, AstExpr *e)
{
    SqlVec items = {0};
    if (sp_is(p, SQL_TK_LPAREN) && starts_query(p, 1))
        return ex_query(p, &e->query);
    SP_TRY(sp_list(p, true, sp_expr_item, &items));
    ex_set_args(e, &items);
    return COMB_OK;
}

/* a IS [NOT] DISTINCT FROM b, Hive's spelling of NOT (a <=> b) and
 * a <=> b, at the level of the other comparisons */
static bool at_distinct_from(SqlParser *p)
{
    int k = sp_is_kw_at(p, 1, KW_NOT) ? 2 : 1;
    return sp_is_kw(p, KW_IS) && sp_is_kw_at(p, k, KW_DISTINCT) &&
           sp_is_kw_at(p, k + 1, KW_FROM);
}

static int ex_distinct_from(SqlParser *p, size_t start, AstExpr **left)
{
    SqlToken is = sp_next(p);
    bool not_distinct = sp_accept_kw(p, KW_NOT);
    AstExpr *right;
    sp_next(p);
    sp_next(p);
    SP_TRY(ex_prec(p, PREC_CMP + 1, &right));
    SP_TRY(ex_make(p, AST_BINARY, AST_OP_EQ_NS, sp_pos(&is), *left, right,
                   start, left));
    if (not_distinct)
        return COMB_OK;
    return ex_make(p, AST_UNARY, AST_OP_NOT, sp_pos(&is), *left, NULL, start,
                   left);
}

/* a IS [NOT] TRUE | FALSE (Hive 3's istrue, isnottrue, isfalse,
 * isnotfalse): a read as a boolean (a CAST, as Hive converts any
 * primitive), and never NULL: NULL IS TRUE and NULL IS FALSE are false,
 * their NOT forms true.  So  a IS TRUE  is  CAST(a AS BOOLEAN) <=> TRUE,
 * and  a IS NOT TRUE  is NOT over it, as IS NOT DISTINCT FROM is. */
static bool at_is_truth(SqlParser *p)
{
    int k = sp_is_kw_at(p, 1, KW_NOT) ? 2 : 1;
    return sp_is_kw(p, KW_IS) &&
           (sp_is_kw_at(p, k, KW_TRUE) || sp_is_kw_at(p, k, KW_FALSE));
}

static int ex_is_truth(SqlParser *p, size_t start, AstExpr **left)
{
    SqlToken is = sp_next(p);
    bool negated = sp_accept_kw(p, KW_NOT);
    SqlToken value = sp_next(p);
    AstExpr *cast = ex_new(p, AST_CAST, sp_pos(&is));
    AstExpr *lit = ex_new(p, AST_LIT_BOOL, sp_pos(&value));
    if (!cast || !lit)
        return COMB_ENOMEM;
    cast->left = *left;
    cast->cast_type.kind = COMB_T_BOOLEAN;
    cast->cast_type.p1 = cast->cast_type.p2 = -1;
    cast->cast_type.pos = sp_pos(&is);
    if (!(cast->cast_type.type = comb_type_new(p->arena, COMB_T_BOOLEAN)))
        return comb_err_nomem(p->err);
    lit->bval = value.kw == KW_TRUE;
    SP_TRY(ex_finish(p, cast, start));
    SP_TRY(ex_finish(p, lit, value.off));
    SP_TRY(ex_make(p, AST_BINARY, AST_OP_EQ_NS, sp_pos(&is), cast, lit, start,
                   left));
    if (!negated)
        return COMB_OK;
    return ex_make(p, AST_UNARY, AST_OP_NOT, sp_pos(&is), *left, NULL, start,
                   left);
}

static int ex_cmp_postfix(SqlParser *p, size_t start, AstExpr **left)
{
    if (at_distinct_from(p))
        return ex_distinct_from(p, start, left);
    if (at_is_truth(p))
        return ex_is_truth(p, start, left);
    bool negated = sp_accept_kw(p, KW_NOT);
    SqlToken op = sp_next(p);
    AstExpr *e = ex_new(p, AST_LIKE, sp_pos(&op));
    if (!e)
        return COMB_ENOMEM;
    e->left = *left;
    e->negated = negated;
    *left = e;
    switch (op.kw) {
    case KW_IS:
        e->kind = AST_IS_NULL;
        SP_TRY(ex_is_null(p, e));
        break;
    case KW_BETWEEN:
        e->kind = AST_BETWEEN;
        SP_TRY(ex_between(p, e));
        break;
    case KW_IN:
        e->kind = AST_IN;
        SP_TRY(ex_in_list(p, e));
        break;
    default:
        e->op = op.kw == KW_LIKE ? AST_OP_LIKE : AST_OP_RLIKE;
        SP_TRY(ex_prec(p, PREC_CONCAT, &e->right));
        break;
    }
    return ex_finish(p, e, start);
}

/* ---------------------------------------------------- binary operators */

/* Precedence of the binary operator at t (0 if none), and its op. */
static int binary_op(const SqlToken *t, AstOp *op)
{
    static const struct {
        SqlTokKind kind;
        SqlKeyword kw;
        AstOp op;
        int prec;
    } ops[] = {
        {SQL_TK_WORD, KW_OR, AST_OP_OR, PREC_OR},
        {SQL_TK_WORD, KW_AND, AST_OP_AND, PREC_AND},
        {SQL_TK_EQ, KW_NONE, AST_OP_EQ, PREC_CMP},
        {SQL_TK_NE, KW_NONE, AST_OP_NE, PREC_CMP},
        {SQL_TK_LT, KW_NONE, AST_OP_LT, PREC_CMP},
        {SQL_TK_LE, KW_NONE, AST_OP_LE, PREC_CMP},
        {SQL_TK_GT, KW_NONE, AST_OP_GT, PREC_CMP},
        {SQL_TK_GE, KW_NONE, AST_OP_GE, PREC_CMP},
        {SQL_TK_EQ_NS, KW_NONE, AST_OP_EQ_NS, PREC_CMP},
        {SQL_TK_CONCAT, KW_NONE, AST_OP_CONCAT, PREC_CONCAT},
        {SQL_TK_PLUS, KW_NONE, AST_OP_ADD, PREC_ADD},
        {SQL_TK_MINUS, KW_NONE, AST_OP_SUB, PREC_ADD},
        {SQL_TK_STAR, KW_NONE, AST_OP_MUL, PREC_MUL},
        {SQL_TK_SLASH, KW_NONE, AST_OP_DIV, PREC_MUL},
        {SQL_TK_PERCENT, KW_NONE, AST_OP_MOD, PREC_MUL},
        {SQL_TK_WORD, KW_DIV, AST_OP_DIV_INT, PREC_MUL},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (t->kind == ops[i].kind &&
            (t->kind != SQL_TK_WORD || t->kw == ops[i].kw)) {
            *op = ops[i].op;
            return ops[i].prec;
        }
    }
    return 0;
}

static bool is_bitwise(const SqlToken *t)
{
    return t->kind == SQL_TK_AMP || t->kind == SQL_TK_PIPE ||
           t->kind == SQL_TK_CARET;
}

/* NOT operand, where NOT may stand (operand binds tighter than AND). */
static int ex_not(SqlParser *p, AstExpr **out)
{
    SqlToken optok = sp_next(p);
    AstExpr *operand;
    SP_TRY(sp_enter(p));
    int rc = ex_prec(p, PREC_NOT, &operand);
    sp_leave(p);
    if (rc != COMB_OK)
        return rc;
    return ex_make(p, AST_UNARY, AST_OP_NOT, sp_pos(&optok), operand, NULL,
                   optok.off, out);
}

static bool is_logic(AstOp op)
{
    return op == AST_OP_AND || op == AST_OP_OR;
}

/* A run of one logical operator (a OR b OR c ...) being collected into
 * one node whose operands are args[]: thousands of ORed terms are a flat
 * list, not a tree thousands of levels deep. */
typedef struct LogicChain {
    AstExpr *node;          /* NULL when no run is open */
    SqlVec operands;
} LogicChain;

static int chain_start(SqlParser *p, LogicChain *ch, AstOp op, AstPos pos,
                       AstExpr *left, AstExpr *right)
{
    memset(ch, 0, sizeof *ch);
    if (!(ch->node = ex_new(p, AST_BINARY, pos)))
        return COMB_ENOMEM;
    ch->node->op = op;
    SP_TRY(sp_vec_push(p, &ch->operands, &left, sizeof left));
    return sp_vec_push(p, &ch->operands, &right, sizeof right);
}

/* Seal the open run (its text ends at the last operand consumed). */
static int chain_close(SqlParser *p, LogicChain *ch, size_t start,
                       AstExpr **left)
{
    if (!ch->node)
        return COMB_OK;
    ex_set_args(ch->node, &ch->operands);
    *left = ch->node;
    ch->node = NULL;
    return ex_finish(p, *left, start);
}

/* An expression whose operators all bind at least as tightly as min. */
static int ex_prec(SqlParser *p, int min, AstExpr **out)
{
    size_t start = sp_peek(p, 0)->off;
    AstExpr *left;
    LogicChain chain = {0};
    if (min <= PREC_NOT && sp_is_kw(p, KW_NOT))
        SP_TRY(ex_not(p, &left));
    else
        SP_TRY(ex_unary(p, &left));
    for (;;) {
        const SqlToken *t = sp_peek(p, 0);
        AstOp op = AST_OP_NONE;
        int prec = binary_op(t, &op);
        if (is_bitwise(t))
            return sp_unsupported(p, t, "bitwise operator '%c'",
                                  p->src[t->off]);
        if (chain.node && (prec < min || op != chain.node->op))
            SP_TRY(chain_close(p, &chain, start, &left));
        if (prec == 0 && min <= PREC_CMP && at_cmp_postfix(p)) {
            SP_TRY(ex_cmp_postfix(p, start, &left));
            continue;
        }
        if (prec == 0 || prec < min)
            break;
        SqlToken optok = sp_next(p);
        AstExpr *right;
        /* prec + 1: operators of one level associate to the left */
        SP_TRY(ex_prec(p, prec + 1, &right));
        if (chain.node)
            SP_TRY(sp_vec_push(p, &chain.operands, &right, sizeof right));
        else if (is_logic(op))
            SP_TRY(chain_start(p, &chain, op, sp_pos(&optok), left, right));
        else
            SP_TRY(ex_make(p, AST_BINARY, op, sp_pos(&optok), left, right,
                           start, &left));
    }
    *out = left;
    return COMB_OK;
}

/* A lone literal followed by ',' or ')' - nearly every cell of a VALUES
 * row - needs none of the operator precedence climb. */
static bool at_lone_literal(SqlParser *p)
{
    const SqlToken *t = sp_peek(p, 0), *next;
    if (t->kind != SQL_TK_INT && t->kind != SQL_TK_NUMBER &&
        t->kind != SQL_TK_STRING)
        return false;
    next = sp_peek(p, 1);
    return next->kind == SQL_TK_COMMA || next->kind == SQL_TK_RPAREN;
}

int sp_list_expr(SqlParser *p, AstExpr **out)
{
    if (at_lone_literal(p))
        return sp_peek(p, 0)->kind == SQL_TK_STRING ? ex_string(p, out)
                                                     : ex_number(p, out);
    return sp_expr(p, out);
}

int sp_expr(SqlParser *p, AstExpr **out)
{
    SP_TRY(sp_enter(p));
    int rc = ex_prec(p, PREC_OR, out);
    sp_leave(p);
    return rc;
}

int sp_star(SqlParser *p, char *qualifier, AstPos pos, size_t start,
            AstExpr **out)
{
    AstExpr *e = ex_new(p, AST_STAR, pos);
    if (!e)
        return COMB_ENOMEM;
    e->qualifier = qualifier;
    *out = e;
    return ex_finish(p, e, start);
}

/* ------------------------------------------------------------ type names */

/* ( n ) with n in [lo, hi] */
static int ty_length(SqlParser *p, int64_t lo, int64_t hi, const char *what,
                     int *out)
{
    int64_t v;
    SP_TRY(sp_expect(p, SQL_TK_LPAREN, "'('"));
    SP_TRY(sp_int(p, lo, hi, what, &v));
    *out = (int)v;
    return sp_expect(p, SQL_TK_RPAREN, "')'");
}

/* DECIMAL [(precision [, scale])] */
static int ty_decimal(SqlParser *p, AstTypeName *ty)
{
    int64_t v;
    if (!sp_accept(p, SQL_TK_LPAREN))
        return COMB_OK;
    SP_TRY(sp_int(p, 1, 38, "decimal precision", &v));
    ty->p1 = (int)v;
    if (sp_accept(p, SQL_TK_COMMA)) {
        SP_TRY(sp_int(p, 0, ty->p1, "decimal scale", &v));
        ty->p2 = (int)v;
    }
    return sp_expect(p, SQL_TK_RPAREN, "')'");
}

/* A primitive type name (the current token names one); fills kind, p1,
 * p2. */
static int ty_primitive(SqlParser *p, AstTypeName *ty)
{
    static const struct {
        SqlKeyword kw;
        CombTypeKind kind;
    } simple[] = {
        {KW_TINYINT, COMB_T_TINYINT}, {KW_SMALLINT, COMB_T_SMALLINT},
        {KW_INT, COMB_T_INT},         {KW_INTEGER, COMB_T_INT},
        {KW_BIGINT, COMB_T_BIGINT},   {KW_BOOLEAN, COMB_T_BOOLEAN},
        {KW_FLOAT, COMB_T_FLOAT},     {KW_DOUBLE, COMB_T_DOUBLE},
        {KW_STRING, COMB_T_STRING},   {KW_BINARY, COMB_T_BINARY},
        {KW_DATE, COMB_T_DATE},       {KW_TIMESTAMP, COMB_T_TIMESTAMP},
        {KW_VARCHAR, COMB_T_VARCHAR}, {KW_CHAR, COMB_T_CHAR},
        {KW_DECIMAL, COMB_T_DECIMAL},
    };
    const SqlToken *t = sp_peek(p, 0);
    size_t i = 0, n = sizeof simple / sizeof simple[0];
    while (i < n && !(t->kind == SQL_TK_WORD && t->kw == simple[i].kw))
        i++;
    if (i == n)
        return sp_error(p, t, "expected type name");
    sp_next(p);
    ty->kind = simple[i].kind;
    switch (ty->kind) {
    case COMB_T_DOUBLE:
        sp_accept_kw(p, KW_PRECISION);
        return COMB_OK;
    case COMB_T_TIMESTAMP:
        if (sp_is_kw(p, KW_WITH))
            return sp_unsupported(p, sp_peek(p, 0),
                                  "TIMESTAMP WITH LOCAL TIME ZONE");
        return COMB_OK;
    case COMB_T_VARCHAR:
        return ty_length(p, 1, 65535, "varchar length", &ty->p1);
    case COMB_T_CHAR:
        return ty_length(p, 1, 255, "char length", &ty->p1);
    case COMB_T_DECIMAL:
        return ty_decimal(p, ty);
    default:
        return COMB_OK;
    }
}

/* The type tree of a primitive type name. */
static CombType *ty_primitive_tree(SqlParser *p, const AstTypeName *ty)
{
    CombType *t;
    if (ty->kind == COMB_T_DECIMAL)
        t = comb_type_decimal(p->arena,
                              ty->p1 >= 0 ? (uint32_t)ty->p1
                                          : COMB_DEFAULT_DECIMAL_PRECISION,
                              ty->p2 >= 0 ? (uint32_t)ty->p2 : 0);
    else if (ty->kind == COMB_T_CHAR || ty->kind == COMB_T_VARCHAR)
        t = comb_type_sized(p->arena, ty->kind, (uint32_t)ty->p1);
    else
        t = comb_type_new(p->arena, ty->kind);
    if (!t)
        comb_err_nomem(p->err);
    return t;
}

static int ty_tree(SqlParser *p, int depth, CombType **out);

/* One part of a complex type: [name ':'] type, appended to t. */
static int ty_part(SqlParser *p, int depth, CombType *t, bool named)
{
    char *name = NULL;
    CombType *child;
    if (named) {
        SqlToken at = *sp_peek(p, 0);
        SP_TRY(sp_ident(p, &name, NULL));
        if (!comb_type_field_name_ok(name))
            return sp_error(p, &at, "field name '%s' cannot be kept in a "
                            "Hive type string (only letters, digits, "
                            "spaces inside, '_', '.' and '$')", name);
        for (int i = 0; i < t->n_children; i++)
            if (strcmp(t->field_names[i], name) == 0)
                return sp_error(p, &at, "duplicate field '%s'", name);
        SP_TRY(sp_expect(p, SQL_TK_COLON, "':'"));
    }
    SP_TRY(ty_tree(p, depth + 1, &child));
    if (comb_type_add_field(p->arena, t, name, child))
        return comb_err_nomem(p->err);
    return COMB_OK;
}

/* ARRAY<T>, MAP<K,V>, STRUCT<name:T,...>, UNIONTYPE<T,...>. */
static int ty_complex(SqlParser *p, int depth, CombType **out)
{
    SqlToken t = sp_next(p);
    CombTypeKind kind = t.kw == KW_ARRAY ? COMB_T_LIST
                        : t.kw == KW_MAP ? COMB_T_MAP
                        : t.kw == KW_STRUCT ? COMB_T_STRUCT : COMB_T_UNION;
    CombType *ct = comb_type_new(p->arena, kind);
    if (!ct)
        return comb_err_nomem(p->err);
    if (depth >= COMB_MAX_TYPE_DEPTH)
        return sp_error(p, &t, "type nested too deeply");
    SP_TRY(sp_expect(p, SQL_TK_LT, "'<'"));
    SP_TRY(ty_part(p, depth, ct, kind == COMB_T_STRUCT));
    if (kind == COMB_T_MAP) {
        if (!comb_type_is_primitive(ct->children[0]->kind))
            return sp_error(p, &t, "map keys must be of a primitive type");
        SP_TRY(sp_expect(p, SQL_TK_COMMA, "','"));
        SP_TRY(ty_part(p, depth, ct, false));
    } else if (kind != COMB_T_LIST) {
        while (sp_accept(p, SQL_TK_COMMA))
            SP_TRY(ty_part(p, depth, ct, kind == COMB_T_STRUCT));
    }
    SP_TRY(sp_expect(p, SQL_TK_GT, "'>'"));
    *out = ct;
    return COMB_OK;
}

static bool at_complex_type(SqlParser *p)
{
    const SqlToken *t = sp_peek(p, 0);
    return t->kind == SQL_TK_WORD &&
           (t->kw == KW_ARRAY || t->kw == KW_MAP || t->kw == KW_STRUCT ||
            t->kw == KW_UNIONTYPE);
}

static int ty_tree(SqlParser *p, int depth, CombType **out)
{
    AstTypeName prim = {.p1 = -1, .p2 = -1};
    if (at_complex_type(p))
        return ty_complex(p, depth, out);
    SP_TRY(ty_primitive(p, &prim));
    *out = ty_primitive_tree(p, &prim);
    return *out ? COMB_OK : COMB_ENOMEM;
}

int sp_type(SqlParser *p, AstTypeName *ty)
{
    ty->p1 = ty->p2 = -1;
    ty->pos = sp_pos(sp_peek(p, 0));
    if (at_complex_type(p)) {
        SP_TRY(ty_complex(p, 0, &ty->type));
        ty->kind = ty->type->kind;
        return COMB_OK;
    }
    SP_TRY(ty_primitive(p, ty));
    ty->type = ty_primitive_tree(p, ty);
    return ty->type ? COMB_OK : COMB_ENOMEM;
}
