package catalog

import (
	"bytes"
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"solcat/migrations"
)

// TestLayoutText checks that a layout is stored as its text and that every
// stored text reads back as itself: those the builds write as their
// layouts (builder's TestLayoutsAsBefore), and one String does not write
// (an older solcat's, a damaged row) as a layout only that text reads as.
func TestLayoutText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Layout
	}{
		{"solcat-2, 4096 rows per unit, indexed blocks", Layout{Solver: "solcat-2", Cut: CutRows, UnitRows: 4096}},
		{"solcat-2, 4096 rows per unit, indexed blocks, stored by first row shard 2/4",
			Layout{Solver: "solcat-2", Cut: CutRows, UnitRows: 4096, ByFirstRow: true, Shard: 2, Of: 4}},
		{"solcat-2, queens classes: 1354 search units, 4194304 classes per unit, packed forms, class index",
			Layout{Solver: "solcat-2", Cut: CutQueensClasses, Units: 1354, UnitRows: 4194304}},
		{"solcat-2, magic:5 classes: 3636 frame units, 10-bit buckets, class index", Layout{Solver: "solcat-2", Cut: CutMagic5Frames, Units: 3636}},
		{"solcat-2, 3636 units", Layout{Solver: "solcat-2", Cut: CutCounts, Units: 3636}},
		{"solcat-2, join counter, 1016 units", Layout{Solver: "solcat-2", Cut: CutCounts, Counter: "join counter", Units: 1016}},
		{"solcat-2, toroidal counter, cut by the mirror, 7 units shard 1/2",
			Layout{Solver: "solcat-2", Cut: CutCounts, Counter: "toroidal counter, cut by the mirror", Units: 7, Shard: 1, Of: 2}},
		{"solcat-2, 4096 rows per unit, solution blocks", Layout{Solver: "solcat-2", other: "4096 rows per unit, solution blocks"}},
		{"solcat-2, 4096 rows per unit, solution blocks, stored by first row shard 2/4",
			Layout{Solver: "solcat-2", other: "4096 rows per unit, solution blocks, stored by first row", Shard: 2, Of: 4}},
		{"test", Layout{Solver: "test"}},
		{"test shard 1/1", Layout{Solver: "test", Shard: 1, Of: 1}},
		{"solcat-2, 012 units", Layout{other: "solcat-2, 012 units"}},
		{"solcat-2, 12 units shard 5/4", Layout{other: "solcat-2, 12 units shard 5/4"}},
		{"solcat-2, 12 units shard 02/4", Layout{other: "solcat-2, 12 units shard 02/4"}},
		{"solcat-2, 12 units shard x", Layout{other: "solcat-2, 12 units shard x"}},
		{"solcat-2, ", Layout{other: "solcat-2, "}},
		{", 12 units", Layout{other: ", 12 units"}},
		{"", Layout{}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := parseLayout(tc.text)
			if got != tc.want || got.String() != tc.text {
				t.Errorf("parseLayout(%q) = %+v (%q), want %+v", tc.text, got, got.String(), tc.want)
			}
		})
	}
}

// TestShardBuildResumes checks that the builds row of a shard's build
// holds its layout's text, which the next writer given the same layout
// resumes and one given another layout starts over.
func TestShardBuildResumes(t *testing.T) {
	ctx := context.Background()
	c := newTestCatalog(t)
	defer c.Close()
	layout := Layout{Solver: "solcat-2", Cut: CutRows, UnitRows: 4096, ByFirstRow: true, Shard: 2, Of: 4}
	plan := BuildPlan{Layout: layout, UnitRows: 1, RowsTotal: 10}
	w, err := c.BeginSolutions(ctx, queens(5), plan, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddClass(1, []byte{1, 2, 3}, 8, 0); err != nil {
		t.Fatal(err)
	}
	w.Rollback()
	var text string
	if err := c.db.GetContext(ctx, &text, "SELECT layout FROM builds WHERE puzzle = 'queens:5'"); err != nil || text != layout.String() {
		t.Fatalf("stored layout %q, %v; want %q", text, err, layout.String())
	}
	for _, tc := range []struct {
		name    string
		layout  Layout
		resumed int64
	}{
		{"read from its text", parseLayout(text), 1},
		{"another shard", Layout{Solver: layout.Solver, Cut: layout.Cut, UnitRows: layout.UnitRows, ByFirstRow: true, Shard: 3, Of: 4}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan.Layout = tc.layout
			w, err := c.BeginSolutions(ctx, queens(5), plan, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			if got := w.Resumed(); got != tc.resumed {
				t.Errorf("resumed %d rows, want %d (%s)", got, tc.resumed, w.Discarded())
			}
		})
	}
}

// TestSavedClassesRead: a resumed build reads the classes an earlier run
// committed from the file's pages, or through SQL while another
// connection holds the log, and gets the same.
func TestSavedClassesRead(t *testing.T) {
	ctx := context.Background()
	c := newTestCatalog(t)
	defer c.Close()
	const n, classes = 5, 3500
	plan := BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 1000, RowsTotal: classes}
	form := func(id int64) []byte { return []byte{byte(id >> 8), byte(id), 1, 2, 3} }
	var forms, orbits []byte
	w, err := c.beginSolutions(ctx, queens(n), plan, classes, 16)
	if err != nil {
		t.Fatal(err)
	}
	// A reader that began between two units' commits: the log cannot be
	// copied into the file past what it reads while it reads.
	other, err := sqlx.Open("sqlite", c.file)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var reader *sqlx.Tx
	for id := int64(1); id <= classes; id++ {
		if err := w.AddClass(id, form(id), []int{1, 2, 4, 8}[id%4], 0); err != nil {
			t.Fatal(err)
		}
		if id <= 3000 { // three units of 1000 are committed, the fourth is lost
			forms, orbits = append(forms, form(id)...), append(orbits, byte([]int{1, 2, 4, 8}[id%4]))
		}
		if id == 1500 {
			if reader, err = other.BeginTxx(ctx, nil); err != nil {
				t.Fatal(err)
			}
			var k int
			if err := reader.Get(&k, "SELECT count(*) FROM classes_queens_5_building"); err != nil || k != 1000 {
				t.Fatalf("%d rows, %v", k, err)
			}
		}
	}
	w.Rollback()
	for _, held := range []bool{true, false} {
		w, err := c.beginSolutions(ctx, queens(n), plan, classes, 16)
		if err != nil {
			t.Fatal(err)
		}
		pageForms, pageOrbits, err := w.savedClassPages(nil, nil)
		if want := map[bool]int{false: 3000, true: 0}[held]; err != nil || len(pageOrbits) != want {
			t.Errorf("log held %v: %d classes read from pages, %v; want %d", held, len(pageOrbits), err, want)
		}
		f, o, err := w.SavedClasses()
		if err != nil || !bytes.Equal(f, forms) || !bytes.Equal(o, orbits) || !held && (!bytes.Equal(pageForms, forms) || !bytes.Equal(pageOrbits, orbits)) {
			t.Errorf("log held %v: %d saved classes, %v; want %d", held, len(o), err, len(orbits))
		}
		w.Rollback()
		reader.Rollback()
	}
}

// TestStagedCountedInIndex: a resumed build counts the solutions saved in
// the block index, without reading every block: a saved build whose index
// lacks a row, or has one damaged, is started over, not resumed.
func TestStagedCountedInIndex(t *testing.T) {
	ctx := context.Background()
	plan := BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 100, RowsTotal: 1 + 5000}
	for _, damage := range []string{"", "DELETE FROM block_index_queens_3_building WHERE first_id = (SELECT min(first_id) FROM block_index_queens_3_building)",
		"DELETE FROM block_index_queens_3_building WHERE first_id = (SELECT max(first_id) FROM block_index_queens_3_building)",
		"UPDATE block_index_queens_3_building SET checksum = checksum + 1 WHERE first_id = (SELECT max(first_id) FROM block_index_queens_3_building)"} {
		c := newTestCatalog(t)
		w, err := c.beginSolutions(ctx, queens(3), plan, 1, 16)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddClass(1, []byte{1, 2, 3}, 8, 0); err != nil {
			t.Fatal(err)
		}
		for i := 1; i < 2500; i++ {
			if err := w.AddSolution([]byte{byte(i >> 8), byte(i), 7}, 1, i%8); err != nil {
				t.Fatal(err)
			}
		}
		w.Rollback()
		_, saved := w.SavedRows()
		if damage != "" {
			c.db.MustExec(damage)
		}
		w, err = c.beginSolutions(ctx, queens(3), plan, 1, 16)
		if err != nil {
			t.Fatal(err)
		}
		_, resumed := w.SavedRows()
		if damage == "" && (resumed != saved || saved == 0 || w.Discarded() != "") || damage != "" && (resumed != 0 || w.Discarded() == "") {
			t.Errorf("%q: resumed %d solutions of %d saved (%s)", damage, resumed, saved, w.Discarded())
		}
		w.Rollback()
		c.Close()
	}
}

// TestReadableColumnsAddedAtCommit: a build fills its class table without
// the readable columns (SQLite would compute them on every insert) and
// they are there once the puzzle is in place, also when an older solcat
// made the saved staging table with them.
func TestReadableColumnsAddedAtCommit(t *testing.T) {
	ctx := context.Background()
	plan := BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 100, RowsTotal: 1 + 10}
	for _, older := range []bool{false, true} {
		c := newTestCatalog(t)
		w, err := c.beginSolutions(ctx, queens(4), plan, 1, 16)
		if err != nil {
			t.Fatal(err)
		}
		if has, err := hasColumn(ctx, w.tx, "main", "classes_queens_4_building", "form"); err != nil || has {
			t.Fatalf("the staging class table has the readable columns (%v)", err)
		}
		if older {
			if _, err := w.tx.ExecContext(ctx, migrations.ReadableClassColumns("classes_queens_4_building", readable(queens(4)))); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.AddClass(1, []byte{1, 3, 0, 2}, 2, 0); err != nil {
			t.Fatal(err)
		}
		for _, s := range [][]byte{{1, 3, 0, 2}, {2, 0, 3, 1}} {
			if err := w.AddSolution(s, 1, 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Commit(Record{Kind: "queens", N: 4, Storage: "solutions", Solutions: 2, Classes: 1, BuiltAtText: "now", SolverVersion: "test"}); err != nil {
			t.Fatalf("older staging table %v: %v", older, err)
		}
		var form, props string
		if err := c.db.QueryRow("SELECT form, properties FROM classes_queens_4").Scan(&form, &props); err != nil || form != "2 4 1 3" || props != "rot90-symmetric" {
			t.Errorf("older staging table %v: form %q, properties %q, %v", older, form, props, err)
		}
		c.Close()
	}
}
