//go:build !race

package csup_test

const bigRowsCount = 1_000_000
