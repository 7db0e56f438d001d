package catalog

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"solcat/catalog/catfile"
	"solcat/migrations"
)

// execRaw runs statements on a catalog file as another program would.
func execRaw(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// versionTables lists the catalog's tables that record its migrations.
func versionTables(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var names []string
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('goose_db_version', 'solcat_schema_version') ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		rows.Scan(&name)
		names = append(names, name)
	}
	return names
}

// TestVersionTableRenamed checks that a catalog made before the version
// table had solcat's name is read as it is, refused as it is when its
// schema is newer, and has the table renamed, with its rows, once it is
// opened for writing, damaged views and all; and that the files an
// interrupted first migration leaves are recognised by either name.
func TestVersionTableRenamed(t *testing.T) {
	ctx := context.Background()
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	w, err := Create(ctx, fresh, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	writePuzzle(t, w, 3, 10, 0)
	w.Close()
	if got := versionTables(t, fresh); len(got) != 1 || got[0] != versionTable {
		t.Fatalf("a new catalog records its versions in %v", got)
	}
	old := func(t *testing.T, stmts ...string) string {
		data, err := os.ReadFile(fresh)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "old.db")
		os.WriteFile(path, data, 0o644)
		execRaw(t, path, append([]string{"ALTER TABLE solcat_schema_version RENAME TO goose_db_version"}, stmts...)...)
		return path
	}
	t.Run("read as it is", func(t *testing.T) {
		path := old(t, "PRAGMA application_id = 0")
		before, _ := os.ReadFile(path)
		r, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		v, err := r.schemaVersion(ctx)
		r.Close()
		if err != nil || v != migrations.Latest() {
			t.Errorf("schema version %d, %v; want %d", v, err, migrations.Latest())
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Error("reading the catalog changed it")
		}
	})
	for _, open := range []struct {
		name string
		open func(context.Context, string) (*Catalog, error)
	}{
		{"read", Open},
		{"written", func(ctx context.Context, path string) (*Catalog, error) { return Create(ctx, path, catfile.Holder{}) }},
	} {
		t.Run("newer, "+open.name, func(t *testing.T) {
			path := old(t, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99, 1)")
			before, _ := os.ReadFile(path)
			if c, err := open.open(ctx, path); !errors.Is(err, ErrNewerSchema) {
				if err == nil {
					c.Close()
				}
				t.Fatalf("%v, want ErrNewerSchema", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the newer catalog was changed")
			}
		})
	}
	t.Run("renamed by a writer", func(t *testing.T) {
		// A view whose table is gone: SQLite's own rename would refuse it.
		path := old(t, "PRAGMA application_id = 0", "CREATE TABLE gone (x)", "CREATE VIEW broken AS SELECT x FROM gone", "DROP TABLE gone")
		var want [2]int64
		c, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		c.db.QueryRowContext(ctx, "SELECT count(*), max(id) FROM goose_db_version").Scan(&want[0], &want[1])
		c.Close()
		for range 2 {
			w, err := Create(ctx, path, catfile.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			if got := versionTables(t, path); len(got) != 1 || got[0] != versionTable {
				t.Fatalf("after a writer: version tables %v", got)
			}
		}
		r, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var got [2]int64
		r.db.QueryRowContext(ctx, "SELECT count(*), max(id) FROM solcat_schema_version").Scan(&got[0], &got[1])
		if got != want || want[0] == 0 {
			t.Errorf("the renamed table has %d rows up to ID %d, the old one had %d up to %d", got[0], got[1], want[0], want[1])
		}
		if v, err := r.schemaVersion(ctx); err != nil || v != migrations.Latest() {
			t.Errorf("schema version %d, %v", v, err)
		}
		var rec Record
		if rec, _, err = r.Puzzle(ctx, "queens:3"); err != nil || rec.Solutions != 10 {
			t.Errorf("queens:3 after the rename: %+v, %v", rec, err)
		}
	})
	for _, tc := range []struct {
		table string
		ok    bool
	}{
		{"goose_db_version", true},
		{"solcat_schema_version", true},
		{"notes", false},
	} {
		t.Run("a first migration cut short, "+tc.table, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cut.db")
			execRaw(t, path, "CREATE TABLE "+tc.table+" (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL, is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')))", // as goose makes it
				"INSERT INTO "+tc.table+" (version_id, is_applied) VALUES (0, 1)")
			w, err := Create(ctx, path, catfile.Holder{})
			if !tc.ok {
				if !errors.Is(err, ErrNotCatalog) {
					t.Errorf("%v, want ErrNotCatalog", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			if got := versionTables(t, path); len(got) != 1 || got[0] != versionTable {
				t.Errorf("version tables %v", got)
			}
		})
	}
}
