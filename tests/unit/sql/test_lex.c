/*
 * test_lex.c - the scanner (keywords, numbers, operators, positions,
 * quoted tokens), statement splitting around quotes and comments, and
 * blank detection.
 */
#include "unit.h"
#include "sql/parse/ast.h"
#include "sql/parse/lexer.h"

#include <string.h>

/* Scan text into toks (at most max); returns how many before EOF. */
static int lex_all(const char *text, SqlToken *toks, int max)
{
    SqlLexer lx;
    int n = 0;
    sql_lex_init(&lx, text, strlen(text));
    while (n < max) {
        sql_lex_next(&lx, &toks[n]);
        if (toks[n].kind == SQL_TK_EOF)
            break;
        n++;
    }
    return n;
}

TEST(lex_keyword_table_sorted_and_classified)
{
    for (int k = KW_NONE + 2; k < KW_COUNT_; k++)
        CHECK(strcmp(sql_keyword_name((SqlKeyword)(k - 1)),
                     sql_keyword_name((SqlKeyword)k)) < 0);
    for (int k = KW_NONE + 1; k < KW_COUNT_; k++) {
        const char *name = sql_keyword_name((SqlKeyword)k);
        CHECK_EQ(sql_keyword_lookup(name, strlen(name)), k);
    }
    CHECK_EQ(sql_keyword_lookup("sElEcT", 6), KW_SELECT);
    CHECK_EQ(sql_keyword_lookup("selectx", 7), KW_NONE);
    CHECK_EQ(sql_keyword_lookup("selec", 5), KW_NONE);
    CHECK_EQ(sql_keyword_lookup("current_date", 12), KW_CURRENT_DATE);
    CHECK_EQ(sql_keyword_class(KW_SELECT), SQL_KWC_RESERVED);
    CHECK_EQ(sql_keyword_class(KW_INT), SQL_KWC_FUNC);
    CHECK_EQ(sql_keyword_class(KW_COMMENT), SQL_KWC_PLAIN);
    CHECK_EQ(sql_keyword_class(KW_LIMIT), SQL_KWC_CLAUSE);
}

TEST(lex_numbers_and_words)
{
    SqlToken t[20];
    int n = lex_all("12 3.5 1e3 2E+2 7. .5 10L 10y 3s 4BD 1.5bd 1st 1e x.5",
                    t, 20);
    CHECK_EQ(n, 16);
    static const SqlTokKind kinds[] = {
        SQL_TK_INT,    SQL_TK_NUMBER, SQL_TK_NUMBER, SQL_TK_NUMBER,
        SQL_TK_NUMBER, SQL_TK_NUMBER, SQL_TK_INT,    SQL_TK_INT,
        SQL_TK_INT,    SQL_TK_INT,    SQL_TK_NUMBER, SQL_TK_WORD,
        SQL_TK_WORD,   SQL_TK_WORD,   SQL_TK_DOT,    SQL_TK_INT};
    for (int i = 0; i < 16; i++)
        CHECK_EQ(t[i].kind, kinds[i]);
    CHECK_EQ(t[6].suffix, 'L');
    CHECK_EQ(t[7].suffix, 'Y');
    CHECK_EQ(t[8].suffix, 'S');
    CHECK_EQ(t[9].suffix, 'B');
    CHECK_EQ(t[9].len, 3);
    CHECK_EQ(t[10].suffix, 'B');
    CHECK_EQ(t[11].len, 3);    /* "1st" is one word */
    CHECK_EQ(t[0].suffix, 0);
}

TEST(lex_operators)
{
    SqlToken t[32];
    int n = lex_all("<=> <= >= <> != == = < > || ( ) [ ] , . ; : * + - / % "
                    "! ~ & | ^ @",
                    t, 32);
    static const SqlTokKind kinds[] = {
        SQL_TK_EQ_NS, SQL_TK_LE,     SQL_TK_GE,      SQL_TK_NE,
        SQL_TK_NE,    SQL_TK_EQ,     SQL_TK_EQ,      SQL_TK_LT,
        SQL_TK_GT,    SQL_TK_CONCAT, SQL_TK_LPAREN,  SQL_TK_RPAREN,
        SQL_TK_LBRACKET, SQL_TK_RBRACKET, SQL_TK_COMMA, SQL_TK_DOT,
        SQL_TK_SEMI,  SQL_TK_COLON,  SQL_TK_STAR,    SQL_TK_PLUS,
        SQL_TK_MINUS, SQL_TK_SLASH,  SQL_TK_PERCENT, SQL_TK_BANG,
        SQL_TK_TILDE, SQL_TK_AMP,    SQL_TK_PIPE,    SQL_TK_CARET,
        SQL_TK_OTHER};
    CHECK_EQ(n, (int)(sizeof kinds / sizeof kinds[0]));
    for (int i = 0; i < n; i++)
        CHECK_EQ(t[i].kind, kinds[i]);
}

TEST(lex_positions_comments_and_utf8)
{
    SqlToken t[8];
    int n = lex_all("select -- note; 'x'\n  /* a\n b */ x,\t'\xc3\xa9' y", t, 8);
    CHECK_EQ(n, 5);
    CHECK_EQ(t[0].line, 1);
    CHECK_EQ(t[0].col, 1);
    CHECK_EQ(t[1].kind, SQL_TK_WORD);
    CHECK_EQ(t[1].line, 3);
    CHECK_EQ(t[1].col, 7);
    CHECK_EQ(t[2].kind, SQL_TK_COMMA);
    CHECK_EQ(t[3].kind, SQL_TK_STRING);
    CHECK_EQ(t[3].col, 10);
    CHECK_EQ(t[4].col, 14);    /* é is one column, two bytes */
    CHECK_EQ(t[4].off, 41);
}

TEST(lex_quoted_tokens_and_errors)
{
    SqlToken t[8];
    int n = lex_all("'a\\'b' \"c\\\"\" `x``y` 'open", t, 8);
    CHECK_EQ(n, 4);
    CHECK_EQ(t[0].kind, SQL_TK_STRING);
    CHECK_EQ(t[0].len, 6);
    CHECK_EQ(t[1].kind, SQL_TK_STRING);
    CHECK_EQ(t[2].kind, SQL_TK_QUOTED_ID);
    CHECK_EQ(t[2].len, 6);
    CHECK_EQ(t[3].kind, SQL_TK_ERROR);
    CHECK_STR(t[3].msg, "unterminated string literal");
    CHECK_EQ(t[3].col, 21);
    n = lex_all("a /* never closed", t, 8);
    CHECK_EQ(n, 2);
    CHECK_EQ(t[1].kind, SQL_TK_ERROR);
    CHECK_STR(t[1].msg, "unterminated comment");
    CHECK_EQ(t[1].col, 3);
}

TEST(lex_ident_and_string_values)
{
    CombArena a;
    comb_arena_init(&a, 0);
    const char *src = "MiXeD `Back``Quoted` 'it\\'s\\n' \"\\u0041\\101\"";
    SqlToken t[4];
    CHECK_EQ(lex_all(src, t, 4), 4);
    CHECK_STR(sql_ident_value(&a, src, &t[0]), "mixed");
    CHECK_STR(sql_ident_value(&a, src, &t[1]), "back`quoted");
    char buf[32];
    size_t n = sql_string_decode(buf, src, &t[2]);
    CHECK_EQ(n, 5);
    CHECK(memcmp(buf, "it's\n", 5) == 0);
    n = sql_string_decode(buf, src, &t[3]);
    CHECK_EQ(n, 2);
    CHECK(memcmp(buf, "AA", 2) == 0);
    comb_arena_free(&a);
}

/* Split text with sql_next_statement into at most 8 pieces. */
static int split_all(const char *text, size_t *ends, int max)
{
    size_t off = 0, len = strlen(text), end;
    int n = 0;
    while (n < max && sql_next_statement(text + off, len - off, &end)) {
        off += end;
        ends[n++] = off;
    }
    return n;
}

TEST(split_respects_quotes_and_comments)
{
    size_t ends[8];
    const char *text = "select 'a;b', \"c;d\", `e;f` -- g;h\n"
                       "from t /* i;j */; select 'k\\';l'; set x=1;  partial";
    int n = split_all(text, ends, 8);
    CHECK_EQ(n, 3);
    CHECK(text[ends[0] - 1] == ';' && text[ends[1] - 1] == ';');
    CHECK_EQ(ends[0], strlen("select 'a;b', \"c;d\", `e;f` -- g;h\n"
                             "from t /* i;j */;"));
    CHECK(strncmp(text + ends[0], " select 'k\\';l';", ends[1] - ends[0]) == 0);
    CHECK(strncmp(text + ends[1], " set x=1;", ends[2] - ends[1]) == 0);
}

TEST(split_needs_more_input)
{
    size_t end = 99;
    CHECK(!sql_next_statement("select 1", 8, &end));
    CHECK(!sql_next_statement("select ';", 9, &end));
    CHECK(!sql_next_statement("select 1 -- ;", 13, &end));
    CHECK(!sql_next_statement("select /* ;", 11, &end));
    CHECK(!sql_next_statement("select `;", 9, &end));
    CHECK(!sql_next_statement("", 0, &end));
    CHECK(sql_next_statement("select 1 -- x\n;", 15, &end));
    CHECK_EQ(end, 15);
    CHECK(sql_next_statement(";", 1, &end));
    CHECK_EQ(end, 1);
    /* only len bytes count, even if more follow */
    CHECK(!sql_next_statement("select 1; x", 8, &end));
}

TEST(blank_detection)
{
    static const char *const blank[] = {
        "", "   \n\t", ";", " ; ;; ", "-- only a comment", "/* c */",
        "-- a\n/* b ; */ ;\n-- c\n"};
    static const char *const not_blank[] = {
        "x", " ; select 1", "/* open comment", "'", "-- c\n1"};
    for (size_t i = 0; i < sizeof blank / sizeof blank[0]; i++)
        CHECK(sql_is_blank(blank[i], strlen(blank[i])));
    for (size_t i = 0; i < sizeof not_blank / sizeof not_blank[0]; i++)
        CHECK(!sql_is_blank(not_blank[i], strlen(not_blank[i])));
}
