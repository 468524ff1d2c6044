/*
 * aws_fake_http.h - a tiny HTTP/1.1 responder on 127.0.0.1 for tests of the
 * AWS layer (IMDS, container credentials, STS, S3, awsJson services).
 *
 * One background thread polls the listening socket and every open
 * connection (keep-alive), reads whole requests (Content-Length bodies,
 * answers Expect: 100-continue) and asks the handler for each response.
 */
#ifndef SMFW_AWS_FAKE_HTTP_H
#define SMFW_AWS_FAKE_HTTP_H

#include <stddef.h>

typedef struct aws_fake_request {
    const char *method;
    const char *target; /* path?query as received */
    const char *path;   /* without the query */
    const char *query;  /* after '?', or "" */
    const char *names[64];
    const char *values[64];
    size_t header_count;
    const char *body;
    size_t body_len;
} aws_fake_request;

typedef struct aws_fake_response {
    int status;         /* default 200 */
    char headers[4096]; /* extra header lines, each ending in "\r\n" */
    char *body;         /* malloc'd by the handler (freed by the server), or NULL */
    size_t body_len;
    int close; /* close the connection after this response */
} aws_fake_response;

typedef void (*aws_fake_handler)(const aws_fake_request *req, aws_fake_response *resp, void *user);

typedef struct aws_fake_server aws_fake_server;

/* Start listening on 127.0.0.1:<free port>. */
aws_fake_server *aws_fake_server_start(aws_fake_handler handler, void *user);
/* "http://127.0.0.1:PORT" */
const char *aws_fake_server_url(const aws_fake_server *s);
int aws_fake_server_port(const aws_fake_server *s);
/* Number of requests answered so far. */
int aws_fake_server_count(aws_fake_server *s);
void aws_fake_server_stop(aws_fake_server *s);

/* Header value from a request (case-insensitive), or NULL. */
const char *aws_fake_header(const aws_fake_request *req, const char *name);
/* Set a response: status, content type and a copy of body. */
void aws_fake_reply(aws_fake_response *resp, int status, const char *content_type,
                    const char *body);
/* Append one header line ("Name: value") to a response. */
void aws_fake_add_header(aws_fake_response *resp, const char *name, const char *value);

/* Make a fresh temporary directory; returns its path (static buffer per call site). */
char *aws_fake_tempdir(void);
/* Write a file under dir; returns the full path (malloc'd). */
char *aws_fake_write_file(const char *dir, const char *name, const char *content);
/* rm -r of a temp dir made by aws_fake_tempdir(). */
void aws_fake_rmdir(const char *dir);

#endif
