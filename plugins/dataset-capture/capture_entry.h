/*
 * capture_entry.h - one line of a SageMaker Data Capture file, decoded.
 *
 * The line format is the one the AWS documentation gives ("Capture data from
 * real-time endpoint"): captureData.endpointInput / endpointOutput with
 * observedContentType, mode, data and encoding (JSON, CSV or BASE64),
 * eventMetadata with eventId, inferenceTime (ISO-8601, whole seconds) and
 * inferenceId when the caller gave one, and eventVersion.
 */
#ifndef CAPTURE_ENTRY_H
#define CAPTURE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

typedef struct capture_entry {
    int64_t time_ms;  /**< inferenceTime, ms since the epoch */
    int whole_second; /**< inferenceTime had no fraction (spread within its second) */
    char *body;       /**< the request body as sent, NUL-terminated */
    size_t body_len;
    int64_t body_budget;  /**< the body's max-tokens field, 0 if none */
    int64_t output_len;   /**< tokens of the captured output, -1 when none was captured */
    int64_t input_tokens; /**< estimated from the body's prompt text */
    char variant[128];    /**< from the file's place in the layout, "" if unknown */
} capture_entry;

/**
 * Decode one line. Returns 0, or -1 with a message in why (no file or line: the caller adds
 * them). `truncated_line`: the line is the last of its file and has no newline.
 */
int capture_entry_parse(const char *line, size_t len, int truncated_line, capture_entry *out,
                        char *why, size_t why_size);

void capture_entry_clear(capture_entry *e);

/** RFC 3339 "2026-12-02T01:02:03Z" (fraction, offset or none = UTC, a space for T) -> ms;
 * *whole says whether there was no fraction. Returns 0 or -1. */
int capture_parse_time(const char *s, int64_t *ms, int *whole);

#endif
