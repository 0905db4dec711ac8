/*
 * hs2_compact.c - the compactor inside `comb serve`: when its settings ask
 * for one (hive.compactor.initiator.on=true or hive.compactor.worker.
 * threads above 0), the loop of `comb compactor` (compactor/compactor.h:
 * the initiator, the workers, the cleaner and their housekeeping) runs
 * on a thread of the server until the server stops.
 */
#include "server/hs2_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "compactor/compactor.h"
#include "fs/fs.h"

struct Hs2Compactor {
    CompactorConfig cfg;
    char *target, *warehouse;
    atomic_int stop;
    pthread_t thread;
};

static void *compactor_thread(void *arg)
{
    struct Hs2Compactor *c = arg;
    CombErr err;
    if (compactor_daemon(c->target, c->warehouse, &c->cfg, false, &c->stop,
                         &err))
        fprintf(stderr, "comb serve: the compactor stopped: %s\n", err.msg);
    return NULL;
}

int hs2_compactor_start(const Hs2Options *opt, struct Hs2Compactor **out,
                        CombErr *err)
{
    struct Hs2Compactor *c;
    CompactorConfig cfg;
    int rc;
    *out = NULL;
    compactor_config_default(&cfg);
    for (int i = 0; i < opt->n_conf; i++) {
        bool used;
        if ((rc = compactor_config_set(&cfg, opt->conf_keys[i],
                                       opt->conf_values[i], &used, err)))
            return rc;
    }
    if (!cfg.initiator_on && cfg.worker_threads <= 0)
        return COMB_OK;
    /* the warehouse's own metastore file needs its directory, which the
     * first session would otherwise make */
    if (!opt->metastore &&
        (rc = fs_mkdirs(opt->warehouse ? opt->warehouse : "warehouse", err)))
        return rc;
    if (!(c = comb_calloc(1, sizeof *c)))
        return comb_err_nomem(err);
    c->cfg = cfg;
    c->warehouse = comb_strdup(opt->warehouse ? opt->warehouse : "warehouse");
    c->target = opt->metastore ? comb_strdup(opt->metastore)
                               : c->warehouse
                                     ? comb_malloc(strlen(c->warehouse) + 16)
                                     : NULL;
    if (c->target && !opt->metastore)
        sprintf(c->target, "%s/metastore.db", c->warehouse);
    atomic_init(&c->stop, 0);
    if (!c->warehouse || !c->target) {
        rc = comb_err_nomem(err);
    } else if (pthread_create(&c->thread, NULL, compactor_thread, c)) {
        rc = comb_err(err, COMB_EIO, "cannot start the compactor's thread");
    } else {
        *out = c;
        return COMB_OK;
    }
    comb_free(c->target);
    comb_free(c->warehouse);
    comb_free(c);
    return rc;
}

void hs2_compactor_stop(struct Hs2Compactor *c)
{
    if (!c)
        return;
    atomic_store(&c->stop, 1);
    pthread_join(c->thread, NULL);
    comb_free(c->target);
    comb_free(c->warehouse);
    comb_free(c);
}
