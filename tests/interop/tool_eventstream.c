/*
 * tool_eventstream.c - exposes smfw's event-stream codec to the JS interop tests.
 *
 *   tool_eventstream encode              JSON messages on stdin -> binary frames on stdout
 *   tool_eventstream decode [SPLIT]      binary frames on stdin -> JSON messages on stdout
 *
 * JSON form (as in tests/data/eventstream/decoded, with 64-bit values as
 * strings so JavaScript does not round them):
 *   [{"headers":[{"name":..., "type":0..9, "value":...}], "payload":"<base64>",
 *     "total_length":N, "headers_length":N, "prelude_crc":N, "message_crc":N}]
 * value: true/false (0,1), a number (2,3,4), a decimal string (5,8), base64 (6,7,9).
 * The lengths and CRCs are output only.
 *
 * decode feeds the input in pieces of SPLIT bytes (default: all at once;
 * "random:SEED" for pseudo-random piece sizes 1..64). On a decoding failure
 * it prints {"error": message, "fault": name, "decoded": [...]} and exits 1.
 */
#include <smfw/eventstream.h>

#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "tool_eventstream: %s\n", what);
    exit(2);
}

static uint8_t *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) die("out of memory");
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) die("out of memory");
        }
    }
    *len = n;
    return buf;
}

static json_t *b64_json(const uint8_t *data, size_t len) {
    char *out = malloc(4 * ((len + 2) / 3) + 1);
    if (!out) die("out of memory");
    EVP_EncodeBlock((unsigned char *)out, data, (int)len);
    json_t *j = json_string(out);
    free(out);
    return j;
}

/* Decode base64 into a fresh buffer; exits on bad input. */
static uint8_t *b64_decode(const char *s, size_t *len) {
    size_t n = strlen(s);
    uint8_t *out = malloc(n / 4 * 3 + 3);
    if (!out) die("out of memory");
    *len = 0;
    if (n == 0) return out;
    int got = EVP_DecodeBlock(out, (const unsigned char *)s, (int)n);
    if (got < 0) die("bad base64");
    size_t pad = (n >= 1 && s[n - 1] == '=') + (n >= 2 && s[n - 2] == '=');
    *len = (size_t)got - pad;
    return out;
}

static json_t *message_json(const smfw_eventstream_message *m) {
    json_t *headers = json_array();
    for (size_t i = 0; i < m->header_count; i++) {
        const smfw_eventstream_header *h = &m->headers[i];
        json_t *v = NULL;
        char num[32];
        switch (h->type) {
        case SMFW_EVENTSTREAM_BOOL_TRUE:
            v = json_true();
            break;
        case SMFW_EVENTSTREAM_BOOL_FALSE:
            v = json_false();
            break;
        case SMFW_EVENTSTREAM_BYTE:
        case SMFW_EVENTSTREAM_INT16:
        case SMFW_EVENTSTREAM_INT32:
            v = json_integer(h->value.i);
            break;
        case SMFW_EVENTSTREAM_INT64:
        case SMFW_EVENTSTREAM_TIMESTAMP:
            snprintf(num, sizeof num, "%lld", (long long)h->value.i);
            v = json_string(num);
            break;
        case SMFW_EVENTSTREAM_BYTES:
        case SMFW_EVENTSTREAM_STRING:
            v = b64_json(h->value.bytes.data, h->value.bytes.len);
            break;
        case SMFW_EVENTSTREAM_UUID:
            v = b64_json(h->value.uuid, 16);
            break;
        }
        json_t *jh = json_object();
        json_object_set_new(jh, "name", json_stringn(h->name, h->name_len));
        json_object_set_new(jh, "type", json_integer(h->type));
        json_object_set_new(jh, "value", v);
        json_array_append_new(headers, jh);
    }
    json_t *j = json_object();
    json_object_set_new(j, "total_length", json_integer(m->total_length));
    json_object_set_new(j, "headers_length", json_integer(m->headers_length));
    json_object_set_new(j, "prelude_crc", json_integer(m->prelude_crc));
    json_object_set_new(j, "message_crc", json_integer(m->message_crc));
    json_object_set_new(j, "headers", headers);
    json_object_set_new(j, "payload", b64_json(m->payload, m->payload_len));
    return j;
}

static int cmd_decode(const char *split) {
    size_t len;
    uint8_t *data = read_all(stdin, &len);
    size_t fixed = 0;
    unsigned long long seed = 0;
    int random = 0;
    if (split && strncmp(split, "random:", 7) == 0) {
        random = 1;
        seed = strtoull(split + 7, NULL, 10) * 6364136223846793005ULL + 1442695040888963407ULL;
    } else if (split) {
        fixed = strtoul(split, NULL, 10);
    }
    smfw_eventstream_decoder dec;
    smfw_eventstream_decoder_init(&dec, NULL);
    smfw_error err;
    smfw_error_clear(&err);
    smfw_eventstream_message m;
    json_t *out = json_array();
    smfw_status st = SMFW_OK;
    size_t pos = 0;
    while (pos < len && st >= 0) {
        size_t n = len - pos;
        if (random) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            n = 1 + (size_t)((seed >> 33) % 64);
        } else if (fixed) {
            n = fixed;
        }
        if (n > len - pos) n = len - pos;
        st = smfw_eventstream_decoder_feed(&dec, data + pos, n, &err);
        pos += n;
        while (st >= 0 && (st = smfw_eventstream_decoder_next(&dec, &m, &err)) == SMFW_OK)
            json_array_append_new(out, message_json(&m));
    }
    if (st >= 0) st = smfw_eventstream_decoder_finish(&dec, &err);
    int rc = 0;
    if (st < 0) {
        json_t *e = json_object();
        json_object_set_new(e, "error", json_string(err.message));
        json_object_set_new(
            e, "fault",
            json_string(smfw_eventstream_fault_name(smfw_eventstream_decoder_fault(&dec))));
        json_object_set_new(e, "decoded", out);
        out = e;
        rc = 1;
    }
    json_dumpf(out, stdout, JSON_COMPACT);
    putchar('\n');
    json_decref(out);
    smfw_eventstream_decoder_cleanup(&dec);
    free(data);
    return rc;
}

static int cmd_encode(void) {
    json_error_t jerr;
    json_t *in = json_loadf(stdin, 0, &jerr);
    if (!json_is_array(in)) die("stdin is not a JSON array");
    size_t idx;
    json_t *jm;
    json_array_foreach(in, idx, jm) {
        json_t *jh = json_object_get(jm, "headers");
        size_t nh = json_array_size(jh);
        smfw_eventstream_header *hs = calloc(nh ? nh : 1, sizeof *hs);
        uint8_t **owned = calloc(nh ? nh : 1, sizeof *owned);
        if (!hs || !owned) die("out of memory");
        for (size_t i = 0; i < nh; i++) {
            json_t *h = json_array_get(jh, i);
            json_t *name = json_object_get(h, "name");
            json_t *v = json_object_get(h, "value");
            if (!json_is_string(name)) die("header without a name");
            hs[i].name = json_string_value(name);
            hs[i].name_len = json_string_length(name);
            hs[i].type = (smfw_eventstream_type)json_integer_value(json_object_get(h, "type"));
            switch (hs[i].type) {
            case SMFW_EVENTSTREAM_BOOL_TRUE:
            case SMFW_EVENTSTREAM_BOOL_FALSE:
                break;
            case SMFW_EVENTSTREAM_BYTE:
            case SMFW_EVENTSTREAM_INT16:
            case SMFW_EVENTSTREAM_INT32:
            case SMFW_EVENTSTREAM_INT64:
            case SMFW_EVENTSTREAM_TIMESTAMP:
                hs[i].value.i = json_is_string(v) ? strtoll(json_string_value(v), NULL, 10)
                                                  : json_integer_value(v);
                break;
            case SMFW_EVENTSTREAM_BYTES:
            case SMFW_EVENTSTREAM_STRING:
            case SMFW_EVENTSTREAM_UUID: {
                size_t n = 0;
                owned[i] = b64_decode(json_string_value(v) ? json_string_value(v) : "", &n);
                if (hs[i].type == SMFW_EVENTSTREAM_UUID) {
                    if (n != 16) die("a uuid must be 16 bytes");
                    memcpy(hs[i].value.uuid, owned[i], 16);
                } else {
                    hs[i].value.bytes.data = owned[i];
                    hs[i].value.bytes.len = n;
                }
                break;
            }
            }
        }
        size_t plen = 0;
        json_t *jp = json_object_get(jm, "payload");
        uint8_t *payload = b64_decode(json_is_string(jp) ? json_string_value(jp) : "", &plen);
        size_t size = 0, len = 0;
        smfw_error err;
        if (smfw_eventstream_encoded_size(hs, nh, plen, &size, &err) != SMFW_OK) {
            fprintf(stderr, "tool_eventstream: message %zu: %s\n", idx, err.message);
            return 1;
        }
        uint8_t *out = malloc(size);
        if (!out) die("out of memory");
        if (smfw_eventstream_encode(hs, nh, payload, plen, out, size, &len, &err) != SMFW_OK) {
            fprintf(stderr, "tool_eventstream: message %zu: %s\n", idx, err.message);
            return 1;
        }
        fwrite(out, 1, len, stdout);
        free(out);
        free(payload);
        for (size_t i = 0; i < nh; i++) free(owned[i]);
        free(owned);
        free(hs);
    }
    json_decref(in);
    return fflush(stdout) == 0 ? 0 : 2;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "decode") == 0) return cmd_decode(argc >= 3 ? argv[2] : NULL);
    if (argc >= 2 && strcmp(argv[1], "encode") == 0) return cmd_encode();
    fprintf(stderr, "usage: tool_eventstream encode|decode [SPLIT|random:SEED]\n");
    return 2;
}
