package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// varying are the fields whose values change from run to run (times, the
// machine, the build): golden files hold "*" for them.
var varying = []string{"build_seconds", "built_at", "workers", "search_nodes", "seconds", "ratio", "cores", "revision", "time", "modified", "go", "version", "started_at", "updated_at"}

var (
	jsonVarying = regexp.MustCompile(`"(` + strings.Join(varying, "|") + `)": ?("[^"]*"|[-0-9.e+]+|true|false)`)
	textTime    = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)? ?(ms|s)\b|\b[0-9]+\.[0-9]x\b|\b[0-9]+ cores\b|\b(go1[.0-9]+|revision [0-9a-f]+[^,]*|\(devel\)|\([^)]*revision\))`)
	spaces      = regexp.MustCompile(` {2,}`)
)

// normalize replaces what varies in an output with "*": JSON fields by
// name, CSV columns by their header, times in text (whose tables are then
// compared with runs of spaces as one).
func normalize(t *testing.T, format, out string) string {
	switch format {
	case "json", "jsonl":
		return jsonVarying.ReplaceAllString(out, `"$1": "*"`)
	case "csv":
		records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(records) == 0 {
			return out
		}
		for i, name := range records[0] {
			for _, v := range varying {
				if name == v {
					for _, r := range records[1:] {
						r[i] = "*"
					}
				}
			}
		}
		var b strings.Builder
		w := csv.NewWriter(&b)
		w.WriteAll(records)
		return b.String()
	}
	return spaces.ReplaceAllString(textTime.ReplaceAllString(out, "*"), "  ")
}

// TestGoldenFormats runs every command in every format it accepts and
// compares the output with its golden file under testdata/golden/formats.
func TestGoldenFormats(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	dir := t.TempDir()
	for i := 1; i <= 2; i++ {
		if code, _, errOut := solcatDB(filepath.Join(dir, fmt.Sprintf("s%d.db", i)), "build", "queens:8", "--count-only", "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatal(errOut)
		}
	}
	// verify runs on a catalog of the two puzzles it checks: SQLite's
	// integrity check of the whole shared catalog takes a quarter of a
	// second, the same "ok" either way.
	small := filepath.Join(dir, "small.db")
	if code, _, errOut := solcatDB(small, "build", "queens:6", "magic:3"); code != 0 {
		t.Fatal(errOut)
	}
	dbOf := map[string]string{"verify": small} // the others read the shared catalog
	records := []string{"text", "json", "jsonl", "csv"}
	exports := []string{"csv", "json", "jsonl", "parquet"}
	cases := []struct {
		name    string
		args    []string
		formats []string
	}{
		{"build", []string{"build", "queens:6", "magic:3"}, records},
		{"count", []string{"count", "magic:4", "--cell", "1,1=1"}, records},
		{"list", []string{"list", "queens:6"}, records},
		{"list-magic", []string{"list", "magic:3", "--limit", "2"}, records},
		{"classes", []string{"classes", "magic:4", "--prop", "pandiagonal", "--limit", "3"}, records},
		{"show", []string{"show", "queens:6", "1"}, records},
		{"show-solution", []string{"show", "magic:3", "--solution", "8"}, records},
		{"export", []string{"export", "queens:6"}, exports},
		{"export-classes", []string{"export", "magic:3", "--classes"}, exports},
		{"export-range", []string{"export", "queens:4-6"}, exports},
		{"export-magic4-filtered", []string{"export", "magic:4", "--cell", "1,1=16", "--prop", "pandiagonal"}, []string{"csv", "parquet"}},
		{"info", []string{"info"}, records},
		{"sql", []string{"sql", "SELECT name, solutions, classes, 0.5 AS half, NULL AS empty, x'0102' AS blob FROM puzzles WHERE name IN ('queens:6', 'magic:3')"}, records},
		{"stats", []string{"stats", "queens:8", "--by", "row:1"}, records},
		{"stats-group", []string{"stats", "magic:4", "--by", "group"}, records},
		{"verify", []string{"verify", "queens:6", "magic:3"}, records},
		{"check", []string{"check", "testdata/check/usaco-lines.txt"}, records},
		{"check-magic", []string{"check", "testdata/check/magic4-rows.txt"}, records},
		{"bench", []string{"bench", "queens:6", "--runs", "1", "--methods", "bitmask,join"}, records},
		{"merge", []string{"merge", filepath.Join(dir, "merged-FORMAT.db"), filepath.Join(dir, "s1.db"), filepath.Join(dir, "s2.db")}, records},
		{"version", []string{"version"}, records},
		// Empty answers: the header alone in CSV and text tables, [] in JSON,
		// nothing in JSON lines, the schema in Parquet.
		{"list-empty", []string{"list", "queens:2"}, records},
		{"list-magic-empty", []string{"list", "magic:2"}, records},
		{"classes-empty", []string{"classes", "queens:3"}, records},
		{"export-empty", []string{"export", "queens:2"}, exports},
		{"export-classes-empty", []string{"export", "magic:2", "--classes"}, exports},
		{"export-range-empty", []string{"export", "queens:2-3"}, exports},
		{"stats-empty", []string{"stats", "queens:8", "--by", "row:1", "--cell", "1,1=1", "--cell", "2,2=1"}, records},
		{"sql-empty", []string{"sql", "SELECT name, solutions FROM puzzles WHERE 0"}, records},
	}
	for _, tc := range cases {
		for _, format := range tc.formats {
			name := tc.name + "-" + format
			t.Run(name, func(t *testing.T) {
				args := append([]string{}, tc.args...)
				for i := range args {
					args[i] = strings.ReplaceAll(args[i], "FORMAT", format)
				}
				args = append(args, "--format", strings.ToUpper(format)) // any case
				db := catalogPath
				if dbOf[tc.name] != "" {
					db = dbOf[tc.name]
				}
				code, out, errOut := solcatDB(db, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				if format == "parquet" {
					out = fmt.Sprintf("%d bytes, sha256 %x\n", len(out), sha256.Sum256([]byte(out)))
				} else {
					out = normalize(t, format, strings.ReplaceAll(strings.ReplaceAll(out, db, "CATALOG"), dir, "DIR"))
				}
				path := filepath.Join("testdata", "golden", "formats", name+".txt")
				if *update {
					os.MkdirAll(filepath.Dir(path), 0o755)
					if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if out != string(want) {
					t.Errorf("solcat %s: output differs from %s:\n%s", strings.Join(args, " "), path, out)
				}
			})
		}
	}
}

// TestHelpListsFormats checks that each command's help names exactly the
// formats it accepts.
func TestHelpListsFormats(t *testing.T) {
	for _, cmd := range []string{"build", "count", "list", "classes", "info", "sql", "stats", "verify", "check", "bench", "merge", "version"} {
		code, out, _ := solcat(cmd, "--help")
		if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "--format=FORMAT Output format: text (the default), json, jsonl or csv") {
			t.Errorf("solcat %s --help does not list text, json, jsonl and csv:\n%s", cmd, out)
		}
	}
	if _, out, _ := solcat("show", "--help"); !strings.Contains(strings.Join(strings.Fields(out), " "), "--format=FORMAT Output format: text (the default), json, jsonl, csv or svg") {
		t.Errorf("solcat show --help does not list text, json, jsonl, csv and svg:\n%s", out)
	}
	if _, out, _ := solcat("export", "--help"); !strings.Contains(strings.Join(strings.Fields(out), " "), "--format=FORMAT Output format: csv (the default), json, jsonl or parquet") {
		t.Errorf("solcat export --help does not list csv, json, jsonl and parquet:\n%s", out)
	}
}

// TestVersionAndHelp checks --version, -v, the version command, help CMD
// and where a usage error sends the user.
func TestVersionAndHelp(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		code, out, errOut := solcat(args...)
		if code != 0 || !strings.HasPrefix(out, "solcat ") || !strings.Contains(out, "catalog schema ") || errOut != "" {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	_, helpCount, _ := solcat("count", "--help")
	if code, out, _ := solcat("help", "count"); code != 0 || out != helpCount {
		t.Errorf("help count: exit %d, not the help of count:\n%s", code, out)
	}
	if code, out, _ := solcat("help"); code != 0 || !strings.Contains(out, "Commands:") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	// solcat alone prints its usage, as git does, with the exit status of an
	// incomplete command line.
	for _, args := range [][]string{nil, {"--db", catalogPath}} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, noStdin(), &out, &errOut)
		if code != 2 || !strings.HasPrefix(out.String(), "Usage: solcat <command> [flags]") || !strings.Contains(out.String(), "Commands:") || errOut.Len() != 0 {
			t.Errorf("solcat %v: exit %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	}
	for args, want := range map[string]string{
		"count queens:8 --frob": "see 'solcat count --help'",
		"export":                "see 'solcat export --help'",
		"frobnicate":            "see 'solcat --help'",
	} {
		code, _, errOut := solcat(strings.Fields(args)...)
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, %q; want %q", args, code, errOut, want)
		}
	}
}

// TestCompletion runs the completion of a real solcat binary as a shell
// does (the command line in COMP_LINE), and checks the scripts that turn
// it on.
func TestCompletion(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	bin := binary(t)
	complete := func(line string) []string {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "COMP_LINE="+line, fmt.Sprintf("COMP_POINT=%d", len(line)), "SOLCAT_DB="+catalogPath)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		return strings.Fields(string(out))
	}
	for line, want := range map[string][]string{
		"solcat cou":                         {"count"},
		"solcat count que":                   {"queens:1", "queens:8", "queens:14"},
		"solcat count queens:8 --pro":        {"--prop"},
		"solcat count queens:8 --prop rot":   {"rot90-symmetric", "rot180-only"},
		"solcat count queens:8 --format js":  {"json", "jsonl"},
		"solcat export queens:8 --format pa": {"parquet"},
		"solcat stats magic:4 --by gr":       {"group"},
		"solcat build queens:2":              {"queens:20", "queens:21", "queens:22", "queens:23"},
	} {
		got := complete(line)
		for _, w := range want {
			if !strings.Contains(" "+strings.Join(got, " ")+" ", " "+w+" ") {
				t.Errorf("%q completes to %v, not %q", line, got, w)
			}
		}
	}
	for shell, want := range map[string]string{
		"bash": "complete -o default -o bashdefault -F _solcat_complete solcat",
		"zsh":  "complete -o default -o bashdefault -C " + bin + " solcat",
		"fish": "complete -f -c solcat",
	} {
		out, err := exec.Command(bin, "completion", shell, "--code").Output()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("completion %s --code: %v, %q; want %q", shell, err, out, want)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string // the start of stdout
		err  string // stderr
	}{
		{[]string{"completion", "bash"}, 0, "To turn on tab completion for solcat in this bash, run\n\n    source <(solcat completion bash --code)\n", ""},
		{[]string{"completion", "fish"}, 0, "To turn on tab completion for solcat in this fish, run\n\n    solcat completion fish --code | source\n", ""},
		{[]string{"completion", "powershell"}, 2, "", "solcat: completion: \"powershell\" is not a shell solcat completes in; use bash, zsh or fish\n"},
		{[]string{"completion", "powershell", "--code"}, 2, "", "solcat: completion: \"powershell\" is not a shell solcat completes in; use bash, zsh or fish\n"},
		{[]string{"help", "completion"}, 0, "Usage: solcat completion", ""},
	} {
		code, out, errOut := solcat(tc.args...)
		if code != tc.code || !strings.HasPrefix(out, tc.out) || errOut != tc.err || strings.Contains(out, "in order activate") || strings.Contains(out, "Execute the following") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
	// Bash takes the script as it is.
	if bash, err := exec.LookPath("bash"); err == nil {
		out, err := exec.Command(bash, "-c", "source <("+bin+" completion bash --code) && complete -p solcat").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "-F _solcat_complete solcat") {
			t.Errorf("bash: %v, %q", err, out)
		}
	} else {
		t.Log("bash not found: the script is not sourced")
	}
}

// TestReadmeSQL runs the SQL examples of the README and docs/schema.md
// (their sql blocks), unchanged, in the sqlite3 command-line shell and
// with solcat sql, and compares what they print.
func TestReadmeSQL(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	var stmts []string
	for _, doc := range []string{"README.md", "docs/schema.md"} {
		text, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(string(text), "```sql\n")[1:] {
			block = block[:strings.Index(block, "```")]
			for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
				stmts = append(stmts, strings.TrimSuffix(line, ";"))
			}
		}
	}
	if len(stmts) < 5 {
		t.Fatalf("the docs have %d SQL examples", len(stmts))
	}
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed (Debian's sqlite3 package): the README's SQL is not run in it")
	}
	for _, stmt := range stmts {
		out, err := exec.Command(sqlite3, "-csv", "-header", catalogPath, stmt+";").CombinedOutput()
		if err != nil {
			t.Errorf("sqlite3: %s: %v\n%s", stmt, err, out)
			continue
		}
		code, mine, errOut := solcat("sql", stmt, "--format", "csv")
		if code != 0 {
			t.Errorf("solcat sql: %s: %s", stmt, errOut)
			continue
		}
		theirs, err1 := csv.NewReader(strings.NewReader(string(out))).ReadAll()
		ours, err2 := csv.NewReader(strings.NewReader(mine)).ReadAll()
		if err1 != nil || err2 != nil || fmt.Sprint(theirs) != fmt.Sprint(ours) || len(ours) < 2 {
			t.Errorf("%s:\nsqlite3 prints\n%ssolcat sql prints\n%s", stmt, out, mine)
		}
	}
}

// TestSQLExamplesReadable runs every 'solcat sql "..."' example of the
// docs and the help, in solcat and in the sqlite3 shell: each answers, and
// prints no control byte (a blob of cells would, in sqlite3).
func TestSQLExamplesReadable(t *testing.T) {
	example := regexp.MustCompile(`solcat sql "([^"]+)"`)
	var stmts []string
	for _, doc := range []string{"../../README.md", "../../docs/commands.md", "help/sql.txt"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range example.FindAllStringSubmatch(string(text), -1) {
			stmts = append(stmts, m[1])
		}
	}
	if len(stmts) < 8 {
		t.Fatalf("%d examples found", len(stmts))
	}
	sqlite3, _ := exec.LookPath("sqlite3")
	control := regexp.MustCompile(`[\x00-\x08\x0b-\x1f\x7f]`)
	for _, stmt := range stmts {
		t.Run(stmt, func(t *testing.T) {
			code, out, errOut := solcat("sql", stmt)
			if code != 0 || out == "" || control.MatchString(out) {
				t.Errorf("solcat sql: exit %d, %q %s", code, out, errOut)
			}
			if sqlite3 == "" {
				return
			}
			shell, err := exec.Command(sqlite3, "-readonly", catalogPath, stmt).CombinedOutput()
			if err != nil || control.Match(shell) {
				t.Errorf("sqlite3: %v, %q", err, shell)
			}
		})
	}
}

// TestExplainFormats checks --explain in every record format: text lines,
// one JSON object, one JSON line, a CSV header and row.
func TestExplainFormats(t *testing.T) {
	args := []string{"count", "queens:8", "--cell", "4,4=1", "--cell", "6,1=1", "--explain"}
	for format, check := range map[string]func(string) bool{
		"text": func(out string) bool { return strings.HasPrefix(out, "queens:8: solution block scan\n  storage: ") },
		"json": func(out string) bool {
			return json.Valid([]byte(out)) && strings.Contains(out, "\n  \"way\": \"solution block scan\"")
		},
		"jsonl": func(out string) bool { return json.Valid([]byte(out)) && strings.Count(out, "\n") == 1 },
		"csv": func(out string) bool {
			return strings.HasPrefix(out, "puzzle,storage,way,workers,detail\nqueens:8,solutions,solution block scan,1,") && strings.Count(out, "\n") == 2
		},
	} {
		if code, out, errOut := solcat(append(args, "--format", format)...); code != 0 || !check(out) {
			t.Errorf("--format %s: exit %d, %q %s", format, code, out, errOut)
		}
	}
}
