/*
 * cr_eval.c - scores an event stream against ground truth (cr_eval.h,
 * docs/EVAL.md). Pure C: no I/O, every allocation checked.
 *
 * Matching within one type and key is a one-dimensional assignment: truth
 * times t[0..n) and candidate times c[0..m), both sorted, an edge between
 * t[i] and c[j] when |t[i] - c[j]| <= w. Such a graph has an optimal
 * matching (most pairs, then least total |dt|) without crossing pairs: two
 * crossing pairs (t1,c2), (t2,c1) with t1 < t2, c1 < c2 are both within the
 * window after uncrossing to (t1,c1), (t2,c2), and the uncrossed sum of
 * |dt| is no larger. So a dynamic programme over prefixes, like an edit
 * distance, finds it: f(i, j) = the best matching of t[0..i) with c[0..j).
 * Only a band of f is stored: f(i, j) = f(i-1, j) for j <= lo(i-1) (the
 * first candidate truth i-1 can reach) and f(i, j) = f(i, hi(i-1)) for
 * j >= hi(i-1) (one past the last it can reach), as lo and hi never
 * decrease with i. The work and memory are O(n + m + edges).
 */
#include "cr_eval.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CR_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

const cr_event_type_t cr_eval_types[CR_EVAL_N_TYPES] = {
    CR_EV_STROKE,    CR_EV_COLLISION, CR_EV_CUSHION, CR_EV_POCKET, CR_EV_OFF_TABLE,
    CR_EV_DISTURBED, CR_EV_PLACED,    CR_EV_REST,    CR_EV_FOUL,
};

void cr_eval_params_defaults(cr_eval_params_t *p)
{
    size_t i;

    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    for (i = 0; i < CR_COUNT_OF(p->window_s); i++)
        p->window_s[i] = NAN;
    p->fps = NAN;
    p->close_call_min_s = CR_EVAL_CLOSE_CALL_MIN_S;
    p->close_call_max_s = CR_EVAL_CLOSE_CALL_MAX_S;
    p->match_radius_mm = 2.0 * CR_BALL_RADIUS_MM;
}

static double cr_ratio(long num, long den)
{
    return den > 0 ? (double)num / (double)den : NAN;
}

/* ---------------------------------------------------------------------- */
/* Growable arrays                                                         */

/* Makes room for one more element of size sz in *data (count n, capacity
 * *cap). Returns 0 or CR_ERR_NOMEM (the array is unchanged). */
static int cr_grow(void **data, size_t n, size_t *cap, size_t sz)
{
    size_t ncap;
    void *d;

    if (n < *cap)
        return CR_OK;
    ncap = *cap ? *cap * 2 : 64;
    if (ncap < *cap || ncap > SIZE_MAX / sz)
        return CR_ERR_NOMEM;
    d = realloc(*data, ncap * sz);
    if (!d)
        return CR_ERR_NOMEM;
    *data = d;
    *cap = ncap;
    return CR_OK;
}

/* ---------------------------------------------------------------------- */
/* Positions                                                               */

typedef struct {
    long frame;
    double t;     /* s */
    size_t first; /* first row */
    size_t n;     /* rows */
} cr_pos_frame_t;

typedef struct {
    int id;
    bool visible; /* a candidate's: seen in this frame (not held hidden) */
    bool held;    /* a candidate's: held where it was last seen ("hidden") */
    double x, y;  /* mm */
} cr_pos_row_t;

struct cr_eval_positions {
    bool truth;
    bool header_seen;
    size_t n_frames, cap_frames;
    cr_pos_frame_t *frames;
    size_t n_rows, cap_rows;
    cr_pos_row_t *rows;
};

#define CR_CSV_HEADER "frame,t,id,x,y,visible"
#define CR_CSV_FIELDS 6
#define CR_CSV_FIELD_MAX 64 /* longest number accepted, bytes */
#define CR_CSV_QUOTE 24     /* bytes of a bad value quoted in a message */

int cr_eval_positions_create(bool truth, cr_eval_positions_t **out)
{
    cr_eval_positions_t *p;

    if (!out)
        return CR_ERR_INVALID;
    p = calloc(1, sizeof(*p));
    if (!p)
        return CR_ERR_NOMEM;
    p->truth = truth;
    *out = p;
    return CR_OK;
}

void cr_eval_positions_destroy(cr_eval_positions_t *p)
{
    if (!p)
        return;
    free(p->frames);
    free(p->rows);
    free(p);
}

size_t cr_eval_positions_frames(const cr_eval_positions_t *p)
{
    return p ? p->n_frames : 0;
}

/* Copies field[0..n) into buf for a message: at most CR_CSV_QUOTE bytes
 * (then "..."), anything but printable ASCII other than quotes and
 * backslashes replaced by '?'. buf holds CR_CSV_QUOTE + 4 bytes. */
static const char *cr_csv_quote(const char *field, size_t n, char *buf)
{
    size_t i, k = n < CR_CSV_QUOTE ? n : CR_CSV_QUOTE;

    for (i = 0; i < k; i++) {
        unsigned char ch = (unsigned char)field[i];
        buf[i] = (ch < 0x20 || ch >= 0x7F || ch == '"' || ch == '\\') ? '?' : (char)ch;
    }
    if (n > k) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return buf;
}

static int cr_csv_fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Writes the message into err and returns CR_ERR_PARSE. */
static int cr_csv_fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;

    if (err && err_len) {
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return CR_ERR_PARSE;
}

/* A decimal integer (optional '-', digits only) in lo..hi. */
static bool cr_csv_int(const char *s, size_t n, long lo, long hi, long *out)
{
    size_t i = 0;
    long v = 0;
    bool neg = false;

    if (n > 0 && s[0] == '-') {
        neg = true;
        i = 1;
    }
    if (i == n || n - i > 15)
        return false;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (neg)
        v = -v;
    if (v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A finite decimal number (digits, sign, point, exponent: no "nan", "inf"
 * or hexadecimal). */
static bool cr_csv_num(const char *s, size_t n, double *out)
{
    char buf[CR_CSV_FIELD_MAX + 1];
    char *end;
    size_t i;
    bool digit = false;
    double v;

    if (n == 0 || n > CR_CSV_FIELD_MAX)
        return false;
    for (i = 0; i < n; i++) {
        char ch = s[i];

        if (ch >= '0' && ch <= '9')
            digit = true;
        else if (ch != '-' && ch != '+' && ch != '.' && ch != 'e' && ch != 'E')
            return false;
    }
    if (!digit)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    v = strtod(buf, &end);
    if (end != buf + n || !isfinite(v))
        return false;
    *out = v;
    return true;
}

int cr_eval_positions_add_csv_line(cr_eval_positions_t *p, const char *line, size_t len, char *err, size_t err_len)
{
    static const char *const names[CR_CSV_FIELDS] = {"frame", "t", "id", "x", "y", "visible"};
    const char *f[CR_CSV_FIELDS];
    size_t fl[CR_CSV_FIELDS];
    size_t i, k, start;
    long frame, id, vis;
    double t, x, y;
    cr_pos_frame_t *cur;
    char q[CR_CSV_QUOTE + 4];
    int nf = 0;

    if (err && err_len)
        err[0] = '\0';
    if (!p || (!line && len))
        return CR_ERR_INVALID;
    if (len > 0 && line[len - 1] == '\r')
        len--;
    for (i = 0; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
        ;
    if (i == len)
        return CR_OK; /* blank */
    if (!p->header_seen) {
        if (len != strlen(CR_CSV_HEADER) || memcmp(line, CR_CSV_HEADER, len) != 0)
            return cr_csv_fail(err, err_len, "the first line must be the header \"" CR_CSV_HEADER "\", got \"%s\"",
                               cr_csv_quote(line, len, q));
        p->header_seen = true;
        return CR_OK;
    }
    for (start = 0, i = 0; i <= len; i++) {
        if (i < len && line[i] != ',')
            continue;
        if (nf == CR_CSV_FIELDS)
            return cr_csv_fail(err, err_len, "more than %d fields (" CR_CSV_HEADER ")", CR_CSV_FIELDS);
        f[nf] = line + start;
        fl[nf] = i - start;
        nf++;
        start = i + 1;
    }
    if (nf != CR_CSV_FIELDS)
        return cr_csv_fail(err, err_len, "%d fields (" CR_CSV_HEADER "), not %d", CR_CSV_FIELDS, nf);
    for (k = 0; k < CR_CSV_FIELDS; k++) {
        if (fl[k] == 0)
            return cr_csv_fail(err, err_len, "empty field \"%s\"", names[k]);
    }
    if (!cr_csv_int(f[0], fl[0], 0, 999999999999L, &frame))
        return cr_csv_fail(err, err_len, "\"frame\" must be an integer >= 0, got \"%s\"", cr_csv_quote(f[0], fl[0], q));
    if (!cr_csv_num(f[1], fl[1], &t) || t < 0)
        return cr_csv_fail(err, err_len, "\"t\" must be a number of seconds >= 0, got \"%s\"",
                           cr_csv_quote(f[1], fl[1], q));
    if (!cr_csv_int(f[2], fl[2], p->truth ? 0 : CR_BALL_UNKNOWN, CR_BALL_MAX, &id))
        return cr_csv_fail(err, err_len, "\"id\" must be a ball id %s..15, got \"%s\"", p->truth ? "0" : "-1",
                           cr_csv_quote(f[2], fl[2], q));
    if (!cr_csv_num(f[3], fl[3], &x))
        return cr_csv_fail(err, err_len, "\"x\" must be a finite number (mm), got \"%s\"", cr_csv_quote(f[3], fl[3], q));
    if (!cr_csv_num(f[4], fl[4], &y))
        return cr_csv_fail(err, err_len, "\"y\" must be a finite number (mm), got \"%s\"", cr_csv_quote(f[4], fl[4], q));
    if (!cr_csv_int(f[5], fl[5], 0, 1, &vis))
        return cr_csv_fail(err, err_len, "\"visible\" must be 0 or 1, got \"%s\"", cr_csv_quote(f[5], fl[5], q));

    cur = p->n_frames ? &p->frames[p->n_frames - 1] : NULL;
    if (cur && frame == cur->frame) {
        if (fabs(t - cur->t) > CR_EVAL_TIME_TOLERANCE_S)
            return cr_csv_fail(err, err_len, "t = %.9g differs from t = %.9g on frame %ld's first row", t, cur->t,
                               frame);
        if (p->truth) {
            for (k = cur->first; k < cur->first + cur->n; k++) {
                if (p->rows[k].id == (int)id)
                    return cr_csv_fail(err, err_len, "ball %ld twice in frame %ld", id, frame);
            }
        }
    } else {
        if (cur && frame < cur->frame)
            return cr_csv_fail(err, err_len,
                               "frame %ld after frame %ld (frames must be in order, each frame's rows together)", frame,
                               cur->frame);
        if (cur && t < cur->t - CR_EVAL_TIME_TOLERANCE_S)
            return cr_csv_fail(err, err_len, "frame %ld: t = %.9g is before the previous frame's t = %.9g", frame, t,
                               cur->t);
        if (cr_grow((void **)&p->frames, p->n_frames, &p->cap_frames, sizeof(*p->frames)) != CR_OK)
            return CR_ERR_NOMEM;
        cur = &p->frames[p->n_frames++];
        cur->frame = frame;
        cur->t = t;
        cur->first = p->n_rows;
        cur->n = 0;
    }
    if (cr_grow((void **)&p->rows, p->n_rows, &p->cap_rows, sizeof(*p->rows)) != CR_OK)
        return CR_ERR_NOMEM;
    p->rows[p->n_rows].id = (int)id;
    p->rows[p->n_rows].visible = vis == 1;
    p->rows[p->n_rows].held = false;
    p->rows[p->n_rows].x = x;
    p->rows[p->n_rows].y = y;
    p->n_rows++;
    cur->n++;
    return CR_OK;
}

int cr_eval_positions_csv_end(const cr_eval_positions_t *p, char *err, size_t err_len)
{
    if (!p)
        return CR_ERR_INVALID;
    if (!p->header_seen) {
        if (err && err_len)
            snprintf(err, err_len, "empty file: no header line \"%s\"", CR_CSV_HEADER);
        return CR_ERR_PARSE;
    }
    return CR_OK;
}

int cr_eval_positions_add_balls(cr_eval_positions_t *p, const cr_event_t *ev)
{
    cr_pos_frame_t *fr;
    int i, n;

    if (!p || !ev)
        return CR_ERR_INVALID;
    if (ev->type != CR_EV_BALLS)
        return CR_OK;
    if (!isfinite(ev->t))
        return CR_ERR_INVALID;
    n = ev->n_balls < 0 ? 0 : ev->n_balls > CR_EVENT_MAX_BALLS ? CR_EVENT_MAX_BALLS : ev->n_balls;
    if (cr_grow((void **)&p->frames, p->n_frames, &p->cap_frames, sizeof(*p->frames)) != CR_OK)
        return CR_ERR_NOMEM;
    for (i = 0; i < n; i++) {
        if (cr_grow((void **)&p->rows, p->n_rows + (size_t)i, &p->cap_rows, sizeof(*p->rows)) != CR_OK)
            return CR_ERR_NOMEM;
        p->rows[p->n_rows + (size_t)i].id = ev->balls[i].id;
        p->rows[p->n_rows + (size_t)i].visible = !ev->balls[i].hidden;
        p->rows[p->n_rows + (size_t)i].held = ev->balls[i].hidden;
        p->rows[p->n_rows + (size_t)i].x = ev->balls[i].x;
        p->rows[p->n_rows + (size_t)i].y = ev->balls[i].y;
    }
    fr = &p->frames[p->n_frames++];
    fr->frame = (long)p->n_frames - 1;
    fr->t = ev->t;
    fr->first = p->n_rows;
    fr->n = (size_t)n;
    p->n_rows += (size_t)n;
    return CR_OK;
}

/* ---------------------------------------------------------------------- */
/* The scorer object: what it keeps of each event                          */

typedef struct {
    cr_event_type_t type;
    double t;
    int shot;
    int ball, a, b;
    int rail, pocket;
    char code[CR_CODE_LEN]; /* foul */
    struct {
        cr_ruling_kind_t kind;
        bool legal, game_over;
        int player, next_player;
        cr_bih_t ball_in_hand;
        bool break_shot;
    } ruling;
} cr_eval_ev_t;

enum { CR_SIDE_TRUTH = 0, CR_SIDE_CAND = 1 };

struct cr_eval {
    cr_eval_params_t p;
    double session_fps; /* the truth's first session line's fps; NAN */
    bool seen_session;
    cr_eval_ev_t *ev[2]; /* [CR_SIDE_TRUTH], [CR_SIDE_CAND] */
    size_t n[2], cap[2];
};

static bool cr_params_valid(const cr_eval_params_t *p)
{
    size_t q;

    if (!(isnan(p->fps) || (isfinite(p->fps) && p->fps > 0)) ||
        !(isfinite(p->match_radius_mm) && p->match_radius_mm > 0) ||
        !(isfinite(p->close_call_min_s) && isfinite(p->close_call_max_s) && p->close_call_min_s >= 0))
        return false;
    for (q = 0; q < CR_EVAL_N_TYPES; q++) {
        double w = p->window_s[cr_eval_types[q]];

        if (!isnan(w) && !(isfinite(w) && w >= 0))
            return false;
    }
    return true;
}

int cr_eval_create(const cr_eval_params_t *p, cr_eval_t **out)
{
    cr_eval_t *e;

    if (!out || (p && !cr_params_valid(p)))
        return CR_ERR_INVALID;
    e = calloc(1, sizeof(*e));
    if (!e)
        return CR_ERR_NOMEM;
    if (p)
        e->p = *p;
    else
        cr_eval_params_defaults(&e->p);
    e->session_fps = NAN;
    *out = e;
    return CR_OK;
}

void cr_eval_destroy(cr_eval_t *e)
{
    if (!e)
        return;
    free(e->ev[0]);
    free(e->ev[1]);
    free(e);
}

int cr_eval_add(cr_eval_t *e, bool truth, const cr_event_t *ev)
{
    int side = truth ? CR_SIDE_TRUTH : CR_SIDE_CAND;
    cr_eval_ev_t *k;

    if (!e || !ev)
        return CR_ERR_INVALID;
    switch (ev->type) {
    case CR_EV_SESSION:
        if (truth && !e->seen_session) {
            e->seen_session = true;
            if (isfinite(ev->fps) && ev->fps > 0)
                e->session_fps = ev->fps;
        }
        return CR_OK;
    case CR_EV_STROKE:
    case CR_EV_COLLISION:
    case CR_EV_CUSHION:
    case CR_EV_POCKET:
    case CR_EV_OFF_TABLE:
    case CR_EV_DISTURBED:
    case CR_EV_PLACED:
    case CR_EV_REST:
    case CR_EV_FOUL:
    case CR_EV_RULING:
        break;
    default:
        return CR_OK; /* not scored (balls lines: cr_eval_positions_add_balls) */
    }
    if (!isfinite(ev->t))
        return CR_OK;
    if (e->n[side] >= INT_MAX / 2)
        return CR_ERR_FULL;
    if (cr_grow((void **)&e->ev[side], e->n[side], &e->cap[side], sizeof(*e->ev[side])) != CR_OK)
        return CR_ERR_NOMEM;
    k = &e->ev[side][e->n[side]++];
    memset(k, 0, sizeof(*k));
    k->type = ev->type;
    k->t = ev->t;
    k->shot = ev->shot;
    k->ball = ev->ball;
    k->a = ev->a;
    k->b = ev->b;
    k->rail = (int)ev->rail;
    k->pocket = (int)ev->pocket;
    if (ev->type == CR_EV_FOUL)
        snprintf(k->code, sizeof(k->code), "%.*s", (int)sizeof(k->code) - 1, ev->code);
    k->ruling.kind = ev->ruling.kind;
    k->ruling.legal = ev->ruling.legal;
    k->ruling.game_over = ev->ruling.game_over;
    k->ruling.player = ev->ruling.player;
    k->ruling.next_player = ev->ruling.next_player;
    k->ruling.ball_in_hand = ev->ruling.ball_in_hand;
    k->ruling.break_shot = ev->ruling.break_shot;
    return CR_OK;
}

/* ---------------------------------------------------------------------- */
/* Statistics                                                              */

static int cr_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* q-quantile of sorted v[0..n) by linear interpolation between order
 * statistics (position q (n - 1)); NAN for n == 0. */
static double cr_quantile(const double *v, size_t n, double q)
{
    double pos, frac;
    size_t lo;

    if (n == 0)
        return NAN;
    pos = q * (double)(n - 1);
    lo = (size_t)pos;
    if (lo + 1 >= n)
        return v[n - 1];
    frac = pos - (double)lo;
    return v[lo] + (v[lo + 1] - v[lo]) * frac;
}

/* Sorts v and sets median, p95 and max (NAN when n == 0). */
static void cr_summary(double *v, size_t n, double *median, double *p95, double *max)
{
    if (n > 0) /* v may be NULL when there is nothing */
        qsort(v, n, sizeof(*v), cr_cmp_double);
    *median = cr_quantile(v, n, 0.5);
    *p95 = cr_quantile(v, n, 0.95);
    *max = n ? v[n - 1] : NAN;
}

/* ---------------------------------------------------------------------- */
/* Matching                                                                */

/* One event in a matching: its key, time and index in its array. */
typedef struct {
    int k1, k2;
    const char *code; /* foul code; "" otherwise */
    double t;
    int ev;
} cr_item_t;

static int cr_cmp_item(const void *a, const void *b)
{
    const cr_item_t *x = a, *y = b;
    int c;

    if (x->k1 != y->k1)
        return x->k1 < y->k1 ? -1 : 1;
    if (x->k2 != y->k2)
        return x->k2 < y->k2 ? -1 : 1;
    c = strcmp(x->code, y->code);
    if (c)
        return c;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->ev > y->ev) - (x->ev < y->ev);
}

/* The order of cr_cmp_item() on the key alone. */
static int cr_cmp_key(const cr_item_t *x, const cr_item_t *y)
{
    if (x->k1 != y->k1)
        return x->k1 < y->k1 ? -1 : 1;
    if (x->k2 != y->k2)
        return x->k2 < y->k2 ? -1 : 1;
    return strcmp(x->code, y->code);
}

static bool cr_same_key(const cr_item_t *x, const cr_item_t *y)
{
    return cr_cmp_key(x, y) == 0;
}

/* The key of a scored event (see cr_eval.h). */
static void cr_item_set(cr_item_t *it, const cr_eval_ev_t *ev, int idx)
{
    it->k1 = 0;
    it->k2 = 0;
    it->code = "";
    it->t = ev->t;
    it->ev = idx;
    switch (ev->type) {
    case CR_EV_COLLISION:
        it->k1 = ev->a < ev->b ? ev->a : ev->b;
        it->k2 = ev->a < ev->b ? ev->b : ev->a;
        break;
    case CR_EV_CUSHION:
        it->k1 = ev->ball;
        it->k2 = (int)ev->rail;
        break;
    case CR_EV_POCKET:
        it->k1 = ev->ball;
        it->k2 = (int)ev->pocket;
        break;
    case CR_EV_OFF_TABLE:
    case CR_EV_DISTURBED:
    case CR_EV_PLACED:
        it->k1 = ev->ball;
        break;
    case CR_EV_FOUL:
        it->code = ev->code;
        break;
    default:
        break;
    }
}

/* The events of one type with a finite time, keyed and sorted by key then
 * time. Returns the count in *n (items NULL when 0), or CR_ERR_NOMEM. */
static int cr_collect(const cr_eval_ev_t *evs, int n_evs, cr_event_type_t type, cr_item_t **items, int *n)
{
    int i, k = 0;

    *items = NULL;
    *n = 0;
    for (i = 0; i < n_evs; i++)
        k += evs[i].type == type && isfinite(evs[i].t);
    if (k == 0)
        return CR_OK;
    *items = malloc((size_t)k * sizeof(**items));
    if (!*items)
        return CR_ERR_NOMEM;
    for (i = 0, k = 0; i < n_evs; i++) {
        if (evs[i].type == type && isfinite(evs[i].t))
            cr_item_set(&(*items)[k++], &evs[i], i);
    }
    qsort(*items, (size_t)k, sizeof(**items), cr_cmp_item);
    *n = k;
    return CR_OK;
}

/* Is (count a, cost a) a better matching than (count b, cost b)? */
static bool cr_better(int ca, double sa, int cb, double sb)
{
    return ca > cb || (ca == cb && sa < sb);
}

enum { CR_DP_UP = 0, CR_DP_LEFT = 1, CR_DP_DIAG = 2 };

typedef struct {
    const int *lo, *hi; /* per truth: candidate reach [lo, hi) */
    const size_t *off;  /* per truth row: offset of its band */
    int *cnt;
    double *cost;
    unsigned char *choice;
} cr_dp_t;

/* f(i, j) through the band rules (header comment). */
static void cr_dp_get(const cr_dp_t *d, int i, int j, int *cnt, double *cost)
{
    while (i > 0) {
        int lo = d->lo[i - 1], hi = d->hi[i - 1];

        if (j > hi)
            j = hi;
        if (j >= lo) {
            size_t k = d->off[i - 1] + (size_t)(j - lo);

            *cnt = d->cnt[k];
            *cost = d->cost[k];
            return;
        }
        i--;
    }
    *cnt = 0;
    *cost = 0.0;
}

/* Optimal one-to-one matching of sorted times t[0..n) and c[0..m) within
 * w: tm[i] = the j matched to i or -1, cm[j] likewise. */
static int cr_match_line(const double *t, int n, const double *c, int m, double w, int *tm, int *cm)
{
    int *lo = NULL, *hi = NULL;
    size_t *off = NULL, cells = 0;
    cr_dp_t d = {0};
    int i, j, rc = CR_ERR_NOMEM;

    for (i = 0; i < n; i++)
        tm[i] = -1;
    for (j = 0; j < m; j++)
        cm[j] = -1;
    if (n == 0 || m == 0)
        return CR_OK;
    lo = malloc((size_t)n * sizeof(*lo));
    hi = malloc((size_t)n * sizeof(*hi));
    off = malloc((size_t)n * sizeof(*off));
    if (!lo || !hi || !off)
        goto done;
    for (i = 0, j = 0; i < n; i++) {
        int h;

        while (j < m && c[j] < t[i] - w)
            j++;
        lo[i] = j;
        h = i > 0 && hi[i - 1] > j ? hi[i - 1] : j;
        while (h < m && c[h] <= t[i] + w)
            h++;
        hi[i] = h;
        off[i] = cells;
        if (cells > SIZE_MAX / 32 - (size_t)(h - j + 1))
            goto done;
        cells += (size_t)(h - j + 1);
    }
    d.lo = lo;
    d.hi = hi;
    d.off = off;
    d.cnt = malloc(cells * sizeof(*d.cnt));
    d.cost = malloc(cells * sizeof(*d.cost));
    d.choice = malloc(cells);
    if (!d.cnt || !d.cost || !d.choice)
        goto done;

    for (i = 1; i <= n; i++) {
        int l = lo[i - 1], h = hi[i - 1];

        for (j = l; j <= h; j++) {
            size_t k = off[i - 1] + (size_t)(j - l);
            int bc, uc, dc;
            double bs, us, ds;
            unsigned char ch = CR_DP_UP;

            cr_dp_get(&d, i - 1, j, &uc, &us);
            bc = uc;
            bs = us;
            if (j > l) {
                /* cand j-1 left unmatched */
                if (cr_better(d.cnt[k - 1], d.cost[k - 1], bc, bs)) {
                    bc = d.cnt[k - 1];
                    bs = d.cost[k - 1];
                    ch = CR_DP_LEFT;
                }
                /* truth i-1 with cand j-1: within the window, as l <= j-1 < h */
                cr_dp_get(&d, i - 1, j - 1, &dc, &ds);
                dc += 1;
                ds += fabs(t[i - 1] - c[j - 1]);
                if (cr_better(dc, ds, bc, bs)) {
                    bc = dc;
                    bs = ds;
                    ch = CR_DP_DIAG;
                }
            }
            d.cnt[k] = bc;
            d.cost[k] = bs;
            d.choice[k] = ch;
        }
    }

    /* Trace back from f(n, m). */
    i = n;
    j = m;
    while (i > 0 && j > 0) {
        int l = lo[i - 1], h = hi[i - 1];

        if (j > h) {
            j = h;
            continue;
        }
        if (j <= l) {
            i--;
            continue;
        }
        switch (d.choice[off[i - 1] + (size_t)(j - l)]) {
        case CR_DP_UP:
            i--;
            break;
        case CR_DP_LEFT:
            j--;
            break;
        default:
            tm[i - 1] = j - 1;
            cm[j - 1] = i - 1;
            i--;
            j--;
            break;
        }
    }
    rc = CR_OK;
done:
    free(lo);
    free(hi);
    free(off);
    free(d.cnt);
    free(d.cost);
    free(d.choice);
    return rc;
}

/* Matches items sorted by key and time: each key's run separately.
 * tm[i] = index in c of the match of t[i], or -1; cm likewise. */
static int cr_match_keyed(const cr_item_t *t, int n, const cr_item_t *c, int m, double w, int *tm, int *cm)
{
    double *tt = NULL, *ct = NULL;
    int *gtm = NULL, *gcm = NULL;
    int i = 0, j = 0, k, rc = CR_OK;

    for (k = 0; k < n; k++)
        tm[k] = -1;
    for (k = 0; k < m; k++)
        cm[k] = -1;
    if (n == 0 || m == 0)
        return CR_OK;
    tt = malloc((size_t)n * sizeof(*tt));
    ct = malloc((size_t)m * sizeof(*ct));
    gtm = malloc((size_t)n * sizeof(*gtm));
    gcm = malloc((size_t)m * sizeof(*gcm));
    if (!tt || !ct || !gtm || !gcm) {
        rc = CR_ERR_NOMEM;
        goto done;
    }
    for (k = 0; k < n; k++)
        tt[k] = t[k].t;
    for (k = 0; k < m; k++)
        ct[k] = c[k].t;
    while (i < n && j < m) {
        int c0 = cr_cmp_item(&t[i], &c[j]), ni, nj;

        if (!cr_same_key(&t[i], &c[j])) {
            if (c0 < 0)
                i++;
            else
                j++;
            continue;
        }
        for (ni = i; ni < n && cr_same_key(&t[ni], &t[i]); ni++)
            ;
        for (nj = j; nj < m && cr_same_key(&c[nj], &c[j]); nj++)
            ;
        rc = cr_match_line(tt + i, ni - i, ct + j, nj - j, w, gtm, gcm);
        if (rc != CR_OK)
            goto done;
        for (k = i; k < ni; k++)
            tm[k] = gtm[k - i] < 0 ? -1 : gtm[k - i] + j;
        for (k = j; k < nj; k++)
            cm[k] = gcm[k - j] < 0 ? -1 : gcm[k - j] + i;
        i = ni;
        j = nj;
    }
done:
    free(tt);
    free(ct);
    free(gtm);
    free(gcm);
    return rc;
}

/* Sorts by time (for the matching by type and time alone). */
static int cr_cmp_item_time(const void *a, const void *b)
{
    const cr_item_t *x = a, *y = b;

    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->ev > y->ev) - (x->ev < y->ev);
}

/* The unmatched items of both sides paired (optimally, within w): by time
 * alone (identity errors), or with their keys (by_key: contacts timed off;
 * t and c sorted by key then time). Returns the count, or CR_ERR_NOMEM. */
static int cr_pair_unmatched(const cr_item_t *t, int n, const int *tm, const cr_item_t *c, int m, const int *cm,
                             double w, bool by_key)
{
    cr_item_t *ut = NULL, *uc = NULL;
    int *a = NULL, *b = NULL;
    int i, nu = 0, mu = 0, rc = CR_ERR_NOMEM;

    ut = malloc((size_t)(n ? n : 1) * sizeof(*ut));
    uc = malloc((size_t)(m ? m : 1) * sizeof(*uc));
    a = malloc((size_t)(n ? n : 1) * sizeof(*a));
    b = malloc((size_t)(m ? m : 1) * sizeof(*b));
    if (!ut || !uc || !a || !b)
        goto done;
    for (i = 0; i < n; i++)
        if (tm[i] < 0)
            ut[nu++] = t[i];
    for (i = 0; i < m; i++)
        if (cm[i] < 0)
            uc[mu++] = c[i];
    if (!by_key) {
        for (i = 0; i < nu; i++)
            ut[i].k1 = ut[i].k2 = 0, ut[i].code = "";
        for (i = 0; i < mu; i++)
            uc[i].k1 = uc[i].k2 = 0, uc[i].code = "";
        qsort(ut, (size_t)nu, sizeof(*ut), cr_cmp_item_time);
        qsort(uc, (size_t)mu, sizeof(*uc), cr_cmp_item_time);
    }
    if (cr_match_keyed(ut, nu, uc, mu, w, a, b) != CR_OK)
        goto done;
    rc = 0;
    for (i = 0; i < nu; i++)
        rc += a[i] >= 0;
done:
    free(ut);
    free(uc);
    free(a);
    free(b);
    return rc;
}

/* Contacts timed off (counts' timed_off): the unmatched items paired with
 * their keys within CR_EVAL_TIMED_OFF_S, or the window w when wider. */
static int cr_timed_off(const cr_item_t *t, int n, const int *tm, const cr_item_t *c, int m, const int *cm, double w)
{
    return cr_pair_unmatched(t, n, tm, c, m, cm, fmax(w, CR_EVAL_TIMED_OFF_S) + CR_EVAL_TIME_TOLERANCE_S, true);
}

/* Fills counts from a matching of items t (tm) and c (cm). */
static int cr_counts_fill(cr_eval_counts_t *k, const cr_item_t *t, int n, const int *tm, const cr_item_t *c, int m)
{
    double *dt;
    double sum = 0.0, sum_abs = 0.0;
    int i, tp = 0;

    k->n_truth = n;
    k->n_candidate = m;
    dt = malloc((size_t)(n ? n : 1) * sizeof(*dt));
    if (!dt)
        return CR_ERR_NOMEM;
    for (i = 0; i < n; i++) {
        if (tm[i] >= 0) {
            double d = c[tm[i]].t - t[i].t;

            sum += d;
            sum_abs += fabs(d);
            dt[tp++] = fabs(d) * 1000.0;
        }
    }
    k->tp = tp;
    k->fn = n - tp;
    k->fp = m - tp;
    k->precision = cr_ratio(tp, m);
    k->recall = cr_ratio(tp, n);
    cr_summary(dt, (size_t)tp, &k->dt_median_ms, &k->dt_p95_ms, &k->dt_max_ms);
    k->dt_mean_ms = tp ? sum_abs / tp * 1000.0 : NAN;
    k->dt_bias_ms = tp ? sum / tp * 1000.0 : NAN;
    free(dt);
    return CR_OK;
}

/* ---------------------------------------------------------------------- */
/* Fouls: maximum bipartite matching (Kuhn), nearest in time tried first    */

typedef struct {
    int n, m;
    const int *start; /* adjacency of truth i: adj[start[i] .. start[i+1]) */
    const int *adj;
    int *tm, *cm;
    int *seen;
    int stamp;
} cr_kuhn_t;

static bool cr_kuhn_try(cr_kuhn_t *k, int i)
{
    int e;

    for (e = k->start[i]; e < k->start[i + 1]; e++) {
        int j = k->adj[e];

        if (k->seen[j] == k->stamp)
            continue;
        k->seen[j] = k->stamp;
        if (k->cm[j] < 0 || cr_kuhn_try(k, k->cm[j])) {
            k->tm[i] = j;
            k->cm[j] = i;
            return true;
        }
    }
    return false;
}

typedef struct {
    int j;
    double dt;
} cr_edge_t;

static int cr_cmp_edge(const void *a, const void *b)
{
    const cr_edge_t *x = a, *y = b;

    if (x->dt != y->dt)
        return x->dt < y->dt ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

/* Matches fouls t (truth) and c (candidate), sorted by time: an edge when
 * (keyed: the codes are equal) and the times are within w or tshot[i] (the
 * candidate shot the truth foul's shot maps to, -1 none) equals c's shot. */
static int cr_match_fouls(const cr_item_t *t, int n, const int *tshot, const cr_eval_ev_t *cev,
                          const cr_item_t *c, int m, double w, bool keyed, int *tm, int *cm)
{
    cr_kuhn_t k = {0};
    cr_edge_t *row = NULL;
    int *start = NULL, *adj = NULL, *seen = NULL;
    size_t n_adj = 0, cap_adj = 0;
    int i, j, e, rc = CR_ERR_NOMEM;

    for (i = 0; i < n; i++)
        tm[i] = -1;
    for (j = 0; j < m; j++)
        cm[j] = -1;
    if (n == 0 || m == 0)
        return CR_OK;
    start = malloc((size_t)(n + 1) * sizeof(*start));
    row = malloc((size_t)m * sizeof(*row));
    seen = malloc((size_t)m * sizeof(*seen));
    if (!start || !row || !seen)
        goto done;
    for (i = 0; i < n; i++) {
        int nr = 0;

        start[i] = (int)n_adj;
        for (j = 0; j < m; j++) {
            double dt = fabs(c[j].t - t[i].t);
            bool same_shot = tshot[i] >= 0 && cev[c[j].ev].shot == tshot[i];

            if (keyed && strcmp(t[i].code, c[j].code) != 0)
                continue;
            if (dt <= w || same_shot) {
                row[nr].j = j;
                row[nr].dt = dt;
                nr++;
            }
        }
        qsort(row, (size_t)nr, sizeof(*row), cr_cmp_edge);
        for (e = 0; e < nr; e++) {
            if (n_adj >= INT_MAX || cr_grow((void **)&adj, n_adj, &cap_adj, sizeof(*adj)) != CR_OK)
                goto done;
            adj[n_adj++] = row[e].j;
        }
    }
    start[n] = (int)n_adj;
    for (j = 0; j < m; j++)
        seen[j] = -1;
    k.n = n;
    k.m = m;
    k.start = start;
    k.adj = adj;
    k.tm = tm;
    k.cm = cm;
    k.seen = seen;
    for (i = 0; i < n; i++) {
        k.stamp = i;
        cr_kuhn_try(&k, i);
    }
    rc = CR_OK;
done:
    free(start);
    free(row);
    free(seen);
    free(adj);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* The scorer                                                              */

/* A shot index and the event that stands for it. */
typedef struct {
    int shot;
    int ev;    /* event index */
    int order; /* position in the stream or in time: ties go to the earliest */
    int count; /* events with this shot (strokes: more than one is a lag) */
} cr_shotref_t;

static int cr_cmp_shotref(const void *a, const void *b)
{
    const cr_shotref_t *x = a, *y = b;

    if (x->shot != y->shot)
        return x->shot < y->shot ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* Sorts refs[0..n) by shot and keeps one per shot: the first whose event
 * passes `prefer` (when given), else the first; count set. Returns the
 * number kept. */
static int cr_shotrefs_unique(cr_shotref_t *refs, int n, const cr_eval_ev_t *evs,
                              bool (*prefer)(const cr_eval_ev_t *))
{
    int i = 0, k = 0;

    qsort(refs, (size_t)n, sizeof(*refs), cr_cmp_shotref);
    while (i < n) {
        int j, pick = i;

        for (j = i; j < n && refs[j].shot == refs[i].shot; j++) {
            if (prefer && pick == i && !prefer(&evs[refs[i].ev]) && prefer(&evs[refs[j].ev]))
                pick = j;
        }
        refs[k] = refs[pick];
        refs[k].count = j - i;
        k++;
        i = j;
    }
    return k;
}

static const cr_shotref_t *cr_shotref_find(const cr_shotref_t *refs, int n, int shot)
{
    int lo = 0, hi = n;

    if (shot < 0)
        return NULL;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;

        if (refs[mid].shot < shot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && refs[lo].shot == shot ? &refs[lo] : NULL;
}

static bool cr_is_cue_stroke(const cr_eval_ev_t *ev)
{
    return ev->ball == CR_BALL_CUE;
}

/* Working state of one run. */
typedef struct {
    const cr_eval_params_t *p;
    const cr_eval_ev_t *tev, *cev;
    int nt, nc;
    double fps;
    int *stroke_t2c; /* per truth event: the candidate stroke matched to it, or -1 */
    int *tstrokes, n_tstrokes; /* truth stroke event indexes by time */
    int *cstrokes, n_cstrokes;
    int *tcoll, n_tcoll;       /* truth collisions by time */
    int *ccoll, n_ccoll;
    int *cstroke_pos;          /* per candidate event: its place in cstrokes, or -1 */
    cr_shotref_t *tshots;      /* truth shots: their stroke (the cue ball's first) and count */
    int n_tshots;
    cr_shotref_t *trulings, *crulings; /* shot rulings by shot (the first of a shot) */
    int n_trulings, n_crulings;
    double *brk; /* the truth's break clusters, [brk[2k], brk[2k+1]] (cr_break_clusters()) */
    int n_brk;
    cr_eval_result_t *r;
} cr_run_t;

typedef struct {
    double t;
    int i;
} cr_timed_t;

static int cr_cmp_timed(const void *a, const void *b)
{
    const cr_timed_t *x = a, *y = b;

    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* Indexes of the events of one type with a finite time, sorted by time
 * (then index). */
static int cr_indexes(const cr_eval_ev_t *evs, int n, cr_event_type_t type, int **out, int *n_out)
{
    cr_timed_t *tmp;
    int i, k = 0, *idx;

    *out = NULL;
    *n_out = 0;
    for (i = 0; i < n; i++)
        k += evs[i].type == type && isfinite(evs[i].t);
    if (k == 0)
        return CR_OK;
    idx = malloc((size_t)k * sizeof(*idx));
    tmp = malloc((size_t)k * sizeof(*tmp));
    if (!idx || !tmp) {
        free(idx);
        free(tmp);
        return CR_ERR_NOMEM;
    }
    for (i = 0, k = 0; i < n; i++) {
        if (evs[i].type == type && isfinite(evs[i].t)) {
            tmp[k].t = evs[i].t;
            tmp[k++].i = i;
        }
    }
    qsort(tmp, (size_t)k, sizeof(*tmp), cr_cmp_timed);
    for (i = 0; i < k; i++)
        idx[i] = tmp[i].i;
    free(tmp);
    *out = idx;
    *n_out = k;
    return CR_OK;
}

/* Scores one (non-foul) type. */
/* The truth's break clusters, [w[2k], w[2k+1]] for k < return value: from
 * the stroke of a shot the truth's ruling marks as a break to
 * CR_EVAL_BREAK_CLUSTER_S after the cue ball's first contact in it. w has
 * room for 2 n values. */
static int cr_break_clusters(const cr_eval_ev_t *evs, int n, double *w)
{
    int i, j, nw = 0;

    for (i = 0; i < n; i++) {
        double t0 = NAN, t1 = NAN;

        if (evs[i].type != CR_EV_RULING || !evs[i].ruling.break_shot || evs[i].shot < 0)
            continue;
        for (j = 0; j < n; j++) {
            if (evs[j].shot != evs[i].shot)
                continue;
            if (evs[j].type == CR_EV_STROKE && !(evs[j].t >= t0))
                t0 = evs[j].t;
            if (evs[j].type == CR_EV_COLLISION && (evs[j].a == CR_BALL_CUE || evs[j].b == CR_BALL_CUE) &&
                !(evs[j].t >= t1))
                t1 = evs[j].t;
        }
        if (!isfinite(t0))
            continue;
        w[2 * nw] = t0;
        w[2 * nw + 1] = (isfinite(t1) ? t1 : t0) + CR_EVAL_BREAK_CLUSTER_S;
        nw++;
    }
    return nw;
}

static bool cr_in_windows(const double *w, int nw, double t)
{
    int k;

    for (k = 0; k < nw; k++)
        if (t >= w[2 * k] && t <= w[2 * k + 1])
            return true;
    return false;
}

/* The counts again over the events outside the truth's break clusters: a
 * truth event by its own time, a candidate event by its own time. */
static int cr_counts_outside_break(cr_run_t *s, cr_eval_counts_t *k, const cr_item_t *t, int n, const int *tm,
                                   const cr_item_t *c, int m)
{
    cr_item_t *t2 = malloc((size_t)(n ? n : 1) * sizeof(*t2)), *c2 = malloc((size_t)(m ? m : 1) * sizeof(*c2));
    int *tm2 = malloc((size_t)(n ? n : 1) * sizeof(*tm2)), *cmap = malloc((size_t)(m ? m : 1) * sizeof(*cmap));
    int i, n2 = 0, m2 = 0, rc = CR_ERR_NOMEM;

    if (!t2 || !c2 || !tm2 || !cmap)
        goto done;
    for (i = 0; i < m; i++) {
        cmap[i] = -1;
        if (!cr_in_windows(s->brk, s->n_brk, c[i].t)) {
            cmap[i] = m2;
            c2[m2++] = c[i];
        }
    }
    for (i = 0; i < n; i++) {
        if (cr_in_windows(s->brk, s->n_brk, t[i].t))
            continue;
        /* a match whose candidate fell inside a cluster counts as found */
        tm2[n2] = tm[i] >= 0 ? cmap[tm[i]] : -1;
        if (tm[i] >= 0 && tm2[n2] < 0) {
            c2[m2] = c[tm[i]];
            tm2[n2] = m2++;
        }
        t2[n2++] = t[i];
    }
    rc = cr_counts_fill(k, t2, n2, tm2, c2, m2);
    k->window_s = s->r->types[CR_EV_COLLISION].window_s;
    if (rc == CR_OK) {
        /* the candidates matched (cmap reused: c2's match in t2, or -1);
         * c2's unmatched ones keep c's order, by key then time */
        for (i = 0; i < m2; i++)
            cmap[i] = -1;
        for (i = 0; i < n2; i++)
            if (tm2[i] >= 0)
                cmap[tm2[i]] = i;
        rc = cr_timed_off(t2, n2, tm2, c2, m2, cmap, k->window_s);
        if (rc >= 0) {
            k->timed_off = rc;
            rc = CR_OK;
        }
    }
done:
    free(t2);
    free(c2);
    free(tm2);
    free(cmap);
    return rc;
}

/* Appends the unmatched items of one side of a keyed type to
 * r->unmatched: t[0, n) with matches tm (-1: none) against the other
 * side's o[0, no), both sorted by key then time. */
static int cr_add_unmatched(cr_run_t *s, cr_event_type_t type, bool truth, const cr_item_t *t, int n, const int *tm,
                            const cr_item_t *o, int no)
{
    const cr_eval_ev_t *evs = truth ? s->tev : s->cev;
    const bool contact = type == CR_EV_COLLISION || type == CR_EV_CUSHION;
    int i, j, k = 0, grow = 0;
    cr_eval_result_t *r = s->r;
    cr_eval_unmatched_t *u;

    for (i = 0; i < n; i++)
        grow += tm[i] < 0;
    if (grow == 0)
        return CR_OK;
    u = realloc(r->unmatched, (size_t)(r->n_unmatched + grow) * sizeof(*u));
    if (!u)
        return CR_ERR_NOMEM;
    r->unmatched = u;
    for (i = 0; i < n; i++) {
        cr_eval_unmatched_t *e = &r->unmatched[r->n_unmatched];
        double best = NAN;

        if (tm[i] >= 0)
            continue;
        /* the other side is sorted by key then time: walk to this key */
        while (k < no && cr_cmp_key(&o[k], &t[i]) < 0)
            k++;
        for (j = k; j < no && cr_same_key(&o[j], &t[i]); j++) {
            double d = o[j].t - t[i].t;

            if (fabs(d) <= CR_EVAL_NEAREST_S && !(fabs(d) >= fabs(best)))
                best = d;
        }
        memset(e, 0, sizeof(*e));
        e->type = type;
        e->missed = truth;
        e->in_break = contact && cr_in_windows(s->brk, s->n_brk, t[i].t);
        e->t = t[i].t;
        e->shot = evs[t[i].ev].shot;
        e->k1 = t[i].k1;
        e->k2 = t[i].k2;
        snprintf(e->code, sizeof e->code, "%s", t[i].code);
        e->nearest_ms = isnan(best) ? NAN : 1000.0 * best;
        e->approach_mm_s = NAN;
        r->n_unmatched++;
    }
    return CR_OK;
}

static int cr_cmp_unmatched(const void *pa, const void *pb)
{
    const cr_eval_unmatched_t *a = pa, *b = pb;

    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (a->missed != b->missed)
        return a->missed ? -1 : 1;
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    if (a->k1 != b->k1)
        return a->k1 < b->k1 ? -1 : 1;
    if (a->k2 != b->k2)
        return a->k2 < b->k2 ? -1 : 1;
    return strcmp(a->code, b->code);
}

static int cr_score_type(cr_run_t *s, cr_event_type_t type, double w)
{
    cr_item_t *t = NULL, *c = NULL;
    int *tm = NULL, *cm = NULL;
    int n, m, i, rc;
    cr_eval_counts_t *k = &s->r->types[type];

    k->window_s = w;
    rc = cr_collect(s->tev, s->nt, type, &t, &n);
    if (rc == CR_OK)
        rc = cr_collect(s->cev, s->nc, type, &c, &m);
    if (rc != CR_OK)
        goto done;
    rc = CR_ERR_NOMEM;
    tm = malloc((size_t)(n ? n : 1) * sizeof(*tm));
    cm = malloc((size_t)(m ? m : 1) * sizeof(*cm));
    if (!tm || !cm)
        goto done;
    rc = cr_match_keyed(t, n, c, m, w + CR_EVAL_TIME_TOLERANCE_S, tm, cm);
    if (rc != CR_OK)
        goto done;
    rc = cr_counts_fill(k, t, n, tm, c, m);
    if (rc == CR_OK && (type == CR_EV_COLLISION || type == CR_EV_CUSHION))
        rc = cr_counts_outside_break(s, &s->r->outside_break[type], t, n, tm, c, m);
    if (rc != CR_OK)
        goto done;
    rc = cr_pair_unmatched(t, n, tm, c, m, cm, w + CR_EVAL_TIME_TOLERANCE_S, false);
    if (rc < 0)
        goto done;
    k->identity_errors = rc;
    if (type == CR_EV_COLLISION || type == CR_EV_CUSHION) {
        rc = cr_timed_off(t, n, tm, c, m, cm, w);
        if (rc < 0)
            goto done;
        k->timed_off = rc;
    }
    rc = CR_OK;
    if (type != CR_EV_STROKE && type != CR_EV_REST) {
        rc = cr_add_unmatched(s, type, true, t, n, tm, c, m);
        if (rc == CR_OK)
            rc = cr_add_unmatched(s, type, false, c, m, cm, t, n);
        if (rc != CR_OK)
            goto done;
    }
    if (type == CR_EV_STROKE) {
        for (i = 0; i < n; i++) {
            if (tm[i] >= 0)
                s->stroke_t2c[t[i].ev] = c[tm[i]].ev;
        }
    }
done:
    free(t);
    free(c);
    free(tm);
    free(cm);
    return rc;
}

/* The candidate shot index that truth shot `shot` maps to (through the
 * stroke matching), or -1. */
static int cr_cand_shot(const cr_run_t *s, int shot)
{
    const cr_shotref_t *ref = cr_shotref_find(s->tshots, s->n_tshots, shot);
    int cs = ref ? s->stroke_t2c[ref->ev] : -1;

    return cs < 0 ? -1 : s->cev[cs].shot;
}

/* The pockets by shot (cr_eval_result_t.pockets_*). */
static int cr_score_pockets_by_shot(cr_run_t *s)
{
    cr_eval_result_t *r = s->r;
    int *t = NULL, *c = NULL, n, m, i, j, rc;
    bool *used = NULL;

    rc = cr_indexes(s->tev, s->nt, CR_EV_POCKET, &t, &n);
    if (rc == CR_OK)
        rc = cr_indexes(s->cev, s->nc, CR_EV_POCKET, &c, &m);
    if (rc == CR_OK && !(used = calloc((size_t)m + 1, sizeof(*used))))
        rc = CR_ERR_NOMEM;
    if (rc != CR_OK)
        goto done;
    r->pockets_truth = n;
    for (i = 0; i < n; i++) {
        const cr_eval_ev_t *te = &s->tev[t[i]];
        const int cs = cr_cand_shot(s, te->shot);

        for (j = 0; j < m && cs >= 0; j++) {
            const cr_eval_ev_t *ce = &s->cev[c[j]];

            if (!used[j] && ce->shot == cs && ce->ball == te->ball && ce->pocket == te->pocket) {
                used[j] = true;
                r->pockets_in_shot++;
                break;
            }
        }
    }
    for (j = 0; j < m; j++)
        r->pockets_false_in_shot += !used[j];
done:
    free(t);
    free(c);
    free(used);
    return rc;
}

static int cr_cmp_code(const void *a, const void *b)
{
    return strcmp(((const cr_eval_code_t *)a)->code, ((const cr_eval_code_t *)b)->code);
}

/* Adds code to the sorted-later list if it is not there. */
static int cr_code_add(cr_eval_result_t *r, size_t *cap, const char *code)
{
    int i;

    for (i = 0; i < r->n_codes; i++) {
        if (strcmp(r->codes[i].code, code) == 0)
            return CR_OK;
    }
    if (cr_grow((void **)&r->codes, (size_t)r->n_codes, cap, sizeof(*r->codes)) != CR_OK)
        return CR_ERR_NOMEM;
    memset(&r->codes[r->n_codes], 0, sizeof(r->codes[0]));
    snprintf(r->codes[r->n_codes].code, CR_CODE_LEN, "%s", code);
    r->n_codes++;
    return CR_OK;
}

/* Fouls: the type's counts and the counts per code. */
static int cr_score_fouls(cr_run_t *s, double w)
{
    cr_eval_result_t *r = s->r;
    cr_eval_counts_t *k = &r->types[CR_EV_FOUL];
    cr_item_t *t = NULL, *c = NULL, *ct = NULL, *cc = NULL;
    int *tm = NULL, *cm = NULL, *tshot = NULL, *ctm = NULL, *ccm = NULL, *ushot = NULL;
    int *utm = NULL, *ucm = NULL;
    cr_item_t *ut = NULL, *uc = NULL;
    size_t cap = 0;
    int n, m, i, j, q, rc, nu = 0, mu = 0;

    k->window_s = w;
    rc = cr_collect(s->tev, s->nt, CR_EV_FOUL, &t, &n);
    if (rc == CR_OK)
        rc = cr_collect(s->cev, s->nc, CR_EV_FOUL, &c, &m);
    if (rc != CR_OK)
        goto done;
    rc = CR_ERR_NOMEM;
    tm = malloc((size_t)(n + 1) * sizeof(*tm));
    cm = malloc((size_t)(m + 1) * sizeof(*cm));
    tshot = malloc((size_t)(n + 1) * sizeof(*tshot));
    ushot = malloc((size_t)(n + 1) * sizeof(*ushot));
    utm = malloc((size_t)(n + 1) * sizeof(*utm));
    ucm = malloc((size_t)(m + 1) * sizeof(*ucm));
    ut = malloc((size_t)(n + 1) * sizeof(*ut));
    uc = malloc((size_t)(m + 1) * sizeof(*uc));
    ctm = malloc((size_t)(n + 1) * sizeof(*ctm));
    ccm = malloc((size_t)(m + 1) * sizeof(*ccm));
    ct = malloc((size_t)(n + 1) * sizeof(*ct));
    cc = malloc((size_t)(m + 1) * sizeof(*cc));
    if (!tm || !cm || !tshot || !ushot || !utm || !ucm || !ut || !uc || !ctm || !ccm || !ct || !cc)
        goto done;
    for (i = 0; i < n; i++)
        tshot[i] = cr_cand_shot(s, s->tev[t[i].ev].shot);
    rc = cr_match_fouls(t, n, tshot, s->cev, c, m, w + CR_EVAL_TIME_TOLERANCE_S, true, tm, cm);
    if (rc != CR_OK)
        goto done;
    rc = cr_counts_fill(k, t, n, tm, c, m);
    if (rc == CR_OK)
        rc = cr_add_unmatched(s, CR_EV_FOUL, true, t, n, tm, c, m);
    if (rc == CR_OK)
        rc = cr_add_unmatched(s, CR_EV_FOUL, false, c, m, cm, t, n);
    if (rc != CR_OK)
        goto done;

    /* Identity errors: unmatched fouls paired ignoring the code. */
    for (i = 0; i < n; i++) {
        if (tm[i] < 0) {
            ushot[nu] = tshot[i];
            ut[nu++] = t[i];
        }
    }
    for (j = 0; j < m; j++) {
        if (cm[j] < 0)
            uc[mu++] = c[j];
    }
    rc = cr_match_fouls(ut, nu, ushot, s->cev, uc, mu, w + CR_EVAL_TIME_TOLERANCE_S, false, utm, ucm);
    if (rc != CR_OK)
        goto done;
    for (i = 0; i < nu; i++)
        k->identity_errors += utm[i] >= 0;

    /* Per code: the pairs of this code (matching was by code already). */
    rc = CR_ERR_NOMEM;
    for (i = 0; i < n; i++) {
        if (cr_code_add(r, &cap, t[i].code) != CR_OK)
            goto done;
    }
    for (j = 0; j < m; j++) {
        if (cr_code_add(r, &cap, c[j].code) != CR_OK)
            goto done;
    }
    if (r->n_codes > 1)
        qsort(r->codes, (size_t)r->n_codes, sizeof(*r->codes), cr_cmp_code);
    for (q = 0; q < r->n_codes; q++) {
        int a = 0, b = 0;
        const char *code = r->codes[q].code;

        /* Copy this code's items with their matches renumbered. */
        for (j = 0; j < m; j++)
            ccm[j] = -1;
        for (j = 0; j < m; j++) {
            if (strcmp(c[j].code, code) == 0) {
                ccm[j] = b;
                cc[b++] = c[j];
            }
        }
        for (i = 0; i < n; i++) {
            if (strcmp(t[i].code, code) != 0)
                continue;
            ctm[a] = tm[i] >= 0 ? ccm[tm[i]] : -1;
            ct[a++] = t[i];
        }
        rc = cr_counts_fill(&r->codes[q].counts, ct, a, ctm, cc, b);
        if (rc != CR_OK)
            goto done;
        r->codes[q].counts.window_s = w;
    }
    rc = CR_OK;
done:
    free(t);
    free(c);
    free(tm);
    free(cm);
    free(tshot);
    free(ushot);
    free(utm);
    free(ucm);
    free(ut);
    free(uc);
    free(ctm);
    free(ccm);
    free(ct);
    free(cc);
    return rc;
}

/* Cue-ball contacts in [t0, t1) of a sorted collision list: the first
 * (ball, time), and the first after it with a different ball. Balls are
 * CR_EVAL_NONE when there is none. */
static void cr_cue_contacts(const cr_eval_ev_t *evs, const int *coll, int n, double t0, double t1, int *b1, double *at1,
                            int *b2, double *at2)
{
    int lo = 0, hi = n, i;

    *b1 = *b2 = CR_EVAL_NONE;
    *at1 = *at2 = NAN;
    while (lo < hi) { /* first collision with t >= t0 */
        int mid = lo + (hi - lo) / 2;

        if (evs[coll[mid]].t < t0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (i = lo; i < n && evs[coll[i]].t < t1; i++) {
        const cr_eval_ev_t *ev = &evs[coll[i]];
        int other;

        if (ev->a != CR_BALL_CUE && ev->b != CR_BALL_CUE)
            continue;
        other = ev->a == CR_BALL_CUE ? ev->b : ev->a;
        if (*b1 == CR_EVAL_NONE) {
            *b1 = other;
            *at1 = ev->t;
        } else if (other != *b1) {
            *b2 = other;
            *at2 = ev->t;
            return;
        }
    }
}

/* End of the shot begun by stroke k of a sorted stroke list: the time of
 * the next stroke with another shot index, or +inf. */
static double cr_shot_end(const cr_eval_ev_t *evs, const int *strokes, int n, int k)
{
    int i;

    for (i = k + 1; i < n; i++) {
        if (evs[strokes[i]].shot != evs[strokes[k]].shot)
            return evs[strokes[i]].t;
    }
    return INFINITY;
}

/* First contact and close calls. */
static int cr_score_first_contact(cr_run_t *s)
{
    cr_eval_result_t *r = s->r;
    size_t cap_w = 0, cap_c = 0;
    int k;

    for (k = 0; k < s->n_tstrokes; k++) {
        const cr_eval_ev_t *ts = &s->tev[s->tstrokes[k]];
        const cr_shotref_t *ref = cr_shotref_find(s->tshots, s->n_tshots, ts->shot);
        int tb1, tb2, cb1 = CR_EVAL_NONE, cb2, cs;
        double t1, t2, c1, c2;
        bool correct;

        if (ts->ball != CR_BALL_CUE)
            continue;
        if (ref && ref->count > 1)
            continue; /* a lag: not a shot with a first contact */
        cr_cue_contacts(s->tev, s->tcoll, s->n_tcoll, ts->t, cr_shot_end(s->tev, s->tstrokes, s->n_tstrokes, k),
                        &tb1, &t1, &tb2, &t2);
        cs = s->stroke_t2c[s->tstrokes[k]];
        if (cs >= 0) {
            int pos = s->cstroke_pos[cs];

            cr_cue_contacts(s->cev, s->ccoll, s->n_ccoll, s->cev[cs].t,
                            cr_shot_end(s->cev, s->cstrokes, s->n_cstrokes, pos), &cb1, &c1, &cb2, &c2);
        }
        correct = cs >= 0 && cb1 == tb1;
        r->shots++;
        r->shots_correct += correct;
        if (!correct) {
            cr_eval_contact_t *w;

            if (cr_grow((void **)&r->wrong, (size_t)r->n_wrong, &cap_w, sizeof(*r->wrong)) != CR_OK)
                return CR_ERR_NOMEM;
            w = &r->wrong[r->n_wrong++];
            w->shot = ts->shot;
            w->t = ts->t;
            w->truth_ball = tb1;
            w->candidate_ball = cb1;
            w->stroke_matched = cs >= 0;
        }
        if (tb2 != CR_EVAL_NONE && t2 - t1 >= s->p->close_call_min_s - CR_EVAL_TIME_TOLERANCE_S &&
            t2 - t1 <= s->p->close_call_max_s + CR_EVAL_TIME_TOLERANCE_S) {
            cr_eval_close_call_t *cc;

            if (cr_grow((void **)&r->close_calls, (size_t)r->n_close_calls, &cap_c, sizeof(*r->close_calls)) !=
                CR_OK)
                return CR_ERR_NOMEM;
            cc = &r->close_calls[r->n_close_calls++];
            cc->shot = ts->shot;
            cc->t = ts->t;
            cc->first = tb1;
            cc->second = tb2;
            cc->gap_ms = (t2 - t1) * 1000.0;
            cc->candidate_ball = cb1;
            cc->correct = correct;
            r->close_calls_correct += correct;
        }
    }
    r->first_contact_accuracy = cr_ratio(r->shots_correct, r->shots);
    return CR_OK;
}

static int cr_score_rulings(cr_run_t *s)
{
    cr_eval_rulings_t *g = &s->r->rulings;
    size_t cap = 0;
    int i;

    g->share = NAN;
    g->outcome_share = NAN;
    g->truth_rulings = s->n_trulings;
    g->candidate_rulings = s->n_crulings;
    if (s->n_trulings == 0 || s->n_crulings == 0)
        return CR_OK;
    g->present = true;
    for (i = 0; i < s->n_trulings; i++) { /* in shot order */
        const cr_eval_ev_t *rt = &s->tev[s->trulings[i].ev];
        const cr_shotref_t *cref = cr_shotref_find(s->crulings, s->n_crulings, cr_cand_shot(s, rt->shot));
        const cr_eval_ev_t *rc;
        bool legal, next, bih, over, turn;

        if (!cref)
            continue;
        rc = &s->cev[cref->ev];
        legal = rt->ruling.legal == rc->ruling.legal;
        next = rt->ruling.next_player == rc->ruling.next_player;
        bih = rt->ruling.ball_in_hand == rc->ruling.ball_in_hand;
        over = rt->ruling.game_over == rc->ruling.game_over;
        turn = (rt->ruling.next_player == rt->ruling.player) == (rc->ruling.next_player == rc->ruling.player);
        g->compared++;
        g->agree_turn += turn;
        g->agree_outcome += legal && turn && bih && over;
        g->agree_legal += legal;
        g->agree_next_player += next;
        g->agree_ball_in_hand += bih;
        g->agree_game_over += over;
        if (legal && next && bih && over) {
            g->agree++;
            continue;
        }
        if (cr_grow((void **)&g->disagree_shots, (size_t)g->n_disagree, &cap, sizeof(*g->disagree_shots)) != CR_OK)
            return CR_ERR_NOMEM;
        g->disagree_shots[g->n_disagree++] = rt->shot;
    }
    g->share = cr_ratio(g->agree, g->compared);
    g->outcome_share = cr_ratio(g->agree_outcome, g->compared);
    return CR_OK;
}

/* Positions: see cr_eval_positions_result_t. */
/* Truth speed of ball id in frame f from the neighbouring frames, mm/s;
 * NAN when it is in neither. */
static double cr_truth_speed(const cr_eval_positions_t *tp, size_t f, const cr_pos_row_t *b)
{
    double best = NAN;
    int side;

    for (side = -1; side <= 1; side += 2) {
        const cr_pos_frame_t *nf;
        size_t i;

        if ((side < 0 && f == 0) || (side > 0 && f + 1 >= tp->n_frames))
            continue;
        nf = &tp->frames[f + side];
        for (i = nf->first; i < nf->first + nf->n; i++) {
            const cr_pos_row_t *o = &tp->rows[i];
            double dt = fabs(nf->t - tp->frames[f].t), v;

            if (o->id != b->id || !(dt > 0.0))
                continue;
            v = hypot(o->x - b->x, o->y - b->y) / dt;
            if (!isfinite(best) || v > best)
                best = v;
        }
    }
    return best;
}

/* Ball id's truth position in frame f (visible or not: a truth row is
 * where the ball is); false when the frame has none. */
static bool cr_truth_pos_at(const cr_eval_positions_t *tp, size_t f, int id, double *x, double *y)
{
    const cr_pos_frame_t *fr = &tp->frames[f];

    for (size_t i = fr->first; i < fr->first + fr->n; i++)
        if (tp->rows[i].id == id) {
            *x = tp->rows[i].x;
            *y = tp->rows[i].y;
            return true;
        }
    return false;
}

/* Ball id's truth position and velocity over the last two truth frames
 * before t; false when there are not two, or the ball is not in both. */
static bool cr_truth_motion_before(const cr_eval_positions_t *tp, double t, int id, double p[2], double v[2])
{
    size_t lo = 0, hi = tp->n_frames;
    double x0, y0, dt;

    /* the first frame at or after t: lo */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;

        if (tp->frames[mid].t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < 2)
        return false;
    dt = tp->frames[lo - 1].t - tp->frames[lo - 2].t;
    if (!(dt > 0.0) || !cr_truth_pos_at(tp, lo - 2, id, &x0, &y0) ||
        !cr_truth_pos_at(tp, lo - 1, id, &p[0], &p[1]))
        return false;
    v[0] = (p[0] - x0) / dt;
    v[1] = (p[1] - y0) / dt;
    return true;
}

/* cr_eval_unmatched_t.approach_mm_s of each unmatched contact. */
static void cr_unmatched_approach(cr_eval_result_t *r, const cr_eval_positions_t *tp)
{
    for (int i = 0; i < r->n_unmatched; i++) {
        cr_eval_unmatched_t *u = &r->unmatched[i];
        double p[2], v[2], q[2], w[2];

        if (u->type == CR_EV_CUSHION && u->k2 >= 0 && u->k2 < CR_RAIL_COUNT &&
            cr_truth_motion_before(tp, u->t, u->k1, p, v)) {
            /* toward the rail: head x = 0, foot x = L, left y = 0, right y = W */
            static const double toward[CR_RAIL_COUNT][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

            u->approach_mm_s = toward[u->k2][0] * v[0] + toward[u->k2][1] * v[1];
        } else if (u->type == CR_EV_COLLISION && cr_truth_motion_before(tp, u->t, u->k1, p, v) &&
                   cr_truth_motion_before(tp, u->t, u->k2, q, w)) {
            const double dx = q[0] - p[0], dy = q[1] - p[1], d = hypot(dx, dy);

            if (d > 0.0)
                u->approach_mm_s = -((w[0] - v[0]) * dx + (w[1] - v[1]) * dy) / d;
        }
    }
}

/* Summaries of one class: its errors are err[0..n). */
static void cr_pos_class_end(cr_eval_pos_class_t *c, double *err, size_t n)
{
    c->n_errors = (long)n;
    cr_summary(err, n, &c->err_median_mm, &c->err_p95_mm, &c->err_max_mm);
    c->detection_recall = cr_ratio(c->detected, c->truth_visible);
    c->identity_accuracy = cr_ratio(c->identity_correct, c->truth_visible);
}

static int cr_score_positions(cr_run_t *s, const cr_eval_positions_t *tp, const cr_eval_positions_t *cp)
{
    double *cls_err[2] = {NULL, NULL};
    size_t cls_n[2] = {0, 0}, cls_cap[2] = {0, 0};
    cr_eval_positions_result_t *g = &s->r->positions;
    double *err = NULL, half = 0.5 / s->fps + CR_EVAL_TIME_TOLERANCE_S, r2 = s->p->match_radius_mm;
    long swap_last[CR_NUM_BALLS][CR_NUM_BALLS]; /* the matched frame a pair was last swapped in */
    size_t *order = NULL, n_err = 0, cap_err = 0, f, i, j;
    int rc = CR_ERR_NOMEM;

    for (i = 0; i < CR_NUM_BALLS; i++)
        for (j = 0; j < CR_NUM_BALLS; j++)
            swap_last[i][j] = -2;
    g->present = true;
    g->frames = (long)tp->n_frames;
    g->detection_recall = g->detection_precision = g->identity_accuracy = NAN;
    g->err_median_mm = g->err_p95_mm = g->err_max_mm = NAN;
    r2 *= r2;
    /* Candidate frames by time. */
    if (cp->n_frames > INT_MAX)
        goto done;
    if (cp->n_frames) {
        cr_timed_t *tmp = malloc(cp->n_frames * sizeof(*tmp));

        order = malloc(cp->n_frames * sizeof(*order));
        if (!order || !tmp) {
            free(tmp);
            goto done;
        }
        for (i = 0; i < cp->n_frames; i++) {
            tmp[i].t = cp->frames[i].t;
            tmp[i].i = (int)i;
        }
        qsort(tmp, cp->n_frames, sizeof(*tmp), cr_cmp_timed);
        for (i = 0; i < cp->n_frames; i++)
            order[i] = (size_t)tmp[i].i;
        free(tmp);
    }
    for (f = 0; f < tp->n_frames; f++) {
        const cr_pos_frame_t *tf = &tp->frames[f];
        const cr_pos_frame_t *cf = NULL;
        size_t lo = 0, hi = cp->n_frames;
        bool named_on[CR_NUM_BALLS][CR_NUM_BALLS] = {{false}}; /* [candidate number][truth ball] */

        while (lo < hi) { /* first candidate frame with t >= tf->t */
            size_t mid = lo + (hi - lo) / 2;

            if (cp->frames[order[mid]].t < tf->t)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < cp->n_frames && cp->frames[order[lo]].t - tf->t <= half)
            cf = &cp->frames[order[lo]];
        if (lo > 0 && tf->t - cp->frames[order[lo - 1]].t <= half &&
            (!cf || tf->t - cp->frames[order[lo - 1]].t < cf->t - tf->t))
            cf = &cp->frames[order[lo - 1]];
        if (!cf)
            continue;
        g->frames_matched++;
        for (i = tf->first; i < tf->first + tf->n; i++) {
            const cr_pos_row_t *tb = &tp->rows[i];
            bool det = false, ident = false;
            double best = INFINITY, v, step;
            cr_eval_pos_class_t *cls = NULL;
            int k = -1;

            if (!tb->visible)
                continue;
            g->truth_visible++;
            v = cr_truth_speed(tp, f, tb);
            step = f + 1 < tp->n_frames ? tp->frames[f + 1].t - tf->t : (f > 0 ? tf->t - tp->frames[f - 1].t : 0.0);
            if (isfinite(v) && v < CR_EVAL_REST_MM_S)
                cls = &g->resting, k = 0;
            else if (isfinite(v) && step > 0.0 && v * step <= 2.0 * CR_BALL_RADIUS_MM)
                cls = &g->moving, k = 1;
            for (j = cf->first; j < cf->first + cf->n; j++) {
                const cr_pos_row_t *cb = &cp->rows[j];
                double dx = cb->x - tb->x, dy = cb->y - tb->y, d2 = dx * dx + dy * dy;

                if (!cb->visible)
                    continue;
                if (d2 <= r2) {
                    det = true;
                    ident |= cb->id == tb->id;
                }
                if (cb->id == tb->id && d2 < best)
                    best = d2;
            }
            g->detected += det;
            g->identity_correct += ident;
            if (tb->id >= 0 && tb->id < CR_NUM_BALLS) {
                cr_eval_pos_ball_t *pb = &g->by_ball[tb->id];

                pb->truth_visible++;
                pb->detected += det;
                pb->identity_correct += ident;
                pb->resting_visible += k == 0;
                pb->resting_detected += k == 0 && det;
            }
            if (cls) {
                cls->truth_visible++;
                cls->detected += det;
                cls->identity_correct += ident;
            }
            if (isfinite(best)) {
                if (cr_grow((void **)&err, n_err, &cap_err, sizeof(*err)) != CR_OK)
                    goto done;
                err[n_err++] = sqrt(best);
                if (k >= 0) {
                    if (cr_grow((void **)&cls_err[k], cls_n[k], &cls_cap[k], sizeof(double)) != CR_OK)
                        goto done;
                    cls_err[k][cls_n[k]++] = sqrt(best);
                }
            }
        }
        for (j = cf->first; j < cf->first + cf->n; j++) {
            const cr_pos_row_t *cb = &cp->rows[j];
            bool near = false;

            if (cb->held) { /* no detection: is it held where its ball is? */
                g->candidate_held++;
                for (i = tf->first; i < tf->first + tf->n && !near; i++) {
                    const cr_pos_row_t *tb = &tp->rows[i];
                    double dx = cb->x - tb->x, dy = cb->y - tb->y;

                    near = tb->id == cb->id && dx * dx + dy * dy <= r2;
                }
                g->held_near_truth += near;
                continue;
            }
            if (!cb->visible)
                continue;
            g->candidate_balls++;
            g->unidentified += cb->id == CR_BALL_UNKNOWN;
            {
                double nd = INFINITY;
                int nid = -1;

                for (i = tf->first; i < tf->first + tf->n; i++) {
                    const cr_pos_row_t *tb = &tp->rows[i];
                    double dx = cb->x - tb->x, dy = cb->y - tb->y, d2 = dx * dx + dy * dy;

                    if (tb->visible && d2 <= r2 && d2 < nd) {
                        nd = d2;
                        nid = tb->id;
                    }
                }
                near = isfinite(nd);
                if (nid >= 0 && nid < CR_NUM_BALLS && cb->id >= 0 && cb->id < CR_NUM_BALLS && cb->id != nid) {
                    g->misnamed++;
                    named_on[cb->id][nid] = true;
                }
            }
            g->candidate_near_truth += near;
        }
        /* two balls each carrying the other's number: a swap, counted once
         * per run of consecutive matched frames */
        for (int a = 0; a < CR_NUM_BALLS; a++)
            for (int b = a + 1; b < CR_NUM_BALLS; b++) {
                if (!(named_on[a][b] && named_on[b][a]))
                    continue;
                g->swap_frames++;
                g->swaps += swap_last[a][b] != g->frames_matched - 1;
                swap_last[a][b] = g->frames_matched;
            }
    }
    g->n_errors = (long)n_err;
    cr_summary(err, n_err, &g->err_median_mm, &g->err_p95_mm, &g->err_max_mm);
    g->detection_recall = cr_ratio(g->detected, g->truth_visible);
    g->detection_precision = cr_ratio(g->candidate_near_truth, g->candidate_balls);
    g->identity_accuracy = cr_ratio(g->identity_correct, g->truth_visible);
    cr_pos_class_end(&g->resting, cls_err[0], cls_n[0]);
    cr_pos_class_end(&g->moving, cls_err[1], cls_n[1]);
    for (i = 0; i < CR_NUM_BALLS; i++) {
        cr_eval_pos_ball_t *pb = &g->by_ball[i];

        pb->detection_recall = cr_ratio(pb->detected, pb->truth_visible);
        pb->identity_accuracy = cr_ratio(pb->identity_correct, pb->truth_visible);
        pb->resting_recall = cr_ratio(pb->resting_detected, pb->resting_visible);
    }
    rc = CR_OK;
done:
    free(err);
    free(cls_err[0]);
    free(cls_err[1]);
    free(order);
    return rc;
}

void cr_eval_result_destroy(cr_eval_result_t *r)
{
    if (!r)
        return;
    free(r->wrong);
    free(r->unmatched);
    free(r->close_calls);
    free(r->codes);
    free(r->rulings.disagree_shots);
    free(r);
}

/* Shot refs of one side's rulings (kind shot) in stream order, or of its
 * strokes in time order. */
static int cr_build_shotrefs(const cr_eval_ev_t *evs, int n, const int *order, int n_order, bool rulings,
                             cr_shotref_t **out, int *n_out)
{
    cr_shotref_t *refs;
    int i, k = 0;

    *out = NULL;
    *n_out = 0;
    refs = malloc((size_t)(n ? n : 1) * sizeof(*refs));
    if (!refs)
        return CR_ERR_NOMEM;
    if (rulings) {
        for (i = 0; i < n; i++) {
            if (evs[i].type == CR_EV_RULING && evs[i].ruling.kind == CR_RULING_SHOT && evs[i].shot >= 0) {
                refs[k].shot = evs[i].shot;
                refs[k].ev = i;
                refs[k].order = i;
                k++;
            }
        }
        k = cr_shotrefs_unique(refs, k, evs, NULL);
    } else {
        for (i = 0; i < n_order; i++) {
            if (evs[order[i]].shot >= 0) {
                refs[k].shot = evs[order[i]].shot;
                refs[k].ev = order[i];
                refs[k].order = i;
                k++;
            }
        }
        k = cr_shotrefs_unique(refs, k, evs, cr_is_cue_stroke);
    }
    *out = refs;
    *n_out = k;
    return CR_OK;
}

static void cr_run_free(cr_run_t *s)
{
    free(s->stroke_t2c);
    free(s->tstrokes);
    free(s->cstrokes);
    free(s->tcoll);
    free(s->ccoll);
    free(s->cstroke_pos);
    free(s->tshots);
    free(s->trulings);
    free(s->crulings);
    free(s->brk);
}

int cr_eval_score(const cr_eval_t *e, const cr_eval_positions_t *truth_pos, const cr_eval_positions_t *cand_pos,
                  cr_eval_result_t **out)
{
    cr_run_t s;
    size_t q;
    int i, rc = CR_ERR_NOMEM;

    if (!e || !out)
        return CR_ERR_INVALID;
    memset(&s, 0, sizeof(s));
    s.p = &e->p;
    s.tev = e->ev[CR_SIDE_TRUTH];
    s.cev = e->ev[CR_SIDE_CAND];
    s.nt = (int)e->n[CR_SIDE_TRUTH];
    s.nc = (int)e->n[CR_SIDE_CAND];
    s.fps = !isnan(e->p.fps) ? e->p.fps : !isnan(e->session_fps) ? e->session_fps : CR_EVAL_DEFAULT_FPS;
    s.r = calloc(1, sizeof(*s.r));
    s.stroke_t2c = malloc((size_t)(s.nt ? s.nt : 1) * sizeof(*s.stroke_t2c));
    s.cstroke_pos = malloc((size_t)(s.nc ? s.nc : 1) * sizeof(*s.cstroke_pos));
    s.brk = malloc((size_t)(s.nt ? 2 * s.nt : 2) * sizeof(*s.brk));
    if (!s.r || !s.stroke_t2c || !s.cstroke_pos || !s.brk)
        goto fail;
    s.n_brk = cr_break_clusters(s.tev, s.nt, s.brk);
    s.r->fps = s.fps;
    for (i = 0; i < s.nt; i++)
        s.stroke_t2c[i] = -1;
    if (cr_indexes(s.tev, s.nt, CR_EV_STROKE, &s.tstrokes, &s.n_tstrokes) != CR_OK ||
        cr_indexes(s.cev, s.nc, CR_EV_STROKE, &s.cstrokes, &s.n_cstrokes) != CR_OK ||
        cr_indexes(s.tev, s.nt, CR_EV_COLLISION, &s.tcoll, &s.n_tcoll) != CR_OK ||
        cr_indexes(s.cev, s.nc, CR_EV_COLLISION, &s.ccoll, &s.n_ccoll) != CR_OK ||
        cr_build_shotrefs(s.tev, s.nt, s.tstrokes, s.n_tstrokes, false, &s.tshots, &s.n_tshots) != CR_OK ||
        cr_build_shotrefs(s.tev, s.nt, NULL, 0, true, &s.trulings, &s.n_trulings) != CR_OK ||
        cr_build_shotrefs(s.cev, s.nc, NULL, 0, true, &s.crulings, &s.n_crulings) != CR_OK)
        goto fail;
    for (i = 0; i < s.nc; i++)
        s.cstroke_pos[i] = -1;
    for (i = 0; i < s.n_cstrokes; i++)
        s.cstroke_pos[s.cstrokes[i]] = i;

    /* Strokes first: fouls and rulings use the stroke matching. */
    for (q = 0; q < CR_EVAL_N_TYPES; q++) {
        cr_event_type_t type = cr_eval_types[q];
        double w = e->p.window_s[type];

        if (isnan(w))
            w = type == CR_EV_COLLISION || type == CR_EV_CUSHION ? 1.0 / s.fps : CR_EVAL_DEFAULT_WINDOW_S;
        rc = type == CR_EV_FOUL ? cr_score_fouls(&s, w) : cr_score_type(&s, type, w);
        if (rc != CR_OK)
            goto fail;
    }
    if (s.r->n_unmatched > 1)
        qsort(s.r->unmatched, (size_t)s.r->n_unmatched, sizeof(*s.r->unmatched), cr_cmp_unmatched);
    rc = cr_score_first_contact(&s);
    if (rc == CR_OK)
        rc = cr_score_rulings(&s);
    if (rc == CR_OK)
        rc = cr_score_pockets_by_shot(&s);
    if (rc == CR_OK && truth_pos && cand_pos)
        rc = cr_score_positions(&s, truth_pos, cand_pos);
    if (rc == CR_OK && truth_pos)
        cr_unmatched_approach(s.r, truth_pos);
    if (rc != CR_OK)
        goto fail;
    cr_run_free(&s);
    *out = s.r;
    return CR_OK;
fail:
    cr_eval_result_destroy(s.r);
    cr_run_free(&s);
    return rc == CR_OK ? CR_ERR_NOMEM : rc;
}

int cr_eval_run(const cr_eval_params_t *params, const cr_event_t *truth, size_t n_truth, const cr_event_t *cand,
                size_t n_cand, const cr_eval_positions_t *truth_pos, const cr_eval_positions_t *cand_pos,
                cr_eval_result_t **out)
{
    cr_eval_t *e = NULL;
    size_t i;
    int rc;

    if (!out || (!truth && n_truth) || (!cand && n_cand))
        return CR_ERR_INVALID;
    rc = cr_eval_create(params, &e);
    for (i = 0; rc == CR_OK && i < n_truth; i++)
        rc = cr_eval_add(e, true, &truth[i]);
    for (i = 0; rc == CR_OK && i < n_cand; i++)
        rc = cr_eval_add(e, false, &cand[i]);
    if (rc == CR_OK)
        rc = cr_eval_score(e, truth_pos, cand_pos, out);
    cr_eval_destroy(e);
    return rc;
}
