package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog/catfile"
)

// oneUnit writes a whole puzzle in one unit.
var oneUnit = BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 1 << 40}

// queens is queens:n.
func queens(n int) canon.Puzzle { return canon.Puzzle{Kind: canon.Queens, N: n} }

// writePuzzle writes queens:n (n at least 3) with one class and rows made-up
// solutions, the i-th ending with i in 3 bytes, batch rows to an INSERT.
func writePuzzle(t testing.TB, c *Catalog, n int, rows int, batch int) {
	t.Helper()
	ctx := context.Background()
	w, err := c.beginSolutions(ctx, queens(n), oneUnit, 1, batch)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	if err := w.AddClass(1, []byte{1, 2, 3}, 8, 0); err != nil {
		t.Fatal(err)
	}
	cells := make([]byte, n)
	for i := 1; i <= rows; i++ {
		cells[n-3], cells[n-2], cells[n-1] = byte(i>>16), byte(i>>8), byte(i)
		if err := w.AddSolution(cells, 1, i%8); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(Record{Kind: "queens", N: n, Storage: "solutions", Solutions: int64(rows), Classes: 1, BuiltAtText: "now", SolverVersion: "test"}); err != nil {
		t.Fatal(err)
	}
}

func TestWriteAndReadBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cat.db")
	c, err := Create(ctx, path, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	for i, rows := range []int{0, 1, defaultBatch - 1, defaultBatch, 3*defaultBatch + 7} {
		name := fmt.Sprintf("queens:%d", i+3)
		writePuzzle(t, c, i+3, rows, 0)
		var n, sum int64
		sol, _ := puzzleTables(name)
		if err := c.db.QueryRowx("SELECT count(*), coalesce(sum(id), 0) FROM "+sol).Scan(&n, &sum); err != nil {
			t.Fatal(err)
		}
		if n != int64(rows) || sum != int64(rows*(rows+1)/2) {
			t.Errorf("%d rows written, read back %d with id sum %d", rows, n, sum)
		}
	}
	c.Close()

	r, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	recs, err := r.Puzzles(ctx)
	if err != nil || len(recs) != 5 {
		t.Fatalf("Puzzles = %d records, %v; want 5", len(recs), err)
	}
	if _, err := r.db.Exec("DELETE FROM puzzles"); err == nil {
		t.Error("a read-only catalog accepted a DELETE")
	}
}

// newTestCatalog creates an empty catalog in a folder of the test's own.
func newTestCatalog(t *testing.T) *Catalog {
	t.Helper()
	c, err := Create(context.Background(), filepath.Join(t.TempDir(), "cat.db"), catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRollbackKeepsPreviousContent(t *testing.T) {
	ctx := context.Background()
	c := newTestCatalog(t)
	defer c.Close()
	writePuzzle(t, c, 3, 10, 0)
	w, err := c.BeginSolutions(ctx, queens(3), oneUnit, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 1000; i++ {
		w.AddSolution([]byte{9, 9, 9}, 1, 0)
	}
	w.Rollback()
	rec, ok, err := c.Puzzle(ctx, "queens:3")
	if err != nil || !ok || rec.Solutions != 10 {
		t.Fatalf("after rollback: %+v, %v, %v; want the 10-solution build", rec, ok, err)
	}
	var n int
	c.db.Get(&n, "SELECT count(*) FROM solutions_queens_3")
	if n != 10 {
		t.Errorf("after rollback the table has %d rows, want 10", n)
	}
}

func TestOpenRefusals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if _, err := Open(ctx, missing); !errors.Is(err, ErrNoCatalog) {
		t.Errorf("Open(missing) = %v, want ErrNoCatalog", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("Open created the missing file")
	}
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("these are not the rows you are looking for\n"), 0o644)
	create := func(ctx context.Context, path string) (*Catalog, error) { return Create(ctx, path, catfile.Holder{}) }
	for _, open := range []func(context.Context, string) (*Catalog, error){Open, create} {
		if _, err := open(ctx, text); !errors.Is(err, ErrNotCatalog) {
			t.Errorf("opening a text file = %v, want ErrNotCatalog", err)
		}
	}
	if data, _ := os.ReadFile(text); string(data) != "these are not the rows you are looking for\n" {
		t.Error("the text file was changed")
	}
	if _, err := Create(ctx, filepath.Join(dir, "no", "such", "dir", "cat.db"), catfile.Holder{}); err == nil {
		t.Error("Create in a missing folder succeeded")
	}
}

// BenchmarkWriter compares, in one run, the SolutionWriter (solutions in blocks)
// with one row per solution, sent by a prepared multi-row INSERT of 256
// rows as the writer did before blocks; solutions/s is the figure to read.
func BenchmarkWriter(b *testing.B) {
	const rows = 200000
	cases := []struct {
		name  string
		write func(b *testing.B, c *Catalog)
	}{
		{"row-per-solution", func(b *testing.B, c *Catalog) { writeRowPerSolution(b, c, rows) }},
		{"blocks", func(b *testing.B, c *Catalog) { writePuzzle(b, c, 3, rows, 0) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			c, err := Create(context.Background(), filepath.Join(b.TempDir(), "cat.db"), catfile.Holder{})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			for b.Loop() {
				tc.write(b, c)
			}
			b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "solutions/s")
		})
	}
}

// writeRowPerSolution is the baseline: the same solutions, one row each,
// 256 rows per prepared INSERT, in one transaction.
func writeRowPerSolution(b *testing.B, c *Catalog, rows int) {
	const batch = 256
	ctx := context.Background()
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("DROP TABLE IF EXISTS rows; CREATE TABLE rows (id INTEGER PRIMARY KEY, cells BLOB NOT NULL, class_sym INTEGER NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	stmt, err := tx.Prepare("INSERT INTO rows (cells, class_sym) VALUES " + strings.TrimSuffix(strings.Repeat("(?, ?),", batch), ","))
	if err != nil {
		b.Fatal(err)
	}
	args := make([]any, 0, 2*batch)
	for i := 1; i <= rows; i++ {
		args = append(args, []byte{byte(i >> 16), byte(i >> 8), byte(i)}, 1<<3|i%8)
		if len(args) == cap(args) {
			if _, err := stmt.Exec(args...); err != nil {
				b.Fatal(err)
			}
			args = args[:0]
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// TestResumeAfterCrash writes a puzzle in small units, abandons the writer
// in the middle of a unit (as a killed process would), resumes with a new
// writer that is given every row again, and expects the same content hash
// and rows as one uninterrupted build.
func TestResumeAfterCrash(t *testing.T) {
	ctx := context.Background()
	// Units end with a block (1,010 solutions here).
	const solutions = 5000
	per := int64(puzzleBlocks(queens(3), 1).perBlock())
	plan := BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 100, RowsTotal: 1 + solutions}
	write := func(c *Catalog, stopAt int) (string, error) {
		w, err := c.beginSolutions(ctx, queens(3), plan, 1, 16)
		if err != nil {
			return "", err
		}
		defer w.Rollback()
		if err := w.AddClass(1, []byte{1, 2, 3}, 8, 0); err != nil {
			return "", err
		}
		for i := 1; i <= solutions; i++ {
			if i == stopAt {
				return "", nil // crash: the unit in flight is lost
			}
			if err := w.AddSolution([]byte{byte(i >> 8), byte(i), 7}, 1, i%8); err != nil {
				return "", err
			}
		}
		err = w.Commit(Record{Kind: "queens", N: 3, Storage: "solutions", Solutions: solutions, Classes: 1, BuiltAtText: "now", SolverVersion: "test"})
		rec, _, _ := c.Puzzle(ctx, "queens:3")
		return rec.ContentHash, err
	}
	ref := newTestCatalog(t)
	defer ref.Close()
	want, err := write(ref, -1)
	if err != nil || want == "" {
		t.Fatal(err)
	}
	c := newTestCatalog(t)
	defer c.Close()
	for _, stop := range []int{2500, 2500, 4777} {
		if _, err := write(c, stop); err != nil {
			t.Fatal(err)
		}
		b, ok, err := c.Work().Building(ctx, "queens:3")
		if err != nil || !ok {
			t.Fatalf("no saved build after a crash at row %d: %v", stop, err)
		}
		if b.SolutionsDone < per || b.SolutionsDone >= int64(stop) || b.SolutionsDone%per != 0 {
			t.Errorf("crash at solution %d: %d solutions saved", stop, b.SolutionsDone)
		}
	}
	got, err := write(c, -1)
	if err != nil || got != want {
		t.Fatalf("resumed build: hash %s, %v; uninterrupted %s", got, err, want)
	}
	var n, sum int64
	c.db.QueryRowx("SELECT count(*), sum(id) FROM solutions_queens_3").Scan(&n, &sum)
	if n != solutions || sum != solutions*(solutions+1)/2 {
		t.Errorf("%d rows with id sum %d after resuming", n, sum)
	}
	if _, ok, _ := c.Work().Building(ctx, "queens:3"); ok {
		t.Error("the finished build left its builds row")
	}
	var staging int
	c.db.Get(&staging, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_building'")
	if staging != 0 {
		t.Errorf("%d staging tables left", staging)
	}
}

// TestClassesOnlyBlocks: a classes-only build stores its forms 127 to a
// row, resumes at a block boundary, including one where every block was
// committed before the crash, and ends with the same content hash.
func TestClassesOnlyBlocks(t *testing.T) {
	ctx := context.Background()
	for _, classes := range []int64{254, 300} {
		plan := BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 127, RowsTotal: classes}
		form := func(id int64) []byte {
			return []byte{byte(id >> 8), byte(id), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
		}
		write := func(c *Catalog, stopAt int64) (string, error) {
			w, err := c.beginClasses(ctx, canon.Puzzle{Kind: canon.Magic, N: 5}, plan, 4)
			if err != nil {
				return "", err
			}
			defer w.Rollback()
			for id := int64(1); id <= classes; id++ {
				if id == stopAt {
					return "", nil // crash: the unit in flight is lost
				}
				var props uint32
				if id%50 == 0 {
					props = 2
				}
				if err := w.AddClass(id, form(id), 8, props); err != nil {
					return "", err
				}
			}
			if stopAt > classes {
				return "", nil // crash before Commit
			}
			err = w.Commit(Record{Kind: "magic", N: 5, Storage: "classes", Solutions: 8 * classes, Classes: classes, Orbits: [9]int64{8: classes}, BuiltAtText: "now", SolverVersion: "test"})
			rec, _, _ := c.Puzzle(ctx, "magic:5")
			return rec.ContentHash, err
		}
		ref := newTestCatalog(t)
		want, err := write(ref, -1)
		if err != nil || want == "" {
			t.Fatal(err)
		}
		var blocks, bytes, props int64
		ref.db.QueryRowx("SELECT count(*), sum(length(forms)), (SELECT count(*) FROM props_magic_5) FROM classes_magic_5_raw").Scan(&blocks, &bytes, &props)
		if blocks != (classes+126)/127 || bytes != 16*classes || props != classes/50 {
			t.Errorf("%d classes: %d blocks, %d bytes, %d props rows", classes, blocks, bytes, props)
		}
		ref.Close()
		c := newTestCatalog(t)
		for _, stop := range []int64{200, classes + 1} { // the second crash comes after the last unit committed
			if _, err := write(c, stop); err != nil {
				t.Fatal(err)
			}
		}
		got, err := write(c, -1)
		if err != nil || got != want {
			t.Errorf("%d classes: resumed build: hash %s, %v; uninterrupted %s", classes, got, err, want)
		}
		c.Close()
	}
}

func TestDigits(t *testing.T) {
	for _, tc := range []struct {
		v     int64
		width int
		want  string
	}{
		{0, 1, "0"}, {7, 1, "7"}, {7, 3, "007"}, {15, 2, "15"}, {103, 3, "103"}, {1234, 6, "001234"},
		{95823519, 8, "95823519"}, {10, 2, "10"}, {99, 4, "0099"}, {100, 3, "100"},
	} {
		got := string(appendDigits([]byte("x"), tc.v, tc.width))
		if got != "x"+tc.want {
			t.Errorf("appendDigits(%d, %d) = %q, want %q", tc.v, tc.width, got[1:], tc.want)
		}
		if v, ok := parseDigits([]byte(tc.want)); !ok || v != tc.v {
			t.Errorf("parseDigits(%q) = %d, %v", tc.want, v, ok)
		}
	}
	for classes, want := range map[int64]int{0: 2, 1: 2, 12: 3, 1249: 4, 1250: 5, 11977939: 8, 12499999: 8, 12500000: 9} {
		if got := classSymDigits(classes); got != want {
			t.Errorf("ClassSymDigits(%d) = %d, want %d", classes, got, want)
		}
	}
}
