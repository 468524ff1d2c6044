/*
 * http.h - smfw-mock's HTTP/1.1 server on the libevent loop.
 *
 * A small server of its own (not evhttp) because the mock must control the
 * wire exactly: when each response byte is handed to the socket (ground-truth
 * timestamps), closing a connection mid-body (the `drop` fault), delaying
 * headers, and answering with no allocation beyond the request itself.
 * Keep-alive and pipelining are supported (requests on a connection are
 * served in order); request bodies need Content-Length (or are chunked).
 */
#ifndef SMFW_MOCK_HTTP_H
#define SMFW_MOCK_HTTP_H

#include <event2/event.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mock_http_server mock_http_server;
typedef struct mock_conn mock_conn;
typedef struct mock_request mock_request;

typedef struct mock_http_header {
    char *name; /* as received */
    char *value;
} mock_http_header;

/* One received request. Everything is owned by the request until mock_request_finish(). */
struct mock_request {
    mock_conn *conn;
    char method[16];
    char *target; /* raw request target, e.g. "/endpoints/x/invocations?a=b" */
    char *path;   /* raw (still percent-encoded) path part of target */
    char *query;  /* raw query after '?', "" when none */
    mock_http_header *headers;
    size_t header_count;
    uint8_t *body;
    size_t body_len;
    int64_t recv_ns; /* CLOCK_MONOTONIC when the last byte of the request was read */
    /* CLOCK_MONOTONIC when the kernel received the last bytes (the socket's receive timestamp,
       taken before the mock was woken for them); recv_ns where the server does not stamp
       arrivals (mock_http_server_stamp_arrivals) or the kernel gave no timestamp. */
    int64_t arrival_ns;
    int head_only; /* HEAD: send headers, no body */
    /* Called (once) when the peer goes away while the handler still owns the request.
       The handler must stop its timers and call mock_request_finish(). */
    void (*on_abort)(mock_request *req, void *user);
    void *user;
    /* Called when the last byte of the response has been handed to the socket. */
    void (*on_sent)(mock_request *req, int64_t sent_ns, void *user);
    int aborted;
    int responded; /* headers queued */
    int done;      /* whole response queued */
    int finished;  /* handler called mock_request_finish() */
    int sent_reported;
    int keep_alive;
    uint64_t end_offset;  /* connection output offset just past the response */
    int64_t last_sent_ns; /* when the last byte so far was handed to the socket */
    /* Marker for "when these bytes were handed to the socket" (first token). */
    uint64_t mark_offset;
    int64_t *mark_stamp;
};

/* Handler for a fully received request; it must eventually respond and finish. */
typedef void (*mock_http_handler)(mock_request *req, void *user);

mock_http_server *mock_http_server_new(struct event_base *base, const char *host, int port,
                                       mock_http_handler handler, void *user, char *err,
                                       size_t err_size);
void mock_http_server_free(mock_http_server *srv);
/* Shutdown: stop listening and close every connection; handlers of requests in flight get
   on_abort (run the loop once more to let them finish, then free the server). */
void mock_http_server_close_all(mock_http_server *srv);
/* Ask the kernel for each connection's receive timestamps (SO_TIMESTAMPNS), so a request's
   arrival_ns says when its bytes arrived rather than when the mock got to read them: on a
   virtual machine an idle mock can take a millisecond or more to be woken. For the ground
   truth; it costs a recvmsg() with a control message per read. */
void mock_http_server_stamp_arrivals(mock_http_server *srv);
/* The bound address (after port 0 picked one). */
int mock_http_server_port(const mock_http_server *srv);
/* Connections currently open (tests and shutdown). */
size_t mock_http_server_connections(const mock_http_server *srv);

/* Header lookup, case-insensitive; NULL when absent. */
const char *mock_request_header(const mock_request *req, const char *name);

/*
 * Send a complete response. `headers` is a NULL-terminated list of
 * "Name: value" strings (no CRLF); Content-Length, Date and Connection are
 * added. Body may be NULL when len is 0.
 */
void mock_respond(mock_request *req, int status, const char *const *headers, const void *body,
                  size_t len);

/* Start a chunked response (headers now; body with mock_respond_chunk). */
void mock_respond_start(mock_request *req, int status, const char *const *headers);
/*
 * Send one chunk (len > 0). When stamp is non-NULL, *stamp receives the
 * CLOCK_MONOTONIC time at which the last byte of this chunk was handed to
 * the socket (at once, or later from the write event).
 */
void mock_respond_chunk(mock_request *req, const void *data, size_t len, int64_t *stamp);
/* End a chunked response (the zero-length chunk). */
void mock_respond_end(mock_request *req);

/* Close the connection now (after handing over what is queued): the `drop` fault. */
void mock_request_drop(mock_request *req);

/*
 * The handler is done with the request: frees it and lets the connection
 * serve the next one. Must be called exactly once, after the response was
 * ended (or after on_abort).
 */
void mock_request_finish(mock_request *req);

/* Reason phrase for a status code. */
const char *mock_http_reason(int status);

#endif /* SMFW_MOCK_HTTP_H */
