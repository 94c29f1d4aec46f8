/*
 * cr_detect.c - ball detection and per-frame identification (cr_detect.h).
 *
 * Pixel conventions: full-resolution pixel (i, j) has its centre at
 * (u, v) = (i, j) (cr_camera.h); half-resolution (chroma) pixel (i, j)
 * covers full pixels 2i..2i+1 x 2j..2j+1, centre (2i + 0.5, 2j + 0.5).
 */
#include "cr_detect.h"
#include "cr_highlight.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CR_DET_PI 3.14159265358979323846
#define CR_DET_RAYS 32         /* outline rays per ball */
#define CR_DET_PROFILE_MAX 160 /* samples per ray profile */
#define CR_DET_BLOCK 8         /* coarse samples per background block side */

#define CR_DET_MAX_ROIS 512   /* regions of interest remembered per frame */
#define CR_DET_MAX_PROBES 8   /* places the scan (step 8) follows at once */
/* Looking again where the tracker expects a ball (cr_detector_expect): edges
 * down to this share of the foreground threshold count (the search's is
 * 0.35; a ball of the cloth's colour in dim light has an outline of a few
 * levels), and a Hough peak needs this share of a full outline's votes (the
 * search's: min_votes). The fit must still score min_score. */
/* Smears (cr_det_find_smears): the longest, in ball diameters end to end. */
#define CR_DET_SMEAR_MAX 8.0
#define CR_DET_LOOK_EDGE 0.2
#define CR_DET_LOOK_VOTES 0.4
/* A probe the search finds in this many frames is the search's (step 8). */
#define CR_DET_PROBE_SEEN 60

/* A region of interest, half-res pixels [x0, x1) x [y0, y1). */
typedef struct {
    int x0, y0, x1, y1;
    int changed;
} cr_det_roi_t;

/* A Hough candidate. */
typedef struct {
    double u, v;      /* image centre, full-res pixels */
    double score;     /* Hough peak (candidates) */
} cr_det_cand_t;

struct cr_detector {
    cr_camera_t cam;
    cr_table_t tab;
    cr_detect_params_t p;
    int w, h;        /* full resolution */
    int hw, hh;      /* half (chroma) resolution */
    int gs;          /* coarse step, half-res pixels */
    int gw, gh;      /* coarse grid */
    double r_min_px; /* smallest ball radius over the table, full-res px */
    double r_max_px;
    uint8_t *gmask;  /* gw*gh: 1 in the search region */
    float *bg;       /* gw*gh*3: background Y, U, V */
    uint8_t *age;    /* gw*gh: frames of unexplained foreground */
    uint8_t *fg;     /* gw*gh: this frame's foreground */
    uint8_t *covered;/* gw*gh: inside a detection of this frame */
    uint8_t *moved;  /* gw*gh: this frame's sample differs from the last frame's */
    float *obs;      /* 3 planes of gw*gh: this frame's samples (Y, gain*U, gain*V) */
    size_t ng;       /* gw*gh: the grid's cells, the planes' stride */
    int *stack;      /* gw*gh: flood fill */
    uint8_t *seen;   /* gw*gh: flood fill visited */
    int *y4;         /* hw*hh: half-res luma times 4, the sum of its four pixels (valid
                      * inside the current ROI) */
    int *sob;        /* 6 * hw: one row's column sums and differences of the three channels */
    float *en;       /* max(hw, 3 gw): one row's gradient energy (the tensor's trace); in
                      * the sweep, one grid row's new samples */
    float chroma_lut[256]; /* (float)(chroma_gain * level): a sample's chroma */
    int *row_lo, *row_hi; /* gh: each grid row's span [lo, hi) holding its search region */
    float *mag;      /* hw*hh: scratch (background blocks) */
    float *acc;      /* hw*hh: Hough accumulator; scratch when learning the background */
    cr_det_cand_t *cand;
    int n_cand, cap_cand;
    cr_detection_t *dets; /* CR_VISION_MAX_DETECTIONS * 2 working detections */
    int have_bg;
    int bg_pending;  /* the last frame's background update is still to be made (it is made
                      * cell by cell in the next frame's sampling sweep: one pass, not two) */
    double noise;    /* colour distance noise sigma, levels */
    double t_fg;     /* foreground threshold, levels */
    double white_ratio; /* learned: white ball top brightness / local cloth luma */
    double edge_off;    /* learned: uniform edge offset of sharp complete outlines, px */
    int edge_n;
    int white_n;
    int white_ready; /* 1: the white reference became usable during this frame, 2: in the last
                      * (detections kept from before then are identified again) */
    float *ref;      /* gw*gh*3: samples when their region was last examined */
    cr_detection_t *prev; /* last frame's detections (before min_score) */
    int n_prev;
    uint8_t *reuse;  /* per working detection: carried over from the last frame */
    uint8_t *prev_dead; /* per last detection: dropped or taken this frame */
    uint8_t *prev_quiet; /* per last detection: nothing under it changed (this frame) */
    cr_det_roi_t *rois; /* this frame's regions of interest */
    int n_rois;         /* how many (up to CR_DET_MAX_ROIS) */
    int sm_cap;         /* smears: the largest region side examined, half-res px */
    int *sm_lab;        /* sm_cap^2: component labels within a region */
    int *sm_stk;        /* sm_cap^2: flood fill */
    int *sm_hist;       /* 4 * sm_cap: pixel counts along and across a component */
    float *sm_ink;      /* sm_cap^2: how far each pixel is from the background; then
                         * 2 * sm_cap: its sum per bin along a component */
    cr_detect_profile_t prof;
    cr_ball_hint_t hint[CR_VISION_MAX_DETECTIONS]; /* balls expected in the next frame */
    int n_hint;
    int looking; /* 1 while looking at a hint: fainter edges count */
    int bare[CR_VISION_MAX_DETECTIONS]; /* tags of the last run's hints whose place showed the
                                         * background (cr_detector_bare) */
    int n_bare;
    cr_hl_model_t hl; /* the lamps, learned from the highlights of well-seen resting balls */
    struct {
        int tag, seen;
        int n;       /* frames in the mean */
        int moved;   /* its detection was moved to the place: it stays moved while it rests */
        int now;     /* this frame's highlights placed it (not the place kept) */
        double x, y, s;
    } hl_mem[CR_VISION_MAX_DETECTIONS]; /* where the highlights place each ball hinted at rest
                                         * (by hint tag): the mean of their places since it
                                         * came to rest there */
    int n_hl_mem;
    struct cr_det_hl_run {
        int tag;
        int seen, placed; /* this frame: looked at; placed by the highlights */
        int follows;      /* this frame's place follows the last ones (cr_det_hl_track()) */
        int run;          /* frames in a row up to the last that they placed it in */
        double p1x, p1y;  /* their place in the last frame (run >= 1) */
        double p2x, p2y;  /* and in the frame before (run >= 2) */
        double off;       /* how far off its outline's fit they placed it when they
                           * last moved the fit (mm) */
        int off_age;      /* frames since then */
    } hl_run[CR_VISION_MAX_DETECTIONS]; /* where the highlights' smears placed each ball hinted
                                         * rolling (by hint tag) */
    int n_hl_run;
    int scan_x0, scan_y0;                   /* the bed's bounding box's corner, half-res px */
    int scan_tile, scan_nx, scan_ny;        /* its tiles: side, columns, rows */
    int scan_next;                          /* the tile the next frame searches first */
    double scan_credit;                     /* tiles due (a sweep in scan_sweep_frames) */
    struct {
        double x, y;      /* table mm: where it was last found */
        double vx, vy;    /* table mm a frame: how it went between its finds */
        int hits, misses; /* frames it was found in; missed since it was last found */
        int seen;         /* frames the search found it in */
    } probe[CR_DET_MAX_PROBES]; /* balls the scan found that no region showed (step 8) */
    int n_probe;
};

/* ---- small helpers --------------------------------------------------------------- */

/* CPU time of the calling thread, ms (the profile is per core). */
static double cr_det_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static double cr_det_clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static double cr_det_smoothstep(double e0, double e1, double x)
{
    double t = cr_det_clamp((x - e0) / (e1 - e0), 0.0, 1.0);

    return t * t * (3.0 - 2.0 * t);
}

/* Bilinear sample of an 8-bit plane at (x, y) in its own pixel units, clamped. */
static double cr_det_bilinear(const uint8_t *p, int stride, int w, int h, double x, double y)
{
    int x0, y0, x1, y1;
    double fx, fy, a, b;

    x = cr_det_clamp(x, 0.0, w - 1.0);
    y = cr_det_clamp(y, 0.0, h - 1.0);
    x0 = (int)x;
    y0 = (int)y;
    x1 = x0 + 1 < w ? x0 + 1 : x0;
    y1 = y0 + 1 < h ? y0 + 1 : y0;
    fx = x - x0;
    fy = y - y0;
    a = p[(size_t)y0 * stride + x0] + fx * (p[(size_t)y0 * stride + x1] - p[(size_t)y0 * stride + x0]);
    b = p[(size_t)y1 * stride + x0] + fx * (p[(size_t)y1 * stride + x1] - p[(size_t)y1 * stride + x0]);
    return a + fy * (b - a);
}

/* cr_det_colour_at at a position inside [1, w - 2) x [1, h - 2): no clamping.
 * Levels become floats through a table (the same values, exactly). */
static inline void cr_det_colour_in(const cr_detector_t *d, const cr_yuv_image_t *img, double u, double v, double c[3])
{
    static const float lv[256] = {
#define CR_LV4(i) (float)(i), (float)(i) + 1, (float)(i) + 2, (float)(i) + 3
#define CR_LV16(i) CR_LV4(i), CR_LV4((i) + 4), CR_LV4((i) + 8), CR_LV4((i) + 12)
#define CR_LV64(i) CR_LV16(i), CR_LV16((i) + 16), CR_LV16((i) + 32), CR_LV16((i) + 48)
        CR_LV64(0), CR_LV64(64), CR_LV64(128), CR_LV64(192)
#undef CR_LV64
#undef CR_LV16
#undef CR_LV4
    };
    double cu = (u - 0.5) * 0.5, cv = (v - 0.5) * 0.5, g = d->p.chroma_gain;
    int x = (int)u, y = (int)v, xc = (int)cu, yc = (int)cv;
    float fx = (float)(u - x), fy = (float)(v - y), fxc = (float)(cu - xc), fyc = (float)(cv - yc);
    const size_t sy = (size_t)img->stride_y, su = (size_t)img->stride_u, sv = (size_t)img->stride_v;
    const uint8_t *p = img->y + (size_t)y * sy + x;
    const uint8_t *pu = img->u + (size_t)yc * su + xc, *pv = img->v + (size_t)yc * sv + xc;
    float a = lv[p[0]] + fx * (lv[p[1]] - lv[p[0]]), b = lv[p[sy]] + fx * (lv[p[sy + 1]] - lv[p[sy]]);
    float au = lv[pu[0]] + fxc * (lv[pu[1]] - lv[pu[0]]), bu = lv[pu[su]] + fxc * (lv[pu[su + 1]] - lv[pu[su]]);
    float av = lv[pv[0]] + fxc * (lv[pv[1]] - lv[pv[0]]), bv = lv[pv[sv]] + fxc * (lv[pv[sv + 1]] - lv[pv[sv]]);

    c[0] = a + fy * (b - a);
    c[1] = g * (au + fyc * (bu - au));
    c[2] = g * (av + fyc * (bv - av));
}

/* cr_det_colour_at near the frame's edge: clamped. */
static void cr_det_colour_edge(const cr_detector_t *d, const cr_yuv_image_t *img, double u, double v, double c[3])
{
    double cu = (u - 0.5) * 0.5, cv = (v - 0.5) * 0.5, g = d->p.chroma_gain;

    c[0] = cr_det_bilinear(img->y, img->stride_y, d->w, d->h, u, v);
    c[1] = g * cr_det_bilinear(img->u, img->stride_u, d->hw, d->hh, cu, cv);
    c[2] = g * cr_det_bilinear(img->v, img->stride_v, d->hw, d->hh, cu, cv);
}

/* Colour (Y, gain*U, gain*V) at full-res position (u, v). Inline: the
 * outline's rays and lobes call it for every sample. */
static inline void cr_det_colour_at(const cr_detector_t *d, const cr_yuv_image_t *img, double u, double v,
                                    double c[3])
{
    if (u >= 1.0 && v >= 1.0 && u < d->w - 2 && v < d->h - 2)
        cr_det_colour_in(d, img, u, v, c);
    else
        cr_det_colour_edge(d, img, u, v, c);
}

/* Half-resolution pixel (hi, hj): the mean luma of its four full pixels
 * and its chroma (times chroma_gain). */
static inline void cr_det_half_px(const cr_detector_t *d, const cr_yuv_image_t *img, int hi, int hj, float out[3])
{
    int x = 2 * hi, y = 2 * hj;
    int x1 = x + 1 < d->w ? x + 1 : x, y1 = y + 1 < d->h ? y + 1 : y;
    const uint8_t *r0 = img->y + (size_t)y * img->stride_y, *r1 = img->y + (size_t)y1 * img->stride_y;

    out[0] = 0.25f * (float)(r0[x] + r0[x1] + r1[x] + r1[x1]);
    out[1] = (float)(d->p.chroma_gain * img->u[(size_t)hj * img->stride_u + hi]);
    out[2] = (float)(d->p.chroma_gain * img->v[(size_t)hj * img->stride_v + hi]);
}

/* The first k in [k, n) with a[k] != 0, else n: eight bytes at a time over
 * the long runs of zeros of a mostly still frame's grid. */
static size_t cr_det_next_set(const uint8_t *a, size_t k, size_t n)
{
    for (; k < n && (k & 7); k++)
        if (a[k])
            return k;
    for (; k + 8 <= n; k += 8) {
        uint64_t w;

        memcpy(&w, a + k, sizeof w);
        if (w)
            break;
    }
    for (; k < n; k++)
        if (a[k])
            return k;
    return n;
}

/* Cell k of three planes of ng floats (obs, bg, ref), out of and into a
 * float[3]. */
static inline void cr_det_cell(const float *a, size_t ng, size_t k, float out[3])
{
    out[0] = a[k], out[1] = a[ng + k], out[2] = a[2 * ng + k];
}

static inline void cr_det_set_cell(float *a, size_t ng, size_t k, const float in[3])
{
    a[k] = in[0], a[ng + k] = in[1], a[2 * ng + k] = in[2];
}

/* Cell k of planes src copied into dst. */
static inline void cr_det_copy_cell(float *dst, const float *src, size_t ng, size_t k)
{
    dst[k] = src[k], dst[ng + k] = src[ng + k], dst[2 * ng + k] = src[2 * ng + k];
}

/* The squared colour distance between cell k of planes a and of planes b. */
static inline double cr_det_cell_dist2(const float *a, const float *b, size_t ng, size_t k)
{
    double e0 = a[k] - b[k], e1 = a[ng + k] - b[ng + k], e2 = a[2 * ng + k] - b[2 * ng + k];

    return e0 * e0 + e1 * e1 + e2 * e2;
}

static double cr_det_dist3(const float a[3], const float b[3])
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];

    return sqrt(x * x + y * y + z * z);
}

/* The projected outline of a resting ball centred at table (x, y, R): K
 * points s, the image of the centre c, outward unit normals n, and the mean
 * radius. Returns false when the ball is not in front of the camera. */
static bool cr_det_outline(const cr_detector_t *d, double x, double y, double s[][2], double n[][2], double c[2],
                           double *r_px)
{
    const double R = d->tab.ball_radius_mm;
    double dv[3] = {x - d->cam.pos[0], y - d->cam.pos[1], R - d->cam.pos[2]};
    double D2 = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2], D = sqrt(D2);
    double k = R * R / D2, rho = R * sqrt(1.0 - k), e1[3], e2[3], len, sum = 0.0;
    int i;

    if (!(D > R) || !cr_camera_project(&d->cam, x, y, R, &c[0], &c[1]))
        return false;
    /* e1 perpendicular to dv, e2 = dv x e1 / D */
    if (fabs(dv[2]) < 0.9 * D) {
        e1[0] = -dv[1], e1[1] = dv[0], e1[2] = 0.0;
    } else {
        e1[0] = 0.0, e1[1] = -dv[2], e1[2] = dv[1];
    }
    len = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (i = 0; i < 3; i++)
        e1[i] /= len;
    e2[0] = (dv[1] * e1[2] - dv[2] * e1[1]) / D;
    e2[1] = (dv[2] * e1[0] - dv[0] * e1[2]) / D;
    e2[2] = (dv[0] * e1[1] - dv[1] * e1[0]) / D;
    for (i = 0; i < CR_DET_RAYS; i++) {
        double a = 2.0 * CR_DET_PI * i / CR_DET_RAYS, ca = cos(a), sa = sin(a), q[3];
        int j;

        for (j = 0; j < 3; j++)
            q[j] = (j == 0 ? x : j == 1 ? y : R) - k * dv[j] + rho * (ca * e1[j] + sa * e2[j]);
        if (!cr_camera_project(&d->cam, q[0], q[1], q[2], &s[i][0], &s[i][1]))
            return false;
    }
    for (i = 0; i < CR_DET_RAYS; i++) {
        const double *a = s[(i + CR_DET_RAYS - 1) % CR_DET_RAYS], *b = s[(i + 1) % CR_DET_RAYS];
        double tx = b[0] - a[0], ty = b[1] - a[1], nx = ty, ny = -tx, nl = hypot(nx, ny);

        if (nl <= 0.0)
            return false;
        nx /= nl, ny /= nl;
        if (nx * (s[i][0] - c[0]) + ny * (s[i][1] - c[1]) < 0.0)
            nx = -nx, ny = -ny;
        n[i][0] = nx, n[i][1] = ny;
        sum += hypot(s[i][0] - c[0], s[i][1] - c[1]);
    }
    *r_px = sum / CR_DET_RAYS;
    return true;
}

/* Ball radius in full-res pixels for a ball whose image centre is near (u, v). */
static double cr_det_radius_at(const cr_detector_t *d, double u, double v)
{
    double s[CR_DET_RAYS][2], n[CR_DET_RAYS][2], c[2], x, y, r;

    if (!cr_camera_unproject_plane(&d->cam, u, v, d->tab.ball_radius_mm, &x, &y) ||
        !cr_det_outline(d, x, y, s, n, c, &r))
        return d->r_min_px;
    return r;
}

/* Where ball centres may be (table mm): on the bed, or in a pocket mouth:
 * between its jaws, no more than 0.6 R beyond the line joining the jaw
 * points (further in, a ball drops). tol widens both. */
static bool cr_det_centre_ok(const cr_detector_t *d, double x, double y, double tol)
{
    const double R = d->tab.ball_radius_mm, L = d->tab.length_mm, W = d->tab.width_mm;
    int p;

    if (x >= R - tol && x <= L - R + tol && y >= R - tol && y <= W - R + tol)
        return true;
    for (p = 0; p < CR_POCKET_COUNT; p++) {
        cr_point_t a, b, q = cr_table_pocket_point(&d->tab, (cr_pocket_t)p);
        double ex, ey, len, s, nx, ny, beyond;

        if (cr_table_pocket_mouth(&d->tab, (cr_pocket_t)p, &a, &b) != 0)
            continue;
        ex = b.x - a.x, ey = b.y - a.y;
        len = hypot(ex, ey);
        if (!(len > 0.0))
            continue;
        ex /= len, ey /= len;
        s = (x - a.x) * ex + (y - a.y) * ey;
        /* normal toward the pocket (away from the table centre) */
        nx = -ey, ny = ex;
        if (nx * (q.x - a.x) + ny * (q.y - a.y) < nx * (L / 2 - a.x) + ny * (W / 2 - a.y))
            nx = -nx, ny = -ny;
        beyond = (x - a.x) * nx + (y - a.y) * ny;
        if (s >= -tol && s <= len + tol && beyond <= 0.6 * R + tol && beyond >= -2.0 * R - tol)
            return true;
    }
    return false;
}

/* Where ball pixels may be: the centre region grown by about a radius. */
static bool cr_det_pixel_region(const cr_detector_t *d, double x, double y)
{
    return cr_det_centre_ok(d, x, y, 1.3 * d->tab.ball_radius_mm);
}

/* ---- create / destroy --------------------------------------------------------------- */

void cr_detect_params_defaults(cr_detect_params_t *p)
{
    if (!p)
        return;
    p->min_score = 0.5;
    p->chroma_gain = 2.0;
    p->fg_sigmas = 6.0;
    p->fg_min_levels = 10.0;
    p->min_support = 0.35;
    p->bg_absorb_frames = 45;
    p->max_candidates = 128;
    p->min_votes = 0.5;
    p->change_sigmas = 4.0;
    p->min_interior = 0.3;
    p->contact_weight = 0.25;
    p->keep_quiet_balls = 1;
    p->use_highlights = 0;
    p->scan_sweep_frames = 36;
    p->probe_frames = 5;
    p->probe_near_frames = 30;
    p->motion_looks = 4;
}

void cr_detector_destroy(cr_detector_t *d)
{
    if (!d)
        return;
    free(d->gmask);
    free(d->bg);
    free(d->age);
    free(d->fg);
    free(d->covered);
    free(d->moved);
    free(d->obs);
    free(d->stack);
    free(d->seen);
    free(d->y4);
    free(d->sob);
    free(d->en);
    free(d->row_lo);
    free(d->row_hi);
    free(d->mag);
    free(d->acc);
    free(d->cand);
    free(d->dets);
    free(d->ref);
    free(d->prev);
    free(d->reuse);
    free(d->prev_dead);
    free(d->prev_quiet);
    free(d->rois);
    free(d->sm_lab);
    free(d->sm_stk);
    free(d->sm_hist);
    free(d->sm_ink);
    free(d);
}

int cr_detector_create(const cr_camera_t *cam, const cr_table_t *t, const cr_detect_params_t *p,
                       cr_detector_t **out)
{
    cr_detector_t *d;
    cr_detect_params_t defp;
    size_t ng, nh;
    int gi, gj, n_in = 0;
    double rmin = HUGE_VAL, rmax = 0.0;

    if (!cam || !t || !out || cam->width < 16 || cam->height < 16 || cam->width > 16384 || cam->height > 16384 ||
        !(t->ball_radius_mm > 0.0) || !(t->length_mm > 0.0) || !(t->width_mm > 0.0))
        return CR_ERR_INVALID;
    if (!p) {
        cr_detect_params_defaults(&defp);
        p = &defp;
    }
    if (!(p->chroma_gain >= 0.0) || !(p->fg_sigmas > 0.0) || !(p->fg_min_levels >= 0.0) || p->max_candidates < 1 ||
        p->bg_absorb_frames < 1 || !(p->min_votes > 0.0) || p->scan_sweep_frames < 0 || p->scan_sweep_frames > 100000 ||
        p->motion_looks < 0 || p->motion_looks > 64 ||
        p->probe_frames < 1 || p->probe_frames > 1000 || p->probe_near_frames < p->probe_frames ||
        p->probe_near_frames > 100000)
        return CR_ERR_INVALID;
    d = calloc(1, sizeof *d);
    if (!d)
        return CR_ERR_NOMEM;
    d->cam = *cam;
    d->tab = *t;
    d->p = *p;
    for (gi = 0; gi < 256; gi++)
        d->chroma_lut[gi] = (float)(p->chroma_gain * gi);
    d->w = cam->width;
    d->h = cam->height;
    d->hw = (d->w + 1) / 2;
    d->hh = (d->h + 1) / 2;
    /* ball radius range over the bed corners and centre */
    {
        const double pts[5][2] = {{0, 0}, {t->length_mm, 0}, {0, t->width_mm}, {t->length_mm, t->width_mm},
                                  {t->length_mm / 2, t->width_mm / 2}};
        double s[CR_DET_RAYS][2], n[CR_DET_RAYS][2], c[2], r;
        int i;

        for (i = 0; i < 5; i++) {
            if (!cr_det_outline(d, pts[i][0], pts[i][1], s, n, c, &r))
                goto fail_invalid;
            if (r < rmin)
                rmin = r;
            if (r > rmax)
                rmax = r;
        }
    }
    if (!(rmin >= 1.5))
        goto fail_invalid;
    d->r_min_px = rmin;
    d->r_max_px = rmax;
    d->gs = (int)lrint(0.5 * 0.5 * rmin);
    if (d->gs < 1)
        d->gs = 1;
    d->gw = (d->hw + d->gs - 1) / d->gs;
    d->gh = (d->hh + d->gs - 1) / d->gs;
    ng = (size_t)d->gw * d->gh;
    nh = (size_t)d->hw * d->hh;
    d->cap_cand = p->max_candidates;
    d->gmask = calloc(ng, 1);
    d->bg = calloc(ng * 3, sizeof(float));
    d->age = calloc(ng, 1);
    d->fg = calloc(ng, 1);
    d->covered = calloc(ng, 1);
    d->moved = calloc(ng, 1);
    d->obs = calloc(ng * 3, sizeof(float));
    d->ng = ng;
    d->stack = calloc(ng, sizeof(int));
    d->seen = calloc(ng, 1);
    d->y4 = calloc(nh, sizeof(int));
    d->sob = calloc(6 * (size_t)d->hw, sizeof(int));
    d->row_lo = calloc((size_t)d->gh, sizeof(int));
    d->row_hi = calloc((size_t)d->gh, sizeof(int));
    d->en = calloc((size_t)(d->hw > 3 * d->gw ? d->hw : 3 * d->gw), sizeof(float));
    d->mag = calloc(nh, sizeof(float));
    d->acc = calloc(nh, sizeof(float));
    d->cand = calloc(4 * (size_t)d->cap_cand, sizeof *d->cand);
    d->dets = calloc(2 * CR_VISION_MAX_DETECTIONS, sizeof *d->dets);
    d->prev = calloc(2 * CR_VISION_MAX_DETECTIONS, sizeof *d->prev);
    d->reuse = calloc(2 * CR_VISION_MAX_DETECTIONS, 1);
    d->prev_dead = calloc(2 * CR_VISION_MAX_DETECTIONS, 1);
    d->prev_quiet = calloc(2 * CR_VISION_MAX_DETECTIONS, 1);
    d->rois = calloc(CR_DET_MAX_ROIS, sizeof *d->rois);
    d->ref = calloc(ng * 3, sizeof(float));
    /* a smear up to CR_DET_SMEAR_MAX diameters long, with the region's padding */
    d->sm_cap = (int)ceil((CR_DET_SMEAR_MAX + 1.0) * rmax) + 4 * d->gs + 8;
    d->sm_lab = malloc((size_t)d->sm_cap * d->sm_cap * sizeof(int));
    d->sm_stk = malloc((size_t)d->sm_cap * d->sm_cap * sizeof(int));
    d->sm_hist = malloc(4 * (size_t)d->sm_cap * sizeof(int));
    d->sm_ink = malloc(((size_t)d->sm_cap * d->sm_cap + 2 * (size_t)d->sm_cap) * sizeof(float));
    if (!d->sm_lab || !d->sm_stk || !d->sm_hist || !d->sm_ink) {
        cr_detector_destroy(d);
        return CR_ERR_NOMEM;
    }
    if (!d->gmask || !d->bg || !d->age || !d->fg || !d->covered || !d->moved || !d->obs || !d->stack || !d->seen ||
        !d->y4 || !d->sob || !d->en || !d->row_lo || !d->row_hi || !d->mag || !d->acc || !d->cand || !d->dets || !d->prev || !d->reuse || !d->ref ||
        !d->prev_dead || !d->prev_quiet || !d->rois) {
        cr_detector_destroy(d);
        return CR_ERR_NOMEM;
    }
    for (gj = 0; gj < d->gh; gj++)
        for (gi = 0; gi < d->gw; gi++) {
            double u = 2.0 * gi * d->gs + 0.5, v = 2.0 * gj * d->gs + 0.5, x, y;

            if (cr_camera_unproject_plane(cam, u, v, t->ball_radius_mm, &x, &y) && cr_det_pixel_region(d, x, y)) {
                d->gmask[(size_t)gj * d->gw + gi] = 1;
                n_in++;
            }
        }
    if (n_in < 16)
        goto fail_invalid;
    for (gj = 0; gj < d->gh; gj++) {
        const uint8_t *m = d->gmask + (size_t)gj * d->gw;
        int lo = 0, hi = d->gw;

        while (lo < hi && !m[lo])
            lo++;
        while (hi > lo && !m[hi - 1])
            hi--;
        d->row_lo[gj] = lo, d->row_hi[gj] = hi;
    }
    /* the scan's tiles over the bed, each about eight radii a side */
    {
        const double L = t->length_mm, W = t->width_mm;
        const double cs[4][2] = {{0, 0}, {L, 0}, {L, W}, {0, W}};
        double u, v, u0 = HUGE_VAL, v0 = HUGE_VAL, u1 = -HUGE_VAL, v1 = -HUGE_VAL;
        int i, x1, y1;

        for (i = 0; i < 4; i++) {
            if (!cr_camera_project(cam, cs[i][0], cs[i][1], t->ball_radius_mm, &u, &v))
                goto fail_invalid;
            u0 = fmin(u0, u), v0 = fmin(v0, v), u1 = fmax(u1, u), v1 = fmax(v1, v);
        }
        d->scan_x0 = (int)cr_det_clamp(floor(0.5 * u0), 0, d->hw);
        d->scan_y0 = (int)cr_det_clamp(floor(0.5 * v0), 0, d->hh);
        x1 = (int)cr_det_clamp(ceil(0.5 * u1) + 1, 0, d->hw);
        y1 = (int)cr_det_clamp(ceil(0.5 * v1) + 1, 0, d->hh);
        d->scan_tile = (int)ceil(4.0 * rmax);
        if (d->scan_tile < 8)
            d->scan_tile = 8;
        d->scan_nx = (x1 - d->scan_x0 + d->scan_tile - 1) / d->scan_tile;
        d->scan_ny = (y1 - d->scan_y0 + d->scan_tile - 1) / d->scan_tile;
    }
    d->white_ratio = 0.0;
    *out = d;
    return CR_OK;

fail_invalid:
    cr_detector_destroy(d);
    return CR_ERR_INVALID;
}

void cr_detector_reset(cr_detector_t *d)
{
    if (d) {
        d->have_bg = 0;
        d->n_prev = 0;
        d->white_n = 0;
        d->white_ready = 0;
        d->edge_n = 0;
        d->n_hint = 0;
        d->bg_pending = 0;
        cr_hl_model_init(&d->hl);
        d->n_hl_mem = 0;
        d->n_probe = 0;
    }
}

void cr_detector_profile(const cr_detector_t *d, cr_detect_profile_t *out)
{
    if (d && out)
        *out = d->prof;
}

/* ---- background ------------------------------------------------------------------------ */

/* Median of n floats (reorders them; quickselect, no allocation). */
static float cr_det_median(float *v, int n)
{
    int lo = 0, hi = n - 1, k = n / 2;

    if (n <= 0)
        return 0.0f;
    while (lo < hi) {
        float pivot = v[(lo + hi) / 2], t;
        int i = lo, j = hi;

        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                t = v[i], v[i] = v[j], v[j] = t;
                i++, j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return v[k];
}

/* Learns the background from d->obs: the cloth is the dominant colour of
 * the search region; samples that are not cloth take the cloth colour of
 * their block (filled from neighbouring blocks where a block has no cloth). */
static void cr_det_learn_bg(cr_detector_t *d)
{
    const int gw = d->gw, gh = d->gh, bw = (gw + CR_DET_BLOCK - 1) / CR_DET_BLOCK,
              bh = (gh + CR_DET_BLOCK - 1) / CR_DET_BLOCK;
    float *tmp = (float *)d->stack; /* gw*gh ints reused as floats */
    float med[3], mad[3], *blk;
    uint8_t *blk_ok;
    int n = 0, c, i, bi, bj, pass;
    size_t k, ng = (size_t)gw * gh;
    double tol_c;

    /* block field lives in the Hough scratch (hw*hh floats >= 3*bw*bh) */
    blk = d->acc;
    blk_ok = (uint8_t *)d->mag;
    for (c = 0; c < 3; c++) {
        n = 0;
        for (k = 0; k < ng; k++)
            if (d->gmask[k])
                tmp[n++] = d->obs[c * ng + k];
        med[c] = cr_det_median(tmp, n);
        n = 0;
        for (k = 0; k < ng; k++)
            if (d->gmask[k])
                tmp[n++] = fabsf(d->obs[c * ng + k] - med[c]);
        mad[c] = cr_det_median(tmp, n);
    }
    tol_c = 4.0 * 1.4826 * (mad[1] > mad[2] ? mad[1] : mad[2]);
    if (tol_c < 6.0 * d->p.chroma_gain)
        tol_c = 6.0 * d->p.chroma_gain;
    /* cloth-like flag in seen[] */
    for (k = 0; k < ng; k++)
        d->seen[k] = d->gmask[k] && fabsf(d->obs[ng + k] - med[1]) <= tol_c &&
                     fabsf(d->obs[2 * ng + k] - med[2]) <= tol_c && d->obs[k] > 0.4f * (med[0] - 16.0f) + 16.0f &&
                     d->obs[k] < 2.5f * med[0];
    for (bj = 0; bj < bh; bj++)
        for (bi = 0; bi < bw; bi++) {
            int gi, gj, nm = 0;

            for (c = 0; c < 3; c++) {
                n = 0;
                for (gj = bj * CR_DET_BLOCK; gj < (bj + 1) * CR_DET_BLOCK && gj < gh; gj++)
                    for (gi = bi * CR_DET_BLOCK; gi < (bi + 1) * CR_DET_BLOCK && gi < gw; gi++) {
                        k = (size_t)gj * gw + gi;
                        nm += c == 0 && d->gmask[k];
                        if (d->seen[k])
                            tmp[n++] = d->obs[c * ng + k];
                    }
                blk[3 * (bj * bw + bi) + c] = cr_det_median(tmp, n);
            }
            blk_ok[bj * bw + bi] = n >= 4 && n * 4 >= nm;
        }
    /* fill blocks without cloth from their neighbours */
    for (pass = 0; pass < bw + bh; pass++) {
        int changed = 0, missing = 0;

        for (bj = 0; bj < bh; bj++)
            for (bi = 0; bi < bw; bi++) {
                double s[3] = {0, 0, 0};
                int m = 0, dj, di;

                if (blk_ok[bj * bw + bi])
                    continue;
                missing++;
                for (dj = -1; dj <= 1; dj++)
                    for (di = -1; di <= 1; di++) {
                        int x = bi + di, y = bj + dj;

                        if (x < 0 || y < 0 || x >= bw || y >= bh || blk_ok[y * bw + x] != 1)
                            continue;
                        for (c = 0; c < 3; c++)
                            s[c] += blk[3 * (y * bw + x) + c];
                        m++;
                    }
                if (m) {
                    for (c = 0; c < 3; c++)
                        blk[3 * (bj * bw + bi) + c] = (float)(s[c] / m);
                    blk_ok[bj * bw + bi] = 2;
                    changed++;
                }
            }
        for (i = 0; i < bw * bh; i++)
            if (blk_ok[i] == 2)
                blk_ok[i] = 1;
        if (!missing || !changed)
            break;
    }
    for (i = 0; i < bw * bh; i++)
        if (!blk_ok[i])
            for (c = 0; c < 3; c++)
                blk[3 * i + c] = med[c];
    /* per sample: own value where cloth agrees with its block, else the block */
    for (k = 0; k < ng; k++) {
        int gi = (int)(k % gw), gj = (int)(k / gw);
        const float *b = blk + 3 * ((gj / CR_DET_BLOCK) * bw + gi / CR_DET_BLOCK);
        float o[3];

        cr_det_cell(d->obs, ng, k, o);
        if (d->seen[k] && cr_det_dist3(o, b) < 0.2 * (b[0] - 16.0) + 3.0 * d->p.chroma_gain)
            cr_det_set_cell(d->bg, ng, k, o);
        else
            cr_det_set_cell(d->bg, ng, k, b);
        d->age[k] = 0;
    }
    /* noise: distances between horizontally adjacent cloth samples */
    n = 0;
    for (k = 0; k + 1 < ng; k++)
        if (d->seen[k] && d->seen[k + 1] && (k + 1) % gw != 0) {
            float a[3], b[3];

            cr_det_cell(d->obs, ng, k, a);
            cr_det_cell(d->obs, ng, k + 1, b);
            tmp[n++] = (float)cr_det_dist3(a, b);
        }
    d->noise = n > 16 ? cr_det_median(tmp, n) / 2.18 : 3.0;
    d->t_fg = d->p.fg_sigmas * d->noise;
    if (d->t_fg < d->p.fg_min_levels)
        d->t_fg = d->p.fg_min_levels;
    d->have_bg = 1;
}

/* ---- candidates: Hough for circles of known radius -------------------------------------- */

/* Adds Hough peaks of the half-res ROI [x0, x1) x [y0, y1). */
static void cr_det_hough_roi(cr_detector_t *d, const cr_yuv_image_t *img, int x0, int y0, int x1, int y1)
{
    const int hw = d->hw;
    const double g = d->p.chroma_gain;
    double rh, t_edge, t_edge2, thr;
    float gg64, t_pre;
    int i, j, rw = x1 - x0, rhh = y1 - y0;

    if (rw < 5 || rhh < 5)
        return;
    rh = 0.5 * cr_det_radius_at(d, x0 + x1, y0 + y1); /* ROI centre in full-res = 2 * half-res centre */
    t_edge = (d->looking ? CR_DET_LOOK_EDGE : 0.35) * d->t_fg;
    t_edge2 = t_edge * t_edge;
    /* half-res luma, times 4 */
    for (j = y0; j < y1; j++) {
        const uint8_t *r0 = img->y + (size_t)(2 * j) * img->stride_y;
        const uint8_t *r1 = img->y + (size_t)(2 * j + 1 < d->h ? 2 * j + 1 : 2 * j) * img->stride_y;
        int *o = d->y4 + (size_t)j * hw;
        const int xe = 2 * x1 <= d->w ? x1 : x1 - 1; /* columns with both pixels */

        for (i = x0; i < xe; i++)
            o[i] = r0[2 * i] + r0[2 * i + 1] + r1[2 * i] + r1[2 * i + 1];
        for (; i < x1; i++) {
            int a = 2 * i, b = 2 * i + 1 < d->w ? 2 * i + 1 : 2 * i;

            o[i] = r0[a] + r0[b] + r1[a] + r1[b];
        }
    }
    for (j = y0; j < y1; j++)
        memset(d->acc + (size_t)j * hw + x0, 0, (size_t)rw * sizeof(float));
    /* gradient structure tensor and votes. The 3x3 Sobel of each channel
     * is separable: per column, the sum of the three rows (1 2 1) and the
     * difference of the outer two; gx and gy are then differences and
     * sums of those across the columns. All in integers: luma's gradient
     * is the integer one over 32, chroma's g times it over 8 (the doubles
     * are those of the 3x3 sums in floating point, to the last bit) */
    gg64 = (float)(g * g / 64.0);
    t_pre = (float)(t_edge2 * (1.0 - 1e-4));
    for (j = y0 + 1; j < y1 - 1; j++) {
        const int *restrict ym = d->y4 + (size_t)(j - 1) * hw, *restrict y0p = ym + hw, *restrict yp = y0p + hw;
        const uint8_t *restrict um = img->u + (size_t)(j - 1) * img->stride_u, *restrict u0 = um + img->stride_u,
                               *restrict up = u0 + img->stride_u;
        const uint8_t *restrict vm = img->v + (size_t)(j - 1) * img->stride_v, *restrict v0 = vm + img->stride_v,
                               *restrict vp = v0 + img->stride_v;
        int *restrict sl = d->sob, *restrict dl = sl + hw, *restrict su = dl + hw, *restrict du = su + hw,
                      *restrict sv = du + hw, *restrict dv = sv + hw;
        float *restrict en = d->en;

        for (i = x0; i < x1; i++)
            sl[i] = ym[i] + 2 * y0p[i] + yp[i], dl[i] = yp[i] - ym[i];
        for (i = x0; i < x1; i++)
            su[i] = um[i] + 2 * u0[i] + up[i], du[i] = up[i] - um[i];
        for (i = x0; i < x1; i++)
            sv[i] = vm[i] + 2 * v0[i] + vp[i], dv[i] = vp[i] - vm[i];
        /* the tensor's trace below, (lx^2 + ly^2) / 1024 + g^2 (ux^2 + uy^2
         * + vx^2 + vy^2) / 64, roughly (single precision) */
        for (i = x0 + 1; i < x1 - 1; i++) {
            const float lx = (float)(sl[i + 1] - sl[i - 1]), ly = (float)(dl[i - 1] + 2 * dl[i] + dl[i + 1]);
            const float ux = (float)(su[i + 1] - su[i - 1]), uy = (float)(du[i - 1] + 2 * du[i] + du[i + 1]);
            const float vx = (float)(sv[i + 1] - sv[i - 1]), vy = (float)(dv[i - 1] + 2 * dv[i] + dv[i + 1]);

            en[i] = (lx * lx + ly * ly) * (1.0f / 1024.0f) + gg64 * (ux * ux + uy * uy + vx * vx + vy * vy);
        }
        for (i = x0 + 1; i < x1 - 1; i++) {
            int lx, ly, ux, uy, vx, vy;
            double gx, gy, a, b, c, l1, ex, ey, el, m;
            double px, py;
            int s;

            /* well below the edge threshold (with room for the rounding of
             * both): cloth, without the doubles */
            if (en[i] < t_pre)
                continue;
            lx = sl[i + 1] - sl[i - 1], ly = dl[i - 1] + 2 * dl[i] + dl[i + 1];
            ux = su[i + 1] - su[i - 1], uy = du[i - 1] + 2 * du[i] + du[i + 1];
            vx = sv[i + 1] - sv[i - 1], vy = dv[i - 1] + 2 * dv[i] + dv[i + 1];
            gx = lx * 0.03125;
            gy = ly * 0.03125;
            a = gx * gx, b = gx * gy, c = gy * gy;
            gx = g * ux * 0.125;
            gy = g * uy * 0.125;
            a += gx * gx, b += gx * gy, c += gy * gy;
            gx = g * vx * 0.125;
            gy = g * vy * 0.125;
            a += gx * gx, b += gx * gy, c += gy * gy;
            /* the larger eigenvalue is at most the trace: most of the cloth
             * is below the edge threshold without a square root */
            if (a + c < t_edge2)
                continue;
            l1 = 0.5 * (a + c) + sqrt(0.25 * (a - c) * (a - c) + b * b);
            m = sqrt(l1);
            if (m < t_edge)
                continue;
            /* eigenvector of l1 */
            if (a >= c)
                ex = l1 - c, ey = b;
            else
                ex = b, ey = l1 - a;
            el = sqrt(ex * ex + ey * ey);
            if (el <= 0.0)
                continue;
            ex /= el, ey /= el;
            for (s = -1; s <= 1; s += 2) {
                int qi, qj;
                double fx, fy;
                float *q;

                px = i + s * rh * ex;
                py = j + s * rh * ey;
                if (px < x0 || py < y0 || px >= x1 - 1 || py >= y1 - 1)
                    continue;
                qi = (int)px, qj = (int)py;
                fx = px - qi, fy = py - qj;
                q = d->acc + (size_t)qj * hw + qi;
                q[0] += (float)((1 - fx) * (1 - fy));
                q[1] += (float)(fx * (1 - fy));
                q[hw] += (float)((1 - fx) * fy);
                q[hw + 1] += (float)(fx * fy);
            }
        }
    }
    /* 3x3 sums (into mag), then peaks: maxima of the sums within nr */
    thr = (d->looking ? CR_DET_LOOK_VOTES : d->p.min_votes) * 2.0 * CR_DET_PI * rh;
    for (j = y0 + 1; j < y1 - 1; j++) {
        const float *q = d->acc + (size_t)j * hw;
        float *o = d->mag + (size_t)j * hw;

        for (i = x0 + 1; i < x1 - 1; i++)
            o[i] = q[i - hw - 1] + q[i - hw] + q[i - hw + 1] + q[i - 1] + q[i] + q[i + 1] + q[i + hw - 1] + q[i + hw] +
                   q[i + hw + 1];
    }
    {
        int nr = (int)floor(0.8 * rh);
        const float thr_f = nextafterf((float)thr, -HUGE_VALF);

        if (nr < 1)
            nr = 1;
        for (j = y0 + 2; j < y1 - 2; j++) {
            const float *mr = d->mag + (size_t)j * hw;
            int any = 0;

            /* most rows hold no sum up to the threshold: one vectorised look
             * (in single precision, a little below it: it may pass more) */
            for (i = x0 + 2; i < x1 - 2; i++)
                any |= !(mr[i] < thr_f);
            if (!any)
                continue;
            for (i = x0 + 2; i < x1 - 2; i++) {
                const float *q = d->acc + (size_t)j * hw + i;
                const float sum = d->mag[(size_t)j * hw + i];
                double sx = 0.0, sy = 0.0;
                int di, dj, is_max = 1, ya, yb, xa, xb;

                if (sum < thr)
                    continue;
                ya = j - nr < y0 + 1 ? y0 + 1 : j - nr;
                yb = j + nr > y1 - 2 ? y1 - 2 : j + nr;
                xa = i - nr < x0 + 1 ? x0 + 1 : i - nr;
                xb = i + nr > x1 - 2 ? x1 - 2 : i + nr;
                for (dj = ya; dj <= yb && is_max; dj++) {
                    const float *m = d->mag + (size_t)dj * hw;

                    for (di = xa; di <= xb; di++) {
                        float s2 = m[di];

                        if (s2 > sum || (s2 == sum && (dj < j || (dj == j && di < i)))) {
                            is_max = 0;
                            break;
                        }
                    }
                }
                if (!is_max)
                    continue;
                for (dj = -1; dj <= 1; dj++)
                    for (di = -1; di <= 1; di++) {
                        double w = q[dj * hw + di];

                        sx += w * di, sy += w * dj;
                    }
                {
                    /* keep the strongest peaks: a full list drops its weakest */
                    cr_det_cand_t *cd = NULL;
                    double sc = sum / (2.0 * CR_DET_PI * rh);

                    if (d->n_cand < d->cap_cand) {
                        cd = &d->cand[d->n_cand++];
                    } else {
                        int m, lo = 0;

                        for (m = 1; m < d->n_cand; m++)
                            if (d->cand[m].score < d->cand[lo].score)
                                lo = m;
                        if (d->cand[lo].score < sc)
                            cd = &d->cand[lo];
                    }
                    if (cd) {
                        cd->u = 2.0 * (i + sx / sum) + 0.5;
                        cd->v = 2.0 * (j + sy / sum) + 0.5;
                        cd->score = sc;
                    }
                }
            }
        }
    }
}

/* ---- sub-pixel fit ------------------------------------------------------------------------- */

#define CR_DET_HYP 3 /* edge hypotheses kept per ray */

/* Edges found along the rays: hypothesis 0 is the one in use (the fit
 * swaps in the hypothesis that agrees best with the current estimate). */
typedef struct {
    double e[CR_DET_HYP][CR_DET_RAYS];      /* edge offset along the normal from the predicted outline, px */
    double wd[CR_DET_HYP][CR_DET_RAYS];     /* edge lobe width, px */
    double wt[CR_DET_HYP][CR_DET_RAYS];     /* 0: no edge */
    double ct[CR_DET_HYP][CR_DET_RAYS];     /* contrast: peak colour gradient, levels/px */
    int cloth_out[CR_DET_HYP][CR_DET_RAYS]; /* cloth (or its shadow) beyond the edge */
} cr_det_rays_t;

/* Background colour nearest to full-res (u, v), into out. */
static void cr_det_bg_at(const cr_detector_t *d, double u, double v, float out[3])
{
    int gi = (int)lrint((u - 0.5) * 0.5 / d->gs), gj = (int)lrint((v - 0.5) * 0.5 / d->gs);

    gi = gi < 0 ? 0 : (gi >= d->gw ? d->gw - 1 : gi);
    gj = gj < 0 ? 0 : (gj >= d->gh ? d->gh - 1 : gj);
    cr_det_cell(d->bg, d->ng, (size_t)gj * d->gw + gi, out);
}

/* Cloth, lit or in shadow: o matches the background colour bg scaled
 * toward black (a shadow keeps the cloth's chromaticity). */
static bool cr_det_is_cloth(const cr_detector_t *d, const float o[3], const float bg[3])
{
    const double g128 = 128.0 * d->p.chroma_gain;
    double yb = bg[0] - 16.0, a, e0, e1, e2;

    if (yb < 4.0)
        return cr_det_dist3(o, bg) < d->t_fg;
    a = cr_det_clamp((o[0] - 16.0) / yb, 0.3, 1.0);
    e0 = o[0] - (16.0 + a * yb);
    e1 = o[1] - (g128 + a * (bg[1] - g128));
    e2 = o[2] - (g128 + a * (bg[2] - g128));
    return e0 * e0 + e1 * e1 + e2 * e2 < d->t_fg * d->t_fg;
}

/* One gradient lobe of a ray profile around its peak imax: centroid and
 * width above half the peak, radial alignment, cloth beyond. Returns its
 * weight (0: rejected). */
static double cr_det_lobe(const cr_detector_t *d, const cr_yuv_image_t *img, const double sk[2], const double nk[2],
                          double prof[][3], const double *gm, int np, int imax, double w_in, double *e, double *wd,
                          int *cloth)
{
    const double step = 0.5, half = 0.5 * gm[imax];
    double sw = 0.0, st = 0.0, pu, pv, c1[3], c2[3], c3[3], c4[3], ga = 0.0, gb = 0.0, gc = 0.0, l1, ex, ey, el;
    int a, b, i, ch, io;
    float o[3];
    float bgc[3];

    for (a = imax; a > 1 && gm[a - 1] > half && gm[a - 1] <= gm[a]; a--)
        ;
    for (b = imax; b < np - 2 && gm[b + 1] > half && gm[b + 1] <= gm[b]; b++)
        ;
    for (i = a; i <= b; i++) {
        double wgt = gm[i] - half;

        sw += wgt;
        st += wgt * (-w_in + i * step);
    }
    if (sw <= 0.0)
        return 0.0;
    *e = st / sw;
    *wd = (b - a + 1) * step;
    /* the edge must run along the outline: its colour gradient (structure
     * tensor of the three channels) points along the ray */
    pu = sk[0] + *e * nk[0], pv = sk[1] + *e * nk[1];
    cr_det_colour_at(d, img, pu + 1.0, pv, c1);
    cr_det_colour_at(d, img, pu - 1.0, pv, c2);
    cr_det_colour_at(d, img, pu, pv + 1.0, c3);
    cr_det_colour_at(d, img, pu, pv - 1.0, c4);
    for (ch = 0; ch < 3; ch++) {
        double gx = c1[ch] - c2[ch], gy = c3[ch] - c4[ch];

        ga += gx * gx, gb += gx * gy, gc += gy * gy;
    }
    l1 = 0.5 * (ga + gc) + sqrt(0.25 * (ga - gc) * (ga - gc) + gb * gb);
    if (ga >= gc)
        ex = l1 - gc, ey = gb;
    else
        ex = gb, ey = l1 - ga;
    el = hypot(ex, ey);
    if (el > 0.0 && fabs(ex * nk[0] + ey * nk[1]) / el < 0.85)
        return 0.0;
    /* colour a little beyond the edge: cloth, or another ball / an occluder
     * (whose edge is less sure: two shadings meet near, not at, the outline) */
    io = b + 3 < np ? b + 3 : np - 1;
    o[0] = (float)prof[io][0], o[1] = (float)prof[io][1], o[2] = (float)prof[io][2];
    cr_det_bg_at(d, sk[0] + (-w_in + io * step) * nk[0], sk[1] + (-w_in + io * step) * nk[1], bgc);
    *cloth = cr_det_is_cloth(d, o, bgc);
    {
        /* inside the outline is ball: an edge with cloth (or its shadow)
         * on its inner side is a shadow's edge, or noise */
        int ii = a - 3 > 0 ? a - 3 : 0;
        float q[3] = {(float)prof[ii][0], (float)prof[ii][1], (float)prof[ii][2]};
        float bgi[3];

        cr_det_bg_at(d, sk[0] + (-w_in + ii * step) * nk[0], sk[1] + (-w_in + ii * step) * nk[1], bgi);

        /* (not when looking where the tracker expects a ball: one of the
         * cloth's colour is cloth-like inside its outline too, and the
         * hint, the known radius and the outline's agreement are the
         * evidence) */
        if (!d->looking && cr_det_is_cloth(d, q, bgi))
            return 0.3 * (*cloth ? 1.0 : d->p.contact_weight);
    }
    return *cloth ? 1.0 : d->p.contact_weight;
}

/* Samples the edge on every ray of the outline s/n within [-w_in, w_out]
 * px: up to CR_DET_HYP gradient lobes per ray, strongest first. */
static void cr_det_rays(const cr_detector_t *d, const cr_yuv_image_t *img, double s[][2], double n[][2],
                        double w_in, double w_out, cr_det_rays_t *rs)
{
    const double step = 0.5, t_edge = (d->looking ? CR_DET_LOOK_EDGE : 0.35) * d->t_fg;
    double prof[CR_DET_PROFILE_MAX][3], gm[CR_DET_PROFILE_MAX];
    int k, h, np = (int)floor((w_in + w_out) / step) + 1;

    if (np > CR_DET_PROFILE_MAX)
        np = CR_DET_PROFILE_MAX;
    for (k = 0; k < CR_DET_RAYS; k++) {
        int i, peaks[CR_DET_PROFILE_MAX], npk = 0, nh = 0;

        for (h = 0; h < CR_DET_HYP; h++)
            rs->wt[h][k] = 0.0, rs->ct[h][k] = 0.0, rs->cloth_out[h][k] = 0;
        /* a ray whose ends lie inside the frame (by more than its
         * rounding) lies inside it all along: no test per sample */
        {
            const double ta = -w_in, tb = -w_in + (np - 1) * step, m = 1e-6;
            const double ua = s[k][0] + ta * n[k][0], va = s[k][1] + ta * n[k][1];
            const double ub = s[k][0] + tb * n[k][0], vb = s[k][1] + tb * n[k][1];
            const bool inside = fmin(ua, ub) >= 1.0 + m && fmin(va, vb) >= 1.0 + m && fmax(ua, ub) < d->w - 2 - m &&
                                fmax(va, vb) < d->h - 2 - m;

            for (i = 0; i < np; i++) {
                double t = -w_in + i * step, u = s[k][0] + t * n[k][0], v = s[k][1] + t * n[k][1];

                if (inside)
                    cr_det_colour_in(d, img, u, v, prof[i]);
                else
                    cr_det_colour_at(d, img, u, v, prof[i]);
            }
        }
        gm[0] = gm[np - 1] = 0.0;
        for (i = 1; i + 1 < np; i++) {
            double x = prof[i + 1][0] - prof[i - 1][0], y = prof[i + 1][1] - prof[i - 1][1],
                   z = prof[i + 1][2] - prof[i - 1][2];

            gm[i] = sqrt(x * x + y * y + z * z) / (2.0 * step);
        }
        for (i = 1; i + 1 < np; i++)
            if (gm[i] >= t_edge && gm[i] >= gm[i - 1] && gm[i] > gm[i + 1])
                peaks[npk++] = i;
        /* strongest lobes first */
        while (npk > 0 && nh < CR_DET_HYP) {
            int best = 0, j;
            double e, wd, wt;
            int cloth = 0;

            for (j = 1; j < npk; j++)
                if (gm[peaks[j]] > gm[peaks[best]])
                    best = j;
            wt = cr_det_lobe(d, img, s[k], n[k], prof, gm, np, peaks[best], w_in, &e, &wd, &cloth);
            rs->ct[nh][k] = gm[peaks[best]];
            peaks[best] = peaks[--npk];
            if (wt <= 0.0)
                continue;
            rs->e[nh][k] = e, rs->wd[nh][k] = wd, rs->wt[nh][k] = wt, rs->cloth_out[nh][k] = cloth;
            nh++;
        }
    }
}

/* Puts in slot 0 of every ray the edge hypothesis nearest to the outline
 * predicted by (tx, ty, dl). */
static void cr_det_pick(cr_det_rays_t *rs, double n[][2], double tx, double ty, double dl)
{
    int k, h;

    for (k = 0; k < CR_DET_RAYS; k++) {
        double pred = n[k][0] * tx + n[k][1] * ty + dl, bestr = HUGE_VAL;
        int best = -1;

        for (h = 0; h < CR_DET_HYP; h++)
            if (rs->wt[h][k] > 0.0 && fabs(rs->e[h][k] - pred) < bestr)
                bestr = fabs(rs->e[h][k] - pred), best = h;
        if (best > 0) {
            double e = rs->e[0][k], wd = rs->wd[0][k], wt = rs->wt[0][k], ct = rs->ct[0][k];
            int c = rs->cloth_out[0][k];

            rs->e[0][k] = rs->e[best][k], rs->wd[0][k] = rs->wd[best][k], rs->wt[0][k] = rs->wt[best][k];
            rs->ct[0][k] = rs->ct[best][k];
            rs->cloth_out[0][k] = rs->cloth_out[best][k];
            rs->e[best][k] = e, rs->wd[best][k] = wd, rs->wt[best][k] = wt, rs->ct[best][k] = ct;
            rs->cloth_out[best][k] = c;
        }
    }
}

/* Robust fit of e_k = n_k . t + delta over the rays (each ray's edge
 * hypothesis chosen anew as the estimate improves). delta, a uniform
 * offset of the edges (blur, the shading of the limb), has a prior at d0
 * of weight d_prior (share of the summed edge weight): weak (0.1), or
 * strong (3) once the offset is known, as the radius is: then a
 * translation alone must explain the edges, and edges beyond the outline
 * on one side only (a shadow, the dark cloth beside a ball of the cloth's
 * colour) cannot be matched by moving the centre half way toward them and
 * growing the circle. Returns the support share (rays whose edge agrees
 * within max(1 px, 0.08 r)); t, delta, the free offset (weighted mean of
 * e_k - n_k . t over the agreeing edges, for telling things of another
 * size), the rms of the agreeing residuals, their count and their summed
 * inverse localisation variance (px^-2; an edge of contrast ct is located
 * to about sig_grad / ct px) out. t_start: NULL starts from no
 * translation with every edge; else from there, with only the edges near
 * its outline. */
static double cr_det_fit(cr_det_rays_t *rs, double n[][2], double r_px, double sig_grad, double d_prior, double d0,
                         const double *t_start, double t_out[2], double *delta_out, double *free_out, double *rms_out,
                         int *n_in_out, double *info_out)
{
    double tx = 0.0, ty = 0.0, dl = 0.0, c = 3.0, cfin = r_px * 0.08 > 1.0 ? r_px * 0.08 : 1.0;
    double sfree = 0.0, wfree = 0.0, info = 0.0;
    double wts[CR_DET_RAYS];
    int it, k, n_in = 0;
    double rms = 0.0, sup = 0.0;

    if (t_start) {
        /* from a known start: only the edges near its outline count */
        tx = t_start[0], ty = t_start[1], dl = d0, c = 2.0 * cfin;
        cr_det_pick(rs, n, tx, ty, dl);
        for (k = 0; k < CR_DET_RAYS; k++) {
            double u = (rs->e[0][k] - (n[k][0] * tx + n[k][1] * ty + dl)) / c;

            wts[k] = rs->wt[0][k] > 0.0 && fabs(u) < 1.0 ? rs->wt[0][k] * (1 - u * u) * (1 - u * u) : 0.0;
        }
    } else {
        cr_det_pick(rs, n, 0.0, 0.0, 0.0);
        for (k = 0; k < CR_DET_RAYS; k++)
            wts[k] = rs->wt[0][k];
    }
    for (it = 0; it < 8; it++) {
        /* normal equations for (tx, ty, dl) with a weak prior on dl */
        double A[3][3] = {{0}}, B[3] = {0}, sw = 0.0, det;
        double inv[3][3];
        int i, j;

        for (k = 0; k < CR_DET_RAYS; k++) {
            double a[3] = {n[k][0], n[k][1], 1.0}, w = wts[k];

            if (w <= 0.0)
                continue;
            sw += w;
            for (i = 0; i < 3; i++) {
                for (j = 0; j < 3; j++)
                    A[i][j] += w * a[i] * a[j];
                B[i] += w * a[i] * rs->e[0][k];
            }
        }
        if (sw < 2.0)
            break;
        A[2][2] += d_prior * sw;
        B[2] += d_prior * sw * d0;
        det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
              A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
        if (fabs(det) < 1e-12)
            break;
        inv[0][0] = (A[1][1] * A[2][2] - A[1][2] * A[2][1]) / det;
        inv[0][1] = (A[0][2] * A[2][1] - A[0][1] * A[2][2]) / det;
        inv[0][2] = (A[0][1] * A[1][2] - A[0][2] * A[1][1]) / det;
        inv[1][0] = (A[1][2] * A[2][0] - A[1][0] * A[2][2]) / det;
        inv[1][1] = (A[0][0] * A[2][2] - A[0][2] * A[2][0]) / det;
        inv[1][2] = (A[0][2] * A[1][0] - A[0][0] * A[1][2]) / det;
        inv[2][0] = (A[1][0] * A[2][1] - A[1][1] * A[2][0]) / det;
        inv[2][1] = (A[0][1] * A[2][0] - A[0][0] * A[2][1]) / det;
        inv[2][2] = (A[0][0] * A[1][1] - A[0][1] * A[1][0]) / det;
        tx = inv[0][0] * B[0] + inv[0][1] * B[1] + inv[0][2] * B[2];
        ty = inv[1][0] * B[0] + inv[1][1] * B[1] + inv[1][2] * B[2];
        dl = inv[2][0] * B[0] + inv[2][1] * B[1] + inv[2][2] * B[2];
        cr_det_pick(rs, n, tx, ty, dl);
        /* Tukey weights, shrinking scale */
        for (k = 0; k < CR_DET_RAYS; k++) {
            double r, u;

            wts[k] = 0.0;
            if (rs->wt[0][k] <= 0.0)
                continue;
            r = rs->e[0][k] - (n[k][0] * tx + n[k][1] * ty + dl);
            u = r / c;
            wts[k] = fabs(u) < 1.0 ? rs->wt[0][k] * (1 - u * u) * (1 - u * u) : 0.0;
        }
        c = c * 0.7 > cfin ? c * 0.7 : cfin;
    }
    for (k = 0; k < CR_DET_RAYS; k++) {
        double r;

        if (rs->wt[0][k] <= 0.0)
            continue;
        r = rs->e[0][k] - (n[k][0] * tx + n[k][1] * ty + dl);
        if (fabs(r) < cfin) {
            /* an edge of contrast ct is located to about sig_grad / ct px */
            double sl = sig_grad / fmax(rs->ct[0][k], 1e-3);

            n_in++;
            rms += r * r;
            sup += 1.0;
            sfree += wts[k] * (r + dl);
            wfree += wts[k];
            info += 1.0 / (sl * sl + 0.01);
        }
    }
    t_out[0] = tx;
    t_out[1] = ty;
    *delta_out = dl;
    *free_out = wfree > 0.0 ? sfree / wfree : dl;
    *rms_out = n_in ? sqrt(rms / n_in) : 0.0;
    *n_in_out = n_in;
    *info_out = info;
    return sup / CR_DET_RAYS;
}

/* The translation of the outline at the known radius (edge offset d0) that
 * the most edge weight agrees with (within max(1 px, 0.08 r), Tukey
 * weights), searched within lim px of t0 on a half-pixel grid, then an
 * eighth of a pixel around the best: a shadow, or the dark cloth beside a
 * ball of the cloth's colour, moves the edges of the rays on one side
 * outward, and no single translation agrees with them, while the rays
 * where the ball meets the lit cloth all agree with the true one. Returns
 * the agreeing share of the edge weight. */
static double cr_det_consensus(const cr_det_rays_t *rs, double n[][2], double r_px, double d0, const double t0[2],
                               double lim, double t_out[2])
{
    const double cfin = r_px * 0.08 > 1.0 ? r_px * 0.08 : 1.0;
    double best = -1.0, total = 0.0, c0[2] = {t0[0], t0[1]}, step = 0.5, span = lim;
    /* the rays with an edge, and their edges: a ray without one adds
     * nothing to any score */
    double ae[CR_DET_RAYS][CR_DET_HYP], aw[CR_DET_RAYS][CR_DET_HYP], an[CR_DET_RAYS][2];
    int anh[CR_DET_RAYS], na = 0;
    int k, h, pass;

    for (k = 0; k < CR_DET_RAYS; k++) {
        double w = 0.0;
        int c = 0;

        for (h = 0; h < CR_DET_HYP; h++) {
            w = rs->wt[h][k] > w ? rs->wt[h][k] : w;
            if (!(rs->wt[h][k] <= 0.0))
                ae[na][c] = rs->e[h][k], aw[na][c++] = rs->wt[h][k];
        }
        total += w;
        if (c > 0)
            an[na][0] = n[k][0], an[na][1] = n[k][1], anh[na++] = c;
    }
    t_out[0] = t0[0], t_out[1] = t0[1];
    if (total <= 0.0)
        return 0.0;
    for (pass = 0; pass < 2; pass++) {
        int m = (int)ceil(span / step), i, j;

        for (i = -m; i <= m; i++) {
            for (j = -m; j <= m; j++) {
                double tx = c0[0] + i * step, ty = c0[1] + j * step, sc = 0.0;

                if (pass == 0 && i * i + j * j > m * m)
                    continue;
                for (k = 0; k < na; k++) {
                    double pred = an[k][0] * tx + an[k][1] * ty + d0, bw = 0.0;

                    for (h = 0; h < anh[k]; h++) {
                        double u = (ae[k][h] - pred) / cfin, w;

                        if (fabs(u) >= 1.0)
                            continue;
                        w = aw[k][h] * (1 - u * u) * (1 - u * u);
                        bw = w > bw ? w : bw;
                    }
                    sc += bw;
                }
                if (sc > best)
                    best = sc, t_out[0] = tx, t_out[1] = ty;
            }
        }
        c0[0] = t_out[0], c0[1] = t_out[1];
        span = step;
        step = 0.125;
    }
    return best / total;
}

/* ---- identification -------------------------------------------------------------------- */

/* Nominal sRGB of the colour classes (a standard ball set). */
static const double cr_det_class_rgb[CR_COLOUR_COUNT][3] = {
    {242, 240, 230}, {250, 192, 8}, {12, 48, 165}, {212, 22, 24}, {82, 34, 132},
    {250, 104, 12},  {8, 118, 58},  {122, 20, 30}, {16, 16, 18},
};

/* Log-likelihood of a black ball given the share of the disc's pixels that
 * are dark and of those that are white (wf): all but the white dark, to
 * within width; -4 when nearly all is white. */
static double cr_det_black_ll(double dark_frac, double wf, double width)
{
    double nw = 1.0 - wf;

    return nw > 0.05 ? -0.5 * pow((1.0 - dark_frac / nw) / width, 2.0) : -4.0;
}

static double cr_det_hue_diff(double a, double b)
{
    double x = fabs(a - b);

    return x > 180.0 ? 360.0 - x : x;
}

/* The background colour around a ball at (u, v) of radius r px: the
 * per-channel median of the model at eight points 1.8 r out. */
static void cr_det_cloth_around(const cr_detector_t *d, double u, double v, double r, float out[3])
{
    float c[3][8];
    int k, ch, a, b;

    for (k = 0; k < 8; k++) {
        float p[3];

        cr_det_bg_at(d, u + 1.8 * r * cos(k * CR_DET_PI / 4.0), v + 1.8 * r * sin(k * CR_DET_PI / 4.0), p);

        for (ch = 0; ch < 3; ch++)
            c[ch][k] = p[ch];
    }
    for (ch = 0; ch < 3; ch++) {
        for (a = 1; a < 8; a++)
            for (b = a; b > 0 && c[ch][b - 1] > c[ch][b]; b--) {
                float t = c[ch][b];

                c[ch][b] = c[ch][b - 1];
                c[ch][b - 1] = t;
            }
        out[ch] = 0.5f * (c[ch][3] + c[ch][4]);
    }
}

/* Fills colour_p, white_frac and id_p of *o from the pixels of its inner
 * disc; returns the share of those pixels that differ from the background
 * (a ball, or what hides it: a ring of edges around cloth is no ball). */
static double cr_det_identify(cr_detector_t *d, const cr_yuv_image_t *img, cr_detection_t *o)
{
    enum { NPX = 1024 };
    const double r = o->r_px * 0.8, r2 = r * r, g = d->p.chroma_gain, t2 = d->t_fg * d->t_fg;
    int i0 = (int)floor(o->u - r), i1 = (int)ceil(o->u + r), j0 = (int)floor(o->v - r), j1 = (int)ceil(o->v + r);
    int i, j, n = 0, n_white = 0, n_dark = 0, n_col = 0, n_cloth = 0, k, stp = 1, nv = 0, hist[64] = {0};
    float pv[NPX], ps[NPX], pcb[NPX], pcr[NPX], pdu[NPX], pdv[NPX];
    double wsx = 0.0, wsy = 0.0, wsxx = 0.0, rms_w = 0.0, wlevel;
    double scb = 0.0, scr = 0.0, ssum = 0.0, vsum = 0.0, vmax_ref = 1.0, bgl;
    double lw[CR_COLOUR_COUNT], wf, colour_frac, dark_frac, hue = 0.0, sat = 0.0, val_rel = 0.0, sumw, lid[16];
    float bgc[3], under[3], bgrow[3];
    bool absorbed;

    /* a ball put down while a hand hid it can have become background where
     * it rests, and its own pixels would pass for cloth: where the model
     * under the ball is unlike the cloth around it, the cloth is taken from
     * around it (elsewhere from under it, row by row: the light's gradient) */
    cr_det_bg_at(d, o->u, o->v, under);
    cr_det_cloth_around(d, o->u, o->v, o->r_px, bgc);
    absorbed = cr_det_dist3(under, bgc) > d->t_fg;
    if (!absorbed)
        memcpy(bgc, under, sizeof bgc);
    bgl = (bgc[0] - 16.0) * 1.164;
    if (bgl < 8.0)
        bgl = 8.0;
    i0 = i0 < 0 ? 0 : i0;
    j0 = j0 < 0 ? 0 : j0;
    i1 = i1 >= d->w ? d->w - 1 : i1;
    j1 = j1 >= d->h ? d->h - 1 : j1;
    while ((double)((i1 - i0) / stp + 1) * ((j1 - j0) / stp + 1) > NPX)
        stp++;
    /* pass 1: RGB of the disc's pixels that are not cloth */
    for (j = j0; j <= j1; j += stp) {
        const uint8_t *yr = img->y + (size_t)j * img->stride_y, *ur = img->u + (size_t)(j / 2) * img->stride_u,
                      *vr = img->v + (size_t)(j / 2) * img->stride_v;
        const float *bp = bgc;

        if (!absorbed) {
            cr_det_bg_at(d, o->u, j, bgrow);
            bp = bgrow;
        }

        for (i = i0; i <= i1; i += stp) {
            double du = i - o->u, dv = j - o->v, yy, cb, cr, R, G, B, mx, mn, e0, e1, e2;

            if (du * du + dv * dv > r2)
                continue;
            n++;
            e0 = yr[i] - bp[0], e1 = g * ur[i / 2] - bp[1], e2 = g * vr[i / 2] - bp[2];
            if (e0 * e0 + e1 * e1 + e2 * e2 < t2) {
                n_cloth++;
                continue;
            }
            yy = 1.164383 * (yr[i] - 16.0);
            cb = ur[i / 2] - 128.0;
            cr = vr[i / 2] - 128.0;
            R = yy + 1.596027 * cr;
            G = yy - 0.391762 * cb - 0.812968 * cr;
            B = yy + 2.017232 * cb;
            mx = R > G ? (R > B ? R : B) : (G > B ? G : B);
            mn = R < G ? (R < B ? R : B) : (G < B ? G : B);
            if (nv < NPX) {
                pv[nv] = (float)mx;
                ps[nv] = (float)(mx > 1.0 ? (mx - mn) / mx : 0.0);
                pcb[nv] = (float)cb;
                pcr[nv] = (float)cr;
                pdu[nv] = (float)du;
                pdv[nv] = (float)dv;
                hist[(int)cr_det_clamp(mx / 4.0, 0.0, 63.0)]++;
                nv++;
            }
        }
    }
    /* 90th percentile of the brightness */
    {
        int c = 0, want = (int)(0.9 * nv);

        for (k = 0; k < 64; k++) {
            c += hist[k];
            if (c > want) {
                vmax_ref = 4.0 * k + 2.0;
                break;
            }
        }
    }
    /* white is judged against the white reference learned from white balls
     * (a dark ball's own brightest pixels are not white) */
    wlevel = vmax_ref;
    if (d->white_n > 5 && d->white_ratio * bgl > wlevel)
        wlevel = d->white_ratio * bgl;
    /* pass 2: white, dark and coloured pixels */
    for (k = 0; k < nv; k++) {
        double v = pv[k], s = ps[k];

        if (s < 0.3 && v > 0.55 * wlevel && v > 0.7 * bgl) {
            n_white++;
            wsx += pdu[k], wsy += pdv[k], wsxx += pdu[k] * pdu[k] + pdv[k] * pdv[k];
        }
        else if (v < 0.3 * vmax_ref || v < 0.35 * bgl || (s < 0.3 && v < 0.55 * vmax_ref))
            n_dark++;
        else {
            double cl = hypot(pcb[k], pcr[k]);

            n_col++;
            if (cl > 0.0) {
                scb += s * pcb[k] / cl;
                scr += s * pcr[k] / cl;
            }
            ssum += s;
            vsum += v;
        }
    }
    if (nv == 0) {
        for (k = 0; k < CR_COLOUR_COUNT; k++)
            o->colour_p[k] = 1.0f / CR_COLOUR_COUNT;
        for (k = 0; k < CR_VISION_MAX_BALLS; k++)
            o->id_p[k] = 1.0f / CR_VISION_MAX_BALLS;
        o->white_frac = 0.0f;
        o->colour_fit = 0.0f;
        return n ? 1.0 - (double)n_cloth / n : 0.0;
    }
    wf = (double)n_white / nv;
    if (n_white > 0) {
        /* spread of the white about its own centre: a number circle is a
         * compact spot (rms <= 0.31 r), a stripe's white is two polar caps
         * or a wide cap */
        double mx_ = wsx / n_white, my_ = wsy / n_white;

        rms_w = sqrt(fmax(wsxx / n_white - mx_ * mx_ - my_ * my_, 0.0)) / o->r_px;
    }
    colour_frac = (double)n_col / nv;
    dark_frac = (double)n_dark / nv;
    if (n_col > 0) {
        hue = atan2(scr, scb) * 180.0 / CR_DET_PI;
        sat = ssum / n_col;
        val_rel = vsum / n_col / bgl;
    }
    /* log-likelihoods of the dominant non-white colour; hue is the angle in the CbCr plane */
    for (k = 1; k < CR_COLOUR_COUNT; k++) {
        const double *c = cr_det_class_rgb[k];
        double l = 0.0, mx = c[0] > c[1] ? (c[0] > c[2] ? c[0] : c[2]) : (c[1] > c[2] ? c[1] : c[2]);
        double mn = c[0] < c[1] ? (c[0] < c[2] ? c[0] : c[2]) : (c[1] < c[2] ? c[1] : c[2]);
        double ccb = -0.148223 * c[0] - 0.290993 * c[1] + 0.439216 * c[2];
        double ccr = 0.439216 * c[0] - 0.367788 * c[1] - 0.071427 * c[2];
        double h = atan2(ccr, ccb) * 180.0 / CR_DET_PI, s = (mx - mn) / mx;

        if (k == CR_COLOUR_BLACK) {
            l = cr_det_black_ll(dark_frac, wf, 0.25);
        } else if (n_col < 3) {
            l = -6.0;
        } else {
            double dh = cr_det_hue_diff(hue, h) / 14.0;

            l = -0.5 * dh * dh;
            /* red and maroon share their hue: brightness against the white
             * reference (learned from white balls, both relative to the cloth beside them) */
            if ((k == CR_COLOUR_RED || k == CR_COLOUR_MAROON) && d->white_n > 5)
                l += -0.5 * pow(log(val_rel / d->white_ratio / (mx / 242.0)) / 0.3, 2.0);
            l += -0.5 * pow((sat - s) / 0.3, 2.0);
            l += -0.5 * pow((1.0 - colour_frac / (1.0 - wf + 1e-9)) / 0.5, 2.0);
        }
        lw[k] = l;
    }
    lw[CR_COLOUR_WHITE] = -0.5 * pow((1.0 - wf) / 0.12, 2.0);
    {
        double mx = -1e300, s = 0.0;

        for (k = 0; k < CR_COLOUR_COUNT; k++)
            if (lw[k] > mx)
                mx = lw[k];
        /* how well the best class fits, for telling a ball from something
         * of no ball's colour (skin, a cue's wood); the black class's own
         * term is strict (a black ball mirrors the cloth at its limb), so
         * here its width is doubled */
        o->colour_fit = (float)fmax(mx, cr_det_black_ll(dark_frac, wf, 0.5));
        for (k = 0; k < CR_COLOUR_COUNT; k++)
            s += lw[k] = exp(lw[k] - mx);
        for (k = 0; k < CR_COLOUR_COUNT; k++)
            o->colour_p[k] = (float)(lw[k] / s);
    }
    o->white_frac = (float)wf;
    /* learn the white reference from confident, sharp white balls */
    if (o->colour_p[CR_COLOUR_WHITE] > 0.9f && vmax_ref > bgl && o->blur_dx == 0.0 && o->blur_dy == 0.0) {
        double ratio = vmax_ref / bgl;

        d->white_ratio = d->white_n ? d->white_ratio + (ratio - d->white_ratio) / (d->white_n < 50 ? d->white_n + 1 : 50)
                                    : ratio;
        d->white_n++;
        if (d->white_n == 6)
            d->white_ready = 1;
    }
    /* ids: solids show little white, stripes a lot, the cue ball all (and
     * so does a stripe seen from its pole, a few per cent of orientations) */
    {
        double compact = 1.0 - cr_det_smoothstep(0.3, 0.42, rms_w);
        double f_solid = wf < 0.1 ? 1.0 : compact * (1.0 - cr_det_smoothstep(0.35, 0.6, wf));
        double f_stripe = wf < 0.05 ? 0.02 : (1.0 - compact) * cr_det_smoothstep(0.05, 0.25, wf) + 0.02;
        double f_cue = cr_det_smoothstep(0.75, 0.95, wf), pole = 0.04;

        for (k = 0; k < 16; k++)
            lid[k] = 0.0;
        lid[0] = o->colour_p[CR_COLOUR_WHITE] * f_cue + 1e-4;
        for (k = 1; k <= 7; k++) {
            lid[k] = o->colour_p[k] * f_solid + 1e-4;
            lid[k + 8] = o->colour_p[k] * f_stripe + o->colour_p[CR_COLOUR_WHITE] * pole + 1e-4;
        }
        lid[8] = o->colour_p[CR_COLOUR_BLACK] * f_solid + 1e-4;
        sumw = 0.0;
        for (k = 0; k < 16; k++)
            sumw += lid[k];
        for (k = 0; k < 16; k++)
            o->id_p[k] = (float)(lid[k] / sumw);
    }
    return n ? 1.0 - (double)n_cloth / n : 0.0;
}

/* ---- the per-frame run -------------------------------------------------------------------- */

/* Coarse cell of full-res (u, v) and the cell radius of 1.3 ball radii. */
static void cr_det_ball_cells(const cr_detector_t *d, const cr_detection_t *o, double *ci, double *cj, double *rr)
{
    *rr = 1.3 * o->r_px * 0.5 / d->gs;
    *ci = (o->u - 0.5) * 0.5 / d->gs;
    *cj = (o->v - 0.5) * 0.5 / d->gs;
}

/* True when no coarse sample within 1.3 radii of last frame's detection o
 * changed by more than the change threshold (squared, t2) since it was last
 * examined (d->ref): the ball has not moved, whatever else in its region
 * did. Always false when change_sigmas is 0 (frame-independent results) or
 * keep_quiet_balls is off. */
static bool cr_det_ball_quiet(const cr_detector_t *d, const cr_detection_t *o, double t2)
{
    double rr, ci, cj;
    int i0, i1, j0, j1, i, j, n = 0;

    if (d->p.change_sigmas <= 0.0 || !d->p.keep_quiet_balls)
        return false;
    cr_det_ball_cells(d, o, &ci, &cj, &rr);
    i0 = (int)floor(ci - rr), i1 = (int)ceil(ci + rr), j0 = (int)floor(cj - rr), j1 = (int)ceil(cj + rr);
    for (j = j0 < 0 ? 0 : j0; j <= j1 && j < d->gh; j++)
        for (i = i0 < 0 ? 0 : i0; i <= i1 && i < d->gw; i++) {
            size_t k = (size_t)j * d->gw + i;

            if (!d->gmask[k] || (i - ci) * (i - ci) + (j - cj) * (j - cj) > rr * rr)
                continue;
            if (cr_det_cell_dist2(d->obs, d->ref, d->ng, k) > t2)
                return false;
            n++;
        }
    return n > 0;
}

/* True when coarse cell (gi, gj) lies under a ball kept this frame
 * (prev_dead 2). */
static bool cr_det_under_kept(const cr_detector_t *d, int gi, int gj)
{
    int a;

    for (a = 0; a < d->n_prev; a++) {
        double rr, ci, cj;

        if (d->prev_dead[a] != 2)
            continue;
        cr_det_ball_cells(d, &d->prev[a], &ci, &cj, &rr);
        if ((gi - ci) * (gi - ci) + (gj - cj) * (gj - cj) <= rr * rr)
            return true;
    }
    return false;
}

/* Fits candidate c; fills *o and returns true for a ball. */
static bool cr_det_refine(cr_detector_t *d, const cr_yuv_image_t *img, const cr_det_cand_t *cd, cr_detection_t *o)
{
    const double R = d->tab.ball_radius_mm;
    double s[CR_DET_RAYS][2], n[CR_DET_RAYS][2], c[2], r_px = 0.0, x, y, t[2] = {0, 0}, dl = 0.0, rms = 0.0;
    double sup = 0.0, u = cd->u, v = cd->v, w_in, w_out, bx = 0.0, by = 0.0, w_extra = 0.0, dl_free = 0.0;
    double info = 0.0, amb = 0.0;
    /* an edge of contrast ct (levels/px) is located to about sig_loc / ct
     * px: the noise of the colour gradient of a ray profile (two samples 1 px
     * apart, each about twice as noisy as a 2x2 coarse sample: 2.8 noise)
     * over about half a pixel of lobe */
    const double sig_loc = 1.4 * d->noise;
    /* the uniform edge offset of sharp, complete outlines (the shading of
     * the limb, the optics), once measured */
    const double d0 = d->edge_n >= 5 ? d->edge_off : 0.0;
    cr_det_rays_t rs, rs0;
    int it, n_in = 0, k, n_contact;

    if (!cr_camera_unproject_plane(&d->cam, u, v, R, &x, &y))
        return false;
    for (it = 0; it < 4; it++) {
        if (!cr_det_outline(d, x, y, s, n, c, &r_px))
            return false;
        w_in = 2.0 + 0.25 * r_px + (it > 0 ? fmax(hypot(bx, by), w_extra) : 0.0);
        w_out = w_in;
        cr_det_rays(d, img, s, n, w_in, w_out, &rs);
        rs0 = rs;
        sup = cr_det_fit(&rs, n, r_px, sig_loc, 0.1, 0.0, NULL, t, &dl, &dl_free, &rms, &n_in, &info);
        n_contact = 0;
        for (k = 0; k < CR_DET_RAYS; k++)
            n_contact += rs.wt[0][k] > 0.0 && !rs.cloth_out[0][k] &&
                         fabs(rs.e[0][k] - n[k][0] * t[0] - n[k][1] * t[1] - dl) < fmax(1.0, 0.08 * r_px);
        /* hopeless after the first look: stop early */
        if (n_in < 6 || (it == 0 && sup < 0.6 * d->p.min_support))
            return false;
        u = c[0] + t[0];
        v = c[1] + t[1];
        if (!cr_camera_unproject_plane(&d->cam, u, v, R, &x, &y))
            return false;
        /* streak: lobe widths beyond the sharp ones grow with |b . n| */
        {
            double A[3][3] = {{0}}, B[3] = {0}, wmin = 1e9, sol[3], det;
            int m = 0;

            int n_wide = 0;

            for (k = 0; k < CR_DET_RAYS; k++) {
                if (rs.wt[0][k] > 0.0 && rs.cloth_out[0][k] && rs.wd[0][k] < wmin)
                    wmin = rs.wd[0][k];
                n_wide += rs.wt[0][k] > 0.0 && rs.wd[0][k] > 0.6 * (w_in + w_out);
            }
            /* edges as wide as the window: a streak; look wider next time */
            if (n_wide >= 4)
                w_extra = r_px;
            for (k = 0; k < CR_DET_RAYS; k++) {
                double bn, f[3];
                int i2, j2;

                if (rs.wt[0][k] <= 0.0 || !rs.cloth_out[0][k])
                    continue;
                bn = 0.5 * (rs.wd[0][k] - wmin);
                f[0] = n[k][0] * n[k][0], f[1] = 2.0 * n[k][0] * n[k][1], f[2] = n[k][1] * n[k][1];
                for (i2 = 0; i2 < 3; i2++) {
                    for (j2 = 0; j2 < 3; j2++)
                        A[i2][j2] += f[i2] * f[j2];
                    B[i2] += f[i2] * bn * bn;
                }
                m++;
            }
            bx = by = 0.0;
            det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                  A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
            if (m >= 8 && fabs(det) > 1e-9) {
                double mxx, mxy, myy, tr, dt, l1, ex, ey, el;

                sol[0] = (B[0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (B[1] * A[2][2] - A[1][2] * B[2]) +
                          A[0][2] * (B[1] * A[2][1] - A[1][1] * B[2])) / det;
                sol[1] = (A[0][0] * (B[1] * A[2][2] - A[1][2] * B[2]) - B[0] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                          A[0][2] * (A[1][0] * B[2] - B[1] * A[2][0])) / det;
                sol[2] = (A[0][0] * (A[1][1] * B[2] - B[1] * A[2][1]) - A[0][1] * (A[1][0] * B[2] - B[1] * A[2][0]) +
                          B[0] * (A[1][0] * A[2][1] - A[1][1] * A[2][0])) / det;
                mxx = sol[0], mxy = sol[1], myy = sol[2];
                tr = mxx + myy;
                dt = mxx * myy - mxy * mxy;
                l1 = 0.5 * tr + sqrt(fmax(0.25 * tr * tr - dt, 0.0));
                if (l1 > 1.0) {
                    if (fabs(mxy) > 1e-12)
                        ex = l1 - myy, ey = mxy;
                    else if (mxx >= myy)
                        ex = 1.0, ey = 0.0;
                    else
                        ex = 0.0, ey = 1.0;
                    el = hypot(ex, ey);
                    bx = ex / el * sqrt(l1);
                    by = ey / el * sqrt(l1);
                }
            }
        }
        if (hypot(t[0], t[1]) < 0.1 && it > 0)
            break;
    }
    /* ambiguity: the same edges fitted as a circle of the known radius (the
     * offset held at the one measured on sharp, complete outlines). A
     * shadow, or the dark cloth beside a ball of the cloth's colour, gives
     * edges beyond the outline on one side that our fit (offset nearly
     * free) explains by a larger circle half way toward them, the known
     * radius by a shift to either side: where the two fits disagree the
     * outline is uncertain by about half their distance. Not for a streak
     * (its offset is its own) nor a ball touching others (edges at the
     * contacts lie off its outline) */
    if (d->edge_n >= 5 && hypot(bx, by) < 0.25 * r_px && w_extra == 0.0 && n_contact <= CR_DET_RAYS / 8) {
        double t2[2], dl2, fr2, rms2, info2;
        int n2;

        if (cr_det_fit(&rs0, n, r_px, sig_loc, 3.0, d0, NULL, t2, &dl2, &fr2, &rms2, &n2, &info2) > 0.0 && n2 >= 6)
            amb = 0.5 * hypot(t2[0] - t[0], t2[1] - t[1]);
        /* the fits disagree and the free one is larger than a ball by more
         * than a quarter pixel (2 % of the radius): edges of something
         * beyond the outline (a cast shadow, the dark cloth beside a ball
         * of the cloth's colour) count in it. The ball is where the
         * outline at the known radius agrees with the most edge weight,
         * when at least 40 % of the rays agree with it (the shadow side
         * does not); the support stays that of the free fit (the ball is
         * seen as much), and sigma's ambiguity is half the distance
         * between the two (the other may be right after all). Over the
         * ambiguous outlines of ten 720p clips (every cloth) this halves
         * the median error; maroon on red cloth stays poor either way. */
        if (amb > 0.25) {
            double tc[2], t3[2], dl3, fr3, rms3, info3, sup3;
            int n3;

            cr_det_consensus(&rs0, n, r_px, d0, t, 0.35 * r_px, tc);
            sup3 = cr_det_fit(&rs0, n, r_px, sig_loc, 3.0, d0, tc, t3, &dl3, &fr3, &rms3, &n3, &info3);
            /* either may be the ball: uncertain by half their distance */
            if (n3 >= 6)
                amb = fmax(amb, 0.5 * hypot(t3[0] - t[0], t3[1] - t[1]));
            if (n3 >= 6 && sup3 >= 0.4 && dl - d0 > fmax(0.25, 0.02 * r_px)) {
                u = c[0] + t3[0];
                v = c[1] + t3[1];
                if (!cr_camera_unproject_plane(&d->cam, u, v, R, &x, &y))
                    return false;
                t[0] = t3[0], t[1] = t3[1], dl = dl3, rms = rms3, n_in = n3, info = info3;
            }
        }
    }
    /* the radius is known: edges much inside or outside the predicted
     * outline belong to something else (a spot, the cue, a hand) */
    if (sup < d->p.min_support || fabs(dl) > 0.75 + 0.08 * r_px)
        return false;
    if (!cr_det_centre_ok(d, x, y, 0.1 * R))
        return false;
    memset(o, 0, sizeof *o);
    o->u = u;
    o->v = v;
    o->x = x;
    o->y = y;
    o->r_px = r_px;
    {
        double mm_per_px = R / r_px;

        double scat = n_in > 0 ? 2.0 * rms / sqrt((double)n_in) : 1.0, loc2 = info > 0.0 ? 2.0 / info : 1.0;

        /* fit scatter, localisation from the outline's contrast against
         * the noise (a faint outline locates the ball less well) and the
         * ambiguity, in quadrature, plus a systematic part (edge model,
         * compression); wider when less of the outline agrees */
        o->sigma_mm = mm_per_px * (0.12 + sqrt(scat * scat + loc2 + amb * amb)) / sqrt(sup);
        if (hypot(bx, by) > 0.25 * r_px) {
            double x0, y0, x1, y1;

            if (cr_camera_unproject_plane(&d->cam, u - bx, v - by, R, &x0, &y0) &&
                cr_camera_unproject_plane(&d->cam, u + bx, v + by, R, &x1, &y1)) {
                o->blur_dx = 0.5 * (x1 - x0);
                o->blur_dy = 0.5 * (y1 - y0);
            }
        }
    }
    /* the edge offset, learned from sharp, nearly complete outlines */
    if (!d->looking && sup >= 0.85 && hypot(bx, by) < 0.25 * r_px && n_in >= CR_DET_RAYS * 3 / 4) {
        d->edge_off = d->edge_n ? d->edge_off + (dl_free - d->edge_off) / (d->edge_n < 100 ? d->edge_n + 1 : 100)
                                : dl_free;
        d->edge_n++;
    }
    o->visible = (float)cr_det_clamp(sup / 0.85, 0.0, 1.0);
    /* half the outline seen and agreeing: an even chance; three quarters: sure */
    o->score = (float)cr_det_clamp((sup - 0.25) / 0.5, 0.0, 1.0);
    return true;
}

/* How far from (u, v) along (pu, pv) the frame stays unlike the cloth,
 * px, up to lim. */
static double cr_det_extent(const cr_detector_t *d, const cr_yuv_image_t *img, double u, double v, double pu,
                            double pv, double lim)
{
    double t;

    for (t = 0.0; t <= lim; t += 0.5) {
        double c[3];
        float o[3], b[3];

        cr_det_colour_at(d, img, u + t * pu, v + t * pv, c);
        o[0] = (float)c[0], o[1] = (float)c[1], o[2] = (float)c[2];
        cr_det_bg_at(d, u + t * pu, v + t * pv, b);
        if (cr_det_is_cloth(d, o, b))
            return t;
    }
    return lim;
}

/* A fast ball smears into a streak whose two ends look like two balls.
 * Two detections are one streak when the frame between them is as wide as
 * a ball all along (two balls side by side, or touching, are narrower at
 * the middle or at their contact). The merged detection sits at the
 * middle of the streak (mid-exposure), with half its length as blur.
 * Returns the new count. */
static int cr_det_merge_streaks(cr_detector_t *d, const cr_yuv_image_t *img, cr_detection_t *dets, uint8_t *reuse,
                                int nd)
{
    const double R = d->tab.ball_radius_mm;
    int pass;

    for (pass = 0; pass < 4; pass++) {
        int i, j, bi = -1, bj = -1;
        double best = 0.0;

        for (i = 0; i < nd; i++)
            for (j = i + 1; j < nd; j++) {
                double r = 0.5 * (dets[i].r_px + dets[j].r_px), du = dets[j].u - dets[i].u,
                       dv = dets[j].v - dets[i].v, D = hypot(du, dv), au, av;
                int q, ok = 1;

                if (D < 1.2 * r || D > 8.0 * r || D <= best || (reuse[i] && reuse[j]))
                    continue;
                /* both ends show the same ball: the same colour class, or
                 * nearly the same colour distribution (a streak's blur mixes
                 * the ball with the cloth: orange over red cloth reads red at
                 * one end and maroon at the other) */
                {
                    int ci = 0, cj = 0, c;
                    double same = 0.0;

                    for (c = 0; c < CR_COLOUR_COUNT; c++) {
                        ci = dets[i].colour_p[c] > dets[i].colour_p[ci] ? c : ci;
                        cj = dets[j].colour_p[c] > dets[j].colour_p[cj] ? c : cj;
                        same += sqrt(dets[i].colour_p[c] * dets[j].colour_p[c]);
                    }
                    if ((ci != cj && same < 0.8) || same < 0.5 || fabs(dets[i].white_frac - dets[j].white_frac) > 0.3)
                        continue;
                }
                au = du / D, av = dv / D;
                for (q = -1; q <= 1 && ok; q++) {
                    double mu = dets[i].u + (0.5 + 0.25 * q) * du, mv = dets[i].v + (0.5 + 0.25 * q) * dv;
                    double wp = cr_det_extent(d, img, mu, mv, -av, au, 1.6 * r);
                    double wm = cr_det_extent(d, img, mu, mv, av, -au, 1.6 * r);

                    ok = wp > 0.7 * r && wp < 1.35 * r && wm > 0.7 * r && wm < 1.35 * r;
                }
                if (ok)
                    best = D, bi = i, bj = j;
            }
        if (bi < 0)
            break;
        {
            cr_detection_t m = dets[bi].score >= dets[bj].score ? dets[bi] : dets[bj];
            double u = 0.5 * (dets[bi].u + dets[bj].u), v = 0.5 * (dets[bi].v + dets[bj].v), x, y, x0, y0, x1, y1;
            double au = dets[bj].u - dets[bi].u, av = dets[bj].v - dets[bi].v, D = hypot(au, av);
            const double su = dets[bi].u, sv = dets[bi].v;
            int k;

            if (!cr_camera_unproject_plane(&d->cam, u, v, R, &x, &y) ||
                !cr_camera_unproject_plane(&d->cam, dets[bi].u, dets[bi].v, R, &x0, &y0) ||
                !cr_camera_unproject_plane(&d->cam, dets[bj].u, dets[bj].v, R, &x1, &y1))
                break;
            m.u = u, m.v = v, m.x = x, m.y = y;
            m.blur_dx = 0.5 * (x1 - x0);
            m.blur_dy = 0.5 * (y1 - y0);
            m.sigma_mm += 0.1 * hypot(m.blur_dx, m.blur_dy);
            m.score = (float)fmin(dets[bi].score, dets[bj].score);
            /* drop both ends and whatever else lies on the streak */
            for (k = 0; k < nd; k++) {
                double t = ((dets[k].u - su) * au + (dets[k].v - sv) * av) / (D * D);
                double pu = su + t * au - dets[k].u, pv = sv + t * av - dets[k].v;

                if (t > -0.3 && t < 1.3 && hypot(pu, pv) < 0.8 * dets[k].r_px) {
                    dets[k] = dets[nd - 1];
                    reuse[k] = reuse[nd - 1];
                    nd--;
                    k--;
                }
            }
            reuse[nd] = 0;
            dets[nd++] = m;
        }
    }
    return nd;
}

/* The pixel count at quantile q (0..1) of a histogram of n bins. */
static double cr_det_hist_q(const int *h, int n, int total, double q)
{
    double want = q * total, c = 0.0;
    int k;

    for (k = 0; k < n; k++) {
        if (c + h[k] >= want)
            return k + (h[k] > 0 ? (want - c) / h[k] : 0.0);
        c += h[k];
    }
    return n;
}

/* The centre's travel over the exposure, half-res px, from the ink of a
 * smear summed across it per bin along it (centre bin mid): a ball moving
 * by 2b gives a plateau over |x| < b - r that falls to nothing at b + r,
 * through half the plateau at exactly |x| = b whatever the contrast (half
 * the disc is then on each side). The extent of the pixels unlike the
 * cloth is shorter by how much of each faint end fell below the threshold.
 * guess (that extent less a width) when there is no plateau. */
static double cr_det_smear_travel(const float *ink, int nb, double mid, double guess)
{
    int c = (int)lrint(mid), k;
    double plat = 0.0, half, ends[2];
    int np = 0, side;

    if (guess < 2.0 || c < 1 || c >= nb - 1)
        return guess;
    for (k = (int)floor(c - 0.25 * guess); k <= (int)ceil(c + 0.25 * guess); k++)
        if (k >= 0 && k < nb)
            plat += ink[k], np++;
    if (np == 0 || !(plat > 0.0))
        return guess;
    half = 0.5 * plat / np;
    for (side = 0; side < 2; side++) {
        int step = side ? 1 : -1;

        ends[side] = -1.0;
        for (k = c; k + step >= 0 && k + step < nb; k += step)
            if (ink[k + step] < half && ink[k] >= half) {
                /* linear between bins k and k + step */
                ends[side] = fabs(k + step * (ink[k] - half) / (ink[k] - ink[k + step]) - c);
                break;
            }
    }
    if (ends[0] < 0.0 || ends[1] < 0.0)
        return guess;
    return ends[0] + ends[1];
}

/* Detection a of this frame may be a part of a smear (its end, or the
 * middle taken for a ball): found anew this frame and not surely a ball. */
static bool cr_det_smear_part(const cr_detector_t *d, int a)
{
    return !d->reuse[a] && d->dets[a].score < 0.8f;
}

/* Is the full-resolution point (u, v) within nreach[a] of detection
 * nearby[a], for one of the n given? */
static bool cr_det_in_reach(const cr_detector_t *d, const int *nearby, const double *nreach, int n, double u,
                            double v)
{
    for (int a = 0; a < n; a++) {
        const double du = u - d->dets[nearby[a]].u, dv = v - d->dets[nearby[a]].v;

        if (du * du + dv * dv < nreach[a] * nreach[a])
            return true;
    }
    return false;
}

/* A component of a w x h label grid, with its size, moment sums and box. */
typedef struct {
    int n, x0, y0, x1, y1;
    double sx, sy, sxx, syy, sxy;
} cr_det_comp_t;

/* Relabels to `to` the cells labelled `from` 8-connected to cell k (which
 * is labelled `from`), using stk (w * h) as the stack, and measures them. */
static void cr_det_flood(int *lab, int *stk, int w, int h, int k, int from, int to, cr_det_comp_t *c)
{
    int sp = 0;

    memset(c, 0, sizeof *c);
    c->x0 = c->x1 = k % w, c->y0 = c->y1 = k / w;
    lab[k] = to;
    stk[sp++] = k;
    while (sp > 0) {
        int p = stk[--sp], pi = p % w, pj = p / w, di, dj;

        c->n++;
        c->sx += pi, c->sy += pj, c->sxx += (double)pi * pi, c->syy += (double)pj * pj, c->sxy += (double)pi * pj;
        c->x0 = pi < c->x0 ? pi : c->x0, c->x1 = pi > c->x1 ? pi : c->x1;
        c->y0 = pj < c->y0 ? pj : c->y0, c->y1 = pj > c->y1 ? pj : c->y1;
        for (dj = -1; dj <= 1; dj++)
            for (di = -1; di <= 1; di++) {
                int xi = pi + di, yj = pj + dj;

                if (xi < 0 || yj < 0 || xi >= w || yj >= h || lab[yj * w + xi] != from)
                    continue;
                lab[yj * w + xi] = to;
                stk[sp++] = yj * w + xi;
            }
    }
}

/* A ball fast enough to cross several of its diameters while the shutter
 * is open (a break at 30 fps) shows no outline at all: a stadium as wide
 * as a ball, fainter than the ball by the share of the exposure each point
 * was covered. Neither the Hough nor the outline fit finds it, and there
 * are no two end balls to merge. In each region searched this frame, the
 * half-res pixels unlike the cloth (in light or shadow) and outside every
 * detection form components; one is a smear when, measured along and
 * across its principal axis (2 % to 98 % of its pixels), it is as wide as
 * a ball (0.75-1.3 diameters) and at least 1.4 diameters long, it is as wide
 * as that at every point of its straight part (two balls side by side
 * narrow where they touch), and its area is the stadium's (0.75-1.25). Its
 * centroid is the ball at mid-exposure; its straight part is the blur. It
 * names no colour (the cloth shows through it). Returns the new count. */
static int cr_det_find_smears(cr_detector_t *d, const cr_yuv_image_t *img, int nd)
{
    const double R = d->tab.ball_radius_mm;
    const int cap = d->sm_cap, nb = 2 * cap;
    int ri;

    for (ri = 0; ri < d->n_rois && ri < CR_DET_MAX_ROIS && nd < 2 * CR_VISION_MAX_DETECTIONS; ri++) {
        const cr_det_roi_t *ro = &d->rois[ri];
        cr_det_roi_t sub;
        int rw = ro->x1 - ro->x0, rh = ro->y1 - ro->y0, i, j, k, a, nlab = 0, nnear;
        int nearby[2 * CR_VISION_MAX_DETECTIONS];
        double nreach[2 * CR_VISION_MAX_DETECTIONS];

        if (!ro->changed || rw <= 0 || rh <= 0 || rw > cap || rh > cap)
            continue;
        /* the sure detections that reach into the region, and their reach */
        nnear = 0;
        for (a = 0; a < nd; a++) {
            const cr_detection_t *e = &d->dets[a];
            double m = e->r_px + 2.0 + hypot(e->blur_dx, e->blur_dy) * e->r_px / R;

            if (cr_det_smear_part(d, a) || e->u + m < 2.0 * ro->x0 || e->u - m > 2.0 * ro->x1 ||
                e->v + m < 2.0 * ro->y0 || e->v - m > 2.0 * ro->y1)
                continue;
            nearby[nnear] = a;
            nreach[nnear++] = m;
        }
        /* first the coarse samples: no cluster of unexplained ones as large
         * as a smear (the region of a ball that was found, the gaps in a
         * rack): nothing to look at */
        {
            int c0 = ro->x0 / d->gs, r0 = ro->y0 / d->gs, cw = (ro->x1 - 1) / d->gs - c0 + 1,
                ch = (ro->y1 - 1) / d->gs - r0 + 1, c, best = 0, ux0 = cw, uy0 = ch, ux1 = -1, uy1 = -1;
            /* a smear covers at least 1.3 pi (r/2)^2 half-res pixels; half of
             * its samples may fall below the coarse threshold */
            const double need = 0.5 * 1.3 * CR_DET_PI * 0.25 * d->r_min_px * d->r_min_px / (d->gs * d->gs);

            for (c = 0; c < cw * ch; c++) {
                int gi = c0 + c % cw, gj = r0 + c / cw;

                d->sm_lab[c] = 0;
                if (gi >= d->gw || gj >= d->gh || !d->fg[(size_t)gj * d->gw + gi])
                    continue;
                d->sm_lab[c] =
                    !cr_det_in_reach(d, nearby, nreach, nnear, 2.0 * gi * d->gs + 0.5, 2.0 * gj * d->gs + 0.5);
            }
            for (c = 0; c < cw * ch; c++) {
                cr_det_comp_t cc;
                double mx, my, mxx, myy, mxy, l2;

                if (d->sm_lab[c] != 1)
                    continue;
                cr_det_flood(d->sm_lab, d->sm_stk, cw, ch, c, 1, 2, &cc);
                /* and about as wide as a ball (a band's width is sqrt(12) of
                 * its spread across): not the cue's shaft or its shadow */
                mx = cc.sx / cc.n, my = cc.sy / cc.n;
                mxx = cc.sxx / cc.n - mx * mx, myy = cc.syy / cc.n - my * my, mxy = cc.sxy / cc.n - mx * my;
                l2 = 0.5 * (mxx + myy) - sqrt(0.25 * (mxx - myy) * (mxx - myy) + mxy * mxy);
                if (cc.n >= need && sqrt(12.0 * fmax(l2, 0.0)) + 1.0 >= 0.6 * d->r_min_px / d->gs) {
                    best = cc.n > best ? cc.n : best;
                    ux0 = cc.x0 < ux0 ? cc.x0 : ux0, ux1 = cc.x1 > ux1 ? cc.x1 : ux1;
                    uy0 = cc.y0 < uy0 ? cc.y0 : uy0, uy1 = cc.y1 > uy1 ? cc.y1 : uy1;
                }
            }
            if (best < need)
                continue;
            /* only around those clusters (a sample stands for the cell it
             * starts; a smear's faint edge may lie a cell beyond) */
            sub.x0 = (c0 + ux0 - 1) * d->gs, sub.y0 = (r0 + uy0 - 1) * d->gs;
            sub.x1 = (c0 + ux1 + 2) * d->gs, sub.y1 = (r0 + uy1 + 2) * d->gs;
            sub.x0 = sub.x0 < ro->x0 ? ro->x0 : sub.x0, sub.y0 = sub.y0 < ro->y0 ? ro->y0 : sub.y0;
            sub.x1 = sub.x1 > ro->x1 ? ro->x1 : sub.x1, sub.y1 = sub.y1 > ro->y1 ? ro->y1 : sub.y1;
            sub.changed = 1;
            ro = &sub;
            rw = ro->x1 - ro->x0, rh = ro->y1 - ro->y0;
            if (rw <= 0 || rh <= 0)
                continue;
        }
        /* pixels unlike the cloth and outside every detection: label -1 */
        for (j = 0; j < rh; j++)
            for (i = 0; i < rw; i++) {
                int hx = ro->x0 + i, hy = ro->y0 + j;
                double u = 2.0 * hx + 0.5, v = 2.0 * hy + 0.5;
                float o[3];

                d->sm_lab[j * rw + i] = 0;
                if (2 * hx + 1 >= d->w || 2 * hy + 1 >= d->h || cr_det_in_reach(d, nearby, nreach, nnear, u, v))
                    continue;
                cr_det_half_px(d, img, hx, hy, o);
                {
                    float b[3];

                    cr_det_bg_at(d, u, v, b);
                    if (!cr_det_is_cloth(d, o, b)) {
                        d->sm_lab[j * rw + i] = -1;
                        d->sm_ink[j * rw + i] = (float)cr_det_dist3(o, b);
                    }
                }
            }
        /* components (8-connected) */
        for (k = 0; k < rw * rh && nd < 2 * CR_VISION_MAX_DETECTIONS; k++) {
            double cx, cy, vxx, vyy, vxy, th, ax, ay, r_h, len, wid, s_h, s_ext;
            double lo, hi, wlo, whi, area, fill, waist = HUGE_VAL, u, v, x, y, x0, y0, x1, y1;
            int n, q, *hl = d->sm_hist, *hw = d->sm_hist + nb, bx0, bx1, by0, by1, qi, qj;
            float *ink = d->sm_ink + (size_t)cap * cap;
            cr_det_comp_t cc;

            if (d->sm_lab[k] != -1)
                continue;
            cr_det_flood(d->sm_lab, d->sm_stk, rw, rh, k, -1, ++nlab, &cc);
            n = cc.n, bx0 = cc.x0, bx1 = cc.x1, by0 = cc.y0, by1 = cc.y1;
            /* no smear can be smaller than this anywhere on the table */
            if (n < 1.3 * CR_DET_PI * 0.25 * d->r_min_px * d->r_min_px)
                continue;
            cx = cc.sx / n, cy = cc.sy / n;
            r_h = 0.5 * cr_det_radius_at(d, 2.0 * (ro->x0 + cx) + 0.5, 2.0 * (ro->y0 + cy) + 0.5);
            if (n < 1.3 * CR_DET_PI * r_h * r_h)
                continue;
            vxx = cc.sxx / n - cx * cx, vyy = cc.syy / n - cy * cy, vxy = cc.sxy / n - cx * cy;
            th = 0.5 * atan2(2.0 * vxy, vxx - vyy);
            ax = cos(th), ay = sin(th);
            /* along (hl) and across (hw) the axis, 1 px bins centred on the centroid */
            memset(d->sm_hist, 0, 2 * (size_t)nb * sizeof(int));
            memset(ink, 0, (size_t)nb * sizeof(float));
            for (qj = by0; qj <= by1; qj++)
                for (qi = bx0; qi <= bx1; qi++) {
                    double pi = qi - cx, pj = qj - cy;
                    int bl, bw;

                    q = qj * rw + qi;
                    if (d->sm_lab[q] != nlab)
                        continue;
                    bl = (int)floor(pi * ax + pj * ay + cap + 0.5);
                    bw = (int)floor(-pi * ay + pj * ax + cap + 0.5);
                    if (bl >= 0 && bl < nb)
                        hl[bl]++, ink[bl] += d->sm_ink[q];
                    if (bw >= 0 && bw < nb)
                        hw[bw]++;
                }
            lo = cr_det_hist_q(hl, nb, n, 0.02), hi = cr_det_hist_q(hl, nb, n, 0.98);
            wlo = cr_det_hist_q(hw, nb, n, 0.02), whi = cr_det_hist_q(hw, nb, n, 0.98);
            /* the 2-98 % span of a disc's projection is 0.94 of its diameter */
            len = (hi - lo) / 0.94, wid = (whi - wlo) / 0.94;
            if (wid < 1.5 * r_h || wid > 2.6 * r_h || len < 2.8 * r_h || len > 2.0 * CR_DET_SMEAR_MAX * r_h)
                continue;
            s_ext = len - wid; /* the straight part of what shows */
            s_h = cr_det_smear_travel(ink, nb, 0.5 * (lo + hi), s_ext);
            area = wid * s_ext + 0.25 * CR_DET_PI * wid * wid;
            fill = n / area;
            if (fill < 0.75 || fill > 1.25)
                continue;
            {
                double mid = 0.5 * (lo + hi);
                int b0 = (int)floor(mid - 0.35 * s_ext), b1 = (int)ceil(mid + 0.35 * s_ext), b, nbin = 0;
                double sum = 0.0;

                /* over three bins: a noisy edge is ragged */
                for (b = b0 < 1 ? 1 : b0; b <= b1 && b < nb - 1; b++) {
                    waist = fmin(waist, (hl[b - 1] + hl[b] + hl[b + 1]) / 3.0);
                    sum += hl[b];
                    nbin++;
                }
                /* against the straight part's mean width: a faint smear is
                 * narrower than the ball (its sides are covered briefly) */
                if (nbin == 0 || waist < 0.75 * sum / nbin)
                    continue;
            }
            u = 2.0 * (ro->x0 + cx) + 0.5, v = 2.0 * (ro->y0 + cy) + 0.5;
            /* against the cloth around it too, not only the background
             * model here: where a ball rested long enough to become
             * background and left, the bare cloth differs from the model
             * in a ball's shape (a ghost) */
            {
                const double off = 3.6 * r_h, sq[4][2] = {{-ay, ax}, {ay, -ax}, {ax, ay}, {-ax, -ay}};
                float ref[3] = {0, 0, 0};
                int unlike = 0;

                for (a = 0; a < 4; a++) {
                    double reach = off + (a >= 2 ? s_ext : 0.0);
                    float b[3];

                    cr_det_bg_at(d, u + reach * sq[a][0], v + reach * sq[a][1], b);
                    ref[0] += 0.25f * b[0], ref[1] += 0.25f * b[1], ref[2] += 0.25f * b[2];
                }
                for (qj = by0; qj <= by1; qj++)
                    for (qi = bx0; qi <= bx1; qi++) {
                        float o[3];

                        if (d->sm_lab[qj * rw + qi] != nlab)
                            continue;
                        cr_det_half_px(d, img, ro->x0 + qi, ro->y0 + qj, o);
                        unlike += !cr_det_is_cloth(d, o, ref);
                    }
                if (unlike < 0.7 * n)
                    continue;
            }
            if (!cr_camera_unproject_plane(&d->cam, u, v, R, &x, &y) ||
                !cr_camera_unproject_plane(&d->cam, u - s_h * ax, v - s_h * ay, R, &x0, &y0) ||
                !cr_camera_unproject_plane(&d->cam, u + s_h * ax, v + s_h * ay, R, &x1, &y1) ||
                !cr_det_centre_ok(d, x, y, 0.0))
                continue;
            {
                cr_detection_t *m = &d->dets[nd];
                int c;

                memset(m, 0, sizeof *m);
                m->u = u, m->v = v, m->x = x, m->y = y;
                m->r_px = 2.0 * r_h;
                m->blur_dx = 0.5 * (x1 - x0), m->blur_dy = 0.5 * (y1 - y0);
                m->sigma_mm = 2.0 + 0.1 * hypot(m->blur_dx, m->blur_dy);
                m->score = (float)(0.9 - fabs(fill - 1.0) - 0.5 * fabs(wid / (2.0 * r_h) - 1.0));
                m->visible = 1.0f;
                for (c = 0; c < CR_COLOUR_COUNT; c++)
                    m->colour_p[c] = 1.0f / CR_COLOUR_COUNT;
                for (c = 0; c < CR_VISION_MAX_BALLS; c++)
                    m->id_p[c] = 1.0f / CR_VISION_MAX_BALLS;
                d->reuse[nd++] = 0;
                /* what the search made of its parts goes */
                for (a = 0; a < nd - 1; a++) {
                    const cr_detection_t *e = &d->dets[a];
                    double t = (e->u - u) * ax + (e->v - v) * ay, p = -(e->u - u) * ay + (e->v - v) * ax;

                    if (cr_det_smear_part(d, a) && fabs(t) < fmax(s_h, s_ext) + 2.0 * r_h && fabs(p) < 2.0 * r_h) {
                        memmove(d->dets + a, d->dets + a + 1, (size_t)(nd - 1 - a) * sizeof *d->dets);
                        memmove(d->reuse + a, d->reuse + a + 1, (size_t)(nd - 1 - a));
                        nd--;
                        a--;
                    }
                }
            }
        }
    }
    return nd;
}

/* Keeps last frame's detection o as detection nd of this frame. Until the
 * white reference is learned (from white balls' tops against the cloth
 * beside them) a kept white ball is identified again each frame, which
 * teaches it from a resting cue ball; once learned, every ball kept from
 * before once more: red and maroon are told apart by it (a rack resting
 * from the first frame kept both at even odds). */
static void cr_det_keep(cr_detector_t *d, const cr_yuv_image_t *img, const cr_detection_t *o, int nd)
{
    d->reuse[nd] = 1;
    d->dets[nd] = *o;
    if (d->white_ready == 2 || (d->white_n <= 5 && o->colour_p[CR_COLOUR_WHITE] > 0.5f))
        cr_det_identify(d, img, &d->dets[nd]);
}

/* Sorts the candidates by Hough score, best first (insertion sort: few). */
static void cr_det_sort_cands(cr_detector_t *d)
{
    int a, b;

    for (a = 1; a < d->n_cand; a++) {
        cr_det_cand_t c = d->cand[a];

        for (b = a - 1; b >= 0 && d->cand[b].score < c.score; b--)
            d->cand[b + 1] = d->cand[b];
        d->cand[b + 1] = c;
    }
}

/* Share of the coarse samples within CR_DET_SHARE_R radii of image point (u, v)
 * (ball radius r_px there) that differ from the background in this frame;
 * -1 when fewer than 3 such samples lie in the search region. */
#define CR_DET_SHARE_R 0.8
static float cr_det_fg_share(const cr_detector_t *d, double u, double v, double r_px)
{
    double rr = CR_DET_SHARE_R * r_px * 0.5 / d->gs, ci = (u - 0.5) * 0.5 / d->gs, cj = (v - 0.5) * 0.5 / d->gs;
    int i0 = (int)floor(ci - rr), i1 = (int)ceil(ci + rr), j0 = (int)floor(cj - rr), j1 = (int)ceil(cj + rr);
    int i, j, n = 0, f = 0;

    for (j = j0 < 0 ? 0 : j0; j <= j1 && j < d->gh; j++)
        for (i = i0 < 0 ? 0 : i0; i <= i1 && i < d->gw; i++) {
            size_t k = (size_t)j * d->gw + i;

            if (!d->gmask[k] || (i - ci) * (i - ci) + (j - cj) * (j - cj) > rr * rr)
                continue;
            n++;
            f += d->fg[k];
        }
    return n >= 3 ? (float)f / (float)n : -1.0f;
}

/* ---- highlights ------------------------------------------------------------------ */

#define CR_DET_HL_OFF_FRAMES 3 /* frames a rolling ball's fit stays as uncertain as its highlights last showed */
typedef struct cr_det_hl_run cr_det_hl_run_t;

/* Whether hint ht (NULL: none) has its ball rolling over a tenth of a
 * radius a frame, a highlight's own size: its highlights smear during the
 * exposure. */
static int cr_det_hint_smears(const cr_detector_t *d, const cr_ball_hint_t *ht)
{
    return ht && ht->step_mm > 0.1 * d->tab.ball_radius_mm;
}
#define CR_DET_HL_SPOTS 24

/* A spot is a highlight when it stands this far above its ring: well above
 * the noise, and at least 20 levels (a lamp's image is far brighter than
 * any shading). */
static double cr_det_hl_min_top(const cr_detector_t *d)
{
    return fmax(20.0, 8.0 * d->noise);
}

/* Learns the lamps from a ball kept at rest whose outline is sharp and
 * complete and whose colour stands out from the cloth (its place is known
 * to a fraction of a millimetre, and its shading is no highlight's). */
static void cr_det_hl_learn(cr_detector_t *d, const cr_yuv_image_t *img, const cr_detection_t *o)
{
    const double R = d->tab.ball_radius_mm;
    cr_hl_spot_t sp[CR_DET_HL_SPOTS];
    int n;

    if (o->score < 0.9f || o->visible < 0.95f || o->sigma_mm > 0.6 || o->blur_dx != 0.0 || o->blur_dy != 0.0 ||
        !cr_hl_new_place(&d->hl, R, o->x, o->y) || cr_det_fg_share(d, o->u, o->v, o->r_px) < 0.9f)
        return;
    n = cr_hl_spots(img->y, img->stride_y, d->w, d->h, o->u, o->v, 0.8 * o->r_px, o->r_px, cr_det_hl_min_top(d), sp,
                    8);
    /* solved again each time the places seen double (12, 24, 48, 96) */
    if (cr_hl_observe(&d->hl, &d->cam, R, o->x, o->y, sp, n) > 0 && d->hl.n_balls >= 12 &&
        d->hl.n_balls >= 2 * d->hl.solved_balls)
        cr_hl_solve(&d->hl, R, d->hl.n_balls / 4 > 6 ? d->hl.n_balls / 4 : 6);
}

int cr_detector_lamps(const cr_detector_t *d, double (*pos)[3], int *balls, int max)
{
    int k;

    if (!d)
        return 0;
    for (k = 0; k < d->hl.n_lamps && k < max; k++) {
        if (pos)
            memcpy(pos[k], d->hl.lamp[k], sizeof pos[k]);
        if (balls)
            balls[k] = d->hl.lamp_balls[k];
    }
    return d->hl.n_lamps;
}

/* The hl_mem entry of hint tag tag, or -1. */
static int cr_det_hl_mem(const cr_detector_t *d, int tag)
{
    int k;

    for (k = 0; k < d->n_hl_mem; k++)
        if (d->hl_mem[k].tag == tag)
            return k;
    return -1;
}

/* A ball resting near hint ht placed by its highlights (cr_hl_locate()),
 * within R of the hint (the tracker's place may be a fit pulled toward the
 * ball's shadow; a neighbour's centre is 2 R from the ball's): the number
 * of lamps that agree (0: none placed). The place is the mean of the
 * places the highlights gave since the ball came to rest there (hl_mem, by
 * the hint's tag; the last 32 frames; a place over 3 sigmas, and 1 mm, from
 * the mean starts it again: a ball that creeps off is followed, not held):
 * a resting ball is one place, not a frame's spots' noise, nor the turns of
 * two or three lamps agreeing. A frame whose spots place
 * nothing (noise, a hand's shadow) keeps it while the ball rests, so that
 * the place does not flip between the highlights' and a biased outline's. */
static int cr_det_hl_place(cr_detector_t *d, const cr_yuv_image_t *img, const cr_ball_hint_t *ht, double u, double v,
                           double rp, double *x, double *y, double *sigma_mm)
{
    const double R = d->tab.ball_radius_mm, reach = fmax(ht->reach_mm, R);
    cr_hl_spot_t sp[CR_DET_HL_SPOTS];
    int n, c, k;

    if (d->hl.n_lamps < 2 || ht->x < 0.9 * R || ht->y < 0.9 * R || ht->x > d->tab.length_mm - 0.9 * R ||
        ht->y > d->tab.width_mm - 0.9 * R)
        return 0; /* no lamps yet; a ball in a pocket's mouth, below the cloth */
    if ((k = cr_det_hl_mem(d, ht->tag)) < 0)
        k = d->n_hl_mem;
    n = cr_hl_spots(img->y, img->stride_y, d->w, d->h, u, v, (reach + 0.8 * R) * rp / R, rp, cr_det_hl_min_top(d),
                    sp, CR_DET_HL_SPOTS);
    c = cr_hl_locate(&d->hl, &d->cam, R, ht->x, ht->y, reach, fmax(1.0, 0.08 * rp), sp, n, x, y, sigma_mm);
    if (c >= 2) {
        const int fresh = k == d->n_hl_mem;

        if (fresh && k < CR_VISION_MAX_DETECTIONS)
            d->n_hl_mem++;
        if (k < d->n_hl_mem) {
            if (fresh || d->hl_mem[k].n < 1 ||
                hypot(*x - d->hl_mem[k].x, *y - d->hl_mem[k].y) > fmax(1.0, 3.0 * *sigma_mm)) {
                d->hl_mem[k].tag = ht->tag, d->hl_mem[k].n = 0, d->hl_mem[k].moved = 0;
                d->hl_mem[k].x = *x, d->hl_mem[k].y = *y;
            }
            if (d->hl_mem[k].n < 32)
                d->hl_mem[k].n++;
            d->hl_mem[k].seen = 1, d->hl_mem[k].now = 1;
            d->hl_mem[k].x += (*x - d->hl_mem[k].x) / d->hl_mem[k].n;
            d->hl_mem[k].y += (*y - d->hl_mem[k].y) / d->hl_mem[k].n;
            d->hl_mem[k].s = *sigma_mm;
            *x = d->hl_mem[k].x, *y = d->hl_mem[k].y;
        }
        return c;
    }
    if (k < d->n_hl_mem)
        d->hl_mem[k].now = 0;
    if (k < d->n_hl_mem && hypot(d->hl_mem[k].x - ht->x, d->hl_mem[k].y - ht->y) <= reach) {
        *x = d->hl_mem[k].x, *y = d->hl_mem[k].y, *sigma_mm = d->hl_mem[k].s;
        return 2;
    }
    return c;
}

/* Whether the highlights hold detection o at their place (hx, hy), sigma
 * hs, though its outline is surer by its own sigma: this frame's spots
 * place the ball where they did the frame before at least (hl_mem entry
 * hold, -1 for none or a ball struck; a lone frame's spots may be the
 * cue's or an arm's), the outline is sharp, and it either lies over 4
 * sigmas (theirs and its own together, and 2 mm) from them, its sigma
 * understating its bias, or was moved there before while the ball rests
 * (an outline whose sigma wavers about the bound would move the ball by its
 * bias every few frames, which reads as motion). */
static int cr_det_hl_holds(const cr_detector_t *d, int hold, const cr_detection_t *o, double hx, double hy, double hs)
{
    if (hold < 0 || !d->hl_mem[hold].now || d->hl_mem[hold].n < 2 || o->blur_dx != 0.0 || o->blur_dy != 0.0)
        return 0;
    return d->hl_mem[hold].moved || hypot(hx - o->x, hy - o->y) > fmax(2.0, 4.0 * hypot(o->sigma_mm, hs));
}

/* A ball placed by its highlights at (hx, hy), sigma hs: a detection
 * within 1.8 R of there is that ball (two centres are never closer than
 * 2 R). Returns nd when no detection is there; the index of the one there,
 * moved to the place when its outline was less sure than the highlights
 * (its sigma over twice theirs: a ball of the cloth's colour fitted toward
 * its shadow) or they hold it (cr_det_hl_holds(), hl_mem entry hold); -1
 * when a surer detection, or more than one, is there. A place this frame's
 * spots did not give (the one remembered from the frames the ball rested,
 * hl_mem entry hold) does not pull a fit over half a radius off it: the
 * ball struck from there is seen on its way, its highlights with it (720p30
 * clip 06's 8, fitted 32 mm on, was put back to 2 mm from its rest and its
 * contact timed 27 ms late). Its index is returned, the fit unmoved. A
 * faint outline of a ball at rest settles as far toward its shadow (the
 * maroon 7 on red, 22 mm), but this frame's spots then place it. */
static int cr_det_hl_claim(cr_detector_t *d, int nd, double hx, double hy, double hs, int hold)
{
    const double R = d->tab.ball_radius_mm;
    int b, hit = -1;

    for (b = 0; b < nd; b++)
        if (d->dets[b].score >= d->p.min_score && hypot(hx - d->dets[b].x, hy - d->dets[b].y) < 1.8 * R) {
            if (hit >= 0)
                return -1;
            hit = b;
        }
    if (hit < 0)
        return nd;
    if (hold >= 0 && !d->hl_mem[hold].now && hypot(hx - d->dets[hit].x, hy - d->dets[hit].y) > 0.5 * R)
        return hit;
    if (d->dets[hit].white_frac < 0.5f &&
        (d->dets[hit].sigma_mm > 2.0 * hs || cr_det_hl_holds(d, hold, &d->dets[hit], hx, hy, hs))) {
        cr_detection_t *o = &d->dets[hit];
        double u, v;

        if (!cr_camera_project(&d->cam, hx, hy, R, &u, &v))
            return -1;
        o->u = u, o->v = v, o->x = hx, o->y = hy;
        o->r_px = cr_det_radius_at(d, u, v);
        o->sigma_mm = hs;
        if (hold >= 0)
            d->hl_mem[hold].moved = 1;
        return hit;
    }
    return -1;
}

/* A ball resting at hint ht found (detection a within the hint's reach):
 * where its fit is unsure or only faint, its highlights may place it
 * better. A less sure detection there moves to their place
 * (cr_det_hl_claim()); a faint fit with no ball reported there becomes the
 * ball they place. */
static void cr_det_hl_recheck(cr_detector_t *d, const cr_yuv_image_t *img, const cr_ball_hint_t *ht, int a, int nd)
{
    const double R = d->tab.ball_radius_mm;
    cr_detection_t *o = &d->dets[a];
    const int faint = o->score < d->p.min_score;
    double u, v, rp, hx, hy, hs;
    int m;

    if (!cr_camera_project(&d->cam, ht->x, ht->y, R, &u, &v))
        return;
    rp = cr_det_radius_at(d, u, v);
    m = cr_det_hl_mem(d, ht->tag);
    if (!faint && o->sigma_mm <= 2.0 * CR_HL_MIN_SIGMA_PX * R / rp && (m < 0 || !d->hl_mem[m].moved || ht->struck))
        return; /* as sure as highlights can make it */
    if (cr_det_hl_place(d, img, ht, u, v, rp, &hx, &hy, &hs) < 2 ||
        cr_det_hl_claim(d, nd, hx, hy, hs, ht->struck ? -1 : cr_det_hl_mem(d, ht->tag)) != nd ||
        !faint || !cr_camera_project(&d->cam, hx, hy, R, &u, &v))
        return; /* placed nowhere, moved there, or a surer ball is there */
    o->u = u, o->v = v, o->x = hx, o->y = hy;
    o->r_px = cr_det_radius_at(d, u, v);
    o->sigma_mm = hs;
    o->score = 0.75f;
    o->blur_dx = o->blur_dy = 0.0;
    cr_det_identify(d, img, o);
    o->hint_tag = ht->tag;
    d->reuse[a] = 0;
}

/* The first of dets[0, nd) but dets[skip] (-1: none) that scores min_score
 * with its centre closer than dist to (x, y) (table mm); nd when none is. */
static int cr_det_ball_near_but(const cr_detector_t *d, int nd, int skip, double x, double y, double dist)
{
    int b;

    for (b = 0; b < nd; b++)
        if (b != skip && d->dets[b].score >= d->p.min_score && hypot(x - d->dets[b].x, y - d->dets[b].y) < dist)
            break;
    return b;
}

static int cr_det_ball_near(const cr_detector_t *d, int nd, double x, double y, double dist)
{
    return cr_det_ball_near_but(d, nd, -1, x, y, dist);
}

/* Adds a detection a look or the scan found (identified, tagged with the
 * hint it answers, 0 for none) to dets[0, nd): it takes the place of a
 * faint, unreported fit of the same ball (within 1.8 R), else it is
 * appended. Returns the new count. */
static int cr_det_add_found(cr_detector_t *d, const cr_yuv_image_t *img, cr_detection_t *det, int tag, int nd)
{
    const double R = d->tab.ball_radius_mm;
    int b;

    cr_det_identify(d, img, det);
    det->hint_tag = tag;
    for (b = 0; b < nd; b++)
        if (d->dets[b].score < d->p.min_score && hypot(det->x - d->dets[b].x, det->y - d->dets[b].y) < 1.8 * R)
            break;
    d->reuse[b] = 0;
    d->dets[b] = *det;
    return b == nd ? nd + 1 : nd;
}

/* The strongest cap Hough candidates, as a look finds them (fainter edges),
 * of the half-res ROI [x0, x1) x [y0, y1) clipped to the frame, into d->cand,
 * strongest first. Leaves d->looking set. */
static void cr_det_look_roi(cr_detector_t *d, const cr_yuv_image_t *img, int x0, int y0, int x1, int y1, int cap)
{
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > d->hw ? d->hw : x1;
    y1 = y1 > d->hh ? d->hh : y1;
    d->looking = 1;
    d->n_cand = 0;
    d->cap_cand = cap;
    cr_det_hough_roi(d, img, x0, y0, x1, y1);
    cr_det_sort_cands(d);
}

/* Whether a look's fit det of the ball expected at table (x, y) is kept:
 * it scores min_score, is sharp (a streak there is another ball passing),
 * lies within reach_mm of (x, y) and at least 1.8 R from every ball of
 * dets[0, nd) (two centres are never closer than 2 R: in a rack the edges
 * between two balls are not a third). */
static bool cr_det_look_keeps(const cr_detector_t *d, const cr_detection_t *det, double x, double y, double reach_mm,
                              int nd)
{
    return det->score >= d->p.min_score && det->blur_dx == 0.0 && det->blur_dy == 0.0 &&
           hypot(det->x - x, det->y - y) <= reach_mm &&
           cr_det_ball_near(d, nd, det->x, det->y, 1.8 * d->tab.ball_radius_mm) == nd;
}

/* Looks for a ball within reach_mm of (x, y) (image (u, v), its radius
 * rp and the reach reach_px in pixels): a Hough for the known radius over
 * the reach alone with fainter edges, then the fit; kept when it scores
 * min_score, is sharp (a streak there is another ball passing), lies within
 * reach and at least 1.8 R from every ball of dets[0, nd) (two centres are
 * never closer than 2 R: in a rack the edges between two balls are not a
 * third). Leaves d->looking set and the candidates in d->cand (the caller
 * restores both). Returns 1 with the fit in *det, else 0. */
static int cr_det_look_at(cr_detector_t *d, const cr_yuv_image_t *img, double u, double v, double rp,
                          double reach_px, double x, double y, double reach_mm, int nd, cr_detection_t *det)
{
    int pad = (int)ceil(0.5 * (reach_px + rp)) + 3, x0, y0, x1, y1, a;

    x0 = (int)floor(0.5 * u) - pad, y0 = (int)floor(0.5 * v) - pad;
    x1 = (int)ceil(0.5 * u) + pad + 1, y1 = (int)ceil(0.5 * v) + pad + 1;
    cr_det_look_roi(d, img, x0, y0, x1, y1, 8);
    for (a = 0; a < d->n_cand; a++) {
        if (hypot(d->cand[a].u - u, d->cand[a].v - v) > reach_px + 0.5 * rp)
            continue;
        if (cr_det_refine(d, img, &d->cand[a], det) && cr_det_look_keeps(d, det, x, y, reach_mm, nd))
            return 1;
    }
    return 0;
}

/* The hl_run entry of hint ht, seen this frame (created when missing and
 * room is left; -1 when not). */
static int cr_det_hl_run(cr_detector_t *d, const cr_ball_hint_t *ht)
{
    int k;

    for (k = 0; k < d->n_hl_run && d->hl_run[k].tag != ht->tag; k++)
        ;
    if (k == d->n_hl_run) {
        if (k == CR_VISION_MAX_DETECTIONS)
            return -1;
        d->n_hl_run++;
        memset(&d->hl_run[k], 0, sizeof d->hl_run[k]);
        d->hl_run[k].tag = ht->tag;
        d->hl_run[k].off_age = CR_DET_HL_OFF_FRAMES + 1;
    }
    d->hl_run[k].seen = 1;
    return k;
}

/* A rolling ball's highlights' smears placed it at table (x, y), sigma hs,
 * this frame (hint ht): whether that follows where they placed it the
 * frame before, moved on by the hint's step or by their own last step
 * (within 2 mm and three sigmas of the difference of two of their places):
 * a constellation that follows the ball is the ball's, where a lone
 * frame's spots may pair a lamp with another's smear, a number's ink or a
 * stripe's edge, or bend at a contact. A frame's first place is kept for
 * the next; a second one (a look after the search) must lie where the
 * first did. */
static int cr_det_hl_track(cr_detector_t *d, const cr_ball_hint_t *ht, double x, double y, double hs)
{
    const double tol = fmax(2.0, 4.24 * hs);
    const int k = cr_det_hl_run(d, ht);
    cr_det_hl_run_t *q;

    if (k < 0)
        return 0;
    q = &d->hl_run[k];
    if (q->placed) /* looked at again this frame */
        return q->follows && hypot(x - q->p1x, y - q->p1y) <= tol;
    q->follows = (q->run >= 1 && hypot(x - q->p1x - ht->step_dx, y - q->p1y - ht->step_dy) <= tol) ||
                 (q->run >= 2 && hypot(x - 2.0 * q->p1x + q->p2x, y - 2.0 * q->p1y + q->p2y) <= tol);
    q->p2x = q->p1x, q->p2y = q->p1y;
    q->p1x = x, q->p1y = y;
    q->placed = 1;
    return q->follows;
}

/* A ball near table (x, y), within reach_mm, placed by its highlights
 * alone (cr_hl_locate()): for a ball whose outline the cloth hides (its
 * own colour, or frozen to a cushion whose shadow the fit takes for its
 * edge), as a ball resting at a hint is placed. At least two lamps must
 * agree on one centre, so a lone speck (chalk, a diamond's reflection)
 * places nothing; the centre must lie on the bed, at least 1.8 R from
 * every ball of dets[0, nd) but dets[skip] (-1: none; the fit being
 * checked), and the place must look mostly like the cloth (a ball that
 * stands out from it has an outline the fit finds; where something else
 * stands out, the cue's tip following through or a hand, its gloss is no
 * ball's). A ball hinted rolling (ht; NULL: none) over a tenth of a radius
 * a frame is placed by its highlights' smears (cr_hl_streaks()), and its
 * place's share of the cloth is not asked (a ball of the cloth's colour
 * rolling shows its shading and its shadow); with no outline's fit over
 * the place (fitted 0: cr_det_hl_better() checks its own), only where
 * they follow it (cr_det_hl_track()). Fills *det (score 0.75: found, but
 * by no outline) and returns 1; else 0. */
static int cr_det_hl_find(cr_detector_t *d, const cr_yuv_image_t *img, double x, double y, double reach_mm,
                          const cr_ball_hint_t *ht, int fitted, int nd, int skip, cr_detection_t *det)
{
    const double R = d->tab.ball_radius_mm;
    cr_hl_spot_t sp[CR_DET_HL_SPOTS];
    double u, v, rp, hx, hy, hs, su = 0.0, sv = 0.0;
    int n, smear;

    if (!d->p.use_highlights || d->hl.n_lamps < 2 || !cr_camera_project(&d->cam, x, y, R, &u, &v))
        return 0;
    rp = cr_det_radius_at(d, u, v);
    smear = cr_det_hint_smears(d, ht);
    if (smear && cr_camera_project(&d->cam, x + ht->step_dx, y + ht->step_dy, R, &su, &sv))
        su -= u, sv -= v;
    smear = smear && hypot(su, sv) > 0.0;
    if (smear)
        n = cr_hl_streaks(img->y, img->stride_y, d->w, d->h, u, v, (reach_mm + 0.8 * R) * rp / R, rp, su, sv,
                          cr_det_hl_min_top(d), sp, CR_DET_HL_SPOTS);
    else
        n = cr_hl_spots(img->y, img->stride_y, d->w, d->h, u, v, (reach_mm + 0.8 * R) * rp / R, rp,
                        cr_det_hl_min_top(d), sp, CR_DET_HL_SPOTS);
    if (cr_hl_locate(&d->hl, &d->cam, R, x, y, reach_mm, fmax(1.0, 0.08 * rp), sp, n, &hx, &hy, &hs) < 2 ||
        !cr_det_centre_ok(d, hx, hy, 0.0) || cr_det_ball_near_but(d, nd, skip, hx, hy, 1.8 * R) < nd ||
        !cr_camera_project(&d->cam, hx, hy, R, &u, &v))
        return 0;
    if (smear && !cr_det_hl_track(d, ht, hx, hy, hs) && !fitted)
        return 0;
    rp = cr_det_radius_at(d, u, v);
    if (!smear && cr_det_fg_share(d, u, v, rp) > 0.5f)
        return 0;
    memset(det, 0, sizeof *det);
    det->u = u, det->v = v, det->x = hx, det->y = hy;
    det->r_px = rp;
    det->sigma_mm = hs;
    det->visible = 1.0f;
    det->score = 0.75f;
    return 1;
}

/* An outline's fit *det moved to where the ball's highlights place it
 * (cr_det_hl_find()), within R of the fit (which overlaps the ball), when
 * they are surer (its sigma over twice theirs) or disagree with it by over
 * 4 sigmas (theirs and its own together, and 2 mm): a faint outline's fit
 * settles up to half a radius toward the ball's shadow or a cushion's
 * edge, its sigma understating that bias (cr_det_hl_claim() weighs a ball
 * at rest so). Not a ball mostly white: its outline is sharp on any cloth.
 * skip: the fit's index in dets (-1: not there yet). A ball hinted rolling
 * (ht; NULL: none) is placed by its highlights' smears (cr_det_hl_find()).
 * Returns 1 when moved (its place only: the caller identifies it again if
 * it was). */
static int cr_det_hl_better(cr_detector_t *d, const cr_yuv_image_t *img, const cr_ball_hint_t *ht, int nd, int skip,
                            cr_detection_t *det)
{
    const double R = d->tab.ball_radius_mm;
    cr_detection_t alt;
    double e;
    int k;

    if (det->white_frac >= 0.5f)
        return 0;
    e = cr_det_hl_find(d, img, det->x, det->y, R, ht, 1, nd, skip, &alt) ? hypot(alt.x - det->x, alt.y - det->y) : R;
    if (!cr_det_hint_smears(d, ht)) {
        /* at rest or rolling slowly (its highlights unsmeared), or a look
         * with no hint */
        if (e >= R ||
            (det->sigma_mm <= 2.0 * alt.sigma_mm && e <= fmax(2.0, 4.0 * hypot(det->sigma_mm, alt.sigma_mm))))
            return 0;
    } else {
        /* rolling: the fit moved to where its highlights' smears place it
         * when that follows their places before (cr_det_hl_track()) and
         * the fit is less sure than they are (its sigma over twice theirs)
         * or lies over a quarter of a radius (and 4 sigmas) off it: a faint
         * outline's fit settles up to half a radius toward the ball's
         * shadow, while a sharp one is surer than a smear's ends. A fit
         * they do not move, of a ball they moved within the last
         * CR_DET_HL_OFF_FRAMES frames, is as uncertain as they showed it
         * off (a faint outline's fit jumps about by half a radius, and one
         * moved one frame and taken as sure the next would make a track
         * that jumps) */
        cr_det_hl_run_t *q;

        if ((k = cr_det_hl_run(d, ht)) < 0)
            return 0;
        q = &d->hl_run[k];
        if (!(e < R && q->follows &&
              (det->sigma_mm > 2.0 * alt.sigma_mm || e > fmax(0.25 * R, 4.0 * hypot(det->sigma_mm, alt.sigma_mm))))) {
            if (q->off_age <= CR_DET_HL_OFF_FRAMES && q->off > det->sigma_mm)
                det->sigma_mm = q->off;
            return 0;
        }
        q->off = q->off_age <= CR_DET_HL_OFF_FRAMES ? 0.5 * (q->off + e) : e;
        q->off_age = 0;
    }
    det->u = alt.u, det->v = alt.v, det->x = alt.x, det->y = alt.y;
    det->r_px = alt.r_px;
    det->sigma_mm = alt.sigma_mm;
    return 1;
}

/* Looks again, with fainter edges, at every hint no detection is near (a
 * ball the tracker holds that this frame's search did not find): a Hough
 * for the known radius over the hint's reach, then the usual fit; a hint
 * found nowhere whose place shows the background is bare (cr_detector_bare).
 * With use_highlights, a ball resting at a hint is also placed by its
 * highlights (cr_detect.h, step 7). */
static int cr_det_look_hints(cr_detector_t *d, const cr_yuv_image_t *img, int nd)
{
    const double R = d->tab.ball_radius_mm;
    const int n_cand = d->n_cand; /* the search's, for the profile */
    int h, a, b;

    for (h = 0; h < d->n_hint && nd < 2 * CR_VISION_MAX_DETECTIONS; h++) {
        const cr_ball_hint_t *ht = &d->hint[h];
        const int hl = d->p.use_highlights && ht->at_rest && d->hl.n_lamps >= 2;
        double u, v, rp, reach_px, hx, hy, hs;
        int found = 0, moved = 0;
        cr_detection_t det;

        if (hl && (b = cr_det_hl_mem(d, ht->tag)) >= 0)
            d->hl_mem[b].seen = 1; /* still at rest: its place is kept */
        for (a = 0; a < nd; a++) /* found already (struck: found still where it rested) */
            if (hypot(d->dets[a].x - ht->x, d->dets[a].y - ht->y) < (ht->struck ? 0.5 * R : ht->reach_mm))
                break;
        if (a < nd && hl)
            cr_det_hl_recheck(d, img, ht, a, nd);
        else if (a < nd && !ht->struck) {
            /* found by the search, rolling: as below; a faint fit there
             * (unreported) gives way to the highlights' place */
            cr_detection_t *o = &d->dets[a];
            int m = 0;

            if (o->score >= d->p.min_score) {
                m = cr_det_hl_better(d, img, ht, nd, a, o);
            } else if (cr_det_hl_find(d, img, ht->x, ht->y, ht->reach_mm, ht, 0, nd, a, &det)) {
                *o = det;
                o->hint_tag = ht->tag;
                m = 1;
            }
            if (m) {
                cr_det_identify(d, img, o);
                d->reuse[a] = 0;
            }
        }
        /* a faint fit (unreported, under min_score) where a ball the
         * tracker holds unseen rests, or on the way of one rolling faster
         * than its highlights place it (above), is no ball found: a look's
         * fainter edges may find it (a green 6 frozen to the rail by a
         * corner pocket, on green cloth, whose faint fits kept the look
         * away for most of 48 s; the rolling green 6 on the 1080p60 films
         * and maroon 7 on the 720p30 ones, lost in a third and a half of
         * their rolling frames) */
        if ((a < nd && !(((ht->unseen && ht->at_rest) || (!ht->at_rest && cr_det_hint_smears(d, ht))) && !ht->struck &&
                         d->dets[a].score < d->p.min_score)) ||
            !cr_camera_project(&d->cam, ht->x, ht->y, R, &u, &v))
            continue;
        rp = cr_det_radius_at(d, u, v);
        reach_px = ht->reach_mm * rp / R;
        found = cr_det_look_at(d, img, u, v, rp, reach_px, ht->x, ht->y, ht->reach_mm, nd, &det);
        /* a resting ball the look did not find within reach: its Hough
         * peaks may all lie beyond it (a ball of the cloth's colour and
         * its shadow make one stronger circle beside the ball: 1080p60
         * clip 03's green 6, its looks' fits 14-18 mm off on its shadow,
         * held unseen for 6 s in plain view); the fit from the hint's own
         * place, where the ball rested, is the ball when it scores as a
         * ball, sharp, within reach, clear of the other balls and not on
         * bare background (a fit there, with the look's faint edges, finds
         * a circle in the cloth's own texture) */
        /* a resting ball: the fit from the hint's own place too (once) */
        if (ht->at_rest) {
            cr_det_cand_t ch = {u, v, 0.0};
            cr_detection_t alt;

            if (cr_det_refine(d, img, &ch, &alt) && cr_det_look_keeps(d, &alt, ht->x, ht->y, ht->reach_mm, nd)) {
                if (!found) {
                    /* the look found nothing within reach: its Hough
                     * peaks may all lie beyond it (a ball of the cloth's
                     * colour and its shadow make one stronger circle
                     * beside the ball: 1080p60 clip 03's green 6, its
                     * looks' fits 14-18 mm off on its shadow, held unseen
                     * for 6 s in plain view); this fit, where the ball
                     * rested, is the ball unless its place is bare
                     * background (a fit there, with the look's faint
                     * edges, finds a circle in the cloth's own texture) */
                    if (cr_det_fg_share(d, alt.u, alt.v, alt.r_px) > CR_VISION_BARE_SHARE) {
                        det = alt;
                        found = 1;
                    }
                } else {
                    /* where the look's fit settles elsewhere, the outline
                     * is ambiguous (a ball of the cloth's colour beside its
                     * shadow, whose edge a look weighs fully): the one
                     * nearer the hint is kept, uncertain by half their
                     * distance (not for a rolling ball: the hint is a
                     * prediction, and the fit nearer it would bend the
                     * path toward it) */
                    double sep = hypot(alt.x - det.x, alt.y - det.y);

                    if (sep * det.r_px / R > fmax(1.0, 0.1 * det.r_px)) {
                        if (hypot(alt.x - ht->x, alt.y - ht->y) < hypot(det.x - ht->x, det.y - ht->y))
                            det = alt;
                        det.sigma_mm = hypot(det.sigma_mm, 0.5 * sep);
                    }
                }
            }
        }
        /* a resting ball: where its highlights place it, if no surer
         * detection is there; a fit of it found elsewhere moves there.
         * The place kept from earlier frames moves a fit, but makes no
         * ball where this frame shows neither a fit nor highlights (the
         * ball was struck away unseen, or went) */
        if (hl && cr_det_hl_place(d, img, ht, u, v, rp, &hx, &hy, &hs) >= 2) {
            const int m = cr_det_hl_mem(d, ht->tag);

            b = cr_det_hl_claim(d, nd, hx, hy, hs, ht->struck ? -1 : m);
            if (b == nd && (found || m < 0 || d->hl_mem[m].now)) {
                if (!found) {
                    memset(&det, 0, sizeof det);
                    det.visible = 1.0f;
                    det.score = 0.75f;
                }
                if (cr_camera_project(&d->cam, hx, hy, R, &det.u, &det.v)) {
                    det.x = hx, det.y = hy;
                    det.r_px = cr_det_radius_at(d, det.u, det.v);
                    det.sigma_mm = hs;
                    found = 1;
                }
            } else if (b >= 0 && b < nd) {
                found = 0;
                moved = 1;
            }
        }
        d->looking = 0;
        /* a ball rolling, or held where it was lost while rolling, whose
         * outline is faint (its colour the cloth's): where its highlights
         * place it, as a resting ball is, when no look finds the outline
         * or the outline is less sure than they are (a faint outline's fit
         * jumps about by half a radius, or settles toward the ball's
         * shadow). Over a tenth of a radius a frame its highlights smear,
         * each into a line whose middle is the highlight at mid-exposure
         * (cr_hl_streaks()) */
        if (!moved && !hl) {
            if (!found)
                found = cr_det_hl_find(d, img, ht->x, ht->y, ht->reach_mm, ht, 0, nd, -1, &det);
            else
                cr_det_hl_better(d, img, ht, nd, -1, &det);
        }
        if (found) {
            nd = cr_det_add_found(d, img, &det, ht->tag, nd);
        } else if (!moved) {
            float sh = cr_det_fg_share(d, u, v, rp);

            if (sh >= 0.0f && sh <= CR_VISION_BARE_SHARE)
                d->bare[d->n_bare++] = ht->tag;
        }
    }
    /* a place remembered for a ball not hinted at rest this frame is
     * forgotten (it moved, or went) */
    for (h = 0, a = 0; h < d->n_hl_mem; h++)
        if (d->hl_mem[h].seen) {
            d->hl_mem[a] = d->hl_mem[h];
            d->hl_mem[a++].seen = 0;
        }
    d->n_hl_mem = a;
    /* a rolling ball's entry is kept while it is hinted rolling and looked
     * at */
    for (h = 0, a = 0; h < d->n_hl_run; h++)
        if (d->hl_run[h].seen) {
            d->hl_run[a] = d->hl_run[h];
            d->hl_run[a].run = d->hl_run[a].placed ? d->hl_run[a].run + (d->hl_run[a].run < 2) : 0;
            d->hl_run[a].seen = d->hl_run[a].placed = d->hl_run[a].follows = 0;
            d->hl_run[a].off_age++;
            a++;
        }
    d->n_hl_run = a;
    d->n_hint = 0;
    d->n_cand = n_cand;
    return nd;
}

/* An 8-connected group of coarse grid samples: its count, the sums of its
 * cells' columns and rows, and its bounding box in cells. */
typedef struct {
    int n, bx0, by0, bx1, by1;
    double si, sj;
} cr_det_group_t;

/* Grows the group of the samples set in mask that holds sample k0, marking
 * them in d->seen (d->stack is the work list). */
static void cr_det_grow_group(cr_detector_t *d, const uint8_t *mask, size_t k0, cr_det_group_t *g)
{
    const int gw = d->gw, gh = d->gh;
    int sp = 0;

    g->n = 0;
    g->si = g->sj = 0.0;
    g->bx0 = g->bx1 = (int)(k0 % gw);
    g->by0 = g->by1 = (int)(k0 / gw);
    d->seen[k0] = 1;
    d->stack[sp++] = (int)k0;
    while (sp > 0) {
        const int q = d->stack[--sp], qi = q % gw, qj = q / gw;

        g->n++;
        g->si += qi, g->sj += qj;
        g->bx0 = qi < g->bx0 ? qi : g->bx0;
        g->bx1 = qi > g->bx1 ? qi : g->bx1;
        g->by0 = qj < g->by0 ? qj : g->by0;
        g->by1 = qj > g->by1 ? qj : g->by1;
        for (int dj = -1; dj <= 1; dj++)
            for (int di = -1; di <= 1; di++) {
                const int xi = qi + di, yj = qj + dj;
                size_t kk;

                if (xi < 0 || yj < 0 || xi >= gw || yj >= gh)
                    continue;
                kk = (size_t)yj * gw + xi;
                if (mask[kk] && !d->seen[kk]) {
                    d->seen[kk] = 1;
                    d->stack[sp++] = (int)kk;
                }
            }
    }
}

/* Whether a probe lies within r of table (x, y). */
static bool cr_det_probe_near(const cr_detector_t *d, double x, double y, double r)
{
    for (int b = 0; b < d->n_probe; b++)
        if (hypot(x - d->probe[b].x, y - d->probe[b].y) < r)
            return true;
    return false;
}

/* A new probe at table (x, y): found once, going (vx, vy) a frame as far
 * as known (0 for one the scan found; a guess for one found by what moves). */
static void cr_det_probe_new(cr_detector_t *d, double x, double y, double vx, double vy)
{
    if (d->n_probe >= CR_DET_MAX_PROBES)
        return;
    d->probe[d->n_probe].x = x, d->probe[d->n_probe].y = y;
    d->probe[d->n_probe].vx = vx, d->probe[d->n_probe].vy = vy;
    d->probe[d->n_probe].hits = 1;
    d->probe[d->n_probe].seen = 0;
    d->probe[d->n_probe++].misses = 0;
}

/* Probe k found again at table (x, y): its step a frame since its last find,
 * averaged with the steps before (a faint fit scatters by millimetres), so a
 * rolling ball is looked for where it went on. */
static void cr_det_probe_found(cr_detector_t *d, int k, double x, double y)
{
    const double f = d->probe[k].misses + 1.0, sx = (x - d->probe[k].x) / f, sy = (y - d->probe[k].y) / f;

    d->probe[k].vx = d->probe[k].hits >= 2 ? 0.5 * (d->probe[k].vx + sx) : sx;
    d->probe[k].vy = d->probe[k].hits >= 2 ? 0.5 * (d->probe[k].vy + sy) : sy;
    d->probe[k].x = x, d->probe[k].y = y;
    d->probe[k].hits++;
    d->probe[k].misses = 0;
}

/* Step 8, what moves: a ball of the cloth's colour rolling after a break
 * that no region shows and no hint follows still changes the samples it
 * crosses from frame to frame (its shading, its highlights, its number
 * disc, its shadow). Groups of such samples (moved) no larger than a ball
 * rolling a frame's way with its shadow (three and a half diameters
 * across) and no smaller than a quarter of a ball's, with no ball found or
 * followed within 2 R, on the bed, are looked at as a probe is (fainter
 * edges, no foreground test), the largest first, at most motion_looks a
 * frame, over the group's extent: a group holds the ball's place in both
 * frames and its shadow, so its centre lies behind the ball (by 20-50 mm,
 * a maroon 7 on red cloth rolling 27-50 mm a frame at 30 fps: a look
 * within R of the centre missed it). A fit there becomes a probe, which is
 * then followed and reported as the scan's are; it goes on the way from
 * the group's centre to the fit, at twice that step a frame (the centre is
 * halfway between the ball's two places), looked for the next frame as far
 * as twice that again (the shadow and the blur pull the centre further
 * back; cr_det_scan()). */
#define CR_DET_MOVE_GROUPS 16
static void cr_det_motion_probes(cr_detector_t *d, const cr_yuv_image_t *img, int nd)
{
    const double R = d->tab.ball_radius_mm, cell = 2.0 * d->gs;
    const int gw = d->gw, gh = d->gh, span = (int)ceil(3.5 * d->r_max_px / d->gs);
    const int min_n = (int)fmax(3.0, 0.25 * CR_DET_PI * (d->r_max_px / cell) * (d->r_max_px / cell));
    const size_t ng = (size_t)gw * gh;
    struct {
        int n;
        double x, y, u, v, ext; /* ext: pixels across */
    } grp[CR_DET_MOVE_GROUPS];
    int ngrp = 0, a;

    if (d->p.motion_looks <= 0)
        return;
    memset(d->seen, 0, ng);
    for (size_t k0 = cr_det_next_set(d->moved, 0, ng); k0 < ng; k0 = cr_det_next_set(d->moved, k0 + 1, ng)) {
        cr_det_group_t g;
        double u, v, x, y;

        if (d->seen[k0])
            continue;
        cr_det_grow_group(d, d->moved, k0, &g);
        if (g.n < min_n || g.bx1 - g.bx0 > span || g.by1 - g.by0 > span)
            continue; /* a speck of noise, or an arm, a cue, a hand */
        u = cell * g.si / g.n + 0.5, v = cell * g.sj / g.n + 0.5;
        if (!cr_camera_unproject_plane(&d->cam, u, v, R, &x, &y) || !cr_det_centre_ok(d, x, y, 0.0) ||
            cr_det_ball_near(d, nd, x, y, 2.0 * R) < nd)
            continue;
        if (cr_det_probe_near(d, x, y, 2.0 * R))
            continue;
        /* kept largest first */
        for (a = ngrp < CR_DET_MOVE_GROUPS ? ngrp++ : CR_DET_MOVE_GROUPS; a > 0 && grp[a - 1].n < g.n; a--)
            if (a < CR_DET_MOVE_GROUPS)
                grp[a] = grp[a - 1];
        if (a < CR_DET_MOVE_GROUPS)
            grp[a].n = g.n, grp[a].x = x, grp[a].y = y, grp[a].u = u, grp[a].v = v,
            grp[a].ext = cell * (1 + fmax(g.bx1 - g.bx0, g.by1 - g.by0));
    }
    for (a = 0; a < ngrp && a < d->p.motion_looks && d->n_probe < CR_DET_MAX_PROBES; a++) {
        cr_detection_t det;
        const double rp = cr_det_radius_at(d, grp[a].u, grp[a].v);
        /* the ball's centre lies within the group, at least R inside its
         * far edge: reach over half the group less half a radius */
        const double reach = fmin(fmax(0.5 * grp[a].ext - 0.5 * rp, rp), 2.5 * rp);

        if (cr_det_look_at(d, img, grp[a].u, grp[a].v, rp, reach, grp[a].x, grp[a].y, R * reach / rp, nd, &det) &&
            cr_det_centre_ok(d, det.x, det.y, 0.0) && det.colour_fit >= CR_VISION_COLOUR_OFF &&
            !cr_det_probe_near(d, det.x, det.y, 1.8 * R)) {
            double sx = 2.0 * (det.x - grp[a].x), sy = 2.0 * (det.y - grp[a].y), sl = hypot(sx, sy);

            if (sl > 3.0 * R) /* a frame's way at most as the group's size allows */
                sx *= 3.0 * R / sl, sy *= 3.0 * R / sl;
            cr_det_probe_new(d, det.x, det.y, sx, sy);
        }
        d->looking = 0;
    }
}

/* Step 8: balls no region shows (cr_detect.h). Each frame a few tiles of
 * the bed are searched as a look searches (fainter edges, no foreground
 * test); a sharp, whole enough fit there (min_score) on the bed, mostly not
 * foreground and at least 1.8 R from every ball found becomes a probe. A
 * probe is looked at again in every frame within half a radius of where it
 * was last found and reported once found in probe_frames frames (within 2 R
 * of a cushion, probe_near_frames); missed three frames in a row, found at
 * a tracker's hint, or found by the search for CR_DET_PROBE_SEEN frames, it
 * is dropped.
 * So a resting ball is reported within a sweep of the bed plus
 * probe_frames frames, and a texture of the cloth that fits an outline in
 * one frame's noise is not. */
static int cr_det_scan(cr_detector_t *d, const cr_yuv_image_t *img, int nd)
{
    const double R = d->tab.ball_radius_mm;
    const int n_cand = d->n_cand, n_tiles = d->scan_nx * d->scan_ny;
    int a, b, k;

    for (k = 0; k < d->n_probe;) {
        cr_detection_t det;
        double u, v, rp;
        int keep = 1, found = 0;

        /* between where it was last found and where it went on at the step
         * it went between its finds (a faint fit of a resting ball jumps
         * about, and makes a step of its own): looked for over both */
        /* (found once, its step is none, or a guess from a group that
         * moved, short of the ball's: looked for twice as far,
         * cr_det_motion_probes()) */
        const double f = (d->probe[k].misses + 1) * (d->probe[k].hits == 1 ? 2.0 : 1.0);
        const double ex = d->probe[k].vx * f, ey = d->probe[k].vy * f;
        const double qx = d->probe[k].x + 0.5 * ex, qy = d->probe[k].y + 0.5 * ey, qr = 0.5 * R + 0.5 * hypot(ex, ey);

        b = cr_det_ball_near(d, nd, qx, qy, 1.5 * R);
        if (b < nd) {
            /* found where the tracker expects it: followed; found by the
             * search: still a ball the search misses at times, followed
             * here until the tracker knows it (or the search has found it
             * for a second's worth of frames) */
            if (d->dets[b].hint_tag != 0 || ++d->probe[k].seen > CR_DET_PROBE_SEEN) {
                keep = 0;
            } else {
                if (cr_det_hl_better(d, img, NULL, nd, b, &d->dets[b])) {
                    cr_det_identify(d, img, &d->dets[b]);
                    d->reuse[b] = 0;
                }
                cr_det_probe_found(d, k, d->dets[b].x, d->dets[b].y);
            }
        } else if (cr_camera_project(&d->cam, qx, qy, R, &u, &v)) {
            rp = cr_det_radius_at(d, u, v);
            found = cr_det_look_at(d, img, u, v, rp, qr * rp / R, qx, qy, qr, nd, &det);
            d->looking = 0;
            if (!found)
                found = cr_det_hl_find(d, img, qx, qy, qr, NULL, 0, nd, -1, &det);
            else
                cr_det_hl_better(d, img, NULL, nd, -1, &det);
            if (found && det.colour_fit < CR_VISION_COLOUR_OFF)
                found = 0; /* of no ball's colour (a hand) */
            if (found) {
                const int near = fmin(fmin(det.x, d->tab.length_mm - det.x), fmin(det.y, d->tab.width_mm - det.y)) <
                                 2.0 * R;

                cr_det_probe_found(d, k, det.x, det.y);
                if (d->probe[k].hits >= (near ? d->p.probe_near_frames : d->p.probe_frames) &&
                    nd < 2 * CR_VISION_MAX_DETECTIONS)
                    nd = cr_det_add_found(d, img, &det, 0, nd);
            } else if (++d->probe[k].misses >= 3) {
                keep = 0;
            }
        }
        if (!keep) {
            d->probe[k] = d->probe[--d->n_probe];
            continue;
        }
        k++;
    }
    cr_det_motion_probes(d, img, nd);
    d->scan_credit = fmin(d->scan_credit + (double)n_tiles / d->p.scan_sweep_frames, (double)n_tiles);
    while (d->scan_credit >= 1.0) {
        const int tile = d->scan_next++ % n_tiles, pad = (int)ceil(0.5 * d->r_max_px) + 3;
        const int x0 = d->scan_x0 + (tile % d->scan_nx) * d->scan_tile - pad;
        const int y0 = d->scan_y0 + (tile / d->scan_nx) * d->scan_tile - pad;

        d->scan_credit -= 1.0;
        d->scan_next %= n_tiles;
        cr_det_look_roi(d, img, x0, y0, x0 + d->scan_tile + 2 * pad + 1, y0 + d->scan_tile + 2 * pad + 1, 16);
        for (a = 0; a < d->n_cand && d->n_probe < CR_DET_MAX_PROBES; a++) {
            const cr_det_cand_t *cd = &d->cand[a];
            cr_detection_t det;
            double pu, pv, cx, cy;

            if (cd->score < d->p.min_votes)
                break; /* sorted: the rest are weaker */
            /* a peak off the bed is the cushions' or the pockets' own */
            if (!cr_camera_unproject_plane(&d->cam, cd->u, cd->v, R, &cx, &cy) ||
                !cr_det_centre_ok(d, cx, cy, 0.25 * R))
                continue;
            for (b = 0; b < nd; b++)
                if (hypot(cd->u - d->dets[b].u, cd->v - d->dets[b].v) < 1.8 * d->dets[b].r_px)
                    break;
            if (b < nd)
                continue;
            for (b = 0; b < d->n_probe; b++)
                if (cr_camera_project(&d->cam, d->probe[b].x, d->probe[b].y, R, &pu, &pv) &&
                    hypot(cd->u - pu, cd->v - pv) < 1.8 * d->r_max_px)
                    break;
            if (b < d->n_probe)
                continue;
            /* placed by highlights, the place is mostly not foreground
             * (cr_det_hl_find()); a fit's that is is the regions' own */
            if (!cr_det_refine(d, img, cd, &det) || det.score < d->p.min_score || det.blur_dx != 0.0 ||
                det.blur_dy != 0.0 || !cr_det_centre_ok(d, det.x, det.y, 0.0)) {
                if (!cr_det_hl_find(d, img, cx, cy, R, NULL, 0, nd, -1, &det))
                    continue;
            } else if (!cr_det_hl_better(d, img, NULL, nd, -1, &det) &&
                       cr_det_fg_share(d, det.u, det.v, det.r_px) > 0.5f) {
                continue;
            }
            if (cr_det_ball_near(d, nd, det.x, det.y, 1.8 * R) < nd)
                continue;
            if (cr_det_probe_near(d, det.x, det.y, 1.8 * R))
                continue;
            cr_det_probe_new(d, det.x, det.y, 0.0, 0.0);
        }
        d->looking = 0;
    }
    d->n_cand = n_cand;
    return nd;
}

int cr_detector_bare(const cr_detector_t *d, int *tags, int max)
{
    int n = 0;

    if (!d || !tags || max <= 0)
        return 0;
    for (; n < d->n_bare && n < max; n++)
        tags[n] = d->bare[n];
    return n;
}

int cr_detector_expect(cr_detector_t *d, const cr_ball_hint_t *h, int n)
{
    if (!d || n < 0 || (n > 0 && !h))
        return CR_ERR_INVALID;
    d->n_hint = n < CR_VISION_MAX_DETECTIONS ? n : CR_VISION_MAX_DETECTIONS;
    if (d->n_hint > 0)
        memcpy(d->hint, h, (size_t)d->n_hint * sizeof *h);
    return CR_OK;
}

/* The samples of grid row gj over its span of the search region
 * [row_lo, row_hi), into ny, nu, nv (indexed by column): the half-res pixel
 * (gi gs, gj gs), its four full pixels' mean luma and its chroma times
 * chroma_gain (a last column or row without a neighbour takes its own
 * pixels twice). */
static void cr_det_sample_row(const cr_detector_t *d, const cr_yuv_image_t *img, int gj, float *ny, float *nu,
                              float *nv)
{
    const int gs = d->gs, lo = d->row_lo[gj], hi = d->row_hi[gj], hj = gj * gs, y = 2 * hj;
    const int step = 2 * gs, last = hi > lo && 2 * (hi - 1) * gs + 1 >= d->w ? hi - 1 : hi;
    const uint8_t *a0 = img->y + (size_t)y * img->stride_y + (size_t)lo * step;
    const uint8_t *a1 = img->y + (size_t)(y + 1 < d->h ? y + 1 : y) * img->stride_y + (size_t)lo * step;
    const uint8_t *cu = img->u + (size_t)hj * img->stride_u + (size_t)lo * gs;
    const uint8_t *cv = img->v + (size_t)hj * img->stride_v + (size_t)lo * gs;
    const float *lut = d->chroma_lut;
    int gi;

    for (gi = lo; gi < last; gi++, a0 += step, a1 += step, cu += gs, cv += gs) {
        ny[gi] = 0.25f * (float)(a0[0] + a0[1] + a1[0] + a1[1]);
        nu[gi] = lut[*cu];
        nv[gi] = lut[*cv];
    }
    if (last < hi) {
        ny[last] = 0.25f * (float)(2 * a0[0] + 2 * a1[0]);
        nu[last] = lut[*cu];
        nv[last] = lut[*cv];
    }
}

/* The background update of cells [0, n) of a grid row (after detection,
 * made in the next frame's sweep to keep to one pass): a cell a ball
 * covered keeps its background; one that was cloth moves it an eighth of
 * the way to its sample; one in foreground no ball explains for `absorb`
 * frames takes its sample. Branch-free over planes, so it vectorises. */
static void cr_det_sweep_bg(int n, const uint8_t *restrict gmask, const uint8_t *restrict covered,
                            const uint8_t *restrict fg, uint8_t *restrict age, int absorb, const float *restrict o0,
                            const float *restrict o1, const float *restrict o2, float *restrict b0, float *restrict b1,
                            float *restrict b2)
{
    for (int i = 0; i < n; i++) {
        unsigned m = gmask[i] != 0, cov = covered[i] != 0, f = fg[i] != 0, a = age[i];
        unsigned na = a + 1;
        unsigned lerp = m & (cov ^ 1u) & (f ^ 1u);
        unsigned take = m & (cov ^ 1u) & f & ((na >= (unsigned)absorb) | (na == 255u));
        unsigned keep = m & (cov ^ 1u) & f & (take ^ 1u);
        float x0 = b0[i], x1 = b1[i], x2 = b2[i], y0 = o0[i], y1 = o1[i], y2 = o2[i];
        float l0 = x0 + 0.125f * (y0 - x0), l1 = x1 + 0.125f * (y1 - x1), l2 = x2 + 0.125f * (y2 - x2);
        float t0 = take ? y0 : x0, t1 = take ? y1 : x1, t2 = take ? y2 : x2;

        b0[i] = lerp ? l0 : t0;
        b1[i] = lerp ? l1 : t1;
        b2[i] = lerp ? l2 : t2;
        age[i] = (uint8_t)((keep * na) | ((m ^ 1u) * a));
    }
}

/* Cells [0, n) of a grid row take their new samples n0..n2 where the
 * search region is (gmask), and say whether they moved: differ from the
 * last frame's by more than t_move2 (squared). */
static void cr_det_sweep_new(int n, const uint8_t *restrict gmask, const float *restrict n0, const float *restrict n1,
                             const float *restrict n2, float *restrict o0, float *restrict o1, float *restrict o2,
                             uint8_t *restrict moved, float t_move2)
{
    for (int i = 0; i < n; i++) {
        const unsigned m = gmask[i] != 0;
        const float e0 = n0[i] - o0[i], e1 = n1[i] - o1[i], e2 = n2[i] - o2[i];

        moved[i] = (uint8_t)(m & (e0 * e0 + e1 * e1 + e2 * e2 > t_move2));
        o0[i] = m ? n0[i] : o0[i];
        o1[i] = m ? n1[i] : o1[i];
        o2[i] = m ? n2[i] : o2[i];
    }
}

/* Cells [0, n) of a grid row: foreground where the search region is and the
 * sample differs from the background by more than t_fg2 (squared). */
static void cr_det_sweep_fg(int n, const uint8_t *restrict gmask, const float *restrict o0, const float *restrict o1,
                            const float *restrict o2, const float *restrict b0, const float *restrict b1,
                            const float *restrict b2, uint8_t *restrict fg, float t_fg2)
{
    for (int i = 0; i < n; i++) {
        const float e0 = o0[i] - b0[i], e1 = o1[i] - b1[i], e2 = o2[i] - b2[i];

        fg[i] = (uint8_t)((gmask[i] != 0) & (e0 * e0 + e1 * e1 + e2 * e2 > t_fg2));
    }
}

/* The coarse sweep of a frame: each cell of the search region gets the
 * last frame's background update (cr_det_sweep_bg), its new sample, and
 * whether it differs from the last frame's (moved) and from the background
 * (fg); seen and covered are cleared. Row by row, over each row's span of
 * the search region; the samples are planes (Y, gain U, gain V) so that
 * all but the sampling vectorise. */
static void cr_det_sweep(cr_detector_t *d, const cr_yuv_image_t *img, int first, float t_fg2, float t_move2)
{
    const int gw = d->gw, gh = d->gh;
    const int absorb = d->p.bg_absorb_frames, pending = d->bg_pending;
    const size_t ng = d->ng;
    float *ny = d->en, *nu = ny + gw, *nv = nu + gw;
    int gj;

    for (gj = 0; gj < gh; gj++) {
        const size_t k0 = (size_t)gj * gw;
        const int lo = d->row_lo[gj], hi = d->row_hi[gj], n = hi - lo;
        const size_t kl = k0 + (size_t)lo;
        uint8_t *fg = d->fg + k0, *moved = d->moved + k0;
        float *o = d->obs, *b = d->bg;

        /* outside the row's span of the search region: nothing */
        memset(fg, 0, (size_t)lo);
        memset(moved, 0, (size_t)lo);
        memset(fg + hi, 0, (size_t)(gw - hi));
        memset(moved + hi, 0, (size_t)(gw - hi));
        if (pending)
            cr_det_sweep_bg(n, d->gmask + kl, d->covered + kl, d->fg + kl, d->age + kl, absorb, o + kl, o + ng + kl,
                            o + 2 * ng + kl, b + kl, b + ng + kl, b + 2 * ng + kl);
        if (!first) {
            cr_det_sample_row(d, img, gj, ny, nu, nv);
            cr_det_sweep_new(n, d->gmask + kl, ny + lo, nu + lo, nv + lo, o + kl, o + ng + kl, o + 2 * ng + kl,
                             moved + lo, t_move2);
        } else {
            memset(moved + lo, 0, (size_t)(n > 0 ? n : 0));
        }
        cr_det_sweep_fg(n, d->gmask + kl, o + kl, o + ng + kl, o + 2 * ng + kl, b + kl, b + ng + kl, b + 2 * ng + kl,
                        fg + lo, t_fg2);
        memset(d->seen + k0, 0, (size_t)gw);
        memset(d->covered + k0, 0, (size_t)gw);
    }
}

int cr_detector_run(cr_detector_t *d, const cr_yuv_image_t *img, cr_detection_t *out, int max, int *n)
{
    const int gw = d ? d->gw : 0, gh = d ? d->gh : 0;
    size_t k, ng;
    int gi, gj, i, j, nd = 0, regions = 0, searched = 0, first;
    double t0, t1, t2, t3, t_change2;
    float t_fg2, t_move2;

    if (!d || !img || !n || (!out && max > 0) || max < 0 || !img->y || !img->u || !img->v)
        return CR_ERR_INVALID;
    if (img->width != d->w || img->height != d->h || img->stride_y < d->w || img->stride_u < d->hw ||
        img->stride_v < d->hw)
        return CR_ERR_INVALID;
    *n = 0;
    d->n_bare = 0;
    t0 = cr_det_now_ms();
    ng = d->ng;
    /* 1. coarse samples and foreground, in one sweep over the grid with the
     * last frame's background update (row by row, before its new samples) */
    first = !d->have_bg;
    if (first) {
        float *ny = d->en, *nu = ny + gw, *nv = nu + gw;

        for (gj = 0; gj < gh; gj++) {
            cr_det_sample_row(d, img, gj, ny, nu, nv);
            for (gi = d->row_lo[gj]; gi < d->row_hi[gj]; gi++) {
                k = (size_t)gj * gw + gi;
                if (d->gmask[k])
                    d->obs[k] = ny[gi], d->obs[ng + k] = nu[gi], d->obs[2 * ng + k] = nv[gi];
            }
        }
        cr_det_learn_bg(d);
    }
    t_fg2 = (float)(d->t_fg * d->t_fg);
    /* a sample that changed since the last frame by more than the two
     * frames' noise together (change_sigmas of it): something moved there */
    t_move2 = (float)fmax(2.0, d->p.change_sigmas * d->noise * 1.41421356);
    t_move2 *= t_move2;
    cr_det_sweep(d, img, first, t_fg2, t_move2);
    d->bg_pending = 0;
    d->cap_cand = first ? 4 * d->p.max_candidates : d->p.max_candidates;
    t_change2 = d->p.change_sigmas * d->noise;
    if (t_change2 < 2.0)
        t_change2 = 2.0;
    t_change2 *= t_change2;
    d->n_cand = 0;
    memset(d->prev_dead, 0, (size_t)d->n_prev);
    /* before any reference is refreshed this frame (regions overlap) */
    for (i = 0; i < d->n_prev; i++)
        d->prev_quiet[i] = (uint8_t)cr_det_ball_quiet(d, &d->prev[i], t_change2);
    t1 = cr_det_now_ms();
    /* 2. regions: connected foreground samples, grown to a region of
     * interest; one that changed since it was last examined is searched
     * again, and the last frame's detections inside it are dropped; the
     * others keep the detections they had */
    for (k = cr_det_next_set(d->fg, 0, ng); k < ng; k = cr_det_next_set(d->fg, k + 1, ng)) {
        int bx0, by0, bx1, by1, pad, x0, y0, x1, y1, c0, c1, r0, r1, changed;
        cr_det_group_t g;
        cr_det_roi_t *ro;

        if (d->seen[k])
            continue;
        cr_det_grow_group(d, d->fg, k, &g);
        bx0 = g.bx0, by0 = g.by0, bx1 = g.bx1, by1 = g.by1;
        pad = (int)ceil(0.5 * d->r_max_px) + d->gs + 3;
        x0 = bx0 * d->gs - pad, y0 = by0 * d->gs - pad, x1 = bx1 * d->gs + pad + 1, y1 = by1 * d->gs + pad + 1;
        x0 = x0 < 0 ? 0 : x0;
        y0 = y0 < 0 ? 0 : y0;
        x1 = x1 > d->hw ? d->hw : x1;
        y1 = y1 > d->hh ? d->hh : y1;
        changed = first || d->p.change_sigmas <= 0.0 || regions >= CR_DET_MAX_ROIS;
        c0 = x0 / d->gs, c1 = (x1 - 1) / d->gs, r0 = y0 / d->gs, r1 = (y1 - 1) / d->gs;
        for (gj = r0; gj <= r1 && !changed; gj++)
            for (gi = c0; gi <= c1; gi++) {
                size_t kk = (size_t)gj * gw + gi;

                if (d->gmask[kk] && cr_det_cell_dist2(d->obs, d->ref, ng, kk) > t_change2) {
                    changed = 1;
                    break;
                }
            }
        if (regions < CR_DET_MAX_ROIS) {
            ro = &d->rois[regions];
            ro->x0 = x0, ro->y0 = y0, ro->x1 = x1, ro->y1 = y1, ro->changed = changed;
        }
        regions++;
        if (changed) {
            int a;

            searched++;

            int ex0 = x0, ey0 = y0, ex1 = x1, ey1 = y1;

            /* searched again: the last frame's balls here must be found
             * again, so the search covers them whole */
            for (a = 0; a < d->n_prev; a++)
                if (d->prev[a].u >= 2.0 * x0 && d->prev[a].u < 2.0 * x1 && d->prev[a].v >= 2.0 * y0 &&
                    d->prev[a].v < 2.0 * y1) {
                    const cr_detection_t *o = &d->prev[a];
                    double m = 0.5 * o->r_px + 4.0;

                    /* a ball under which nothing changed (something else
                     * in the region did) keeps its detection, as the balls
                     * of an unchanged region do: a resting ball's outline,
                     * faint where its colour is the cloth's, is not fitted
                     * anew to each frame's noise (fits that may settle on
                     * either side of an ambiguity would make it jump);
                     * the samples under it keep their reference, so a slow
                     * drift adds up until it is seen */
                    if (d->prev_dead[a] == 2)
                        continue; /* kept already (regions overlap) */
                    if (!d->prev_dead[a] && d->prev_quiet[a] && nd < 2 * CR_VISION_MAX_DETECTIONS) {
                        d->prev_dead[a] = 2;
                        cr_det_keep(d, img, o, nd++);
                        continue;
                    }
                    d->prev_dead[a] = 1;
                    ex0 = (int)floor(0.5 * o->u - m) < ex0 ? (int)floor(0.5 * o->u - m) : ex0;
                    ey0 = (int)floor(0.5 * o->v - m) < ey0 ? (int)floor(0.5 * o->v - m) : ey0;
                    ex1 = (int)ceil(0.5 * o->u + m) > ex1 ? (int)ceil(0.5 * o->u + m) : ex1;
                    ey1 = (int)ceil(0.5 * o->v + m) > ey1 ? (int)ceil(0.5 * o->v + m) : ey1;
                }
            x0 = ex0 < 0 ? 0 : ex0;
            y0 = ey0 < 0 ? 0 : ey0;
            x1 = ex1 > d->hw ? d->hw : ex1;
            y1 = ey1 > d->hh ? d->hh : ey1;
            c0 = x0 / d->gs, c1 = (x1 - 1) / d->gs, r0 = y0 / d->gs, r1 = (y1 - 1) / d->gs;
            for (gj = r0; gj <= r1; gj++)
                for (gi = c0; gi <= c1; gi++) {
                    size_t kk = (size_t)gj * gw + gi;

                    if (!cr_det_under_kept(d, gi, gj))
                        cr_det_copy_cell(d->ref, d->obs, ng, kk);
                }
            cr_det_hough_roi(d, img, x0, y0, x1, y1);
        }
    }
    d->n_rois = regions;
    /* the last frame's balls in regions that did not change */
    for (i = 0; i < regions && i < CR_DET_MAX_ROIS; i++) {
        const cr_det_roi_t *ro = &d->rois[i];
        int a;

        if (ro->changed)
            continue;
        for (a = 0; a < d->n_prev && nd < 2 * CR_VISION_MAX_DETECTIONS; a++) {
            const cr_detection_t *o = &d->prev[a];

            if (d->prev_dead[a] || o->u < 2.0 * ro->x0 || o->u >= 2.0 * ro->x1 || o->v < 2.0 * ro->y0 ||
                o->v >= 2.0 * ro->y1)
                continue;
            d->prev_dead[a] = 1; /* taken */
            cr_det_keep(d, img, o, nd++);
        }
    }
    t2 = cr_det_now_ms();
    /* 3. fits, strongest candidates first */
    {
        int a, b;

        cr_det_sort_cands(d);
        for (a = 0; a < d->n_cand && nd < 2 * CR_VISION_MAX_DETECTIONS; a++) {
            cr_detection_t det;
            int dup = 0;

            /* skip candidates on a ball already found */
            for (b = 0; b < nd; b++)
                if (hypot(d->cand[a].u - d->dets[b].u, d->cand[a].v - d->dets[b].v) < 0.9 * d->dets[b].r_px) {
                    dup = 1;
                    break;
                }
            if (dup)
                continue;
            if (!cr_det_refine(d, img, &d->cand[a], &det))
                continue;
            for (b = 0; b < nd; b++)
                if (hypot(det.u - d->dets[b].u, det.v - d->dets[b].v) < 1.2 * det.r_px) {
                    dup = 1;
                    if (det.score > d->dets[b].score)
                        d->dets[b] = det;
                    break;
                }
            if (!dup) {
                d->reuse[nd] = 0;
                d->dets[nd++] = det;
            }
        }
    }
    for (i = 0; i < nd; i++)
        if (!d->reuse[i] && cr_det_identify(d, img, &d->dets[i]) < d->p.min_interior && d->dets[i].score < 0.9f) {
            d->dets[i] = d->dets[nd - 1];
            d->reuse[i] = d->reuse[nd - 1];
            nd--;
            i--;
        }
    for (i = 0; d->p.use_highlights && i < nd; i++)
        if (d->reuse[i])
            cr_det_hl_learn(d, img, &d->dets[i]);
    nd = cr_det_look_hints(d, img, nd);
    if (!first && d->p.scan_sweep_frames > 0 && d->scan_nx * d->scan_ny > 0)
        nd = cr_det_scan(d, img, nd);
    nd = cr_det_merge_streaks(d, img, d->dets, d->reuse, nd);
    if (!first)
        nd = cr_det_find_smears(d, img, nd);
    /* best score first (insertion sort: few, and no allocation) */
    for (i = 1; i < nd; i++) {
        cr_detection_t t = d->dets[i];

        for (j = i - 1; j >= 0 && d->dets[j].score < t.score; j--)
            d->dets[j + 1] = d->dets[j];
        d->dets[j + 1] = t;
    }
    memcpy(d->prev, d->dets, (size_t)nd * sizeof *d->dets);
    d->n_prev = nd;
    d->white_ready = d->white_ready == 1 ? 2 : 0;
    /* coverage for the background update */
    for (i = 0; i < nd; i++) {
        const cr_detection_t *o = &d->dets[i];
        double rr = (o->r_px + 2.0 * d->gs + hypot(o->blur_dx, o->blur_dy) * o->r_px / d->tab.ball_radius_mm) * 0.5 /
                    d->gs;
        double ci = (o->u - 0.5) * 0.5 / d->gs, cj = (o->v - 0.5) * 0.5 / d->gs;
        int a0 = (int)floor(ci - rr), a1 = (int)ceil(ci + rr), b0 = (int)floor(cj - rr), b1 = (int)ceil(cj + rr);

        for (j = b0 < 0 ? 0 : b0; j <= b1 && j < gh; j++)
            for (gi = a0 < 0 ? 0 : a0; gi <= a1 && gi < gw; gi++)
                if ((gi - ci) * (gi - ci) + (j - cj) * (j - cj) <= rr * rr)
                    d->covered[(size_t)j * gw + gi] = 1;
    }
    if (first) {
        /* what differs from the cloth in the first frame and is no ball is
         * part of the scene (pocket holes, cushion faces, spots) */
        for (k = 0; k < ng; k++)
            if (d->fg[k] && !d->covered[k])
                cr_det_copy_cell(d->bg, d->obs, ng, k);
    } else {
        d->bg_pending = 1; /* made in the next frame's sweep */
    }
    for (i = 0; i < nd && *n < max; i++)
        if (d->dets[i].score >= d->p.min_score) {
            out[*n] = d->dets[i];
            out[(*n)++].fg_share = cr_det_fg_share(d, d->dets[i].u, d->dets[i].v, d->dets[i].r_px);
        }
    t3 = cr_det_now_ms();
    d->prof.ms_coarse = t1 - t0;
    d->prof.ms_hough = t2 - t1;
    d->prof.ms_fit = t3 - t2;
    d->prof.regions = regions;
    d->prof.searched = searched;
    d->prof.candidates = d->n_cand;
    return CR_OK;
}
