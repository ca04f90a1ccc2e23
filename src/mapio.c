/* mapio.c - grids from text: Moving AI ".map" files and plain ASCII art.
 * Both parsers check everything before building, and report the first
 * problem with its line number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid_internal.h"

typedef struct cursor {
    const char *p, *end;
    int line;
} cursor;

static void fail(wf_parse_error *err, int line, const char *msg)
{
    if (!err)
        return;
    err->line = line;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

/* Next line without its LF or CRLF; 0 at the end of the text. */
static int next_line(cursor *c, const char **s, size_t *n)
{
    if (c->p >= c->end)
        return 0;
    const char *e = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *stop = e ? e : c->end;
    *s = c->p;
    *n = (size_t)(stop - c->p);
    if (*n > 0 && (*s)[*n - 1] == '\r')
        (*n)--;
    c->p = e ? e + 1 : c->end;
    c->line++;
    return 1;
}

/* Reads "key value" with a whole-number value. */
static int header_number(const char *s, size_t n, const char *key, long *v)
{
    size_t k = strlen(key);
    if (n <= k || memcmp(s, key, k) != 0 || (s[k] != ' ' && s[k] != '\t'))
        return 0;
    size_t i = k;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n)
        return 0;
    long val = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        if (val > 1000000)
            return 0;
        val = val * 10 + (s[i] - '0');
    }
    *v = val;
    return 1;
}

static wf_status build(wf_grid **out, int w, int h, const wf_grid_config *cfg,
                       const char *const *rows, int (*passable)(char),
                       wf_parse_error *err)
{
    wf_grid_config c;
    if (cfg)
        c = *cfg;
    else
        wf_grid_config_init(&c, w, h);
    c.width = w;
    c.height = h;
    wf_status st = wf_grid_create(out, &c);
    if (st != WF_OK) {
        fail(err, 0, st == WF_ERR_NOMEM ? "out of memory"
                                        : "size or options out of range");
        return st;
    }
    wf_grid *g = *out;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (!passable(rows[y][x]))
                for (int k = 0; k < g->nclasses; k++) {
                    uint64_t *row = wf_plane_row(g, g->terrain, k, y);
                    unsigned b = (unsigned)(x + 1);
                    row[b >> 6] &= ~((uint64_t)1 << (b & 63));
                }
    st = wf_grid_rebuild(g);
    if (st != WF_OK) {
        wf_grid_destroy(g);
        *out = NULL;
        fail(err, 0, "out of memory");
    }
    return st;
}

static int movingai_passable(char ch)
{
    return ch == '.' || ch == 'G' || ch == 'S';
}

static int movingai_known(char ch)
{
    return movingai_passable(ch) || ch == '@' || ch == 'O' || ch == 'T'
           || ch == 'W';
}

static int ascii_passable(char ch)
{
    return ch == '.';
}

static int ascii_known(char ch)
{
    return ch == '.' || ch == '@' || ch == '#';
}

static wf_status read_rows(cursor *c, int w, int h, const char **rows,
                           int (*known)(char), wf_parse_error *err)
{
    char msg[128];
    for (int y = 0; y < h; y++) {
        const char *s;
        size_t n;
        if (!next_line(c, &s, &n)) {
            snprintf(msg, sizeof msg, "expected %d map rows, found %d", h, y);
            fail(err, c->line, msg);
            return WF_ERR_PARSE;
        }
        if (n != (size_t)w) {
            snprintf(msg, sizeof msg, "map row %d has %zu cells, expected %d",
                     y, n, w);
            fail(err, c->line, msg);
            return WF_ERR_PARSE;
        }
        for (size_t i = 0; i < n; i++)
            if (!known(s[i])) {
                snprintf(msg, sizeof msg,
                         "unknown cell character 0x%02x at column %zu",
                         (unsigned char)s[i], i);
                fail(err, c->line, msg);
                return WF_ERR_PARSE;
            }
        rows[y] = s;
    }
    /* only blank lines may follow */
    const char *s;
    size_t n;
    while (next_line(c, &s, &n))
        for (size_t i = 0; i < n; i++)
            if (s[i] != ' ' && s[i] != '\t') {
                fail(err, c->line, "unexpected text after the last map row");
                return WF_ERR_PARSE;
            }
    return WF_OK;
}

static int size_ok(long w, long h)
{
    return w >= 1 && h >= 1 && w <= WF_MAX_SIDE && h <= WF_MAX_SIDE
           && (int64_t)w * h <= WF_MAX_CELLS;
}

wf_status wf_grid_from_movingai(wf_grid **out, const char *text, size_t len,
                                const wf_grid_config *cfg, wf_parse_error *err)
{
    *out = NULL;
    if (err)
        memset(err, 0, sizeof *err);
    cursor c = {text, text + len, 0};
    const char *s;
    size_t n;
    long w = -1, h = -1;
    if (!next_line(&c, &s, &n) || n < 4 || memcmp(s, "type", 4) != 0) {
        fail(err, 1, "expected 'type octile' on the first line");
        return WF_ERR_PARSE;
    }
    for (;;) {
        if (!next_line(&c, &s, &n)) {
            fail(err, c.line, "missing 'map' line before the rows");
            return WF_ERR_PARSE;
        }
        if (n == 3 && memcmp(s, "map", 3) == 0)
            break;
        long v;
        if (header_number(s, n, "height", &v))
            h = v;
        else if (header_number(s, n, "width", &v))
            w = v;
        else {
            fail(err, c.line, "expected 'height N', 'width N' or 'map'");
            return WF_ERR_PARSE;
        }
    }
    if (w < 0 || h < 0) {
        fail(err, c.line, "header lacks width or height");
        return WF_ERR_PARSE;
    }
    if (!size_ok(w, h)) {
        fail(err, c.line, "map size out of range");
        return WF_ERR_PARSE;
    }
    const char **rows = malloc((size_t)h * sizeof *rows);
    if (!rows) {
        fail(err, 0, "out of memory");
        return WF_ERR_NOMEM;
    }
    wf_status st = read_rows(&c, (int)w, (int)h, rows, movingai_known, err);
    if (st == WF_OK)
        st = build(out, (int)w, (int)h, cfg, rows, movingai_passable, err);
    free(rows);
    return st;
}

wf_status wf_grid_from_ascii(wf_grid **out, const char *text, size_t len,
                             const wf_grid_config *cfg, wf_parse_error *err)
{
    *out = NULL;
    if (err)
        memset(err, 0, sizeof *err);
    /* first pass: count rows and take the width from the first one */
    cursor c = {text, text + len, 0};
    const char *s;
    size_t n;
    long h = 0, w = -1;
    while (next_line(&c, &s, &n)) {
        if (w < 0)
            w = (long)n;
        h++;
        if (h > WF_MAX_SIDE)
            break;
    }
    if (h == 0 || w <= 0) {
        fail(err, 1, "empty map");
        return WF_ERR_PARSE;
    }
    if (!size_ok(w, h)) {
        fail(err, h > WF_MAX_SIDE ? WF_MAX_SIDE + 1 : 1, "map size out of range");
        return WF_ERR_PARSE;
    }
    const char **rows = malloc((size_t)h * sizeof *rows);
    if (!rows) {
        fail(err, 0, "out of memory");
        return WF_ERR_NOMEM;
    }
    c.p = text;
    c.line = 0;
    wf_status st = read_rows(&c, (int)w, (int)h, rows, ascii_known, err);
    if (st == WF_OK)
        st = build(out, (int)w, (int)h, cfg, rows, ascii_passable, err);
    free(rows);
    return st;
}
