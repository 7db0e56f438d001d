package main

import (
	"errors"
	"fmt"
	"strconv"

	"solcat/catalog"
	"solcat/query"
)

type sqlCmd struct {
	Query string `arg:"" name:"query" help:"One read-only statement: SELECT, WITH, VALUES, EXPLAIN or a PRAGMA that reads."`
	formatFlags
}

func (s *sqlCmd) Help() string {
	return `The catalog is opened read-only and statements that write are refused;
rows stream as they come. Blob cells are shown as their stored byte values
(queens: 0-based columns); the views' solution column and the classes'
form and properties columns show them as people read them, and the tables
symmetries and properties name the stored numbers and bits. The schema is
in docs/schema.md. A string or blob larger than ` + strconv.Itoa(catalog.MaxValueMB) + ` MB is refused
(the catalog's own are a few KB): select part of it with substr().

Examples:
  solcat sql "SELECT name, solutions, classes FROM puzzles"
  solcat sql "SELECT solution, symmetry_name FROM solutions_queens_6"
  solcat sql "SELECT form, properties FROM classes_magic_4 WHERE properties LIKE '%pandiagonal%'"
  solcat sql "SELECT orbit, count(*) FROM classes_queens_10 GROUP BY orbit" --format csv`
}

func (s *sqlCmd) Run(e *env) error {
	format, err := s.format()
	if err != nil {
		return err
	}
	cat, err := e.open("")
	if err != nil {
		return err
	}
	defer cat.Close()
	rows, err := cat.Query(e.ctx, s.Query)
	if err != nil {
		return sqlError(e, err, 0)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return sqlError(e, err, 0)
	}
	// Rows are written as they come: memory stays flat however many there
	// are, and the first appear at once.
	out := query.NewPrinter(e.stdout, format, !s.NoHeaders)
	if len(cols) == 0 {
		return out.Close()
	}
	n := 0
	for rows.Next() {
		if e.ctx.Err() != nil {
			break
		}
		vals, err := rows.Values()
		if err != nil {
			return sqlError(e, err, n)
		}
		row := make(query.Object, len(cols))
		for i, v := range vals {
			row[i] = query.Field{Name: cols[i], Value: v} // a blob prints as its byte values
		}
		if err := out.Write(row); err != nil {
			return sqlError(e, err, n)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return sqlError(e, err, n)
	}
	if e.ctx.Err() != nil {
		return sqlError(e, e.ctx.Err(), n)
	}
	if err := out.Close(); err != nil {
		return sqlError(e, err, n)
	}
	return nil
}

// sqlError explains an error of the user's statement, n rows into it.
func sqlError(e *env, err error, n int) error {
	switch {
	case e.ctx.Err() != nil:
		return fmt.Errorf("%w after %d rows", errInterrupted, n)
	case errors.Is(err, catalog.ErrRefused):
		return usagef("sql: %w", err)
	case errors.Is(err, catalog.ErrTooLarge):
		return usagef("sql: %w is not printed; select part of it with substr(), or its length with length()", err)
	case errors.Is(err, catalog.ErrNoSuchTable):
		return usagef("sql: %w; list the tables with: solcat sql \"SELECT name, type FROM sqlite_master ORDER BY name\"", err)
	case errors.Is(err, catalog.ErrNoStatement):
		return usagef("sql needs a query, for example: solcat sql \"SELECT * FROM puzzles\"")
	case errors.Is(err, catalog.ErrBadSQL):
		return usagef("sql: %w", err)
	}
	return fmt.Errorf("sql: %w", catalog.DamageError(e.cli.DB, err))
}
