/*
 * retemplate.h - a captured request body rebuilt for another endpoint type.
 *
 * A Data Capture replays bodies as captured. With --endpoint-type naming another type than
 * the body's (a chat capture sent to a completions or TGI endpoint, say), the body's prompt
 * is taken out of it and a body of the new type is built around it, the way every other
 * dataset's prompts are (payload.h): --model, --extra-inputs and the output budget apply.
 */
#ifndef DIRECT_RETEMPLATE_H
#define DIRECT_RETEMPLATE_H

#include <stddef.h>

#include <smfw/smfw.h>

#include "stream.h"

/**
 * The endpoint type a captured body was made for and its prompt text (malloc'd into
 * *text): chat `messages` (one user message: its content; several: "role: content"
 * paragraphs, so the turns stay apart), completions `prompt` (a string, or a list of
 * strings joined by newlines), TGI `inputs`, embeddings `input`. A body of none of
 * these shapes, or with non-text content (an image part), is SMFW_ERR_CONFIG naming
 * what is missing; `where` ("capture entry 3") starts the message.
 */
smfw_status direct_capture_prompt(const char *body, size_t len, const char *where,
                                  direct_endpoint_type *type, char **text, smfw_error *err);

#endif /* DIRECT_RETEMPLATE_H */
