//go:build !race

package at1

// raceEnabled: the race detector slows xz about tenfold; heavy tests skip.
const raceEnabled = false
