/*
 * cr_games.c - the rules of each game at the end of a shot: legal breaks,
 * calls, pocketed balls, who shoots next, ball in hand, spotting, loss of
 * rack, three consecutive fouls, 14.1 scoring and re-racks.
 *
 * Numbers cite WPA 2008 (8-ball = section 3, 9-ball = 2, 14.1 = 4) and the
 * 2009 10-ball rules; see shared/rules/RULES.md §4.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cr_rules_internal.h"

static void add_option(cr_ruling_t *r, const char *opt)
{
    if (r->n_options < CR_EVENT_MAX_OPTIONS)
        snprintf(r->options[r->n_options++], CR_CODE_LEN, "%s", opt);
}

static const char *bih_text(cr_bih_t b)
{
    switch (b) {
    case CR_BIH_ANYWHERE:
        return " with ball in hand anywhere";
    case CR_BIH_BEHIND_HEAD:
        return " with ball in hand behind the head string";
    default:
        return "";
    }
}

/* The final position of a ball still on the table (rest, else stroke). */
static bool ball_final_pos(const cr_shot_t *s, int id, cr_point_t *p)
{
    if (s->has_rest[id]) {
        *p = s->rest[id];
        return true;
    }
    if (s->has_pos[id]) {
        *p = s->pos[id];
        return true;
    }
    return false;
}

/* Removes pocketed and off-table balls from the table. */
static void take_off_balls(cr_judge_t *j)
{
    const cr_shot_t *s = &j->s;
    int i;

    for (i = 0; i < s->n_pocketed; i++)
        if (s->pocketed[i] > 0)
            j->on_table[s->pocketed[i]] = false;
    for (i = 0; i < s->n_off; i++)
        if (s->off[i] > 0)
            j->on_table[s->off[i]] = false;
}

/* Spots the balls ids[0..n-1] (1.4) and lists them in the ruling. */
static void spot_balls(cr_judge_t *j, cr_ruling_t *r, int *ids, int n)
{
    const cr_shot_t *s = &j->s;
    cr_ball_pos_t on[CR_NUM_BALLS], placed[CR_NUM_BALLS];
    cr_point_t p;
    int i, k, m = 0, tmp;

    if (n <= 0)
        return;
    if (j->p.spot_ascending)
        for (i = 1; i < n; i++)
            for (k = i; k > 0 && ids[k - 1] > ids[k]; k--) {
                tmp = ids[k];
                ids[k] = ids[k - 1];
                ids[k - 1] = tmp;
            }
    for (i = 0; i < CR_NUM_BALLS; i++) {
        bool cue_on = i == CR_BALL_CUE && !cr_shot_pocketed(s, 0) && !cr_shot_off(s, 0);

        if ((j->on_table[i] || cue_on) && ball_final_pos(s, i, &p)) {
            on[m].id = i;
            on[m].x = p.x;
            on[m].y = p.y;
            m++;
        }
    }
    if (cr_table_spot_balls(&j->p.table, on, m, ids, n, 1.0, placed) != CR_OK)
        return;
    for (i = 0; i < n && r->n_spot < CR_NUM_BALLS; i++) {
        r->spot[r->n_spot++] = placed[i];
        j->on_table[ids[i]] = true;
    }
}

static void spot_text(const cr_ruling_t *r, char *buf, size_t cap)
{
    int i;

    for (i = 0; i < r->n_spot; i++)
        cr_appendf(buf, cap, " The %d is spotted at (%.1f, %.1f) mm.", r->spot[i].id, r->spot[i].x, r->spot[i].y);
}

static void describe_fouls(const cr_shot_t *s, char *buf, size_t cap)
{
    int i;

    for (i = 0; i < s->n_fouls; i++)
        cr_appendf(buf, cap, "%sFoul %s %s: %s", i ? " " : "", s->fouls[i].rule, s->fouls[i].code,
                   s->fouls[i].detail);
}

static void describe_pocketed(const cr_shot_t *s, char *buf, size_t cap)
{
    char b[16];
    int i, n = 0;

    for (i = 0; i < s->n_pocketed; i++) {
        if (s->pocketed[i] <= 0)
            continue;
        cr_appendf(buf, cap, "%s%s (%s)", n ? ", " : " Pocketed: ", cr_ball_str(s->pocketed[i], b),
                   cr_pocket_name(s->pocket_of[i]));
        n++;
    }
    if (n)
        cr_appendf(buf, cap, ".");
}

/* The call of the shot: the input, or under CR_CALLS_AUTO the obvious one
 * (the first legal target pocketed, in the pocket it went into). */
static void shot_call(const cr_judge_t *j, int *ball, cr_pocket_t *pocket, bool *inferred)
{
    const cr_shot_t *s = &j->s;
    char why[160];
    int i;

    *ball = s->call_ball;
    *pocket = s->call_pocket;
    *inferred = false;
    if (*ball >= 0 || s->safety || j->p.calls == CR_CALLS_STRICT)
        return;
    for (i = 0; i < s->n_pocketed; i++) {
        int id = s->pocketed[i];

        if (id <= 0)
            continue;
        if (j->p.game == CR_GAME_8BALL) {
            int g = j->groups[s->shooter];
            bool own = g == 0 ? id != 8 : (id == 8 ? false : ((id < 8) == (g == 1)));

            if (!own && !(id == 8 && cr_game_target_legal(j, 8, why, sizeof(why))))
                continue;
        }
        *ball = id;
        *pocket = s->pocket_of[i];
        *inferred = true;
        return;
    }
}

static bool called_made(const cr_shot_t *s, int ball, cr_pocket_t pocket)
{
    int i;

    if (ball < 0)
        return false;
    for (i = 0; i < s->n_pocketed; i++)
        if (s->pocketed[i] == ball)
            return pocket == CR_POCKET_NONE || s->pocket_of[i] == pocket;
    return false;
}

/* Counts distinct object balls driven to a rail or pocketed (legal breaks). */
static int balls_to_rails(const cr_shot_t *s)
{
    int i, n = 0;

    for (i = 1; i < CR_NUM_BALLS; i++)
        if (cr_shot_rail_any(s, i) || cr_shot_pocketed(s, i) || cr_shot_off(s, i))
            n++;
    return n;
}

static void game_over(cr_judge_t *j, cr_ruling_t *r, int winner)
{
    r->game_over = true;
    r->winner = winner;
    j->game_over = true;
    j->winner = winner;
    j->breaker = j->p.break_order == CR_BREAK_WINNER ? winner : cr_other(j->breaker);
    j->at_table = j->breaker;
    j->bih = CR_BIH_BEHIND_HEAD;
    r->next_player = j->breaker;
    r->ball_in_hand = CR_BIH_BEHIND_HEAD;
    r->rerack = true;
    cr_appendf(r->detail, sizeof(r->detail), " Player %d wins the rack; player %d breaks the next one.", winner,
               j->breaker);
}

/* After the shot: count fouls per player (6.14); returns true when this was
 * the third consecutive foul (and adds that foul). */
static bool count_fouls(cr_judge_t *j)
{
    cr_shot_t *s = &j->s;
    int sh = s->shooter;

    if (s->n_fouls == 0) {
        j->fouls_in_row[sh] = 0;
        return false;
    }
    if (!cr_game_uses_three_fouls(j->p.game))
        return false;
    j->fouls_in_row[sh]++;
    if (j->fouls_in_row[sh] < 3)
        return false;
    cr_shot_add_foul(j, "three_consecutive_fouls", s->t_end, 1.0,
                     "Player %d committed a foul on three consecutive turns without a legal shot in between.", sh);
    j->fouls_in_row[sh] = 0;
    return true;
}

/* ---------------------------------------------------------------- none */

static void end_none(cr_judge_t *j, cr_ruling_t *r)
{
    cr_shot_t *s = &j->s;
    int sh = s->shooter;

    take_off_balls(j);
    count_fouls(j);
    if (s->n_fouls) {
        j->at_table = cr_other(sh);
        j->bih = CR_BIH_ANYWHERE;
        describe_fouls(s, r->detail, sizeof(r->detail));
        cr_appendf(r->detail, sizeof(r->detail), " Player %d to shoot with ball in hand anywhere.", j->at_table);
    } else if (cr_shot_object_pocketed_count(s) > 0) {
        j->bih = CR_BIH_NONE;
        snprintf(r->detail, sizeof(r->detail), "Legal shot.");
        describe_pocketed(s, r->detail, sizeof(r->detail));
        cr_appendf(r->detail, sizeof(r->detail), " Player %d continues.", sh);
    } else {
        j->bih = CR_BIH_NONE;
        j->at_table = cr_other(sh);
        snprintf(r->detail, sizeof(r->detail), "Legal shot, nothing pocketed. Player %d to shoot.", j->at_table);
    }
    r->next_player = j->at_table;
    r->ball_in_hand = j->bih;
}

/* -------------------------------------------------------- 9- and 10-ball */

static void end_rotation(cr_judge_t *j, cr_ruling_t *r)
{
    cr_shot_t *s = &j->s;
    const bool ten = j->p.game == CR_GAME_10BALL;
    const int money = ten ? 10 : 9;
    const int sh = s->shooter;
    char b[16], b2[16];
    int spot[CR_NUM_BALLS], n_spot = 0, i, call_ball, left = 0, crossed = 0;
    cr_pocket_t call_pocket;
    bool inferred, money_down = cr_shot_pocketed(s, money), money_off = cr_shot_off(s, money), third;
    bool turn_continues = false, win = false, made;

    if (s->is_break) {
        /* 9-ball 2.3 / 10-ball: the 1 first (judged as 6.2), and a ball
         * pocketed or at least four object balls driven to a rail. */
        if (cr_shot_object_pocketed_count(s) == 0 && balls_to_rails(s) < 4)
            cr_shot_add_foul(j, "illegal_break", s->t_end, 1.0,
                             "No ball was pocketed on the break and only %d object balls were driven to a rail "
                             "(at least four are required).",
                             balls_to_rails(s));
        if (!ten && j->p.three_ball_rule) {
            for (i = 1; i < CR_NUM_BALLS; i++) {
                cr_point_t p;

                if (cr_shot_pocketed(s, i))
                    crossed++;
                else if (s->on_table[i] && ball_final_pos(s, i, &p) &&
                         cr_table_behind_head_string(&j->p.table, p.x))
                    crossed++;
            }
            if (crossed < 3)
                snprintf(s->note, sizeof(s->note),
                         "Three-ball rule: only %d object balls were pocketed or crossed the head string; the "
                         "opponent may take the table or have the breaker push out.",
                         crossed);
        }
    }
    third = count_fouls(j);
    take_off_balls(j);
    shot_call(j, &call_ball, &call_pocket, &inferred);
    made = called_made(s, call_ball, call_pocket);

    if (third) {
        /* 6.14 in 9-ball and 10-ball: loss of the rack. */
        describe_fouls(s, r->detail, sizeof(r->detail));
        cr_appendf(r->detail, sizeof(r->detail), " Third consecutive foul: player %d loses the rack.", sh);
        game_over(j, r, cr_other(sh));
        return;
    }

    if (s->n_fouls) {
        if (money_down || money_off)
            spot[n_spot++] = money;
        j->at_table = cr_other(sh);
        j->bih = CR_BIH_ANYWHERE;
        describe_fouls(s, r->detail, sizeof(r->detail));
    } else if (s->is_push_out) {
        if (money_down || money_off)
            spot[n_spot++] = money;
        j->at_table = cr_other(sh);
        j->bih = CR_BIH_NONE;
        snprintf(r->detail, sizeof(r->detail), "Push-out by player %d (6.2 and 6.3 do not apply).", sh);
        describe_pocketed(s, r->detail, sizeof(r->detail));
        add_option(r, "shoot");
        add_option(r, "pass");
    } else if (s->is_break) {
        j->bih = CR_BIH_NONE;
        snprintf(r->detail, sizeof(r->detail), "Legal break.");
        describe_pocketed(s, r->detail, sizeof(r->detail));
        if (money_down && !ten) {
            win = true; /* 9-ball 2.x: the 9 on a legal break wins */
        } else {
            if (money_down)
                spot[n_spot++] = money; /* 10-ball: the 10 on the break is spotted */
            turn_continues = cr_shot_object_pocketed_count(s) > 0;
        }
        if (s->note[0])
            cr_appendf(r->detail, sizeof(r->detail), " %s", s->note);
    } else if (!ten) {
        snprintf(r->detail, sizeof(r->detail), "Legal shot.");
        describe_pocketed(s, r->detail, sizeof(r->detail));
        j->bih = CR_BIH_NONE;
        if (money_down)
            win = true;
        else
            turn_continues = cr_shot_object_pocketed_count(s) > 0;
    } else {
        /* 10-ball: every shot is called. */
        for (i = 1; i < CR_NUM_BALLS; i++)
            if (j->on_table[i])
                left++;
        j->bih = CR_BIH_NONE;
        snprintf(r->detail, sizeof(r->detail), "Legal shot.");
        describe_pocketed(s, r->detail, sizeof(r->detail));
        if (s->safety && j->p.ten_ball_safety) {
            if (money_down)
                spot[n_spot++] = money;
            cr_appendf(r->detail, sizeof(r->detail), " Safety was called.");
        } else if (made) {
            if (call_ball == money && (!j->p.ten_ball_win_last_only || left == 0)) {
                win = true;
            } else {
                if (money_down)
                    spot[n_spot++] = money;
                turn_continues = true;
            }
            cr_appendf(r->detail, sizeof(r->detail), " The called ball, %s, was made in the %s pocket%s.",
                       cr_ball_str(call_ball, b), cr_pocket_name(call_pocket), inferred ? " (obvious call)" : "");
        } else if (cr_shot_object_pocketed_count(s) > 0) {
            /* 10-ball: a ball pocketed but not the called shot: the opponent
             * chooses who shoots next. */
            if (money_down)
                spot[n_spot++] = money;
            if (call_ball >= 0)
                cr_appendf(r->detail, sizeof(r->detail), " The called ball, %s, was not made in the %s pocket",
                           cr_ball_str(call_ball, b2), cr_pocket_name(call_pocket));
            else
                cr_appendf(r->detail, sizeof(r->detail), " No shot was called");
            cr_appendf(r->detail, sizeof(r->detail), ": the balls were pocketed wrongly and player %d chooses who "
                                                     "shoots.",
                       cr_other(sh));
            add_option(r, "shoot");
            add_option(r, "pass");
        }
    }

    if (win) {
        cr_appendf(r->detail, sizeof(r->detail), " %s was pocketed legally.", ten ? "The 10" : "The 9");
        game_over(j, r, sh);
        return;
    }
    if (!s->n_fouls && !turn_continues)
        j->at_table = cr_other(sh);
    spot_balls(j, r, spot, n_spot);
    spot_text(r, r->detail, sizeof(r->detail));
    /* Push-out: available on the shot right after the break only. */
    j->push_out_available = s->is_break;
    if (j->push_out_available)
        cr_appendf(r->detail, sizeof(r->detail), " The next shot may be a push-out.");
    r->next_player = j->at_table;
    r->ball_in_hand = j->bih;
    if (s->n_fouls || !turn_continues)
        cr_appendf(r->detail, sizeof(r->detail), " Player %d to shoot%s.", j->at_table, bih_text(j->bih));
    else
        cr_appendf(r->detail, sizeof(r->detail), " Player %d continues.", sh);
    (void)b;
}

/* -------------------------------------------------------------- 8-ball */

static int group_of(int id)
{
    return id == 8 || id <= 0 ? 0 : (id < 8 ? 1 : 2);
}

static const char *group_name(int g)
{
    return g == 1 ? "solids" : "stripes";
}

static void end_eight(cr_judge_t *j, cr_ruling_t *r)
{
    cr_shot_t *s = &j->s;
    const int sh = s->shooter, g = j->groups[sh];
    char b[16];
    int spot[CR_NUM_BALLS], n_spot = 0, i, call_ball;
    cr_pocket_t call_pocket, eight_pocket = CR_POCKET_NONE;
    bool inferred, eight_down = cr_shot_pocketed(s, 8), eight_off = cr_shot_off(s, 8), cleared = g != 0;
    bool cue_gone = cr_shot_pocketed(s, 0) || cr_shot_off(s, 0), made, turn_continues = false;

    for (i = 0; i < s->n_pocketed; i++)
        if (s->pocketed[i] == 8)
            eight_pocket = s->pocket_of[i];
    for (i = 1; i <= 15 && g; i++)
        if (i != 8 && s->on_table[i] && group_of(i) == g)
            cleared = false;
    count_fouls(j); /* 6.14 is not used in 8-ball; this resets nothing */
    take_off_balls(j);

    if (s->is_break) {
        bool legal_break = cr_shot_object_pocketed_count(s) > 0 || balls_to_rails(s) >= 4;

        if (eight_down || eight_off)
            spot[n_spot++] = 8;
        if (s->n_fouls) {
            /* 3.3 (f)-(h): break fouls; ball in hand behind the head string,
             * or (no scratch) the table as it lies. */
            describe_fouls(s, r->detail, sizeof(r->detail));
            j->at_table = cr_other(sh);
            j->bih = CR_BIH_BEHIND_HEAD;
            j->bih_optional = !cue_gone;
            if (eight_down && cue_gone) {
                add_option(r, "shoot");
                add_option(r, "rebreak_self");
                cr_appendf(r->detail, sizeof(r->detail),
                           " The 8 was pocketed with a scratch: player %d may have the 8 spotted and shoot with ball "
                           "in hand behind the head string, or re-break.",
                           j->at_table);
            } else if (!cue_gone) {
                add_option(r, "ball_in_hand");
                add_option(r, "accept_table");
            }
        } else if (!legal_break) {
            /* 3.3 (d): an illegal break is not a foul; the opponent chooses. */
            j->at_table = cr_other(sh);
            j->bih = CR_BIH_NONE;
            snprintf(r->detail, sizeof(r->detail),
                     "Illegal break: no ball was pocketed and only %d object balls were driven to a rail (at least "
                     "four are required). Player %d may accept the table, re-rack and break, or have player %d "
                     "re-break.",
                     balls_to_rails(s), j->at_table, sh);
            add_option(r, "accept_table");
            add_option(r, "rebreak_self");
            add_option(r, "rebreak_opponent");
        } else {
            j->bih = CR_BIH_NONE;
            snprintf(r->detail, sizeof(r->detail), "Legal break; the table is open.");
            describe_pocketed(s, r->detail, sizeof(r->detail));
            if (eight_down) {
                /* 3.3 (e): the breaker may re-spot the 8 and shoot, or re-break. */
                turn_continues = true;
                add_option(r, "shoot");
                add_option(r, "rebreak_self");
                cr_appendf(r->detail, sizeof(r->detail),
                           " The 8 was pocketed on the break: player %d may have it spotted and continue, or "
                           "re-break.",
                           sh);
            } else {
                turn_continues = cr_shot_object_pocketed_count(s) > 0;
            }
        }
    } else {
        shot_call(j, &call_ball, &call_pocket, &inferred);
        made = called_made(s, call_ball, call_pocket);
        if (eight_down || eight_off) {
            /* 3.8 Losing the rack */
            const char *why = NULL;

            if (eight_off)
                why = "drove the 8 off the table";
            else if (s->n_fouls)
                why = "fouled while pocketing the 8";
            else if (!cleared)
                why = "pocketed the 8 before clearing the group";
            else if (!(call_ball == 8 && (call_pocket == CR_POCKET_NONE || call_pocket == eight_pocket)) &&
                     !s->safety && !(inferred && call_ball == 8))
                why = "pocketed the 8 in a pocket that was not called";
            else if (s->safety)
                why = "pocketed the 8 on a called safety";
            if (why) {
                cr_shot_add_foul(j, "eight_ball_loss", s->t_end, 1.0, "Player %d %s.", sh, why);
                describe_fouls(s, r->detail, sizeof(r->detail));
                game_over(j, r, cr_other(sh));
                return;
            }
            snprintf(r->detail, sizeof(r->detail), "Player %d legally pocketed the 8 in the %s pocket.", sh,
                     cr_pocket_name(eight_pocket));
            game_over(j, r, sh);
            return;
        }
        if (s->n_fouls) {
            describe_fouls(s, r->detail, sizeof(r->detail));
            j->at_table = cr_other(sh);
            j->bih = CR_BIH_ANYWHERE; /* 3.9: ball in hand anywhere after the break */
        } else {
            j->bih = CR_BIH_NONE;
            snprintf(r->detail, sizeof(r->detail), "Legal shot.");
            describe_pocketed(s, r->detail, sizeof(r->detail));
            if (s->safety) {
                cr_appendf(r->detail, sizeof(r->detail), " Safety was called.");
            } else if (made && call_ball != 8 && (g == 0 || group_of(call_ball) == g)) {
                turn_continues = true;
                if (g == 0) {
                    /* 3.4: the group is decided by a legally pocketed called ball. */
                    j->groups[sh] = group_of(call_ball);
                    j->groups[cr_other(sh)] = 3 - group_of(call_ball);
                    cr_appendf(r->detail, sizeof(r->detail), " Player %d takes the %s, player %d the %s.", sh,
                               group_name(j->groups[sh]), cr_other(sh), group_name(j->groups[cr_other(sh)]));
                }
                cr_appendf(r->detail, sizeof(r->detail), " The called ball, %s, was made in the %s pocket%s.",
                           cr_ball_str(call_ball, b), cr_pocket_name(call_pocket), inferred ? " (obvious call)" : "");
            } else if (cr_shot_object_pocketed_count(s) > 0) {
                cr_appendf(r->detail, sizeof(r->detail), " No called ball was made.");
            }
        }
    }
    if (!s->n_fouls && !turn_continues)
        j->at_table = cr_other(sh);
    spot_balls(j, r, spot, n_spot);
    spot_text(r, r->detail, sizeof(r->detail));
    r->next_player = j->at_table;
    r->ball_in_hand = j->bih;
    if (turn_continues)
        cr_appendf(r->detail, sizeof(r->detail), " Player %d continues.", sh);
    else
        cr_appendf(r->detail, sizeof(r->detail), " Player %d to shoot%s.", j->at_table, bih_text(j->bih));
    if (j->groups[1]) {
        r->groups[1] = j->groups[1];
        r->groups[2] = j->groups[2];
    }
}

/* ------------------------------------------------------------------ 14.1 */

/* 4.8: re-racking when one object ball (or none) is left. */
static void rerack_14_1(cr_judge_t *j, cr_ruling_t *r)
{
    const cr_shot_t *s = &j->s;
    const cr_table_t *t = &j->p.table;
    cr_point_t cue, ball, hs = cr_table_head_spot(t), cs = cr_table_centre_spot(t);
    int i, last = -1, left = 0;
    bool cue_in, ball_in, cue_known;

    for (i = 1; i < CR_NUM_BALLS; i++)
        if (j->on_table[i]) {
            left++;
            last = i;
        }
    if (left > 1)
        return;
    cue_known = ball_final_pos(s, CR_BALL_CUE, &cue) && !cr_shot_pocketed(s, 0) && !cr_shot_off(s, 0);
    cue_in = cue_known && cr_table_in_rack_outline(t, cue);
    ball_in = last > 0 && ball_final_pos(s, last, &ball) && cr_table_in_rack_outline(t, ball);
    r->rerack = true;
    for (i = 1; i < CR_NUM_BALLS; i++)
        j->on_table[i] = true;
    if (last < 0 || ball_in) {
        /* The 15th ball was pocketed too, or it lies in the rack: all 15 are
         * racked. */
        cr_appendf(r->detail, sizeof(r->detail), " All 15 balls are re-racked.");
        if (cue_in || !cue_known) {
            j->bih = CR_BIH_BEHIND_HEAD;
            cr_appendf(r->detail, sizeof(r->detail), " The cue ball is in hand behind the head string.");
        }
        return;
    }
    cr_appendf(r->detail, sizeof(r->detail), " The 14 pocketed balls are re-racked with the apex empty.");
    if (cue_in) {
        if (!cr_table_behind_head_string(t, ball.x)) {
            j->bih = CR_BIH_BEHIND_HEAD;
            cr_appendf(r->detail, sizeof(r->detail),
                       " The cue ball lies in the rack: it is in hand behind the head string.");
        } else {
            cr_point_t to = hypot(ball.x - hs.x, ball.y - hs.y) < 2 * t->ball_radius_mm ? cs : hs;

            if (r->n_spot < CR_NUM_BALLS) {
                r->spot[r->n_spot].id = CR_BALL_CUE;
                r->spot[r->n_spot].x = to.x;
                r->spot[r->n_spot].y = to.y;
                r->n_spot++;
            }
            cr_appendf(r->detail, sizeof(r->detail), " The cue ball lies in the rack: it goes on the %s spot.",
                       to.x == hs.x ? "head" : "centre");
        }
    }
}

static void end_straight(cr_judge_t *j, cr_ruling_t *r)
{
    cr_shot_t *s = &j->s;
    const int sh = s->shooter;
    char b[16];
    int spot[CR_NUM_BALLS], n_spot = 0, i, call_ball, penalty = 0, points = 0;
    cr_pocket_t call_pocket;
    bool inferred, made, third, breaking_foul = false, turn_continues = false, cue_gone;

    cue_gone = cr_shot_pocketed(s, 0) || cr_shot_off(s, 0);
    shot_call(j, &call_ball, &call_pocket, &inferred);
    made = called_made(s, call_ball, call_pocket) && !s->safety;
    if (s->is_break && !made) {
        /* 4.3: called ball pocketed, or the cue ball and two object balls
         * driven to a rail after the cue ball contacts the rack. */
        const bool cue_rail = cr_shot_rail_after_contact(s, CR_BALL_CUE) || cue_gone;
        int after = 0;

        for (i = 1; i < CR_NUM_BALLS; i++)
            if (cr_shot_rail_any(s, i) || cr_shot_off(s, i))
                after++;
        if (!cue_rail || after < 2) {
            cr_shot_add_foul(j, "breaking_foul", s->t_end, 1.0,
                             "The called ball was not pocketed and the cue ball and two object balls were not driven "
                             "to a rail after the cue ball contacted the rack (%s; %d object balls).",
                             cue_rail ? "the cue ball was" : "the cue ball was not", after);
            breaking_foul = true;
        }
    }
    third = count_fouls(j);
    take_off_balls(j);

    if (s->n_fouls) {
        /* 4.9: -1 (4.10 breaking foul: -2; 4.11 third foul: a further -15). */
        penalty = breaking_foul ? 2 : 1;
        if (third)
            penalty += 15;
        for (i = 0; i < s->n_pocketed; i++)
            if (s->pocketed[i] > 0)
                spot[n_spot++] = s->pocketed[i];
        describe_fouls(s, r->detail, sizeof(r->detail));
        cr_appendf(r->detail, sizeof(r->detail), " Player %d loses %d point%s.", sh, penalty, penalty > 1 ? "s" : "");
        j->at_table = cr_other(sh);
        j->bih = (cue_gone || cr_shot_has_foul(s, "bad_play_from_behind_head_string")) ? CR_BIH_BEHIND_HEAD
                                                                                        : CR_BIH_NONE;
        if (breaking_foul) {
            add_option(r, "accept_table");
            add_option(r, "rebreak_opponent");
        }
    } else if (made) {
        points = cr_shot_object_pocketed_count(s);
        turn_continues = true;
        j->bih = CR_BIH_NONE;
        snprintf(r->detail, sizeof(r->detail), "Legal shot: the called ball, %s, was made in the %s pocket%s.",
                 cr_ball_str(call_ball, b), cr_pocket_name(call_pocket), inferred ? " (obvious call)" : "");
        describe_pocketed(s, r->detail, sizeof(r->detail));
        cr_appendf(r->detail, sizeof(r->detail), " Player %d scores %d.", sh, points);
    } else {
        /* 4.6: balls pocketed on a safety or an uncalled shot are spotted. */
        for (i = 0; i < s->n_pocketed; i++)
            if (s->pocketed[i] > 0)
                spot[n_spot++] = s->pocketed[i];
        j->bih = CR_BIH_NONE;
        snprintf(r->detail, sizeof(r->detail), "Legal shot%s, no called ball made.", s->safety ? " (safety)" : "");
        describe_pocketed(s, r->detail, sizeof(r->detail));
    }
    for (i = 0; i < s->n_off; i++)
        if (s->off[i] > 0)
            spot[n_spot++] = s->off[i]; /* 4.6: balls off the table are spotted */

    j->score[sh] += points - penalty;
    r->has_score = true;

    if (third) {
        /* 4.11: the 15 balls are re-racked and the offender breaks. */
        int keep = j->score[sh], keep2 = j->score[cr_other(sh)];

        cr_appendf(r->detail, sizeof(r->detail),
                   " Third consecutive foul: all 15 balls are re-racked and player %d breaks under the opening "
                   "break rules.",
                   sh);
        cr_judge_rack_balls(j);
        j->need_break = true;
        j->breaker = sh;
        j->at_table = j->p.rebreak_option_14_1 ? cr_other(sh) : sh;
        j->bih = CR_BIH_BEHIND_HEAD;
        j->score[sh] = keep;
        j->score[cr_other(sh)] = keep2;
        r->rerack = true;
        if (j->p.rebreak_option_14_1) {
            add_option(r, "rebreak_self");
            add_option(r, "rebreak_opponent");
        }
        n_spot = 0;
    } else {
        j->need_break = false;
        if (!turn_continues && !s->n_fouls)
            j->at_table = cr_other(sh);
        spot_balls(j, r, spot, n_spot);
        spot_text(r, r->detail, sizeof(r->detail));
        if (turn_continues)
            rerack_14_1(j, r);
    }
    r->score[1] = j->score[1];
    r->score[2] = j->score[2];
    cr_appendf(r->detail, sizeof(r->detail), " Score %d : %d.", j->score[1], j->score[2]);
    if (j->score[sh] >= j->p.target_score_14_1) {
        game_over(j, r, sh);
        return;
    }
    r->next_player = j->at_table;
    r->ball_in_hand = j->bih;
    if (turn_continues)
        cr_appendf(r->detail, sizeof(r->detail), " Player %d continues.", sh);
    else
        cr_appendf(r->detail, sizeof(r->detail), " Player %d to shoot%s.", j->at_table, bih_text(j->bih));
}

void cr_games_end_shot(cr_judge_t *j, cr_ruling_t *r)
{
    cr_shot_t *s = &j->s;

    switch (j->p.game) {
    case CR_GAME_8BALL:
        end_eight(j, r);
        break;
    case CR_GAME_9BALL:
    case CR_GAME_10BALL:
        end_rotation(j, r);
        break;
    case CR_GAME_14_1:
        end_straight(j, r);
        break;
    default:
        end_none(j, r);
        break;
    }
    if (s->note[0] && !strstr(r->detail, s->note))
        cr_appendf(r->detail, sizeof(r->detail), " %s", s->note);
    /* The next shot is a break only after a 14.1 three-foul penalty (set by
     * end_straight) or a new rack (set when the next rack starts). */
    if (j->p.game != CR_GAME_14_1)
        j->need_break = false;
}
