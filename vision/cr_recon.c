/*
 * cr_recon.c - event reconstruction from tracked ball states (cr_recon.h).
 *
 * Per ball: at rest (running mean of its position) or moving along a fitted
 * segment p(t) = p + v (t - tr) + a (t - tr)^2 / 2. Frame a is analysed when
 * frame a + lookahead has arrived; the lookahead frames confirm a change
 * (onset, kink, vanishing) or show it was an outlier. The changes of one
 * analysed frame are then explained together: collisions first (a ball whose
 * path came within 2R), then cushions, pockets, strokes, disturbances.
 *
 * Memory: everything is allocated in cr_recon_create(); push and finish do
 * not allocate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cr_recon.h"


#define NB CR_VISION_MAX_BALLS
#define RING 256        /* frames kept (power of two) */
#define NSEG 8          /* past segments per ball */
#define MAX_CH 48       /* changes in one analysed frame */
#define MAX_RECENT 64   /* recent collisions, for de-duplication */
#define QCAP 512        /* events waiting to be handed out */
#define MIN_OUT 64      /* smallest out capacity accepted */

enum { OB_NONE = 0, OB_SEEN, OB_HIDDEN, OB_GONE };
enum { B_ABSENT = 0, B_REST, B_MOVING, B_GONE, B_LOST };
enum { CH_ONSET = 0, CH_KINK };

typedef struct {
    double t;
    double x[NB], y[NB], s[NB];
    unsigned char st[NB];
} rframe_t;

typedef struct {
    double t0;              /* start time of the segment */
    double tr;              /* reference time of the coefficients */
    double p[2], v[2], a[2];
    int n;                  /* samples fitted */
    bool rest;
} seg_t;

typedef struct {
    int state;
    double rx, ry, rw;      /* rest position and the weight of its mean */
    double t_stop;          /* when it came to rest */
    double dir[2];          /* direction of travel when it stopped */
    seg_t hist[NSEG];
    int nh;                 /* hist[(nh - 1) % NSEG] is the current segment */
    long seg_from;          /* first frame of the current motion's samples */
    bool anchor;            /* (anc_x, anc_y) at anc_t starts the current motion */
    double anc_x, anc_y, anc_t;
    long last_seen;
    double t_lost;
    double t_gone;          /* when it was pocketed or left the table */
    double t_cush[CR_RAIL_COUNT]; /* last cushion contact reported per rail */
    double vn[CR_RAIL_COUNT];   /* fitted speed away from each nearby cushion, mm/s */
    seg_t approach[CR_RAIL_COUNT]; /* the fit while it last moved toward it */
} rball_t;

typedef struct {
    int kind;
    int ball;
    double t;               /* time of the change */
    seg_t before;           /* motion before it (rest: a rest segment) */
    double vout[2];         /* velocity after it */
    double x, y;            /* where the ball was at the change */
    bool done;
} change_t;

typedef struct {
    int a, b;
    double t;
    double x, y; /* contact point */
} recent_t;

struct cr_recon {
    cr_table_t tab;
    cr_recon_params_t p;
    double R, dt;
    rframe_t *ring;
    long n_frames;          /* frames received */
    long next;              /* next frame to analyse */
    rball_t b[NB];
    int shot;               /* index of the last stroke, -1 before the first */
    bool active;            /* a shot is open (no rest yet) */
    double t_stroke;
    bool first_done;        /* the shot's first cue-ball contact was emitted */
    recent_t recent[MAX_RECENT];
    int n_recent;
    change_t ch[MAX_CH];
    int nch;
    cr_event_t *q;          /* events waiting to be handed out, in order */
    int nq;
    cr_event_t *batch;      /* events of the frame being analysed */
    int nbatch;
};

/* ------------------------------------------------------------ helpers */

void cr_recon_params_defaults(cr_recon_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->fps = 60.0;
    p->lookahead_frames = 1;
    p->sigma_floor_mm = 0.3;
    p->onset_k = 5.0;
    p->onset_min_mm = 1.5;
    p->kink_k = 5.0;
    p->kink_min_mm = 2.5;
    p->accel_max_mm_s2 = 4000.0;
    p->fit_window_s = 0.25;
    p->still_s = 0.15;
    p->still_mm = 1.0;
    p->contact_tol_mm = 5.0;
    p->frozen_mm = 1.5;
    p->resume_s = 0.5;
    p->doubt_sigmas = 3.0;
}

static rframe_t *frm(cr_recon_t *rc, long k)
{
    return &rc->ring[k & (RING - 1)];
}

static bool frame_ok(const cr_recon_t *rc, long k)
{
    return k >= 0 && k < rc->n_frames && k > rc->n_frames - RING;
}

static seg_t *cur_seg(rball_t *b)
{
    return &b->hist[(b->nh - 1 + NSEG) % NSEG];
}

static void push_seg(rball_t *b, const seg_t *s)
{
    memset(b->vn, 0, sizeof(b->vn));
    b->hist[b->nh % NSEG] = *s;
    b->nh++;
}

static void seg_eval(const seg_t *s, double t, double *x, double *y)
{
    double d;

    if (s->rest) {
        *x = s->p[0];
        *y = s->p[1];
        return;
    }
    d = t - s->tr;
    *x = s->p[0] + s->v[0] * d + 0.5 * s->a[0] * d * d;
    *y = s->p[1] + s->v[1] * d + 0.5 * s->a[1] * d * d;
}

static void seg_vel(const seg_t *s, double t, double *vx, double *vy)
{
    double d = t - s->tr;

    if (s->rest) {
        *vx = *vy = 0;
        return;
    }
    *vx = s->v[0] + s->a[0] * d;
    *vy = s->v[1] + s->a[1] * d;
}

static void rest_seg(seg_t *s, double t0, double x, double y)
{
    memset(s, 0, sizeof(*s));
    s->rest = true;
    s->t0 = t0;
    s->tr = t0;
    s->p[0] = x;
    s->p[1] = y;
}

/* The segment of ball i in effect at time t - eps (the oldest kept when t
 * is earlier than all). */
static const seg_t *seg_at(const rball_t *b, double t)
{
    int k, n = b->nh < NSEG ? b->nh : NSEG;

    for (k = 0; k < n; k++) {
        const seg_t *s = &b->hist[(b->nh - 1 - k + NSEG * 2) % NSEG];

        if (s->t0 <= t || k == n - 1)
            return s;
    }
    return NULL;
}

/* The time the segment s of ball b ended (the next one's start), INFINITY
 * for the current one. */
static double seg_end(const rball_t *b, const seg_t *s)
{
    int k, n = b->nh < NSEG ? b->nh : NSEG;

    for (k = 1; k < n; k++)
        if (&b->hist[(b->nh - 1 - k + NSEG * 2) % NSEG] == s)
            return b->hist[(b->nh - k + NSEG * 2) % NSEG].t0;
    return INFINITY;
}

static bool recent_involves(const cr_recon_t *rc, int ball, double t, double win)
{
    int k;

    for (k = 0; k < rc->n_recent; k++)
        if ((rc->recent[k].a == ball || rc->recent[k].b == ball) && fabs(rc->recent[k].t - t) <= win)
            return true;
    return false;
}

static double sig(const cr_recon_t *rc, double s)
{
    return (isfinite(s) && s > rc->p.sigma_floor_mm) ? s : rc->p.sigma_floor_mm;
}

static double dist2(double ax, double ay, double bx, double by)
{
    return hypot(ax - bx, ay - by);
}

static bool on_table_state(int st)
{
    return st == B_REST || st == B_MOVING || st == B_LOST;
}

/* Solves the n x n system m x = r in place (n <= 3); false when singular. */
static bool solve(double m[3][3], double r[3], int n)
{
    int i, j, k, piv;

    for (i = 0; i < n; i++) {
        piv = i;
        for (k = i + 1; k < n; k++)
            if (fabs(m[k][i]) > fabs(m[piv][i]))
                piv = k;
        if (fabs(m[piv][i]) < 1e-12)
            return false;
        if (piv != i) {
            for (j = 0; j < n; j++) {
                double t = m[i][j];
                m[i][j] = m[piv][j];
                m[piv][j] = t;
            }
            double t = r[i];
            r[i] = r[piv];
            r[piv] = t;
        }
        for (k = i + 1; k < n; k++) {
            double f = m[k][i] / m[i][i];
            for (j = i; j < n; j++)
                m[k][j] -= f * m[i][j];
            r[k] -= f * r[i];
        }
    }
    for (i = n - 1; i >= 0; i--) {
        for (j = i + 1; j < n; j++)
            r[i] -= m[i][j] * r[j];
        r[i] /= m[i][i];
    }
    return true;
}

/* Weighted polynomial fit (order 0..2) of points (t, x, y, w) about tr. */
static bool poly_fit(const double *t, const double *x, const double *y, const double *w, int n, double tr, int order,
                     seg_t *s)
{
    double m[3][3], rx[3], ry[3], mc[3][3], f[3];
    int i, j, k, nb = order + 1;

    memset(m, 0, sizeof(m));
    memset(rx, 0, sizeof(rx));
    memset(ry, 0, sizeof(ry));
    for (i = 0; i < n; i++) {
        double d = t[i] - tr;

        f[0] = 1.0;
        f[1] = d;
        f[2] = 0.5 * d * d;
        for (j = 0; j < nb; j++) {
            for (k = 0; k < nb; k++)
                m[j][k] += w[i] * f[j] * f[k];
            rx[j] += w[i] * f[j] * x[i];
            ry[j] += w[i] * f[j] * y[i];
        }
    }
    memcpy(mc, m, sizeof(m));
    if (!solve(m, rx, nb) || !solve(mc, ry, nb))
        return false;
    s->tr = tr;
    s->p[0] = rx[0];
    s->p[1] = ry[0];
    s->v[0] = nb > 1 ? rx[1] : 0;
    s->v[1] = nb > 1 ? ry[1] : 0;
    s->a[0] = nb > 2 ? rx[2] : 0;
    s->a[1] = nb > 2 ? ry[2] : 0;
    s->rest = false;
    return true;
}

/* Fits ball i's current motion from its samples in frames [from, to] (the
 * last fit_window_s of them) and its anchor. */
static void fit_ball(cr_recon_t *rc, int i, long from, long to, seg_t *s)
{
    rball_t *b = &rc->b[i];
    double t[80], x[80], y[80], w[80], span;
    int n = 0, ns = 0, order;
    long k, lo = from;
    double t_to = frame_ok(rc, to) ? frm(rc, to)->t : 0;

    if (lo < to - 78)
        lo = to - 78;
    if (lo <= rc->n_frames - RING)
        lo = rc->n_frames - RING + 1;
    for (k = to; k >= lo && n < 78; k--) {
        rframe_t *f = frm(rc, k);

        if (f->st[i] != OB_SEEN)
            continue;
        if (ns >= 3 && t_to - f->t > rc->p.fit_window_s)
            break;
        t[n] = f->t;
        x[n] = f->x[i];
        y[n] = f->y[i];
        w[n] = 1.0 / (sig(rc, f->s[i]) * sig(rc, f->s[i]));
        n++;
        ns++;
    }
    if (b->anchor && ns < 4 && n > 0) {
        t[n] = b->anc_t;
        x[n] = b->anc_x;
        y[n] = b->anc_y;
        w[n] = w[0];
        n++;
    }
    s->n = ns;
    if (n == 0)
        return;
    span = t[0] - t[n - 1];
    order = n >= 4 && span > 2.5 * rc->dt ? 2 : (n >= 2 && span > 0 ? 1 : 0);
    if (!poly_fit(t, x, y, w, n, t[0], order, s) && order > 0)
        poly_fit(t, x, y, w, n, t[0], 0, s);
    if (order == 2 && hypot(s->a[0], s->a[1]) > rc->p.accel_max_mm_s2) {
        order = 1;
        poly_fit(t, x, y, w, n, t[0], 1, s);
    }
    s->n = ns;
}

/* ------------------------------------------------------------ events */

static int queue_event(cr_recon_t *rc, const cr_event_t *ev)
{
    if (rc->nbatch >= QCAP)
        return CR_ERR_FULL;
    rc->batch[rc->nbatch++] = *ev;
    return CR_OK;
}

static int ev_shot_for_contact(const cr_recon_t *rc)
{
    return rc->shot >= 0 ? rc->shot : -1;
}

static bool recent_has(const cr_recon_t *rc, int a, int b, double t, double win)
{
    int k;

    for (k = 0; k < rc->n_recent; k++) {
        const recent_t *r = &rc->recent[k];

        if (((r->a == a && r->b == b) || (r->a == b && r->b == a)) && fabs(r->t - t) <= win)
            return true;
    }
    return false;
}

static void recent_add(cr_recon_t *rc, int a, int b, double t, double x, double y)
{
    if (rc->n_recent == MAX_RECENT) {
        memmove(rc->recent, rc->recent + 1, sizeof(rc->recent[0]) * (MAX_RECENT - 1));
        rc->n_recent--;
    }
    rc->recent[rc->n_recent].a = a;
    rc->recent[rc->n_recent].b = b;
    rc->recent[rc->n_recent].t = t;
    rc->recent[rc->n_recent].x = x;
    rc->recent[rc->n_recent].y = y;
    rc->n_recent++;
}

/* Position of ball i at time t from what is known (segment history). */
static void ball_pos_at(const cr_recon_t *rc, int i, double t, double *x, double *y)
{
    const rball_t *b = &rc->b[i];
    const seg_t *s;

    if (b->state == B_REST && t >= b->t_stop) {
        *x = b->rx;
        *y = b->ry;
        return;
    }
    s = seg_at(b, t);
    if (s)
        seg_eval(s, t, x, y);
    else {
        *x = b->rx;
        *y = b->ry;
    }
}

/* Bit mask of the cushions a resting ball is frozen to. */
static unsigned frozen_rails(const cr_recon_t *rc, double x, double y)
{
    unsigned m = 0;
    double lim = rc->R + rc->p.frozen_mm;

    if (x <= lim)
        m |= 1u << CR_RAIL_HEAD;
    if (x >= rc->tab.length_mm - lim)
        m |= 1u << CR_RAIL_FOOT;
    if (y <= lim)
        m |= 1u << CR_RAIL_LEFT;
    if (y >= rc->tab.width_mm - lim)
        m |= 1u << CR_RAIL_RIGHT;
    return m;
}

static int emit_stroke(cr_recon_t *rc, double t, bool cue_was_moving)
{
    cr_event_t ev;
    int i;

    cr_event_init(&ev, CR_EV_STROKE);
    rc->shot++;
    rc->active = true;
    rc->first_done = false;
    rc->t_stroke = t;
    ev.t = t;
    ev.shot = rc->shot;
    ev.ball = CR_BALL_CUE;
    for (i = 0; i < NB && ev.n_balls < CR_EVENT_MAX_BALLS; i++) {
        rball_t *b = &rc->b[i];
        cr_ball_state_t *bs;
        bool moving;

        if (!on_table_state(b->state))
            continue;
        bs = &ev.balls[ev.n_balls++];
        bs->id = i;
        bs->vx = bs->vy = NAN;
        if (i == CR_BALL_CUE && !cue_was_moving) {
            /* struck from rest: where it rested (the onset's anchor) */
            bs->x = b->anc_x;
            bs->y = b->anc_y;
        } else {
            ball_pos_at(rc, i, t, &bs->x, &bs->y);
        }
        moving = (b->state == B_MOVING || b->state == B_LOST) && !(i == CR_BALL_CUE && !cue_was_moving);
        if (b->state == B_REST && b->t_stop > t + 1e-9)
            moving = true;
        if (i == CR_BALL_CUE && cue_was_moving)
            moving = true;
        if (moving && ev.n_moving < CR_EVENT_MAX_BALLS)
            ev.moving[ev.n_moving++] = i;
        bs->frozen_rails = moving ? 0 : frozen_rails(rc, bs->x, bs->y);
    }
    return queue_event(rc, &ev);
}

static int emit_collision(cr_recon_t *rc, int a, int b, double t, double conf)
{
    cr_event_t ev;
    double ax, ay, bx, by, d;

    if (recent_has(rc, a, b, t, 3.0 * rc->dt))
        return CR_OK;
    if (b == CR_BALL_CUE) {
        int k = a;
        a = b;
        b = k;
    }
    ball_pos_at(rc, a, t - 1e-6, &ax, &ay);
    ball_pos_at(rc, b, t - 1e-6, &bx, &by);
    d = hypot(bx - ax, by - ay);
    cr_event_init(&ev, CR_EV_COLLISION);
    ev.t = t;
    ev.shot = ev_shot_for_contact(rc);
    ev.a = a;
    ev.b = b;
    ev.x = d > 1e-9 ? ax + (bx - ax) * rc->R / d : 0.5 * (ax + bx);
    ev.y = d > 1e-9 ? ay + (by - ay) * rc->R / d : 0.5 * (ay + by);
    ev.confidence = conf;
    recent_add(rc, a, b, t, ev.x, ev.y);
    return queue_event(rc, &ev);
}

static int emit_cushion(cr_recon_t *rc, int ball, cr_rail_t rail, double t, double x, double y)
{
    cr_event_t ev;
    rball_t *b = &rc->b[ball];

    if (b->t_cush[rail] != 0 && fabs(t - b->t_cush[rail]) < 4.0 * rc->dt)
        return CR_OK; /* the same contact, seen twice */
    b->t_cush[rail] = t;
    cr_event_init(&ev, CR_EV_CUSHION);
    ev.t = t;
    ev.shot = ev_shot_for_contact(rc);
    ev.ball = ball;
    ev.rail = rail;
    ev.x = x;
    ev.y = y;
    return queue_event(rc, &ev);
}

static int emit_simple(cr_recon_t *rc, cr_event_type_t type, int ball, double t, double x, double y, int shot)
{
    cr_event_t ev;

    cr_event_init(&ev, type);
    ev.t = t;
    ev.shot = shot;
    ev.ball = ball;
    if (type == CR_EV_DISTURBED || type == CR_EV_PLACED) {
        ev.x = x;
        ev.y = y;
    }
    return queue_event(rc, &ev);
}

/* ------------------------------------------------------------ geometry */

/* Distance from the ball centre (x, y) to rail r's nose line. */
static double rail_dist(const cr_recon_t *rc, int r, double x, double y)
{
    switch (r) {
    case CR_RAIL_HEAD:
        return x;
    case CR_RAIL_FOOT:
        return rc->tab.length_mm - x;
    case CR_RAIL_LEFT:
        return y;
    default:
        return rc->tab.width_mm - y;
    }
}

/* The pocket whose mouth is near (x, y): distance to the nearest jaw-to-jaw
 * mouth segment's midpoint region; returns the pocket or -1. *rail gets the
 * cushion of the nearer jaw. */
static int near_pocket(const cr_recon_t *rc, double x, double y, double reach, int *rail)
{
    int p, best = -1;
    double bd = INFINITY;

    for (p = 0; p < CR_POCKET_COUNT; p++) {
        cr_point_t ja, jb, c = cr_table_pocket_point(&rc->tab, (cr_pocket_t)p);
        double d = hypot(x - c.x, y - c.y), mouth;

        cr_table_pocket_mouth(&rc->tab, (cr_pocket_t)p, &ja, &jb);
        mouth = hypot(ja.x - jb.x, ja.y - jb.y);
        if (d < 0.5 * mouth + reach && d < bd) {
            bd = d;
            best = p;
            if (rail) {
                bool side = p == CR_POCKET_SIDE_LEFT || p == CR_POCKET_SIDE_RIGHT;
                double da = hypot(x - ja.x, y - ja.y), db = hypot(x - jb.x, y - jb.y);

                if (side || da <= db)
                    *rail = (c.y > 0) ? CR_RAIL_RIGHT : CR_RAIL_LEFT;
                else
                    *rail = (c.x > 0) ? CR_RAIL_FOOT : CR_RAIL_HEAD;
            }
        }
    }
    return best;
}

/* First time in [t0, t1] where f(t) = |pa(t) - pb(t)| - d <= 0 for the two
 * segments; *frozen when it already is at t0. Returns NAN when never, with
 * *dmin the least distance found and *tmin its time. */
static double contact_time(const seg_t *sa, const seg_t *sb, double t0, double t1, double d, bool *frozen,
                           double *dmin, double *tmin)
{
    const int N = 96;
    double prev = NAN, tp = t0, lo, hi;
    int k, it;

    *frozen = false;
    *dmin = INFINITY;
    *tmin = t0;
    for (k = 0; k <= N; k++) {
        double t = t0 + (t1 - t0) * k / N, ax, ay, bx, by, f;

        seg_eval(sa, t, &ax, &ay);
        seg_eval(sb, t, &bx, &by);
        f = hypot(ax - bx, ay - by);
        if (f < *dmin) {
            *dmin = f;
            *tmin = t;
        }
        f -= d;
        if (f <= 0) {
            if (k == 0) {
                *frozen = true;
                return t0;
            }
            lo = tp;
            hi = t;
            for (it = 0; it < 40; it++) {
                double m = 0.5 * (lo + hi);

                seg_eval(sa, m, &ax, &ay);
                seg_eval(sb, m, &bx, &by);
                if (hypot(ax - bx, ay - by) - d <= 0)
                    hi = m;
                else
                    lo = m;
            }
            (void)prev;
            return 0.5 * (lo + hi);
        }
        prev = f;
        tp = t;
    }
    return NAN;
}

/* First time in [t0, t1] where the segment's distance to rail r is <= R. */
static double rail_time(const cr_recon_t *rc, const seg_t *s, int r, double t0, double t1)
{
    const int N = 64;
    double tp = t0, lo, hi, x, y;
    int k, it;

    for (k = 0; k <= N; k++) {
        double t = t0 + (t1 - t0) * k / N;

        seg_eval(s, t, &x, &y);
        if (rail_dist(rc, r, x, y) <= rc->R) {
            if (k == 0)
                return t0;
            lo = tp;
            hi = t;
            for (it = 0; it < 40; it++) {
                double m = 0.5 * (lo + hi);

                seg_eval(s, m, &x, &y);
                if (rail_dist(rc, r, x, y) <= rc->R)
                    hi = m;
                else
                    lo = m;
            }
            return 0.5 * (lo + hi);
        }
        tp = t;
    }
    return NAN;
}

/* ------------------------------------------------------------ lifecycle */

int cr_recon_create(const cr_table_t *t, const cr_recon_params_t *p, cr_recon_t **out)
{
    cr_recon_t *rc;
    cr_recon_params_t d;

    if (!t || !out || !(t->length_mm > 0) || !(t->width_mm > 0) || !(t->ball_radius_mm > 0))
        return CR_ERR_INVALID;
    if (!p) {
        cr_recon_params_defaults(&d);
        p = &d;
    }
    if (!(p->fps > 0 && p->fps <= 2000) || p->lookahead_frames < 0 || p->lookahead_frames > 8 ||
        !(p->still_s > 0) || !(p->fit_window_s > 0))
        return CR_ERR_INVALID;
    rc = calloc(1, sizeof(*rc));
    if (!rc)
        return CR_ERR_NOMEM;
    rc->ring = calloc(RING, sizeof(*rc->ring));
    rc->q = calloc(QCAP, sizeof(*rc->q));
    rc->batch = calloc(QCAP, sizeof(*rc->batch));
    if (!rc->ring || !rc->q || !rc->batch) {
        cr_recon_destroy(rc);
        return CR_ERR_NOMEM;
    }
    rc->tab = *t;
    rc->p = *p;
    rc->R = t->ball_radius_mm;
    rc->dt = 1.0 / p->fps;
    rc->shot = -1;
    *out = rc;
    return CR_OK;
}

void cr_recon_destroy(cr_recon_t *rc)
{
    if (!rc)
        return;
    free(rc->ring);
    free(rc->q);
    free(rc->batch);
    free(rc);
}

/* ------------------------------------------------------------ analysis */

static void add_change(cr_recon_t *rc, int kind, int ball, double t, const seg_t *before, const double vout[2],
                       double x, double y)
{
    change_t *c;

    if (rc->nch >= MAX_CH)
        return;
    c = &rc->ch[rc->nch++];
    c->kind = kind;
    c->ball = ball;
    c->t = t;
    c->before = *before;
    c->vout[0] = vout[0];
    c->vout[1] = vout[1];
    c->x = x;
    c->y = y;
    c->done = false;
}

/* Least-squares line through the SEEN samples of ball i in frames [k0, k1];
 * returns the count; position at t_ref and velocity. */
static int line_fit(cr_recon_t *rc, int i, long k0, long k1, double t_ref, double *px, double *py, double *vx,
                    double *vy)
{
    double t[16], x[16], y[16], w[16];
    seg_t s;
    int n = 0;
    long k;

    for (k = k0; k <= k1 && n < 16; k++) {
        rframe_t *f;

        if (!frame_ok(rc, k))
            continue;
        f = frm(rc, k);
        if (f->st[i] != OB_SEEN)
            continue;
        t[n] = f->t;
        x[n] = f->x[i];
        y[n] = f->y[i];
        w[n] = 1.0;
        n++;
    }
    if (n == 0)
        return 0;
    if (n == 1 || !poly_fit(t, x, y, w, n, t_ref, 1, &s)) {
        *px = x[0];
        *py = y[0];
        *vx = *vy = 0;
        return 1;
    }
    *px = s.p[0];
    *py = s.p[1];
    *vx = s.v[0];
    *vy = s.v[1];
    return n;
}

static long last_frame(const cr_recon_t *rc, long a)
{
    long e = a + rc->p.lookahead_frames;

    return e < rc->n_frames ? e : rc->n_frames - 1;
}

/* A resting ball at frame a. */
static void analyse_rest(cr_recon_t *rc, int i, long a, int *n_reloc, bool *cue_placed, double *cue_xy)
{
    rball_t *b = &rc->b[i];
    rframe_t *f = frm(rc, a);
    double s = sig(rc, f->s[i]), thr = fmax(rc->p.onset_min_mm, rc->p.onset_k * s * sqrt(1.0 + 1.0 / fmax(b->rw, 1.0)));
    double dev, px, py, vx, vy, sp, t_on;
    long k, e = last_frame(rc, a);
    int n;
    seg_t before, m;

    if (f->st[i] == OB_HIDDEN || f->st[i] == OB_NONE)
        return;
    if (f->st[i] == OB_GONE) {
        /* vanished at rest: dropped from a pocket lip, or lifted */
        for (k = a + 1; k <= e; k++)
            if (frm(rc, k)->st[i] == OB_SEEN)
                return; /* a dropout */
        if (near_pocket(rc, b->rx, b->ry, rc->R, NULL) >= 0) {
            cr_event_t ev;
            int rail;

            cr_event_init(&ev, CR_EV_POCKET);
            ev.t = f->t - 0.5 * rc->dt;
            ev.shot = rc->active ? rc->shot : -1;
            ev.ball = i;
            ev.pocket = (cr_pocket_t)near_pocket(rc, b->rx, b->ry, rc->R, &rail);
            queue_event(rc, &ev);
        }
        b->state = B_GONE;
        return;
    }
    dev = dist2(f->x[i], f->y[i], b->rx, b->ry);
    if (dev <= thr) {
        double w = b->rw < 50 ? b->rw + 1 : 50;

        b->rx += (f->x[i] - b->rx) / w;
        b->ry += (f->y[i] - b->ry) / w;
        b->rw = w;
        cur_seg(b)->p[0] = b->rx;
        cur_seg(b)->p[1] = b->ry;
        b->last_seen = a;
        return;
    }
    /* confirm with the lookahead */
    for (k = a + 1; k <= e; k++) {
        rframe_t *g = frm(rc, k);

        if (g->st[i] == OB_SEEN && dist2(g->x[i], g->y[i], b->rx, b->ry) <= thr)
            return; /* an outlier */
    }
    n = line_fit(rc, i, a, e, f->t, &px, &py, &vx, &vy);
    sp = hypot(vx, vy);
    if (e > a && dev > 2 * rc->R && sp * rc->dt < thr) {
        /* moved and stays put: put there by hand (or re-racked) */
        (*n_reloc)++;
        if (i == CR_BALL_CUE) {
            *cue_placed = true;
            cue_xy[0] = px;
            cue_xy[1] = py;
        }
        b->rx = px;
        b->ry = py;
        b->rw = 1;
        b->t_stop = f->t;
        rest_seg(&m, f->t - 0.5 * rc->dt, px, py);
        push_seg(b, &m);
        b->last_seen = a;
        return;
    }
    /* an onset: when did it leave its rest position? */
    if (n >= 2 && sp > 1e-6) {
        double ux = vx / sp, uy = vy / sp, d = (px - b->rx) * ux + (py - b->ry) * uy;

        t_on = f->t - d / sp;
    } else {
        t_on = f->t - 0.5 * rc->dt;
    }
    if (t_on > f->t)
        t_on = f->t;
    if (t_on < f->t - 6 * rc->dt)
        t_on = f->t - 6 * rc->dt;
    if (t_on < b->t_stop)
        t_on = fmax(b->t_stop, f->t - 6 * rc->dt);
    before = *cur_seg(b);
    {
        double vo[2] = {vx, vy};

        /* a ball that stopped moments ago and goes on the same way was creeping */
        if (b->t_stop > 0 && t_on - b->t_stop < rc->p.resume_s && sp > 0 &&
            (vx * b->dir[0] + vy * b->dir[1]) / sp > 0.8 && sp < 200.0) {
            b->state = B_MOVING;
            b->anchor = true;
            b->anc_x = b->rx;
            b->anc_y = b->ry;
            b->anc_t = t_on;
            b->seg_from = a;
            memset(&m, 0, sizeof(m));
            m.t0 = t_on;
            fit_ball(rc, i, a, a, &m);
            m.t0 = t_on;
            push_seg(b, &m);
            b->last_seen = a;
            return;
        }
        add_change(rc, CH_ONSET, i, t_on, &before, vo, b->rx, b->ry);
    }
    b->state = B_MOVING;
    b->anchor = true;
    b->anc_x = b->rx;
    b->anc_y = b->ry;
    b->anc_t = t_on;
    b->seg_from = a;
    memset(&m, 0, sizeof(m));
    fit_ball(rc, i, a, a, &m);
    m.t0 = t_on;
    push_seg(b, &m);
    b->last_seen = a;
}

/* The ball is still: moved less than still_mm (plus noise) over still_s. */
static bool is_still(cr_recon_t *rc, int i, long a, double *mx, double *my)
{
    rball_t *b = &rc->b[i];
    double t_a = frm(rc, a)->t, sx[2] = {0, 0}, sy[2] = {0, 0}, ss = 0, x0, y0;
    int cnt[2] = {0, 0}, n = 0;
    long k;
    double xs[64], ys[64], ts[64];

    if (t_a - cur_seg(b)->t0 < rc->p.still_s)
        return false;
    for (k = a; k >= b->seg_from && frame_ok(rc, k) && n < 64; k--) {
        rframe_t *f = frm(rc, k);

        if (t_a - f->t > rc->p.still_s + 1e-9)
            break;
        if (f->st[i] != OB_SEEN)
            continue;
        xs[n] = f->x[i];
        ys[n] = f->y[i];
        ts[n] = f->t;
        ss += sig(rc, f->s[i]);
        n++;
    }
    if (n < 3)
        return false;
    for (k = 0; k < n; k++) {
        int h = ts[k] >= t_a - 0.5 * rc->p.still_s ? 1 : 0;

        sx[h] += xs[k];
        sy[h] += ys[k];
        cnt[h]++;
    }
    if (!cnt[0] || !cnt[1])
        return false;
    ss /= n;
    if (hypot(sx[1] / cnt[1] - sx[0] / cnt[0], sy[1] / cnt[1] - sy[0] / cnt[0]) >
        rc->p.still_mm + 2.0 * ss * sqrt(1.0 / cnt[0] + 1.0 / cnt[1]))
        return false;
    x0 = (sx[0] + sx[1]) / n;
    y0 = (sy[0] + sy[1]) / n;
    for (k = 0; k < n; k++)
        if (hypot(xs[k] - x0, ys[k] - y0) > rc->p.still_mm + 4.0 * ss)
            return false;
    *mx = sx[1] / cnt[1];
    *my = sy[1] / cnt[1];
    return true;
}

/* When a ball that looks still stopped: its motion over the last 0.5 s
 * fitted with constant deceleration (rolling resistance) and run out to zero
 * speed. A ball creeps the last millimetres for a few tenths of a second;
 * the result may lie after frame a (then it has not stopped yet). Falls
 * back to the middle of the still window. */
static double stop_time(cr_recon_t *rc, int i, long a, double *ts)
{
    rball_t *b = &rc->b[i];
    double t[128], x[128], y[128], w[128], ta = frm(rc, a)->t, sp, ap, fb = ta - 0.5 * rc->p.still_s;
    int n = 0;
    long k;
    seg_t s;

    for (k = a; k >= b->seg_from && frame_ok(rc, k) && n < 128; k--) {
        rframe_t *f = frm(rc, k);

        if (ta - f->t > 0.5)
            break;
        if (f->st[i] != OB_SEEN)
            continue;
        t[n] = f->t;
        x[n] = f->x[i];
        y[n] = f->y[i];
        w[n] = 1.0;
        n++;
    }
    *ts = fb;
    if (n < 6 || !poly_fit(t, x, y, w, n, t[n - 1], 2, &s))
        return *ts;
    sp = hypot(s.v[0], s.v[1]);
    if (sp < 1e-6)
        return *ts;
    ap = (s.a[0] * s.v[0] + s.a[1] * s.v[1]) / sp; /* along the motion; < 0 slowing */
    if (ap < -1.0) {
        double t_s = s.tr + sp / -ap;

        if (t_s > ta + 0.4)
            t_s = ta + 0.4;
        if (t_s > fb)
            *ts = t_s;
    }
    return *ts;
}

/* A moving ball that vanished at frame a (last seen before). */
static void vanish(cr_recon_t *rc, int i, long a)
{
    rball_t *b = &rc->b[i];
    seg_t *s = cur_seg(b);
    double tl = frame_ok(rc, b->last_seen) ? frm(rc, b->last_seen)->t : s->t0, ta = frm(rc, a)->t;
    double t1 = ta + rc->dt, px, py, qx, qy, x, y;
    int p = -1, rail = -1, r, k, N = 48;
    double best = INFINITY, t_hit = NAN;

    seg_eval(s, tl, &px, &py);
    seg_eval(s, t1, &qx, &qy);
    /* the pocket nearest to the path from the last sighting on */
    for (k = 0; k <= N; k++) {
        double t = tl + (t1 - tl) * k / N;
        int pk, rr;

        seg_eval(s, t, &x, &y);
        pk = near_pocket(rc, x, y, 2 * rc->R, &rr);
        if (pk >= 0) {
            cr_point_t c = cr_table_pocket_point(&rc->tab, (cr_pocket_t)pk);
            double d = hypot(x - c.x, y - c.y);

            if (d < best) {
                best = d;
                p = pk;
            }
        }
    }
    if (p >= 0) {
        cr_point_t ja, jb;
        double nx, ny, ln, tc = NAN;
        cr_event_t ev;

        cr_table_pocket_mouth(&rc->tab, (cr_pocket_t)p, &ja, &jb);
        nx = -(jb.y - ja.y);
        ny = jb.x - ja.x;
        ln = hypot(nx, ny);
        nx /= ln;
        ny /= ln;
        /* normal pointing away from the table centre */
        if ((ja.x - rc->tab.length_mm / 2) * nx + (ja.y - rc->tab.width_mm / 2) * ny < 0) {
            nx = -nx;
            ny = -ny;
        }
        for (k = 0; k <= N; k++) {
            double t = tl + (t1 - tl) * k / N;

            seg_eval(s, t, &x, &y);
            if ((x - ja.x) * nx + (y - ja.y) * ny >= 0) {
                tc = t;
                break;
            }
        }
        if (!isfinite(tc))
            tc = 0.5 * (tl + ta);
        if (tc > ta)
            tc = ta;
        cr_event_init(&ev, CR_EV_POCKET);
        ev.t = tc;
        ev.shot = rc->active ? rc->shot : -1;
        ev.ball = i;
        ev.pocket = (cr_pocket_t)p;
        queue_event(rc, &ev);
        b->state = B_GONE;
        b->t_gone = tc;
        return;
    }
    /* over a cushion: off the table */
    for (r = 0; r < CR_RAIL_COUNT; r++) {
        double th = rail_time(rc, s, r, tl, t1);

        if (isfinite(th) && (!isfinite(t_hit) || th < t_hit)) {
            t_hit = th;
            rail = r;
        }
    }
    if (rail >= 0 && frm(rc, a)->st[i] == OB_GONE) {
        seg_eval(s, t_hit, &x, &y);
        emit_cushion(rc, i, (cr_rail_t)rail, t_hit, x, y);
        emit_simple(rc, CR_EV_OFF_TABLE, i, t_hit, NAN, NAN, rc->active ? rc->shot : ev_shot_for_contact(rc));
        b->state = B_GONE;
        b->t_gone = t_hit;
        return;
    }
    b->state = B_LOST;
    b->t_lost = ta;
    (void)qx;
    (void)qy;
}

/* A shallow cushion contact bends the path too little to see as a kink:
 * the fitted normal velocity turns from toward the cushion to away from it
 * while the ball is within R + contact_tol of its nose line. */
static void graze_cushions(cr_recon_t *rc, int i, long a)
{
    rball_t *b = &rc->b[i];
    seg_t *s = cur_seg(b);
    double t = frm(rc, a)->t, x, y, vx, vy, vthr = 40.0;
    int r;

    if (s->n < 3)
        return;
    seg_eval(s, t, &x, &y);
    seg_vel(s, t, &vx, &vy);
    for (r = 0; r < CR_RAIL_COUNT; r++) {
        double d = rail_dist(rc, r, x, y);
        double vn = r == CR_RAIL_HEAD ? vx : r == CR_RAIL_FOOT ? -vx : r == CR_RAIL_LEFT ? vy : -vy;

        if (d > 3.0 * rc->R || near_pocket(rc, x, y, rc->R, NULL) >= 0) {
            b->vn[r] = 0;
            continue;
        }
        if (vn < -vthr) {
            b->approach[r] = *s;
        } else if (vn > vthr && b->vn[r] < -vthr) {
            /* turned: when did the approach reach the cushion? */
            double tc = rail_time(rc, &b->approach[r], r, fmax(b->approach[r].t0, t - 0.3), t + 2.0 * rc->dt), cx, cy,
                   dmin = INFINITY, tm = t;
            int k;

            if (!isfinite(tc)) {
                for (k = 0; k <= 60; k++) {
                    double tt = t - 6.0 * rc->dt * (1.0 - k / 60.0), px, py, dd;

                    seg_eval(s, tt, &px, &py);
                    dd = rail_dist(rc, r, px, py);
                    if (dd < dmin) {
                        dmin = dd;
                        tm = tt;
                    }
                }
                if (dmin <= rc->R + rc->p.contact_tol_mm)
                    tc = tm;
            }
            if (isfinite(tc)) {
                seg_eval(&b->approach[r], tc, &cx, &cy);
                emit_cushion(rc, i, (cr_rail_t)r, tc, cx, cy);
            }
        }
        if (fabs(vn) > vthr)
            b->vn[r] = vn;
    }
}

/* A moving ball at frame a. */
static void analyse_moving(cr_recon_t *rc, int i, long a)
{
    rball_t *b = &rc->b[i];
    rframe_t *f = frm(rc, a);
    seg_t *s = cur_seg(b), before, m;
    double s_a = sig(rc, f->s[i]), px, py, res, thr;
    long k, e = last_frame(rc, a);

    if (f->st[i] != OB_SEEN) {
        for (k = a + 1; k <= e; k++)
            if (frm(rc, k)->st[i] == OB_SEEN)
                return; /* a dropout: wait */
        if (f->st[i] == OB_HIDDEN && a - b->last_seen < 2)
            return;
        vanish(rc, i, a);
        return;
    }
    seg_eval(s, f->t, &px, &py);
    res = dist2(f->x[i], f->y[i], px, py);
    /* noise of the sample and of the prediction, and what a change of the
     * cloth friction (up to accel_max / 2) can do over two frames */
    thr = fmax(rc->p.kink_min_mm, rc->p.kink_k * s_a * sqrt(1.0 + 4.0 / fmax(s->n, 1))) +
          0.25 * rc->p.accel_max_mm_s2 * 4.0 * rc->dt * rc->dt;
    if (s->n < 2)
        res = 0; /* too young to predict from */
    if (res > thr) {
        bool confirmed = true;
        double vx = 0, vy = 0, ox, oy, tk, kx, ky, bestd = INFINITY, tp;
        int n;

        for (k = a + 1; k <= e; k++) {
            rframe_t *g = frm(rc, k);
            double gx, gy;

            if (g->st[i] != OB_SEEN)
                continue;
            seg_eval(s, g->t, &gx, &gy);
            if (dist2(g->x[i], g->y[i], gx, gy) <= thr)
                confirmed = false;
        }
        if (!confirmed)
            return; /* an outlier */
        n = line_fit(rc, i, a, e, f->t, &ox, &oy, &vx, &vy);
        if (n < 2) {
            ox = f->x[i];
            oy = f->y[i];
        }
        /* where the incoming path and the outgoing line meet */
        tp = frame_ok(rc, a - 1) ? frm(rc, a - 1)->t : f->t - rc->dt;
        if (b->last_seen >= 0 && frame_ok(rc, b->last_seen))
            tp = frm(rc, b->last_seen)->t;
        tk = f->t;
        for (k = 0; k <= 40; k++) {
            double t = tp + (f->t - tp) * k / 40.0, ix, iy, d;

            seg_eval(s, t, &ix, &iy);
            d = hypot(ix - (ox + vx * (t - f->t)), iy - (oy + vy * (t - f->t)));
            if (d < bestd) {
                bestd = d;
                tk = t;
            }
        }
        seg_eval(s, tk, &kx, &ky);
        before = *s;
        {
            double vo[2] = {vx, vy};

            add_change(rc, CH_KINK, i, tk, &before, vo, kx, ky);
        }
        b->anchor = false; /* the meeting point is too rough to fit through */
        b->anc_x = kx;
        b->anc_y = ky;
        b->anc_t = tk;
        b->seg_from = a;
        memset(&m, 0, sizeof(m));
        fit_ball(rc, i, a, a, &m);
        m.t0 = tk;
        push_seg(b, &m);
        b->last_seen = a;
        return;
    }
    b->last_seen = a;
    fit_ball(rc, i, b->seg_from, a, &m);
    m.t0 = s->t0;
    *s = m;
    graze_cushions(rc, i, a);
    {
        double mx, my, vx, vy, ts;

        if (is_still(rc, i, a, &mx, &my) && stop_time(rc, i, a, &ts) <= f->t) {
            seg_vel(s, f->t - rc->p.still_s, &vx, &vy);
            b->state = B_REST;
            b->rx = mx;
            b->ry = my;
            b->rw = 5;
            b->t_stop = ts;
            if (b->t_stop < s->t0)
                b->t_stop = s->t0;
            {
                double sp = hypot(vx, vy);

                b->dir[0] = sp > 0 ? vx / sp : 0;
                b->dir[1] = sp > 0 ? vy / sp : 0;
            }
            b->anchor = false;
            rest_seg(&m, b->t_stop, mx, my);
            push_seg(b, &m);
        }
    }
}

/* Ball k's candidate as the one that hit ball c->ball. Returns a score
 * (lower is better; INFINITY when impossible) and the contact time. */
static double hitter_score(cr_recon_t *rc, const change_t *c, int k, bool allow_pending, double *t_out,
                           bool *frozen_out)
{
    rball_t *bk = &rc->b[k];
    const seg_t *cands[2];
    int nc = 0, q, j;
    bool moving = bk->state == B_MOVING || bk->state == B_LOST || (bk->state == B_REST && bk->t_stop > c->t - rc->dt);
    bool pending = false, resolved_onset = false;
    double best = INFINITY, win = c->kind == CH_ONSET ? 3.0 * rc->dt : 1.5 * rc->dt;

    if (!on_table_state(bk->state) && bk->state != B_GONE)
        return INFINITY;
    for (j = 0; j < rc->nch; j++) {
        if (rc->ch[j].ball != k || &rc->ch[j] == c)
            continue;
        if (fabs(rc->ch[j].t - c->t) <= 2.0 * rc->dt) {
            pending = true;
            if (rc->ch[j].kind == CH_ONSET && rc->ch[j].done)
                resolved_onset = true;
            if (rc->ch[j].kind == CH_ONSET && !rc->ch[j].done && !allow_pending)
                return INFINITY;
        }
    }
    if (bk->state == B_MOVING && cur_seg(bk)->t0 > c->t + rc->dt && !pending)
        moving = false;
    if (recent_involves(rc, k, c->t, 3.0 * rc->dt)) {
        pending = true; /* just hit: it may pass the blow on (a frozen cluster) */
        resolved_onset = true;
    }
    /* a hitter moves (or starts moving from its own explained contact); a
     * kinked ball may also have hit a ball that has not moved yet */
    if (!moving && !pending && c->kind != CH_KINK)
        return INFINITY;
    cands[nc++] = seg_at(bk, c->t - 0.5 * rc->dt);
    if (cur_seg(bk) != cands[0])
        cands[nc++] = cur_seg(bk);
    for (q = 0; q < nc; q++) {
        bool fr;
        double dmin, tmin, tc, sc, ax, ay, bx, by;

        double lo = c->t - 3.0 * rc->dt, hi = c->t + 2.0 * rc->dt, se;

        if (!cands[q])
            continue;
        /* only while the candidate's segment was (or could have been) its path */
        se = seg_end(bk, cands[q]);
        if (!cands[q]->rest) {
            if (hi > se + 0.5 * rc->dt)
                hi = se + 0.5 * rc->dt;
            if (lo < cands[q]->t0 - 0.5 * rc->dt && q > 0)
                lo = cands[q]->t0 - 0.5 * rc->dt;
        }
        if (hi <= lo)
            continue;
        tc = contact_time(&c->before, cands[q], lo, hi, 2.0 * rc->R, &fr, &dmin, &tmin);
        if (!isfinite(tc)) {
            if (dmin > 2.0 * rc->R + rc->p.contact_tol_mm)
                continue;
            tc = tmin;
        }
        if (fr) {
            /* touching already: a frozen pair starting together */
            if (!pending && !(cands[q]->rest == false))
                continue;
            tc = c->t;
        }
        if (fabs(tc - c->t) > win && !fr)
            continue;
        sc = fabs(tc - c->t) / rc->dt;
        if (fr)
            sc += 1.0 + (resolved_onset ? 0.0 : 1.0);
        if (!moving && !pending)
            sc += 1.0;
        /* the struck ball leaves along the line of centres */
        seg_eval(cands[q], tc, &ax, &ay);
        seg_eval(&c->before, tc, &bx, &by);
        if (c->kind == CH_KINK) {
            double vi[2], dv[2], lx = bx - ax, ly = by - ay, ll = hypot(lx, ly), nd;

            seg_vel(&c->before, tc, &vi[0], &vi[1]);
            dv[0] = c->vout[0] - vi[0];
            dv[1] = c->vout[1] - vi[1];
            nd = hypot(dv[0], dv[1]);
            if (nd > 1e-9 && ll > 0) {
                double cs = (dv[0] * lx + dv[1] * ly) / (nd * ll);

                if (cs < (moving || pending ? 0.0 : 0.5))
                    continue;
                sc += 1.0 - cs;
            }
        }
        if (c->kind == CH_ONSET) {
            double sp = hypot(c->vout[0], c->vout[1]), lx = bx - ax, ly = by - ay, ll = hypot(lx, ly);

            if (sp > 50.0 && ll > 0) {
                double cs = (c->vout[0] * lx + c->vout[1] * ly) / (sp * ll);

                if (cs < 0.3)
                    continue;
                sc += 2.0 * (1.0 - cs);
            }
        }
        if (sc < best) {
            best = sc;
            *t_out = tc;
            *frozen_out = fr;
        }
    }
    return best;
}

/* An onset that a collision already emitted explains (the other ball's
 * kink came first). A ball resting near a cushion that leaves it the other
 * way than the blow sent it has bounced off that cushion in between. */
static bool explained_already(cr_recon_t *rc, change_t *c)
{
    int k, r;

    if (c->kind != CH_ONSET)
        return false;
    for (k = rc->n_recent - 1; k >= 0; k--) {
        const recent_t *e = &rc->recent[k];
        double lx, ly, ll, sp;

        if ((e->a != c->ball && e->b != c->ball) || e->t < c->t - 4.0 * rc->dt || e->t > c->t + 2.0 * rc->dt)
            continue;
        lx = c->x - e->x;
        ly = c->y - e->y;
        ll = hypot(lx, ly);
        sp = hypot(c->vout[0], c->vout[1]);
        for (r = 0; r < CR_RAIL_COUNT && ll > 0 && sp > 0; r++) {
            double d = rail_dist(rc, r, c->x, c->y);
            double nx = r == CR_RAIL_HEAD ? 1 : r == CR_RAIL_FOOT ? -1 : 0, ny = r == CR_RAIL_LEFT ? 1 : r == CR_RAIL_RIGHT ? -1 : 0;
            double vin = (lx * nx + ly * ny) / ll, vout = (c->vout[0] * nx + c->vout[1] * ny) / sp;

            if (d < rc->R + 0.5 * rc->R && vin < -0.05 && vout > 0.05) {
                double tc = e->t + fmax(0.0, d - rc->R) / sp, x = c->x, y = c->y;

                if (r == CR_RAIL_HEAD || r == CR_RAIL_FOOT)
                    x = r == CR_RAIL_HEAD ? rc->R : rc->tab.length_mm - rc->R;
                else
                    y = r == CR_RAIL_LEFT ? rc->R : rc->tab.width_mm - rc->R;
                emit_cushion(rc, c->ball, (cr_rail_t)r, tc, x, y);
                break;
            }
        }
        c->done = true;
        return true;
    }
    return false;
}

/* Explains a change by a collision; returns true when it found one. */
static bool explain_collision(cr_recon_t *rc, change_t *c, bool allow_pending)
{
    if (explained_already(rc, c))
        return true;
    int k, best_k;
    double best = INFINITY, best_t = c->t, t = c->t;
    bool best_fr = false, fr = false;

    best_k = -1;
    for (k = 0; k < NB; k++) {
        double sc;

        if (k == c->ball)
            continue;
        sc = hitter_score(rc, c, k, allow_pending, &t, &fr);
        if (sc < best) {
            best = sc;
            best_k = k;
            best_t = t;
            best_fr = fr;
        }
    }
    if (best_k < 0)
        return false;
    {
        int a = c->kind == CH_ONSET ? best_k : c->ball, b = a == best_k ? c->ball : best_k;
        double conf = best_fr ? 0.3 : 1.0;

        if (c->kind == CH_KINK && rc->b[best_k].state == B_REST && rc->b[best_k].t_stop < c->t - rc->dt) {
            /* hit a ball that did not move (yet) */
            int ch;
            bool moved = false;

            for (ch = 0; ch < rc->nch; ch++)
                if (rc->ch[ch].ball == best_k)
                    moved = true;
            if (!moved && !recent_involves(rc, best_k, c->t, 3.0 * rc->dt))
                conf = best_fr ? 0.3 : 0.9;
            a = c->ball;
            b = best_k;
        }
        if (a == best_k && c->kind == CH_KINK && rc->b[best_k].state != B_REST) {
            /* both moving: a is the faster into the other */
            double va[2], vb[2];

            seg_vel(&c->before, best_t, &va[0], &va[1]);
            seg_vel(seg_at(&rc->b[best_k], best_t - 0.5 * rc->dt), best_t, &vb[0], &vb[1]);
            a = hypot(va[0], va[1]) >= hypot(vb[0], vb[1]) ? c->ball : best_k;
            b = a == c->ball ? best_k : c->ball;
        }
        emit_collision(rc, a, b, best_t, conf);
    }
    c->done = true;
    return true;
}

/* A kink near a cushion: the time its incoming path reached R. */
static bool explain_cushion(cr_recon_t *rc, change_t *c)
{
    double tol = rc->p.contact_tol_mm + 2.0 * rc->R, x, y, t, bt = NAN;
    int r, rail = -1, pr = -1;

    for (r = 0; r < CR_RAIL_COUNT; r++) {
        double d = rail_dist(rc, r, c->x, c->y), vn, v[2];

        if (d > rc->R + tol)
            continue;
        /* the normal velocity must turn away from the rail */
        v[0] = c->vout[0];
        v[1] = c->vout[1];
        vn = (r == CR_RAIL_HEAD) ? v[0] : (r == CR_RAIL_FOOT) ? -v[0] : (r == CR_RAIL_LEFT) ? v[1] : -v[1];
        {
            double vi[2], vin;

            seg_vel(&c->before, c->t, &vi[0], &vi[1]);
            vin = (r == CR_RAIL_HEAD) ? vi[0] : (r == CR_RAIL_FOOT) ? -vi[0] : (r == CR_RAIL_LEFT) ? vi[1] : -vi[1];
            if (!(vn > vin))
                continue;
        }
        t = rail_time(rc, &c->before, r, c->t - 2.0 * rc->dt, c->t + rc->dt);
        if (!isfinite(t))
            t = c->t;
        if (rail < 0 || fabs(t - c->t) < fabs(bt - c->t)) {
            rail = r;
            bt = t;
        }
    }
    if (near_pocket(rc, c->x, c->y, 2.0 * rc->R, &pr) >= 0 &&
        (rail < 0 || rail_dist(rc, rail, c->x, c->y) > rc->R + rc->p.contact_tol_mm)) {
        rail = pr; /* a jaw: the cushion it belongs to */
        bt = c->t;
    }
    if (rail < 0)
        return false;
    seg_eval(&c->before, bt, &x, &y);
    emit_cushion(rc, c->ball, (cr_rail_t)rail, bt, x, y);
    c->done = true;
    return true;
}

static int cmp_change(const void *pa, const void *pb)
{
    const change_t *a = pa, *b = pb;

    return a->t < b->t ? -1 : a->t > b->t ? 1 : a->ball - b->ball;
}

/* First-contact confidence: two cue-ball contacts too close to order, or a
 * ball the cue ball passed within reach of that has not moved (yet). */
static void first_contact_doubt(cr_recon_t *rc, int from)
{
    int k, first = -1, second = -1, j;
    double s_t, sp, vx, vy, conf = 1.0, gap;

    for (k = from; k < rc->nbatch; k++) {
        cr_event_t *e = &rc->batch[k];

        if (e->type != CR_EV_COLLISION || (e->a != CR_BALL_CUE && e->b != CR_BALL_CUE) || e->shot != rc->shot)
            continue;
        if (first < 0 || e->t < rc->batch[first].t) {
            second = first;
            first = k;
        } else if (second < 0 || e->t < rc->batch[second].t) {
            second = k;
        }
    }
    if (first < 0)
        return;
    rc->first_done = true;
    {
        const seg_t *s = seg_at(&rc->b[0], rc->batch[first].t - 0.5 * rc->dt);

        seg_vel(s, rc->batch[first].t, &vx, &vy);
        sp = hypot(vx, vy);
        s_t = fmax(0.3e-3, 2.0 * sig(rc, 1.5) / fmax(sp, 1.0));
        if (second >= 0) {
            gap = rc->batch[second].t - rc->batch[first].t;
            if (gap < rc->p.doubt_sigmas * s_t)
                conf = fmin(conf, 0.5 + 0.45 * gap / (rc->p.doubt_sigmas * s_t));
        }
        /* near misses: resting balls the incoming path passed within reach of */
        for (j = 1; j < NB; j++) {
            rball_t *bj = &rc->b[j];
            seg_t rs;
            bool fr;
            double dmin, tmin, tc;
            int ob = rc->batch[first].a == 0 ? rc->batch[first].b : rc->batch[first].a;

            if (j == ob || bj->state != B_REST || s->rest)
                continue;
            if (second >= 0 && (rc->batch[second].a == j || rc->batch[second].b == j))
                continue;
            rest_seg(&rs, 0, bj->rx, bj->ry);
            tc = contact_time(s, &rs, fmax(s->t0, rc->t_stroke), rc->batch[first].t, 2.0 * rc->R, &fr, &dmin, &tmin);
            (void)tc;
            if (dmin <= 2.0 * rc->R + rc->p.contact_tol_mm)
                conf = fmin(conf, 0.9);
        }
    }
    if (conf < 1.0) {
        rc->batch[first].confidence = conf;
        if (second >= 0)
            rc->batch[second].confidence = fmin(rc->batch[second].confidence, conf);
    }
}

static void resolve_changes(cr_recon_t *rc)
{
    int k, pass, from = rc->nbatch;
    bool progress;

    qsort(rc->ch, (size_t)rc->nch, sizeof(rc->ch[0]), cmp_change);
    /* a cue ball starting from rest with nothing moving near it: the stroke */
    for (k = 0; k < rc->nch; k++) {
        change_t *c = &rc->ch[k];

        if (c->ball == CR_BALL_CUE && c->kind == CH_ONSET && !explain_collision(rc, c, false)) {
            emit_stroke(rc, c->t, false);
            c->done = true;
        }
    }
    for (pass = 0; pass < 4; pass++) {
        progress = false;
        for (k = 0; k < rc->nch; k++) {
            change_t *c = &rc->ch[k];

            if (!c->done && explain_collision(rc, c, pass > 0))
                progress = true;
        }
        if (!progress && pass > 0)
            break;
    }
    for (k = 0; k < rc->nch; k++) {
        change_t *c = &rc->ch[k];
        double vi[2], si, so;

        if (c->done)
            continue;
        if (c->kind == CH_KINK) {
            if (explain_cushion(rc, c))
                continue;
            seg_vel(&c->before, c->t, &vi[0], &vi[1]);
            si = hypot(vi[0], vi[1]);
            so = hypot(c->vout[0], c->vout[1]);
            if (c->before.n >= 3 && so > 1.5 * si + 300.0) {
                /* sped up with nothing to explain it */
                if (c->ball == CR_BALL_CUE)
                    emit_stroke(rc, c->t, true);
                else
                    emit_simple(rc, CR_EV_DISTURBED, c->ball, c->t, c->x, c->y, rc->active ? rc->shot : -1);
            }
            c->done = true;
            continue;
        }
        /* an object ball that started with nothing to explain it */
        emit_simple(rc, CR_EV_DISTURBED, c->ball, c->t, c->x, c->y, rc->active ? rc->shot : -1);
        c->done = true;
    }
    if (rc->active && !rc->first_done)
        first_contact_doubt(rc, from);
}

static void maybe_rest(cr_recon_t *rc, double t_now, bool final)
{
    cr_event_t ev;
    double t = rc->t_stroke;
    int i;

    if (!rc->active)
        return;
    for (i = 0; i < NB; i++) {
        rball_t *b = &rc->b[i];

        if (b->state == B_MOVING || b->state == B_LOST)
            return;
        if (b->state == B_REST && b->t_stop > t)
            t = b->t_stop;
        if (b->state == B_GONE && b->t_gone > t)
            t = b->t_gone;
    }
    (void)t_now;
    (void)final;
    cr_event_init(&ev, CR_EV_REST);
    ev.t = t;
    ev.shot = rc->shot;
    for (i = 0; i < NB && ev.n_balls < CR_EVENT_MAX_BALLS; i++) {
        rball_t *b = &rc->b[i];

        if (b->state != B_REST)
            continue;
        ev.balls[ev.n_balls].id = i;
        ev.balls[ev.n_balls].x = b->rx;
        ev.balls[ev.n_balls].y = b->ry;
        ev.balls[ev.n_balls].vx = ev.balls[ev.n_balls].vy = NAN;
        ev.balls[ev.n_balls].frozen_rails = 0;
        ev.n_balls++;
    }
    rc->active = false;
    queue_event(rc, &ev);
}

static void analyse(cr_recon_t *rc, long a)
{
    rframe_t *f = frm(rc, a);
    int i, n_reloc = 0;
    bool cue_placed = false;
    double cue_xy[2] = {0, 0};
    long k, e = last_frame(rc, a);

    rc->nch = 0;
    for (i = 0; i < NB; i++) {
        rball_t *b = &rc->b[i];

        switch (b->state) {
        case B_ABSENT:
        case B_GONE:
            if (f->st[i] == OB_SEEN) {
                bool ok = true;
                seg_t m;

                for (k = a + 1; k <= e; k++) {
                    rframe_t *g = frm(rc, k);

                    if (g->st[i] != OB_SEEN || dist2(g->x[i], g->y[i], f->x[i], f->y[i]) > 2.0 * rc->R)
                        ok = false;
                }
                if (!ok)
                    break;
                if (a > 0) {
                    n_reloc++;
                    if (i == CR_BALL_CUE) {
                        cue_placed = true;
                        cue_xy[0] = f->x[i];
                        cue_xy[1] = f->y[i];
                    }
                }
                b->state = B_REST;
                b->rx = f->x[i];
                b->ry = f->y[i];
                b->rw = 1;
                b->t_stop = a > 0 ? f->t - 0.5 * rc->dt : f->t;
                b->last_seen = a;
                b->anchor = false;
                rest_seg(&m, b->t_stop, b->rx, b->ry);
                push_seg(b, &m);
            } else if (f->st[i] == OB_HIDDEN && b->state == B_ABSENT && isfinite(f->x[i])) {
                /* listed but not seen from the start: at rest where the tracker holds it */
                seg_t m;

                b->state = B_REST;
                b->rx = f->x[i];
                b->ry = f->y[i];
                b->rw = 1;
                b->t_stop = f->t;
                b->last_seen = -1;
                rest_seg(&m, f->t, b->rx, b->ry);
                push_seg(b, &m);
            }
            break;
        case B_REST:
            analyse_rest(rc, i, a, &n_reloc, &cue_placed, cue_xy);
            break;
        case B_MOVING:
            analyse_moving(rc, i, a);
            break;
        case B_LOST:
            if (f->st[i] == OB_SEEN) {
                seg_t m;

                b->state = B_MOVING;
                b->anchor = false;
                b->seg_from = a;
                b->last_seen = a;
                memset(&m, 0, sizeof(m));
                fit_ball(rc, i, a, a, &m);
                m.t0 = f->t;
                push_seg(b, &m);
            } else if (f->t - b->t_lost > 2.0) {
                b->state = B_GONE;
            }
            break;
        default:
            break;
        }
    }
    resolve_changes(rc);
    if (cue_placed && n_reloc < 3) {
        /* the cue ball put down by hand (several balls at once: a re-rack) */
        double mx = cue_xy[0], my = cue_xy[1];

        emit_simple(rc, CR_EV_PLACED, CR_BALL_CUE, f->t - 0.5 * rc->dt, mx, my, -1);
    }
    maybe_rest(rc, f->t, false);
}

/* ------------------------------------------------------------ push */

static int cmp_event_t(const void *pa, const void *pb)
{
    const cr_event_t *a = pa, *b = pb;

    if (a->t < b->t)
        return -1;
    if (a->t > b->t)
        return 1;
    /* stroke before what follows it at the same instant; rest last */
    return (a->type == CR_EV_STROKE ? 0 : a->type == CR_EV_REST ? 2 : 1) -
           (b->type == CR_EV_STROKE ? 0 : b->type == CR_EV_REST ? 2 : 1);
}

/* Moves the batch into the queue, in time order. */
static void commit_batch(cr_recon_t *rc)
{
    int k;

    if (rc->nbatch > 1) {
        /* stable insertion sort (a batch is small) */
        for (k = 1; k < rc->nbatch; k++) {
            cr_event_t tmp = rc->batch[k];
            int j = k;

            while (j > 0 && cmp_event_t(&rc->batch[j - 1], &tmp) > 0) {
                rc->batch[j] = rc->batch[j - 1];
                j--;
            }
            rc->batch[j] = tmp;
        }
    }
    for (k = 0; k < rc->nbatch && rc->nq < QCAP; k++)
        rc->q[rc->nq++] = rc->batch[k];
    rc->nbatch = 0;
}

static int drain(cr_recon_t *rc, cr_event_t *out, int max, int *n)
{
    int k = rc->nq < max ? rc->nq : max;

    if (k > 0) {
        memcpy(out, rc->q, sizeof(*out) * (size_t)k);
        memmove(rc->q, rc->q + k, sizeof(*out) * (size_t)(rc->nq - k));
        rc->nq -= k;
    }
    *n = k;
    return CR_OK;
}

int cr_recon_push(cr_recon_t *rc, const cr_ball_frame_t *frame, cr_event_t *out, int max, int *n)
{
    rframe_t *f;
    int k;

    if (n)
        *n = 0;
    if (!rc || !frame || !out || !n || !isfinite(frame->t))
        return CR_ERR_INVALID;
    if (max < MIN_OUT)
        return CR_ERR_INVALID;
    if (rc->n_frames > 0 && frame->t <= frm(rc, rc->n_frames - 1)->t)
        return CR_ERR_INVALID;
    f = frm(rc, rc->n_frames);
    memset(f, 0, sizeof(*f));
    f->t = frame->t;
    for (k = 0; k < NB; k++) {
        f->x[k] = f->y[k] = NAN;
        f->s[k] = rc->p.sigma_floor_mm;
    }
    for (k = 0; k < frame->n && k < CR_VISION_MAX_DETECTIONS; k++) {
        const cr_ball_obs_t *o = &frame->balls[k];
        int id = o->id;

        if (id < 0 || id >= NB || f->st[id] != OB_NONE)
            continue;
        if ((o->status == CR_BALL_SEEN || o->status == CR_BALL_HIDDEN) && !(isfinite(o->x) && isfinite(o->y)))
            continue;
        f->st[id] = o->status == CR_BALL_SEEN ? OB_SEEN : o->status == CR_BALL_HIDDEN ? OB_HIDDEN : OB_GONE;
        f->x[id] = o->x;
        f->y[id] = o->y;
        f->s[id] = o->sigma_mm;
    }
    /* a ball no longer listed is gone */
    for (k = 0; k < NB; k++)
        if (f->st[k] == OB_NONE && on_table_state(rc->b[k].state))
            f->st[k] = OB_GONE;
    rc->n_frames++;
    while (rc->next <= rc->n_frames - 1 - rc->p.lookahead_frames) {
        analyse(rc, rc->next);
        rc->next++;
        commit_batch(rc);
    }
    return drain(rc, out, max, n);
}

int cr_recon_finish(cr_recon_t *rc, cr_event_t *out, int max, int *n)
{
    if (n)
        *n = 0;
    if (!rc || !out || !n)
        return CR_ERR_INVALID;
    if (max < MIN_OUT)
        return CR_ERR_INVALID;
    while (rc->next < rc->n_frames) {
        analyse(rc, rc->next);
        rc->next++;
        commit_batch(rc);
    }
    return drain(rc, out, max, n);
}
