/*
 * bundle_limits.c - the process-wide limits on untrusted bundles and
 * downloads (include/smfw/bundle_limits.h). One process reads with one set
 * of limits, so a setter at start-up is enough and every reader stays a
 * plain function (fuzz targets call the readers with the defaults).
 */
#include <smfw/bundle_limits.h>

#include <pthread.h>

/* AIPerf's summary is tens of KiB and jansson's tree takes ~20x the text. */
#define DEF_SUMMARY_BYTES  (8LL << 20)
#define DEF_RECORD_BYTES   (4LL << 20)
#define DEF_ARRAY_ITEMS    1000000LL
#define DEF_RECORDS        1000000LL /* ~330 bytes each in memory: ~350 MB */
#define DEF_DOWNLOAD_BYTES (4LL << 30)
#define DEF_TIMEOUT_MS     (30LL * 60 * 1000)

/* Written by the setter at start-up, before the threads that read it; the
 * defaults are filled in once, whichever thread asks first. */
static smfw_bundle_limits current;
static pthread_once_t current_once = PTHREAD_ONCE_INIT;

static void current_default(void) {
    smfw_bundle_limits_default(&current);
}

void smfw_bundle_limits_default(smfw_bundle_limits *l) {
    l->max_summary_bytes = DEF_SUMMARY_BYTES;
    l->max_record_bytes = DEF_RECORD_BYTES;
    l->max_array_items = DEF_ARRAY_ITEMS;
    l->max_records = DEF_RECORDS;
    l->max_run_items = 50000000LL; /* 8 bytes each: 400 MB */
    l->max_download_bytes = DEF_DOWNLOAD_BYTES;
    l->download_timeout_ms = DEF_TIMEOUT_MS;
    l->low_speed_bytes = 1024;
    l->low_speed_seconds = 60;
    l->max_list_pages = 10000;
    l->max_list_bytes = 256LL << 20;
}

static int64_t positive(const smfw_settings *s, const char *key, int64_t def) {
    int64_t v = smfw_settings_get_int(s, key, def);
    return v > 0 ? v : def;
}

void smfw_bundle_limits_from_config(const smfw_config *cfg, smfw_bundle_limits *l) {
    smfw_bundle_limits_default(l);
    const smfw_settings *s = cfg ? smfw_config_section(cfg, "bundle") : NULL;
    if (!s) return;
    l->max_summary_bytes = positive(s, "max_summary_bytes", l->max_summary_bytes);
    l->max_record_bytes = positive(s, "max_record_bytes", l->max_record_bytes);
    l->max_array_items = positive(s, "max_array_items", l->max_array_items);
    l->max_records = positive(s, "max_records", l->max_records);
    l->max_run_items = positive(s, "max_run_items", l->max_run_items);
    l->max_download_bytes = positive(s, "max_download_bytes", l->max_download_bytes);
    double t = smfw_settings_get_duration(s, "download_timeout", 0);
    if (t > 0) l->download_timeout_ms = (int64_t)(t * 1000.0);
    l->low_speed_bytes = positive(s, "low_speed_bytes", l->low_speed_bytes);
    double ls = smfw_settings_get_duration(s, "low_speed_time", 0);
    if (ls >= 1) l->low_speed_seconds = (int64_t)ls;
    l->max_list_pages = positive(s, "max_list_pages", l->max_list_pages);
    l->max_list_bytes = positive(s, "max_list_bytes", l->max_list_bytes);
}

const smfw_bundle_limits *smfw_bundle_limits_get(void) {
    pthread_once(&current_once, current_default);
    return &current;
}

void smfw_bundle_limits_set(const smfw_bundle_limits *l) {
    pthread_once(&current_once, current_default);
    current = *l;
}
