#!/usr/bin/env python3
"""Build datasets/curated.jsonl from the hand-written material in datasets/tools/curated/.

Run once from anywhere (Python 3 standard library only):

    python3 datasets/tools/build_curated.py

The output is deterministic (fixed seed). Every prompt starts with its own instruction, so no
two prompts share a long common prefix even when they quote the same passage (a shared prefix
would let a server's prefix cache flatter time to first token). The generated file is committed;
`smfw dataset validate` and `smfw dataset show curated` check it and give its statistics.
"""
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from curated import passages_code, passages_extra, passages_long, passages_more, passages_prose  # noqa: E402,E501
from curated import requests_long, requests_short  # noqa: E402
from curated.extra_tasks import EXTRA_TASKS  # noqa: E402

SEED = 20240601
TARGET_COUNT = 500
MIN_BUDGET, MAX_BUDGET = 32, 2048
MAX_LINE_BYTES = 12 * 1024

# How a pasted passage is introduced after the instruction. {i} = instruction, {p} = passage.
PLAIN_FRAMES = [
    "{i}\n\n{p}",
    "{i}\n\n---\n{p}\n---",
    "{i} Here it is:\n\n{p}",
    '{i}\n\n"""\n{p}\n"""',
    "{i}\n\nText:\n{p}",
]
CODE_FRAMES = [
    "{i}\n\n```{lang}\n{p}\n```",
    "{i}\n\n```{lang}\n{p}\n```\n\nThanks in advance.",
    "{i} Here's the code:\n\n```{lang}\n{p}\n```",
    "{i}\n\n{p}",
]


def estimate_tokens(text):
    """Mirror of smfw_estimate_tokens() (core/prompt_set.c), for a preview only.

    Pieces of about 4 characters that never cross whitespace; a piece grows to the next
    whitespace when that is at most 2 characters further.
    """
    data = text.encode("utf-8")
    n, i, tokens = len(data), 0, 0
    ws = b" \t\n\v\f\r"
    while i < n:
        while i < n and data[i] in ws:
            i += 1
        if i >= n:
            break
        end = min(i + 4, n)
        k = end
        while k < n and k <= end + 2:
            if data[k] in ws:
                end = k
                break
            k += 1
        for k in range(i, end):
            if data[k] in ws:
                end = k
                break
        tokens += 1
        i = end
    return tokens


def passage_prompts(rng):
    known = {p["id"] for m in (passages_code, passages_long, passages_prose, passages_more,
                               passages_extra) for p in m.PASSAGES}
    for pid in EXTRA_TASKS:
        if pid not in known:
            sys.exit(f"build_curated: extra tasks for unknown passage {pid}")
    out = []
    for module in (passages_code, passages_long, passages_prose, passages_more, passages_extra):
        for passage in module.PASSAGES:
            text = passage["text"].strip("\n")
            fence = passage["fence"]
            for instruction, budget in passage["tasks"] + EXTRA_TASKS.get(passage["id"], []):
                if fence is not None:
                    frame = rng.choice(CODE_FRAMES)
                    prompt = frame.format(i=instruction, p=text, lang=fence)
                else:
                    frame = rng.choice(PLAIN_FRAMES)
                    prompt = frame.format(i=instruction, p=text)
                out.append((passage["id"], prompt, budget))
    return out


def unwrap(text):
    """Join the hard-wrapped lines of prose paragraphs (people type them in one line).

    Paragraphs that look like code or lists keep their line breaks.
    """
    paragraphs = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        code_like = any(
            line.startswith((" ", "\t", "-", "*")) or line.rstrip().endswith((":", "{", ";", "}"))
            or re.match(r"^([0-9]+[.)]|[A-Z]\)) ", line)
            for line in lines
        )
        paragraphs.append(para if code_like else " ".join(line.strip() for line in lines))
    return "\n\n".join(paragraphs)


def standalone_prompts():
    out = []
    for module in (requests_short, requests_long):
        for text, budget in module.REQUESTS:
            out.append(("standalone", unwrap(text.strip()), budget))
    return out


def main():
    rng = random.Random(SEED)
    prompts = passage_prompts(rng) + standalone_prompts()
    if len(prompts) != TARGET_COUNT:
        sys.exit(f"build_curated: {len(prompts)} prompts, expected {TARGET_COUNT}")
    seen = set()
    for source, text, budget in prompts:
        if not (MIN_BUDGET <= budget <= MAX_BUDGET):
            sys.exit(f"build_curated: budget {budget} out of range in {source}: {text[:60]!r}")
        if text in seen:
            sys.exit(f"build_curated: duplicate prompt in {source}: {text[:60]!r}")
        seen.add(text)
    rng.shuffle(prompts)

    out_path = os.path.join(HERE, "..", "curated.jsonl")
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        for _source, text, budget in prompts:
            line = json.dumps({"text": text, "output_length": budget}, ensure_ascii=False)
            if len(line.encode("utf-8")) > MAX_LINE_BYTES:
                sys.exit(f"build_curated: line over {MAX_LINE_BYTES} bytes: {text[:60]!r}")
            f.write(line + "\n")

    # The synthetic plugin's corpus: the prose passages (no code), one paragraph per line.
    corpus_path = os.path.join(HERE, "..", "synthetic_corpus.txt")
    with open(corpus_path, "w", encoding="utf-8", newline="\n") as f:
        for module in (passages_long, passages_prose, passages_more, passages_extra):
            for passage in module.PASSAGES:
                if passage["fence"] is None:
                    for para in passage["text"].strip().split("\n\n"):
                        f.write(" ".join(para.split()) + "\n")
    print(f"wrote the synthetic corpus to {os.path.normpath(corpus_path)}")

    lengths = sorted(estimate_tokens(t) for _, t, _ in prompts)
    budgets = sorted(b for _, _, b in prompts)

    def pct(values, p):
        return values[min(len(values) - 1, int(p / 100 * len(values)))]

    print(f"wrote {len(prompts)} prompts to {os.path.normpath(out_path)}")
    for name, values in (("input tokens (estimated)", lengths), ("output budget", budgets)):
        print(f"{name}: min {values[0]} p25 {pct(values, 25)} median {pct(values, 50)} "
              f"p75 {pct(values, 75)} p90 {pct(values, 90)} max {values[-1]} "
              f"mean {sum(values) / len(values):.0f}")


if __name__ == "__main__":
    main()
