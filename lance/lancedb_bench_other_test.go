//go:build !unix

package lance

import "time"

// cpuTime is not measured here (no getrusage): the benchmark omits cpu-ms/op.
func cpuTime() time.Duration { return 0 }

// maxRSS is not measured here: the benchmark omits peak-rss-MB.
func maxRSS() int64 { return 0 }
