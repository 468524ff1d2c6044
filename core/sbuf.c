/* sbuf.c - small string helpers shared by the results parsers. */
#include <stdlib.h>
#include <string.h>

#include "results_internal.h"

char *smfw_strdup_or_null(const char *s) {
    return s ? strdup(s) : NULL;
}
