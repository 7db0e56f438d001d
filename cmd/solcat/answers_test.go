package main

import (
	"os"
	"path/filepath"
	"solcat/query/keeper"
	"strings"
	"testing"
)

// TestAnswersKept: a constrained count's answer is kept in the catalog and
// answers the same question in another spelling, or an image of it, at
// once; info lists it; a catalog that cannot be written still answers,
// with a note that the answer was not kept.
func TestAnswersKept(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0 // keep every count, however quick
	t.Cleanup(func() { keeper.KeepAfter = was })
	dir := t.TempDir()
	db := filepath.Join(dir, "q.db")
	if code, _, errOut := solcatDB(db, "build", "queens:12", "--count-only"); code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	steps := []struct {
		name string
		args []string
		out  string // stdout, or a line of it
		way  string // the plan --explain shows before the step
	}{
		{"first count", []string{"count", "queens:12", "--cell", "1,1=1"}, "500\n", "constrained count"},
		{"a pattern", []string{"count", "queens:12", "--pattern", "1 . . . . . . . . . . ."}, "500\n", "kept answer"},
		{"another corner", []string{"count", "queens:12", "--cell", "12,12=1"}, "500\n", "kept answer"},
		{"another question", []string{"count", "queens:12", "--cell", "1,2=1"}, "806\n", "constrained count"},
		{"up to symmetry", []string{"count", "queens:12", "--cell", "1,1=1", "--up-to-symmetry"}, "2000\n", "constrained count"},
		{"up to symmetry, another corner", []string{"count", "queens:12", "--cell", "1,12=1", "--up-to-symmetry"}, "2000\n", "kept answer"},
		// Columns 1 and 2 are images of the two questions above: kept.
		{"row table", []string{"stats", "queens:12", "--by", "row:12"}, "      3      1,165        -   8.2%", "constrained count"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			code, plan, errOut := solcatDB(db, append(s.args, "--explain")...)
			if code != 0 || !strings.HasPrefix(plan, "queens:12: "+s.way+"\n") {
				t.Errorf("--explain: exit %d, %q %s; want the way %q", code, plan, errOut, s.way)
			}
			code, out, errOut := solcatDB(db, s.args...)
			if code != 0 || !strings.Contains(out, s.out) || errOut != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, s.out)
			}
		})
	}
	_, info, _ := solcatDB(db, "info")
	for _, want := range []string{"answers kept from counts under a filter:", "queens:12 cell 1,1=1: 500 solutions", "queens:12 cell 1,2=1: 806 solutions", "queens:12 cell 12,6=1: 1,639 solutions"} {
		if !strings.Contains(info, want) {
			t.Errorf("info lacks %q:\n%s", want, info)
		}
	}
	// verify counts the kept answers again, and finds one changed.
	if code, out, errOut := solcatDB(db, "verify"); code != 0 || !strings.Contains(out, "queens:12: note: 6 kept answers counted again") {
		t.Errorf("verify: exit %d, %s %s; want 6 answers counted again", code, out, errOut)
	}
	execSQL(t, db, "UPDATE answers SET solutions = 501 WHERE filter = 'cell 1,1=1'")
	if code, out, _ := solcatDB(db, "verify"); code != 1 || !strings.Contains(out, "the answer kept for cell 1,1=1 does not match its seal") {
		t.Errorf("verify of a changed answer: exit %d, %s", code, out)
	}
	execSQL(t, db, "UPDATE answers SET solutions = 500 WHERE filter = 'cell 1,1=1'")
	// Read-only: answered, not kept, said so on one line.
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(db, 0o644) })
	if os.Geteuid() == 0 {
		t.Log("as root the file stays writable: the read-only case is not checked")
		return
	}
	code, out, errOut := solcatDB(db, "count", "queens:12", "--cell", "2,2=1")
	if code != 0 || out == "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "not kept") {
		t.Errorf("read-only: exit %d, %q, stderr %q", code, out, errOut)
	}
}
