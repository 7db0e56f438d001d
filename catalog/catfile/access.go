package catfile

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"modernc.org/sqlite"
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
//   - WriterByte: held exclusively by the one process that writes the
//     catalog, for as long as it has it open for writing.
//   - ReadByte: held shared by a process while it has a connection reading
//     the file; held exclusively by the writer while it copies its log in.
//     So the file never changes under a reader, and a reader's connections,
//     whose page caches trust the file not to change, never outlive its
//     hold: they are closed before it lets go.
//   - GateByte: held exclusively by the writer while it waits for the read
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
// (FoldLog) before it reads.
const (
	lockBase   = 1 << 62
	WriterByte = lockBase
	ReadByte   = lockBase + 1
	GateByte   = lockBase + 2
)

// ErrNoByteLocks means the file system takes no open file description
// locks: readers then read through SQLite's log as SQLite itself does.
var ErrNoByteLocks = errors.New("byte-range locks are not available on this file system")

// Locks is an open descriptor of a catalog file through which its
// byte-range locks are taken. Each holder opens its own: locks through one
// descriptor never conflict with each other.
type Locks struct {
	f   *os.File
	key fileKey
}

// OpenLocks opens the file for its locks; write is needed for the
// exclusive locks.
func OpenLocks(file string, write bool) (*Locks, error) {
	flag := os.O_RDONLY
	if write {
		flag = os.O_RDWR
	}
	f, err := os.OpenFile(file, flag, 0)
	if err != nil {
		return nil, err
	}
	k, _ := keyOf(file)
	return &Locks{f: f, key: k}, nil
}

// LocksOf takes f, the catalog file opened for writing, for its locks.
func LocksOf(f *os.File) *Locks {
	k, _ := keyOf(f.Name())
	return &Locks{f: f, key: k}
}

func (l *Locks) Close() {
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

// ReadLease is a reader's hold on the read byte, shared by all of a
// Catalog's connections: taken when the first opens, let go when the last
// closes.
type ReadLease struct {
	mu    sync.Mutex
	locks *Locks
	n     int
	file  string
	off   bool // no byte locks on this file system: readers read through the log
}

// NewReadLease is a reader's lease on the read byte of the catalog file
// (named path in messages), taken through locks. Where the file system
// takes no byte locks it is off: readers read through the log.
func NewReadLease(locks *Locks, path string) *ReadLease {
	_, err := locks.HeldByOther(ReadByte, false)
	return &ReadLease{locks: locks, file: path, off: errors.Is(err, ErrNoByteLocks)}
}

// Off reports whether the file system takes no byte locks: readers then
// read through SQLite's log.
func (r *ReadLease) Off() bool { return r.off }

// WriterWaiting reports whether a writer waits at the gate to copy its log
// in.
func (r *ReadLease) WriterWaiting() bool {
	waiting, err := r.locks.HeldByOther(GateByte, true)
	return err == nil && waiting
}

// Close lets go of the lease's descriptor, after its connections closed.
func (r *ReadLease) Close() { r.locks.Close() }

// Acquire waits until no writer is at the gate and the file is not being
// changed, then counts one more connection.
func (r *ReadLease) Acquire(ctx context.Context) error {
	if r.off {
		return nil
	}
	deadline := time.Now().Add(readerPatience)
	for {
		waiting, err := r.locks.HeldByOther(GateByte, true)
		if err == nil && !waiting {
			r.mu.Lock()
			if r.n > 0 {
				r.n++
				r.mu.Unlock()
				return nil
			}
			ok, err := r.locks.Try(ReadByte, false)
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

// Release counts one connection less, letting go of the read byte after
// the last.
func (r *ReadLease) Release() {
	if r.off {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n--
	if r.n == 0 {
		r.locks.Unlock(ReadByte)
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

// ReadersInProcess reports whether this process reads the file.
func ReadersInProcess(file string) bool {
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

// ExclusiveRead takes the read byte exclusively for the writer, taking
// turns at the gate: it holds the gate for up to gateTurn while it waits
// for the readers to finish, then lets new readers in for gatePause. It
// gives up after patience (wait forever if patience is 0), calling waiting
// once if it has waited for more than two seconds.
func (l *Locks) ExclusiveRead(patience time.Duration, waiting func()) (bool, error) {
	start := time.Now()
	told := false
	for {
		gate, err := l.Try(GateByte, true)
		if err != nil {
			return false, err
		}
		if gate {
			turnEnd := time.Now().Add(gateTurn)
			for time.Now().Before(turnEnd) {
				ok, err := l.Try(ReadByte, true)
				if err != nil || ok {
					l.Unlock(GateByte)
					return ok, err
				}
				time.Sleep(pollInterval)
			}
			l.Unlock(GateByte)
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

// LeasedConnector opens a reader's connections through base, each under
// lease.
func LeasedConnector(base driver.Connector, lease *ReadLease) driver.Connector {
	return &leasedConnector{base: base, lease: lease}
}

// leasedConnector opens a reader's connections, each under the reader's
// hold on the read byte.
type leasedConnector struct {
	base  driver.Connector
	lease *ReadLease
}

func (lc *leasedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := lc.lease.Acquire(ctx); err != nil {
		return nil, err
	}
	conn, err := lc.base.Connect(ctx)
	if err != nil {
		lc.lease.Release()
		return nil, err
	}
	sc, ok := conn.(sqliteConn)
	if !ok {
		conn.Close()
		lc.lease.Release()
		return nil, fmt.Errorf("the SQLite driver's connection lacks a method this program uses (%T)", conn)
	}
	return &leasedConn{sqliteConn: sc, lease: lc.lease}, nil
}

func (lc *leasedConnector) Driver() driver.Driver { return lc.base.Driver() }

// sqliteConn is what the driver's connections offer that database/sql
// and this package use.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
	sqlite.AuthorizerRegisterer
}

// leasedConn is a reader's connection; closing it lets go of its share of
// the read byte.
type leasedConn struct {
	sqliteConn
	lease *ReadLease
	once  sync.Once
}

func (c *leasedConn) Close() error {
	err := c.sqliteConn.Close()
	c.once.Do(c.lease.Release)
	return err
}

// Unwrap gives the driver its own connection (sqlite.Limit needs it).
func (c *leasedConn) Unwrap() driver.Conn { return c.sqliteConn }
