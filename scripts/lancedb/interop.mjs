// LanceDB side of the lance writer's interop check and size/speed benchmark.
// Run with NODE_PATH pointing at a node_modules holding @lancedb/lancedb and
// apache-arrow (npm install @lancedb/lancedb apache-arrow).
//
//   node interop.mjs create DIR NAME IPC_FILE [VERSION]  create table NAME from an
//        Arrow IPC file (VERSION "2.0"|"2.1"|"2.2", default LanceDB's own);
//        prints {"ms": write time, "rows": n}
//   node interop.mjs dump DIR NAME OUT_JSONL             write every row as JSON
//   node interop.mjs add DIR NAME IPC_FILE               append the rows of an IPC file
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

// ES modules ignore NODE_PATH: resolve the packages from it by hand.
const require = createRequire(process.env.NODE_PATH ? join(process.env.NODE_PATH.split(":")[0], "_.js") : import.meta.url);
const lancedb = require("@lancedb/lancedb");
const { tableFromIPC } = require("apache-arrow");

const [cmd, dir, name, arg, version] = process.argv.slice(2);
const db = await lancedb.connect(dir);

function json(v) {
  return JSON.stringify(v, (_, x) => {
    if (typeof x === "bigint") return x.toString();
    if (x instanceof Uint8Array) return Array.from(x);
    if (x && typeof x === "object" && typeof x.toJSON !== "function" && x[Symbol.iterator] && !Array.isArray(x)) return Array.from(x);
    return x;
  });
}

if (cmd === "create") {
  const table = tableFromIPC(readFileSync(arg));
  const opts = { mode: "overwrite" };
  if (version) opts.storageOptions = { new_table_data_storage_version: version };
  const t0 = performance.now();
  const t = await db.createTable(name, table, opts);
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ ms, rows: await t.countRows() }));
} else if (cmd === "add") {
  const t = await db.openTable(name);
  await t.add(tableFromIPC(readFileSync(arg)));
  console.log(JSON.stringify({ rows: await t.countRows() }));
} else if (cmd === "dump") {
  const t = await db.openTable(name);
  const r = await t.query().toArrow();
  const lines = [];
  for (const row of r) lines.push(json(row.toJSON()));
  writeFileSync(arg, lines.join("\n") + "\n");
  console.log(JSON.stringify({ rows: r.numRows }));
} else {
  console.error("usage: interop.mjs create|add|dump DIR NAME ...");
  process.exit(2);
}
