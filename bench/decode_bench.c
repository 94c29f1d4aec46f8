/*
 * decode_bench.c - frames per second of cr_frame_source on a file, in planar
 * I420 (straight from the decoder) and in RGB. Run it on one core:
 *   taskset -c 0 build/decode_bench clip.mp4
 */
#include <stdio.h>
#include <time.h>

#include "cr_frame_source.h"

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int run(const char *path, cr_video_format_t fmt, const char *name)
{
    cr_frame_source_params_t p;
    cr_frame_source_t *src = NULL;
    cr_frame_t fr;
    char err[512];
    long n = 0;
    int st;
    double t0 = now_s(), dt;

    cr_frame_source_params_defaults(&p);
    p.format = fmt;
    if (cr_frame_source_open(path, &p, &src, err, sizeof(err)) != 0) {
        fprintf(stderr, "decode_bench: %s\n", err);
        return 1;
    }
    while ((st = cr_frame_source_next(src, &fr)) == 1)
        n++;
    dt = now_s() - t0;
    if (st < 0)
        fprintf(stderr, "decode_bench: %s\n", cr_frame_source_error(src));
    cr_frame_source_close(src);
    printf("%-5s %ld frames in %.2f s = %.1f frames/s\n", name, n, dt, n / dt);
    return st < 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: decode_bench VIDEO\n");
        return 2;
    }
    return run(argv[1], CR_VIDEO_I420, "I420") | run(argv[1], CR_VIDEO_RGB, "RGB");
}
