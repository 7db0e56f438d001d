package verify

import (
	"context"
	"fmt"
	"time"

	"solcat/catalog"
	"solcat/enumerate"
)

// recountUnder is how quick a kept answer's count must have been for
// verify to count it again: longer ones are checked against the total only.
const recountUnder = 2 * time.Second

// answers checks the answers kept for a puzzle recorded by its counts: none
// more than the puzzle has, and the quick ones counted again.
func answers(ctx context.Context, cat *catalog.Catalog, rec catalog.Record, problem func(string)) error {
	kept, err := cat.Answers(ctx, rec.Name)
	if err != nil {
		return err
	}
	for _, a := range kept {
		if a.Solutions < 0 || a.Solutions > rec.Solutions {
			problem(fmt.Sprintf("the answer kept for %s, %d solutions, is not between 0 and the puzzle's %d", a.Filter, a.Solutions, rec.Solutions))
			continue
		}
		c, ok := enumerate.ConstraintOfKey(a.Question)
		if !ok || c.N != rec.N {
			if len(a.Question) == 0 || a.Question[0] != 'U' {
				problem(fmt.Sprintf("the answer kept for %s has a question solcat cannot read", a.Filter))
			}
			continue // up to symmetry: checked against the total only
		}
		if time.Duration(a.Seconds*float64(time.Second)) >= recountUnder {
			continue
		}
		n, err := enumerate.CountQueensConstrained(ctx, c, 0)
		if err != nil {
			return err
		}
		if n != a.Solutions {
			problem(fmt.Sprintf("the answer kept for %s is %d solutions, counted again %d", a.Filter, a.Solutions, n))
		}
	}
	return nil
}
