/* smfw_test.h - small helpers shared by the unit tests. */
#ifndef SMFW_TEST_H
#define SMFW_TEST_H

#include <stddef.h>

/* Path under tests/data (static buffer, valid until the next call). */
const char *smfw_test_data(const char *relative);
/* A fresh temporary folder (mkdtemp under $TMPDIR); caller frees the string. */
char *smfw_test_tmpdir(void);
/* Remove a folder tree (rm -rf). */
void smfw_test_rmtree(const char *path);
/* Read a whole file (NUL-terminated, caller frees), NULL on error. */
char *smfw_test_read_file(const char *path, size_t *len);
/* Write a file; returns 0 on success. */
int smfw_test_write_file(const char *path, const char *content);
/* The settings view of a built plugin's section ("reporter.html"), from a configuration with
   every plugin of the build folder declared and nothing set: what a plugin's create() gets
   from the core when no option is given. Valid until the program ends. */
struct smfw_settings;
const struct smfw_settings *smfw_test_plugin_settings(const char *section);
/* Run a check suite (CK_NORMAL output, the runner freed): the exit status of a unit test's
   main(), 0 when every test passed, 1 otherwise. */
struct Suite;
int smfw_test_run(struct Suite *suite);
/* Relative difference |a-b|/max(|a|,|b|,1e-300). */
double smfw_test_reldiff(double a, double b);

#endif
