/*
 * orc_options.c - the ORC writer settings a table asks for, read as Hive
 * reads them (ORC's OrcConf through OrcFile.writerOptions(tableProperties,
 * conf)): the table property, else the session setting of that name, else
 * Hive's older setting, else ORC's default.  The settings, their parsing
 * and defaults are acid/orc_conf.h's (the streaming connection reads the
 * same ones from the table alone).
 */
#include "sql/exec/exec.h"

typedef struct Lookup {
    SqlStmtCtx *c;
    const SqlTable *t;
} Lookup;

/* The value of an OrcConf setting and the name it was found under. */
static const char *orc_conf(void *ctx, const char *key, const char *hive_key,
                            const char **where)
{
    const Lookup *l = ctx;
    const char *v = ms_table_prop(l->t->ms, key);
    *where = "table property";
    if (!v) {
        *where = "session setting";
        v = sql_session_get_conf(l->c->s, key);
    }
    if (!v && (v = sql_session_get_conf(l->c->s, hive_key)))
        *where = hive_key;
    return v;
}

int sql_table_orc_options(SqlStmtCtx *c, const SqlTable *t,
                          SqlOrcOptions *out, CombErr *err)
{
    Lookup l = {c, t};
    return acid_orc_conf(orc_conf, &l, t->qualified, t->n_data, t->names,
                         c->arena, out, err);
}
