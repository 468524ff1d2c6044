/* md_table.c - see md_table.h. */
#include "md_table.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int split(md_row *r) {
    snprintf(r->buf, sizeof r->buf, "%s", r->line);
    r->ncells = 0;
    char *p = strchr(r->buf, '|');
    while (p && r->ncells < MD_MAX_CELLS) {
        char *q = strchr(p + 1, '|');
        if (!q) break;
        *q = '\0';
        char *s = p + 1;
        while (isspace((unsigned char)*s)) s++;
        char *e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
        r->cells[r->ncells++] = s;
        p = q;
    }
    return r->ncells;
}

int md_table_read(const char *path, const char *header, md_row *rows, int max) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[4096];
    int in = 0, n = 0;
    size_t hl = strlen(header);
    while (fgets(line, sizeof line, f)) {
        if (!in) {
            in = strncmp(line, header, hl) == 0;
            continue;
        }
        if (line[0] != '|') break;
        if (strncmp(line, "|---", 4) == 0) continue;
        if (n == max) break;
        line[strcspn(line, "\n")] = '\0';
        snprintf(rows[n].line, sizeof rows[n].line, "%s", line);
        split(&rows[n]);
        n++;
    }
    fclose(f);
    return in ? n : -1;
}

int md_cell_codes(const char *cell, char (*out)[64], int max) {
    char head[4096];
    snprintf(head, sizeof head, "%s", cell);
    char *cut = strstr(head, " (");
    if (cut) *cut = '\0';
    if ((cut = strstr(head, " whose "))) *cut = '\0';
    int n = 0;
    for (char *p = strchr(head, '`'); p && n < max; p = strchr(p + 1, '`')) {
        char *q = strchr(p + 1, '`');
        if (!q) break;
        snprintf(out[n++], 64, "%.*s", (int)(q - p - 1), p + 1);
        p = q;
    }
    return n;
}

int md_cell_numbers(const char *cell, int *out, int max) {
    int n = 0;
    const char *p = cell;
    while (*p && n < max) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        out[n++] = (int)v;
        p = end;
        while (*p == ',' || *p == ' ') p++;
    }
    return n;
}
