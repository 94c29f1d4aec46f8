/*
 * cr_rules.h - the rules engine: judges an event stream (SPEC §3) by the WPA
 * rules of pool (shared/rules/RULES.md) and derives `foul` and `ruling`
 * events.
 *
 * Pure C over events and table state: no OpenCV, no GStreamer, no JSON, and
 * no allocation after cr_judge_create(). One judge follows one stream; it is
 * not thread-safe, but independent judges may run on different threads.
 *
 * Use:
 *     cr_rules_params_t p;
 *     cr_rules_params_defaults(&p);
 *     p.game = CR_GAME_9BALL;           (or cr_rules_params_set(&p, key, value))
 *     cr_judge_create(&p, &j);
 *     for each event: n = cr_judge_feed(j, &ev, out, CR_JUDGE_MAX_OUT);
 *                     emit out[0..n-1] (foul and ruling events, in order)
 *     n = cr_judge_finish(j, out, CR_JUDGE_MAX_OUT);
 *     cr_judge_destroy(j);
 *
 * Timing: a foul that is certain mid-shot (scratch, ball off the table, wrong
 * ball first, balls moving at the stroke, bad placement, touched ball, a
 * suspected double hit) comes out with the event that makes it certain; the
 * shot's ruling, and the fouls that need the whole shot (no rail, no contact,
 * 6.11 ¶2, illegal break), come out with the shot's `rest`.
 */
#ifndef CR_RULES_H
#define CR_RULES_H

#include "cr_event.h"
#include "cr_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enough room for everything one input event can produce. */
#define CR_JUDGE_MAX_OUT 24

/* Kitchen rule (RULES.md §6 item 1, foul 6.11). */
typedef enum {
    CR_KITCHEN_WPA = 0, /* WPA 6.11: only the first-ball and crossing tests */
    CR_KITCHEN_SEED     /* seed/BCA: the cue ball must also cross before touching a cushion */
} cr_kitchen_t;

/* Who breaks the next rack (8/9/10-ball). */
typedef enum {
    CR_BREAK_ALTERNATE = 0, /* players alternate breaks */
    CR_BREAK_WINNER         /* the winner of the rack breaks */
} cr_break_order_t;

/* How shots that need a call are judged when no `call` input arrives. */
typedef enum {
    CR_CALLS_AUTO = 0, /* infer the obvious call: the first ball pocketed, in its pocket */
    CR_CALLS_STRICT    /* no call input: no ball counts as called */
} cr_calls_t;

typedef struct {
    cr_game_t game;         /* default CR_GAME_NONE */
    cr_table_t table;       /* default 9 ft */
    cr_edition_t edition;   /* default CR_EDITION_WPA2008 */
    cr_kitchen_t kitchen;   /* default CR_KITCHEN_WPA */
    bool cue_ball_fouls_only;   /* 6.6 scope: only touching the cue ball is a foul (default false) */
    bool spot_ascending;        /* 1.4: several balls are spotted in ascending number (default true) */
    bool rebreak_option_14_1;   /* 14.1 third foul: the opponent chooses who re-breaks (older rule);
                                 * default false: the offender re-breaks (2008) */
    bool benefit_to_shooter;    /* RULES.md §6 item 6: an unresolvable first contact, or a rail
                                 * that may have come after it, goes to the shooter (default true) */
    bool three_ball_rule;       /* 9-ball regulation (RULES.md §4.5), default false */
    bool open_table_8_exception; /* 8-ball 2025: the 8 may be hit first on an open table once a
                                 * whole group is off the table (default: edition) */
    bool ten_ball_safety;        /* 10-ball: safety may be called (2009: true, 2025: false) */
    bool ten_ball_win_last_only; /* 10-ball 2025: the 10 wins only as the last object ball */
    cr_break_order_t break_order; /* default alternate */
    cr_calls_t calls;            /* default auto */
    int first_breaker;           /* who breaks the first rack when no lag decides it (1) */
    double shot_clock_s;         /* 6.15: seconds allowed per shot; 0 = no shot clock (default) */
    double extension_s;          /* 6.15: one extension per player per rack (25 s) */
    double min_confidence;       /* a vision suspicion (double hit, push) is a foul from here (0.5) */
    double doubt_window_s;       /* two cue-ball contacts closer than this with a first-contact
                                  * confidence < 1 are "unresolved", and so is a rail met this
                                  * close before the first contact when no rail follows it
                                  * (6.3) (0.030 s) */
    double lag_tie_mm;           /* lag results closer than this are a tie: re-lag (1.0 mm) */
    int target_score_14_1;       /* 14.1: points to win (150) */
} cr_rules_params_t;

/* Sane defaults: WPA 2008, game none, 9 ft table. */
void cr_rules_params_defaults(cr_rules_params_t *p);

/* Applies an edition preset (--rules): "wpa2008" (default), "wpa2025", or
 * "bca" (the seed's BCA-derived variants: seed kitchen rule, spotting in
 * ascending order). Returns 0 or CR_ERR_INVALID. */
int cr_rules_params_set_edition(cr_rules_params_t *p, const char *name);

/* Sets one switch by name (--rule KEY=VALUE); see docs/RULES-ENGINE.md for
 * the keys. Returns 0 or CR_ERR_INVALID (unknown key or bad value). */
int cr_rules_params_set(cr_rules_params_t *p, const char *key, const char *value);

typedef struct cr_judge cr_judge_t;

/* Creates a judge. Returns 0, CR_ERR_INVALID for bad parameters, or
 * CR_ERR_NOMEM; *out is untouched on failure. */
int cr_judge_create(const cr_rules_params_t *p, cr_judge_t **out);

/* Frees the judge; accepts NULL. */
void cr_judge_destroy(cr_judge_t *j);

/* Feeds one event of the stream. `foul` and `ruling` events in the input are
 * ignored (the engine derives its own). Writes the derived events to
 * out[0..], at most cap, and returns how many, or CR_ERR_FULL when cap is
 * below CR_JUDGE_MAX_OUT, CR_ERR_INVALID for an event that contradicts the
 * stream (message via cr_judge_error). */
int cr_judge_feed(cr_judge_t *j, const cr_event_t *ev, cr_event_t *out, int cap);

/* The stream has reached time t (a video frame that brought no event): a
 * shot still open at cr_judge_finish() ends no earlier. Accepts NULL. */
void cr_judge_advance(cr_judge_t *j, double t);

/* End of the stream: a shot still open (no `rest`) gets a ruling from what
 * was seen, marked so in its detail, dated at the latest time fed or
 * advanced to. Returns the count written. */
int cr_judge_finish(cr_judge_t *j, cr_event_t *out, int cap);

/* A first contact called from the newest frames (cr_early.h), before the
 * stroke and collision that the reconstruction will report reach the
 * engine: `stroke` (t, shot, the balls on the table) and `contact` (a
 * collision of the cue ball); `inputs` (n_inputs, in time order) are the
 * operator's input lines not fed yet (those up to the contact are judged
 * with the call, and fed later all the same). Judged outside a lag and a
 * break: between shots, where the stroke must list the cue ball and exactly
 * the object balls the engine has on the table; or in the open shot when
 * it is this stroke (within 0.25 s) and its first contact is not judged
 * yet (the contact came well after the stroke). The call is judged on a
 * copy of the engine; when it is a wrong ball first (6.2) the foul line is
 * written to *out and 1 returned, and the engine remembers it: when the
 * next shot's own first contact gives the same foul, no second line is
 * written (the ruling lists it); when it does not, the ruling is followed
 * by a `warning` (code `early_call_withdrawn`). Else returns 0 and nothing
 * changes; CR_ERR_INVALID on bad arguments. */
int cr_judge_early_contact(cr_judge_t *j, const cr_event_t *inputs, int n_inputs, const cr_event_t *stroke,
                           const cr_event_t *contact, cr_event_t *out);

/* The cue ball pocketed, called from the newest frames (cr_early.h) before
 * the reconstruction's `pocket` line reaches the engine: judged in the open
 * shot only (its stroke fed, the cue ball not pocketed yet in it), on a
 * copy of the engine. When it gives cue_ball_scratch (6.1) the foul line
 * goes to *out (marked early) and 1 is returned; the shot's own
 * `pocket` of the cue ball confirms it (no second line), else a `warning`
 * early_call_withdrawn follows the ruling. Else 0; CR_ERR_INVALID on bad
 * arguments. */
int cr_judge_early_pocket(cr_judge_t *j, const cr_event_t *pocket, cr_event_t *out);

/* The last error message; "" when none. */
const char *cr_judge_error(const cr_judge_t *j);

/* WPA rule number for a foul code ("6.2", "3.3", ...); "" for unknown. */
const char *cr_rules_foul_rule(const char *code, cr_game_t game);

#ifdef __cplusplus
}
#endif

#endif /* CR_RULES_H */
