/*
 * main.c - the `comb` command: a Hive CLI / beeline style shell over an
 * embedded warehouse, and `comb orcfiledump`.
 *
 *   comb [OPTIONS] [-e 'SQL;...' | -f FILE]
 *   comb [OPTIONS] orcfiledump [-d|--contents] [-j [-p]] [-t]
 *        [--rowindex=C,...] [--skip-dump] PATH...   (cli/orcfiledump.c)
 *   comb [OPTIONS] compactor [--once]               (cli/compactor_cmd.c)
 *   comb [OPTIONS] stream --table [db.]t ...        (cli/stream_cmd.c)
 *
 * OPTIONS: --warehouse DIR, --metastore PATH|URL, --hivevar k=v,
 * --hiveconf k=v, --outputformat table|tsv|csv, -v, --silent.  Global
 * options come before a subcommand; the subcommand's own options after its
 * name.  The metastore is chosen when comb starts: --metastore, else
 * --hiveconf comb.metastore.url=..., else <warehouse>/metastore.db.
 *
 * With neither -e nor -f statements come from standard input and each runs
 * as soon as its ';' arrives; on a terminal with line editing and history.
 * In -e / -f mode the first failing statement stops the run with exit
 * status 1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/compactor_cmd.h"
#include "cli/orcfiledump.h"
#include "cli/passwd_cmd.h"
#include "cli/metastore_cmd.h"
#include "cli/serve_cmd.h"
#include "server/hs2_client.h"
#include "cli/print.h"
#include "cli/shell.h"
#include "cli/stop.h"
#include "cli/stream_cmd.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/version.h"
#include "fs/fs.h"
#include "orc/orc.h"
#include "sql/parse/ast.h"
#include "sql/session.h"

typedef struct CliOptions {
    const char *warehouse;
    const char *metastore;    /* --metastore */
    const char *exec;         /* -e */
    const char *file;         /* -f */
    const char *url;          /* -u jdbc:hive2://...: a server instead */
    const char *user;         /* -n */
    const char *password;     /* -p */
    CliFormat format;
    bool verbose;
    bool silent;
} CliOptions;

static void usage(FILE *out)
{
    fputs("usage: comb [OPTIONS] [-e 'SQL;...' | -f FILE]\n"
          "       comb [OPTIONS] orcfiledump [-d|--contents] [-j [-p]] [-t]\n"
          "            [--rowindex=C,...] [--skip-dump] PATH...\n"
          "       comb [OPTIONS] compactor [--once]\n"
          "       comb [OPTIONS] stream --table [db.]t [--format csv|tsv|json]\n"
          "            [--upsert-key col,...] ... (comb stream --help)\n"
          "       comb [OPTIONS] serve [--port N] [--bind ADDR]\n"
          "       comb [OPTIONS] metastore [--port N] [--bind ADDR]\n"
          "       comb -u jdbc:hive2://HOST:PORT/DB [-n USER] [-p PASSWORD]\n"
          "            [-e 'SQL;...' | -f FILE] (a server instead)\n"
          "       comb passwd [--delete] FILE USER\n"
          "OPTIONS: [--warehouse DIR] [--metastore FILE|postgresql://...]\n"
          "         [--hivevar k=v]... [--hiveconf k=v]...\n"
          "         [--outputformat table|tsv|csv] [-v] [--silent]\n"
          "Without -e or -f, statements are read from standard input.\n"
          "The warehouse defaults to ./warehouse, the metastore to the SQLite\n"
          "file metastore.db in it (or --hiveconf comb.metastore.url=...).\n",
          out);
}

static int split_kv(const char *arg, char **key, const char **val)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return -1;
    *key = comb_strndup(arg, (size_t)(eq - arg));
    *val = eq + 1;
    return *key ? 0 : -1;
}

static int apply_setting(SqlSession *s, const char *arg, bool is_var)
{
    char *key;
    const char *val;
    CombErr err;
    int rc;
    if (split_kv(arg, &key, &val)) {
        fprintf(stderr, "comb: expected key=value, got '%s'\n", arg);
        return 2;
    }
    rc = is_var ? sql_session_set_var(s, key, val, &err)
                : sql_session_set_conf(s, key, val, &err);
    comb_free(key);
    if (rc) {
        fprintf(stderr, "Error: %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* The object-store settings (--hiveconf fs.s3a.*=...) reach the file layer
 * before anything opens the warehouse, which may lie on the store. */
static int apply_store_confs(char *const *confs, int n_confs)
{
    for (int i = 0; i < n_confs; i++) {
        char *key;
        const char *val;
        CombErr err;
        int rc;
        if (!confs[i] || strncasecmp(confs[i], "fs.s3a.", 7) != 0)
            continue;
        if (split_kv(confs[i], &key, &val)) {
            fprintf(stderr, "comb: expected key=value, got '%s'\n", confs[i]);
            return 2;
        }
        rc = fs_configure(key, val, &err);
        comb_free(key);
        if (rc) {
            fprintf(stderr, "Error: %s\n", err.msg);
            return 1;
        }
    }
    return 0;
}

/* Echo a statement (-v) without the white space around it. */
static void echo_statement(FILE *out, const char *stmt, size_t n)
{
    while (n > 0 &&
           (*stmt == ' ' || *stmt == '\n' || *stmt == '\t' || *stmt == '\r')) {
        stmt++;
        n--;
    }
    while (n > 0 && (stmt[n - 1] == ' ' || stmt[n - 1] == '\n' ||
                     stmt[n - 1] == '\t' || stmt[n - 1] == '\r'))
        n--;
    fwrite(stmt, 1, n, out);
    fputc('\n', out);
}

/* Run every complete statement in buf[0..len); returns bytes consumed.
 * *failed is set when a statement fails; stop_on_error ends the loop. */
size_t cli_run_buffer(CliContext *cx, const char *buf, size_t len,
                      bool stop_on_error, bool *failed)
{
    size_t done = 0, end;
    while (done < len && !cli_stop_requested(NULL) &&
           sql_next_statement(buf + done, len - done, &end)) {
        done += end;
        cli_run_statement(cx, buf + done - end, end, failed);
        if (*failed && stop_on_error)
            return len;
    }
    return done;
}

/* Run text[0..len) as one statement (nothing if blank): echo it with -v,
 * print its result or its error.  Also used when input ends inside a
 * statement (no ';', or an unterminated string or comment), as the Hive
 * CLI does, so the user sees the parse error instead of silence. */
void cli_run_statement(CliContext *cx, const char *text, size_t len,
                       bool *failed)
{
    CombErr err;
    SqlSink sink = cli_printer_sink(cx->printer);
    SqlTxnState before = cx->session ? sql_session_txn_state(cx->session, NULL)
                                     : SQL_TXN_NONE;
    int rc;
    if (sql_is_blank(text, len) || cli_stop_requested(NULL))
        return;
    if (cx->verbose)
        echo_statement(cx->printer->out, text, len);
    if (cli_stop_is_quit(text, len)) {
        cli_stop_quit();
        return;
    }
    cli_stop_busy(true);
    rc = cx->remote ? hs2_client_execute(cx->remote, text, len, &sink, &err)
                    : sql_session_execute(cx->session, text, len, &sink, &err);
    cli_stop_busy(false);
    if (rc) {
        fflush(cx->printer->out);
        fprintf(stderr, "Error: %s\n", err.msg);
        *failed = true;
        if (before == SQL_TXN_OPEN &&
            sql_session_txn_state(cx->session, NULL) == SQL_TXN_FAILED)
            fputs("Notice: the transaction is aborted; ROLLBACK ends it "
                  "(COMMIT rolls it back too)\n",
                  stderr);
    }
    fflush(cx->printer->out);
}

/* The end of the input, a signal or quit with a transaction still open:
 * closing the session rolls it back; say so. */
static void notice_open_txn(SqlSession *s)
{
    int64_t txnid;
    if (sql_session_txn_state(s, &txnid) == SQL_TXN_NONE)
        return;
    if (txnid)
        fprintf(stderr, "Notice: rolling back the transaction left open "
                        "(txnid:%lld)\n",
                (long long)txnid);
    else
        fputs("Notice: ending the transaction left open\n", stderr);
}

/* Run a whole script, text[0..len); a trailing statement without ';' runs
 * too.  A UTF-8 byte-order mark (editors on Windows write one) is not
 * part of the first statement. */
static int run_script(CliContext *cx, const char *text, size_t len)
{
    static const char bom[] = "\xEF\xBB\xBF";
    size_t used;
    bool failed = false;
    if (len >= 3 && memcmp(text, bom, 3) == 0) {
        text += 3;
        len -= 3;
    }
    used = cli_run_buffer(cx, text, len, true, &failed);
    if (!failed && used < len)
        cli_run_statement(cx, text + used, len - used, &failed);
    return failed ? 1 : 0;
}

/* The whole of a script file (NUL bytes included) into *out / *len; a
 * message on stderr when it cannot be read (missing, a directory, an I/O
 * error), so that -f never runs nothing in silence. */
static int read_file(const char *path, CombBuf *out)
{
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;
    int rc = 0;
    if (!f) {
        fprintf(stderr, "comb: cannot open '%s': %s\n", path, strerror(errno));
        return 1;
    }
    while (!rc && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (comb_buf_append(out, chunk, n)) {
            fprintf(stderr, "comb: out of memory reading '%s'\n", path);
            rc = 1;
        }
    if (!rc && ferror(f)) {
        fprintf(stderr, "comb: cannot read '%s': %s\n", path, strerror(errno));
        rc = 1;
    }
    fclose(f);
    return rc;
}

typedef struct Subcommand {
    const char *name;
    int (*run)(int argc, char **argv);   /* argv[0] is the name */
} Subcommand;

/* -e, -f or standard input, through cx. */
static int run_input(CliContext *cx, const CliOptions *o)
{
    CombBuf text = COMB_BUF_INIT;
    int rc;
    if (o->exec)
        return run_script(cx, o->exec, strlen(o->exec));
    if (!o->file)
        return cli_shell_run(cx, isatty(STDIN_FILENO) && !o->silent);
    rc = read_file(o->file, &text);
    if (!rc)
        rc = run_script(cx, text.data ? (const char *)text.data : "", text.len);
    comb_buf_free(&text);
    return rc;
}

/* comb -u URL: the statements go to a server's session (beeline's
 * habit); --hiveconf and --hivevar become its overlay. */
static int run_remote(const CliOptions *o, char *const *vars, int n_vars,
                      char *const *confs, int n_confs)
{
    Hs2ClientOptions co = {o->url, o->user, o->password, confs, n_confs,
                           vars, n_vars};
    Hs2Client *remote;
    CliPrinter printer;
    CliContext cx;
    CombErr err;
    int rc, sig;
    if (hs2_client_open(&co, &remote, &err)) {
        fprintf(stderr, "Error: %s\n", err.msg);
        return 1;
    }
    cli_stop_install();
    cli_printer_init(&printer, o->format, stdout);
    cx = (CliContext){NULL, remote, &printer, o->verbose};
    rc = run_input(&cx, o);
    cli_printer_free(&printer);
    hs2_client_close(remote);
    if (cli_stop_requested(&sig) && sig)
        return 128 + sig;
    return rc;
}

/* `comb compactor` needs the global options: main calls it itself. */
static int compactor_placeholder(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 2;
}

/* `comb stream` too. */
static int stream_placeholder(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 2;
}

/* `comb serve` too. */
static int serve_placeholder(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 2;
}

/* `comb metastore` too. */
static int metastore_placeholder(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 2;
}

static const Subcommand subcommands[] = {
    {"orcfiledump", cli_orcfiledump},
    {"compactor", compactor_placeholder},
    {"stream", stream_placeholder},
    {"serve", serve_placeholder},
    {"metastore", metastore_placeholder},
    {"passwd", cli_passwd},
};

/* The subcommand named by the first argument after the global options, or
 * an error for any other stray argument (or one mixed with -e/-f). */
static int find_subcommand(const CliOptions *o, const char *arg,
                           const Subcommand **out)
{
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) {
        if (strcmp(arg, subcommands[i].name) != 0)
            continue;
        if (o->exec || o->file) {
            fprintf(stderr, "comb: -e and -f cannot be used with %s\n", arg);
            return 2;
        }
        *out = &subcommands[i];
        return 0;
    }
    fprintf(stderr, "comb: unexpected argument '%s'\n", arg);
    usage(stderr);
    return 2;
}

enum {
    OPT_WAREHOUSE = 1000,
    OPT_METASTORE,
    OPT_HIVEVAR,
    OPT_HIVECONF,
    OPT_FORMAT,
    OPT_SILENT
};

static int parse_options(int argc, char **argv, CliOptions *o, char ***vars,
                         int *n_vars, char ***confs, int *n_confs)
{
    static const struct option longopts[] = {
        {"warehouse", required_argument, NULL, OPT_WAREHOUSE},
        {"metastore", required_argument, NULL, OPT_METASTORE},
        {"hivevar", required_argument, NULL, OPT_HIVEVAR},
        {"hiveconf", required_argument, NULL, OPT_HIVECONF},
        {"outputformat", required_argument, NULL, OPT_FORMAT},
        {"silent", no_argument, NULL, OPT_SILENT},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    int ch;
    /* '+': stop at the first non-option, the subcommand */
    while ((ch = getopt_long(argc, argv, "+e:f:u:n:p:vhS", longopts, NULL)) != -1) {
        switch (ch) {
        case OPT_WAREHOUSE: o->warehouse = optarg; break;
        case OPT_METASTORE: o->metastore = optarg; break;
        case 'e': o->exec = optarg; break;
        case 'f': o->file = optarg; break;
        case 'u': o->url = optarg; break;
        case 'n': o->user = optarg; break;
        case 'p': o->password = optarg; break;
        case 'v': o->verbose = true; break;
        case 'S':
        case OPT_SILENT: o->silent = true; break;
        case OPT_HIVEVAR: (*vars)[(*n_vars)++] = optarg; break;
        case OPT_HIVECONF: (*confs)[(*n_confs)++] = optarg; break;
        case OPT_FORMAT:
            if (cli_format_parse(optarg, &o->format)) {
                fprintf(stderr, "comb: unknown output format '%s'\n", optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout); return -1;
        case 'V': printf("comb %s\n", COMB_VERSION); return -1;
        default: usage(stderr); return 2;
        }
    }
    if (o->exec && o->file) {
        fputs("comb: -e and -f cannot be used together\n", stderr);
        return 2;
    }
    return 0;
}

/* The metastore is chosen before the session opens: a --hiveconf of
 * comb.metastore.url is taken out of the settings (the last one counts),
 * and --metastore wins over it. */
static const char *take_metastore_conf(const CliOptions *o, char **confs,
                                       int n_confs)
{
    static const char key[] = "comb.metastore.url=";
    const char *url = NULL;
    for (int i = 0; i < n_confs; i++) {
        if (confs[i] && strncmp(confs[i], key, sizeof key - 1) == 0) {
            url = confs[i] + sizeof key - 1;
            confs[i] = NULL;
        }
    }
    return o->metastore ? o->metastore : url;
}

int main(int argc, char **argv)
{
    CliOptions o = {"warehouse", NULL, NULL, NULL, CLI_FORMAT_TABLE, false,
                    false};
    SqlSessionOptions so = {0};
    SqlSession *s = NULL;
    CliPrinter printer;
    CliContext cx;
    CombErr err;
    char **vars = comb_calloc((size_t)argc + 1, sizeof *vars);
    char **confs = comb_calloc((size_t)argc + 1, sizeof *confs);
    const Subcommand *sub = NULL;
    int n_vars = 0, n_confs = 0, rc, sig;

    if (!vars || !confs)
        return 1;
    rc = parse_options(argc, argv, &o, &vars, &n_vars, &confs, &n_confs);
    if (!rc && optind < argc)
        rc = find_subcommand(&o, argv[optind], &sub);
    if (!rc)
        rc = apply_store_confs(confs, n_confs);
    if (!rc && sub && (sub->run == compactor_placeholder ||
                       sub->run == stream_placeholder ||
                       sub->run == serve_placeholder ||
                       sub->run == metastore_placeholder)) {
        const char *ms = take_metastore_conf(&o, confs, n_confs);
        rc = sub->run == stream_placeholder
                 ? cli_stream(o.warehouse, ms, confs, n_confs, argc - optind,
                              argv + optind)
             : sub->run == serve_placeholder
                 ? cli_serve(o.warehouse, ms, confs, n_confs, argc - optind,
                             argv + optind)
             : sub->run == metastore_placeholder
                 ? cli_metastore(o.warehouse, ms, confs, n_confs,
                                 argc - optind, argv + optind)
                 : cli_compactor(o.warehouse, ms, confs, n_confs,
                                 argc - optind, argv + optind);
        comb_free(vars);
        comb_free(confs);
        return rc;
    }
    if (rc || sub) {
        comb_free(vars);
        comb_free(confs);
        if (sub)
            return sub->run(argc - optind, argv + optind);
        return rc < 0 ? 0 : rc;
    }
    if (o.url) {
        rc = run_remote(&o, vars, n_vars, confs, n_confs);
        comb_free(vars);
        comb_free(confs);
        return rc;
    }
    so.warehouse = o.warehouse;
    so.metastore = take_metastore_conf(&o, confs, n_confs);
    if (sql_session_open(&so, &s, &err)) {
        fprintf(stderr, "Error: %s\n", err.msg);
        comb_free(vars);
        comb_free(confs);
        return 1;
    }
    for (int i = 0; i < n_vars && !rc; i++)
        rc = apply_setting(s, vars[i], true);
    for (int i = 0; i < n_confs && !rc; i++)
        if (confs[i])
            rc = apply_setting(s, confs[i], false);
    comb_free(vars);
    comb_free(confs);
    cli_stop_install();
    cli_printer_init(&printer, o.format, stdout);
    cx = (CliContext){s, NULL, &printer, o.verbose};
    if (!rc)
        rc = run_input(&cx, &o);
    cli_printer_free(&printer);
    notice_open_txn(s);
    sql_session_close(s);
    if (cli_stop_requested(&sig) && sig)
        return 128 + sig;
    return rc;
}
