/*
 * md_table.h - read a Markdown table of the docs, for tests that hold a documented table
 * to the code (docs/direct.md's and docs/aws.md's error classes).
 */
#ifndef SMFW_MD_TABLE_H
#define SMFW_MD_TABLE_H

#define MD_MAX_CELLS 8

typedef struct md_row {
    char line[4096];           /* the row as written, for messages */
    char *cells[MD_MAX_CELLS]; /* trimmed, pointing into `buf` */
    int ncells;
    char buf[4096];
} md_row;

/*
 * The rows of the first table of `path` whose header line starts with `header` (separator
 * row skipped) into rows[0..max); returns how many, or -1 when the file cannot be read or
 * has no such table.
 */
int md_table_read(const char *path, const char *header, md_row *rows, int max);

/*
 * The `backticked` names of a cell before its first " (" or " whose " (what follows is
 * explanation) into out[0..max) of size `cap` each; returns how many.
 */
int md_cell_codes(const char *cell, char (*out)[64], int max);

/* "400, 403" -> {400, 403}; returns how many numbers. */
int md_cell_numbers(const char *cell, int *out, int max);

#endif
