/*
 * compactor_cmd.c - `comb compactor`: options, signals, and the daemon
 * loop of compactor/daemon.c.
 *
 *   comb [--warehouse DIR] [--metastore M] [--hiveconf k=v]... compactor
 *        [--once]
 *
 * --once runs the initiator (if hive.compactor.initiator.on), every
 * initiated request and one cleaner pass, then exits: what tests and cron
 * jobs use.  Without it the process runs until SIGTERM or SIGINT, with
 * hive.compactor.worker.threads workers (at least one).
 */
#include "cli/compactor_cmd.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "compactor/compactor.h"
#include "fs/fs.h"

/* lock-free, so the signal handler may set it */
static atomic_int stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&stop_flag, 1);
}

static int apply_confs(CompactorConfig *cfg, char *const *confs, int n,
                       CombErr *err)
{
    for (int i = 0; i < n; i++) {
        const char *eq = confs[i] ? strchr(confs[i], '=') : NULL;
        char key[256];
        bool used;
        int rc;
        if (!eq || (size_t)(eq - confs[i]) >= sizeof key)
            continue;
        memcpy(key, confs[i], (size_t)(eq - confs[i]));
        key[eq - confs[i]] = '\0';
        if ((rc = compactor_config_set(cfg, key, eq + 1, &used, err)))
            return rc;
    }
    return COMB_OK;
}

int cli_compactor(const char *warehouse, const char *metastore,
                  char *const *confs, int n_confs, int argc, char **argv)
{
    CompactorConfig cfg;
    struct sigaction sa;
    CombErr err;
    char *target = NULL;
    bool once = false;
    int rc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--once") == 0) {
            once = true;
        } else {
            fprintf(stderr, "comb compactor: unexpected argument '%s'\n"
                            "usage: comb [OPTIONS] compactor [--once]\n",
                    argv[i]);
            return 2;
        }
    }
    compactor_config_default(&cfg);
    if (apply_confs(&cfg, confs, n_confs, &err)) {
        fprintf(stderr, "Error: %s\n", err.msg);
        return 2;
    }
    if (cfg.worker_threads < 1)
        cfg.worker_threads = 1;
    if (!metastore) {
        target = comb_malloc(strlen(warehouse) + 16);
        if (!target)
            return 1;
        sprintf(target, "%s/metastore.db", warehouse);
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    rc = compactor_daemon(metastore ? metastore : target, warehouse, &cfg,
                          once, &stop_flag, &err);
    comb_free(target);
    if (rc) {
        fprintf(stderr, "Error: %s\n", err.msg);
        return 1;
    }
    return 0;
}
