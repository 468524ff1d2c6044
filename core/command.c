/* command.c - what a plugin command reads from its context (see smfw/command.h). */
#include <string.h>

#include <smfw/command.h>

const char *smfw_command_get(const smfw_command_context *ctx, const char *name) {
    if (!ctx || !name) return NULL;
    /* The last one given wins, as for settings flags. */
    for (size_t i = ctx->n_values; i-- > 0;)
        if (ctx->values[i].name && strcmp(ctx->values[i].name, name) == 0)
            return ctx->values[i].value ? ctx->values[i].value : "";
    return NULL;
}
