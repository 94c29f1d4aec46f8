/*
 * cr_camera.h - the simulator's camera: a pinhole with radial distortion,
 * posed above the table (SPEC §1 table coordinates, §5 calibration).
 *
 * Table frame: x toward the foot (mm), y toward the right cushion (mm), z up
 * out of the cloth (mm); the cloth is z = 0 and a resting ball's centre is at
 * z = R = 28.575 mm. Note that with z up this frame is left-handed (SPEC §1
 * puts +y on the right of a player looking along +x). The rotation below is
 * therefore expressed on the right-handed frame (x, y, -z), the frame OpenCV's
 * solvePnP returns for object points (x, y, 0) on the cloth:
 *
 *     X_cam = rot * (x - pos[0], y - pos[1], -(z - pos[2]))
 *
 * Camera axes follow OpenCV: x to the image right, y down the image, z along
 * the optical axis. Then (Brown radial model on normalised coordinates)
 *
 *     a = X_cam.x / X_cam.z, b = X_cam.y / X_cam.z, r2 = a*a + b*b
 *     s = 1 + k1*r2 + k2*r2*r2
 *     u = fx*a*s + cx,  v = fy*b*s + cy          (pixels)
 *
 * Pixel convention: pixel (i, j) (column i, row j) has its centre at
 * (u, v) = (i, j), as in OpenCV; an image of width w spans u in [-0.5, w-0.5].
 *
 * All functions are pure: no allocation, no global state, thread-safe.
 */
#ifndef CR_CAMERA_H
#define CR_CAMERA_H

#include <stdbool.h>

#include "cr_table.h"
#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A posed camera. All fields public; cr_camera_build() fills a consistent one. */
typedef struct {
    int width;      /* image size, pixels */
    int height;
    double fx, fy;  /* focal lengths, pixels */
    double cx, cy;  /* principal point, pixels */
    double k1, k2;  /* radial distortion on normalised coordinates (Brown) */
    double rot[9];  /* row-major rotation, table (x, y, -z) -> camera; det +1 */
    double pos[3];  /* camera centre in table coordinates (x, y, z up), mm */
} cr_camera_t;

/* Geometry of the table around the playing surface, as drawn by the
 * renderer; the camera fits this outline into the image (mm). */
#define CR_CAMERA_RAIL_WIDTH_MM 150.0  /* cushion nose to rail outer edge */
#define CR_CAMERA_RAIL_HEIGHT_MM 48.0  /* rail cap above the cloth (RULES.md §5.5) */

/* How to place the camera: a struct so that callers name what they set. */
typedef struct {
    int width;               /* image size, pixels (> 0) */
    int height;
    double height_mm;        /* camera centre above the cloth, mm (> 100) */
    double offset_x_mm;      /* camera centre from the table centre along x, mm */
    double offset_y_mm;      /* ... along y, mm */
    double yaw_deg;          /* rotation about the vertical; 0: the head end is on
                                the image left, +x to the image right, +y down;
                                positive turns the camera x axis from +x toward +y */
    double tilt_deg;         /* optical axis away from straight down, degrees (0..60) */
    double tilt_azimuth_deg; /* table direction the optical axis leans toward,
                                degrees from +x toward +y (default 90: toward the
                                right cushion) */
    double focal_scale;      /* 1: the focal length that just fits the table with
                                its rails and a margin (below); > 1 zooms in */
    double margin;           /* fraction of the half-image left free around the
                                rails at focal_scale 1 (default 0.04) */
    double k1, k2;           /* radial distortion (negative k1: barrel) */
} cr_camera_setup_t;

/* Defaults for a w x h image: 3000 mm above the table centre, looking
 * straight down, head on the left, no distortion, focal_scale 1. */
void cr_camera_setup_defaults(cr_camera_setup_t *s, int width, int height);

/* Builds a camera: the centre at (L/2 + offset_x, W/2 + offset_y,
 * height_mm), first yawed, then tilted; the principal point at the image
 * centre ((w-1)/2, (h-1)/2) and square pixels; fx = fy chosen so that the
 * outline of the rails (CR_CAMERA_RAIL_WIDTH_MM beyond the nose lines, at
 * CR_CAMERA_RAIL_HEIGHT_MM), distortion included, lies inside the image with
 * the margin, then multiplied by focal_scale. Returns 0, or CR_ERR_INVALID
 * (bad sizes, tilt outside 0..60, a rail point behind the camera or outside
 * the distortion's monotonic range) leaving *out untouched. */
int cr_camera_build(const cr_camera_setup_t *s, const cr_table_t *t, cr_camera_t *out);

/* cr_camera_build with cr_camera_setup_defaults. */
int cr_camera_defaults(cr_camera_t *out, int width, int height, const cr_table_t *t);

/* Projects the table point (x, y, z) mm to pixels. Returns false, leaving
 * *u, *v untouched, when the point is not in front of the camera. Points
 * outside the image are projected too (and may then fold back where the
 * distortion polynomial turns over; cr_camera_build checks the table). */
bool cr_camera_project(const cr_camera_t *cam, double x, double y, double z, double *u, double *v);

/* The undistorted normalised radius at which the distortion polynomial
 * stops increasing (points beyond it fold back into the image), or
 * HUGE_VAL when it increases for ever. */
double cr_camera_max_radius(const cr_camera_t *cam);

/* Removes the distortion of pixel (u, v): the normalised undistorted
 * coordinates (a, b) of the ray through it (X_cam = (a, b, 1) up to scale).
 * Newton iteration on the radius, to 1e-15. Returns false when the pixel is
 * beyond the radius where the distortion polynomial stops increasing. */
bool cr_camera_undistort(const cr_camera_t *cam, double u, double v, double *a, double *b);

/* The ray through pixel (u, v) in table coordinates: direction (not
 * normalised, dir_z < 0 for a camera looking down). Origin is cam->pos.
 * Returns false as cr_camera_undistort. */
bool cr_camera_ray(const cr_camera_t *cam, double u, double v, double dir[3]);

/* Unprojects pixel (u, v) onto the horizontal plane at height z mm: (x, y) mm.
 * Returns false when the pixel cannot be undistorted or its ray does not
 * meet the plane in front of the camera. */
bool cr_camera_unproject_plane(const cr_camera_t *cam, double u, double v, double z, double *x, double *y);

/* The four playing-surface corners (nose-line intersections, z = 0) in
 * pixels, in SPEC §5 order: head-left, head-right, foot-right, foot-left.
 * Returns false if one is behind the camera. */
bool cr_camera_table_corners(const cr_camera_t *cam, const cr_table_t *t, double corners_px[4][2]);

/* Which image side the head end is on, for calib.json (SPEC §5): "left",
 * "right", "top" or "bottom" (the side the head end's midpoint is nearest
 * to, seen from the table centre). */
const char *cr_camera_head_side(const cr_camera_t *cam, const cr_table_t *t);

/* A posed camera from the homography H (row-major) that maps table points
 * (x, y, 1) on the cloth plane z = 0 (mm) to undistorted pixels, for a
 * w x h image with square pixels and the principal point at the image
 * centre. The focal length is solved from H's two orthogonality
 * constraints when the view is tilted enough to make it observable (more
 * than about 2 degrees away from straight down); otherwise f_hint_px is
 * used when > 0, else the focal length that puts the camera height_prior_mm
 * above the cloth. k1, k2: the lens's radial distortion on fx-normalised
 * coordinates (copied into the camera). *f_solved (may be NULL) tells
 * whether the focal length came from H. Returns 0, or CR_ERR_INVALID for a
 * degenerate H (leaving *out untouched). */
int cr_camera_from_homography(const double h[9], int width, int height, double k1, double k2, double f_hint_px,
                              double height_prior_mm, cr_camera_t *out, bool *f_solved);

/* The homography of the cloth plane z = 0 for cam (distortion excluded):
 * (x, y, 1) mm -> undistorted pixels, row-major, h[8] = 1 where possible.
 * Returns false for a degenerate camera. */
bool cr_camera_plane_homography(const cr_camera_t *cam, double h[9]);

#ifdef __cplusplus
}
#endif

#endif /* CR_CAMERA_H */
