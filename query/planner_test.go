package query

import (
	"fmt"
	"strings"
	"testing"
)

// TestPlannerTable prints the planner's table, every way with its rules,
// what it reads and what it costs, and compares it with
// testdata/planner.txt; it checks that each way is in the table once,
// with a rule, words for what it reads and costs, and an explanation.
func TestPlannerTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("A question's plan is the first way below with a rule, for its kind of question, that holds.\n")
	seen := map[Way]bool{}
	for i, a := range planner {
		t.Run(a.way.String(), func(t *testing.T) {
			if seen[a.way] || a.way.String() == "" {
				t.Errorf("way %d is in the table twice, or has no name", a.way)
			}
			seen[a.way] = true
			if len(a.when) == 0 || a.reads == "" || a.costs == "" || a.explain == nil {
				t.Errorf("%s lacks its rules, what it reads or costs, or its explanation", a.way)
			}
			for _, r := range a.when {
				if len(r.asks) == 0 || r.text == "" || r.holds == nil {
					t.Errorf("%s: a rule without questions, words or test: %+v", a.way, r)
				}
			}
		})
		fmt.Fprintf(&b, "\n%d. %s\n", i+1, a.way)
		for _, r := range a.when {
			asks := make([]string, len(r.asks))
			for k, ask := range r.asks {
				asks[k] = ask.String()
			}
			fmt.Fprintf(&b, "   when (%s): %s\n", strings.Join(asks, ", "), r.text)
		}
		fmt.Fprintf(&b, "   reads: %s\n   costs: %s\n", a.reads, a.costs)
	}
	for w := FromRecord; w <= ClassExpand; w++ {
		if !seen[w] {
			t.Errorf("%s is not in the table", w)
		}
	}
	Golden(t, "planner.txt", b.String())
}
