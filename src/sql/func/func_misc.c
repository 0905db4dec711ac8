/*
 * func_misc.c - hash (GenericUDFHash: ObjectInspectorUtils.hashCode of
 * each argument, combined 31 * r + h, Java hashCode semantics) and
 * murmur_hash (GenericUDFMurmurHash: the Murmur3 hashes Hive's
 * bucketing version 2 uses), both through acid/'s bucketing hash.
 */
#include "acid/acid.h"
#include "common/hash.h"
#include "sql/func/func_int.h"

static int hash_args(BoundExpr *e, const CombBatch *in, int version)
{
    e->out->has_nulls = false;
    FOR_LIVE(in, i, row) {
        int32_t h = 0;
        for (int k = 0; k < e->n_args; k++)
            h = comb_hive_hash_combine(h, acid_hash_of_value(e->args[k]->out, row,
                                                              version));
        e->out->i64[row] = h;
    }
    return COMB_OK;
}

static int fn_hash(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return hash_args(e, in, ACID_BUCKETING_V1);
}

static int fn_murmur_hash(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return hash_args(e, in, ACID_BUCKETING_V2);
}

static int bind_hash(SqlFnBind *f, CombErr *err)
{
    (void)err;
    f->b->type = COMB_T_INT;
    return COMB_OK;
}

const SqlFuncDef sql_funcs_misc[] = {
    {"hash", 1, FN_ANY_ARGS, bind_hash, fn_hash, NULL},
    {"murmur_hash", 1, FN_ANY_ARGS, bind_hash, fn_murmur_hash, NULL},
    {NULL, 0, 0, NULL, NULL, NULL},
};
