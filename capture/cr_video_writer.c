/*
 * cr_video_writer.c - MP4 (H.264) and PNG writing, and MP4 probing, through
 * GStreamer. See cr_video_writer.h for the pipelines and the atomic-write
 * contract.
 */
#include "cr_capture_internal.h"
#include "cr_video_writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#define CR_ERR_LEN 512
#define CR_MAX_DIM 8192
#define CR_PROBE_PULL_TIMEOUT (10 * GST_SECOND)
#define CR_PUSH_POLL (2 * GST_MSECOND) /* bus poll while the appsrc queue is full */

typedef enum { CR_OUT_MP4 = 0, CR_OUT_PNG } cr_out_kind_t;

struct cr_video_writer {
    GstElement *pipeline; /* owns every element */
    GstElement *src;      /* the appsrc, a ref of our own */
    GstBus *bus;
    GstVideoInfo info; /* layout of the buffers pushed */
    cr_video_format_t format;
    int fps_num, fps_den;
    uint64_t frames;
    GstClockTime eos_timeout;
    char *tmp;    /* temporary file; NULL once renamed or removed */
    char *path;
    int status;   /* first failure, CR_OK while healthy */
    bool finished;
    char err[CR_ERR_LEN];
};

/* ---- messages ----------------------------------------------------------------- */



/* Records the first failure of a writer. Returns status. */
static int cr_fail(cr_video_writer_t *w, int status, const char *fmt, ...)
{
    va_list ap;

    if (w->status == CR_OK) {
        w->status = status;
        va_start(ap, fmt);
        cr_capture_vmsg(w->err, sizeof(w->err), fmt, ap);
        va_end(ap);
    }
    return w->status;
}

/* Takes a pending ERROR message off the bus (timeout 0: poll) and records
 * it. Returns true when there was one. */
static bool cr_bus_error(GstBus *bus, GstClockTime timeout, char *buf, size_t len)
{
    GstMessage *msg = gst_bus_timed_pop_filtered(bus, timeout, GST_MESSAGE_ERROR);
    GError *gerr = NULL;
    gchar *dbg = NULL;

    if (!msg)
        return false;
    gst_message_parse_error(msg, &gerr, &dbg);
    cr_capture_msg(buf, len, "GStreamer error from %s: %s%s%s", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)),
           gerr ? gerr->message : "unknown", dbg ? " | " : "", dbg ? dbg : "");
    g_clear_error(&gerr);
    g_free(dbg);
    gst_message_unref(msg);
    return true;
}

/* ---- GStreamer helpers ---------------------------------------------------------- */


/* Where an element comes from, for the "missing" message. */
static const char *cr_plugin_hint(const char *factory)
{
    if (strcmp(factory, "x264enc") == 0)
        return " (x264enc is in gst-plugins-ugly)";
    if (strcmp(factory, "avdec_h264") == 0)
        return " (avdec_h264 is in gst-libav)";
    if (strcmp(factory, "mp4mux") == 0 || strcmp(factory, "qtdemux") == 0 || strcmp(factory, "pngenc") == 0)
        return " (it is in gst-plugins-good)";
    if (strcmp(factory, "h264parse") == 0)
        return " (h264parse is in gst-plugins-bad)";
    return " (it is in gst-plugins-base)";
}

static GstElement *cr_make(const char *factory, char *errbuf, size_t errlen)
{
    GstElement *e = gst_element_factory_make(factory, NULL);

    if (!e)
        cr_capture_msg(errbuf, errlen, "GStreamer element '%s' is not installed%s", factory, cr_plugin_hint(factory));
    return e;
}

/* Sets a property from its string form ("veryfast", "20", "true",
 * "zerolatency+fastdecode"), checked against the property's type. */
static bool cr_set_prop(GstElement *e, const char *name, const char *value, char *errbuf, size_t errlen)
{
    GParamSpec *ps = g_object_class_find_property(G_OBJECT_GET_CLASS(e), name);
    GValue v = G_VALUE_INIT;

    if (!ps) {
        cr_capture_msg(errbuf, errlen, "element %s has no property '%s'", GST_OBJECT_NAME(e), name);
        return false;
    }
    g_value_init(&v, G_PARAM_SPEC_VALUE_TYPE(ps));
    if (G_PARAM_SPEC_VALUE_TYPE(ps) == G_TYPE_STRING) {
        g_value_set_string(&v, value);
    } else if (!gst_value_deserialize(&v, value)) {
        cr_capture_msg(errbuf, errlen, "invalid value '%s' for %s property '%s'", value, GST_OBJECT_NAME(e), name);
        g_value_unset(&v);
        return false;
    }
    g_object_set_property(G_OBJECT(e), name, &v);
    g_value_unset(&v);
    return true;
}

static bool cr_set_prop_int(GstElement *e, const char *name, long long value, char *errbuf, size_t errlen)
{
    char s[32];

    snprintf(s, sizeof(s), "%lld", value);
    return cr_set_prop(e, name, s, errbuf, errlen);
}

/* ---- parameters --------------------------------------------------------------------- */

void cr_video_writer_params_defaults(cr_video_writer_params_t *p, int width, int height, int fps_num, int fps_den)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->width = width;
    p->height = height;
    p->fps_num = fps_num;
    p->fps_den = fps_den;
    p->format = CR_VIDEO_RGB;
    p->speed_preset = "veryfast";
    p->tune = NULL;
    p->psy_tune = NULL;
    p->rate_control = CR_VIDEO_RC_QUALITY;
    p->quantizer = 20;
    p->bitrate_kbps = 8000;
    p->key_int_max = 0;
    p->threads = 0;
    p->eos_timeout_s = 30.0;
}

static int cr_params_check(const cr_video_writer_params_t *p, cr_out_kind_t kind, char *errbuf, size_t errlen)
{
    if (kind == CR_OUT_PNG) {
        if (p->width < 1 || p->height < 1 || p->width > CR_MAX_DIM || p->height > CR_MAX_DIM) {
            cr_capture_msg(errbuf, errlen, "image size %dx%d: need 1..%d", p->width, p->height, CR_MAX_DIM);
            return CR_ERR_INVALID;
        }
    } else if (p->width < 16 || p->height < 16 || p->width > CR_MAX_DIM || p->height > CR_MAX_DIM ||
               (p->width & 1) || (p->height & 1)) {
        cr_capture_msg(errbuf, errlen, "frame size %dx%d: need even sizes in 16..%d", p->width, p->height, CR_MAX_DIM);
        return CR_ERR_INVALID;
    }
    if (p->fps_num <= 0 || p->fps_den <= 0) {
        cr_capture_msg(errbuf, errlen, "frame rate %d/%d: need positive numbers", p->fps_num, p->fps_den);
        return CR_ERR_INVALID;
    }
    if (p->format != CR_VIDEO_RGB && p->format != CR_VIDEO_I420) {
        cr_capture_msg(errbuf, errlen, "unknown input format %d", (int)p->format);
        return CR_ERR_INVALID;
    }
    if ((p->rate_control == CR_VIDEO_RC_QUALITY || p->rate_control == CR_VIDEO_RC_QUANTIZER) &&
        (p->quantizer < 0 || p->quantizer > 50)) {
        cr_capture_msg(errbuf, errlen, "quantizer %d: need 0..50", p->quantizer);
        return CR_ERR_INVALID;
    }
    if (p->rate_control == CR_VIDEO_RC_BITRATE && (p->bitrate_kbps < 1 || p->bitrate_kbps > 2048000)) {
        cr_capture_msg(errbuf, errlen, "bitrate %d kbit/s: need 1..2048000", p->bitrate_kbps);
        return CR_ERR_INVALID;
    }
    if ((int)p->rate_control < 0 || p->rate_control > CR_VIDEO_RC_BITRATE || p->key_int_max < 0 || p->threads < 0 ||
        !(p->eos_timeout_s > 0.0 && p->eos_timeout_s <= 3600.0)) {
        cr_capture_msg(errbuf, errlen, "invalid rate control, key-int-max, threads or timeout");
        return CR_ERR_INVALID;
    }
    return CR_OK;
}

/* ---- writer ------------------------------------------------------------------------- */

/* Stops the pipeline and removes the temporary (abort path). */
static void cr_abort(cr_video_writer_t *w)
{
    if (w->pipeline && gst_element_set_state(w->pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE)
        cr_fail(w, CR_ERR_IO, "cannot stop the pipeline");
    if (w->tmp) {
        if (unlink(w->tmp) != 0 && errno != ENOENT)
            cr_fail(w, CR_ERR_IO, "cannot remove %s: %s", w->tmp, strerror(errno));
        free(w->tmp);
        w->tmp = NULL;
    }
}

void cr_video_writer_destroy(cr_video_writer_t *w)
{
    if (!w)
        return;
    if (!w->finished)
        cr_abort(w);
    if (w->bus)
        gst_object_unref(w->bus);
    if (w->src)
        gst_object_unref(w->src);
    if (w->pipeline)
        gst_object_unref(w->pipeline);
    free(w->tmp);
    free(w->path);
    free(w);
}

/* Makes an element and adds it to the writer's pipeline (which then owns
 * it). NULL with a message when the element is missing. */
static GstElement *cr_add(cr_video_writer_t *w, const char *factory)
{
    GstElement *e = cr_make(factory, w->err, sizeof(w->err));

    if (!e)
        return NULL;
    if (!gst_bin_add(GST_BIN(w->pipeline), e)) {
        cr_capture_msg(w->err, sizeof(w->err), "cannot add %s to the pipeline", factory);
        return NULL; /* a fresh element without a parent is always accepted */
    }
    return e;
}

/* Builds appsrc ! videoconvert ! (capsfilter ! x264enc ! mp4mux | pngenc)
 * ! filesink on w->tmp and sets it playing. Everything is owned by
 * w->pipeline, so the caller's cleanup is cr_video_writer_destroy(). */
static int cr_build(cr_video_writer_t *w, cr_out_kind_t kind, const cr_video_writer_params_t *p)
{
    GstElement *src, *conv, *filt = NULL, *enc, *mux = NULL, *sink;
    GstCaps *caps;
    GstVideoFormat vf = p->format == CR_VIDEO_I420 ? GST_VIDEO_FORMAT_I420 : GST_VIDEO_FORMAT_RGB;
    char *e = w->err;
    const size_t el = sizeof(w->err);
    bool ok;

    w->pipeline = gst_pipeline_new(NULL);
    if (!w->pipeline) {
        cr_capture_msg(e, el, "cannot create a GStreamer pipeline");
        return CR_ERR_IO;
    }
    gst_object_ref_sink(w->pipeline);
    w->bus = gst_element_get_bus(w->pipeline);
    if (!w->bus) {
        cr_capture_msg(e, el, "the pipeline has no bus");
        return CR_ERR_IO;
    }
    if (!(src = cr_add(w, "appsrc")) || !(conv = cr_add(w, "videoconvert")))
        return CR_ERR_UNSUPPORTED;
    if (kind == CR_OUT_MP4) {
        if (!(filt = cr_add(w, "capsfilter")) || !(enc = cr_add(w, "x264enc")) || !(mux = cr_add(w, "mp4mux")))
            return CR_ERR_UNSUPPORTED;
    } else if (!(enc = cr_add(w, "pngenc"))) {
        return CR_ERR_UNSUPPORTED;
    }
    if (!(sink = cr_add(w, "filesink")))
        return CR_ERR_UNSUPPORTED;
    w->src = gst_object_ref(src);

    /* Input caps and the buffer layout they imply. */
    gst_video_info_init(&w->info);
    if (!gst_video_info_set_format(&w->info, vf, (guint)p->width, (guint)p->height)) {
        cr_capture_msg(e, el, "GStreamer rejects a %dx%d frame", p->width, p->height);
        return CR_ERR_INVALID;
    }
    GST_VIDEO_INFO_FPS_N(&w->info) = kind == CR_OUT_PNG ? 0 : p->fps_num;
    GST_VIDEO_INFO_FPS_D(&w->info) = kind == CR_OUT_PNG ? 1 : p->fps_den;
    if (p->format == CR_VIDEO_I420 &&
        !gst_video_colorimetry_from_string(&w->info.colorimetry, GST_VIDEO_COLORIMETRY_BT709)) {
        cr_capture_msg(e, el, "GStreamer does not know colorimetry bt709");
        return CR_ERR_INVALID;
    }
    caps = gst_video_info_to_caps(&w->info);
    if (!caps) {
        cr_capture_msg(e, el, "cannot make the input caps");
        return CR_ERR_INVALID;
    }
    gst_app_src_set_caps(GST_APP_SRC(src), caps);
    gst_caps_unref(caps);
    gst_app_src_set_stream_type(GST_APP_SRC(src), GST_APP_STREAM_TYPE_STREAM);
    gst_app_src_set_max_bytes(GST_APP_SRC(src), 4 * (guint64)GST_VIDEO_INFO_SIZE(&w->info));
    /* not blocking: cr_push waits for room itself, watching the bus, so that
     * a failed encoder cannot hang the caller */
    ok = cr_set_prop(src, "format", "time", e, el) && cr_set_prop(src, "block", "false", e, el) &&
         cr_set_prop(src, "is-live", "false", e, el) && cr_set_prop(sink, "location", w->tmp, e, el) &&
         cr_set_prop(sink, "sync", "false", e, el) && cr_set_prop(sink, "async", "false", e, el);
    if (ok && kind == CR_OUT_MP4) {
        ok = cr_set_prop(filt, "caps", "video/x-raw,format=I420,colorimetry=bt709", e, el) &&
             cr_set_prop(enc, "speed-preset", p->speed_preset && *p->speed_preset ? p->speed_preset : "veryfast", e,
                         el) &&
             (!p->tune || !*p->tune || cr_set_prop(enc, "tune", p->tune, e, el)) &&
             (!p->psy_tune || !*p->psy_tune || cr_set_prop(enc, "psy-tune", p->psy_tune, e, el)) &&
             cr_set_prop_int(enc, "key-int-max", p->key_int_max, e, el) &&
             cr_set_prop_int(enc, "threads", p->threads, e, el);
        if (ok && p->rate_control == CR_VIDEO_RC_BITRATE)
            ok = cr_set_prop(enc, "pass", "cbr", e, el) && cr_set_prop_int(enc, "bitrate", p->bitrate_kbps, e, el);
        else if (ok)
            ok = cr_set_prop(enc, "pass", p->rate_control == CR_VIDEO_RC_QUALITY ? "qual" : "quant", e, el) &&
                 cr_set_prop_int(enc, "quantizer", p->quantizer, e, el);
    } else if (ok) {
        ok = cr_set_prop(enc, "snapshot", "false", e, el);
    }
    if (!ok)
        return CR_ERR_INVALID;
    if (kind == CR_OUT_MP4)
        ok = gst_element_link_many(src, conv, filt, enc, mux, sink, NULL);
    else
        ok = gst_element_link_many(src, conv, enc, sink, NULL);
    if (!ok) {
        cr_capture_msg(e, el, "cannot link the %s pipeline", kind == CR_OUT_MP4 ? "MP4" : "PNG");
        return CR_ERR_IO;
    }
    if (gst_element_set_state(w->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        if (!cr_bus_error(w->bus, 0, e, el))
            cr_capture_msg(e, el, "cannot start the pipeline writing %s", w->tmp);
        return CR_ERR_IO;
    }
    return CR_OK;
}

/* Common constructor of the MP4 and PNG writers. */
static int cr_writer_open(const char *path, cr_out_kind_t kind, const cr_video_writer_params_t *p,
                          cr_video_writer_t **out, char *errbuf, size_t errlen)
{
    cr_video_writer_t *w;
    size_t n;
    int fd, st;

    if (!path || !*path || !p || !out) {
        cr_capture_msg(errbuf, errlen, "missing path, parameters or output pointer");
        return CR_ERR_INVALID;
    }
    st = cr_params_check(p, kind, errbuf, errlen);
    if (st != CR_OK)
        return st;
    st = cr_capture_gst_init(errbuf, errlen);
    if (st != CR_OK)
        return st;
    w = calloc(1, sizeof(*w));
    if (!w) {
        cr_capture_msg(errbuf, errlen, "out of memory");
        return CR_ERR_NOMEM;
    }
    w->format = p->format;
    w->fps_num = p->fps_num;
    w->fps_den = p->fps_den;
    w->eos_timeout = (GstClockTime)(p->eos_timeout_s * GST_SECOND);
    n = strlen(path);
    w->path = malloc(n + 1);
    w->tmp = malloc(n + sizeof(".tmp-XXXXXX"));
    if (!w->path || !w->tmp) {
        free(w->path);
        free(w->tmp);
        free(w);
        cr_capture_msg(errbuf, errlen, "out of memory");
        return CR_ERR_NOMEM;
    }
    memcpy(w->path, path, n + 1);
    memcpy(w->tmp, path, n);
    memcpy(w->tmp + n, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
    fd = mkstemp(w->tmp);
    if (fd < 0) {
        cr_capture_msg(errbuf, errlen, "cannot create %s: %s", w->tmp, strerror(errno));
        free(w->tmp);
        w->tmp = NULL;
        cr_video_writer_destroy(w);
        return CR_ERR_IO;
    }
    /* mkstemp makes the file 0600; the result should be an ordinary file */
    if (fchmod(fd, 0644) != 0) {
        cr_capture_msg(errbuf, errlen, "cannot set the mode of %s: %s", w->tmp, strerror(errno));
        close(fd);
        cr_video_writer_destroy(w);
        return CR_ERR_IO;
    }
    if (close(fd) != 0) {
        cr_capture_msg(errbuf, errlen, "cannot close %s: %s", w->tmp, strerror(errno));
        cr_video_writer_destroy(w);
        return CR_ERR_IO;
    }
    st = cr_build(w, kind, p);
    if (st != CR_OK) {
        cr_capture_msg(errbuf, errlen, "%s", w->err);
        cr_video_writer_destroy(w);
        return st;
    }
    *out = w;
    return CR_OK;
}

int cr_video_writer_create(const char *path, const cr_video_writer_params_t *p, cr_video_writer_t **out,
                           char *errbuf, size_t errlen)
{
    return cr_writer_open(path, CR_OUT_MP4, p, out, errbuf, errlen);
}

/* Pushes one filled buffer with the next timestamp. */
static int cr_push(cr_video_writer_t *w, GstBuffer *buf)
{
    GstFlowReturn fr;
    GstClockTime pts = gst_util_uint64_scale(w->frames, (guint64)w->fps_den * GST_SECOND, (guint64)w->fps_num);
    GstClockTime next = gst_util_uint64_scale(w->frames + 1, (guint64)w->fps_den * GST_SECOND, (guint64)w->fps_num);

    GstClockTime waited = 0;

    GST_BUFFER_PTS(buf) = pts;
    GST_BUFFER_DTS(buf) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION(buf) = next - pts;
    /* wait while the encoder is behind (queue full), watching for errors */
    while (gst_app_src_get_current_level_bytes(GST_APP_SRC(w->src)) >=
           gst_app_src_get_max_bytes(GST_APP_SRC(w->src))) {
        char msg[CR_ERR_LEN];

        if (cr_bus_error(w->bus, CR_PUSH_POLL, msg, sizeof(msg))) {
            gst_buffer_unref(buf);
            return cr_fail(w, CR_ERR_IO, "%s", msg);
        }
        waited += CR_PUSH_POLL;
        if (waited > w->eos_timeout) {
            gst_buffer_unref(buf);
            return cr_fail(w, CR_ERR_IO, "the encoder stalled for %.1f s", (double)waited / GST_SECOND);
        }
    }
    fr = gst_app_src_push_buffer(GST_APP_SRC(w->src), buf); /* takes buf */
    if (fr != GST_FLOW_OK) {
        char msg[CR_ERR_LEN];

        if (cr_bus_error(w->bus, 0, msg, sizeof(msg)))
            return cr_fail(w, CR_ERR_IO, "%s", msg);
        return cr_fail(w, CR_ERR_IO, "the pipeline refused frame %llu: %s", (unsigned long long)w->frames,
                       gst_flow_get_name(fr));
    }
    {
        char msg[CR_ERR_LEN];

        if (cr_bus_error(w->bus, 0, msg, sizeof(msg)))
            return cr_fail(w, CR_ERR_IO, "%s", msg);
    }
    w->frames++;
    return CR_OK;
}

/* A buffer of the negotiated layout, mapped for writing. */
static GstBuffer *cr_new_frame(cr_video_writer_t *w, GstVideoFrame *vf)
{
    GstBuffer *buf = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&w->info), NULL);

    if (!buf) {
        cr_fail(w, CR_ERR_NOMEM, "cannot allocate a %zu-byte frame", (size_t)GST_VIDEO_INFO_SIZE(&w->info));
        return NULL;
    }
    if (!gst_video_frame_map(vf, &w->info, buf, GST_MAP_WRITE)) {
        gst_buffer_unref(buf);
        cr_fail(w, CR_ERR_IO, "cannot map a frame buffer");
        return NULL;
    }
    return buf;
}

static void cr_copy_plane(GstVideoFrame *vf, int plane, const uint8_t *src, int src_stride, size_t row_bytes, int rows)
{
    uint8_t *dst = GST_VIDEO_FRAME_PLANE_DATA(vf, plane);
    int dst_stride = GST_VIDEO_FRAME_PLANE_STRIDE(vf, plane), j;

    for (j = 0; j < rows; j++)
        memcpy(dst + (size_t)j * dst_stride, src + (size_t)j * src_stride, row_bytes);
}

static int cr_writer_ready(cr_video_writer_t *w)
{
    if (!w)
        return CR_ERR_INVALID;
    if (w->finished)
        return cr_fail(w, CR_ERR_INVALID, "the writer has finished");
    return w->status;
}

int cr_video_writer_write_rgb(cr_video_writer_t *w, const uint8_t *rgb, int stride)
{
    GstVideoFrame vf;
    GstBuffer *buf;
    int st = cr_writer_ready(w), width, height;

    if (st != CR_OK)
        return st;
    width = (int)GST_VIDEO_INFO_WIDTH(&w->info);
    height = (int)GST_VIDEO_INFO_HEIGHT(&w->info);
    if (w->format != CR_VIDEO_RGB || !rgb || stride < 3 * width) {
        cr_capture_msg(w->err, sizeof(w->err), "write_rgb: not an RGB writer, no data or stride %d < %d", stride, 3 * width);
        return CR_ERR_INVALID;
    }
    buf = cr_new_frame(w, &vf);
    if (!buf)
        return w->status;
    cr_copy_plane(&vf, 0, rgb, stride, 3 * (size_t)width, height);
    gst_video_frame_unmap(&vf);
    return cr_push(w, buf);
}

int cr_video_writer_write_i420(cr_video_writer_t *w, const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
                               const uint8_t *v, int v_stride)
{
    GstVideoFrame vf;
    GstBuffer *buf;
    int st = cr_writer_ready(w), width, height, cw, ch;

    if (st != CR_OK)
        return st;
    width = (int)GST_VIDEO_INFO_WIDTH(&w->info);
    height = (int)GST_VIDEO_INFO_HEIGHT(&w->info);
    cw = (width + 1) / 2;
    ch = (height + 1) / 2;
    if (w->format != CR_VIDEO_I420 || !y || !u || !v || y_stride < width || u_stride < cw || v_stride < cw) {
        cr_capture_msg(w->err, sizeof(w->err), "write_i420: not an I420 writer, no data or strides too small");
        return CR_ERR_INVALID;
    }
    buf = cr_new_frame(w, &vf);
    if (!buf)
        return w->status;
    cr_copy_plane(&vf, 0, y, y_stride, (size_t)width, height);
    cr_copy_plane(&vf, 1, u, u_stride, (size_t)cw, ch);
    cr_copy_plane(&vf, 2, v, v_stride, (size_t)cw, ch);
    gst_video_frame_unmap(&vf);
    return cr_push(w, buf);
}

uint64_t cr_video_writer_frames(const cr_video_writer_t *w)
{
    return w ? w->frames : 0;
}

int cr_video_writer_finish(cr_video_writer_t *w)
{
    GstMessage *msg;
    GstFlowReturn fr;
    int st = cr_writer_ready(w);

    if (st != CR_OK) {
        if (w)
            cr_abort(w);
        return st;
    }
    if (w->frames == 0) {
        st = cr_fail(w, CR_ERR_INVALID, "no frame was written; %s not created", w->path);
        cr_abort(w);
        return st;
    }
    fr = gst_app_src_end_of_stream(GST_APP_SRC(w->src));
    if (fr != GST_FLOW_OK) {
        st = cr_fail(w, CR_ERR_IO, "cannot end the stream: %s", gst_flow_get_name(fr));
        cr_abort(w);
        return st;
    }
    msg = gst_bus_timed_pop_filtered(w->bus, w->eos_timeout, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!msg) {
        st = cr_fail(w, CR_ERR_IO, "the muxer did not finish within %.1f s", (double)w->eos_timeout / GST_SECOND);
        cr_abort(w);
        return st;
    }
    if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
        GError *gerr = NULL;
        gchar *dbg = NULL;

        gst_message_parse_error(msg, &gerr, &dbg);
        st = cr_fail(w, CR_ERR_IO, "GStreamer error from %s: %s%s%s", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)),
                     gerr ? gerr->message : "unknown", dbg ? " | " : "", dbg ? dbg : "");
        g_clear_error(&gerr);
        g_free(dbg);
        gst_message_unref(msg);
        cr_abort(w);
        return st;
    }
    gst_message_unref(msg);
    if (gst_element_set_state(w->pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE) {
        st = cr_fail(w, CR_ERR_IO, "cannot stop the pipeline");
        cr_abort(w);
        return st;
    }
    if (rename(w->tmp, w->path) != 0) {
        st = cr_fail(w, CR_ERR_IO, "cannot rename %s to %s: %s", w->tmp, w->path, strerror(errno));
        cr_abort(w);
        return st;
    }
    free(w->tmp);
    w->tmp = NULL;
    w->finished = true;
    return CR_OK;
}

const char *cr_video_writer_error(const cr_video_writer_t *w)
{
    return w ? w->err : "no writer";
}

/* ---- PNG --------------------------------------------------------------------------- */

int cr_png_write(const char *path, const uint8_t *rgb, int width, int height, int stride, char *errbuf,
                 size_t errlen)
{
    cr_video_writer_params_t p;
    cr_video_writer_t *w = NULL;
    int st;

    if (!rgb || width < 1 || height < 1 || width > CR_MAX_DIM || height > CR_MAX_DIM || stride < 3 * width) {
        cr_capture_msg(errbuf, errlen, "png: no data, size %dx%d or stride %d", width, height, stride);
        return CR_ERR_INVALID;
    }
    cr_video_writer_params_defaults(&p, width, height, 1, 1);
    st = cr_writer_open(path, CR_OUT_PNG, &p, &w, errbuf, errlen);
    if (st != CR_OK)
        return st;
    st = cr_video_writer_write_rgb(w, rgb, stride);
    if (st == CR_OK)
        st = cr_video_writer_finish(w);
    if (st != CR_OK)
        cr_capture_msg(errbuf, errlen, "%s", w->err);
    cr_video_writer_destroy(w);
    return st;
}

/* ---- probe -------------------------------------------------------------------------- */

int cr_video_probe(const char *path, uint64_t *frames, double *duration_s, int *width, int *height, char *errbuf,
                   size_t errlen)
{
    static const char *const needed[] = {"filesrc", "qtdemux", "h264parse", "avdec_h264", "appsink"};
    GstElement *pipe = NULL, *src = NULL, *sink = NULL;
    GstBus *bus = NULL;
    GError *gerr = NULL;
    GstClockTime last_end = 0;
    gint64 dur = -1;
    uint64_t n = 0;
    int st, w = 0, h = 0;
    size_t i;

    if (!path || !*path) {
        cr_capture_msg(errbuf, errlen, "probe: no path");
        return CR_ERR_INVALID;
    }
    st = cr_capture_gst_init(errbuf, errlen);
    if (st != CR_OK)
        return st;
    if (access(path, R_OK) != 0) {
        cr_capture_msg(errbuf, errlen, "cannot read %s: %s", path, strerror(errno));
        return CR_ERR_IO;
    }
    for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
        GstElementFactory *f = gst_element_factory_find(needed[i]);

        if (!f) {
            cr_capture_msg(errbuf, errlen, "GStreamer element '%s' is not installed%s", needed[i], cr_plugin_hint(needed[i]));
            return CR_ERR_UNSUPPORTED;
        }
        gst_object_unref(f);
    }
    pipe = gst_parse_launch("filesrc name=src ! qtdemux ! h264parse ! avdec_h264 ! appsink name=sink sync=false",
                            &gerr);
    if (!pipe || gerr) {
        cr_capture_msg(errbuf, errlen, "cannot build the decoder: %s", gerr ? gerr->message : "unknown error");
        st = CR_ERR_UNSUPPORTED;
        goto done;
    }
    src = gst_bin_get_by_name(GST_BIN(pipe), "src");
    sink = gst_bin_get_by_name(GST_BIN(pipe), "sink");
    bus = gst_element_get_bus(pipe);
    if (!src || !sink || !bus) {
        cr_capture_msg(errbuf, errlen, "the decoder pipeline is incomplete");
        st = CR_ERR_IO;
        goto done;
    }
    if (!cr_set_prop(src, "location", path, errbuf, errlen)) {
        st = CR_ERR_IO;
        goto done;
    }
    if (gst_element_set_state(pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        if (!cr_bus_error(bus, 0, errbuf, errlen))
            cr_capture_msg(errbuf, errlen, "cannot start decoding %s", path);
        st = CR_ERR_IO;
        goto done;
    }
    for (;;) {
        GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), CR_PROBE_PULL_TIMEOUT);
        GstBuffer *b;

        if (!s) {
            if (gst_app_sink_is_eos(GST_APP_SINK(sink)))
                break;
            if (!cr_bus_error(bus, 0, errbuf, errlen))
                cr_capture_msg(errbuf, errlen, "decoding %s stalled", path);
            st = CR_ERR_IO;
            goto done;
        }
        if (n == 0) {
            GstCaps *caps = gst_sample_get_caps(s);
            GstVideoInfo vi;

            if (caps && gst_video_info_from_caps(&vi, caps)) {
                w = (int)GST_VIDEO_INFO_WIDTH(&vi);
                h = (int)GST_VIDEO_INFO_HEIGHT(&vi);
            }
            if (!gst_element_query_duration(pipe, GST_FORMAT_TIME, &dur))
                dur = -1;
        }
        b = gst_sample_get_buffer(s);
        if (b && GST_BUFFER_PTS_IS_VALID(b)) {
            GstClockTime end = GST_BUFFER_PTS(b) + (GST_BUFFER_DURATION_IS_VALID(b) ? GST_BUFFER_DURATION(b) : 0);

            if (end > last_end)
                last_end = end;
        }
        n++;
        gst_sample_unref(s);
    }
    if (cr_bus_error(bus, 0, errbuf, errlen)) {
        st = CR_ERR_IO;
        goto done;
    }
    if (frames)
        *frames = n;
    if (duration_s)
        *duration_s = dur >= 0 ? (double)dur / GST_SECOND : (double)last_end / GST_SECOND;
    if (width)
        *width = w;
    if (height)
        *height = h;
    st = CR_OK;

done:
    g_clear_error(&gerr);
    if (pipe && gst_element_set_state(pipe, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE && st == CR_OK) {
        cr_capture_msg(errbuf, errlen, "cannot stop the decoder");
        st = CR_ERR_IO;
    }
    if (bus)
        gst_object_unref(bus);
    if (src)
        gst_object_unref(src);
    if (sink)
        gst_object_unref(sink);
    if (pipe)
        gst_object_unref(pipe);
    return st;
}
