package advice

import (
	"testing"
	"time"

	"solcat/canon"
	"solcat/query"
	"solcat/query/keeper"
)

// TestRemedy: the facts query and keeper report, worded with the flags and
// commands that answer them.
func TestRemedy(t *testing.T) {
	q24 := canon.Puzzle{Kind: canon.Queens, N: 24}
	cells := query.Filter{Cells: []query.Cell{{Row: 1, Col: 1, Value: 1}, {Row: 2, Col: 3, Value: 1}}}
	for _, c := range []struct {
		err  error
		want string
	}{
		{&query.PastReachError{Puzzle: q24, CountedUpTo: 23, Classes: true},
			"past queens:23 only solutions are counted, under --cell or --pattern (or a toroidal or superqueen count); drop --classes"},
		{&query.BoardAskError{Puzzle: q24, Prop: canon.Superqueen, Class: true}, "queens:24 is not stored: --class needs what is stored; drop it"},
		{&query.BoardAskError{Puzzle: q24, Prop: canon.Toroidal},
			"queens:24 is not stored: the toroidal counter counts solutions under --cell and --pattern, and classes, orbit sizes and symmetry properties without them; drop one or the other"},
		{&query.TooLongError{Puzzle: q24, Filter: cells, Took: 3 * time.Hour, Judged: "12 units timed"},
			"counting queens:24 cell 1,1=1; cell 2,3=1 exactly would take about 3.0 hours (12 units timed); 'solcat estimate queens:24 --cell 1,1=1 --cell 2,3=1' estimates it in seconds"},
		{&keeper.StoppedError{Saved: 3, Units: 10}, "interrupted; 3 of 10 units are saved: the same command resumes the count"},
		{&keeper.StoppedError{Columns: 2}, "interrupted; 2 columns counted and kept, and the same command counts the rest"},
		{&keeper.StoppedError{}, "interrupted; nothing was recorded"},
	} {
		if got := Remedy(c.err, "--db").Error(); got != c.want {
			t.Errorf("%T:\n got %q\nwant %q", c.err, got, c.want)
		}
	}
}

// TestExplained: a plan over a puzzle in an older layout names the build
// that stores it anew; others are as the planner wrote them.
func TestExplained(t *testing.T) {
	old := Explained(query.PlanReport{Puzzle: "queens:10", Detail: []string{"storage: solutions"}, OlderLayout: true})
	if want := "remedy: 'solcat build queens:10 --force' stores it anew, in the current layout with checksums"; len(old.Detail) != 2 || old.Detail[1] != want {
		t.Errorf("older layout: %q", old.Detail)
	}
	if now := Explained(query.PlanReport{Puzzle: "queens:10", Detail: []string{"storage: solutions"}}); len(now.Detail) != 1 {
		t.Errorf("current layout: %q", now.Detail)
	}
}
