package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
	"solcat/migrations"

	"github.com/zeebo/xxh3"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// catalogPath is a default build ('solcat build'), made once for all tests.
// Tests only read it.
//
// The tests that only read the shared catalog, write files of their own
// and set none of the package's variables call t.Parallel: they run after
// the others, two at a time on 2 cores, their waits (for processes,
// sleeps, builds) overlapping. Tests that set a variable of the package
// (keeper's KeepAfter, UnitCounted and the like) or the environment do
// not, nor do those that time an answer or a Ctrl-C against a bound (TestServeUnderLoad,
// TestLimits, TestSQLStreams, TestStoredBuildKilledAgainAndAgain): another
// test beside them would weigh on it.
var catalogPath string

func TestMain(m *testing.M) {
	flag.Parse()
	// The tests run solcat in this process hundreds of times, each with
	// catalogs and buffers of its own: collecting at four times the live
	// heap rather than twice takes a sixth off the package's processor time.
	debug.SetGCPercent(400)
	dir, err := os.MkdirTemp("", "solcat-test-")
	if err != nil {
		panic(err)
	}
	catalogPath = filepath.Join(dir, "solcat.db")
	code, _, stderr := solcat("build", "--workers", "2") // info shows the worker count
	if code != 0 {
		fmt.Fprintln(os.Stderr, "default build failed:", stderr)
		os.Exit(1)
	}
	code = m.Run()
	os.RemoveAll(dir)
	// The folders the tests made once for all: the binary, the fixture
	// files, the killed build's.
	for _, made := range []string{binaryDir, fixtureDir, killedDir} {
		if made != "" {
			os.RemoveAll(made)
		}
	}
	os.Exit(code)
}

// longTests reports whether the long cases run: SOLCAT_LONG=1, not -short.
// Without it the tests take smaller cases of the same checks.
func longTests() bool { return !testing.Short() && os.Getenv("SOLCAT_LONG") != "" }

// solcat runs the CLI in-process on the shared catalog.
func solcat(args ...string) (code int, stdout, stderr string) {
	return solcatDB(catalogPath, args...)
}

func solcatDB(db string, args ...string) (int, string, string) {
	return solcatDBIn(db, "", args...)
}

// solcatIn runs the CLI in-process on the shared catalog, input on its
// standard input.
func solcatIn(input string, args ...string) (code int, stdout, stderr string) {
	return solcatDBIn(catalogPath, input, args...)
}

func solcatDBIn(db, input string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"--db", db}, args...), strings.NewReader(input), &out, &errOut)
	return code, out.String(), errOut.String()
}

// noStdin is the standard input of a run given none: empty.
func noStdin() io.Reader { return strings.NewReader("") }

func TestReadmeExamples(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"count", "magic:4", "--cell", "1,1=1"}, "416\n"},
		{[]string{"list", "queens:6", "--limit", "3"}, "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n"},
		{[]string{"count", "queens:8", "--classes"}, "12\n"},
		{[]string{"count", "magic:4", "--classes"}, "880\n"},
		{[]string{"count", "magic:3"}, "8\n"},
		{[]string{"count", "magic:4", "--prop", "pandiagonal", "--classes"}, "48\n"},
		{[]string{"count", "magic:4", "--prop", "pandiagonal"}, "384\n"},
		{[]string{"count", "magic:4", "--prop", "associative", "--classes"}, "48\n"},
		{[]string{"count", "magic:4", "--prop", "most-perfect", "--classes"}, "48\n"},
		{[]string{"count", "magic:4", "--prop", "pandiagonal", "--prop", "associative", "--classes"}, "0\n"},
		{[]string{"count", "magic:4", "--prop", "self-complementary", "--classes"}, "352\n"},
		{[]string{"count", "magic:3", "--prop", "associative", "--prop", "self-complementary", "--classes"}, "1\n"},
		{[]string{"count", "queens:8", "--prop", "rot180-only", "--classes"}, "1\n"},
		{[]string{"count", "queens:12", "--prop", "rot90-symmetric", "--classes"}, "4\n"},
		{[]string{"count", "queens:1", "--prop", "rot90-symmetric", "--classes"}, "1\n"}, // A260318(1): fixed by the quarter turn
		{[]string{"count", "queens:1", "--prop", "rot90-symmetric", "--orbit", "1"}, "1\n"},
		{[]string{"count", "queens:14", "--prop", "asymmetric", "--classes"}, "45647\n"},
		{[]string{"count", "magic:4", "--prop", "pandiagonal", "--cell", "1,1=1"}, "24\n"},
		// Dudeney's table: I-III 48 classes each, IV-V 96, VI 304, VII-X 56, XI-XII 8.
		{[]string{"count", "magic:4", "--prop", "dudeney-I", "--prop", "pandiagonal", "--classes"}, "48\n"},
		{[]string{"count", "magic:4", "--prop", "dudeney-III", "--prop", "associative", "--classes"}, "48\n"},
		{[]string{"count", "magic:4", "--prop", "dudeney-VI", "--classes"}, "304\n"},
		{[]string{"count", "magic:4", "--prop", "dudeney-XII"}, "64\n"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := solcat(tc.args...)
			if code != 0 || out != tc.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tc.want)
			}
		})
	}
}

// TestDefaultBuildCounts checks every stored count against OEIS values
// written out here: A006052, A000170, A002562 and the orbit split.
func TestDefaultBuildCounts(t *testing.T) {
	want := map[string]string{
		"magic:1": "1 1 1/0/0/0", "magic:2": "0 0 0/0/0/0", "magic:3": "8 1 0/0/0/1", "magic:4": "7040 880 0/0/0/880",
		"queens:1": "1 1 1/0/0/0", "queens:2": "0 0 0/0/0/0", "queens:3": "0 0 0/0/0/0", "queens:4": "2 1 0/1/0/0",
		"queens:5": "10 2 0/1/0/1", "queens:6": "4 1 0/0/1/0", "queens:7": "40 6 0/0/2/4", "queens:8": "92 12 0/0/1/11",
		"queens:9": "352 46 0/0/4/42", "queens:10": "724 92 0/0/3/89", "queens:11": "2680 341 0/0/12/329",
		"queens:12": "14200 1787 0/4/18/1765", "queens:13": "73712 9233 0/4/32/9197", "queens:14": "365596 45752 0/0/105/45647",
	}
	code, out, errOut := solcat("sql", "SELECT name, solutions || ' ' || classes || ' ' || orbit1 || '/' || orbit2 || '/' || orbit4 || '/' || orbit8 AS c, verified FROM puzzles", "--format", "csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(lines) != len(want) {
		t.Fatalf("%d puzzles stored, want %d:\n%s", len(lines), len(want), out)
	}
	for _, line := range lines {
		f := strings.Split(line, ",")
		if want[f[0]] != f[1] || f[2] != "1" {
			t.Errorf("%s: stored %q verified=%s, want %q", f[0], f[1], f[2], want[f[0]])
		}
	}
}

func TestFirstThreeQueensUSACO(t *testing.T) {
	want := map[int]string{
		6:  "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n",
		7:  "1 3 5 7 2 4 6\n1 4 7 3 6 2 5\n1 5 2 6 3 7 4\n",
		8:  "1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n1 7 4 6 8 2 5 3\n",
		9:  "1 3 6 8 2 4 9 7 5\n1 3 7 2 8 5 9 4 6\n1 3 8 6 9 2 5 7 4\n",
		10: "1 3 6 8 10 5 9 2 4 7\n1 3 6 9 7 10 4 2 5 8\n1 3 6 9 7 10 4 2 8 5\n",
		11: "1 3 5 7 9 11 2 4 6 8 10\n1 3 6 9 2 8 11 4 7 5 10\n1 3 7 9 4 2 10 6 11 5 8\n",
		12: "1 3 5 8 10 12 6 11 2 7 9 4\n1 3 5 10 8 11 2 12 6 9 7 4\n1 3 5 10 8 11 2 12 7 9 4 6\n",
		13: "1 3 5 2 9 12 10 13 4 6 8 11 7\n1 3 5 7 9 11 13 2 4 6 8 10 12\n1 3 5 7 12 10 13 6 4 2 8 11 9\n",
	}
	for n := 6; n <= 13; n++ {
		code, out, errOut := solcat("list", fmt.Sprintf("queens:%d", n), "--limit", "3")
		if code != 0 || out != want[n] {
			t.Errorf("queens:%d: exit %d, got\n%s%s\nwant\n%s", n, code, out, errOut, want[n])
		}
	}
}

func TestGolden(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	cases := []struct {
		name string
		args []string
	}{
		{"count-magic4-corner", []string{"count", "magic:4", "--cell", "1,1=1"}},
		{"count-magic4-corners-json", []string{"count", "magic:4", "--cell", "1,1=16", "--cell", "4,4=1", "--format", "json"}},
		{"count-queens8-classes-jsonl", []string{"count", "queens:8", "--cell", "1,1=1", "--classes", "--format", "jsonl"}},
		{"count-queens10-empty-csv", []string{"count", "queens:10", "--cell", "1,1=0", "--cell", "5,5=1", "--format", "csv"}},
		{"count-queens12-orbit2", []string{"count", "queens:12", "--orbit", "2"}},
		{"list-queens6-limit3", []string{"list", "queens:6", "--limit", "3"}},
		{"list-magic4-offset", []string{"list", "magic:4", "--cell", "1,1=1", "--cell", "2,2=14", "--limit", "4", "--offset", "2"}},
		{"list-queens8-class10-json", []string{"list", "queens:8", "--class", "10", "--format", "json"}},
		{"list-magic3-csv", []string{"list", "magic:3", "--format", "csv"}},
		{"list-empty-json", []string{"list", "queens:3", "--format", "json"}},
		{"classes-queens8", []string{"classes", "queens:8"}},
		{"classes-magic4-filter", []string{"classes", "magic:4", "--cell", "1,1=1", "--limit", "5"}},
		{"classes-queens10-orbit4-csv", []string{"classes", "queens:10", "--orbit", "4", "--format", "csv"}},
		{"classes-queens7-jsonl", []string{"classes", "queens:7", "--format", "jsonl"}},
		{"classes-magic4-pandiagonal", []string{"classes", "magic:4", "--prop", "pandiagonal", "--limit", "4"}},
		{"show-magic4-1", []string{"show", "magic:4", "1"}},
		{"show-queens8-12", []string{"show", "queens:8", "12"}},
		{"show-queens8-10-ascii", []string{"show", "queens:8", "10", "--ascii"}},
		{"show-queens4-1-json", []string{"show", "queens:4", "1", "--format", "json"}},
		{"show-magic3-1-svg", []string{"show", "magic:3", "1", "--format", "svg"}},
		{"show-queens4-solution-svg", []string{"show", "queens:4", "--solution", "2", "--format", "svg"}},
		{"show-magic4-3-svg", []string{"show", "magic:4", "3", "--format", "svg"}}, // the grid, and beside it the complementary pairs
		{"export-queens6-csv", []string{"export", "queens:6"}},
		{"export-magic3-jsonl", []string{"export", "magic:3", "--format", "jsonl"}},
		{"export-queens8-classes", []string{"export", "queens:8", "--classes"}},
		{"count-magic4-pattern", []string{"count", "magic:4", "--pattern", "1 . . . / . . . . / . . . . / . . . 16"}},
		{"count-magic4-corner-up-to-symmetry", []string{"count", "magic:4", "--pattern", "1 . . . / . . . . / . . . . / . . . .", "--up-to-symmetry", "--classes"}},
		{"list-queens8-pattern", []string{"list", "queens:8", "--pattern", "1 5 . . . . . ."}},
		{"list-queens8-corner-up-to-symmetry", []string{"list", "queens:8", "--pattern", "1 . . . . . . .", "--up-to-symmetry", "--format", "csv"}},
		{"classes-magic4-pattern-cell", []string{"classes", "magic:4", "--pattern", ". . . . / . 16 . . / . . . . / . . . .", "--cell", "1,1=1", "--limit", "3"}},
		{"stats-magic4-corner", []string{"stats", "magic:4", "--by", "cell:1,1"}},
		{"stats-queens8-row1-ascii", []string{"stats", "queens:8", "--by", "row:1", "--ascii"}},
		{"stats-queens12-orbit-csv", []string{"stats", "queens:12", "--by", "orbit", "--format", "csv"}},
		{"stats-magic4-filtered-json", []string{"stats", "magic:4", "--by", "cell:2,2", "--cell", "1,1=1", "--format", "json"}},
		{"stats-magic4-group", []string{"stats", "magic:4", "--by", "group"}},
		{"stats-magic4-group-json", []string{"stats", "magic:4", "--by", "group", "--format", "json"}},
		{"stats-magic4-prop-csv", []string{"stats", "magic:4", "--by", "prop:self-complementary", "--cell", "1,1=1", "--format", "csv"}},
		{"stats-queens10-prop", []string{"stats", "queens:10", "--by", "prop:rot180-only"}},
		{"stats-queens8-cell-grid", []string{"stats", "queens:8", "--by", "cell"}},
		{"stats-magic3-cell-grid-ascii", []string{"stats", "magic:3", "--by", "cell", "--ascii"}},
		{"stats-magic4-cell-grid-filtered", []string{"stats", "magic:4", "--by", "cell", "--cell", "1,1=1"}},
		{"stats-queens6-cell-grid-json", []string{"stats", "queens:6", "--by", "cell", "--format", "json"}},
		{"stats-magic3-cell-grid-csv", []string{"stats", "magic:3", "--by", "cell", "--format", "csv"}},
		{"verify-queens6-magic3-json", []string{"verify", "queens:6", "magic:3", "--format", "json"}},
		{"sql-puzzles", []string{"sql", "SELECT name, solutions, classes FROM puzzles WHERE kind = 'magic'"}},
		{"sql-orbits-json", []string{"sql", "SELECT orbit, count(*) AS classes FROM classes_queens_10 GROUP BY orbit", "--format", "json"}},
		{"sql-cells-jsonl", []string{"sql", "SELECT id, cells FROM solutions_queens_5_raw LIMIT 2", "--format", "jsonl"}},
		{"sql-pragma-table-info", []string{"sql", "PRAGMA table_info(classes_queens_5)"}},
		{"sql-recursive", []string{"sql", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4) SELECT i, i * i AS sq FROM n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := solcat(tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			out = strings.ReplaceAll(out, catalogPath, "CATALOG") // verify names the catalog
			matchGolden(t, tc.name+".txt", tc.args, out)
		})
	}
}

// fileHash is a hash of the file's bytes, read through a small buffer (the
// shared catalog is hashed twice a case in TestRefusals, and folderState
// hashes every file of a folder): a fast hash, since the files are
// compared, not authenticated.
func fileHash(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		return "missing"
	}
	defer f.Close()
	h := xxh3.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return fmt.Sprintf("%x", h.Sum128().Bytes())
}

// TestRefusals gives bad input and expects one line on stderr naming the
// problem, the right exit status, and the catalog unchanged.
func TestRefusals(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	dir := t.TempDir()
	notSQLite := filepath.Join(dir, "notes.txt")
	os.WriteFile(notSQLite, []byte("not a catalog\n"), 0o644)
	truncated := filepath.Join(dir, "truncated.db")
	whole, _ := os.ReadFile(catalogPath)
	os.WriteFile(truncated, whole[:100000], 0o644)
	cases := []struct {
		name string
		db   string // "" for the shared catalog
		args []string
		code int
		want string
	}{
		{"cell off board", "", []string{"count", "magic:4", "--cell", "5,1=1"}, 2, "off the board"},
		{"value out of range", "", []string{"count", "magic:4", "--cell", "1,1=17"}, 2, "values 1 to 16"},
		{"value zero", "", []string{"count", "magic:4", "--cell", "1,1=0"}, 2, "values 1 to 16"},
		{"queens value", "", []string{"count", "queens:8", "--cell", "1,1=2"}, 2, "1 for a queen and 0"},
		{"cell syntax", "", []string{"count", "queens:8", "--cell", "1,1"}, 2, "ROW,COL=VALUE"},
		{"cell not a number", "", []string{"count", "queens:8", "--cell", "a,1=1"}, 2, "not a whole number"},
		{"size not a number", "", []string{"count", "queens:x"}, 2, "not a whole number"},
		{"size zero", "", []string{"count", "magic:0"}, 2, "out of range"},
		{"unknown kind", "", []string{"count", "chess:8"}, 2, "unknown puzzle kind"},
		{"no colon", "", []string{"count", "queens8"}, 2, "KIND:N"},
		{"range in count", "", []string{"count", "queens:4-6"}, 2, "one size"},
		{"negative limit", "", []string{"list", "queens:6", "--limit", "-1"}, 2, "--limit"},
		{"negative limit joined", "", []string{"list", "queens:6", "--limit=-1"}, 2, "--limit -1 is negative"},
		{"negative offset", "", []string{"list", "queens:6", "--offset=-3"}, 2, "--offset -3 is negative"},
		{"bad orbit", "", []string{"count", "queens:8", "--orbit", "3"}, 2, "orbit sizes are 1, 2, 4 or 8"},
		{"no such class", "", []string{"show", "queens:8", "13"}, 2, "classes 1 to 12"},
		{"class zero", "", []string{"show", "queens:8", "0"}, 2, "class IDs start at 1"},
		{"class filter out of range", "", []string{"count", "queens:8", "--class", "99"}, 2, "classes 1 to 12"},
		{"format for show", "", []string{"show", "queens:8", "1", "--format", "xml"}, 2, "--format xml does not apply"},
		{"format for export", "", []string{"export", "queens:8", "--format", "text"}, 2, "use one of: csv, json, jsonl, parquet"},
		{"unknown format", "", []string{"count", "queens:8", "--format", "xml"}, 2, "--format"},
		{"unknown command", "", []string{"frobnicate"}, 2, "unexpected argument"},
		{"not built", "", []string{"count", "queens:15"}, 1, "solcat build queens:15"},
		{"magic 7", "", []string{"build", "magic:7"}, 2, "built up to order 5"},
		{"shard zero", "", []string{"build", "queens:18", "--count-only", "--shard", "0/4"}, 2, "1 <= I <= K"},
		{"shard past the end", "", []string{"build", "queens:18", "--count-only", "--shard", "5/4"}, 2, "1 <= I <= K"},
		{"shard not a fraction", "", []string{"build", "queens:18", "--count-only", "--shard", "half"}, 2, "for example 2/4"},
		{"shard of a small magic build", "", []string{"build", "magic:4", "--shard", "1/2"}, 2, "build it whole"},
		{"more shards than first-row columns", "", []string{"build", "queens:5", "--shard", "1/6"}, 2, "at most 5 shards"},
		{"partition csv", "", []string{"export", "magic:4", "--partition-by", "orbit", "--format", "csv", "--output", filepath.Join(dir, "p")}, 2, "use --format parquet"},
		{"partition to stdout", "", []string{"export", "magic:4", "--format", "parquet", "--partition-by", "orbit"}, 2, "name it with --output DIR"},
		{"partition by a queens row on magic", "", []string{"export", "magic:4", "--format", "parquet", "--partition-by", "row:1", "--output", filepath.Join(dir, "p")}, 2, "cell:R,C (magic squares)"},
		{"merge into a shard", "", []string{"merge", catalogPath, catalogPath}, 2, "is the shard"},
		{"merge a catalog that is no shard", "", []string{"merge", filepath.Join(dir, "merged.db"), catalogPath}, 2, "holds no shard"},
		{"queens 20 too many to store", "", []string{"build", "queens:20"}, 2, "--count-only"},
		{"queens 24 too big to count", "", []string{"build", "queens:24", "--count-only"}, 2, "up to N=23"},
		{"magic count-only", "", []string{"build", "magic:4", "--count-only"}, 2, "drop --count-only"},
		{"magic 5 stored in shards", "", []string{"build", "magic:5", "--shard", "1/2"}, 2, "built whole"},
		{"magic 6", "", []string{"build", "magic:6", "--count-only"}, 2, "built up to order 5"},
		{"bench unknown method", "", []string{"bench", "queens:8", "--methods", "dancing"}, 2, "no method"},
		{"bench too big", "", []string{"bench", "queens:30"}, 2, "up to size 17"},
		{"range backwards", "", []string{"build", "queens:8-4"}, 2, "runs backwards"},
		{"negative workers", "", []string{"build", "queens:4", "--workers=-1"}, 2, "--workers -1"},
		{"pattern rows", "", []string{"count", "magic:4", "--pattern", "1 . . . / . . . ."}, 2, "needs 4 rows"},
		{"pattern width", "", []string{"count", "magic:4", "--pattern", "1 . . / . . . . / . . . . / . . . ."}, 2, "row 1 has 3 entries"},
		{"pattern range", "", []string{"count", "magic:4", "--pattern", "17 . . . / . . . . / . . . . / . . . ."}, 2, "out of range"},
		{"pattern repeat", "", []string{"count", "magic:4", "--pattern", "2 . . . / . . . . / . 2 . . / . . . ."}, 2, "appears twice"},
		{"pattern word", "", []string{"count", "magic:4", "--pattern", "x . . . / . . . . / . . . . / . . . ."}, 2, "neither a number"},
		{"queens pattern length", "", []string{"count", "queens:8", "--pattern", "1 5 ."}, 2, "3 entries for 8 rows"},
		{"queens pattern column", "", []string{"count", "queens:6", "--pattern", "2 . 2 . . ."}, 2, "both in column 2"},
		{"queens pattern slash", "", []string{"count", "queens:4", "--pattern", "1 . / . ."}, 2, "without '/'"},
		{"queens pattern range", "", []string{"count", "queens:6", "--pattern", "7 . . . . ."}, 2, "out of range"},
		{"up to symmetry alone", "", []string{"count", "queens:8", "--up-to-symmetry"}, 2, "needs cell or pattern conditions"},
		{"stats by nothing", "", []string{"stats", "magic:4", "--by", "colour"}, 2, "use cell (every cell, as a grid), cell:R,C"},
		{"unknown property", "", []string{"count", "magic:4", "--prop", "perfect"}, 2, "use one of: pandiagonal"},
		{"queens property on magic", "", []string{"count", "magic:4", "--prop", "asymmetric"}, 2, "not a property of magic"},
		{"stats cell off board", "", []string{"stats", "magic:4", "--by", "cell:5,5"}, 2, "rows and columns 1 to 4"},
		{"stats by group of queens", "", []string{"stats", "queens:8", "--by", "group"}, 2, "magic:4 only"},
		{"stats by unknown property", "", []string{"stats", "magic:4", "--by", "prop:lucky"}, 2, "choose from pandiagonal"},
		{"stats row on magic", "", []string{"stats", "magic:4", "--by", "row:1"}, 2, "use cell (every cell, as a grid), cell:R,C"},
		{"stats without by", "", []string{"stats", "magic:4"}, 2, "--by"},
		{"sql delete", "", []string{"sql", "DELETE FROM puzzles"}, 2, "read-only"},
		{"sql update", "", []string{"sql", "UPDATE puzzles SET solutions = 0"}, 2, "read-only"},
		{"sql drop", "", []string{"sql", "DROP TABLE puzzles"}, 2, "read-only"},
		{"sql insert", "", []string{"sql", "insert into puzzles default values"}, 2, "read-only"},
		{"sql two statements", "", []string{"sql", "SELECT 1; DROP TABLE puzzles"}, 2, "one statement"},
		{"sql attach", "", []string{"sql", "ATTACH 'other.db' AS other"}, 2, "read-only"},
		{"sql pragma write", "", []string{"sql", "PRAGMA journal_mode = DELETE"}, 2, "a PRAGMA assignment would change the catalog"},
		{"sql cte delete", "", []string{"sql", "WITH x AS (SELECT 1) DELETE FROM puzzles"}, 2, "would change the catalog"},
		{"sql cte insert", "", []string{"sql", "WITH x(v) AS (VALUES (1)) INSERT INTO count_units SELECT 'q', v, x'00', 0, 0, 0, 0, 0 FROM x"}, 2, "would change the catalog"},
		{"sql pragma call write", "", []string{"sql", "PRAGMA user_version(7)"}, 2, "would change the catalog"},
		{"sql temp table", "", []string{"sql", "WITH t AS (SELECT 1) SELECT * FROM t; CREATE TEMP TABLE z(a)"}, 2, "one statement"},
		{"sql error", "", []string{"sql", "SELECT * FROM nowhere"}, 2, "list the tables with"},
		{"sql empty", "", []string{"sql", "  "}, 2, "needs a query"},
		{"missing db folder", filepath.Join(dir, "no", "such", "cat.db"), []string{"build", "queens:4"}, 1, "does not exist"},
		{"missing db", filepath.Join(dir, "absent.db"), []string{"count", "queens:8"}, 1, "run 'solcat build'"},
		{"not sqlite", notSQLite, []string{"count", "queens:8"}, 1, "not an SQLite database"},
		{"not sqlite build", notSQLite, []string{"build", "queens:4"}, 1, "not an SQLite database"},
		{"truncated catalog", truncated, []string{"count", "queens:8"}, 1, "the catalog file is damaged"},
		{"export folder missing", "", []string{"export", "queens:6", "--output", filepath.Join(dir, "nope", "x.csv")}, 2, "does not exist"},
	}
	before := fileHash(t, catalogPath)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := catalogPath
			if tc.db != "" {
				db = tc.db
			}
			dbBefore := fileHash(t, db)
			code, out, errOut := solcatDB(db, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errOut)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q does not mention %q", errOut, tc.want)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "solcat: ") || strings.Contains(errOut, "goroutine") {
				t.Errorf("stderr is not one 'solcat: ...' line: %q", errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if after := fileHash(t, db); after != dbBefore {
				t.Errorf("%s changed", db)
			}
		})
	}
	if fileHash(t, catalogPath) != before {
		t.Error("the shared catalog changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "absent.db")); err == nil {
		t.Error("a query created a catalog file")
	}
}

// TestWorkerCountDoesNotMatter builds magic:4, queens:8 and queens:12-13
// (queens:12-14 with SOLCAT_LONG=1) with one and with three workers and
// compares the exports, byte for byte.
func TestWorkerCountDoesNotMatter(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	one := filepath.Join(t.TempDir(), "one.db")
	three := filepath.Join(t.TempDir(), "three.db")
	last := "queens:13"
	if longTests() {
		last = "queens:14"
	}
	for db, workers := range map[string]string{one: "1", three: "3"} {
		if code, _, errOut := solcatDB(db, "build", "magic:4", "queens:8", "queens:12-"+strings.TrimPrefix(last, "queens:"), "--workers", workers); code != 0 {
			t.Fatal(errOut)
		}
	}
	for _, p := range []string{"magic:4", "queens:8", "queens:12", last} {
		for _, classes := range []bool{false, true} {
			args := []string{"export", p}
			if classes {
				args = append(args, "--classes")
			}
			_, a, _ := solcatDB(one, args...)
			_, b, _ := solcatDB(three, args...)
			if a != b || len(a) < 100 {
				t.Errorf("%v: exports differ between 1 and 2 workers (%d and %d bytes)", args, len(a), len(b))
			}
		}
	}
}

func TestBuildTwiceAndForce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cat.db")
	if code, _, errOut := solcatDB(db, "build", "queens:8"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, _ := solcatDB(db, "build", "queens:8")
	if code != 0 || !strings.Contains(out, "already built") {
		t.Errorf("second build: exit %d, %q; want 'already built'", code, out)
	}
	_, before, _ := solcatDB(db, "export", "queens:8")
	code, out, _ = solcatDB(db, "build", "queens:8", "--force")
	if code != 0 || strings.Contains(out, "already built") {
		t.Errorf("forced build: exit %d, %q", code, out)
	}
	if _, after, _ := solcatDB(db, "export", "queens:8"); after != before {
		t.Error("a forced rebuild changed the content")
	}
}

func TestExportToFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q6.csv")
	code, out, errOut := solcat("export", "queens:6", "--output", path)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, _ := os.ReadFile(path)
	_, direct, _ := solcat("export", "queens:6")
	if string(data) != direct {
		t.Errorf("file has %q, stdout export has %q", data, direct)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("export left %d files, want 1", len(entries))
	}
}

// TestJSONShapes checks the JSON of the commands whose output holds times
// (so no golden file): it parses, and carries the documented keys.
func TestJSONShapes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shapes.db")
	cases := []struct {
		args []string
		keys []string
	}{
		{[]string{"build", "queens:6", "--format", "json"}, []string{"puzzle", "storage", "solutions", "classes", "orbit2", "verified", "build_seconds", "content_hash"}},
		{[]string{"build", "queens:9", "--count-only", "--format", "json"}, []string{"puzzle", "storage", "solutions", "classes", "orbit8"}},
		{[]string{"info", "--format", "json"}, []string{"puzzle", "kind", "n", "storage", "solutions", "classes", "built_at", "content_hash"}},
		{[]string{"bench", "queens:6", "--runs", "1", "--format", "json"}, []string{"method", "solutions", "nodes", "seconds", "ratio", "about"}},
	}
	for _, tc := range cases {
		code, out, errOut := solcatDB(db, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
			t.Fatalf("%v: not a JSON array of objects (%v):\n%s", tc.args, err, out)
		}
		for _, k := range tc.keys {
			if _, ok := rows[0][k]; !ok {
				t.Errorf("%v: no key %q in %v", tc.args, k, rows[0])
			}
		}
	}
}

func TestHelpHasExamples(t *testing.T) {
	for _, cmd := range []string{"build", "count", "list", "classes", "show", "export", "info", "sql", "stats", "bench", "verify", "merge"} {
		code, out, _ := solcat(cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") {
			t.Errorf("solcat %s --help: exit %d, no examples:\n%s", cmd, code, out)
		}
	}
}

// TestCountAgainstScan compares count (ID ranges found by binary search,
// SQL for the rest) with filters evaluated here over the exported rows.
func TestCountAgainstScan(t *testing.T) {
	for _, p := range []string{"magic:4", "queens:10"} {
		_, csvText, _ := solcat("export", p)
		rows := csvRows(t, csvText)
		n := 4
		if p == "queens:10" {
			n = 10
		}
		cell := func(row map[string]string, r, c int) (queen bool, value string) {
			if n == 10 {
				return row[fmt.Sprintf("row%d", r)] == fmt.Sprint(c), ""
			}
			return false, row[fmt.Sprintf("r%dc%d", r, c)]
		}
		filters := [][]string{{"1,1=1"}, {"1,1=16", "1,2=2"}, {"2,2=7"}, {"1,1=1", "1,2=15", "4,4=16"}, {"3,3=5", "1,1=2"}}
		if n == 10 {
			filters = [][]string{{"1,1=1"}, {"1,2=1", "2,4=1"}, {"5,5=1"}, {"1,1=0", "10,10=0"}, {"1,3=1", "2,1=1", "3,7=1"}}
		}
		for _, filter := range filters {
			want := 0
			for _, fields := range rows {
				match := true
				for _, f := range filter {
					var r, c int
					var v string
					fmt.Sscanf(f, "%d,%d=", &r, &c)
					v = f[strings.Index(f, "=")+1:]
					queen, value := cell(fields, r, c)
					if n == 10 {
						match = match && queen == (v == "1")
					} else {
						match = match && value == v
					}
				}
				if match {
					want++
				}
			}
			args := []string{"count", p}
			for _, f := range filter {
				args = append(args, "--cell", f)
			}
			_, out, errOut := solcat(args...)
			if strings.TrimSpace(out) != fmt.Sprint(want) {
				t.Errorf("%v: count says %q%s, scan finds %d", args, out, errOut, want)
			}
		}
	}
}

func TestCountOnlyAnswersFromTheRecord(t *testing.T) {
	db := filepath.Join(t.TempDir(), "counts.db")
	if code, _, errOut := solcatDB(db, "build", "queens:13-14", "--count-only"); code != 0 {
		t.Fatal(errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"count", "queens:14"}, "365596\n"},
		{[]string{"count", "queens:14", "--classes"}, "45752\n"},
		{[]string{"count", "queens:13", "--format", "jsonl"}, `{"puzzle":"queens:13","of":"solutions","count":73712}` + "\n"},
		{[]string{"count", "queens:13", "--orbit", "4"}, "128\n"},
		{[]string{"count", "queens:13", "--orbit", "2", "--classes"}, "4\n"},
		// Cells are counted again under the filter (A059963: T(14,1)).
		{[]string{"count", "queens:14", "--cell", "1,1=1"}, "11892\n"},
	} {
		if code, out, errOut := solcatDB(db, tc.args...); code != 0 || out != tc.want {
			t.Errorf("%v: exit %d, %q %s; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
	for _, args := range [][]string{
		{"list", "queens:14"}, {"classes", "queens:14"}, {"show", "queens:14", "1"},
		{"export", "queens:14"}, {"count", "queens:14", "--orbit", "4", "--cell", "1,1=1"},
	} {
		code, out, errOut := solcatDB(db, args...)
		if code != 1 || out != "" || !strings.Contains(errOut, "stored as counts only") || !strings.Contains(errOut, "solcat build queens:14 --force") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	code, out, _ := solcatDB(db, "build", "queens:14", "--count-only")
	if code != 0 || !strings.Contains(out, "already built") {
		t.Errorf("second count: exit %d, %q", code, out)
	}
}

// TestCountOnlyResumes seeds a catalog with the first units of a count, as
// an interrupted run leaves it, and checks that the next run finishes from
// there with the published numbers, and starts over if a saved unit does
// not match the current unit layout.
func TestCountOnlyResumes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	counter := enumerate.NewQueensCounter(13)
	units := counter.Keys()
	seed := func(path string, prefixOf func(i int) []byte) {
		cat, err := catalog.Create(ctx, path, catfile.Holder{})
		if err != nil {
			t.Fatal(err)
		}
		defer cat.Close()
		var todo []int
		for i := 0; i < len(units)/2; i++ {
			todo = append(todo, i)
		}
		err = counter.Count(ctx, todo, 1, func(i int, c enumerate.ClassCounts) error {
			return cat.Work().SaveUnits(ctx, "queens:13", []catalog.UnitCounts{{Unit: i, Prefix: prefixOf(i),
				Orbit1: c.Orbits[1], Orbit2: c.Orbits[2], Orbit4: c.Orbits[4], Orbit8: c.Orbits[8], Joined: c.Joined, Nodes: c.Nodes}})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	resumed := filepath.Join(dir, "resumed.db")
	seed(resumed, func(i int) []byte { return units[i] })
	if code, _, errOut := solcatDB(resumed, "count", "queens:13"); code != 1 || !strings.Contains(errOut, fmt.Sprintf("queens:13 is unfinished: its build stopped with %d%% counted (%d of %d work units); 'solcat build queens:13 --count-only' resumes it", 100*(len(units)/2)/len(units), len(units)/2, len(units))) {
		t.Errorf("count during the count: exit %d, %q", code, errOut)
	}
	if code, out, _ := solcatDB(resumed, "info", "--format", "jsonl"); code != 0 || !strings.Contains(out, fmt.Sprintf(`{"puzzle":"queens:13","storage":"counting","running":false,"percent":%d,"units_done":%d,"units":%d}`, 100*(len(units)/2)/len(units), len(units)/2, len(units))) {
		t.Errorf("info during the count: exit %d, %q", code, out)
	}
	if code, out, errOut := solcatDB(resumed, "verify"); code != 0 {
		t.Errorf("verify during the count: exit %d, %q %s", code, out, errOut)
	}
	damaged := filepath.Join(dir, "damaged.db")
	seed(damaged, func(i int) []byte { return units[i] })
	execSQL(t, damaged, "UPDATE count_units SET unit = -5 WHERE unit = (SELECT min(unit) FROM count_units)")
	if code, out, _ := solcatDB(damaged, "verify"); code != 1 || !strings.Contains(out, "catalog: queens:13: saved work unit -5 is none of this solcat's units of its count") {
		t.Errorf("verify of a damaged saved unit: exit %d, %q", code, out)
	}
	if code, out, errOut := solcatDB(resumed, "info", "--format", "csv"); code != 0 || !strings.HasPrefix(out, "puzzle,kind,n,storage,") || strings.Count(out, "\n") != 1 || errOut != "solcat: not in the CSV: queens:13 (unfinished); 'solcat info' or --format json lists them\n" {
		t.Errorf("info --format csv during the count: exit %d, %q, %q", code, out, errOut)
	}
	code, out, errOut := solcatDB(resumed, "build", "queens:13", "--count-only")
	if code != 0 || !strings.Contains(errOut, fmt.Sprintf("resuming, %d of %d units", len(units)/2, len(units))) || !strings.Contains(out, "73,712 solutions, 9,233 classes") {
		t.Errorf("resume: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	foreign := filepath.Join(dir, "foreign.db")
	seed(foreign, func(i int) []byte { return []byte{9, 9, 9} })
	if code, _, errOut := solcatDB(foreign, "count", "queens:13"); code != 1 || !strings.Contains(errOut, "an earlier solcat began counting it") {
		t.Errorf("count with foreign units saved: exit %d, %q", code, errOut)
	}
	code, out, errOut = solcatDB(foreign, "build", "queens:13", "--count-only")
	if code != 0 || strings.Contains(errOut, "resuming") || !strings.Contains(out, "73,712 solutions, 9,233 classes") {
		t.Errorf("foreign units: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestBenchMethodsAgree(t *testing.T) {
	for _, p := range []string{"queens:10", "magic:3"} {
		code, out, errOut := solcat("bench", p, "--runs", "1", "--format", "csv")
		if code != 0 {
			t.Fatal(errOut)
		}
		lines := csvRows(t, out)
		want := map[string]string{"queens:10": "724", "magic:3": "8"}[p]
		for _, l := range lines {
			if l["solutions"] != want {
				t.Errorf("%s: method %s finds %s solutions, want %s", p, l["method"], l["solutions"], want)
			}
		}
		if len(lines) < 3 {
			t.Errorf("%s: %d methods ran", p, len(lines))
		}
	}
}

// TestUpToSymmetry checks --up-to-symmetry against an independent count over
// the export (1 in any corner), and the SQL path (list) against the classes
// path (count).
// TestCountMethodsAgree counts with filters that take each path of count
// (a prefix range, a scan of the solution blocks, a scan of the classes)
// and checks each answer against plain SQL over the solutions view.
func TestCountMethodsAgree(t *testing.T) {
	for _, tc := range []struct {
		args []string
		sql  string
	}{
		{[]string{"queens:10", "--cell", "5,5=1"}, "count(*) FROM solutions_queens_10_raw WHERE substr(cells, 5, 1) = x'04'"},
		{[]string{"queens:10", "--cell", "5,5=1", "--classes"}, "count(DISTINCT class_id) FROM solutions_queens_10_raw WHERE substr(cells, 5, 1) = x'04'"},
		{[]string{"queens:10", "--cell", "1,2=1", "--cell", "4,4=0", "--orbit", "8"},
			"count(*) FROM solutions_queens_10_raw s JOIN classes_queens_10 c ON c.id = s.class_id WHERE substr(cells, 1, 1) = x'01' AND substr(cells, 4, 1) <> x'03' AND c.orbit = 8"},
		{[]string{"queens:10", "--cell", "3,3=1", "--orbit", "4", "--classes"},
			"count(DISTINCT class_id) FROM solutions_queens_10_raw s JOIN classes_queens_10 c ON c.id = s.class_id WHERE substr(cells, 3, 1) = x'02' AND c.orbit = 4"},
		{[]string{"queens:10", "--cell", "1,1=1", "--cell", "2,3=1"}, "count(*) FROM solutions_queens_10_raw WHERE substr(cells, 1, 2) = x'0002'"},
		{[]string{"queens:10", "--cell", "1,1=1", "--classes"}, "count(DISTINCT class_id) FROM solutions_queens_10_raw WHERE substr(cells, 1, 1) = x'00'"},
		{[]string{"queens:10", "--class", "5", "--cell", "2,2=0"}, "count(*) FROM solutions_queens_10_raw WHERE class_id = 5 AND substr(cells, 2, 1) <> x'01'"},
		{[]string{"queens:12", "--cell", "7,2=1", "--prop", "rot90-symmetric"},
			"count(*) FROM solutions_queens_12_raw s JOIN classes_queens_12 c ON c.id = s.class_id WHERE substr(cells, 7, 1) = x'01' AND c.orbit = 2"},
		{[]string{"magic:4", "--cell", "2,3=9", "--prop", "pandiagonal"},
			"count(*) FROM solutions_magic_4_raw s JOIN classes_magic_4 c ON c.id = s.class_id WHERE substr(cells, 7, 1) = x'09' AND c.props & 1 != 0"},
		{[]string{"magic:4", "--cell", "1,1=16", "--cell", "3,3=2", "--classes"},
			"count(DISTINCT class_id) FROM solutions_magic_4_raw WHERE substr(cells, 1, 1) = x'10' AND substr(cells, 11, 1) = x'02'"},
	} {
		_, got, errOut := solcat(append([]string{"count"}, tc.args...)...)
		_, want, _ := solcat("sql", "SELECT "+tc.sql, "--format", "csv")
		want = strings.TrimSpace(want[strings.Index(want, "\n")+1:])
		if strings.TrimSpace(got) != want || want == "" {
			t.Errorf("count %v = %q%s; SQL over the view: %q", tc.args, got, errOut, want)
		}
	}
}

func TestUpToSymmetry(t *testing.T) {
	_, csvText, _ := solcat("export", "magic:4")
	want := 0
	for _, row := range csvRows(t, csvText) {
		if row["r1c1"] == "1" || row["r1c4"] == "1" || row["r4c1"] == "1" || row["r4c4"] == "1" {
			want++
		}
	}
	corner := []string{"--pattern", "1 . . . / . . . . / . . . . / . . . .", "--up-to-symmetry"}
	_, count, _ := solcat(append([]string{"count", "magic:4"}, corner...)...)
	_, list, _ := solcat(append([]string{"list", "magic:4"}, corner...)...)
	if strings.TrimSpace(count) != fmt.Sprint(want) || strings.Count(list, "\n") != want || want != 1664 {
		t.Errorf("1 in a corner: count %s, list %d lines, export scan %d; want 1664", count, strings.Count(list, "\n"), want)
	}
	for _, args := range [][]string{
		{"queens:10", "--pattern", "1 . . . . . . . . .", "--up-to-symmetry"},
		{"queens:10", "--cell", "2,4=1", "--cell", "3,3=0", "--up-to-symmetry"},
		{"queens:9", "--pattern", ". 3 . . . . . . .", "--up-to-symmetry", "--orbit", "4"},
	} {
		_, c, _ := solcat(append([]string{"count"}, args...)...)
		_, l, _ := solcat(append([]string{"list"}, args...)...)
		if strings.TrimSpace(c) != fmt.Sprint(strings.Count(l, "\n")) {
			t.Errorf("%v: count says %s, list gives %d", args, c, strings.Count(l, "\n"))
		}
	}
}

// TestStatsAgainstSQL compares stats (computed from the classes) with
// GROUP BY over the stored solutions.
func TestStatsAgainstSQL(t *testing.T) {
	cases := []struct {
		stats  []string
		sql    string // groups by v, a value in hex; offset is added to it
		offset int64
	}{
		{[]string{"stats", "magic:4", "--by", "cell:2,3"}, "SELECT hex(substr(cells, 7, 1)) AS v, count(*), count(DISTINCT class_id) FROM solutions_magic_4_raw GROUP BY v ORDER BY v", 0},
		{[]string{"stats", "queens:10", "--by", "row:4"}, "SELECT hex(substr(cells, 4, 1)) AS v, count(*), count(DISTINCT class_id) FROM solutions_queens_10_raw GROUP BY v ORDER BY v", 1},
		{[]string{"stats", "queens:11", "--by", "cell:3,5"}, "SELECT substr(cells, 3, 1) = x'04' AS v, count(*), count(DISTINCT class_id) FROM solutions_queens_11_raw GROUP BY v ORDER BY v", 0},
		{[]string{"stats", "magic:4", "--by", "cell:4,4", "--cell", "1,2=15"}, "SELECT hex(substr(cells, 16, 1)) AS v, count(*), count(DISTINCT class_id) FROM solutions_magic_4_raw WHERE substr(cells, 2, 1) = x'0F' GROUP BY v ORDER BY v", 0},
	}
	for _, tc := range cases {
		_, got, errOut := solcat(append(tc.stats, "--format", "csv")...)
		_, want, _ := solcat("sql", tc.sql, "--format", "csv")
		var gotRows, wantRows []string
		for _, r := range csvRows(t, got) {
			gotRows = append(gotRows, r["value"]+","+r["solutions"]+","+r["classes"])
		}
		for _, l := range strings.Split(strings.TrimSpace(want), "\n")[1:] {
			f := strings.Split(l, ",")
			v, _ := strconv.ParseInt(f[0], 16, 64) // 0 and 1 read the same in hex
			wantRows = append(wantRows, fmt.Sprintf("%d,%s,%s", v+tc.offset, f[1], f[2]))
		}
		slices.SortFunc(wantRows, func(a, b string) int {
			x, _ := strconv.Atoi(strings.Split(a, ",")[0])
			y, _ := strconv.Atoi(strings.Split(b, ",")[0])
			return x - y
		})
		if strings.Join(gotRows, ";") != strings.Join(wantRows, ";") {
			t.Errorf("%v: stats %v%s, SQL %v", tc.stats, gotRows, errOut, wantRows)
		}
	}
}

// TestVerifyNamesTampering changes a catalog through plain SQL and checks
// that verify names each problem.
func TestVerifyNamesTampering(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	clean := filepath.Join(t.TempDir(), "clean.db")
	if code, _, errOut := solcatDB(clean, "build", "queens:8", "magic:3"); code != 0 {
		t.Fatal(errOut)
	}
	if code, out, errOut := solcatDB(clean, "verify"); code != 0 || strings.Count(out, ": ok (") != 2 || !strings.Contains(out, "catalog: SQLite integrity check: ok\n") {
		t.Fatalf("clean catalog: exit %d, %q %s", code, out, errOut)
	}
	cases := []struct {
		name  string
		sql   string
		wants []string
	}{
		// queens:8 is one column block: 92 solutions of 8 cells, cell i of
		// solution k at byte 92i + k, class_sym in 2 base-64 digits.
		{"changed cell", queens8SetCells(4, []byte{0, 1, 2, 3, 4, 5, 6, 7}),
			[]string{"queens:8: solution 5: not a solution", "class 3: 7 members found", "content hash", "queens:8: solution block 1 does not match its checksum (cell 0)"}},
		{"deleted solution", queens8Delete(6) + "UPDATE solution_blocks_queens_8 SET class_syms = substr(class_syms, 1, 12) || substr(class_syms, 15)",
			[]string{"members found", "91 solutions stored, 92 recorded", "queens:8: solution block 1 holds 728 cell bytes and 182 class bytes, its index entry says 92 solutions"}},
		{"duplicate solution", "INSERT INTO solution_blocks_queens_8 (first_id, cells, class_syms) SELECT 93, " + queens8Cells(2) + ", substr(class_syms, 5, 2) FROM solution_blocks_queens_8",
			[]string{"solution 93: not greater than the solution before it", "93 solutions stored, 92 recorded", "queens:8: solution block 93 is not in the block index"}},
		{"gap", "INSERT INTO solution_blocks_queens_8 (first_id, cells, class_syms) SELECT 95, " + queens8Cells(2) + ", substr(class_syms, 5, 2) FROM solution_blocks_queens_8",
			[]string{"solution 95: expected solution ID 93"}},
		{"damaged block", "UPDATE solution_blocks_queens_8 SET cells = substr(cells, 2)",
			[]string{"queens:8: solution block 1 is damaged", "0 solutions stored, 92 recorded"}},
		{"damaged class entry", "UPDATE solution_blocks_queens_8 SET class_syms = 'x' || substr(class_syms, 2)",
			[]string{"queens:8: solution 1 is damaged: its class entry \"x", "91 solutions stored, 92 recorded", "queens:8: solution block 1 does not match its checksum (class entries)"}},
		{"changed class", "UPDATE solution_blocks_queens_8 SET class_syms = substr(class_syms, 1, 19) || char((unicode(substr(class_syms, 20, 1)) - 48 + 8) % 64 + 48) || substr(class_syms, 21)",
			[]string{"solution 10: stored in class", "content hash"}},
		{"changed symmetry", "UPDATE solution_blocks_queens_8 SET class_syms = substr(class_syms, 1, 39) || char((((unicode(substr(class_syms, 40, 1)) - 48) & ~7) | ((unicode(substr(class_syms, 40, 1)) - 48 + 1) & 7)) + 48) || substr(class_syms, 41)",
			[]string{"solution 20: symmetry"}},
		{"block index checksum", "UPDATE block_index_queens_8 SET checksum = (checksum + 1) % 4294967296",
			[]string{"queens:8: the block index row of solution 1 is damaged: its checksum does not match"}},
		{"block index row deleted", "DELETE FROM block_index_queens_8",
			[]string{"queens:8: its block index holds solutions 1 to 0, 92 recorded", "queens:8: solution block 1 is not in the block index"}},
		{"changed orbit", "UPDATE classes_magic_3_raw SET orbit = 4 WHERE id = 1",
			[]string{"magic:3: class 1: stored form is not canonical or its orbit 4 is wrong", "class 1: 8 members found, orbit size 4", "magic:3: class 1 does not match its checksum"}},
		{"changed count", "UPDATE puzzles SET solutions = 93 WHERE name = 'queens:8'",
			[]string{"queens:8: recorded counts 93 solutions", "92 solutions stored, 93 recorded", "queens:8: its record does not match its seal"}},
		{"changed recorded count", "UPDATE count_breakdown SET solutions = solutions + 1 WHERE puzzle = 'queens:8' AND stat = 'cell:1,1' AND value = 1",
			[]string{"queens:8: its count recorded by cell:1,1, value 1, does not match its seal", "queens:8: recorded counts by cell:1,1, value 1: 5 solutions"}},
		{"changed build time", "UPDATE puzzles SET build_seconds = 9 WHERE name = 'queens:8'",
			[]string{"queens:8: its record does not match its seal"}},
		{"deleted record", "DELETE FROM puzzles WHERE name = 'queens:8'",
			[]string{"catalog: queens:8: the tables block_index_queens_8, class_checks_queens_8, classes_queens_8, classes_queens_8_raw, solution_blocks_queens_8, solutions_queens_8, solutions_queens_8_raw have no record in puzzles"}},
		{"changed published count", "UPDATE puzzles SET known_solutions = 93 WHERE name = 'queens:8'",
			[]string{"queens:8: recorded published counts (93 solutions, 12 classes) differ from the published values, 92 and 12"}},
		{"dropped table", "DROP TABLE classes_magic_3_raw",
			[]string{"catalog: magic:3: recorded as stored (solutions), but its table classes_magic_3_raw is missing", "magic:3: cannot be read to the end"}},
		{"left staging table", "CREATE TABLE classes_queens_9_building (id INTEGER PRIMARY KEY)",
			[]string{"catalog: queens:9: the build tables classes_queens_9_building belong to no unfinished build"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := tampered(t, clean, tc.sql)
			code, out, errOut := solcatDB(db, "verify")
			if code != 1 || !strings.Contains(errOut, "problem(s) found") {
				t.Errorf("exit %d, stderr %q; want 1 and a count of problems", code, errOut)
			}
			for _, want := range tc.wants {
				if !strings.Contains(out, want) {
					t.Errorf("verify output does not name %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestMagic5CountsOnly queries a magic:5 count record as the count-only
// build writes it (the numbers of a full run; the run itself is too long
// for the default tests: .ci/bench/magic5.sh does it).
func TestMagic5CountsOnly(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "m5.db")
	cat, err := catalog.Create(ctx, db, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	rec, breakdown := magic5Counts()
	if err := cat.RecordCounts(ctx, rec, breakdown); err != nil {
		t.Fatal(err)
	}
	cat.Close()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"count", "magic:5"}, 0, "2202441792\n"},
		{[]string{"count", "magic:5", "--classes"}, 0, "275305224\n"},
		{[]string{"count", "magic:5", "--cell", "3,3=13", "--classes"}, 0, "19079744\n"},
		{[]string{"count", "magic:5", "--cell", "3,3=1"}, 0, "34926336\n"},
		{[]string{"count", "magic:5", "--cell", "1,1=1"}, 1, "store its classes with 'solcat build magic:5'"},
		{[]string{"list", "magic:5"}, 1, "store its classes with 'solcat build magic:5'"},
		{[]string{"count", "magic:5", "--prop", "associative", "--classes"}, 0, "48544\n"},
		{[]string{"count", "magic:5", "--prop", "associative", "--prop", "pandiagonal", "--classes"}, 0, "16\n"},
		{[]string{"count", "magic:5", "--prop", "associative"}, 0, "388352\n"},
		{[]string{"count", "magic:5", "--prop", "pandiagonal", "--classes"}, 0, "3600\n"},
		{[]string{"count", "magic:5", "--prop", "self-complementary", "--classes"}, 1, "only these are counted: pandiagonal; associative; pandiagonal,associative"},
		{[]string{"stats", "magic:5", "--by", "cell:3,3", "--format", "csv"}, 0, "magic:5,\"cell:3,3\",13,,152637952,19079744,0.069304\n"},
		{[]string{"stats", "magic:5", "--by", "prop:associative", "--format", "csv"}, 0, "magic:5,prop:associative,0,no,2202053440,275256680,0.999824\nmagic:5,prop:associative,1,yes,388352,48544,0.000176\n"},
		{[]string{"stats", "magic:5", "--by", "prop:self-complementary"}, 1, "store its classes with 'solcat build magic:5'"},
	} {
		code, out, errOut := solcatDB(db, tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%v: exit %d, %q %q; want %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
}

// TestCatalogWithoutDudeneyGroups: a magic:4 built before the groups were
// stored must not answer "0" to a question about groups.
func TestCatalogWithoutDudeneyGroups(t *testing.T) {
	db := filepath.Join(t.TempDir(), "old.db")
	if code, _, errOut := solcatDB(db, "build", "magic:4"); code != 0 {
		t.Fatal(errOut)
	}
	// As a solcat before the groups stored it: no group bits, and neither
	// the class checks nor the counts by property of later solcats.
	execSQL(t, db, "UPDATE classes_magic_4_raw SET props = props & 127; DROP TABLE class_checks_magic_4; DELETE FROM count_breakdown WHERE puzzle = 'magic:4'")
	for _, args := range [][]string{{"count", "magic:4", "--prop", "dudeney-I"}, {"stats", "magic:4", "--by", "group"}, {"verify", "magic:4"}} {
		code, out, errOut := solcatDB(db, args...)
		if code != 1 || !strings.Contains(out+errOut, "built before Dudeney groups were stored") {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	if code, out, _ := solcatDB(db, "count", "magic:4", "--prop", "pandiagonal", "--classes"); code != 0 || out != "48\n" {
		t.Errorf("other properties: exit %d, %q", code, out)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "future.db")
	if code, _, errOut := solcatDB(db, "build", "queens:4"); code != 0 {
		t.Fatal(errOut)
	}
	execSQL(t, db, "INSERT INTO solcat_schema_version (version_id, is_applied) VALUES (99, 1)")
	before := fileHash(t, db)
	for _, args := range [][]string{{"count", "queens:4"}, {"build", "queens:5"}, {"info"}} {
		code, _, errOut := solcatDB(db, args...)
		if code != 1 || !strings.Contains(errOut, fmt.Sprintf("schema version 99, this solcat knows versions up to %d", migrations.Latest())) {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if fileHash(t, db) != before {
		t.Error("the newer catalog was changed")
	}
}

// TestExportPartitioned writes magic:4 partitioned by the top-left value
// and reads every file back: each row sits in the folder of its value, and
// together they are the plain export, row for row.
func TestExportPartitioned(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "magic4")
	code, _, errOut := solcat("export", "magic:4", "--format", "parquet", "--partition-by", "cell:1,1", "--output", dir)
	if code != 0 || !strings.Contains(errOut, "wrote 7,040 rows to") || !strings.Contains(errOut, "16 partitions by r1c1") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	byID := map[int64]string{}
	folders, _ := os.ReadDir(dir)
	for _, folder := range folders {
		names, rows := readParquet(t, filepath.Join(dir, folder.Name(), "part-0.parquet"))
		if names[0] != "id" || names[5] != "r1c1" {
			t.Fatalf("columns %v", names)
		}
		for _, r := range rows {
			id, _ := strconv.ParseInt(r[0], 10, 64)
			if want := "r1c1=" + r[5]; folder.Name() != want {
				t.Fatalf("solution %d with top-left %s is in %s", id, r[5], folder.Name())
			}
			byID[id] = "[" + strings.Join(r[5:], " ") + "]"
		}
	}
	_, csvText, _ := solcat("export", "magic:4")
	lines := csvRows(t, csvText)
	if len(byID) != len(lines) {
		t.Fatalf("%d rows in the partitions, %d in the export", len(byID), len(lines))
	}
	for _, row := range lines {
		id, _ := strconv.ParseInt(row["id"], 10, 64)
		var cells []string
		for r := 1; r <= 4; r++ {
			for c := 1; c <= 4; c++ {
				cells = append(cells, row[fmt.Sprintf("r%dc%d", r, c)])
			}
		}
		if want := "[" + strings.Join(cells, " ") + "]"; byID[id] != want {
			t.Fatalf("solution %d: partitions have %s, export %s", id, byID[id], want)
		}
	}
	if code, _, errOut := solcat("export", "magic:4", "--format", "parquet", "--partition-by", "cell:1,1", "--output", dir); code != 2 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second export into the same folder: exit %d, %q", code, errOut)
	}
}

// TestExportParquetMatchesCSV exports magic:4 and queens:8 classes as Parquet,
// reads the files back and compares every row with the CSV export.
func TestExportParquetMatchesCSV(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m4.parquet")
	code, _, errOut := solcat("export", "magic:4", "--format", "parquet", "--output", path)
	if code != 0 || !strings.Contains(errOut, "wrote 7,040 rows to") || !strings.Contains(errOut, "sha256 ") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	_, csvText, _ := solcat("export", "magic:4")
	lines := strings.Split(strings.TrimSpace(csvText), "\n")[1:]
	withProp := map[string]int{}
	for _, layout := range []string{"columns", "list"} {
		file := filepath.Join(dir, "m4-"+layout+".parquet")
		if code, _, errOut := solcat("export", "magic:4", "--parquet-cells", layout, "--output", file); code != 0 {
			t.Fatalf("--parquet-cells %s: %s", layout, errOut)
		}
		names, rows := readParquet(t, file)
		want := "id class orbit symmetry props r1c1 r1c2 r1c3 r1c4 r2c1 r2c2 r2c3 r2c4 r3c1 r3c2 r3c3 r3c4 r4c1 r4c2 r4c3 r4c4"
		if layout == "list" {
			want = "id class orbit symmetry props cells"
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("--parquet-cells %s: columns %s, want %s", layout, got, want)
		}
		if len(rows) != len(lines) {
			t.Fatalf("%d Parquet rows, %d CSV rows", len(rows), len(lines))
		}
		for i, r := range rows {
			if layout == "columns" {
				for _, p := range strings.Fields(r[4]) {
					withProp[p]++
				}
			}
			props := strings.ReplaceAll(r[4], " ", ",") // a list; one text in CSV
			if strings.Contains(props, ",") {
				props = `"` + props + `"`
			}
			got := strings.Join(r[:4], ",") + "," + props + "," + strings.ReplaceAll(strings.Join(r[5:], ","), " ", ",")
			if got != lines[i] {
				t.Fatalf("--parquet-cells %s, row %d: Parquet %s, CSV %s", layout, i+1, got, lines[i])
			}
		}
	}
	if withProp["pandiagonal"] != 384 || withProp["dudeney-I"] != 384 || withProp["dudeney-VI"] != 2432 || withProp["self-complementary"] != 2816 {
		t.Errorf("solutions by property in the Parquet file: %v", withProp)
	}
	again := filepath.Join(dir, "again.parquet")
	solcat("export", "magic:4", "--format", "parquet", "--output", again)
	if fileHash(t, path) != fileHash(t, again) {
		t.Error("two Parquet exports of the same catalog differ")
	}
}

// TestSchemaFixtureStillWorks opens a catalog written by schema version 3
// (the first to land; cmd/solcat/testdata/fixtures/schema-v3.db, made by
// 'solcat build magic:1-3 queens:1-8' and 'build queens:9-10 --count-only'),
// whose puzzles are stored one row per solution, a format this solcat reads
// no more: what the records answer is still answered, the rest is refused
// with one line saying to rebuild; a build migrates the catalog forward,
// and the rebuilt puzzles are the same as in a fresh catalog. When the
// schema changes, this test must keep passing on the old file.
func TestSchemaFixtureStillWorks(t *testing.T) {
	t.Parallel() // catalogs of its own (see TestMain)
	fixture, err := os.ReadFile(filepath.Join("testdata", "fixtures", "schema-v3.db"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "old.db")
	os.WriteFile(db, fixture, 0o644)
	answers := []struct {
		args []string
		want string
	}{
		{[]string{"count", "queens:8", "--classes"}, "12\n"},
		{[]string{"count", "queens:10"}, "724\n"},
		{[]string{"count", "queens:8", "--orbit", "4"}, "4\n"},
	}
	for _, tc := range answers {
		if code, out, errOut := solcatDB(db, tc.args...); code != 0 || out != tc.want {
			t.Errorf("as written: %v: exit %d, %q %s; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
	for _, args := range [][]string{{"list", "queens:6", "--limit", "1"}, {"count", "magic:3", "--prop", "associative"}, {"show", "queens:8", "10"}} {
		code, out, errOut := solcatDB(db, args...)
		if code != 1 || out != "" || errOut != fmt.Sprintf("solcat: %s is stored in an older format (one row per solution), which this solcat no longer reads; store it again with 'solcat build %s --force'\n", args[1], args[1]) {
			t.Errorf("as written: %v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	if code, out, errOut := solcatDB(db, "verify"); code != 1 || !strings.Contains(out, "queens:8: cannot be read to the end: queens:8 is stored in an older format") {
		t.Errorf("as written: verify: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := solcatDB(db, "build", "queens:11", "magic:1-3", "queens:1-8", "--force"); code != 0 {
		t.Fatalf("build on the old catalog: %s", errOut)
	}
	answers = append(answers, struct {
		args []string
		want string
	}{[]string{"list", "queens:6", "--limit", "1"}, "2 4 6 1 3 5\n"}, struct {
		args []string
		want string
	}{[]string{"count", "magic:3", "--prop", "associative"}, "8\n"})
	for _, tc := range answers {
		if code, out, errOut := solcatDB(db, tc.args...); code != 0 || out != tc.want {
			t.Errorf("rebuilt: %v: exit %d, %q %s; want %q", tc.args, code, out, errOut, tc.want)
		}
	}
	if code, out, errOut := solcatDB(db, "verify"); code != 0 {
		t.Errorf("rebuilt: verify: exit %d\n%s%s", code, out, errOut)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	solcatDB(fresh, "build", "queens:8", "magic:3")
	_, a, _ := solcatDB(db, "sql", "SELECT content_hash FROM puzzles WHERE name = 'queens:8'")
	_, b, _ := solcatDB(fresh, "sql", "SELECT content_hash FROM puzzles WHERE name = 'queens:8'")
	if a != b || len(a) < 64 {
		t.Errorf("queens:8 content hash: old catalog %q, fresh build %q", a, b)
	}
	for _, args := range [][]string{
		{"classes", "queens:8", "--cell", "1,1=1"},
		{"classes", "magic:3", "--cell", "1,1=2"},
		{"list", "queens:8", "--cell", "1,4=1", "--orbit", "4", "--format", "csv"},
		{"show", "queens:8", "10"},
	} {
		_, old, oldErr := solcatDB(db, args...)
		_, now, nowErr := solcatDB(fresh, args...)
		if old != now || old == "" {
			t.Errorf("%v: rebuilt %q%s, fresh %q%s", args, old, oldErr, now, nowErr)
		}
	}
}

// queens8Cells is the SQL of the cells of solution k (0-based) of queens:8's
// one column block of 92 solutions, as a blob.
func queens8Cells(k int) string {
	parts := make([]string, 8)
	for i := range parts {
		parts[i] = fmt.Sprintf("substr(cells, %d, 1)", 92*i+k+1)
	}
	return "CAST(" + strings.Join(parts, " || ") + " AS BLOB)"
}

// queens8SetCells is the SQL that gives solution k of queens:8's block the
// cells given.
func queens8SetCells(k int, cells []byte) string {
	var stmts strings.Builder
	for i, v := range cells {
		pos := 92*i + k // bytes before the cell
		fmt.Fprintf(&stmts, "UPDATE solution_blocks_queens_8 SET cells = CAST(substr(cells, 1, %d) || x'%02x' || substr(cells, %d) AS BLOB);", pos, v, pos+2)
	}
	return stmts.String()
}

// queens8Delete is the SQL that takes solution k's cells out of queens:8's
// block, the last cell first, so that the bytes before each stay put.
func queens8Delete(k int) string {
	var stmts strings.Builder
	for i := 7; i >= 0; i-- {
		pos := 92*i + k
		fmt.Fprintf(&stmts, "UPDATE solution_blocks_queens_8 SET cells = CAST(substr(cells, 1, %d) || substr(cells, %d) AS BLOB);", pos, pos+2)
	}
	return stmts.String()
}

// TestVerifyReportsInOrder damages two solutions of queens:13 that are
// checked in different batches, and checks that verify names them in ID
// order, the same way on every run.
func TestVerifyReportsInOrder(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	db := filepath.Join(t.TempDir(), "q13.db")
	if code, _, errOut := solcatDB(db, "build", "queens:13"); code != 0 {
		t.Fatal(errOut)
	}
	for _, id := range []int{70000, 5} {
		// The solution's 13 bytes become 0, 1, ..., 12: no longer a solution.
		// Blocks are column blocks: cell i of solution k of a block of n is
		// byte i·n + k.
		for i := range 13 {
			execSQL(t, db, fmt.Sprintf(`UPDATE solution_blocks_queens_13
			SET cells = CAST(substr(cells, 1, %[1]d * (length(cells) / 13) + ?1 - first_id) || x'%02[1]x' || substr(cells, %[1]d * (length(cells) / 13) + ?1 - first_id + 2) AS BLOB)
			WHERE first_id = (SELECT max(first_id) FROM solution_blocks_queens_13 WHERE first_id <= ?1)`, i), id)
		}
	}
	var first string
	for run := range 3 {
		code, out, _ := solcatDB(db, "verify")
		five, far := strings.Index(out, "solution 5: not a solution"), strings.Index(out, "solution 70000: not a solution")
		if code != 1 || five < 0 || far < five {
			t.Fatalf("verify (exit %d) does not name solutions 5 and 70000 in that order:\n%s", code, out)
		}
		if run == 0 {
			first = out
		} else if out != first {
			t.Fatalf("verify's report changed between runs:\n%s\n---\n%s", first, out)
		}
	}
}

// tampered is a copy of the catalog clean changed by one SQL statement.
func tampered(t *testing.T, clean, stmt string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "tampered.db")
	data, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	execSQL(t, db, stmt)
	return db
}

// execSQL changes a catalog file behind solcat's back, as a test of what
// solcat does with a tampered catalog.
func execSQL(t *testing.T, db, stmt string, args ...any) {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(stmt, args...); err != nil {
		t.Fatal(err)
	}
}

// TestContentHashesUnchanged compares the content hash of every puzzle of
// the default build with the values committed in testdata: the catalog's
// content (rows, IDs, classes, symmetries) is the same whatever changes in
// how it is built.
func TestContentHashesUnchanged(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "content-hashes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	code, got, errOut := solcat("sql", "SELECT name || ' ' || content_hash FROM puzzles ORDER BY kind, n", "--format", "csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	if got = strings.SplitN(got, "\n", 2)[1]; got != string(want) {
		t.Errorf("content hashes of the default build:\n%s\nwant\n%s", got, want)
	}
}

// csvRows reads CSV output with a header row into one map per row.
func csvRows(t *testing.T, text string) []map[string]string {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(records) == 0 {
		t.Fatalf("not CSV with a header: %v\n%s", err, text)
	}
	var out []map[string]string
	for _, r := range records[1:] {
		m := map[string]string{}
		for i, name := range records[0] {
			m[name] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// TestVerifyRecordedCounts changes the counts a puzzle stored as its
// classes recorded at build time (which one-cell counts, stats by cell and
// the heat map answer from) and checks that verify names each change and
// that a lost count is not read as 0.
func TestVerifyRecordedCounts(t *testing.T) {
	clean := filepath.Join(t.TempDir(), "clean.db")
	if code, _, errOut := solcatDB(clean, "build", "queens:12", "--as-classes"); code != 0 {
		t.Fatal(errOut)
	}
	if code, out, errOut := solcatDB(clean, "verify"); code != 0 || !strings.Contains(out, "queens:12: ok (") {
		t.Fatalf("clean catalog: exit %d, %q %s", code, out, errOut)
	}
	for _, tc := range []struct {
		name, sql, want string
	}{
		{"deleted", "DELETE FROM count_breakdown WHERE stat = 'cell:1,1' AND value = 1",
			"queens:12: recorded counts by cell:1,1: value 1 is missing (the classes give 500 solutions, 250 classes)"},
		{"changed solutions", "UPDATE count_breakdown SET solutions = solutions + 1 WHERE stat = 'cell:3,4' AND value = 0",
			"queens:12: recorded counts by cell:3,4, value 0: 13081 solutions, 1787 classes; the classes give 13080 and 1787"},
		{"changed classes", "UPDATE count_breakdown SET classes = classes - 1 WHERE stat = 'cell:6,6' AND value = 1",
			"recorded counts by cell:6,6, value 1:"},
		{"added value", "INSERT INTO count_breakdown (puzzle, stat, value, solutions, classes) VALUES ('queens:12', 'cell:2,2', 5, 1, 1)",
			"queens:12: recorded counts by cell:2,2: value 5 is not a value of queens:12"},
		{"changed symmetry type", "UPDATE count_breakdown SET classes = classes + 1 WHERE stat = 'props' AND value = (SELECT min(value) FROM count_breakdown WHERE stat = 'props')",
			"queens:12: recorded counts of "},
		{"deleted symmetry type", fmt.Sprintf("DELETE FROM count_breakdown WHERE stat = 'props' AND value = %d", canon.Asymmetric),
			"queens:12: recorded counts of asymmetric are missing (the classes give"},
		{"deleted board property", fmt.Sprintf("DELETE FROM count_breakdown WHERE stat = 'props' AND value = %d", canon.Superqueen),
			"queens:12: recorded counts of superqueen are missing (the classes give 156 solutions, 22 classes)"},
		{"changed board property", fmt.Sprintf("UPDATE count_breakdown SET solutions = solutions + 8 WHERE stat = 'props' AND value = %d", canon.Toroidal),
			"queens:12: recorded counts of toroidal: 8 solutions, 0 classes; the classes give 0 and 0"},
		{"added property", "INSERT INTO count_breakdown (puzzle, stat, value, solutions, classes) VALUES ('queens:12', 'props', 1, 5, 5)",
			"queens:12: recorded counts by properties: 1 is not a set of properties counted for queens:12"},
		{"added cell", "INSERT INTO count_breakdown (puzzle, stat, value, solutions, classes) VALUES ('queens:12', 'cell:13,1', 1, 1, 1)",
			"queens:12: recorded counts by cell:13,1: not a cell of queens:12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tampered(t, clean, tc.sql)
			if code, out, _ := solcatDB(db, "verify"); code != 1 || !strings.Contains(out, tc.want) {
				t.Errorf("verify: exit %d, %q; want %q", code, out, tc.want)
			}
			if tc.name == "deleted" {
				for _, args := range [][]string{{"count", "queens:12", "--cell", "1,1=1"}, {"stats", "queens:12", "--by", "row:1"}, {"stats", "queens:12", "--by", "cell:1,1"}} {
					if code, out, errOut := solcatDB(db, args...); code != 1 || out != "" || !strings.Contains(errOut, "damaged") {
						t.Errorf("%v of a lost recorded count: exit %d, %q %q", args, code, out, errOut)
					}
				}
			}
		})
	}
}

// TestNumbersAreDecimal reads number flags and arguments with leading
// zeros as decimal, as --cell and puzzle names are read (kong alone would
// read 010 as eight): each padded form prints what the plain one does.
func TestNumbersAreDecimal(t *testing.T) {
	for _, tc := range []struct{ padded, plain, octal []string }{
		{[]string{"list", "magic:4", "--class", "010"}, []string{"list", "magic:4", "--class", "10"}, []string{"list", "magic:4", "--class", "8"}},
		{[]string{"show", "queens:8", "010"}, []string{"show", "queens:8", "10"}, []string{"show", "queens:8", "8"}},
		{[]string{"show", "queens:8", "--solution", "014"}, []string{"show", "queens:8", "--solution", "14"}, []string{"show", "queens:8", "--solution", "12"}},
		{[]string{"list", "queens:8", "--offset", "010", "--limit", "010"}, []string{"list", "queens:8", "--offset", "10", "--limit", "10"}, []string{"list", "queens:8", "--offset", "8", "--limit", "8"}},
	} {
		code, padded, errOut := solcat(tc.padded...)
		_, plain, _ := solcat(tc.plain...)
		_, octal, _ := solcat(tc.octal...)
		if code != 0 || padded != plain || padded == octal {
			t.Errorf("%q: exit %d, %q, %s; want %q", tc.padded, code, padded, errOut, plain)
		}
	}
}

// matchGolden compares out, the output of 'solcat ARGS', with the golden
// file at path (under testdata/golden), which -update writes first.
func matchGolden(t *testing.T, path string, args []string, out string) {
	t.Helper()
	path = filepath.Join("testdata", "golden", path)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/solcat -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("solcat %s: output differs from %s:\n%s", strings.Join(args, " "), path, out)
	}
}
