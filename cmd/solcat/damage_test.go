package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/migrations"
	"solcat/query"
	"solcat/query/verify"
)

// magic5Counts is a magic:5 count record as the count-only build writes it:
// the numbers of a full run (the run itself is too long for the default
// tests: .ci/bench/magic5.sh does it).
func magic5Counts() (catalog.Record, []catalog.Breakdown) {
	// Classes by centre 1..13 from a full run; 14..25 mirror them.
	half := []int64{4365792, 5464716, 7659936, 7835348, 9727224, 10403516, 12067524, 12448644, 13890160, 13376136, 15735272, 15138472, 19079744}
	var breakdown []catalog.Breakdown
	for c := 1; c <= 25; c++ {
		k := min(c, 26-c) - 1
		breakdown = append(breakdown, catalog.Breakdown{Stat: catalog.StatCell(3, 3), Value: c, Solutions: 8 * half[k], Classes: half[k]})
	}
	// As magic5Properties records them (its searches are tested in enumerate).
	breakdown = append(breakdown,
		catalog.Breakdown{Stat: catalog.StatProps, Value: int(canon.Associative), Solutions: 8 * 48544, Classes: 48544},
		catalog.Breakdown{Stat: catalog.StatProps, Value: int(canon.Associative | canon.Pandiagonal), Solutions: 8 * 16, Classes: 16},
		catalog.Breakdown{Stat: catalog.StatProps, Value: int(canon.Pandiagonal), Solutions: 8 * 3600, Classes: 3600})
	rec := catalog.Record{Name: "magic:5", Kind: "magic", N: 5, Storage: "counts", Solutions: 2202441792, Classes: 275305224,
		Orbits: [9]int64{8: 275305224}, Verified: true, BuiltAt: time.Date(2026, 11, 29, 21, 40, 0, 0, time.UTC), SolverVersion: "test"}
	known := canon.Known{Solutions: 2202441792, Classes: 275305224}
	rec.KnownSolutions, rec.KnownClasses = &known.Solutions, &known.Classes
	return rec, breakdown
}

// damageCatalog builds a catalog with every kind of storage: queens:8,
// magic:3 and magic:4 stored solution by solution, queens:10 stored as its
// classes, queens:11 and magic:5 by their counts, and an unfinished build
// of queens:9 (two units saved).
func damageCatalog(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "clean.db")
	for _, args := range [][]string{{"build", "queens:8", "magic:3", "magic:4"}, {"build", "queens:10", "--as-classes"}, {"build", "queens:11", "--count-only"}} {
		if code, _, errOut := solcatDB(db, args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	ctx := context.Background()
	cat, err := catalog.Create(ctx, db, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	rec, breakdown := magic5Counts()
	if err := cat.RecordCounts(ctx, rec, breakdown); err != nil {
		t.Fatal(err)
	}
	// The writer's own units, of made-up rows: what the builds table is
	// checked against is how many rows its build tables hold. 46 classes
	// and a full block of 367 solutions are committed, the rest is not.
	w, err := cat.BeginSolutions(ctx, canon.Puzzle{Kind: canon.Queens, N: 9}, catalog.BuildPlan{Layout: catalog.Layout{Solver: "test"}, UnitRows: 100, RowsTotal: 426}, 46)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	for id := 1; id <= 46; id++ {
		if err := w.AddClass(int64(id), []byte{0, 0, 0, 0, 0, 0, 0, 0, byte(id)}, 8, 0); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= 380; i++ {
		if err := w.AddSolution([]byte{0, 0, 0, 0, 0, 0, 0, byte(i >> 8), byte(i)}, int64(1+i%46), i%8); err != nil {
			t.Fatal(err)
		}
	}
	if done, _ := w.Saved(); done != 46+367 {
		t.Fatalf("the unfinished build saved %d rows, want 413", done)
	}
	return db
}

// verifyJSON is verify's report with --format json.
type verifyJSON struct {
	Integrity string   `json:"integrity"`
	Lookups   []string `json:"lookups"`
	Problems  []string `json:"problems"`
	Puzzles   []struct {
		Puzzle       string   `json:"puzzle"`
		OK           bool     `json:"ok"`
		Problems     []string `json:"problems"`
		ProblemCount int      `json:"problem_count"`
	} `json:"puzzles"`
}

// TestVerifyFindsDamage changes one row (or one object) of a real catalog's
// own tables in each way that changes an answer, and checks that verify
// names it in one line, with the puzzle, in its text and its JSON report,
// marks exactly the puzzles concerned as damaged, and exits 1; that a
// query on a puzzle whose record its tables contradict says it is damaged
// instead of answering; and that a query on a puzzle the damage does not
// reach answers as before.
func TestVerifyFindsDamage(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	clean := damageCatalog(t)
	viewSQL := func(puzzle string) string {
		conn, err := sql.Open("sqlite", clean)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var text string
		if err := conn.QueryRow("SELECT sql FROM sqlite_master WHERE name = ?", "solutions_"+strings.ReplaceAll(puzzle, ":", "_")).Scan(&text); err != nil {
			t.Fatal(err)
		}
		return text
	}
	cases := []struct {
		name    string
		sql     string
		where   string   // "lookups", "catalog" (the catalog's own tables) or the puzzle the finding names
		finding string   // the start of verify's line, after "catalog: " or "PUZZLE: "
		damaged []string // the puzzles verify marks damaged
		query   []string // a query that says its puzzle is damaged,
		problem string   // naming this
		answer  []string // or one that answers as on the clean catalog
	}{
		// The lookup tables SQL users join with.
		{name: "block slots deleted", sql: "DELETE FROM block_slots WHERE slot > 50",
			where: "lookups", finding: "the table block_slots holds 51 slot numbers from 0 to 50, not the 1024 from 0 to 1023 that every solutions view joins its blocks with",
			damaged: []string{"magic:4", "queens:8"},
			query:   []string{"count", "queens:8"}, problem: "the table block_slots holds 51 slot numbers from 0 to 50"},
		{name: "block slot renumbered", sql: "UPDATE block_slots SET slot = -1 WHERE slot = 0",
			where: "lookups", finding: "the table block_slots holds 1024 slot numbers from -1 to 1023",
			damaged: []string{"magic:3", "magic:4", "queens:8"},
			query:   []string{"list", "magic:3", "--limit", "1"}, problem: "the table block_slots holds 1024 slot numbers from -1 to 1023"},
		{name: "block slots dropped", sql: "DROP TABLE block_slots",
			where: "lookups", finding: fmt.Sprintf("the table block_slots is missing (schema version %d has it)", migrations.Latest()),
			damaged: []string{"magic:3", "magic:4", "queens:8"},
			query:   []string{"count", "magic:4"}, problem: "the table block_slots, which every solutions view joins its blocks with, is missing"},
		{name: "property's bit", sql: "UPDATE properties SET bit = 128 WHERE name = 'dudeney-XII'",
			where: "lookups", finding: "the table properties gives name 'dudeney-XII' the bit 128; solcat defines 262144",
			answer: []string{"count", "magic:4", "--prop", "dudeney-XII", "--classes"}},
		{name: "property deleted", sql: "DELETE FROM properties WHERE name = 'rot180-only'",
			where: "lookups", finding: "the table properties lacks the row of name 'rot180-only'",
			answer: []string{"count", "queens:8", "--prop", "rot180-only"}},
		{name: "property added", sql: "INSERT INTO properties (name, kind, bit, definition) VALUES ('perfect', 'magic', 16, 'made up')",
			where: "lookups", finding: "the table properties has a row for name 'perfect', which solcat does not define",
			answer: []string{"count", "magic:4", "--prop", "pandiagonal"}},
		{name: "symmetry's map", sql: "UPDATE symmetries SET maps = '(r, c)' WHERE id = 5",
			where: "lookups", finding: "the table symmetries gives id 5 the maps '(r, c)'; solcat defines '(c, n-1-r)'",
			answer: []string{"list", "queens:8", "--limit", "2"}},
		{name: "symmetry's place", sql: "UPDATE symmetries SET tie_break = 9 WHERE id = 7",
			where: "lookups", finding: "the table symmetries gives id 7 the tie_break 9; solcat defines 8",
			answer: []string{"list", "queens:8", "--limit", "2"}},

		// A puzzle's record against its name, itself and its tables.
		{name: "record's name", sql: "UPDATE puzzles SET name = 'Queens:8' WHERE name = 'queens:8'",
			where: "Queens:8", finding: `recorded under the name "Queens:8", not queens:8`, damaged: []string{"Queens:8"}},
		{name: "record's N", sql: "UPDATE puzzles SET n = 20 WHERE name = 'queens:8'",
			where: "queens:8", finding: `recorded as kind "queens" and N 20, but it is queens:8`, damaged: []string{"queens:8"},
			query: []string{"count", "queens:8"}, problem: `recorded as kind "queens" and N 20, but it is queens:8`},
		{name: "record's kind", sql: "UPDATE puzzles SET kind = 'magic' WHERE name = 'queens:10'",
			where: "queens:10", finding: `recorded as kind "magic" and N 10, but it is queens:10`, damaged: []string{"queens:10"},
			query: []string{"classes", "queens:10", "--limit", "1"}, problem: `recorded as kind "magic" and N 10, but it is queens:10`},
		{name: "record's orbit split", sql: "UPDATE puzzles SET orbit4 = 2 WHERE name = 'queens:8'",
			where: "queens:8", finding: "recorded counts disagree: 92 solutions and 12 classes, but classes by orbit size 0/0/2/11, which make 96 solutions and 13 classes", damaged: []string{"queens:8"},
			query: []string{"count", "queens:8", "--orbit", "4"}, problem: "recorded counts disagree: 92 solutions and 12 classes"},
		{name: "record of more solutions", sql: "UPDATE puzzles SET solutions = 96, orbit4 = 0, orbit8 = 12, verified = 0, known_solutions = NULL, known_classes = NULL WHERE name = 'queens:8'",
			where: "queens:8", finding: "its solution blocks end at solution 92, 96 solutions recorded", damaged: []string{"queens:8"},
			query: []string{"export", "queens:8", "--format", "csv"}, problem: "its solution blocks end at solution 92, 96 solutions recorded"},
		{name: "record of fewer classes", sql: "UPDATE puzzles SET solutions = 7032, classes = 879, orbit8 = 879, verified = 0, known_solutions = NULL, known_classes = NULL WHERE name = 'magic:4'",
			where: "magic:4", finding: "its classes table ends at class 880, 879 classes recorded", damaged: []string{"magic:4"},
			query: []string{"count", "magic:4", "--prop", "associative"}, problem: "its classes table ends at class 880, 879 classes recorded"},
		{name: "record of more counts", sql: "UPDATE puzzles SET solutions = 2688, classes = 342, orbit8 = 330 WHERE name = 'queens:11'",
			where: "queens:11", finding: "recorded counts 2688 solutions, 342 classes, orbits 0/0/12/330 differ from the published 2680, 341, 0/0/12/329", damaged: []string{"queens:11"},
			query: []string{"count", "queens:11"}, problem: "recorded counts 2688 solutions"},
		{name: "record of other counts, unverified", sql: "UPDATE puzzles SET solutions = 2688, classes = 342, orbit8 = 330, verified = 0 WHERE name = 'queens:11'",
			where: "queens:11", finding: "recorded counts 2688 solutions, 342 classes, orbits 0/0/12/330 differ from the published 2680, 341, 0/0/12/329", damaged: []string{"queens:11"},
			query: []string{"count", "queens:11", "--classes"}, problem: "recorded counts 2688 solutions"},
		{name: "content hash of counts", sql: "UPDATE puzzles SET content_hash = (SELECT content_hash FROM puzzles WHERE name = 'queens:8') WHERE name = 'queens:11'",
			where: "queens:11", finding: "recorded as counts only, yet with a content hash (29fc7d8a32b66c93), which only stored content has", damaged: []string{"queens:11"},
			query: []string{"count", "queens:11"}, problem: "its record does not match its seal"},
		{name: "build time", sql: "UPDATE puzzles SET built_at = 'yesterday' WHERE name = 'magic:3'",
			where: "magic:3", finding: `recorded build time "yesterday" is not an RFC 3339 time`, damaged: []string{"magic:3"},
			query: []string{"count", "magic:3"}, problem: "its record does not match its seal"},
		{name: "stored recorded as counts", sql: "UPDATE puzzles SET storage = 'counts' WHERE name = 'magic:3'",
			where: "magic:3", finding: "recorded as counts only, but the tables block_index_magic_3, class_checks_magic_3, classes_magic_3, classes_magic_3_raw, solution_blocks_magic_3, solutions_magic_3 are there too", damaged: []string{"magic:3"},
			query: []string{"count", "magic:3"}, problem: "recorded as counts only, but the tables"},
		{name: "solutions recorded as classes", sql: "UPDATE puzzles SET storage = 'classes' WHERE name = 'queens:8'",
			where: "queens:8", finding: "recorded as stored (classes), but its table props_queens_8 is missing", damaged: []string{"queens:8"},
			query: []string{"show", "queens:8", "1"}, problem: "recorded as stored (classes), but its table props_queens_8 is missing"},
		{name: "classes recorded as solutions", sql: "UPDATE puzzles SET storage = 'solutions' WHERE name = 'queens:10'",
			where: "queens:10", finding: "recorded as stored (solutions), but its table solutions_queens_10 is missing", damaged: []string{"queens:10"},
			query: []string{"count", "queens:10"}, problem: "recorded as stored (solutions), but its table solutions_queens_10 is missing"},

		// Solution blocks and the view over them.
		{name: "last block deleted", sql: "DELETE FROM solution_blocks_magic_4 WHERE first_id = 6997",
			where: "magic:4", finding: "its solution blocks end at solution 6996, 7040 solutions recorded", damaged: []string{"magic:4"},
			query: []string{"stats", "magic:4", "--by", "cell:1,1"}, problem: "its solution blocks end at solution 6996, 7040 solutions recorded"},
		{name: "raw view replaced", sql: "DROP VIEW solutions_queens_8; DROP VIEW solutions_queens_8_raw; " + viewSQL("queens:8_raw") + " WHERE b.first_id + k.slot <> 5; " + viewSQL("queens:8"),
			where: "queens:8", finding: "its view solutions_queens_8_raw is not the one solcat makes and differs from its blocks in 1 rows; first: solution 5 is not shown", damaged: []string{"queens:8"},
			answer: []string{"count", "queens:8"}},
		{name: "view replaced", sql: "DROP VIEW solutions_queens_8; " + viewSQL("queens:8") + " WHERE id <> 5",
			where: "queens:8", finding: "its view solutions_queens_8 is not the one solcat makes and differs from its blocks in 1 rows; first: solution 5 is not shown", damaged: []string{"queens:8"},
			answer: []string{"count", "queens:8"}},
		{name: "classes view dropped", sql: "DROP VIEW classes_queens_8",
			where: "queens:8", finding: "its view classes_queens_8 is missing", damaged: []string{"queens:8"},
			answer: []string{"count", "queens:8"}},

		// A puzzle stored as its classes.
		{name: "class block deleted", sql: "DELETE FROM classes_queens_10_raw",
			where: "queens:10", finding: "it has no class blocks, 92 classes recorded", damaged: []string{"queens:10"},
			query: []string{"count", "queens:10", "--classes"}, problem: "it has no class blocks, 92 classes recorded"},
		{name: "orbits table's last row", sql: "UPDATE orbits_queens_10 SET first_member = first_member + 1 WHERE id = (SELECT max(id) FROM orbits_queens_10)",
			where: "queens:10", finding: "class 92: first member 722 in its orbits table, 721 by the orbits before it", damaged: []string{"queens:10"},
			query: []string{"list", "queens:10", "--limit", "1"}, problem: "class 92: first member 722 in its orbits table, 721 by the orbits before it"},
		{name: "orbits table's row deleted", sql: "DELETE FROM orbits_queens_10 WHERE id = (SELECT min(id) FROM orbits_queens_10)",
			where: "queens:10", finding: "its classes have 728 members by its orbits table, 724 solutions recorded", damaged: []string{"queens:10"},
			query: []string{"count", "queens:10"}, problem: "class 78: first member 613 in its orbits table, 617 by the orbits before it"},
		{name: "property of no class", sql: "INSERT INTO props_queens_10 (id, props) VALUES (93, 1)",
			where: "queens:10", finding: "its properties table names classes 93 to 93, 92 classes recorded", damaged: []string{"queens:10"},
			query: []string{"count", "queens:10", "--cell", "1,1=1"}, problem: "its properties table names classes 93 to 93, 92 classes recorded"},
		{name: "record of fewer stored classes", sql: "UPDATE puzzles SET classes = 91, orbit8 = 88, solutions = 716, verified = 0, known_solutions = NULL, known_classes = NULL WHERE name = 'queens:10'",
			where: "queens:10", finding: "its class blocks end at class 92, 91 classes recorded", damaged: []string{"queens:10"},
			query: []string{"stats", "queens:10", "--by", "cell:1,1"}, problem: "its class blocks end at class 92, 91 classes recorded"},

		// Recorded counts, which count and stats answer from.
		{name: "counts of a stored puzzle", sql: "UPDATE count_breakdown SET solutions = 5 WHERE puzzle = 'queens:8' AND stat = 'cell:1,1' AND value = 1",
			where: "queens:8", finding: "recorded counts by cell:1,1, value 1: 5 solutions, 2 classes; the classes give 4 and 2", damaged: []string{"queens:8"},
			answer: []string{"count", "queens:8", "--cell", "1,1=1", "--cell", "2,5=1"}},
		{name: "counts of a counted puzzle", sql: "INSERT INTO count_breakdown (puzzle, stat, value, solutions, classes) VALUES ('queens:11', 'props', 64, 5, 5)",
			where: "queens:11", finding: "the table count_breakdown holds 1 counts recorded for it (the first by props), but its count records none: count and stats would answer from them", damaged: []string{"queens:11"},
			query: []string{"count", "queens:11", "--prop", "asymmetric"}, problem: "the table count_breakdown holds 1 counts recorded for it"},
		{name: "magic:5 centre count", sql: "UPDATE count_breakdown SET classes = classes + 1, solutions = solutions + 8 WHERE puzzle = 'magic:5' AND stat = 'cell:3,3' AND value = 13",
			where: "magic:5", finding: "recorded counts by cell:3,3 add up to 2202441800 solutions and 275305225 classes, 2202441792 and 275305224 recorded", damaged: []string{"magic:5"},
			query: []string{"count", "magic:5", "--cell", "3,3=13", "--classes"}, problem: "recorded counts by cell:3,3 add up to 2202441800 solutions"},
		{name: "magic:5 centre complement", sql: "UPDATE count_breakdown SET classes = classes + 1, solutions = solutions + 8 WHERE puzzle = 'magic:5' AND stat = 'cell:3,3' AND value = 1",
			where: "magic:5", finding: "recorded counts by cell:3,3: value 1 has 4365793 classes, value 25 has 4365792; the complement makes them equal", damaged: []string{"magic:5"},
			query: []string{"stats", "magic:5", "--by", "cell:3,3"}, problem: "recorded counts by cell:3,3: value 1 has 4365793 classes"},
		{name: "magic:5 property count", sql: "UPDATE count_breakdown SET classes = 48545, solutions = 388360 WHERE puzzle = 'magic:5' AND stat = 'props' AND value = 2",
			where: "magic:5", finding: "recorded counts of associative: 48545 classes, 48544 published", damaged: []string{"magic:5"},
			query: []string{"count", "magic:5", "--prop", "associative"}, problem: "recorded counts of associative: 48545 classes, 48544 published"},
		{name: "counts of no puzzle", sql: "INSERT INTO count_breakdown (puzzle, stat, value, solutions, classes) VALUES ('queens:7', 'cell:1,1', 1, 1, 1)",
			where: "catalog", finding: "queens:7: the table count_breakdown holds counts recorded for it, but it has no record in puzzles",
			answer: []string{"count", "queens:8"}},

		// Unfinished builds and shards.
		{name: "build row of a finished puzzle", sql: "INSERT INTO builds (puzzle, layout, classes_done, solutions_done, rows_total, hash_state, started_at, updated_at) VALUES ('queens:8', 'test', 0, 0, 104, x'00', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
			where: "catalog", finding: "queens:8: the builds table records an unfinished build (0 classes and 0 solutions saved), but its build tables are missing (it is recorded as finished too)",
			answer: []string{"count", "queens:8"}},
		{name: "build row's saved rows", sql: "UPDATE builds SET solutions_done = solutions_done + 1 WHERE puzzle = 'queens:9'",
			where: "catalog", finding: "queens:9: the builds table says 46 classes and 368 solutions of an unfinished build are saved, its build tables hold 46 and 367 (the next build starts over)",
			answer: []string{"count", "queens:8"}},
		{name: "build row's hash state", sql: "UPDATE builds SET hash_state = x'00' WHERE puzzle = 'queens:9'",
			where: "catalog", finding: "queens:9: the saved content hash state of its unfinished build is damaged (the next build starts over)",
			answer: []string{"count", "magic:4"}},
		{name: "shard mark of a finished puzzle", sql: "INSERT INTO shards (puzzle, shard, of, layout, units, done) VALUES ('queens:8', 1, 2, 'test', 4, 1)",
			where: "catalog", finding: "queens:8: recorded as finished, and marked as shard 1 of 2 of a split build too (info shows it both ways)",
			answer: []string{"count", "queens:8"}},
	}
	t.Run("untampered", func(t *testing.T) {
		before := folderDigest(t, filepath.Dir(clean))
		code, out, errOut := solcatDB(clean, "verify")
		if code != 0 || errOut != "" || strings.Count(out, ": ok (") != 6 || !strings.Contains(out, "catalog: SQLite integrity check: ok\n") {
			t.Errorf("verify: exit %d, %q\n%s", code, errOut, out)
		}
		code, out, _ = solcatDB(clean, "verify", "--format", "json")
		var report verifyJSON
		if err := json.Unmarshal([]byte(out), &report); code != 0 || err != nil || len(report.Lookups)+len(report.Problems) != 0 || len(report.Puzzles) != 6 {
			t.Errorf("verify --format json: exit %d, %v\n%s", code, err, out)
		}
		if after := folderDigest(t, filepath.Dir(clean)); after != before {
			t.Errorf("verify changed the catalog's folder:\n%s\nnow\n%s", before, after)
		}
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := tampered(t, clean, tc.sql)
			code, out, errOut := solcatDB(db, "verify")
			prefix := tc.where + ": "
			if tc.where == "lookups" || tc.where == "catalog" {
				prefix = "catalog: "
			}
			if !slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool { return strings.HasPrefix(l, prefix+tc.finding) }) {
				t.Errorf("verify does not say %q:\n%s", prefix+tc.finding, out)
			}
			// The remedy: a new catalog, or the damaged puzzles built again
			// as they were stored.
			var remedy string
			switch {
			case tc.where == "lookups":
				remedy = "the lookup tables that every puzzle's SQL reads are damaged; build its puzzles into a new catalog: " +
					"'solcat --db NEW.db build magic:3 magic:4 queens:8 queens:10' and 'solcat --db NEW.db build magic:5 queens:11 --count-only'\n"
			case tc.where == "Queens:8":
				remedy = "a record is not under its puzzle's name, which a rebuild cannot replace; build its puzzles into a new catalog: " +
					"'solcat --db NEW.db build magic:3 magic:4 queens:8 queens:10' and 'solcat --db NEW.db build magic:5 queens:11 --count-only'\n"
			case tc.where == "catalog":
				remedy = "found in the catalog's own tables; rebuild the puzzles they name with 'solcat build PUZZLE --force', or build a new catalog with 'solcat --db NEW.db build'\n"
			case tc.where == "magic:5" || tc.where == "queens:11":
				remedy = "; rebuild the puzzles concerned: 'solcat build " + tc.where + " --count-only --force'\n"
			default:
				remedy = "; rebuild the puzzles concerned: 'solcat build " + tc.where + " --force'\n"
			}
			if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "solcat: ") || !strings.Contains(errOut, "problem(s) found") || !strings.HasSuffix(errOut, remedy) {
				t.Errorf("verify: exit %d, %q; want 1 and the remedy %q", code, errOut, remedy)
			}
			for _, name := range tc.damaged {
				if !strings.Contains(out, "\n"+name+": ") || strings.Contains(out, "\n"+name+": ok (") {
					t.Errorf("verify does not name %s as damaged:\n%s", name, out)
				}
			}

			code, out, _ = solcatDB(db, "verify", "--format", "json")
			var report verifyJSON
			if err := json.Unmarshal([]byte(out), &report); code != 1 || err != nil || report.Integrity != "ok" {
				t.Fatalf("verify --format json: exit %d, %v\n%s", code, err, out)
			}
			var found []string
			switch tc.where {
			case "lookups":
				found = report.Lookups
			case "catalog":
				found = report.Problems
			}
			var damaged []string
			for _, p := range report.Puzzles {
				if p.Puzzle == tc.where {
					found = p.Problems
				}
				if !p.OK {
					damaged = append(damaged, p.Puzzle)
				}
				if p.OK != (p.ProblemCount == 0) || len(p.Problems) != min(p.ProblemCount, verify.MaxReported) {
					t.Errorf("JSON report of %s: ok %v, %d problems, problem_count %d", p.Puzzle, p.OK, len(p.Problems), p.ProblemCount)
				}
			}
			if !slices.ContainsFunc(found, func(p string) bool { return strings.HasPrefix(p, tc.finding) }) {
				t.Errorf("the JSON report has not %q under %s: %q", tc.finding, tc.where, found)
			}
			if slices.Sort(damaged); !slices.Equal(damaged, tc.damaged) {
				t.Errorf("the JSON report marks %v damaged, want %v", damaged, tc.damaged)
			}

			if tc.query != nil {
				puzzle := tc.query[1]
				code, out, errOut := solcatDB(db, tc.query...)
				want := "solcat: " + puzzle + " in " + db + " is damaged: " + tc.problem
				tail := "; run 'solcat verify " + puzzle + "', which names all that is wrong and what mends it\n"
				if code != 1 || out != "" || !strings.HasPrefix(errOut, want) || !strings.HasSuffix(errOut, tail) || strings.Count(errOut, "\n") != 1 {
					t.Errorf("%v: exit %d, %q %q; want 1 and %q...%q", tc.query, code, out, errOut, want, tail)
				}
			}
			if tc.answer != nil {
				_, want, _ := solcatDB(clean, tc.answer...)
				if code, got, errOut := solcatDB(db, tc.answer...); code != 0 || got != want || want == "" {
					t.Errorf("%v: exit %d, %q %s; the clean catalog answers %q", tc.answer, code, got, errOut, want)
				}
			}
		})
	}
}

// TestQueriesRefuseDamage: every command that answers from a puzzle says
// it is damaged, in one line, when its record and blocks disagree, in
// each kind of storage.
func TestQueriesRefuseDamage(t *testing.T) {
	clean := damageCatalog(t)
	for _, tc := range []struct {
		puzzle, sql, problem string
	}{
		{"queens:8", "UPDATE puzzles SET solutions = 96, orbit4 = 0, orbit8 = 12, verified = 0, known_solutions = NULL, known_classes = NULL WHERE name = 'queens:8'", "its solution blocks end at solution 92, 96 solutions recorded"},
		{"queens:10", "UPDATE puzzles SET classes = 91, orbit8 = 88, solutions = 716, verified = 0, known_solutions = NULL, known_classes = NULL WHERE name = 'queens:10'", "its class blocks end at class 92, 91 classes recorded"},
		{"magic:5", "UPDATE count_breakdown SET classes = classes + 1, solutions = solutions + 8 WHERE puzzle = 'magic:5' AND stat = 'cell:3,3' AND value = 13", "recorded counts by cell:3,3 add up to"},
	} {
		db := tampered(t, clean, tc.sql)
		for _, args := range [][]string{
			{"count", tc.puzzle}, {"count", tc.puzzle, "--explain"}, {"list", tc.puzzle, "--limit", "3"}, {"export", tc.puzzle, "--format", "jsonl"},
			{"classes", tc.puzzle, "--limit", "3"}, {"show", tc.puzzle, "1"}, {"stats", tc.puzzle, "--by", "orbit"},
		} {
			code, out, errOut := solcatDB(db, args...)
			want := "solcat: " + tc.puzzle + " in " + db + " is damaged: " + tc.problem
			if code != 1 || out != "" || !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "run 'solcat verify "+tc.puzzle+"'") || strings.Count(errOut, "\n") != 1 {
				t.Errorf("%v: exit %d, %q %q; want 1 and %q", args, code, out, errOut, want)
			}
		}
	}
}

// folderDigest lists a folder's files with a hash of each.
func folderDigest(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %x\n", e.Name(), sha256.Sum256(data))
	}
	return b.String()
}

// BenchmarkQueryCheck measures the look a query takes at queens:14 of the
// default build before it answers (its record and the ends of its tables):
// binding the puzzle with it, its reads alone, the same for queens:14
// stored as its classes, and a whole count in-process for scale.
func BenchmarkQueryCheck(b *testing.B) {
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catalogPath)
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	p := canon.Puzzle{Kind: canon.Queens, N: 14}
	rec, _, err := cat.Puzzle(ctx, p.String())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("bind with the check", func(b *testing.B) {
		for range b.N {
			if _, err := query.Bind(ctx, cat, p, rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("the reads of the check", func(b *testing.B) {
		st, err := cat.Content(ctx, p, rec)
		if err != nil {
			b.Fatal(err)
		}
		for range b.N {
			cat.Health().StorageProblems(ctx, rec)
			st.QuickCheck(ctx)
			cat.Health().BlockSlotsProblem(ctx)
		}
	})
	b.Run("bind as classes with the check", func(b *testing.B) {
		db := filepath.Join(b.TempDir(), "classes.db")
		if code, _, errOut := solcatDB(db, "build", "queens:14", "--as-classes"); code != 0 {
			b.Fatal(errOut)
		}
		cat, err := catalog.Open(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		defer cat.Close()
		rec, _, err := cat.Puzzle(ctx, p.String())
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if _, err := query.Bind(ctx, cat, p, rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("a whole count", func(b *testing.B) {
		for range b.N {
			if code, _, errOut := solcat("count", "queens:14", "--cell", "1,1=1"); code != 0 {
				b.Fatal(errOut)
			}
		}
	})
}

// TestSymmetriesInTieBreakOrder checks that the symmetries table lists
// the symmetries in the README's order, the one that breaks ties, and
// numbers them so (tie_break), each with the id solutions store; and that
// a catalog made before tie_break (schema version 18) reads and verifies
// as it is, and gets the column at its next build.
func TestSymmetriesInTieBreakOrder(t *testing.T) {
	check := func(t *testing.T, db string, tieBreak bool) {
		t.Helper()
		code, out, errOut := solcatDB(db, "sql", "SELECT * FROM symmetries", "--format", "csv")
		if code != 0 {
			t.Fatal(errOut)
		}
		header, _, _ := strings.Cut(out, "\n")
		rows := csvRows(t, out)
		want := "id,name,maps"
		if tieBreak {
			want += ",tie_break"
		}
		if header != want || len(rows) != 8 {
			t.Fatalf("SELECT * FROM symmetries:\n%s", out)
		}
		if !tieBreak {
			return
		}
		for k, s := range canon.All {
			if row := rows[k]; row["name"] != s.String() || row["id"] != strconv.Itoa(int(s)) || row["tie_break"] != strconv.Itoa(k+1) {
				t.Errorf("row %d: %v; want %s, id %d, tie_break %d", k+1, row, s, s, k+1)
			}
		}
	}
	check(t, catalogPath, true)

	old := filepath.Join(t.TempDir(), "v18.db")
	if code, _, errOut := solcatDB(old, "build", "queens:6"); code != 0 {
		t.Fatal(errOut)
	}
	execSQL(t, old, `CREATE TABLE symmetries_by_id (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, maps TEXT NOT NULL);
		INSERT INTO symmetries_by_id SELECT id, name, maps FROM symmetries;
		DROP TABLE symmetries;
		ALTER TABLE symmetries_by_id RENAME TO symmetries;
		DELETE FROM properties WHERE name IN ('toroidal', 'superqueen');
		DELETE FROM solcat_schema_version WHERE version_id >= 19`)
	check(t, old, false)
	if code, out, errOut := solcatDB(old, "verify"); code != 0 {
		t.Fatalf("verify of a catalog of schema version 18: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := solcatDB(old, "build", "queens:7"); code != 0 {
		t.Fatal(errOut)
	}
	check(t, old, true)
}

// TestLookupTablesMatchCanon: the lookup tables a build writes, which
// verify holds catalogs to, say what canon computes: each symmetry's name
// and where it takes a cell, each property's kind, bit and orbit sizes.
func TestLookupTablesMatchCanon(t *testing.T) {
	code, out, errOut := solcat("sql", "SELECT id, name, maps FROM symmetries ORDER BY id", "--format", "csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	symmetries := csvRows(t, out)
	if len(symmetries) != 8 {
		t.Fatalf("%d symmetries: %s", len(symmetries), out)
	}
	coordinate := map[string]func(n, r, c int) int{
		"r": func(_, r, _ int) int { return r }, "c": func(_, _, c int) int { return c },
		"n-1-r": func(n, r, _ int) int { return n - 1 - r }, "n-1-c": func(n, _, c int) int { return n - 1 - c },
	}
	for id, row := range symmetries {
		s := canon.Symmetry(id)
		maps := strings.Split(strings.Trim(row["maps"], "()"), ", ")
		if row["id"] != strconv.Itoa(id) || row["name"] != s.String() || len(maps) != 2 || coordinate[maps[0]] == nil || coordinate[maps[1]] == nil {
			t.Errorf("symmetry %d: %v; canon names it %s, and maps is (ROW, COL) of r, c, n-1-r, n-1-c", id, row, s)
			continue
		}
		for r := range 5 {
			for c := range 5 {
				if gr, gc := s.Map(5, r, c); gr != coordinate[maps[0]](5, r, c) || gc != coordinate[maps[1]](5, r, c) {
					t.Errorf("symmetry %s takes (%d, %d) to (%d, %d), the table says %s", s, r, c, gr, gc, row["maps"])
				}
			}
		}
	}
	code, out, errOut = solcat("sql", "SELECT name, kind, coalesce(bit, '') AS bit, coalesce(orbits, '') AS orbits FROM properties", "--format", "csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	properties := csvRows(t, out)
	if want := len(canon.PropertyNames(canon.Magic)) + len(canon.PropertyNames(canon.Queens)); len(properties) != want {
		t.Fatalf("%d properties, canon has %d: %s", len(properties), want, out)
	}
	for _, row := range properties {
		prop, ok := canon.ParseProperty(canon.Kind(row["kind"]), row["name"])
		bit, orbits := strconv.Itoa(int(prop)), ""
		if row["kind"] == string(canon.Queens) {
			var text []string
			for _, o := range prop.Orbits() {
				text = append(text, strconv.Itoa(o))
			}
			bit, orbits = "", strings.Join(text, ",") // the orbit gives a queens class's symmetry type
		}
		if !ok || row["bit"] != bit || row["orbits"] != orbits {
			t.Errorf("properties row %v; canon gives bit %q, orbits %q", row, bit, orbits)
		}
	}
}
