package query_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/migrations"
	"solcat/query"
	"solcat/query/verify"
)

// toColumnBlocks rewrites the solution blocks of the given stored
// puzzles of the catalog at path as a solcat of schema 17 wrote them
// (block layout 2): the synopsis in the block row, class entries in
// decimal, no block index; and the catalog's schema version is 17.
func toColumnBlocks(t *testing.T, path string, puzzles []canon.Puzzle) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, p := range puzzles {
		suffix := strings.NewReplacer(":", "_").Replace(p.String())
		blocks, view, classes := "solution_blocks_"+suffix, "solutions_"+suffix, "classes_"+suffix
		var classCount int64
		if err := db.QueryRow("SELECT count(*) FROM " + classes + "_raw").Scan(&classCount); err != nil {
			t.Fatal(err)
		}
		digits := len(strconv.FormatInt(max(classCount, 1)*8+7, 10))
		width := 1
		for v := max(classCount, 1)*8 + 7; v >= 64; v >>= 6 {
			width++
		}
		bits := p.N
		if p.Kind == canon.Magic {
			bits = p.N*p.N + 1
		}
		c := p.Len()
		rows, err := db.Query("SELECT first_id, cells, class_syms FROM " + blocks)
		if err != nil {
			t.Fatal(err)
		}
		type block struct {
			first       int64
			cells, syms []byte
		}
		var all []block
		for rows.Next() {
			var b block
			if err := rows.Scan(&b.first, &b.cells, &b.syms); err != nil {
				t.Fatal(err)
			}
			all = append(all, b)
		}
		rows.Close()
		if _, err := db.Exec("ALTER TABLE " + blocks + " ADD COLUMN synopsis BLOB NOT NULL DEFAULT x''"); err != nil {
			t.Fatal(err)
		}
		for _, b := range all {
			n := len(b.cells) / c
			syn := make([]byte, (c*bits+7)/8)
			for i := range c {
				for _, v := range b.cells[i*n : (i+1)*n] {
					bit := i*bits + int(v)
					syn[bit/8] |= 1 << (bit % 8)
				}
			}
			var decimal strings.Builder
			for k := range n {
				var v int64
				for _, ch := range b.syms[k*width : (k+1)*width] {
					v = v<<6 | int64(ch-'0')
				}
				fmt.Fprintf(&decimal, "%0*d", digits, v)
			}
			if _, err := db.Exec("UPDATE "+blocks+" SET synopsis = ?, class_syms = ? WHERE first_id = ?", syn, decimal.String(), b.first); err != nil {
				t.Fatal(err)
			}
		}
		ddl := "DROP VIEW " + view + "; DROP VIEW " + view + "_raw; DROP VIEW " + classes + "; DROP TABLE block_index_" + suffix + "; DROP TABLE class_checks_" + suffix + ";" +
			migrations.SolutionsView(view+"_raw", blocks, classes, c, digits, 2, readableOf(p)) +
			migrations.ReadableViews(view, view+"_raw", classes, classes+"_raw")
		if _, err := db.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range puzzles {
		// Their builds recorded no counts by cell.
		if _, err := db.Exec("DELETE FROM count_breakdown WHERE puzzle = ?", p.String()); err != nil {
			t.Fatal(err)
		}
	}
	toSchema17(t, db)
}

// toSchema17 takes back what migration 18 added: its version row, block
// layout 3, the seals.
func toSchema17(t *testing.T, db *sql.DB) {
	t.Helper()
	for _, stmt := range []string{"DELETE FROM solcat_schema_version WHERE version_id > 17", "DELETE FROM block_layouts WHERE layout > 2",
		"ALTER TABLE puzzles DROP COLUMN seal", "ALTER TABLE count_breakdown DROP COLUMN seal", "ALTER TABLE answers DROP COLUMN seal", "ALTER TABLE estimates DROP COLUMN seal", "DELETE FROM properties WHERE name IN ('toroidal', 'superqueen')"} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(stmt, err)
		}
	}
}

// unindex drops the class index of the given puzzles stored as their
// classes, as a solcat of schema 17 stored them, and their recorded counts
// by cell are kept (those builds recorded them too).
func unindex(t *testing.T, path string, puzzles []string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range puzzles {
		if _, err := db.Exec("DROP TABLE class_index_" + strings.NewReplacer(":", "_").Replace(name)); err != nil {
			t.Fatal(err)
		}
	}
	toSchema17(t, db)
}

// readableOf is the solution as people read it, as catalog's readable
// writes it.
func readableOf(p canon.Puzzle) migrations.Readable {
	return migrations.Readable{Solution: func(cell func(int) string) string {
		parts := make([]string, p.Len())
		for i := range parts {
			v := "coalesce(unicode(" + cell(i) + "), 0)"
			if p.Kind == canon.Queens {
				v += " + 1"
			}
			parts[i] = "(" + v + ")"
		}
		return strings.Join(parts, " || ' ' || ")
	}}
}

// toRowMajor rewrites the solution blocks of the given stored puzzles of
// the catalog at path as a solcat before column blocks wrote them: each
// solution's cells in turn, no synopsis column, and the view that reads
// them so, under the name of the readable view (schema 12's one view), and
// the classes under classes_<p>, their table's name then.
func toRowMajor(t *testing.T, path string, puzzles []canon.Puzzle) {
	t.Helper()
	toColumnBlocks(t, path, puzzles)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, p := range puzzles {
		suffix := strings.NewReplacer(":", "_").Replace(p.String())
		blocks, view, classes := "solution_blocks_"+suffix, "solutions_"+suffix, "classes_"+suffix
		rows, err := db.Query("SELECT first_id, cells FROM " + blocks)
		if err != nil {
			t.Fatal(err)
		}
		type block struct {
			first int64
			cells []byte
		}
		var all []block
		for rows.Next() {
			var b block
			if err := rows.Scan(&b.first, &b.cells); err != nil {
				t.Fatal(err)
			}
			all = append(all, b)
		}
		rows.Close()
		c := p.Len()
		for _, b := range all {
			n := len(b.cells) / c
			row := make([]byte, len(b.cells))
			for k := range n {
				for i := range c {
					row[k*c+i] = b.cells[i*n+k]
				}
			}
			if _, err := db.Exec("UPDATE "+blocks+" SET cells = ? WHERE first_id = ?", row, b.first); err != nil {
				t.Fatal(err)
			}
		}
		var classCount int64
		if err := db.QueryRow("SELECT count(*) FROM " + classes).Scan(&classCount); err != nil {
			t.Fatal(err)
		}
		digits := len(strconv.FormatInt(max(classCount, 1)*8+7, 10))
		ddl := "DROP VIEW " + view + "; DROP VIEW " + view + "_raw; DROP VIEW " + classes + "; ALTER TABLE " + classes + "_raw RENAME TO " + classes +
			"; ALTER TABLE " + blocks + " DROP COLUMN synopsis;" +
			migrations.SolutionsView(view, blocks, classes, c, digits, 1, readableOf(p))
		if _, err := db.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	// The catalog of schema 12, which had no other views.
	if _, err := db.Exec("DELETE FROM solcat_schema_version WHERE version_id > 12; DROP TABLE solcat_views; DROP TABLE IF EXISTS answers; DROP TABLE IF EXISTS estimates; DROP TABLE IF EXISTS answer_units; DROP TABLE IF EXISTS build_classes; DELETE FROM properties WHERE name IN ('toroidal', 'superqueen')"); err != nil {
		t.Fatal(err)
	}
}

// copyFile copies a closed catalog file.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// answers asks one puzzle a question in every way a scan answers it:
// counts of solutions and classes, a list page, the classes with a
// matching member; it returns them as text to compare.
func answers(t *testing.T, tg *query.BoundPuzzle, f query.Filter, page query.Window) string {
	t.Helper()
	ctx := context.Background()
	var out strings.Builder
	for _, ask := range []query.Ask{query.AskCount, query.AskCountClasses} {
		plan, err := tg.Plan(ctx, query.Question{Ask: ask, Filter: f})
		if err != nil {
			t.Fatal(err)
		}
		n, err := tg.Count(ctx, plan)
		fmt.Fprintf(&out, "%s: %d %v\n", ask, n, err)
	}
	plan, err := tg.Plan(ctx, query.Question{Ask: query.AskList, Filter: f, Window: page})
	if err != nil {
		t.Fatal(err)
	}
	err = tg.List(ctx, plan, func(s query.Solution) error {
		fmt.Fprintf(&out, "%d %v %d %d %d %d\n", s.ID, s.Cells, s.ClassID, s.Symmetry, s.Orbit, s.Props)
		return nil
	})
	fmt.Fprintf(&out, "list: %v\n", err)
	plan, err = tg.Plan(ctx, query.Question{Ask: query.AskClasses, Filter: f, Window: query.Window{Limit: 50}})
	if err != nil {
		t.Fatal(err)
	}
	err = tg.Classes(ctx, plan, func(c query.Class) error {
		fmt.Fprintf(&out, "class %d %v %d\n", c.ID, c.Canonical, c.Matching)
		return nil
	})
	fmt.Fprintf(&out, "classes: %v\n", err)
	return out.String()
}

// layoutFilter is a random filter: up to three cells, sometimes up to
// symmetry, an orbit size or a property, and (queens) sometimes a cell
// of the first row, so that a prefix range is scanned too.
func layoutFilter(r *rand.Rand, p canon.Puzzle) query.Filter {
	var f query.Filter
	for range 1 + r.IntN(3) {
		c := query.Cell{Row: 1 + r.IntN(p.N), Col: 1 + r.IntN(p.N), Value: 1}
		if p.Kind == canon.Magic {
			c.Value = 1 + r.IntN(p.N*p.N)
		} else if r.IntN(4) == 0 {
			c.Value = 0
		}
		f.Cells = append(f.Cells, c)
	}
	switch r.IntN(8) {
	case 0:
		f.UpToSymmetry = true
	case 1:
		f.Orbit = []int{2, 4, 8}[r.IntN(3)]
	case 2:
		names := canon.PropertyNames(p.Kind)
		prop, _ := canon.ParseProperty(p.Kind, names[r.IntN(len(names))])
		if prop.DudeneyOf() == 0 || p.N == 4 {
			f.Props = prop
		}
	case 3:
		f.Cells = nil // the whole puzzle: a jump, or the record
	}
	return f
}

// TestLayoutsAnswerAlike builds magic:1-4 and queens:1-11 (1-16 with
// SOLCAT_LONG=1) stored solution by solution in
// column blocks, rewrites a copy of the catalog into the row-major blocks
// of catalogs made before them, and checks that random questions get the
// same answers from both, that both verify with the recorded content
// hashes, and that their solutions views show the same rows. It also
// builds queens:10-11 (10-13 with SOLCAT_LONG=1) as classes and checks
// that their counts equal the stored puzzles'.
func TestLayoutsAnswerAlike(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	newPath, oldPath, columnPath, classesPath := filepath.Join(dir, "new.db"), filepath.Join(dir, "old.db"), filepath.Join(dir, "column.db"), filepath.Join(dir, "classes.db")
	stored := []string{"magic:1", "magic:2", "magic:3", "magic:4"}
	lastQueens, classQueens := 12, []string{"queens:10", "queens:11", "queens:12", "queens:13"}
	switch {
	case os.Getenv("SOLCAT_LONG") != "" && !testing.Short():
		lastQueens = 16 // long: 17.5 million more solutions
	default:
		lastQueens, classQueens = 11, classQueens[:2] // queens:12 and 13 as classes with SOLCAT_LONG=1
	}
	for n := 1; n <= lastQueens; n++ {
		stored = append(stored, fmt.Sprintf("queens:%d", n))
	}
	var puzzles []canon.Puzzle
	cat, err := catalog.Create(ctx, newPath, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range stored {
		rec, err := (&builder.Builder{Cat: cat}).Build(ctx, mustPuzzle(name), builder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Record.Solutions > 0 {
			puzzles = append(puzzles, mustPuzzle(name))
		}
	}
	cat.Close()
	cat, err = catalog.Create(ctx, classesPath, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range classQueens {
		if _, err := (&builder.Builder{Cat: cat}).Build(ctx, mustPuzzle(name), builder.Options{AsClasses: true}); err != nil {
			t.Fatal(err)
		}
	}
	cat.Close()
	copyFile(t, newPath, oldPath)
	toRowMajor(t, oldPath, puzzles)
	copyFile(t, newPath, columnPath)
	toColumnBlocks(t, columnPath, puzzles)
	// The classes-only puzzles as a solcat of schema 17 stored them: no
	// class index.
	unindexedPath := filepath.Join(dir, "unindexed.db")
	copyFile(t, classesPath, unindexedPath)
	unindex(t, unindexedPath, classQueens)

	r := rand.New(rand.NewPCG(27, 1))
	for _, p := range puzzles {
		t.Run(p.String(), func(t *testing.T) {
			newer, older, column := bind(t, newPath, p.String()), bind(t, oldPath, p.String()), bind(t, columnPath, p.String())
			if newer.Record.ContentHash != older.Record.ContentHash || newer.Record.ContentHash != column.Record.ContentHash {
				t.Fatalf("content hashes %s, %s and %s", newer.Record.ContentHash, column.Record.ContentHash, older.Record.ContentHash)
			}
			for name, path := range map[string]string{"indexed blocks": newPath, "column blocks": columnPath, "row-major blocks": oldPath} {
				c, err := catalog.Open(ctx, path)
				if err != nil {
					t.Fatal(err)
				}
				var problems []string
				err = verify.Puzzle(ctx, c, p, newer.Record, func(problem string) { problems = append(problems, problem) })
				c.Close()
				if err != nil || len(problems) > 0 {
					t.Errorf("%s: verify: %v %v", name, problems, err)
				}
			}
			if a, b, c := viewRows(t, newPath, p), viewRows(t, oldPath, p), viewRows(t, columnPath, p); a != b || a != c || a == "" {
				t.Errorf("the views differ:\n%.300s\n%.300s\n%.300s", a, c, b)
			}
			// Ten solutions or fewer have few answers to tell apart, and
			// most pages past them are empty: ten questions ask them all.
			questions := 40
			if newer.Record.Solutions <= 10 {
				questions = 10
			}
			for range questions {
				f := layoutFilter(r, p)
				page := query.Window{Offset: int64(r.IntN(30)), Limit: int64(1 + r.IntN(20))}
				a, b, c := answers(t, newer, f, page), answers(t, older, f, page), answers(t, column, f, page)
				if a != b || a != c {
					t.Errorf("%s, page %+v: indexed blocks answer\n%s\ncolumn blocks\n%s\nrow-major blocks\n%s", f.String(p), page, a, c, b)
				}
			}
		})
	}
	for _, name := range classQueens {
		t.Run(name+" as classes", func(t *testing.T) {
			asClasses, bySolutions, unindexed := bind(t, classesPath, name), bind(t, newPath, name), bind(t, unindexedPath, name)
			p := asClasses.Puzzle
			for range 40 {
				f := layoutFilter(r, p)
				page := query.Window{Offset: int64(r.IntN(30)), Limit: int64(1 + r.IntN(20))}
				if a, b := answers(t, asClasses, f, page), answers(t, unindexed, f, page); a != b {
					t.Errorf("%s, page %+v: with a class index\n%s\nwithout\n%s", f.String(p), page, a, b)
				}
				for _, ask := range []query.Ask{query.AskCount, query.AskCountClasses} {
					var got [3]int64
					for i, tg := range []*query.BoundPuzzle{asClasses, bySolutions, unindexed} {
						plan, err := tg.Plan(ctx, query.Question{Ask: ask, Filter: f})
						if err != nil {
							t.Fatal(err)
						}
						if got[i], err = tg.Count(ctx, plan); err != nil {
							t.Fatal(err)
						}
					}
					if got[0] != got[1] || got[0] != got[2] {
						t.Errorf("%s, %s: %d as classes, %d stored solution by solution, %d as classes without a class index", f.String(p), ask, got[0], got[1], got[2])
					}
				}
			}
		})
	}
}

// viewRows reads every row of a puzzle's solutions view but the readable
// text (which toRowMajor does not make as solcat does). It opens the file
// immutable, as catalog's readers do: a plain read-only connection leaves
// -wal and -shm beside it for the next catalog opened to fold in.
func viewRows(t *testing.T, path string, p canon.Puzzle) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	view := "solutions_" + strings.NewReplacer(":", "_").Replace(p.String())
	var raw int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = ?", view+"_raw").Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if raw > 0 {
		view += "_raw" // schema 12's one view is the raw one of schema 13
	}
	rows, err := db.Query("SELECT id, cells, class_id, symmetry, class_sym, block, slot, symmetry_name FROM " + view + " ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out bytes.Buffer
	for rows.Next() {
		var id, class, sym, classSym, block, slot int64
		var cells []byte
		var symName string
		if err := rows.Scan(&id, &cells, &class, &sym, &classSym, &block, &slot, &symName); err != nil {
			t.Fatal(err)
		}
		if len(cells) != p.Len() {
			t.Fatalf("solution %d: %d cells in the view", id, len(cells))
		}
		fmt.Fprintln(&out, id, cells, class, sym, classSym, block, slot, symName)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestEqualLanes compares the word-at-a-time comparison of a block scan
// with a byte-by-byte one, on words with every value in every lane.
func TestEqualLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name string
		word func() [8]byte
	}{
		{"random", func() (w [8]byte) {
			for i := range w {
				w[i] = byte(r.IntN(256))
			}
			return w
		}},
		{"small values", func() (w [8]byte) {
			for i := range w {
				w[i] = byte(r.IntN(3))
			}
			return w
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 2000 {
				w := tc.word()
				for v := range 256 {
					got := query.EqualLanesForTest(w, byte(v))
					var want [8]bool
					for i, b := range w {
						want[i] = b == byte(v)
					}
					if got != want {
						t.Fatalf("lanes of %v equal to %d: %v, want %v", w, v, got, want)
					}
				}
			}
		})
	}
}

// TestOldCatalogTakenOn makes a catalog of schema version 11, as a solcat
// before column blocks left it (row-major blocks, no block_layouts), and
// checks that a reader answers from it as from column blocks and its plans
// say the blocks are of the older layout; that a build of another puzzle
// takes it to the current schema version and stores that puzzle in column
// blocks, while the puzzles already there keep their blocks and answers.
func TestOldCatalogTakenOn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	newPath, oldPath := filepath.Join(dir, "new.db"), filepath.Join(dir, "old.db")
	cat, err := catalog.Create(ctx, newPath, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	old := []canon.Puzzle{mustPuzzle("magic:3"), mustPuzzle("queens:8"), mustPuzzle("queens:10")}
	for _, p := range old {
		if _, err := (&builder.Builder{Cat: cat}).Build(ctx, p, builder.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	cat.Close()
	copyFile(t, newPath, oldPath)
	toRowMajor(t, oldPath, old)
	db, err := sql.Open("sqlite", oldPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DELETE FROM solcat_schema_version WHERE version_id = 12; DROP TABLE block_layouts"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	filter := query.Filter{Cells: []query.Cell{{Row: 4, Col: 3, Value: 1}}}
	compare := func(t *testing.T, stage string) {
		r := rand.New(rand.NewPCG(11, 12))
		for _, p := range old {
			newer, older := bind(t, newPath, p.String()), bind(t, oldPath, p.String())
			for range 20 {
				f := layoutFilter(r, p)
				if a, b := answers(t, newer, f, query.Window{Limit: 10}), answers(t, older, f, query.Window{Limit: 10}); a != b {
					t.Errorf("%s, %s %s: column blocks answer\n%s\nrow-major blocks\n%s", stage, p, f.String(p), a, b)
				}
			}
		}
		older := bind(t, oldPath, "queens:10")
		plan, err := older.Plan(ctx, query.Question{Ask: query.AskCount, Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		if text := older.ExplainReading(ctx, plan).Text(); !strings.Contains(text, "they are of an older layout (row-major, without synopses)") || !older.ExplainReading(ctx, plan).OlderLayout {
			t.Errorf("%s: the plan does not say the blocks are of the older layout:\n%s", stage, text)
		}
	}
	t.Run("read", func(t *testing.T) { compare(t, "read") })
	t.Run("written", func(t *testing.T) {
		cat, err := catalog.Create(ctx, oldPath, catfile.Holder{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (&builder.Builder{Cat: cat}).Build(ctx, mustPuzzle("queens:6"), builder.Options{}); err != nil {
			t.Fatal(err)
		}
		cat.Close()
		compare(t, "written")
		// Immutable: a plain read-only connection leaves -wal and -shm
		// beside the file, and the catalog opened below would wait seconds
		// for the readers above to fold them in.
		db, err := sql.Open("sqlite", "file:"+oldPath+"?mode=ro&immutable=1")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var version, layouts, indexes int64
		err = db.QueryRow(`SELECT (SELECT max(version_id) FROM solcat_schema_version), (SELECT count(*) FROM block_layouts),
			(SELECT count(*) FROM sqlite_master WHERE name LIKE 'block_index_%')`).Scan(&version, &layouts, &indexes)
		if err != nil || version != migrations.Latest() || layouts != 3 || indexes != 1 {
			t.Errorf("schema version %d, %d block layouts, %d block indexes (%v); want %d, 3 and 1 (queens:6's)", version, layouts, indexes, err, migrations.Latest())
		}
		tg := bind(t, oldPath, "queens:6")
		plan, err := tg.Plan(ctx, query.Question{Ask: query.AskCount, Filter: query.Filter{Cells: []query.Cell{{Row: 2, Col: 3, Value: 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := tg.Count(ctx, plan); err != nil || n != 1 {
			t.Errorf("queens:6 --cell 2,3=1: %d, %v; want 1", n, err)
		}
	})
}
