package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"solcat/query/keeper"
	"strconv"
	"strings"
	"testing"
	"time"

	"solcat/canon"
)

// boardFilters are the filters each board count is asked under: none, the
// classes, an orbit size, a symmetry property, cells, a pattern, cells up to
// symmetry.
func boardFilters(n int) [][]string {
	return [][]string{
		nil,
		{"--classes"},
		{"--orbit", "8"},
		{"--prop", "rot180-only", "--classes"},
		{"--cell", "1,2=1"},
		{"--cell", fmt.Sprintf("%d,%d=1", n/2+1, n/2)},
		{"--cell", "1,1=0", "--cell", "2,3=0"},
		{"--pattern", ". 4 " + strings.Repeat(". ", n-2)},
		{"--cell", "1,3=1", "--up-to-symmetry"},
	}
}

// TestBoardCountsAgainstStored: the toroidal and superqueen counts of a
// puzzle that is not in the catalog (the board counters, under each
// filter) equal the counts over the stored solutions of the shared
// catalog (every solution tested), and without a filter the published
// ones; with SOLCAT_LONG=1 also queens:14 and 15, stored in a catalog of
// their own.
func TestBoardCountsAgainstStored(t *testing.T) {
	t.Parallel()
	stored, last := catalogPath, 13
	if longTests() {
		stored, last = filepath.Join(t.TempDir(), "s.db"), 15
		if code, _, errOut := solcatDB(stored, "build", "queens:5-15"); code != 0 {
			t.Fatalf("build: %s", errOut)
		}
	}
	none := filepath.Join(t.TempDir(), "none.db") // made only if a count takes over a second, to keep it
	for n := 5; n <= last; n++ {
		for _, prop := range []canon.Property{canon.Toroidal, canon.Superqueen} {
			filters := boardFilters(n)
			if n != 8 && n != 11 && n != 13 && n < 14 {
				filters = filters[:2] // totals and classes on every size
			}
			for _, f := range filters {
				args := append([]string{"count", fmt.Sprintf("queens:%d", n), "--prop", prop.String()}, f...)
				name := strings.Join(args[1:], " ")
				code, want, errOut := solcatDB(stored, args...)
				if code != 0 {
					t.Fatalf("%s over the stored solutions: exit %d, %s", name, code, errOut)
				}
				if code, plan, _ := solcatDB(none, append(args, "--explain")...); code != 0 || !strings.HasPrefix(plan, fmt.Sprintf("queens:%d: board count\n", n)) {
					t.Errorf("%s --explain: exit %d\n%s", name, code, plan)
				}
				code, got, errOut := solcatDB(none, args...)
				if code != 0 || got != want {
					t.Errorf("%s: board count exit %d, %q %s; stored %q", name, code, got, errOut, want)
				}
				if k, ok := canon.KnownWithProperty(canon.Puzzle{Kind: canon.Queens, N: n}, prop); ok && len(f) == 0 && got != fmt.Sprintln(k.Solutions) {
					t.Errorf("%s: %q, published %d", name, got, k.Solutions)
				}
			}
		}
	}
}

// TestBoardCountsRecordedByCounts: on puzzles recorded by their counts
// only, the toroidal and superqueen counts, and their classes, are the
// published ones (A051906, A051223, A051224), and a filtered count equals
// the count over the stored solutions of the shared catalog.
func TestBoardCountsRecordedByCounts(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	if code, _, errOut := solcatDB(db, "build", "queens:11-13", "--count-only"); code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	for n := 11; n <= 13; n++ {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		for _, prop := range []canon.Property{canon.Toroidal, canon.Superqueen} {
			k, _ := canon.KnownWithProperty(p, prop)
			cases := []struct {
				args []string
				want int64
			}{
				{nil, k.Solutions},
				{[]string{"--classes"}, k.Classes},
				{[]string{"--orbit", "2", "--classes"}, k.Orbits[2]},
				{[]string{"--orbit", "4", "--classes"}, k.Orbits[4]},
			}
			for _, tc := range cases {
				if tc.want < 0 || (len(tc.args) > 2 && k.Orbits == [9]int64{}) {
					continue // not published
				}
				args := append([]string{"count", p.String(), "--prop", prop.String()}, tc.args...)
				if code, out, errOut := solcatDB(db, args...); code != 0 || out != fmt.Sprintln(tc.want) {
					t.Errorf("%s: exit %d, %q %s; published %d", strings.Join(args, " "), code, out, errOut, tc.want)
				}
			}
			filtered := []string{"count", p.String(), "--prop", prop.String(), "--cell", "2,4=1", "--cell", "1,1=0"}
			_, want, _ := solcat(filtered...)
			if code, plan, _ := solcatDB(db, append(filtered, "--explain")...); code != 0 || !strings.Contains(plan, "storage: counts (counts only") {
				t.Errorf("%s --explain: exit %d\n%s", strings.Join(filtered, " "), code, plan)
			}
			if code, out, errOut := solcatDB(db, filtered...); code != 0 || out != want {
				t.Errorf("%s: exit %d, %q %s; stored %q", strings.Join(filtered, " "), code, out, errOut, want)
			}
		}
	}
}

// TestBoardCountKept: a board count's answer is kept (without cells with
// the classes of 2 and 4 members, which answer --classes and --orbit),
// answers the same question, in another spelling or as an image of it, at
// once; info lists the kept answers, verify counts them again and names
// one changed.
func TestBoardCountKept(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0 // keep every count, however quick
	t.Cleanup(func() { keeper.KeepAfter = was })
	db := filepath.Join(t.TempDir(), "k.db")
	if code, _, errOut := solcatDB(db, "build", "queens:13", "--count-only"); code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	steps := []struct {
		args []string
		out  string
		way  string // the plan --explain shows before the step
	}{
		{[]string{"count", "queens:13", "--prop", "superqueen"}, "1876\n", "board count"},
		{[]string{"count", "queens:13", "--prop", "superqueen"}, "1876\n", "kept answer"},
		{[]string{"count", "queens:13", "--prop", "superqueen", "--classes"}, "239\n", "kept answer"},
		{[]string{"count", "queens:13", "--prop", "superqueen", "--orbit", "2"}, "4\n", "kept answer"},
		{[]string{"count", "queens:13", "--prop", "toroidal", "--classes"}, "572\n", "board count"},
		{[]string{"count", "queens:13", "--prop", "toroidal", "--cell", "1,1=1"}, "348\n", "board count"},
		{[]string{"count", "queens:13", "--prop", "toroidal", "--pattern", ". . . . . . . . . . . . 1"}, "348\n", "kept answer"},
		{[]string{"count", "queens:13", "--prop", "toroidal", "--cell", "13,13=1"}, "348\n", "kept answer"},
		{[]string{"count", "queens:13", "--prop", "toroidal", "--cell", "1,1=1", "--up-to-symmetry"}, "1392\n", "board count"},
		{[]string{"count", "queens:13", "--prop", "toroidal", "--cell", "1,13=1", "--up-to-symmetry"}, "1392\n", "kept answer"},
		{[]string{"count", "queens:23", "--prop", "toroidal", "--pattern", "1 3 5 7 9 11 13 15 17 19 21 23 2 4 . . . . . . . . ."}, "1\n", "board count"},
		{[]string{"count", "queens:23", "--prop", "toroidal", "--pattern", "1 3 5 7 9 11 13 15 17 19 21 23 2 4 . . . . . . . . ."}, "1\n", "kept answer"},
	}
	for i, s := range steps {
		t.Run(strconv.Itoa(i)+" "+strings.Join(s.args[1:], " "), func(t *testing.T) {
			code, plan, errOut := solcatDB(db, append(s.args, "--explain")...)
			if code != 0 || !strings.HasPrefix(plan, s.args[1]+": "+s.way+"\n") {
				t.Errorf("--explain: exit %d, %q %s; want the way %q", code, plan, errOut, s.way)
			}
			code, out, errOut := solcatDB(db, s.args...)
			if code != 0 || out != s.out || errOut != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, s.out)
			}
		})
	}
	_, info, _ := solcatDB(db, "info")
	for _, want := range []string{"queens:13 properties superqueen: 1,876 solutions (superqueen counter", "queens:13 properties superqueen; orbit 2: 4 solutions",
		"queens:13 properties toroidal: 4,524 solutions (toroidal counter", "queens:13 cell 1,1=1; properties toroidal: 348 solutions",
		"queens:23 cell 1,1=1; cell 2,3=1;"} {
		if !strings.Contains(info, want) {
			t.Errorf("info lacks %q:\n%s", want, info)
		}
	}
	if code, out, errOut := solcatDB(db, "verify", "queens:13"); code != 0 || !strings.Contains(out, "queens:13: note: 7 kept answers counted again") {
		t.Errorf("verify: exit %d, %s %s; want 7 answers counted again", code, out, errOut)
	}
	execSQL(t, db, "UPDATE answers SET solutions = 6 WHERE filter = 'properties superqueen; orbit 2'")
	if code, out, _ := solcatDB(db, "verify", "queens:13"); code != 1 || !strings.Contains(out, "the answer kept for properties superqueen; orbit 2 does not match its seal") {
		t.Errorf("verify of a changed answer: exit %d, %s", code, out)
	}
	execSQL(t, db, "UPDATE answers SET solutions = 4 WHERE filter = 'properties superqueen; orbit 2'")

	// queens:23 has no record, only its kept answer: verify checks it too,
	// whole or by name, and the count asked again replaces a changed one.
	pattern := []string{"count", "queens:23", "--prop", "toroidal", "--pattern", "1 3 5 7 9 11 13 15 17 19 21 23 2 4 . . . . . . . . ."}
	for _, args := range [][]string{{"verify"}, {"verify", "queens:23"}} {
		if code, out, errOut := solcatDB(db, args...); code != 0 || !strings.Contains(out, "queens:23: note: 1 kept answers counted again") || !strings.Contains(out, "queens:23: ok (answers kept") {
			t.Errorf("%v: exit %d, %s %s; want queens:23's answer counted again", args, code, out, errOut)
		}
	}
	// Changed, it is never printed: verify names it and how to drop it,
	// and the count asked again after that keeps a new one.
	execSQL(t, db, "UPDATE answers SET solutions = 2 WHERE puzzle = 'queens:23'")
	code, out, errOut := solcatDB(db, "verify")
	_, drop, found := strings.Cut(errOut, "sqlite3 "+db+" ")
	if code != 1 || !strings.Contains(out, "queens:23: the answer kept for cell 1,1=1;") || !found || !strings.HasPrefix(drop, `"DELETE FROM answers WHERE puzzle = 'queens:23' AND filter IN ('cell 1,1=1;`) {
		t.Fatalf("verify of a changed answer of a puzzle with no record: exit %d, %s %s", code, out, errOut)
	}
	if code, out, errOut := solcatDB(db, pattern...); code != 1 || out != "" || !strings.Contains(errOut, "does not match its seal") {
		t.Errorf("the count of a changed answer: exit %d, %q %q; want it refused", code, out, errOut)
	}
	execSQL(t, db, strings.Trim(strings.TrimSpace(drop), `"`))
	if code, out, errOut := solcatDB(db, pattern...); code != 0 || out != "1\n" {
		t.Errorf("the count after the answer was dropped: exit %d, %q %q", code, out, errOut)
	}
	if code, out, errOut := solcatDB(db, "verify"); code != 0 {
		t.Errorf("verify after the count again: exit %d, %s %s", code, out, errOut)
	}
}

// TestBoardCountImpossible: a filter no solution meets, past storage, is
// answered 0 with a line saying why, as the catalog's answers are.
func TestBoardCountImpossible(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.db")
	for _, args := range [][]string{
		{"count", "queens:17", "--prop", "toroidal", "--cell", "1,1=1", "--cell", "1,1=0"},
		{"count", "queens:20", "--cell", "1,1=1", "--cell", "2,2=1"},
	} {
		if code, out, errOut := solcatDB(db, args...); code != 0 || out != "0\n" || !strings.HasPrefix(errOut, "solcat: no solution can match: ") {
			t.Errorf("%v: exit %d, %q %q; want 0 and why", args, code, out, errOut)
		}
	}
}

// TestBoardCountExplainGolden: what --explain says of board counts, in a
// catalog that holds queens:12 by its counts, compared with
// testdata/golden/explain-board-*.txt (the number of goroutines written
// W).
func TestBoardCountExplainGolden(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "e.db")
	if code, _, errOut := solcatDB(db, "build", "queens:12", "--count-only"); code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	workers := regexp.MustCompile(`on \d+ goroutines?`)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"explain-board-queens17-toroidal", []string{"count", "queens:17", "--prop", "toroidal", "--explain"}},
		{"explain-board-queens12-superqueen-classes", []string{"count", "queens:12", "--prop", "superqueen", "--classes", "--explain"}},
		{"explain-board-queens12-superqueen-cell-json", []string{"count", "queens:12", "--prop", "superqueen", "--cell", "1,2=1", "--explain", "--format", "json"}},
		{"explain-board-queens12-superqueen-up-to-symmetry", []string{"count", "queens:12", "--prop", "superqueen", "--cell", "1,2=1", "--up-to-symmetry", "--explain"}},
		{"explain-board-queens25-toroidal-pattern", []string{"count", "queens:25", "--prop", "toroidal", "--pattern", "1 3 5 7 9 11 13 15 17 19 21 23 25 . . . . . . . . . . . .", "--explain"}},
		{"explain-board-queens24-toroidal-none", []string{"count", "queens:24", "--prop", "toroidal", "--explain"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := solcatDB(db, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			out = workers.ReplaceAllString(out, "on W goroutines")
			out = regexp.MustCompile(`"workers": \d+`).ReplaceAllString(out, `"workers": W`)
			matchGolden(t, tc.name+".txt", tc.args, out)
		})
	}
}

// TestBoardCountRefusals: what a board count does not take is refused on
// one line, with nothing on stdout.
func TestBoardCountRefusals(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "r.db")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"count", "queens:20", "--prop", "toroidal", "--prop", "superqueen"}, 2, "ask one of them"},
		{[]string{"count", "queens:20", "--prop", "superqueen", "--class", "3"}, 2, "--class needs what is stored"},
		{[]string{"count", "queens:20", "--prop", "superqueen", "--cell", "1,1=1", "--classes"}, 2, "drop one or the other"},
		{[]string{"count", "queens:20", "--prop", "superqueen", "--cell", "1,1=1", "--orbit", "8"}, 2, "drop one or the other"},
		{[]string{"count", "queens:31", "--prop", "superqueen"}, 1, "counts over 1000 hours are not run"},
	} {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			code, out, errOut := solcatDB(db, tc.args...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, tc.code, tc.want)
			}
		})
	}
}

// TestBoardCountStopsAndResumes: a board count saves its units as it
// runs; Ctrl-C stops it within a second, even in the middle of long
// units, saying how many are saved, and the same command resumes from
// them to the published count.
func TestBoardCountStopsAndResumes(t *testing.T) {
	was := keeper.SaveAfter
	keeper.SaveAfter = 0 // save every count's units, however quick
	t.Cleanup(func() { keeper.SaveAfter = was; keeper.UnitCounted = nil })
	db := filepath.Join(t.TempDir(), "s.db")
	stop := func(args []string, after int) time.Duration {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		var stopped time.Time
		keeper.UnitCounted = func(n int) {
			if n == after {
				stopped = time.Now()
				cancel()
			}
		}
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{"--db", db}, args...), noStdin(), &out, &errOut)
		keeper.UnitCounted = nil
		if code == 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "units are saved: the same command resumes the count") {
			t.Fatalf("stopped count: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
		}
		return time.Since(stopped)
	}
	// Units of queens:20 take about half a second of CPU each.
	if took := stop([]string{"count", "queens:20", "--prop", "superqueen"}, 2); took > time.Second {
		t.Errorf("the count stopped %v after Ctrl-C", took)
	} else {
		t.Logf("queens:20's superqueen count stopped %v after Ctrl-C", took)
	}
	args := []string{"count", "queens:16", "--prop", "superqueen", "--classes"}
	stop(args, 40)
	code, stdout, stderr := solcatDB(db, args...)
	if code != 0 || stdout != "25411\n" || !strings.Contains(stderr, "resuming the count: ") {
		t.Errorf("resumed count: exit %d, stdout %q, stderr %q; want 25411 (A051224)", code, stdout, stderr)
	}
	if n := querySQL(t, db, "SELECT count(*) FROM answer_units WHERE puzzle = 'queens:16'"); n != "0" {
		t.Errorf("%s units left saved after the answer was kept", n)
	}
	if n := querySQL(t, db, "SELECT solutions FROM answers WHERE puzzle = 'queens:16' AND filter = 'properties superqueen'"); n != "202900" {
		t.Errorf("kept %s, want 202900 (A051223)", n)
	}
}

// TestBoardCountDocExamples: the board counts docs/commands.md shows, in
// a catalog of their own (queens:19's and 23's with SOLCAT_LONG=1: about
// 100 s of CPU each).
func TestBoardCountDocExamples(t *testing.T) {
	t.Parallel()
	cases := [][]string{{"count", "queens:17", "--prop", "toroidal", "140692\n"}}
	if longTests() {
		cases = append(cases, []string{"count", "queens:19", "--prop", "superqueen", "--classes", "8062150\n"},
			[]string{"count", "queens:23", "--prop", "toroidal", "--classes", "16107188\n"})
	}
	db := filepath.Join(t.TempDir(), "d.db")
	for _, tc := range cases {
		args, want := tc[:len(tc)-1], tc[len(tc)-1]
		if code, out, errOut := solcatDB(db, args...); code != 0 || out != want {
			t.Errorf("%s: exit %d, %q %s; want %q", strings.Join(args, " "), code, out, errOut, want)
		}
	}
}
