// js_stream_client.mjs - the reference streaming client for bench/direct_vs_wrk_js.sh:
// the AWS SDK for JavaScript v3 calling InvokeEndpointWithResponseStream with N
// requests kept in flight, reading every PayloadPart. Prints one JSON line.
// usage: node js_stream_client.mjs URL ENDPOINT CONCURRENCY REQUESTS
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../tests/interop/package.json"));
const { SageMakerRuntimeClient, InvokeEndpointWithResponseStreamCommand } = require(
  "@aws-sdk/client-sagemaker-runtime");
const { NodeHttpHandler } = require("@smithy/node-http-handler");
const http = require("node:http");

const [url, endpoint, concArg, countArg] = process.argv.slice(2);
const concurrency = Number(concArg), total = Number(countArg);
const client = new SageMakerRuntimeClient({
  endpoint: url, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY },
  requestHandler: new NodeHttpHandler({ httpAgent: new http.Agent({ keepAlive: true, maxSockets: concurrency }) }),
});
const body = JSON.stringify({ messages: [{ role: "user", content: "Say something about benchmarks." }],
  stream: true, max_completion_tokens: 8 });
let next = 0, done = 0, errors = 0;
const t0 = process.hrtime.bigint();
async function worker() {
  while (next < total) {
    next++;
    try {
      const out = await client.send(new InvokeEndpointWithResponseStreamCommand({
        EndpointName: endpoint, ContentType: "application/json", Accept: "application/json", Body: body }));
      for await (const ev of out.Body) { if (ev.PayloadPart) { /* consume */ } }
      done++;
    } catch (e) { errors++; }
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ requests: done, errors, seconds: secs, rps: done / secs }));
