/*
 * cr_highlight.h - the lamps over the table, learned from the specular
 * highlights of well-seen balls, and a ball placed by its own highlights.
 *
 * A pool ball is a glossy sphere: it mirrors every lamp over the table as a
 * small bright spot, and where that spot lies on the sphere is geometry
 * alone. The sphere's normal there bisects the directions to the lamp and to
 * the camera, so for a ball at a known place the spot's pixel gives a ray
 * (reflected off the sphere) that passes through the lamp. Rays from balls
 * at different places meet at the lamps: cr_hl_solve() finds each lamp as
 * the point most rays from distinct balls pass near (RANSAC over pairs, then
 * least squares), whatever the fixture (one lamp, three, a panel's centre).
 *
 * With the lamps known, the spots a ball shows are predicted for any place
 * on the table (cr_hl_predict()), and a ball whose outline is faint - one of
 * the cloth's own colour, whose shading and shadow a circle fit confuses -
 * is placed where its spots are (cr_hl_locate()): the highlights move with
 * the ball's centre, not with its rotation, and they are the brightest,
 * sharpest thing on it whatever its colour.
 *
 * Spots (cr_hl_spots()) are local luma maxima that stand above the ring of
 * pixels around them (a top-hat): a highlight is far smaller than a number
 * circle or a stripe, but the ink of a number leaves small bright gaps too;
 * those are outliers to the lamps' rays and to a ball's constellation.
 *
 * Units: table millimetres (x along the length, y across, z up; the ball's
 * centre at z = R), image pixels with the camera's (cr_camera.h) convention.
 * Thread-safety: a model is used by one thread at a time. No allocation.
 */
#ifndef CR_HIGHLIGHT_H
#define CR_HIGHLIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "cr_camera.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CR_HL_MAX_LAMPS 6
#define CR_HL_MAX_BALLS 96 /* ball placements kept for learning */
#define CR_HL_MAX_RAYS 768
#define CR_HL_MIN_SIGMA_PX 0.2 /* the least uncertainty of a ball placed by its highlights, px */

/* A bright spot in the image: sub-pixel place and how far it stands above
 * the ring around it (8-bit luma levels). */
typedef struct {
    double u, v;
    double top;
} cr_hl_spot_t;

typedef struct {
    /* observations: reflected rays (point on the sphere, unit direction) */
    int n_rays;
    double ray_p[CR_HL_MAX_RAYS][3];
    double ray_d[CR_HL_MAX_RAYS][3];
    int ray_ball[CR_HL_MAX_RAYS];
    int n_balls;
    double ball_xy[CR_HL_MAX_BALLS][2];
    int solved_balls; /* n_balls at the last solve */
    /* the lamps found (mm), and how many distinct balls saw each */
    int n_lamps;
    double lamp[CR_HL_MAX_LAMPS][3];
    int lamp_balls[CR_HL_MAX_LAMPS];
} cr_hl_model_t;

/* Empties a model. */
void cr_hl_model_init(cr_hl_model_t *m);

/* Finds bright spots within rad pixels of (cu, cv) on an 8-bit luma plane
 * (w x h, stride bytes): local maxima standing at least min_top levels above
 * the mean of 8 pixels on a ring of radius about 0.17 r_px (at least 2 px)
 * around them, with at most two of those nearly as bright (smaller than the
 * ring: not the rim of a number circle or a stripe, which fills several),
 * placed at the centroid of the excess over the ring's
 * mean in the 3 x 3 pixels. The strongest
 * max (at most) into out, strongest first; returns their count. */
int cr_hl_spots(const uint8_t *y, int stride, int w, int h, double cu, double cv, double rad, double r_px,
                double min_top, cr_hl_spot_t *out, int max);

/* The highlights of a ball moving during the exposure: each lamp's spot
 * smeared into a short line along the ball's image motion (su, sv), pixels,
 * the most it can move in one exposure (a frame's step). Found as
 * cr_hl_spots() finds spots, the ring beside the smear rather than around
 * it; each is placed at the middle of its smear (where it falls to half its
 * height above the ring, both ends): the highlight at mid-exposure, which
 * moves with the ball's centre. A smear longer than (su, sv) plus the ring's
 * radius is no lamp's (a stripe's edge, the cue). At most max, strongest
 * first; returns their count (0 for a zero smear). */
int cr_hl_streaks(const uint8_t *y, int stride, int w, int h, double cu, double cv, double rad, double r_px,
                  double su, double sv, double min_top, cr_hl_spot_t *out, int max);

/* Whether a ball at table (x, y) would add to the model: room is left and
 * no place within R of it is kept already. */
bool cr_hl_new_place(const cr_hl_model_t *m, double R, double x, double y);

/* Adds the spots seen on a ball resting at table (x, y) (centre at z = R),
 * whose place is known well (a sharp, complete outline): each spot's
 * reflected ray. A place within R of one already kept adds nothing (one
 * ball's rays are not several witnesses). Returns the rays added. */
int cr_hl_observe(cr_hl_model_t *m, const cr_camera_t *cam, double R, double x, double y, const cr_hl_spot_t *s,
                  int n);

/* Finds the lamps from the rays kept: a lamp is a point above the balls
 * that rays from at least min_balls distinct balls, spread over at least
 * 300 mm, pass within 2.3 degrees of. Deterministic. Returns the number of
 * lamps (also in m->n_lamps). */
int cr_hl_solve(cr_hl_model_t *m, double R, int min_balls);

/* The image of lamp k's highlight on a ball centred at table (x, y, R).
 * Returns false when the highlight is not on the camera's side of the ball
 * or does not project. */
bool cr_hl_predict(const cr_hl_model_t *m, const cr_camera_t *cam, double R, int k, double x, double y, double *u,
                   double *v);

/* Places a ball by its highlights: near the table point (x0, y0), within
 * reach_mm, the centre whose predicted highlights the most lamps find a spot
 * at (within tol_px), then refined to the mean of their residuals. Writes
 * the centre (*x, *y) and its 1-sigma uncertainty (*sigma_mm, from the
 * residuals' scatter). Returns the number of lamps that agree (0 when no
 * place has at least two). */
int cr_hl_locate(const cr_hl_model_t *m, const cr_camera_t *cam, double R, double x0, double y0, double reach_mm,
                 double tol_px, const cr_hl_spot_t *s, int n, double *x, double *y, double *sigma_mm);

#ifdef __cplusplus
}
#endif

#endif /* CR_HIGHLIGHT_H */
