#!/usr/bin/env bash
# Runs every fuzz target in the module for $FUZZTIME each (default 3s).
# Targets are discovered from the source, so a new Fuzz function is picked up
# without editing this script. FUZZPKG limits the run to matching packages.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-3s}
filter=${FUZZPKG:-}
status=0
count=0
while IFS= read -r file; do
  dir=$(dirname "$file")
  [[ -n "$filter" && "$dir" != *"$filter"* ]] && continue
  for name in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$file" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/'); do
    count=$((count + 1))
    echo "fuzz: ./$dir $name ($fuzztime)"
    if ! go test -run='^$' -fuzz="^${name}\$" -fuzztime="$fuzztime" "./$dir" > /tmp/colfmt-fuzz.log 2>&1; then
      cat /tmp/colfmt-fuzz.log
      echo "fuzz: FAILED ./$dir $name"
      status=1
    fi
  done
done < <(git ls-files --cached --others --exclude-standard -- '*_test.go' | xargs grep -l '^func Fuzz' | sort)
echo "fuzz: $count targets run"
exit $status
