package catfile

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFaultsByCode checks that the disk's faults and a damaged file are
// told by SQLite's result codes and the system's error numbers, wrapped or
// not, and that the words of a message alone name nothing.
func TestFaultsByCode(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(dir, "small.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, full := db.Exec("PRAGMA max_page_count = 3; CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(100000))")
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte("this is no database, and it is long enough to be read as a header of one"), 0o644)
	notDB, err := sql.Open("sqlite", garbage)
	if err != nil {
		t.Fatal(err)
	}
	defer notDB.Close()
	_, notADatabase := notDB.Exec("SELECT * FROM sqlite_master")
	for _, tc := range []struct {
		name           string
		err            error
		fault          error
		damaged        bool
		faultErrorText string
	}{
		{"SQLITE_FULL", full, ErrDiskFull, false, "writing x: the disk is full"},
		{"SQLITE_FULL, wrapped", fmt.Errorf("a unit: %w", full), ErrDiskFull, false, "writing x: the disk is full"},
		{"ENOSPC", &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, ErrDiskFull, false, "writing x: the disk is full"},
		{"EDQUOT", syscall.EDQUOT, ErrDiskFull, false, "writing x: the disk is full"},
		{"EFBIG", syscall.EFBIG, ErrDiskFull, false, "writing x: the disk is full"},
		{"EIO on a disk with room", &fs.PathError{Op: "read", Path: "x", Err: syscall.EIO}, ErrIO, false, "writing x: the disk reported an input/output error"},
		{"named already", fmt.Errorf("the sort folder: %w", ErrDiskFull), ErrDiskFull, false, "the sort folder: the disk is full"},
		{"SQLITE_NOTADB", notADatabase, nil, true, notADatabase.Error()},
		{"the words alone", errors.New("database or disk is full (13); disk I/O error; database disk image is malformed"), nil, false,
			"database or disk is full (13); disk I/O error; database disk image is malformed"},
		{"nil", nil, nil, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fault(dir, tc.err); got != tc.fault {
				t.Errorf("Fault: %v, want %v", got, tc.fault)
			}
			if got := FaultError("writing x", dir, tc.err); tc.err != nil && got.Error() != tc.faultErrorText || tc.fault != nil && !errors.Is(got, tc.fault) {
				t.Errorf("FaultError: %v, want %q", got, tc.faultErrorText)
			}
			got := DamageError("c.db", tc.err)
			if damaged := errors.Is(got, ErrDamaged); damaged != tc.damaged {
				t.Errorf("DamageError: %v; damaged %v, want %v", got, damaged, tc.damaged)
			}
			if !tc.damaged && got != tc.err {
				t.Errorf("DamageError: %v, want the error as it is", got)
			}
		})
	}
}

// TestIOErrorAtTheSizeLimit checks that an I/O error met while the
// catalog's log has grown to the process's file size limit (ulimit -f),
// which SQLite reports with the code of a failing disk, is a full disk,
// and the same error below the limit is not.
func TestIOErrorAtTheSizeLimit(t *testing.T) {
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Skipf("no file size limit here: %v", err)
	}
	file := filepath.Join(t.TempDir(), "c.db")
	os.WriteFile(file, nil, 0o644)
	if err := os.WriteFile(file+"-wal", make([]byte, 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	eio := &fs.PathError{Op: "write", Path: file + "-wal", Err: syscall.EIO}
	for _, tc := range []struct {
		name  string
		limit uint64
		want  error
	}{
		{"none", uint64(was.Cur), ErrIO},
		{"far above", 64 << 20, ErrIO},
		{"at the log's size", 3<<20 + 4096, ErrDiskFull},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.limit > uint64(was.Max) {
				t.Skipf("the hard limit is %d", was.Max)
			}
			limit := was
			limit.Cur = tc.limit
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
				t.Skipf("cannot set the file size limit: %v", err)
			}
			defer syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was)
			if got := Fault(file, eio); got != tc.want {
				t.Errorf("Fault: %v, want %v", got, tc.want)
			}
		})
	}
}
