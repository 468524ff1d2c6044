/*
 * self_location.c - where this libsmfw lives, so an installed copy finds its
 * plugins and data relative to itself (a prefix chosen at install time works),
 * and a build-tree copy finds the build tree's.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "self_location.h"

static char lib_dir[PATH_MAX];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void locate(void) {
    Dl_info info;
    if (dladdr((void *)(uintptr_t)smfw_self_lib_dir, &info) && info.dli_fname) {
        char real[PATH_MAX];
        if (realpath(info.dli_fname, real)) {
            char *slash = strrchr(real, '/');
            if (slash) {
                *slash = '\0';
                snprintf(lib_dir, sizeof lib_dir, "%s", real);
            }
        }
    }
}

const char *smfw_self_lib_dir(void) {
    pthread_once(&once, locate);
    return lib_dir[0] ? lib_dir : NULL;
}

int smfw_self_in_build_tree(void) {
    const char *d = smfw_self_lib_dir();
    char build[PATH_MAX];
    if (!d || !realpath(SMFW_BUILD_PLUGIN_DIR "/..", build)) return 0;
    size_t n = strlen(build);
    return strncmp(d, build, n) == 0 && (d[n] == '/' || d[n] == '\0');
}
