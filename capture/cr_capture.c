/*
 * cr_capture.c - helpers shared by the capture module (cr_capture_internal.h).
 */
#include <stdio.h>

#include <gst/gst.h>

#include "cr_capture_internal.h"
#include "cr_types.h"

void cr_capture_vmsg(char *buf, size_t len, const char *fmt, va_list ap)
{
    if (buf && len > 0)
        vsnprintf(buf, len, fmt, ap);
}

void cr_capture_msg(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cr_capture_vmsg(buf, len, fmt, ap);
    va_end(ap);
}

int cr_capture_gst_init(char *errbuf, size_t errlen)
{
    GError *gerr = NULL;

    if (!gst_init_check(NULL, NULL, &gerr)) {
        cr_capture_msg(errbuf, errlen, "cannot initialise GStreamer: %s", gerr ? gerr->message : "unknown error");
        g_clear_error(&gerr);
        return CR_ERR_UNSUPPORTED;
    }
    return CR_OK;
}
