/*
 * failfast.c - stop a run whose first requests show the target cannot answer
 * (see failfast.h).
 */
#include "failfast.h"

#include <stdio.h>
#include <string.h>

void direct_failfast_init(direct_failfast *f, int64_t budget) {
    memset(f, 0, sizeof *f);
    f->window = budget > 0 && budget < DIRECT_FAILFAST_WINDOW ? budget : DIRECT_FAILFAST_WINDOW;
}

int direct_failfast_permanent(const smfw_record_error *e, smfw_status *status) {
    if (!e) return 0;
    const char *msg = e->message ? e->message : "";
    switch (e->error_class) {
    case SMFW_ERRCLASS_CONNECT: /* refused, DNS, TLS: the same for the next request */
        *status = SMFW_ERR_NETWORK;
        return 1;
    case SMFW_ERRCLASS_AUTH: /* 401/403, signature, unknown key id, expired token */
        *status = SMFW_ERR_AUTH;
        return 1;
    case SMFW_ERRCLASS_VALIDATION:
        /* 404, or SageMaker's 400 "Endpoint X of account Y not found." */
        if ((e->has_code && e->code == 404) || strstr(msg, "not found") ||
            strstr(msg, "Could not find")) {
            *status = SMFW_ERR_NOT_FOUND;
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

int direct_failfast_add(direct_failfast *f, const smfw_record *rec, int is_error) {
    if (f->decided || f->tripped) return 0;
    smfw_status st = SMFW_OK;
    if (!is_error || !rec || !direct_failfast_permanent(smfw_record_get_error(rec), &st)) {
        f->decided = 1;
        return 0;
    }
    if (f->seen == 0) {
        const smfw_record_error *e = smfw_record_get_error(rec);
        f->status = st;
        char code[16] = "";
        if (e->has_code) snprintf(code, sizeof code, "HTTP %d ", e->code);
        snprintf(f->reason, sizeof f->reason, "%s%s (%s): %s", code, e->type ? e->type : "error",
                 smfw_error_class_name(e->error_class), e->message ? e->message : "");
    }
    f->seen++;
    if (f->seen < f->window) return 0;
    f->tripped = 1;
    return 1;
}

smfw_status direct_failfast_error(const direct_failfast *f, const char *phase, smfw_error *err) {
    const char *what = f->status == SMFW_ERR_NETWORK ? "the target cannot be reached"
                       : f->status == SMFW_ERR_AUTH  ? "the target refuses our credentials"
                                                     : "the target does not exist";
    return smfw_error_set(err, f->status,
                          "stopped: %s. The first %lld %s requests all failed the same way, "
                          "which the next ones would too: %s. Nothing was measured (the records "
                          "of the requests sent are kept)",
                          what, (long long)f->window, phase, f->reason);
}
