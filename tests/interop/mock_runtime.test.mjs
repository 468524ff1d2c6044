// smfw-mock's SageMaker Runtime and OpenAI routes, driven by the real AWS SDK for
// JavaScript v3 (an independent client): signed invocations, streaming decoded by the
// SDK's own event-stream parser, validation errors, faults and the ground-truth file.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  SageMakerRuntimeClient,
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
} from "@aws-sdk/client-sagemaker-runtime";

const MOCK = path.join(process.env.SMFW_BUILD_DIR ?? "build", "tools", "mock", "smfw-mock");
const KEY = { accessKeyId: "AKIDRUNTIMETEST", secretAccessKey: "runtime-test-secret-0123456789" };
const REGION = "eu-west-1";

// Start a mock on port 0 and read its address from the first stdout line.
async function startMock(args) {
  const dir = mkdtempSync(path.join(tmpdir(), "smfw-mock-test-"));
  const child = spawn(MOCK, ["--listen", "127.0.0.1:0", "--state-dir", dir, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once("line", (l) => { rl.close(); resolve(l); });
    child.once("exit", (code) => reject(new Error(`smfw-mock exited with ${code}`)));
    setTimeout(() => reject(new Error("smfw-mock did not say where it listens")), 10000);
  });
  const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
  assert.ok(m, `unexpected first line: ${line}`);
  return {
    url: m[1],
    dir,
    child,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", (code, sig) => resolve({ code, sig })));
      child.kill("SIGTERM");
      const res = await exited;
      rmSync(dir, { recursive: true, force: true });
      return res;
    },
  };
}

const chatBody = (maxTokens, extra = {}) =>
  JSON.stringify({ model: "m", messages: [{ role: "user", content: "Say something." }], max_tokens: maxTokens, ...extra });

// The OpenAI SSE text inside a stream: content pieces, usage, [DONE].
function parseSse(text) {
  const events = text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim());
  assert.equal(events.at(-1), "[DONE]");
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
  const content = chunks.flatMap((c) => c.choices.map((ch) => ch.delta?.content ?? "")).join("");
  const tokens = chunks.filter((c) => c.choices.some((ch) => ch.delta?.content)).length;
  const usage = chunks.find((c) => c.usage)?.usage;
  return { content, tokens, usage };
}

let mock, client, gtFile;

before(async () => {
  gtFile = path.join(mkdtempSync(path.join(tmpdir(), "smfw-gt-")), "truth.jsonl");
  mock = await startMock([
    "--access-key-id", KEY.accessKeyId, "--secret-access-key", KEY.secretAccessKey,
    "--region", REGION, "--endpoint", "ep-a", "--endpoint", "ep-ic",
    "--inference-component", "ic-1", "--ttft-ms", "15", "--itl-ms", "2",
    "--ground-truth", gtFile,
  ]);
  client = new SageMakerRuntimeClient({ endpoint: mock.url, region: REGION, credentials: KEY, maxAttempts: 1 });
});

after(async () => {
  client?.destroy();
  const res = await mock?.stop();
  assert.equal(res.code, 0, "smfw-mock exits 0 on SIGTERM");
  rmSync(path.dirname(gtFile), { recursive: true, force: true });
});

test("InvokeEndpoint: a signed chat request gets a chat.completion with usage", async () => {
  const out = await client.send(new InvokeEndpointCommand({
    EndpointName: "ep-a", ContentType: "application/json", Accept: "application/json",
    Body: chatBody(7), InferenceId: "inv-nonstream-1", CustomAttributes: "trace=1",
  }));
  const body = JSON.parse(Buffer.from(out.Body).toString("utf8"));
  assert.equal(body.object, "chat.completion");
  assert.equal(body.usage.completion_tokens, 7);
  assert.equal(out.InvokedProductionVariant, "AllTraffic");
  assert.equal(out.CustomAttributes, "trace=1");
  assert.equal(out.ContentType, "application/json");
});

test("InvokeEndpointWithResponseStream: PayloadParts reassemble into the SSE stream", async () => {
  const out = await client.send(new InvokeEndpointWithResponseStreamCommand({
    EndpointName: "ep-a", ContentType: "application/json", InferenceId: "inv-stream-1",
    Body: chatBody(25, { stream: true, stream_options: { include_usage: true } }),
  }));
  let parts = 0;
  let text = "";
  for await (const ev of out.Body) {
    if (ev.PayloadPart) {
      parts++;
      text += Buffer.from(ev.PayloadPart.Bytes).toString("utf8");
    }
  }
  const sse = parseSse(text);
  assert.equal(sse.tokens, 25);
  assert.equal(sse.usage.completion_tokens, 25);
  // Tokens due together (a slow loop catches up) share a release; each release is 1-3 frames.
  assert.ok(parts > 1, `the stream came as ${parts} PayloadPart(s)`);
});

test("TGI bodies stream token lines and end with details", async () => {
  const out = await client.send(new InvokeEndpointWithResponseStreamCommand({
    EndpointName: "ep-a", ContentType: "application/json",
    Body: JSON.stringify({ inputs: "Hello", parameters: { max_new_tokens: 6 } }),
  }));
  let text = "";
  for await (const ev of out.Body) if (ev.PayloadPart) text += Buffer.from(ev.PayloadPart.Bytes).toString("utf8");
  const lines = text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));
  assert.equal(lines.length, 6);
  assert.ok(lines.every((l) => typeof l.token.text === "string"));
  assert.equal(lines.at(-1).details.generated_tokens, 6);
  assert.equal(lines.at(-1).generated_text, lines.map((l) => l.token.text).join(""));
});

test("a wrong secret is rejected with the AWS error shape", async () => {
  const bad = new SageMakerRuntimeClient({
    endpoint: mock.url, region: REGION, maxAttempts: 1,
    credentials: { accessKeyId: KEY.accessKeyId, secretAccessKey: "not-the-secret" },
  });
  await assert.rejects(
    bad.send(new InvokeEndpointCommand({ EndpointName: "ep-a", Body: chatBody(2), ContentType: "application/json" })),
    (e) => e.name === "InvalidSignatureException" && e.$metadata.httpStatusCode === 403,
  );
  const unknown = new SageMakerRuntimeClient({
    endpoint: mock.url, region: REGION, maxAttempts: 1,
    credentials: { accessKeyId: "AKIDUNKNOWN", secretAccessKey: KEY.secretAccessKey },
  });
  await assert.rejects(
    unknown.send(new InvokeEndpointCommand({ EndpointName: "ep-a", Body: chatBody(2), ContentType: "application/json" })),
    (e) => e.name === "UnrecognizedClientException" && e.$metadata.httpStatusCode === 403,
  );
  bad.destroy();
  unknown.destroy();
});

test("Runtime validation: unknown endpoint, target model on a stream, inference components", async () => {
  await assert.rejects(
    client.send(new InvokeEndpointCommand({ EndpointName: "nope", Body: chatBody(2), ContentType: "application/json" })),
    (e) => e.name === "ValidationError" && /Endpoint nope of account \d{12} not found/.test(e.message),
  );
  await assert.rejects(
    client.send(new InvokeEndpointCommand({ EndpointName: "ep-a", Body: chatBody(2), ContentType: "application/json", TargetModel: "m.tar.gz" })),
    (e) => e.name === "ValidationError" && /not a multi-model endpoint/.test(e.message),
  );
  await assert.rejects(
    client.send(new InvokeEndpointCommand({ EndpointName: "ep-a", Body: chatBody(2), ContentType: "application/json", TargetVariant: "Blue" })),
    (e) => e.name === "ValidationError" && /Variant Blue not found/.test(e.message),
  );
  // ep-a hosts no components: naming one is refused (400), in SageMaker's words.
  for (const Cmd of [InvokeEndpointCommand, InvokeEndpointWithResponseStreamCommand]) {
    await assert.rejects(
      client.send(new Cmd({ EndpointName: "ep-a", InferenceComponentName: "nosuch", Body: chatBody(2, { stream: Cmd !== InvokeEndpointCommand }), ContentType: "application/json" })),
      (e) => e.name === "ValidationError" && e.$metadata.httpStatusCode === 400 &&
        /^Inference Component Name header is not allowed for endpoints to which you dont plan to deploy inference components\./.test(e.message),
    );
  }
  // ep-ic hosts ic-1: the component header is required and must name a real component.
  await assert.rejects(
    client.send(new InvokeEndpointCommand({ EndpointName: "ep-ic", Body: chatBody(2), ContentType: "application/json" })),
    (e) => e.name === "ValidationError" && /Inference Component Name header is required/.test(e.message),
  );
  await assert.rejects(
    client.send(new InvokeEndpointCommand({ EndpointName: "ep-ic", InferenceComponentName: "ic-x", Body: chatBody(2), ContentType: "application/json" })),
    (e) => e.name === "ValidationError" && e.$metadata.httpStatusCode === 400 && /Inference Component ic-x not found/.test(e.message),
  );
  const ok = await client.send(new InvokeEndpointCommand({
    EndpointName: "ep-ic", InferenceComponentName: "ic-1", Body: chatBody(3), ContentType: "application/json",
  }));
  assert.equal(JSON.parse(Buffer.from(ok.Body).toString()).usage.completion_tokens, 3);
  // A body the container cannot read comes back as a ModelError (424) from SageMaker.
  await assert.rejects(
    client.send(new InvokeEndpointCommand({ EndpointName: "ep-a", Body: "not json", ContentType: "application/json" })),
    (e) => e.name === "ModelError" && e.$metadata.httpStatusCode === 424 && e.OriginalStatusCode === 400,
  );
});

test("OpenAI-compatible routes share the latency model", async () => {
  const models = await (await fetch(`${mock.url}/v1/models`)).json();
  assert.equal(models.object, "list");
  const t0 = performance.now();
  const res = await fetch(`${mock.url}/v1/chat/completions`, {
    method: "POST", headers: { "content-type": "application/json", "x-request-id": "oa-1" },
    body: chatBody(10, { stream: true, stream_options: { include_usage: true } }),
  });
  assert.equal(res.headers.get("content-type").split(";")[0], "text/event-stream");
  const sse = parseSse(await res.text());
  const ms = performance.now() - t0;
  assert.equal(sse.tokens, 10);
  assert.ok(ms >= 15 + 9 * 2 - 1, `a 10-token answer at TTFT 15 ms / ITL 2 ms took only ${ms} ms`);
  const comp = await (await fetch(`${mock.url}/v1/completions`, {
    method: "POST", body: JSON.stringify({ prompt: ["a b c"], max_tokens: 4 }),
  })).json();
  assert.equal(comp.object, "text_completion");
  assert.equal(comp.usage.completion_tokens, 4);
});

test("the ground truth has one line per inference request, on the monotonic clock", async () => {
  // Give the mock a moment to finish the lines of the requests above.
  await new Promise((r) => setTimeout(r, 100));
  const lines = readFileSync(gtFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const stream = lines.find((l) => l.inference_id === "inv-stream-1");
  assert.ok(stream, "the streamed request is recorded under its inference id");
  assert.equal(stream.endpoint, "ep-a");
  assert.equal(stream.tokens, 25);
  assert.equal(stream.fault, null);
  // The schedule is absolute, so these lower bounds hold however loaded the machine is.
  assert.ok(stream.first_token_ns - stream.recv_ns >= 15e6, "TTFT follows --ttft-ms");
  assert.ok(stream.last_byte_ns - stream.recv_ns >= 15e6 + 24 * 2e6, "ITL follows --itl-ms");
  assert.ok(stream.last_byte_ns >= stream.first_token_ns);
  const buffered = lines.find((l) => l.inference_id === "inv-nonstream-1");
  assert.equal(buffered.tokens, 7);
  assert.ok(buffered.last_byte_ns >= buffered.recv_ns);
  assert.ok(lines.find((l) => l.inference_id === "oa-1" && l.endpoint === null && l.tokens === 10));
  const rejected = lines.filter((l) => l.status === 400 || l.status === 424);
  assert.ok(rejected.length >= 5, "validation errors are recorded too, with their status");
  assert.ok(rejected.every((l) => l.tokens === 0 && l.first_token_ns === null));
});

test("faults: stream errors, throttling, drops and empty answers are visible to the SDK", async () => {
  const faulty = await startMock(["--no-auth", "--ttft-ms", "1", "--itl-ms", "0", "--fault", "stream-error:1"]);
  const c = new SageMakerRuntimeClient({ endpoint: faulty.url, region: "us-east-1", credentials: KEY, maxAttempts: 1 });
  const out = await c.send(new InvokeEndpointWithResponseStreamCommand({
    EndpointName: "mock-endpoint", Body: chatBody(8, { stream: true }), ContentType: "application/json",
  }));
  await assert.rejects(async () => { for await (const ev of out.Body) void ev; },
    (e) => e.name === "ModelStreamError" && e.ErrorCode === "ModelInvocationTimeExceeded");
  c.destroy();
  await faulty.stop();

  const throttled = await startMock(["--no-auth", "--ttft-ms", "0", "--fault", "throttle:1"]);
  const t = new SageMakerRuntimeClient({ endpoint: throttled.url, region: "us-east-1", credentials: KEY, maxAttempts: 1 });
  await assert.rejects(
    t.send(new InvokeEndpointCommand({ EndpointName: "mock-endpoint", Body: chatBody(2), ContentType: "application/json" })),
    (e) => e.name === "ThrottlingException" && e.$metadata.httpStatusCode === 400,
  );
  t.destroy();
  await throttled.stop();

  const corrupt = await startMock(["--no-auth", "--ttft-ms", "0", "--itl-ms", "0", "--fault", "corrupt-crc:1"]);
  const k = new SageMakerRuntimeClient({ endpoint: corrupt.url, region: "us-east-1", credentials: KEY, maxAttempts: 1 });
  const bad = await k.send(new InvokeEndpointWithResponseStreamCommand({
    EndpointName: "mock-endpoint", Body: chatBody(6, { stream: true }), ContentType: "application/json",
  }));
  await assert.rejects(async () => { for await (const ev of bad.Body) void ev; }, /checksum/i);
  k.destroy();
  await corrupt.stop();

  const dropping = await startMock(["--no-auth", "--ttft-ms", "0", "--itl-ms", "1", "--fault", "drop:1"]);
  const d = new SageMakerRuntimeClient({ endpoint: dropping.url, region: "us-east-1", credentials: KEY, maxAttempts: 1 });
  await assert.rejects(async () => {
    const o = await d.send(new InvokeEndpointWithResponseStreamCommand({
      EndpointName: "mock-endpoint", Body: chatBody(10, { stream: true }), ContentType: "application/json",
    }));
    for await (const ev of o.Body) void ev;
  });
  d.destroy();
  await dropping.stop();

  const empty = await startMock(["--no-auth", "--ttft-ms", "0", "--fault", "empty:1"]);
  const e = new SageMakerRuntimeClient({ endpoint: empty.url, region: "us-east-1", credentials: KEY, maxAttempts: 1 });
  const eo = await e.send(new InvokeEndpointCommand({ EndpointName: "mock-endpoint", Body: chatBody(5), ContentType: "application/json" }));
  const eb = JSON.parse(Buffer.from(eo.Body).toString());
  assert.equal(eb.choices[0].message.content, "");
  assert.equal(eb.usage.completion_tokens, 0);
  e.destroy();
  await empty.stop();
});
