/*
 * aws_xml.h - a small, strict-enough XML reader for AWS responses (S3
 * restXml, STS/IAM awsQuery, error bodies) (internal). Builds a tree of
 * elements with their text; namespaces prefixes are dropped, attributes
 * ignored, entities and CDATA decoded. Never reads past its input; bounded
 * depth (64). Untrusted input is fine.
 */
#ifndef SMFW_AWS_XML_H
#define SMFW_AWS_XML_H

#include <stddef.h>

#include <smfw/smfw.h>

typedef struct aws_xml_node {
    char *name; /* local name */
    char *text; /* concatenated character data directly inside (never NULL) */
    struct aws_xml_node *child;
    struct aws_xml_node *next;
} aws_xml_node;

smfw_status aws_xml_parse(const char *text, size_t len, aws_xml_node **root, smfw_error *err);
void aws_xml_free(aws_xml_node *root);

/* First direct child named `name`, or NULL. */
const aws_xml_node *aws_xml_child(const aws_xml_node *n, const char *name);
/* Next sibling with the same name as n, or NULL. */
const aws_xml_node *aws_xml_next_named(const aws_xml_node *n);
/* Text at a '/'-separated path of child names under n ("A/B"), or NULL. */
const char *aws_xml_path(const aws_xml_node *n, const char *path);
/* First element named `name` anywhere under n (depth-first, n included), or NULL. */
const aws_xml_node *aws_xml_find(const aws_xml_node *n, const char *name);

#endif
