package main

import (
	"bytes"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"solcat/migrations"
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
	{"classes_magic_4", []string{"id", "form", "orbit", "properties", "props"},
		[]string{"1", "1 2 15 16 12 14 3 5 13 7 10 4 8 11 6 9", "8", "self-complementary,dudeney-VI", "4104"}},
	{"classes_queens_8", []string{"id", "form", "orbit", "properties", "props"},
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
		execSQL(t, db, "DROP VIEW solutions_"+puzzle+"; DROP VIEW solutions_"+puzzle+"_raw; DROP VIEW classes_"+puzzle+"; "+
			"ALTER TABLE classes_"+puzzle+"_raw RENAME TO classes_"+puzzle+"; "+
			strings.Replace(old, "solutions_"+puzzle+"_raw", "solutions_"+puzzle, 1))
	}
	execSQL(t, db, "DELETE FROM solcat_schema_version WHERE version_id > 12; ALTER TABLE puzzles DROP COLUMN seal; ALTER TABLE count_breakdown DROP COLUMN seal; DROP TABLE solcat_views; DROP TABLE IF EXISTS answers; DROP TABLE IF EXISTS estimates; DROP TABLE IF EXISTS answer_units; DROP TABLE IF EXISTS build_classes; DELETE FROM properties WHERE name IN ('toroidal', 'superqueen')")
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
		{"written", []string{"build", "queens:5"}, []string{"classes_magic_3", "classes_queens_5", "classes_queens_6",
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

// toSchema13 takes the catalog at path back to schema 13, whose class
// table of a puzzle stored solution by solution was classes_<p> itself
// (canonical forms as bytes), shown as text by the view
// classes_<p>_readable, as that solcat made it.
func toSchema13(t *testing.T, path string, puzzles []string) {
	t.Helper()
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, puzzle := range puzzles {
		cls := "classes_" + puzzle
		var view string
		if err := conn.QueryRow("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", cls).Scan(&view); err != nil {
			t.Fatal(err)
		}
		old := strings.Replace(strings.Replace(view, "VIEW "+cls+" ", "VIEW "+cls+"_readable ", 1), "FROM "+cls+"_raw", "FROM "+cls, 1)
		if strings.Contains(view, "b.forms") {
			old = "" // stored as its classes only: the table had no view
		} else if old == view {
			t.Fatalf("%s: unexpected view %q", cls, view)
		}
		if _, err := conn.Exec("DROP VIEW " + cls + "; ALTER TABLE " + cls + "_raw RENAME TO " + cls + "; " + old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.Exec(`DELETE FROM solcat_schema_version WHERE version_id > 13;
		ALTER TABLE puzzles DROP COLUMN seal; ALTER TABLE count_breakdown DROP COLUMN seal;
		DROP TABLE IF EXISTS answers; DROP TABLE IF EXISTS estimates; DROP TABLE IF EXISTS answer_units; DROP TABLE IF EXISTS build_classes;
		DELETE FROM properties WHERE name IN ('toroidal', 'superqueen');
		DELETE FROM solcat_views WHERE view IN ('classes_<p>', 'classes_<p>_raw');
		INSERT INTO solcat_views (view, definition) VALUES ('classes_<p>_readable', 'one row per class: id, form (text), orbit, properties (text), props')`); err != nil {
		t.Fatal(err)
	}
}

// TestSchema13Catalog takes a catalog back to schema 13: a query, export
// and verify read it as it is, without writing it, and give the answers
// they gave before; the next build renames each class table to
// classes_<p>_raw under the view classes_<p>, and the answers stay the
// same, byte for byte.
func TestSchema13Catalog(t *testing.T) {
	t.Parallel() // catalogs of its own (see TestMain)
	dir := t.TempDir()
	db := filepath.Join(dir, "old.db")
	if code, _, errOut := solcatDB(db, "build", "queens:6", "magic:3"); code != 0 {
		t.Fatal(errOut)
	}
	questions := [][]string{
		{"count", "queens:6"},
		{"count", "magic:3", "--classes", "--format", "json"},
		{"count", "queens:6", "--orbit", "4"},
		{"list", "queens:6", "--format", "csv"},
		{"list", "magic:3", "--format", "jsonl"},
		{"classes", "queens:6"},
		{"classes", "magic:3", "--format", "json"},
		{"show", "magic:3", "1"},
		{"export", "queens:6", "--output", "OUT.csv"},
		{"export", "magic:3", "--classes", "--output", "OUT.jsonl"},
	}
	answers := func(t *testing.T, name string) []string {
		t.Helper()
		var out []string
		for i, q := range questions {
			args := slices.Clone(q)
			file := ""
			if j := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "OUT") }); j >= 0 {
				file = filepath.Join(dir, name+strconv.Itoa(i)+strings.TrimPrefix(args[j], "OUT"))
				args[j] = file
			}
			code, stdout, errOut := solcatDB(db, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			if file != "" {
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				stdout = string(b)
			}
			out = append(out, stdout)
		}
		return out
	}
	objects := func(t *testing.T) string {
		t.Helper()
		code, out, errOut := solcatDB(db, "sql", "SELECT type, name FROM sqlite_master WHERE name LIKE 'classes%' ORDER BY name", "--format", "csv")
		if code != 0 {
			t.Fatal(errOut)
		}
		_, version, _ := solcatDB(db, "sql", "SELECT max(version_id) AS v FROM solcat_schema_version", "--format", "csv")
		return strings.ReplaceAll(strings.TrimPrefix(out, "type,name\n"), "\n", " ") + "schema " + strings.TrimSpace(strings.TrimPrefix(version, "v\n"))
	}
	want := answers(t, "new")
	toSchema13(t, db, []string{"queens_6", "magic_3"})
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		args    []string // a write first, if any
		objects string
	}{
		{"read", nil, "table,classes_magic_3 view,classes_magic_3_readable table,classes_queens_6 view,classes_queens_6_readable schema 13"},
		{"written", []string{"build", "queens:5"}, "view,classes_magic_3 table,classes_magic_3_raw view,classes_queens_5 table,classes_queens_5_raw " +
			"view,classes_queens_6 table,classes_queens_6_raw schema " + strconv.FormatInt(migrations.Latest(), 10)},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			if step.args != nil {
				if code, _, errOut := solcatDB(db, step.args...); code != 0 {
					t.Fatalf("%v: exit %d: %s", step.args, code, errOut)
				}
			}
			got := answers(t, step.name)
			for i := range questions {
				if got[i] != want[i] {
					t.Errorf("%v:\n%s\nwant\n%s", questions[i], got[i], want[i])
				}
			}
			if code, out, errOut := solcatDB(db, "verify"); code != 0 || !strings.Contains(out, "queens:6: ok") || !strings.Contains(out, "magic:3: ok") {
				t.Errorf("verify: exit %d: %s%s", code, out, errOut)
			}
			if step.args == nil {
				after, err := os.ReadFile(db)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(before, after) {
					t.Error("reading the catalog of schema 13 changed its file")
				}
			}
			if got := objects(t); got != step.objects {
				t.Errorf("objects %q, want %q", got, step.objects)
			}
		})
	}
	_, out, _ := solcatDB(db, "sql", "SELECT * FROM classes_queens_6", "--format", "csv")
	if out != "id,form,orbit,properties,props\n1,2 4 6 1 3 5,4,rot180-only,0\n" {
		t.Errorf("classes_queens_6 after the build: %q", out)
	}
}

// TestMergeSchema13Shards merges the stored shards of a split build made
// by a solcat of schema 13 (the classes in classes_<p>): the merged
// catalog has this solcat's tables and the answers of a build in one run,
// and the shards are not written.
func TestMergeSchema13Shards(t *testing.T) {
	dir := t.TempDir()
	var shards [][]byte
	var paths []string
	for i := 1; i <= 2; i++ {
		path := filepath.Join(dir, "shard"+strconv.Itoa(i)+".db")
		if code, _, errOut := solcatDB(path, "build", "queens:8", "--shard", strconv.Itoa(i)+"/2"); code != 0 {
			t.Fatal(errOut)
		}
		toSchema13(t, path, []string{"queens_8"})
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		shards, paths = append(shards, b), append(paths, path)
	}
	merged, single := filepath.Join(dir, "merged.db"), filepath.Join(dir, "single.db")
	if code, out, errOut := solcat(append([]string{"merge", merged}, paths...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut := solcatDB(single, "build", "queens:8"); code != 0 {
		t.Fatal(errOut)
	}
	for i, path := range paths {
		if b, _ := os.ReadFile(path); !bytes.Equal(b, shards[i]) {
			t.Errorf("merge changed shard %d", i+1)
		}
	}
	for _, args := range [][]string{{"export", "queens:8", "--format", "jsonl"}, {"classes", "queens:8", "--format", "csv"},
		{"sql", "SELECT type, name FROM sqlite_master WHERE name LIKE 'classes%' ORDER BY name", "--format", "csv"}} {
		_, a, _ := solcatDB(merged, args...)
		_, b, _ := solcatDB(single, args...)
		if a != b || a == "" {
			t.Errorf("%v: merged\n%s\none build\n%s", args, a, b)
		}
	}
	if code, out, errOut := solcatDB(merged, "verify"); code != 0 {
		t.Errorf("verify the merged catalog: %s%s", out, errOut)
	}
}

// TestClassesViewOfEachStorage: classes_<p> shows a puzzle stored as its
// classes only (its forms packed) as it shows one stored solution by
// solution, row for row, one line a row in the sqlite3 shell; a catalog
// of schema 13, whose classes_<p> was the packed table, is read as it is
// and gets the view on its next write.
func TestClassesViewOfEachStorage(t *testing.T) {
	dir := t.TempDir()
	stored, packed := filepath.Join(dir, "stored.db"), filepath.Join(dir, "packed.db")
	if code, _, errOut := solcatDB(stored, "build", "queens:10"); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := solcatDB(packed, "build", "queens:10", "--as-classes"); code != 0 {
		t.Fatal(errOut)
	}
	const read = "SELECT id, form, orbit, properties FROM classes_queens_10 ORDER BY id"
	_, want, _ := solcatDB(stored, "sql", read, "--format", "csv")
	if !strings.HasPrefix(want, "id,form,orbit,properties\n1,1 3 6 8 10 5 9 2 4 7,8,asymmetric\n") || strings.Count(want, "\n") != 93 {
		t.Fatalf("classes_queens_10 stored solution by solution:\n%.300s", want)
	}
	_, classes, _ := solcatDB(stored, "classes", "queens:10", "--format", "csv")
	if _, got, _ := solcatDB(packed, "classes", "queens:10", "--format", "csv"); got != classes {
		t.Fatalf("classes differ between the storages:\n%.300s\n%.300s", got, classes)
	}
	t.Run("packed", func(t *testing.T) {
		if code, got, errOut := solcatDB(packed, "sql", read, "--format", "csv"); got != want {
			t.Errorf("exit %d, %s:\n%.300s\nwant\n%.300s", code, errOut, got, want)
		}
	})
	t.Run("sqlite3", func(t *testing.T) {
		shell, err := exec.LookPath("sqlite3")
		if err != nil {
			t.Skip("sqlite3 is not installed: the view is read in its column mode only where it is")
		}
		out, err := exec.Command(shell, "-readonly", "-header", "-column", packed, "SELECT * FROM classes_queens_10").CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != 92+2 || !slices.Equal(strings.Fields(lines[0]), []string{"id", "form", "orbit", "properties", "props"}) {
			t.Fatalf("%d lines for 92 classes:\n%.600s", len(lines), out)
		}
		for i, line := range lines[2:] {
			if strings.ContainsFunc(line, func(r rune) bool { return r < ' ' }) || strings.Fields(line)[0] != strconv.Itoa(i+1) {
				t.Fatalf("line %d: %q", i+3, line)
			}
		}
	})
	t.Run("schema 13", func(t *testing.T) {
		toSchema13(t, packed, []string{"queens_10"})
		objects := func() string {
			_, out, _ := solcatDB(packed, "sql", "SELECT type, name FROM sqlite_master WHERE name LIKE 'classes_queens_10%' ORDER BY name", "--format", "csv", "--no-headers")
			return strings.ReplaceAll(strings.TrimSpace(out), "\n", " ")
		}
		if got := objects(); got != "table,classes_queens_10" {
			t.Errorf("schema 13: %q", got)
		}
		if _, got, _ := solcatDB(packed, "classes", "queens:10", "--format", "csv"); got != classes {
			t.Errorf("classes of schema 13:\n%.300s", got)
		}
		if code, out, errOut := solcatDB(packed, "verify"); code != 0 {
			t.Errorf("verify schema 13: %s%s", out, errOut)
		}
		if code, _, errOut := solcatDB(packed, "build", "queens:5"); code != 0 {
			t.Fatal(errOut)
		}
		if _, got, _ := solcatDB(packed, "sql", read, "--format", "csv"); got != want {
			t.Errorf("after the write:\n%.300s", got)
		}
		if got := objects(); got != "view,classes_queens_10 table,classes_queens_10_raw" {
			t.Errorf("after the write: %q", got)
		}
		if _, got, _ := solcatDB(packed, "classes", "queens:10", "--format", "csv"); got != classes {
			t.Errorf("classes after the write:\n%.300s", got)
		}
		if code, out, errOut := solcatDB(packed, "verify"); code != 0 {
			t.Errorf("verify after the write: %s%s", out, errOut)
		}
	})
}
