package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBoardCountShards: a toroidal and a superqueen count split into
// shards, each counted into a catalog of its own, add up to the count in
// one run; merge gathers their units, and the count without --shard on
// the merged catalog finishes it (the units no file held, and the classes)
// to the published values. A shard counted again counts nothing new.
func TestBoardCountShards(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		puzzle, prop string
		k            int
		solutions    string
		classes      string
	}{
		{"queens:17", "toroidal", 3, "140692", "17621"},
		{"queens:14", "superqueen", 4, "5180", "653"},
	} {
		t.Run(tc.puzzle+" "+tc.prop, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			count := []string{"count", tc.puzzle, "--prop", tc.prop}
			var shards []string
			var sum int64
			for i := 1; i <= tc.k; i++ {
				db := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
				shards = append(shards, db)
				code, out, errOut := solcatDB(db, append(count, "--shard", fmt.Sprintf("%d/%d", i, tc.k), "--format", "csv", "--no-headers")...)
				if code != 0 {
					t.Fatalf("shard %d: exit %d, %s", i, code, errOut)
				}
				var n int64
				var filter string
				var shard, of, units, all int
				if _, err := fmt.Sscanf(strings.ReplaceAll(out, ",", " "), "%s %s %s %d %d %d %d %d", new(string), &filter, new(string), &shard, &of, &units, &all, &n); err != nil || shard != i || of != tc.k {
					t.Fatalf("shard %d: %q (%v)", i, out, err)
				}
				sum += n
			}
			if fmt.Sprintln(sum) != tc.solutions+"\n" {
				t.Errorf("the shards' solutions add up to %d, want %s", sum, tc.solutions)
			}
			// Again: every unit of the shard is saved, none is counted.
			if code, out, errOut := solcatDB(shards[0], append(count, "--shard", fmt.Sprintf("1/%d", tc.k), "--explain")...); code != 0 || !strings.Contains(out, "estimate: none needed, every unit is saved") {
				t.Errorf("shard 1 again --explain: exit %d\n%s%s", code, out, errOut)
			}

			all := filepath.Join(dir, "all.db")
			code, out, errOut := solcat(append([]string{"merge", all}, shards...)...)
			if code != 0 || !strings.Contains(out, tc.prop+" count") || strings.Contains(out, "in none of them") {
				t.Fatalf("merge: exit %d, %q %s", code, out, errOut)
			}
			if code, out, errOut := solcatDB(all, count...); code != 0 || out != tc.solutions+"\n" {
				t.Errorf("count on the merged catalog: exit %d, %q %s; want %s", code, out, errOut, tc.solutions)
			}
			if code, out, errOut := solcatDB(all, append(count, "--classes")...); code != 0 || out != tc.classes+"\n" {
				t.Errorf("classes on the merged catalog: exit %d, %q %s; want %s", code, out, errOut, tc.classes)
			}

			// A shard missing: its units are counted by the count itself.
			part := filepath.Join(dir, "part.db")
			if code, out, errOut := solcat(append([]string{"merge", part}, shards[1:]...)...); code != 0 || !strings.Contains(out, "in none of them") {
				t.Fatalf("merge of all but one: exit %d, %q %s", code, out, errOut)
			}
			if code, out, errOut := solcatDB(part, count...); code != 0 || out != tc.solutions+"\n" {
				t.Errorf("count on the partial merge: exit %d, %q %s; want %s", code, out, errOut, tc.solutions)
			}
		})
	}
}

// TestBoardCountShardsRefused: a unit two shard files count differently
// is refused by the merge, which writes nothing; --shard on a count that
// does not split is refused on one line, creating no file.
func TestBoardCountShardsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	for _, db := range []string{a, b} {
		if code, _, errOut := solcatDB(db, "count", "queens:13", "--prop", "toroidal", "--shard", "1/2"); code != 0 {
			t.Fatalf("shard: %s", errOut)
		}
	}
	execSQL(t, b, "UPDATE answer_units SET solutions = solutions + 1 WHERE unit = (SELECT min(unit) FROM answer_units)")
	out := filepath.Join(dir, "out.db")
	code, stdout, errOut := solcat("merge", out, a, b)
	if code == 0 || stdout != "" || !strings.Contains(errOut, "damaged or altered") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("merge of a changed unit: exit %d, %q %q", code, stdout, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the refused merge left %s", out)
	}

	for _, args := range [][]string{
		{"count", "queens:24", "--cell", "1,1=1", "--cell", "2,3=1", "--shard", "1/2"},
		{"count", "queens:19", "--prop", "toroidal", "--cell", "1,3=1", "--up-to-symmetry", "--shard", "1/2"},
		{"count", "queens:8", "--shard", "1/2"},
		{"count", "queens:17", "--prop", "toroidal", "--shard", "3/2"},
	} {
		db := filepath.Join(dir, "none.db")
		if args[1] == "queens:8" {
			db = catalogPath
		}
		code, stdout, errOut := solcatDB(db, args...)
		if code != 2 || stdout != "" || !strings.Contains(errOut, "shard") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, %q %q", strings.Join(args, " "), code, stdout, errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
			t.Errorf("%s made a catalog", strings.Join(args, " "))
		}
	}
}

// TestBoardCountShardInfo: info lists a shard's saved units, as a count
// not finished, in text and JSON.
func TestBoardCountShardInfo(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "s.db")
	if code, _, errOut := solcatDB(db, "count", "queens:17", "--prop", "toroidal", "--shard", "2/3"); code != 0 {
		t.Fatalf("shard: %s", errOut)
	}
	if code, out, errOut := solcatDB(db, "info"); code != 0 || !strings.Contains(out, "queens:17 toroidal count: 63 of 189 units") {
		t.Errorf("info: exit %d, %q %s", code, out, errOut)
	}
	want := `{"puzzle":"queens:17","storage":"counting","count":"toroidal count","units":189,"units_done":63}`
	if code, out, errOut := solcatDB(db, "info", "--format", "jsonl"); code != 0 || strings.TrimSpace(out) != want {
		t.Errorf("info --format jsonl: exit %d, %q %s", code, out, errOut)
	}
}
