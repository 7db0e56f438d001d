package catalog

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
)

// UnitCounts is what one finished unit of a count-only build found.
type UnitCounts struct {
	Unit   int    `db:"unit"`
	Prefix []byte `db:"prefix"`
	Orbit1 int64  `db:"orbit1"`
	Orbit2 int64  `db:"orbit2"`
	Orbit4 int64  `db:"orbit4"`
	Orbit8 int64  `db:"orbit8"`
	Joined int64  `db:"joined"` // solutions not yet sorted into classes (the join counter)
	Nodes  int64  `db:"nodes"`
}

// DoneUnits returns the finished units of puzzle's count-only build.
func (w *Work) DoneUnits(ctx context.Context, puzzle string) ([]UnitCounts, error) {
	c := w.c
	// One made before the join counter has no unit that would fill joined.
	joined, err := orZero(ctx, c.db, "count_units", "joined")
	if err != nil {
		return nil, err
	}
	var units []UnitCounts
	err = c.db.SelectContext(ctx, &units, `SELECT unit, prefix, orbit1, orbit2, orbit4, orbit8, `+joined+`, nodes
		FROM count_units WHERE puzzle = ? ORDER BY unit`, puzzle)
	return units, err
}

// SaveUnits commits finished units in one transaction: a count of many
// small units saves them in batches, at a commit's cost each batch.
func (w *Work) SaveUnits(ctx context.Context, puzzle string, units []UnitCounts) error {
	c := w.c
	if len(units) == 0 {
		return nil
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO count_units
		(puzzle, unit, prefix, orbit1, orbit2, orbit4, orbit8, joined, nodes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, u := range units {
		if _, err := stmt.ExecContext(ctx, puzzle, u.Unit, u.Prefix, u.Orbit1, u.Orbit2, u.Orbit4, u.Orbit8, u.Joined, u.Nodes); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	c.checkpoint.Committed()
	return nil
}

// ClearUnits forgets puzzle's finished units, to count it again from scratch.
func (w *Work) ClearUnits(ctx context.Context, puzzle string) error {
	c := w.c
	_, err := c.db.ExecContext(ctx, `DELETE FROM count_units WHERE puzzle = ?`, puzzle)
	return err
}

// statKind is what a recorded breakdown counts by.
type statKind uint8

const (
	// statOther is a statistic this solcat does not record, read from
	// a damaged catalog: it keeps its text, so that verify can name it.
	statOther statKind = iota
	statProps          // the class properties: the value is a bit set
	statCell           // the value of one cell
)

// Stat names a recorded breakdown of a puzzle's counts. It is stored as
// its text (String), which parseStat reads back.
type Stat struct {
	kind     statKind
	Row, Col int    // statCell: the cell, 1-based
	text     string // statOther: the text as stored
}

// StatProps is the breakdown by class properties.
var StatProps = Stat{kind: statProps}

// StatCell is the breakdown by the value of one cell (1-based row, col).
func StatCell(row, col int) Stat { return Stat{kind: statCell, Row: row, Col: col} }

// String is the stat as the table count_breakdown stores it: "props",
// "cell:3,3".
func (s Stat) String() string {
	switch s.kind {
	case statProps:
		return "props"
	case statCell:
		return "cell:" + strconv.Itoa(s.Row) + "," + strconv.Itoa(s.Col)
	}
	return s.text
}

// parseStat reads a stored stat. Text that is not one that String writes
// (a damaged row) is a statOther with that text, so that every stored
// text reads back as itself.
func parseStat(text string) Stat {
	s := Stat{kind: statOther, text: text}
	if text == "props" {
		s = StatProps
	} else if cell, ok := strings.CutPrefix(text, "cell:"); ok {
		r, c, _ := strings.Cut(cell, ",")
		row, err1 := strconv.Atoi(r)
		col, err2 := strconv.Atoi(c)
		if err1 == nil && err2 == nil {
			s = StatCell(row, col)
		}
	}
	if s.String() != text {
		return Stat{kind: statOther, text: text}
	}
	return s
}

// storedStat is a stat as its column stores it: its text.
type storedStat Stat

// Scan reads a stat from its column.
func (s *storedStat) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*s = storedStat(parseStat(v))
	case []byte:
		*s = storedStat(parseStat(string(v)))
	default:
		return fmt.Errorf("a stat is text, not %T", src)
	}
	return nil
}

// Value stores a stat as its text.
func (s storedStat) Value() (driver.Value, error) { return Stat(s).String(), nil }

// Breakdown is one row of a count-only puzzle's counts split by a
// statistic, such as the centre value of magic:5 (cell:3,3).
type Breakdown struct {
	Stat      Stat  `db:"-"` // stored as its text (breakdownRow)
	Value     int   `db:"value"`
	Solutions int64 `db:"solutions"`
	Classes   int64 `db:"classes"`
	// Unsealed reports a row that does not match its seal (Breakdowns: for
	// verify to name; Breakdown refuses it).
	Unsealed bool `db:"-"`
}

// breakdownRow is a row of count_breakdown as it is read.
type breakdownRow struct {
	Breakdown
	Stat storedStat `db:"stat"`
}

// breakdown is the row's Breakdown.
func (r breakdownRow) breakdown() Breakdown {
	b := r.Breakdown
	b.Stat = Stat(r.Stat)
	return b
}

// RecordCounts stores a puzzle known by its counts only (and their
// breakdown, if any), replacing whatever the catalog held for it, in one
// transaction.
func (c *Catalog) RecordCounts(ctx context.Context, rec Record, breakdown []Breakdown) error {
	if rec.Storage != StorageCounts {
		return fmt.Errorf("RecordCounts needs storage 'counts', not %q", rec.Storage)
	}
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, cls := puzzleTables(rec.Name)
	_, clsRaw := rawNames(rec.Name)
	drop, err := dropViews(ctx, tx, "main", rec.Name)
	if err != nil {
		return err
	}
	for _, name := range []string{blocksTable(rec.Name), blockIndexTable(rec.Name), cls, clsRaw, propsTable(rec.Name), orbitsTable(rec.Name), classIndexTable(rec.Name), classChecksTable(rec.Name)} {
		drop += "DROP TABLE IF EXISTS " + name + ";"
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM puzzles WHERE name = ?;"+drop, rec.Name); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM shards WHERE puzzle = ?", rec.Name); err != nil {
		return err // the file now holds the puzzle, not a shard of it
	}
	if err := insertBreakdown(ctx, tx, rec, breakdown); err != nil {
		return err
	}
	if err := insertRecord(ctx, tx, rec); err != nil {
		return err
	}
	defer c.checkpoint.Committed()
	return tx.Commit()
}

// insertBreakdown replaces the recorded breakdown of a puzzle, each row
// sealed with the puzzle's record.
func insertBreakdown(ctx context.Context, tx *sql.Tx, rec Record, breakdown []Breakdown) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM count_breakdown WHERE puzzle = ?", rec.Name); err != nil {
		return err
	}
	key := puzzleKey(rec.Name, rec.Solutions, rec.Classes)
	for _, b := range breakdown {
		if _, err := tx.ExecContext(ctx, "INSERT INTO count_breakdown (puzzle, stat, value, solutions, classes, seal) VALUES (?, ?, ?, ?, ?, ?)",
			rec.Name, storedStat(b.Stat), b.Value, b.Solutions, b.Classes, sealOfBreakdown(key, b)); err != nil {
			return err
		}
	}
	return nil
}

// Counting returns the puzzles with a count-only build under way or
// stopped: units saved, no record yet, and not a shard of a split build.
func (w *Work) Counting(ctx context.Context) ([]string, error) {
	c := w.c
	if has, err := hasTable(ctx, c.db, "count_units"); err != nil || !has {
		return nil, err
	}
	notShard := ""
	if has, err := hasTable(ctx, c.db, "shards"); err != nil {
		return nil, err
	} else if has {
		notShard = ` AND puzzle NOT IN (SELECT puzzle FROM shards)`
	}
	var out []string
	err := c.db.SelectContext(ctx, &out, `SELECT DISTINCT puzzle FROM count_units
		WHERE puzzle NOT IN (SELECT name FROM puzzles)`+notShard+` ORDER BY puzzle`)
	return out, err
}
