//go:build !race

package xz

const raceEnabled = false
