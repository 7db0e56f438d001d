package main

import (
	"bytes"
	"context"
	"path/filepath"
	"solcat/query/keeper"
	"strings"
	"testing"
	"time"

	"solcat/query"
)

// TestCountPastReach: on queens too large to count whole, a filter that
// leaves little work is counted exactly, with no build, and kept; one that
// leaves too much is refused with the estimate's command; --explain says
// which.
func TestCountPastReach(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0
	t.Cleanup(func() { keeper.KeepAfter = was })
	db := filepath.Join(t.TempDir(), "p.db")
	// The first 14 rows of a queens:24 solution (queens at 2i, then 2i-1).
	pattern := "2 4 6 8 10 12 14 16 18 20 22 24 1 3 . . . . . . . . . ."
	code, plan, errOut := solcatDB(db, "count", "queens:24", "--pattern", pattern, "--explain")
	if code != 0 || !strings.HasPrefix(plan, "queens:24: constrained count\n") || !strings.Contains(plan, "the halves counter under the filter, the board cut below row") {
		t.Errorf("--explain: exit %d\n%s%s", code, plan, errOut)
	}
	code, out, errOut := solcatDB(db, "count", "queens:24", "--pattern", pattern)
	if code != 0 || out != "6\n" {
		t.Errorf("count: exit %d, %q %s; want 6", code, out, errOut)
	}
	if n := querySQL(t, db, "SELECT solutions FROM answers WHERE puzzle = 'queens:24'"); n != "6" {
		t.Errorf("kept %s, want 6", n)
	}
	code, plan, _ = solcatDB(db, "count", "queens:24", "--pattern", pattern, "--explain")
	if code != 0 || !strings.HasPrefix(plan, "queens:24: constrained count\n") {
		t.Errorf("--explain after: exit %d\n%s", code, plan)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		// About 3 years by the search: one cell (about 100 years) read past
		// the 250 years an estimate names when a loaded machine halved the
		// measured speed.
		{"too much work", []string{"count", "queens:27", "--cell", "1,1=1", "--cell", "2,3=1"}, 1, "exactly would take about"},
		{"too much work names the estimate", []string{"count", "queens:27", "--cell", "1,1=1", "--cell", "2,3=1"}, 1, "'solcat estimate queens:27 --cell 1,1=1 --cell 2,3=1' estimates it"},
		{"no filter", []string{"count", "queens:25"}, 2, "give --cell or --pattern"},
		{"classes", []string{"count", "queens:25", "--cell", "1,1=1", "--classes"}, 2, "drop --classes"},
		{"up to symmetry", []string{"count", "queens:25", "--cell", "1,1=1", "--up-to-symmetry"}, 2, "drop --up-to-symmetry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := solcatDB(db, tc.args...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, tc.code, tc.want)
			}
		})
	}
}

// TestCountUnrecordedFilter: a filter on queens:18 to 23 not in the
// catalog is counted with the board cut, with no record of the puzzle
// (no count-only build first), equal to the search under it, and kept.
func TestCountUnrecordedFilter(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0
	t.Cleanup(func() { keeper.KeepAfter = was })
	cases := []struct {
		puzzle string
		cells  []string
		want   string
	}{
		// Counted by the plain search under the same filter (nq_textbook_fixed).
		{"queens:18", []string{"1,1=1", "2,3=1", "3,5=1", "4,7=1"}, "1326"},
		{"queens:20", []string{"1,1=1", "2,3=1", "3,5=1", "4,7=1", "5,9=1", "6,11=1"}, "280"},
		{"queens:23", []string{"1,2=1", "2,4=1", "3,6=1", "12,12=1", "23,20=1", "22,1=1"}, "18629"},
	}
	for _, tc := range cases {
		t.Run(tc.puzzle, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "u.db")
			args := []string{"count", tc.puzzle}
			for _, c := range tc.cells {
				args = append(args, "--cell", c)
			}
			code, plan, errOut := solcatDB(db, append(args, "--explain")...)
			if code != 0 || !strings.Contains(plan, "the halves counter under the filter") || !strings.Contains(plan, "is not in the catalog, and the count needs no record of it") {
				t.Errorf("--explain: exit %d\n%s%s", code, plan, errOut)
			}
			code, out, errOut := solcatDB(db, args...)
			if code != 0 || out != tc.want+"\n" {
				t.Errorf("count: exit %d, %q %s; want %s", code, out, errOut, tc.want)
			}
			if n := querySQL(t, db, "SELECT solutions FROM answers WHERE puzzle = '"+tc.puzzle+"'"); n != tc.want {
				t.Errorf("kept %s, want %s", n, tc.want)
			}
		})
	}
}

// TestPastReachResumes: a count past the counted sizes saves its units as
// it runs (no record of the puzzle needed); stopped, it says how many are
// saved, and the same command resumes from them to the exact answer.
func TestPastReachResumes(t *testing.T) {
	was, budget := keeper.SaveAfter, query.SampleBudget
	// Save every count's units, however quick, and time few of them
	// before the count: units all timed as the count is judged would
	// leave it none to stop in.
	keeper.SaveAfter, query.SampleBudget = 0, time.Millisecond
	t.Cleanup(func() { keeper.SaveAfter, query.SampleBudget = was, budget; keeper.UnitCounted = nil })
	db := filepath.Join(t.TempDir(), "p.db")
	args := []string{"count", "queens:24", "--cell", "1,1=1", "--cell", "2,3=1", "--cell", "3,5=1", "--cell", "4,7=1", "--cell", "5,9=1", "--cell", "6,11=1"}
	ctx, cancel := context.WithCancel(context.Background())
	keeper.UnitCounted = func(n int) {
		if n == 10 {
			cancel()
		}
	}
	var out, errOut bytes.Buffer
	code := run(ctx, append([]string{"--db", db}, args...), noStdin(), &out, &errOut)
	if code == 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "units are saved: the same command resumes the count") {
		t.Fatalf("stopped count: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	keeper.UnitCounted = nil
	code, stdout, stderr := solcatDB(db, args...)
	// The same filter counted with no unit saved, in another catalog.
	_, whole, _ := solcatDB(filepath.Join(t.TempDir(), "w.db"), args...)
	if code != 0 || stdout != whole || !strings.Contains(stderr, "resuming the count: ") {
		t.Errorf("resumed count: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, whole)
	}
	if n := querySQL(t, db, "SELECT count(*) FROM answer_units"); n != "0" {
		t.Errorf("%s units left saved after the answer was kept", n)
	}
}

// TestCountTransposed: a filter on the top rows is counted on its
// transpose, cut between columns (280 by the textbook search under the
// same filter), and --explain says so.
func TestCountTransposed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	args := []string{"count", "queens:20", "--cell", "1,1=1", "--cell", "2,3=1", "--cell", "3,5=1", "--cell", "4,7=1", "--cell", "5,9=1", "--cell", "6,11=1"}
	code, plan, errOut := solcatDB(db, append(args, "--explain")...)
	if code != 0 || !strings.Contains(plan, "the board cut right of column ") ||
		!strings.Contains(plan, "matched with rights of columns ") || !strings.Contains(plan, "-20: the filter's transpose, which counts alike, cuts cheaper)") ||
		!strings.Contains(plan, "its blocks of columns listed") {
		t.Errorf("--explain: exit %d\n%s%s", code, plan, errOut)
	}
	if code, out, errOut := solcatDB(db, args...); code != 0 || out != "280\n" {
		t.Errorf("count: exit %d, %q %s; want 280", code, out, errOut)
	}
}
