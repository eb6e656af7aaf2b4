#!/bin/sh
# compare.sh DIR [ROUNDS]: alternate LanceDB 0.39 (read-bench.mjs) and colfmt
# (BenchmarkLanceDBTable) on the tables gen-bench-table.mjs wrote in DIR,
# ROUNDS times (default 3), both pinned to one CPU (taskset -c ${CPU:-1},
# GOMAXPROCS=1) so neither side gets more cores than the other; rounds
# FIRST..ROUNDS (FIRST defaults to 1) add to earlier ones. Output:
# DIR/results/{node,go}.<round>.txt; summarize.mjs prints the ratios.
set -eu
dir=$(cd "$1" && pwd)
rounds=${2:-3}
first=${FIRST:-1}
cpu=${CPU:-1}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/results"
(cd "$here/../.." && go test -c -o "$dir/results/lance.test" ./lance)
for r in $(seq "$first" "$rounds"); do
	taskset -c "$cpu" node "$here/read-bench.mjs" "$dir" >"$dir/results/node.$r.txt"
	# One process per case, so that its peak RSS is its own (as read-bench.mjs does).
	: >"$dir/results/go.$r.txt"
	for fv in 2.2 2.1 2.0; do for t in scalars vectors; do for mode in full 'column:.*'; do
		[ -d "$dir/$fv/$t.lance" ] || continue
		(cd "$here/../../lance" && COLFMT_LANCE_BENCH_DIR="$dir" GOMAXPROCS=1 taskset -c "$cpu" \
			"$dir/results/lance.test" -test.run '^$' -test.benchtime "${BENCHTIME:-3x}" \
			-test.bench "BenchmarkLanceDBTable/^$(echo $fv | sed 's/[.]/[.]/')\$/^$t\$/^$mode\$" \
			>>"$dir/results/go.$r.txt")
	done; done; done
	echo "round $r done" >&2
done
node "$here/summarize.mjs" "$dir/results"
