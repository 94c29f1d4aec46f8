/*
 * cr_player.c - the simulated player (see cr_player.h).
 */
#include <math.h>
#include <string.h>

#include "cr_player.h"

#define CR_PI 3.14159265358979323846
#define MAX_CUT_DEG 70.0

static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
    return ((next_u64(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static double gauss(uint64_t *s)
{
    double u = uniform(s), v = uniform(s);

    return sqrt(-2.0 * log(u)) * cos(2.0 * CR_PI * v);
}

void cr_player_init(cr_player_t *p, cr_game_t game, const cr_table_t *t, int n_shots, uint64_t seed)
{
    memset(p, 0, sizeof(*p));
    p->game = game;
    p->table = *t;
    p->n_shots = n_shots;
    p->aim_sigma_deg = 0.7;
    p->speed_sigma = 0.15;
    p->rng = seed ^ 0x5DEECE66Dull;
}

/* Legal first balls for the player to shoot. */
static int targets(const cr_player_t *p, const cr_sim_ball_t st[CR_NUM_BALLS], const cr_ruling_t *last, int out[16])
{
    int i, n = 0, group = 0;
    bool left = false;

    if (p->game == CR_GAME_9BALL || p->game == CR_GAME_10BALL) {
        for (i = 1; i < CR_NUM_BALLS; i++)
            if (st[i].on_table) {
                out[n++] = i;
                return n;
            }
        return 0;
    }
    if (p->game == CR_GAME_8BALL) {
        if (last && last->next_player >= 1 && last->next_player <= 2)
            group = last->groups[last->next_player];
        for (i = 1; i < CR_NUM_BALLS; i++)
            if (i != 8 && st[i].on_table && (group == 0 || (i < 8) == (group == 1)))
                left = true;
        for (i = 1; i < CR_NUM_BALLS; i++) {
            if (!st[i].on_table)
                continue;
            if (left ? (i != 8 && (group == 0 || (i < 8) == (group == 1))) : i == 8)
                out[n++] = i;
        }
        return n;
    }
    for (i = 1; i < CR_NUM_BALLS; i++)
        if (st[i].on_table)
            out[n++] = i;
    return n;
}

/* Distance from point p to the segment a-b. */
static double seg_dist(cr_point_t p, cr_point_t a, cr_point_t b)
{
    double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy, u;

    u = l2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0;
    u = u < 0 ? 0 : (u > 1 ? 1 : u);
    return hypot(p.x - (a.x + u * dx), p.y - (a.y + u * dy));
}

static bool path_clear(const cr_sim_ball_t st[CR_NUM_BALLS], int skip1, int skip2, cr_point_t a, cr_point_t b, double R)
{
    int i;

    for (i = 0; i < CR_NUM_BALLS; i++) {
        cr_point_t q;

        if (i == skip1 || i == skip2 || !st[i].on_table)
            continue;
        q.x = st[i].x;
        q.y = st[i].y;
        if (seg_dist(q, a, b) < 2 * R)
            return false;
    }
    return true;
}

/* Where to send a ball into pocket k: a little inside the mouth. */
static cr_point_t pocket_aim(const cr_table_t *t, int k)
{
    cr_point_t a, b, m;

    cr_table_pocket_mouth(t, (cr_pocket_t)k, &a, &b);
    m.x = (a.x + b.x) / 2;
    m.y = (a.y + b.y) / 2;
    return m;
}

typedef struct {
    int ball, pocket;
    double score;
    cr_point_t ghost;
} plan_t;

/* The easiest pot from cue position c; score < 0 when none is possible. */
static plan_t best_pot(const cr_player_t *p, const cr_sim_ball_t st[CR_NUM_BALLS], cr_point_t c, const int *tg, int n)
{
    const double R = p->table.ball_radius_mm;
    plan_t best = {-1, -1, -1.0, {0, 0}};
    int i, k;

    for (i = 0; i < n; i++) {
        cr_point_t t = {st[tg[i]].x, st[tg[i]].y};

        for (k = 0; k < CR_POCKET_COUNT; k++) {
            cr_point_t pk = pocket_aim(&p->table, k), g;
            double dx = pk.x - t.x, dy = pk.y - t.y, d = hypot(dx, dy), cx, cy, dc, cosc, cut, score;

            if (d < 1)
                continue;
            g.x = t.x - 2 * R * dx / d;
            g.y = t.y - 2 * R * dy / d;
            cx = g.x - c.x;
            cy = g.y - c.y;
            dc = hypot(cx, cy);
            if (dc < 2 * R)
                continue;
            cosc = (cx * dx + cy * dy) / (dc * d);
            cut = acos(fmax(-1.0, fmin(1.0, cosc))) * 180.0 / CR_PI;
            if (cut > MAX_CUT_DEG || !path_clear(st, 0, tg[i], c, g, R) || !path_clear(st, 0, tg[i], t, pk, R))
                continue;
            score = 100.0 - cut - 0.01 * (dc + d);
            if (score > best.score) {
                best.score = score;
                best.ball = tg[i];
                best.pocket = k;
                best.ghost = g;
            }
        }
    }
    return best;
}

static bool free_spot(const cr_player_t *p, const cr_sim_ball_t st[CR_NUM_BALLS], cr_point_t c)
{
    const double R = p->table.ball_radius_mm;
    int i;

    if (c.x < R + 5 || c.y < R + 5 || c.x > p->table.length_mm - R - 5 || c.y > p->table.width_mm - R - 5)
        return false;
    for (i = 1; i < CR_NUM_BALLS; i++)
        if (st[i].on_table && hypot(st[i].x - c.x, st[i].y - c.y) < 2 * R + 2)
            return false;
    return true;
}

int cr_player_next(void *user, int index, const cr_sim_ball_t state[CR_NUM_BALLS], const cr_ruling_t *last,
                   cr_scn_shot_t *shot)
{
    cr_player_t *p = user;
    const cr_table_t *t = &p->table;
    const double hs = cr_table_head_string_x(t), R = t->ball_radius_mm;
    cr_sim_ball_t st[CR_NUM_BALLS];
    cr_point_t c, fs = cr_table_foot_spot(t);
    int tg[16], n, k;
    plan_t plan;
    double heading, dist, speed;
    bool in_hand, behind;

    if (index >= p->n_shots)
        return 0;
    memcpy(st, state, sizeof(st));
    memset(shot, 0, sizeof(*shot));
    shot->wait_s = 2.0 + 3.0 * uniform(&p->rng);
    shot->call_ball = -1;
    shot->call_pocket = CR_POCKET_NONE;
    shot->show_cue = true;
    shot->aim = CR_AIM_ANGLE;

    if (p->game != CR_GAME_NONE && (index == 0 || (last && last->game_over))) {
        /* the break: from behind the head string at the rack's apex */
        shot->has_place = true;
        shot->place.x = hs - 60.0 - 200.0 * uniform(&p->rng);
        shot->place.y = cr_table_long_string_y(t) + (uniform(&p->rng) - 0.5) * 500.0;
        heading = atan2(fs.y - shot->place.y, fs.x - shot->place.x);
        shot->aim_deg = heading * 180.0 / CR_PI + gauss(&p->rng) * 0.4;
        shot->speed_mm_s = 7500.0 + 2500.0 * uniform(&p->rng);
        shot->tip_height = -0.1 * uniform(&p->rng);
        return 1;
    }

    in_hand = !st[0].on_table || (last && last->ball_in_hand != CR_BIH_NONE);
    behind = last && last->ball_in_hand == CR_BIH_BEHIND_HEAD;
    n = targets(p, st, last, tg);
    if (n == 0) {
        /* nothing legal left to aim at: a soft shot along the table */
        shot->aim_deg = 360.0 * uniform(&p->rng);
        shot->speed_mm_s = 1500.0;
        return 1;
    }
    if (in_hand) {
        /* try places behind a target on a line to a pocket */
        plan_t bp = {-1, -1, -1.0, {0, 0}};
        cr_point_t best_c = {hs - 150.0, cr_table_long_string_y(t)};

        for (k = 0; k < 64; k++) {
            cr_point_t cand;
            plan_t pl;

            if (behind) {
                cand.x = R + 20 + (hs - 2 * R - 40) * uniform(&p->rng);
                cand.y = R + 20 + (t->width_mm - 2 * R - 40) * uniform(&p->rng);
            } else {
                int b = tg[k % n];

                cand.x = st[b].x + (uniform(&p->rng) - 0.5) * 1000.0;
                cand.y = st[b].y + (uniform(&p->rng) - 0.5) * 800.0;
            }
            if (!free_spot(p, st, cand))
                continue;
            pl = best_pot(p, st, cand, tg, n);
            if (pl.score > bp.score) {
                bp = pl;
                best_c = cand;
            }
        }
        if (!free_spot(p, st, best_c)) {
            best_c.x = R + 40;
            best_c.y = R + 40;
        }
        shot->has_place = true;
        shot->place = best_c;
        st[0].on_table = true;
        st[0].x = best_c.x;
        st[0].y = best_c.y;
    }
    c.x = st[0].x;
    c.y = st[0].y;
    plan = best_pot(p, st, c, tg, n);
    if (plan.ball < 0) {
        /* no pot: hit the first legal ball full, firmly enough to reach a rail */
        int b = tg[(int)(uniform(&p->rng) * n) % n];

        heading = atan2(st[b].y - c.y, st[b].x - c.x);
        dist = hypot(st[b].x - c.x, st[b].y - c.y) + 800.0;
        if (p->game == CR_GAME_14_1 || p->game == CR_GAME_8BALL)
            shot->safety = true;
    } else {
        cr_point_t pk = pocket_aim(t, plan.pocket);

        heading = atan2(plan.ghost.y - c.y, plan.ghost.x - c.x);
        dist = hypot(plan.ghost.x - c.x, plan.ghost.y - c.y) + hypot(pk.x - st[plan.ball].x, pk.y - st[plan.ball].y);
        if (p->game == CR_GAME_8BALL || p->game == CR_GAME_10BALL || p->game == CR_GAME_14_1) {
            shot->call_ball = plan.ball;
            shot->call_pocket = (cr_pocket_t)plan.pocket;
        }
    }
    /* speed to roll the distance and some more: v^2 = 2 a d with a = 0.01 g,
     * times a margin for the collision and cushions */
    speed = sqrt(2.0 * 0.01 * 9810.0 * dist) * (2.2 + uniform(&p->rng));
    speed *= 1.0 + p->speed_sigma * gauss(&p->rng);
    shot->speed_mm_s = fmin(9000.0, fmax(600.0, speed));
    shot->aim_deg = heading * 180.0 / CR_PI + p->aim_sigma_deg * gauss(&p->rng);
    shot->tip_height = (uniform(&p->rng) - 0.5) * 0.6;
    shot->tip_side = (uniform(&p->rng) - 0.5) * 0.2;
    return 1;
}
