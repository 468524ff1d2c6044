"""boto3_stream_client.py - the Python reference streaming client for
bench/direct_vs_wrk_js.sh: boto3 (this image's botocore 1.43, as users run it) calling
InvokeEndpointWithResponseStream with N requests kept in flight by N threads (boto3's
documented way to run calls concurrently: one client shared, its connection pool sized to
N), reading every PayloadPart. Prints one JSON line.

    python3 boto3_stream_client.py URL ENDPOINT CONCURRENCY REQUESTS
"""
import json
import sys
import threading
import time

import boto3
import botocore.config

url, endpoint, conc, total = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
client = boto3.client(
    "sagemaker-runtime", endpoint_url=url, region_name="us-east-1",
    config=botocore.config.Config(max_pool_connections=conc, retries={"max_attempts": 1}))
body = json.dumps({"messages": [{"role": "user", "content": "Say something about benchmarks."}],
                   "stream": True, "max_completion_tokens": 8})
lock = threading.Lock()
state = {"next": 0, "done": 0, "errors": 0, "parts": 0}


def worker():
    while True:
        with lock:
            if state["next"] >= total:
                return
            state["next"] += 1
        try:
            r = client.invoke_endpoint_with_response_stream(
                EndpointName=endpoint, Body=body, ContentType="application/json")
            parts = sum(1 for e in r["Body"] if "PayloadPart" in e)
            with lock:
                state["done"] += 1
                state["parts"] += parts
        except Exception:  # counted, as the JS client counts them
            with lock:
                state["errors"] += 1


t0 = time.monotonic()
threads = [threading.Thread(target=worker) for _ in range(conc)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"requests": state["done"], "errors": state["errors"], "parts": state["parts"],
                  "seconds": time.monotonic() - t0}))
