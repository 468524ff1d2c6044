#!/usr/bin/env bash
# test_mock_unhosted_component.sh - an inference component the endpoint does
# not host is refused with 400 ValidationError, as SageMaker Runtime does:
#  - through botocore 1.43 (an independent client) on a standalone mock, both
#    operations, on an endpoint without components and on one with others;
#  - through `smfw run --endpoint mock --inference-component nosuch`, whose
#    private mock hosts only the components it is given (--mock-arg): every
#    request is a `validation` error and the run fails its gate (exit 3),
#    while a component the mock was given is served.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_TESTDATA_DIR:?}" "${SMFW_PYTHON:?}"
SMFW="$SMFW_BUILD_DIR/smfw"
MOCK="$SMFW_BUILD_DIR/tools/mock/smfw-mock"
for b in "$SMFW" "$MOCK"; do [ -x "$b" ] || { echo "FAIL: $b is not built"; exit 1; }; done
export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL
export SMFW_PLUGIN_PATH=
work=$(mktemp -d "${TMPDIR:-/tmp}/smfw-mock-ic.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# ---- botocore against a standalone mock ------------------------------------------------
"$MOCK" --listen 127.0.0.1:0 --endpoint plain --endpoint hosted --inference-component ic-1 \
    --ttft-ms 1 --itl-ms 0 --output-tokens 2 >"$work/mock.out" 2>"$work/mock.err" &
pid=$!
for _ in $(seq 100); do [ -s "$work/mock.out" ] && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$work/mock.out")
[ -n "$URL" ] || { cat "$work/mock.err"; fail "smfw-mock did not start"; }

AWS_DATA_PATH="$SMFW_TESTDATA_DIR/awsmodels" "$SMFW_PYTHON" - "$URL" <<'PY'
import json, sys
import boto3, botocore
from botocore.config import Config
url = sys.argv[1]
rt = boto3.client("sagemaker-runtime", region_name="us-east-1", endpoint_url=url,
                  aws_access_key_id="AKIDSMFWMOCKEXAMPLE",
                  aws_secret_access_key="smfw-mock-secret-key-EXAMPLEKEY",
                  config=Config(retries={"max_attempts": 1}))
body = json.dumps({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 2})

def refused(pattern, **kw):
    for op in (rt.invoke_endpoint, rt.invoke_endpoint_with_response_stream):
        try:
            op(Body=body, ContentType="application/json", **kw)
        except botocore.exceptions.ClientError as e:
            err, meta = e.response["Error"], e.response["ResponseMetadata"]
            assert err["Code"] == "ValidationError", e.response
            assert meta["HTTPStatusCode"] == 400, e.response
            assert pattern in err["Message"], err
            assert isinstance(e, rt.exceptions.ValidationError), type(e)
        else:
            raise AssertionError(f"{op.__name__} {kw} was served")

refused("Inference Component Name header is not allowed for endpoints to which you dont plan "
        "to deploy inference components.", EndpointName="plain", InferenceComponentName="nosuch")
refused("Inference Component nosuch not found.", EndpointName="hosted",
        InferenceComponentName="nosuch")
refused("Inference Component Name header is required", EndpointName="hosted")
out = rt.invoke_endpoint(EndpointName="hosted", InferenceComponentName="ic-1", Body=body,
                         ContentType="application/json")
assert json.loads(out["Body"].read())["usage"]["completion_tokens"] == 2
print("botocore: refusals OK")
PY
kill "$pid"
wait "$pid" 2>/dev/null || true
pid=

# ---- smfw run --endpoint mock --inference-component nosuch ------------------------------
fast=(--mock-arg=--ttft-ms=1 --mock-arg=--itl-ms=0 --mock-arg=--output-tokens=2
    --request-count 4 --concurrency 1 --report json)
set +e
"$SMFW" run --endpoint mock --inference-component nosuch "${fast[@]}" -o "$work/nosuch" \
    >"$work/nosuch.out" 2>"$work/nosuch.err"
rc=$?
set -e
[ "$rc" -eq 3 ] || { cat "$work/nosuch.err"; fail "an unhosted component: exit $rc, expected 3 (gate)"; }
"$SMFW_PYTHON" - "$work/nosuch/profile_export.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(recs) == 4, len(recs)
for r in recs:
    e, s = r.get("error"), r["smfw"]
    assert e and e["code"] == 400 and e["type"] == "ValidationError", r
    assert e["message"].startswith("Inference Component Name header is not allowed"), e
    assert s["error_class"] == "validation" and s["http_status"] == 400, s
print("smfw run: 4 validation errors")
PY

# A component the private mock was given is served.
"$SMFW" run --endpoint mock --inference-component ic-1 --mock-arg=--inference-component=ic-1 \
    "${fast[@]}" -o "$work/hosted" >"$work/hosted.out" 2>"$work/hosted.err" ||
    { cat "$work/hosted.err"; fail "a hosted component was not served"; }
"$SMFW_PYTHON" - "$work/hosted/profile_export.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(recs) == 4 and not any(r.get("error") for r in recs), recs
print("smfw run: hosted component served")
PY
echo "PASS"
