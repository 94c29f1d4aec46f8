/*
 * fuzz_jsonl.c - libFuzzer harness for the event stream reader and writer.
 *
 * Each input is one line. Besides crashes, leaks and undefined behaviour
 * (ASan, UBSan), it checks the contract of cr_jsonl.h:
 *   - a refused line has a message, without control characters;
 *   - as the first line, only a session line is accepted;
 *   - a line that parses can be formatted, the formatted line parses, and
 *     formatting that again gives the very same line.
 * Any breach calls abort(), which libFuzzer reports as a crash.
 *
 * Build: CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCR_FUZZ=ON
 * Run:   build-fuzz/fuzz/fuzz_jsonl -max_len=4096 CORPUS_DIR fuzz/corpus
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_jsonl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(int rc, const char *err)
{
    const char *p;

    if (rc >= 0)
        return;
    if (rc != CR_ERR_PARSE || err[0] == '\0') {
        fprintf(stderr, "refused with status %d and message \"%s\"\n", rc, err);
        abort();
    }
    for (p = err; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7F) {
            fprintf(stderr, "control character in message \"%s\"\n", err);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* static: the events are a few KB each, the lines up to 16 KB */
    static cr_event_t ev;
    static cr_event_t back;
    static char line1[CR_JSONL_LINE_MAX];
    static char line2[CR_JSONL_LINE_MAX];
    const char *text = (const char *)data;
    char err[512];
    int rc;
    int n1;
    int n2;

    rc = cr_jsonl_parse_line(text, size, 1, &ev, err, sizeof(err));
    check_message(rc, err);
    if (rc == 0 && ev.type != CR_EV_SESSION) {
        fprintf(stderr, "first line accepted as %s\n", cr_event_type_name(ev.type));
        abort();
    }

    rc = cr_jsonl_parse_line(text, size, 0, &ev, err, sizeof(err));
    check_message(rc, err);
    if (rc != 0)
        return 0;

    n1 = cr_jsonl_format_msg(&ev, line1, sizeof(line1), err, sizeof(err));
    if (n1 < 0) {
        fprintf(stderr, "read but not written (%d): %s\n", n1, err);
        abort();
    }
    rc = cr_jsonl_parse_line(line1, (size_t)n1, 0, &back, err, sizeof(err));
    if (rc != 0) {
        fprintf(stderr, "written but not read back (%d): %s\n  %s\n", rc, err, line1);
        abort();
    }
    n2 = cr_jsonl_format_msg(&back, line2, sizeof(line2), err, sizeof(err));
    if (n2 != n1 || memcmp(line1, line2, (size_t)n1 + 1) != 0) {
        fprintf(stderr, "round trip differs:\n  %s\n  %s\n", line1, n2 >= 0 ? line2 : err);
        abort();
    }
    return 0;
}
