/*
 * cmd_sim.c - `cueref sim SCENARIO.json | --random N [--seed S] -o DIR`:
 * simulates and films shots with exact ground truth (SPEC §4): DIR/clip.mp4,
 * DIR/truth.jsonl, DIR/positions.csv, DIR/calib.json. Every file is written
 * under a temporary name and renamed when complete; on failure none is left,
 * nor when stopped by SIGINT (Ctrl-C) or SIGTERM: filming stops at the next
 * frame or event and the temporaries go.
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

#include <jansson.h>

#include "calib_file.h"
#include "cli.h"
#include "cr_jsonl.h"
#include "cr_player.h"
#include "cr_render.h"
#include "cr_simulate.h"
#include "cr_video_writer.h"

typedef struct {
    cr_jsonl_writer_t *truth;
    FILE *csv;
    char csv_tmp[4200];
    cr_video_writer_t *video;
    int n_frames;
    long n_events;
    bool progress;
    double t_end_hint;
} sim_out_t;

static int on_event(void *user, const cr_event_t *ev)
{
    sim_out_t *o = user;

    if (cr_cli_stopped)
        return 1;
    o->n_events++;
    return cr_jsonl_writer_write(o->truth, ev) == CR_OK ? 0 : 1;
}

static int on_frame(void *user, int index, double t, const uint8_t *rgb, int stride,
                    const cr_frame_ball_t balls[CR_NUM_BALLS])
{
    sim_out_t *o = user;
    int i;

    if (cr_cli_stopped)
        return 1;
    for (i = 0; i < CR_NUM_BALLS; i++) {
        if (!balls[i].in_play)
            continue;
        if (fprintf(o->csv, "%d,%.6f,%d,%.2f,%.2f,%d\n", index, t, i, balls[i].x, balls[i].y,
                    balls[i].visible ? 1 : 0) < 0)
            return 1;
    }
    if (o->video && rgb && cr_video_writer_write_rgb(o->video, rgb, stride) != CR_OK)
        return 1;
    o->n_frames++;
    if (o->progress && index % 30 == 0)
        fprintf(stderr, "\rcueref sim: frame %d (%.1f s)", index, t);
    return 0;
}

static int write_calib(const char *dir, const cr_scenario_t *scn, const cr_camera_t *cam)
{
    char path[4200];
    double corners[4][2];
    json_t *root;

    if (!cr_camera_table_corners(cam, &scn->table, corners))
        return -1;
    root = cr_calib_file_new(scn->width, scn->height, &scn->table, corners, cr_camera_head_side(cam, &scn->table));
    if (!root)
        return -1;
    json_object_set_new(root, "camera", cr_calib_file_camera(cam));
    json_object_set_new(root, "ball_diameter_mm", json_real(2 * scn->table.ball_radius_mm));
    snprintf(path, sizeof(path), "%s/calib.json", dir);
    return cr_calib_file_write(root, path);
}

/* Draws the look of the table and the camera from the seed (--vary). */
static void vary_scenario(cr_scenario_t *scn, unsigned long long seed)
{
    static const char *const cloths[] = {"blue", "green", "red", "tan", "grey"};
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    double u[8];
    int i;

    for (i = 0; i < 8; i++) {
        uint64_t x = (z += 0x9E3779B97F4A7C15ull);

        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        x ^= x >> 31;
        u[i] = (double)(x >> 11) / 9007199254740992.0;
    }
    snprintf(scn->cloth, sizeof(scn->cloth), "%s", cloths[(int)(u[0] * 5) % 5]);
    scn->camera.tilt_deg = 8.0 * u[1];
    scn->camera.yaw_deg = (u[2] - 0.5) * 4.0;
    scn->camera.offset_x_mm = (u[3] - 0.5) * 300.0;
    /* a tilted camera is mounted off to the side and aimed at the table (the
     * default camera is 3 m up and leans toward the right cushion) */
    scn->camera.offset_y_mm = -3000.0 * tan(scn->camera.tilt_deg * 3.14159265358979323846 / 180.0) +
                              (u[4] - 0.5) * 200.0;
    scn->camera.k1 = -0.2 * u[5] * u[5];
    scn->light = 0.8 + 0.4 * u[6];
    scn->noise = 1.0 + 3.0 * u[7];
}

static void sim_usage(FILE *f)
{
    fprintf(f, "usage: cueref sim SCENARIO.json | --random N [--seed S] [--game G] -o DIR [options]\n"
               "Simulates shots on a virtual table and films them as an overhead camera would:\n"
               "DIR/clip.mp4, DIR/truth.jsonl, DIR/positions.csv, DIR/calib.json (SPEC §4;\n"
               "the scenario format is docs/SCENARIO.md).\n\n"
               "options:\n"
               "  -o, --out DIR     output folder (created if missing)\n"
               "  --random N        play N shots of simulated play instead of a scenario\n"
               "  --seed S          seed for --random (default 1)\n"
               "  --game G          game for --random: 9ball (default), 8ball, 10ball, 14.1, none\n"
               "  --fps F           frames per second (overrides the scenario)\n"
               "  --size WxH        frame size (overrides the scenario)\n"
               "  --cloth C         blue, green, red, tan, grey (overrides the scenario)\n"
               "  --no-video        truth and positions only, no rendering\n"
               "  --vary            with --random: draw the camera (tilt 0-8 deg, off-centre, lens\n"
               "                    distortion), cloth colour, light and noise from the seed\n"
               "  -h, --help        this help\n");
}

/* mkdir -p */
static int make_dir(const char *dir)
{
    char path[4096];
    struct stat sb;
    size_t i, n = strlen(dir);

    if (n == 0 || n >= sizeof(path))
        return -1;
    memcpy(path, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        path[i] = '\0';
        if (stat(path, &sb) != 0) {
            if (mkdir(path, 0755) != 0 && errno != EEXIST)
                return -1;
        } else if (!S_ISDIR(sb.st_mode)) {
            errno = ENOTDIR;
            return -1;
        }
        path[i] = dir[i];
    }
    return 0;
}

int cr_cmd_sim(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},  {"random", required_argument, NULL, 'r'},
        {"seed", required_argument, NULL, 's'}, {"game", required_argument, NULL, 'g'},
        {"fps", required_argument, NULL, 'f'},  {"size", required_argument, NULL, 'z'},
        {"cloth", required_argument, NULL, 'c'}, {"no-video", no_argument, NULL, 'n'},
        {"vary", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
    };
    const char *out_dir = NULL, *game = NULL, *fps = NULL, *size = NULL, *cloth = NULL;
    long random_n = 0;
    unsigned long long seed = 1;
    bool video = true, vary = false;
    cr_scenario_t *scn = NULL;
    cr_simulate_opts_t so;
    cr_simulate_sink_t sink;
    cr_video_writer_params_t vp;
    cr_player_t player;
    cr_camera_t cam;
    sim_out_t o;
    char err[512] = "", path[4200];
    char *end;
    int c, rc = CR_EXIT_FAIL, st, fd;
    struct timespec t0, t1;
    cr_cli_stop_t stop;

    memset(&o, 0, sizeof(o));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out_dir = optarg;
            break;
        case 'r':
            random_n = strtol(optarg, &end, 10);
            if (*end || random_n < 1 || random_n > CR_SCN_MAX_SHOTS) {
                cr_cli_error("sim: --random wants a number of shots 1..%d", CR_SCN_MAX_SHOTS);
                return CR_EXIT_USAGE;
            }
            break;
        case 's':
            seed = strtoull(optarg, &end, 10);
            if (*end || !*optarg) {
                cr_cli_error("sim: --seed wants a non-negative integer");
                return CR_EXIT_USAGE;
            }
            break;
        case 'g':
            game = optarg;
            break;
        case 'f':
            fps = optarg;
            break;
        case 'z':
            size = optarg;
            break;
        case 'c':
            cloth = optarg;
            break;
        case 'n':
            video = false;
            break;
        case 'v':
            vary = true;
            break;
        case 'h':
            sim_usage(stdout);
            return CR_EXIT_OK;
        case ':':
            cr_cli_error("sim: option '%s' needs a value", argv[optind - 1]);
            return CR_EXIT_USAGE;
        default:
            cr_cli_error("sim: unknown option '%s' (see cueref sim --help)", argv[optind - 1]);
            return CR_EXIT_USAGE;
        }
    }
    if (!out_dir || (random_n == 0) == (optind >= argc) || optind < argc - 1) {
        cr_cli_error("sim: give a SCENARIO.json or --random N, and -o DIR (see cueref sim --help)");
        return CR_EXIT_USAGE;
    }
    scn = malloc(sizeof(*scn));
    if (!scn) {
        cr_cli_error("out of memory");
        return CR_EXIT_FAIL;
    }
    if (random_n == 0) {
        st = cr_scenario_load(argv[optind], scn, err, sizeof(err));
        if (st != CR_OK) {
            cr_cli_error("%s: %s", argv[optind], st == CR_ERR_IO ? strerror(errno) : err);
            goto done;
        }
    } else {
        char text[256];

        snprintf(text, sizeof(text),
                 "{\"version\":1,\"game\":\"%s\",\"rack\":\"%s\",\"seed\":%llu,\"shots\":[]}",
                 game ? game : "9ball", (!game || !strcmp(game, "none")) ? "9ball" : game, seed);
        if (cr_scenario_parse(text, scn, err, sizeof(err)) != CR_OK) {
            cr_cli_error("sim: bad --game '%s' (9ball, 8ball, 10ball, 14.1, none)", game ? game : "");
            rc = CR_EXIT_USAGE;
            goto done;
        }
    }
    if (vary && random_n > 0)
        vary_scenario(scn, seed);
    if (fps) {
        scn->fps = strtod(fps, &end);
        if (*end || !(scn->fps >= 1 && scn->fps <= 1000)) {
            cr_cli_error("sim: --fps wants 1..1000");
            rc = CR_EXIT_USAGE;
            goto done;
        }
    }
    if (size && (sscanf(size, "%dx%d", &scn->width, &scn->height) != 2 || scn->width < 64 || scn->height < 64 ||
                 scn->width > 7680 || scn->height > 4320 || scn->width % 2 || scn->height % 2)) {
        cr_cli_error("sim: --size wants WxH with even sizes, e.g. 1920x1080");
        rc = CR_EXIT_USAGE;
        goto done;
    }
    if (cloth) {
        if (strcmp(cloth, "blue") && strcmp(cloth, "green") && strcmp(cloth, "red") && strcmp(cloth, "tan") &&
            strcmp(cloth, "grey")) {
            cr_cli_error("sim: --cloth wants blue, green, red, tan or grey");
            rc = CR_EXIT_USAGE;
            goto done;
        }
        snprintf(scn->cloth, sizeof(scn->cloth), "%s", cloth);
    }
    if (make_dir(out_dir) != 0) {
        cr_cli_error("sim: cannot create the output folder %s: %s", out_dir, strerror(errno));
        goto done;
    }
    if (cr_simulate_camera(scn, &cam) != CR_OK) {
        cr_cli_error("sim: the camera does not see the whole table");
        goto done;
    }

    snprintf(path, sizeof(path), "%s/truth.jsonl", out_dir);
    if (cr_jsonl_writer_open(path, &o.truth) != CR_OK) {
        cr_cli_error("sim: cannot write %s: %s", path, strerror(errno));
        goto done;
    }
    snprintf(o.csv_tmp, sizeof(o.csv_tmp), "%s/.positions.csv.tmp-XXXXXX", out_dir);
    fd = mkstemp(o.csv_tmp);
    if (fd >= 0)
        (void)fchmod(fd, 0644);
    if (fd < 0 || !(o.csv = fdopen(fd, "w"))) {
        cr_cli_error("sim: cannot write %s/positions.csv: %s", out_dir, strerror(errno));
        if (fd >= 0)
            close(fd);
        o.csv_tmp[0] = '\0';
        goto done;
    }
    fprintf(o.csv, "frame,t,id,x,y,visible\n");
    if (video) {
        int num = (int)lround(scn->fps * 1000.0), den = 1000, a = num, b = den;

        while (b) {
            int r = a % b;

            a = b;
            b = r;
        }
        cr_video_writer_params_defaults(&vp, scn->width, scn->height, num / a, den / a);
        snprintf(path, sizeof(path), "%s/clip.mp4", out_dir);
        if (cr_video_writer_create(path, &vp, &o.video, err, sizeof(err)) != CR_OK) {
            cr_cli_error("sim: cannot write %s: %s", path, err);
            goto done;
        }
    }
    o.progress = isatty(fileno(stderr));
    cr_simulate_opts_defaults(&so);
    so.render = video;
    sink.on_event = on_event;
    sink.on_frame = on_frame;
    sink.user = &o;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_cli_stop_catch(&stop);
    if (random_n > 0) {
        cr_player_init(&player, scn->game, &scn->table, (int)random_n, scn->seed);
        st = cr_simulate_run(scn, &so, cr_player_next, &player, &sink, err, sizeof(err));
    } else {
        st = cr_simulate_run(scn, &so, cr_simulate_scenario_shots, scn, &sink, err, sizeof(err));
    }
    cr_cli_stop_release(&stop);
    if (o.progress)
        fputc('\n', stderr);
    if (cr_cli_stopped) {
        cr_cli_error("sim: stopped after %d frames (%.1f s); nothing written to %s", o.n_frames,
                     o.n_frames / scn->fps, out_dir);
        goto done;
    }
    if (st != CR_OK) {
        cr_cli_error("sim: %s", err[0] ? err : cr_status_str(st));
        goto done;
    }
    if (o.video) {
        st = cr_video_writer_finish(o.video);
        if (st != CR_OK) {
            cr_cli_error("sim: cannot finish the video: %s", cr_video_writer_error(o.video));
            goto done;
        }
    }
    snprintf(path, sizeof(path), "%s/positions.csv", out_dir);
    if (fclose(o.csv) != 0 || rename(o.csv_tmp, path) != 0) {
        o.csv = NULL;
        cr_cli_error("sim: cannot write %s", path);
        goto done;
    }
    o.csv = NULL;
    o.csv_tmp[0] = '\0';
    if (write_calib(out_dir, scn, &cam) != 0) {
        cr_cli_error("sim: cannot write %s/calib.json", out_dir);
        goto done;
    }
    st = cr_jsonl_writer_commit(o.truth);
    o.truth = NULL;
    if (st != CR_OK) {
        cr_cli_error("sim: cannot write %s/truth.jsonl", out_dir);
        goto done;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("cueref sim: %d frames (%.1f s of %dx%d at %g fps), %ld truth lines in %.1f s -> %s/\n", o.n_frames,
           o.n_frames / scn->fps, scn->width, scn->height, scn->fps, o.n_events,
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, out_dir);
    rc = CR_EXIT_OK;
done:
    if (rc != CR_EXIT_OK) {
        /* leave nothing half-written: the temporaries go */
        cr_jsonl_writer_abort(o.truth);
        if (o.csv)
            fclose(o.csv);
        if (o.csv_tmp[0])
            remove(o.csv_tmp);
    }
    cr_video_writer_destroy(o.video);
    free(scn);
    return rc;
}
