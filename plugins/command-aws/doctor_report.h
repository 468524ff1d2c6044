/*
 * doctor_report.h - the findings of `smfw doctor`: sections of named items,
 * each with a level, rendered as text or JSON; the levels decide the exit code.
 * Every value passes through smfw_secret_mask() when added, so a registered
 * secret never reaches the report.
 */
#ifndef SMFW_DOCTOR_REPORT_H
#define SMFW_DOCTOR_REPORT_H

#include <stdio.h>

typedef enum doctor_level {
    DOCTOR_INFO,    /* what was found, nothing to judge */
    DOCTOR_OK,      /* checked and fine */
    DOCTOR_WARN,    /* could not check, or works but deserves a look */
    DOCTOR_FAIL,    /* the planned run cannot work (exit 2) */
    DOCTOR_INVALID, /* the configuration is invalid (exit 1) */
} doctor_level;

typedef struct doctor_report doctor_report;

/* `mode` is "online" or "offline" (shown in the heading). NULL when out of memory. */
doctor_report *doctor_report_new(const char *mode);
void doctor_report_free(doctor_report *r);

/* Start a section; the items added next belong to it. */
void doctor_section(doctor_report *r, const char *title);
/* Add an item to the current section. */
void doctor_item(doctor_report *r, doctor_level level, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* 1 when an item is INVALID, else 2 when one FAILs, else 0. */
int doctor_report_exit(const doctor_report *r);

/* One section per topic, a marker column (ok, warn, FAIL, INVALID), then the verdict. */
void doctor_report_text(const doctor_report *r, FILE *out);
/* {"mode", "sections": [{"title", "items": [{"name", "level", "value"}]}], "exit", "verdict"};
 * malloc'd, NULL when out of memory. */
char *doctor_report_json(const doctor_report *r);

#endif
