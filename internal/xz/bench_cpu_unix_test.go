//go:build unix

package xz

import (
	"syscall"
	"time"
)

// processCPU is the user+system CPU time of this process (all threads):
// on a shared machine it is a steadier measure than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
