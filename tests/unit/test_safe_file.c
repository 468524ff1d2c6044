/* test_safe_file.c - smfw_file_append_to, the one copy of a file into an open stream (the
 * sharded fetch assembling records, `smfw sweep` printing sweep.md): every byte, in order, past
 * its 64 KiB buffer; a missing file or a full device is an error naming the file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/untrusted.h>

#include "smfw_test.h"

START_TEST(appends_every_byte) {
    char path[] = "/tmp/smfw-append-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    size_t n = 200000; /* three buffers and a part */
    unsigned char *data = malloc(n);
    for (size_t i = 0; i < n; i++) data[i] = (unsigned char)(i * 131 + (i >> 9));
    ck_assert_int_eq(write(fd, data, n), (ssize_t)n);
    close(fd);
    char *got = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&got, &len);
    fputs("head:", out);
    smfw_error err;
    ck_assert_int_eq(smfw_file_append_to(out, path, &err), SMFW_OK);
    ck_assert_int_eq(smfw_file_append_to(out, path, &err), SMFW_OK);
    fclose(out);
    ck_assert_uint_eq(len, 5 + 2 * n);
    ck_assert(memcmp(got, "head:", 5) == 0);
    ck_assert(memcmp(got + 5, data, n) == 0);
    ck_assert(memcmp(got + 5 + n, data, n) == 0);
    free(got);
    free(data);
    unlink(path);
}
END_TEST

START_TEST(errors_name_the_file) {
    smfw_error err;
    FILE *out = fopen("/dev/null", "w");
    ck_assert_int_eq(smfw_file_append_to(out, "/nonexistent/records-0001.jsonl", &err),
                     SMFW_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "cannot read /nonexistent/records-0001.jsonl: "));
    fclose(out);
    FILE *full = fopen("/dev/full", "w");
    if (!full) return; /* no /dev/full here */
    setvbuf(full, NULL, _IONBF, 0);
    ck_assert_int_eq(smfw_file_append_to(full, "/etc/passwd", &err), SMFW_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "cannot copy /etc/passwd: No space left on device"));
    fclose(full);
}
END_TEST

int main(void) {
    Suite *s = suite_create("safe_file");
    TCase *tc = tcase_create("append");
    tcase_add_test(tc, appends_every_byte);
    tcase_add_test(tc, errors_name_the_file);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
