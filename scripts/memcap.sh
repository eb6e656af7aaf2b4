#!/usr/bin/env bash
# memcap.sh CMD ARGS...: runs CMD with its address space capped at
# $MEMCAP_KB KiB (default 4 GiB) through the shell's ulimit -v, which every
# child inherits. `go test -exec scripts/memcap.sh` puts the cap on the test
# binary only (the compiler runs uncapped); under -fuzz the binary is the
# coordinator and its workers are its children, so each worker is capped
# too. Go's fuzzer has no -rss_limit (that is libFuzzer's), and GOMEMLIMIT is a
# soft GC target, not a limit, so a hard rlimit is the one cap that makes a
# decoder that allocates past its budget fail: the worker dies with "fatal
# error: out of memory", the coordinator reports it as a crash and writes the
# input under testdata/fuzz/. GOMEMLIMIT (set by the caller) keeps garbage from
# counting against the cap.
set -euo pipefail
ulimit -v "${MEMCAP_KB:-4194304}"
exec "$@"
