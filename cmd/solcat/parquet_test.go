package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"solcat/migrations"
)

// readParquet reads a Parquet file whatever its columns: their names (a
// list column by its top name), and each row's values as text, a list's
// values joined by spaces.
func readParquet(t *testing.T, path string) (names []string, rows [][]string) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	st, _ := file.Stat()
	f, err := parquet.OpenFile(file, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range f.Schema().Columns() {
		names = append(names, path[0])
	}
	for _, rg := range f.RowGroups() {
		rr := rg.Rows()
		buf := make([]parquet.Row, 256)
		for {
			n, err := rr.ReadRows(buf)
			for _, row := range buf[:n] {
				vals := make([]string, len(names))
				for _, v := range row {
					if v.IsNull() {
						continue
					}
					if s := &vals[v.Column()]; *s == "" {
						*s = v.String()
					} else {
						*s += " " + v.String()
					}
				}
				rows = append(rows, vals)
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		rr.Close()
	}
	return names, rows
}

// parquetMeta is a Parquet file's key/value metadata and created_by.
func parquetMeta(t *testing.T, path string) (map[string]string, string) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	st, _ := file.Stat()
	f, err := parquet.OpenFile(file, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	kv := map[string]string{}
	for _, e := range f.Metadata().KeyValueMetadata {
		kv[e.Key] = e.Value
	}
	return kv, f.Metadata().CreatedBy
}

// TestOneVersionEverywhere runs the test binary, stamped with a version
// and a revision as a release is, and checks that --version, the web's footer and both
// Parquet files (the CLI's export and the web's download of the same
// filter) say the same, that the two files are the same bytes, and that
// their catalog schema is the catalog's.
func TestOneVersionEverywhere(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	dir, bin := t.TempDir(), binary(t)
	version, revision := stampedVersion, stampedRevision
	out, err := exec.Command(bin, "--version").Output()
	if want := "solcat " + version + " (revision " + revision[:12]; err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("--version: %q, %v; want it to start %q", out, err, want)
	}
	cli := filepath.Join(dir, "cli.parquet")
	if out, err := exec.Command(bin, "--db", catalogPath, "export", "magic:4", "--cell", "1,1=1", "--prop", "pandiagonal", "--output", cli).CombinedOutput(); err != nil {
		t.Fatalf("export: %v %s", err, out)
	}
	s := serveWith(t, bin)
	for _, c := range []struct{ name, path string }{
		{"footer", "/"},
		{"parquet", "/puzzle/magic:4/export/rows.parquet?c1_1=1&prop=pandiagonal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := http.Get(s.base + c.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if c.name == "footer" {
				if !strings.Contains(string(body), version) {
					t.Errorf("the home page does not name %s", version)
				}
				return
			}
			web := filepath.Join(dir, "web.parquet")
			os.WriteFile(web, body, 0o644)
			if want, _ := os.ReadFile(cli); !bytes.Equal(body, want) {
				t.Errorf("the web's file (%d bytes) differs from the CLI's (%d bytes)", len(body), len(want))
			}
			kv, createdBy := parquetMeta(t, web)
			for key, want := range map[string]string{"solcat.version": version, "solcat.revision": revision,
				"solcat.catalog_schema": strconv.FormatInt(migrations.Latest(), 10), "solcat.filter": "cell 1,1=1; properties pandiagonal", "solcat.puzzle": "magic:4"} {
				if kv[key] != want {
					t.Errorf("%s is %q, want %q", key, kv[key], want)
				}
			}
			if want := "solcat version " + version + " (build " + revision + ")"; createdBy != want {
				t.Errorf("created_by %q, want %q", createdBy, want)
			}
		})
	}
	s.stop(t)
}

// TestExportHelpFromTheWriters: what export --help says of the formats,
// file names and columns is what the writers write: the CSV header and the
// Parquet columns of real exports, every extension FormatOfFile reads.
func TestExportHelpFromTheWriters(t *testing.T) {
	_, help, _ := solcat("export", "--help")
	help = strings.Join(strings.Fields(help), " ")
	dir := t.TempDir()
	csvHeader := func(args ...string) string {
		_, out, _ := solcat(append([]string{"export"}, args...)...)
		return strings.ReplaceAll(strings.SplitN(out, "\n", 2)[0], ",", ", ")
	}
	parquetColumns := func(args ...string) string {
		file := filepath.Join(dir, strings.Join(args, "_")+".parquet")
		if code, _, errOut := solcat(append([]string{"export", "--output", file}, args...)...); code != 0 {
			t.Fatal(errOut)
		}
		names, _ := readParquet(t, file)
		return strings.Join(names, ", ")
	}
	for _, c := range []struct{ name, want string }{
		{"CSV of queens:4", csvHeader("queens:4") + " (queens:4)"},
		{"CSV of magic:3", strings.TrimPrefix(csvHeader("magic:3"), "id, class, orbit, symmetry, props, ") + " (magic:3)"},
		{"CSV of classes", "--classes: " + csvHeader("queens:4", "--classes") + "."},
		{"Parquet of queens:4", parquetColumns("queens:4") + " (queens:4;"},
		{"Parquet of magic:3", strings.TrimPrefix(parquetColumns("magic:3"), "id, class, orbit, symmetry, props, ") + " (magic:3;"},
		{"summary", "as CSV, JSON, JSON lines or Parquet."},
		{"extensions", "(.csv, .json, .jsonl, .ndjson, .parquet)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(help, c.want) {
				t.Errorf("export --help lacks %q:\n%s", c.want, help)
			}
		})
	}
	for _, fe := range []string{"x.csv", "x.json", "x.jsonl", "x.ndjson", "x.parquet"} {
		t.Run(fe, func(t *testing.T) {
			if code, _, errOut := solcat("export", "queens:4", "--output", filepath.Join(dir, fe)); code != 0 {
				t.Errorf("export to %s: %s", fe, errOut)
			}
		})
	}
}

// TestExportRange exports queens:4-6 and magic:3-4 as one file and as a
// folder per puzzle: each puzzle's rows are those of its own export, with
// the puzzle first, and a partition is the same bytes as the puzzle's own
// Parquet export.
func TestExportRange(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	dir := t.TempDir()
	for _, c := range []struct {
		rng     string
		puzzles []string
		args    []string
	}{
		{"queens:4-6", []string{"queens:4", "queens:5", "queens:6"}, nil},
		{"magic:3-4", []string{"magic:3", "magic:4"}, []string{"--cell", "1,1=2"}},
		{"queens:4-8", []string{"queens:4", "queens:5", "queens:6", "queens:7", "queens:8"}, []string{"--classes"}},
	} {
		t.Run(c.rng, func(t *testing.T) {
			var wantCSV, wantJSONL []string
			for _, p := range c.puzzles {
				_, out, _ := solcat(append([]string{"export", p, "--format", "jsonl"}, c.args...)...)
				for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
					if line != "" {
						wantJSONL = append(wantJSONL, `{"puzzle":"`+p+`",`+line[1:])
					}
				}
				file := filepath.Join(dir, p+".parquet")
				solcat(append([]string{"export", p, "--output", file}, c.args...)...)
				_, rows := readParquet(t, file)
				for _, r := range rows {
					wantCSV = append(wantCSV, p+","+strings.Join(r, ","))
				}
			}
			code, out, errOut := solcat(append([]string{"export", c.rng, "--format", "jsonl"}, c.args...)...)
			if got := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || strings.Join(got, "\n") != strings.Join(wantJSONL, "\n") {
				t.Errorf("JSON lines of %s: exit %d %s\n%.300s\nwant\n%.300s", c.rng, code, errOut, out, strings.Join(wantJSONL, "\n"))
			}
			file := filepath.Join(dir, c.rng+".parquet")
			if code, _, errOut := solcat(append([]string{"export", c.rng, "--output", file}, c.args...)...); code != 0 {
				t.Fatal(errOut)
			}
			names, rows := readParquet(t, file)
			if names[0] != "puzzle" {
				t.Errorf("first column %s", names[0])
			}
			var got []string
			for _, r := range rows {
				var vals []string
				for _, v := range r {
					if v != "" {
						vals = append(vals, v)
					}
				}
				got = append(got, strings.Join(vals, ","))
			}
			if strings.Join(got, "\n") != strings.Join(wantCSV, "\n") {
				t.Errorf("Parquet of %s:\n%.300s\nwant\n%.300s", c.rng, strings.Join(got, "\n"), strings.Join(wantCSV, "\n"))
			}
			if kv, _ := parquetMeta(t, file); kv["solcat.puzzle"] != c.rng {
				t.Errorf("solcat.puzzle %q", kv["solcat.puzzle"])
			}
			folder := filepath.Join(dir, c.rng)
			if code, _, errOut := solcat(append([]string{"export", c.rng, "--partition-by", "puzzle", "--output", folder}, c.args...)...); code != 0 {
				t.Fatal(errOut)
			}
			for _, p := range c.puzzles {
				part, _ := os.ReadFile(filepath.Join(folder, "puzzle="+p, "part-0.parquet"))
				if own, _ := os.ReadFile(filepath.Join(dir, p+".parquet")); len(part) == 0 || !bytes.Equal(part, own) {
					t.Errorf("the partition of %s is not its own export's bytes", p)
				}
			}
		})
	}
}

// TestExportPartitionedClasses partitions the classes of queens:8 by the
// queen of row 1 and by orbit: together the partitions are the classes
// export, each class in the folder of its value.
func TestExportPartitionedClasses(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "classes.parquet")
	solcat("export", "queens:8", "--classes", "--output", whole)
	_, want := readParquet(t, whole)
	for _, c := range []struct{ by, key string }{{"row:1", "row1"}, {"orbit", "orbit"}} {
		t.Run(c.by, func(t *testing.T) {
			folder := filepath.Join(dir, c.key)
			if code, _, errOut := solcat("export", "queens:8", "--classes", "--partition-by", c.by, "--output", folder); code != 0 {
				t.Fatal(errOut)
			}
			parts, _ := os.ReadDir(folder)
			n := 0
			for _, part := range parts {
				names, rows := readParquet(t, filepath.Join(folder, part.Name(), "part-0.parquet"))
				col := slices.Index(names, c.key)
				for _, r := range rows {
					n++
					if part.Name() != c.key+"="+r[col] {
						t.Errorf("class %s with %s %s is in %s", r[0], c.key, r[col], part.Name())
					}
				}
			}
			if n != len(want) {
				t.Errorf("%d classes in the partitions, %d in the export", n, len(want))
			}
		})
	}
	if code, _, errOut := solcat("export", "queens:8", "--classes", "--partition-by", "symmetry", "--output", filepath.Join(dir, "s")); code != 2 || !strings.Contains(errOut, "a class has no symmetry") {
		t.Errorf("classes by symmetry: exit %d, %q", code, errOut)
	}
}

// TestShowOutput: show --output FILE writes what show prints, in the
// format the name asks for (or --format), whole, and says so on stderr.
func TestShowOutput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ file, format string }{
		{"c.svg", "svg"}, {"c.json", "json"}, {"c.jsonl", "jsonl"}, {"c.csv", "csv"}, {"c.txt", "text"}, {"drawing", "svg"},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			os.WriteFile(path, []byte("an older file"), 0o644) // replaced whole
			args := []string{"show", "queens:8", "--solution", "12", "--output", path}
			if c.file == "drawing" {
				args = append(args, "--format", c.format)
			}
			code, out, errOut := solcat(args...)
			if code != 0 || out != "" || errOut != "wrote queens:8 solution 12 to "+path+"\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			_, want, _ := solcat("show", "queens:8", "--solution", "12", "--format", c.format)
			if got, _ := os.ReadFile(path); string(got) != want {
				t.Errorf("the file holds\n%.200s\nshow prints\n%.200s", got, want)
			}
		})
	}
}

// TestOneExplainShape: --explain --format json and the web's page JSON
// give a plan in one shape, the ID ranges as arrays ([] when none), for
// the same question the same values; verify's json and jsonl have the
// same keys.
func TestOneExplainShape(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	s := serve(t)
	for _, c := range []struct {
		name  string
		cli   []string
		query string
	}{
		{"prefix range", []string{"--cell", "1,1=1"}, "q1=1"},
		{"record", nil, ""},
		{"scan", []string{"--cell", "4,4=1"}, "q4=4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, out, _ := solcat(append([]string{"count", "queens:8", "--explain", "--format", "json"}, c.cli...)...)
			var cli map[string]any
			if err := json.Unmarshal([]byte(out), &cli); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			resp, err := http.Get(s.base + "/puzzle/queens:8.json?" + c.query)
			if err != nil {
				t.Fatal(err)
			}
			var page struct{ Plan map[string]any }
			json.NewDecoder(resp.Body).Decode(&page)
			resp.Body.Close()
			for _, key := range []string{"solution_ids", "class_ids", "detail"} {
				if _, ok := cli[key].([]any); !ok {
					t.Errorf("CLI %s is %v, not an array", key, cli[key])
				}
			}
			// Only the CLI reads the blocks' synopses to say how many a scan
			// skips; the web shows the plan without reading them.
			if d, ok := cli["detail"].([]any); ok {
				kept := []any{}
				for _, line := range d {
					if s, _ := line.(string); !strings.HasPrefix(s, "blocks: ") {
						kept = append(kept, line)
					}
				}
				cli["detail"] = kept
			}
			if !reflect.DeepEqual(cli, page.Plan) {
				t.Errorf("CLI plan %v\nweb plan %v", cli, page.Plan)
			}
			if strings.Contains(out, "[\n") {
				t.Errorf("arrays spread over lines:\n%s", out)
			}
		})
	}
	s.stop(t)
	_, doc, _ := solcat("verify", "queens:6", "--format", "json")
	_, lines, _ := solcat("verify", "queens:6", "--format", "jsonl")
	var whole map[string]any
	json.Unmarshal([]byte(doc), &whole)
	var first, puzzle map[string]any
	ls := strings.Split(strings.TrimSpace(lines), "\n")
	json.Unmarshal([]byte(ls[0]), &first)
	json.Unmarshal([]byte(ls[1]), &puzzle)
	keys := func(m map[string]any, drop string) []string {
		var out []string
		for k := range m {
			if k != drop {
				out = append(out, k)
			}
		}
		slices.Sort(out)
		return out
	}
	if a, b := keys(whole, "puzzles"), keys(first, ""); !slices.Equal(a, b) {
		t.Errorf("verify json keys %v, jsonl %v", a, b)
	}
	if ps, _ := whole["puzzles"].([]any); len(ps) != 1 || !slices.Equal(keys(ps[0].(map[string]any), ""), keys(puzzle, "")) {
		t.Errorf("verify json puzzles %v, jsonl line %v", whole["puzzles"], puzzle)
	}
}

// TestEmptyParquetKeepsItsSchema: an export with no rows is a Parquet file
// of no rows with every column, in both layouts, as CSV keeps its header.
func TestEmptyParquetKeepsItsSchema(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "queens:2"}, "id class orbit symmetry props row1 row2"},
		{[]string{"export", "queens:2", "--parquet-cells", "list"}, "id class orbit symmetry props cells"},
		{[]string{"export", "magic:2", "--classes"}, "class orbit matching props r1c1 r1c2 r2c1 r2c2"},
		{[]string{"export", "queens:2-3"}, "puzzle id class orbit symmetry props row1 row2 row3"},
		{[]string{"export", "queens:8", "--cell", "1,1=1", "--cell", "2,2=1"}, "id class orbit symmetry props row1 row2 row3 row4 row5 row6 row7 row8"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			file := filepath.Join(dir, strings.NewReplacer(" ", "_", ":", "", ",", "", "=", "").Replace(strings.Join(tc.args, " "))+".parquet")
			if code, _, errOut := solcat(append(tc.args, "--output", file)...); code != 0 || !strings.Contains(errOut, "wrote 0 rows") {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			names, rows := readParquet(t, file)
			if got := strings.Join(names, " "); got != tc.want || len(rows) != 0 {
				t.Errorf("columns %s and %d rows; want %s and none", got, len(rows), tc.want)
			}
		})
	}
}
