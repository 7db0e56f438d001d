package verify

import (
	"context"
	"fmt"
	"math"

	"solcat/canon"
	"solcat/catalog"
)

// farOff is how many standard errors from an exact count an estimate may
// lie before verify calls it wrong: by chance, less than once in a million.
const farOff = 5

// estimates checks the kept estimates: each record whole (its interval
// the one its error gives, its effort real), and each estimate of a count
// known exactly (recorded in the catalog, or published) near that count.
func estimates(ctx context.Context, cat *catalog.Catalog, recs []catalog.Record) ([]string, error) {
	kept, err := cat.Kept().Estimates(ctx, "")
	if err != nil {
		return nil, err
	}
	exact := map[string]catalog.Record{}
	for _, r := range recs {
		exact[r.Name] = r
	}
	var problems []string
	for _, e := range kept {
		what := e.Puzzle
		if e.Filter != "" {
			what += " " + e.Filter
		}
		say := func(format string, args ...any) {
			problems = append(problems, fmt.Sprintf("the estimate kept for %s (seed %d): %s", what, e.Seed, fmt.Sprintf(format, args...)))
		}
		if why := wholeEstimate(e); why != "" {
			say("%s", why)
		} else {
			problems = append(problems, estimateOff(e, exact)...)
		}
		if e.Unsealed {
			say("it does not match its seal: a field of it was changed behind solcat's back")
		}
	}
	return problems, nil
}

// estimateOff checks an estimate of a count known exactly (recorded in
// the catalog, or published) against that count.
func estimateOff(e catalog.Estimate, exact map[string]catalog.Record) (problems []string) {
	say := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf("the estimate kept for %s (seed %d): %s", e.Puzzle, e.Seed, fmt.Sprintf(format, args...)))
	}
	if e.Filter != "" {
		return nil
	}
	var solutions, classes int64
	if r, ok := exact[e.Puzzle]; ok {
		solutions, classes = r.Solutions, r.Classes
	} else if p, err := canon.ParsePuzzle(e.Puzzle); err == nil {
		if k, ok := canon.KnownCounts(p); ok {
			solutions, classes = k.Solutions, k.Classes
		} else {
			return nil
		}
	}
	if off := (e.Solutions - float64(solutions)) / e.SolutionsSE; math.Abs(off) > farOff || e.SolutionsSE == 0 && e.Solutions != float64(solutions) {
		say("%.6g solutions is %.1f standard errors from the exact %d", e.Solutions, off, solutions)
	}
	if e.Classes != nil && e.ClassesSE != nil && *e.ClassesSE > 0 {
		if off := (*e.Classes - float64(classes)) / *e.ClassesSE; math.Abs(off) > farOff {
			say("%.6g classes is %.1f standard errors from the exact %d", *e.Classes, off, classes)
		}
	}
	return problems
}

// wholeEstimate says what is wrong with an estimate's record, or "".
func wholeEstimate(e catalog.Estimate) string {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-9 }
	switch {
	case e.Probes < 2 || e.Seconds < 0 || e.Workers < 1:
		return fmt.Sprintf("its effort (%d probes, %.1f s, %d workers) is not that of a run", e.Probes, e.Seconds, e.Workers)
	case !(e.SolutionsSE >= 0) || math.IsInf(e.SolutionsSE, 0) || e.Solutions < 0:
		return fmt.Sprintf("its solutions %g with standard error %g are not an estimate", e.Solutions, e.SolutionsSE)
	case !near(e.SolutionsLow, e.Solutions-1.96*e.SolutionsSE) || !near(e.SolutionsHigh, e.Solutions+1.96*e.SolutionsSE):
		return fmt.Sprintf("its 95%% interval %g to %g is not the one its standard error gives", e.SolutionsLow, e.SolutionsHigh)
	case (e.Classes == nil) != (e.ClassesSE == nil) || (e.Classes == nil) != (e.ClassesLow == nil) || (e.Classes == nil) != (e.ClassesHigh == nil):
		return "its classes are recorded in part"
	}
	return ""
}
