package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// How readers and the writer share a catalog file.
//
// Readers open the file immutable: SQLite then reads the file alone, takes
// no locks and makes no -wal or -shm file, so a query changes nothing and
// works on a file or in a folder it may not write. The writer appends to
// SQLite's write-ahead log; the file itself changes only when the log is
// copied into it (a checkpoint). Three byte-range locks on the file itself
// keep the two apart. They are Linux open file description locks, placed
// far beyond the bytes SQLite locks, and they belong to the file, not to a
// name of it: every name (a symbolic or a hard link) sees the same locks.
//
//   - writerByte: held exclusively by the one process that writes the
//     catalog, for as long as it has it open for writing.
//   - readByte: held shared by a process while it has a connection reading
//     the file; held exclusively by the writer while it copies its log in.
//     So the file never changes under a reader, and a reader's connections,
//     whose page caches trust the file not to change, never outlive its
//     hold: they are closed before it lets go.
//   - gateByte: held exclusively by the writer while it waits for the read
//     byte. Readers wait at a held gate before opening a connection, so a
//     stream of overlapping queries cannot starve the writer; the writer
//     holds the gate a short while at a time, so a long query only delays
//     the checkpoint, never the other queries.
//
// A reader sees what has been copied into the file: while a build runs,
// its units up to the last checkpoint, a consistent state of the catalog.
// When the writer ends it copies the whole log in and SQLite removes the
// -wal and -shm files: at rest a catalog is one file. A writer killed before
// that leaves its log; the next program that can write the file copies it in
// (foldLog) before it reads.
const (
	lockBase   = 1 << 62
	writerByte = lockBase
	readByte   = lockBase + 1
	gateByte   = lockBase + 2
)

// errNoByteLocks means the file system takes no open file description
// locks: readers then read through SQLite's log as SQLite itself does.
var errNoByteLocks = errors.New("byte-range locks are not available on this file system")

// fileLocks is an open descriptor of a catalog file through which its
// byte-range locks are taken. Each holder opens its own: locks through one
// descriptor never conflict with each other.
type fileLocks struct {
	f   *os.File
	key fileKey
}

// openFileLocks opens the file for its locks; write is needed for the
// exclusive locks.
func openFileLocks(file string, write bool) (*fileLocks, error) {
	flag := os.O_RDONLY
	if write {
		flag = os.O_RDWR
	}
	f, err := os.OpenFile(file, flag, 0)
	if err != nil {
		return nil, err
	}
	k, _ := keyOf(file)
	return &fileLocks{f: f, key: k}, nil
}

func (l *fileLocks) close() {
	if l != nil {
		l.f.Close()
	}
}

// Waits: how long a reader waits at the gate or for the read byte, and how
// the writer takes turns at the gate.
const (
	readerPatience = 2 * time.Minute
	gateTurn       = 250 * time.Millisecond
	gatePause      = 50 * time.Millisecond
	pollInterval   = 2 * time.Millisecond
)

// readLease is a reader's hold on the read byte, shared by all of a
// Catalog's connections: taken when the first opens, let go when the last
// closes.
type readLease struct {
	mu    sync.Mutex
	locks *fileLocks
	n     int
	file  string
	off   bool // no byte locks on this file system: readers read through the log
}

// acquire waits until no writer is at the gate and the file is not being
// changed, then counts one more connection.
func (r *readLease) acquire(ctx context.Context) error {
	if r.off {
		return nil
	}
	deadline := time.Now().Add(readerPatience)
	for {
		waiting, err := r.locks.heldByOther(gateByte, true)
		if err == nil && !waiting {
			r.mu.Lock()
			if r.n > 0 {
				r.n++
				r.mu.Unlock()
				return nil
			}
			ok, err := r.locks.try(readByte, false)
			if err != nil {
				r.mu.Unlock()
				return err
			}
			if ok {
				r.n = 1
				inProcess.add(r.locks.key, 1)
				r.mu.Unlock()
				return nil
			}
			r.mu.Unlock()
		} else if err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cannot read catalog %s: %w", r.file, ErrCheckpointStuck)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

// release counts one connection less, letting go of the read byte after
// the last.
func (r *readLease) release() {
	if r.off {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n--
	if r.n == 0 {
		r.locks.unlock(readByte)
		inProcess.add(r.locks.key, -1)
	}
}

// inProcess counts the read leases this process holds, by file: a writer
// closing a catalog that this same process also reads cannot wait for
// those readers without the risk of waiting for itself.
var inProcess = &leaseCount{n: map[fileKey]int{}}

type fileKey struct{ dev, ino uint64 }

type leaseCount struct {
	mu sync.Mutex
	n  map[fileKey]int
}

func (lc *leaseCount) add(k fileKey, d int) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.n[k] += d
}

// readersInProcess reports whether this process reads the file.
func readersInProcess(file string) bool {
	k, ok := keyOf(file)
	if !ok {
		return false
	}
	inProcess.mu.Lock()
	defer inProcess.mu.Unlock()
	return inProcess.n[k] > 0
}

// keyOf is the file's device and inode.
func keyOf(file string) (fileKey, bool) {
	info, err := os.Stat(file)
	if err != nil {
		return fileKey{}, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(st.Dev), uint64(st.Ino)}, true
}

// ErrCheckpointStuck means a reader waited minutes for a writer copying
// its log into the catalog: that writer is stopped or stuck.
var ErrCheckpointStuck = errors.New("the process writing it has held it for minutes while copying its log in (stopped with Ctrl-Z?)")

// exclusiveRead takes the read byte exclusively for the writer, taking
// turns at the gate: it holds the gate for up to gateTurn while it waits
// for the readers to finish, then lets new readers in for gatePause. It
// gives up after patience (wait forever if patience is 0), calling waiting
// once if it has waited for more than two seconds.
func (l *fileLocks) exclusiveRead(patience time.Duration, waiting func()) (bool, error) {
	start := time.Now()
	told := false
	for {
		gate, err := l.try(gateByte, true)
		if err != nil {
			return false, err
		}
		if gate {
			turnEnd := time.Now().Add(gateTurn)
			for time.Now().Before(turnEnd) {
				ok, err := l.try(readByte, true)
				if err != nil || ok {
					l.unlock(gateByte)
					return ok, err
				}
				time.Sleep(pollInterval)
			}
			l.unlock(gateByte)
		}
		if patience > 0 && time.Since(start) > patience {
			return false, nil
		}
		if !told && waiting != nil && time.Since(start) > 2*time.Second {
			waiting()
			told = true
		}
		time.Sleep(gatePause)
	}
}
