#include "unit.h"
#include "common/arena.h"
#include "common/buf.h"

TEST(arena_alloc_reset)
{
    CombArena a;
    comb_arena_init(&a, 128);
    char *s = comb_arena_strdup(&a, "hello");
    CHECK_STR(s, "hello");
    void *big = comb_arena_alloc(&a, 10000);
    CHECK(big != NULL);
    CHECK(((uintptr_t)comb_arena_alloc(&a, 3) & 7) == 0);
    comb_arena_reset(&a);
    CHECK(comb_arena_printf(&a, "%d-%s", 5, "x") != NULL);
    comb_arena_free(&a);
}

TEST(buf_printf)
{
    CombBuf b = COMB_BUF_INIT;
    CHECK_EQ(comb_buf_printf(&b, "%s=%d", "k", 42), 0);
    CHECK_EQ(b.len, 4);
    CHECK(memcmp(b.data, "k=42", 4) == 0);
    comb_buf_free(&b);
}
