package catfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"syscall"
	"time"
)

// One process at a time writes a catalog. It holds an exclusive flock on
// CATALOG.lock, which also says who it is (process, host, start time, the
// puzzles it builds), so that a second writer stops at once naming it and
// queries can say "being built" from the first instant. The kernel drops
// the lock when the process dies, however it dies: a holder that is gone
// is never mistaken for a live one, and the next build resumes its saved
// work. The holder removes the file when it is done.

// Holder describes the process that writes a catalog.
type Holder struct {
	PID     int      `json:"pid"`
	Host    string   `json:"host"`
	Started string   `json:"started"` // UTC, RFC 3339
	Command string   `json:"command"`
	Puzzles []string `json:"puzzles,omitempty"` // what it builds, if known
}

// Building reports whether the holder builds the named puzzle. A holder
// known only by its lock on the file (a writer through another name of it)
// may be building any.
func (h Holder) Building(puzzle string) bool {
	return slices.Contains(h.Puzzles, puzzle) || h.PID == 0 && h.Puzzles == nil
}

func (h Holder) String() string {
	if h.PID == 0 {
		return h.Command
	}
	return fmt.Sprintf("process %d on %s, started %s (%s)", h.PID, h.Host, h.Started, h.Command)
}

// ErrBusy means another process is writing the catalog.
var ErrBusy = errors.New("another solcat is writing this catalog")

// BusyError names the process that holds a catalog's lock.
type BusyError struct {
	Path   string
	Holder Holder
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is being written by another solcat: %s", e.Path, e.Holder)
}

func (e *BusyError) Unwrap() error { return ErrBusy }

// NewHolder describes this process, running command to build puzzles.
func NewHolder(command string, puzzles []string) Holder {
	host, _ := os.Hostname()
	return Holder{PID: os.Getpid(), Host: host, Started: time.Now().UTC().Format(time.RFC3339), Command: command, Puzzles: puzzles}
}

func lockPath(path string) string { return path + ".lock" }

// WriteLock is a held catalog lock.
type WriteLock struct {
	f    *os.File
	path string
}

// LockForWriting takes the write lock of the catalog at path, whose file
// (links followed) is file, for h, or returns a *BusyError naming the
// process that holds it.
func LockForWriting(path, file string, h Holder) (*WriteLock, error) {
	name := lockPath(file)
	// Readers hold the lock shared for an instant to see whether it is
	// taken: try for a moment before calling it busy.
	deadline := time.Now().Add(300 * time.Millisecond)
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("cannot lock the catalog %s for writing: %w", path, err)
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			if time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			held, _ := readHolder(name)
			return nil, &BusyError{Path: path, Holder: held}
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock the catalog %s for writing: %w", path, err)
		}
		// The holder before removed the file after this one opened it: the
		// lock is on a file nobody else will open. Take the new one.
		if !sameOpenFile(f, name) {
			f.Close()
			continue
		}
		data, _ := json.Marshal(h)
		if err := f.Truncate(0); err == nil {
			_, err = f.WriteAt(append(data, '\n'), 0)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock the catalog %s for writing: %w", path, err)
		}
		return &WriteLock{f: f, path: name}, nil
	}
}

// release removes the lock file and drops the lock, in that order, so the
// next writer either waits on this file or finds none.
func (l *WriteLock) Release() {
	if l == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
}

func sameOpenFile(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(name)
	return err == nil && os.SameFile(a, b)
}

// RunningWriter returns the process writing the catalog at path, if one is
// running, through this name of the file or any other. It changes nothing
// (a catalog in a read-only folder included).
func RunningWriter(path string) (Holder, bool) {
	file := RealFile(path)
	if h, ok := lockHolder(lockPath(file)); ok {
		return h, true
	}
	// No lock file beside this name: a writer through another name (a hard
	// link) still holds the file's writer byte.
	locks, err := OpenLocks(file, false)
	if err != nil {
		return Holder{}, false
	}
	defer locks.Close()
	if WriterAt(locks) {
		return Holder{Command: "another solcat, through another name of the same file"}, true
	}
	return Holder{}, false
}

// lockHolder reads who holds the lock file name, if its holder is alive.
func lockHolder(name string) (Holder, bool) {
	f, err := os.Open(name)
	if err != nil {
		return Holder{}, false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return Holder{}, false // left by a writer that is gone
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return Holder{}, false
	}
	h, err := readHolder(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// Taken this instant, not yet described: still a writer.
		return Holder{Command: "a build just begun"}, true
	}
	return h, err == nil
}

func readHolder(name string) (Holder, error) {
	var h Holder
	data, err := os.ReadFile(name)
	if err != nil {
		return h, err
	}
	return h, json.Unmarshal(data, &h)
}

// removeStaleLock removes the lock file of the catalog file if no process
// holds it: a writer killed by SIGKILL leaves it behind.
func removeStaleLock(file string) {
	name := lockPath(file)
	f, err := os.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil && sameOpenFile(f, name) {
		os.Remove(name)
	}
}
