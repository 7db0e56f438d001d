package main

import (
	"database/sql"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readableViewCases are the views SQL users read, with the columns each
// shows in order and its first row as text.
var readableViewCases = []struct {
	view    string
	columns []string
	first   []string
}{
	{"solutions_queens_6", []string{"id", "solution", "class_id", "symmetry", "symmetry_name", "class_sym", "block", "slot"},
		[]string{"1", "2 4 6 1 3 5", "1", "0", "identity", "8", "1", "0"}},
	{"solutions_queens_8", []string{"id", "solution", "class_id", "symmetry", "symmetry_name", "class_sym", "block", "slot"},
		[]string{"1", "1 5 8 6 3 7 2 4", "1", "0", "identity", "8", "1", "0"}},
	{"solutions_magic_3", []string{"id", "solution", "class_id", "symmetry", "symmetry_name", "class_sym", "block", "slot"},
		[]string{"1", "2 7 6 9 5 1 4 3 8", "1", "0", "identity", "8", "1", "0"}},
	{"solutions_magic_4", []string{"id", "solution", "class_id", "symmetry", "symmetry_name", "class_sym", "block", "slot"},
		[]string{"1", "1 2 15 16 12 14 3 5 13 7 10 4 8 11 6 9", "1", "0", "identity", "8", "1", "0"}},
	{"classes_magic_4_readable", []string{"id", "form", "orbit", "properties", "props"},
		[]string{"1", "1 2 15 16 12 14 3 5 13 7 10 4 8 11 6 9", "8", "self-complementary,dudeney-VI", "4104"}},
	{"classes_queens_8_readable", []string{"id", "form", "orbit", "properties", "props"},
		[]string{"1", "1 5 8 6 3 7 2 4", "8", "asymmetric", "0"}},
}

// TestReadableViewColumns reads each view SQL users read with
// database/sql: its columns in order, its first row, and no value of any
// row is bytes, which a plain client would print as they are.
func TestReadableViewColumns(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+catalogPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range readableViewCases {
		t.Run(tc.view, func(t *testing.T) {
			rows, err := db.Query("SELECT * FROM " + tc.view + " ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			columns, _ := rows.Columns()
			if !slices.Equal(columns, tc.columns) {
				t.Errorf("columns %v, want %v", columns, tc.columns)
			}
			n := 0
			for rows.Next() {
				values := make([]any, len(columns))
				ptrs := make([]any, len(columns))
				for i := range values {
					ptrs[i] = &values[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				text := make([]string, len(values))
				for i, v := range values {
					switch v := v.(type) {
					case []byte:
						t.Fatalf("row %d: column %s holds bytes %x", n+1, columns[i], v)
					case string:
						text[i] = v
					case int64:
						text[i] = strconv.FormatInt(v, 10)
					default:
						t.Fatalf("row %d: column %s holds %T %v", n+1, columns[i], v, v)
					}
				}
				if n == 0 && !slices.Equal(text, tc.first) {
					t.Errorf("first row %q, want %q", text, tc.first)
				}
				n++
			}
			if err := rows.Err(); err != nil || n == 0 {
				t.Errorf("%d rows, %v", n, err)
			}
		})
	}
}

// TestReadableViewsInSqlite3 runs SELECT * on each view SQL users read in
// the sqlite3 shell's column mode, as a newcomer would: every row is one
// line (the cells and canonical bytes hold newline and other control
// bytes, which the shell prints as they are).
func TestReadableViewsInSqlite3(t *testing.T) {
	shell, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed: the views are read in its column mode only where it is")
	}
	for _, tc := range readableViewCases {
		t.Run(tc.view, func(t *testing.T) {
			_, count, _ := solcat("sql", "SELECT count(*) AS n FROM "+tc.view, "--format", "csv")
			rows, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(count, "n\n")))
			if err != nil || rows == 0 {
				t.Fatalf("count %q: %v", count, err)
			}
			out, err := exec.Command(shell, "-readonly", "-header", "-column", catalogPath, "SELECT * FROM "+tc.view+" ORDER BY id").CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(lines) != rows+2 { // the header and its rule
				t.Fatalf("%d lines for %d rows:\n%.600s", len(lines), rows, out)
			}
			if got := strings.Fields(lines[0]); !slices.Equal(got, tc.columns) {
				t.Errorf("header %q, want %q", got, tc.columns)
			}
			for i, line := range lines[2:] {
				if strings.ContainsFunc(line, func(r rune) bool { return r < ' ' }) {
					t.Fatalf("row %d holds a control character: %q", i+1, line)
				}
				if id := strings.Fields(line)[0]; id != strconv.Itoa(i+1) {
					t.Fatalf("line %d begins with %q, not row %d's ID: %q", i+3, id, i+1, line)
				}
			}
		})
	}
}

// TestReadableViewsMadeOnWrite takes a catalog back to schema 12, whose
// one solutions view per puzzle showed the cells as bytes: a query and
// verify read it as it is, and the next build gives every puzzle stored
// solution by solution its views.
func TestReadableViewsMadeOnWrite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "old.db")
	if code, _, errOut := solcatDB(db, "build", "queens:6", "magic:3"); code != 0 {
		t.Fatal(errOut)
	}
	for _, puzzle := range []string{"queens_6", "magic_3"} {
		var old string
		conn, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRow("SELECT sql FROM sqlite_master WHERE name = ?", "solutions_"+puzzle+"_raw").Scan(&old); err != nil {
			t.Fatal(err)
		}
		conn.Close()
		execSQL(t, db, "DROP VIEW solutions_"+puzzle+"; DROP VIEW solutions_"+puzzle+"_raw; DROP VIEW classes_"+puzzle+"_readable; "+
			strings.Replace(old, "solutions_"+puzzle+"_raw", "solutions_"+puzzle, 1))
	}
	execSQL(t, db, "DELETE FROM solcat_schema_version WHERE version_id > 12; DROP TABLE solcat_views")
	views := func() []string {
		_, out, _ := solcatDB(db, "sql", "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name", "--format", "csv")
		return strings.Fields(out)[1:]
	}
	steps := []struct {
		name  string
		args  []string
		views []string
	}{
		{"read", []string{"verify"}, []string{"solutions_magic_3", "solutions_queens_6"}},
		{"written", []string{"build", "queens:5"}, []string{"classes_magic_3_readable", "classes_queens_5_readable", "classes_queens_6_readable",
			"solutions_magic_3", "solutions_magic_3_raw", "solutions_queens_5", "solutions_queens_5_raw", "solutions_queens_6", "solutions_queens_6_raw"}},
		{"verified", []string{"verify"}, nil},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			if code, _, errOut := solcatDB(db, step.args...); code != 0 {
				t.Fatalf("%v: exit %d: %s", step.args, code, errOut)
			}
			if step.views != nil && !slices.Equal(views(), step.views) {
				t.Errorf("views %v, want %v", views(), step.views)
			}
		})
	}
	_, out, _ := solcatDB(db, "sql", "SELECT solution FROM solutions_queens_6 WHERE id = 1", "--format", "csv")
	if out != "solution\n2 4 6 1 3 5\n" {
		t.Errorf("solutions_queens_6 after the build: %q", out)
	}
}
