/* untrusted_names.c - names from a service, a bundle or the user, before they become paths. */
#include <string.h>

#include <smfw/untrusted.h>

static int alnum(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int smfw_aws_entity_name_valid(const char *name) {
    size_t n = name ? strlen(name) : 0;
    if (n < 1 || n > 63) return 0;
    if (!alnum((unsigned char)name[0]) || !alnum((unsigned char)name[n - 1])) return 0;
    for (size_t i = 0; i < n; i++)
        if (!alnum((unsigned char)name[i]) && name[i] != '-') return 0;
    return 1;
}

void smfw_path_component_sanitize(char *s) {
    if (!*s) {
        strcpy(s, "_");
        return;
    }
    for (char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (!alnum(c) && c != '-' && c != '_' && c != '.') *p = '-';
    }
    if (s[0] == '.') s[0] = '-';
}
