package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"solcat/canon"
	"solcat/catalog/catfile"
)

// Building is the progress of an unfinished build, as the builds row has it.
type Building struct {
	Puzzle        string `db:"puzzle"`
	Layout        Layout `db:"-"` // stored as its text (buildingRow)
	ClassesDone   int64  `db:"classes_done"`
	SolutionsDone int64  `db:"solutions_done"`
	RowsTotal     int64  `db:"rows_total"`
	StartedAt     string `db:"started_at"`
	UpdatedAt     string `db:"updated_at"`
	// ClassesOnly says the build stores the classes alone (its staging
	// tables are those of StorageClasses): RowsTotal counts classes then.
	ClassesOnly bool `db:"-"`
}

// buildingRow is a row of builds as it is read.
type buildingRow struct {
	Building
	Layout storedLayout `db:"layout"`
}

// building is the row's Building.
func (r buildingRow) building() Building {
	b := r.Building
	b.Layout = Layout(r.Layout)
	return b
}

// Building returns the unfinished build of a puzzle, if there is one.
func (w *Work) Building(ctx context.Context, puzzle string) (b Building, ok bool, err error) {
	c := w.c
	if has, err := hasTable(ctx, c.db, "builds"); err != nil || !has {
		return b, false, err // a catalog from before resumable builds
	}
	var row buildingRow
	err = c.db.GetContext(ctx, &row, `SELECT puzzle, layout, classes_done, solutions_done, rows_total, started_at, updated_at FROM builds WHERE puzzle = ?`, puzzle)
	if errors.Is(err, sql.ErrNoRows) {
		return b, false, nil
	}
	b = row.building()
	if err == nil {
		// Only a build stored as classes makes a properties table.
		b.ClassesOnly, err = hasTable(ctx, c.db, propsTable(puzzle)+stagingSuffix)
	}
	return b, err == nil, err
}

// Builds lists the unfinished builds.
func (w *Work) Builds(ctx context.Context) ([]Building, error) {
	c := w.c
	if has, err := hasTable(ctx, c.db, "builds"); err != nil || !has {
		return nil, err
	}
	var out []Building
	err := c.db.SelectContext(ctx, &out, `SELECT puzzle, classes_done, solutions_done, rows_total, started_at, updated_at FROM builds ORDER BY puzzle`)
	return out, err
}

// BuildProblem is something wrong with a row of the builds table, which
// records an unfinished stored build.
type BuildProblem struct {
	Puzzle  string
	Problem string
}

// CheckBuilds compares each row of the builds table (those of the named
// puzzles; every row for nil) with the build tables it stands for, as a
// resumed build would find them: the tables are there, hold the rows the
// row says were committed, and the saved content hash state can be read.
// A row whose tables are gone would make queries and info say the puzzle
// is unfinished when it is not.
func (h *Health) CheckBuilds(ctx context.Context, puzzles []string) ([]BuildProblem, error) {
	c := h.c
	if has, err := hasTable(ctx, c.db, "builds"); err != nil || !has {
		return nil, err
	}
	var rows []struct {
		buildingRow
		HashState []byte `db:"hash_state"`
	}
	if err := c.db.SelectContext(ctx, &rows, `SELECT puzzle, layout, classes_done, solutions_done, rows_total, hash_state, started_at, updated_at FROM builds ORDER BY puzzle`); err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	var problems []BuildProblem
	for _, b := range rows {
		if puzzles != nil && !slices.Contains(puzzles, b.Puzzle) {
			continue
		}
		found, err := c.checkBuild(ctx, b.building(), b.HashState)
		if err != nil {
			return nil, catfile.DamageError(c.path, err)
		}
		for _, p := range found {
			problems = append(problems, BuildProblem{Puzzle: b.Puzzle, Problem: p})
		}
	}
	return problems, nil
}

func (c *Catalog) checkBuild(ctx context.Context, b Building, hashState []byte) ([]string, error) {
	p, err := canon.ParsePuzzle(b.Puzzle)
	if err != nil || p.String() != b.Puzzle {
		return []string{fmt.Sprintf("the builds table records an unfinished build of %q, which is not a puzzle's name", b.Puzzle)}, nil
	}
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	_, cls := puzzleTables(b.Puzzle)
	cls += stagingSuffix
	blocks := blockTable{Table: blocksTable(b.Puzzle) + stagingSuffix, CellBytes: p.Len()}
	hasBlocks, err := hasTable(ctx, c.db, blocks.Table)
	if err != nil {
		return nil, err
	}
	hasClasses, err := hasTable(ctx, c.db, cls)
	if err != nil {
		return nil, err
	}
	var classes, solutions, maxID int64
	switch {
	case !hasClasses:
		report("the builds table records an unfinished build (%d classes and %d solutions saved), but its build tables are missing", b.ClassesDone, b.SolutionsDone)
		return problems, nil
	case hasBlocks:
		if err := c.db.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM "+cls).Scan(&classes); err != nil {
			return nil, err
		}
		if solutions, _, maxID, err = blocks.extent(ctx, c.db); err != nil {
			return nil, err
		}
	default: // stored as classes: units end at block boundaries
		form, err := packedFormOf(p)
		if err != nil {
			report("the builds table records an unfinished build, but its build tables are of no kind this solcat writes")
			return problems, nil
		}
		if err := c.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) * %d FROM %s", form.perBlock, cls)).Scan(&classes); err != nil {
			return nil, err
		}
	}
	// A shard's solution IDs start further on.
	if classes != b.ClassesDone || solutions != b.SolutionsDone || (maxID != solutions && b.Layout.Of == 0) {
		report("the builds table says %d classes and %d solutions of an unfinished build are saved, its build tables hold %d and %d (the next build starts over)",
			b.ClassesDone, b.SolutionsDone, classes, solutions)
	}
	if b.ClassesDone+b.SolutionsDone > b.RowsTotal {
		report("the builds table says %d rows of an unfinished build are saved, more than the %d it expects", b.ClassesDone+b.SolutionsDone, b.RowsTotal)
	}
	if _, err := resumeContentHash(hashState); err != nil {
		report("the saved content hash state of its unfinished build is damaged (the next build starts over)")
	}
	started, err1 := time.Parse(time.RFC3339, b.StartedAt)
	updated, err2 := time.Parse(time.RFC3339, b.UpdatedAt)
	if err1 != nil || err2 != nil || updated.Before(started) {
		report("its unfinished build's times (started %q, updated %q) are not RFC 3339 times, the update after the start", b.StartedAt, b.UpdatedAt)
	}
	return problems, nil
}
