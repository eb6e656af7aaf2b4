// summarize.mjs RESULTS_DIR: medians over the rounds compare.sh wrote, and
// the ratios colfmt / LanceDB (> 1: colfmt faster or, for memory, larger).
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
const node = {};
const go = {};
const push = (m, k, v) => (m[k] ??= []).push(v);
for (const f of fs.readdirSync(dir)) {
  const text = fs.readFileSync(path.join(dir, f), "utf8");
  if (f.startsWith("node.")) {
    for (const line of text.split("\n")) {
      const c = line.split("\t");
      if (c.length < 10 || c[0] === "format" || line.startsWith("#")) continue;
      push(node, `${c[0]}/${c[1]}/${c[2]}`, { wall: +c[5], cpu: +c[6], rows: +c[3], mb: +c[4], rss: +c[9] });
    }
  } else if (f.startsWith("go.")) {
    for (const line of text.split("\n")) {
      const m = line.match(/^BenchmarkLanceDBTable\/(\S+?)(-\d+)?\s+\d+\s+(\d+) ns\/op(.*)$/);
      if (!m) continue;
      const metric = (name) => {
        const x = m[4].match(new RegExp(`([\\d.]+) ${name}`));
        return x ? +x[1] : NaN;
      };
      push(go, m[1], { wall: +m[3] / 1e6, cpu: metric("cpu-ms/op"), heap: metric("peak-heap-MB"), live: metric("peak-live-MB"), rss: metric("peak-rss-MB"), mb: metric("table-MB") });
    }
  }
}
const med = (a) => {
  const s = a.filter((x) => !Number.isNaN(x)).sort((x, y) => x - y);
  return s.length ? s[s.length >> 1] : NaN;
};
console.log("case\tLanceDB wall ms\tcolfmt wall ms\twall ratio (LanceDB/colfmt: speed-up)\tLanceDB cpu ms\tcolfmt cpu ms\tcpu ratio\tLanceDB peak RSS MB\tcolfmt peak RSS MB\tcolfmt peak heap MB\tcolfmt peak live MB\trounds");
for (const k of Object.keys(go).sort().reverse()) {
  const n = node[k];
  if (!n) continue;
  const g = go[k];
  const nw = med(n.map((x) => x.wall)), gw = med(g.map((x) => x.wall));
  const nc = med(n.map((x) => x.cpu)), gc = med(g.map((x) => x.cpu));
  console.log([k, nw.toFixed(0), gw.toFixed(0), (nw / gw).toFixed(2), nc.toFixed(0), gc.toFixed(0), (nc / gc).toFixed(2),
    med(n.map((x) => x.rss)).toFixed(0), med(g.map((x) => x.rss)).toFixed(0), med(g.map((x) => x.heap)).toFixed(0), med(g.map((x) => x.live)).toFixed(0), `${n.length}/${g.length}`].join("\t"));
}
