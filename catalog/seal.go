package catalog

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
)

// Records, recorded counts, kept answers and kept estimates are sealed:
// each row carries in its column seal a digest of its fields (and, for the
// rows about a puzzle, of the puzzle's name and counts), so that a row
// changed behind solcat's back (a count edited with SQL) is never given as
// an answer, and verify names it. The seal guards against mistakes and
// damage, not against someone who means to forge it: the recipe is here.

// sealOf is the seal of a row: the first 16 hex digits of the SHA-256 of
// its table's name and its fields, in order.
func sealOf(table string, fields ...any) string {
	h := sha256.New()
	h.Write([]byte("solcat seal 1\x1e" + table))
	for _, f := range fields {
		var text string
		switch v := f.(type) {
		case float64:
			text = strconv.FormatFloat(v, 'g', -1, 64)
		case []byte:
			text = hex.EncodeToString(v)
		case sql.NullInt64:
			text = "null"
			if v.Valid {
				text = strconv.FormatInt(v.Int64, 10)
			}
		case sql.NullFloat64:
			text = "null"
			if v.Valid {
				text = strconv.FormatFloat(v.Float64, 'g', -1, 64)
			}
		default:
			text = fmt.Sprint(v)
		}
		h.Write([]byte("\x1f" + text))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// sealOfRecord is a puzzle record's seal.
func sealOfRecord(r puzzleRow) string {
	return sealOf("puzzles", r.Name, r.Kind, r.N, string(r.Storage), r.Solutions, r.Classes, r.Orbit1, r.Orbit2, r.Orbit4, r.Orbit8,
		r.KnownSolutions, r.KnownClasses, r.Verified, r.SearchNodes, r.Workers, r.BuildSeconds, r.BuiltAt, r.SolverVersion, r.ContentHash)
}

// puzzleKey is what a row about a puzzle is sealed with of the puzzle: its
// name and counts as its record has them (none for a puzzle not in the
// catalog, past the counted sizes).
func puzzleKey(name string, solutions, classes int64) string {
	return name + " " + strconv.FormatInt(solutions, 10) + " " + strconv.FormatInt(classes, 10)
}

// puzzleKeyOf is puzzle's key, read from its record.
func puzzleKeyOf(ctx context.Context, q rowQueryer, puzzle string) (string, error) {
	var solutions, classes int64
	err := q.QueryRowContext(ctx, "SELECT solutions, classes FROM puzzles WHERE name = ?", puzzle).Scan(&solutions, &classes)
	if errors.Is(err, sql.ErrNoRows) {
		return puzzle, nil
	}
	return puzzleKey(puzzle, solutions, classes), err
}

func sealOfBreakdown(key string, b Breakdown) string {
	return sealOf("count_breakdown", key, b.Stat.String(), b.Value, b.Solutions, b.Classes)
}

func sealOfAnswer(key string, a Answer) string {
	return sealOf("answers", key, a.Question, a.Filter, a.Solutions, a.Method, a.Seconds, a.Workers, a.RecordedAt)
}

func sealOfEstimate(e estimateRow) string {
	return sealOf("estimates", e.Puzzle, e.Question, e.Filter, e.Solutions, e.SolutionsSE, e.SolutionsLow, e.SolutionsHigh,
		e.Classes, e.ClassesSE, e.ClassesLow, e.ClassesHigh, e.Method, e.Seed, e.Probes, e.Seconds, e.Workers, e.RecordedAt)
}

// sealed reports whether the catalog's rows carry seals (schema 18 and
// later; older catalogs opened to read have none to check): found once the
// catalog is open (findSeals), before which nothing is checked.
func (c *Catalog) sealed(context.Context) bool { return c.hasSeals }

// findSeals finds whether the catalog's rows carry seals.
func (c *Catalog) findSeals(ctx context.Context) error {
	var n int
	err := c.db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('puzzles') WHERE name = 'seal'").Scan(&n)
	c.hasSeals = n > 0
	return err
}

// unsealed is the problem of a row whose seal does not match its fields.
const unsealed = "does not match its seal: a field of it was changed behind solcat's back"

// sealLegacyRows seals the rows an older solcat wrote, which a migration
// gave an empty seal: once, as the catalog is opened to write.
func (c *Catalog) sealLegacyRows(ctx context.Context) error {
	tx, err := c.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var recs []puzzleRow
	if err := tx.SelectContext(ctx, &recs, "SELECT * FROM puzzles WHERE seal = ''"); err != nil {
		return err
	}
	for _, r := range recs {
		if _, err := tx.ExecContext(ctx, "UPDATE puzzles SET seal = ? WHERE name = ?", sealOfRecord(r), r.Name); err != nil {
			return err
		}
	}
	var rows []struct {
		Puzzle string `db:"puzzle"`
		breakdownRow
	}
	if err := tx.SelectContext(ctx, &rows, "SELECT puzzle, stat, value, solutions, classes FROM count_breakdown WHERE seal = ''"); err != nil {
		return err
	}
	for _, r := range rows {
		key, err := puzzleKeyOf(ctx, tx, r.Puzzle)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE count_breakdown SET seal = ? WHERE puzzle = ? AND stat = ? AND value = ?", sealOfBreakdown(key, r.breakdown()), r.Puzzle, r.Stat, r.Value); err != nil {
			return err
		}
	}
	var answers []Answer
	if err := tx.SelectContext(ctx, &answers, "SELECT * FROM answers WHERE seal = ''"); err != nil {
		return err
	}
	for _, a := range answers {
		key, err := puzzleKeyOf(ctx, tx, a.Puzzle)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE answers SET seal = ? WHERE puzzle = ? AND question = ?", sealOfAnswer(key, a), a.Puzzle, a.Question); err != nil {
			return err
		}
	}
	var estimates []estimateRow
	if err := tx.SelectContext(ctx, &estimates, "SELECT * FROM estimates WHERE seal = ''"); err != nil {
		return err
	}
	for _, e := range estimates {
		if _, err := tx.ExecContext(ctx, "UPDATE estimates SET seal = ? WHERE puzzle = ? AND question = ? AND seed = ?", sealOfEstimate(e), e.Puzzle, e.Question, e.Seed); err != nil {
			return err
		}
	}
	return tx.Commit()
}
