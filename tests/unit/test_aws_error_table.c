/*
 * test_aws_error_table.c - docs/aws.md's table of AWS errors is the code's: every row
 * (code × status) through aws_error_status() gives the row's status and exit code, and
 * every code the AWS layer maps (its auth and not-found lists, the retry policy's
 * throttling codes) is in the table.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "aws/aws_error.h"
#include "aws/aws_retry.h"
#include "md_table.h"

#define MAX_ROWS  32
#define MAX_CODES 32

static md_row g_md[MAX_ROWS];
static int g_n;

static void load(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/aws.md", SMFW_SOURCE_DIR);
    g_n = md_table_read(path, "| Code | HTTP | status | exit |", g_md, MAX_ROWS);
    ck_assert_msg(g_n >= 8, "the AWS error table in %s has %d rows", path, g_n);
}

START_TEST(every_row_is_the_code) {
    load();
    int checked = 0;
    for (int i = 0; i < g_n; i++) {
        const md_row *m = &g_md[i];
        ck_assert_msg(m->ncells == 4, "not 4 cells: %s", m->line);
        char codes[MAX_CODES][64];
        int nc = md_cell_codes(m->cells[0], codes, MAX_CODES);
        int st[8];
        int ns = md_cell_numbers(m->cells[1], st, 8);
        char want[32];
        int exit_code = -1;
        ck_assert_msg(ns > 0, "no status: %s", m->line);
        ck_assert_msg(sscanf(m->cells[2], "`%31[a-z_]`", want) == 1, "no status: %s", m->line);
        ck_assert_msg(sscanf(m->cells[3], "%d", &exit_code) == 1, "no exit code: %s", m->line);
        const char *message = strstr(m->cells[0], "not found") ? "Could not find endpoint x."
                                                               : "the request was refused";
        if (nc == 0) nc = 1, codes[0][0] = '\0'; /* none */
        for (int k = 0; k < nc; k++)
            for (int j = 0; j < ns; j++) {
                smfw_status s = aws_error_status(st[j], codes[k], message);
                ck_assert_msg(strcmp(smfw_status_name(s), want) == 0,
                              "code '%s' HTTP %d is %s in the code, %s in docs/aws.md: %s",
                              codes[k], st[j], smfw_status_name(s), want, m->line);
                ck_assert_int_eq(smfw_status_exit_code(s), exit_code);
                checked++;
            }
    }
    printf("AWS error table: %d rows, %d cases equal to the code\n", g_n, checked);
}
END_TEST

static int documented(const char *code) {
    for (int i = 0; i < g_n; i++) {
        char codes[MAX_CODES][64];
        int nc = md_cell_codes(g_md[i].cells[0], codes, MAX_CODES);
        for (int k = 0; k < nc; k++)
            if (strcmp(codes[k], code) == 0) return 1;
    }
    return 0;
}

START_TEST(every_mapped_code_is_documented) {
    if (g_n == 0) load();
    const char *const *lists[] = {aws_error_auth_codes(), aws_error_not_found_codes(),
                                  aws_retry_throttling_codes()};
    int n = 0;
    for (int l = 0; l < 3; l++)
        for (const char *const *c = lists[l]; *c; c++, n++)
            ck_assert_msg(documented(*c), "%s is mapped by the code but not in docs/aws.md", *c);
    printf("all %d mapped codes are in the table\n", n);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_error_table");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_row_is_the_code);
    tcase_add_test(tc, every_mapped_code_is_documented);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
