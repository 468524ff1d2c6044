// Cross-checks smfw's event-stream codec (tests/interop/tool_eventstream.c) against the AWS
// SDK for JavaScript's own codec (@smithy/eventstream-codec), both ways, on randomized
// messages that use every header type. Seeded, so a failure reproduces: set
// SMFW_INTEROP_SEED to replay another seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import codecPkg from "@smithy/eventstream-codec";

const { EventStreamCodec, Int64 } = codecPkg;
const BUILD = process.env.SMFW_BUILD_DIR;
const TESTDATA = process.env.SMFW_TESTDATA_DIR;
const TOOL = path.join(BUILD ?? "build", "tests", "interop", "tool_eventstream");
const SEED = Number(process.env.SMFW_INTEROP_SEED ?? 20260401);

const codec = new EventStreamCodec(
  (b) => Buffer.from(b).toString("utf8"),
  (s) => new Uint8Array(Buffer.from(s, "utf8")),
);

// mulberry32: small, seedable, good enough to pick test inputs.
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const bytes = (n) => Uint8Array.from({ length: n }, () => int(0, 255));
  return { next, int, bytes };
}

const TEXT = ["a", "Z", "0", " ", "é", "€", "日本", "😀", "\n", "\"", "\\", "data: "];

function randomString(r, maxBytes) {
  const parts = [];
  const target = r.int(0, maxBytes);
  let bytes = 0;
  while (bytes < target) {
    const piece = TEXT[r.int(0, TEXT.length - 1)];
    if (bytes + Buffer.byteLength(piece) > maxBytes) break; // never split a character
    parts.push(piece);
    bytes += Buffer.byteLength(piece);
  }
  return parts.join("");
}

function randomLength(r, small, big) {
  return r.next() < 0.9 ? r.int(0, small) : r.int(0, big);
}

// A message model: { headers: [{ name, type, value }], payload: Uint8Array }.
// value: boolean (0,1), number (2,3,4,8), BigInt (5), Uint8Array (6,9), string (7).
function randomMessage(r) {
  const headers = [];
  const names = new Set();
  const count = r.int(0, 12);
  for (let i = 0; i < count; i++) {
    // Names start with a letter: JS objects reorder integer-like keys.
    let name;
    do {
      name = ":x-" + randomString(r, 20).replace(/[^ -~]/g, "q") + "-" + i;
      if (Buffer.byteLength(name) > 255) name = name.slice(0, 200);
    } while (names.has(name));
    names.add(name);
    const type = r.int(0, 9);
    let value;
    switch (type) {
      case 0: value = true; break;
      case 1: value = false; break;
      case 2: value = r.int(-128, 127); break;
      case 3: value = r.int(-32768, 32767); break;
      case 4: value = r.int(-2147483648, 2147483647); break;
      case 5: value = BigInt.asIntN(64, BigInt("0x" + Buffer.from(r.bytes(8)).toString("hex"))); break;
      case 6: value = r.bytes(randomLength(r, 40, 32767)); break;
      case 7: value = randomString(r, randomLength(r, 40, 32767)); break;
      case 8: value = r.int(-8.64e15, 8.64e15); break;
      case 9: value = r.bytes(16); break;
    }
    headers.push({ name, type, value });
  }
  return { headers, payload: r.bytes(randomLength(r, 300, 200000)) };
}

const b64 = (u8) => Buffer.from(u8).toString("base64");
const unb64 = (s) => new Uint8Array(Buffer.from(s, "base64"));
const int64Bytes = (big) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(big);
  return new Uint8Array(b);
};
const uuidString = (u8) => {
  const h = Buffer.from(u8).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

function toSmithy(m) {
  const tags = ["boolean", "boolean", "byte", "short", "integer", "long", "binary", "string", "timestamp", "uuid"];
  const headers = {};
  for (const h of m.headers) {
    let value = h.value;
    if (h.type === 5) value = new Int64(int64Bytes(h.value));
    if (h.type === 8) value = new Date(h.value);
    if (h.type === 9) value = uuidString(h.value);
    headers[h.name] = { type: tags[h.type], value };
  }
  return { headers, body: m.payload };
}

function toToolJson(m) {
  return {
    headers: m.headers.map(({ name, type, value }) => {
      if (type === 5 || type === 8) return { name, type, value: String(value) };
      if (type === 6 || type === 9) return { name, type, value: b64(value) };
      if (type === 7) return { name, type, value: b64(Buffer.from(value, "utf8")) };
      return { name, type, value };
    }),
    payload: b64(m.payload),
  };
}

// Compare what the C decoder printed with the model it came from.
function assertToolMatches(got, m, where) {
  assert.equal(got.headers.length, m.headers.length, `${where}: header count`);
  m.headers.forEach((h, i) => {
    const g = got.headers[i];
    assert.equal(g.name, h.name, `${where}: header ${i} name`);
    assert.equal(g.type, h.type, `${where}: header ${h.name} type`);
    switch (h.type) {
      case 0: case 1: assert.equal(g.value, h.type === 0); break;
      case 2: case 3: case 4: assert.equal(g.value, h.value, `${where}: ${h.name}`); break;
      case 5: case 8: assert.equal(BigInt(g.value), BigInt(h.value), `${where}: ${h.name}`); break;
      case 7: assert.equal(Buffer.from(g.value, "base64").toString("utf8"), h.value); break;
      default: assert.deepEqual(unb64(g.value), new Uint8Array(h.value), `${where}: ${h.name}`);
    }
  });
  assert.deepEqual(unb64(got.payload), new Uint8Array(m.payload), `${where}: payload`);
}

// Compare what Smithy decoded with the model.
function assertSmithyMatches(dec, m, where) {
  assert.deepEqual(Object.keys(dec.headers), m.headers.map((h) => h.name), `${where}: names`);
  for (const h of m.headers) {
    const d = dec.headers[h.name];
    switch (h.type) {
      case 0: case 1: assert.equal(d.value, h.type === 0); break;
      case 5: assert.deepEqual(new Uint8Array(d.value.bytes), int64Bytes(h.value), `${where}: ${h.name}`); break;
      case 8: assert.equal(d.value.getTime(), h.value, `${where}: ${h.name}`); break;
      case 9: assert.equal(d.value, uuidString(h.value)); break;
      case 6: assert.deepEqual(new Uint8Array(d.value), h.value); break;
      default: assert.equal(d.value, h.value, `${where}: ${h.name}`);
    }
  }
  assert.deepEqual(new Uint8Array(dec.body), m.payload, `${where}: payload`);
}

function runTool(args, input) {
  const res = spawnSync(TOOL, args, { input, maxBuffer: 1 << 30 });
  assert.ok(!res.error, `cannot run ${TOOL}: ${res.error}`);
  return res;
}

function splitFrames(buf) {
  const frames = [];
  for (let off = 0; off < buf.length; ) {
    const len = buf.readUInt32BE(off);
    frames.push(new Uint8Array(buf.subarray(off, off + len)));
    off += len;
  }
  return frames;
}

const concat = (arrays) => Buffer.concat(arrays.map((a) => Buffer.from(a)));

test("messages encoded by @smithy/eventstream-codec decode identically in smfw", () => {
  const r = rng(SEED);
  const models = Array.from({ length: 400 }, () => randomMessage(r));
  const frames = models.map((m) => codec.encode(toSmithy(m)));
  const stream = concat(frames);
  for (const split of ["", "1", "13", `random:${SEED}`]) {
    const res = runTool(split ? ["decode", split] : ["decode"], stream);
    assert.equal(res.status, 0, `split ${split}: ${res.stdout}${res.stderr}`);
    const got = JSON.parse(res.stdout.toString());
    assert.equal(got.length, models.length);
    got.forEach((g, i) => {
      assertToolMatches(g, models[i], `message ${i} (split ${split || "none"})`);
      const view = Buffer.from(frames[i]);
      assert.equal(g.total_length, view.length);
      assert.equal(g.headers_length, view.readUInt32BE(4));
      assert.equal(g.prelude_crc, view.readUInt32BE(8));
      assert.equal(g.message_crc, view.readUInt32BE(view.length - 4));
    });
  }
});

test("messages encoded by smfw decode identically in @smithy/eventstream-codec", () => {
  const r = rng(SEED + 1);
  const models = Array.from({ length: 400 }, () => randomMessage(r));
  const res = runTool(["encode"], JSON.stringify(models.map(toToolJson)));
  assert.equal(res.status, 0, res.stderr.toString());
  const frames = splitFrames(res.stdout);
  assert.equal(frames.length, models.length);
  frames.forEach((f, i) => {
    assertSmithyMatches(codec.decode(f), models[i], `message ${i}`);
    // The encoding is canonical: both sides produce the same bytes.
    assert.deepEqual(f, codec.encode(toSmithy(models[i])), `message ${i} bytes`);
  });
});

test("a flipped bit is rejected by both codecs, for the same reason", () => {
  const r = rng(SEED + 2);
  for (let i = 0; i < 200; i++) {
    const frame = Buffer.from(codec.encode(toSmithy(randomMessage(r))));
    const pos = r.int(0, frame.length - 1);
    frame[pos] ^= 1 << r.int(0, 7);
    assert.throws(() => codec.decode(new Uint8Array(frame)), undefined, `smithy accepted flip at ${pos}`);
    const res = runTool(["decode", "1"], frame);
    assert.equal(res.status, 1, `smfw accepted a flip at byte ${pos}: ${res.stdout}`);
    const out = JSON.parse(res.stdout.toString());
    const expected = pos < 12 ? "prelude checksum mismatch" : "message checksum mismatch";
    // The prelude CRC guards the lengths, so a flip there never reaches the length checks.
    assert.equal(out.fault, expected, `flip at ${pos}: ${out.error}`);
    assert.deepEqual(out.decoded, []);
  }
});

test("the shared vectors decode the same in both codecs", { skip: !TESTDATA }, () => {
  const dirs = ["encoded/positive", "sagemaker-synthetic/encoded"].map((d) => path.join(TESTDATA, "eventstream", d));
  let checked = 0;
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      const bytes = readFileSync(path.join(dir, name));
      const res = runTool(["decode", "1"], bytes);
      assert.equal(res.status, 0, `${name}: ${res.stdout}`);
      const ours = JSON.parse(res.stdout.toString());
      const theirs = splitFrames(bytes).map((f) => codec.decode(f));
      assert.equal(ours.length, theirs.length);
      ours.forEach((o, i) => {
        assert.deepEqual(o.headers.map((h) => h.name), Object.keys(theirs[i].headers), name);
        assert.deepEqual(unb64(o.payload), new Uint8Array(theirs[i].body), name);
        checked++;
      });
    }
  }
  assert.equal(checked, 12);
});
