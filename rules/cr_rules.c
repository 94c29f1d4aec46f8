/*
 * cr_rules.c - the judge: follows the event stream shot by shot, finds the
 * general fouls (WPA 2008 section 6) and assembles rulings. The per-game
 * rules live in cr_games.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_rules_internal.h"

/* an early call's stroke (cr_judge_early_contact()) and the shot's own, reconstructed one: the
 * same stroke when this close */
#define EARLY_STROKE_S 0.25
/* the most events an early call is judged with (the operator's input before it) */
#define EARLY_MAX_EVENTS 32

/* A ball whose centre is this much farther than R from a cushion has left it
 * (WPA 8.4: a frozen ball must leave and return to be "driven to a rail"). */
#define CR_LEAVE_MM 5.0

/* ---------------------------------------------------------------- params */

void cr_rules_params_defaults(cr_rules_params_t *p)
{
    memset(p, 0, sizeof(*p));
    p->game = CR_GAME_NONE;
    cr_table_init(&p->table, 2540.0, 1270.0);
    p->edition = CR_EDITION_WPA2008;
    p->kitchen = CR_KITCHEN_WPA;
    p->cue_ball_fouls_only = false;
    p->spot_ascending = true;
    p->rebreak_option_14_1 = false;
    p->benefit_to_shooter = true;
    p->three_ball_rule = false;
    p->open_table_8_exception = false;
    p->ten_ball_safety = true;
    p->ten_ball_win_last_only = false;
    p->break_order = CR_BREAK_ALTERNATE;
    p->calls = CR_CALLS_AUTO;
    p->first_breaker = 1;
    p->shot_clock_s = 0.0;
    p->extension_s = 25.0;
    p->min_confidence = 0.5;
    p->doubt_window_s = 0.030;
    p->lag_tie_mm = 1.0;
    p->target_score_14_1 = 150;
}

int cr_rules_params_set_edition(cr_rules_params_t *p, const char *name)
{
    if (strcmp(name, "wpa2008") == 0) {
        p->edition = CR_EDITION_WPA2008;
        p->kitchen = CR_KITCHEN_WPA;
        p->open_table_8_exception = false;
        p->ten_ball_safety = true;
        p->ten_ball_win_last_only = false;
        p->benefit_to_shooter = true;
        return CR_OK;
    }
    if (strcmp(name, "wpa2025") == 0) {
        p->edition = CR_EDITION_WPA2025;
        p->kitchen = CR_KITCHEN_WPA;
        p->open_table_8_exception = true;
        p->ten_ball_safety = false;
        p->ten_ball_win_last_only = true;
        p->benefit_to_shooter = true;
        p->cue_ball_fouls_only = false;
        return CR_OK;
    }
    if (strcmp(name, "bca") == 0) {
        p->edition = CR_EDITION_WPA2008;
        p->kitchen = CR_KITCHEN_SEED;
        p->spot_ascending = true;
        p->open_table_8_exception = false;
        p->ten_ball_safety = true;
        p->ten_ball_win_last_only = false;
        return CR_OK;
    }
    return CR_ERR_INVALID;
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "on")) {
        *out = true;
        return CR_OK;
    }
    if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "off")) {
        *out = false;
        return CR_OK;
    }
    return CR_ERR_INVALID;
}

static int parse_num(const char *v, double lo, double hi, double *out)
{
    char *end;
    double d = strtod(v, &end);

    if (end == v || *end != '\0' || !isfinite(d) || d < lo || d > hi)
        return CR_ERR_INVALID;
    *out = d;
    return CR_OK;
}

int cr_rules_params_set(cr_rules_params_t *p, const char *key, const char *v)
{
    double d;

    if (!strcmp(key, "kitchen")) {
        if (!strcmp(v, "wpa"))
            p->kitchen = CR_KITCHEN_WPA;
        else if (!strcmp(v, "seed") || !strcmp(v, "bca"))
            p->kitchen = CR_KITCHEN_SEED;
        else
            return CR_ERR_INVALID;
        return CR_OK;
    }
    if (!strcmp(key, "touch")) {
        if (!strcmp(v, "all"))
            p->cue_ball_fouls_only = false;
        else if (!strcmp(v, "cue"))
            p->cue_ball_fouls_only = true;
        else
            return CR_ERR_INVALID;
        return CR_OK;
    }
    if (!strcmp(key, "spot_order")) {
        if (!strcmp(v, "ascending"))
            p->spot_ascending = true;
        else if (!strcmp(v, "none"))
            p->spot_ascending = false;
        else
            return CR_ERR_INVALID;
        return CR_OK;
    }
    if (!strcmp(key, "rebreak_14_1")) {
        if (!strcmp(v, "offender"))
            p->rebreak_option_14_1 = false;
        else if (!strcmp(v, "option"))
            p->rebreak_option_14_1 = true;
        else
            return CR_ERR_INVALID;
        return CR_OK;
    }
    if (!strcmp(key, "doubt")) {
        if (!strcmp(v, "shooter"))
            p->benefit_to_shooter = true;
        else if (!strcmp(v, "opponent"))
            p->benefit_to_shooter = false;
        else
            return CR_ERR_INVALID;
        return CR_OK;
    }
    if (!strcmp(key, "break_order")) {
        if (!strcmp(v, "alternate"))
            p->break_order = CR_BREAK_ALTERNATE;
        else if (!strcmp(v, "winner"))
            p->break_order = CR_BREAK_WINNER;
        else
            return CR_ERR_INVALID;
        return CR_OK;
    }
    if (!strcmp(key, "calls")) {
        if (!strcmp(v, "auto"))
            p->calls = CR_CALLS_AUTO;
        else if (!strcmp(v, "strict"))
            p->calls = CR_CALLS_STRICT;
        else
            return CR_ERR_INVALID;
        return CR_OK;
    }
    if (!strcmp(key, "three_ball_rule"))
        return parse_bool(v, &p->three_ball_rule);
    if (!strcmp(key, "open_table_8"))
        return parse_bool(v, &p->open_table_8_exception);
    if (!strcmp(key, "ten_ball_safety"))
        return parse_bool(v, &p->ten_ball_safety);
    if (!strcmp(key, "ten_ball_last_only"))
        return parse_bool(v, &p->ten_ball_win_last_only);
    if (!strcmp(key, "first_breaker")) {
        if (parse_num(v, 1, 2, &d) || (d != 1 && d != 2))
            return CR_ERR_INVALID;
        p->first_breaker = (int)d;
        return CR_OK;
    }
    if (!strcmp(key, "shot_clock"))
        return parse_num(v, 0, 3600, &p->shot_clock_s);
    if (!strcmp(key, "extension"))
        return parse_num(v, 0, 3600, &p->extension_s);
    if (!strcmp(key, "min_confidence"))
        return parse_num(v, 0, 1, &p->min_confidence);
    if (!strcmp(key, "doubt_window"))
        return parse_num(v, 0, 1, &p->doubt_window_s);
    if (!strcmp(key, "lag_tie_mm"))
        return parse_num(v, 0, 100, &p->lag_tie_mm);
    if (!strcmp(key, "target")) {
        if (parse_num(v, 1, 10000, &d) || d != floor(d))
            return CR_ERR_INVALID;
        p->target_score_14_1 = (int)d;
        return CR_OK;
    }
    return CR_ERR_INVALID;
}

/* ---------------------------------------------------------------- helpers */

int cr_other(int player)
{
    return player == 1 ? 2 : 1;
}

const char *cr_ball_str(int id, char buf[16])
{
    if (id == CR_BALL_CUE)
        return "the cue ball";
    if (id < 0)
        return "an unidentified ball";
    snprintf(buf, 16, "the %d", id);
    return buf;
}

void cr_appendf(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;

    if (n + 1 >= cap)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

/* The WPA number for each code. Game-specific codes carry their game's
 * section: 9-ball 2.x, 8-ball 3.x, 14.1 4.x (2008), 10-ball (2009). */
const char *cr_rules_foul_rule(const char *code, cr_game_t game)
{
    static const struct {
        const char *code;
        const char *rule;
    } general[] = {
        {"cue_ball_scratch", "6.1"},
        {"cue_ball_off_table", "6.1"},
        {"wrong_ball_first", "6.2"},
        {"no_rail", "6.3"},
        {"object_ball_off_table", "6.5"},
        {"touched_ball", "6.6"},
        {"double_hit", "6.7"},
        {"push_shot", "6.8"},
        {"balls_moving", "6.9"},
        {"bad_cue_ball_placement", "6.10"},
        {"bad_play_from_behind_head_string", "6.11"},
        {"three_consecutive_fouls", "6.14"},
        {"slow_play", "6.15"},
    };
    size_t i;

    if (!strcmp(code, "no_contact"))
        return (game == CR_GAME_NONE || game == CR_GAME_14_1) ? "6.3" : "6.2";
    if (!strcmp(code, "illegal_break")) {
        switch (game) {
        case CR_GAME_8BALL:
            return "3.3";
        case CR_GAME_9BALL:
            return "2.3";
        case CR_GAME_10BALL:
            return "3"; /* 10-ball (2009) section 3, Legal Break Shot */
        default:
            return "";
        }
    }
    if (!strcmp(code, "breaking_foul"))
        return "4.10";
    if (!strcmp(code, "eight_ball_loss"))
        return "3.8";
    for (i = 0; i < sizeof(general) / sizeof(general[0]); i++)
        if (!strcmp(general[i].code, code))
            return general[i].rule;
    return "";
}

bool cr_game_uses_three_fouls(cr_game_t g)
{
    /* 6.14 does not apply to 8-ball (WPA 2008 3.x, RULES.md §4.12). */
    return g != CR_GAME_8BALL;
}

cr_foul_t *cr_shot_add_foul(cr_judge_t *j, const char *code, double t, double confidence, const char *fmt, ...)
{
    cr_shot_t *s = &j->s;
    cr_foul_t *f;
    va_list ap;

    if (cr_shot_has_foul(s, code) || s->n_fouls >= CR_MAX_FOULS)
        return NULL;
    f = &s->fouls[s->n_fouls++];
    memset(f, 0, sizeof(*f));
    snprintf(f->code, sizeof(f->code), "%s", code);
    snprintf(f->rule, sizeof(f->rule), "%s", cr_rules_foul_rule(code, j->p.game));
    f->t = t;
    f->confidence = confidence;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
    if (f->detail[0] >= 'a' && f->detail[0] <= 'z')
        f->detail[0] = (char)(f->detail[0] - 'a' + 'A');
    return f;
}

bool cr_shot_has_foul(const cr_shot_t *s, const char *code)
{
    int i;

    for (i = 0; i < s->n_fouls; i++)
        if (!strcmp(s->fouls[i].code, code))
            return true;
    return false;
}

bool cr_shot_pocketed(const cr_shot_t *s, int id)
{
    int i;

    for (i = 0; i < s->n_pocketed; i++)
        if (s->pocketed[i] == id)
            return true;
    return false;
}

bool cr_shot_off(const cr_shot_t *s, int id)
{
    int i;

    for (i = 0; i < s->n_off; i++)
        if (s->off[i] == id)
            return true;
    return false;
}

int cr_shot_object_pocketed_count(const cr_shot_t *s)
{
    int i, n = 0;

    for (i = 0; i < s->n_pocketed; i++)
        if (s->pocketed[i] > 0)
            n++;
    return n;
}

/* The balls of a full rack of the game (all 15 for none). */
void cr_judge_rack_balls(cr_judge_t *j)
{
    int top, i;

    switch (j->p.game) {
    case CR_GAME_9BALL:
        top = 9;
        break;
    case CR_GAME_10BALL:
        top = 10;
        break;
    default:
        top = 15;
        break;
    }
    for (i = 0; i < CR_NUM_BALLS; i++)
        j->on_table[i] = i <= top;
}

/* Writes a foul event for f into out. */
static void foul_event(const cr_judge_t *j, const cr_foul_t *f, int shot, cr_event_t *out)
{
    cr_event_init(out, CR_EV_FOUL);
    out->t = f->t;
    out->shot = shot;
    snprintf(out->code, sizeof(out->code), "%s", f->code);
    snprintf(out->rule, sizeof(out->rule), "%s", f->rule);
    snprintf(out->detail, sizeof(out->detail), "%s", f->detail);
    out->confidence = f->confidence;
}

/* Emits every foul of the shot not yet written. */
static int flush_fouls(cr_judge_t *j, cr_event_t *out, int cap, int n)
{
    int i;

    for (i = 0; i < j->s.n_fouls && n < cap; i++) {
        if (j->s.fouls[i].emitted)
            continue;
        foul_event(j, &j->s.fouls[i], j->s.shot, &out[n++]);
        j->s.fouls[i].emitted = true;
    }
    return n;
}

/* ------------------------------------------------------- first contact */

/* Whether the cue ball may contact `ball` first on the shot in progress
 * (6.2, and the games' rules on legal targets). why gets the reason when
 * it may not. */
bool cr_game_target_legal(const cr_judge_t *j, int ball, char *why, size_t why_len)
{
    const cr_shot_t *s = &j->s;
    char b2[16];
    int g, i, shooter_group;
    bool group_left = false;

    why[0] = '\0';
    if (s->is_push_out)
        return true; /* 9-ball 2.7: 6.2 does not apply to a push-out */
    if (s->is_break && j->p.game != CR_GAME_9BALL && j->p.game != CR_GAME_10BALL)
        return true; /* 8-ball and 14.1 breaks may contact any ball first */
    switch (j->p.game) {
    case CR_GAME_9BALL:
    case CR_GAME_10BALL:
        /* a ball the cue ball touched was on the table even when the
         * stroke's list missed it (vision could not name it then) */
        if (s->lowest < 0 || ball == s->lowest || (ball > 0 && ball < s->lowest))
            return true;
        snprintf(why, why_len, "the lowest ball on the table was %s", cr_ball_str(s->lowest, b2));
        return false;
    case CR_GAME_8BALL:
        shooter_group = j->groups[s->shooter];
        if (shooter_group == 0) {
            bool solids_gone = true, stripes_gone = true;

            if (ball != 8)
                return true;
            for (i = 1; i <= 15; i++) {
                if (i == 8 || !s->on_table[i])
                    continue;
                if (i < 8)
                    solids_gone = false;
                else
                    stripes_gone = false;
            }
            if (j->p.open_table_8_exception && (solids_gone || stripes_gone))
                return true;
            snprintf(why, why_len, "the table was open, and the 8 may not be contacted first on an open table");
            return false;
        }
        for (i = 1; i <= 15; i++)
            if (i != 8 && s->on_table[i] && ((i < 8) == (shooter_group == 1)))
                group_left = true;
        if (group_left) {
            g = ball == 8 ? 0 : (ball < 8 ? 1 : 2);
            if (g == shooter_group)
                return true;
            snprintf(why, why_len, "player %d shoots the %s", s->shooter, shooter_group == 1 ? "solids" : "stripes");
            return false;
        }
        if (ball == 8)
            return true;
        snprintf(why, why_len, "player %d had cleared the %s and had to contact the 8 first", s->shooter,
                 shooter_group == 1 ? "solids" : "stripes");
        return false;
    default:
        return true; /* none, 14.1: any ball may be contacted first */
    }
}

/* 6.11 ¶1 (and the seed's exception): with ball in hand behind the head
 * string, the first ball contacted lies behind the head string and the cue
 * ball had not crossed the head string before the contact. */
static void judge_kitchen_first_contact(cr_judge_t *j)
{
    cr_shot_t *s = &j->s;
    char b[16];
    int fb = s->first_ball;

    if (s->bih != CR_BIH_BEHIND_HEAD || fb < 0 || !s->has_pos[fb])
        return;
    if (!cr_table_behind_head_string(&j->p.table, s->pos[fb].x))
        return; /* a ball on or in front of the head string is playable */
    if (s->cue_crossed && s->t_crossed <= s->t_first)
        return;
    cr_shot_add_foul(j, "bad_play_from_behind_head_string", s->t_first, 1.0,
                     "With ball in hand behind the head string, the cue ball first contacted %s, which lay behind the "
                     "head string (x = %.1f mm), without first crossing the head string (x = %.1f mm).",
                     cr_ball_str(fb, b), s->pos[fb].x, cr_table_head_string_x(&j->p.table));
}

/* Foul f (NULL: none added) of the shot, about ball, is the one called
 * early (k) for this shot: its line was written then. */
static void confirm_early(cr_judge_t *j, int k, cr_foul_t *f, int ball)
{
    if (f && j->early[k].on && j->early[k].started && j->early[k].ball == ball) {
        f->emitted = true;
        j->early[k].confirmed = true;
    }
}

/* Judges 6.2 on the first contact. With final = false (the contact just
 * arrived) an uncertain contact is left for the end of the shot. */
static void judge_first_contact(cr_judge_t *j, bool final)
{
    cr_shot_t *s = &j->s;
    char why[160], why2[160], b1[16], b2[16];
    bool legal1, legal2, doubt;
    cr_foul_t *f;

    if (s->first_judged || (s->first_ball < 0 && !s->unknown_contact))
        return;
    if (s->is_push_out)
        goto judged; /* 6.2 is suspended on a push-out (9-ball 2.7) */
    if (s->unknown_contact && (s->first_ball < 0 || s->t_unknown <= s->t_first)) {
        /* the first ball touched could not be identified: 6.2 cannot be judged */
        snprintf(s->note, sizeof(s->note),
                 "The cue ball first contacted a ball the camera could not identify; 6.2 was not judged.");
        goto judged;
    }
    doubt = s->first_conf < 1.0 || (s->second_ball >= 0 && s->t_second - s->t_first < 1e-4);
    if (!final && doubt)
        return;
    legal1 = cr_game_target_legal(j, s->first_ball, why, sizeof(why));
    if (legal1)
        goto judged;
    if (doubt && s->second_ball >= 0 && s->t_second - s->t_first <= j->p.doubt_window_s) {
        legal2 = cr_game_target_legal(j, s->second_ball, why2, sizeof(why2));
        if (legal2 && j->p.benefit_to_shooter) {
            snprintf(s->note, sizeof(s->note),
                     "The cue ball contacted %s and %s %.1f ms apart and the order could not be resolved "
                     "(confidence %.2f); the shooter gets the benefit of the doubt.",
                     cr_ball_str(s->first_ball, b1), cr_ball_str(s->second_ball, b2),
                     (s->t_second - s->t_first) * 1000.0, s->first_conf);
            goto judged;
        }
    }
    f = cr_shot_add_foul(j, "wrong_ball_first", s->t_first, s->first_conf, "The cue ball first contacted %s; %s.",
                         cr_ball_str(s->first_ball, b1), why);
    confirm_early(j, CR_EARLY_FIRST, f, s->first_ball);
judged:
    s->first_judged = true;
    judge_kitchen_first_contact(j);
}

/* ------------------------------------------------------ shot bookkeeping */

/* A position of `ball` seen during the shot: crossing of the head string,
 * leaving a frozen rail, and (for lags) the long string. */
static void saw_position(cr_judge_t *j, int ball, double t, double x, double y)
{
    cr_shot_t *s = &j->s;
    cr_point_t pt = {x, y};
    int r;

    if (ball < 0 || ball >= CR_NUM_BALLS || !isfinite(x) || !isfinite(y))
        return;
    if (ball == CR_BALL_CUE && !cr_table_behind_head_string(&j->p.table, x) && !s->cue_crossed) {
        s->cue_crossed = true;
        s->t_crossed = t;
    }
    for (r = 0; r < CR_RAIL_COUNT; r++)
        if ((s->frozen[ball] & (1u << r)) &&
            cr_table_distance_to_rail(&j->p.table, (cr_rail_t)r, pt) > j->p.table.ball_radius_mm + CR_LEAVE_MM)
            s->left_rail[ball] |= 1u << r;
}

/* When the cue ball first touched any ball, identified or not (INFINITY:
 * not yet). */
static double first_contact_t(const cr_shot_t *s)
{
    return fmin(s->first_ball >= 0 ? s->t_first : INFINITY, s->unknown_contact ? s->t_unknown : INFINITY);
}

/* Whether the cue ball had touched any ball (identified or not) by t. */
static bool shot_after_contact(const cr_shot_t *s, double t)
{
    return t >= first_contact_t(s);
}

bool cr_shot_rail_after_contact(const cr_shot_t *s, int id)
{
    int i;

    if (id >= 0)
        return id < CR_NUM_BALLS && shot_after_contact(s, s->t_rail[id]);
    for (i = 0; i < CR_NUM_BALLS; i++)
        if (shot_after_contact(s, s->t_rail[i]))
            return true;
    return shot_after_contact(s, s->t_rail_unknown);
}

/* The last rail contact of the shot by any ball (-INFINITY: none). */
static double rail_before(const cr_shot_t *s)
{
    double t = s->t_rail_unknown;

    for (int i = 0; i < CR_NUM_BALLS; i++)
        t = fmax(t, s->t_rail[i]);
    return t;
}

bool cr_shot_rail_any(const cr_shot_t *s, int id)
{
    return id >= 0 && id < CR_NUM_BALLS && s->t_rail[id] > -INFINITY;
}

static void ruling_event_init(cr_judge_t *j, cr_event_t *out, double t, int shot)
{
    cr_event_init(out, CR_EV_RULING);
    out->t = t;
    out->shot = shot;
    out->ruling.winner = 0;
}

static void set_fouls_in_row(const cr_judge_t *j, cr_ruling_t *r)
{
    r->fouls_in_row[1] = j->fouls_in_row[1];
    r->fouls_in_row[2] = j->fouls_in_row[2];
    r->warning = cr_game_uses_three_fouls(j->p.game) && !r->game_over && r->next_player >= 1 &&
                 j->fouls_in_row[r->next_player] == 2;
    if (r->warning)
        cr_appendf(r->detail, sizeof(r->detail), " Player %d is on two fouls: a third consecutive foul %s.",
                   r->next_player,
                   j->p.game == CR_GAME_14_1 ? "costs 15 more points and a re-break" : "loses the rack");
}

/* The shot early calls belonged to is judged: for each its own events did
 * not confirm, says so. */
static int early_withdrawn(cr_judge_t *j, double t, cr_event_t *out, int cap, int n)
{
    int k;

    for (k = 0; k < CR_EARLY_COUNT; k++) {
        if (!j->early[k].on)
            continue;
        if (!j->early[k].confirmed && n < cap) {
            cr_event_init(&out[n], CR_EV_WARNING);
            out[n].t = t;
            out[n].shot = j->early[k].started ? j->s.shot : -1;
            snprintf(out[n].code, sizeof(out[n].code), "early_call_withdrawn");
            snprintf(out[n].detail, sizeof(out[n].detail),
                     "The %s foul called at %.3f s (%.300s) is withdrawn: the shot's reconstructed events do not "
                     "give it.",
                     j->early[k].code, j->early[k].t, j->early[k].detail);
            n++;
        }
        memset(&j->early[k], 0, sizeof(j->early[k]));
    }
    return n;
}

/* Closes the shot in progress: the fouls that need the whole shot, the game's
 * ruling, the state for the next shot. rest may be NULL (stream ended, or the
 * next stroke came before every ball stopped). */
static int end_shot(cr_judge_t *j, const cr_event_t *rest, double t_end, bool stream_end, cr_event_t *out, int cap,
                    int n)
{
    cr_shot_t *s = &j->s;
    cr_ruling_t *r;
    cr_event_t *ev;
    char b[16];
    int i, k;
    bool rail_ok, crossed;

    if (!s->active)
        return n;
    s->t_end = t_end;
    if (rest) {
        for (i = 0; i < rest->n_balls; i++) {
            int id = rest->balls[i].id;

            if (id < 0 || id >= CR_NUM_BALLS)
                continue;
            s->has_rest[id] = true;
            s->rest[id].x = rest->balls[i].x;
            s->rest[id].y = rest->balls[i].y;
        }
        if (s->has_rest[CR_BALL_CUE])
            saw_position(j, CR_BALL_CUE, t_end, s->rest[0].x, s->rest[0].y);
    }

    judge_first_contact(j, true);

    /* 6.2/6.3 no contact: the cue ball touched no ball (suspended on a push-out). */
    if (s->first_ball < 0 && !s->unknown_contact && !s->is_push_out)
        cr_shot_add_foul(j, "no_contact", t_end, 1.0, "The cue ball did not contact any object ball.");

    /* 6.3 No Rail after Contact: no ball pocketed, and no ball driven to a rail
     * after the first contact (WPA 8.4: pocketed and off-table balls count). */
    rail_ok = cr_shot_rail_after_contact(s, -1);
    for (i = 0; i < s->n_pocketed; i++)
        if (shot_after_contact(s, s->t_pocket[i]))
            rail_ok = true;
    for (i = 0; i < s->n_off; i++)
        if (shot_after_contact(s, s->t_off[i]))
            rail_ok = true;
    if ((s->first_ball >= 0 || s->unknown_contact) && !s->is_break && !s->is_push_out &&
        cr_shot_object_pocketed_count(s) == 0 && !rail_ok) {
        /* a rail met just before the first contact, closer than contacts
         * can be ordered: it may have come after (RULES.md §6 item 6) */
        const double t_c = first_contact_t(s), gap = t_c - rail_before(s);
        const bool doubt = gap <= j->p.doubt_window_s;
        const char *hit = s->first_ball >= 0 && s->t_first <= t_c ? cr_ball_str(s->first_ball, b) : "a ball";

        if (doubt && j->p.benefit_to_shooter) {
            if (!s->note[0])
                snprintf(s->note, sizeof(s->note),
                         "A rail was met %.1f ms before the cue ball first contacted %s and the order could not be "
                         "resolved; the shooter gets the benefit of the doubt (6.3).",
                         gap * 1000.0, hit);
        } else {
            cr_shot_add_foul(j, "no_rail", t_end, doubt ? 0.5 : 1.0,
                             "After the cue ball contacted %s, no ball was pocketed and no ball was driven to a rail.",
                             hit);
        }
    }

    /* 6.11 ¶2: the cue ball must cross the head string or contact a ball on
     * or in front of it. A cue ball pocketed in a pocket past the string
     * crossed it. */
    if (s->bih == CR_BIH_BEHIND_HEAD) {
        crossed = s->cue_crossed;
        for (i = 0; i < s->n_pocketed; i++)
            if (s->pocketed[i] == CR_BALL_CUE &&
                !cr_table_behind_head_string(&j->p.table, cr_table_pocket_point(&j->p.table, s->pocket_of[i]).x))
                crossed = true;
        if (cr_shot_off(s, CR_BALL_CUE))
            crossed = true; /* cannot be judged; 6.1 applies anyway */
        if (!crossed && !(s->first_ball >= 0 && s->has_pos[s->first_ball] &&
                          !cr_table_behind_head_string(&j->p.table, s->pos[s->first_ball].x)))
            cr_shot_add_foul(j, "bad_play_from_behind_head_string", t_end, 1.0,
                             "With ball in hand behind the head string, the cue ball neither crossed the head string "
                             "nor contacted a ball on or in front of it.");
    }

    if (n >= cap)
        return n;
    ev = &out[cap - 1]; /* build in the last slot, move into place at the end */
    ruling_event_init(j, ev, t_end, s->shot);
    r = &ev->ruling;
    r->kind = CR_RULING_SHOT;
    r->player = s->shooter;
    r->break_shot = s->is_break;
    r->push_out = s->is_push_out;
    for (i = 0; i < s->n_pocketed && r->n_pocketed < CR_NUM_BALLS; i++)
        r->pocketed[r->n_pocketed++] = s->pocketed[i];

    cr_games_end_shot(j, r); /* may add game fouls; sets the rest */

    for (i = 0, k = 0; i < s->n_fouls && k < CR_EVENT_MAX_CODES; i++)
        snprintf(r->fouls[k++], CR_CODE_LEN, "%s", s->fouls[i].code);
    r->n_fouls = k;
    r->legal = s->n_fouls == 0;
    if (!rest)
        cr_appendf(r->detail, sizeof(r->detail), " (Judged without a rest event: %s)",
                   stream_end ? "the stream ended" : "the next stroke came before every ball had stopped");
    set_fouls_in_row(j, r);

    n = flush_fouls(j, out, cap - 1, n);
    if (n < cap - 1)
        memmove(&out[n], ev, sizeof(*ev));
    n++;

    n = early_withdrawn(j, t_end, out, cap, n);

    j->bih_optional = j->bih_optional && j->bih != CR_BIH_NONE;
    j->has_ready = true;
    j->t_ready = t_end;
    j->placed_since_rest = false;
    s->active = false;
    return n;
}

/* ------------------------------------------------------------------ lag */

static int lag_player_of_ball(const cr_lag_t *l, int ball)
{
    if (l->ball[1] == ball)
        return 1;
    if (l->ball[2] == ball)
        return 2;
    return 0;
}

static void lag_saw(cr_judge_t *j, int p, double y)
{
    cr_lag_t *l = &j->lag;
    double ls = cr_table_long_string_y(&j->p.table);

    if (p == 0 || !l->struck[p] || !isfinite(y))
        return;
    if ((l->start[p].y < ls && y > ls) || (l->start[p].y > ls && y < ls))
        l->crossed[p] = true;
}

/* The lag's ruling (RULES.md §4.13, WPA 1.2). */
static int end_lag(cr_judge_t *j, const cr_event_t *rest, cr_event_t *out, int cap, int n)
{
    cr_lag_t *l = &j->lag;
    cr_event_t *ev;
    cr_ruling_t *r;
    const cr_table_t *t = &j->p.table;
    char why[3][200];
    double dist[3] = {0, 0, 0};
    bool bad[3] = {false, false, false};
    int p, i;

    if (n >= cap)
        return n;
    for (i = 0; rest && i < rest->n_balls; i++) {
        p = lag_player_of_ball(l, rest->balls[i].id);
        if (p) {
            l->has_rest[p] = true;
            l->rest[p].x = rest->balls[i].x;
            l->rest[p].y = rest->balls[i].y;
            lag_saw(j, p, l->rest[p].y);
        }
    }
    for (p = 1; p <= 2; p++) {
        why[p][0] = '\0';
        if (!l->struck[p])
            snprintf(why[p], sizeof(why[p]), "player %d's ball was not struck", p);
        else if (cr_table_head_string_x(t) <= l->start[p].x)
            snprintf(why[p], sizeof(why[p]), "player %d's ball was not struck from behind the head string", p);
        else if (l->gone[p])
            snprintf(why[p], sizeof(why[p]), "player %d's ball was pocketed or left the table", p);
        else if (l->foot_contacts[p] != 1)
            snprintf(why[p], sizeof(why[p]), "player %d's ball touched the foot cushion %d times", p,
                     l->foot_contacts[p]);
        else if (l->side_contact[p])
            snprintf(why[p], sizeof(why[p]), "player %d's ball touched a side cushion", p);
        else if (l->crossed[p])
            snprintf(why[p], sizeof(why[p]), "player %d's ball crossed the long string", p);
        else if (l->fouled[p])
            snprintf(why[p], sizeof(why[p]), "player %d committed a foul on the lag", p);
        else if (!l->has_rest[p])
            snprintf(why[p], sizeof(why[p]), "player %d's ball was not seen at rest", p);
        else if (l->rest[p].x < t->ball_radius_mm - 3.0)
            snprintf(why[p], sizeof(why[p]), "player %d's ball came to rest in a corner pocket mouth beyond the "
                                              "head cushion nose", p);
        bad[p] = why[p][0] != '\0';
        if (!bad[p])
            dist[p] = fmax(0.0, l->rest[p].x - t->ball_radius_mm);
    }

    ev = &out[n];
    /* no rest: the stream ended (cr_judge_finish) */
    ruling_event_init(j, ev, rest ? rest->t : fmax(j->t_last, l->t_stroke[1]), rest ? rest->shot : -1);
    r = &ev->ruling;
    r->kind = CR_RULING_LAG;
    r->legal = true;
    if (bad[1] && bad[2]) {
        snprintf(r->detail, sizeof(r->detail), "Both lags were bad (%s; %s): the lag is replayed.", why[1], why[2]);
    } else if (l->struck[1] && l->struck[2] &&
               ((l->t_stroke[2] > l->t_first_foot[1] + 1e-6) || (l->t_stroke[1] > l->t_first_foot[2] + 1e-6))) {
        p = l->t_stroke[2] > l->t_first_foot[1] ? 2 : 1;
        snprintf(r->detail, sizeof(r->detail),
                 "Player %d's ball was struck after the other ball had touched the foot cushion: the lag is replayed.",
                 p);
    } else if (bad[1] || bad[2]) {
        p = bad[1] ? 2 : 1;
        r->lag_winner = p;
        snprintf(r->detail, sizeof(r->detail), "Player %d wins the lag: %s.", p, bad[1] ? why[1] : why[2]);
    } else if (fabs(dist[1] - dist[2]) < j->p.lag_tie_mm) {
        snprintf(r->detail, sizeof(r->detail),
                 "The two balls stopped %.1f mm and %.1f mm from the head cushion, closer than %.1f mm: a tie, the "
                 "lag is replayed.",
                 dist[1], dist[2], j->p.lag_tie_mm);
    } else {
        p = dist[1] < dist[2] ? 1 : 2;
        r->lag_winner = p;
        snprintf(r->detail, sizeof(r->detail),
                 "Player %d wins the lag: the ball stopped %.1f mm from the head cushion against %.1f mm.", p,
                 dist[p], dist[cr_other(p)]);
    }
    if (r->lag_winner) {
        /* The winner chooses who breaks; by default the winner breaks. An
         * input "player" line records another choice. */
        j->breaker = r->lag_winner;
        j->at_table = r->lag_winner;
        r->next_player = r->lag_winner;
        r->n_options = 2;
        snprintf(r->options[0], CR_CODE_LEN, "shoot");
        snprintf(r->options[1], CR_CODE_LEN, "pass");
        cr_appendf(r->detail, sizeof(r->detail), " The winner chooses who breaks.");
    } else {
        r->next_player = 0;
    }
    r->ball_in_hand = CR_BIH_BEHIND_HEAD;
    memset(l, 0, sizeof(*l));
    return n + 1;
}

/* ---------------------------------------------------------------- create */

static void new_rack(cr_judge_t *j, int breaker)
{
    cr_judge_rack_balls(j);
    j->breaker = breaker;
    j->at_table = breaker;
    j->need_break = j->p.game != CR_GAME_NONE;
    j->bih = CR_BIH_BEHIND_HEAD;
    j->bih_optional = false;
    j->push_out_available = false;
    j->fouls_in_row[1] = j->fouls_in_row[2] = 0;
    j->groups[1] = j->groups[2] = 0;
    j->ext_used[1] = j->ext_used[2] = false;
    if (j->game_over && j->p.game == CR_GAME_14_1)
        j->score[1] = j->score[2] = 0;
    j->game_over = false;
    j->winner = 0;
}

int cr_judge_create(const cr_rules_params_t *p, cr_judge_t **out)
{
    cr_judge_t *j;

    if (!p || !out || p->game < 0 || p->game >= CR_GAME_COUNT || !(p->table.length_mm > 0) ||
        !(p->table.width_mm > 0) || (p->first_breaker != 1 && p->first_breaker != 2))
        return CR_ERR_INVALID;
    j = calloc(1, sizeof(*j));
    if (!j)
        return CR_ERR_NOMEM;
    j->p = *p;
    new_rack(j, p->first_breaker);
    j->bih = p->game == CR_GAME_NONE ? CR_BIH_NONE : CR_BIH_BEHIND_HEAD;
    j->call_ball = -1;
    j->call_pocket = CR_POCKET_NONE;
    j->t_last = -INFINITY;
    *out = j;
    return CR_OK;
}

void cr_judge_destroy(cr_judge_t *j)
{
    free(j);
}

const char *cr_judge_error(const cr_judge_t *j)
{
    return j ? j->err : "";
}

/* --------------------------------------------------------------- events */

static void start_shot(cr_judge_t *j, const cr_event_t *ev)
{
    cr_shot_t *s = &j->s;
    const cr_table_t *t = &j->p.table;
    int i, id, n_seen = 0, n_unknown = 0, n_unlisted = 0;
    bool keep;

    memset(s, 0, sizeof(*s));
    for (i = 0; i < CR_EARLY_COUNT; i++)
        if (j->early[i].on && !j->early[i].started) /* the shot an early call was for: the call after its stroke */
            j->early[i].started = ev->t < j->early[i].t;
    for (i = 0; i < CR_NUM_BALLS; i++)
        s->t_rail[i] = -INFINITY;
    s->t_rail_unknown = -INFINITY;
    s->active = true;
    s->shot = ev->shot;
    s->t_stroke = ev->t;
    if (ev->player == 1 || ev->player == 2)
        j->at_table = ev->player; /* who shot is known: an option was taken */
    s->shooter = j->at_table;
    s->is_break = j->need_break && j->p.game != CR_GAME_NONE;
    s->bih = j->bih;
    s->first_ball = s->second_ball = -1;
    s->first_conf = 1.0;
    s->call_ball = j->call_ball;
    s->call_pocket = j->call_pocket;
    s->safety = j->safety;
    s->is_push_out = j->push_out && j->push_out_available && !s->is_break &&
                     (j->p.game == CR_GAME_9BALL || j->p.game == CR_GAME_10BALL);
    j->call_ball = -1;
    j->call_pocket = CR_POCKET_NONE;
    j->safety = false;
    j->push_out = false;

    for (i = 0; i < ev->n_balls; i++) {
        id = ev->balls[i].id;
        if (id < 0 || id >= CR_NUM_BALLS) {
            n_unknown++;
            continue;
        }
        s->has_pos[id] = true;
        s->pos[id].x = ev->balls[i].x;
        s->pos[id].y = ev->balls[i].y;
        s->frozen[id] |= ev->balls[i].frozen_rails;
        n_seen++;
    }
    /* The stroke lists the balls on the table: believe it over the state,
     * except that balls it lists unidentified may be the ones of the state
     * it does not name: when they are enough to be all of those, those stay
     * on the table (the 1 of a 9-ball rack, yellow like the 9, may stay
     * unnamed until it shows its whole side). */
    for (i = 0; i < CR_NUM_BALLS; i++)
        if (j->on_table[i] && !s->has_pos[i])
            n_unlisted++;
    keep = n_unknown > 0 && n_unlisted <= n_unknown;
    for (i = 0; i < CR_NUM_BALLS; i++) {
        if (n_seen > 0)
            j->on_table[i] = s->has_pos[i] || (keep && j->on_table[i]);
        s->on_table[i] = j->on_table[i];
        s->frozen[i] |= j->frozen_decl[i];
        j->frozen_decl[i] = 0;
    }
    s->lowest = -1;
    for (i = 1; i < CR_NUM_BALLS; i++)
        if (s->on_table[i]) {
            s->lowest = i;
            break;
        }
    if (s->has_pos[CR_BALL_CUE] && !cr_table_behind_head_string(t, s->pos[CR_BALL_CUE].x)) {
        s->cue_crossed = true; /* already on or past the string */
        s->t_crossed = ev->t;
    }
}

static void stroke_fouls(cr_judge_t *j, const cr_event_t *ev)
{
    cr_shot_t *s = &j->s;
    const cr_table_t *t = &j->p.table;
    char list[CR_TEXT_LEN] = "", b[16];
    int i, n = 0;
    double limit, took;

    /* 6.9 Balls Still Moving (the struck ball included: a cue ball that still
     * rolls when it is struck is a ball in play moving) */
    for (i = 0; i < ev->n_moving; i++) {
        cr_appendf(list, sizeof(list), "%s%s", n ? ", " : "", cr_ball_str(ev->moving[i], b));
        n++;
    }
    if (n)
        cr_shot_add_foul(j, "balls_moving", ev->t, 1.0, "The shot began while %s %s still moving.", list,
                         n > 1 ? "were" : "was");

    /* 6.10 Bad Cue Ball Placement */
    if (s->bih == CR_BIH_BEHIND_HEAD && s->has_pos[CR_BALL_CUE] &&
        !cr_table_behind_head_string(t, s->pos[CR_BALL_CUE].x)) {
        if (j->bih_optional && !j->placed_since_rest) {
            /* The player could accept the table instead of taking ball in
             * hand, did not place the cue ball, and played it from where it
             * lay: the table was accepted (8-ball 3.3). */
            s->bih = CR_BIH_NONE;
            s->cue_crossed = true;
        } else {
            cr_shot_add_foul(j, "bad_cue_ball_placement", ev->t, 1.0,
                             "With ball in hand behind the head string, the cue ball was played from x = %.1f mm, on "
                             "or in front of the head string (x = %.1f mm).",
                             s->pos[CR_BALL_CUE].x, cr_table_head_string_x(t));
        }
    }

    /* 6.15 Slow Play: from rest (or placing the cue ball in hand) to the stroke. */
    if (j->p.shot_clock_s > 0 && j->has_ready) {
        limit = j->p.shot_clock_s;
        if (j->ext_pending[s->shooter] && !j->ext_used[s->shooter]) {
            limit += j->p.extension_s;
            j->ext_used[s->shooter] = true;
        }
        j->ext_pending[s->shooter] = false;
        took = ev->t - j->t_ready;
        if (took > limit)
            cr_shot_add_foul(j, "slow_play", ev->t, 1.0,
                             "The shot was taken %.1f s after the balls stopped; the shot clock allows %.0f s.", took,
                             limit);
    }
}

static int between_shots_foul(cr_judge_t *j, const cr_event_t *ev, const char *code, cr_event_t *out, int cap, int n,
                              const char *detail)
{
    cr_ruling_t *r;
    cr_foul_t f;
    int offender = j->at_table;

    if (n + 2 > cap)
        return n;
    memset(&f, 0, sizeof(f));
    snprintf(f.code, sizeof(f.code), "%s", code);
    snprintf(f.rule, sizeof(f.rule), "%s", cr_rules_foul_rule(code, j->p.game));
    snprintf(f.detail, sizeof(f.detail), "%s", detail);
    f.t = ev->t;
    f.confidence = ev->confidence;
    foul_event(j, &f, -1, &out[n++]);

    ruling_event_init(j, &out[n], ev->t, -1);
    r = &out[n].ruling;
    r->kind = CR_RULING_BETWEEN;
    r->legal = false;
    r->n_fouls = 1;
    snprintf(r->fouls[0], CR_CODE_LEN, "%s", code);
    r->player = offender;
    j->fouls_in_row[offender]++;
    j->at_table = cr_other(offender);
    r->next_player = j->at_table;
    if (j->p.game == CR_GAME_14_1) {
        j->score[offender] -= 1;
        r->has_score = true;
        r->score[1] = j->score[1];
        r->score[2] = j->score[2];
        j->bih = CR_BIH_NONE;
    } else {
        j->bih = CR_BIH_ANYWHERE;
    }
    j->bih_optional = false;
    r->ball_in_hand = j->bih;
    snprintf(r->detail, sizeof(r->detail), "Foul %s by player %d between shots: %s Player %d to shoot%s.",
             f.rule, offender, detail, j->at_table,
             j->bih == CR_BIH_ANYWHERE ? " with ball in hand anywhere" : "");
    if (cr_game_uses_three_fouls(j->p.game) && j->fouls_in_row[offender] >= 3)
        cr_appendf(r->detail, sizeof(r->detail),
                   " This was player %d's third consecutive foul; it is judged with the next shot's rules.", offender);
    set_fouls_in_row(j, r);
    return n + 1;
}

static int on_input(cr_judge_t *j, const cr_event_t *ev, cr_event_t *out, int cap, int n)
{
    bool for_current = j->s.active && ev->shot >= 0 && ev->shot == j->s.shot;

    switch (ev->input_kind) {
    case CR_INPUT_CALL:
        if (for_current) {
            j->s.call_ball = ev->ball;
            j->s.call_pocket = ev->pocket;
        } else {
            j->call_ball = ev->ball;
            j->call_pocket = ev->pocket;
        }
        break;
    case CR_INPUT_SAFETY:
        if (for_current)
            j->s.safety = true;
        else
            j->safety = true;
        break;
    case CR_INPUT_PUSH_OUT:
        j->push_out = true;
        break;
    case CR_INPUT_PLAYER:
        if (ev->player == 1 || ev->player == 2)
            j->at_table = ev->player;
        break;
    case CR_INPUT_RACK:
        new_rack(j, (ev->player == 1 || ev->player == 2) ? ev->player : j->breaker);
        break;
    case CR_INPUT_LAG:
        memset(&j->lag, 0, sizeof(j->lag));
        j->lag.active = true;
        j->lag.ball[1] = ev->lag_ball[0];
        j->lag.ball[2] = ev->lag_ball[1];
        break;
    case CR_INPUT_FROZEN:
        if (ev->ball >= 0 && ev->ball < CR_NUM_BALLS && ev->rail >= 0 && ev->rail < CR_RAIL_COUNT)
            j->frozen_decl[ev->ball] |= 1u << ev->rail;
        break;
    case CR_INPUT_CHOICE:
        if (!strcmp(ev->choice, "accept_table")) {
            j->bih = CR_BIH_NONE;
            j->bih_optional = false;
        } else if (!strcmp(ev->choice, "ball_in_hand")) {
            j->bih_optional = false;
        } else if (!strcmp(ev->choice, "pass")) {
            j->at_table = cr_other(j->at_table);
        } else if (!strcmp(ev->choice, "shoot")) {
            /* the player with the option shoots: nothing changes */
        } else if (!strcmp(ev->choice, "rebreak_self") || !strcmp(ev->choice, "rebreak_opponent")) {
            int who = !strcmp(ev->choice, "rebreak_self") ? j->at_table : cr_other(j->at_table);
            int keep[3] = {0, j->fouls_in_row[1], j->fouls_in_row[2]};

            new_rack(j, who);
            if (j->p.game == CR_GAME_14_1) {
                j->fouls_in_row[1] = keep[1]; /* a re-break keeps the 14.1 foul count */
                j->fouls_in_row[2] = keep[2];
            }
        } else {
            snprintf(j->err, sizeof(j->err), "unknown choice \"%s\"", ev->choice);
            return CR_ERR_INVALID;
        }
        break;
    case CR_INPUT_EXTENSION:
        if (ev->player == 1 || ev->player == 2)
            j->ext_pending[ev->player] = true;
        break;
    default:
        break;
    }
    (void)out;
    (void)cap;
    return n;
}

static int on_lag_event(cr_judge_t *j, const cr_event_t *ev, cr_event_t *out, int cap, int n)
{
    cr_lag_t *l = &j->lag;
    int p, i;

    switch (ev->type) {
    case CR_EV_STROKE:
        p = lag_player_of_ball(l, ev->ball);
        if (!p) {
            snprintf(j->err, sizeof(j->err), "stroke of ball %d during a lag of balls %d and %d", ev->ball, l->ball[1],
                     l->ball[2]);
            return CR_ERR_INVALID;
        }
        l->struck[p] = true;
        l->t_stroke[p] = ev->t;
        l->t_first_foot[p] = INFINITY;
        i = cr_event_find_ball(ev, ev->ball);
        if (i >= 0) {
            l->start[p].x = ev->balls[i].x;
            l->start[p].y = ev->balls[i].y;
        } else {
            l->start[p].x = 0;
            l->start[p].y = NAN;
        }
        break;
    case CR_EV_CUSHION:
        p = lag_player_of_ball(l, ev->ball);
        if (!p)
            break;
        if (ev->rail == CR_RAIL_FOOT) {
            if (l->foot_contacts[p]++ == 0)
                l->t_first_foot[p] = ev->t;
        } else if (ev->rail == CR_RAIL_LEFT || ev->rail == CR_RAIL_RIGHT) {
            l->side_contact[p] = true;
        }
        lag_saw(j, p, ev->y);
        break;
    case CR_EV_POCKET:
    case CR_EV_OFF_TABLE:
        p = lag_player_of_ball(l, ev->ball);
        if (p)
            l->gone[p] = true;
        break;
    case CR_EV_BALLS:
        for (i = 0; i < ev->n_balls; i++)
            lag_saw(j, lag_player_of_ball(l, ev->balls[i].id), ev->balls[i].y);
        break;
    case CR_EV_DISTURBED:
    case CR_EV_DOUBLE_HIT:
    case CR_EV_PUSH_SHOT:
        /* WPA 1.2: a non-object-ball foul other than 6.9 loses the lag. */
        if (ev->type != CR_EV_DISTURBED && ev->confidence < j->p.min_confidence)
            break;
        if (ev->type == CR_EV_DISTURBED && (ev->cause == CR_CAUSE_SETTLE || ev->cause == CR_CAUSE_OUTSIDE))
            break;
        p = lag_player_of_ball(l, ev->ball);
        if (p)
            l->fouled[p] = true;
        else if (ev->type != CR_EV_DISTURBED)
            for (p = 1; p <= 2; p++)
                if (ev->player == p)
                    l->fouled[p] = true;
        break;
    case CR_EV_REST:
        n = end_lag(j, ev, out, cap, n);
        j->has_ready = true;
        j->t_ready = ev->t;
        break;
    default:
        break;
    }
    return n;
}

int cr_judge_feed(cr_judge_t *j, const cr_event_t *ev, cr_event_t *out, int cap)
{
    cr_shot_t *s;
    char b[16], msg[CR_TEXT_LEN];
    int n = 0;
    bool other;

    if (!j || !ev || !out)
        return CR_ERR_INVALID;
    if (cap < CR_JUDGE_MAX_OUT)
        return CR_ERR_FULL;
    j->err[0] = '\0';
    s = &j->s;
    cr_judge_advance(j, ev->t);

    if (ev->type == CR_EV_INPUT)
        return on_input(j, ev, out, cap, n);
    if (j->lag.active)
        return on_lag_event(j, ev, out, cap, n);

    switch (ev->type) {
    case CR_EV_STROKE:
        if (ev->ball != CR_BALL_CUE) {
            snprintf(j->err, sizeof(j->err), "stroke of ball %d outside a lag", ev->ball);
            return CR_ERR_INVALID;
        }
        if (s->active)
            n = end_shot(j, NULL, ev->t, false, out, cap, n);
        if (j->game_over) {
            /* A stroke after the rack was decided: the next rack's break. */
            new_rack(j, j->at_table);
        }
        start_shot(j, ev);
        stroke_fouls(j, ev);
        n = flush_fouls(j, out, cap, n);
        break;

    case CR_EV_COLLISION:
        if (!s->active)
            break;
        if (ev->a == CR_BALL_CUE || ev->b == CR_BALL_CUE) {
            int ob = ev->a == CR_BALL_CUE ? ev->b : ev->a;

            /* the cue ball's centre is within a radius of the contact point:
             * a contact that far past the head string shows it crossed (6.11) */
            if (isfinite(ev->x) && isfinite(ev->y))
                saw_position(j, CR_BALL_CUE, ev->t, ev->x - j->p.table.ball_radius_mm, ev->y);

            if (ob < 0 || ob >= CR_NUM_BALLS) {
                /* an unidentified ball: a contact, but not one 6.2 can judge */
                if (!s->unknown_contact || ev->t < s->t_unknown) {
                    s->unknown_contact = true;
                    s->t_unknown = ev->t;
                }
                if (!s->first_judged)
                    judge_first_contact(j, false);
                n = flush_fouls(j, out, cap, n);
                break;
            }
            if (s->first_ball < 0 || ev->t < s->t_first) {
                s->second_ball = s->first_ball;
                s->t_second = s->t_first;
                s->first_ball = ob;
                s->t_first = ev->t;
                s->first_conf = ev->confidence;
            } else if (ob != s->first_ball && (s->second_ball < 0 || ev->t < s->t_second)) {
                s->second_ball = ob;
                s->t_second = ev->t;
                if (ev->confidence < s->first_conf)
                    s->first_conf = ev->confidence;
            }
            if (!s->first_judged)
                judge_first_contact(j, false);
            n = flush_fouls(j, out, cap, n);
        }
        break;

    case CR_EV_CUSHION:
        if (s->active && (ev->ball < 0 || ev->ball >= CR_NUM_BALLS)) {
            /* an unidentified ball driven to a rail still satisfies 6.3 */
            s->t_rail_unknown = fmax(s->t_rail_unknown, ev->t);
            break;
        }
        if (!s->active || ev->ball < 0 || ev->ball >= CR_NUM_BALLS)
            break;
        saw_position(j, ev->ball, ev->t, ev->x, ev->y);
        other = (s->frozen[ev->ball] & (1u << ev->rail)) && !(s->left_rail[ev->ball] & (1u << ev->rail));
        if (!other) {
            /* WPA 8.4: driven to a rail (a ball frozen to this rail at the
             * stroke counts only once it has left and come back). */
            s->t_rail[ev->ball] = fmax(s->t_rail[ev->ball], ev->t);
        }
        if (ev->ball == CR_BALL_CUE && s->bih == CR_BIH_BEHIND_HEAD && !s->cue_crossed &&
            j->p.kitchen == CR_KITCHEN_SEED && s->first_ball < 0) {
            cr_shot_add_foul(j, "bad_play_from_behind_head_string", ev->t, 1.0,
                             "With ball in hand behind the head string, the cue ball touched the %s cushion before "
                             "crossing the head string (seed/BCA rule).",
                             cr_rail_name(ev->rail));
            n = flush_fouls(j, out, cap, n);
        }
        break;

    case CR_EV_POCKET:
        if (!s->active || ev->shot < 0) {
            /* 1.7: a ball that drops by itself between shots is restored. */
            break;
        }
        if (ev->ball < 0 || ev->ball >= CR_NUM_BALLS) /* an unidentified ball pocketed: 6.3 is met (8.4) */
            s->t_rail_unknown = fmax(s->t_rail_unknown, ev->t);
        if (ev->ball >= 0 && ev->ball < CR_NUM_BALLS && !cr_shot_pocketed(s, ev->ball) &&
            s->n_pocketed < CR_NUM_BALLS) {
            s->pocket_of[s->n_pocketed] = ev->pocket;
            s->t_pocket[s->n_pocketed] = ev->t;
            s->pocketed[s->n_pocketed++] = ev->ball;
        }
        if (ev->ball == CR_BALL_CUE) {
            cr_foul_t *f = cr_shot_add_foul(j, "cue_ball_scratch", ev->t, 1.0,
                                            "The cue ball was pocketed in the %s pocket.", cr_pocket_name(ev->pocket));

            confirm_early(j, CR_EARLY_SCRATCH, f, CR_BALL_CUE);
            n = flush_fouls(j, out, cap, n);
        }
        break;

    case CR_EV_OFF_TABLE:
        if (!s->active || ev->ball < 0 || ev->ball >= CR_NUM_BALLS)
            break;
        if (!cr_shot_off(s, ev->ball) && s->n_off < CR_NUM_BALLS) {
            s->t_off[s->n_off] = ev->t;
            s->off[s->n_off++] = ev->ball;
        }
        if (ev->ball == CR_BALL_CUE)
            cr_shot_add_foul(j, "cue_ball_off_table", ev->t, 1.0, "The cue ball was driven off the table.");
        else
            cr_shot_add_foul(j, "object_ball_off_table", ev->t, 1.0, "%s was driven off the table.",
                             cr_ball_str(ev->ball, b));
        n = flush_fouls(j, out, cap, n);
        break;

    case CR_EV_DISTURBED:
        if (ev->cause == CR_CAUSE_SETTLE || ev->cause == CR_CAUSE_OUTSIDE)
            break; /* 1.7 balls settling, 1.9 outside interference: no foul */
        if (j->p.cue_ball_fouls_only && ev->ball != CR_BALL_CUE)
            break;
        if (s->active && ev->shot >= 0) {
            cr_shot_add_foul(j, "touched_ball", ev->t, 1.0,
                             "%s moved at %.2f s with no stroke or collision to explain it (touched ball).",
                             cr_ball_str(ev->ball, b), ev->t);
            n = flush_fouls(j, out, cap, n);
        } else if (!(ev->ball == CR_BALL_CUE && j->bih != CR_BIH_NONE) && !j->game_over) {
            snprintf(msg, sizeof(msg), "%s moved with no stroke to explain it (touched ball).",
                     cr_ball_str(ev->ball, b));
            msg[0] = msg[0] == 't' ? 'T' : msg[0];
            n = between_shots_foul(j, ev, "touched_ball", out, cap, n, msg);
        }
        break;

    case CR_EV_PLACED:
        if (ev->ball != CR_BALL_CUE)
            break;
        if (s->active && ev->shot >= 0) {
            cr_shot_add_foul(j, "touched_ball", ev->t, 1.0, "The cue ball was placed by hand during the shot.");
            n = flush_fouls(j, out, cap, n);
        } else if (j->bih != CR_BIH_NONE || j->game_over) {
            j->placed_since_rest = true;
            j->bih_optional = false; /* placing it takes the ball in hand */
            j->has_ready = true;
            j->t_ready = ev->t;
        } else {
            n = between_shots_foul(j, ev, "touched_ball", out, cap, n,
                                   "The cue ball was moved by hand without ball in hand.");
        }
        break;

    case CR_EV_DOUBLE_HIT:
    case CR_EV_PUSH_SHOT:
        if (!s->active || ev->confidence < j->p.min_confidence)
            break;
        if (ev->type == CR_EV_DOUBLE_HIT)
            cr_shot_add_foul(j, "double_hit", ev->t, ev->confidence,
                             "The cue ball's motion after the stroke is consistent with a double hit%s%s "
                             "(confidence %.2f).",
                             ev->ball > 0 ? " near " : "", ev->ball > 0 ? cr_ball_str(ev->ball, b) : "",
                             ev->confidence);
        else
            cr_shot_add_foul(j, "push_shot", ev->t, ev->confidence,
                             "The cue tip stayed on the cue ball beyond a normal stroke (confidence %.2f).",
                             ev->confidence);
        n = flush_fouls(j, out, cap, n);
        break;

    case CR_EV_BALLS:
        if (!s->active)
            break;
        for (int i = 0; i < ev->n_balls; i++)
            saw_position(j, ev->balls[i].id, ev->t, ev->balls[i].x, ev->balls[i].y);
        break;

    case CR_EV_REST:
        if (s->active)
            n = end_shot(j, ev, ev->t, false, out, cap, n);
        else {
            j->has_ready = true;
            j->t_ready = ev->t;
        }
        break;

    default: /* session, foul, ruling: nothing to judge */
        break;
    }
    return n;
}

void cr_judge_advance(cr_judge_t *j, double t)
{
    if (j && isfinite(t) && !(t <= j->t_last))
        j->t_last = t;
}

int cr_judge_finish(cr_judge_t *j, cr_event_t *out, int cap)
{
    int n = 0;

    if (!j || !out)
        return CR_ERR_INVALID;
    if (cap < CR_JUDGE_MAX_OUT)
        return CR_ERR_FULL;
    if (j->lag.active && (j->lag.struck[1] || j->lag.struck[2]))
        n = end_lag(j, NULL, out, cap, n);
    if (j->s.active)
        n = end_shot(j, NULL, fmax(j->t_last, j->s.t_stroke), true, out, cap, n);
    return early_withdrawn(j, j->t_last, out, cap, n);
}

/* An early call written: kept until its shot is judged. */
static void remember_early(cr_judge_t *j, int k, bool started, int ball, const cr_event_t *foul)
{
    j->early[k].on = true;
    j->early[k].started = started;
    j->early[k].confirmed = false;
    j->early[k].ball = ball;
    j->early[k].t = foul->t;
    snprintf(j->early[k].code, sizeof(j->early[k].code), "%s", foul->code);
    snprintf(j->early[k].detail, sizeof(j->early[k].detail), "%s", foul->detail);
}

/* Feeds evs to a copy of j; the first foul of `code` it writes goes to *out.
 * Returns 1 found, 0 not (or no memory: the call is a courtesy). */
static int judge_on_copy(const cr_judge_t *j, const cr_event_t *const *evs, int n_evs, const char *code,
                         cr_event_t *out)
{
    cr_judge_t *c = malloc(sizeof(*c));
    cr_event_t *buf = malloc(CR_JUDGE_MAX_OUT * sizeof(*buf));
    int i, k, n = 0, found = 0;

    if (c && buf) {
        *c = *j;
        for (i = 0; i < n_evs && n >= 0 && !found; i++) {
            n = cr_judge_feed(c, evs[i], buf, CR_JUDGE_MAX_OUT);
            for (k = 0; k < n; k++)
                if (buf[k].type == CR_EV_FOUL && !strcmp(buf[k].code, code)) {
                    *out = buf[k];
                    out->early = true;
                    found = 1;
                    break;
                }
        }
    }
    free(c);
    free(buf);
    return found;
}

int cr_judge_early_pocket(cr_judge_t *j, const cr_event_t *pocket, cr_event_t *out)
{
    const cr_event_t *evs[1];
    cr_event_t ev;

    if (!j || !pocket || !out || pocket->type != CR_EV_POCKET)
        return CR_ERR_INVALID;
    if (pocket->ball != CR_BALL_CUE || j->p.game == CR_GAME_NONE || j->lag.active || !j->s.active ||
        j->early[CR_EARLY_SCRATCH].on || cr_shot_pocketed(&j->s, CR_BALL_CUE) || !(pocket->t > j->s.t_stroke) ||
        !(pocket->t > j->t_last))
        return 0;
    ev = *pocket;
    ev.shot = j->s.shot;
    evs[0] = &ev;
    if (!judge_on_copy(j, evs, 1, "cue_ball_scratch", out))
        return 0;
    remember_early(j, CR_EARLY_SCRATCH, true, CR_BALL_CUE, out);
    return 1;
}

int cr_judge_early_contact(cr_judge_t *j, const cr_event_t *inputs, int n_inputs, const cr_event_t *stroke,
                           const cr_event_t *contact, cr_event_t *out)
{
    const cr_event_t *evs[EARLY_MAX_EVENTS];
    cr_event_t ct;
    bool listed[CR_NUM_BALLS] = {false}, open, fed;
    int i, n_evs = 0;

    if (!j || !stroke || !contact || !out || stroke->type != CR_EV_STROKE || contact->type != CR_EV_COLLISION ||
        n_inputs < 0 || (n_inputs > 0 && !inputs))
        return CR_ERR_INVALID;
    for (i = 0; i < n_inputs; i++)
        if (inputs[i].type != CR_EV_INPUT || (i > 0 && inputs[i].t < inputs[i - 1].t))
            return CR_ERR_INVALID;
    if (j->p.game == CR_GAME_NONE || j->lag.active || j->game_over || j->early[CR_EARLY_FIRST].on ||
        !(stroke->t < contact->t) ||
        !(contact->t > j->t_last))
        return 0;
    /* the shot's own stroke may have been judged already (the contact came
     * well after it): then it must be the same stroke, its first contact
     * not judged yet */
    open = j->s.active;
    if (open && (j->s.is_break || j->s.first_judged || j->s.first_ball >= 0 || j->s.unknown_contact ||
                 fabs(j->s.t_stroke - stroke->t) > EARLY_STROKE_S))
        return 0;
    if (!open && j->need_break)
        return 0;
    if (!open) {
        for (i = 0; i < stroke->n_balls; i++)
            if (stroke->balls[i].id >= 0 && stroke->balls[i].id < CR_NUM_BALLS)
                listed[stroke->balls[i].id] = true;
        if (!listed[CR_BALL_CUE] || !(stroke->t >= j->t_last))
            return 0;
        for (i = 1; i < CR_NUM_BALLS; i++)
            if (listed[i] != j->on_table[i])
                return 0; /* the table is not what the engine knows: leave it to the shot's own events */
    }
    ct = *contact;
    ct.shot = open ? j->s.shot : stroke->shot;
    /* the operator's input before the contact, then the stroke (in its
     * place among them) and the contact */
    fed = open;
    for (i = 0; i < n_inputs && inputs[i].t <= ct.t; i++) {
        if (n_evs >= EARLY_MAX_EVENTS - 2)
            return 0;
        if (!fed && !(inputs[i].t <= stroke->t)) {
            evs[n_evs++] = stroke;
            fed = true;
        }
        evs[n_evs++] = &inputs[i];
    }
    if (!fed)
        evs[n_evs++] = stroke;
    evs[n_evs++] = &ct;
    if (!judge_on_copy(j, evs, n_evs, "wrong_ball_first", out))
        return 0;
    remember_early(j, CR_EARLY_FIRST, open, contact->a == CR_BALL_CUE ? contact->b : contact->a, out);
    return 1;
}
