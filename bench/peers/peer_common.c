/* peer_common.c - map and scenario reading, query selection, clock and path
 * checking for the peer comparison harnesses (see peer_common.h). Written
 * separately from the core's loader so the benchmark does not trust the code
 * it measures. */
#define _POSIX_C_SOURCE 199309L
#include "peer_common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *pc_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2 + 1);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* Next line of text at *p (without its LF or CRLF) into [*b, *e); 0 at end. */
static int next_line(char **p, char **b, char **e)
{
    if (**p == '\0')
        return 0;
    *b = *p;
    char *nl = strchr(*p, '\n');
    *e = nl ? nl : *p + strlen(*p);
    *p = nl ? nl + 1 : *e;
    if (*e > *b && (*e)[-1] == '\r')
        (*e)--;
    return 1;
}

int pc_load_map(const char *path, pc_map *m)
{
    memset(m, 0, sizeof *m);
    char *text = pc_read_file(path, NULL);
    if (!text) {
        fprintf(stderr, "%s: cannot read\n", path);
        return -1;
    }
    char *p = text, *b, *e;
    int w = -1, h = -1, line = 0;
    while (next_line(&p, &b, &e)) {
        line++;
        *e = '\0';
        if (sscanf(b, "height %d", &h) == 1 || sscanf(b, "width %d", &w) == 1)
            continue;
        if (strcmp(b, "map") == 0)
            break;
    }
    if (w <= 0 || h <= 0 || (long)w * h > (1L << 26)) {
        fprintf(stderr, "%s: bad or missing width/height\n", path);
        free(text);
        return -1;
    }
    m->w = w;
    m->h = h;
    m->pass = calloc((size_t)w * (size_t)h, 1);
    if (!m->pass) {
        free(text);
        return -1;
    }
    for (int y = 0; y < h; y++) {
        if (!next_line(&p, &b, &e) || e - b != w) {
            fprintf(stderr, "%s: row %d missing or not %d wide\n", path, y, w);
            free(text);
            pc_free_map(m);
            return -1;
        }
        for (int x = 0; x < w; x++) {
            char c = b[x];
            m->pass[(size_t)y * w + x] = c == '.' || c == 'G' || c == 'S';
        }
    }
    free(text);
    return 0;
}

void pc_free_map(pc_map *m)
{
    free(m->pass);
    m->pass = NULL;
}

int pc_load_scen(const char *path, pc_scen *s)
{
    memset(s, 0, sizeof *s);
    char *text = pc_read_file(path, NULL);
    if (!text) {
        fprintf(stderr, "%s: cannot read\n", path);
        return -1;
    }
    int cap = 1024, line = 0, header = 0;
    s->q = malloc(sizeof *s->q * (size_t)cap);
    char *p = text, *b, *e;
    while (s->q && next_line(&p, &b, &e)) {
        line++;
        *e = '\0';
        char *t = b;
        while (isspace((unsigned char)*t))
            t++;
        if (*t == '\0')
            continue;
        if (!header) {
            if (strncmp(t, "version", 7) != 0) {
                fprintf(stderr, "%s:%d: expected a version header\n", path, line);
                break;
            }
            header = 1;
            continue;
        }
        char mapname[512];
        int bucket, mw, mh;
        pc_query q;
        if (sscanf(t, "%d %511s %d %d %d %d %d %d %39s", &bucket, mapname, &mw,
                   &mh, &q.sx, &q.sy, &q.gx, &q.gy, q.length) != 9) {
            fprintf(stderr, "%s:%d: expected 9 fields\n", path, line);
            header = 0;
            break;
        }
        if (s->n == cap) {
            cap *= 2;
            pc_query *more = realloc(s->q, sizeof *s->q * (size_t)cap);
            if (!more)
                break;
            s->q = more;
        }
        s->q[s->n++] = q;
    }
    /* decide while the text is still ours: p points into it */
    int bad = !header || !s->q || *p != '\0';
    free(text);
    if (bad) {
        pc_free_scen(s);
        return -1;
    }
    return 0;
}

void pc_free_scen(pc_scen *s)
{
    free(s->q);
    s->q = NULL;
    s->n = 0;
}

int pc_select(int n, int k, int *idx)
{
    if (k <= 0 || k >= n) {
        for (int i = 0; i < n; i++)
            idx[i] = i;
        return n;
    }
    for (int i = 0; i < k; i++)
        idx[i] = (int)((long long)i * n / k);
    return k;
}

uint64_t pc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t pc_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int passable(const pc_map *m, int x, int y)
{
    return x >= 0 && y >= 0 && x < m->w && y < m->h &&
           m->pass[(size_t)y * m->w + x];
}

int pc_check_path(const pc_map *m, const int *xs, const int *ys, int n,
                  const pc_query *q, double *length, char *why, size_t whylen)
{
    long ortho = 0, diag = 0;
    *length = 0;
    if (n < 1) {
        snprintf(why, whylen, "empty path");
        return 0;
    }
    if (xs[0] != q->sx || ys[0] != q->sy) {
        snprintf(why, whylen, "starts at (%d,%d)", xs[0], ys[0]);
        return 0;
    }
    if (xs[n - 1] != q->gx || ys[n - 1] != q->gy) {
        snprintf(why, whylen, "ends at (%d,%d)", xs[n - 1], ys[n - 1]);
        return 0;
    }
    if (!passable(m, xs[0], ys[0])) {
        snprintf(why, whylen, "start (%d,%d) blocked", xs[0], ys[0]);
        return 0;
    }
    for (int i = 1; i < n; i++) {
        int dx = xs[i] - xs[i - 1], dy = ys[i] - ys[i - 1];
        int adx = abs(dx), ady = abs(dy);
        if (adx != 0 && ady != 0 && adx != ady) {
            snprintf(why, whylen, "segment (%d,%d)-(%d,%d) not straight",
                     xs[i - 1], ys[i - 1], xs[i], ys[i]);
            return 0;
        }
        int steps = adx > ady ? adx : ady;
        int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
        int x = xs[i - 1], y = ys[i - 1];
        for (int k = 0; k < steps; k++) {
            if (sx && sy && (!passable(m, x + sx, y) || !passable(m, x, y + sy))) {
                snprintf(why, whylen, "corner cut (%d,%d)->(%d,%d)", x, y,
                         x + sx, y + sy);
                return 0;
            }
            x += sx;
            y += sy;
            if (!passable(m, x, y)) {
                snprintf(why, whylen, "enters blocked (%d,%d)", x, y);
                return 0;
            }
        }
        if (sx && sy)
            diag += steps;
        else
            ortho += steps;
    }
    *length = (double)ortho + (double)diag * sqrt(2.0);
    return 1;
}

void pc_emit(const char *peer, const char *map, int index, const char *status,
             uint64_t ns, uint64_t cpu_ns, double length, const pc_query *q,
             const char *detail)
{
    printf("Q\t%s\t%s\t%d\t%s\t%llu\t0\t%llu\t0\t%.9f\t%s\t%d\t%d\t%d\t%d\t%s\n",
           peer, map, index, status, (unsigned long long)ns,
           (unsigned long long)cpu_ns, length, q->length, q->sx, q->sy, q->gx,
           q->gy, detail && *detail ? detail : "-");
}

const char *pc_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int pc_start(int argc, char **argv, pc_map *m, pc_scen *sc, int *k,
             int *warmup, const char **mapname)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s MAP SCEN [K [WARMUP]]\n", argv[0]);
        return 2;
    }
    *k = argc > 3 ? atoi(argv[3]) : 0;
    *warmup = argc > 4 ? atoi(argv[4]) : 10;
    *mapname = pc_basename(argv[1]);
    if (pc_load_map(argv[1], m) != 0 || pc_load_scen(argv[2], sc) != 0)
        return 1;
    return 0;
}
