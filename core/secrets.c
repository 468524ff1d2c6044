/* secrets.c - registry of secret strings masked out of every log line and error. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/smfw.h>

#define SMFW_SECRETS_MAX 64

static pthread_mutex_t secrets_lock = PTHREAD_MUTEX_INITIALIZER;
static char *secrets[SMFW_SECRETS_MAX];
static size_t n_secrets;

void smfw_secret_register(const char *secret) {
    if (!secret || strlen(secret) < 4) return;
    pthread_mutex_lock(&secrets_lock);
    for (size_t i = 0; i < n_secrets; i++) {
        if (strcmp(secrets[i], secret) == 0) {
            pthread_mutex_unlock(&secrets_lock);
            return;
        }
    }
    if (n_secrets == SMFW_SECRETS_MAX) {
        /* Oldest secrets are the least likely to still be in use (rotated credentials). */
        free(secrets[0]);
        memmove(secrets, secrets + 1, (SMFW_SECRETS_MAX - 1) * sizeof secrets[0]);
        n_secrets--;
    }
    secrets[n_secrets] = strdup(secret);
    if (secrets[n_secrets]) n_secrets++;
    pthread_mutex_unlock(&secrets_lock);
}

void smfw_secret_clear_all(void) {
    pthread_mutex_lock(&secrets_lock);
    for (size_t i = 0; i < n_secrets; i++) free(secrets[i]);
    n_secrets = 0;
    pthread_mutex_unlock(&secrets_lock);
}

char *smfw_secret_mask(char *dst, size_t dst_size, const char *src) {
    if (!dst || dst_size == 0) return dst;
    if (!src) src = "";
    pthread_mutex_lock(&secrets_lock);
    size_t o = 0;
    const char *p = src;
    while (*p && o + 1 < dst_size) {
        size_t match = 0;
        for (size_t i = 0; i < n_secrets; i++) {
            size_t l = strlen(secrets[i]);
            if (strncmp(p, secrets[i], l) == 0) {
                match = l;
                break;
            }
        }
        if (match) {
            const char *mask = "****";
            for (size_t k = 0; mask[k] && o + 1 < dst_size; k++) dst[o++] = mask[k];
            p += match;
        } else {
            dst[o++] = *p++;
        }
    }
    dst[o] = '\0';
    pthread_mutex_unlock(&secrets_lock);
    return dst;
}
