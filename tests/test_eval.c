/*
 * test_eval.c - the scorer of `cueref eval` (sim/cr_eval.h): a 9-ball truth
 * stream of six shots (tests/data/eval/truth-9ball.jsonl) scored against
 * itself and against copies with one thing changed, each change moving
 * exactly the metrics it should; the matching's optimality on crafted
 * conflicts and against brute force; positions; the strict CSV reader.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "cr_eval.h"
#include "cr_event.h"
#include "cr_jsonl.h"
#include "test_suites.h"

#ifndef CR_TEST_DATA_DIR
#define CR_TEST_DATA_DIR "tests/data"
#endif

#define TRUTH_FILE CR_TEST_DATA_DIR "/eval/truth-9ball.jsonl"
#define EPS 1e-9
#define MS_EPS 1e-6 /* ms compared after float sums of seconds */

/* The fixture's contents (truth-9ball.jsonl). */
#define N_STROKES 6
#define N_COLLISIONS 9
#define N_CUSHIONS 9
#define N_POCKETS 4
#define N_RESTS 6
#define N_FOULS 4

static cr_event_t *g_truth;
static size_t g_n;

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */

static int load_truth(void)
{
    cr_jsonl_reader_t *rd = NULL;
    cr_event_t ev;
    size_t cap = 0;
    int st;

    if (cr_jsonl_reader_open(TRUTH_FILE, &rd) != CR_OK) {
        fprintf(stderr, "cannot open %s\n", TRUTH_FILE);
        return 1;
    }
    while ((st = cr_jsonl_reader_next(rd, &ev)) == 1) {
        if (g_n == cap) {
            cr_event_t *p;

            cap = cap ? cap * 2 : 64;
            p = realloc(g_truth, cap * sizeof(*p));
            if (!p) {
                cr_jsonl_reader_destroy(rd);
                return 1;
            }
            g_truth = p;
        }
        g_truth[g_n++] = ev;
    }
    if (st < 0)
        fprintf(stderr, "%s\n", cr_jsonl_reader_error(rd));
    cr_jsonl_reader_destroy(rd);
    return st < 0;
}

static int free_truth(void)
{
    free(g_truth);
    g_truth = NULL;
    g_n = 0;
    return 0;
}

/* A copy of the truth with room for `extra` more events. */
static cr_event_t *copy_truth(size_t extra)
{
    cr_event_t *c = malloc((g_n + extra) * sizeof(*c));

    if (c)
        memcpy(c, g_truth, g_n * sizeof(*c));
    return c;
}

/* Index of the event of a type at time t, or -1. */
static int find_event(const cr_event_t *evs, size_t n, cr_event_type_t type, double t)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (evs[i].type == type && fabs(evs[i].t - t) < EPS)
            return (int)i;
    }
    return -1;
}

/* Removes evs[i] (order kept). */
static void remove_event(cr_event_t *evs, size_t *n, int i)
{
    memmove(&evs[i], &evs[i + 1], (*n - (size_t)i - 1) * sizeof(*evs));
    (*n)--;
}

static cr_eval_result_t *score_with(const cr_eval_params_t *p, const cr_event_t *cand, size_t n)
{
    cr_eval_result_t *r = NULL;

    CU_ASSERT_EQUAL_FATAL(cr_eval_run(p, g_truth, g_n, cand, n, NULL, NULL, &r), CR_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    return r;
}

static cr_eval_result_t *score(const cr_event_t *cand, size_t n)
{
    return score_with(NULL, cand, n);
}

/* Two counts records equal in every field (NaN equal to NaN). */
static int same_num(double a, double b)
{
    return (isnan(a) && isnan(b)) || fabs(a - b) < 1e-9;
}

static int same_counts(const cr_eval_counts_t *a, const cr_eval_counts_t *b)
{
    return a->n_truth == b->n_truth && a->n_candidate == b->n_candidate && a->tp == b->tp && a->fp == b->fp &&
           a->fn == b->fn && a->identity_errors == b->identity_errors &&
           a->timed_off == b->timed_off && same_num(a->precision, b->precision) &&
           same_num(a->recall, b->recall) && same_num(a->dt_median_ms, b->dt_median_ms) &&
           same_num(a->dt_p95_ms, b->dt_p95_ms) && same_num(a->dt_max_ms, b->dt_max_ms) &&
           same_num(a->dt_mean_ms, b->dt_mean_ms) &&
           same_num(a->dt_bias_ms, b->dt_bias_ms) && same_num(a->window_s, b->window_s);
}

/* Every scored type other than `except` equal in a and b. */
static void assert_others_equal(const cr_eval_result_t *a, const cr_eval_result_t *b, cr_event_type_t except)
{
    int i;

    for (i = 0; i < CR_EVAL_N_TYPES; i++) {
        cr_event_type_t t = cr_eval_types[i];

        if (t == except)
            continue;
        if (!same_counts(&a->types[t], &b->types[t])) {
            fprintf(stderr, "\n  type %s changed\n", cr_event_type_name(t));
            CU_FAIL("a type that should not change did");
        }
    }
}

static const cr_eval_code_t *find_code(const cr_eval_result_t *r, const char *code)
{
    int i;

    for (i = 0; i < r->n_codes; i++) {
        if (strcmp(r->codes[i].code, code) == 0)
            return &r->codes[i];
    }
    return NULL;
}

/* A minimal event of a type at t. */
static cr_event_t make_event(cr_event_type_t type, double t)
{
    cr_event_t ev;

    cr_event_init(&ev, type);
    ev.t = t;
    ev.shot = 0;
    return ev;
}

/* ---------------------------------------------------------------------- */
/* Truth against itself                                                    */

static void test_perfect(void)
{
    static const struct {
        cr_event_type_t type;
        int n;
    } want[] = {
        {CR_EV_STROKE, N_STROKES}, {CR_EV_COLLISION, N_COLLISIONS}, {CR_EV_CUSHION, N_CUSHIONS},
        {CR_EV_POCKET, N_POCKETS}, {CR_EV_OFF_TABLE, 1},            {CR_EV_DISTURBED, 1},
        {CR_EV_PLACED, 2},         {CR_EV_REST, N_RESTS},          {CR_EV_FOUL, N_FOULS},
    };
    cr_eval_result_t *r = score(g_truth, g_n);
    size_t i;
    int k;

    CU_ASSERT_DOUBLE_EQUAL(r->fps, 60.0, EPS);
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const cr_eval_counts_t *c = &r->types[want[i].type];

        CU_ASSERT_EQUAL(c->n_truth, want[i].n);
        CU_ASSERT_EQUAL(c->n_candidate, want[i].n);
        CU_ASSERT_EQUAL(c->tp, want[i].n);
        CU_ASSERT_EQUAL(c->fp, 0);
        CU_ASSERT_EQUAL(c->fn, 0);
        CU_ASSERT_EQUAL(c->identity_errors, 0);
        CU_ASSERT_DOUBLE_EQUAL(c->precision, 1.0, EPS);
        CU_ASSERT_DOUBLE_EQUAL(c->recall, 1.0, EPS);
        CU_ASSERT_DOUBLE_EQUAL(c->dt_median_ms, 0.0, EPS);
        CU_ASSERT_DOUBLE_EQUAL(c->dt_p95_ms, 0.0, EPS);
        CU_ASSERT_DOUBLE_EQUAL(c->dt_max_ms, 0.0, EPS);
        CU_ASSERT_DOUBLE_EQUAL(c->dt_bias_ms, 0.0, EPS);
        CU_ASSERT_DOUBLE_EQUAL(c->dt_mean_ms, 0.0, EPS);
    }
    /* Default windows: one frame for contacts, 0.25 s for the rest. */
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_COLLISION].window_s, 1.0 / 60.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_CUSHION].window_s, 1.0 / 60.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_POCKET].window_s, 0.25, EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_REST].window_s, 0.25, EPS);

    CU_ASSERT_EQUAL(r->shots, N_STROKES);
    CU_ASSERT_EQUAL(r->shots_correct, N_STROKES);
    CU_ASSERT_DOUBLE_EQUAL(r->first_contact_accuracy, 1.0, EPS);
    CU_ASSERT_EQUAL(r->n_wrong, 0);
    CU_ASSERT_EQUAL(r->n_close_calls, 1);
    CU_ASSERT_EQUAL(r->close_calls_correct, 1);

    CU_ASSERT_EQUAL(r->n_codes, N_FOULS);
    for (k = 0; k < r->n_codes; k++) {
        CU_ASSERT_EQUAL(r->codes[k].counts.tp, 1);
        CU_ASSERT_DOUBLE_EQUAL(r->codes[k].counts.precision, 1.0, EPS);
        CU_ASSERT_DOUBLE_EQUAL(r->codes[k].counts.recall, 1.0, EPS);
        if (k > 0) /* sorted by code */
            CU_ASSERT_TRUE(strcmp(r->codes[k - 1].code, r->codes[k].code) < 0);
    }
    CU_ASSERT_FALSE(r->rulings.present); /* the fixture has no rulings */
    CU_ASSERT_FALSE(r->positions.present);
    cr_eval_result_destroy(r);
}

/* Nothing to score on either side: counts 0, ratios undefined. */
static void test_empty(void)
{
    cr_eval_result_t *r = NULL;
    int i;

    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, NULL, 0, NULL, 0, NULL, NULL, &r), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(r->fps, 60.0, EPS);
    for (i = 0; i < CR_EVAL_N_TYPES; i++) {
        CU_ASSERT_EQUAL(r->types[cr_eval_types[i]].tp, 0);
        CU_ASSERT_TRUE(isnan(r->types[cr_eval_types[i]].precision));
        CU_ASSERT_TRUE(isnan(r->types[cr_eval_types[i]].recall));
        CU_ASSERT_TRUE(isnan(r->types[cr_eval_types[i]].dt_median_ms));
    }
    CU_ASSERT_EQUAL(r->shots, 0);
    CU_ASSERT_TRUE(isnan(r->first_contact_accuracy));
    cr_eval_result_destroy(r);

    /* Bad arguments. */
    {
        cr_eval_params_t p;

        CU_ASSERT_EQUAL(cr_eval_run(NULL, NULL, 3, NULL, 0, NULL, NULL, &r), CR_ERR_INVALID);
        CU_ASSERT_EQUAL(cr_eval_run(NULL, g_truth, g_n, g_truth, g_n, NULL, NULL, NULL), CR_ERR_INVALID);
        cr_eval_params_defaults(&p);
        p.window_s[CR_EV_POCKET] = -1;
        CU_ASSERT_EQUAL(cr_eval_run(&p, g_truth, g_n, g_truth, g_n, NULL, NULL, &r), CR_ERR_INVALID);
        cr_eval_params_defaults(&p);
        p.fps = 0;
        CU_ASSERT_EQUAL(cr_eval_run(&p, g_truth, g_n, g_truth, g_n, NULL, NULL, &r), CR_ERR_INVALID);
    }
}

/* The object API: events fed one by one, candidate first, scored twice. */
static void test_object_api(void)
{
    cr_eval_t *e = NULL;
    cr_eval_result_t *r = NULL;
    cr_eval_params_t p;
    cr_event_t ev;
    size_t i;

    cr_eval_params_defaults(&p);
    p.match_radius_mm = 0;
    CU_ASSERT_EQUAL(cr_eval_create(&p, &e), CR_ERR_INVALID);
    CU_ASSERT_PTR_NULL(e);
    CU_ASSERT_EQUAL(cr_eval_create(NULL, NULL), CR_ERR_INVALID);
    CU_ASSERT_EQUAL_FATAL(cr_eval_create(NULL, &e), CR_OK);
    CU_ASSERT_EQUAL(cr_eval_add(e, true, NULL), CR_ERR_INVALID);
    for (i = g_n; i-- > 0;) /* candidate in reverse order */
        CU_ASSERT_EQUAL(cr_eval_add(e, false, &g_truth[i]), CR_OK);
    for (i = 0; i < g_n; i++)
        CU_ASSERT_EQUAL(cr_eval_add(e, true, &g_truth[i]), CR_OK);
    /* Ignored: a balls line, an input, a candidate session with another fps. */
    cr_event_init(&ev, CR_EV_BALLS);
    ev.t = 3.0;
    CU_ASSERT_EQUAL(cr_eval_add(e, false, &ev), CR_OK);
    cr_event_init(&ev, CR_EV_SESSION);
    ev.fps = 25;
    CU_ASSERT_EQUAL(cr_eval_add(e, false, &ev), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_eval_score(e, NULL, NULL, &r), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(r->fps, 60.0, EPS);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].tp, N_COLLISIONS);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].fp, 0);
    CU_ASSERT_EQUAL(r->shots_correct, N_STROKES);
    cr_eval_result_destroy(r);

    /* One more candidate collision: scored again. */
    ev = make_event(CR_EV_COLLISION, 45.0);
    ev.a = 0;
    ev.b = 6;
    CU_ASSERT_EQUAL(cr_eval_add(e, false, &ev), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_eval_score(e, NULL, NULL, &r), CR_OK);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].fp, 1);
    cr_eval_result_destroy(r);
    cr_eval_destroy(e);
    cr_eval_destroy(NULL);
}

/* ---------------------------------------------------------------------- */
/* One change at a time                                                    */

static void test_drop_collision(void)
{
    cr_event_t *c = copy_truth(0);
    size_t n = g_n;
    cr_eval_result_t *perfect = score(g_truth, g_n), *r;
    int i = find_event(c, n, CR_EV_COLLISION, 50.6); /* the 2 into the 9: not a first contact */

    CU_ASSERT_FATAL(i >= 0);
    remove_event(c, &n, i);
    r = score(c, n);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].tp, N_COLLISIONS - 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].fn, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].fp, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_COLLISION].recall, 1.0 - 1.0 / N_COLLISIONS, EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_COLLISION].precision, 1.0, EPS);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].identity_errors, 0);
    assert_others_equal(perfect, r, CR_EV_COLLISION);
    CU_ASSERT_EQUAL(r->shots_correct, perfect->shots_correct);
    CU_ASSERT_EQUAL(r->n_close_calls, perfect->n_close_calls);
    CU_ASSERT_EQUAL(r->close_calls_correct, perfect->close_calls_correct);
    cr_eval_result_destroy(r);
    cr_eval_result_destroy(perfect);
    free(c);
}

/* The unmatched events: a dropped collision is listed missed with no
 * same-pair event near it; a cushion moved outside its window is listed
 * twice (the truth's missed, the candidate's false), each with the other's
 * signed distance; a foul called under another code is a missed and a false
 * foul; a matched event is never listed. */
static void test_unmatched_list(void)
{
    cr_event_t *c = copy_truth(0);
    size_t n = g_n;
    cr_eval_result_t *r = score(g_truth, g_n);
    int i = find_event(c, n, CR_EV_COLLISION, 50.6), j;
    const cr_eval_unmatched_t *u;

    CU_ASSERT_EQUAL(r->n_unmatched, 0);
    cr_eval_result_destroy(r);
    CU_ASSERT_FATAL(i >= 0);
    remove_event(c, &n, i);
    j = find_event(c, n, CR_EV_CUSHION, 10.9); /* the cue ball into the foot rail */
    CU_ASSERT_FATAL(j >= 0);
    c[j].t += 0.040; /* beyond the 16.7 ms window */
    j = find_event(c, n, CR_EV_FOUL, 44.0); /* the no_contact called as another code */
    CU_ASSERT_FATAL(j >= 0);
    snprintf(c[j].code, sizeof c[j].code, "%s", "no_rail");
    r = score(c, n);
    CU_ASSERT_EQUAL_FATAL(r->n_unmatched, 5);
    CU_ASSERT_EQUAL(r->n_unmatched, r->types[CR_EV_COLLISION].fn + r->types[CR_EV_COLLISION].fp +
                                        r->types[CR_EV_CUSHION].fn + r->types[CR_EV_CUSHION].fp +
                                        r->types[CR_EV_FOUL].fn + r->types[CR_EV_FOUL].fp);
    /* in time order: the cushion's truth, its candidate, then the collision */
    u = &r->unmatched[0];
    CU_ASSERT_EQUAL(u->type, CR_EV_CUSHION);
    CU_ASSERT_TRUE(u->missed);
    CU_ASSERT_DOUBLE_EQUAL(u->t, 10.9, EPS);
    CU_ASSERT_EQUAL(u->shot, 1);
    CU_ASSERT_EQUAL(u->k1, 0);
    CU_ASSERT_EQUAL(u->k2, CR_RAIL_FOOT);
    CU_ASSERT_DOUBLE_EQUAL(u->nearest_ms, 40.0, MS_EPS);
    CU_ASSERT_FALSE(u->in_break);
    u = &r->unmatched[1];
    CU_ASSERT_EQUAL(u->type, CR_EV_CUSHION);
    CU_ASSERT_FALSE(u->missed);
    CU_ASSERT_DOUBLE_EQUAL(u->t, 10.94, EPS);
    CU_ASSERT_DOUBLE_EQUAL(u->nearest_ms, -40.0, MS_EPS);
    /* the foul: the truth's code missed, the candidate's false, neither
     * with a foul of its own code on the other side */
    u = &r->unmatched[2];
    CU_ASSERT_EQUAL(u->type, CR_EV_FOUL);
    CU_ASSERT_TRUE(u->missed);
    CU_ASSERT_STRING_EQUAL(u->code, "no_contact");
    CU_ASSERT_EQUAL(u->shot, 4);
    CU_ASSERT_TRUE(isnan(u->nearest_ms));
    u = &r->unmatched[3];
    CU_ASSERT_EQUAL(u->type, CR_EV_FOUL);
    CU_ASSERT_FALSE(u->missed);
    CU_ASSERT_STRING_EQUAL(u->code, "no_rail");
    CU_ASSERT_TRUE(isnan(u->nearest_ms));
    u = &r->unmatched[4];
    CU_ASSERT_EQUAL(u->type, CR_EV_COLLISION);
    CU_ASSERT_TRUE(u->missed);
    CU_ASSERT_DOUBLE_EQUAL(u->t, 50.6, EPS);
    CU_ASSERT_EQUAL(u->k1, 2);
    CU_ASSERT_EQUAL(u->k2, 9);
    CU_ASSERT_TRUE(isnan(u->nearest_ms));
    /* the cushion found 40 ms late is counted as timed off, the dropped
     * collision is not */
    CU_ASSERT_EQUAL(r->types[CR_EV_CUSHION].timed_off, 1);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_CUSHION].timed_off, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].timed_off, 0);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_COLLISION].timed_off, 0);
    cr_eval_result_destroy(r);
    free(c);
}

/* Every cushion t + dt. */
static cr_eval_result_t *shift_cushions(double dt, const cr_eval_params_t *p)
{
    cr_event_t *c = copy_truth(0);
    cr_eval_result_t *r;
    size_t i;

    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (i = 0; i < g_n; i++) {
        if (c[i].type == CR_EV_CUSHION)
            c[i].t += dt;
    }
    r = score_with(p, c, g_n);
    free(c);
    return r;
}

static void test_shift_cushions(void)
{
    cr_eval_result_t *perfect = score(g_truth, g_n), *r;
    const cr_eval_counts_t *k;
    cr_eval_params_t p;

    /* +5 ms: within the 16.7 ms window. */
    r = shift_cushions(0.005, NULL);
    k = &r->types[CR_EV_CUSHION];
    CU_ASSERT_EQUAL(k->tp, N_CUSHIONS);
    CU_ASSERT_DOUBLE_EQUAL(k->recall, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->precision, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->dt_median_ms, 5.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->dt_p95_ms, 5.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->dt_max_ms, 5.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->dt_bias_ms, 5.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->dt_mean_ms, 5.0, MS_EPS);
    CU_ASSERT_EQUAL(k->timed_off, 0);
    assert_others_equal(perfect, r, CR_EV_CUSHION);
    cr_eval_result_destroy(r);

    /* -5 ms: the same error, negative bias. */
    r = shift_cushions(-0.005, NULL);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_CUSHION].dt_median_ms, 5.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_CUSHION].dt_bias_ms, -5.0, MS_EPS);
    cr_eval_result_destroy(r);

    /* +20 ms: outside the window: every cushion a FP and a FN, no identity
     * error (the balls are right, the time is not). */
    r = shift_cushions(0.020, NULL);
    k = &r->types[CR_EV_CUSHION];
    CU_ASSERT_EQUAL(k->tp, 0);
    CU_ASSERT_EQUAL(k->fp, N_CUSHIONS);
    CU_ASSERT_EQUAL(k->fn, N_CUSHIONS);
    CU_ASSERT_DOUBLE_EQUAL(k->recall, 0.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->precision, 0.0, EPS);
    CU_ASSERT_TRUE(isnan(k->dt_median_ms));
    CU_ASSERT_EQUAL(k->identity_errors, 0);
    /* each found, timed off: a pair within 100 ms, inside breaks or not */
    CU_ASSERT_EQUAL(k->timed_off, N_CUSHIONS);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_CUSHION].timed_off, r->outside_break[CR_EV_CUSHION].fn);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].timed_off, 0);
    assert_others_equal(perfect, r, CR_EV_CUSHION);
    cr_eval_result_destroy(r);

    /* +150 ms: too far off to call the same contact */
    r = shift_cushions(0.150, NULL);
    k = &r->types[CR_EV_CUSHION];
    CU_ASSERT_EQUAL(k->tp, 0);
    CU_ASSERT_EQUAL(k->timed_off, 0);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_CUSHION].timed_off, 0);
    cr_eval_result_destroy(r);

    /* ... unless the window is widened. */
    cr_eval_params_defaults(&p);
    p.window_s[CR_EV_CUSHION] = 0.025;
    r = shift_cushions(0.020, &p);
    CU_ASSERT_EQUAL(r->types[CR_EV_CUSHION].tp, N_CUSHIONS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_CUSHION].dt_median_ms, 20.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_CUSHION].window_s, 0.025, EPS);
    cr_eval_result_destroy(r);

    /* Exactly one frame late (as written, rounded to 1 us) still matches. */
    r = shift_cushions(0.016667, NULL);
    CU_ASSERT_EQUAL(r->types[CR_EV_CUSHION].tp, N_CUSHIONS);
    cr_eval_result_destroy(r);

    /* A lower frame rate widens the default window. */
    cr_eval_params_defaults(&p);
    p.fps = 30;
    r = shift_cushions(0.020, &p);
    CU_ASSERT_EQUAL(r->types[CR_EV_CUSHION].tp, N_CUSHIONS);
    cr_eval_result_destroy(r);
    cr_eval_result_destroy(perfect);
}

static void test_collision_identity(void)
{
    cr_event_t *c = copy_truth(0);
    cr_eval_result_t *perfect = score(g_truth, g_n), *r;
    int i = find_event(c, g_n, CR_EV_COLLISION, 20.312); /* 0-3, the close call's second contact */
    const cr_eval_counts_t *k;

    CU_ASSERT_FATAL(i >= 0);
    /* a and b in the other order: the same pair. */
    c[i].a = 3;
    c[i].b = 0;
    r = score(c, g_n);
    CU_ASSERT_TRUE(same_counts(&r->types[CR_EV_COLLISION], &perfect->types[CR_EV_COLLISION]));
    cr_eval_result_destroy(r);

    /* The 3 taken for the 5: one identity error, a FP and a FN. */
    c[i].a = 0;
    c[i].b = 5;
    r = score(c, g_n);
    k = &r->types[CR_EV_COLLISION];
    CU_ASSERT_EQUAL(k->identity_errors, 1);
    CU_ASSERT_EQUAL(k->tp, N_COLLISIONS - 1);
    CU_ASSERT_EQUAL(k->fp, 1);
    CU_ASSERT_EQUAL(k->fn, 1);
    CU_ASSERT_DOUBLE_EQUAL(k->precision, 1.0 - 1.0 / N_COLLISIONS, EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->recall, 1.0 - 1.0 / N_COLLISIONS, EPS);
    assert_others_equal(perfect, r, CR_EV_COLLISION);
    CU_ASSERT_EQUAL(r->shots_correct, N_STROKES); /* the first contact (the 1) is still right */
    cr_eval_result_destroy(r);

    /* An unidentified ball (-1) is wrong the same way. */
    c[i].b = CR_BALL_UNKNOWN;
    r = score(c, g_n);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].identity_errors, 1);
    cr_eval_result_destroy(r);
    free(c);

    /* A cushion on the wrong rail and a pocket with the wrong ball. */
    c = copy_truth(0);
    i = find_event(c, g_n, CR_EV_CUSHION, 30.8);
    CU_ASSERT_FATAL(i >= 0);
    c[i].rail = CR_RAIL_LEFT;
    i = find_event(c, g_n, CR_EV_POCKET, 51.0);
    CU_ASSERT_FATAL(i >= 0);
    c[i].ball = 8;
    r = score(c, g_n);
    CU_ASSERT_EQUAL(r->types[CR_EV_CUSHION].identity_errors, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_CUSHION].fp, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_CUSHION].fn, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_POCKET].identity_errors, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_POCKET].tp, N_POCKETS - 1);
    cr_eval_result_destroy(r);
    cr_eval_result_destroy(perfect);
    free(c);
}

static void test_invented_pocket(void)
{
    cr_event_t *c = copy_truth(1);
    cr_eval_result_t *perfect = score(g_truth, g_n), *r;
    cr_event_t ev = make_event(CR_EV_POCKET, 41.5);

    ev.shot = 4;
    ev.ball = 7;
    ev.pocket = CR_POCKET_SIDE_RIGHT;
    c[g_n] = ev;
    r = score(c, g_n + 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_POCKET].fp, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_POCKET].fn, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_POCKET].precision, (double)N_POCKETS / (N_POCKETS + 1), EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_POCKET].recall, 1.0, EPS);
    CU_ASSERT_EQUAL(r->types[CR_EV_POCKET].identity_errors, 0);
    assert_others_equal(perfect, r, CR_EV_POCKET);
    /* by shot: every truth pocket found, the invented one false */
    CU_ASSERT_EQUAL(perfect->pockets_truth, N_POCKETS);
    CU_ASSERT_EQUAL(perfect->pockets_in_shot, N_POCKETS);
    CU_ASSERT_EQUAL(perfect->pockets_false_in_shot, 0);
    CU_ASSERT_EQUAL(r->pockets_in_shot, N_POCKETS);
    CU_ASSERT_EQUAL(r->pockets_false_in_shot, 1);
    cr_eval_result_destroy(r);
    cr_eval_result_destroy(perfect);
    free(c);
}

/* A pot put 0.6 s late (a lost ball's course run out too slowly): outside
 * the pocket window, one false and one missed pocket line; by shot, the
 * right ball in the right pocket. In the wrong pocket it is neither. */
static void test_pocket_late_in_its_shot(void)
{
    cr_event_t *c = copy_truth(0);
    cr_eval_result_t *r;
    size_t i;
    int k = -1;

    for (i = 0; i < g_n && k < 0; i++)
        if (c[i].type == CR_EV_POCKET)
            k = (int)i;
    CU_ASSERT_FATAL(k >= 0);
    c[k].t += 0.6;
    r = score(c, g_n);
    CU_ASSERT_EQUAL(r->types[CR_EV_POCKET].fp, 1);
    CU_ASSERT_EQUAL(r->types[CR_EV_POCKET].fn, 1);
    CU_ASSERT_EQUAL(r->pockets_in_shot, N_POCKETS);
    CU_ASSERT_EQUAL(r->pockets_false_in_shot, 0);
    cr_eval_result_destroy(r);
    c[k].pocket = c[k].pocket == CR_POCKET_SIDE_LEFT ? CR_POCKET_SIDE_RIGHT : CR_POCKET_SIDE_LEFT;
    r = score(c, g_n);
    CU_ASSERT_EQUAL(r->pockets_in_shot, N_POCKETS - 1);
    CU_ASSERT_EQUAL(r->pockets_false_in_shot, 1);
    cr_eval_result_destroy(r);
    free(c);
}

static void test_wrong_first_contact(void)
{
    cr_event_t *c = copy_truth(0);
    cr_eval_result_t *r;
    int i = find_event(c, g_n, CR_EV_COLLISION, 10.4); /* shot 1: the 2 first */

    CU_ASSERT_FATAL(i >= 0);
    c[i].b = 1;
    r = score(c, g_n);
    CU_ASSERT_EQUAL(r->shots, N_STROKES);
    CU_ASSERT_EQUAL(r->shots_correct, N_STROKES - 1);
    CU_ASSERT_DOUBLE_EQUAL(r->first_contact_accuracy, 5.0 / 6.0, EPS);
    CU_ASSERT_EQUAL_FATAL(r->n_wrong, 1);
    CU_ASSERT_EQUAL(r->wrong[0].shot, 1);
    CU_ASSERT_DOUBLE_EQUAL(r->wrong[0].t, 10.0, EPS);
    CU_ASSERT_EQUAL(r->wrong[0].truth_ball, 2);
    CU_ASSERT_EQUAL(r->wrong[0].candidate_ball, 1);
    CU_ASSERT_TRUE(r->wrong[0].stroke_matched);
    cr_eval_result_destroy(r);
    free(c);

    /* A missed stroke: its shot is wrong with candidate "none". */
    {
        size_t n = g_n;

        c = copy_truth(0);
        i = find_event(c, n, CR_EV_STROKE, 30.0);
        CU_ASSERT_FATAL(i >= 0);
        remove_event(c, &n, i);
        r = score(c, n);
        CU_ASSERT_EQUAL(r->types[CR_EV_STROKE].fn, 1);
        CU_ASSERT_EQUAL(r->shots_correct, N_STROKES - 1);
        CU_ASSERT_EQUAL_FATAL(r->n_wrong, 1);
        CU_ASSERT_EQUAL(r->wrong[0].shot, 3);
        CU_ASSERT_EQUAL(r->wrong[0].truth_ball, 2);
        CU_ASSERT_EQUAL(r->wrong[0].candidate_ball, CR_EVAL_NONE);
        CU_ASSERT_FALSE(r->wrong[0].stroke_matched);
        cr_eval_result_destroy(r);
        free(c);
    }

    /* The no-contact shot (4) seen with a contact. */
    {
        cr_event_t ev = make_event(CR_EV_COLLISION, 40.7);

        c = copy_truth(1);
        ev.shot = 4;
        ev.a = 0;
        ev.b = 2;
        c[g_n] = ev;
        r = score(c, g_n + 1);
        CU_ASSERT_EQUAL_FATAL(r->n_wrong, 1);
        CU_ASSERT_EQUAL(r->wrong[0].shot, 4);
        CU_ASSERT_EQUAL(r->wrong[0].truth_ball, CR_EVAL_NONE);
        CU_ASSERT_EQUAL(r->wrong[0].candidate_ball, 2);
        cr_eval_result_destroy(r);
        free(c);
    }
}

static void test_close_calls(void)
{
    cr_event_t *c = copy_truth(0);
    cr_eval_result_t *r;
    int i1 = find_event(c, g_n, CR_EV_COLLISION, 20.3), i3 = find_event(c, g_n, CR_EV_COLLISION, 20.312);

    CU_ASSERT_FATAL(i1 >= 0 && i3 >= 0);
    r = score(g_truth, g_n);
    CU_ASSERT_EQUAL_FATAL(r->n_close_calls, 1);
    CU_ASSERT_EQUAL(r->close_calls[0].shot, 2);
    CU_ASSERT_EQUAL(r->close_calls[0].first, 1);
    CU_ASSERT_EQUAL(r->close_calls[0].second, 3);
    CU_ASSERT_DOUBLE_EQUAL(r->close_calls[0].gap_ms, 12.0, MS_EPS);
    CU_ASSERT_EQUAL(r->close_calls[0].candidate_ball, 1);
    CU_ASSERT_TRUE(r->close_calls[0].correct);
    cr_eval_result_destroy(r);

    /* The candidate sees the 3 first: the close call is lost, and counted
     * in the first-contact score too. */
    c[i1].t = 20.312;
    c[i3].t = 20.3;
    r = score(c, g_n);
    CU_ASSERT_EQUAL(r->n_close_calls, 1);
    CU_ASSERT_EQUAL(r->close_calls_correct, 0);
    CU_ASSERT_FALSE(r->close_calls[0].correct);
    CU_ASSERT_EQUAL(r->close_calls[0].candidate_ball, 3);
    CU_ASSERT_EQUAL(r->shots_correct, N_STROKES - 1);
    cr_eval_result_destroy(r);
    free(c);

    /* Outside 2..30 ms no close call: 40 ms apart, or 1 ms apart. */
    {
        cr_event_t *t = copy_truth(0);
        cr_event_t *save = g_truth;
        cr_eval_result_t *r2;

        t[i3].t = 20.340;
        g_truth = t;
        r2 = score(t, g_n);
        CU_ASSERT_EQUAL(r2->n_close_calls, 0);
        cr_eval_result_destroy(r2);
        t[i3].t = 20.301;
        r2 = score(t, g_n);
        CU_ASSERT_EQUAL(r2->n_close_calls, 0);
        cr_eval_result_destroy(r2);
        t[i3].t = 20.330; /* 30 ms: inclusive */
        r2 = score(t, g_n);
        CU_ASSERT_EQUAL(r2->n_close_calls, 1);
        cr_eval_result_destroy(r2);
        g_truth = save;
        free(t);
    }
}

static void test_fouls_per_code(void)
{
    cr_event_t *c = copy_truth(2);
    size_t n = g_n;
    cr_eval_result_t *r;
    const cr_eval_code_t *k;
    cr_event_t ev = make_event(CR_EV_FOUL, 23.0);
    int i;

    /* no_contact missed */
    i = find_event(c, n, CR_EV_FOUL, 44.0);
    CU_ASSERT_FATAL(i >= 0);
    remove_event(c, &n, i);
    /* wrong_ball_first called 1.5 s late, but on the same shot: matched */
    i = find_event(c, n, CR_EV_FOUL, 13.0);
    CU_ASSERT_FATAL(i >= 0);
    c[i].t = 14.5;
    /* cue_ball_scratch called as cue_ball_off_table at the same time */
    i = find_event(c, n, CR_EV_FOUL, 33.0);
    CU_ASSERT_FATAL(i >= 0);
    snprintf(c[i].code, sizeof(c[i].code), "cue_ball_off_table");
    /* an invented no_rail on shot 2 */
    ev.shot = 2;
    snprintf(ev.code, sizeof(ev.code), "no_rail");
    snprintf(ev.rule, sizeof(ev.rule), "6.3");
    c[n++] = ev;

    r = score(c, n);
    CU_ASSERT_EQUAL(r->types[CR_EV_FOUL].n_truth, N_FOULS);
    CU_ASSERT_EQUAL(r->types[CR_EV_FOUL].n_candidate, N_FOULS);
    CU_ASSERT_EQUAL(r->types[CR_EV_FOUL].tp, 2);
    CU_ASSERT_EQUAL(r->types[CR_EV_FOUL].fp, 2);
    CU_ASSERT_EQUAL(r->types[CR_EV_FOUL].fn, 2);
    CU_ASSERT_EQUAL(r->types[CR_EV_FOUL].identity_errors, 1); /* scratch called off_table */
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_FOUL].dt_max_ms, 1500.0, MS_EPS);
    CU_ASSERT_EQUAL(r->n_codes, 6);

    k = find_code(r, "wrong_ball_first");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(k->counts.tp, 1);
    CU_ASSERT_DOUBLE_EQUAL(k->counts.precision, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->counts.recall, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(k->counts.dt_median_ms, 1500.0, MS_EPS);

    k = find_code(r, "no_contact");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(k->counts.n_truth, 1);
    CU_ASSERT_EQUAL(k->counts.n_candidate, 0);
    CU_ASSERT_DOUBLE_EQUAL(k->counts.recall, 0.0, EPS);
    CU_ASSERT_TRUE(isnan(k->counts.precision));

    k = find_code(r, "no_rail");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(k->counts.fp, 1);
    CU_ASSERT_DOUBLE_EQUAL(k->counts.precision, 0.0, EPS);
    CU_ASSERT_TRUE(isnan(k->counts.recall));

    k = find_code(r, "cue_ball_scratch");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(k->counts.fn, 1);
    k = find_code(r, "cue_ball_off_table");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(k->counts.fp, 1);
    k = find_code(r, "object_ball_off_table");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(k->counts.tp, 1);
    cr_eval_result_destroy(r);
    free(c);

    /* A late foul on another shot does not match. */
    c = copy_truth(0);
    i = find_event(c, g_n, CR_EV_FOUL, 13.0);
    c[i].t = 14.5;
    c[i].shot = 2;
    r = score(c, g_n);
    k = find_code(r, "wrong_ball_first");
    CU_ASSERT_EQUAL(k->counts.tp, 0);
    cr_eval_result_destroy(r);
    free(c);
}

/* The candidate numbers its shots differently (it missed the first stroke
 * and starts at 10): strokes match by time, fouls by the matched shot. */
static void test_shot_numbers_differ(void)
{
    cr_event_t *c = copy_truth(0);
    cr_eval_result_t *r;
    size_t i;

    for (i = 0; i < g_n; i++) {
        if (c[i].shot >= 0)
            c[i].shot += 10;
        if (c[i].type == CR_EV_FOUL)
            c[i].t += 1.0; /* outside the time window: only the shot can match them */
    }
    r = score(c, g_n);
    CU_ASSERT_EQUAL(r->types[CR_EV_STROKE].tp, N_STROKES);
    CU_ASSERT_EQUAL(r->types[CR_EV_FOUL].tp, N_FOULS);
    CU_ASSERT_EQUAL(r->shots_correct, N_STROKES);
    cr_eval_result_destroy(r);
    free(c);
}

/* ---------------------------------------------------------------------- */
/* Matching                                                                */

/* Rests at the given times (a type with no key), with a session line. */
static size_t rests(cr_event_t *evs, const double *t, size_t n)
{
    size_t i;

    cr_event_init(&evs[0], CR_EV_SESSION);
    evs[0].fps = 60;
    for (i = 0; i < n; i++)
        evs[i + 1] = make_event(CR_EV_REST, t[i]);
    return n + 1;
}

static cr_eval_result_t *score_rests(const double *t, size_t n, const double *c, size_t m)
{
    cr_event_t *a = malloc((n + 1) * sizeof(*a)), *b = malloc((m + 1) * sizeof(*b));
    cr_eval_result_t *r = NULL;
    size_t na, nb;

    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    na = rests(a, t, n);
    nb = rests(b, c, m);
    CU_ASSERT_EQUAL(cr_eval_run(NULL, a, na, b, nb, NULL, NULL, &r), CR_OK);
    free(a);
    free(b);
    return r;
}

/* Greedy by smallest |dt| would pair 1.3 with 1.2 (0.1 s) and leave both 1.0
 * and 1.45 alone; the optimal matching pairs 1.0-1.2 and 1.3-1.45. */
static void test_matching_conflict(void)
{
    static const double t[] = {1.0, 1.3}, c[] = {1.2, 1.45};
    static const double t2[] = {0.0, 0.1}, c2[] = {0.05, 0.15};
    cr_eval_result_t *r = score_rests(t, 2, c, 2);

    CU_ASSERT_EQUAL(r->types[CR_EV_REST].tp, 2);
    CU_ASSERT_EQUAL(r->types[CR_EV_REST].fp, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_REST].dt_max_ms, 200.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_REST].dt_median_ms, 175.0, MS_EPS);
    cr_eval_result_destroy(r);

    /* Equal counts: the smaller total |dt| wins (50 + 50 ms, not 150 + 50). */
    r = score_rests(t2, 2, c2, 2);
    CU_ASSERT_EQUAL(r->types[CR_EV_REST].tp, 2);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_REST].dt_max_ms, 50.0, MS_EPS);
    CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_REST].dt_bias_ms, 50.0, MS_EPS);
    cr_eval_result_destroy(r);
}

/* Brute force: the largest matching and its smallest sum of |dt|. */
static void brute(const double *t, int n, const double *c, int m, double w, int i, unsigned used, int cnt,
                  double cost, int *best_cnt, double *best_cost)
{
    int j;

    if (i == n) {
        if (cnt > *best_cnt || (cnt == *best_cnt && cost < *best_cost - 1e-12)) {
            *best_cnt = cnt;
            *best_cost = cost;
        }
        return;
    }
    brute(t, n, c, m, w, i + 1, used, cnt, cost, best_cnt, best_cost);
    for (j = 0; j < m; j++) {
        if (!(used & (1u << j)) && fabs(t[i] - c[j]) <= w)
            brute(t, n, c, m, w, i + 1, used | (1u << j), cnt + 1, cost + fabs(t[i] - c[j]), best_cnt, best_cost);
    }
}

/* Random small cases (up to 6 + 6 events within 1 s, 0.25 s window)
 * against brute force: the same number of pairs and the same total |dt|. */
static void test_matching_brute_force(void)
{
    unsigned seed = 12345;
    int iter;

    for (iter = 0; iter < 2000; iter++) {
        double t[7], c[7];
        int n, m, i, best_cnt = -1;
        double best_cost = 0;
        cr_eval_result_t *r;

        seed = seed * 1103515245u + 12345u;
        n = (int)(seed >> 16) % 7;
        seed = seed * 1103515245u + 12345u;
        m = (int)(seed >> 16) % 7;
        for (i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            t[i] = 1.0 + (double)((seed >> 16) % 1000) / 1000.0; /* 1.0 .. 2.0 s, 1 ms steps */
        }
        for (i = 0; i < m; i++) {
            seed = seed * 1103515245u + 12345u;
            c[i] = 1.0 + (double)((seed >> 16) % 1000) / 1000.0;
        }
        brute(t, n, c, m, 0.25 + CR_EVAL_TIME_TOLERANCE_S, 0, 0, 0, 0.0, &best_cnt, &best_cost);
        r = score_rests(t, (size_t)n, c, (size_t)m); /* unsorted: the scorer sorts */
        CU_ASSERT_EQUAL(r->types[CR_EV_REST].tp, best_cnt);
        if (best_cnt > 0)
            CU_ASSERT_DOUBLE_EQUAL(r->types[CR_EV_REST].dt_mean_ms * best_cnt, best_cost * 1000.0, 1e-6);
        if (r->types[CR_EV_REST].tp != best_cnt ||
            (best_cnt > 0 && fabs(r->types[CR_EV_REST].dt_mean_ms * best_cnt - best_cost * 1000.0) > 1e-6)) {
            fprintf(stderr, "\n  brute force disagrees at case %d\n", iter);
            cr_eval_result_destroy(r);
            break;
        }
        cr_eval_result_destroy(r);
    }
}

/* A lag (two strokes with one shot index) is not a first-contact shot. */
static void test_lag_not_scored(void)
{
    cr_event_t ev[4];
    cr_eval_result_t *r = NULL;

    cr_event_init(&ev[0], CR_EV_SESSION);
    ev[1] = make_event(CR_EV_STROKE, 1.0);
    ev[2] = make_event(CR_EV_STROKE, 1.08);
    ev[2].ball = 9;
    ev[3] = make_event(CR_EV_STROKE, 20.0);
    ev[3].shot = 1;
    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, ev, 4, ev, 4, NULL, NULL, &r), CR_OK);
    CU_ASSERT_EQUAL(r->types[CR_EV_STROKE].tp, 3);
    CU_ASSERT_EQUAL(r->shots, 1);
    CU_ASSERT_EQUAL(r->shots_correct, 1);
    cr_eval_result_destroy(r);
}

/* ---------------------------------------------------------------------- */
/* Rulings                                                                 */

/* Scores candidate c against truth t, both the fixture plus N_STROKES
 * ruling lines. */
static cr_eval_result_t *score_with_rulings(cr_event_t *t, cr_event_t *c)
{
    cr_event_t *save = g_truth;
    cr_eval_result_t *r;

    g_truth = t;
    g_n += N_STROKES;
    r = score(c, g_n);
    g_n -= N_STROKES;
    g_truth = save;
    return r;
}

static void test_rulings(void)
{
    cr_event_t *t = copy_truth(N_STROKES), *c = copy_truth(N_STROKES);
    cr_eval_result_t *r;
    int s;

    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (s = 0; s < N_STROKES; s++) {
        cr_event_t ev = make_event(CR_EV_RULING, 13.0 + 10.0 * s);

        ev.shot = s;
        ev.ruling.legal = s != 1 && s != 3;
        ev.ruling.player = 1;
        ev.ruling.next_player = ev.ruling.legal ? 1 : 2;
        ev.ruling.ball_in_hand = ev.ruling.legal ? CR_BIH_NONE : CR_BIH_ANYWHERE;
        t[g_n + (size_t)s] = ev;
        c[g_n + (size_t)s] = ev;
    }
    c[g_n + 3].ruling.ball_in_hand = CR_BIH_NONE; /* the candidate forgot ball in hand after the scratch */
    r = score_with_rulings(t, c);
    CU_ASSERT_TRUE(r->rulings.present);
    CU_ASSERT_EQUAL(r->rulings.compared, N_STROKES);
    CU_ASSERT_EQUAL(r->rulings.agree, N_STROKES - 1);
    CU_ASSERT_DOUBLE_EQUAL(r->rulings.share, 5.0 / 6.0, EPS);
    CU_ASSERT_EQUAL(r->rulings.agree_legal, N_STROKES);
    CU_ASSERT_EQUAL(r->rulings.agree_ball_in_hand, N_STROKES - 1);
    CU_ASSERT_EQUAL_FATAL(r->rulings.n_disagree, 1);
    CU_ASSERT_EQUAL(r->rulings.disagree_shots[0], 3);
    cr_eval_result_destroy(r);
    free(t);
    free(c);
}

/* One wrong call swaps the player numbers for the rest of the rack: every
 * later next_player disagrees, but each shot's own outcome (legal, does
 * the shooter stay, ball in hand) still agrees. */
static void test_rulings_outcome(void)
{
    cr_event_t *t = copy_truth(N_STROKES), *c = copy_truth(N_STROKES);
    cr_eval_result_t *r;
    int s;

    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (s = 0; s < N_STROKES; s++) {
        cr_event_t ev = make_event(CR_EV_RULING, 13.0 + 10.0 * s);

        ev.shot = s;
        ev.ruling.legal = true;
        ev.ruling.player = 1;
        ev.ruling.next_player = s == 2 ? 2 : 1; /* shot 2 misses: the turn passes */
        t[g_n + (size_t)s] = ev;
        if (s >= 2) {
            ev.ruling.player = s == 2 ? 1 : 2;
            ev.ruling.next_player = s == 2 ? 1 : 2; /* the candidate saw a ball go in on shot 2 */
        }
        c[g_n + (size_t)s] = ev;
    }
    r = score_with_rulings(t, c);
    CU_ASSERT_TRUE(r->rulings.present);
    CU_ASSERT_EQUAL(r->rulings.compared, N_STROKES);
    CU_ASSERT_EQUAL(r->rulings.agree, 2);
    CU_ASSERT_EQUAL(r->rulings.agree_next_player, 2);
    CU_ASSERT_EQUAL(r->rulings.agree_turn, N_STROKES - 1);
    CU_ASSERT_EQUAL(r->rulings.agree_outcome, N_STROKES - 1);
    CU_ASSERT_DOUBLE_EQUAL(r->rulings.outcome_share, (N_STROKES - 1.0) / N_STROKES, EPS);
    cr_eval_result_destroy(r);
    free(t);
    free(c);
}

/* ---------------------------------------------------------------------- */
/* Positions                                                               */

/* Adds CSV text, line by line; returns the first failure's status. */
static int add_csv(cr_eval_positions_t *p, const char *text, char *err, size_t err_len)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        int st = cr_eval_positions_add_csv_line(p, text, len, err, err_len);

        if (st != CR_OK)
            return st;
        text += len + (nl ? 1 : 0);
    }
    return cr_eval_positions_csv_end(p, err, err_len);
}

/* Truth: 4 frames at 60 fps, balls 0, 1, 2 visible and 9 hidden. The
 * candidate: the same balls offset by (dx, 0) mm, each frame a balls
 * event, with ball `wrong_id` of frame 2 reported as id `as_id`. */
static void build_positions(cr_eval_positions_t **tp, cr_eval_positions_t **cp, double dx, int wrong_id, int as_id)
{
    static const struct {
        int id;
        double x, y;
    } balls[] = {{0, 635.0, 635.0}, {1, 1905.0, 635.0}, {2, 1954.49, 606.42}};
    char text[4096], *p = text;
    int f, b;

    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(true, tp), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(false, cp), CR_OK);
    p += sprintf(p, "frame,t,id,x,y,visible\r\n");
    for (f = 0; f < 4; f++) {
        cr_event_t ev;
        double t = 10.0 + f / 60.0;

        cr_event_init(&ev, CR_EV_BALLS);
        ev.t = t + 0.002; /* a candidate clock a little late: within half a frame */
        for (b = 0; b < 3; b++) {
            double x = balls[b].x + 20.0 * f * (b == 0);

            p += sprintf(p, "%d,%.6f,%d,%.3f,%.3f,1\n", 600 + f, t, balls[b].id, x, balls[b].y);
            ev.balls[b].id = f == 2 && balls[b].id == wrong_id ? as_id : balls[b].id;
            ev.balls[b].x = x + dx;
            ev.balls[b].y = balls[b].y;
        }
        p += sprintf(p, "%d,%.6f,9,0,0,0\n", 600 + f, t);
        ev.n_balls = 3;
        CU_ASSERT_EQUAL(cr_eval_positions_add_balls(*cp, &ev), CR_OK);
    }
    CU_ASSERT_EQUAL_FATAL(add_csv(*tp, text, NULL, 0), CR_OK);
    CU_ASSERT_EQUAL(cr_eval_positions_frames(*tp), 4);
    CU_ASSERT_EQUAL(cr_eval_positions_frames(*cp), 4);
}

static cr_eval_result_t *score_positions(const cr_eval_positions_t *tp, const cr_eval_positions_t *cp)
{
    cr_eval_result_t *r = NULL;

    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, g_truth, g_n, g_truth, g_n, tp, cp, &r), CR_OK);
    return r;
}

/* Two balls exchanging numbers: 6 frames at 60 fps, the 1 and the 2 apart;
 * the candidate names each the other in frames 1-2 and again in frame 4
 * (two swaps, three frames), and names the 1 the 2 alone in frame 5 (no
 * swap: a misnamed ball, the 2 then unnamed). */
static void test_positions_swaps(void)
{
    cr_eval_positions_t *tp, *cp;
    cr_eval_result_t *r;
    char text[2048], *p = text;

    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(true, &tp), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(false, &cp), CR_OK);
    p += sprintf(p, "frame,t,id,x,y,visible\n");
    for (int f = 0; f < 6; f++) {
        const double t = 10.0 + f / 60.0;
        const bool swapped = f == 1 || f == 2 || f == 4;
        cr_event_t ev;

        p += sprintf(p, "%d,%.6f,1,1000.0,600.0,1\n%d,%.6f,2,1200.0,640.0,1\n", f, t, f, t);
        cr_event_init(&ev, CR_EV_BALLS);
        ev.t = t;
        ev.n_balls = 2;
        ev.balls[0].id = swapped || f == 5 ? 2 : 1;
        ev.balls[0].x = 1000.0;
        ev.balls[0].y = 600.0;
        ev.balls[1].id = swapped ? 1 : f == 5 ? CR_BALL_UNKNOWN : 2;
        ev.balls[1].x = 1200.0;
        ev.balls[1].y = 640.0;
        CU_ASSERT_EQUAL(cr_eval_positions_add_balls(cp, &ev), CR_OK);
    }
    CU_ASSERT_EQUAL_FATAL(add_csv(tp, text, NULL, 0), CR_OK);
    r = score_positions(tp, cp);
    CU_ASSERT_EQUAL(r->positions.frames_matched, 6);
    CU_ASSERT_EQUAL(r->positions.misnamed, 7);
    CU_ASSERT_EQUAL(r->positions.swap_frames, 3);
    CU_ASSERT_EQUAL(r->positions.swaps, 2);
    CU_ASSERT_EQUAL(r->positions.identity_correct, 12 - 7 - 1);
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
    cr_eval_positions_destroy(cp);
}

static void test_positions_offset(void)
{
    cr_eval_positions_t *tp, *cp;
    cr_eval_result_t *r;
    const cr_eval_positions_result_t *g;

    build_positions(&tp, &cp, 1.0, -100, -100);
    r = score_positions(tp, cp);
    g = &r->positions;
    CU_ASSERT_TRUE(g->present);
    CU_ASSERT_EQUAL(g->frames, 4);
    CU_ASSERT_EQUAL(g->frames_matched, 4);
    CU_ASSERT_EQUAL(g->truth_visible, 12);
    CU_ASSERT_EQUAL(g->detected, 12);
    CU_ASSERT_EQUAL(g->candidate_balls, 12);
    CU_ASSERT_EQUAL(g->n_errors, 12);
    CU_ASSERT_DOUBLE_EQUAL(g->err_median_mm, 1.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(g->err_p95_mm, 1.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(g->err_max_mm, 1.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(g->identity_accuracy, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g->detection_recall, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g->detection_precision, 1.0, EPS);
    CU_ASSERT_EQUAL(g->unidentified, 0);
    cr_eval_result_destroy(r);

    /* Without candidate positions nothing is scored. */
    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, g_truth, g_n, g_truth, g_n, tp, NULL, &r), CR_OK);
    CU_ASSERT_FALSE(r->positions.present);
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
    cr_eval_positions_destroy(cp);
}

static void test_positions_identity(void)
{
    cr_eval_positions_t *tp, *cp;
    cr_eval_result_t *r;
    const cr_eval_positions_result_t *g;

    /* Ball 1 of frame 2 reported as the 7: one of 12 identities wrong,
     * detection untouched, and no same-id error for it. */
    build_positions(&tp, &cp, 0.0, 1, 7);
    r = score_positions(tp, cp);
    g = &r->positions;
    /* by ball: the 1 lost its identity in one frame of four; the 0 rolls
     * (no resting frames), the 1 and 2 rest; the hidden 9 counts nowhere */
    CU_ASSERT_EQUAL(g->by_ball[1].truth_visible, 4);
    CU_ASSERT_EQUAL(g->by_ball[1].detected, 4);
    CU_ASSERT_EQUAL(g->by_ball[1].identity_correct, 3);
    CU_ASSERT_DOUBLE_EQUAL(g->by_ball[1].identity_accuracy, 0.75, EPS);
    CU_ASSERT_EQUAL(g->by_ball[1].resting_visible, 4);
    CU_ASSERT_DOUBLE_EQUAL(g->by_ball[1].resting_recall, 1.0, EPS);
    CU_ASSERT_EQUAL(g->by_ball[0].identity_correct, 4);
    CU_ASSERT_EQUAL(g->by_ball[0].resting_visible, 0);
    CU_ASSERT_TRUE(isnan(g->by_ball[0].resting_recall));
    CU_ASSERT_EQUAL(g->by_ball[7].truth_visible, 0);
    CU_ASSERT_EQUAL(g->by_ball[9].truth_visible, 0);
    CU_ASSERT_TRUE(isnan(g->by_ball[9].detection_recall));
    CU_ASSERT_EQUAL(g->identity_correct, 11);
    CU_ASSERT_DOUBLE_EQUAL(g->identity_accuracy, 11.0 / 12.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g->detection_recall, 1.0, EPS);
    CU_ASSERT_DOUBLE_EQUAL(g->detection_precision, 1.0, EPS);
    CU_ASSERT_EQUAL(g->n_errors, 11);
    CU_ASSERT_DOUBLE_EQUAL(g->err_max_mm, 0.0, 1e-9);
    CU_ASSERT_EQUAL(g->unidentified, 0);
    CU_ASSERT_EQUAL(g->misnamed, 1);
    CU_ASSERT_EQUAL(g->swaps, 0);
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
    cr_eval_positions_destroy(cp);

    /* Reported unidentified (-1): counted as such, identity lost too. */
    build_positions(&tp, &cp, 0.0, 2, CR_BALL_UNKNOWN);
    r = score_positions(tp, cp);
    CU_ASSERT_EQUAL(r->positions.unidentified, 1);
    CU_ASSERT_EQUAL(r->positions.identity_correct, 11);
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
    cr_eval_positions_destroy(cp);

    /* A ball far from where it is: not detected, and a false detection;
     * its same-id error is the distance. */
    build_positions(&tp, &cp, 0.0, -100, -100);
    {
        cr_event_t ev;

        cr_event_init(&ev, CR_EV_BALLS);
        ev.t = 10.0 + 4 / 60.0;
        ev.n_balls = 1;
        ev.balls[0].id = 0;
        ev.balls[0].x = 635.0 + 80.0 + 300.0;
        ev.balls[0].y = 635.0;
        CU_ASSERT_EQUAL(cr_eval_positions_add_balls(cp, &ev), CR_OK);
        CU_ASSERT_EQUAL(cr_eval_positions_add_csv_line(tp, "604,10.066667,0,715,635,1", 25, NULL, 0), CR_OK);
    }
    r = score_positions(tp, cp);
    g = &r->positions;
    CU_ASSERT_EQUAL(g->frames_matched, 5);
    CU_ASSERT_EQUAL(g->truth_visible, 13);
    CU_ASSERT_EQUAL(g->detected, 12);
    CU_ASSERT_EQUAL(g->candidate_near_truth, 12);
    CU_ASSERT_EQUAL(g->candidate_balls, 13);
    CU_ASSERT_DOUBLE_EQUAL(g->err_max_mm, 300.0, 1e-6);
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
    cr_eval_positions_destroy(cp);
}

/* A truth frame with no candidate frame within half a frame period is not
 * matched (and its balls not counted). */
static void test_positions_unmatched_frames(void)
{
    cr_eval_positions_t *tp, *cp;
    cr_eval_result_t *r;
    cr_event_t ev;

    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(true, &tp), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(false, &cp), CR_OK);
    CU_ASSERT_EQUAL(add_csv(tp, "frame,t,id,x,y,visible\n0,1.0,0,100,100,1\n1,1.016667,0,110,100,1\n", NULL, 0),
                    CR_OK);
    cr_event_init(&ev, CR_EV_BALLS);
    ev.t = 1.0 + 0.009; /* more than half a frame (8.33 ms) from the first, nearer the second */
    ev.n_balls = 1;
    ev.balls[0].id = 0;
    ev.balls[0].x = 110;
    ev.balls[0].y = 100;
    CU_ASSERT_EQUAL(cr_eval_positions_add_balls(cp, &ev), CR_OK);
    r = score_positions(tp, cp);
    CU_ASSERT_EQUAL(r->positions.frames, 2);
    CU_ASSERT_EQUAL(r->positions.frames_matched, 1);
    CU_ASSERT_EQUAL(r->positions.truth_visible, 1);
    CU_ASSERT_DOUBLE_EQUAL(r->positions.err_median_mm, 0.0, 1e-9);
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
    cr_eval_positions_destroy(cp);
}

/* The speed of approach of an unmatched contact, from the truth positions
 * over the two frames before it: 4 frames at 60 fps from 10 s, the cue ball
 * rolling into the foot rail at 600 mm/s, the 2 rolling at 300 mm/s along
 * x into the resting 1. Missed: the foot cushion and the collision; false:
 * a head cushion (the ball moving away from it) and a foot cushion before
 * the second frame (no two frames before it). */
static void test_unmatched_approach(void)
{
    cr_eval_positions_t *tp;
    cr_eval_result_t *r = NULL;
    cr_event_t truth[3], cand[3];
    char text[1024], *p = text;
    int f, i, seen = 0;

    truth[0] = make_event(CR_EV_STROKE, 9.9);
    truth[1] = make_event(CR_EV_CUSHION, 10.06);
    truth[1].ball = 0, truth[1].rail = CR_RAIL_FOOT;
    truth[2] = make_event(CR_EV_COLLISION, 10.06);
    truth[2].a = 2, truth[2].b = 1;
    cand[0] = truth[0];
    cand[1] = make_event(CR_EV_CUSHION, 10.06);
    cand[1].ball = 0, cand[1].rail = CR_RAIL_HEAD;
    cand[2] = make_event(CR_EV_CUSHION, 10.01);
    cand[2].ball = 0, cand[2].rail = CR_RAIL_FOOT;
    p += sprintf(p, "frame,t,id,x,y,visible\n");
    for (f = 0; f < 4; f++) {
        double t = 10.0 + f / 60.0;

        p += sprintf(p, "%d,%.6f,0,%.3f,300,1\n", f, t, 2400.0 + 10.0 * f);
        p += sprintf(p, "%d,%.6f,1,1000,600,1\n", f, t);
        p += sprintf(p, "%d,%.6f,2,%.3f,600,1\n", f, t, 900.0 + 5.0 * f);
    }
    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(true, &tp), CR_OK);
    CU_ASSERT_EQUAL_FATAL(add_csv(tp, text, NULL, 0), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, truth, 3, cand, 3, tp, NULL, &r), CR_OK);
    CU_ASSERT_EQUAL_FATAL(r->n_unmatched, 4);
    for (i = 0; i < r->n_unmatched; i++) {
        const cr_eval_unmatched_t *u = &r->unmatched[i];

        if (u->type == CR_EV_CUSHION && u->missed) {
            CU_ASSERT_DOUBLE_EQUAL(u->approach_mm_s, 600.0, 0.05); /* times to the microsecond */
            seen |= 1;
        } else if (u->type == CR_EV_COLLISION) {
            CU_ASSERT_TRUE(u->missed);
            CU_ASSERT_DOUBLE_EQUAL(u->approach_mm_s, 300.0, 0.05); /* times to the microsecond */
            seen |= 2;
        } else if (u->type == CR_EV_CUSHION && u->k2 == CR_RAIL_HEAD) {
            CU_ASSERT_DOUBLE_EQUAL(u->approach_mm_s, -600.0, 0.05); /* times to the microsecond */
            seen |= 4;
        } else if (u->type == CR_EV_CUSHION) {
            CU_ASSERT_DOUBLE_EQUAL(u->t, 10.01, 1e-9);
            CU_ASSERT_TRUE(isnan(u->approach_mm_s));
            seen |= 8;
        }
    }
    CU_ASSERT_EQUAL(seen, 15);
    cr_eval_result_destroy(r);
    /* without truth positions, none */
    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, truth, 3, cand, 3, NULL, NULL, &r), CR_OK);
    CU_ASSERT_EQUAL_FATAL(r->n_unmatched, 4);
    for (i = 0; i < r->n_unmatched; i++)
        CU_ASSERT_TRUE(isnan(r->unmatched[i].approach_mm_s));
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
}

/* A ball the candidate holds hidden ("hidden": true, where it was last seen)
 * is no detection: it neither finds the truth ball nor is a false one; it is
 * counted apart, and whether it is held where its ball is. */
static void test_positions_held(void)
{
    cr_eval_positions_t *tp, *cp;
    cr_eval_result_t *r;
    const cr_eval_positions_result_t *g;
    cr_event_t ev;

    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(true, &tp), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(false, &cp), CR_OK);
    /* the 3 seen, the 5 under an arm (not visible), the 7 in view */
    CU_ASSERT_EQUAL(add_csv(tp, "frame,t,id,x,y,visible\n0,1.0,3,100,100,1\n0,1.0,5,500,500,0\n0,1.0,7,900,300,1\n",
                            NULL, 0),
                    CR_OK);
    cr_event_init(&ev, CR_EV_BALLS);
    ev.t = 1.0;
    ev.n_balls = 3;
    ev.balls[0].id = 3; /* seen where it is */
    ev.balls[0].x = 100;
    ev.balls[0].y = 100;
    ev.balls[1].id = 5; /* held where it is, under the arm */
    ev.balls[1].x = 501;
    ev.balls[1].y = 500;
    ev.balls[1].hidden = true;
    ev.balls[2].id = 7; /* held where it was: the 7 has moved on, unseen */
    ev.balls[2].x = 700;
    ev.balls[2].y = 300;
    ev.balls[2].hidden = true;
    CU_ASSERT_EQUAL(cr_eval_positions_add_balls(cp, &ev), CR_OK);
    r = score_positions(tp, cp);
    g = &r->positions;
    CU_ASSERT_EQUAL(g->truth_visible, 2);
    CU_ASSERT_EQUAL(g->detected, 1);            /* the 7 is not found by its held place */
    CU_ASSERT_EQUAL(g->candidate_balls, 1);     /* only the 3 */
    CU_ASSERT_EQUAL(g->candidate_near_truth, 1); /* the held 5 is no false detection */
    CU_ASSERT_EQUAL(g->candidate_held, 2);
    CU_ASSERT_EQUAL(g->held_near_truth, 1);
    CU_ASSERT_DOUBLE_EQUAL(g->detection_recall, 0.5, 1e-12);
    cr_eval_result_destroy(r);
    cr_eval_positions_destroy(tp);
    cr_eval_positions_destroy(cp);
}

static void test_csv_strict(void)
{
    static const struct {
        bool truth;
        const char *text;
        const char *msg; /* part of the message */
    } bad[] = {
        {true, "", "no header"},
        {true, "\n\n", "no header"},
        {true, "frame,t,id,x,y\n", "header"},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,1,2\n", "6 fields"},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,1,2,1,9\n", "more than 6"},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,,2,1\n", "empty field \"x\""},
        {true, "frame,t,id,x,y,visible\n-1,1.0,0,1,2,1\n", "\"frame\""},
        {true, "frame,t,id,x,y,visible\n0.5,1.0,0,1,2,1\n", "\"frame\""},
        {true, "frame,t,id,x,y,visible\n0,-1,0,1,2,1\n", "\"t\""},
        {true, "frame,t,id,x,y,visible\n0,nan,0,1,2,1\n", "\"t\""},
        {true, "frame,t,id,x,y,visible\n0,1.0,16,1,2,1\n", "\"id\""},
        {true, "frame,t,id,x,y,visible\n0,1.0,-1,1,2,1\n", "\"id\" must be a ball id 0..15"},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,inf,2,1\n", "\"x\""},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,1,0x10,1\n", "\"y\""},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,1,2,2\n", "\"visible\""},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,1,2,1\n0,1.0,0,5,5,1\n", "ball 0 twice"},
        {true, "frame,t,id,x,y,visible\n0,1.0,0,1,2,1\n0,1.5,1,5,5,1\n", "differs"},
        {true, "frame,t,id,x,y,visible\n1,1.0,0,1,2,1\n0,0.9,1,5,5,1\n", "frame 0 after frame 1"},
        {true, "frame,t,id,x,y,visible\n1,1.0,0,1,2,1\n2,0.9,1,5,5,1\n", "before"},
        {false, "frame,t,id,x,y,visible\n0,1.0,-2,1,2,1\n", "\"id\" must be a ball id -1..15"},
        {false, "frame,t,id,x,y,visible\n0,1.0,0,\"1\",2,1\n", "\"x\""},
    };
    static const char *good_cand = "frame,t,id,x,y,visible\r\n0,1.0,-1,1,2,1\r\n0,1.0,-1,5,5,1\r\n\r\n"
                                    "0,1.0,3,5,5,0\n2,1.5,3,1e2,-2.5E1,1\n";
    char err[256];
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cr_eval_positions_t *p = NULL;
        int st;

        CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(bad[i].truth, &p), CR_OK);
        err[0] = '\0';
        st = add_csv(p, bad[i].text, err, sizeof(err));
        CU_ASSERT_EQUAL(st, CR_ERR_PARSE);
        if (!strstr(err, bad[i].msg)) {
            fprintf(stderr, "\n  case %zu: message \"%s\" lacks \"%s\"\n", i, err, bad[i].msg);
            CU_FAIL("CSV error message");
        }
        cr_eval_positions_destroy(p);
    }
    {
        cr_eval_positions_t *p = NULL;

        CU_ASSERT_EQUAL_FATAL(cr_eval_positions_create(false, &p), CR_OK);
        CU_ASSERT_EQUAL(add_csv(p, good_cand, err, sizeof(err)), CR_OK);
        CU_ASSERT_EQUAL(cr_eval_positions_frames(p), 2);
        cr_eval_positions_destroy(p);
    }
    CU_ASSERT_EQUAL(cr_eval_positions_create(true, NULL), CR_ERR_INVALID);
    cr_eval_positions_destroy(NULL);
    cr_eval_result_destroy(NULL);
}

/* Collisions inside a break's cluster are left out of outside_break; one
 * after the cluster and the cushion count there. */
static void test_outside_break(void)
{
    cr_event_t t[6], c[2];
    cr_eval_result_t *r = NULL;

    t[0] = make_event(CR_EV_STROKE, 1.0);
    t[1] = make_event(CR_EV_COLLISION, 1.1);
    t[1].a = 0, t[1].b = 1;
    t[2] = make_event(CR_EV_COLLISION, 1.3);
    t[2].a = 1, t[2].b = 2;
    t[3] = make_event(CR_EV_COLLISION, 3.0);
    t[3].a = 2, t[3].b = 5;
    t[4] = make_event(CR_EV_CUSHION, 3.5);
    t[4].ball = 5, t[4].rail = CR_RAIL_FOOT;
    t[5] = make_event(CR_EV_RULING, 9.0);
    t[5].ruling.break_shot = true;
    c[0] = t[3];
    c[1] = t[4];
    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, t, 6, c, 2, NULL, NULL, &r), CR_OK);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].n_truth, 3);
    CU_ASSERT_EQUAL(r->types[CR_EV_COLLISION].tp, 1);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_COLLISION].n_truth, 1);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_COLLISION].tp, 1);
    CU_ASSERT_DOUBLE_EQUAL(r->outside_break[CR_EV_COLLISION].recall, 1.0, 1e-12);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_CUSHION].n_truth, 1);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_CUSHION].tp, 1);
    cr_eval_result_destroy(r);
    /* not a break: every collision counts */
    t[5].ruling.break_shot = false;
    CU_ASSERT_EQUAL_FATAL(cr_eval_run(NULL, t, 6, c, 2, NULL, NULL, &r), CR_OK);
    CU_ASSERT_EQUAL(r->outside_break[CR_EV_COLLISION].n_truth, 3);
    cr_eval_result_destroy(r);
}

int cr_test_register_eval(void)
{
    CU_pSuite s = CU_add_suite("eval", load_truth, free_truth);

    if (!s)
        return 1;
    if (!CU_add_test(s, "truth against itself is perfect", test_perfect) ||
        !CU_add_test(s, "empty streams and bad arguments", test_empty) ||
        !CU_add_test(s, "the scorer object", test_object_api) ||
        !CU_add_test(s, "a dropped collision", test_drop_collision) ||
        !CU_add_test(s, "shifted cushions", test_shift_cushions) ||
        !CU_add_test(s, "the unmatched events, with the nearest of the same key", test_unmatched_list) ||
        !CU_add_test(s, "identity errors", test_collision_identity) ||
        !CU_add_test(s, "an invented pocket", test_invented_pocket) ||
        !CU_add_test(s, "wrong first contact", test_wrong_first_contact) ||
        !CU_add_test(s, "a pocket late in its shot", test_pocket_late_in_its_shot) ||
        !CU_add_test(s, "close calls", test_close_calls) ||
        !CU_add_test(s, "fouls per code", test_fouls_per_code) ||
        !CU_add_test(s, "shot numbers differ", test_shot_numbers_differ) ||
        !CU_add_test(s, "matching conflicts", test_matching_conflict) ||
        !CU_add_test(s, "matching against brute force", test_matching_brute_force) ||
        !CU_add_test(s, "lags are not first-contact shots", test_lag_not_scored) ||
        !CU_add_test(s, "rulings", test_rulings) || !CU_add_test(s, "ruling outcomes free of the cascade", test_rulings_outcome) ||
        !CU_add_test(s, "positions with an offset", test_positions_offset) ||
        !CU_add_test(s, "positions with wrong ids", test_positions_identity) ||
        !CU_add_test(s, "positions: two balls exchanging numbers", test_positions_swaps) ||
        !CU_add_test(s, "positions: unmatched frames", test_positions_unmatched_frames) ||
        !CU_add_test(s, "positions: unmatched contacts' approach", test_unmatched_approach) ||
        !CU_add_test(s, "positions: held hidden balls", test_positions_held) ||
        !CU_add_test(s, "positions CSV is strict", test_csv_strict) ||
        !CU_add_test(s, "outside break clusters", test_outside_break))
        return 1;
    return 0;
}
