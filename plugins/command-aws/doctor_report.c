/*
 * doctor_report.c - the findings of `smfw doctor` (doctor_report.h): kept as a
 * JSON tree so the text and JSON renderings show the same items.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <smfw/smfw.h>

#include "doctor_report.h"

struct doctor_report {
    json_t *root;     /* {"mode", "sections": [...]} */
    json_t *sections; /* borrowed from root */
    json_t *current;  /* the open section's "items", borrowed */
    int worst;        /* the highest doctor_level added */
};

static const char *const LEVEL_NAMES[] = {"info", "ok", "warn", "fail", "invalid"};
static const char *const LEVEL_MARKS[] = {"", "ok", "warn", "FAIL", "INVALID"};

doctor_report *doctor_report_new(const char *mode) {
    doctor_report *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->root = json_object();
    r->sections = json_array();
    if (!r->root || !r->sections || json_object_set_new(r->root, "mode", json_string(mode)) ||
        json_object_set(r->root, "sections", r->sections)) {
        json_decref(r->sections);
        json_decref(r->root);
        free(r);
        return NULL;
    }
    json_decref(r->sections); /* root holds it */
    return r;
}

void doctor_report_free(doctor_report *r) {
    if (!r) return;
    json_decref(r->root);
    free(r);
}

void doctor_section(doctor_report *r, const char *title) {
    json_t *items = json_array();
    json_t *s = json_pack("{s:s, s:o}", "title", title, "items", items);
    if (!s) return;
    json_array_append_new(r->sections, s);
    r->current = items;
}

void doctor_item(doctor_report *r, doctor_level level, const char *name, const char *fmt, ...) {
    if (!r->current) doctor_section(r, "General");
    char raw[4096], shown[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    smfw_secret_mask(shown, sizeof shown, raw);
    json_t *it =
        json_pack("{s:s, s:s, s:s}", "name", name, "level", LEVEL_NAMES[level], "value", shown);
    if (it) json_array_append_new(r->current, it);
    if ((int)level > r->worst) r->worst = (int)level;
}

int doctor_report_exit(const doctor_report *r) {
    return r->worst == DOCTOR_INVALID ? 1 : r->worst == DOCTOR_FAIL ? 2 : 0;
}

static int level_of(const char *name) {
    for (int i = 0; i < 5; i++)
        if (strcmp(LEVEL_NAMES[i], name) == 0) return i;
    return 0;
}

/* The reasons of the verdict: every item at the worst level, "section: name: value". */
static void each_worst(const doctor_report *r,
                       void (*cb)(const char *, const char *, const char *, void *), void *user) {
    size_t i, j;
    json_t *s, *it;
    json_array_foreach(r->sections, i, s) {
        json_array_foreach(json_object_get(s, "items"), j, it) {
            if (level_of(json_string_value(json_object_get(it, "level"))) == r->worst)
                cb(json_string_value(json_object_get(s, "title")),
                   json_string_value(json_object_get(it, "name")),
                   json_string_value(json_object_get(it, "value")), user);
        }
    }
}

static void print_reason(const char *title, const char *name, const char *value, void *user) {
    fprintf((FILE *)user, "  - %s, %s: %s\n", title, name, value);
}

static const char *verdict(const doctor_report *r) {
    int offline = strcmp(json_string_value(json_object_get(r->root, "mode")), "offline") == 0;
    switch (doctor_report_exit(r)) {
    case 1:
        return "the configuration is invalid";
    case 2:
        return "the planned run cannot work";
    default:
        return offline ? "everything resolves locally" : "the planned run can work";
    }
}

void doctor_report_text(const doctor_report *r, FILE *out) {
    fprintf(out, "smfw doctor (%s)\n", json_string_value(json_object_get(r->root, "mode")));
    size_t i, j;
    json_t *s, *it;
    json_array_foreach(r->sections, i, s) {
        fprintf(out, "\n%s\n", json_string_value(json_object_get(s, "title")));
        json_array_foreach(json_object_get(s, "items"), j, it) {
            int lv = level_of(json_string_value(json_object_get(it, "level")));
            fprintf(out, "  %-7s %-24s %s\n", LEVEL_MARKS[lv],
                    json_string_value(json_object_get(it, "name")),
                    json_string_value(json_object_get(it, "value")));
        }
    }
    int rc = doctor_report_exit(r);
    fprintf(out, "\nVerdict: %s (exit %d)%s\n", verdict(r), rc, rc ? ":" : "");
    if (rc) each_worst(r, print_reason, out);
}

static void add_reason(const char *title, const char *name, const char *value, void *user) {
    json_array_append_new((json_t *)user, json_sprintf("%s, %s: %s", title, name, value));
}

char *doctor_report_json(const doctor_report *r) {
    json_t *o = json_deep_copy(r->root);
    json_t *reasons = json_array();
    int rc = doctor_report_exit(r);
    if (rc) each_worst(r, add_reason, reasons);
    json_object_set_new(o, "exit", json_integer(rc));
    json_object_set_new(o, "verdict", json_string(verdict(r)));
    json_object_set_new(o, "reasons", reasons);
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    return text;
}
