package builder

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"solcat/canon"
	"solcat/catalog/catfile"
)

// ErrInterrupted means a build stopped because its context was cancelled
// (Ctrl-C, SIGTERM): what it committed is saved.
var ErrInterrupted = errors.New("interrupted")

// ErrDiskFull means a build stopped because the disk (or a file size
// limit) would take no more: what it committed is saved. It is the
// catalog's own, so a full disk met while opening is the same error.
var ErrDiskFull = catfile.ErrDiskFull

// ErrBug means the build found its own work inconsistent (counts that
// differ from the published ones, rows out of order): nothing of it is
// put in place.
var ErrBug = errors.New("this is a bug")

// StoppedError is a build that stopped before the end, with how much of it
// is saved for the next run to resume.
type StoppedError struct {
	Puzzle      string
	Done, Total int64  // saved so far, of all
	What        string // what Done counts: solutions, classes, work units
	Err         error  // why: wraps ErrInterrupted, ErrDiskFull, ErrBug or another cause
}

func (e *StoppedError) Error() string {
	saved := fmt.Sprintf("%d%% of %s is saved (%s of %s %s)", 100*e.Done/max(e.Total, 1), e.Puzzle, canon.Thousands(e.Done), canon.Thousands(e.Total), e.What)
	if errors.Is(e.Err, ErrInterrupted) {
		return "interrupted: " + saved
	}
	msg := e.Err.Error()
	if !strings.HasPrefix(msg, e.Puzzle) {
		msg = e.Puzzle + ": " + msg
	}
	return msg + "; " + saved
}

func (e *StoppedError) Unwrap() error { return e.Err }

// cause names why a build stopped. A bug, a full disk or an I/O error is
// named even when an interrupt came at the same time: it is what the user
// has to act on. disk tells the faults of the catalog's disk by their
// codes. The driver may report a cancelled context as a closed statement.
func cause(ctx context.Context, err error, disk interface{ Fault(error) error }) error {
	switch fault := disk.Fault(err); {
	case errors.Is(err, ErrBug), errors.Is(err, ErrDiskFull), errors.Is(err, catfile.ErrIO):
		return err
	case fault != nil:
		return fmt.Errorf("%w (%s)", fault, err)
	case ctx.Err() != nil:
		return ErrInterrupted
	}
	return err
}
