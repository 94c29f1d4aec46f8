/*
 * track_bench.c - accuracy and speed of the tracker (vision/cr_track.h) on
 * synthetic detections made from simulator truth.
 *
 *   track_bench [--shots N] [--seed S] [--game G] [--fps F] [--delay D]
 *               [--noise-seed S] [--colour-bias B] [--view-share V] [--all-ids]
 *               [--csv POSITIONS.csv]
 *
 * Without --csv it plays N shots of simulated play in-process (the same
 * play as `cueref sim --random N --seed S --game G --fps F --no-video`);
 * with --csv it reads a positions.csv (a ball is on the table while its
 * `visible` is 1). Detections come from cr_track_synth (noise, streaks,
 * dropped runs at strokes and hand placements, doubles, phantoms, confused
 * colours, stripes that look solid). Prints one JSON object of metrics:
 * identity on frames where the ball was detected (correct / -1 / wrong /
 * no output near it), swaps (a ball taken over for 3+ frames by a track
 * that followed another ball for 3+ frames within the last 10), wrong id
 * runs (3+ frames), track switches (any change of the track on a ball,
 * fragmentation included), id switches (the ball's reported number changes
 * between two numbers), tracks per ball, phantom tracks (mostly matching no
 * ball), position error (smoothed output vs truth, and the raw detections
 * for comparison), velocity error, pocket (GONE) decisions, the delay and
 * the tracker's CPU time per frame.
 * The tracker is told which ids the game uses (9-ball 0..9, 10-ball 0..10)
 * unless --all-ids.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_player.h"
#include "cr_scenario.h"
#include "cr_simulate.h"
#include "cr_track.h"

typedef struct {
    cr_track_truth_t *v; /* frames * 16 */
    int n, cap;
    double fps;
} truth_t;

static int truth_grow(truth_t *T, int need)
{
    if (need <= T->cap)
        return 0;
    int cap = T->cap ? T->cap * 2 : 4096;
    while (cap < need)
        cap *= 2;
    cr_track_truth_t *nv = realloc(T->v, sizeof(cr_track_truth_t) * (size_t)cap * CR_NUM_BALLS);
    if (!nv)
        return -1;
    memset(nv + (size_t)T->cap * CR_NUM_BALLS, 0, sizeof(cr_track_truth_t) * (size_t)(cap - T->cap) * CR_NUM_BALLS);
    T->v = nv;
    T->cap = cap;
    return 0;
}

static int on_frame(void *user, int index, double t, const uint8_t *rgb, int stride,
                    const cr_frame_ball_t balls[CR_NUM_BALLS])
{
    truth_t *T = user;

    (void)t;
    (void)rgb;
    (void)stride;
    if (truth_grow(T, index + 1) != 0)
        return 1;
    for (int i = 0; i < CR_NUM_BALLS; i++) {
        cr_track_truth_t *b = &T->v[(size_t)index * CR_NUM_BALLS + (size_t)i];

        b->on_table = balls[i].in_play && balls[i].on_table;
        b->x = balls[i].x;
        b->y = balls[i].y;
    }
    if (index + 1 > T->n)
        T->n = index + 1;
    return 0;
}

static int on_event(void *user, const cr_event_t *ev)
{
    (void)user;
    (void)ev;
    return 0;
}

static double g_lead_in = -1, g_phantom = -1;

static int simulate(truth_t *T, int shots, unsigned long long seed, const char *game, double fps, cr_table_t *table)
{
    cr_scenario_t *scn = malloc(sizeof(*scn));
    cr_simulate_opts_t so;
    cr_simulate_sink_t sink = {on_event, on_frame, T};
    cr_player_t player;
    char text[256], err[256] = "";
    int st;

    if (!scn)
        return -1;
    snprintf(text, sizeof(text), "{\"version\":1,\"game\":\"%s\",\"rack\":\"%s\",\"seed\":%llu,\"shots\":[]}", game,
             strcmp(game, "none") ? game : "9ball", seed);
    st = cr_scenario_parse(text, scn, err, sizeof(err));
    if (st == CR_OK) {
        scn->fps = fps;
        cr_simulate_opts_defaults(&so);
        so.render = false;
        if (g_lead_in >= 0)
            so.lead_in_s = so.tail_s = g_lead_in;
        cr_player_init(&player, scn->game, &scn->table, shots, scn->seed);
        st = cr_simulate_run(scn, &so, cr_player_next, &player, &sink, err, sizeof(err));
        *table = scn->table;
    }
    if (st != CR_OK)
        fprintf(stderr, "track_bench: simulation failed: %s\n", err);
    free(scn);
    T->fps = fps;
    return st == CR_OK ? 0 : -1;
}

static int read_csv(truth_t *T, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int fr, id, vis;
    double t, x, y, t0 = -1, t1 = -1;

    if (!f)
        return -1;
    if (!fgets(line, sizeof(line), f)) {
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%d,%lf,%d,%lf,%lf,%d", &fr, &t, &id, &x, &y, &vis) != 6 || fr < 0 || id < 0 ||
            id >= CR_NUM_BALLS)
            continue;
        if (truth_grow(T, fr + 1) != 0) {
            fclose(f);
            return -1;
        }
        cr_track_truth_t *b = &T->v[(size_t)fr * CR_NUM_BALLS + (size_t)id];
        b->on_table = vis != 0;
        b->x = x;
        b->y = y;
        if (fr + 1 > T->n)
            T->n = fr + 1;
        if (fr == 0)
            t0 = t;
        if (fr == 1)
            t1 = t;
    }
    fclose(f);
    T->fps = (t1 > t0 && t0 >= 0) ? 1.0 / (t1 - t0) : 60.0;
    return 0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    double *v;
    int n, cap;
} vec_t;

static void vpush(vec_t *v, double x)
{
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 1024;
        double *nv = realloc(v->v, sizeof(double) * (size_t)cap);
        if (!nv)
            return;
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = x;
}

static double vq(vec_t *v, double q)
{
    if (v->n == 0)
        return NAN;
    qsort(v->v, (size_t)v->n, sizeof(double), cmp_d);
    return v->v[(int)fmin(v->n - 1, floor(q * v->n))];
}

static double vrms(const vec_t *v)
{
    double s = 0;
    for (int i = 0; i < v->n; i++)
        s += v->v[i] * v->v[i];
    return v->n ? sqrt(s / v->n) : NAN;
}

#define MAXTRK 4096

int main(int argc, char **argv)
{
    int shots = 20, delay = -1, all_ids = 0;
    double cbias = -1, vshare = -1;
    unsigned long long seed = 21, nseed = 7;
    const char *game = "9ball", *csv = NULL;
    double fps = 60;
    truth_t T = {0};
    cr_table_t table;
    cr_track_synth_params_t sp;
    cr_track_params_t tp;
    cr_track_synth_t *syn = NULL;
    cr_tracker_t *tr = NULL;
    cr_detection_t dets[CR_VISION_MAX_DETECTIONS];
    cr_ball_frame_t *out = malloc(sizeof(*out));
    bool *detected = NULL;
    int rc = 1;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shots") && i + 1 < argc)
            shots = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--noise-seed") && i + 1 < argc)
            nseed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--game") && i + 1 < argc)
            game = argv[++i];
        else if (!strcmp(argv[i], "--fps") && i + 1 < argc)
            fps = atof(argv[++i]);
        else if (!strcmp(argv[i], "--delay") && i + 1 < argc)
            delay = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--colour-bias") && i + 1 < argc)
            cbias = atof(argv[++i]);
        else if (!strcmp(argv[i], "--view-share") && i + 1 < argc)
            vshare = atof(argv[++i]);
        else if (!strcmp(argv[i], "--lead-in") && i + 1 < argc)
            g_lead_in = atof(argv[++i]);
        else if (!strcmp(argv[i], "--phantom") && i + 1 < argc)
            g_phantom = atof(argv[++i]);
        else if (!strcmp(argv[i], "--all-ids"))
            all_ids = 1;
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else {
            fprintf(stderr, "usage: track_bench [--shots N] [--seed S] [--game G] [--fps F] [--delay D] "
                            "[--noise-seed S] [--colour-bias B] [--view-share V] [--all-ids] [--csv POSITIONS.csv]\n");
            return 2;
        }
    }
    if (!out)
        return 1;
    cr_table_init(&table, 2540, 1270);
    if (csv ? read_csv(&T, csv) : simulate(&T, shots, seed, game, fps, &table)) {
        fprintf(stderr, "track_bench: no truth\n");
        goto done;
    }
    cr_track_synth_params_defaults(&sp);
    sp.fps = T.fps;
    if (cbias >= 0)
        sp.colour_bias = cbias;
    if (vshare >= 0)
        sp.colour_view_share = vshare;
    if (g_phantom >= 0)
        sp.phantom_p = g_phantom;
    cr_track_params_defaults(&tp);
    if (delay > 0)
        tp.delay_frames = delay;
    if (!csv && !all_ids) /* the game says which balls exist */
        tp.id_set = !strcmp(game, "9ball") ? 0x3FFu : !strcmp(game, "10ball") ? 0x7FFu : 0xFFFFu;
    detected = calloc((size_t)T.n * CR_NUM_BALLS, sizeof(bool));
    if (!detected || cr_track_synth_create(&table, &sp, nseed, T.v, T.n, &syn) != CR_OK ||
        cr_tracker_create(&table, &tp, &tr) != CR_OK) {
        fprintf(stderr, "track_bench: setup failed\n");
        goto done;
    }

    /* metrics */
    long id_ok = 0, id_unk = 0, id_wrong = 0, id_missing = 0, track_switch = 0, id_switch = 0;
    long gone_truth = 0, gone_hit = 0, gone_false = 0, gone_total = 0;
    long hidden_ok = 0, hidden_frames = 0;
    vec_t e_rest = {0}, e_move = {0}, e_rest_raw = {0}, e_move_raw = {0}, ev_move = {0}, ev_rest = {0}, gone_lag = {0};
    int prev_track[CR_NUM_BALLS], prev_id[CR_NUM_BALLS];
    static int trk_seen[MAXTRK], trk_matched[MAXTRK], trk_ball_n[MAXTRK][CR_NUM_BALLS];
    static int trk_gone_at[MAXTRK], trk_last_ball[MAXTRK], trk_gone_first[MAXTRK];
    struct {
        int track, f;
    } pev[1024];
    int n_pev = 0;
    static int own[MAXTRK], own_f[MAXTRK], own_run[MAXTRK];
    int pend[CR_NUM_BALLS] = {0}, wrun[CR_NUM_BALLS] = {0};
    long swaps = 0, wrong_runs = 0;
    static long conf[CR_NUM_BALLS][CR_NUM_BALLS], unk_ball[CR_NUM_BALLS];
    int max_lag = 0, popped = 0;
    double R = table.ball_radius_mm;

    for (int i = 0; i < CR_NUM_BALLS; i++)
        prev_track[i] = prev_id[i] = -1;
    for (int i = 0; i < MAXTRK; i++) {
        trk_gone_at[i] = -1;
        trk_gone_first[i] = -1;
        trk_last_ball[i] = -1;
        own[i] = -1;
    }

    for (int k = 0; k <= T.n; k++) {
        if (k < T.n) {
            int n;

            if (cr_track_synth_frame(syn, k, dets, CR_VISION_MAX_DETECTIONS, &n, &detected[(size_t)k * CR_NUM_BALLS]) !=
                CR_OK)
                goto done;
            /* raw detection error, for comparison */
            for (int id = 0; id < CR_NUM_BALLS; id++) {
                const cr_track_truth_t *b = &T.v[(size_t)k * CR_NUM_BALLS + (size_t)id];
                double best = 1e9;
                if (!detected[(size_t)k * CR_NUM_BALLS + (size_t)id])
                    continue;
                for (int j = 0; j < n; j++)
                    best = fmin(best, hypot(dets[j].x - b->x, dets[j].y - b->y));
                if (k > 0 && k + 1 < T.n) {
                    const cr_track_truth_t *a = b - CR_NUM_BALLS, *c = b + CR_NUM_BALLS;
                    double v = hypot(c->x - a->x, c->y - a->y) * T.fps * 0.5;
                    vpush(v < 1.0 ? &e_rest_raw : &e_move_raw, best);
                }
            }
            if (cr_tracker_push(tr, (double)k / T.fps, (uint64_t)k, dets, n) != CR_OK) {
                fprintf(stderr, "track_bench: push failed at %d\n", k);
                goto done;
            }
        } else {
            cr_tracker_flush(tr);
        }
        while (cr_tracker_pop(tr, out) == 1) {
            int f = (int)out->frame, match_out[CR_NUM_BALLS];
            bool used[CR_VISION_MAX_DETECTIONS];

            if (k - f > max_lag)
                max_lag = k - f;
            popped++;
            memset(used, 0, sizeof(used));
            /* greedy nearest matching of truth balls and output balls */
            for (int id = 0; id < CR_NUM_BALLS; id++)
                match_out[id] = -1;
            for (;;) {
                double best = 1e9;
                int bi = -1, bj = -1;
                for (int id = 0; id < CR_NUM_BALLS; id++) {
                    const cr_track_truth_t *b = &T.v[(size_t)f * CR_NUM_BALLS + (size_t)id];
                    if (!b->on_table || match_out[id] >= 0)
                        continue;
                    for (int j = 0; j < out->n; j++) {
                        const cr_ball_obs_t *o = &out->balls[j];
                        double d = hypot(o->x - b->x, o->y - b->y), lim = o->status == CR_BALL_SEEN ? 1.5 * R : 3 * R;
                        if (used[j] || o->status == CR_BALL_GONE || d > lim)
                            continue;
                        if (d < best) {
                            best = d;
                            bi = id;
                            bj = j;
                        }
                    }
                }
                if (bi < 0)
                    break;
                match_out[bi] = bj;
                used[bj] = true;
            }
            if (getenv("TRACK_BENCH_F0") && f >= atoi(getenv("TRACK_BENCH_F0")) &&
                f <= atoi(getenv("TRACK_BENCH_F1"))) {
                int bid = atoi(getenv("TRACK_BENCH_BALL"));
                const cr_track_truth_t *tb0 = &T.v[(size_t)f * CR_NUM_BALLS + (size_t)bid];
                fprintf(stderr, "f %d truth %d %.1f,%.1f det=%d:", f, bid, tb0->x, tb0->y,
                        detected[(size_t)f * CR_NUM_BALLS + (size_t)bid]);
                for (int j = 0; j < out->n; j++)
                    if (hypot(out->balls[j].x - tb0->x, out->balls[j].y - tb0->y) < 300)
                        fprintf(stderr, " [trk %d id %d st %d %.1f,%.1f v %.0f,%.0f]", out->balls[j].track,
                                out->balls[j].id, out->balls[j].status, out->balls[j].x, out->balls[j].y,
                                out->balls[j].vx, out->balls[j].vy);
                fprintf(stderr, "\n");
            }
            for (int j = 0; j < out->n; j++) {
                const cr_ball_obs_t *o = &out->balls[j];
                if (o->track < 0 || o->track >= MAXTRK)
                    continue;
                if (o->status == CR_BALL_SEEN) {
                    trk_seen[o->track]++;
                    if (used[j])
                        trk_matched[o->track]++;
                }
                if (o->status == CR_BALL_GONE && trk_gone_at[o->track] < 0) {
                    int b = trk_last_ball[o->track];
                    gone_total++;
                    trk_gone_at[o->track] = f;
                    /* a false GONE: its ball is still on the table a second later */
                    if (b >= 0 && f + (int)T.fps < T.n &&
                        T.v[(size_t)(f + (int)T.fps) * CR_NUM_BALLS + (size_t)b].on_table &&
                        T.v[(size_t)f * CR_NUM_BALLS + (size_t)b].on_table) {
                        gone_false++;
                        if (getenv("TRACK_BENCH_DEBUG"))
                            fprintf(stderr, "false GONE at frame %d: track %d, ball %d at %.0f,%.0f\n", f, o->track, b,
                                    T.v[(size_t)f * CR_NUM_BALLS + (size_t)b].x,
                                    T.v[(size_t)f * CR_NUM_BALLS + (size_t)b].y);
                    }
                }
                if (o->status != CR_BALL_GONE)
                    trk_gone_at[o->track] = -1;
                else if (trk_gone_first[o->track] < 0 || trk_gone_at[o->track] == f)
                    trk_gone_first[o->track] = trk_gone_at[o->track];
            }
            for (int id = 0; id < CR_NUM_BALLS; id++) {
                const cr_track_truth_t *b = &T.v[(size_t)f * CR_NUM_BALLS + (size_t)id];
                bool vis = detected[(size_t)f * CR_NUM_BALLS + (size_t)id];
                int j = match_out[id];

                /* pocketed (or off the table) at f: did its track go GONE? */
                if (f > 0 && !b->on_table && T.v[(size_t)(f - 1) * CR_NUM_BALLS + (size_t)id].on_table &&
                    prev_track[id] >= 0 && n_pev < 1024) {
                    pev[n_pev].track = prev_track[id];
                    pev[n_pev++].f = f;
                    gone_truth++;
                }
                if (!b->on_table)
                    continue;
                if (j < 0) {
                    if (vis)
                        id_missing++;
                    continue;
                }
                const cr_ball_obs_t *o = &out->balls[j];
                if (o->track >= 0 && o->track < MAXTRK) {
                    trk_ball_n[o->track][id]++;
                    trk_last_ball[o->track] = id;
                }
                if (!vis) {
                    hidden_frames++;
                    if (o->id == id || o->id == -1)
                        hidden_ok++;
                }
                if (vis) {
                    if (o->id == id)
                        id_ok++;
                    else if (o->id < 0) {
                        id_unk++;
                        unk_ball[id]++;
                    } else {
                        id_wrong++;
                        conf[id][o->id]++;
                    }
                }
                /* identity swaps: the ball taken over (3+ frames) by a track
                 * established (3+ frames) on another ball in the last 10 frames */
                if (o->track >= 0 && o->track < MAXTRK && vis) {
                    if (o->track != prev_track[id])
                        pend[id] = (own[o->track] >= 0 && own[o->track] != id && own_f[o->track] >= f - 10 &&
                                    own_run[o->track] >= 3);
                    else if (pend[id] > 0 && ++pend[id] == 3)
                        swaps++;
                    own_run[o->track] = own[o->track] == id ? own_run[o->track] + 1 : 1;
                    own[o->track] = id;
                    own_f[o->track] = f;
                    if (o->id >= 0 && o->id != id) {
                        if (++wrun[id] == 3)
                            wrong_runs++;
                    } else {
                        wrun[id] = 0;
                    }
                }
                if (prev_track[id] >= 0 && o->track != prev_track[id]) {
                    track_switch++;
                    if (getenv("TRACK_BENCH_DEBUG"))
                        fprintf(stderr, "frame %d ball %d: track %d -> %d (%s, id %d) at %.0f,%.0f\n", f, id,
                                prev_track[id], o->track, o->status == CR_BALL_SEEN ? "seen" : "hidden", o->id, b->x,
                                b->y);
                }
                if (o->id >= 0 && prev_id[id] >= 0 && o->id != prev_id[id])
                    id_switch++;
                prev_track[id] = o->track;
                if (o->id >= 0)
                    prev_id[id] = o->id;
                if (o->status == CR_BALL_SEEN && f > 0 && f + 1 < T.n) {
                    const cr_track_truth_t *a = b - CR_NUM_BALLS, *c = b + CR_NUM_BALLS;
                    double vx = (c->x - a->x) * T.fps * 0.5, vy = (c->y - a->y) * T.fps * 0.5,
                           err = hypot(o->x - b->x, o->y - b->y);
                    if (hypot(vx, vy) < 1.0) {
                        vpush(&e_rest, err);
                        vpush(&ev_rest, hypot(o->vx, o->vy));
                    } else {
                        vpush(&e_move, err);
                        if (c->on_table && a->on_table)
                            vpush(&ev_move, hypot(o->vx - vx, o->vy - vy));
                    }
                }
            }
        }
        if (k == T.n)
            break;
    }
    /* pocket decisions: each true pocketing, did the ball's track go GONE nearby? */
    for (int i = 0; i < n_pev; i++) {
        int t = pev[i].track, g = t < MAXTRK ? trk_gone_first[t] : -1;
        if (g >= 0 && g >= pev[i].f - 15 && g <= pev[i].f + 30) {
            gone_hit++;
            vpush(&gone_lag, g - pev[i].f);
        } else if (getenv("TRACK_BENCH_DEBUG")) {
            fprintf(stderr, "pocketing at frame %d (track %d) not found: gone at %d\n", pev[i].f, t, g);
        }
    }
    /* fragmentation and phantoms */
    int ntr = 0, phantom = 0, per_ball[CR_NUM_BALLS] = {0}, balls_present = 0;
    for (int t = 0; t < MAXTRK; t++) {
        int best = -1, bn = 0;
        if (trk_seen[t] == 0)
            continue;
        ntr++;
        if (trk_matched[t] * 2 < trk_seen[t]) {
            phantom++;
            continue;
        }
        for (int id = 0; id < CR_NUM_BALLS; id++)
            if (trk_ball_n[t][id] > bn) {
                bn = trk_ball_n[t][id];
                best = id;
            }
        if (best >= 0)
            per_ball[best]++;
    }
    for (int id = 0; id < CR_NUM_BALLS; id++)
        if (per_ball[id])
            balls_present++;
    int frag_total = 0;
    for (int id = 0; id < CR_NUM_BALLS; id++)
        frag_total += per_ball[id];

    double cpu;
    uint64_t nf;
    long vis_total = id_ok + id_unk + id_wrong + id_missing;
    cr_tracker_stats(tr, &cpu, &nf);
    printf("{\"frames\":%d,\"fps\":%.0f,\"shots\":%d,\"seed\":%llu,\"game\":\"%s\",\n", T.n, T.fps, shots, seed, game);
    printf(" \"identity_visible\":{\"correct\":%.4f,\"unknown\":%.4f,\"wrong\":%.4f,\"missing\":%.4f,\"n\":%ld},\n",
           (double)id_ok / vis_total, (double)id_unk / vis_total, (double)id_wrong / vis_total,
           (double)id_missing / vis_total, vis_total);
    printf(" \"hidden_frames\":{\"n\":%ld,\"id_ok_or_unknown\":%.4f},\n", hidden_frames,
           hidden_frames ? (double)hidden_ok / hidden_frames : 1.0);
    printf(" \"swaps\":%ld,\"wrong_id_runs\":%ld,\"track_switches\":%ld,\"id_switches\":%ld,\n", swaps, wrong_runs,
           track_switch, id_switch);
    printf(" \"tracks\":%d,\"phantom_tracks\":%d,\"tracks_per_ball\":%.2f,\n", ntr, phantom,
           balls_present ? (double)frag_total / balls_present : 0.0);
    printf(" \"pos_rest_mm\":{\"rms\":%.2f,\"median\":%.2f,\"raw_rms\":%.2f,\"raw_median\":%.2f},\n", vrms(&e_rest),
           vq(&e_rest, 0.5), vrms(&e_rest_raw), vq(&e_rest_raw, 0.5));
    printf(" \"pos_moving_mm\":{\"rms\":%.2f,\"median\":%.2f,\"p95\":%.2f,\"raw_rms\":%.2f,\"raw_median\":%.2f},\n",
           vrms(&e_move), vq(&e_move, 0.5), vq(&e_move, 0.95), vrms(&e_move_raw), vq(&e_move_raw, 0.5));
    printf(
        " \"vel_err_moving_mm_s\":{\"median\":%.1f,\"p90\":%.1f},\"vel_rest_mm_s\":{\"median\":%.2f,\"p95\":%.2f},\n",
        vq(&ev_move, 0.5), vq(&ev_move, 0.9), vq(&ev_rest, 0.5), vq(&ev_rest, 0.95));
    printf(
        " \"gone\":{\"truth_pockets\":%ld,\"found\":%ld,\"median_lag_frames\":%.0f,\"decisions\":%ld,\"false\":%ld},\n",
        gone_truth, gone_hit, vq(&gone_lag, 0.5), gone_total, gone_false);
    printf(" \"delay_frames\":%d,\"us_per_frame\":%.1f}\n", max_lag, 1e6 * cpu / (double)(nf ? nf : 1));
    if (getenv("TRACK_BENCH_CONFUSION"))
        for (int a = 0; a < CR_NUM_BALLS; a++)
            for (int b = 0; b < CR_NUM_BALLS; b++)
                if (conf[a][b])
                    fprintf(stderr, "true %d -> %d: %ld frames\n", a, b, conf[a][b]);
    if (getenv("TRACK_BENCH_CONFUSION"))
        for (int a = 0; a < CR_NUM_BALLS; a++)
            if (unk_ball[a])
                fprintf(stderr, "true %d -> -1: %ld frames\n", a, unk_ball[a]);
    rc = 0;
    free(e_rest.v);
    free(e_move.v);
    free(e_rest_raw.v);
    free(e_move_raw.v);
    free(ev_move.v);
    free(ev_rest.v);
    free(gone_lag.v);
done:
    cr_tracker_destroy(tr);
    cr_track_synth_destroy(syn);
    free(detected);
    free(T.v);
    free(out);
    return rc;
}
