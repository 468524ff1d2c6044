// smfw-mock's S3, STS, CloudWatch and SageMaker control plane, driven by the real
// AWS SDK for JavaScript v3: path-style S3 round trips with pagination and ranges,
// GetCallerIdentity, GetMetricData over the invocations just made, and the
// workload-config / benchmark-job state machine with its validation errors.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { gunzipSync } from "node:zlib";
import { SignatureV4 } from "@smithy/signature-v4";
import { Sha256 } from "@aws-crypto/sha256-js";
import {
  S3Client, CreateBucketCommand, HeadBucketCommand, PutObjectCommand, GetObjectCommand,
  HeadObjectCommand, ListObjectsV2Command,
} from "@aws-sdk/client-s3";
import { STSClient, GetCallerIdentityCommand } from "@aws-sdk/client-sts";
import { CloudWatchClient, GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { SageMakerRuntimeClient, InvokeEndpointCommand } from "@aws-sdk/client-sagemaker-runtime";
import {
  SageMakerClient, DescribeEndpointCommand, DescribeInferenceComponentCommand,
  CreateAIWorkloadConfigCommand, DescribeAIWorkloadConfigCommand, ListAIWorkloadConfigsCommand,
  DeleteAIWorkloadConfigCommand, CreateAIBenchmarkJobCommand, DescribeAIBenchmarkJobCommand,
  ListAIBenchmarkJobsCommand, StopAIBenchmarkJobCommand, DeleteAIBenchmarkJobCommand,
} from "@aws-sdk/client-sagemaker";

const MOCK = path.join(process.env.SMFW_BUILD_DIR ?? "build", "tools", "mock", "smfw-mock");
const KEY = { accessKeyId: "AKIDSERVICESTEST", secretAccessKey: "services-test-secret-0123456789" };
const REGION = "us-west-2";
const ACCOUNT = "444455556666";

let mock, dir;
const clients = [];
const make = (Cls, extra = {}) => {
  const c = new Cls({ endpoint: mock.url, region: REGION, credentials: KEY, maxAttempts: 1, ...extra });
  clients.push(c);
  return c;
};

// A request signed by the SDK's own signer but built by hand (members the SDK would drop).
async function signedFetch(service, pathname, headers, body, method = "POST") {
  const u = new URL(mock.url);
  const signer = new SignatureV4({ service, region: REGION, credentials: KEY, sha256: Sha256, uriEscapePath: service !== "s3" });
  const signed = await signer.sign({
    method, protocol: "http:", hostname: u.hostname, port: Number(u.port), path: pathname,
    headers: { host: u.host, ...headers, ...(service === "s3" ? { "x-amz-content-sha256": "UNSIGNED-PAYLOAD" } : {}) },
    body,
  });
  return fetch(`${mock.url}${pathname}`, { method, headers: signed.headers, body });
}

async function startMock(args, stateDir) {
  const child = spawn(MOCK, [
    "--listen", "127.0.0.1:0", "--region", REGION, "--account-id", ACCOUNT,
    "--access-key-id", KEY.accessKeyId, "--secret-access-key", KEY.secretAccessKey,
    "--exit-on-stdin-eof", ...(stateDir ? ["--state-dir", stateDir] : []), ...args,
  ], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once("line", (l) => { rl.close(); resolve(l); });
    child.once("exit", (code) => reject(new Error(`smfw-mock exited with ${code}`)));
  });
  const url = line.replace(/^listening on /, "");
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  return { child, url };
}

async function stopMock(m) {
  // --exit-on-stdin-eof: closing stdin is enough to stop it.
  const exited = new Promise((resolve) => m.child.once("exit", (code) => resolve(code)));
  m.child.stdin.end();
  assert.equal(await exited, 0);
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "smfw-mock-svc-"));
  mock = await startMock([
    "--endpoint", "bench-ep", "--inference-component", "bench-ic", "--endpoint", "plain-ep",
    "--ttft-ms", "1", "--itl-ms", "0", "--job-duration-s", "0.3",
  ], dir);
});

after(async () => {
  for (const c of clients) c.destroy();
  await stopMock(mock);
  rmSync(dir, { recursive: true, force: true });
});

test("S3: create, head, put, get (with range), head object, list with pagination", async () => {
  const s3 = make(S3Client, { forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: "smfw-data", CreateBucketConfiguration: { LocationConstraint: REGION } }));
  await s3.send(new HeadBucketCommand({ Bucket: "smfw-data" }));
  await assert.rejects(s3.send(new HeadBucketCommand({ Bucket: "missing-bucket" })), (e) => e.$metadata.httpStatusCode === 404);
  // (The SDK adds the LocationConstraint itself outside us-east-1; a raw request without it
  // is refused, see the signed-request test below.)
  const keys = [];
  for (let i = 0; i < 7; i++) {
    const key = `runs/2026/obj ${i}+é.json`;
    keys.push(key);
    const put = await s3.send(new PutObjectCommand({
      Bucket: "smfw-data", Key: key, Body: JSON.stringify({ i }), ContentType: "application/json",
      Metadata: { run: `r${i}` },
    }));
    assert.match(put.ETag, /^"[0-9a-f]{32}"$/);
  }
  await s3.send(new PutObjectCommand({ Bucket: "smfw-data", Key: "other/x.txt", Body: "hello world" }));
  const got = await s3.send(new GetObjectCommand({ Bucket: "smfw-data", Key: keys[3] }));
  assert.deepEqual(JSON.parse(await got.Body.transformToString()), { i: 3 });
  assert.equal(got.ContentType, "application/json");
  assert.equal(got.Metadata.run, "r3");
  const part = await s3.send(new GetObjectCommand({ Bucket: "smfw-data", Key: "other/x.txt", Range: "bytes=6-" }));
  assert.equal(await part.Body.transformToString(), "world");
  assert.equal(part.ContentRange, "bytes 6-10/11");
  const head = await s3.send(new HeadObjectCommand({ Bucket: "smfw-data", Key: "other/x.txt" }));
  assert.equal(head.ContentLength, 11);
  await assert.rejects(s3.send(new GetObjectCommand({ Bucket: "smfw-data", Key: "nope" })), (e) => e.name === "NoSuchKey");
  await assert.rejects(
    s3.send(new GetObjectCommand({ Bucket: "smfw-data", Key: "other/x.txt", Range: "bytes=50-" })),
    (e) => e.name === "InvalidRange" || e.$metadata.httpStatusCode === 416,
  );
  // Pagination: 7 keys, 3 per page.
  const listed = [];
  let token;
  let pages = 0;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: "smfw-data", Prefix: "runs/", MaxKeys: 3, ContinuationToken: token }));
    pages++;
    for (const o of page.Contents ?? []) listed.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  assert.equal(pages, 3);
  assert.deepEqual(listed, [...keys].sort());
  const delim = await s3.send(new ListObjectsV2Command({ Bucket: "smfw-data", Delimiter: "/" }));
  assert.deepEqual(delim.CommonPrefixes.map((p) => p.Prefix), ["other/", "runs/"]);
  const raw = await signedFetch("s3", "/no-constraint", {}, undefined, "PUT");
  assert.equal(raw.status, 400);
  assert.match(await raw.text(), /<Code>IllegalLocationConstraintException<\/Code>/);
  const badS3 = make(S3Client, { forcePathStyle: true, credentials: { ...KEY, secretAccessKey: "wrong" } });
  await assert.rejects(badS3.send(new GetObjectCommand({ Bucket: "smfw-data", Key: keys[0] })), (e) => e.name === "SignatureDoesNotMatch");
});

test("STS GetCallerIdentity names the configured account", async () => {
  const id = await make(STSClient).send(new GetCallerIdentityCommand({}));
  assert.equal(id.Account, ACCOUNT);
  assert.match(id.Arn, new RegExp(`^arn:aws:iam::${ACCOUNT}:`));
  const bad = make(STSClient, { credentials: { ...KEY, accessKeyId: "AKIDNOBODY" } });
  await assert.rejects(bad.send(new GetCallerIdentityCommand({})), (e) => e.name === "InvalidClientTokenId");
});

test("CloudWatch GetMetricData returns the invocations just made", async () => {
  const rt = make(SageMakerRuntimeClient);
  const start = new Date(Math.floor(Date.now() / 60000) * 60000 - 60000);
  const body = JSON.stringify({ messages: [{ role: "user", content: "x" }], max_tokens: 2 });
  for (let i = 0; i < 5; i++)
    await rt.send(new InvokeEndpointCommand({ EndpointName: "plain-ep", Body: body, ContentType: "application/json" }));
  await assert.rejects(rt.send(new InvokeEndpointCommand({ EndpointName: "plain-ep", Body: "{}", ContentType: "application/json" })));
  const dims = [{ Name: "EndpointName", Value: "plain-ep" }, { Name: "VariantName", Value: "AllTraffic" }];
  const q = (id, name, stat) => ({ Id: id, MetricStat: { Metric: { Namespace: "AWS/SageMaker", MetricName: name, Dimensions: dims }, Period: 60, Stat: stat } });
  const out = await make(CloudWatchClient).send(new GetMetricDataCommand({
    StartTime: start, EndTime: new Date(Date.now() + 120000), ScanBy: "TimestampAscending",
    MetricDataQueries: [q("inv", "Invocations", "Sum"), q("lat", "ModelLatency", "Average"), q("err", "Invocation4XXErrors", "Sum"), q("over", "OverheadLatency", "Maximum")],
  }));
  const byId = Object.fromEntries(out.MetricDataResults.map((r) => [r.Id, r]));
  const sum = (r) => r.Values.reduce((a, b) => a + b, 0);
  assert.equal(sum(byId.inv), 6);
  assert.equal(sum(byId.err), 1);
  // Microseconds: TTFT is 1 ms from receipt; ModelLatency starts when the handler took the
  // request (OverheadLatency is the part before), so a value sits just under or over 1000.
  assert.ok(byId.lat.Values.every((v) => v >= 500), "ModelLatency is in microseconds (TTFT 1 ms)");
  assert.ok(byId.lat.Timestamps.every((t) => t instanceof Date));
  assert.equal(byId.inv.StatusCode, "Complete");
  await assert.rejects(
    make(CloudWatchClient).send(new GetMetricDataCommand({ StartTime: start, EndTime: new Date(), MetricDataQueries: [q("Bad", "Invocations", "Sum")] })),
    (e) => e.$metadata.httpStatusCode === 400,
  );
});

test("DescribeEndpoint and DescribeInferenceComponent", async () => {
  const sm = make(SageMakerClient);
  const ep = await sm.send(new DescribeEndpointCommand({ EndpointName: "bench-ep" }));
  assert.equal(ep.EndpointStatus, "InService");
  assert.equal(ep.EndpointArn, `arn:aws:sagemaker:${REGION}:${ACCOUNT}:endpoint/bench-ep`);
  assert.equal(ep.ProductionVariants[0].VariantName, "AllTraffic");
  await assert.rejects(sm.send(new DescribeEndpointCommand({ EndpointName: "gone" })),
    (e) => e.name === "ValidationException" && /Could not find endpoint/.test(e.message));
  const ic = await sm.send(new DescribeInferenceComponentCommand({ InferenceComponentName: "bench-ic" }));
  assert.equal(ic.EndpointName, "bench-ep");
  assert.equal(ic.InferenceComponentStatus, "InService");
});

test("workload configs: create, duplicate, validation, describe, list, delete", async () => {
  const sm = make(SageMakerClient);
  const spec = JSON.stringify({ benchmark: { type: "aiperf" }, parameters: { concurrency: 2, request_count: 10, streaming: true } });
  const created = await sm.send(new CreateAIWorkloadConfigCommand({
    AIWorkloadConfigName: "wl-1",
    AIWorkloadConfigs: { WorkloadSpec: { Inline: spec } },
    DatasetConfig: { InputDataConfig: [{ ChannelName: "prompts", DataSource: { S3DataSource: { S3Uri: "s3://smfw-data/runs/" } } }] },
    Tags: [{ Key: "team", Value: "perf" }],
  }));
  assert.equal(created.AIWorkloadConfigArn, `arn:aws:sagemaker:${REGION}:${ACCOUNT}:ai-workload-config/wl-1`);
  await assert.rejects(sm.send(new CreateAIWorkloadConfigCommand({ AIWorkloadConfigName: "wl-1" })), (e) => e.name === "ResourceInUse");
  await assert.rejects(sm.send(new CreateAIWorkloadConfigCommand({ AIWorkloadConfigName: "bad_name!" })), (e) => e.name === "ValidationException");
  // The SDK drops members its model lacks, so an unknown WorkloadSpec key needs a raw request.
  const raw = await signedFetch("sagemaker", "/", {
    "content-type": "application/x-amz-json-1.1", "x-amz-target": "SageMaker.CreateAIWorkloadConfig",
  }, JSON.stringify({ AIWorkloadConfigName: "wl-2", AIWorkloadConfigs: { WorkloadSpec: { Inline: spec, S3Uri: "s3://x/y" } } }));
  assert.equal(raw.status, 400);
  const err = await raw.json();
  assert.equal(err.__type, "ValidationException");
  assert.match(err.message, /S3Uri/);
  // Inline is an opaque string in the model; the mock checks its parameters against smfw's
  // documented list (the managed backend's), so an unknown one is refused at creation.
  await assert.rejects(
    sm.send(new CreateAIWorkloadConfigCommand({
      AIWorkloadConfigName: "wl-unknown",
      AIWorkloadConfigs: { WorkloadSpec: { Inline: JSON.stringify({ parameters: { no_such_parameter: 1 } }) } },
    })),
    (e) => e.name === "ValidationException" && e.$metadata.httpStatusCode === 400 &&
      /Unknown WorkloadSpec parameter "no_such_parameter" \(accepted: prompt_input_tokens_mean, .*slice_duration\)/.test(e.message),
  );
  await assert.rejects(sm.send(new DescribeAIWorkloadConfigCommand({ AIWorkloadConfigName: "wl-unknown" })), (e) => e.name === "ResourceNotFound");
  // Every documented parameter is accepted (values are checked when the job runs).
  const documented = ["prompt_input_tokens_mean", "prompt_input_tokens_stddev", "output_tokens_mean",
    "output_tokens_stddev", "concurrency", "request_count", "request_rate", "request_rate_mode",
    "arrival_smoothness", "benchmark_duration", "benchmark_grace_period", "warmup_request_count",
    "warmup_duration", "warmup_concurrency", "warmup_request_rate", "goodput", "extra_inputs",
    "streaming", "tokenizer", "random_seed", "custom_dataset_type", "input_file", "public_dataset",
    "num_dataset_entries", "dataset_sampling_strategy", "request_timeout_seconds",
    "request_cancellation_rate", "request_cancellation_delay", "use_server_token_count", "slice_duration"];
  await sm.send(new CreateAIWorkloadConfigCommand({
    AIWorkloadConfigName: "wl-all",
    AIWorkloadConfigs: { WorkloadSpec: { Inline: JSON.stringify({ benchmark: { type: "aiperf" }, parameters: Object.fromEntries(documented.map((k) => [k, 1])) }) } },
  }));
  await sm.send(new DeleteAIWorkloadConfigCommand({ AIWorkloadConfigName: "wl-all" }));
  const desc = await sm.send(new DescribeAIWorkloadConfigCommand({ AIWorkloadConfigName: "wl-1" }));
  assert.equal(desc.AIWorkloadConfigs.WorkloadSpec.Inline, spec);
  assert.ok(desc.CreationTime instanceof Date);
  await assert.rejects(sm.send(new DescribeAIWorkloadConfigCommand({ AIWorkloadConfigName: "nope" })), (e) => e.name === "ResourceNotFound");
  for (const n of ["wl-b", "wl-c"]) await sm.send(new CreateAIWorkloadConfigCommand({ AIWorkloadConfigName: n }));
  const page1 = await sm.send(new ListAIWorkloadConfigsCommand({ MaxResults: 2, SortBy: "Name", SortOrder: "Ascending" }));
  assert.deepEqual(page1.AIWorkloadConfigs.map((c) => c.AIWorkloadConfigName), ["wl-1", "wl-b"]);
  const page2 = await sm.send(new ListAIWorkloadConfigsCommand({ MaxResults: 2, SortBy: "Name", SortOrder: "Ascending", NextToken: page1.NextToken }));
  assert.deepEqual(page2.AIWorkloadConfigs.map((c) => c.AIWorkloadConfigName), ["wl-c"]);
  assert.equal(page2.NextToken, undefined);
  await sm.send(new DeleteAIWorkloadConfigCommand({ AIWorkloadConfigName: "wl-c" }));
  await assert.rejects(sm.send(new DeleteAIWorkloadConfigCommand({ AIWorkloadConfigName: "wl-c" })), (e) => e.name === "ResourceNotFound");
});

async function waitForStatus(sm, name, wanted, seconds = 90) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const d = await sm.send(new DescribeAIBenchmarkJobCommand({ AIBenchmarkJobName: name }));
    if (wanted.includes(d.AIBenchmarkJobStatus)) return d;
    if (Date.now() > deadline) throw new Error(`job ${name} never reached ${wanted} (now ${d.AIBenchmarkJobStatus})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("benchmark jobs: validation, InProgress, a real run to Completed, stop, list, delete", async () => {
  const sm = make(SageMakerClient);
  const base = {
    AIWorkloadConfigIdentifier: "wl-1",
    BenchmarkTarget: { Endpoint: { Identifier: "bench-ep", InferenceComponents: [{ Identifier: "bench-ic" }] } },
    OutputConfig: { S3OutputLocation: "s3://smfw-data/bench-out/" },
    RoleArn: `arn:aws:iam::${ACCOUNT}:role/SageMakerRole`,
  };
  await assert.rejects(sm.send(new CreateAIBenchmarkJobCommand({ ...base, AIBenchmarkJobName: "j1", RoleArn: "not-a-role" })), (e) => e.name === "ValidationException");
  await assert.rejects(sm.send(new CreateAIBenchmarkJobCommand({ ...base, AIBenchmarkJobName: "j1", AIWorkloadConfigIdentifier: "missing" })), (e) => e.name === "ResourceNotFound");
  await assert.rejects(
    sm.send(new CreateAIBenchmarkJobCommand({ ...base, AIBenchmarkJobName: "j1", BenchmarkTarget: { Endpoint: { Identifier: "plain-ep", InferenceComponents: [{ Identifier: "bench-ic" }] } } })),
    (e) => e.name === "ResourceNotFound",
  );
  const created = await sm.send(new CreateAIBenchmarkJobCommand({ ...base, AIBenchmarkJobName: "j1" }));
  assert.equal(created.AIBenchmarkJobArn, `arn:aws:sagemaker:${REGION}:${ACCOUNT}:ai-benchmark-job/j1`);
  await assert.rejects(sm.send(new CreateAIBenchmarkJobCommand({ ...base, AIBenchmarkJobName: "j1" })), (e) => e.name === "ResourceInUse");
  const running = await sm.send(new DescribeAIBenchmarkJobCommand({ AIBenchmarkJobName: "j1" }));
  assert.equal(running.AIBenchmarkJobStatus, "InProgress");
  await assert.rejects(sm.send(new DeleteAIWorkloadConfigCommand({ AIWorkloadConfigName: "wl-1" })), (e) => e.name === "ResourceInUse");
  await assert.rejects(sm.send(new DeleteAIBenchmarkJobCommand({ AIBenchmarkJobName: "j1" })), (e) => e.name === "ValidationException");
  // The runner benchmarks bench-ep/bench-ic for real (synthetic prompts: wl-1 names no input_file).
  const done = await waitForStatus(sm, "j1", ["Completed", "Failed"]);
  assert.equal(done.FailureReason, undefined);
  assert.equal(done.AIBenchmarkJobStatus, "Completed");
  assert.ok(done.EndTime >= done.StartTime);

  // A dataset channel with nothing under it fails the job with ClientError.
  await sm.send(new CreateAIWorkloadConfigCommand({
    AIWorkloadConfigName: "wl-empty",
    DatasetConfig: { InputDataConfig: [{ ChannelName: "c", DataSource: { S3DataSource: { S3Uri: "s3://smfw-data/nothing-here/" } } }] },
  }));
  await sm.send(new CreateAIBenchmarkJobCommand({ ...base, AIBenchmarkJobName: "j-empty", AIWorkloadConfigIdentifier: "wl-empty" }));
  const empty = await waitForStatus(sm, "j-empty", ["Failed"]);
  assert.match(empty.FailureReason, /no objects found under s3:\/\/smfw-data\/nothing-here\//);

  await sm.send(new CreateAIBenchmarkJobCommand({ ...base, AIBenchmarkJobName: "j-stop" }));
  const stop = await sm.send(new StopAIBenchmarkJobCommand({ AIBenchmarkJobName: "j-stop" }));
  assert.match(stop.AIBenchmarkJobArn, /ai-benchmark-job\/j-stop$/);
  const stopped = await waitForStatus(sm, "j-stop", ["Stopped"]);
  assert.equal(stopped.FailureReason, undefined);
  await assert.rejects(sm.send(new StopAIBenchmarkJobCommand({ AIBenchmarkJobName: "j-stop" })), (e) => e.name === "ValidationException");

  const failed = await sm.send(new ListAIBenchmarkJobsCommand({ StatusEquals: "Failed", SortBy: "Name", SortOrder: "Ascending" }));
  assert.deepEqual(failed.AIBenchmarkJobs.map((j) => j.AIBenchmarkJobName), ["j-empty"]);
  const completed = await sm.send(new ListAIBenchmarkJobsCommand({ StatusEquals: "Completed" }));
  assert.deepEqual(completed.AIBenchmarkJobs.map((j) => j.AIBenchmarkJobName), ["j1"]);
  assert.equal(completed.AIBenchmarkJobs[0].AIWorkloadConfigName, "wl-1");
  await sm.send(new DeleteAIBenchmarkJobCommand({ AIBenchmarkJobName: "j1" }));
  await assert.rejects(sm.send(new DescribeAIBenchmarkJobCommand({ AIBenchmarkJobName: "j1" })), (e) => e.name === "ResourceNotFound");
});

// A tar reader of its own (ustar + pax path records), so the bundle is checked by code
// that shares nothing with libarchive, which wrote it.
function untar(buf) {
  const files = new Map();
  let off = 0;
  let paxPath = null;
  while (off + 512 <= buf.length) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const field = (a, b) => h.subarray(a, b).toString("latin1").replace(/\0[\s\S]*$/, "");
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
    assert.equal(parseInt(field(148, 156).trim(), 8), sum, `header checksum at ${off}`);
    assert.equal(field(257, 262), "ustar");
    const prefix = field(345, 500);
    let name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 136).trim() || "0", 8);
    const type = String.fromCharCode(h[156] || 48);
    const data = buf.subarray(off + 512, off + 512 + size);
    assert.equal(data.length, size, `entry ${name} is truncated`);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString("utf8"));
      paxPath = m ? m[1] : null;
      continue;
    }
    if (paxPath) name = paxPath;
    paxPath = null;
    files.set(name.replace(/\/$/, ""), { type, data });
  }
  return files;
}

async function fetchBundle(s3, bucket, key) {
  const obj = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const gz = Buffer.from(await obj.Body.transformToByteArray());
  assert.equal(gz[0], 0x1f);
  assert.equal(gz[1], 0x8b);
  const files = untar(gunzipSync(gz));
  // The system tar agrees on the member list (when there is one).
  const tar = spawnSync("tar", ["-tzf", "-"], { input: gz });
  if (tar.status === 0)
    assert.deepEqual(tar.stdout.toString().trim().split("\n").map((n) => n.replace(/\/$/, "")).sort(), [...files.keys()].sort());
  return files;
}

const PROMPTS = Array.from({ length: 24 }, (_, i) => JSON.stringify({ text: `Prompt ${i}: tell me about foxes and dogs`, output_length: 6 + (i % 5) })).join("\n") + "\n";

async function stageDataset(s3, bucket, prefix) {
  await s3.send(new CreateBucketCommand({ Bucket: bucket, CreateBucketConfiguration: { LocationConstraint: REGION } })).catch((e) => {
    if (e.name !== "BucketAlreadyOwnedByYou") throw e;
  });
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}prompts.jsonl`, Body: PROMPTS }));
}

test("workload config -> benchmark job -> Completed -> output.tar.gz with the AIPerf bundle", async () => {
  const s3 = make(S3Client, { forcePathStyle: true });
  const sm = make(SageMakerClient);
  await stageDataset(s3, "bench-in", "datasets/v1/");
  const spec = {
    benchmark: { type: "aiperf" },
    parameters: {
      custom_dataset_type: "single_turn", input_file: "/opt/ml/input/data/datasets/prompts.jsonl",
      concurrency: 3, request_count: 18, streaming: true, random_seed: 7, extra_inputs: "ignore_eos:true",
    },
  };
  await sm.send(new CreateAIWorkloadConfigCommand({
    AIWorkloadConfigName: "wl-full",
    AIWorkloadConfigs: { WorkloadSpec: { Inline: JSON.stringify(spec) } },
    DatasetConfig: { InputDataConfig: [{ ChannelName: "datasets", DataSource: { S3DataSource: { S3Uri: "s3://bench-in/datasets/v1/" } } }] },
  }));
  await sm.send(new CreateAIBenchmarkJobCommand({
    AIBenchmarkJobName: "full-1", AIWorkloadConfigIdentifier: "wl-full",
    BenchmarkTarget: { Endpoint: { Identifier: "bench-ep", InferenceComponents: [{ Identifier: "bench-ic" }] } },
    OutputConfig: { S3OutputLocation: "s3://bench-in/results" },
    RoleArn: `arn:aws:iam::${ACCOUNT}:role/SageMakerRole`,
  }));
  const done = await waitForStatus(sm, "full-1", ["Completed", "Failed", "Stopped"]);
  assert.equal(done.FailureReason, undefined);
  assert.equal(done.AIBenchmarkJobStatus, "Completed");
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: "bench-in", Prefix: "results/" }));
  assert.deepEqual(listed.Contents.map((o) => o.Key), ["results/full-1/output/output.tar.gz"]);
  const files = await fetchBundle(s3, "bench-in", "results/full-1/output/output.tar.gz");
  for (const f of ["profile_export_aiperf.json", "profile_export_aiperf.csv", "profile_export.jsonl", "inputs.json",
    "outputs.json", "benchmark_summary.txt", "logs/aiperf.log"])
    assert.ok(files.has(`output/${f}`), `output/${f} in ${[...files.keys()]}`);
  assert.ok(!files.has("output/failure_reason.txt"));
  for (const name of files.keys()) assert.match(name, /^output(\/|$)/);
  const agg = JSON.parse(files.get("output/profile_export_aiperf.json").data.toString());
  assert.equal(agg.request_count.avg, 18);
  assert.ok(agg.time_to_first_token.avg > 0);
  const records = files.get("output/profile_export.jsonl").data.toString().trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(records.length, 18);
  const inputs = JSON.parse(files.get("output/inputs.json").data.toString());
  const body = inputs.data[0].payloads[0];
  assert.equal(body.ignore_eos, true);
  assert.match(body.messages[0].content, /^Prompt \d+: tell me about foxes/);
  const log = files.get("output/logs/aiperf.log").data.toString();
  assert.match(log, /benchmark job full-1: endpoint bench-ep, inference component bench-ic/);
  assert.match(log, /input_file \/opt\/ml\/input\/data\/datasets\/prompts\.jsonl is the staged /);
});

test("a concurrency list runs one level per concurrency_<N>/ folder", async () => {
  const s3 = make(S3Client, { forcePathStyle: true });
  const sm = make(SageMakerClient);
  await stageDataset(s3, "bench-in", "datasets/v2/");
  const spec = { benchmark: { type: "aiperf" }, parameters: { input_file: "/opt/ml/input/data/prompts/prompts.jsonl", concurrency: [1, 4], request_count: 8, streaming: false } };
  await sm.send(new CreateAIWorkloadConfigCommand({
    AIWorkloadConfigName: "wl-sweep", AIWorkloadConfigs: { WorkloadSpec: { Inline: JSON.stringify(spec) } },
    DatasetConfig: { InputDataConfig: [{ ChannelName: "prompts", DataSource: { S3DataSource: { S3Uri: "s3://bench-in/datasets/v2/" } } }] },
  }));
  await sm.send(new CreateAIBenchmarkJobCommand({
    AIBenchmarkJobName: "sweep-1", AIWorkloadConfigIdentifier: "wl-sweep",
    BenchmarkTarget: { Endpoint: { Identifier: "plain-ep" } },
    OutputConfig: { S3OutputLocation: "s3://bench-in/sweeps/" }, RoleArn: `arn:aws:iam::${ACCOUNT}:role/SageMakerRole`,
  }));
  const done = await waitForStatus(sm, "sweep-1", ["Completed", "Failed", "Stopped"]);
  assert.equal(done.AIBenchmarkJobStatus, "Completed", done.FailureReason);
  const files = await fetchBundle(s3, "bench-in", "sweeps/sweep-1/output/output.tar.gz");
  for (const n of [1, 4]) {
    const agg = JSON.parse(files.get(`output/concurrency_${n}/profile_export_aiperf.json`).data.toString());
    assert.equal(agg.request_count.avg, 8);
  }
  assert.match(files.get("output/benchmark_summary.txt").data.toString(), /concurrency sweep of 2 levels/);
  assert.ok(files.has("output/logs/aiperf.log"));
});

test("a bad WorkloadSpec fails the job with ClientError; StopAIBenchmarkJob stops a running benchmark", async () => {
  const sm = make(SageMakerClient);
  const create = (name, wl) => sm.send(new CreateAIBenchmarkJobCommand({
    AIBenchmarkJobName: name, AIWorkloadConfigIdentifier: wl, BenchmarkTarget: { Endpoint: { Identifier: "plain-ep" } },
    OutputConfig: { S3OutputLocation: "s3://bench-in/misc/" }, RoleArn: `arn:aws:iam::${ACCOUNT}:role/SageMakerRole`,
  }));
  await sm.send(new CreateAIWorkloadConfigCommand({
    AIWorkloadConfigName: "wl-bad", AIWorkloadConfigs: { WorkloadSpec: { Inline: JSON.stringify({ benchmark: { type: "aiperf" }, parameters: { request_count: "ten" } }) } },
  }));
  await create("bad-1", "wl-bad");
  const bad = await waitForStatus(sm, "bad-1", ["Failed", "Completed"]);
  assert.equal(bad.AIBenchmarkJobStatus, "Failed");
  assert.match(bad.FailureReason, /^ClientError: WorkloadSpec parameter request_count = "ten": expected an integer above 0/);

  await sm.send(new CreateAIWorkloadConfigCommand({
    AIWorkloadConfigName: "wl-long", AIWorkloadConfigs: { WorkloadSpec: { Inline: JSON.stringify({ benchmark: { type: "aiperf" }, parameters: { concurrency: 2, benchmark_duration: 120 } }) } },
  }));
  await create("long-1", "wl-long");
  await waitForStatus(sm, "long-1", ["InProgress"]);
  await new Promise((r) => setTimeout(r, 700));
  const t0 = Date.now();
  await sm.send(new StopAIBenchmarkJobCommand({ AIBenchmarkJobName: "long-1" }));
  const stopped = await waitForStatus(sm, "long-1", ["Stopped", "Failed", "Completed"], 30);
  assert.equal(stopped.AIBenchmarkJobStatus, "Stopped");
  assert.ok(Date.now() - t0 < 30000);
});

test("the 1% validity gate fails the job with AlgorithmError and still uploads the bundle", async () => {
  const gate = await startMock(["--fault", "http-500:25%", "--seed", "3"]);
  try {
    const s3 = make(S3Client, { forcePathStyle: true, endpoint: gate.url });
    const sm = make(SageMakerClient, { endpoint: gate.url });
    await stageDataset(s3, "gate-in", "d/");
    const spec = { benchmark: { type: "aiperf" }, parameters: { input_file: "/opt/ml/input/data/datasets/prompts.jsonl", concurrency: 2, request_count: 20 } };
    await sm.send(new CreateAIWorkloadConfigCommand({
      AIWorkloadConfigName: "wl-gate", AIWorkloadConfigs: { WorkloadSpec: { Inline: JSON.stringify(spec) } },
      DatasetConfig: { InputDataConfig: [{ ChannelName: "datasets", DataSource: { S3DataSource: { S3Uri: "s3://gate-in/d/" } } }] },
    }));
    await sm.send(new CreateAIBenchmarkJobCommand({
      AIBenchmarkJobName: "gate-1", AIWorkloadConfigIdentifier: "wl-gate", BenchmarkTarget: { Endpoint: { Identifier: "mock-endpoint" } },
      OutputConfig: { S3OutputLocation: "s3://gate-in/out/" }, RoleArn: `arn:aws:iam::${ACCOUNT}:role/SageMakerRole`,
    }));
    const done = await waitForStatus(sm, "gate-1", ["Completed", "Failed", "Stopped"]);
    assert.equal(done.AIBenchmarkJobStatus, "Failed");
    const m = /AlgorithmError: Benchmark error rate (\d+\.\d+)% \((\d+)\/20\) exceeds maximum 1%/.exec(done.FailureReason);
    assert.ok(m, done.FailureReason);
    assert.ok(Number(m[2]) >= 1);
    assert.ok(Math.abs(Number(m[1]) - (Number(m[2]) * 100) / 20) < 0.01);
    const files = await fetchBundle(s3, "gate-in", "out/gate-1/output/output.tar.gz");
    assert.ok(files.has("output/failure_reason.txt"));
    const agg = JSON.parse(files.get("output/profile_export_aiperf.json").data.toString());
    assert.equal(agg.error_request_count.avg, Number(m[2]));
  } finally {
    await stopMock(gate);
  }
});
