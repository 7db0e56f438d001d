package verify

import (
	"math"
	"strings"
	"testing"
	"time"

	"solcat/canon"
	"solcat/catalog"
)

// TestRecordChecks changes one thing at a time in a sound record of
// queens:8 and checks what the record checks say of it: the query's quick
// look (recordProblems) and verify (buildRecordProblems too), and whether
// the record still matches the published counts.
func TestRecordChecks(t *testing.T) {
	count := func(n int64) *int64 { return &n }
	queens8 := canon.Puzzle{Kind: canon.Queens, N: 8}
	sound := catalog.Record{Name: "queens:8", Kind: "queens", N: 8, Storage: catalog.StorageSolutions, Solutions: 92, Classes: 12, Orbits: [9]int64{4: 1, 8: 11},
		KnownSolutions: count(92), KnownClasses: count(12), Verified: true,
		SearchNodes: 100, Workers: 2, BuildSeconds: 0.5, BuiltAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ContentHash: strings.Repeat("ab", 32)}
	for _, tc := range []struct {
		name    string
		change  func(r *catalog.Record)
		query   string // what recordProblems says, "" for nothing
		verify  string // what buildRecordProblems says too
		matches bool
	}{
		{"sound", func(*catalog.Record) {}, "", "", true},
		{"misnamed", func(r *catalog.Record) { r.Name = "queens:08" }, `recorded under the name "queens:08", not queens:8`, "", true},
		{"another kind", func(r *catalog.Record) { r.Kind, r.N = "magic", 3 }, `recorded as kind "magic" and N 3, but it is queens:8`, "", true},
		{"orbits disagree", func(r *catalog.Record) { r.Orbits[8] = 10 }, "recorded counts disagree: 92 solutions and 12 classes, but classes by orbit size 0/0/1/10, which make 84 solutions and 11 classes", "", false},
		{"not the published count", func(r *catalog.Record) { r.Solutions, r.Orbits[8] = 100, 12; r.Classes = 13 }, "recorded counts ", "", false},
		{"unchecked, not published", func(r *catalog.Record) {
			r.Solutions, r.Classes, r.Orbits[8], r.Verified, r.KnownSolutions, r.KnownClasses = 100, 13, 12, false, nil, nil
		}, "", "recorded counts ", false},
		{"published count changed", func(r *catalog.Record) { r.KnownSolutions = count(91) }, "", "recorded published counts (91 solutions, 12 classes) differ from the published values, 92 and 12", false},
		{"published count lost", func(r *catalog.Record) { r.KnownClasses = nil }, "", "recorded published counts (92 solutions, none classes) differ", false},
		{"not verified", func(r *catalog.Record) { r.Verified = false }, "", "recorded as not matching the published counts", false},
		{"counts with a hash", func(r *catalog.Record) { r.Storage = catalog.StorageCounts }, "", "recorded as counts only, yet with a content hash (abababababababab)", true},
		{"negative workers", func(r *catalog.Record) { r.Workers = -1 }, "", "recorded build figures are impossible: 100 search nodes, -1 workers, 0.5 seconds", true},
		{"no time", func(r *catalog.Record) { r.BuildSeconds = math.NaN() }, "", "recorded build figures are impossible", true},
		{"bad date", func(r *catalog.Record) { r.BuiltAt, r.BuiltAtText = time.Time{}, "yesterday" }, "", `recorded build time "yesterday" is not an RFC 3339 time`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := sound
			tc.change(&r)
			got := strings.Join(recordProblems(queens8, r), "\n")
			if tc.query == "" && got != "" || !strings.Contains(got, tc.query) {
				t.Errorf("the quick look says %q, want %q", got, tc.query)
			}
			all := strings.Join(append(recordProblems(queens8, r), buildRecordProblems(queens8, r)...), "\n")
			if tc.query == "" && tc.verify == "" && all != "" || !strings.Contains(all, tc.verify) || !strings.Contains(all, tc.query) {
				t.Errorf("verify says %q, want %q and %q", all, tc.query, tc.verify)
			}
			if got := MatchesPublished(r); got != tc.matches {
				t.Errorf("MatchesPublished = %v, want %v", got, tc.matches)
			}
		})
	}
}

// TestCellValues checks the values a cell's recorded counts have a row
// for.
func TestCellValues(t *testing.T) {
	for _, tc := range []struct {
		p    canon.Puzzle
		want int
		last int
	}{
		{canon.Puzzle{Kind: canon.Queens, N: 12}, 2, 1},
		{canon.Puzzle{Kind: canon.Magic, N: 5}, 25, 25},
		{canon.Puzzle{Kind: canon.Magic, N: 3}, 9, 9},
	} {
		t.Run(tc.p.String(), func(t *testing.T) {
			v := CellValues(tc.p)
			if len(v) != tc.want || v[len(v)-1] != tc.last || tc.p.Kind == canon.Magic && v[0] != 1 || tc.p.Kind == canon.Queens && v[0] != 0 {
				t.Errorf("%v", v)
			}
		})
	}
}
