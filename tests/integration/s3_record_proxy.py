#!/usr/bin/env python3
"""s3_record_proxy.py - a small HTTP proxy in front of moto_server for the S3
multipart test: it records every request (method, path, query, the checksum
headers, a body digest, and a CompleteMultipartUpload body) as one JSON line,
and can inject faults so the client's failure handling can be checked.

    s3_record_proxy.py UPSTREAM_URL LOG PORT_FILE

The fault rules are read from $work-style file FAULTS (path in the
S3_PROXY_FAULTS environment variable, re-read on every request), one per line:
    part N 500        answer every UploadPart partNumber=N with a 500 InternalError
    complete200 K     answer the first K CompleteMultipartUpload calls with a 200
                      whose body is an <Error> (K = all: every one)
    slow N S          hold UploadPart partNumber=N S seconds before passing it on
    region R          the bucket lives in region R: a request signed for another
                      region gets what S3 answers then (400 AuthorizationHeaderMalformed
                      naming R; HEAD: a bodyless 400), with x-amz-bucket-region: R
    moved R           the same with S3's 301 PermanentRedirect
"""
import hashlib
import http.client
import http.server
import json
import re
import os
import sys
import threading
import time
import urllib.parse

upstream = urllib.parse.urlsplit(sys.argv[1])
log_path, port_file = sys.argv[2], sys.argv[3]
lock = threading.Lock()
complete_seen = [0]

ERROR_XML = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>'
             b'<Message>We encountered an internal error. Please try again.</Message>'
             b'<RequestId>PROXYFAULT</RequestId></Error>')


def signed_region(headers):
    m = re.search(r"Credential=[^/]+/\d{8}/([^/]+)/", headers.get("Authorization") or "")
    return m.group(1) if m else None


def faults():
    path = os.environ.get("S3_PROXY_FAULTS")
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.split() for line in f if line.strip()]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def _record(self, body, injected):
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
        rec = {
            "method": self.command, "path": urllib.parse.unquote(u.path),
            "query": sorted(q.keys()),
            "partNumber": q.get("partNumber", [None])[0],
            "headers": {k.lower(): v for k, v in self.headers.items()
                        if k.lower().startswith("x-amz-checksum")
                        or k.lower() in ("x-amz-sdk-checksum-algorithm", "content-encoding",
                                         "x-amz-trailer", "content-type")},
            "region": signed_region(self.headers),
            "length": len(body), "sha256": hashlib.sha256(body).hexdigest(),
            "injected": injected,
        }
        if self.command == "POST" and "uploadId" in q:
            rec["body"] = body.decode("utf-8", "replace")
        with lock, open(log_path, "a") as f:
            f.write(json.dumps(rec) + "\n")

    def _fault(self):
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
        for rule in faults():
            if rule[0] == "part" and self.command == "PUT" and q.get("partNumber") == [rule[1]]:
                return int(rule[2]), ERROR_XML, None
            if rule[0] == "complete200" and self.command == "POST" and "uploadId" in q:
                with lock:
                    complete_seen[0] += 1
                    n = complete_seen[0]
                if rule[1] == "all" or n <= int(rule[1]):
                    return 200, ERROR_XML, None
            if rule[0] in ("region", "moved") and signed_region(self.headers) != rule[1]:
                if self.command == "HEAD":
                    return (400 if rule[0] == "region" else 301), b"", rule[1]
                if rule[0] == "region":
                    return 400, (b"<Error><Code>AuthorizationHeaderMalformed</Code><Message>The "
                                 b"authorization header is malformed; the region is wrong; "
                                 b"expecting '" + rule[1].encode() + b"'</Message><Region>" +
                                 rule[1].encode() + b"</Region><RequestId>PROXYREGION"
                                 b"</RequestId></Error>"), rule[1]
                return 301, (b"<Error><Code>PermanentRedirect</Code><Message>The bucket you are "
                             b"attempting to access must be addressed using the specified "
                             b"endpoint.</Message><Endpoint>s3." + rule[1].encode() +
                             b".amazonaws.com</Endpoint><RequestId>PROXYMOVED</RequestId>"
                             b"</Error>"), rule[1]
        return None

    def _handle(self):
        body = self._body()
        u = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        for rule in faults():
            if rule[0] == "slow" and self.command == "PUT" and u.get("partNumber") == [rule[1]]:
                self._record(body, False)
                time.sleep(float(rule[2]))
                body_recorded = True
                break
        else:
            body_recorded = False
        fault = self._fault()
        if not body_recorded:
            self._record(body, fault is not None)
        if fault:
            status, payload, bucket_region = fault
            self.send_response(status)
            if bucket_region:
                self.send_header("x-amz-bucket-region", bucket_region)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)
            return
        conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() not in ("connection", "transfer-encoding", "expect")}
        headers["Content-Length"] = str(len(body))
        conn.request(self.command, self.path, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() not in ("connection", "transfer-encoding", "content-length", "server",
                                 "date"):
                self.send_header(k, v)
        # HEAD: the object's length as moto gave it; else the body's.
        length = r.getheader("Content-Length") if self.command == "HEAD" else None
        self.send_header("Content-Length", length or str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        conn.close()

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _handle


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(port_file + ".tmp", port_file)
srv.serve_forever()
