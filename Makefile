# colfmt: the two commands a fresh clone needs are `make demo` and `make test`.
GO       ?= go
FUZZTIME ?= 3s

.PHONY: all test demo vet fmt-check race purego fuzz-short fuzz bench build generate

all: build

build:
	$(GO) build ./...

# make test: vet, formatting, the race-enabled suite, the portable (purego)
# build's suite, and every fuzz target for $(FUZZTIME).
test: vet fmt-check race purego fuzz-short

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

race:
	$(GO) test -race ./...

purego:
	$(GO) test -tags purego ./...

fuzz-short:
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz-all.sh

# Longer runs, by hand.
fuzz:
	FUZZTIME=60s ./scripts/fuzz-all.sh

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

demo:
	$(GO) run ./cmd/colfmt demo

generate:
	$(GO) generate ./...
