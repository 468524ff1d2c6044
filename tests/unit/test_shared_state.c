/* test_shared_state.c - the core's process-wide state used from several threads at once:
 * thread log sinks keep each thread's lines apart (masked as every line is), registries load
 * and free concurrently, SMFW_PLUGIN_PATH's copies are shared per value. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/app.h>
#include <smfw/log.h>

#include "smfw_test.h"

#define LINES 300

typedef struct sink_seen {
    const char *tag; /* what each of its lines must name */
    int lines, foreign, unmasked;
} sink_seen;

static void count_line(smfw_log_level level, const char *line, void *user) {
    sink_seen *s = user;
    (void)level;
    s->lines++;
    if (!strstr(line, s->tag)) s->foreign++;
    if (strstr(line, "thread-secret-value")) s->unmasked++;
}

typedef struct logger {
    sink_seen seen;
    int own_sink;
} logger;

static void *log_lines(void *arg) {
    logger *l = arg;
    if (l->own_sink) smfw_log_set_thread_sink(count_line, &l->seen);
    for (int i = 0; i < LINES; i++)
        smfw_log(SMFW_LOG_INFO, "t", "%s line %d key thread-secret-value", l->seen.tag, i);
    if (l->own_sink) smfw_log_set_thread_sink(NULL, NULL);
    return NULL;
}

START_TEST(thread_sinks_keep_each_threads_lines) {
    smfw_secret_register("thread-secret-value");
    /* The process sink sees only the thread without a sink of its own. */
    sink_seen process = {"thread-c", 0, 0, 0};
    smfw_log_set_sink(count_line, &process);
    logger l[3] = {
        {{"thread-a", 0, 0, 0}, 1}, {{"thread-b", 0, 0, 0}, 1}, {{"thread-c", 0, 0, 0}, 0}};
    pthread_t t[3];
    for (int i = 0; i < 3; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, log_lines, &l[i]), 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
    smfw_log_set_sink(NULL, NULL);
    smfw_secret_clear_all();
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(l[i].seen.lines, LINES);
        ck_assert_int_eq(l[i].seen.foreign, 0);
        ck_assert_int_eq(l[i].seen.unmasked, 0);
    }
    ck_assert_int_eq(l[2].seen.lines, 0);
    ck_assert_int_eq(process.lines, LINES);
    ck_assert_int_eq(process.foreign, 0);
    ck_assert_int_eq(process.unmasked, 0);
}
END_TEST

static void *load_free_registries(void *arg) {
    int *ok = arg;
    for (int round = 0; round < 4; round++) {
        const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
        smfw_registry *reg = NULL;
        smfw_error err;
        if (smfw_registry_load(dirs, 1, &reg, &err) != SMFW_OK) return NULL;
        int found = smfw_registry_find(reg, SMFW_PLUGIN_BACKEND, "direct") != NULL &&
                    smfw_registry_refused_count(reg) == 0;
        smfw_registry_free(reg);
        if (!found) return NULL;
    }
    *ok = 1;
    return NULL;
}

START_TEST(registries_load_and_free_from_several_threads) {
    pthread_t t[4];
    int ok[4] = {0};
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, load_free_registries, &ok[i]), 0);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) ck_assert_int_eq(ok[i], 1);
}
END_TEST

START_TEST(plugin_path_copies_are_split_and_shared_per_value) {
    setenv("SMFW_PLUGIN_PATH", "/p/one::/p/two:", 1);
    const char *a[8], *b[8];
    size_t na = smfw_registry_default_dirs(NULL, 0, NULL, 0, a, 8);
    size_t nb = smfw_registry_default_dirs(NULL, 0, NULL, 0, b, 8);
    unsetenv("SMFW_PLUGIN_PATH");
    ck_assert_uint_eq(na, nb);
    ck_assert_uint_ge(na, 3);
    ck_assert_str_eq(a[0], "/p/one");
    ck_assert_str_eq(a[1], "/p/two");
    ck_assert_str_ne(a[2], "");
    /* The same value reuses its copy: repeated calls (one per job) do not grow memory. */
    ck_assert_ptr_eq(a[0], b[0]);
    ck_assert_ptr_eq(a[1], b[1]);
}
END_TEST

int main(void) {
    Suite *s = suite_create("shared_state");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, thread_sinks_keep_each_threads_lines);
    tcase_add_test(tc, registries_load_and_free_from_several_threads);
    tcase_add_test(tc, plugin_path_copies_are_split_and_shared_per_value);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
