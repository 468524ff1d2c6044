/*
 * eventstream.h - the AWS event-stream framing (application/vnd.amazon.eventstream).
 *
 * SageMaker's InvokeEndpointWithResponseStream answers with a sequence of
 * binary messages:
 *
 *   total_length u32 | headers_length u32 | prelude_crc u32 | headers | payload | message_crc u32
 *
 * (big-endian; CRC-32/ISO-HDLC, see crc32.h). Each header is
 * name_len u8 | name | type u8 | value, with the ten value types below.
 *
 * Decoding is incremental and built for a hot path: embed (or allocate once)
 * an smfw_eventstream_decoder, hand it bytes as they arrive in any split with
 * smfw_eventstream_decoder_feed(), then pull whole messages with
 * smfw_eventstream_decoder_next() until it answers SMFW_AGAIN. A decoded
 * message is a set of views into the decoder's own buffer: once the buffer
 * and the header array have grown to the stream's largest message, decoding
 * allocates nothing. The prelude CRC is checked before the lengths are
 * trusted and the message CRC before the headers are parsed; any failure
 * leaves the decoder in a failed state (the stream is unusable), with a
 * reason such as "prelude checksum mismatch" or "frame too large".
 *
 * Encoding writes one message into a caller buffer
 * (smfw_eventstream_encoded_size() says how big it must be).
 *
 * Not thread-safe: one decoder per stream, used by one thread at a time.
 */
#ifndef SMFW_EVENTSTREAM_H
#define SMFW_EVENTSTREAM_H

#include <smfw/smfw.h>

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of the prelude (total length, headers length, prelude CRC). */
#define SMFW_EVENTSTREAM_PRELUDE_SIZE 12
/** Smallest message: prelude + message CRC, no headers, no payload. */
#define SMFW_EVENTSTREAM_MIN_MESSAGE_SIZE 16
/** Longest header name (the length is one byte; 0 is invalid). */
#define SMFW_EVENTSTREAM_MAX_NAME_LENGTH 255
/** Longest byte-array or string header value the SDKs accept. */
#define SMFW_EVENTSTREAM_MAX_VALUE_LENGTH 32767
/** Default decoder limits (as the AWS SDKs and CRT enforce them). */
#define SMFW_EVENTSTREAM_DEFAULT_MAX_MESSAGE_LENGTH (24u * 1024u * 1024u)
#define SMFW_EVENTSTREAM_DEFAULT_MAX_HEADERS_LENGTH (128u * 1024u)
#define SMFW_EVENTSTREAM_DEFAULT_MAX_HEADER_COUNT   1024u

/** Header value types; the numbers are the type bytes on the wire. */
typedef enum smfw_eventstream_type {
    SMFW_EVENTSTREAM_BOOL_TRUE = 0,  /**< no value bytes */
    SMFW_EVENTSTREAM_BOOL_FALSE = 1, /**< no value bytes */
    SMFW_EVENTSTREAM_BYTE = 2,       /**< int8 in value.i */
    SMFW_EVENTSTREAM_INT16 = 3,      /**< value.i */
    SMFW_EVENTSTREAM_INT32 = 4,      /**< value.i */
    SMFW_EVENTSTREAM_INT64 = 5,      /**< value.i */
    SMFW_EVENTSTREAM_BYTES = 6,      /**< value.bytes (u16 length on the wire) */
    SMFW_EVENTSTREAM_STRING = 7,     /**< value.bytes, UTF-8, not NUL-terminated */
    SMFW_EVENTSTREAM_TIMESTAMP = 8,  /**< value.i: milliseconds since the Unix epoch */
    SMFW_EVENTSTREAM_UUID = 9        /**< value.uuid: 16 raw bytes */
} smfw_eventstream_type;

/**
 * One header. In a decoded message, name and value.bytes.data point into the
 * decoder's buffer and are NOT NUL-terminated. For encoding, the caller fills
 * it (the smfw_eventstream_header_*() helpers below do it in one line).
 */
typedef struct smfw_eventstream_header {
    const char *name;
    size_t name_len; /**< 1..255 */
    smfw_eventstream_type type;
    union {
        int64_t i; /**< BYTE, INT16, INT32, INT64, TIMESTAMP */
        struct {
            const uint8_t *data;
            size_t len; /**< 0..32767 */
        } bytes;        /**< BYTES, STRING */
        uint8_t uuid[16];
    } value;
} smfw_eventstream_header;

/**
 * One decoded message. Every pointer is a view into the decoder and stays
 * valid until the next smfw_eventstream_decoder_feed(), _reset() or _free().
 */
typedef struct smfw_eventstream_message {
    uint32_t total_length;   /**< whole message, prelude and CRC included */
    uint32_t headers_length; /**< bytes of the headers block */
    uint32_t prelude_crc;
    uint32_t message_crc;
    const smfw_eventstream_header *headers; /**< in wire order */
    size_t header_count;
    const uint8_t *payload; /**< payload_len bytes (may be a non-NULL pointer when empty) */
    size_t payload_len;
} smfw_eventstream_message;

/** Why a decoder failed (SMFW_EVENTSTREAM_FAULT_NONE while it has not). */
typedef enum smfw_eventstream_fault {
    SMFW_EVENTSTREAM_FAULT_NONE = 0,
    SMFW_EVENTSTREAM_FAULT_PRELUDE_CRC, /**< "prelude checksum mismatch" */
    SMFW_EVENTSTREAM_FAULT_MESSAGE_CRC, /**< "message checksum mismatch" */
    SMFW_EVENTSTREAM_FAULT_TOO_LARGE,   /**< "frame too large" (a configured limit) */
    SMFW_EVENTSTREAM_FAULT_BAD_LENGTH,  /**< lengths that cannot describe a message */
    SMFW_EVENTSTREAM_FAULT_BAD_HEADERS, /**< malformed, unknown-type or duplicate header */
    SMFW_EVENTSTREAM_FAULT_TRUNCATED,   /**< the stream ended inside a message */
    SMFW_EVENTSTREAM_FAULT_NOMEM        /**< the buffer could not grow */
} smfw_eventstream_fault;

/** Limits a decoder enforces before it buffers a message. Zero fields take the defaults. */
typedef struct smfw_eventstream_limits {
    uint32_t max_message_length; /**< default SMFW_EVENTSTREAM_DEFAULT_MAX_MESSAGE_LENGTH */
    uint32_t max_headers_length; /**< default SMFW_EVENTSTREAM_DEFAULT_MAX_HEADERS_LENGTH */
    uint32_t max_header_count;   /**< default SMFW_EVENTSTREAM_DEFAULT_MAX_HEADER_COUNT */
} smfw_eventstream_limits;

/**
 * Incremental decoder. The struct is public so callers can embed it (for
 * instance one per connection slot, allocated before a run); treat every
 * field as private and use the functions below.
 */
typedef struct smfw_eventstream_decoder {
    uint8_t *buf; /* received bytes not yet handed out: [start, end) */
    size_t cap;
    size_t start;
    size_t end;
    smfw_eventstream_header *headers; /* reused header array */
    size_t headers_cap;
    smfw_eventstream_limits limits;
    uint64_t stream_offset; /* stream offset of buf[start], for messages */
    uint64_t messages;      /* decoded so far */
    smfw_eventstream_fault fault;
    smfw_status fault_status;
    char fault_message[256];
} smfw_eventstream_decoder;

/** Prepare an embedded decoder. limits may be NULL (defaults). Allocates nothing. */
SMFW_API void smfw_eventstream_decoder_init(smfw_eventstream_decoder *dec,
                                            const smfw_eventstream_limits *limits);

/** Release what an embedded decoder allocated; it may be init'ed again afterwards. */
SMFW_API void smfw_eventstream_decoder_cleanup(smfw_eventstream_decoder *dec);

/** Allocate and init a decoder (NULL when out of memory). limits may be NULL. */
SMFW_API smfw_eventstream_decoder *
smfw_eventstream_decoder_new(const smfw_eventstream_limits *limits);

/** Free a decoder from smfw_eventstream_decoder_new(). NULL is allowed. */
SMFW_API void smfw_eventstream_decoder_free(smfw_eventstream_decoder *dec);

/**
 * Forget buffered bytes and any failure, keeping the allocated memory, so the
 * decoder can serve the next stream (next request on a connection slot).
 */
SMFW_API void smfw_eventstream_decoder_reset(smfw_eventstream_decoder *dec);

/**
 * Append `len` received bytes (any split: one byte at a time works). Only
 * reads bytes[0, len). Invalidates the views of previously decoded messages.
 * Returns SMFW_OK, or the decoder's failure (SMFW_ERR_PROTOCOL for bad bytes,
 * SMFW_ERR_NOMEM) with err filled.
 */
SMFW_API smfw_status smfw_eventstream_decoder_feed(smfw_eventstream_decoder *dec, const void *bytes,
                                                   size_t len, smfw_error *err);

/**
 * Decode the next complete message from the buffered bytes.
 * Returns SMFW_OK with *msg filled; SMFW_AGAIN when more bytes are needed;
 * SMFW_ERR_PROTOCOL (checksum, limit, malformed header...) or SMFW_ERR_NOMEM
 * with err filled, after which every call fails the same way until reset.
 */
SMFW_API smfw_status smfw_eventstream_decoder_next(smfw_eventstream_decoder *dec,
                                                   smfw_eventstream_message *msg, smfw_error *err);

/**
 * Declare the end of the stream: SMFW_OK when it ended on a message boundary,
 * otherwise SMFW_ERR_PROTOCOL "truncated ..." (the decoder then fails).
 * Call after smfw_eventstream_decoder_next() has answered SMFW_AGAIN.
 */
SMFW_API smfw_status smfw_eventstream_decoder_finish(smfw_eventstream_decoder *dec,
                                                     smfw_error *err);

/** Bytes buffered but not yet returned as messages. */
SMFW_API size_t smfw_eventstream_decoder_pending(const smfw_eventstream_decoder *dec);

/** Messages decoded since init/reset. */
SMFW_API uint64_t smfw_eventstream_decoder_count(const smfw_eventstream_decoder *dec);

/** The failure kind (SMFW_EVENTSTREAM_FAULT_NONE while healthy). */
SMFW_API smfw_eventstream_fault smfw_eventstream_decoder_fault(const smfw_eventstream_decoder *dec);

/** Short stable name of a fault ("prelude checksum mismatch", "truncated"...). */
SMFW_API const char *smfw_eventstream_fault_name(smfw_eventstream_fault fault);

/**
 * Size in bytes of the message these headers and payload would encode to,
 * in *size. Validates the headers (name 1..255 bytes, known type, value
 * length <= 32767, no duplicate names) and the 32-bit length fields.
 * Returns SMFW_OK or SMFW_ERR_PROTOCOL with err naming the bad header.
 */
SMFW_API smfw_status smfw_eventstream_encoded_size(const smfw_eventstream_header *headers,
                                                   size_t header_count, size_t payload_len,
                                                   size_t *size, smfw_error *err);

/**
 * Encode one message into out[0, out_cap). On success *out_len is the
 * message size. When out_cap is too small, returns SMFW_ERR_INTERNAL with
 * *out_len set to the size needed and writes nothing. headers may be NULL
 * when header_count is 0; payload may be NULL when payload_len is 0.
 */
SMFW_API smfw_status smfw_eventstream_encode(const smfw_eventstream_header *headers,
                                             size_t header_count, const void *payload,
                                             size_t payload_len, void *out, size_t out_cap,
                                             size_t *out_len, smfw_error *err);

/**
 * First header with this (NUL-terminated) name, or NULL. Linear: messages
 * carry a handful of headers.
 */
SMFW_API const smfw_eventstream_header *
smfw_eventstream_message_find(const smfw_eventstream_message *msg, const char *name);

/**
 * True when the message has a string header `name` whose value equals
 * `value` (both NUL-terminated), e.g. (":message-type", "event").
 */
SMFW_API int smfw_eventstream_message_has(const smfw_eventstream_message *msg, const char *name,
                                          const char *value);

/* Helpers to build headers for smfw_eventstream_encode(). The strings are borrowed. */

static inline smfw_eventstream_header smfw_eventstream_header_string(const char *name,
                                                                     const char *value) {
    smfw_eventstream_header h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.name_len = strlen(name);
    h.type = SMFW_EVENTSTREAM_STRING;
    h.value.bytes.data = (const uint8_t *)value;
    h.value.bytes.len = strlen(value);
    return h;
}

static inline smfw_eventstream_header smfw_eventstream_header_bytes(const char *name,
                                                                    const void *data, size_t len) {
    smfw_eventstream_header h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.name_len = strlen(name);
    h.type = SMFW_EVENTSTREAM_BYTES;
    h.value.bytes.data = (const uint8_t *)data;
    h.value.bytes.len = len;
    return h;
}

/** type is one of BYTE, INT16, INT32, INT64, TIMESTAMP. */
static inline smfw_eventstream_header
smfw_eventstream_header_int(const char *name, smfw_eventstream_type type, int64_t value) {
    smfw_eventstream_header h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.name_len = strlen(name);
    h.type = type;
    h.value.i = value;
    return h;
}

static inline smfw_eventstream_header smfw_eventstream_header_bool(const char *name, int value) {
    smfw_eventstream_header h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.name_len = strlen(name);
    h.type = value ? SMFW_EVENTSTREAM_BOOL_TRUE : SMFW_EVENTSTREAM_BOOL_FALSE;
    return h;
}

static inline smfw_eventstream_header smfw_eventstream_header_uuid(const char *name,
                                                                   const uint8_t uuid[16]) {
    smfw_eventstream_header h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.name_len = strlen(name);
    h.type = SMFW_EVENTSTREAM_UUID;
    memcpy(h.value.uuid, uuid, 16);
    return h;
}

#ifdef __cplusplus
}
#endif
#endif /* SMFW_EVENTSTREAM_H */
