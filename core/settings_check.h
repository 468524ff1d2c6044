/*
 * settings_check.h - the range and choice checks of the core settings, run
 * once when a value is read (flag, environment, file), so the refusal names
 * where the value came from.
 */
#ifndef SMFW_SETTINGS_CHECK_H
#define SMFW_SETTINGS_CHECK_H

#include <stddef.h>

/**
 * Check value for [section] key beyond its type. Returns 0 when it is
 * acceptable, else -1 with why (a sentence fragment that never quotes a
 * secret) written to why.
 */
int settings_check_value(const char *section, const char *key, const char *value, char *why,
                         size_t why_size);

/** Register the secret parts of a value (header values, URL userinfo and query values) of a
 *  url or header key, in whichever section declares it. */
void settings_note_secrets(const char *section, const char *key, const char *value);

#endif
