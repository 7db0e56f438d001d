package pagefile

import (
	"os"
	"syscall"
	"unsafe"
)

// pread reads len(buf) bytes at off from f. The pages a scan reads are in
// the page cache: a read is a copy, not a wait, so it goes to the kernel
// without telling Go's scheduler (which would hand the goroutine's
// processor to another thread at every read that lasts over 20 µs, and
// wake threads to take it back).
func pread(f *os.File, buf []byte, off int64) (int, error) {
	read := 0
	for read < len(buf) {
		n, _, errno := syscall.RawSyscall6(syscall.SYS_PREAD64, f.Fd(), uintptr(unsafe.Pointer(&buf[read])), uintptr(len(buf)-read), uintptr(off+int64(read)), 0, 0)
		switch {
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			return read, errno
		case n == 0:
			return read, nil // the end of the file
		}
		read += int(n)
	}
	return read, nil
}
