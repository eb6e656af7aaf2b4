// LanceDB side of the table interop tests (lance/table_lancedb_test.go).
// Packages come from $COLFMT_LANCEDB_NODE_MODULES, else from the
// node_modules next to this script (`npm ci` in scripts/lancedb).
//
//   node table.mjs dump DIR NAME [VERSION]  every row of table NAME in database DIR
//        (at VERSION, default latest) as JSON Lines on stdout, rendered as
//        ../shared/data/lance21/README.md says (int64 as decimal strings, floats
//        as numbers, binary as base64, lists as arrays, structs as objects)
//   node table.mjs add DIR NAME N           append the table's first N rows again
//   node table.mjs create DIR NAME N [stable]  create NAME with N rows of JS objects,
//        LanceDB's default settings (schema inferred by LanceDB); "stable" turns on
//        stable row ids (new_table_enable_stable_row_ids)
//   node table.mjs info DIR NAME            {"rows", "version", "schema"} on stdout
//   node table.mjs create-ipc DIR NAME IPC  create NAME from the rows of an Arrow IPC
//        file (LanceDB's defaults); {"ms": createTable time, "rows"} on stdout
import { createRequire } from "node:module";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = process.env.COLFMT_LANCEDB_NODE_MODULES || join(here, "node_modules");
const require = createRequire(join(modules, "_.js"));
const lancedb = require("@lancedb/lancedb");

function render(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (v === Infinity) return "Infinity";
    if (v === -Infinity) return "-Infinity";
    if (Object.is(v, -0)) return "-0";
    return v;
  }
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (v instanceof Date) return v.toISOString();
  if (typeof v.toJSON === "function" && !v[Symbol.iterator]) v = v.toJSON();
  if (Array.isArray(v) || (typeof v === "object" && v[Symbol.iterator] && typeof v.get === "function")) {
    return Array.from(v, render);
  }
  if (ArrayBuffer.isView(v)) return Array.from(v, render);
  const o = {};
  for (const [k, x] of Object.entries(typeof v.toJSON === "function" ? v.toJSON() : v)) o[k] = render(x);
  return o;
}

const [cmd, dir, name, arg, arg2] = process.argv.slice(2);
const db = await lancedb.connect(dir);

if (cmd === "dump") {
  const t = await db.openTable(name);
  if (arg) await t.checkout(Number(arg));
  const r = await t.query().toArrow();
  const out = [];
  for (const row of r) {
    const o = {};
    for (const f of r.schema.fields) o[f.name] = render(row[f.name]);
    out.push(JSON.stringify(o));
  }
  process.stdout.write(out.length ? out.join("\n") + "\n" : "");
} else if (cmd === "add") {
  const t = await db.openTable(name);
  const r = await t.query().limit(Number(arg)).toArrow();
  await t.add(r);
  console.log(JSON.stringify({ rows: await t.countRows(), version: await t.version() }));
} else if (cmd === "create") {
  const rows = [];
  for (let i = 0; i < Number(arg); i++) {
    rows.push({ id: i, name: i % 5 === 3 ? null : "row-" + i, score: i / 4, vec: [i, 0.5, -1], tags: ["a", "b"].slice(0, i % 3) });
  }
  const opts = arg2 === "stable" ? { storageOptions: { new_table_enable_stable_row_ids: "true" } } : {};
  const t = await db.createTable(name, rows, opts);
  console.log(JSON.stringify({ rows: await t.countRows(), version: await t.version() }));
} else if (cmd === "create-ipc") {
  const { tableFromIPC } = require("apache-arrow");
  const { readFileSync } = await import("node:fs");
  const data = tableFromIPC(readFileSync(arg));
  const t0 = performance.now();
  const t = await db.createTable(name, data);
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ ms, rows: await t.countRows() }));
} else if (cmd === "info") {
  const t = await db.openTable(name);
  console.log(JSON.stringify({ rows: await t.countRows(), version: await t.version(), schema: (await t.schema()).toString() }));
} else {
  console.error("usage: table.mjs dump|add|create|info DIR NAME [ARG]");
  process.exit(2);
}
