/*
 * settings_aliases.c - the one table of renamed configuration keys. Config keys
 * equal the flag names (--dataset-file is dataset_file) and a backend's own keys
 * live in its [backend.NAME] section; a file written with an old name still
 * loads, with a warning that names the line and the new name. docs/guide.md
 * ("Renamed settings") lists the same table; a unit test keeps the two equal.
 */
#include <stddef.h>
#include <string.h>

#include "settings_aliases.h"

static const smfw_setting_alias setting_aliases[] = {
    {"smfw", "launch", "smfw", "run"},
    {"dataset", "file", "dataset", "dataset_file"},
    {"dataset", "sampling", "dataset", "dataset_sampling"},
    {"backend.direct", "path", "backend.direct", "endpoint_path"},
    {"backend.direct", "mock_args", "backend.direct", "mock_arg"},
    {"backend.managed", "regions", "backend.managed", "benchmark_regions"},
    {"backend.managed", "tokenizer", "run", "tokenizer"}, /* both backends count with it */
    /* Keys only the direct backend reads left the shared [run] section. */
    {"run", "target_variant", "backend.direct", "target_variant"},
    {"run", "target_model", "backend.direct", "target_model"},
    {"run", "target_container_hostname", "backend.direct", "target_container_hostname"},
    {"run", "url", "backend.direct", "url"},
    {"run", "api_key", "backend.direct", "api_key"},
    {"run", "header", "backend.direct", "header"},
    {"run", "model", "backend.direct", "model"},
    {"run", "endpoint_type", "backend.direct", "endpoint_type"},
    {"run", "max_concurrency", "backend.direct", "max_concurrency"},
    {"run", "request_timeout", "backend.direct", "request_timeout"},
    {"run", "workers", "backend.direct", "workers"},
    {NULL, NULL, NULL, NULL}};

const smfw_setting_alias *settings_aliases(void) {
    return setting_aliases;
}

const smfw_setting_alias *settings_alias_find(const char *section, const char *key) {
    for (const smfw_setting_alias *a = setting_aliases; a->old_key; a++)
        if (strcmp(a->old_section, section) == 0 && strcmp(a->old_key, key) == 0) return a;
    return NULL;
}
