// smfw-mock's S3, STS, CloudWatch and SageMaker control plane, driven by the real
// AWS SDK for JavaScript v3: path-style S3 round trips with pagination and ranges,
// GetCallerIdentity, GetMetricData over the invocations just made, and the
// workload-config / benchmark-job state machine with its validation errors.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
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

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "smfw-mock-svc-"));
  const child = spawn(MOCK, [
    "--listen", "127.0.0.1:0", "--state-dir", dir, "--region", REGION, "--account-id", ACCOUNT,
    "--access-key-id", KEY.accessKeyId, "--secret-access-key", KEY.secretAccessKey,
    "--endpoint", "bench-ep", "--inference-component", "bench-ic", "--endpoint", "plain-ep",
    "--ttft-ms", "1", "--itl-ms", "0", "--job-duration-s", "0.3", "--exit-on-stdin-eof",
  ], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once("line", (l) => { rl.close(); resolve(l); });
    child.once("exit", (code) => reject(new Error(`smfw-mock exited with ${code}`)));
  });
  mock = { child, url: line.replace(/^listening on /, "") };
  assert.match(mock.url, /^http:\/\/127\.0\.0\.1:\d+$/);
});

after(async () => {
  for (const c of clients) c.destroy();
  // --exit-on-stdin-eof: closing stdin is enough to stop it.
  const exited = new Promise((resolve) => mock.child.once("exit", (code) => resolve(code)));
  mock.child.stdin.end();
  assert.equal(await exited, 0);
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
  assert.ok(byId.lat.Values.every((v) => v >= 1000), "ModelLatency is in microseconds (TTFT 1 ms)");
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

async function waitForStatus(sm, name, wanted) {
  for (let i = 0; i < 100; i++) {
    const d = await sm.send(new DescribeAIBenchmarkJobCommand({ AIBenchmarkJobName: name }));
    if (wanted.includes(d.AIBenchmarkJobStatus)) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${name} never reached ${wanted}`);
}

test("benchmark jobs: validation, InProgress, honest failure without a runner, stop, list, delete", async () => {
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
  // No runner is built in yet: the job must fail and say why, never pretend to complete.
  const done = await waitForStatus(sm, "j1", ["Completed", "Failed"]);
  assert.equal(done.AIBenchmarkJobStatus, "Failed");
  assert.match(done.FailureReason, /no benchmark runner/);
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
  assert.deepEqual(failed.AIBenchmarkJobs.map((j) => j.AIBenchmarkJobName), ["j-empty", "j1"]);
  assert.equal(failed.AIBenchmarkJobs[1].AIWorkloadConfigName, "wl-1");
  await sm.send(new DeleteAIBenchmarkJobCommand({ AIBenchmarkJobName: "j1" }));
  await assert.rejects(sm.send(new DescribeAIBenchmarkJobCommand({ AIBenchmarkJobName: "j1" })), (e) => e.name === "ResourceNotFound");
});

test("a full benchmark job that completes with output.tar.gz", { todo: "needs the direct-backend job runner (mock_controlplane_set_runner)" }, () => {});
