package verify

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/solve"
)

// recountUnder bounds the time verify spends counting one kept answer
// again, judged from the time its count took when it was kept (on as many
// workers as it had): longer ones are checked against the total only, and
// named in a note.
const recountUnder = time.Minute

// answers checks the answers kept for a puzzle recorded by its counts, or
// not recorded at all (rec.Solutions -1 where its total is not known):
// each against its seal, none more than the puzzle has, and those whose
// count takes under recountUnder counted again. wrong names an answer
// found wrong (its filter) and what is wrong with it; note the ones not
// counted again, and why.
func answers(ctx context.Context, cat *catalog.Catalog, rec catalog.Record, wrong func(filter, problem string), note func(string)) error {
	kept, err := cat.Kept().Answers(ctx, rec.Name)
	if err != nil {
		return err
	}
	var long, upToSymmetry []string
	recounted := 0
	var again recounter
	for _, a := range kept {
		outside := a.Solutions < 0 || rec.Solutions >= 0 && a.Solutions > rec.Solutions
		switch {
		case a.Solutions < 0:
			wrong(a.Filter, fmt.Sprintf("the answer kept for %s, %d solutions, is negative", a.Filter, a.Solutions))
		case outside:
			wrong(a.Filter, fmt.Sprintf("the answer kept for %s, %d solutions, is more than the puzzle's %d", a.Filter, a.Solutions, rec.Solutions))
		}
		if a.Unsealed {
			// Not counted again: the time it says its count took may
			// have been changed too.
			wrong(a.Filter, fmt.Sprintf("the answer kept for %s does not match its seal: a field of it was changed behind solcat's back", a.Filter))
			continue
		}
		if outside {
			continue
		}
		q, readable := solve.ParseQuestion(a.Question)
		tooLong := recountTime(a) >= recountUnder
		switch {
		case q.UpToSymmetry:
			upToSymmetry = append(upToSymmetry, a.Filter)
		case tooLong && q.Prop != 0:
			long = append(long, a.Filter)
			if why := boardPublished(rec, q, a); readable && why != "" {
				wrong(a.Filter, why)
			}
		case !readable || q.Constraint.N() != rec.N:
			wrong(a.Filter, fmt.Sprintf("the answer kept for %s has a question solcat cannot read", a.Filter))
		case tooLong:
			long = append(long, a.Filter)
		default:
			n, err := again.count(ctx, q, a.Question)
			if err != nil {
				return err
			}
			recounted++
			if n != a.Solutions {
				wrong(a.Filter, fmt.Sprintf("the answer kept for %s is %d solutions, counted again %d", a.Filter, a.Solutions, n))
			} else if why := boardPublished(rec, q, a); why != "" {
				wrong(a.Filter, why)
			}
		}
	}
	if recounted > 0 {
		note(fmt.Sprintf("%d kept answers counted again", recounted))
	}
	against := "checked against the total only"
	if rec.Solutions < 0 {
		against = "checked against their seals only: the total is not known"
	}
	if len(long) > 0 {
		note(fmt.Sprintf("not counted again, each a minute or more to count (%s): %s", against, strings.Join(long, "; ")))
	}
	if len(upToSymmetry) > 0 {
		note(fmt.Sprintf("not counted again, counted up to symmetry (%s): %s", against, strings.Join(upToSymmetry, "; ")))
	}
	return nil
}

// recountTime is how long counting a kept answer again should take here:
// the time it took, scaled from the workers it had to this machine's.
func recountTime(a catalog.Answer) time.Duration {
	took := time.Duration(a.Seconds * float64(time.Second))
	return took * time.Duration(max(a.Workers, 1)) / time.Duration(runtime.GOMAXPROCS(0))
}

// boardPublished compares a kept answer of a board counter with no cells
// with the published count, and says how it differs, or "".
func boardPublished(rec catalog.Record, q solve.Question, a catalog.Answer) string {
	if q.Prop == 0 || q.Constraint.N() != rec.N || !q.Constraint.Free() {
		return "" // not a board count, or cells asked: nothing is published
	}
	k, ok := canon.KnownWithProperty(canon.Puzzle{Kind: canon.Queens, N: rec.N}, q.Prop)
	want := k.Solutions
	if q.Orbit != 0 {
		want = int64(q.Orbit) * k.Orbits[q.Orbit]
		ok = ok && k.Orbits != [9]int64{}
	}
	if !ok || a.Solutions == want {
		return ""
	}
	return fmt.Sprintf("the answer kept for %s, %d solutions, differs from the published %d", a.Filter, a.Solutions, want)
}

// recounter counts kept answers again, a board count with no cell fixed
// once for every orbit size asked of it: its total and each orbit size's
// share are kept as rows of their own, and one search gives them all.
type recounter struct {
	boards map[[2]int]boardCount // by property and size
}

type boardCount struct {
	total  int64
	orbits solve.Orbits
}

// count counts the question kept under key again.
func (r *recounter) count(ctx context.Context, q solve.Question, key []byte) (int64, error) {
	if q.Prop == 0 || q.UpToSymmetry || !q.Constraint.Free() {
		return solve.Recount(ctx, key)
	}
	at := [2]int{int(q.Prop), q.Constraint.N()}
	c, ok := r.boards[at]
	if !ok {
		b, err := solve.NewBoard(q.Prop, solve.Queens(q.Constraint.N(), nil))
		if err != nil {
			return 0, err
		}
		if c.total, c.orbits, err = b.Count(ctx, 0, nil, nil); err != nil {
			return 0, err
		}
		if r.boards == nil {
			r.boards = map[[2]int]boardCount{}
		}
		r.boards[at] = c
	}
	if q.Orbit == 0 {
		return c.total, nil
	}
	return int64(q.Orbit) * c.orbits[q.Orbit], nil
}
