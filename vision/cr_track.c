/*
 * cr_track.c - multi-ball tracking and identity (cr_track.h explains the
 * method). Everything is allocated in cr_tracker_create(); push and pop do
 * no heap work.
 */
#include "cr_track.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HELD_MIN_HITS 8    /* a ball held hidden at rest was seen at least this often, */
#define HELD_UNSEEN_S 1.0  /* or is dropped after this long unseen */
/* A ball held hidden at rest whose place shows the bare background
 * (cr_tracker_bare) for this many frames and this long is not there, when it
 * stood out from the background while seen (mean foreground share at least
 * BARE_CONTRAST), over all its sightings and over its last BARE_RECENT_S (a
 * ball of the cloth's colour stands out while it rolls fast, and less and
 * less as it slows: at rest its place may show bare though it is there): a
 * hand or cue taken for a ball, or a ball gone unseen. */
#define BARE_FRAMES 3
#define BARE_S 0.1
#define BARE_CONTRAST 0.5
#define BARE_RECENT_S 0.25
/* A ball at rest that a rolling ball came within contact of (struck_at)
 * and that is then lost may have been sent off unseen (a ball of the
 * cloth's colour, whose outline barely shows when it moves): for STRUCK_S
 * it is looked for, and taken back, within the reach the striker's speed
 * gives it since, up to STRUCK_REACH radii, not only where it rested. */
#define STRUCK_S 0.5
#define STRUCK_REACH 4.0
#define STRUCK_MIN_MM_S 150.0 /* a striker slower than this sends nothing far */
#define TRK_SLOTS 128                     /* track records (live + retiring) */
#define TRK_LIVE CR_VISION_MAX_DETECTIONS /* tracks in one frame */
#define TRK_IDS CR_VISION_MAX_BALLS       /* ids 0..15 */
#define HUNG_MAX (2 * CR_VISION_MAX_DETECTIONS + 2)
#define BIG 1e9
#define NCOL CR_COLOUR_COUNT
#define CR_PI 3.14159265358979323846

typedef enum { SLOT_FREE = 0, SLOT_TENT, SLOT_LIVE, SLOT_DEAD } slot_state_t;

/* Identity evidence of a track. */
typedef struct {
    double lc[NCOL]; /* weighted sums of colour log-likelihoods */
    double ls[NCOL]; /* the same for a stripe of colour c (some of its views show mostly white) */
    double wc;       /* their total weight */
    double n_stripe; /* frames showing the stripe */
    double n_solid;  /* frames looking solid */
    double q_solid;  /* independent-ish views looking solid, committed */
    double q_seg;    /* the view of the present straight roll (0..1) */
    double n_white;  /* frames looking like the cue ball */
    double q_white;  /* independent views looking like the cue ball (all white) */
    double n_fit;    /* sharp frames whose colour was measured */
    double off_avg;  /* share of the recent ones whose colour fits no ball's (CR_VISION_COLOUR_OFF) */
} ev_t;

typedef struct {
    slot_state_t state;
    int number;              /* output track number, -1 until confirmed */
    cr_ball_status_t status; /* now */
    int hits, miss_run;
    uint64_t born, last_seen, last_ref; /* frame counters (push order) */
    double t_seen;                      /* time of the last detection */
    double zx, zy;                      /* last detection */
    double x, y, vx, vy;                /* filtered state at t_state */
    double t_state;
    double sig_v; /* velocity uncertainty, mm/s */
    double sig_z; /* last detection sigma */
    bool moving_at_loss;
    bool seen_prev;        /* seen in the frame before its last sighting too */
    bool surprise;         /* its last sighting lay far off its free roll (taken as the fit's error) */
    ev_t ev;               /* identity evidence */
    ev_t vw;               /* per-frame evidence of the present view (raw, unweighted sums) */
    double vw_x, vw_y;     /* where the present view began */
    int vw_n;              /* its frames (0: none yet) */
    ev_t snap;             /* the evidence just before its last abrupt change of motion */
    uint64_t snap_frame;   /* that frame */
    double snap_x, snap_y; /* and where it was */
    bool snap_on;          /* a change not checked for a swap yet */
    int id;                /* from the last assignment, -1 none */
    double margin;         /* nats */
    bool in_assign;
    bool retired;          /* left the id assignment (everything of it published) */
    double fg_sum;         /* sum of its detections' foreground shares, and their count */
    int fg_n;
    double fg_recent;      /* their mean over about the last BARE_RECENT_S (time-weighted) */
    double t_fg;           /* the last share taken */
    bool bare_now;         /* this frame: its place showed the background (cr_tracker_bare) */
    bool out_through;      /* GONE moving out through a pocket's mouth (or over the hole, or
                            * knocked in from the jaws): surely pocketed, if surely named */
    int bare_run;          /* consecutive such frames while held at rest */
    double t_bare;         /* the first of them */
    double bx, by;         /* where it was first seen */
    int rack;              /* the rack slot (p.rack_x/y) it has sat on since, or -1 (never on
                            * one, or seen more than R / 2 from there since) */
    double t_struck;       /* at rest, a rolling ball came within contact then (STRUCK_S) */
    double v_struck;       /* ... at this speed, mm/s */
    bool off_named;        /* its looks went off every ball's colour while it rested surely named
                            * (ball_like()), ... */
    double off_x, off_y;   /* ... there */
} trk_t;

typedef struct {
    int16_t slot;
    uint8_t seen, blurred, status;
    float x, y, vx, vy, sigma;
} ent_t;

typedef struct {
    double t;
    uint64_t frame;
    int n;
    ent_t e[TRK_LIVE];
} fr_t;

typedef struct {
    float t, x, y, s;
} obs_t;

struct cr_tracker {
    cr_table_t table;
    cr_track_params_t p;
    trk_t trk[TRK_SLOTS];
    int next_number;
    /* frame ring: frames [first, pushed) are held; [next_pop, pushed) not output yet */
    fr_t *ring;
    int cap;
    uint64_t first, next_pop, pushed;
    bool flushed;
    double t_last;
    /* scratch */
    cr_detection_t det[CR_VISION_MAX_DETECTIONS];
    bool dup[CR_VISION_MAX_DETECTIONS];
    double *cost; /* HUNG_MAX * HUNG_MAX */
    double hu[HUNG_MAX + 1], hv[HUNG_MAX + 1], hminv[HUNG_MAX + 1];
    int hp[HUNG_MAX + 1], hway[HUNG_MAX + 1], hres[HUNG_MAX + 1];
    char hused[HUNG_MAX + 1];
    int rows[TRK_SLOTS];
    uint32_t gone_ids;          /* ids of balls surely pocketed (bit per id) */
    uint64_t cue_out, cue_back; /* the cue ball surely pocketed: the last frame it was seen in,
                                 * and the first a track surely named it after (0: none) */
    int gone_number[TRK_IDS];   /* the track number each of them had */
    uint64_t gone_seen[TRK_IDS]; /* ... and the last frame it was seen in */
    obs_t *obs; /* TRK_SLOTS * window */
    int *nobs;  /* TRK_SLOTS */
    int obs_cap;
    double cpu_s;
};

static const int id_colour[TRK_IDS] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7};

void cr_track_params_defaults(cr_track_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->delay_frames = 40;
    p->history_frames = 30;
    p->max_speed_mm_s = 12000.0;
    p->p_detect = 0.95;
    p->new_per_frame = 0.01;
    p->collision_share = 0.03;
    p->confirm_hits = 5;
    p->tentative_misses = 2;
    p->id_margin = 3.0;
    p->colour_weight = 0.25;
    p->stripe_min_white = 0.15;
    p->cue_min_white = 0.8;
    p->gone_keep_s = 0.5;
    p->stitch_min = 1.0;
    p->rest_window_s = 1.0;
    p->lost_moving_s = 1.0;
    p->id_set = 0xFFFFu;
    p->colour_cap = 20.0;
    p->appearance_weight = 1.0;
    p->swap_window = 20;
    p->swap_min = 1.0;
    p->min_sigma_mm = 0.3;
    p->view_frames = 10.0;
    p->rack_prior = 4.0;
}

static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------- Hungarian */

/* Minimum-cost assignment of n rows to m >= n columns, cost row-major with
 * stride m (0-based). res[i] = column of row i. O(n^2 m). */
static void hungarian(cr_tracker_t *tr, const double *a, int n, int m, int *res)
{
    double *u = tr->hu, *v = tr->hv, *minv = tr->hminv;
    int *p = tr->hp, *way = tr->hway;
    char *used = tr->hused;

    for (int j = 0; j <= m; j++) {
        v[j] = 0;
        p[j] = 0;
        way[j] = 0;
    }
    for (int i = 0; i <= n; i++)
        u[i] = 0;
    for (int i = 1; i <= n; i++) {
        int j0 = 0;

        p[0] = i;
        for (int j = 0; j <= m; j++) {
            minv[j] = DBL_MAX;
            used[j] = 0;
        }
        do {
            int i0 = p[j0], j1 = 0;
            double delta = DBL_MAX;

            used[j0] = 1;
            for (int j = 1; j <= m; j++) {
                if (!used[j]) {
                    double cur = a[(size_t)(i0 - 1) * m + (j - 1)] - u[i0] - v[j];

                    if (cur < minv[j]) {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if (minv[j] < delta) {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for (int j = 0; j <= m; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];

            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (int j = 1; j <= m; j++)
        if (p[j] > 0)
            res[p[j] - 1] = j - 1;
}

/* --------------------------------------------------------------- helpers */

static double sq(double a)
{
    return a * a;
}

/* What one detection shows of the ball's pattern. */
typedef enum { LOOK_NONE = 0, LOOK_CUE, LOOK_STRIPE, LOOK_SOLID } look_t;

/* From the detector's own per-frame id probabilities when it gives them (it
 * sees the shape of the white: a compact number spot on a solid, spread caps
 * on a stripe), else from the white share alone. */
static look_t look_of(const cr_tracker_t *tr, const cr_detection_t *d)
{
    double sum = 0, st = 0, so = 0, r, wf = d->white_frac;

    for (int k = 0; k < TRK_IDS; k++)
        sum += d->id_p[k] > 0 ? d->id_p[k] : 0;
    if (sum > 0.5) {
        if (d->id_p[0] > 0.5 * sum)
            return LOOK_CUE;
        for (int k = 1; k <= 8; k++)
            so += d->id_p[k] > 0 ? d->id_p[k] : 0;
        for (int k = 9; k < TRK_IDS; k++)
            st += d->id_p[k] > 0 ? d->id_p[k] : 0;
        if (!(st + so > 0))
            return LOOK_NONE;
        r = st / (st + so);
        return r > 0.75 ? LOOK_STRIPE : r < 0.35 ? LOOK_SOLID : LOOK_NONE;
    }
    if (wf >= tr->p.cue_min_white)
        return LOOK_CUE;
    return wf >= tr->p.stripe_min_white ? LOOK_STRIPE : LOOK_SOLID;
}

/* log P(stripe) / P(solid) of a track's evidence: seeing the stripe in a
 * few frames is near-proof (one frame alone may be a stray detection);
 * looking solid counts only slowly (a stripe can roll with its
 * band on top for a long time, and at rest shows the same face forever):
 * q_solid counts independent views (the first, then one per straight roll
 * of 8R or more: rolling about one axis can hide the stripe all along),
 * each worth ~1.4 nats at first, 5 nats at most. */
static double stripe_seen_ev(const ev_t *e)
{
    /* a solid shows a stray stripe-like frame now and then (a number spot
     * at the rim, a reflection, a misread): 3 % of its frames are discounted */
    double r = fmax(0.0, e->n_stripe - 0.03 * (e->n_stripe + e->n_solid) - 0.5) / 3.0;

    return 12.0 * (1.0 - exp(-r * r));
}

static double solid_seen_ev(const ev_t *e)
{
    return 5.0 * (1.0 - exp(-(e->q_solid + e->q_seg) / 3.0));
}

/* log P(looks | cue ball) / P(looks | stripe) of the views that looked all
 * white: a stripe does so only seen from near a pole (about one view in
 * six), and rolling by a radius turns the pole away (a ball cannot roll
 * about a vertical axis): so the first view, then one per radius rolled
 * while all white, each worth ~1.8 nats at first, 10 nats at most. */
static double white_seen_ev(const ev_t *e)
{
    return 10.0 * (1.0 - exp(-e->q_white / 5.0));
}

static double stripe_llr_ev(const ev_t *e)
{
    return stripe_seen_ev(e) - solid_seen_ev(e);
}

static double stripe_llr(const trk_t *k)
{
    return stripe_llr_ev(&k->ev);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* A track's colour log-likelihood of class c: the mean per frame times the
 * weight of the evidence, capped (a colour bias of the light is systematic:
 * more frames of it are not more proof). */
static double colour_ll_ev(const ev_t *e, int c, double cap)
{
    return e->wc > 0 ? e->lc[c] / e->wc * fmin(e->wc, cap) : 0.0;
}

/* The same for a stripe of colour c: its frames are a mixture of its colour
 * and, seen near a pole, white. */
static double stripe_colour_ll_ev(const ev_t *e, int c, double cap)
{
    return e->wc > 0 ? e->ls[c] / e->wc * fmin(e->wc, cap) : 0.0;
}

/* Colour posterior of some evidence (softmax of its colour log-likelihoods). */
static void colour_post_ev(const ev_t *e, double cap, double q[NCOL])
{
    double mx = -DBL_MAX, s = 0, l[NCOL];

    for (int c = 0; c < NCOL; c++) {
        l[c] = colour_ll_ev(e, c, cap);
        mx = fmax(mx, l[c]);
    }
    for (int c = 0; c < NCOL; c++) {
        q[c] = exp(l[c] - mx);
        s += q[c];
    }
    for (int c = 0; c < NCOL; c++)
        q[c] /= s;
}

static void colour_post(const trk_t *k, double cap, double q[NCOL])
{
    colour_post_ev(&k->ev, cap, q);
}

/* A coordinate that ran past a cushion line [lo, hi] comes back off it (an
 * elastic bounce; a real one loses a little speed). */
static double reflect(double v, double lo, double hi)
{
    for (int i = 0; i < 4 && (v < lo || v > hi); i++)
        v = v < lo ? 2 * lo - v : 2 * hi - v;
    return clampd(v, lo, hi);
}

/* The pocket whose mouth a ball centred at (x, y) is in or at (within a
 * mouth width plus R of the pocket point, where no cushion stops it), or -1. */
static int near_pocket(const cr_tracker_t *tr, double x, double y)
{
    double R = tr->table.ball_radius_mm;

    for (int pk = 0; pk < CR_POCKET_COUNT; pk++) {
        cr_point_t P = cr_table_pocket_point(&tr->table, (cr_pocket_t)pk);
        double mouth = cr_table_mouth_width(&tr->table, (cr_pocket_t)pk);

        if (hypot(P.x - x, P.y - y) <= mouth + R)
            return pk;
    }
    return -1;
}

/* Predicted position of a track at time t: straight line with rolling
 * deceleration, bounced off the cushions. */
static void predict(const cr_tracker_t *tr, const trk_t *k, double t, double *px, double *py)
{
    double dt = t - k->t_state, sp = hypot(k->vx, k->vy), R = tr->table.ball_radius_mm;
    double dec = 300.0, d;

    if (dt <= 0 || sp <= 0) {
        *px = k->x;
        *py = k->y;
        return;
    }
    if (dt < 0.05)
        d = sp * dt; /* a frame or two: plain constant velocity */
    else
        d = dt < sp / dec ? sp * dt - 0.5 * dec * dt * dt : 0.5 * sp * sp / dec;
    *px = k->x + k->vx / sp * d;
    *py = k->y + k->vy / sp * d;
    if (near_pocket(tr, *px, *py) < 0) {
        *px = reflect(*px, R, tr->table.length_mm - R);
        *py = reflect(*py, R, tr->table.width_mm - R);
    }
}

static fr_t *frame_at(cr_tracker_t *tr, uint64_t k)
{
    return &tr->ring[k % (uint64_t)tr->cap];
}

/* --------------------------------------------------------------- create */

int cr_tracker_create(const cr_table_t *t, const cr_track_params_t *p, cr_tracker_t **out)
{
    cr_tracker_t *tr = NULL;
    cr_track_params_t d;
    int win;

    if (!t || !out || !(t->length_mm > 0) || !(t->width_mm > 0) || !(t->ball_radius_mm > 0))
        return CR_ERR_INVALID;
    if (!p) {
        cr_track_params_defaults(&d);
        p = &d;
    }
    if (p->delay_frames < 1 || p->delay_frames > 240 || p->history_frames < 0 || p->history_frames > 240 ||
        !(p->max_speed_mm_s > 0) || !(p->p_detect > 0 && p->p_detect < 1) || !(p->new_per_frame > 0) ||
        !(p->collision_share > 0 && p->collision_share < 1) || p->confirm_hits < 1 || p->tentative_misses < 1 ||
        !(p->id_margin >= 0) || !(p->colour_weight > 0) || !(p->stripe_min_white > 0) ||
        !(p->cue_min_white > p->stripe_min_white) || !(p->gone_keep_s >= 0) || !(p->rest_window_s >= 0) ||
        !(p->lost_moving_s > 0) || !(p->colour_cap > 0) || !(p->appearance_weight >= 0) || p->swap_window < 1 ||
        !(p->swap_min > 0) || !(p->min_sigma_mm > 0) || !(p->view_frames >= 1) || (p->id_set & 0xFFFFu) == 0 ||
        p->n_rack < 0 || p->n_rack > CR_TABLE_RACK_MAX || !(p->rack_prior >= 0))
        return CR_ERR_INVALID;
    tr = calloc(1, sizeof(*tr));
    if (!tr)
        goto fail;
    tr->table = *t;
    tr->p = *p;
    tr->cap = p->delay_frames + p->history_frames + 2;
    tr->ring = calloc((size_t)tr->cap, sizeof(fr_t));
    tr->cost = malloc(sizeof(double) * HUNG_MAX * HUNG_MAX);
    win = p->delay_frames + p->history_frames + 2;
    tr->obs_cap = win;
    tr->obs = malloc(sizeof(obs_t) * (size_t)TRK_SLOTS * (size_t)win);
    tr->nobs = calloc(TRK_SLOTS, sizeof(int));
    if (!tr->ring || !tr->cost || !tr->obs || !tr->nobs)
        goto fail;
    tr->t_last = -DBL_MAX;
    *out = tr;
    return CR_OK;
fail:
    cr_tracker_destroy(tr);
    return CR_ERR_NOMEM;
}

void cr_tracker_destroy(cr_tracker_t *tr)
{
    if (!tr)
        return;
    free(tr->ring);
    free(tr->cost);
    free(tr->obs);
    free(tr->nobs);
    free(tr);
}

void cr_tracker_stats(const cr_tracker_t *tr, double *cpu_s, uint64_t *frames)
{
    if (cpu_s)
        *cpu_s = tr ? tr->cpu_s : 0;
    if (frames)
        *frames = tr ? tr->pushed : 0;
}

/* ------------------------------------------------------------ detections */

/* Did the ball stand out from the background while seen (its detections'
 * mean foreground share, over all of them and over the last BARE_RECENT_S)?
 * Only then does a bare place say it is not there. */
static bool stood_out(const trk_t *k)
{
    return k->fg_n > 0 && k->fg_sum >= BARE_CONTRAST * k->fg_n && k->fg_recent >= BARE_CONTRAST;
}

static int own_best(const cr_tracker_t *tr, const trk_t *k, double *margin);

/* Is the ball that track k's own looks name best seen elsewhere now,
 * surely named there (by the assignment and by its own looks), more than
 * two radii away? Then k, held unseen, is a stale copy of a ball that
 * moved. */
static bool named_elsewhere(const cr_tracker_t *tr, const trk_t *k)
{
    double m;
    int id = own_best(tr, k, &m);

    if (id < 0)
        return false;
    for (int s = 0; s < TRK_SLOTS; s++) {
        const trk_t *o = &tr->trk[s];

        if (o == k || o->state != SLOT_LIVE || o->status != CR_BALL_SEEN || o->id != id ||
            o->margin < tr->p.id_margin || hypot(o->x - k->x, o->y - k->y) <= 2.0 * tr->table.ball_radius_mm)
            continue;
        if (own_best(tr, o, &m) == id && m >= tr->p.id_margin)
            return true;
    }
    return false;
}

/* How far a detection's colour classes are to be doubted (the share of
 * them replaced by all colours alike), from how well its best class fits
 * (cr_detection_t.colour_fit): none down to LOOK_FIT_SURE, LOOK_DOUBT_MAX
 * at LOOK_FIT_POOR and below, smoothly between. Where no ball's colour
 * fits the pixels well, the classes still name one confidently, and often
 * wrongly: a ball smeared over the cloth in one exposure mixes its colour
 * with the cloth's (a black 8 over red cloth reads maroon, a maroon 7 over
 * blue reads blue), and a reading that gives the right ball's colour next
 * to nothing vetoes the right track. Measured with detect_bench on four
 * 720p30 films (02, 04, 12, 13: 117,000 detections matched to balls), the
 * best class is wrong in 0.4 % of those that fit at -0.5 or better, 4 % of
 * those between -0.5 and -1 (17 % of those moving 30 mm a frame or more),
 * 20 % between -1 and -1.5 (44 % of the fast ones) and 35-45 % below, where
 * it is still given 0.7 on average: right more often than not, so not
 * doubted wholly. */
#define LOOK_FIT_SURE (-0.5)
#define LOOK_FIT_POOR (-1.5)
#define LOOK_DOUBT_MAX 0.5
static double look_doubt(float fit)
{
    double x = clampd((LOOK_FIT_SURE - fit) / (LOOK_FIT_SURE - LOOK_FIT_POOR), 0.0, 1.0);

    return LOOK_DOUBT_MAX * x * x * (3.0 - 2.0 * x);
}

/* Copies usable detections and marks doubles: a detection with a better
 * one closer than R (two balls' centres are never closer than 2R) may
 * still continue a track but never starts one. Returns the count. */
static int prepare_detections(cr_tracker_t *tr, const cr_detection_t *dets, int n)
{
    int m = 0;
    double R = tr->table.ball_radius_mm;

    if (n > CR_VISION_MAX_DETECTIONS)
        n = CR_VISION_MAX_DETECTIONS;
    for (int i = 0; i < n; i++) {
        const int tg = dets[i].hint_tag;

        if (!isfinite(dets[i].x) || !isfinite(dets[i].y))
            continue;
        /* looked for where a ball that stood out from the background was
         * expected, and found on the bare background: no sign of that
         * ball, whose place is bare */
        if (tg >= 1 && tg <= TRK_SLOTS && dets[i].fg_share >= 0.0f && dets[i].fg_share <= CR_VISION_BARE_SHARE &&
            stood_out(&tr->trk[tg - 1])) {
            tr->trk[tg - 1].bare_now = true;
            continue;
        }
        tr->det[m++] = dets[i];
    }
    for (int j = 0; j < m; j++) {
        tr->dup[j] = false;
        for (int i = 0; i < m; i++)
            if (i != j && hypot(tr->det[i].x - tr->det[j].x, tr->det[i].y - tr->det[j].y) < R &&
                (tr->det[i].score > tr->det[j].score || (tr->det[i].score == tr->det[j].score && i < j)))
                tr->dup[j] = true;
    }
    for (int j = 0; j < m; j++) {
        cr_detection_t *d = &tr->det[j];
        double s = 0, u;

        if (!(d->sigma_mm > 0))
            d->sigma_mm = 2.0;
        else if (d->sigma_mm < tr->p.min_sigma_mm)
            d->sigma_mm = tr->p.min_sigma_mm;
        for (int c = 0; c < NCOL; c++)
            s += d->colour_p[c] > 0 ? d->colour_p[c] : 0;
        if (!(s > 0)) {
            /* no colour classes: fold this frame's id probabilities */
            for (int c = 0; c < NCOL; c++)
                d->colour_p[c] = 0;
            for (int k = 0; k < TRK_IDS; k++)
                d->colour_p[id_colour[k]] += d->id_p[k] > 0 ? d->id_p[k] : 0;
            for (int c = 0; c < NCOL; c++)
                s += d->colour_p[c];
            if (!(s > 0)) {
                for (int c = 0; c < NCOL; c++)
                    d->colour_p[c] = 1.0f / NCOL;
                s = 1;
            }
        }
        u = look_doubt(d->colour_fit);
        for (int c = 0; c < NCOL; c++)
            d->colour_p[c] = (float)((1.0 - u) * (d->colour_p[c] > 0 ? d->colour_p[c] : 0) / s + u / NCOL);
    }
    return m;
}

/* Appearance log-likelihood ratio of a detection for a track versus an
 * unknown ball. */
static double appearance_llr(const cr_tracker_t *tr, const trk_t *k, const cr_detection_t *d)
{
    double q[NCOL], s = 0, llr, ps, ls, lo;
    look_t look = look_of(tr, d);

    colour_post(k, tr->p.colour_cap, q);
    for (int c = 0; c < NCOL; c++)
        s += q[c] * d->colour_p[c];
    llr = log(fmax(s * NCOL, 1e-3));
    if ((look == LOOK_STRIPE || look == LOOK_SOLID) && q[CR_COLOUR_WHITE] < 0.5) {
        ps = 1.0 / (1.0 + exp(-stripe_llr(k)));
        if (look == LOOK_STRIPE) {
            ls = 0.7;
            lo = 0.01;
        } else {
            ls = 0.3;
            lo = 0.99;
        }
        llr += log((ps * ls + (1 - ps) * lo) / (0.5 * ls + 0.5 * lo));
    }
    return llr;
}

/* How far from where it rested a ball held hidden at rest may be found at
 * t: a ball struck lately (struck_at()) within the reach its striker's
 * speed gives it since; 0 when it was not. */
static double struck_reach(const cr_tracker_t *tr, const trk_t *k, double t)
{
    const double R = tr->table.ball_radius_mm, since = t - k->t_struck;

    if (k->status != CR_BALL_HIDDEN || k->moving_at_loss || !(since >= 0.0 && since < STRUCK_S))
        return 0.0;
    return fmin(0.5 * R + k->v_struck * since, STRUCK_REACH * R);
}

/* Motion log-likelihood (density, per mm^2) of a detection for a track. */
static double motion_ll(const cr_tracker_t *tr, const trk_t *k, const cr_detection_t *d, double t, bool contact,
                        const double *pc, bool *gated, double *abrupt)
{
    double px, py, dt = t - k->t_state, dseen = t - k->t_seen, dist, s2, rj, R = tr->table.ball_radius_mm;
    double pn, pu, eps = tr->p.collision_share * (contact ? 1.0 : 0.005);

    if (pc) {
        px = pc[0];
        py = pc[1];
    } else {
        predict(tr, k, t, &px, &py);
    }
    dist = hypot(d->x - px, d->y - py);
    s2 = sq(d->sigma_mm) + sq(k->sig_z) + sq(k->sig_v * dt) + sq(hypot(d->blur_dx, d->blur_dy) * 0.5);
    if (k->status == CR_BALL_SEEN || k->state == SLOT_TENT) {
        rj = tr->p.max_speed_mm_s * dseen + 2 * R;
    } else if (k->status == CR_BALL_HIDDEN && k->moving_at_loss) {
        rj = 3 * R + 0.5 * hypot(px - k->x, py - k->y);
    } else if (k->status == CR_BALL_HIDDEN) {
        /* at rest under a hand or arm: where it was, perhaps nudged a little
         * (a ball moved further is found again by its looks: stitch()); or
         * struck and lost: anywhere its striker could send it */
        const double sr = struck_reach(tr, k, t);

        rj = 0.75 * R; /* a neighbour frozen to it is 2R away */
        if (sr > 0.0) {
            rj = sr;
            px = k->zx;
            py = k->zy;
            dist = hypot(d->x - px, d->y - py);
        }
        s2 = sq(d->sigma_mm) + sq(k->sig_z) + sq(0.15 * R);
    } else { /* GONE: only right where it was lost (a jaw shadow) */
        rj = 2 * R;
        px = k->x;
        py = k->y;
        dist = hypot(d->x - px, d->y - py);
        s2 = sq(d->sigma_mm) + sq(k->sig_z) + sq(0.25 * R);
    }
    *gated = dist > rj + 3 * sqrt(s2);
    pn = (1 - eps) * exp(-0.5 * dist * dist / s2) / (2 * CR_PI * s2);
    if (k->status == CR_BALL_SEEN || k->state == SLOT_TENT) {
        /* after a contact: anywhere within reach, shorter jumps likelier
         * (radial exponential, scale a tenth of the reach, at least R) */
        double lam = fmax(R, 0.1 * rj);

        pu = eps * exp(-dist / lam) / (2 * CR_PI * lam * lam);
    } else {
        pu = eps / (CR_PI * rj * rj);
    }
    if (abrupt)
        *abrupt = pu / (pn + pu + 1e-300);
    return log(pn + pu);
}

/* A track whose course is known well enough to predict it on (seen, or
 * lost while rolling) and one that stands in such a course's way (seen, or
 * held at rest unseen: a resting ball unseen is still there). */
static bool course_known(const trk_t *k)
{
    return k->status == CR_BALL_SEEN || (k->status == CR_BALL_HIDDEN && k->moving_at_loss);
}

static bool in_the_way(const trk_t *k)
{
    return k->status == CR_BALL_SEEN || (k->status == CR_BALL_HIDDEN && !k->moving_at_loss);
}

/* Can track rows[i]'s motion change abruptly between its last state and t?
 * Only at a contact: its path passes a cushion, or passes within 2R (plus
 * the uncertainty of both paths) of another ball's path. pc[2i], pc[2i+1]
 * get the predicted position, stopped where the path first meets another
 * ball (a ball does not run through another). touch[i]: the path itself passes
 * a cushion or a ball (out[i] is also set for a track not seen last frame or
 * seen once, whose path is not known well enough to say). */
static void contacts(cr_tracker_t *tr, const int *rows, int nt, double t, bool *out, bool *by_ball, bool *touch,
                     double *pc)
{
    double R = tr->table.ball_radius_mm, L = tr->table.length_mm, W = tr->table.width_mm;
    double x0[TRK_LIVE], y0[TRK_LIVE], x1[TRK_LIVE], y1[TRK_LIVE], u[TRK_LIVE];

    for (int i = 0; i < nt; i++) {
        const trk_t *k = &tr->trk[rows[i]];

        x0[i] = k->x;
        y0[i] = k->y;
        predict(tr, k, t, &x1[i], &y1[i]);
        u[i] = fmin(100.0, k->sig_v * fmax(t - k->t_state, 0.0) + 3.0 * k->sig_z) + 10.0;
        out[i] = k->hits < 2 || k->status != CR_BALL_SEEN;
        by_ball[i] = false;
        touch[i] = false;
        pc[2 * i] = x1[i];
        pc[2 * i + 1] = y1[i];
    }
    for (int i = 0; i < nt; i++) {
        double first = 1.0;
        const trk_t *k = &tr->trk[rows[i]];

        if (!course_known(k) || k->hits < 2)
            continue;
        for (int j = 0; j < nt; j++) {
            double ax, ay, bx, by, aa, ab, bb, disc, tau;

            if (j == i || !in_the_way(&tr->trk[rows[j]]))
                continue;
            ax = x0[i] - x0[j];
            ay = y0[i] - y0[j];
            bx = (x1[i] - x0[i]) - (x1[j] - x0[j]);
            by = (y1[i] - y0[i]) - (y1[j] - y0[j]);
            aa = ax * ax + ay * ay - 4 * R * R;
            ab = ax * bx + ay * by;
            bb = bx * bx + by * by;
            if (aa <= 0 || bb <= 0 || ab >= 0)
                continue; /* touching already, no relative motion, or moving apart */
            disc = ab * ab - bb * aa;
            if (disc < 0)
                continue;
            tau = (-ab - sqrt(disc)) / bb;
            if (tau >= 0 && tau < first)
                first = tau;
        }
        pc[2 * i] = x0[i] + first * (x1[i] - x0[i]);
        pc[2 * i + 1] = y0[i] + first * (y1[i] - y0[i]);
    }
    for (int i = 0; i < nt; i++) {
        double m = R + u[i];

        if (fmin(x0[i], x1[i]) < m || fmax(x0[i], x1[i]) > L - m || fmin(y0[i], y1[i]) < m ||
            fmax(y0[i], y1[i]) > W - m)
            out[i] = touch[i] = true;
        for (int j = 0; j < nt; j++) {
            double ax, ay, bx, by, bb, tau, dmin;

            if (j == i)
                continue;
            ax = x0[i] - x0[j];
            ay = y0[i] - y0[j];
            bx = (x1[i] - x0[i]) - (x1[j] - x0[j]);
            by = (y1[i] - y0[i]) - (y1[j] - y0[j]);
            bb = bx * bx + by * by;
            tau = bb > 0 ? clampd(-(ax * bx + ay * by) / bb, 0.0, 1.0) : 0.0;
            dmin = hypot(ax + tau * bx, ay + tau * by);
            if (dmin < 2 * R + u[i] + u[j]) {
                out[i] = touch[i] = true;
                by_ball[i] = true;
                break;
            }
        }
    }
}

/* ------------------------------------------------------------- tracks */

static int slot_new(cr_tracker_t *tr)
{
    for (int s = 0; s < TRK_SLOTS; s++)
        if (tr->trk[s].state == SLOT_FREE)
            return s;
    return -1;
}

static int count_live(const cr_tracker_t *tr)
{
    int n = 0;

    for (int s = 0; s < TRK_SLOTS; s++)
        if (tr->trk[s].state == SLOT_TENT || tr->trk[s].state == SLOT_LIVE)
            n++;
    return n;
}

/* Frames of one view (the ball has not rolled by a radius since) repeat
 * the same face under the same light: more of them average the sensor noise
 * but are not more proof. A view counts at most params.view_frames frames of
 * colour evidence and VIEW_LOOK_FRAMES frames of pattern evidence (its mean
 * per frame times that): a stripe showing its band at rest for a minute is
 * one sighting, not 1800. */
#define VIEW_LOOK_FRAMES 3.0
/* A sharp detection whose colour fits no ball's (CR_VISION_COLOUR_OFF) is
 * none of the balls; a track seen so in at least half of its recent sharp
 * frames (a running mean over about OFF_FRAMES) is no ball's (ball_like()).
 * Recent ones: a ball's fit is poor while it is struck among others, and
 * fine once it rests. */
#define OFF_FRAMES 10.0
/* How far such a track, gone off while at rest surely named, may be seen
 * from where it went off and still be that ball (off_held()). */
#define OFF_HOLD_MM 10.0

/* Whether evidence e fits a ball's colour: in more than half of its recent
 * sharp frames, or too few seen to tell. */
static bool colour_fits(const ev_t *e)
{
    return e->n_fit < 3.0 || e->off_avg < 0.5;
}
/* A track seen in at least this many frames whose looks still favour no
 * ball over any other is vague (assign_ids()): a hand, an arm, a ghost. */
#define VAGUE_HITS 10
/* Share of a stripe's frames that show mostly white (seen near a pole),
 * for its colour likelihood. */
#define STRIPE_WHITE_SHARE 0.3

/* Adds (sign +1) or removes (-1) the weighted contribution of the present
 * view to the track's evidence. */
static void view_apply(trk_t *k, double sign, double view_frames)
{
    double f;

    if (k->vw_n <= 0)
        return;
    f = sign * fmin(1.0, view_frames / k->vw_n);
    for (int c = 0; c < NCOL; c++) {
        k->ev.lc[c] += f * k->vw.lc[c];
        k->ev.ls[c] += f * k->vw.ls[c];
    }
    k->ev.wc += f * k->vw.wc;
    f = sign * fmin(1.0, VIEW_LOOK_FRAMES / k->vw_n);
    k->ev.n_stripe += f * k->vw.n_stripe;
    k->ev.n_solid += f * k->vw.n_solid;
    k->ev.n_white += f * k->vw.n_white;
}

/* moved: mm since the track's last detection; step: mm per frame interval
 * (its speed times the time since the previous frame), which bounds the
 * motion streak when the detector reports none: within one exposure a
 * fast ball smears its number spot into a band that looks like a stripe. */
static void add_evidence(cr_tracker_t *tr, trk_t *k, const cr_detection_t *d, double moved, double step)
{
    double R = tr->table.ball_radius_mm;
    double streak = fmax(2.0 * hypot(d->blur_dx, d->blur_dy), step);
    bool blurred = d->blur_dx != 0 || d->blur_dy != 0 || streak > R;
    double w = tr->p.colour_weight * (blurred ? 0.5 : 1.0);
    look_t look;

    /* a new view once the ball has rolled by a radius (about a radian): the
     * last one's contribution stays; else this frame joins the present one,
     * whose contribution is taken out and put back with it */
    if (k->vw_n == 0 || hypot(d->x - k->vw_x, d->y - k->vw_y) >= R) {
        memset(&k->vw, 0, sizeof(k->vw));
        k->vw_n = 0;
        k->vw_x = d->x;
        k->vw_y = d->y;
    } else {
        view_apply(k, -1.0, tr->p.view_frames);
    }
    k->vw_n++;
    for (int c = 0; c < NCOL; c++) {
        k->vw.lc[c] += w * log(d->colour_p[c] + 0.01);
        k->vw.ls[c] += w * log(d->colour_p[c] + STRIPE_WHITE_SHARE * d->colour_p[CR_COLOUR_WHITE] + 0.01);
    }
    k->vw.wc += w;
    /* a streak mixes the faces; and a number spot (about a third of the
     * ball across) smeared by half a radius already reads as a band: a
     * solid 4 rolling at 0.8 R a frame showed a stripe in 10 frames and
     * was taken for the 12. Seeing a stripe is near-proof, so it counts
     * only from frames sharper than that */
    if (!(streak > R)) {
        const bool was_like = colour_fits(&k->ev);

        k->ev.n_fit += 1;
        k->ev.off_avg += ((d->colour_fit < CR_VISION_COLOUR_OFF) - k->ev.off_avg) / fmin(k->ev.n_fit, OFF_FRAMES);
        if (k->ev.off_avg < 0.5) {
            k->off_named = false;
        } else if (was_like && k->ev.n_fit >= 3.0) {
            /* off now: held while it stays, if it rests surely named */
            k->off_named = k->id >= 0 && k->margin >= tr->p.id_margin && moved < 0.5 * OFF_HOLD_MM;
            k->off_x = d->x;
            k->off_y = d->y;
        }
        look = look_of(tr, d);
        if (look == LOOK_CUE) {
            k->vw.n_white += 1;
            if (k->ev.q_white < 1.0)
                k->ev.q_white = 1.0;
            else if (moved > 3.0 * d->sigma_mm)
                k->ev.q_white += fmin(1.0, moved / R);
        } else if (look == LOOK_STRIPE && !(streak > 0.5 * R)) {
            k->vw.n_stripe += 1;
        } else if (look == LOOK_SOLID) {
            k->vw.n_solid += 1;
            if (k->ev.n_solid + k->vw.n_solid <= 1)
                k->ev.q_solid = 1.0; /* the first view: a stripe shows its band on top ~1 time in 4 */
            else if (moved > 3.0 * d->sigma_mm)
                k->ev.q_seg = fmin(1.0, k->ev.q_seg + moved / (8 * R)); /* only rolling shows new faces, and a
                                                                         * straight roll about one axis only one more */
        }
    }
    view_apply(k, 1.0, tr->p.view_frames);
}

/* The rack slot (index into p.rack_x/y) a ball at (x, y) sits on, or -1. */
static int rack_slot(const cr_tracker_t *tr, double x, double y)
{
    for (int r = 0; r < tr->p.n_rack; r++)
        if (hypot(x - tr->p.rack_x[r], y - tr->p.rack_y[r]) <= 0.5 * tr->table.ball_radius_mm)
            return r;
    return -1;
}

static void track_start(cr_tracker_t *tr, int s, const cr_detection_t *d, double t)
{
    trk_t *k = &tr->trk[s];

    memset(k, 0, sizeof(*k));
    k->state = SLOT_TENT;
    k->number = -1;
    k->status = CR_BALL_SEEN;
    k->hits = 1;
    k->born = tr->pushed;
    k->last_seen = tr->pushed;
    k->last_ref = tr->pushed;
    k->t_seen = t;
    k->t_state = t;
    k->x = k->zx = k->bx = d->x;
    k->y = k->zy = k->by = d->y;
    k->rack = rack_slot(tr, d->x, d->y);
    k->sig_z = d->sigma_mm;
    k->sig_v = tr->p.max_speed_mm_s * 0.5;
    k->id = -1;
    k->t_struck = -INFINITY;
    if (d->fg_share >= 0.0f) {
        k->fg_sum = k->fg_recent = d->fg_share;
        k->fg_n = 1;
        k->t_fg = t;
    }
    add_evidence(tr, k, d, 0, 0);
}

/* touch: its path since its last state passes a cushion or another ball
 * (contacts()). */
static void track_update(cr_tracker_t *tr, trk_t *k, const cr_detection_t *d, double t, bool touch)
{
    double px, py, dt = t - k->t_state, dts = t - k->t_seen, ix, iy, s2, moved, in2;
    bool consecutive = k->last_seen + 1 == tr->pushed, jump, free_roll, loose;
    double sig_z = d->sigma_mm;

    k->seen_prev = consecutive;
    if (k->rack >= 0 && hypot(d->x - k->bx, d->y - k->by) > 0.5 * tr->table.ball_radius_mm)
        k->rack = -1;

    predict(tr, k, t, &px, &py);
    ix = d->x - px;
    iy = d->y - py;
    in2 = ix * ix + iy * iy;
    s2 = sq(d->sigma_mm) + sq(k->sig_z) + sq(k->sig_v * dt);
    jump = in2 > 9.0 * s2;
    moved = hypot(d->x - k->zx, d->y - k->zy);
    /* rolling freely: moving when last seen (a little while ago), and
     * nothing on its path it could have touched. Only a contact changes a
     * rolling ball's velocity at once (the cue's is not seen: a ball at
     * rest restarts), so a sighting far off its path is the fit's error (a
     * ball of the cloth's colour whose outline barely shows, glare) and a
     * step over a gap is weighed against the velocity it had, not taken
     * alone (one step of a fit 10 mm off is 600 mm/s at 60 fps). Twice far
     * off in a row, it did change (a hand, a ball not tracked): restart. */
    free_roll = !touch && k->hits > 2 && hypot(k->vx, k->vy) >= 50.0 && dts < 0.2 && !(jump && k->surprise);
    k->surprise = free_roll && jump;
    /* a sighting far less sure than the track (a faint outline's fit, its
     * sigma widened by the detector where the ball's highlights showed it
     * off: cr_detect.c) is weighed by its variance too, not taken at a
     * fixed gain (one such fit would bend the path by its bias), and the
     * place it gives the frame is the update's */
    loose = free_roll && d->sigma_mm > 3.0 * fmax(k->sig_z, tr->p.min_sigma_mm);
    if (free_roll && (jump || !consecutive || loose)) {
        /* the sighting's variance, widened so that it lies within 3 sigma */
        double r2 = sq(d->sigma_mm) + fmax(0.0, in2 / 9.0 - s2), p2 = sq(k->sig_z) + sq(k->sig_v * dt);
        double g = p2 / (p2 + r2), gv = sq(k->sig_v * dt) / (p2 + r2);

        k->x = px + g * ix;
        k->y = py + g * iy;
        if (dt > 0) {
            k->vx += gv * ix / dt;
            k->vy += gv * iy / dt;
        }
        k->sig_v = fmax(100.0, k->sig_v * sqrt(1.0 - gv));
        if (loose) /* its place is the update's, as sure as that made it */
            sig_z = sqrt(p2 * r2 / (p2 + r2));
    } else if (k->hits == 1 || jump || !consecutive) {
        /* second sighting, a contact, or after a gap: restart from the raw step;
         * after a contact the ball rolls about a new axis: its view of the
         * stripe counts apart */
        if (k->hits > 1 && jump) {
            k->ev.q_solid += k->ev.q_seg;
            k->ev.q_seg = 0;
        }
        const bool from_rest = k->hits > 1 && hypot(k->vx, k->vy) < 50.0;

        k->vx = dts > 0 ? (d->x - k->zx) / dts : 0;
        k->vy = dts > 0 ? (d->y - k->zy) / dts : 0;
        k->x = d->x;
        k->y = d->y;
        k->sig_v = dts > 0 ? 2.0 * d->sigma_mm / dts + 100.0 : tr->p.max_speed_mm_s;
        /* a ball that was at rest started at some unknown moment of the
         * interval (a stroke's impulse is not seen): its first step gives
         * only a lower bound of its speed */
        if (from_rest)
            k->sig_v = fmax(k->sig_v, 0.5 * tr->p.max_speed_mm_s);
    } else {
        const double a = 0.6, b = 0.3;

        k->x = px + a * ix;
        k->y = py + a * iy;
        if (dt > 0) {
            k->vx += b * ix / dt;
            k->vy += b * iy / dt;
        }
        k->sig_v = fmax(100.0, 0.8 * k->sig_v);
    }
    k->t_state = t;
    k->t_seen = t;
    k->zx = loose ? k->x : d->x;
    k->zy = loose ? k->y : d->y;
    k->sig_z = sig_z;
    k->hits++;
    k->miss_run = 0;
    k->bare_run = 0;
    if (d->fg_share >= 0.0f) {
        k->fg_sum += d->fg_share;
        if (k->fg_n > 0)
            k->fg_recent += (1.0 - exp(-(t - k->t_fg) / BARE_RECENT_S)) * (d->fg_share - k->fg_recent);
        else
            k->fg_recent = d->fg_share;
        k->fg_n++;
        k->t_fg = t;
    }
    k->last_seen = tr->pushed;
    add_evidence(tr, k, d, moved,
                 dts > 0 && tr->pushed > 0 && t > tr->t_last ? moved / dts * (t - tr->t_last) : 0.0);
    if (k->state == SLOT_TENT && k->hits >= tr->p.confirm_hits) {
        k->state = SLOT_LIVE;
        k->number = tr->next_number++;
    }
}

/* A ball lost as it rolled is surely pocketed only if its path from where
 * it was last seen runs into a pocket's mouth within this many mm: its
 * direction, known to a few degrees, puts it within half a corner mouth of
 * its true path that far. */
#define UNSEEN_SURE_MM 400.0

/* Is a centre at (x, y) moving along (vx, vy) through a pocket's mouth
 * (within a mouth width plus R of the pocket point), or does its straight
 * path cross one within max_mm, between its jaw points or within R of one
 * (the ball strikes the jaw: it may drop)? */
static bool path_through_mouth(const cr_tracker_t *tr, double x, double y, double vx, double vy, double max_mm)
{
    double R = tr->table.ball_radius_mm, sp = hypot(vx, vy);
    int near = near_pocket(tr, x, y);

    if (near >= 0 && cr_table_past_mouth(&tr->table, (cr_pocket_t)near, x, y))
        return true; /* already through it */
    if (!(sp > 0.0))
        return false;
    for (int pk = 0; pk < CR_POCKET_COUNT; pk++) {
        cr_point_t a, b;
        double ex, ey, den, s, u, ext;

        if (cr_table_pocket_mouth(&tr->table, (cr_pocket_t)pk, &a, &b) != CR_OK)
            continue;
        ex = b.x - a.x;
        ey = b.y - a.y;
        ext = R / hypot(ex, ey);
        /* (x, y) + s (vx, vy) = a + u (b - a), s >= 0, 0 <= u <= 1 */
        den = vx * ey - vy * ex;
        if (fabs(den) < 1e-9)
            continue;
        s = ((a.x - x) * ey - (a.y - y) * ex) / den;
        u = ((a.x - x) * vy - (a.y - y) * vx) / den;
        if (s >= 0.0 && s * sp <= max_mm && u >= -ext && u <= 1.0 + ext)
            return true;
    }
    return false;
}

/* Is a ball that just vanished at (x, y) with velocity (vx, vy) running into
 * a pocket? It is within a mouth width plus R of the pocket point and either
 * over the hole (centre past the cushion nose lines) or heading at the pocket
 * point or out through the mouth (within 60 degrees). When it is, *through
 * (if given) tells whether it was over the hole or moving out through the
 * mouth (its velocity has a part along the pocket's outward direction): a
 * ball just off the cushion beside a side pocket, rolling back onto the
 * bed, heads near the pocket but cannot drop; lost there it may be GONE for
 * the moment, not surely pocketed. */
static bool into_pocket(const cr_tracker_t *tr, double x, double y, double vx, double vy, bool *through)
{
    double R = tr->table.ball_radius_mm, sp = hypot(vx, vy), L = tr->table.length_mm, W = tr->table.width_mm;

    for (int pk = 0; pk < CR_POCKET_COUNT; pk++) {
        cr_point_t P = cr_table_pocket_point(&tr->table, (cr_pocket_t)pk);
        bool side = cr_pocket_is_side((cr_pocket_t)pk), in = false;
        double mouth = cr_table_mouth_width(&tr->table, (cr_pocket_t)pk);
        double dx = P.x - x, dy = P.y - y, dist = hypot(dx, dy), nx, ny, out;

        if (dist > mouth + R)
            continue;
        /* the pocket's outward direction, and the velocity's part along it */
        nx = side ? 0.0 : (P.x > 0 ? 1.0 : -1.0);
        ny = P.y > 0 ? 1.0 : -1.0;
        out = vx * nx + vy * ny;
        if (dist < 0.8 * R || x < 0 || y < 0 || x > L || y > W) {
            if (through)
                *through = true; /* already over the hole */
            return true;
        }
        if (sp < 50.0)
            continue;
        in = (vx * dx + vy * dy) > 0.5 * sp * dist || out > 0.5 * sp * hypot(nx, ny);
        if (in) {
            if (through)
                *through = out > 0.0;
            return true;
        }
    }
    return false;
}

/* The frame entries of a track: rewrites GONE entries to HIDDEN (the ball was
 * only in a jaw shadow). */
static void ungone(cr_tracker_t *tr, int s)
{
    for (uint64_t f = tr->next_pop; f < tr->pushed; f++) {
        fr_t *fr = frame_at(tr, f);

        for (int i = 0; i < fr->n; i++)
            if (fr->e[i].slot == s && fr->e[i].status == CR_BALL_GONE)
                fr->e[i].status = CR_BALL_HIDDEN;
    }
}

/* Continues hidden track h with new track n: n's entries become h's (h's own
 * entries in those frames are dropped), n's evidence is added to h's. */
static void merge_into(cr_tracker_t *tr, int h, int n)
{
    trk_t *H = &tr->trk[h], *N = &tr->trk[n];

    for (uint64_t f = tr->first; f < tr->pushed; f++) {
        fr_t *fr = frame_at(tr, f);
        int has_n = -1, has_h = -1;

        for (int i = 0; i < fr->n; i++) {
            if (fr->e[i].slot == n)
                has_n = i;
            else if (fr->e[i].slot == h)
                has_h = i;
        }
        if (has_n < 0)
            continue;
        fr->e[has_n].slot = (int16_t)h;
        if (has_h >= 0)
            fr->e[has_h] = fr->e[--fr->n];
    }
    for (int c = 0; c < NCOL; c++) {
        H->ev.lc[c] += N->ev.lc[c];
        H->ev.ls[c] += N->ev.ls[c];
    }
    H->ev.wc += N->ev.wc;
    H->vw = N->vw; /* its contribution came with N's evidence */
    H->vw_n = N->vw_n;
    H->vw_x = N->vw_x;
    H->vw_y = N->vw_y;
    H->ev.n_stripe += N->ev.n_stripe;
    H->ev.q_solid += N->ev.q_solid + H->ev.q_seg;
    H->ev.q_seg = N->ev.q_seg;
    H->ev.n_white += N->ev.n_white;
    H->ev.q_white += N->ev.q_white;
    H->ev.n_solid += N->ev.n_solid;
    {
        /* the running mean over about the last OFF_FRAMES sharp frames:
         * N's (the newest), then as many of H's as are left */
        const double wn = fmin(N->ev.n_fit, OFF_FRAMES), wh = fmin(H->ev.n_fit, OFF_FRAMES - wn);

        if (wn + wh > 0)
            H->ev.off_avg = (wn * N->ev.off_avg + wh * H->ev.off_avg) / (wn + wh);
    }
    H->ev.n_fit += N->ev.n_fit;
    H->snap_on = false;
    H->status = N->status;
    H->hits += N->hits;
    H->miss_run = N->miss_run;
    H->last_seen = N->last_seen;
    H->last_ref = N->last_ref > H->last_ref ? N->last_ref : H->last_ref;
    H->t_seen = N->t_seen;
    if (N->fg_n > 0) { /* its newest looks are N's */
        H->fg_recent = N->fg_recent;
        H->t_fg = N->t_fg;
    }
    H->zx = N->zx;
    H->zy = N->zy;
    H->x = N->x;
    H->y = N->y;
    H->vx = N->vx;
    H->vy = N->vy;
    H->t_state = N->t_state;
    H->sig_v = N->sig_v;
    H->sig_z = N->sig_z;
    H->moving_at_loss = false;
    if (H->state == SLOT_DEAD)
        H->state = SLOT_LIVE;
    memset(N, 0, sizeof(*N));
    N->state = SLOT_FREE;
}

static double evidence_agreement(const trk_t *a, const trk_t *b, double cap);

/* A hidden track where a ball is seen now cannot be there (two balls never
 * overlap): the seen ball is the same one picked up by a new track (merge,
 * when that track is not published yet and its looks agree), or the hidden
 * ball was moved away unseen (its track ends). */
static void resolve_overlaps(cr_tracker_t *tr, double t_s)
{
    double R = tr->table.ball_radius_mm;

    for (int h = 0; h < TRK_SLOTS; h++) {
        trk_t *H = &tr->trk[h];
        double px, py;

        if (H->state != SLOT_LIVE || H->status != CR_BALL_HIDDEN)
            continue;
        if (H->moving_at_loss)
            predict(tr, H, t_s, &px, &py);
        else {
            px = H->zx;
            py = H->zy;
        }
        for (int s = 0; s < TRK_SLOTS; s++) {
            trk_t *S = &tr->trk[s];

            if (s == h || (S->state != SLOT_TENT && S->state != SLOT_LIVE) || S->last_seen != tr->pushed ||
                hypot(S->zx - px, S->zy - py) >= 1.5 * R)
                continue;
            if (S->born > H->last_seen && S->born >= tr->next_pop &&
                evidence_agreement(H, S, tr->p.colour_cap) > -1.0) {
                bool tent = S->state == SLOT_TENT;

                merge_into(tr, h, s);
                if (tent && H->hits < tr->p.confirm_hits)
                    H->hits = tr->p.confirm_hits;
                break;
            }
            if (S->state == SLOT_LIVE && S->seen_prev) {
                /* a ball followed without a break rolled over the place:
                 * the hidden one is not there (in a pocket mouth: knocked in) */
                if (near_pocket(tr, H->zx, H->zy) >= 0) {
                    H->status = CR_BALL_GONE;
                    H->vx = H->vy = 0;
                } else {
                    H->state = SLOT_DEAD;
                }
                break;
            }
        }
    }
}

/* Evidence gathered between b (earlier) and a (later). */
static void ev_sub(const ev_t *a, const ev_t *b, ev_t *out)
{
    for (int c = 0; c < NCOL; c++) {
        out->lc[c] = a->lc[c] - b->lc[c];
        out->ls[c] = a->ls[c] - b->ls[c];
    }
    out->wc = a->wc - b->wc;
    out->n_stripe = a->n_stripe - b->n_stripe;
    out->n_solid = a->n_solid - b->n_solid;
    out->q_solid = a->q_solid - b->q_solid;
    out->q_seg = a->q_seg - b->q_seg;
    out->n_white = a->n_white - b->n_white;
    out->q_white = a->q_white - b->q_white;
}

static void ev_add(const ev_t *a, const ev_t *b, ev_t *out)
{
    for (int c = 0; c < NCOL; c++) {
        out->lc[c] = a->lc[c] + b->lc[c];
        out->ls[c] = a->ls[c] + b->ls[c];
    }
    out->wc = a->wc + b->wc;
    out->n_stripe = a->n_stripe + b->n_stripe;
    out->n_solid = a->n_solid + b->n_solid;
    out->q_solid = a->q_solid + b->q_solid;
    out->q_seg = a->q_seg + b->q_seg;
    out->n_white = a->n_white + b->n_white;
    out->q_white = a->q_white + b->q_white;
}

/* Log-likelihood (nats) of the evidence of a stretch of track, seg, for a
 * ball whose earlier evidence is pre: one colour class for the whole
 * stretch, drawn from pre's colour posterior; the stripe seen or not. */
static double seg_ll(const ev_t *pre, const ev_t *seg, double cap)
{
    double q[NCOL], mx = -DBL_MAX, s = 0, ps, l;

    colour_post_ev(pre, cap, q);
    for (int c = 0; c < NCOL; c++)
        mx = fmax(mx, seg->lc[c]);
    for (int c = 0; c < NCOL; c++)
        s += q[c] * exp(seg->lc[c] - mx);
    l = mx + log(fmax(s, 1e-300));
    /* the stripe: one observation per stretch (whether it showed at all;
     * how often depends on the roll, not on the ball) */
    ps = 1.0 / (1.0 + exp(-stripe_llr_ev(pre)));
    if (seg->n_stripe >= 2)
        l += log(ps * 0.95 + (1 - ps) * 0.02);
    else if (seg->n_solid >= 2)
        l += log(ps * 0.5 + (1 - ps) * 0.98);
    /* the cue ball's white: likewise one observation per stretch */
    if (seg->n_white >= 2 && seg->n_white >= seg->n_stripe + seg->n_solid)
        l += log(q[CR_COLOUR_WHITE] * 0.95 + (1 - q[CR_COLOUR_WHITE]) * 0.02);
    else if (seg->n_stripe + seg->n_solid >= 2 && seg->n_white == 0)
        l += log(q[CR_COLOUR_WHITE] * 0.05 + (1 - q[CR_COLOUR_WHITE]) * 0.98);
    return l;
}

/* Exchanges everything tracks a and b did from frame f on (f not published):
 * their frame entries and their present state; each keeps its number and
 * its evidence from before f, plus the other's since. */
static void swap_tails(cr_tracker_t *tr, int a, int b, uint64_t f)
{
    trk_t *A = &tr->trk[a], *B = &tr->trk[b], tmp;
    ev_t da, db, ea, eb;
    int na = A->number, nb = B->number;
    uint64_t ba = A->born, bb = B->born;

    ev_sub(&A->ev, &A->snap, &da);
    ev_sub(&B->ev, &B->snap, &db);
    ev_add(&A->snap, &db, &ea);
    ev_add(&B->snap, &da, &eb);
    for (uint64_t g = f; g < tr->pushed; g++) {
        fr_t *fr = frame_at(tr, g);

        for (int i = 0; i < fr->n; i++) {
            if (fr->e[i].slot == a)
                fr->e[i].slot = (int16_t)b;
            else if (fr->e[i].slot == b)
                fr->e[i].slot = (int16_t)a;
        }
    }
    tmp = *A;
    *A = *B;
    *B = tmp;
    A->number = na;
    B->number = nb;
    A->born = ba;
    B->born = bb;
    A->ev = ea;
    B->ev = eb;
    A->state = na >= 0 ? SLOT_LIVE : SLOT_TENT;
    B->state = nb >= 0 ? SLOT_LIVE : SLOT_TENT;
    A->last_ref = B->last_ref = tr->pushed;
    A->snap_on = B->snap_on = false;
}

/* Track a took another ball at its last abrupt change (the ball it followed
 * was lost there): from that frame on (not published) its detections become
 * a new track, and a stays hidden where it was; stitch() may then join each
 * piece to the track its looks belong to. */
static void split_tail(cr_tracker_t *tr, int a)
{
    trk_t *A = &tr->trk[a], *N;
    int n = slot_new(tr);
    uint64_t f = A->snap_frame;
    const fr_t *prev;

    if (n < 0 || f < tr->next_pop + 1 || f <= tr->first)
        return;
    N = &tr->trk[n];
    *N = *A;
    ev_sub(&A->ev, &A->snap, &N->ev);
    N->number = tr->next_number++;
    N->born = f;
    N->snap_on = false;
    N->hits = (int)(tr->pushed - f);
    prev = frame_at(tr, f - 1);
    A->ev = A->snap;
    A->vw_n = 0; /* its view went with the tail */
    A->snap_on = false;
    A->status = CR_BALL_HIDDEN;
    A->moving_at_loss = false;
    A->zx = A->x = A->snap_x;
    A->zy = A->y = A->snap_y;
    A->vx = A->vy = 0;
    A->last_seen = f - 1;
    A->t_seen = A->t_state = prev->t;
    A->last_ref = tr->pushed - 1;
    for (uint64_t g = f; g < tr->pushed; g++) {
        fr_t *fr = frame_at(tr, g);

        for (int i = 0; i < fr->n; i++)
            if (fr->e[i].slot == a)
                fr->e[i].slot = (int16_t)n;
        if (fr->n < TRK_LIVE) {
            ent_t *e = &fr->e[fr->n++];

            memset(e, 0, sizeof(*e));
            e->slot = (int16_t)a;
            e->status = CR_BALL_HIDDEN;
            e->x = (float)A->zx;
            e->y = (float)A->zy;
            e->sigma = (float)(A->sig_z + 5.0);
        }
    }
}

/* Index of slot s's seen entry in frame fr, or -1. */
static int seen_entry(const fr_t *fr, int s)
{
    for (int i = 0; i < fr->n; i++)
        if (fr->e[i].slot == s && fr->e[i].seen)
            return i;
    return -1;
}

/* A straight path p + v (t - t0) through slot s's sightings in frames
 * [g0, g1) of the ring, the first (from_end false) or last (true) up to 3
 * of them: the least-squares line (a rolling ball's deceleration is
 * nothing over three frames). false with fewer than two. */
static bool fit_path(cr_tracker_t *tr, int s, uint64_t g0, uint64_t g1, bool from_end, double t0, double p[2],
                     double v[2])
{
    double ts[3], xs[3], ys[3], tm = 0, xm = 0, ym = 0, stt = 0, stx = 0, sty = 0;
    int n = 0;

    if (g0 < tr->first)
        g0 = tr->first;
    if (g1 > tr->pushed)
        g1 = tr->pushed;
    if (g0 >= g1)
        return false;
    for (uint64_t k = 0; n < 3 && k < g1 - g0; k++) {
        const fr_t *fr = frame_at(tr, from_end ? g1 - 1 - k : g0 + k);
        int i = seen_entry(fr, s);

        if (i < 0)
            continue;
        ts[n] = fr->t - t0;
        xs[n] = fr->e[i].x;
        ys[n] = fr->e[i].y;
        n++;
    }
    if (n < 2)
        return false;
    for (int i = 0; i < n; i++) {
        tm += ts[i] / n;
        xm += xs[i] / n;
        ym += ys[i] / n;
    }
    for (int i = 0; i < n; i++) {
        stt += (ts[i] - tm) * (ts[i] - tm);
        stx += (ts[i] - tm) * (xs[i] - xm);
        sty += (ts[i] - tm) * (ys[i] - ym);
    }
    if (!(stt > 0))
        return false;
    v[0] = stx / stt;
    v[1] = sty / stt;
    p[0] = xm - v[0] * tm;
    p[1] = ym - v[1] * tm;
    return true;
}

/* The gap between where a ball's path before (p, v) and its path after
 * (q, w) put it, at the one moment between t0 = 0 and t1 where both balls'
 * gaps are smallest together: the smallest, over that interval, of the
 * larger of the two (mm). */
static double paths_gap(const double pa[2], const double va[2], const double qa[2], const double wa[2],
                        const double pb[2], const double vb[2], const double qb[2], const double wb[2], double t1)
{
    double best = INFINITY;

    for (int k = 0; k <= 8; k++) {
        const double u = t1 * k / 8.0;
        const double ga = hypot(pa[0] + va[0] * u - qa[0] - wa[0] * u, pa[1] + va[1] * u - qa[1] - wa[1] * u);
        const double gb = hypot(pb[0] + vb[0] * u - qb[0] - wb[0] * u, pb[1] + vb[1] * u - qb[1] - wb[1] * u);

        best = fmin(best, fmax(ga, gb));
    }
    return best;
}

/* Whether the tracks a and b, as they are, carry each ball's path on
 * through their abrupt changes (from frame f1 on; paths before up to frame
 * f0) within R / 2 while exchanged tails would make both jump (over R): a
 * ball's centre does not jump at a contact, only its velocity turns, so
 * they are no swap, whatever the looks say (a cue ball and a stripe showing
 * its white, both blurred, look alike for the few frames the looks are
 * weighed over). Not when a path has fewer than two sightings. */
static bool paths_forbid_swap(cr_tracker_t *tr, int a, int b)
{
    const trk_t *A = &tr->trk[a], *B = &tr->trk[b];
    const uint64_t f0 = A->snap_frame < B->snap_frame ? A->snap_frame : B->snap_frame;
    const uint64_t f1 = A->snap_frame < B->snap_frame ? B->snap_frame : A->snap_frame;
    const double R = tr->table.ball_radius_mm;
    double pa[2], va[2], pb[2], vb[2], qa[2], wa[2], qb[2], wb[2], t0, t1;
    const uint64_t g0 = f0 >= 3 ? f0 - 3 : 0;

    if (f0 < tr->first + 1 || f1 >= tr->pushed)
        return false;
    t0 = frame_at(tr, f0 - 1)->t;
    t1 = frame_at(tr, f1)->t - t0;
    if (!fit_path(tr, a, g0, f0, true, t0, pa, va) || !fit_path(tr, b, g0, f0, true, t0, pb, vb) ||
        !fit_path(tr, a, f1, tr->pushed, false, t0, qa, wa) || !fit_path(tr, b, f1, tr->pushed, false, t0, qb, wb))
        return false;
    return paths_gap(pa, va, qa, wa, pb, vb, qb, wb, t1) <= 0.5 * R &&
           paths_gap(pa, va, qb, wb, pb, vb, qa, wa, t1) > R;
}

/* Abrupt changes of motion at the same moment (a collision, a break) are
 * where two tracks can swap balls. Once swap_window frames have followed,
 * the looks since are compared with the looks before: when the exchanged
 * tails explain them better by swap_min nats, the tails are exchanged. */
static void repair_swaps(cr_tracker_t *tr)
{
    double R = tr->table.ball_radius_mm, cap = tr->p.colour_cap;
    int window = tr->p.swap_window < tr->p.delay_frames - 1 ? tr->p.swap_window : tr->p.delay_frames - 1;

    for (int a = 0; a < TRK_SLOTS; a++) {
        trk_t *A = &tr->trk[a];
        int best = -1;
        double bg = tr->p.swap_min;
        ev_t da;

        if (!A->snap_on || tr->pushed - A->snap_frame < (uint64_t)window)
            continue;
        A->snap_on = false;
        if (A->snap_frame < tr->next_pop + 1 || (A->state != SLOT_LIVE && A->state != SLOT_TENT))
            continue;
        ev_sub(&A->ev, &A->snap, &da);
        for (int b = 0; b < TRK_SLOTS; b++) {
            trk_t *B = &tr->trk[b];
            ev_t db;
            double gain;
            uint64_t df;

            if (b == a || !B->snap_on || (B->state != SLOT_LIVE && B->state != SLOT_TENT))
                continue;
            df = A->snap_frame > B->snap_frame ? A->snap_frame - B->snap_frame : B->snap_frame - A->snap_frame;
            if (df > 2 || B->snap_frame < tr->next_pop + 1 ||
                hypot(A->snap_x - B->snap_x, A->snap_y - B->snap_y) > 8 * R)
                continue;
            ev_sub(&B->ev, &B->snap, &db);
            gain = seg_ll(&A->snap, &db, cap) + seg_ll(&B->snap, &da, cap) - seg_ll(&A->snap, &da, cap) -
                   seg_ll(&B->snap, &db, cap);
            if (gain > bg && !paths_forbid_swap(tr, a, b)) {
                bg = gain;
                best = b;
            }
        }
        if (best >= 0) {
            trk_t *B = &tr->trk[best];
            uint64_t f = A->snap_frame > B->snap_frame ? A->snap_frame : B->snap_frame;

            swap_tails(tr, a, best, f);
        } else if (A->state == SLOT_LIVE && A->status == CR_BALL_SEEN) {
            /* no partner: does the stretch since contradict the ball before? */
            if (seg_ll(&da, &da, cap) - seg_ll(&A->snap, &da, cap) >= tr->p.swap_min + 1.0)
                split_tail(tr, a);
        }
    }
}

/* One-frame exchanges: at a collision two tracks can take each other's
 * detection for one frame and come back the next. Once the frame after is
 * in, the middle frame of three is checked: when exchanging two tracks'
 * detections there puts both far closer to the middle of their neighbours
 * (a glitch of more than 2R in all), the detections are exchanged. */
static void repair_glitches(cr_tracker_t *tr)
{
    double R = tr->table.ball_radius_mm;
    const fr_t *fa, *fc;
    fr_t *fb;
    int nn = 0, sl[TRK_LIVE], ia[TRK_LIVE], ib[TRK_LIVE], ic[TRK_LIVE];

    if (tr->pushed < 3 || tr->pushed - 2 < tr->next_pop || tr->pushed - 3 < tr->first)
        return;
    fa = frame_at(tr, tr->pushed - 3);
    fb = frame_at(tr, tr->pushed - 2);
    fc = frame_at(tr, tr->pushed - 1);
    for (int i = 0; i < fb->n; i++) {
        int s = fb->e[i].slot, a, c;

        if (!fb->e[i].seen || (a = seen_entry(fa, s)) < 0 || (c = seen_entry(fc, s)) < 0)
            continue;
        sl[nn] = s;
        ia[nn] = a;
        ib[nn] = i;
        ic[nn++] = c;
    }
    for (int iter = 0; iter < 3; iter++) {
        int bi = -1, bj = -1;
        double best = 0;

        for (int i = 0; i < nn; i++) {
            double mxi = 0.5 * (fa->e[ia[i]].x + fc->e[ic[i]].x), myi = 0.5 * (fa->e[ia[i]].y + fc->e[ic[i]].y);

            for (int j = i + 1; j < nn; j++) {
                double mxj = 0.5 * (fa->e[ia[j]].x + fc->e[ic[j]].x), myj = 0.5 * (fa->e[ia[j]].y + fc->e[ic[j]].y);
                const ent_t *ei = &fb->e[ib[i]], *ej = &fb->e[ib[j]];
                double cur = hypot(ei->x - mxi, ei->y - myi) + hypot(ej->x - mxj, ej->y - myj);
                double swp = hypot(ej->x - mxi, ej->y - myi) + hypot(ei->x - mxj, ei->y - myj);

                if (cur > 2 * R && swp < 0.3 * cur && cur - swp > best) {
                    best = cur - swp;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (bi < 0)
            break;
        {
            ent_t *ei = &fb->e[ib[bi]], *ej = &fb->e[ib[bj]], tmp = *ei;
            double dt = fc->t - fb->t;

            ei->x = ej->x;
            ei->y = ej->y;
            ei->sigma = ej->sigma;
            ei->blurred = ej->blurred;
            ej->x = tmp.x;
            ej->y = tmp.y;
            ej->sigma = tmp.sigma;
            ej->blurred = tmp.blurred;
            /* the velocities the tracks restarted from were wrong too */
            for (int q = 0; q < 2; q++) {
                int s = sl[q ? bj : bi];
                const ent_t *e = &fb->e[ib[q ? bj : bi]];
                trk_t *k = &tr->trk[s];

                if (k->last_seen == tr->pushed - 1 && dt > 0) {
                    k->vx = (k->zx - e->x) / dt;
                    k->vy = (k->zy - e->y) / dt;
                }
                if (k->snap_on && k->snap_frame == tr->pushed - 2)
                    k->snap_on = false; /* that abrupt change was the glitch */
            }
        }
    }
}

/* Appearance agreement (nats) of two tracks' accumulated evidence. */
static double evidence_agreement(const trk_t *a, const trk_t *b, double cap)
{
    double qa[NCOL], qb[NCOL], s = 0, pa, pb, wa;

    colour_post(a, cap, qa);
    colour_post(b, cap, qb);
    for (int c = 0; c < NCOL; c++)
        s += qa[c] * qb[c];
    s = log(fmax(s * NCOL, 1e-4));
    if (qa[CR_COLOUR_WHITE] < 0.5 && qb[CR_COLOUR_WHITE] < 0.5) {
        pa = 1.0 / (1.0 + exp(-stripe_llr(a)));
        pb = 1.0 / (1.0 + exp(-stripe_llr(b)));
        wa = pa * pb + (1 - pa) * (1 - pb);
        s += log(fmax(2 * wa, 1e-4));
    }
    return s;
}

/* --------------------------------------------------------------- identity */

/* Log-likelihood of a track's evidence for ball id: its colour (a stripe's
 * frames mix its colour with white), and its pattern, three ways: a stripe
 * seen speaks against a solid and the cue ball, looking solid (a coloured
 * ball with no white band) against a stripe and the cue ball, looking all
 * white against a stripe (white_seen_ev(): it shows so from near a pole)
 * and twice as much against a solid, whose number circle never fills its
 * face (all white only misread: a stripe at its pole, racked beside the
 * solid of its colour, was as likely that solid as its own number, and
 * neither was named while the rack stood: 1080p120 clip 05's 1 and 9). */
static double id_loglik(const trk_t *k, int id, double cap)
{
    double sp = stripe_seen_ev(&k->ev), so = solid_seen_ev(&k->ev), wh = white_seen_ev(&k->ev);

    if (id == 0)
        return colour_ll_ev(&k->ev, CR_COLOUR_WHITE, cap) - sp - so;
    if (id <= 8)
        return colour_ll_ev(&k->ev, id_colour[id], cap) - sp - 2.0 * wh;
    return stripe_colour_ll_ev(&k->ev, id_colour[id], cap) - so - wh;
}

/* A ball surely named, at rest, whose colour readings went off every
 * ball's (a glare, a shadow or a hand beside it, a black ball's rim of
 * mirrored cloth read as orange: 1080p120 clip 05's 8 beside the foot
 * cushion for 1.8 s of a shot) is still that ball while it stays where it
 * was when they did: a hand taken for a ball moves. */
static bool off_held(const trk_t *k)
{
    return k->off_named && hypot(k->zx - k->off_x, k->zy - k->off_y) < OFF_HOLD_MM;
}

/* Do track k's looks fit a ball's colour (colour_fits()), or is it a named
 * ball at rest whose readings went off (off_held())? A hand on the cue's
 * butt is skin, which reads "surely orange" against the other classes but
 * fits the orange ball's saturation no better than two standard
 * deviations. */
static bool ball_like(const trk_t *k)
{
    return colour_fits(&k->ev) || off_held(k);
}

/* The id a track's own evidence points to, and by how many nats it beats
 * the next id of the set (-1 when the set is empty). */
static int own_best(const cr_tracker_t *tr, const trk_t *k, double *margin)
{
    double b1 = -DBL_MAX, b2 = -DBL_MAX;
    int best = -1;

    for (int id = 0; id < TRK_IDS; id++) {
        double l;

        if (!(tr->p.id_set & (1u << id)))
            continue;
        l = id_loglik(k, id, tr->p.colour_cap);
        if (l > b1) {
            b2 = b1;
            b1 = l;
            best = id;
        } else if (l > b2) {
            b2 = l;
        }
    }
    *margin = b2 > -DBL_MAX ? b1 - b2 : 0;
    return best;
}

/* The hidden track (or -1) a new fast track N was struck out of: N runs
 * straight back through the place where that ball rested (within R of the
 * line), it was last seen there the frame before N was born or the one
 * before that, and N has come about as far as its speed takes it since
 * (half to twice). A ball struck hard at 30 fps is a smear a few diameters
 * long in its first frame, far beyond the reach a resting ball's track
 * looks in; its looks (a smear) seldom name it. The only such hidden track:
 * else -1. */
static int struck_from(const cr_tracker_t *tr, int n)
{
    const trk_t *N = &tr->trk[n];
    const double R = tr->table.ball_radius_mm, sp = hypot(N->vx, N->vy);
    int h, who = -1;

    if (sp < 1000.0)
        return -1;
    for (h = 0; h < TRK_SLOTS; h++) {
        const trk_t *H = &tr->trk[h];
        double dx, dy, along, across, dt;

        if (h == n || H->state != SLOT_LIVE || H->status != CR_BALL_HIDDEN || H->moving_at_loss || H->number < 0 ||
            H->last_seen + 2 < N->born || H->last_seen >= N->born)
            continue;
        dx = N->x - H->zx, dy = N->y - H->zy;
        along = (dx * N->vx + dy * N->vy) / sp;
        across = fabs(dx * N->vy - dy * N->vx) / sp;
        dt = N->t_state - H->t_seen;
        if (across > R || along <= 0.0 || dt <= 0.0 || along < 0.5 * sp * dt || along > 2.0 * sp * dt)
            continue;
        if (who >= 0)
            return -1; /* two could be it */
        who = h;
    }
    return who;
}

/* A confirmed track seen now may be the continuation of a hidden track (ball
 * in hand, a ball nudged under an arm, lost in a break) or of a recently
 * pocketed ball that reappears (re-spotted):
 *  - when both tracks' own evidence names the same id surely, they are the
 *    same ball: the new track continues the old one if it is not published
 *    yet, else the old hidden one ends (the id moves on with the new track);
 *  - otherwise, a new unpublished track continues the hidden track whose
 *    looks clearly agree best (score stitch_min, 1 nat ahead of the next),
 *    unless it sits on a rack slot: a racked ball was put there by hand,
 *    any ball of the last rack may be it, and continuing one by looks
 *    that merely agree hands it that ball's evidence (the red 3 of a new
 *    rack, its looks barely red over maroon, took a hidden maroon 7's and
 *    was named the 7 as long as the rack stood; the 7 went unnamed). */
static void stitch(cr_tracker_t *tr)
{
    for (int n = 0; n < TRK_SLOTS; n++) {
        trk_t *N = &tr->trk[n];
        int best = -1, nid;
        double bs = -DBL_MAX, second = -DBL_MAX, nm;
        bool fresh;

        if ((N->state != SLOT_LIVE && N->state != SLOT_TENT) || N->status != CR_BALL_SEEN || N->hits < 2)
            continue;
        fresh = N->born >= tr->next_pop;
        /* tentative too: at 30 fps a struck ball may reach the rack before
         * it is seen often enough to be output */
        if (fresh && (best = struck_from(tr, n)) >= 0) {
            merge_into(tr, best, n);
            continue;
        }
        if (N->state != SLOT_LIVE || N->hits < tr->p.confirm_hits + 2)
            continue;
        nid = own_best(tr, N, &nm);
        for (int h = 0; h < TRK_SLOTS; h++) {
            trk_t *H = &tr->trk[h];
            double sc, hm;

            if (h == n || H->number < 0 || H->last_seen > N->born)
                continue;
            if (!(H->state == SLOT_LIVE && H->status == CR_BALL_HIDDEN) &&
                !(H->status == CR_BALL_GONE && (H->state == SLOT_LIVE || H->state == SLOT_DEAD)))
                continue;
            if (nid >= 0 && nm >= tr->p.id_margin && own_best(tr, H, &hm) == nid && hm >= tr->p.id_margin) {
                if (fresh)
                    merge_into(tr, h, n);
                else if (H->status == CR_BALL_HIDDEN)
                    H->state = SLOT_DEAD;
                else
                    continue;
                best = -1;
                break;
            }
            if (!fresh || N->rack >= 0)
                continue;
            sc = evidence_agreement(H, N, tr->p.colour_cap) - hypot(H->zx - N->zx, H->zy - N->zy) / 2000.0;
            if (H->status == CR_BALL_GONE)
                sc -= 1.0; /* a pocketed ball comes back only when spotted */
            if (sc > bs) {
                second = bs;
                bs = sc;
                best = h;
            } else if (sc > second) {
                second = sc;
            }
        }
        if (best >= 0 && bs >= tr->p.stitch_min && bs - second >= 1.0)
            merge_into(tr, best, n);
    }
}

/* Is track k a ball surely named that surely went into a pocket (gone out
 * through a mouth, over the hole or knocked in from the jaws)? */
static bool surely_pocketed(const cr_tracker_t *tr, const trk_t *k)
{
    return k->status == CR_BALL_GONE && k->out_through && k->id >= 0 && k->margin >= tr->p.id_margin;
}

/* Solves tracks x ids (each id at most once; an "unknown" column per track)
 * and sets each track's id and margin (max-marginal in nats). */
static void assign_ids(cr_tracker_t *tr)
{
    int nr = 0, m, res[TRK_LIVE], res2[TRK_LIVE];
    bool vague[TRK_LIVE];
    double *a = tr->cost, base = 0;
    /* "none of these ids": a track not seen now may be a stale copy of a
     * ball that moved away unseen (another track has it now) or a phantom;
     * a ball seen now is on the table and one of the set (phantoms rarely
     * last), so giving up its id must cost more (unless it is vague:
     * below) */
    const double unknown_hidden = 6.0, unknown_seen = 20.0;
    int n_seen = 0, n_set = 0, hid_best[TRK_LIVE], out_slot[TRK_IDS];
    uint64_t out_seen[TRK_IDS];
    bool racked;

    for (int s = 0; s < TRK_SLOTS; s++) {
        trk_t *k = &tr->trk[s];

        k->in_assign = false;
        if (k->number < 0 || k->state == SLOT_FREE || k->state == SLOT_TENT)
            continue;
        if (k->state == SLOT_DEAD && k->last_ref < tr->next_pop) {
            /* everything of it is published: its id is final; a ball surely
             * known that went into a pocket stays out of play (not the cue
             * ball: it comes back in hand after a scratch, a new track) */
            if (!k->retired && surely_pocketed(tr, k) && k->id > 0) {
                tr->gone_ids |= 1u << k->id;
                tr->gone_number[k->id] = k->number;
                tr->gone_seen[k->id] = k->last_seen;
            } else if (!k->retired && surely_pocketed(tr, k)) {
                tr->cue_out = k->last_seen; /* the cue ball, in hand */
                tr->cue_back = 0;
            }
            k->retired = true;
            continue;
        }
        if (nr >= TRK_LIVE)
            break;
        tr->rows[nr++] = s;
        k->in_assign = true;
        /* balls surely known (a hand taken for a ball for a while is not
         * one: counted, it cleared the pocketed balls) */
        n_seen += k->state == SLOT_LIVE && k->status == CR_BALL_SEEN && k->id >= 0 && k->margin >= tr->p.id_margin;
        for (int g = 0; g < TRK_IDS; g++)
            if ((tr->gone_ids & (1u << g)) && tr->gone_number[g] == k->number)
                tr->gone_ids &= ~(1u << g); /* it came back (a jaw shadow, a re-spot) */
    }
    {
        /* a rack before its break: most slots hold a ball that has not
         * moved since it was first seen there */
        int held = 0;

        for (int i = 0; i < nr; i++)
            held += tr->trk[tr->rows[i]].rack >= 0;
        racked = tr->p.n_rack > 0 && 2 * held > tr->p.n_rack;
    }
    /* more balls seen than can be on the table with those pocketed, or a
     * rack standing: they were racked or spotted again (a racked ball at
     * rest shows one face, seldom enough to name it surely, so a new rack
     * seldom shows more balls surely named than the set; its balls pocketed
     * in the last rack kept their numbers out: 1080p120 clip 13, where a
     * racked stripe took the cue ball's number, in hand, and eight racked
     * balls went unnamed for as long as the rack stood) */
    for (int id = 0; id < TRK_IDS; id++)
        n_set += (tr->p.id_set >> id) & 1u;
    for (int id = 0; id < TRK_IDS; id++)
        n_seen += (tr->gone_ids >> id) & 1u;
    if (n_seen > n_set || racked)
        tr->gone_ids = 0;
    if (nr == 0)
        return;
    /* balls surely pocketed, and the last frame each was seen in: those
     * counted out of play, and those just gone whose tracks still take
     * part (slot) */
    for (int id = 0; id < TRK_IDS; id++) {
        out_seen[id] = (tr->gone_ids >> id) & 1u ? tr->gone_seen[id] : 0;
        out_slot[id] = -1;
    }
    for (int i = 0; i < nr; i++) {
        const trk_t *k = &tr->trk[tr->rows[i]];

        if (surely_pocketed(tr, k) && k->id > 0) {
            out_seen[k->id] = k->last_seen;
            out_slot[k->id] = tr->rows[i];
        }
    }
    m = TRK_IDS + nr;
    for (int h = 0; h < nr; h++)
        hid_best[h] = -2; /* a hidden ball's id when its looks surely name it, else -1; worked out when needed */
    for (int i = 0; i < nr; i++) {
        const trk_t *k = &tr->trk[tr->rows[i]];
        double mx = -DBL_MAX, lo = DBL_MAX, om = 0.0, ll[TRK_IDS];
        int own = -2; /* its own best id (margin om), worked out when first needed */

        for (int id = 0; id < TRK_IDS; id++)
            if (tr->p.id_set & (1u << id)) {
                ll[id] = id_loglik(k, id, tr->p.colour_cap);
                mx = fmax(mx, ll[id]);
                lo = fmin(lo, ll[id]);
            }
        /* seen now, and often enough, its own looks favouring no ball over
         * any other: a hand, an arm, a ghost of a ball the background had
         * taken in (not twins such as the 3 and the 11, which name those
         * two over the rest, nor a ball new and smeared). It may be none of
         * the set as readily as a hidden track, and is no alternative for
         * another track's id when that one's margin is weighed (below): at
         * no cost for any id, one made every ball's margin near nothing,
         * and balls went unnamed while it was seen (1080p60 clip 04, all of
         * them for 0.8 s after the break; 1080p120 clip 00 as a hand
         * passed) */
        vague[i] = k->status == CR_BALL_SEEN && k->hits >= VAGUE_HITS && mx - lo < tr->p.id_margin;
        /* a track whose looks fit no ball's colour (skin: a hand on the
         * cue's butt) is none of the set: no id, the cue ball's included
         * (a hand moving about while the cue ball is in hand took its id
         * for a frame, and its stroke practice read as strokes) */
        const bool none = !ball_like(k);

        for (int id = 0; id < TRK_IDS; id++) {
            a[i * m + id] = (tr->p.id_set & (1u << id)) && !none ? mx - ll[id] : BIG;
            if (none)
                continue;
            /* a ball surely pocketed: a track seen beside it while it was
             * on the table (three frames at least) is some other ball (a
             * cloth-coloured 7, unnamed, took the 5's id as the 5 dropped,
             * and the 15's later) */
            if (out_seen[id] && tr->rows[i] != out_slot[id] && k->born + 2 < out_seen[id]) {
                a[i * m + id] = BIG;
                continue;
            }
            /* the cue ball in hand comes back put down by hand, looking
             * like the cue ball: a ball first seen while it was in hand,
             * seen now, whose own looks do not surely name it is as
             * unlikely to be it as to be none of the set (a cloth-coloured
             * 7 found again rolling, its looks still naming nothing, took
             * the cue ball's number for a few frames and was taken for the
             * cue ball put down) */
            if (id == 0 && tr->cue_out && k->born >= tr->cue_out && (!tr->cue_back || k->born < tr->cue_back) &&
                k->status == CR_BALL_SEEN) {
                if (own == -2)
                    own = own_best(tr, k, &om);
                if (own != 0 || om < tr->p.id_margin)
                    a[i * m] += unknown_seen;
            }
            /* a pocketed ball's id: taking it means that ball came back
             * (racked or spotted), as unlikely as a hidden track being
             * stale; for a ball seen now whose own looks do not surely name
             * it, as unlikely as a ball seen being none of the set (a
             * hand on the cue's butt, skin-coloured, named the pocketed 1
             * through the aim, and the rules took the 1 for on the table) */
            if (tr->gone_ids & (1u << id)) {
                a[i * m + id] += unknown_hidden;
                if (k->status == CR_BALL_SEEN) {
                    if (own == -2)
                        own = own_best(tr, k, &om);
                    if (own != id || om < tr->p.id_margin)
                        a[i * m + id] += unknown_seen - unknown_hidden;
                }
            }
        }
        /* the id of a hidden ball this track was seen beside (in three
         * frames at least: one frame's birth beside its old self is how a
         * struck ball's blur often begins), which that ball's looks surely
         * name and this track's do not: the two were on the table
         * together, so this is no continuation of that ball (a stale copy
         * of it), and its looks do not make it that ball: taking the id
         * costs as if the ball were seen (a hand passing, taken for a ball,
         * when the cue ball vanishes) */
        if (k->status == CR_BALL_SEEN) {
            double hm;

            for (int h = 0; h < nr; h++) {
                const trk_t *H = &tr->trk[tr->rows[h]];

                if (h == i || H->status != CR_BALL_HIDDEN || H->id < 0 || H->last_seen < k->born + 2 ||
                    a[i * m + H->id] >= BIG * 0.5)
                    continue;
                if (own == -2)
                    own = own_best(tr, k, &om);
                if (hid_best[h] == -2)
                    hid_best[h] = own_best(tr, H, &hm) == H->id && hm >= tr->p.id_margin ? H->id : -1;
                if (H->id != own && hid_best[h] == H->id)
                    a[i * m + H->id] += unknown_seen - unknown_hidden;
            }
        }
        if (racked && !none) {
            /* a racked ball is no cue ball (it is in hand for the break),
             * and on a numbered slot it is the number the rules put there */
            const int r = k->rack, id = r >= 0 ? tr->p.rack_id[r] : -1;

            if (r >= 0 && a[i * m] < BIG * 0.5)
                a[i * m] += tr->p.rack_prior;
            if (id >= 0 && id < TRK_IDS && a[i * m + id] < BIG * 0.5)
                a[i * m + id] -= tr->p.rack_prior;
        }
        for (int j = 0; j < nr; j++)
            a[i * m + TRK_IDS + j] = j != i                                   ? BIG
                                     : k->status == CR_BALL_SEEN && !vague[i] ? unknown_seen
                                                                              : unknown_hidden;
    }
    hungarian(tr, a, nr, m, res);
    for (int i = 0; i < nr; i++)
        base += a[i * m + res[i]];
    for (int i = 0; i < nr; i++) {
        trk_t *k = &tr->trk[tr->rows[i]];
        int col = res[i];
        double alt = 0, save, save_v[TRK_LIVE];

        if (col >= TRK_IDS) {
            k->id = -1;
            k->margin = 0;
            continue;
        }
        save = a[i * m + col];
        a[i * m + col] = BIG;
        for (int j = 0; j < nr; j++)
            if (j != i && vague[j]) {
                save_v[j] = a[j * m + col];
                a[j * m + col] = BIG;
            }
        hungarian(tr, a, nr, m, res2);
        for (int j = 0; j < nr; j++)
            alt += a[j * m + res2[j]];
        for (int j = 0; j < nr; j++)
            if (j != i && vague[j])
                a[j * m + col] = save_v[j];
        a[i * m + col] = save;
        k->id = col;
        k->margin = alt - base;
        if (col == 0 && k->status == CR_BALL_SEEN && k->margin >= tr->p.id_margin && tr->cue_out && !tr->cue_back)
            tr->cue_back = tr->pushed;
    }
}

/* ------------------------------------------------------------------ push */

/* Balls at rest (seen still, or held where they rested) that a ball seen
 * rolling faster than STRUCK_MIN_MM_S came within contact of (2 R and 20
 * mm) on its way since the last frame: struck, perhaps, at t
 * (struck_reach()). */
static void struck_at(cr_tracker_t *tr, double t)
{
    const double R = tr->table.ball_radius_mm, dt = t - tr->t_last;
    int strikers[TRK_LIVE], ns = 0;

    if (!(dt > 0.0) || !isfinite(dt))
        return;
    for (int b = 0; b < TRK_SLOTS && ns < TRK_LIVE; b++) {
        const trk_t *j = &tr->trk[b];

        if (j->state == SLOT_LIVE && j->status == CR_BALL_SEEN && j->last_seen == tr->pushed &&
            hypot(j->vx, j->vy) >= STRUCK_MIN_MM_S)
            strikers[ns++] = b;
    }
    for (int a = 0; a < TRK_SLOTS && ns > 0; a++) {
        trk_t *k = &tr->trk[a];

        if (k->state != SLOT_LIVE || k->moving_at_loss ||
            !(k->status == CR_BALL_HIDDEN || (k->status == CR_BALL_SEEN && hypot(k->vx, k->vy) < 50.0)))
            continue;
        for (int q = 0; q < ns; q++) {
            const trk_t *j = &tr->trk[strikers[q]];
            double sp = hypot(j->vx, j->vy), ax, ay, bx, by, ll, u;

            if (strikers[q] == a)
                continue;
            /* its way since the last frame: back along its velocity */
            ax = j->zx - j->vx * dt, ay = j->zy - j->vy * dt;
            bx = j->zx - ax, by = j->zy - ay;
            ll = bx * bx + by * by;
            u = ll > 0.0 ? fmin(fmax(((k->zx - ax) * bx + (k->zy - ay) * by) / ll, 0.0), 1.0) : 1.0;
            if (hypot(ax + u * bx - k->zx, ay + u * by - k->zy) < 2.0 * R + 20.0) {
                if (t - k->t_struck < STRUCK_S) { /* the same blow, seen again: its first moment */
                    k->v_struck = fmax(k->v_struck, sp);
                } else {
                    k->t_struck = t;
                    k->v_struck = sp;
                }
            }
        }
    }
}

int cr_tracker_push(cr_tracker_t *tr, double t_s, uint64_t frame, const cr_detection_t *dets, int n)
{
    int nd, nt = 0, rows[TRK_LIVE], m, res[TRK_LIVE];
    bool contact[TRK_LIVE], by_ball[TRK_LIVE], touch[TRK_LIVE], amb[CR_VISION_MAX_DETECTIONS];
    double pc[2 * TRK_LIVE];
    double *a, c0 = cpu_now();
    double lam, pd;
    fr_t *fr;

    if (!tr || tr->flushed || !(t_s > tr->t_last) || n < 0 || (n > 0 && !dets) || !isfinite(t_s))
        return CR_ERR_INVALID;
    if (tr->pushed - tr->next_pop > (uint64_t)tr->p.delay_frames)
        return CR_ERR_FULL;
    /* make room in the ring: drop the oldest published frame, retire slots */
    while (tr->pushed - tr->first >= (uint64_t)tr->cap)
        tr->first++;
    for (int s = 0; s < TRK_SLOTS; s++)
        if (tr->trk[s].state == SLOT_DEAD && tr->trk[s].last_ref < tr->first)
            tr->trk[s].state = SLOT_FREE;

    nd = prepare_detections(tr, dets, n);
    /* tracks that take part: tentative, live, and gone balls still in reach */
    for (int s = 0; s < TRK_SLOTS && nt < TRK_LIVE; s++) {
        trk_t *k = &tr->trk[s];

        if (k->state == SLOT_TENT || k->state == SLOT_LIVE)
            rows[nt++] = s;
    }
    m = nd + nt;
    a = tr->cost;
    contacts(tr, rows, nt, t_s, contact, by_ball, touch, pc);
    pd = tr->p.p_detect;
    lam = tr->p.new_per_frame / (tr->table.length_mm * tr->table.width_mm);
    for (int i = 0; i < nt; i++) {
        const trk_t *k = &tr->trk[rows[i]];

        for (int j = 0; j < nd; j++) {
            bool gated;
            double ll = motion_ll(tr, k, &tr->det[j], t_s, contact[i], &pc[2 * i], &gated, NULL), sc;

            sc = log(pd) + ll - log((1 - pd) * lam) + tr->p.appearance_weight * appearance_llr(tr, k, &tr->det[j]);
            if (k->status == CR_BALL_GONE)
                sc -= 3.0;
            /* a ball looked for where this track should be is for it alone */
            if (tr->det[j].hint_tag && tr->det[j].hint_tag != rows[i] + 1)
                gated = true;
            a[i * m + j] = (gated || sc <= 0) ? BIG : -sc;
        }
        for (int j = 0; j < nt; j++)
            a[i * m + nd + j] = j == i ? 0 : BIG;
    }
    for (int i = 0; i < nt; i++)
        res[i] = -1;
    if (nt > 0)
        hungarian(tr, a, nt, m, res);
    memset(amb, 0, sizeof(amb));
    /* a detection between two balls meeting that both could claim (two
     * touching balls seen as one, a blurred hitter over the ball it hits)
     * goes to neither when the other found nothing: taking it would move
     * one of them onto the other's path, a swap no look can undo when the
     * two look alike (a racked stripe showing its white pole) */
    for (int i = 0; i < nt; i++) {
        int j = res[i];

        if (j < 0 || j >= nd || a[i * m + j] >= BIG * 0.5 || !by_ball[i])
            continue;
        for (int i2 = 0; i2 < nt; i2++) {
            int j2 = res[i2];
            const trk_t *k2 = &tr->trk[rows[i2]];

            /* between the two: within 1.5 R of where each should be (two
             * balls are 2 R apart at least; a ball's own detection with its
             * partner unseen is far nearer one of them) */
            if (i2 == i || !by_ball[i2] || k2->hits < 2 || (j2 >= 0 && j2 < nd && a[i2 * m + j2] < BIG * 0.5) ||
                hypot(tr->det[j].x - pc[2 * i], tr->det[j].y - pc[2 * i + 1]) > 1.5 * tr->table.ball_radius_mm ||
                hypot(tr->det[j].x - pc[2 * i2], tr->det[j].y - pc[2 * i2 + 1]) > 1.5 * tr->table.ball_radius_mm)
                continue;
            if (a[i2 * m + j] < BIG * 0.5 && a[i2 * m + j] - a[i * m + j] < log(4.0)) {
                res[i] = -2; /* not seen, but not missed either */
                amb[j] = true;
                break;
            }
        }
    }

    {
        bool used[CR_VISION_MAX_DETECTIONS];

        memcpy(used, amb, sizeof(used)); /* an ambiguous one starts no track */
        for (int i = 0; i < nt; i++) {
            trk_t *k = &tr->trk[rows[i]];
            int j = res[i];

            if (j >= 0 && j < nd && a[i * m + j] < BIG * 0.5) {
                used[j] = true;
                {
                    bool g;
                    double ab = 0;

                    (void)motion_ll(tr, k, &tr->det[j], t_s, contact[i], &pc[2 * i], &g, &ab);
                    if (ab > 0.5 && k->hits >= 2 && k->status == CR_BALL_SEEN && !k->snap_on) {
                        /* an abrupt change: remember the evidence so far, in
                         * case this was a swap with a neighbour */
                        k->snap = k->ev;
                        k->vw_n = 0; /* and a new view begins */
                        k->snap_frame = tr->pushed;
                        k->snap_x = k->x;
                        k->snap_y = k->y;
                        k->snap_on = true;
                    }
                }
                if (k->status == CR_BALL_GONE)
                    ungone(tr, rows[i]);
                k->status = CR_BALL_SEEN;
                k->moving_at_loss = false; /* found: a loss to come is judged afresh */
                track_update(tr, k, &tr->det[j], t_s, touch[i]);
                continue;
            }
            if (j == -2)
                continue; /* its detection was in doubt: still seen, as it was */
            /* missed */
            k->miss_run++;
            if (k->state == SLOT_TENT) {
                if (k->miss_run >= tr->p.tentative_misses) {
                    k->state = SLOT_DEAD;
                    k->number = -1;
                }
                continue;
            }
            if (k->status == CR_BALL_SEEN) {
                double sp = hypot(k->vx, k->vy);
                bool through = true; /* knocked in from the jaws, unless it ran in */

                k->moving_at_loss = sp > 100.0;
                if (into_pocket(tr, k->x, k->y, k->vx, k->vy, &through) ||
                    (by_ball[i] && near_pocket(tr, k->x, k->y) >= 0)) {
                    /* ran into a pocket, or was knocked in from the jaws */
                    k->status = CR_BALL_GONE;
                    k->out_through = through;
                    k->vx = k->vy = 0;
                } else {
                    k->status = CR_BALL_HIDDEN;
                }
            }
            if (k->status == CR_BALL_HIDDEN && k->moving_at_loss) {
                double px, py;
                bool through = false;

                predict(tr, k, t_s, &px, &py);
                /* it may roll into a pocket while hidden; surely pocketed
                 * only when its straight path from where it was last seen
                 * runs in between the jaws within UNSEEN_SURE_MM (a
                 * cloth-coloured 7 lost as it rolled, its speed misread
                 * from a misplaced last fit, was predicted off a cushion
                 * and across the table into a corner pocket: its number was
                 * kept out of play for the rest of the rack) */
                if (into_pocket(tr, px, py, k->vx, k->vy, &through) && hypot(k->vx, k->vy) > 50.0) {
                    k->status = CR_BALL_GONE;
                    k->out_through = through && path_through_mouth(tr, k->x, k->y, k->vx, k->vy, UNSEEN_SURE_MM);
                    k->x = px;
                    k->y = py;
                    k->t_state = t_s;
                    k->vx = k->vy = 0;
                }
            }
            if (k->status == CR_BALL_GONE && t_s - k->t_seen > tr->p.gone_keep_s)
                k->state = SLOT_DEAD;
            /* a ball lost while rolling, not found again: its place is unknown */
            if (k->status == CR_BALL_HIDDEN && k->moving_at_loss && t_s - k->t_seen > tr->p.lost_moving_s)
                k->state = SLOT_DEAD;
            /* seen for a handful of frames, then not for a second though
             * looked for where it would rest: no ball (a blob on the cue
             * stick or a hand, taken for a ball at rest and held there) */
            if (k->status == CR_BALL_HIDDEN && !k->moving_at_loss && k->hits < HELD_MIN_HITS &&
                t_s - k->t_seen > HELD_UNSEEN_S)
                k->state = SLOT_DEAD;
            /* held at rest where the background shows bare, though the
             * ball stood out from it: nothing covers the place and no ball
             * is there (away from the pockets, where a ball hanging in the
             * jaws that drops is recon's to judge); or where it shows bare
             * and the number its looks name is seen surely elsewhere: a
             * stale copy of a ball that moved unseen, anywhere (a ball of
             * the cloth's colour barely stands out from the background) */
            if (k->status == CR_BALL_HIDDEN && !k->moving_at_loss && k->state == SLOT_LIVE) {
                if (k->bare_now && ((stood_out(k) && near_pocket(tr, k->zx, k->zy) < 0) || named_elsewhere(tr, k))) {
                    if (k->bare_run++ == 0)
                        k->t_bare = t_s;
                    if (k->bare_run >= BARE_FRAMES && t_s - k->t_bare >= BARE_S - 1e-9)
                        k->state = SLOT_DEAD;
                } else {
                    k->bare_run = 0;
                }
            }
        }
        /* new tracks */
        for (int j = 0; j < nd; j++) {
            int s;

            if (used[j] || tr->dup[j] || tr->det[j].hint_tag || count_live(tr) >= TRK_LIVE)
                continue;
            s = slot_new(tr);
            if (s < 0)
                break;
            track_start(tr, s, &tr->det[j], t_s);
        }
    }

    for (int s = 0; s < TRK_SLOTS; s++)
        tr->trk[s].bare_now = false; /* cr_tracker_bare() speaks of this frame only */
    resolve_overlaps(tr, t_s);
    struck_at(tr, t_s);

    /* store the frame */
    fr = frame_at(tr, tr->pushed);
    fr->t = t_s;
    fr->frame = frame;
    fr->n = 0;
    for (int s = 0; s < TRK_SLOTS && fr->n < TRK_LIVE; s++) {
        trk_t *k = &tr->trk[s];
        ent_t *e;
        double px, py;

        if (k->state != SLOT_TENT && k->state != SLOT_LIVE)
            continue;
        if (k->state == SLOT_TENT && k->last_seen != tr->pushed)
            continue;
        e = &fr->e[fr->n++];
        e->slot = (int16_t)s;
        e->status = (uint8_t)k->status;
        e->seen = k->last_seen == tr->pushed;
        e->blurred = 0;
        if (e->seen) {
            e->x = (float)k->zx;
            e->y = (float)k->zy;
            e->vx = (float)k->vx;
            e->vy = (float)k->vy;
            e->sigma = (float)k->sig_z;
            for (int j = 0; j < nd; j++)
                if (tr->det[j].x == k->zx && tr->det[j].y == k->zy)
                    e->blurred = tr->det[j].blur_dx != 0 || tr->det[j].blur_dy != 0;
        } else if (k->status == CR_BALL_HIDDEN && k->moving_at_loss) {
            double dt = 1e-3;

            predict(tr, k, t_s, &px, &py);
            e->x = (float)px;
            e->y = (float)py;
            {
                double qx, qy;

                predict(tr, k, t_s + dt, &qx, &qy);
                e->vx = (float)((qx - px) / dt);
                e->vy = (float)((qy - py) / dt);
            }
            e->sigma = (float)(k->sig_z + hypot(k->vx, k->vy) * 0.1 * (t_s - k->t_seen));
        } else {
            e->x = (float)k->zx;
            e->y = (float)k->zy;
            e->vx = e->vy = 0;
            e->sigma = (float)(k->status == CR_BALL_GONE ? k->sig_z : k->sig_z + 10.0 * (t_s - k->t_seen));
        }
        k->last_ref = tr->pushed;
    }
    tr->pushed++;
    tr->t_last = t_s;

    repair_glitches(tr);
    repair_swaps(tr);
    stitch(tr);
    assign_ids(tr);
    tr->cpu_s += cpu_now() - c0;
    return CR_OK;
}

void cr_tracker_bare(cr_tracker_t *tr, const int *tags, int n)
{
    if (!tr || !tags)
        return;
    for (int i = 0; i < n; i++)
        if (tags[i] >= 1 && tags[i] <= TRK_SLOTS)
            tr->trk[tags[i] - 1].bare_now = true;
}

bool cr_tracker_let_go(cr_tracker_t *tr, int number)
{
    if (!tr || number < 0)
        return false;
    for (int s = 0; s < TRK_SLOTS; s++) {
        trk_t *k = &tr->trk[s];

        if (k->number == number && k->state == SLOT_LIVE && k->status == CR_BALL_HIDDEN && !k->moving_at_loss) {
            k->state = SLOT_DEAD;
            return true;
        }
    }
    return false;
}

int cr_tracker_expect(const cr_tracker_t *tr, double t_s, cr_ball_hint_t *out, int max)
{
    const double R = tr ? tr->table.ball_radius_mm : 0.0;
    int n = 0;

    if (!tr || !out || max <= 0)
        return 0;
    for (int s = 0; s < TRK_SLOTS && n < max; s++) {
        const trk_t *k = &tr->trk[s];
        double px, py, reach = R, step = 0.0, sdx = 0.0, sdy = 0.0;
        int at_rest = 0, struck = 0;

        if (k->state != SLOT_LIVE || k->status == CR_BALL_GONE)
            continue;
        if (k->status == CR_BALL_HIDDEN && !k->moving_at_loss) {
            /* held where it rested: it is there or it was struck (and is
             * then found by the search, or, struck lately, by a look as
             * far as its striker could send it: struck_reach()) */
            const double sr = struck_reach(tr, k, t_s);

            px = k->zx, py = k->zy;
            reach = 0.5 * R;
            at_rest = 1;
            if (sr > reach) {
                reach = sr;
                at_rest = 0;
                struck = 1;
            }
        } else {
            double sp = hypot(k->vx, k->vy);

            predict(tr, k, t_s, &px, &py);
            if (t_s > tr->t_last && tr->t_last > -DBL_MAX) {
                step = sp * (t_s - tr->t_last);
                sdx = k->vx * (t_s - tr->t_last), sdy = k->vy * (t_s - tr->t_last);
            }
            if (k->status == CR_BALL_HIDDEN) {
                reach = fmin(R + 0.1 * sp * (t_s - k->t_seen), 2.0 * R);
            } else if (sp < 50.0) {
                reach = 0.5 * R;
                at_rest = 1;
            }
        }
        out[n].x = px, out[n].y = py, out[n].reach_mm = reach, out[n].step_mm = step, out[n].tag = s + 1;
        out[n].step_dx = sdx, out[n].step_dy = sdy;
        out[n].unseen = k->status != CR_BALL_SEEN;
        out[n].at_rest = at_rest;
        out[n].struck = struck;
        n++;
    }
    return n;
}

void cr_tracker_flush(cr_tracker_t *tr)
{
    if (tr)
        tr->flushed = true;
}

/* ------------------------------------------------------------------- pop */

/* Fits obs[0..n-1] (times relative to t0) with a polynomial of degree deg
 * (0..2), weighted by 1/s^2. Returns chi-square, value and derivative at 0;
 * raises *edge to the largest squared normalised residual of the first, the
 * last and the t0 detection. */
static double polyfit(const obs_t *o, int n, double t0, int deg, double *x, double *y, double *vx, double *vy,
                      double *edge)
{
    double A[3][3] = {{0}}, bx[3] = {0}, by[3] = {0}, cx[3] = {0}, cy[3] = {0}, chi = 0;
    int d = deg + 1;

    for (int i = 0; i < n; i++) {
        double t = o[i].t - t0, w = 1.0 / sq(o[i].s), b[3] = {1, t, t * t};

        for (int r = 0; r < d; r++) {
            for (int c = 0; c < d; c++)
                A[r][c] += w * b[r] * b[c];
            bx[r] += w * b[r] * o[i].x;
            by[r] += w * b[r] * o[i].y;
        }
    }
    /* Gaussian elimination with partial pivoting */
    for (int c = 0; c < d; c++) {
        int piv = c;

        for (int r = c + 1; r < d; r++)
            if (fabs(A[r][c]) > fabs(A[piv][c]))
                piv = r;
        if (fabs(A[piv][c]) < 1e-18)
            return DBL_MAX;
        if (piv != c) {
            for (int k = 0; k < d; k++) {
                double tmp = A[c][k];

                A[c][k] = A[piv][k];
                A[piv][k] = tmp;
            }
            double tb = bx[c];
            bx[c] = bx[piv];
            bx[piv] = tb;
            tb = by[c];
            by[c] = by[piv];
            by[piv] = tb;
        }
        for (int r = c + 1; r < d; r++) {
            double f = A[r][c] / A[c][c];

            for (int k = c; k < d; k++)
                A[r][k] -= f * A[c][k];
            bx[r] -= f * bx[c];
            by[r] -= f * by[c];
        }
    }
    for (int r = d - 1; r >= 0; r--) {
        double sx = bx[r], sy = by[r];

        for (int k = r + 1; k < d; k++) {
            sx -= A[r][k] * cx[k];
            sy -= A[r][k] * cy[k];
        }
        cx[r] = sx / A[r][r];
        cy[r] = sy / A[r][r];
    }
    for (int i = 0; i < n; i++) {
        double t = o[i].t - t0;
        double fx = cx[0] + cx[1] * t + cx[2] * t * t, fy = cy[0] + cy[1] * t + cy[2] * t * t;
        double r2 = (sq(o[i].x - fx) + sq(o[i].y - fy)) / sq(o[i].s);

        chi += r2;
        if ((i == 0 || i == n - 1 || o[i].t == t0) && r2 > *edge)
            *edge = r2;
    }
    *x = cx[0];
    *y = cy[0];
    *vx = cx[1];
    *vy = cy[1];
    return chi;
}

/* Chi-square acceptance for dof degrees of freedom (mean + 3 sd). */
static double chi_ok(int dof)
{
    return dof + 3.0 * sqrt(2.0 * dof) + 2.0;
}

/* the largest residual a smoothing window may leave at its ends and at the
 * detection it smooths, in sigmas */
#define SMOOTH_EDGE_SIGMAS 3.5

/* Whether the w detections o[lo, lo + w) take a polynomial of degree deg
 * (0..2) as a smoothing window: about as long in time as in detections
 * (few gaps), its chi-square within chi_ok, and the detection at t0 and the
 * window's ends (where a change of motion inside it shows) each within
 * SMOOTH_EDGE_SIGMAS: one ball setting off at the end of a long rest window
 * adds little to its chi-square. The fit's value and derivative at t0 in
 * *x, *y, *vx, *vy, its chi-square in *chi. */
static bool window_fit(const obs_t *o, int lo, int w, double t0, int deg, double fps_dt, double *x, double *y,
                       double *vx, double *vy, double *chi)
{
    double edge = 0;

    if (w <= deg + 1 || o[lo + w - 1].t - o[lo].t > 1.5 * (w - 1) * fps_dt + 1e-6)
        return false;
    *chi = polyfit(o + lo, w, t0, deg, x, y, vx, vy, &edge);
    return *chi <= chi_ok(2 * (w - deg - 1)) && edge <= SMOOTH_EDGE_SIGMAS * SMOOTH_EDGE_SIGMAS;
}

/* Whether o[lo, hi) is one place plus noise (window_fit() of a constant);
 * its place in *x, *y. */
static bool rest_fit(const obs_t *o, int lo, int hi, double t0, double fps_dt, double *x, double *y)
{
    double vx, vy, chi;

    return window_fit(o, lo, hi - lo, t0, 0, fps_dt, x, y, &vx, &vy, &chi);
}

/* A track's detections at rest in one place for a quarter of a second at
 * least (up to a rest window), then, from a detection at or before ic on to
 * the last one held (5 at least), at rest in another, and the two no one
 * place: the fit moved, not the ball (one that left its place could not
 * stop dead within a frame; a hand that moves it shows it moving): the new
 * place, still, in *x, *y. A smoothing window across such a step makes it
 * a slow drift, which reads downstream as a stroke (a resting cue ball's
 * outline fit, ambiguous by 3 mm beside its shadow, refitted as a hand came
 * for it). */
static bool rest_step(const cr_tracker_t *tr, const obs_t *o, int n, int ic, double t0, double fps_dt, double *x,
                      double *y, double *t_step)
{
    const int wmax = (int)floor(tr->p.rest_window_s / fmax(fps_dt, 1e-4));
    const int wmin = (int)fmax(5.0, ceil(0.25 / fmax(fps_dt, 1e-4) - 1e-6));
    const double x0 = o[n - 1].x, y0 = o[n - 1].y;
    double ax, ay, cx = 0, cy = 0, sw = 0, sx = 0, sy = 0, s2 = 0;
    int j, js = -1, lo;

    if (wmax < wmin || n < 1)
        return false;
    /* the earliest detection from which on it rests, back to ic - wmax: a
     * constant's fit to o[j, n) from sums grown as j goes back (centred on
     * the last detection), not a fit anew for each j (this runs for every
     * ball in every frame) */
    for (j = n - 1; j >= 1 && j >= ic - wmax; j--) {
        const double w = 1.0 / sq(o[j].s), dx = o[j].x - x0, dy = o[j].y - y0;
        const int ends[3] = {j, n - 1, ic};
        double mx, my, chi;
        bool ok;

        sw += w, sx += w * dx, sy += w * dy, s2 += w * (dx * dx + dy * dy);
        if (j > ic || n - j < 5)
            continue;
        mx = sx / sw, my = sy / sw;
        chi = s2 - (sx * sx + sy * sy) / sw;
        ok = o[n - 1].t - o[j].t <= 1.5 * (n - j - 1) * fps_dt + 1e-6 && chi <= chi_ok(2 * (n - j - 1));
        for (int q = 0; q < 3 && ok; q++) /* the window's ends and the detection smoothed */
            ok = (sq(o[ends[q]].x - x0 - mx) + sq(o[ends[q]].y - y0 - my)) / sq(o[ends[q]].s) <=
                 SMOOTH_EDGE_SIGMAS * SMOOTH_EDGE_SIGMAS;
        if (!ok)
            break;
        js = j, cx = x0 + mx, cy = y0 + my;
    }
    if (js < 0)
        return false;
    lo = js - wmax > 0 ? js - wmax : 0;
    if (js - lo < wmin || !rest_fit(o, lo, js, t0, fps_dt, &ax, &ay) || rest_fit(o, lo, n, t0, fps_dt, &ax, &ay))
        return false;
    *x = cx;
    *y = cy;
    *t_step = o[js].t;
    return true;
}

/* Whether a track other than slot s was seen, in the held frames from
 * t_lo to t_hi (relative to frame k's time), within contact of (x, y)
 * (two radii and 20 mm, and as far as it goes in the span at the speed
 * seen: at 30 fps a striker is seldom seen touching): a ball that could
 * have struck it there. */
static bool other_beside(cr_tracker_t *tr, uint64_t k, int s, double t_lo, double t_hi, double x, double y)
{
    const double t_k = frame_at(tr, k)->t, reach = 2.0 * tr->table.ball_radius_mm + 20.0;

    for (uint64_t f = tr->first; f < tr->pushed; f++) {
        const fr_t *g = frame_at(tr, f);

        if (g->t - t_k < t_lo - 1e-6 || g->t - t_k > t_hi + 1e-6)
            continue;
        for (int i = 0; i < g->n; i++)
            if (g->e[i].slot != s && g->e[i].seen &&
                hypot(g->e[i].x - x, g->e[i].y - y) < reach + hypot(g->e[i].vx, g->e[i].vy) * (t_hi - t_lo))
                return true;
    }
    return false;
}

/* Smoothed position and velocity of a track at time t0 from its detections
 * o[0..n-1] (in time order); ic is the index of the detection at t0. */
static void smooth(const cr_tracker_t *tr, const obs_t *o, int n, int ic, double t0, double fps_dt, double *x,
                   double *y, double *vx, double *vy)
{
    static const int sizes[] = {0, 31, 15, 7, 5}; /* 0: the rest window */
    double bx = o[ic].x, by = o[ic].y, bvx = *vx, bvy = *vy;

    for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        int w = sizes[si], deg;
        double best = DBL_MAX;
        bool found = false;

        if (w == 0) {
            w = (int)floor(tr->p.rest_window_s / fmax(fps_dt, 1e-4));
            if (w < 9)
                continue;
            deg = 0;
        } else {
            deg = w >= 7 ? 2 : 1;
        }
        /* windows of w consecutive detections containing ic, a few offsets */
        for (int q = 0; q < 5; q++) {
            const int lo = ic - (w - 1) + (q * (w - 1)) / 4, dof = 2 * (w - deg - 1);
            double cx = 0, cy = 0, cvx = 0, cvy = 0, chi;

            if (lo < 0 || lo + w > n || !window_fit(o, lo, w, t0, deg, fps_dt, &cx, &cy, &cvx, &cvy, &chi))
                continue;
            if (chi / dof < best) {
                best = chi / dof;
                bx = cx;
                by = cy;
                bvx = deg == 0 ? 0 : cvx;
                bvy = deg == 0 ? 0 : cvy;
                found = true;
            }
        }
        if (found) {
            *x = bx;
            *y = by;
            *vx = bvx;
            *vy = bvy;
            return;
        }
    }
    *x = o[ic].x;
    *y = o[ic].y;
}

/* A frame's entry e of track t as the tracker states it: its number, its
 * id where sure (margin at least id_margin, else -1), and the entry's own
 * place, velocity and sigma (has_raw: this frame's detection). */
static void ball_of_entry(const cr_tracker_t *tr, const trk_t *t, const ent_t *e, cr_ball_obs_t *b)
{
    memset(b, 0, sizeof(*b));
    b->track = t->number;
    b->id = (t->id >= 0 && t->margin >= tr->p.id_margin) ? t->id : -1;
    b->id_conf = (float)(t->id >= 0 ? 1.0 / (1.0 + exp(-t->margin)) : 0.0);
    b->status = (cr_ball_status_t)e->status;
    b->blurred = e->blurred;
    b->sigma_mm = e->sigma;
    b->x = b->raw_x = e->x;
    b->y = b->raw_y = e->y;
    b->vx = e->vx;
    b->vy = e->vy;
    b->has_raw = e->seen;
}

int cr_tracker_peek(const cr_tracker_t *tr, cr_ball_frame_t *out)
{
    const fr_t *fr;

    if (!tr || !out || tr->pushed == 0 || tr->pushed <= tr->first)
        return 0;
    fr = &tr->ring[(tr->pushed - 1) % (uint64_t)tr->cap];
    out->t = fr->t;
    out->frame = fr->frame;
    out->n = 0;
    for (int i = 0; i < fr->n && out->n < CR_VISION_MAX_DETECTIONS; i++) {
        const ent_t *e = &fr->e[i];
        const trk_t *t = &tr->trk[e->slot];

        if (t->number < 0 || t->state == SLOT_FREE)
            continue;
        ball_of_entry(tr, t, e, &out->balls[out->n++]);
    }
    return 1;
}

int cr_tracker_pop(cr_tracker_t *tr, cr_ball_frame_t *out)
{
    fr_t *fr;
    uint64_t k, lo, hi;
    double c0;
    double dt_frame;

    if (!tr || !out || tr->next_pop >= tr->pushed)
        return 0;
    if (!tr->flushed && tr->pushed - 1 - tr->next_pop < (uint64_t)tr->p.delay_frames)
        return 0;
    c0 = cpu_now();
    k = tr->next_pop;
    fr = frame_at(tr, k);
    /* gather the detections of every track in the window around k */
    lo = k > tr->first + 0 ? tr->first : k;
    if (k - lo > (uint64_t)tr->p.history_frames)
        lo = k - (uint64_t)tr->p.history_frames;
    hi = tr->pushed;
    memset(tr->nobs, 0, sizeof(int) * TRK_SLOTS);
    for (uint64_t f = lo; f < hi; f++) {
        const fr_t *g = frame_at(tr, f);

        for (int i = 0; i < g->n; i++) {
            const ent_t *e = &g->e[i];
            int s = e->slot;

            if (!e->seen || tr->nobs[s] >= tr->obs_cap)
                continue;
            tr->obs[s * tr->obs_cap + tr->nobs[s]++] = (obs_t){(float)(g->t - fr->t), e->x, e->y, e->sigma};
        }
    }
    dt_frame = (hi - lo > 1) ? (frame_at(tr, hi - 1)->t - frame_at(tr, lo)->t) / (double)(hi - 1 - lo) : 1.0 / 60;

    out->t = fr->t;
    out->frame = fr->frame;
    out->n = 0;
    for (int i = 0; i < fr->n; i++) {
        const ent_t *e = &fr->e[i];
        const trk_t *t = &tr->trk[e->slot];
        cr_ball_obs_t *b;

        if (t->number < 0 || t->state == SLOT_FREE)
            continue;
        /* moving with looks of no ball's colour (a hand on the cue's butt,
         * stroking): no ball */
        if (t->id < 0 && !ball_like(t) && hypot(e->vx, e->vy) > 100.0)
            continue;
        b = &out->balls[out->n++];
        ball_of_entry(tr, t, e, b);
        if (b->id < 0 && (tr->p.id_set & 1u)) {
            double mg;
            int best = own_best(tr, t, &mg);

            b->not_cue = best > 0 &&
                         id_loglik(t, best, tr->p.colour_cap) - id_loglik(t, 0, tr->p.colour_cap) >= tr->p.id_margin;
        }
        if (e->seen) {
            const obs_t *o = &tr->obs[e->slot * tr->obs_cap];
            int no = tr->nobs[e->slot], ic = -1;

            for (int j = 0; j < no; j++)
                if (o[j].t == 0.0f) {
                    ic = j;
                    break;
                }
            if (ic >= 0) {
                double x, y, vx = e->vx, vy = e->vy, ts;

                if (rest_step(tr, o, no, ic, 0.0, dt_frame, &x, &y, &ts) &&
                    !other_beside(tr, k, e->slot, ts - 2.0 * dt_frame, ts, x, y)) {
                    vx = vy = 0.0;
                    b->refit = true;
                } else {
                    smooth(tr, o, no, ic, 0.0, dt_frame, &x, &y, &vx, &vy);
                }
                b->x = x;
                b->y = y;
                b->vx = vx;
                b->vy = vy;
            }
        }
        if (b->status == CR_BALL_GONE) {
            b->vx = b->vy = 0;
        }
    }
    /* increasing track number; an id at most once (the surer track keeps it) */
    for (int i = 1; i < out->n; i++) {
        cr_ball_obs_t tmp = out->balls[i];
        int j = i - 1;

        while (j >= 0 && out->balls[j].track > tmp.track) {
            out->balls[j + 1] = out->balls[j];
            j--;
        }
        out->balls[j + 1] = tmp;
    }
    for (int i = 0; i < out->n; i++)
        for (int j = i + 1; j < out->n; j++)
            if (out->balls[i].id >= 0 && out->balls[i].id == out->balls[j].id) {
                if (out->balls[i].id_conf >= out->balls[j].id_conf)
                    out->balls[j].id = -1;
                else
                    out->balls[i].id = -1;
            }
    tr->next_pop++;
    tr->cpu_s += cpu_now() - c0;
    return 1;
}
