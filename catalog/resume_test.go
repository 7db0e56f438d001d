package catalog

import (
	"bytes"
	"context"
	"os"
	"testing"

	"solcat/catalog/catfile"
	"solcat/migrations"
)

// TestSavedClassPagesRespectsReaders: a reader in another process holds
// the read byte (shared) while a build resumes: the log is not copied
// into the file under it (catfile/access.go: the file never changes under
// a reader), and the saved classes are read through SQL.
func TestSavedClassPagesRespectsReaders(t *testing.T) {
	t.Parallel() // a catalog of its own; its copies wait a second each for the reader
	ctx := context.Background()
	c := newTestCatalog(t)
	defer c.Close()
	reader, err := catfile.OpenLocks(c.file, false)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if ok, err := reader.Try(catfile.ReadByte, false); err != nil || !ok {
		t.Skipf("no read byte: %v %v", ok, err)
	}
	const n, classes = 5, 3500
	plan := BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 1000, RowsTotal: classes}
	w, err := c.beginSolutions(ctx, queens(n), plan, classes, 16)
	if err != nil {
		t.Fatal(err)
	}
	for id := int64(1); id <= classes; id++ {
		if err := w.AddClass(id, []byte{byte(id >> 8), byte(id), 1, 2, 3}, 8, 0); err != nil {
			t.Fatal(err)
		}
	}
	w.Rollback()
	before, err := os.ReadFile(c.file)
	if err != nil {
		t.Fatal(err)
	}
	w, err = c.beginSolutions(ctx, queens(n), plan, classes, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	_, o, err := w.SavedClasses()
	if err != nil || len(o) != 3000 {
		t.Fatalf("%d saved classes, %v", len(o), err)
	}
	after, err := os.ReadFile(c.file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the catalog file changed (%d -> %d bytes) while a reader held the read byte", len(before), len(after))
	}
}

// TestAddReadableColumnsFindsTables: a finished class table without the
// readable columns (a catalog stored before them) gets them at a writable
// open.
func TestAddReadableColumnsFindsTables(t *testing.T) {
	c := newTestCatalog(t)
	defer c.Close()
	c.db.MustExec("CREATE TABLE classes_queens_6_raw (id INTEGER PRIMARY KEY, canonical BLOB NOT NULL, orbit INTEGER NOT NULL, props INTEGER NOT NULL)")
	if err := c.addReadableColumns(context.Background()); err != nil {
		t.Fatal(err)
	}
	if has, err := hasColumn(context.Background(), c.db, "main", "classes_queens_6_raw", "form"); err != nil || !has {
		t.Errorf("classes_queens_6_raw has no form column after addReadableColumns (%v)", err)
	}
}

// TestSavedClassPagesOlderStaging: a staging class table an older solcat
// made with the readable columns is read from pages all the same.
func TestSavedClassPagesOlderStaging(t *testing.T) {
	ctx := context.Background()
	c := newTestCatalog(t)
	defer c.Close()
	const n, classes = 5, 3500
	plan := BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 1000, RowsTotal: classes}
	w, err := c.beginSolutions(ctx, queens(n), plan, classes, 16)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.tx.ExecContext(ctx, migrations.ReadableClassColumns("classes_queens_5_building", readable(queens(n)))); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for id := int64(1); id <= classes; id++ {
		f := []byte{byte(id >> 8), byte(id), 1, 2, 3}
		if id <= 3000 {
			want = append(want, f...)
		}
		if err := w.AddClass(id, f, 8, 5); err != nil {
			t.Fatal(err)
		}
	}
	w.Rollback()
	w, err = c.beginSolutions(ctx, queens(n), plan, classes, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	f, o, err := w.savedClassPages(nil, nil)
	if err != nil || len(o) != 3000 || !bytes.Equal(f, want) {
		t.Errorf("%d classes from pages, %v", len(o), err)
	}
}
