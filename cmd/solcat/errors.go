package main

import (
	"errors"
	"fmt"

	"solcat/catalog"
)

// errInterrupted is the error of a command stopped by Ctrl-C or SIGTERM.
var errInterrupted = errors.New("interrupted")

// withRemedy adds to an error from below cmd what the user can do about it:
// the packages below state facts and name no flags or commands.
func withRemedy(err error) error {
	var busy *catalog.BusyError
	switch {
	case errors.As(err, &busy):
		return fmt.Errorf("%w; wait for it to finish (or stop it), then run this command again", err)
	case errors.Is(err, catalog.ErrNoCatalog):
		return fmt.Errorf("%w; run 'solcat build' to create it, or point --db at an existing catalog", err)
	case errors.Is(err, catalog.ErrDamaged):
		return fmt.Errorf("%w; 'solcat verify' names the damaged puzzles: rebuild them with 'solcat build PUZZLE --force', or build a new catalog with 'solcat --db NEW build'", err)
	case errors.Is(err, catalog.ErrNewerSchema):
		return fmt.Errorf("%w; use a newer solcat", err)
	case errors.Is(err, catalog.ErrNotCatalog):
		return fmt.Errorf("%w; point --db at a catalog made by 'solcat build', or at a new file", err)
	case errors.Is(err, catalog.ErrNoFolder):
		return fmt.Errorf("%w; create it or choose another --db", err)
	case errors.Is(err, catalog.ErrReadOnlyFolder):
		return fmt.Errorf("%w; fix its permissions or choose another --db", err)
	}
	return err
}
