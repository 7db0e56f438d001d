//go:build !linux

package catalog

// Open file description locks are Linux's: elsewhere readers read through
// SQLite's log, as SQLite itself does.

func (l *fileLocks) try(b int64, exclusive bool) (bool, error) { return false, errNoByteLocks }

func (l *fileLocks) unlock(b int64) {}

func (l *fileLocks) heldByOther(b int64, exclusiveOnly bool) (bool, error) {
	return false, errNoByteLocks
}
