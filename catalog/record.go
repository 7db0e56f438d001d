package catalog

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"solcat/canon"
)

// Record is what the catalog holds about a puzzle: how it is stored, its
// counts and the build that made them.
type Record struct {
	Name      string
	Kind      canon.Kind
	N         int
	Storage   Storage
	Solutions int64
	Classes   int64
	Orbits    [9]int64 // classes by orbit size, indexed 1, 2, 4 and 8

	// The published counts the build compared its own with, where it
	// knew them; nil where it did not.
	KnownSolutions, KnownClasses *int64
	Verified                     bool // the counts matched the published ones

	SearchNodes   int64
	Workers       int
	BuildSeconds  float64
	BuiltAt       time.Time // when the build ended; zero where BuiltAtText says otherwise
	SolverVersion string
	ContentHash   string // see ContentHash; empty for counts only

	// BuiltAtText is the build's time as stored, where that is not an RFC
	// 3339 time that BuiltAt holds (a row edited by hand, or none): the
	// record is written back with it as it was.
	BuiltAtText string
	// SealProblem says how the record does not match its seal, if it
	// does not: a query refuses it, verify names it.
	SealProblem string
}

// puzzleRow is a puzzle's row in the puzzles table, as it is stored.
type puzzleRow struct {
	Name           string        `db:"name"`
	Kind           string        `db:"kind"`
	N              int           `db:"n"`
	Storage        Storage       `db:"storage"`
	Solutions      int64         `db:"solutions"`
	Classes        int64         `db:"classes"`
	Orbit1         int64         `db:"orbit1"`
	Orbit2         int64         `db:"orbit2"`
	Orbit4         int64         `db:"orbit4"`
	Orbit8         int64         `db:"orbit8"`
	KnownSolutions sql.NullInt64 `db:"known_solutions"`
	KnownClasses   sql.NullInt64 `db:"known_classes"`
	Verified       bool          `db:"verified"`
	SearchNodes    int64         `db:"search_nodes"`
	Workers        int           `db:"workers"`
	BuildSeconds   float64       `db:"build_seconds"`
	BuiltAt        string        `db:"built_at"` // UTC, RFC 3339
	SolverVersion  string        `db:"solver_version"`
	ContentHash    string        `db:"content_hash"`
	Seal           string        `db:"seal"` // see seal.go; empty in catalogs of schema 17 and below
}

// record is the row as a Record; written back (rowOf) it is the same row.
func (r puzzleRow) record() Record {
	rec := Record{Name: r.Name, Kind: canon.Kind(r.Kind), N: r.N, Storage: r.Storage, Solutions: r.Solutions, Classes: r.Classes,
		Orbits:   [9]int64{1: r.Orbit1, 2: r.Orbit2, 4: r.Orbit4, 8: r.Orbit8},
		Verified: r.Verified, SearchNodes: r.SearchNodes, Workers: r.Workers, BuildSeconds: r.BuildSeconds,
		SolverVersion: r.SolverVersion, ContentHash: r.ContentHash}
	if r.KnownSolutions.Valid {
		rec.KnownSolutions = &r.KnownSolutions.Int64
	}
	if r.KnownClasses.Valid {
		rec.KnownClasses = &r.KnownClasses.Int64
	}
	if t, err := time.Parse(time.RFC3339, r.BuiltAt); err == nil && !t.IsZero() && t.Format(time.RFC3339) == r.BuiltAt {
		rec.BuiltAt = t
	} else {
		rec.BuiltAtText = r.BuiltAt
	}
	return rec
}

// rowOf is the row that stores rec, without its seal.
func rowOf(rec Record) puzzleRow {
	r := puzzleRow{Name: rec.Name, Kind: string(rec.Kind), N: rec.N, Storage: rec.Storage, Solutions: rec.Solutions, Classes: rec.Classes,
		Orbit1: rec.Orbits[1], Orbit2: rec.Orbits[2], Orbit4: rec.Orbits[4], Orbit8: rec.Orbits[8],
		Verified: rec.Verified, SearchNodes: rec.SearchNodes, Workers: rec.Workers, BuildSeconds: rec.BuildSeconds,
		BuiltAt: rec.BuiltAtText, SolverVersion: rec.SolverVersion, ContentHash: rec.ContentHash}
	if rec.KnownSolutions != nil {
		r.KnownSolutions = sql.NullInt64{Int64: *rec.KnownSolutions, Valid: true}
	}
	if rec.KnownClasses != nil {
		r.KnownClasses = sql.NullInt64{Int64: *rec.KnownClasses, Valid: true}
	}
	if !rec.BuiltAt.IsZero() {
		r.BuiltAt = rec.BuiltAt.Format(time.RFC3339)
	}
	return r
}

// Puzzles lists the puzzles the catalog holds, magic squares first, by size.
func (c *Catalog) Puzzles(ctx context.Context) ([]Record, error) {
	var rows []puzzleRow
	err := c.db.SelectContext(ctx, &rows, `SELECT * FROM puzzles ORDER BY kind, n`)
	var recs []Record
	for _, r := range rows {
		recs = append(recs, c.checkedRecord(ctx, r))
	}
	return recs, err
}

// checkedRecord is the row as a Record, with its SealProblem if it does
// not match its seal.
func (c *Catalog) checkedRecord(ctx context.Context, r puzzleRow) Record {
	rec := r.record()
	if c.sealed(ctx) && r.Seal != sealOfRecord(r) {
		rec.SealProblem = "its record " + unsealed
	}
	return rec
}

// Puzzle returns one puzzle's record; ok is false if it is not in the catalog.
func (c *Catalog) Puzzle(ctx context.Context, name string) (rec Record, ok bool, err error) {
	return c.puzzleIn(ctx, c.db, name)
}

// puzzleIn is Puzzle, read through q (a transaction).
func (c *Catalog) puzzleIn(ctx context.Context, q sqlx.QueryerContext, name string) (rec Record, ok bool, err error) {
	var row puzzleRow
	err = sqlx.GetContext(ctx, q, &row, `SELECT * FROM puzzles WHERE name = ?`, name)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, false, nil
	}
	return c.checkedRecord(ctx, row), err == nil, err
}
