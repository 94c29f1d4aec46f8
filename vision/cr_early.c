/*
 * cr_early.c - the cue ball's first contact from the newest frames (see
 * cr_early.h for what is called and when).
 */
#include "cr_early.h"
#include "cr_vision_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EARLY_PI 3.14159265358979323846
#define EARLY_BALLS 48 /* balls followed at once (tracks on the table, with stale copies) */
#define EARLY_PATH 256 /* cue ball sightings kept after a stroke */
#define EARLY_CROSS_S 0.5 /* a ball seen past a mouth line longer than this, then gone, is not called dropped */
#define EARLY_COURSE_S 0.15 /* a ball's straight course into a pocket is followed this long unseen at most */

typedef struct {
    int track; /* -1: free */
    bool present;
    int id;
    cr_ball_status_t status;
    double x, y;       /* last position (held, for a hidden ball) */
    double cx, cy;     /* the cluster of sightings it may be resting in: mean */
    int cn;            /* its sightings */
    double ct0;        /* the first of them */
    bool has_place;    /* it has rested somewhere */
    double px, py;     /* there */
    double t_place;    /* the last sighting at its place */
    int off_run;       /* consecutive sightings off its place, each farther */
    double off_d;      /* the last one's distance */
    double off_t[2];   /* the last two such sightings: time */
    double off_x[2], off_y[2];
    double st[2], sx[2], sy[2]; /* its last two sightings: [1] the last */
    int n_seen;                 /* sightings so far (up to 2 counted) */
    int n_unseen;               /* frames since the last */
    bool dropped;               /* called dropped since it was last seen */
    int cross_p;                /* the pocket whose mouth line it was last seen past, or -1 */
    double cross_t;             /* when it crossed it */
} ball_t;

typedef enum { EARLY_IDLE, EARLY_SHOT } phase_t;

struct cr_early {
    cr_early_params_t p;
    cr_table_t tab;
    double R;
    double t_prev, dt; /* the last frame's time; the frame period seen */
    int n_drops;       /* this frame's drops */
    cr_early_drop_t drops[CR_NUM_BALLS];
    ball_t b[EARLY_BALLS];
    phase_t phase;
    int armed_cue; /* armed (every ball seen at its place): the cue ball's track; else -1 */
    /* the shot being watched */
    int cue_track;
    double t_stroke;
    cr_early_contact_t snap; /* the balls at the stroke */
    int n_held;              /* balls held hidden or unidentified then: where */
    double held_x[EARLY_BALLS], held_y[EARLY_BALLS];
    int n_path;
    double path_t[EARLY_PATH], path_x[EARLY_PATH], path_y[EARLY_PATH], path_s[EARLY_PATH];
};

void cr_early_params_defaults(cr_early_params_t *p)
{
    p->rest_s = 0.3;
    p->rest_mm = 1.5;
    p->moved_mm = 2.0;
    p->moved_sigma = 5.0;
    p->contact_mm = 2.0;
    p->contact_sigma = 3.0;
    p->max_angle_deg = 30.0;
    p->max_shot_s = 10.0;
    p->vanish_s = 0.0;
}

int cr_early_create(const cr_table_t *t, const cr_early_params_t *p, cr_early_t **out)
{
    cr_early_t *e;

    if (!t || !out || !(t->ball_radius_mm > 0))
        return CR_ERR_INVALID;
    if (p && !(p->rest_s > 0 && p->rest_mm > 0 && p->moved_mm > p->rest_mm && p->moved_sigma >= 0 &&
               p->contact_mm >= 0 && p->contact_sigma >= 0 && p->max_angle_deg > 0 && p->max_angle_deg < 90 &&
               p->max_shot_s > 0 && p->vanish_s >= 0))
        return CR_ERR_INVALID;
    e = calloc(1, sizeof(*e));
    if (!e)
        return CR_ERR_NOMEM;
    if (p)
        e->p = *p;
    else
        cr_early_params_defaults(&e->p);
    e->tab = *t;
    e->R = t->ball_radius_mm;
    e->t_prev = NAN;
    e->dt = NAN;
    for (int i = 0; i < EARLY_BALLS; i++)
        e->b[i].track = -1;
    e->phase = EARLY_IDLE;
    e->armed_cue = -1;
    *out = e;
    return CR_OK;
}

void cr_early_destroy(cr_early_t *e)
{
    free(e);
}

static ball_t *ball_of(cr_early_t *e, int track)
{
    int freei = -1;

    for (int i = 0; i < EARLY_BALLS; i++) {
        if (e->b[i].track == track)
            return &e->b[i];
        if (freei < 0 && e->b[i].track < 0)
            freei = i;
    }
    if (freei < 0)
        return NULL;
    memset(&e->b[freei], 0, sizeof(ball_t));
    e->b[freei].track = track;
    e->b[freei].cross_p = CR_POCKET_NONE;
    return &e->b[freei];
}

static double moved_tol(const cr_early_t *e, const cr_ball_obs_t *o)
{
    return fmax(e->p.moved_mm, e->p.moved_sigma * o->sigma_mm);
}

/* Whether a centre crossing pocket p's mouth line at (x, y) is at least R
 * from both jaw points: the ball goes in clear of the jaws (one closer
 * touches a jaw and may come back out). */
static bool clear_of_jaws(const cr_early_t *e, cr_pocket_t p, double x, double y)
{
    cr_point_t a, b;

    if (cr_table_pocket_mouth(&e->tab, p, &a, &b) != 0)
        return false;
    return hypot(x - a.x, y - a.y) >= e->R && hypot(x - b.x, y - b.y) >= e->R;
}

/* Where the straight line from (x0, y0), short of pocket p's mouth line,
 * to (x1, y1), past it, crosses it: the fraction of the way (bisection). */
static double mouth_cross_u(const cr_early_t *e, cr_pocket_t p, double x0, double y0, double x1, double y1)
{
    double lo = 0.0, hi = 1.0;

    for (int k = 0; k < 30; k++) {
        double u = 0.5 * (lo + hi);

        if (cr_table_past_mouth(&e->tab, p, x0 + u * (x1 - x0), y0 + u * (y1 - y0)))
            hi = u;
        else
            lo = u;
    }
    return hi;
}

/* After a sighting: the mouth line ball b is past, and since when. */
static void mouth_crossing(const cr_early_t *e, ball_t *b)
{
    int p;

    if (b->cross_p != CR_POCKET_NONE && cr_table_past_mouth(&e->tab, (cr_pocket_t)b->cross_p, b->sx[1], b->sy[1]))
        return; /* still past it */
    b->cross_p = CR_POCKET_NONE;
    for (p = 0; p < CR_POCKET_COUNT && b->n_seen == 2; p++) {
        cr_point_t c = cr_table_pocket_point(&e->tab, (cr_pocket_t)p);

        if (hypot(b->sx[1] - c.x, b->sy[1] - c.y) <= cr_table_mouth_width(&e->tab, (cr_pocket_t)p) + e->R &&
            cr_table_past_mouth(&e->tab, (cr_pocket_t)p, b->sx[1], b->sy[1]) &&
            !cr_table_past_mouth(&e->tab, (cr_pocket_t)p, b->sx[0], b->sy[0])) {
            double u = mouth_cross_u(e, (cr_pocket_t)p, b->sx[0], b->sy[0], b->sx[1], b->sy[1]);

            b->cross_t = b->st[0] + u * (b->st[1] - b->st[0]);
            b->cross_p = clear_of_jaws(e, (cr_pocket_t)p, b->sx[0] + u * (b->sx[1] - b->sx[0]),
                                       b->sy[0] + u * (b->sy[1] - b->sy[0]))
                             ? p
                             : CR_POCKET_NONE; /* in past a jaw: the reconstruction's to judge */
            return;
        }
    }
}

/* The last two of a ball's sightings of a kind: [1] the newest. */
static void keep_two(double ts[2], double xs[2], double ys[2], double t, double x, double y)
{
    ts[0] = ts[1];
    xs[0] = xs[1];
    ys[0] = ys[1];
    ts[1] = t;
    xs[1] = x;
    ys[1] = y;
}

/* One sighting (or none) of a ball: its cluster, its place, its run off it. */
static void observe(cr_early_t *e, ball_t *b, const cr_ball_obs_t *o, double t)
{
    double d;

    b->present = true;
    b->id = o->id;
    b->status = o->status;
    b->x = o->x;
    b->y = o->y;
    if (o->status != CR_BALL_SEEN || !o->has_raw) {
        b->n_unseen++;
        return;
    }
    keep_two(b->st, b->sx, b->sy, t, o->x, o->y);
    b->n_seen += b->n_seen < 2;
    b->n_unseen = 0;
    b->dropped = false;
    mouth_crossing(e, b);
    if (b->cn > 0 && hypot(o->x - b->cx, o->y - b->cy) <= e->p.rest_mm) {
        b->cn++;
        b->cx += (o->x - b->cx) / b->cn;
        b->cy += (o->y - b->cy) / b->cn;
    } else {
        b->cn = 1;
        b->cx = o->x;
        b->cy = o->y;
        b->ct0 = t;
    }
    if (b->cn >= 3 && t - b->ct0 >= e->p.rest_s) {
        b->has_place = true;
        b->px = b->cx;
        b->py = b->cy;
    }
    if (!b->has_place)
        return;
    d = hypot(o->x - b->px, o->y - b->py);
    if (d > moved_tol(e, o) && (b->off_run == 0 || d > b->off_d)) {
        b->off_run++;
        b->off_d = d;
        keep_two(b->off_t, b->off_x, b->off_y, t, o->x, o->y);
    } else if (d > moved_tol(e, o)) {
        b->off_run = -1; /* off its place but not going away: not a struck ball's start */
        b->off_d = d;
    } else {
        b->off_run = 0;
        b->t_place = t;
    }
}

/* A ball seen now, at its place. */
static bool at_place(const cr_early_t *e, const ball_t *b, const cr_ball_obs_t *o)
{
    return b->has_place && b->off_run == 0 && hypot(o->x - b->px, o->y - b->py) <= moved_tol(e, o);
}

/* Distance from (x, y) to the segment a-b. */
static double seg_dist(double ax, double ay, double bx, double by, double x, double y)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, s = 0.0;

    if (l2 > 0)
        s = fmin(1.0, fmax(0.0, ((x - ax) * dx + (y - ay) * dy) / l2));
    return hypot(ax + s * dx - x, ay + s * dy - y);
}

/* The cue ball's path up to its k-th sighting: how near it came to (x, y). */
static double path_dist(const cr_early_t *e, int k, double x, double y)
{
    double best = hypot(e->path_x[0] - x, e->path_y[0] - y);

    for (int i = 0; i + 1 <= k && i + 1 < e->n_path; i++)
        best = fmin(best, seg_dist(e->path_x[i], e->path_y[i], e->path_x[i + 1], e->path_y[i + 1], x, y));
    return best;
}

/* The cue ball's way to a contact at (cx, cy) from its k-th sighting: how
 * near it came to (x, y). */
static double way_dist(const cr_early_t *e, int k, double cx, double cy, double x, double y)
{
    return fmin(path_dist(e, k, x, y), seg_dist(e->path_x[k], e->path_y[k], cx, cy, x, y));
}

/* fb[i]: frame f's ball i as followed here (NULL when no room). */
static void start_shot(cr_early_t *e, const cr_ball_frame_t *f, ball_t *const *fb, const ball_t *cue)
{
    cr_early_contact_t *s = &e->snap;

    memset(s, 0, sizeof(*s));
    e->n_held = 0;
    e->phase = EARLY_SHOT;
    e->cue_track = cue->track;
    e->n_path = 1;
    e->path_t[0] = e->t_stroke;
    e->path_x[0] = cue->px;
    e->path_y[0] = cue->py;
    e->path_s[0] = 0.0;
    s->t_stroke = e->t_stroke;
    for (int i = 0; i < f->n; i++) {
        const cr_ball_obs_t *o = &f->balls[i];
        const ball_t *b = fb[i];

        if (o->status == CR_BALL_GONE || !b)
            continue;
        if (o->id < 0 || (s->ids & (1u << o->id))) {
            e->phase = EARLY_IDLE; /* a ball on the table that is not surely named */
            return;
        }
        s->ids |= 1u << o->id;
        s->ball_id[s->n_balls] = o->id;
        s->ball_x[s->n_balls] = b->has_place ? b->px : o->x;
        s->ball_y[s->n_balls] = b->has_place ? b->py : o->y;
        s->n_balls++;
        if (o->status == CR_BALL_HIDDEN && e->n_held < EARLY_BALLS) {
            e->held_x[e->n_held] = o->x;
            e->held_y[e->n_held++] = o->y;
        }
    }
}

/* Whether ball b, off its place, moved off along (ux, uy), the line of
 * centres: its way off within the angle whose cosine is c of it, or of its
 * mirror image in a cushion it could have reached by its second sighting
 * off its place, going at most `reach` mm (a ball near a cushion, struck
 * into it, comes back off it). */
static bool pushed_within(const cr_early_t *e, const ball_t *b, double ux, double uy, double reach, double c)
{
    const double ax = b->off_x[1] - b->px, ay = b->off_y[1] - b->py, la = hypot(ax, ay), lu = hypot(ux, uy);
    /* how far each cushion's contact line lies along the push: x low, x high, y low, y high */
    const double gap[4] = {b->px - e->R, e->tab.length_mm - e->R - b->px, b->py - e->R,
                           e->tab.width_mm - e->R - b->py};
    const bool toward[4] = {ux < 0, ux > 0, uy < 0, uy > 0};
    int m;

    if (!(la > 0) || !(lu > 0))
        return false;
    if ((ux * ax + uy * ay) / (la * lu) >= c)
        return true;
    for (m = 0; m < 4; m++) {
        double mx = m < 2 ? -ux : ux, my = m < 2 ? uy : -uy;

        if (toward[m] && gap[m] <= reach && (mx * ax + my * ay) / (la * lu) >= c)
            return true;
    }
    return false;
}

/* pushed_within() by max_angle_deg: friction throws a struck ball a few
 * degrees off the line of centres. */
static bool pushed_along(const cr_early_t *e, const ball_t *b, double ux, double uy, double reach)
{
    return pushed_within(e, b, ux, uy, reach, cos(e->p.max_angle_deg * (EARLY_PI / 180.0)));
}

/* The slack on 2R of the cue ball's measured way up to its sighting
 * `last`: contact_mm, at least contact_sigma times the largest sigma of its
 * sightings 1..last. */
static double way_slack(const cr_early_t *e, int last)
{
    double sig = 0.0;

    for (int i = 1; i <= last; i++)
        sig = fmax(sig, e->path_s[i]);
    return fmax(e->p.contact_mm, e->p.contact_sigma * sig);
}

/* When ball b, struck as it lay near the cue ball, left its place: its
 * first sighting off it, less the time its way off from its place took at
 * the speed between its first two sightings off it (a struck ball runs on
 * at nearly the speed the blow gave it). Where that falls outside the span
 * from the cue ball's last frame at its place to that sighting (a ball
 * that came back off a cushion between its sightings), midway in it. */
static double near_time(const cr_early_t *e, const ball_t *b)
{
    double step = hypot(b->off_x[1] - b->off_x[0], b->off_y[1] - b->off_y[0]), dt = b->off_t[1] - b->off_t[0];
    double t = NAN;

    if (step > 0 && dt > 0)
        t = b->off_t[0] - hypot(b->off_x[0] - b->px, b->off_y[0] - b->py) * dt / step;
    return t > e->t_stroke && t <= b->off_t[0] ? t : 0.5 * (e->t_stroke + b->off_t[0]);
}

/* The shot's first ball off its place, b, lay so near the cue ball's
 * place P that the cue ball's way to it was not seen (it touched b before
 * its second sighting): called from the places alone.
 *  - Whatever straight way the cue ball took, it met the circle of radius
 *    2R about b's place first on its near side, within the tangent length
 *    T = sqrt((2R + g)^2 - (2R)^2) of P, g the gap between the two balls
 *    (plus the slack of the sightings). No other ball (at its place, seen
 *    or held hidden) may lie within 2R + T of P: none could have been
 *    touched first.
 *  - b left along a line of centres from that near side: within
 *    acos(2R / (2R + g)) of the line from P through its place, plus
 *    max_angle_deg (or that about its mirror in a cushion it lay within 2R
 *    of), and away from P.
 *  - When the cue ball was seen once before b left, its straight way from
 *    P through that sighting reaches within 2R (and the slack) of b.
 * Its time: near_time(). Returns 1 when called. */
static int near_first(cr_early_t *e, const ball_t *b, int k, cr_early_contact_t *out)
{
    const double px = e->path_x[0], py = e->path_y[0], slack = way_slack(e, e->n_path - 1), d2 = 2.0 * e->R;
    const double g = fmax(0.0, hypot(b->px - px, b->py - py) - d2) + slack;
    const double tl = sqrt((d2 + g) * (d2 + g) - d2 * d2), reach = d2 + tl + slack;
    const double half = acos(d2 / (d2 + g)) + e->p.max_angle_deg * (EARLY_PI / 180.0);
    double ux = b->px - px, uy = b->py - py, lu = hypot(ux, uy);
    int i;

    if (!(lu > 0) || !(half < EARLY_PI / 2) || !pushed_within(e, b, ux, uy, d2, cos(half)))
        return 0;
    if (k == 1) {
        /* its way from its place through that sighting, on and on */
        double wx = e->path_x[1] - px, wy = e->path_y[1] - py, lw = hypot(wx, wy), s;

        if (!(lw > 0))
            return 0;
        s = fmax(0.0, (ux * wx + uy * wy) / lw);
        if (hypot(px + s * wx / lw - b->px, py + s * wy / lw - b->py) > d2 + slack)
            return 0;
    }
    for (i = 0; i < e->n_held; i++)
        if (hypot(e->held_x[i] - px, e->held_y[i] - py) <= reach)
            return 0;
    for (i = 0; i < EARLY_BALLS; i++) {
        const ball_t *o = &e->b[i];

        if (o->track < 0 || !o->present || o == b || o->track == e->cue_track)
            continue;
        if (hypot((o->has_place ? o->px : o->x) - px, (o->has_place ? o->py : o->y) - py) <= reach)
            return 0;
    }
    /* the contact point: R from b's place toward the cue ball's */
    *out = e->snap;
    out->t = near_time(e, b);
    out->ball = b->id;
    out->x = b->px - e->R * ux / lu;
    out->y = b->py - e->R * uy / lu;
    return 1;
}

/* Whether the cue ball's sightings after its k-th (k >= 1) bear witness to
 * a blow: the first of them at or after t_off (the struck ball's first
 * sighting off its place) lies off the straight way in through sightings
 * k-1 and k, carried on at that speed, by more than twice the slack of its
 * measured way (a ball it struck stops or turns it; a thin cut, which
 * barely turns it, shows nothing here). */
static bool cue_turned(const cr_early_t *e, int k, double t_off)
{
    const double dt = e->path_t[k] - e->path_t[k - 1];
    int j;

    if (!(dt > 0))
        return false;
    for (j = k + 1; j < e->n_path && e->path_t[j] < t_off; j++)
        ;
    if (j >= e->n_path)
        return false;
    {
        const double u = (e->path_t[j] - e->path_t[k]) / dt;
        const double qx = e->path_x[k] + u * (e->path_x[k] - e->path_x[k - 1]);
        const double qy = e->path_y[k] + u * (e->path_y[k] - e->path_y[k - 1]);

        return hypot(e->path_x[j] - qx, e->path_y[j] - qy) > 2.0 * way_slack(e, j);
    }
}

/* The shot's first ball off its place, b, after its second sighting off it
 * (once: seen off it once, by over twice moved_mm, the cue ball's turn its
 * second witness, cue_turned()): called, or the shot given up. Returns 1
 * when called. */
static int judge_first(cr_early_t *e, const ball_t *b, bool once, cr_early_contact_t *out)
{
    /* when it left its place: its first sighting off it */
    const double t_off = once ? b->off_t[1] : b->off_t[0];
    double reach, tc, cx, cy, vin;
    int k, i;

    if (b->id < 1 || !(e->snap.ids & (1u << b->id)) || e->n_path < 2)
        return 0;
    /* the cue ball's last sighting before the ball left its place, and its
     * way in then (from the sighting before, or its place) */
    for (k = e->n_path - 1; k > 0 && !(e->path_t[k] < t_off); k--)
        ;
    if (once && (k < 1 || !cue_turned(e, k, t_off)))
        return 0; /* its second sighting decides */
    if (k < 1)
        return near_first(e, b, k, out); /* not seen on its way */
    /* within reach: 2R, and the error of the cue ball's measured way */
    reach = 2.0 * e->R + way_slack(e, k);
    {
        double dt = e->path_t[k] - e->path_t[k - 1], vx, vy, tmax = t_off - e->path_t[k];

        if (!(dt > 0) || !(tmax > 0))
            return 0;
        vx = (e->path_x[k] - e->path_x[k - 1]) / dt;
        vy = (e->path_y[k] - e->path_y[k - 1]) / dt;
        vin = hypot(vx, vy);
        /* its straight way in reaches 2R (0: seen touching it already) */
        tc = cr_vision_reach_time(e->path_x[k], e->path_y[k], vx, vy, b->px, b->py, 2.0 * e->R);
        if (isnan(tc) && vin > 0) /* nearest on its way in */
            tc = fmax(0.0, -((e->path_x[k] - b->px) * vx + (e->path_y[k] - b->py) * vy) / (vx * vx + vy * vy));
        else if (isnan(tc))
            return 0;
        if (tc >= tmax && k > 1)
            return 0; /* its way in reaches the ball only after the ball had left: not this */
        tc = fmin(tc, tmax);
        cx = e->path_x[k] + vx * tc;
        cy = e->path_y[k] + vy * tc;
        if (hypot(cx - b->px, cy - b->py) > reach || path_dist(e, k, b->px, b->py) < 2.0 * e->R - e->p.contact_mm)
            return k == 1 && !once ? near_first(e, b, k, out) : 0; /* its way in does not reach the ball, or ran
                                                           * through its place (seen once: timed from its
                                                           * place, the way in is too slow) */
        tc += e->path_t[k];
    }
    /* struck along the line of centres (or off a cushion it reached) */
    if (!pushed_along(e, b, b->px - cx, b->py - cy, vin * (b->off_t[1] - tc)))
        return k == 1 && !once ? near_first(e, b, k, out) : 0;
    /* no other ball the cue ball could have touched on its way there: one
     * held hidden, or any ball whose place its way passed within reach of
     * (a ball frozen to a cushion, struck into it, barely leaves its place) */
    for (i = 0; i < e->n_held; i++)
        if (way_dist(e, k, cx, cy, e->held_x[i], e->held_y[i]) <= reach)
            return 0;
    for (i = 0; i < EARLY_BALLS; i++) {
        const ball_t *o = &e->b[i];

        if (o->track < 0 || !o->present || o == b || o->track == e->cue_track)
            continue;
        if (way_dist(e, k, cx, cy, o->has_place ? o->px : o->x, o->has_place ? o->py : o->y) <= reach)
            return 0;
    }
    *out = e->snap;
    out->t = tc;
    out->ball = b->id;
    out->x = cx + (b->px - cx) / 2.0;
    out->y = cy + (b->py - cy) / 2.0;
    return 1;
}

/* Where ball b's straight course from its last two sightings is at t. */
static void course_at(const ball_t *b, double t, double *x, double *y)
{
    double u = (t - b->st[1]) / (b->st[1] - b->st[0]);

    *x = b->sx[1] + u * (b->sx[1] - b->sx[0]);
    *y = b->sy[1] + u * (b->sy[1] - b->sy[0]);
}

/* Outside the cushions' contact lines (R from the noses), and not within
 * half a mouth and R of pocket p's point: a course there met a cushion's
 * nose (the reconstruction's test, without its allowance for a course
 * along the nose). */
static bool off_the_bed(const cr_early_t *e, cr_pocket_t p, double x, double y)
{
    cr_point_t c = cr_table_pocket_point(&e->tab, p);

    if (x >= e->R && x <= e->tab.length_mm - e->R && y >= e->R && y <= e->tab.width_mm - e->R)
        return false;
    return hypot(x - c.x, y - c.y) > 0.5 * cr_table_mouth_width(&e->tab, p) + e->R;
}

/* Ball b, gone into a pocket and unseen long enough: the pocket whose mouth
 * its course has crossed by t (and when), or CR_POCKET_NONE. */
static cr_pocket_t dropped_into(const cr_early_t *e, const ball_t *b, double t, double *tc)
{
    const int N = 32;
    int p, k;

    if (b->cross_p != CR_POCKET_NONE) {
        /* seen past the mouth line, then gone: dropped when last seen
         * (as the reconstruction dates it), unless it had come to rest
         * there (hung in the jaws: the reconstruction's to judge) or
         * crossed long before */
        if ((b->cn >= 3 && b->st[1] - b->ct0 >= e->p.rest_s) || b->st[1] - b->cross_t > EARLY_CROSS_S)
            return CR_POCKET_NONE;
        *tc = b->st[1];
        return (cr_pocket_t)b->cross_p;
    }
    if (b->n_seen < 2 || !(b->st[1] > b->st[0]) || !(b->st[1] - b->st[0] <= 4.0 * e->dt))
        return CR_POCKET_NONE;
    for (p = 0; p < CR_POCKET_COUNT; p++) {
        cr_point_t c = cr_table_pocket_point(&e->tab, (cr_pocket_t)p);
        double lo = b->st[1], hi = NAN, x, y;

        if (hypot(b->sx[1] - c.x, b->sy[1] - c.y) > cr_table_mouth_width(&e->tab, (cr_pocket_t)p) + e->R)
            continue;
        if (cr_table_past_mouth(&e->tab, (cr_pocket_t)p, b->sx[1], b->sy[1]))
            continue; /* past it when last seen, not by crossing it: not a course into it */
        for (k = 1; k <= N; k++) {
            double tk = b->st[1] + (t - b->st[1]) * k / N;

            course_at(b, tk, &x, &y);
            if (cr_table_past_mouth(&e->tab, (cr_pocket_t)p, x, y)) {
                hi = tk;
                break;
            }
            if (off_the_bed(e, (cr_pocket_t)p, x, y))
                break;
            lo = tk;
        }
        if (!isfinite(hi))
            continue;
        {
            double x0, y0, u;

            course_at(b, lo, &x0, &y0);
            course_at(b, hi, &x, &y);
            u = mouth_cross_u(e, (cr_pocket_t)p, x0, y0, x, y);
            hi = lo + u * (hi - lo);
        }
        course_at(b, hi, &x, &y);
        if (!clear_of_jaws(e, (cr_pocket_t)p, x, y))
            continue; /* in past a jaw: the reconstruction's to judge */
        if (hi + e->R * (b->st[1] - b->st[0]) / hypot(b->sx[1] - b->sx[0], b->sy[1] - b->sy[0]) > t)
            continue; /* not a radius past the mouth line by now: it may still be seen on its way in */
        *tc = hi;
        return (cr_pocket_t)p;
    }
    return CR_POCKET_NONE;
}

/* This frame's drops (fb as for start_shot()). */
static void find_drops(cr_early_t *e, const cr_ball_frame_t *f, ball_t *const *fb)
{
    e->n_drops = 0;
    for (int i = 0; i < f->n; i++) {
        const cr_ball_obs_t *o = &f->balls[i];
        ball_t *b = fb[i];
        cr_pocket_t p;
        double tc;

        if (!b || o->status != CR_BALL_GONE || o->id < 0 || b->dropped || !(f->t - b->st[1] >= e->p.vanish_s) ||
            e->n_drops >= CR_NUM_BALLS)
            continue;
        /* one seen past a mouth line: this frame, its first unseen one;
         * one followed by its course: two unseen frames, EARLY_COURSE_S at most */
        if (b->cross_p == CR_POCKET_NONE && (b->n_unseen < 2 || f->t - b->st[1] > EARLY_COURSE_S))
            continue;
        p = dropped_into(e, b, f->t, &tc);
        if (p == CR_POCKET_NONE)
            continue;
        b->dropped = true;
        e->drops[e->n_drops++] = (cr_early_drop_t){tc, o->id, p};
    }
}

int cr_early_drops(const cr_early_t *e, cr_early_drop_t *out, int max)
{
    int n = 0;

    if (!e || !out)
        return 0;
    for (; n < e->n_drops && n < max; n++)
        out[n] = e->drops[n];
    return n;
}

int cr_early_push(cr_early_t *e, const cr_ball_frame_t *f, cr_early_contact_t *out)
{
    ball_t *cue = NULL, *fb[CR_VISION_MAX_DETECTIONS];
    bool quiet = true;
    int n_off = 0, called = 0;
    const ball_t *first = NULL;

    if (!e || !f || !out || f->n < 0 || f->n > CR_VISION_MAX_DETECTIONS)
        return CR_ERR_INVALID;
    for (int i = 0; i < EARLY_BALLS; i++)
        e->b[i].present = false;
    for (int i = 0; i < f->n; i++) {
        const cr_ball_obs_t *o = &f->balls[i];
        ball_t *b = fb[i] = ball_of(e, o->track);

        if (!b)
            continue;
        observe(e, b, o, f->t);
        if (o->status == CR_BALL_SEEN && o->id == CR_BALL_CUE)
            cue = b;
    }
    for (int i = 0; i < EARLY_BALLS; i++)
        if (e->b[i].track >= 0 && !e->b[i].present)
            e->b[i].track = -1; /* its track ended */
    if (isfinite(e->t_prev) && f->t > e->t_prev)
        e->dt = isfinite(e->dt) ? fmin(e->dt, f->t - e->t_prev) : f->t - e->t_prev;
    e->t_prev = f->t;
    find_drops(e, f, fb);

    if (e->phase == EARLY_IDLE) {
        int n_others = 0; /* balls other than the armed cue ball off their places */
        bool just_left = false; /* ... one, which left its place in this frame */

        for (int i = 0; i < f->n; i++) {
            const cr_ball_obs_t *o = &f->balls[i];
            const ball_t *b = fb[i];

            if (!b || o->status != CR_BALL_SEEN)
                continue;
            if (!at_place(e, b, o)) {
                quiet = false;
                if (!(o->id == CR_BALL_CUE && o->track == e->armed_cue)) {
                    n_others++;
                    just_left = b->has_place && b->off_run == 1;
                }
            }
        }
        /* the stroke: the armed cue ball leaves its place, every other ball
         * at its own; or one other leaves its place in the same frame (the
         * cue ball touched a ball lying close before it was seen moving:
         * near_first() judges it) */
        if (cue && cue->track == e->armed_cue && cue->off_run == 1 && (n_others == 0 || (n_others == 1 && just_left))) {
            e->t_stroke = cue->t_place;
            start_shot(e, f, fb, cue);
        } else {
            cue = NULL;
            for (int i = 0; i < EARLY_BALLS; i++)
                if (e->b[i].track >= 0 && e->b[i].present && e->b[i].id == CR_BALL_CUE &&
                    e->b[i].status != CR_BALL_GONE && e->b[i].has_place && e->b[i].off_run == 0)
                    cue = &e->b[i];
            e->armed_cue = quiet && cue ? cue->track : -1;
        }
        if (e->phase == EARLY_IDLE)
            return 0;
        e->armed_cue = -1;
    }

    /* EARLY_SHOT */
    if (f->t - e->t_stroke > e->p.max_shot_s) {
        e->phase = EARLY_IDLE;
        return 0;
    }
    for (int i = 0; i < f->n; i++) {
        const cr_ball_obs_t *o = &f->balls[i];

        if (o->track == e->cue_track && o->status == CR_BALL_SEEN && o->has_raw && e->n_path < EARLY_PATH &&
            f->t > e->path_t[e->n_path - 1]) {
            e->path_t[e->n_path] = f->t;
            e->path_x[e->n_path] = o->x;
            e->path_y[e->n_path] = o->y;
            e->path_s[e->n_path] = o->sigma_mm;
            e->n_path++;
        }
    }
    for (int i = 0; i < EARLY_BALLS; i++) {
        const ball_t *b = &e->b[i];

        if (b->track == e->cue_track && b->present && b->status == CR_BALL_SEEN && b->off_run == 0 &&
            f->t - b->ct0 >= e->p.rest_s) {
            e->phase = EARLY_IDLE; /* the cue ball at rest again, nothing touched: no stroke after all */
            return 0;
        }
        if (b->track < 0 || b->track == e->cue_track || !b->present)
            continue;
        if (b->off_run == 0 && b->has_place && (b->status == CR_BALL_SEEN || hypot(b->x - b->px, b->y - b->py) <= e->p.moved_mm))
            continue; /* at its place, or held hidden there */
        if (b->off_run == 0 && !b->has_place && b->status != CR_BALL_SEEN)
            continue; /* held hidden where it was last seen, never at rest */
        n_off++;
        first = b;
    }
    if (n_off == 0)
        return 0;
    if (n_off == 1 && first->off_run == 1) {
        /* seen off its place once, far enough off for its way off to show
         * (twice moved_mm): called now when the cue ball's turn bears
         * witness, else its second sighting decides */
        if (!(first->off_d > 2.0 * e->p.moved_mm) || !(called = judge_first(e, first, true, out)))
            return 0;
    } else if (n_off == 1 && first->off_run >= 2) {
        called = judge_first(e, first, false, out);
    }
    e->phase = EARLY_IDLE; /* called, or not callable: the reconstruction decides */
    return called;
}
