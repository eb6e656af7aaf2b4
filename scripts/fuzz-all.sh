#!/usr/bin/env bash
# Runs every fuzz target in the module for $FUZZTIME each (default 3s).
# Targets are discovered from the source, so a new Fuzz function is picked up
# without editing this script. FUZZPKG limits the run to matching packages.
#
# Every target runs under a memory cap: scripts/memcap.sh caps the test
# binary's (and so every fuzz worker's) address space at $MEMCAP_KB KiB
# (default 4 GiB) with ulimit -v, and GOMEMLIMIT (default 1GiB) makes the GC
# collect before the cap is near, so only live memory counts. A decoder that
# allocates past its limits on a crafted header then crashes the worker with
# "out of memory", which the fuzzer records as a failing input.
#
# A target fails when go test fails AND it wrote a new reproducer under
# testdata/fuzz/<Target>/ (every real finding does), or when it fails for any
# reason other than the Go fuzz coordinator's deadline race
# (golang/go#75804, unfixed in go1.26: a bare "context deadline exceeded" at
# the -fuzztime boundary with no input written). That race is retried once
# and then reported as a flake, not a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
export MEMCAP_KB=${MEMCAP_KB:-4194304}
export GOMEMLIMIT=${GOMEMLIMIT:-1GiB}
memcap=$(pwd)/scripts/memcap.sh
filter=${FUZZPKG:-}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0 failed=0 flaked=0

corpus_count() { ls "$1/testdata/fuzz/$2" 2>/dev/null | wc -l; }

run_one() { # dir name -> 0 pass, 1 fail, 2 deadline flake
  local dir=$1 name=$2 before after
  before=$(corpus_count "$dir" "$name")
  if go test -exec "$memcap" -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" "./$dir" >"$log" 2>&1; then
    return 0
  fi
  after=$(corpus_count "$dir" "$name")
  if [ "$after" -eq "$before" ] && grep -q 'context deadline exceeded' "$log" &&
     ! grep -qE 'panic:|Failing input written' "$log"; then
    return 2
  fi
  return 1
}

while IFS= read -r file; do
  dir=$(dirname "$file")
  [[ -n "$filter" && "$dir" != *"$filter"* ]] && continue
  for name in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$file" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/'); do
    echo "fuzz: ./$dir $name ($fuzztime)"
    rc=0; run_one "$dir" "$name" || rc=$?
    if [ $rc -eq 2 ]; then
      echo "fuzz: ./$dir $name hit the fuzz deadline race (golang/go#75804); retrying"
      rc=0; run_one "$dir" "$name" || rc=$?
    fi
    case $rc in
      0) passed=$((passed + 1)) ;;
      2) flaked=$((flaked + 1)); echo "fuzz: FLAKE ./$dir $name (deadline race twice, no input written)" ;;
      *) failed=$((failed + 1)); cat "$log"; echo "fuzz: FAILED ./$dir $name" ;;
    esac
  done
done < <(git ls-files --cached --others --exclude-standard -- '*_test.go' | xargs grep -l '^func Fuzz' | sort)
[ "$flaked" -gt 0 ] && echo "fuzz: $flaked targets flaked on the deadline race (not counted as failures)"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
