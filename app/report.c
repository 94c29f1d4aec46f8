/*
 * report.c - the review report (report.h): per shot, the evidence behind
 * every call, in Markdown a person can read or a browser can render.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static void ball_name(int id, char out[24])
{
    if (id == 0)
        snprintf(out, 24, "cue ball");
    else if (id < 0)
        snprintf(out, 24, "unidentified ball");
    else
        snprintf(out, 24, "%d", id);
}

static void shot_section(FILE *f, const cr_event_t *ev, size_t n, size_t from, int shot, cr_game_t game)
{
    const cr_event_t *stroke = NULL, *ruling = NULL, *first = NULL;
    char when[32], a[24];
    int n_coll = 0, n_cush = 0, k;
    size_t i;

    for (i = from; i < n; i++) {
        const cr_event_t *e = &ev[i];

        if (e->shot != shot)
            continue;
        if (e->type == CR_EV_STROKE && !stroke)
            stroke = e;
        else if (e->type == CR_EV_RULING)
            ruling = e;
        else if (e->type == CR_EV_COLLISION) {
            if (!first && (e->a == 0 || e->b == 0))
                first = e;
            n_coll++;
        } else if (e->type == CR_EV_CUSHION)
            n_cush++;
    }
    cr_cli_clock_text(stroke ? stroke->t : (ruling ? ruling->t : NAN), when);
    fprintf(f, "\n## Shot %d at %s", shot, when);
    if (ruling) {
        const cr_ruling_t *r = &ruling->ruling;

        fprintf(f, ", player %d: ", r->player);
        if (r->legal)
            fprintf(f, "legal");
        for (k = 0; k < r->n_fouls; k++)
            fprintf(f, "%sFOUL %s (%s)", k ? ", " : "", r->fouls[k], cr_rules_foul_rule(r->fouls[k], game));
        if (r->game_over)
            fprintf(f, " - game over");
    }
    fprintf(f, "\n\n");
    if (stroke) {
        k = cr_event_find_ball(stroke, 0);
        fprintf(f, "- Stroke at %.3f s", stroke->t);
        if (k >= 0)
            fprintf(f, ", cue ball at (%.0f, %.0f) mm", stroke->balls[k].x, stroke->balls[k].y);
        fprintf(f, "; %d balls on the table", stroke->n_balls);
        if (stroke->n_moving) {
            fprintf(f, "; still moving:");
            for (k = 0; k < stroke->n_moving; k++) {
                ball_name(stroke->moving[k], a);
                fprintf(f, " %s", a);
            }
        }
        fprintf(f, "\n");
    }
    if (first) {
        ball_name(first->a == 0 ? first->b : first->a, a);
        fprintf(f, "- First contact: the %s at %.3f s", a, first->t);
        if (first->confidence < 1.0)
            fprintf(f, " (confidence %.2f: the order of contacts is in doubt)", first->confidence);
        fprintf(f, "\n");
    } else if (stroke)
        fprintf(f, "- First contact: none seen\n");
    fprintf(f, "- %d ball-ball contact%s, %d cushion contact%s\n", n_coll, n_coll == 1 ? "" : "s", n_cush,
            n_cush == 1 ? "" : "s");
    for (i = from; i < n; i++) {
        const cr_event_t *e = &ev[i];

        if (e->shot != shot)
            continue;
        switch (e->type) {
        case CR_EV_POCKET:
            ball_name(e->ball, a);
            fprintf(f, "- Pocketed: the %s in the %s pocket at %.3f s\n", a, cr_pocket_name(e->pocket), e->t);
            break;
        case CR_EV_OFF_TABLE:
            ball_name(e->ball, a);
            fprintf(f, "- Off the table: the %s at %.3f s\n", a, e->t);
            break;
        case CR_EV_DISTURBED:
            ball_name(e->ball, a);
            fprintf(f, "- Moved with nothing to explain it: the %s at %.3f s, (%.0f, %.0f) mm\n", a, e->t, e->x, e->y);
            break;
        case CR_EV_DOUBLE_HIT:
            fprintf(f, "- Double hit suspected at %.3f s (confidence %.2f)\n", e->t, e->confidence);
            break;
        case CR_EV_WARNING:
            fprintf(f, "- **Warning** (%s) at %.3f s: %s\n", e->code, e->t, e->detail);
            break;
        case CR_EV_FOUL:
            fprintf(f, "- Foul %s (%s) at %.3f s%s: %s", e->code, e->rule, e->t,
                    !e->early ? "" : !strcmp(e->code, "cue_ball_scratch") ? ", called at the drop" : ", called at the contact",
                    e->detail);
            if (e->confidence < 1.0)
                fprintf(f, " (confidence %.2f)", e->confidence);
            fprintf(f, "\n");
            break;
        case CR_EV_REST:
            fprintf(f, "- All balls still at %.3f s\n", e->t);
            break;
        default:
            break;
        }
    }
    if (ruling)
        fprintf(f, "- Ruling: %s\n", ruling->ruling.detail);
}

int cr_report_write(const char *path, const cr_report_info_t *info, const cr_event_t *ev, size_t n)
{
    char tmp[4200], when[32];
    FILE *f;
    size_t i;
    int last_shot = -1, rc;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
        return -1;
    f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "# cueref review of %s\n\n", info->source);
    fprintf(f, "- Video: %dx%d at %.2f fps, %.1f s reviewed\n", info->width, info->height, info->fps, info->duration_s);
    fprintf(f, "- Table: %.0f x %.0f mm; game: %s; rules: %s\n", info->table_length_mm, info->table_width_mm,
            cr_game_name(info->game), info->rules);
    fprintf(f, "- Camera: %s\n", info->camera);
    if (info->head && info->head[0])
        fprintf(f, "- Head end: %s\n", info->head);
    fprintf(f, "- Shots: %ld; fouls: %ld\n", info->shots, info->fouls);
    fprintf(f, "\nTimes are seconds of the video; positions are table millimetres from the head-left corner "
               "(SPEC §1). Every line below comes from `events.jsonl`.\n");
    for (i = 0; i < n; i++) {
        const cr_event_t *e = &ev[i];

        if (e->type == CR_EV_WARNING && e->shot < 0) {
            cr_cli_clock_text(e->t, when);
            fprintf(f, "\n**Warning at %s** (%s): %s\n", when, e->code, e->detail);
        } else if (e->type == CR_EV_RULING && e->ruling.kind == CR_RULING_BETWEEN) {
            cr_cli_clock_text(e->t, when);
            fprintf(f, "\n## Between shots at %s\n\n- %s\n", when, e->ruling.detail);
        }
        if (e->shot > last_shot && (e->type == CR_EV_STROKE || e->type == CR_EV_RULING)) {
            size_t from = i;

            /* a foul called at the contact may come before its shot's stroke */
            while (from > 0 && (ev[from - 1].shot == e->shot || ev[from - 1].shot < 0 ||
                                ev[from - 1].type == CR_EV_BALLS))
                from--;
            last_shot = e->shot;
            shot_section(f, ev, n, from, e->shot, info->game);
        }
    }
    rc = ferror(f) ? -1 : 0;
    if (fclose(f) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0)
        remove(tmp);
    return rc;
}
