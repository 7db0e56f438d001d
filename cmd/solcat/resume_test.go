package main

import (
	"bytes"
	"context"
	"path/filepath"
	"solcat/query/keeper"
	"strconv"
	"strings"
	"testing"

	"solcat/enumerate"
	"solcat/query"
)

// TestConstrainedCountResumes: a long constrained count saves its units as
// it runs; stopped by Ctrl-C, it says how many are saved, and the same
// command resumes from them, gives the exact answer, keeps it and drops
// the units.
func TestConstrainedCountResumes(t *testing.T) {
	db := countOnlyQueens14(t)
	c := enumerate.NewQueensConstraint(14)
	c.Queen(0, 1)
	exact, err := enumerate.CountQueensConstrained(context.Background(), c, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	keeper.UnitCounted = func(n int) {
		if n == 20 {
			cancel()
		}
	}
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"--db", db, "count", "queens:14", "--cell", "1,2=1"}, noStdin(), &out, &errOut)
	if code == 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "units are saved: the same command resumes the count") {
		t.Fatalf("stopped count: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	saved, _ := strconv.Atoi(querySQL(t, db, "SELECT count(*) FROM answer_units"))
	if saved < 20 {
		t.Errorf("%d units saved, want at least 20", saved)
	}
	keeper.UnitCounted = nil
	code, stdout, stderr := solcatDB(db, "count", "queens:14", "--cell", "1,2=1")
	if code != 0 || stdout != strconv.FormatInt(exact, 10)+"\n" || !strings.Contains(stderr, "resuming the count: ") {
		t.Errorf("resumed count: exit %d, stdout %q, stderr %q; want %d", code, stdout, stderr, exact)
	}
	if n := querySQL(t, db, "SELECT count(*) FROM answer_units"); n != "0" {
		t.Errorf("%s units left saved after the answer was kept", n)
	}
	if n := querySQL(t, db, "SELECT solutions FROM answers WHERE filter = 'cell 1,2=1'"); n != strconv.FormatInt(exact, 10) {
		t.Errorf("kept answer %s, want %d", n, exact)
	}
}

// TestConstrainedStatsResumes: a row's table stopped by Ctrl-C keeps the
// columns it counted, and the same command counts only the others, to the
// table counted whole. On queens:16 (its progress drawn, as queens:18's is,
// for the test to stop it); on queens:18 with SOLCAT_LONG=1.
func TestConstrainedStatsResumes(t *testing.T) {
	puzzle, columns := "queens:16", 8 // columns of row 1 up to the mirror
	if longTests() {
		puzzle, columns = "queens:18", 9
	}
	was := keeper.LongStatsFrom
	keeper.LongStatsFrom = 16
	t.Cleanup(func() { keeper.UnitCounted = nil; keeper.LongStatsFrom = was })
	dir := t.TempDir()
	db, whole := filepath.Join(dir, "r.db"), filepath.Join(dir, "w.db")
	for _, path := range []string{db, whole} {
		if code, _, errOut := solcatDB(path, "build", puzzle, "--count-only"); code != 0 {
			t.Fatal(errOut)
		}
	}
	_, want, _ := solcatDB(whole, "stats", puzzle, "--by", "row:1", "--format", "csv")
	ctx, cancel := context.WithCancel(context.Background())
	keeper.UnitCounted = func(n int) {
		if n == 600 { // of 1,584 units on queens:16
			cancel()
		}
	}
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"--db", db, "stats", puzzle, "--by", "row:1"}, noStdin(), &out, &errOut)
	keeper.UnitCounted = nil
	kept, _ := strconv.Atoi(querySQL(t, db, "SELECT count(*) FROM answers"))
	if code == 0 || out.Len() != 0 || kept == 0 || kept >= columns || !strings.Contains(errOut.String(), "counted and kept, and the same command counts the rest") ||
		strings.Contains(errOut.String(), "nothing was recorded") {
		t.Fatalf("stopped table: exit %d, %d columns kept, stdout %q, stderr %q", code, kept, out.String(), errOut.String())
	}
	if code, got, errOut := solcatDB(db, "stats", puzzle, "--by", "row:1", "--format", "csv"); code != 0 || got != want || want == "" {
		t.Errorf("resumed table: exit %d, %q, stderr %q; want %q", code, got, errOut, want)
	}
}

// TestImageCountsItsOwnUnits stops a constrained count and then counts its
// mirror image: the image shares the answer but not the units (each is cut
// by its own filter), so it counts from the start and gets the answer
// right, and the stopped filter then finds that answer kept.
func TestImageCountsItsOwnUnits(t *testing.T) {
	db := countOnlyQueens14(t)
	c := enumerate.NewQueensConstraint(14)
	c.Queen(0, 1)
	c.Queen(2, 4)
	exact, err := enumerate.CountQueensConstrained(context.Background(), c, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	keeper.UnitCounted = func(n int) {
		if n == 10 {
			cancel()
		}
	}
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"--db", db, "count", "queens:14", "--cell", "1,2=1", "--cell", "3,5=1"}, noStdin(), &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "units are saved") {
		t.Fatalf("stopped count: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	keeper.UnitCounted = nil
	// The mirror image, columns reversed.
	code, stdout, stderr := solcatDB(db, "count", "queens:14", "--cell", "1,13=1", "--cell", "3,10=1")
	if code != 0 || stdout != strconv.FormatInt(exact, 10)+"\n" || strings.Contains(stderr, "resuming") {
		t.Errorf("the image's count: exit %d, stdout %q, stderr %q; want %d, counted from the start", code, stdout, stderr, exact)
	}
	code, stdout, stderr = solcatDB(db, "count", "queens:14", "--cell", "1,2=1", "--cell", "3,5=1")
	if code != 0 || stdout != strconv.FormatInt(exact, 10)+"\n" || strings.Contains(stderr, "resuming") {
		t.Errorf("the stopped filter afterwards: exit %d, stdout %q, stderr %q; want %d from the kept answer", code, stdout, stderr, exact)
	}
}

// countOnlyQueens14 is a catalog of queens:14's counts, for constrained
// counts whose every unit is left to the count (none timed before it).
func countOnlyQueens14(t *testing.T) string {
	t.Helper()
	was, budget := keeper.SaveAfter, query.ProbeBudget
	keeper.SaveAfter, query.ProbeBudget = 0, 0
	t.Cleanup(func() { keeper.SaveAfter, query.ProbeBudget = was, budget; keeper.UnitCounted = nil })
	db := filepath.Join(t.TempDir(), "r.db")
	if code, _, errOut := solcatDB(db, "build", "queens:14", "--count-only"); code != 0 {
		t.Fatal(errOut)
	}
	return db
}
