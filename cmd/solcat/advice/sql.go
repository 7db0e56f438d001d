package advice

import (
	"errors"
	"fmt"

	"solcat/catalog/catfile"
	"solcat/catalog/usersql"
)

// SQLRemedy words an error of the user's statement to the catalog at
// path, n rows into it; stopped says that Ctrl-C ended it.
func SQLRemedy(err error, n int, stopped bool, path string) error {
	switch {
	case stopped:
		return fmt.Errorf("%w after %d rows", ErrInterrupted, n)
	case errors.Is(err, usersql.ErrRefused):
		return Usagef("sql: %w", err)
	case errors.Is(err, usersql.ErrTooLarge):
		return Usagef("sql: %w is not printed; select part of it with substr(), or its length with length()", err)
	case errors.Is(err, usersql.ErrNoSuchTable):
		return Usagef("sql: %w; list the tables with: solcat sql \"SELECT name, type FROM sqlite_master ORDER BY name\"", err)
	case errors.Is(err, usersql.ErrNoStatement):
		return Usagef("sql needs a query, for example: solcat sql \"SELECT * FROM puzzles\"")
	case errors.Is(err, usersql.ErrBadSQL):
		return Usagef("sql: %w", err)
	}
	return fmt.Errorf("sql: %w", catfile.DamageError(path, err))
}
