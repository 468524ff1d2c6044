// `--tokenizer org/name[@revision]`: smfw downloads tokenizer.json and
// tokenizer_config.json from a local HTTP server that imitates the Hugging Face
// hub's resolve URLs (X-Repo-Commit, ETag, X-Linked-Etag behind a redirect, 401
// for a gated repo, 404), into the cache layout huggingface_hub uses
// (models--org--name/{blobs,refs,snapshots}), and reads it back offline.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const BUILD = process.env.SMFW_BUILD_DIR ?? "build";
const SRC = process.env.SMFW_SOURCE_DIR ?? path.resolve("..", "..");
const SMFW = path.join(BUILD, "smfw");
const TINY = fs.readFileSync(path.join(SRC, "tests/fuzz/corpus/tokenizer/tiny_bytelevel.json"));
const CONFIG = Buffer.from('{"tokenizer_class": "PreTrainedTokenizerFast"}');
const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const sha = (b) => crypto.createHash("sha256").update(b).digest("hex");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "smfw-hub-"));
const seen = [];
let server, endpoint;

before(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization ?? null });
    const m = req.url.match(/^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/);
    if (req.url.startsWith("/cdn/")) {
      res.writeHead(200, { ETag: '"cdn-etag-not-the-blob-name"' });
      return res.end(TINY);
    }
    if (!m) return res.writeHead(404).end();
    const [, repo, , file] = m;
    const body = file === "tokenizer.json" ? TINY : file === "tokenizer_config.json" ? CONFIG : null;
    if (repo === "smfw-test/gated" && req.headers.authorization !== "Bearer good-token")
      return res.writeHead(401).end("gated");
    if (repo === "smfw-test/missing" || !body) return res.writeHead(404).end("not found");
    if (repo === "smfw-test/lfs" && file === "tokenizer.json") {
      // the hub's large files: a redirect that carries the commit and the blob's etag
      res.writeHead(302, { Location: `${endpoint}/cdn/blob`, "X-Repo-Commit": COMMIT,
        "X-Linked-Etag": `"${sha(body)}"` });
      return res.end();
    }
    res.writeHead(200, { "X-Repo-Commit": COMMIT, ETag: `"${sha(body)}"` });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  server.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function smfw(spec, env, input = "abc\n") {
  return new Promise((resolve) => {
    const child = execFile(SMFW, ["tokenize", "--tokenizer", spec, "--ids"], {
      env: { PATH: process.env.PATH, HOME: scratch, HF_ENDPOINT: endpoint, ...env },
    }, (error, stdout, stderr) => resolve({ status: error ? error.code : 0, stdout, stderr }));
    child.stdin.end(input);
  });
}

test("downloads into the shared cache layout, sends HF_TOKEN, then works offline", async () => {
  const cache = path.join(scratch, "cache1");
  const r = await smfw("smfw-test/tiny", { HF_HUB_CACHE: cache, HF_TOKEN: "tok-1" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "[4]\n");
  const repo = path.join(cache, "models--smfw-test--tiny");
  assert.equal(fs.readFileSync(path.join(repo, "refs", "main"), "utf8"), COMMIT);
  const link = path.join(repo, "snapshots", COMMIT, "tokenizer.json");
  assert.equal(fs.readlinkSync(link), `../../blobs/${sha(TINY)}`);
  assert.deepEqual(fs.readFileSync(link), TINY);
  assert.deepEqual(fs.readFileSync(path.join(repo, "snapshots", COMMIT, "tokenizer_config.json")),
    CONFIG);
  assert.ok(seen.some((s) => s.url === "/smfw-test/tiny/resolve/main/tokenizer.json" &&
    s.auth === "Bearer tok-1"));
  assert.deepEqual(fs.readdirSync(path.join(repo, "blobs")).filter((f) => f.includes("incomplete")), []);
  // offline: the cache answers, the (closed) endpoint is never asked
  const n = seen.length;
  const off = await smfw("smfw-test/tiny", { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: "1",
    HF_ENDPOINT: "http://127.0.0.1:9" });
  assert.equal(off.status, 0, off.stderr);
  assert.equal(off.stdout, "[4]\n");
  assert.equal(seen.length, n);
  // a commit revision is found in the snapshots too
  const byCommit = await smfw(`smfw-test/tiny@${COMMIT}`, { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: "1" });
  assert.equal(byCommit.status, 0, byCommit.stderr);
  const other = await smfw("smfw-test/tiny@v2", { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: "1" });
  assert.notEqual(other.status, 0);
  assert.match(other.stderr, /HF_HUB_OFFLINE/);
});

test("HF_HOME/hub is the cache when HF_HUB_CACHE is unset", async () => {
  const home = path.join(scratch, "hfhome");
  const r = await smfw("smfw-test/tiny", { HF_HOME: home });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(fs.existsSync(path.join(home, "hub", "models--smfw-test--tiny", "refs", "main")));
});

test("a redirected large file is cached under its X-Linked-Etag", async () => {
  const cache = path.join(scratch, "cache2");
  const r = await smfw("smfw-test/lfs", { HF_HUB_CACHE: cache });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "[4]\n");
  assert.ok(fs.existsSync(path.join(cache, "models--smfw-test--lfs", "blobs", sha(TINY))));
});

test("gated without a token, missing repo, bad id: a sentence each", async () => {
  const cache = path.join(scratch, "cache3");
  const gated = await smfw("smfw-test/gated", { HF_HUB_CACHE: cache });
  assert.notEqual(gated.status, 0);
  assert.match(gated.stderr, /HF_TOKEN/);
  const ok = await smfw("smfw-test/gated", { HF_HUB_CACHE: cache, HF_TOKEN: "good-token" });
  assert.equal(ok.status, 0, ok.stderr);
  const missing = await smfw("smfw-test/missing", { HF_HUB_CACHE: cache });
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /404/);
  const bad = await smfw("org/na me/x", { HF_HUB_CACHE: cache });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /model id/);
});
