/*
 * aws_fake_vectors.h - reading the SigV4 test-vector request files of
 * tests/data/sigv4 (request line, headers with folded lines, body).
 */
#ifndef SMFW_AWS_FAKE_VECTORS_H
#define SMFW_AWS_FAKE_VECTORS_H

#include <stddef.h>

#include <smfw/sigv4.h>

typedef struct vreq {
    char *text;
    char method[16];
    char *path;  /* as written in the file (raw or encoded, depending on the suite) */
    char *query; /* NULL when none */
    smfw_sigv4_header h[32];
    size_t nh;
    const char *body;
    size_t body_len;
    char *joined[8];
    size_t njoined;
} vreq;

/* Parse a request file; returns 0, or -1 if it cannot be read or parsed. */
int vreq_parse(vreq *r, const char *file);
void vreq_free(vreq *r);
/* Whole file as a NUL-terminated string (malloc'd), or NULL. */
char *vreq_read_file(const char *path, size_t *len);

#endif
