/*
 * recon_bench.c - event reconstruction (vision/cr_recon.h) on a `cueref sim`
 * folder, without video: the truth positions.csv is turned into what a
 * tracker would report (noise, hidden and gone balls), reconstructed, judged
 * by the rules engine as `cueref judge` does, and written as an event stream
 * for `cueref eval`.
 *
 *   recon_bench SIMDIR [-o EVENTS.jsonl] [--seed S] [--lookahead N]
 *               [--latency FILE.csv] [--noise K]
 *
 * What the tracker stand-in knows: per frame each visible ball's position
 * with Gaussian noise (sigma 0.5 mm at rest, growing to 2 mm at 1 m/s and
 * above, fixed seed), velocities by finite differences of the noisy
 * positions, SEEN for visible balls; a ball that disappears while moving is
 * GONE, while at rest HIDDEN (its last position held). Nothing of the truth
 * events is used except the session line and the operator `input` lines
 * (calls, racks), which a referee system gets from the operator.
 *
 * --noise K scales the noise (default 1; 0 gives the truth positions
 * themselves, which tells the reconstruction's own errors from those the
 * noise causes).
 *
 * --latency FILE writes `type,t,t_emit` per reconstructed event (t_emit =
 * the time of the frame whose push returned it).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_jsonl.h"
#include "cr_recon.h"
#include "cr_rules.h"

#define FAIL                                                              \
    do {                                                                    \
        fprintf(stderr, "recon_bench: failed (line %d)\n", __LINE__);     \
        goto done;                                                          \
    } while (0)

typedef struct {
    cr_event_t ev;
    double t_deliver;
    int order;
} item_t;

typedef struct {
    item_t *v;
    size_t n, cap;
} items_t;

static int items_add(items_t *s, const cr_event_t *ev, double td)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        item_t *d = realloc(s->v, cap * sizeof(*d));

        if (!d)
            return -1;
        s->v = d;
        s->cap = cap;
    }
    s->v[s->n].ev = *ev;
    s->v[s->n].t_deliver = td;
    s->v[s->n].order = (int)s->n;
    s->n++;
    return 0;
}

static int cmp_item(const void *pa, const void *pb)
{
    const item_t *a = pa, *b = pb;

    if (a->t_deliver < b->t_deliver)
        return -1;
    if (a->t_deliver > b->t_deliver)
        return 1;
    return a->order - b->order;
}

static uint64_t rng_state = 88172645463325252ull;
static double noise_k = 1.0;

static double urand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return ((rng_state >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
    return sqrt(-2.0 * log(urand())) * cos(2.0 * 3.14159265358979323846 * urand());
}

/* Tracker stand-in state per ball. */
typedef struct {
    bool known;
    double tx, ty;  /* truth at the previous frame */
    double nx, ny;  /* reported at the previous frame */
    int status;
    bool seen_before;
} tball_t;

static void make_frame(cr_ball_frame_t *fr, long idx, double t, const double *x, const double *y, const int *vis,
                       const bool *listed, tball_t *tb, double dt)
{
    int i;

    fr->t = t;
    fr->frame = (uint64_t)idx;
    fr->n = 0;
    for (i = 0; i < 16; i++) {
        cr_ball_obs_t *o;
        double sp = 0, s;

        if (!listed[i])
            continue;
        if (tb[i].known)
            sp = hypot(x[i] - tb[i].tx, y[i] - tb[i].ty) / dt;
        o = &fr->balls[fr->n];
        memset(o, 0, sizeof(*o));
        o->id = i;
        o->track = i;
        o->id_conf = 1.0f;
        if (vis[i]) {
            s = 0.5 + 1.5 * fmin(1.0, sp / 1000.0);
            o->x = x[i] + noise_k * s * gauss();
            o->y = y[i] + noise_k * s * gauss();
            o->sigma_mm = fmax(noise_k, 0.1) * s;
            o->status = CR_BALL_SEEN;
            o->vx = tb[i].seen_before ? (o->x - tb[i].nx) / dt : 0;
            o->vy = tb[i].seen_before ? (o->y - tb[i].ny) / dt : 0;
            tb[i].nx = o->x;
            tb[i].ny = o->y;
            tb[i].seen_before = true;
            tb[i].status = CR_BALL_SEEN;
        } else {
            if (!tb[i].seen_before) {
                tb[i].tx = x[i];
                tb[i].ty = y[i];
                tb[i].known = true;
                continue; /* never seen: the tracker does not know it */
            }
            if (tb[i].status == CR_BALL_SEEN)
                tb[i].status = sp > 20.0 ? CR_BALL_GONE : CR_BALL_HIDDEN;
            o->x = tb[i].nx;
            o->y = tb[i].ny;
            o->sigma_mm = 0.5;
            o->status = tb[i].status;
        }
        tb[i].tx = x[i];
        tb[i].ty = y[i];
        tb[i].known = true;
        fr->n++;
    }
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *out_path = NULL, *lat_path = NULL;
    char path[4096], line[512];
    cr_recon_params_t rp;
    cr_recon_t *rc = NULL;
    cr_jsonl_reader_t *rd = NULL;
    cr_event_t session, *ev = NULL, *outv = NULL, *jout = NULL;
    items_t items = {0};
    tball_t tb[16];
    FILE *csv = NULL, *lat = NULL;
    cr_ball_frame_t *fr = NULL;
    double x[16], y[16], t_cur = -1, fps = 60;
    int vis[16], n, k, st, lookahead = -1, rcode = 1;
    bool listed[16];
    long cur = -1, frame_no;
    cr_table_t tab;
    cr_rules_params_t jp;
    cr_judge_t *judge = NULL;
    cr_jsonl_writer_t *w = NULL;
    size_t i;

    for (k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "-o") && k + 1 < argc)
            out_path = argv[++k];
        else if (!strcmp(argv[k], "--seed") && k + 1 < argc)
            rng_state = strtoull(argv[++k], NULL, 10) * 2654435761ull + 1;
        else if (!strcmp(argv[k], "--lookahead") && k + 1 < argc)
            lookahead = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--latency") && k + 1 < argc)
            lat_path = argv[++k];
        else if (!strcmp(argv[k], "--noise") && k + 1 < argc)
            noise_k = fmax(0.0, atof(argv[++k]));
        else if (!dir)
            dir = argv[k];
        else {
            fprintf(stderr, "usage: recon_bench SIMDIR [-o EVENTS.jsonl] [--seed S] [--lookahead N] [--latency F] [--noise K]\n");
            return 2;
        }
    }
    if (!dir) {
        fprintf(stderr, "usage: recon_bench SIMDIR [-o EVENTS.jsonl] [--seed S] [--lookahead N] [--latency F] [--noise K]\n");
        return 2;
    }
    ev = malloc(sizeof(*ev));
    outv = malloc(sizeof(*outv) * 256);
    jout = malloc(sizeof(*jout) * CR_JUDGE_MAX_OUT);
    fr = malloc(sizeof(*fr));
    if (!ev || !outv || !jout || !fr)
        FAIL;

    /* the session and the operator input from the truth */
    snprintf(path, sizeof(path), "%s/truth.jsonl", dir);
    if (cr_jsonl_reader_open(path, &rd) != CR_OK || cr_jsonl_reader_next(rd, &session) <= 0) {
        fprintf(stderr, "recon_bench: cannot read %s\n", path);
        FAIL;
    }
    if (isfinite(session.fps) && session.fps > 0)
        fps = session.fps;
    cr_table_init(&tab, isfinite(session.table_length_mm) ? session.table_length_mm : 2540.0,
                  isfinite(session.table_width_mm) ? session.table_width_mm : 1270.0);
    while ((st = cr_jsonl_reader_next(rd, ev)) > 0)
        if (ev->type == CR_EV_INPUT && items_add(&items, ev, ev->t))
            FAIL;
    if (st < 0) {
        fprintf(stderr, "recon_bench: %s\n", cr_jsonl_reader_error(rd));
        FAIL;
    }

    cr_recon_params_defaults(&rp);
    rp.fps = fps;
    if (lookahead >= 0)
        rp.lookahead_frames = lookahead;
    if (cr_recon_create(&tab, &rp, &rc) != CR_OK)
        FAIL;
    if (lat_path) {
        lat = fopen(lat_path, "w");
        if (!lat)
            FAIL;
        fprintf(lat, "type,ball,a,b,t,t_emit\n");
    }

    snprintf(path, sizeof(path), "%s/positions.csv", dir);
    csv = fopen(path, "r");
    if (!csv || !fgets(line, sizeof(line), csv)) {
        fprintf(stderr, "recon_bench: cannot read %s\n", path);
        FAIL;
    }
    memset(tb, 0, sizeof(tb));
    memset(listed, 0, sizeof(listed));
    frame_no = 0;
    for (;;) {
        char *ok = fgets(line, sizeof(line), csv);
        long f = -1;
        double t = 0, bx = 0, by = 0;
        int id = -1, v = 0;

        if (ok && sscanf(line, "%ld,%lf,%d,%lf,%lf,%d", &f, &t, &id, &bx, &by, &v) != 6)
            continue;
        if (!ok || f != cur) {
            if (cur >= 0) {
                make_frame(fr, frame_no++, t_cur, x, y, vis, listed, tb, 1.0 / fps);
                if (cr_recon_push(rc, fr, outv, 256, &n) != CR_OK) {
                    fprintf(stderr, "recon_bench: push failed at t=%.3f\n", t_cur);
                    FAIL;
                }
                for (k = 0; k < n; k++) {
                    if (items_add(&items, &outv[k], t_cur))
                        FAIL;
                    if (lat)
                        fprintf(lat, "%s,%d,%d,%d,%.6f,%.6f\n", cr_event_type_name(outv[k].type), outv[k].ball,
                                outv[k].a, outv[k].b, outv[k].t, t_cur);
                }
            }
            if (!ok)
                break;
            cur = f;
            t_cur = t;
            memset(listed, 0, sizeof(listed));
        }
        if (id >= 0 && id < 16) {
            x[id] = bx;
            y[id] = by;
            vis[id] = v;
            listed[id] = true;
        }
    }
    if (cr_recon_finish(rc, outv, 256, &n) != CR_OK)
        FAIL;
    for (k = 0; k < n; k++) {
        if (items_add(&items, &outv[k], t_cur + 1e-6))
            FAIL;
        if (lat)
            fprintf(lat, "%s,%d,%d,%d,%.6f,%.6f\n", cr_event_type_name(outv[k].type), outv[k].ball, outv[k].a,
                    outv[k].b, outv[k].t, t_cur);
    }
    qsort(items.v, items.n, sizeof(items.v[0]), cmp_item);

    /* judge as `cueref judge` does, and write the stream */
    cr_rules_params_defaults(&jp);
    jp.table = tab;
    jp.game = session.game;
    if (session.rules[0])
        cr_rules_params_set_edition(&jp, session.rules);
    if (cr_judge_create(&jp, &judge) != CR_OK)
        FAIL;
    if (cr_jsonl_writer_open(out_path ? out_path : "-", &w) != CR_OK)
        FAIL;
    snprintf(session.source, sizeof(session.source), "recon_bench %s", dir);
    if (cr_jsonl_writer_write(w, &session) != CR_OK)
        FAIL;
    for (i = 0; i < items.n; i++) {
        if (cr_jsonl_writer_write(w, &items.v[i].ev) != CR_OK) {
            fprintf(stderr, "recon_bench: write: %s\n", cr_jsonl_writer_error(w));
            FAIL;
        }
        n = cr_judge_feed(judge, &items.v[i].ev, jout, CR_JUDGE_MAX_OUT);
        if (n < 0) {
            fprintf(stderr, "recon_bench: judge: %s\n", cr_judge_error(judge));
            continue;
        }
        for (k = 0; k < n; k++) {
            if (jout[k].type == CR_EV_FOUL && jout[k].shot < 0) {
                /* a foul between shots: the stream reader wants a shot */
                fprintf(stderr, "recon_bench: t=%.3f: between-shots foul %s not written\n", jout[k].t, jout[k].code);
                continue;
            }
            if (cr_jsonl_writer_write(w, &jout[k]) != CR_OK)
                fprintf(stderr, "recon_bench: t=%.3f: line not written: %s\n", jout[k].t, cr_jsonl_writer_error(w));
        }
    }
    n = cr_judge_finish(judge, jout, CR_JUDGE_MAX_OUT);
    for (k = 0; k < n; k++)
        if (cr_jsonl_writer_write(w, &jout[k]) != CR_OK)
            FAIL;
    if (cr_jsonl_writer_commit(w) != CR_OK) {
        w = NULL;
        FAIL;
    }
    w = NULL;
    rcode = 0;
done:
    if (w)
        cr_jsonl_writer_abort(w);
    cr_judge_destroy(judge);
    cr_recon_destroy(rc);
    cr_jsonl_reader_destroy(rd);
    if (csv)
        fclose(csv);
    if (lat)
        fclose(lat);
    free(items.v);
    free(ev);
    free(outv);
    free(jout);
    free(fr);
    return rcode;
}
