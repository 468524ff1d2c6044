/*
 * aws_user_agent.c - the User-Agent of AWS calls, in the SDKs' User-Agent
 * 2.0 form: "smfw/VERSION ua/2.0 os/NAME#VERSION lang/c#STDC md/arch#MACHINE
 * md/curl#VERSION cfg/retry-mode#MODE [app/APP_ID]", so AWS support and VPC
 * endpoint logs can tell smfw's calls apart. Only build facts and the
 * user's own app id: no host, user, profile, path or credential.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>

#include <curl/curl.h>

#include "aws/aws_internal.h"

/* A component value: User-Agent 2.0 token characters only ('#' and '/' separate). */
static void token(char *out, size_t size, const char *v) {
    static const char extra[] = "!$%&'*+-.^_`|~";
    size_t n = 0;
    for (; v && *v && n + 1 < size; v++)
        out[n++] = isalnum((unsigned char)*v) || strchr(extra, *v) ? *v : '-';
    out[n] = '\0';
    if (!n && size > 1) snprintf(out, size, "unknown");
}

/* The spec's os names: linux, macos, windows, android, ios, other. */
static const char *os_name(const char *sysname) {
    if (strcasecmp(sysname, "Linux") == 0) return "linux";
    if (strcasecmp(sysname, "Darwin") == 0) return "macos";
    return "other";
}

void aws_user_agent_build(smfw_aws_client *c, char *out, size_t size) {
    struct utsname u;
    char release[96] = "unknown", machine[64] = "unknown", curl[64], app[64] = "";
    const char *os = "other";
    if (uname(&u) == 0) {
        os = os_name(u.sysname);
        token(release, sizeof(release), u.release);
        token(machine, sizeof(machine), u.machine);
    }
    const curl_version_info_data *cv = curl_version_info(CURLVERSION_NOW);
    token(curl, sizeof(curl), cv ? cv->version : NULL);
    /* The app id is the user's label for their application (SDK setting sdk_ua_app_id). */
    const char *id = aws_getenv("AWS_SDK_UA_APP_ID");
    if (!id) id = aws_profile_get(c, NULL, "sdk_ua_app_id");
    if (id) {
        char t[51];
        token(t, sizeof(t), id); /* the SDKs allow 50 characters */
        snprintf(app, sizeof(app), " app/%s", t);
    }
    snprintf(out, size,
             "smfw/" SMFW_VERSION_STRING " ua/2.0 os/%s#%s lang/c#%ld md/arch#%s md/curl#%s "
             "cfg/retry-mode#%s%s",
             os, release, (long)__STDC_VERSION__, machine, curl, aws_retry_mode_name(c->retry_mode),
             app);
}
