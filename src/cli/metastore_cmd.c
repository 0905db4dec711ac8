/*
 * metastore_cmd.c - `comb metastore`: metastore_cmd.h.
 */
#include "cli/metastore_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "hms/hms.h"

#define USAGE "usage: comb [OPTIONS] metastore [--port N] [--bind ADDR]\n"

static void say_listening(const char *host, int port)
{
    printf("listening on %s:%d\n", host, port);
    fflush(stdout);
}

static int port_parse(const char *s, int *port)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 65535) {
        fprintf(stderr, "comb metastore: bad port '%s'\n", s);
        return 2;
    }
    *port = (int)v;
    return 0;
}

/* confs split into keys and values (copies, freed by pairs_free). */
typedef struct Pairs {
    char **copies;
    const char **keys, **values;
    int n;
} Pairs;

static int pairs_make(char *const *confs, int n_confs, Pairs *p)
{
    p->n = 0;
    p->copies = comb_calloc((size_t)n_confs + 1, sizeof *p->copies);
    p->keys = comb_calloc((size_t)n_confs + 1, sizeof *p->keys);
    p->values = comb_calloc((size_t)n_confs + 1, sizeof *p->values);
    if (!p->copies || !p->keys || !p->values)
        return 1;
    for (int i = 0; i < n_confs; i++) {
        char *eq;
        if (!confs[i])
            continue;
        if (!(p->copies[p->n] = comb_strdup(confs[i])))
            return 1;
        if ((eq = strchr(p->copies[p->n], '=')))
            *eq = '\0';
        p->keys[p->n] = p->copies[p->n];
        p->values[p->n] = eq ? eq + 1 : "";
        p->n++;
    }
    return 0;
}

static void pairs_free(Pairs *p)
{
    for (int i = 0; p->copies && i < p->n; i++)
        comb_free(p->copies[i]);
    comb_free(p->copies);
    comb_free(p->keys);
    comb_free(p->values);
}

int cli_metastore(const char *warehouse, const char *metastore,
                  char *const *confs, int n_confs, int argc, char **argv)
{
    HmsOptions opt = {warehouse, metastore, NULL, 9083, NULL, NULL, 0,
                      say_listening};
    Pairs p;
    CombErr err;
    int rc = pairs_make(confs, n_confs, &p);
    for (int i = 0; !rc && i < p.n; i++)
        if (!strcmp(p.keys[i], "hive.metastore.port"))
            rc = port_parse(p.values[i], &opt.port);
    for (int i = 1; !rc && i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc) {
            rc = port_parse(argv[++i], &opt.port);
        } else if (!strcmp(argv[i], "--bind") && i + 1 < argc) {
            opt.bind = argv[++i];
        } else {
            fputs(USAGE, stderr);
            rc = 2;
        }
    }
    opt.conf_keys = p.keys;
    opt.conf_values = p.values;
    opt.n_conf = p.n;
    if (!rc && hms_serve(&opt, &err)) {
        fprintf(stderr, "comb metastore: %s\n", err.msg);
        rc = 1;
    }
    pairs_free(&p);
    return rc;
}
