/*
 * cmd_review.c - `cueref review INPUT [options]`: video in, events, fouls
 * and rulings out (SPEC §2, §3).
 *
 *   capture (I420 frames, PTS) -> detect -> track -> recon -> rules
 *                                              |                |
 *                                  balls lines (--positions)    foul, ruling
 *
 * Everything goes to DIR/events.jsonl through a temporary file renamed when
 * the review ends; a readable line per ruling goes to stdout as it comes.
 * An input that breaks midway is reviewed up to the break: the events up to
 * there are committed and the command exits 1 saying where it stopped. So is
 * a review stopped by SIGINT (Ctrl-C) or SIGTERM: it ends at the next frame
 * as at the end of its input (a second signal ends it at once, as by
 * default).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calib_file.h"
#include "cli.h"
#include "cr_calib.h"
#include "cr_detect.h"
#include "cr_early.h"
#include "cr_frame_source.h"
#include "cr_jsonl.h"
#include "cr_recon.h"
#include "cr_track.h"
#include "cr_watch.h"
#include "report.h"

#define REVIEW_MAX_EVENTS 256
#define SCAN_SWEEP_S 2.4 /* the scan for balls no region shows sweeps the bed in this long */
#define HEAD_LOOK_S 600.0 /* how long into a video a rack is looked for to decide the head end */

typedef struct {
    cr_rules_opts_t r;
    const char *input;
    const char *out_dir;
    const char *calib;
    const char *inputs;
    bool have_corners;
    double corners[4][2];
    const char *head;
    bool positions;
    bool quiet;
    int track_delay; /* --track-delay, frames; 0: 0.135 s of frames */
    bool emit_times; /* --emit-times: DIR/emitted.csv */
    bool highlights; /* resting balls placed by their highlights too (default; --no-highlights) */
    bool no_early;   /* --no-early-calls: a wrong ball first and a scratch wait for the reconstruction */
    const char *head_why; /* what decided o->head when not the command line (a review begun again) */
} review_opts_t;

/* Everything one review holds; freed by review_free. */
typedef struct {
    const review_opts_t *o;
    cr_frame_source_t *src;
    cr_detector_t *det;
    cr_tracker_t *trk;
    cr_recon_t *rec;
    cr_judge_t *judge;
    cr_early_t *early; /* NULL with --no-early-calls */
    cr_ball_frame_t *peek;
    long early_calls;
    cr_watch_t *watch;
    bool moved_warned; /* a camera move that could not be repaired was reported */
    bool head_set, head_right; /* the head end found with the first frame, kept after a camera move */
    /* the head end still open (no --head, no rack in the first frame): a
     * rack seen later decides it (head_check); the first frame's table */
    bool head_open;
    bool head_check_ok; /* the input can be read again from the start (a file) */
    char head_desc[256]; /* the head end's image side and what decided it, for the report; when a
                            rack on the other end's spot begins the review again, what decided it */
    cr_calib_result_t *head_calib;
    FILE *held;        /* stdout lines held while the head end is open (a review begun again drops them) */
    char *held_buf;
    size_t held_len;
    cr_jsonl_writer_t *w;
    cr_rules_params_t rp;
    cr_camera_t cam;
    char cam_source[160];
    cr_detection_t dets[CR_VISION_MAX_DETECTIONS];
    cr_ball_frame_t *bf;
    cr_event_t *events; /* REVIEW_MAX_EVENTS from recon */
    cr_event_t *judged; /* CR_JUDGE_MAX_OUT from the rules */
    cr_event_t *line;   /* scratch for balls lines */
    double fps;
    long frames, shots, fouls;
    cr_event_t *inputs;      /* operator input lines (--inputs), by time */
    size_t n_inputs, next_input;
    cr_event_t *kept;        /* every line written but balls lines, for the report */
    size_t n_kept, cap_kept;
    long dropped;            /* invalid events from the vision stage, not written */
    unsigned dropped_types;  /* bit per event type, for one message each */
    double t_last;
    double t_now;      /* media time of the frame being processed */
    FILE *emitted;     /* --emit-times: DIR/emitted.csv.tmp while open */
    char emitted_path[4200];
    double sec_detect, sec_track, sec_recon;
    char out_path[4200];
    cr_cli_last_stroke_t last_stroke; /* for the rulings' lines: when their shot was played */
} review_t;

static void review_usage(FILE *f)
{
    fprintf(f,
            "usage: cueref review INPUT [options]\n"
            "Reviews a recorded video (any file or URI GStreamer decodes, or an image sequence\n"
            "pattern such as frames/%%04d.png; a camera or live stream too, until it stops\n"
            "sending): finds the table, sees every ball, rebuilds each shot's events and judges\n"
            "them. Writes DIR/events.jsonl (SPEC §3) and prints one line per shot.\n\n"
            "options:\n"
            "  --out DIR         output folder (default review-out; created if missing)\n"
            "  --game G          8ball|9ball|10ball|14.1|none (default none: events and general fouls;\n"
            "                    a pocketed ball put back anywhere is followed, as in practice; with a\n"
            "                    game, only where the rules put balls back)\n"
            "  --table SIZE      9ft|8ft|7ft|LxW in mm (default 9ft, or the calibration file's)\n"
            "  --rules EDITION   wpa2008 (default) | wpa2025 | bca\n"
            "  --rule KEY=VALUE  one rule switch (docs/RULES-ENGINE.md), repeatable\n"
            "  --shot-clock S    impose a shot clock of S seconds (6.15)\n"
            "  --calib FILE      calibration file (cueref calibrate, or a sim's calib.json)\n"
            "  --corners \"x,y;x,y;x,y;x,y\"  playing-surface corners in pixels (head-left,\n"
            "                    head-right, foot-right, foot-left) instead of finding the table;\n"
            "                    the table found in the first frame is used when its corners\n"
            "                    are these (its camera models the lens; the corners alone do not)\n"
            "  --head SIDE       with automatic finding: the image side of the head end, left or\n"
            "                    right (default: the end whose foot spot a rack stands on, in the\n"
            "                    first frame or later: a rack seen later on the other end's spot\n"
            "                    begins a file's review again from the start; with no rack in\n"
            "                    the first 10 minutes, left)\n"
            "  --inputs FILE     the operator's input lines (calls, safeties, push-outs, players, racks;\n"
            "                    an event stream, SPEC §3): judged in time order with what is seen\n"
            "  --positions       also write a balls line per frame (positions, velocities)\n"
            "  --track-delay N   frames the tracker looks ahead before it settles identities (default\n"
            "                    0.135 s: 4 at 30 fps, 8 at 60): every call comes that much later\n"
            "  --emit-times      also write DIR/emitted.csv: per event line, its time and the media\n"
            "                    time of the frame whose processing wrote it (latency)\n"
            "  --no-highlights   place resting balls by their outlines alone, not also by their\n"
            "                    specular highlights (by default the lamps are learned from\n"
            "                    well-seen balls and a resting ball is placed where its highlights\n"
            "                    say: better places for balls of the cloth's colour, README);\n"
            "                    --highlights is the default, accepted\n"
            "  --no-early-calls  a wrong ball first and a scratch wait for the shot's reconstructed\n"
            "                    events; by default the plainest are called from the newest frames:\n"
            "                    within two frames of the contact and of the drop (docs/EVENTS.md)\n"
            "  -q, --quiet       no per-shot lines and no progress\n"
            "  -h, --help        this help\n");
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A readable ruling line for stdout: printed at once, or held while the
 * head end is still open (a review begun again from the start must not
 * print the same shots twice). */
static void say(review_t *rv, const char *line)
{
    if (rv->held) {
        fprintf(rv->held, "%s\n", line);
        return;
    }
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r%60s\r", "");
    printf("%s\n", line);
    fflush(stdout);
}

/* The held lines to stdout: the head end is decided, or the review ends. */
static void release_held(review_t *rv)
{
    if (!rv->held)
        return;
    fclose(rv->held);
    rv->held = NULL;
    if (rv->held_buf && rv->held_len > 0) {
        fwrite(rv->held_buf, 1, rv->held_len, stdout);
        fflush(stdout);
    }
    free(rv->held_buf);
    rv->held_buf = NULL;
    rv->held_len = 0;
}

/* Writes one line. An event the stream cannot carry is a defect upstream,
 * not a reason to lose the review: it is dropped and said once per type.
 * Returns 1 written, 0 dropped, -1 on a write failure (reported). */
static int write_event(review_t *rv, const cr_event_t *ev)
{
    int st = cr_jsonl_writer_write(rv->w, ev);

    if (st == CR_OK && rv->emitted && ev->type != CR_EV_BALLS)
        fprintf(rv->emitted, "%s,%.6f,%.6f,%s\n", cr_event_type_name(ev->type), isfinite(ev->t) ? ev->t : -1.0,
                rv->t_now, ev->type == CR_EV_FOUL ? ev->code : "");

    if (st == CR_ERR_INVALID) {
        if (!(rv->dropped_types & (1u << ev->type)))
            fprintf(stderr, "cueref: review: dropped an invalid %s event at %.3f s: %s\n",
                    cr_event_type_name(ev->type), ev->t, cr_jsonl_writer_error(rv->w));
        rv->dropped_types |= 1u << ev->type;
        rv->dropped++;
        return 0;
    }
    if (st != CR_OK) {
        cr_cli_error("cannot write %s: %s", rv->out_path, cr_jsonl_writer_error(rv->w));
        return -1;
    }
    cr_cli_note_stroke(&rv->last_stroke, ev);
    if (ev->type != CR_EV_BALLS) {
        if (rv->n_kept == rv->cap_kept) {
            size_t cap = rv->cap_kept ? 2 * rv->cap_kept : 256;
            cr_event_t *k = realloc(rv->kept, cap * sizeof(*k));

            if (!k) {
                cr_cli_error("out of memory");
                return -1;
            }
            rv->kept = k;
            rv->cap_kept = cap;
        }
        rv->kept[rv->n_kept++] = *ev;
    }
    return 1;
}

static int emit_one(review_t *rv, const cr_event_t *ev);

/* Writes and judges the operator's input lines up to time t. */
static int feed_inputs(review_t *rv, double t)
{
    while (rv->next_input < rv->n_inputs && !(rv->inputs[rv->next_input].t > t))
        if (emit_one(rv, &rv->inputs[rv->next_input++]) != 0)
            return -1;
    return 0;
}

/* Writes one event, and judges it: fouls and rulings written after it;
 * operator inputs due before it go first. */
static int emit(review_t *rv, const cr_event_t *ev)
{
    if (ev->type != CR_EV_SESSION && feed_inputs(rv, ev->t) != 0)
        return -1;
    return emit_one(rv, ev);
}

static int emit_one(review_t *rv, const cr_event_t *ev)
{
    int n, k, st;

    st = write_event(rv, ev);
    if (st <= 0)
        return st;
    if (ev->type == CR_EV_STROKE)
        rv->shots++;
    n = cr_judge_feed(rv->judge, ev, rv->judged, CR_JUDGE_MAX_OUT);
    if (n < 0) {
        /* vision produced something the rules cannot use: keep the event, say so */
        fprintf(stderr, "cueref: review: the rules engine rejected a %s event at %.3f s: %s\n",
                cr_event_type_name(ev->type), ev->t, cr_judge_error(rv->judge));
        return 0;
    }
    for (k = 0; k < n; k++) {
        char line[2048];

        st = write_event(rv, &rv->judged[k]);
        if (st < 0)
            return -1;
        if (st == 0)
            continue;
        if (rv->judged[k].type == CR_EV_FOUL)
            rv->fouls++;
        if (!rv->o->quiet && cr_cli_ruling_text(&rv->judged[k], &rv->last_stroke, rv->rp.game, line, sizeof(line)))
            say(rv, line);
    }
    return 0;
}

static int emit_balls(review_t *rv, const cr_ball_frame_t *f)
{
    cr_event_t *ev = rv->line;
    int i;

    cr_event_init(ev, CR_EV_BALLS);
    ev->t = f->t;
    for (i = 0; i < f->n && ev->n_balls < CR_EVENT_MAX_BALLS; i++) {
        const cr_ball_obs_t *b = &f->balls[i];
        cr_ball_state_t *s;

        if (b->status == CR_BALL_GONE || cr_recon_is_down(rv->rec, b))
            continue;
        s = &ev->balls[ev->n_balls++];
        s->id = b->id;
        s->x = b->x;
        s->y = b->y;
        s->vx = b->vx;
        s->vy = b->vy;
        s->frozen_rails = 0;
        s->hidden = b->status == CR_BALL_HIDDEN;
    }
    return write_event(rv, ev) < 0 ? -1 : 0;
}

/* Moves every frame the tracker has ready through reconstruction. */
static int drain_tracker(review_t *rv)
{
    int n, k, st;

    while (cr_tracker_pop(rv->trk, rv->bf) == 1) {
        double t0 = now_s();

        if (rv->o->positions && emit_balls(rv, rv->bf) != 0)
            return -1;
        st = cr_recon_push(rv->rec, rv->bf, rv->events, REVIEW_MAX_EVENTS, &n);
        rv->sec_recon += now_s() - t0;
        if (st != CR_OK) {
            cr_cli_error("review: event reconstruction failed: %s", cr_status_str(st));
            return -1;
        }
        /* a ball held where it vanished that the events have pocketed: the
         * tracker lets it go (a ball coming to rest there is another) */
        for (k = 0; k < rv->bf->n; k++)
            if (rv->bf->balls[k].status == CR_BALL_HIDDEN && cr_recon_is_down(rv->rec, &rv->bf->balls[k]))
                cr_tracker_let_go(rv->trk, rv->bf->balls[k].track);
        for (k = 0; k < n; k++)
            if (emit(rv, &rv->events[k]) != 0)
                return -1;
    }
    return 0;
}

/* Writes a foul called early and says it. */
static int early_foul(review_t *rv, const cr_event_t *foul, const char *what)
{
    if (write_event(rv, foul) < 0)
        return -1;
    rv->fouls++;
    rv->early_calls++;
    if (!rv->o->quiet) {
        char clock[32], line[CR_TEXT_LEN + 160];

        cr_cli_clock_text(foul->t, clock);
        snprintf(line, sizeof(line), "shot %d: FOUL %s (%s) at %s, called %s -- %s", foul->shot, foul->code, foul->rule,
                 clock, what, foul->detail);
        say(rv, line);
    }
    return 0;
}

/* The newest frame's first contact, or a cue ball dropped, called before
 * the tracker's look-ahead and the reconstruction (cr_early.h); the rules
 * say whether it is a foul now (cr_judge_early_contact(), with the
 * operator's input not written yet that falls before the contact;
 * cr_judge_early_pocket()). */
static int early_call(review_t *rv)
{
    cr_early_contact_t c;
    cr_early_drop_t drop[CR_NUM_BALLS];
    cr_event_t *stroke = rv->line, contact, foul;
    int i, n, called;

    if (!rv->early || cr_tracker_peek(rv->trk, rv->peek) != 1)
        return 0;
    called = cr_early_push(rv->early, rv->peek, &c);
    n = cr_early_drops(rv->early, drop, CR_NUM_BALLS);
    for (i = 0; i < n; i++) {
        cr_event_t pk;

        if (drop[i].ball != CR_BALL_CUE)
            continue;
        cr_event_init(&pk, CR_EV_POCKET);
        pk.t = drop[i].t;
        pk.ball = CR_BALL_CUE;
        pk.pocket = drop[i].pocket;
        if (cr_judge_early_pocket(rv->judge, &pk, &foul) == 1 && early_foul(rv, &foul, "at the drop") != 0)
            return -1;
    }
    if (called != 1)
        return 0;
    cr_event_init(stroke, CR_EV_STROKE);
    stroke->t = c.t_stroke;
    stroke->shot = rv->last_stroke.shot + 1;
    for (i = 0; i < c.n_balls && i < CR_EVENT_MAX_BALLS; i++) {
        stroke->balls[i].id = c.ball_id[i];
        stroke->balls[i].x = c.ball_x[i];
        stroke->balls[i].y = c.ball_y[i];
    }
    stroke->n_balls = i;
    cr_event_init(&contact, CR_EV_COLLISION);
    contact.t = c.t;
    contact.shot = stroke->shot;
    contact.a = CR_BALL_CUE;
    contact.b = c.ball;
    contact.x = c.x;
    contact.y = c.y;
    contact.confidence = 1.0;
    if (cr_judge_early_contact(rv->judge, rv->inputs + rv->next_input, (int)(rv->n_inputs - rv->next_input), stroke,
                               &contact, &foul) != 1)
        return 0;
    return early_foul(rv, &foul, "at the contact");
}

static int finish(review_t *rv)
{
    int n, k;

    cr_tracker_flush(rv->trk);
    if (drain_tracker(rv) != 0 || feed_inputs(rv, INFINITY) != 0)
        return -1;
    do {
        if (cr_recon_finish(rv->rec, rv->events, REVIEW_MAX_EVENTS, &n) != CR_OK) {
            cr_cli_error("review: event reconstruction failed at the end");
            return -1;
        }
        for (k = 0; k < n; k++)
            if (emit(rv, &rv->events[k]) != 0)
                return -1;
    } while (n > 0);
    cr_judge_advance(rv->judge, rv->t_last); /* a shot still open ends with the video */
    n = cr_judge_finish(rv->judge, rv->judged, CR_JUDGE_MAX_OUT);
    for (k = 0; k < n; k++) {
        char line[2048];

        if (write_event(rv, &rv->judged[k]) < 0)
            return -1;
        if (!rv->o->quiet && cr_cli_ruling_text(&rv->judged[k], &rv->last_stroke, rv->rp.game, line, sizeof(line)))
            say(rv, line);
    }
    return 0;
}

static int cmp_input_time(const void *a, const void *b)
{
    const cr_event_t *x = a, *y = b;

    return (x->t > y->t) - (x->t < y->t);
}

/* Reads the operator's input lines from an event stream (--inputs). */
static int load_inputs(review_t *rv, const char *path)
{
    cr_jsonl_reader_t *rd = NULL;
    cr_event_t ev;
    size_t cap = 0;
    int st;

    if (cr_jsonl_reader_open(path, &rd) != CR_OK) {
        cr_cli_error("review: %s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    while ((st = cr_jsonl_reader_next(rd, &ev)) == 1) {
        if (ev.type != CR_EV_INPUT || !isfinite(ev.t))
            continue;
        if (rv->n_inputs == cap) {
            size_t c = cap ? 2 * cap : 64;
            cr_event_t *d = realloc(rv->inputs, c * sizeof(*d));

            if (!d) {
                cr_cli_error("out of memory");
                cr_jsonl_reader_destroy(rd);
                return -1;
            }
            rv->inputs = d;
            cap = c;
        }
        rv->inputs[rv->n_inputs++] = ev;
    }
    if (st < 0) {
        fprintf(stderr, "cueref: %s\n", cr_jsonl_reader_error(rd));
        cr_jsonl_reader_destroy(rd);
        return -1;
    }
    cr_jsonl_reader_destroy(rd);
    /* insertion order kept for equal times (qsort is not stable): the file is
     * already in time order in practice, so sort only when it is not */
    for (size_t i = 1; i < rv->n_inputs; i++)
        if (rv->inputs[i].t < rv->inputs[i - 1].t) {
            qsort(rv->inputs, rv->n_inputs, sizeof(*rv->inputs), cmp_input_time);
            break;
        }
    return 0;
}

/* The frame in RGB (for the calibration's functions), malloc'd; NULL when
 * out of memory. */
static uint8_t *frame_rgb(const cr_frame_t *fr)
{
    const cr_yuv_image_t yuv = {fr->planes[0], fr->planes[1], fr->planes[2], fr->width, fr->height,
                                fr->strides[0], fr->strides[1], fr->strides[2]};
    uint8_t *rgb = malloc((size_t)fr->width * fr->height * 3);

    if (rgb)
        cr_vision_i420_to_rgb(&yuv, rgb, 3 * fr->width);
    return rgb;
}

/* The table found in frame fr, the head end on the image right or not and
 * maybe decided by a rack on a foot spot (from_rack); the table's size is
 * given (or 9 ft), not measured from the balls. Returns the result
 * (malloc'd), or NULL with the reason in err. */
static cr_calib_result_t *detect_table(const review_t *rv, const cr_frame_t *fr, bool head_right, bool from_rack,
                                       char *err, size_t errlen)
{
    uint8_t *rgb = frame_rgb(fr);
    cr_calib_image_t img = {rgb, fr->width, fr->height, 3 * fr->width};
    cr_calib_params_t cp;
    cr_calib_result_t *res = malloc(sizeof(*res));

    if (!rgb || !res) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    cr_calib_params_defaults(&cp);
    cp.head_on_right = head_right;
    cp.head_from_rack = from_rack;
    cp.size_balls = false;
    if (cr_calib_detect(&img, &rv->rp.table, &cp, res) != CR_CALIB_OK) {
        snprintf(err, errlen, "%s", res->message);
        goto fail;
    }
    free(rgb);
    return res;
fail:
    free(rgb);
    free(res);
    return NULL;
}

/* Finds the table in one frame: the posed camera, or -1 with the reason. */
static int auto_camera(review_t *rv, const cr_frame_t *fr, cr_camera_t *cam, char *source, size_t srclen, char *err,
                       size_t errlen)
{
    /* the first frame: a rack on one end's foot spot decides the head end */
    cr_calib_result_t *res =
        detect_table(rv, fr, rv->head_set ? rv->head_right : (rv->o->head && !strcmp(rv->o->head, "right")),
                     !rv->o->head && !rv->head_set, err, errlen);
    int rc = -1;

    if (!res)
        return -1;
    if (!rv->head_set) {
        snprintf(rv->head_desc, sizeof(rv->head_desc), "on the image %s (%s)", res->head_on_right ? "right" : "left",
                 rv->o->head ? (rv->o->head_why ? rv->o->head_why : "--head") : res->head_why);
        if (!rv->o->quiet)
            fprintf(stderr, "cueref: review: head end %s\n", rv->head_desc);
    }
    if (!rv->head_set && res->head_source == CR_CALIB_HEAD_DEFAULT && rv->head_check_ok && /* implies no --head */
        (rv->head_calib = malloc(sizeof(*rv->head_calib))) != NULL) {
        /* no rack yet: the first rack seen decides (head_check) */
        *rv->head_calib = *res;
        rv->head_open = true;
        rv->held = open_memstream(&rv->held_buf, &rv->held_len);
    }
    rv->head_set = true;
    rv->head_right = res->head_on_right;
    if (res->camera_source != CR_CALIB_CAMERA_NONE) {
        *cam = res->camera;
        snprintf(source, srclen, "found at %.2f s (camera from %s)", fr->pts_s >= 0 ? fr->pts_s : 0.0,
                 cr_calib_camera_source_name(res->camera_source));
    } else {
        char how[64];

        if (cr_calib_camera_from_h(res->table_to_px, fr->width, fr->height, res->k1, cam, how, sizeof(how)) != 0) {
            snprintf(err, errlen, "the table found does not fit a camera above it");
            goto done;
        }
        snprintf(source, srclen, "found at %.2f s (%s)", fr->pts_s >= 0 ? fr->pts_s : 0.0, how);
    }
    rc = 0;
done:
    free(res);
    return rc;
}

/* The table found in the first frame, when it is the one the --corners
 * give: the four corners of the found camera's playing surface within
 * CORNERS_AGREE of the image diagonal of the given ones, in their order. The
 * given corners define a homography of the cloth, but no lens: a camera
 * whose lens bends straight lines (k1 = -0.1, common) puts the middle of a
 * 9 ft table some 10 mm off through the corners alone, while the table
 * found fits the cushions' curves. Returns 0 with *cam and the found
 * camera's source in src, or -1 (not found, or another quadrilateral: the
 * given corners stand). */
#define CORNERS_AGREE 0.01
static int corners_refined(review_t *rv, const cr_frame_t *fr, cr_camera_t *cam, char *src, size_t srclen)
{
    const review_opts_t *o = rv->o;
    const double L = rv->rp.table.length_mm, W = rv->rp.table.width_mm;
    const double tab[4][2] = {{0.0, 0.0}, {0.0, W}, {L, W}, {L, 0.0}};
    const double diag = hypot(fr->width, fr->height);
    char err[256];
    /* the head end where the given corners put it (their first two) */
    cr_calib_result_t *res = detect_table(
        rv, fr, o->corners[0][0] + o->corners[1][0] > o->corners[2][0] + o->corners[3][0], false, err, sizeof(err));
    int rc = -1, k;

    if (!res || res->camera_source == CR_CALIB_CAMERA_NONE)
        goto done;
    for (k = 0; k < 4; k++) {
        double u, v;

        if (!cr_camera_project(&res->camera, tab[k][0], tab[k][1], 0.0, &u, &v) ||
            hypot(u - o->corners[k][0], v - o->corners[k][1]) > CORNERS_AGREE * diag)
            goto done;
    }
    *cam = res->camera;
    snprintf(src, srclen, "the table found in the first frame, at the --corners given (camera from %s)",
             cr_calib_camera_source_name(res->camera_source));
    rc = 0;
done:
    free(res);
    return rc;
}

/* The posed camera: from --calib, --corners, or found in the first frame. */
static int find_camera(review_t *rv, const cr_frame_t *first)
{
    const review_opts_t *o = rv->o;
    char err[512];

    if (o->calib) {
        cr_calib_file_t cf;

        if (cr_calib_file_read(o->calib, &cf, err, sizeof(err)) != 0) {
            cr_cli_error("review: %s", err);
            return -1;
        }
        if (cf.width != first->width || cf.height != first->height) {
            cr_cli_error("review: %s is for %dx%d images but %s is %dx%d", o->calib, cf.width, cf.height, o->input,
                         first->width, first->height);
            return -1;
        }
        rv->cam = cf.camera;
        if (!o->r.table)
            rv->rp.table = cf.table;
        snprintf(rv->head_desc, sizeof(rv->head_desc), "as %s has it", o->calib);
        snprintf(rv->cam_source, sizeof(rv->cam_source), "%s (%s)", o->calib, cf.camera_source);
        return 0;
    }
    if (o->have_corners) {
        char how[64];

        if (cr_calib_camera_from_corners(o->corners, first->width, first->height, &rv->rp.table, &rv->cam, how,
                                         sizeof(how)) != 0) {
            cr_cli_error("review: the --corners given do not form a quadrilateral seen by a camera above the table");
            return -1;
        }
        snprintf(rv->cam_source, sizeof(rv->cam_source), "--corners (%s; no lens distortion)", how);
        snprintf(rv->head_desc, sizeof(rv->head_desc), "at the first two --corners (head-left, head-right)");
        corners_refined(rv, first, &rv->cam, rv->cam_source, sizeof(rv->cam_source));
        return 0;
    }
    if (auto_camera(rv, first, &rv->cam, rv->cam_source, sizeof(rv->cam_source), err, sizeof(err)) != 0) {
        cr_cli_error("review: cannot find the table in the first frame of %s: %s (give --calib or --corners)",
                     o->input, err);
        return -1;
    }
    return 0;
}

/* The detector's parameters for this review (options and frame rate). */
static void detect_params(const review_t *rv, cr_detect_params_t *dp)
{
    cr_detect_params_defaults(dp);
    dp->use_highlights = rv->o->highlights;
    /* the scan for balls no region shows sweeps the bed in SCAN_SWEEP_S; a ball it
     * finds by a cushion is reported once seen there for 1 s */
    dp->scan_sweep_frames = (int)lround(fmax(1.0, SCAN_SWEEP_S * rv->fps));
    dp->probe_near_frames = (int)lround(fmax(dp->probe_frames, 1.0 * rv->fps));
}

/* While the head end is open: looks for a rack in this frame with the
 * first frame's table. A rack over the foot spot settles the head end
 * where it is; one over the other end's spot means the head end is the
 * other image side, and the review must begin again (returns 1: every
 * position so far is turned end for end). Returns 0 otherwise. */
static int head_check(review_t *rv, const cr_frame_t *fr, double t)
{
    uint8_t *rgb;
    cr_calib_image_t img;
    cr_calib_params_t cp;
    cr_calib_rack_t rack;
    int rc = 0;

    if (!rv->head_open || !rv->head_calib || !(rgb = frame_rgb(fr)))
        return 0;
    img = (cr_calib_image_t){rgb, fr->width, fr->height, 3 * fr->width};
    cr_calib_params_defaults(&cp);
    if (cr_calib_rack_find(&img, &rv->rp.table, &cp, rv->head_calib, &rack) == CR_CALIB_OK &&
        (rack.where == CR_CALIB_RACK_AT_FOOT || rack.where == CR_CALIB_RACK_AT_HEAD)) {
        char why[128];
        const char *side = rv->head_right ? "right" : "left";

        snprintf(why, sizeof(why), "a rack of about %.0f balls over the foot spot at %.2f s", rack.n_balls, t);
        rv->head_open = false;
        if (rack.where == CR_CALIB_RACK_AT_FOOT) {
            snprintf(rv->head_desc, sizeof(rv->head_desc), "on the image %s (%s)", side, why);
            if (!rv->o->quiet)
                fprintf(stderr, "cueref: review: head end on the image %s, as taken: %s\n", side, why);
            release_held(rv);
        } else {
            snprintf(rv->head_desc, sizeof(rv->head_desc), "%s", why);
            rc = 1;
        }
    }
    free(rgb);
    return rc;
}

/* Watches the cushions for a camera that moved; when it has, finds the table
 * again in this frame and carries on with the new camera, or warns that the
 * positions from here on are unreliable. Either way a warning line says so. */
static int watch_step(review_t *rv, const cr_frame_t *fr, const cr_yuv_image_t *img, double t)
{
    cr_watch_report_t rep;
    cr_event_t *ev = rv->line;
    cr_camera_t cam;
    cr_detect_params_t dp;
    cr_detector_t *det = NULL;
    cr_watch_t *watch = NULL;
    char src[96], err[256];

    if (!rv->watch || cr_watch_frame(rv->watch, img, t, &rep) != CR_OK || !rep.moved || rv->moved_warned)
        return 0;
    cr_event_init(ev, CR_EV_WARNING);
    ev->t = t;
    snprintf(ev->code, sizeof(ev->code), "camera_moved");
    if (rv->head_open) { /* the first frame's table no longer holds: the head end stays as taken */
        rv->head_open = false;
        release_held(rv);
    }
    detect_params(rv, &dp);
    if (auto_camera(rv, fr, &cam, src, sizeof(src), err, sizeof(err)) == 0 &&
        cr_detector_create(&cam, &rv->rp.table, &dp, &det) == CR_OK && cr_watch_create(&cam, &rv->rp.table, NULL,
                                                                                      &watch) == CR_OK) {
        cr_detector_destroy(rv->det);
        cr_watch_destroy(rv->watch);
        rv->det = det;
        rv->watch = watch;
        rv->cam = cam;
        snprintf(rv->cam_source, sizeof(rv->cam_source), "%s", src);
        snprintf(ev->detail, sizeof(ev->detail),
                 "The camera moved (cushion edges shifted by %.1f, %.1f, %.1f, %.1f px at the head, foot, left and "
                 "right; %.0f%% of them still in sight); the table was found again and the new calibration is used "
                 "from here on.",
                 rep.shift_px[0], rep.shift_px[1], rep.shift_px[2], rep.shift_px[3], 100.0 * rep.valid_share);
    } else {
        cr_detector_destroy(det);
        cr_watch_destroy(watch);
        rv->moved_warned = true;
        snprintf(ev->detail, sizeof(ev->detail),
                 "The camera moved (cushion edges shifted by %.1f, %.1f, %.1f, %.1f px at the head, foot, left and "
                 "right; %.0f%% of them still in sight) and the table could not be found again: positions and "
                 "calls from here on are unreliable; re-calibrate.",
                 rep.shift_px[0], rep.shift_px[1], rep.shift_px[2], rep.shift_px[3], 100.0 * rep.valid_share);
    }
    fprintf(stderr, "cueref: review: warning at %.2f s: %s\n", t, ev->detail);
    return emit(rv, ev);
}

static void review_free(review_t *rv)
{
    if (rv->w)
        cr_jsonl_writer_abort(rv->w);
    if (rv->emitted) {
        char tmp[4300];

        fclose(rv->emitted);
        snprintf(tmp, sizeof(tmp), "%s.tmp", rv->emitted_path);
        remove(tmp);
    }
    if (rv->held) {
        fclose(rv->held);
        rv->held = NULL;
    }
    free(rv->held_buf);
    free(rv->head_calib);
    cr_judge_destroy(rv->judge);
    cr_early_destroy(rv->early);
    free(rv->peek);
    cr_recon_destroy(rv->rec);
    cr_tracker_destroy(rv->trk);
    cr_detector_destroy(rv->det);
    cr_watch_destroy(rv->watch);
    cr_frame_source_close(rv->src);
    free(rv->bf);
    free(rv->events);
    free(rv->judged);
    free(rv->line);
    free(rv->kept);
    free(rv->inputs);
}

static int make_dir(const char *dir)
{
    struct stat st;

    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return 0;
    return -1;
}

/* A review begun again from the start: the head end is the other image
 * side (head_check); *again says so, with what decided it in why. */
static int review_run(const review_opts_t *o, bool *again, bool *again_right, char *why, size_t whylen)
{
    review_t rv;
    cr_frame_source_params_t sp;
    cr_detect_params_t dp;
    cr_track_params_t tp;
    cr_recon_params_t cp;
    cr_frame_t fr;
    cr_event_t session;
    char err[512];
    int rc = CR_EXIT_FAIL, st, fn = 0, fd = 1, w = 0, h = 0, n;
    double dur = -1, t_start = now_s(), t0;
    bool broken = false, stopped = false;

    memset(&rv, 0, sizeof(rv));
    rv.last_stroke = (cr_cli_last_stroke_t)CR_CLI_LAST_STROKE_INIT;
    rv.o = o;
    *again = false;
    {
        /* a file can be read again from the start; a live stream cannot */
        struct stat fst;

        rv.head_check_ok = !o->calib && !o->have_corners && !o->head &&
                           ((stat(o->input, &fst) == 0 && S_ISREG(fst.st_mode)) || strchr(o->input, '%'));
    }
    st = cr_cli_rules_params(&o->r, NULL, &rv.rp);
    if (st != CR_EXIT_OK)
        return st;
    rv.bf = malloc(sizeof(*rv.bf));
    rv.events = malloc(sizeof(*rv.events) * REVIEW_MAX_EVENTS);
    rv.judged = malloc(sizeof(*rv.judged) * CR_JUDGE_MAX_OUT);
    rv.line = malloc(sizeof(*rv.line));
    rv.peek = malloc(sizeof(*rv.peek));
    if (!rv.bf || !rv.events || !rv.judged || !rv.line || !rv.peek) {
        cr_cli_error("out of memory");
        goto done;
    }
    if (o->inputs && load_inputs(&rv, o->inputs) != 0)
        goto done;
    cr_frame_source_params_defaults(&sp);
    sp.format = CR_VIDEO_I420;
    sp.stop = &cr_cli_stopped;
    if (cr_frame_source_open(o->input, &sp, &rv.src, err, sizeof(err)) != CR_OK) {
        cr_cli_error("review: %s", err);
        goto done;
    }
    cr_frame_source_info(rv.src, &w, &h, &fn, &fd, &dur);
    rv.fps = (fn > 0 && fd > 0) ? (double)fn / fd : 30.0;
    st = cr_frame_source_next(rv.src, &fr);
    if (st != 1) {
        cr_cli_error("review: %s: %s", o->input, st == 0 ? "no frames" : cr_frame_source_error(rv.src));
        goto done;
    }
    if (find_camera(&rv, &fr) != 0)
        goto done;
    detect_params(&rv, &dp);
    cr_track_params_defaults(&tp);
    /* look-ahead for identities: 0.135 s (4 frames at 30 fps, 8 at 60). Longer
     * barely helps now that identities come from evidence per view (720p30
     * corpus: 40 frames gave the same identity and fewer right calls), and
     * every frame of it delays every call */
    tp.delay_frames = (int)lround(fmax(4.0, 0.135 * rv.fps));
    if (o->track_delay > 0)
        tp.delay_frames = o->track_delay;
    /* the balls the game is played with: a resting solid cannot be told from
     * a stripe showing its band, but in 9- and 10-ball there are no stripes
     * beyond the 10 */
    if (rv.rp.game == CR_GAME_9BALL)
        tp.id_set = 0x3FF;
    else if (rv.rp.game == CR_GAME_10BALL)
        tp.id_set = 0x7FF;
    /* the numbers the rules rack on fixed slots (a rack before its break) */
    if (rv.rp.game != CR_GAME_NONE) {
        cr_ball_pos_t rack[CR_TABLE_RACK_MAX];
        int n_slots = cr_table_rack_fixed(&rv.rp.table, rv.rp.game, rv.rp.edition, rack, CR_TABLE_RACK_MAX);

        for (int r = 0; r < n_slots; r++) {
            tp.rack_x[r] = rack[r].x;
            tp.rack_y[r] = rack[r].y;
            tp.rack_id[r] = rack[r].id;
        }
        tp.n_rack = n_slots > 0 ? n_slots : 0;
    }
    cr_recon_params_defaults(&cp);
    cp.fps = rv.fps;
    /* practice (no game judged): balls are set up anywhere */
    cp.stay_down = rv.rp.game != CR_GAME_NONE;
    /* a ball struck unseen is looked for by a whole sweep of the bed and a
     * half second more (a found ball is reported after five frames) */
    cp.unseen_wait_s = SCAN_SWEEP_S + 0.5;
    if (cr_detector_create(&rv.cam, &rv.rp.table, &dp, &rv.det) != CR_OK ||
        cr_tracker_create(&rv.rp.table, &tp, &rv.trk) != CR_OK ||
        cr_recon_create(&rv.rp.table, &cp, &rv.rec) != CR_OK || cr_judge_create(&rv.rp, &rv.judge) != CR_OK ||
        (!o->no_early && cr_early_create(&rv.rp.table, NULL, &rv.early) != CR_OK)) {
        cr_cli_error("review: cannot set up the vision pipeline or the rules engine");
        goto done;
    }
    if (cr_watch_create(&rv.cam, &rv.rp.table, NULL, &rv.watch) != CR_OK)
        fprintf(stderr, "cueref: review: warning: too little of the cushions is in view to notice a camera that "
                        "moves\n");
    if (make_dir(o->out_dir) != 0) {
        cr_cli_error("review: cannot create %s: %s", o->out_dir, strerror(errno));
        goto done;
    }
    snprintf(rv.out_path, sizeof(rv.out_path), "%s/events.jsonl", o->out_dir);
    if (o->emit_times) {
        char tmp[4300];

        snprintf(rv.emitted_path, sizeof(rv.emitted_path), "%s/emitted.csv", o->out_dir);
        snprintf(tmp, sizeof(tmp), "%s.tmp", rv.emitted_path);
        rv.emitted = fopen(tmp, "w");
        if (!rv.emitted || fputs("type,t,emitted_at,code\n", rv.emitted) < 0) {
            cr_cli_error("review: cannot write %s: %s", tmp, strerror(errno));
            goto done;
        }
    }
    if (cr_jsonl_writer_open(rv.out_path, &rv.w) != CR_OK) {
        cr_cli_error("review: cannot write %s: %s", rv.out_path, strerror(errno));
        goto done;
    }
    cr_event_init(&session, CR_EV_SESSION);
    snprintf(session.source, sizeof(session.source), "%s", o->input);
    session.fps = rv.fps;
    session.width = w;
    session.height = h;
    session.table_length_mm = rv.rp.table.length_mm;
    session.table_width_mm = rv.rp.table.width_mm;
    session.game = rv.rp.game;
    snprintf(session.rules, sizeof(session.rules), "%s", o->r.rules ? o->r.rules : "wpa2008");
    if (emit(&rv, &session) != 0)
        goto done;
    if (!o->quiet)
        fprintf(stderr, "cueref: review %s: %dx%d at %.2f fps, table %.0f x %.0f mm, camera %s\n", o->input, w, h,
                rv.fps, rv.rp.table.length_mm, rv.rp.table.width_mm, rv.cam_source);

    do {
        cr_yuv_image_t img = {fr.planes[0], fr.planes[1], fr.planes[2], fr.width, fr.height,
                              fr.strides[0], fr.strides[1], fr.strides[2]};
        double t = fr.pts_s >= 0 ? fr.pts_s : fr.index / rv.fps;

        rv.t_now = t;
        if (watch_step(&rv, &fr, &img, t) != 0)
            goto done;
        /* the head end still open: a rack looked for once a second (a rack
         * stands for seconds before its break; a look, most of it the
         * frame's colour conversion, costs 20-25 ms at 1080p and 8 ms at
         * 960x540 on one core here), for the first
         * HEAD_LOOK_S of the video (a match racks every few minutes; a
         * practice film may never, and its lines are held meanwhile) */
        if (rv.head_open && t > HEAD_LOOK_S) {
            rv.head_open = false;
            if (!o->quiet)
                fprintf(stderr, "cueref: review: no rack in the first %.0f minutes: the head end stays on the image %s\n",
                        HEAD_LOOK_S / 60.0, rv.head_right ? "right" : "left");
            release_held(&rv);
        }
        if (rv.head_open && rv.frames > 0 && rv.frames % (long)fmax(1.0, lround(rv.fps)) == 0 &&
            head_check(&rv, &fr, t)) { /* frame 0 was looked at with the table found in it */
            snprintf(why, whylen, "%s", rv.head_desc);
            *again = true;
            *again_right = !rv.head_right;
            if (!o->quiet)
                fprintf(stderr, "cueref: review: the head end is on the image %s (%s): reviewing again from the start\n",
                        rv.head_right ? "left" : "right", rv.head_desc);
            goto done;
        }
        t0 = now_s();
        {
            /* balls the tracker holds are looked for again where the
             * detector's own search finds nothing near them */
            cr_ball_hint_t hint[CR_VISION_MAX_DETECTIONS];

            cr_detector_expect(rv.det, hint, cr_tracker_expect(rv.trk, t, hint, CR_VISION_MAX_DETECTIONS));
        }
        if (cr_detector_run(rv.det, &img, rv.dets, CR_VISION_MAX_DETECTIONS, &n) != CR_OK) {
            cr_cli_error("review: detection failed on frame %llu", (unsigned long long)fr.index);
            goto done;
        }
        rv.sec_detect += now_s() - t0;
        t0 = now_s();
        {
            /* held balls whose place shows bare cloth */
            int bare[CR_VISION_MAX_DETECTIONS];

            cr_tracker_bare(rv.trk, bare, cr_detector_bare(rv.det, bare, CR_VISION_MAX_DETECTIONS));
        }
        if (cr_tracker_push(rv.trk, t, fr.index, rv.dets, n) != CR_OK) {
            cr_cli_error("review: tracking failed on frame %llu", (unsigned long long)fr.index);
            goto done;
        }
        rv.sec_track += now_s() - t0;
        if (drain_tracker(&rv) != 0 || early_call(&rv) != 0)
            goto done;
        rv.frames++;
        rv.t_last = t;
        if (!o->quiet && isatty(STDERR_FILENO) && rv.frames % 30 == 0)
            fprintf(stderr, "\rcueref: review: %.1f s%s%.0f s, %ld shots", t, dur > 0 ? " of " : "",
                    dur > 0 ? dur : 0.0, rv.shots);
        st = cr_frame_source_next(rv.src, &fr);
    } while (st == 1);
    if (st < 0)
        broken = true;
    else if (cr_cli_stopped)
        stopped = true;
    if (finish(&rv) != 0)
        goto done;
    release_held(&rv); /* no rack decided the head end: as taken at the start */
    if (broken || stopped) {
        cr_event_init(rv.line, CR_EV_WARNING);
        rv.line->t = rv.t_last;
        snprintf(rv.line->code, sizeof(rv.line->code), broken ? "input_broken" : "interrupted");
        if (broken)
            snprintf(rv.line->detail, sizeof(rv.line->detail), "The video broke off after %.2f s: %s", rv.t_last,
                     cr_frame_source_error(rv.src));
        else
            snprintf(rv.line->detail, sizeof(rv.line->detail),
                     "The review was stopped after %.2f s of the video; the rest was not seen", rv.t_last);
        if (write_event(&rv, rv.line) < 0)
            goto done;
    }
    if (cr_jsonl_writer_commit(rv.w) != CR_OK) {
        rv.w = NULL;
        cr_cli_error("review: cannot write %s", rv.out_path);
        goto done;
    }
    rv.w = NULL;
    if (rv.emitted) {
        char tmp[4300];
        int bad = ferror(rv.emitted);

        bad |= fclose(rv.emitted) != 0;
        rv.emitted = NULL;
        snprintf(tmp, sizeof(tmp), "%s.tmp", rv.emitted_path);
        if (bad || rename(tmp, rv.emitted_path) != 0) {
            remove(tmp);
            cr_cli_error("review: cannot write %s", rv.emitted_path);
            goto done;
        }
    }
    if (!o->quiet && isatty(STDERR_FILENO))
        fprintf(stderr, "\r%60s\r", "");
    {
        double wall = now_s() - t_start, media = rv.frames / rv.fps;

        if (!o->quiet)
            fprintf(stderr,
                    "cueref: review: %ld frames (%.1f s of video) in %.1f s (%.1fx real time; per frame: detect "
                    "%.2f ms, track %.2f ms, events %.2f ms); %ld shots, %ld fouls (%ld called early) -> %s\n",
                    rv.frames, media, wall, wall > 0 ? media / wall : 0.0, 1e3 * rv.sec_detect / rv.frames,
                    1e3 * rv.sec_track / rv.frames, 1e3 * rv.sec_recon / rv.frames, rv.shots, rv.fouls,
                    rv.early_calls, rv.out_path);
    }
    {
        char path[4200];
        cr_report_info_t ri = {o->input, w, h, rv.fps, rv.frames / rv.fps, rv.rp.table.length_mm,
                               rv.rp.table.width_mm, rv.rp.game, o->r.rules ? o->r.rules : "wpa2008",
                               rv.cam_source, rv.shots, rv.fouls, rv.head_desc};

        snprintf(path, sizeof(path), "%s/report.md", o->out_dir);
        if (cr_report_write(path, &ri, rv.kept, rv.n_kept) != 0) {
            cr_cli_error("review: cannot write %s", path);
            goto done;
        }
        if (!o->quiet)
            printf("Events, fouls and rulings: %s; the per-shot report with its evidence: %s\n", rv.out_path, path);
    }
    if (rv.dropped)
        fprintf(stderr, "cueref: review: %ld invalid events from the vision stage were dropped\n", rv.dropped);
    if (broken) {
        cr_cli_error("review: %s broke after %.2f s (%s); the events up to there are in %s", o->input, rv.t_last,
                     cr_frame_source_error(rv.src), rv.out_path);
        goto done;
    }
    if (stopped) {
        cr_cli_error("review: stopped after %.2f s of %s; the events up to there are in %s", rv.t_last, o->input,
                     rv.out_path);
        goto done;
    }
    rc = CR_EXIT_OK;
done:
    review_free(&rv);
    return rc;
}

int cr_cmd_review(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},       {"table", required_argument, NULL, 't'},
        {"rules", required_argument, NULL, 'r'},      {"rule", required_argument, NULL, 'R'},
        {"shot-clock", required_argument, NULL, 'c'}, {"out", required_argument, NULL, 'o'},
        {"calib", required_argument, NULL, 'C'},      {"corners", required_argument, NULL, 'K'},
        {"head", required_argument, NULL, 'H'},       {"positions", no_argument, NULL, 'p'},
        {"quiet", no_argument, NULL, 'q'},            {"help", no_argument, NULL, 'h'},
        {"inputs", required_argument, NULL, 'I'},     {"track-delay", required_argument, NULL, 'D'},
        {"emit-times", no_argument, NULL, 'E'},       {"highlights", no_argument, NULL, 'L'},
        {"no-highlights", no_argument, NULL, 'N'},    {"no-early-calls", no_argument, NULL, 'W'},
        {NULL, 0, NULL, 0},
    };
    review_opts_t o;
    int c;

    memset(&o, 0, sizeof(o));
    o.highlights = true;
    o.out_dir = "review-out";
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'g':
        case 't':
        case 'r':
        case 'R':
        case 'c':
            if (cr_cli_rules_option(&o.r, c, optarg) != CR_EXIT_OK)
                return CR_EXIT_USAGE;
            break;
        case 'o':
            o.out_dir = optarg;
            break;
        case 'C':
            o.calib = optarg;
            break;
        case 'K':
            if (cr_calib_parse_corners(optarg, o.corners) != 0) {
                cr_cli_error("review: --corners wants \"x,y;x,y;x,y;x,y\" (head-left, head-right, foot-right, "
                             "foot-left)");
                return CR_EXIT_USAGE;
            }
            o.have_corners = true;
            break;
        case 'H':
            if (strcmp(optarg, "left") != 0 && strcmp(optarg, "right") != 0) {
                cr_cli_error("review: --head is left or right");
                return CR_EXIT_USAGE;
            }
            o.head = optarg;
            break;
        case 'p':
            o.positions = true;
            break;
        case 'I':
            o.inputs = optarg;
            break;
        case 'D': {
            char *end;
            long v = strtol(optarg, &end, 10);

            if (*end || v < 1 || v > 600) {
                cr_cli_error("review: --track-delay wants a number of frames, 1..600");
                return CR_EXIT_USAGE;
            }
            o.track_delay = (int)v;
            break;
        }
        case 'q':
            o.quiet = true;
            break;
        case 'E':
            o.emit_times = true;
            break;
        case 'L':
            o.highlights = true;
            break;
        case 'N':
            o.highlights = false;
            break;
        case 'W':
            o.no_early = true;
            break;
        case 'h':
            review_usage(stdout);
            return CR_EXIT_OK;
        case ':':
            cr_cli_error("review: option '%s' needs a value", argv[optind - 1]);
            return CR_EXIT_USAGE;
        default:
            cr_cli_error("review: unknown option '%s' (see cueref review --help)", argv[optind - 1]);
            return CR_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        cr_cli_error("review: give exactly one INPUT (see cueref review --help)");
        return CR_EXIT_USAGE;
    }
    if (o.calib && o.have_corners) {
        cr_cli_error("review: give --calib or --corners, not both");
        return CR_EXIT_USAGE;
    }
    o.input = argv[optind];
    {
        bool again = false, right = false;
        char why[256] = "";
        cr_cli_stop_t stop;
        int rc;

        /* stopped by a signal, the review keeps what it has seen */
        cr_cli_stop_catch(&stop);
        rc = review_run(&o, &again, &right, why, sizeof(why));
        if (again && !cr_cli_stopped) { /* the head end is the other side: everything turned end for end */
            o.head = right ? "right" : "left";
            o.head_why = why;
            rc = review_run(&o, &again, &right, why, sizeof(why));
        }
        cr_cli_stop_release(&stop);
        return rc;
    }
}
