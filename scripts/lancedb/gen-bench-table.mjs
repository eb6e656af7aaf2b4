// gen-bench-table.mjs DIR [--rows N] [--vector-rows N]
//
// Writes the benchmark tables of lance.BenchmarkLanceDBTable with LanceDB
// 0.39 (lance 12), once per Lance file format:
//
//   DIR/2.2/scalars.lance  DIR/2.2/vectors.lance   (LanceDB's default format)
//   DIR/2.1/...            DIR/2.0/...
//
// The format is chosen per table with storageOptions
// { new_table_data_storage_version: "2.x" } (0.39 deprecates the
// dataStorageVersion connection option in its favour).
//
// scalars (default 300,000 rows, ~45 MB of Arrow):
//   id int64 (sequence, no nulls), i64 int64 (wide random, 5% null),
//   f64 float64 (random, 5% null), small int32 0..99 (no nulls),
//   flag bool (10% null), short utf8 4..16 chars (5% null),
//   long utf8 log lines 60..200 bytes, category utf8 of 12 values (3% null),
//   tags list<int32> 0..8 items (5% null lists, 2% null items).
// vectors (default 20,000 rows, ~61 MB of Arrow):
//   id int64, vec fixed_size_list<float32, 768> (1% null vectors).
//
// The Arrow data is built with makeData from a fixed-seed PRNG, so the
// rows are the same on every run; file names, UUIDs and timestamps differ.
import * as lancedb from "@lancedb/lancedb";
import * as arrow from "apache-arrow";
import fs from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
if (args.length < 1 || args[0].startsWith("-")) {
  console.error("usage: node gen-bench-table.mjs DIR [--rows N] [--vector-rows N] [--formats 2.2,2.1,2.0]");
  process.exit(2);
}
const dir = path.resolve(args[0]);
let rows = 300_000;
let vectorRows = 20_000;
let formats = ["2.2", "2.1", "2.0"];
for (let i = 1; i < args.length; i += 2) {
  const v = args[i + 1];
  if (args[i] === "--rows") rows = Number(v);
  else if (args[i] === "--vector-rows") vectorRows = Number(v);
  else if (args[i] === "--formats") formats = v.split(",");
  else {
    console.error(`unknown flag ${args[i]}`);
    process.exit(2);
  }
}
const BATCH = 65_536;
const DIM = 768;

// mulberry32: small, fast, fixed-seed PRNG.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const enc = new TextEncoder();
const words = ["GET", "POST", "PUT", "DELETE", "/api/v1/users", "/api/v1/orders", "/static/app.js", "status=200",
  "status=404", "status=500", "latency_ms=", "user_id=", "region=eu-west-1", "region=us-east-2", "cache=hit",
  "cache=miss", "trace=", "agent=Mozilla/5.0", "agent=curl/8.4.0", "bytes="];
const categories = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"];
const alnum = "abcdefghijklmnopqrstuvwxyz0123456789";

class Validity {
  constructor(n) {
    this.bits = new Uint8Array((n + 7) >> 3).fill(0xff);
    this.nulls = 0;
  }
  clear(i) {
    this.bits[i >> 3] &= ~(1 << (i & 7));
    this.nulls++;
  }
}

function strings(n, r, nullRate, gen) {
  const offsets = new Int32Array(n + 1);
  const parts = [];
  const v = new Validity(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (nullRate > 0 && r() < nullRate) {
      v.clear(i);
    } else {
      const b = enc.encode(gen(i));
      parts.push(b);
      total += b.length;
    }
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    data.set(p, o);
    o += p.length;
  }
  return arrow.makeData({ type: new arrow.Utf8(), length: n, nullCount: v.nulls, nullBitmap: v.nulls ? v.bits : null, valueOffsets: offsets, data });
}

const scalarFields = [
  new arrow.Field("id", new arrow.Int64(), false),
  new arrow.Field("i64", new arrow.Int64(), true),
  new arrow.Field("f64", new arrow.Float64(), true),
  new arrow.Field("small", new arrow.Int32(), false),
  new arrow.Field("flag", new arrow.Bool(), true),
  new arrow.Field("short", new arrow.Utf8(), true),
  new arrow.Field("long", new arrow.Utf8(), true),
  new arrow.Field("category", new arrow.Utf8(), true),
  new arrow.Field("tags", new arrow.List(new arrow.Field("item", new arrow.Int32(), true)), true),
];

function scalarBatch(start, n, r) {
  const id = new BigInt64Array(n);
  const i64 = new BigInt64Array(n);
  const vi64 = new Validity(n);
  const f64 = new Float64Array(n);
  const vf64 = new Validity(n);
  const small = new Int32Array(n);
  const flag = new Uint8Array((n + 7) >> 3);
  const vflag = new Validity(n);
  for (let i = 0; i < n; i++) {
    id[i] = BigInt(start + i);
    if (r() < 0.05) vi64.clear(i);
    else i64[i] = BigInt(Math.floor((r() - 0.5) * 2 ** 52)) * 1021n;
    if (r() < 0.05) vf64.clear(i);
    else f64[i] = (r() - 0.5) * 1e6;
    small[i] = Math.floor(r() * 100);
    if (r() < 0.1) vflag.clear(i);
    else if (r() < 0.5) flag[i >> 3] |= 1 << (i & 7);
  }
  const short = strings(n, r, 0.05, () => {
    let s = "";
    const len = 4 + Math.floor(r() * 13);
    for (let k = 0; k < len; k++) s += alnum[Math.floor(r() * alnum.length)];
    return s;
  });
  const long = strings(n, r, 0, () => {
    let s = `2026-11-25T${String(Math.floor(r() * 24)).padStart(2, "0")}:${String(Math.floor(r() * 60)).padStart(2, "0")}:00Z`;
    const target = 60 + Math.floor(r() * 141);
    while (s.length < target) {
      const w = words[Math.floor(r() * words.length)];
      s += " " + w + (w.endsWith("=") ? Math.floor(r() * 100000) : "");
    }
    return s.slice(0, target);
  });
  const category = strings(n, r, 0.03, () => categories[Math.floor(r() * categories.length)]);
  // tags: list<int32>
  const toffsets = new Int32Array(n + 1);
  const vtags = new Validity(n);
  const items = [];
  const vitems = [];
  for (let i = 0; i < n; i++) {
    if (r() < 0.05) vtags.clear(i);
    else {
      const k = Math.floor(r() * 9);
      for (let j = 0; j < k; j++) {
        const isNull = r() < 0.02;
        vitems.push(!isNull);
        items.push(isNull ? 0 : Math.floor(r() * 1000));
      }
    }
    toffsets[i + 1] = items.length;
  }
  const vit = new Validity(items.length);
  vitems.forEach((ok, i) => ok || vit.clear(i));
  const itemData = arrow.makeData({ type: new arrow.Int32(), length: items.length, nullCount: vit.nulls, nullBitmap: vit.nulls ? vit.bits : null, data: Int32Array.from(items) });
  const fixed = (type, data, v) => arrow.makeData({ type, length: n, nullCount: v ? v.nulls : 0, nullBitmap: v && v.nulls ? v.bits : null, data });
  const children = [
    fixed(new arrow.Int64(), id),
    fixed(new arrow.Int64(), i64, vi64),
    fixed(new arrow.Float64(), f64, vf64),
    fixed(new arrow.Int32(), small),
    fixed(new arrow.Bool(), flag, vflag),
    short,
    long,
    category,
    arrow.makeData({ type: scalarFields[8].type, length: n, nullCount: vtags.nulls, nullBitmap: vtags.bits, valueOffsets: toffsets, child: itemData }),
  ];
  const schema = new arrow.Schema(scalarFields);
  return new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(scalarFields), length: n, nullCount: 0, children }));
}

const vecType = new arrow.FixedSizeList(DIM, new arrow.Field("item", new arrow.Float32(), true));
const vectorFields = [new arrow.Field("id", new arrow.Int64(), false), new arrow.Field("vec", vecType, true)];

function vectorBatch(start, n, r) {
  const id = new BigInt64Array(n);
  const vals = new Float32Array(n * DIM);
  const v = new Validity(n);
  for (let i = 0; i < n; i++) {
    id[i] = BigInt(start + i);
    if (r() < 0.01) v.clear(i);
    for (let k = 0; k < DIM; k++) vals[i * DIM + k] = r() * 2 - 1;
  }
  const child = arrow.makeData({ type: new arrow.Float32(), length: n * DIM, nullCount: 0, data: vals });
  const children = [
    arrow.makeData({ type: new arrow.Int64(), length: n, nullCount: 0, data: id }),
    arrow.makeData({ type: vecType, length: n, nullCount: v.nulls, nullBitmap: v.bits, child }),
  ];
  return new arrow.RecordBatch(new arrow.Schema(vectorFields), arrow.makeData({ type: new arrow.Struct(vectorFields), length: n, nullCount: 0, children }));
}

function table(total, seed, make) {
  const r = rng(seed);
  const batches = [];
  for (let s = 0; s < total; s += BATCH) batches.push(make(s, Math.min(BATCH, total - s), r));
  return new arrow.Table(batches);
}

for (const fv of formats) {
  const db = await lancedb.connect(path.join(dir, fv));
  for (const [name, t] of [["scalars", () => table(rows, 1, scalarBatch)], ["vectors", () => table(vectorRows, 2, vectorBatch)]]) {
    const tbl = await db.createTable(name, t(), { mode: "overwrite", storageOptions: { new_table_data_storage_version: fv } });
    const n = await tbl.countRows();
    const files = fs.readdirSync(path.join(dir, fv, name + ".lance", "data"));
    const bytes = files.reduce((s, f) => s + fs.statSync(path.join(dir, fv, name + ".lance", "data", f)).size, 0);
    console.log(`${fv}/${name}.lance: ${n} rows, ${files.length} data file(s), ${(bytes / 1e6).toFixed(1)} MB on disk`);
    tbl.close();
  }
  db.close();
}
