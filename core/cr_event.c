/*
 * cr_event.c - event values: defaults and the stream's names (SPEC §3,
 * docs/EVENTS.md). Pure C, no allocation, thread-safe.
 */
#include "cr_event.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define CR_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const cr_type_names[CR_EV_TYPE_COUNT] = {
    [CR_EV_SESSION] = "session",       [CR_EV_STROKE] = "stroke",
    [CR_EV_COLLISION] = "collision",   [CR_EV_CUSHION] = "cushion",
    [CR_EV_POCKET] = "pocket",         [CR_EV_OFF_TABLE] = "off_table",
    [CR_EV_DISTURBED] = "disturbed",   [CR_EV_PLACED] = "placed",
    [CR_EV_REST] = "rest",             [CR_EV_BALLS] = "balls",
    [CR_EV_FOUL] = "foul",             [CR_EV_RULING] = "ruling",
    [CR_EV_INPUT] = "input",           [CR_EV_DOUBLE_HIT] = "double_hit",
    [CR_EV_PUSH_SHOT] = "push_shot",
    [CR_EV_WARNING] = "warning",
};

static const char *const cr_input_names[CR_INPUT_KIND_COUNT] = {
    [CR_INPUT_CALL] = "call",         [CR_INPUT_SAFETY] = "safety",
    [CR_INPUT_PUSH_OUT] = "push_out", [CR_INPUT_PLAYER] = "player",
    [CR_INPUT_RACK] = "rack",         [CR_INPUT_LAG] = "lag",
    [CR_INPUT_FROZEN] = "frozen",     [CR_INPUT_CHOICE] = "choice",
    [CR_INPUT_EXTENSION] = "extension",
};

static const char *const cr_bih_names[] = {
    [CR_BIH_NONE] = NULL,
    [CR_BIH_ANYWHERE] = "anywhere",
    [CR_BIH_BEHIND_HEAD] = "behind_head_string",
};

static const char *const cr_cause_names[] = {
    [CR_CAUSE_UNKNOWN] = "unknown",
    [CR_CAUSE_TOUCH] = "touch",
    [CR_CAUSE_SETTLE] = "settle",
    [CR_CAUSE_OUTSIDE] = "outside",
};

static const char *const cr_ruling_kind_names[] = {
    [CR_RULING_SHOT] = "shot",
    [CR_RULING_LAG] = "lag",
    [CR_RULING_BETWEEN] = "between",
};

/* Index of name in names[0..n-1] (NULL entries never match), or -1. */
static int cr_name_find(const char *const *names, size_t n, const char *name)
{
    size_t i;

    if (!name)
        return -1;
    for (i = 0; i < n; i++) {
        if (names[i] && strcmp(names[i], name) == 0)
            return (int)i;
    }
    return -1;
}

void cr_event_init(cr_event_t *ev, cr_event_type_t type)
{
    int i;

    memset(ev, 0, sizeof(*ev));
    ev->type = type;
    ev->t = NAN;
    ev->shot = -1;
    ev->ball = type == CR_EV_STROKE ? CR_BALL_CUE : CR_BALL_UNKNOWN;
    ev->a = CR_BALL_UNKNOWN;
    ev->b = CR_BALL_UNKNOWN;
    ev->x = NAN;
    ev->y = NAN;
    ev->rail = CR_RAIL_NONE;
    ev->pocket = CR_POCKET_NONE;
    ev->confidence = 1.0;
    ev->cause = CR_CAUSE_UNKNOWN;
    ev->player = -1;
    for (i = 0; i < CR_EVENT_MAX_BALLS; i++) {
        ev->balls[i].id = CR_BALL_UNKNOWN;
        ev->balls[i].x = NAN;
        ev->balls[i].y = NAN;
        ev->balls[i].vx = NAN;
        ev->balls[i].vy = NAN;
        ev->balls[i].frozen_rails = 0;
    }
    ev->input_kind = CR_INPUT_NONE;
    ev->lag_ball[0] = CR_BALL_UNKNOWN;
    ev->lag_ball[1] = CR_BALL_UNKNOWN;
    ev->version = 1; /* the only version of the stream so far */
    ev->fps = NAN;
    ev->width = -1;
    ev->height = -1;
    ev->table_length_mm = NAN;
    ev->table_width_mm = NAN;
    ev->game = CR_GAME_NONE;
    /* ruling: all zero from memset (kind CR_RULING_SHOT, CR_BIH_NONE). */
}

const char *cr_event_type_name(cr_event_type_t type)
{
    if ((int)type < 0 || type >= CR_EV_TYPE_COUNT)
        return "?";
    return cr_type_names[type];
}

int cr_event_type_parse(const char *name)
{
    return cr_name_find(cr_type_names, CR_COUNT_OF(cr_type_names), name);
}

const char *cr_input_kind_name(cr_input_kind_t kind)
{
    if ((int)kind < 0 || kind >= CR_INPUT_KIND_COUNT)
        return "?";
    return cr_input_names[kind];
}

cr_input_kind_t cr_input_kind_parse(const char *name)
{
    int k = cr_name_find(cr_input_names, CR_COUNT_OF(cr_input_names), name);

    return k < 0 ? CR_INPUT_NONE : (cr_input_kind_t)k;
}

const char *cr_bih_name(cr_bih_t bih)
{
    if ((int)bih < 0 || (size_t)bih >= CR_COUNT_OF(cr_bih_names))
        return "?";
    return cr_bih_names[bih];
}

int cr_bih_parse(const char *name)
{
    return cr_name_find(cr_bih_names, CR_COUNT_OF(cr_bih_names), name);
}

const char *cr_cause_name(cr_cause_t cause)
{
    if ((int)cause < 0 || (size_t)cause >= CR_COUNT_OF(cr_cause_names))
        return "?";
    return cr_cause_names[cause];
}

int cr_cause_parse(const char *name)
{
    return cr_name_find(cr_cause_names, CR_COUNT_OF(cr_cause_names), name);
}

const char *cr_ruling_kind_name(cr_ruling_kind_t kind)
{
    if ((int)kind < 0 || (size_t)kind >= CR_COUNT_OF(cr_ruling_kind_names))
        return "?";
    return cr_ruling_kind_names[kind];
}

int cr_ruling_kind_parse(const char *name)
{
    return cr_name_find(cr_ruling_kind_names, CR_COUNT_OF(cr_ruling_kind_names), name);
}

int cr_event_find_ball(const cr_event_t *ev, int id)
{
    int i;
    int n = ev->n_balls;

    if (n > CR_EVENT_MAX_BALLS)
        n = CR_EVENT_MAX_BALLS;
    for (i = 0; i < n; i++) {
        if (ev->balls[i].id == id)
            return i;
    }
    return -1;
}
