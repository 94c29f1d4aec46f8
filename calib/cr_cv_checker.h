/*
 * cr_cv_checker.h - camera intrinsics from views of a printed checkerboard
 * (OpenCV's findChessboardCorners, cornerSubPix and calibrateCamera behind
 * one plain C function; no OpenCV type leaves cr_cv_checker.cpp).
 *
 * The board has cols x rows inner corners (where four squares meet) and
 * squares square_mm on a side; it must be flat and seen whole in each view
 * used, from several directions (tilted 20 to 45 degrees to the camera:
 * fronto-parallel views do not fix the focal length).
 *
 * Model (cr_camera.h, OpenCV): square pixels (fx = fy, fixed ratio), the
 * principal point free, radial k1 and k2, no tangential distortion, k3 = 0.
 *
 * Thread-safety: no shared state; OpenCV may use its own threads inside.
 */
#ifndef CR_CV_CHECKER_H
#define CR_CV_CHECKER_H

#include <stdbool.h>
#include <stddef.h>

#include "cr_calib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finds the board's inner corners in each of the n views (all of one size,
 * RGB, as cr_calib_image_t) and fits the intrinsics to the views where all
 * were found (found[i] says which, when found is not NULL). Needs at least
 * 3 such views. Returns CR_CALIB_OK with *out filled (out->n_views the
 * views used, out->rms_px the reprojection rms); CR_CALIB_ERR_INVALID (bad
 * arguments, views of different sizes, cols or rows below 2);
 * CR_CALIB_ERR_EDGES (the board found in fewer than 3 views);
 * CR_CALIB_ERR_GEOMETRY (the fit failed or is degenerate); CR_CALIB_ERR_NOMEM.
 * err (when not NULL) gets a one-line reason on failure. *out is untouched
 * on failure. */
int cr_cv_checker_calibrate(const cr_calib_image_t *views, int n, int cols, int rows, double square_mm,
                            cr_calib_intrinsics_t *out, bool *found, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CR_CV_CHECKER_H */
