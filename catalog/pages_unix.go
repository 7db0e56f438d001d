//go:build unix

package catalog

import (
	"os"
	"syscall"
)

// mapPages maps a catalog file read-only for the page reader.
func mapPages(file string) (*pageFile, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() < 100 || info.Size() != int64(int(info.Size())) {
		return nil, errNotPlain
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	pf, err := newPageFile(data, func() error { return syscall.Munmap(data) })
	if err != nil {
		syscall.Munmap(data)
		return nil, err
	}
	return pf, nil
}
