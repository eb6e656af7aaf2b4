//go:build !unix

package xz

import "time"

func processCPU() time.Duration { return 0 }
