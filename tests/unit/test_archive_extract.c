/*
 * test_archive_extract.c - the safe extractor against hostile tarballs
 * (traversal, absolute paths, link escapes, special files, huge files, too
 * many files, garbage) built with libarchive's writer, and bundle discovery
 * on the real AIPerf fixtures.
 */
#include <archive.h>
#include <archive_entry.h>
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/archive.h>

#include "smfw_test.h"

/* ---- a tiny tarball builder ------------------------------------------------ */

typedef struct tarb {
    struct archive *a;
    char path[4096];
} tarb;

static void tarb_open(tarb *t, const char *dir, const char *name, int gzip) {
    snprintf(t->path, sizeof t->path, "%s/%s", dir, name);
    t->a = archive_write_new();
    ck_assert_ptr_nonnull(t->a);
    ck_assert_int_eq(archive_write_set_format_pax_restricted(t->a), ARCHIVE_OK);
    if (gzip) ck_assert_int_eq(archive_write_add_filter_gzip(t->a), ARCHIVE_OK);
    ck_assert_int_eq(archive_write_open_filename(t->a, t->path), ARCHIVE_OK);
}

static void tarb_entry(tarb *t, const char *name, mode_t type, const void *data, size_t len,
                       int64_t declared, const char *symlink, const char *hardlink) {
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, type == AE_IFDIR ? 0755 : 0644);
    archive_entry_set_mtime(e, 1700000000, 0);
    if (symlink) archive_entry_set_symlink(e, symlink);
    if (hardlink) archive_entry_set_hardlink(e, hardlink);
    archive_entry_set_size(e, declared >= 0 ? declared : (int64_t)len);
    ck_assert_int_ge(archive_write_header(t->a, e), ARCHIVE_WARN);
    if (len) ck_assert_int_eq(archive_write_data(t->a, data, len), (la_ssize_t)len);
    archive_entry_free(e);
}

static void tarb_file(tarb *t, const char *name, const char *text) {
    tarb_entry(t, name, AE_IFREG, text, strlen(text), -1, NULL, NULL);
}

static void tarb_close(tarb *t) {
    ck_assert_int_eq(archive_write_close(t->a), ARCHIVE_OK);
    archive_write_free(t->a);
}

static int exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

static int folder_is_empty_or_missing(const char *path) {
    DIR *d = opendir(path);
    if (!d) return 1;
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) n++;
    closedir(d);
    return n == 0;
}

/* Fixture: a work folder holding the tarball, the destination "dest" and a canary. */
static char *work;
static char dest[4200];

static void setup(void) {
    work = smfw_test_tmpdir();
    ck_assert_ptr_nonnull(work);
    snprintf(dest, sizeof dest, "%s/sandbox/dest", work);
}

static void teardown(void) {
    smfw_test_rmtree(work);
    free(work);
}

/* Extract and expect a refusal whose message contains `why`, with nothing left anywhere. */
static void expect_refused(const tarb *t, const char *why) {
    smfw_error err;
    smfw_error_clear(&err);
    smfw_status st = smfw_archive_extract_file(t->path, dest, NULL, NULL, &err);
    ck_assert_msg(st == SMFW_ERR_PROTOCOL, "expected a refusal (%s), got %d: %s", why, st,
                  err.message);
    ck_assert_msg(strstr(err.message, why) != NULL, "message \"%s\" lacks \"%s\"", err.message,
                  why);
    ck_assert_msg(folder_is_empty_or_missing(dest), "extraction left files in %s", dest);
    char p[4400];
    snprintf(p, sizeof p, "%s/sandbox/evil.txt", work);
    ck_assert_msg(!exists(p), "a file was written outside the folder: %s", p);
    snprintf(p, sizeof p, "%s/evil.txt", work);
    ck_assert_msg(!exists(p), "a file was written outside the folder: %s", p);
}

START_TEST(extracts_a_normal_bundle_with_inside_links) {
    tarb t;
    tarb_open(&t, work, "ok.tar.gz", 1);
    tarb_entry(&t, "output/", AE_IFDIR, NULL, 0, -1, NULL, NULL);
    tarb_file(&t, "output/profile_export_aiperf.json", "{\"request_count\":{\"avg\":3.0}}");
    tarb_file(&t, "./output/plots/summary.txt", "ttft_timeline.png\n");
    tarb_entry(&t, "output/latest", AE_IFLNK, NULL, 0, 0, "plots/summary.txt", NULL);
    tarb_entry(&t, "output/copy.json", AE_IFREG, NULL, 0, 0, NULL,
               "output/profile_export_aiperf.json");
    tarb_close(&t);
    smfw_archive_stats st;
    smfw_error err;
    ck_assert_msg(smfw_archive_extract_file(t.path, dest, NULL, &st, &err) == SMFW_OK, "%s",
                  err.message);
    ck_assert_uint_eq(st.files, 2);
    ck_assert_uint_ge(st.entries, 5);
    char p[4400];
    snprintf(p, sizeof p, "%s/output/plots/summary.txt", dest);
    char *text = smfw_test_read_file(p, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "ttft_timeline.png\n");
    free(text);
    snprintf(p, sizeof p, "%s/output/copy.json", dest);
    text = smfw_test_read_file(p, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "{\"request_count\":{\"avg\":3.0}}");
    free(text);
    struct stat sb;
    snprintf(p, sizeof p, "%s/output/latest", dest);
    ck_assert_int_eq(lstat(p, &sb), 0);
    ck_assert(S_ISLNK(sb.st_mode));
    snprintf(p, sizeof p, "%s/output/profile_export_aiperf.json", dest);
    ck_assert_int_eq(stat(p, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0644);
}
END_TEST

START_TEST(refuses_dot_dot_traversal) {
    tarb t;
    tarb_open(&t, work, "trav.tar.gz", 1);
    tarb_file(&t, "fine.txt", "ok");
    tarb_file(&t, "../evil.txt", "pwned");
    tarb_close(&t);
    expect_refused(&t, "\"..\" component");
}
END_TEST

START_TEST(refuses_traversal_hidden_inside_a_path) {
    tarb t;
    tarb_open(&t, work, "trav2.tar", 0);
    tarb_file(&t, "output/a/../../../evil.txt", "pwned");
    tarb_close(&t);
    expect_refused(&t, "\"..\" component");
}
END_TEST

START_TEST(refuses_absolute_path) {
    tarb t;
    char abs[4400];
    snprintf(abs, sizeof abs, "%s/evil.txt", work);
    tarb_open(&t, work, "abs.tar.gz", 1);
    tarb_file(&t, abs, "pwned");
    tarb_close(&t);
    expect_refused(&t, "absolute path");
}
END_TEST

START_TEST(refuses_symlink_escape_then_write_through_it) {
    tarb t;
    tarb_open(&t, work, "sym.tar.gz", 1);
    tarb_entry(&t, "out", AE_IFLNK, NULL, 0, 0, "../..", NULL);
    tarb_file(&t, "out/evil.txt", "pwned");
    tarb_close(&t);
    expect_refused(&t, "could leave the folder");
}
END_TEST

START_TEST(refuses_absolute_symlink) {
    tarb t;
    tarb_open(&t, work, "symabs.tar.gz", 1);
    tarb_entry(&t, "etc", AE_IFLNK, NULL, 0, 0, "/etc", NULL);
    tarb_close(&t);
    expect_refused(&t, "could leave the folder");
}
END_TEST

START_TEST(refuses_writing_through_an_inside_symlink) {
    /* Even a link that stays inside must not be written through (chains could escape). */
    tarb t;
    tarb_open(&t, work, "symin.tar.gz", 1);
    tarb_entry(&t, "sub/", AE_IFDIR, NULL, 0, -1, NULL, NULL);
    tarb_entry(&t, "alias", AE_IFLNK, NULL, 0, 0, "sub", NULL);
    tarb_file(&t, "alias/x.txt", "through the link");
    tarb_close(&t);
    expect_refused(&t, "through a symbolic link");
}
END_TEST

START_TEST(refuses_replacing_a_symlink_by_a_file) {
    tarb t;
    tarb_open(&t, work, "symrep.tar.gz", 1);
    tarb_entry(&t, "a", AE_IFLNK, NULL, 0, 0, "b", NULL);
    tarb_file(&t, "a", "replace");
    tarb_close(&t);
    expect_refused(&t, "appears twice");
}
END_TEST

START_TEST(refuses_hard_link_outside) {
    tarb t;
    tarb_open(&t, work, "hard.tar.gz", 1);
    tarb_entry(&t, "passwd", AE_IFREG, NULL, 0, 0, NULL, "/etc/passwd");
    tarb_close(&t);
    expect_refused(&t, "outside the folder");
    tarb_open(&t, work, "hard2.tar.gz", 1);
    tarb_entry(&t, "passwd", AE_IFREG, NULL, 0, 0, NULL, "../../../../etc/passwd");
    tarb_close(&t);
    expect_refused(&t, "outside the folder");
}
END_TEST

START_TEST(refuses_hard_link_to_a_symlink) {
    tarb t;
    tarb_open(&t, work, "hardsym.tar.gz", 1);
    tarb_entry(&t, "l", AE_IFLNK, NULL, 0, 0, "x", NULL);
    tarb_entry(&t, "h", AE_IFREG, NULL, 0, 0, NULL, "l");
    tarb_close(&t);
    expect_refused(&t, "not a file extracted before it");
}
END_TEST

START_TEST(refuses_device_and_fifo) {
    tarb t;
    tarb_open(&t, work, "dev.tar.gz", 1);
    tarb_entry(&t, "null", AE_IFCHR, NULL, 0, 0, NULL, NULL);
    tarb_close(&t);
    expect_refused(&t, "character device");
    tarb_open(&t, work, "fifo.tar.gz", 1);
    tarb_entry(&t, "pipe", AE_IFIFO, NULL, 0, 0, NULL, NULL);
    tarb_close(&t);
    expect_refused(&t, "FIFO");
}
END_TEST

START_TEST(refuses_huge_file_by_declared_and_by_real_size) {
    size_t n = 3u << 20; /* 3 MiB of zeros: compresses to a few KiB */
    char *zeros = calloc(1, n);
    ck_assert_ptr_nonnull(zeros);
    tarb t;
    tarb_open(&t, work, "huge.tar.gz", 1);
    tarb_entry(&t, "big.bin", AE_IFREG, zeros, n, -1, NULL, NULL);
    tarb_close(&t);
    free(zeros);
    struct stat sb;
    ck_assert_int_eq(stat(t.path, &sb), 0);
    ck_assert_int_lt(sb.st_size, 64 * 1024); /* the bomb is small on the wire */
    smfw_archive_limits lim = {0};
    lim.max_file_bytes = 1u << 20;
    smfw_error err;
    ck_assert_int_eq(smfw_archive_extract_file(t.path, dest, &lim, NULL, &err), SMFW_ERR_PROTOCOL);
    ck_assert_msg(strstr(err.message, "over the limit") != NULL, "%s", err.message);
    ck_assert(folder_is_empty_or_missing(dest));
    /* Total limit over several files. */
    tarb_open(&t, work, "many-mid.tar.gz", 1);
    char chunk[4096];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 8; i++) {
        char name[32];
        snprintf(name, sizeof name, "f%d", i);
        tarb_entry(&t, name, AE_IFREG, chunk, sizeof chunk, -1, NULL, NULL);
    }
    tarb_close(&t);
    memset(&lim, 0, sizeof lim);
    lim.max_total_bytes = 5 * 4096;
    ck_assert_int_eq(smfw_archive_extract_file(t.path, dest, &lim, NULL, &err), SMFW_ERR_PROTOCOL);
    ck_assert_msg(strstr(err.message, "limit") != NULL, "%s", err.message);
    ck_assert(folder_is_empty_or_missing(dest));
}
END_TEST

/* A raw ustar header (libarchive's writer would pad a lying entry with real zeros). */
static void ustar_header(unsigned char *h, const char *name, const char *octal_size, char type) {
    memset(h, 0, 512);
    snprintf((char *)h, 100, "%s", name);
    memcpy(h + 100, "0000644", 7);
    memcpy(h + 108, "0000000", 7);
    memcpy(h + 116, "0000000", 7);
    memcpy(h + 124, octal_size, strlen(octal_size));
    memcpy(h + 136, "15000000000", 11);
    h[156] = (unsigned char)type;
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++) sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    h[155] = ' ';
}

START_TEST(refuses_a_file_that_claims_to_be_enormous) {
    /* A header announcing 8 GiB with no content: refused before reading data. */
    unsigned char block[1024];
    ustar_header(block, "liar.bin", "77777777777", '0');
    memset(block + 512, 0, 512);
    tarb t;
    snprintf(t.path, sizeof t.path, "%s/liar.tar", work);
    FILE *fp = fopen(t.path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(block, 1, sizeof block, fp), sizeof block);
    fclose(fp);
    expect_refused(&t, "declares");
}
END_TEST

START_TEST(refuses_a_hundred_thousand_tiny_files) {
    tarb t;
    tarb_open(&t, work, "many.tar.gz", 1);
    for (int i = 0; i < 100000; i++) {
        char name[32];
        snprintf(name, sizeof name, "d%d/f%d", i % 100, i);
        tarb_entry(&t, name, AE_IFREG, NULL, 0, 0, NULL, NULL);
    }
    tarb_close(&t);
    expect_refused(&t, "more than 10000 entries");
}
END_TEST

START_TEST(refuses_garbage_and_nonempty_destination) {
    char p[4400];
    snprintf(p, sizeof p, "%s/garbage.tar.gz", work);
    ck_assert_int_eq(smfw_test_write_file(p, "this is not an archive at all, not even close......."
                                             "................................................"),
                     0);
    smfw_error err;
    ck_assert_int_eq(smfw_archive_extract_file(p, dest, NULL, NULL, &err), SMFW_ERR_PROTOCOL);
    ck_assert(folder_is_empty_or_missing(dest));

    tarb t;
    tarb_open(&t, work, "ok2.tar.gz", 1);
    tarb_file(&t, "a.txt", "a");
    tarb_close(&t);
    char keep[4400];
    snprintf(keep, sizeof keep, "%s/sandbox/full", work);
    ck_assert_int_eq(smfw_archive_extract_file(t.path, keep, NULL, NULL, &err), SMFW_OK);
    ck_assert_int_eq(smfw_archive_extract_file(t.path, keep, NULL, NULL, &err), SMFW_ERR_IO);
    ck_assert_msg(strstr(err.message, "not empty") != NULL, "%s", err.message);
    snprintf(p, sizeof p, "%s/a.txt", keep);
    ck_assert(exists(p)); /* a refused call never removes what was there */
}
END_TEST

START_TEST(refuses_control_characters_in_names) {
    tarb t;
    tarb_open(&t, work, "ctl.tar.gz", 1);
    tarb_file(&t, "bad\033[2Jname", "x");
    tarb_close(&t);
    expect_refused(&t, "control character");
}
END_TEST

START_TEST(extracts_from_memory) {
    tarb t;
    tarb_open(&t, work, "mem.tar.gz", 1);
    tarb_file(&t, "x/y.txt", "hello");
    tarb_close(&t);
    size_t len;
    char *data = smfw_test_read_file(t.path, &len);
    ck_assert_ptr_nonnull(data);
    smfw_archive_stats st;
    smfw_error err;
    ck_assert_msg(smfw_archive_extract_memory(data, len, dest, NULL, &st, &err) == SMFW_OK, "%s",
                  err.message);
    free(data);
    ck_assert_uint_eq(st.files, 1);
    ck_assert_uint_eq(st.bytes, 5);
}
END_TEST

START_TEST(remove_tree_does_not_follow_links) {
    char victim[4400], tree[4400], p[4400];
    snprintf(victim, sizeof victim, "%s/victim", work);
    snprintf(tree, sizeof tree, "%s/tree", work);
    ck_assert_int_eq(mkdir(victim, 0755), 0);
    snprintf(p, sizeof p, "%s/keep.txt", victim);
    ck_assert_int_eq(smfw_test_write_file(p, "keep"), 0);
    ck_assert_int_eq(mkdir(tree, 0755), 0);
    snprintf(p, sizeof p, "%s/link", tree);
    ck_assert_int_eq(symlink(victim, p), 0);
    smfw_error err;
    ck_assert_int_eq(smfw_remove_tree(tree, &err), SMFW_OK);
    ck_assert(!exists(tree));
    snprintf(p, sizeof p, "%s/keep.txt", victim);
    ck_assert(exists(p));
}
END_TEST

/* ---- bundle discovery -------------------------------------------------------- */

START_TEST(finds_sweep_levels_in_the_fixture) {
    smfw_bundle_run *runs;
    size_t n;
    smfw_error err;
    ck_assert_msg(
        smfw_bundle_find_runs(smfw_test_data("aiperf/2025-11-qwen3-0.6b-concurrency-sweep"), &runs,
                              &n, &err) == SMFW_OK,
        "%s", err.message);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(runs[0].concurrency, 1);
    ck_assert_int_eq(runs[1].concurrency, 2);
    ck_assert_int_eq(runs[2].concurrency, 4);
    ck_assert(strstr(runs[2].dir, "qwen_concurrency4") != NULL);
    free(runs);
    ck_assert_int_eq(smfw_bundle_find_runs(smfw_test_data("aiperf/legacy-2025-10-example-run1"),
                                           &runs, &n, &err),
                     SMFW_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(runs[0].concurrency, 0);
    free(runs);
    ck_assert_int_eq(smfw_bundle_find_runs(smfw_test_data("aiperf/inputs-json"), &runs, &n, &err),
                     SMFW_ERR_NOT_FOUND);
}
END_TEST

START_TEST(finds_nested_output_and_concurrency_folders) {
    char p[4400];
    const char *dirs[] = {"b/output", "b/output/concurrency_16", "b/output/concurrency_2",
                          "b/output/concurrency_8", "b/output/plots"};
    char base[4400];
    snprintf(base, sizeof base, "%s/b", work);
    ck_assert_int_eq(mkdir(base, 0755), 0);
    for (size_t i = 0; i < 5; i++) {
        snprintf(p, sizeof p, "%s/%s", work, dirs[i]);
        ck_assert_int_eq(mkdir(p, 0755), 0);
    }
    const char *levels[] = {"16", "2", "8"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/b/output/concurrency_%s/profile_export_aiperf.json", work,
                 levels[i]);
        ck_assert_int_eq(smfw_test_write_file(p, "{}"), 0);
    }
    smfw_bundle_run *runs;
    size_t n;
    smfw_error err;
    ck_assert_msg(smfw_bundle_find_runs(base, &runs, &n, &err) == SMFW_OK, "%s", err.message);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(runs[0].concurrency, 2);
    ck_assert_int_eq(runs[1].concurrency, 8);
    ck_assert_int_eq(runs[2].concurrency, 16);
    free(runs);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("archive");
    TCase *tc = tcase_create("extract");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, extracts_a_normal_bundle_with_inside_links);
    tcase_add_test(tc, refuses_dot_dot_traversal);
    tcase_add_test(tc, refuses_traversal_hidden_inside_a_path);
    tcase_add_test(tc, refuses_absolute_path);
    tcase_add_test(tc, refuses_symlink_escape_then_write_through_it);
    tcase_add_test(tc, refuses_absolute_symlink);
    tcase_add_test(tc, refuses_writing_through_an_inside_symlink);
    tcase_add_test(tc, refuses_replacing_a_symlink_by_a_file);
    tcase_add_test(tc, refuses_hard_link_outside);
    tcase_add_test(tc, refuses_hard_link_to_a_symlink);
    tcase_add_test(tc, refuses_device_and_fifo);
    tcase_add_test(tc, refuses_huge_file_by_declared_and_by_real_size);
    tcase_add_test(tc, refuses_a_file_that_claims_to_be_enormous);
    tcase_add_test(tc, refuses_a_hundred_thousand_tiny_files);
    tcase_add_test(tc, refuses_garbage_and_nonempty_destination);
    tcase_add_test(tc, refuses_control_characters_in_names);
    tcase_add_test(tc, extracts_from_memory);
    tcase_add_test(tc, remove_tree_does_not_follow_links);
    tcase_add_test(tc, finds_sweep_levels_in_the_fixture);
    tcase_add_test(tc, finds_nested_output_and_concurrency_folders);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(suite());
}
