/*
 * sessions.c - conversations of a multi-turn dataset and their bodies (sessions.h).
 */
#include "sessions.h"

#include <stdlib.h>
#include <string.h>

int direct_sessions_present(const smfw_prompt_set *ps) {
    for (size_t i = 0; i < ps->count; i++)
        if (ps->prompts[i].session_id && ps->prompts[i].turn_index > 0) return 1;
    return 0;
}

static const smfw_prompt_set *g_turn_set; /* qsort has no user pointer; one sort at a time */
static int by_turn(const void *a, const void *b) {
    const direct_turn *x = a, *y = b;
    int32_t tx = g_turn_set->prompts[x->payload].turn_index;
    int32_t ty = g_turn_set->prompts[y->payload].turn_index;
    if (tx != ty) return tx < ty ? -1 : 1;
    return x->payload < y->payload ? -1 : x->payload > y->payload;
}

smfw_status direct_sessions_build(const smfw_prompt_set *ps, const direct_payload_cfg *cfg,
                                  direct_sessions *out, smfw_error *err) {
    memset(out, 0, sizeof *out);
    out->cfg = *cfg;
    /* Conversation of each prompt, found through a session id -> conversation index map. */
    json_t *index = json_object();
    size_t *conv_of = malloc((ps->count ? ps->count : 1) * sizeof *conv_of);
    size_t *sizes = calloc(ps->count ? ps->count : 1, sizeof *sizes);
    smfw_status st = SMFW_OK;
    if (!index || !conv_of || !sizes) {
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < ps->count; i++) {
        const char *sid = ps->prompts[i].session_id;
        json_t *known = sid ? json_object_get(index, sid) : NULL;
        if (known) {
            conv_of[i] = (size_t)json_integer_value(known);
        } else {
            conv_of[i] = out->n++;
            if (sid) json_object_set_new(index, sid, json_integer((json_int_t)conv_of[i]));
        }
        sizes[conv_of[i]]++;
    }
    out->v = calloc(out->n ? out->n : 1, sizeof *out->v);
    if (!out->v) {
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t c = 0; c < out->n; c++) {
        out->v[c].turns = calloc(sizes[c], sizeof *out->v[c].turns);
        if (!out->v[c].turns) {
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            goto done;
        }
        if (sizes[c] > out->max_turns) out->max_turns = sizes[c];
    }
    for (size_t i = 0; i < ps->count; i++) {
        direct_conversation *c = &out->v[conv_of[i]];
        const smfw_prompt *p = &ps->prompts[i];
        c->turns[c->n++] = (direct_turn){i, p->text ? p->text : "", p->role, p->delay_ms};
    }
    /* Sampling may have shuffled the prompts: turns go in their dataset order. */
    g_turn_set = ps;
    for (size_t c = 0; c < out->n; c++)
        qsort(out->v[c].turns, out->v[c].n, sizeof *out->v[c].turns, by_turn);
    g_turn_set = NULL;
done:
    json_decref(index);
    free(conv_of);
    free(sizes);
    if (st != SMFW_OK) direct_sessions_free(out);
    return st;
}

void direct_sessions_free(direct_sessions *s) {
    for (size_t c = 0; s->v && c < s->n; c++) free(s->v[c].turns);
    free(s->v);
    memset(s, 0, sizeof *s);
}

smfw_status direct_session_body(const direct_sessions *s, const direct_turn *turn,
                                const direct_payload *base, const json_t *history, int streaming,
                                direct_payload *out, smfw_error *err) {
    direct_payload_cfg cfg = s->cfg;
    cfg.streaming = streaming;
    json_t *body = NULL;
    smfw_status st =
        direct_payload_build_json(&cfg, turn->text, turn->role, base->max_tokens, &body, err);
    if (st != SMFW_OK) return st;
    json_t *msgs = json_object_get(body, "messages");
    if (history && json_array_size(history) && json_is_array(msgs)) {
        json_t *all = json_deep_copy(history);
        if (!all || json_array_extend(all, msgs) != 0) {
            json_decref(all);
            json_decref(body);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory building a turn");
        }
        json_object_set_new(body, "messages", all);
    }
    st = direct_payload_fill(out, body, base->max_tokens, err);
    json_decref(body);
    if (st != SMFW_OK) return st;
    out->input_tokens = base->input_tokens;
    memcpy(out->conversation_id, base->conversation_id, sizeof out->conversation_id);
    out->turn_index = base->turn_index;
    return SMFW_OK;
}

smfw_status direct_session_remember(json_t *history, const direct_turn *turn, const char *answer,
                                    size_t answer_len) {
    json_t *user =
        json_pack("{s:s,s:s,s:s}", "role", turn->role && *turn->role ? turn->role : "user", "name",
                  "text", "content", turn->text);
    json_t *assistant = json_object();
    json_t *content = json_stringn(answer ? answer : "", answer ? answer_len : 0);
    if (!user || !assistant || !content || json_array_append_new(history, user) != 0) {
        json_decref(assistant);
        json_decref(content);
        return SMFW_ERR_NOMEM;
    }
    json_object_set_new(assistant, "role", json_string("assistant"));
    json_object_set_new(assistant, "content", content);
    if (json_array_append_new(history, assistant) != 0) return SMFW_ERR_NOMEM;
    return SMFW_OK;
}
