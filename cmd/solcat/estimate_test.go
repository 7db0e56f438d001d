package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"solcat/query/keeper"
	"strings"
	"testing"
	"time"
)

func estimateJSON(t *testing.T, db string, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := solcatDB(db, append(append([]string{"estimate"}, args...), "--format", "json")...)
	if code != 0 {
		t.Fatalf("estimate %v: exit %d, %s", args, code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("estimate %v: %v in %q", args, err, out)
	}
	return got
}

// TestEstimateCommand: an estimate is labelled as one, repeats exactly
// with its seed and probe count on any number of workers, and every
// spelling or image of a filter draws the same probes.
func TestEstimateCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	same := func(a, b map[string]any) bool {
		for _, k := range []string{"solutions", "solutions_stderr", "classes", "classes_stderr", "probes", "seed", "method"} {
			if a[k] != b[k] {
				return false
			}
		}
		return true
	}
	one := estimateJSON(t, db, "queens:14", "--probes", "3000", "--seed", "5", "--workers", "1")
	two := estimateJSON(t, db, "queens:14", "--probes", "3000", "--seed", "5", "--workers", "2")
	other := estimateJSON(t, db, "queens:14", "--probes", "3000", "--seed", "6")
	if !same(one, two) {
		t.Errorf("1 worker %v\n2 workers %v", one, two)
	}
	if same(one, other) {
		t.Errorf("seeds 5 and 6 gave the same estimate %v", one["solutions"])
	}
	if one["exact"] != false || one["published_solutions"] != 365596.0 || one["probes"] != 3000.0 {
		t.Errorf("queens:14: %v; want exact false, the published 365596 and 3000 probes", one)
	}
	lo, hi := one["solutions_low95"].(float64), one["solutions_high95"].(float64)
	if !(lo < one["solutions"].(float64) && one["solutions"].(float64) < hi) {
		t.Errorf("interval %v to %v around %v", lo, hi, one["solutions"])
	}
	corner := estimateJSON(t, db, "queens:14", "--cell", "1,1=1", "--probes", "2000")
	image := estimateJSON(t, db, "queens:14", "--pattern", ". . . . . . . . . . . . . 14", "--probes", "2000")
	if !same(corner, image) || corner["classes"] != nil {
		t.Errorf("corner %v\nits image %v; want the same numbers and no classes", corner, image)
	}
	square := estimateJSON(t, db, "magic:4", "--cell", "1,1=1", "--probes", "3000")
	rotated := estimateJSON(t, db, "magic:4", "--cell", "4,4=1", "--probes", "3000")
	if !same(square, rotated) || square["classes"] != nil {
		t.Errorf("magic:4 cell 1,1=1 %v\nits image %v; want the same numbers and no classes", square, rotated)
	}
	if m := estimateJSON(t, db, "magic:6", "--probes", "200"); m["published_classes_estimate"] != 0.17745e20 || m["classes"].(float64) != m["solutions"].(float64)/8 {
		t.Errorf("magic:6: %v; want the published estimate beside it and classes an eighth of the squares", m)
	}
	code, text, _ := solcatDB(db, "estimate", "queens:14", "--probes", "3000", "--seed", "5")
	for _, want := range []string{"queens:14, estimated (not an exact count):", "solutions  ", "standard error", "95% interval",
		"the same numbers again: solcat estimate queens:14 --seed 5 --probes 3000", "published  365,596 solutions, 45,752 classes"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("exit %d, text lacks %q:\n%s", code, want, text)
		}
	}
	code, text, _ = solcatDB(db, "estimate", "queens:8", "--probes", "10")
	if code != 0 || !strings.Contains(text, "92 exactly") {
		t.Errorf("queens:8, counted whole by every probe: exit %d\n%s", code, text)
	}
	code, plan, _ := solcatDB(db, "estimate", "queens:30", "--explain")
	if code != 0 || !strings.HasPrefix(plan, "queens:30: estimate\n") || !strings.Contains(plan, "not an exact count") || !strings.Contains(plan, "after 10s") {
		t.Errorf("--explain: exit %d\n%s", code, plan)
	}
}

// TestEstimateKept: an estimate of a second or more is kept in the
// catalog, created if need be; a longer run of the same seed replaces a
// shorter one and a shorter one does not; info lists them.
func TestEstimateKept(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0
	t.Cleanup(func() { keeper.KeepAfter = was })
	db := filepath.Join(t.TempDir(), "new.db")
	estimateJSON(t, db, "queens:20", "--probes", "2000")
	estimateJSON(t, db, "queens:20", "--probes", "4000")
	estimateJSON(t, db, "queens:20", "--probes", "1000")
	estimateJSON(t, db, "queens:20", "--probes", "1000", "--seed", "2")
	estimateJSON(t, db, "queens:20", "--cell", "1,1=1", "--probes", "1000")
	if n := querySQL(t, db, "SELECT count(*) FROM estimates"); n != "3" {
		t.Errorf("%s estimates kept, want 3", n)
	}
	if n := querySQL(t, db, "SELECT probes FROM estimates WHERE seed = 1 AND filter = ''"); n != "4000" {
		t.Errorf("seed 1 kept with %s probes, want 4000", n)
	}
	_, info, _ := solcatDB(db, "info")
	for _, want := range []string{"estimates (not exact counts", "queens:20: about 3.9", "queens:20 cell 1,1=1: about", "4,000 probes", "seed 2"} {
		if !strings.Contains(info, want) {
			t.Errorf("info lacks %q:\n%s", want, info)
		}
	}
	_, infoJSON, _ := solcatDB(db, "info", "--format", "jsonl")
	if !strings.Contains(infoJSON, `"storage":"estimate"`) || !strings.Contains(infoJSON, `"exact":false`) {
		t.Errorf("info's JSON lacks the estimates:\n%s", infoJSON)
	}
}

// TestEstimateKeptOnlyInACatalog: without --db or SOLCAT_DB, an estimate
// is kept only in a default catalog that exists, and says where; none is
// created for it.
func TestEstimateKeptOnlyInACatalog(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0
	t.Cleanup(func() { keeper.KeepAfter = was })
	t.Setenv("SOLCAT_DB", "")
	os.Unsetenv("SOLCAT_DB")
	dir := t.TempDir()
	t.Chdir(dir)
	estimate := func() (string, string) {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"estimate", "queens:20", "--probes", "500", "--format", "json"}, noStdin(), &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		return out.String(), errOut.String()
	}
	if out, errOut := estimate(); !strings.Contains(out, `"exact": false`) || errOut != "" {
		t.Errorf("no catalog: stdout %q, stderr %q", out, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("an estimate without a catalog left %v", entries)
	}
	if code, _, errOut := solcatDB("solcat.db", "build", "queens:4"); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut := estimate(); errOut != "solcat: the estimate is kept in ./solcat.db ('solcat info' lists it)\n" {
		t.Errorf("default catalog: stderr %q", errOut)
	}
	if n := querySQL(t, "solcat.db", "SELECT count(*) FROM estimates"); n != "1" {
		t.Errorf("%s estimates kept, want 1", n)
	}
}

// TestEstimateBadInput: one line on stderr, exit 2, and no file written.
func TestEstimateBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"precision too large", []string{"queens:20", "--precision", "5"}, "--precision \"5\" is not a fraction"},
		{"precision not a number", []string{"queens:20", "--precision", "tight"}, "--precision \"tight\""},
		{"negative seed", []string{"queens:20", "--seed", "-1"}, "--seed -1 is negative"},
		{"negative probes", []string{"queens:20", "--probes", "-3"}, "--probes -3 is not a number of probes; give 1 or more"},
		{"negative time", []string{"queens:20", "--time", "-1s"}, "--time -1s is not a time to run for"},
		{"no probes", []string{"queens:20", "--probes", "0"}, "--probes 0 is not a number of probes; give 1 or more"},
		{"no time", []string{"queens:20", "--time", "0"}, "--time 0s is not a time to run for"},
		{"too many workers", []string{"queens:20", "--workers", "5000"}, "--workers 5000 is out of range"},
		{"cell off the board", []string{"queens:20", "--cell", "21,1=1"}, "off the board"},
		{"queens value", []string{"queens:20", "--cell", "1,1=2"}, "use 1 for a queen and 0"},
		{"no such puzzle", []string{"queens:40"}, "sizes run from 1 to 32"},
		{"magic too large", []string{"magic:8"}, "orders 1 to 7 can"},
		{"magic value", []string{"magic:6", "--cell", "1,1=37"}, "holds the values 1 to 36"},
		{"a class filter", []string{"queens:20", "--class", "3"}, "unknown flag --class"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "none.db")
			code, out, errOut := solcatDB(db, append([]string{"estimate"}, tc.args...)...)
			if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, out, errOut, tc.want)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("the catalog was written: %v", err)
			}
		})
	}
}

// querySQL reads one value from a catalog file, as text.
func querySQL(t *testing.T, db, stmt string) string {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var v string
	if err := conn.QueryRow(stmt).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEstimatesVerified: verify checks the kept estimates, and finds one
// whose interval was changed and one far from the exact count.
func TestEstimatesVerified(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0
	t.Cleanup(func() { keeper.KeepAfter = was })
	db := filepath.Join(t.TempDir(), "v.db")
	if code, _, errOut := solcatDB(db, "build", "queens:12"); code != 0 {
		t.Fatal(errOut)
	}
	estimateJSON(t, db, "queens:12", "--probes", "2000")
	estimateJSON(t, db, "queens:14", "--probes", "2000")
	estimateJSON(t, db, "queens:14", "--probes", "2000", "--cell", "1,1=1")
	if code, out, errOut := solcatDB(db, "verify"); code != 0 {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	steps := []struct {
		name, stmt, want string
	}{
		{"interval changed", "UPDATE estimates SET solutions_high = solutions_high * 2 WHERE puzzle = 'queens:14' AND filter <> ''",
			"the estimate kept for queens:14 cell 1,1=1 (seed 1): its 95% interval"},
		{"far from the catalog's count", "UPDATE estimates SET solutions = solutions * 1.5, solutions_low = solutions_low + solutions * 0.5, solutions_high = solutions_high + solutions * 0.5 WHERE puzzle = 'queens:12'",
			"standard errors from the exact 14200"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			execSQL(t, db, s.stmt)
			code, out, errOut := solcatDB(db, "verify")
			if code == 0 || !strings.Contains(out+errOut, s.want) {
				t.Errorf("verify: exit %d, want a problem with %q:\n%s%s", code, s.want, out, errOut)
			}
		})
	}
}

// TestEstimateInterrupted: Ctrl-C ends a long estimate, which prints and
// keeps the estimate so far, and says so. (Kept whatever its length here:
// one of a second or more is kept, as TestEstimateKept checks.)
func TestEstimateInterrupted(t *testing.T) {
	was := keeper.KeepAfter
	keeper.KeepAfter = 0
	t.Cleanup(func() { keeper.KeepAfter = was })
	db := filepath.Join(t.TempDir(), "i.db")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(400*time.Millisecond, cancel)
	var out, errOut bytes.Buffer
	began := time.Now()
	code := run(ctx, []string{"--db", db, "estimate", "queens:24", "--time", "1m"}, noStdin(), &out, &errOut)
	if time.Since(began) > 20*time.Second {
		t.Errorf("Ctrl-C took %v to end the estimate", time.Since(began))
	}
	if code != 1 || !strings.Contains(out.String(), "queens:24, estimated (not an exact count):") || !strings.Contains(errOut.String(), "the estimate so far is printed above") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	if n := querySQL(t, db, "SELECT count(*) FROM estimates WHERE puzzle = 'queens:24'"); n != "1" {
		t.Errorf("%s estimates kept, want 1", n)
	}
}
