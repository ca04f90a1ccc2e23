/* peer_common.h - what the C harnesses of the peer comparison share: an
 * independent Moving AI map and scenario reader, the query selection, the
 * monotonic clock, a path checker for the benchmark's movement rule and the
 * record lines that bench/peers/report.lua reads.
 *
 * Record line (tab separated, one per timed query):
 *   Q peer map index status ns extra_ns cpu_ns extra_cpu_ns length expected
 *     sx sy gx gy detail
 * status is "ok" (a legal path was returned), "nopath" or "invalid"; length
 * is the length of the returned path recomputed here (%.9f); expected is the
 * scenario's optimal length exactly as the file prints it (the report derives
 * the tolerance from those digits); extra_ns is time spent outside the search
 * that a user must still pay (0 when there is none). ns is wall time
 * (CLOCK_MONOTONIC); cpu_ns the processor time of the same call, which a
 * shared machine's preemption does not inflate.
 */
#ifndef PEER_COMMON_H
#define PEER_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct pc_map {
    int w, h;
    unsigned char *pass;      /* w*h, 1 when the ground agent may stand there */
} pc_map;

typedef struct pc_query {
    int sx, sy, gx, gy;
    char length[40];          /* optimal length as printed in the file */
} pc_query;

typedef struct pc_scen {
    pc_query *q;
    int n;
} pc_scen;

/* Reads a whole file; returns a malloc'd NUL-terminated buffer or NULL. */
char *pc_read_file(const char *path, size_t *len);

/* '.', 'G', 'S' passable; everything else blocked; LF or CRLF. Returns 0 on
 * success, -1 with a message on stderr. */
int pc_load_map(const char *path, pc_map *m);
void pc_free_map(pc_map *m);

/* Header "version 1[.0]", then 9 whitespace-separated fields per line; blank
 * lines skipped. Query i is the i-th non-blank data line. */
int pc_load_scen(const char *path, pc_scen *s);
void pc_free_scen(pc_scen *s);

/* The evenly spread selection every peer harness shares: k <= 0 or k >= n
 * selects all n queries; otherwise query floor(i*n/k) for i in [0, k).
 * Writes the indices to idx (capacity n) and returns their count. */
int pc_select(int n, int k, int *idx);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t pc_now_ns(void);
/* Processor time of the calling thread (CLOCK_THREAD_CPUTIME_ID) in ns. */
uint64_t pc_cpu_ns(void);

/* Checks a path given as points where consecutive points lie on one
 * horizontal, vertical or 45-degree line (full step lists and jump-point
 * lists both qualify): it must start at (sx, sy), end at (gx, gy), and every
 * unit step must enter a passable cell without cutting a corner. Returns 1
 * and the length (orthogonal steps + sqrt(2) * diagonal steps), or 0 with a
 * reason in why. */
int pc_check_path(const pc_map *m, const int *xs, const int *ys, int n,
                  const pc_query *q, double *length, char *why, size_t whylen);

/* Prints one record line (see above) to stdout. */
void pc_emit(const char *peer, const char *map, int index, const char *status,
             uint64_t ns, uint64_t cpu_ns, double length, const pc_query *q,
             const char *detail);

/* The file name part of a path. */
const char *pc_basename(const char *path);

/* The harnesses' common start: "PROG MAP SCEN [K [WARMUP]]". Loads the map
 * and the scenarios; returns 0, or the exit status to leave with (2 for
 * usage, 1 when a file cannot be loaded). */
int pc_start(int argc, char **argv, pc_map *m, pc_scen *sc, int *k,
             int *warmup, const char **mapname);

#endif
