package catalog

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"solcat/canon"
	"solcat/migrations"
)

// SQL users read a puzzle's rows through columns that show them as people
// do: a solution's (or canonical form's) cells as the text output writes
// them, the symmetry and the properties by name. The expressions depend on
// the puzzle (how many cells, whether a cell is a value or a queen's
// column); they are made here from the puzzle.

// readable returns the readable columns' SQL for p.
func readable(p canon.Puzzle) migrations.Readable {
	cellsText := func(cell func(i int) string) string {
		parts := make([]string, p.Len())
		for i := range parts {
			// A cell is a byte below 128: unicode() reads it as its value, but
			// for the byte 0 (a queen in the first column), which it reads as
			// the empty string.
			v := "coalesce(unicode(" + cell(i) + "), 0)"
			if p.Kind == canon.Queens {
				v += " + 1"
			}
			parts[i] = "(" + v + ")"
		}
		return strings.Join(parts, " || ' ' || ")
	}
	r := migrations.Readable{
		Form:     cellsText(func(i int) string { return "substr(canonical, " + strconv.Itoa(i+1) + ", 1)" }),
		Solution: cellsText,
	}
	if p.Kind == canon.Queens {
		// The symmetry type follows from the orbit (see canon.SymmetryType).
		r.Props = "CASE orbit WHEN 1 THEN 'rot90-symmetric' WHEN 2 THEN 'rot90-symmetric' WHEN 4 THEN 'rot180-only' WHEN 8 THEN 'asymmetric' ELSE '' END"
		return r
	}
	var names []string
	for _, name := range canon.PropertyNames(canon.Magic) {
		bit, _ := canon.ParseProperty(canon.Magic, name)
		names = append(names, fmt.Sprintf("iif(props & %d, ',%s', '')", bit, name))
	}
	r.Props = "substr(" + strings.Join(names, " || ") + ", 2)"
	return r
}

// packedFormText returns the SQL of a packed canonical form's text, given
// the SQL of its bytes (see canon.Pack25 and canon.PackQueens): cell i is
// the 5 bits from bit 5i on, most significant first, one less than the
// value (magic) or the 0-based column (queens), so both print it plus 1.
// hex() reads the bytes: unicode() cannot read those from 128 up.
func packedFormText(cells int) func(packed string) string {
	return func(packed string) string {
		nibble := func(q int) string {
			return "(instr('0123456789ABCDEF', substr(hex(" + packed + "), " + strconv.Itoa(q+1) + ", 1)) - 1)"
		}
		parts := make([]string, cells)
		for i := range parts {
			// The 5 bits lie in nibbles q and q+1 (a nibble is 4 bits).
			o := 5 * i
			parts[i] = fmt.Sprintf("((((%s << 4) | %s) >> %d) & 31) + 1", nibble(o/4), nibble(o/4+1), 3-o%4)
		}
		return "(" + strings.Join(parts, ") || ' ' || (") + ")"
	}
}

// addReadableColumns gives the puzzles stored before the readable columns
// existed their columns and views, in the one transaction of a build's
// start: class tables get the virtual columns, and each solutions view is
// made again. A build's staging class table gets them when it is put in
// place (swapIn).
func (c *Catalog) addReadableColumns(ctx context.Context) error {
	var tables []string
	// The table's name qualified: inside the pragmas, a bare name is the
	// column's.
	if err := c.db.SelectContext(ctx, &tables, `SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name LIKE 'classes!_%' ESCAPE '!'
		AND m.name NOT LIKE '%!`+stagingSuffix+`' ESCAPE '!'
		AND NOT EXISTS (SELECT 1 FROM pragma_table_xinfo(m.name) c WHERE c.name = 'form')
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'canonical')`); err != nil {
		return err
	}
	if len(tables) == 0 {
		return nil
	}
	tx, err := c.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, table := range tables {
		puzzle := puzzleName(strings.TrimSuffix(strings.TrimPrefix(table, "classes_"), rawSuffix))
		p, err := canon.ParsePuzzle(puzzle)
		if err != nil {
			p = canon.Puzzle{Kind: canon.Magic, N: 1} // not a puzzle's table: give it columns all the same
		}
		if _, err := tx.ExecContext(ctx, migrations.ReadableClassColumns(table, readable(p))); err != nil {
			return fmt.Errorf("cannot add the readable columns of %s: %w", table, err)
		}
		rec, ok, err := c.puzzleIn(ctx, tx, puzzle)
		if err != nil || !ok || rec.Storage != StorageSolutions {
			continue
		}
		if err := remakeViews(ctx, tx, p, rec); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// addReadableViews gives the puzzles stored solution by solution before
// the views without bytes existed their views, in the one transaction of a
// build's start: in schema 12 and below solutions_<p> showed the cells as
// bytes (now solutions_<p>_raw); in schema 13 and below classes_<p> was the
// table of classes, canonical forms as bytes (now classes_<p>_raw, under
// the view classes_<p>).
func (c *Catalog) addReadableViews(ctx context.Context) error {
	var puzzles []string
	if err := c.db.SelectContext(ctx, &puzzles, `SELECT name FROM puzzles WHERE storage IN (?, ?) AND (EXISTS (SELECT 1 FROM sqlite_master
		WHERE type = 'view' AND name = 'solutions_' || replace(replace(puzzles.name, ':', '_'), '-', '_')
		AND NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'solutions_' || replace(replace(puzzles.name, ':', '_'), '-', '_') || ?))
		OR EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'classes_' || replace(replace(puzzles.name, ':', '_'), '-', '_')))`,
		StorageSolutions, StorageClasses, rawSuffix); err != nil {
		return err
	}
	if len(puzzles) == 0 {
		return nil
	}
	tx, err := c.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, puzzle := range puzzles {
		p, err := canon.ParsePuzzle(puzzle)
		if err != nil {
			continue // not a puzzle's record: verify names it
		}
		rec, ok, err := c.puzzleIn(ctx, tx, puzzle)
		if err != nil || !ok {
			continue
		}
		if err := remakeViews(ctx, tx, p, rec); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// remakeViews drops and makes again the views of a puzzle stored solution
// by solution, or as its classes only, as this solcat makes them, first
// moving a class table of schema 13 and below from classes_<p> to
// classes_<p>_raw (a rename: its rows stay as they are).
func remakeViews(ctx context.Context, tx *sqlx.Tx, p canon.Puzzle, rec Record) error {
	puzzle := p.String()
	blocks := blocksTable(puzzle)
	var views string
	switch rec.Storage {
	case StorageSolutions:
		if has, err := hasTable(ctx, tx, blocks); err != nil || !has {
			return err // stored before solution blocks: not read any more
		}
		layout, err := blockLayout(ctx, tx, "main", puzzle)
		if err != nil {
			return err
		}
		views = solutionViews(p, blockDigits(rec.Classes, layout), layout, "main.")
	case StorageClasses:
		var err error
		if views, err = packedView(p, "main."); err != nil {
			return err
		}
	default:
		return nil
	}
	ddl, err := dropViews(ctx, tx, "main", puzzle)
	if err != nil {
		return err
	}
	_, cls := puzzleTables(puzzle)
	_, clsRaw := rawNames(puzzle)
	if old, err := hasTable(ctx, tx, cls); err != nil {
		return err
	} else if old {
		ddl += "ALTER TABLE main." + cls + " RENAME TO " + clsRaw + ";"
	}
	if _, err := tx.ExecContext(ctx, ddl+views); err != nil {
		return fmt.Errorf("cannot make the views of %s again: %w", puzzle, err)
	}
	return nil
}
