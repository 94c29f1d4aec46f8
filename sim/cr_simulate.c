/*
 * cr_simulate.c - plays shots on the physics, writes the truth stream judged
 * by the rules engine, and renders the frames.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_render.h"
#include "cr_rules.h"
#include "cr_simulate.h"

#define EV_CAP 512
#define CR_PI 3.14159265358979323846
#define MAX_STROKES CR_SCN_MAX_SHOTS
#define CUE_BEFORE_S 1.2 /* the cue and arm are over the table this long before a stroke */
#define CUE_AFTER_S 0.3  /* ... and this long after it */
#define PLACE_BEFORE_S 1.0
#define SETTLE_AFTER_REST_S 0.5 /* a referee spots balls this long after the rest */
#define RACK_GATHER_S 3.0       /* from the balls gathered off the table to the new rack set */
#define SHOT_MAX_S 120.0

typedef struct {
    double t;          /* stroke time */
    double heading;    /* rad */
    cr_point_t cue;    /* cue ball at the stroke */
    double speed;      /* mm/s */
    bool show;
} stroke_rec_t;

typedef struct {
    const cr_scenario_t *scn;
    cr_simulate_opts_t o;
    const cr_simulate_sink_t *sink;
    cr_sim_t *sim;
    cr_judge_t *judge;
    cr_event_t *evs;  /* EV_CAP physics events */
    cr_event_t *jout; /* CR_JUDGE_MAX_OUT */
    cr_event_t tmp;
    cr_ruling_t last;
    bool have_last;
    bool in_play[CR_NUM_BALLS];
    stroke_rec_t *strokes;
    int n_strokes;
    double t_rest;     /* the last shot's rest */
    bool rest_emitted; /* for the shot in progress */
    int shot;          /* shot in progress, -1 between shots */
    double last_col[CR_NUM_BALLS][CR_NUM_BALLS]; /* time of the last collision of each pair */
    char *err;
    size_t err_len;
} ctx_t;

static int fail(ctx_t *c, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(ctx_t *c, int status, const char *fmt, ...)
{
    va_list ap;

    if (c->err && c->err_len) {
        va_start(ap, fmt);
        vsnprintf(c->err, c->err_len, fmt, ap);
        va_end(ap);
    }
    return status;
}

void cr_simulate_opts_defaults(cr_simulate_opts_t *o)
{
    memset(o, 0, sizeof(*o));
    o->render = true;
    o->lead_in_s = 1.0;
    o->tail_s = 1.0;
    o->max_shots = CR_SCN_MAX_SHOTS;
}

int cr_simulate_camera(const cr_scenario_t *scn, cr_camera_t *cam)
{
    cr_camera_setup_t s;

    cr_camera_setup_defaults(&s, scn->width, scn->height);
    s.tilt_deg = scn->camera.tilt_deg;
    s.yaw_deg = scn->camera.yaw_deg;
    s.offset_x_mm = scn->camera.offset_x_mm;
    s.offset_y_mm = scn->camera.offset_y_mm;
    if (scn->camera.height_mm > 0)
        s.height_mm = scn->camera.height_mm;
    s.k1 = scn->camera.k1;
    s.k2 = scn->camera.k2;
    return cr_camera_build(&s, &scn->table, cam);
}

int cr_simulate_scenario_shots(void *user, int index, const cr_sim_ball_t state[CR_NUM_BALLS],
                               const cr_ruling_t *last, cr_scn_shot_t *shot)
{
    const cr_scenario_t *scn = user;

    (void)state;
    (void)last;
    if (index >= scn->n_shots)
        return 0;
    *shot = scn->shots[index];
    return 1;
}

/* ---------------------------------------------------------------- truth */

/* Writes one truth line and what the rules engine derives from it. */
static int emit(ctx_t *c, const cr_event_t *ev)
{
    int n, k;

    if (c->sink->on_event && c->sink->on_event(c->sink->user, ev))
        return fail(c, CR_ERR_IO, "cannot write the truth stream");
    n = cr_judge_feed(c->judge, ev, c->jout, CR_JUDGE_MAX_OUT);
    if (n < 0)
        return fail(c, CR_ERR_INVALID, "rules engine: %s", cr_judge_error(c->judge));
    for (k = 0; k < n; k++) {
        if (c->jout[k].type == CR_EV_RULING) {
            c->last = c->jout[k].ruling;
            c->have_last = true;
        }
        if (c->sink->on_event && c->sink->on_event(c->sink->user, &c->jout[k]))
            return fail(c, CR_ERR_IO, "cannot write the truth stream");
    }
    return 0;
}

static void balls_list(const cr_sim_ball_t st[CR_NUM_BALLS], cr_event_t *ev)
{
    int i;

    ev->n_balls = 0;
    for (i = 0; i < CR_NUM_BALLS; i++) {
        if (!st[i].on_table)
            continue;
        ev->balls[ev->n_balls].id = i;
        ev->balls[ev->n_balls].x = st[i].x;
        ev->balls[ev->n_balls].y = st[i].y;
        ev->balls[ev->n_balls].vx = NAN;
        ev->balls[ev->n_balls].vy = NAN;
        ev->balls[ev->n_balls].frozen_rails = 0;
        ev->n_balls++;
    }
}

static bool moving(const cr_sim_ball_t *b)
{
    return b->motion == CR_MOTION_SLIDING || b->motion == CR_MOTION_ROLLING || b->motion == CR_MOTION_SPINNING;
}

/* Emits the rest line once every ball has stopped. */
static int emit_rest(ctx_t *c)
{
    cr_sim_ball_t st[CR_NUM_BALLS];
    double t;

    if (c->rest_emitted || c->shot < 0 || cr_sim_time_all_at_rest(c->sim, &t) != CR_OK)
        return 0;
    if (cr_sim_state_at(c->sim, cr_sim_time(c->sim), st) != CR_OK)
        return fail(c, CR_ERR_INVALID, "physics state");
    cr_event_init(&c->tmp, CR_EV_REST);
    c->tmp.t = t;
    c->tmp.shot = c->shot;
    balls_list(st, &c->tmp);
    c->rest_emitted = true;
    c->t_rest = t;
    return emit(c, &c->tmp);
}

/* Runs the physics to t_max (or rest), emitting its events. */
static int run_until(ctx_t *c, double t_max)
{
    int n, i, st, rc;

    do {
        st = cr_sim_run(c->sim, t_max, c->evs, EV_CAP, &n);
        if (st != CR_OK && st != CR_ERR_FULL)
            return fail(c, st, "physics: %s", cr_status_str(st));
        for (i = 0; i < n; i++) {
            cr_event_t *e = &c->evs[i];

            if (e->type == CR_EV_COLLISION && e->a >= 0 && e->b >= 0) {
                /* A frozen cluster (a rack) is resolved by several impulses
                 * at one instant: one contact, one collision line. */
                double *last = &c->last_col[e->a < e->b ? e->a : e->b][e->a < e->b ? e->b : e->a];

                if (fabs(e->t - *last) < 1e-6)
                    continue;
                *last = e->t;
            }
            e->shot = c->shot;
            if ((rc = emit(c, e)))
                return rc;
        }
        if (st == CR_ERR_FULL && n == 0)
            return fail(c, CR_ERR_FULL, "the simulation's segment store is full");
    } while (st == CR_ERR_FULL);
    return emit_rest(c);
}

/* Moves the clock to t: simulates if balls move, else waits. */
static int advance_to(ctx_t *c, double t)
{
    double now = cr_sim_time(c->sim), tr;

    if (t <= now)
        return 0;
    if (cr_sim_time_all_at_rest(c->sim, &tr) == CR_OK)
        return cr_sim_wait(c->sim, t) == CR_OK ? 0 : fail(c, CR_ERR_INVALID, "cannot wait to %.3f s", t);
    return run_until(c, t);
}

/* --------------------------------------------------------------- shots */

static bool spot_free(const cr_sim_ball_t st[CR_NUM_BALLS], int self, double x, double y, const cr_table_t *t)
{
    int i;

    if (x < t->ball_radius_mm || y < t->ball_radius_mm || x > t->length_mm - t->ball_radius_mm ||
        y > t->width_mm - t->ball_radius_mm)
        return false;
    for (i = 0; i < CR_NUM_BALLS; i++)
        if (i != self && st[i].on_table && hypot(st[i].x - x, st[i].y - y) < 2 * t->ball_radius_mm + 0.5)
            return false;
    return true;
}

/* The cue ball in hand where the shot says, or behind the head string. */
static int place_cue(ctx_t *c, const cr_scn_shot_t *sh, double t_place)
{
    const cr_table_t *t = &c->scn->table;
    cr_sim_ball_t st[CR_NUM_BALLS];
    double x, y;
    int k, rc;

    if ((rc = advance_to(c, t_place)))
        return rc;
    if (cr_sim_state_at(c->sim, cr_sim_time(c->sim), st) != CR_OK)
        return fail(c, CR_ERR_INVALID, "physics state");
    x = sh->has_place ? sh->place.x : cr_table_head_string_x(t) - 150.0;
    y = sh->has_place ? sh->place.y : cr_table_long_string_y(t);
    for (k = 0; !sh->has_place && k < 200 && !spot_free(st, 0, x, y, t); k++) {
        x = cr_table_head_string_x(t) - 100.0 - 37.0 * (k % 10);
        y = cr_table_long_string_y(t) + 60.0 * ((k / 10) - 10);
    }
    if (!spot_free(st, 0, x, y, t))
        return fail(c, CR_ERR_INVALID, "shot %d: cannot place the cue ball at (%.1f, %.1f): another ball or a cushion is there",
                    c->n_strokes, x, y);
    if (cr_sim_place_ball(c->sim, 0, x, y) != CR_OK)
        return fail(c, CR_ERR_INVALID, "shot %d: cannot place the cue ball at (%.1f, %.1f)", c->n_strokes, x, y);
    c->in_play[0] = true;
    cr_event_init(&c->tmp, CR_EV_PLACED);
    c->tmp.t = cr_sim_time(c->sim);
    c->tmp.ball = 0;
    c->tmp.x = x;
    c->tmp.y = y;
    return emit(c, &c->tmp);
}

static int emit_input(ctx_t *c, double t, cr_input_kind_t kind, int ball, cr_pocket_t pocket)
{
    cr_event_init(&c->tmp, CR_EV_INPUT);
    c->tmp.t = t;
    c->tmp.input_kind = kind;
    c->tmp.ball = ball;
    c->tmp.pocket = pocket;
    return emit(c, &c->tmp);
}

/* The stroke's heading: an angle, or a ghost-ball aim at a ball. */
static int heading_of(ctx_t *c, const cr_scn_shot_t *sh, const cr_sim_ball_t st[CR_NUM_BALLS], double *h)
{
    const double d2 = 2.0 * c->scn->table.ball_radius_mm;
    double dx, dy, len, ax, ay;

    if (sh->aim == CR_AIM_ANGLE) {
        *h = sh->aim_deg * CR_PI / 180.0;
        return 0;
    }
    if (sh->aim_ball <= 0 || !st[sh->aim_ball].on_table)
        return fail(c, CR_ERR_INVALID, "shot %d: aims at ball %d, which is not on the table", c->n_strokes,
                    sh->aim_ball);
    dx = st[sh->aim_ball].x - st[0].x;
    dy = st[sh->aim_ball].y - st[0].y;
    len = hypot(dx, dy);
    if (len < 1e-9)
        return fail(c, CR_ERR_INVALID, "shot %d: the cue ball sits on ball %d", c->n_strokes, sh->aim_ball);
    /* cut > 0 aims to the left of the object ball (seen from the cue ball):
     * it is hit on its left side and goes to the right. */
    ax = st[sh->aim_ball].x + sh->cut * d2 * (dy / len);
    ay = st[sh->aim_ball].y + sh->cut * d2 * (-dx / len);
    *h = atan2(ay - st[0].y, ax - st[0].x);
    return 0;
}

static int apply_script(ctx_t *c, const cr_scn_script_t *sc)
{
    cr_sim_ball_t st[CR_NUM_BALLS];
    cr_point_t pp;
    double best = INFINITY, d;
    int p, pocket = CR_POCKET_NONE;

    if (cr_sim_state_at(c->sim, cr_sim_time(c->sim), st) != CR_OK)
        return fail(c, CR_ERR_INVALID, "physics state");
    if (!st[sc->ball].on_table)
        return 0; /* the ball is gone already: nothing to touch or drop */
    if (sc->kind == CR_SCRIPT_LEAVE)
        return cr_sim_leave_at_contact(c->sim, sc->ball, sc->nth) == CR_OK
                   ? 0
                   : fail(c, CR_ERR_INVALID, "cannot script ball %d off the table", sc->ball);
    if (sc->kind == CR_SCRIPT_TOUCH) {
        if (cr_sim_nudge(c->sim, cr_sim_time(c->sim), sc->ball, sc->vx, sc->vy) != CR_OK)
            return fail(c, CR_ERR_INVALID, "shot %d: cannot touch ball %d", c->n_strokes - 1, sc->ball);
        cr_event_init(&c->tmp, CR_EV_DISTURBED);
        c->tmp.t = cr_sim_time(c->sim);
        c->tmp.shot = c->rest_emitted ? -1 : c->shot;
        c->tmp.ball = sc->ball;
        c->tmp.x = st[sc->ball].x;
        c->tmp.y = st[sc->ball].y;
        c->tmp.cause = CR_CAUSE_TOUCH;
        /* touched after the shot ended: shot null, and its new stop is no
         * shot's rest, so no rest line follows (emit_rest runs once a shot) */
        return emit(c, &c->tmp);
    }
    for (p = 0; p < CR_POCKET_COUNT; p++) {
        pp = cr_table_pocket_point(&c->scn->table, (cr_pocket_t)p);
        d = hypot(pp.x - st[sc->ball].x, pp.y - st[sc->ball].y);
        if (d < best) {
            best = d;
            pocket = p;
        }
    }
    if (cr_sim_remove_ball(c->sim, sc->ball) != CR_OK)
        return fail(c, CR_ERR_INVALID, "cannot drop ball %d", sc->ball);
    cr_event_init(&c->tmp, CR_EV_POCKET);
    c->tmp.t = cr_sim_time(c->sim);
    c->tmp.shot = c->rest_emitted ? -1 : c->shot;
    c->tmp.ball = sc->ball;
    c->tmp.pocket = (cr_pocket_t)pocket;
    return emit(c, &c->tmp);
}

/* Spotted balls, and a new rack once a rack is decided. */
static int after_ruling(ctx_t *c, bool more_shots)
{
    int i, rc, n;
    cr_ball_pos_t rack[CR_NUM_BALLS + 1];
    cr_edition_t ed = strcmp(c->scn->rules, "wpa2025") ? CR_EDITION_WPA2008 : CR_EDITION_WPA2025;

    if (!c->have_last || !more_shots)
        return 0;
    if ((rc = advance_to(c, c->t_rest + SETTLE_AFTER_REST_S)))
        return rc;
    if (c->last.game_over && c->scn->game != CR_GAME_NONE) {
        /* the balls left are gathered off the table, the new rack stands
         * there RACK_GATHER_S later (the triangle lifted), and the break
         * waits from then; the cue ball is put down before it like any
         * ball in hand (a placed line), not teleported with the rack */
        if (cr_sim_place(c->sim, rack, 0) != CR_OK)
            return fail(c, CR_ERR_INVALID, "cannot clear the table");
        if ((rc = advance_to(c, cr_sim_time(c->sim) + RACK_GATHER_S)))
            return rc;
        n = cr_table_rack(&c->scn->table, c->scn->game, ed, c->scn->seed + (uint64_t)c->n_strokes, rack,
                          CR_NUM_BALLS);
        if (n <= 0 || cr_sim_place(c->sim, rack, n) != CR_OK)
            return fail(c, CR_ERR_INVALID, "cannot re-rack");
        for (i = 0; i < n; i++)
            c->in_play[rack[i].id] = true;
        c->t_rest = cr_sim_time(c->sim);
        cr_event_init(&c->tmp, CR_EV_INPUT);
        c->tmp.t = cr_sim_time(c->sim);
        c->tmp.input_kind = CR_INPUT_RACK;
        c->tmp.player = c->last.next_player;
        return emit(c, &c->tmp);
    }
    for (i = 0; i < c->last.n_spot; i++) {
        int id = c->last.spot[i].id;

        if (cr_sim_place_ball(c->sim, id, c->last.spot[i].x, c->last.spot[i].y) != CR_OK)
            return fail(c, CR_ERR_INVALID, "cannot spot ball %d at (%.1f, %.1f)", id, c->last.spot[i].x,
                        c->last.spot[i].y);
        c->in_play[id] = true;
    }
    return 0;
}

/* When the balls of a shot from rest would all stop: the same placement,
 * stroke and scripts on a scratch simulation (the physics is deterministic). */
static int scratch_rest_time(ctx_t *c, const cr_sim_ball_t st[CR_NUM_BALLS], double t_s, const cr_scn_shot_t *sh,
                             double heading, double *t_rest)
{
    cr_phys_params_t pp;
    cr_ball_pos_t pos[CR_NUM_BALLS];
    cr_sim_t *sim = NULL;
    int i, n = 0, n_ev, st_run, rc = 0;

    for (i = 0; i < CR_NUM_BALLS; i++)
        if (st[i].on_table) {
            pos[n].id = i;
            pos[n].x = st[i].x;
            pos[n].y = st[i].y;
            n++;
        }
    cr_phys_params_defaults(&pp);
    if (cr_sim_create(&c->scn->table, &pp, &sim) != CR_OK || cr_sim_place(sim, pos, n) != CR_OK ||
        cr_sim_wait(sim, t_s) != CR_OK || cr_sim_strike(sim, 0, sh->speed_mm_s, heading, sh->tip_side, sh->tip_height))
        rc = fail(c, CR_ERR_INVALID, "shot %d: cannot play it ahead", c->shot);
    for (i = 0; !rc && i < sh->n_script; i++) {
        const cr_scn_script_t *sc = &sh->script[i];

        do
            st_run = cr_sim_run(sim, t_s + sc->t_s, c->evs, EV_CAP, &n_ev);
        while (st_run == CR_ERR_FULL && n_ev > 0);
        if (cr_sim_time(sim) < t_s + sc->t_s)
            cr_sim_wait(sim, t_s + sc->t_s);
        if (sc->kind == CR_SCRIPT_TOUCH)
            cr_sim_nudge(sim, cr_sim_time(sim), sc->ball, sc->vx, sc->vy);
        else if (sc->kind == CR_SCRIPT_LEAVE)
            cr_sim_leave_at_contact(sim, sc->ball, sc->nth);
        else
            cr_sim_remove_ball(sim, sc->ball);
    }
    if (!rc) {
        do
            st_run = cr_sim_run(sim, t_s + SHOT_MAX_S, c->evs, EV_CAP, &n_ev);
        while (st_run == CR_ERR_FULL && n_ev > 0);
        if (cr_sim_time_all_at_rest(sim, t_rest) != CR_OK)
            rc = fail(c, CR_ERR_INVALID, "shot %d: the balls do not stop", c->shot);
    }
    cr_sim_destroy(sim);
    return rc;
}

static int play_shot(ctx_t *c, const cr_scn_shot_t *sh, double next_wait)
{
    cr_sim_ball_t st[CR_NUM_BALLS];
    cr_scn_script_t order[CR_SCN_MAX_SCRIPT];
    double t_s, heading = 0.0, tr, t_end = INFINITY;
    int i, k, rc, n_moving = 0;
    bool at_rest = cr_sim_time_all_at_rest(c->sim, &tr) == CR_OK;

    t_s = at_rest ? fmax(cr_sim_time(c->sim), c->t_rest + fmax(sh->wait_s, 0.3)) : cr_sim_time(c->sim);
    if (cr_sim_state_at(c->sim, cr_sim_time(c->sim), st) != CR_OK)
        return fail(c, CR_ERR_INVALID, "physics state");
    if (sh->has_place || !st[0].on_table) {
        if (!at_rest)
            return fail(c, CR_ERR_INVALID, "shot %d: the cue ball cannot be placed while balls move", c->n_strokes);
        if ((rc = place_cue(c, sh, fmax(cr_sim_time(c->sim), t_s - PLACE_BEFORE_S))))
            return rc;
    }
    if (sh->call_ball >= 0 && (rc = emit_input(c, t_s - 0.5, CR_INPUT_CALL, sh->call_ball, sh->call_pocket)))
        return rc;
    if (sh->safety && (rc = emit_input(c, t_s - 0.5, CR_INPUT_SAFETY, -1, CR_POCKET_NONE)))
        return rc;
    if (sh->push_out && (rc = emit_input(c, t_s - 0.5, CR_INPUT_PUSH_OUT, -1, CR_POCKET_NONE)))
        return rc;
    if ((rc = advance_to(c, t_s)))
        return rc;
    if (cr_sim_state_at(c->sim, t_s, st) != CR_OK)
        return fail(c, CR_ERR_INVALID, "physics state");
    if ((rc = heading_of(c, sh, st, &heading)))
        return rc;

    c->shot = c->n_strokes;
    c->rest_emitted = false;
    cr_event_init(&c->tmp, CR_EV_STROKE);
    c->tmp.t = t_s;
    c->tmp.shot = c->shot;
    c->tmp.ball = 0;
    balls_list(st, &c->tmp);
    for (i = 0; i < CR_NUM_BALLS; i++)
        if (st[i].on_table && moving(&st[i]))
            c->tmp.moving[n_moving++] = i;
    c->tmp.n_moving = n_moving;
    if ((rc = emit(c, &c->tmp)))
        return rc;
    if (cr_sim_strike(c->sim, 0, sh->speed_mm_s, heading, sh->tip_side, sh->tip_height) != CR_OK)
        return fail(c, CR_ERR_INVALID, "shot %d: the stroke is out of range", c->shot);
    c->strokes[c->n_strokes].t = t_s;
    c->strokes[c->n_strokes].heading = heading;
    c->strokes[c->n_strokes].cue.x = st[0].x;
    c->strokes[c->n_strokes].cue.y = st[0].y;
    c->strokes[c->n_strokes].speed = sh->speed_mm_s;
    c->strokes[c->n_strokes].show = sh->show_cue;
    c->n_strokes++;

    /* scripted events in time order */
    memcpy(order, sh->script, sizeof(order));
    for (i = 1; i < sh->n_script; i++)
        for (k = i; k > 0 && order[k - 1].t_s > order[k].t_s; k--) {
            cr_scn_script_t tmp = order[k];

            order[k] = order[k - 1];
            order[k - 1] = tmp;
        }
    for (i = 0; i < sh->n_script; i++) {
        if ((rc = advance_to(c, t_s + order[i].t_s)) || (rc = apply_script(c, &order[i])))
            return rc;
    }
    if (next_wait < 0 && at_rest) {
        /* The next stroke comes before this shot's balls stop (6.9): play the
         * same shot on a scratch simulation to learn when they would stop,
         * then stop this one that much earlier. */
        if ((rc = scratch_rest_time(c, st, t_s, sh, heading, &t_end)))
            return rc;
        t_end = fmax(t_s + 0.05, t_end + next_wait);
        return run_until(c, t_end);
    }
    return run_until(c, t_s + SHOT_MAX_S);
}

/* --------------------------------------------------------------- frames */

typedef struct {
    ctx_t *c;
    cr_renderer_t *r;
    const cr_camera_t *cam;
    double q[CR_NUM_BALLS][4];
    double t_q;
    double t_frame;
    double exposure; /* s */
    cr_render_ball_t balls[CR_NUM_BALLS];
    uint8_t skin[3], sleeve[3];
} render_ctx_t;

static void quat_normalise(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);

    if (n > 0)
        for (int i = 0; i < 4; i++)
            q[i] /= n;
}

/* q <- exp(w dt / 2) q: the ball turned by its angular velocity w (rad/s). */
static void quat_rotate(double q[4], const double w[3], double dt)
{
    double ang = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) * dt, s, r[4], o[4];

    if (ang < 1e-12)
        return;
    s = sin(ang / 2) / (ang / dt);
    r[0] = cos(ang / 2);
    r[1] = w[0] * s;
    r[2] = w[1] * s;
    r[3] = w[2] * s;
    o[0] = r[0] * q[0] - r[1] * q[1] - r[2] * q[2] - r[3] * q[3];
    o[1] = r[0] * q[1] + r[1] * q[0] + r[2] * q[3] - r[3] * q[2];
    o[2] = r[0] * q[2] - r[1] * q[3] + r[2] * q[0] + r[3] * q[1];
    o[3] = r[0] * q[3] + r[1] * q[2] - r[2] * q[1] + r[3] * q[0];
    memcpy(q, o, sizeof(o));
    quat_normalise(q);
}

/* Integrates every ball's orientation up to t (steps of at most 1 ms). */
static void orient_to(render_ctx_t *rc, double t)
{
    cr_sim_ball_t st[CR_NUM_BALLS];
    double t0 = rc->t_q, dt, tm, w[3];
    int steps, s, i;

    if (t <= t0)
        return;
    steps = (int)ceil((t - t0) / 0.001);
    dt = (t - t0) / steps;
    for (s = 0; s < steps; s++) {
        tm = t0 + (s + 0.5) * dt;
        if (cr_sim_state_at(rc->c->sim, tm, st) != CR_OK)
            break;
        for (i = 0; i < CR_NUM_BALLS; i++) {
            if (!st[i].on_table)
                continue;
            w[0] = st[i].wx;
            w[1] = st[i].wy;
            w[2] = st[i].wz;
            quat_rotate(rc->q[i], w, dt);
        }
    }
    rc->t_q = t;
}

/* The cue and arm at time t, if a stroke's window holds t. */
static void cue_at(render_ctx_t *rc, double t, cr_render_scene_t *scene)
{
    const ctx_t *c = rc->c;
    const double R = c->scn->table.ball_radius_mm;
    int i;

    scene->cue.present = false;
    scene->arm.present = false;
    for (i = 0; i < c->n_strokes; i++) {
        const stroke_rec_t *s = &c->strokes[i];
        double u = s->t - t, d, dx, dy;

        if (!s->show || u > CUE_BEFORE_S || u < -CUE_AFTER_S)
            continue;
        /* practice strokes, then the stroke and a follow-through */
        if (u > 0)
            d = 8.0 + 90.0 * fabs(sin(CR_PI * u / 0.5)) * fmin(1.0, u / 0.25);
        else
            d = -fmin(150.0, -u * fmin(s->speed, 3000.0));
        dx = cos(s->heading);
        dy = sin(s->heading);
        scene->cue.present = true;
        scene->cue.tip_x_mm = s->cue.x - dx * (R + d);
        scene->cue.tip_y_mm = s->cue.y - dy * (R + d);
        scene->cue.tip_z_mm = R + 4.0;
        scene->cue.dir_deg = s->heading * 180.0 / CR_PI;
        scene->cue.elevation_deg = 6.0;
        if (cr_render_arm_from_cue(&scene->cue, rc->skin, rc->sleeve, (i % 2) == 1, &scene->arm) != CR_OK)
            scene->arm.present = false;
        return;
    }
}

static int scene_fn(void *user, double frac, cr_render_scene_t *scene)
{
    render_ctx_t *rc = user;
    cr_sim_ball_t st[CR_NUM_BALLS];
    double t = fmax(rc->t_q, rc->t_frame + (frac - 0.5) * rc->exposure);
    int i;

    orient_to(rc, t);
    if (cr_sim_state_at(rc->c->sim, t, st) != CR_OK)
        return CR_ERR_INVALID;
    scene->n_balls = 0;
    for (i = 0; i < CR_NUM_BALLS; i++) {
        cr_render_ball_t *b = &rc->balls[scene->n_balls];

        if (!st[i].on_table || !isfinite(st[i].x) || !isfinite(st[i].y))
            continue; /* pocketed, off the table, or never placed */
        b->id = i;
        b->x_mm = st[i].x;
        b->y_mm = st[i].y;
        b->lift_mm = 0;
        memcpy(b->q, rc->q[i], sizeof(rc->q[i]));
        b->visible = true;
        scene->n_balls++;
    }
    scene->balls = rc->balls;
    cue_at(rc, t, scene);
    return 0;
}

/* Pixels a fully visible ball covers at (x, y). */
static double disc_area_px(const cr_camera_t *cam, double x, double y, double R)
{
    double u0, v0, u1, v1, u2, v2;

    if (!cr_camera_project(cam, x, y, R, &u0, &v0) || !cr_camera_project(cam, x + R, y, R, &u1, &v1) ||
        !cr_camera_project(cam, x, y + R, R, &u2, &v2))
        return 0;
    return CR_PI * hypot(u1 - u0, v1 - v0) * hypot(u2 - u0, v2 - v0);
}

int cr_simulate_blur_subframes(double travel_mm, double ball_radius_mm, int base)
{
    int k;

    if (base <= 1 || !(travel_mm > 0.0) || !(ball_radius_mm > 0.0))
        return base < 1 ? 1 : base;
    k = (int)ceil(fmin(travel_mm / (ball_radius_mm / 3.0), (double)CR_RENDER_MAX_SUBFRAMES));
    return k > base ? k : base;
}

/* Motion-blur sub-frames for the frame at t_frame, from the furthest any ball
 * moves over the exposure (cr_simulate_blur_subframes). */
static int blur_subframes(ctx_t *c, const cr_render_params_t *rp, double t_frame, double exposure)
{
    cr_sim_ball_t a[CR_NUM_BALLS], b[CR_NUM_BALLS];
    double far = 0.0;
    int i;

    if (rp->blur_subframes <= 1 || cr_sim_state_at(c->sim, fmax(0.0, t_frame - 0.5 * exposure), a) != CR_OK ||
        cr_sim_state_at(c->sim, t_frame + 0.5 * exposure, b) != CR_OK)
        return rp->blur_subframes;
    for (i = 0; i < CR_NUM_BALLS; i++)
        if (a[i].on_table && b[i].on_table && isfinite(a[i].x) && isfinite(b[i].x))
            far = fmax(far, hypot(b[i].x - a[i].x, b[i].y - a[i].y));
    return cr_simulate_blur_subframes(far, c->scn->table.ball_radius_mm, rp->blur_subframes);
}

static int render_frames(ctx_t *c, double t_end)
{
    const cr_scenario_t *scn = c->scn;
    cr_render_params_t rp;
    cr_camera_t cam;
    render_ctx_t rc;
    cr_render_info_t info;
    cr_frame_ball_t fb[CR_NUM_BALLS];
    cr_sim_ball_t st[CR_NUM_BALLS];
    uint8_t *rgb = NULL;
    int stride = scn->width * 3, rcode = 0, i, cloth;
    long k, n_frames = (long)floor(t_end * scn->fps) + 1;
    static const char *const cloths[] = {"blue", "green", "red", "tan", "grey"};

    memset(&rc, 0, sizeof(rc));
    rc.c = c;
    if (cr_simulate_camera(scn, &cam) != CR_OK)
        return fail(c, CR_ERR_INVALID, "the camera cannot see the table");
    rc.cam = &cam;
    for (i = 0; i < CR_NUM_BALLS; i++)
        cr_render_random_orientation(scn->seed, i, rc.q[i]);
    rc.skin[0] = 224;
    rc.skin[1] = 172;
    rc.skin[2] = 140;
    rc.sleeve[0] = 40;
    rc.sleeve[1] = 44;
    rc.sleeve[2] = 60;
    rc.exposure = scn->shutter / scn->fps;
    if (c->o.render) {
        cr_render_params_defaults(&rp, &scn->table);
        for (cloth = 0; cloth < 5; cloth++)
            if (!strcmp(scn->cloth, cloths[cloth]))
                cr_render_cloth_rgb((cr_cloth_preset_t)cloth, rp.cloth_rgb);
        rp.noise_sigma = scn->noise;
        rp.exposure *= scn->light;
        rp.blur_subframes = scn->blur_subframes > CR_RENDER_MAX_SUBFRAMES ? CR_RENDER_MAX_SUBFRAMES : scn->blur_subframes;
        rp.seed = scn->seed;
        rgb = malloc((size_t)stride * (size_t)scn->height);
        if (!rgb)
            return fail(c, CR_ERR_NOMEM, "out of memory");
        if (cr_renderer_create(&cam, &scn->table, &rp, &rc.r) != CR_OK) {
            free(rgb);
            return fail(c, CR_ERR_INVALID, "cannot create the renderer");
        }
    }
    for (k = 0; k < n_frames && !rcode; k++) {
        rc.t_frame = (double)k / scn->fps;
        memset(&info, 0, sizeof(info));
        if (c->o.render && cr_render_frame_cb_n(rc.r, scene_fn, &rc, blur_subframes(c, &rp, rc.t_frame, rc.exposure),
                                                (uint64_t)k, rgb, stride, &info) != CR_OK) {
            rcode = fail(c, CR_ERR_INVALID, "rendering frame %ld failed", k);
            break;
        }
        orient_to(&rc, rc.t_frame);
        if (cr_sim_state_at(c->sim, rc.t_frame, st) != CR_OK) {
            rcode = fail(c, CR_ERR_INVALID, "physics state at frame %ld", k);
            break;
        }
        for (i = 0; i < CR_NUM_BALLS; i++) {
            /* a ball gathered off the table for a new rack has no place until racked */
            fb[i].in_play = c->in_play[i] && isfinite(st[i].x) && isfinite(st[i].y);
            fb[i].on_table = st[i].on_table;
            fb[i].x = st[i].x;
            fb[i].y = st[i].y;
            fb[i].visible = st[i].on_table;
            if (c->o.render && st[i].on_table)
                fb[i].visible = info.ball_px[i] >= 0.5 * disc_area_px(&cam, st[i].x, st[i].y, scn->table.ball_radius_mm);
        }
        if (c->sink->on_frame && c->sink->on_frame(c->sink->user, (int)k, rc.t_frame, rgb, stride, fb))
            rcode = fail(c, CR_ERR_IO, "cannot write frame %ld", k);
    }
    cr_renderer_destroy(rc.r);
    free(rgb);
    return rcode;
}

/* ----------------------------------------------------------------- run */

int cr_simulate_run(const cr_scenario_t *scn, const cr_simulate_opts_t *opts, cr_shot_source_fn source,
                    void *source_user, const cr_simulate_sink_t *sink, char *err, size_t err_len)
{
    cr_simulate_opts_t od;
    cr_rules_params_t rp;
    cr_phys_params_t pp;
    cr_sim_ball_t st[CR_NUM_BALLS];
    cr_scn_shot_t shot, next;
    ctx_t c;
    int rc = 0, idx, got, i;

    if (!opts) {
        cr_simulate_opts_defaults(&od);
        opts = &od;
    }
    memset(&c, 0, sizeof(c));
    c.scn = scn;
    c.o = *opts;
    c.sink = sink;
    c.err = err;
    c.err_len = err_len;
    c.shot = -1;
    for (i = 0; i < CR_NUM_BALLS * CR_NUM_BALLS; i++)
        c.last_col[i / CR_NUM_BALLS][i % CR_NUM_BALLS] = -1.0;
    if (err && err_len)
        err[0] = '\0';

    c.evs = malloc(sizeof(*c.evs) * EV_CAP);
    c.jout = malloc(sizeof(*c.jout) * CR_JUDGE_MAX_OUT);
    c.strokes = calloc(MAX_STROKES, sizeof(*c.strokes));
    cr_phys_params_defaults(&pp);
    cr_rules_params_defaults(&rp);
    rp.game = scn->game;
    rp.table = scn->table;
    if (cr_rules_params_set_edition(&rp, scn->rules) != CR_OK) {
        rc = fail(&c, CR_ERR_INVALID, "unknown rules edition '%s'", scn->rules);
        goto done;
    }
    if (!c.evs || !c.jout || !c.strokes) {
        rc = fail(&c, CR_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (cr_sim_create(&scn->table, &pp, &c.sim) != CR_OK || cr_judge_create(&rp, &c.judge) != CR_OK) {
        rc = fail(&c, CR_ERR_INVALID, "cannot create the simulation");
        goto done;
    }
    if (cr_sim_place(c.sim, scn->balls, scn->n_balls) != CR_OK) {
        rc = fail(&c, CR_ERR_INVALID, "the balls overlap each other or a cushion");
        goto done;
    }
    for (i = 0; i < scn->n_balls; i++)
        c.in_play[scn->balls[i].id] = true;

    cr_event_init(&c.tmp, CR_EV_SESSION);
    snprintf(c.tmp.source, sizeof(c.tmp.source), "cueref sim (seed %llu)", (unsigned long long)scn->seed);
    c.tmp.fps = scn->fps;
    c.tmp.width = scn->width;
    c.tmp.height = scn->height;
    c.tmp.table_length_mm = scn->table.length_mm;
    c.tmp.table_width_mm = scn->table.width_mm;
    c.tmp.game = scn->game;
    snprintf(c.tmp.rules, sizeof(c.tmp.rules), "%s", scn->rules);
    if ((rc = emit(&c, &c.tmp)))
        goto done;

    c.t_rest = opts->lead_in_s + CUE_BEFORE_S - 2.0; /* the first stroke's wait counts from here */
    got = source(source_user, 0, st, NULL, &shot);
    for (idx = 0; got == 1 && idx < opts->max_shots; idx++) {
        double next_wait = 0;

        if (cr_sim_state_at(c.sim, cr_sim_time(c.sim), st) != CR_OK) {
            rc = fail(&c, CR_ERR_INVALID, "physics state");
            goto done;
        }
        if (source == cr_simulate_scenario_shots && idx + 1 < scn->n_shots)
            next_wait = scn->shots[idx + 1].wait_s;
        if (idx == 0)
            shot.wait_s = fmax(shot.wait_s, 2.0);
        if ((rc = play_shot(&c, &shot, next_wait)))
            goto done;
        if (cr_sim_state_at(c.sim, cr_sim_time(c.sim), st) != CR_OK) {
            rc = fail(&c, CR_ERR_INVALID, "physics state");
            goto done;
        }
        got = source(source_user, idx + 1, st, c.have_last ? &c.last : NULL, &next);
        if (got < 0) {
            rc = fail(&c, got, "the shot source failed");
            goto done;
        }
        if ((rc = after_ruling(&c, got == 1)))
            goto done;
        shot = next;
    }
    if (got < 0) {
        rc = fail(&c, got, "the shot source failed");
        goto done;
    }
    i = cr_judge_finish(c.judge, c.jout, CR_JUDGE_MAX_OUT);
    for (idx = 0; idx < i; idx++)
        if (sink->on_event && sink->on_event(sink->user, &c.jout[idx])) {
            rc = fail(&c, CR_ERR_IO, "cannot write the truth stream");
            goto done;
        }
    rc = render_frames(&c, cr_sim_time(c.sim) + opts->tail_s);
done:
    cr_judge_destroy(c.judge);
    cr_sim_destroy(c.sim);
    free(c.evs);
    free(c.jout);
    free(c.strokes);
    return rc;
}
