/*
 * cr_video_writer.h - writes frames to an H.264 MP4 file, and single images
 * to PNG, through GStreamer (the simulator's videos and debugging images).
 *
 *   appsrc ! videoconvert ! video/x-raw,format=I420,colorimetry=bt709
 *          ! x264enc ! mp4mux ! filesink
 *
 * Every frame carries an explicit PTS (frame n at n * fps_den / fps_num
 * seconds). Output is atomic: the file is written as PATH.tmp-XXXXXX in the
 * same directory and renamed to PATH only when the muxer has finished
 * (end of stream seen on the bus); on any error, on abort and on destroy
 * before finish the temporary is removed, so PATH either appears complete or
 * is left as it was.
 *
 * Errors: functions return 0 or a negative cr_status_t; the writer keeps an
 * English message (cr_video_writer_error()); functions without a writer
 * take an optional message buffer. CR_ERR_UNSUPPORTED: a GStreamer element
 * is missing (x264enc is in gst-plugins-ugly, avdec_h264 in gst-libav);
 * CR_ERR_IO: the file cannot be created, written or renamed, or the
 * pipeline failed; CR_ERR_INVALID: bad arguments.
 *
 * Thread-safety: a writer is used by one thread at a time. GStreamer is
 * initialised on first use (gst_init_check).
 */
#ifndef CR_VIDEO_WRITER_H
#define CR_VIDEO_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CR_VIDEO_RGB = 0, /* packed R, G, B bytes (sRGB) */
    CR_VIDEO_I420     /* planar Y, U, V 4:2:0, BT.709 limited range (cr_render_rgb_to_i420) */
} cr_video_format_t;

typedef enum {
    CR_VIDEO_RC_QUALITY = 0, /* x264 pass=qual: constant quality at quantizer (like CRF) */
    CR_VIDEO_RC_QUANTIZER,   /* x264 pass=quant: constant quantizer */
    CR_VIDEO_RC_BITRATE      /* x264 pass=cbr: bitrate_kbps */
} cr_video_rate_control_t;

typedef struct {
    int width;                 /* pixels, even, 16..8192 */
    int height;
    int fps_num;               /* frame rate as a fraction, e.g. 30/1, 30000/1001 */
    int fps_den;
    cr_video_format_t format;  /* what cr_video_writer_write_* receive */
    const char *speed_preset;  /* x264 preset: "ultrafast" ... "placebo" (default "veryfast") */
    const char *tune;          /* x264 tune flags: "zerolatency", "fastdecode", "stillimage",
                                  combined with '+'; NULL or "" for none (default) */
    const char *psy_tune;      /* "film", "grain", ...; NULL or "" for none (default) */
    cr_video_rate_control_t rate_control; /* default CR_VIDEO_RC_QUALITY */
    int quantizer;             /* 0..50 for QUALITY / QUANTIZER (default 20) */
    int bitrate_kbps;          /* for BITRATE (default 8000) */
    int key_int_max;           /* frames between key frames; 0: x264's choice (default 0) */
    int threads;               /* encoder threads; 0: automatic (default) */
    double eos_timeout_s;      /* how long finish waits for the muxer (default 30) */
} cr_video_writer_params_t;

/* Defaults for a w x h stream at fps_num/fps_den, RGB input. */
void cr_video_writer_params_defaults(cr_video_writer_params_t *p, int width, int height, int fps_num, int fps_den);

typedef struct cr_video_writer cr_video_writer_t;

/* Starts writing path (through path.tmp-XXXXXX). Returns 0 and sets *out,
 * or a status with a message in errbuf (may be NULL) leaving *out untouched. */
int cr_video_writer_create(const char *path, const cr_video_writer_params_t *p, cr_video_writer_t **out,
                           char *errbuf, size_t errlen);

/* Appends one frame (the format given at create). rgb: width x height x 3
 * bytes, rows stride bytes apart. Blocks while the encoder is behind. After a
 * failure every later call fails with the same status. */
int cr_video_writer_write_rgb(cr_video_writer_t *w, const uint8_t *rgb, int stride);
int cr_video_writer_write_i420(cr_video_writer_t *w, const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
                               const uint8_t *v, int v_stride);

/* Frames written so far. */
uint64_t cr_video_writer_frames(const cr_video_writer_t *w);

/* Ends the stream, waits for the muxer (eos_timeout_s) and renames the
 * temporary to the path. CR_ERR_INVALID when no frame was written (the
 * temporary is removed). After it, only destroy is allowed. */
int cr_video_writer_finish(cr_video_writer_t *w);

/* Frees the writer; if finish did not succeed, aborts and removes the
 * temporary. NULL is a no-op. */
void cr_video_writer_destroy(cr_video_writer_t *w);

/* The last error message ("" if none); valid until the writer is destroyed. */
const char *cr_video_writer_error(const cr_video_writer_t *w);

/* Writes one RGB image (width x height, rows stride bytes apart) as a PNG,
 * atomically as above. Returns 0 or a status with a message in errbuf. */
int cr_png_write(const char *path, const uint8_t *rgb, int width, int height, int stride, char *errbuf,
                 size_t errlen);

/* Decodes an MP4 (H.264) file: filesrc ! qtdemux ! h264parse ! avdec_h264 !
 * appsink. Counts the decoded frames and reports the container's duration
 * (seconds) and the decoded size. Any output may be NULL. Returns 0 or a
 * status with a message in errbuf. */
int cr_video_probe(const char *path, uint64_t *frames, double *duration_s, int *width, int *height, char *errbuf,
                   size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CR_VIDEO_WRITER_H */
