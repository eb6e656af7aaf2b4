//go:build race

package xz

const raceEnabled = true
