#!/bin/sh
# compare.sh DIR [ROUNDS]: alternate LanceDB 0.39 (read-bench.mjs) and colfmt
# (BenchmarkLanceDBTable) on the tables gen-bench-table.mjs wrote in DIR,
# ROUNDS times (default 3), both pinned to one CPU (taskset -c ${CPU:-1},
# GOMAXPROCS=1) so neither side gets more cores than the other. Output:
# DIR/results/{node,go}.<round>.txt; summarize.mjs prints the ratios.
set -eu
dir=$(cd "$1" && pwd)
rounds=${2:-3}
cpu=${CPU:-1}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/results"
(cd "$here/../.." && go test -c -o "$dir/results/lance.test" ./lance)
for r in $(seq 1 "$rounds"); do
	taskset -c "$cpu" node "$here/read-bench.mjs" "$dir" >"$dir/results/node.$r.txt"
	(cd "$here/../../lance" && COLFMT_LANCE_BENCH_DIR="$dir" GOMAXPROCS=1 taskset -c "$cpu" \
		"$dir/results/lance.test" -test.run '^$' -test.bench BenchmarkLanceDBTable -test.benchtime "${BENCHTIME:-3x}" \
		>"$dir/results/go.$r.txt")
	echo "round $r done" >&2
done
node "$here/summarize.mjs" "$dir/results"
