// read-bench.mjs DIR [col]
//
// Times LanceDB 0.39's `(await db.openTable(t)).query().toArrow()` (full
// read) and `.select([col])` (one column) on the tables gen-bench-table.mjs
// wrote. DIR is either one database (DIR/scalars.lance ...) or the
// generator's root (DIR/2.2, DIR/2.1, DIR/2.0, each a database).
//
// Every case (format, table, full/column) runs in its own child process, so
// its peak RSS (process.resourceUsage().maxRSS) is its own: WARMUP untimed
// reads, then ROUNDS timed reads, each opening the table afresh as a
// service would. Reported per read: median wall time, CPU time
// (process.cpuUsage, user+system of all of LanceDB's threads), rows/s and
// MB/s of Arrow output (the byte length of every buffer of the result).
//
// Environment: ROUNDS (default 5), WARMUP (default 1), TABLES (default
// "scalars,vectors"), FORMATS (default "2.2,2.1,2.0"), MODES (default
// "full,column"). The column defaults to "long" for scalars and "vec" for
// vectors; [col] overrides it for every table. MODES may also hold "stream",
// a full read through query().execute() (batches dropped as they come),
// to show LanceDB's own streaming memory.
import * as lancedb from "@lancedb/lancedb";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const env = process.env;
const ROUNDS = Number(env.ROUNDS ?? 5);
const WARMUP = Number(env.WARMUP ?? 1);
const defaultCol = { scalars: "long", vectors: "vec" };

function dataBytes(d) {
  let n = 0;
  for (const b of [d.values, d.valueOffsets, d.nullBitmap, d.typeIds]) if (b) n += b.byteLength;
  for (const c of d.children ?? []) n += dataBytes(c);
  return n;
}

async function once(dbDir, table, mode, col) {
  const db = await lancedb.connect(dbDir);
  const t = await db.openTable(table);
  let rows = 0;
  let bytes = 0;
  if (mode === "stream") {
    for await (const b of await t.query().execute()) {
      rows += b.numRows;
      bytes += dataBytes(b.data);
    }
  } else {
    const q = mode === "column" ? t.query().select([col]) : t.query();
    const res = await q.toArrow();
    rows = res.numRows;
    for (const b of res.batches) bytes += dataBytes(b.data);
  }
  t.close();
  db.close();
  return { rows, bytes };
}

async function child(dbDir, table, mode, col) {
  for (let i = 0; i < WARMUP; i++) await once(dbDir, table, mode, col);
  const walls = [];
  const cpus = [];
  let res;
  for (let i = 0; i < ROUNDS; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    res = await once(dbDir, table, mode, col);
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    walls.push(wall);
    cpus.push((c.user + c.system) / 1e6);
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const wall = med(walls);
  const cpu = med(cpus);
  const out = {
    rows: res.rows, arrowBytes: res.bytes, rounds: ROUNDS,
    wallSec: wall, minWallSec: Math.min(...walls), cpuSec: cpu,
    rowsPerSec: res.rows / wall, mbPerSec: res.bytes / 1e6 / wall,
    rowsPerCpuSec: res.rows / cpu, peakRssMB: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(JSON.stringify(out) + "\n");
}

const args = process.argv.slice(2);
if (args[0] === "--child") {
  await child(args[1], args[2], args[3], args[4]);
  process.exit(0);
}
if (args.length < 1) {
  console.error("usage: node read-bench.mjs DIR [col]");
  process.exit(2);
}
const root = path.resolve(args[0]);
const tables = (env.TABLES ?? "scalars,vectors").split(",");
const modes = (env.MODES ?? "full,column").split(",");
let dbs = (env.FORMATS ?? "2.2,2.1,2.0").split(",").filter((fv) => fs.existsSync(path.join(root, fv))).map((fv) => [fv, path.join(root, fv)]);
if (dbs.length === 0) dbs = [["-", root]];
const self = fileURLToPath(import.meta.url);
console.log(`# LanceDB ${JSON.parse(fs.readFileSync(path.join(path.dirname(self), "node_modules/@lancedb/lancedb/package.json"))).version}, node ${process.version}, ${ROUNDS} rounds after ${WARMUP} warm-up`);
console.log("format\ttable\tmode\trows\tarrow_MB\twall_ms\tcpu_ms\trows/s\tMB/s\tpeak_rss_MB");
for (const [fv, dbDir] of dbs) {
  for (const table of tables) {
    if (!fs.existsSync(path.join(dbDir, table + ".lance"))) continue;
    for (const mode of modes) {
      const col = args[1] ?? defaultCol[table];
      const r = spawnSync(process.execPath, [self, "--child", dbDir, table, mode, col], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
      if (r.status !== 0) {
        console.error(`${fv}/${table}/${mode}: child failed (${r.status})`);
        process.exitCode = 1;
        continue;
      }
      const o = JSON.parse(r.stdout.trim().split("\n").pop());
      const label = mode === "column" ? `column:${col}` : mode;
      console.log([fv, table, label, o.rows, (o.arrowBytes / 1e6).toFixed(1), (o.wallSec * 1e3).toFixed(1), (o.cpuSec * 1e3).toFixed(1),
        Math.round(o.rowsPerSec), o.mbPerSec.toFixed(1), o.peakRssMB.toFixed(0)].join("\t"));
    }
  }
}
