#!/usr/bin/env bash
# check_architecture.sh - the include and naming rules of docs/architecture.md,
# checked on the source tree (CI runs it from tools/test.sh):
#   R1  no file under src/ includes an AWS header (the program is a generic front end)
#   R2  no file under src/ names a backend (no string "managed", "direct", ...)
#   R3  no plugin includes the program's API (app.h, capacity.h, compare.h, merge.h,
#       results_layout.h)
#   R4  the core includes no concrete plugin (nothing under plugins/, no plugin header)
#   R5  smfw_run_context carries no plugin registry
#   R6  plugins (and examples/, tests/fixtures/) read results through the accessors of
#       results.h, not the fields of smfw_results / smfw_record (opaque since ABI 2.0),
#       and count metrics with smfw_metric_count(), not SMFW_M_COUNT_
#   R7  every setting a plugin declares is read by that plugin (bound by smfw_settings_bind
#       or read by name): a declared setting nothing reads is a flag that does nothing
# The plugin ABI 2.0 issue removes the violations that exist today; until each of its
# steps lands they are listed in KNOWN below, exactly. A new violation fails, and so does
# a listed one that is gone (take it off the list, so the list only shrinks).
set -euo pipefail
cd "$(dirname "$0")/.."

# rule|file|what  (one line per violation that exists today; none since run sets, ABI 1.3)
KNOWN=''

found=$(mktemp)
trap 'rm -f "$found"' EXIT
aws_headers='aws|sigv4|cloudwatch|eventstream'
program_api='app|capacity|compare|merge|cloudwatch|results_layout'
# R6: members only smfw_results / smfw_record have (in every plugin), and the ones whose
# names other structs share too (extra, errors: checked in the reporters, where none do).
layout='(->|\.)(stats|values)\[|(->|\.)(records|n_records|records_cap|records_complete|internal_)\b'
layout+='|(->|\.)(input_config_json|smfw_json|extra_metrics_json|icl|icl_len)\b'
# the run info: a member of smfw_run_info after "info." (a dataset's info shares none), or &...->info
run_info='run_name|backend|target|endpoint_name|inference_component|url|region|model|endpoint_type'
run_info+='|streaming|dataset_[a-z0-9_]+|token_count_source|start_wall_ns|end_wall_ns|smfw_version'
run_info+='|aiperf_version|schema_version|benchmark_id|was_cancelled|concurrency|request_rate'
run_info+='|request_count_target|shard|max_error_rate|gate_tripped|failure_reason|job_name|source_dir'
layout+="|(->|\\.)info\\.($run_info)\\b|&[a-z_]+(->[a-z_]+)*->info\\b"
layout+='|(->|\.)(request_start_ns|request_end_ns|request_ack_ns|credit_issued_ns)\b'
layout+='|(->|\.)(cancellation_time_ns|intended_start_ns|x_request_id|x_correlation_id)\b'
layout+='|(->|\.)(session_num|worker_id|record_processor_id|http_status)\b'
# the number of metric ids a plugin was compiled with: plugins ask smfw_metric_count()
layout+='|\bSMFW_M_COUNT_\b'
layout_reporters='(->|\.)(extra|errors)\[|(->|\.)(n_extra|n_errors|error|info)\b'
# file|match for each use of a pattern ($1) in files ($2...), comment lines left out
layout_uses() {
    local pat=$1
    shift
    grep -HnE "$pat" "$@" 2>/dev/null | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*|//)' |
        while IFS= read -r hit; do
            f=${hit%%:*}
            line=${hit#*:}
            line=${line#*:}
            grep -oE "$pat" <<<"$line" | sed -E 's/^&.*(->info)$/\1/; s/(info)\..*/\1/' |
                sed "s/^/$(sed 's/[\/&|]/\\&/g' <<<"$f")|/"
        done
}
backends=$(for d in plugins/backend-*/; do basename "$d" | sed 's/^backend-//'; done)

# grep finds nothing where a rule holds: no errexit while collecting.
set +e +o pipefail
{
    # R1: AWS headers in src/
    grep -HnoE "#include <smfw/($aws_headers)\.h>" src/*.c src/*.h 2>/dev/null |
        sed -E 's|^([^:]+):[0-9]+:#include <(.*)>|R1\|\1\|\2|'
    # R2: a backend's name as a string literal in src/
    for b in $backends; do
        grep -lE "\"$b\"" src/*.c src/*.h 2>/dev/null | sed "s/^/R2|/; s/\$/|$b/"
    done
    # R3: the program API in plugins
    grep -rHnoE "#include <smfw/($program_api)\.h>" plugins examples tests/fixtures 2>/dev/null |
        sed -E 's|^([^:]+):[0-9]+:#include <(.*)>|R3\|\1\|\2|'
    # R4: plugin code or headers included by the core
    grep -rHnoE '#include "[^"]*plugins/[^"]*"' core 2>/dev/null |
        sed -E 's|^([^:]+):[0-9]+:#include "(.*)"|R4\|\1\|\2|'
    # R5: a registry member in the run context
    if awk '/^typedef struct smfw_run_context/,/} smfw_run_context;/' include/smfw/backend.h |
        grep -qE '\bregistry\b'; then echo 'R5|include/smfw/backend.h|registry'; fi
    # R6: results read by layout in plugins
    {
        layout_uses "$layout" $(find plugins examples tests/fixtures -name '*.[ch]' | sort)
        layout_uses "$layout_reporters" $(find plugins/reporter-* examples/reporter-* -name '*.[ch]' | sort)
    } | sed 's/^/R6|/'
    # R7: declared settings no source of the plugin names again
    python3 - plugins/*/ examples/*/ <<'PY'
import glob, re, sys
for d in sys.argv[1:]:
    text = {f: open(f).read() for f in sorted(glob.glob(d + "*.[ch]"))}
    for f, t in text.items():
        for arr in re.finditer(r"smfw_setting_decl\s+\w+\[\]\s*=\s*\{(.*?)SMFW_SETTINGS_END", t, re.S):
            for key in re.findall(r'\{\s*"([a-z0-9_]+)"\s*,', arr.group(1)):
                if sum(s.count(f'"{key}"') for s in text.values()) < 2:
                    print(f"R7|{f}|{key}")
PY
} | sort -u >"$found"
set -e -o pipefail

new=$(comm -23 "$found" <(echo "$KNOWN" | sort -u))
gone=$(comm -13 "$found" <(echo "$KNOWN" | sort -u))
status=0
if [ -n "$new" ]; then
    echo "architecture: new violations (see docs/architecture.md):"
    echo "$new" | sed 's/^/  /'
    status=1
fi
if [ -n "$gone" ]; then
    echo "architecture: fixed, take these off KNOWN in tools/check_architecture.sh:"
    echo "$gone" | sed 's/^/  /'
    status=1
fi
known=$(echo "$KNOWN" | grep -c . || true)
if [ "$status" = 0 ]; then
    echo "architecture: 7 passed, 0 failed (rules R1-R7; $known known violations)"
fi
exit "$status"
