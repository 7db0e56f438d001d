package query

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// Estimates: counts past exact reach by the Monte Carlo probes of
// enumerate's estimators (see docs/algorithms.md, "Estimates"). They need
// no catalog, and are kept in one as answers of their own kind, never
// mixed with exact counts.

// An EstimateQuestion is a puzzle and a filter of fixed cells to estimate.
type EstimateQuestion struct {
	Puzzle canon.Puzzle
	Filter Filter
}

// Quantity is an estimated number with its standard error.
type Quantity = enumerate.Quantity

// EstimateOptions say when an estimate stops, how it draws its probes and
// on how many goroutines.
type EstimateOptions = enumerate.EstimateOptions

// Estimated is a finished estimate and the record the catalog keeps of it.
type Estimated struct {
	enumerate.EstimateResult
	Method  string
	Record  catalog.Estimate
	Workers int
}

// estimation is a question as the estimator takes it: its terms and the
// key every spelling and image of it shares.
type estimation struct {
	terms    []enumerate.EstimateTerm
	question []byte
	method   string
}

// checkEstimable refuses what the estimators do not take: only cell
// conditions, matched as written.
func (q EstimateQuestion) checkEstimable() error {
	f := q.Filter
	switch {
	case f.UpToSymmetry:
		return badFilter("up-to-symmetry", "", "estimates take cell conditions as written, not up to symmetry")
	case f.Class != 0 || f.Orbit != 0 || f.Props != 0:
		return badFilter("class, orbit or prop", "", "estimates take cell conditions only; classes, orbits and properties need a built puzzle")
	}
	return f.Validate(q.Puzzle)
}

func (q EstimateQuestion) estimation() (estimation, error) {
	if err := q.checkEstimable(); err != nil {
		return estimation{}, err
	}
	p := q.Puzzle
	switch p.Kind {
	case canon.Queens:
		if p.N > enumerate.MaxConstrainedQueens {
			return estimation{}, fmt.Errorf("queens are estimated up to N=%d", enumerate.MaxConstrainedQueens)
		}
		// The canonical image is estimated, so that every spelling of a
		// question, and every image of it, draws the same probes.
		c := queensConstraint(p, q.Filter).Canonical()
		terms, err := enumerate.QueensEstimate(c)
		return estimation{terms: terms, question: c.Key(), method: enumerate.QueensEstimateMethod(p.N)}, err
	case canon.Magic:
		cells, key := canonicalMagicCells(p, q.Filter)
		prober, err := enumerate.NewMagicProber(p.N, cells)
		if err != nil {
			return estimation{}, err
		}
		t := enumerate.EstimateTerm{Name: "squares", Prober: prober, Share: 1, Solutions: 1}
		if len(cells) == 0 {
			// No square of order 2 or more is its own image under a
			// symmetry (two cells would hold one value): each class has 8.
			t.Classes = 1.0 / 8
			if p.N == 1 {
				t.Classes = 1
			}
		}
		return estimation{terms: []enumerate.EstimateTerm{t}, question: key, method: enumerate.MagicEstimateMethod(p.N, len(cells))}, nil
	}
	return estimation{}, fmt.Errorf("%s cannot be estimated", p)
}

// canonicalMagicCells is the image of the filter's cells, of the 8, whose
// key is least, 0-based, with that key: the squares of a filter and of its
// images are equal in number, so they are one question, and every
// spelling draws the same probes.
func canonicalMagicCells(p canon.Puzzle, f Filter) ([]enumerate.MagicCell, []byte) {
	var best []enumerate.MagicCell
	var bestKey []byte
	for _, s := range canon.All {
		cells := make([]enumerate.MagicCell, 0, len(f.Cells))
		for _, c := range f.Cells {
			r, col := s.Map(p.N, c.Row-1, c.Col-1)
			cells = append(cells, enumerate.MagicCell{Row: r, Col: col, Value: c.Value})
		}
		slices.SortFunc(cells, func(a, b enumerate.MagicCell) int {
			return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Value, b.Value))
		})
		key := []byte{'M', byte(p.N)}
		for _, c := range cells {
			key = append(key, byte(c.Row), byte(c.Col), byte(c.Value))
		}
		if bestKey == nil || string(key) < string(bestKey) {
			best, bestKey = cells, key
		}
	}
	return best, bestKey
}

// Estimate runs the estimate of q until a stop in opt.
func Estimate(ctx context.Context, q EstimateQuestion, opt enumerate.EstimateOptions) (Estimated, error) {
	est, err := q.estimation()
	if err != nil {
		return Estimated{}, err
	}
	// Stopped (Ctrl-C), the estimate so far comes back with the error.
	r, err := enumerate.RunEstimate(ctx, est.terms, opt)
	out := Estimated{EstimateResult: r, Method: est.method, Workers: opt.Workers}
	out.Record = estimateRecord(q, est, out)
	return out, err
}

// Unestimable says why q cannot be estimated, or nil, before anything runs.
func Unestimable(q EstimateQuestion) error {
	_, err := q.estimation()
	return err
}

func estimateRecord(q EstimateQuestion, est estimation, e Estimated) catalog.Estimate {
	lo, hi := e.Solutions.Interval95()
	rec := catalog.Estimate{Puzzle: q.Puzzle.String(), Question: est.question, Filter: q.Filter.String(q.Puzzle),
		Solutions: e.Solutions.Mean, SolutionsSE: e.Solutions.StdErr, SolutionsLow: lo, SolutionsHigh: hi,
		Method: est.method, Seed: int64(e.Seed), Probes: e.Probes, Seconds: e.Elapsed.Seconds(), Workers: e.Workers}
	if e.HasClasses {
		lo, hi := e.Classes.Interval95()
		mean, se := e.Classes.Mean, e.Classes.StdErr
		rec.Classes, rec.ClassesSE, rec.ClassesLow, rec.ClassesHigh = &mean, &se, &lo, &hi
	}
	return rec
}

// ExplainEstimate says how q would be estimated and when the run stops,
// without running it.
func ExplainEstimate(q EstimateQuestion, opt enumerate.EstimateOptions) PlanReport {
	est, _ := q.estimation()
	r := PlanReport{Puzzle: q.Puzzle.String(), Storage: "none", Way: "estimate", Workers: opt.Workers}
	r.Detail = append(r.Detail, "answer: an estimate, not an exact count: the mean of random probes, each an unbiased sample of the count")
	r.Detail = append(r.Detail, "method: "+est.method)
	var terms []string
	for _, t := range est.terms {
		terms = append(terms, t.Name)
	}
	r.Detail = append(r.Detail, "probes of: "+strings.Join(terms, ", "))
	var stops []string
	if opt.Time > 0 {
		stops = append(stops, "after "+opt.Time.String())
	}
	if opt.Precision > 0 {
		stops = append(stops, fmt.Sprintf("at a standard error of %.3g%%", 100*opt.Precision))
	}
	if opt.Probes > 0 {
		stops = append(stops, fmt.Sprintf("after %s probes", humanize.Comma(opt.Probes)))
	}
	r.Detail = append(r.Detail, fmt.Sprintf("stops: %s, whichever comes first (or at Ctrl-C, keeping the probes so far); seed %d", strings.Join(stops, " or "), opt.Seed))
	return r
}
