/*
 * rules_opts.c - the rules options and the readable ruling line shared by
 * `cueref judge` and `cueref review` (cli.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cr_cli_rules_option(cr_rules_opts_t *o, int c, const char *value)
{
    switch (c) {
    case 'g':
        o->game = value;
        break;
    case 't':
        o->table = value;
        break;
    case 'r':
        o->rules = value;
        break;
    case 'R':
        if (o->n_rule >= (int)(sizeof(o->rule) / sizeof(o->rule[0]))) {
            cr_cli_error("too many --rule options");
            return CR_EXIT_USAGE;
        }
        o->rule[o->n_rule++] = (char *)value;
        break;
    case 'c':
        o->shot_clock = value;
        break;
    default:
        return CR_EXIT_USAGE;
    }
    return CR_EXIT_OK;
}

int cr_cli_rules_params(const cr_rules_opts_t *o, const cr_event_t *session, cr_rules_params_t *p)
{
    int i, st;

    cr_rules_params_defaults(p);
    if (session && isfinite(session->table_length_mm) && isfinite(session->table_width_mm) &&
        session->table_length_mm > 0 && session->table_width_mm > 0)
        cr_table_init(&p->table, session->table_length_mm, session->table_width_mm);
    if (session)
        p->game = session->game;
    if (o->game && cr_game_parse(o->game, &p->game) != CR_OK) {
        cr_cli_error("unknown game '%s' (8ball, 9ball, 10ball, 14.1, none)", o->game);
        return CR_EXIT_USAGE;
    }
    if (o->table && cr_table_parse(o->table, &p->table) != CR_OK) {
        cr_cli_error("bad table size '%s' (9ft, 8ft, 7ft or LxW in mm)", o->table);
        return CR_EXIT_USAGE;
    }
    if (!o->rules && session && session->rules[0] && cr_rules_params_set_edition(p, session->rules) != CR_OK)
        fprintf(stderr, "cueref: unknown rules edition '%s' in the session line; using wpa2008\n", session->rules);
    if (o->rules && cr_rules_params_set_edition(p, o->rules) != CR_OK) {
        cr_cli_error("unknown rules edition '%s' (wpa2008, wpa2025, bca)", o->rules);
        return CR_EXIT_USAGE;
    }
    if (o->shot_clock && cr_rules_params_set(p, "shot_clock", o->shot_clock) != CR_OK) {
        cr_cli_error("bad --shot-clock '%s' (seconds, 0..3600)", o->shot_clock);
        return CR_EXIT_USAGE;
    }
    for (i = 0; i < o->n_rule; i++) {
        char *eq = strchr(o->rule[i], '=');

        if (!eq) {
            cr_cli_error("--rule wants KEY=VALUE, got '%s'", o->rule[i]);
            return CR_EXIT_USAGE;
        }
        *eq = '\0';
        st = cr_rules_params_set(p, o->rule[i], eq + 1);
        *eq = '=';
        if (st != CR_OK) {
            cr_cli_error("unknown rule switch or value '%s' (see docs/RULES-ENGINE.md)", o->rule[i]);
            return CR_EXIT_USAGE;
        }
    }
    return CR_EXIT_OK;
}

void cr_cli_clock_text(double t, char out[32])
{
    int m;

    if (!isfinite(t) || t < 0) {
        snprintf(out, 32, "--:--.-");
        return;
    }
    m = (int)(t / 60.0);
    snprintf(out, 32, "%02d:%04.1f", m, t - 60.0 * m);
}

void cr_cli_note_stroke(cr_cli_last_stroke_t *s, const cr_event_t *ev)
{
    if (ev->type == CR_EV_STROKE && ev->shot >= 0 && isfinite(ev->t)) {
        s->shot = ev->shot;
        s->t = ev->t;
    }
}

bool cr_cli_ruling_text(const cr_event_t *ev, const cr_cli_last_stroke_t *last, cr_game_t game, char *out, size_t n)
{
    const cr_ruling_t *r = &ev->ruling;
    char when[32], calls[256] = "";
    int i;

    if (ev->type != CR_EV_RULING)
        return false;
    cr_cli_clock_text(r->kind == CR_RULING_SHOT && last && last->shot >= 0 && last->shot == ev->shot ? last->t : ev->t,
                      when);
    if (r->kind == CR_RULING_LAG) {
        snprintf(out, n, "lag at %s: %s", when, r->detail);
        return true;
    }
    for (i = 0; i < r->n_fouls; i++) {
        size_t k = strlen(calls);

        snprintf(calls + k, sizeof(calls) - k, "%s%s (%s)", i ? ", " : "FOUL ", r->fouls[i],
                 cr_rules_foul_rule(r->fouls[i], game));
    }
    if (r->kind == CR_RULING_BETWEEN)
        snprintf(out, n, "between shots at %s, player %d: %s -- %s", when, r->player, calls, r->detail);
    else
        snprintf(out, n, "shot %d at %s, player %d: %s -- %s%s", ev->shot, when, r->player,
                 r->legal ? "legal" : calls, r->detail, r->game_over ? "  [GAME OVER]" : "");
    return true;
}
