/* shard.c - the deterministic split of one run over N load generators (see smfw/shard.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/shard.h>

#define SMFW_SHARD_MAX 100000

static int parse_uint(const char **p, unsigned long *out) {
    while (**p == ' ') (*p)++;
    if (!isdigit((unsigned char)**p)) return -1;
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(*p, &end, 10);
    if (errno || v > SMFW_SHARD_MAX) return -1;
    *p = end;
    while (**p == ' ') (*p)++;
    *out = v;
    return 0;
}

smfw_status smfw_shard_parse(const char *text, smfw_shard *out, smfw_error *err) {
    out->index = 1;
    out->count = 1;
    if (!text || !*text) return SMFW_OK;
    const char *p = text;
    unsigned long i = 0, n = 0;
    if (*p == '$') {
        /* "$VAR+K/N": the index from the environment plus K. Job engines hand each task its
         * index in a variable (Kubernetes' JOB_COMPLETION_INDEX and AWS Batch's
         * AWS_BATCH_JOB_ARRAY_INDEX count from 0), and their job definitions have no shell. */
        char name[128];
        size_t len = strcspn(p + 1, "+/");
        if (len == 0 || len >= sizeof name)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "shard \"%s\": expected $VAR/N or $VAR+K/N (e.g. "
                                  "$JOB_COMPLETION_INDEX+1/4)",
                                  text);
        memcpy(name, p + 1, len);
        name[len] = '\0';
        p += 1 + len;
        unsigned long k = 0, v = 0;
        if (*p == '+' && (p++, parse_uint(&p, &k)) != 0)
            return smfw_error_set(err, SMFW_ERR_CONFIG, "shard \"%s\": bad +K after $%s", text,
                                  name);
        const char *env = getenv(name), *q = env;
        if (!env || parse_uint(&q, &v) != 0 || *q)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "shard \"%s\": the environment variable %s is %s%s%s, not a "
                                  "task index",
                                  text, name, env ? "\"" : "unset", env ? env : "",
                                  env ? "\"" : "");
        i = v + k;
    } else if (parse_uint(&p, &i) != 0) {
        p = "!";
    }
    if (*p != '/' || (p++, parse_uint(&p, &n)) != 0 || *p)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "shard \"%s\": expected I/N with 1 <= I <= N (e.g. 2/3: the second "
                              "of three shards)",
                              text);
    if (n < 1 || i < 1 || i > n)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "shard \"%s\": the index must be between 1 and %lu (shards are "
                              "numbered from 1; a Kubernetes JOB_COMPLETION_INDEX needs +1)",
                              text, n ? n : 1);
    out->index = (uint32_t)i;
    out->count = (uint32_t)n;
    return SMFW_OK;
}

const char *smfw_shard_format(const smfw_shard *s, char *buf, size_t size) {
    snprintf(buf, size, "%u/%u", s->index, s->count);
    return buf;
}

uint64_t smfw_shard_share(const smfw_shard *s, uint64_t total) {
    if (s->count <= 1) return total;
    return total / s->count + ((uint64_t)(s->index - 1) < total % s->count ? 1 : 0);
}

uint64_t smfw_shard_global_index(const smfw_shard *s, uint64_t k) {
    if (s->count <= 1) return k;
    return k * s->count + (s->index - 1);
}

int smfw_shard_owns(const smfw_shard *s, uint64_t g) {
    if (s->count <= 1) return 1;
    return g % s->count == s->index - 1;
}

double smfw_shard_rate(const smfw_shard *s, double total_rate) {
    return s->count <= 1 ? total_rate : total_rate / (double)s->count;
}
