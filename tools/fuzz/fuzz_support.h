/* fuzz_support.h - what the fuzz targets share: reading fuzz input as a
 * stream of small integers, and stopping loudly when an oracle disagrees
 * (libFuzzer records the input that did it). */
#ifndef FUZZ_SUPPORT_H
#define FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct fz_in {
    const uint8_t *p;
    size_t n, at;
} fz_in;

/* The next byte, 0 once the input is used up. */
static inline unsigned fz_byte(fz_in *in)
{
    return in->at < in->n ? in->p[in->at++] : 0u;
}

/* A value in [0, n) from the next one or two bytes (n >= 1). */
static inline int fz_below(fz_in *in, int n)
{
    unsigned v = fz_byte(in);
    if (n > 256) v = (v << 8) | fz_byte(in);
    return (int)(v % (unsigned)n);
}

static inline int fz_done(const fz_in *in)
{
    return in->at >= in->n;
}

#define FZ_CHECK(cond, what)                                              \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "oracle failed: %s (%s:%d)\n", (what),        \
                    __FILE__, __LINE__);                                  \
            abort();                                                      \
        }                                                                 \
    } while (0)

#endif
