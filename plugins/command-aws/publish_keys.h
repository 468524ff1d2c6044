/*
 * publish_keys.h - the key scheme of `smfw publish`: a run's headline numbers
 * as flat key/value strings under the prefix "smfw:", within the limits that
 * SageMaker's CustomerMetadataProperties and resource tags share (keys 1-128
 * and values 1-256 characters of [\p{L}\p{Z}\p{N}_.:/=+\-@]; 50 entries).
 * docs/capacity.md ("smfw publish") documents the keys.
 */
#ifndef SMFW_COMMAND_AWS_PUBLISH_KEYS_H
#define SMFW_COMMAND_AWS_PUBLISH_KEYS_H

#include <stddef.h>

#include <smfw/results.h>
#include <smfw/smfw.h>

#define SMFW_PUBLISH_PREFIX      "smfw:"
#define SMFW_PUBLISH_MAX_ENTRIES 50 /* CustomerMetadataMap max, and tags per resource */
#define SMFW_PUBLISH_MAX_KEY     128
#define SMFW_PUBLISH_MAX_VALUE   256
/* At most this many keys are smfw's, so 16 of the 50 stay for the user's own. */
#define SMFW_PUBLISH_OWN_MAX 34
#define SMFW_PUBLISH_SCHEME  "1"

/** One key and its value (both owned). */
typedef struct smfw_publish_entry {
    char *key;
    char *value;
} smfw_publish_entry;

/** Key/values in insertion order; keys are unique. */
typedef struct smfw_publish_set {
    smfw_publish_entry *e;
    size_t n, cap;
} smfw_publish_set;

smfw_publish_set *smfw_publish_set_new(void);
void smfw_publish_set_free(smfw_publish_set *set);
/** Add or replace key's value. Returns 0, or -1 when out of memory. */
int smfw_publish_set_put(smfw_publish_set *set, const char *key, const char *value);
/** The value of key, or NULL. */
const char *smfw_publish_set_get(const smfw_publish_set *set, const char *key);

/** 1 when the key is one of smfw's (starts with SMFW_PUBLISH_PREFIX). */
int smfw_publish_key_is_ours(const char *key);

/**
 * 1 when text is 1..max characters that SageMaker accepts. smfw writes ASCII
 * only: letters, digits, space and _.:/=+-@ (a subset of the service's
 * pattern). On 0, *bad (may be NULL) gets the first byte refused, or 0 when
 * the length is at fault.
 */
int smfw_publish_text_valid(const char *text, size_t max, char *bad);

/**
 * The keys of a run: "smfw:v" (scheme version), "smfw:report" (report_uri
 * when given), run facts (time, endpoint, model, type, streaming,
 * concurrency, rate, dataset, gate) and "smfw:<metric tag>:<stat>" for the
 * headline numbers present, in display units. A run fact whose text does
 * not fit is left out with a warning; a report URI that does not fit is
 * SMFW_ERR_USAGE naming it. Never more than SMFW_PUBLISH_OWN_MAX keys.
 */
smfw_status smfw_publish_keys_from_results(const smfw_results *r, const char *report_uri,
                                           smfw_publish_set *out, smfw_error *err);

/**
 * The inverse: the smfw keys of `in` back into results (stats and info).
 * Other keys are ignored. SMFW_ERR_NOT_FOUND when there is no "smfw:v",
 * SMFW_ERR_PROTOCOL when a number of ours does not parse.
 */
smfw_status smfw_publish_keys_to_results(const smfw_publish_set *in, smfw_results *r,
                                         smfw_error *err);

#endif
