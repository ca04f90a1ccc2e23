/* fixmath.h - the integer arithmetic every part of the core shares (the
 * search, smoothing, the walker and the room planner): one exact integer
 * square root and the segment length built on it, plus inlining hints. */
#ifndef WF_FIXMATH_H
#define WF_FIXMATH_H

#include <math.h>

#include "wayfinder.h"

/* Results must not depend on how a compiler treats floating point: the
 * binding's NaN and infinity checks and the square root's estimate assume
 * IEEE arithmetic, which -ffast-math gives up (it may drop a NaN test). */
#ifdef __FAST_MATH__
#error "wayfinder must not be built with -ffast-math (it removes NaN checks)"
#endif

#if defined(__GNUC__)
#define WF_ALWAYS_INLINE inline __attribute__((always_inline))
#define WF_NOINLINE __attribute__((noinline))
#else
#define WF_ALWAYS_INLINE inline
#define WF_NOINLINE
#endif

/* floor(sqrt(v)) for every 64-bit v: a floating-point estimate, then
 * integer steps that make it the exact floor whatever the estimate's
 * rounding, so the result is the same on every machine. The core's one
 * integer square root (search, smoothing, walking, the room planner). */
static inline uint64_t wf_isqrt64(uint64_t v)
{
    uint64_t r = (uint64_t)sqrt((double)v);
    if (r > 4294967295u)
        r = 4294967295u;
    while (r * r > v)
        r--;
    while (r < 4294967295u && (r + 1) * (r + 1) <= v)
        r++;
    return r;
}

/* The length of a segment (dx, dy) in whole Q16.16 units (the floor of
 * its Euclidean length), as wf_polyline_length adds them up. */
static inline int64_t wf_segment_length(int64_t dx, int64_t dy)
{
    return (int64_t)wf_isqrt64((uint64_t)(dx * dx + dy * dy) << 32);
}

#endif
