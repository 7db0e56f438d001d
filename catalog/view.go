package catalog

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"solcat/canon"
	"solcat/catalog/catfile"
	"solcat/migrations"
)

// CheckView compares a puzzle's solutions view, which SQL users read, with
// the blocks it shows. A view as this solcat makes it shows the blocks
// exactly as long as block_slots is whole (CheckLookups), so only what it
// shows in all is counted: its rows, the lowest, highest and sum of its IDs.
// Any other view (made by an older solcat, or by hand) is compared row by
// row, a range of blocks at a time.
func (s *Content) CheckView(ctx context.Context) ([]string, error) {
	if s.ClassesOnly() {
		return s.checkPackedView(ctx)
	}
	view, _ := puzzleTables(s.Record.Name)
	var text string
	err := s.c.db.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", view).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return []string{fmt.Sprintf("its view %s is missing", view)}, nil
	}
	if err != nil {
		return nil, catfile.DamageError(s.c.path, err)
	}
	_, cls := puzzleTables(s.Record.Name)
	raw, _ := rawNames(s.Record.Name)
	clsView, clsTable := cls, s.classes
	if s.classes == cls {
		// Schema 13 (opened to read only): the classes as text lay in a view
		// beside their table.
		clsView = legacyClassesView(s.Record.Name)
	}
	rawDDL := func(name string) string {
		return migrations.SolutionsView(name, s.blocks.Table, cls, s.blocks.CellBytes, s.blocks.Digits, s.blocks.Layout, readable(s.p))
	}
	readableDDL := statements(migrations.ReadableViews(view, raw, clsView, clsTable))
	switch {
	case sameDDL(text, rawDDL(view)):
		// A catalog of schema 12 and below (opened to read only): one view,
		// with the cells as bytes.
	case sameDDL(text, readableDDL[0]):
		var problems []string
		for _, v := range []struct{ name, ddl string }{{raw, rawDDL(raw)}, {clsView, readableDDL[1]}} {
			var got string
			err := s.c.db.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", v.name).Scan(&got)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				problems = append(problems, fmt.Sprintf("its view %s is missing", v.name))
			case err != nil:
				return nil, catfile.DamageError(s.c.path, err)
			case sameDDL(got, v.ddl):
			case v.name == raw:
				return s.compareView(ctx, raw)
			default:
				problems = append(problems, fmt.Sprintf("its view %s is not the one solcat makes", v.name))
			}
		}
		if problems != nil {
			return problems, nil
		}
	default:
		return s.compareView(ctx, view)
	}
	var shown, expected [4]int64 // rows, lowest, highest and sum of IDs
	if err := s.c.db.QueryRowContext(ctx, "SELECT count(*), coalesce(min(id), 0), coalesce(max(id), 0), coalesce(sum(id), 0) FROM "+view).
		Scan(&shown[0], &shown[1], &shown[2], &shown[3]); err != nil {
		if ctx.Err() != nil || catfile.Damaged(err) {
			return nil, catfile.DamageError(s.c.path, err)
		}
		return []string{fmt.Sprintf("its view %s cannot be read: %v", view, err)}, nil // a table it names is gone
	}
	if err := s.c.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT coalesce(sum(n), 0), coalesce(min(first_id), 0), coalesce(max(first_id + n - 1), 0), coalesce(sum(n * first_id + n * (n - 1) / 2), 0)
		FROM (SELECT first_id, length(cells) / %d AS n FROM %s)`, s.blocks.CellBytes, s.blocks.Table)).
		Scan(&expected[0], &expected[1], &expected[2], &expected[3]); err != nil {
		return nil, catfile.DamageError(s.c.path, err)
	}
	if shown != expected {
		return []string{fmt.Sprintf("its view %s shows %d solutions with IDs %d to %d (sum %d), its blocks hold %d with IDs %d to %d (sum %d)",
			view, shown[0], shown[1], shown[2], shown[3], expected[0], expected[1], expected[2], expected[3])}, nil
	}
	return nil, nil
}

// checkPackedView compares the view of a puzzle stored as its classes
// only with the one this solcat makes (a catalog of schema 13 and below
// has none); verify reads the classes themselves from their table.
func (s *Content) checkPackedView(ctx context.Context) ([]string, error) {
	_, view := puzzleTables(s.Record.Name)
	if s.classes == view {
		return nil, nil
	}
	want, err := packedView(s.p, "")
	if err != nil {
		return nil, err
	}
	var text string
	err = s.c.db.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", view).Scan(&text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return []string{fmt.Sprintf("its view %s is missing", view)}, nil
	case err != nil:
		return nil, catfile.DamageError(s.c.path, err)
	case !sameDDL(text, want):
		return []string{fmt.Sprintf("its view %s is not the one solcat makes", view)}, nil
	}
	return nil, nil
}

// sameDDL reports whether a view's text in sqlite_master is the statement
// ddl, which may end in a semicolon.
func sameDDL(text, ddl string) bool {
	return strings.TrimSpace(text) == strings.TrimSuffix(strings.TrimSpace(ddl), ";")
}

// statements splits DDL into its statements; no statement of a view
// holds a semicolon of its own.
func statements(ddl string) []string {
	var out []string
	for _, s := range strings.Split(ddl, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// viewColumns are the columns a solutions view may have, as solcat has
// made them over time; an older view lacks the readable ones.
var viewColumns = []string{"id", "cells", "class_id", "symmetry", "class_sym", "block", "slot", "solution", "symmetry_name"}

// compareView compares a view that is not the one this solcat makes with
// the blocks, a range of blocks at a time, matching rows by block and slot,
// and names the first difference.
func (s *Content) compareView(ctx context.Context, view string) ([]string, error) {
	var present []string
	if err := s.c.db.SelectContext(ctx, &present, "SELECT name FROM pragma_table_info(?)", view); err != nil {
		return nil, catfile.DamageError(s.c.path, err)
	}
	var columns []string
	for _, c := range viewColumns {
		if slices.Contains(present, c) {
			columns = append(columns, c)
		}
	}
	if !slices.Contains(columns, "block") || !slices.Contains(columns, "slot") {
		return []string{fmt.Sprintf("its view %s has no columns block and slot: it is not a view solcat makes", view)}, nil
	}
	var firsts []int64
	if err := s.c.db.SelectContext(ctx, &firsts, "SELECT first_id FROM "+s.blocks.Table+" ORDER BY first_id"); err != nil {
		return nil, catfile.DamageError(s.c.path, err)
	}
	p := s.p
	var differ, shown int64
	var first string
	found := func(what string) {
		if differ++; first == "" {
			first = what
		}
	}
	const chunk = 64 // blocks compared at a time
	for i := 0; i < len(firsts); i += chunk {
		blocks := firsts[i:min(i+chunk, len(firsts))]
		lo, hi := blocks[0], blocks[len(blocks)-1]
		end := int64(math.MaxInt64)
		if i+chunk < len(firsts) {
			end = firsts[i+chunk] - 1
		}
		var want []viewRow
		err := s.blocks.ScanReporting(ctx, s.c.db, lo, end, func(sol StoredSolution) error {
			want = append(want, expectedViewRow(p, sol, blocks, columns))
			return nil
		}, func(error) {}) // a damaged block is verify's to name
		if err != nil {
			return nil, catfile.DamageError(s.c.path, err)
		}
		rows, err := s.c.db.QueryContext(ctx, "SELECT block, slot, "+quotedColumns(columns)+" FROM "+view+" WHERE block BETWEEN ? AND ? ORDER BY block, slot", lo, hi)
		if err != nil {
			return nil, catfile.DamageError(s.c.path, err)
		}
		k := 0
		for rows.Next() {
			got := viewRow{values: make([]string, len(columns))}
			ptrs := []any{&got.block, &got.slot}
			for j := range got.values {
				ptrs = append(ptrs, &got.values[j])
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return nil, catfile.DamageError(s.c.path, err)
			}
			shown++
			for k < len(want) && want[k].before(got) {
				found(fmt.Sprintf("solution %d is not shown", want[k].block+want[k].slot))
				k++
			}
			if k == len(want) || got.before(want[k]) {
				found(fmt.Sprintf("a row (%s) that no block holds", strings.Join(got.values, ", ")))
				continue
			}
			for j, c := range columns {
				if got.values[j] != want[k].values[j] {
					found(fmt.Sprintf("solution %d has %s %s, its block gives %s", want[k].block+want[k].slot, c, got.values[j], want[k].values[j]))
					break
				}
			}
			k++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, catfile.DamageError(s.c.path, err)
		}
		for ; k < len(want); k++ {
			found(fmt.Sprintf("solution %d is not shown", want[k].block+want[k].slot))
		}
	}
	// Rows outside every block's range, which the ranges above miss.
	var all int64
	if err := s.c.db.QueryRowContext(ctx, "SELECT count(*) FROM "+view).Scan(&all); err != nil {
		return nil, catfile.DamageError(s.c.path, err)
	}
	if all > shown {
		found(fmt.Sprintf("%d rows whose block is none of its blocks", all-shown))
	}
	if differ == 0 {
		return nil, nil
	}
	return []string{fmt.Sprintf("its view %s is not the one solcat makes and differs from its blocks in %d rows; first: %s", view, differ, first)}, nil
}

// viewRow is one row of a solutions view: where it is stored, and its
// columns as SQL literals.
type viewRow struct {
	block, slot int64
	values      []string
}

func (r viewRow) before(o viewRow) bool {
	return r.block < o.block || r.block == o.block && r.slot < o.slot
}

// quotedColumns selects the columns as SQL literals, to compare as text.
func quotedColumns(columns []string) string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = "quote(" + c + ")"
	}
	return strings.Join(out, ", ")
}

// expectedViewRow is what solcat's view shows of one solution, column by
// column as SQL literals; blocks are the first IDs of the blocks read.
func expectedViewRow(p canon.Puzzle, sol StoredSolution, blocks []int64, columns []string) viewRow {
	block := blocks[0]
	for _, f := range blocks {
		if f <= sol.ID {
			block = f
		}
	}
	classSym, _ := sol.t.classEntry(sol.entry)
	r := viewRow{block: block, slot: sol.ID - block, values: make([]string, len(columns))}
	for i, c := range columns {
		switch c {
		case "id":
			r.values[i] = fmt.Sprint(sol.ID)
		case "cells":
			r.values[i] = fmt.Sprintf("X'%X'", sol.Cells)
		case "class_id":
			r.values[i] = fmt.Sprint(classSym >> 3)
		case "symmetry":
			r.values[i] = fmt.Sprint(classSym & 7)
		case "class_sym":
			r.values[i] = fmt.Sprint(classSym)
		case "block":
			r.values[i] = fmt.Sprint(block)
		case "slot":
			r.values[i] = fmt.Sprint(r.slot)
		case "solution":
			var b bytes.Buffer
			for k, v := range sol.Cells {
				if k > 0 {
					b.WriteByte(' ')
				}
				if p.Kind == canon.Queens {
					v++ // people count columns from 1
				}
				fmt.Fprint(&b, v)
			}
			r.values[i] = "'" + b.String() + "'"
		case "symmetry_name":
			r.values[i] = "'" + canon.Symmetry(classSym&7).String() + "'"
		}
	}
	return r
}
