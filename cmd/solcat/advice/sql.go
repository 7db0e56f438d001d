package advice

import (
	"errors"
	"fmt"

	"solcat/catalog"
)

// SQLRemedy words an error of the user's statement to the catalog at
// path, n rows into it; stopped says that Ctrl-C ended it.
func SQLRemedy(err error, n int, stopped bool, path string) error {
	switch {
	case stopped:
		return fmt.Errorf("%w after %d rows", ErrInterrupted, n)
	case errors.Is(err, catalog.ErrRefused):
		return Usagef("sql: %w", err)
	case errors.Is(err, catalog.ErrTooLarge):
		return Usagef("sql: %w is not printed; select part of it with substr(), or its length with length()", err)
	case errors.Is(err, catalog.ErrNoSuchTable):
		return Usagef("sql: %w; list the tables with: solcat sql \"SELECT name, type FROM sqlite_master ORDER BY name\"", err)
	case errors.Is(err, catalog.ErrNoStatement):
		return Usagef("sql needs a query, for example: solcat sql \"SELECT * FROM puzzles\"")
	case errors.Is(err, catalog.ErrBadSQL):
		return Usagef("sql: %w", err)
	}
	return fmt.Errorf("sql: %w", catalog.DamageError(path, err))
}
