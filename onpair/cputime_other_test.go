//go:build !linux

package onpair

import (
	"runtime"
	"time"
)

var cpuStart = time.Now()

// threadCPU falls back to wall time where thread CPU time is not wired up.
func threadCPU() time.Duration { return time.Since(cpuStart) }

func lockThread() func() { runtime.LockOSThread(); return runtime.UnlockOSThread }
