#!/usr/bin/env bash
# startup.sh: the CPU time colfmt spends before doing any work, against a Go
# hello-world built and run in the same run (so machine load cancels out).
# It runs each N times (default 200), prints the CPU milliseconds per run of
# both and the heaviest package inits (GODEBUG=inittrace=1), and fails when
# colfmt's start-up costs more than MAX_EXTRA_MS (default 1.0) above the
# hello-world's.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-200}
max_extra=${MAX_EXTRA_MS:-1.0}
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
colfmt=$(cpu_ms "$tmp/colfmt" --version)
echo "startup: hello-world ${hello} ms CPU per run, colfmt --version ${colfmt} ms ($n runs each)"
echo "startup: heaviest package inits (GODEBUG=inittrace=1):"
GODEBUG=inittrace=1 "$tmp/colfmt" --version 2>&1 >/dev/null | grep '^init ' |
  sort -k5 -g -r | head -5 | sed 's/^/  /'
awk -v h="$hello" -v c="$colfmt" -v m="$max_extra" 'BEGIN {
  extra = c - h
  printf "startup: colfmt costs %.3f ms more than hello-world (limit %.1f)\n", extra, m
  exit !(extra <= m)
}'
