//go:build !linux

package pagefile

import "os"

// pread reads len(buf) bytes at off from f.
func pread(f *os.File, buf []byte, off int64) (int, error) { return f.ReadAt(buf, off) }
