//go:build !linux

package enumerate

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }
