/*
 * fuzz_eventstream.c - libFuzzer target for the event-stream decoder.
 *
 * The first input byte picks how the rest is split into feeds (so partial
 * preludes, partial frames and 1-byte feeds are all explored); the decoder
 * must never crash or read out of bounds, must fail stickily, and every
 * message it accepts must re-encode to exactly the bytes it came from.
 *
 * Run (with -DSMFW_FUZZ=ON -DCMAKE_C_COMPILER=clang):
 *   build/tests/fuzz/fuzz_eventstream -max_total_time=60 tests/fuzz/corpus/eventstream \
 *       tests/data/eventstream/encoded/positive \
 *       tests/data/eventstream/sagemaker-synthetic/encoded
 */
#include <smfw/eventstream.h>

#include <stdlib.h>
#include <string.h>

/* Re-encode a decoded message and compare with its original bytes. */
static void check_roundtrip(const smfw_eventstream_message *m, const uint8_t *orig) {
    size_t size = 0;
    smfw_error err;
    /* Values over 32767 bytes decode but are refused by the encoder, by design. */
    if (smfw_eventstream_encoded_size(m->headers, m->header_count, m->payload_len, &size, &err) !=
        SMFW_OK)
        return;
    if (size != m->total_length) abort();
    uint8_t *out = malloc(size);
    size_t len = 0;
    if (!out) return;
    if (smfw_eventstream_encode(m->headers, m->header_count, m->payload, m->payload_len, out, size,
                                &len, &err) != SMFW_OK ||
        len != size || memcmp(out, orig, size) != 0)
        abort();
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    size_t step = (size_t)data[0] % 17; /* 0 = everything in one feed */
    data++, size--;

    smfw_eventstream_limits limits = {.max_message_length = 1u << 20};
    smfw_eventstream_decoder dec;
    smfw_eventstream_decoder_init(&dec, &limits);
    smfw_error err;
    smfw_eventstream_message m;
    size_t pos = 0, consumed = 0;
    smfw_status st = SMFW_OK;
    while (pos < size && st >= 0) {
        size_t n = step ? step : size;
        if (n > size - pos) n = size - pos;
        /* A fresh allocation of exactly n bytes, so ASan catches reads past the input. */
        uint8_t *chunk = malloc(n);
        if (!chunk) break;
        memcpy(chunk, data + pos, n);
        st = smfw_eventstream_decoder_feed(&dec, chunk, n, &err);
        free(chunk);
        pos += n;
        while (st >= 0 && (st = smfw_eventstream_decoder_next(&dec, &m, &err)) == SMFW_OK) {
            check_roundtrip(&m, data + consumed);
            consumed += m.total_length;
        }
    }
    if (st >= 0) {
        st = smfw_eventstream_decoder_finish(&dec, &err);
        if (st == SMFW_OK && consumed != size) abort();
    }
    if (st < 0) {
        /* Failure is sticky and explained. */
        if (smfw_eventstream_decoder_fault(&dec) == SMFW_EVENTSTREAM_FAULT_NONE) abort();
        if (err.message[0] == '\0') abort();
        if (smfw_eventstream_decoder_next(&dec, &m, &err) >= 0) abort();
    }
    smfw_eventstream_decoder_cleanup(&dec);
    return 0;
}
