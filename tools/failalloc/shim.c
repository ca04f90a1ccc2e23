/* tools/failalloc/shim.c: makes one allocation of wayfinder's C core fail.
 *
 * Preloaded (LD_PRELOAD) into a Lua process that loads the module, it
 * counts the calls to malloc, calloc and realloc made from inside
 * wayfinder/core.so (the caller's address, looked up with dladdr) and
 * makes the FAILALLOC_AT-th of them return NULL; 0 or unset fails none.
 * With FAILALLOC_COUNT set, the number of counted calls is written to
 * stderr at exit as "failalloc: N allocations". Calls after exit() are
 * left alone. Used by
 * tools/failalloc/run.sh (see docs/reliability.md). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static long fail_at = -1;   /* -1: not read yet */
static long counted;
static int busy;
static int exiting;         /* set by exit(): the scenario is over */

static int from_core(void *caller)
{
    Dl_info info;
    if (busy)
        return 0;
    busy = 1;
    int yes = dladdr(caller, &info) && info.dli_fname
              && strstr(info.dli_fname, "wayfinder/core.so") != NULL;
    busy = 0;
    return yes;
}

static int should_fail(void *caller)
{
    if (fail_at < 0) {
        const char *s = getenv("FAILALLOC_AT");
        fail_at = s ? atol(s) : 0;
    }
    if (exiting || !from_core(caller))
        return 0;
    counted++;
    return fail_at > 0 && counted == fail_at;
}

void *malloc(size_t n)
{
    if (should_fail(__builtin_return_address(0)))
        return NULL;
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    if (should_fail(__builtin_return_address(0)))
        return NULL;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    if (should_fail(__builtin_return_address(0)))
        return NULL;
    return __libc_realloc(p, n);
}

/* The scenario ends with os.exit: what the core allocates after that
 * (the coverage build writing its counts) is neither counted nor failed. */
void exit(int status)
{
    void (*real_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    exiting = 1;
    real_exit(status);
    __builtin_unreachable();
}

__attribute__((destructor)) static void report(void)
{
    if (getenv("FAILALLOC_COUNT"))
        fprintf(stderr, "failalloc: %ld allocations\n", counted);
}
