/*
 * cr_calib.h - finds the table in one overhead camera frame and maps image
 * pixels to table millimetres (SPEC §1 table coordinates, §5 calibration).
 *
 * Pipeline (all pure C on an 8-bit RGB view):
 *   1. cloth model: the median colour of the central image region; a pixel
 *      is "bed cloth" when its chromaticity (r, g, b) / (r + g + b) is within
 *      chroma_tol of the model's and its brightness r + g + b is within
 *      [bright_lo, bright_hi] times the model's (relative, not tuned to a
 *      colour); the bed is the 4-connected region of such pixels grown from
 *      the pixel nearest the image centre;
 *   2. cushion nose lines: along every image row (head/foot ends) and column
 *      (long cushions) the outermost bed pixel is refined to the luma
 *      gradient peak (parabolic interpolation, sub-pixel); RANSAC on each
 *      side's points rejects balls, the cue, the arm and pockets; a total
 *      least-squares fit on the inliers gives the line;
 *   3. corners = intersections of adjacent lines, in SPEC §5 order
 *      (head-left, head-right, foot-right, foot-left), and the homography
 *      table mm -> pixels through them.
 *
 * The head end is assumed on the image left (or right, head_on_right), the
 * table roughly axis-aligned in the image (yaw within about +-10 degrees).
 * Lens distortion: one radial coefficient k1 about the image centre, the
 * value that makes the four edge point sets straightest (see k1 below).
 *
 * Thread-safety: cr_calib_detect allocates its scratch per call and keeps
 * no state; the mapping functions are pure.
 */
#ifndef CR_CALIB_H
#define CR_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cr_table.h"
#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A non-owning RGB image view (3 bytes per pixel R, G, B); it must stay
 * valid for the duration of the call it is passed to. */
typedef struct {
    const uint8_t *rgb;
    int width, height; /* pixels, > 0 */
    int stride;        /* bytes between rows, >= 3 * width */
} cr_calib_image_t;

/* Outcome of a detection (0 ok, negative failures). */
typedef enum {
    CR_CALIB_OK = 0,
    CR_CALIB_ERR_INVALID = -1,  /* bad arguments */
    CR_CALIB_ERR_NOMEM = -2,    /* an allocation failed */
    CR_CALIB_ERR_BLACK = -3,    /* the frame is (almost) black */
    CR_CALIB_ERR_NO_CLOTH = -4, /* no dominant cloth-coloured region at the centre */
    CR_CALIB_ERR_EDGES = -5,    /* a cushion line has too few edge points */
    CR_CALIB_ERR_GEOMETRY = -6  /* the lines do not form a plausible quadrilateral */
} cr_calib_status_t;

/* A short constant description of a status. */
const char *cr_calib_strerror(int status);

typedef struct {
    bool head_on_right;   /* the head end is on the image right (default: left) */
    double centre_frac;   /* side of the central region sampled for the cloth colour,
                             fraction of the image (0.3) */
    double chroma_tol;    /* max Euclidean chromaticity distance to the cloth (0.06) */
    double bright_lo;     /* bed brightness range, relative to the cloth's (0.55 .. 1.8) */
    double bright_hi;
    double min_cloth_frac;/* share of the central region that must be cloth (0.5) */
    double black_level;   /* mean brightness (0..255) below which a frame is black (8) */
    double edge_search_px;/* gradient-peak search around the region boundary, px (3) */
    double ransac_tol_px; /* RANSAC inlier distance, px (1.0) */
    int ransac_iters;     /* RANSAC samples per side (300) */
    int min_edge_points;  /* inliers needed per side (30) */
    double side_trim;     /* fraction of each side's extent skipped at both ends
                             (corners and corner pockets) (0.08) */
    double min_run_frac;  /* shortest run of cloth pixels that counts as the bed, as a
                             fraction of the bed's short image extent (0.06); the
                             cushion tops (cloth too, about 4% of it) are narrower */
    bool estimate_k1;     /* estimate radial distortion from the edges' curvature (true) */
    double k1_min, k1_max, k1_step; /* its search grid (-0.35 .. 0.02, step 0.005) */
    uint64_t seed;        /* RANSAC sampling (deterministic) */
} cr_calib_params_t;

void cr_calib_params_defaults(cr_calib_params_t *p);

/* Image sides of the table as found. */
enum { CR_CALIB_SIDE_TOP = 0, CR_CALIB_SIDE_BOTTOM, CR_CALIB_SIDE_LEFT, CR_CALIB_SIDE_RIGHT, CR_CALIB_SIDES };

typedef struct {
    int status;                    /* cr_calib_status_t */
    char message[256];             /* human-readable detail ("" when ok) */
    uint8_t cloth_rgb[3];          /* the cloth model's median colour */
    double corners_px[4][2];       /* SPEC §5 order: head-left, head-right, foot-right, foot-left */
    double lines[CR_CALIB_SIDES][3]; /* a u + b v + c = 0, (a, b) unit, in undistorted pixels, per
                                        image side (top, bottom, left, right) */
    int n_points[CR_CALIB_SIDES];  /* edge points collected per side */
    int n_inliers[CR_CALIB_SIDES]; /* RANSAC inliers per side */
    double rms_px[CR_CALIB_SIDES]; /* rms distance of the inliers to their line, px */
    double k1;                     /* radial distortion: a distorted pixel d and its undistorted
                                      pixel q relate through x = (q - c) / f by
                                      d = c + f x (1 + k1 |x|^2) */
    double dist_centre_px[2];      /* c: the image centre ((w-1)/2, (h-1)/2) */
    double dist_f_px;              /* f: the image width, a stand-in focal length (k1 equals
                                      the camera's k1 scaled by (f / fx)^2) */
    double table_to_px[9];         /* row-major homography, (x mm, y mm, 1) -> undistorted pixels */
    double px_to_table[9];         /* its inverse */
} cr_calib_result_t;

/* Finds the table in img (t gives L and W for the mapping). Always fills
 * res->status and res->message; returns res->status. Allocates about 5
 * bytes per pixel of scratch, freed before returning. */
int cr_calib_detect(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                    cr_calib_result_t *res);

/* Pixel (u, v) -> table (x, y) mm through a successful result's
 * homography. Returns false when the point maps to infinity. */
bool cr_calib_pixel_to_table(const cr_calib_result_t *res, double u, double v, double *x_mm, double *y_mm);

/* Table (x, y) mm -> pixel (u, v). Returns false as above. */
bool cr_calib_table_to_pixel(const cr_calib_result_t *res, double x_mm, double y_mm, double *u, double *v);

/* Removes the result's distortion from pixel (u, v): undistorted pixel
 * (qu, qv). False beyond the model's monotonic range. */
bool cr_calib_undistort(const cr_calib_result_t *res, double u, double v, double *qu, double *qv);

/* The homography H (row-major) with H (src_i, 1) ~ (dst_i, 1) for four
 * point pairs, normalised so H[8] = 1. Returns false when degenerate. */
bool cr_calib_homography4(const double src[4][2], const double dst[4][2], double h[9]);

#ifdef __cplusplus
}
#endif

#endif /* CR_CALIB_H */
