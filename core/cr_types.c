/*
 * cr_types.c - names of the shared value types (SPEC §1, §2, §3).
 *
 * The name tables are indexed by the enum values; each enum's _COUNT bounds
 * its table. Pure functions on constant data: thread-safe.
 */
#include "cr_types.h"

#include <stddef.h>
#include <string.h>

/* SPEC §1 "Cushions (rail)", indexed by cr_rail_t. */
static const char *const cr_rail_names[CR_RAIL_COUNT] = {
    [CR_RAIL_HEAD] = "head",
    [CR_RAIL_FOOT] = "foot",
    [CR_RAIL_LEFT] = "left",
    [CR_RAIL_RIGHT] = "right",
};

/* SPEC §1 "Pockets", indexed by cr_pocket_t. */
static const char *const cr_pocket_names[CR_POCKET_COUNT] = {
    [CR_POCKET_HEAD_LEFT] = "head-left", [CR_POCKET_HEAD_RIGHT] = "head-right",
    [CR_POCKET_SIDE_LEFT] = "side-left", [CR_POCKET_SIDE_RIGHT] = "side-right",
    [CR_POCKET_FOOT_LEFT] = "foot-left", [CR_POCKET_FOOT_RIGHT] = "foot-right",
};

/* SPEC §2 --game, indexed by cr_game_t. */
static const char *const cr_game_names[CR_GAME_COUNT] = {
    [CR_GAME_NONE] = "none", [CR_GAME_8BALL] = "8ball", [CR_GAME_9BALL] = "9ball",
    [CR_GAME_10BALL] = "10ball", [CR_GAME_14_1] = "14.1",
};

/* Index of name in names[0..n-1], or -1 (also for NULL). */
static int cr_name_find(const char *const *names, int n, const char *name)
{
    int i;

    if (!name)
        return -1;
    for (i = 0; i < n; i++) {
        if (strcmp(names[i], name) == 0)
            return i;
    }
    return -1;
}

const char *cr_status_str(int status)
{
    switch (status) {
    case CR_OK:
        return "success";
    case CR_ERR_NOMEM:
        return "out of memory";
    case CR_ERR_INVALID:
        return "invalid argument";
    case CR_ERR_IO:
        return "input/output error";
    case CR_ERR_PARSE:
        return "malformed input";
    case CR_ERR_UNSUPPORTED:
        return "not supported";
    case CR_ERR_FULL:
        return "output full";
    default:
        return "unknown status";
    }
}

const char *cr_rail_name(cr_rail_t rail)
{
    if ((int)rail < 0 || rail >= CR_RAIL_COUNT)
        return "?";
    return cr_rail_names[rail];
}

cr_rail_t cr_rail_parse(const char *name)
{
    int i = cr_name_find(cr_rail_names, CR_RAIL_COUNT, name);

    return i < 0 ? CR_RAIL_NONE : (cr_rail_t)i;
}

const char *cr_pocket_name(cr_pocket_t pocket)
{
    if ((int)pocket < 0 || pocket >= CR_POCKET_COUNT)
        return "?";
    return cr_pocket_names[pocket];
}

cr_pocket_t cr_pocket_parse(const char *name)
{
    int i = cr_name_find(cr_pocket_names, CR_POCKET_COUNT, name);

    return i < 0 ? CR_POCKET_NONE : (cr_pocket_t)i;
}

const char *cr_game_name(cr_game_t game)
{
    if ((int)game < 0 || game >= CR_GAME_COUNT)
        return "?";
    return cr_game_names[game];
}

int cr_game_parse(const char *name, cr_game_t *out)
{
    int i;

    if (!out)
        return CR_ERR_INVALID;
    i = cr_name_find(cr_game_names, CR_GAME_COUNT, name);
    if (i < 0)
        return CR_ERR_INVALID;
    *out = (cr_game_t)i;
    return CR_OK;
}

bool cr_ball_id_valid(int id)
{
    return id >= CR_BALL_CUE && id <= CR_BALL_MAX;
}
