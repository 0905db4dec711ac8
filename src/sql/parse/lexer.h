/*
 * lexer.h - HiveQL tokens: the keyword table, the token record and the
 * scanner that cuts statement text into tokens one at a time.
 *
 * The scanner never allocates and never fails: malformed input (an
 * unterminated string, quoted identifier or comment) comes back as an
 * SQL_TK_ERROR token carrying a message, and a byte it does not know comes
 * back as SQL_TK_OTHER, so the parser decides how to report it.  Token
 * values (unescaped strings, lower-cased identifiers) are decoded on demand
 * into an arena by the helpers at the end.
 */
#ifndef COMB_SQL_LEXER_H
#define COMB_SQL_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"

/*
 * Keyword classes.  Hive (since 2.0) reserves a set of words: they name a
 * column or table only when backquoted.  The rest are keywords only where
 * the grammar expects them and plain identifiers elsewhere.
 */
enum {
    SQL_KWC_PLAIN = 0,    /* non-reserved */
    SQL_KWC_CLAUSE,       /* non-reserved, but may start a clause after a
                             name, so never taken as an alias without AS */
    SQL_KWC_RESERVED,     /* reserved */
    SQL_KWC_FUNC          /* reserved, yet may name a function: int(x) */
};

/*
 * The keyword table, declared once: X(WORD, CLASS).  Entries must stay in
 * strcmp order of WORD because lookup is a binary search (a unit test
 * checks the order).
 */
#define SQL_KEYWORDS(X)                                                     \
    X(ABORT, PLAIN) X(ADD, PLAIN) X(AFTER, PLAIN) X(ALL, RESERVED)          \
    X(ALTER, RESERVED)                                                      \
    X(ANALYZE, PLAIN) X(AND, RESERVED) X(ARRAY, FUNC) X(AS, RESERVED)       \
    X(ASC, PLAIN) X(BETWEEN, RESERVED) X(BIGINT, FUNC) X(BINARY, FUNC)      \
    X(BOOLEAN, FUNC) X(BUCKETS, PLAIN) X(BY, RESERVED) X(CASCADE, PLAIN)    \
    X(CASE, RESERVED) X(CAST, RESERVED) X(CHANGE, PLAIN) X(CHAR, RESERVED)  \
    X(CHECK, PLAIN)                                                         \
    X(CLUSTER, CLAUSE) X(CLUSTERED, PLAIN) X(COLLECTION, PLAIN)             \
    X(COLUMN, PLAIN) X(COLUMNS, PLAIN) X(COMMENT, PLAIN) X(COMMIT, PLAIN)   \
    X(COMPACT, PLAIN) X(CONCATENATE, PLAIN) X(CONSTRAINT, PLAIN)            \
    X(CREATE, RESERVED) X(CROSS, RESERVED) X(CUBE, RESERVED)                \
    X(CURRENT_DATE, FUNC) X(CURRENT_TIMESTAMP, FUNC)                        \
    X(DATA, PLAIN)                                                          \
    X(DATABASE, RESERVED) X(DATABASES, PLAIN) X(DATE, FUNC)                 \
    X(DBPROPERTIES, PLAIN) X(DECIMAL, RESERVED) X(DEFAULT, PLAIN)           \
    X(DEFINED, PLAIN)                                                       \
    X(DELETE, RESERVED) X(DELIMITED, PLAIN) X(DESC, PLAIN)                  \
    X(DESCRIBE, RESERVED) X(DIRECTORY, PLAIN) X(DISTINCT, RESERVED)         \
    X(DISTRIBUTE, CLAUSE) X(DIV, PLAIN) X(DOUBLE, FUNC) X(DROP, RESERVED)   \
    X(ELSE, RESERVED) X(END, RESERVED) X(ESCAPED, PLAIN)                    \
    X(EXCEPT, CLAUSE) X(EXISTS, RESERVED) X(EXPLAIN, PLAIN)                 \
    X(EXPORT, PLAIN) X(EXTENDED, RESERVED) X(EXTERNAL, RESERVED)            \
    X(FALSE, RESERVED) X(FIELDS, PLAIN) X(FIRST, PLAIN) X(FLOAT, FUNC)      \
    X(FORCE, PLAIN) X(FOREIGN, PLAIN) X(FORMAT, PLAIN)                      \
    X(FORMATTED, PLAIN)                                                     \
    X(FROM, RESERVED) X(FULL, RESERVED) X(FUNCTION, RESERVED)               \
    X(GRANT, RESERVED) X(GROUP, RESERVED) X(GROUPING, FUNC)                 \
    X(HAVING, RESERVED) X(IF, FUNC) X(IMPORT, RESERVED) X(IN, RESERVED)     \
    X(INNER, RESERVED) X(INPATH, PLAIN)                                     \
    X(INPUTFORMAT, PLAIN) X(INSERT, RESERVED)                               \
    X(INT, FUNC) X(INTEGER, RESERVED) X(INTERSECT, RESERVED)                \
    X(INTERVAL, RESERVED) X(INTO, RESERVED) X(IS, RESERVED)                 \
    X(ITEMS, PLAIN) X(JOIN, RESERVED) X(KEY, PLAIN) X(KEYS, PLAIN)          \
    X(LAST, PLAIN) X(LATERAL, RESERVED) X(LEFT, RESERVED)                   \
    X(LIKE, RESERVED) X(LIMIT, CLAUSE) X(LINES, PLAIN) X(LOAD, PLAIN)       \
    X(LOCAL, RESERVED) X(LOCATION, PLAIN) X(LOCK, PLAIN)                    \
    X(MANAGEDLOCATION, PLAIN) X(MAP, FUNC) X(MERGE, PLAIN)                  \
    X(MINUS, CLAUSE) X(MSCK, PLAIN) X(NOT, RESERVED) X(NULL, RESERVED)      \
    X(NULLS, PLAIN) X(OFFSET, PLAIN) X(ON, RESERVED) X(OR, RESERVED)        \
    X(ORDER, RESERVED) X(OUTER, RESERVED) X(OVER, RESERVED)                 \
    X(OVERWRITE, PLAIN) X(PARTITION, RESERVED) X(PARTITIONED, PLAIN)        \
    X(PRECISION, RESERVED) X(PRIMARY, PLAIN) X(PURGE, PLAIN)                \
    X(REGEXP, PLAIN) X(RELOAD, PLAIN) X(RENAME, PLAIN) X(REPLACE, PLAIN)    \
    X(RESET, PLAIN) X(RESTRICT, PLAIN)                                      \
    X(REVOKE, RESERVED) X(RIGHT, RESERVED) X(RLIKE, PLAIN)                  \
    X(ROLLBACK, PLAIN) X(ROLLUP, RESERVED) X(ROW, RESERVED)                 \
    X(ROWS, RESERVED) X(SCHEMA, PLAIN) X(SCHEMAS, PLAIN)                    \
    X(SELECT, RESERVED) X(SEMI, PLAIN) X(SERDE, PLAIN)                     \
    X(SERDEPROPERTIES, PLAIN)                                               \
    X(SET, RESERVED) X(SETS, PLAIN)                                         \
    X(SHOW, PLAIN) X(SKEWED, PLAIN) X(SMALLINT, FUNC) X(SORT, CLAUSE)       \
    X(SORTED, PLAIN) X(START, PLAIN) X(STORED, PLAIN) X(STRING, PLAIN)      \
    X(STRUCT, PLAIN) X(TABLE, RESERVED) X(TABLES, PLAIN)                    \
    X(TABLESAMPLE, RESERVED) X(TBLPROPERTIES, PLAIN) X(TEMPORARY, PLAIN)    \
    X(TERMINATED, PLAIN) X(THEN, RESERVED) X(TIMESTAMP, FUNC)               \
    X(TINYINT, PLAIN) X(TO, PLAIN) X(TRANSACTIONAL, PLAIN)                  \
    X(TRUE, RESERVED)                                                       \
    X(TRUNCATE, RESERVED)                                                   \
    X(UNION, RESERVED) X(UNIONTYPE, PLAIN) X(UNIQUE, PLAIN)                 \
    X(UNLOCK, PLAIN) X(UNSET, PLAIN)                                        \
    X(UPDATE, RESERVED) X(USE, PLAIN) X(USING, RESERVED)                    \
    X(VALUES, RESERVED) X(VARCHAR, RESERVED) X(VIEW, PLAIN)                \
    X(WHEN, RESERVED)                                                       \
    X(WHERE, RESERVED) X(WINDOW, RESERVED) X(WITH, RESERVED)

typedef enum SqlKeyword {
    KW_NONE = 0,
#define SQL_KW_ENUM(word, cls) KW_##word,
    SQL_KEYWORDS(SQL_KW_ENUM)
#undef SQL_KW_ENUM
    KW_COUNT_
} SqlKeyword;

typedef enum SqlTokKind {
    SQL_TK_EOF = 0,
    SQL_TK_ERROR,      /* unterminated string/identifier/comment; see msg */
    SQL_TK_WORD,       /* identifier or keyword (kw says which) */
    SQL_TK_QUOTED_ID,  /* `backquoted identifier`, never a keyword */
    SQL_TK_INT,        /* digits, optional suffix L S Y BD D */
    SQL_TK_NUMBER,     /* digits with '.' or exponent, optional suffix BD D */
    SQL_TK_STRING,     /* '...' or "..." (quotes included in the span) */
    SQL_TK_LPAREN, SQL_TK_RPAREN, SQL_TK_LBRACKET, SQL_TK_RBRACKET,
    SQL_TK_COMMA, SQL_TK_DOT, SQL_TK_SEMI, SQL_TK_COLON,
    SQL_TK_STAR, SQL_TK_PLUS, SQL_TK_MINUS, SQL_TK_SLASH, SQL_TK_PERCENT,
    SQL_TK_EQ,         /* = and == */
    SQL_TK_NE,         /* != and <> */
    SQL_TK_LT, SQL_TK_LE, SQL_TK_GT, SQL_TK_GE,
    SQL_TK_EQ_NS,      /* <=> */
    SQL_TK_CONCAT,     /* || */
    SQL_TK_BANG, SQL_TK_TILDE, SQL_TK_AMP, SQL_TK_PIPE, SQL_TK_CARET,
    SQL_TK_OTHER       /* one character the language has no use for */
} SqlTokKind;

typedef struct SqlToken {
    SqlTokKind kind;
    SqlKeyword kw;       /* KW_NONE unless an unquoted keyword */
    char suffix;         /* number suffix: 'L' 'S' 'Y' 'D', 'B' for BD; or 0 */
    size_t off;          /* byte offset of the token in the text */
    size_t len;          /* bytes, including quotes and suffix */
    int line;            /* 1-based */
    int col;             /* 1-based, counted in characters (UTF-8) */
    const char *msg;     /* SQL_TK_ERROR: what is wrong */
} SqlToken;

typedef struct SqlLexer {
    const char *src;
    size_t len;
    size_t pos;          /* next byte to scan */
    int line;            /* position of src[pos] */
    int col;
    SqlTokKind prev;     /* kind of the token returned last */
    int prev_kw_class;   /* and its keyword class */
} SqlLexer;

void sql_lex_init(SqlLexer *lx, const char *src, size_t len);

/* White space as the scanner sees it. */
bool sql_lex_is_space(int c);

/* Advance *line and *col over src[from, to) as the scanner counts them:
 * a column is a character, so UTF-8 continuation bytes do not count. */
void sql_lex_advance(const char *src, size_t from, size_t to, int *line,
                     int *col);

/* Scan the next token into *tok; at the end, SQL_TK_EOF forever. */
void sql_lex_next(SqlLexer *lx, SqlToken *tok);

/* Keyword of a word (any case), KW_NONE if it is not one. */
SqlKeyword sql_keyword_lookup(const char *word, size_t len);
const char *sql_keyword_name(SqlKeyword kw);   /* upper case */
int sql_keyword_class(SqlKeyword kw);          /* SQL_KWC_* */

/* Identifier value of a SQL_TK_WORD or SQL_TK_QUOTED_ID token: quotes
 * removed, `` undoubled, ASCII lower-cased.  NULL when out of memory. */
char *sql_ident_value(CombArena *arena, const char *src, const SqlToken *tok);

/*
 * Decode the body of a SQL_TK_STRING token (backslash escapes as in Hive)
 * into dst, which needs room for tok->len bytes; returns the bytes written.
 * The result may hold NUL bytes (from \0) and is not NUL-terminated.
 */
size_t sql_string_decode(char *dst, const char *src, const SqlToken *tok);

#endif
