/*
 * cr_track.h - turns per-frame detections into per-ball tracks: identity,
 * position, velocity, seen / hidden / gone, in table millimetres.
 *
 * Identities are decided over whole tracks (a stripe that shows no white for
 * a while, a ball first seen under a hand), so output lags input by a bounded
 * number of frames (params.delay_frames): push a frame's detections, then
 * pop every frame that is ready; at the end, flush and pop the rest.
 *
 * Units: table mm, seconds, mm/s. Track numbers start at 0 and are never
 * reused; a number appears in the output from the first frame of its track
 * (tracks are confirmed within the delay, so early frames are not lost).
 *
 * How it works (cr_track.c):
 *  - association: every frame, one global assignment (Hungarian) of
 *    detections to tracks. The score of a pair is a log-likelihood ratio
 *    against "new ball / clutter": motion plus appearance_weight times
 *    appearance (colour class and stripe evidence of the track so far).
 *    Motion is a mixture of "kept its straight line" (Gaussian around the
 *    prediction: rolling deceleration, bounced off the cushions, stopped at
 *    the first contact with another ball's path, a seen ball's or one held
 *    at rest unseen; a ball lost while rolling is stopped so too: it does
 *    not run on through the ball it met to take that ball's sighting beyond
 *    it, as a cue ball lost in a break's cluster did) and "was struck" (radial
 *    exponential jump prior within max_speed * dt). The struck part is
 *    allowed only when a contact was possible this frame (the path passes a
 *    cushion or another ball's path within 2R plus both uncertainties);
 *    otherwise it is 200 times less likely.
 *    A detection with a better one closer than R may continue a track but
 *    never starts one (two balls' centres are never closer than 2R). A
 *    detection the detector found looking where this tracker expected a
 *    ball (hint_tag, from cr_tracker_expect()) may continue that ball's
 *    track only, and never starts one. A detection within 1.5 R of where
 *    each of two balls about to meet should be, whose score for the one
 *    that found nothing this frame is within log 4 of the winner's (two
 *    touching balls seen as one blob, a blurred hitter over the ball it
 *    hits) goes to neither and starts no track; both stay seen, as they
 *    were: taken, it could pull a resting ball onto its hitter's path, a
 *    swap that looks cannot undo when the two look alike (the cue ball and
 *    a racked stripe showing its white pole).
 *  - update: a seen ball's state follows its sighting with fixed gains,
 *    except for a ball rolling freely (nothing on its path to touch) whose
 *    sighting jumps off its path, comes after a gap, or is far less sure
 *    than the track (its sigma over three times the track's: a faint fit
 *    the detector reports as uncertain, cr_detect.h step 7): then the
 *    sighting is weighed by its variance against the prediction's, and for
 *    the last kind the frame's place is the update's, not the sighting's.
 *  - tracks start tentative and are output only once confirmed
 *    (confirm_hits detections); tentative tracks that miss die silently
 *    (phantoms).
 *  - a ball that stops being detected while running into a pocket mouth
 *    (within a mouth width plus R of the pocket point, heading at it or out
 *    through the mouth, or already past the nose lines), or that vanishes
 *    from the jaws just as another ball reaches it, is GONE; otherwise
 *    HIDDEN, holding (or, when it was rolling, predicting) its position. A
 *    GONE ball seen again at the same place within gone_keep_s was only in
 *    the jaw shadow: its GONE frames still in the buffer become HIDDEN. A
 *    ball lost while rolling and not found within lost_moving_s ends; so
 *    does one lost at rest that was seen fewer than 8 times and not again
 *    for a second (a blob on the cue stick or a hand, taken for a ball
 *    for a moment, is not held where it was for the rest of the match); so
 *    does one held at rest, away from the pockets, whose place shows the
 *    bare background for 3 frames and 0.1 s (cr_tracker_bare(), or a
 *    look's fit there on the background, fg_share at most 0.1) when it
 *    stood out from the background while seen (mean fg_share at least
 *    0.5, over all its sightings and over its last quarter second: a ball
 *    of the cloth's colour that stood out while it rolled and hardly once
 *    it slowed is held): nothing covers the place and no ball is there. A
 *    hidden ball whose place another, continuously followed ball rolls over
 *    is not there: its track ends (in a pocket mouth: it was knocked in, GONE).
 *  - a ball at rest that a ball seen rolling faster than 150 mm/s came
 *    within contact of (2 R and 20 mm of its way since the last frame)
 *    and that is then lost was perhaps sent off unseen (a ball of the
 *    cloth's colour, whose outline barely shows once it rolls): for 0.5 s
 *    its hint (cr_tracker_expect(), struck) reaches as far as the
 *    striker's speed could have sent it since (up to 4 R), and a
 *    detection that far from where it rested is taken for it. Otherwise
 *    a ball held at rest is looked for within half a radius, and taken
 *    back within 0.75 R, of its place.
 *  - repairs inside the delay, before frames are published:
 *    one-frame exchanges (two tracks swap detections for one frame at a
 *    collision and swap back) are undone from the frames either side;
 *    swaps: when two nearby tracks change motion abruptly at the same
 *    moment (a collision, a break), the looks each gathers in the next
 *    swap_window frames are compared with its looks before; when the
 *    exchanged continuations explain them better by swap_min nats, the
 *    continuations are exchanged; a track whose continuation contradicts
 *    its looks before by swap_min + 1 nats with no partner is split there.
 *  - stitching: a new confirmed track continues a hidden one (ball in hand,
 *    a ball moved under an arm, a ball lost in a break; the new track may
 *    start in the frame the hidden one was last seen in, as a struck cue
 *    ball does) when both tracks' own evidence names the same id surely, or (while the new track is not
 *    published yet) when its looks clearly agree best with that hidden
 *    track, unless it stands on a rack slot (a racked ball was put there by
 *    hand; looks that merely agree would hand it another ball's evidence):
 *    same track number, same identity; the hidden frames in between
 *    keep the last known position. When the new track was already
 *    published, the hidden one ends instead and the id moves on. A new fast
 *    track (over 1 m/s, two sightings) continues a hidden resting one it was
 *    struck out of: its path runs straight back within R of where that ball
 *    rested, the ball was last seen there one or two frames before the new
 *    track was born, and the new track has come half to twice as far as its
 *    speed takes it since (a ball struck hard at 30 fps is first seen a
 *    smear a few diameters away, whose looks name nothing); only when one
 *    hidden track fits.
 *  - identity: each track accumulates colour log-likelihoods (tempered by
 *    colour_weight, and capped at colour_cap: a bias of the light is
 *    systematic) and pattern evidence, by VIEWS: a ball that has not rolled
 *    by a radius shows the same face under the same light, so one view
 *    counts at most view_frames frames of colour and 3 frames of pattern
 *    (its mean per frame times that; a resting ball's minute is one view,
 *    not 1800 proofs). Three patterns, each against the other two: the
 *    stripe seen (white share between stripe_min_white and cue_min_white,
 *    or the detector's id_p on the stripes) speaks against a solid and the
 *    cue ball; looking solid counts slowly (the first view, then one more
 *    per straight roll, since rolling about one axis can keep the band on
 *    top) against a stripe and the cue ball; looking all white (the first
 *    view, then one per radius rolled: a stripe shows its pole only from a
 *    few orientations and cannot roll with it on top) against a solid and a
 *    stripe. A stripe's colour likelihood mixes its colour with white (its
 *    pole views). A fast ball's frames (streak longer than R, from the
 *    detector's blur or the track's own speed) give no pattern evidence: the
 *    exposure smears a number spot into a band.
 *    One global assignment of tracks to the ids of id_set (each id at most
 *    once) is solved every frame; a track's id is output only when forcing
 *    it to any other id costs at least id_margin nats (a max-marginal), else
 *    -1. Exclusion is part of it: an id held by a surely identified track
 *    costs the other tracks that much; giving a track no id costs 6 nats
 *    when it is hidden (it may be a stale copy of a ball that moved unseen)
 *    and 20 when it is seen now (a ball on the table is one of the set),
 *    but 6 for one seen 10 times or more whose looks favour no id of the
 *    set over any other by id_margin (a hand, a ghost of a ball the
 *    background took in), which is also no alternative for another track's
 *    id when that track's margin is weighed;
 *    a hidden ball's id that its looks surely name costs a seen track 14
 *    nats more when the two were seen together (in three frames or more)
 *    and the seen one's looks point elsewhere: it is no continuation of
 *    that ball (a hand passing as the cue ball is picked up); a
 *    ball that went into a pocket surely identified keeps its id out of
 *    play (taking it costs 6 nats more) until more balls are seen than the
 *    set minus the pocketed ones allows (a re-rack or re-spot), or a rack
 *    stands (below: its balls at rest show one face each, seldom enough to
 *    name them surely, so they seldom outnumber the set). So a yellow
 *    ball that never showed white is -1 (the 1, or the 9 with its band on
 *    top) unless the other is known elsewhere or pocketed. A rack before
 *    its break is the rules' word (n_rack, rack_id): while most rack slots
 *    hold a ball that has not moved since it was first seen there, such a
 *    ball costs rack_prior nats more as the cue ball and rack_prior less as
 *    the number the rules put on its slot (the 9 in the centre, the 1 at
 *    the apex), so the cue ball and a racked stripe showing its white pole
 *    are named before either moves. The id at output time is applied along
 *    the whole delayed track.
 *  - smoothing (fixed lag, at output time): for each frame the tracker fits
 *    the track's detections in several windows that contain the frame
 *    (rest_window_s constant-position windows for balls at rest, short
 *    quadratic windows while moving, one-sided ones next to a contact) and
 *    keeps the longest window whose chi-square fits the detections' own
 *    sigma and that leaves no residual over 3.5 sigma at its ends or at
 *    the frame itself (a ball setting off slowly at the end of a long rest
 *    window barely raises its chi-square); so resting balls are averaged
 *    and neither a collision nor a slow start is smeared.
 *    HIDDEN balls report the held (or predicted) position, GONE balls the
 *    last seen one with zero velocity.
 *
 * Thread-safety: a tracker is used by one thread at a time. No allocation
 * after create; push and pop cost O(tracks^3) at worst (~50-130 us a frame
 * for 10-16 balls on one core).
 */
#ifndef CR_TRACK_H
#define CR_TRACK_H

#include <stdint.h>

#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int delay_frames;         /* frames of look-ahead before a frame is output (40, 1..240) */
    int history_frames;       /* past frames kept for smoothing (30, 0..240) */
    double max_speed_mm_s;    /* fastest ball, for gates (12000) */
    double p_detect;          /* probability a visible ball is detected (0.95) */
    double new_per_frame;     /* expected new balls + phantoms per frame on the whole table (0.01) */
    double collision_share;   /* per frame: chance a ball's motion changed abruptly (0.03) */
    int confirm_hits;         /* detections before a track is output (5) */
    int tentative_misses;     /* consecutive misses that kill an unconfirmed track (2) */
    double id_margin;         /* nats a track's id must beat every alternative by (3.0) */
    double colour_weight;     /* weight of one frame's colour log-likelihood (0.25) */
    double stripe_min_white;  /* white share above which a ball shows its stripe (0.15) */
    double cue_min_white;     /* white share above which a ball looks like the cue ball (0.8);
                                 both only for detections without id_p: with id_p the
                                 detector's own reading is used (stripe when the stripe ids
                                 hold > 75 % of the object-ball mass, solid-looking < 35 %,
                                 cue when id 0 holds > 50 %) */
    double gone_keep_s;       /* how long a GONE ball can still be picked up again in its jaws (0.5) */
    double stitch_min;        /* appearance agreement (nats, at most ln 18) to continue a hidden track (1.0) */
    double rest_window_s;     /* longest constant-position window for balls at rest (1.0) */
    uint32_t id_set;          /* bit i set: ball i may be on the table (0xFFFF; 9-ball: 0x3FF,
                                 10-ball 0x7FF); ids outside the set are never given */
    double colour_cap;        /* most colour evidence of one track, in frames (20): a bias of
                                 the light is systematic, more frames of it are not more proof */
    double appearance_weight; /* weight of looks against motion when matching detections (1.0) */
    int swap_window;          /* frames after an abrupt change of two nearby balls before their
                                 tracks are checked for a swap (20; at most delay_frames - 1 is used) */
    double swap_min;          /* nats by which exchanged tails must explain the looks better (1.0) */
    double min_sigma_mm;      /* floor of a detection's sigma_mm (0.3): the smoothing's fit tests
                                 trust the detector's sigma, which must not claim too much */
    double lost_moving_s;     /* a ball lost while rolling (not near a pocket) and not found
                                 again within this long ends its track (1.0) */
    double view_frames;       /* most frames of colour evidence one view gives (10, >= 1): a
                                 ball that has not rolled by a radius shows the same face under
                                 the same light, so more frames of it are not more proof */
    /* The game's rack (none by default): n_rack slots (table mm), rack_id the number the
     * rules put on a slot (9-ball: the 1 at the apex, the 9 in the centre) or -1. While
     * most slots hold a ball that has not moved since it was first seen there (a rack
     * before its break), such a ball is not the cue ball (in hand for the break) and
     * on a numbered slot it takes that number, unless its looks say otherwise by more
     * than rack_prior nats (4.0) each. One resting view cannot tell the cue ball from
     * a racked stripe showing its white pole, so without the rules' word both stay
     * unnamed until one of them moves. */
    int n_rack;
    double rack_x[CR_TABLE_RACK_MAX], rack_y[CR_TABLE_RACK_MAX];
    int rack_id[CR_TABLE_RACK_MAX];
    double rack_prior;
} cr_track_params_t;

void cr_track_params_defaults(cr_track_params_t *p);

typedef struct cr_tracker cr_tracker_t;

/* t is copied (table size, pockets, ball radius). p may be NULL for the
 * defaults. Returns 0, CR_ERR_INVALID (NULL t or out, a parameter out of
 * range) or CR_ERR_NOMEM; *out is untouched on failure. */
int cr_tracker_create(const cr_table_t *t, const cr_track_params_t *p, cr_tracker_t **out);

/* One frame's detections at media time t_s (strictly increasing). Returns 0
 * or a negative cr_status_t: CR_ERR_INVALID (t_s not increasing, n < 0,
 * dets NULL with n > 0, after flush), CR_ERR_FULL (more than delay_frames
 * frames are ready and were not popped). Detections beyond
 * CR_VISION_MAX_DETECTIONS are ignored. */
int cr_tracker_push(cr_tracker_t *tr, double t_s, uint64_t frame, const cr_detection_t *dets, int n);

/* Before cr_tracker_push() of a frame: the tags (from cr_tracker_expect())
 * of balls whose place showed the bare background in that frame
 * (cr_detector_bare()). A ball held hidden at rest whose place is bare for 3
 * frames and 0.1 s, and which stood out from the background while seen (its
 * detections' mean fg_share at least 0.5), is not there: its track ends (a
 * hand or the cue tip taken for a ball and held where it stopped; a ball
 * that left unseen and is found again elsewhere). Not near a pocket: a ball
 * in the jaws that drops is recon's to judge. */
void cr_tracker_bare(cr_tracker_t *tr, const int *tags, int n);

/* The events say the ball of output track `number` left the table (its
 * pocket or off_table line made: cr_recon_is_down()). A copy of it still held
 * hidden at rest (a ball that crept into the jaws and dropped: near a pocket
 * the bare place does not end it) is let go, so that no ball that later
 * comes to rest there takes its number. A track seen now, or lost while
 * rolling, is left as it is. Returns whether a track was let go. */
bool cr_tracker_let_go(cr_tracker_t *tr, int number);

/* No more frames: every frame pushed becomes ready. */
void cr_tracker_flush(cr_tracker_t *tr);

/* Copies the oldest ready frame into *out and returns 1, or returns 0 when
 * none is ready. Frames come out in order, each exactly once. Balls are in
 * increasing track number; an id appears at most once per frame. */
int cr_tracker_pop(cr_tracker_t *tr, cr_ball_frame_t *out);

/* The newest frame pushed, as the tracker sees it now, before its
 * look-ahead (for calls that cannot wait for it: cr_early.h): every
 * confirmed track's own detection (has_raw) or held / predicted place, its
 * filtered velocity, and its id where the id is sure now (margin at least
 * id_margin, else -1). Nothing is smoothed or repaired yet: a later pop of
 * the same frame may differ. Returns 1, or 0 when no frame was pushed. */
int cr_tracker_peek(const cr_tracker_t *tr, cr_ball_frame_t *out);

/* Where the tracker expects its balls at media time t_s (the next frame's,
 * after the last push): every confirmed ball that is not GONE, predicted
 * from its state (rolling, bounced off the cushions) or held where it was
 * last seen, and how far from there it may be (half a radius for a ball at
 * rest: it is there or it was struck; for one struck lately and lost, as
 * far as its striker could have sent it, marked struck; a radius for a
 * rolling one; more for one lost while rolling, as its prediction ages,
 * at most two radii); the
 * tag is the track's own (its detections are given to it alone). At most
 * max into out; returns their count. For cr_detector_expect(): a ball the
 * detector's own search misses (a ball of the cloth's colour, faint in
 * dim light) is looked for again where it should be. */
int cr_tracker_expect(const cr_tracker_t *tr, double t_s, cr_ball_hint_t *out, int max);

/* Timing: CPU seconds spent in push and pop so far, and frames pushed. */
void cr_tracker_stats(const cr_tracker_t *tr, double *cpu_s, uint64_t *frames);

void cr_tracker_destroy(cr_tracker_t *tr);

/* ---- Synthetic detections from simulator truth (tests and benches) ----
 *
 * Turns exact ball positions per frame into what a detector would report:
 * Gaussian position noise (more while moving), motion streaks, dropped
 * detections (random, and runs of 10-60 frames under the cue and arm behind
 * the cue ball and under the bridge hand at each stroke, and under the hand
 * when a ball is placed or lifted; an arm covers a place, so a ball that
 * rolls out from under it is seen again), doubled detections,
 * phantoms, colour probabilities confused between neighbouring colours
 * (yellow/orange, red/maroon, blue/purple), stripe white share that follows
 * a rolling orientation (so a stripe sometimes looks solid for many frames),
 * and id_p derived from those the way a per-frame classifier would.
 * Deterministic for a seed. */
typedef struct {
    bool on_table; /* on the playing surface (false before placing and after pocketing) */
    double x, y;   /* mm */
} cr_track_truth_t;

typedef struct {
    double fps;            /* frame rate of the truth (60) */
    double sigma_rest_mm;  /* position noise at rest (0.5) */
    double sigma_move_mm;  /* position noise while moving (2.0) */
    double drop_p;         /* random missed detection per ball and frame (0.01) */
    double phantom_p;      /* phantom detections started per frame (0.01) */
    double double_p;       /* a detection doubled (0.003) */
    double colour_noise;   /* spread of colour logits (0.8) */
    double confuse;        /* logit of the confusable neighbour colour, relative (-1.0) */
    double colour_bias;    /* spread of a per-ball lasting shift toward that neighbour (0.4;
                              above ~1 the neighbour often wins for good) */
    double colour_view_share; /* share of the colour noise's variance that belongs to the view
                              (0, 0..1): it stays while the ball rests and changes once it has
                              rolled by a radius, as the light on one face does; the rest is new
                              in every frame (sensor noise). Rendered and real video of a resting
                              ball repeat nearly the same reading (0.75 is closer to that); 0
                              keeps every frame independent, as before */
    bool stroke_occlusion; /* hide balls under the cue and arm at strokes (true) */
    bool hand_occlusion;   /* hide a ball around a hand placement (true) */
} cr_track_synth_params_t;

void cr_track_synth_params_defaults(cr_track_synth_params_t *p);

typedef struct cr_track_synth cr_track_synth_t;

/* truth holds n_frames * CR_NUM_BALLS values (frame-major, id minor); it
 * is copied. Occlusion runs are planned from the whole sequence. Returns 0,
 * CR_ERR_INVALID or CR_ERR_NOMEM. */
int cr_track_synth_create(const cr_table_t *t, const cr_track_synth_params_t *p, uint64_t seed,
                          const cr_track_truth_t *truth, int n_frames, cr_track_synth_t **out);

/* Detections of frame k (call with k = 0, 1, 2... in order): at most max
 * into out, their count in *n; detected[id] (may be NULL) tells which true
 * balls got a detection. Returns 0 or CR_ERR_INVALID (k out of order). */
int cr_track_synth_frame(cr_track_synth_t *s, int k, cr_detection_t *out, int max, int *n, bool detected[CR_NUM_BALLS]);

void cr_track_synth_destroy(cr_track_synth_t *s);

#ifdef __cplusplus
}
#endif

#endif /* CR_TRACK_H */
