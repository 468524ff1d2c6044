/*
 * eventstream.c - application/vnd.amazon.eventstream encoder and incremental decoder.
 *
 * The decoder keeps one growable byte buffer and one growable header array
 * per stream; messages are handed out as views into them, so a long stream
 * allocates only while the buffer grows to its largest message. Every read
 * of untrusted bytes is bounds-checked against the lengths already proven by
 * the CRCs, and a failure is sticky: after a bad checksum nothing that
 * follows can be trusted.
 */
#include <smfw/crc32.h>
#include <smfw/eventstream.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ES_MIN_BUFFER 4096u

static uint32_t es_load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint16_t es_load_be16(const uint8_t *p) {
    return (uint16_t)((unsigned)p[0] << 8 | (unsigned)p[1]);
}

static uint64_t es_load_be64(const uint8_t *p) {
    return (uint64_t)es_load_be32(p) << 32 | es_load_be32(p + 4);
}

static uint8_t *es_store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
    return p + 4;
}

static uint8_t *es_store_be16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return p + 2;
}

static uint8_t *es_store_be64(uint8_t *p, uint64_t v) {
    es_store_be32(p, (uint32_t)(v >> 32));
    return es_store_be32(p + 4, (uint32_t)v);
}

/* Fixed value size of a header type, -1 for the length-prefixed ones, -2 for unknown. */
static int es_fixed_value_size(unsigned type) {
    switch (type) {
    case SMFW_EVENTSTREAM_BOOL_TRUE:
    case SMFW_EVENTSTREAM_BOOL_FALSE:
        return 0;
    case SMFW_EVENTSTREAM_BYTE:
        return 1;
    case SMFW_EVENTSTREAM_INT16:
        return 2;
    case SMFW_EVENTSTREAM_INT32:
        return 4;
    case SMFW_EVENTSTREAM_INT64:
    case SMFW_EVENTSTREAM_TIMESTAMP:
        return 8;
    case SMFW_EVENTSTREAM_UUID:
        return 16;
    case SMFW_EVENTSTREAM_BYTES:
    case SMFW_EVENTSTREAM_STRING:
        return -1;
    default:
        return -2;
    }
}

/* A header name fit for an error message: quoted when printable, else its index. */
static void es_describe_name(char *out, size_t out_size, const uint8_t *name, size_t len,
                             size_t index) {
    int printable = len > 0 && len <= 64;
    for (size_t i = 0; printable && i < len; i++)
        if (name[i] < 0x20 || name[i] >= 0x7f || name[i] == '"') printable = 0;
    if (printable)
        snprintf(out, out_size, "header \"%.*s\"", (int)len, (const char *)name);
    else
        snprintf(out, out_size, "header #%zu", index + 1);
}

/* ---- Decoder ---------------------------------------------------------------------------- */

const char *smfw_eventstream_fault_name(smfw_eventstream_fault fault) {
    switch (fault) {
    case SMFW_EVENTSTREAM_FAULT_NONE:
        return "none";
    case SMFW_EVENTSTREAM_FAULT_PRELUDE_CRC:
        return "prelude checksum mismatch";
    case SMFW_EVENTSTREAM_FAULT_MESSAGE_CRC:
        return "message checksum mismatch";
    case SMFW_EVENTSTREAM_FAULT_TOO_LARGE:
        return "frame too large";
    case SMFW_EVENTSTREAM_FAULT_BAD_LENGTH:
        return "invalid frame length";
    case SMFW_EVENTSTREAM_FAULT_BAD_HEADERS:
        return "malformed headers";
    case SMFW_EVENTSTREAM_FAULT_TRUNCATED:
        return "truncated";
    case SMFW_EVENTSTREAM_FAULT_NOMEM:
        return "out of memory";
    }
    return "unknown";
}

void smfw_eventstream_decoder_init(smfw_eventstream_decoder *dec,
                                   const smfw_eventstream_limits *limits) {
    memset(dec, 0, sizeof *dec);
    if (limits) dec->limits = *limits;
    if (!dec->limits.max_message_length)
        dec->limits.max_message_length = SMFW_EVENTSTREAM_DEFAULT_MAX_MESSAGE_LENGTH;
    if (!dec->limits.max_headers_length)
        dec->limits.max_headers_length = SMFW_EVENTSTREAM_DEFAULT_MAX_HEADERS_LENGTH;
    if (!dec->limits.max_header_count)
        dec->limits.max_header_count = SMFW_EVENTSTREAM_DEFAULT_MAX_HEADER_COUNT;
}

void smfw_eventstream_decoder_cleanup(smfw_eventstream_decoder *dec) {
    if (!dec) return;
    free(dec->buf);
    free(dec->headers);
    smfw_eventstream_limits limits = dec->limits;
    smfw_eventstream_decoder_init(dec, &limits);
}

smfw_eventstream_decoder *smfw_eventstream_decoder_new(const smfw_eventstream_limits *limits) {
    smfw_eventstream_decoder *dec = malloc(sizeof *dec);
    if (dec) smfw_eventstream_decoder_init(dec, limits);
    return dec;
}

void smfw_eventstream_decoder_free(smfw_eventstream_decoder *dec) {
    if (!dec) return;
    smfw_eventstream_decoder_cleanup(dec);
    free(dec);
}

void smfw_eventstream_decoder_reset(smfw_eventstream_decoder *dec) {
    dec->start = dec->end = 0;
    dec->stream_offset = 0;
    dec->messages = 0;
    dec->fault = SMFW_EVENTSTREAM_FAULT_NONE;
    dec->fault_status = SMFW_OK;
    dec->fault_message[0] = '\0';
}

size_t smfw_eventstream_decoder_pending(const smfw_eventstream_decoder *dec) {
    return dec->end - dec->start;
}

uint64_t smfw_eventstream_decoder_count(const smfw_eventstream_decoder *dec) {
    return dec->messages;
}

smfw_eventstream_fault smfw_eventstream_decoder_fault(const smfw_eventstream_decoder *dec) {
    return dec->fault;
}

/* Record a sticky failure and report it. */
SMFW_PRINTF(4, 5)
static smfw_status es_fail(smfw_eventstream_decoder *dec, smfw_eventstream_fault fault,
                           smfw_error *err, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dec->fault_message, sizeof dec->fault_message, fmt, ap);
    va_end(ap);
    dec->fault = fault;
    dec->fault_status = fault == SMFW_EVENTSTREAM_FAULT_NOMEM ? SMFW_ERR_NOMEM : SMFW_ERR_PROTOCOL;
    return smfw_error_set(err, dec->fault_status, "%s", dec->fault_message);
}

static smfw_status es_failed_again(const smfw_eventstream_decoder *dec, smfw_error *err) {
    return smfw_error_set(err, dec->fault_status, "%s", dec->fault_message);
}

smfw_status smfw_eventstream_decoder_feed(smfw_eventstream_decoder *dec, const void *bytes,
                                          size_t len, smfw_error *err) {
    if (dec->fault) return es_failed_again(dec, err);
    if (len == 0) return SMFW_OK;
    /* Move the unconsumed tail to the front: earlier views are invalid from here on. */
    if (dec->start > 0) {
        size_t pending = dec->end - dec->start;
        if (pending) memmove(dec->buf, dec->buf + dec->start, pending);
        dec->start = 0;
        dec->end = pending;
    }
    if (len > SIZE_MAX - dec->end)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_NOMEM, err, "event-stream buffer overflow");
    size_t need = dec->end + len;
    if (need > dec->cap) {
        size_t cap = dec->cap ? dec->cap : ES_MIN_BUFFER;
        while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
        uint8_t *grown = realloc(dec->buf, cap);
        if (!grown)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_NOMEM, err,
                           "cannot grow the event-stream buffer to %zu bytes", cap);
        dec->buf = grown;
        dec->cap = cap;
    }
    memcpy(dec->buf + dec->end, bytes, len);
    dec->end += len;
    return SMFW_OK;
}

/*
 * Walk a headers block once to validate it and count its headers. Sets
 * *count; on failure fills the decoder's fault and returns it.
 */
static smfw_status es_scan_headers(smfw_eventstream_decoder *dec, const uint8_t *p, size_t n,
                                   size_t *count, smfw_error *err) {
    size_t pos = 0, k = 0;
    char what[96];
    while (pos < n) {
        size_t name_len = p[pos++];
        if (name_len == 0)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, err,
                           "malformed event-stream headers in message %llu: header #%zu has an "
                           "empty name",
                           (unsigned long long)dec->messages + 1, k + 1);
        if (name_len > n - pos)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, err,
                           "malformed event-stream headers in message %llu: the name of header "
                           "#%zu runs past the %zu-byte headers block",
                           (unsigned long long)dec->messages + 1, k + 1, n);
        const uint8_t *name = p + pos;
        pos += name_len;
        es_describe_name(what, sizeof what, name, name_len, k);
        if (pos >= n)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, err,
                           "malformed event-stream headers in message %llu: %s has no type byte",
                           (unsigned long long)dec->messages + 1, what);
        unsigned type = p[pos++];
        int fixed = es_fixed_value_size(type);
        size_t value_len;
        if (fixed == -2)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, err,
                           "malformed event-stream headers in message %llu: %s has unknown value "
                           "type %u",
                           (unsigned long long)dec->messages + 1, what, type);
        if (fixed >= 0) {
            value_len = (size_t)fixed;
        } else {
            if (n - pos < 2)
                return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, err,
                               "malformed event-stream headers in message %llu: the value length "
                               "of %s runs past the headers block",
                               (unsigned long long)dec->messages + 1, what);
            value_len = es_load_be16(p + pos);
            pos += 2;
        }
        if (value_len > n - pos)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, err,
                           "malformed event-stream headers in message %llu: the %zu-byte value of "
                           "%s runs past the headers block",
                           (unsigned long long)dec->messages + 1, value_len, what);
        pos += value_len;
        if (++k > dec->limits.max_header_count)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_TOO_LARGE, err,
                           "frame too large: event-stream message %llu has more than %u headers",
                           (unsigned long long)dec->messages + 1, dec->limits.max_header_count);
    }
    *count = k;
    return SMFW_OK;
}

/* Fill dec->headers from a block es_scan_headers() accepted; rejects duplicate names. */
static smfw_status es_fill_headers(smfw_eventstream_decoder *dec, const uint8_t *p, size_t n,
                                   size_t count, smfw_error *err) {
    if (count > dec->headers_cap) {
        size_t cap = dec->headers_cap ? dec->headers_cap : 8;
        while (cap < count) cap *= 2;
        smfw_eventstream_header *grown = realloc(dec->headers, cap * sizeof *grown);
        if (!grown)
            return es_fail(dec, SMFW_EVENTSTREAM_FAULT_NOMEM, err,
                           "cannot grow the event-stream header array to %zu entries", cap);
        dec->headers = grown;
        dec->headers_cap = cap;
    }
    size_t pos = 0;
    for (size_t k = 0; k < count; k++) {
        smfw_eventstream_header *h = &dec->headers[k];
        h->name_len = p[pos++];
        h->name = (const char *)p + pos;
        pos += h->name_len;
        h->type = (smfw_eventstream_type)p[pos++];
        for (size_t j = 0; j < k; j++) {
            if (dec->headers[j].name_len == h->name_len &&
                memcmp(dec->headers[j].name, h->name, h->name_len) == 0) {
                char what[96];
                es_describe_name(what, sizeof what, (const uint8_t *)h->name, h->name_len, k);
                return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, err,
                               "malformed event-stream headers in message %llu: duplicate %s",
                               (unsigned long long)dec->messages + 1, what);
            }
        }
        switch (h->type) {
        case SMFW_EVENTSTREAM_BOOL_TRUE:
        case SMFW_EVENTSTREAM_BOOL_FALSE:
            h->value.i = 0;
            break;
        case SMFW_EVENTSTREAM_BYTE:
            h->value.i = (int8_t)p[pos++];
            break;
        case SMFW_EVENTSTREAM_INT16:
            h->value.i = (int16_t)es_load_be16(p + pos);
            pos += 2;
            break;
        case SMFW_EVENTSTREAM_INT32:
            h->value.i = (int32_t)es_load_be32(p + pos);
            pos += 4;
            break;
        case SMFW_EVENTSTREAM_INT64:
        case SMFW_EVENTSTREAM_TIMESTAMP:
            h->value.i = (int64_t)es_load_be64(p + pos);
            pos += 8;
            break;
        case SMFW_EVENTSTREAM_BYTES:
        case SMFW_EVENTSTREAM_STRING:
            h->value.bytes.len = es_load_be16(p + pos);
            h->value.bytes.data = p + pos + 2;
            pos += 2 + h->value.bytes.len;
            break;
        case SMFW_EVENTSTREAM_UUID:
            memcpy(h->value.uuid, p + pos, 16);
            pos += 16;
            break;
        }
    }
    (void)n; /* es_scan_headers() proved every read above lies within n bytes */
    return SMFW_OK;
}

smfw_status smfw_eventstream_decoder_next(smfw_eventstream_decoder *dec,
                                          smfw_eventstream_message *msg, smfw_error *err) {
    if (dec->fault) return es_failed_again(dec, err);
    size_t avail = dec->end - dec->start;
    if (avail < SMFW_EVENTSTREAM_PRELUDE_SIZE) return SMFW_AGAIN;
    const uint8_t *p = dec->buf + dec->start;
    unsigned long long index = (unsigned long long)dec->messages + 1;
    unsigned long long offset = (unsigned long long)dec->stream_offset;

    uint32_t total = es_load_be32(p);
    uint32_t headers_len = es_load_be32(p + 4);
    uint32_t prelude_crc = es_load_be32(p + 8);
    uint32_t computed = smfw_crc32(0, p, 8);
    /* The lengths mean nothing until the prelude CRC vouches for them. */
    if (computed != prelude_crc)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_PRELUDE_CRC, err,
                       "prelude checksum mismatch in event-stream message %llu (stream offset "
                       "%llu): computed 0x%08x, the message says 0x%08x",
                       index, offset, computed, prelude_crc);
    if (total < SMFW_EVENTSTREAM_MIN_MESSAGE_SIZE)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_LENGTH, err,
                       "invalid event-stream message %llu (stream offset %llu): total length %u "
                       "is below the 16-byte minimum",
                       index, offset, total);
    if (total > dec->limits.max_message_length)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_TOO_LARGE, err,
                       "frame too large: event-stream message %llu is %u bytes, over the "
                       "%u-byte limit",
                       index, total, dec->limits.max_message_length);
    if (headers_len > total - SMFW_EVENTSTREAM_MIN_MESSAGE_SIZE)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_BAD_LENGTH, err,
                       "invalid event-stream message %llu (stream offset %llu): headers length "
                       "%u does not fit in a message of %u bytes",
                       index, offset, headers_len, total);
    if (headers_len > dec->limits.max_headers_length)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_TOO_LARGE, err,
                       "frame too large: event-stream message %llu has %u bytes of headers, over "
                       "the %u-byte limit",
                       index, headers_len, dec->limits.max_headers_length);
    if (avail < total) return SMFW_AGAIN;

    uint32_t message_crc = es_load_be32(p + total - 4);
    computed = smfw_crc32(prelude_crc, p + 8, total - 12);
    if (computed != message_crc)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_MESSAGE_CRC, err,
                       "message checksum mismatch in event-stream message %llu (stream offset "
                       "%llu): computed 0x%08x, the message says 0x%08x",
                       index, offset, computed, message_crc);

    const uint8_t *hp = p + SMFW_EVENTSTREAM_PRELUDE_SIZE;
    size_t count = 0;
    smfw_status st = es_scan_headers(dec, hp, headers_len, &count, err);
    if (st != SMFW_OK) return st;
    st = es_fill_headers(dec, hp, headers_len, count, err);
    if (st != SMFW_OK) return st;

    msg->total_length = total;
    msg->headers_length = headers_len;
    msg->prelude_crc = prelude_crc;
    msg->message_crc = message_crc;
    msg->headers = dec->headers;
    msg->header_count = count;
    msg->payload = hp + headers_len;
    msg->payload_len = total - headers_len - SMFW_EVENTSTREAM_MIN_MESSAGE_SIZE;

    dec->start += total;
    dec->stream_offset += total;
    dec->messages++;
    return SMFW_OK;
}

smfw_status smfw_eventstream_decoder_finish(smfw_eventstream_decoder *dec, smfw_error *err) {
    if (dec->fault) return es_failed_again(dec, err);
    size_t avail = dec->end - dec->start;
    if (avail == 0) return SMFW_OK;
    unsigned long long index = (unsigned long long)dec->messages + 1;
    if (avail < SMFW_EVENTSTREAM_PRELUDE_SIZE)
        return es_fail(dec, SMFW_EVENTSTREAM_FAULT_TRUNCATED, err,
                       "truncated event stream: it ended inside the prelude of message %llu "
                       "(%zu of 12 bytes)",
                       index, avail);
    return es_fail(dec, SMFW_EVENTSTREAM_FAULT_TRUNCATED, err,
                   "truncated event stream: it ended inside message %llu (%zu of %u bytes)", index,
                   avail, es_load_be32(dec->buf + dec->start));
}

/* ---- Message helpers -------------------------------------------------------------------- */

const smfw_eventstream_header *smfw_eventstream_message_find(const smfw_eventstream_message *msg,
                                                             const char *name) {
    size_t len = strlen(name);
    for (size_t i = 0; i < msg->header_count; i++) {
        const smfw_eventstream_header *h = &msg->headers[i];
        if (h->name_len == len && memcmp(h->name, name, len) == 0) return h;
    }
    return NULL;
}

int smfw_eventstream_message_has(const smfw_eventstream_message *msg, const char *name,
                                 const char *value) {
    const smfw_eventstream_header *h = smfw_eventstream_message_find(msg, name);
    if (!h || h->type != SMFW_EVENTSTREAM_STRING) return 0;
    size_t len = strlen(value);
    return h->value.bytes.len == len && (len == 0 || memcmp(h->value.bytes.data, value, len) == 0);
}

/* ---- Encoder ---------------------------------------------------------------------------- */

/* Wire size of one header, after checking it can be represented. */
static smfw_status es_header_size(const smfw_eventstream_header *h, size_t index, size_t *size,
                                  smfw_error *err) {
    char what[96];
    es_describe_name(what, sizeof what, (const uint8_t *)h->name, h->name ? h->name_len : 0, index);
    if (!h->name || h->name_len == 0 || h->name_len > SMFW_EVENTSTREAM_MAX_NAME_LENGTH)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "cannot encode event-stream %s: a name must be 1 to 255 bytes", what);
    int fixed = es_fixed_value_size((unsigned)h->type);
    if (fixed == -2)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "cannot encode event-stream %s: unknown value type %d", what,
                              (int)h->type);
    int64_t lo = 0, hi = 0;
    switch (h->type) {
    case SMFW_EVENTSTREAM_BYTE:
        lo = INT8_MIN, hi = INT8_MAX;
        break;
    case SMFW_EVENTSTREAM_INT16:
        lo = INT16_MIN, hi = INT16_MAX;
        break;
    case SMFW_EVENTSTREAM_INT32:
        lo = INT32_MIN, hi = INT32_MAX;
        break;
    default:
        break; /* no narrower range to check */
    }
    if (lo != hi && (h->value.i < lo || h->value.i > hi))
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "cannot encode event-stream %s: value %lld does not fit its type",
                              what, (long long)h->value.i);
    size_t value_len = (size_t)fixed;
    if (fixed == -1) {
        if (h->value.bytes.len > SMFW_EVENTSTREAM_MAX_VALUE_LENGTH)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "cannot encode event-stream %s: its %zu-byte value exceeds the "
                                  "%d-byte limit",
                                  what, h->value.bytes.len, SMFW_EVENTSTREAM_MAX_VALUE_LENGTH);
        if (h->value.bytes.len && !h->value.bytes.data)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "cannot encode event-stream %s: value data is NULL", what);
        value_len = 2 + h->value.bytes.len;
    }
    *size = 1 + h->name_len + 1 + value_len;
    return SMFW_OK;
}

smfw_status smfw_eventstream_encoded_size(const smfw_eventstream_header *headers,
                                          size_t header_count, size_t payload_len, size_t *size,
                                          smfw_error *err) {
    size_t headers_len = 0;
    for (size_t k = 0; k < header_count; k++) {
        size_t one = 0;
        smfw_status st = es_header_size(&headers[k], k, &one, err);
        if (st != SMFW_OK) return st;
        for (size_t j = 0; j < k; j++) {
            if (headers[j].name_len == headers[k].name_len &&
                memcmp(headers[j].name, headers[k].name, headers[k].name_len) == 0) {
                char what[96];
                es_describe_name(what, sizeof what, (const uint8_t *)headers[k].name,
                                 headers[k].name_len, k);
                return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                      "cannot encode event-stream message: duplicate %s", what);
            }
        }
        headers_len += one;
        if (headers_len > UINT32_MAX)
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "cannot encode event-stream message: headers exceed 4 GiB");
    }
    if (payload_len > (size_t)UINT32_MAX - SMFW_EVENTSTREAM_MIN_MESSAGE_SIZE - headers_len)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "cannot encode event-stream message: %zu-byte payload exceeds the "
                              "32-bit length field",
                              payload_len);
    *size = SMFW_EVENTSTREAM_MIN_MESSAGE_SIZE + headers_len + payload_len;
    return SMFW_OK;
}

smfw_status smfw_eventstream_encode(const smfw_eventstream_header *headers, size_t header_count,
                                    const void *payload, size_t payload_len, void *out,
                                    size_t out_cap, size_t *out_len, smfw_error *err) {
    size_t total = 0;
    smfw_status st = smfw_eventstream_encoded_size(headers, header_count, payload_len, &total, err);
    if (st != SMFW_OK) return st;
    *out_len = total;
    if (out_cap < total)
        return smfw_error_set(err, SMFW_ERR_INTERNAL,
                              "event-stream output buffer of %zu bytes is too small for a "
                              "%zu-byte message",
                              out_cap, total);
    size_t headers_len = total - SMFW_EVENTSTREAM_MIN_MESSAGE_SIZE - payload_len;
    uint8_t *base = out;
    uint8_t *p = es_store_be32(base, (uint32_t)total);
    p = es_store_be32(p, (uint32_t)headers_len);
    p = es_store_be32(p, smfw_crc32(0, base, 8));
    for (size_t k = 0; k < header_count; k++) {
        const smfw_eventstream_header *h = &headers[k];
        *p++ = (uint8_t)h->name_len;
        memcpy(p, h->name, h->name_len);
        p += h->name_len;
        *p++ = (uint8_t)h->type;
        switch (h->type) {
        case SMFW_EVENTSTREAM_BOOL_TRUE:
        case SMFW_EVENTSTREAM_BOOL_FALSE:
            break;
        case SMFW_EVENTSTREAM_BYTE:
            *p++ = (uint8_t)(int8_t)h->value.i;
            break;
        case SMFW_EVENTSTREAM_INT16:
            p = es_store_be16(p, (uint16_t)(int16_t)h->value.i);
            break;
        case SMFW_EVENTSTREAM_INT32:
            p = es_store_be32(p, (uint32_t)(int32_t)h->value.i);
            break;
        case SMFW_EVENTSTREAM_INT64:
        case SMFW_EVENTSTREAM_TIMESTAMP:
            p = es_store_be64(p, (uint64_t)h->value.i);
            break;
        case SMFW_EVENTSTREAM_BYTES:
        case SMFW_EVENTSTREAM_STRING:
            p = es_store_be16(p, (uint16_t)h->value.bytes.len);
            if (h->value.bytes.len) memcpy(p, h->value.bytes.data, h->value.bytes.len);
            p += h->value.bytes.len;
            break;
        case SMFW_EVENTSTREAM_UUID:
            memcpy(p, h->value.uuid, 16);
            p += 16;
            break;
        }
    }
    if (payload_len) memcpy(p, payload, payload_len);
    p += payload_len;
    es_store_be32(p, smfw_crc32(0, base, total - 4));
    return SMFW_OK;
}
