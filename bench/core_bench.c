/* core_bench.c - the C core's own time per query, for `make bench`: runs a
 * Moving AI map's scenarios through wf_search_run with A* and with JPS, no
 * Lua in between, and prints one tab-separated line per algorithm that
 * bench/run.lua reads and shows beside its Lua-call columns.
 *
 * usage: core_bench MAP SCEN [QUICK]
 *   QUICK  0 for every query, or k for k evenly spread ones: query number
 *          floor((i - 0.5) * n / k) + 1 for i = 1 .. k (as bench/run.lua)
 *
 * Output: "skipped N" (queries left out by the ground rule), then one line
 * per algorithm (times in seconds of process CPU time):
 *   core ALGO RUN MEDIAN MEAN TOTAL EXPANDED MISMATCHES
 * with "mismatch ..." lines describing the first few mismatches. Exits 0
 * when the map and scenarios loaded (mismatches are in the output), 1 when
 * they could not be, 2 on bad arguments.
 *
 * Timing is bench/run.lua's: each query runs once and is timed; a run under
 * MIN_SAMPLE is repeated in a batch of at least MIN_SAMPLE (at most
 * MAX_REPS runs) and its time is the batch time over the runs. */
#define _POSIX_C_SOURCE 200809L
#include "peer_common.h"
#include "wayfinder.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIN_SAMPLE 200e-6   /* [s] shorter queries are timed in batches */
#define MAX_REPS 1000
#define MISMATCH_DETAILS 5

typedef struct query {
    int sx, sy, gx, gy, w, h, line;
    double length, tolerance;
} query;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The tolerance of a printed length: half a unit of its last decimal
 * place, never less than 1e-3 (docs/movingai.md). */
static double tolerance_of(const char *text)
{
    const char *dot = strchr(text, '.');
    double half;
    if (dot) {
        half = 0.5 * pow(10, -(double)strlen(dot + 1));
    } else {
        half = 0.5 * pow(10, (double)strlen(text) - 6);
    }
    return half > 1e-3 ? half : 1e-3;
}

/* Parses the scenario text: a "version" line, then 9 fields per line;
 * blank lines are skipped. Returns the count, or -1. */
static int parse_scen(char *text, query **out)
{
    int cap = 256, n = 0, lineno = 0, header = 0;
    query *q = malloc(sizeof *q * (size_t)cap);
    if (!q)
        return -1;
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        size_t l = strlen(line);
        if (l && line[l - 1] == '\r')
            line[--l] = '\0';
        if (strspn(line, " \t") == l) {
            line = next;
            continue;
        }
        if (!header) {
            header = 1;
            line = next;
            continue;
        }
        char mapname[512], len[64];
        int bucket;
        query one;
        if (sscanf(line, "%d %511s %d %d %d %d %d %d %63s", &bucket, mapname,
                   &one.w, &one.h, &one.sx, &one.sy, &one.gx, &one.gy, len) != 9) {
            fprintf(stderr, "core_bench: scenario line %d is malformed\n", lineno);
            free(q);
            return -1;
        }
        one.length = atof(len);
        one.tolerance = tolerance_of(len);
        one.line = lineno;
        if (n == cap) {
            query *more = realloc(q, sizeof *q * (size_t)cap * 2);
            if (!more) {
                free(q);
                return -1;
            }
            q = more;
            cap *= 2;
        }
        q[n++] = one;
        line = next;
    }
    *out = q;
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int details_left = MISMATCH_DETAILS;

static void mismatch(const char *algo, const query *q, const char *why)
{
    if (details_left-- > 0)
        printf("mismatch\t%s\tline %d: (%d,%d) -> (%d,%d) expected %.8g: %s\n",
               algo, q->line, q->sx, q->sy, q->gx, q->gy, q->length, why);
}

/* Runs every selected query with one algorithm; costs[i] holds A*'s cost
 * for query i when JPS runs, -1 when A* found no path (and is filled when
 * A* runs). */
static void run_algo(wf_search *s, const wf_grid *g, wf_algorithm algo,
                     const char *name, const query *qs, int n, int64_t *costs,
                     double *times)
{
    double total = 0, expanded = 0;
    int bad = 0;
    wf_query q;
    wf_query_init(&q);
    q.algorithm = algo;
    for (int i = 0; i < n; i++) {
        const query *sq = &qs[i];
        q.sx = sq->sx;
        q.sy = sq->sy;
        wf_goal_point(&q.goal, WF_FIX(sq->gx) + WF_FIX_HALF,
                      WF_FIX(sq->gy) + WF_FIX_HALF);
        wf_path p;
        double t0 = cpu_now();
        wf_status st = wf_search_run(s, g, &q, &p);
        double t = cpu_now() - t0;
        if (t < MIN_SAMPLE) {
            double floor_t = t > 1e-7 ? t : 1e-7;
            int reps = (int)ceil(MIN_SAMPLE / floor_t);
            if (reps > MAX_REPS)
                reps = MAX_REPS;
            wf_path again;
            t0 = cpu_now();
            for (int k = 0; k < reps; k++)
                wf_search_run(s, g, &q, &again);
            t = (cpu_now() - t0) / reps;
        }
        times[i] = t;
        total += t;
        char why[128];
        if (st != WF_OK) {
            snprintf(why, sizeof why, "status %s", wf_status_name(st));
            mismatch(name, sq, why);
            bad++;
            continue;
        }
        expanded += (double)p.expanded;
        if (algo == WF_ALGO_ASTAR)
            costs[i] = p.cost;
        double len = (double)p.cost / (double)(2 * WF_COST_SCALE);
        if (fabs(len - sq->length) > sq->tolerance) {
            snprintf(why, sizeof why, "length %.8g", len);
            mismatch(name, sq, why);
            bad++;
        } else if (algo == WF_ALGO_JPS && costs[i] >= 0 && costs[i] != p.cost) {
            snprintf(why, sizeof why, "cost %lld, A* %lld", (long long)p.cost,
                     (long long)costs[i]);
            mismatch(name, sq, why);
            bad++;
        }
    }
    double mean = n ? total / n : 0;
    printf("core\t%s\t%d\t%.9g\t%.9g\t%.9g\t%.9g\t%d\n", name, n,
           median_of(times, n), mean, total, n ? expanded / n : 0, bad);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: core_bench MAP SCEN [QUICK]\n");
        return 2;
    }
    int quick = argc == 4 ? atoi(argv[3]) : 0;
    size_t len;
    char *text = pc_read_file(argv[1], &len);
    wf_grid *g = NULL;
    wf_parse_error perr;
    memset(&perr, 0, sizeof perr);
    if (!text || wf_grid_from_movingai(&g, text, len, NULL, &perr) != WF_OK) {
        fprintf(stderr, "core_bench: cannot load %s (line %d: %s)\n", argv[1],
                perr.line, perr.message);
        free(text);
        return 1;
    }
    free(text);
    text = pc_read_file(argv[2], &len);
    query *all = NULL;
    int n = text ? parse_scen(text, &all) : -1;
    free(text);
    if (n < 0) {
        fprintf(stderr, "core_bench: cannot load %s\n", argv[2]);
        wf_grid_destroy(g);
        return 1;
    }
    /* the evenly spread subset, then the ground rule: a query made for
     * another size or starting on a blocked navcell is skipped */
    int k = quick > 0 && quick < n ? quick : n;
    query *use = malloc(sizeof *use * (size_t)(k ? k : 1));
    int64_t *costs = malloc(sizeof *costs * (size_t)(k ? k : 1));
    double *times = malloc(sizeof *times * (size_t)(k ? k : 1));
    wf_search *s = NULL;
    if (!use || !costs || !times || wf_search_create(&s, g) != WF_OK) {
        fprintf(stderr, "core_bench: out of memory\n");
        return 1;
    }
    for (int i = 0; i < k; i++)
        costs[i] = -1;                  /* A* found no path (yet) */
    int w = wf_grid_width(g), h = wf_grid_height(g), m = 0, skipped = 0;
    for (int i = 1; i <= k; i++) {
        const query *q = &all[k == n ? i - 1 : (int)floor((i - 0.5) * n / k)];
        if (q->w != w || q->h != h || q->sx >= w || q->sy >= h || q->gx >= w
            || q->gy >= h || !wf_grid_is_passable(g, q->sx, q->sy, 0))
            skipped++;
        else
            use[m++] = *q;
    }
    printf("skipped\t%d\n", skipped);
    run_algo(s, g, WF_ALGO_ASTAR, "astar", use, m, costs, times);
    run_algo(s, g, WF_ALGO_JPS, "jps", use, m, costs, times);
    wf_search_destroy(s);
    wf_grid_destroy(g);
    free(all);
    free(use);
    free(costs);
    free(times);
    return 0;
}
