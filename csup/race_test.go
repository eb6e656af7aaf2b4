//go:build race

package csup_test

// bigRows keeps the million-row round trip affordable under the race
// detector (about ten times slower); without it the test uses 1M rows.
const bigRowsCount = 200_000
