package main

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/console"
	"solcat/enumerate"
	"solcat/query"
	"solcat/query/records"
)

type estimateCmd struct {
	Puzzle    string         `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:30 or magic:6."`
	Time      *time.Duration `name:"time" placeholder:"D" help:"Stop after this long, for example 30s or 10m (default 10s when no other stop is given)."`
	Precision string         `name:"precision" placeholder:"P" help:"Stop when the standard error is at most P of the estimate: 0.01 or 1%."`
	Probes    *int64         `name:"probes" placeholder:"K" help:"Stop after K probes; with the same --seed the run is repeated exactly."`
	Seed      int64          `name:"seed" default:"1" help:"Seed of the probes (0 or more). The same seed draws the same probes; use others for independent runs."`
	Workers   int            `help:"Probing goroutines, 1 to 1024 (default: one per core). The numbers are the same for any value." default:"0"`
	Cell      []string       `name:"cell" sep:"none" placeholder:"R,C=V" help:"Cell ROW,COL holds V (1-based; queens: 1 queen, 0 empty). Repeatable."`
	Pattern   string         `name:"pattern" placeholder:"GRID" help:"Cells to match, as in count."`
	cliparse.ExplainFlag
	cliparse.FormatFlags
	stop error // set when Ctrl-C ends the run: the estimate so far is kept
}

func (c *estimateCmd) Help() string { return helpText("estimate") }

// interrupted makes estimate a command that saves work: Ctrl-C ends the
// probing, and the estimate so far is printed and kept.
func (c *estimateCmd) interrupted() error { return c.stop }

// defaultEstimateTime is the run of an estimate given no stop.
const defaultEstimateTime = 10 * time.Second

func (c *estimateCmd) options() (enumerate.EstimateOptions, error) {
	opt := enumerate.EstimateOptions{Workers: c.Workers}
	if c.Time != nil {
		opt.Time = *c.Time
	}
	if c.Probes != nil {
		opt.Probes = *c.Probes
	}
	switch {
	case c.Time != nil && opt.Time <= 0:
		return opt, usagef("--time %v is not a time to run for; give a duration such as 30s or 10m", opt.Time)
	case c.Probes != nil && opt.Probes <= 0:
		return opt, usagef("--probes %d is not a number of probes; give 1 or more", opt.Probes)
	case c.Seed < 0:
		return opt, usagef("--seed %d is negative; give a seed of 0 or more", c.Seed)
	case c.Workers < 0 || c.Workers > 1024:
		return opt, usagef("--workers %d is out of range; give 1 to 1024, or 0 for one per core (%d here)", c.Workers, runtime.NumCPU())
	}
	opt.Seed = uint64(c.Seed)
	if c.Precision != "" {
		text := strings.TrimSpace(c.Precision)
		scale := 1.0
		if strings.HasSuffix(text, "%") {
			text, scale = strings.TrimSuffix(text, "%"), 0.01
		}
		p, err := strconv.ParseFloat(text, 64)
		if err != nil || !(p*scale > 0 && p*scale < 1) {
			return opt, usagef("--precision %q is not a fraction between 0 and 1; write 0.01 or 1%%", c.Precision)
		}
		opt.Precision = p * scale
	}
	if opt.Time == 0 && opt.Precision == 0 && opt.Probes == 0 {
		opt.Time = defaultEstimateTime
	}
	if opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	return opt, nil
}

func (c *estimateCmd) Run(e *env) error {
	format, err := c.Chosen()
	if err != nil {
		return err
	}
	p, err := canon.ParsePuzzle(c.Puzzle)
	if err != nil {
		return err
	}
	opt, err := c.options()
	if err != nil {
		return err
	}
	f, err := query.ParseFilter(p, query.FilterText{Cells: c.Cell, Pattern: c.Pattern})
	if err != nil {
		return err
	}
	q := query.EstimateQuestion{Puzzle: p, Filter: f}
	if err := query.Unestimable(q); err != nil {
		return advice.UsageOf(err) // nothing has run: a size or filter the estimators do not take
	}
	if c.Explain {
		return records.WriteExplain(e.stdout, format, query.ExplainEstimate(q, opt))
	}
	status := console.NewStatusLine(e.stderr)
	opt.Progress = func(r enumerate.EstimateResult) {
		status.Show(fmt.Sprintf("estimating %s: %s ± %.2g%%, %s probes, %s", p, estimateNumber(r.Solutions), 100*r.Solutions.Relative(),
			humanize.Comma(r.Probes), r.Elapsed.Round(time.Second)))
	}
	got, err := query.Estimate(e.ctx, q, opt)
	status.Finish()
	if err != nil && e.ctx.Err() == nil {
		return err
	}
	if e.ctx.Err() != nil {
		console.Interrupted(e.ctx, e.stderr)
		if got.Probes < 2 {
			return fmt.Errorf("%w before two probes were done; nothing was recorded", advice.ErrInterrupted)
		}
		c.stop = fmt.Errorf("%w after %s probes: the estimate so far is printed above", advice.ErrInterrupted, humanize.Comma(got.Probes))
	}
	if got.Elapsed >= keepAfter && e.mayKeep() {
		e.keepEstimate(got.Record)
	}
	if err := c.print(e, format, p, f, got); err != nil {
		return err
	}
	return c.stop
}

// print writes the estimate: never as a bare number that could pass for
// an exact count.
func (c *estimateCmd) print(e *env, format records.Format, p canon.Puzzle, f query.Filter, got query.Estimated) error {
	known, hasKnown := canon.KnownCounts(p)
	hasKnown = hasKnown && f.IsZero()
	if format != records.Text {
		o := records.Obj("puzzle", p.String(), "filter", f.String(p), "exact", false)
		o = append(o, quantityFields("solutions", got.Solutions)...)
		if got.HasClasses {
			o = append(o, quantityFields("classes", got.Classes)...)
		}
		o = append(o, records.Obj("method", got.Method, "probes", got.Probes, "seconds", math.Round(got.Elapsed.Seconds()*1000)/1000,
			"workers", got.Workers, "seed", int64(got.Seed))...)
		if hasKnown {
			o = append(o, records.Obj("published_solutions", known.Solutions, "published_classes", known.Classes)...)
		}
		if pub, ok := publishedEstimates[p.String()]; ok && f.IsZero() {
			o = append(o, records.Obj("published_classes_estimate", pub.classes, "published_classes_stderr", pub.stdErr, "published_source", pub.source)...)
		}
		return records.WriteOne(e.stdout, format, !c.NoHeaders, o)
	}
	w := e.stdout
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
	fmt.Fprintf(w, "  the same numbers again: solcat estimate %s --seed %d --probes %d\n", strings.Join(estimateArgs(p, c), " "), got.Seed, got.Probes)
	if hasKnown {
		fmt.Fprintf(w, "  published  %s solutions, %s classes (%s)\n", humanize.Comma(known.Solutions), humanize.Comma(known.Classes), sigmasOff(got.Solutions, float64(known.Solutions)))
	}
	if pub, ok := publishedEstimates[p.String()]; ok && f.IsZero() && got.HasClasses {
		off := (got.Classes.Mean - pub.classes) / math.Hypot(got.Classes.StdErr, pub.stdErr)
		fmt.Fprintf(w, "  published estimate  %s classes, standard error %.2g%% (%s): %.1f combined standard errors from this one\n",
			digits(pub.classes, pub.stdErr), 100*pub.stdErr/pub.classes, pub.source, off)
	}
	return nil
}

// publishedEstimates are estimates others published of counts nobody has
// made exactly, printed beside solcat's to compare.
var publishedEstimates = map[string]struct {
	classes, stdErr float64
	source          string
}{
	"magic:6": {0.17745e20, 0.00016e20, "Pinn and Wieczerkowski, Int. J. Mod. Phys. C 9 (1998) 541"},
	"magic:7": {3.7982e34, 0.0004e34, "Walter Trump's estimate, OEIS A006052"},
}

func estimateArgs(p canon.Puzzle, c *estimateCmd) []string {
	args := []string{p.String()}
	for _, cell := range c.Cell {
		args = append(args, "--cell", cell)
	}
	if c.Pattern != "" {
		args = append(args, "--pattern", strconv.Quote(c.Pattern))
	}
	return args
}

func quantityFields(name string, q enumerate.Quantity) records.Object {
	lo, hi := q.Interval95()
	return records.Obj(name, q.Mean, name+"_stderr", q.StdErr, name+"_low95", lo, name+"_high95", hi)
}

// describeQuantity writes an estimate with as many digits as its error
// allows, the error relative and the 95% interval.
func describeQuantity(q enumerate.Quantity) string {
	lo, hi := q.Interval95()
	if q.StdErr == 0 {
		return fmt.Sprintf("%s exactly (every probe counted the whole tree)", estimateNumber(q))
	}
	return fmt.Sprintf("%s, standard error %.2g%%, 95%% interval %s to %s", estimateNumber(q), 100*q.Relative(),
		digits(lo, q.StdErr), digits(hi, q.StdErr))
}

func estimateNumber(q enumerate.Quantity) string { return digits(q.Mean, q.StdErr) }

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
func sigmasOff(q enumerate.Quantity, exact float64) string {
	if q.StdErr == 0 {
		if q.Mean == exact {
			return "the estimate is exact"
		}
		return "the estimate differs"
	}
	return fmt.Sprintf("the estimate is %.1f standard errors off", (q.Mean-exact)/q.StdErr)
}

// keepEstimate records an estimate in the catalog, creating it if need be,
// and says where. The estimate is printed already: a catalog that cannot
// be written is only noted.
func (e *env) keepEstimate(rec catalog.Estimate) {
	err := e.writeCatalog(rec.Puzzle, func(ctx context.Context, cat *catalog.Catalog) error { return cat.Kept().Keep(ctx, rec) })
	if err != nil {
		fmt.Fprintf(e.stderr, "solcat: the estimate was not kept in the catalog (%v)\n", err)
		return
	}
	fmt.Fprintf(e.stderr, "solcat: the estimate is kept in %s ('solcat info' lists it)\n", e.cli.DB)
}
