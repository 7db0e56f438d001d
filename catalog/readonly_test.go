package catalog

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"solcat/catalog/catfile"
	"solcat/catalog/usersql"
)

// TestStatementErrors runs statements that SQLite refuses, as it compiles
// or as it runs them, on a catalog opened read-only, and checks what each
// is (by errors.Is) and says: the faults SQLite's result codes tell apart
// by their code, the others by SQLite's own words.
func TestStatementErrors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cat.db")
	w, err := Create(ctx, path, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	writePuzzle(t, w, 3, 10, 0)
	w.Close()
	c, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	bad := "not a statement this catalog can run: "
	for _, tc := range []struct {
		name, stmt string
		is         []error
		isNot      []error
		want       string
	}{
		{"syntax error", "SELECT FROM WHERE", []error{usersql.ErrBadSQL, usersql.ErrNotSQL}, []error{usersql.ErrNoSuchTable}, bad + `not valid SQL: near "FROM": syntax error`},
		{"unknown token", "SELECT 'abc", []error{usersql.ErrBadSQL, usersql.ErrNotSQL}, nil, bad + `not valid SQL: unrecognized token: "'abc"`},
		{"input ends too soon", "SELECT * FROM puzzles WHERE", []error{usersql.ErrBadSQL, usersql.ErrNotSQL}, nil, bad + `not valid SQL: incomplete input`},
		{"syntax error after a whole select", "SELECT 1 a b", []error{usersql.ErrBadSQL, usersql.ErrNotSQL}, nil, bad + `not valid SQL: near "b": syntax error`},
		{"no such table", "SELECT * FROM nowhere", []error{usersql.ErrBadSQL, usersql.ErrNoSuchTable}, []error{usersql.ErrNotSQL}, bad + "no such table: nowhere"},
		{"no such table in a schema", "SELECT * FROM main.nowhere", []error{usersql.ErrBadSQL, usersql.ErrNoSuchTable}, nil, bad + "no such table: main.nowhere"},
		{"a table named in a string", "SELECT * FROM puzzles WHERE name = 'no such table: x' AND nosuch", []error{usersql.ErrBadSQL}, []error{usersql.ErrNoSuchTable, usersql.ErrNotSQL},
			bad + "no such column: nosuch"},
		{"no such column", "SELECT nosuch FROM puzzles", []error{usersql.ErrBadSQL}, []error{usersql.ErrNoSuchTable, usersql.ErrNotSQL}, bad + "no such column: nosuch"},
		{"no such function", "SELECT nosuch(1)", []error{usersql.ErrBadSQL}, []error{usersql.ErrNoSuchTable, usersql.ErrNotSQL}, bad + "no such function: nosuch"},
		{"no such collation", "SELECT name FROM puzzles ORDER BY name COLLATE nosuch", []error{usersql.ErrBadSQL}, []error{usersql.ErrNoSuchTable, usersql.ErrNotSQL}, bad + "no such collation sequence: nosuch"},
		{"as it runs", "SELECT json('{')", []error{usersql.ErrBadSQL}, []error{usersql.ErrNoSuchTable, usersql.ErrNotSQL}, bad + "malformed JSON"},
		{"an overflow as it runs", "SELECT abs(-9223372036854775807 - 1)", []error{usersql.ErrBadSQL}, nil, bad + "integer overflow"},
		{"blank", "  \n", []error{usersql.ErrBadSQL, usersql.ErrNoStatement}, nil, bad + "no statement"},
		{"comments only", "/* nothing */ -- here", []error{usersql.ErrBadSQL, usersql.ErrNoStatement}, nil, bad + "no statement"},
		{"two statements", "SELECT 1; SELECT 2", []error{usersql.ErrBadSQL}, []error{usersql.ErrNoStatement}, bad + `one statement at a time; found more after "SELECT 1"`},
		{"a write", "DELETE FROM puzzles", []error{usersql.ErrRefused}, []error{usersql.ErrBadSQL},
			"only read-only statements are run (SELECT, WITH, VALUES, EXPLAIN, PRAGMA reads); DELETE would change the catalog"},
		{"a write the authorizer denies", "PRAGMA user_version(7)", []error{usersql.ErrRefused}, []error{usersql.ErrBadSQL},
			"only read-only statements are run (SELECT, WITH, VALUES, EXPLAIN, PRAGMA reads); this statement would change the catalog"},
		{"a value over the limit", "SELECT zeroblob(16000001)", []error{usersql.ErrTooLarge}, []error{usersql.ErrBadSQL}, "a value larger than 16 MB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := c.Query(ctx, tc.stmt)
			if err == nil {
				for rows.Next() {
					if _, err := rows.Values(); err != nil {
						t.Fatal(err)
					}
				}
				err = rows.Err()
				rows.Close()
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("%v, want %q", err, tc.want)
			}
			for _, is := range tc.is {
				if !errors.Is(err, is) {
					t.Errorf("%v is not %v", err, is)
				}
			}
			for _, not := range tc.isNot {
				if errors.Is(err, not) {
					t.Errorf("%v is %v", err, not)
				}
			}
		})
	}
}
