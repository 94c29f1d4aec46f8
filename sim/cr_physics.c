/*
 * cr_physics.c - event-based pool physics (the model is described in
 * cr_physics.h).
 *
 * Sources for the model and the default parameters:
 *   [LG]  W. Leckie, M. Greenspan, "An event-based pool physics simulator",
 *         Advances in Computer Games 11 (2005): motion states, sliding /
 *         rolling / spinning friction, the cue impulse, the quartic
 *         collision times. Same model as pooltool (E. Kiefl).
 *   [AL]  D. Alciatore, "The Illustrated Principles of Pool and Billiards"
 *         and technical proofs TP A.4 (sliding to rolling, 2/7 rule), TP A.14
 *         (collision-induced throw: ball-ball friction limited by the
 *         impulse that stops the contact-point slip, the "1/7" limit, and
 *         his fit mu_b = 9.951e-3 + 0.108 exp(-1.088 v_slip[m/s])),
 *         ball-ball e = 0.93-0.98, mu_slide ~ 0.2, mu_roll ~ 0.01.
 *   [HAN] I. Han, "Dynamics in carom and three cushion billiards", J. Mech.
 *         Sci. Tech. 19 (2005): one impulse at the cushion nose contact,
 *         tilted by asin(h/R - 1), restitution along that normal, Coulomb
 *         friction with sticking; ball-cushion friction 0.2.
 *   [RULES] shared/rules/RULES.md §5: nose height 63.5 % of the diameter,
 *         cut angles corner 142 deg and side 104 deg, shelf depths.
 *   [PT]  E. Kiefl, pooltool (github.com/ekiefl/pooltool), BallParams:
 *         cushion e_c = 0.85 and f_c = 0.2 used with the Han 2005 model.
 *   The speed-dependent cushion fit e(v) = 0.39 + 0.257 v - 0.044 v^2 (v in
 *         m/s, from the task brief; source not checked) can be selected
 *         through cushion_e0..e2; clamped at its maximum (v = 2.92 m/s).
 *
 * Numerics: every event time is the first down-crossing of a "gap"
 * polynomial g(tau) of degree <= 4 (distance-like: g > 0 while apart) on a
 * horizon that ends at the next transition of the balls involved. The real
 * roots of g' split the horizon into monotone pieces (recursively down to a
 * closed-form quadratic), and the crossing inside a decreasing piece is
 * found by safeguarded Newton inside the bracket: no closed-form quartic,
 * no loss of roots near double roots, results accurate to a few ulps.
 * Look-aheads are cached per pair and per ball and recomputed only for the
 * balls whose segment changed.
 *
 * Contacts that do not end (the hard part of event-based simulation):
 * touching balls (frozen, or right after a contact) collide at once only
 * when they close faster than V_START; a contact is "fresh" (reported) when
 * the pair was apart (gap above SEP_MM since its last contact), else it is
 * a push: a ball driven into another ball or a cushion by its own cloth
 * friction. Restitution below 1 would make the rebounds of a push shrink
 * geometrically and pile up in finite time (a Zeno sequence); instead a
 * push is resolved when the overlap reaches PEN_MM, its cloth slip is taken
 * up at once (v - 2/7 u, what the cloth would do), and the overlap is
 * removed, so pushes come at a bounded rate and end once the balls roll.
 * A rolling ball slower than V_SETTLE stops; a ball pushed JAM_PUSHES times
 * in a row (wedged between balls that cannot give way) stops. These keep
 * energy non-increasing; they move balls by at most PEN_MM.
 */
#include "cr_physics.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NB CR_NUM_BALLS
#define CR_PI 3.14159265358979323846

#define MAX_LINES 18  /* 6 nose segments + 12 jaw facings */
#define MAX_POINTS 12 /* jaw points */
#define MAX_OBJ (MAX_LINES + MAX_POINTS) /* cushion objects: lines, then points */

#define TOL_MM 1e-7       /* slack on "touching", mm */
#define SEP_MM 0.5        /* a contact is a new one once the gap opened this much */
#define PEN_MM 0.003      /* pushing contacts: the next impulse at this overlap */
#define V_START 1e-6      /* mm/s: touching balls closing faster collide at once */
#define V_PUSH 5.0        /* mm/s: slower impacts of touching balls are pushes */
#define V_CREEP 1e-2      /* mm/s: touching balls closing slower get no impulse yet */
#define V_SETTLE 0.5      /* mm/s: a slower rolling ball stops (< 0.0013 mm left) */
#define JAM_PUSHES 16     /* a ball pushed this often in a row is wedged: it stops */
#define JAM_WINDOW 1e-4   /* s: pushes closer than this count as in a row */
#define V_GRAZE 1e-2      /* mm/s: a contact reached slower is a graze, no event */
#define EPS_V 1e-9        /* mm/s: slower is no motion */
#define EPS_W 1e-9        /* rad/s */
#define H_MAX 1e4         /* s: longest look-ahead (segments are far shorter) */
#define PLACE_TOL_MM 1e-6 /* slack when checking placements */
#define MAX_SPEED 12000.0 /* mm/s, strike and nudge */
#define MAX_TIP 0.6       /* tip offset limit, fraction of R */

/* One motion segment of one ball: constant acceleration from t0 on. */
typedef struct {
    double t0, t_end;   /* s; t_end: the analytic transition, INFINITY if none */
    double p[2], v[2];  /* at t0, mm, mm/s */
    double a[2];        /* mm/s^2 */
    double w[3];        /* at t0, rad/s */
    double dw[2];       /* d(wx, wy)/dt, rad/s^2 */
    double wz_dec;      /* |dwz/dt| toward 0, rad/s^2 */
    int ball;
    cr_motion_t motion;
    cr_pocket_t pocket;
    int cur[NB];        /* every ball's segment index as of this record */
} seg_t;

typedef struct {
    double p[2], v[2], w[3];
} kin_t;

/* A cushion nose segment or jaw facing: from a along unit d for len mm; n
 * is the unit normal toward the side the balls are on. */
typedef struct {
    double a[2], d[2], n[2], len;
    cr_rail_t rail;
} line_t;

typedef struct {
    double q[2];
    cr_rail_t rail;
} jaw_t;

/* Pocket mouth: midpoint m, unit t from jaw a to jaw b, unit n into the
 * pocket, half mouth width, capture line depth behind the mouth. */
typedef struct {
    double m[2], t[2], n[2], half, depth;
} pocket_geo_t;

enum { OBJ_NONE = 0, OBJ_LINE, OBJ_POINT, OBJ_POCKET };
enum { K_NONE = 0, K_PAIR, K_CUSH, K_TRANS };

typedef struct {
    double t;
    int kind; /* OBJ_* */
    int idx;
    bool fresh; /* a new contact (reported), not a push */
} hit_t;

struct cr_sim {
    cr_table_t table;
    cr_phys_params_t prm;
    double R;
    double sin_nose, cos_nose; /* tilt of the cushion contact normal */
    double spin_dec;           /* rad/s^2 */
    line_t lines[MAX_LINES];
    int n_lines;
    jaw_t points[MAX_POINTS];
    int n_points;
    pocket_geo_t pockets[CR_POCKET_COUNT];
    seg_t *segs;
    int n_segs, cap_segs;
    double now;
    bool dirty[NB];
    hit_t cush[NB];
    double pair_t[NB][NB]; /* [i][j], i < j */
    bool pair_fresh[NB][NB];
    /* Contact memory (see gap_first): touching since their last contact,
     * and when the current look-ahead has the gap open beyond SEP_MM. */
    bool pair_touch[NB][NB];
    double pair_arm[NB][NB];
    bool cush_touch[NB][MAX_OBJ];
    double cush_arm[NB][MAX_OBJ];
    int leave_left[NB];    /* scripted: cushion contacts left before leaving; 0 none */
    int push_run[NB];      /* pushes in a row (JAM_WINDOW apart at most) */
    double push_last[NB];  /* time of the ball's last push */
};

/* ---- parameters ----------------------------------------------------------- */

void cr_phys_params_defaults(cr_phys_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->ball_mass_kg = 0.17;    /* RULES.md §5.3: 156-170 g */
    p->gravity_mm_s2 = 9810.0;
    p->mu_slide = 0.2;         /* [AL], [LG] */
    p->mu_roll = 0.01;         /* [AL], [LG] */
    p->mu_spin = 0.044;        /* [LG] with their R-scaled formula */
    p->ball_restitution = 0.95; /* [AL] 0.93-0.98 */
    p->ball_friction_a = 9.951e-3; /* [AL] TP A.14 fit */
    p->ball_friction_b = 0.108;
    p->ball_friction_c = 1.088;
    p->cushion_e0 = 0.85; /* [PT] with [HAN]; see the header */
    p->cushion_e1 = 0.0;
    p->cushion_e2 = 0.0;
    p->cushion_e_vmax_m_s = 2.92;
    p->cushion_friction = 0.2; /* [HAN], [PT] */
    p->nose_height_ratio = 0.635; /* [RULES] §5.5 */
    p->corner_cut_deg = CR_TABLE_CORNER_CUT_DEG; /* [RULES] §5.4, cr_table.h */
    p->side_cut_deg = CR_TABLE_SIDE_CUT_DEG;
    p->corner_jaw_mm = CR_TABLE_CORNER_FACING_MM; /* about the cushion depth seen along the facing */
    p->side_jaw_mm = CR_TABLE_SIDE_FACING_MM;
    p->corner_capture_mm = 15.0; /* inside the 25-57 mm corner shelf ([RULES] §5.4) */
    p->side_capture_mm = 5.0;    /* side shelf 0-9.5 mm */
    p->off_table_speed_mm_s = INFINITY;
    p->max_segments = 32768;
}

const char *cr_motion_name(cr_motion_t m)
{
    static const char *const names[CR_MOTION_COUNT] = {
        [CR_MOTION_ABSENT] = "absent",     [CR_MOTION_STATIONARY] = "stationary",
        [CR_MOTION_SPINNING] = "spinning", [CR_MOTION_SLIDING] = "sliding",
        [CR_MOTION_ROLLING] = "rolling",   [CR_MOTION_POCKETED] = "pocketed",
        [CR_MOTION_OFF_TABLE] = "off_table",
    };

    if ((int)m < 0 || m >= CR_MOTION_COUNT)
        return "?";
    return names[m];
}

static bool motion_on_table(cr_motion_t m)
{
    return m == CR_MOTION_STATIONARY || m == CR_MOTION_SPINNING || m == CR_MOTION_SLIDING ||
           m == CR_MOTION_ROLLING;
}

static bool motion_moving(cr_motion_t m)
{
    return m == CR_MOTION_SPINNING || m == CR_MOTION_SLIDING || m == CR_MOTION_ROLLING;
}

static bool motion_translating(cr_motion_t m)
{
    return m == CR_MOTION_SLIDING || m == CR_MOTION_ROLLING;
}

/* ---- small vector helpers --------------------------------------------------- */

static double dot2(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1];
}

static double norm2(const double *a)
{
    return hypot(a[0], a[1]);
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *out)
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];

    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* ---- polynomials ------------------------------------------------------------ */

static double poly_val(const double *c, int deg, double x)
{
    double r = c[deg];
    int i;

    for (i = deg - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

static double poly_der(const double *c, int deg, double x)
{
    double r = 0.0;
    int i;

    for (i = deg; i >= 1; i--)
        r = r * x + i * c[i];
    return r;
}

/* A root of c in [lo, hi], where c(lo) = flo != 0 and c(hi) has the other
 * sign (or is 0): Newton steps while they stay inside the shrinking bracket
 * and converge fast enough, bisection otherwise. */
static double solve_bracket(const double *c, int deg, double lo, double hi, double flo)
{
    double a = lo, b = hi, x = 0.5 * (lo + hi), step_old = hi - lo, step = step_old;
    int it;

    for (it = 0; it < 300; it++) {
        double f = poly_val(c, deg, x), df, xn = NAN;

        if (f == 0.0)
            return x;
        if ((f > 0.0) == (flo > 0.0))
            a = x;
        else
            b = x;
        df = poly_der(c, deg, x);
        if (df != 0.0 && fabs(2.0 * f) <= fabs(step_old * df))
            xn = x - f / df;
        step_old = step;
        if (!(xn > fmin(a, b) && xn < fmax(a, b)))
            xn = a + 0.5 * (b - a);
        step = xn - x;
        if (xn == x || fabs(b - a) <= 4.0 * DBL_EPSILON * fmax(fabs(a), fabs(b)) + DBL_MIN)
            return xn;
        x = xn;
    }
    return x;
}

/* Sorted real roots in [lo, hi]; see cr_phys_poly_roots(). */
static int roots_rec(const double *cin, int deg, double lo, double hi, double *out, int cap)
{
    double c[5], d[4], crit[4], pts[6], fa, fb;
    int i, n = 0, nc, np;

    memcpy(c, cin, (size_t)(deg + 1) * sizeof(double));
    while (deg > 0 && c[deg] == 0.0)
        deg--;
    if (deg <= 0 || cap <= 0)
        return 0;
    if (deg == 1) {
        double x = -c[0] / c[1];

        if (x >= lo && x <= hi)
            out[n++] = x;
        return n;
    }
    if (deg == 2) {
        double disc = c[1] * c[1] - 4.0 * c[2] * c[0], q, r1, r2;

        if (disc < 0.0)
            return 0;
        q = -0.5 * (c[1] + copysign(sqrt(disc), c[1]));
        if (q == 0.0) {
            r1 = r2 = 0.0;
        } else {
            r1 = q / c[2];
            r2 = c[0] / q;
        }
        if (r1 > r2) {
            double tmp = r1;

            r1 = r2;
            r2 = tmp;
        }
        if (r1 >= lo && r1 <= hi)
            out[n++] = r1;
        if (r2 != r1 && r2 >= lo && r2 <= hi && n < cap)
            out[n++] = r2;
        return n;
    }
    for (i = 0; i < deg; i++)
        d[i] = (i + 1) * c[i + 1];
    nc = roots_rec(d, deg - 1, lo, hi, crit, 4);
    np = 0;
    pts[np++] = lo;
    for (i = 0; i < nc; i++)
        if (crit[i] > pts[np - 1] && crit[i] < hi)
            pts[np++] = crit[i];
    pts[np++] = hi;
    fa = poly_val(c, deg, pts[0]);
    if (fa == 0.0)
        out[n++] = pts[0];
    for (i = 0; i + 1 < np && n < cap; i++) {
        fb = poly_val(c, deg, pts[i + 1]);
        if (fb == 0.0) {
            if (n == 0 || out[n - 1] != pts[i + 1])
                out[n++] = pts[i + 1];
        } else if (fa != 0.0 && (fa > 0.0) != (fb > 0.0)) {
            out[n++] = solve_bracket(c, deg, pts[i], pts[i + 1], fa);
        }
        fa = fb;
    }
    return n;
}

int cr_phys_poly_roots(const double *c, int deg, double lo, double hi, double *roots, int cap)
{
    int i;

    if (!c || deg < 0 || deg > 4 || !(lo <= hi) || cap < 0 || (cap > 0 && !roots))
        return CR_ERR_INVALID;
    for (i = 0; i <= deg; i++)
        if (!isfinite(c[i]))
            return CR_ERR_INVALID;
    if (!isfinite(lo) || !isfinite(hi))
        return CR_ERR_INVALID;
    return roots_rec(c, deg, lo, hi, roots, cap);
}

/* Extra checks on a candidate event time (segment extent, pocket jaws). */
typedef bool (*accept_fn)(const void *ctx, double tau);

/* The first event of a gap polynomial g (g > 0 apart, g = 0 touching) on
 * [0, H]: k converts g to millimetres near contact (g ~ k * distance), so
 * slopes divided by k are normal speeds in mm/s. Returns tau or INFINITY;
 * *fresh tells a new contact (reported) from a push (not reported), and
 * *t_arm is when the gap first opens beyond SEP_MM (INFINITY if not in
 * [0, H] or already open). touching: the pair has not been apart since its
 * last contact.
 *   - touching now (g(0) <= tol) and closing faster than V_START (V_CREEP
 *     when it was touching): 0; fresh unless it was touching and closes
 *     slower than V_PUSH;
 *   - once apart (not touching, or after the gap opened beyond SEP_MM): the
 *     crossing of 0, fresh, unless the normal speed there is at most
 *     v_graze (a graze, no event);
 *   - never apart (a ball pushed into another or into a cushion by its own
 *     friction): the crossing of -PEN_MM, a push (fresh when it closes
 *     faster than V_PUSH there: a ball struck into one it rested a hair
 *     away from, under SEP_MM, collides with it). Pushes get their impulse
 *     at that small overlap, which keeps their normal speed from shrinking
 *     toward 0 and so their rebounds from piling up without end (a Zeno
 *     sequence of ever smaller bounces). */
static double gap_first(const double *cin, int deg, double k, double H, double v_graze, accept_fn acc,
                        const void *ctx, bool touching, bool *fresh, double *t_arm)
{
    double c[5], d[4], crit[4], pts[6], tol = k * TOL_MM, sep = k * SEP_MM, f0, f1;
    bool armed;
    int i, nc, np;

    *fresh = true;
    *t_arm = INFINITY;
    memcpy(c, cin, (size_t)(deg + 1) * sizeof(double));
    while (deg > 0 && c[deg] == 0.0)
        deg--;
    armed = !touching || c[0] > sep;
    if (c[0] <= tol && deg >= 1 && c[1] < -k * (armed ? V_START : V_CREEP) && (!acc || acc(ctx, 0.0))) {
        *fresh = armed || c[1] < -k * V_PUSH;
        return 0.0;
    }
    if (deg == 0 || !(H > 0.0))
        return INFINITY;
    for (i = 0; i < deg; i++)
        d[i] = (i + 1) * c[i + 1];
    nc = roots_rec(d, deg - 1, 0.0, H, crit, 4);
    np = 0;
    pts[np++] = 0.0;
    for (i = 0; i < nc; i++)
        if (crit[i] > pts[np - 1] && crit[i] < H)
            pts[np++] = crit[i];
    pts[np++] = H;
    f0 = c[0];
    for (i = 0; i + 1 < np; i++, f0 = f1) {
        double level, vmin, tau, speed;

        f1 = poly_val(c, deg, pts[i + 1]);
        if (f0 > sep)
            armed = true;
        if (!(f1 < f0)) {
            if (!armed && f1 > sep) { /* opens beyond SEP_MM in this piece */
                c[0] -= sep;
                *t_arm = solve_bracket(c, deg, pts[i], pts[i + 1], f0 - sep);
                c[0] += sep;
                armed = true;
            }
            continue;
        }
        if (armed) {
            level = 0.0;
            vmin = v_graze;
        } else {
            level = -k * PEN_MM;
            vmin = 0.0;
        }
        if (!(f0 > level && f1 <= level))
            continue;
        if (f1 == level) {
            tau = pts[i + 1];
        } else {
            c[0] -= level;
            tau = solve_bracket(c, deg, pts[i], pts[i + 1], f0 - level);
            c[0] += level;
        }
        speed = -poly_der(c, deg, tau) / k;
        if (!armed && f0 > 0.0 && (!acc || acc(ctx, tau))) {
            /* never apart, but closing faster than a push where the gap
             * reaches 0: a ball struck into one it rested a hair away from
             * (under SEP_MM), a collision there */
            double t0 = f1 <= 0.0 ? solve_bracket(c, deg, pts[i], pts[i + 1], f0) : NAN;

            if (isfinite(t0) && t0 <= tau && -poly_der(c, deg, t0) / k > V_PUSH && (!acc || acc(ctx, t0))) {
                *fresh = true;
                return t0;
            }
        }
        if (speed > vmin && (!acc || acc(ctx, tau))) {
            *fresh = armed;
            return tau;
        }
    }
    return INFINITY;
}

/* ---- segments ------------------------------------------------------------------ */

static const seg_t *cur_seg(const cr_sim_t *sim, int b)
{
    return &sim->segs[sim->segs[sim->n_segs - 1].cur[b]];
}

/* The state of segment s at time t (clamped to the segment's span). */
static void seg_eval(const seg_t *s, double t, kin_t *k)
{
    double tau = t - s->t0, m;
    int i;

    if (!(tau > 0.0))
        tau = 0.0;
    if (tau > s->t_end - s->t0)
        tau = s->t_end - s->t0;
    for (i = 0; i < 2; i++) {
        k->p[i] = s->p[i] + tau * (s->v[i] + 0.5 * tau * s->a[i]);
        k->v[i] = s->v[i] + tau * s->a[i];
        k->w[i] = s->w[i] + tau * s->dw[i];
    }
    m = fabs(s->w[2]) - s->wz_dec * tau;
    k->w[2] = m > 0.0 ? copysign(m, s->w[2]) : 0.0;
}

/* Classifies the state k of an on-table ball and fills the segment's motion
 * (LG's equations of motion). */
static void seg_setup(const cr_sim_t *sim, seg_t *s, const kin_t *k)
{
    const double R = sim->R, g = sim->prm.gravity_mm_s2;
    double u[2], un, vn;

    memcpy(s->p, k->p, sizeof(s->p));
    memcpy(s->v, k->v, sizeof(s->v));
    memcpy(s->w, k->w, sizeof(s->w));
    s->a[0] = s->a[1] = s->dw[0] = s->dw[1] = 0.0;
    s->wz_dec = 0.0;
    s->pocket = CR_POCKET_NONE;
    if (fabs(s->w[2]) <= EPS_W)
        s->w[2] = 0.0;
    u[0] = s->v[0] - R * s->w[1];
    u[1] = s->v[1] + R * s->w[0];
    un = norm2(u);
    vn = norm2(s->v);
    if (un > EPS_V) {
        /* Sliding: friction opposes the slip u, whose direction stays fixed
         * while its size falls at 7/2 mu g ([AL] TP A.4). */
        double f = sim->prm.mu_slide * g, ux = u[0] / un, uy = u[1] / un;

        s->motion = CR_MOTION_SLIDING;
        s->a[0] = -f * ux;
        s->a[1] = -f * uy;
        s->dw[0] = -2.5 * f / R * uy;
        s->dw[1] = 2.5 * f / R * ux;
        s->t_end = s->t0 + 2.0 * un / (7.0 * f);
    } else if (vn > V_SETTLE) {
        double f = sim->prm.mu_roll * g, vx = s->v[0] / vn, vy = s->v[1] / vn;

        s->motion = CR_MOTION_ROLLING;
        s->w[0] = -s->v[1] / R;
        s->w[1] = s->v[0] / R;
        s->a[0] = -f * vx;
        s->a[1] = -f * vy;
        s->dw[0] = -s->a[1] / R;
        s->dw[1] = s->a[0] / R;
        s->t_end = s->t0 + vn / f;
    } else if (s->w[2] != 0.0) {
        s->motion = CR_MOTION_SPINNING;
        s->v[0] = s->v[1] = s->w[0] = s->w[1] = 0.0;
        s->t_end = s->t0 + fabs(s->w[2]) / sim->spin_dec;
    } else {
        s->motion = CR_MOTION_STATIONARY;
        s->v[0] = s->v[1] = s->w[0] = s->w[1] = 0.0;
        s->t_end = INFINITY;
    }
    if (s->w[2] != 0.0)
        s->wz_dec = sim->spin_dec;
}

/* Appends a segment for ball b from time t: classified from k when motion
 * is CR_MOTION_COUNT, else a resting record of that motion (absent,
 * stationary, pocketed, off table) at k->p. */
static int push_seg(cr_sim_t *sim, int b, double t, const kin_t *k, cr_motion_t motion, cr_pocket_t pocket)
{
    seg_t *s;

    if (sim->n_segs >= sim->cap_segs)
        return CR_ERR_FULL;
    s = &sim->segs[sim->n_segs];
    memset(s, 0, sizeof(*s));
    if (sim->n_segs > 0)
        memcpy(s->cur, sim->segs[sim->n_segs - 1].cur, sizeof(s->cur));
    s->cur[b] = sim->n_segs;
    s->t0 = t;
    s->ball = b;
    if (motion == CR_MOTION_COUNT) {
        seg_setup(sim, s, k);
    } else {
        s->motion = motion;
        s->pocket = pocket;
        s->p[0] = k ? k->p[0] : NAN;
        s->p[1] = k ? k->p[1] : NAN;
        s->t_end = INFINITY;
    }
    sim->n_segs++;
    sim->dirty[b] = true;
    return CR_OK;
}

static void ball_kin(const cr_sim_t *sim, int b, double t, kin_t *k)
{
    seg_eval(cur_seg(sim, b), t, k);
}

/* ---- geometry ---------------------------------------------------------------- */

static void add_line(cr_sim_t *sim, cr_point_t a, const double d[2], double len, const double n[2], cr_rail_t rail)
{
    line_t *l = &sim->lines[sim->n_lines++];

    l->a[0] = a.x;
    l->a[1] = a.y;
    l->d[0] = d[0];
    l->d[1] = d[1];
    l->n[0] = n[0];
    l->n[1] = n[1];
    l->len = len;
    l->rail = rail;
}

/* A jaw at point j: the nose runs away from the pocket along dn, the cushion
 * lies on side cs; the facing turns from dn through the cushion by the cut
 * angle (RULES.md §5.4), toward the mouth midpoint m. */
static void add_jaw(cr_sim_t *sim, cr_point_t j, const double dn[2], const double cs[2], double cut_deg,
                    double len, const double m[2], cr_rail_t rail)
{
    double beta = cut_deg * CR_PI / 180.0, f[2], n[2], to_m[2];
    jaw_t *pt = &sim->points[sim->n_points++];

    f[0] = cos(beta) * dn[0] + sin(beta) * cs[0];
    f[1] = cos(beta) * dn[1] + sin(beta) * cs[1];
    n[0] = -f[1];
    n[1] = f[0];
    to_m[0] = m[0] - j.x;
    to_m[1] = m[1] - j.y;
    if (dot2(n, to_m) < 0.0) {
        n[0] = -n[0];
        n[1] = -n[1];
    }
    add_line(sim, j, f, len, n, rail);
    pt->q[0] = j.x;
    pt->q[1] = j.y;
    pt->rail = rail;
}

static void build_geometry(cr_sim_t *sim)
{
    static const double normals[CR_RAIL_COUNT][2] = {
        [CR_RAIL_HEAD] = {1.0, 0.0}, [CR_RAIL_FOOT] = {-1.0, 0.0},
        [CR_RAIL_LEFT] = {0.0, 1.0}, [CR_RAIL_RIGHT] = {0.0, -1.0}};
    const cr_table_t *t = &sim->table;
    const cr_phys_params_t *p = &sim->prm;
    cr_point_t a[2], b[2], ja, jb;
    double centre[2] = {t->length_mm / 2.0, t->width_mm / 2.0};
    int r, i, pk;

    sim->n_lines = sim->n_points = 0;
    for (r = 0; r < CR_RAIL_COUNT; r++) {
        int n = cr_table_cushion_segments(t, (cr_rail_t)r, a, b);

        for (i = 0; i < n; i++) {
            double d[2] = {b[i].x - a[i].x, b[i].y - a[i].y}, len = norm2(d);

            d[0] /= len;
            d[1] /= len;
            add_line(sim, a[i], d, len, normals[r], (cr_rail_t)r);
        }
    }
    for (pk = 0; pk < CR_POCKET_COUNT; pk++) {
        pocket_geo_t *g = &sim->pockets[pk];
        bool side = pk == CR_POCKET_SIDE_LEFT || pk == CR_POCKET_SIDE_RIGHT;
        bool low_y = pk == CR_POCKET_HEAD_LEFT || pk == CR_POCKET_SIDE_LEFT || pk == CR_POCKET_FOOT_LEFT;
        cr_rail_t long_rail = low_y ? CR_RAIL_LEFT : CR_RAIL_RIGHT;
        double ys = low_y ? -1.0 : 1.0, to_c[2], len;

        cr_table_pocket_mouth(t, (cr_pocket_t)pk, &ja, &jb);
        g->m[0] = 0.5 * (ja.x + jb.x);
        g->m[1] = 0.5 * (ja.y + jb.y);
        g->t[0] = jb.x - ja.x;
        g->t[1] = jb.y - ja.y;
        len = norm2(g->t);
        g->t[0] /= len;
        g->t[1] /= len;
        g->half = 0.5 * len;
        g->n[0] = -g->t[1];
        g->n[1] = g->t[0];
        to_c[0] = centre[0] - g->m[0];
        to_c[1] = centre[1] - g->m[1];
        if (dot2(g->n, to_c) > 0.0) {
            g->n[0] = -g->n[0];
            g->n[1] = -g->n[1];
        }
        g->depth = side ? p->side_capture_mm : p->corner_capture_mm;
        if (side) {
            double dn_a[2] = {-1.0, 0.0}, dn_b[2] = {1.0, 0.0}, cs[2] = {0.0, ys};

            add_jaw(sim, ja, dn_a, cs, p->side_cut_deg, p->side_jaw_mm, g->m, long_rail);
            add_jaw(sim, jb, dn_b, cs, p->side_cut_deg, p->side_jaw_mm, g->m, long_rail);
        } else {
            cr_point_t c = cr_table_pocket_point(t, (cr_pocket_t)pk);
            bool head = pk == CR_POCKET_HEAD_LEFT || pk == CR_POCKET_HEAD_RIGHT;
            double xs = head ? -1.0 : 1.0;
            /* ja on the long cushion's line, jb on the end cushion's line */
            double dn_a[2] = {ja.x > c.x ? 1.0 : -1.0, 0.0}, cs_a[2] = {0.0, ys};
            double dn_b[2] = {0.0, jb.y > c.y ? 1.0 : -1.0}, cs_b[2] = {xs, 0.0};

            add_jaw(sim, ja, dn_a, cs_a, p->corner_cut_deg, p->corner_jaw_mm, g->m, long_rail);
            add_jaw(sim, jb, dn_b, cs_b, p->corner_cut_deg, p->corner_jaw_mm, g->m,
                    head ? CR_RAIL_HEAD : CR_RAIL_FOOT);
        }
    }
}

/* A ball centre at p fits on the bed: at least R from every cushion segment
 * and jaw point, and in front of every pocket's capture line. */
static bool position_fits(const cr_sim_t *sim, const double p[2])
{
    const double R = sim->R;
    int i;

    if (!isfinite(p[0]) || !isfinite(p[1]))
        return false;
    for (i = 0; i < sim->n_lines; i++) {
        const line_t *l = &sim->lines[i];
        double r[2] = {p[0] - l->a[0], p[1] - l->a[1]}, s = dot2(r, l->d);

        if (s >= 0.0 && s <= l->len && dot2(r, l->n) < R - PLACE_TOL_MM)
            return false;
    }
    for (i = 0; i < sim->n_points; i++) {
        double r[2] = {p[0] - sim->points[i].q[0], p[1] - sim->points[i].q[1]};

        if (norm2(r) < R - PLACE_TOL_MM)
            return false;
    }
    for (i = 0; i < CR_POCKET_COUNT; i++) {
        const pocket_geo_t *g = &sim->pockets[i];
        double r[2] = {p[0] - g->m[0], p[1] - g->m[1]};

        if (dot2(r, g->n) >= g->depth)
            return false;
    }
    /* Everything else lies outside the nose rectangle's inner band. */
    return p[0] > -sim->R && p[0] < sim->table.length_mm + sim->R && p[1] > -sim->R &&
           p[1] < sim->table.width_mm + sim->R;
}

/* ---- look-ahead ---------------------------------------------------------------- */

typedef struct {
    const double *P, *V, *A; /* ball at the look-ahead start */
    const line_t *line;
    const pocket_geo_t *pocket;
} path_ctx_t;

static void path_at(const path_ctx_t *c, double tau, double out[2])
{
    out[0] = c->P[0] + tau * (c->V[0] + 0.5 * tau * c->A[0]);
    out[1] = c->P[1] + tau * (c->V[1] + 0.5 * tau * c->A[1]);
}

/* The contact point lies on the segment, not on its extension. */
static bool accept_line(const void *ctx, double tau)
{
    const path_ctx_t *c = ctx;
    double p[2], r[2], s;

    path_at(c, tau, p);
    r[0] = p[0] - c->line->a[0];
    r[1] = p[1] - c->line->a[1];
    s = dot2(r, c->line->d);
    return s >= 0.0 && s <= c->line->len;
}

/* The centre crosses the capture line between the jaws. */
static bool accept_pocket(const void *ctx, double tau)
{
    const path_ctx_t *c = ctx;
    double p[2], r[2];

    path_at(c, tau, p);
    r[0] = p[0] - c->pocket->m[0];
    r[1] = p[1] - c->pocket->m[1];
    return fabs(dot2(r, c->pocket->t)) <= c->pocket->half;
}

/* The first cushion, jaw or pocket event of ball b from now, within its
 * segment. */
static hit_t next_cushion(cr_sim_t *sim, int b)
{
    const seg_t *s = cur_seg(sim, b);
    const double R = sim->R, ts = sim->now;
    hit_t best = {INFINITY, OBJ_NONE, -1, true};
    bool fresh, *touch = sim->cush_touch[b];
    double *arm = sim->cush_arm[b], t_arm;
    path_ctx_t ctx;
    kin_t k;
    double H, reach, c[5], tau;
    int i;

    for (i = 0; i < MAX_OBJ; i++) { /* apart beyond SEP_MM since the last look-ahead */
        if (touch[i] && ts >= arm[i])
            touch[i] = false;
        arm[i] = INFINITY;
    }
    if (!motion_translating(s->motion))
        return best;
    H = fmin(s->t_end, ts + H_MAX) - ts;
    seg_eval(s, ts, &k);
    reach = norm2(k.v) * H + 0.5 * norm2(s->a) * H * H;
    ctx.P = k.p;
    ctx.V = k.v;
    ctx.A = s->a;
    ctx.line = NULL;
    ctx.pocket = NULL;
    for (i = 0; i < sim->n_lines; i++) {
        const line_t *l = &sim->lines[i];
        double r[2] = {k.p[0] - l->a[0], k.p[1] - l->a[1]};

        c[0] = dot2(r, l->n) - R;
        if (c[0] > SEP_MM)
            touch[i] = false;
        if (c[0] - reach > TOL_MM || c[0] < -R)
            continue; /* out of reach, or behind the segment */
        c[1] = dot2(k.v, l->n);
        c[2] = 0.5 * dot2(s->a, l->n);
        ctx.line = l;
        tau = gap_first(c, 2, 1.0, H, V_GRAZE, accept_line, &ctx, touch[i], &fresh, &t_arm);
        arm[i] = ts + t_arm;
        if (ts + tau < best.t) {
            best.t = ts + tau;
            best.kind = OBJ_LINE;
            best.idx = i;
            best.fresh = fresh;
        }
    }
    for (i = 0; i < sim->n_points; i++) {
        double r[2] = {k.p[0] - sim->points[i].q[0], k.p[1] - sim->points[i].q[1]}, dist = norm2(r);

        if (dist - R > SEP_MM)
            touch[MAX_LINES + i] = false;
        if (dist - R - reach > TOL_MM)
            continue;
        c[0] = (dist - R) * (dist + R);
        c[1] = 2.0 * dot2(r, k.v);
        c[2] = dot2(k.v, k.v) + dot2(r, s->a);
        c[3] = dot2(k.v, s->a);
        c[4] = 0.25 * dot2(s->a, s->a);
        tau = gap_first(c, 4, 2.0 * R, H, V_GRAZE, NULL, NULL, touch[MAX_LINES + i], &fresh, &t_arm);
        arm[MAX_LINES + i] = ts + t_arm;
        if (ts + tau < best.t) {
            best.t = ts + tau;
            best.kind = OBJ_POINT;
            best.idx = i;
            best.fresh = fresh;
        }
    }
    for (i = 0; i < CR_POCKET_COUNT; i++) {
        const pocket_geo_t *g = &sim->pockets[i];
        double r[2] = {k.p[0] - g->m[0], k.p[1] - g->m[1]};

        c[0] = g->depth - dot2(r, g->n);
        if (c[0] - reach > 0.0)
            continue;
        c[1] = -dot2(k.v, g->n);
        c[2] = -0.5 * dot2(s->a, g->n);
        ctx.pocket = g;
        tau = gap_first(c, 2, 1.0, H, 0.0, accept_pocket, &ctx, false, &fresh, &t_arm);
        if (ts + tau < best.t) {
            best.t = ts + tau;
            best.kind = OBJ_POCKET;
            best.idx = i;
            best.fresh = true;
        }
    }
    return best;
}

/* The next contact of balls i < j from now, within both segments. */
static double next_pair(cr_sim_t *sim, int i, int j)
{
    const seg_t *si = cur_seg(sim, i), *sj = cur_seg(sim, j);
    const double D = 2.0 * sim->R, ts = sim->now;
    kin_t ki, kj;
    double dp[2], dv[2], da[2], dist, H, reach, c[5], tau, t_arm;

    sim->pair_fresh[i][j] = true;
    if (sim->pair_touch[i][j] && ts >= sim->pair_arm[i][j])
        sim->pair_touch[i][j] = false;
    sim->pair_arm[i][j] = INFINITY;
    if (!motion_on_table(si->motion) || !motion_on_table(sj->motion))
        return INFINITY;
    if (!motion_translating(si->motion) && !motion_translating(sj->motion))
        return INFINITY;
    H = fmin(fmin(si->t_end, sj->t_end), ts + H_MAX) - ts;
    seg_eval(si, ts, &ki);
    seg_eval(sj, ts, &kj);
    dp[0] = kj.p[0] - ki.p[0];
    dp[1] = kj.p[1] - ki.p[1];
    dv[0] = kj.v[0] - ki.v[0];
    dv[1] = kj.v[1] - ki.v[1];
    da[0] = sj->a[0] - si->a[0];
    da[1] = sj->a[1] - si->a[1];
    dist = norm2(dp);
    if (dist - D > SEP_MM)
        sim->pair_touch[i][j] = false;
    reach = norm2(dv) * fmax(H, 0.0) + 0.5 * norm2(da) * H * H;
    if (dist - D - reach > TOL_MM)
        return INFINITY;
    c[0] = (dist - D) * (dist + D);
    c[1] = 2.0 * dot2(dp, dv);
    c[2] = dot2(dv, dv) + dot2(dp, da);
    c[3] = dot2(dv, da);
    c[4] = 0.25 * dot2(da, da);
    tau = gap_first(c, 4, 2.0 * D, H, V_GRAZE, NULL, NULL, sim->pair_touch[i][j], &sim->pair_fresh[i][j], &t_arm);
    sim->pair_arm[i][j] = ts + t_arm;
    return ts + tau;
}

/* After a placement: pairs and ball-cushion pairs closer than SEP_MM count
 * as touching (frozen). */
static void touch_from_positions(cr_sim_t *sim, int only)
{
    const double R = sim->R;
    kin_t k[NB];
    bool on[NB];
    int i, j;

    for (i = 0; i < NB; i++) {
        on[i] = motion_on_table(cur_seg(sim, i)->motion);
        if (on[i])
            ball_kin(sim, i, sim->now, &k[i]);
    }
    for (i = 0; i < NB; i++) {
        for (j = i + 1; j < NB; j++) {
            if (only >= 0 && i != only && j != only)
                continue;
            sim->pair_touch[i][j] =
                on[i] && on[j] && hypot(k[j].p[0] - k[i].p[0], k[j].p[1] - k[i].p[1]) - 2.0 * R <= SEP_MM;
            sim->pair_arm[i][j] = INFINITY;
        }
        if (only >= 0 && i != only)
            continue;
        for (j = 0; j < MAX_OBJ; j++) {
            double gap = INFINITY;

            if (on[i] && j < sim->n_lines) {
                const line_t *l = &sim->lines[j];
                double r[2] = {k[i].p[0] - l->a[0], k[i].p[1] - l->a[1]}, sd = dot2(r, l->d);

                if (sd >= 0.0 && sd <= l->len)
                    gap = dot2(r, l->n) - R;
            } else if (on[i] && j >= MAX_LINES && j - MAX_LINES < sim->n_points) {
                const jaw_t *q = &sim->points[j - MAX_LINES];

                gap = hypot(k[i].p[0] - q->q[0], k[i].p[1] - q->q[1]) - R;
            }
            sim->cush_touch[i][j] = gap <= SEP_MM;
            sim->cush_arm[i][j] = INFINITY;
        }
    }
}

static void refresh(cr_sim_t *sim)
{
    int i, j;

    for (i = 0; i < NB; i++)
        if (sim->dirty[i])
            sim->cush[i] = next_cushion(sim, i);
    for (i = 0; i < NB; i++)
        for (j = i + 1; j < NB; j++)
            if (sim->dirty[i] || sim->dirty[j])
                sim->pair_t[i][j] = next_pair(sim, i, j);
    for (i = 0; i < NB; i++)
        sim->dirty[i] = false;
}

typedef struct {
    double t;
    int kind; /* K_* */
    int i, j;
} next_t;

/* The earliest pending event; ties go to collisions, then cushions and
 * pockets, then transitions, each by ball number. */
static next_t next_event(const cr_sim_t *sim)
{
    next_t n = {INFINITY, K_NONE, -1, -1};
    int i, j;

    for (i = 0; i < NB; i++)
        for (j = i + 1; j < NB; j++)
            if (sim->pair_t[i][j] < n.t) {
                n.t = sim->pair_t[i][j];
                n.kind = K_PAIR;
                n.i = i;
                n.j = j;
            }
    for (i = 0; i < NB; i++)
        if (sim->cush[i].t < n.t) {
            n.t = sim->cush[i].t;
            n.kind = K_CUSH;
            n.i = i;
            n.j = sim->cush[i].idx;
        }
    for (i = 0; i < NB; i++) {
        const seg_t *s = cur_seg(sim, i);

        if (motion_moving(s->motion) && s->t_end < n.t) {
            n.t = s->t_end;
            n.kind = K_TRANS;
            n.i = i;
            n.j = -1;
        }
    }
    return n;
}

/* ---- resolution ------------------------------------------------------------- */

typedef struct {
    cr_event_t *ev;
    int cap, n;
} out_t;

static cr_event_t *emit(out_t *o, cr_event_type_t type, double t)
{
    cr_event_t *e = &o->ev[o->n++];

    cr_event_init(e, type);
    e->t = t;
    e->shot = -1;
    return e;
}

/* Takes up a ball's cloth slip at once: the state the cloth friction would
 * leave when the ball starts to roll (v - 2/7 u, [AL] TP A.4). Used for
 * pushes, whose sustained contact has no polynomial motion. */
static void kin_roll(const cr_sim_t *sim, kin_t *k)
{
    const double R = sim->R;
    double u0 = k->v[0] - R * k->w[1], u1 = k->v[1] + R * k->w[0];

    k->v[0] -= 2.0 / 7.0 * u0;
    k->v[1] -= 2.0 / 7.0 * u1;
    k->w[0] = -k->v[1] / R;
    k->w[1] = k->v[0] / R;
}

/* Counts a push on ball b at t; true when the ball is wedged (pushed
 * JAM_PUSHES times in a row): its translation is then stopped. A ball
 * squeezed between balls that cannot give way would otherwise trade
 * ever smaller pushes with them at one instant. */
static bool push_jammed(cr_sim_t *sim, int b, double t)
{
    if (t - sim->push_last[b] <= JAM_WINDOW)
        sim->push_run[b]++;
    else
        sim->push_run[b] = 1;
    sim->push_last[b] = t;
    return sim->push_run[b] > JAM_PUSHES;
}

static void kin_stop(kin_t *k)
{
    k->v[0] = k->v[1] = k->w[0] = k->w[1] = 0.0;
}

/* Ball-ball collision ([AL] TP A.14, in 3-D impulse form): normal impulse
 * (1 + e)/2 m vn for equal masses; friction impulse at the contact point
 * opposing the slip s there, at most mu_b times the normal impulse and at
 * most m |s| / 7, which stops the slip (a tangential impulse P changes the
 * slip by 7 P / m: 1 + 5/2 for each ball). The vertical part of the
 * friction goes into the slate. A push (not fresh: the balls never came
 * apart) takes up both balls' cloth slip before and after the impulse (they
 * leave rolling), and sets them exactly touching again (they overlapped by
 * PEN_MM). */
static int resolve_pair(cr_sim_t *sim, out_t *o, int i, int j, double t, bool fresh)
{
    const double R = sim->R, e = sim->prm.ball_restitution;
    kin_t ki, kj;
    double n[3], d, vn, jn, ri[3], rj[3], ci[3], cj[3], s[3], sn;
    cr_event_t *ev;
    int a, b, m, rc;

    if ((fresh && o->n >= o->cap) || sim->n_segs + 2 > sim->cap_segs)
        return CR_ERR_FULL;
    sim->now = t;
    ball_kin(sim, i, t, &ki);
    ball_kin(sim, j, t, &kj);
    if (!fresh) {
        kin_roll(sim, &ki);
        kin_roll(sim, &kj);
    }
    n[0] = kj.p[0] - ki.p[0];
    n[1] = kj.p[1] - ki.p[1];
    n[2] = 0.0;
    d = norm2(n);
    n[0] /= d;
    n[1] /= d;
    vn = (ki.v[0] - kj.v[0]) * n[0] + (ki.v[1] - kj.v[1]) * n[1];
    /* who moved into whom, before the impulse */
    if (i == CR_BALL_CUE || j == CR_BALL_CUE) {
        a = CR_BALL_CUE;
        b = i == CR_BALL_CUE ? j : i;
    } else if (dot2(ki.v, n) >= -dot2(kj.v, n)) {
        a = i;
        b = j;
    } else {
        a = j;
        b = i;
    }
    if (vn > 0.0) {
        jn = 0.5 * (1.0 + e) * vn; /* impulse per unit mass */
        ki.v[0] -= jn * n[0];
        ki.v[1] -= jn * n[1];
        kj.v[0] += jn * n[0];
        kj.v[1] += jn * n[1];
        ri[0] = R * n[0];
        ri[1] = R * n[1];
        ri[2] = 0.0;
        rj[0] = -ri[0];
        rj[1] = -ri[1];
        rj[2] = 0.0;
        cross3(ki.w, ri, ci);
        cross3(kj.w, rj, cj);
        s[0] = ki.v[0] + ci[0] - kj.v[0] - cj[0];
        s[1] = ki.v[1] + ci[1] - kj.v[1] - cj[1];
        s[2] = ci[2] - cj[2];
        sn = dot3(s, n);
        s[0] -= sn * n[0];
        s[1] -= sn * n[1];
        sn = sqrt(dot3(s, s));
        if (sn > 0.0) {
            const cr_phys_params_t *pp = &sim->prm;
            double mu = pp->ball_friction_a + pp->ball_friction_b * exp(-pp->ball_friction_c * sn / 1000.0);
            double pf = fmin(mu * jn, sn / 7.0), f[3], dw[3];

            f[0] = -pf * s[0] / sn; /* impulse per unit mass on ball i */
            f[1] = -pf * s[1] / sn;
            f[2] = -pf * s[2] / sn;
            ki.v[0] += f[0];
            ki.v[1] += f[1];
            kj.v[0] -= f[0];
            kj.v[1] -= f[1];
            cross3(ri, f, dw); /* equal for both balls: rj x (-f) = ri x f */
            for (m = 0; m < 3; m++) {
                ki.w[m] += 2.5 / (R * R) * dw[m];
                kj.w[m] += 2.5 / (R * R) * dw[m];
            }
        }
    }
    if (!fresh) { /* a push: both leave rolling, exactly touching */
        kin_roll(sim, &ki);
        kin_roll(sim, &kj);
        if (push_jammed(sim, i, t))
            kin_stop(&ki);
        if (push_jammed(sim, j, t))
            kin_stop(&kj);
        if (d < 2.0 * R) {
            /* a ball left at rest takes no share: resting balls are not
             * checked against each other, so it must not drift */
            bool mi = norm2(ki.v) > V_SETTLE, mj = norm2(kj.v) > V_SETTLE;
            double over = 2.0 * R - d, si = mi == mj ? 0.5 : (mi ? 1.0 : 0.0);

            for (m = 0; m < 2; m++) {
                ki.p[m] -= si * over * n[m];
                kj.p[m] += (1.0 - si) * over * n[m];
            }
        }
    }
    if (fresh) {
        ev = emit(o, CR_EV_COLLISION, t);
        ev->a = a;
        ev->b = b;
        ev->x = 0.5 * (ki.p[0] + kj.p[0]);
        ev->y = 0.5 * (ki.p[1] + kj.p[1]);
    }
    sim->pair_touch[i][j] = true;
    rc = push_seg(sim, i, t, &ki, CR_MOTION_COUNT, CR_POCKET_NONE);
    if (rc == CR_OK)
        rc = push_seg(sim, j, t, &kj, CR_MOTION_COUNT, CR_POCKET_NONE);
    return rc;
}

static double cushion_restitution(const cr_phys_params_t *p, double vn_mm_s)
{
    double v = fmin(fmax(vn_mm_s / 1000.0, 0.0), p->cushion_e_vmax_m_s);
    double e = p->cushion_e0 + v * (p->cushion_e1 + v * p->cushion_e2);

    return fmin(fmax(e, 0.0), 1.0);
}

/* Ball-cushion impulse ([HAN]): the contact point r = R N sits at the nose
 * height, N = (cos q nc, sin q) with nc the horizontal normal into the
 * cushion and sin q = h/R - 1. Normal impulse (1 + e) m (v.N) along -N;
 * friction at the contact opposing the slip s, at most mu_c times the
 * normal impulse and at most 2 m |s| / 7 (which stops the slip). Only the
 * horizontal part of the impulse changes v (the slate takes the rest); the
 * whole impulse turns the ball about its centre. */
static void cushion_impulse(const cr_sim_t *sim, kin_t *k, const double nc[2])
{
    const double R = sim->R, sq = sim->sin_nose, cq = sim->cos_nose;
    double N[3] = {cq * nc[0], cq * nc[1], sq}, r[3], vh, vN, e, pn, c[3], s[3], sn, J[3], dw[3], v3[3];
    int i;

    vh = dot2(k->v, nc);
    if (!(vh > 0.0))
        return;
    e = cushion_restitution(&sim->prm, vh);
    vN = vh * cq;
    pn = (1.0 + e) * vN; /* per unit mass */
    for (i = 0; i < 3; i++) {
        r[i] = R * N[i];
        J[i] = -pn * N[i];
    }
    v3[0] = k->v[0];
    v3[1] = k->v[1];
    v3[2] = 0.0;
    cross3(k->w, r, c);
    for (i = 0; i < 3; i++)
        c[i] += v3[i];
    sn = dot3(c, N);
    for (i = 0; i < 3; i++)
        s[i] = c[i] - sn * N[i];
    sn = sqrt(dot3(s, s));
    if (sn > 0.0) {
        double pf = fmin(sim->prm.cushion_friction * pn, 2.0 * sn / 7.0);

        for (i = 0; i < 3; i++)
            J[i] -= pf * s[i] / sn;
    }
    k->v[0] += J[0];
    k->v[1] += J[1];
    cross3(r, J, dw);
    for (i = 0; i < 3; i++)
        k->w[i] += 2.5 / (R * R) * dw[i];
    /* never left pressing into the cushion */
    vh = dot2(k->v, nc);
    if (vh > 0.0) {
        k->v[0] -= vh * nc[0];
        k->v[1] -= vh * nc[1];
    }
}

static int resolve_cushion(cr_sim_t *sim, out_t *o, int b, const hit_t *hit)
{
    const int kind = hit->kind, idx = hit->idx;
    const double t = hit->t;
    kin_t k;
    cr_event_t *ev;
    double nc[2], vh;
    cr_rail_t rail;
    bool leave;

    if (sim->n_segs + 1 > sim->cap_segs)
        return CR_ERR_FULL;
    ball_kin(sim, b, t, &k);
    if (kind == OBJ_POCKET) {
        if (o->n >= o->cap)
            return CR_ERR_FULL;
        sim->now = t;
        ev = emit(o, CR_EV_POCKET, t);
        ev->ball = b;
        ev->pocket = (cr_pocket_t)idx;
        ev->x = k.p[0];
        ev->y = k.p[1];
        return push_seg(sim, b, t, &k, CR_MOTION_POCKETED, (cr_pocket_t)idx);
    }
    if (kind == OBJ_LINE) {
        nc[0] = -sim->lines[idx].n[0];
        nc[1] = -sim->lines[idx].n[1];
        rail = sim->lines[idx].rail;
    } else {
        double d;

        nc[0] = sim->points[idx].q[0] - k.p[0];
        nc[1] = sim->points[idx].q[1] - k.p[1];
        d = norm2(nc);
        nc[0] /= d;
        nc[1] /= d;
        rail = sim->points[idx].rail;
    }
    if (!hit->fresh) { /* a push: slip taken up, impulse, back to touching */
        double gap;

        sim->now = t;
        sim->cush_touch[b][kind == OBJ_LINE ? idx : MAX_LINES + idx] = true;
        kin_roll(sim, &k);
        cushion_impulse(sim, &k, nc);
        kin_roll(sim, &k);
        if (push_jammed(sim, b, t))
            kin_stop(&k);
        vh = dot2(k.v, nc);
        if (vh > 0.0) { /* rolling on must not press in */
            k.v[0] -= vh * nc[0];
            k.v[1] -= vh * nc[1];
            k.w[0] = -k.v[1] / sim->R;
            k.w[1] = k.v[0] / sim->R;
        }
        if (kind == OBJ_LINE) {
            const line_t *l = &sim->lines[idx];

            gap = (k.p[0] - l->a[0]) * l->n[0] + (k.p[1] - l->a[1]) * l->n[1] - sim->R;
        } else {
            gap = hypot(k.p[0] - sim->points[idx].q[0], k.p[1] - sim->points[idx].q[1]) - sim->R;
        }
        if (gap < 0.0) {
            k.p[0] += gap * nc[0];
            k.p[1] += gap * nc[1];
        }
        return push_seg(sim, b, t, &k, CR_MOTION_COUNT, CR_POCKET_NONE);
    }
    vh = dot2(k.v, nc);
    leave = sim->leave_left[b] == 1 || vh > sim->prm.off_table_speed_mm_s;
    if (o->n + (leave ? 2 : 1) > o->cap)
        return CR_ERR_FULL;
    sim->now = t;
    sim->cush_touch[b][kind == OBJ_LINE ? idx : MAX_LINES + idx] = true;
    if (sim->leave_left[b] > 0)
        sim->leave_left[b]--;
    ev = emit(o, CR_EV_CUSHION, t);
    ev->ball = b;
    ev->rail = rail;
    ev->x = k.p[0];
    ev->y = k.p[1];
    if (leave) {
        ev = emit(o, CR_EV_OFF_TABLE, t);
        ev->ball = b;
        ev->x = k.p[0];
        ev->y = k.p[1];
        return push_seg(sim, b, t, &k, CR_MOTION_OFF_TABLE, CR_POCKET_NONE);
    }
    cushion_impulse(sim, &k, nc);
    return push_seg(sim, b, t, &k, CR_MOTION_COUNT, CR_POCKET_NONE);
}

/* Sliding -> rolling, rolling -> spinning or stationary, spinning ->
 * stationary, at the segment's analytic end. */
static int resolve_transition(cr_sim_t *sim, int b, double t)
{
    const seg_t *s = cur_seg(sim, b);
    kin_t k;

    if (sim->n_segs + 1 > sim->cap_segs)
        return CR_ERR_FULL;
    sim->now = t;
    seg_eval(s, t, &k);
    switch (s->motion) {
    case CR_MOTION_SLIDING: /* the slip is gone: roll exactly */
        k.w[0] = -k.v[1] / sim->R;
        k.w[1] = k.v[0] / sim->R;
        break;
    case CR_MOTION_ROLLING:
        k.v[0] = k.v[1] = k.w[0] = k.w[1] = 0.0;
        break;
    default:
        k.v[0] = k.v[1] = k.w[0] = k.w[1] = k.w[2] = 0.0;
        break;
    }
    return push_seg(sim, b, t, &k, CR_MOTION_COUNT, CR_POCKET_NONE);
}

/* ---- public API ------------------------------------------------------------ */

static bool params_valid(const cr_phys_params_t *p)
{
    const double v[] = {p->ball_mass_kg, p->gravity_mm_s2, p->mu_slide, p->mu_roll, p->mu_spin,
                        p->ball_restitution, p->ball_friction_a, p->ball_friction_b, p->ball_friction_c,
                        p->cushion_e0, p->cushion_e1,
                        p->cushion_e2, p->cushion_e_vmax_m_s, p->cushion_friction, p->nose_height_ratio,
                        p->corner_cut_deg, p->side_cut_deg, p->corner_jaw_mm, p->side_jaw_mm,
                        p->corner_capture_mm, p->side_capture_mm};
    size_t i;

    for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        if (!isfinite(v[i]))
            return false;
    return p->ball_mass_kg > 0.0 && p->gravity_mm_s2 > 0.0 && p->mu_slide > 0.0 && p->mu_roll > 0.0 &&
           p->mu_spin > 0.0 && p->ball_restitution >= 0.0 && p->ball_restitution <= 1.0 &&
           p->ball_friction_a >= 0.0 && p->ball_friction_b >= 0.0 && p->ball_friction_c >= 0.0 &&
           p->cushion_e_vmax_m_s >= 0.0 && p->cushion_friction >= 0.0 &&
           p->nose_height_ratio > 0.5 && p->nose_height_ratio < 1.0 && p->corner_cut_deg > 90.0 &&
           p->corner_cut_deg < 180.0 && p->side_cut_deg > 90.0 && p->side_cut_deg < 180.0 &&
           p->corner_jaw_mm > 0.0 && p->side_jaw_mm > 0.0 && p->corner_capture_mm >= 0.0 &&
           p->corner_capture_mm < p->corner_jaw_mm && p->side_capture_mm >= 0.0 &&
           p->side_capture_mm < p->side_jaw_mm && !isnan(p->off_table_speed_mm_s) &&
           p->off_table_speed_mm_s > 0.0 && p->max_segments >= 64;
}

int cr_sim_create(const cr_table_t *t, const cr_phys_params_t *p, cr_sim_t **out)
{
    cr_phys_params_t defaults;
    cr_sim_t *sim;
    double R;
    int b;

    if (!t || !out)
        return CR_ERR_INVALID;
    if (!p) {
        cr_phys_params_defaults(&defaults);
        p = &defaults;
    }
    R = t->ball_radius_mm;
    /* Pocket mouths wider than a ball; every nose segment longer than one. */
    if (!isfinite(t->length_mm) || !isfinite(t->width_mm) || !isfinite(R) || !(R > 0.0) ||
        !(t->corner_mouth_mm > 2.0 * R) || !(t->side_mouth_mm > 2.0 * R) ||
        !(t->width_mm - sqrt(2.0) * t->corner_mouth_mm > 2.0 * R) ||
        !(t->length_mm / 2.0 - t->side_mouth_mm / 2.0 - t->corner_mouth_mm / sqrt(2.0) > 2.0 * R) ||
        !params_valid(p))
        return CR_ERR_INVALID;
    sim = calloc(1, sizeof(*sim));
    if (!sim)
        goto fail_sim;
    sim->segs = calloc((size_t)p->max_segments, sizeof(seg_t));
    if (!sim->segs)
        goto fail_segs;
    sim->table = *t;
    sim->prm = *p;
    sim->R = R;
    sim->sin_nose = 2.0 * p->nose_height_ratio - 1.0; /* (h - R) / R with h = ratio * 2R */
    sim->cos_nose = sqrt(1.0 - sim->sin_nose * sim->sin_nose);
    sim->spin_dec = 2.5 * p->mu_spin * p->gravity_mm_s2 / R; /* [LG] */
    sim->cap_segs = p->max_segments;
    build_geometry(sim);
    for (b = 0; b < NB; b++) {
        sim->push_last[b] = -INFINITY;
        push_seg(sim, b, 0.0, NULL, CR_MOTION_ABSENT, CR_POCKET_NONE);
    }
    refresh(sim);
    *out = sim;
    return CR_OK;

fail_segs:
    free(sim);
fail_sim:
    return CR_ERR_NOMEM;
}

void cr_sim_destroy(cr_sim_t *sim)
{
    if (!sim)
        return;
    free(sim->segs);
    free(sim);
}

double cr_sim_time(const cr_sim_t *sim)
{
    return sim ? sim->now : NAN;
}

static bool all_at_rest(const cr_sim_t *sim)
{
    int b;

    for (b = 0; b < NB; b++)
        if (motion_moving(cur_seg(sim, b)->motion))
            return false;
    return true;
}

int cr_sim_place(cr_sim_t *sim, const cr_ball_pos_t *balls, int n)
{
    const cr_ball_pos_t *at[NB] = {NULL};
    int i, j, b;

    if (!sim || n < 0 || n > NB || (n > 0 && !balls))
        return CR_ERR_INVALID;
    for (i = 0; i < n; i++) {
        double p[2] = {balls[i].x, balls[i].y};

        if (!cr_ball_id_valid(balls[i].id) || at[balls[i].id] || !position_fits(sim, p))
            return CR_ERR_INVALID;
        at[balls[i].id] = &balls[i];
        for (j = 0; j < i; j++)
            if (hypot(balls[i].x - balls[j].x, balls[i].y - balls[j].y) < 2.0 * sim->R - PLACE_TOL_MM)
                return CR_ERR_INVALID;
    }
    if (sim->n_segs + NB > sim->cap_segs)
        return CR_ERR_FULL;
    for (b = 0; b < NB; b++) {
        kin_t k;

        memset(&k, 0, sizeof(k));
        sim->leave_left[b] = 0;
        if (at[b]) {
            k.p[0] = at[b]->x;
            k.p[1] = at[b]->y;
            push_seg(sim, b, sim->now, &k, CR_MOTION_STATIONARY, CR_POCKET_NONE);
        } else {
            push_seg(sim, b, sim->now, NULL, CR_MOTION_ABSENT, CR_POCKET_NONE);
        }
    }
    touch_from_positions(sim, -1);
    return CR_OK;
}

int cr_sim_place_ball(cr_sim_t *sim, int id, double x_mm, double y_mm)
{
    double p[2] = {x_mm, y_mm};
    kin_t k;
    int b;

    if (!sim || !cr_ball_id_valid(id) || !position_fits(sim, p))
        return CR_ERR_INVALID;
    for (b = 0; b < NB; b++) {
        if (b == id || !motion_on_table(cur_seg(sim, b)->motion))
            continue;
        ball_kin(sim, b, sim->now, &k);
        if (hypot(k.p[0] - x_mm, k.p[1] - y_mm) < 2.0 * sim->R - PLACE_TOL_MM)
            return CR_ERR_INVALID;
    }
    memset(&k, 0, sizeof(k));
    k.p[0] = x_mm;
    k.p[1] = y_mm;
    b = push_seg(sim, id, sim->now, &k, CR_MOTION_STATIONARY, CR_POCKET_NONE);
    if (b == CR_OK)
        touch_from_positions(sim, id);
    return b;
}

int cr_sim_remove_ball(cr_sim_t *sim, int id)
{
    if (!sim || !cr_ball_id_valid(id))
        return CR_ERR_INVALID;
    return push_seg(sim, id, sim->now, NULL, CR_MOTION_ABSENT, CR_POCKET_NONE);
}

/* [LG] cue model with a level cue: the impulse J = m v0 h acts at the tip
 * contact r = -c h + a s + b z (s the shooter's right, c = sqrt(R^2 - a^2 -
 * b^2)): dv = v0 h, dw = r x J / I = 5 v0 / (2 R) (-b hy, b hx, a) with a,
 * b as fractions of R. */
int cr_sim_strike(cr_sim_t *sim, int ball, double speed_mm_s, double heading_rad, double a, double b)
{
    double hx, hy, f;
    kin_t k;

    if (!sim || !cr_ball_id_valid(ball) || !(speed_mm_s > 0.0) || !(speed_mm_s <= MAX_SPEED) ||
        !isfinite(heading_rad) || !(fabs(a) <= MAX_TIP) || !(fabs(b) <= MAX_TIP))
        return CR_ERR_INVALID;
    if (!motion_on_table(cur_seg(sim, ball)->motion))
        return CR_ERR_INVALID;
    ball_kin(sim, ball, sim->now, &k);
    hx = cos(heading_rad);
    hy = sin(heading_rad);
    f = 2.5 * speed_mm_s / sim->R;
    k.v[0] += speed_mm_s * hx;
    k.v[1] += speed_mm_s * hy;
    k.w[0] += -f * b * hy;
    k.w[1] += f * b * hx;
    k.w[2] += f * a;
    return push_seg(sim, ball, sim->now, &k, CR_MOTION_COUNT, CR_POCKET_NONE);
}

int cr_sim_wait(cr_sim_t *sim, double t)
{
    if (!sim || !isfinite(t) || t < sim->now || !all_at_rest(sim))
        return CR_ERR_INVALID;
    sim->now = t;
    return CR_OK;
}

int cr_sim_nudge(cr_sim_t *sim, double t, int ball, double vx_mm_s, double vy_mm_s)
{
    kin_t k;

    if (!sim || !cr_ball_id_valid(ball) || !isfinite(t) || t < sim->now || !isfinite(vx_mm_s) ||
        !isfinite(vy_mm_s) || hypot(vx_mm_s, vy_mm_s) > MAX_SPEED)
        return CR_ERR_INVALID;
    if (!motion_on_table(cur_seg(sim, ball)->motion) || (t > sim->now && !all_at_rest(sim)))
        return CR_ERR_INVALID;
    if (sim->n_segs >= sim->cap_segs)
        return CR_ERR_FULL;
    sim->now = t;
    ball_kin(sim, ball, t, &k);
    k.v[0] = vx_mm_s;
    k.v[1] = vy_mm_s;
    return push_seg(sim, ball, t, &k, CR_MOTION_COUNT, CR_POCKET_NONE);
}

int cr_sim_leave_at_contact(cr_sim_t *sim, int ball, int nth)
{
    if (!sim || !cr_ball_id_valid(ball) || nth < 0)
        return CR_ERR_INVALID;
    sim->leave_left[ball] = nth;
    return CR_OK;
}

int cr_sim_run(cr_sim_t *sim, double t_max, cr_event_t *events, int cap, int *n_events)
{
    out_t o;
    int rc = CR_OK;

    if (n_events)
        *n_events = 0;
    if (!sim || isnan(t_max) || t_max < sim->now || cap < 0 || (cap > 0 && !events))
        return CR_ERR_INVALID;
    o.ev = events;
    o.cap = cap;
    o.n = 0;
    for (;;) {
        next_t nx;

        refresh(sim);
        nx = next_event(sim);
        if (nx.kind == K_NONE)
            break; /* every ball at rest */
        if (nx.t > t_max) {
            sim->now = t_max;
            break;
        }
        switch (nx.kind) {
        case K_PAIR:
            rc = resolve_pair(sim, &o, nx.i, nx.j, nx.t, sim->pair_fresh[nx.i][nx.j]);
            break;
        case K_CUSH:
            rc = resolve_cushion(sim, &o, nx.i, &sim->cush[nx.i]);
            break;
        default:
            rc = resolve_transition(sim, nx.i, nx.t);
            break;
        }
        if (rc != CR_OK)
            break;
    }
    if (n_events)
        *n_events = o.n;
    return rc;
}

int cr_sim_time_all_at_rest(const cr_sim_t *sim, double *t)
{
    double last = -INFINITY;
    int b;

    if (!sim || !t || !all_at_rest(sim))
        return CR_ERR_INVALID;
    for (b = 0; b < NB; b++)
        last = fmax(last, cur_seg(sim, b)->t0);
    *t = last;
    return CR_OK;
}

/* The last record with t0 <= t. */
static int record_at(const cr_sim_t *sim, double t)
{
    int lo = 0, hi = sim->n_segs - 1;

    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;

        if (sim->segs[mid].t0 <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The last record with t0 < t, or -1. */
static int record_before(const cr_sim_t *sim, double t)
{
    int lo = -1, hi = sim->n_segs - 1;

    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;

        if (sim->segs[mid].t0 < t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int cr_sim_state_at(const cr_sim_t *sim, double t, cr_sim_ball_t out[CR_NUM_BALLS])
{
    const seg_t *rec;
    int b;

    if (!sim || !out || !(t >= 0.0) || !isfinite(t) || (t > sim->now && !all_at_rest(sim)))
        return CR_ERR_INVALID;
    rec = &sim->segs[record_at(sim, t)];
    for (b = 0; b < NB; b++) {
        const seg_t *s = &sim->segs[rec->cur[b]];
        cr_sim_ball_t *o = &out[b];
        kin_t k;

        seg_eval(s, t, &k);
        o->id = b;
        o->motion = s->motion;
        o->on_table = motion_on_table(s->motion);
        o->pocket = s->pocket;
        o->x = k.p[0];
        o->y = k.p[1];
        o->vx = k.v[0];
        o->vy = k.v[1];
        o->wx = k.w[0];
        o->wy = k.w[1];
        o->wz = k.w[2];
    }
    return CR_OK;
}

double cr_sim_energy(const cr_sim_t *sim, double t)
{
    cr_sim_ball_t st[NB];
    double e = 0.0, R;
    int b;

    if (cr_sim_state_at(sim, t, st) != CR_OK)
        return NAN;
    R = sim->R;
    for (b = 0; b < NB; b++) {
        if (!st[b].on_table)
            continue;
        e += st[b].vx * st[b].vx + st[b].vy * st[b].vy +
             0.4 * R * R * (st[b].wx * st[b].wx + st[b].wy * st[b].wy + st[b].wz * st[b].wz);
    }
    return 0.5 * sim->prm.ball_mass_kg * e * 1e-6; /* (mm/s)^2 -> (m/s)^2 */
}

int cr_sim_transitions(const cr_sim_t *sim, double t0, double t1, cr_sim_transition_t *out, int cap, int *n)
{
    int i, count = 0;

    if (n)
        *n = 0;
    if (!sim || !n || cap < 0 || (cap > 0 && !out) || isnan(t0) || isnan(t1))
        return CR_ERR_INVALID;
    /* the first record with t0 >= t0, after the initial absent ones */
    i = t0 > 0.0 ? record_before(sim, t0) + 1 : 0;
    if (i < NB)
        i = NB;
    for (; i < sim->n_segs && sim->segs[i].t0 <= t1; i++) {
        const seg_t *s = &sim->segs[i];
        cr_motion_t from = sim->segs[sim->segs[i - 1].cur[s->ball]].motion;

        if (from == s->motion && !motion_moving(s->motion))
            continue;
        if (count >= cap) {
            *n = count;
            return CR_ERR_FULL;
        }
        out[count].t = s->t0;
        out[count].ball = s->ball;
        out[count].from = from;
        out[count].to = s->motion;
        count++;
    }
    *n = count;
    return CR_OK;
}
