// node gentable.cjs DIR FRAGMENTS ROWS: writes DIR/big.lance with LanceDB
// (data storage version 2.1), FRAGMENTS appends of ROWS rows each of
// id int64, x float64, y int32, s utf8: a multi-MB table for the
// lancefetch benchmarks. NODE_PATH must reach @lancedb/lancedb and
// apache-arrow.
const lancedb = require("@lancedb/lancedb");
const arrow = require("apache-arrow");
(async () => {
  const [dir, fragsArg, rowsArg] = process.argv.slice(2);
  const frags = Number(fragsArg), rows = Number(rowsArg);
  const db = await lancedb.connect(dir);
  let tbl;
  for (let f = 0; f < frags; f++) {
    const id = new BigInt64Array(rows), x = new Float64Array(rows), y = new Int32Array(rows), s = new Array(rows);
    for (let j = 0; j < rows; j++) {
      const i = f * rows + j;
      id[j] = BigInt((i * 7919) % 1000003);
      x[j] = Math.sin(i) * 1000;
      y[j] = (i * 31) % 100000;
      s[j] = "user-" + ((i * 2654435761) % 4294967296).toString(36) + "-" + (i % 977);
    }
    const t = new arrow.Table({ id: arrow.makeVector(id), x: arrow.makeVector(x), y: arrow.makeVector(y), s: arrow.vectorFromArray(s, new arrow.Utf8()) });
    if (f === 0) {
      tbl = await db.createTable("big", t, { storageOptions: { new_table_data_storage_version: "2.1" } });
    } else {
      await tbl.add(t);
    }
  }
})().catch((e) => { console.error(e); process.exit(1); });
