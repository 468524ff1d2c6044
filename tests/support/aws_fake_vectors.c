/* aws_fake_vectors.c - parse SigV4 test-vector request files. */
#include "aws_fake_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *vreq_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (buf) buf[n] = '\0';
    fclose(f);
    if (len) *len = (size_t)n;
    return buf;
}

void vreq_free(vreq *r) {
    for (size_t i = 0; i < r->njoined; i++) free(r->joined[i]);
    free(r->text);
    memset(r, 0, sizeof(*r));
}

int vreq_parse(vreq *r, const char *file) {
    memset(r, 0, sizeof(*r));
    size_t len;
    r->text = vreq_read_file(file, &len);
    if (!r->text) return -1;
    char *s = r->text;
    char *eol = strchr(s, '\n');
    if (eol) *eol = '\0';
    /* "METHOD <target, may hold spaces> HTTP/1.1" */
    char *sp = strchr(s, ' ');
    if (!sp) return -1;
    *sp = '\0';
    snprintf(r->method, sizeof(r->method), "%s", s);
    char *target = sp + 1;
    char *http = strstr(target, " HTTP/");
    if (!http) return -1;
    *http = '\0';
    char *q = strchr(target, '?');
    if (q) {
        *q = '\0';
        r->query = q + 1;
    }
    r->path = target;
    if (!eol) return 0;
    char *p = eol + 1;
    while (*p) {
        if (p[0] == '\n' || (p[0] == '\r' && p[1] == '\n')) {
            p += p[0] == '\r' ? 2 : 1;
            r->body = p;
            r->body_len = len - (size_t)(p - r->text);
            return 0;
        }
        char *e = strchr(p, '\n');
        if (e) *e = '\0';
        if (e && e > p && e[-1] == '\r') e[-1] = '\0';
        if ((p[0] == ' ' || p[0] == '\t') && r->nh > 0) {
            /* Continuation line: kept in the previous value, folded by the signer. */
            smfw_sigv4_header *prev = &r->h[r->nh - 1];
            char *joined = NULL;
            if (r->njoined >= 8 || asprintf(&joined, "%s\n%s", prev->value, p) < 0) return -1;
            r->joined[r->njoined++] = joined;
            prev->value = joined;
        } else {
            char *colon = strchr(p, ':');
            if (!colon || r->nh >= 32) return -1;
            *colon = '\0';
            r->h[r->nh].name = p;
            r->h[r->nh].value = colon + 1;
            r->nh++;
        }
        if (!e) break;
        p = e + 1;
    }
    return 0;
}
