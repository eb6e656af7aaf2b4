#!/usr/bin/env bash
# startup.sh: the CPU time colfmt spends before doing any work, against two
# peers built and run in the same run (so machine load mostly cancels out):
# a Go hello-world, and a "deps-only" program that imports every third-party
# package colfmt links (blank imports) and does nothing. colfmt minus
# deps-only is the start-up cost of colfmt's own code. It runs each N times
# (default 200), prints CPU milliseconds per run and the heaviest package
# inits (GODEBUG=inittrace=1), and fails when colfmt costs more than
# MAX_EXTRA_MS (default 1.5) above deps-only. Timings on a shared machine
# are noisy; the deterministic check is TestStartupInitsAreSmall.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-200}
max_extra=${MAX_EXTRA_MS:-1.5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/colfmt" ./cmd/colfmt
mkdir "$tmp/hello"
cat >"$tmp/hello/main.go" <<'EOF'
package main

import "os"

func main() { os.Stdout.WriteString("colfmt dev\n") }
EOF
(cd "$tmp/hello" && GOFLAGS= go mod init hello >/dev/null 2>&1 && go build -o "$tmp/hello.bin" .)
# deps-only lives inside the module (it needs its go.mod); "_" keeps it out
# of ./... patterns.
deps=$(mktemp -d ./_startup_deps.XXXXXX)
trap 'rm -rf "$tmp" "$deps"' EXIT
{
  echo 'package main'
  echo 'import ('
  echo '	"os"'
  go list -deps ./cmd/colfmt | grep '\.' | grep -v '^github.com/colfmt/colfmt' | grep -v '/internal' |
    grep -v '^golang.org/x/sys/unix$' | sed 's/.*/	_ "&"/'
  echo ')'
  echo 'func main() { os.Stdout.WriteString("colfmt dev\n") }'
} >"$deps/main.go"
go build -o "$tmp/deps.bin" "./$deps"

# cpu_ms CMD...: CPU (user+sys) milliseconds per run of CMD, from the
# shell's `times` for its children.
cpu_ms() {
  (
    for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1 || true; done
    times
  ) | tail -1 | awk -v n="$n" '
    function sec(s,  m) { m = s; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", s); sub(/s$/, "", s); return m * 60 + s }
    { printf "%.3f", (sec($1) + sec($2)) * 1000 / n }'
}

hello=$(cpu_ms "$tmp/hello.bin")
depsonly=$(cpu_ms "$tmp/deps.bin")
colfmt=$(cpu_ms "$tmp/colfmt" --version)
echo "startup: CPU ms per run ($n runs each): hello-world ${hello}, deps-only ${depsonly}, colfmt --version ${colfmt}"
echo "startup: heaviest package inits (GODEBUG=inittrace=1):"
GODEBUG=inittrace=1 "$tmp/colfmt" --version 2>&1 >/dev/null | grep '^init ' |
  sort -k5 -g -r | head -5 | sed 's/^/  /'
awk -v h="$hello" -v d="$depsonly" -v c="$colfmt" -v m="$max_extra" 'BEGIN {
  printf "startup: dependencies cost %.3f ms over hello-world; colfmt own code %.3f ms over deps-only (limit %.1f)\n", d - h, c - d, m
  exit !(c - d <= m)
}'
