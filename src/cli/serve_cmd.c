/*
 * serve_cmd.c - `comb serve`: serve_cmd.h.
 */
#include "cli/serve_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "server/hs2.h"

static void say_listening(const char *host, int port)
{
    printf("listening on %s:%d\n", host, port);
    fflush(stdout);
}

static void say_status_page(const char *host, int port)
{
    printf("status page on http://%s:%d/\n", host, port);
    fflush(stdout);
}

/* The value of conf key in confs ("k=v"), the last one given, or NULL. */
static const char *conf_value(char *const *confs, int n, const char *key)
{
    const char *v = NULL;
    size_t len = strlen(key);
    for (int i = 0; i < n; i++)
        if (confs[i] && !strncmp(confs[i], key, len) && confs[i][len] == '=')
            v = confs[i] + len + 1;
    return v;
}

static int parse_port(const char *s, int *port)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 65535) {
        fprintf(stderr, "comb serve: bad port '%s'\n", s);
        return 2;
    }
    *port = (int)v;
    return 0;
}

int cli_serve(const char *warehouse, const char *metastore,
              char *const *confs, int n_confs, int argc, char **argv)
{
    const char *bind = conf_value(confs, n_confs, "hive.server2.thrift.bind.host");
    const char *port_conf = conf_value(confs, n_confs, "hive.server2.thrift.port");
    const char **keys = comb_calloc((size_t)n_confs + 1, sizeof *keys);
    const char **values = comb_calloc((size_t)n_confs + 1, sizeof *values);
    char **copies = comb_calloc((size_t)n_confs + 1, sizeof *copies);
    Hs2Options opt = {warehouse, metastore, NULL, 10000, NULL, NULL, 0,
                      say_listening, say_status_page};
    CombErr err;
    int rc = keys && values && copies ? 0 : 1;
    if (!rc && port_conf)
        rc = parse_port(port_conf, &opt.port);
    for (int i = 1; !rc && i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc)
            rc = parse_port(argv[++i], &opt.port);
        else if (!strcmp(argv[i], "--bind") && i + 1 < argc)
            bind = argv[++i];
        else {
            fprintf(stderr, "usage: comb [OPTIONS] serve [--port N] [--bind ADDR]\n");
            rc = 2;
        }
    }
    for (int i = 0; !rc && i < n_confs; i++) {
        char *eq;
        if (!confs[i])
            continue;
        if (!(copies[opt.n_conf] = comb_strdup(confs[i]))) {
            rc = 1;
            break;
        }
        if ((eq = strchr(copies[opt.n_conf], '=')))
            *eq = '\0';
        keys[opt.n_conf] = copies[opt.n_conf];
        values[opt.n_conf] = eq ? eq + 1 : "";
        opt.n_conf++;
    }
    opt.bind = bind;
    opt.conf_keys = keys;
    opt.conf_values = values;
    if (!rc && hs2_serve(&opt, &err)) {
        fprintf(stderr, "comb serve: %s\n", err.msg);
        rc = 1;
    }
    for (int i = 0; copies && i < opt.n_conf; i++)
        comb_free(copies[i]);
    comb_free(copies);
    comb_free(keys);
    comb_free(values);
    return rc;
}
