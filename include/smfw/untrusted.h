/*
 * untrusted.h - checks for strings smfw did not choose (names from a
 * service or a bundle, user-given names) before they become paths or
 * reach a terminal or a report. See docs/managed.md, "Trust".
 */
#ifndef SMFW_UNTRUSTED_H
#define SMFW_UNTRUSTED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** SageMaker's AIEntityName: [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}. Names of this shape are safe
 *  path components. */
SMFW_API int smfw_aws_entity_name_valid(const char *name);

/** Make s one safe path component in place: bytes other than [A-Za-z0-9_.-] become '-',
 *  a leading '.' too (no "..", no hidden files); an empty s becomes "_". */
SMFW_API void smfw_path_component_sanitize(char *s);

/** Write s to out with every C0 and C1 control, DEL and invalid UTF-8 byte shown as an
 *  escape (\\n, \\x1b, \\u009b): what a service or a bundle says can neither move the cursor
 *  nor retitle the terminal. Tabs and, when keep_newlines, newlines pass. */
SMFW_API void smfw_term_write(FILE *out, const char *s, int keep_newlines);

/** The same into buf (always NUL-terminated, cut at size). */
SMFW_API const char *smfw_term_escape(const char *s, char *buf, size_t size);
/** The same, keeping newlines. */
SMFW_API const char *smfw_term_escape_lines(const char *s, char *buf, size_t size);

/** Create and open (O_EXCL, 0644) a temporary ".NAME.XXXXXX" beside path; *tmp_out gets its
 *  name (freed by the caller). A planted file or link named like path is never touched.
 *  Returns the descriptor, or -1 with errno. */
SMFW_API int smfw_tmpfile_beside(const char *path, char **tmp_out);

/** Give tmp its real name path: rename() when replace, else fail with EEXIST when path
 *  exists (a file or a link planted meanwhile stays as it was). 0 or -1 with errno. */
SMFW_API int smfw_file_publish(const char *tmp, const char *path, int replace);

/** mkdir -p: create path and every missing parent with mode (an existing folder is fine).
 *  0, or -1 with errno; *created (when not NULL) says whether path itself was made here. */
SMFW_API int smfw_mkdir_p(const char *path, unsigned mode, int *created);

/** Append the bytes of the file at path to out (a stream already open: stdout, a file being
 *  assembled). SMFW_ERR_IO names path when it cannot be read or out cannot take it. */
SMFW_API smfw_status smfw_file_append_to(FILE *out, const char *path, smfw_error *err);

/** Create a new folder parent/name, or parent/name-2, -3, ... when taken; its path goes to
 *  out. 0, or -1 with errno. */
SMFW_API int smfw_mkdir_unique(const char *parent, const char *name, char *out, size_t size);

/** Paging through a listing a service controls (see untrusted_pages.c). */
typedef struct smfw_pager {
    int64_t pages, bytes, max_pages, max_bytes;
    uint64_t *seen; /* hashes of the tokens so far */
    size_t n, cap;
} smfw_pager;

enum {
    SMFW_PAGER_MORE = 0,      /* ask for the next page */
    SMFW_PAGER_DONE = 1,      /* no next token: the listing is complete */
    SMFW_PAGER_REPEATED = -1, /* the next token was seen before: a loop */
    SMFW_PAGER_TOO_MANY_PAGES = -2,
    SMFW_PAGER_TOO_MANY_BYTES = -3
};

/** Limits from bundle.max_list_pages and bundle.max_list_bytes. */
SMFW_API void smfw_pager_init(smfw_pager *p);
SMFW_API void smfw_pager_free(smfw_pager *p);
/** Account one page of `bytes` whose next token is next_token (NULL or "" at the end). */
SMFW_API int smfw_pager_page(smfw_pager *p, size_t bytes, const char *next_token);
/** A sentence for a negative verdict, naming the setting. */
SMFW_API const char *smfw_pager_why(int verdict);

#ifdef __cplusplus
}
#endif

#endif
