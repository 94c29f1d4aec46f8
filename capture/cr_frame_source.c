/*
 * cr_frame_source.c - decoded frames from files, URIs and image sequences
 * through GStreamer. See cr_frame_source.h for the pipelines and contract.
 */
#define _GNU_SOURCE /* sched_getaffinity: the processors this process may run on */
#include "cr_capture_internal.h"
#include "cr_frame_source.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#define CR_ERR_LEN 512
#define CR_POLL (50 * GST_MSECOND) /* pull slice between bus checks */
#define CR_EARLY_SLACK_S 0.5       /* a stream ending more than this before its duration ended early */

struct cr_frame_source {
    GstElement *pipeline; /* owns every element */
    GstElement *sink;     /* the appsink, a ref of our own */
    GstElement *convert;  /* videoconvert, a ref of our own; in the pipeline only when needed */
    GstBus *bus;
    cr_video_format_t format;
    GstClockTime timeout;
    const volatile sig_atomic_t *stop; /* the caller's stop flag, or NULL */
    char *name; /* the path or URI as given, for messages */

    /* set from streaming threads (pad-added, unknown-type), under lock */
    GMutex lock;
    bool linked;        /* a video pad reached the sink */
    bool no_more_pads;  /* decodebin exposed every stream */
    bool converting;    /* videoconvert was inserted */
    char unknown[160];  /* caps of a stream with no decoder ("" if none) */

    int width, height, fps_num, fps_den;
    double duration_s;
    bool device;       /* a V4L2 camera given by its device file (/dev/video0) */
    GstSample *sample; /* the frame on loan to the caller */
    GstVideoFrame vf;
    bool mapped;
    uint64_t frames;
    double last_end_s; /* end of the last frame delivered */
    int status;        /* CR_OK while healthy, 1 after the end, or the first failure */
    char err[CR_ERR_LEN];
};

/* ---- messages ----------------------------------------------------------------- */



/* Records the first failure of a source. Returns its status. */
static int cr_fail(cr_frame_source_t *s, int status, const char *fmt, ...)
{
    va_list ap;

    if (s->status == CR_OK) {
        s->status = status;
        va_start(ap, fmt);
        cr_capture_vmsg(s->err, sizeof(s->err), fmt, ap);
        va_end(ap);
    }
    return s->status;
}


static GstElement *cr_make(const char *factory, char *errbuf, size_t errlen)
{
    GstElement *e = gst_element_factory_make(factory, NULL);

    if (!e)
        cr_capture_msg(errbuf, errlen, "GStreamer element '%s' is not installed (it is in gst-plugins-%s)", factory,
               strcmp(factory, "multifilesrc") == 0 ? "good" : "base");
    return e;
}

/* Turns an ERROR message into one line and a status, using what the source
 * saw of the streams (no video, a stream without decoder). */
static int cr_explain(cr_frame_source_t *s, GstMessage *msg, char *buf, size_t len)
{
    GError *gerr = NULL;
    gchar *dbg = NULL;
    char unknown[sizeof(s->unknown)];
    bool linked, nmp;
    int st = CR_ERR_IO;

    gst_message_parse_error(msg, &gerr, &dbg);
    g_mutex_lock(&s->lock);
    linked = s->linked;
    nmp = s->no_more_pads;
    memcpy(unknown, s->unknown, sizeof(unknown));
    g_mutex_unlock(&s->lock);
    if (!linked && unknown[0] && strncmp(unknown, "video/", 6) == 0) {
        cr_capture_msg(buf, len, "%s: no decoder for its video (%s): decoder plugin missing (gst-libav, gst-plugins-good/bad/ugly)",
               s->name, unknown);
        st = CR_ERR_UNSUPPORTED;
    } else if (gerr && (g_error_matches(gerr, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN) ||
                        g_error_matches(gerr, GST_STREAM_ERROR, GST_STREAM_ERROR_CODEC_NOT_FOUND))) {
        cr_capture_msg(buf, len, "%s: decoder plugin missing: %s", s->name, gerr->message);
        st = CR_ERR_UNSUPPORTED;
    } else if (gerr && (g_error_matches(gerr, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND))) {
        if (s->device || gst_uri_is_valid(s->name)) /* a camera, a stream: what its source said */
            cr_capture_msg(buf, len, "%s: not found: %s", s->name, gerr->message);
        else
            cr_capture_msg(buf, len, "%s: no such file", s->name);
    } else if (gerr && g_error_matches(gerr, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ)) {
        cr_capture_msg(buf, len, "%s: cannot open: %s", s->name, gerr->message);
    } else if (gerr && g_error_matches(gerr, GST_STREAM_ERROR, GST_STREAM_ERROR_TYPE_NOT_FOUND)) {
        cr_capture_msg(buf, len, "%s: not a media file (unknown format or corrupt header)", s->name);
    } else if (!linked && (nmp || (gerr && g_error_matches(gerr, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED)))) {
        cr_capture_msg(buf, len, "%s: no video stream", s->name);
    } else if (gerr && (g_error_matches(gerr, GST_STREAM_ERROR, GST_STREAM_ERROR_DEMUX) ||
                        g_error_matches(gerr, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE) ||
                        g_error_matches(gerr, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT))) {
        cr_capture_msg(buf, len, "%s: corrupt or truncated media (%s: %s)", s->name, GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)),
               gerr->message);
    } else if (s->device) {
        cr_capture_msg(buf, len, "%s: cannot use the camera: %s", s->name, gerr ? gerr->message : "unknown error");
    } else {
        cr_capture_msg(buf, len, "%s: GStreamer error from %s: %s", s->name, GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)),
               gerr ? gerr->message : "unknown");
    }
    g_clear_error(&gerr);
    g_free(dbg);
    return st;
}

/* Takes a pending ERROR message off the bus (timeout 0: poll) and records
 * it as the source's failure. Returns true when there was one. */
static bool cr_bus_error(cr_frame_source_t *s, GstClockTime timeout)
{
    GstMessage *msg = gst_bus_timed_pop_filtered(s->bus, timeout, GST_MESSAGE_ERROR);
    char line[CR_ERR_LEN];
    int st;

    if (!msg)
        return false;
    st = cr_explain(s, msg, line, sizeof(line));
    gst_message_unref(msg);
    cr_fail(s, st, "%s", line);
    return true;
}

/* ---- dynamic linking ---------------------------------------------------------------- */

static const char *cr_format_name(cr_video_format_t f)
{
    return f == CR_VIDEO_RGB ? "RGB" : "I420";
}

/* pad-added of (uri)decodebin: links the first raw video pad to the sink,
 * directly when the decoder already gives the wanted format, otherwise
 * through videoconvert. Other pads stay unlinked. */
static void cr_on_pad_added(GstElement *dec, GstPad *pad, gpointer data)
{
    cr_frame_source_t *s = data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    GstStructure *st;
    const char *fmt;
    GstPad *sinkpad = NULL;
    bool direct;

    (void)dec;
    if (!caps)
        caps = gst_pad_query_caps(pad, NULL);
    if (!caps)
        return;
    st = gst_caps_get_structure(caps, 0);
    if (!st || !gst_structure_has_name(st, "video/x-raw")) {
        gst_caps_unref(caps);
        return;
    }
    fmt = gst_structure_get_string(st, "format");
    direct = fmt && strcmp(fmt, cr_format_name(s->format)) == 0 &&
             gst_caps_features_is_equal(gst_caps_get_features(caps, 0), GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);
    gst_caps_unref(caps);

    g_mutex_lock(&s->lock);
    if (s->linked) {
        g_mutex_unlock(&s->lock);
        return;
    }
    if (direct) {
        sinkpad = gst_element_get_static_pad(s->sink, "sink");
    } else if (gst_bin_add(GST_BIN(s->pipeline), s->convert)) { /* the bin takes its own ref */
        if (gst_element_link(s->convert, s->sink) && gst_element_sync_state_with_parent(s->convert))
            sinkpad = gst_element_get_static_pad(s->convert, "sink");
        s->converting = true;
    }
    if (sinkpad && gst_pad_link(pad, sinkpad) == GST_PAD_LINK_OK)
        s->linked = true;
    g_mutex_unlock(&s->lock);
    if (sinkpad)
        gst_object_unref(sinkpad);
}

static void cr_on_no_more_pads(GstElement *dec, gpointer data)
{
    cr_frame_source_t *s = data;

    (void)dec;
    g_mutex_lock(&s->lock);
    s->no_more_pads = true;
    g_mutex_unlock(&s->lock);
}

/* unknown-type: a stream decodebin has no decoder for. */
static void cr_on_unknown_type(GstElement *dec, GstPad *pad, GstCaps *caps, gpointer data)
{
    cr_frame_source_t *s = data;
    GstStructure *st = caps ? gst_caps_get_structure(caps, 0) : NULL;

    (void)dec;
    (void)pad;
    if (!st)
        return;
    g_mutex_lock(&s->lock);
    if (!s->unknown[0] || strncmp(gst_structure_get_name(st), "video/", 6) == 0)
        snprintf(s->unknown, sizeof(s->unknown), "%s", gst_structure_get_name(st));
    g_mutex_unlock(&s->lock);
}

/* ---- parameters --------------------------------------------------------------------- */

void cr_frame_source_params_defaults(cr_frame_source_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    p->format = CR_VIDEO_I420;
    p->queue_frames = 4;
    p->drop = 0;
    p->pull_timeout_s = 10.0;
    p->seq_fps_num = 30;
    p->seq_fps_den = 1;
}

static int cr_params_check(const cr_frame_source_params_t *p, char *errbuf, size_t errlen)
{
    if (p->format != CR_VIDEO_I420 && p->format != CR_VIDEO_RGB) {
        cr_capture_msg(errbuf, errlen, "unknown output format %d", (int)p->format);
        return CR_ERR_INVALID;
    }
    if (p->queue_frames < 1 || p->queue_frames > 256) {
        cr_capture_msg(errbuf, errlen, "queue of %d frames: need 1..256", p->queue_frames);
        return CR_ERR_INVALID;
    }
    if (!(p->pull_timeout_s > 0.0 && p->pull_timeout_s <= 3600.0)) {
        cr_capture_msg(errbuf, errlen, "pull timeout %g s: need (0, 3600]", p->pull_timeout_s);
        return CR_ERR_INVALID;
    }
    if (p->seq_fps_num <= 0 || p->seq_fps_den <= 0) {
        cr_capture_msg(errbuf, errlen, "image-sequence frame rate %d/%d: need positive numbers", p->seq_fps_num,
               p->seq_fps_den);
        return CR_ERR_INVALID;
    }
    return CR_OK;
}

/* ---- ISO BMFF (MP4/MOV) pre-check ------------------------------------------------------ */

static uint64_t cr_be(const unsigned char *b, int n)
{
    uint64_t v = 0;
    int i;

    for (i = 0; i < n; i++)
        v = v << 8 | b[i];
    return v;
}

/* For a file that starts with an 'ftyp' box: walks the top-level boxes and
 * fails when one runs past the end of the file or there is no 'moov' (a
 * truncated recording; qtdemux's own error can be lost in decodebin, which
 * would leave only the preroll timeout). Other files pass unchecked. */
static int cr_check_isobmff(const char *path, char *errbuf, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    unsigned char h[16];
    uint64_t pos = 0, size, end;
    bool moov = false, first = true;
    int st = CR_OK;

    if (!f)
        return CR_OK; /* GStreamer will say why */
    if (fseeko(f, 0, SEEK_END) != 0 || ftello(f) < 0) {
        fclose(f);
        return CR_OK;
    }
    end = (uint64_t)ftello(f);
    while (pos + 8 <= end) {
        if (fseeko(f, (off_t)pos, SEEK_SET) != 0 || fread(h, 1, 8, f) != 8)
            break;
        if (first && memcmp(h + 4, "ftyp", 4) != 0)
            break; /* not ISO BMFF: unchecked */
        first = false;
        size = cr_be(h, 4);
        if (size == 1) {
            if (fread(h + 8, 1, 8, f) != 8)
                break;
            size = cr_be(h + 8, 8);
        } else if (size == 0) {
            size = end - pos;
        }
        if (memcmp(h + 4, "moov", 4) == 0)
            moov = true;
        if (size < 8 || pos + size > end) {
            if (!moov) {
                cr_capture_msg(errbuf, errlen, "%s: truncated MP4/MOV: the '%.4s' box runs past the end of the file and "
                       "there is no 'moov' index (recording not finished?)", path, (const char *)h + 4);
                st = CR_ERR_IO;
            }
            break;
        }
        pos += size;
    }
    if (st == CR_OK && !first && !moov && pos >= end) {
        cr_capture_msg(errbuf, errlen, "%s: incomplete MP4/MOV: no 'moov' index", path);
        st = CR_ERR_IO;
    }
    fclose(f);
    return st;
}

/* ---- source --------------------------------------------------------------------------- */

static void cr_release(cr_frame_source_t *s)
{
    if (s->mapped) {
        gst_video_frame_unmap(&s->vf);
        s->mapped = false;
    }
    if (s->sample) {
        gst_sample_unref(s->sample);
        s->sample = NULL;
    }
}

void cr_frame_source_close(cr_frame_source_t *s)
{
    if (!s)
        return;
    cr_release(s);
    if (s->pipeline)
        gst_element_set_state(s->pipeline, GST_STATE_NULL);
    if (s->bus)
        gst_object_unref(s->bus);
    if (s->sink)
        gst_object_unref(s->sink);
    if (s->convert)
        gst_object_unref(s->convert);
    if (s->pipeline)
        gst_object_unref(s->pipeline);
    g_mutex_clear(&s->lock);
    free(s->name);
    free(s);
}

/* Media type of an image sequence from its extension, NULL to typefind. */
static const char *cr_seq_caps(const char *pattern)
{
    const char *dot = strrchr(pattern, '.');

    if (!dot)
        return NULL;
    if (g_ascii_strcasecmp(dot, ".png") == 0)
        return "image/png";
    if (g_ascii_strcasecmp(dot, ".jpg") == 0 || g_ascii_strcasecmp(dot, ".jpeg") == 0)
        return "image/jpeg";
    return NULL;
}

/* deep-element-added of the pipeline: a decoder with a "max-threads"
 * property (the libav ones) gets as many threads as this process may run
 * on at once. Its own "auto" counts every processor online, so a process
 * pinned to one core (taskset) would decode with a second thread that only
 * adds switching. One with "output-corrupt" (the libav ones) gives no
 * frame it knows is corrupt. */
static void cr_on_deep_element_added(GstBin *bin, GstBin *sub, GstElement *el, gpointer data)
{
    GParamSpec *ps = g_object_class_find_property(G_OBJECT_GET_CLASS(el), "max-threads");
    cpu_set_t set;

    (void)bin;
    (void)sub;
    (void)data;
    CPU_ZERO(&set);
    if (ps && ps->value_type == G_TYPE_INT && sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        g_object_set(el, "max-threads", (gint)CPU_COUNT(&set), NULL);
    /* a frame the decoder knows is corrupt (a stream joined between key
     * frames, a packet lost) is dropped, not judged: its time is a gap */
    ps = g_object_class_find_property(G_OBJECT_GET_CLASS(el), "output-corrupt");
    if (ps && ps->value_type == G_TYPE_BOOLEAN)
        g_object_set(el, "output-corrupt", FALSE, NULL);
}

/* source-setup of uridecodebin: a UDP source reads into a kernel buffer of
 * 4 MB (the system's default, about 200 kB, overflows in the burst of a
 * key frame while the decoder is busy, and the lost packets leave frames
 * broken at the bottom; the kernel caps it at net.core.rmem_max). */
static void cr_on_source_setup(GstElement *dec, GstElement *src, gpointer data)
{
    GParamSpec *ps = g_object_class_find_property(G_OBJECT_GET_CLASS(src), "buffer-size");
    GstElementFactory *f = gst_element_get_factory(src);

    (void)dec;
    (void)data;
    if (ps && ps->value_type == G_TYPE_INT && f && strcmp(GST_OBJECT_NAME(f), "udpsrc") == 0)
        g_object_set(src, "buffer-size", (gint)(4 << 20), NULL);
}

/* Builds the pipeline (source part, sink, converter); nothing linked yet
 * beyond the static part. */
static int cr_build(cr_frame_source_t *s, const char *what, const cr_frame_source_params_t *p, bool seq)
{
    GstElement *dec = NULL, *msrc = NULL;
    GstCaps *caps;
    char *uri = NULL;

    s->pipeline = gst_pipeline_new("cr-frame-source");
    s->sink = cr_make("appsink", s->err, sizeof(s->err));
    s->convert = cr_make("videoconvert", s->err, sizeof(s->err));
    if (!s->pipeline || !s->sink || !s->convert)
        return s->pipeline ? CR_ERR_UNSUPPORTED : CR_ERR_NOMEM;
    gst_object_ref_sink(s->convert); /* ours; the pipeline takes its own ref if it is inserted */
    gst_bin_add(GST_BIN(s->pipeline), gst_object_ref(s->sink)); /* one ref ours, one the pipeline's */
    if (seq) {
        msrc = cr_make("multifilesrc", s->err, sizeof(s->err));
        dec = cr_make("decodebin", s->err, sizeof(s->err));
        if (!msrc || !dec) {
            if (msrc)
                gst_object_unref(gst_object_ref_sink(msrc));
            if (dec)
                gst_object_unref(gst_object_ref_sink(dec));
            return CR_ERR_UNSUPPORTED;
        }
        g_object_set(msrc, "location", what, "index", 0, NULL);
        if (cr_seq_caps(what)) {
            caps = gst_caps_new_simple(cr_seq_caps(what), "framerate", GST_TYPE_FRACTION, p->seq_fps_num,
                                       p->seq_fps_den, NULL);
            g_object_set(msrc, "caps", caps, NULL);
            gst_caps_unref(caps);
        }
        gst_bin_add_many(GST_BIN(s->pipeline), msrc, dec, NULL);
        if (!gst_element_link(msrc, dec)) {
            cr_capture_msg(s->err, sizeof(s->err), "cannot link multifilesrc to decodebin");
            return CR_ERR_IO;
        }
    } else {
        dec = cr_make("uridecodebin", s->err, sizeof(s->err));
        if (!dec)
            return CR_ERR_UNSUPPORTED;
        if (gst_uri_is_valid(what)) {
            uri = g_strdup(what);
        } else {
            GError *gerr = NULL;

            uri = gst_filename_to_uri(what, &gerr);
            if (!uri) {
                cr_capture_msg(s->err, sizeof(s->err), "%s: cannot make a URI: %s", what, gerr ? gerr->message : "?");
                g_clear_error(&gerr);
                gst_object_unref(gst_object_ref_sink(dec));
                return CR_ERR_INVALID;
            }
        }
        g_object_set(dec, "uri", uri, NULL);
        g_free(uri);
        g_signal_connect(dec, "source-setup", G_CALLBACK(cr_on_source_setup), NULL);
        gst_bin_add(GST_BIN(s->pipeline), dec);
    }
    g_signal_connect(s->pipeline, "deep-element-added", G_CALLBACK(cr_on_deep_element_added), NULL);
    g_signal_connect(dec, "pad-added", G_CALLBACK(cr_on_pad_added), s);
    g_signal_connect(dec, "no-more-pads", G_CALLBACK(cr_on_no_more_pads), s);
    g_signal_connect(dec, "unknown-type", G_CALLBACK(cr_on_unknown_type), s);

    caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, cr_format_name(s->format), NULL);
    g_object_set(s->sink, "caps", caps, "sync", FALSE, "max-buffers", (guint)p->queue_frames, "drop",
                 p->drop ? TRUE : FALSE, "emit-signals", FALSE, NULL);
    gst_caps_unref(caps);
    s->bus = gst_element_get_bus(s->pipeline);
    return s->bus ? CR_OK : CR_ERR_IO;
}

/* Sets the pipeline playing; the source's failure when it cannot. */
static int cr_play(cr_frame_source_t *s)
{
    if (gst_element_set_state(s->pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE)
        return CR_OK;
    if (!cr_bus_error(s, 0))
        cr_fail(s, CR_ERR_IO, "%s: cannot start playing", s->name);
    return s->status;
}

/* Waits (bounded) for the pipeline to preroll, then reads caps and duration. */
static int cr_preroll(cr_frame_source_t *s)
{
    const GstStateChangeReturn sr = gst_element_set_state(s->pipeline, GST_STATE_PAUSED);
    const bool live = sr == GST_STATE_CHANGE_NO_PREROLL; /* a camera, a network stream */
    GstClockTime waited = 0;
    GstPad *pad;
    GstCaps *caps;
    GstVideoInfo vi;
    gint64 dur = -1;

    if (sr == GST_STATE_CHANGE_FAILURE) {
        if (!cr_bus_error(s, 0))
            cr_fail(s, CR_ERR_IO, "%s: cannot start decoding", s->name);
        return s->status;
    }
    while (sr == GST_STATE_CHANGE_ASYNC) {
        GstMessage *msg = gst_bus_timed_pop_filtered(s->bus, CR_POLL, GST_MESSAGE_ERROR | GST_MESSAGE_ASYNC_DONE);

        if (msg) {
            bool err = GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR;

            if (err) {
                char line[CR_ERR_LEN];
                int st = cr_explain(s, msg, line, sizeof(line));

                cr_fail(s, st, "%s", line);
            }
            gst_message_unref(msg);
            if (err)
                return s->status;
            break;
        }
        g_mutex_lock(&s->lock);
        if (s->no_more_pads && !s->linked) {
            bool unknown_video = strncmp(s->unknown, "video/", 6) == 0;
            char caps_name[sizeof(s->unknown)];

            memcpy(caps_name, s->unknown, sizeof(caps_name));
            g_mutex_unlock(&s->lock);
            if (unknown_video)
                return cr_fail(s, CR_ERR_UNSUPPORTED,
                               "%s: no decoder for its video (%s): decoder plugin missing "
                               "(gst-libav, gst-plugins-good/bad/ugly)",
                               s->name, caps_name);
            return cr_fail(s, CR_ERR_IO, "%s: no video stream", s->name);
        }
        g_mutex_unlock(&s->lock);
        waited += CR_POLL;
        if (waited >= s->timeout)
            return cr_fail(s, CR_ERR_IO, "%s: no video within %.1f s", s->name, (double)s->timeout / GST_SECOND);
    }
    if (live) {
        /* nothing flows before PLAYING: wait there (bounded) for the first
         * frame's format */
        if (cr_play(s) != CR_OK)
            return s->status;
        pad = gst_element_get_static_pad(s->sink, "sink");
        while (pad && !gst_pad_has_current_caps(pad)) {
            if (cr_bus_error(s, CR_POLL)) {
                gst_object_unref(pad);
                return s->status;
            }
            waited += CR_POLL;
            if (waited >= s->timeout) {
                gst_object_unref(pad);
                return cr_fail(s, CR_ERR_IO, "%s: live source sent no video within %.1f s", s->name,
                               (double)s->timeout / GST_SECOND);
            }
        }
        if (pad)
            gst_object_unref(pad);
    }
    if (cr_bus_error(s, 0))
        return s->status;
    pad = gst_element_get_static_pad(s->sink, "sink");
    caps = pad ? gst_pad_get_current_caps(pad) : NULL;
    if (pad)
        gst_object_unref(pad);
    if (!caps) {
        bool linked;

        g_mutex_lock(&s->lock);
        linked = s->linked;
        g_mutex_unlock(&s->lock);
        return cr_fail(s, CR_ERR_IO, "%s: %s", s->name, linked ? "the video stream has no frames" : "no video stream");
    }
    if (!gst_video_info_from_caps(&vi, caps)) {
        gst_caps_unref(caps);
        return cr_fail(s, CR_ERR_IO, "%s: cannot read the video format", s->name);
    }
    gst_caps_unref(caps);
    s->width = GST_VIDEO_INFO_WIDTH(&vi);
    s->height = GST_VIDEO_INFO_HEIGHT(&vi);
    s->fps_num = GST_VIDEO_INFO_FPS_N(&vi);
    s->fps_den = GST_VIDEO_INFO_FPS_D(&vi);
    if (s->fps_num <= 0 || s->fps_den <= 0) {
        s->fps_num = 0;
        s->fps_den = 1;
    }
    s->duration_s = gst_element_query_duration(s->pipeline, GST_FORMAT_TIME, &dur) && dur >= 0
                        ? (double)dur / GST_SECOND
                        : -1.0;
    return live ? CR_OK : cr_play(s);
}

int cr_frame_source_open(const char *path_or_uri, const cr_frame_source_params_t *p, cr_frame_source_t **out,
                         char *errbuf, size_t errlen)
{
    cr_frame_source_params_t def;
    cr_frame_source_t *s;
    struct stat sb;
    char *dev_uri;
    bool seq, is_uri, device;
    int st;

    if (!path_or_uri || !*path_or_uri || !out) {
        cr_capture_msg(errbuf, errlen, "missing path or output pointer");
        return CR_ERR_INVALID;
    }
    if (!p) {
        cr_frame_source_params_defaults(&def);
        p = &def;
    }
    st = cr_params_check(p, errbuf, errlen);
    if (st != CR_OK)
        return st;
    st = cr_capture_gst_init(errbuf, errlen);
    if (st != CR_OK)
        return st;
    is_uri = gst_uri_is_valid(path_or_uri);
    device = !is_uri && stat(path_or_uri, &sb) == 0 && S_ISCHR(sb.st_mode); /* a camera: v4l2src */
    seq = !is_uri && !device && strchr(path_or_uri, '%') != NULL;
    if (!is_uri && !seq && access(path_or_uri, R_OK) != 0) {
        if (errno == ENOENT)
            cr_capture_msg(errbuf, errlen, "%s: no such file", path_or_uri);
        else
            cr_capture_msg(errbuf, errlen, "%s: cannot read: %s", path_or_uri, strerror(errno));
        return CR_ERR_IO;
    }
    if (!is_uri && !seq && !device) {
        st = cr_check_isobmff(path_or_uri, errbuf, errlen);
        if (st != CR_OK)
            return st;
    }
    if (seq) {
        char *first = g_strdup_printf(path_or_uri, 0); /* the pattern is the caller's printf format */

        if (!first || access(first, R_OK) != 0) {
            cr_capture_msg(errbuf, errlen, "%s: no such file (first image %s)", path_or_uri, first ? first : "?");
            g_free(first);
            return CR_ERR_IO;
        }
        g_free(first);
    }
    s = calloc(1, sizeof(*s));
    if (!s) {
        cr_capture_msg(errbuf, errlen, "out of memory");
        return CR_ERR_NOMEM;
    }
    s->device = device;
    g_mutex_init(&s->lock);
    s->format = p->format;
    s->timeout = (GstClockTime)(p->pull_timeout_s * GST_SECOND);
    s->stop = p->stop;
    s->duration_s = -1.0;
    s->name = strdup(path_or_uri);
    if (!s->name) {
        cr_frame_source_close(s);
        cr_capture_msg(errbuf, errlen, "out of memory");
        return CR_ERR_NOMEM;
    }
    dev_uri = device ? g_strconcat("v4l2://", path_or_uri, NULL) : NULL; /* GLib aborts rather than fail */
    st = cr_build(s, dev_uri ? dev_uri : path_or_uri, p, seq);
    g_free(dev_uri);
    if (st == CR_OK)
        st = cr_preroll(s);
    if (st != CR_OK) {
        cr_capture_msg(errbuf, errlen, "%s", s->err);
        cr_frame_source_close(s);
        return st;
    }
    *out = s;
    return CR_OK;
}

void cr_frame_source_info(const cr_frame_source_t *s, int *width, int *height, int *fps_num, int *fps_den,
                          double *duration_s)
{
    if (width)
        *width = s ? s->width : 0;
    if (height)
        *height = s ? s->height : 0;
    if (fps_num)
        *fps_num = s ? s->fps_num : 0;
    if (fps_den)
        *fps_den = s ? s->fps_den : 1;
    if (duration_s)
        *duration_s = s ? s->duration_s : -1.0;
}

/* End of stream: an error if it came before the announced duration. */
static int cr_end(cr_frame_source_t *s)
{
    double frame_s = s->fps_num > 0 ? (double)s->fps_den / s->fps_num : 0.0;

    if (cr_bus_error(s, 0))
        return s->status;
    if (s->duration_s > 0 && s->frames > 0 && s->last_end_s + CR_EARLY_SLACK_S + frame_s < s->duration_s)
        return cr_fail(s, CR_ERR_IO, "%s: the stream ended early at %.3f s of %.3f s (file truncated?)", s->name,
                       s->last_end_s, s->duration_s);
    if (s->status == CR_OK)
        s->status = 1; /* ended */
    return 0;
}

int cr_frame_source_next(cr_frame_source_t *s, cr_frame_t *frame)
{
    GstClockTime waited = 0;
    GstBuffer *buf;
    GstCaps *caps;
    GstVideoInfo vi;
    const GstSegment *seg;
    GstClockTime pts;
    int i;

    if (!s || !frame)
        return CR_ERR_INVALID;
    cr_release(s);
    if (s->status == 1)
        return 0;
    if (s->status != CR_OK)
        return s->status;
    for (;;) {
        if (s->stop && *s->stop) {
            s->status = 1; /* stopped by the caller: an end, not an error */
            return 0;
        }
        s->sample = gst_app_sink_try_pull_sample(GST_APP_SINK(s->sink), CR_POLL);
        if (s->sample)
            break;
        if (gst_app_sink_is_eos(GST_APP_SINK(s->sink)))
            return cr_end(s);
        if (cr_bus_error(s, 0))
            return s->status;
        waited += CR_POLL;
        if (waited >= s->timeout)
            return cr_fail(s, CR_ERR_IO, "%s: no frame within %.1f s (stalled after frame %llu)", s->name,
                           (double)s->timeout / GST_SECOND, (unsigned long long)s->frames);
    }
    buf = gst_sample_get_buffer(s->sample);
    caps = gst_sample_get_caps(s->sample);
    if (!buf || !caps || !gst_video_info_from_caps(&vi, caps)) {
        cr_release(s);
        return cr_fail(s, CR_ERR_IO, "%s: frame %llu has no buffer or format", s->name, (unsigned long long)s->frames);
    }
    if (!gst_video_frame_map(&s->vf, &vi, buf, GST_MAP_READ)) {
        cr_release(s);
        return cr_fail(s, CR_ERR_IO, "%s: cannot map frame %llu", s->name, (unsigned long long)s->frames);
    }
    s->mapped = true;
    memset(frame, 0, sizeof(*frame));
    frame->width = GST_VIDEO_FRAME_WIDTH(&s->vf);
    frame->height = GST_VIDEO_FRAME_HEIGHT(&s->vf);
    frame->format = s->format;
    for (i = 0; i < (s->format == CR_VIDEO_I420 ? 3 : 1); i++) {
        frame->planes[i] = GST_VIDEO_FRAME_PLANE_DATA(&s->vf, i);
        frame->strides[i] = GST_VIDEO_FRAME_PLANE_STRIDE(&s->vf, i);
    }
    pts = GST_BUFFER_PTS(buf);
    seg = gst_sample_get_segment(s->sample);
    if (GST_CLOCK_TIME_IS_VALID(pts)) {
        guint64 t = seg && seg->format == GST_FORMAT_TIME ? gst_segment_to_stream_time(seg, GST_FORMAT_TIME, pts)
                                                          : pts;

        frame->pts_s = GST_CLOCK_TIME_IS_VALID(t) ? (double)t / GST_SECOND : (double)pts / GST_SECOND;
        s->last_end_s = frame->pts_s + (GST_BUFFER_DURATION_IS_VALID(buf)
                                            ? (double)GST_BUFFER_DURATION(buf) / GST_SECOND
                                            : (s->fps_num > 0 ? (double)s->fps_den / s->fps_num : 0.0));
    } else {
        frame->pts_s = -1.0;
    }
    frame->index = s->frames++;
    return 1;
}

const char *cr_frame_source_error(const cr_frame_source_t *s)
{
    return s ? s->err : "no source";
}
