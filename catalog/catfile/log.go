package catfile

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// HardLinked reports whether a file has more than one name.
func HardLinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}

// LogLeft reports whether SQLite's log files lie beside the file.
func LogLeft(file string) bool {
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Lstat(file + suffix); err == nil {
			return true
		}
	}
	return false
}

// WriterAt reports whether a process holds the writer's byte of the file.
func WriterAt(l *Locks) bool {
	held, err := l.HeldByOther(WriterByte, false)
	return err == nil && held
}

// FoldLog copies a log that a killed writer left into the catalog file and
// removes the -wal and -shm files, as the writer would have, if this
// process may write the file and its folder. It takes the writer's byte
// for that, and the read byte exclusively: no one reads the file while it
// changes. false if it could not (no permission, a writer came, readers
// held on for more than a few seconds, a full disk): the caller reads
// through the log.
func FoldLog(ctx context.Context, file string) bool {
	if syscall.Access(file, 2 /* W_OK */) != nil || syscall.Access(ParentOf(file), 2) != nil {
		return false
	}
	locks, err := OpenLocks(file, true)
	if err != nil {
		return false
	}
	defer locks.Close()
	if ok, err := locks.Try(WriterByte, true); err != nil || !ok {
		return false
	}
	defer locks.Unlock(WriterByte)
	if ok, err := locks.ExclusiveRead(5*time.Second, nil); err != nil || !ok {
		return false
	}
	defer locks.Unlock(ReadByte)
	DropEmptyLog(file)
	if !LogLeft(file) {
		removeStaleLock(file)
		return true
	}
	dsn, err := FileURI(file, "_pragma=busy_timeout(10000)")
	if err != nil {
		return false
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return false
	}
	_, err = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil || LogLeft(file) {
		return false
	}
	removeStaleLock(file)
	return true
}

// DropEmptyLog removes a -wal that holds no frames, and the -shm beside
// it. SQLite removes both as its last connection closes, but not when the
// disk is full; left behind, a -shm too short to map makes every later
// open fail ("disk I/O error") until space is freed. With no frames there
// is nothing in the log to lose. The caller holds the read byte
// exclusively, so no reader has the files open.
func DropEmptyLog(file string) {
	info, err := os.Lstat(file + "-wal")
	if err != nil || !info.Mode().IsRegular() || info.Size() > walHeaderSize {
		return
	}
	os.Remove(file + "-wal")
	os.Remove(file + "-shm")
}

// walHeaderSize is the size of a write-ahead log's header; a log no longer
// than it holds no frames.
const walHeaderSize = 32

// RemoveFiles deletes a catalog file and SQLite's files beside it.
func RemoveFiles(file string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(file + suffix)
	}
}

// Remove deletes the closed catalog at path, its file and SQLite's files
// beside it: for a catalog made a moment ago by a command that then wrote
// nothing.
func Remove(path string) { RemoveFiles(RealFile(path)) }
