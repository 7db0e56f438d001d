package catalog

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

// checkpointer copies the write-ahead log into the catalog file from a
// connection of its own, after each unit a writer commits. Left to SQLite,
// the commit that takes the log past 1,000 pages does the copying itself,
// on the writer's thread, which is what limits a big build; here it runs
// beside it. SQLite starts the log over only when a write transaction
// begins after everything in it was copied, so now and then the writer
// waits for the copying to catch up (catchUp): the log stays short.
type checkpointer struct {
	writer *sqlx.DB
	db     *sql.DB
	kick   chan chan struct{} // nil: copy when free; else closed once copied
	done   chan struct{}
}

// startCheckpointer takes over the checkpoints of writer, whose catalog
// file is at path.
func startCheckpointer(ctx context.Context, path string, writer *sqlx.DB) (*checkpointer, error) {
	dsn, err := fileURI(path, "_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := writer.ExecContext(ctx, "PRAGMA wal_autocheckpoint = 0"); err != nil {
		db.Close()
		return nil, err
	}
	cp := &checkpointer{writer: writer, db: db, kick: make(chan chan struct{}, 1), done: make(chan struct{})}
	go cp.run()
	return cp, nil
}

func (cp *checkpointer) run() {
	defer close(cp.done)
	for copied := range cp.kick {
		// A checkpoint that fails (the catalog busy, a full disk) leaves the
		// log longer; the next one, or the last connection's close, copies it.
		cp.db.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		if copied != nil {
			close(copied)
		}
	}
}

// committed asks for a checkpoint, unless one is already waiting to run.
func (cp *checkpointer) committed() {
	if cp == nil {
		return
	}
	select {
	case cp.kick <- nil:
	default:
	}
}

// catchUp returns once everything committed so far is copied.
func (cp *checkpointer) catchUp() {
	if cp == nil {
		return
	}
	copied := make(chan struct{})
	cp.kick <- copied
	<-copied
}

// stop waits for the checkpoint under way and gives the checkpoints back
// to SQLite. Call it when the writer's connection is free.
func (cp *checkpointer) stop() {
	if cp == nil {
		return
	}
	close(cp.kick)
	<-cp.done
	cp.db.Close()
	cp.writer.Exec("PRAGMA wal_autocheckpoint = 1000") // SQLite's default
}
