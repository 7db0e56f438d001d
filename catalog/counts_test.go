package catalog

import (
	"context"
	"path/filepath"
	"testing"

	"solcat/catalog/catfile"
)

// TestStatText checks that every stat is stored as the text solcat has
// always written for it, and that every stored text reads back as itself:
// one this solcat does not record (a damaged row) as a stat of its own.
func TestStatText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Stat
	}{
		{"props", StatProps},
		{"cell:3,3", StatCell(3, 3)},
		{"cell:12,1", StatCell(12, 1)},
		{"cell:03,3", Stat{kind: statOther, text: "cell:03,3"}},
		{"cell:+3,3", Stat{kind: statOther, text: "cell:+3,3"}},
		{"cell:3", Stat{kind: statOther, text: "cell:3"}},
		{"cell:3,3,3", Stat{kind: statOther, text: "cell:3,3,3"}},
		{"Props", Stat{kind: statOther, text: "Props"}},
		{"", Stat{kind: statOther}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := parseStat(tc.text)
			if got != tc.want || got.String() != tc.text {
				t.Errorf("parseStat(%q) = %+v (%q), want %+v", tc.text, got, got.String(), tc.want)
			}
		})
	}
	if got := StatCell(3, 3).String(); got != "cell:3,3" {
		t.Errorf("StatCell(3, 3) is %q", got)
	}
	ctx := context.Background()
	cat, err := Create(ctx, filepath.Join(t.TempDir(), "c.db"), catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	rec := Record{Name: "magic:5", Kind: "magic", N: 5, Storage: StorageCounts, Solutions: 16, Classes: 2}
	stored := []Breakdown{{Stat: StatCell(3, 3), Value: 1, Solutions: 8, Classes: 1}, {Stat: StatProps, Value: 2, Solutions: 8, Classes: 1},
		{Stat: Stat{kind: statOther, text: "cell:03,3"}, Value: 1, Solutions: 8, Classes: 1}}
	if err := cat.RecordCounts(ctx, rec, stored); err != nil {
		t.Fatal(err)
	}
	var texts []string
	if err := cat.db.SelectContext(ctx, &texts, "SELECT stat FROM count_breakdown ORDER BY stat"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"cell:03,3", "cell:3,3", "props"}; len(texts) != 3 || texts[0] != want[0] || texts[1] != want[1] || texts[2] != want[2] {
		t.Errorf("stored %q, want %q", texts, want)
	}
	for _, stat := range []Stat{StatCell(3, 3), StatProps} {
		rows, err := cat.Breakdown(ctx, "magic:5", stat)
		if err != nil || len(rows) != 1 || rows[0].Stat != stat {
			t.Errorf("Breakdown by %v: %+v, %v", stat, rows, err)
		}
	}
	all, err := cat.Health().Breakdowns(ctx, "magic:5")
	if err != nil || len(all) != 3 || all[0] != stored[2] || all[1] != stored[0] || all[2] != stored[1] {
		t.Errorf("Breakdowns: %+v, %v; want %+v", all, err, stored)
	}
}
