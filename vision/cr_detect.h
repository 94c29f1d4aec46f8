/*
 * cr_detect.h - finds and describes every ball in one frame.
 *
 * Input: a planar I420 frame and the posed camera of the calibration; the
 * camera gives the exact image outline of a ball anywhere on the table (the
 * projected tangent cone of the sphere, lens distortion included) and
 * restricts work to the playing surface and pocket mouths.
 * Output: cr_detection_t values (cr_vision.h), table mm at the ball centre
 * (the ray through the image of the sphere centre meets z = R).
 *
 * Method (all on luma plus half-resolution chroma, never a whole-frame RGB
 * conversion):
 *   1. coarse foreground: a sparse grid of half-resolution samples over the
 *      table (spacing about half a ball radius) is compared with a
 *      background model of the cloth (luma, Cb, Cr per sample); connected
 *      groups of differing samples become regions of interest;
 *   2. candidates: in each region, a Hough transform for circles of the
 *      known radius on the colour gradient (luma and chroma structure
 *      tensor) at half resolution; every vote peak is a candidate, which
 *      separates balls frozen together in a rack;
 *   3. sub-pixel fit: along 32 rays normal to the predicted outline at full
 *      resolution, every colour-gradient lobe is an edge hypothesis, located
 *      at the lobe's centroid (for a motion streak this is the half-coverage
 *      point, i.e. the outline of the ball at mid-exposure) and kept only if
 *      its 2-D gradient runs along the outline; edges with cloth (lit or
 *      shaded) beyond them weigh more than edges against another ball or a
 *      hand, and much more than edges with cloth inside (a shadow's edge). A robust fit (Tukey) of the outline's translation and a small
 *      uniform edge offset, choosing on each ray the hypothesis nearest the
 *      current outline, gives the centre; the outline is recomputed at the
 *      new centre and the fit repeated. The share of rays that agree is the
 *      support (score, visible); a fitted offset beyond 0.75 px + 0.08 r
 *      (something of another size) is no ball. Lobe widths as wide as the
 *      search window widen it and give the streak (blur_dx, blur_dy) of balls
 *      blurred by less than a radius (rarely reported yet: see step 5);
 *   4. identity: the pixels of the inner disc, converted to RGB one at a
 *      time, give the white share and its spread (a number circle is a
 *      compact spot, a stripe's white two caps or a wide one) and the hue,
 *      saturation and brightness of the rest; colour_p, white_frac and id_p
 *      are honest per-frame likelihoods (a stripe seen from its pole looks
 *      like the cue ball; red and maroon need the white reference). YCbCr is
 *      read as BT.601 limited range; BT.709 video shifts hues by a few
 *      degrees, well inside the class tolerances;
 *   5. streaks: two detections of the same colour with a ball-wide band of
 *      non-cloth between them are the two ends of one fast ball's streak and
 *      become one detection at its middle, blur = half the streak; a ball
 *      that crossed two or more of its diameters while the shutter was open
 *      (a break at 30 fps) has no outline and seldom two ends found: in a
 *      region searched again, a cluster of coarse samples no sure detection
 *      explains, as large and as wide as a ball, is looked at pixel by
 *      pixel; a component unlike the cloth (against the background model
 *      and against the cloth around it: not a ghost of a ball absorbed into
 *      the background) that is a stadium (0.75-1.3 diameters wide and as
 *      wide all along its straight part, at least 1.4 diameters long, of the
 *      stadium's area) is the ball at its centroid (mid-exposure), its travel
 *      where the ink across it falls to half its plateau; it names no colour
 *      (colour_p, id_p flat) and replaces the new, unsure detections on it;
 *   6. looking again (cr_detector_expect): where the tracker expects a ball
 *      and no detection lies within the hint's reach (a struck hint: within
 *      half a radius of it; beyond, a detection is another ball; for a ball
 *      held at rest unseen, a faint fit under min_score, unreported, does
 *      not count: on the 1080p60 corpus such fits kept the look from a green
 *      6 frozen to the rail by a corner pocket for most of 48 s; not
 *      counting them took resting recall from 0.9983 to 0.9994; nor for a
 *      ball rolling faster than R/10 a frame, which its highlights do not
 *      place (step 7): with hints at the true places (detect_bench
 *      BENCH_HINT=0 BENCH_HL=1) the rolling green 6 of 1080p60 clip 10 went
 *      from 64.6 to 95.8 % of its frames and the maroon 7 of 720p30 clip 04
 *      from 48.4 to 72.3 %, phantoms unchanged),
 *      a Hough for the known
 *      radius over the reach alone, with no foreground test, edges down to
 *      0.2 of the foreground threshold (0.35 in the search) and 0.4 of a
 *      full outline's votes (min_votes 0.5), then the fit of step 3 without
 *      the penalty for cloth inside the outline (a ball of the cloth's
 *      colour is cloth-like inside). Kept when it scores min_score, is
 *      sharp (a streak there is another ball passing), lies within reach
 *      and at least 1.8 R from every ball found (two centres are never
 *      closer than 2 R: in a rack the edges between two balls are not a
 *      third); tagged with the hint (hint_tag), so the tracker gives it to
 *      that ball alone. Measured on the red-cloth clips, where it matters:
 *      hints at every ball's true place (bench/detect_bench.c BENCH_HINT=0)
 *      take the resting maroon 7 from 43 to 89 % (720p30 clip 04), 55 to
 *      69 % (clip 06) and 17 to 94 % (1080p60 clip 04) of frames; hints 80
 *      mm beside every ball on the table (bare cloth, BENCH_HINT=80) made
 *      45 more phantom detections over the three clips' 19671 frames.
 *   7. highlights (cr_highlight.h), only with use_highlights: every glossy
 *      ball mirrors the lamps over the table as small bright spots whose
 *      places on the sphere are geometry alone. The spots of well-seen
 *      resting balls (score 0.9, a complete sharp outline, sigma under 0.6
 *      mm, standing out from the cloth) give rays that meet at the lamps,
 *      found once a dozen places have been seen and again each time the
 *      places seen double (cr_detector_lamps(); on six red and green
 *      1080p60 and 720p30 films the three simulated lamps, 1000 mm above
 *      the long string at L/2 and L/2 +- L/3, come out 2-70 mm from their
 *      places, first after about three shots). Then, at a hint where a
 *      ball rests: where its highlights place it (at least two
 *      lamps agreeing within R of the hint, no other constellation in
 *      reach as good; the mean of such places since it came to rest there,
 *      kept while the ball rests and a frame's spots place nothing), a
 *      detection is made if no ball was found there and this frame's
 *      spots placed it (the place kept alone makes no ball: the ball may
 *      have been struck away unseen), a faint fit of it becomes that
 *      detection, and a detection within 1.8 R of the place whose outline
 *      is less sure (sigma over twice the highlights') is moved there
 *      unless it is mostly white (a highlight barely stands out on white).
 *      A sharp one is moved there too when this frame's spots place the
 *      ball where they did the frame before (a lone frame's spots may be
 *      the cue's) and it lies over 4 sigmas (both together, and 2 mm) from them
 *      (its sigma understates its bias), and once moved, in every frame
 *      they place it while it rests (an outline whose sigma wavers about
 *      the bound would take it back by its bias, up to 14 mm, every few
 *      frames: motion to the tracker). This places
 *      a ball of the cloth's colour, whose outline fit settles toward its
 *      shadow. With hints at the true places (detect_bench BENCH_HINT=0,
 *      BENCH_HL=0 -> 1), the resting balls of nearly the cloth's colour:
 *      1080p60 clip 04 recall 92.2 -> 95.7 %, error p95 13.7 -> 2.1 mm;
 *      clip 08 recall 68.2 -> 83.6 %, median 2.03 -> 0.44 mm; 720p30 clip
 *      04 recall 89.3 -> 99.5 %, p95 2.4 -> 1.4 mm; clip 06 81.6 -> 86.8 %;
 *      other balls unchanged. It is off in these parameters' defaults and
 *      on in `cueref review` (unless --no-highlights): once a place the
 *      highlights gave is held while the ball rests (cr_det_hl_claim()), and
 *      a fit's waver beside a resting ball is no contact (cr_recon.c,
 *      wavered_only()), whole reviews judge better on the 720p30 corpus
 *      (rulings 286 -> 299 of 300) and alike on the 1080p60 one (see the
 *      README). Also with use_highlights, for a ball rolling slowly (a
 *      hint whose step_mm is at most R/10: its highlights are spots, not
 *      smears) or held where it was lost rolling so: where no look finds
 *      its outline, or only a faint one, its highlights alone place it
 *      (cr_det_hl_find(): at least two lamps agreeing within the hint's
 *      reach, on the bed, no ball within 1.8 R, the place mostly not
 *      foreground: a ball that stands out has an outline the fit finds,
 *      and the cue's tip following through the cue ball's place has a
 *      gloss too), and a fit of it, found by the search or a look, moves
 *      to their place when they are surer or disagree by over 4 sigmas
 *      (cr_det_hl_better(); not a ball mostly white). On the 1080p60
 *      corpus (15 clips, 300 shots) this took resting recall from 0.9970
 *      to 0.9983 and resting identity from 0.9889 to 0.9962 (a maroon 7
 *      on red cloth no longer lost, and with it the 15's identity); the
 *      720p30 corpus is unchanged within a few frames. Known weak case: a
 *      constellation shifted by one lamp's spacing, matched by a stray
 *      spot (a number's ink), can move a rolling ball's fit by most of a
 *      radius (1080p60 clip 07, the green 6 on green: 38 frames lost).
 *      A ball rolling faster (a hint's step over R/10, its direction in
 *      step_dx, step_dy) smears each highlight into a line during the
 *      exposure: cr_hl_streaks() finds the smears along the hint's step and
 *      places each at its middle, the highlight at mid-exposure. A place
 *      they give counts only where it follows their places in the frames
 *      before (moved on by the hint's step, or by their own last step:
 *      within 2 mm and three sigmas), so a lone frame's pairing of a lamp
 *      with the wrong smear, or a smear bent at a contact, places nothing.
 *      Then a fit of the ball moves there when it is less sure (sigma over
 *      twice theirs) or lies over R/4 (and 4 sigmas) off them, and with no
 *      fit they place the ball alone; their place's share of the cloth is
 *      not asked (a ball of the cloth's colour rolling shows its shading
 *      and its shadow). A fit they did not move, of a ball they showed
 *      that far off its fit within the last three frames, is reported with
 *      that distance as its sigma (the tracker weighs it so, cr_track.h).
 *      Before, the maroon 7 on red rolling into a pocket was placed 13-18
 *      mm toward its shadow (1080p60 clip 04 at 135.9-136.2 s, where the
 *      smears place it within 1 mm) and its pocket was missed; on the
 *      1080p60 and 720p30 corpora every pocket is now found (README).
 *   8. the scan, for balls no region shows: a ball of nearly the cloth's
 *      colour that came to rest where the background learned bare cloth
 *      may differ from it by less than the noise allows for (the maroon 7
 *      on red cloth in compressed video), and a tracker that never saw it
 *      (it was lost in the break) hints at nothing. The bed is cut into
 *      tiles about eight radii a side (66-72 for a camera that frames the
 *      table), and each frame enough of them to sweep the bed in
 *      scan_sweep_frames frames are searched as a look searches: fainter
 *      edges, no foreground test; a Hough peak still needs min_votes, and
 *      one off the bed (the cushions' or the pockets' own) is not fitted.
 *      A fit that scores min_score, is sharp, lies on the bed or in a
 *      pocket mouth, is mostly not foreground (a region was searched there)
 *      and is at least 1.8 R from every ball found becomes a probe. A probe
 *      is looked at again in every frame within half a radius of where it
 *      was last found (it may follow a ball that creeps) and reported (a
 *      detection of the search's own: it may start a track) once found in
 *      probe_frames frames; it is dropped when missed three frames in a
 *      row, when a look at a tracker's hint finds the ball (the tracker
 *      follows it), or when the search has found it in 60 frames. Within
 *      2 R of a cushion's nose line a probe is reported only once found in
 *      probe_near_frames frames: the nose line's straight edge gives a
 *      circle beside it votes and support by itself, and at 3-4 levels of
 *      noise the noise completed such circles for a dozen frames or so (on
 *      the test's frames); a ball stays. The place is the look's (see the
 *      known weak case below), or with use_highlights the highlights'
 *      where they are surer (step 7); a tile's candidate whose fit fails
 *      (a ball of the cloth's colour frozen to a cushion: the fit takes the
 *      cushion's shadow for its edge and settles off the bed) becomes a
 *      probe where its highlights alone place a ball, and a probe is
 *      followed by them where a look finds no outline.
 *
 * sigma_mm is the fit's scatter, the localisation the outline's contrast
 * allows against the measured noise (a faint outline, larger sigma), and
 * the outline's ambiguity, in quadrature: the fit (uniform edge offset
 * nearly free) is compared with a fit of the known radius whose offset is
 * held at the one measured on sharp, complete outlines (learned as the
 * white reference is); a one-sided dark extension (a shadow beside a ball
 * of the cloth's colour) makes them disagree, and half their distance is
 * added.
 *
 * Known weak case: a ball of the cloth's own colour (maroon 7/15 or red
 * 3/11 on red cloth, green 6/14 on green) has a faint outline; on the side
 * of its cast shadow the dark cloth continues the ball, and a free fit
 * settles 1-4 px toward the shadow as a circle larger than a ball. When it
 * is larger by over a quarter pixel and disagrees with the fit at the known
 * radius, the ball is placed where the outline at the known radius agrees
 * with the most edge weight (a shadow's edges agree with no single
 * translation); sigma_mm then carries half the distance between the two
 * placements. Each fit is stable to noise only as far as the image allows
 * (see the per-frame figures of bench/detect_bench.c); across frames, a
 * resting ball is kept (below), so its position does not jump with the
 * noise. Maroon on red cloth is the worst: its colour is so close to the
 * cloth's that in some places it is not foreground at all and is missed by
 * the search (step 6 finds it where the tracker expects it), and a fit,
 * the search's or a look's, can settle on the ball's shadow, half a radius
 * off, with a sigma of about a millimetre (1080p60 clip 04, hints at the
 * true places: median error 10.7 mm over the frames step 6 finds it in).
 *
 * State kept between frames: the background model (initialised from the
 * first frame, where the cloth is recognised by its dominant colour; what
 * else differs from the cloth there and is no ball - pocket holes, cushion
 * faces, spots - becomes background; afterwards refreshed where no ball is
 * seen, and a region that differs for bg_absorb_frames frames without
 * containing a ball becomes background), the white reference of the
 * identification (brightness of white balls against the cloth beside them,
 * which separates red from maroon), and the last detections: a region of
 * interest none of whose coarse samples changed since it was last examined
 * (change_sigmas) keeps its detections unchanged, so resting balls cost
 * almost nothing; in a region that changed, a ball none of whose samples
 * (within 1.3 radii) changed keeps its detection too (keep_quiet_balls),
 * and those samples keep their reference until it is fitted again (so a
 * slow drift adds up until it is seen). Set change_sigmas to 0 for
 * frame-independent results.
 *
 * Thread-safety: a detector is used by one thread at a time; different
 * detectors are independent. No allocation after cr_detector_create().
 */
#ifndef CR_DETECT_H
#define CR_DETECT_H

#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double min_score;     /* detections below this score are not returned (0.5) */
    double chroma_gain;   /* weight of Cb/Cr against luma in colour distances (2) */
    double fg_sigmas;     /* foreground: colour distance from the background above this many
                             noise sigmas (6) ... */
    double fg_min_levels; /* ... and above this many 8-bit levels (10) */
    double min_support;   /* share of the outline that must show an edge where the ball's
                             outline is predicted, for a detection (0.35) */
    double min_interior;  /* share of the inner disc that must differ from the cloth unless
                             the outline is nearly complete (0.3; a ball of the cloth's own
                             colour differs little inside) */
    double contact_weight;/* weight of an outline edge with no cloth beyond it (a touching ball,
                             a hand) against one with cloth beyond (0.25) */
    int bg_absorb_frames; /* frames a non-ball difference persists before it becomes
                             background (45) */
    int max_candidates;   /* Hough peaks examined per frame (128) */
    double min_votes;     /* a Hough peak is a candidate with at least this many edge votes per
                             pixel of outline (half resolution; a whole sharp ball gets about
                             2.4, half a ball about 1.2) (0.5) */
    double change_sigmas; /* a region none of whose samples changed by more than this many
                             noise sigmas since it was last examined keeps its detections
                             (4; 0 examines every region in every frame) */
    int keep_quiet_balls; /* in a region that changed, a ball none of whose samples (within
                             1.3 radii) changed by more than change_sigmas keeps its detection
                             instead of being fitted again (1; 0: refit; ignored when
                             change_sigmas is 0) */
    int use_highlights;   /* learn the lamps and place balls resting at hints by their
                             highlights (step 7) (0: off, the default here; cueref review
                             sets 1 unless --no-highlights: see the figures in step 7) */
    int scan_sweep_frames; /* frames one sweep of the bed's tiles (about 8 radii a side) takes
                             in the search for balls no region shows (step 8; 36, 0: off;
                             cueref review: 2.4 s of frames) */
    int probe_frames;     /* frames a ball the scan found must be found again in at its
                             place (never missed three in a row) before it is reported (5) */
    int probe_near_frames; /* the same within 2 R of a cushion's nose line, where the nose's
                             straight edge and the noise make circles (30, at least
                             probe_frames; cueref review: 1 s of frames) */
    int motion_looks;     /* looks a frame, with the scan on, at groups of samples that
                             changed since the last frame where no ball is found or followed
                             (step 8: a ball of the cloth's colour rolling unseen) (4; 0: none) */
} cr_detect_params_t;

void cr_detect_params_defaults(cr_detect_params_t *p);

typedef struct cr_detector cr_detector_t;

/* Creates a detector for frames of cam->width x cam->height. The camera and
 * table are copied. Allocates about 3.5 bytes per pixel of scratch (7 MB at
 * 1920x1080). Returns 0, CR_ERR_INVALID (NULL pointers, bad sizes, a camera
 * that does not see the table) or CR_ERR_NOMEM, leaving *out untouched on
 * failure. */
int cr_detector_create(const cr_camera_t *cam, const cr_table_t *t, const cr_detect_params_t *p,
                       cr_detector_t **out);

/* Finds the balls in img (same size as the camera's image): at most max
 * detections into out (best score first), their count in *n. The first
 * call learns the background. Returns 0 or a negative cr_status_t
 * (CR_ERR_INVALID for a frame of the wrong size or NULL pointers). */
int cr_detector_run(cr_detector_t *d, const cr_yuv_image_t *img, cr_detection_t *out, int max, int *n);

/* Balls the caller expects in the next frame; the next cr_detector_run()
 * looks again, with fainter edges, where none of its detections lies
 * within reach of a hint, and forgets the hints. At most
 * CR_VISION_MAX_DETECTIONS are kept. Returns 0 or CR_ERR_INVALID. */
int cr_detector_expect(cr_detector_t *d, const cr_ball_hint_t *h, int n);

/* Tags of the last cr_detector_run()'s hints that found no ball and whose
 * place showed the background: at most 10 % of the coarse samples within
 * 0.8 R of the hint differ from it (nothing covers the place, no ball is
 * there). At most max into tags; returns their count. */
int cr_detector_bare(const cr_detector_t *d, int *tags, int max);

/* The lamps over the table as learned so far from the highlights of
 * well-seen resting balls (cr_highlight.h): up to max positions (table mm,
 * z up) into pos and how many distinct ball places saw each into balls
 * (either may be NULL). Returns the number of lamps known (0 without
 * use_highlights, and until about a dozen places have been seen; then
 * re-learned each time the places seen double, up to 96). */
int cr_detector_lamps(const cr_detector_t *d, double (*pos)[3], int *balls, int max);

/* Forgets the background model: the next frame is learned afresh (after a
 * cut, a camera move or a lighting change). */
void cr_detector_reset(cr_detector_t *d);

/* Per-stage CPU time (of the calling thread) of the last cr_detector_run(), milliseconds, and
 * counts (for profiling; any pointer may be NULL). */
typedef struct {
    double ms_coarse;   /* foreground grid and regions */
    double ms_hough;    /* candidate search */
    double ms_fit;      /* sub-pixel fits and identification */
    int regions;        /* regions of interest */
    int searched;       /* of those, changed since last examined and searched again */
    int candidates;     /* Hough peaks fitted */
} cr_detect_profile_t;

void cr_detector_profile(const cr_detector_t *d, cr_detect_profile_t *out);

void cr_detector_destroy(cr_detector_t *d);

#ifdef __cplusplus
}
#endif

#endif /* CR_DETECT_H */
