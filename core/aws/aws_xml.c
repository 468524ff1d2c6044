/* aws_xml.c - small XML tree reader for AWS responses. */
#include "aws/aws_xml.h"

#include <stdlib.h>
#include <string.h>

#include "aws/aws_text.h"

#define XML_MAX_DEPTH 64

typedef struct xml_parser {
    const char *p, *end;
    smfw_error *err;
} xml_parser;

static aws_xml_node *node_new(const char *name, size_t n) {
    aws_xml_node *x = calloc(1, sizeof(*x));
    if (!x) return NULL;
    /* Local name: drop "prefix:". */
    const char *colon = memchr(name, ':', n);
    if (colon) {
        n -= (size_t)(colon + 1 - name);
        name = colon + 1;
    }
    x->name = malloc(n + 1);
    x->text = strdup("");
    if (!x->name || !x->text) {
        free(x->name);
        free(x->text);
        free(x);
        return NULL;
    }
    memcpy(x->name, name, n);
    x->name[n] = '\0';
    return x;
}

void aws_xml_free(aws_xml_node *n) {
    while (n) {
        aws_xml_node *next = n->next;
        aws_xml_free(n->child);
        free(n->name);
        free(n->text);
        free(n);
        n = next;
    }
}

static int is_name_char(char c) {
    return c && !strchr(" \t\r\n/>=<\"'", c);
}

static int starts(const xml_parser *x, const char *s) {
    size_t n = strlen(s);
    return (size_t)(x->end - x->p) >= n && memcmp(x->p, s, n) == 0;
}

/* Skip to just after `term`; -1 if not found. */
static int skip_past(xml_parser *x, const char *term) {
    size_t n = strlen(term);
    while ((size_t)(x->end - x->p) >= n) {
        if (memcmp(x->p, term, n) == 0) {
            x->p += n;
            return 0;
        }
        x->p++;
    }
    return -1;
}

static void put_utf8(smfw_buf *b, unsigned long cp) {
    char o[4];
    if (cp < 0x80) {
        o[0] = (char)cp;
        smfw_buf_append(b, o, 1);
    } else if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        smfw_buf_append(b, o, 2);
    } else if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        smfw_buf_append(b, o, 3);
    } else {
        o[0] = (char)(0xF0 | (cp >> 18));
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (char)(0x80 | (cp & 0x3F));
        smfw_buf_append(b, o, 4);
    }
}

/* Decode character data [s, e) with entities into b. Returns -1 on a bad entity. */
static int decode_text(smfw_buf *b, const char *s, const char *e) {
    while (s < e) {
        if (*s != '&') {
            const char *amp = memchr(s, '&', (size_t)(e - s));
            const char *stop = amp ? amp : e;
            smfw_buf_append(b, s, (size_t)(stop - s));
            s = stop;
            continue;
        }
        const char *semi = memchr(s, ';', (size_t)(e - s) < 12 ? (size_t)(e - s) : 12);
        if (!semi) return -1;
        size_t n = (size_t)(semi - s - 1);
        const char *ent = s + 1;
        if (n == 2 && memcmp(ent, "lt", 2) == 0)
            smfw_buf_putc(b, '<');
        else if (n == 2 && memcmp(ent, "gt", 2) == 0)
            smfw_buf_putc(b, '>');
        else if (n == 3 && memcmp(ent, "amp", 3) == 0)
            smfw_buf_putc(b, '&');
        else if (n == 4 && memcmp(ent, "quot", 4) == 0)
            smfw_buf_putc(b, '"');
        else if (n == 4 && memcmp(ent, "apos", 4) == 0)
            smfw_buf_putc(b, '\'');
        else if (n >= 2 && ent[0] == '#') {
            unsigned long cp = 0;
            int hex = ent[1] == 'x' || ent[1] == 'X';
            size_t k = hex ? 2 : 1;
            if (k >= n) return -1;
            for (; k < n; k++) {
                char c = ent[k];
                int d = (c >= '0' && c <= '9')          ? c - '0'
                        : hex && (c >= 'a' && c <= 'f') ? c - 'a' + 10
                        : hex && (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                        : -1;
                if (d < 0) return -1;
                cp = cp * (hex ? 16 : 10) + (unsigned long)d;
                if (cp > 0x10FFFF) return -1;
            }
            if (cp == 0) return -1;
            put_utf8(b, cp);
        } else {
            return -1;
        }
        s = semi + 1;
    }
    return 0;
}

static int append_text(aws_xml_node *n, const char *s, const char *e) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_puts(&b, n->text);
    if (decode_text(&b, s, e) != 0) {
        smfw_buf_free(&b);
        return -1;
    }
    char *t = smfw_buf_take(&b);
    if (!t) return -2;
    free(n->text);
    n->text = t;
    return 0;
}

static smfw_status bad(xml_parser *x, const char *what) {
    return smfw_error_set(x->err, SMFW_ERR_PROTOCOL, "malformed XML: %s", what);
}

smfw_status aws_xml_parse(const char *text, size_t len, aws_xml_node **root, smfw_error *err) {
    *root = NULL;
    xml_parser x = {text, text + len, err};
    aws_xml_node *stack[XML_MAX_DEPTH];
    aws_xml_node *last_child[XML_MAX_DEPTH];
    int depth = 0;
    aws_xml_node *top = NULL;
    smfw_status st = SMFW_OK;
    while (x.p < x.end && st == SMFW_OK) {
        if (*x.p != '<') {
            const char *lt = memchr(x.p, '<', (size_t)(x.end - x.p));
            const char *stop = lt ? lt : x.end;
            if (depth > 0) {
                int rc = append_text(stack[depth - 1], x.p, stop);
                if (rc == -1) st = bad(&x, "unknown or broken entity");
                if (rc == -2) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            } else {
                for (const char *c = x.p; c < stop; c++)
                    if (!strchr(" \t\r\n", *c)) {
                        st = bad(&x, "text outside the root element");
                        break;
                    }
            }
            x.p = stop;
            continue;
        }
        if (starts(&x, "<?")) {
            if (skip_past(&x, "?>") != 0) st = bad(&x, "unterminated '<?'");
            continue;
        }
        if (starts(&x, "<!--")) {
            if (skip_past(&x, "-->") != 0) st = bad(&x, "unterminated comment");
            continue;
        }
        if (starts(&x, "<![CDATA[")) {
            if (depth == 0) {
                st = bad(&x, "CDATA outside the root element");
                break;
            }
            const char *s = x.p + 9;
            x.p = s;
            if (skip_past(&x, "]]>") != 0) {
                st = bad(&x, "unterminated CDATA");
                break;
            }
            smfw_buf b;
            smfw_buf_init(&b);
            smfw_buf_puts(&b, stack[depth - 1]->text);
            smfw_buf_append(&b, s, (size_t)(x.p - 3 - s));
            char *t = smfw_buf_take(&b);
            if (!t) {
                st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
                break;
            }
            free(stack[depth - 1]->text);
            stack[depth - 1]->text = t;
            continue;
        }
        if (starts(&x, "<!")) { /* DOCTYPE and friends: skipped, no entity expansion */
            if (skip_past(&x, ">") != 0) st = bad(&x, "unterminated '<!'");
            continue;
        }
        if (starts(&x, "</")) {
            const char *s = x.p + 2, *e = s;
            while (e < x.end && is_name_char(*e)) e++;
            const char *colon = memchr(s, ':', (size_t)(e - s));
            if (colon) s = colon + 1;
            if (depth == 0 || strlen(stack[depth - 1]->name) != (size_t)(e - s) ||
                memcmp(stack[depth - 1]->name, s, (size_t)(e - s)) != 0) {
                st = bad(&x, "closing tag does not match the open element");
                break;
            }
            while (e < x.end && strchr(" \t\r\n", *e)) e++;
            if (e >= x.end || *e != '>') {
                st = bad(&x, "unterminated closing tag");
                break;
            }
            x.p = e + 1;
            depth--;
            continue;
        }
        /* Start tag. */
        const char *s = x.p + 1, *e = s;
        while (e < x.end && is_name_char(*e)) e++;
        if (e == s) {
            st = bad(&x, "'<' not followed by an element name");
            break;
        }
        if (depth == 0 && top) {
            st = bad(&x, "more than one root element");
            break;
        }
        if (depth >= XML_MAX_DEPTH) {
            st = bad(&x, "elements nested deeper than 64");
            break;
        }
        aws_xml_node *n = node_new(s, (size_t)(e - s));
        if (!n) {
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            break;
        }
        if (depth == 0) {
            top = n;
        } else {
            aws_xml_node *parent = stack[depth - 1];
            if (last_child[depth - 1])
                last_child[depth - 1]->next = n;
            else
                parent->child = n;
            last_child[depth - 1] = n;
        }
        /* Attributes: skip, honouring quotes. */
        char quote = 0;
        while (e < x.end && (quote || *e != '>')) {
            if (quote && *e == quote)
                quote = 0;
            else if (!quote && (*e == '"' || *e == '\''))
                quote = *e;
            e++;
        }
        if (e >= x.end) {
            st = bad(&x, "unterminated start tag");
            break;
        }
        int self_closing = e[-1] == '/' && e - 1 >= s;
        x.p = e + 1;
        if (!self_closing) {
            stack[depth] = n;
            last_child[depth] = NULL;
            depth++;
        }
    }
    if (st == SMFW_OK && depth != 0) st = bad(&x, "the document ends inside an element");
    if (st == SMFW_OK && !top) st = bad(&x, "no root element");
    if (st != SMFW_OK) {
        aws_xml_free(top);
        return st;
    }
    *root = top;
    return SMFW_OK;
}

const aws_xml_node *aws_xml_child(const aws_xml_node *n, const char *name) {
    for (const aws_xml_node *c = n ? n->child : NULL; c; c = c->next)
        if (strcmp(c->name, name) == 0) return c;
    return NULL;
}

const aws_xml_node *aws_xml_next_named(const aws_xml_node *n) {
    for (const aws_xml_node *c = n->next; c; c = c->next)
        if (strcmp(c->name, n->name) == 0) return c;
    return NULL;
}

const char *aws_xml_path(const aws_xml_node *n, const char *path) {
    char part[128];
    while (n && *path) {
        const char *slash = strchr(path, '/');
        size_t l = slash ? (size_t)(slash - path) : strlen(path);
        if (l >= sizeof(part)) return NULL;
        memcpy(part, path, l);
        part[l] = '\0';
        n = aws_xml_child(n, part);
        path = slash ? slash + 1 : path + l;
    }
    return n ? n->text : NULL;
}

const aws_xml_node *aws_xml_find(const aws_xml_node *n, const char *name) {
    if (!n) return NULL;
    if (strcmp(n->name, name) == 0) return n;
    for (const aws_xml_node *c = n->child; c; c = c->next) {
        const aws_xml_node *f = aws_xml_find(c, name);
        if (f) return f;
    }
    return NULL;
}
