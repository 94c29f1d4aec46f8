/*
 * cr_frame_source.h - reads decoded video frames from a file, a URI or an
 * image sequence through GStreamer (the input side of `cueref review`).
 *
 *   file / URI:      uridecodebin ! [videoconvert !] appsink
 *   image sequence:  multifilesrc location=frames/%04d.png ! decodebin ! [videoconvert !] appsink
 *
 * Anything decodebin can decode is accepted (MP4/MKV/MOV with H.264, H.265,
 * MJPEG, VP9, ...). A path containing '%' is an image sequence (printf
 * pattern, numbered from 0; it ends at the first missing number). The output
 * format is chosen once, when the decoder's caps are known: I420 is taken
 * straight from the decoder when it gives I420 (no colour conversion, no
 * copy); videoconvert is inserted only when it does not, or for RGB output.
 * The appsink queue is bounded (queue_frames) and, for files, never drops.
 *
 * Live sources: a camera (a V4L2 device file such as /dev/video0, taken as
 * the URI v4l2:///dev/video0, or that URI itself) or a network stream
 * (udp://, rtsp://, http://, ... whatever uridecodebin has a source for).
 * They do not preroll: open starts them playing and waits (bounded by the
 * pull timeout) for the first frame's format; they have no duration
 * (cr_frame_source_info gives -1) and no end: a source that stops sending
 * fails the next pull after the timeout, with every frame before it
 * delivered.
 *
 * Errors: functions return 0 or a negative cr_status_t (next() returns 1 for
 * a frame, 0 at the end); the source keeps a one-line English message
 * (cr_frame_source_error()), open takes an optional message buffer.
 * CR_ERR_IO: no such file, unreadable, not a media file, corrupt or
 * truncated, no video stream, the pipeline stalled past the pull timeout,
 * a live source that sent nothing, a device that is no camera;
 * CR_ERR_UNSUPPORTED: a decoder or other GStreamer plugin is missing;
 * CR_ERR_INVALID: bad arguments; CR_ERR_NOMEM. No call blocks longer than
 * the pull (or open) timeout.
 *
 * Thread-safety: a source is used by one thread at a time. GStreamer is
 * initialised on first use (gst_init_check).
 */
#ifndef CR_FRAME_SOURCE_H
#define CR_FRAME_SOURCE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "cr_types.h"
#include "cr_video_writer.h" /* cr_video_format_t */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cr_video_format_t format; /* CR_VIDEO_I420 (default) or CR_VIDEO_RGB */
    int queue_frames;         /* appsink max-buffers, 1..256 (default 4) */
    int drop;                 /* 1: drop the oldest frame when the queue is full (live); 0: block (default) */
    double pull_timeout_s;    /* longest wait for one frame, and for open's preroll (default 10) */
    int seq_fps_num;          /* frame rate given to image sequences (default 30/1) */
    int seq_fps_den;
    const volatile sig_atomic_t *stop; /* NULL (default), or a flag (set from a signal handler, say):
                                          once it is nonzero, cr_frame_source_next() ends the stream
                                          (returns 0) without waiting for another frame */
} cr_frame_source_params_t;

void cr_frame_source_params_defaults(cr_frame_source_params_t *p);

/* One decoded frame: a non-owning view, valid until the next call of
 * cr_frame_source_next() or cr_frame_source_close() on its source.
 * I420: planes[0..2] = Y, U, V; chroma is (width+1)/2 x (height+1)/2.
 * RGB: planes[0] = packed R, G, B bytes; planes[1], planes[2] NULL.
 * Strides are bytes between rows and may exceed the row width. */
typedef struct {
    int width;
    int height;
    cr_video_format_t format;
    const uint8_t *planes[3];
    int strides[3];
    double pts_s;   /* presentation time, seconds of stream time (buffer PTS); -1 if the stream has none */
    uint64_t index; /* 0, 1, 2, ... in delivery order */
} cr_frame_t;

typedef struct cr_frame_source cr_frame_source_t;

/* Opens path_or_uri (a file path, a URI such as file:///x.mkv or
 * rtsp://..., or an image-sequence pattern), prerolls until the video
 * format is known. p may be NULL (defaults). Returns 0 and sets *out, or a
 * status with a message in errbuf (may be NULL) leaving *out untouched. */
int cr_frame_source_open(const char *path_or_uri, const cr_frame_source_params_t *p, cr_frame_source_t **out,
                         char *errbuf, size_t errlen);

/* The negotiated size, frame rate (0/1 if the stream has none) and duration
 * in seconds (-1 if unknown). Any output may be NULL. */
void cr_frame_source_info(const cr_frame_source_t *src, int *width, int *height, int *fps_num, int *fps_den,
                          double *duration_s);

/* The next frame into *frame (out). Returns 1 with a frame, 0 at the end of
 * the stream, or a negative status (message in cr_frame_source_error(); a
 * stream that ends before its announced duration is CR_ERR_IO "ended
 * early"). After an error or the end, every later call returns the same. */
int cr_frame_source_next(cr_frame_source_t *src, cr_frame_t *frame);

/* The last error message ("" if none); valid until the source is closed. */
const char *cr_frame_source_error(const cr_frame_source_t *src);

/* Stops the pipeline and frees the source. NULL is a no-op. */
void cr_frame_source_close(cr_frame_source_t *src);

#ifdef __cplusplus
}
#endif

#endif /* CR_FRAME_SOURCE_H */
