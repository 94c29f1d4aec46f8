/*
 * cr_capture_internal.h - helpers shared by the capture module's GStreamer
 * sources and writers. Not a public header.
 */
#ifndef CR_CAPTURE_INTERNAL_H
#define CR_CAPTURE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

/* vsnprintf into buf when buf is not NULL and len > 0. */
void cr_capture_vmsg(char *buf, size_t len, const char *fmt, va_list ap);
void cr_capture_msg(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* gst_init_check once per process (GStreamer makes repeated calls cheap).
 * Returns 0, or CR_ERR_UNSUPPORTED with the reason in errbuf. */
int cr_capture_gst_init(char *errbuf, size_t errlen);

#endif /* CR_CAPTURE_INTERNAL_H */
