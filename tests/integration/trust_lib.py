"""trust_lib.py - helpers for the hostile-input tests (test_trust_*.sh): run
smfw and measure the child's max RSS, list a tree with checksums, build
tarballs with tarfile, and serve fake S3/SageMaker answers on loopback."""
import hashlib
import io
import json
import os
import resource
import subprocess
import sys
import tarfile


def run(argv, timeout=120, env=None, cwd=None, stdin=None):
    """(rc, output, max RSS in MiB of this one child, from wait4). The kernel counts the
    forking process's RSS at exec in the child's maximum: keep big data out of this one."""
    import tempfile
    import time
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                             stdin=subprocess.DEVNULL if stdin is None else stdin)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, ru = os.wait4(p.pid, 0)
                out.seek(0)
                fail(f"{argv} still running after {timeout} s:\n" + out.read().decode("utf-8", "replace"))
            time.sleep(0.02)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return p.returncode, out.read().decode("utf-8", "replace"), ru.ru_maxrss / 1024.0


def rss_bound(mib):
    """mib, or three times it in a sanitizer build (ASan's shadow memory and quarantine)."""
    cache = os.path.join(os.environ.get("SMFW_BUILD_DIR", ""), "CMakeCache.txt")
    try:
        sanitized = "SMFW_SANITIZE:BOOL=ON" in open(cache).read()
    except OSError:
        sanitized = False
    return mib * 3 if sanitized else mib


def tree(root):
    """{relative path: sha256 or link target or 'dir'} of everything under root."""
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            elif os.path.isdir(p):
                out[rel] = "dir"
            else:
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


def tarball(path, members):
    """members: list of (name, bytes) or (name, TarInfo-tweak callable, bytes)."""
    with tarfile.open(path, "w:gz") as t:
        for m in members:
            name, data = m[0], m[-1]
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mode = 0o644
            if len(m) == 3:
                m[1](ti)
            t.addfile(ti, io.BytesIO(data) if ti.isreg() else None)


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class FakeAws:
    """A loopback HTTP server playing SageMaker (JSON, X-Amz-Target) and S3
    (path-style GET/HEAD/list). json_ops: {"ListAIBenchmarkJobs": dict or
    callable(body)->dict}; objects: {"/bucket/key": bytes}; s3_get: optional
    callable(handler, path) that answers a GET itself (slow, huge, ...)."""

    def __init__(self, json_ops=None, objects=None, s3_get=None, s3_list=None):
        import http.server
        import threading
        fake = self
        self.json_ops = json_ops or {}
        self.objects = objects or {}
        self.s3_get = s3_get
        self.s3_list = s3_list
        self.requests = []

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def handle(self):
                try:
                    super().handle()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def send(self, code, body, ctype="application/x-amz-json-1.1", extra=None):
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"{}")
                op = (self.headers.get("X-Amz-Target") or "").split(".")[-1]
                fake.requests.append((op, body))
                h = fake.json_ops.get(op)
                if h is None:
                    self.send(400, json.dumps({"__type": "ValidationException",
                                               "message": "no " + op}).encode())
                    return
                ans = h(body) if callable(h) else h
                if hasattr(ans, "__next__"):
                    # Streamed (no Content-Length): the test process stays small, and the
                    # child's max RSS (which counts this process's at exec) stays honest.
                    self.send_response(200)
                    self.send_header("Content-Type", "application/x-amz-json-1.1")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.close_connection = True
                    try:
                        for chunk in ans:
                            self.wfile.write(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    return
                self.send(200, json.dumps(ans).encode())

            def do_GET(self):
                path, _, query = self.path.partition("?")
                fake.requests.append((self.command, self.path))  # GET or HEAD
                if "list-type=2" in query:
                    if fake.s3_list:
                        self.send(200, fake.s3_list(self, query).encode(), "application/xml")
                        return
                    import urllib.parse
                    bucket = path.strip("/").split("/")[0]
                    prefix = urllib.parse.parse_qs(query).get("prefix", [""])[0]
                    keys = [k for k in fake.objects if k.startswith("/" + bucket + "/" + prefix)]
                    xml = "<ListBucketResult><IsTruncated>false</IsTruncated>"
                    for k in keys:
                        xml += (f"<Contents><Key>{k.split('/', 2)[2]}</Key><Size>{len(fake.objects[k])}"
                                "</Size><ETag>\"e\"</ETag><LastModified>2026-01-01T00:00:00.000Z"
                                "</LastModified></Contents>")
                    self.send(200, (xml + "</ListBucketResult>").encode(), "application/xml")
                    return
                if fake.s3_get and fake.s3_get(self, path):
                    return
                import urllib.parse
                data = fake.objects.get(urllib.parse.unquote(path))
                if data is None:
                    self.send(404, b"<Error><Code>NoSuchKey</Code></Error>", "application/xml")
                    return
                etag = '"' + hashlib.md5(data).hexdigest() + '"'
                self.send(200, data, "application/octet-stream", {"ETag": etag})

            do_HEAD = do_GET

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def env(self, home):
        e = dict(os.environ)
        for k in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN"):
            e.pop(k, None)
        e.update(HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"), AWS_REGION="us-east-1",
                 AWS_EC2_METADATA_DISABLED="true", AWS_CONFIG_FILE="/dev/null",
                 AWS_SHARED_CREDENTIALS_FILE="/dev/null", AWS_ENDPOINT_URL=self.url,
                 AWS_ACCESS_KEY_ID="AKIDTEST", AWS_SECRET_ACCESS_KEY="secret", NO_PROXY="*")
        return e

    def close(self):
        self.server.shutdown()


def aiperf_summary(request_count=10, errors=0, extra=None):
    j = {"request_count": {"unit": "requests", "avg": request_count},
         "error_request_count": {"unit": "requests", "avg": errors},
         "request_throughput": {"unit": "requests/sec", "avg": 1.0},
         "time_to_first_token": {"unit": "ms", "avg": 10.0, "p50": 10.0, "p90": 11.0, "p99": 12.0}}
    j.update(extra or {})
    return json.dumps(j).encode()
