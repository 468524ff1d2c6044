#!/usr/bin/env python3
"""json_record_proxy.py - a small HTTP proxy in front of moto_server for the
awsJson tests: every request it passes on is recorded as one JSON line
{"target": X-Amz-Target, "body": the parsed request body, "status": moto's
answer}, so a test can check what smfw sent against botocore's model.

    json_record_proxy.py UPSTREAM_URL LOG PORT_FILE
"""
import http.client
import http.server
import json
import os
import sys
import threading
import urllib.parse

upstream = urllib.parse.urlsplit(sys.argv[1])
log_path, port_file = sys.argv[2], sys.argv[3]
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _handle(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() not in ("connection", "transfer-encoding", "expect")}
        headers["Content-Length"] = str(len(body))
        conn.request(self.command, self.path, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = {"unparsed": body.decode("utf-8", "replace")}
        with lock, open(log_path, "a") as f:
            f.write(json.dumps({"target": self.headers.get("X-Amz-Target"), "body": parsed,
                                "status": r.status}) + "\n")
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() not in ("connection", "transfer-encoding", "content-length", "server",
                                 "date"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
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
