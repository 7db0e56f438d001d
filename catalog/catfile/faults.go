package catfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrDiskFull means the disk holding the catalog (or a file size or quota
// limit) takes no more bytes.
var ErrDiskFull = errors.New("the disk is full")

// ErrIO means the disk failed to read or write part of the catalog.
var ErrIO = errors.New("the disk reported an input/output error")

// Fault is the fault of the disk holding the catalog file that err
// reports, met while writing it: ErrDiskFull or ErrIO, told by SQLite's
// result code or the system's error number (never by the message); nil
// for any other error. SQLite reports a failure to grow its -shm file (on
// a full disk), and a write past the process's file size limit (ulimit
// -f), as an I/O error, with the same codes as a disk that fails: an I/O
// error on a disk with next to no room left, or with the catalog's files
// at the size limit, is a full disk.
func Fault(file string, err error) error {
	var se *sqlite.Error
	var errno syscall.Errno
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrDiskFull):
		return ErrDiskFull
	case errors.Is(err, ErrIO):
		return ErrIO
	case errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL,
		errors.As(err, &errno) && (errno == syscall.ENOSPC || errno == syscall.EDQUOT || errno == syscall.EFBIG):
		return ErrDiskFull
	case errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_IOERR,
		errors.As(err, &errno) && errno == syscall.EIO:
		if nearlyFull(ParentOf(file)) || nearSizeLimit(file) {
			return ErrDiskFull
		}
		return ErrIO
	}
	return nil
}

// FaultError names a full disk or an I/O error in err (see Fault), met
// while doing what to the catalog file; other errors, and those already
// named, are returned as they are.
func FaultError(what, file string, err error) error {
	if fault := Fault(file, err); fault != nil && !errors.Is(err, fault) {
		return fmt.Errorf("%s: %w", what, fault)
	}
	return err
}

// nearlyFull reports whether the file system holding dir has less than a
// megabyte free for this user.
func nearlyFull(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && uint64(st.Bavail)*uint64(st.Bsize) < 1<<20
}

// nearSizeLimit reports whether the catalog file, its log or the log's
// index is within a megabyte of the largest file this process may write.
func nearSizeLimit(file string) bool {
	var limit syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_FSIZE, &limit) != nil {
		return false
	}
	for _, f := range []string{file, file + "-wal", file + "-shm"} {
		// No limit is the largest number: no file comes near it.
		if info, err := os.Stat(f); err == nil && uint64(info.Size())+1<<20 > uint64(limit.Cur) {
			return true
		}
	}
	return false
}

// DamageError names a damaged file in an error from SQLite about the
// catalog at path: SQLITE_CORRUPT and SQLITE_NOTADB wrap ErrDamaged; other
// errors are returned as they are.
func DamageError(path string, err error) error {
	if Damaged(err) {
		return fmt.Errorf("%s: %w: SQLite finds the database disk image malformed", path, ErrDamaged)
	}
	return err
}

// Damaged reports whether SQLite found the file damaged.
func Damaged(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_CORRUPT || se.Code()&0xff == sqlite3.SQLITE_NOTADB)
}

// OpenError says what went wrong while the catalog at path was opened: a
// damaged file, as DamageError names it, or an error it cannot be opened by.
func OpenError(path string, err error) error {
	if Damaged(err) {
		return DamageError(path, err)
	}
	return fmt.Errorf("cannot open catalog %s: %w", path, err)
}
