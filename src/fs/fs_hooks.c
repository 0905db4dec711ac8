/*
 * fs_hooks.c - test builds only: the trace and fault hooks of fs.h
 * ("test hooks").  A trace line is written with one write(2) on an
 * O_APPEND descriptor, so several processes can share one trace file and
 * their lines never interleave.  The environment is read once per process.
 */
#include "fs/fs.h"
#include "fs/fs_int.h"

#ifdef COMB_TEST_BUILD

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FS_MAX_FAULTS 8

typedef struct FsFault {
    char op[16];
    char text[256];
    int errnum;
} FsFault;

static struct {
    bool loaded;
    int trace_fd;            /* -1 when not tracing */
    int n_faults;
    FsFault faults[FS_MAX_FAULTS];
} hooks = {false, -1, 0, {{{0}, {0}, 0}}};
/* The first calls may come from several threads at once (a server's
 * connections): the load happens once, under the lock, and what it set
 * is read after taking it. */
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;

static int errno_by_name(const char *name)
{
    static const struct {
        const char *name;
        int value;
    } names[] = {{"EIO", EIO},       {"ENOSPC", ENOSPC}, {"EROFS", EROFS},
                 {"EACCES", EACCES}, {"EPERM", EPERM},   {"EBUSY", EBUSY}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0)
            return names[i].value;
    return EIO;
}

/* One "OP:TEXT[:ERRNO]" entry of COMB_FS_FAULT. */
static void parse_fault(const char *spec, size_t len)
{
    char buf[300];
    FsFault *f = &hooks.faults[hooks.n_faults];
    char *colon, *last;
    if (len >= sizeof buf || hooks.n_faults == FS_MAX_FAULTS)
        return;
    memcpy(buf, spec, len);
    buf[len] = '\0';
    if (!(colon = strchr(buf, ':')))
        return;
    *colon = '\0';
    last = strrchr(colon + 1, ':');
    f->errnum = EIO;
    if (last && last[1] == 'E') {
        *last = '\0';
        f->errnum = errno_by_name(last + 1);
    }
    if (strlen(buf) >= sizeof f->op || strlen(colon + 1) >= sizeof f->text)
        return;
    strcpy(f->op, buf);
    strcpy(f->text, colon + 1);
    hooks.n_faults++;
}

static void hooks_load(void)
{
    const char *trace = getenv("COMB_FS_TRACE");
    const char *fault = getenv("COMB_FS_FAULT");
    pthread_mutex_lock(&hooks_lock);
    if (!hooks.loaded) {
        hooks.loaded = true;
        if (trace && *trace)
            hooks.trace_fd = open(trace, O_WRONLY | O_CREAT | O_APPEND |
                                  O_CLOEXEC, 0644);
        while (fault && *fault) {
            size_t len = strcspn(fault, ",");
            parse_fault(fault, len);
            fault += len + (fault[len] == ',');
        }
    }
    pthread_mutex_unlock(&hooks_lock);
}

void fs_hook_reload(void)
{
    pthread_mutex_lock(&hooks_lock);
    if (hooks.trace_fd >= 0)
        close(hooks.trace_fd);
    hooks.trace_fd = -1;
    hooks.n_faults = 0;
    hooks.loaded = false;
    pthread_mutex_unlock(&hooks_lock);
}

int fs_hook_fault(const char *op, const char *path)
{
    hooks_load();
    for (int i = 0; i < hooks.n_faults; i++)
        if (strcmp(hooks.faults[i].op, op) == 0 &&
            strstr(path, hooks.faults[i].text))
            return hooks.faults[i].errnum;
    return 0;
}

void fs_hook_trace(const char *op, const char *path, const char *path2)
{
    char line[8300];
    int n;
    hooks_load();
    if (hooks.trace_fd < 0)
        return;
    n = snprintf(line, sizeof line, "%s %s%s%s\n", op, path, path2 ? " " : "",
                 path2 ? path2 : "");
    if (n > 0 && (size_t)n < sizeof line &&
        write(hooks.trace_fd, line, (size_t)n) != n)
        hooks.trace_fd = -1; /* a broken trace must not break comb */
}

void fs_trace_event(const char *op, const char *detail)
{
    fs_hook_trace(op, detail, NULL);
}

#else

/* ISO C wants at least one declaration in a translation unit. */
typedef int fs_hooks_unused;

#endif
