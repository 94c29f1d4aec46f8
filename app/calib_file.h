/*
 * calib_file.h - the calibration file of SPEC §5, shared by `cueref sim`
 * (the true camera) and `cueref calibrate` (what was found): the required
 * fields in one place, and an atomic write.
 */
#ifndef CR_CALIB_FILE_H
#define CR_CALIB_FILE_H

#include <jansson.h>

#include "cr_calib.h"
#include "cr_camera.h"
#include "cr_table.h"

/* A new object with version, image, table, corners_px (head-left,
 * head-right, foot-right, foot-left, rounded to 0.001 px) and head
 * ("left", "right", "top", "bottom"); the caller adds its own fields.
 * NULL when out of memory. */
json_t *cr_calib_file_new(int width, int height, const cr_table_t *t, const double corners_px[4][2], const char *head);

/* The "camera" block of a posed camera (fx, fy, cx, cy, k1, k2, rotation[9],
 * position_mm[3], model): the same from `sim` (the true camera) and
 * `calibrate` (the estimate), read back by cr_calib_file_read. NULL when out
 * of memory. */
json_t *cr_calib_file_camera(const cr_camera_t *cam);

/* Writes root to path through path.tmp and a rename, and drops the reference.
 * Returns 0, or -1 with nothing left at path.tmp (path is untouched). */
int cr_calib_file_write(json_t *root, const char *path);

/* What a calibration file says, ready for use. */
typedef struct {
    int width, height;         /* image size */
    cr_table_t table;          /* from the file's table size */
    double corners_px[4][2];   /* head-left, head-right, foot-right, foot-left */
    char head[8];              /* "left", "right", "top", "bottom" */
    cr_camera_t camera;        /* the posed camera */
    char camera_source[64];    /* where the camera came from, for the summary */
} cr_calib_file_t;

/* Camera height assumed when nothing in a file or view fixes it, mm. */
#define CR_CALIB_HEIGHT_PRIOR_MM 3000.0

/* Reads a calibration file (SPEC §5): the required fields, then the camera:
 * the "camera" block when present (cueref sim, cueref calibrate), else the
 * "table_to_undistorted_px" homography with "distortion", else the corners
 * alone (no distortion), decomposed by cr_camera_from_homography. Returns
 * 0, or -1 with a one-line reason in err. */
int cr_calib_file_read(const char *path, cr_calib_file_t *out, char *err, size_t errlen);

/* The camera for a homography h (table mm on the cloth -> undistorted
 * pixels) of a w x hgt image and a radial k1 normalised by the image width
 * (calib/'s convention), through cr_camera_from_homography with the 3 m
 * height prior; source says how the focal length was found. 0, or -1 for a
 * degenerate h. */
int cr_calib_camera_from_h(const double h[9], int w, int hgt, double k1, cr_camera_t *cam, char *source,
                           size_t srclen);

/* Parses --corners (SPEC §2): "x,y;x,y;x,y;x,y", head-left, head-right,
 * foot-right, foot-left, in pixels. Returns 0, or -1 when malformed. */
int cr_calib_parse_corners(const char *s, double c[4][2]);

/* The camera for four playing-surface corners given in pixels (--corners),
 * no lens distortion. Returns 0, or -1 when they are not a quadrilateral. */
int cr_calib_camera_from_corners(const double corners_px[4][2], int width, int height, const cr_table_t *t,
                                 cr_camera_t *cam, char *source, size_t srclen);

/* The intrinsics file (`cueref calibrate --checkerboard` writes it,
 * `--intrinsics` reads it), a JSON object:
 *   {"version": 1, "kind": "intrinsics",
 *    "image": {"width": W, "height": H},      the image size they hold for
 *    "fx": px, "fy": px, "cx": px, "cy": px,  focal lengths, principal point
 *    "k1": k1, "k2": k2,                      radial distortion, fx-normalised
 *    "model": "...",                          the model in words (cr_camera.h)
 *    "rms_px": r, "views": n,                 the fit's reprojection rms, views used
 *    "board": {"cols": c, "rows": r, "square_mm": s}}   what it was measured on
 * Writes atomically (path.tmp and a rename). Returns 0, or -1. */
int cr_intrinsics_file_write(const char *path, const cr_calib_intrinsics_t *in, int cols, int rows, double square_mm);

/* Reads one (the fields above; board, rms_px and views optional). Returns 0,
 * or -1 with a one-line reason in err. */
int cr_intrinsics_file_read(const char *path, cr_calib_intrinsics_t *out, char *err, size_t errlen);

#endif
