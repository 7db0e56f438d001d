package verify

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// recountUnder bounds the time verify spends counting one kept answer
// again, judged from the time its count took when it was kept (on as many
// workers as it had): longer ones are checked against the total only, and
// named in a note.
const recountUnder = time.Minute

// answers checks the answers kept for a puzzle recorded by its counts: each
// against its seal, none more than the puzzle has, and those whose count
// takes under recountUnder counted again. note names the ones not counted
// again, and why.
func answers(ctx context.Context, cat *catalog.Catalog, rec catalog.Record, problem, note func(string)) error {
	kept, err := cat.Kept().Answers(ctx, rec.Name)
	if err != nil {
		return err
	}
	var long, upToSymmetry []string
	recounted := 0
	for _, a := range kept {
		// A changed answer is named for what is wrong with it, then for
		// its seal.
		if a.Unsealed {
			defer problem(fmt.Sprintf("the answer kept for %s does not match its seal: a field of it was changed behind solcat's back", a.Filter))
		}
		if a.Solutions < 0 || a.Solutions > rec.Solutions {
			problem(fmt.Sprintf("the answer kept for %s, %d solutions, is not between 0 and the puzzle's %d", a.Filter, a.Solutions, rec.Solutions))
			continue
		}
		if _, _, q, ok := enumerate.ParseBoardKey(a.Question); ok {
			switch {
			case len(q) > 0 && q[0] == 'U':
				upToSymmetry = append(upToSymmetry, a.Filter)
			case recountTime(a) >= recountUnder:
				long = append(long, a.Filter)
				if why := boardPublished(rec, a); why != "" {
					problem(why)
				}
			default:
				why, err := boardAnswer(ctx, rec, a)
				if err != nil {
					return err
				}
				if recounted++; why != "" {
					problem(why)
				}
			}
			continue
		}
		c, ok := enumerate.ConstraintOfKey(a.Question)
		if !ok || c.N != rec.N {
			if len(a.Question) == 0 || a.Question[0] != 'U' {
				problem(fmt.Sprintf("the answer kept for %s has a question solcat cannot read", a.Filter))
			} else {
				upToSymmetry = append(upToSymmetry, a.Filter)
			}
			continue
		}
		if recountTime(a) >= recountUnder {
			long = append(long, a.Filter)
			continue
		}
		n, err := enumerate.CountQueensConstrained(ctx, c, 0)
		if err != nil {
			return err
		}
		recounted++
		if n != a.Solutions {
			problem(fmt.Sprintf("the answer kept for %s is %d solutions, counted again %d", a.Filter, a.Solutions, n))
		}
	}
	if recounted > 0 {
		note(fmt.Sprintf("%d kept answers counted again", recounted))
	}
	if len(long) > 0 {
		note(fmt.Sprintf("not counted again, each a minute or more to count (checked against the total only): %s", strings.Join(long, "; ")))
	}
	if len(upToSymmetry) > 0 {
		note(fmt.Sprintf("not counted again, counted up to symmetry (checked against the total only): %s", strings.Join(upToSymmetry, "; ")))
	}
	return nil
}

// recountTime is how long counting a kept answer again should take here:
// the time it took, scaled from the workers it had to this machine's.
func recountTime(a catalog.Answer) time.Duration {
	took := time.Duration(a.Seconds * float64(time.Second))
	return took * time.Duration(max(a.Workers, 1)) / time.Duration(runtime.GOMAXPROCS(0))
}

// boardAnswer counts a kept answer of a board counter (toroidal,
// superqueen) again, and says what is wrong with it, or "".
func boardAnswer(ctx context.Context, rec catalog.Record, a catalog.Answer) (string, error) {
	prop, orbit, q, _ := enumerate.ParseBoardKey(a.Question)
	c, ok := enumerate.ConstraintOfKey(q)
	if !ok || c.N != rec.N {
		return fmt.Sprintf("the answer kept for %s has a question solcat cannot read", a.Filter), nil
	}
	var n int64
	if orbit == 0 {
		var err error
		if n, err = enumerate.CountBoardConstrained(ctx, prop, c, 0, nil); err != nil {
			return "", err
		}
	} else {
		count := enumerate.CountSuperqueens
		if prop == canon.Toroidal {
			count = enumerate.CountToroidal
		}
		cc, err := count(ctx, c.N, 0, nil)
		if err != nil {
			return "", err
		}
		n = int64(orbit) * cc.Orbits[orbit]
	}
	if n != a.Solutions {
		return fmt.Sprintf("the answer kept for %s is %d solutions, counted again %d", a.Filter, a.Solutions, n), nil
	}
	return boardPublished(rec, a), nil
}

// boardPublished compares a kept answer of a board counter with no cells
// with the published count, and says how it differs, or "".
func boardPublished(rec catalog.Record, a catalog.Answer) string {
	prop, orbit, q, _ := enumerate.ParseBoardKey(a.Question)
	c, ok := enumerate.ConstraintOfKey(q)
	if !ok || c.N != rec.N || string(q) != string(enumerate.NewQueensConstraint(rec.N).Question()) {
		return "" // cells asked: nothing is published
	}
	k, ok := canon.KnownWithProperty(canon.Puzzle{Kind: canon.Queens, N: rec.N}, prop)
	want := k.Solutions
	if orbit != 0 {
		want = int64(orbit) * k.Orbits[orbit]
		ok = ok && k.Orbits != [9]int64{}
	}
	if !ok || a.Solutions == want {
		return ""
	}
	return fmt.Sprintf("the answer kept for %s, %d solutions, differs from the published %d", a.Filter, a.Solutions, want)
}
