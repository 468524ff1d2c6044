/*
 * test_eventstream.c - the event-stream codec against the shared vectors.
 *
 * Every positive vector (upstream suite and sagemaker-synthetic) must decode
 * to the recorded prelude, headers, payload and CRCs, whatever way the bytes
 * are split; every negative one must fail with the recorded reason; the
 * encoder must reproduce each vector byte for byte from its description.
 */
#include <smfw/crc32.h>
#include <smfw/eventstream.h>

#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "smfw_test.h"

#define VEC_DIR SMFW_TESTDATA_DIR "/eventstream"

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct blob {
    uint8_t *data;
    size_t len;
} blob;

static blob read_file(const char *path) {
    blob b = {NULL, 0};
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.data = malloc(n > 0 ? (size_t)n : 1);
    ck_assert_ptr_nonnull(b.data);
    b.len = fread(b.data, 1, (size_t)n, f);
    ck_assert_uint_eq(b.len, (size_t)n);
    fclose(f);
    return b;
}

static blob b64_decode(const char *s) {
    size_t n = strlen(s);
    blob b = {malloc(n / 4 * 3 + 3), 0};
    ck_assert_ptr_nonnull(b.data);
    if (n == 0) return b;
    int got = EVP_DecodeBlock(b.data, (const unsigned char *)s, (int)n);
    ck_assert_int_ge(got, 0);
    /* EVP_DecodeBlock counts the padding as zero bytes. */
    size_t pad = (n >= 1 && s[n - 1] == '=') + (n >= 2 && s[n - 2] == '=');
    b.len = (size_t)got - pad;
    return b;
}

static json_t *load_json(const char *path) {
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    ck_assert_msg(j != NULL, "%s:%d: %s", path, jerr.line, jerr.text);
    return j;
}

/* List the regular files of a directory, sorted; returns the count. */
static size_t list_dir(const char *dir, char names[][64], size_t max) {
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        ck_assert_uint_lt(n, max);
        ck_assert_uint_lt(strlen(e->d_name), 64);
        memcpy(names[n++], e->d_name, strlen(e->d_name) + 1);
    }
    closedir(d);
    qsort(names, n, 64, (int (*)(const void *, const void *))strcmp);
    return n;
}

static uint32_t json_u32(json_t *v) {
    return (uint32_t)((uint64_t)json_integer_value(v) & 0xFFFFFFFFu);
}

/* Compare one decoded message with its JSON description. */
static void check_message(const char *what, const smfw_eventstream_message *m, json_t *want) {
    ck_assert_msg(m->total_length == json_u32(json_object_get(want, "total_length")),
                  "%s: total_length", what);
    ck_assert_msg(m->headers_length == json_u32(json_object_get(want, "headers_length")),
                  "%s: headers_length", what);
    ck_assert_msg(m->prelude_crc == json_u32(json_object_get(want, "prelude_crc")),
                  "%s: prelude_crc", what);
    ck_assert_msg(m->message_crc == json_u32(json_object_get(want, "message_crc")),
                  "%s: message_crc", what);
    json_t *headers = json_object_get(want, "headers");
    ck_assert_msg(m->header_count == json_array_size(headers), "%s: header count %zu vs %zu", what,
                  m->header_count, json_array_size(headers));
    for (size_t i = 0; i < m->header_count; i++) {
        json_t *wh = json_array_get(headers, i);
        const smfw_eventstream_header *h = &m->headers[i];
        const char *name = json_string_value(json_object_get(wh, "name"));
        ck_assert_msg(h->name_len == strlen(name) && memcmp(h->name, name, h->name_len) == 0,
                      "%s: header %zu name", what, i);
        ck_assert_msg((int)h->type == (int)json_integer_value(json_object_get(wh, "type")),
                      "%s: header %s type", what, name);
        json_t *v = json_object_get(wh, "value");
        switch (h->type) {
        case SMFW_EVENTSTREAM_BOOL_TRUE:
            ck_assert(json_is_true(v));
            break;
        case SMFW_EVENTSTREAM_BOOL_FALSE:
            ck_assert(json_is_false(v));
            break;
        case SMFW_EVENTSTREAM_BYTE:
        case SMFW_EVENTSTREAM_INT16:
        case SMFW_EVENTSTREAM_INT32:
        case SMFW_EVENTSTREAM_INT64:
        case SMFW_EVENTSTREAM_TIMESTAMP:
            ck_assert_msg(h->value.i == json_integer_value(v), "%s: header %s value %lld", what,
                          name, (long long)h->value.i);
            break;
        case SMFW_EVENTSTREAM_BYTES:
        case SMFW_EVENTSTREAM_STRING: {
            blob b = b64_decode(json_string_value(v));
            ck_assert_msg(h->value.bytes.len == b.len &&
                              memcmp(h->value.bytes.data, b.data, b.len) == 0,
                          "%s: header %s value", what, name);
            free(b.data);
            break;
        }
        case SMFW_EVENTSTREAM_UUID: {
            blob b = b64_decode(json_string_value(v));
            ck_assert_uint_eq(b.len, 16);
            ck_assert_msg(memcmp(h->value.uuid, b.data, 16) == 0, "%s: uuid", what);
            free(b.data);
            break;
        }
        }
    }
    blob payload = b64_decode(json_string_value(json_object_get(want, "payload")));
    ck_assert_msg(m->payload_len == payload.len &&
                      (payload.len == 0 || memcmp(m->payload, payload.data, payload.len) == 0),
                  "%s: payload", what);
    free(payload.data);
}

/*
 * Feed `data` in pieces (piece == 0: the split pattern chosen by `seed`),
 * checking every decoded message against `want` (a JSON array). Returns the
 * number of messages decoded.
 */
static size_t decode_split(const char *what, const blob *data, json_t *want, size_t piece,
                           size_t split_at) {
    smfw_eventstream_decoder dec;
    smfw_eventstream_decoder_init(&dec, NULL);
    smfw_error err;
    smfw_eventstream_message m;
    size_t got = 0, pos = 0;
    while (pos < data->len) {
        size_t n = piece ? piece : (pos < split_at ? split_at - pos : data->len - pos);
        if (n > data->len - pos) n = data->len - pos;
        /* Copy each piece to its own exact-size allocation so ASan sees any over-read. */
        uint8_t *chunk = malloc(n);
        memcpy(chunk, data->data + pos, n);
        ck_assert_int_eq(smfw_eventstream_decoder_feed(&dec, chunk, n, &err), SMFW_OK);
        free(chunk);
        pos += n;
        smfw_status st;
        while ((st = smfw_eventstream_decoder_next(&dec, &m, &err)) == SMFW_OK) {
            ck_assert_uint_lt(got, json_array_size(want));
            check_message(what, &m, json_array_get(want, got));
            got++;
        }
        ck_assert_msg(st == SMFW_AGAIN, "%s: %s", what, err.message);
    }
    ck_assert_int_eq(smfw_eventstream_decoder_finish(&dec, &err), SMFW_OK);
    ck_assert_uint_eq(smfw_eventstream_decoder_count(&dec), got);
    smfw_eventstream_decoder_cleanup(&dec);
    return got;
}

/* All split patterns for one stream: whole, 1 byte at a time, 2/3/7 bytes, every split point. */
static void decode_all_ways(const char *what, const blob *data, json_t *want) {
    size_t n = json_array_size(want);
    ck_assert_uint_eq(decode_split(what, data, want, 0, data->len), n);
    ck_assert_uint_eq(decode_split(what, data, want, 1, 0), n);
    ck_assert_uint_eq(decode_split(what, data, want, 2, 0), n);
    ck_assert_uint_eq(decode_split(what, data, want, 3, 0), n);
    ck_assert_uint_eq(decode_split(what, data, want, 7, 0), n);
    for (size_t at = 1; at < data->len; at++)
        ck_assert_uint_eq(decode_split(what, data, want, 0, at), n);
}

/* Re-encode a JSON description and expect exactly `data`. */
static void encode_matches(const char *what, const blob *data, json_t *want) {
    uint8_t *out = malloc(data->len + 64);
    size_t off = 0;
    for (size_t k = 0; k < json_array_size(want); k++) {
        json_t *jm = json_array_get(want, k);
        json_t *jh = json_object_get(jm, "headers");
        size_t nh = json_array_size(jh);
        smfw_eventstream_header hs[16];
        blob vals[16];
        ck_assert_uint_le(nh, 16);
        for (size_t i = 0; i < nh; i++) {
            json_t *h = json_array_get(jh, i);
            const char *name = json_string_value(json_object_get(h, "name"));
            int type = (int)json_integer_value(json_object_get(h, "type"));
            json_t *v = json_object_get(h, "value");
            vals[i].data = NULL;
            switch (type) {
            case SMFW_EVENTSTREAM_BOOL_TRUE:
            case SMFW_EVENTSTREAM_BOOL_FALSE:
                hs[i] = smfw_eventstream_header_bool(name, type == 0);
                break;
            case SMFW_EVENTSTREAM_BYTES:
            case SMFW_EVENTSTREAM_STRING:
                vals[i] = b64_decode(json_string_value(v));
                hs[i] = smfw_eventstream_header_bytes(name, vals[i].data, vals[i].len);
                hs[i].type = (smfw_eventstream_type)type;
                break;
            case SMFW_EVENTSTREAM_UUID:
                vals[i] = b64_decode(json_string_value(v));
                hs[i] = smfw_eventstream_header_uuid(name, vals[i].data);
                break;
            default:
                hs[i] = smfw_eventstream_header_int(name, (smfw_eventstream_type)type,
                                                    json_integer_value(v));
            }
        }
        blob payload = b64_decode(json_string_value(json_object_get(jm, "payload")));
        size_t len = 0;
        smfw_error err;
        smfw_status st = smfw_eventstream_encode(hs, nh, payload.data, payload.len, out + off,
                                                 data->len + 64 - off, &len, &err);
        ck_assert_msg(st == SMFW_OK, "%s: %s", what, err.message);
        off += len;
        free(payload.data);
        for (size_t i = 0; i < nh; i++) free(vals[i].data);
    }
    ck_assert_msg(off == data->len && memcmp(out, data->data, off) == 0,
                  "%s: re-encoded bytes differ", what);
    free(out);
}

/* ---- CRC -------------------------------------------------------------------------------- */

START_TEST(crc32_check_value) {
    ck_assert_uint_eq(smfw_crc32(0, "123456789", 9), 0xCBF43926u);
    ck_assert_uint_eq(smfw_crc32(0, NULL, 0), 0);
    ck_assert_uint_eq(smfw_crc32(0, "a", 1), 0xE8B7BE43u);
    /* Continuation: any split gives the same CRC, for every alignment of the 8-byte loop. */
    uint8_t buf[1000];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 31 + 7);
    uint32_t whole = smfw_crc32(0, buf, sizeof buf);
    for (size_t cut = 0; cut <= 40; cut++)
        ck_assert_uint_eq(smfw_crc32(smfw_crc32(0, buf, cut), buf + cut, sizeof buf - cut), whole);
    /* Bitwise reference. */
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < sizeof buf; i++) {
        c ^= buf[i];
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    ck_assert_uint_eq(~c, whole);
}
END_TEST

/* ---- Vectors ---------------------------------------------------------------------------- */

START_TEST(positive_vectors) {
    char names[32][64];
    size_t n = list_dir(VEC_DIR "/encoded/positive", names, 32);
    ck_assert_uint_eq(n, 5);
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, VEC_DIR "/encoded/positive/%s", names[i]);
        blob data = read_file(path);
        snprintf(path, sizeof path, VEC_DIR "/decoded/positive/%s", names[i]);
        json_t *one = load_json(path);
        json_t *want = json_array();
        json_array_append(want, one);
        decode_all_ways(names[i], &data, want);
        encode_matches(names[i], &data, want);
        json_decref(want);
        json_decref(one);
        free(data.data);
    }
}
END_TEST

START_TEST(sagemaker_synthetic_vectors) {
    char names[32][64];
    size_t n = list_dir(VEC_DIR "/sagemaker-synthetic/encoded", names, 32);
    ck_assert_uint_eq(n, 5);
    size_t messages = 0;
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, VEC_DIR "/sagemaker-synthetic/encoded/%s", names[i]);
        blob data = read_file(path);
        snprintf(path, sizeof path, VEC_DIR "/sagemaker-synthetic/decoded/%s", names[i]);
        json_t *want = load_json(path);
        ck_assert(json_is_array(want));
        decode_all_ways(names[i], &data, want);
        encode_matches(names[i], &data, want);
        messages += json_array_size(want);
        json_decref(want);
        free(data.data);
    }
    ck_assert_uint_eq(messages, 7); /* stream_three_parts holds three */
}
END_TEST

/* Every vector back to back as one stream, in every split. */
START_TEST(all_vectors_as_one_stream) {
    blob all = {NULL, 0};
    json_t *want = json_array();
    const char *dirs[2][2] = {{"encoded/positive", "decoded/positive"},
                              {"sagemaker-synthetic/encoded", "sagemaker-synthetic/decoded"}};
    for (int d = 0; d < 2; d++) {
        char dir[512], names[32][64];
        snprintf(dir, sizeof dir, VEC_DIR "/%s", dirs[d][0]);
        size_t n = list_dir(dir, names, 32);
        for (size_t i = 0; i < n; i++) {
            char path[600];
            snprintf(path, sizeof path, VEC_DIR "/%s/%s", dirs[d][0], names[i]);
            blob b = read_file(path);
            all.data = realloc(all.data, all.len + b.len);
            memcpy(all.data + all.len, b.data, b.len);
            all.len += b.len;
            free(b.data);
            snprintf(path, sizeof path, VEC_DIR "/%s/%s", dirs[d][1], names[i]);
            json_t *j = load_json(path);
            if (json_is_array(j))
                json_array_extend(want, j);
            else
                json_array_append(want, j);
            json_decref(j);
        }
    }
    ck_assert_uint_eq(json_array_size(want), 12);
    decode_all_ways("all vectors", &all, want);
    json_decref(want);
    free(all.data);
}
END_TEST

START_TEST(negative_vectors) {
    char names[32][64];
    size_t n = list_dir(VEC_DIR "/encoded/negative", names, 32);
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, VEC_DIR "/encoded/negative/%s", names[i]);
        blob data = read_file(path);
        snprintf(path, sizeof path, VEC_DIR "/decoded/negative/%s", names[i]);
        blob expect = read_file(path);
        char reason[128];
        snprintf(reason, sizeof reason, "%.*s", (int)expect.len, (const char *)expect.data);
        reason[strcspn(reason, "\r\n")] = '\0';
        smfw_eventstream_fault want_fault = strncasecmp(reason, "prelude", 7) == 0
                                                ? SMFW_EVENTSTREAM_FAULT_PRELUDE_CRC
                                                : SMFW_EVENTSTREAM_FAULT_MESSAGE_CRC;
        /* Whole, and one byte at a time: the failure must be the same. */
        for (size_t piece = 0; piece <= 1; piece++) {
            smfw_eventstream_decoder dec;
            smfw_eventstream_decoder_init(&dec, NULL);
            smfw_error err;
            smfw_eventstream_message m;
            smfw_status st = SMFW_AGAIN;
            size_t step = piece ? 1 : data.len;
            for (size_t pos = 0; pos < data.len && st == SMFW_AGAIN; pos += step) {
                ck_assert_int_eq(smfw_eventstream_decoder_feed(&dec, data.data + pos, step, &err),
                                 SMFW_OK);
                st = smfw_eventstream_decoder_next(&dec, &m, &err);
            }
            ck_assert_msg(st == SMFW_ERR_PROTOCOL, "%s: decoded a damaged message", names[i]);
            ck_assert_msg(strcasestr(err.message, reason) != NULL, "%s: '%s' lacks '%s'", names[i],
                          err.message, reason);
            ck_assert_int_eq(smfw_eventstream_decoder_fault(&dec), want_fault);
            ck_assert_str_eq(smfw_eventstream_fault_name(want_fault),
                             reason[0] == 'P' ? "prelude checksum mismatch"
                                              : "message checksum mismatch");
            /* Sticky: the stream stays unusable. */
            ck_assert_int_eq(smfw_eventstream_decoder_next(&dec, &m, &err), SMFW_ERR_PROTOCOL);
            ck_assert_int_eq(smfw_eventstream_decoder_feed(&dec, "x", 1, &err), SMFW_ERR_PROTOCOL);
            ck_assert_int_eq(smfw_eventstream_decoder_finish(&dec, &err), SMFW_ERR_PROTOCOL);
            /* Reset makes it usable again. */
            smfw_eventstream_decoder_reset(&dec);
            ck_assert_int_eq(smfw_eventstream_decoder_fault(&dec), SMFW_EVENTSTREAM_FAULT_NONE);
            ck_assert_int_eq(smfw_eventstream_decoder_next(&dec, &m, &err), SMFW_AGAIN);
            smfw_eventstream_decoder_cleanup(&dec);
        }
        free(expect.data);
        free(data.data);
    }
}
END_TEST

/* Every proper prefix of a valid stream is "truncated" at finish. */
START_TEST(truncated_streams) {
    blob data = read_file(VEC_DIR "/sagemaker-synthetic/encoded/stream_three_parts");
    json_t *want = load_json(VEC_DIR "/sagemaker-synthetic/decoded/stream_three_parts");
    uint32_t first = json_u32(json_object_get(json_array_get(want, 0), "total_length"));
    uint32_t second = json_u32(json_object_get(json_array_get(want, 1), "total_length"));
    for (size_t cut = 1; cut < data.len; cut++) {
        smfw_eventstream_decoder dec;
        smfw_eventstream_decoder_init(&dec, NULL);
        smfw_error err;
        smfw_eventstream_message m;
        ck_assert_int_eq(smfw_eventstream_decoder_feed(&dec, data.data, cut, &err), SMFW_OK);
        while (smfw_eventstream_decoder_next(&dec, &m, &err) == SMFW_OK) continue;
        smfw_status st = smfw_eventstream_decoder_finish(&dec, &err);
        if (cut == first || cut == first + second) {
            ck_assert_int_eq(st, SMFW_OK); /* ended on a message boundary */
        } else {
            ck_assert_int_eq(st, SMFW_ERR_PROTOCOL);
            ck_assert_ptr_nonnull(strstr(err.message, "truncated"));
            ck_assert_int_eq(smfw_eventstream_decoder_fault(&dec),
                             SMFW_EVENTSTREAM_FAULT_TRUNCATED);
        }
        smfw_eventstream_decoder_cleanup(&dec);
    }
    json_decref(want);
    free(data.data);
}
END_TEST

/* ---- Hand-built malformed frames (valid CRCs, bad content) ------------------------------ */

/* Wrap a raw headers block and payload into a frame with correct CRCs. */
static size_t frame(uint8_t *out, const void *headers, uint32_t hlen, const void *payload,
                    uint32_t plen) {
    uint32_t total = 16 + hlen + plen;
    uint8_t *p = out;
    uint32_t v[2] = {total, hlen};
    for (int i = 0; i < 2; i++) {
        *p++ = (uint8_t)(v[i] >> 24), *p++ = (uint8_t)(v[i] >> 16), *p++ = (uint8_t)(v[i] >> 8);
        *p++ = (uint8_t)v[i];
    }
    uint32_t c = smfw_crc32(0, out, 8);
    *p++ = (uint8_t)(c >> 24), *p++ = (uint8_t)(c >> 16), *p++ = (uint8_t)(c >> 8);
    *p++ = (uint8_t)c;
    memcpy(p, headers, hlen);
    p += hlen;
    memcpy(p, payload, plen);
    p += plen;
    c = smfw_crc32(0, out, total - 4);
    *p++ = (uint8_t)(c >> 24), *p++ = (uint8_t)(c >> 16), *p++ = (uint8_t)(c >> 8);
    *p++ = (uint8_t)c;
    return total;
}

static smfw_status decode_one(const uint8_t *data, size_t len, const smfw_eventstream_limits *lim,
                              smfw_eventstream_fault *fault, char *msg, size_t msg_size) {
    smfw_eventstream_decoder dec;
    smfw_eventstream_decoder_init(&dec, lim);
    smfw_error err;
    smfw_error_clear(&err);
    smfw_eventstream_message m;
    smfw_status st = smfw_eventstream_decoder_feed(&dec, data, len, &err);
    if (st == SMFW_OK) st = smfw_eventstream_decoder_next(&dec, &m, &err);
    *fault = smfw_eventstream_decoder_fault(&dec);
    snprintf(msg, msg_size, "%s", err.message);
    smfw_eventstream_decoder_cleanup(&dec);
    return st;
}

START_TEST(malformed_headers) {
    static const struct {
        const char *bytes;
        uint32_t len;
        const char *needle;
    } cases[] = {
        {"\x00\x07", 2, "empty name"},
        {"\x05:abc", 4, "runs past"},
        {"\x03"
         "abc",
         4, "no type byte"},
        {"\x03"
         "abc\x0a",
         5, "unknown value type 10"},
        {"\x03"
         "abc\xff",
         5, "unknown value type 255"},
        {"\x03"
         "abc\x04\x00\x00",
         7, "runs past"},
        {"\x03"
         "abc\x07\x00",
         6, "value length"},
        {"\x03"
         "abc\x07\x00\x05hi",
         8, "runs past"},
        {"\x03"
         "abc\x09"
         "0123456789abcde",
         20, "runs past"},
        {"\x01x\x00\x01x\x01", 6, "duplicate header \"x\""},
    };
    uint8_t buf[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = frame(buf, cases[i].bytes, cases[i].len, "p", 1);
        smfw_eventstream_fault fault;
        char msg[SMFW_ERROR_MESSAGE_MAX];
        ck_assert_int_eq(decode_one(buf, n, NULL, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
        ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_BAD_HEADERS);
        ck_assert_msg(strstr(msg, cases[i].needle) != NULL, "case %zu: '%s' lacks '%s'", i, msg,
                      cases[i].needle);
    }
}
END_TEST

static void put_prelude(uint8_t *p, uint32_t total, uint32_t hlen) {
    uint8_t *q = p;
    uint32_t v[2] = {total, hlen};
    for (int i = 0; i < 2; i++) {
        *q++ = (uint8_t)(v[i] >> 24), *q++ = (uint8_t)(v[i] >> 16), *q++ = (uint8_t)(v[i] >> 8);
        *q++ = (uint8_t)v[i];
    }
    uint32_t c = smfw_crc32(0, p, 8);
    *q++ = (uint8_t)(c >> 24), *q++ = (uint8_t)(c >> 16), *q++ = (uint8_t)(c >> 8);
    *q = (uint8_t)c;
}

START_TEST(length_checks_and_limits) {
    uint8_t p[12];
    smfw_eventstream_fault fault;
    char msg[SMFW_ERROR_MESSAGE_MAX];
    /* A valid prelude announcing an impossible length fails at once, before buffering. */
    put_prelude(p, 15, 0);
    ck_assert_int_eq(decode_one(p, 12, NULL, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_BAD_LENGTH);
    put_prelude(p, 20, 5);
    ck_assert_int_eq(decode_one(p, 12, NULL, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_BAD_LENGTH);
    put_prelude(p, 0xFFFFFFFFu, 0);
    ck_assert_int_eq(decode_one(p, 12, NULL, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_TOO_LARGE);
    ck_assert_ptr_nonnull(strstr(msg, "frame too large"));
    put_prelude(p, SMFW_EVENTSTREAM_DEFAULT_MAX_MESSAGE_LENGTH, 200u * 1024u);
    ck_assert_int_eq(decode_one(p, 12, NULL, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_TOO_LARGE);
    /* The largest allowed frame only waits for more bytes. */
    put_prelude(p, SMFW_EVENTSTREAM_DEFAULT_MAX_MESSAGE_LENGTH, 0);
    ck_assert_int_eq(decode_one(p, 12, NULL, &fault, msg, sizeof msg), SMFW_AGAIN);

    /* Configured limits. */
    uint8_t buf[256];
    size_t n = frame(buf,
                     "\x01"
                     "a\x00\x01"
                     "b\x00\x01"
                     "c\x00",
                     9, "0123456789", 10);
    smfw_eventstream_limits lim = {.max_message_length = 34};
    ck_assert_int_eq(decode_one(buf, n, &lim, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_TOO_LARGE);
    lim.max_message_length = 35;
    ck_assert_int_eq(decode_one(buf, n, &lim, &fault, msg, sizeof msg), SMFW_OK);
    smfw_eventstream_limits hl = {.max_headers_length = 8};
    ck_assert_int_eq(decode_one(buf, n, &hl, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_TOO_LARGE);
    smfw_eventstream_limits hc = {.max_header_count = 2};
    ck_assert_int_eq(decode_one(buf, n, &hc, &fault, msg, sizeof msg), SMFW_ERR_PROTOCOL);
    ck_assert_int_eq(fault, SMFW_EVENTSTREAM_FAULT_TOO_LARGE);
    hc.max_header_count = 3;
    ck_assert_int_eq(decode_one(buf, n, &hc, &fault, msg, sizeof msg), SMFW_OK);
}
END_TEST

/* ---- Encoder ---------------------------------------------------------------------------- */

START_TEST(encode_decode_every_type) {
    static const uint8_t uuid[16] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    smfw_eventstream_header hs[] = {
        smfw_eventstream_header_bool("t", 1),
        smfw_eventstream_header_bool("f", 0),
        smfw_eventstream_header_int("b", SMFW_EVENTSTREAM_BYTE, -128),
        smfw_eventstream_header_int("s", SMFW_EVENTSTREAM_INT16, -32768),
        smfw_eventstream_header_int("i", SMFW_EVENTSTREAM_INT32, INT32_MIN),
        smfw_eventstream_header_int("l", SMFW_EVENTSTREAM_INT64, INT64_MIN),
        smfw_eventstream_header_bytes("y", "\x00\xff", 2),
        smfw_eventstream_header_string(":event-type", "PayloadPart"),
        smfw_eventstream_header_int("ts", SMFW_EVENTSTREAM_TIMESTAMP, 1767225600123LL),
        smfw_eventstream_header_uuid("u", uuid),
        smfw_eventstream_header_string("empty", ""),
    };
    size_t nh = sizeof hs / sizeof hs[0];
    size_t size = 0;
    smfw_error err;
    ck_assert_int_eq(smfw_eventstream_encoded_size(hs, nh, 5, &size, &err), SMFW_OK);
    uint8_t *out = malloc(size);
    size_t len = 0;
    ck_assert_int_eq(smfw_eventstream_encode(hs, nh, "hello", 5, out, size - 1, &len, &err),
                     SMFW_ERR_INTERNAL);
    ck_assert_uint_eq(len, size);
    ck_assert_int_eq(smfw_eventstream_encode(hs, nh, "hello", 5, out, size, &len, &err), SMFW_OK);
    ck_assert_uint_eq(len, size);

    smfw_eventstream_decoder *dec = smfw_eventstream_decoder_new(NULL);
    ck_assert_int_eq(smfw_eventstream_decoder_feed(dec, out, len, &err), SMFW_OK);
    smfw_eventstream_message m;
    ck_assert_int_eq(smfw_eventstream_decoder_next(dec, &m, &err), SMFW_OK);
    ck_assert_uint_eq(m.header_count, nh);
    for (size_t i = 0; i < nh; i++) {
        ck_assert_int_eq(m.headers[i].type, hs[i].type);
        ck_assert_uint_eq(m.headers[i].name_len, hs[i].name_len);
        ck_assert(memcmp(m.headers[i].name, hs[i].name, hs[i].name_len) == 0);
        switch (hs[i].type) {
        case SMFW_EVENTSTREAM_BYTES:
        case SMFW_EVENTSTREAM_STRING:
            ck_assert_uint_eq(m.headers[i].value.bytes.len, hs[i].value.bytes.len);
            ck_assert(memcmp(m.headers[i].value.bytes.data, hs[i].value.bytes.data,
                             hs[i].value.bytes.len) == 0);
            break;
        case SMFW_EVENTSTREAM_UUID:
            ck_assert(memcmp(m.headers[i].value.uuid, uuid, 16) == 0);
            break;
        case SMFW_EVENTSTREAM_BOOL_TRUE:
        case SMFW_EVENTSTREAM_BOOL_FALSE:
            break;
        default:
            ck_assert(m.headers[i].value.i == hs[i].value.i);
        }
    }
    ck_assert_uint_eq(m.payload_len, 5);
    ck_assert(memcmp(m.payload, "hello", 5) == 0);
    ck_assert(smfw_eventstream_message_has(&m, ":event-type", "PayloadPart"));
    ck_assert(!smfw_eventstream_message_has(&m, ":event-type", "Payload"));
    ck_assert(!smfw_eventstream_message_has(&m, "b", "x"));
    ck_assert(smfw_eventstream_message_has(&m, "empty", ""));
    ck_assert_ptr_null(smfw_eventstream_message_find(&m, ":message-type"));
    ck_assert_int_eq(smfw_eventstream_decoder_next(dec, &m, &err), SMFW_AGAIN);
    ck_assert_int_eq(smfw_eventstream_decoder_finish(dec, &err), SMFW_OK);
    smfw_eventstream_decoder_free(dec);
    free(out);
}
END_TEST

START_TEST(encode_rejects_unrepresentable) {
    char long_name[300];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    static uint8_t big[SMFW_EVENTSTREAM_MAX_VALUE_LENGTH + 1];
    smfw_eventstream_header bad[] = {
        smfw_eventstream_header_bool(long_name, 1),
        smfw_eventstream_header_bool("", 1),
        smfw_eventstream_header_int("b", SMFW_EVENTSTREAM_BYTE, 128),
        smfw_eventstream_header_int("s", SMFW_EVENTSTREAM_INT16, 40000),
        smfw_eventstream_header_int("i", SMFW_EVENTSTREAM_INT32, (int64_t)INT32_MAX + 1),
        smfw_eventstream_header_bytes("v", big, sizeof big),
        smfw_eventstream_header_int("x", (smfw_eventstream_type)10, 0),
    };
    uint8_t out[64];
    size_t len;
    smfw_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_int_eq(smfw_eventstream_encode(&bad[i], 1, NULL, 0, out, sizeof out, &len, &err),
                         SMFW_ERR_PROTOCOL);
    smfw_eventstream_header dup[] = {smfw_eventstream_header_bool("d", 1),
                                     smfw_eventstream_header_bool("d", 0)};
    ck_assert_int_eq(smfw_eventstream_encode(dup, 2, NULL, 0, out, sizeof out, &len, &err),
                     SMFW_ERR_PROTOCOL);
    ck_assert_ptr_nonnull(strstr(err.message, "duplicate"));
    /* The largest value is fine. */
    smfw_eventstream_header max = smfw_eventstream_header_bytes("v", big, sizeof big - 1);
    size_t size;
    ck_assert_int_eq(smfw_eventstream_encoded_size(&max, 1, 0, &size, &err), SMFW_OK);
    ck_assert_uint_eq(size, 16 + 1 + 1 + 1 + 2 + SMFW_EVENTSTREAM_MAX_VALUE_LENGTH);
    /* No headers, no payload: the 16-byte empty message. */
    ck_assert_int_eq(smfw_eventstream_encode(NULL, 0, NULL, 0, out, sizeof out, &len, &err),
                     SMFW_OK);
    ck_assert_uint_eq(len, 16);
    blob empty = read_file(VEC_DIR "/encoded/positive/empty_message");
    ck_assert(empty.len == 16 && memcmp(empty.data, out, 16) == 0);
    free(empty.data);
}
END_TEST

/* A long stream of same-size messages: the buffers stop growing after the first ones. */
START_TEST(no_growth_in_steady_state) {
    uint8_t frame_buf[512];
    smfw_eventstream_header hs[3] = {
        smfw_eventstream_header_string(":event-type", "PayloadPart"),
        smfw_eventstream_header_string(":content-type", "application/octet-stream"),
        smfw_eventstream_header_string(":message-type", "event"),
    };
    static const char payload[] = "data: {\"choices\":[{\"delta\":{\"content\":\"tok\"}}]}\n\n";
    size_t len;
    smfw_error err;
    ck_assert_int_eq(smfw_eventstream_encode(hs, 3, payload, sizeof payload - 1, frame_buf,
                                             sizeof frame_buf, &len, &err),
                     SMFW_OK);
    smfw_eventstream_decoder dec;
    smfw_eventstream_decoder_init(&dec, NULL);
    smfw_eventstream_message m;
    uint8_t *buf_after_warmup = NULL;
    size_t cap_after_warmup = 0;
    for (int i = 0; i < 10000; i++) {
        /* Feed each frame in two uneven pieces, like TCP reads that straddle frames. */
        size_t cut = (size_t)(i * 7) % len;
        ck_assert_int_eq(smfw_eventstream_decoder_feed(&dec, frame_buf, cut, &err), SMFW_OK);
        ck_assert_int_eq(smfw_eventstream_decoder_feed(&dec, frame_buf + cut, len - cut, &err),
                         SMFW_OK);
        ck_assert_int_eq(smfw_eventstream_decoder_next(&dec, &m, &err), SMFW_OK);
        ck_assert(smfw_eventstream_message_has(&m, ":message-type", "event"));
        ck_assert_int_eq(smfw_eventstream_decoder_next(&dec, &m, &err), SMFW_AGAIN);
        if (i == 10) {
            buf_after_warmup = dec.buf;
            cap_after_warmup = dec.cap;
        } else if (i > 10) {
            ck_assert_ptr_eq(dec.buf, buf_after_warmup);
            ck_assert_uint_eq(dec.cap, cap_after_warmup);
        }
    }
    ck_assert_uint_eq(smfw_eventstream_decoder_count(&dec), 10000);
    ck_assert_uint_eq(smfw_eventstream_decoder_pending(&dec), 0);
    smfw_eventstream_decoder_cleanup(&dec);
}
END_TEST

static Suite *eventstream_suite(void) {
    Suite *s = suite_create("eventstream");
    TCase *tc = tcase_create("codec");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, crc32_check_value);
    tcase_add_test(tc, positive_vectors);
    tcase_add_test(tc, sagemaker_synthetic_vectors);
    tcase_add_test(tc, all_vectors_as_one_stream);
    tcase_add_test(tc, negative_vectors);
    tcase_add_test(tc, truncated_streams);
    tcase_add_test(tc, malformed_headers);
    tcase_add_test(tc, length_checks_and_limits);
    tcase_add_test(tc, encode_decode_every_type);
    tcase_add_test(tc, encode_rejects_unrepresentable);
    tcase_add_test(tc, no_growth_in_steady_state);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(eventstream_suite());
}
