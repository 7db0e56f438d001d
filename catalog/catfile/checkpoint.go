package catfile

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"time"
)

// Checkpointer copies a writer's write-ahead log into the catalog file
// from a connection of its own, each time the writer commits a unit and
// once a second besides (for commits made outside units). SQLite's own
// checkpoints are off (wal_autocheckpoint 0): every copy runs under the
// read byte held exclusively, so no reader, which reads the file alone,
// sees it change (access.go). A copy waits at most a second for the
// readers; if they hold on longer the log just grows until the next one.
// SQLite starts the log over only when a write transaction begins after
// everything in it was copied, so now and then the writer waits for the
// copying to catch up (CatchUp): the log stays short.
type Checkpointer struct {
	db    *sql.DB
	file  string
	locks *Locks         // nil: no byte locks on this file system
	kick  chan chan bool // a copy asked for; a channel, if any, learns whether it left the log whole in the file
	quit  chan struct{}
	done  chan struct{}

	copiedSize int64 // the log's size and time at the last copy of all of it
	copiedTime time.Time
	lastTry    time.Time
	whole      bool // the last copy left nothing in the log out of the file
}

// minGap spaces the copies asked for by commits: builds that commit many
// small units (counts) would otherwise copy, and sync, after each.
const minGap = 200 * time.Millisecond

// StartCheckpointer takes over the checkpoints of the writer of the
// catalog file, which holds locks.
func StartCheckpointer(ctx context.Context, file string, locks *Locks) (*Checkpointer, error) {
	dsn, err := FileURI(file, "_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := locks.HeldByOther(ReadByte, false); errors.Is(err, ErrNoByteLocks) {
		locks = nil
	}
	cp := &Checkpointer{db: db, file: file, locks: locks, kick: make(chan chan bool, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go cp.run()
	return cp, nil
}

func (cp *Checkpointer) run() {
	defer close(cp.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-cp.quit: // before any other: the writer's last copy comes next
			return
		default:
		}
		select {
		case <-cp.quit:
			return
		case copied := <-cp.kick:
			if copied != nil || time.Since(cp.lastTry) >= minGap {
				cp.copyLog()
			}
			if copied != nil {
				copied <- cp.whole
			}
		case <-tick.C:
			cp.copyLog()
		}
	}
}

// copyLog copies what the log holds into the file, if the log changed
// since the last copy and the readers let it within a second. A copy that
// fails (a full disk) leaves the log longer; the next one, or the
// writer's last, copies it.
func (cp *Checkpointer) copyLog() {
	cp.lastTry = time.Now()
	info, err := os.Stat(cp.file + "-wal")
	if err != nil {
		cp.whole = errors.Is(err, os.ErrNotExist)
		return
	}
	if info.Size() == cp.copiedSize && info.ModTime().Equal(cp.copiedTime) {
		return
	}
	cp.whole = false
	if cp.locks != nil {
		ok, err := cp.locks.ExclusiveRead(time.Second, nil)
		if err != nil || !ok {
			return
		}
		defer cp.locks.Unlock(ReadByte)
	}
	// A reader that began before the last commits holds the frames after
	// it in the log: the copy stops there, and the next one copies again.
	var busy, logged, copied int64
	if err := cp.db.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logged, &copied); err == nil && busy == 0 && logged == copied {
		cp.copiedSize, cp.copiedTime, cp.whole = info.Size(), info.ModTime(), true
	}
}

// Committed asks for a checkpoint, unless one is already waiting to run.
func (cp *Checkpointer) Committed() {
	if cp == nil {
		return
	}
	select {
	case cp.kick <- nil:
	default:
	}
}

// CatchUp returns once the log is copied as far as the readers let it.
func (cp *Checkpointer) CatchUp() { cp.CopyAll() }

// CopyAll copies the log into the file as CatchUp does and reports
// whether the file now holds every page the log held, so that the writer,
// which writes nothing meanwhile, may read the file's pages itself.
func (cp *Checkpointer) CopyAll() bool {
	if cp == nil {
		return false
	}
	copied := make(chan bool, 1)
	cp.kick <- copied
	return <-copied
}

// Stop waits for the checkpoint under way and ends the checkpoints. Call it
// when the writer's connection is free.
func (cp *Checkpointer) Stop() {
	if cp == nil {
		return
	}
	close(cp.quit)
	<-cp.done
	cp.db.Close()
}
