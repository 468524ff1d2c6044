/*
 * autoscaling_suspended.c - a scalable target's SuspendedState (which of its
 * scaling activities Application Auto Scaling holds back): read from
 * DescribeScalableTargets and the pin journal, written to RegisterScalableTarget
 * and the journal, and printed as the capacities are ("A -> B" for each member).
 */
#include <stdio.h>

#include "autoscaling.h"

static const char *const member[3] = {"DynamicScalingInSuspended", "DynamicScalingOutSuspended",
                                      "ScheduledScalingSuspended"};

static int value(const aas_suspended *s, int i) {
    return i == 0 ? s->dynamic_in : i == 1 ? s->dynamic_out : s->scheduled;
}

void aas_suspended_changes(char *buf, size_t size, const aas_suspended *before,
                           const aas_suspended *after) {
    size_t n = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < 3 && n < size; i++) {
        int w = snprintf(buf + n, size - n, "%s%s %s -> %s", i ? ", " : "", member[i],
                         value(before, i) ? "true" : "false", value(after, i) ? "true" : "false");
        if (w < 0) return;
        n += (size_t)w;
    }
}

json_t *aas_suspended_json(const aas_suspended *s) {
    /* All three, always: a member left out would be the service's to default. */
    return json_pack("{s:b,s:b,s:b}", member[0], s->dynamic_in, member[1], s->dynamic_out,
                     member[2], s->scheduled);
}

int aas_suspended_from_json(const json_t *v, aas_suspended *out) {
    *out = (aas_suspended){0, 0, 0};
    if (!json_is_object(v)) return -1;
    int *field[3] = {&out->dynamic_in, &out->dynamic_out, &out->scheduled};
    for (int i = 0; i < 3; i++) {
        json_t *m = json_object_get(v, member[i]);
        if (!m) continue; /* absent: not suspended, AWS's default */
        if (!json_is_boolean(m)) return -1;
        *field[i] = json_is_true(m);
    }
    return 0;
}
