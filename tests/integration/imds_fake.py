"""imds_fake.py - EC2 instance metadata and the container credentials endpoint for
test_aws_imds.sh, and botocore resolving credentials against them.

  imds_fake.py serve PORTFILE LOG MODEFILE   serve on 127.0.0.1; each request reads the
                                             scenario from MODEFILE and is one JSON line
                                             in LOG (method, path, the IMDS headers and
                                             the Authorization header)
  imds_fake.py boto                          botocore's credential chain (the same
                                             environment) printed as `aws_call creds`
                                             prints it; exit 1 with "error CLASS: ..."

Scenarios (MODEFILE's first word; a change of the file's text starts from a fresh state):
  v2         PUT /latest/api/token gives a token (400 without the TTL header); GETs need it
  put403 put404 put405 put500 put400
             the token PUT answers that status; GETs without a token are served (IMDSv1)
  puthang    the token PUT answers after 2.5 s (a hop limit of 1 drops the answer in a
             container; the client times out first); IMDSv1 GETs are served
  v1off      the token PUT answers 403 and GETs without a token 401
  norole     v2, but the instance has no role (404 on the role list)
  expire     v2; the first token stops working after one GET (401), a second PUT gives
             a new one (botocore fetches one per refresh, so only smfw is run on it)
  ecs        /creds needs Authorization: container-auth-token
  ecs500     like ecs, the first request answers 500
  ecs401     /creds answers 401 to everything
  hang       every request is answered after 2.5 s (an address where nothing answers in time)
  localzone  v2, the instance in us-west-2's Los Angeles Local Zone (us-west-2-lax-1a)
The instance is in eu-west-1, zone eu-west-1b (/latest/meta-data/placement/...).
  imds_fake.py region                        botocore's session region and its IMDS region
                                             provider's answer (the same environment)
"""
import hashlib
import http.server
import json
import sys
import threading
import time

ROLE = "BenchRole"
lock = threading.Lock()
state = {"tokens": 0, "valid": set(), "uses": {}, "ecs": 0, "mode": None}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_path = mode_path = None

    def log_message(self, *args):
        pass

    def reply(self, status, body=""):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_one(self):
        text = open(self.mode_path).read()
        mode = text.split()[0]
        with lock:
            if text != state["mode"]:  # a new scenario (or run) starts from nothing
                state.update({"valid": set(), "uses": {}, "ecs": 0, "mode": text, "expired": False})
        ttl = self.headers.get("x-aws-ec2-metadata-token-ttl-seconds")
        tok = self.headers.get("x-aws-ec2-metadata-token")
        with open(self.log_path, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path, "ttl": ttl,
                                "token": tok, "authorization": self.headers.get("Authorization")},
                               sort_keys=True) + "\n")
        if mode.startswith("ecs"):
            with lock:
                state["ecs"] += 1
                n = state["ecs"]
            if mode == "ecs401" or (mode == "ecs500" and n == 1):
                return self.reply(401 if mode == "ecs401" else 500, "no")
            if self.headers.get("Authorization") != "container-auth-token":
                return self.reply(401, "bad authorization")
            return self.reply(200, json.dumps({
                "AccessKeyId": "AKIDECS", "SecretAccessKey": "ecssecret", "Token": "ecstoken",
                "Expiration": "2099-01-01T00:00:00Z", "AccountId": "123456789012"}))
        if mode == "hang":
            time.sleep(2.5)
        if self.command == "PUT" and self.path == "/latest/api/token":
            if mode.startswith("put") and mode != "puthang":
                return self.reply(int(mode[3:]), "no token")
            if mode == "v1off":
                return self.reply(403, "no token")
            if mode == "puthang":
                time.sleep(2.5)
            if ttl is None:
                return self.reply(400, "missing ttl")
            with lock:
                state["tokens"] += 1
                t = "imds-token-%d" % state["tokens"]
                state["valid"].add(t)
            return self.reply(200, t)
        if self.command != "GET":
            return self.reply(405, "")
        if tok is None and mode in ("v2", "norole", "expire", "v1off"):
            return self.reply(401, "")
        if tok is not None:
            with lock:
                ok = tok in state["valid"]
                state["uses"][tok] = state["uses"].get(tok, 0) + 1
                if mode == "expire" and ok and not state.get("expired"):
                    state["valid"].discard(tok)  # works for this GET only
                    state["expired"] = True
            if not ok:
                return self.reply(401, "")
        lz = mode == "localzone"  # an instance in the Los Angeles Local Zone of us-west-2
        if self.path == "/latest/meta-data/placement/region":
            return self.reply(200, "us-west-2" if lz else "eu-west-1")
        if self.path.rstrip("/") == "/latest/meta-data/placement/availability-zone":
            return self.reply(200, "us-west-2-lax-1a" if lz else "eu-west-1b")
        base = "/latest/meta-data/iam/security-credentials/"
        if self.path == base:
            return self.reply(404, "") if mode == "norole" else self.reply(200, ROLE)
        if self.path == base + ROLE:
            return self.reply(200, json.dumps({
                "Code": "Success", "LastUpdated": "2026-01-01T00:00:00Z", "Type": "AWS-HMAC",
                "AccessKeyId": "AKIDIMDS", "SecretAccessKey": "imdssecret",
                "Token": "imdstoken", "Expiration": "2099-01-01T00:00:00Z"}))
        return self.reply(404, "")

    do_GET = do_PUT = handle_one


def serve(portfile, log, modefile):
    Handler.log_path, Handler.mode_path = log, modefile
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


def region():
    """botocore's two answers: the session's region (botocore never takes it from instance
    metadata: None) and its IMDSRegionProvider's (the zone minus its last letter, used only
    for defaults_mode=auto)."""
    import botocore.session
    import botocore.utils
    s = botocore.session.Session()
    print(s.get_config_variable("region"), botocore.utils.IMDSRegionProvider(s).provide())


def boto():
    import botocore.session
    try:
        creds = botocore.session.Session().get_credentials()
        if creds is None:
            raise RuntimeError("no credentials")
        f = creds.get_frozen_credentials()
        exp = getattr(creds, "_expiry_time", None)
        print("provider", creds.method)
        print("access_key_id", f.access_key)
        print("secret_sha256", hashlib.sha256(f.secret_key.encode()).hexdigest())
        print("token_sha256", hashlib.sha256(f.token.encode()).hexdigest() if f.token else "none")
        print("expiration", exp.strftime("%Y-%m-%dT%H:%M:%SZ") if exp else "none")
        print("account", getattr(f, "account_id", None) or "none")
    except Exception as e:  # the test compares only that botocore refused
        print(f"error {type(e).__name__}: {e}")
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:5])
    elif sys.argv[1] == "boto":
        boto()
    elif sys.argv[1] == "region":
        region()
    else:
        sys.exit(f"unknown command {sys.argv[1]}")
