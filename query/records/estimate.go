package records

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/query"
)

// Estimate is an estimate to write: never as a bare number that could
// pass for an exact count, and beside the published counts or estimate
// of the puzzle, if it has them.
type Estimate struct {
	Puzzle canon.Puzzle
	Filter query.Filter
	Got    query.Estimated
	Again  string // text: the command that draws the same probes again
}

// WriteEstimate writes an estimate.
func WriteEstimate(w io.Writer, format Format, headers bool, e Estimate) error {
	p, f, got := e.Puzzle, e.Filter, e.Got
	known, hasKnown := canon.KnownCounts(p)
	hasKnown = hasKnown && f.IsZero()
	pub, hasPub := canon.KnownEstimate(p)
	hasPub = hasPub && f.IsZero()
	if format != Text {
		o := Obj("puzzle", p.String(), "filter", f.String(p), "exact", false)
		o = append(o, quantityFields("solutions", got.Solutions)...)
		if got.HasClasses {
			o = append(o, quantityFields("classes", got.Classes)...)
		}
		o = append(o, Obj("method", got.Method, "probes", got.Probes, "seconds", math.Round(got.Elapsed.Seconds()*1000)/1000,
			"workers", got.Workers, "seed", int64(got.Seed))...)
		if hasKnown {
			o = append(o, Obj("published_solutions", known.Solutions, "published_classes", known.Classes)...)
		}
		if hasPub {
			o = append(o, Obj("published_classes_estimate", pub.Classes, "published_classes_stderr", pub.StdErr, "published_source", pub.Source)...)
		}
		return WriteOne(w, format, headers, o)
	}
	what := p.String()
	if !f.IsZero() {
		what += " " + f.String(p)
	}
	fmt.Fprintf(w, "%s, estimated (not an exact count):\n", what)
	fmt.Fprintf(w, "  solutions  %s\n", describeQuantity(got.Solutions))
	if got.HasClasses {
		fmt.Fprintf(w, "  classes    %s\n", describeQuantity(got.Classes))
	}
	fmt.Fprintf(w, "  from %s probes in %s on %s, seed %d: %s\n", humanize.Comma(got.Probes), got.Elapsed.Round(time.Millisecond),
		canon.Plural(int64(got.Workers), "worker"), got.Seed, got.Method)
	fmt.Fprintf(w, "  the same numbers again: %s\n", e.Again)
	if hasKnown {
		fmt.Fprintf(w, "  published  %s solutions, %s classes (%s)\n", humanize.Comma(known.Solutions), humanize.Comma(known.Classes), sigmasOff(got.Solutions, float64(known.Solutions)))
	}
	if hasPub && got.HasClasses {
		off := (got.Classes.Mean - pub.Classes) / math.Hypot(got.Classes.StdErr, pub.StdErr)
		fmt.Fprintf(w, "  published estimate  %s classes, standard error %.2g%% (%s): %.1f combined standard errors from this one\n",
			digits(pub.Classes, pub.StdErr), 100*pub.StdErr/pub.Classes, pub.Source, off)
	}
	return nil
}

// EstimateProgress is the status line of an estimate under way.
func EstimateProgress(p canon.Puzzle, solutions query.Quantity, probes int64, elapsed time.Duration) string {
	return fmt.Sprintf("estimating %s: %s ± %.2g%%, %s probes, %s", p, digits(solutions.Mean, solutions.StdErr), 100*solutions.Relative(),
		humanize.Comma(probes), elapsed.Round(time.Second))
}

func quantityFields(name string, q query.Quantity) Object {
	lo, hi := q.Interval95()
	return Obj(name, q.Mean, name+"_stderr", q.StdErr, name+"_low95", lo, name+"_high95", hi)
}

// describeQuantity writes an estimate with as many digits as its error
// allows, the error relative and the 95% interval.
func describeQuantity(q query.Quantity) string {
	lo, hi := q.Interval95()
	if q.StdErr == 0 {
		return fmt.Sprintf("%s exactly (every probe counted the whole tree)", digits(q.Mean, q.StdErr))
	}
	return fmt.Sprintf("%s, standard error %.2g%%, 95%% interval %s to %s", digits(q.Mean, q.StdErr), 100*q.Relative(),
		digits(lo, q.StdErr), digits(hi, q.StdErr))
}

// digits writes v to the digit its error se still leaves meaningful, and
// one more.
func digits(v, se float64) string {
	if v == 0 || math.IsInf(se, 0) || math.IsNaN(se) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	if se == 0 || math.Abs(v) < 1e15 && se < 0.5 {
		return humanize.Comma(int64(math.Round(v)))
	}
	sig := int(math.Floor(math.Log10(math.Abs(v)))-math.Floor(math.Log10(se))) + 2
	sig = max(2, min(sig, 15))
	return strconv.FormatFloat(v, 'e', sig-1, 64)
}

// sigmasOff says how far an estimate lies from the published count.
func sigmasOff(q query.Quantity, exact float64) string {
	if q.StdErr == 0 {
		if q.Mean == exact {
			return "the estimate is exact"
		}
		return "the estimate differs"
	}
	return fmt.Sprintf("the estimate is %.1f standard errors off", (q.Mean-exact)/q.StdErr)
}
