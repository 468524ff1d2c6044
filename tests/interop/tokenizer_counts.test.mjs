// tokenizer_counts.test.mjs - `smfw run --tokenizer` counts every record's input and output
// tokens as AIPerf does (the tokenizer over the prompt text and over the generated text,
// add_special_tokens=False), checked against @lenml/tokenizers (transformers.js) on what the
// run itself wrote: inputs.json (the prompts sent), outputs.json (the texts received) and
// profile_export.jsonl (the counts). smfw-mock reports its own usage counts, which differ
// from the tokenizer's: the test also shows the tokenizer's counts won over the server's, and
// checks each record's token_count_source and AIPerf's usage-discrepancy metrics.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { lenmlTokenizer } from "./lenml_tokenizer.mjs";

const BUILD = process.env.SMFW_BUILD_DIR ?? "build";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "smfw-tokcount-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

function run(name, args) {
  const out = path.join(scratch, name);
  const r = spawnSync(path.join(BUILD, "smfw"),
    ["run", "--endpoint", "mock", "-q", "-o", out, ...args],
    { encoding: "utf8", env: { ...process.env, HOME: scratch, AWS_EC2_METADATA_DISABLED: "true" } });
  assert.equal(r.status, 0, `smfw run ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  const read = (f) => fs.readFileSync(path.join(out, f), "utf8");
  const prompts = new Map(JSON.parse(read("inputs.json")).data.map(
    (e) => [e.session_id, e.payloads[0].messages ? e.payloads[0].messages.at(-1).content
      : e.payloads[0].prompt]));
  const outputs = new Map(JSON.parse(read("outputs.json")).data.map((e) => [e.session_num, e.output ?? ""]));
  const records = read("profile_export.jsonl").trim().split("\n").map((l) => JSON.parse(l));
  const summary = JSON.parse(read("profile_export_aiperf.json"));
  return { prompts, outputs, records, summary };
}

for (const [model, streaming] of [["qwen3", true], ["llama3_1", false]]) {
  test(`--tokenizer ${model} (${streaming ? "streaming" : "non-streaming"}): ISL and OSL = @lenml/tokenizers`, async () => {
    const { dir, oracle } = await lenmlTokenizer(model, path.join(scratch, model));
    const tok = oracle();
    const args = ["-n", "24", "--concurrency", "4", "--tokenizer", dir,
      "--mock-arg=--output-tokens=37", ...(streaming ? [] : ["--no-streaming"])];
    const r = run(`${model}-${streaming}`, args);
    assert.equal(r.records.length, 24);
    let serverDiffers = 0, compared = 0, discrepant = 0;
    for (const rec of r.records) {
      const m = rec.metrics;
      const prompt = r.prompts.get(rec.metadata.conversation_id);
      const output = r.outputs.get(rec.metadata.session_num);
      assert.ok(prompt !== undefined && output !== undefined, `record ${rec.metadata.session_num}: no input or output`);
      const isl = tok.encode(prompt, { add_special_tokens: false }).length;
      const osl = tok.encode(output, { add_special_tokens: false }).length;
      assert.equal(m.input_sequence_length.value, isl, `ISL of ${JSON.stringify(prompt.slice(0, 60))}`);
      assert.equal(m.output_sequence_length.value, osl, `OSL of ${JSON.stringify(output.slice(0, 60))}`);
      if (m.usage_prompt_tokens && m.usage_prompt_tokens.value !== isl) serverDiffers++;
      // Each record names its source, and carries AIPerf's usage differences against the
      // oracle's counts (|usage - count| / count x 100, the same doubles in JS as in Python).
      assert.equal(rec.smfw?.token_count_source, "tokenizer:" + model);
      const diffs = {};
      for (const [tag, usage, count] of [["prompt", m.usage_prompt_tokens, isl],
        ["completion", m.usage_completion_tokens, osl]]) {
        const got = m[`usage_${tag}_tokens_diff_pct`];
        if (!usage || count === 0) {
          assert.equal(got, undefined, `${tag} difference without a usage count or against 0`);
          continue;
        }
        diffs[tag] = (Math.abs(usage.value - count) / count) * 100.0;
        assert.deepEqual(got, { value: diffs[tag], unit: "%" }, `usage_${tag}_tokens_diff_pct`);
      }
      // AIPerf's UsageDiscrepancyCountMetric: both differences needed, any over 10 % counts
      if ("prompt" in diffs && "completion" in diffs) {
        compared++;
        if (diffs.prompt > 10 || diffs.completion > 10) discrepant++;
      }
    }
    assert.ok(compared > 0, "no record had both differences: the count is not exercised");
    assert.deepEqual(r.summary.usage_discrepancy_count, { unit: "requests", avg: discrepant });
    for (const tag of ["prompt", "completion"])
      assert.equal(r.summary[`usage_${tag}_tokens_diff_pct`].count, compared);
    // The mock's usage is its own count: the test would pass on usage alone otherwise.
    assert.ok(serverDiffers > 0, "the server's usage equals the tokenizer's everywhere: nothing shown");
    assert.equal(findSource(r.summary),
      "tokenizer:" + model);
    console.log(`${model}: 24 records, ISL and OSL identical; server usage differed on ${serverDiffers}; ` +
      `usage_discrepancy_count ${discrepant} of ${compared}`);
  });
}

// Without a tokenizer the counts are the server's own: each record says so, and there is no
// usage difference to report (AIPerf computes them only from its own tokenizer's counts).
test("without --tokenizer: token_count_source server_usage, no usage differences", () => {
  const r = run("no-tokenizer", ["-n", "8", "--mock-arg=--output-tokens=37"]);
  assert.equal(r.records.length, 8);
  for (const rec of r.records) {
    assert.equal(rec.smfw?.token_count_source, "server_usage");
    assert.equal(rec.metrics.input_sequence_length.value, rec.metrics.usage_prompt_tokens.value);
    for (const tag of Object.keys(rec.metrics)) assert.ok(!tag.endsWith("_diff_pct"), tag);
  }
  for (const tag of Object.keys(r.summary))
    assert.ok(!tag.endsWith("_diff_pct") && tag !== "usage_discrepancy_count", tag);
  assert.equal(findSource(r.summary), "server_usage");
  // A stream without usage: the output is counted in content chunks, and each record says so.
  const c = run("no-usage", ["-n", "4", "--no-include-usage", "--mock-arg=--output-tokens=37"]);
  for (const rec of c.records) {
    assert.equal(rec.smfw?.token_count_source, "content_chunks");
    assert.equal(rec.metrics.usage_prompt_tokens, undefined);
  }
  assert.equal(findSource(c.summary), "content_chunks");
});

function findSource(o) {
  if (o && typeof o === "object") {
    if (typeof o.token_count_source === "string") return o.token_count_source;
    for (const v of Object.values(o)) {
      const s = findSource(v);
      if (s) return s;
    }
  }
  return undefined;
}

// `smfw dataset show --tokenizer`: the exact input-token row equals the oracle's counts of the
// curated set's prompts (nearest-rank percentiles, as the table defines them).
test("dataset show curated --tokenizer qwen3: the table's row = @lenml/tokenizers", async () => {
  const { dir, oracle } = await lenmlTokenizer("qwen3", path.join(scratch, "qwen3-show"));
  const tok = oracle();
  const src = process.env.SMFW_SOURCE_DIR ?? "..";
  const texts = fs.readFileSync(path.join(src, "datasets", "curated.jsonl"), "utf8").trim()
    .split("\n").map((l) => JSON.parse(l).text);
  const counts = texts.map((t) => tok.encode(t, { add_special_tokens: false }).length)
    .sort((a, b) => a - b);
  const rank = (p) => counts[Math.min(counts.length, Math.max(1, Math.ceil((p / 100) * counts.length - 1e-9))) - 1];
  const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
  const want = [counts.length, counts[0], rank(10), rank(25), rank(50), rank(75), rank(90), rank(99),
    counts.at(-1), mean.toFixed(1)].map(String);
  const r = spawnSync(path.join(BUILD, "smfw"), ["dataset", "show", "curated", "--prompts", "0",
    "--tokenizer", dir], { encoding: "utf8", env: { ...process.env, HOME: scratch } });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const row = r.stdout.split("\n").find((l) => l.startsWith("| input tokens (qwen3-show)"));
  assert.ok(row, `no tokenizer row in:\n${r.stdout}`);
  const got = row.split("|").slice(2, 12).map((c) => c.trim());
  assert.deepEqual(got, want);
  console.log(`dataset show: ${counts.length} curated prompts, median ${rank(50)} Qwen3 tokens, the same as @lenml`);
});

// Synthetic prompts of an exact length: with --tokenizer each prompt is cut where the tokenizer
// counts the drawn target, so the oracle's counts of the prompts sent have exactly the
// statistics of the draws (`dataset show synthetic` without a tokenizer: the same seed draws
// the same targets).
test("synthetic --tokenizer qwen3: every prompt has the drawn length in @lenml's count", async () => {
  const { dir, oracle } = await lenmlTokenizer("qwen3", path.join(scratch, "qwen3-synth"));
  const tok = oracle();
  const shape = ["--input-tokens-mean", "150", "--input-tokens-stddev", "40", "--random-seed", "5"];
  const r = run("synth", ["-n", "40", "--dataset", "synthetic", "--tokenizer", dir, ...shape]);
  const counts = [...r.prompts.values()].map((t) => tok.encode(t, { add_special_tokens: false }).length)
    .sort((a, b) => a - b);
  assert.equal(counts.length, 40);
  const rank = (p) => counts[Math.min(counts.length, Math.max(1, Math.ceil((p / 100) * counts.length - 1e-9))) - 1];
  const mine = [counts.length, counts[0], rank(10), rank(25), rank(50), rank(75), rank(90), rank(99),
    counts.at(-1), (counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(1)].map(String);
  const show = spawnSync(path.join(BUILD, "smfw"), ["dataset", "show", "synthetic", "--prompts", "0",
    "--request-count", "40", ...shape], { encoding: "utf8", env: { ...process.env, HOME: scratch } });
  assert.equal(show.status, 0, show.stdout + show.stderr);
  const row = show.stdout.split("\n").find((l) => l.startsWith("| input tokens (estimated)"));
  assert.deepEqual(mine, row.split("|").slice(2, 12).map((c) => c.trim()), `draws: ${row}`);
  // and each record's ISL is its prompt's count (the run's own check above holds here too)
  for (const rec of r.records)
    assert.equal(rec.metrics.input_sequence_length.value,
      tok.encode(r.prompts.get(rec.metadata.conversation_id), { add_special_tokens: false }).length);
  console.log(`synthetic: 40 prompts of exactly the drawn lengths (median ${rank(50)} Qwen3 tokens)`);
});
