package query

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/solve"
)

// A constrained count answers a cell filter on a queens puzzle recorded by
// its counts only: nothing is stored to read, so the fast counter counts
// again with the filter's squares fixed (solve.Counter).

// constrainable reports whether the planned question is one a constrained
// count answers: queens recorded by their counts, solutions asked, cell
// conditions only.
func (pl *planning) constrainable() bool {
	f := pl.f
	return pl.countsOnly() && pl.t.Puzzle.Kind == canon.Queens && pl.t.Puzzle.N <= solve.MaxConstrainedQueens &&
		(len(f.Cells) > 0 || pl.p.Question.Ask == AskStats) && f.Class == 0 && f.Orbit == 0 && f.Props == 0 &&
		!(f.UpToSymmetry && pl.p.Question.Ask == AskStats)
}

// kept reports whether an earlier constrained count of the question was
// kept, and keeps it for the plan.
func (pl *planning) kept() bool {
	q := question(pl.t.Puzzle, pl.f)
	a, ok, err := pl.t.cat.LookUpAnswer(pl.ctx, pl.t.Record.Name, q)
	pl.err, pl.p.answer = err, a
	return ok
}

// Counted is what the catalog should keep of the plan's constrained
// counts, once run: the count's answer, or a row's, one for each column
// counted (none for the other ways).
func (t *BoundPuzzle) Counted(p *Plan) []catalog.Answer { return p.counted }

// answer is what the catalog keeps of a count of filter f (its question q)
// that took the time given on the plan's goroutines.
func (t *BoundPuzzle) answer(p *Plan, f Filter, q []byte, solutions int64, method string, took time.Duration) catalog.Answer {
	return catalog.Answer{Puzzle: t.Record.Name, Question: q, Filter: f.String(t.Puzzle), Solutions: solutions,
		Method: method, Seconds: took.Seconds(), Workers: p.Workers}
}

// question is the key a filter's answer is kept under (solve.Question):
// up to symmetry, the solutions with an image that meets it are a
// question of their own.
func question(p canon.Puzzle, f Filter) []byte {
	return solve.Question{Constraint: queensConstraint(p, f), UpToSymmetry: f.UpToSymmetry}.Key()
}

// countImages counts the solutions with an image that meets the filter,
// each image's by the fast counter.
func (t *BoundPuzzle) countImages(ctx context.Context, p *Plan) (int64, error) {
	began := time.Now()
	c := queensConstraint(t.Puzzle, p.Question.Filter)
	total, err := solve.Question{Constraint: c, UpToSymmetry: true}.Count(ctx, p.Workers)
	if err != nil {
		return 0, err
	}
	p.counted = []catalog.Answer{t.answer(p, p.Question.Filter, question(t.Puzzle, p.Question.Filter), total,
		fmt.Sprintf("halves counter, %d images by inclusion and exclusion", c.Images()), time.Since(began))}
	return total, nil
}

// queensConstraint is the filter's cells as the columns each row's queen
// may use.
func queensConstraint(p canon.Puzzle, f Filter) solve.Constraint {
	return solve.Queens(p.N, solverCells(f))
}

// solverCells are the filter's cells as the solvers take them.
func solverCells(f Filter) []solve.Cell {
	cells := make([]solve.Cell, len(f.Cells))
	for i, c := range f.Cells {
		cells[i] = solve.Cell(c)
	}
	return cells
}

// Progress, when set on a plan, hears how far a long count is: units done
// of all.
type Progress func(done, total int)

// RoughDuration writes d for people, roughly ("about 3 minutes").
func RoughDuration(d time.Duration) string { return roughDuration(d) }

// ConstrainedUnits is the key the plan's constrained count saves its units
// under (the filter as typed: its images share an answer but not their
// units) and its number of units;
// ok is false for the other ways, and for counts up to symmetry, which are
// made of several counts and do not resume.
func (t *BoundPuzzle) ConstrainedUnits(p *Plan) (key []byte, units int, ok bool, err error) {
	if p.Way != ConstrainedCount || p.Question.Ask != AskCount || p.Question.Filter.UpToSymmetry {
		return nil, 0, false, nil
	}
	run, err := t.constrained(p)
	if err != nil {
		return nil, 0, false, err
	}
	return run.Key(), run.Units(), true, nil
}

// Resume gives the plan's constrained count the units an earlier run that
// stopped saved (see ConstrainedUnits), which it does not count again.
func (t *BoundPuzzle) Resume(p *Plan, saved map[int]int64) error {
	run, err := t.constrained(p)
	if err != nil {
		return err
	}
	run.Resume(saved)
	return nil
}

// constrained gives the plan's constrained count, made the first time.
func (t *BoundPuzzle) constrained(p *Plan) (*solve.Counter, error) {
	if p.run == nil {
		q, err := solve.NewCounter(queensConstraint(t.Puzzle, p.Question.Filter))
		if err != nil {
			return nil, err
		}
		p.run = q
	}
	return p.run, nil
}

// countConstrained runs the plan's constrained count on its goroutines.
func (t *BoundPuzzle) countConstrained(ctx context.Context, p *Plan) (int64, error) {
	if p.Question.Filter.UpToSymmetry {
		return t.countImages(ctx, p)
	}
	run, err := t.constrained(p)
	if err != nil {
		return 0, err
	}
	began := time.Now()
	total, err := run.Count(ctx, p.Workers, p.SaveUnit, p.Progress)
	if err != nil {
		return 0, err
	}
	p.counted = []catalog.Answer{t.answer(p, p.Question.Filter, question(t.Puzzle, p.Question.Filter), total,
		run.Method(), time.Since(began)+run.Probed())}
	return total, nil
}

// ProbeBudget is how long EstimateCount times units for (tests that need
// every unit left to the count set it to 0).
var ProbeBudget = time.Second

// EstimateCount is how long the plan's count should take: for a
// constrained count, from a few of its units, spread over all of them,
// timed for about a second at most (their counts are kept for the count);
// 0 for the other ways.
func (t *BoundPuzzle) EstimateCount(ctx context.Context, p *Plan) (time.Duration, error) {
	if p.Way != ConstrainedCount || p.Question.Ask != AskCount || p.Question.Filter.UpToSymmetry {
		return 0, nil
	}
	run, err := t.constrained(p)
	if err != nil {
		return 0, err
	}
	if err := run.Probe(ctx, ProbeBudget); err != nil {
		return 0, err
	}
	return t.TimeLeft(p), nil
}

// TimeLeft is how long the plan's constrained count should still take,
// from the units timed by EstimateCount: those not yet counted, timed or
// saved (see Resume), at the time the timed ones took each.
func (t *BoundPuzzle) TimeLeft(p *Plan) time.Duration {
	if p.run == nil {
		return 0
	}
	return p.run.TimeLeft(p.Workers)
}

// lineConstraint is the filter of a constrained row or column table as a
// constraint, and the row whose squares the table fixes in turn: a column
// C of the board is row C of the transposed board, whose solutions are the
// transposed solutions, so a column's table is a row's under the
// transposed filter.
func lineConstraint(t *BoundPuzzle, p *Plan) (base solve.Constraint, row int) {
	f, by := p.Question.Filter, p.Question.By
	if by.Kind != ByCol {
		return queensConstraint(t.Puzzle, f), by.Row - 1
	}
	f.Cells = slices.Clone(f.Cells)
	for i, c := range f.Cells {
		f.Cells[i].Row, f.Cells[i].Col = c.Col, c.Row
	}
	return queensConstraint(t.Puzzle, f), by.Col - 1
}

// explainConstrained describes a constrained count.
func explainConstrained(t *BoundPuzzle, p *Plan, r *PlanReport) {
	if p.Question.Ask == AskStats {
		base, _ := lineConstraint(t, p)
		squares, others := t.Puzzle.N, ""
		if base.Mirrored() {
			squares, others = (squares+1)/2, " (the others are their mirror images)"
		}
		line := fmt.Sprintf("row %d", p.Question.By.Row)
		if p.Question.By.Kind == ByCol {
			line = fmt.Sprintf("column %d", p.Question.By.Col)
		}
		r.Detail = append(r.Detail, fmt.Sprintf("answer: nothing is stored to read; counted again by the fast counter, the filter's squares fixed, once for each of %s of %s%s on %s",
			canon.Plural(int64(squares), "square"), line, others, canon.Plural(int64(p.Workers), "goroutine")))
		return
	}
	base := queensConstraint(t.Puzzle, p.Question.Filter)
	if p.Question.Filter.UpToSymmetry {
		r.Detail = append(r.Detail, fmt.Sprintf("answer: nothing is stored to read; counted again by the fast counter, the filter's squares fixed: the solutions of its distinct images among the 8, joined by inclusion and exclusion, on %s",
			canon.Plural(int64(p.Workers), "goroutine")))
		return
	}
	q, err := solve.NewCounter(base)
	if err != nil {
		r.Detail = append(r.Detail, "answer: "+err.Error())
		return
	}
	r.Detail = append(r.Detail, fmt.Sprintf("answer: nothing is stored to read; counted again by the %s, the filter's squares fixed: %s on %s",
		q.Method(), canon.Plural(int64(q.Units()), "unit"), canon.Plural(int64(p.Workers), "goroutine")))
}

// estimateLine says how long a constrained count should take, from a few
// of its units timed.
func (t *BoundPuzzle) estimateLine(ctx context.Context, p *Plan) string {
	if p.Question.Filter.UpToSymmetry {
		return "estimate: none (one count for each set of images that can meet)"
	}
	began := time.Now()
	took, err := t.EstimateCount(ctx, p)
	if err != nil {
		return "estimate: " + err.Error()
	}
	// The count times the same units again before it goes on.
	return "estimate: " + roughDuration(took+time.Since(began)) + " (from a few of its units, timed)"
}

// roughDuration writes d for people, roughly.
func roughDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return "under a second"
	case d < 1500*time.Millisecond:
		return "about a second"
	case d < time.Minute:
		return fmt.Sprintf("about %.0f seconds", d.Seconds())
	case d < 90*time.Second:
		return "about a minute"
	case d < time.Hour:
		return fmt.Sprintf("about %.0f minutes", d.Minutes())
	case d >= solve.LongestSearch:
		return fmt.Sprintf("over %.0f years", solve.LongestSearch.Hours()/(365*24))
	case d >= 2*365*24*time.Hour:
		return fmt.Sprintf("about %.0f years", d.Hours()/(365*24))
	case d >= 10*time.Hour:
		return "about " + canon.Thousands(int64(math.Round(d.Hours()))) + " hours"
	}
	return fmt.Sprintf("about %.1f hours", d.Hours())
}

// statsConstrained gives the distribution of the queen's column in a row
// (or row in a column, see lineConstraint) over the filter's solutions: a
// constrained count for each square of the line. When the filter is its
// own mirror image, the squares right of the centre count as their mirror
// images do.
func (t *BoundPuzzle) statsConstrained(ctx context.Context, p *Plan) ([]StatsRow, error) {
	n := t.Puzzle.N
	base, row := lineConstraint(t, p)
	mirrored := base.Mirrored()
	counters := make([]*solve.Counter, n)
	counts := make([]int64, n)
	total := 0
	for c := range n {
		if mirrored && c > n-1-c {
			continue
		}
		q := base.With(solve.Cell{Row: row + 1, Col: c + 1, Value: 1})
		kept, ok, err := t.cat.LookUpAnswer(ctx, t.Record.Name, solve.Question{Constraint: q}.Key())
		if err != nil {
			return nil, err
		}
		if ok {
			counts[c] = kept.Solutions
			continue
		}
		counter, err := solve.NewCounter(q)
		if err != nil {
			return nil, err
		}
		counters[c] = counter
		total += counter.Units()
	}
	done := 0
	for c, counter := range counters {
		if counter == nil {
			continue
		}
		began := time.Now()
		var err error
		counts[c], err = counter.Count(ctx, p.Workers, nil, func(int, int) {
			if done++; p.Progress != nil {
				p.Progress(done, total)
			}
		})
		if err != nil {
			return nil, err
		}
		f := p.Question.Filter
		square := Cell{Row: row + 1, Col: c + 1, Value: 1}
		if p.Question.By.Kind == ByCol {
			square.Row, square.Col = c+1, row+1 // the filter as asked, not transposed
		}
		f.Cells = append(slices.Clone(f.Cells), square)
		p.counted = append(p.counted, t.answer(p, f, counter.Question(), counts[c], counter.Method(), time.Since(began)))
	}
	acc := map[int][2]int64{}
	for c := range n {
		if mirrored && c > n-1-c {
			counts[c] = counts[n-1-c]
		}
		acc[c+1] = [2]int64{counts[c], -1} // classes are not counted
	}
	return finishStats(acc, p.Question.By), nil
}
