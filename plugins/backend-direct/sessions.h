/*
 * sessions.h - multi-turn conversations of a dataset, sent turn after turn.
 *
 * A dataset whose prompts carry a session id and turn index (AIPerf
 * multi_turn) is replayed as conversations: each closed-loop user takes the
 * next conversation and sends its turns in order, turn k+1 only after turn
 * k's answer ended (and the turn's delay passed). Chat requests carry the
 * history: the earlier user turns and the assistant's actual answers, as
 * AIPerf sends them, so the body of turn k holds 2k+1 messages (k counted
 * from 0). Other endpoint types send each turn's own text.
 */
#ifndef DIRECT_SESSIONS_H
#define DIRECT_SESSIONS_H

#include <jansson.h>

#include <smfw/dataset.h>

#include "payload.h"

/** One turn: its prepared single-turn payload (budget, ids) and the text to send. */
typedef struct direct_turn {
    size_t payload;   /**< index into the run's payloads */
    const char *text; /**< the prompt's text (borrowed from the prompt set) */
    const char *role; /**< its role, NULL = user */
    int64_t delay_ms; /**< wait before this turn after the previous answer, -1 = none given */
} direct_turn;

typedef struct direct_conversation {
    direct_turn *turns; /**< in turn_index order */
    size_t n;
} direct_conversation;

typedef struct direct_sessions {
    direct_conversation *v;
    size_t n;
    size_t max_turns;
    direct_payload_cfg cfg; /**< the run's payload settings (strings borrowed from the options) */
} direct_sessions;

/** Whether a prompt set holds conversations (some session has a second turn). */
int direct_sessions_present(const smfw_prompt_set *ps);

/**
 * Group the prompts into conversations, in the order their sessions first
 * appear; prompts without a session id become one-turn conversations.
 * payloads[i] belongs to ps->prompts[i].
 */
smfw_status direct_sessions_build(const smfw_prompt_set *ps, const direct_payload_cfg *cfg,
                                  direct_sessions *out, smfw_error *err);
void direct_sessions_free(direct_sessions *s);

/**
 * The body of turn k of a conversation into *out (replacing what it held):
 * the turn's own body with `history` (chat messages, NULL = none) before its
 * message. `streaming` = 0 for a buffered turn (SageMaker's first turn).
 * The ids and budget come from `base`, the turn's prepared payload.
 */
smfw_status direct_session_body(const direct_sessions *s, const direct_turn *turn,
                                const direct_payload *base, const json_t *history, int streaming,
                                direct_payload *out, smfw_error *err);

/**
 * Append a finished turn to a chat history: its user message (as the body
 * sent it) and the assistant's answer as received. SMFW_ERR_NOMEM on failure.
 */
smfw_status direct_session_remember(json_t *history, const direct_turn *turn, const char *answer,
                                    size_t answer_len);

#endif /* DIRECT_SESSIONS_H */
