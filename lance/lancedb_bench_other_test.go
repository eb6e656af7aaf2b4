//go:build !unix

package lance

import "time"

// cpuTime is not measured here (no getrusage): the benchmark omits cpu-ms/op.
func cpuTime() time.Duration { return 0 }
