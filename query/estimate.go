package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/solve"
)

// Estimates: counts past exact reach by the Monte Carlo probes of the
// estimators (solve.Estimate; see docs/algorithms.md, "Estimates"). They
// need no catalog, and are kept in one as answers of their own kind, never
// mixed with exact counts.

// An EstimateQuestion is a puzzle and a filter of fixed cells to estimate.
type EstimateQuestion struct {
	Puzzle canon.Puzzle
	Filter Filter
}

// Quantity is an estimated number with its standard error.
type Quantity = solve.Quantity

// EstimateOptions say when an estimate stops, how it draws its probes and
// on how many goroutines.
type EstimateOptions = solve.EstimateOptions

// Estimated is a finished estimate and the record the catalog keeps of it.
type Estimated struct {
	solve.EstimateResult
	Method  string
	Record  catalog.Estimate
	Workers int
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

// estimation is q as the estimators take it.
func (q EstimateQuestion) estimation() (solve.Estimate, error) {
	if err := q.checkEstimable(); err != nil {
		return solve.Estimate{}, err
	}
	return solve.NewEstimate(q.Puzzle, solverCells(q.Filter))
}

// Estimate runs the estimate of q until a stop in opt.
func Estimate(ctx context.Context, q EstimateQuestion, opt EstimateOptions) (Estimated, error) {
	est, err := q.estimation()
	if err != nil {
		return Estimated{}, err
	}
	// Stopped (Ctrl-C), the estimate so far comes back with the error.
	r, err := est.Run(ctx, opt)
	out := Estimated{EstimateResult: r, Method: est.Method, Workers: opt.Workers}
	out.Record = estimateRecord(q, est, out)
	return out, err
}

// Unestimable says why q cannot be estimated, or nil, before anything runs.
func Unestimable(q EstimateQuestion) error {
	_, err := q.estimation()
	return err
}

func estimateRecord(q EstimateQuestion, est solve.Estimate, e Estimated) catalog.Estimate {
	lo, hi := e.Solutions.Interval95()
	rec := catalog.Estimate{Puzzle: q.Puzzle.String(), Question: est.Question, Filter: q.Filter.String(q.Puzzle),
		Solutions: e.Solutions.Mean, SolutionsSE: e.Solutions.StdErr, SolutionsLow: lo, SolutionsHigh: hi,
		Method: est.Method, Seed: int64(e.Seed), Probes: e.Probes, Seconds: e.Elapsed.Seconds(), Workers: e.Workers}
	if e.HasClasses {
		lo, hi := e.Classes.Interval95()
		mean, se := e.Classes.Mean, e.Classes.StdErr
		rec.Classes, rec.ClassesSE, rec.ClassesLow, rec.ClassesHigh = &mean, &se, &lo, &hi
	}
	return rec
}

// ExplainEstimate says how q would be estimated and when the run stops,
// without running it.
func ExplainEstimate(q EstimateQuestion, opt EstimateOptions) PlanReport {
	est, _ := q.estimation()
	r := PlanReport{Puzzle: q.Puzzle.String(), Storage: "none", Way: "estimate", Workers: opt.Workers}
	r.Detail = append(r.Detail, "answer: an estimate, not an exact count: the mean of random probes, each an unbiased sample of the count")
	r.Detail = append(r.Detail, "method: "+est.Method)
	r.Detail = append(r.Detail, "probes of: "+strings.Join(est.Terms(), ", "))
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
