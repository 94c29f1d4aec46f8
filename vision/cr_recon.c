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
#include "cr_vision_internal.h"


/* Ball slots: slot i < NID is ball id i; the slots above hold tracks the
 * tracker has not identified (id -1), one slot per track for its whole life,
 * so that an identity settled later never splits a ball's history. Events
 * name a spare slot's ball by the id its track got, or -1. */
#define NID CR_VISION_MAX_BALLS
#define NB (2 * CR_VISION_MAX_BALLS)
#define TRACK_MAP 512 /* tracks remembered with their slot */

/* How long before the cue ball's measured onset a ball frozen to it (or to
 * a chain of touching balls from it) may be seen to start and still have
 * been set moving by the stroke: struck into it, the cue ball gives nearly
 * all its speed away and goes on only as its spin takes the cloth, so its
 * onset is measured late, and the other's a little early (at 60 fps: 20
 * and 42 ms) */
#define FROZEN_LEAD_S(rc) fmax(3.0 * (rc)->dt, 0.1)
#define STROKE_LATE_S(rc) (2.0 * (rc)->dt) /* how late a stroke dated from the onset can be */

#define RING 256        /* frames kept (power of two) */
#define NSEG 8          /* past segments per ball */
#define MAX_CH 48       /* changes in one analysed frame */
#define MAX_RECENT 64   /* recent collisions, for de-duplication */
#define QCAP 512        /* events waiting to be handed out */
#define RACK_MIN 6      /* balls frozen together on the foot spot that make a rack (rack_stands()) */
#define MIN_OUT 64      /* smallest out capacity accepted */
#define RW_MAX 160      /* samples in a cushion V fit */
#define VANISH_WAIT_S 0.05 /* a rolling ball hidden this long near a pocket dropped */
/* nudged(): samples averaged, how long after a brush it may show, and how
 * near the way away from the brushing ball it must lie (cos 45 deg) */
#define NUDGE_M 6
#define NUDGE_S 0.6
#define NUDGE_COS 0.7
/* The least slowing a lost ball's course is followed at (and a rolling
 * ball's reach judged at), mm/s^2: half of
 * rolling resistance on cloth (mu ~ 0.01: about 0.1 m/s^2), so a fitted
 * rate near zero does not send it on for ever nor a lower bound cut it
 * short; the fitted rate where that is greater. */
#define LOST_DEC_MIN 50.0
#define KINK_STILL_MM_S 10.0 /* a segment slower than this sat still (sat_near()) */
/* A ball struck at rest and never seen to move (a ball of the cloth's
 * colour): its course is followed from the blow, rolling at 5/7 of the
 * striker's speed along the line of centres (a full blow's share once the
 * slide is over), slowing by BLOW_DEC; what it meets first is reported at
 * BLOW_CONF. */
#define BLOW_DEC 150.0
/* A ball lost as its path met a cushion left the table over it only if it
 * met it at least this fast (mm/s into the cushion): the nose stands above
 * a ball's centre, and a ball that meets it gently rebounds; one running
 * along a cushion went on along it (into the corner pocket, unseen). A
 * ball leaves a table over the rail only on a hard, rising hit. */
#define OFF_MIN_MM_S 1000.0
#define BLOW_CONF 0.6
#define NEAR_GAP_MM 20.0 /* a ball this far off the cue ball at the stroke may be struck within a frame */
#define HUNG_UNSEEN_S 0.3 /* a ball at rest past a mouth line, unseen this long, dropped */
#define FROZEN_STRUCK_MM_S 300.0 /* a ball struck through the cue ball frozen to it leaves faster */
#define RC_MAX 64       /* samples of one ball in a contact refinement */
#define ROLL_N 64       /* natural stops kept to measure the cloth's rolling resistance */
#define ROLL_MIN 5      /* ... and how many before the measure is used */
#define ROLL_SLACK 1.5  /* a rolling ball slows by at most this much more than measured */
#define RB_WAIT 4       /* rebound checks that may wait for a striker's kink at once */
#define VEE_BIAS_MM 0.5 /* how far a cushion V's vertex may lie off R (vee_vertex()) */

enum { OB_NONE = 0, OB_SEEN, OB_HIDDEN, OB_GONE };
enum { B_ABSENT = 0, B_REST, B_MOVING, B_GONE, B_LOST };
enum { CH_ONSET = 0, CH_KINK };

typedef struct {
    double t;
    double x[NB], y[NB], s[NB];
    double rx[NB], ry[NB]; /* the detection before the tracker smoothed it (x, y when none) */
    unsigned char st[NB];
    unsigned char rf[NB]; /* the tracker says its fit moved, not the ball (cr_ball_obs_t.refit) */
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
    bool dist_pending;      /* started from rest with no cause: disturbed if it settles away */
    bool kink_pending;      /* rolling, sped up with no cause at kink_t from (kink_x, kink_y) at
                             * kink_v along kink_u: disturbed if it rests beyond its reach */
    double kink_t, kink_x, kink_y, kink_u[2], kink_v;
    int kink_shot;
    double dist_t, dist_x, dist_y;
    double dist_sig;        /* ... and the typical sigma of its samples before it started */
    int dist_shot;
    double sig_run;         /* running mean of the sigma of its recent samples, mm */
    double scat2;           /* at rest: running mean square of its samples' distance
                             * from the rest position, mm^2 */
    bool uncaused;          /* its current motion began with nothing seen to start it */
    double dir[2];          /* direction of travel when it stopped */
    seg_t hist[NSEG];
    int nh;                 /* hist[(nh - 1) % NSEG] is the current segment */
    long seg_from;          /* first frame of the current motion's samples */
    bool anchor;            /* (anc_x, anc_y) at anc_t starts the current motion */
    double anc_x, anc_y, anc_t;
    long last_seen;
    bool appeared;          /* came onto the table at t_appear, at (app_x, app_y): not yet
                             * known to be the cue ball put down (its track had no number) */
    double t_appear, app_x, app_y;
    double t_lost;
    /* a ball lost while moving on a course into a pocket (vanish()):
     * that pocket (-1: none), when its course crosses the mouth, and the
     * course (from (lc_x, lc_y) at lc_t, unit direction lc_u, speed lc_v,
     * slowing by lc_dec) up to the mouth, lc_len mm */
    int lost_pk;
    bool lost_course_known; /* it was seen moving off: a course, however uncertain, was measured */
    double lost_tc, lost_conf; /* ... and the pocket event's confidence */
    double lc_t, lc_x, lc_y, lc_u[2], lc_v, lc_dec, lc_len;
    double lc_seen;         /* when it was last seen again on that course */
    /* struck at rest (blow_t, by a ball seen to kink against it) and not
     * seen to move yet: it left along the line of centres, unit blow_u,
     * at up to blow_v (the striker's speed along that line) */
    bool blow_on;
    double blow_t, blow_u[2], blow_v;
    int blow_shot, blow_by;
    bool lost_blow;         /* lost after such a blow (follow_blow()), its course run by blow_until */
    double blow_until;
    /* the cushion (bc_rail) its course from that blow met, at (bc_x, bc_y)
     * at bc_t: reported once that time has passed unless it was seen
     * again first */
    bool bc_on;
    int bc_rail;
    double bc_t, bc_x, bc_y;
    /* lost over a cushion (vanish()) at off_t: off the table once the
     * others have settled with it not seen again (off_shot: its shot) */
    bool off_on;
    double off_t;
    double off_v;           /* ... its speed when it met the cushion, mm/s */
    int off_shot;
    double t_gone;          /* when it was pocketed or left the table */
    double t_brush;         /* at rest: when a moving ball last passed within reach of it
                             * (brushed_at(): it may have been struck) */
    /* at rest, brushed in a shot at nudge_t (frame nudge_k) by a ball then
     * at nudge_h: where it rested then (nudge_r, the mean of nudge_w
     * samples of sigma nudge_s), for nudged() */
    double nudge_t, nudge_r[2], nudge_h[2], nudge_hd, nudge_w, nudge_s, nudge_tc;
    long nudge_k;
    double seen_x, seen_y;  /* where it was last seen on the table (seen_on: ever) */
    bool seen_on;
    bool bed_seen;          /* ever seen on the bed, not only past a pocket's mouth line */
    bool down;              /* GONE with a pocket or off_table event reported */
    bool unseen;            /* GONE in shot unseen_shot before it was seen to move off, nothing
                             * seen of where it went (mark_unseen()), last seen at t_unseen */
    int unseen_shot;
    double t_unseen;
    double t_cush[CR_RAIL_COUNT]; /* last cushion contact reported per rail */
    double t_cush_prev[CR_RAIL_COUNT]; /* ... and the one before it */
    double vn[CR_RAIL_COUNT];   /* fitted speed away from each nearby cushion, mm/s */
    seg_t approach[CR_RAIL_COUNT]; /* the fit while it last moved toward it */
    /* rail_watch: per cushion while the ball is within reach of it, the
     * farthest and nearest distance to its nose line seen (raw samples) */
    bool rw_on[CR_RAIL_COUNT];
    double rw_max[CR_RAIL_COUNT], rw_min[CR_RAIL_COUNT], rw_tmin[CR_RAIL_COUNT];
    double rw_last[CR_RAIL_COUNT]; /* the last sample's distance */
    double rw_gap[CR_RAIL_COUNT];  /* the steps into and out of the nearest sample: it may lie
                                    * that far beyond R and still bracket a contact */
    double rw_lead[CR_RAIL_COUNT][3]; /* the rest it set off from moments before it was first
                                       * watched (t, x, y; t NAN: none): its way in's first point */
} rball_t;

typedef struct {
    int kind;
    int ball;
    double t;               /* time of the change */
    seg_t before;           /* motion before it (rest: a rest segment) */
    double vout[2];         /* velocity after it */
    double x, y;            /* where the ball was at the change */
    bool creep;             /* onset: slow, moments after the ball stopped (it may never
                             * have stopped: a ball creeps its last millimetres) */
    double mv[2];           /* onset: unit direction it has moved from its rest so far (the
                             * sure direction of a slow start: it is 5 sigma; its fitted
                             * velocity is not) */
    bool drift;             /* kink: found over several frames (drift_start()) */
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
    double t_settled;       /* when every ball had settled, the shot's rest waiting for a ball
                             * gone unseen (unseen_wait()); NAN: not waiting */
    double t_rest_wait;     /* ... and the rest's time then */
    double t_back;          /* the last time a ball came (back) onto the table (NAN: never) */
    int back_ball;          /* ... which */
    double t_first;         /* its time */
    /* double-hit check of the shot's first contact (dh_ball >= 0: pending) */
    int dh_ball;
    double dh_t, dh_n[2], dh_vin;
    double cue_at_stroke[2]; /* where the cue ball was struck */
    recent_t recent[MAX_RECENT];
    int n_recent;
    change_t ch[MAX_CH];
    /* pair_watch: per pair of moving balls (i < j) within reach, the
     * farthest and nearest distance seen (raw samples) */
    bool pw_on[NB][NB];
    double pw_max[NB][NB], pw_min[NB][NB], pw_tmin[NB][NB];
    int nch;
    /* the decelerations of well-seen balls that rolled to a stop in the
     * open (learn_roll()): the cloth's rolling resistance, measured */
    double roll_dec[ROLL_N];
    int n_roll;
    double roll_med;        /* their median once ROLL_MIN are kept, else NAN */
    /* rebound_contact() checks waiting for the hitter's velocity after its kink */
    struct {
        bool on;
        int k, b, r;
        double tc, x, y;
    } rb_wait[RB_WAIT];
    cr_event_t *q;          /* events waiting to be handed out, in order */
    int nq;
    cr_event_t *batch;      /* events of the frame being analysed */
    int nbatch;
    int spare_track[NB];    /* slots >= NID: the track held, -1 free */
    int spare_id[NB];       /* ... and the id the tracker gives it now, -1 none */
    int spare_named[NB];    /* ... the last number it was given (-1 none) */
    bool spare_not_cue[NB]; /* ... its looks rule out the cue ball now */
    double spare_since[NB]; /* ... first given since it last named another number (frame time) */
    int ts_track[TRACK_MAP], ts_slot[TRACK_MAP]; /* the slot each recent track was put in */
    double ts_displaced[TRACK_MAP]; /* since when its number has been another's (ball_slot()), NAN */
    int n_ts;               /* entries used (a ring once full) */
    bool finishing;         /* cr_recon_finish: nothing is held any more */
};

/* ------------------------------------------------------------ helpers */

void cr_recon_params_defaults(cr_recon_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->fps = 60.0;
    p->lookahead_frames = 1;
    p->name_wait_s = 3.0;
    p->merge_hold_s = 0.5;
    p->disturbed_min_mm = 10.0;
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
    p->frozen_mm = 0.5;
    p->resume_s = 0.5;
    p->doubt_sigmas = 3.0;
    p->cause_window_s = 0.5;
    p->stay_down = true;
}

static rframe_t *frm(cr_recon_t *rc, long k)
{
    return &rc->ring[k & (RING - 1)];
}

static bool frame_ok(const cr_recon_t *rc, long k)
{
    return k >= 0 && k < rc->n_frames && k > rc->n_frames - RING;
}

/* The earliest frame at or after time t among the frames just before k
 * (back at most `back` frames, through frames still held). */
static long frame_from(cr_recon_t *rc, long k, double t, long back)
{
    long k0 = k;

    while (k0 > k - back && frame_ok(rc, k0 - 1) && frm(rc, k0 - 1)->t >= t)
        k0--;
    return k0;
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

/* The segment k back from ball b's current one (0: the current), with the
 * time it ended in *end (INFINITY for the current); NULL past the history. */
static const seg_t *seg_back(const rball_t *b, int k, double *end)
{
    int n = b->nh < NSEG ? b->nh : NSEG;

    if (k >= n)
        return NULL;
    *end = k == 0 ? INFINITY : b->hist[(b->nh - k + NSEG * 2) % NSEG].t0;
    return &b->hist[(b->nh - 1 - k + NSEG * 2) % NSEG];
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
    if (!cr_vision_solve(m, rx, nb) || !cr_vision_solve(mc, ry, nb))
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

static int cmp_event_t(const void *pa, const void *pb);
static void queue_event_sorted(cr_recon_t *rc, const cr_event_t *ev);

static int queue_event(cr_recon_t *rc, const cr_event_t *ev)
{
    if (ev->type == CR_EV_POCKET && ev->ball >= NID && ev->ball < NB && !rc->b[ev->ball].bed_seen)
        return CR_OK; /* a track with no number seen only inside a pocket (a hand or the cue
                       * over the hole) came from no place on the table: its going is no pot */
    if (rc->nbatch >= QCAP)
        return CR_ERR_FULL;
    rc->batch[rc->nbatch++] = *ev;
    /* a ball reported pocketed or off the table is down (may_return()) */
    if ((ev->type == CR_EV_POCKET || ev->type == CR_EV_OFF_TABLE) && ev->ball >= 0 && ev->ball < NB)
        rc->b[ev->ball].down = true;
    return CR_OK;
}

static int ev_shot_for_contact(const cr_recon_t *rc)
{
    return rc->shot >= 0 ? rc->shot : -1;
}

/* Whether {x, y} is the pair {a, b}, in either order. */
static bool same_pair(int x, int y, int a, int b)
{
    return (x == a && y == b) || (x == b && y == a);
}

static bool recent_has(const cr_recon_t *rc, int a, int b, double t, double win)
{
    int k;

    for (k = 0; k < rc->n_recent; k++) {
        const recent_t *r = &rc->recent[k];

        if (same_pair(r->a, r->b, a, b) && fabs(r->t - t) <= win)
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

/* Balls that started with no cause, decided at the next stroke, rest or the
 * end of the input (before that event, in time order): a ball resting then
 * clearly away from where it started (beyond disturbed_min_mm and 3 sigmas
 * of its samples at both rests) was disturbed. Not at its first stop: a
 * ball the detector measures poorly (the colour of the cloth) can seem to
 * shift and sit there for seconds, then come back; a touched ball stays
 * where it was put. A ball still moving waits for the next one. */
static int emit_simple(cr_recon_t *rc, cr_event_type_t type, int ball, double t, double x, double y, int shot);

/* Whether ball b sat still (a rest, or a segment under KINK_STILL_MM_S for
 * two frames or more) within `near` of (x, y) at some time in the two
 * seconds before t, among its kept segments. A still ball whose fit flips
 * between two places (the green 6 on green cloth with its shadow: 19 mm
 * apart, back and forth for a second as it settled) reads as a creeping
 * ball sped up with no cause; one that comes to rest where it sat a moment
 * before was not moved: a touched ball goes somewhere new. */
static bool sat_near(const cr_recon_t *rc, const rball_t *b, double x, double y, double t, double near)
{
    const int lo = b->nh > NSEG ? b->nh - NSEG : 0;

    for (int q = b->nh - 1; q >= lo; q--) {
        const seg_t *s = &b->hist[q % NSEG];
        double end = q + 1 < b->nh ? b->hist[(q + 1) % NSEG].t0 : t, vx, vy, mx, my;

        end = fmin(end, t);
        if (end < t - 2.0)
            break;
        if (!(end - s->t0 >= 2.0 * rc->dt - 1e-9))
            continue;
        seg_vel(s, 0.5 * (s->t0 + end), &vx, &vy);
        seg_eval(s, 0.5 * (s->t0 + end), &mx, &my);
        if ((s->rest || hypot(vx, vy) < KINK_STILL_MM_S) && hypot(mx - x, my - y) < near)
            return true;
    }
    return false;
}

static void decide_disturbed(cr_recon_t *rc)
{
    int k;

    for (k = 0; k < NB; k++) {
        rball_t *bk = &rc->b[k];
        double need;

        if (bk->kink_pending && bk->state != B_REST && bk->state != B_MOVING)
            bk->kink_pending = false; /* pocketed, lost: nothing to compare */
        if (bk->kink_pending && bk->state == B_REST && bk->t_stop > bk->kink_t) {
            /* a rolling ball that sped up with nothing seen to cause it was
             * touched when it rests beyond where it could have rolled on
             * its own: further along its course than its speed carries it
             * at the slowest rolling deceleration (LOST_DEC_MIN), or off
             * that course (by disturbed_min_mm and 3 sigmas either way) */
            double dx = bk->rx - bk->kink_x, dy = bk->ry - bk->kink_y;
            double along = dx * bk->kink_u[0] + dy * bk->kink_u[1], across = fabs(dx * bk->kink_u[1] - dy * bk->kink_u[0]);
            double reach = bk->kink_v * bk->kink_v / (2.0 * LOST_DEC_MIN);

            need = fmax(rc->p.disturbed_min_mm, 3.0 * bk->sig_run);
            if ((along > reach + need || across > need) && !sat_near(rc, bk, bk->rx, bk->ry, bk->kink_t, need))
                emit_simple(rc, CR_EV_DISTURBED, k, bk->kink_t, bk->kink_x, bk->kink_y, bk->kink_shot);
            bk->kink_pending = false;
        }

        if (!bk->dist_pending || bk->state != B_REST || !(bk->t_stop > bk->dist_t))
            continue;
        need = fmax(rc->p.disturbed_min_mm, 3.0 * hypot(bk->dist_sig, bk->sig_run));
        if (hypot(bk->rx - bk->dist_x, bk->ry - bk->dist_y) >= need)
            emit_simple(rc, CR_EV_DISTURBED, k, bk->dist_t, bk->dist_x, bk->dist_y, bk->dist_shot);
        bk->dist_pending = false;
    }
}

static void emit_rest(cr_recon_t *rc);

/* Is (x, y) where a racked ball can stand: in the rack behind the foot spot
 * (any game's, the 2025 nine-ball diamond reaching two rows ahead of the
 * spot; rows sqrt(3) R apart, the widest, five balls, 8 R from centre to
 * centre)? */
static bool in_rack_reach(const cr_recon_t *rc, double x, double y)
{
    const cr_point_t fs = cr_table_foot_spot(&rc->tab);
    const double R = rc->R;

    return x >= fs.x - 2.0 * sqrt(3.0) * R - 2.0 * R && fabs(y - 0.5 * rc->tab.width_mm) <= 5.0 * R;
}

/* Does a rack stand as the cue ball is struck (the stroke's balls, ev): at
 * least RACK_MIN object balls at rest in the rack's reach, each within
 * 0.15 R (4 mm) of touching another of them (a rack's balls are frozen
 * together; the measure's noise stays well inside that), one of them on
 * the foot spot (within R: the apex, or the middle of the 2025 nine-ball
 * diamond)? Nine balls stand in the smallest rack of the games judged. What
 * a soft break leaves is no rack: in one 8-ball film eight to ten balls
 * stayed there, each within 0.25 R of another, for six shots, none on the
 * spot. */
static bool rack_stands(const cr_recon_t *rc, const cr_event_t *ev)
{
    int idx[CR_EVENT_MAX_BALLS], n = 0, in[CR_EVENT_MAX_BALLS], m = 0;
    const double reach = 2.15 * rc->R;
    const cr_point_t fs = cr_table_foot_spot(&rc->tab);
    bool done[CR_EVENT_MAX_BALLS] = {false};

    for (int k = 0; k < ev->n_balls; k++) {
        const cr_ball_state_t *bs = &ev->balls[k];
        bool moving = false;

        for (int j = 0; j < ev->n_moving; j++)
            moving = moving || ev->moving[j] == bs->id;
        if (bs->id != CR_BALL_CUE && !moving && rc->b[bs->id].state == B_REST && in_rack_reach(rc, bs->x, bs->y))
            idx[n++] = k;
    }
    /* the group joined by touches to a ball on the spot */
    for (int s = 0; s < n; s++) {
        int size = 0;

        if (done[s] || hypot(ev->balls[idx[s]].x - fs.x, ev->balls[idx[s]].y - fs.y) > rc->R)
            continue;
        m = 0;
        in[m++] = s;
        done[s] = true;
        while (m > 0) {
            const cr_ball_state_t *a = &ev->balls[idx[in[--m]]];

            size++;
            for (int j = 0; j < n; j++) {
                const cr_ball_state_t *c = &ev->balls[idx[j]];

                if (!done[j] && hypot(a->x - c->x, a->y - c->y) <= reach) {
                    done[j] = true;
                    in[m++] = j;
                }
            }
        }
        if (size >= RACK_MIN)
            return true;
    }
    return false;
}

static int emit_stroke(cr_recon_t *rc, double t, bool cue_was_moving)
{
    cr_event_t ev;
    int i;

    if (rc->active && !isnan(rc->t_settled))
        emit_rest(rc); /* the last shot's rest waited for a ball gone unseen: no longer */
    decide_disturbed(rc);

    cr_event_init(&ev, CR_EV_STROKE);
    rc->shot++;
    rc->active = true;
    rc->first_done = false;
    rc->dh_ball = -1;
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
        if (i == CR_BALL_CUE) {
            rc->cue_at_stroke[0] = bs->x;
            rc->cue_at_stroke[1] = bs->y;
        }
        moving = (b->state == B_MOVING || b->state == B_LOST) && !(i == CR_BALL_CUE && !cue_was_moving);
        if (i != CR_BALL_CUE && b->state == B_MOVING && b->nh > 0 && cur_seg(b)->t0 >= t) {
            /* it started after the stroke (hit at once by the cue ball,
             * in the same analysed frame): at rest at the stroke */
            const seg_t *pr = b->nh > 1 ? &b->hist[(b->nh - 2 + NSEG) % NSEG] : NULL;

            moving = pr && !pr->rest && seg_end(b, pr) < t;
            if (pr && pr->rest) {
                bs->x = pr->p[0];
                bs->y = pr->p[1];
            }
        }
        if (i != CR_BALL_CUE && moving && b->state == B_MOVING && b->nh > 1 && b->anchor &&
            b->anc_t >= t - FROZEN_LEAD_S(rc)) {
            /* it had rested a while and started moments before the stroke:
             * set moving through a chain of touching balls the cue ball was
             * frozen to (its start measured a little early), or touched; not
             * a ball still rolling from the last shot */
            const seg_t *pr = &b->hist[(b->nh - 2 + NSEG) % NSEG];

            if (pr->rest && cur_seg(b)->t0 - pr->t0 >= rc->p.resume_s) {
                moving = false;
                bs->x = pr->p[0];
                bs->y = pr->p[1];
            }
        }
        if (b->state == B_REST && b->t_stop > t + 1e-9)
            moving = true;
        /* a ball set moving by nothing seen (a touch, reported as disturbed
         * once it settles, or the picture wavering) is not a ball still
         * rolling from the last shot */
        if (i != CR_BALL_CUE && b->uncaused)
            moving = false;
        /* nor is a ball no one has named: a ball still rolling from the
         * last shot has been followed since, and is named; an unnamed one
         * moving as the cue ball is struck is the shooter's hand or the
         * cue taken for a ball (RULES.md: in doubt, no foul) */
        if (i >= NID)
            moving = false;
        if (i == CR_BALL_CUE && cue_was_moving)
            moving = true;
        if (moving && ev.n_moving < CR_EVENT_MAX_BALLS)
            ev.moving[ev.n_moving++] = i;
        bs->frozen_rails = moving ? 0 : frozen_rails(rc, bs->x, bs->y);
    }
    if (rack_stands(rc, &ev)) {
        /* a new rack: the balls pocketed in the last are back on the table,
         * in it, under tracks the tracker may name only once the break has
         * sent them away (may_return()) */
        for (i = 1; i < NID; i++)
            rc->b[i].down = false;
    }
    return queue_event(rc, &ev);
}

static long last_frame(const cr_recon_t *rc, long a)
{
    long e = a + rc->p.lookahead_frames;

    return e < rc->n_frames ? e : rc->n_frames - 1;
}

/* The earliest sample time that belongs to the motion of segment s: a
 * moving segment begins at a change of the ball's path (a collision, a
 * kink, its start), and samples before it lie on another line; a quarter
 * frame of margin for the change's own timing. */
static double approach_start(const cr_recon_t *rc, const seg_t *s)
{
    if (!s || s->rest || s->n == 0)
        return -INFINITY;
    return s->t0 + 0.25 * rc->dt;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;

    return a < b ? -1 : a > b;
}

/* The median of v[0..n) (n > 0), sorting v. */
static double median_sort(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct {
    int n;
    bool rest; /* at rest before the contact */
    double sig; /* median sample sigma, mm */
    double t[RC_MAX], x[RC_MAX], y[RC_MAX], w[RC_MAX];
} csamp_t;

/* Ball i's SEEN samples with times in [lo, hi], up to the last frame that
 * has arrived, weighted by their sigma: the detections themselves where
 * the tracker gives them (cr_ball_obs_t.raw_x, raw_y), not its smoothed
 * positions, whose windows round a contact's kink into a curve. */
static void contact_samples(cr_recon_t *rc, int i, double lo, double hi, csamp_t *cs)
{
    long k, e = last_frame(rc, rc->next), k0 = frame_from(rc, e, lo, RING - 2);
    double sg[RC_MAX];

    cs->n = 0;
    for (k = k0; k <= e && cs->n < RC_MAX; k++) {
        rframe_t *g = frm(rc, k);
        double sd;

        if (g->t < lo || g->t > hi || g->st[i] != OB_SEEN)
            continue;
        sd = sig(rc, g->s[i]);
        cs->t[cs->n] = g->t;
        cs->x[cs->n] = g->rx[i];
        cs->y[cs->n] = g->ry[i];
        cs->w[cs->n] = 1.0 / (sd * sd);
        sg[cs->n++] = sd;
    }
    cs->sig = rc->p.sigma_floor_mm;
    if (cs->n > 0) {
        qsort(sg, (size_t)cs->n, sizeof(sg[0]), cmp_double);
        cs->sig = sg[cs->n / 2];
    }
}

/* Ball samples cs as one path that is continuous at tc and changes its
 * velocity there: before tc a polynomial (a point for a ball at rest),
 * after tc a polynomial starting from the same point. Returns the weighted
 * squared residual, the position at tc in p; INFINITY with too few samples
 * on either side. */
static double piece_fit(const csamp_t *cs, double tc, double amax, double p[2])
{
    double t[RC_MAX], x[RC_MAX], y[RC_MAX], w[RC_MAX], sse = 0, m11 = 0, m12 = 0, m22 = 0, bx[2] = {0, 0},
           by[2] = {0, 0}, vx = 0, vy = 0, ax = 0, ay = 0;
    int nb = 0, na = 0, k, order;
    bool quad = false;
    seg_t q;

    for (k = 0; k < cs->n; k++) {
        if (cs->t[k] < tc) {
            t[nb] = cs->t[k];
            x[nb] = cs->x[k];
            y[nb] = cs->y[k];
            w[nb++] = cs->w[k];
        }
    }
    order = cs->rest ? 0 : nb >= 6 ? 2 : 1;
    if (nb < order + 1 || nb == cs->n || !poly_fit(t, x, y, w, nb, tc, order, &q))
        return INFINITY;
    if (order == 2 && hypot(q.a[0], q.a[1]) > amax && !poly_fit(t, x, y, w, nb, tc, 1, &q))
        return INFINITY; /* no cloth slows a ball that fast: a line */
    for (k = 0; k < nb; k++) {
        double u = t[k] - tc, ex = x[k] - (q.p[0] + q.v[0] * u + 0.5 * q.a[0] * u * u),
               ey = y[k] - (q.p[1] + q.v[1] * u + 0.5 * q.a[1] * u * u);

        sse += w[k] * (ex * ex + ey * ey);
    }
    p[0] = q.p[0];
    p[1] = q.p[1];
    /* after: p + v u + a u^2 / 2 with p fixed */
    for (k = 0; k < cs->n; k++) {
        double u = cs->t[k] - tc, h = 0.5 * u * u;

        if (u < 0)
            continue;
        na++;
        m11 += cs->w[k] * u * u;
        m12 += cs->w[k] * u * h;
        m22 += cs->w[k] * h * h;
        bx[0] += cs->w[k] * u * (cs->x[k] - p[0]);
        bx[1] += cs->w[k] * h * (cs->x[k] - p[0]);
        by[0] += cs->w[k] * u * (cs->y[k] - p[1]);
        by[1] += cs->w[k] * h * (cs->y[k] - p[1]);
    }
    if (na >= 5 && fabs(m11 * m22 - m12 * m12) > 1e-12 * m11 * m22) {
        double det = m11 * m22 - m12 * m12;

        vx = (bx[0] * m22 - bx[1] * m12) / det;
        ax = (m11 * bx[1] - m12 * bx[0]) / det;
        vy = (by[0] * m22 - by[1] * m12) / det;
        ay = (m11 * by[1] - m12 * by[0]) / det;
        quad = hypot(ax, ay) <= amax;
    }
    if (!quad) {
        if (!(m11 > 0))
            return INFINITY;
        ax = ay = 0;
        vx = bx[0] / m11;
        vy = by[0] / m11;
    }
    for (k = 0; k < cs->n; k++) {
        double u = cs->t[k] - tc, ex, ey;

        if (u < 0)
            continue;
        ex = cs->x[k] - (p[0] + vx * u + 0.5 * ax * u * u);
        ey = cs->y[k] - (p[1] + vy * u + 0.5 * ay * u * u);
        sse += cs->w[k] * (ex * ex + ey * ey);
    }
    return sse;
}

/* Whether ball i has another contact within span of t0: a collision
 * reported (recent_involves()) or a cushion. */
static bool contact_near(const cr_recon_t *rc, int i, double t0, double span)
{
    if (recent_involves(rc, i, t0, span))
        return true;
    for (int r = 0; r < CR_RAIL_COUNT; r++)
        if (rc->b[i].t_cush[r] != 0 && fabs(rc->b[i].t_cush[r] - t0) <= span)
            return true;
    return false;
}

/* Ball j rests on its segment o still, seen up to time t at least, with
 * no change of it waiting to be explained. */
static bool stayed_at_rest(cr_recon_t *rc, int j, const seg_t *o, double t)
{
    int q;

    if (rc->b[j].state != B_REST || cur_seg(&rc->b[j]) != o || frm(rc, last_frame(rc, rc->next))->t < t)
        return false;
    for (q = 0; q < rc->nch; q++)
        if (rc->ch[q].ball == j && !rc->ch[q].done)
            return false;
    return true;
}

/* The last contact of ball i reported before t (a collision kept in the
 * recent list, a cushion), -INFINITY with none. */
static double last_contact(const cr_recon_t *rc, int i, double t)
{
    double last = -INFINITY;

    for (int k = 0; k < rc->n_recent; k++)
        if ((rc->recent[k].a == i || rc->recent[k].b == i) && rc->recent[k].t < t && rc->recent[k].t > last)
            last = rc->recent[k].t;
    for (int r = 0; r < CR_RAIL_COUNT; r++)
        if (rc->b[i].t_cush[r] != 0 && rc->b[i].t_cush[r] < t && rc->b[i].t_cush[r] > last)
            last = rc->b[i].t_cush[r];
    return last;
}

/* The covariance of poly_fit()'s coefficients (p, v, a; the same for x and
 * y) for its fit f of order to the n samples: the inverse of the normal
 * matrix, the sigmas (1 / sqrt(w)) scaled up by the fit's own reduced
 * chi-square when too small. False where the matrix is singular. */
static bool poly_cov(const seg_t *f, const double *t, const double *x, const double *y, const double *w, int n,
                     int order, double cov[3][3])
{
    const int np = order + 1;
    double m[3][3] = {{0}}, chi = 0, ex, ey, scale;

    for (int k = 0; k < n; k++) {
        const double d = t[k] - f->tr, fv[3] = {1.0, d, 0.5 * d * d};

        for (int j = 0; j < np; j++)
            for (int l = 0; l < np; l++)
                m[j][l] += w[k] * fv[j] * fv[l];
        seg_eval(f, t[k], &ex, &ey);
        chi += w[k] * ((x[k] - ex) * (x[k] - ex) + (y[k] - ey) * (y[k] - ey));
    }
    scale = fmax(1.0, chi / (2 * (n - np)));
    memset(cov, 0, sizeof(double) * 9);
    for (int j = 0; j < np; j++) {
        double mc[3][3], e[3] = {0, 0, 0};

        memcpy(mc, m, sizeof(mc));
        e[j] = 1.0;
        if (!cr_vision_solve(mc, e, np))
            return false;
        for (int l = 0; l < np; l++)
            cov[l][j] = e[l] * scale;
    }
    return true;
}

/* Ball samples cs after time from and before lo as one path, fitted at lo
 * (*f), with its coefficients' covariance (cov, poly_cov()): a line, or a
 * parabola where its slowing is told from none and within amax. Told from
 * none: the acceleration's two parameters lower the chi-square by over 2
 * each (Akaike's criterion: over two standard errors). A few samples'
 * noise fits a slowing of hundreds of mm/s^2 that the cloth does not give
 * a rolling ball, and extrapolated over a few frames it puts the ball
 * millimetres off; a line through a sliding ball's samples, slowing by
 * some 2 m/s^2, puts it ahead, by more than the line's own errors say. So
 * cov_q holds the parabola's covariance where one was fitted, else cov: a
 * line's place is known no better than the parabola's where the slowing
 * is not known. False with under four samples: three tell nothing of how
 * well a line or a parabola holds (720p30 clip 04's cue ball three frames
 * after the stroke, sliding and slowing by some 2 m/s^2: its line met the 5
 * 14 ms early, its error said 1.7 ms). */
static bool approach_fit(const csamp_t *cs, double from, double lo, double amax, seg_t *f, double cov[3][3],
                         double cov_q[3][3])
{
    double t[RC_MAX], x[RC_MAX], y[RC_MAX], w[RC_MAX];
    int n = 0;
    bool have_q;

    for (int k = 0; k < cs->n; k++)
        if (cs->t[k] > from && cs->t[k] < lo) {
            t[n] = cs->t[k];
            x[n] = cs->x[k];
            y[n] = cs->y[k];
            w[n++] = cs->w[k];
        }
    if (n < 4)
        return false;
    have_q = poly_fit(t, x, y, w, n, lo, 2, f) && poly_cov(f, t, x, y, w, n, 2, cov_q);
    if (have_q && hypot(f->a[0], f->a[1]) <= amax && hypot(f->a[0], f->a[1]) > 2.0 * sqrt(cov_q[2][2])) {
        memcpy(cov, cov_q, sizeof(double) * 9);
        return true;
    }
    if (!poly_fit(t, x, y, w, n, lo, 1, f) || !poly_cov(f, t, x, y, w, n, 1, cov))
        return false;
    if (!have_q)
        memcpy(cov_q, cov, sizeof(double) * 9);
    return true;
}

static double contact_time(const seg_t *sa, const seg_t *sb, double t0, double t1, double d, bool *frozen,
                           double *dmin, double *tmin);

/* Where a ball at rest (on its segment s[r]) and a moving one (its path
 * as seen before lo: samples cs since its last contact before) come 2R
 * apart, searched over [lo - (hi - lo) / 2, hi]: the contact as the way in
 * says it, unbent by what the balls did after it. Its standard error in
 * *se: the moving ball's place there as the fit knows it (approach_fit():
 * the line's known no better than the parabola's), and the resting one's,
 * over the speed at which they close. NAN where neither or both
 * rest, the paths do not meet there or are touching already at its
 * start. */
static double paths_meet(const cr_recon_t *rc, const int *who, const csamp_t *cs, const seg_t *const *s, double lo,
                         double hi, double *se)
{
    seg_t f[2];
    bool fr;
    double cov[2][3][3], dmin, tmin, tc, p[2][2], v[2][2], dx, dy, closing, u, var[2];
    int r, m;

    if (s[0]->rest == s[1]->rest)
        return NAN;
    r = s[0]->rest ? 0 : 1;
    m = 1 - r;
    f[r] = *s[r];
    if (!approach_fit(&cs[m], last_contact(rc, who[m], lo), lo, rc->p.accel_max_mm_s2, &f[m], cov[0], cov[1]))
        return NAN;
    tc = contact_time(&f[0], &f[1], lo - 0.5 * (hi - lo), hi, 2.0 * rc->R, &fr, &dmin, &tmin);
    if (fr || !isfinite(tc))
        return NAN;
    for (int q = 0; q < 2; q++) {
        seg_eval(&f[q], tc, &p[q][0], &p[q][1]);
        seg_vel(&f[q], tc, &v[q][0], &v[q][1]);
    }
    dx = p[r][0] - p[m][0];
    dy = p[r][1] - p[m][1];
    closing = (v[m][0] * dx + v[m][1] * dy) / fmax(hypot(dx, dy), 1e-9);
    if (!(closing > 0))
        return NAN;
    u = tc - lo;
    for (int q = 0; q < 2; q++) {
        const double fv[3] = {1.0, u, 0.5 * u * u};

        var[q] = 0;
        for (int j = 0; j < 3; j++)
            for (int l = 0; l < 3; l++)
                var[q] += fv[j] * cov[q][j][l] * fv[l];
    }
    *se = sqrt(fmax(var[0], var[1]) + cs[r].sig * cs[r].sig / fmax(1, cs[r].n)) / closing;
    return tc;
}

/* The time of a contact between balls a and b found near t0, from their
 * raw samples: each ball's path is continuous at the contact and changes
 * its velocity there, and there the centres are 2R apart (how far that
 * misses counts against the sample noise). The time that fits both balls'
 * samples best with that holding, on a grid over t0 +- span (2 frames, at
 * least 30 ms: a slow or thin contact is found that late); of the times
 * that fit about as well, the nearest to t0: a thin or slow contact barely
 * changes either path, and the samples then only rule out times. Where
 * one ball rested, the time the moving one's way in reaches it
 * (paths_meet(): its samples before the grid, extrapolated) is weighed in
 * with its standard error, and the time that fits both best is taken
 * where it lies no further from the way in's time than t0 does: a path
 * fitted up to a time after the contact bends to take in what the ball
 * did after it (a slow cut found late stayed late, its fits as good there
 * as at the truth), the way in does not; the samples' fit alone, where a
 * contact of either ball soon after bends it, moves the time away from
 * both (720p30 clip 05's cue ball on the 2 at 141.697 s, the 6 21 ms
 * later: 13 ms late, after the 6). Each
 * ball's samples begin where the motion it had before the span began (a
 * change inside the span is this contact, found early or late) and end
 * 0.1 s after t0. Returns t0 when the samples cannot decide: too few,
 * neither ball moving into the contact, another contact of either ball
 * within the span, a resting ball touching a third (a rack passes the blow
 * on), the best time at the edge of the grid or of the times the samples
 * can judge (one ball's samples after it not come yet), or before the
 * stroke. */
static double refine_contact(cr_recon_t *rc, int a, int b, double t0)
{
    csamp_t cs[2];
    const seg_t *s[2];
    int who[2] = {a, b}, q, g, gb = -1;
    enum { NG = 80 };
    double best = INFINITY, tb = INFINITY, tb_cost = INFINITY, sp, span = fmax(2.0 * rc->dt, 0.03), lim, lim_scale,
           anchor, se = INFINITY, eg[NG + 1];

    for (q = 0; q < 2; q++) {
        /* the motion in effect before the earliest time considered: a
         * change inside the span is this contact, found late or early */
        s[q] = rc->b[who[q]].nh > 0 ? seg_at(&rc->b[who[q]], t0 - span) : NULL;
        if (!s[q])
            return t0;
    }
    if (s[0]->rest && s[1]->rest)
        return t0; /* neither moved into the contact: a push from a stroke or another ball */
    for (q = 0; q < 2; q++) {
        int j;

        /* another contact of either ball inside the span (a close call, a
         * kiss off a cushion): its change is not this one's to take */
        if (contact_near(rc, who[q], t0, span))
            return t0;
        /* a resting ball touching another passes the blow on (a rack): its
         * own start is no two-ball response; unless the other stayed where
         * it rested through the span, as far as seen (nothing passed on:
         * two balls that came to rest side by side, the one struck alone) */
        for (j = 0; j < NB && s[q]->rest; j++) {
            const seg_t *o;

            if (j == a || j == b || rc->b[j].nh == 0 || !on_table_state(rc->b[j].state))
                continue;
            o = seg_at(&rc->b[j], t0 - span);
            if (o->rest && hypot(o->p[0] - s[q]->p[0], o->p[1] - s[q]->p[1]) <= 2.0 * rc->R + rc->p.contact_tol_mm &&
                !stayed_at_rest(rc, j, o, t0 + span))
                return t0;
        }
    }
    for (q = 0; q < 2; q++) {
        cs[q].rest = s[q]->rest;
        contact_samples(rc, who[q], fmax(t0 - 0.2, approach_start(rc, s[q])), t0 + 0.1, &cs[q]);
    }
    sp = hypot(cs[0].sig, cs[1].sig);
    for (int wide = 0; wide < 2; wide++) {
        best = INFINITY;
        gb = -1;
        for (g = 0; g <= NG; g++) {
            double tc = t0 + span * (2.0 * g / NG - 1.0), pa[2], pb[2], dd;

            eg[g] = piece_fit(&cs[0], tc, rc->p.accel_max_mm_s2, pa) + piece_fit(&cs[1], tc, rc->p.accel_max_mm_s2, pb);
            if (!isfinite(eg[g]))
                continue;
            dd = hypot(pa[0] - pb[0], pa[1] - pb[1]) - 2.0 * rc->R;
            eg[g] += dd * dd / (sp * sp);
            if (eg[g] < best) {
                best = eg[g];
                gb = g;
            }
        }
        if (wide || (gb != 0 && gb != NG))
            break;
        /* the best at the grid's edge: the grid twice as wide, unless
         * another contact of either ball lies in it */
        span *= 2.0;
        if (contact_near(rc, a, t0, span) || contact_near(rc, b, t0, span))
            return t0;
    }
    if (gb <= 0 || gb >= NG || !isfinite(eg[gb - 1]) || !isfinite(eg[gb + 1]))
        return t0;
    /* the times the samples do not tell from the best (chi-square within 4,
     * two standard errors, scaled by the fit's own reduced chi-square when
     * the sigmas are too small; a tracker's smoothed positions are not
     * independent): t0 stands if it is one of them, else the nearest one */
    lim_scale = 1.0 / fmax(1.0, best / fmax(1, cs[0].n + cs[1].n - 7));
    lim = best + 4.0 / lim_scale;
    for (g = 0; g <= NG; g++) {
        double tc = t0 + span * (2.0 * g / NG - 1.0);

        if (isfinite(eg[g]) && eg[g] <= lim && fabs(tc - t0) < fabs(tb - t0))
            tb = tc;
    }
    /* where one ball rested, the way in weighed in, each by its error: the
     * best time then, unless it lies further from the way in's time than
     * t0 does */
    if (isfinite(anchor = paths_meet(rc, who, cs, s, t0 - span, t0 + span, &se))) {
        double tw = NAN;

        for (g = 0; g <= NG; g++) {
            double tc = t0 + span * (2.0 * g / NG - 1.0), cost;

            if (!isfinite(eg[g]))
                continue;
            cost = eg[g] * lim_scale + (tc - anchor) * (tc - anchor) / (se * se);
            if (cost < tb_cost) {
                tb_cost = cost;
                tw = tc;
            }
        }
        if (fabs(tw - anchor) <= fabs(t0 - anchor))
            tb = tw;
    }
    if (rc->active && tb <= rc->t_stroke)
        return t0;
    return tb;
}

/* Ball i, set moving with no cause seen (dist_pending), is in a contact at
 * t: if by then it had not got disturbed_min_mm (and three sigmas) from
 * where it started, what started it was its fit wavering (a ball passing
 * close, the pocket's shade) and its motion is the contact's: not a
 * touched ball, wherever it goes now. */
static void forgive_waver(cr_recon_t *rc, int i, double t)
{
    rball_t *b = &rc->b[i];
    double x, y;

    if (i < 0 || i >= NB || !b->dist_pending || !(t > b->dist_t))
        return;
    ball_pos_at(rc, i, t - 1e-6, &x, &y);
    if (hypot(x - b->dist_x, y - b->dist_y) < fmax(rc->p.disturbed_min_mm, 3.0 * hypot(b->dist_sig, b->sig_run)))
        b->dist_pending = false;
}

static bool path_before(cr_recon_t *rc, int k, double t, seg_t *out);

/* Where moving ball i was at t, from its samples up to t (path_before()):
 * its fitted segment may run over a contact at t and be bent by the
 * samples after it. Leaves (*x, *y) alone for a resting ball or when the
 * samples do not give a path. */
static void path_at(cr_recon_t *rc, int i, double t, double *x, double *y)
{
    const seg_t *s = rc->b[i].nh > 0 ? seg_at(&rc->b[i], t - 1e-6) : NULL;
    seg_t pb;

    if (s && !s->rest && path_before(rc, i, t, &pb) && pb.t0 >= s->t0 - 0.5 * rc->dt)
        seg_eval(&pb, t, x, y);
}

/* A contact in the shot timed before its stroke: the stroke, dated from
 * the cue ball's onset, comes late when the cue ball was a few millimetres
 * from the ball it hit (both start within a frame), and a contact before
 * its stroke belongs to no shot. While the stroke is still queued it is
 * moved back to the contact (a microsecond before it); else the contact is
 * put just after it. Returns the contact's time. */
static double after_stroke(cr_recon_t *rc, double t)
{
    int q;

    if (!rc->active || t > rc->t_stroke || t < rc->t_stroke - STROKE_LATE_S(rc))
        return t;
    for (q = 0; q < rc->nbatch + rc->nq; q++) {
        cr_event_t *e = q < rc->nbatch ? &rc->batch[q] : &rc->q[q - rc->nbatch];

        if (e->type == CR_EV_STROKE && e->shot == rc->shot) {
            e->t = t - 1e-6;
            rc->t_stroke = e->t;
            return t;
        }
    }
    return rc->t_stroke + 1e-6;
}

/* A contact of ball i reported at t: a rolling ball that sped up with no
 * cause before it (kink_pending) has turned again since, so where it
 * comes to rest says nothing of its reach from that kink (the kink's
 * change was not always listed: a cushion met rolling along it is found
 * from its approach, not from a change of course). */
static void course_turned(cr_recon_t *rc, int i, double t)
{
    if (i >= 0 && i < NB && rc->b[i].kink_pending && t > rc->b[i].kink_t + rc->dt)
        rc->b[i].kink_pending = false;
}

/* again: a second contact of the pair moments after one reported (its time
 * inferred, not refined; only the same contact twice is dropped) */
static int emit_collision_ex(cr_recon_t *rc, int a, int b, double t, double conf, bool again)
{
    cr_event_t ev;
    double ax, ay, bx, by, d;

    if (conf >= 0.9 && !again)
        t = refine_contact(rc, a, b, t);
    t = after_stroke(rc, t);
    if (recent_has(rc, a, b, t, again ? 0.002 : 3.0 * rc->dt))
        return CR_OK;
    if (b == CR_BALL_CUE) {
        int k = a;
        a = b;
        b = k;
    }
    ball_pos_at(rc, a, t - 1e-6, &ax, &ay);
    ball_pos_at(rc, b, t - 1e-6, &bx, &by);
    path_at(rc, a, t, &ax, &ay);
    path_at(rc, b, t, &bx, &by);
    d = hypot(bx - ax, by - ay);
    cr_event_init(&ev, CR_EV_COLLISION);
    ev.t = t;
    ev.shot = ev_shot_for_contact(rc);
    ev.a = a;
    ev.b = b;
    ev.x = d > 1e-9 ? ax + (bx - ax) * rc->R / d : 0.5 * (ax + bx);
    ev.y = d > 1e-9 ? ay + (by - ay) * rc->R / d : 0.5 * (ay + by);
    if (a == CR_BALL_CUE && rc->active && rc->first_done && ev.shot == rc->shot && t < rc->t_first + 2.0 * rc->dt) {
        /* a cue-ball contact found after the first one went out, yet as
         * early (or earlier): the order of the two is in doubt */
        conf = fmin(conf, t < rc->t_first ? 0.5 : 0.7);
    }
    ev.confidence = conf;
    recent_add(rc, a, b, t, ev.x, ev.y);
    forgive_waver(rc, a, t);
    forgive_waver(rc, b, t);
    course_turned(rc, a, t);
    course_turned(rc, b, t);
    return queue_event(rc, &ev);
}

static int emit_collision(cr_recon_t *rc, int a, int b, double t, double conf)
{
    return emit_collision_ex(rc, a, b, t, conf, false);
}

static int emit_cushion_conf(cr_recon_t *rc, int ball, cr_rail_t rail, double t, double x, double y, double conf)
{
    cr_event_t ev;
    rball_t *b = &rc->b[ball];

    /* the same contact, seen twice: against the last two reported (one
     * found by another rule may come between, later in time but reported
     * earlier: 1080p60 clip 05's 125.51 s, two foot-rail lines 5.5 ms apart
     * with a third 75 ms after them reported between) */
    if ((b->t_cush[rail] != 0 && fabs(t - b->t_cush[rail]) < 4.0 * rc->dt) ||
        (b->t_cush_prev[rail] != 0 && fabs(t - b->t_cush_prev[rail]) < 4.0 * rc->dt))
        return CR_OK;
    b->t_cush_prev[rail] = b->t_cush[rail];
    b->t_cush[rail] = t;
    course_turned(rc, ball, t);
    cr_event_init(&ev, CR_EV_CUSHION);
    ev.t = t;
    ev.shot = ev_shot_for_contact(rc);
    ev.ball = ball;
    ev.rail = rail;
    ev.x = x;
    ev.y = y;
    ev.confidence = conf;
    return queue_event(rc, &ev);
}

static int emit_cushion(cr_recon_t *rc, int ball, cr_rail_t rail, double t, double x, double y)
{
    return emit_cushion_conf(rc, ball, rail, t, x, y, 1.0);
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

/* Distance from the ball centre (x, y) to the cushion it could touch on
 * rail r: the nose line along the rail, the jaw points and facings in the
 * pocket mouths (cr_table_cushion_distance). A contact is where it reaches
 * R, on the nose or on a jaw. */
static double cush_dist(const cr_recon_t *rc, int r, double x, double y)
{
    cr_point_t p = {x, y};

    return cr_table_cushion_distance(&rc->tab, (cr_rail_t)r, p);
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
                bool side = cr_pocket_is_side((cr_pocket_t)p);
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

/* Whether (x, y) is through pocket p's mouth (cr_table_past_mouth()). */
static bool past_mouth(const cr_recon_t *rc, int p, double x, double y)
{
    return cr_table_past_mouth(&rc->tab, (cr_pocket_t)p, x, y);
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

/* When segment s's course in [t0, t1] touched a cushion piece (nose, jaw
 * point or facing) of a rail that ends at pocket p: the first time its
 * centre is within R of one, else the time it came nearest, if within R +
 * slack (the kink's contact_tol; 0 for a course only inferred, where only
 * overlapping a piece says it was met); *rail gets that piece's rail. NaN
 * when it never came that near. */
static double jaw_time(const cr_recon_t *rc, const seg_t *s, int p, double t0, double t1, double slack, int *rail)
{
    const int N = 64;
    cr_point_t c = cr_table_pocket_point(&rc->tab, (cr_pocket_t)p);
    int rails[2], nr = 0, k, q;
    double best = INFINITY, tb = NAN;

    rails[nr++] = c.y > 0 ? CR_RAIL_RIGHT : CR_RAIL_LEFT;
    if (p != CR_POCKET_SIDE_LEFT && p != CR_POCKET_SIDE_RIGHT)
        rails[nr++] = c.x > 0 ? CR_RAIL_FOOT : CR_RAIL_HEAD;
    for (k = 0; k <= N; k++) {
        double t = t0 + (t1 - t0) * k / N, x, y;

        seg_eval(s, t, &x, &y);
        for (q = 0; q < nr; q++) {
            double d = cush_dist(rc, rails[q], x, y);

            if (d < best) {
                best = d;
                tb = t;
                *rail = rails[q];
            }
        }
        if (best <= rc->R)
            return tb;
    }
    return best <= rc->R + slack ? tb : NAN;
}

/* ------------------------------------------------------------ lifecycle */

/* A slot that holds no ball: nothing brushed it, no pocket on a course. */
static void clear_ball(rball_t *b)
{
    memset(b, 0, sizeof(*b));
    b->t_brush = -INFINITY;
    b->nudge_t = -INFINITY;
    b->lost_pk = -1;
}

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
    rc->dh_ball = -1;
    rc->t_settled = NAN;
    rc->t_back = NAN;
    rc->roll_med = NAN;
    for (int k = 0; k < NB; k++) {
        rc->spare_track[k] = rc->spare_id[k] = rc->spare_named[k] = -1;
        rc->spare_since[k] = 0.0;
        clear_ball(&rc->b[k]);
    }
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

static change_t *add_change(cr_recon_t *rc, int kind, int ball, double t, const seg_t *before, const double vout[2],
                            double x, double y)
{
    change_t *c;


    if (rc->nch >= MAX_CH)
        return NULL;
    c = &rc->ch[rc->nch++];
    if (rc->b[ball].kink_pending && t > rc->b[ball].kink_t + rc->dt)
        rc->b[ball].kink_pending = false; /* its course changed again: the reach is not known */
    c->kind = kind;
    c->ball = ball;
    c->t = t;
    c->before = *before;
    c->vout[0] = vout[0];
    c->vout[1] = vout[1];
    c->x = x;
    c->y = y;
    c->mv[0] = c->mv[1] = 0;
    c->creep = false;
    c->drift = false;
    c->done = false;
    return c;
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


/* Whether ball i, that jumped to (x, y) at frame a and stays there, can
 * have been stopped by a ball it hit: one resting within reach of (x, y)
 * that is moving by frame e (a stun shot on a close ball stops the cue
 * ball within a frame, like a hand putting it down). */
static bool stopped_by_ball(cr_recon_t *rc, int i, long a, long e, double x, double y)
{
    rframe_t *g = frm(rc, e);
    int j;

    for (j = 0; j < NB; j++) {
        rball_t *bj = &rc->b[j];
        double rx, ry;

        if (j == i || g->st[j] != OB_SEEN)
            continue;
        if (bj->state == B_REST) {
            rx = bj->rx;
            ry = bj->ry;
        } else if (bj->state == B_MOVING && bj->nh > 0 && cur_seg(bj)->t0 >= frm(rc, a)->t - 3.0 * rc->dt) {
            rx = bj->anc_x;
            ry = bj->anc_y;
        } else {
            continue;
        }
        if (hypot(rx - x, ry - y) <= 2.0 * rc->R + rc->p.contact_tol_mm &&
            hypot(g->x[j] - rx, g->y[j] - ry) > fmax(rc->p.onset_min_mm, rc->p.onset_k * sig(rc, g->s[j])))
            return true;
    }
    return false;
}

/* Whether another ball was seen, in frame a or the one before, within
 * contact of ball i's rest (two radii, the contact slack, and as far as
 * that ball went between the two frames): a ball that could have struck
 * it (a thin cut moves a ball a few millimetres within a frame or two). */
static bool ball_beside(cr_recon_t *rc, int i, long a)
{
    const rball_t *b = &rc->b[i];
    const rframe_t *f, *g;

    if (a < 1)
        return false;
    f = frm(rc, a), g = frm(rc, a - 1);
    for (int j = 0; j < NB; j++) {
        const bool both = f->st[j] == OB_SEEN && g->st[j] == OB_SEEN;
        const double reach =
            2.0 * rc->R + rc->p.contact_tol_mm + (both ? dist2(f->x[j], f->y[j], g->x[j], g->y[j]) : 0.0);

        if (j != i && ((f->st[j] == OB_SEEN && dist2(f->x[j], f->y[j], b->rx, b->ry) < reach) ||
                       (g->st[j] == OB_SEEN && dist2(g->x[j], g->y[j], b->rx, b->ry) < reach)))
            return true;
    }
    return false;
}

/* Mean of ball i's samples in frames a..e seen, weighted by their sigmas;
 * returns the weight sum (0: none seen). */
static double seen_mean(cr_recon_t *rc, int i, long a, long e, double *x, double *y)
{
    double sw = 0, sx = 0, sy = 0;
    long k;

    for (k = a; k <= e; k++) {
        rframe_t *g = frm(rc, k);
        double wk;

        if (g->st[i] != OB_SEEN)
            continue;
        wk = 1.0 / (sig(rc, g->s[i]) * sig(rc, g->s[i]));
        sw += wk, sx += wk * g->x[i], sy += wk * g->y[i];
    }
    if (sw > 0)
        *x = sx / sw, *y = sy / sw;
    return sw;
}

/* Is ball i's sample at frame a where its samples a+1..e are (within
 * three of their sigmas and onset_min_mm): already at rest there? */
static bool settled_at(cr_recon_t *rc, int i, long a, long e)
{
    rframe_t *f = frm(rc, a);
    double mx = 0, my = 0, sw = seen_mean(rc, i, a + 1, e, &mx, &my), tol;
    long k;

    if (!(sw > 0) || f->st[i] != OB_SEEN)
        return false;
    tol = fmax(rc->p.onset_min_mm, 3.0 * hypot(sig(rc, f->s[i]), 1.0 / sqrt(sw)));
    for (k = a + 1; k <= e; k++) {
        rframe_t *g = frm(rc, k);

        if (g->st[i] == OB_SEEN && dist2(g->x[i], g->y[i], mx, my) > fmax(rc->p.onset_min_mm, 3.0 * sig(rc, g->s[i])))
            return false;
    }
    return dist2(f->x[i], f->y[i], mx, my) <= tol;
}

/* Ball i rests from frame a (time t) at the mean of its samples a..e, by
 * their sigmas: a new rest, no event. */
static void reseat(cr_recon_t *rc, int i, long a, long e, double t)
{
    rball_t *b = &rc->b[i];
    seg_t m;

    if (!(seen_mean(rc, i, a, e, &b->rx, &b->ry) > 0))
        return;
    b->rw = (double)(e - a + 1);
    b->scat2 = 0.0;
    rest_seg(&m, t - 0.5 * rc->dt, b->rx, b->ry);
    push_seg(b, &m);
    b->last_seen = a;
}

static void follow_blow(cr_recon_t *rc, int i, double t_now);

/* Ball i went from the table unseen, last seen at t_seen: in a shot, an
 * object ball, with the wait on, it is looked for before the rest
 * (unseen_wait()). */
static void mark_unseen(cr_recon_t *rc, int i, double t_seen)
{
    rball_t *b = &rc->b[i];

    if (!rc->active || i == CR_BALL_CUE || i >= NID || !(rc->p.unseen_wait_s > 0))
        return;
    b->unseen = true;
    b->unseen_shot = rc->shot;
    b->t_unseen = t_seen;
}

/* Ball i rests at (rx, ry): another ball seen moving at frame a (or
 * between frames a - 1 and a) passed within reach of it, close enough to
 * have struck it. Between two sightings a ball that struck it went along
 * a V whose vertex is 2R from its centre; the chord between the sightings
 * lies at most half the chord's length beyond that vertex. */
static int brusher(cr_recon_t *rc, int i, long a, double *hx, double *hy)
{
    const rball_t *b = &rc->b[i];
    const rframe_t *f = frm(rc, a), *g = a > 0 && frame_ok(rc, a - 1) ? frm(rc, a - 1) : NULL;
    int j;

    for (j = 0; j < NB; j++) {
        double ax, ay, dx, dy, L, u, d, reach;

        if (j == i || f->st[j] != OB_SEEN)
            continue;
        ax = f->x[j];
        ay = f->y[j];
        dx = dy = 0.0;
        if (g && g->st[j] == OB_SEEN) {
            ax = g->x[j];
            ay = g->y[j];
            dx = f->x[j] - ax;
            dy = f->y[j] - ay;
        }
        L = hypot(dx, dy);
        if (rc->b[j].state != B_MOVING && L < 3.0 * sig(rc, f->s[j]))
            continue; /* resting beside it (a rack's neighbour) */
        u = L > 0 ? fmax(0.0, fmin(1.0, ((b->rx - ax) * dx + (b->ry - ay) * dy) / (L * L))) : 0.0;
        d = hypot(ax + u * dx - b->rx, ay + u * dy - b->ry);
        reach = 2.0 * rc->R + 0.5 * L + fmax(10.0, 3.0 * hypot(sig(rc, f->s[j]), sig(rc, f->s[i])));
        if (d <= reach) {
            *hx = ax + u * dx;
            *hy = ay + u * dy;
            return j;
        }
    }
    return -1;
}

static bool brushed_at(cr_recon_t *rc, int i, long a)
{
    double hx, hy;

    return brusher(rc, i, a, &hx, &hy) >= 0;
}

/* Whether ball b's watch for a gentle push (nudged()), opened when a
 * moving ball came within reach in this shot after it came to rest, still
 * runs at time t. */
static bool nudge_open(const cr_recon_t *rc, const rball_t *b, double t)
{
    return b->nudge_t >= rc->t_stroke && b->nudge_t > b->t_stop && t - b->nudge_t <= NUDGE_S;
}

/* Resting ball i (sigma s) at frame a, in a shot: when a moving ball is
 * within reach of it (brusher()), opens its watch for a gentle push
 * (nudge_*, for nudged()), unless open (not moments after it stopped: a
 * ball creeps its last millimetres, the one that struck it still beside
 * it); notes when that ball's centre first came 2R from the rest, on the
 * chord between its last two sightings (the contact, as the striker's way
 * in dates it), and where it came nearest. Returns whether any ball was
 * within reach. */
static bool watch_nudge(cr_recon_t *rc, int i, long a, double s)
{
    rball_t *b = &rc->b[i];
    const rframe_t *f = frm(rc, a), *g;
    double hx, hy, u;
    int j = brusher(rc, i, a, &hx, &hy);

    if (j < 0 || rc->b[j].state != B_MOVING)
        return j >= 0;
    if (!nudge_open(rc, b, f->t) && f->t - b->t_stop >= rc->p.resume_s) {
        b->nudge_t = f->t;
        b->nudge_k = a;
        b->nudge_r[0] = b->rx;
        b->nudge_r[1] = b->ry;
        b->nudge_w = fmax(b->rw, 1.0);
        b->nudge_s = s;
        b->nudge_tc = NAN;
    }
    if (isnan(b->nudge_tc) && a > 0 && frame_ok(rc, a - 1) && (g = frm(rc, a - 1))->st[j] == OB_SEEN &&
        isfinite(u = cr_vision_reach_time(g->x[j], g->y[j], f->x[j] - g->x[j], f->y[j] - g->y[j], b->rx, b->ry,
                                          2.0 * rc->R)) &&
        u <= 1)
        b->nudge_tc = g->t + u * (f->t - g->t);
    if (b->nudge_t == f->t || hypot(hx - b->rx, hy - b->ry) < b->nudge_hd) {
        b->nudge_h[0] = hx;
        b->nudge_h[1] = hy;
        b->nudge_hd = hypot(hx - b->rx, hy - b->ry);
    }
    return true;
}

/* Whether resting ball i, brushed at nudge_t, has been pushed off its
 * rest by frame a too gently for one sample to show (a ball met at a few
 * centimetres a second rolls a few millimetres: each sample within the
 * onset threshold, and the running rest follows it): the mean of its
 * last NUDGE_M samples, all after the brushing ball came 2R from it (one
 * pushed harder shows in its samples by then), lies off where it rested by
 * onset_k of that mean's standard errors (and onset_min_mm), away from
 * the ball that brushed it (a blow pushes along the line of centres; two
 * balls' fits side by side lean toward each other). Only where the
 * brushing ball's centre was seen to come 2R from the rest (nudge_tc):
 * that is its start, in *t_on; the way it went in u. */
static bool nudged(cr_recon_t *rc, int i, long a, double *t_on, double u[2])
{
    const rball_t *b = &rc->b[i];
    const double *r = b->nudge_r;
    double mx = 0, my = 0, d, h, se;
    long k, k0 = a - NUDGE_M + 1;
    int m = 0;

    if (!(nudge_open(rc, b, frm(rc, a)->t) && isfinite(b->nudge_tc) && k0 >= b->nudge_k && frame_ok(rc, k0) &&
          frm(rc, k0)->t >= b->nudge_tc))
        return false;
    for (k = k0; k <= a; k++)
        if (frame_ok(rc, k) && frm(rc, k)->st[i] == OB_SEEN) {
            mx += frm(rc, k)->x[i];
            my += frm(rc, k)->y[i];
            m++;
        }
    if (m < NUDGE_M - 1)
        return false;
    mx = mx / m - r[0];
    my = my / m - r[1];
    d = hypot(mx, my);
    se = b->nudge_s * sqrt(1.0 / m + 1.0 / b->nudge_w);
    h = hypot(r[0] - b->nudge_h[0], r[1] - b->nudge_h[1]);
    if (d <= fmax(rc->p.onset_min_mm, rc->p.onset_k * se) || h <= 0 ||
        (mx * (r[0] - b->nudge_h[0]) + my * (r[1] - b->nudge_h[1])) / (d * h) < NUDGE_COS)
        return false;
    u[0] = mx / d;
    u[1] = my / d;
    *t_on = fmin(b->nudge_tc, frm(rc, a)->t);
    return true;
}

/* A resting ball at frame a. */
static void analyse_rest(cr_recon_t *rc, int i, long a, int *n_reloc, bool *cue_placed, double *cue_xy)
{
    rball_t *b = &rc->b[i];
    rframe_t *f = frm(rc, a);
    /* the sample's sigma, or, after 30 samples at this rest, the scatter
     * seen there when it is clearly larger (by 30 %: three standard errors
     * of a mean square over some 40 samples): a ball of the cloth's colour
     * under the cue, whose fits waver by more than they say; per axis, as
     * the sigma */
    double s = sig(rc, f->s[i]), sc = b->rw >= 30 ? sqrt(0.5 * b->scat2) : 0.0;
    double thr, dev, px, py, vx, vy, sp, t_on, t_nudge = NAN, u_nudge[2] = {0, 0};
    long k, e = last_frame(rc, a);
    int n;
    bool beyond, nudge;
    seg_t before, m;

    if (sc > 1.3 * s)
        s = sc;
    thr = fmax(rc->p.onset_min_mm, rc->p.onset_k * s * sqrt(1.0 + 1.0 / fmax(b->rw, 1.0)));
    if (rc->active && watch_nudge(rc, i, a, s))
        b->t_brush = f->t;

    if (f->st[i] == OB_HIDDEN && frame_ok(rc, b->last_seen) && f->t - frm(rc, b->last_seen)->t >= HUNG_UNSEEN_S) {
        /* at rest past the line between a pocket's jaw points, then not
         * seen: it dropped (RULES.md G7; the tracker holds a ball it lost
         * at rest where it was, as under a hand) */
        int p = near_pocket(rc, b->rx, b->ry, rc->R, NULL);

        if (p >= 0 && past_mouth(rc, p, b->rx, b->ry)) {
            cr_event_t ev;

            cr_event_init(&ev, CR_EV_POCKET);
            ev.t = frm(rc, b->last_seen)->t + 0.5 * rc->dt;
            ev.shot = rc->active ? rc->shot : -1;
            ev.ball = i;
            ev.pocket = (cr_pocket_t)p;
            queue_event(rc, &ev);
            b->state = B_GONE;
            b->t_gone = ev.t;
            return;
        }
    }
    if (f->st[i] == OB_HIDDEN || f->st[i] == OB_NONE)
        return;
    if (f->st[i] == OB_GONE) {
        /* vanished at rest: dropped from a pocket lip (at rest past the
         * line between the jaw points, as a hung ball; one resting on the
         * bed in front of the mouth has nothing to drop into), or lifted,
         * or no longer seen (a ball of the cloth's colour) */
        int pk = near_pocket(rc, b->rx, b->ry, rc->R, NULL);

        for (k = a + 1; k <= e; k++)
            if (frm(rc, k)->st[i] == OB_SEEN)
                return; /* a dropout */
        if (b->blow_on && rc->active && b->blow_shot == rc->shot && !(pk >= 0 && past_mouth(rc, pk, b->rx, b->ry))) {
            follow_blow(rc, i, f->t);
            return;
        }
        if (pk >= 0 && past_mouth(rc, pk, b->rx, b->ry)) {
            cr_event_t ev;
            int rail;

            cr_event_init(&ev, CR_EV_POCKET);
            ev.t = f->t - 0.5 * rc->dt;
            ev.shot = rc->active ? rc->shot : -1;
            ev.ball = i;
            ev.pocket = (cr_pocket_t)near_pocket(rc, b->rx, b->ry, rc->R, &rail);
            queue_event(rc, &ev);
            b->down = true;
        } else if (rc->active && b->t_brush >= rc->t_stroke) {
            /* gone from its rest, its going not seen, as a moving ball
             * passed close enough to have struck it: struck unseen (one
             * nothing came near did not move: it is only not seen) */
            mark_unseen(rc, i, frame_ok(rc, b->last_seen) ? frm(rc, b->last_seen)->t : f->t);
        }
        b->state = B_GONE;
        return;
    }
    dev = dist2(f->x[i], f->y[i], b->rx, b->ry);
    if (dev <= thr && e > a && frm(rc, e)->st[i] == OB_SEEN && rc->active && i != CR_BALL_CUE) {
        /* an object ball hit late in the frame interval has moved little
         * by frame a: when the lookahead is clearly away and frame a is
         * already 3 sigma that way, it started before a (decided a frame
         * sooner; between shots balls are put down, not hit) */
        rframe_t *g = frm(rc, e);
        double de = dist2(g->x[i], g->y[i], b->rx, b->ry);

        if (de > thr) {
            double ux = (g->x[i] - b->rx) / de, uy = (g->y[i] - b->ry) / de;

            if ((f->x[i] - b->rx) * ux + (f->y[i] - b->ry) * uy > 3.0 * s * sqrt(1.0 + 1.0 / fmax(b->rw, 1.0)))
                dev = thr + 1e-9; /* an onset at a */
        }
    }
    /* pushed off too gently for one sample to show: an onset now */
    nudge = dev <= thr && rc->active && nudged(rc, i, a, &t_nudge, u_nudge);
    if (dev <= thr && !nudge) {
        double w = b->rw < 50 ? b->rw + 1 : 50;

        /* the mean square over the rest so far, then a running one (the
         * first samples, where the ball may still creep, weigh little once
         * thirty more are in) */
        b->scat2 = b->rw < 2 ? dev * dev : b->scat2 + (dev * dev - b->scat2) / fmin(w, 40.0);
        b->rx += (f->x[i] - b->rx) / w;
        b->ry += (f->y[i] - b->ry) / w;
        b->rw = w;
        cur_seg(b)->p[0] = b->rx;
        cur_seg(b)->p[1] = b->ry;
        b->last_seen = a;
        if (b->blow_on && f->t > b->blow_t + 3.0 * rc->dt)
            b->blow_on = false; /* still seen where it rested: the blow did not send it off */
        return;
    }
    /* confirm with the lookahead */
    for (k = a + 1; k <= e && !nudge; k++) {
        rframe_t *g = frm(rc, k);

        if (g->st[i] == OB_SEEN && dist2(g->x[i], g->y[i], b->rx, b->ry) <= thr)
            return; /* an outlier */
    }
    n = line_fit(rc, i, a, e, f->t, &px, &py, &vx, &vy);
    sp = hypot(vx, vy);
    /* beyond the noise of the sample after (a blurred jump frame has a large sigma) */
    beyond = e > a && frm(rc, e)->st[i] == OB_SEEN &&
             dev > 3.0 * fmax(rc->p.onset_min_mm, rc->p.onset_k * sig(rc, frm(rc, e)->s[i]));
    if (((beyond && i != CR_BALL_CUE && dev > 2.0 * rc->p.accel_max_mm_s2 * rc->dt * rc->dt && !brushed_at(rc, i, a)) ||
         (f->rf[i] && !rc->active && (dev <= 4.0 * rc->p.accel_max_mm_s2 * rc->dt * rc->dt || !beyond) &&
          !ball_beside(rc, i, a))) &&
        b->last_seen == a - 1 && sp * rc->dt < thr && dev <= 2.0 * rc->R && settled_at(rc, i, a, e) &&
        !stopped_by_ball(rc, i, a, e, f->x[i], f->y[i])) {
        /* seen at rest in the frame before and already at its new rest in
         * this one: the move took under a frame, and a ball that stops that
         * fast (4 times accel_max over the interval) was stopped by a ball
         * (none is here) or held, and a hand over it would have hidden it:
         * it is the fit that moved (a ball whose colour is near the
         * cloth's has two likely outlines), not the ball; unless a moving
         * ball came within reach of it in this frame interval (brushed_at()):
         * struck, its first step can look like that, for the two touching
         * balls' fits pull on each other (1080p120 clip 01's 3, cut by the
         * cue ball: 9.7 mm in the contact frame, 0.9 mm in the next, the
         * one frame of look-ahead, then 6.5 mm a frame). Its rest is where
         * it is now, and nothing started. Not the cue ball (put down by
         * hand between shots; a stun from close by within one). So too a
         * smaller step, of any ball, between shots, when the tracker,
         * whose look-ahead sees it at rest at the new place, says its fit
         * moved (refit), up to a hand's jump (below), and no ball is beside
         * it: 1080p60 clip 09's resting cue ball, its outline fit two
         * places 3 mm apart, refitted as a hand came for it, was taken for
         * a stroke. A larger refitted step too while it lies within the
         * noise of the sample after (not beyond): seen at rest in both
         * frames, it would have stopped from over 600 mm/s within a frame
         * (1080p60 clip 03's green 6, refitted 10 mm, was called a touched
         * ball). Not in a shot: at 30 fps a ball struck thin moves a few
         * millimetres within a frame and stops, and the striker need not be
         * seen beside it */
        reseat(rc, i, a, e, f->t);
        return;
    }
    if (beyond && dev > 4.0 * rc->p.accel_max_mm_s2 * rc->dt * rc->dt && sp * rc->dt < thr &&
        (!rc->active || dev > 2.0 * rc->R) && !stopped_by_ball(rc, i, a, e, f->x[i], f->y[i])) {
        /* jumped well beyond the noise (of the sample after: a blurred
         * jump frame has a large sigma) in one frame and stays put: a ball
         * that fast (dev / dt) would need over 4 accel_max to stop within a
         * frame, so no blow did this; it was put there by hand (or
         * re-racked). During a shot another ball can stop it that fast
         * (a stun shot from close by): there only a jump over 2R is a
         * hand. Its new rest: the mean of the samples there, by their
         * sigmas (the first is often blurred) */
        seen_mean(rc, i, a, e, &px, &py);
        (*n_reloc)++;
        if (i == CR_BALL_CUE) {
            *cue_placed = true;
            cue_xy[0] = px;
            cue_xy[1] = py;
        }
        b->rx = px;
        b->ry = py;
        b->rw = (double)(e - a + 1);
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
    /* a sample further from the rest than its fitted speed carries it
     * since the last frame that saw it there (plus the noise) jumped: a
     * fit that moved (the cue over the ball) did not start before that
     * frame, though its tiny speed puts the start far back. A ball that
     * starts slowly is seen at rest, within the noise, after it started:
     * its fit alone dates it */
    if (b->last_seen < a && frame_ok(rc, b->last_seen) && t_on < frm(rc, b->last_seen)->t &&
        dev > sp * (f->t - frm(rc, b->last_seen)->t) + thr)
        t_on = frm(rc, b->last_seen)->t;
    if (nudge) {
        /* from the rest as it was when it was brushed: the running one
         * has followed the slow start */
        t_on = t_nudge;
        b->rx = b->nudge_r[0];
        b->ry = b->nudge_r[1];
        cur_seg(b)->p[0] = b->rx;
        cur_seg(b)->p[1] = b->ry;
    }
    before = *cur_seg(b);
    b->blow_on = false; /* seen to move */
    {
        double vo[2] = {vx, vy};

        /* a ball that stopped moments ago and goes on the same way was creeping */
        if (!nudge && b->t_stop > 0 && t_on - b->t_stop < rc->p.resume_s && dev > 0 &&
            ((f->x[i] - b->rx) * b->dir[0] + (f->y[i] - b->ry) * b->dir[1]) / dev > 0.5 && sp < 200.0) {
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
        /* a new start, unless it rested only moments (a ball that
         * wavered with nothing to start it and goes on wavering is still
         * moving with nothing to start it) */
        if (!(b->uncaused && t_on - b->t_stop < rc->p.resume_s))
            b->uncaused = false;
        add_change(rc, CH_ONSET, i, t_on, &before, vo, b->rx, b->ry);
        if (rc->nch > 0 && rc->ch[rc->nch - 1].ball == i && (dev > 0 || nudge)) {
            rc->ch[rc->nch - 1].mv[0] = nudge ? u_nudge[0] : (f->x[i] - b->rx) / dev;
            rc->ch[rc->nch - 1].mv[1] = nudge ? u_nudge[1] : (f->y[i] - b->ry) / dev;
            rc->ch[rc->nch - 1].creep = b->t_stop > 0 && t_on - b->t_stop < rc->p.resume_s && sp < 200.0;
        }
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

/* Whether ball i, over its current motion's samples of the last two
 * still_s up to frame a, went out and came back: a ball turned back by a
 * cushion (or a ball) at low speed is still for an instant only, and about
 * the turn its samples' halves agree as a still ball's do. Some sample lies
 * further from the first than the last does, by still_mm and twice the
 * noise of a difference (sigma ss), and as far from the last: it went
 * beyond where it ends (a ball slowing to a stop never does). */
static bool turned_back(cr_recon_t *rc, int i, long a, double ss)
{
    const double t_a = frm(rc, a)->t, m = rc->p.still_mm + 2.0 * sqrt(2.0) * ss;
    double xs[64], ys[64], chord;
    int n = 0, k;
    long j;

    for (j = a; j >= rc->b[i].seg_from && frame_ok(rc, j) && n < 64; j--) {
        const rframe_t *f = frm(rc, j);

        if (t_a - f->t > 2.0 * rc->p.still_s + 1e-9)
            break;
        if (f->st[i] != OB_SEEN)
            continue;
        xs[n] = f->x[i];
        ys[n] = f->y[i];
        n++;
    }
    if (n < 3)
        return false;
    /* newest first: xs[0] is the last sample, xs[n - 1] the first */
    chord = hypot(xs[0] - xs[n - 1], ys[0] - ys[n - 1]);
    for (k = 1; k < n - 1; k++)
        if (hypot(xs[k] - xs[n - 1], ys[k] - ys[n - 1]) > chord + m && hypot(xs[k] - xs[0], ys[k] - ys[0]) > m)
            return true;
    return false;
}

/* Whether samples (ts, xs, ys)[0..n) run on one line further than the
 * still test allows, by the scatter about that line: a ball rolling its
 * last centimetres at a few millimetres a frame, its samples in a clean
 * row, read as still against the sigma a tracker gave its fits (a ball of
 * the cloth's colour, a faint outline) that is larger than their scatter.
 * The scatter is what the line leaves (floored at sigma_floor_mm); with
 * five samples or more, the line that fits best leaving one out (a look's
 * fit on the ball's shadow; one at the end of the row pulls the line to
 * it, so it need not be the farthest from it). The line's travel over the
 * samples must pass still_mm by three of its standard errors. */
static bool steady_trend(const cr_recon_t *rc, const double *ts, const double *xs, const double *ys, int n)
{
    double w[64], best = INFINITY, travel = 0, se = 0;
    int skip, k, m = n >= 5 ? n - 1 : n;

    if (n < 4 || n > 64)
        return false;
    for (skip = n >= 5 ? 0 : -1; skip < n; skip++) {
        double res = 0, stt = 0, tm = 0, lo = INFINITY, hi = -INFINITY;
        seg_t q;

        for (k = 0; k < n; k++) {
            w[k] = k == skip ? 0.0 : 1.0;
            tm += w[k] * ts[k] / m;
            if (k != skip) {
                lo = fmin(lo, ts[k]);
                hi = fmax(hi, ts[k]);
            }
        }
        if (!poly_fit(ts, xs, ys, w, n, tm, 1, &q))
            continue;
        for (k = 0; k < n; k++) {
            double ex, ey;

            seg_eval(&q, ts[k], &ex, &ey);
            res += w[k] * ((ex - xs[k]) * (ex - xs[k]) + (ey - ys[k]) * (ey - ys[k]));
            stt += w[k] * (ts[k] - tm) * (ts[k] - tm);
        }
        if (res < best && stt > 0) {
            best = res;
            travel = hypot(q.v[0], q.v[1]) * (hi - lo);
            se = (hi - lo) / sqrt(stt); /* the travel's standard error per unit scatter */
        }
        if (skip < 0)
            break;
    }
    if (!isfinite(best))
        return false;
    return travel > rc->p.still_mm + 3.0 * se * fmax(rc->p.sigma_floor_mm, sqrt(best / (2.0 * (m - 2))));
}

/* The ball is still: moved less than still_mm (plus noise) over still_s,
 * and its samples there run on no line (steady_trend()). */
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
    if (steady_trend(rc, ts, xs, ys, n))
        return false;
    if (turned_back(rc, i, a, ss))
        return false;
    *mx = sx[1] / cnt[1];
    *my = sy[1] / cnt[1];
    return true;
}

/* Whether ball i at (x, y) is within a few millimetres of touching a
 * cushion or a resting ball (which may stop it sooner than the cloth). */
static bool near_stop(const cr_recon_t *rc, int i, double x, double y)
{
    for (int r = 0; r < CR_RAIL_COUNT; r++)
        if (cush_dist(rc, r, x, y) <= rc->R + 5.0)
            return true;
    for (int j = 0; j < NB; j++)
        if (j != i && rc->b[j].state == B_REST && hypot(x - rc->b[j].rx, y - rc->b[j].ry) <= 2.0 * rc->R + 5.0)
            return true;
    return false;
}

/* Whether a ball running out from (x, y) along unit u for len mm meets a
 * cushion or a resting ball on the way. */
static bool runout_blocked(const cr_recon_t *rc, int i, double x, double y, const double u[2], double len)
{
    if (!(len >= 0.0))
        return true;
    len = fmin(len, rc->tab.length_mm); /* no run-out is longer than the table */
    for (double s = 0.0; s <= len + 1e-9; s += fmax(1.0, len / 32.0))
        if (near_stop(rc, i, x + u[0] * s, y + u[1] * s))
            return true;
    return false;
}

/* When a ball that looks still stopped: its motion over the last 0.5 s
 * fitted with constant deceleration (rolling resistance) and run out to zero
 * speed. A ball creeps the last millimetres for a few tenths of a second;
 * the result may lie after frame a (then it has not stopped yet). Falls
 * back to the middle of the still window.
 * A rolling ball slows by the cloth's rolling resistance alone; where the
 * fit says it slowed faster (a poorly seen ball whose last creep hides in
 * its noise) and nothing lies on its way to stop it sooner, the motion is
 * fitted again with the deceleration held at ROLL_SLACK times the measured
 * resistance, and runs out later. *dec: the fitted deceleration when this
 * stop can measure the cloth (a well-seen ball rolling over the whole
 * window, from 40 mm/s or more; else NAN). */
static double stop_time(cr_recon_t *rc, int i, long a, double *ts, double *dec)
{
    rball_t *b = &rc->b[i];
    double t[128], x[128], y[128], w[128], ta = frm(rc, a)->t, sp, ap, fb = ta - 0.5 * rc->p.still_s, ss = 0.0,
                                                                          lim = ROLL_SLACK * rc->roll_med;
    int n = 0;
    long k;
    seg_t s;

    *dec = NAN;
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
        ss += sig(rc, f->s[i]);
        n++;
    }
    *ts = fb;
    if (n < 6 || !poly_fit(t, x, y, w, n, t[n - 1], 2, &s))
        return *ts;
    sp = hypot(s.v[0], s.v[1]);
    if (sp < 1e-6)
        return *ts;
    ap = (s.a[0] * s.v[0] + s.a[1] * s.v[1]) / sp; /* along the motion; < 0 slowing */
    if (n >= 15 && ss / n <= 0.6 && t[0] - t[n - 1] >= 0.4 && sp >= 40.0 && ap < 0 && cur_seg(b)->t0 <= t[n - 1])
        *dec = -ap;
    if (ap < -1.0) {
        double t_s = s.tr + sp / -ap;

        if (isfinite(lim) && -ap > lim) {
            /* held at lim along the fitted direction u: x + lim u tau^2 / 2
             * = p + u v tau, for p and v */
            const double u[2] = {s.v[0] / sp, s.v[1] / sp};
            double m[3][3] = {{0}}, r[3] = {0, 0, 0};

            for (k = 0; k < n; k++) {
                const double tau = t[k] - s.tr, X = x[k] + 0.5 * lim * u[0] * tau * tau,
                             Y = y[k] + 0.5 * lim * u[1] * tau * tau, fx[3] = {1.0, 0.0, u[0] * tau},
                             fy[3] = {0.0, 1.0, u[1] * tau};

                for (int p = 0; p < 3; p++) {
                    for (int q = 0; q < 3; q++)
                        m[p][q] += fx[p] * fx[q] + fy[p] * fy[q];
                    r[p] += fx[p] * X + fy[p] * Y;
                }
            }
            if (cr_vision_solve(m, r, 3) && r[2] > 0) {
                /* it stops at tl, rem further on from where it is now */
                const double tl = s.tr + r[2] / lim, tn = fmin(ta, tl) - s.tr, dn = r[2] * tn - 0.5 * lim * tn * tn,
                             rem = 0.5 * r[2] * r[2] / lim - dn;

                if (tl > t_s && !runout_blocked(rc, i, r[0] + u[0] * dn, r[1] + u[1] * dn, u, rem))
                    t_s = tl;
            }
        }
        if (t_s > ta + 0.4)
            t_s = ta + 0.4;
        if (t_s > fb)
            *ts = t_s;
    }
    return *ts;
}

/* A ball came to rest at (x, y), its stop fitted with deceleration dec
 * (stop_time()): out in the open (no cushion or resting ball within a few
 * millimetres of touching), it measures the cloth. */
static void learn_roll(cr_recon_t *rc, int i, double x, double y, double dec)
{
    double d[ROLL_N];
    int n;

    /* a cloth slows a rolling ball by some 50-150 mm/s^2: far outside that
     * range is a fit gone wrong, not a measure */
    if (!isfinite(dec) || dec < 10.0 || dec > 1000.0 || near_stop(rc, i, x, y))
        return;
    rc->roll_dec[rc->n_roll % ROLL_N] = dec;
    rc->n_roll++;
    /* the cloth's rolling resistance: the median of those kept */
    n = rc->n_roll < ROLL_N ? rc->n_roll : ROLL_N;
    if (n < ROLL_MIN)
        return;
    memcpy(d, rc->roll_dec, sizeof(double) * (size_t)n);
    rc->roll_med = median_sort(d, n);
}

/* The fastest a still rolling cue ball is struck again by the cue, mm/s:
 * a player lines up on a ball in its last few centimetres (at about
 * 0.1 m/s^2 of rolling resistance, 150 mm/s stops within 11 cm), not on
 * one crossing the table. */
#define RESTRIKE_MAX_MM_S 150.0
/* How long a lost ball's course is waited on past the pocket mouth before
 * it is taken to have dropped, s (the tracker may find it again). */
#define LOST_WAIT_S 0.25
/* The longest a lost ball's course from its raw sightings looks back, s. */
#define LOST_RAW_S 0.25
/* Confidence of a pocket inferred from a lost ball's course (not seen to drop). */
#define LOST_POCKET_CONF 0.75
/* ... one lost as it ran along a cushion toward a pocket close by (rail_course()) */
#define RAIL_POCKET_CONF 0.6
/* How long a lost ball is waited on at most, s: then it is gone (dropped
 * where its course led, or nowhere known). */
#define LOST_GIVE_S 2.0
/* How long a ball lost over a cushion is waited on at least before it is
 * taken to have left the table, s: one that bounced back in sight is found
 * again by then (it does not come back by itself once off the table). */
#define OFF_WAIT_S 1.0

/* How long a ball starting at v and slowing by dec takes to go d (until it
 * stops, if d is beyond its reach). */
static double travel_time(double v, double dec, double d)
{
    return (v - sqrt(fmax(v * v - 2.0 * dec * d, 0.0))) / dec;
}

/* Where a ball going straight from (x0, y0) along unit (ux, uy) at v,
 * slowing by dec, goes first: returns 1 through a pocket's mouth (*what:
 * the pocket), 2 against a cushion (*what: the rail), 3 into a ball at
 * rest, 0 nowhere before it stops; *d_out: how far. */
static int course_first(const cr_recon_t *rc, int i, double x0, double y0, double ux, double uy, double v,
                        double dec, double *d_out, int *what)
{
    double len = v * v / (2.0 * dec), d, step = 0.25 * rc->R;
    int j, r;

    for (d = step; d <= len; d += step) {
        double x = x0 + ux * d, y = y0 + uy * d;
        int pk = near_pocket(rc, x, y, rc->R, NULL);

        *d_out = d;
        for (j = 0; j < NB; j++)
            if (j != i && rc->b[j].state == B_REST && dist2(x, y, rc->b[j].rx, rc->b[j].ry) < 2.0 * rc->R)
                return 3;
        if (pk >= 0) {
            if (!past_mouth(rc, pk, x, y))
                continue;
            *what = pk;
            return 1;
        }
        for (r = 0; r < CR_RAIL_COUNT; r++)
            if (rail_dist(rc, r, x, y) <= rc->R) {
                *what = r;
                return 2;
            }
    }
    return 0;
}

/* Follows a course from (x0, y0) along the unit direction (ux, uy) at speed
 * v slowing by dec until it stops: the pocket whose mouth it goes through
 * (*d: how far along), or -1 when it stops first, meets a cushion first or
 * passes within 2R of a ball at rest (other than ball i). */
static int course_pocket(const cr_recon_t *rc, int i, double x0, double y0, double ux, double uy, double v,
                         double dec, double *d_out)
{
    double d = 0.0;
    int what = -1;

    if (course_first(rc, i, x0, y0, ux, uy, v, dec, &d, &what) != 1)
        return -1;
    *d_out = d;
    return what;
}

/* The straight line (constant velocity) through ball i's sightings in the
 * LOST_RAW_S up to tl, since its last reported contact (a collision or a
 * cushion): its place (*x, *y) and velocity at tl, the sightings used (at
 * least 4, else false) and the time they span. */
static bool raw_course(cr_recon_t *rc, int i, double tl, double *x, double *y, double *vx, double *vy, int *n_out,
                       double *span)
{
    const rball_t *b = &rc->b[i];
    double lo = tl - LOST_RAW_S, st = 0, sx = 0, sy = 0, stt = 0, stx = 0, sty = 0, t_first = tl, den;
    long k;
    int n = 0, r, q;

    for (r = 0; r < CR_RAIL_COUNT; r++)
        if (b->t_cush[r] != 0 && b->t_cush[r] <= tl && b->t_cush[r] > lo)
            lo = b->t_cush[r];
    for (q = 0; q < rc->n_recent; q++)
        if ((rc->recent[q].a == i || rc->recent[q].b == i) && rc->recent[q].t <= tl && rc->recent[q].t > lo)
            lo = rc->recent[q].t;
    for (k = rc->n_frames - 1; frame_ok(rc, k) && frm(rc, k)->t > lo; k--) {
        const rframe_t *f = frm(rc, k);
        double t;

        if (f->t > tl + 1e-9 || f->st[i] != OB_SEEN)
            continue;
        t = f->t - tl;
        st += t, sx += f->x[i], sy += f->y[i], stt += t * t, stx += t * f->x[i], sty += t * f->y[i];
        t_first = f->t;
        n++;
    }
    den = n * stt - st * st;
    if (n < 4 || den <= 0.0)
        return false;
    *vx = (n * stx - st * sx) / den;
    *vy = (n * sty - st * sy) / den;
    *x = (sx - *vx * st) / n;
    *y = (sy - *vy * st) / n;
    *n_out = n;
    *span = tl - t_first;
    return true;
}

/* A lost ball's course into pocket pk: from (x0, y0) at t along the unit
 * (ux, uy) at v slowing by dec, through the mouth d mm on (lost_course_met()
 * follows it; drop_lost() pockets it with confidence conf). */
static void set_lost_course(rball_t *b, int pk, double conf, double t, double x0, double y0, double ux, double uy,
                            double v, double dec, double d)
{
    b->lost_pk = pk;
    b->lost_conf = conf;
    b->lost_tc = t + travel_time(v, dec, d);
    b->lc_t = t;
    b->lc_x = x0;
    b->lc_y = y0;
    b->lc_u[0] = ux;
    b->lc_u[1] = uy;
    b->lc_v = v;
    b->lc_dec = dec;
    b->lc_len = d;
}

/* How far off its place each of ball i's last sightings up to frame k may
 * be, for a course through them: the median sigma of the last 8 (one faint
 * fit the detector reported unsure, cr_detect.h step 7, does not make the
 * course through the sure ones unknown). */
static double course_sigma(cr_recon_t *rc, int i, long k)
{
    double s[8];
    int n = 0;

    for (; frame_ok(rc, k) && n < 8; k--)
        if (frm(rc, k)->st[i] == OB_SEEN)
            s[n++] = sig(rc, frm(rc, k)->s[i]);
    return n > 0 ? median_sort(s, n) : sig(rc, NAN);
}

/* Where a ball lost at tl (its last sighting) was going: straight on from
 * there at its fitted velocity, slowing at its fitted rate (at least
 * LOST_DEC_MIN), until it stops. Sets b->lost_pk to the pocket whose mouth
 * the course crosses, with the course and the crossing time; -1 when the
 * course leads nowhere known (course_pocket()) or when its direction is
 * not known well enough: turned by three standard errors of the fitted
 * direction either way, it must still go through the same mouth. */
static void lost_course(cr_recon_t *rc, int i, double tl, double sigma)
{
    rball_t *b = &rc->b[i];
    const seg_t *s = cur_seg(b);
    double x0, y0, vx, vy, v, ux, uy, dec, span, dth, d = 0.0, dd;
    int k, pk, n;
    bool raw;

    if (!s->rest && s->n < 4 && b->lost_pk >= 0 && s->t0 <= b->lc_seen + 0.5 * rc->dt)
        return; /* seen again on its course for a moment since it was lost: that course */
    b->lost_pk = -1;
    b->lost_course_known = false;
    if (s->rest)
        return;
    raw = s->n < 4;
    if (raw) {
        /* a path of a few samples since its fit wavered (a ball of the
         * cloth's colour, its outline faint, splits its path at every
         * waver): the straight line through its sightings since its last
         * contact, over LOST_RAW_S at most */
        if (!raw_course(rc, i, tl, &x0, &y0, &vx, &vy, &n, &span))
            return;
    } else {
        seg_eval(s, tl, &x0, &y0);
        seg_vel(s, tl, &vx, &vy);
        span = tl - s->t0;
        n = s->n;
    }
    v = hypot(vx, vy);
    if (v < 1e-6 || span <= 0.0)
        return;
    ux = vx / v;
    uy = vy / v;
    /* a straight line measures no slowing: the least. A ball seen slowing
     * faster than a rolling ball does (BLOW_DEC) is sliding, just struck,
     * or its short path's fitted slowing is noise: either way it slides at
     * most until it rolls at 5/7 of its speed, then rolls on, slowing as a
     * rolling ball does; the one rate that takes it as far */
    dec = raw ? LOST_DEC_MIN : fmin(fmax(-(s->a[0] * ux + s->a[1] * uy), LOST_DEC_MIN), rc->p.accel_max_mm_s2);
    if (dec > BLOW_DEC) {
        const double v1 = 5.0 / 7.0 * v, reach = (v * v - v1 * v1) / (2.0 * dec) + v1 * v1 / (2.0 * BLOW_DEC);

        dec = v * v / (2.0 * reach);
    }
    /* seen moving off: it went somewhere along this course, into a pocket
     * or not (unseen_wait() is for balls never seen to move off) */
    b->lost_course_known = true;
    /* a line's slope from n samples over span: sigma * sqrt(12 / n) / span */
    dth = 3.0 * sigma * sqrt(12.0 / n) / (v * span);
    if (dth > 0.5)
        return;
    pk = course_pocket(rc, i, x0, y0, ux, uy, v, dec, &d);
    for (k = -1; k <= 1 && pk >= 0; k += 2) {
        double c = cos(k * dth), sn = sin(k * dth);

        if (course_pocket(rc, i, x0, y0, c * ux - sn * uy, sn * ux + c * uy, v, dec, &dd) != pk)
            return;
    }
    if (pk < 0)
        return;
    set_lost_course(b, pk, LOST_POCKET_CONF, tl, x0, y0, ux, uy, v, dec, d);
}

/* Whether every ball but i has stopped or is gone (or is lost itself and
 * waits on its own course into a pocket): the shot is over but for i. */
static bool others_settled(const cr_recon_t *rc, int i)
{
    for (int j = 0; j < NB; j++) {
        const rball_t *o = &rc->b[j];

        if (j != i && (o->state == B_MOVING || (o->state == B_LOST && !o->lost_blow && o->lost_pk < 0 && !o->off_on)))
            return false;
    }
    return true;
}

/* Whether a ball is seen at frame a where the lost ball i would be on its
 * course (closer than two balls can be). itself: ball i (found again on its
 * course); else another ball (the tracker picked it up under another
 * track, or it struck that ball: its course is not known past it). */
static bool lost_course_met(cr_recon_t *rc, int i, long a, bool itself)
{
    const rball_t *b = &rc->b[i];
    const rframe_t *f = frm(rc, a);
    double dtc = fmin(f->t - b->lc_t, (b->lost_tc - b->lc_t)), d, x, y;
    int j;

    d = fmin(b->lc_v * dtc - 0.5 * b->lc_dec * dtc * dtc, b->lc_len);
    x = b->lc_x + b->lc_u[0] * d;
    y = b->lc_y + b->lc_u[1] * d;
    for (j = 0; j < NB; j++)
        if ((j == i) == itself && f->st[j] == OB_SEEN && dist2(f->x[j], f->y[j], x, y) < 2.0 * rc->R)
            return true;
    return false;
}

/* Whether ball i was seen after its blow after all: in a contact since,
 * or another ball than its striker seen within R of where i rested (i
 * moving off under a track the tracker started anew). */
static bool blow_seen_elsewhere(cr_recon_t *rc, int i)
{
    const rball_t *b = &rc->b[i];
    long k, e = rc->n_frames - 1;
    int j;

    /* in a contact since: it was seen (moving) after all */
    for (k = 0; k < rc->n_recent; k++)
        if ((rc->recent[k].a == i || rc->recent[k].b == i) && rc->recent[k].t > b->blow_t + rc->dt)
            return true;
    for (k = e; k > e - (RING - 2) && frame_ok(rc, k) && frm(rc, k)->t > b->blow_t; k--) {
        const rframe_t *g = frm(rc, k);

        for (j = 0; j < NB; j++)
            if (j != i && j != b->blow_by && g->st[j] == OB_SEEN && dist2(g->x[j], g->y[j], b->rx, b->ry) < rc->R)
                return true;
    }
    return false;
}

/* Ball i, struck at rest and never seen to move, is no longer where it
 * rested (the tracker let it go): it left along the line of centres of
 * the blow (blow_u; its angle known to the centres' scatter over 2R, one
 * standard error), at most at the striker's speed along it, and rolls at
 * 5/7 of that once its slide is over, slowing by BLOW_DEC (three times the
 * least rolling resistance: it gets at least that far). What the courses
 * within three standard errors meet first, each weighed by the normal
 * density of its angle: a pocket or a cushion that gets more than half of
 * the weight is where it went. The pocket is reported when the others rest
 * (maybe_rest()) if the ball has not been seen since; the cushion once its
 * time has come, unless the ball was seen again first. Lost until then
 * (found again: moving). */
static void follow_blow(cr_recon_t *rc, int i, double t_now)
{
    enum { NQ = 12 }; /* rays each side of the line of centres, over 3 sigma */
    rball_t *b = &rc->b[i];
    double v = 5.0 / 7.0 * b->blow_v, dec = BLOW_DEC;
    double sd = fmin(hypot(b->sig_run, rc->p.sigma_floor_mm) / (2.0 * rc->R), 0.1);
    double mass[CR_POCKET_COUNT + CR_RAIL_COUNT] = {0}, wsum = 0.0, near_d[CR_POCKET_COUNT + CR_RAIL_COUNT],
           near_th[CR_POCKET_COUNT + CR_RAIL_COUNT];
    int q, o, best = -1;

    b->blow_on = false;
    b->state = B_LOST;
    b->t_lost = t_now;
    b->lost_pk = -1;
    if (blow_seen_elsewhere(rc, i)) {
        b->state = B_GONE; /* as any ball let go at rest */
        return;
    }
    b->lost_blow = true;
    {
        /* the others resting says nothing of it until its course has
         * taken it to whatever it meets first (or it has stopped) */
        double d = 0.0;
        int what = -1;

        course_first(rc, i, b->rx, b->ry, b->blow_u[0], b->blow_u[1], v, dec, &d, &what);
        b->blow_until = b->blow_t + travel_time(v, dec, d) + LOST_WAIT_S;
    }
    for (o = 0; o < CR_POCKET_COUNT + CR_RAIL_COUNT; o++)
        near_th[o] = INFINITY, near_d[o] = 0.0;
    /* each ray weighed by the normal density of its angle; what it meets */
    for (q = -NQ; q <= NQ; q++) {
        double th = 3.0 * sd * q / NQ, c = cos(th), sn = sin(th), d = 0.0, w = exp(-4.5 * q * q / (NQ * NQ));
        double ux = c * b->blow_u[0] - sn * b->blow_u[1], uy = sn * b->blow_u[0] + c * b->blow_u[1];
        int what = -1, k = course_first(rc, i, b->rx, b->ry, ux, uy, v, dec, &d, &what);

        wsum += w;
        if (k != 1 && k != 2)
            continue;
        o = k == 1 ? what : CR_POCKET_COUNT + what;
        mass[o] += w;
        if (fabs(th) < near_th[o]) {
            near_th[o] = fabs(th);
            near_d[o] = d;
        }
    }
    for (o = 0; o < CR_POCKET_COUNT + CR_RAIL_COUNT; o++)
        if (best < 0 || mass[o] > mass[best])
            best = o;
    if (!(mass[best] >= 0.5 * wsum))
        return; /* no one outcome more likely than not: where it went is unknown */
    if (best < CR_POCKET_COUNT) {
        b->lost_pk = best;
        b->lost_conf = BLOW_CONF;
        b->lost_tc = b->blow_t + travel_time(v, dec, near_d[best]);
    } else {
        const double d = near_d[best];

        b->bc_on = true;
        b->bc_rail = best - CR_POCKET_COUNT;
        b->bc_t = b->blow_t + travel_time(v, dec, d);
        b->bc_x = b->rx + b->blow_u[0] * d;
        b->bc_y = b->ry + b->blow_u[1] * d;
    }
}

/* Lost ball i, not seen again, dropped into the pocket its course led to
 * (lost_pk at lost_tc, confidence lost_conf): the pocket event; it is gone. */
static void drop_lost(cr_recon_t *rc, int i)
{
    rball_t *b = &rc->b[i];
    cr_event_t ev;

    cr_event_init(&ev, CR_EV_POCKET);
    ev.t = b->lost_tc;
    ev.shot = rc->active ? rc->shot : -1;
    ev.ball = i;
    ev.pocket = (cr_pocket_t)b->lost_pk;
    ev.confidence = b->lost_conf;
    queue_event(rc, &ev);
    b->state = B_GONE;
    b->t_gone = b->lost_tc;
    b->lost_pk = -1;
}

/* The others at rest: a ball lost after a blow (follow_blow()) and not
 * seen since went down the pocket of its course, or is somewhere unseen. */
static void settle_blow(cr_recon_t *rc, int i)
{
    rball_t *b = &rc->b[i];

    b->lost_blow = false;
    if (b->bc_on)
        emit_cushion_conf(rc, i, (cr_rail_t)b->bc_rail, b->bc_t, b->bc_x, b->bc_y, BLOW_CONF);
    b->bc_on = false;
    b->state = B_GONE;
    b->t_gone = b->blow_t;
    if (b->lost_pk >= 0)
        drop_lost(rc, i);
}

/* How long a ball lost over a cushion is waited on at most while other
 * balls still roll: as long as it could itself still be rolling on the
 * bed, unseen (a fast ball blurred past finding, a break's), from its speed
 * at the cushion and the cloth's rolling resistance (measured, else
 * BLOW_DEC); LOST_GIVE_S at least. A ball taken off the table that is on
 * it is a false foul; one taken late only delays the call, which the
 * shot's ruling waits for anyway. */
static double off_give_s(const cr_recon_t *rc, const rball_t *b)
{
    double dec = isfinite(rc->roll_med) && rc->roll_med > 0 ? rc->roll_med : BLOW_DEC;

    return fmax(LOST_GIVE_S, b->off_v / dec);
}

/* Ball i, lost over a cushion (vanish()), was not seen again while the
 * others settled: it left the table there. */
static void settle_off(cr_recon_t *rc, int i)
{
    rball_t *b = &rc->b[i];

    b->off_on = false;
    emit_simple(rc, CR_EV_OFF_TABLE, i, b->off_t, NAN, NAN, b->off_shot);
    b->state = B_GONE;
    b->t_gone = b->off_t;
}

/* The first of n + 1 even steps over [t0, t1] at which path s is past
 * pocket p's mouth line; NAN when none is. */
static double mouth_crossing(const cr_recon_t *rc, const seg_t *s, int p, double t0, double t1, int n)
{
    for (int k = 0; k <= n; k++) {
        double t = t0 + (t1 - t0) * k / n, x, y;

        seg_eval(s, t, &x, &y);
        if (past_mouth(rc, p, x, y))
            return t;
    }
    return NAN;
}

static void rail_normal(int r, double *nx, double *ny);

/* Ball i, lost as it met rail r at t_hit at (x, y) with velocity (vx,
 * vy), gently (not over the nose): where it went along the cushion. One
 * that meets it at a glancing angle (running along it faster than into
 * it) close to a pocket it runs toward runs on along the nose into that
 * pocket's mouth, or comes back onto the bed, where it is seen again (the
 * lost ball's course: found again on it or elsewhere, it is not
 * pocketed; not found, it dropped there, with less than full confidence).
 * Close: its mouth within two mouths' widths along the nose; a ball a
 * tracker lost at a cushion farther from a pocket may lie anywhere (no
 * course). */
static void rail_course(cr_recon_t *rc, int i, int r, double t_hit, double x, double y, double vx, double vy)
{
    rball_t *b = &rc->b[i];
    double nx, ny, tx, ty, vn, vt, d = 0.0, x0, y0;
    int pk;

    rail_normal(r, &nx, &ny);
    tx = -ny, ty = nx; /* along the nose */
    vn = -(vx * nx + vy * ny);
    vt = vx * tx + vy * ty;
    if (vt < 0.0)
        vt = -vt, tx = -tx, ty = -ty;
    if (!(vt > vn && vt > 0.0))
        return;
    /* on along the nose, a millimetre off it (no contact again with it) */
    x0 = x + nx * 1.0, y0 = y + ny * 1.0;
    pk = course_pocket(rc, i, x0, y0, tx, ty, vt, LOST_DEC_MIN, &d);
    if (pk < 0 || d > 2.0 * cr_table_mouth_width(&rc->tab, (cr_pocket_t)pk))
        return;
    b->lost_course_known = true;
    set_lost_course(b, pk, RAIL_POCKET_CONF, t_hit, x0, y0, tx, ty, vt, LOST_DEC_MIN, d);
}

/* Whether segment s's course in (t0, t1] meets a cushion's nose where the
 * nose runs straight, outside every pocket's reach, at more than a glancing
 * angle (into it faster than half as fast as along it: over 27 degrees): a
 * ball does not run through a cushion, it rebounds there. One running along
 * the nose (frozen to it, or a rail-first pot at a shallow angle) may go on
 * into the pocket. */
static bool meets_nose(const cr_recon_t *rc, const seg_t *s, double t0, double t1)
{
    const int N = 48;

    for (int k = 1; k <= N; k++) {
        double t = t0 + (t1 - t0) * k / N, x, y, vx, vy, nx, ny;

        seg_eval(s, t, &x, &y);
        if (near_pocket(rc, x, y, rc->R, NULL) >= 0)
            continue;
        for (int r = 0; r < CR_RAIL_COUNT; r++) {
            if (rail_dist(rc, r, x, y) > rc->R)
                continue;
            seg_vel(s, t, &vx, &vy);
            rail_normal(r, &nx, &ny);
            if (-(vx * nx + vy * ny) > 0.5 * fabs(vx * ny - vy * nx))
                return true;
        }
    }
    return false;
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
    if (p >= 0 && frame_ok(rc, b->last_seen)) {
        /* another ball seen where this one was last seen, closer than two
         * balls can be: the same ball under a new track (the tracker lost
         * it and picked it up again by the pocket), not a ball that dropped */
        const rframe_t *fl = frm(rc, b->last_seen);
        long e = a + rc->p.lookahead_frames < rc->n_frames ? a + rc->p.lookahead_frames : rc->n_frames - 1;
        int j;

        for (k = b->last_seen + 1; k <= e; k++) {
            const rframe_t *g = frm(rc, k);

            for (j = 0; j < NB; j++)
                if (j != i && g->st[j] == OB_SEEN &&
                    dist2(g->x[j], g->y[j], fl->x[i], fl->y[i]) <
                        2.0 * rc->R - fmax(10.0, 3.0 * hypot(sig(rc, g->s[j]), sig(rc, fl->s[i])))) {
                    b->state = B_GONE;
                    b->t_gone = tl;
                    return;
                }
        }
    }
    if (p >= 0) {
        double tc = mouth_crossing(rc, s, p, tl, t1, N);
        cr_event_t ev;

        /* a ball drops only past the mouth: one whose path has not got
         * there by now is lost (its course decides, lost_course()); a path
         * of one or two samples since a contact (a jaw, a fit bent by the
         * pocket's edge) is no course: the one before it counts too */
        if (!isfinite(tc) && s->n < 3 && b->nh > 1) {
            double e0;
            const seg_t *pv = seg_back(b, 1, &e0);

            if (pv && !pv->rest && isfinite(tc = mouth_crossing(rc, pv, p, tl, t1, N)))
                tc = meets_nose(rc, pv, fmin(e0, tc), tc) ? NAN : fmin(tc, tl);
        }
        /* nor is one sighting's velocity (from where it rested, or a jump
         * of its fit) a course that carries a ball far: it reaches a mouth
         * only from within a mouth's width and a radius of the pocket, as
         * the tracker's GONE does */
        if (isfinite(tc) && s->n < 2 && frame_ok(rc, b->last_seen)) {
            const rframe_t *fl = frm(rc, b->last_seen);
            const cr_point_t pc = cr_table_pocket_point(&rc->tab, (cr_pocket_t)p);

            if (hypot(fl->x[i] - pc.x, fl->y[i] - pc.y) > cr_table_mouth_width(&rc->tab, (cr_pocket_t)p) + rc->R)
                tc = NAN;
        }
        /* nor does one whose course meets a cushion's nose at more than a
         * glancing angle on its way there (above too): it rebounds (lost;
         * where it went, its course from the cushion decides) */
        if (!isfinite(tc) || (tc > tl && meets_nose(rc, s, tl, tc)))
            goto lost;
        if (tc > ta)
            tc = ta;
        {
            /* its course into the pocket ran within R of a jaw (point or
             * facing): it touched it on the way in, where it was hidden or
             * seen too briefly after for a kink */
            int jr = -1, jr2 = -1;
            double tj = jaw_time(rc, s, p, fmax(s->t0, tl - 2.0 * rc->dt), tc, 0.0, &jr), tj2;
            const seg_t *sj = s;
            seg_t s2;
            long kp = b->last_seen - 1;

            while (s->n >= 4 && kp > b->last_seen - 4 && frame_ok(rc, kp) && frm(rc, kp)->st[i] != OB_SEEN)
                kp--;
            if (s->n >= 4 && frame_ok(rc, kp) && frm(rc, kp)->st[i] == OB_SEEN) {
                /* the last sighting may already have turned by it: the
                 * course before it */
                memset(&s2, 0, sizeof(s2));
                fit_ball(rc, i, frame_from(rc, kp, s->t0, 78), kp, &s2);
                s2.t0 = s->t0;
                if (s2.n >= 3 && isfinite(tj2 = jaw_time(rc, &s2, p, frm(rc, kp)->t, tc, 0.0, &jr2)) &&
                    tj2 < tl && !(tj2 >= tj)) {
                    sj = &s2;
                    tj = tj2;
                    jr = jr2;
                }
            }
            if (isfinite(tj) && tj <= tc && !recent_involves(rc, i, tj, 2.0 * rc->dt)) {
                seg_eval(sj, tj, &x, &y);
                emit_cushion(rc, i, (cr_rail_t)jr, tj, x, y);
            }
        }
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
        /* it reached the cushion; it left the table only if it met it
         * fast enough to ride over the nose (OFF_MIN_MM_S; else it
         * rebounded or rolled on along it, unseen: lost) and does not come
         * back (SPEC: off_table), which settle_off() decides */
        double vx, vy, nx, ny;

        seg_eval(s, t_hit, &x, &y);
        emit_cushion(rc, i, (cr_rail_t)rail, t_hit, x, y);
        seg_vel(s, t_hit, &vx, &vy);
        rail_normal(rail, &nx, &ny);
        if (!(-(vx * nx + vy * ny) >= OFF_MIN_MM_S)) {
            b->state = B_LOST;
            b->t_lost = ta;
            b->lost_pk = -1;
            rail_course(rc, i, rail, t_hit, x, y, vx, vy);
            return;
        }
        b->off_on = true;
        b->off_t = t_hit;
        b->off_v = hypot(vx, vy);
        b->off_shot = rc->active ? rc->shot : ev_shot_for_contact(rc);
        b->lost_pk = -1;
        b->lost_blow = false;
        b->state = B_LOST;
        b->t_lost = ta;
        return;
    }
lost:
    b->state = B_LOST;
    b->t_lost = ta;
    lost_course(rc, i, tl, course_sigma(rc, i, b->last_seen));
    (void)qx;
    (void)qy;
}

/* The hinge at tc through the samples (ts, v): v = p0 + p1 (tc - t) before
 * tc, p0 + p2 (t - tc) from it on. m gets its normal matrix, *nb and *na
 * the samples either side; p the fit and *sse its misfit (false when m is
 * singular). */
static bool hinge_fit(const double *ts, const double *v, int n, double tc, double m[3][3], int *nb, int *na,
                      double p[3], double *sse)
{
    double mc[3][3];
    int k, q;

    memset(mc, 0, sizeof(mc));
    p[0] = p[1] = p[2] = 0.0;
    *nb = *na = 0;
    for (k = 0; k < n; k++) {
        double f[3] = {1.0, ts[k] < tc ? tc - ts[k] : 0.0, ts[k] < tc ? 0.0 : ts[k] - tc};

        if (ts[k] < tc)
            (*nb)++;
        else
            (*na)++;
        for (q = 0; q < 3; q++) {
            for (int w = 0; w < 3; w++)
                mc[q][w] += f[q] * f[w];
            p[q] += f[q] * v[k];
        }
    }
    memcpy(m, mc, sizeof(mc));
    if (!cr_vision_solve(mc, p, 3))
        return false;
    *sse = 0.0;
    for (k = 0; k < n; k++) {
        double e = v[k] - p[0] - (ts[k] < tc ? p[1] * (tc - ts[k]) : p[2] * (ts[k] - tc));

        *sse += e * e;
    }
    return true;
}

/* The inverse of a hinge's normal matrix m, column by column (INFINITY
 * where m is singular): times sigma^2, the fit's covariance. */
static void hinge_inverse(const double m[3][3], double inv[3][3])
{
    for (int q = 0; q < 3; q++) {
        double mc[3][3], col[3] = {0, 0, 0};

        memcpy(mc, m, sizeof(mc));
        col[q] = 1.0;
        if (!cr_vision_solve(mc, col, 3))
            col[0] = col[1] = col[2] = INFINITY;
        for (int r = 0; r < 3; r++)
            inv[r][q] = col[r];
    }
}

/* A V with a free vertex fitted to (t, d): d = h + s_in (tc - t) before tc,
 * h + s_out (t - tc) after (hinge_fit()), the tc in [t0, t1] (with at
 * least min_side samples either side) that fits best. Returns tc;
 * *h, its standard error (from sigma) and the two slopes with theirs. */
static double vee_fit(const double *ts, const double *ds, int n, double t0, double t1, double sigma, int min_side,
                      double *h, double *se_h, double sl[2], double se_sl[2])
{
    double best = INFINITY, tb = t0;
    int g;

    *h = NAN;
    *se_h = INFINITY;
    sl[0] = sl[1] = 0;
    se_sl[0] = se_sl[1] = INFINITY;
    for (g = 0; g <= 64; g++) {
        double tc = t0 + (t1 - t0) * g / 64.0, m[3][3], r[3], sse, inv[3][3];
        int nb, na;

        if (!hinge_fit(ts, ds, n, tc, m, &nb, &na, r, &sse) || nb < min_side || na < min_side)
            continue;
        if (sse < best) {
            best = sse;
            tb = tc;
            *h = r[0];
            sl[0] = r[1];
            sl[1] = r[2];
            hinge_inverse(m, inv);
            *se_h = sigma * sqrt(fabs(inv[0][0]));
            se_sl[0] = sigma * sqrt(fabs(inv[1][1]));
            se_sl[1] = sigma * sqrt(fabs(inv[2][2]));
        }
    }
    return tb;
}

/* Distances of the points (xs, ys) from a jaw point along the line from
 * it through (cx, cy), the ball's centre at (or near) the contact: a blow
 * from a point acts along that line, so these distances, like those to a
 * cushion's line, fall and rise linearly about the contact (the distance
 * to the point itself curves as a ball rolls past it, and a V fitted to
 * it puts the contact early). */
static void point_normal_dist(const double *xs, const double *ys, int n, cr_point_t jaw, double cx, double cy,
                              double *d)
{
    double ux = cx - jaw.x, uy = cy - jaw.y, l = hypot(ux, uy);

    if (!(l > 0)) {
        for (int q = 0; q < n; q++)
            d[q] = hypot(xs[q] - jaw.x, ys[q] - jaw.y);
        return;
    }
    ux /= l;
    uy /= l;
    for (int q = 0; q < n; q++)
        d[q] = (xs[q] - jaw.x) * ux + (ys[q] - jaw.y) * uy;
}

/* Distances of the points (xs, ys) to the piece of rail r's cushion
 * nearest p (cr_table_cushion_piece): to its line, signed positive on
 * p's side; or, when p is within R + contact_tol of a jaw point and
 * nearer it than either line (*at_point, *jaw), along the line from the
 * point through p (point_normal_dist). Returns whether that piece is the
 * nose. */
static bool piece_dists(const cr_recon_t *rc, int r, const double *xs, const double *ys, int n, cr_point_t p,
                        double *d, bool *at_point, cr_point_t *jaw)
{
    double dir[2], sgn, dmin;
    cr_point_t on;
    int q;

    *at_point = false;
    dmin = cr_table_cushion_piece(&rc->tab, (cr_rail_t)r, p, &on, dir);
    sgn = (p.x - on.x) * dir[1] - (p.y - on.y) * dir[0];
    if (dmin > fabs(sgn) + 1e-6 && dmin <= rc->R + rc->p.contact_tol_mm) {
        /* at a jaw point itself: the ball turns about it */
        *at_point = true;
        *jaw = on;
        point_normal_dist(xs, ys, n, on, p.x, p.y, d);
        return false;
    }
    sgn = sgn < 0 ? -1.0 : 1.0;
    for (q = 0; q < n; q++)
        d[q] = sgn * ((xs[q] - on.x) * dir[1] - (ys[q] - on.y) * dir[0]);
    return fabs(dmin - fabs(rail_dist(rc, r, p.x, p.y))) < 1e-6;
}

/* Times and distances to rail r's cushion of ball i's SEEN samples in
 * frames [k0, k1] (raw: the detections themselves, not the tracker's
 * smoothed positions), at most max: to the line of the piece of cushion (nose
 * or jaw facing, cr_table_cushion_piece) nearest the nearest sample within
 * 2.5 frames of t_near (else of all), signed
 * positive on the ball's side, so that only a turn of the ball's motion
 * across that line makes a V (a ball rolling past a jaw point a little
 * further off does not); along the line from the jaw point through the
 * nearest sample when that sample is within R + contact_tol of the point
 * and nearer it than either line (piece_dists). *nose says the piece is
 * the nose. */
static int rail_samples(cr_recon_t *rc, int i, int r, long k0, long k1, double t_near, const double *lead, bool raw,
                        double *t, double *d, double *xs, double *ys, int max, bool *at_point, cr_point_t *jaw,
                        bool *nose)
{
    double dmin = INFINITY;
    cr_point_t p;
    int n = 0, kmin = 0;
    long k;

    if (max > RW_MAX)
        max = RW_MAX;
    if (lead && max > 0 && frame_ok(rc, k0) && lead[0] < frm(rc, k0)->t) {
        t[n] = lead[0];
        xs[n] = lead[1];
        ys[n] = lead[2];
        n++;
    }
    for (k = k0; k <= k1 && n < max; k++) {
        rframe_t *g;
        double dd;

        if (!frame_ok(rc, k))
            continue;
        g = frm(rc, k);
        if (g->st[i] != OB_SEEN)
            continue;
        t[n] = g->t;
        xs[n] = raw ? g->rx[i] : g->x[i];
        ys[n] = raw ? g->ry[i] : g->y[i];
        dd = cush_dist(rc, r, xs[n], ys[n]);
        if (fabs(t[n] - t_near) > 2.5 * rc->dt)
            dd += 1e6; /* another contact's, or a jaw passed on the way */
        if (dd < dmin) {
            dmin = dd;
            kmin = n;
        }
        n++;
    }
    *at_point = false;
    if (n == 0)
        return 0;
    p.x = xs[kmin];
    p.y = ys[kmin];
    *nose = piece_dists(rc, r, xs, ys, n, p, d, at_point, jaw);
    return n;
}

static bool turned_about(const double *xs, const double *ys, const double *ts, int n, double tc, double sigma,
                         cr_point_t jaw);

/* The time in [t0, t1] of the V whose vertex is at d = v fitted best to
 * (ts, ds), its sides' slopes free but not negative; *sse its misfit.
 * Searched on a grid of 64 steps, then on one of 16 over the two steps
 * about the best (the coarse step, 2.3 ms over 0.15 s, is a quarter of a
 * frame period at 120 fps). */
static double vee_through(const double *ts, const double *ds, int n, double t0, double t1, double v, double *sse_out)
{
    double best = INFINITY, tb = t0, step = (t1 - t0) / 64.0, mid = t0;

    for (int g = 0; g <= 64 + 17; g++) {
        double sxy[2] = {0, 0}, sxx[2] = {0, 0}, sse = 0, slv[2], tc;
        int k;

        if (g == 65)
            mid = tb; /* the coarse grid's best: the fine grid's middle */
        tc = g <= 64 ? t0 + step * g : fmin(fmax(mid - step + step * (g - 65) / 8.0, t0), t1);

        for (k = 0; k < n; k++) {
            int q = ts[k] < tc ? 0 : 1;
            double u = fabs(ts[k] - tc);

            sxy[q] += (ds[k] - v) * u;
            sxx[q] += u * u;
        }
        for (k = 0; k < 2; k++)
            slv[k] = sxx[k] > 0 ? fmax(0.0, sxy[k] / sxx[k]) : 0.0;
        for (k = 0; k < n; k++) {
            double e = ds[k] - v - slv[ts[k] < tc ? 0 : 1] * fabs(ts[k] - tc);

            sse += e * e;
        }
        if (sse < best) {
            best = sse;
            tb = tc;
        }
    }
    *sse_out = best;
    return tb;
}

/* Whether a V fitted by vee_fit() (vertex h, slopes sl, their standard
 * errors) turns at R: the vertex within contact_tol and two of its
 * standard errors of R, the way in over three of its standard errors, and
 * the way out too; at a jaw point (point) the way out need only not fall
 * significantly: a ball that meets a point off its centre line leaves it
 * slowly along that line, mostly turned aside (turned_about() asks for the
 * turn). */
static bool vee_at_R(const cr_recon_t *rc, double h, double se_h, const double sl[2], const double se_sl[2], bool point)
{
    return isfinite(h) && fabs(h - rc->R) <= rc->p.contact_tol_mm + 2.0 * se_h && sl[0] > 3.0 * se_sl[0] &&
           (point ? sl[1] > -2.0 * se_sl[1] : sl[1] > 3.0 * se_sl[1]);
}

/* The distance to the nose at which a V of a ball's measured distances
 * turns at a cushion contact: R, moved toward the free vertex h by up to
 * VEE_BIAS_MM. A ball's measured centre near a cushion is off by a few
 * tenths of a millimetre (the shade under the nose beside its outline, the
 * light falling on it from the table's side): measured on the review's
 * films, 0.4-0.8 mm toward the cushion for moving balls within 8 mm of it
 * at 1080p60. Held at R, a V turns where the biased distances reach R,
 * early by bias / normal speed: a frame or more for a ball coming in at
 * 20-40 mm/s. */
static double vee_vertex(const cr_recon_t *rc, double h)
{
    return isfinite(h) ? rc->R + fmin(fmax(h - rc->R, -VEE_BIAS_MM), VEE_BIAS_MM) : rc->R;
}

/* When ball i touched rail r near t_near: its distance to the nose line,
 * before and after, against time, is two lines that meet at distance R
 * (the normal velocity reverses there, the reflection). Fits a V with a
 * free vertex (vee_fit) to the SEEN samples from t_near - 0.15 s (wide:
 * 0.3 s, for slow contacts) to frame a; *sig_ok
 * says the vertex is at R (within contact_tol and 2 of its standard
 * errors: two lines fitted to the rounded turn of a slow, decelerating
 * contact put it a few millimetres off) and both sides are significant (slope over 3 of its standard
 * errors, from sigma_mm): a real turn at R, not noise along a cushion nor a
 * ball drifting a few millimetres off it. And the V forced through R must
 * miss the samples less than one straight line does: a ball rolling beside
 * a cushion a few millimetres off it, its fits wavering across its way,
 * draws V's with significant sides and a vertex within contact_tol, but
 * one brought down to R misses them by the gap (*beside, when given, says
 * so: the samples are a roll beside the cushion, no contact, however the
 * fitted velocities turn). Returns the time where the V forced through R
 * fits best (the contact time). */
static double rail_contact_time(cr_recon_t *rc, int i, int r, long a, double t_near, double t_lo, const double *lead,
                                double sigma_mm, bool wide, bool *sig_ok, bool *beside)
{
    double ts[RW_MAX], ds[RW_MAX], xs[RW_MAX], ys[RW_MAX], h, se_h, sl[2], se_sl[2], tb = t_near, t0, t1,
        best = INFINITY;
    double from = fmax(t_near - (wide ? 0.3 : 0.15), t_lo);
    long k0;
    int n, g, k;
    bool at_point = false, nose = true;
    cr_point_t jaw = {0, 0};

    *sig_ok = false;
    if (beside)
        *beside = false;
    /* a collision of the ball's before it came near bent its path: the
     * way in starts there (a segment can span a blow whose kink was not
     * split off, 720p30 clip 07's 4 at 5.72 s, 88 ms before its cushion) */
    for (k = 0; k < rc->n_recent; k++) {
        const recent_t *e = &rc->recent[k];

        if ((e->a == i || e->b == i) && e->t < t_near - 0.5 * rc->dt && e->t + 0.25 * rc->dt > from)
            from = e->t + 0.25 * rc->dt;
    }
    k0 = frame_from(rc, a, from, RW_MAX - 1);
    if (lead && !(lead[0] >= t_near - (wide ? 0.3 : 0.15)))
        lead = NULL;
    n = rail_samples(rc, i, r, k0, a, t_near, lead, false, ts, ds, xs, ys, RW_MAX, &at_point, &jaw, &nose);
    if (n < 5)
        return t_near;
    t0 = fmax(ts[0], t_near - (wide ? 0.2 : 0.1));
    t1 = fmin(ts[n - 1], t_near + (wide ? 0.1 : 0.05));
    vee_fit(ts, ds, n, t0, t1, sigma_mm, 2, &h, &se_h, sl, se_sl);
    *sig_ok = vee_at_R(rc, h, se_h, sl, se_sl, false);
    /* the time: the V through R itself (the vertex is R; its time is
     * better fixed with that known than with the vertex free); on the
     * nose, give or take what a ball's measured centre near it is off
     * (below) */
    tb = vee_through(ts, ds, n, t0, t1, rc->R, &best);
    for (g = 0; !nose && g < 2; g++) {
        /* in a pocket's mouth: the piece the ball met is the one nearest
         * its centre at the contact, not at the nearest sample (a ball
         * seen just past a jaw point met the point, and a V to the line
         * of the facing beyond it puts the contact early) */
        cr_point_t c;

        for (k = n - 1; k > 0 && ts[k] > tb; k--)
            ;
        if (!(k + 1 < n && ts[k + 1] > ts[k]))
            break;
        c.x = xs[k] + (tb - ts[k]) / (ts[k + 1] - ts[k]) * (xs[k + 1] - xs[k]);
        c.y = ys[k] + (tb - ts[k]) / (ts[k + 1] - ts[k]) * (ys[k + 1] - ys[k]);
        nose = piece_dists(rc, r, xs, ys, n, c, ds, &at_point, &jaw);
        vee_fit(ts, ds, n, t0, t1, sigma_mm, 2, &h, &se_h, sl, se_sl);
        *sig_ok = vee_at_R(rc, h, se_h, sl, se_sl, at_point);
        tb = vee_through(ts, ds, n, t0, t1, rc->R, &best);
    }
    if (*sig_ok) {
        /* one line through the distances (poly_fit of order 1; the y
         * it fits alongside is the same distances, unused) */
        double one[RW_MAX], sse = 0, lx, ly;
        seg_t q;

        for (k = 0; k < n; k++)
            one[k] = 1.0;
        if (!poly_fit(ts, ds, ds, one, n, ts[0], 1, &q))
            sse = INFINITY;
        for (k = 0; k < n && isfinite(sse); k++) {
            seg_eval(&q, ts[k], &lx, &ly);
            sse += (ds[k] - lx) * (ds[k] - lx);
        }
        if (!(best < sse)) {
            *sig_ok = false;
            if (beside)
                *beside = true;
        }
    }
    if (*sig_ok && nose && !at_point) {
        /* timed by the V whose vertex may lie a little off R (vee_vertex():
         * the measured centres near a cushion lean toward it); the tests
         * above keep the V through R itself (a roll beside the cushion
         * would draw a V to its own height). The V is fitted to the
         * detections themselves where the tracker gives them: its smoothed
         * positions round the turn (as at a collision, contact_samples()) */
        double rts[RW_MAX], rds[RW_MAX], rxs[RW_MAX], rys[RW_MAX], rh = NAN, rse_h, rsl[2], rse_sl[2], sse2;
        bool r_pt = false, r_nose = true;
        cr_point_t r_jaw;
        int rn = rail_samples(rc, i, r, k0, a, t_near, lead, true, rts, rds, rxs, rys, RW_MAX, &r_pt, &r_jaw, &r_nose);

        if (rn >= 5 && r_nose && !r_pt) {
            vee_fit(rts, rds, rn, t0, t1, sigma_mm, 2, &rh, &rse_h, rsl, rse_sl);
            tb = vee_through(rts, rds, rn, t0, t1, vee_vertex(rc, rh), &sse2);
        } else {
            tb = vee_through(ts, ds, n, t0, t1, vee_vertex(rc, h), &sse2);
        }
    }
    if (*sig_ok) {
        /* where the ball was at tb, carried on from the last sample before
         * it: R from the cushion it can touch there (a line measured to
         * from a sample over a pocket's mouth, beyond its piece, can turn
         * where no cushion is) */
        for (k = n - 1; k > 1 && ts[k] > tb; k--)
            ;
        if (k >= 1 && ts[k] <= tb && ts[k] > ts[k - 1]) {
            double u = (tb - ts[k]) / (ts[k] - ts[k - 1]);

            *sig_ok = cush_dist(rc, r, xs[k] + u * (xs[k] - xs[k - 1]), ys[k] + u * (ys[k] - ys[k - 1])) <=
                      rc->R + rc->p.contact_tol_mm + 2.0 * se_h + 2.0 * sigma_mm;
        }
    }
    if (*sig_ok && at_point)
        *sig_ok = turned_about(xs, ys, ts, n, tb, sigma_mm, jaw);
    return tb;
}

/* Whether a ball whose distance to a jaw point turned at tc was turned by
 * it: the distance to a point also turns when a ball rolls straight past
 * it. A blow from the point changes the velocity along the line from the
 * point to the ball: the change between the straight-line fits before and
 * after tc must be over 4 of its standard errors (from sigma) and point
 * away from the jaw. */
static bool turned_about(const double *xs, const double *ys, const double *ts, int n, double tc, double sigma,
                         cr_point_t jaw)
{
    double v[2][2], sxx[2] = {0, 0};
    int side, k;

    for (side = 0; side < 2; side++) {
        double st = 0, sx = 0, sy = 0, m = 0, sxt = 0, syt = 0;

        for (k = 0; k < n; k++) {
            if ((ts[k] >= tc) != side)
                continue;
            st += ts[k];
            sx += xs[k];
            sy += ys[k];
            m++;
        }
        if (m < 2)
            return false;
        st /= m;
        sx /= m;
        sy /= m;
        for (k = 0; k < n; k++) {
            if ((ts[k] >= tc) != side)
                continue;
            sxx[side] += (ts[k] - st) * (ts[k] - st);
            sxt += (ts[k] - st) * (xs[k] - sx);
            syt += (ts[k] - st) * (ys[k] - sy);
        }
        if (!(sxx[side] > 0))
            return false;
        v[side][0] = sxt / sxx[side];
        v[side][1] = syt / sxx[side];
    }
    {
        double dv[2] = {v[1][0] - v[0][0], v[1][1] - v[0][1]}, se = sigma * sqrt(1.0 / sxx[0] + 1.0 / sxx[1]);
        double px = 0, py = 0, m = 0;

        /* where the ball was about tc: the mean of the two nearest samples */
        for (k = 0; k < n; k++)
            if (fabs(ts[k] - tc) < 1e-9 || (k + 1 < n && ts[k] < tc && ts[k + 1] >= tc)) {
                px += xs[k] + (k + 1 < n ? xs[k + 1] : xs[k]);
                py += ys[k] + (k + 1 < n ? ys[k + 1] : ys[k]);
                m += 2;
                break;
            }
        if (m == 0)
            return false;
        px = px / m - jaw.x;
        py = py / m - jaw.y;
        return hypot(dv[0], dv[1]) > 4.0 * se && dv[0] * px + dv[1] * py > 0;
    }
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
                /* only a significant reversal of the distance to the nose line */
                bool ok;
                double tv = rail_contact_time(rc, i, r, last_frame(rc, a), tc, approach_start(rc, &b->approach[r]), NULL,
                                              sig(rc, frm(rc, a)->s[i]), false, &ok, NULL);

                if (ok) {
                    tc = tv;
                    seg_eval(&b->approach[r], tc, &cx, &cy);
                    emit_cushion(rc, i, (cr_rail_t)r, tc, cx, cy);
                }
            }
        }
        if (fabs(vn) > vthr)
            b->vn[r] = vn;
    }
}

/* Where the way in of a V to a cushion (rail_contact_time()) may start, for
 * ball i whose nearest sample to it is at t_near: the start of its segment
 * then. But a shallow contact's turn is often found as a kink of its own
 * (at 120 fps, by drift_start(), a few frames early), too slight to tell
 * from the velocities just after it (explain_cushion()); its new segment
 * then leaves the V no way in. When that segment began within three frames
 * (and 0.05 s) before t_near and no other ball was within reach of it there
 * (two radii, the contact slack and 10 mm: nothing else can have turned
 * it), the way in is the segment before it. 1080p120 clip 03's 7, driven
 * along the right rail at 600 mm/s, met it coming in at 52 mm/s and left
 * at 13. */
static double rail_approach_start(const cr_recon_t *rc, int i, double t_near)
{
    const rball_t *b = &rc->b[i];
    const seg_t *s = seg_at(b, t_near - 1.5 * rc->dt), *p;
    double x, y;
    int j;

    if (s && s->rest) {
        /* set off from rest after it: the way in is the motion's own */
        p = seg_at(b, t_near);
        return p && !p->rest ? approach_start(rc, p) : approach_start(rc, s);
    }
    if (!s || s->n == 0 || !(t_near - s->t0 <= fmax(3.0 * rc->dt, 0.05)))
        return approach_start(rc, s);
    p = seg_at(b, s->t0 - 0.5 * rc->dt);
    if (!p || p == s || p->rest || p->n == 0)
        return approach_start(rc, s);
    seg_eval(s, s->t0, &x, &y);
    for (j = 0; j < NB; j++) {
        double jx, jy;

        if (j == i || rc->b[j].nh == 0 || rc->b[j].state == B_ABSENT ||
            (rc->b[j].state == B_GONE && rc->b[j].t_gone < s->t0))
            continue;
        ball_pos_at(rc, j, s->t0, &jx, &jy);
        if (hypot(jx - x, jy - y) <= 2.0 * rc->R + rc->p.contact_tol_mm + 10.0)
            return approach_start(rc, s);
    }
    return approach_start(rc, p);
}

/* A cushion contact from the distance to the nose line alone: a ball's
 * normal velocity reverses only at distance R from it (nothing else pushes
 * a ball away from a cushion it is touching). When the distance came down
 * to within R + contact_tol (plus the larger of the steps into and out of
 * the nearest sample: the turn lies between it and a neighbour, up to a
 * frame's travel away) and then clearly (4 sigma) went up again, after
 * it had clearly come down, and the V fit (rail_contact_time) is
 * significant, the ball touched the cushion. This sees shallow and slow
 * contacts that bend the path too little for a kink. */
static void rail_watch(cr_recon_t *rc, int i, long a)
{
    rball_t *b = &rc->b[i];
    rframe_t *f = frm(rc, a);
    double m = fmax(1.0, 4.0 * sig(rc, f->s[i]));
    int r;

    if (f->st[i] != OB_SEEN)
        return;
    for (r = 0; r < CR_RAIL_COUNT; r++) {
        double d;

        /* every piece of the cushion lies on or beyond the nose line: a
         * ball far from that line is far from the cushion (the cheap test
         * first, for every ball and rail in every frame) */
        if (rail_dist(rc, r, f->x[i], f->y[i]) > 3.0 * rc->R || (d = cush_dist(rc, r, f->x[i], f->y[i])) > 3.0 * rc->R) {
            b->rw_on[r] = false;
            continue;
        }
        if (!b->rw_on[r]) {
            b->rw_on[r] = true;
            b->rw_max[r] = b->rw_min[r] = b->rw_last[r] = d;
            b->rw_gap[r] = 0.0;
            b->rw_tmin[r] = f->t;
            b->rw_lead[r][0] = NAN;
            /* its motion set off from rest moments ago: it came from there,
             * and its rest place at the onset is the first point of its way
             * in. A ball struck into a cushion it rested near can meet it
             * before its motion is first watched here, seen once on the way
             * in (720p30 clip 14's 3, 9.8 mm off the rail, struck at it at
             * 250 mm/s) */
            if (b->anchor && f->t - b->anc_t <= 3.0 * rc->dt) {
                double d0 = cush_dist(rc, r, b->anc_x, b->anc_y);

                if (d0 > d) {
                    b->rw_max[r] = d0;
                    b->rw_gap[r] = d0 - d;
                    b->rw_lead[r][0] = b->anc_t;
                    b->rw_lead[r][1] = b->anc_x;
                    b->rw_lead[r][2] = b->anc_y;
                }
            }
            continue;
        }
        if (d < b->rw_min[r]) {
            b->rw_gap[r] = b->rw_last[r] - d;
            b->rw_min[r] = b->rw_last[r] = d;
            b->rw_tmin[r] = f->t;
            continue;
        }
        /* the contact lies between the nearest sample and one of its
         * neighbours: at 30 fps a ball turning at 0.5 m/s is seen up to
         * 17 mm from it (the V fit then says whether it turned at R) */
        if (b->rw_last[r] == b->rw_min[r])
            b->rw_gap[r] = fmax(b->rw_gap[r], d - b->rw_min[r]);
        b->rw_last[r] = d;
        if (b->rw_min[r] > rc->R + rc->p.contact_tol_mm + b->rw_gap[r] || b->rw_max[r] - b->rw_min[r] < m ||
            d - b->rw_min[r] < m) {
            if (d > b->rw_max[r] && b->rw_min[r] >= b->rw_max[r] - m) {
                b->rw_max[r] = d; /* not come near yet: moving away */
                b->rw_min[r] = d;
                b->rw_gap[r] = 0.0;
                b->rw_tmin[r] = f->t;
                b->rw_lead[r][0] = NAN;
            }
            continue;
        }
        {
            bool ok;
            double lo = rail_approach_start(rc, i, b->rw_tmin[r]);
            /* the rest it set off from, when it was seen on its way in but
             * once before its nearest sample (else its sightings carry
             * the way in; the onset's time is only as good as its fit) */
            const double *pl =
                b->rw_lead[r][0] >= lo - rc->dt && b->rw_tmin[r] - b->rw_lead[r][0] < 2.5 * rc->dt ? b->rw_lead[r] : NULL;
            /* the way out through the lookahead frame too: one more
             * sample of it, the turn's time better fixed (a V fitted when
             * the distance has just risen has one or two) */
            double tc = rail_contact_time(rc, i, r, last_frame(rc, a), b->rw_tmin[r], lo, pl, sig(rc, f->s[i]), false, &ok, NULL), x, y;

            if (!ok && last_frame(rc, a) != a) /* that sample after another blow: up to frame a */
                tc = rail_contact_time(rc, i, r, a, b->rw_tmin[r], lo, pl, sig(rc, f->s[i]), false, &ok, NULL);
            if (!ok) /* a slow contact: more samples either side */
                tc = rail_contact_time(rc, i, r, a, b->rw_tmin[r], lo, pl, sig(rc, f->s[i]), true, &ok, NULL);

            if (ok) {
                ball_pos_at(rc, i, tc, &x, &y);
                emit_cushion(rc, i, (cr_rail_t)r, tc, x, y);
                b->rw_max[r] = b->rw_min[r] = d;
                b->rw_gap[r] = 0.0;
                b->rw_tmin[r] = f->t;
                b->rw_lead[r][0] = NAN;
            }
        }
    }
}

/* Ball i, moving on segment s, stops at ts at (mx, my). A ball that rolled
 * up to a cushion and stopped against it (its rest within frozen_mm and one
 * of its sigmas of touching, a rest it was not at when the segment began,
 * no contact with that cushion reported on the way) touched it: "driven to
 * a rail" (RULES.md 6.3, the break's four balls), though it never came off
 * it and no bounce shows. The contact is when its path reached touching, or
 * when it stopped if its fit stops short. */
static void came_to_rest_on_cushion(cr_recon_t *rc, int i, const seg_t *s, double ts, double mx, double my)
{
    rball_t *b = &rc->b[i];
    const double lim = rc->R + rc->p.frozen_mm + (b->sig_run > 0 ? b->sig_run : rc->p.sigma_floor_mm);
    double x0, y0;
    long k, e = last_frame(rc, rc->next);
    int r;

    if (s->rest || !(ts > s->t0))
        return;
    {
        /* where it was when the segment (its current one) began: the end
         * of the segment before (its rest, or its way up to this one's
         * start), not this segment's fit, whose last fit_window_s of
         * samples say little of where it was seconds earlier */
        double end;
        const seg_t *p = seg_back(b, 1, &end);

        seg_eval(p ? p : s, s->t0, &x0, &y0);
    }
    for (r = 0; r < CR_RAIL_COUNT; r++) {
        double t, tc = ts, x, y, lo = fmax(s->t0, ts - 2.0 * rc->p.fit_window_s);

        if (cush_dist(rc, r, mx, my) > lim || cush_dist(rc, r, x0, y0) <= lim + 2.0 * rc->p.still_mm ||
            b->t_cush[r] >= s->t0 - rc->dt)
            continue;
        /* when its path reached touching, over the last two fit windows
         * before it stopped (the fit over-reaches seconds back); touching
         * already where they begin, its first sighting since the segment
         * began as near the cushion as it rests */
        for (t = lo; t <= ts; t += 0.25 * rc->dt) {
            seg_eval(s, t, &x, &y);
            if (cush_dist(rc, r, x, y) <= rc->R) {
                tc = t;
                break;
            }
        }
        seg_eval(s, tc, &x, &y);
        if (tc == lo && lo > s->t0)
            for (k = frame_from(rc, e, s->t0, RING - 2); k <= e; k++) {
                const rframe_t *g = frm(rc, k);

                if (g->t < s->t0 || g->st[i] != OB_SEEN)
                    continue;
                if (g->t > ts)
                    break;
                if (cush_dist(rc, r, g->x[i], g->y[i]) <= lim) {
                    tc = g->t;
                    x = g->x[i];
                    y = g->y[i];
                    break;
                }
            }
        emit_cushion(rc, i, (cr_rail_t)r, tc, x, y);
    }
}

/* Is a ball other than i on the table, rolling at t, within reach of (x,
 * y) then? */
static bool near_ball(const cr_recon_t *rc, int i, double x, double y, double t, double reach)
{
    for (int j = 0; j < NB; j++) {
        const seg_t *sj = rc->b[j].nh > 0 ? seg_at(&rc->b[j], t) : NULL;
        double xj, yj;

        if (j == i || !sj || sj->rest || !on_table_state(rc->b[j].state))
            continue;
        ball_pos_at(rc, j, t, &xj, &yj);
        if (hypot(xj - x, yj - y) <= reach)
            return true;
    }
    return false;
}

/* A turn too gentle for one frame to show, where a ball could cause it (a
 * glancing kiss, a slow ball coming back off a cushion into the one it
 * left): the seen samples of ball i from some frame a0 up to a (the frames
 * within DRIFT_S, two at least, up to twice as many) each lie off the path
 * its samples before a0 give (six at least), by more than 3 sigmas of the
 * sample and of the path's extrapolation, kink_min_mm / 2, and what a
 * change of the cloth's friction can do since a0, all to one side; at a0
 * the ball was within reach of another rolling ball (2 R, contact_tol_mm
 * and the turn's own offset: a resting ball it turned against sets off,
 * and its start times the contact) and over 2 R from every cushion
 * (rail_watch() times those contacts). Returns the latest such a0, with that path in *before;
 * else a. */
#define DRIFT_S 0.025
/* Whether DRIFT_S spans fewer than two frames (30 fps and slower): the
 * turn is then sought over two, longer than DRIFT_S. */
static bool drift_stretched(const cr_recon_t *rc)
{
    return lround(DRIFT_S / rc->dt) < 2;
}

static int drift_frames(const cr_recon_t *rc)
{
    return drift_stretched(rc) ? 2 : (int)lround(DRIFT_S / rc->dt);
}

/* a: a frame ball i is seen in */
static long drift_start(cr_recon_t *rc, int i, long a, seg_t *before)
{
    rball_t *b = &rc->b[i];
    const int m = drift_frames(rc);
    long k, a0 = a;
    int n = 0;

    if (!near_ball(rc, i, frm(rc, a)->x[i], frm(rc, a)->y[i], frm(rc, a)->t,
                   2.0 * rc->R + rc->p.contact_tol_mm + rc->R))
        return a; /* the cheap test first: no ball near enough to turn it */
    for (k = a; k > b->seg_from + 6 && frame_ok(rc, k - 1) && n < 2 * m; k--) {
        double d0[2] = {0.0, 0.0}, x0, y0, off_max = 0.0;
        long q;
        int r;
        bool off = true;
        seg_t p;

        if (frm(rc, k)->st[i] != OB_SEEN)
            continue;
        a0 = k;
        if (++n < m)
            continue;
        memset(&p, 0, sizeof(p));
        fit_ball(rc, i, b->seg_from, a0 - 1, &p);
        if (p.n < 6)
            return a;
        for (q = a0; q <= a && off; q++) {
            const rframe_t *g = frm(rc, q);
            const double u = g->t - frm(rc, a0 - 1)->t;
            double gx, gy, dx, dy, rr;

            if (g->st[i] != OB_SEEN)
                continue;
            seg_eval(&p, g->t, &gx, &gy);
            dx = g->x[i] - gx;
            dy = g->y[i] - gy;
            rr = hypot(dx, dy);
            off = rr > fmax(0.5 * rc->p.kink_min_mm, 0.6 * rc->p.kink_k * sig(rc, g->s[i]) * sqrt(1.0 + 4.0 / p.n)) +
                           0.25 * rc->p.accel_max_mm_s2 * u * u;
            if (q == a0 && off) {
                d0[0] = dx / rr;
                d0[1] = dy / rr;
            } else if (off) {
                off = dx * d0[0] + dy * d0[1] >= 0.7 * rr;
            }
            off_max = fmax(off_max, rr);
        }
        if (!off)
            continue;
        seg_eval(&p, frm(rc, a0)->t, &x0, &y0);
        for (r = 0; r < CR_RAIL_COUNT; r++)
            if (rail_dist(rc, r, x0, y0) < 2.0 * rc->R)
                return a;
        if (!near_ball(rc, i, x0, y0, frm(rc, a0)->t, 2.0 * rc->R + rc->p.contact_tol_mm + off_max))
            return a;
        p.t0 = cur_seg(b)->t0;
        *before = p;
        return a0;
    }
    return a;
}

/* A moving ball at frame a. */
static void analyse_moving(cr_recon_t *rc, int i, long a)
{
    rball_t *b = &rc->b[i];
    rframe_t *f = frm(rc, a);
    seg_t *s = cur_seg(b), before, m;
    double s_a = sig(rc, f->s[i]), px, py, res, thr;
    long k, e = last_frame(rc, a);
    const long a_now = a;
    bool drift = false;

    rail_watch(rc, i, a);
    if (f->st[i] != OB_SEEN) {
        for (k = a + 1; k <= e; k++)
            if (frm(rc, k)->st[i] == OB_SEEN)
                return; /* a dropout: wait */
        /* unseen for two frames and 50 ms at least (at 120 fps a ball in
         * a jaw's shadow is often missed for a few frames) */
        if (f->st[i] == OB_HIDDEN &&
            (a - b->last_seen < 2 || !frame_ok(rc, b->last_seen) || f->t - frm(rc, b->last_seen)->t < VANISH_WAIT_S))
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
    if (res <= thr && s->n >= 8) {
        seg_t sb;
        long a0 = drift_start(rc, i, a, &sb);

        if (a0 < a) {
            /* a turn the frames since a0 show together: found at a0 */
            *s = sb;
            a = a0;
            f = frm(rc, a);
            res = INFINITY;
            drift = true;
        }
    }
    if (res > thr) {
        bool confirmed = true;
        double vx = 0, vy = 0, ox, oy, tk, kx, ky, bestd = INFINITY, tp;
        int n;

        /* a one-frame offset must hold in the frames after it (drift_start()
         * has asked that already) */
        for (k = a + 1; k <= e && !drift; k++) {
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
        if (drift) {
            /* its first frames off the path may not have shown it yet */
            int back = drift_frames(rc);

            for (k = a - 1; frame_ok(rc, k) && k > b->seg_from; k--)
                if (frm(rc, k)->st[i] == OB_SEEN) {
                    tp = frm(rc, k)->t;
                    if (--back <= 0)
                        break;
                }
        } else if (b->last_seen >= 0 && frame_ok(rc, b->last_seen)) {
            tp = frm(rc, b->last_seen)->t;
        }
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

            change_t *c = add_change(rc, CH_KINK, i, tk, &before, vo, kx, ky);

            if (c)
                c->drift = drift;
        }
        b->anchor = false; /* the meeting point is too rough to fit through */
        b->anc_x = kx;
        b->anc_y = ky;
        b->anc_t = tk;
        b->seg_from = a;
        memset(&m, 0, sizeof(m));
        fit_ball(rc, i, a, a_now, &m);
        m.t0 = tk;
        push_seg(b, &m);
        b->last_seen = a_now;
        return;
    }
    b->last_seen = a;
    fit_ball(rc, i, b->seg_from, a, &m);
    m.t0 = s->t0;
    *s = m;
    graze_cushions(rc, i, a);
    {
        double mx, my, vx, vy, ts, dec;

        if (is_still(rc, i, a, &mx, &my) && stop_time(rc, i, a, &ts, &dec) <= f->t) {
            learn_roll(rc, i, mx, my, dec);
            seg_vel(s, f->t - rc->p.still_s, &vx, &vy);
            came_to_rest_on_cushion(rc, i, s, ts, mx, my);
            b->state = B_REST;
            memset(b->rw_on, 0, sizeof(b->rw_on));
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

/* Ball k's path as its samples up to time t show it: a line through the
 * last HIT_SAMPLES seen at or before t (within HIT_SAMPLES + 2 frames).
 * A segment fitted over a contact, before the kink that ends it is found,
 * is bent by the samples after it (a stunned cue ball that stopped there
 * draws its fit short of the ball it hit: a late contact). False when
 * fewer than 3 samples are there. */
#define HIT_SAMPLES 6
static bool path_before(cr_recon_t *rc, int k, double t, seg_t *out)
{
    long q = last_frame(rc, rc->next), k1 = -1, k0;
    double px, py, vx, vy;
    int n;

    for (; frame_ok(rc, q); q--)
        if (frm(rc, q)->t <= t + 1e-9) {
            k1 = q;
            break;
        }
    if (k1 < 0)
        return false;
    k0 = k1 - (HIT_SAMPLES + 2);
    while (!frame_ok(rc, k0))
        k0++;
    n = 0;
    for (q = k1; q >= k0 && n < HIT_SAMPLES; q--)
        if (frm(rc, q)->st[k] == OB_SEEN)
            n++;
    if (n < 3)
        return false;
    k0 = q + 1;
    if (line_fit(rc, k, k0, k1, frm(rc, k1)->t, &px, &py, &vx, &vy) < 3)
        return false;
    memset(out, 0, sizeof(*out));
    out->t0 = frm(rc, k0)->t;
    out->tr = frm(rc, k1)->t;
    out->p[0] = px;
    out->p[1] = py;
    out->v[0] = vx;
    out->v[1] = vy;
    out->n = n;
    return true;
}

/* How far before a struck ball's dated start its contact may lie when the
 * hitter is found already touching it (hitter_score()): a ball leaving at
 * 40 mm/s crosses a 3-sigma threshold of 2-3 mm in some 60 ms. */
#define EARLY_S 0.15

/* Whether ball k, gone from the table, may still be the ball that hit
 * something at t_lo or after: one just pocketed, lost or vanished may have
 * hit before it went (it went, or was last seen, since t_lo); a numbered
 * ball that vanished at rest, neither pocketed nor off the table, may still
 * lie there unseen (of the cloth's colour); a track with no number that
 * vanished long ago is no ball now (the cue ball in hand, lifted and put
 * down elsewhere). */
static bool gone_may_hit(cr_recon_t *rc, int k, double t_lo)
{
    const rball_t *bk = &rc->b[k];

    return (k < NID && !bk->down) || bk->t_gone >= t_lo ||
           (frame_ok(rc, bk->last_seen) && frm(rc, bk->last_seen)->t >= t_lo);
}

/* The cushion a hitter came off on its way to the ball it struck
 * (between_blows()): rail -1 when none. */
typedef struct {
    int rail;
    double t, x, y;
} hit_turn_t;

/* Ball k's path between two blows a frame or so apart: it turned at t_k
 * (its segment `in` ends there; at a cushion when that path reached one
 * within a frame of t_k, from there) and struck another ball at about t_on.
 * Its segment after t_k is fitted over the samples after both blows and
 * misses the ball it struck (a late contact, or none); its way between is
 * the line from the turn through its sightings in (t_k, t_on], raw (one
 * often: at 30 fps the cue ball off a cushion meets a ball waiting a few
 * centimetres out within a frame). False when none was seen there, or the
 * line is faster than the way in (neither a cushion nor a blow speeds a
 * ball up). */
static bool between_blows(cr_recon_t *rc, int k, const seg_t *in, double t_k, double t_on, seg_t *out, int *rail)
{
    double tc = t_k, cx, cy, vin[2], sxx = 0, sx[2] = {0, 0}, best = rc->dt;
    long q, e = last_frame(rc, rc->next);
    int n = 0;

    *rail = -1;
    for (int r = 0; r < CR_RAIL_COUNT; r++) {
        double tr = rail_time(rc, in, r, t_k - rc->dt, t_k + rc->dt);

        if (isfinite(tr) && fabs(tr - t_k) <= best) {
            best = fabs(tr - t_k);
            tc = tr;
            *rail = r;
        }
    }
    if (!(tc < t_on))
        return false;
    seg_eval(in, tc, &cx, &cy);
    seg_vel(in, tc, &vin[0], &vin[1]);
    for (q = e; frame_ok(rc, q) && frm(rc, q)->t > tc; q--) {
        const rframe_t *g = frm(rc, q);
        double u = g->t - tc;

        if (g->t > t_on + 0.25 * rc->dt || g->st[k] != OB_SEEN || u < 0.1 * rc->dt)
            continue;
        sxx += u * u;
        sx[0] += u * (g->rx[k] - cx);
        sx[1] += u * (g->ry[k] - cy);
        n++;
    }
    if (n == 0)
        return false;
    memset(out, 0, sizeof(*out));
    out->t0 = tc;
    out->tr = tc;
    out->p[0] = cx;
    out->p[1] = cy;
    out->v[0] = sx[0] / sxx;
    out->v[1] = sx[1] / sxx;
    out->n = n;
    if (*rail >= 0) {
        /* a cushion turns the normal velocity from into it to off it */
        double nx, ny;

        rail_normal(*rail, &nx, &ny);
        if (!(vin[0] * nx + vin[1] * ny < 0 && out->v[0] * nx + out->v[1] * ny > 0))
            *rail = -1;
    }
    return hypot(out->v[0], out->v[1]) <= 1.2 * hypot(vin[0], vin[1]) + 100.0;
}

/* Ball k's candidate as the one that hit ball c->ball. Returns a score
 * (lower is better; INFINITY when impossible) and the contact time. */
static double hitter_score(cr_recon_t *rc, const change_t *c, int k, bool allow_pending, double *t_out,
                           bool *frozen_out, hit_turn_t *turn)
{
    rball_t *bk = &rc->b[k];
    const seg_t *cands[3];
    int nc = 0, q, j;
    bool moving = bk->state == B_MOVING || bk->state == B_LOST || (bk->state == B_REST && bk->t_stop > c->t - rc->dt);
    bool pending = false, resolved_onset = false;
    double back = 3.0 * rc->dt;
    double best = INFINITY, win = c->kind == CH_ONSET ? back : 1.5 * rc->dt;

    /* a ball gone from the table hits nothing after it went */
    if (!on_table_state(bk->state) && !(bk->state == B_GONE && gone_may_hit(rc, k, c->t - back - rc->dt)))
        return INFINITY;
    for (j = 0; j < rc->nch; j++) {
        if (rc->ch[j].ball != k || &rc->ch[j] == c)
            continue;
        if (fabs(rc->ch[j].t - c->t) <= 2.0 * rc->dt) {
            pending = true;
            if (rc->ch[j].kind == CH_ONSET && rc->ch[j].done)
                resolved_onset = true;
            if (rc->ch[j].kind == CH_ONSET && !rc->ch[j].done && !allow_pending && c->kind != CH_KINK)
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
    /* the segments that were its path in the window, each only over its
     * own span (a segment extrapolated back before its start is no path;
     * the oldest kept one may be) */
    {
        double w_lo = c->t - back, w_hi = c->t + 2.0 * rc->dt, end;
        const seg_t *sq;

        for (j = 0; nc < 3 && (sq = seg_back(bk, j, &end)) != NULL; j++) {
            if (sq->t0 > w_hi + 0.5 * rc->dt)
                continue;
            cands[nc++] = sq;
            if (sq->t0 <= w_lo || sq->rest)
                break;
        }
    }
    for (q = 0; q < nc; q++) {
        bool fr;
        double dmin, tmin, tc, sc, ax, ay, bx, by;
        seg_t bb;
        const seg_t *path = cands[q]; /* the hitter's way to the contact */
        int bb_rail = -1;

        double lo = c->t - back, hi = c->t + 2.0 * rc->dt, se;
        bool starts_inside = false, early = false;

        if (!cands[q])
            continue;
        /* only while the candidate's segment was (or could have been) its path */
        se = seg_end(bk, cands[q]);
        if (!cands[q]->rest) {
            if (hi > se + 0.5 * rc->dt)
                hi = se + 0.5 * rc->dt;
            if (lo < cands[q]->t0 - 0.5 * rc->dt && q < nc - 1) {
                lo = cands[q]->t0 - 0.5 * rc->dt;
                starts_inside = true;
            }
        }
        if (hi <= lo)
            continue;
        tc = contact_time(&c->before, cands[q], lo, hi, 2.0 * rc->R, &fr, &dmin, &tmin);
        if (c->kind == CH_ONSET && !cands[q]->rest && isfinite(tc) && !fr && tc > c->t + 0.25 * rc->dt) {
            /* a contact after the struck ball set off: the hitter's fit is
             * bent by what it did after it; its path as seen before */
            seg_t pb;
            bool fr2;
            double d2, t2, tc2;

            if (path_before(rc, k, c->t, &pb) && pb.t0 >= cands[q]->t0 - 0.5 * rc->dt) {
                tc2 = contact_time(&c->before, &pb, lo, hi, 2.0 * rc->R, &fr2, &d2, &t2);
                if (isfinite(tc2) && !fr2)
                    tc = tc2;
            }
        }
        if (q + 1 < nc && !cands[q]->rest && !cands[q + 1]->rest &&
            cands[q]->t0 > c->t - 2.0 * rc->dt && (!isfinite(tc) || (!fr && tc > c->t + 0.25 * rc->dt)) &&
            between_blows(rc, k, cands[q + 1], cands[q]->t0, c->t, &bb, &bb_rail)) {
            /* turned a frame or so before the blow: its way between the
             * two blows (between_blows()) */
            bool fr2;
            double d2, t2, tc2 = contact_time(&c->before, &bb, fmax(lo, bb.t0), hi, 2.0 * rc->R, &fr2, &d2, &t2);

            if (isfinite(tc2) && !fr2) {
                tc = tc2;
                fr = false;
                path = &bb;
            }
        }
        if (!isfinite(tc)) {
            if (dmin > 2.0 * rc->R + rc->p.contact_tol_mm)
                continue;
            tc = tmin;
        }
        if (fr && starts_inside && !cands[q + 1]->rest)
            continue; /* it came into contact on its previous segment */
        if (fr && c->kind == CH_ONSET && !cands[q]->rest && cands[q]->t0 < lo - rc->dt) {
            /* found touching at the window's start, yet it came from afar:
             * the struck ball crept under the noise after the contact (a
             * thin cut) and its start is dated late; the contact is where
             * the hitter's path first reached it, up to EARLY_S before */
            bool fr2;
            double d2, t2, from = fmax(cands[q]->t0, c->t - EARLY_S);
            double tc2 = contact_time(&c->before, cands[q], from, lo, 2.0 * rc->R, &fr2, &d2, &t2);

            if (isfinite(tc2) && !fr2) {
                tc = tc2;
                fr = false;
                early = true;
            }
        }
        if (fr) {
            /* touching already: a frozen pair starting together */
            if (!pending && !(cands[q]->rest == false))
                continue;
            tc = c->t;
        }
        if (fabs(tc - c->t) > win && !fr && !early)
            continue;
        sc = early ? 1.0 : fabs(tc - c->t) / rc->dt;
        if (c->kind == CH_KINK && tc > c->t)
            sc += 2.0 * (tc - c->t) / rc->dt; /* its path ends at the kink: a later contact is on
                                                * the extrapolation, past the ball it hit */
        if (fr)
            sc += 1.0 + (resolved_onset ? 0.0 : 1.0);
        if (!moving && !pending)
            sc += 1.0;
        /* the struck ball leaves along the line of centres */
        seg_eval(path, tc, &ax, &ay);
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
            double sp = hypot(c->mv[0], c->mv[1]), lx = bx - ax, ly = by - ay, ll = hypot(lx, ly);

            if (sp > 0.5 && ll > 0) {
                double cs = (c->mv[0] * lx + c->mv[1] * ly) / (sp * ll);

                if (cs < 0.3)
                    continue;
                sc += 2.0 * (1.0 - cs);
            }
            /* a ball struck from rest leaves no faster than the ball that
             * struck it came in (equal masses: its full speed on a straight
             * hit, less on a cut), so a ball creeping (a wavering fit
             * beside it) did not send it off fast; allowed twice the speed
             * and 300 mm/s for the fits' errors. Not for a blow passed on
             * through touching balls (pending, frozen): the one between
             * barely moves */
            if (!pending && !fr) {
                double hv[2];

                seg_vel(path, tc, &hv[0], &hv[1]);
                if (2.0 * hypot(hv[0], hv[1]) + 300.0 < hypot(c->vout[0], c->vout[1]))
                    continue;
            }
            /* between shots a hitter comes from somewhere: a path of less
             * than a radius up to the contact is a resting ball's fit
             * wavering beside the cue ball as the cue strikes it (a green
             * ball on green cloth), not a ball that rolled into it */
            if (!rc->active && !fr && !cands[q]->rest) {
                double sx, sy;

                seg_eval(cands[q], cands[q]->t0, &sx, &sy);
                if (hypot(ax - sx, ay - sy) < rc->R)
                    continue;
            }
        }
        if (sc < best) {
            best = sc;
            *t_out = tc;
            *frozen_out = fr;
            turn->rail = -1;
            if (path == &bb) {
                turn->rail = bb_rail;
                turn->t = bb.t0;
                turn->x = bb.p[0];
                turn->y = bb.p[1];
            }
        }
    }
    return best;
}

/* Inward unit normal of rail r (pointing into the table). */
static void rail_normal(int r, double *nx, double *ny)
{
    *nx = r == CR_RAIL_HEAD ? 1 : r == CR_RAIL_FOOT ? -1 : 0;
    *ny = r == CR_RAIL_LEFT ? 1 : r == CR_RAIL_RIGHT ? -1 : 0;
}

/* Ball i, at distance d0 from rail r when struck at tc: when frames after
 * the blow see it on its way in (nearer the cushion by 4 sigma), the
 * contact comes after the last such sample: if the ball has turned since,
 * the time is the V fit to the samples from tc on (rail_contact_time; at
 * least two on the way in), else it lies between the last sample in and
 * the first out; if it has not turned yet, *t (the blow's prediction) is
 * kept no earlier than the last sample in. False when no sample saw it on
 * its way in: the contact came before the first frame after the blow. */
static bool inward_contact(cr_recon_t *rc, int i, int r, double tc, double d0, double *t)
{
    long a = rc->next, e = last_frame(rc, a), k = e;
    double m = fmax(1.0, 4.0 * sig(rc, frm(rc, a)->s[i])), dmin = d0, t_in = tc, t_out = INFINITY;
    int n_in = 0;

    while (k > 0 && frame_ok(rc, k - 1) && frm(rc, k - 1)->t > tc)
        k--;
    for (; k <= e; k++) {
        rframe_t *g;
        double d;

        if (!frame_ok(rc, k) || (g = frm(rc, k))->st[i] != OB_SEEN || g->t <= tc)
            continue;
        d = cush_dist(rc, r, g->x[i], g->y[i]);
        if (d > dmin + m) {
            t_out = g->t;
            break;
        }
        if (d < dmin) {
            dmin = d;
            if (d < d0 - m) {
                n_in++;
                t_in = g->t;
            }
        }
    }
    if (n_in == 0)
        return false;
    if (!isfinite(t_out)) { /* not turned yet: the contact is still to come */
        *t = fmax(*t, t_in);
        return true;
    }
    if (n_in >= 2) {
        bool ok;
        double tv = rail_contact_time(rc, i, r, last_frame(rc, a), t_in, tc, NULL, sig(rc, frm(rc, a)->s[i]), false, &ok, NULL);

        if (ok && tv >= t_in && tv <= t_out) {
            *t = tv;
            return true;
        }
    }
    *t = fmin(fmax(*t, t_in), t_out);
    return true;
}

/* A ball sent at v_in into a cushion gap mm away (under R) reached it: the
 * cloth cannot stop it over that gap. */
static bool reaches_near_cushion(const cr_recon_t *rc, double v_in, double gap)
{
    return gap < rc->R && v_in * v_in > 2.0 * rc->p.accel_max_mm_s2 * gap;
}

/* The velocity ball k was seen to leave with after a kink in [lo, hi]: the
 * kink's (this frame's changes), else its current segment when that began
 * then. False when neither is known. */
static bool velocity_after(cr_recon_t *rc, int k, double lo, double hi, double v[2])
{
    rball_t *b = &rc->b[k];
    const seg_t *s;
    int q;

    for (q = 0; q < rc->nch; q++)
        if (rc->ch[q].ball == k && rc->ch[q].kind == CH_KINK && rc->ch[q].t >= lo && rc->ch[q].t <= hi) {
            v[0] = rc->ch[q].vout[0];
            v[1] = rc->ch[q].vout[1];
            return true;
        }
    if (b->nh == 0 || b->state != B_MOVING)
        return false;
    s = cur_seg(b);
    if (s->rest || s->n < 2 || s->t0 < lo || s->t0 > hi)
        return false;
    seg_vel(s, s->t0, &v[0], &v[1]);
    return true;
}

/* The collision of a and b queued near t (this frame's or waiting), or NULL. */
static cr_event_t *queued_collision(cr_recon_t *rc, int a, int b, double t, double win)
{
    int q;

    for (q = 0; q < rc->nbatch + rc->nq; q++) {
        cr_event_t *e = q < rc->nbatch ? &rc->batch[q] : &rc->q[q - rc->nbatch];

        if (e->type == CR_EV_COLLISION && same_pair(e->a, e->b, a, b) && fabs(e->t - t) <= win)
            return e;
    }
    return NULL;
}

/* Ball b (c->ball), at rest at (c->x, c->y) a few millimetres off cushion
 * r, was struck by the moving ball k near tc and sent into that cushion.
 * Coming back off it, it meets k again when k's path after the blow is
 * still in its way, all within a frame or two; the frames see one kink of
 * k. From the physics: k's approach reached 2R from b at t1; equal masses,
 * so b left along the line of centres l with k's speed along it, vb, and k
 * went on with its velocity less that; b turned at the cushion with a
 * restitution anywhere in 0.6-0.95 (over some hundredths of a second both
 * paths are straight: the cloth changes a speed by a few mm/s in that
 * time). When every restitution in that range brings the two to 2R within
 * 0.1 s, and k's velocity seen after the kink is not against the push away
 * from b that the second blow gives, the second contact is reported, timed
 * at the middle restitution, and the first is timed at t1 (the kink fitted
 * to both contacts lies between them). The paths say whether it can
 * happen; the velocity seen after vetoes it when it says k went the other
 * way. It cannot confirm it: measured over the frames after the kink it
 * mixes both blows with the spin taking hold (draw or follow), and of 19
 * second contacts the truth has among 24 such predictions on the recon
 * sets it showed half the push for 6 (the rule until now), none or more
 * for 15 (and for 2 of the 5 predictions with no second contact). */
static bool rebound_contact(cr_recon_t *rc, int k, int b, double bx, double by, double tc, int r)
{
    const double es[3] = {0.6, 0.775, 0.95}, H = 0.1;
    const seg_t *ap = seg_at(&rc->b[k], tc - 0.5 * rc->dt);
    seg_t rb;
    double t1, t2[3], dmin, tmin, ph[2], l[2], hv[2], vb, nx, ny, vn, gap, t_r, u[2], vo[2], m2[2] = {0, 0},
                                                                                       vr2[2] = {0, 0};
    bool frozen;
    int q;

    if (!ap || ap->rest)
        return true;
    rest_seg(&rb, tc - 1.0, bx, by);
    t1 = contact_time(ap, &rb, tc - 4.0 * rc->dt, tc + rc->dt, 2.0 * rc->R, &frozen, &dmin, &tmin);
    if (!isfinite(t1) || frozen)
        return true;
    seg_eval(ap, t1, &ph[0], &ph[1]);
    seg_vel(ap, t1, &hv[0], &hv[1]);
    l[0] = (bx - ph[0]) / (2.0 * rc->R);
    l[1] = (by - ph[1]) / (2.0 * rc->R);
    vb = hv[0] * l[0] + hv[1] * l[1];
    rail_normal(r, &nx, &ny);
    vn = vb * (l[0] * nx + l[1] * ny); /* < 0: into the cushion */
    gap = fmax(0.0, rail_dist(rc, r, bx, by) - rc->R);
    if (!(vb > 0) || !(vn < -1.0))
        return true;
    if (!velocity_after(rc, k, t1 - rc->dt, t1 + 6.0 * rc->dt, vo))
        return false; /* k's kink not seen yet */
    t_r = t1 + gap / -vn;
    u[0] = hv[0] - vb * l[0];
    u[1] = hv[1] - vb * l[1];
    for (q = 0; q < 3; q++) {
        const double vr[2] = {vb * l[0] - (1.0 + es[q]) * vn * nx, vb * l[1] - (1.0 + es[q]) * vn * ny};
        const double pr[2] = {bx + vb * l[0] * (t_r - t1), by + vb * l[1] * (t_r - t1)};
        double t;

        t2[q] = NAN;
        for (t = t_r; t <= t_r + H; t += 0.0002) {
            double dx = pr[0] + vr[0] * (t - t_r) - (ph[0] + u[0] * (t - t1)),
                   dy = pr[1] + vr[1] * (t - t_r) - (ph[1] + u[1] * (t - t1));

            if (dx * (vr[0] - u[0]) + dy * (vr[1] - u[1]) < 0 && hypot(dx, dy) <= 2.0 * rc->R) {
                t2[q] = t;
                if (q == 1) {
                    m2[0] = dx / hypot(dx, dy);
                    m2[1] = dy / hypot(dx, dy);
                    vr2[0] = vr[0];
                    vr2[1] = vr[1];
                }
                break;
            }
        }
        if (!isfinite(t2[q]))
            return true;
    }
    {
        /* the second blow pushes k along -m2 by w (the normal components
         * trade) */
        const double w = (u[0] - vr2[0]) * m2[0] + (u[1] - vr2[1]) * m2[1];
        const double push = -((vo[0] - u[0]) * m2[0] + (vo[1] - u[1]) * m2[1]);
        cr_event_t *first;

        if (!(w > 0) || !(push >= 0.0))
            return true;
        first = queued_collision(rc, k, b, tc, 3.0 * rc->dt);
        if (first && fabs(first->t - t1) > 0.25 * rc->dt) {
            for (q = 0; q < rc->n_recent; q++)
                if (same_pair(rc->recent[q].a, rc->recent[q].b, k, b) && rc->recent[q].t == first->t)
                    rc->recent[q].t = t1;
            if (rc->first_done && rc->t_first == first->t)
                rc->t_first = t1;
            first->t = t1;
        }
        emit_collision_ex(rc, k, b, t2[1], 0.8, true);
    }
    return true;
}

/* Checks rebound_contact() for ball b, struck at rest (its change c) by k
 * at tc and sent into cushion r: now, or once k's kink is seen (within six
 * frames). */
static void rebound_check(cr_recon_t *rc, const change_t *c, int k, double tc, int r)
{
    double bx = c->before.rest ? c->before.p[0] : c->x, by = c->before.rest ? c->before.p[1] : c->y;

    if (!rebound_contact(rc, k, c->ball, bx, by, tc, r))
        for (int q = 0; q < RB_WAIT; q++)
            if (!rc->rb_wait[q].on) {
                rc->rb_wait[q].on = true;
                rc->rb_wait[q].k = k;
                rc->rb_wait[q].b = c->ball;
                rc->rb_wait[q].r = r;
                rc->rb_wait[q].tc = tc;
                rc->rb_wait[q].x = bx;
                rc->rb_wait[q].y = by;
                break;
            }
}

/* The waiting rebound checks at frame time t: done once k's velocity after
 * is known, dropped six frames after the blow. */
static void rebound_waiting(cr_recon_t *rc, double t)
{
    for (int q = 0; q < RB_WAIT; q++)
        if (rc->rb_wait[q].on &&
            (rebound_contact(rc, rc->rb_wait[q].k, rc->rb_wait[q].b, rc->rb_wait[q].x, rc->rb_wait[q].y, rc->rb_wait[q].tc,
                             rc->rb_wait[q].r) ||
             t > rc->rb_wait[q].tc + 6.0 * rc->dt))
            rc->rb_wait[q].on = false;
}

/* A ball resting near a cushion, struck toward it, that is first seen
 * moving away from it has been to the cushion and back in between (it is
 * all over within a frame or two when the gap is small): the cushion
 * contact, when the ball, sent along the line of centres from hitter k at
 * tc, covered the gap to R from the nose line. Returns whether it found
 * one. */
static bool bounce_after_blow(cr_recon_t *rc, const change_t *c, int k, double tc)
{
    double hx, hy, lx, ly, ll, sp, mv[2], vb;
    int r;
    bool found = false;

    ball_pos_at(rc, k, tc, &hx, &hy);
    lx = c->x - hx;
    ly = c->y - hy;
    ll = hypot(lx, ly);
    mv[0] = c->mv[0];
    mv[1] = c->mv[1];
    if (hypot(mv[0], mv[1]) < 0.5) {
        sp = hypot(c->vout[0], c->vout[1]);
        if (!(sp > 0))
            return false;
        mv[0] = c->vout[0] / sp;
        mv[1] = c->vout[1] / sp;
    }
    if (!(ll > 0))
        return false;
    lx /= ll;
    ly /= ll;
    sp = hypot(c->vout[0], c->vout[1]);
    /* the speed the blow gave it: the hitter's velocity along the line of
     * centres (equal masses; the struck ball was at rest) */
    {
        double hv[2];

        seg_vel(seg_at(&rc->b[k], tc - 0.5 * rc->dt), tc, &hv[0], &hv[1]);
        vb = fmax(0.0, hv[0] * lx + hv[1] * ly);
    }
    for (r = 0; r < CR_RAIL_COUNT; r++) {
        double nx, ny, d = rail_dist(rc, r, c->x, c->y), bin, bout, t, x = c->x, y = c->y, gap = fmax(0.0, d - rc->R);
        bool seen_back, must_reach;

        if (d > 2.0 * rc->R + rc->p.contact_tol_mm)
            continue;
        rail_normal(r, &nx, &ny);
        bin = lx * nx + ly * ny;     /* < 0: sent toward the cushion */
        bout = mv[0] * nx + mv[1] * ny; /* > 0: seen leaving it */
        /* leaving it at the first sight, or between it and the lookahead
         * (the fitted velocity over those frames turns away) */
        seen_back = bout > 0.2 || (sp > 100.0 && (c->vout[0] * nx + c->vout[1] * ny) > 0.3 * sp);
        /* or sent into a cushion less than R away faster than the cloth can
         * stop it over that gap: it cannot have missed it */
        must_reach = reaches_near_cushion(rc, vb * -bin, gap);
        if (!(bin < -0.2 && (seen_back || must_reach)))
            continue;
        /* the ball crossed the gap at the speed the blow gave it; the
         * speed it is seen leaving with is after the cushion took its
         * share (a contact timed by it comes late) */
        if (must_reach || vb > sp)
            sp = vb;
        t = tc + (sp > 1.0 ? gap / (sp * -bin) : 0.0);
        if (!inward_contact(rc, c->ball, r, tc, d, &t)) {
            if (t > c->t + rc->dt)
                t = c->t + rc->dt;
            if (t < tc)
                t = tc;
        }
        x += lx * gap / -bin;
        y += ly * gap / -bin;
        /* not where the rail opens into a pocket (as set_blow()): a ball
         * resting in a mouth, past the nose line, is struck into the
         * pocket, not into a cushion (720p30 clips 06, 09, 10 and 11; a
         * jaw it meets is found by its distances to the cushion, rail_watch()) */
        if (near_pocket(rc, x, y, 0.0, NULL) >= 0)
            continue;
        emit_cushion(rc, c->ball, (cr_rail_t)r, t, x, y);
        rebound_check(rc, c, k, tc, r);
        found = true;
    }
    return found;
}

/* Ball i's contact with rail r at t, found in a collision's kink at tc
 * (cushion_in_kink()): reported, unless the distances to the nose found
 * the same contact already. Found within a frame of the blow, that one is
 * kept; more than a frame from it (a V fitted across the blow's kink too,
 * which bends it), it is timed here: in the batch, which is put in order
 * when queued, or taken out of the queue and put back in time order. */
static void retime_cushion(cr_recon_t *rc, int i, int r, double t, double tc, double x, double y)
{
    cr_event_t *f = NULL, e;
    int q;

    for (q = 0; q < rc->nbatch + rc->nq; q++) {
        f = q < rc->nbatch ? &rc->batch[q] : &rc->q[q - rc->nbatch];
        if (f->type == CR_EV_CUSHION && f->ball == i && f->rail == (cr_rail_t)r && fabs(f->t - t) < 4.0 * rc->dt)
            break;
    }
    if (q == rc->nbatch + rc->nq) {
        emit_cushion(rc, i, (cr_rail_t)r, t, x, y);
        return;
    }
    if (fabs(f->t - tc) <= rc->dt)
        return;
    rc->b[i].t_cush[r] = t;
    if (q < rc->nbatch) {
        f->t = t;
        return;
    }
    q -= rc->nbatch;
    e = *f;
    e.t = t;
    memmove(&rc->q[q], &rc->q[q + 1], sizeof(rc->q[0]) * (size_t)(rc->nq - q - 1));
    rc->nq--;
    queue_event_sorted(rc, &e);
}

/* Ball c->ball, moving, kinked by a blow from k at tc: a ball's blow
 * changes its velocity along the line of centres alone, away from k (the
 * throw of the balls' friction is a few degrees). When the change has a
 * part the blow cannot give, a cushion the ball was within a frame of gave
 * it: the change is a push along the line of centres and one along the
 * cushion's normal, off it, both not negative, and that off the cushion
 * large (over a fifth of the speed, and 30 mm/s). The contact: where the
 * path before, or after the blow, reaches R from the nose, within a frame
 * of tc. Not at a pocket's jaws, nor where the two directions are near
 * parallel (a blow straight into the cushion: the parts cannot be told). */
static void cushion_in_kink(cr_recon_t *rc, const change_t *c, int k, double tc)
{
    double px, py, hx, hy, n[2], l, vb[2], dv[2], sp;
    int r;

    if (c->kind != CH_KINK || c->before.rest)
        return;
    seg_eval(&c->before, tc, &px, &py);
    ball_pos_at(rc, k, tc, &hx, &hy);
    n[0] = px - hx;
    n[1] = py - hy;
    l = hypot(n[0], n[1]);
    if (!(l > 0))
        return;
    n[0] /= l;
    n[1] /= l;
    seg_vel(&c->before, tc, &vb[0], &vb[1]);
    dv[0] = c->vout[0] - vb[0];
    dv[1] = c->vout[1] - vb[1];
    sp = fmax(hypot(vb[0], vb[1]), hypot(c->vout[0], c->vout[1]));
    for (r = 0; r < CR_RAIL_COUNT; r++) {
        double m[2], det, al, kk, d = cush_dist(rc, r, px, py), vm[2], vin, t;

        if (fabs(d - rail_dist(rc, r, px, py)) > 1e-6 || d > rc->R + rc->p.contact_tol_mm + sp * rc->dt)
            continue;
        rail_normal(r, &m[0], &m[1]);
        det = n[0] * m[1] - n[1] * m[0];
        if (fabs(det) < 0.3)
            continue;
        al = (dv[0] * m[1] - dv[1] * m[0]) / det;
        kk = (n[0] * dv[1] - n[1] * dv[0]) / det;
        if (!(kk > 0.2 * sp && kk > 30.0 && al > -0.1 * sp))
            continue;
        /* into the cushion before the blow, or sent into it by the blow */
        vin = vb[0] * m[0] + vb[1] * m[1];
        vm[0] = vb[0] + fmax(al, 0.0) * n[0];
        vm[1] = vb[1] + fmax(al, 0.0) * n[1];
        if (vin < 0 && d <= rc->R)
            t = tc - (rc->R - d) / -vin; /* it was there first */
        else if (vm[0] * m[0] + vm[1] * m[1] < 0)
            t = tc + fmax(0.0, d - rc->R) / -(vm[0] * m[0] + vm[1] * m[1]);
        else
            continue;
        t = fmin(fmax(t, tc - rc->dt), tc + rc->dt);
        retime_cushion(rc, c->ball, r, t, tc, px, py);
    }
}

/* Ball c->ball, struck at rest by collision e, leaves a cushion within
 * 1.5 R the other way than the blow sent it: that cushion's contact, at
 * the speed the ball is seen leaving with (which the cushion has cut: a
 * late time). */
static void bounce_seen_leaving(cr_recon_t *rc, const change_t *c, const recent_t *e)
{
    const double lx = c->x - e->x, ly = c->y - e->y, ll = hypot(lx, ly), sp = hypot(c->vout[0], c->vout[1]);

    for (int r = 0; r < CR_RAIL_COUNT && ll > 0 && sp > 0; r++) {
        double d = rail_dist(rc, r, c->x, c->y), nx, ny, vin, vout;

        rail_normal(r, &nx, &ny);
        vin = (lx * nx + ly * ny) / ll;
        vout = (c->vout[0] * nx + c->vout[1] * ny) / sp;
        if (d < rc->R + 0.5 * rc->R && vin < -0.05 && vout > 0.05) {
            double tc = e->t + fmax(0.0, d - rc->R) / sp, x = c->x, y = c->y;

            if (r == CR_RAIL_HEAD || r == CR_RAIL_FOOT)
                x = r == CR_RAIL_HEAD ? rc->R : rc->tab.length_mm - rc->R;
            else
                y = r == CR_RAIL_LEFT ? rc->R : rc->tab.width_mm - rc->R;
            emit_cushion(rc, c->ball, (cr_rail_t)r, tc, x, y);
            return;
        }
    }
}

/* An onset that a collision already emitted explains (the other ball's
 * kink came first). A ball resting near a cushion that leaves it the other
 * way than the blow sent it has bounced off that cushion in between: timed
 * from the blow by bounce_after_blow(); where that finds no contact, at the
 * speed the ball is seen leaving with (which the cushion has cut: late). */
static bool explained_already(cr_recon_t *rc, change_t *c)
{
    int k;

    if (c->kind != CH_ONSET)
        return false;
    for (k = rc->n_recent - 1; k >= 0; k--) {
        const recent_t *e = &rc->recent[k];

        if ((e->a != c->ball && e->b != c->ball) || e->t < c->t - 4.0 * rc->dt || e->t > c->t + 2.0 * rc->dt)
            continue;
        /* the bounce, timed from the blow; by the speed seen leaving only
         * where that finds none */
        if (!bounce_after_blow(rc, c, e->a == c->ball ? e->b : e->a, e->t))
            bounce_seen_leaving(rc, c, e);
        c->done = true;
        return true;
    }
    return false;
}

/* Ball k, at rest, struck at t by c->ball (its path before the kink c):
 * the line of centres and the striker's speed along it (follow_blow(),
 * blow_course_cause()), and a cushion under R away that it was sent into. */
static void set_blow(cr_recon_t *rc, int k, const change_t *c, double t)
{
    rball_t *bk = &rc->b[k];
    double hx, hy, vx, vy, ux, uy, l, vn;

    seg_eval(&c->before, t, &hx, &hy);
    seg_vel(&c->before, t, &vx, &vy);
    ux = bk->rx - hx;
    uy = bk->ry - hy;
    l = hypot(ux, uy);
    if (!(l > 0))
        return;
    ux /= l;
    uy /= l;
    vn = vx * ux + vy * uy;
    if (!(vn > 0))
        return;
    bk->blow_on = true;
    bk->blow_t = t;
    bk->blow_u[0] = ux;
    bk->blow_u[1] = uy;
    bk->blow_v = vn;
    bk->blow_shot = rc->active ? rc->shot : -1;
    bk->blow_by = c->ball;
    /* sent into a cushion less than R away faster than the cloth can stop
     * it over that gap: it reached it, seen to move or not (as a ball seen
     * to start, bounce_after_blow()) */
    for (int r = 0; r < CR_RAIL_COUNT; r++) {
        double nx, ny, d = rail_dist(rc, r, bk->rx, bk->ry), gap = fmax(0.0, d - rc->R), bin;

        rail_normal(r, &nx, &ny);
        bin = ux * nx + uy * ny;
        if (bin < -0.2 && reaches_near_cushion(rc, vn * -bin, gap) &&
            near_pocket(rc, bk->rx + ux * gap / -bin, bk->ry + uy * gap / -bin, 0.0, NULL) < 0)
            emit_cushion(rc, k, (cr_rail_t)r, t + gap / (vn * -bin), bk->rx + ux * gap / -bin,
                         bk->ry + uy * gap / -bin); /* not where the rail opens into a pocket */
    }
}

/* May the motion that change c bends be no motion: ball c->ball set off
 * from rest with no cause seen (dist_pending) and is still within a radius
 * of where it rested? A ball's fit wavers that far under a cue or a hand
 * (the green 6 on green cloth beside the cue ball as the cue went over it,
 * 10 to 26 mm), and a jump of it reads as a kink with a velocity of its
 * own. Such a kink is a contact only when another ball ran at the place
 * the ball rested (explain_collision()); a touched ball is told apart when
 * it settles (decide_disturbed()). */
static bool wavered_only(const cr_recon_t *rc, const change_t *c)
{
    const rball_t *b = &rc->b[c->ball];
    double x, y;

    if (!b->dist_pending || !(c->t > b->dist_t))
        return false;
    seg_eval(&c->before, c->t, &x, &y);
    return hypot(x - b->dist_x, y - b->dist_y) < rc->R;
}

/* Is ball k moving toward (x, y) at t (its path's velocity there has a
 * component toward the point)? */
static bool runs_at(const cr_recon_t *rc, int k, double t, double x, double y)
{
    const seg_t *s = rc->b[k].nh > 0 ? seg_at(&rc->b[k], t) : NULL;
    double px, py, vx, vy;

    if (!s || s->rest)
        return false;
    seg_eval(s, t, &px, &py);
    seg_vel(s, t, &vx, &vy);
    return vx * (x - px) + vy * (y - py) > 0.0;
}

/* When ball k, struck from rest moments before t (a contact reported with
 * k struck), met ball j, resting within R of where k rested: the blow
 * sent k along the line of centres at the striker's speed along it (equal
 * masses), so it closed the gap between their rests at that speed's share
 * along the line from k's rest to j's. NaN when not such a case. (Their
 * paths after the blow, one frame or less of each, cannot time it: the
 * first estimate from them comes a frame or more late.) */
static double chain_time(cr_recon_t *rc, int k, int j, const seg_t *rest_j, double t)
{
    const seg_t *sk;
    double hv[2], l[2], u[2], ll, lu, v, gap, vu, tk = NAN, cx = 0, cy = 0;
    int q, h = -1;

    for (q = 0; q < rc->n_recent; q++) {
        const recent_t *r = &rc->recent[q];

        if (r->b == k && r->a != j && r->t < t && t - r->t <= 4.0 * rc->dt && !(r->t <= tk)) {
            tk = r->t;
            h = r->a;
            cx = r->x;
            cy = r->y;
        }
    }
    if (h < 0 || h >= NB || !rest_j || !rest_j->rest || rc->b[k].nh == 0 || rc->b[h].nh == 0)
        return NAN;
    /* where k rested: its rest that lasted until two frames or less
     * before the blow (its motion's segment may start a little before the
     * contact it is dated to) */
    sk = NULL;
    for (q = 0; q < NSEG && !sk; q++) {
        double e0;
        const seg_t *sq = seg_back(&rc->b[k], q, &e0);

        if (!sq)
            break;
        if (sq->rest && sq->t0 <= tk && e0 >= tk - 2.0 * rc->dt)
            sk = sq;
    }
    if (!sk)
        return NAN;
    l[0] = sk->p[0] - cx;
    l[1] = sk->p[1] - cy;
    u[0] = rest_j->p[0] - sk->p[0];
    u[1] = rest_j->p[1] - sk->p[1];
    ll = hypot(l[0], l[1]);
    lu = hypot(u[0], u[1]);
    gap = lu - 2.0 * rc->R;
    if (!(ll > 0) || !(lu > 0) || gap > rc->R)
        return NAN;
    l[0] /= ll;
    l[1] /= ll;
    u[0] /= lu;
    u[1] /= lu;
    seg_vel(seg_at(&rc->b[h], tk - 0.5 * rc->dt), tk, &hv[0], &hv[1]);
    v = hv[0] * l[0] + hv[1] * l[1];
    vu = v * (l[0] * u[0] + l[1] * u[1]);
    if (!(v > 0) || !(vu > 0.1 * v))
        return NAN;
    return tk + fmax(0.0, gap) / vu;
}

/* Ball i's sightings in the frames up to e with times in (lo, hi]: their
 * count, the earliest and latest frame (-1 when none) and the velocity
 * noise (two sigmas) of a line through them (INFINITY for fewer than two). */
static double seen_line_noise(cr_recon_t *rc, int i, double lo, double hi, long e, int *n, long *k_first,
                              long *k_last)
{
    double sg = 0.0;
    long q;

    *n = 0;
    *k_first = *k_last = -1;
    for (q = e; frame_ok(rc, q) && frm(rc, q)->t > lo; q--)
        if (frm(rc, q)->t <= hi && frm(rc, q)->st[i] == OB_SEEN) {
            if (*k_last < 0)
                *k_last = q;
            *k_first = q;
            sg = fmax(sg, sig(rc, frm(rc, q)->s[i]));
            (*n)++;
        }
    if (*n < 2)
        return INFINITY;
    return 2.0 * sqrt(2.0) * sg / (frm(rc, *k_last)->t - frm(rc, *k_first)->t);
}

/* Whether ball k took a push from the turn of change c (a contact changes
 * the velocities of two balls of equal mass by equal and opposite
 * amounts): the turn is over two sigmas of its velocity's noise, and k's
 * velocity over the frames seen after the turn, against the motion it had
 * before (the line through its samples since its last change, a cushion
 * met included: one just met may not have split its path yet), changed by
 * a third of the turning ball's change at least, against it, and by over
 * two sigmas of that change's noise. True when too little is seen after
 * the turn to tell. */
static bool took_push(cr_recon_t *rc, const change_t *c, int k)
{
    const long e = last_frame(rc, rc->next);
    const seg_t *sb = rc->b[k].nh > 0 ? seg_at(&rc->b[k], c->t - rc->dt) : NULL;
    double vb[2] = {0.0, 0.0}, va[2], vin[2], di[2], px, py, li, m, nk, ni, nb = 0.0, lo;
    long k0, k1;
    int n;

    ni = seen_line_noise(rc, c->ball, c->t, INFINITY, e, &n, &k0, &k1);
    nk = seen_line_noise(rc, k, c->t, INFINITY, e, &n, &k0, &k1);
    if (!sb || !isfinite(nk) || !isfinite(ni) || line_fit(rc, k, k0, k1, c->t, &px, &py, &va[0], &va[1]) < 2)
        return true;
    seg_vel(&c->before, c->t, &vin[0], &vin[1]);
    di[0] = c->vout[0] - vin[0];
    di[1] = c->vout[1] - vin[1];
    li = hypot(di[0], di[1]);
    if (li <= ni)
        return false; /* no turn beyond the noise */
    if (!sb->rest) {
        /* its way in since its last change */
        lo = fmax(fmax(sb->t0, c->t - 4.0 * rc->dt), last_contact(rc, k, c->t));
        nb = seen_line_noise(rc, k, lo, c->t, e, &n, &k0, &k1);
        if (!isfinite(nb) || line_fit(rc, k, k0, k1, c->t, &px, &py, &vb[0], &vb[1]) < 2)
            return true; /* its way in is not seen since its last change */
    }
    m = -((va[0] - vb[0]) * di[0] + (va[1] - vb[1]) * di[1]) / li;
    return m >= li / 3.0 && m > hypot(nk, nb);
}

/* The least distance between the centres of balls i and k as the tracker
 * saw them (raw), less 2R, over the frames within w of t where both were
 * seen, in *gap (INFINITY when none), and the sigma of that distance. */
static double raw_gap(cr_recon_t *rc, int i, int k, double t, double w, double *gap)
{
    long q, e = last_frame(rc, rc->next);
    double sg = 0.0;

    *gap = INFINITY;
    for (q = e; frame_ok(rc, q) && frm(rc, q)->t >= t - w - 1e-9; q--) {
        const rframe_t *f = frm(rc, q);
        double g;

        if (f->t > t + w + 1e-9 || f->st[i] != OB_SEEN || f->st[k] != OB_SEEN)
            continue;
        g = hypot(f->rx[i] - f->rx[k], f->ry[i] - f->ry[k]) - 2.0 * rc->R;
        if (g < *gap) {
            *gap = g;
            sg = hypot(sig(rc, f->s[i]), sig(rc, f->s[k]));
        }
    }
    return sg;
}

/* A gentle turn found over several frames (drift_start()) is a glancing
 * contact: the ball that touched it came nearest it about then, and the
 * turn's own time is as good as the hitter's path (bent, as often, by a
 * blow of its own not yet split off). Ball k, whose hitter score is sc and
 * contact time *t: seen within reach of the turning ball within a frame of
 * the turn (contact_tol_mm and three sigmas) it scores under 1, the nearer
 * the lower; not seen there, sc + 1; seen only further off, not at all.
 * Where the turn is sought over more than DRIFT_S (drift_stretched(): the
 * path before, fitted on few samples far apart, strays further by then),
 * the turn must also be the push k took (took_push()). Its time is its path's while that is within a frame of
 * the turn's, else the turn's. */
static double drift_score(cr_recon_t *rc, const change_t *c, int k, double sc, double *t)
{
    double g, s = raw_gap(rc, c->ball, k, c->t, rc->dt, &g);

    if (!isfinite(g))
        return sc + 1.0;
    if (g > rc->p.contact_tol_mm + 3.0 * s || (drift_stretched(rc) && !took_push(rc, c, k)))
        return INFINITY;
    if (fabs(*t - c->t) > rc->dt)
        *t = c->t;
    return 0.1 * fmax(g, 0.0) / s + 0.01 * sc;
}

/* Explains a change by a collision; returns true when it found one. */
static bool explain_collision(cr_recon_t *rc, change_t *c, bool allow_pending)
{
    int k, best_k;
    double best = INFINITY, best_t = c->t, t = c->t;
    bool best_fr = false, fr = false;
    hit_turn_t best_turn = {-1, 0, 0, 0};

    if (explained_already(rc, c))
        return true;
    if (!rc->active)
        return false; /* between shots nothing is struck: a ball wavering beside another, balls
                       * racked by hand (what moved is said by the wider search, find_cause()) */

    best_k = -1;
    for (k = 0; k < NB; k++) {
        double sc;
        hit_turn_t turn = {-1, 0, 0, 0};

        if (k == c->ball)
            continue;
        sc = hitter_score(rc, c, k, allow_pending, &t, &fr, &turn);
        if (c->drift && isfinite(sc) && !fr)
            sc = drift_score(rc, c, k, sc, &t);
        if (sc < best) {
            best = sc;
            best_k = k;
            best_t = t;
            best_fr = fr;
            best_turn = turn;
        }
    }
    if (best_k < 0)
        return false;
    if (c->kind == CH_ONSET && !best_fr) {
        double tch = chain_time(rc, best_k, c->ball, &c->before, best_t);

        if (isfinite(tch) && tch < best_t)
            best_t = tch;
    }
    if (c->drift && recent_has(rc, c->ball, best_k, best_t, 4.0 * rc->dt)) {
        c->done = true; /* a contact of the pair reported moments before: its bend, seen late */
        return true;
    }
    if (c->kind == CH_KINK && wavered_only(rc, c) && !runs_at(rc, best_k, c->t, rc->b[c->ball].dist_x,
                                                               rc->b[c->ball].dist_y)) {
        c->done = true; /* a fit's waver bent, and nothing came at the ball: no contact */
        return true;
    }
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
            if (!moved && !best_fr)
                set_blow(rc, best_k, c, best_t);
        }
        if (c->kind == CH_KINK && rc->b[best_k].state == B_GONE && !rc->b[best_k].down && !best_fr &&
            rc->b[best_k].nh > 0 && cur_seg(&rc->b[best_k])->rest && rc->active) {
            /* hit at rest, and it vanished as it was struck (it dropped at
             * once, or left too fast to be seen): on the blow's course, as
             * a ball let go at rest after a blow */
            conf = 0.9;
            a = c->ball;
            b = best_k;
            set_blow(rc, best_k, c, best_t);
            if (rc->b[best_k].blow_on)
                follow_blow(rc, best_k, frm(rc, rc->next)->t);
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
        if (c->kind == CH_ONSET)
            bounce_after_blow(rc, c, best_k, best_t);
        else
            cushion_in_kink(rc, c, best_k, best_t);
        /* the hitter's way came off a cushion (between_blows()): that
         * contact too, which its V cannot time (the way out is a frame) */
        if (best_turn.rail >= 0 && best_turn.t < best_t)
            emit_cushion(rc, best_k, (cr_rail_t)best_turn.rail, best_turn.t, best_turn.x, best_turn.y);
    }
    c->done = true;
    return true;
}

/* The fitted paths can be off by a few millimetres right after another
 * change (a segment fitted on two samples): the raw samples decide then.
 * A ball whose sampled centre came within 2R + contact_tol (+ 2 sigma of
 * the pair's noise) of this ball's, closing in, in [lo, hi] hit it, when the distance (interpolated between
 * the two frames) reached 2R. Returns the ball or -1. */
static int sample_cause(cr_recon_t *rc, const change_t *c, double lo, double hi, double *t_out, bool *frozen_out)
{
    double reach = 2.0 * rc->R + rc->p.contact_tol_mm, best = INFINITY;
    long k, k1 = last_frame(rc, rc->next), k0 = frame_from(rc, k1, lo - rc->dt, RING - 2);
    int j, best_k = -1, i = c->ball;

    for (j = 0; j < NB; j++) {
        double dp = NAN, tp = NAN;

        if (j == i)
            continue;
        for (k = k0; k <= k1; k++) {
            rframe_t *g = frm(rc, k);
            double d;

            if (g->st[i] != OB_SEEN || g->st[j] != OB_SEEN)
                continue;
            d = hypot(g->x[i] - g->x[j], g->y[i] - g->y[j]);
            if (!isfinite(dp) && d <= reach && rc->active)
                break; /* touching from the first: a frozen pair (cluster_cause()); between shots any
                        * neighbour explains a waver (explain_late()) */
            if (g->t >= lo && g->t <= hi + rc->dt && d <= reach + 2.0 * hypot(sig(rc, g->s[i]), sig(rc, g->s[j])) &&
                isfinite(dp) && dp > d) {
                double tc = dp > 2.0 * rc->R && d < 2.0 * rc->R ? tp + (g->t - tp) * (dp - 2.0 * rc->R) / (dp - d)
                                                                  : (d <= 2.0 * rc->R ? tp : g->t);

                if (fabs(tc - c->t) < best) {
                    best = fabs(tc - c->t);
                    best_k = j;
                    *t_out = tc;
                    *frozen_out = false;
                }
                break;
            }
            dp = d;
            tp = g->t;
        }
    }
    return best_k;
}

/* A frozen cluster (a rack): a blow goes through touching balls at once,
 * and the far side of the rack may start before the balls in between are
 * seen to move. A ball that starts while it rests touching a chain of
 * resting, touching balls one of which was hit in [lo, hi] was set moving
 * by that blow: the collision with its neighbour on the chain, at the time
 * of the hit (frozen: the order inside a cluster cannot be seen). Returns
 * the neighbour or -1. */
static int cluster_cause(cr_recon_t *rc, const change_t *c, double lo, double hi, double *t_out, bool *frozen_out)
{
    double px[NB], py[NB], reach = 2.0 * rc->R + rc->p.contact_tol_mm;
    int q[NB], first[NB], nq = 0, head = 0, j, k;
    bool in[NB], seen[NB];

    for (j = 0; j < NB; j++) {
        const seg_t *s = rc->b[j].nh > 0 ? seg_at(&rc->b[j], c->t - 3.0 * rc->dt) : NULL;

        in[j] = s && s->rest && rc->b[j].state != B_ABSENT && rc->b[j].state != B_GONE;
        seen[j] = false;
        first[j] = -1;
        if (in[j]) {
            px[j] = s->p[0];
            py[j] = s->p[1];
        }
    }
    if (!in[c->ball])
        return -1;
    q[nq++] = c->ball;
    seen[c->ball] = true;
    while (head < nq) {
        int u = q[head++];

        for (j = 0; j < NB; j++) {
            if (seen[j] || !in[j] || hypot(px[j] - px[u], py[j] - py[u]) > reach)
                continue;
            seen[j] = true;
            first[j] = u == c->ball ? j : first[u];
            for (k = rc->n_recent - 1; k >= 0; k--) {
                const recent_t *r = &rc->recent[k];

                if ((r->a == j || r->b == j) && r->a != c->ball && r->b != c->ball && r->t >= lo && r->t <= hi) {
                    *t_out = r->t;
                    *frozen_out = true;
                    return first[j];
                }
            }
            if (nq < NB)
                q[nq++] = j;
        }
    }
    return -1;
}

/* The wider search for what set a ball moving, when the contact-time match
 * of explain_collision found nothing: a ball never starts (or speeds up) by
 * itself during a shot. A slow ball's onset is seen late (it creeps for a
 * while before it is 5 sigma from its rest), so look back cause_window_s:
 * any other ball whose path came within 2R (+ tolerance) of this ball's
 * path in that window hit it, at the first time the distance reached 2R. A
 * ball already touching it (a frozen pair, a rack) passed the blow on when
 * it moved or was hit itself. The latest such contact before the change
 * wins (the one that moved it); *frozen says the contact was a push between
 * touching balls (its time is the pusher's). */
static int find_cause(cr_recon_t *rc, const change_t *c, double *t_out, bool *frozen_out)
{
    double lo = c->t - rc->p.cause_window_s, hi = c->t + 2.0 * rc->dt, best = INFINITY, reach;
    int k, j, best_k = -1;

    /* a slow start's time is a rough extrapolation: the contact may be as
     * late as the frame that showed it moved */
    if (frame_ok(rc, rc->next) && frm(rc, rc->next)->t + 0.5 * rc->dt > hi)
        hi = frm(rc, rc->next)->t + 0.5 * rc->dt;

    if (c->kind == CH_KINK)
        lo = c->t - 4.0 * rc->dt;
    if (rc->active && lo < rc->t_stroke)
        lo = rc->t_stroke;
    if (c->before.rest && lo < c->before.t0)
        lo = c->before.t0;
    if (!(hi > lo))
        return -1;
    reach = 2.0 * rc->R + rc->p.contact_tol_mm;
    for (k = 0; k < NB; k++) {
        const rball_t *bk = &rc->b[k];
        const seg_t *s;
        double end;

        if (k == c->ball || bk->nh == 0 || bk->state == B_ABSENT)
            continue;
        for (j = 0; (s = seg_back(bk, j, &end)) != NULL; j++) {
            double a0 = fmax(lo, s->t0), a1 = fmin(hi, end), tc, dmin, tmin, sc, ax, ay, bx, by;
            bool fr;

            if (bk->state == B_GONE && j == 0 && a1 > bk->t_gone)
                a1 = bk->t_gone;
            if (s->t0 > hi)
                continue;
            if (end < lo)
                break;
            if (!(a1 > a0))
                continue;
            if (s->rest) {
                /* touching and at rest: it passed a blow on if it was hit (or
                 * started) in the window */
                double tr = NAN;
                int q;

                seg_eval(s, a0, &ax, &ay);
                seg_eval(&c->before, a0, &bx, &by);
                if (hypot(ax - bx, ay - by) > reach)
                    continue;
                for (q = rc->n_recent - 1; q >= 0; q--) {
                    const recent_t *r = &rc->recent[q];

                    if ((r->a == k || r->b == k) && r->a != c->ball && r->b != c->ball && r->t >= lo && r->t <= hi) {
                        tr = r->t;
                        break;
                    }
                }
                if (!isfinite(tr))
                    continue;
                sc = fabs(c->t - tr) / rc->dt + 3.0;
                if (sc < best) {
                    best = sc;
                    best_k = k;
                    *t_out = tr;
                    *frozen_out = true;
                }
                continue;
            }
            /* a ball that set off from rest touching this one (a rack)
             * did not run into it: the blow came through (cluster_cause()) */
            if (rc->active && s->t0 >= a0 - 0.5 * rc->dt) {
                double e2;
                const seg_t *pv = seg_back(bk, j + 1, &e2);

                seg_eval(s, a0, &ax, &ay);
                seg_eval(&c->before, a0, &bx, &by);
                if (pv && pv->rest && hypot(ax - bx, ay - by) <= reach)
                    continue;
            }
            tc = contact_time(&c->before, s, a0, a1, 2.0 * rc->R, &fr, &dmin, &tmin);
            if (!isfinite(tc)) {
                if (dmin > reach)
                    continue;
                tc = tmin;
            }
            sc = fabs(c->t - tc) / rc->dt;
            if (tc > c->t + rc->dt)
                sc += 2.0;
            if (fr)
                sc += 2.0;
            /* the struck ball leaves along the line of centres, away from the hitter */
            seg_eval(s, tc, &ax, &ay);
            seg_eval(&c->before, tc, &bx, &by);
            {
                double dv[2] = {c->vout[0], c->vout[1]}, vi[2], lx = bx - ax, ly = by - ay, ll = hypot(lx, ly), nd;

                seg_vel(&c->before, tc, &vi[0], &vi[1]);
                dv[0] -= vi[0];
                dv[1] -= vi[1];
                if (c->kind == CH_ONSET) {
                    dv[0] = 100.0 * c->mv[0];
                    dv[1] = 100.0 * c->mv[1];
                }
                nd = hypot(dv[0], dv[1]);
                if (nd > 50.0 && ll > 0) {
                    double cs = (dv[0] * lx + dv[1] * ly) / (nd * ll);

                    if (cs < 0.0)
                        continue;
                    sc += 2.0 * (1.0 - cs);
                }
            }
            if (sc < best) {
                best = sc;
                best_k = k;
                *t_out = tc;
                *frozen_out = fr;
            }
        }
    }
    if (best_k < 0)
        best_k = sample_cause(rc, c, lo, hi, t_out, frozen_out);
    if (best_k < 0 && c->kind == CH_ONSET)
        best_k = cluster_cause(rc, c, lo, hi, t_out, frozen_out);
    return best_k;
}

static bool frozen_to_cue(const cr_recon_t *rc, const change_t *c);

/* Explains a change by find_cause; returns true when it found one. */
static bool explain_late(cr_recon_t *rc, change_t *c)
{
    double t = c->t;
    bool fr = false;
    int k, a, b;

    if (c->kind == CH_ONSET && !rc->active && !c->creep && frozen_to_cue(rc, c)) {
        /* struck through the cue ball frozen to it, which gave it all its
         * speed and hardly moved (a stun shot): the stroke, and the
         * contact at it */
        emit_stroke(rc, c->t, false);
        emit_collision(rc, CR_BALL_CUE, c->ball, c->t, 1.0);
        c->done = true;
        return true;
    }
    k = find_cause(rc, c, &t, &fr);
    if (k < 0)
        return false;
    c->done = true;
    if (!rc->active) {
        /* between shots nothing is struck: a resting ball next to one that
         * wavered or was moved by hand; no collision, and nothing the last
         * shot set rolling (not a ball still moving at the next stroke) */
        if (c->kind == CH_ONSET)
            rc->b[c->ball].uncaused = true;
        return true;
    }
    a = k;
    b = c->ball;
    if (c->kind == CH_KINK) {
        /* both moving: the faster one into the other */
        double va[2], vb[2];

        seg_vel(&c->before, t, &va[0], &va[1]);
        seg_vel(seg_at(&rc->b[k], t - 0.5 * rc->dt), t, &vb[0], &vb[1]);
        if (hypot(va[0], va[1]) > hypot(vb[0], vb[1])) {
            a = c->ball;
            b = k;
        }
    }
    emit_collision(rc, a, b, t, fr ? 0.3 : 1.0);
    if (c->kind == CH_ONSET)
        bounce_after_blow(rc, c, k, t);
    c->done = true;
    return true;
}

/* Whether kink c can be a contact with rail r's cushion at t. The ball
 * was then within R of the piece it touched, give or take twice
 * contact_tol and half a frame's travel (the course is a fit, t an
 * estimate), on the incoming course or, where that is another motion's (a
 * blow just before), on the track itself. Along the nose line the caller's
 * tests of the turn decide; at a jaw point or a facing (always, when jaw)
 * the velocity's component along the piece's normal must go from toward
 * it to away from it, or, with nothing seen after (it dropped), the course
 * must overlap the piece. A ball rolling into a pocket, its track
 * jittering over the hole, passes the jaws without either. */
static bool touched_piece(const cr_recon_t *rc, const change_t *c, int r, double t, bool jaw)
{
    cr_point_t at, on;
    double dir[2], d = NAN, vi[2], reach, vn_in;
    bool nose = false;
    int pass;

    seg_vel(&c->before, c->t, &vi[0], &vi[1]);
    reach = rc->R + 2.0 * rc->p.contact_tol_mm + 0.5 * hypot(vi[0], vi[1]) * rc->dt;
    for (pass = 0; pass < 2; pass++) {
        if (pass == 0)
            seg_eval(&c->before, t, &at.x, &at.y);
        else
            ball_pos_at(rc, c->ball, t, &at.x, &at.y);
        d = cr_table_cushion_piece(&rc->tab, (cr_rail_t)r, at, &on, dir);
        nose = !jaw && fabs(d - fabs(rail_dist(rc, r, at.x, at.y))) < 1.0;
        if (nose ? rail_dist(rc, r, at.x, at.y) <= reach : d <= reach)
            break;
    }
    if (pass == 2)
        return false;
    if (nose)
        return true;
    vn_in = vi[0] * (at.x - on.x) + vi[1] * (at.y - on.y);
    if (c->vout[0] == 0 && c->vout[1] == 0)
        return vn_in < 0 && d <= rc->R;
    return vn_in < 0 && c->vout[0] * (at.x - on.x) + c->vout[1] * (at.y - on.y) > 0;
}

/* A kink near a cushion: the time its incoming path reached R. */
static bool explain_cushion(cr_recon_t *rc, change_t *c)
{
    double tol = rc->p.contact_tol_mm + 2.0 * rc->R, x, y, t, bt = NAN;
    int r, rail = -1, pk;

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

            bool ok, beside;
            long a = rc->next, e = last_frame(rc, a);
            double tv;

            seg_vel(&c->before, c->t, &vi[0], &vi[1]);
            vin = (r == CR_RAIL_HEAD) ? vi[0] : (r == CR_RAIL_FOOT) ? -vi[0] : (r == CR_RAIL_LEFT) ? vi[1] : -vi[1];
            if (!(vn > vin))
                continue;
            /* the normal velocity must reverse: a significant V in the
             * distance to the nose line (its time is the contact's), or a
             * clear turn of the fitted velocities */
            tv = rail_contact_time(rc, c->ball, r, e, c->t, approach_start(rc, &c->before), NULL, sig(rc, frm(rc, a)->s[c->ball]),
                                   false, &ok, &beside);
            if (ok) {
                t = tv;
            } else {
                /* too few samples after it for a significant V, but the
                 * fitted velocities turned: the approach decides the time
                 * (not where the samples are a roll beside the cushion) */
                if (beside || !(vin < -40.0 && vn > 40.0))
                    continue;
                t = tv;
                if (!(fabs(t - c->t) <= 2.0 * rc->dt)) {
                    t = rail_time(rc, &c->before, r, c->t - 2.0 * rc->dt, c->t + rc->dt);
                    if (!isfinite(t))
                        t = c->t;
                }
            }
        }
        if (!touched_piece(rc, c, r, t, false))
            continue;
        if (rail < 0 || fabs(t - c->t) < fabs(bt - c->t)) {
            rail = r;
            bt = t;
        }
    }
    pk = near_pocket(rc, c->x, c->y, 2.0 * rc->R, NULL);
    if (pk >= 0 && (rail < 0 || rail_dist(rc, rail, c->x, c->y) > rc->R + rc->p.contact_tol_mm)) {
        /* a jaw, when the incoming course reached one: a kink in a mouth
         * is as often a ball dropping, its track jittering over the hole */
        int jr = -1;
        double tj = jaw_time(rc, &c->before, pk, c->t - 3.0 * rc->dt, c->t + rc->dt, rc->p.contact_tol_mm, &jr);

        if (isfinite(tj) && touched_piece(rc, c, jr, tj, true)) {
            rail = jr;
            bt = tj;
        }
    }
    if (rail < 0)
        return false;
    seg_eval(&c->before, bt, &x, &y);
    emit_cushion(rc, c->ball, (cr_rail_t)rail, bt, x, y);
    c->done = true;
    return true;
}

/* A kink that left the ball faster than it came: only a blow does that. */
static bool kink_sped_up(const change_t *c)
{
    double vi[2], si, so;

    seg_vel(&c->before, c->t, &vi[0], &vi[1]);
    si = hypot(vi[0], vi[1]);
    so = hypot(c->vout[0], c->vout[1]);
    return c->before.n >= 3 && so > 1.5 * si + 300.0;
}

static int cmp_change(const void *pa, const void *pb)
{
    const change_t *a = pa, *b = pb;

    return a->t < b->t ? -1 : a->t > b->t ? 1 : a->ball - b->ball;
}

/* Double hit (6.7): the cue ball rested within half a ball of the object
 * ball it hits first, and after a single impact (equal masses, restitution
 * at least 0.9) keeps at most 5 % of its speed along the line of centres;
 * what it gains after that comes from cloth friction on its spin, at most
 * accel_max. A cue ball seen going on along the line of centres faster
 * than that was pushed again by the tip. Armed at the first contact,
 * decided dh_frames later; a suspicion, never certain. */
static void dh_arm(cr_recon_t *rc, const cr_event_t *e)
{
    const rball_t *cb = &rc->b[CR_BALL_CUE];
    const seg_t *s;
    int ob = e->a == CR_BALL_CUE ? e->b : e->a;
    double cx = rc->cue_at_stroke[0], cy = rc->cue_at_stroke[1], ox, oy, d, vx, vy;

    rc->dh_ball = -1;
    if (ob < 0 || ob >= NB || rc->b[ob].nh == 0)
        return;
    ball_pos_at(rc, ob, rc->t_stroke, &ox, &oy);
    d = hypot(ox - cx, oy - cy);
    if (!(d > 0) || d > 2.0 * rc->R + rc->R)
        return; /* not close at the stroke */
    s = seg_at(cb, e->t - 0.5 * rc->dt);
    if (s && s->rest && cb->nh > 0 && !cb->hist[(cb->nh - 1) % NSEG].rest)
        s = &cb->hist[(cb->nh - 1) % NSEG]; /* struck and in contact within a frame */
    if (!s || s->rest)
        return;
    seg_vel(s, e->t, &vx, &vy);
    rc->dh_ball = ob;
    rc->dh_t = e->t;
    rc->dh_n[0] = (ox - cx) / d;
    rc->dh_n[1] = (oy - cy) / d;
    rc->dh_vin = vx * rc->dh_n[0] + vy * rc->dh_n[1];
    if (!(rc->dh_vin > 0))
        rc->dh_ball = -1;
}

static void dh_check(cr_recon_t *rc, long a)
{
    double t[16], p[16], w[16], z[16], ta, bound, vout, se, sig_sum = 0;
    int n = 0, r;
    long k;
    seg_t ln;
    bool cushion = false;

    if (rc->dh_ball < 0)
        return;
    ta = frm(rc, a)->t;
    if (ta < rc->dh_t + 3.0 * rc->dt)
        return;
    /* the cue ball's samples after the contact, along the line of centres */
    for (k = a; k > a - 16 && frame_ok(rc, k) && frm(rc, k)->t > rc->dh_t && n < 16; k--) {
        rframe_t *f = frm(rc, k);

        if (f->st[CR_BALL_CUE] != OB_SEEN)
            continue;
        for (r = 0; r < CR_RAIL_COUNT; r++)
            cushion |= rail_dist(rc, r, f->x[CR_BALL_CUE], f->y[CR_BALL_CUE]) <= rc->R + rc->p.contact_tol_mm;
        t[n] = f->t;
        p[n] = f->x[CR_BALL_CUE] * rc->dh_n[0] + f->y[CR_BALL_CUE] * rc->dh_n[1];
        w[n] = 1.0;
        z[n] = 0.0;
        sig_sum += sig(rc, f->s[CR_BALL_CUE]);
        n++;
    }
    rc->dh_ball = -1 - rc->dh_ball; /* decided (the ball kept for the event) */
    /* a cue ball at a cushion after the contact: its motion there is the
     * cushion's as much as the blow's, so it says nothing of a second hit */
    if (cushion || n < 3 || !poly_fit(t, p, z, w, n, ta, 1, &ln))
        return;
    vout = ln.v[0];
    {
        double tm = 0, stt = 0;

        for (k = 0; k < n; k++)
            tm += t[k] / n;
        for (k = 0; k < n; k++)
            stt += (t[k] - tm) * (t[k] - tm);
        se = (sig_sum / n) / sqrt(fmax(stt, 1e-12));
    }
    bound = 0.05 * rc->dh_vin + rc->p.accel_max_mm_s2 * (ta - rc->dh_t) + 3.0 * se;
    if (vout > bound) {
        cr_event_t ev;
        double ex = (vout - bound) / (0.3 * rc->dh_vin);

        cr_event_init(&ev, CR_EV_DOUBLE_HIT);
        ev.t = rc->dh_t;
        ev.shot = rc->shot;
        ev.ball = -1 - rc->dh_ball;
        ev.confidence = 0.5 + 0.4 * fmin(1.0, fmax(0.0, ex));
        queue_event(rc, &ev);
    }
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
    rc->t_first = rc->batch[first].t;
    dh_arm(rc, &rc->batch[first]);
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

/* Slot s (a track that was unidentified when first seen) turns out to be
 * ball id (whose own slot is vacant: the ball is off the table or was never
 * seen): the two slots trade their whole state and history, so the ball's
 * events and motion carry its number from then on. */
static void swap_id(int *v, int s, int id)
{
    if (*v == s)
        *v = id;
    else if (*v == id)
        *v = s;
}

static void swap_event_slots(cr_event_t *ev, int s, int id)
{
    int i;

    swap_id(&ev->a, s, id);
    swap_id(&ev->b, s, id);
    if (ev->type != CR_EV_STROKE)
        swap_id(&ev->ball, s, id);
    for (i = 0; i < ev->n_balls; i++)
        swap_id(&ev->balls[i].id, s, id);
    for (i = 0; i < ev->n_moving; i++)
        swap_id(&ev->moving[i], s, id);
}

static void relabel_slot(cr_recon_t *rc, int s, int id)
{
    rball_t tb;
    long k;
    int i;

    tb = rc->b[id];
    rc->b[id] = rc->b[s];
    rc->b[s] = tb;
    for (k = rc->n_frames > RING ? rc->n_frames - RING : 0; k < rc->n_frames; k++) {
        rframe_t *f = frm(rc, k);
        double d;
        unsigned char c;

        d = f->x[id], f->x[id] = f->x[s], f->x[s] = d;
        d = f->y[id], f->y[id] = f->y[s], f->y[s] = d;
        d = f->rx[id], f->rx[id] = f->rx[s], f->rx[s] = d;
        d = f->ry[id], f->ry[id] = f->ry[s], f->ry[s] = d;
        d = f->s[id], f->s[id] = f->s[s], f->s[s] = d;
        c = f->st[id], f->st[id] = f->st[s], f->st[s] = c;
        c = f->rf[id], f->rf[id] = f->rf[s], f->rf[s] = c;
    }
    for (i = 0; i < NB; i++) {
        bool bo;
        double d;

        bo = rc->pw_on[id][i], rc->pw_on[id][i] = rc->pw_on[s][i], rc->pw_on[s][i] = bo;
        d = rc->pw_max[id][i], rc->pw_max[id][i] = rc->pw_max[s][i], rc->pw_max[s][i] = d;
        d = rc->pw_min[id][i], rc->pw_min[id][i] = rc->pw_min[s][i], rc->pw_min[s][i] = d;
        d = rc->pw_tmin[id][i], rc->pw_tmin[id][i] = rc->pw_tmin[s][i], rc->pw_tmin[s][i] = d;
    }
    for (i = 0; i < NB; i++) {
        bool bo;
        double d;

        bo = rc->pw_on[i][id], rc->pw_on[i][id] = rc->pw_on[i][s], rc->pw_on[i][s] = bo;
        d = rc->pw_max[i][id], rc->pw_max[i][id] = rc->pw_max[i][s], rc->pw_max[i][s] = d;
        d = rc->pw_min[i][id], rc->pw_min[i][id] = rc->pw_min[i][s], rc->pw_min[i][s] = d;
        d = rc->pw_tmin[i][id], rc->pw_tmin[i][id] = rc->pw_tmin[i][s], rc->pw_tmin[i][s] = d;
    }
    for (i = 0; i < rc->nch; i++)
        swap_id(&rc->ch[i].ball, s, id);
    for (i = 0; i < rc->n_recent && i < MAX_RECENT; i++) {
        swap_id(&rc->recent[i].a, s, id);
        swap_id(&rc->recent[i].b, s, id);
    }
    for (i = 0; i < rc->nq; i++)
        swap_event_slots(&rc->q[i], s, id);
    for (i = 0; i < rc->nbatch; i++)
        swap_event_slots(&rc->batch[i], s, id);
    swap_id(&rc->dh_ball, s, id);
    /* the track that held slot s now names slot id; a track that held slot
     * id before (e.g. the ball held where it vanished) keeps naming it: when
     * both are listed in one frame, the one seen wins */
    for (i = 0; i < TRACK_MAP && i < rc->n_ts; i++)
        if (rc->ts_slot[i] == s)
            rc->ts_slot[i] = id;
    rc->spare_track[s] = -1;
    rc->spare_id[s] = rc->spare_named[s] = -1;
    rc->spare_not_cue[s] = false;
}

static void relabel_to_cue(cr_recon_t *rc, int s)
{
    relabel_slot(rc, s, CR_BALL_CUE);
}

/* Whether c's ball was seen all along before the change: over the 0.3 s
 * (at least 4 frames) before it, in every frame, and for an onset at its
 * rest position (within 3 sigmas or onset_min_mm). A ball that was hidden,
 * not yet listed or elsewhere (a hidden frame's held position read as a
 * stop) is not known to have rested: its start says nothing of a touch. */
static bool seen_before(cr_recon_t *rc, const change_t *c)
{
    const double t0 = c->t - fmax(0.3, 4.0 * rc->dt);
    long k;
    int n = 0;

    for (k = rc->n_frames - 1; k >= 0 && k > rc->n_frames - RING; k--) {
        const rframe_t *f = frm(rc, k);

        if (f->t >= c->t)
            continue;
        if (f->t < t0)
            break;
        if (f->st[c->ball] != OB_SEEN)
            return false;
        if (c->kind == CH_ONSET &&
            dist2(f->x[c->ball], f->y[c->ball], c->x, c->y) > fmax(rc->p.onset_min_mm, 3.0 * sig(rc, f->s[c->ball])))
            return false;
        n++;
    }
    return n >= (int)floor((c->t - t0) / rc->dt) - 1;
}

/* A ball struck at rest and not seen to move since (set_blow()) was on its
 * way along the line of centres: when its course from the blow, at the
 * speeds it can have had (from 5/7 of the striker's speed along the line
 * up to all of it), passes within 2R and a ball's width of ball c->ball's
 * place by the time c->ball started, it struck it: that contact (its time
 * not measured: confidence BLOW_CONF). */
static bool blow_course_cause(cr_recon_t *rc, const change_t *c)
{
    int k;

    if (c->kind != CH_ONSET)
        return false;
    for (k = 0; k < NB; k++) {
        const rball_t *b = &rc->b[k];
        double dt = c->t - b->blow_t, ax = c->x - b->rx, ay = c->y - b->ry, along, across, reach_lo, reach_hi;

        if (k == c->ball || !(b->blow_on || (b->state == B_LOST && b->lost_blow)) || !rc->active ||
            b->blow_shot != rc->shot || !(dt > -rc->dt) || dt > 2.0)
            continue;
        along = ax * b->blow_u[0] + ay * b->blow_u[1];
        across = fabs(ax * b->blow_u[1] - ay * b->blow_u[0]);
        reach_lo = fmax(0.0, 5.0 / 7.0 * b->blow_v * dt - 0.5 * BLOW_DEC * dt * dt) - 4.0 * rc->R;
        reach_hi = b->blow_v * fmax(dt, 0.0) + 4.0 * rc->R;
        if (across <= 3.0 * rc->R && along >= reach_lo && along <= reach_hi) {
            emit_collision(rc, k, c->ball, c->t, BLOW_CONF);
            return true;
        }
    }
    return false;
}

/* Whether a ball other than c's was seen within reach of c's ball where it
 * started (or, a moving ball that sped up, of where it was in each frame),
 * from 0.15 s (or 4 frames) before the change up to the frame analysed:
 * reach is two radii plus the wider of 20 mm and three sigmas of both
 * positions (a glancing contact the paths did not time, a fast ball seen
 * a frame before and after the contact). */
static bool ball_came_near(cr_recon_t *rc, const change_t *c)
{
    const double t0 = c->t - fmax(0.15, 4.0 * rc->dt);
    const double sc = rc->b[c->ball].sig_run;
    long k, last = rc->next + rc->p.lookahead_frames;
    int j;

    if (last > rc->n_frames - 1)
        last = rc->n_frames - 1;
    for (k = last; k >= 0 && k > rc->n_frames - RING; k--) {
        const rframe_t *f = frm(rc, k);

        if (f->t < t0)
            break;
        for (j = 0; j < NB; j++) {
            double reach;

            if (j == c->ball || f->st[j] != OB_SEEN || rc->b[j].state == B_ABSENT)
                continue;
            reach = 2.0 * rc->R + fmax(20.0, 3.0 * hypot(sig(rc, f->s[j]), sc));
            if (rc->b[j].state == B_REST && rc->b[j].t_stop < t0)
                continue;
            if (dist2(f->x[j], f->y[j], c->x, c->y) <= reach)
                return true;
            /* a moving ball (a kink): where it was in that frame */
            if (c->kind == CH_KINK && f->st[c->ball] == OB_SEEN && dist2(f->x[j], f->y[j], f->x[c->ball], f->y[c->ball]) <= reach)
                return true;
        }
    }
    return false;
}

/* Was the ball of onset c resting frozen to another resting ball (centres
 * within 2 R + contact_tol) when it started? */
static bool frozen_at_onset(const cr_recon_t *rc, const change_t *c)
{
    int j;

    if (!c->before.rest)
        return false;
    for (j = 0; j < NB; j++) {
        const seg_t *o;

        if (j == c->ball || rc->b[j].nh == 0 || !on_table_state(rc->b[j].state))
            continue;
        o = seg_at(&rc->b[j], c->t - rc->dt);
        if (o->rest && hypot(o->p[0] - c->before.p[0], o->p[1] - c->before.p[1]) <= 2.0 * rc->R + rc->p.contact_tol_mm)
            return true;
    }
    return false;
}

/* The ball (or -1) that rested frozen to the cue ball (centres within 2 R +
 * contact_tol) and started with it: up to FROZEN_LEAD_S before the cue
 * ball's onset c or a frame and a half after (its onset may have been
 * resolved in an earlier batch), with no contact for its start from a ball
 * that was moving (one with a resting ball is its own blow passed on, a
 * chain): struck through the contact. Or one up to NEAR_GAP_MM off it that
 * set off straight away from it (*gap: struck across the gap within the
 * frame; the cue ball may stop dead there, leaving no path to time it).
 * *t_on: its start. */
static int frozen_start(const cr_recon_t *rc, const change_t *c, double *t_on, bool *gap)
{
    int i, j, best = -1;
    double bt = INFINITY;

    if (!c->before.rest)
        return -1;
    for (i = 0; i < NB; i++) {
        const rball_t *b = &rc->b[i];
        double d = hypot(b->anc_x - c->before.p[0], b->anc_y - c->before.p[1]);

        if (i == CR_BALL_CUE || b->state != B_MOVING || !b->anchor || b->anc_t < c->t - FROZEN_LEAD_S(rc) ||
            b->anc_t > c->t + 1.5 * rc->dt || fabs(b->anc_t - c->t) >= bt || d > 2.0 * rc->R + NEAR_GAP_MM)
            continue;
        if (d > 2.0 * rc->R + rc->p.contact_tol_mm) {
            /* not touching, a few millimetres off: struck across the gap
             * within the frame, so it left straight away from the cue ball
             * (a ball passing the blow on through a chain does too, but
             * only touching) */
            double vx, vy, v;

            seg_vel(cur_seg((rball_t *)b), b->anc_t + rc->dt, &vx, &vy);
            v = hypot(vx, vy);
            if (!(v > 0) || ((b->anc_x - c->before.p[0]) * vx + (b->anc_y - c->before.p[1]) * vy) / (v * d) < 0.7)
                continue;
        }
        /* a contact with a ball that was moving before may have started
         * it; one with a resting ball is its own blow passed on (a chain) */
        for (j = 0; j < NB; j++)
            if (j != i && recent_has(rc, i, j, b->anc_t, 2.0 * rc->dt) &&
                !seg_at(&rc->b[j], b->anc_t - rc->dt)->rest)
                break;
        if (j < NB)
            continue;
        bt = fabs(b->anc_t - c->t);
        best = i;
        *t_on = b->anc_t;
        *gap = d > 2.0 * rc->R + rc->p.contact_tol_mm;
    }
    return best;
}

/* Whether an object ball starting from rest between shots was struck
 * through the cue ball: it rested frozen to the resting cue ball (centres
 * within 2R + contact_tol) and leaves along their line of centres (within
 * about 25 degrees), faster than a hand would nudge it (FROZEN_STRUCK_MM_S).
 * Struck square, the cue ball gives it nearly all its speed and moves a
 * millimetre or two: no onset of its own. */
static bool frozen_to_cue(const cr_recon_t *rc, const change_t *c)
{
    const rball_t *q = &rc->b[CR_BALL_CUE];
    const seg_t *qs;
    double lx, ly, ll, sp = hypot(c->vout[0], c->vout[1]);

    if (c->ball == CR_BALL_CUE || c->ball >= NID || !c->before.rest || q->state != B_REST || q->nh == 0 ||
        !(sp > FROZEN_STRUCK_MM_S))
        return false;
    qs = seg_at(q, c->t);
    if (!qs || !qs->rest)
        return false;
    lx = c->before.p[0] - qs->p[0];
    ly = c->before.p[1] - qs->p[1];
    ll = hypot(lx, ly);
    return ll <= 2.0 * rc->R + rc->p.contact_tol_mm && ll > 0 && (lx * c->vout[0] + ly * c->vout[1]) > 0.9 * ll * sp;
}

static void resolve_changes(cr_recon_t *rc)
{
    int k, pass, from = rc->nbatch;
    bool progress;

    qsort(rc->ch, (size_t)rc->nch, sizeof(rc->ch[0]), cmp_change);
    /* disturbed balls that left the table: at once (the rest are decided
     * where they rest at the next stroke or rest, decide_disturbed) */
    for (k = 0; k < NB; k++) {
        rball_t *bk = &rc->b[k];

        if (!bk->dist_pending)
            continue;
        if (bk->state == B_GONE || bk->state == B_ABSENT) {
            emit_simple(rc, CR_EV_DISTURBED, k, bk->dist_t, bk->dist_x, bk->dist_y, bk->dist_shot);
            bk->dist_pending = false;
        }
    }
    /* Only the cue ball is struck: with no identified cue ball on the table and
     * no shot open, an unidentified ball that starts from rest is the cue
     * ball (the tracker has not named it yet, e.g. a white ball it cannot yet
     * tell from a stripe showing its white), and so is one the tracker names
     * the cue ball now but has not held long enough to be merged; never one
     * whose looks rule the cue ball out (a racked red ball whose detections
     * waver by a centimetre is no stroke). */
    if (!rc->active && (!on_table_state(rc->b[CR_BALL_CUE].state) ||
                        (rc->n_frames > 0 && frm(rc, rc->n_frames - 1)->st[CR_BALL_CUE] != OB_SEEN)))
        for (k = 0; k < rc->nch; k++) {
            const change_t *c = &rc->ch[k];

            if (c->kind == CH_ONSET && c->ball >= NID && !rc->spare_not_cue[c->ball] &&
                (rc->spare_id[c->ball] < 0 || rc->spare_id[c->ball] == CR_BALL_CUE)) {
                const int s = c->ball;

                relabel_to_cue(rc, s);
                if (rc->b[CR_BALL_CUE].appeared && (!rc->active || rc->b[CR_BALL_CUE].t_appear > rc->t_stroke))
                    emit_simple(rc, CR_EV_PLACED, CR_BALL_CUE, rc->b[CR_BALL_CUE].t_appear, rc->b[CR_BALL_CUE].app_x,
                                rc->b[CR_BALL_CUE].app_y, -1);
                rc->b[CR_BALL_CUE].appeared = false;
                /* what slot 0 held (a cue ball the tracker still holds where it
                 * was last seen) is no ball any more */
                rc->b[s].state = B_ABSENT;
                break;
            }
        }
    /* a cue ball starting from rest with nothing moving near it: the stroke */
    for (k = 0; k < rc->nch; k++) {
        change_t *c = &rc->ch[k];

        if (c->ball == CR_BALL_CUE && c->kind == CH_ONSET && !explain_collision(rc, c, false) &&
            !(rc->active && explain_late(rc, c))) {
            /* a cue ball creeping on moments after it seemed to stop is no
             * new stroke, in its shot or just after the rest that its
             * seeming stop closed (no player is down on a new shot within
             * resume_s of the cue ball stopping) */
            if (!c->creep) {
                double t_on = c->t;
                bool gap = false;
                int f = frozen_start(rc, c, &t_on, &gap);

                /* a ball frozen to the cue ball, struck into it: both start
                 * together (whichever onset was measured first), and the
                 * contact is at the stroke; one a few millimetres off is
                 * struck as it sets off, which is no earlier than the
                 * stroke */
                emit_stroke(rc, fmin(c->t, t_on), false);
                if (f >= 0)
                    emit_collision(rc, CR_BALL_CUE, f, gap ? fmax(c->t, t_on) : fmin(c->t, t_on), 1.0);
            }
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
    /* what is left: the wider search, in time order (a cluster resolves
     * ball by ball), and again while it finds more */
    for (pass = 0; pass < 4; pass++) {
        progress = false;
        for (k = 0; k < rc->nch; k++) {
            change_t *c = &rc->ch[k];

            if (c->done || (c->ball == CR_BALL_CUE && c->kind == CH_ONSET))
                continue;
            if (c->kind == CH_KINK && !kink_sped_up(c))
                continue;
            if (explain_late(rc, c))
                progress = true;
        }
        if (!progress)
            break;
    }
    for (k = 0; k < rc->nch; k++) {
        change_t *c = &rc->ch[k];
        bool caused;

        if (c->done)
            continue;
        if (c->kind == CH_KINK) {
            if (explain_cushion(rc, c))
                continue;
            /* sped up with nothing seen to explain it. Mid-shot with another
             * ball within reach, that ball most likely hit it (a contact the
             * paths could not time: one of them poorly seen). A cue ball
             * struck again by the cue in its own shot was close to stopping
             * (RESTRIKE_MAX_MM_S); one rolling faster was hit by a ball not
             * seen: no stroke */
            if (kink_sped_up(c) && !(rc->active && ball_came_near(rc, c))) {
                double vx, vy;

                seg_vel(&c->before, c->t, &vx, &vy);
                if (c->ball == CR_BALL_CUE && (!rc->active || hypot(vx, vy) < RESTRIKE_MAX_MM_S)) {
                    emit_stroke(rc, c->t, true);
                } else if (c->ball != CR_BALL_CUE && seen_before(rc, c) && hypot(vx, vy) > 1e-6) {
                    /* a touch, or a fit that glitched (2 mm in a frame is
                     * 240 mm/s at 120 fps): decided where it comes to rest */
                    rball_t *bk = &rc->b[c->ball];

                    bk->kink_pending = true;
                    bk->kink_t = c->t;
                    bk->kink_x = c->x;
                    bk->kink_y = c->y;
                    bk->kink_v = hypot(vx, vy);
                    bk->kink_u[0] = vx / bk->kink_v;
                    bk->kink_u[1] = vy / bk->kink_v;
                    bk->kink_shot = rc->active ? rc->shot : -1;
                }
            }
            c->done = true;
            continue;
        }
        /* an object ball that started with nothing to explain it (unless
         * it was still creeping): disturbed once it settles somewhere else
         * (a ball seen to shift and come back where it was is the picture
         * wavering, e.g. under a hand, not a ball moved) */
        caused = rc->active && (ball_came_near(rc, c) || frozen_at_onset(rc, c) || blow_course_cause(rc, c));
        if (c->kind == CH_ONSET && !caused)
            rc->b[c->ball].uncaused = true;
        if (caused || !seen_before(rc, c)) {
            /* in a shot, a ball that another ball came within reach of as
             * it started was most likely hit by it (a contact the paths
             * could not time), and one resting frozen to another took the
             * blow through it (a rack: the contacts inside are too quick
             * to see); a ball not seen resting before it started may not
             * have rested at all: none of them is a touched ball */
            c->done = true;
            continue;
        }
        if (!c->creep && !rc->b[c->ball].dist_pending) {
            rball_t *bk = &rc->b[c->ball];

            bk->dist_pending = true;
            bk->dist_t = c->t;
            bk->dist_x = c->x;
            bk->dist_y = c->y;
            bk->dist_shot = rc->active ? rc->shot : -1;
            bk->dist_sig = bk->sig_run;
        }
        c->done = true;
    }
    if (rc->active && !rc->first_done)
        first_contact_doubt(rc, from);
}

/* The balls of this shot gone unseen (b->unseen: from their rest, or lost
 * before they were seen to move off) that have not been found again: each left the bed. It went into a pocket far more often than over
 * a rail, and which pocket was not seen: the one nearest where it was last
 * seen, with confidence 0.5 (EVENTS.md). */
/* Whether ball i went unseen in this shot and has not been found since. */
static bool gone_unseen(const cr_recon_t *rc, int i)
{
    const rball_t *b = &rc->b[i];

    return b->unseen && b->state == B_GONE && b->unseen_shot == rc->shot;
}

static void unseen_pockets(cr_recon_t *rc)
{
    int i;

    for (i = 0; i < NID; i++) {
        rball_t *b = &rc->b[i];
        cr_event_t ev;

        if (!gone_unseen(rc, i))
            continue;
        b->unseen = false;
        /* another ball came onto the table since it was last seen (one
         * taken for pocketed back in the jaws, a ball with no number): most
         * likely it, under another name; nothing is said of it */
        if (!isnan(rc->t_back) && rc->t_back > b->t_unseen && rc->back_ball != i)
            continue;
        cr_event_init(&ev, CR_EV_POCKET);
        ev.pocket = (cr_pocket_t)(b->seen_on ? near_pocket(rc, b->seen_x, b->seen_y, INFINITY, NULL)
                                             : near_pocket(rc, b->rx, b->ry, INFINITY, NULL));
        ev.t = b->t_unseen; /* when it dropped is not known: when it was last seen */
        ev.shot = rc->shot;
        ev.ball = i;
        ev.confidence = 0.5;
        queue_event(rc, &ev);
        b->down = true;
        b->t_gone = ev.t;
    }
}

/* When the last ball of the shot stopped (or left the bed). */
static double rest_time(const cr_recon_t *rc)
{
    double t = rc->t_stroke;
    int i;

    for (i = 0; i < NB; i++) {
        const rball_t *b = &rc->b[i];

        if (b->state == B_REST && b->t_stop > t)
            t = b->t_stop;
        if (b->state == B_GONE && b->t_gone > t)
            t = b->t_gone;
    }
    return t;
}

/* Whether the shot's rest waits for a ball gone unseen in it: from the
 * moment all settled (t_now) for p.unseen_wait_s, unless final. */
static bool unseen_wait(cr_recon_t *rc, double t_now, bool final)
{
    int i;

    for (i = 0; i < NID; i++)
        if (gone_unseen(rc, i))
            break;
    if (i == NID || final) {
        rc->t_settled = NAN;
        return false;
    }
    if (isnan(rc->t_settled)) {
        rc->t_settled = t_now;
        rc->t_rest_wait = rest_time(rc);
    }
    return t_now < rc->t_settled + rc->p.unseen_wait_s;
}

static void maybe_rest(cr_recon_t *rc, double t_now, bool final)
{
    int i;

    if (!rc->active)
        return;
    for (i = 0; i < NB; i++) {
        rball_t *b = &rc->b[i];

        if (b->state == B_MOVING || (b->state == B_LOST && !b->lost_blow))
            return;
        if (b->state == B_LOST && b->lost_blow && t_now < b->blow_until && !final)
            return; /* not at the end of its course yet */
    }
    if (unseen_wait(rc, t_now, final))
        return;
    emit_rest(rc);
}

/* The shot's rest: every ball has settled (a lost ball at the end of its
 * course, one gone unseen looked for long enough). */
static void emit_rest(cr_recon_t *rc)
{
    cr_event_t ev;
    double t;
    int i;

    unseen_pockets(rc);
    for (i = 0; i < NB; i++)
        if (rc->b[i].state == B_LOST)
            settle_blow(rc, i);
    /* a wait ended by a new stroke: the cue ball moves again, and the
     * rest was when all had settled */
    t = rest_time(rc);
    if (!isnan(rc->t_settled) && rc->t_rest_wait > t)
        t = rc->t_rest_wait;
    rc->t_settled = NAN;
    decide_disturbed(rc);
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

/* The relative motion of two balls (rx, ry: one's centre less the
 * other's, at times ts) as two straight pieces meeting at tc in [t0, t1]
 * (at least two samples either side), the tc that fits best on a grid of
 * 64 steps: c + u (t - tc) before, c + w (t - tc) after. Two balls that
 * pass each other untouched move on one straight relative line (their own
 * two lines); a contact bends it, its change w - u along the line of
 * centres c (the blow between two balls acts along it) and apart.
 * Unlike the distance between them, which curves as they pass however
 * near, the pieces are straight: c is where they met, not below it.
 * Returns tc, or NAN when no tc leaves two samples either side; *sse its
 * misfit, se_c and se_dv the standard errors (from sigma) of c and of
 * w - u per axis. */
static double rel_kink(const double *ts, const double *rx, const double *ry, int n, double t0, double t1, double sigma,
                       double c[2], double u[2], double w[2], double *se_c, double *se_dv, double *sse)
{
    double best = INFINITY, tb = NAN;

    *sse = INFINITY;
    c[0] = c[1] = u[0] = u[1] = w[0] = w[1] = 0.0;
    *se_c = *se_dv = INFINITY;
    for (int g = 0; g <= 64; g++) {
        double tc = t0 + (t1 - t0) * g / 64.0, m[3][3], px[3], py[3], ex, ey, inv[3][3];
        int nb, na;

        if (!hinge_fit(ts, rx, n, tc, m, &nb, &na, px, &ex) || nb < 2 || na < 2 ||
            !hinge_fit(ts, ry, n, tc, m, &nb, &na, py, &ey) || !(ex + ey < best))
            continue;
        best = ex + ey;
        tb = tc;
        /* the hinge's first slope runs back from tc: the velocity before
         * is its negative */
        c[0] = px[0], c[1] = py[0];
        u[0] = -px[1], u[1] = -py[1];
        w[0] = px[2], w[1] = py[2];
        hinge_inverse(m, inv);
        *se_c = sigma * sqrt(fabs(inv[0][0]));
        *se_dv = sigma * sqrt(fabs(inv[1][1] + inv[2][2] + 2.0 * inv[1][2]));
    }
    *sse = best;
    return tb;
}

/* Whether two moving balls whose relative positions (rx, ry; distances
 * ds) at times ts came nearest at tn touched, and when (*t). Their
 * distance, like a ball's to a cushion, can only turn at 2R, and the blow
 * bends their relative motion along the line of centres: a contact when a
 * V fitted to the distance (free vertex) turns at 2R (within its error and
 * a millimetre) with both sides significant, unless their relative motion
 * shows no change along the line of centres (two balls passing 2R + 1 mm
 * apart, jittering, draw such a V: a near miss); or when the relative
 * motion bends there clearly on its own (rel_kink(): a change along the
 * line of centres over 6 of its standard errors, the pieces meeting at 2R
 * within contact_tol): the measured centres of two balls about to touch
 * lean together, and their distance's V turns short of 2R (on the 720p30
 * review films the pieces met 1.7-3.1 mm short where the V was refused).
 * Time: where the bend's way in reached 2R, within a frame of the bend,
 * else the bend's or the V's own. sp: the two fits' sigmas combined. */
static bool pair_touched(const cr_recon_t *rc, const double *ts, const double *rx, const double *ry, const double *ds,
                         int n, double tn, double sp, double *t)
{
    double c[2], u[2], w[2], h, se_h, sl[2], se_sl[2], se_c, se_dv, sse, tc, tv, cl, dn = NAN;
    bool vee_ok, bent = false, unbent = false;

    /* the distance's V */
    tv = vee_fit(ts, ds, n, fmax(ts[0], tn - 0.1), fmin(ts[n - 1], tn + 0.05), sp, 2, &h, &se_h, sl, se_sl);
    vee_ok = fabs(h - 2.0 * rc->R) <= 1.0 + 2.0 * se_h && sl[0] > 3.0 * se_sl[0] && sl[1] > 3.0 * se_sl[1];
    /* the relative motion's bend, where they came nearest give or take two
     * frames (another bend in the window, a contact with a third ball
     * moments before, is not this one) */
    tc = rel_kink(ts, rx, ry, n, fmax(ts[0], tn - 2.0 * rc->dt), fmin(ts[n - 1], tn + 2.0 * rc->dt), sp, c, u, w,
                  &se_c, &se_dv, &sse);
    cl = hypot(c[0], c[1]);
    if (isfinite(tc) && cl > 0.0) {
        double un = (u[0] * c[0] + u[1] * c[1]) / cl, wn = (w[0] * c[0] + w[1] * c[1]) / cl;
        int kq = 0;

        /* the errors from the scatter about the fit when it is wider than
         * the fits' own sigmas say (two balls side by side, their fits
         * jittering against each other) */
        if (sse / (2.0 * n - 6.0) > sp * sp) {
            double kse = sqrt(sse / (2.0 * n - 6.0)) / sp;

            se_c *= kse;
            se_dv *= kse;
        }
        dn = wn - un;
        /* no change along the line of centres beyond two standard errors
         * (noise alone passes 1.5 in one pass of 15): no blow */
        unbent = dn < 2.0 * se_dv;
        /* closing before, parting after, the change along the line of
         * centres significant, and the bend where they touch: by the fit,
         * and by the sample nearest it in time (pieces fitted across
         * another bend, a cushion's, can meet at 2R where the balls were
         * seen far apart) */
        for (int k = 1; k < n; k++)
            if (fabs(ts[k] - tc) < fabs(ts[kq] - tc))
                kq = k;
        bent = un < 0.0 && wn > 0.0 && dn > 4.0 * se_dv &&
               fabs(cl - 2.0 * rc->R) <= rc->p.contact_tol_mm + 2.0 * se_c &&
               ds[kq] - 2.0 * rc->R <=
                   rc->p.contact_tol_mm + 3.0 * sp + fmax(hypot(u[0], u[1]), hypot(w[0], w[1])) * fabs(ts[kq] - tc);
    }
    /* a V at 2R that the relative motion does not deny, or a bend clear
     * enough to stand alone */
    if (!((vee_ok && !unbent) || (bent && dn > 6.0 * se_dv)))
        return false;
    *t = tv;
    if (bent) {
        /* when the way in reached 2R (|c + u s| = 2R, the earlier root):
         * the bend's own time falls late when the pieces meet short of 2R */
        double qa = u[0] * u[0] + u[1] * u[1], qb = 2.0 * (c[0] * u[0] + c[1] * u[1]),
               qc = cl * cl - 4.0 * rc->R * rc->R, disc = qb * qb - 4.0 * qa * qc;
        double t2 = qa > 0.0 && disc >= 0.0 ? tc + (-qb - sqrt(disc)) / (2.0 * qa) : NAN;

        *t = isfinite(t2) && fabs(t2 - tc) <= rc->dt ? t2 : tc;
    }
    return true;
}

/* A collision between two moving balls that changed each other's course
 * too little for a kink (a glancing touch, one chasing the other). When
 * the distance between two moving balls within reach clearly fell and
 * then clearly rose again, pair_touched() judges the samples about their
 * nearest. Hitter: the faster one. */
static void pair_watch(cr_recon_t *rc, long a)
{
    rframe_t *f = frm(rc, a);
    double reach = 5.0 * rc->R;
    int i, j;

    for (i = 0; i < NB; i++) {
        for (j = i + 1; j < NB; j++) {
            double d, sp, m;

            if (rc->b[i].state != B_MOVING || rc->b[j].state != B_MOVING || f->st[i] != OB_SEEN ||
                f->st[j] != OB_SEEN) {
                rc->pw_on[i][j] = false;
                continue;
            }
            d = hypot(f->x[i] - f->x[j], f->y[i] - f->y[j]);
            if (d > reach) {
                rc->pw_on[i][j] = false;
                continue;
            }
            sp = hypot(sig(rc, f->s[i]), sig(rc, f->s[j]));
            m = fmax(1.5, 4.0 * sp);
            if (!rc->pw_on[i][j]) {
                rc->pw_on[i][j] = true;
                rc->pw_max[i][j] = rc->pw_min[i][j] = d;
                rc->pw_tmin[i][j] = f->t;
                continue;
            }
            if (d < rc->pw_min[i][j]) {
                rc->pw_min[i][j] = d;
                rc->pw_tmin[i][j] = f->t;
                continue;
            }
            if (rc->pw_min[i][j] > 2.0 * rc->R + rc->p.contact_tol_mm || rc->pw_max[i][j] - rc->pw_min[i][j] < m ||
                d - rc->pw_min[i][j] < m) {
                if (d > rc->pw_max[i][j] && rc->pw_min[i][j] >= rc->pw_max[i][j] - m) {
                    rc->pw_max[i][j] = rc->pw_min[i][j] = d;
                    rc->pw_tmin[i][j] = f->t;
                }
                continue;
            }
            {
                double ts[64], ds[64], rx[64], ry[64], tc, tn = rc->pw_tmin[i][j];
                long k, k0 = frame_from(rc, a, tn - 0.15, 63);
                int n = 0;

                for (k = k0; k <= a && n < 64; k++) {
                    rframe_t *g = frm(rc, k);

                    if (g->st[i] != OB_SEEN || g->st[j] != OB_SEEN)
                        continue;
                    ts[n] = g->t;
                    rx[n] = g->x[i] - g->x[j];
                    ry[n] = g->y[i] - g->y[j];
                    ds[n] = hypot(rx[n], ry[n]);
                    n++;
                }
                rc->pw_max[i][j] = rc->pw_min[i][j] = d; /* decided either way: watch anew */
                rc->pw_tmin[i][j] = f->t;
                if (n < 5 || !pair_touched(rc, ts, rx, ry, ds, n, tn, sp, &tc))
                    continue;
                {
                    double vi[2], vj[2];
                    int hi_ball, lo_ball;

                    seg_vel(seg_at(&rc->b[i], tc - 0.5 * rc->dt), tc, &vi[0], &vi[1]);
                    seg_vel(seg_at(&rc->b[j], tc - 0.5 * rc->dt), tc, &vj[0], &vj[1]);
                    hi_ball = hypot(vi[0], vi[1]) >= hypot(vj[0], vj[1]) ? i : j;
                    lo_ball = hi_ball == i ? j : i;
                    emit_collision(rc, hi_ball, lo_ball, tc, 1.0);
                }
            }
        }
    }
}

/* Inserts an event into the queue in time order (an event decided late,
 * e.g. a placement known for what it was only once the ball got its number). */
static void queue_event_sorted(cr_recon_t *rc, const cr_event_t *ev)
{
    int k = rc->nq;

    if (rc->nq >= QCAP)
        return;
    while (k > 0 && cmp_event_t(&rc->q[k - 1], ev) > 0) {
        rc->q[k] = rc->q[k - 1];
        k--;
    }
    rc->q[k] = *ev;
    rc->nq++;
}

/* May ball i, off the table, be back at (x, y)? The cue ball is in hand
 * anywhere, and so is any ball when no game is judged, and one lost from
 * sight with no pocket or off_table reported (its place is not known). An
 * object ball reported pocketed or off the table is put back only where the
 * rules put balls: on the long string (spotted: behind the foot spot, or
 * ahead of it when that is blocked; eleven balls would have to block it to
 * reach the centre spot) or in the rack behind the foot spot (a new rack;
 * any game's, the 2025 nine-ball diamond reaching two rows ahead of the
 * spot); or it is back where it was last seen (a ball taken for pocketed
 * that sat in the jaws, a lifted ball put back). A rack standing at a
 * stroke puts them all back (rack_stands()): none is down after it. */
static bool may_return(const cr_recon_t *rc, int i, double x, double y)
{
    const rball_t *b = &rc->b[i];
    const double R = rc->R, mid = 0.5 * rc->tab.width_mm;

    if (!rc->p.stay_down || i == CR_BALL_CUE || i >= NID || b->state != B_GONE || !b->down || !b->seen_on)
        return true;
    if (hypot(x - b->seen_x, y - b->seen_y) <= 3.0 * R)
        return true;
    if (fabs(y - mid) <= R && x >= 0.5 * rc->tab.length_mm)
        return true;
    return in_rack_reach(rc, x, y);
}

/* A track first seen without a number (a spare slot) that has since been
 * identified as a ball whose own slot is vacant (pocketed, or never seen:
 * the cue ball back in hand after a scratch) becomes that ball: its slot,
 * its strokes. A cue ball that came onto the table and has not moved since
 * was put down by hand: placed, at the time it appeared. */
static void merge_named(cr_recon_t *rc, long a)
{
    int s;
    long k;

    for (s = NID; s < NB; s++) {
        const int id = rc->spare_id[s];
        bool vacant, found;

        /* a number held a while (not one the tracker gave for a moment) */
        if (rc->spare_track[s] < 0 || id < 0 || id >= NID ||
            frm(rc, rc->n_frames - 1)->t - rc->spare_since[s] < rc->p.merge_hold_s)
            continue;
        vacant = rc->b[id].state == B_GONE || rc->b[id].state == B_ABSENT;
        /* or lost (out of sight moving: over a cushion, on a course into a
         * pocket, after a blow) and this track first seen after it was:
         * that ball found again, under a new track */
        found = rc->b[id].state == B_LOST && frm(rc, a)->st[s] == OB_SEEN && frame_ok(rc, rc->b[id].last_seen);
        for (k = rc->n_frames > RING ? rc->n_frames - RING : 0; k <= rc->b[id].last_seen && found; k++)
            if (frm(rc, k)->st[s] == OB_SEEN)
                found = false; /* seen beside it: another ball */
        if (vacant && rc->b[s].state == B_REST && !may_return(rc, id, rc->b[s].rx, rc->b[s].ry))
            continue; /* not where that ball can be */
        for (k = a; k < rc->n_frames && (vacant || found); k++)
            if (frm(rc, k)->st[id] == OB_SEEN)
                vacant = found = false;
        if (!vacant && !found)
            continue;
        relabel_slot(rc, s, id);
        if (found) {
            /* the lost ball keeps its state (relabel_slot() moved it to
             * slot s), which its samples now find again (analyse()); the
             * track's own slot is no ball */
            rc->b[id] = rc->b[s];
            clear_ball(&rc->b[s]);
        }
        if (id == CR_BALL_CUE) {
            rball_t *b = &rc->b[CR_BALL_CUE];

            if (b->appeared && b->state == B_REST && (!rc->active || b->t_appear > rc->t_stroke) &&
                hypot(b->rx - b->app_x, b->ry - b->app_y) < rc->R) {
                cr_event_t ev;

                cr_event_init(&ev, CR_EV_PLACED);
                ev.t = b->t_appear;
                ev.shot = -1;
                ev.ball = CR_BALL_CUE;
                ev.x = b->rx;
                ev.y = b->ry;
                queue_event_sorted(rc, &ev);
            }
        }
        rc->b[id].appeared = false;
    }
}

/* Do ball i's samples at frames a and e differ beyond their noise (it
 * is moving)? */
static bool runs_off(cr_recon_t *rc, int i, long a, long e)
{
    rframe_t *f = frm(rc, a), *g;

    if (e <= a || (g = frm(rc, e))->st[i] != OB_SEEN || f->st[i] != OB_SEEN)
        return false;
    return dist2(g->x[i], g->y[i], f->x[i], f->y[i]) >
           fmax(rc->p.onset_min_mm, 3.0 * hypot(sig(rc, f->s[i]), sig(rc, g->s[i])));
}

static void analyse(cr_recon_t *rc, long a)
{
    rframe_t *f = frm(rc, a);
    int i, n_reloc = 0;
    bool cue_placed = false;
    double cue_xy[2] = {0, 0};
    long k, e = last_frame(rc, a);

    rc->nch = 0;
    merge_named(rc, a);
    for (i = 0; i < NB; i++) {
        rball_t *b = &rc->b[i];

        if (f->st[i] == OB_SEEN)
            b->sig_run = b->sig_run > 0 ? 0.8 * b->sig_run + 0.2 * sig(rc, f->s[i]) : sig(rc, f->s[i]);
        if (f->st[i] == OB_SEEN && b->state != B_GONE && b->state != B_ABSENT) {
            b->seen_x = f->x[i];
            b->seen_y = f->y[i];
            b->seen_on = true;
        }
        if (f->st[i] == OB_SEEN && !b->bed_seen) {
            int p = near_pocket(rc, f->x[i], f->y[i], rc->R, NULL);

            b->bed_seen = !(p >= 0 && past_mouth(rc, p, f->x[i], f->y[i]));
        }

        switch (b->state) {
        case B_ABSENT:
        case B_GONE:
            if (f->st[i] == OB_SEEN && may_return(rc, i, f->x[i], f->y[i])) {
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
                b->down = false;
                b->unseen = false;
                rc->t_back = f->t;
                rc->back_ball = i;
                b->rx = f->x[i];
                b->ry = f->y[i];
                b->rw = 1;
                {
                    /* where it rests: the mean of the samples by their sigmas
                     * (the first sight of a ball put down is often blurred) */
                    double sw = 0, sx = 0, sy = 0;

                    for (k = a; k <= e; k++) {
                        rframe_t *g = frm(rc, k);
                        double wk = 1.0 / (sig(rc, g->s[i]) * sig(rc, g->s[i]));

                        sw += wk;
                        sx += wk * g->x[i];
                        sy += wk * g->y[i];
                    }
                    if (sw > 0) {
                        b->rx = sx / sw;
                        b->ry = sy / sw;
                        b->rw = (double)(e - a + 1);
                    }
                }
                b->t_stop = a > 0 ? f->t - 0.5 * rc->dt : f->t;
                /* found at rest while the shot's rest waits for a ball gone
                 * unseen: it stopped unseen, when is not known; the shot
                 * rests when the others settled */
                if (rc->active && !isnan(rc->t_settled) && rc->t_rest_wait < b->t_stop)
                    b->t_stop = rc->t_rest_wait;
                b->last_seen = a;
                b->anchor = false;
                /* a ball that comes into view moving (out from under the
                 * cue) was not put down there */
                b->appeared = a > 0 && i >= NID && !runs_off(rc, i, a, e);
                b->t_appear = b->t_stop;
                b->app_x = b->rx;
                b->app_y = b->ry;
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
            if (b->bc_on && (f->st[i] == OB_SEEN || f->t >= b->bc_t)) {
                if (f->st[i] != OB_SEEN)
                    emit_cushion_conf(rc, i, (cr_rail_t)b->bc_rail, b->bc_t, b->bc_x, b->bc_y, BLOW_CONF);
                b->bc_on = false;
            }
            if (f->st[i] == OB_SEEN) {
                seg_t m;

                b->lost_blow = false;
                b->off_on = false; /* back from the cushion: it did not leave */
                /* found again: on its course (kept should it be lost again
                 * before it has a path of its own) or not */
                if (b->lost_pk >= 0 && lost_course_met(rc, i, a, true))
                    b->lc_seen = f->t;
                else
                    b->lost_pk = -1;

                b->state = B_MOVING;
                b->anchor = false;
                b->seg_from = a;
                b->last_seen = a;
                memset(&m, 0, sizeof(m));
                fit_ball(rc, i, a, a, &m);
                m.t0 = f->t;
                push_seg(b, &m);
            } else if (b->off_on && f->t > b->t_lost + OFF_WAIT_S &&
                       (others_settled(rc, i) || f->t - b->t_lost > off_give_s(rc, b))) {
                settle_off(rc, i);
            } else if (b->off_on) {
                /* over a cushion: off the table once the others settle, or
                 * when it could no longer be rolling unseen (above) */
            } else if (b->lost_blow) {
                /* decided when the others rest (maybe_rest()) */
            } else if (b->lost_pk >= 0 && lost_course_met(rc, i, a, false)) {
                b->lost_pk = -1;
            } else if (b->lost_pk >= 0 && f->t > b->lost_tc + LOST_WAIT_S &&
                       (others_settled(rc, i) || f->t - b->t_lost > LOST_GIVE_S)) {
                /* not seen again by the time its course took it through a
                 * pocket's mouth and beyond, nor while the other balls
                 * still rolled (a ball that rattled in the jaws and came
                 * back out is found again then): it dropped there
                 * (unseen) */
                drop_lost(rc, i);
            } else if (f->t - b->t_lost > LOST_GIVE_S) {
                /* lost and not found: with no course to follow (never seen
                 * to move off, or too briefly to measure) it may lie
                 * anywhere (unseen_wait()); one seen moving off whose course
                 * met no pocket (or went no sure way) most likely lies on
                 * the bed unseen (a ball of the cloth's colour) */
                b->state = B_GONE;
                if (!b->lost_course_known)
                    mark_unseen(rc, i, b->t_lost);
            }
            break;
        default:
            break;
        }
    }
    resolve_changes(rc);
    rebound_waiting(rc, f->t);
    pair_watch(rc, a);
    if (n_reloc >= 3)
        for (i = NID; i < NB; i++)
            if (rc->b[i].appeared && rc->b[i].t_appear >= f->t - rc->dt)
                rc->b[i].appeared = false; /* a re-rack, not a ball put down */
    if (cue_placed && n_reloc < 3) {
        /* the cue ball put down by hand (several balls at once: a re-rack) */
        double mx = cue_xy[0], my = cue_xy[1];

        emit_simple(rc, CR_EV_PLACED, CR_BALL_CUE, f->t - 0.5 * rc->dt, mx, my, -1);
    }
    dh_check(rc, a);
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

/* The id an event names for a slot. */
static int slot_id(const cr_recon_t *rc, int slot)
{
    if (slot < 0 || slot >= NB)
        return slot < 0 ? slot : -1;
    return slot < NID ? slot : rc->spare_id[slot];
}

static void name_balls(const cr_recon_t *rc, cr_event_t *ev)
{
    int i;

    switch (ev->type) {
    case CR_EV_COLLISION: {
        const int sa = ev->a, sb = ev->b;

        ev->a = slot_id(rc, sa);
        ev->b = slot_id(rc, sb);
        /* two tracks the tracker names alike (one of them wrongly, e.g. a
         * stripe seen from its pole while the cue ball is held) are not
         * one ball touching itself: the unnamed slot's ball is unknown */
        if (ev->a >= 0 && ev->a == ev->b) {
            if (sb >= NID)
                ev->b = -1;
            else
                ev->a = -1;
        }
        break;
    }
    case CR_EV_STROKE:
    case CR_EV_REST:
        for (i = 0; i < ev->n_balls; i++)
            ev->balls[i].id = slot_id(rc, ev->balls[i].id);
        for (i = 0; i < ev->n_moving; i++)
            ev->moving[i] = slot_id(rc, ev->moving[i]);
        if (ev->type == CR_EV_STROKE)
            ev->ball = slot_id(rc, ev->ball);
        break;
    default:
        if (ev->ball >= 0)
            ev->ball = slot_id(rc, ev->ball);
        break;
    }
}

/* Whether an event is about a ball whose track has no number yet. */
static bool unnamed(const cr_recon_t *rc, const cr_event_t *ev)
{
    int a = -1, b = -1;

    if (ev->type == CR_EV_COLLISION)
        a = ev->a, b = ev->b;
    else if (ev->type != CR_EV_STROKE && ev->type != CR_EV_REST)
        a = ev->ball;
    return (a >= NID && a < NB && rc->spare_id[a] < 0) || (b >= NID && b < NB && rc->spare_id[b] < 0);
}

static int drain(cr_recon_t *rc, cr_event_t *out, int max, int *n)
{
    const double now = rc->n_frames > 0 ? frm(rc, rc->n_frames - 1)->t : 0.0;
    int k = 0, i;

    /* hand out in order; an event whose ball may still get its number waits
     * (and so does everything after it), within name_wait_s */
    while (k < rc->nq && k < max) {
        if (!rc->finishing && rc->nq < QCAP / 2 && unnamed(rc, &rc->q[k]) && now - rc->q[k].t < rc->p.name_wait_s)
            break;
        k++;
    }

    if (k > 0) {
        memcpy(out, rc->q, sizeof(*out) * (size_t)k);
        memmove(rc->q, rc->q + k, sizeof(*out) * (size_t)(rc->nq - k));
        rc->nq -= k;
    }
    for (i = 0; i < k; i++)
        name_balls(rc, &out[i]);
    *n = k;
    return CR_OK;
}

/* Where tracker track track sits in the track map (ts_track), -1 when it
 * is not there. */
static int track_at(const cr_recon_t *rc, int track)
{
    const int n = rc->n_ts < TRACK_MAP ? rc->n_ts : TRACK_MAP;

    for (int k = 0; k < n; k++)
        if (rc->ts_track[k] == track)
            return k;
    return -1;
}

#define DISPLACED_V 50.0 /* mm/s: still, for two tracks with one number (displaced()) */
#define DISPLACED_S 0.1  /* how long they must be so before the old one leaves */

/* Whether track o (no number now) and another track seen in frame fr under
 * number id, its old number, are two balls: both seen, both still, over
 * 4 R apart. A struck ball the tracker picked up under a new track is
 * neither still nor far from the old one's place. */
static bool displaced(const cr_recon_t *rc, const cr_ball_frame_t *fr, const cr_ball_obs_t *o, int id)
{
    if (o->status != CR_BALL_SEEN || hypot(o->vx, o->vy) > DISPLACED_V)
        return false;
    for (int k = 0; k < fr->n && k < CR_VISION_MAX_DETECTIONS; k++) {
        const cr_ball_obs_t *q = &fr->balls[k];

        if (q->track != o->track && q->id == id && q->status == CR_BALL_SEEN && hypot(q->vx, q->vy) <= DISPLACED_V &&
            hypot(q->x - o->x, q->y - o->y) > 4.0 * rc->R)
            return true;
    }
    return false;
}

/* Whether the numbered track at track map entry at, now unnamed (o), is no
 * longer its slot's ball: displaced() for DISPLACED_S (at least 2.5
 * frames) on end; ts_displaced[at] keeps since when. */
static bool leaves_slot(cr_recon_t *rc, const cr_ball_frame_t *fr, const cr_ball_obs_t *o, int at, double t)
{
    if (!displaced(rc, fr, o, rc->ts_slot[at])) {
        rc->ts_displaced[at] = NAN;
        return false;
    }
    if (isnan(rc->ts_displaced[at]))
        rc->ts_displaced[at] = t;
    return t - rc->ts_displaced[at] >= fmax(DISPLACED_S, 2.5 * rc->dt);
}

/* The slot of a tracked ball (see NID) in frame fr, or -1 when every spare
 * slot is taken. A track keeps the slot it was first given, so a track
 * whose id flickers to -1 and back is still one ball; but not once the
 * tracker has given that number to another track, both seen still and
 * apart for DISPLACED_S: then it is no longer that ball, and takes a spare
 * slot (a stripe taken for the cue ball in a new rack, its number taken
 * back when the cue ball was put down: the cue ball's slot stayed with the
 * rack ball, and the break was judged played from there). */
static int ball_slot(cr_recon_t *rc, const cr_ball_frame_t *fr, const cr_ball_obs_t *o, double t)
{
    const int known = o->id >= 0 && o->id < NID;
    int k, slot = -1, at = track_at(rc, o->track);

    if (at >= 0 && rc->ts_slot[at] >= NID) {
        slot = rc->ts_slot[at]; /* an unidentified track keeps its spare slot for life */
        /* the tracker's word now (it may take a number back for a while) */
        rc->spare_id[slot] = known ? o->id : -1;
        rc->spare_not_cue[slot] = o->not_cue;
        if (known && o->id != rc->spare_named[slot]) {
            rc->spare_named[slot] = o->id;
            rc->spare_since[slot] = t;
        }
        return slot;
    }
    if (known) {
        slot = o->id;
        if (at >= 0)
            rc->ts_displaced[at] = NAN;
    } else if (at >= 0 && !leaves_slot(rc, fr, o, at, t)) {
        slot = rc->ts_slot[at]; /* an identified track whose id flickered to -1 */
    } else {
        for (k = NID; k < NB && slot < 0; k++)
            if (rc->spare_track[k] < 0) {
                rc->spare_track[k] = o->track;
                rc->spare_not_cue[k] = o->not_cue;
                rc->b[k].bed_seen = false;
                slot = k;
            }
    }
    if (slot < 0)
        return -1;
    if (at < 0) {
        at = rc->n_ts % TRACK_MAP;
        rc->n_ts++;
        rc->ts_displaced[at] = NAN;
    }
    rc->ts_track[at] = o->track;
    rc->ts_slot[at] = slot;
    return slot;
}

bool cr_recon_is_down(const cr_recon_t *rc, const cr_ball_obs_t *o)
{
    int at, slot = -1;

    if (!rc || !o || o->status == CR_BALL_SEEN)
        return false;
    if ((at = track_at(rc, o->track)) >= 0) /* the slot ball_slot() gave it */
        slot = rc->ts_slot[at];
    else if (o->id >= 0 && o->id < NID)
        slot = o->id;
    return slot >= 0 && slot < NB && rc->b[slot].state == B_GONE && rc->b[slot].down;
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
        f->x[k] = f->y[k] = f->rx[k] = f->ry[k] = NAN;
        f->s[k] = rc->p.sigma_floor_mm;
    }
    for (k = 0; k < frame->n && k < CR_VISION_MAX_DETECTIONS; k++) {
        const cr_ball_obs_t *o = &frame->balls[k];
        int id = ball_slot(rc, frame, o, frame->t);
        bool raw;

        /* two tracks in one slot (an identified ball held where it was last
         * seen, and the track that took its place): the one seen wins */
        if (id < 0 || id >= NB || (f->st[id] != OB_NONE && !(f->st[id] != OB_SEEN && o->status == CR_BALL_SEEN)))
            continue;
        if ((o->status == CR_BALL_SEEN || o->status == CR_BALL_HIDDEN) && !(isfinite(o->x) && isfinite(o->y)))
            continue;
        f->st[id] = o->status == CR_BALL_SEEN ? OB_SEEN : o->status == CR_BALL_HIDDEN ? OB_HIDDEN : OB_GONE;
        f->x[id] = o->x;
        f->y[id] = o->y;
        raw = o->has_raw && isfinite(o->raw_x) && isfinite(o->raw_y);
        f->rx[id] = raw ? o->raw_x : o->x;
        f->ry[id] = raw ? o->raw_y : o->y;
        f->s[id] = o->sigma_mm;
        f->rf[id] = o->status == CR_BALL_SEEN && o->refit;
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
    if (rc->n_frames > 0) {
        /* the film ended with balls lost and no frame left to find them
         * in: one lost over a cushion left the table; one whose course ran
         * past a pocket's mouth before the end dropped there; the shot
         * then rests if nothing else still rolls */
        const double t_end = frm(rc, rc->n_frames - 1)->t;
        bool settled = false;

        for (int i = 0; i < NB; i++) {
            rball_t *b = &rc->b[i];

            if (b->state != B_LOST)
                continue;
            if (b->off_on) {
                settle_off(rc, i);
                settled = true;
            } else if (!b->lost_blow && b->lost_pk >= 0 && b->lost_tc <= t_end) {
                drop_lost(rc, i);
                settled = true;
            }
        }
        /* the film ended while the shot's rest waited for a ball gone
         * unseen: it rests; the ball was not looked for long enough to say
         * it left the bed, and nothing is said of it */
        if (rc->active && !isnan(rc->t_settled)) {
            for (int i = 0; i < NID; i++)
                rc->b[i].unseen = false;
            settled = true;
        }
        if (settled)
            maybe_rest(rc, t_end, true);
    }
    decide_disturbed(rc);
    commit_batch(rc);
    rc->finishing = true;
    return drain(rc, out, max, n);
}
