/*
 * cr_eval.h - scores an event stream against ground truth (SPEC §4,
 * docs/EVAL.md): per event type precision, recall and timing error;
 * first-contact accuracy per shot; fouls per code; rulings; ball positions.
 *
 * Pure C on events and positions already in memory: no file I/O, no
 * printing, no JSON (the `cueref eval` command reads the files and writes
 * the metrics). Allocates its working memory and its result; every
 * allocation is checked. Functions are thread-safe on distinct objects.
 *
 * Matching (docs/EVAL.md "Matching"): two events of the same type match when
 * they carry the same key (collision: the unordered pair {a, b}; cushion:
 * ball and rail; pocket: ball and pocket; off_table, disturbed, placed: the
 * ball; foul: the code; stroke, rest: no key) and their times differ by at
 * most the type's window (plus 1 us, the stream's time resolution). Within
 * each type and key the matching is one-to-one and optimal: it has the most
 * pairs, and among those the smallest sum of |dt|. Fouls also match when
 * they belong to the same shot (the truth shot's stroke matched to the
 * candidate's stroke) whatever their times.
 *
 * Units: times in seconds in, timing errors out in milliseconds; positions
 * in table millimetres (SPEC §1).
 */
#ifndef CR_EVAL_H
#define CR_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cr_event.h"
#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The event types scored, in the order they are reported. */
#define CR_EVAL_N_TYPES 9
extern const cr_event_type_t cr_eval_types[CR_EVAL_N_TYPES];

/* A ball field with no ball: the shot had no cue-ball contact, or the
 * candidate has no stroke matched to the truth's (JSON null). Distinct from
 * CR_BALL_UNKNOWN (-1), a ball the candidate could not identify. */
#define CR_EVAL_NONE (-2)

#define CR_EVAL_DEFAULT_WINDOW_S 0.25    /* strokes, pockets, rests, fouls, ... */
#define CR_EVAL_DEFAULT_FPS 60.0         /* when the truth's session has no fps */
#define CR_EVAL_CLOSE_CALL_MIN_S 0.002   /* first two cue-ball contacts this close... */
#define CR_EVAL_CLOSE_CALL_MAX_S 0.030   /* ...to this: a close call */
#define CR_EVAL_TIME_TOLERANCE_S 1e-6    /* added to every window: the stream's resolution */
#define CR_EVAL_TIMED_OFF_S 0.1          /* a contact found this near, but outside its window */

/* ---------------------------------------------------------------------- */
/* Parameters                                                              */

typedef struct {
    /* Half-width of the match window per event type, seconds. NAN: the
     * default (collision and cushion one frame period, 1/fps; every other
     * type CR_EVAL_DEFAULT_WINDOW_S). Entries of unscored types are ignored. */
    double window_s[CR_EV_TYPE_COUNT];
    /* Frames per second. NAN: the truth's session fps, else
     * CR_EVAL_DEFAULT_FPS. Sets the contact windows and the position
     * matching (a candidate frame within half a frame period). */
    double fps;
    /* Close calls: first two cue-ball contacts with different balls this
     * far apart (s, inclusive). */
    double close_call_min_s, close_call_max_s;
    /* Positions: a candidate ball within this distance of a truth ball
     * detects it (mm; default two ball radii, 57.15). */
    double match_radius_mm;
} cr_eval_params_t;

/* Fills *p with the defaults above. */
void cr_eval_params_defaults(cr_eval_params_t *p);

/* ---------------------------------------------------------------------- */
/* Positions: ground truth (positions.csv) or the candidate's               */

/* A set of frames of ball positions, built line by line. Not thread-safe. */
typedef struct cr_eval_positions cr_eval_positions_t;

/* Creates an empty set. truth: ids must be 0..15 and unique in a frame (the
 * simulator's positions.csv); otherwise -1 (unidentified) and repeated ids
 * are accepted, as a tracker may report them. Returns 0, CR_ERR_INVALID (out
 * NULL) or CR_ERR_NOMEM; on failure *out is untouched. */
int cr_eval_positions_create(bool truth, cr_eval_positions_t **out);
void cr_eval_positions_destroy(cr_eval_positions_t *p); /* accepts NULL */

/* Adds one line of a positions CSV (without its newline; a trailing '\r' is
 * allowed; exactly len bytes read). The first non-blank line must be the
 * header `frame,t,id,x,y,visible`; then one row per ball per frame: frame an
 * integer >= 0, t seconds >= 0, id -1..15, x and y finite mm, visible 0 or 1.
 * The rows of a frame are consecutive and share t; frames come in increasing
 * frame number and non-decreasing t. Blank lines are skipped.
 * Returns 0, CR_ERR_PARSE with a message in err (no "FILE:LINE:" prefix),
 * CR_ERR_NOMEM, or CR_ERR_INVALID for NULL arguments. */
int cr_eval_positions_add_csv_line(cr_eval_positions_t *p, const char *line, size_t len, char *err,
                                   size_t err_len);
/* Call after the last CSV line: CR_ERR_PARSE with a message when no header
 * was seen (an empty file), else 0. */
int cr_eval_positions_csv_end(const cr_eval_positions_t *p, char *err, size_t err_len);

/* Adds a `balls` event as one frame of a candidate's positions from its
 * event stream: its balls are visible, those marked `hidden` held (not
 * detections: counted apart). Other event types are ignored (0).
 * Returns 0, CR_ERR_NOMEM, or CR_ERR_INVALID (NULL, or t not finite). */
int cr_eval_positions_add_balls(cr_eval_positions_t *p, const cr_event_t *ev);

/* Number of frames so far. */
size_t cr_eval_positions_frames(const cr_eval_positions_t *p);

/* ---------------------------------------------------------------------- */
/* Results                                                                 */

/* Counts for one event type, or one foul code. A ratio is NAN when its
 * denominator is 0 (JSON null): precision = tp / (tp + fp), recall =
 * tp / (tp + fn). Timing is over the matched pairs (NAN when tp == 0):
 * |candidate t - truth t| in ms, median and p95 by linear interpolation
 * between order statistics; mean is the mean |dt|; bias is the mean signed
 * difference (candidate - truth). */
typedef struct {
    int n_truth, n_candidate;
    int tp, fp, fn;
    int identity_errors; /* truth and candidate events left unmatched that
                            pair up by type and time alone (wrong balls,
                            rail, pocket or code): each is also a FP and a FN */
    int timed_off;       /* collisions and cushions (0 for the other types):
                            truth and candidate events left unmatched that
                            pair up by key within CR_EVAL_TIMED_OFF_S (the
                            contact found, timed outside the window): each
                            is also a FP and a FN */
    double precision, recall;
    double window_s; /* the window used (for fouls: the time window) */
    double dt_median_ms, dt_p95_ms, dt_max_ms, dt_mean_ms, dt_bias_ms;
} cr_eval_counts_t;

/* One shot whose first cue-ball contact the candidate got wrong. */
typedef struct {
    int shot;             /* truth shot index */
    double t;             /* truth stroke time, s */
    int truth_ball;       /* ball the cue ball hit first, or CR_EVAL_NONE */
    int candidate_ball;   /* the candidate's, CR_EVAL_NONE, or -1 unidentified */
    bool stroke_matched;  /* false: the candidate has no stroke for this shot */
} cr_eval_contact_t;

/* A close call: the truth's first two cue-ball contacts with different
 * balls between close_call_min_s and close_call_max_s apart. */
typedef struct {
    int shot;
    double t;           /* truth stroke time, s */
    int first, second;  /* truth balls in the order they were hit */
    double gap_ms;
    int candidate_ball; /* the candidate's first contact (as above) */
    bool correct;
} cr_eval_close_call_t;

/* An event of a keyed type (collision, cushion, pocket, off_table, disturbed,
 * placed, foul) left unmatched: a truth event no candidate event matched (missed)
 * or a candidate event that matched no truth event (false). With the
 * nearest event of the same key on the other side, so a contact found but
 * timed outside the window reads as such, not as two unrelated errors. */
#define CR_EVAL_NEAREST_S 1.0 /* how far the nearest same-key event is looked for */

typedef struct {
    cr_event_type_t type;
    bool missed;   /* true: a truth event; false: a candidate event */
    bool in_break; /* inside a truth break cluster (collisions and cushions) */
    double t;      /* its time, s */
    int shot;      /* its shot index, -1 when it has none */
    /* its key: collision the two balls (lower first); cushion ball and
     * rail (cr_rail_t); pocket ball and pocket (cr_pocket_t); foul 0, 0
     * and its code; the others the ball and 0 */
    int k1, k2;
    char code[CR_CODE_LEN]; /* a foul's code, "" otherwise */
    double nearest_ms; /* the other side's nearest same-key event minus this
                          one, ms; NAN when none within CR_EVAL_NEAREST_S */
    /* a collision's or a cushion's speed of approach by the truth positions
     * (given to cr_eval_score()), over the last two truth frames before t:
     * a cushion's ball toward its rail, a collision's two balls toward
     * each other along the line between them, mm/s (negative: moving
     * apart); NAN for the other types, without truth positions, or when
     * a ball is in neither frame. A contact timed off at a slow approach
     * is one that position noise alone puts frames off (a millimetre is
     * 20 ms at 50 mm/s) */
    double approach_mm_s;
} cr_eval_unmatched_t;

typedef struct {
    char code[CR_CODE_LEN];
    cr_eval_counts_t counts;
} cr_eval_code_t;

typedef struct {
    bool present;     /* both streams have ruling lines (kind shot) */
    int truth_rulings, candidate_rulings;
    int compared;     /* truth shots whose stroke is matched and both rule on */
    int agree;        /* ... on legal, next_player, ball_in_hand and game_over */
    int agree_legal, agree_next_player, agree_ball_in_hand, agree_game_over;
    double share;     /* agree / compared, NAN when 0 */
    /* The shot's outcome on its own, free of the player numbers: a wrong
     * call once swaps who is "player 1" for the rest of the rack in
     * next_player, so agree cascades; these do not. */
    int agree_turn;    /* ... on whether the shooter stays at the table */
    int agree_outcome; /* ... on legal, turn, ball_in_hand and game_over */
    double outcome_share; /* agree_outcome / compared, NAN when 0 */
    int n_disagree;
    int *disagree_shots; /* truth shot indexes */
} cr_eval_rulings_t;

/* Position figures for one class of truth balls (resting, moving). */
typedef struct {
    long truth_visible;    /* visible truth balls of the class in matched frames */
    long detected;         /* ... with a candidate ball within match_radius_mm */
    long identity_correct; /* ... with a candidate ball of the same id within it */
    long n_errors;
    double detection_recall, identity_accuracy;   /* NAN when 0/0 */
    double err_median_mm, err_p95_mm, err_max_mm; /* NAN when none */
} cr_eval_pos_class_t;

/* Position figures for one ball number: all its visible truth frames, and
 * those of them at rest. */
typedef struct {
    long truth_visible, detected, identity_correct;
    long resting_visible, resting_detected;
    double detection_recall, identity_accuracy, resting_recall; /* NAN when 0/0 */
} cr_eval_pos_ball_t;

/* Truth speeds (from the neighbouring truth frames) that split the classes:
 * resting below CR_EVAL_REST_MM_S; moving from there up to a displacement of
 * one ball diameter per frame (faster balls are smeared beyond a diameter
 * and counted in neither class). */
#define CR_EVAL_REST_MM_S 5.0

/* How long after a break's first contact its cluster of collisions lasts, s. */
#define CR_EVAL_BREAK_CLUSTER_S 0.5

typedef struct {
    bool present;          /* truth positions were given */
    long frames;           /* truth frames */
    long frames_matched;   /* ... with a candidate frame within half a frame period */
    long truth_visible;    /* visible truth balls in matched frames */
    long detected;         /* ... with a candidate ball within match_radius_mm */
    long identity_correct; /* ... with a candidate ball of the same id within it */
    long candidate_balls;  /* candidate balls in the matched frames */
    long candidate_near_truth; /* ... within match_radius_mm of a visible truth ball */
    long unidentified;     /* ... reported with id -1 */
    long candidate_held;   /* candidate balls held where last seen ("hidden": not
                              detections, in none of the figures above) */
    long held_near_truth;  /* ... within match_radius_mm of the truth ball of
                              their id, seen or not */
    long misnamed;         /* candidate balls with a number, nearest a visible truth
                              ball (within match_radius_mm) of another number */
    long swap_frames;      /* ball pairs (a, b) in matched frames where a's number
                              sits on b and b's on a: two balls exchanged names */
    long swaps;            /* ... counted once per run of consecutive matched frames */
    long n_errors;         /* truth balls with a candidate ball of the same id */
    double detection_recall, detection_precision, identity_accuracy; /* NAN when 0/0 */
    double err_median_mm, err_p95_mm, err_max_mm; /* to the nearest same-id ball; NAN when none */
    cr_eval_pos_class_t resting, moving;
    cr_eval_pos_ball_t by_ball[CR_NUM_BALLS]; /* by the truth ball's number */
} cr_eval_positions_result_t;

typedef struct {
    double fps; /* as used */
    /* Indexed by event type; only the entries of cr_eval_types[] are set. */
    cr_eval_counts_t types[CR_EV_TYPE_COUNT];
    /* The same for collisions and cushions outside the truth's break
     * clusters (from a break's stroke to CR_EVAL_BREAK_CLUSTER_S after the
     * cue ball's first contact); other entries are zero. */
    cr_eval_counts_t outside_break[CR_EV_TYPE_COUNT];

    /* First contact: one entry per truth stroke of the cue ball (lags,
     * where two strokes share a shot index, are not scored). Correct when
     * the candidate's stroke is matched and its first cue-ball contact is
     * the same ball (or both have none). */
    int shots, shots_correct;
    double first_contact_accuracy; /* NAN when shots == 0 */
    int n_wrong;
    cr_eval_contact_t *wrong;      /* in time order */
    int n_close_calls, close_calls_correct;
    cr_eval_close_call_t *close_calls;

    /* The unmatched events of the keyed types (fp and fn of those types),
     * in time order, truth before candidate at the same time. */
    int n_unmatched;
    cr_eval_unmatched_t *unmatched;

    /* Fouls per code, sorted by code (the union of both streams' codes). */
    int n_codes;
    cr_eval_code_t *codes;

    cr_eval_rulings_t rulings;
    cr_eval_positions_result_t positions;

    /* Pockets by shot, whatever their time: truth pocket lines whose ball
     * the candidate pockets in the same pocket in the shot their stroke
     * matched (a pot put early or late by more than the window still
     * counts), and candidate pocket lines no truth pocket of the same ball
     * and pocket in that shot accounts for. */
    int pockets_truth, pockets_in_shot, pockets_false_in_shot;
} cr_eval_result_t;

/* ---------------------------------------------------------------------- */
/* Scoring                                                                 */

/* The scorer: create with parameters, add both streams' events (in any
 * order, either side first), score, destroy. It keeps a small copy of each
 * scored event (about 100 bytes, not a cr_event_t), so a long stream can be
 * fed line by line as it is read. Not thread-safe; one per thread. */
typedef struct cr_eval cr_eval_t;

/* p NULL means the defaults. Returns 0, CR_ERR_INVALID (out NULL, a
 * negative or non-finite window, fps <= 0, radius <= 0, a bad close-call
 * range) or CR_ERR_NOMEM; on failure *out is untouched. */
int cr_eval_create(const cr_eval_params_t *p, cr_eval_t **out);
void cr_eval_destroy(cr_eval_t *e); /* accepts NULL */

/* Adds one event of the truth (truth true) or of the candidate. Kept: the
 * scored types (cr_eval_types), rulings, and the truth's first session
 * line (its fps); every other type (balls lines included: see
 * cr_eval_positions_add_balls) and events without a finite t are ignored.
 * Returns 0, CR_ERR_INVALID (NULL), CR_ERR_NOMEM or CR_ERR_FULL (over
 * INT_MAX / 2 events on one side). */
int cr_eval_add(cr_eval_t *e, bool truth, const cr_event_t *ev);

/* Scores what was added. truth_pos and cand_pos may be NULL; positions are
 * scored when both are given. Returns 0 with *out set (free with
 * cr_eval_result_destroy), CR_ERR_INVALID or CR_ERR_NOMEM; on failure
 * *out is untouched. e can take more events and be scored again. */
int cr_eval_score(const cr_eval_t *e, const cr_eval_positions_t *truth_pos, const cr_eval_positions_t *cand_pos,
                  cr_eval_result_t **out);

/* All in one call: scores cand[0..n_cand) against truth[0..n_truth) (events
 * in any order). Returns what cr_eval_create, cr_eval_add and
 * cr_eval_score return (CR_ERR_INVALID also for a NULL array with a
 * non-zero count). */
int cr_eval_run(const cr_eval_params_t *p, const cr_event_t *truth, size_t n_truth, const cr_event_t *cand,
                size_t n_cand, const cr_eval_positions_t *truth_pos, const cr_eval_positions_t *cand_pos,
                cr_eval_result_t **out);

void cr_eval_result_destroy(cr_eval_result_t *r); /* accepts NULL */

#ifdef __cplusplus
}
#endif

#endif /* CR_EVAL_H */
