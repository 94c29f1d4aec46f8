/*
 * test_capture.c - CUnit tests of the frame source (capture/cr_frame_source)
 * on real files: clips written with cr_video_writer and cr_png_write, and
 * inputs made with gst-launch-1.0 (an H.264 MKV to truncate, a WAV file).
 * Frame k of the test clip is black with an 8x8 white square at
 * x = 4 + 2k, y = 40, so every frame says which one it is.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "cr_frame_source.h"
#include "cr_video_writer.h"

#define W 160
#define H 96
#define N 64
#define SQ 8
#define SQ_Y 40

static char dir[64];       /* the suite's temporary directory */
static char clip[128];     /* N frames, W x H, 30 fps, H.264 MP4 */
static char mkv[128];      /* 120 frames of videotestsrc, H.264 in Matroska */
static char mkv_cut[128];  /* the first 60 % of mkv's bytes */

static int sq_x(int k)
{
    return 4 + 2 * k;
}

static void make_frame(uint8_t *y, uint8_t *u, uint8_t *v, int k)
{
    int i, j;

    memset(y, 16, W * H);
    memset(u, 128, (W / 2) * (H / 2));
    memset(v, 128, (W / 2) * (H / 2));
    for (j = SQ_Y; j < SQ_Y + SQ; j++)
        for (i = sq_x(k); i < sq_x(k) + SQ; i++)
            y[j * W + i] = 235;
}

static int sh(const char *cmd)
{
    return system(cmd);
}

static int copy_prefix(const char *from, const char *to, double fraction)
{
    FILE *f = fopen(from, "rb"), *g = NULL;
    long n, keep;
    char *buf = NULL;
    int ok = -1;

    if (!f)
        return -1;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0)
        goto done;
    keep = (long)(n * fraction);
    buf = malloc((size_t)keep);
    g = fopen(to, "wb");
    if (buf && g && fread(buf, 1, (size_t)keep, f) == (size_t)keep && fwrite(buf, 1, (size_t)keep, g) == (size_t)keep)
        ok = 0;
done:
    free(buf);
    if (g && fclose(g) != 0)
        ok = -1;
    fclose(f);
    return ok;
}

static int suite_init(void)
{
    static uint8_t y[W * H], u[W * H / 4], v[W * H / 4];
    cr_video_writer_params_t p;
    cr_video_writer_t *w = NULL;
    char cmd[512], err[512];
    int k;

    snprintf(dir, sizeof(dir), "/tmp/cr_capture_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    snprintf(clip, sizeof(clip), "%s/clip.mp4", dir);
    snprintf(mkv, sizeof(mkv), "%s/test.mkv", dir);
    snprintf(mkv_cut, sizeof(mkv_cut), "%s/cut.mkv", dir);
    cr_video_writer_params_defaults(&p, W, H, 30, 1);
    p.format = CR_VIDEO_I420;
    p.quantizer = 10;
    if (cr_video_writer_create(clip, &p, &w, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (k = 0; k < N; k++) {
        make_frame(y, u, v, k);
        if (cr_video_writer_write_i420(w, y, W, u, W / 2, v, W / 2) != 0)
            break;
    }
    if (k < N || cr_video_writer_finish(w) != 0) {
        fprintf(stderr, "%s\n", cr_video_writer_error(w));
        cr_video_writer_destroy(w);
        return 1;
    }
    cr_video_writer_destroy(w);
    snprintf(cmd, sizeof(cmd),
             "gst-launch-1.0 -q videotestsrc num-buffers=120 pattern=ball ! video/x-raw,width=%d,height=%d,"
             "framerate=30/1 ! x264enc key-int-max=15 speed-preset=ultrafast ! h264parse ! matroskamux ! "
             "filesink location=%s >/dev/null 2>&1",
             W, H, mkv);
    if (sh(cmd) != 0 || copy_prefix(mkv, mkv_cut, 0.6) != 0)
        return 1;
    return 0;
}

static int suite_clean(void)
{
    char cmd[128];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return sh(cmd) == 0 ? 0 : 1;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Column of the square's left edge in a Y (or R) row, -1 if none. */
static int find_square(const uint8_t *row, int step)
{
    int i;

    for (i = 0; i < W; i++)
        if (row[i * step] > 128)
            return i;
    return -1;
}

static void test_clip_i420(void)
{
    cr_frame_source_t *s = NULL;
    cr_frame_t f;
    char err[512] = "";
    int w, h, fn, fd, r, n = 0, bad_planes = 0, bad_content = 0, bad_pts = 0;
    double dur, prev = -1.0;

    CU_ASSERT_EQUAL_FATAL(cr_frame_source_open(clip, NULL, &s, err, sizeof(err)), 0);
    cr_frame_source_info(s, &w, &h, &fn, &fd, &dur);
    CU_ASSERT_EQUAL(w, W);
    CU_ASSERT_EQUAL(h, H);
    CU_ASSERT_EQUAL(fn * 1, 30 * fd);
    CU_ASSERT(fabs(dur - N / 30.0) < 0.002);
    while ((r = cr_frame_source_next(s, &f)) == 1) {
        int x;

        if (f.width != W || f.height != H || f.format != CR_VIDEO_I420 || !f.planes[0] || !f.planes[1] ||
            !f.planes[2] || f.strides[0] < W || f.strides[1] < W / 2 || f.strides[2] < W / 2 ||
            f.index != (uint64_t)n)
            bad_planes++;
        if (fabs(f.pts_s - n / 30.0) > 0.001 || (prev >= 0 && f.pts_s <= prev))
            bad_pts++;
        prev = f.pts_s;
        x = find_square(f.planes[0] + (size_t)(SQ_Y + SQ / 2) * f.strides[0], 1);
        if (abs(x - sq_x(n)) > 1 || f.planes[1][(SQ_Y / 2) * f.strides[1] + 10] < 118 ||
            f.planes[1][(SQ_Y / 2) * f.strides[1] + 10] > 138)
            bad_content++;
        if (n == 20) { /* a known frame, in detail */
            CU_ASSERT(abs(x - sq_x(20)) <= 1);
            CU_ASSERT(f.planes[0][(size_t)(SQ_Y + 4) * f.strides[0] + sq_x(20) + 4] > 200);
            CU_ASSERT(f.planes[0][(size_t)10 * f.strides[0] + 10] < 40);
        }
        n++;
    }
    CU_ASSERT_EQUAL(r, 0);
    if (r != 0)
        fprintf(stderr, "\n  next: %s\n", cr_frame_source_error(s));
    CU_ASSERT_EQUAL(n, N);
    CU_ASSERT_EQUAL(bad_planes, 0);
    CU_ASSERT_EQUAL(bad_pts, 0);
    CU_ASSERT_EQUAL(bad_content, 0);
    CU_ASSERT_EQUAL(cr_frame_source_next(s, &f), 0); /* stays ended */
    cr_frame_source_close(s);
}

static void test_clip_rgb(void)
{
    cr_frame_source_params_t p;
    cr_frame_source_t *s = NULL;
    cr_frame_t f;
    char err[512] = "";
    int r, n = 0, bad = 0;

    cr_frame_source_params_defaults(&p);
    p.format = CR_VIDEO_RGB;
    p.queue_frames = 2;
    CU_ASSERT_EQUAL_FATAL(cr_frame_source_open(clip, &p, &s, err, sizeof(err)), 0);
    while ((r = cr_frame_source_next(s, &f)) == 1) {
        const uint8_t *row = f.planes[0] + (size_t)(SQ_Y + SQ / 2) * f.strides[0];
        int x = find_square(row, 3);

        if (f.format != CR_VIDEO_RGB || f.width != W || f.height != H || f.strides[0] < 3 * W || f.planes[1] ||
            abs(x - sq_x(n)) > 1 || row[3 * (x + 4)] < 220 || row[3 * (x + 4) + 1] < 220 ||
            row[3 * (x + 4) + 2] < 220 || row[3 * 150] > 30)
            bad++;
        n++;
    }
    CU_ASSERT_EQUAL(r, 0);
    CU_ASSERT_EQUAL(n, N);
    CU_ASSERT_EQUAL(bad, 0);
    cr_frame_source_close(s);
}

static void test_mkv_and_truncated(void)
{
    cr_frame_source_t *s = NULL;
    cr_frame_t f;
    char err[512] = "";
    int r, n = 0;
    double t0, dur;

    /* the whole file: 120 frames, clean end */
    CU_ASSERT_EQUAL_FATAL(cr_frame_source_open(mkv, NULL, &s, err, sizeof(err)), 0);
    while ((r = cr_frame_source_next(s, &f)) == 1)
        n++;
    CU_ASSERT_EQUAL(r, 0);
    CU_ASSERT_EQUAL(n, 120);
    cr_frame_source_close(s);

    /* cut at 60 %: some frames, then an error saying it ended early, quickly */
    s = NULL;
    n = 0;
    t0 = now_s();
    r = cr_frame_source_open(mkv_cut, NULL, &s, err, sizeof(err));
    CU_ASSERT_EQUAL_FATAL(r, 0);
    cr_frame_source_info(s, NULL, NULL, NULL, NULL, &dur);
    CU_ASSERT(fabs(dur - 4.0) < 0.05);
    while ((r = cr_frame_source_next(s, &f)) == 1)
        n++;
    CU_ASSERT(n > 20 && n < 110);
    CU_ASSERT(r < 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(cr_frame_source_error(s), "ended early"));
    CU_ASSERT(cr_frame_source_next(s, &f) == r); /* stays failed */
    CU_ASSERT(now_s() - t0 < 5.0);
    cr_frame_source_close(s);
}

static void test_truncated_mp4(void)
{
    cr_frame_source_t *s = NULL;
    cr_frame_t f;
    char cut[160], err[512] = "";
    int r, n = 0;
    double t0 = now_s();

    snprintf(cut, sizeof(cut), "%s/cut.mp4", dir);
    CU_ASSERT_EQUAL_FATAL(copy_prefix(clip, cut, 0.6), 0);
    r = cr_frame_source_open(cut, NULL, &s, err, sizeof(err));
    if (r == 0) { /* a moov-first file would open: then frames, then an error or the end */
        while ((r = cr_frame_source_next(s, &f)) == 1)
            n++;
        CU_ASSERT(n < N);
        cr_frame_source_close(s);
    } else {
        CU_ASSERT(r < 0);
        CU_ASSERT_PTR_NULL(s);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "truncated"));
        CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    }
    CU_ASSERT(now_s() - t0 < 5.0);
}

static void expect_open_error(const char *path, const char *words, int status)
{
    cr_frame_source_t *s = NULL;
    char err[512] = "";
    double t0 = now_s();
    int r = cr_frame_source_open(path, NULL, &s, err, sizeof(err));

    CU_ASSERT_EQUAL(r, status);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, words));
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    CU_ASSERT(now_s() - t0 < 5.0);
    if (!strstr(err, words))
        fprintf(stderr, "\n  %s: got \"%s\", wanted \"%s\"\n", path, err, words);
    cr_frame_source_close(s);
}

static void test_missing(void)
{
    char path[160];

    snprintf(path, sizeof(path), "%s/nothing-here.mp4", dir);
    expect_open_error(path, "no such file", CR_ERR_IO);
    snprintf(path, sizeof(path), "%s/none/%%04d.png", dir);
    expect_open_error(path, "no such file", CR_ERR_IO);
}

static void test_not_media(void)
{
    char path[160];
    FILE *f;

    snprintf(path, sizeof(path), "%s/text.mp4", dir);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("this is not a video, just some words\nand another line of them\n", f);
    fclose(f);
    expect_open_error(path, "not a media file", CR_ERR_IO);
}

static void test_audio_only(void)
{
    char path[160], cmd[400];

    snprintf(path, sizeof(path), "%s/tone.wav", dir);
    snprintf(cmd, sizeof(cmd),
             "gst-launch-1.0 -q audiotestsrc num-buffers=20 ! wavenc ! filesink location=%s >/dev/null 2>&1", path);
    CU_ASSERT_EQUAL_FATAL(sh(cmd), 0);
    expect_open_error(path, "no video stream", CR_ERR_IO);
}

static void test_image_sequence(void)
{
    static uint8_t rgb[W * H * 3];
    cr_frame_source_t *s = NULL;
    cr_frame_t f;
    char path[160], pattern[160], err[512] = "";
    int k, r, n = 0, bad = 0;

    snprintf(path, sizeof(path), "%s/seq", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
    for (k = 0; k < 5; k++) {
        memset(rgb, 0, sizeof(rgb));
        memset(rgb + (size_t)k * 10 * W * 3, 255, (size_t)W * 3 * 10); /* rows 10k..10k+9 white */
        snprintf(path, sizeof(path), "%s/seq/%04d.png", dir, k);
        CU_ASSERT_EQUAL_FATAL(cr_png_write(path, rgb, W, H, W * 3, err, sizeof(err)), 0);
    }
    snprintf(pattern, sizeof(pattern), "%s/seq/%%04d.png", dir);
    CU_ASSERT_EQUAL_FATAL(cr_frame_source_open(pattern, NULL, &s, err, sizeof(err)), 0);
    while ((r = cr_frame_source_next(s, &f)) == 1) {
        /* I420 from PNG (through videoconvert): the white band is at rows 10n.. */
        if (f.width != W || f.height != H || f.format != CR_VIDEO_I420 ||
            f.planes[0][(size_t)(10 * n + 5) * f.strides[0] + 80] < 200 ||
            f.planes[0][(size_t)(10 * n + 25) % H * f.strides[0] + 80] > 40)
            bad++;
        if (fabs(f.pts_s - n / 30.0) > 0.001)
            bad++;
        n++;
    }
    if (r != 0)
        fprintf(stderr, "\n  sequence: %s\n", cr_frame_source_error(s));
    CU_ASSERT_EQUAL(r, 0);
    CU_ASSERT_EQUAL(n, 5);
    CU_ASSERT_EQUAL(bad, 0);
    cr_frame_source_close(s);
}

static void test_bad_args(void)
{
    cr_frame_source_params_t p;
    cr_frame_source_t *s = NULL;
    cr_frame_t f;
    char err[256] = "";

    CU_ASSERT_EQUAL(cr_frame_source_open(NULL, NULL, &s, err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_frame_source_open(clip, NULL, NULL, err, sizeof(err)), CR_ERR_INVALID);
    cr_frame_source_params_defaults(&p);
    p.queue_frames = 0;
    CU_ASSERT_EQUAL(cr_frame_source_open(clip, &p, &s, err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_EQUAL(cr_frame_source_next(NULL, &f), CR_ERR_INVALID);
    cr_frame_source_close(NULL);
}

int cr_test_register_capture(void)
{
    CU_pSuite s = CU_add_suite("capture: frame source", suite_init, suite_clean);

    if (!s)
        return 1;
    if (!CU_add_test(s, "H.264 MP4 as I420: count, size, PTS, planes, content", test_clip_i420) ||
        !CU_add_test(s, "H.264 MP4 as RGB", test_clip_rgb) ||
        !CU_add_test(s, "H.264 MKV whole, and truncated at 60 %", test_mkv_and_truncated) ||
        !CU_add_test(s, "truncated MP4 (moov at the end)", test_truncated_mp4) ||
        !CU_add_test(s, "missing file", test_missing) ||
        !CU_add_test(s, "text file named .mp4", test_not_media) ||
        !CU_add_test(s, "audio-only WAV", test_audio_only) ||
        !CU_add_test(s, "PNG image sequence", test_image_sequence) ||
        !CU_add_test(s, "bad arguments", test_bad_args))
        return 1;
    return 0;
}
