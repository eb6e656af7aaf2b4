//go:build !unix

package at1

import "time"

func processCPU() time.Duration { return 0 }
