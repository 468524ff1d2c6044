"""capture_lib.py - helpers of the Data Capture tests (imported, not a test itself).

download(url, bucket, dest): every object of a bucket of smfw-mock's S3, through boto3, into
  dest/KEY (the layout a user gets from `aws s3 sync`).
read(dir): the entries of a capture folder in the order smfw's capture dataset reads them:
  files by the time their path gives, lines in file order, then a stable sort by
  inferenceTime. Each entry: (inference_time_s, body_text, inference_id, line_object).
"""
import base64
import calendar
import json
import os
import re
import time

import boto3

NAME = re.compile(r"(\d{4})/(\d{2})/(\d{2})/(\d{2})/(\d{2})-(\d{2})-(\d{3})-[^/]+\.jsonl$")


def download(url, bucket, dest):
    s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1")
    keys = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for o in page.get("Contents", []):
            p = os.path.join(dest, o["Key"])
            os.makedirs(os.path.dirname(p), exist_ok=True)
            s3.download_file(bucket, o["Key"], p)
            keys.append(o["Key"])
    return keys


def body_of(part):
    if part["encoding"] == "BASE64":
        return base64.b64decode(part["data"]).decode()
    return part["data"]


def read(folder):
    files = []
    for root, _, names in os.walk(folder):
        for n in names:
            if n.endswith(".jsonl"):
                p = os.path.join(root, n)
                m = NAME.search(p)
                files.append(("".join(m.groups()) if m else "", p))
    files.sort()
    entries = []
    for _, p in files:
        for line in open(p):
            if not line.strip():
                continue
            o = json.loads(line)
            t = calendar.timegm(time.strptime(o["eventMetadata"]["inferenceTime"], "%Y-%m-%dT%H:%M:%SZ"))
            entries.append((t, body_of(o["captureData"]["endpointInput"]),
                            o["eventMetadata"].get("inferenceId"), o))
    entries.sort(key=lambda e: e[0])
    return entries
