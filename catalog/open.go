package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"

	"solcat/catalog/catfile"
)

func init() {
	// SQLite's own locks on the catalog file as open file description
	// locks: a POSIX lock is dropped when the process closes any descriptor
	// of the file, and this package opens the file for its byte locks. On
	// a kernel without them SQLite keeps POSIX locks.
	sqlite.OFDLocking(true)
}

// Create opens the catalog at path for writing, creating the file if needed
// and migrating its schema to the current version. It holds the catalog's
// write lock for writer until Close: a second writer, through any name of
// the file, gets a *BusyError. An SQLite file that is neither empty nor a
// solcat catalog is refused before anything is written to it, and so is a
// file with more than one hard link. A file this call made is removed again
// if it fails.
func Create(ctx context.Context, path string, writer catfile.Holder) (*Catalog, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	file := catfile.RealFile(path)
	dir, shown := catfile.ParentOf(file), catfile.ParentOf(path)
	if catfile.RealFile(shown) != dir {
		shown = dir // a link to a file elsewhere: its folder counts
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("cannot create catalog %s: %w (%s)", path, catfile.ErrNoFolder, shown)
	}
	// SQLite keeps its write-ahead log beside the catalog, so writing needs
	// the folder, not just the file, to be writable.
	if syscall.Access(dir, 2 /* W_OK */) != nil {
		return nil, fmt.Errorf("cannot write catalog %s: %w (%s)", path, catfile.ErrReadOnlyFolder, shown)
	}
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	if info, err := os.Stat(file); err == nil && catfile.HardLinked(info) {
		return nil, fmt.Errorf("cannot write catalog %s: %w", path, catfile.ErrHardLinked)
	}
	if writer.PID == 0 {
		writer = catfile.NewHolder("", nil)
	}
	// The lock first: while another writer creates the catalog, its file
	// is not yet recognisable as one.
	lock, err := catfile.LockForWriting(path, file, writer)
	if err != nil {
		return nil, err
	}
	c := &Catalog{path: path, file: file, lock: lock}
	if err := c.takeFile(); err != nil {
		c.Discard()
		return nil, err
	}
	if err := checkOwner(ctx, path, file); err != nil {
		c.Discard()
		return nil, err
	}
	dsn, err := catfile.FileURI(file, "_pragma=busy_timeout(10000)", "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)",
		"_pragma=cache_size(-262144)", "_pragma=wal_autocheckpoint(0)")
	if err == nil {
		c.db, err = sqlx.Open("sqlite", dsn)
	}
	if err == nil {
		// One connection: SQLite serialises writers anyway, and a single
		// connection keeps a build's transaction and its reads together.
		c.db.SetMaxOpenConns(1)
		err = c.db.PingContext(ctx)
	}
	if err == nil {
		c.checkpoint, err = catfile.StartCheckpointer(ctx, file, c.locks)
	}
	if err == nil {
		err = c.checkVersion(ctx)
	}
	if err == nil {
		err = c.migrate(ctx)
	}
	if err == nil {
		err = c.sealLegacyRows(ctx)
	}
	if err == nil {
		err = c.findSeals(ctx)
	}
	if err != nil {
		err = createError(path, err)
		c.Discard()
		return nil, err
	}
	return c, nil
}

// takeFile opens (or creates) the catalog file for the writer's byte locks
// and takes the writer's byte. A writer through another name of the file,
// or a program copying a log in, holds it: the first is refused, the
// second is waited for.
func (c *Catalog) takeFile() error {
	info, statErr := os.Stat(c.file)
	// A file no one may write (mode 0444, say) is not written, even by
	// root, whom the system would let.
	if statErr == nil && info.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("cannot write catalog %s: %w", c.path, catfile.ErrReadOnlyFile)
	}
	f, err := os.OpenFile(c.file, os.O_RDWR|os.O_CREATE, 0o644)
	switch {
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot write catalog %s: %w", c.path, catfile.ErrReadOnlyFile)
	case err != nil:
		return fmt.Errorf("cannot write catalog %s: %w", c.path, err)
	}
	c.created = errors.Is(statErr, fs.ErrNotExist)
	c.locks = catfile.LocksOf(f)
	if info, err := f.Stat(); err == nil && catfile.HardLinked(info) {
		return fmt.Errorf("cannot write catalog %s: %w", c.path, catfile.ErrHardLinked) // linked since the check
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		ok, err := c.locks.Try(catfile.WriterByte, true)
		switch {
		case errors.Is(err, catfile.ErrNoByteLocks):
			return nil // the lock file alone keeps writers apart
		case err != nil:
			return fmt.Errorf("cannot lock the catalog %s for writing: %w", c.path, err)
		case ok:
			return nil
		case time.Now().After(deadline):
			return &catfile.BusyError{Path: c.path, Holder: catfile.Holder{Command: "another solcat, through another name of the same file"}}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// migrate brings the schema up to date, writing nothing if it is.
func (c *Catalog) migrate(ctx context.Context) error {
	if err := c.renameVersionTable(ctx); err != nil {
		return err
	}
	provider, err := newProvider(c.db)
	if err != nil {
		return err
	}
	if pending, err := provider.HasPending(ctx); err != nil {
		return err
	} else if pending {
		if _, err := provider.Up(ctx); err != nil {
			return err
		}
	}
	var id int64
	if err := c.db.GetContext(ctx, &id, "PRAGMA application_id"); err != nil {
		return err
	}
	if id != applicationID {
		if _, err := c.db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
			return err
		}
	}
	if err := c.addReadableColumns(ctx); err != nil {
		return err
	}
	return c.addReadableViews(ctx)
}

// Open opens an existing catalog for reading only. It reads the file as
// immutable, under the read byte (see catfile/access.go), and creates no file: not
// a log, not a lock. A log left by a writer that was killed is first copied
// into the file if this process may write it; else it is read through.
func Open(ctx context.Context, path string) (*Catalog, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNoCatalog, path)
	}
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	file := catfile.RealFile(path)
	locks, err := catfile.OpenLocks(file, false)
	if err != nil {
		return nil, fmt.Errorf("cannot read catalog %s: %w", path, err)
	}
	throughLog := false
	if catfile.LogLeft(file) && !catfile.WriterAt(locks) {
		// A log that cannot be copied in now (a full disk) is read through.
		folded := catfile.FoldLog(ctx, file)
		throughLog = !folded && !catfile.WriterAt(locks)
	}
	_, err = locks.HeldByOther(catfile.ReadByte, false)
	noByteLocks := errors.Is(err, catfile.ErrNoByteLocks)
	if noByteLocks {
		throughLog = true
	}
	// SQLite reads the file with positioned reads, not through a memory
	// map (mmap_size 0, its default): a file cut short under a map ends the
	// process with a fault. No writer changes the file under a reader's
	// byte (catfile/access.go); another program may, and Changed tells.
	params := []string{"mode=ro", "immutable=1", "_pragma=query_only(1)", "_pragma=mmap_size(0)"}
	if throughLog {
		params = []string{"mode=ro", "_pragma=busy_timeout(10000)", "_pragma=query_only(1)"}
	}
	dsn, err := catfile.FileURI(file, params...)
	if err != nil {
		locks.Close()
		return nil, err
	}
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		locks.Close()
		return nil, fmt.Errorf("cannot open catalog %s: %w", path, err)
	}
	c := &Catalog{path: path, file: file, lease: catfile.NewReadLease(locks, path), immutable: !throughLog}
	c.db = sqlx.NewDb(sql.OpenDB(catfile.LeasedConnector(base, c.lease)), "sqlite")
	// Readers may use one connection per core: they run at once.
	c.db.SetMaxOpenConns(runtime.NumCPU())
	if err := c.db.PingContext(ctx); err != nil {
		c.Close()
		return nil, catfile.OpenError(path, err)
	}
	if err := recognise(ctx, c.db, path); err != nil {
		c.Close()
		return nil, err
	}
	if err := c.checkVersion(ctx); err != nil {
		c.Close()
		return nil, err
	}
	if c.immutable {
		c.watchFile()
	}
	if has, err := hasTable(ctx, c.db, "puzzles"); err == nil && has {
		err = c.findSeals(ctx)
	}
	if has, err := hasTable(ctx, c.db, "puzzles"); err != nil || !has {
		c.Close()
		if err != nil {
			return nil, catfile.OpenError(path, err)
		}
		return nil, fmt.Errorf("%s is %w (it has no puzzles table)", path, ErrNotCatalog)
	}
	return c, nil
}

// YieldToWriters is for a long-lived reader (the web server): its idle
// connections, which hold the read byte, are closed whenever a writer waits
// at the gate to copy its log in, so that a build's checkpoints wait only
// for the queries under way. Opening a connection costs milliseconds (the
// schema is read anew): between checkpoints they are kept.
func (c *Catalog) YieldToWriters() {
	if c.lease == nil || c.lease.Off() || c.stopWatch != nil {
		return
	}
	c.stopWatch = make(chan struct{})
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-c.stopWatch:
				return
			case <-tick.C:
				if c.lease.WriterWaiting() {
					c.db.SetMaxIdleConns(0) // closes the idle ones
					c.db.SetMaxIdleConns(idleReaders)
				}
			}
		}
	}()
}

// idleReaders is how many idle connections a reader keeps (database/sql's
// default).
const idleReaders = 2

// SetNotices names where a writer says that it waits for queries to
// finish before it closes.
func (c *Catalog) SetNotices(w io.Writer) { c.notices = w }

// Close closes the catalog. A writer first copies its whole log into the
// file, with readers kept out meanwhile, so that SQLite removes the -wal
// and -shm files as the last connection closes; then it releases its
// locks, and a file it made and left empty is removed.
func (c *Catalog) Close() error {
	if c.closed {
		return nil
	}
	c.changedAtClose = c.changed()
	c.closed = true
	if c.lock == nil {
		if c.stopWatch != nil {
			close(c.stopWatch)
		}
		var err error
		if c.db != nil {
			err = c.db.Close() // every connection: the read byte is let go
		}
		if c.lease != nil {
			c.lease.Close()
		}
		if c.watched != nil {
			c.watched.Close()
		}
		return err
	}
	c.checkpoint.Stop()
	var err error
	if c.db != nil {
		err = c.closeWriter()
	}
	c.release()
	return err
}

// closeWriter copies the log in and closes the writer's connection, which
// makes SQLite remove the -wal and -shm files. SQLite also copies the log
// in as the last connection closes, so that close too happens under the
// read byte; where the byte cannot be had the connection is left open
// rather than copy under readers' feet, and the log stays for the next
// writer, as after a kill.
func (c *Catalog) closeWriter() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	conn, err := c.db.Conn(ctx)
	cancel()
	if err != nil {
		// The connection is held by a transaction left open: database/sql
		// closes it only when that ends. What was committed is copied in
		// from a connection of its own, so the file holds it all.
		// No connection could be opened at all on a full disk; then the
		// log files SQLite made are empty and go.
		ok, _ := c.locks.ExclusiveRead(10*time.Second, nil)
		if ok {
			if dsn, err := catfile.FileURI(c.file, "_pragma=busy_timeout(10000)"); err == nil {
				if db, err := sql.Open("sqlite", dsn); err == nil {
					db.Exec("PRAGMA wal_checkpoint(PASSIVE)")
					db.Close()
				}
			}
		}
		err := c.db.Close()
		if ok {
			catfile.DropEmptyLog(c.file)
			c.locks.Unlock(catfile.ReadByte)
		}
		return err
	}
	patience := time.Duration(0) // wait for the queries of other processes, however long
	if catfile.ReadersInProcess(c.file) {
		patience = 10 * time.Second // this process's own readers may be waiting on it
	}
	ok, lockErr := c.locks.ExclusiveRead(patience, func() {
		if c.notices != nil {
			fmt.Fprintf(c.notices, "solcat: waiting for the queries reading %s to finish, to copy the build's log into it\n", c.path)
		}
	})
	switch {
	case ok:
		defer c.locks.Unlock(catfile.ReadByte)
	case errors.Is(lockErr, catfile.ErrNoByteLocks):
	default:
		conn.Close()
		return nil // left open: see above
	}
	conn.ExecContext(context.Background(), "PRAGMA wal_checkpoint(TRUNCATE)")
	conn.Close()
	err = c.db.Close()
	if ok {
		catfile.DropEmptyLog(c.file)
	}
	return err
}

// release drops a writer's locks, and removes the file if it made it and
// nothing was written into it.
func (c *Catalog) release() {
	if c.created {
		if info, err := os.Stat(c.file); err == nil && info.Size() == 0 {
			catfile.RemoveFiles(c.file)
		}
	}
	c.locks.Close()
	c.lock.Release()
}

// Created reports whether the writer made the catalog file.
func (c *Catalog) Created() bool { return c.created }

// Discard closes a writer's catalog and removes the file it made: for a
// catalog made a moment ago by a command that then failed or wrote
// nothing. A file that was there before is closed as by Close.
func (c *Catalog) Discard() error {
	err := c.Close()
	if c.created {
		catfile.RemoveFiles(c.file)
	}
	return err
}

// createError says what went wrong while a catalog was being made ready
// for writing.
func createError(path string, err error) error {
	if errors.Is(err, ErrNewerSchema) || errors.Is(err, ErrNotCatalog) || errors.Is(err, catfile.ErrDamaged) {
		return err
	}
	return catfile.FaultError("cannot prepare catalog "+path, path, catfile.OpenError(path, err))
}
