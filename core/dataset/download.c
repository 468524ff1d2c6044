/*
 * download.c - fetch a dataset file into the cache: libcurl, a progress bar
 * on stderr, SHA-256 checked while the bytes arrive, and an atomic rename so
 * that an interrupted or corrupt download never looks like a cached file.
 */
#include <curl/curl.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <smfw/log.h>
#include <smfw/net.h>
#include <smfw/untrusted.h>

#include "dataset_internal.h"

typedef struct download_state {
    FILE *fp;
    EVP_MD_CTX *sha;
    int write_failed;
    int quiet;
    int last_percent;
    curl_off_t last_bytes_shown;
} download_state;

static size_t on_body(char *data, size_t size, size_t nmemb, void *user) {
    download_state *d = user;
    size_t n = size * nmemb;
    if (fwrite(data, 1, n, d->fp) != n) {
        d->write_failed = 1;
        return 0;
    }
    EVP_DigestUpdate(d->sha, data, n);
    return n;
}

static int on_progress(void *user, curl_off_t total, curl_off_t now, curl_off_t ut, curl_off_t un) {
    (void)ut;
    (void)un;
    download_state *d = user;
    if (d->quiet) return 0;
    if (total > 0) {
        int percent = (int)(now * 100 / total);
        if (percent == d->last_percent) return 0;
        d->last_percent = percent;
        int bars = percent / 4;
        fprintf(stderr, "\rsmfw: downloading [%-25.*s] %3d%% %lld/%lld MiB", bars,
                "#########################", percent, (long long)(now >> 20),
                (long long)(total >> 20));
    } else if (now - d->last_bytes_shown >= (1 << 20)) {
        d->last_bytes_shown = now;
        fprintf(stderr, "\rsmfw: downloading %lld MiB", (long long)(now >> 20));
    }
    return 0;
}

smfw_status smfw_dataset_download(const char *url, const char *dest, const smfw_download_options *o,
                                  char sha256_out[65], smfw_error *err) {
    static const smfw_download_options defaults = {NULL, 0, 0, NULL};
    if (!o) o = &defaults;
    if (sha256_out) sha256_out[0] = '\0';
    if (!url || !*url) return smfw_error_set(err, SMFW_ERR_CONFIG, "no download URL configured");

    /* The temporary file lives next to dest so the final rename is atomic. */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", dest);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (smfw_mkdir_p(dir, 0755, NULL) != 0)
            return smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.part.%ld", dest, (long)getpid());

    download_state d;
    memset(&d, 0, sizeof d);
    d.quiet = o->quiet;
    d.last_percent = -1;
    d.fp = fopen(tmp, "wb");
    if (!d.fp) return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    d.sha = EVP_MD_CTX_new();
    CURL *curl = curl_easy_init();
    if (!d.sha || !curl || EVP_DigestInit_ex(d.sha, EVP_sha256(), NULL) != 1) {
        fclose(d.fp);
        unlink(tmp);
        EVP_MD_CTX_free(d.sha);
        if (curl) curl_easy_cleanup(curl);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "cannot start the download");
    }
    char curl_msg[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &d);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &d);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_msg);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "smfw/" SMFW_VERSION_STRING);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    /* A stalled transfer (under 1 KiB/s for a minute) is a failure, not a hang. */
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
    if (o->timeout_s > 0) curl_easy_setopt(curl, CURLOPT_TIMEOUT, o->timeout_s);
    /* smfw's one TLS/proxy rule set (include/smfw/net.h); a redirect keeps the first
     * URL's proxy decision. */
    smfw_net_config *net = NULL;
    smfw_status nst =
        smfw_net_config_new(o->ca_bundle, "the dataset's ca_bundle", NULL, NULL, &net, err);
    if (nst != SMFW_OK) {
        fclose(d.fp);
        unlink(tmp);
        EVP_MD_CTX_free(d.sha);
        curl_easy_cleanup(curl);
        return nst;
    }
    smfw_net_apply(net, curl, url);

    SMFW_LOG_INFO("dataset", "downloading %s", url);
    CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    smfw_net_config_free(net);
    if (!d.quiet && d.last_percent >= 0) fputc('\n', stderr);

    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;
    EVP_DigestFinal_ex(d.sha, md, &md_len);
    EVP_MD_CTX_free(d.sha);
    char hex[65];
    for (unsigned int i = 0; i < md_len && i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
    int close_failed = fclose(d.fp) != 0;

    smfw_status st = SMFW_OK;
    if (d.write_failed || close_failed)
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    else if (rc != CURLE_OK)
        st = smfw_error_set(
            err, rc == CURLE_OPERATION_TIMEDOUT ? SMFW_ERR_TIMEOUT : SMFW_ERR_NETWORK,
            "download of %s failed: %s", url, curl_msg[0] ? curl_msg : curl_easy_strerror(rc));
    else if (status >= 400 || status == 0)
        st = smfw_error_set(err, status == 404 ? SMFW_ERR_NOT_FOUND : SMFW_ERR_NETWORK,
                            "download of %s failed: HTTP status %ld", url, status);
    else if (o->sha256 && *o->sha256 && strcasecmp(o->sha256, hex) != 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "download of %s has SHA-256 %s, expected %s (corrupt or changed "
                            "upstream; set the expected checksum to accept a new file)",
                            url, hex, o->sha256);
    else if (rename(tmp, dest) != 0)
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot move the download to %s: %s", dest,
                            strerror(errno));
    if (st != SMFW_OK) {
        unlink(tmp);
        return st;
    }
    if (sha256_out) memcpy(sha256_out, hex, 65);
    return SMFW_OK;
}
