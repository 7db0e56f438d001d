package catalog

import (
	"errors"
	"fmt"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrDiskFull means the disk holding the catalog (or a file size or quota
// limit) takes no more bytes.
var ErrDiskFull = errors.New("the disk is full")

// ErrIO means the disk failed to read or write part of the catalog.
var ErrIO = errors.New("the disk reported an input/output error")

// faultError names a full disk or an I/O error in err, met while doing
// what to the catalog file, by SQLite's result code or the system's error
// number; other errors are returned as they are. SQLite reports a failure
// to grow its -shm file (on a full disk) as an I/O error, so an I/O error
// on a disk with next to no room left is called a full disk.
func faultError(what, file string, err error) error {
	if err == nil || errors.Is(err, ErrDiskFull) || errors.Is(err, ErrIO) {
		return err
	}
	var se *sqlite.Error
	var errno syscall.Errno
	switch {
	case errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL,
		errors.As(err, &errno) && (errno == syscall.ENOSPC || errno == syscall.EDQUOT || errno == syscall.EFBIG):
		return fmt.Errorf("%s: %w", what, ErrDiskFull)
	case errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_IOERR,
		errors.As(err, &errno) && errno == syscall.EIO:
		if nearlyFull(parentOf(file)) {
			return fmt.Errorf("%s: %w", what, ErrDiskFull)
		}
		return fmt.Errorf("%s: %w", what, ErrIO)
	}
	return err
}

// nearlyFull reports whether the file system holding dir has less than a
// megabyte free for this user.
func nearlyFull(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && uint64(st.Bavail)*uint64(st.Bsize) < 1<<20
}

// FaultError is faultError for the writers outside this package: a full
// disk, or an I/O error, named as such.
func FaultError(what, file string, err error) error { return faultError(what, file, err) }
