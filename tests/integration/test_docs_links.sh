#!/usr/bin/env bash
# test_docs_links.sh - every document README.md and docs/*.md name (a link, or a
# `name.md` in backticks) is one the project ships.
set -euo pipefail
cd "$SMFW_SOURCE_DIR"
bad=0
for f in README.md docs/*.md; do
    dir=$(dirname "$f")
    while read -r ref; do
        [ -n "$ref" ] || continue
        case "$ref" in http*) continue ;; esac
        # Files smfw writes into result folders are not documents.
        case "$ref" in summary.md | sweep.md | compare.md | cloudwatch.md) continue ;; esac
        ref=${ref%%#*}
        [ -e "$dir/$ref" ] || [ -e "$ref" ] || [ -e "docs/$ref" ] || { echo "$f names $ref, which is not shipped"; bad=1; }
    done < <(grep -oE '\]\([^)]+\.md(#[^)]*)?\)|`[A-Za-z0-9_./-]+\.md`' "$f" | sed -E 's/^\]\(//; s/\)$//; s/`//g')
done
[ "$bad" = 0 ]
echo ok
