package advice

import (
	"errors"
	"fmt"

	"solcat/canon"
	"solcat/catalog/builder"
	"solcat/query"
	"solcat/query/check"
)

// ErrInterrupted is the error of a command stopped by Ctrl-C or SIGTERM.
var ErrInterrupted = errors.New("interrupted")

// Usage marks a mistake in the command line: exit status 2. It words the
// mistake whole: Remedy adds nothing to it.
type Usage struct{ error }

// Usagef is a mistake in the command line, worded as fmt.Errorf words it.
func Usagef(format string, args ...any) error { return Usage{fmt.Errorf(format, args...)} }

// ExitStatus is the exit status of a command that failed with err: 2 for
// a bad command line (a puzzle, filter, flag, shard or split that cannot
// be, a refused statement), 1 for anything else.
func ExitStatus(err error) int {
	var usage Usage
	for _, bad := range []error{canon.ErrNotation, query.ErrFilter, query.ErrNoClass, query.ErrNoSolution,
		builder.ErrUnsupported, builder.ErrBadShard, builder.ErrBadSplit, builder.ErrOutputHolds, builder.ErrOtherShard, check.ErrUnreadable} {
		if errors.Is(err, bad) {
			return 2
		}
	}
	if errors.As(err, &usage) {
		return 2
	}
	return 1
}

// UsageOf marks err as a mistake in the command line.
func UsageOf(err error) error { return Usage{err} }
