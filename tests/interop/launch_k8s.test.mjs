// `smfw launch kubernetes`: the generated manifest validates against the Kubernetes OpenAPI
// schema of batch/v1 Job (vendored in tests/data/kubernetes/, Kubernetes v1.27.1; see its
// README) with ajv, unknown fields refused as `kubectl apply --validate=strict` does; then the
// Indexed-Job properties the schema cannot express, and the index-to-shard mapping: each
// pod's args, run by the real smfw with JOB_COMPLETION_INDEX = 0, 1, 2, run shards 1/3..3/3.
// `kubectl apply` itself cannot be tested here: there is no cluster.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Ajv from "ajv";

const BUILD = process.env.SMFW_BUILD_DIR ?? "../../build";
const SMFW = path.join(BUILD, "smfw");
const DATA = process.env.SMFW_TESTDATA_DIR ?? "../data";
const schema = JSON.parse(readFileSync(path.join(DATA, "kubernetes", "batch-v1-job.schema.json")));

// The API server refuses unknown fields (strict field validation): so does this copy.
function strict(s) {
  if (Array.isArray(s)) return s.map(strict);
  if (s && typeof s === "object") {
    const o = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, strict(v)]));
    if (o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
    return o;
  }
  return s;
}

function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const int = (bits) => ({
    type: "number",
    validate: (x) => Number.isInteger(x) && x >= -(2 ** (bits - 1)) && x < 2 ** (bits - 1),
  });
  ajv.addFormat("int32", int(32));
  ajv.addFormat("int64", int(64));
  // resource.Quantity's serialised form (k8s.io/apimachinery/pkg/api/resource)
  ajv.addFormat("quantity", /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE])?$/);
  for (const f of ["double", "byte", "date-time", "int-or-string"]) ajv.addFormat(f, true);
  return ajv.compile(strict(schema));
}

function launch(extra) {
  const out = execFileSync(SMFW, ["launch", "kubernetes", ...extra], { encoding: "utf8" });
  return JSON.parse(out);
}

const dir = mkdtempSync(path.join(tmpdir(), "smfw-launch-k8s-"));
const runOpts = ["--endpoint", "mock", "--request-count", "6", "--concurrency", "1", "-q",
  "--random-seed", "5"];
const job = launch([...runOpts, "--shards", "3", "--start-at", "+1s", "--name", "smfw-k8s-test",
  "--image", "registry.example/smfw:0.1.0", "--api-key-secret", "smfw-openai",
  "--service-account", "smfw-bench", "--namespace", "bench", "--cpus", "3", "--memory", "1Gi",
  "-o", path.join(dir, "out")]);

test("the manifest validates against the batch/v1 Job schema (Kubernetes v1.27.1)", () => {
  const validate = validator();
  assert.ok(validate(job), JSON.stringify(validate.errors, null, 1));
  // The strict schema has teeth: a misspelt field and a bad enum value are refused.
  const typo = structuredClone(job);
  typo.spec.completionsMode = "Indexed";
  assert.equal(validate(typo), false);
  const bad = structuredClone(job);
  bad.spec.completionMode = "Indexd";
  assert.equal(validate(bad), false);
  const noTemplate = structuredClone(job);
  delete noTemplate.spec.template;
  assert.equal(validate(noTemplate), false);
});

test("Indexed-Job properties the schema cannot express", () => {
  const spec = job.spec, pod = spec.template.spec, c = pod.containers[0];
  assert.equal(job.apiVersion, "batch/v1");
  assert.equal(job.kind, "Job");
  assert.equal(job.metadata.namespace, "bench");
  assert.equal(spec.completionMode, "Indexed");
  assert.equal(spec.completions, 3);
  assert.equal(spec.parallelism, 3, "all shards at once");
  assert.equal(spec.backoffLimit, 0, "a retried shard would start after --start-at");
  assert.equal(pod.restartPolicy, "Never");
  assert.equal(pod.serviceAccountName, "smfw-bench");
  assert.equal(pod.volumes, undefined, "no shared volume");
  assert.equal(c.volumeMounts, undefined);
  assert.deepEqual(c.resources.requests, { cpu: "3", memory: "1024Mi" });
  // one shard per node: required anti-affinity on the hostname against the job's own pods
  const term = pod.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0];
  assert.equal(term.topologyKey, "kubernetes.io/hostname");
  for (const [k, v] of Object.entries(term.labelSelector.matchLabels))
    assert.equal(spec.template.metadata.labels[k], v, `pod label ${k}`);
  // the key comes from a Secret, never inline
  assert.deepEqual(c.env, [{ name: "OPENAI_API_KEY",
    valueFrom: { secretKeyRef: { name: "smfw-openai", key: "OPENAI_API_KEY" } } }]);
  assert.equal(c.command, undefined, "the image's entrypoint (smfw) runs the args");
  assert.deepEqual(c.args.slice(0, 1 + runOpts.length), ["run", ...runOpts]);
  const at = c.args[c.args.indexOf("--start-at") + 1];
  assert.match(at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, "one absolute moment for all pods");
});

test("secrets are refused on the command line", () => {
  assert.throws(() => execFileSync(SMFW, ["launch", "kubernetes", "--api-key", "sk-123",
    "--shards", "2"], { stdio: "pipe" }), /api-key/);
});

test("JOB_COMPLETION_INDEX i runs shard i+1 of 3", () => {
  const args = job.spec.template.spec.containers[0].args;
  const seen = [];
  for (const index of [0, 1, 2]) {
    execFileSync(SMFW, args, { env: { ...process.env, JOB_COMPLETION_INDEX: String(index) },
      stdio: "pipe" });
    const moved = path.join(dir, `pod-${index}`);
    renameSync(path.join(dir, "out"), moved); // each pod has its own file system
    const info = JSON.parse(readFileSync(path.join(moved, "profile_export_aiperf.json"))).smfw;
    seen.push(info.shard);
    const sessions = readFileSync(path.join(moved, "profile_export.jsonl"), "utf8").trim()
      .split("\n").map((l) => JSON.parse(l).metadata.session_num);
    assert.ok(sessions.every((n) => n % 3 === index), `pod ${index}: ${sessions}`);
  }
  assert.deepEqual(seen, ["1/3", "2/3", "3/3"]);
  rmSync(dir, { recursive: true, force: true });
});
