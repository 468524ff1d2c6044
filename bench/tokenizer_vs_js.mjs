// Helper of bench/tokenizer_vs_js.sh: prepares the input and the ranks, and
// times js-tiktoken and tiktoken (WASM) on the same texts.
//   node tokenizer_vs_js.mjs prepare WORK REPEAT
//   node tokenizer_vs_js.mjs time WORK ENCODING   -> "js_ms wasm_ms tokens"
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "tests", "interop", "package.json"));
const [, , cmd, work, arg] = process.argv;

if (cmd === "prepare") {
  for (const name of ["o200k_base", "cl100k_base"]) {
    const ranks = require(`js-tiktoken/ranks/${name}`).default ?? require(`js-tiktoken/ranks/${name}`);
    const out = [];
    for (const line of ranks.bpe_ranks.split("\n")) {
      if (!line) continue;
      const [, offset, ...tokens] = line.split(" ");
      let r = Number.parseInt(offset, 10);
      for (const t of tokens) out.push(`${t} ${r++}`);
    }
    fs.writeFileSync(path.join(work, `${name}.tiktoken`), out.join("\n") + "\n");
  }
  const src = path.join(here, "..", "datasets");
  const texts = [
    ...fs.readFileSync(path.join(src, "curated.jsonl"), "utf8").split("\n").filter(Boolean)
      .map((l) => JSON.parse(l).text),
    ...fs.readFileSync(path.join(src, "synthetic_corpus.txt"), "utf8").split("\n").filter(Boolean),
  ];
  const lines = [];
  for (let i = 0; i < Number(arg); i++) for (const t of texts) lines.push(JSON.stringify(t));
  fs.writeFileSync(path.join(work, "input.jsonl"), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(work, "empty.jsonl"), "");
} else {
  const texts = fs.readFileSync(path.join(work, "input.jsonl"), "utf8").split("\n").filter(Boolean)
    .map((l) => JSON.parse(l));
  const { getEncoding } = require("js-tiktoken");
  const { get_encoding } = require("tiktoken");
  const best = (f) => {
    let b = Infinity, n = 0;
    for (let r = 0; r < 3; r++) {
      const t0 = process.hrtime.bigint();
      n = f();
      b = Math.min(b, Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return [b, n];
  };
  const js = getEncoding(arg);
  const wasm = get_encoding(arg);
  const [jsMs, n1] = best(() => texts.reduce((s, t) => s + js.encode(t, "all").length, 0));
  const [wasmMs, n2] = best(() => texts.reduce((s, t) => s + wasm.encode(t, "all").length, 0));
  wasm.free();
  if (n1 !== n2) throw new Error(`token totals differ: ${n1} ${n2}`);
  console.log(`${jsMs.toFixed(1)} ${wasmMs.toFixed(1)} ${n1}`);
}
