#!/usr/bin/env bash
# test_aws_retry_botocore.sh - smfw's retry classifier and adaptive rate limiter
# against botocore's own (the test Python's botocore 1.43), not against tables
# copied here: for every error code of botocore's standard-mode lists and of
# _retry.json, plus codes and statuses smfw must not retry, in the services
# smfw calls, standard mode must give the same verdict as botocore's
# StandardRetryConditions (and the same throttling/transient split as its
# ThrottlingErrorDetector), legacy mode the same as botocore's legacy checker
# built from _retry.json; connection errors and timeouts too. The CUBIC rate
# limiter of adaptive mode must follow botocore's ClientRateLimiter on the same
# fake clock, throttled or not, step by step.
set -euo pipefail
: "${SMFW_BUILD_DIR:?}" "${SMFW_PYTHON:?}"
PROBE="$SMFW_BUILD_DIR/tests/integration/aws_retry_probe"
[ -x "$PROBE" ] || { echo "FAIL: $PROBE is not built"; exit 1; }
"$SMFW_PYTHON" - "$PROBE" <<'PY'
import random, subprocess, sys
import botocore, botocore.session
from botocore import translate, retryhandler
from botocore.awsrequest import AWSResponse
from botocore.exceptions import ConnectionError as BotoConnectionError, ReadTimeoutError
from botocore.retries import adaptive, bucket, standard, throttling

probe = sys.argv[1]
print("botocore", botocore.__version__)
session = botocore.session.get_session()
loader = session.get_component("data_loader")
retry_data = loader.load_data("_retry")

# signing name (smfw's service key) -> botocore service and one operation smfw calls
SERVICES = {"sagemaker": ("sagemaker", "DescribeEndpoint"), "sts": ("sts", "GetCallerIdentity"),
            "s3": ("s3", "GetObject"), "monitoring": ("cloudwatch", "GetMetricData"),
            "iam": ("iam", "GetRole"),
            "application-autoscaling": ("application-autoscaling", "DescribeScalableTargets")}

codes = set(standard.ThrottledRetryableChecker._THROTTLED_ERROR_CODES)
codes |= set(standard.TransientRetryableChecker._TRANSIENT_ERROR_CODES)
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == "service_error_code": codes.add(v)
            walk(v)
walk(retry_data)
codes |= {"IDPCommunicationError", "ValidationException", "AccessDenied", "AccessDeniedException",
          "InternalError", "InternalFailure", "ServiceUnavailable", "ExpiredToken",
          "ResourceNotFound", "NoSuchKey", "ModelNotReadyException", "BadDigest", None}
statuses = [400, 403, 404, 409, 429, 500, 501, 502, 503, 504, 509]

def response(status, code):
    http = AWSResponse("https://example.amazonaws.com/", status, {}, None)
    parsed = {"Error": {"Code": code, "Message": "m"}, "ResponseMetadata": {}} if code else \
             {"ResponseMetadata": {}}
    return http, parsed

cases, expect = [], []
for svc, (boto_name, op) in SERVICES.items():
    model = session.get_service_model(boto_name)
    opm = model.operation_model(op)
    # smfw has no modeled "retryable" traits: none of these operations may declare one.
    assert not any(s.metadata.get("retryable") for s in opm.error_shapes), (boto_name, op)
    cond = standard.StandardRetryConditions(max_attempts=10)
    throttle = standard.ThrottlingErrorDetector(None)
    cfg = translate.build_retry_config(model.endpoint_prefix, retry_data["retry"],
                                       retry_data["definitions"])
    legacy = retryhandler.create_checker_from_retry_config(cfg, operation_name=model.endpoint_prefix)
    for failure in ("response", "connect", "timeout"):
        for status in (statuses if failure == "response" else [0]):
            for code in (sorted(codes, key=str) if failure == "response" else [None]):
                exc = None
                if failure == "connect":
                    exc = BotoConnectionError(error="refused")
                elif failure == "timeout":
                    exc = ReadTimeoutError(endpoint_url="https://example.amazonaws.com/")
                http, parsed = response(status, code) if failure == "response" else (None, None)
                ctx = standard.RetryContext(attempt_number=1, operation_model=opm,
                                            parsed_response=parsed, http_response=http,
                                            caught_exception=exc, request_context={})
                if cond.is_retryable(ctx):
                    want = "throttling" if throttle.is_throttling_error_from_context(ctx) else "transient"
                else:
                    want = "no"
                line = f"{svc} {failure} {status} {code or '-'}"
                cases.append("standard " + line); expect.append(want)
                cases.append("adaptive " + line); expect.append(want)
                r = (http, parsed) if http is not None else None
                try:
                    lw = legacy(attempt_number=1, response=r, caught_exception=exc, retries_context={})
                except Exception:
                    lw = False  # botocore re-raises what it does not retry
                cases.append("legacy " + line); expect.append("retry" if lw else "no")

out = subprocess.run([probe, "classify"], input="\n".join(cases) + "\n", capture_output=True,
                     text=True, check=True).stdout.splitlines()
assert len(out) == len(cases), (len(out), len(cases))
bad = []
for case, want, got_line in zip(cases, expect, out):
    got = got_line.rsplit(" -> ", 1)[1]
    if want == "retry":
        ok = got in ("transient", "throttling")
    else:
        ok = got == want
    if not ok:
        bad.append(f"{case}: botocore {want}, smfw {got}")
assert not bad, "\n".join(bad[:40]) + f"\n({len(bad)} differences)"
retried = sum(1 for w in expect if w != "no")
print(f"classifier: {len(cases)} cases equal botocore's ({retried} retried)")
assert retried > 100 and len(cases) - retried > 100  # both verdicts are exercised

# The adaptive rate limiter on a fake clock, against botocore's ClientRateLimiter.
class FakeClock:
    def __init__(self, t): self.t = t
    def current_time(self): return self.t
    def sleep(self, amount): self.t += amount
class Detector:
    def is_throttling_error(self, **kw): return kw["throttled"]
rng = random.Random(7)
for run in range(3):
    t0 = 1000.0 + run * 0.37
    clock = FakeClock(t0)
    limiter = adaptive.ClientRateLimiter(
        rate_adjustor=throttling.CubicCalculator(starting_max_rate=0, start_time=t0),
        rate_clocker=adaptive.RateClocker(clock),
        token_bucket=bucket.TokenBucket(max_rate=1, clock=clock),
        throttling_detector=Detector(), clock=clock)
    steps, want = [], []
    t = t0
    for i in range(300):
        t += rng.choice([0.01, 0.05, 0.1, 0.3, 0.6, 1.5])
        thr = 1 if rng.random() < (0.25 if run else 0.1) else 0
        clock.t = t
        limiter.on_receiving_response(throttled=bool(thr))
        steps.append(f"{t!r} {thr}")
        want.append((int(limiter._enabled), limiter._token_bucket.max_rate,
                     limiter._rate_clocker.measured_rate))
    got = subprocess.run([probe, "limiter"], input=f"{t0!r}\n" + "\n".join(steps) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(got) == len(want), (len(got), len(want))
    for i, (line, (en, rate, measured)) in enumerate(zip(got, want)):
        f = dict(kv.split("=") for kv in line.split())
        assert int(f["enabled"]) == en, (run, i, line, en)
        assert abs(float(f["rate"]) - rate) <= 1e-6 * max(1.0, abs(rate)), (run, i, line, rate)
        assert abs(float(f["measured"]) - measured) <= 1e-6 * max(1.0, measured), (run, i, line, measured)
    print(f"rate limiter run {run}: 300 steps equal botocore's (final rate {want[-1][1]:.3f}/s)")
print("PASS")
PY
