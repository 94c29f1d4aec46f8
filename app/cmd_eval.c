/*
 * cmd_eval.c - `cueref eval --truth TRUTH.jsonl --events EVENTS.jsonl
 * [--positions POS.csv]`: scores an event stream against ground truth
 * (SPEC §4) and prints the metrics as one JSON object on stdout, then a
 * readable table on stderr (unless --json-only). Exit 0 whenever the metrics
 * were computed, 1 for a missing or malformed file (FILE:LINE), 2 for a
 * usage error. The scoring is sim/cr_eval.h; docs/EVAL.md defines every
 * metric.
 *
 * Positions: --positions (alias --truth-positions) names the ground truth
 * positions.csv (SPEC §4); the candidate's positions are the `balls` lines
 * of EVENTS.jsonl, or --candidate-positions CAND.csv in the same format.
 *
 * The JSON object, keys always present and in this order (ratios and times
 * are null when undefined, e.g. precision with no candidate events; times in
 * ms rounded to 0.001, lengths in mm to 0.001, ratios to 1e-6):
 *
 *   "version": 1,
 *   "inputs": {"truth", "events", "truth_positions", "candidate_positions"}
 *             paths; the last two null when not given ("candidate_positions"
 *             null with truth positions given means the events' balls lines),
 *   "fps": frames per second used (truth session, else 60),
 *   "types": {"stroke", "collision", "cushion", "pocket", "off_table",
 *             "disturbed", "placed", "rest", "foul"}, each
 *             {"truth", "candidate", "tp", "fp", "fn", "precision", "recall",
 *              "identity_errors", "timed_off" (collisions and cushions:
 *              unmatched pairs of one key within 0.1 s, found but timed
 *              outside the window; 0 for the others), "window_ms",
 *              "timing_ms": {"median", "p95", "max", "mean", "bias"}},
 *             (timing over matched pairs: |candidate t - truth t|; bias is
 *             the mean signed candidate - truth),
 *   "first_contact": {"shots", "correct", "accuracy",
 *             "wrong": [{"shot", "t", "truth", "candidate", "stroke_matched"}],
 *             "close_calls": {"shots", "correct", "accuracy",
 *                 "list": [{"shot", "t", "first", "second", "gap_ms",
 *                           "candidate", "correct"}]}}
 *             ("truth"/"candidate" balls: null = no cue-ball contact or no
 *             matched stroke, -1 = unidentified),
 *   "fouls_by_code": {CODE: {"truth", "candidate", "tp", "fp", "fn",
 *             "precision", "recall"}, ...} codes sorted,
 *   "pockets_by_shot": {"truth", "found", "false"} (a truth pocket found when
 *             the candidate's matched shot pockets its ball in its pocket at
 *             any time; false: candidate pockets none accounts for),
 *   "rulings": null, or {"truth", "candidate", "compared", "agree", "share",
 *             "legal", "next_player", "ball_in_hand", "game_over",
 *             "turn", "outcome", "outcome_share" (each shot's own outcome:
 *             legal, shooter stays or not, ball in hand, game over; free of
 *             the player numbers, which one wrong call swaps for the rack),
 *             "disagree_shots": [truth shot indexes]},
 *   "positions": null, or {"frames", "frames_matched", "truth_visible",
 *             "detected", "identity_correct", "candidate_balls",
 *             "candidate_near_truth", "unidentified", "candidate_held",
 *             "held_near_truth", "misnamed", "swap_frames", "swaps",
 *             "detection_recall",
 *             "detection_precision", "identity_accuracy",
 *             "error_mm": {"n", "median", "p95", "max"},
 *             "resting", "moving": the same for each class,
 *             "by_ball": [{"id", "truth_visible", "detected",
 *             "identity_correct", "resting_visible", "resting_detected",
 *             "detection_recall", "identity_accuracy", "resting_recall"}]
 *             (numbers with visible truth balls only)},
 *   "unmatched": [{"type", "missed", "in_break", "t", "shot", key fields,
 *             "nearest_ms"}] the events of the keyed types (collision,
 *             cushion, pocket, off_table, disturbed, placed, foul) that no event
 *             of the other side matched, in time order: "missed" true for a
 *             truth event (a fn), false for a candidate event (a fp);
 *             "in_break" inside a truth break cluster (collisions and
 *             cushions); key fields "a", "b" (collision), "ball" and "rail"
 *             (cushion), "ball" and "pocket" (pocket), "code" (foul), "ball"
 *             (the others);
 *             "nearest_ms" the other side's nearest event with the same key,
 *             its time minus this one's (null when none within 1 s): a
 *             contact found but timed outside the window shows as a miss
 *             and a false event a few ms apart; "approach_mm_s"
 *             (collisions and cushions) how fast the truth balls closed
 *             on the contact over the last two truth frames before it (a
 *             cushion's ball toward its rail, two balls toward each other;
 *             null without --positions).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cr_eval.h"
#include "cr_jsonl.h"

#define CR_EVAL_JSON_VERSION 1
#define CR_EVAL_MAX_WINDOW_S 60.0
/* The text lists the balls whose recall or identity falls under this. */
#define POS_BALL_OK 0.99

static void eval_usage(FILE *f)
{
    fprintf(f,
            "usage: cueref eval --truth TRUTH.jsonl --events EVENTS.jsonl [options]\n"
            "Scores an event stream against ground truth (SPEC §4) and prints the metrics as one\n"
            "JSON object on stdout and a readable table on stderr (docs/EVAL.md). '-' reads stdin.\n\n"
            "options:\n"
            "  --truth FILE                the ground truth event stream (cueref sim's truth.jsonl)\n"
            "  --events FILE               the event stream to score (cueref review's events.jsonl)\n"
            "  --positions FILE            the ground truth positions.csv: also score ball positions\n"
            "                              against the balls lines of --events\n"
            "  --truth-positions FILE      the same as --positions\n"
            "  --candidate-positions FILE  score these positions (same CSV format) instead of the\n"
            "                              balls lines\n"
            "  --window-collision S        match window for collisions and cushions, seconds\n"
            "                              (default one frame period, 1/fps)\n"
            "  --window-pocket S           match window for pockets, seconds (default 0.25)\n"
            "  --window TYPE=S             match window for one type: stroke, collision, cushion,\n"
            "                              pocket, off_table, disturbed, placed, rest, foul\n"
            "  --list                      the table also lists every unmatched collision, cushion,\n"
            "                              pocket, off_table and foul line (always in the JSON)\n"
            "  --json-only                 no table on stderr\n"
            "  -h, --help                  this help\n\n"
            "Exit codes: 0 the metrics were computed, 1 a file is missing or malformed, 2 usage.\n");
}

typedef struct {
    const char *truth, *events;
    const char *truth_pos, *cand_pos;
    bool json_only;
    bool list; /* --list: the unmatched events in the table */
    cr_eval_params_t params;
} eval_opts_t;

/* Reads a whole stream into the scorer (balls lines go to pos when pos is
 * not NULL, and are dropped otherwise). Returns an exit code; errors
 * printed. */
static int read_stream(const char *path, cr_eval_t *e, bool truth, cr_eval_positions_t *pos)
{
    cr_jsonl_reader_t *rd = NULL;
    cr_event_t *ev = malloc(sizeof(*ev));
    int st, rc = CR_EXIT_FAIL;

    if (!ev) {
        cr_cli_error("out of memory");
        return CR_EXIT_FAIL;
    }
    if (cr_jsonl_reader_open(path, &rd) != CR_OK) {
        cr_cli_error("%s: cannot open: %s", path, strerror(errno));
        goto done;
    }
    for (;;) {
        st = cr_jsonl_reader_next(rd, ev);
        if (st == 0)
            break;
        if (st < 0) {
            cr_cli_error("%s", cr_jsonl_reader_error(rd));
            goto done;
        }
        if (ev->type == CR_EV_BALLS)
            st = pos ? cr_eval_positions_add_balls(pos, ev) : CR_OK;
        else
            st = cr_eval_add(e, truth, ev);
        if (st != CR_OK) {
            cr_cli_error("%s:%ld: %s", path, cr_jsonl_reader_line(rd),
                         st == CR_ERR_NOMEM ? "out of memory" : cr_status_str(st));
            goto done;
        }
    }
    rc = CR_EXIT_OK;
done:
    cr_jsonl_reader_destroy(rd);
    free(ev);
    return rc;
}

/* Reads a positions CSV into pos. Returns an exit code; errors printed. */
static int read_csv(const char *path, cr_eval_positions_t *pos)
{
    FILE *f;
    char *line = NULL, err[512];
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    int rc = CR_EXIT_FAIL, st;

    f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        cr_cli_error("%s: cannot open: %s", path, strerror(errno));
        return CR_EXIT_FAIL;
    }
    errno = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (n > 0 && line[n - 1] == '\n')
            n--;
        if (memchr(line, '\0', (size_t)n)) {
            cr_cli_error("%s:%ld: NUL byte in the line", path, lineno);
            goto done;
        }
        st = cr_eval_positions_add_csv_line(pos, line, (size_t)n, err, sizeof(err));
        if (st == CR_ERR_NOMEM) {
            cr_cli_error("%s:%ld: out of memory", path, lineno);
            goto done;
        }
        if (st != CR_OK) {
            cr_cli_error("%s:%ld: %s", path, lineno, err);
            goto done;
        }
    }
    if (ferror(f)) {
        cr_cli_error("%s:%ld: read error: %s", path, lineno + 1, strerror(errno ? errno : EIO));
        goto done;
    }
    if (cr_eval_positions_csv_end(pos, err, sizeof(err)) != CR_OK) {
        cr_cli_error("%s:%ld: %s", path, lineno + 1, err);
        goto done;
    }
    rc = CR_EXIT_OK;
done:
    free(line);
    if (f != stdin)
        fclose(f);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* JSON (jansson)                                                          */

/* A real rounded to 1/scale, or null when not finite. */
static json_t *jnum(double v, double scale)
{
    double r;

    if (!isfinite(v))
        return json_null();
    r = round(v * scale) / scale;
    return json_real(r == 0.0 ? 0.0 : r); /* no "-0.0" */
}

/* A ball id, or null for CR_EVAL_NONE. */
static json_t *jball(int id)
{
    return id == CR_EVAL_NONE ? json_null() : json_integer(id);
}

static json_t *jstr_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

#define RATIO 1e6 /* ratios to 1e-6 */
#define MS 1e3    /* ms to 0.001 */
#define MM 1e3    /* mm to 0.001 */

/* Sets key to v in obj; returns non-zero on failure (v NULL or no memory). */
static int jset(json_t *obj, const char *key, json_t *v)
{
    return json_object_set_new(obj, key, v) != 0;
}

static json_t *json_counts(const cr_eval_counts_t *k, bool full)
{
    json_t *o = json_object(), *tm;
    int bad = !o;

    if (bad)
        return NULL;
    bad |= jset(o, "truth", json_integer(k->n_truth));
    bad |= jset(o, "candidate", json_integer(k->n_candidate));
    bad |= jset(o, "tp", json_integer(k->tp));
    bad |= jset(o, "fp", json_integer(k->fp));
    bad |= jset(o, "fn", json_integer(k->fn));
    bad |= jset(o, "precision", jnum(k->precision, RATIO));
    bad |= jset(o, "recall", jnum(k->recall, RATIO));
    if (full) {
        bad |= jset(o, "identity_errors", json_integer(k->identity_errors));
        bad |= jset(o, "timed_off", json_integer(k->timed_off));
        bad |= jset(o, "window_ms", jnum(k->window_s * 1000.0, MS));
        tm = json_object();
        bad |= jset(o, "timing_ms", tm);
        if (tm) {
            bad |= jset(tm, "median", jnum(k->dt_median_ms, MS));
            bad |= jset(tm, "p95", jnum(k->dt_p95_ms, MS));
            bad |= jset(tm, "max", jnum(k->dt_max_ms, MS));
            bad |= jset(tm, "mean", jnum(k->dt_mean_ms, MS));
            bad |= jset(tm, "bias", jnum(k->dt_bias_ms, MS));
        }
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *json_first_contact(const cr_eval_result_t *r)
{
    json_t *o = json_object(), *wrong = json_array(), *cc = json_object(), *list = json_array();
    int bad = !o || !wrong || !cc || !list, i;

    if (bad) {
        json_decref(o);
        json_decref(wrong);
        json_decref(cc);
        json_decref(list);
        return NULL;
    }
    bad |= jset(o, "shots", json_integer(r->shots));
    bad |= jset(o, "correct", json_integer(r->shots_correct));
    bad |= jset(o, "accuracy", jnum(r->first_contact_accuracy, RATIO));
    for (i = 0; i < r->n_wrong && !bad; i++) {
        const cr_eval_contact_t *w = &r->wrong[i];
        json_t *e = json_object();

        bad |= json_array_append_new(wrong, e) != 0;
        if (!e)
            break;
        bad |= jset(e, "shot", json_integer(w->shot));
        bad |= jset(e, "t", jnum(w->t, 1e6));
        bad |= jset(e, "truth", jball(w->truth_ball));
        bad |= jset(e, "candidate", jball(w->candidate_ball));
        bad |= jset(e, "stroke_matched", json_boolean(w->stroke_matched));
    }
    bad |= jset(o, "wrong", wrong);
    bad |= jset(cc, "shots", json_integer(r->n_close_calls));
    bad |= jset(cc, "correct", json_integer(r->close_calls_correct));
    bad |= jset(cc, "accuracy", jnum(r->n_close_calls ? (double)r->close_calls_correct / r->n_close_calls : NAN, RATIO));
    for (i = 0; i < r->n_close_calls && !bad; i++) {
        const cr_eval_close_call_t *c = &r->close_calls[i];
        json_t *e = json_object();

        bad |= json_array_append_new(list, e) != 0;
        if (!e)
            break;
        bad |= jset(e, "shot", json_integer(c->shot));
        bad |= jset(e, "t", jnum(c->t, 1e6));
        bad |= jset(e, "first", jball(c->first));
        bad |= jset(e, "second", jball(c->second));
        bad |= jset(e, "gap_ms", jnum(c->gap_ms, MS));
        bad |= jset(e, "candidate", jball(c->candidate_ball));
        bad |= jset(e, "correct", json_boolean(c->correct));
    }
    bad |= jset(cc, "list", list);
    bad |= jset(o, "close_calls", cc);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *json_rulings(const cr_eval_rulings_t *g)
{
    json_t *o, *ds;
    int bad, i;

    if (!g->present)
        return json_null();
    o = json_object();
    ds = json_array();
    bad = !o || !ds;
    if (bad) {
        json_decref(o);
        json_decref(ds);
        return NULL;
    }
    bad |= jset(o, "truth", json_integer(g->truth_rulings));
    bad |= jset(o, "candidate", json_integer(g->candidate_rulings));
    bad |= jset(o, "compared", json_integer(g->compared));
    bad |= jset(o, "agree", json_integer(g->agree));
    bad |= jset(o, "share", jnum(g->share, RATIO));
    bad |= jset(o, "legal", json_integer(g->agree_legal));
    bad |= jset(o, "next_player", json_integer(g->agree_next_player));
    bad |= jset(o, "ball_in_hand", json_integer(g->agree_ball_in_hand));
    bad |= jset(o, "game_over", json_integer(g->agree_game_over));
    bad |= jset(o, "turn", json_integer(g->agree_turn));
    bad |= jset(o, "outcome", json_integer(g->agree_outcome));
    bad |= jset(o, "outcome_share", jnum(g->outcome_share, RATIO));
    for (i = 0; i < g->n_disagree; i++)
        bad |= json_array_append_new(ds, json_integer(g->disagree_shots[i])) != 0;
    bad |= jset(o, "disagree_shots", ds);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* One class of truth balls (resting, moving); NULL when out of memory. */
static json_t *pos_class_json(const cr_eval_pos_class_t *c)
{
    json_t *o = json_object(), *e = json_object();
    int bad = !o || !e;

    if (bad) {
        json_decref(o);
        json_decref(e);
        return NULL;
    }
    bad |= jset(o, "truth_visible", json_integer(c->truth_visible));
    bad |= jset(o, "detected", json_integer(c->detected));
    bad |= jset(o, "identity_correct", json_integer(c->identity_correct));
    bad |= jset(o, "detection_recall", jnum(c->detection_recall, RATIO));
    bad |= jset(o, "identity_accuracy", jnum(c->identity_accuracy, RATIO));
    bad |= jset(e, "n", json_integer(c->n_errors));
    bad |= jset(e, "median", jnum(c->err_median_mm, MM));
    bad |= jset(e, "p95", jnum(c->err_p95_mm, MM));
    bad |= jset(e, "max", jnum(c->err_max_mm, MM));
    bad |= jset(o, "error_mm", e);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *json_positions(const cr_eval_positions_result_t *g)
{
    json_t *o, *e;
    int bad;

    if (!g->present)
        return json_null();
    o = json_object();
    e = json_object();
    bad = !o || !e;
    if (bad) {
        json_decref(o);
        json_decref(e);
        return NULL;
    }
    bad |= jset(o, "frames", json_integer(g->frames));
    bad |= jset(o, "frames_matched", json_integer(g->frames_matched));
    bad |= jset(o, "truth_visible", json_integer(g->truth_visible));
    bad |= jset(o, "detected", json_integer(g->detected));
    bad |= jset(o, "identity_correct", json_integer(g->identity_correct));
    bad |= jset(o, "candidate_balls", json_integer(g->candidate_balls));
    bad |= jset(o, "candidate_near_truth", json_integer(g->candidate_near_truth));
    bad |= jset(o, "unidentified", json_integer(g->unidentified));
    bad |= jset(o, "candidate_held", json_integer(g->candidate_held));
    bad |= jset(o, "held_near_truth", json_integer(g->held_near_truth));
    bad |= jset(o, "misnamed", json_integer(g->misnamed));
    bad |= jset(o, "swap_frames", json_integer(g->swap_frames));
    bad |= jset(o, "swaps", json_integer(g->swaps));
    bad |= jset(o, "detection_recall", jnum(g->detection_recall, RATIO));
    bad |= jset(o, "detection_precision", jnum(g->detection_precision, RATIO));
    bad |= jset(o, "identity_accuracy", jnum(g->identity_accuracy, RATIO));
    bad |= jset(e, "n", json_integer(g->n_errors));
    bad |= jset(e, "median", jnum(g->err_median_mm, MM));
    bad |= jset(e, "p95", jnum(g->err_p95_mm, MM));
    bad |= jset(e, "max", jnum(g->err_max_mm, MM));
    bad |= jset(o, "error_mm", e);
    bad |= jset(o, "resting", pos_class_json(&g->resting));
    bad |= jset(o, "moving", pos_class_json(&g->moving));
    {
        json_t *arr = json_array();

        bad |= !arr;
        for (int id = 0; arr && id < CR_NUM_BALLS; id++) {
            const cr_eval_pos_ball_t *pb = &g->by_ball[id];
            json_t *q;

            if (pb->truth_visible == 0)
                continue;
            q = json_object();
            bad |= !q || json_array_append_new(arr, q) != 0;
            if (!q)
                continue;
            bad |= jset(q, "id", json_integer(id));
            bad |= jset(q, "truth_visible", json_integer(pb->truth_visible));
            bad |= jset(q, "detected", json_integer(pb->detected));
            bad |= jset(q, "identity_correct", json_integer(pb->identity_correct));
            bad |= jset(q, "resting_visible", json_integer(pb->resting_visible));
            bad |= jset(q, "resting_detected", json_integer(pb->resting_detected));
            bad |= jset(q, "detection_recall", jnum(pb->detection_recall, RATIO));
            bad |= jset(q, "identity_accuracy", jnum(pb->identity_accuracy, RATIO));
            bad |= jset(q, "resting_recall", jnum(pb->resting_recall, RATIO));
        }
        bad |= jset(o, "by_ball", arr);
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The key fields of an unmatched event, as the stream names them. */
static int json_unmatched_key(json_t *e, const cr_eval_unmatched_t *u)
{
    switch (u->type) {
    case CR_EV_COLLISION:
        return jset(e, "a", jball(u->k1)) | jset(e, "b", jball(u->k2));
    case CR_EV_CUSHION:
        return jset(e, "ball", jball(u->k1)) | jset(e, "rail", json_string(cr_rail_name((cr_rail_t)u->k2)));
    case CR_EV_POCKET:
        return jset(e, "ball", jball(u->k1)) | jset(e, "pocket", json_string(cr_pocket_name((cr_pocket_t)u->k2)));
    case CR_EV_FOUL:
        return jset(e, "code", json_string(u->code));
    default:
        return jset(e, "ball", jball(u->k1));
    }
}

static json_t *json_unmatched(const cr_eval_result_t *r)
{
    json_t *a = json_array();
    int i, bad = !a;

    for (i = 0; i < r->n_unmatched && !bad; i++) {
        const cr_eval_unmatched_t *u = &r->unmatched[i];
        json_t *e = json_object();

        bad |= !e;
        if (!e)
            break;
        bad |= jset(e, "type", json_string(cr_event_type_name(u->type)));
        bad |= jset(e, "missed", json_boolean(u->missed));
        bad |= jset(e, "in_break", json_boolean(u->in_break));
        bad |= jset(e, "t", jnum(u->t, 1e6));
        bad |= jset(e, "shot", u->shot >= 0 ? json_integer(u->shot) : json_null());
        bad |= json_unmatched_key(e, u);
        bad |= jset(e, "nearest_ms", jnum(u->nearest_ms, 1e3));
        if (u->type == CR_EV_COLLISION || u->type == CR_EV_CUSHION)
            bad |= jset(e, "approach_mm_s", jnum(u->approach_mm_s, 10.0));
        bad |= json_array_append_new(a, e) != 0;
    }
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* The whole object (NULL when out of memory). */
static json_t *json_result(const eval_opts_t *o, const cr_eval_result_t *r)
{
    json_t *root = json_object(), *in = json_object(), *types = json_object(), *codes = json_object();
    int bad = !root || !in || !types || !codes, i;

    if (bad) {
        json_decref(root);
        json_decref(in);
        json_decref(types);
        json_decref(codes);
        return NULL;
    }
    bad |= jset(root, "version", json_integer(CR_EVAL_JSON_VERSION));
    bad |= jset(in, "truth", json_string(o->truth));
    bad |= jset(in, "events", json_string(o->events));
    bad |= jset(in, "truth_positions", jstr_or_null(o->truth_pos));
    bad |= jset(in, "candidate_positions", jstr_or_null(o->cand_pos));
    bad |= jset(root, "inputs", in);
    bad |= jset(root, "fps", jnum(r->fps, 1e6));
    for (i = 0; i < CR_EVAL_N_TYPES; i++) {
        const cr_event_type_t ty = cr_eval_types[i];
        json_t *k = json_counts(&r->types[ty], true);

        if (k && (ty == CR_EV_COLLISION || ty == CR_EV_CUSHION))
            bad |= jset(k, "outside_break", json_counts(&r->outside_break[ty], true));
        bad |= jset(types, cr_event_type_name(ty), k);
    }
    bad |= jset(root, "types", types);
    bad |= jset(root, "first_contact", json_first_contact(r));
    for (i = 0; i < r->n_codes; i++)
        bad |= jset(codes, r->codes[i].code, json_counts(&r->codes[i].counts, false));
    bad |= jset(root, "fouls_by_code", codes);
    bad |= jset(root, "rulings", json_rulings(&r->rulings));
    {
        json_t *pb = json_object();

        bad |= !pb;
        if (pb) {
            bad |= jset(pb, "truth", json_integer(r->pockets_truth));
            bad |= jset(pb, "found", json_integer(r->pockets_in_shot));
            bad |= jset(pb, "false", json_integer(r->pockets_false_in_shot));
        }
        bad |= jset(root, "pockets_by_shot", pb);
    }
    bad |= jset(root, "positions", json_positions(&r->positions));
    bad |= jset(root, "unmatched", json_unmatched(r));
    if (bad) {
        json_decref(root);
        return NULL;
    }
    return root;
}

/* ---------------------------------------------------------------------- */
/* The table on stderr                                                     */

/* A ratio as "0.833" or "-" when undefined. */
static const char *fmt_ratio(double v, char buf[16])
{
    if (!isfinite(v))
        return "-";
    snprintf(buf, 16, "%.3f", v);
    return buf;
}

static const char *fmt_ms(double v, char buf[16])
{
    if (!isfinite(v))
        return "-";
    snprintf(buf, 16, "%.1f", v);
    return buf;
}

static const char *fmt_ball(int id, char buf[16])
{
    if (id == CR_EVAL_NONE)
        return "none";
    snprintf(buf, 16, "%d", id);
    return buf;
}

/* --list: every unmatched contact, pocket, off-table and foul line, a line each. */
static void print_unmatched(FILE *f, const cr_eval_result_t *r)
{
    char a[CR_CODE_LEN + 8], b[32], near[32], appr[48];
    int i, n = 0;

    for (i = 0; i < r->n_unmatched; i++) {
        const cr_eval_unmatched_t *u = &r->unmatched[i];
        const char *what;

        if (u->type != CR_EV_COLLISION && u->type != CR_EV_CUSHION && u->type != CR_EV_POCKET &&
            u->type != CR_EV_OFF_TABLE && u->type != CR_EV_FOUL)
            continue;
        if (n++ == 0)
            fprintf(f, "unmatched (missed: a truth event no candidate matched; false: a candidate event no truth "
                       "event matched):\n");
        if (isfinite(u->nearest_ms))
            snprintf(near, sizeof near, "%+.1f ms", u->nearest_ms);
        else
            snprintf(near, sizeof near, "none");
        what = u->type == CR_EV_CUSHION  ? cr_rail_name((cr_rail_t)u->k2)
               : u->type == CR_EV_POCKET ? cr_pocket_name((cr_pocket_t)u->k2)
                                         : NULL;
        snprintf(a, sizeof a, "%d", u->k1);
        if (u->type == CR_EV_FOUL)
            snprintf(a, sizeof a, "%s", u->code), b[0] = '\0';
        else if (u->type == CR_EV_COLLISION)
            snprintf(b, sizeof b, "-%d", u->k2);
        else
            snprintf(b, sizeof b, "%s%s", what ? " " : "", what ? what : "");
        appr[0] = '\0';
        if (isfinite(u->approach_mm_s))
            snprintf(appr, sizeof appr, "; approach %.0f mm/s", round(u->approach_mm_s) + 0.0); /* no "-0" */
        fprintf(f, "  %-6s %-9s %12.3f s  shot %-4d %s%-14s%s  nearest same-key on the other side: %s%s\n",
                u->missed ? "missed" : "false", cr_event_type_name(u->type), u->t, u->shot, a, b,
                u->in_break ? "  (break)" : "", near, appr);
    }
}

static void print_table(FILE *f, const eval_opts_t *o, const cr_eval_result_t *r)
{
    char a[16], b[16], c[16], d[16], e[16];
    int i;

    fprintf(f, "cueref eval: %s against %s (%.6g fps)\n", o->events, o->truth, r->fps);
    fprintf(f, "%-10s %6s %6s %6s %6s %6s %9s %7s %7s %6s %9s %8s %8s %8s\n", "type", "truth", "cand", "tp", "fp",
            "fn", "precision", "recall", "id-err", "timed", "window", "dt med", "dt p95", "dt max");
    for (i = 0; i < CR_EVAL_N_TYPES; i++) {
        const cr_event_type_t ty = cr_eval_types[i];
        const bool contact = ty == CR_EV_COLLISION || ty == CR_EV_CUSHION;
        const cr_eval_counts_t *k = &r->types[ty];
        char to[16] = "";

        if (contact)
            snprintf(to, sizeof to, "%d", k->timed_off);
        fprintf(f, "%-10s %6d %6d %6d %6d %6d %9s %7s %7d %6s %6.1f ms %8s %8s %8s\n", cr_event_type_name(ty),
                k->n_truth, k->n_candidate, k->tp, k->fp, k->fn, fmt_ratio(k->precision, a),
                fmt_ratio(k->recall, b), k->identity_errors, to, k->window_s * 1000.0, fmt_ms(k->dt_median_ms, c),
                fmt_ms(k->dt_p95_ms, d), fmt_ms(k->dt_max_ms, e));
        if (contact) {
            k = &r->outside_break[ty];
            snprintf(to, sizeof to, "%d", k->timed_off);
            fprintf(f, "%-10s %6d %6d %6d %6d %6d %9s %7s %7s %6s %9s %8s %8s %8s\n", " no break", k->n_truth,
                    k->n_candidate, k->tp, k->fp, k->fn, fmt_ratio(k->precision, a), fmt_ratio(k->recall, b), "",
                    to, "", fmt_ms(k->dt_median_ms, c), fmt_ms(k->dt_p95_ms, d), fmt_ms(k->dt_max_ms, e));
        }
    }
    fprintf(f, "timing errors in ms (|candidate - truth| over matched pairs); \"no break\": outside the truth's "
               "break clusters; \"timed\": contacts found but timed outside the window (within %.0f ms), each "
               "also a fp and a fn\n",
            1000.0 * CR_EVAL_TIMED_OFF_S);
    if (o->list)
        print_unmatched(f, r);
    fprintf(f, "pockets by shot (the ball in the same pocket in the matched shot, at any time): %d of %d, %d false\n\n",
            r->pockets_in_shot, r->pockets_truth, r->pockets_false_in_shot);

    fprintf(f, "first contact: %d of %d shots correct (%s)\n", r->shots_correct, r->shots,
            fmt_ratio(r->first_contact_accuracy, a));
    for (i = 0; i < r->n_wrong; i++) {
        const cr_eval_contact_t *w = &r->wrong[i];

        fprintf(f, "  shot %d at %.3f s: truth %s, candidate %s%s\n", w->shot, w->t, fmt_ball(w->truth_ball, a),
                fmt_ball(w->candidate_ball, b), w->stroke_matched ? "" : " (no matching stroke)");
    }
    fprintf(f, "close calls (first two cue-ball contacts 2-30 ms apart): %d of %d correct\n", r->close_calls_correct,
            r->n_close_calls);
    for (i = 0; i < r->n_close_calls; i++) {
        const cr_eval_close_call_t *cc = &r->close_calls[i];

        fprintf(f, "  shot %d at %.3f s: %s then %s %.1f ms later; candidate %s: %s\n", cc->shot, cc->t,
                fmt_ball(cc->first, a), fmt_ball(cc->second, b), cc->gap_ms, fmt_ball(cc->candidate_ball, c),
                cc->correct ? "right" : "wrong");
    }
    if (r->n_codes) {
        fprintf(f, "\nfouls by code:\n");
        for (i = 0; i < r->n_codes; i++) {
            const cr_eval_counts_t *k = &r->codes[i].counts;

            fprintf(f, "  %-34s truth %3d  cand %3d  tp %3d  precision %s  recall %s\n", r->codes[i].code, k->n_truth,
                    k->n_candidate, k->tp, fmt_ratio(k->precision, a), fmt_ratio(k->recall, b));
        }
    }
    if (r->rulings.present) {
        fprintf(f, "\nrulings: %d of %d compared shots agree (%s): legal %d, next player %d, ball in hand %d, "
                   "game over %d\n",
                r->rulings.agree, r->rulings.compared, fmt_ratio(r->rulings.share, a), r->rulings.agree_legal,
                r->rulings.agree_next_player, r->rulings.agree_ball_in_hand, r->rulings.agree_game_over);
        fprintf(f, "shot outcomes (legal, shooter stays, ball in hand, game over; no cascade): %d of %d (%s), "
                   "shooter stays %d\n",
                r->rulings.agree_outcome, r->rulings.compared, fmt_ratio(r->rulings.outcome_share, b),
                r->rulings.agree_turn);
    }
    if (r->positions.present) {
        const cr_eval_positions_result_t *g = &r->positions;

        fprintf(f, "\npositions: %ld of %ld truth frames matched; error %s / %s / %s mm (median / p95 / max)\n",
                g->frames_matched, g->frames, fmt_ms(g->err_median_mm, a), fmt_ms(g->err_p95_mm, b),
                fmt_ms(g->err_max_mm, c));
        fprintf(f, "  detection recall %s, precision %s, identity accuracy %s, %ld unidentified\n",
                fmt_ratio(g->detection_recall, a), fmt_ratio(g->detection_precision, b),
                fmt_ratio(g->identity_accuracy, c), g->unidentified);
        if (g->candidate_held)
            fprintf(f, "  held hidden (not counted above): %ld, %ld of them where their ball is\n", g->candidate_held,
                    g->held_near_truth);
        fprintf(f, "  misnamed (a number on another ball): %ld; swaps (two balls with each other's number): %ld, "
                   "in %ld frames\n",
                g->misnamed, g->swaps, g->swap_frames);
        fprintf(f, "  resting: error %s / %s / %s mm, recall %s, identity %s\n", fmt_ms(g->resting.err_median_mm, a),
                fmt_ms(g->resting.err_p95_mm, b), fmt_ms(g->resting.err_max_mm, c),
                fmt_ratio(g->resting.detection_recall, d), fmt_ratio(g->resting.identity_accuracy, e));
        fprintf(f, "  moving:  error %s / %s / %s mm, recall %s, identity %s\n", fmt_ms(g->moving.err_median_mm, a),
                fmt_ms(g->moving.err_p95_mm, b), fmt_ms(g->moving.err_max_mm, c),
                fmt_ratio(g->moving.detection_recall, d), fmt_ratio(g->moving.identity_accuracy, e));
        {
            int weak = 0;

            for (int id = 0; id < CR_NUM_BALLS; id++) {
                const cr_eval_pos_ball_t *pb = &g->by_ball[id];

                if (pb->truth_visible == 0 || (pb->detection_recall >= POS_BALL_OK && pb->identity_accuracy >= POS_BALL_OK))
                    continue;
                if (weak++ == 0)
                    fprintf(f, "  balls under %.2f in recall or identity:\n", POS_BALL_OK);
                fprintf(f, "    %2d: %ld frames, recall %s (resting %s), identity %s\n", id, pb->truth_visible,
                        fmt_ratio(pb->detection_recall, a), fmt_ratio(pb->resting_recall, b),
                        fmt_ratio(pb->identity_accuracy, c));
            }
            if (weak == 0)
                fprintf(f, "  every ball %.2f or better in recall and identity\n", POS_BALL_OK);
        }
    }
}

/* ---------------------------------------------------------------------- */
/* The command                                                             */

/* A window in seconds: a finite number 0..60. */
static bool parse_seconds(const char *s, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || errno || !isfinite(v) || v < 0 || v > CR_EVAL_MAX_WINDOW_S)
        return false;
    *out = v;
    return true;
}

/* --window TYPE=S. */
static bool parse_type_window(char *arg, cr_eval_params_t *p)
{
    char *eq = strchr(arg, '=');
    int i, type;
    double v;

    if (!eq)
        return false;
    *eq = '\0';
    type = cr_event_type_parse(arg);
    *eq = '=';
    for (i = 0; i < CR_EVAL_N_TYPES; i++) {
        if ((int)cr_eval_types[i] == type)
            break;
    }
    if (i == CR_EVAL_N_TYPES || !parse_seconds(eq + 1, &v))
        return false;
    p->window_s[type] = v;
    return true;
}

/* Reads the inputs and scores them. Returns an exit code. */
static int eval_run(const eval_opts_t *o)
{
    cr_eval_t *e = NULL;
    cr_eval_positions_t *tpos = NULL, *cpos = NULL;
    cr_eval_result_t *res = NULL;
    json_t *root = NULL;
    char *text = NULL;
    int rc = CR_EXIT_FAIL, st;

    st = cr_eval_create(&o->params, &e);
    if (st != CR_OK || (o->truth_pos && (cr_eval_positions_create(true, &tpos) != CR_OK ||
                                         cr_eval_positions_create(false, &cpos) != CR_OK))) {
        cr_cli_error("%s", st == CR_ERR_INVALID ? "bad scoring parameters" : "out of memory");
        goto done;
    }
    rc = read_stream(o->truth, e, true, NULL);
    if (rc == CR_EXIT_OK)
        rc = read_stream(o->events, e, false, o->truth_pos && !o->cand_pos ? cpos : NULL);
    if (rc == CR_EXIT_OK && o->truth_pos)
        rc = read_csv(o->truth_pos, tpos);
    if (rc == CR_EXIT_OK && o->cand_pos)
        rc = read_csv(o->cand_pos, cpos);
    if (rc != CR_EXIT_OK)
        goto done;
    rc = CR_EXIT_FAIL;
    st = cr_eval_score(e, tpos, cpos, &res);
    if (st != CR_OK) {
        cr_cli_error("cannot score %s: %s", o->events, cr_status_str(st));
        goto done;
    }
    if (o->truth_pos && cr_eval_positions_frames(cpos) == 0)
        fprintf(stderr, "cueref: %s has no ball positions%s: no position is matched\n",
                o->cand_pos ? o->cand_pos : o->events,
                o->cand_pos ? "" : " (no balls lines: run review with --positions)");
    root = json_result(o, res);
    text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) : NULL;
    if (!text) {
        cr_cli_error("out of memory while writing the metrics");
        goto done;
    }
    if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
        cr_cli_error("cannot write the metrics to stdout: %s", strerror(errno));
        goto done;
    }
    if (!o->json_only)
        print_table(stderr, o, res);
    rc = CR_EXIT_OK;
done:
    free(text);
    json_decref(root);
    cr_eval_result_destroy(res);
    cr_eval_positions_destroy(tpos);
    cr_eval_positions_destroy(cpos);
    cr_eval_destroy(e);
    return rc;
}

int cr_cmd_eval(int argc, char **argv)
{
    enum { OPT_TRUTH = 256, OPT_EVENTS, OPT_POS, OPT_CPOS, OPT_WCOLL, OPT_WPOCKET, OPT_WINDOW, OPT_JSON, OPT_LIST };
    static const struct option longopts[] = {
        {"truth", required_argument, NULL, OPT_TRUTH},
        {"events", required_argument, NULL, OPT_EVENTS},
        {"positions", required_argument, NULL, OPT_POS},
        {"truth-positions", required_argument, NULL, OPT_POS},
        {"candidate-positions", required_argument, NULL, OPT_CPOS},
        {"window-collision", required_argument, NULL, OPT_WCOLL},
        {"window-pocket", required_argument, NULL, OPT_WPOCKET},
        {"window", required_argument, NULL, OPT_WINDOW},
        {"json-only", no_argument, NULL, OPT_JSON},
        {"list", no_argument, NULL, OPT_LIST},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    eval_opts_t o;
    double v;
    int c;

    memset(&o, 0, sizeof(o));
    cr_eval_params_defaults(&o.params);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_TRUTH:
            o.truth = optarg;
            break;
        case OPT_EVENTS:
            o.events = optarg;
            break;
        case OPT_POS:
            if (o.truth_pos) {
                cr_cli_error("eval: the truth positions are given twice (--positions and --truth-positions "
                             "are the same option; the candidate's CSV is --candidate-positions)");
                return CR_EXIT_USAGE;
            }
            o.truth_pos = optarg;
            break;
        case OPT_CPOS:
            o.cand_pos = optarg;
            break;
        case OPT_WCOLL:
            if (!parse_seconds(optarg, &v)) {
                cr_cli_error("eval: bad --window-collision '%s' (seconds, 0..60)", optarg);
                return CR_EXIT_USAGE;
            }
            o.params.window_s[CR_EV_COLLISION] = v;
            o.params.window_s[CR_EV_CUSHION] = v;
            break;
        case OPT_WPOCKET:
            if (!parse_seconds(optarg, &v)) {
                cr_cli_error("eval: bad --window-pocket '%s' (seconds, 0..60)", optarg);
                return CR_EXIT_USAGE;
            }
            o.params.window_s[CR_EV_POCKET] = v;
            break;
        case OPT_WINDOW:
            if (!parse_type_window(optarg, &o.params)) {
                cr_cli_error("eval: bad --window '%s' (TYPE=SECONDS, TYPE one of stroke, collision, cushion, "
                             "pocket, off_table, disturbed, placed, rest, foul)",
                             optarg);
                return CR_EXIT_USAGE;
            }
            break;
        case OPT_JSON:
            o.json_only = true;
            break;
        case OPT_LIST:
            o.list = true;
            break;
        case 'h':
            eval_usage(stdout);
            return CR_EXIT_OK;
        case ':':
            cr_cli_error("eval: option '%s' needs a value", argv[optind - 1]);
            return CR_EXIT_USAGE;
        default:
            cr_cli_error("eval: unknown option '%s' (see cueref eval --help)", argv[optind - 1]);
            return CR_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cr_cli_error("eval: unexpected argument '%s' (files are given with --truth and --events)", argv[optind]);
        return CR_EXIT_USAGE;
    }
    if (!o.truth || !o.events) {
        cr_cli_error("eval: give --truth TRUTH.jsonl and --events EVENTS.jsonl (see cueref eval --help)");
        return CR_EXIT_USAGE;
    }
    if (o.cand_pos && !o.truth_pos) {
        cr_cli_error("eval: --candidate-positions needs the truth positions (--positions POS.csv)");
        return CR_EXIT_USAGE;
    }
    {
        const char *in[4] = {o.truth, o.events, o.truth_pos, o.cand_pos};
        int i, n_stdin = 0;

        for (i = 0; i < 4; i++)
            n_stdin += in[i] && strcmp(in[i], "-") == 0;
        if (n_stdin > 1) {
            cr_cli_error("eval: only one input can be read from stdin ('-')");
            return CR_EXIT_USAGE;
        }
    }
    return eval_run(&o);
}
