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

/* Forced inlining only when optimising: an unoptimised build (-O0, the
 * coverage build) keeps one copy of each helper, so each of its source
 * branches is counted once rather than once per inlined copy, where a
 * direction fixed at the call site makes the other side unreachable. */
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define WF_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define WF_ALWAYS_INLINE inline
#endif
#if defined(__GNUC__)
#define WF_NOINLINE __attribute__((noinline))
#else
#define WF_NOINLINE
#endif

/* Bit scans of a non-zero 64-bit word: the index of its lowest set bit
 * (count of trailing zeros) and the count of zeros above its highest set
 * bit. The compiler's built-ins under GCC and Clang, plain C elsewhere or
 * with -DWF_PORTABLE_BITS (make ctest runs the core tests both ways); the
 * _portable forms are always compiled so the C tests compare both. */
static inline int wf_ctz64_portable(uint64_t v)
{
    int n = 0;
    if (!(v & 0xffffffffu)) { n += 32; v >>= 32; }
    if (!(v & 0xffffu)) { n += 16; v >>= 16; }
    if (!(v & 0xffu)) { n += 8; v >>= 8; }
    if (!(v & 0xfu)) { n += 4; v >>= 4; }
    if (!(v & 0x3u)) { n += 2; v >>= 2; }
    if (!(v & 0x1u)) n += 1;
    return n;
}

static inline int wf_clz64_portable(uint64_t v)
{
    int n = 0;
    if (!(v >> 32)) { n += 32; v <<= 32; }
    if (!(v >> 48)) { n += 16; v <<= 16; }
    if (!(v >> 56)) { n += 8; v <<= 8; }
    if (!(v >> 60)) { n += 4; v <<= 4; }
    if (!(v >> 62)) { n += 2; v <<= 2; }
    if (!(v >> 63)) n += 1;
    return n;
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(WF_PORTABLE_BITS)
static inline int wf_ctz64(uint64_t v)
{
    return __builtin_ctzll((unsigned long long)v);
}

static inline int wf_clz64(uint64_t v)
{
    return __builtin_clzll((unsigned long long)v);
}

#define WF_PREFETCH(p) __builtin_prefetch(p)
#else
#define wf_ctz64 wf_ctz64_portable
#define wf_clz64 wf_clz64_portable
#define WF_PREFETCH(p) ((void)(p))
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
