/*
 * cr_track_synth.c - synthetic detections from simulator truth, for the
 * tracker's tests and bench (cr_track.h). Deterministic for a seed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cr_track.h"

#define SYN_PHANTOMS 4
#define SYN_PI 3.14159265358979323846

struct cr_track_synth {
    cr_table_t table;
    cr_track_synth_params_t p;
    cr_track_truth_t *truth; /* n * 16 */
    uint8_t *hide;           /* n * 16: 1 = occluded */
    int n, next;
    uint64_t rng;
    double theta[CR_NUM_BALLS]; /* stripe roll orientation */
    double omega[CR_NUM_BALLS]; /* how much rolling turns the band into view */
    double bias[CR_NUM_BALLS];  /* persistent lighting bias toward the confusable colour */
    double vnoise[CR_NUM_BALLS][CR_COLOUR_COUNT]; /* colour noise of the present view */
    double vx0[CR_NUM_BALLS], vy0[CR_NUM_BALLS];  /* where that view began */
    bool vset[CR_NUM_BALLS];
    struct {
        int left;
        double x, y;
        int colour;
    } ph[SYN_PHANTOMS];
};

static const int syn_colour[CR_NUM_BALLS] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7};
/* the colour each class is most easily taken for */
static const int syn_confuse[CR_COLOUR_COUNT] = {CR_COLOUR_YELLOW, CR_COLOUR_ORANGE, CR_COLOUR_PURPLE,
                                                 CR_COLOUR_MAROON, CR_COLOUR_BLUE,   CR_COLOUR_YELLOW,
                                                 CR_COLOUR_BLUE,   CR_COLOUR_RED,    CR_COLOUR_MAROON};

void cr_track_synth_params_defaults(cr_track_synth_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->fps = 60.0;
    p->sigma_rest_mm = 0.5;
    p->sigma_move_mm = 2.0;
    p->drop_p = 0.01;
    p->phantom_p = 0.01;
    p->double_p = 0.003;
    p->colour_noise = 0.8;
    p->confuse = -1.0;
    p->colour_bias = 0.4;
    p->colour_view_share = 0.0;
    p->stroke_occlusion = true;
    p->hand_occlusion = true;
}

static uint64_t syn_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double syn_u(uint64_t *s)
{
    return (double)(syn_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static double syn_n(uint64_t *s)
{
    double u1 = syn_u(s), u2 = syn_u(s);

    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * SYN_PI * u2);
}

static int syn_int(uint64_t *s, int lo, int hi)
{
    return lo + (int)(syn_u(s) * (double)(hi - lo + 1));
}

static const cr_track_truth_t *tb(const cr_track_synth_t *s, int k, int id)
{
    return &s->truth[(size_t)k * CR_NUM_BALLS + (size_t)id];
}

/* Hides ball id in frames a..b while it stays within zone_mm of where it
 * was at frame k0 (an arm or hand covers a place, not a ball; zone_mm <= 0:
 * wherever it is). */
static void hide_run(cr_track_synth_t *s, int id, int a, int b, int k0, double zone_mm)
{
    const cr_track_truth_t *c;

    if (a < 0)
        a = 0;
    if (b >= s->n)
        b = s->n - 1;
    if (k0 < 0)
        k0 = 0;
    if (k0 >= s->n)
        k0 = s->n - 1;
    c = &s->truth[(size_t)k0 * CR_NUM_BALLS + (size_t)id];
    for (int k = a; k <= b; k++) {
        const cr_track_truth_t *t = &s->truth[(size_t)k * CR_NUM_BALLS + (size_t)id];

        if (zone_mm <= 0 || hypot(t->x - c->x, t->y - c->y) < zone_mm)
            s->hide[(size_t)k * CR_NUM_BALLS + (size_t)id] = 1;
    }
}

static double speed_at(const cr_track_synth_t *s, int k, int id)
{
    int a = k > 0 ? k - 1 : k, b = k + 1 < s->n ? k + 1 : k;
    const cr_track_truth_t *pa = tb(s, a, id), *pb = tb(s, b, id);

    if (b == a || !pa->on_table || !pb->on_table)
        return 0;
    return hypot(pb->x - pa->x, pb->y - pa->y) * s->p.fps / (double)(b - a);
}

/* Occlusions planned from the whole sequence: the cue and arm at strokes,
 * the bridge hand next to the cue ball, the hand placing a ball. */
static void plan(cr_track_synth_t *s)
{
    double R = s->table.ball_radius_mm;
    int rest = 0;

    for (int k = 1; k + 2 < s->n; k++) {
        const cr_track_truth_t *c0 = tb(s, k - 1, 0), *c1 = tb(s, k, 0), *c2 = tb(s, k + 2, 0);
        double mv = hypot(c1->x - c0->x, c1->y - c0->y);

        if (!c0->on_table || !c1->on_table) {
            rest = 0;
            continue;
        }
        if (mv < 0.01) {
            rest++;
            continue;
        }
        if (rest >= 10 && mv < 3 * R && s->p.stroke_occlusion) {
            /* a stroke at k: behind the cue ball lie the cue and the arm */
            double dx = c2->x - c1->x, dy = c2->y - c1->y, L = hypot(dx, dy), best = 300.0;
            int nearest = -1;

            if (L > 0) {
                dx /= L;
                dy /= L;
            }
            for (int id = 1; id < CR_NUM_BALLS; id++) {
                const cr_track_truth_t *b = tb(s, k - 1, id);
                double rx, ry, along, lat, dist;

                if (!b->on_table)
                    continue;
                rx = b->x - c0->x;
                ry = b->y - c0->y;
                along = rx * dx + ry * dy;
                lat = fabs(-rx * dy + ry * dx);
                dist = hypot(rx, ry);
                if (along < -2 * R && along > -900.0 && lat < 90.0)
                    hide_run(s, id, k - syn_int(&s->rng, 5, 40), k + syn_int(&s->rng, 5, 20), k - 1, 2 * R);
                else if (dist < best) {
                    best = dist;
                    nearest = id;
                }
            }
            if (nearest >= 0 && syn_u(&s->rng) < 0.5) /* the bridge hand */
                hide_run(s, nearest, k - syn_int(&s->rng, 10, 40), k + syn_int(&s->rng, 0, 20), k - 1, 2 * R);
            if (syn_u(&s->rng) < 0.3) /* the cue tip and hand right at the cue ball */
                hide_run(s, 0, k - syn_int(&s->rng, 10, 30), k - 3, k - 1, 2 * R);
        }
        rest = 0;
    }
    if (!s->p.hand_occlusion)
        return;
    for (int id = 0; id < CR_NUM_BALLS; id++) {
        for (int k = 1; k < s->n; k++) {
            const cr_track_truth_t *a = tb(s, k - 1, id), *b = tb(s, k, id);

            if (!b->on_table)
                continue;
            if (!a->on_table) { /* put on the table by hand (spotted, placed, re-racked) */
                hide_run(s, id, k, k + syn_int(&s->rng, 3, 15), k, 2 * R);
            } else if (hypot(b->x - a->x, b->y - a->y) > 6 * R) { /* lifted and put down elsewhere */
                {
                    int a0 = k - syn_int(&s->rng, 15, 45), b0 = k + syn_int(&s->rng, 3, 15);

                    hide_run(s, id, a0, k - 1, k - 1, 2 * R); /* the hand lifts it */
                    hide_run(s, id, k, b0, k, 2 * R);         /* and puts it down */
                }
            }
        }
    }
}

int cr_track_synth_create(const cr_table_t *t, const cr_track_synth_params_t *p, uint64_t seed,
                          const cr_track_truth_t *truth, int n_frames, cr_track_synth_t **out)
{
    cr_track_synth_t *s;
    cr_track_synth_params_t d;

    if (!t || !truth || !out || n_frames < 1)
        return CR_ERR_INVALID;
    if (!p) {
        cr_track_synth_params_defaults(&d);
        p = &d;
    }
    if (!(p->fps > 0) || !(p->colour_view_share >= 0 && p->colour_view_share <= 1))
        return CR_ERR_INVALID;
    s = calloc(1, sizeof(*s));
    if (!s)
        return CR_ERR_NOMEM;
    s->truth = malloc(sizeof(cr_track_truth_t) * (size_t)n_frames * CR_NUM_BALLS);
    s->hide = calloc((size_t)n_frames * CR_NUM_BALLS, 1);
    if (!s->truth || !s->hide) {
        cr_track_synth_destroy(s);
        return CR_ERR_NOMEM;
    }
    memcpy(s->truth, truth, sizeof(cr_track_truth_t) * (size_t)n_frames * CR_NUM_BALLS);
    s->table = *t;
    s->p = *p;
    s->n = n_frames;
    s->rng = seed * 0x2545F4914F6CDD1Dull + 0x1234567ull;
    for (int id = 0; id < CR_NUM_BALLS; id++) {
        s->theta[id] = syn_u(&s->rng) * 2 * SYN_PI;
        s->omega[id] = 0.1 + 0.9 * syn_u(&s->rng);
        s->bias[id] = p->colour_bias * syn_n(&s->rng);
    }
    plan(s);
    *out = s;
    return CR_OK;
}

void cr_track_synth_destroy(cr_track_synth_t *s)
{
    if (!s)
        return;
    free(s->truth);
    free(s->hide);
    free(s);
}

/* Colour probabilities of a ball of class c; blur flattens them. vnoise
 * (may be NULL) is the noise of the present view, which the frame's own
 * noise is added to. */
static void syn_colour_p(cr_track_synth_t *s, int c, double bias, double blur, const double *vnoise, float *out)
{
    double l[CR_COLOUR_COUNT], mx = -1e300, sum = 0, flat = 1.0 / (1.0 + blur);
    double fsd = s->p.colour_noise * (vnoise ? sqrt(1.0 - s->p.colour_view_share) : 1.0);

    for (int j = 0; j < CR_COLOUR_COUNT; j++)
        l[j] = fsd * syn_n(&s->rng) + (vnoise ? vnoise[j] : 0.0);
    l[c] += 3.0;
    l[syn_confuse[c]] += 3.0 + s->p.confuse + bias;
    for (int j = 0; j < CR_COLOUR_COUNT; j++) {
        l[j] *= flat;
        if (l[j] > mx)
            mx = l[j];
    }
    for (int j = 0; j < CR_COLOUR_COUNT; j++) {
        l[j] = exp(l[j] - mx);
        sum += l[j];
    }
    for (int j = 0; j < CR_COLOUR_COUNT; j++)
        out[j] = (float)(l[j] / sum);
}

static double gauss(double x, double m, double sd)
{
    return exp(-0.5 * (x - m) * (x - m) / (sd * sd)) / sd;
}

/* What a per-frame classifier would say: colour times stripe evidence. */
static void syn_id_p(const float *cp, double wf, float *id_p)
{
    double sum = 0, p[CR_NUM_BALLS];
    double l_solid = gauss(wf, 0.05, 0.04) + 0.01, l_stripe = 0.3 * gauss(wf, 0.05, 0.04) + 0.7 * 1.7 + 0.01;
    double l_cue = gauss(wf, 0.95, 0.08) + 0.01;

    for (int id = 0; id < CR_NUM_BALLS; id++) {
        double l = id == 0 ? l_cue : id <= 8 ? l_solid : l_stripe;

        p[id] = cp[syn_colour[id]] * l;
        sum += p[id];
    }
    for (int id = 0; id < CR_NUM_BALLS; id++)
        id_p[id] = (float)(p[id] / sum);
}

int cr_track_synth_frame(cr_track_synth_t *s, int k, cr_detection_t *out, int max, int *n, bool detected[CR_NUM_BALLS])
{
    double R, exposure;
    int m = 0;

    if (!s || !out || !n || k != s->next || k >= s->n || max < 0)
        return CR_ERR_INVALID;
    s->next++;
    R = s->table.ball_radius_mm;
    exposure = 0.5 / s->p.fps;
    if (detected)
        memset(detected, 0, sizeof(bool) * CR_NUM_BALLS);
    for (int id = 0; id < CR_NUM_BALLS; id++) {
        const cr_track_truth_t *b = tb(s, k, id);
        double sp, sigma, vx = 0, vy = 0, blur, wf;
        cr_detection_t *d;
        int copies;

        if (!b->on_table)
            continue;
        if (k > 0 && tb(s, k - 1, id)->on_table) { /* roll the stripe */
            double mv = hypot(b->x - tb(s, k - 1, id)->x, b->y - tb(s, k - 1, id)->y);

            if (mv < 6 * R)
                s->theta[id] += mv / R * s->omega[id];
        }
        if (s->hide[(size_t)k * CR_NUM_BALLS + (size_t)id] || syn_u(&s->rng) < s->p.drop_p)
            continue;
        sp = speed_at(s, k, id);
        if (k + 1 < s->n && k > 0 && tb(s, k + 1, id)->on_table && tb(s, k - 1, id)->on_table) {
            vx = (tb(s, k + 1, id)->x - tb(s, k - 1, id)->x) * s->p.fps * 0.5;
            vy = (tb(s, k + 1, id)->y - tb(s, k - 1, id)->y) * s->p.fps * 0.5;
        }
        blur = sp * exposure * 0.5;
        sigma = sp > 5.0 ? s->p.sigma_move_mm : s->p.sigma_rest_mm;
        if (blur > R)
            sigma *= 1.5;
        copies = syn_u(&s->rng) < s->p.double_p ? 2 : 1;
        for (int c = 0; c < copies && m < max; c++) {
            d = &out[m++];
            memset(d, 0, sizeof(*d));
            d->x = b->x + sigma * syn_n(&s->rng) + (c ? 8.0 + 10.0 * syn_u(&s->rng) : 0);
            d->y = b->y + sigma * syn_n(&s->rng);
            d->sigma_mm = sigma;
            if (blur > 1.0) {
                d->blur_dx = vx * exposure * 0.5;
                d->blur_dy = vy * exposure * 0.5;
            }
            d->r_px = 10;
            d->score = (float)(0.85 + 0.1 * syn_u(&s->rng));
            d->visible = 1.0f;
            if (s->p.colour_view_share > 0 &&
                (!s->vset[id] || hypot(b->x - s->vx0[id], b->y - s->vy0[id]) >= R)) {
                /* a new view: the ball has rolled by a radius */
                for (int j = 0; j < CR_COLOUR_COUNT; j++)
                    s->vnoise[id][j] = s->p.colour_noise * sqrt(s->p.colour_view_share) * syn_n(&s->rng);
                s->vx0[id] = b->x;
                s->vy0[id] = b->y;
                s->vset[id] = true;
            }
            syn_colour_p(s, syn_colour[id], s->bias[id], blur / R, s->vnoise[id], d->colour_p);
            if (id == 0)
                wf = 0.95 + 0.03 * syn_n(&s->rng);
            else if (id <= 8)
                wf = 0.05 + 0.02 * syn_n(&s->rng);
            else {
                double cth = fabs(cos(s->theta[id]));

                wf = cth < 0.35 ? 0.05 : 0.1 + 0.5 * (cth - 0.35) / 0.65;
                wf += 0.03 * syn_n(&s->rng);
            }
            if (blur > R) /* a streak mixes the faces */
                wf = 0.5 * wf + 0.5 * (id == 0 ? 0.95 : 0.2);
            wf = wf < 0 ? 0 : wf > 1 ? 1 : wf;
            d->white_frac = (float)wf;
            syn_id_p(d->colour_p, wf, d->id_p);
            if (detected)
                detected[id] = true;
        }
    }
    /* phantoms: reflections, a chalk cube, a hand knuckle */
    if (syn_u(&s->rng) < s->p.phantom_p) {
        for (int i = 0; i < SYN_PHANTOMS; i++) {
            if (s->ph[i].left > 0)
                continue;
            s->ph[i].left = syn_int(&s->rng, 1, 3);
            s->ph[i].x = R + syn_u(&s->rng) * (s->table.length_mm - 2 * R);
            s->ph[i].y = R + syn_u(&s->rng) * (s->table.width_mm - 2 * R);
            s->ph[i].colour = syn_int(&s->rng, 0, CR_COLOUR_COUNT - 1);
            break;
        }
    }
    for (int i = 0; i < SYN_PHANTOMS; i++) {
        cr_detection_t *d;

        if (s->ph[i].left <= 0 || m >= max)
            continue;
        s->ph[i].left--;
        d = &out[m++];
        memset(d, 0, sizeof(*d));
        d->x = s->ph[i].x + 2.0 * syn_n(&s->rng);
        d->y = s->ph[i].y + 2.0 * syn_n(&s->rng);
        d->sigma_mm = 2.0;
        d->r_px = 10;
        d->score = (float)(0.5 + 0.3 * syn_u(&s->rng));
        d->visible = 0.7f;
        syn_colour_p(s, s->ph[i].colour, 0, 1.0, NULL, d->colour_p);
        d->white_frac = (float)syn_u(&s->rng);
        syn_id_p(d->colour_p, d->white_frac, d->id_p);
    }
    /* the detector's order carries no meaning */
    for (int i = m - 1; i > 0; i--) {
        int j = (int)(syn_u(&s->rng) * (double)(i + 1));
        cr_detection_t tmp = out[i];

        out[i] = out[j];
        out[j] = tmp;
    }
    *n = m;
    return CR_OK;
}
