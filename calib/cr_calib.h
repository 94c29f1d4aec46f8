/*
 * cr_calib.h - finds the table in one overhead camera frame and maps image
 * pixels to table millimetres (SPEC §1 table coordinates, §5 calibration).
 *
 * Pipeline (all pure C on an 8-bit RGB view):
 *   1. cloth model: the median colour of the central image region; a pixel
 *      is "bed cloth" when its chromaticity (r, g, b) / (r + g + b) is within
 *      chroma_tol of the model's and its brightness r + g + b is within
 *      [bright_lo, bright_hi] times the model's (relative, not tuned to a
 *      colour), tested on the image under a 3x3 box; chroma_tol shrinks to
 *      5 times the central region's median chroma scatter (at least 0.035),
 *      so that a rail in a colour near the cloth's is told apart on a clean
 *      image; the bed is the 4-connected region of such pixels grown from
 *      the pixel nearest the image centre; then the bed's colour is
 *      measured per cell of a coarse grid (cloth_light) and the region grown
 *      again against the local colour, until it stops growing: a bed lit
 *      by one lamp or darkened by the lens at the corners;
 *   2. cushion nose lines: along every image row (head/foot ends) and column
 *      (long cushions) the outermost bed pixel is refined to the luma
 *      gradient peak (parabolic interpolation, sub-pixel); RANSAC on each
 *      side's points rejects balls, the cue, the arm and pockets; a total
 *      least-squares fit on the inliers gives the line;
 *   3. corners = intersections of adjacent lines, in SPEC §5 order
 *      (head-left, head-right, foot-right, foot-left), and the homography
 *      table mm -> pixels through them; corners far from square fail;
 *      when step 4 refuses the outline, each side in turn is replaced by
 *      the line its points make inside it (nearly parallel, within 12 % of
 *      the image: the nose behind a rail or cushion top taken for bed) and
 *      of the outlines that pass with the diamond sights vouching for them
 *      (min_diamonds of them within half max_diamond_rms_mm), the one the
 *      camera reproduces best is kept;
 *   4. the posed camera (cr_calib_camera_estimate): the diamond sights
 *      found on the rail caps around the outline, their parallax, and a
 *      camera fitted to the homography and the sights; a camera that cannot
 *      reproduce the outline, or sights that disagree with it, fail;
 *   4b. with the camera posed (nose_height_mm > 0): the outline fitted
 *      again on the cushion noses' own edges (the bed's edge moves with the
 *      light; the nose, nose_height_mm above the cloth, does not), moved
 *      down to the cloth by the camera's parallax, k1 searched again on
 *      them; kept when the diamond sights agree with it better;
 *   5. the balls' apparent size and a rack's spread, for cr_calib_table_infer;
 *   6. the head end (head_from_rack): a rack over one end's foot spot
 *      (cr_calib_rack_find) turns the result end for end when it is the
 *      end head_on_right put at the head.
 *
 * The head end: from a rack seen on the table (head_from_rack, below:
 * cr_calib_rack_find), else the image side head_on_right gives (default:
 * the image left). The table is roughly axis-aligned in the image (yaw
 * within about +-10 degrees).
 * Lens distortion: one radial coefficient k1 about the image centre, the
 * value that makes the four edge point sets straightest (see k1 below).
 *
 * Thread-safety: cr_calib_detect allocates its scratch per call and keeps
 * no state; the mapping functions are pure.
 *
 * Units: pixels as cr_camera.h (pixel (i, j) centred at (i, j)); table mm
 * (SPEC §1). Note the two distortion conventions: res->k1 is on coordinates
 * normalised by the image width (dist_f_px), res->camera.k1 on coordinates
 * normalised by fx (the simulator's and OpenCV's).
 */
#ifndef CR_CALIB_H
#define CR_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cr_camera.h"
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

/* Camera intrinsics measured apart from the table (a checkerboard:
 * cr_cv_checker.h), in cr_camera.h conventions: pixel (i, j) centred at
 * (i, j), radial distortion on fx-normalised coordinates (OpenCV's). */
typedef struct {
    int width, height;     /* the image size they hold for, px */
    double fx, fy;         /* focal lengths, px */
    double cx, cy;         /* principal point, px */
    double k1, k2;         /* radial distortion (Brown, as cr_camera_t) */
    double rms_px;         /* reprojection rms of the fit, px */
    int n_views;           /* views it was fitted on */
} cr_calib_intrinsics_t;

typedef struct {
    bool head_on_right;   /* the head end is on the image right (default: left); with
                             head_from_rack, the side kept when no rack decides it */
    bool head_from_rack;  /* decide the head end from a rack on the table (true): a tight
                             cluster of balls over one end's foot spot (cr_calib_rack_find);
                             set it false where the user gave the side */
    double rack_min_balls;/* balls a cluster must hold (by area) to count as a rack (3) */
    double rack_gap;      /* largest gap between two balls of one cluster, in ball
                             diameters (0.25: frozen or nearly frozen) */
    double rack_spot_tol; /* how far the foot spot may lie outside the cluster, and its
                             centroid off the long string, in ball diameters (0.5) */
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
    double k1_min, k1_max, k1_step; /* its search grid (-1.0 .. 0.02, step 0.005; searched
                                       first at 4 steps, then finely around the best) */
    uint64_t seed;        /* RANSAC sampling (deterministic) */
    /* the posed camera (cr_calib_camera below) */
    bool estimate_camera; /* fit a posed camera after the table is found (true) */
    double rail_height_mm;/* diamond sights (rail cap) above the cloth (48, CR_CAMERA_RAIL_HEIGHT_MM) */
    bool size_balls;      /* measure the balls standing apart from their outlines as spheres seen by
                             the posed camera (ball_size_mm, for cr_calib_table_infer; true); off
                             where the table's size is known and the tenths of a second it takes
                             are better spent elsewhere */
    double nose_height_mm;/* cushion nose above the cloth (36.3: 63.5 % of a 57.15 mm ball, WPA);
                             with the posed camera the outline is fitted again on the noses'
                             own edges (0: not) */
    double prior_height_mm;     /* the last-resort prior on the camera height above the cloth
                                   (3000 mm, a ceiling mount over a pool table) ... */
    double prior_height_sigma_mm; /* ... and its spread (1500 mm): it decides the height only
                                   where neither the diamonds nor the perspective do */
    int min_diamonds;     /* diamond sights needed (after outlier rejection) to use their
                             parallax, at least 4 on the long rails (8) */
    /* sanity checks that turn a bad fit into CR_CALIB_ERR_GEOMETRY */
    double max_camera_rms_px;  /* the fitted camera must reproduce the outline (homography on a
                                  grid) within this rms, undistorted px (2.0); 2.5 times that
                                  when the diamond sights agree with the outline within a third
                                  of max_diamond_rms_mm */
    double max_diamond_rms_mm; /* the sights' along-rail rms against the camera (3.0 mm) */
    double min_corner_angle_deg; /* each corner of the outline within [a, 180 - a] (30) */
    /* known intrinsics (NULL: estimated): the distortion and principal point are
     * theirs (no k1 search), the focal length is held (cr_calib_camera_fit), so
     * the camera height needs neither the sights nor the prior; for images of
     * their size only (else CR_CALIB_ERR_INVALID). Not owned; valid during calls. */
    const cr_calib_intrinsics_t *intrinsics;
} cr_calib_params_t;

void cr_calib_params_defaults(cr_calib_params_t *p);

/* How the camera's focal length and pose were obtained (cr_calib_result_t.camera_source).
 *
 * The cloth homography fixes the camera up to one unknown: a family of
 * (focal length, pose) all map the cloth plane the same way; along it the
 * height above the cloth scales with the focal length. What picks the member:
 *   DIAMONDS    the parallax of the diamond sights on the rail cap (48 mm
 *               above the cloth, at the standard along-rail positions L/8,
 *               W/4 from the nose-line corners; their inset behind the nose
 *               is not used): a sight seen from a camera at height h maps
 *               through the cloth homography (h / (h - 48)) times farther
 *               from the camera's nadir than it is;
 *   HOMOGRAPHY  the perspective of the cloth outline itself (a tilted view;
 *               square pixels, principal point at the image centre);
 *   PRIOR       neither decides it (height uncertainty over 10%): the height
 *               comes from prior_height_mm. Ball positions at z = R are then
 *               off by up to (distance from nadir) * R / h * relative height
 *               error, about 13 mm * 50% near the cushions;
 *   INTRINSICS  the focal length (and principal point, distortion) given
 *               in params.intrinsics, measured apart (a checkerboard). */
typedef enum {
    CR_CALIB_CAMERA_NONE = 0,
    CR_CALIB_CAMERA_DIAMONDS,
    CR_CALIB_CAMERA_HOMOGRAPHY,
    CR_CALIB_CAMERA_PRIOR,
    CR_CALIB_CAMERA_INTRINSICS
} cr_calib_camera_source_t;

/* "none", "diamond parallax", "cloth homography perspective", "prior height",
 * "known intrinsics". */
const char *cr_calib_camera_source_name(int source);

/* Where a rack was seen (cr_calib_rack_t.where), in the table frame of the
 * result it was looked for with. */
typedef enum {
    CR_CALIB_RACK_NONE = 0, /* no cluster of balls over either foot spot */
    CR_CALIB_RACK_AT_FOOT,  /* over the foot spot (3L/4, W/2): the head end is as the result has it */
    CR_CALIB_RACK_AT_HEAD,  /* over the other end's spot (L/4, W/2): the head end is the other end */
    CR_CALIB_RACK_BOTH      /* clusters over both: ambiguous, nothing decided */
} cr_calib_rack_where_t;

/* A rack seen in a frame (cr_calib_rack_find). */
typedef struct {
    int where;             /* cr_calib_rack_where_t */
    double n_balls;        /* the rack's size in balls: its area over one ball's footprint
                              (0 when none) */
    double centre_mm[2];   /* its centroid, table mm in the result's frame */
    double spot_gap_mm;    /* from the foot spot it is over to its nearest part (0: the
                              spot is under it) */
    bool on_image_right;   /* its centroid is right of the table centre in the image */
    int n_clusters;        /* clusters of at least rack_min_balls balls on the bed, anywhere */
    int game;              /* the rack its shape says (cr_game_t): 9BALL a diamond of 9,
                              10BALL and 8BALL triangles of 10 and 15, told apart by a ball
                              seen apart (one triangle is the other 1.23 times larger), else
                              guessed by area; NONE for neither shape */
    double scale;          /* its spread (the root of its second moments' trace, the balls'
                              footprints included) over that of a frozen rack of that game,
                              both in the result's table mm: 1 for a frozen rack on a table of
                              the size looked for, seen from infinitely high (0 when none,
                              or when the cluster is not that rack alone: its balls by area
                              more than 15 % off the game's count at that scale; and when no
                              ball seen apart agrees, within 11 %, on how large a ball is:
                              similar shapes at other scales, a 10- and a 15-ball triangle,
                              four balls of a broken rack and a 9-ball diamond, look alike).
                              The lattice of centres sets it, not the balls' outlines: a blob
                              narrowed or widened by the cloth test moves it by a tenth as much */
} cr_calib_rack_t;

#define CR_CALIB_LIGHT_NX 16 /* the cloth's brightness grid (cloth_light) */
#define CR_CALIB_LIGHT_NY 9

/* How the head end was decided (cr_calib_result_t.head_source). */
typedef enum {
    CR_CALIB_HEAD_GIVEN = 0, /* params.head_on_right, head_from_rack off */
    CR_CALIB_HEAD_DEFAULT,   /* params.head_on_right kept: no rack, or racks at both ends */
    CR_CALIB_HEAD_RACK       /* the foot spot under a rack */
} cr_calib_head_source_t;

/* Image sides of the table as found. */
enum { CR_CALIB_SIDE_TOP = 0, CR_CALIB_SIDE_BOTTOM, CR_CALIB_SIDE_LEFT, CR_CALIB_SIDE_RIGHT, CR_CALIB_SIDES };

typedef struct {
    int status;                    /* cr_calib_status_t */
    char message[256];             /* human-readable detail ("" when ok) */
    uint8_t cloth_rgb[3];          /* the cloth model's median colour */
    double cloth_light[CR_CALIB_LIGHT_NY][CR_CALIB_LIGHT_NX][4];
                                   /* the bed's colour per cell of a grid over the image (at the
                                      cell centres; cells off the bed take their neighbours'):
                                      brightness (R + G + B) as a share of cloth_rgb's, then the
                                      chromaticity r, g, b. Lamps and the lens light a bed
                                      unevenly, and a bed's colour shifts with its light (all 0:
                                      uniform, cloth_rgb everywhere) */
    double corners_px[4][2];       /* SPEC §5 order: head-left, head-right, foot-right, foot-left */
    double lines[CR_CALIB_SIDES][3]; /* a u + b v + c = 0, (a, b) unit, in undistorted pixels, per
                                        image side (top, bottom, left, right) */
    int n_points[CR_CALIB_SIDES];  /* edge points collected per side */
    int n_inliers[CR_CALIB_SIDES]; /* RANSAC inliers per side */
    double rms_px[CR_CALIB_SIDES]; /* rms distance of the inliers to their line, px */
    bool on_nose[CR_CALIB_SIDES];  /* the side's line from its cushion nose's edge (nose_height_mm),
                                      else from the bed's edge */
    double k1;                     /* radial distortion: a distorted pixel d and its undistorted
                                      pixel q relate through x = (q - c) / f by
                                      d = c + f x (1 + k1 |x|^2 + k2 |x|^4) */
    double k2;                     /* 0, unless given by params.intrinsics */
    double dist_centre_px[2];      /* c: the image centre ((w-1)/2, (h-1)/2); with
                                      params.intrinsics their principal point */
    double dist_f_px;              /* f: the image width, a stand-in focal length (k1 equals
                                      the camera's k1 scaled by (f / fx)^2); with
                                      params.intrinsics their fx */
    double table_to_px[9];         /* row-major homography, (x mm, y mm, 1) -> undistorted pixels */
    double px_to_table[9];         /* its inverse */
    /* the posed camera (params.estimate_camera; camera_source NONE otherwise) */
    cr_camera_t camera;            /* pinhole + radial distortion, cr_camera.h conventions:
                                      principal point at the image centre, fx = fy, k1 the
                                      k1 above converted to fx-normalised coordinates
                                      (k1 * (fx / dist_f_px)^2), k2 = 0 */
    int camera_source;             /* cr_calib_camera_source_t */
    double camera_sigma_mm[3];     /* 1-sigma uncertainty of the camera position (x, y, z) from
                                      the fit (edge-derived homography at 0.5 px, diamonds at
                                      their measured scatter, the height prior) */
    double camera_rms_px;          /* rms of the camera's projection of the cloth outline
                                      against the homography, undistorted px */
    int n_diamonds;                /* diamond sights found and kept (0..CR_TABLE_DIAMOND_COUNT) */
    double diamond_rms_mm;         /* their along-rail residual rms after the fit, mm */
    /* the balls, for the table size (cr_calib_table_infer) */
    double ball_diameter_mm;       /* apparent diameter of the round blobs on the bed (their lower
                                      third: blobs grow by what touches them), in
                                      table mm of the table given (0: none found); a ball of
                                      57.15 mm looks about 1% larger from 3 m */
    int n_balls_measured;          /* blobs it is the median of */
    double ball_size_mm;           /* the balls' true diameter in table mm of the table given, from
                                      their outlines and the posed camera: the median over the
                                      measured blobs of the sphere, standing on the cloth, that the
                                      camera's rays through the outline's edges touch (no parallax
                                      or perspective left in it; 0: none measured) */
    int n_balls_sized;             /* balls it is the median of */
    /* the head end (SPEC §1: x = 0) */
    bool head_on_right;            /* on the image right (corners_px[0..1] on that side) */
    int head_source;               /* cr_calib_head_source_t */
    cr_calib_rack_t rack;          /* the rack looked for (head_from_rack), in this result's frame */
    char head_why[160];            /* what decided it, e.g. "rack of about 9 balls around the foot
                                      spot at the image right" or "default: image left (no rack
                                      seen)" */
} cr_calib_result_t;

/* Finds the table in img (t gives L and W for the mapping). Always fills
 * res->status and res->message; returns res->status. On success also the
 * head end (res->head_on_right, head_source, rack, head_why): with
 * p->head_from_rack a rack in img decides it (cr_calib_rack_find), else
 * the side p->head_on_right gives. Allocates about 5 bytes per pixel of
 * scratch (and the rack grid's), freed before returning. */
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

/* Fits res->camera (and camera_source, camera_sigma_mm, camera_rms_px) to
 * res->table_to_px, res->k1 and res->dist_f_px of a result for a width x
 * height image, with optional diamond sight observations: n_diamonds
 * undistorted pixels diamond_px[i] of sights whose along-rail table
 * coordinate is diamond_along_mm[i] (x for the long rails, y for the end
 * rails, diamond_long[i] true for a long rail), at p->rail_height_mm, with
 * an along-rail scatter of diamond_sigma_mm. Gauss-Newton on the focal
 * length, rotation and position: the camera reproduces the homography on a
 * grid over the table (0.5 px), the diamonds, and the height prior of p.
 * Used by cr_calib_detect; callable for a result made otherwise (manual
 * corners). Returns CR_CALIB_OK or CR_CALIB_ERR_GEOMETRY (no camera above
 * the cloth reproduces the homography). Pure, no allocation. */
int cr_calib_camera_fit(cr_calib_result_t *res, int width, int height, const cr_calib_params_t *p,
                        const double (*diamond_px)[2], const double *diamond_along_mm, const bool *diamond_long,
                        int n_diamonds, double diamond_sigma_mm);

/* True when rack r gives the table's scale: over one end's foot spot (not
 * both) and read (scale > 0). */
bool cr_calib_rack_gives_scale(const cr_calib_rack_t *r);

/* How much wider than it is what stands on the cloth R high (a ball's
 * outline, a rack) maps through res's homography: h / (h - R), h the posed
 * camera's height (3000 mm without one), 1 for a camera under 2 R up. */
double cr_calib_parallax(const cr_calib_result_t *res);

/* Infers the table size from a successful result made with table t (any
 * size): the surface is 2:1 and a ball 2 R = 57.15 mm across (WPA), so what
 * the balls span against the cloth gives the scale. With a rack over a foot
 * spot (res->rack, cr_calib_rack_find) that is the rack's spread against a
 * frozen rack's (res->rack.scale): the lattice of its ball centres, which
 * no colour threshold on the balls' outlines moves much; else the separate
 * balls' apparent diameter, t->width_mm * 57.15 / (res->ball_diameter_mm /
 * (h / (h - R))), h the camera height scaled alike (what stands on the
 * cloth maps h / (h - R) wider). out is the standard size (cr_table_parse
 * names 9ft, 8ft, 7ft: 8 to 15% apart) nearest to the measure when within
 * 6%, else the measured size itself (none when that is outside 800..1500
 * mm wide: a blob that was no ball). The separate balls' blobs run 2-5 %
 * narrower than the balls on some looks (a shaded rim passes for cloth)
 * and wider seen off the vertical (1 / sqrt(cos phi) by area), so without
 * a rack the in-between sizes (8ft-home, bar boxes) are not told apart;
 * give --table for them. A rack spread by gaps between its balls reads
 * the table that much smaller. why gets a sentence saying what was
 * measured and chosen. Returns CR_CALIB_OK, or CR_CALIB_ERR_INVALID when
 * the result has no rack and fewer than 2 measured balls,
 * CR_CALIB_ERR_GEOMETRY (why says so) for a size outside that range. */
int cr_calib_table_infer(const cr_calib_result_t *res, const cr_table_t *t, cr_table_t *out, char *why,
                         size_t why_len);

/* Finds the diamond sights in img around the outline of a successful
 * result (res->status CR_CALIB_OK: table_to_px, px_to_table, k1 filled, as
 * cr_calib_detect leaves them, or made from corners given by hand) and fits
 * the camera with cr_calib_camera_fit. cr_calib_detect calls it when
 * p->estimate_camera is set. Returns CR_CALIB_OK, or a failure status also
 * written to res->status and res->message (CR_CALIB_ERR_NOMEM,
 * CR_CALIB_ERR_GEOMETRY, CR_CALIB_ERR_INVALID). Allocates about 1.5 MB of
 * scratch, freed before returning. */
int cr_calib_camera_estimate(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                             cr_calib_result_t *res);

/* Looks for a rack in img (any frame from the camera of res: the frame res
 * was found in, or another one) through a successful result res. The bed
 * (one ball diameter in from the noses) is sampled on a grid of an eighth
 * of a ball diameter in table mm; a cell is an object where the pixel over
 * it is not cloth (res->cloth_rgb, the tolerances of p). Object cells
 * closer than p->rack_gap ball diameters form one cluster; a cluster is a
 * rack when it holds at least p->rack_min_balls balls by area (one ball's
 * footprint: res->ball_diameter_mm when measured on two balls or more and
 * within 0.75 to 1.5 times 2 R, else 2 R), at most 30
 * (a 15-ball rack, its frame and shadows), is compact (its second moments
 * within 2.5:1, its area at least a third of the disc of the same polar
 * moment: not a cue, a line of balls or a hand), does not reach the
 * band along the cushions (arms, bridges), and lies over one end's foot spot: the
 * spot within p->rack_spot_tol diameters of the cluster, the centroid
 * within that of the long string and not more than that in front of the
 * spot (racks stand on the spot and extend toward the foot rail). The
 * ball diameter is the apparent one (blur and the balls' height included), so
 * sizes are relative to what the camera shows. Fills *out; returns
 * CR_CALIB_OK, CR_CALIB_ERR_INVALID (bad arguments, res not successful) or
 * CR_CALIB_ERR_NOMEM. Allocates about 9 bytes per grid cell (0.5 MB for a
 * 9 ft table), freed before returning. Thread-safe (reads only). */
int cr_calib_rack_find(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                       const cr_calib_result_t *res, cr_calib_rack_t *out);

/* Turns a successful result end for end: the table frame rotated by 180
 * degrees about the table centre (x -> L - x, y -> W - y), so its head end
 * is the other image side: the corners, both homographies, the posed camera
 * (position and rotation), res->head_on_right and res->rack follow; lines
 * and distortion (image properties) do not change. head_source and
 * head_why are left to the caller. Returns CR_CALIB_OK or
 * CR_CALIB_ERR_INVALID. Pure. */
int cr_calib_result_flip_head(cr_calib_result_t *res, const cr_table_t *t);

/* Writes res->head_why for the current head_on_right, head_source and rack
 * ("rack of about N balls around the foot spot at the image right",
 * "default: image left (no rack seen)", "default: image left (racks at both
 * ends: ambiguous)", "given: image right"). */
void cr_calib_head_describe(cr_calib_result_t *res);

/* The homography H (row-major) with H (src_i, 1) ~ (dst_i, 1) for four
 * point pairs, normalised so H[8] = 1. Returns false when degenerate. */
bool cr_calib_homography4(const double src[4][2], const double dst[4][2], double h[9]);

#ifdef __cplusplus
}
#endif

#endif /* CR_CALIB_H */
