/* test_recon.c - vision/cr_recon.h: event reconstruction from tracked ball
 * states. Each case plays a few balls on the simulator's physics
 * (sim/cr_physics.h: exact event times), samples every ball at the frame
 * times with Gaussian noise (0.5 mm at rest, up to 2 mm when fast, fixed
 * seed) as a tracker would report them, and compares what cr_recon
 * reconstructs with the physics' own events. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cr_physics.h"
#include "cr_recon.h"
#include "test_suites.h"
#include "cr_jsonl.h"

#define MAX_EV 512

typedef struct {
    cr_event_t truth[MAX_EV];
    int nt;
    double t_rest;          /* truth: when the last ball stopped */
    cr_event_t got[MAX_EV];
    double emitted[MAX_EV]; /* frame time of the push that returned it */
    int ng;
    /* the truth's collisions: the speeds of a and b just before, and the
     * speed at which they closed along the line of centres (mm/s) */
    double va[MAX_EV], vb[MAX_EV], vn[MAX_EV];
} rcase_t;

/* What to do to the balls. */
typedef struct {
    cr_ball_pos_t balls[CR_NUM_BALLS];
    int n;
    double speed, heading_deg, tip_b;
    int leave_ball;        /* > 0: this ball leaves the table at its first cushion */
    int nudge_ball;        /* > 0: touched 1 s after the rest */
    double nudge_v[2];
    double fps;
    double wait_s;         /* at rest before the stroke (0: 0.5 s) */
    double mouth_sigma;    /* > 0: this much more scatter within 90 mm of a pocket */
    double noise_scale;    /* > 0: the position noise times this (0: as it is) */
    double cushion_lean;   /* > 0: a ball within 8 mm of a cushion's nose seen this much
                            * nearer it (mm), as a detector near a cushion sees it */
    double ball_lean;      /* > 0: a ball within 8 mm of another seen this much nearer
                            * it (mm), as a detector sees two balls about to touch */
    int gone_ball;         /* > 0: reported gone from half a frame before its first */
    double gone_s;         /* cushion contact for gone_s, where it was last seen */
    double retrack_s;      /* > 0: found again after that as a new track, unnamed for
                            * retrack_s (the lost track still held where it was) */
    uint64_t seed;
} setup_t;

static uint64_t rng;

static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((rng >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
    return sqrt(-2.0 * log(urand())) * cos(2.0 * 3.14159265358979323846 * urand());
}

static int add_truth(rcase_t *c, const cr_event_t *ev, int n)
{
    for (int i = 0; i < n && c->nt < MAX_EV; i++)
        c->truth[c->nt++] = ev[i];
    return 0;
}

/* Plays the setup and reconstructs it. Returns 0 or -1. */
static int play(const setup_t *s, rcase_t *c)
{
    cr_table_t tab;
    cr_sim_t *sim = NULL;
    cr_recon_t *rc = NULL;
    cr_recon_params_t rp;
    cr_event_t *ev = malloc(sizeof(*ev) * MAX_EV), *out = malloc(sizeof(*out) * 128);
    cr_ball_frame_t *fr = malloc(sizeof(*fr));
    cr_sim_ball_t st[CR_NUM_BALLS], prev[CR_NUM_BALLS];
    bool seen[CR_NUM_BALLS] = {false};
    double prev_xy[CR_NUM_BALLS][2] = {{0}};
    double t_end, t, gone_t0 = INFINITY;
    int n, k, i, rcode = -1;
    long f;

    memset(c, 0, sizeof(*c));
    rng = s->seed ? s->seed : 88172645463325252ull;
    cr_table_init(&tab, 2540.0, 1270.0);
    if (!ev || !out || !fr || cr_sim_create(&tab, NULL, &sim) || cr_sim_place(sim, s->balls, s->n) ||
        cr_sim_wait(sim, s->wait_s > 0 ? s->wait_s : 0.5))
        goto done;
    if (s->leave_ball > 0 && cr_sim_leave_at_contact(sim, s->leave_ball, 1))
        goto done;
    if (cr_sim_strike(sim, 0, s->speed, s->heading_deg * 3.14159265358979323846 / 180.0, 0, s->tip_b))
        goto done;
    if (cr_sim_run(sim, 60.0, ev, MAX_EV, &n) || add_truth(c, ev, n) || cr_sim_time_all_at_rest(sim, &c->t_rest))
        goto done;
    t_end = c->t_rest + 1.0;
    if (s->gone_ball > 0) {
        const cr_event_t *tc = NULL;

        for (k = 0; k < c->nt && !tc; k++)
            if (c->truth[k].type == CR_EV_CUSHION && c->truth[k].ball == s->gone_ball)
                tc = &c->truth[k];
        if (!tc)
            goto done;
        gone_t0 = tc->t - 0.5 / s->fps;
    }
    if (s->nudge_ball > 0) {
        if (cr_sim_nudge(sim, c->t_rest + 1.0, s->nudge_ball, s->nudge_v[0], s->nudge_v[1]) ||
            cr_sim_run(sim, 60.0, ev, MAX_EV, &n) || add_truth(c, ev, n) || cr_sim_time_all_at_rest(sim, &t))
            goto done;
        t_end = t + 1.0;
    }

    for (k = 0; k < c->nt; k++) {
        const cr_event_t *e = &c->truth[k];
        double dx, dy;

        if (e->type != CR_EV_COLLISION)
            continue;
        if (cr_sim_state_at(sim, e->t - 1e-4, st))
            goto done;
        dx = st[e->b].x - st[e->a].x;
        dy = st[e->b].y - st[e->a].y;
        c->va[k] = hypot(st[e->a].vx, st[e->a].vy);
        c->vb[k] = hypot(st[e->b].vx, st[e->b].vy);
        c->vn[k] = ((st[e->a].vx - st[e->b].vx) * dx + (st[e->a].vy - st[e->b].vy) * dy) / fmax(hypot(dx, dy), 1e-9);
    }
    cr_recon_params_defaults(&rp);
    rp.fps = s->fps;
    if (cr_recon_create(&tab, &rp, &rc))
        goto done;
    for (f = 0;; f++) {
        t = f / s->fps;
        if (t > t_end)
            break;
        if (cr_sim_state_at(sim, t, st))
            goto done;
        memset(fr, 0, sizeof(*fr));
        fr->t = t;
        fr->frame = (uint64_t)f;
        for (i = 0; i < CR_NUM_BALLS; i++) {
            cr_ball_obs_t *o = &fr->balls[fr->n];
            double sp = f > 0 && st[i].on_table && prev[i].on_table
                            ? hypot(st[i].x - prev[i].x, st[i].y - prev[i].y) * s->fps
                            : 0,
                   sg = (0.5 + 1.5 * fmin(1.0, sp / 1000.0)) * (s->noise_scale > 0 ? s->noise_scale : 1.0);

            double shift[2] = {0, 0}, sg_said = sg;

            if (s->mouth_sigma > 0 && st[i].on_table)
                for (int p = 0; p < CR_POCKET_COUNT; p++) {
                    cr_point_t pp = cr_table_pocket_point(&tab, (cr_pocket_t)p);
                    double dp = hypot(st[i].x - pp.x, st[i].y - pp.y);

                    if (dp < 90.0) {
                        /* the outline's far side over the hole: the fit
                         * slides sideways by about the scatter, and its
                         * sigma does not say so */
                        sg = hypot(sg, s->mouth_sigma);
                        shift[0] = -s->mouth_sigma * (st[i].y - pp.y) / dp;
                        shift[1] = s->mouth_sigma * (st[i].x - pp.x) / dp;
                    }
                }

            if (s->cushion_lean > 0 && st[i].on_table) {
                const double g[4] = {st[i].x - 28.575, 2540.0 - 28.575 - st[i].x, st[i].y - 28.575,
                                     1270.0 - 28.575 - st[i].y};

                shift[0] += (g[0] < 8.0 ? -s->cushion_lean : 0.0) + (g[1] < 8.0 ? s->cushion_lean : 0.0);
                shift[1] += (g[2] < 8.0 ? -s->cushion_lean : 0.0) + (g[3] < 8.0 ? s->cushion_lean : 0.0);
            }
            if (s->ball_lean > 0 && st[i].on_table)
                for (int j = 0; j < CR_NUM_BALLS; j++) {
                    double dx = st[j].x - st[i].x, dy = st[j].y - st[i].y, dd = hypot(dx, dy);

                    if (j != i && st[j].on_table && dd > 0 && dd < 2.0 * 28.575 + 8.0) {
                        shift[0] += s->ball_lean * dx / dd;
                        shift[1] += s->ball_lean * dy / dd;
                    }
                }
            if (!st[i].on_table && !seen[i])
                continue;
            o->id = i;
            o->track = i;
            o->id_conf = 1.0f;
            if (i == s->gone_ball && s->retrack_s > 0 && t >= gone_t0 + s->gone_s) {
                /* the lost track held where it was last seen; the ball
                 * followed as a new track, named only after retrack_s */
                o->x = prev_xy[i][0];
                o->y = prev_xy[i][1];
                o->sigma_mm = 0.5;
                o->status = CR_BALL_GONE;
                fr->n++;
                if (!st[i].on_table)
                    continue;
                o = &fr->balls[fr->n++];
                o->id = t < gone_t0 + s->gone_s + s->retrack_s ? -1 : i;
                o->track = CR_NUM_BALLS + i;
                o->id_conf = o->id < 0 ? 0.0f : 1.0f;
                o->x = st[i].x + sg * gauss();
                o->y = st[i].y + sg * gauss();
                o->sigma_mm = sg_said;
                o->status = CR_BALL_SEEN;
                continue;
            }
            if (i == s->gone_ball && t >= gone_t0 && t < gone_t0 + s->gone_s) {
                /* lost by the tracker, held where it was last seen */
                o->x = prev_xy[i][0];
                o->y = prev_xy[i][1];
                o->sigma_mm = 0.5;
                o->status = CR_BALL_GONE;
            } else if (st[i].on_table) {
                o->x = st[i].x + shift[0] + sg * gauss();
                o->y = st[i].y + shift[1] + sg * gauss();
                o->sigma_mm = sg_said;
                o->status = CR_BALL_SEEN;
                seen[i] = true;
            } else {
                o->x = prev[i].x;
                o->y = prev[i].y;
                o->sigma_mm = 0.5;
                o->status = CR_BALL_GONE;
            }
            prev_xy[i][0] = o->x;
            prev_xy[i][1] = o->y;
            fr->n++;
        }
        memcpy(prev, st, sizeof(st));
        if (cr_recon_push(rc, fr, out, 128, &n))
            goto done;
        for (k = 0; k < n && c->ng < MAX_EV; k++) {
            c->emitted[c->ng] = t;
            c->got[c->ng++] = out[k];
        }
    }
    if (cr_recon_finish(rc, out, 128, &n))
        goto done;
    for (k = 0; k < n && c->ng < MAX_EV; k++) {
        c->emitted[c->ng] = t_end;
        c->got[c->ng++] = out[k];
    }
    rcode = 0;
done:
    cr_recon_destroy(rc);
    cr_sim_destroy(sim);
    free(ev);
    free(out);
    free(fr);
    return rcode;
}

/* The first event of a type (and ball, when ball >= 0) in a list. */
static const cr_event_t *find(const cr_event_t *evs, int n, cr_event_type_t type, int ball, int *idx)
{
    for (int k = 0; k < n; k++)
        if (evs[k].type == type && (ball < 0 || evs[k].ball == ball)) {
            if (idx)
                *idx = k;
            return &evs[k];
        }
    return NULL;
}

/* The first collision that involves the cue ball. */
static const cr_event_t *first_cue_contact(const cr_event_t *evs, int n, int *idx)
{
    const cr_event_t *best = NULL;

    for (int k = 0; k < n; k++)
        if (evs[k].type == CR_EV_COLLISION && (evs[k].a == 0 || evs[k].b == 0) && (!best || evs[k].t < best->t)) {
            best = &evs[k];
            if (idx)
                *idx = k;
        }
    return best;
}

static int other(const cr_event_t *e)
{
    return e->a == 0 ? e->b : e->a;
}

/* The truth's and the reconstruction's first cue-ball contacts, both
 * there (fatal otherwise), the reconstruction's with the 1. */
static void first_contacts_with_1(const rcase_t *c, const cr_event_t **truth, const cr_event_t **got, int *got_idx)
{
    *truth = first_cue_contact(c->truth, c->nt, NULL);
    *got = first_cue_contact(c->got, c->ng, got_idx);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*truth);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*got);
    CU_ASSERT_EQUAL(other(*got), 1);
}

/* A ball placed so that a cue ball struck at heading h sends it into pocket p. */
static void straight_pot(setup_t *s, double fps)
{
    const double px = 2540.0, py = 1270.0;        /* foot-right */
    double bx = 2150.0, by = 950.0, dx = px - bx, dy = py - by, l = hypot(dx, dy);

    memset(s, 0, sizeof(*s));
    s->fps = fps;
    s->balls[0] = (cr_ball_pos_t){0, bx - 700.0 * dx / l, by - 700.0 * dy / l};
    s->balls[1] = (cr_ball_pos_t){1, bx, by};
    s->balls[2] = (cr_ball_pos_t){2, 600.0, 300.0};
    s->n = 3;
    s->speed = 2500.0;
    s->heading_deg = atan2(dy, dx) * 180.0 / 3.14159265358979323846;
    s->tip_b = -0.3;
    s->seed = 7;
}

static void test_straight_pot(void)
{
    static rcase_t c;
    setup_t s;
    const double fps_list[2] = {60.0, 30.0};

    for (int q = 0; q < 2; q++) {
        const cr_event_t *ts, *gs, *tc, *gc, *tp, *gp, *gr;
        int ig = -1;
        double fps = fps_list[q];

        straight_pot(&s, fps);
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        ts = find(c.truth, c.nt, CR_EV_POCKET, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ts); /* the set-up pots the 1 */
        gs = find(c.got, c.ng, CR_EV_STROKE, -1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gs);
        CU_ASSERT_DOUBLE_EQUAL(gs->t, 0.5, 0.004);
        CU_ASSERT_EQUAL(gs->n_moving, 0);
        CU_ASSERT_EQUAL(gs->n_balls, 3);
        /* first contact, sub-frame time */
        first_contacts_with_1(&c, &tc, &gc, &ig);
        CU_ASSERT_EQUAL(gc->a, 0);
        CU_ASSERT_DOUBLE_EQUAL(gc->t, tc->t, 0.25 / fps);
        CU_ASSERT_DOUBLE_EQUAL(gc->x, tc->x, 10.0);
        CU_ASSERT_DOUBLE_EQUAL(gc->y, tc->y, 10.0);
        CU_ASSERT_DOUBLE_EQUAL(gc->confidence, 1.0, 1e-9);
        CU_ASSERT(c.emitted[ig] <= tc->t + 2.0 / fps + 1e-9); /* latency: 2 frames */
        /* the pocket */
        tp = find(c.truth, c.nt, CR_EV_POCKET, 1, NULL);
        gp = find(c.got, c.ng, CR_EV_POCKET, 1, &ig);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
        CU_ASSERT_EQUAL(gp->pocket, CR_POCKET_FOOT_RIGHT);
        CU_ASSERT_DOUBLE_EQUAL(gp->t, tp->t, 0.05);
        CU_ASSERT(c.emitted[ig] <= tp->t + 2.0 / fps + 1e-9);
        CU_ASSERT_PTR_NULL(find(c.got, c.ng, CR_EV_DISTURBED, -1, NULL));
        CU_ASSERT_PTR_NULL(find(c.got, c.ng, CR_EV_OFF_TABLE, -1, NULL));
        /* rest: on time and soon (<= 0.3 s after the last ball stopped) */
        gr = find(c.got, c.ng, CR_EV_REST, -1, &ig);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gr);
        CU_ASSERT_DOUBLE_EQUAL(gr->t, c.t_rest, 0.25);
        CU_ASSERT(c.emitted[ig] <= c.t_rest + 0.3);
        CU_ASSERT(cr_event_find_ball(gr, 1) < 0);
        CU_ASSERT((cr_event_find_ball(gr, 0) >= 0) == !find(c.truth, c.nt, CR_EV_POCKET, 0, NULL));
        CU_ASSERT((find(c.got, c.ng, CR_EV_POCKET, 0, NULL) != NULL) == (find(c.truth, c.nt, CR_EV_POCKET, 0, NULL) != NULL));
    }
}

/* A cut: the object ball goes into the right cushion and comes back. */
static void test_cut_cushion(void)
{
    static rcase_t c;
    setup_t s;
    const cr_event_t *tk, *gk;
    int hits = 0;

    memset(&s, 0, sizeof(s));
    s.fps = 60.0;
    s.balls[0] = (cr_ball_pos_t){0, 800.0, 400.0};
    s.balls[1] = (cr_ball_pos_t){1, 1300.0, 600.0};
    s.n = 2;
    s.speed = 3000.0;
    /* aim at a ghost ball on the side of the 1 away from the right cushion */
    s.heading_deg = atan2(600.0 - 45.0 - 400.0, 1300.0 - 40.0 - 800.0) * 180.0 / 3.14159265358979323846;
    s.tip_b = 0.2;
    s.seed = 11;
    CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
    first_contacts_with_1(&c, &tk, &gk, NULL);
    CU_ASSERT_DOUBLE_EQUAL(gk->t, tk->t, 2.0 / 60.0 / 2.0);
    /* every truth cushion contact of the object ball, within one frame */
    for (int k = 0; k < c.nt; k++) {
        const cr_event_t *e = &c.truth[k];
        bool found = false;

        if (e->type != CR_EV_CUSHION || e->ball != 1)
            continue;
        hits++;
        for (int j = 0; j < c.ng; j++)
            if (c.got[j].type == CR_EV_CUSHION && c.got[j].ball == 1 && c.got[j].rail == e->rail &&
                fabs(c.got[j].t - e->t) <= 1.0 / 60.0)
                found = true;
        CU_ASSERT(found);
    }
    CU_ASSERT(hits >= 1); /* the set-up reaches a cushion */
}

/* Two object balls hit about 5 ms apart: the right order, or doubt. */
static void test_close_first_contact(void)
{
    static rcase_t c;
    setup_t s;
    const cr_event_t *tk, *gk;
    int second = -1;
    double gap = INFINITY;

    memset(&s, 0, sizeof(s));
    s.fps = 60.0;
    s.balls[0] = (cr_ball_pos_t){0, 900.0, 635.0};
    s.balls[1] = (cr_ball_pos_t){3, 1500.0, 635.0 + 32.0};
    s.balls[2] = (cr_ball_pos_t){4, 1512.0, 635.0 - 32.0};
    s.n = 3;
    s.speed = 2000.0;
    s.heading_deg = 0.0;
    s.seed = 5;
    CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
    tk = first_cue_contact(c.truth, c.nt, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tk);
    for (int k = 0; k < c.nt; k++)
        if (c.truth[k].type == CR_EV_COLLISION && (c.truth[k].a == 0 || c.truth[k].b == 0) &&
            other(&c.truth[k]) != other(tk) && c.truth[k].t - tk->t < gap) {
            gap = c.truth[k].t - tk->t;
            second = other(&c.truth[k]);
        }
    CU_ASSERT(second > 0 && gap > 0.001 && gap < 0.03); /* the set-up is a close call */
    gk = first_cue_contact(c.got, c.ng, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gk);
    CU_ASSERT(other(gk) == other(tk) || gk->confidence < 1.0);
    CU_ASSERT(other(gk) == other(tk) || other(gk) == second);
}

/* The cue ball rolls into a pocket (scratch): the pocket comes out at once. */
static void test_scratch(void)
{
    static rcase_t c;
    setup_t s;
    const cr_event_t *tp, *gp;
    int ig = -1;

    memset(&s, 0, sizeof(s));
    s.fps = 60.0;
    s.balls[0] = (cr_ball_pos_t){0, 1800.0, 700.0};
    s.balls[1] = (cr_ball_pos_t){1, 600.0, 300.0};
    s.n = 2;
    s.speed = 2000.0;
    s.heading_deg = atan2(1270.0 - 700.0, 2540.0 - 1800.0) * 180.0 / 3.14159265358979323846;
    s.seed = 3;
    CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
    tp = find(c.truth, c.nt, CR_EV_POCKET, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tp);
    gp = find(c.got, c.ng, CR_EV_POCKET, 0, &ig);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
    CU_ASSERT_EQUAL(gp->pocket, tp->pocket);
    CU_ASSERT_EQUAL(gp->shot, 0);
    CU_ASSERT(c.emitted[ig] <= tp->t + 2.0 / 60.0 + 1e-9);
    CU_ASSERT_PTR_NULL(first_cue_contact(c.got, c.ng, NULL));
    CU_ASSERT_PTR_NOT_NULL(find(c.got, c.ng, CR_EV_REST, -1, NULL));
}

/* At 60 fps, the cue ball at (1000, 300) struck at speed (mm/s) straight
 * at the 1 at (1000, 700), which runs on into the right cushion. */
static void drive_at_rail(setup_t *s, double speed, uint64_t seed)
{
    memset(s, 0, sizeof(*s));
    s->fps = 60.0;
    s->balls[0] = (cr_ball_pos_t){0, 1000.0, 300.0};
    s->balls[1] = (cr_ball_pos_t){1, 1000.0, 700.0};
    s->n = 2;
    s->speed = speed;
    s->heading_deg = 90.0;
    s->seed = seed;
}

/* A ball driven over the rail: off the table (with its cushion contact). */
static void test_off_table(void)
{
    static rcase_t c;
    setup_t s;
    const cr_event_t *to, *go;

    drive_at_rail(&s, 4000.0, 9);
    s.leave_ball = 1;
    CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
    to = find(c.truth, c.nt, CR_EV_OFF_TABLE, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(to);
    go = find(c.got, c.ng, CR_EV_OFF_TABLE, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(go);
    CU_ASSERT_DOUBLE_EQUAL(go->t, to->t, 2.0 / 60.0);
    CU_ASSERT_PTR_NULL(find(c.got, c.ng, CR_EV_POCKET, 1, NULL));
    CU_ASSERT_PTR_NOT_NULL(find(c.got, c.ng, CR_EV_CUSHION, 1, NULL));
}

/* A ball driven into a cushion that the tracker loses there (gone, as a
 * ball of the cloth's colour can be) and finds again coming back, while
 * the cue ball still rolls: it touched the cushion and did not leave the
 * table (SPEC: off_table is a ball that does not come back). Not found
 * again before the shot ends, it left. */
static void test_lost_at_cushion_comes_back(void)
{
    /* 2.3 s: longer than a lost ball is otherwise waited on (LOST_GIVE_S),
     * the cue ball still rolling (720p30 clip 08's break: the 8, blurred
     * past finding for 2.2 s after a cushion at speed, was called off the
     * table just before it was seen again) */
    static const double gone_s[3] = {0.6, 30.0, 2.3};

    for (int q = 0; q < 3; q++) {
        static rcase_t c;
        setup_t s;
        const cr_event_t *tc, *gc, *go;

        drive_at_rail(&s, 3000.0, 19);
        s.tip_b = 0.4; /* follow: the cue ball rolls on after the contact */
        s.gone_ball = 1;
        s.gone_s = gone_s[q];
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tc);
        CU_ASSERT_PTR_NULL(find(c.truth, c.nt, CR_EV_OFF_TABLE, 1, NULL));
        gc = find(c.got, c.ng, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gc);
        CU_ASSERT_DOUBLE_EQUAL(gc->t, tc->t, 2.0 / 60.0);
        go = find(c.got, c.ng, CR_EV_OFF_TABLE, 1, NULL);
        if (getenv("OFF_DEBUG")) {
            printf("\n q %d t_rest %.3f cushion %.3f:", q, c.t_rest, tc->t);
            for (int k = 0; k < c.ng; k++)
                printf(" [%d b%d %.3f]", c.got[k].type, c.got[k].ball, c.got[k].t);
        }
        if (q != 1) {
            CU_ASSERT_PTR_NULL(go);
            if (q == 2)
                CU_ASSERT(c.t_rest > tc->t + gone_s[q] + 0.5); /* the set-up: the cue ball still rolls */
        } else {
            CU_ASSERT_PTR_NOT_NULL_FATAL(go);
            CU_ASSERT_DOUBLE_EQUAL(go->t, tc->t, 2.0 / 60.0);
        }
        CU_ASSERT_PTR_NOT_NULL(find(c.got, c.ng, CR_EV_REST, -1, NULL));
    }
}

/* As above, but the tracker follows the 1 coming back from the cushion as
 * a new track, unnamed for its first frames, while it still holds the
 * lost one where it vanished (720p30 clip 01's break: the 7 lost as it
 * hit a cushion at speed was called off the table, though it rolled on
 * and was pocketed, and every ruling after it went to the wrong player).
 * The lost 1 is found again: no off_table, and everything it does after
 * (its rest) is the 1's. */
static void test_lost_at_cushion_comes_back_as_new_track(void)
{
    for (int q = 0; q < 2; q++) {
        static rcase_t c;
        setup_t s;
        const cr_event_t *gc;

        drive_at_rail(&s, 3000.0, 29 + (uint64_t)q);
        s.tip_b = 0.4;
        s.gone_ball = 1;
        s.gone_s = 0.05;
        s.retrack_s = q == 0 ? 1.0 / 60.0 : 0.3;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        CU_ASSERT_PTR_NULL(find(c.truth, c.nt, CR_EV_OFF_TABLE, 1, NULL));
        gc = find(c.got, c.ng, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL(gc);
        CU_ASSERT_PTR_NULL(find(c.got, c.ng, CR_EV_OFF_TABLE, -1, NULL));
        CU_ASSERT_PTR_NOT_NULL(find(c.got, c.ng, CR_EV_REST, -1, NULL));
        for (int k = 0; k < c.ng; k++)
            CU_ASSERT(c.got[k].ball != -1 || (c.got[k].type != CR_EV_CUSHION && c.got[k].type != CR_EV_POCKET));
    }
}

/* The 1, cut toward the right cushion (it meets it at about 800 mm/s
 * into it, at some 45 degrees), is lost just before it and never found
 * again: it reached the cushion, but a ball that meets a cushion that
 * gently does not ride over it (OFF_MIN_MM_S): no off_table (it rolled on
 * unseen). Driven straight in at 4 m/s and lost the same way, it left. */
static void test_gentle_cushion_is_not_off_table(void)
{
    for (int q = 0; q < 2; q++) {
        static rcase_t c;
        setup_t s;
        const cr_event_t *tc, *gc;

        drive_at_rail(&s, q == 0 ? 1500.0 : 4000.0, 23);
        s.heading_deg = q == 0 ? 85.0 : 90.0;
        s.gone_ball = 1;
        s.gone_s = 30.0;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tc);
        gc = find(c.got, c.ng, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gc);
        CU_ASSERT_EQUAL(gc->rail, tc->rail);
        CU_ASSERT_DOUBLE_EQUAL(gc->t, tc->t, 2.0 / 60.0);
        if (q == 0) {
            CU_ASSERT_PTR_NULL(find(c.got, c.ng, CR_EV_OFF_TABLE, 1, NULL));
        } else {
            CU_ASSERT_PTR_NOT_NULL(find(c.got, c.ng, CR_EV_OFF_TABLE, 1, NULL));
        }
    }
}

/* A ball touched between shots: disturbed, no stroke, no shot. */
static void test_disturbed_between_shots(void)
{
    static rcase_t c;
    setup_t s;
    const cr_event_t *gd;
    int strokes = 0;

    memset(&s, 0, sizeof(s));
    s.fps = 60.0;
    s.balls[0] = (cr_ball_pos_t){0, 600.0, 635.0};
    s.balls[1] = (cr_ball_pos_t){1, 1900.0, 300.0};
    s.balls[2] = (cr_ball_pos_t){2, 1200.0, 1000.0};
    s.n = 3;
    s.speed = 1200.0;
    s.heading_deg = 0.0;
    s.nudge_ball = 2;
    s.nudge_v[0] = 150.0;
    s.nudge_v[1] = 60.0;
    s.seed = 13;
    CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
    gd = find(c.got, c.ng, CR_EV_DISTURBED, 2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gd);
    CU_ASSERT_DOUBLE_EQUAL(gd->t, c.t_rest + 1.0, 0.05);
    CU_ASSERT_EQUAL(gd->shot, -1);
    CU_ASSERT_DOUBLE_EQUAL(gd->x, 1200.0, 3.0);
    CU_ASSERT_DOUBLE_EQUAL(gd->y, 1000.0, 3.0);
    for (int k = 0; k < c.ng; k++)
        if (c.got[k].type == CR_EV_STROKE)
            strokes++;
    CU_ASSERT_EQUAL(strokes, 1);
    CU_ASSERT_PTR_NULL(find(c.got, c.ng, CR_EV_DISTURBED, 1, NULL));
    CU_ASSERT_PTR_NULL(find(c.got, c.ng, CR_EV_DISTURBED, 0, NULL));
}

/* Events of a type for a ball (ball < 0: any). */
static int count(const cr_event_t *evs, int n, cr_event_type_t type, int ball)
{
    int m = 0;

    for (int k = 0; k < n; k++)
        if (evs[k].type == type && (ball < 0 || evs[k].ball == ball))
            m++;
    return m;
}

/* Whether an event is a collision between a and b. */
static bool is_pair(const cr_event_t *e, int a, int b)
{
    return e->type == CR_EV_COLLISION && ((e->a == a && e->b == b) || (e->a == b && e->b == a));
}

/* A collision between a and b in a list within tol of t (t NAN: any time). */
static const cr_event_t *find_pair(const cr_event_t *evs, int n, int a, int b, double t, double tol)
{
    for (int k = 0; k < n; k++)
        if (is_pair(&evs[k], a, b) && (isnan(t) || fabs(evs[k].t - t) <= tol))
            return &evs[k];
    return NULL;
}

/* Counts a played shot c of the cue ball 0 and the 1 at fps: when the
 * truth has the pair's second contact at least min_frames after its first,
 * a shot with a second contact (*truth2) and whether the second contact
 * reported is within a frame of it (*found2); and whether more contacts of
 * the pair are reported than the truth has (*extra). */
static void count_second_contact(const rcase_t *c, double fps, double min_frames, int *truth2, int *found2, int *extra)
{
    double tt[2] = {NAN, NAN}, tg[2] = {NAN, NAN};
    int n01 = 0, g01 = 0;

    for (int k = 0; k < c->nt; k++)
        if (is_pair(&c->truth[k], 0, 1) && n01 < 2)
            tt[n01++] = c->truth[k].t;
    for (int k = 0; k < c->ng; k++)
        if (is_pair(&c->got[k], 0, 1) && g01++ < 2)
            tg[g01 - 1] = c->got[k].t;
    if (n01 == 2 && tt[1] - tt[0] >= min_frames / fps) {
        (*truth2)++;
        *found2 += g01 == 2 && fabs(tg[1] - tt[1]) <= 1.0 / fps;
    }
    if (g01 > n01)
        (*extra)++;
}

/* The cue ball drives an object ball resting a few millimetres off a
 * cushion into it; coming back, the object ball meets the cue ball again
 * within a frame or two, before either is seen between the contacts. The
 * second contact is reported (within a frame of the truth's) when the
 * physics says it happened; none is made up where it did not. */
static void rebound_cases(double tip_b, int *truth2_out, int *found2_out, int *extra_out)
{
    static rcase_t c;
    int truth2 = 0, found2 = 0, extra = 0;

    for (int q = 0; q < 24; q++) {
        const double fps = q % 2 ? 60.0 : 30.0, gap = (q / 2) % 3 == 0 ? 2.0 : (q / 2) % 3 == 1 ? 6.0 : 12.0;
        const double cut = ((q / 6) % 4) * 12.0 - 6.0; /* degrees off a full hit: -6, 6, 18, 30 */
        const double bx = 1500.0, by = 1270.0 - 28.575 - gap, cr = cut * 3.14159265358979323846 / 180.0;
        setup_t s;

        memset(&s, 0, sizeof(s));
        s.fps = fps;
        s.balls[1] = (cr_ball_pos_t){1, bx, by};
        /* the contact point of a cut: the cue ball's centre 2R from the
         * object ball's, rotated by the cut from the rail's normal */
        s.balls[0] = (cr_ball_pos_t){0, bx - 57.15 * sin(cr) - 500.0 * sin(cr * 0.5), by - 57.15 * cos(cr) - 500.0};
        s.balls[2] = (cr_ball_pos_t){2, 600.0, 300.0};
        s.n = 3;
        s.speed = 1200.0 + 150.0 * (q % 5);
        s.tip_b = tip_b;
        s.heading_deg = atan2(by - 57.15 * cos(cr) - s.balls[0].y, bx - 57.15 * sin(cr) - s.balls[0].x) * 180.0 /
                        3.14159265358979323846;
        s.seed = 31 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        count_second_contact(&c, fps, 0.0, &truth2, &found2, &extra);
        if (getenv("REBOUND_DEBUG")) {
            printf("\nq %d fps %.0f gap %.0f cut %.0f speed %.0f: truth", q, fps, gap, cut, s.speed);
            for (int k = 0; k < c.nt; k++)
                if (c.truth[k].type == CR_EV_COLLISION || c.truth[k].type == CR_EV_CUSHION)
                    printf(" %s %d/%d %.4f", c.truth[k].type == CR_EV_COLLISION ? "coll" : "cush", c.truth[k].type == CR_EV_COLLISION ? c.truth[k].a : c.truth[k].ball, c.truth[k].b, c.truth[k].t);
            printf("\n   got");
            for (int k = 0; k < c.ng; k++)
                if (c.got[k].type == CR_EV_COLLISION || c.got[k].type == CR_EV_CUSHION)
                    printf(" %s %d/%d %.4f", c.got[k].type == CR_EV_COLLISION ? "coll" : "cush", c.got[k].type == CR_EV_COLLISION ? c.got[k].a : c.got[k].ball, c.got[k].b, c.got[k].t);
        }
    }
    if (getenv("REBOUND_DEBUG"))
        printf("\nsecond contacts: truth %d found %d; shots with extra contacts %d\n", truth2, found2, extra);
    *truth2_out = truth2;
    *found2_out = found2;
    *extra_out = extra;
}

/* The cue ball drives an object ball resting some way off a cushion into
 * it and follows on slowly; coming back off the cushion, the object ball
 * kisses the cue ball again a few frames later. Over one frame the second
 * kiss bends the slow cue ball's path by less than the noise, but over the
 * frames after it by well over it. Counts, at fps, the shots whose truth
 * has the pair's second contact 3 frames or more after the first, those
 * whose second contact is reported within a frame of it, and the shots with
 * more contacts of the pair reported than the truth has. */
static void kiss_back_cases(double fps, double lean, int *truth2_out, int *found2_out, int *extra_out)
{
    static rcase_t c;
    int truth2 = 0, found2 = 0, extra = 0;

    for (int q = 0; q < 48; q++) {
        const double gap = 10.0 + 10.0 * (q % 4), cut = 12.0 + ((q / 4) % 3) * 10.0; /* degrees off a full hit */
        const double bx = 1500.0, by = 1270.0 - 28.575 - gap, cr = cut * 3.14159265358979323846 / 180.0;
        setup_t s;

        memset(&s, 0, sizeof(s));
        s.fps = fps;
        s.ball_lean = lean;
        s.balls[1] = (cr_ball_pos_t){1, bx, by};
        s.balls[0] = (cr_ball_pos_t){0, bx - 57.15 * sin(cr) - 400.0 * sin(cr), by - 57.15 * cos(cr) - 400.0 * cos(cr)};
        s.balls[2] = (cr_ball_pos_t){2, 600.0, 300.0};
        s.n = 3;
        s.speed = 600.0 + 200.0 * ((q / 12) % 2);
        s.tip_b = q / 24 ? 0.0 : -0.1;
        s.heading_deg = atan2(by - 57.15 * cos(cr) - s.balls[0].y, bx - 57.15 * sin(cr) - s.balls[0].x) * 180.0 /
                        3.14159265358979323846;
        s.seed = 71 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        count_second_contact(&c, fps, 3.0, &truth2, &found2, &extra);
        if (getenv("REBOUND_DEBUG")) {
            printf("\nq %d fps %.0f gap %.0f cut %.0f speed %.0f: truth", q, fps, gap, cut, s.speed);
            for (int k = 0; k < c.nt; k++)
                if (c.truth[k].type == CR_EV_COLLISION)
                    printf(" [%d-%d %.4f]", c.truth[k].a, c.truth[k].b, c.truth[k].t);
            printf(" got");
            for (int k = 0; k < c.ng; k++)
                if (c.got[k].type == CR_EV_COLLISION)
                    printf(" [%d-%d %.4f]", c.got[k].a, c.got[k].b, c.got[k].t);
        }
    }
    *truth2_out = truth2;
    *found2_out = found2;
    *extra_out = extra;
}

/* Found by one frame's offset alone (the code before drift_start()): 12 of
 * the 38 such second contacts at 120 fps, 17 of 37 at 60 fps; found from
 * the frames after it together: 18 and 20. An extra contact: at 120 fps two
 * shots report the second contact twice, 30 ms early (the object ball's
 * kink, timed from its bent path) and 26 ms late (the cue ball's turn); one
 * of them did before. */
static void test_kiss_back_off_a_cushion(void)
{
    for (int v = 0; v < 2; v++) {
        const double fps = v ? 60.0 : 120.0;
        int truth2, found2, extra;

        kiss_back_cases(fps, 0.0, &truth2, &found2, &extra);
        CU_ASSERT(truth2 >= 30);
        CU_ASSERT(found2 >= (v ? 19 : 16));
        CU_ASSERT(extra <= (v ? 0 : 2));
        if (found2 < (v ? 19 : 16) || extra > (v ? 0 : 2) || getenv("REBOUND_DEBUG"))
            printf("\n  %.0f fps: %d of %d second contacts found, %d shots with extra contacts", fps, found2, truth2,
                   extra);
    }
}

/* Balls seen leaning together as they touch (a detector's fits of two
 * balls nearly touching are drawn toward each other: on the 720p30 review
 * films the two pieces of their relative motion met 1.7-3.1 mm short of 2R
 * where the distance's V was refused):
 * the distance's V then turns short of 2R, and the kisses of
 * kiss_back_cases() seen with a 1.5 mm lean at 30 fps were found in 8 of
 * 28; the bend of their relative motion, along the line of centres, finds
 * 13, with no more contacts made up. */
static void test_kiss_seen_leaning(void)
{
    int truth2, found2, extra;

    kiss_back_cases(30.0, 1.5, &truth2, &found2, &extra);
    CU_ASSERT(truth2 >= 25);
    CU_ASSERT(found2 >= 12);
    CU_ASSERT(extra <= 2);
    if (found2 < 12 || extra > 2)
        printf("\n  %d of %d second contacts found, %d shots with extra contacts", found2, truth2, extra);
}

/* What random_shots() counts. */
typedef struct {
    int mm, mm_found; /* contacts between two balls both set rolling by earlier ones; reported within a frame */
    int all, all_found; /* all the truth's contacts between two balls; reported within a frame */
    int made_up; /* reported contacts that are none of the truth's within a frame */
    double err_sum; /* summed timing error of those reported within a frame, s */
    int first, first_found; /* first contacts of the cue ball; reported within a frame */
    double first_err_sum; /* their summed timing error, s */
} shot_counts_t;

/* 500 shots on random layouts (the cue ball into the 1, five object balls
 * scattered over the foot half, fixed seeds) filmed at fps, the fits'
 * noise as a 720p detector's: counts the truth's contacts between two
 * balls and those reported within a frame, the pair right. MISS_DEBUG=1
 * lists each contact missed (how fast the balls met, where its pair was
 * found instead) and each made up; MISS_CASE=N prints shot N's events,
 * the truth's and those found. */
static void random_shots(double fps, shot_counts_t *n)
{
    static rcase_t c;

    memset(n, 0, sizeof(*n));
    for (int q = 0; q < 500; q++) {
        const cr_event_t *tf;
        setup_t s;
        double th;

        memset(&s, 0, sizeof(s));
        rng = 1000 + (uint64_t)q * 7919;
        s.fps = fps;
        s.noise_scale = 1.6;
        s.balls[s.n++] = (cr_ball_pos_t){0, 400.0 + 200.0 * urand(), 300.0 + 600.0 * urand()};
        for (int b = 1; b <= 5; b++)
            for (int tries = 0; tries < 100; tries++) {
                double x = 900.0 + 1000.0 * urand(), y = 150.0 + 970.0 * urand();
                bool clear = true;

                for (int j = 0; j < s.n; j++)
                    clear = clear && hypot(x - s.balls[j].x, y - s.balls[j].y) >= 70.0;
                if (clear) {
                    s.balls[s.n++] = (cr_ball_pos_t){b, x, y};
                    break;
                }
            }
        th = atan2(s.balls[1].y - s.balls[0].y, s.balls[1].x - s.balls[0].x) + (urand() - 0.5) * 0.06;
        s.heading_deg = th * 180.0 / 3.14159265358979323846;
        s.speed = 1000.0 + 2500.0 * urand();
        s.tip_b = (urand() - 0.5) * 0.6;
        s.seed = 500 + (uint64_t)q;

        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tf = first_cue_contact(c.truth, c.nt, NULL);
        if (getenv("MISS_CASE") && atoi(getenv("MISS_CASE")) == q) /* one shot's events, truth and found */
            for (int k = 0; k < c.nt + c.ng; k++) {
                const cr_event_t *e = k < c.nt ? &c.truth[k] : &c.got[k - c.nt];

                printf("\n  %s %s t=%.4f ball %d pair %d-%d rail %d", k < c.nt ? "truth" : "found",
                       cr_event_type_name(e->type), e->t, e->ball, e->a, e->b, e->rail);
            }
        for (int k = 0; k < c.nt; k++) {
            const cr_event_t *e = &c.truth[k], *g;
            bool rolled_a = e->a == 0, rolled_b = e->b == 0;

            if (e->type != CR_EV_COLLISION)
                continue;
            for (int j = 0; j < k; j++)
                if (c.truth[j].type == CR_EV_COLLISION && e->t - c.truth[j].t > 0.1) {
                    rolled_a = rolled_a || c.truth[j].a == e->a || c.truth[j].b == e->a;
                    rolled_b = rolled_b || c.truth[j].a == e->b || c.truth[j].b == e->b;
                }
            g = find_pair(c.got, c.ng, e->a, e->b, e->t, 1.0 / fps);
            if (!g && getenv("MISS_DEBUG")) {
                /* a contact missed: how fast the balls met, whether the
                 * pair was found later or earlier, what either ball was
                 * found in near it */
                const cr_event_t *near = find_pair(c.got, c.ng, e->a, e->b, e->t, 0.5);

                printf("\n  missed: shot %d, %d-%d at %.4f s, speeds %.0f and %.0f mm/s, closing %.0f mm/s%s%s", q,
                       e->a, e->b, e->t, c.va[k], c.vb[k], c.vn[k], e == tf ? ", first contact" : "",
                       rolled_a && rolled_b ? ", both rolling" : "");
                if (near)
                    printf("; the pair found %+.1f ms off", 1000.0 * (near->t - e->t));
                for (int j = 0; j < c.ng; j++)
                    if (c.got[j].type == CR_EV_COLLISION && fabs(c.got[j].t - e->t) < 0.1 && &c.got[j] != near &&
                        (c.got[j].a == e->a || c.got[j].b == e->a || c.got[j].a == e->b || c.got[j].b == e->b))
                        printf("; %d-%d found %+.1f ms off", c.got[j].a, c.got[j].b, 1000.0 * (c.got[j].t - e->t));
            }
            n->all++;
            n->first += e == tf;
            if (g) {
                n->all_found++;
                n->err_sum += fabs(g->t - e->t);
                if (e == tf) {
                    n->first_found++;
                    n->first_err_sum += fabs(g->t - e->t);
                }
            }
            if (rolled_a && rolled_b) {
                n->mm++;
                n->mm_found += g != NULL;
            }
        }
        for (int k = 0; k < c.ng; k++)
            if (c.got[k].type == CR_EV_COLLISION &&
                !find_pair(c.truth, c.nt, c.got[k].a, c.got[k].b, c.got[k].t, 1.0 / fps)) {
                n->made_up++;
                if (getenv("MISS_DEBUG"))
                    printf("\n  made up: shot %d, %d-%d at %.4f s", q, c.got[k].a, c.got[k].b, c.got[k].t);
            }
    }
}

/* Random shots (random_shots()) at 30 fps: of the truth's contacts between
 * two balls both set rolling by earlier ones (most still rolling; the cue
 * ball after the stroke), those reported within a frame, the pair right;
 * every contact reported within a frame of the truth's; and those reported
 * that are no contact of the truth's within a frame. A glancing contact
 * between two rolling balls turns each too gently for one frame to show at
 * 30 fps: found once the frames after it are weighed together
 * (drift_start(), with its floor of two frames), the one that touched it
 * the ball seen nearest that took the push (drift_score(), took_push());
 * before, 42 of 56 such contacts were found, 830 of 860 in all, 13 made
 * up. A resting ball pushed a few millimetres, found from the mean of its
 * samples (nudged()): 836 -> 839 of 860, 11 made up before and after. */
static void test_rolling_balls_glance(void)
{
    shot_counts_t n;

    random_shots(30.0, &n);
    CU_ASSERT(n.mm >= 50);
    CU_ASSERT(n.mm_found >= 46);
    CU_ASSERT(n.all_found >= 837);
    CU_ASSERT(n.made_up <= 13);
    if (n.mm_found < 46 || n.all_found < 837 || n.made_up > 13)
        printf("\n  rolling balls: %d of %d found; all: %d of %d; %d made up", n.mm_found, n.mm, n.all_found, n.all,
               n.made_up);
}

/* Random shots (random_shots()) at 60 fps: the timing of the contacts
 * reported within a frame. Where a moving ball struck one at rest, the
 * time its way in reaches the other is weighed in with its standard error
 * (refine_contact(), paths_meet()): found within a frame 822 -> 831 of
 * the 860 contacts, their mean error 2.83 -> 2.33 ms; over the cue ball's
 * 500 first contacts 1.92 -> 1.44 ms. A resting ball pushed a few
 * millimetres, found from the mean of its samples (nudged()): 831 -> 835,
 * made up (most the same contacts timed over a frame off) 16 -> 18. */
static void test_random_shots_timed(void)
{
    shot_counts_t n;
    double mean, mean_first;

    random_shots(60.0, &n);
    mean = n.all_found ? 1000.0 * n.err_sum / n.all_found : INFINITY;
    mean_first = n.first_found ? 1000.0 * n.first_err_sum / n.first_found : INFINITY;
    CU_ASSERT(n.first >= 490);
    CU_ASSERT(n.first_found >= n.first - 5);
    CU_ASSERT(n.all_found >= 833);
    CU_ASSERT(n.made_up <= 18);
    CU_ASSERT(mean <= 2.5);
    CU_ASSERT(mean_first <= 1.6);
    if (n.first_found < n.first - 5 || n.all_found < 833 || n.made_up > 18 || mean > 2.5 || mean_first > 1.6)
        printf("\n  %d of %d contacts found, %d made up, mean error %.2f ms; first contacts %d of %d, %.2f ms",
               n.all_found, n.all, n.made_up, mean, n.first_found, n.first, mean_first);
}

static void test_rebound_second_contact(void)
{
    int truth2, found2, extra;

    rebound_cases(0.0, &truth2, &found2, &extra);
    /* 21 of the 24 set-ups make a second contact; a fitted kink alone finds
     * none of them within a frame. Missed still: those whose second contact
     * comes over a frame later (the hitter seen between the two), and the
     * thinner cuts that meet again only with a lively cushion (restitution
     * over 0.6) */
    CU_ASSERT(truth2 >= 18);
    CU_ASSERT(found2 * 10 >= truth2 * 6);
    CU_ASSERT_EQUAL(extra, 0);
}

/* The same with draw on the cue ball: it pulls the cue ball back after the
 * first contact, so its velocity measured over the frames after the kink
 * shows little of the second blow's push (or none): the check that asked
 * for half of it found 11 of these 22 second contacts; one that asks only
 * that the velocity is not against the push finds 15. */
static void test_rebound_with_draw(void)
{
    int truth2, found2, extra;

    rebound_cases(-0.2, &truth2, &found2, &extra);
    CU_ASSERT(truth2 >= 18);
    CU_ASSERT(found2 * 10 >= truth2 * 6);
    CU_ASSERT_EQUAL(extra, 0);
    if (found2 * 10 < truth2 * 6 || extra)
        printf("\n  %d of %d second contacts found, %d shots with extra contacts", found2, truth2, extra);
}

/* A thin, slow hit: the object ball creeps off at a few cm/s and its onset
 * is seen late. It was hit (a collision at the contact time), never
 * touched (no disturbed event, which the rules make a foul). */
static void test_slow_nudge(void)
{
    static rcase_t c;
    setup_t s;
    const double fps_list[2] = {60.0, 30.0};

    for (int q = 0; q < 2; q++) {
        const cr_event_t *tk, *gk;

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q];
        s.balls[0] = (cr_ball_pos_t){0, 900.0, 635.0};
        s.balls[1] = (cr_ball_pos_t){1, 1400.0, 635.0 + 57.0}; /* 2R = 57.15: a thin touch */
        s.balls[2] = (cr_ball_pos_t){2, 600.0, 300.0};
        s.n = 3;
        s.speed = 900.0;
        s.heading_deg = 0.0;
        s.seed = 17 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tk = first_cue_contact(c.truth, c.nt, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tk); /* the set-up touches the 1 */
        CU_ASSERT_EQUAL(other(tk), 1);
        gk = find_pair(c.got, c.ng, 0, 1, tk->t, 2.0 / s.fps);
        CU_ASSERT_PTR_NOT_NULL(gk);
        CU_ASSERT_EQUAL(count(c.got, c.ng, CR_EV_DISTURBED, -1), 0);
        CU_ASSERT_EQUAL(count(c.got, c.ng, CR_EV_STROKE, -1), 1);
    }
}

/* A shallow cushion contact: the cue ball runs almost along the right
 * cushion and grazes it; the path bends too little for a kink, but the
 * distance to the nose line turns at R. */
static void test_shallow_cushion(void)
{
    static rcase_t c;
    setup_t s;
    const double fps_list[3] = {60.0, 30.0, 120.0};

    for (int q = 0; q < 3; q++) {
        const cr_event_t *tc = NULL;
        bool found = false;

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q];
        s.balls[0] = (cr_ball_pos_t){0, 400.0, 1270.0 - 28.575 - 60.0};
        s.balls[1] = (cr_ball_pos_t){1, 600.0, 300.0};
        s.n = 2;
        s.speed = 1500.0;
        s.heading_deg = 4.0; /* toward y = W at 4 degrees */
        s.seed = 23 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tc); /* the set-up grazes a cushion */
        CU_ASSERT_EQUAL(tc->rail, CR_RAIL_RIGHT);
        for (int k = 0; k < c.ng; k++)
            if (c.got[k].type == CR_EV_CUSHION && c.got[k].ball == 0 && c.got[k].rail == tc->rail &&
                fabs(c.got[k].t - tc->t) <= 1.0 / s.fps)
                found = true;
        CU_ASSERT(found);
        if (!found) {
            printf("\n  q %d truth %.4f (%.1f,%.1f):", q, tc->t, tc->x, tc->y);
            for (int k = 0; k < c.ng; k++)
                if (c.got[k].type == CR_EV_CUSHION)
                    printf(" %d %s %.4f", c.got[k].ball, cr_rail_name(c.got[k].rail), c.got[k].t);
        }
        /* one contact, not one per noisy frame along the cushion */
        CU_ASSERT_EQUAL(count(c.got, c.ng, CR_EV_CUSHION, 0), count(c.truth, c.nt, CR_EV_CUSHION, 0));
    }
}

/* Whether c reports ball's contact with tc's rail within win of tc's time. */
static bool cushion_within(const rcase_t *c, int ball, const cr_event_t *tc, double win)
{
    for (int k = 0; k < c->ng; k++)
        if (c->got[k].type == CR_EV_CUSHION && c->got[k].ball == ball && c->got[k].rail == tc->rail &&
            fabs(c->got[k].t - tc->t) <= win)
            return true;
    return false;
}

/* Prints ball's reported cushion contacts against the truth's tc. */
static void print_cushions(const rcase_t *c, int ball, const cr_event_t *tc)
{
    for (int k = 0; k < c->ng; k++)
        if (c->got[k].type == CR_EV_CUSHION && c->got[k].ball == ball)
            printf(" %.4f (%+.1f ms)", c->got[k].t, 1000 * (c->got[k].t - tc->t));
}

/* Slow balls coming into a cushion (the normal speed at the contact some
 * tens of mm/s), with the position noise of the review's resting balls
 * (half the usual here), measured 0.5 mm nearer the cushion than they are
 * within 8 mm of it, as the detector near a cushion sees them: a V of the
 * distances held at R turns where the biased distances reach R, early
 * (with the vertex at R, 10 of the 15 within a frame at 60 fps, every one
 * early, up to 56 ms). The vertex may lie up to VEE_BIAS_MM off R: 14. */
static void test_slow_cushion_seen_leaning(void)
{
    static rcase_t c;
    int found = 0, total = 0;

    for (int q = 0; q < 16; q++) {
        setup_t s;
        const cr_event_t *tc;

        memset(&s, 0, sizeof(s));
        s.fps = 60.0;
        s.balls[0] = (cr_ball_pos_t){0, 900.0 + 40.0 * q, 1270.0 - 28.575 - 25.0 - 3.0 * (q % 4)};
        s.balls[1] = (cr_ball_pos_t){1, 600.0, 300.0};
        s.n = 2;
        s.speed = 220.0 + 20.0 * (q / 4);
        s.heading_deg = 12.0 + 4.0 * (q % 4);
        s.cushion_lean = 0.5;
        s.noise_scale = 0.5;
        s.seed = 301 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 0, NULL);
        if (!tc)
            continue; /* stopped short of it */
        total++;
        if (cushion_within(&c, 0, tc, 1.0 / s.fps))
            found++;
        if (getenv("LEAN_DEBUG")) {
            printf("\n   q %d truth %.4f:", q, tc->t);
            print_cushions(&c, 0, tc);
        }
    }
    CU_ASSERT(total >= 14); /* the set-up: they reach the cushion */
    CU_ASSERT(found >= 13);
    if (found < 13 || getenv("LEAN_DEBUG"))
        printf("\n  slow cushions seen leaning: %d of %d timed within a frame", found, total);
}

/* An object ball 15 mm off a cushion, struck straight into it: it goes to
 * the cushion and back within a frame or two (and meets the cue ball
 * again). The cushion contact must be there (else no_rail). */
static void test_near_cushion_bounce(void)
{
    static rcase_t c;
    setup_t s;
    const double fps_list[2] = {60.0, 30.0};

    for (int q = 0; q < 2; q++) {
        const cr_event_t *tc;
        bool found = false;

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q];
        s.balls[0] = (cr_ball_pos_t){0, 1200.0, 700.0};
        s.balls[1] = (cr_ball_pos_t){1, 1203.0, 1270.0 - 28.575 - 15.0};
        s.n = 2;
        s.speed = 2500.0;
        s.heading_deg = 90.0;
        s.seed = 29 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tc);
        for (int k = 0; k < c.ng; k++)
            if (c.got[k].type == CR_EV_CUSHION && c.got[k].ball == 1 && c.got[k].rail == tc->rail &&
                fabs(c.got[k].t - tc->t) <= 2.0 / s.fps)
                found = true;
        CU_ASSERT(found);
        CU_ASSERT_PTR_NOT_NULL(find_pair(c.got, c.ng, 0, 1, NAN, 0));
        CU_ASSERT_EQUAL(count(c.got, c.ng, CR_EV_DISTURBED, -1), 0);
    }
}

/* An object ball resting 6-14 mm off a cushion, struck toward it at a few
 * hundred mm/s, at 30 fps: it meets the cushion within a frame of the blow
 * and is first seen leaving it. The contact is timed by the speed the blow
 * gave it over the gap (the hitter's along the line of centres), not by the
 * speed it leaves with, which the cushion has cut: timed by that, 3 of
 * these 12 came 50-112 ms late (720p30 clip 13's 12 at 57.91 s, 41 ms
 * late), now none. One more (q 0: struck straight, 6 mm off) is at the
 * cushion and back at its place between two frames and meets the cue ball
 * again: no motion of its own is seen, no contact reported either way (a
 * known miss). */
static void test_struck_off_a_near_cushion_timed(void)
{
    static rcase_t c;
    int found = 0, total = 0;

    for (int q = 0; q < 12; q++) {
        setup_t s;
        const cr_event_t *tc;
        const double gap = 6.0 + 2.0 * (q % 5), off = 6.0 * (q % 3);

        memset(&s, 0, sizeof(s));
        s.fps = 30.0;
        s.balls[0] = (cr_ball_pos_t){0, 900.0 - off, 1270.0 - 28.575 - gap - 300.0};
        s.balls[1] = (cr_ball_pos_t){1, 900.0, 1270.0 - 28.575 - gap};
        s.n = 2;
        s.speed = 500.0 + 80.0 * (q % 4);
        s.heading_deg = 90.0;
        s.seed = 4101 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 1, NULL);
        if (!tc)
            continue;
        total++;
        if (cushion_within(&c, 1, tc, 1.0 / s.fps))
            found++;
        if (getenv("LEAN_DEBUG")) {
            printf("\n   q %d truth %.4f:", q, tc->t);
            print_cushions(&c, 1, tc);
        }
    }
    CU_ASSERT(total == 12);
    CU_ASSERT(found >= 11);
    if (found < 11 || getenv("LEAN_DEBUG"))
        printf("\n  struck off a near cushion: %d of %d timed within a frame", found, total);
}

/* The cue ball, rolling along a cushion 20-40 mm off it, cuts an object
 * ball thinly on the table's side and is turned into the cushion, which
 * it meets two to five frames later, at 30 fps. The cushion contact is
 * timed from the way in after the collision, not from the path before it
 * (q 0: 45 ms late so; 720p30 clip 07's 4 at 5.80 s), and from the way out
 * through the lookahead frame, not only the one or two samples of it that
 * raised the distance (q 11: 48 ms late so). */
static void test_cushion_after_thin_cut(void)
{
    static rcase_t c;
    int found = 0, total = 0;

    for (int q = 0; q < 12; q++) {
        setup_t s;
        const cr_event_t *tc, *tk;
        const double gap = 20.0 + 10.0 * (q % 3), phi = (66.0 + 4.0 * (q % 4)) * 3.14159265358979323846 / 180.0;
        const double y0 = 1270.0 - 28.575 - gap;

        memset(&s, 0, sizeof(s));
        s.fps = 30.0;
        s.balls[0] = (cr_ball_pos_t){0, 500.0, y0};
        s.balls[1] = (cr_ball_pos_t){1, 800.0, y0 - 2.0 * 28.575 * sin(phi)};
        s.n = 2;
        s.speed = 1200.0 + 200.0 * (q / 4);
        s.heading_deg = 0.0;
        s.seed = 5101 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tk = find(c.truth, c.nt, CR_EV_COLLISION, -1, NULL);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 0, NULL);
        if (!tc || !tk || tc->t < tk->t || tc->rail != CR_RAIL_RIGHT)
            continue;
        total++;
        if (cushion_within(&c, 0, tc, 1.0 / s.fps))
            found++;
        if (getenv("LEAN_DEBUG")) {
            printf("\n   q %d blow %.4f cushion %.4f:", q, tk->t, tc->t);
            print_cushions(&c, 0, tc);
        }
    }
    CU_ASSERT(total >= 10);
    CU_ASSERT(found == total);
    if (found < total || getenv("LEAN_DEBUG"))
        printf("\n  cushion after a thin cut: %d of %d timed within a frame", found, total);
}

/* The cue ball comes off a cushion at 45 degrees into an object ball
 * waiting 12-30 mm out along its way off, at 1000-1600 mm/s, at 30 fps: it
 * meets the ball 14-53 ms after the cushion, often with one sighting
 * between. The collision is timed on the cue ball's way between the two
 * blows (between_blows(): the line from where its way in met the cushion
 * through those sightings), not on its segment after the cushion's kink,
 * fitted over samples after both blows: timed so, q 11 came 46 ms early
 * and q 1, 2, 6 and 7 15-28 ms late; on the way between, 8 ms or less.
 * q 10's collision is reported 38 ms early, before the cushion, either
 * way (not understood: a known miss). */
static void test_cushion_then_ball(void)
{
    static rcase_t c;
    int found = 0, total = 0, hits = 0;
    const double pi = 3.14159265358979323846;

    for (int q = 0; q < 12; q++) {
        setup_t s;
        const cr_event_t *tc, *tk;
        const double gap = 12.0 + 6.0 * (q % 4), sp = 1000.0 + 300.0 * (q / 4), hd = 45.0 * pi / 180.0;
        const double cy = 1270.0 - 28.575, cx = 300.0 + (cy - 600.0) / tan(hd);

        memset(&s, 0, sizeof(s));
        s.fps = 30.0;
        s.balls[0] = (cr_ball_pos_t){0, 300.0, 600.0};
        s.balls[1] = (cr_ball_pos_t){1, cx + (2.0 * 28.575 + gap) * cos(hd), cy - (2.0 * 28.575 + gap) * sin(hd)};
        s.n = 2;
        s.speed = sp;
        s.heading_deg = 45.0;
        s.seed = 6101 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tk = find(c.truth, c.nt, CR_EV_COLLISION, -1, NULL);
        tc = find(c.truth, c.nt, CR_EV_CUSHION, 0, NULL);
        if (!tc || !tk || tk->t < tc->t)
            continue;
        total++;
        if (cushion_within(&c, 0, tc, 1.0 / s.fps))
            found++;
        if (find_pair(c.got, c.ng, 0, 1, tk->t, 1.0 / s.fps))
            hits++;
        if (getenv("LEAN_DEBUG")) {
            const cr_event_t *g = find_pair(c.got, c.ng, 0, 1, NAN, 0);

            printf("\n   q %d cushion %.4f blow %.4f (reported %+.1f ms):", q, tc->t, tk->t,
                   g ? 1000 * (g->t - tk->t) : NAN);
            print_cushions(&c, 0, tc);
        }
    }
    CU_ASSERT(total >= 10);
    CU_ASSERT(found == total);
    CU_ASSERT(hits >= total - 1);
    if (found < total || hits < total - 1 || getenv("LEAN_DEBUG"))
        printf("\n  cushion then ball: %d of %d cushions, %d collisions timed within a frame", found, total, hits);
}

/* An object ball a few centimetres off a cushion, cut into it: it reaches
 * the cushion two or three frames after the collision. Each contact is
 * timed from the motion into it (the cue ball's path before the collision
 * is not the object ball's approach to the cushion). */
static void test_cushion_after_collision(void)
{
    static rcase_t c;
    setup_t s;
    const double gap_list[3] = {40.0, 60.0, 90.0};

    for (int q = 0; q < 3; q++) {
        const cr_event_t *tc, *gc, *tk, *gk;
        int ik = -1;
        double by = 1270.0 - 28.575 - gap_list[q];

        memset(&s, 0, sizeof(s));
        s.fps = 60.0;
        s.balls[0] = (cr_ball_pos_t){0, 1100.0, by - 500.0};
        s.balls[1] = (cr_ball_pos_t){1, 1500.0, by};
        s.n = 2;
        s.speed = 2500.0;
        /* at a ghost ball down and left of the 1: a cut toward the right cushion */
        s.heading_deg = atan2(500.0 - 40.0, 400.0 - 40.0) * 180.0 / 3.14159265358979323846;
        s.seed = 41 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tc = first_cue_contact(c.truth, c.nt, NULL);
        gc = first_cue_contact(c.got, c.ng, NULL);
        tk = find(c.truth, c.nt, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tk);
        CU_ASSERT(tk->t - tc->t < 5.0 / s.fps); /* the set-up: the cushion within a few frames */
        CU_ASSERT_EQUAL(other(gc), 1);
        CU_ASSERT_DOUBLE_EQUAL(gc->t, tc->t, 0.25 / s.fps);
        gk = find(c.got, c.ng, CR_EV_CUSHION, 1, &ik);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gk);
        CU_ASSERT_EQUAL(gk->rail, tk->rail);
        CU_ASSERT_DOUBLE_EQUAL(gk->t, tk->t, 0.5 / s.fps);
    }
}

/* An object ball a ball's width off a cushion, struck straight into it:
 * at 120 fps the frames see it on its way in and back out, so the contact
 * is timed from those samples, not predicted from the blow (it used to be
 * put one frame after the collision, two frames early). */
static void test_struck_into_near_cushion(void)
{
    static rcase_t c;
    static const struct {
        double fps, gap, speed;
    } cases[4] = {{120.0, 26.0, 900.0}, {120.0, 40.0, 1500.0}, {60.0, 26.0, 900.0}, {120.0, 12.0, 2000.0}};

    for (int q = 0; q < 4; q++) {
        setup_t s;
        const cr_event_t *tk, *gk;

        memset(&s, 0, sizeof(s));
        s.fps = cases[q].fps;
        s.balls[0] = (cr_ball_pos_t){0, 1200.0, 800.0};
        s.balls[1] = (cr_ball_pos_t){1, 1200.0, 1270.0 - 28.575 - cases[q].gap};
        s.n = 2;
        s.speed = cases[q].speed;
        s.heading_deg = 90.0;
        s.seed = 131 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tk = find(c.truth, c.nt, CR_EV_CUSHION, 1, NULL);
        gk = find(c.got, c.ng, CR_EV_CUSHION, 1, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tk);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gk);
        CU_ASSERT_EQUAL(gk->rail, tk->rail);
        CU_ASSERT_DOUBLE_EQUAL(gk->t, tk->t, 0.5 / s.fps);
        if (fabs(gk->t - tk->t) > 0.5 / s.fps)
            printf("\n  case %d: the 1's cushion at %.4f, found at %.4f", q, tk->t, gk->t);
    }
}

/* A ball running along the right cushion a little off it, into the side
 * pocket's mouth: it touches the far jaw's facing (nearly square to the
 * rail), not the nose line, and comes back out. The contact is timed from
 * the distance to the facing or the jaw point (cr_table_cushion_piece); the
 * nose line's distance says the ball was past it. */
static void test_jaw_contact(void)
{
    static rcase_t c;
    static const struct {
        double fps, off, end_y, speed;
    } cases[6] = {{60.0, 60.0, 1250.0, 1500.0}, {30.0, 60.0, 1250.0, 1500.0}, {120.0, 60.0, 1250.0, 1500.0},
                  {60.0, 90.0, 1254.0, 1800.0}, {30.0, 90.0, 1254.0, 1800.0}, {120.0, 90.0, 1254.0, 1800.0}};

    for (int q = 0; q < 6; q++) {
        setup_t s;
        const cr_event_t *tk, *gk = NULL;
        double y0 = 1270.0 - 28.575 - cases[q].off;

        memset(&s, 0, sizeof(s));
        s.fps = cases[q].fps;
        s.balls[0] = (cr_ball_pos_t){0, 400.0, y0};
        s.balls[1] = (cr_ball_pos_t){1, 600.0, 300.0};
        s.n = 2;
        s.speed = cases[q].speed;
        s.heading_deg = atan2(cases[q].end_y - y0, 1325.0 - 400.0) * 180.0 / 3.14159265358979323846;
        s.seed = 151 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        tk = find(c.truth, c.nt, CR_EV_CUSHION, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tk);
        /* the set-up: a jaw, where the ball is nearer the nose line than R */
        CU_ASSERT(1270.0 - tk->y < 28.575 - 3.0);
        CU_ASSERT_PTR_NULL(find(c.truth, c.nt, CR_EV_POCKET, 0, NULL));
        for (int k = 0; k < c.ng; k++)
            if (c.got[k].type == CR_EV_CUSHION && c.got[k].ball == 0 && !gk)
                gk = &c.got[k];
        CU_ASSERT_PTR_NOT_NULL_FATAL(gk);
        CU_ASSERT_EQUAL(gk->rail, tk->rail);
        CU_ASSERT_DOUBLE_EQUAL(gk->t, tk->t, 0.5 / s.fps);
        if (fabs(gk->t - tk->t) > 0.5 / s.fps || gk->rail != tk->rail)
            printf("\n  case %d: the jaw (%s) at %.4f (%.1f, %.1f), found %s at %.4f", q, cr_rail_name(tk->rail),
                   tk->t, tk->x, tk->y, cr_rail_name(gk->rail), gk->t);
    }
}

/* Whether the truth has ball 0 meet a cushion and drop within 0.1 s after:
 * a jaw met on its way into a pocket. The cushion contact, or NULL. */
static const cr_event_t *jaw_then_pot(const rcase_t *c)
{
    const cr_event_t *tk = find(c->truth, c->nt, CR_EV_CUSHION, 0, NULL), *tp = find(c->truth, c->nt, CR_EV_POCKET, 0, NULL);

    return tk && tp && tp->t > tk->t && tp->t - tk->t < 0.1 ? tk : NULL;
}

/* A ball rolled into a corner pocket a little off its middle meets a jaw
 * (its point or the facing behind it) and drops, hidden at once or seen in
 * a frame or two after the contact, too few for a kink: its course before
 * ran within R of the jaw, so it met it there. */
static void test_jaw_on_the_way_in(void)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    int set_up = 0, found = 0, false_cushions = 0;
    cr_table_t tab;
    cr_point_t ja, jb;
    double mw;

    /* the foot-right mouth: its jaw points on the right and foot cushions */
    cr_table_init(&tab, 2540.0, 1270.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_pocket_mouth(&tab, CR_POCKET_FOOT_RIGHT, &ja, &jb), 0);
    mw = hypot(jb.x - ja.x, jb.y - ja.y);
    for (int q = 0; q < 36; q++) {
        setup_t s;
        const cr_event_t *tk, *gk;
        /* aimed off the middle of the mouth, toward one jaw or the other */
        double d = ((q / 3) % 2 ? 1.0 : -1.0) * (22.0 + 2.0 * (q % 11)), ax, ay;

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q % 3];
        s.balls[0] = (cr_ball_pos_t){0, 2540.0 - 300.0 - 10.0 * (q % 4), 1270.0 - 300.0 + 10.0 * (q % 5)};
        s.balls[1] = (cr_ball_pos_t){1, 600.0, 300.0};
        s.n = 2;
        s.speed = 500.0 + 100.0 * (q % 6);
        ax = 0.5 * (ja.x + jb.x) + d * (jb.x - ja.x) / mw - s.balls[0].x;
        ay = 0.5 * (ja.y + jb.y) + d * (jb.y - ja.y) / mw - s.balls[0].y;
        s.heading_deg = atan2(ay, ax) * 180.0 / 3.14159265358979323846;
        s.seed = 1301 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        gk = find(c.got, c.ng, CR_EV_CUSHION, 0, NULL);
        if (!find(c.truth, c.nt, CR_EV_CUSHION, 0, NULL) && gk) {
            printf("\n  case %d: a %s cushion at %.4f, none met", q, cr_rail_name(gk->rail), gk->t);
            false_cushions++;
        }
        if (!(tk = jaw_then_pot(&c)))
            continue;
        set_up++;
        if (gk && gk->rail == tk->rail && fabs(gk->t - tk->t) <= 1.0 / s.fps)
            found++;
        else
            printf("\n  case %d: the %s jaw at %.4f, found %s at %.4f", q, cr_rail_name(tk->rail), tk->t,
                   gk ? cr_rail_name(gk->rail) : "none", gk ? gk->t : NAN);
    }
    /* the set-up: a dozen jaws met on the way in; two of them (120 fps)
     * met past the mouth after the ball was last seen, where nothing says
     * it had not dropped yet */
    CU_ASSERT(set_up >= 10);
    CU_ASSERT(found >= set_up - 2);
    CU_ASSERT_EQUAL(false_cushions, 0);
}

/* Whether cushion contact e was with a jaw point itself (not a nose or a
 * facing's line). */
static bool at_jaw_point(const cr_event_t *e)
{
    cr_table_t tab;
    cr_point_t a[2], b[2], on, p = {e->x, e->y};
    double dir[2];
    int n;

    cr_table_init(&tab, 2540.0, 1270.0);
    cr_table_cushion_piece(&tab, e->rail, p, &on, dir);
    n = cr_table_cushion_segments(&tab, e->rail, a, b);
    for (int k = 0; k < n; k++)
        if (hypot(on.x - a[k].x, on.y - a[k].y) < 1e-6 || hypot(on.x - b[k].x, on.y - b[k].y) < 1e-6)
            return true;
    return false;
}

/* A ball that meets a jaw point and stays on the table: its distance to the
 * point curves as it rolls past, so the contact is timed on the distance
 * along the line from the point through its centre at the contact, which
 * falls and rises straight; the nearest sample, often already past the
 * point and nearer the facing's line beyond it, does not choose the piece. */
static void test_jaw_point_timed(void)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    int set_up = 0, timed = 0;

    for (int q = 0; q < 48; q++) {
        setup_t s;
        /* meeting the right rail's jaw point of the side pocket (foot
         * side) with the contact normal at th from it, coming in along
         * heading ph */
        const double jx = 1334.29, jy = 1270.0, d2r = 3.14159265358979323846 / 180.0;
        const double th = (-100.0 - 5.0 * (q % 12)) * d2r, ph = (60.0 + 15.0 * (q % 5)) * d2r;
        double cx = jx + 28.575 * cos(th), cy = jy + 28.575 * sin(th);

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q % 3];
        s.balls[0] = (cr_ball_pos_t){0, cx - 400.0 * cos(ph), cy - 400.0 * sin(ph)};
        s.heading_deg = ph / d2r;
        s.balls[1] = (cr_ball_pos_t){1, 600.0, 300.0};
        s.n = 2;
        s.speed = 600.0 + 150.0 * (q % 7);
        s.seed = 1401 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        for (int k = 0; k < c.nt; k++) {
            const cr_event_t *tk = &c.truth[k], *gk = NULL;

            if (tk->type != CR_EV_CUSHION || tk->ball != 0 || !at_jaw_point(tk))
                continue;
            set_up++;
            for (int g = 0; g < c.ng; g++)
                if (c.got[g].type == CR_EV_CUSHION && c.got[g].ball == 0 && c.got[g].rail == tk->rail &&
                    (!gk || fabs(c.got[g].t - tk->t) < fabs(gk->t - tk->t)))
                    gk = &c.got[g];
            if (gk && fabs(gk->t - tk->t) <= 0.5 / s.fps)
                timed++;
            else
                printf("\n  case %d (%.0f fps): the %s jaw point at %.4f, found at %.4f", q, s.fps, cr_rail_name(tk->rail),
                       tk->t, gk ? gk->t : NAN);
        }
    }
    /* the set-up: over fifty jaw points met; four not timed: met on the
     * way into the pocket, seen a few frames after (their V not
     * significant, or its way out bent by the far jaw), and one 4.5 ms
     * early at 120 fps */
    CU_ASSERT(set_up >= 50);
    CU_ASSERT(timed >= set_up - 4);
}

static bool same_pair_ev(const cr_event_t *e, int a, int b)
{
    return (e->a == a && e->b == b) || (e->a == b && e->b == a);
}

/* The cue ball rolled slowly into the 1 (64 set-ups, cut 0-50 deg; 30
 * and 60 fps, a 720p detector's noise); those closing at 25-100 mm/s are
 * counted: the 1 rolls a few millimetres, each of its samples within the
 * onset threshold of its rest. Such a push is found from the mean of its
 * samples since the cue ball came within reach, away from it (nudged()):
 * 36 -> 39 of the 51 such contacts found within a frame; made up 9 -> 13,
 * all contacts found more than a frame off but one reported twice (set-up
 * 17, before and after). And the cue ball rolled slowly past the 1,
 * missing it by 1-6 mm, both seen leaning 1.5 mm toward each other (as a
 * detector sees two balls side by side): no contact made up. */
static void test_gentle_contacts(void)
{
    static rcase_t c;
    int gentle = 0, found = 0, made_up = 0, passes = 0, passes_made_up = 0;

    for (int q = 0; q < 96; q++) {
        setup_t s;
        const bool pass = q >= 64;
        const double cut = pass ? 0.0 : (q % 6) * 10.0 * 3.14159265358979323846 / 180.0;
        const double off = pass ? 2.0 * 28.575 + 1.0 + (q % 6) : 2.0 * 28.575 * sin(cut);

        memset(&s, 0, sizeof(s));
        s.fps = q % 2 ? 60.0 : 30.0;
        s.balls[0] = (cr_ball_pos_t){0, 1000.0, 500.0};
        s.balls[1] = (cr_ball_pos_t){1, 1290.0 + 10.0 * ((q / 6) % 6), 500.0 + off * (q % 4 < 2 ? 1.0 : -1.0)};
        s.n = 2;
        s.speed = 330.0;
        s.heading_deg = 0.0;
        s.ball_lean = pass ? 1.5 : 0.0;
        s.noise_scale = 1.6;
        s.seed = 9100 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        for (int k = 0; k < c.nt; k++)
            if (c.truth[k].type == CR_EV_COLLISION && !pass && c.vn[k] >= 25.0 && c.vn[k] <= 100.0) {
                const cr_event_t *g = find_pair(c.got, c.ng, 0, 1, c.truth[k].t, 1.0 / s.fps);

                gentle++;
                found += g != NULL;
                if (!g && getenv("GENTLE_DEBUG"))
                    printf("\n  %d: met at %.0f mm/s, not found", q, c.vn[k]);
            }
        passes += pass;
        for (int k = 0; k < c.ng; k++)
            if (c.got[k].type == CR_EV_COLLISION &&
                !find_pair(c.truth, c.nt, c.got[k].a, c.got[k].b, c.got[k].t, 1.0 / s.fps)) {
                made_up++;
                passes_made_up += pass;
            }
    }
    CU_ASSERT(gentle >= 45);
    CU_ASSERT(found >= 39);
    CU_ASSERT(made_up <= 13);
    CU_ASSERT_EQUAL(passes_made_up, 0);
    if (found < 39 || made_up > 13 || passes_made_up > 0 || getenv("GENTLE_DEBUG"))
        printf("\n  %d of %d gentle contacts found, %d made up (%d in %d passes)", found, gentle, made_up,
               passes_made_up, passes);
}

/* The cue ball drives the 1 into the 2, resting a few millimetres beyond
 * it: the 1 meets the 2 within a frame of its own start, too soon for its
 * path to time that contact (the first estimate from the paths came a
 * frame or more late); the blow's speed along the line of centres closes
 * the gap. */
static void test_struck_into_a_near_ball(void)
{
    static rcase_t c;
    static const double fps_list[2] = {60.0, 120.0};
    int set_up = 0, timed = 0;

    for (int q = 0; q < 32; q++) {
        setup_t s;
        const double gap = 1.5 + 1.0 * (q % 8), ang = (-20.0 + 5.0 * (q % 9)) * 3.14159265358979323846 / 180.0;
        const cr_event_t *tk = NULL, *gk = NULL;

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q % 2];
        s.balls[0] = (cr_ball_pos_t){0, 800.0, 635.0};
        s.balls[1] = (cr_ball_pos_t){1, 1400.0, 635.0 + 2.0 * (q % 5)};
        s.balls[2] = (cr_ball_pos_t){2, 1400.0 + (57.15 + gap) * cos(ang), 635.0 + 2.0 * (q % 5) + (57.15 + gap) * sin(ang)};
        s.n = 3;
        s.speed = 1200.0 + 200.0 * (q % 4);
        s.heading_deg = 0.0;
        s.seed = 1501 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        for (int k = 0; k < c.nt && !tk; k++)
            if (c.truth[k].type == CR_EV_COLLISION && same_pair_ev(&c.truth[k], 1, 2))
                tk = &c.truth[k];
        if (!tk)
            continue;
        set_up++;
        for (int k = 0; k < c.ng; k++)
            if (c.got[k].type == CR_EV_COLLISION && same_pair_ev(&c.got[k], 1, 2) &&
                (!gk || fabs(c.got[k].t - tk->t) < fabs(gk->t - tk->t)))
                gk = &c.got[k];
        if (gk && fabs(gk->t - tk->t) <= 1.0 / s.fps)
            timed++;
        else
            printf("\n  case %d (%.0f fps, gap %.1f mm): the 1 met the 2 at %.4f, found at %.4f", q, s.fps, gap, tk->t,
                   gk ? gk->t : NAN);
    }
    /* the set-up: 32 such contacts; four not timed: at 60 fps a gap of
     * 1.5 mm gives no contact of the pair at all (three), and one comes
     * 9 ms late at 120 fps (the 1's own contact not yet reported when the
     * 2's start is explained) */
    CU_ASSERT(set_up >= 30);
    CU_ASSERT(timed >= set_up - 4);
}

/* A ball rolled straight into a corner pocket, its track jittering over
 * the mouth (the hole behind it, the jaws' shading: real detections there
 * scatter by several mm): it touches no jaw, and a kink in its noisy track
 * there is no cushion. */
static void test_straight_into_corner(void)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    int false_cushions = 0;

    for (int q = 0; q < 24; q++) {
        setup_t s;

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q % 3];
        s.balls[0] = (cr_ball_pos_t){0, 2540.0 - 180.0 - 6.0 * q, 1270.0 - 180.0 - 6.0 * q};
        s.balls[1] = (cr_ball_pos_t){1, 600.0, 300.0};
        s.n = 2;
        s.speed = 450.0 + 50.0 * (q % 4);
        s.heading_deg = 45.0 + 0.5 * (q % 5 - 2); /* through the middle of the mouth */
        s.mouth_sigma = 4.0;
        s.seed = 971 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        /* the set-up: pocketed, touching nothing on the way */
        CU_ASSERT_PTR_NOT_NULL(find(c.truth, c.nt, CR_EV_POCKET, 0, NULL));
        CU_ASSERT_PTR_NULL(find(c.truth, c.nt, CR_EV_CUSHION, 0, NULL));
        CU_ASSERT_PTR_NOT_NULL(find(c.got, c.ng, CR_EV_POCKET, 0, NULL));
        if (find(c.got, c.ng, CR_EV_CUSHION, 0, NULL)) {
            const cr_event_t *gk = find(c.got, c.ng, CR_EV_CUSHION, 0, NULL);

            printf("\n  case %d: a %s cushion at %.4f (%.1f, %.1f)", q, cr_rail_name(gk->rail), gk->t, gk->x, gk->y);
            false_cushions++;
        }
    }
    CU_ASSERT_EQUAL(false_cushions, 0);
}

/* Plays the cue ball from (1000, 600) straight along +x at speed into the
 * 1 at (x1, y1), filmed at fps, the 2 resting at two (NULL: none): the
 * families of soft, thin and cut contacts. */
static void play_along_x(rcase_t *c, double fps, double x1, double y1, const double two[2], double speed,
                         uint64_t seed)
{
    setup_t s;

    memset(&s, 0, sizeof(s));
    s.fps = fps;
    s.balls[0] = (cr_ball_pos_t){0, 1000.0, 600.0};
    s.balls[1] = (cr_ball_pos_t){1, x1, y1};
    s.n = 2;
    if (two)
        s.balls[s.n++] = (cr_ball_pos_t){2, two[0], two[1]};
    s.speed = speed;
    s.heading_deg = 0.0;
    s.seed = seed;
    CU_ASSERT_EQUAL_FATAL(play(&s, c), 0);
}

static void play_into_the_1(rcase_t *c, double fps, double x1, double y1, double speed, uint64_t seed)
{
    play_along_x(c, fps, x1, y1, NULL, speed, seed);
}

/* The cue ball (at (1000, 600), heading along x) at speed cutting the 1 at
 * cut_deg from dist mm: the 1 placed so that the ghost ball lies on the
 * cue ball's line. With beside >= 0 the 2 rests that far off the 1, square
 * to the way the 1 leaves (on the side away from the cue ball). */
static void play_cut_into_the_1(rcase_t *c, double fps, double dist, double cut_deg, double speed, double beside,
                                uint64_t seed)
{
    const double cut = cut_deg * 3.14159265358979323846 / 180.0;
    const double x1 = 1000.0 + dist + 57.15 * cos(cut), y1 = 600.0 + 57.15 * sin(cut);
    const double two[2] = {x1 - (57.15 + beside) * sin(cut), y1 + (57.15 + beside) * cos(cut)};

    play_along_x(c, fps, x1, y1, beside >= 0.0 ? two : NULL, speed, seed);
}

/* The error in frames at fps of c's first cue-ball contact, when the
 * truth's is with the 1: 1 with it in *e, -1 when none was reported, 0
 * when the truth's first contact is not with the 1. */
static int first_contact_error(const rcase_t *c, double fps, double *e)
{
    const cr_event_t *tc = first_cue_contact(c->truth, c->nt, NULL), *gc;

    if (!tc || other(tc) != 1)
        return 0;
    if (!(gc = first_cue_contact(c->got, c->ng, NULL)))
        return -1;
    CU_ASSERT_EQUAL(other(gc), 1);
    *e = fabs(gc->t - tc->t) * fps;
    return 1;
}

/* Slow cuts (play_cut_into_the_1()) at 30, 60 and 120 fps in turn, set-up
 * q = 0..nq-1: from 150 + 30 (q % 4) mm, at 50 + 5 (q % cut_mod) degrees,
 * at sp0 + 50 (q % sp_mod) mm/s, the 2 beside the 1 as `beside` says,
 * seed seed0 + q. Counts the first contacts with the 1 found (*n), not
 * found (*missing) and found over a frame off (*far); their mean error in
 * frames (0 with none found). */
static double slow_cut_cases(int nq, int cut_mod, double sp0, int sp_mod, double beside, uint64_t seed0, int *n,
                             int *missing, int *far)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    double sum = 0;

    *n = *missing = *far = 0;
    for (int q = 0; q < nq; q++) {
        double e;
        int got;

        play_cut_into_the_1(&c, fps_list[q % 3], 150.0 + 30.0 * (q % 4), 50.0 + 5.0 * (q % cut_mod),
                            sp0 + 50.0 * (q % sp_mod), beside, seed0 + (uint64_t)q);
        got = first_contact_error(&c, fps_list[q % 3], &e);
        *missing += got < 0;
        if (got > 0) {
            sum += e;
            *far += e > 1.0;
            (*n)++;
        }
    }
    return *n > 0 ? sum / *n : 0.0;
}

/* Slow cuts: the cue ball at 250-450 mm/s cuts the 1 at 50-80 degrees from
 * 15-24 cm, at 30, 60 and 120 fps (90 set-ups; 13 miss the 1). The 1
 * leaves slowly, its start is dated late, and the contact found from the
 * paths can be frames late; refine_contact() then fits both balls'
 * samples on a grid of times around it, and when the best time lay at the
 * grid's edge it kept the contact as found. The grid is now widened
 * once, to twice its span: of these cases three are retimed nearer the
 * truth (5.0 -> 2.7 frames, 4.1 -> 3.6, 1.8 -> 1.3), none farther, the mean
 * error over those found 1.03 -> 0.98 frame. Of the times on the grid that
 * fit about as well, the one nearest the contact as found was taken: the
 * cue ball's path fitted up to a time after the contact bends to take in
 * its way out, and fits there about as well as at the truth. The time
 * the cue ball's way in, seen before the grid, reaches 2R of the 1's place
 * (paths_meet()) is now weighed in with its standard error: over a frame
 * off 22 -> 7 of the 60, mean error 0.98 -> 0.64 frame. The cue balls that
 * reach the 1
 * creeping (17 here, 0.8-1.9 s after the stroke) find no contact, the
 * weakness test_creeping_contacts() bounds. */
static void test_slow_cuts(void)
{
    int n, missing, far;
    const double mean = slow_cut_cases(90, 7, 250.0, 5, -1.0, 2601, &n, &missing, &far);

    CU_ASSERT(n >= 60);
    CU_ASSERT(missing <= 17);
    CU_ASSERT(n > 0 && mean <= 0.7);
    CU_ASSERT(far <= 8);
    if (n < 60 || missing > 17 || mean > 0.7 || far > 8)
        printf("\n  %d contacts found, %d missed, mean error %.2f frame, %d over a frame", n, missing, mean, far);
}

/* Slow cuts of a ball resting beside another: as in test_slow_cuts() (45
 * set-ups, 300-400 mm/s, 50-70 degrees), with the 2 resting 0.75 mm off
 * the 1, square to the way the 1 leaves, so that the 1 leaves it and the 2
 * stays. refine_contact() took a resting ball within 2R + contact_tol of
 * a third for a rack that passes the blow on, and kept the contact found
 * from the paths (1080p60 clip 03's 8, struck by the 10 beside the resting
 * 9 after a break, 17.5 ms late); a third ball that stayed where it rested
 * through the grid's span, as far as seen, passed nothing on, and the
 * contact is refined. Of the 41 contacts found: mean error 1.21 -> 0.95
 * frame, over a frame off 23 -> 17; with the way in weighed in
 * (test_slow_cuts()), 0.95 -> 0.79 frame, 17 -> 12. */
static void test_slow_cuts_beside_a_ball(void)
{
    int n, missing, far;
    const double mean = slow_cut_cases(45, 5, 300.0, 3, 0.75, 2701, &n, &missing, &far);

    CU_ASSERT(n >= 40);
    CU_ASSERT(n > 0 && mean <= 0.88);
    CU_ASSERT(far <= 13);
    if (n < 40 || mean > 0.88 || far > 13)
        printf("\n  %d contacts found, mean error %.2f frame, %d over a frame", n, mean, far);
}

/* Soft contacts: the cue ball rolled at 300-420 mm/s into the 1 from 12-18
 * cm away, at 30, 60 and 120 fps. Until the kink at the contact is found,
 * the cue ball's fitted path runs over it, bent by the samples after it
 * (the cue ball slows or stops there), and meets the 1 late; the contact
 * is timed from the cue ball's samples before the 1 set off
 * (path_before()). Over these 60 cases the timing error averaged 0.54
 * frame, 25 of them over half a frame (all late); 0.41 and 17 with this,
 * 0.34 and 17 once thin cuts' early contacts are found too (EARLY_S). Slow
 * contacts stay the weakest timed: the bounds below hold what is reached. */
static void test_soft_contacts(void)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    double sum = 0;
    int late = 0, n = 0;

    for (int q = 0; q < 60; q++) {
        const cr_event_t *tc, *gc;
        double e, fps = fps_list[q % 3];

        play_into_the_1(&c, fps, 1000.0 + 57.15 + 120.0 + 15.0 * ((q / 3) % 5), 600.0 + 3.0 * (q % 4),
                        300.0 + 40.0 * (q / 15), 1401 + (uint64_t)q);
        first_contacts_with_1(&c, &tc, &gc, NULL);
        e = fabs(gc->t - tc->t) * fps;
        sum += e;
        n++;
        if (e > 0.5)
            late++;
    }
    if (sum / n > 0.45 || late > 20)
        printf("\n  mean error %.2f frame, %d of %d over half a frame", sum / n, late, n);
    CU_ASSERT(sum / n <= 0.45);
    CU_ASSERT(late <= 20);
}

/* Thin cuts: the cue ball at 600-900 mm/s cuts the 1 at 70-82 degrees from
 * 30-38 cm, at 30, 60 and 120 fps. The 1 leaves at 40-150 mm/s and creeps
 * under the onset threshold for frames, so its start is dated late; the
 * search for its hitter then found the cue ball already touching it at the
 * window's start and called a doubtful contact (confidence 0.3) at the
 * start's time, up to 5 frames late. A hitter that came from afar and is
 * found touching has its contact where its path first reached the ball.
 * Over these 60 cases: doubtful contacts 2 -> 0, mean error 0.85 -> 0.72
 * frame. Thin cuts stay badly timed at 120 fps (up to 4.4 frames late in
 * one case here, a start dated late without the touching sign). */
static void test_thin_cuts(void)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    double sum = 0;
    int doubtful = 0, n = 0;

    for (int q = 0; q < 60; q++) {
        const cr_event_t *tc, *gc;
        double fps = fps_list[q % 3];

        play_cut_into_the_1(&c, fps, 300.0 + 20.0 * (q % 5), 70.0 + 2.0 * (q % 7), 600.0 + 100.0 * (q % 4), -1.0,
                            1501 + (uint64_t)q);
        first_contacts_with_1(&c, &tc, &gc, NULL);
        if (gc->confidence < 0.9) {
            printf("\n  case %d (%.0f fps): a doubtful contact (%.1f) at %.4f, the truth's at %.4f", q, fps,
                   gc->confidence, gc->t, tc->t);
            doubtful++;
        }
        sum += fabs(gc->t - tc->t) * fps;
        n++;
    }
    CU_ASSERT_EQUAL(doubtful, 0);
    CU_ASSERT(sum / n <= 0.8);
    if (sum / n > 0.8)
        printf("\n  mean error %.2f frame", sum / n);
}

/* The cue ball struck hard into the 1 1-8 mm away, at 30, 60 and 120 fps:
 * both start within a frame. The stroke, dated from the cue ball's onset,
 * came after the contact (timed from the paths) in 6 of these 48 shots,
 * and a contact before its stroke belongs to no shot (the engine called no
 * contact); at 120 fps and 2 m/s the contact was not found at all in 4
 * (the cue ball stopped dead within the frame: no path, and not touching,
 * so not the frozen ball's start either). The stroke is moved back to a
 * contact timed before it, and a ball 2R + NEAR_GAP_MM off the cue ball
 * that sets off straight away from it with the stroke was struck by it. */
static void test_contact_before_stroke(void)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    int bad = 0;

    for (int q = 0; q < 48; q++) {
        double fps = fps_list[q % 3], gap = 1.0 + (q / 3) % 8;
        const cr_event_t *st, *gc;
        int ig;

        play_into_the_1(&c, fps, 1000.0 + 57.15 + gap, 600.0 + 3.0 * (q % 5), 1500.0 + 500.0 * (q / 24),
                        1801 + (uint64_t)q);
        st = find(c.got, c.ng, CR_EV_STROKE, -1, NULL);
        gc = first_cue_contact(c.got, c.ng, &ig);
        if (!st || !gc || gc->t < st->t || gc->shot != st->shot || other(gc) != 1) {
            printf("\n  case %d (%.0f fps, %.0f mm): stroke %.4f shot %d, contact %.4f shot %d with %d", q, fps, gap,
                   st ? st->t : NAN, st ? st->shot : -9, gc ? gc->t : NAN, gc ? gc->shot : -9, gc ? other(gc) : -9);
            bad++;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* Creeping contacts: the cue ball rolls up to the 1 and arrives at 40-120
 * mm/s, at 30, 60 and 120 fps; the 1 creeps off a few millimetres. A
 * weakness this guards, not a solved case: such a ball stays within the
 * noise of its rest for many frames while its rest and the scatter
 * measured there follow it, until the threshold outgrows the move, and 2
 * of these 45 contacts are never found (a legal roll-up called no
 * contact). A running mean of the offsets found them, but on video it
 * also took a resting ball's fit pulled by a ball passing it for a start
 * (false contacts: on 720p30 first contact 298 -> 296, rulings 298 ->
 * 295), so it was not kept.
 * The bounds hold what is reached. */
static void test_creeping_contacts(void)
{
    static rcase_t c;
    static const double fps_list[3] = {30.0, 60.0, 120.0};
    int off = 0, missed = 0, n = 0;
    double sum = 0;

    for (int q = 0; q < 45; q++) {
        const cr_event_t *tc, *gc;
        double fps = fps_list[q % 3], v_in = 40.0 + 20.0 * ((q / 3) % 5), gap = 100.0 + 20.0 * (q / 15), v0;

        /* struck without spin it slides to 5/7 of its speed, then rolls
         * against mu_roll g = 98 mm/s^2 (the gap less the short slide) */
        v0 = 1.4 * sqrt(v_in * v_in + 2.0 * 98.07 * gap);
        play_into_the_1(&c, fps, 1000.0 + 57.15 + gap, 600.0 + 4.0 * (q % 4), v0, 1601 + (uint64_t)q);
        tc = first_cue_contact(c.truth, c.nt, NULL);
        gc = first_cue_contact(c.got, c.ng, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tc);
        n++;
        if (!gc || other(gc) != 1) {
            printf("\n  case %d (%.0f fps, in at %.0f mm/s): no contact with the 1", q, fps, v_in);
            missed++;
            continue;
        }
        sum += fabs(gc->t - tc->t) * fps;
        if (fabs(gc->t - tc->t) * fps > 1.0)
            off++;
    }
    if (missed > 2 || off > 12)
        printf("\n  %d missed, %d of %d over a frame off, mean %.2f frame", missed, off, n, sum / (n - missed));
    CU_ASSERT(missed <= 2);
    CU_ASSERT(off <= 12);
}

/* A frozen row of three: the blow goes through the middle ball to the far
 * one, which may be seen moving before the others. Every start has a
 * cause (collisions, in doubt inside the cluster), none is disturbed. */
static void test_frozen_row(void)
{
    static rcase_t c;
    setup_t s;
    const double fps_list[2] = {60.0, 120.0};

    for (int q = 0; q < 2; q++) {
        const cr_event_t *gk;

        memset(&s, 0, sizeof(s));
        s.fps = fps_list[q];
        s.balls[0] = (cr_ball_pos_t){0, 700.0, 635.0};
        s.balls[1] = (cr_ball_pos_t){1, 1300.0, 635.0};
        s.balls[2] = (cr_ball_pos_t){2, 1300.0 + 57.16, 635.0};
        s.balls[3] = (cr_ball_pos_t){3, 1300.0 + 2 * 57.16, 635.0 + 1.0};
        s.n = 4;
        s.speed = 3000.0;
        s.heading_deg = 0.0;
        s.seed = 31 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        gk = first_cue_contact(c.got, c.ng, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gk);
        CU_ASSERT_EQUAL(other(gk), 1);
        CU_ASSERT_EQUAL(count(c.got, c.ng, CR_EV_DISTURBED, -1), 0);
        CU_ASSERT_EQUAL(count(c.got, c.ng, CR_EV_STROKE, -1), 1);
        /* the far ball was hit by its neighbour */
        CU_ASSERT_PTR_NOT_NULL(find_pair(c.got, c.ng, 2, 3, NAN, 0));
    }
}

/* Double hit (6.7): synthetic tracks of a cue ball struck 10 mm from the
 * 1 that, after the contact, goes on along the line of centres at 30 % of
 * its speed (the tip pushed it again; a single impact leaves it about 5 %
 * plus what friction on its spin adds). A suspicion below certainty. Then
 * the same close stroke played by the physics (a single impact, with
 * follow): no suspicion that the rules would call. */
static void test_double_hit(void)
{
    static rcase_t c;
    cr_table_t tab;
    cr_recon_t *rc = NULL;
    cr_recon_params_t rp;
    cr_ball_frame_t *fr = calloc(1, sizeof(*fr));
    cr_event_t *out = calloc(128, sizeof(*out));
    const double fps = 60.0, R = 28.575, x0 = 1000.0, y0 = 635.0, gap = 10.0, v0 = 2000.0, ts = 1.0;
    const double tc = ts + gap / v0;
    int n, k, dh = 0;
    double conf = 0;
    setup_t s;

    CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    rng = 41;
    cr_table_init(&tab, 2540.0, 1270.0);
    cr_recon_params_defaults(&rp);
    rp.fps = fps;
    /* mid-table: a second blow (the cue ball goes on at 0.3 of its speed);
     * then the same motion along a cushion (both balls touching it), where
     * the cue ball's motion is the cushion's as much as the blow's: no call */
    for (int q = 0; q < 2; q++) {
        const double yb = q == 0 ? y0 : R + 0.5;

        dh = 0;
        CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, &rp, &rc), 0);
        for (k = 0; k < (int)(2.5 * fps); k++) {
            double t = k / fps, cx = x0, ox = x0 + 2.0 * R + gap;

            if (t > tc) {
                cx = x0 + gap + 0.3 * v0 * (t - tc);
                ox += 0.7 * v0 * (t - tc);
            } else if (t > ts) {
                cx = x0 + v0 * (t - ts);
            }
            memset(fr, 0, sizeof(*fr));
            fr->t = t;
            fr->frame = (uint64_t)k;
            fr->n = 3;
            fr->balls[0] = (cr_ball_obs_t){.id = 0, .x = cx + 0.5 * gauss(), .y = yb + 0.5 * gauss(), .sigma_mm = 0.5,
                                           .status = CR_BALL_SEEN};
            fr->balls[1] = (cr_ball_obs_t){.id = 1, .x = ox + 0.5 * gauss(), .y = yb + 0.5 * gauss(), .sigma_mm = 0.5,
                                           .status = CR_BALL_SEEN};
            fr->balls[2] = (cr_ball_obs_t){.id = 2, .x = 500 + 0.5 * gauss(), .y = 300 + 0.5 * gauss(),
                                           .sigma_mm = 0.5, .status = CR_BALL_SEEN};
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(rc, fr, out, 128, &n), 0);
            for (int j = 0; j < n; j++)
                if (out[j].type == CR_EV_DOUBLE_HIT) {
                    dh++;
                    conf = out[j].confidence;
                    CU_ASSERT_EQUAL(out[j].ball, 1);
                    CU_ASSERT_DOUBLE_EQUAL(out[j].t, tc, 1.0 / fps);
                }
        }
        CU_ASSERT_EQUAL(dh, q == 0 ? 1 : 0);
        if (q == 0) {
            CU_ASSERT(conf >= 0.5 && conf < 1.0);
        }
        cr_recon_destroy(rc);
    }
    free(fr);
    free(out);

    /* the physics: one impact from 10 mm, with follow and with stun */
    for (int q = 0; q < 2; q++) {
        memset(&s, 0, sizeof(s));
        s.fps = 60.0;
        s.balls[0] = (cr_ball_pos_t){0, x0, y0};
        s.balls[1] = (cr_ball_pos_t){1, x0 + 2.0 * R + gap, y0 + 3.0};
        s.balls[2] = (cr_ball_pos_t){2, 500.0, 300.0};
        s.n = 3;
        s.speed = 2000.0;
        s.heading_deg = 0.0;
        s.tip_b = q == 0 ? 0.4 : 0.0;
        s.seed = 43 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        CU_ASSERT_PTR_NOT_NULL(find_pair(c.got, c.ng, 0, 1, NAN, 0));
        for (k = 0; k < c.ng; k++)
            if (c.got[k].type == CR_EV_DOUBLE_HIT)
                CU_ASSERT(c.got[k].confidence < 0.5);
    }
}

/* The cue ball put down by hand 20 mm from where it lay (less than R), its
 * first sight blurred (sigma 2 mm): placed, not a stroke; no ball can jump
 * that far in a frame and stop. */
static void test_placed_nearby(void)
{
    const double fps_list[3] = {30.0, 60.0, 120.0};

    for (int q = 0; q < 3; q++) {
        cr_table_t tab;
        cr_recon_t *rc = NULL;
        cr_recon_params_t rp;
        cr_ball_frame_t *fr = calloc(1, sizeof(*fr));
        cr_event_t *out = calloc(128, sizeof(*out));
        double fps = fps_list[q];
        int n, k, placed = 0, strokes = 0;

        CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        rng = 47 + (uint64_t)q;
        cr_table_init(&tab, 2540.0, 1270.0);
        cr_recon_params_defaults(&rp);
        rp.fps = fps;
        CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, &rp, &rc), 0);
        for (k = 0; k < (int)(2.0 * fps); k++) {
            double t = k / fps, x = t < 1.0 ? 485.0 : 476.6, y = t < 1.0 ? 555.0 : 536.9;
            double sg = (t >= 1.0 && t < 1.0 + 1.0 / fps) ? 2.0 : 0.5;

            memset(fr, 0, sizeof(*fr));
            fr->t = t;
            fr->frame = (uint64_t)k;
            fr->n = 2;
            fr->balls[0] = (cr_ball_obs_t){.id = 0, .x = x + sg * gauss(), .y = y + sg * gauss(), .sigma_mm = sg,
                                           .status = CR_BALL_SEEN};
            fr->balls[1] = (cr_ball_obs_t){.id = 1, .x = 1900 + 0.5 * gauss(), .y = 635 + 0.5 * gauss(),
                                           .sigma_mm = 0.5, .status = CR_BALL_SEEN};
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(rc, fr, out, 128, &n), 0);
            placed += count(out, n, CR_EV_PLACED, 0);
            strokes += count(out, n, CR_EV_STROKE, -1);
        }
        CU_ASSERT_EQUAL(cr_recon_finish(rc, out, 128, &n), 0);
        strokes += count(out, n, CR_EV_STROKE, -1);
        CU_ASSERT_EQUAL(placed, 1);
        CU_ASSERT_EQUAL(strokes, 0);
        cr_recon_destroy(rc);
        free(fr);
        free(out);
    }
}

/* The cue ball lifted off the table and put back down: the tracker sees the
 * ball put down as a new track with no number (-1), and names it the cue
 * ball only later (before the stroke, or only after it). Either way it is
 * the cue ball: placed where it was put down, then struck (a stroke, not a
 * touched ball). */
static void test_cue_back_unnamed(void)
{
    const double id_at[2] = {2.0, 2.8};

    for (int q = 0; q < 2; q++) {
        cr_table_t tab;
        cr_recon_t *rc = NULL;
        cr_recon_params_t rp;
        cr_ball_frame_t *fr = calloc(1, sizeof(*fr));
        cr_event_t *out = calloc(128, sizeof(*out)), got[256];
        const double fps = 30.0;
        int n, k, ng = 0, placed = 0, strokes = 0, disturbed = 0;
        double t_placed = NAN, x_placed = NAN, t_stroke = NAN;

        CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        rng = 61 + (uint64_t)q;
        cr_table_init(&tab, 2540.0, 1270.0);
        cr_recon_params_defaults(&rp);
        rp.fps = fps;
        CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, &rp, &rc), 0);
        for (k = 0; k < (int)(4.0 * fps); k++) {
            double t = k / fps, x = 600.0, y = 400.0;

            memset(fr, 0, sizeof(*fr));
            fr->t = t;
            fr->frame = (uint64_t)k;
            fr->balls[fr->n++] = (cr_ball_obs_t){.id = 1, .track = 1, .x = 1900 + 0.5 * gauss(),
                                                 .y = 635 + 0.5 * gauss(), .sigma_mm = 0.5, .status = CR_BALL_SEEN};
            /* the first cue ball: at rest, lifted away at 0.5 s */
            fr->balls[fr->n++] = (cr_ball_obs_t){.id = 0, .track = 0, .x = 1200 + 0.5 * gauss(), .y = 300,
                                                 .sigma_mm = 0.5,
                                                 .status = t < 0.5 ? CR_BALL_SEEN : CR_BALL_GONE};
            if (t >= 1.5) {
                /* put down at (600, 400) at 1.5 s; struck along +x at 2.5 s
                 * (1 m/s, slowing at 2 m/s^2) */
                if (t > 2.5) {
                    double u = fmin(t - 2.5, 0.5);

                    x += 1000.0 * u - 1000.0 * u * u;
                }
                fr->balls[fr->n++] = (cr_ball_obs_t){.id = t >= id_at[q] ? 0 : -1, .track = 7,
                                                     .x = x + 0.5 * gauss(), .y = y + 0.5 * gauss(),
                                                     .sigma_mm = 0.5, .status = CR_BALL_SEEN};
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(rc, fr, out, 128, &n), 0);
            for (int i = 0; i < n && ng < 256; i++)
                got[ng++] = out[i];
        }
        CU_ASSERT_EQUAL(cr_recon_finish(rc, out, 128, &n), 0);
        for (int i = 0; i < n && ng < 256; i++)
            got[ng++] = out[i];
        for (k = 0; k < ng; k++) {
            if (got[k].type == CR_EV_PLACED && got[k].ball == 0) {
                placed++;
                t_placed = got[k].t;
                x_placed = got[k].x;
            }
            if (got[k].type == CR_EV_STROKE) {
                strokes++;
                t_stroke = got[k].t;
            }
            disturbed += got[k].type == CR_EV_DISTURBED;
        }
        CU_ASSERT_EQUAL(strokes, 1);
        CU_ASSERT_DOUBLE_EQUAL(t_stroke, 2.5, 2.0 / fps);
        CU_ASSERT_EQUAL(placed, 1);
        CU_ASSERT_DOUBLE_EQUAL(t_placed, 1.5, 1.0 / fps);
        CU_ASSERT_DOUBLE_EQUAL(x_placed, 600.0, 2.0);
        CU_ASSERT_EQUAL(disturbed, 0);
        cr_recon_destroy(rc);
        free(fr);
        free(out);
    }
}

/* A recon on a 9 ft table at fps, with a frame and 128 events to fill, the
 * noise seeded. */
typedef struct {
    cr_recon_t *rc;
    cr_ball_frame_t *fr;
    cr_event_t *out;
} rfix_t;

static double rfix_unseen_wait; /* the params' unseen_wait_s (0: the default) */

static void rfix_open_game(rfix_t *f, double fps, uint64_t seed, bool game)
{
    cr_table_t tab;
    cr_recon_params_t rp;

    f->rc = NULL;
    f->fr = calloc(1, sizeof(*f->fr));
    f->out = calloc(128, sizeof(*f->out));
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->fr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->out);
    rng = seed;
    cr_table_init(&tab, 2540.0, 1270.0);
    cr_recon_params_defaults(&rp);
    rp.fps = fps;
    rp.stay_down = game;
    rp.unseen_wait_s = rfix_unseen_wait;
    CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, &rp, &f->rc), 0);
}

static void rfix_open(rfix_t *f, double fps, uint64_t seed)
{
    rfix_open_game(f, fps, seed, true);
}

static void rfix_close(rfix_t *f)
{
    cr_recon_destroy(f->rc);
    free(f->fr);
    free(f->out);
}

/* Starts frame k at time t, with no balls yet. */
static void rfix_frame(rfix_t *f, double t, int k)
{
    memset(f->fr, 0, sizeof(*f->fr));
    f->fr->t = t;
    f->fr->frame = (uint64_t)k;
}

/* Adds a seen ball at (x, y) plus Gaussian noise of spread noise mm, with
 * the detector's sigma. */
static cr_ball_obs_t *rfix_ball(rfix_t *f, int id, int track, double x, double y, double noise, double sigma)
{
    cr_ball_obs_t *o = &f->fr->balls[f->fr->n++];
    double nx = gauss(), ny = gauss();

    *o = (cr_ball_obs_t){.id = id, .track = track, .x = x + noise * nx, .y = y + noise * ny, .sigma_mm = sigma,
                         .status = CR_BALL_SEEN};
    return o;
}

/* Pushes the frame (final: finishes instead) and returns how many events of
 * the type (and ball, when ball >= 0) came out. */
static int rfix_push(rfix_t *f, bool final, cr_event_type_t type, int ball)
{
    int n = 0;

    if (final) {
        CU_ASSERT_EQUAL(cr_recon_finish(f->rc, f->out, 128, &n), 0);
    } else {
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f->rc, f->fr, f->out, 128, &n), 0);
    }
    return count(f->out, n, type, ball);
}

/* Pushes the frame; counts the strokes out and the balls they list as moving. */
static void rfix_push_strokes(rfix_t *f, int *strokes, int *moving)
{
    int n;

    CU_ASSERT_EQUAL_FATAL(cr_recon_push(f->rc, f->fr, f->out, 128, &n), 0);
    for (int j = 0; j < n; j++)
        if (f->out[j].type == CR_EV_STROKE)
            (*strokes)++, *moving += f->out[j].n_moving;
}

/* Counts the strokes among the n events out (into *strokes) and notes
 * whether the nth stroke of the input (0: any) lists ball id (*listed). */
static void rfix_strokes_list(rfix_t *f, int n, int nth, int id, int *strokes, bool *listed)
{
    for (int j = 0; j < n; j++)
        if (f->out[j].type == CR_EV_STROKE && (++*strokes == nth || nth == 0))
            for (int b = 0; b < f->out[j].n_balls; b++)
                *listed = *listed || f->out[j].balls[b].id == id;
}

/* Finishes the input and closes: there were `want_strokes` strokes, and
 * the 5 was listed as wanted (case q). */
static void rfix_end_listed(rfix_t *f, int q, int want_strokes, int strokes, bool listed, bool want)
{
    rfix_push(f, true, CR_EV_STROKE, -1);
    CU_ASSERT_EQUAL(strokes, want_strokes);
    CU_ASSERT_EQUAL(listed, want);
    if (strokes != want_strokes || listed != want)
        printf("\n  case %d: %d strokes, the 5 %s", q, strokes, listed ? "listed" : "not listed");
    rfix_close(f);
}

/* Finishes the input and closes: there was one stroke, listing no ball as
 * still moving. */
static void rfix_end_one_still_stroke(rfix_t *f, int strokes, int moving)
{
    rfix_push(f, true, CR_EV_STROKE, -1);
    CU_ASSERT_EQUAL(strokes, 1);
    CU_ASSERT_EQUAL(moving, 0);
    if (strokes != 1 || moving)
        printf("\n  %d strokes, %d balls moving", strokes, moving);
    rfix_close(f);
}

/* Two balls rolling across each other's way pass 0.5-3 mm apart at 30 fps,
 * their fits jittering by 1 mm: their distance draws a V whose vertex
 * lies within a millimetre or two of 2R, but their relative motion runs
 * straight on, and no blow between them means no contact. The 24 passes
 * of seeds seed0 + q; returns the contacts made up. */
static int near_miss_cases(uint64_t seed0)
{
    int made_up = 0;

    for (int q = 0; q < 24; q++) {
        rfix_t f;
        const double fps = 30.0, gap = 0.5 + 0.5 * (q % 6), side = q % 2 ? 1.0 : -1.0;
        /* the 1's start off the cue ball's line so that their straight
         * relative course passes 2R + gap from touching: (-800, y0) along
         * (2, -1) / sqrt(5) is |800 - 2 y0| / sqrt(5) from the origin */
        const double y0 = 0.5 * (800.0 - side * (57.15 + gap) * sqrt(5.0));
        int k, n = 0;

        rfix_open(&f, fps, seed0 + (uint64_t)q);
        for (k = 0; k < (int)(3.0 * fps); k++) {
            double t = k / fps, s = fmax(0.0, t - 0.5);

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 500.0 + 800.0 * s, 600.0, s > 0 ? 1.0 : 0.3, s > 0 ? 1.0 : 0.3);
            rfix_ball(&f, 1, 1, 1300.0, 600.0 - y0 + 400.0 * s, s > 0 ? 1.0 : 0.3, s > 0 ? 1.0 : 0.3);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++)
                made_up += is_pair(&f.out[e], 0, 1);
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        for (int e = 0; e < n; e++)
            made_up += is_pair(&f.out[e], 0, 1);
        rfix_close(&f);
    }
    return made_up;
}

static void test_near_miss_no_contact(void)
{
    int made_up = near_miss_cases(301);

    CU_ASSERT_EQUAL(made_up, 0);
    if (made_up)
        printf("\n  %d contacts made up", made_up);
}

/* The passes above over ten more sets of seeds (240): the V of the
 * distance at 2R is there, and a change of their relative motion along
 * the line of centres by more than 1.5 standard errors, noise alone in
 * one pass of 15, let 7 through as contacts; no blow unless that change
 * is over two (1 made up). Over 1,200 passes (50 sets), 21 and 8. */
static void test_near_misses_many_seeds(void)
{
    int made_up = 0;

    for (uint64_t s0 = 1000; s0 < 2000; s0 += 100)
        made_up += near_miss_cases(s0);
    CU_ASSERT(made_up <= 2);
    if (made_up > 2)
        printf("\n  %d contacts made up of 240 near misses", made_up);
}

/* Between shots the resting cue ball's fit steps 3 mm in a frame and stays
 * there (60 fps; a resting ball's outline fit with two likely places,
 * refitted as a hand comes near: 1080p60 clip 09). Told by the tracker,
 * whose look-ahead saw it at rest at the new place, that its fit moved
 * (refit), no stroke; the same step with no word from the tracker reads as
 * a stroke, as it did. */
static void test_refit_step_is_no_stroke(void)
{
    for (int q = 0; q < 2; q++) {
        const double fps = 60.0;
        int strokes = 0, moving = 0, n;
        rfix_t f;

        rfix_open(&f, fps, 191 + (uint64_t)q);
        for (int k = 0; k < (int)(3.0 * fps); k++) {
            const double t = k / fps;
            cr_ball_obs_t *o;

            rfix_frame(&f, t, k);
            o = rfix_ball(&f, 0, 0, t < 1.5 ? 1389.7 : 1387.9, t < 1.5 ? 955.2 : 958.0, 0.05, 0.4);
            o->refit = q == 0 && t >= 1.5;
            rfix_ball(&f, 9, 2, 600, 300, 0.05, 0.4);
            rfix_push_strokes(&f, &strokes, &moving);
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        strokes += count(f.out, n, CR_EV_STROKE, -1);
        CU_ASSERT_EQUAL(strokes, q == 0 ? 0 : 1);
        if ((q == 0) != (strokes == 0))
            printf("\n  %s: %d strokes", q == 0 ? "refit" : "no word", strokes);
        rfix_close(&f);
    }
}

/* Between shots a resting object ball's fit steps 10 mm in a frame and
 * stays there, within the noise its detector gives (sigma 0.9 mm; 1080p60
 * clip 03's green 6 on green cloth). Seen at rest in both frames, a ball
 * that moved would have stopped from over 600 mm/s within a frame: told by
 * the tracker that its fit moved (refit), no touched ball; with no word
 * from the tracker the step reads as a touch (the ball disturbed), as it
 * did. */
static void test_refit_jump_is_no_touch(void)
{
    for (int q = 0; q < 2; q++) {
        const double fps = 60.0;
        int disturbed = 0;
        rfix_t f;

        rfix_open(&f, fps, 211 + (uint64_t)q);
        for (int k = 0; k < (int)(3.0 * fps); k++) {
            const double t = k / fps;
            cr_ball_obs_t *o;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 500, 600, 0.05, 0.4);
            o = rfix_ball(&f, 6, 1, t < 1.5 ? 1927.1 : 1916.8, 861.9, 0.05, 0.9);
            o->refit = q == 0 && t >= 1.5;
            disturbed += rfix_push(&f, false, CR_EV_DISTURBED, 6);
        }
        disturbed += rfix_push(&f, true, CR_EV_DISTURBED, 6);
        CU_ASSERT_EQUAL(disturbed, q == 0 ? 0 : 1);
        if ((q == 0) != (disturbed == 0))
            printf("\n  %s: %d disturbed", q == 0 ? "refit" : "no word", disturbed);
        rfix_close(&f);
    }
}

/* Newton's cradle in a shot: the cue ball runs into the first of three balls
 * frozen in a row and stops; the middle one passes the blow on, unseen for a
 * moment (the cue over it), and neither of the first two moves; the last
 * leaves at once, no ball anywhere near it. It took the blow through the
 * balls it was frozen to (as the back of a rack does at a break, where the
 * contacts are too quick to see): no touched ball. */
static void test_blow_through_frozen_balls(void)
{
    rfix_t f;
    const double fps = 30.0, R = 28.575, x1 = 1900.0, t_hit = 2.0 + (x1 - 2 * R - 600.0) / 2000.0;
    int k, disturbed = 0;

    rfix_open(&f, fps, 77);
    for (k = 0; k < (int)(8.0 * fps); k++) {
        double t = k / fps, xc = 600.0, x3 = x1 + 4 * R;
        cr_ball_obs_t *o2;

        rfix_frame(&f, t, k);
        if (t > 2.0)
            xc = t < t_hit ? 600.0 + 2000.0 * (t - 2.0) : x1 - 2 * R;
        if (t > t_hit)
            x3 += t - t_hit < 1.0 ? 1500.0 * (t - t_hit) - 750.0 * (t - t_hit) * (t - t_hit) : 750.0;
        rfix_ball(&f, 0, 1, xc, 635.0, 0.3, 0.5);
        rfix_ball(&f, 1, 2, x1, 635.0, 0.3, 0.5);
        o2 = rfix_ball(&f, 2, 3, x1 + 2 * R, 635.0, 0.3, 0.5);
        if (t > t_hit - 0.2 && t < t_hit + 0.6)
            o2->status = CR_BALL_HIDDEN;
        rfix_ball(&f, 3, 4, x3, 635.0, 0.3, 0.5);
        disturbed += rfix_push(&f, false, CR_EV_DISTURBED, -1);
    }
    disturbed += rfix_push(&f, true, CR_EV_DISTURBED, -1);
    CU_ASSERT_EQUAL(disturbed, 0);
    rfix_close(&f);
}

/* Breaks at 30 fps, seeds 1-12: the balls at the back of the rack take the
 * blow through the balls they are frozen to, and the contacts inside the
 * rack are too quick to see; none of them is a touched ball. */
static void test_break_no_touched_ball(void)
{
    static rcase_t c;
    setup_t s;
    int seed, disturbed = 0;

    for (seed = 1; seed <= 12; seed++) {
        cr_table_t tab;
        cr_ball_pos_t rack[CR_NUM_BALLS];
        int n, i;

        cr_table_init(&tab, 2540.0, 1270.0);
        n = cr_table_rack(&tab, CR_GAME_9BALL, CR_EDITION_WPA2008, (uint64_t)seed, rack, CR_NUM_BALLS);
        CU_ASSERT_FATAL(n > 0);
        memset(&s, 0, sizeof(s));
        s.fps = 30.0;
        s.balls[0] = (cr_ball_pos_t){0, 500.0, 635.0 + 40.0 * ((seed % 5) - 2)};
        for (i = 0; i < n; i++)
            s.balls[i + 1] = rack[i];
        s.n = n + 1;
        s.speed = 7000.0 + 150.0 * seed;
        s.heading_deg = atan2(635.0 - s.balls[0].y, 1905.0 - 500.0) * 180.0 / 3.14159265358979;
        s.seed = (uint64_t)seed;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        disturbed += count(c.got, c.ng, CR_EV_DISTURBED, -1);
    }
    CU_ASSERT_EQUAL(disturbed, 0);
}

/* A ball the detector measures poorly (a ball the colour of the cloth: its
 * outline against the shadow side is unsure) seems to shift 12 mm and stay.
 * With the sigma the detector gives it (5 mm) that is no touched ball; the
 * same shift of a ball measured to 0.5 mm is one; and a shift that comes
 * back before the next stroke or rest is the picture, not a touch. */
static void test_wavering_ball(void)
{
    const double sigmas[3] = {5.0, 0.5, 0.5};
    const double back_at[3] = {99.0, 99.0, 3.0};
    const int want[3] = {0, 1, 0};

    for (int q = 0; q < 3; q++) {
        rfix_t f;
        const double fps = 30.0;
        int k, disturbed = 0;

        rfix_open(&f, fps, 71 + (uint64_t)q);
        for (k = 0; k < (int)(5.0 * fps); k++) {
            double t = k / fps, off = 0.0;

            /* off to 12 mm over 5 frames at 1 s (and back at back_at) */
            if (t >= 1.0 && t < back_at[q])
                off = 12.0 * fmin(1.0, (t - 1.0) * fps / 5.0);
            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 500, 600, 0.5, 0.5);
            rfix_ball(&f, 7, 1, 1200 + off, 600, 0.4, sigmas[q]);
            disturbed += rfix_push(&f, false, CR_EV_DISTURBED, 7);
        }
        disturbed += rfix_push(&f, true, CR_EV_DISTURBED, 7);
        CU_ASSERT_EQUAL(disturbed, want[q]);
        rfix_close(&f);
    }
}

/* A resting ball's fit jumps 14 mm from one frame to the next and stays
 * there (a ball near the cloth's colour has two likely outlines; its sigma
 * says 0.5 mm): at 30 and at 60 fps no ball can start and stop again that
 * fast with nothing beside it, so nothing started; no touched ball. The
 * same 14 mm crept over six frames is a touch. */
static void test_fit_jump_is_no_touch(void)
{
    const double fps_list[3] = {30.0, 60.0, 30.0};
    const int frames_list[3] = {1, 1, 6}, want[3] = {0, 0, 1};

    for (int q = 0; q < 3; q++) {
        rfix_t f;
        const double fps = fps_list[q];
        int k, disturbed = 0;

        rfix_open(&f, fps, 91 + (uint64_t)q);
        for (k = 0; k < (int)(5.0 * fps); k++) {
            double t = k / fps, off = 0.0;

            if (t >= 1.0)
                off = 14.0 * fmin(1.0, ((t - 1.0) * fps + 1.0) / frames_list[q]);
            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 500, 600, 0.5, 0.5);
            rfix_ball(&f, 10, 1, 1200 + 0.8 * off, 600 - 0.6 * off, 0.4, 0.5);
            disturbed += rfix_push(&f, false, CR_EV_DISTURBED, 10);
        }
        disturbed += rfix_push(&f, true, CR_EV_DISTURBED, 10);
        if (disturbed != want[q])
            printf("\n  %g fps, over %d frames: %d disturbed", fps, frames_list[q], disturbed);
        CU_ASSERT_EQUAL(disturbed, want[q]);
        rfix_close(&f);
    }
}

/* Between shots the cue ball rests, the cue comes over it (hidden two
 * frames) and strikes it slowly (0.9 m/s); a ball comes out from under the
 * cue, unnamed for two frames, then the tracker names it the cue ball. It
 * came into view moving: it was struck there, not put down by hand (no
 * placed event, which the rules make a touched-ball foul without ball in
 * hand); one stroke, within 0.1 s of when it left its rest (it is timed
 * from where the ball was first seen, 60 mm out, not from the rest). */
static void test_out_from_under_the_cue(void)
{
    rfix_t f;
    const double fps = 30.0, t0 = 1.0, x0 = 2452.0, y0 = 972.0, vx = -120.0, vy = -900.0;
    int k, placed = 0, strokes = 0;
    double t_stroke = -1.0;

    rfix_open(&f, fps, 97);
    for (k = 0; k < (int)(4.0 * fps); k++) {
        double t = k / fps, d = t > t0 ? fmin(t - t0, 1.5) - 0.25 * fmin(t - t0, 1.5) * fmin(t - t0, 1.5) : 0.0;
        double x = x0 + vx * d, y = y0 + vy * d;
        int n;

        rfix_frame(&f, t, k);
        rfix_ball(&f, 3, 2, 800, 300, 0.3, 0.5);
        if (t < t0 + 0.01) {
            rfix_ball(&f, 0, 1, x0, y0, 0.3, 0.5);
        } else if (t < t0 + 0.1) {
            cr_ball_obs_t *o = rfix_ball(&f, 0, 1, x0, y0, 0.0, 0.5);

            o->status = CR_BALL_HIDDEN;
            if (t > t0 + 0.05)
                rfix_ball(&f, -1, 5, x, y, 0.5, 1.5);
        } else {
            rfix_ball(&f, 0, 5, x, y, 0.3, 0.8);
        }
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        placed += count(f.out, n, CR_EV_PLACED, -1);
        for (int j = 0; j < n; j++)
            if (f.out[j].type == CR_EV_STROKE)
                strokes++, t_stroke = f.out[j].t;
    }
    placed += rfix_push(&f, true, CR_EV_PLACED, -1);
    CU_ASSERT_EQUAL(placed, 0);
    CU_ASSERT_EQUAL(strokes, 1);
    CU_ASSERT_DOUBLE_EQUAL(t_stroke, t0, 0.1);
    if (placed || strokes != 1 || fabs(t_stroke - t0) > 0.1)
        printf("\n  placed %d, strokes %d, stroke at %.3f s", placed, strokes, t_stroke);
    rfix_close(&f);
}

/* The shooter's hand on the cue's butt, taken for a ball no one can name,
 * found in three frames of five, moves back and forth through the aim and
 * as the cue ball is struck: the stroke lists no ball still moving (a ball
 * still rolling from the last shot has been followed and is named; in
 * doubt, no foul). This passes on the code before the rule too (the hand
 * starts from rest with nothing to start it); the case it was made for
 * (1080p60 clip 04, a hand that was named the 1 for a while) is not
 * reproduced here. */
static void test_unnamed_moving_at_stroke(void)
{
    rfix_t f;
    const double fps = 60.0, t0 = 3.0;
    int k, strokes = 0, moving = 0;

    rfix_open(&f, fps, 99);
    for (k = 0; k < (int)(6.0 * fps); k++) {
        double t = k / fps, xc = t > t0 ? 1200.0 + 1500.0 * (t - t0) - 300.0 * (t - t0) * (t - t0) : 1200.0;

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 1, xc, 635.0, 0.3, 0.5);
        rfix_ball(&f, 4, 2, 2300.0, 300.0, 0.3, 0.5);
        if (t > 1.0 && t < 3.5 && k % 5 < 3) /* found in three frames of five */
            rfix_ball(&f, -1, 9, 550.0 + 120.0 * sin(10.0 * t), 950.0, 1.0, 1.0);
        rfix_push_strokes(&f, &strokes, &moving);
    }
    rfix_end_one_still_stroke(&f, strokes, moving);
}

/* The cue lies over a resting object ball behind the cue ball (30 fps): as
 * it goes through, the ball's fit moves 10 mm (a wide sigma) in the first
 * frame after the stroke, stays there five frames and comes back. The ball
 * was seen at rest the frame before: it did not start before then, so it is
 * not a ball still moving as the shot began (its fit's tiny speed at the new
 * place once put its start six frames back, before the stroke). */
static void test_fit_under_the_cue_at_the_stroke(void)
{
    rfix_t f;
    const double fps = 30.0, t0 = 2.01;
    int k, strokes = 0, moving = 0;

    rfix_open(&f, fps, 101);
    for (k = 0; k < (int)(5.0 * fps); k++) {
        double t = k / fps, d = t > t0 ? fmin(t - t0, 1.5) - 0.25 * fmin(t - t0, 1.5) * fmin(t - t0, 1.5) : 0.0;
        bool under = t > t0 && t < t0 + 6.0 / fps;

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 1, 2100.0 - 400.0 * d, 966.0 - 900.0 * d, 0.3, 0.5);
        rfix_ball(&f, 13, 2, under ? 2139.0 : 2146.0, under ? 1041.0 : 1034.0, 0.3, under ? 1.5 : 0.4);
        rfix_ball(&f, 4, 3, 600.0, 300.0, 0.3, 0.4);
        rfix_push_strokes(&f, &strokes, &moving);
    }
    rfix_end_one_still_stroke(&f, strokes, moving);
}

/* A resting object ball 20 mm beside the cue ball, whose fit wavers under
 * the cue for a second before the stroke and jumps 14 mm the frame before
 * the cue ball is struck away from it (60 fps; the tracker's positions of
 * the green 6 on green cloth in 1080p60 clip 03 of the corpora, with
 * --highlights). It never touched the cue ball: no collision (the old code
 * took the jump for the 6 running into the resting cue ball, "frozen",
 * confidence 0.3: a first contact that never was). */
static void test_waver_beside_the_struck_cue_ball(void)
{
    /* per frame from 50.917 s: the cue ball (x, y, sigma), then the 6 (x, y, sigma, status) */
    static const double w[113][7] = {
        {1852.294, 848.143, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.295, 848.143, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.295, 848.143, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.292, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.119, 861.915, 0.569, 0},
        {1852.291, 848.142, 0.300, 1927.277, 865.314, 0.713, 0},
        {1852.291, 848.142, 0.300, 1919.119, 863.824, 0.576, 0},
        {1852.291, 848.142, 0.300, 1917.272, 863.400, 2.002, 0},
        {1852.291, 848.142, 0.300, 1921.607, 859.517, 4.291, 0},
        {1852.291, 848.142, 0.300, 1916.154, 864.941, 4.347, 0},
        {1852.291, 848.142, 0.300, 1916.173, 864.705, 1.078, 0},
        {1852.291, 848.142, 0.300, 1916.103, 865.542, 1.041, 0},
        {1852.293, 848.139, 0.300, 1915.362, 865.680, 1.211, 1},
        {1852.297, 848.135, 0.300, 1919.268, 865.483, 5.604, 0},
        {1852.299, 848.135, 0.300, 1926.477, 861.028, 6.106, 0},
        {1852.300, 848.134, 0.300, 1933.464, 857.181, 6.592, 0},
        {1852.299, 848.134, 0.300, 1927.781, 866.857, 0.714, 0},
        {1852.294, 848.136, 0.300, 1920.268, 863.381, 1.065, 0},
        {1852.298, 848.134, 0.300, 1917.025, 864.983, 0.763, 0},
        {1852.301, 848.131, 0.300, 1916.807, 864.175, 0.771, 0},
        {1852.304, 848.129, 0.300, 1917.948, 860.783, 5.527, 0},
        {1852.307, 848.127, 0.300, 1916.307, 861.536, 2.550, 0},
        {1852.309, 848.126, 0.300, 1922.105, 859.435, 2.734, 0},
        {1852.310, 848.125, 0.300, 1922.431, 858.219, 4.721, 0},
        {1852.312, 848.124, 0.300, 1923.004, 860.462, 0.910, 0},
        {1852.313, 848.124, 0.300, 1923.473, 862.940, 5.103, 0},
        {1852.313, 848.123, 0.300, 1924.113, 863.491, 5.103, 0},
        {1852.314, 848.123, 0.300, 1924.462, 864.245, 1.031, 0},
        {1852.309, 848.126, 0.300, 1924.837, 864.811, 1.031, 0},
        {1852.310, 848.126, 0.300, 1924.778, 865.394, 1.031, 0},
        {1852.310, 848.126, 0.300, 1924.850, 865.750, 1.031, 0},
        {1852.310, 848.126, 0.300, 1924.951, 865.821, 1.031, 0},
        {1852.310, 848.126, 0.300, 1925.050, 865.294, 1.031, 0},
        {1852.310, 848.126, 0.300, 1924.932, 865.299, 1.031, 0},
        {1852.310, 848.126, 0.300, 1924.974, 864.708, 1.031, 0},
        {1852.310, 848.126, 0.300, 1925.057, 863.977, 5.220, 0},
        {1852.310, 848.126, 0.300, 1924.496, 863.251, 4.951, 0},
        {1852.311, 848.126, 0.300, 1924.653, 861.680, 5.027, 0},
        {1852.309, 848.128, 0.300, 1924.753, 860.349, 5.382, 0},
        {1852.308, 848.128, 0.300, 1917.365, 865.490, 0.722, 0},
        {1852.308, 848.128, 0.300, 1915.567, 865.428, 3.520, 0},
        {1852.311, 848.127, 0.300, 1916.305, 863.149, 0.742, 0},
        {1852.312, 848.127, 0.300, 1914.306, 862.923, 0.982, 1},
        {1852.312, 848.127, 0.300, 1916.906, 862.948, 0.712, 0},
        {1852.312, 848.127, 0.300, 1917.964, 862.641, 0.724, 0},
        {1852.313, 848.127, 0.300, 1916.636, 840.456, 0.390, 0},
        {1852.313, 848.127, 0.300, 1920.209, 860.337, 6.283, 0},
        {1852.313, 848.127, 0.300, 1918.105, 862.730, 0.758, 0},
        {1852.315, 848.128, 0.300, 1918.404, 864.053, 0.744, 0},
        {1852.315, 848.127, 0.300, 1918.706, 864.719, 0.721, 0},
        {1852.316, 848.127, 0.300, 1928.068, 863.048, 7.239, 0},
        {1852.316, 848.127, 0.300, 1928.219, 862.250, 5.528, 0},
        {1852.316, 848.127, 0.300, 1928.154, 861.986, 0.963, 0},
        {1852.316, 848.127, 0.300, 1928.145, 861.776, 0.912, 0},
        {1852.314, 848.127, 0.300, 1928.077, 861.845, 0.912, 0},
        {1852.315, 848.127, 0.300, 1928.024, 861.996, 0.949, 0},
        {1852.315, 848.127, 0.300, 1927.911, 862.426, 0.949, 0},
        {1852.315, 848.127, 0.300, 1927.685, 863.252, 0.949, 0},
        {1852.315, 848.127, 0.300, 1927.576, 864.086, 0.949, 0},
        {1852.315, 848.127, 0.300, 1927.941, 862.325, 1.116, 1},
        {1852.315, 848.127, 0.300, 1927.923, 867.088, 0.923, 0},
        {1852.315, 848.127, 0.300, 1925.093, 867.708, 0.858, 0},
        {1852.314, 848.126, 0.300, 1926.746, 867.328, 4.772, 0},
        {1852.314, 848.126, 0.300, 1926.350, 867.788, 0.869, 0},
        {1852.314, 848.126, 0.300, 1926.584, 866.790, 5.098, 0},
        {1852.314, 848.126, 0.300, 1926.028, 870.867, 5.317, 0},
        {1852.313, 848.126, 0.300, 1925.317, 870.568, 4.524, 0},
        {1852.313, 848.126, 0.300, 1917.379, 864.727, 0.904, 0},
        {1852.313, 848.126, 0.300, 1914.429, 864.841, 6.987, 0},
        {1852.311, 848.126, 0.300, 1925.463, 865.386, 0.771, 0},
        {1852.309, 848.126, 0.300, 1918.183, 865.039, 0.761, 0},
        {1852.307, 848.128, 0.300, 1917.382, 865.299, 0.822, 0},
        {1852.312, 848.128, 0.302, 1926.812, 867.743, 0.808, 0},
        {1852.317, 848.128, 0.303, 1920.098, 862.272, 0.826, 0},
        {1852.322, 848.128, 0.303, 1928.871, 851.628, 5.266, 0},
        {1838.979, 850.818, 0.546, 1919.178, 865.214, 0.869, 0},
        {1812.689, 855.237, 0.530, 1918.905, 865.614, 0.782, 0},
        {1787.371, 859.791, 0.553, 1918.047, 865.857, 0.922, 0},
        {1762.828, 864.103, 0.574, 1917.768, 865.485, 0.768, 0},
        {1739.207, 868.332, 0.528, 1917.917, 864.934, 0.788, 0},
        {1715.970, 872.197, 0.501, 1917.168, 865.412, 0.955, 1},
        {1694.268, 876.349, 0.504, 1917.168, 865.412, 1.122, 1},
        {1672.612, 880.296, 0.525, 1917.168, 865.412, 1.288, 1},
        {1650.750, 884.290, 0.512, 1917.372, 865.541, 0.769, 0},
        {1628.068, 888.278, 0.490, 1917.294, 865.214, 0.769, 0},
        {1606.388, 892.154, 0.514, 1917.264, 865.255, 0.723, 0},
        {1584.835, 896.019, 0.449, 1917.400, 865.193, 0.711, 0},
        {1563.157, 899.909, 0.515, 1917.296, 865.367, 0.711, 0},
        {1541.566, 903.742, 0.560, 1917.241, 865.461, 0.711, 0},
        {1519.950, 907.634, 0.480, 1917.264, 865.624, 0.711, 0},
        {1498.451, 911.434, 0.503, 1917.087, 865.949, 0.711, 0},
        {1477.060, 915.291, 0.525, 1917.380, 865.765, 0.711, 0},
    };
    rfix_t f;
    const int n_w = (int)(sizeof w / sizeof w[0]), k0 = 60;
    int k, n, strokes = 0, hits = 0;

    rfix_open(&f, 60.0, 103);
    for (k = 0; k < k0 + n_w + 120; k++) {
        const int q = k < k0 ? 0 : k - k0 < n_w ? k - k0 : n_w - 1;
        double xc = w[q][0], yc = w[q][1];
        cr_ball_obs_t *o;

        if (k - k0 >= n_w) { /* the cue ball rolls on as it went */
            double u = k - k0 - n_w + 1;

            xc += (w[n_w - 1][0] - w[n_w - 2][0]) * u;
            yc += (w[n_w - 1][1] - w[n_w - 2][1]) * u;
        }
        rfix_frame(&f, k / 60.0, k);
        rfix_ball(&f, 0, 1, xc, yc, 0.0, w[q][2]);
        o = rfix_ball(&f, 6, 2, w[q][3], w[q][4], 0.0, w[q][5]);
        o->status = (cr_ball_status_t)w[q][6];
        rfix_ball(&f, 4, 3, 600.0, 300.0, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int j = 0; j < n; j++) {
            strokes += f.out[j].type == CR_EV_STROKE;
            if (f.out[j].type == CR_EV_COLLISION) {
                hits++;
                printf("\n  collision %d-%d at %.3f s, confidence %.2f", f.out[j].a, f.out[j].b, f.out[j].t,
                       f.out[j].confidence);
            }
        }
    }
    rfix_push(&f, true, CR_EV_STROKE, -1);
    CU_ASSERT_EQUAL(strokes, 1);
    CU_ASSERT_EQUAL(hits, 0);
    rfix_close(&f);
}

/* The cue ball rolls into the foot-right pocket and the film ends a few
 * frames after the tracker lost it, 100 mm short of the pocket: its course
 * took it past the mouth before the end, and with no frame left to find it
 * again in, it dropped (a clip cut right after the shot is still judged:
 * the pocket, then the rest). */
static void test_film_ends_after_a_lost_ball_drops(void)
{
    rfix_t f;
    const double fps = 60.0, t0 = 1.0, v = 1000.0;
    double t_lost = -1.0;
    int k, n, pockets = 0, rests = 0;

    rfix_open(&f, fps, 77);
    for (k = 0;; k++) {
        double t = k / fps, d = t > t0 ? v * (t - t0) : 0.0;
        double x = 1900.0 + d / sqrt(2.0), y = 630.0 + d / sqrt(2.0);
        cr_ball_obs_t *o;

        if (t_lost >= 0.0 && t > t_lost + 0.15)
            break;
        rfix_frame(&f, t, k);
        o = rfix_ball(&f, 0, 1, x, y, 0.3, 0.5);
        rfix_ball(&f, 5, 3, 600.0, 300.0, 0.3, 0.4);
        if (hypot(2540.0 - x, 1270.0 - y) < 100.0) { /* given up: gone by the pocket */
            if (t_lost < 0.0)
                t_lost = t;
            o->status = CR_BALL_GONE;
        }
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        pockets += count(f.out, n, CR_EV_POCKET, 0);
        rests += count(f.out, n, CR_EV_REST, -1);
    }
    CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
    pockets += count(f.out, n, CR_EV_POCKET, 0);
    rests += count(f.out, n, CR_EV_REST, -1);
    CU_ASSERT_EQUAL(pockets, 1);
    CU_ASSERT_EQUAL(rests, 1);
    rfix_close(&f);
}

/* A ball that crept into a corner pocket's jaws and stopped past the line
 * between the jaw points, then is no longer seen (the tracker holds a ball
 * lost at rest where it was, hidden): it dropped (RULES.md G7). One resting
 * just in front of that line, hidden, is under a hand: no pocket. The same
 * when the tracker reports either as gone: one in front of the mouth rests
 * on the bed, with nothing to drop into (a ball of the cloth's colour no
 * longer found). */
static void test_hung_ball_drops(void)
{
    static const double pos[4][2] = {{2525.5, 1223.8}, {2490.0, 1215.0}, {2525.5, 1223.8}, {2490.0, 1215.0}};

    for (int q = 0; q < 4; q++) {
        rfix_t f;
        const double fps = 60.0;
        int k, pockets = 0, n = 0;

        rfix_open(&f, fps, 91 + (uint64_t)q);
        for (k = 0; k < (int)(3.0 * fps); k++) {
            double t = k / fps;
            cr_ball_obs_t *o;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 500, 600, 0.5, 0.5);
            o = rfix_ball(&f, 3, 1, pos[q][0], pos[q][1], 0.4, 0.5);
            if (t >= 1.0) { /* lost: held where it was, or taken for gone */
                o->x = pos[q][0];
                o->y = pos[q][1];
                o->status = q < 2 ? CR_BALL_HIDDEN : CR_BALL_GONE;
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int j = 0; j < n; j++)
                if (f.out[j].type == CR_EV_POCKET && f.out[j].ball == 3) {
                    pockets++;
                    CU_ASSERT_EQUAL(f.out[j].pocket, CR_POCKET_FOOT_RIGHT);
                    CU_ASSERT_DOUBLE_EQUAL(f.out[j].t, 1.0, 2.0 / fps);
                }
        }
        pockets += rfix_push(&f, true, CR_EV_POCKET, 3);
        CU_ASSERT_EQUAL(pockets, q % 2 == 0 ? 1 : 0);
        rfix_close(&f);
    }
}

/* The tracker goes on holding a ball that dropped in a pocket's jaws where
 * it was last seen (hidden); once its pocket is reported the picture of the
 * table (the balls lines) must leave it out. One held hidden in front of
 * the mouth (under a hand) stays on the table, and so does any ball seen. */
static void test_dropped_ball_is_down(void)
{
    static const double pos[2][2] = {{2525.5, 1223.8}, {2490.0, 1215.0}};

    for (int q = 0; q < 2; q++) {
        rfix_t f;
        const double fps = 60.0;
        int k, n = 0, down = 0, down_before = 0, seen_down = 0;
        bool pocketed = false;

        rfix_open(&f, fps, 191 + (uint64_t)q);
        for (k = 0; k < (int)(3.0 * fps); k++) {
            double t = k / fps;
            cr_ball_obs_t *o, seen;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 500, 600, 0.5, 0.5);
            o = rfix_ball(&f, 3, 1, pos[q][0], pos[q][1], 0.4, 0.5);
            if (t >= 1.0) {
                o->x = pos[q][0];
                o->y = pos[q][1];
                o->status = CR_BALL_HIDDEN;
            }
            /* asked before the frame goes in, as the balls line is written */
            if (cr_recon_is_down(f.rc, o)) {
                if (pocketed)
                    down++;
                else
                    down_before++;
            }
            seen = *o;
            seen.status = CR_BALL_SEEN;
            seen_down += cr_recon_is_down(f.rc, &seen);
            seen_down += cr_recon_is_down(f.rc, &f.fr->balls[0]);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            pocketed |= count(f.out, n, CR_EV_POCKET, 3) > 0;
        }
        CU_ASSERT_EQUAL(pocketed, q == 0);
        CU_ASSERT_EQUAL(down_before, 0);
        CU_ASSERT_EQUAL(seen_down, 0);
        if (q == 0) { /* every frame after its pocket came out */
            CU_ASSERT(down >= (int)(1.5 * fps));
        } else {
            CU_ASSERT_EQUAL(down, 0);
        }
        if (q == 0 && down < (int)(1.5 * fps))
            printf("\n  down in %d frames", down);
        rfix_close(&f);
    }
}

/* A ball with no number yet (the cue ball in hand, before it is named)
 * rests at P and is lifted: gone from the table. Later the cue ball, struck,
 * rolls past P within a ball's width and its path bends there (a swerve,
 * or a fit's wobble): nothing is there to hit. A ball gone from the table
 * hits nothing after it went. */
static void test_gone_ball_hits_nothing(void)
{
    rfix_t f;
    const double fps = 60.0, px = 1200.0, py = 575.0, v0 = 2400.0, dec = 600.0, bend = 0.4363; /* 25 degrees, away from P */
    int k, n = 0, hits = 0, strokes = 0;

    rfix_open(&f, fps, 77);
    for (k = 0; k < (int)(7.0 * fps); k++) {
        double t = k / fps, x = 300.0, y = 600.0;

        rfix_frame(&f, t, k);
        if (t >= 3.0) { /* struck along +x; bends by P, 900 mm on */
            double u = fmin(t - 3.0, v0 / dec), d = v0 * u - 0.5 * dec * u * u;

            if (d <= 900.0) {
                x += d;
            } else {
                x += 900.0 + (d - 900.0) * cos(bend);
                y += (d - 900.0) * sin(bend);
            }
        }
        rfix_ball(&f, 0, 0, x, y, 0.3, 0.4);
        if (t < 1.0)
            rfix_ball(&f, -1, 9, px, py, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int j = 0; j < n; j++) {
            hits += f.out[j].type == CR_EV_COLLISION;
            strokes += f.out[j].type == CR_EV_STROKE;
        }
    }
    CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
    for (int j = 0; j < n; j++) {
        hits += f.out[j].type == CR_EV_COLLISION;
        strokes += f.out[j].type == CR_EV_STROKE;
    }
    CU_ASSERT_EQUAL(strokes, 1);
    CU_ASSERT_EQUAL(hits, 0);
    if (hits)
        printf("\n  %d collisions", hits);
    rfix_close(&f);
}

/* The 3 rests in front of the head-left pocket; the cue ball cuts it in
 * (30 degrees) and it is never seen again (it dropped at once, at 30 fps):
 * the contact is still the cue ball's with the 3 (which went after the
 * contact, not before), and the blow's course took the 3 into the pocket. */
static void test_struck_into_pocket_at_once(void)
{
    rfix_t f;
    const double fps = 30.0, R = 28.575, bx = 80.0, by = 49.0, v0 = 1500.0, v1 = 750.0, dec = 1875.0;
    const double nn = hypot(bx, by), nx = -bx / nn, ny = -by / nn;
    const double cx = bx - 2.0 * R * nx, cy = by - 2.0 * R * ny; /* the cue ball at the contact */
    const double ux = nx * cos(-0.5236) - ny * sin(-0.5236), uy = nx * sin(-0.5236) + ny * cos(-0.5236);
    const double ox = ny, oy = -nx; /* its way after (-n rotated by 90 degrees) */
    int k, n = 0, hits = 0, pockets = 0;

    rfix_open(&f, fps, 78);
    for (k = 0; k < (int)(5.0 * fps); k++) {
        double t = k / fps, x, y;

        rfix_frame(&f, t, k);
        if (t < 2.0) {
            x = cx - 900.0 * ux, y = cy - 900.0 * uy;
        } else if (t < 2.6) {
            x = cx - v0 * (2.6 - t) * ux, y = cy - v0 * (2.6 - t) * uy;
        } else {
            double u = fmin(t - 2.6, v1 / dec), d = v1 * u - 0.5 * dec * u * u;

            x = cx + d * ox, y = cy + d * oy;
        }
        rfix_ball(&f, 0, 0, x, y, 0.3, 0.4);
        if (t < 2.6 + 0.5 / fps) /* then never seen again */
            rfix_ball(&f, 3, 3, bx, by, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int j = 0; j < n; j++) {
            hits += f.out[j].type == CR_EV_COLLISION && f.out[j].a == 0 && f.out[j].b == 3;
            pockets += f.out[j].type == CR_EV_POCKET && f.out[j].ball == 3;
        }
    }
    CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
    for (int j = 0; j < n; j++) {
        hits += f.out[j].type == CR_EV_COLLISION && f.out[j].a == 0 && f.out[j].b == 3;
        pockets += f.out[j].type == CR_EV_POCKET && f.out[j].ball == 3;
    }
    CU_ASSERT_EQUAL(hits, 1);
    CU_ASSERT_EQUAL(pockets, 1);
    if (hits != 1 || pockets != 1)
        printf("\n  %d contacts of the cue ball with the 3, %d pockets", hits, pockets);
    rfix_close(&f);
}

/* Counts the cushion contacts of ball in f's n events out into *count, the
 * first one's time into *t. */
static void tally_cushions(const rfix_t *f, int n, int ball, int *count, double *t)
{
    for (int j = 0; j < n; j++)
        if (f->out[j].type == CR_EV_CUSHION && f->out[j].ball == ball && (*count)++ == 0)
            *t = f->out[j].t;
}

/* Finishes f's input, tallies its last cushion contacts of ball and checks
 * there was one in all, within tol of t_true; true when so. */
static bool one_cushion_at(rfix_t *f, int ball, int *count, double *t, double t_true, double tol)
{
    int n;

    CU_ASSERT_EQUAL(cr_recon_finish(f->rc, f->out, 128, &n), 0);
    tally_cushions(f, n, ball, count, t);
    CU_ASSERT_EQUAL(*count, 1);
    CU_ASSERT(fabs(*t - t_true) <= tol);
    return *count == 1 && fabs(*t - t_true) <= tol;
}

/* The 3 rests 9.8 mm off the left cushion beside the left side pocket's
 * mouth, and the cue ball, at 0.59 m/s along the line of centres, stuns it
 * into the mouth's jaw point: it meets it 41 ms after the blow and runs on
 * along the mouth (720p30 clip 14, 95.86 s). At 30 fps its first sighting
 * off its rest is on the way in, the next on the way out; its motion is
 * first watched after the contact and its distance to the jaw then only
 * grows, and the cloth could have stopped it short (at accel_max). From its
 * rest on its distances show the contact: one with the left cushion, within
 * two frames, at 30 and 60 fps, with each of two phases of the frames. */
static void test_struck_from_near_a_cushion(void)
{
    for (int q = 0; q < 4; q++) {
        const double fps = q < 2 ? 30.0 : 60.0, R = CR_BALL_RADIUS_MM, v = 587.0, bx = 1353.35, by = 38.36;
        const double jx = 1270.0 + 0.5 * 128.5875, ux = -0.911, uy = -0.413; /* the jaw point; the way in */
        double t1, tc = 2.0 + (q % 2 ? 0.4 : 0.1) / fps, cx, cy, nx, ny, vx, vy, vn, t_end;
        int n, cushions = 0;
        double t_cush = NAN;
        rfix_t f;

        /* when its way in comes R from the jaw point (a, b: the 3 there) */
        {
            const double px = bx - jx, py = by, pb = px * ux + py * uy, pc = px * px + py * py - R * R;

            t1 = tc + (-pb - sqrt(pb * pb - pc)) / v;
        }
        cx = bx + v * ux * (t1 - tc), cy = by + v * uy * (t1 - tc);
        nx = (cx - jx) / R, ny = cy / R;
        vn = v * (ux * nx + uy * ny);
        vx = v * ux - 1.8 * vn * nx, vy = v * uy - 1.8 * vn * ny; /* restitution 0.8 */
        t_end = t1 + 0.5;
        rfix_open(&f, fps, 1000 + (uint64_t)q);
        for (int k = 0; k < (int)(3.5 * fps); k++) {
            const double t = k / fps, w = fmin(t, t_end);
            double x3 = bx, y3 = by;

            if (w > t1) {
                x3 = cx + vx * (w - t1);
                y3 = cy + vy * (w - t1);
            } else if (w > tc) {
                x3 = bx + v * ux * (w - tc);
                y3 = by + v * uy * (w - tc);
            }
            rfix_frame(&f, t, k);
            /* the cue ball: struck at 1.5 s, stopped dead at the contact */
            rfix_ball(&f, 0, 0, bx - 2.0 * R * ux - v * ux * fmin(fmax(tc - t, 0.0), tc - 1.5),
                      by - 2.0 * R * uy - v * uy * fmin(fmax(tc - t, 0.0), tc - 1.5), 0.3, 0.4);
            rfix_ball(&f, 3, 3, x3, y3, 0.3, 0.4);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            tally_cushions(&f, n, 3, &cushions, &t_cush);
        }
        if (!one_cushion_at(&f, 3, &cushions, &t_cush, t1, 2.0 / fps))
            printf("\n  %g fps, phase %d: %d cushion contacts of the 3, the first at %.4f (true %.4f)", fps, q % 2,
                   cushions, t_cush, t1);
        rfix_close(&f);
    }
}

/* The 5 rests in the left side pocket's mouth, its centre 12 mm from the
 * nose line (past touching, R), and the cue ball, rolling at 0.8 m/s, cuts
 * it into the pocket (720p30 clips 06, 09, 10 and 11: a ball in a mouth
 * struck in). Sent toward the rail from less than R away it cannot have
 * missed a cushion, but no cushion is there: the rail opens into the
 * pocket. One contact, the pocket, and no cushion contact of the 5, at 30
 * and 60 fps. */
static void test_struck_in_from_a_mouth(void)
{
    for (int q = 0; q < 2; q++) {
        const double fps = q == 0 ? 30.0 : 60.0, R = CR_BALL_RADIUS_MM, bx = 1290.0, by = 12.0, cx = 1310.0, v = 800.0;
        const double cy_hit = by + sqrt(4.0 * R * R - (cx - bx) * (cx - bx)), t_hit = 2.0 + (400.0 - cy_hit) / v;
        const double nx = (bx - cx) / (2.0 * R), ny = (by - cy_hit) / (2.0 * R), v5 = -v * ny;
        int n, hits = 0, pockets = 0, cushions = 0;
        rfix_t f;

        rfix_open(&f, fps, 990 + (uint64_t)q);
        for (int k = 0; k < (int)(4.0 * fps); k++) {
            const double t = k / fps, w = fmin(fmax(t - t_hit, 0.0), 0.3);
            const double d5 = v5 * fmax(t - t_hit, 0.0);

            rfix_frame(&f, t, k);
            /* the cue ball: struck at 2 s from (1310, 400) along -y; after
             * the contact on along the tangent for 0.3 s, then stopped */
            rfix_ball(&f, 0, 0, t < t_hit ? cx : cx + v * nx * ny * w,
                      t < t_hit ? 400.0 - v * fmax(t - 2.0, 0.0) : cy_hit - v * nx * nx * w, 0.3, 0.4);
            if (by + ny * d5 > -R) /* seen until it is past the mouth by a radius */
                rfix_ball(&f, 5, 5, bx + nx * d5, by + ny * d5, 0.3, 0.4);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int j = 0; j < n; j++) {
                hits += f.out[j].type == CR_EV_COLLISION && same_pair_ev(&f.out[j], 0, 5);
                pockets += f.out[j].type == CR_EV_POCKET && f.out[j].ball == 5;
                cushions += f.out[j].type == CR_EV_CUSHION && f.out[j].ball == 5;
            }
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        for (int j = 0; j < n; j++) {
            hits += f.out[j].type == CR_EV_COLLISION && same_pair_ev(&f.out[j], 0, 5);
            pockets += f.out[j].type == CR_EV_POCKET && f.out[j].ball == 5;
            cushions += f.out[j].type == CR_EV_CUSHION && f.out[j].ball == 5;
        }
        CU_ASSERT_EQUAL(hits, 1);
        CU_ASSERT_EQUAL(pockets, 1);
        CU_ASSERT_EQUAL(cushions, 0);
        if (hits != 1 || pockets != 1 || cushions != 0)
            printf("\n  %g fps: %d contacts 0-5, %d pockets, %d cushion contacts of the 5", fps, hits, pockets, cushions);
        rfix_close(&f);
    }
}

/* The cue ball, struck at 1.2 m/s straight at the foot-right pocket 0.98
 * m away, is seen for 0.12 s only (a glare, the shooter's arm), while it
 * still slides (slowing at 2 m/s^2 until it rolls at 5/7 of its speed,
 * then at 0.15 m/s^2): its course from those seven sightings takes it
 * into the pocket in at least seven films of eight (their direction is
 * known to a degree or two). The fitted slowing taken for the whole
 * course stopped it 0.25 m on, in every film. */
static void test_short_sighting_course(void)
{
    int films = 0;

    for (int q = 0; q < 8; q++) {
        rfix_t f;
        const double fps = 60.0, x0 = 1800.0, y0 = 650.0, v0 = 1200.0, slide = 2000.0, dec = 150.0;
        const double ts = (v0 - 5.0 / 7.0 * v0) / slide, ds = v0 * ts - 0.5 * slide * ts * ts;
        const double dx = 2540.0 - x0, dy = 1270.0 - y0, l = hypot(dx, dy), ux = dx / l, uy = dy / l;
        int k, n = 0, pockets = 0;

        rfix_open(&f, fps, 300 + (uint64_t)q);
        for (k = 0; k < (int)(5.0 * fps); k++) {
            double t = k / fps, u = fmax(t - 1.0, 0.0), w = u - ts;
            double d = u < ts ? v0 * u - 0.5 * slide * u * u : ds + 5.0 / 7.0 * v0 * w - 0.5 * dec * w * w;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 7, 7, 600.0, 900.0, 0.3, 0.4);
            if (t < 1.0 + 0.12)
                rfix_ball(&f, 0, 0, x0 + d * ux, y0 + d * uy, 0.3, 0.8);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int j = 0; j < n; j++)
                if (f.out[j].type == CR_EV_POCKET && f.out[j].ball == 0) {
                    pockets++;
                    CU_ASSERT_EQUAL(f.out[j].pocket, CR_POCKET_FOOT_RIGHT);
                }
        }
        pockets += rfix_push(&f, true, CR_EV_POCKET, 0);
        CU_ASSERT(pockets <= 1);
        films += pockets == 1;
        rfix_close(&f);
    }
    CU_ASSERT(films >= 7);
    if (films < 7)
        printf("\n  pocketed in %d films of 8", films);
}

/* At 120 fps the 7, resting 260 mm from the foot-right pocket, is struck;
 * the tracker finds it once, its fit jumped 40 mm toward the pocket (a
 * ball of the cloth's colour beside the cushion's shadow), holds it on
 * that course for five frames, and lets it go. One sighting's velocity
 * (4.8 m/s, from the jump) is no course into a pocket that far: no pocket
 * (it went on unseen). */
static void test_one_sighting_is_no_course(void)
{
    rfix_t f;
    const double fps = 120.0, px = 2277.0, py = 1129.0, ux = 0.906, uy = 0.423, R = 28.575;
    const double cx0 = px - 2.0 * R - 600.0, tc = 2.0;
    int k, n = 0, pockets = 0;

    rfix_open(&f, fps, 4242);
    for (k = 0; k < (int)(5.0 * fps); k++) {
        double t = k / fps, cx = t < 1.5 ? cx0 : fmin(cx0 + 1200.0 * (t - 1.5), px - 2.0 * R);
        cr_ball_obs_t *o;

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 0, cx, py, 0.3, 0.4);
        if (t < tc + 0.5 / fps) {
            rfix_ball(&f, 7, 7, px, py, 0.3, 0.4);
        } else if (t < tc + 1.5 / fps) {
            rfix_ball(&f, 7, 7, px + 40.0 * ux, py + 40.0 * uy, 0.3, 0.4);
        } else if (t < tc + 6.5 / fps) {
            double d = 40.0 + 4800.0 * (t - tc - 1.0 / fps);

            o = rfix_ball(&f, 7, 7, px + d * ux, py + d * uy, 0.0, 0.4);
            o->status = CR_BALL_HIDDEN;
        }
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        pockets += count(f.out, n, CR_EV_POCKET, 7);
    }
    pockets += rfix_push(&f, true, CR_EV_POCKET, 7);
    CU_ASSERT_EQUAL(pockets, 0);
    rfix_close(&f);
}

/* The 5 hangs in the foot-right jaws and drops (pocketed); later, while the
 * shooter aims, the tracker names the 5 a thing at rest mid-table (a hand,
 * the cue's butt), and the cue ball is struck. In a game a pocketed ball
 * comes back only where the rules put balls (spotted on the long string,
 * re-racked) or where it was last seen: the stroke does not list the 5 mid-
 * table (in 9-ball it would be the lowest ball), and does list it on the foot
 * spot; in practice (no game) balls are set up anywhere. */
static void test_pocketed_ball_named_elsewhere(void)
{
    static const double back[3][2] = {{880.0, 714.0}, {1905.0, 635.0}, {880.0, 714.0}};
    static const bool game[3] = {true, true, false}, want[3] = {false, true, true};

    for (int q = 0; q < 3; q++) {
        rfix_t f;
        const double fps = 30.0, t0 = 4.0;
        int k, n, strokes = 0;
        bool listed = false;

        rfix_open_game(&f, fps, 103 + (uint64_t)q, game[q]);
        for (k = 0; k < (int)(6.0 * fps); k++) {
            double t = k / fps, d = t > t0 ? fmin(t - t0, 1.5) - 0.25 * fmin(t - t0, 1.5) * fmin(t - t0, 1.5) : 0.0;
            cr_ball_obs_t *o;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 1, 500.0 + 1500.0 * d, 600.0, 0.3, 0.5);
            rfix_ball(&f, 3, 2, 1200.0, 300.0, 0.3, 0.4);
            if (t < 1.0) {
                rfix_ball(&f, 5, 3, 2525.5, 1223.8, 0.3, 0.4);
            } else if (t < 2.5) { /* lost in the jaws: held where it was */
                o = rfix_ball(&f, 5, 3, 2525.5, 1223.8, 0.0, 0.4);
                o->status = CR_BALL_HIDDEN;
            } else {
                rfix_ball(&f, 5, 4, back[q][0], back[q][1], 0.3, 0.6);
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            rfix_strokes_list(&f, n, 0, 5, &strokes, &listed);
        }
        rfix_end_listed(&f, q, 1, strokes, listed, want[q]);
    }
}

/* The time of the cue ball's left-cushion contact among the n events out,
 * or got when there is none. */
static double left_cushion_of_cue(const rfix_t *f, int n, double got)
{
    for (int j = 0; j < n; j++)
        if (f->out[j].type == CR_EV_CUSHION && f->out[j].ball == 0 && f->out[j].rail == CR_RAIL_LEFT)
            got = f->out[j].t;
    return got;
}

/* Slow contacts with a cushion at 120 fps (the normal speed 60-120 mm/s in,
 * a third of it out, along the cushion 300 mm/s), the contact at eight
 * places within a frame interval. The tracker gives each detection (noise
 * 0.3 mm) and its smoothed position: here the mean over 15 frames about it,
 * which rounds the turn as the tracker's fitted windows do when a small
 * kink hides in their noise. Timed from the smoothed positions the contacts
 * came late, 3 of the 8 over a frame period (up to 14 ms); from the
 * detections each is within a frame period (up to 4.5 ms off). */
static void test_slow_cushion_timed_from_detections(void)
{
    enum { NF = 360, HW = 7 };
    static double raw[NF][2];
    const double fps = 120.0, R = 28.575, t_hit = 1.0;
    int within = 0, total = 0;

    for (int q = 0; q < 8; q++) {
        rfix_t f;
        const double vin = 60.0 + 8.0 * q, tc = t_hit + 0.5 + (q + 0.5) / (8.0 * fps);
        const double y0 = R + vin * (tc - t_hit); /* where it rests, so that it reaches R at tc */
        double got = NAN;
        int k, n;

        rfix_open(&f, fps, 151 + (uint64_t)q);
        for (k = 0; k < NF; k++) {
            double t = k / fps, u = t - t_hit, x = 1000.0, y = y0;

            if (u > 0) {
                x += 300.0 * u;
                y = t < tc ? y0 - vin * u : R + vin / 3.0 * (t - tc);
            }
            raw[k][0] = x + 0.3 * gauss();
            raw[k][1] = y + 0.3 * gauss();
        }
        for (k = 0; k < NF; k++) {
            double mx = 0, my = 0;
            int m = 0;
            cr_ball_obs_t *o;

            for (int j = k - HW; j <= k + HW; j++)
                if (j >= 0 && j < NF)
                    mx += raw[j][0], my += raw[j][1], m++;
            rfix_frame(&f, k / fps, k);
            o = rfix_ball(&f, 0, 1, mx / m, my / m, 0.0, 0.3);
            o->has_raw = true;
            o->raw_x = raw[k][0];
            o->raw_y = raw[k][1];
            rfix_ball(&f, 3, 2, 600.0, 900.0, 0.0, 0.3);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            got = left_cushion_of_cue(&f, n, got);
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        got = left_cushion_of_cue(&f, n, got);
        total++;
        within += fabs(got - tc) <= 1.0 / fps;
        if (getenv("LEAN_DEBUG"))
            printf("\n   q %d in %.0f mm/s: %+.1f ms", q, vin, 1000.0 * (got - tc));
        rfix_close(&f);
    }
    CU_ASSERT_EQUAL(within, total);
    if (within < total || getenv("LEAN_DEBUG"))
        printf("\n  slow cushions from the detections: %d of %d within a frame", within, total);
}

/* After a game the cue ball is picked up; a new rack stands and the tracker
 * takes one of its balls (a stripe, white from above) for the cue ball; it
 * takes the number back as the cue ball is put down behind the head string,
 * and gives it to that (60 fps), which is struck. The cue ball is struck
 * from where it was put down. The old track used to keep the cue ball's
 * slot: here no stroke was seen; on the film (1080p120 clip 13) the break
 * was judged played from the rack, a foul. */
static void test_number_taken_back_for_the_cue_ball(void)
{
    rfix_t f;
    const double fps = 60.0, t_put = 4.0, t_hit = 5.0;
    int k, n, strokes = 0;
    double cue_x = NAN;

    rfix_open(&f, fps, 171);
    for (k = 0; k < (int)(6.5 * fps); k++) {
        double t = k / fps, d = t > t_hit ? 1500.0 * (t - t_hit) : 0.0;

        rfix_frame(&f, t, k);
        if (t < 1.0)
            rfix_ball(&f, 0, 1, 2300.0, 900.0, 0.3, 0.4); /* then picked up */
        if (t >= 2.0) {
            /* the rack: the 10's track named 0 until the cue ball is down */
            rfix_ball(&f, t < t_put - 0.2 ? 0 : -1, 2, 2003.99, 577.85, 0.3, 0.4);
            rfix_ball(&f, 1, 3, 1905.0, 635.0, 0.3, 0.4);
            rfix_ball(&f, 9, 4, 2003.99, 635.0, 0.3, 0.4);
        }
        if (t >= t_put)
            rfix_ball(&f, 0, 5, 378.5 + d, 636.0, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int j = 0; j < n; j++)
            if (f.out[j].type == CR_EV_STROKE) {
                strokes++;
                for (int b = 0; b < f.out[j].n_balls; b++)
                    if (f.out[j].balls[b].id == 0)
                        cue_x = f.out[j].balls[b].x;
            }
    }
    rfix_push(&f, true, CR_EV_STROKE, -1);
    CU_ASSERT_EQUAL(strokes, 1);
    CU_ASSERT(fabs(cue_x - 378.5) < 5.0);
    if (strokes != 1 || !(fabs(cue_x - 378.5) < 5.0))
        printf("\n  %d strokes, the cue ball struck from x = %.1f", strokes, cue_x);
    rfix_close(&f);
}

/* The 5 drops in the foot-right pocket; the balls are racked (nine, 9-ball)
 * and broken (60 fps; the rack scatters outward from its middle). In the
 * rack the tracker takes the 5 for the 7 (red and maroon) and leaves the 7
 * unnamed; the break sends the 5 to mid-table, 435 mm off the foot spot's
 * string, and two seconds later the tracker names it right; the cue ball
 * is struck again. A rack puts pocketed balls back: the second stroke lists
 * the 5 where it lies (it used to stay pocketed, its number refused, and
 * every contact with it was lost). With no rack (two balls over the foot
 * spot; or nine loose, none on the spot, as a soft break leaves them) a
 * pocketed ball named there is nothing the rules put back: it is not
 * listed. */
static void test_racked_ball_named_after_the_break(void)
{
    /* the 9-ball diamond on the foot spot: the 5 (track 20, taken for the 7)
     * at the 6's place, the 7 (unnamed) behind it */
    static const double spot[9][2] = {{1905.0, 635.0},   {1954.49, 606.42}, {1954.49, 663.58},
                                      {2003.99, 577.85}, {2003.99, 635.0},  {2003.99, 692.15},
                                      {2053.48, 606.42}, {2053.48, 663.58}, {2102.97, 635.0}};
    static const int ids[9] = {1, 2, 3, 5, 9, -1, 4, 8, 6};
    static const bool racked[3] = {true, false, true}, want[3] = {true, false, false};

    for (int q = 0; q < 3; q++) {
        rfix_t f;
        const double fps = 60.0, t1 = 4.0, tc = 4.5, t2 = 7.5, apex = 1905.0 - 2.0 * 28.575;
        int k, n, strokes = 0;
        bool listed = false;

        rfix_open_game(&f, fps, 131 + (uint64_t)q, true);
        for (k = 0; k < (int)(9.0 * fps); k++) {
            double t = k / fps, cx;

            rfix_frame(&f, t, k);
            /* the break: 1.5 m/s to the apex, stopped dead there; then
             * struck back up the table */
            cx = t < t1 ? 1000.0 : t < tc ? 1000.0 + (apex - 1000.0) * (t - t1) / (tc - t1) : apex;
            if (t > t2)
                cx -= 1200.0 * fmin(t - t2, 1.0) - 500.0 * fmin(t - t2, 1.0) * fmin(t - t2, 1.0);
            rfix_ball(&f, 0, 1, cx, 635.0, 0.3, 0.5);
            if (t < 1.0) {
                rfix_ball(&f, 5, 2, 2525.5, 1223.8, 0.3, 0.4);
            } else if (t < 2.5) { /* lost in the jaws: held where it was */
                cr_ball_obs_t *o = rfix_ball(&f, 5, 2, 2525.5, 1223.8, 0.0, 0.4);

                o->status = CR_BALL_HIDDEN;
            }
            for (int j = 0; j < 9; j++) {
                /* each rack ball runs out from the rack's middle for 0.8 s,
                 * slowing to rest; the 5 to (1300, 200) */
                const double mx = 2003.99, my = 635.0;
                double ux = spot[j][0] - mx, uy = spot[j][1] - my, len = hypot(ux, uy), go, s, x, y;
                double px = spot[j][0], py = spot[j][1];

                if (q == 2) {
                    /* what a soft break leaves: loose (0.2 R gaps), none
                     * on the spot */
                    px = mx + 60.0 + 1.1 * (px - mx);
                    py = my + 1.1 * (py - my);
                }

                if (!racked[q] && j != 0 && ids[j] != 5)
                    continue;
                if (ids[j] == 5) {
                    ux = 1300.0 - px;
                    uy = 200.0 - py;
                    len = hypot(ux, uy);
                    go = len;
                } else {
                    if (len < 1.0)
                        ux = 1.0, uy = 0.0, len = 1.0;
                    go = 200.0;
                }
                s = t < tc ? 0.0 : fmin((t - tc) / 0.8, 1.0);
                x = px + ux / len * go * s * (2.0 - s);
                y = py + uy / len * go * s * (2.0 - s);
                if (ids[j] != 5)
                    rfix_ball(&f, ids[j], 10 + j, x, y, 0.3, 0.4);
                else if (t >= 3.0) /* racked by hand at 3 s; named right 2 s after the break */
                    rfix_ball(&f, t >= tc + 2.0 ? 5 : 7, 20, x, y, 0.3, 0.5);
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            rfix_strokes_list(&f, n, 2, 5, &strokes, &listed);
        }
        rfix_end_listed(&f, q, 2, strokes, listed, want[q]);
    }
}

/* A ball still rolling slowly from the last shot (90 mm/s) passes the
 * resting cue ball a hair off touching just as the cue ball is struck away
 * from it at 1.6 m/s (1080p60). A ball struck from rest leaves no faster than
 * what hit it: the slow ball did not send the cue ball off, the cue did (one
 * stroke, no collision). */
static void test_slow_ball_is_no_hitter(void)
{
    rfix_t f;
    const double fps = 60.0, t0 = 4.008, ux = -1.0;
    int k, n, strokes = 0, coll = 0;

    rfix_open(&f, fps, 107);
    for (k = 0; k < (int)(6.0 * fps); k++) {
        double t = k / fps, d = t > t0 ? fmin(t - t0, 1.0) * (1600.0 - 700.0 * fmin(t - t0, 1.0)) : 0.0;

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 1, 1852.0 + ux * d, 848.0, 0.3, 0.4);
        /* rolling along y at 90 mm/s, 58 mm from the cue ball's centre at t0 */
        rfix_ball(&f, 6, 2, 1910.0, 848.0 + 90.0 * (t - t0), 0.3, 0.6);
        rfix_ball(&f, 3, 3, 600.0, 300.0, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int j = 0; j < n; j++) {
            strokes += f.out[j].type == CR_EV_STROKE;
            coll += f.out[j].type == CR_EV_COLLISION;
        }
    }
    rfix_push(&f, true, CR_EV_STROKE, -1);
    CU_ASSERT_EQUAL(strokes, 1);
    CU_ASSERT_EQUAL(coll, 0);
    if (strokes != 1 || coll)
        printf("\n  %d strokes, %d collisions", strokes, coll);
    rfix_close(&f);
}

/* Between shots a ball of the cloth's colour rests 19 mm from the cue ball
 * (a green 6 on green cloth, 60 fps, its fits said to be good to 0.6 mm):
 * as the cue comes through, the 6's fit wavers toward the cue ball and
 * settles 10 mm nearer it, and the cue ball is struck away from it at
 * 1.3 m/s. The 6 came from nowhere, so it did not send the cue ball off:
 * the cue ball's start is a stroke (it used to be taken for a collision
 * with the 6, and the shot was lost). Whether the 6 was touched after the
 * stroke is not asked here. */
static void test_waver_is_no_hitter_between_shots(void)
{
    /* the 6's fits, one a frame from 8 frames before the stroke (as
     * measured on a 1080p60 film) */
    static const double wx[12] = {1926.8, 1918.8, 1916.7, 1914.6, 1925.8, 1922.5,
                                  1917.3, 1926.3, 1919.5, 1917.9, 1917.3, 1917.4};
    static const double wy[12] = {861.4, 864.0, 864.0, 864.1, 865.1, 865.2, 865.2, 865.6, 863.0, 865.1, 866.2, 866.9};
    rfix_t f;
    const double fps = 60.0, t0 = 4.0 + 8.5 / fps, ux = -0.984, uy = 0.178;
    int k, strokes = 0, moving = 0;

    rfix_open(&f, fps, 113);
    for (k = 0; k < (int)(6.0 * fps); k++) {
        double t = k / fps, d = t > t0 ? fmin(t - t0, 1.0) * (1340.0 - 600.0 * fmin(t - t0, 1.0)) : 0.0;
        int q = k - (int)(4.0 * fps);

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 1, 1852.3 + ux * d, 848.1 + uy * d, 0.2, 0.4);
        if (q < 0)
            rfix_ball(&f, 6, 2, 1927.0, 862.5, 1.5, 0.6);
        else
            rfix_ball(&f, 6, 2, q < 12 ? wx[q] : 1917.3, q < 12 ? wy[q] : 866.5, q < 12 ? 0.0 : 0.5, 0.6);
        rfix_ball(&f, 3, 3, 600.0, 300.0, 0.3, 0.4);
        rfix_push_strokes(&f, &strokes, &moving);
    }
    rfix_push(&f, true, CR_EV_STROKE, -1);
    CU_ASSERT_EQUAL(strokes, 1);
    if (strokes != 1)
        printf("\n  %d strokes", strokes);
    rfix_close(&f);
}

/* Between shots a ball resting beside another wavers off it (its fit
 * creeps 60 mm/s as the cue comes over it, 60 fps; 6 mm, a pause, and on
 * again the same way) until the cue ball, elsewhere, is struck. Nothing is
 * struck between shots: the neighbour did not set it rolling, and it is no
 * ball still moving from the last shot. */
static void test_waver_beside_a_ball_at_the_stroke(void)
{
    rfix_t f;
    const double fps = 60.0, t0 = 4.0;
    int k, strokes = 0, moving = 0;

    rfix_open(&f, fps, 109);
    for (k = 0; k < (int)(6.0 * fps); k++) {
        double t = k / fps, d = t > t0 ? fmin(t - t0, 1.0) * (1500.0 - 700.0 * fmin(t - t0, 1.0)) : 0.0;
        double w = 60.0 * (fmin(fmax(t - 3.5, 0.0), 0.1) + fmin(fmax(t - 3.85, 0.0), 0.3));

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 1, 500.0 + d, 600.0, 0.3, 0.4);
        rfix_ball(&f, 3, 2, 1600.0, 900.0, 0.3, 0.4);
        rfix_ball(&f, 13, 3, 1658.0 + w, 900.0, 0.3, 0.6);
        rfix_push_strokes(&f, &strokes, &moving);
    }
    rfix_end_one_still_stroke(&f, strokes, moving);
}

/* A ball struck along the foot cushion rolls beside it, 1-6 mm short of
 * touching, and stops there, at 200-800 mm/s, its fits jittering by 1 mm,
 * at 30, 60 and 120 fps (120 rolls each): it never touched the cushion. A
 * ball that stops within a sigma of touching, having come from further
 * off, was driven to it (came_to_rest_on_cushion()); where it came from was
 * read off its last segment's fit at the segment's start, seconds back,
 * where a fit of its last quarter second says nothing: 33 of the 360 rolls
 * read as cushion contacts (15, 10 and 8). From the segment before it
 * (here, the ball's rest before the stroke), 8. */
static void test_rolled_beside_a_cushion(void)
{
    int made = 0;

    for (int v = 0; v < 3; v++) {
        const double fps = v == 0 ? 30.0 : v == 1 ? 60.0 : 120.0;

        for (int q = 0; q < 120; q++) {
            const double gap = 1.0 + (q % 6), v0 = 200.0 + 200.0 * ((q / 6) % 4), dec = 100.0, t0 = 1.0;
            const double xr = 2540.0 - CR_BALL_RADIUS_MM;
            int n;
            rfix_t f;

            rfix_open(&f, fps, 3000 + (uint64_t)q);
            for (int k = 0; k < (int)((t0 + v0 / dec + 1.5) * fps); k++) {
                const double t = k / fps, u = fmin(fmax(t - t0, 0.0), v0 / dec);
                const bool rolling = t > t0 && u < v0 / dec;

                rfix_frame(&f, t, k);
                rfix_ball(&f, 0, 0, 600.0, 600.0 - 300.0 * fmin(fmax(t0 - t, 0.0), t0 - 0.5), 0.3, 0.4);
                rfix_ball(&f, 1, 1, xr - gap, 150.0 + v0 * u - 0.5 * dec * u * u, rolling ? 1.0 : 0.3,
                          rolling ? 1.0 : 0.4);
                CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
                made += count(f.out, n, CR_EV_CUSHION, 1);
            }
            CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
            made += count(f.out, n, CR_EV_CUSHION, 1);
            rfix_close(&f);
        }
    }
    CU_ASSERT(made <= 10);
    if (made > 10)
        printf("\n  %d cushion contacts made up over 360 rolls beside it", made);
}

/* A ball rolls slowly up to a cushion and stops against it (60 fps): it
 * touched the cushion ("driven to a rail", RULES.md 6.3), though it never
 * comes off it: one cushion event on that rail, about when it got there. */
static void test_rolled_up_to_a_cushion(void)
{
    rfix_t f;
    const double fps = 60.0, t0 = 1.0, R = 28.575, yc = 1100.0 - 2 * R, th = t0 + (yc - 600.0) / 400.0;
    const double ty = th + 200.0 / (2 * 70.71);
    int k, n, cush = 0, other = 0;
    double t_c = -1;

    rfix_open(&f, fps, 113);
    for (k = 0; k < (int)(5.0 * fps); k++) {
        double t = k / fps, tau = fmin(fmax(t - th, 0.0), 200.0 / (2 * 70.71));

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 1, 1500.0, t < t0 ? 600.0 : fmin(600.0 + 400.0 * (t - t0), yc), 0.3, 0.4);
        rfix_ball(&f, 3, 2, 1500.0, 1100.0 + 200.0 * tau - 70.71 * tau * tau, 0.3, 0.4);
        rfix_ball(&f, 5, 3, 600.0, 300.0, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int j = 0; j < n; j++)
            if (f.out[j].type == CR_EV_CUSHION) {
                if (f.out[j].ball == 3 && f.out[j].rail == CR_RAIL_RIGHT)
                    cush++, t_c = f.out[j].t;
                else
                    other++;
            }
    }
    CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
    for (int j = 0; j < n; j++)
        if (f.out[j].type == CR_EV_CUSHION && f.out[j].ball == 3)
            cush++, t_c = f.out[j].t;
    CU_ASSERT_EQUAL(cush, 1);
    CU_ASSERT_EQUAL(other, 0);
    CU_ASSERT_DOUBLE_EQUAL(t_c, ty, 0.3);
    if (cush != 1 || other || fabs(t_c - ty) > 0.3)
        printf("\n  %d cushion events (%d others), at %.3f s (reached %.3f s)", cush, other, t_c, ty);
    rfix_close(&f);
}

/* Between shots a lone resting ball's fit wavers (6 mm one way, 60 fps),
 * stops a moment, and wavers off another way in the frame the cue ball is
 * seen struck (both starts decided together): nothing started it either
 * time, and it is no ball still moving from the last shot. */
static void test_waver_resumes_at_the_stroke(void)
{
    rfix_t f;
    const double fps = 60.0, t0 = 4.0;
    int k, strokes = 0, moving = 0;

    rfix_open(&f, fps, 127);
    for (k = 0; k < (int)(6.0 * fps); k++) {
        double t = k / fps, d = t > t0 ? fmin(t - t0, 1.0) * (1500.0 - 700.0 * fmin(t - t0, 1.0)) : 0.0;
        double w1 = 60.0 * fmin(fmax(t - 3.7, 0.0), 0.1), w2 = t > 4.01 ? 3.5 + 90.0 * fmin(t - 4.01, 0.2) : 0.0;

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 1, 500.0 + d, 600.0, 0.3, 0.4);
        rfix_ball(&f, 13, 3, 1658.0 + w1, 900.0 + w2, 0.3, 0.6);
        rfix_push_strokes(&f, &strokes, &moving);
    }
    rfix_end_one_still_stroke(&f, strokes, moving);
}

/* Where a ball rolling from (x0, y0) at velocity (vx, vy), slowing at 98
 * mm/s^2 (rolling resistance), is after tau seconds. */
static void roll_at(double x0, double y0, double vx, double vy, double tau, double *x, double *y)
{
    double v = hypot(vx, vy), ts = v / 98.0, tt = fmin(fmax(tau, 0.0), ts), d = v * tt - 49.0 * tt * tt;

    *x = x0 + (v > 0 ? vx / v : 0) * d;
    *y = y0 + (v > 0 ? vy / v : 0) * d;
}

/* 120 fps: the cue ball, struck at 300 mm/s, stuns into the 4, which rolls
 * on along +x. 2.5 s after, nearly stopped (55 mm/s), either its fit steps
 * 4 mm ahead and stays there (a seeming speed-up: 4 mm in a frame is 480
 * mm/s at 120 fps), or a hand pushes it
 * sideways (700 mm/s). Only the push is a touched ball: the glitched ball
 * rests where its own roll takes it. */
static void test_rolling_ball_glitch_or_touch(void)
{
    for (int q = 0; q < 2; q++) {
        rfix_t f;
        const double fps = 120.0, t0 = 0.5, R = 28.575, th = t0 + (800.0 - 2 * R - 500.0) / 300.0, tk = th + 2.5;
        int k, dist = 0;

        rfix_open(&f, fps, 131 + (uint64_t)q);
        for (k = 0; k < (int)(12.0 * fps); k++) {
            double t = k / fps, cx = t < t0 ? 500.0 : fmin(500.0 + 300.0 * (t - t0), 800.0 - 2 * R), x, y;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 1, cx, 600.0, 0.3, 0.4);
            if (t < tk || q == 0) {
                roll_at(800.0, 600.0, 300.0, 0.0, t - th, &x, &y);
                if (q == 0 && t >= tk)
                    x += 4.0;
            } else {
                double x1, y1;

                roll_at(800.0, 600.0, 300.0, 0.0, tk - th, &x1, &y1);
                roll_at(x1, y1, 300.0 - 98.0 * 2.5, 700.0, t - tk, &x, &y);
            }
            rfix_ball(&f, 4, 2, x, y, 0.3, 0.4);
            rfix_ball(&f, 7, 3, 2000.0, 300.0, 0.3, 0.4);
            dist += rfix_push(&f, false, CR_EV_DISTURBED, 4);
        }
        dist += rfix_push(&f, true, CR_EV_DISTURBED, 4);
        CU_ASSERT_EQUAL(dist, q);
        if (dist != q)
            printf("\n  %s: %d disturbed", q ? "pushed" : "glitched", dist);
        rfix_close(&f);
    }
}

/* A ball of the cloth's colour at rest as the cue comes over it before a
 * stroke: its fits waver more and more, up to several millimetres frame
 * after frame, while each claims a millimetre. The scatter seen at that
 * rest, not the claimed sigma, decides what is a start: no disturbed ball.
 * (A waver that jumps to 9 mm at once is still taken for a start: the
 * scatter is learned from the samples taken as at rest.) */
static void test_wavering_more_than_it_says(void)
{
    rfix_t f;
    const double fps = 60.0;
    int k, disturbed = 0;

    rfix_open(&f, fps, 97);
    for (k = 0; k < (int)(6.0 * fps); k++) {
        double t = k / fps, ox = 0.0, oy = 0.0;
        cr_ball_obs_t *o;

        if (t >= 1.5 && t < 5.0) { /* the cue coming over it: fits off by up to 9 mm */
            double amp = 9.0 * fmin(1.0, (t - 1.5) / 1.5);

            ox = amp * (2.0 * urand() - 1.0);
            oy = amp * (2.0 * urand() - 1.0);
        }
        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 0, 1852, 848, 0.5, 0.5);
        o = rfix_ball(&f, 6, 1, 1928 + ox, 861 + oy, 0.4, 1.0);
        (void)o;
        disturbed += rfix_push(&f, false, CR_EV_DISTURBED, 6);
    }
    disturbed += rfix_push(&f, true, CR_EV_DISTURBED, 6);
    CU_ASSERT_EQUAL(disturbed, 0);
    rfix_close(&f);
}

/* Between shots nothing is struck. Before the first shot a racked ball's
 * detections shift toward its neighbour for a moment (a hand or the cue
 * over it biases the fit) and the neighbour's shift a little later: no
 * collision between them (the reconstruction used to explain the second
 * start by the first ball's path having come within 2R). */
static void test_waver_between_shots(void)
{
    rfix_t f;
    const double fps = 60.0, R = 28.575;
    int k, collisions = 0;

    rfix_open(&f, fps, 83);
    for (k = 0; k < (int)(4.0 * fps); k++) {
        double t = k / fps, a = 0.0, b = 0.0;

        if (t >= 1.0 && t < 1.3)
            a = 12.0 * fmin(1.0, (t - 1.0) * fps / 3.0);
        if (t >= 1.2)
            b = 8.0 * fmin(1.0, (t - 1.2) * fps / 3.0);
        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 0, 500, 600, 0.3, 0.3);
        rfix_ball(&f, 7, 1, 1200 + a, 600, 0.3, 0.3);
        rfix_ball(&f, 8, 2, 1200 + 2.0 * R + 0.5 + b, 600, 0.3, 0.3);
        collisions += rfix_push(&f, false, CR_EV_COLLISION, -1);
    }
    collisions += rfix_push(&f, true, CR_EV_COLLISION, -1);
    CU_ASSERT_EQUAL(collisions, 0);
    rfix_close(&f);
}

/* Between shots a ball of the cloth's colour whose measured place jumps
 * back and forth by 15 mm (its outline and its highlights taking turns),
 * toward a resting neighbour 20 mm beyond touching and back: its turns are
 * kinks beside a ball that stays put, and between shots nothing is struck:
 * no collision. */
static void test_waver_turns_beside_a_ball(void)
{
    rfix_t f;
    const double fps = 60.0, R = 28.575;
    int k, collisions = 0;

    rfix_open(&f, fps, 84);
    for (k = 0; k < (int)(4.0 * fps); k++) {
        double t = k / fps, a = 0.0;
        int q = (k / 4) % 4; /* four frames out, four back, eight still */

        if (t >= 1.0 && t < 3.0)
            a = q == 0 ? -3.75 * (k % 4 + 1) : q == 1 ? -15.0 + 3.75 * (k % 4 + 1) : 0.0;
        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 0, 1200 - 2.0 * R - 20.0, 600, 0.3, 0.3);
        rfix_ball(&f, 6, 1, 1200 + a, 600, 0.8, 0.8);
        collisions += rfix_push(&f, false, CR_EV_COLLISION, -1);
    }
    collisions += rfix_push(&f, true, CR_EV_COLLISION, -1);
    CU_ASSERT_EQUAL(collisions, 0);
    rfix_close(&f);
}

/* The green 6 on green cloth coming to rest at 60 fps, as the tracker gave
 * it on a film (its shadow taken into its fit, held hidden a few frames,
 * then flipping between where it lay and places 9 and 19 mm off for a
 * second: {x, y, hidden}), then still where it ended. It came back to where
 * it sat moments before, so it was not moved: no disturbed. The same with
 * the ball settling, from its last flip on, 20 mm the other way, where it
 * never sat: disturbed. */
static const double flip_6[][3] = {
    {805.6, 429.7, 0}, {788.8, 434.4, 0}, {790.4, 434.0, 0}, {792.1, 433.6, 1}, {794.8, 435.2, 0},
    {797.0, 435.7, 1}, {799.2, 436.3, 1}, {810.8, 430.1, 0}, {813.7, 422.3, 0}, {815.9, 422.2, 0},
    {801.2, 430.3, 0}, {802.4, 429.8, 0}, {803.7, 429.4, 0}, {803.9, 429.1, 1}, {806.3, 428.4, 0},
    {807.5, 427.9, 0}, {811.4, 426.4, 1}, {814.0, 425.3, 1}, {816.7, 424.2, 1}, {818.6, 423.4, 1},
    {828.8, 418.1, 0}, {830.0, 417.8, 0}, {831.0, 420.8, 0}, {834.6, 418.8, 1}, {836.9, 418.9, 1},
    {838.4, 417.6, 0}, {840.5, 417.2, 1}, {842.6, 416.8, 1}, {837.2, 418.3, 0}, {819.1, 424.8, 0},
    {812.7, 416.8, 0}, {813.3, 416.8, 0}, {815.1, 416.8, 0}, {804.2, 416.3, 1}, {800.9, 415.0, 1},
    {829.1, 421.5, 0}, {846.2, 415.0, 0}, {843.6, 416.2, 0}, {848.2, 415.1, 0}, {848.7, 414.9, 0},
    {849.4, 415.2, 0}, {848.7, 413.7, 0}, {848.2, 412.9, 0}, {819.1, 415.6, 0}, {790.2, 419.3, 1},
    {761.2, 422.9, 1}, {732.3, 426.5, 1}, {704.0, 430.0, 1}, {846.6, 413.8, 0}, {847.5, 413.6, 0},
    {848.5, 413.4, 0}, {849.4, 413.2, 0}, {850.4, 413.0, 0}, {831.1, 418.5, 0}, {849.2, 413.1, 0},
    {849.1, 413.0, 0}, {849.0, 412.9, 0}, {849.0, 412.8, 0}, {848.9, 412.8, 0}, {832.0, 419.1, 0},
    {832.0, 419.1, 0}, {832.0, 419.1, 0}, {840.5, 418.2, 0}, {840.5, 418.2, 0}, {840.5, 418.2, 0},
    {840.5, 418.2, 0}, {840.5, 418.2, 0}, {840.5, 418.2, 0}, {840.5, 418.2, 0}, {831.9, 419.2, 0},
    {831.9, 419.2, 0}, {831.9, 419.2, 0}, {846.4, 414.5, 0}, {850.9, 413.2, 0}, {850.9, 413.2, 0},
    {850.9, 413.2, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {840.5, 418.2, 0},
    {840.5, 418.2, 0}, {840.5, 418.2, 0}, {840.5, 418.2, 0}, {840.5, 418.2, 0}, {840.5, 418.2, 0},
    {840.5, 418.2, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {851.3, 413.2, 0},
    {851.3, 413.2, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0},
    {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {850.9, 411.3, 0},
    {850.9, 411.3, 0}, {850.7, 411.4, 0}, {832.2, 419.4, 0}, {838.0, 417.0, 0}, {832.2, 419.5, 0},
    {832.1, 419.4, 0}, {832.1, 419.3, 0}, {832.0, 419.2, 0}, {831.9, 419.1, 0}, {832.0, 419.2, 0},
    {832.0, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0},
    {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0},
    {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0}, {831.9, 419.1, 0},
    {831.9, 419.1, 0}, {831.9, 419.1, 0}};

static void test_fit_flips_back_not_disturbed(void)
{
    const int n = (int)(sizeof(flip_6) / sizeof(flip_6[0])), last_flip = 102;
    const double fps = 60.0;

    for (int q = 0; q < 2; q++) {
        rfix_t f;
        int k, disturbed = 0;

        rfix_open(&f, fps, 91 + (uint64_t)q);
        for (k = 0; k < n + (int)(2.0 * fps); k++) {
            const double *r = flip_6[k < n ? k : n - 1];
            double dx = q == 1 && k >= last_flip ? -20.0 : 0.0, dy = q == 1 && k >= last_flip ? 6.0 : 0.0;

            rfix_frame(&f, k / fps, k);
            rfix_ball(&f, 0, 0, 1500, 900, 0.3, 0.3);
            if (k < n && r[2] > 0)
                rfix_ball(&f, 6, 1, r[0] + dx, r[1] + dy, 0.0, 0.5)->status = CR_BALL_HIDDEN;
            else
                rfix_ball(&f, 6, 1, r[0] + dx, r[1] + dy, k < n ? 0.0 : 0.3, 0.5);
            disturbed += rfix_push(&f, false, CR_EV_DISTURBED, 6);
        }
        disturbed += rfix_push(&f, true, CR_EV_DISTURBED, 6);
        CU_ASSERT_EQUAL(disturbed, q == 0 ? 0 : 1);
        if (disturbed != (q == 0 ? 0 : 1))
            printf("\n  %s: %d disturbed", q == 0 ? "back where it sat" : "a new place", disturbed);
        rfix_close(&f);
    }
}

/* Before the break, with the cue ball not identified yet: an unidentified
 * racked ball whose detections jump 12 mm and stay gives a stroke when its
 * looks allow the cue ball (only the cue ball is struck), none when they
 * rule it out (not_cue). */
static void test_not_cue_no_stroke(void)
{
    for (int q = 0; q < 2; q++) {
        rfix_t f;
        const double fps = 30.0;
        int k, strokes = 0;

        rfix_open(&f, fps, 81 + (uint64_t)q);
        for (k = 0; k < (int)(4.0 * fps); k++) {
            double t = k / fps, off = t >= 2.0 ? 12.0 * fmin(1.0, (t - 2.0) * fps / 3.0) : 0.0;

            rfix_frame(&f, t, k);
            /* the cue ball in the kitchen, not identified (not_cue false) */
            rfix_ball(&f, -1, 0, 485, 555, 0.5, 0.5);
            rfix_ball(&f, 1, 1, 1905, 635, 0.5, 0.5);
            rfix_ball(&f, -1, 2, 2004 - off, 578, 0.5, 1.0)->not_cue = q == 1;
            strokes += rfix_push(&f, false, CR_EV_STROKE, -1);
        }
        strokes += rfix_push(&f, true, CR_EV_STROKE, -1);
        CU_ASSERT_EQUAL(strokes, q == 0 ? 1 : 0);
        rfix_close(&f);
    }
}

/* A ball running along the foot rail past a corner pocket: the tracker
 * loses its track by the pocket and picks the ball up again under a new
 * track a few millimetres on. The old track vanishing by the pocket is no
 * ball dropping (another ball is seen where it was, closer than two balls
 * can be); without the new track it is one. */
static void test_track_break_by_pocket(void)
{
    for (int q = 0; q < 2; q++) {
        cr_table_t tab;
        cr_recon_t *rc = NULL;
        cr_recon_params_t rp;
        cr_ball_frame_t *fr = calloc(1, sizeof(*fr));
        cr_event_t *out = calloc(128, sizeof(*out));
        const double fps = 30.0;
        int n, k, pockets = 0;

        CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        rng = 81 + (uint64_t)q;
        cr_table_init(&tab, 2540.0, 1270.0);
        cr_recon_params_defaults(&rp);
        rp.fps = fps;
        CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, &rp, &rc), 0);
        for (k = 0; k < (int)(4.0 * fps); k++) {
            double t = k / fps, x = 2400.0, y = 300.0;

            if (t > 1.0) { /* from (2400, 300) toward the foot-left pocket, then up the foot rail */
                double u = fmin(t - 1.0, 0.6);

                x = 2400.0 + 100.0 * u / 0.6;
                y = 300.0 - 230.0 * u / 0.6;
                if (t > 1.6) {
                    double w = fmin(t - 1.6, 0.8);

                    x = 2500.0;
                    y = 70.0 + 400.0 * w - 250.0 * w * w;
                }
            }
            memset(fr, 0, sizeof(*fr));
            fr->t = t;
            fr->frame = (uint64_t)k;
            fr->balls[fr->n++] = (cr_ball_obs_t){.id = 0, .track = 0, .x = 600 + 0.5 * gauss(), .y = 600,
                                                 .sigma_mm = 0.5, .status = CR_BALL_SEEN};
            /* track 1 until 1.6 s, then gone where it was last seen */
            fr->balls[fr->n++] = (cr_ball_obs_t){.id = 1, .track = 1, .x = t < 1.6 ? x : 2500.0,
                                                 .y = t < 1.6 ? y : 70.0, .sigma_mm = 0.5,
                                                 .status = t < 1.6 ? CR_BALL_SEEN : t < 1.8 ? CR_BALL_HIDDEN
                                                                                         : CR_BALL_GONE};
            if (q == 0 && t >= 1.6 + 1.0 / fps)
                fr->balls[fr->n++] = (cr_ball_obs_t){.id = -1, .track = 2, .x = x + 0.5 * gauss(),
                                                     .y = y + 0.5 * gauss(), .sigma_mm = 0.5,
                                                     .status = CR_BALL_SEEN};
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(rc, fr, out, 128, &n), 0);
            pockets += count(out, n, CR_EV_POCKET, -1);
        }
        CU_ASSERT_EQUAL(cr_recon_finish(rc, out, 128, &n), 0);
        pockets += count(out, n, CR_EV_POCKET, -1);
        CU_ASSERT_EQUAL(pockets, q == 0 ? 0 : 1);
        cr_recon_destroy(rc);
        free(fr);
        free(out);
    }
}

/* The 3 rests at (1500, 600); the cue ball rolls straight at it from the
 * left at 1500 mm/s. Five frames before the contact the 3's fit wavers 4.5
 * mm sideways for three frames (the cue ball's shade, a pocket's edge) and
 * comes back; then the cue ball strikes it and it rolls off. Its motion is
 * the contact's: no touched ball. */
static void test_waver_before_a_hit_is_no_touch(void)
{
    rfix_t f;
    int disturbed = 0, contacts = 0, n;
    const double fps = 60.0, v = 1500.0, R = 28.575, t_hit = 1.0 + (1500.0 - 2.0 * R - 700.0) / v;

    rfix_open(&f, fps, 151);
    for (int k = 0; k < (int)(4.0 * fps); k++) {
        const double t = k / fps;
        const int kh = (int)floor(t_hit * fps);
        double cx = 700.0, bx = 1500.0, by = 600.0;

        if (t > 1.0)
            cx = t < t_hit ? 700.0 + v * (t - 1.0) : 1500.0 - 2.0 * R; /* a full blow: it stops */
        if (t > t_hit) {
            const double u = fmin(t - t_hit, 0.9);

            bx = 1500.0 + v * u - 0.5 * 1600.0 * u * u;
        }
        if (k >= kh - 5 && k < kh - 2)
            by += 4.5;
        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 0, cx, 600.0, 0.3, 0.4);
        rfix_ball(&f, 3, 1, bx, by, 0.3, 0.5);
        rfix_ball(&f, 9, 2, 600.0, 1000.0, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        disturbed += count(f.out, n, CR_EV_DISTURBED, -1);
        contacts += count(f.out, n, CR_EV_COLLISION, -1);
    }
    CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
    disturbed += count(f.out, n, CR_EV_DISTURBED, -1);
    contacts += count(f.out, n, CR_EV_COLLISION, -1);
    CU_ASSERT_EQUAL(contacts, 1);
    CU_ASSERT_EQUAL(disturbed, 0);
    rfix_close(&f);
}

/* A ball rolling slowly away from the left cushion beside the foot-left
 * pocket (x 2445, from y 35 at 300 mm/s, slowing by 1 m/s^2) is lost there
 * 110 mm from the corner and never seen again: its path never reaches the
 * mouth, so it did not drop (the track ends; no pocket). */
static void test_lost_beside_a_pocket_moving_away(void)
{
    rfix_t f;
    int pockets = 0;
    const double fps = 60.0;

    rfix_open(&f, fps, 141);
    for (int k = 0; k < (int)(5.0 * fps); k++) {
        const double t = k / fps, u = fmin(fmax(t - 1.0, 0.0), 0.3), y = 35.0 + 300.0 * u - 500.0 * u * u;

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 0, 600, 600, 0.3, 0.4);
        rfix_ball(&f, 9, 2, 1500, 900, 0.3, 0.4);
        if (t < 1.1) {
            rfix_ball(&f, 1, 1, 2445.0, y, 0.3, 0.5);
        } else {
            cr_ball_obs_t *o = rfix_ball(&f, 1, 1, 2445.0, 35.0 + 30.0 - 5.0, 0.0, 0.5);

            o->status = t < 1.15 ? CR_BALL_HIDDEN : CR_BALL_GONE;
        }
        pockets += rfix_push(&f, false, CR_EV_POCKET, 1);
    }
    pockets += rfix_push(&f, true, CR_EV_POCKET, 1);
    CU_ASSERT_EQUAL(pockets, 0);
    rfix_close(&f);
}

/* A ball rolling into the foot-left pocket is lost 220 mm before its corner
 * (a pocket shadow, graphics over the rail, a ball the colour of the cloth)
 * and never seen again: it dropped there, at the time its course crosses
 * the mouth, with less than full confidence (the drop was not seen). Not so
 * when a ball rests on that course (it would hit it), when the course meets
 * a cushion instead (it comes back: where to is not known), when a new
 * track appears on the course (the tracker found it again), or when it is
 * found again at rest off its course, beside the corner, half a second
 * after the crossing while the cue ball still rolls (it rattled in the
 * jaws and came back out: a pocket is not decided while the shot goes
 * on). A last sighting reported 40 mm unsure (a faint fit) does not make
 * the course through the sure ones before it unknown. */
static void test_lost_into_pocket(void)
{
    const double fps_of[2] = {30.0, 60.0};

    for (int q = 0; q < 12; q++) {
        const double fps = fps_of[q % 2], v0 = 700.0, dec = 150.0, t0 = 1.0;
        /* 0 pocket, 1 ball in the way, 2 cushion, 3 found again on its course, 4 found again off it,
         * 5 pocket, its last sighting a faint fit reported 40 mm unsure */
        const int kind = q / 2;
        const double tx = 2540.0, ty = kind == 2 ? 600.0 : 0.0;
        const double len = hypot(tx - 2100.0, ty - 400.0), ux = (tx - 2100.0) / len, uy = (ty - 400.0) / len;
        double t_lost = NAN, t_cross = NAN, t_got = NAN, conf = NAN;
        int pockets = 0, pocket = -1, n;
        cr_point_t ja, jb;
        cr_table_t tab;
        rfix_t f;

        cr_table_init(&tab, 2540.0, 1270.0);
        cr_table_pocket_mouth(&tab, CR_POCKET_FOOT_LEFT, &ja, &jb);
        rfix_open(&f, fps, 91 + (uint64_t)q);
        for (int k = 0; k < (int)(5.0 * fps); k++) {
            const double t = k / fps, u = fmax(t - t0, 0.0);
            const double d = fmin(v0 * u - 0.5 * dec * u * u, v0 * v0 / (2.0 * dec));
            const double x = 2100.0 + ux * d, y = 400.0 + uy * d;

            /* the truth: when the centre crosses the mouth (the jaw-to-jaw
             * line) to the corner's side of it */
            const double side = (x - ja.x) * (jb.y - ja.y) - (y - ja.y) * (jb.x - ja.x);
            const double corner = (2540.0 - ja.x) * (jb.y - ja.y) - (0.0 - ja.y) * (jb.x - ja.x);

            if (isnan(t_cross) && kind != 2 && side * corner > 0.0)
                t_cross = t;
            rfix_frame(&f, t, k);
            if (kind == 4) /* rolling at 120 mm/s until t = 3.5 s */
                rfix_ball(&f, 0, 0, 600.0 + 120.0 * fmin(t, 3.5), 600, 0.5, 0.5);
            else
                rfix_ball(&f, 0, 0, 600, 600, 0.5, 0.5);
            if (kind == 1)
                rfix_ball(&f, 5, 2, 2540.0 - 120.0 * 0.7399, 120.0 * 0.6727, 0.5, 0.5);
            if (len - d > 220.0) {
                const double un = u + 1.0 / fps; /* lost in the next frame: its last sighting faint */
                const bool faint = kind == 5 && len - (v0 * un - 0.5 * dec * un * un) <= 220.0;

                rfix_ball(&f, 3, 1, x, y, 0.5, faint ? 40.0 : 0.5);
            } else {
                if (isnan(t_lost))
                    t_lost = t;
                if (kind == 3 && t > t_lost + 2.5 / fps) /* on the course, stopping at the lip */
                    rfix_ball(&f, -1, 3, 2100.0 + ux * fmin(d, len - 40.0), 400.0 + uy * fmin(d, len - 40.0), 0.5,
                              0.5);
                if (kind == 4 && !isnan(t_cross) && t > t_cross + 0.5) /* back out of the jaws, at rest */
                    rfix_ball(&f, 3, 1, 2400.0, 250.0, 0.5, 0.5);
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++)
                if (f.out[e].type == CR_EV_POCKET) {
                    pockets++;
                    pocket = f.out[e].pocket;
                    t_got = f.out[e].t;
                    conf = f.out[e].confidence;
                }
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        pockets += count(f.out, n, CR_EV_POCKET, -1);
        if (kind == 0 || kind == 5) {
            CU_ASSERT_EQUAL(pockets, 1);
            CU_ASSERT_EQUAL(pocket, CR_POCKET_FOOT_LEFT);
            CU_ASSERT_DOUBLE_EQUAL(t_got, t_cross, 1.5 / fps);
            CU_ASSERT(conf > 0.5 && conf < 1.0);
        } else {
            CU_ASSERT_EQUAL(pockets, 0);
        }
        rfix_close(&f);
    }
}

/* A ball of the cloth's colour runs at 1.1 m/s toward the left cushion
 * near the foot-left pocket, 23 degrees off the cushion (60 fps), and is
 * lost as it meets the cushion 135 mm from the corner, never to be seen
 * again: running along the cushion it went into the pocket's mouth (a
 * pocket with a confidence under 1; a ball that rebounded would be seen on
 * the bed again). Not so when it runs the other way along the cushion,
 * away from every pocket (no course: it may lie anywhere), nor when it is
 * found again at rest beside the corner while the cue ball rolls (it came
 * back off the cushion). */
static void test_lost_running_along_a_cushion_into_a_pocket(void)
{
    for (int q = 0; q < 3; q++) {
        const double fps = 60.0, t0 = 1.0, vx = q == 1 ? -1010.0 : 1010.0, vy = -430.0;
        double conf = NAN, xl = 0.0, yl = 0.0, tl = 0.0;
        int pockets = 0, pocket = -1, n;
        rfix_t f;

        rfix_open(&f, fps, 171 + (uint64_t)q);
        for (int k = 0; k < (int)(5.0 * fps); k++) {
            const double t = k / fps, u = fmax(t - t0, 0.0), x = 2090.0 + vx * u, y = 160.0 + vy * u;

            rfix_frame(&f, t, k);
            if (q == 2) /* rolling at 120 mm/s until t = 3.5 s */
                rfix_ball(&f, 0, 0, 600.0 + 120.0 * fmin(t, 3.5), 600, 0.5, 0.5);
            else
                rfix_ball(&f, 0, 0, 600, 600, 0.5, 0.5);
            rfix_ball(&f, 9, 2, 1500, 900, 0.5, 0.5);
            if (y > 40.0) {
                rfix_ball(&f, 7, 1, x, y, 0.5, 0.5);
                xl = x, yl = y, tl = t;
            } else if (q == 2 && t > t0 + 0.7) { /* back off the cushion, at rest */
                rfix_ball(&f, 7, 1, 2440.0, 110.0, 0.5, 0.5);
            } else { /* as the tracker has it: held hidden where last seen, then gone */
                rfix_ball(&f, 7, 1, xl, yl, 0.0, 0.5)->status = t < tl + 2.5 / fps ? CR_BALL_HIDDEN : CR_BALL_GONE;
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++)
                if (f.out[e].type == CR_EV_POCKET)
                    pockets++, pocket = f.out[e].pocket, conf = f.out[e].confidence;
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        for (int e = 0; e < n; e++)
            if (f.out[e].type == CR_EV_POCKET)
                pockets++, pocket = f.out[e].pocket, conf = f.out[e].confidence;
        if (q == 0) {
            CU_ASSERT_EQUAL(pockets, 1);
            CU_ASSERT_EQUAL(pocket, CR_POCKET_FOOT_LEFT);
            CU_ASSERT(conf >= 0.5 && conf < 1.0);
        } else {
            CU_ASSERT_EQUAL(pockets, 0);
        }
        rfix_close(&f);
    }
}

/* As above, but the 7 meets the left cushion at 40 degrees (1.3 m/s), 110
 * mm from the foot-left corner, and is lost a frame after it met it: its
 * course before the cushion runs on into the pocket's mouth (a path of one
 * sample since a contact is no course), but a ball does not run
 * through a cushion's nose, it rebounds (1080p60 clip 10's break: the green
 * 6 on green cloth, lost at such a cushion, was called pocketed, and every
 * ruling after it went to the wrong player). It is found again 0.2 s later
 * rolling back onto the bed: no pocket. Never found again, it is not a
 * certain pocket either (where it went is not known). */
static void test_lost_meeting_a_cushion_before_a_pocket(void)
{
    for (int q = 0; q < 2; q++) {
        const double fps = 60.0, t0 = 1.0, vx = 1000.0, vy = -840.0, xc = 2430.0, yc = 28.575;
        double xl = 0.0, yl = 0.0, conf_max = 0.0;
        int pockets = 0, n;
        rfix_t f;

        rfix_open(&f, fps, 181 + (uint64_t)q);
        for (int k = 0; k < (int)(5.0 * fps); k++) {
            /* it meets the cushion at tc; after it, back onto the bed */
            const double t = k / fps, tc = t0 + 0.25 + 1.0 / fps - 0.014, u = t - tc;
            const double x = xc + vx * u, y = u < 0.0 ? yc + vy * u : yc - 0.6 * vy * u;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 600.0 + 120.0 * fmin(t, 3.5), 600, 0.5, 0.5); /* rolls until t = 3.5 s */
            rfix_ball(&f, 9, 2, 1500, 900, 0.5, 0.5);
            if (t < t0) {
                rfix_ball(&f, 7, 1, xc + vx * (t0 - tc), yc + vy * (t0 - tc), 0.0, 0.5);
            } else if (u < 1.0 / fps) { /* seen until a frame after it met the cushion */
                rfix_ball(&f, 7, 1, x, y, 0.5, 0.5);
                xl = x, yl = y;
            } else if (q == 0 && u > 0.2 && y < 400.0) { /* found again, rolling back onto the bed */
                rfix_ball(&f, 7, 1, x, y, 0.5, 0.5);
            } else if (q == 0 && u > 0.2) { /* and at rest */
                rfix_ball(&f, 7, 1, xc + vx * (400.0 - yc) / (0.6 * -vy), 400.0, 0.5, 0.5);
            } else { /* as the tracker has it: gone at once (run into the pocket, it says) */
                rfix_ball(&f, 7, 1, xl, yl, 0.0, 0.5)->status = CR_BALL_GONE;
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++)
                if (f.out[e].type == CR_EV_POCKET && f.out[e].ball == 7)
                    pockets++, conf_max = fmax(conf_max, f.out[e].confidence);
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        for (int e = 0; e < n; e++)
            if (f.out[e].type == CR_EV_POCKET && f.out[e].ball == 7)
                pockets++, conf_max = fmax(conf_max, f.out[e].confidence);
        if (q == 0)
            CU_ASSERT_EQUAL(pockets, 0);
        CU_ASSERT(conf_max < 1.0);
        if ((q == 0 && pockets) || conf_max >= 1.0)
            printf("\n  %s: %d pockets, confidence up to %.2f", q == 0 ? "found again" : "never found", pockets,
                   conf_max);
        rfix_close(&f);
    }
}

/* A ball of the cloth's colour rolls at 700 mm/s into the foot-left pocket
 * (60 fps), its fits wavering 9 mm to either side of its path every few
 * frames, so that its path splits into pieces of a few samples; it is lost
 * 200 mm before the corner and never seen again. Its course comes from the
 * straight line through its sightings: it dropped there (a pocket, with a
 * confidence under 1). */
static void test_lost_after_a_wavering_path(void)
{
    static const double side[12] = {0, 0, 9, 9, -9, -9, 0, 9, -9, 9, -9, 0};
    const double fps = 60.0, v0 = 700.0, t0 = 1.0;
    const double len = hypot(2540.0 - 2100.0, 0.0 - 400.0), ux = 440.0 / len, uy = -400.0 / len;
    int pockets = 0, n;
    double conf = NAN;
    rfix_t f;

    rfix_open(&f, fps, 161);
    for (int k = 0; k < (int)(5.0 * fps); k++) {
        const double t = k / fps, d = v0 * fmax(t - t0, 0.0) - 0.5 * 150.0 * fmax(t - t0, 0.0) * fmax(t - t0, 0.0);

        rfix_frame(&f, t, k);
        rfix_ball(&f, 0, 0, 600, 600, 0.3, 0.4);
        if (len - d > 200.0) {
            const double s = t > t0 ? side[k % 12] : 0.0;

            rfix_ball(&f, 3, 1, 2100.0 + ux * d - uy * s, 400.0 + uy * d + ux * s, 0.3, 0.6);
        }
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int e = 0; e < n; e++)
            if (f.out[e].type == CR_EV_POCKET && f.out[e].ball == 3)
                pockets++, conf = f.out[e].confidence;
    }
    CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
    for (int e = 0; e < n; e++)
        if (f.out[e].type == CR_EV_POCKET && f.out[e].ball == 3)
            pockets++, conf = f.out[e].confidence;
    CU_ASSERT_EQUAL(pockets, 1);
    CU_ASSERT(conf > 0.5 && conf < 1.0);
    if (pockets != 1 || !(conf > 0.5 && conf < 1.0))
        printf("\n  %d pockets, confidence %.2f", pockets, conf);
    rfix_close(&f);
}

/* A ball of the cloth's colour struck and never seen to move: the 3 rests
 * at (900, 700); the cue ball, rolling at 1500 mm/s, cuts it half-ball
 * toward the right side pocket and goes off along the tangent, slowing to
 * rest. The tracker holds the 3 where it rested for 0.1 s, then lets it go
 * (GONE). kind 0: never seen again: it went along the line of centres into
 * the side pocket (reported, with a confidence under 1, when the cue ball
 * rests); 1: found again at rest at (1150, 1100) a second later: no
 * pocket; 2: the same blow aimed at the right cushion between the pockets
 * (3 at (1700, 700)): that cushion, and no pocket; 3: an unnamed track
 * starts where the 3 rested and rolls off along the line of centres (the
 * tracker took the struck 3 for a new ball): no pocket for the held copy;
 * 4: the 3 rests 8 mm from the foot cushion, is struck straight at it and
 * is seen back where it was (it bounced off): that cushion; 5: as 0, with
 * the 9 resting 300 mm along the line of centres, seen to set off along it
 * when the unseen 3 gets there: the 3 struck it (no touched ball). */
static void test_struck_never_seen_moving(void)
{
    for (int kind = 0; kind < 6; kind++) {
        const double fps = 60.0, v = 1500.0, R = 28.575, t0 = 1.0, c30 = 0.8660254, s30 = 0.5;
        const double bx = kind == 2 ? 1700.0 : kind == 4 ? 2540.0 - R - 8.0 : 900.0, by = 700.0;
        /* u: the line of centres, to the side pocket (1270, 1270) or straight at the cushion */
        const double ul = hypot(370.0, 570.0), ux = kind == 2 ? 0.0 : kind == 4 ? 1.0 : 370.0 / ul,
                     uy = kind == 2 ? 1.0 : kind == 4 ? 0.0 : 570.0 / ul;
        /* the cue ball comes in 30 degrees off u and leaves along the tangent at v / 2 */
        const double wx = c30 * ux + s30 * uy, wy = -s30 * ux + c30 * uy;
        const double cx = bx - 2.0 * R * ux, cy = by - 2.0 * R * uy, t_hit = t0 + 600.0 / v;
        const double tx = wx - c30 * ux, ty = wy - c30 * uy, tl = hypot(tx, ty), a = 1500.0, v1 = s30 * v;
        int pockets = 0, pocket = -1, cushions = 0, rail = -1, n, disturbed = 0, hit9 = 0;
        const double t9 = t_hit + (300.0 - 2.0 * R) / (0.8 * c30 * v), x9 = bx + 300.0 * ux, y9 = by + 300.0 * uy;
        double conf = NAN, cconf = NAN;
        rfix_t f;

        rfix_open(&f, fps, 131 + (uint64_t)kind);
        for (int k = 0; k < (int)(4.0 * fps); k++) {
            const double t = k / fps;
            double x, y;

            rfix_frame(&f, t, k);
            if (t < t0) {
                x = cx - 600.0 * wx, y = cy - 600.0 * wy;
            } else if (t < t_hit) {
                x = cx - 600.0 * wx + v * (t - t0) * wx, y = cy - 600.0 * wy + v * (t - t0) * wy;
            } else {
                const double u = fmin(t - t_hit, v1 / a), d = v1 * u - 0.5 * a * u * u;

                x = cx + d * tx / tl, y = cy + d * ty / tl;
            }
            rfix_ball(&f, 0, 0, x, y, 0.3, 0.4);
            if (kind != 5) {
                rfix_ball(&f, 9, 2, 300.0, 1000.0, 0.3, 0.4);
            } else {
                const double u = fmax(t - t9, 0.0), d = 700.0 * u - 0.5 * 800.0 * u * u;

                rfix_ball(&f, 9, 2, x9 + fmax(d, 0.0) * ux, y9 + fmax(d, 0.0) * uy, 0.3, 0.4);
            }
            if (kind == 3 && t > t_hit && t < t_hit + 0.5)
                rfix_ball(&f, -1, 4, bx + 900.0 * (t - t_hit) * ux, by + 900.0 * (t - t_hit) * uy, 0.5, 0.8);
            if (t < t_hit || kind == 4) {
                rfix_ball(&f, 3, 1, bx, by, 1.0, 1.5);
            } else if (kind == 1 && t > t_hit + 1.0) {
                rfix_ball(&f, 3, 1, 1150.0, 1100.0, 1.0, 1.5);
            } else {
                cr_ball_obs_t *o = rfix_ball(&f, 3, 1, bx, by, 0.0, 1.5);

                o->status = t < t_hit + 0.1 ? CR_BALL_HIDDEN : CR_BALL_GONE;
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++) {
                if (f.out[e].type == CR_EV_POCKET && f.out[e].ball == 3) {
                    pockets++;
                    pocket = f.out[e].pocket;
                    conf = f.out[e].confidence;
                }
                disturbed += f.out[e].type == CR_EV_DISTURBED;
                hit9 += f.out[e].type == CR_EV_COLLISION && ((f.out[e].a == 3 && f.out[e].b == 9) ||
                                                            (f.out[e].a == 9 && f.out[e].b == 3));
                if (f.out[e].type == CR_EV_CUSHION && f.out[e].ball == 3) {
                    cushions++;
                    rail = f.out[e].rail;
                    cconf = f.out[e].confidence;
                }
            }
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        pockets += count(f.out, n, CR_EV_POCKET, 3);
        if (kind == 5) {
            /* where the 3 went after the 9 is not known */
        } else if (kind == 0) {
            CU_ASSERT_EQUAL(pockets, 1);
            CU_ASSERT_EQUAL(pocket, CR_POCKET_SIDE_RIGHT);
            CU_ASSERT(conf >= 0.5 && conf < 1.0);
        } else {
            CU_ASSERT_EQUAL(pockets, 0);
        }
        if (kind == 2) {
            CU_ASSERT_EQUAL(cushions, 1);
            CU_ASSERT_EQUAL(rail, CR_RAIL_RIGHT);
            CU_ASSERT(cconf >= 0.5 && cconf < 1.0);
        }
        if (kind == 4) {
            CU_ASSERT_EQUAL(cushions, 1);
            CU_ASSERT_EQUAL(rail, CR_RAIL_FOOT);
        }
        disturbed += count(f.out, n, CR_EV_DISTURBED, -1);
        CU_ASSERT_EQUAL(disturbed, 0);
        if (kind == 5)
            CU_ASSERT_EQUAL(hit9, 1);
        rfix_close(&f);
    }
}

/* The cue ball rolls at 1 m/s into the 3 and stops dead (a stun); the 3
 * leaves at 1 m/s. The tracker's positions are smoothed (here a five-frame
 * mean of the true path, which rounds the kink at the contact into a
 * curve and shows it two frames early); its raw detections are the true
 * places (cr_ball_obs_t.raw_x, raw_y). With the default look-ahead the
 * contact is refined before any sample after it has come: the times the
 * samples can judge end there, and their edge is no answer (the first
 * time stands; it was put 13 ms early). With four frames of look-ahead it
 * is refined from the raw detections, within 1.5 ms (from the smoothed
 * curve, 3.1 ms off at 30 fps). */
static void test_contact_timed_from_raw_detections(void)
{
    for (int fi = 0; fi < 4; fi++) {
        const double fps = fi & 1 ? 60.0 : 30.0, v = 1000.0, tc = 1.0 + 0.37 / fps, xb = 1400.0,
                     xc = xb - 2.0 * CR_BALL_RADIUS_MM, t_start = tc - 0.4;
        const int look = fi < 2 ? 1 : 4;
        double t_col = NAN;
        cr_recon_params_t rp;
        cr_table_t tab;
        int n;
        rfix_t f;

        rfix_open(&f, fps, 960 + (uint64_t)fi);
        cr_recon_destroy(f.rc);
        cr_table_init(&tab, 2540.0, 1270.0);
        cr_recon_params_defaults(&rp);
        rp.fps = fps;
        rp.lookahead_frames = look;
        CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, &rp, &f.rc), 0);
        for (int k = 0; k < (int)(3.0 * fps); k++) {
            const double t = k / fps;
            double cx = 0, bx = 0;
            cr_ball_obs_t *o;

            /* the five-frame mean of the true path */
            for (int q = -2; q <= 2; q++) {
                const double u = t + q / fps;

                cx += (u < t_start ? xc - v * (tc - t_start) : u < tc ? xc - v * (tc - u) : xc) / 5.0;
                bx += (u < tc ? xb : xb + v * (u - tc)) / 5.0;
            }
            rfix_frame(&f, t, k);
            o = rfix_ball(&f, 0, 0, cx, 600.0, 0.0, 0.5);
            o->has_raw = true;
            o->raw_x = t < t_start ? xc - v * (tc - t_start) : t < tc ? xc - v * (tc - t) : xc;
            o->raw_y = 600.0;
            o = rfix_ball(&f, 3, 1, bx, 600.0, 0.0, 0.5);
            o->has_raw = true;
            o->raw_x = t < tc ? xb : xb + v * (t - tc);
            o->raw_y = 600.0;
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++)
                if (f.out[e].type == CR_EV_COLLISION && isnan(t_col))
                    t_col = f.out[e].t;
        }
        CU_ASSERT(fabs(t_col - tc) < (look > 1 ? 0.0015 : 0.003));
        if (!(fabs(t_col - tc) < (look > 1 ? 0.0015 : 0.003)))
            printf("\n  %.0f fps, look-ahead %d: contact at %.4f, true %.4f", fps, look, t_col, tc);
        rfix_close(&f);
    }
}

/* A ball struck along the foot cushion rolls beside it, 4 mm short of
 * touching, and slows to a stop; its fits waver across its way by 1.5 mm in
 * smooth swings a fifth of a second long (a detector's bias that moves with
 * the cushion's shading, smoothed by the tracker), against a sigma of
 * 0.4 mm. Its swings toward the cushion and back are V's with significant
 * sides and a vertex within contact_tol of R, but no contact: a V brought
 * down to R misses the samples more than a line does (1080p60 clip 10's last
 * shot: two such contacts made a no-rail foul legal). The same roll, wavering
 * alike, that comes in at 60 mm/s, touches the cushion and leaves at 45 is
 * one contact. */
static void test_waver_beside_a_cushion_is_no_contact(void)
{
    for (int kind = 0; kind < 3; kind++) {
        const bool touch = kind > 0;
        const double fps = kind == 2 ? 30.0 : 60.0, xr = 2540.0 - CR_BALL_RADIUS_MM, v0 = 300.0, dec = 100.0, t0 = 1.0,
                     tc = 2.0;
        int cushions = 0, n;
        rfix_t f;

        rfix_open(&f, fps, 950 + (uint64_t)kind);
        for (int k = 0; k < (int)(5.5 * fps); k++) {
            const double t = k / fps, u = fmin(fmax(t - t0, 0.0), v0 / dec);
            const double y = 500.0 + v0 * u - 0.5 * dec * u * u, w = t > t0 ? 1.5 * sin(2.0 * 3.14159265358979 * (t - t0) / 0.2) : 0.0;
            /* beside: 4 mm off all along; touching: from 60 mm off when
             * struck, in at 60 mm/s and out at 45 */
            const double x = !touch ? xr - 4.0
                             : t < tc ? xr - 60.0 * (tc - fmax(t, t0))
                                      : xr - 45.0 * fmin(t - tc, 1.0);

            rfix_frame(&f, t, k);
            /* the cue ball, struck at 0.5 s, stuns into it at t0 */
            rfix_ball(&f, 0, 0, touch ? xr - 60.0 * (tc - t0) : xr - 4.0,
                      500.0 - 2.0 * CR_BALL_RADIUS_MM - v0 * fmin(fmax(t0 - t, 0.0), t0 - 0.5), 0.2, 0.4);
            rfix_ball(&f, 8, 1, x + w, y, 0.2, 0.4);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            cushions += count(f.out, n, CR_EV_CUSHION, 8);
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        cushions += count(f.out, n, CR_EV_CUSHION, 8);
        CU_ASSERT_EQUAL(cushions, touch ? 1 : 0);
        if (cushions != (touch ? 1 : 0))
            printf("\n  %g fps, %s: %d cushion contacts", fps, touch ? "touching" : "4 mm off", cushions);
        rfix_close(&f);
    }
}

/* The cue ball at 1.8 m/s cuts a resting 3 thin at 120 fps (the 3 leaves at
 * 0.8 m/s). As the tracker gave 1080p120 clip 01's 3 (58.0 s), its first
 * step is 9.7 mm in the contact frame, the two touching balls' fits pulling
 * on each other, then 0.9 mm in the next (the one frame of look-ahead),
 * then 6.5 mm a frame: seen at rest, then at once at rest again 10 mm off,
 * like a resting ball whose fit moved. With the cue ball passing within
 * reach it was struck: one contact of the pair, timed within two frames;
 * as when its first steps are clean. */
static void test_struck_first_step_pulled(void)
{
    const double fps = 120.0, R = CR_BALL_RADIUS_MM, v = 1800.0, ts = 1.0, nx = 0.444, ny = sqrt(1.0 - nx * nx);
    const double bx = 1300.0, by = 600.0 + 2.0 * R * ny, cx0 = 800.0, tc = ts + (bx - 2.0 * R * nx - cx0) / v;
    const double v3 = v * nx, ux = v - v3 * nx, uy = -v3 * ny; /* the 3's speed, the cue ball's way on */

    for (int q = 0; q < 2; q++) {
        int n, pairs = 0;
        double t_pair = NAN;
        rfix_t f;

        rfix_open(&f, fps, 970 + (uint64_t)q);
        for (int k = 0; k < (int)(2.0 * fps); k++) {
            const double t = k / fps, kc = floor(tc * fps) + 1.0, m = k - kc; /* frames since the contact's */
            const double w = fmin(fmax(t - tc, 0.0), 0.4); /* both roll on 0.4 s, then stop */
            double d3;

            if (q == 0)
                d3 = m < 0 ? 0.0 : m < 1 ? 9.7 : 10.6 + 6.5 * (m - 1);
            else
                d3 = v3 * w;
            if (q == 0 && t - tc > 0.4)
                d3 = 10.6 + 6.5 * (0.4 * fps - 1); /* about where the clean one stops */
            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0,
                      t < tc ? cx0 + v * fmax(t - ts, 0.0) : bx - 2.0 * R * nx + ux * w,
                      t < tc ? 600.0 : 600.0 + uy * w, 0.1, 0.3);
            rfix_ball(&f, 3, 1, bx + nx * fmin(d3, v3 * 0.4 + 10.0), by + ny * fmin(d3, v3 * 0.4 + 10.0), 0.1, 0.3);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++)
                if (f.out[e].type == CR_EV_COLLISION && same_pair_ev(&f.out[e], 0, 3) && pairs++ == 0)
                    t_pair = f.out[e].t;
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        for (int e = 0; e < n; e++)
            if (f.out[e].type == CR_EV_COLLISION && same_pair_ev(&f.out[e], 0, 3) && pairs++ == 0)
                t_pair = f.out[e].t;
        CU_ASSERT_EQUAL(pairs, 1);
        CU_ASSERT(fabs(t_pair - tc) <= 2.0 / fps);
        if (pairs != 1 || !(fabs(t_pair - tc) <= 2.0 / fps))
            printf("\n  %s: %d contacts 0-3, the first at %.4f (true %.4f)", q == 0 ? "pulled step" : "clean", pairs,
                   t_pair, tc);
        rfix_close(&f);
    }
}

/* 1080p120 clip 03, 142.10-143.20 s, as the tracker gave it: the cue ball,
 * struck at 142.21 s, drives the 7 along the right cushion at 600 mm/s; the
 * 7 meets it at a shallow angle at 142.650 s, coming in at 52 mm/s and
 * leaving at 13. Per frame: the cue ball's x, y, the 7's x, y. */
static const double along_rail_7[][4] = {
    {385.69, 1207.73, 616.93, 1225.08}, {385.69, 1207.73, 616.93, 1225.08}, {385.69, 1207.73, 616.93, 1225.08},
    {385.69, 1207.73, 616.93, 1225.08}, {385.69, 1207.73, 616.93, 1225.08}, {385.68, 1207.74, 616.93, 1225.08},
    {385.68, 1207.75, 616.93, 1225.08}, {385.67, 1207.76, 616.93, 1225.08}, {385.67, 1207.77, 616.93, 1225.08},
    {385.67, 1207.77, 616.93, 1225.08}, {385.67, 1207.78, 616.93, 1225.08}, {385.67, 1207.79, 616.93, 1225.08},
    {385.67, 1207.79, 616.93, 1225.08}, {388.41, 1207.76, 616.93, 1225.08}, {398.02, 1208.48, 616.93, 1225.08},
    {407.68, 1209.15, 616.93, 1225.08}, {417.07, 1209.87, 616.93, 1225.08}, {425.95, 1210.57, 616.93, 1225.08},
    {434.97, 1211.24, 616.93, 1225.08}, {444.30, 1211.98, 616.93, 1225.08}, {452.69, 1212.58, 616.93, 1225.08},
    {461.32, 1213.23, 616.93, 1225.08}, {469.75, 1213.88, 616.93, 1225.08}, {477.93, 1214.51, 616.93, 1225.08},
    {486.47, 1215.13, 616.93, 1225.08}, {494.65, 1215.76, 616.93, 1225.08}, {502.62, 1216.38, 616.93, 1225.08},
    {510.40, 1216.95, 616.93, 1225.08}, {518.29, 1217.57, 616.93, 1225.08}, {526.44, 1218.17, 616.93, 1225.08},
    {534.85, 1218.83, 616.93, 1225.08}, {542.35, 1219.32, 616.90, 1225.12}, {550.51, 1220.10, 616.94, 1225.14},
    {558.49, 1220.65, 616.88, 1225.18}, {560.76, 1220.69, 623.04, 1225.64}, {561.06, 1220.72, 630.74, 1226.19},
    {561.52, 1220.70, 638.40, 1226.57}, {561.98, 1220.67, 645.70, 1227.27}, {562.84, 1220.59, 652.95, 1227.98},
    {563.79, 1220.58, 660.04, 1228.56}, {564.84, 1220.58, 667.03, 1229.12}, {565.94, 1220.62, 673.85, 1229.73},
    {567.30, 1220.63, 680.53, 1230.29}, {568.35, 1220.63, 687.06, 1230.90}, {570.13, 1220.71, 693.47, 1231.46},
    {572.14, 1220.80, 699.73, 1231.97}, {574.10, 1220.89, 705.87, 1232.52}, {576.24, 1220.99, 711.82, 1233.11},
    {578.33, 1221.04, 717.58, 1233.69}, {580.30, 1221.20, 723.45, 1234.19}, {582.34, 1221.28, 728.95, 1234.64},
    {584.43, 1221.40, 734.31, 1235.12}, {586.57, 1221.50, 739.91, 1235.52}, {588.66, 1221.61, 745.06, 1236.19},
    {590.69, 1221.72, 750.97, 1236.97}, {592.80, 1221.79, 755.96, 1237.56}, {595.14, 1221.95, 761.91, 1237.18},
    {597.08, 1222.02, 767.07, 1237.62}, {599.20, 1222.13, 771.62, 1238.11}, {601.33, 1222.24, 776.74, 1238.30},
    {603.43, 1222.35, 781.80, 1238.49}, {605.52, 1222.46, 786.68, 1238.44}, {607.62, 1222.57, 791.76, 1238.66},
    {609.70, 1222.68, 795.25, 1239.52}, {611.78, 1222.79, 799.90, 1239.90}, {613.83, 1222.90, 807.25, 1241.57},
    {615.90, 1223.01, 813.11, 1242.00}, {617.95, 1223.13, 818.39, 1243.01}, {619.96, 1223.22, 823.46, 1241.05},
    {622.01, 1223.33, 828.47, 1241.34}, {624.09, 1223.45, 832.47, 1242.71}, {626.08, 1223.56, 838.90, 1240.18},
    {628.10, 1223.66, 843.86, 1240.47}, {630.09, 1223.77, 848.80, 1240.64}, {632.10, 1223.86, 853.57, 1240.76},
    {634.09, 1223.96, 858.56, 1240.53}, {636.10, 1224.04, 863.01, 1241.31}, {638.07, 1224.13, 868.40, 1240.57},
    {640.05, 1224.23, 873.64, 1240.25}, {642.01, 1224.32, 878.68, 1240.09}, {643.99, 1224.42, 883.68, 1239.95},
    {645.93, 1224.51, 888.69, 1239.80}, {647.89, 1224.61, 893.74, 1239.66}, {649.79, 1224.71, 898.68, 1239.62},
    {651.74, 1224.80, 903.63, 1239.51}, {653.63, 1224.90, 908.63, 1239.37}, {655.53, 1224.99, 913.42, 1239.38},
    {657.39, 1225.09, 918.31, 1239.28}, {659.29, 1225.18, 923.22, 1239.15}, {661.18, 1225.26, 928.14, 1239.04},
    {663.06, 1225.34, 933.01, 1238.88}, {664.93, 1225.44, 937.93, 1238.72}, {666.80, 1225.53, 942.81, 1238.64},
    {668.65, 1225.63, 947.69, 1238.52}, {670.51, 1225.72, 952.52, 1238.46}, {672.34, 1225.82, 957.44, 1238.27},
    {674.19, 1225.93, 962.33, 1238.11}, {676.02, 1226.03, 967.22, 1237.92}, {677.86, 1226.12, 972.15, 1237.77},
    {679.66, 1226.24, 977.05, 1237.59}, {681.48, 1226.34, 981.89, 1237.49}, {683.29, 1226.42, 986.73, 1237.35},
    {685.08, 1226.53, 991.26, 1237.22}, {686.88, 1226.62, 996.16, 1237.06}, {688.66, 1226.72, 1001.04, 1236.77},
    {690.43, 1226.81, 1006.12, 1236.69}, {692.21, 1226.90, 1010.96, 1236.55}, {693.96, 1227.00, 1015.85, 1236.33},
    {695.77, 1227.16, 1020.68, 1236.15}, {697.47, 1227.27, 1025.47, 1236.43}, {699.20, 1227.29, 1030.25, 1236.38},
    {700.91, 1227.39, 1035.02, 1236.33}, {702.63, 1227.44, 1039.78, 1236.29}, {704.36, 1227.56, 1044.46, 1236.25},
    {706.07, 1227.62, 1049.19, 1236.21}, {707.76, 1227.72, 1053.91, 1236.15}, {709.47, 1227.79, 1058.61, 1236.10},
    {711.16, 1227.87, 1063.33, 1236.05}, {712.86, 1227.94, 1068.03, 1235.99}, {714.54, 1228.03, 1072.72, 1235.85},
    {716.22, 1228.11, 1077.42, 1235.75}, {717.90, 1228.19, 1082.20, 1235.71}, {719.57, 1228.28, 1086.92, 1235.58},
    {721.24, 1228.40, 1091.64, 1235.41}, {722.89, 1228.48, 1096.31, 1235.32}, {724.54, 1228.57, 1101.02, 1235.25},
    {726.18, 1228.65, 1105.73, 1235.08}, {727.81, 1228.73, 1110.39, 1234.91}, {729.49, 1228.84, 1115.04, 1234.77},
    {731.10, 1228.93, 1119.67, 1234.66}, {732.72, 1229.01, 1124.30, 1234.52}, {734.32, 1229.10, 1128.93, 1234.40},
    {735.93, 1229.19, 1133.55, 1234.28},
};

/* The 7 above: one contact with the right cushion, within three frames of
 * the truth's. Its turn is too slight for the velocities just after it, and
 * it is found early as a kink of its own (its fits lean toward the cushion
 * as it nears it); the contact is seen by the distance to the nose line,
 * whose way in lies before that kink (no other ball is near). The false
 * no_rail foul of the 80 shots at 120 fps. */
static void test_shallow_turn_along_a_cushion(void)
{
    const int n = (int)(sizeof(along_rail_7) / sizeof(along_rail_7[0]));
    const double fps = 120.0, t0 = 142.1, tc = 142.650104;
    int k, m, cushions = 0;
    double t_cush = NAN;
    rfix_t f;

    rfix_open(&f, fps, 980);
    for (k = 0; k < n; k++) {
        rfix_frame(&f, t0 + k / fps, k);
        rfix_ball(&f, 0, 0, along_rail_7[k][0], along_rail_7[k][1], 0.0, 0.3);
        rfix_ball(&f, 7, 1, along_rail_7[k][2], along_rail_7[k][3], 0.0, 0.3);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &m), 0);
        tally_cushions(&f, m, 7, &cushions, &t_cush);
    }
    if (!one_cushion_at(&f, 7, &cushions, &t_cush, tc, 3.0 / fps))
        printf("\n  %d cushion contacts of the 7, the first at %.4f (true %.4f)", cushions, t_cush, tc);
    rfix_close(&f);
}

/* 1080p60 clip 05 from 124.95 s, a frame each 1/60 s: the cue ball, the 13
 * and the 3 as the tracker gave them: smoothed x, y, the detection's own x,
 * y, and sigma. */
static const double foot_rail_3[][15] = {
    {2066.50, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.50, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.50, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.51, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.51, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.50, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.51, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.51, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.51, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.51, 162.14, 2066.51, 162.14, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.50, 162.14, 2066.47, 162.12, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.49, 162.13, 2066.47, 162.12, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.49, 162.13, 2066.49, 162.13, 0.33, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.50, 162.12, 2066.54, 162.11, 0.32, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2066.50, 162.13, 2066.50, 162.22, 0.50, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2088.12, 163.18, 2088.03, 163.14, 0.53, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2109.69, 164.23, 2110.01, 164.07, 0.54, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2131.27, 165.29, 2131.12, 165.27, 0.54, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2152.84, 166.34, 2152.82, 166.43, 0.50, 2244.56, 171.54, 2244.56, 171.54, 0.41,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2172.91, 167.43, 2172.22, 167.40, 0.43, 2244.51, 171.49, 2244.38, 171.31, 0.43,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2187.00, 167.90, 2187.05, 167.99, 0.36, 2248.99, 171.95, 2249.00, 172.46, 0.53,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2188.24, 167.39, 2188.39, 167.39, 0.43, 2267.71, 172.46, 2268.07, 172.35, 0.52,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2189.74, 167.19, 2189.67, 167.23, 0.42, 2286.25, 174.26, 2285.90, 174.05, 0.52,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2191.69, 166.97, 2191.79, 166.92, 0.42, 2304.34, 175.63, 2304.07, 175.86, 0.61,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2193.45, 166.84, 2193.49, 166.81, 0.48, 2321.63, 177.30, 2321.70, 177.38, 0.55,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2195.42, 166.59, 2195.36, 166.58, 0.44, 2338.38, 178.68, 2338.67, 179.17, 0.68,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2197.43, 166.22, 2197.51, 166.16, 0.41, 2354.15, 180.77, 2354.54, 179.94, 0.62,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2199.19, 165.88, 2199.26, 165.96, 0.42, 2369.38, 182.58, 2369.01, 183.01, 0.60,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2201.13, 165.63, 2201.34, 165.56, 0.45, 2384.17, 182.70, 2384.46, 182.14, 0.57,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2203.02, 165.35, 2202.93, 165.30, 0.40, 2399.74, 183.56, 2400.42, 183.69, 0.65,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2204.85, 165.08, 2204.79, 164.97, 0.40, 2412.14, 185.15, 2411.13, 185.95, 0.64,
     2504.59, 181.95, 2504.59, 181.95, 0.44},
    {2206.67, 164.81, 2206.53, 164.94, 0.40, 2424.34, 186.81, 2424.24, 186.76, 0.68,
     2504.56, 181.95, 2504.45, 181.95, 0.48},
    {2208.44, 164.56, 2208.55, 164.44, 0.42, 2436.31, 187.15, 2436.21, 186.86, 0.67,
     2504.56, 181.96, 2504.57, 181.99, 0.49},
    {2210.18, 164.35, 2210.33, 164.41, 0.40, 2447.10, 188.16, 2447.24, 188.08, 0.43,
     2508.07, 182.11, 2508.08, 182.09, 0.52},
    {2211.90, 164.11, 2211.95, 164.08, 0.39, 2448.49, 189.86, 2447.80, 189.83, 0.42,
     2507.05, 181.66, 2507.70, 181.14, 0.52},
    {2213.62, 163.86, 2213.57, 163.88, 0.37, 2443.40, 192.32, 2443.45, 192.54, 0.51,
     2506.14, 181.39, 2506.11, 179.75, 0.58},
    {2215.30, 163.64, 2215.27, 163.67, 0.36, 2436.02, 194.31, 2436.08, 194.31, 0.48,
     2506.05, 178.82, 2506.13, 178.50, 0.47},
    {2216.95, 163.38, 2216.92, 163.39, 0.38, 2429.40, 197.41, 2429.38, 197.57, 0.41,
     2505.30, 177.83, 2505.44, 178.36, 0.56},
    {2218.56, 163.24, 2218.58, 163.23, 0.38, 2423.35, 200.13, 2423.11, 200.37, 0.46,
     2504.51, 176.91, 2504.61, 176.79, 0.49},
    {2220.19, 163.04, 2220.23, 163.02, 0.38, 2417.97, 203.23, 2418.21, 202.71, 0.48,
     2503.55, 175.85, 2503.41, 175.78, 0.46},
    {2221.83, 162.72, 2221.77, 162.52, 0.37, 2413.18, 205.95, 2413.29, 206.06, 0.51,
     2502.47, 175.05, 2502.05, 175.34, 0.59},
    {2223.41, 162.52, 2223.51, 162.46, 0.35, 2409.06, 209.04, 2408.93, 209.01, 0.51,
     2501.22, 174.12, 2501.48, 174.06, 0.51},
    {2224.97, 162.32, 2225.01, 162.34, 0.37, 2405.78, 210.02, 2405.50, 210.25, 0.54,
     2498.00, 174.95, 2497.36, 175.50, 0.49},
    {2226.32, 162.19, 2226.40, 162.07, 0.38, 2403.45, 212.06, 2403.45, 212.12, 0.61,
     2499.53, 172.56, 2500.02, 172.77, 0.53},
    {2227.84, 162.01, 2228.01, 161.99, 0.37, 2400.03, 214.51, 2400.03, 214.25, 0.49,
     2498.09, 172.09, 2498.14, 171.58, 0.59},
    {2229.28, 161.82, 2229.60, 161.86, 0.37, 2396.43, 217.11, 2396.81, 217.23, 0.52,
     2498.25, 171.05, 2497.95, 170.82, 0.57},
    {2230.70, 161.62, 2230.78, 161.74, 0.39, 2393.51, 219.27, 2393.69, 219.41, 0.57,
     2497.40, 170.09, 2497.58, 170.16, 0.49},
    {2232.10, 161.43, 2231.98, 161.53, 0.38, 2390.61, 221.39, 2390.51, 221.44, 0.53,
     2496.73, 168.74, 2496.70, 169.33, 0.59},
    {2233.45, 161.25, 2233.68, 161.45, 0.39, 2387.64, 223.70, 2387.56, 223.42, 0.62,
     2495.30, 167.75, 2495.67, 167.72, 0.56},
    {2234.79, 161.08, 2234.66, 161.11, 0.41, 2384.54, 226.03, 2384.90, 226.23, 0.59,
     2494.05, 166.37, 2493.64, 166.25, 0.58},
    {2236.11, 160.92, 2236.01, 161.09, 0.39, 2381.37, 228.36, 2381.74, 228.79, 0.59,
     2491.89, 169.05, 2491.86, 168.89, 0.54},
    {2237.38, 160.75, 2237.42, 160.89, 0.40, 2378.34, 230.57, 2377.98, 229.64, 0.53,
     2491.48, 167.86, 2491.34, 168.00, 0.42},
    {2238.63, 160.76, 2238.31, 160.72, 0.37, 2375.30, 232.65, 2375.32, 233.02, 0.55,
     2490.75, 167.07, 2490.95, 167.33, 0.47},
    {2239.84, 160.41, 2239.81, 160.15, 0.39, 2372.27, 234.85, 2372.11, 235.18, 0.47,
     2490.07, 166.19, 2489.83, 166.17, 0.40},
    {2241.02, 160.34, 2241.09, 160.19, 0.37, 2369.21, 236.93, 2369.26, 237.17, 0.60,
     2489.21, 165.51, 2489.58, 166.11, 0.49},
    {2242.16, 160.10, 2242.09, 160.02, 0.38, 2366.19, 238.98, 2366.11, 238.67, 0.48,
     2488.48, 164.62, 2488.42, 163.80, 0.36},
    {2243.28, 159.95, 2243.55, 159.95, 0.36, 2363.16, 241.09, 2363.21, 241.52, 0.53,
     2487.57, 163.94, 2487.58, 164.47, 0.42},
    {2244.37, 159.82, 2244.49, 159.92, 0.38, 2360.26, 243.00, 2360.40, 242.53, 0.61,
     2486.81, 163.50, 2485.00, 161.79, 0.77},
    {2245.43, 159.68, 2245.53, 159.58, 0.36, 2357.20, 244.90, 2357.11, 244.84, 0.64,
     2486.11, 162.94, 2485.07, 163.60, 0.65},
    {2246.55, 159.49, 2246.49, 159.39, 0.35, 2354.12, 247.21, 2354.04, 247.54, 0.57,
     2485.44, 162.40, 2485.56, 163.01, 0.51},
    {2247.53, 159.33, 2247.40, 159.29, 0.41, 2350.85, 249.85, 2350.35, 251.16, 0.73,
     2484.88, 161.92, 2484.91, 162.46, 0.59},
    {2248.49, 159.20, 2248.42, 159.23, 0.38, 2348.59, 251.78, 2349.43, 251.56, 0.60,
     2484.30, 161.47, 2484.58, 161.81, 0.44},
    {2249.40, 159.08, 2249.28, 159.15, 0.35, 2346.46, 253.45, 2346.83, 253.58, 0.59,
     2483.82, 161.10, 2484.07, 160.72, 0.48},
    {2250.31, 158.98, 2250.32, 159.06, 0.34, 2343.81, 255.43, 2342.48, 254.80, 0.65,
     2483.38, 160.54, 2483.35, 160.00, 0.46},
    {2251.13, 158.89, 2250.99, 159.04, 0.37, 2341.14, 257.44, 2341.93, 257.46, 0.57,
     2483.00, 160.09, 2483.08, 160.00, 0.53},
    {2251.99, 158.79, 2252.11, 158.87, 0.43, 2338.43, 259.49, 2339.03, 259.36, 0.52,
     2482.47, 159.57, 2482.32, 159.56, 0.49},
    {2252.82, 158.70, 2252.87, 158.78, 0.38, 2335.73, 261.46, 2336.08, 261.18, 0.54,
     2481.91, 159.34, 2481.99, 159.38, 0.44},
};

/* The 3 above rests 7 mm off the foot cushion; the cue ball drives the 13
 * into it (125.4956 s) and the 3 meets the cushion 11 ms later, then the 13
 * again. Its blow into the cushion is found by more than one rule, and a
 * third report lies between them (a contact 75 ms later, found sooner):
 * one foot-cushion line within two frames of the truth, not two 5.5 ms
 * apart. */
static void test_one_cushion_line_for_one_contact(void)
{
    const int n = (int)(sizeof(foot_rail_3) / sizeof(foot_rail_3[0]));
    const double fps = 60.0, t0 = 124.95, tc = 125.506379;
    int k, m, near = 0;
    rfix_t f;

    rfix_open(&f, fps, 981);
    for (k = 0; k <= n; k++) {
        if (k < n) {
            rfix_frame(&f, t0 + k / fps, k);
            for (int b = 0; b < 3; b++) {
                const double *v = &foot_rail_3[k][5 * b];
                cr_ball_obs_t *o = rfix_ball(&f, b == 0 ? 0 : b == 1 ? 13 : 3, b, v[0], v[1], 0.0, v[4]);

                o->has_raw = true;
                o->raw_x = v[2];
                o->raw_y = v[3];
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &m), 0);
        } else {
            CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &m), 0);
        }
        for (int j = 0; j < m; j++)
            if (f.out[j].type == CR_EV_CUSHION && f.out[j].ball == 3 && f.out[j].rail == CR_RAIL_FOOT &&
                fabs(f.out[j].t - tc) <= 2.0 / fps) {
                near++;
            }
    }
    CU_ASSERT_EQUAL(near, 1);
    if (near != 1)
        printf("\n  %d foot-cushion lines of the 3 within two frames of %.4f", near, tc);
    rfix_close(&f);
}

/* A ball that rolls slowly into a cushion is turned back by it and rolls
 * off again: around the turn its samples go out and come back, the two
 * halves of the stillness window agree, yet it never stopped (720p30 clip
 * 00: the 2 rattled in a corner's jaws at 100 mm/s and the shot's rest came
 * a second early). The rest is when it stops for good, and the roll off the
 * cushion is no new stroke nor a touched ball. */
static void test_slow_bounce_is_no_stop(void)
{
    for (int fi = 0; fi < 4; fi++) {
        const double fps = fi & 1 ? 60.0 : 30.0, R = 28.575, W = 1270.0, yc = W - R, v0 = 170.0, v1 = 90.0,
                     dec = 40.0; /* mm/s^2: rolling, slowed by the cloth */
        const double t0 = 1.0, y0 = yc - 60.0, tc = t0 + (v0 - sqrt(v0 * v0 - 2.0 * dec * 60.0)) / dec;
        const double t_stop = tc + v1 / dec; /* in at 155 mm/s, out at 90 */
        int strokes = 0, rests = 0, disturbed = 0, n;
        double t_rest = NAN;
        rfix_t f;

        rfix_open(&f, fps, 77 + (uint64_t)fi);
        for (int k = 0; k < (int)((t_stop + 1.5) * fps); k++) {
            const double t = k / fps;
            double y, x = 1500.0 + (fi & 2 ? 0.6 : 0.0) * (t < t0 ? 0.0 : t < t_stop ? (t - t0) * 100.0 : (t_stop - t0) * 100.0);

            if (t < t0)
                y = y0;
            else if (t < tc)
                y = y0 + v0 * (t - t0) - 0.5 * dec * (t - t0) * (t - t0);
            else {
                const double u = fmin(t - tc, v1 / dec);

                y = yc - (v1 * u - 0.5 * dec * u * u);
            }
            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, x, y, 0.4, 1.4);
            rfix_ball(&f, 5, 1, 600.0, 400.0, 0.3, 0.4);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++) {
                strokes += f.out[e].type == CR_EV_STROKE;
                disturbed += f.out[e].type == CR_EV_DISTURBED;
                if (f.out[e].type == CR_EV_REST && rests++ == 0)
                    t_rest = f.out[e].t;
            }
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        CU_ASSERT_EQUAL(strokes, 1);
        CU_ASSERT_EQUAL(rests, 1);
        CU_ASSERT_EQUAL(disturbed, 0);
        CU_ASSERT(fabs(t_rest - t_stop) < 0.3);
        if (!(fabs(t_rest - t_stop) < 0.3))
            printf("\n  %g fps: rest at %.3f, the ball stops at %.3f (turned at %.3f)", fps, t_rest, t_stop, tc);
        rfix_close(&f);
    }
}

/* Mid-shot, a resting ball vanishes with nothing seen of where it went (a
 * ball of the cloth's colour struck unseen: its held place shows bare cloth
 * and the tracker lets it go). With unseen_wait_s the shot's rest waits that
 * long after the others settle for it to be found on the bed: not found, it
 * went into a pocket (confidence 0.5, the one nearest where it was seen:
 * side-left here), before the rest line; found, it rests where it was
 * found and no pocket is reported (nor when a ball with no number turns up:
 * most likely it), the rest timed when the others settled; nor when it was
 * seen rolling off on a course that meets no pocket (most likely on the bed,
 * unseen); a film that ends during the wait rests, saying nothing of it; a new stroke during the wait ends it at
 * once, the last shot's pocket and rest before the new stroke. With no wait
 * (the default) nothing is said of it, as before; nor when no moving ball
 * came near enough to have struck it (it did not move: it is only not seen). */
static void test_gone_unseen_is_looked_for(void)
{
    for (int kind = 0; kind < 8; kind++) {
        /* the 3 rests beside the cue ball's path, which passes it at 1.23 s
         * (it may have been struck); kind 7: far from every moving ball */
        const double fps = 60.0, v = 1500.0, a = 1500.0, t0 = 1.0, wait = 2.9;
        const double x3 = kind == 7 ? 2000.0 : 900.0, y3 = kind == 7 ? 900.0 : 358.0;
        double t_pocket = NAN, conf = NAN, t_rest = NAN, t_rest_out = NAN, t_stroke2 = NAN, rest3x = NAN;
        int pockets = 0, pocket = -1, rests = 0, strokes = 0, n;
        rfix_t f;

        rfix_unseen_wait = kind == 3 ? 0.0 : wait;
        rfix_open(&f, fps, 400 + (uint64_t)kind);
        rfix_unseen_wait = 0.0;
        for (int k = 0; k < (int)((kind == 6 ? 3.5 : 9.0) * fps); k++) { /* kind 6: the film ends in the wait */
            const double t = k / fps;
            double u = fmin(fmax(t - t0, 0.0), v / a), x = 600.0 + v * u - 0.5 * a * u * u;

            rfix_frame(&f, t, k);
            if (kind == 2 && t >= 3.5) /* struck again: the next shot */
                x = 600.0 + 0.5 * v * v / a - 800.0 * (t - 3.5);
            rfix_ball(&f, 0, 0, x, 300.0, 0.3, 0.4);
            rfix_ball(&f, 9, 2, 300.0, 1000.0, 0.3, 0.4);
            if (t < 1.3) {
                rfix_ball(&f, 3, 1, x3, y3, 0.3, 0.4);
            } else if (kind == 5 && t < 1.5) {
                /* seen moving off toward the middle of a long cushion, then lost */
                rfix_ball(&f, 3, 1, x3, y3 + 300.0 * (t - 1.3), 0.3, 0.8);
            } else if ((kind == 1 || kind == 4) && t >= 4.0) {
                /* found by the sweep (kind 4: with no number) */
                cr_ball_obs_t *o = rfix_ball(&f, kind == 1 ? 3 : -1, 7, 1800.0, 400.0, 0.3, 0.4);

                if (kind == 4) { /* the 3, held where it vanished */
                    o = rfix_ball(&f, 3, 1, x3, y3, 0.0, 0.4);
                    o->status = CR_BALL_GONE;
                }
            } else {
                cr_ball_obs_t *o = rfix_ball(&f, 3, 1, x3, y3, 0.0, 0.4);

                o->status = t < 1.45 ? CR_BALL_HIDDEN : CR_BALL_GONE;
            }
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++) {
                const cr_event_t *ev = &f.out[e];

                if (ev->type == CR_EV_POCKET && ev->ball == 3) {
                    pockets++;
                    pocket = ev->pocket;
                    conf = ev->confidence;
                    t_pocket = t;
                    CU_ASSERT(rests == 0); /* before the rest line */
                }
                if (ev->type == CR_EV_STROKE && strokes++ == 1) {
                    t_stroke2 = ev->t;
                    CU_ASSERT_EQUAL(rests, 1); /* the last shot closed first */
                }
                if (ev->type == CR_EV_REST && rests++ == 0) {
                    t_rest = ev->t;
                    t_rest_out = t;
                    for (int q = 0; q < ev->n_balls; q++)
                        if (ev->balls[q].id == 3)
                            rest3x = ev->balls[q].x;
                }
            }
        }
        CU_ASSERT_EQUAL(cr_recon_finish(f.rc, f.out, 128, &n), 0);
        for (int e = 0; e < n; e++) {
            pockets += f.out[e].type == CR_EV_POCKET && f.out[e].ball == 3;
            if (f.out[e].type == CR_EV_REST && rests++ == 0)
                t_rest = f.out[e].t;
        }
        CU_ASSERT(rests >= 1);
        /* the cue ball stops at t0 + v / a = 2.0 s: the rest is timed there
         * (a ball found during the wait stopped unseen, no later as far as
         * is known) */
        if (kind != 5)
            CU_ASSERT(fabs(t_rest - 2.0) < 0.1);
        if (kind == 0) {
            CU_ASSERT_EQUAL(pockets, 1);
            CU_ASSERT_EQUAL(pocket, CR_POCKET_SIDE_LEFT); /* the nearest to where it was last seen */
            CU_ASSERT_DOUBLE_EQUAL(conf, 0.5, 1e-9);
            CU_ASSERT(t_rest_out >= 2.0 + wait && t_rest_out < 2.0 + wait + 0.5);
            CU_ASSERT(t_pocket <= t_rest_out);
        } else if (kind == 1) {
            CU_ASSERT_EQUAL(pockets, 0);
            CU_ASSERT_DOUBLE_EQUAL(rest3x, 1800.0, 3.0);
            CU_ASSERT(t_rest_out >= 4.0 && t_rest_out < 2.0 + wait);
        } else if (kind == 2) {
            CU_ASSERT_EQUAL(pockets, 1);
            CU_ASSERT_EQUAL(strokes, 2);
            CU_ASSERT(fabs(t_stroke2 - 3.5) < 0.05);
            CU_ASSERT(t_rest_out < 3.7);
        } else if (kind == 3 || kind == 7) {
            /* kind 7: nothing came near it, so it did not move: it is only
             * not seen; no wait for it, no pocket */
            CU_ASSERT_EQUAL(pockets, 0);
            CU_ASSERT(t_rest_out < 2.6);
        } else if (kind == 4) {
            CU_ASSERT_EQUAL(pockets, 0); /* most likely the 3, its number not known */
        } else if (kind == 6) {
            CU_ASSERT_EQUAL(pockets, 0); /* not looked for long enough to say */
        } else {
            CU_ASSERT_EQUAL(pockets, 0); /* seen rolling off toward no pocket: on the bed, unseen */
        }
        rfix_close(&f);
    }
}

/* Mid-shot, a track with no number shows up inside the head-right pocket's
 * mouth for a quarter second and goes (a hand or the cue over the hole made
 * a ball-like blob there): it came from no place on the table, and its going
 * is no pocket. A ball with no number seen rolling across the bed into the
 * same pocket is pocketed. */
static void test_no_pot_for_a_blob_in_a_pocket(void)
{
    for (int kind = 0; kind < 2; kind++) {
        const double fps = 60.0;
        int pockets = 0;
        rfix_t f;

        rfix_open(&f, fps, 610 + (uint64_t)kind);
        for (int k = 0; k < (int)(5.0 * fps); k++) {
            const double t = k / fps, u = fmin(fmax(t - 1.0, 0.0), 1.0), x = 600.0 + 1000.0 * u - 500.0 * u * u;

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, x, 300.0, 0.3, 0.4);
            rfix_ball(&f, 9, 1, 2000.0, 900.0, 0.3, 0.4);
            if (kind == 0 && t >= 1.5 && t < 1.75) {
                rfix_ball(&f, -1, 2, -5.0, 1200.0, 2.0, 1.0);
            } else if (kind == 1 && t >= 1.2 && t < 1.6) {
                /* from (400, 1000) toward the corner at 800 mm/s: past the
                 * mouth line at about 1.53 s */
                const double w = (t - 1.2) * 800.0 / hypot(400.0, 270.0);

                rfix_ball(&f, -1, 2, 400.0 - 400.0 * w, 1000.0 + 270.0 * w, 0.3, 0.5);
            } else if ((kind == 0 && t >= 1.75 && t < 2.0) || (kind == 1 && t >= 1.6 && t < 2.0)) {
                cr_ball_obs_t *o = rfix_ball(&f, -1, 2, kind == 0 ? -5.0 : 20.0, kind == 0 ? 1200.0 : 1250.0, 0.0, 1.0);

                o->status = CR_BALL_GONE;
            }
            pockets += rfix_push(&f, false, CR_EV_POCKET, -1);
        }
        pockets += rfix_push(&f, true, CR_EV_POCKET, -1);
        CU_ASSERT_EQUAL(pockets, kind == 0 ? 0 : 1);
        rfix_close(&f);
    }
}

/* Six well-seen shots: the cue ball rolls from 300 mm/s to a stop in the open,
 * slowed by the cloth alone (98 mm/s^2), which measures the cloth. In the
 * seventh it is seen poorly (3 mm of noise, said to be 1.5 mm, in one frame
 * of two): its last creep hides in the noise, and a fit free to slow it at
 * any rate stops it early. A rolling ball slows no faster than the cloth
 * lets it: the rest comes within 0.25 s of the true stop (not before
 * 0.25 s ahead of it, nor later than 0.5 s after it). */
static void test_rolling_stop_bound_by_the_cloth(void)
{
    const double fps = 30.0, v0 = 300.0, dec = 98.0, t_roll = v0 / dec, period = t_roll + 1.5;
    double t_rest[7], t_true[7];
    int rests = 0;
    rfix_t f;

    rfix_open(&f, fps, 905);
    for (int k = 0; k < (int)(7 * period * fps) + 30; k++) {
        const double t = k / fps;
        const int shot = (int)(t / period);
        const double u = fmin(fmax(t - shot * period - 0.5, 0.0), t_roll), d = v0 * u - 0.5 * dec * u * u;
        const bool poor = shot == 6;
        /* each shot starts where the last one stopped, back and forth along y = 600 */
        const double x0 = 700.0 + (shot % 2 ? v0 * v0 / (2.0 * dec) : 0.0), x = x0 + (shot % 2 ? -d : d);
        cr_ball_obs_t *o;
        int n;

        rfix_frame(&f, t, k);
        if (shot < 7)
            t_true[shot] = shot * period + 0.5 + t_roll;
        o = rfix_ball(&f, 0, 0, x, 600.0, poor ? 3.0 : 0.3, poor ? 1.5 : 0.4);
        if (poor && k % 2)
            o->status = CR_BALL_HIDDEN;
        rfix_ball(&f, 9, 1, 2000.0, 300.0, 0.3, 0.4);
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
        for (int e = 0; e < n; e++)
            if (f.out[e].type == CR_EV_REST && rests < 7)
                t_rest[rests++] = f.out[e].t;
    }
    CU_ASSERT_EQUAL_FATAL(rests, 7);
    for (int q = 0; q < 7; q++) {
        if (getenv("ROLL_DEBUG"))
            printf("\nshot %d rest %.3f true stop %.3f", q, t_rest[q], t_true[q]);
        CU_ASSERT(t_rest[q] >= t_true[q] - 0.25 && t_rest[q] <= t_true[q] + 0.5);
    }
    rfix_close(&f);
}

/* An object ball struck at 200 mm/s (a stun shot) rolls its last centimetres, slowed by the
 * cloth alone (98 mm/s^2), seen cleanly (0.2 mm of noise) but with the
 * large sigma a tracker gives a faint outline (2.5 mm: a ball of the
 * cloth's colour); once, 0.6 s before it stops, a fit lands 20 mm beside it
 * (a shadow), which breaks its path there. Its samples run on in a clean
 * row at a few millimetres a frame: that is no stop, however large the
 * sigma, and the rest comes no sooner than 0.25 s before the true stop. */
static void test_creep_in_a_clean_row_is_no_stop(void)
{
    for (int rate = 0; rate < 2; rate++) {
        const double fps = rate ? 60.0 : 30.0, v0 = 200.0, dec = 98.0, t0 = 1.0, t_stop = t0 + v0 / dec;
        double t_rest = -1;
        rfix_t f;

        rfix_open(&f, fps, 940 + (uint64_t)rate);
        for (int k = 0; k < (int)(5.0 * fps); k++) {
            const double t = k / fps, u = fmin(fmax(t - t0, 0.0), v0 / dec), x = 1200.0 + v0 * u - 0.5 * dec * u * u;
            const bool shadow = fabs(t - (t_stop - 0.6)) < 0.5 / fps;
            int n;

            rfix_frame(&f, t, k);
            /* the cue ball, struck at 0.5 s, stuns into it at t0 */
            rfix_ball(&f, 0, 0, 1200.0 - 2.0 * CR_BALL_RADIUS_MM - v0 * fmin(fmax(t0 - t, 0.0), t0 - 0.5), 600.0, 0.2,
                      0.4);
            rfix_ball(&f, 6, 1, shadow ? x - 16.0 : x, shadow ? 612.0 : 600.0, 0.2, 3.0);
            CU_ASSERT_EQUAL_FATAL(cr_recon_push(f.rc, f.fr, f.out, 128, &n), 0);
            for (int e = 0; e < n; e++)
                if (f.out[e].type == CR_EV_REST && t_rest < 0 && f.out[e].t > t0)
                    t_rest = f.out[e].t;
        }
        if (getenv("ROLL_DEBUG"))
            printf("\n%.0f fps: rest %.3f true stop %.3f", fps, t_rest, t_stop);
        CU_ASSERT(t_rest >= t_stop - 0.25);
        rfix_close(&f);
    }
}

/* Mid-shot, the cue ball speeds up and turns with no ball seen near it. Still
 * rolling at 600 mm/s across the table, it was hit by a ball the tracker did
 * not see (no player strikes a ball crossing the table): no second stroke.
 * Rolling its last centimetres at 100 mm/s, it was struck again by the cue:
 * a second stroke (the engine calls 6.9 on it when balls still move). */
static void test_restrike_needs_a_slow_cue_ball(void)
{
    for (int q = 0; q < 4; q++) {
        const double fps = q % 2 ? 60.0 : 30.0, v1 = q < 2 ? 750.0 : 250.0, tk = 1.5;
        int strokes = 0;
        rfix_t f;

        rfix_open(&f, fps, 97 + (uint64_t)q);
        for (int k = 0; k < (int)(5.0 * fps); k++) {
            const double t = k / fps, u = fmin(fmax(t - 0.5, 0.0), tk - 0.5);
            double x = 500.0 + v1 * u - 75.0 * u * u, y = 600.0;

            if (t > tk) { /* 1500 mm/s along (900, 300), slowing at 1500 mm/s^2 (sliding) */
                const double w = fmin(t - tk, 1.0), d = 1500.0 * w - 750.0 * w * w;

                x += d * 900.0 / 949.0;
                y += d * 300.0 / 949.0;
            }
            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, x, y, 0.5, 0.5);
            rfix_ball(&f, 9, 1, 2000.0, 200.0, 0.5, 0.5);
            strokes += rfix_push(&f, false, CR_EV_STROKE, -1);
        }
        strokes += rfix_push(&f, true, CR_EV_STROKE, -1);
        CU_ASSERT_EQUAL(strokes, q < 2 ? 1 : 2);
        rfix_close(&f);
    }
}

/* A slow cue ball (in at 80 or 110 mm/s) bounces off a cushion and creeps
 * back a few centimetres, measured with a 1-1.5 mm sigma: its creep can look
 * still for a moment and close the shot, but its going on is no new stroke
 * (no player is down on the next shot a moment after the cue ball stopped). */
static void test_creep_after_rest_is_no_stroke(void)
{
    const double yc = 1270.0 - 57.15 / 2.0, fps = 30.0, dec = 150.0, tc = 1.5;

    for (int q = 0; q < 2; q++) {
        const double vin = q ? 110.0 : 80.0, vout = 0.8 * vin, sig = q ? 1.5 : 1.0;
        const double v0 = vin + dec * 1.0, d0 = v0 - 75.0, tw = vout / dec;
        int strokes = 0;
        rfix_t f;

        rfix_open(&f, fps, 101);
        for (int k = 0; k < (int)(4.0 * fps); k++) {
            const double t = k / fps, u = fmin(fmax(t - (tc - 1.0), 0.0), 1.0), w = fmin(fmax(t - tc, 0.0), tw);
            const double y = t <= tc ? yc - d0 + v0 * u - 75.0 * u * u : yc - (vout * w - 75.0 * w * w);

            rfix_frame(&f, t, k);
            rfix_ball(&f, 0, 0, 1200.0, y, 0.3, sig);
            rfix_ball(&f, 9, 1, 2000.0, 200.0, 0.3, 0.5);
            strokes += rfix_push(&f, false, CR_EV_STROKE, -1);
        }
        strokes += rfix_push(&f, true, CR_EV_STROKE, -1);
        CU_ASSERT_EQUAL(strokes, 1);
        rfix_close(&f);
    }
}

/* The cue ball hits a ball whose track the tracker (wrongly) names the cue
 * ball too, while the real cue ball is on the table: the collision is the
 * cue ball and an unknown ball (-1), never the cue ball with itself. */
static void test_same_name_twice(void)
{
    cr_table_t tab;
    cr_recon_t *rc = NULL;
    cr_recon_params_t rp;
    cr_ball_frame_t *fr = calloc(1, sizeof(*fr));
    cr_event_t *out = calloc(128, sizeof(*out));
    const double fps = 60.0, t_hit = 1.0 + (1000.0 - 500.0 - 2.0 * 28.575) / 1000.0;
    int n, k, cols = 0, self = 0, with_unknown = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    rng = 91;
    cr_table_init(&tab, 2540.0, 1270.0);
    cr_recon_params_defaults(&rp);
    rp.fps = fps;
    CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, &rp, &rc), 0);
    for (k = 0; k < (int)(4.0 * fps); k++) {
        double t = k / fps, cx = 500.0, ox = 1000.0;

        if (t > 1.0) /* a stun shot: the cue ball stops dead, the object ball goes on */
            cx = 500.0 + 1000.0 * (fmin(t, t_hit) - 1.0);
        if (t > t_hit) {
            double u = fmin(t - t_hit, 1.0);

            ox = 1000.0 + 900.0 * u - 450.0 * u * u;
        }
        memset(fr, 0, sizeof(*fr));
        fr->t = t;
        fr->frame = (uint64_t)k;
        fr->n = 2;
        fr->balls[0] = (cr_ball_obs_t){.id = 0, .track = 0, .x = cx + 0.5 * gauss(), .y = 600 + 0.5 * gauss(),
                                       .sigma_mm = 0.5, .status = CR_BALL_SEEN};
        fr->balls[1] = (cr_ball_obs_t){.id = t < 0.5 ? -1 : 0, .track = 5, .x = ox + 0.5 * gauss(),
                                       .y = 600 + 0.5 * gauss(), .sigma_mm = 0.5, .status = CR_BALL_SEEN};
        CU_ASSERT_EQUAL_FATAL(cr_recon_push(rc, fr, out, 128, &n), 0);
        for (int i = 0; i < n; i++)
            if (out[i].type == CR_EV_COLLISION) {
                cols++;
                self += out[i].a == out[i].b;
                with_unknown += (out[i].a == 0 && out[i].b == -1) || (out[i].a == -1 && out[i].b == 0);
            }
    }
    CU_ASSERT_EQUAL(cr_recon_finish(rc, out, 128, &n), 0);
    for (int i = 0; i < n; i++)
        if (out[i].type == CR_EV_COLLISION) {
            cols++;
            self += out[i].a == out[i].b;
            with_unknown += (out[i].a == 0 && out[i].b == -1) || (out[i].a == -1 && out[i].b == 0);
        }
    CU_ASSERT(cols >= 1);
    CU_ASSERT_EQUAL(self, 0);
    CU_ASSERT(with_unknown >= 1);
    cr_recon_destroy(rc);
    free(fr);
    free(out);
}

/* Of the cue ball's reported cushion contacts: how many are tk (its rail,
 * within a frame), and how many match no truth cushion of the cue ball. */
static void cue_cushions_found(const rcase_t *c, const cr_event_t *tk, double fps, int *found, int *extra)
{
    for (int j = 0; j < c->ng; j++) {
        bool match = false;

        if (c->got[j].type != CR_EV_CUSHION || c->got[j].ball != 0)
            continue;
        for (int k = 0; k < c->nt; k++)
            if (c->truth[k].type == CR_EV_CUSHION && c->truth[k].ball == 0 && c->truth[k].rail == c->got[j].rail &&
                fabs(c->got[j].t - c->truth[k].t) <= 1.0 / fps)
                match = true;
        *found += match && c->got[j].rail == tk->rail && fabs(c->got[j].t - tk->t) <= 1.0 / fps;
        *extra += !match;
    }
}

/* Plays s: the truth's first contact of the cue ball (*tc) and its first
 * cushion (*tk), both there, and how the review's cushions of the cue ball
 * match that one (cue_cushions_found()). */
static void play_cue_cushion(const setup_t *s, rcase_t *c, const cr_event_t **tc, const cr_event_t **tk, int *found,
                             int *extra)
{
    *found = *extra = 0;
    CU_ASSERT_EQUAL_FATAL(play(s, c), 0);
    *tc = first_cue_contact(c->truth, c->nt, NULL);
    *tk = find(c->truth, c->nt, CR_EV_CUSHION, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*tc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*tk);
    cue_cushions_found(c, *tk, s->fps, found, extra);
}

/* At 30 fps, a cue ball cut off an object ball that rests a centimetre or
 * so from a cushion reaches the cushion itself 0.3 to 2.3 frames after the
 * collision: its path turns twice within a few samples, and the sample
 * nearest the cushion lies 5-17 mm beyond contact distance (it used to be
 * missed: over contact_tol from it). Its contact must be found, on that
 * rail, within a frame, and no other cushion of the cue ball. */
static void test_cushion_just_after_a_collision(void)
{
    static rcase_t c;
    static const struct {
        double gap, off, speed; /* the 1's gap to contact distance, the cue ball's offset, mm/s */
    } cases[3] = {{14.0, 8.0, 980.0}, {6.0, -8.0, 1000.0}, {16.0, -8.0, 1050.0}};
    const double ang = -65.0 * 3.14159265358979323846 / 180.0;

    for (int q = 0; q < 3; q++) {
        setup_t s;
        const cr_event_t *tk = NULL, *tc = NULL;
        int found, extra;

        memset(&s, 0, sizeof(s));
        s.fps = 30.0;
        s.balls[1] = (cr_ball_pos_t){1, 1126.7, 28.575 + cases[q].gap};
        s.balls[0] = (cr_ball_pos_t){0, 1047.6 - 300.0 * cos(ang) + cases[q].off, 101.6 - 300.0 * sin(ang)};
        s.n = 2;
        s.speed = cases[q].speed;
        s.heading_deg = -65.0;
        s.seed = 105 + (uint64_t)q;
        play_cue_cushion(&s, &c, &tc, &tk, &found, &extra);
        CU_ASSERT(tk->t - tc->t < 2.5 / s.fps); /* the set-up: the cushion soon after */
        CU_ASSERT_EQUAL(found, 1);
        CU_ASSERT_EQUAL(extra, 0);
        if (found != 1 || extra)
            printf("\n  case %d: the cue ball's cushion at %.3f found %d times, %d cushions not in the truth", q,
                   tk->t, found, extra);
    }
}

/* A cue ball running along a cushion a hair off it cuts a ball that sits
 * beyond it, further out, and the blow sends it into the cushion at once:
 * the cushion comes within a frame of the collision, inside the same kink.
 * A blow changes the velocity along the line of centres alone; the part of
 * the change across it is the cushion's. (It used to be missed; at 120 fps
 * the kink is placed frames after the blow and is still missed.) */
static void test_cushion_within_a_kink(void)
{
    static rcase_t c;
    static const struct {
        double fps, gap, off, speed; /* the cue ball's gap to the cushion, the 1's offset out, mm/s */
    } cases[3] = {{30.0, 2.0, 40.0, 1100.0}, {60.0, 2.0, 36.0, 1000.0}, {60.0, 3.0, 44.0, 1400.0}};
    const double h = 1.5 * 3.14159265358979323846 / 180.0; /* closing in on the cushion at 1.5 degrees */

    for (int q = 0; q < 3; q++) {
        setup_t s;
        const cr_event_t *tk = NULL, *tc = NULL;
        int found, extra;

        memset(&s, 0, sizeof(s));
        s.fps = cases[q].fps;
        s.balls[0] = (cr_ball_pos_t){0, 700.0, 28.575 + cases[q].gap + 450.0 * tan(h)};
        s.balls[1] = (cr_ball_pos_t){1, 1200.0, 28.575 + cases[q].gap + cases[q].off};
        s.n = 2;
        s.speed = cases[q].speed;
        s.heading_deg = -1.5;
        s.seed = 211 + (uint64_t)q;
        play_cue_cushion(&s, &c, &tc, &tk, &found, &extra);
        CU_ASSERT(tk->rail == CR_RAIL_LEFT && tk->t > tc->t && tk->t - tc->t < 1.0 / s.fps); /* the set-up */
        CU_ASSERT_EQUAL(found, 1);
        CU_ASSERT_EQUAL(extra, 0);
        if (found != 1 || extra)
            printf("\n  case %d (%g fps): the cue ball's cushion at %.4f (collision %.4f) found %d times, %d cushions "
                   "not in the truth",
                   q, s.fps, tk->t, tc->t, found, extra);
    }
}

/* A cue ball frozen to an object ball and struck into it (with follow, so
 * that it goes on) sets it moving at the stroke: the two start together
 * (the cue ball's onset measured up to 1.5 frames late: it gave nearly all
 * its speed away), the contact is at the stroke, and the object ball is
 * not "still moving" then (it used to be in 7 of these 8 cases, with no
 * contact at all: a false balls_moving and a false no_contact). */
/* Struck square and without spin into a ball it is frozen to (or rests a
 * hair from), the cue ball gives that ball nearly all its speed and moves
 * a millimetre or two: it has no onset of its own. The ball leaving along
 * the line of centres at speed between shots is the stroke, and the
 * contact is at it (it used to be no event at all: the shot was missed and
 * every later shot numbered one off). */
static void test_stun_into_a_frozen_ball(void)
{
    static rcase_t c;
    int bad = 0;

    for (int q = 0; q < 6; q++) {
        setup_t s;
        const cr_event_t *st;
        double ang = (20.0 + 25.0 * q) * 3.14159265358979323846 / 180.0, gap = q % 3 == 0 ? 0.0 : 0.05 * q;

        memset(&s, 0, sizeof(s));
        s.fps = q % 2 ? 60.0 : 120.0;
        s.balls[0] = (cr_ball_pos_t){0, 1300.0, 600.0};
        s.balls[1] = (cr_ball_pos_t){1, 1300.0 + (2.0 * 28.575 + gap) * cos(ang), 600.0 + (2.0 * 28.575 + gap) * sin(ang)};
        s.n = 2;
        s.speed = 900.0 + 150.0 * q;
        s.heading_deg = ang * 180.0 / 3.14159265358979323846;
        s.tip_b = 0.0;
        s.seed = 340 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        CU_ASSERT_FATAL(c.nt > 0 && c.truth[0].type == CR_EV_COLLISION); /* the set-up: contact first */
        st = find(c.got, c.ng, CR_EV_STROKE, -1, NULL);
        if (!st || !find_pair(c.got, c.ng, 0, 1, c.truth[0].t, 1.5 / s.fps) ||
            count(c.got, c.ng, CR_EV_DISTURBED, -1) != 0) {
            bad++;
            printf("\n  case %d: stroke %s, contact %s, %d disturbed", q, st ? "found" : "missed",
                   find_pair(c.got, c.ng, 0, 1, NAN, 0) ? "late" : "missed", count(c.got, c.ng, CR_EV_DISTURBED, -1));
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* After a set-up with a ball frozen to the cue ball and struck through the
 * contact (the truth's first event is that contact): a stroke, neither a
 * double hit nor a push shot, no ball moving at the stroke, and the
 * contact 0-1 within tol_frames of the truth's. Returns 1 when the last
 * two fail (printed with label and q), else 0. */
static int frozen_stroke_bad(const rcase_t *c, double fps, double tol_frames, const char *label, int q)
{
    const cr_event_t *st;

    CU_ASSERT_FATAL(c->nt > 0 && c->truth[0].type == CR_EV_COLLISION); /* the set-up: contact first */
    st = find(c->got, c->ng, CR_EV_STROKE, -1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    /* shooting into a frozen ball is neither a double hit nor a push shot */
    CU_ASSERT_EQUAL(count(c->got, c->ng, CR_EV_DOUBLE_HIT, -1) + count(c->got, c->ng, CR_EV_PUSH_SHOT, -1), 0);
    if (st->n_moving != 0 || !find_pair(c->got, c->ng, 0, 1, c->truth[0].t, tol_frames / fps)) {
        printf("\n  %scase %d: %d balls moving at the stroke, contact 0-1 %s", label, q, st->n_moving,
               find_pair(c->got, c->ng, 0, 1, NAN, 0) ? "late" : "missed");
        return 1;
    }
    return 0;
}

static void test_frozen_to_the_cue_ball(void)
{
    static rcase_t c;
    int bad = 0;

    for (int q = 0; q < 8; q++) {
        setup_t s;
        double ang = (-80.0 + 5.0 * q) * 3.14159265358979323846 / 180.0;

        memset(&s, 0, sizeof(s));
        s.fps = q % 2 ? 60.0 : 30.0;
        s.balls[0] = (cr_ball_pos_t){0, 1969.17, 740.2};
        /* the 1 touching it, on the side it is struck toward */
        s.balls[1] = (cr_ball_pos_t){1, 1969.17 + 2.0 * 28.575 * cos(ang), 740.2 + 2.0 * 28.575 * sin(ang)};
        s.n = 2;
        s.speed = 400.0 + 60.0 * q;
        s.heading_deg = ang * 180.0 / 3.14159265358979323846;
        s.tip_b = 0.5; /* follow: the cue ball goes on after the 1 */
        s.seed = 300 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        bad += frozen_stroke_bad(&c, s.fps, 1.5, "", q);
    }
    CU_ASSERT_EQUAL(bad, 0);
    /* and through a chain: the cue ball frozen to the 1, the 1 to the 2,
     * at rest a while (the 2 may be seen starting before the stroke, and
     * the 1's start has a contact of its own, with the 2); the contact is
     * timed within three frames (the earlier onset: the 1's, pushing the
     * 2, is seen up to 42 ms early at 60 fps); before, 5 of these 8 had no
     * contact 0-1 and most a ball moving at the stroke */
    bad = 0;
    for (int q = 0; q < 8; q++) {
        setup_t s;
        double ang = (-80.0 + 5.0 * q) * 3.14159265358979323846 / 180.0, b2 = ang + (q % 3 - 1) * 0.3;

        memset(&s, 0, sizeof(s));
        s.fps = q % 2 ? 60.0 : 30.0;
        s.balls[0] = (cr_ball_pos_t){0, 1969.17, 740.2};
        s.balls[1] = (cr_ball_pos_t){1, 1969.17 + 2.0 * 28.575 * cos(ang), 740.2 + 2.0 * 28.575 * sin(ang)};
        s.balls[2] = (cr_ball_pos_t){2, s.balls[1].x + 2.0 * 28.575 * cos(b2), s.balls[1].y + 2.0 * 28.575 * sin(b2)};
        s.n = 3;
        s.speed = 600.0 + 60.0 * q;
        s.heading_deg = ang * 180.0 / 3.14159265358979323846;
        s.tip_b = 0.5;
        s.wait_s = 2.0;
        s.seed = 320 + (uint64_t)q;
        CU_ASSERT_EQUAL_FATAL(play(&s, &c), 0);
        bad += frozen_stroke_bad(&c, s.fps, 3.0, "chain ", q);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_api(void)
{
    cr_table_t tab;
    cr_recon_t *rc = NULL;
    cr_recon_params_t p;
    cr_ball_frame_t *fr = calloc(1, sizeof(*fr));
    cr_event_t *out = calloc(64, sizeof(*out));
    int n = -1, k;

    CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    cr_table_init(&tab, 2540.0, 1270.0);
    cr_recon_params_defaults(&p);
    p.fps = 0;
    CU_ASSERT_EQUAL(cr_recon_create(&tab, &p, &rc), CR_ERR_INVALID);
    CU_ASSERT_PTR_NULL(rc);
    CU_ASSERT_EQUAL(cr_recon_create(NULL, NULL, &rc), CR_ERR_INVALID);
    CU_ASSERT_EQUAL_FATAL(cr_recon_create(&tab, NULL, &rc), 0);
    fr->n = 2;
    fr->balls[0] = (cr_ball_obs_t){.id = 0, .x = 500, .y = 500, .sigma_mm = 0.5, .status = CR_BALL_SEEN};
    fr->balls[1] = (cr_ball_obs_t){.id = -1, .x = 900, .y = 500, .sigma_mm = 0.5, .status = CR_BALL_SEEN};
    CU_ASSERT_EQUAL(cr_recon_push(rc, fr, out, 10, &n), CR_ERR_INVALID); /* max too small */
    for (k = 0; k < 120; k++) {
        fr->t = k / 60.0;
        CU_ASSERT_EQUAL(cr_recon_push(rc, fr, out, 64, &n), 0);
        CU_ASSERT_EQUAL(n, 0);
    }
    CU_ASSERT_EQUAL(cr_recon_push(rc, fr, out, 64, &n), CR_ERR_INVALID); /* time must advance */
    CU_ASSERT_EQUAL(cr_recon_finish(rc, out, 64, &n), 0);
    CU_ASSERT_EQUAL(n, 0); /* no stroke: no rest either */
    cr_recon_destroy(rc);
    cr_recon_destroy(NULL);
    free(fr);
    free(out);
}

int cr_test_register_recon(void)
{
    CU_pSuite s = CU_add_suite("recon", NULL, NULL);

    if (!s || !CU_add_test(s, "api", test_api) || !CU_add_test(s, "straight pot 60/30 fps", test_straight_pot) ||
        !CU_add_test(s, "cut into a cushion", test_cut_cushion) ||
        !CU_add_test(s, "a cushion just after a collision (30 fps)", test_cushion_just_after_a_collision) ||
        !CU_add_test(s, "a cushion within a collision's kink (30/60 fps)", test_cushion_within_a_kink) ||
        !CU_add_test(s, "slow balls into a cushion, seen leaning toward it", test_slow_cushion_seen_leaning) ||
        !CU_add_test(s, "a ball frozen to the cue ball is not moving at the stroke", test_frozen_to_the_cue_ball) ||
        !CU_add_test(s, "a stun shot into a frozen ball", test_stun_into_a_frozen_ball) ||
        !CU_add_test(s, "close first contact", test_close_first_contact) || !CU_add_test(s, "scratch", test_scratch) ||
        !CU_add_test(s, "off the table", test_off_table) ||
        !CU_add_test(s, "a ball gone unseen is looked for, then pocketed", test_gone_unseen_is_looked_for) ||
        !CU_add_test(s, "no pot for a blob seen only inside a pocket", test_no_pot_for_a_blob_in_a_pocket) ||
        !CU_add_test(s, "a second contact off a cushion moments after the first", test_rebound_second_contact) ||
        !CU_add_test(s, "a slow cue ball kissed again off a cushion frames later", test_kiss_back_off_a_cushion) ||
        !CU_add_test(s, "kisses seen leaning together", test_kiss_seen_leaning) ||
        !CU_add_test(s, "rolling balls glancing off each other at 30 fps", test_rolling_balls_glance) ||
        !CU_add_test(s, "random shots at 60 fps: contacts timed", test_random_shots_timed) ||
        !CU_add_test(s, "a near miss is no contact", test_near_miss_no_contact) ||
        !CU_add_test(s, "near misses over many seeds are no contacts", test_near_misses_many_seeds) ||
        !CU_add_test(s, "a rolling ball stops no sooner than the cloth lets it", test_rolling_stop_bound_by_the_cloth) ||
        !CU_add_test(s, "a slow bounce off a cushion is no stop", test_slow_bounce_is_no_stop) ||
        !CU_add_test(s, "a waver beside a cushion is no contact", test_waver_beside_a_cushion_is_no_contact) ||
        !CU_add_test(s, "a contact is timed from the raw detections", test_contact_timed_from_raw_detections) ||
        !CU_add_test(s, "a ball creeping in a clean row is no stop, whatever its sigma",
                     test_creep_in_a_clean_row_is_no_stop) ||
        !CU_add_test(s, "a ball lost at a cushion that comes back did not leave the table",
                     test_lost_at_cushion_comes_back) ||
        !CU_add_test(s, "a ball lost running along a cushion into a pocket close by dropped there",
                     test_lost_running_along_a_cushion_into_a_pocket) ||
        !CU_add_test(s, "a ball lost as it meets a cushion before a pocket did not drop",
                     test_lost_meeting_a_cushion_before_a_pocket) ||
        !CU_add_test(s, "a resting ball's fit that steps between shots is no stroke", test_refit_step_is_no_stroke) ||
        !CU_add_test(s, "a resting ball's fit that jumps within its noise is no touch", test_refit_jump_is_no_touch) ||
        !CU_add_test(s, "disturbed between shots", test_disturbed_between_shots) ||
        !CU_add_test(s, "a ball wavering beside another between shots strikes nothing", test_waver_turns_beside_a_ball) ||
        !CU_add_test(s, "a still ball whose fit flips and comes back is not disturbed",
                     test_fit_flips_back_not_disturbed) ||
        !CU_add_test(s, "a struck ball's first step pulled by the striker's fit", test_struck_first_step_pulled) ||
        !CU_add_test(s, "a shallow turn along a cushion", test_shallow_turn_along_a_cushion) ||
        !CU_add_test(s, "one cushion line for one contact found twice", test_one_cushion_line_for_one_contact) ||
        !CU_add_test(s, "a ball in a pocket's mouth struck in", test_struck_in_from_a_mouth) ||
        !CU_add_test(s, "a ball struck into a cushion it rested near", test_struck_from_near_a_cushion) ||
        !CU_add_test(s, "no touched ball at a 30 fps break", test_break_no_touched_ball) ||
        !CU_add_test(s, "the blow through balls frozen in a row", test_blow_through_frozen_balls) ||
        !CU_add_test(s, "slow nudge is a collision", test_slow_nudge) ||
        !CU_add_test(s, "shallow cushion contact", test_shallow_cushion) ||
        !CU_add_test(s, "object ball off a near cushion", test_near_cushion_bounce) ||
        !CU_add_test(s, "a ball struck off a near cushion is timed by the blow", test_struck_off_a_near_cushion_timed) ||
        !CU_add_test(s, "a cushion just after a collision", test_cushion_after_collision) ||
        !CU_add_test(s, "a cushion just after a thin cut", test_cushion_after_thin_cut) ||
        !CU_add_test(s, "a cushion just before a collision", test_cushion_then_ball) ||
        !CU_add_test(s, "a ball struck into a near cushion (120 fps)", test_struck_into_near_cushion) ||
        !CU_add_test(s, "a contact with a pocket's jaw", test_jaw_contact) ||
        !CU_add_test(s, "straight into a corner pocket: no jaw", test_straight_into_corner) ||
        !CU_add_test(s, "a jaw met on the way into a pocket", test_jaw_on_the_way_in) ||
        !CU_add_test(s, "a jaw point met is timed there", test_jaw_point_timed) ||
        !CU_add_test(s, "a ball struck into one resting a few millimetres off", test_struck_into_a_near_ball) ||
        !CU_add_test(s, "a ball rolled gently into another, and gently past it", test_gentle_contacts) ||
        !CU_add_test(s, "soft contacts timed before the hitter's kink", test_soft_contacts) ||
        !CU_add_test(s, "thin cuts: a hitter found touching came from afar", test_thin_cuts) ||
        !CU_add_test(s, "slow cuts: a best time at the grid's edge looks wider", test_slow_cuts) ||
        !CU_add_test(s, "slow cuts beside a resting ball", test_slow_cuts_beside_a_ball) ||
        !CU_add_test(s, "creeping contacts (a weakness, bounded)", test_creeping_contacts) ||
        !CU_add_test(s, "a contact a few millimetres away follows its stroke", test_contact_before_stroke) ||
        !CU_add_test(s, "the rebound's second contact with draw on the cue ball", test_rebound_with_draw) ||

        !CU_add_test(s, "a wavering rack between shots gives no collision", test_waver_between_shots) ||
        !CU_add_test(s, "frozen row of three", test_frozen_row) ||
        !CU_add_test(s, "double hit suspicion", test_double_hit) ||
        !CU_add_test(s, "cue ball put down nearby", test_placed_nearby) ||
        !CU_add_test(s, "cue ball back under an unnamed track", test_cue_back_unnamed) ||
        !CU_add_test(s, "wavering ball is not touched", test_wavering_ball) ||
        !CU_add_test(s, "a fit that jumps is no touched ball", test_fit_jump_is_no_touch) ||
        !CU_add_test(s, "a pocketed ball named elsewhere is not back", test_pocketed_ball_named_elsewhere) ||
        !CU_add_test(s, "a racked ball named after the break is back", test_racked_ball_named_after_the_break) ||
        !CU_add_test(s, "a number taken back for the cue ball put down", test_number_taken_back_for_the_cue_ball) ||
        !CU_add_test(s, "slow cushion contacts timed from the detections", test_slow_cushion_timed_from_detections) ||
        !CU_add_test(s, "a slow ball beside does not send the cue ball off fast", test_slow_ball_is_no_hitter) ||
        !CU_add_test(s, "a wavering fit is no hitter between shots", test_waver_is_no_hitter_between_shots) ||
        !CU_add_test(s, "a ball rolled up to a cushion touched it", test_rolled_up_to_a_cushion) ||
        !CU_add_test(s, "a ball rolled beside a cushion and stopped there touched nothing",
                     test_rolled_beside_a_cushion) ||
        !CU_add_test(s, "a rolling ball's fit that glitches is no touch, a push is", test_rolling_ball_glitch_or_touch) ||
        !CU_add_test(s, "a waver beside a ball between shots is no ball still moving",
                     test_waver_beside_a_ball_at_the_stroke) ||
        !CU_add_test(s, "a waver that resumes at the stroke is no ball still moving",
                     test_waver_resumes_at_the_stroke) ||
        !CU_add_test(s, "a fit moved by the cue at the stroke is no ball still moving",
                     test_fit_under_the_cue_at_the_stroke) ||
        !CU_add_test(s, "a fit wavering beside the cue ball as it is struck away touched nothing",
                     test_waver_beside_the_struck_cue_ball) ||
        !CU_add_test(s, "a ball out from under the cue was struck, not put down", test_out_from_under_the_cue) ||
        !CU_add_test(s, "an unnamed ball moving at the stroke is no ball in motion", test_unnamed_moving_at_stroke) ||
        !CU_add_test(s, "a ball wavering more than its fits say is not touched", test_wavering_more_than_it_says) ||
        !CU_add_test(s, "a ball hanging in the jaws that is lost dropped", test_hung_ball_drops) ||
        !CU_add_test(s, "a dropped ball the tracker still holds is down", test_dropped_ball_is_down) ||
        !CU_add_test(s, "a ball gone from the table hits nothing", test_gone_ball_hits_nothing) ||
        !CU_add_test(s, "a course from a few sightings reaches its pocket", test_short_sighting_course) ||
        !CU_add_test(s, "one sighting is no course into a pocket far off", test_one_sighting_is_no_course) ||
        !CU_add_test(s, "a ball lost meeting a cushion gently did not leave the table", test_gentle_cushion_is_not_off_table) ||
        !CU_add_test(s, "a ball lost at a cushion found again as a new track did not leave the table",
                     test_lost_at_cushion_comes_back_as_new_track) ||
        !CU_add_test(s, "a ball struck into a pocket and never seen again was hit", test_struck_into_pocket_at_once) ||
        !CU_add_test(s, "a lost ball whose course ran into a pocket before the film ended dropped",
                     test_film_ends_after_a_lost_ball_drops) ||
        !CU_add_test(s, "a ball that cannot be the cue ball gives no stroke", test_not_cue_no_stroke) ||
        !CU_add_test(s, "a track lost by a pocket is no ball dropped", test_track_break_by_pocket) ||
        !CU_add_test(s, "a ball lost on its way into a pocket dropped there", test_lost_into_pocket) ||
        !CU_add_test(s, "a ball lost after a wavering path dropped where it led", test_lost_after_a_wavering_path) ||
        !CU_add_test(s, "a ball struck and never seen to move follows the blow", test_struck_never_seen_moving) ||
        !CU_add_test(s, "a ball lost beside a pocket moving away did not drop", test_lost_beside_a_pocket_moving_away) ||
        !CU_add_test(s, "a ball wavering just before it is hit was not touched", test_waver_before_a_hit_is_no_touch) ||
        !CU_add_test(s, "a second stroke needs a cue ball close to stopping", test_restrike_needs_a_slow_cue_ball) ||
        !CU_add_test(s, "a cue ball creeping on after a rest is no stroke", test_creep_after_rest_is_no_stroke) ||
        !CU_add_test(s, "two tracks named alike are not one ball", test_same_name_twice))
        return -1;
    return 0;
}
