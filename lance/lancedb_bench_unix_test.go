//go:build unix

package lance

import (
	"runtime"
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time so far (all threads).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSS is the process's resident-set high water so far, in bytes (0 when
// unknown): getrusage's ru_maxrss is in KiB on Linux and the BSDs, in bytes
// on Darwin.
func maxRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) << 10
}
