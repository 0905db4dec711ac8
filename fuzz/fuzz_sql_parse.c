/*
 * fuzz_sql_parse.c - the SQL splitter and parser on arbitrary bytes: any
 * input must give a tree or an error, never a crash, a hang or a leak.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/alloc.h"
#include "common/arena.h"
#include "sql/parse/ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* raw bytes, NULs included, in an exact-size copy so that reading past
     * the end is caught */
    char *text = comb_malloc(size ? size : 1);
    CombArena arena;
    CombErr err;
    AstStmt *stmt;
    size_t pos = 0, end;
    if (!text)
        return 0;
    memcpy(text, data, size);
    comb_arena_init(&arena, 4096);
    while (pos < size && sql_next_statement(text + pos, size - pos, &end)) {
        if (!sql_is_blank(text + pos, end))
            sql_parse_statement(text + pos, end, &arena, &stmt, &err);
        comb_arena_reset(&arena);
        pos += end;
    }
    if (pos < size)
        sql_parse_statement(text + pos, size - pos, &arena, &stmt, &err);
    comb_arena_free(&arena);
    comb_free(text);
    return 0;
}
