package main

import (
	"context"
	"fmt"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/console"
	"solcat/cmd/solcat/help"
	"solcat/enumerate"
	"solcat/query"
	"solcat/query/keeper"
	"solcat/query/records"
)

type estimateCmd struct {
	Puzzle string `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:30 or magic:6."`
	cliparse.ProbeFlags
	cliparse.CellFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
	stop error // set when Ctrl-C ends the run: the estimate so far is kept
}

func (c *estimateCmd) Help() string { return help.Text("estimate") }

// interrupted makes estimate a command that saves work: Ctrl-C ends the
// probing, and the estimate so far is printed and kept.
func (c *estimateCmd) interrupted() error { return c.stop }

func (c *estimateCmd) Run(ctx context.Context, e *env) error {
	p, err := canon.ParsePuzzle(c.Puzzle)
	if err != nil {
		return err
	}
	opt, err := c.Options()
	if err != nil {
		return err
	}
	f, err := c.Filter(p)
	if err != nil {
		return err
	}
	q := query.EstimateQuestion{Puzzle: p, Filter: f}
	if err := query.Unestimable(q); err != nil {
		return advice.UsageOf(err) // nothing has run: a size or filter the estimators do not take
	}
	if c.Explain {
		return records.WriteExplain(e.stdout, c.Format, query.ExplainEstimate(q, opt))
	}
	status := console.NewStatusLine(e.stderr)
	opt.Progress = func(r enumerate.EstimateResult) {
		status.Show(records.EstimateProgress(p, r.Solutions, r.Probes, r.Elapsed))
	}
	got, err := query.Estimate(ctx, q, opt)
	if status.Finish(); err != nil && ctx.Err() == nil {
		return err
	}
	if ctx.Err() != nil {
		console.Interrupted(ctx, e.stderr)
		if got.Probes < 2 {
			return fmt.Errorf("%w before two probes were done; nothing was recorded", advice.ErrInterrupted)
		}
		c.stop = fmt.Errorf("%w after %s probes: the estimate so far is printed above", advice.ErrInterrupted, humanize.Comma(got.Probes))
	}
	if got.Elapsed >= keeper.KeepAfter && e.keeper().KeepEstimate(ctx, got.Record) {
		fmt.Fprintf(e.stderr, "solcat: the estimate is kept in %s ('solcat info' lists it)\n", e.DB)
	}
	again := fmt.Sprintf("solcat estimate %s%s --seed %d --probes %d", p, c.CellFlags, got.Seed, got.Probes)
	if err := records.WriteEstimate(e.stdout, c.Format, !c.NoHeaders, records.Estimate{Puzzle: p, Filter: f, Got: got, Again: again}); err != nil {
		return err
	}
	return c.stop
}
