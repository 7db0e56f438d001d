package main

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A folder of files for the bad-input tests: a small catalog and its
// neighbours, each of which some command might be tricked into harming.
var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixtureErr  error
)

// fixtureFolder builds, once, the files every bad-input case starts from:
// cat.db (queens:1-8, magic:1-4), the two count shards of queens:8, an
// SQLite database of another program, one with a table named puzzles, a
// truncated catalog, a text file, an empty file.
func fixtureFolder(t *testing.T) string {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "solcat-fixture-")
		if err != nil {
			fixtureErr = err
			return
		}
		fixtureDir = dir
		steps := [][]string{
			{"--db", filepath.Join(dir, "cat.db"), "build", "queens:1-8", "magic:1-4"},
			{"--db", filepath.Join(dir, "s1.db"), "build", "queens:8", "--count-only", "--shard", "1/2"},
			{"--db", filepath.Join(dir, "s2.db"), "build", "queens:8", "--count-only", "--shard", "2/2"},
		}
		for _, args := range steps {
			var out, errOut strings.Builder
			if code := run(context.Background(), args, noStdin(), &out, &errOut); code != 0 {
				fixtureErr = fmt.Errorf("%v: %s", args, errOut.String())
				return
			}
		}
		for name, ddl := range map[string]string{
			"foreign.db":        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep me')",
			"foreignpuzzles.db": "CREATE TABLE puzzles (name TEXT PRIMARY KEY, difficulty INTEGER); INSERT INTO puzzles VALUES ('sudoku', 3)",
		} {
			db, err := sql.Open("sqlite", filepath.Join(dir, name))
			if err == nil {
				_, err = db.Exec(ddl)
				db.Close()
			}
			if err != nil {
				fixtureErr = err
				return
			}
		}
		whole, err := os.ReadFile(filepath.Join(dir, "cat.db"))
		if err != nil {
			fixtureErr = err
			return
		}
		os.WriteFile(filepath.Join(dir, "truncated.db"), whole[:len(whole)/3], 0o644)
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a catalog\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "empty.db"), nil, 0o644)
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtureDir
}

// caseFolder copies the fixture files into a new folder and adds the links
// and the subfolder that cannot be copied: link.db (a symbolic link to
// cat.db), hard.db (a hard link to it), linkshard.db (a symbolic link to
// s1.db) and sub/.
func caseFolder(t *testing.T) string {
	t.Helper()
	src := fixtureFolder(t)
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink("cat.db", filepath.Join(dir, "link.db"))
	os.Link(filepath.Join(dir, "cat.db"), filepath.Join(dir, "hard.db"))
	os.Symlink("s1.db", filepath.Join(dir, "linkshard.db"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	return dir
}

// folderState describes every file under dir: a hash of its bytes, or
// where a link points.
func folderState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			state[rel] = "link to " + target
		case e.IsDir():
			state[rel] = "folder"
		default:
			state[rel] = fileHash(t, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// runSomewhere runs the CLI in-process, or, if SOLCAT_TEST_BINARY names a
// solcat binary, that binary (to see how another version behaves).
func runSomewhere(args []string, stdout, stderr *strings.Builder) int {
	bin := os.Getenv("SOLCAT_TEST_BINARY")
	if bin == "" {
		return run(context.Background(), args, noStdin(), stdout, stderr)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Run()
	return cmd.ProcessState.ExitCode()
}

// TestBadInputChangesNothing gives solcat bad arguments, file names, files
// and SQL. Each must be refused with its exit status and one line on
// stderr naming the problem, print nothing on stdout, and leave every file
// in the folder as it was.
func TestBadInputChangesNothing(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	type badCase struct {
		name string
		code int
		want string   // in the stderr line
		args []string // {d} is the case's folder; --db {d}/cat.db unless the args name one
	}
	c := func(name string, code int, want string, args ...string) badCase {
		return badCase{name, code, want, args}
	}
	cases := []badCase{
		// Puzzle names.
		c("empty puzzle", 2, "KIND:N", "count", ""),
		c("kind only", 2, "KIND:N", "count", "queens"),
		c("no size", 2, "not a whole number", "count", "queens:"),
		c("no kind", 2, "unknown puzzle kind", "count", ":8"),
		c("size not a number", 2, "not a whole number", "count", "queens:x"),
		c("size zero", 2, "out of range", "count", "queens:0"),
		c("size too big", 2, "out of range", "count", "queens:33"),
		c("unknown kind", 2, "unknown puzzle kind", "count", "chess:8"),
		c("range where one size is wanted", 2, "one size", "count", "queens:4-6"),
		c("plus sign", 2, "not a whole number", "count", "queens:+8"),
		c("two colons", 2, "not a whole number", "count", "queens:8:8"),
		c("range backwards", 2, "runs backwards", "build", "queens:8-4"),
		c("range from zero", 2, "out of range", "build", "magic:0-3"),
		// Filters.
		c("cell off the board", 2, "off the board", "count", "queens:8", "--cell", "9,1=1"),
		c("queens value", 2, "1 for a queen and 0", "count", "queens:8", "--cell", "1,1=2"),
		c("cell without value", 2, "ROW,COL=VALUE", "count", "queens:8", "--cell", "1,1"),
		c("cell row not a number", 2, "not a whole number", "count", "queens:8", "--cell", "a,1=1"),
		c("cell value not a number", 2, "not a whole number", "count", "queens:8", "--cell", "1,1=x"),
		c("cell empty", 2, "--cell is given an empty value", "count", "queens:8", "--cell", ""),
		c("cell empty joined", 2, "--cell is given an empty value", "count", "queens:8", "--cell="),
		c("cell no position", 2, "ROW,COL=VALUE", "count", "queens:8", "--cell", "=1"),
		c("magic value zero", 2, "values 1 to 16", "count", "magic:4", "--cell", "1,1=0"),
		c("magic value too big", 2, "values 1 to 16", "count", "magic:4", "--cell", "1,1=17"),
		c("pattern empty", 2, "--pattern is given an empty value", "count", "magic:4", "--pattern", ""),
		c("pattern rows", 2, "needs 4 rows", "count", "magic:4", "--pattern", "1 . . . / . . . ."),
		c("pattern width", 2, "row 1 has 3 entries", "count", "magic:4", "--pattern", "1 . . / . . . . / . . . . / . . . ."),
		c("pattern word", 2, "neither a number", "count", "magic:4", "--pattern", "x . . . / . . . . / . . . . / . . . ."),
		c("pattern repeat", 2, "appears twice", "count", "magic:4", "--pattern", "2 . . . / . . . . / . 2 . . / . . . ."),
		c("queens pattern length", 2, "3 entries for 8 rows", "count", "queens:8", "--pattern", "1 5 ."),
		c("queens pattern column twice", 2, "both in column 2", "count", "queens:6", "--pattern", "2 . 2 . . ."),
		c("queens pattern slash", 2, "without '/'", "count", "queens:4", "--pattern", "1 . / . ."),
		c("unknown property", 2, "use one of: pandiagonal", "count", "magic:4", "--prop", "perfect"),
		c("empty property", 2, "--prop is given an empty value", "count", "magic:4", "--prop", ""),
		c("queens property on magic", 2, "not a property of magic", "count", "magic:4", "--prop", "asymmetric"),
		c("Dudeney group of queens", 2, "not a property of queens", "count", "queens:8", "--prop", "dudeney-I"),
		c("orbit 3", 2, "orbit sizes are 1, 2, 4 or 8", "count", "queens:8", "--orbit", "3"),
		c("orbit negative", 2, "orbit sizes are 1, 2, 4 or 8", "count", "queens:8", "--orbit=-1"),
		c("class negative", 2, "class IDs start at 1", "count", "queens:8", "--class=-5"),
		c("class zero", 2, "--class 0: class IDs start at 1", "count", "queens:8", "--class", "0"),
		c("orbit zero", 2, "--orbit 0: orbit sizes are 1, 2, 4 or 8", "list", "queens:8", "--orbit", "0"),
		c("class out of range", 2, "classes 1 to 12", "count", "queens:8", "--class", "99"),
		c("class of a puzzle without solutions", 2, "queens:2 has no classes", "count", "queens:2", "--class", "1"),
		c("solution of a puzzle without solutions", 2, "queens:2 has no solutions", "show", "queens:2", "--solution", "1"),
		c("up to symmetry alone", 2, "needs cell or pattern conditions", "count", "queens:8", "--up-to-symmetry"),
		// A filter written wrong is said first, whether the puzzle is in
		// the catalog or not.
		c("property misspelt, past storage", 2, `--prop "toroidl": not a property of queens puzzles`, "count", "queens:20", "--prop", "toroidl"),
		c("property misspelt, not built", 2, `--prop "superqeen": not a property of queens puzzles`, "list", "queens:17", "--prop", "superqeen"),
		c("cell misspelt, past storage", 2, `--cell "1,1": write ROW,COL=VALUE`, "count", "queens:17", "--prop", "toroidal", "--cell", "1,1"),
		c("pattern short, past storage", 2, "--pattern", "count", "queens:20", "--pattern", "1 . ."),
		c("up to symmetry alone, past storage", 2, "needs cell or pattern conditions", "count", "queens:17", "--prop", "toroidal", "--up-to-symmetry"),
		c("queens property of magic", 2, `--prop "toroidal": not a property of magic puzzles`, "count", "magic:5", "--prop", "toroidal"),
		c("shard of orbits", 2, "ask for classes or orbits on the merged catalog", "count", "queens:17", "--prop", "toroidal", "--orbit", "4", "--shard", "1/2"),
		c("shard of classes", 2, "ask for classes or orbits on the merged catalog", "count", "queens:17", "--prop", "superqueen", "--classes", "--shard", "1/2"),
		c("a size below 1", 2, "size -1 is out of range", "count", "queens:-1"),
		// Pages.
		c("negative limit", 2, "--limit -1 is negative", "list", "queens:6", "--limit=-1"),
		c("negative offset", 2, "--offset -1 is negative", "list", "queens:6", "--offset=-1"),
		// Given as two words, a negative value meets the same check.
		c("negative limit, two words", 2, "--limit -1 is negative; give a count of 0 or more", "list", "queens:6", "--limit", "-1"),
		c("negative offset and limit, two words", 2, "--offset -2 is negative", "list", "queens:6", "--limit", "3", "--offset", "-2"),
		c("limit not a number", 2, "--limit", "list", "queens:6", "--limit", "x"),
		c("offset not whole", 2, "--offset", "list", "queens:6", "--offset", "1.5"),
		// Formats.
		c("unknown format", 2, "--format", "count", "queens:8", "--format", "xml"),
		c("empty format", 2, "--format is given an empty value", "count", "queens:8", "--format="),
		c("format for show", 2, "--format parquet does not apply", "show", "queens:8", "1", "--format", "parquet"),
		c("format for info", 2, "--format svg does not apply", "info", "--format", "svg"),
		c("format for build", 2, "--format parquet does not apply", "build", "queens:4", "--format", "parquet"),
		c("format before the command", 2, "unknown flag --format", "--format", "json", "count", "queens:8"),
		// The web server.
		c("serve beyond loopback", 2, "add --public", "serve", "--addr", "0.0.0.0:8765"),
		c("serve on a name", 2, "add --public", "serve", "--addr", "example.org:8765"),
		c("serve address without port", 2, "write HOST:PORT", "serve", "--addr", "127.0.0.1"),
		c("serve no time", 2, "--timeout 0s is not positive", "serve", "--timeout", "0s"),
		c("serve negative slots", 2, "--concurrent -1 is negative; give 1 or more", "serve", "--concurrent", "-1"),
		// Commands and their arguments.
		c("unknown command", 2, "unexpected argument", "frobnicate"),
		c("count without puzzle", 2, "expected \"<puzzle>\"", "count"),
		c("show without class", 2, "show needs a class ID, or --solution ID", "show", "queens:8"),
		c("show class and solution", 2, "not both", "show", "queens:8", "1", "--solution", "3"),
		c("show solution negative", 2, "solution IDs start at 1", "show", "queens:8", "--solution=-1"),
		c("show solution zero", 2, "--solution 0: solution IDs start at 1", "show", "queens:8", "--solution", "0"),
		c("show solution too big", 2, "has solutions 1 to 92, not 93", "show", "queens:8", "--solution", "93"),
		c("show class not a number", 2, "class-id", "show", "queens:8", "x"),
		c("show class zero", 2, "class IDs start at 1", "show", "queens:8", "0"),
		c("show class too big", 2, "classes 1 to 12", "show", "queens:8", "13"),
		c("stats without by", 2, "--by", "stats", "magic:4"),
		c("stats by nothing", 2, "use cell (every cell, as a grid), cell:R,C", "stats", "magic:4", "--by", "colour"),
		c("stats by empty", 2, "--by is given an empty value", "stats", "magic:4", "--by", ""),
		c("stats cell off the board", 2, "rows and columns 1 to 4", "stats", "magic:4", "--by", "cell:5,5"),
		c("stats group of queens", 2, "magic:4 only", "stats", "queens:8", "--by", "group"),
		c("stats row of magic", 2, "use cell (every cell, as a grid), cell:R,C", "stats", "magic:4", "--by", "row:1"),
		c("stats unknown property", 2, "choose from pandiagonal", "stats", "magic:4", "--by", "prop:lucky"),
		c("stats property unnamed", 2, "write prop:NAME", "stats", "queens:8", "--by", "prop"),
		// Builds.
		c("magic 6", 2, "built up to order 5", "build", "magic:6"),
		c("queens 20 stored", 2, "queens:20 cannot be built: it has too many solutions to store (queens are stored up to N=19, N=18 and 19 as their classes only); count it with --count-only instead (queens are counted up to N=23)", "build", "queens:20"),
		c("queens 18 stored in shards", 2, "built whole", "build", "queens:18", "--shard", "1/2"),
		c("magic stored as classes", 2, "only queens are stored as their classes", "build", "magic:4", "--as-classes"),
		c("queens 24 counted", 2, "up to N=23", "build", "queens:24", "--count-only"),
		c("magic 4 counted", 2, "drop --count-only", "build", "magic:4", "--count-only"),
		c("magic 5 in shards", 2, "built whole", "build", "magic:5", "--shard", "1/2"),
		c("shard zero", 2, "1 <= I <= K", "build", "queens:18", "--count-only", "--shard", "0/4"),
		c("shard past the end", 2, "1 <= I <= K", "build", "queens:18", "--count-only", "--shard", "5/4"),
		c("shard not a fraction", 2, "for example 2/4", "build", "queens:18", "--count-only", "--shard", "half"),
		c("shard empty", 2, "--shard is given an empty value", "build", "queens:18", "--count-only", "--shard", ""),
		c("shard of a small magic build", 2, "build it whole", "build", "magic:4", "--shard", "1/2"),
		c("more shards than columns", 2, "at most 5 shards", "build", "queens:5", "--shard", "1/6"),
		c("negative workers", 2, "--workers -1 is out of range", "build", "queens:4", "--workers=-1"),
		c("negative workers, two words", 2, "--workers -3 is out of range", "build", "queens:4", "--workers", "-3"),
		c("negative limit given twice", 2, "--limit -1 is negative", "list", "queens:6", "--limit", "5", "--limit", "-1"),
		c("negative class ID", 2, "-13 is negative; IDs start at 1", "show", "queens:8", "-13"),
		// Numbers are decimal, as in --cell and puzzle names: never hex or octal.
		c("hex limit", 2, `--limit: "0x10" is not a whole number in decimal digits`, "list", "queens:6", "--limit", "0x10"),
		c("underscored offset", 2, `"1_0" is not a whole number`, "list", "queens:6", "--offset", "1_0"),
		c("huge limit", 2, "99999999999999999999 is too large; give at most 9223372036854775807", "list", "queens:6", "--limit", "99999999999999999999"),
		c("a million workers", 2, "--workers 1000000 is out of range", "build", "queens:6", "--workers", "1000000", "--force"),
		c("workers not a number", 2, "--workers", "build", "queens:4", "--workers", "x"),
		c("build into another program's database", 1, "another program (tables notes)", "--db", "{d}/foreign.db", "build", "queens:4"),
		c("build into another puzzles table", 1, "another program (tables puzzles)", "--db", "{d}/foreignpuzzles.db", "build", "queens:4"),
		c("build into a text file", 1, "not an SQLite database", "--db", "{d}/notes.txt", "build", "queens:4"),
		c("build into a folder", 1, "it is a folder", "--db", "{d}/sub", "build", "queens:4"),
		c("build in a missing folder", 1, "folder does not exist", "--db", "{d}/no/such/cat.db", "build", "queens:4"),
		c("build into a damaged catalog", 1, "the catalog file is damaged", "--db", "{d}/truncated.db", "build", "queens:4"),
		c("build with an empty catalog name", 2, "--db is given an empty value", "--db", "", "build", "queens:4"),
		// Bench.
		c("bench too big", 2, "up to size 17", "bench", "queens:30"),
		c("bench unknown method", 2, "no method", "bench", "queens:8", "--methods", "dancing"),
		c("bench no runs", 2, "--runs 0 is out of range", "bench", "queens:8", "--runs", "0"),
		c("bench endless runs", 2, "--runs 100000 is out of range", "bench", "queens:8", "--runs", "100000"),
		c("bench empty methods", 2, "--methods is given an empty value", "bench", "queens:8", "--methods", ""),
		// SQL.
		c("sql delete", 2, "DELETE would change the catalog", "sql", "DELETE FROM puzzles"),
		c("sql update", 2, "UPDATE would change the catalog", "sql", "UPDATE puzzles SET solutions = 0"),
		c("sql drop", 2, "DROP would change the catalog", "sql", "DROP TABLE puzzles"),
		c("sql insert", 2, "INSERT would change the catalog", "sql", "insert into puzzles default values"),
		c("sql two statements", 2, "one statement", "sql", "SELECT 1; DROP TABLE puzzles"),
		c("sql attach", 2, "ATTACH would change the catalog", "sql", "ATTACH 'other.db' AS other"),
		c("sql vacuum", 2, "VACUUM would change the catalog", "sql", "VACUUM"),
		c("sql vacuum into", 2, "VACUUM would change the catalog", "sql", "VACUUM INTO '{d}/copy.db'"),
		c("sql reindex", 2, "REINDEX would change the catalog", "sql", "REINDEX"),
		c("sql pragma assignment", 2, "a PRAGMA assignment would change the catalog", "sql", "PRAGMA journal_mode = DELETE"),
		c("sql cte delete", 2, "would change the catalog", "sql", "WITH x AS (SELECT 1) DELETE FROM puzzles"),
		c("sql pragma call write", 2, "would change the catalog", "sql", "PRAGMA user_version(7)"),
		c("sql optimize", 2, "PRAGMA optimize would change the catalog", "sql", "PRAGMA optimize"),
		c("sql checkpoint", 2, "PRAGMA wal_checkpoint would change the catalog", "sql", "PRAGMA wal_checkpoint"),
		c("sql incremental vacuum", 2, "PRAGMA incremental_vacuum would change the catalog", "sql", "PRAGMA incremental_vacuum"),
		c("sql optimize in a schema", 2, "PRAGMA optimize would change the catalog", "sql", "PRAGMA main.optimize"),
		c("sql misspelt", 2, "is not valid SQL", "sql", "SELEC 1"),
		c("sql syntax", 2, "not valid SQL", "sql", "SELECT FROM WHERE"),
		c("sql missing table", 2, "list the tables with", "sql", "SELECT * FROM nowhere"),
		c("sql missing column", 2, "no such column", "sql", "SELECT nosuch FROM puzzles"),
		c("sql empty", 2, "needs a query", "sql", "  "),
		c("sql comment only", 2, "needs a query", "sql", "/* nothing */"),
		c("sql commented delete", 2, "DELETE would change the catalog", "sql", "/* hi */ DELETE FROM puzzles"),
		// Export destinations.
		c("export onto the catalog", 2, "is the catalog or one of its files", "export", "queens:8", "--output", "{d}/cat.db"),
		c("export onto the catalog, relative", 2, "is the catalog or one of its files", "export", "queens:8", "-o", "{d}/./cat.db"),
		c("export onto a link to the catalog", 2, "is the catalog or one of its files", "export", "queens:8", "-o", "{d}/link.db"),
		c("export onto a hard link to the catalog", 2, "is the catalog or one of its files", "export", "queens:8", "-o", "{d}/hard.db"),
		c("export onto the log", 2, "is the catalog or one of its files", "export", "queens:8", "-o", "{d}/cat.db-wal"),
		c("export onto the log index", 2, "is the catalog or one of its files", "export", "queens:8", "-o", "{d}/cat.db-shm"),
		c("export onto the lock", 2, "is the catalog or one of its files", "export", "queens:8", "-o", "{d}/cat.db.lock"),
		c("export onto a folder", 2, "is a folder", "export", "queens:8", "-o", "{d}/sub"),
		c("export into a missing folder", 2, "its folder does not exist", "export", "queens:8", "-o", "{d}/nodir/x.csv"),
		c("export through a missing folder", 2, "its folder does not exist", "export", "queens:8", "-o", "{d}/sub/nodir/../x.csv"),
		c("export format against the name", 2, "contradicts the file name", "export", "queens:8", "-o", "{d}/x.parquet", "--format", "csv"),
		c("export as text", 2, "--format text does not apply", "export", "queens:8", "--format", "text"),
		c("export json against the name", 2, "contradicts the file name", "export", "queens:8", "-o", "{d}/x.json", "--format", "JSONL"),
		c("export empty output", 2, "--output is given an empty value", "export", "queens:8", "--output", ""),
		c("partition empty", 2, "--partition-by is given an empty value", "export", "queens:8", "--partition-by", "", "-o", "{d}/p"),
		c("partition to standard output", 2, "name it with --output DIR", "export", "queens:8", "--partition-by", "orbit"),
		c("partition as csv", 2, "use --format parquet", "export", "queens:8", "--partition-by", "orbit", "--format", "csv", "-o", "{d}/p"),
		c("partition into an existing folder", 2, "already exists", "export", "queens:8", "--partition-by", "orbit", "-o", "{d}/sub"),
		c("partition onto the catalog", 2, "is the catalog or one of its files", "export", "queens:8", "--partition-by", "orbit", "-o", "{d}/cat.db"),
		c("partition by a magic cell on queens", 2, "row:R (queens)", "export", "queens:8", "--partition-by", "cell:1,1", "-o", "{d}/p"),
		c("partition of classes by symmetry", 2, "a class has no symmetry", "export", "queens:8", "--classes", "--partition-by", "symmetry", "-o", "{d}/p"),
		c("range partitioned by orbit", 2, "partitioned by puzzle only", "export", "queens:4-6", "--partition-by", "orbit", "-o", "{d}/p"),
		c("range in the list layout", 2, "--parquet-cells list writes one puzzle a file", "export", "queens:4-6", "--parquet-cells", "list", "-o", "{d}/x.parquet"),
		c("show onto the catalog", 2, "is the catalog or one of its files", "show", "queens:8", "1", "-o", "{d}/cat.db"),
		c("show as Parquet", 2, "show does not write Parquet", "show", "queens:8", "1", "-o", "{d}/x.parquet"),
		c("show format against the name", 2, "contradicts the file name", "show", "queens:8", "1", "-o", "{d}/x.svg", "--format", "json"),
		c("show into a missing folder", 2, "its folder does not exist", "show", "queens:8", "1", "-o", "{d}/nodir/x.svg"),
		// Merges.
		c("merge onto a shard", 2, "is the shard", "merge", "{d}/s1.db", "{d}/s1.db", "{d}/s2.db"),
		c("merge onto a link to a shard", 2, "is the shard", "merge", "{d}/linkshard.db", "{d}/s1.db", "{d}/s2.db"),
		c("merge onto a shard's log", 2, "is the shard", "merge", "{d}/s2.db-wal", "{d}/s1.db", "{d}/s2.db"),
		c("merge a catalog that is no shard", 2, "holds no shard", "merge", "{d}/out.db", "{d}/cat.db"),
		c("merge into a device", 1, "/dev/null is not a solcat catalog: it is a device or a pipe, not a file; give a catalog made by 'solcat build', or a new file", "merge", "/dev/null", "{d}/s1.db", "{d}/s2.db"),
		c("query a device", 1, "it is a device or a pipe, not a file; point --db at a catalog", "--db", "/dev/null", "count", "queens:8"),
		c("merge into a missing folder", 1, "/no); create it or choose another file", "merge", "{d}/no/out.db", "{d}/s1.db", "{d}/s2.db"),
		c("merge into an empty path", 2, "the output path is empty; name the catalog file", "merge", "", "{d}/s1.db", "{d}/s2.db"),
		c("merge to standard output", 2, "merge writes a catalog file, not standard output", "merge", "-", "{d}/s1.db", "{d}/s2.db"),
		c("merge a missing shard file", 2, "/nope.db does not exist; give the files made by", "merge", "{d}/out.db", "{d}/s1.db", "{d}/nope.db"),
		c("merge into a catalog holding the puzzle", 2, "cat.db already holds queens:8 (stored as solutions); merge into a new file, or give --force to replace it", "merge", "{d}/cat.db", "{d}/s1.db", "{d}/s2.db"),
		c("a count shard into a catalog of the whole puzzle", 2, "the catalog is no place for this shard: it holds all of queens:8 (stored as solutions); build shard 1/2 into a file of its own", "build", "queens:8", "--count-only", "--shard", "1/2", "--force"),
		c("a stored shard into a catalog of the whole puzzle", 2, "it holds all of queens:8 (stored as solutions)", "build", "queens:8", "--shard", "1/2"),
		c("a stored shard into a count shard's catalog", 2, "it holds count shard 1/2 of queens:8 (it is finished); give --force to build shard 2/2 in its place", "--db", "{d}/s1.db", "build", "queens:8", "--shard", "2/2"),
		c("another shard of a split", 2, "the catalog is no place for this shard: it holds count shard 1/2 of queens:8 (it is finished); give --force to build shard 1/3 in its place, or use a file of its own", "--db", "{d}/s1.db", "build", "queens:8", "--count-only", "--shard", "1/3"),
		c("merge a text file", 1, "not an SQLite database", "merge", "{d}/out.db", "{d}/notes.txt"),
		c("merge half a split", 2, "shard(s) 2 of 2 missing", "merge", "{d}/out.db", "{d}/s1.db"),
		c("merge a shard twice", 2, "each shard is given once", "merge", "{d}/out.db", "{d}/s1.db", "{d}/s1.db", "{d}/s2.db"),
		c("merge into another program's database", 1, "another program", "merge", "{d}/foreign.db", "{d}/s1.db", "{d}/s2.db"),
		c("merge into a folder", 1, "it is a folder", "merge", "{d}/sub", "{d}/s1.db", "{d}/s2.db"),
		// Catalog files.
		c("query a text file", 1, "not an SQLite database", "--db", "{d}/notes.txt", "count", "queens:8"),
		c("query another program's database", 1, "another program (tables notes)", "--db", "{d}/foreign.db", "count", "queens:8"),
		c("query another puzzles table", 1, "another program (tables puzzles)", "--db", "{d}/foreignpuzzles.db", "count", "queens:8"),
		c("query a folder", 1, "it is a folder", "--db", "{d}/sub", "count", "queens:8"),
		c("query a missing catalog", 1, "run 'solcat build' to create it", "--db", "{d}/missing.db", "count", "queens:8"),
		c("query an empty file", 1, "no puzzles table", "--db", "{d}/empty.db", "count", "queens:8"),
		c("query a truncated catalog", 1, "the catalog file is damaged", "--db", "{d}/truncated.db", "count", "queens:8"),
		c("query with an empty catalog name", 2, "--db is given an empty value", "--db=", "count", "queens:8"),
		c("info on a text file", 1, "not an SQLite database", "--db", "{d}/notes.txt", "info"),
		c("verify another program's database", 1, "another program", "--db", "{d}/foreign.db", "verify"),
		c("sql on another program's database", 1, "another program", "--db", "{d}/foreign.db", "sql", "SELECT * FROM notes"),
		// Puzzles that are not there, or cannot be.
		c("not built", 1, "add it with 'solcat build queens:15'", "count", "queens:15"),
		c("not built, counted only", 1, "add it with 'solcat build queens:20 --count-only'", "count", "queens:20"),
		c("not built, stored as classes", 1, "add its classes with 'solcat build queens:19', or its counts alone with 'solcat build queens:19 --count-only'", "count", "queens:19"),
		c("magic 6 cannot be built", 2, "cannot be built: solcat stores magic squares up to order 5", "count", "magic:6"),
		c("queens 32 too large to count", 2, "too large to count whole", "count", "queens:32"),
		c("queens 32 cannot be listed", 2, "cannot be built", "list", "queens:32"),
		c("verify a puzzle not built", 1, "not in the catalog", "verify", "queens:12"),
		c("show a puzzle not built", 1, "not in the catalog", "show", "queens:12", "1"),
		c("verify a bad name", 2, "unknown puzzle kind", "verify", "chess:1"),
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := caseFolder(t)
			var args []string
			if len(tc.args) == 0 || !strings.HasPrefix(tc.args[0], "--db") {
				args = append(args, "--db", "{d}/cat.db")
			}
			args = append(args, tc.args...)
			for i, a := range args {
				args[i] = strings.ReplaceAll(a, "{d}", dir)
			}
			before := folderState(t, dir)
			var out, errOut strings.Builder
			code := runSomewhere(args, &out, &errOut)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			line := errOut.String()
			if !strings.Contains(line, tc.want) {
				t.Errorf("stderr %q does not say %q", line, tc.want)
			}
			if strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, "solcat: ") || strings.Contains(line, "goroutine") || strings.Contains(line, "panic") {
				t.Errorf("stderr is not one 'solcat: ...' line: %q", line)
			}
			if strings.Contains(line, ".tmp") {
				t.Errorf("stderr names a temporary file: %q", line)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q, want nothing", out.String())
			}
			checkFiles(t, before, folderState(t, dir), nil)
		})
	}
}
