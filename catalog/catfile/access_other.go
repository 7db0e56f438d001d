//go:build !linux

package catfile

// Open file description locks are Linux's: elsewhere readers read through
// SQLite's log, as SQLite itself does.

func (l *Locks) Try(b int64, exclusive bool) (bool, error) { return false, ErrNoByteLocks }

func (l *Locks) Unlock(b int64) {}

func (l *Locks) HeldByOther(b int64, exclusiveOnly bool) (bool, error) {
	return false, ErrNoByteLocks
}
