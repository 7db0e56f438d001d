package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/query/check"
)

// TestCheckGolden runs check on every form it reads and every kind of
// wrong answer, and compares its stdout, stderr and exit status with
// testdata/golden/check/NAME.txt (go test ./cmd/solcat -update rewrites
// them). Inputs are given on the standard input, or as files under
// testdata/check.
func TestCheckGolden(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	cases := []struct {
		name  string
		args  []string
		input string // the standard input
		code  int
	}{
		// Every form, right.
		{"usaco-queens6-answer", nil, "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n4\n", 0},
		{"usaco-queens8-answer-json", []string{"--format", "json"}, "1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n1 7 4 6 8 2 5 3\n92\n", 0},
		{"usaco-lines-file", []string{"queens:8", "testdata/check/usaco-lines.txt"}, "", 0},
		{"magic3-rows", nil, "2 7 6\n9 5 1\n4 3 8\n", 0},
		{"magic4-rows-file", []string{"testdata/check/magic4-rows.txt", "--format", "csv"}, "", 0},
		{"magic4-one-line", []string{"magic"}, "16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1\n", 0},
		{"magic4-one-line-jsonl", []string{"magic:4", "-", "--format", "jsonl"}, "16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1\n", 0},
		{"list-queens8-csv", []string{"testdata/check/list-queens8.csv"}, "", 0},
		{"list-magic4-csv", []string{"testdata/check/list-magic4.csv"}, "", 0},
		{"list-magic3-json", []string{"testdata/check/list-magic3.json", "--format", "jsonl"}, "", 0},
		{"export-queens6-jsonl", []string{"testdata/check/export-queens6.jsonl"}, "", 0},
		{"classes-queens8-csv", []string{"testdata/check/classes-queens8.csv"}, "", 0},
		{"show-queens4-json", []string{"testdata/check/show-queens4.json"}, "", 0},
		{"csv-no-header-named", []string{"queens:6"}, "1,1,4,identity,rot180-only,2,4,6,1,3,5\n", 0},
		{"own-jsonl", []string{"testdata/check/check-own.jsonl"}, "", 1},
		{"own-csv", []string{"testdata/check/check-own.csv", "--format", "csv", "--no-headers"}, "", 1},
		{"queens16-unstored-total", []string{"testdata/check/queens16-unstored.txt"}, "", 0},
		{"queens31-unstored-unknown-total", []string{"testdata/check/queens31-unstored.txt", "--format", "json"}, "", 0},
		{"magic5-unstored", []string{"testdata/check/magic5-unstored.txt"}, "", 0},
		{"queens1", nil, "1\n", 0},
		// Every kind of wrong answer.
		{"queens-column", nil, "1 5 8 6 3 7 2 4\n1 5 8 6 3 7 2 5\n", 1},
		{"queens-diagonals", []string{"--format", "json"}, "1 2 3 4 5 6 7 8\n8 7 6 5 4 3 2 1\n", 1},
		{"queens-off-board", nil, "0 5 8 6 3 7 2 9\n", 1},
		{"queens-count", []string{"queens:8"}, "1 5 8 6 3 7 2\n1 5 8 6 3 7 2 4 1\n", 1},
		{"queens-total", nil, "1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n1 7 4 6 8 2 5 3\n91\n", 1},
		{"usaco-not-first", nil, "1 5 8 6 3 7 2 4\n2 4 6 8 3 1 7 5\n1 7 4 6 8 2 5 3\n92\n", 1},
		{"usaco-too-few", nil, "1 5 8 6 3 7 2 4\n92\n", 1},
		{"usaco-unstored-order", nil, "2 4 6 8 10 12 14 16 1 3 5 7 9 11 13 15\n2 4 6 8 10 12 14 16 1 3 5 7 9 11 13 15\n14772512\n", 1},
		{"magic-repeat", nil, "2 7 6\n9 5 1\n4 3 4\n", 1},
		{"magic-out-of-range", []string{"magic:3", "--format", "csv"}, "2 7 6 9 5 1 4 3 18\n", 1},
		{"magic-sums", nil, "2 7 6\n9 5 1\n4 8 3\n\n1 2 3\n4 5 6\n7 8 9\n", 1},
		{"magic-short-row", []string{"magic:4"}, "16 3 2 13\n5 10 11\n9 6 7 12\n4 15 14 1\n", 1},
		{"magic-missing-row", nil, "16 3 2 13\n5 10 11 8\n9 6 7 12\n", 1},
		{"magic-total", nil, "2 7 6\n9 5 1\n4 3 8\n9\n", 1},
		// Inputs that cannot be read: a line on stderr, nothing on stdout.
		{"unreadable-word", nil, "2 4 6 1 3 x\n", 2},
		{"unreadable-empty", nil, "\n\n", 2},
		{"unreadable-json", nil, "{\"queens\": [2, 4\n", 2},
		{"unreadable-json-keys", nil, "{\"id\": 1}\n", 2},
		{"unreadable-json-mixed", nil, "{\"queens\": [1]}\n{\"grid\": [[1]]}\n", 2},
		{"unreadable-csv-no-header", nil, "1,1,4,identity,rot180-only,2,4,6,1,3,5\n", 2},
		{"unreadable-kind", []string{"queens:3"}, "{\"grid\": [[2, 7, 6], [9, 5, 1], [4, 3, 8]]}\n", 2},
		{"unreadable-too-large", []string{"magic:16"}, "1\n", 2},
		{"unreadable-size", nil, strings.Repeat("1 ", 33) + "\n", 2},
		{"unreadable-no-file", []string{"testdata/check/no-such-file.txt"}, "", 2},
		{"unreadable-puzzle", []string{"queens:x"}, "1\n", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := solcatIn(tc.input, append([]string{"check"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, errOut)
			}
			if code == 2 && out != "" {
				t.Errorf("exit 2 with output on stdout:\n%s", out)
			}
			if strings.Count(errOut, "\n") > 1 {
				t.Errorf("more than one line on stderr:\n%s", errOut)
			}
			got := fmt.Sprintf("%s--- stderr\n%s--- exit %d\n", out, errOut, code)
			got = strings.ReplaceAll(got, catalogPath, "CATALOG")
			matchGolden(t, filepath.Join("check", tc.name+".txt"), append([]string{"check"}, tc.args...), got)
		})
	}
}

// TestImpossibleFilterSaysWhy: a filter no solution can meet still gets
// its answer (0, nothing), and one line on stderr says why.
func TestImpossibleFilterSaysWhy(t *testing.T) {
	cases := []struct {
		args []string
		out  string
		why  string
	}{
		{[]string{"count", "queens:8", "--pattern", "1 2 3 4 5 6 7 8"}, "0\n", "no two queens may share a diagonal, and the queens asked at 1,1 and 2,2 do"},
		{[]string{"count", "queens:8", "--cell", "1,3=1", "--cell", "4,3=1", "--classes"}, "0\n", "no two queens may share a column"},
		{[]string{"list", "queens:6", "--cell", "1,1=1", "--cell", "1,1=0"}, "", "cell 1,1 is asked to hold both 1 and 0"},
		{[]string{"classes", "magic:4", "--cell", "1,1=16", "--cell", "2,2=16"}, "magic:4: class, orbit, matching members, canonical form, properties (every row, column and diagonal sums to 34, the magic constant)\n", "a magic square holds each value once, and 16 is asked at 1,1 and 2,2"},
		{[]string{"count", "magic:3", "--pattern", "1 2 3 / . . . / . . ."}, "0\n", "row 1 as asked sums to 6, and every line of magic:3 sums to 15"},
		{[]string{"count", "queens:8", "--pattern", "1 5 . . . . . ."}, "1\n", ""},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := solcat(tc.args...)
			want := ""
			if tc.why != "" {
				want = "solcat: no solution can match: " + tc.why
			}
			if code != 0 || out != tc.out || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != min(1, len(want)) {
				t.Errorf("exit %d, stdout %q, stderr %q; want stdout %q, stderr %q", code, out, errOut, tc.out, want)
			}
		})
	}
}

// TestInfoOEIS: info names the OEIS entries each puzzle's counts are
// checked against, in JSON per puzzle and in text under the table.
func TestInfoOEIS(t *testing.T) {
	code, out, errOut := solcat("info", "--format", "json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var all []struct {
		Puzzle        string  `json:"puzzle"`
		Kind          string  `json:"kind"`
		Storage       string  `json:"storage"`
		OEISSolutions *string `json:"oeis_solutions"`
		OEISClasses   string  `json:"oeis_classes"`
		Property      string  `json:"property"`
		Solutions     int64   `json:"solutions"`
		Classes       int64   `json:"classes"`
	}
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatal(err)
	}
	recs, board := all[:0:0], map[string][2]int64{}
	for _, r := range all {
		if r.Storage == "property" {
			board[r.Puzzle+" "+r.Property] = [2]int64{r.Solutions, r.Classes}
		} else {
			recs = append(recs, r)
		}
	}
	if len(recs) != 18 || len(board) != 28 {
		t.Fatalf("%d records and %d toroidal and superqueen counts, want 18 and 28", len(recs), len(board))
	}
	// The published toroidal solutions (A051906) and superqueen solutions
	// and classes (A051223, A051224).
	for key, want := range map[string][2]int64{"queens:13 toroidal": {4524, 572}, "queens:12 toroidal": {0, 0},
		"queens:13 superqueen": {1876, 239}, "queens:10 superqueen": {4, 1}, "queens:14 superqueen": {5180, 653}} {
		if got := board[key]; got != want {
			t.Errorf("%s: %d solutions, %d classes; want %d and %d", key, got[0], got[1], want[0], want[1])
		}
	}
	want := map[string][2]string{"magic": {"", "A006052"}, "queens": {"A000170", "A002562"}}
	for _, r := range recs {
		t.Run(r.Puzzle, func(t *testing.T) {
			sols := ""
			if r.OEISSolutions != nil {
				sols = *r.OEISSolutions
			}
			if w := want[r.Kind]; sols != w[0] || r.OEISClasses != w[1] {
				t.Errorf("oeis_solutions %q, oeis_classes %q; want %q, %q", sols, r.OEISClasses, w[0], w[1])
			}
		})
	}
	if _, text, _ := solcat("info"); !strings.Contains(text, "OEIS entries checked: magic classes A006052 (solutions 8 times it from order 2), queens solutions A000170, classes A002562\n") ||
		!strings.Contains(text, "  queens:13  toroidal 4,524 (572 classes)  superqueen 1,876 (239 classes)\n") {
		t.Errorf("info's text does not name the OEIS entries and give the toroidal and superqueen counts:\n%s", text)
	}
}

// TestCheckProcess runs the binary on its real standard input, as a pipe
// from another program gives it: each exit status, and nothing on stdout
// when the input cannot be read.
func TestCheckProcess(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	bin := binary(t)
	cases := []struct {
		args  []string
		input string
		code  int
		out   string
	}{
		{[]string{"check"}, "2 4 6 1 3 5\n", 0, "line 1: 2 4 6 1 3 5: valid, queens:6 solution 1, class 1"},
		{[]string{"check", "queens:6", "-"}, "2 4 6 1 3 5\n1 2 3 4 5 6\n", 1, "line 2: 1 2 3 4 5 6: not a queens:6 solution"},
		{[]string{"check", "--format", "jsonl"}, "2 4 six\n", 2, ""},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"--db", catalogPath}, tc.args...)...)
			cmd.Stdin = strings.NewReader(tc.input)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, _ := cmd.Output()
			code := cmd.ProcessState.ExitCode()
			if code != tc.code || !strings.Contains(string(out), tc.out) || tc.out == "" && len(out) != 0 || strings.Count(stderr.String(), "\n") != min(tc.code, 1) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q", code, out, stderr.String(), tc.code, tc.out)
			}
		})
	}
}

// TestCheckCountsOnly: a puzzle the catalog knows by its counts alone is
// checked by the rules, and its total against the recorded count.
func TestCheckCountsOnly(t *testing.T) {
	db := filepath.Join(t.TempDir(), "counts.db")
	if code, _, errOut := solcatDB(db, "build", "queens:8", "--count-only"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := solcatDBIn(db, "1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n1 7 4 6 8 2 5 3\n92\n", "check")
	want := "line 1: 1 5 8 6 3 7 2 4: valid, orbit 8, identity of the canonical form 1 5 8 6 3 7 2 4, asymmetric\n" +
		"line 2: 1 6 8 3 7 4 2 5: valid, orbit 8, identity of the canonical form 1 6 8 3 7 4 2 5, asymmetric\n" +
		"line 3: 1 7 4 6 8 2 5 3: valid, orbit 8, transpose of the canonical form 1 6 8 3 7 4 2 5, asymmetric\n" +
		"line 4: total 92: right: queens:8 has 92 solutions (the catalog)\n" +
		"queens:8: 3 of 3 answers are right; queens:8 is recorded by its counts only: no solution IDs or classes\n"
	if code != 0 || out != want || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, out, want)
	}
}

// TestCheckReadsItsOwnOutput: check's CSV, JSON and JSON lines, read back
// by check, give the same verdicts on the same numbers, entries of the
// wrong length among them (CSV gives them a column per number, on past
// the board).
func TestCheckReadsItsOwnOutput(t *testing.T) {
	type verdict struct {
		Valid        bool    `json:"valid"`
		ProblemCount int     `json:"problem_count"`
		ID           int64   `json:"id"` // 0 for null
		Queens       []int   `json:"queens"`
		Grid         [][]int `json:"grid"`
	}
	verdicts := func(t *testing.T, args []string, input string) []verdict {
		t.Helper()
		code, out, errOut := solcatIn(input, append([]string{"check", "--format", "jsonl"}, args...)...)
		if code > 1 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var vs []verdict
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var v verdict
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatal(err)
			}
			vs = append(vs, v)
		}
		return vs
	}
	inputs := map[string]string{
		"queens:8": "1 5 8 6 3 7 2 4\n1 5 8 6 3 7 2\n1 5 8 6 3 7 2 4 1\n1 2 3 4 5 6 7 8\n8 4 1 3 6 2 7 5\n",
		"magic:3":  "2 7 6 9 5 1 4 3 8\n2 7 6 9 5 1 4 3\n1 2 3 4 5 6 7 8 9\n",
	}
	for puzzle, input := range inputs {
		want := verdicts(t, []string{puzzle}, input)
		for _, format := range []string{"csv", "json", "jsonl"} {
			t.Run(puzzle+" "+format, func(t *testing.T) {
				code, out, errOut := solcatIn(input, "check", puzzle, "--format", format)
				if code != 1 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				got := verdicts(t, nil, out)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("read back:\n%v\nwant\n%v\nfrom\n%s", got, want, out)
				}
			})
		}
	}
}

func TestCheckArguments(t *testing.T) {
	cases := []struct {
		first, second string
		hint          check.Hint
		file          string
		err           string
	}{
		{"", "", check.Hint{}, "-", ""},
		{"queens:8", "", check.Hint{Kind: canon.Queens, N: 8}, "-", ""},
		{"queens:8", "answer.txt", check.Hint{Kind: canon.Queens, N: 8}, "answer.txt", ""},
		{"MAGIC", "-", check.Hint{Kind: canon.Magic}, "-", ""},
		{"answer.txt", "", check.Hint{}, "answer.txt", ""},
		{"./queens:8", "", check.Hint{}, "./queens:8", ""},
		{"queens:x", "", check.Hint{}, "", "not a whole number"},
		{"quens:8", "", check.Hint{}, "", "unknown puzzle kind"},
		{"answer.txt", "more.txt", check.Hint{}, "", "write KIND:N"},
		{"magic:16", "", check.Hint{}, "", "up to order 15"},
	}
	for _, tc := range cases {
		t.Run(tc.first+" "+tc.second, func(t *testing.T) {
			hint, file, err := checkArguments(tc.first, tc.second)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil || hint != tc.hint || file != tc.file {
				t.Errorf("got %+v %q %v, want %+v %q", hint, file, err, tc.hint, tc.file)
			}
		})
	}
}
