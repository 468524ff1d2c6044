"""sso_fake.py - the IAM Identity Center side of test_aws_sso.sh (moto has no SSO).

  sso_fake.py serve PORTFILE LOG   a fake SSO portal (GetRoleCredentials), SSO-OIDC
                                   (CreateToken, grant_type refresh_token) and STS
                                   (GetCallerIdentity of the credentials it issued) on
                                   127.0.0.1; CONNECT (a proxy request) is logged and
                                   refused. Every request is one JSON line in LOG.
  sso_fake.py boto PROFILE         botocore resolves PROFILE's credentials (the same
                                   config, cache and endpoints as smfw) and prints them
                                   in the format of `aws_call creds`; exit 1 with
                                   "error CLASS: MESSAGE" when botocore refuses.

The fake follows the service models (tests/data/awsmodels/sso, sso-oidc): errors carry
x-amzn-ErrorType; role credentials are derived from the token, role and account, so two
clients sending the same request get the same answer.
"""
import hashlib
import http.server
import json
import sys
import urllib.parse

ACCOUNT_HEADER = "x-amz-sso_bearer_token"
EXPIRATION_MS = 4102444800000  # 2100-01-01T00:00:00Z
CLIENT_ID = "client-id-EXAMPLE"
CLIENT_SECRET = "client-secret-EXAMPLE-1234"


def digest(*parts):
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def role_credentials(token, role, account):
    h = digest(token, role, account)
    return {
        "accessKeyId": "ASIA" + h[:16].upper(),
        "secretAccessKey": "sso-secret-" + h[16:48],
        "sessionToken": "sso-session-" + h[32:64],
        "expiration": EXPIRATION_MS,
    }


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_path = None

    def log_message(self, *args):
        pass

    def record(self, entry):
        with open(self.log_path, "a") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")

    def reply(self, status, body, error_type=None, ctype="application/json"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", "fake-" + digest(str(len(data)))[:8])
        if error_type:
            self.send_header("x-amzn-ErrorType", error_type)
        self.end_headers()
        self.wfile.write(data)

    def do_CONNECT(self):
        self.record({"method": "CONNECT", "target": self.path})
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        token = self.headers.get(ACCOUNT_HEADER)
        self.record({"method": "GET", "path": url.path, "query": url.query, "bearer": token,
                     "authorization": self.headers.get("Authorization")})
        if url.path != "/federation/credentials":
            return self.reply(404, {"message": "no such route"}, "ResourceNotFoundException")
        q = dict(urllib.parse.parse_qsl(url.query))
        if not token or not (token.startswith("valid-") or token.startswith("refreshed-")):
            return self.reply(401, {"message": "Session token not found or invalid"},
                              "UnauthorizedException")
        if "role_name" not in q or "account_id" not in q:
            return self.reply(400, {"message": "role_name and account_id are required"},
                              "InvalidRequestException")
        self.reply(200, {"roleCredentials": role_credentials(token, q["role_name"],
                                                             q["account_id"])})

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n).decode()
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/token":
            body = json.loads(raw) if raw else None
            self.record({"method": "POST", "path": url.path, "query": url.query, "body": body,
                         "content_type": self.headers.get("Content-Type"),
                         "authorization": self.headers.get("Authorization")})
            ok = (isinstance(body, dict) and body.get("grantType") == "refresh_token"
                  and body.get("clientId") == CLIENT_ID
                  and body.get("clientSecret") == CLIENT_SECRET
                  and str(body.get("refreshToken", "")).startswith("refresh-ok"))
            if not ok:
                return self.reply(400, {"error": "invalid_grant",
                                        "error_description": "Invalid refresh token provided"},
                                  "InvalidGrantException")
            rt = body["refreshToken"]
            return self.reply(200, {"accessToken": "refreshed-" + digest(rt)[:24],
                                    "tokenType": "Bearer", "expiresIn": 3600,
                                    "refreshToken": rt + "-next"})
        # STS GetCallerIdentity, answered only for credentials this fake issued.
        form = dict(urllib.parse.parse_qsl(raw))
        auth = self.headers.get("Authorization", "")
        akid = auth.split("Credential=")[1].split("/")[0] if "Credential=" in auth else ""
        self.record({"method": "POST", "path": url.path, "action": form.get("Action"),
                     "akid": akid})
        issued = getattr(self.server, "issued", {})
        if form.get("Action") != "GetCallerIdentity" or akid not in issued:
            return self.reply(403, "<ErrorResponse><Error><Code>InvalidClientTokenId</Code>"
                              "<Message>unknown key</Message></Error></ErrorResponse>",
                              ctype="text/xml")
        account, role = issued[akid]
        self.reply(200, "<GetCallerIdentityResponse><GetCallerIdentityResult>"
                   f"<Arn>arn:aws:sts::{account}:assumed-role/{role}/sso-user</Arn>"
                   f"<UserId>AROAFAKE:sso-user</UserId><Account>{account}</Account>"
                   "</GetCallerIdentityResult></GetCallerIdentityResponse>", ctype="text/xml")


class IssuingHandler(Handler):
    """Remembers the key ids it issued, so STS can recognise them."""

    def reply(self, status, body, error_type=None, ctype="application/json"):
        if isinstance(body, dict) and "roleCredentials" in body:
            q = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
            self.server.issued[body["roleCredentials"]["accessKeyId"]] = (q["account_id"],
                                                                         q["role_name"])
        super().reply(status, body, error_type, ctype)


def serve(portfile, log):
    Handler.log_path = log
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), IssuingHandler)
    srv.issued = {}
    with open(portfile + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.replace(portfile + ".tmp", portfile)
    srv.serve_forever()


def boto(profile):
    import botocore.session
    try:
        s = botocore.session.Session(profile=profile)
        creds = s.get_credentials()
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
    except Exception as e:  # the class and sentence are what the test compares
        print(f"error {type(e).__name__}: {e}")
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "boto":
        boto(sys.argv[2])
    else:
        sys.exit(f"unknown command {sys.argv[1]}")
