/* launch_args.c - one shard's `smfw run` arguments, shared by every job engine's generator. */
#include "launch.h"

json_t *launch_shard_args(const launch_plan *p, const char *shard, const char *output) {
    json_t *a = json_array();
    json_array_append_new(a, json_string("run"));
    for (size_t i = 0; i < p->n_run_args; i++)
        json_array_append_new(a, json_string(p->run_args[i]));
    json_array_append_new(a, json_string("--shard"));
    json_array_append_new(a, json_string(shard));
    json_array_append_new(a, json_string("--start-at"));
    json_array_append_new(a, json_string(p->start_at));
    json_array_append_new(a, json_string("-o"));
    json_array_append_new(a, json_string(output));
    return a;
}
