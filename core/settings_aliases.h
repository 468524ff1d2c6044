/*
 * settings_aliases.h - renamed configuration keys (see settings_aliases.c).
 */
#ifndef SMFW_SETTINGS_ALIASES_H
#define SMFW_SETTINGS_ALIASES_H

/** [old_section] old_key in a config file means [section] key. */
typedef struct smfw_setting_alias {
    const char *old_section, *old_key;
    const char *section, *key;
} smfw_setting_alias;

/** Every alias, ended by an entry whose old_key is NULL. */
const smfw_setting_alias *settings_aliases(void);

/** The alias of [section] key, or NULL when that name was never renamed. */
const smfw_setting_alias *settings_alias_find(const char *section, const char *key);

#endif
