/* aws_fake_http.c - tiny HTTP/1.1 responder on 127.0.0.1 for AWS tests. */
#include "aws_fake_http.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CONNS 32

typedef struct conn {
    int fd;
    char *buf;
    size_t len, cap;
    int sent_continue;
} conn;

struct aws_fake_server {
    int listen_fd;
    int port;
    char url[64];
    aws_fake_handler handler;
    void *user;
    pthread_t thread;
    volatile int stop;
    pthread_mutex_t lock;
    int count;
    conn conns[MAX_CONNS];
};

const char *aws_fake_header(const aws_fake_request *req, const char *name) {
    for (size_t i = 0; i < req->header_count; i++)
        if (strcasecmp(req->names[i], name) == 0) return req->values[i];
    return NULL;
}

void aws_fake_reply(aws_fake_response *resp, int status, const char *content_type,
                    const char *body) {
    resp->status = status;
    if (content_type) aws_fake_add_header(resp, "Content-Type", content_type);
    free(resp->body);
    resp->body = body ? strdup(body) : NULL;
    resp->body_len = body ? strlen(body) : 0;
}

void aws_fake_add_header(aws_fake_response *resp, const char *name, const char *value) {
    size_t l = strlen(resp->headers);
    snprintf(resp->headers + l, sizeof(resp->headers) - l, "%s: %s\r\n", name, value);
}

static void send_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0) {
            if (w < 0 && errno == EINTR) continue;
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

static void conn_close(conn *c) {
    if (c->fd >= 0) close(c->fd);
    free(c->buf);
    memset(c, 0, sizeof(*c));
    c->fd = -1;
}

/* Try to handle one complete request in c->buf. Returns 1 if handled, 0 if incomplete. */
static int try_request(aws_fake_server *s, conn *c) {
    char *end = c->buf ? strstr(c->buf, "\r\n\r\n") : NULL;
    if (!end) return 0;
    size_t head_len = (size_t)(end - c->buf) + 4;
    /* Parse a copy of the head. */
    char *head = strndup(c->buf, head_len - 4);
    aws_fake_request req;
    memset(&req, 0, sizeof(req));
    char *save = NULL;
    char *line = strtok_r(head, "\r\n", &save);
    char *sp1 = line ? strchr(line, ' ') : NULL;
    char *sp2 = sp1 ? strrchr(line, ' ') : NULL;
    if (!sp1 || sp2 == sp1) {
        free(head);
        conn_close(c);
        return 0;
    }
    *sp1 = '\0';
    *sp2 = '\0';
    req.method = line;
    req.target = sp1 + 1;
    char *pathcopy = strdup(req.target);
    char *q = strchr(pathcopy, '?');
    req.query = "";
    if (q) {
        *q = '\0';
        req.query = q + 1;
    }
    req.path = pathcopy;
    size_t content_length = 0;
    while ((line = strtok_r(NULL, "\r\n", &save)) && req.header_count < 64) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        *colon = '\0';
        char *v = colon + 1;
        while (*v == ' ' || *v == '\t') v++;
        req.names[req.header_count] = line;
        req.values[req.header_count++] = v;
        if (strcasecmp(line, "Content-Length") == 0) content_length = strtoul(v, NULL, 10);
    }
    if (c->len < head_len + content_length) {
        const char *expect = aws_fake_header(&req, "Expect");
        if (expect && !c->sent_continue) {
            send_all(c->fd, "HTTP/1.1 100 Continue\r\n\r\n", 25);
            c->sent_continue = 1;
        }
        free(head);
        free(pathcopy);
        return 0;
    }
    req.body = c->buf + head_len;
    req.body_len = content_length;
    aws_fake_response resp;
    memset(&resp, 0, sizeof(resp));
    resp.status = 200;
    s->handler(&req, &resp, s->user);
    pthread_mutex_lock(&s->lock);
    s->count++;
    pthread_mutex_unlock(&s->lock);
    char top[256];
    int head_only = strcmp(req.method, "HEAD") == 0;
    snprintf(top, sizeof(top), "HTTP/1.1 %d X\r\nContent-Length: %zu\r\n%s", resp.status,
             resp.body_len, resp.close ? "Connection: close\r\n" : "");
    send_all(c->fd, top, strlen(top));
    send_all(c->fd, resp.headers, strlen(resp.headers));
    send_all(c->fd, "\r\n", 2);
    if (!head_only && resp.body_len) send_all(c->fd, resp.body, resp.body_len);
    free(resp.body);
    free(head);
    free(pathcopy);
    size_t used = head_len + content_length;
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
    c->buf[c->len] = '\0';
    c->sent_continue = 0;
    if (resp.close) {
        conn_close(c);
        return 0;
    }
    return 1;
}

static void *server_main(void *arg) {
    aws_fake_server *s = arg;
    while (!s->stop) {
        struct pollfd pfd[MAX_CONNS + 1];
        int idx[MAX_CONNS + 1];
        int n = 0;
        pfd[n].fd = s->listen_fd;
        pfd[n].events = POLLIN;
        idx[n++] = -1;
        for (int i = 0; i < MAX_CONNS; i++) {
            if (s->conns[i].fd < 0) continue;
            pfd[n].fd = s->conns[i].fd;
            pfd[n].events = POLLIN;
            idx[n++] = i;
        }
        if (poll(pfd, (nfds_t)n, 50) <= 0) continue;
        for (int k = 0; k < n; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (idx[k] < 0) {
                int fd = accept(s->listen_fd, NULL, NULL);
                if (fd < 0) continue;
                int placed = 0;
                for (int i = 0; i < MAX_CONNS && !placed; i++) {
                    if (s->conns[i].fd < 0) {
                        s->conns[i].fd = fd;
                        placed = 1;
                    }
                }
                if (!placed) close(fd);
                continue;
            }
            conn *c = &s->conns[idx[k]];
            if (c->cap - c->len < 65536) {
                size_t cap = c->cap ? c->cap * 2 : 131072;
                char *nb = realloc(c->buf, cap);
                if (!nb) {
                    conn_close(c);
                    continue;
                }
                c->buf = nb;
                c->cap = cap;
            }
            ssize_t r = recv(c->fd, c->buf + c->len, c->cap - c->len - 1, 0);
            if (r <= 0) {
                conn_close(c);
                continue;
            }
            c->len += (size_t)r;
            c->buf[c->len] = '\0';
            while (c->fd >= 0 && try_request(s, c)) {
            }
        }
    }
    return NULL;
}

aws_fake_server *aws_fake_server_start(aws_fake_handler handler, void *user) {
    aws_fake_server *s = calloc(1, sizeof(*s));
    s->handler = handler;
    s->user = user;
    for (int i = 0; i < MAX_CONNS; i++) s->conns[i].fd = -1;
    s->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(s->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(s->listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
        listen(s->listen_fd, 64) != 0) {
        close(s->listen_fd);
        free(s);
        return NULL;
    }
    socklen_t al = sizeof(a);
    getsockname(s->listen_fd, (struct sockaddr *)&a, &al);
    s->port = ntohs(a.sin_port);
    snprintf(s->url, sizeof(s->url), "http://127.0.0.1:%d", s->port);
    pthread_mutex_init(&s->lock, NULL);
    pthread_create(&s->thread, NULL, server_main, s);
    return s;
}

const char *aws_fake_server_url(const aws_fake_server *s) {
    return s->url;
}

int aws_fake_server_port(const aws_fake_server *s) {
    return s->port;
}

int aws_fake_server_count(aws_fake_server *s) {
    pthread_mutex_lock(&s->lock);
    int n = s->count;
    pthread_mutex_unlock(&s->lock);
    return n;
}

void aws_fake_server_stop(aws_fake_server *s) {
    if (!s) return;
    s->stop = 1;
    pthread_join(s->thread, NULL);
    for (int i = 0; i < MAX_CONNS; i++)
        if (s->conns[i].fd >= 0) conn_close(&s->conns[i]);
    close(s->listen_fd);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

char *aws_fake_tempdir(void) {
    char tmpl[] = "/tmp/smfw-aws-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

char *aws_fake_write_file(const char *dir, const char *name, const char *content) {
    char *path = NULL;
    if (asprintf(&path, "%s/%s", dir, name) < 0) return NULL;
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(content, f);
        fclose(f);
    }
    return path;
}

void aws_fake_rmdir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char p[4096];
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            aws_fake_rmdir(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}
