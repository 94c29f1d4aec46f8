/*
 * cr_jsonl.h - the event stream as JSON Lines (SPEC §3, docs/EVENTS.md):
 * a strict reader and a writer that never leaves a half-written file.
 *
 * Reader: every malformed line is an error "FILE:LINE: what is wrong".
 * Lines of unknown type are skipped (the stream may be extended); unknown
 * fields are ignored (SPEC §3). Blank lines are skipped.
 *
 * Writer: to a file it writes PATH.tmp-XXXXXX next to PATH and renames it
 * over PATH on commit; abort removes the temporary, so PATH is either the
 * complete old file or the complete new one.
 * "-" means stdout (no atomicity).
 *
 * Objects are not thread-safe; use one per thread.
 */
#ifndef CR_JSONL_H
#define CR_JSONL_H

#include <stddef.h>

#include "cr_event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cr_jsonl_reader cr_jsonl_reader_t;
typedef struct cr_jsonl_writer cr_jsonl_writer_t;

/* A buffer this long holds any line cr_jsonl_format writes (the longest
 * possible event, a ruling with every array full and every string at its
 * capacity of escaped control characters, is under 10 KB). */
#define CR_JSONL_LINE_MAX 16384

/* Parses one line (without its newline; a trailing '\r' is allowed) into
 * *ev; exactly len bytes are read (line need not be NUL-terminated).
 * is_first says whether this is the stream's first non-blank line, which
 * must be the session line (a line of unknown type there is an error too).
 * Session lines are the only ones allowed without "t".
 * Returns 0 on success, 1 when the line is blank or of an unknown type
 * (nothing to do; *ev unspecified), CR_ERR_PARSE with a message in err
 * (no "FILE:LINE:" prefix; the field is named, e.g.
 * `cushion: unknown rail "top"`) otherwise. Thread-safe. */
int cr_jsonl_parse_line(const char *line, size_t len, int is_first, cr_event_t *ev, char *err, size_t err_len);

/* Opens path for reading ("-" = stdin). Returns 0, CR_ERR_NOMEM, or
 * CR_ERR_IO (errno says why: ENOENT, EACCES, EISDIR...), CR_ERR_INVALID for
 * a NULL argument. On failure *out is left untouched. */
int cr_jsonl_reader_open(const char *path, cr_jsonl_reader_t **out);
/* Reads the next event. Returns 1 when *ev was filled, 0 at end of file,
 * CR_ERR_PARSE, CR_ERR_IO or CR_ERR_NOMEM on failure (see
 * cr_jsonl_reader_error). A stream with no session line at all (an empty
 * file) is CR_ERR_PARSE at its end; so is a line over 1 MiB. */
int cr_jsonl_reader_next(cr_jsonl_reader_t *r, cr_event_t *ev);
/* "FILE:LINE: what is wrong" for the last failure; "" when none. Valid until
 * the next call on r. */
const char *cr_jsonl_reader_error(const cr_jsonl_reader_t *r);
/* 1-based number of the last line read. */
long cr_jsonl_reader_line(const cr_jsonl_reader_t *r);
/* Closes the file (not stdin) and frees r; accepts NULL. */
void cr_jsonl_reader_destroy(cr_jsonl_reader_t *r);

/* Formats *ev as one JSON object without a newline into buf (NUL-terminated).
 * Times are written with 1 us resolution, lengths with 0.01 mm, confidence
 * with 0.001. Returns the length, or CR_ERR_FULL if cap is too small,
 * CR_ERR_INVALID for an event that cannot be written (a value the reader
 * would refuse: bad id, NaN where a number is required, unknown enum, string
 * not NUL-terminated or not UTF-8...), CR_ERR_NOMEM. What is written reads
 * back (cr_jsonl_parse_line) to an event that formats to the same line. */
int cr_jsonl_format(const cr_event_t *ev, char *buf, size_t cap);
/* The same, with a message saying what is wrong in err (may be NULL). */
int cr_jsonl_format_msg(const cr_event_t *ev, char *buf, size_t cap, char *err, size_t err_len);

/* Opens path for writing ("-" = stdout): creates PATH.tmp-XXXXXX with the
 * permissions of the file it will replace (0644 for a new one). Returns 0,
 * CR_ERR_NOMEM or CR_ERR_IO (errno says why, e.g. ENOENT for a directory
 * that does not exist, EISDIR when path is a directory), CR_ERR_INVALID for
 * a NULL or empty path; on failure *out is untouched and nothing is left
 * behind. */
int cr_jsonl_writer_open(const char *path, cr_jsonl_writer_t **out);
/* Writes one event and a newline (to stdout: flushed at once). Returns 0,
 * CR_ERR_INVALID or CR_ERR_NOMEM (nothing written; the writer stays usable),
 * or CR_ERR_IO (the writer has failed; commit will too). */
int cr_jsonl_writer_write(cr_jsonl_writer_t *w, const cr_event_t *ev);
/* Flushes, and for a file syncs and renames the temporary onto the path.
 * Returns 0 or CR_ERR_IO (the temporary is removed; errno says why, since w
 * is gone). A write that failed earlier makes the commit fail. Frees w. */
int cr_jsonl_writer_commit(cr_jsonl_writer_t *w);
/* Discards everything written (removes the temporary) and frees w; accepts
 * NULL. */
void cr_jsonl_writer_abort(cr_jsonl_writer_t *w);
/* Message for the last failure of w. */
const char *cr_jsonl_writer_error(const cr_jsonl_writer_t *w);

#ifdef __cplusplus
}
#endif

#endif /* CR_JSONL_H */
