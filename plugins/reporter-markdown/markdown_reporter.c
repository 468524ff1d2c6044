/*
 * markdown_reporter.c - the "markdown" reporter: summary.md, a page a person
 * reads on GitHub or in a terminal: the run header (what, where, when, how),
 * the headline table, errors by class, the validity verdict and the files of
 * the result folder. Tables are padded so they line up as plain text too.
 */
#include <stddef.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/log.h>
#include <smfw/plugin.h>
#include <smfw/reporter.h>
#include <smfw/results.h>

#include "../reporter-common/rpt.h"
#include "markdown_sweep.h"

#define MARKDOWN_REPORTER_FILE "summary.md"
#define MARKDOWN_MAX_COLS      6
#define MARKDOWN_CELL          600

typedef struct markdown_reporter {
    int max_error_rows;
    const smfw_reporter_output *run_outputs; /* the run's reporters' files (NULL: not told) */
} markdown_reporter;

static const smfw_reporter_output markdown_reporter_outputs[] = {
    {MARKDOWN_REPORTER_FILE, "this summary"}, {NULL, NULL}};

/* A table collected first, then printed with every column padded. */
typedef struct markdown_table {
    size_t ncols, nrows, cap;
    char right[MARKDOWN_MAX_COLS]; /* 1 = right-aligned (numbers) */
    char (*cells)[MARKDOWN_MAX_COLS][MARKDOWN_CELL];
    int failed;
} markdown_table;

static void markdown_table_init(markdown_table *t, size_t ncols, const char *align) {
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    for (size_t i = 0; i < ncols; i++) t->right[i] = align[i] == 'r';
}

/*
 * Text made safe for a cell or a line: the run's strings come from bundles
 * and services, and a Markdown viewer renders HTML, so <, > and & become
 * entities (no meta refresh, forms or links), [ ] are escaped (no Markdown
 * links), pipes cannot break the table and controls become spaces.
 */
static void markdown_safe_text(char *dst, size_t size, const char *src) {
    size_t o = 0;
    for (const char *p = src ? src : ""; *p && o + 7 < size; p++) {
        const char *rep = NULL;
        unsigned char c = (unsigned char)*p;
        switch (c) {
        case '|':
            rep = "\\|";
            break;
        case '[':
            rep = "\\[";
            break;
        case ']':
            rep = "\\]";
            break;
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        default:
            break;
        }
        if (rep) {
            size_t n = strlen(rep);
            memcpy(dst + o, rep, n);
            o += n;
        } else if (c < 0x20 || c == 0x7f) {
            dst[o++] = ' ';
        } else if (c == 0xc2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f) {
            dst[o++] = ' '; /* a C1 control as UTF-8 */
            p++;
        } else {
            dst[o++] = *p;
        }
    }
    dst[o] = '\0';
}

static void markdown_cell_text(char *dst, const char *src) {
    markdown_safe_text(dst, MARKDOWN_CELL, src);
}

static void markdown_table_row(markdown_table *t, const char *const *cols) {
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        void *p = realloc(t->cells, cap * sizeof *t->cells);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->cells = p;
        t->cap = cap;
    }
    for (size_t c = 0; c < t->ncols; c++) markdown_cell_text(t->cells[t->nrows][c], cols[c]);
    t->nrows++;
}

/* Display width: count UTF-8 lead bytes only, so "µ" or "≤" pad correctly. */
static size_t markdown_width(const char *s) {
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

static void markdown_pad(smfw_buf *b, size_t n) {
    for (size_t i = 0; i < n; i++) smfw_buf_append(b, " ", 1);
}

/* Row 0 is the header. */
static void markdown_table_print(markdown_table *t, smfw_buf *b) {
    size_t width[MARKDOWN_MAX_COLS] = {0};
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t w = markdown_width(t->cells[r][c]);
            if (w > width[c]) width[c] = w;
        }
    for (size_t c = 0; c < t->ncols; c++)
        if (width[c] < 3) width[c] = 3;
    for (size_t r = 0; r < t->nrows; r++) {
        smfw_buf_puts(b, "|");
        for (size_t c = 0; c < t->ncols; c++) {
            size_t pad = width[c] - markdown_width(t->cells[r][c]);
            smfw_buf_puts(b, " ");
            if (t->right[c] && r > 0) markdown_pad(b, pad);
            smfw_buf_puts(b, t->cells[r][c]);
            if (!t->right[c] || r == 0) markdown_pad(b, pad);
            smfw_buf_puts(b, " |");
        }
        smfw_buf_puts(b, "\n");
        if (r == 0) {
            smfw_buf_puts(b, "|");
            for (size_t c = 0; c < t->ncols; c++) {
                smfw_buf_puts(b, " ");
                for (size_t i = 0; i + 1 < width[c]; i++) smfw_buf_puts(b, "-");
                smfw_buf_puts(b, t->right[c] ? ":" : "-");
                smfw_buf_puts(b, " |");
            }
            smfw_buf_puts(b, "\n");
        }
    }
    if (t->failed) b->failed = 1;
    free(t->cells);
    t->cells = NULL;
}

static int markdown_name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int markdown_has_name(char **names, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) return 1;
    return 0;
}

static const char *markdown_file_description(const markdown_reporter *self, const char *name) {
    for (const smfw_reporter_output *o = self->run_outputs; o && o->name; o++)
        if (strcmp(o->name, name) == 0) return o->description;
    if (strcmp(name, MARKDOWN_REPORTER_FILE) == 0) return markdown_reporter_outputs[0].description;
    return rpt_file_description(name);
}

/*
 * Files of the result folder: what is there now, plus what this run's reporters will write
 * after this one (as they declare them: SMFW_REPORTER_CTL_RUN_OUTPUTS).
 */
static void markdown_files(const markdown_reporter *self, const char *dir, smfw_buf *b) {
    enum { MAX_NAMES = 256 };
    char *names[MAX_NAMES];
    size_t n = 0;
    DIR *d = dir ? opendir(dir) : NULL;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL && n < MAX_NAMES - 1) {
            if (e->d_name[0] == '.') continue;
            char *copy = strdup(e->d_name);
            if (copy) names[n++] = copy;
        }
        closedir(d);
    }
    if (!markdown_has_name(names, n, MARKDOWN_REPORTER_FILE))
        names[n++] = strdup(MARKDOWN_REPORTER_FILE);
    for (const smfw_reporter_output *o = self->run_outputs; o && o->name && n < MAX_NAMES; o++)
        if (!markdown_has_name(names, n, o->name)) names[n++] = strdup(o->name);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (names[i]) names[kept++] = names[i];
    n = kept;
    qsort(names, n, sizeof names[0], markdown_name_cmp);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", names[i]);
        int is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
        const char *what = markdown_file_description(self, names[i]);
        /* A code span shows HTML literally; only a backtick could end it. */
        for (char *q = names[i]; *q; q++)
            if (*q == '`' || (unsigned char)*q < 0x20 || *q == 0x7f) *q = '?';
        smfw_buf_printf(b, "- `%s%s`%s%s\n", names[i], is_dir ? "/" : "", what ? ": " : "",
                        what ? what : "");
        free(names[i]);
    }
}

/* Render the whole page (exposed to the unit test through #include). */
static smfw_status markdown_reporter_render(const markdown_reporter *self, const smfw_results *r,
                                            const char *dir, smfw_buf *b, smfw_error *err) {
    char title[256];
    rpt_run_title(r, title, sizeof title);
    char safe[MARKDOWN_CELL * 2];
    markdown_safe_text(safe, sizeof safe, title);
    smfw_buf_printf(b, "# smfw benchmark: %s\n\n", safe);

    rpt_kv header[RPT_HEADER_MAX];
    size_t nh = rpt_run_header(r, header);
    markdown_table t;
    markdown_table_init(&t, 2, "ll");
    markdown_table_row(&t, (const char *const[]){"Run", "Details"});
    for (size_t i = 0; i < nh; i++)
        markdown_table_row(&t, (const char *const[]){header[i].key, header[i].value});
    markdown_table_print(&t, b);

    char raw_verdict[1024], verdict[2048];
    int ok = rpt_verdict(r, raw_verdict, sizeof raw_verdict);
    markdown_safe_text(verdict, sizeof verdict, raw_verdict); /* it quotes failure_reason.txt */
    /* "VALID: error rate ..." -> "**VALID**: error rate ..." */
    size_t word = strcspn(verdict, ":");
    smfw_buf_printf(b, "\n## Verdict\n\n%s **%.*s**%s\n", ok ? "✅" : "❌", (int)word, verdict,
                    verdict + word);

    smfw_buf_puts(b, "\n## Headline\n\n");
    rpt_headline_row rows[RPT_HEADLINE_MAX];
    size_t nr = rpt_headline(r, rows);
    if (nr == 0) {
        smfw_buf_puts(b, "No metrics were recorded.\n");
    } else {
        markdown_table_init(&t, 6, "lrrrrl");
        markdown_table_row(&t, (const char *const[]){"Metric", "avg", "p50", "p90", "p99", "unit"});
        for (size_t i = 0; i < nr; i++)
            markdown_table_row(&t, (const char *const[]){rows[i].label, rows[i].avg, rows[i].p50,
                                                         rows[i].p90, rows[i].p99, rows[i].unit});
        markdown_table_print(&t, b);
    }

    uint64_t by_class[SMFW_ERRCLASS_COUNT_];
    uint64_t total = rpt_errors_by_class(r, by_class);
    size_t n_errors = smfw_results_error_summary_count(r);
    smfw_buf_puts(b, "\n## Errors\n\n");
    if (total == 0 && n_errors == 0) {
        smfw_buf_puts(b, "No request failed.\n");
    } else {
        markdown_table_init(&t, 2, "lr");
        markdown_table_row(&t, (const char *const[]){"Class", "Requests"});
        for (int c = 0; c < SMFW_ERRCLASS_COUNT_; c++) {
            if (!by_class[c]) continue;
            char num[RPT_NUM_MAX];
            rpt_human((double)by_class[c], 0, num);
            markdown_table_row(
                &t, (const char *const[]){smfw_error_class_name((smfw_error_class)c), num});
        }
        markdown_table_print(&t, b);
        smfw_buf_puts(b, "\n");
        markdown_table_init(&t, 5, "lrllr");
        markdown_table_row(&t, (const char *const[]){"Class", "Code", "Type", "Message", "Count"});
        size_t shown = 0;
        for (size_t i = 0; i < n_errors && shown < (size_t)self->max_error_rows; i++, shown++) {
            const smfw_error_summary_entry *e = smfw_results_error_summary(r, i);
            char code[16] = "", count[RPT_NUM_MAX], msg[200];
            if (e->has_code) snprintf(code, sizeof code, "%d", e->code);
            rpt_human((double)e->count, 0, count);
            snprintf(msg, sizeof msg, "%s", e->message ? e->message : "");
            if (e->message && strlen(e->message) >= sizeof msg) strcpy(msg + sizeof msg - 4, "...");
            markdown_table_row(&t, (const char *const[]){smfw_error_class_name(e->error_class),
                                                         code, e->type ? e->type : "", msg, count});
        }
        markdown_table_print(&t, b);
        if (n_errors > shown)
            smfw_buf_printf(b, "\n(%zu more distinct errors in profile_export_aiperf.json)\n",
                            n_errors - shown);
    }

    smfw_buf_puts(b, "\n## Files\n\n");
    markdown_files(self, dir, b);
    if (b->failed) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    return SMFW_OK;
}

/* [reporter.markdown], bound by declaration (the defaults live in its declarations). */
static const smfw_setting_binding markdown_bindings[] = {
    {NULL, "max_error_rows", SMFW_BIND_INT, offsetof(markdown_reporter, max_error_rows), 0},
    SMFW_BINDINGS_END};

static smfw_status markdown_reporter_create(const smfw_settings *settings, void **ctx,
                                            smfw_error *err) {
    markdown_reporter *self = calloc(1, sizeof *self);
    if (!self) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = smfw_settings_bind(settings, markdown_bindings, self, err);
    if (st != SMFW_OK) {
        free(self);
        return st;
    }
    if (self->max_error_rows < 0) self->max_error_rows = 0;
    *ctx = self;
    return SMFW_OK;
}

static smfw_status markdown_reporter_write(void *ctx, const smfw_results *results,
                                           const char *output_dir, smfw_error *err) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_status st = markdown_reporter_render(ctx, results, output_dir, &b, err);
    if (st == SMFW_OK)
        st = rpt_write_file(output_dir, MARKDOWN_REPORTER_FILE, b.data, b.len, err);
    else
        smfw_error_prefix(err, "cannot write %s/%s", output_dir, MARKDOWN_REPORTER_FILE);
    smfw_buf_free(&b);
    if (st == SMFW_OK)
        SMFW_LOG_DEBUG("markdown", "wrote %s/%s", output_dir, MARKDOWN_REPORTER_FILE);
    return st;
}

static smfw_status markdown_reporter_control(void *ctx, int op, void *arg) {
    if (op != SMFW_REPORTER_CTL_RUN_OUTPUTS) return SMFW_ERR_UNSUPPORTED;
    ((markdown_reporter *)ctx)->run_outputs = arg;
    return SMFW_OK;
}

static void markdown_reporter_destroy(void *ctx) {
    free(ctx);
}

static const smfw_setting_decl markdown_reporter_settings[] = {
    {"max_error_rows", SMFW_SETTING_INT, "10",
     "distinct errors listed in summary.md (the JSON has all of them)", NULL, NULL, 0, "N"},
    SMFW_SETTINGS_END};

static const smfw_reporter_ops markdown_reporter_ops = {
    .size = sizeof(smfw_reporter_ops),
    .create = markdown_reporter_create,
    .write = markdown_reporter_write,
    .destroy = markdown_reporter_destroy,
    .control = markdown_reporter_control,
    .write_set = markdown_sweep_write,
    .outputs = markdown_reporter_outputs,
};

SMFW_PLUGIN_DEFINE(smfw_reporter_markdown, SMFW_PLUGIN_REPORTER, "markdown", SMFW_VERSION_STRING,
                   "summary.md: run header, headline table, errors, verdict and files",
                   markdown_reporter_settings, &markdown_reporter_ops)
