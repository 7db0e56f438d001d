package main

import (
	"fmt"
	"time"

	"solcat/canon"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/console"
	"solcat/cmd/solcat/help"
	"solcat/query"
	"solcat/query/records"
)

type statsCmd struct {
	Puzzle string `arg:"" predictor:"puzzle" help:"The puzzle, for example magic:4."`
	By     string `required:"" placeholder:"WHAT" predictor:"by" help:"cell (every cell at once, drawn as a grid: the heat map), cell:R,C (the cell's value; queens: 1 queen, 0 empty), row:R (queens: the queen's column), col:C (queens: the queen's row), orbit, prop:NAME (1 if the property holds, else 0) or group (magic:4: Dudeney group 1-12)."`
	ASCII  bool   `name:"ascii" help:"Draw the bars with # instead of █."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
}

func (s *statsCmd) Help() string { return help.Text("stats") }

func (s *statsCmd) Run(e *env) error {
	format := s.Format
	p, err := canon.ParsePuzzle(s.Puzzle)
	if err != nil {
		return err
	}
	by, err := query.ParseStatsBy(p, s.By)
	if err != nil {
		return err
	}
	t, plan, done, err := e.planned(s.Puzzle, s.FilterFlags, query.Question{Ask: query.AskStats, By: by})
	if err != nil {
		return err
	}
	defer done()
	if s.Explain {
		return e.explain(t, plan, format)
	}
	if by.Kind == query.ByHeatmap {
		counts, err := t.Heatmap(e.ctx, plan)
		if err != nil {
			return err
		}
		return records.WriteHeatmap(e.stdout, format, records.Heatmap{Puzzle: t.Puzzle, Filter: plan.Question.Filter.String(t.Puzzle), Counts: counts, Headers: !s.NoHeaders, ASCII: s.ASCII})
	}
	began := time.Now()
	if plan.Way == query.ConstrainedCount {
		e.longStats(t, plan)
	}
	rows, err := t.Stats(e.ctx, plan)
	if err != nil {
		// The columns counted before a Ctrl-C are kept: the same command
		// counts only the others. It is said once, as what was kept.
		if kept := t.Counted(plan); len(kept) > 0 && e.ctx.Err() != nil {
			done()
			e.keep(kept)
			console.Interrupted(e.ctx, e.stderr)
			return fmt.Errorf("%w; %s counted and kept, and the same command counts the rest", advice.ErrInterrupted, canon.Plural(int64(len(kept)), "column"))
		}
		return e.stopped(err)
	}
	if time.Since(began) >= keepAfter {
		done() // this process's reader lets go before it writes
		e.keep(t.Counted(plan))
	}
	return records.WriteStats(e.stdout, format, records.StatsTable{Puzzle: t.Puzzle, By: by, Given: s.By,
		Filter: plan.Question.Filter.String(t.Puzzle), Rows: rows, Headers: !s.NoHeaders, ASCII: s.ASCII})
}

// longStatsFrom is the least N whose row tables draw their progress (tests
// lower it, to stop a smaller table part way).
var longStatsFrom = 18

// longStats draws the progress of a row's constrained counts; on queens:18
// and above they take from seconds to hours.
func (e *env) longStats(t *query.BoundPuzzle, plan *query.Plan) {
	if t.Puzzle.N < longStatsFrom {
		return
	}
	fmt.Fprintf(e.stderr, "solcat: %s is recorded by its counts only: counting each column's solutions again; Ctrl-C stops\n", t.Puzzle)
	e.drawCounting(plan)
	if unitCounted != nil {
		draw := plan.Progress
		plan.Progress = func(done, total int) {
			draw(done, total)
			unitCounted(done)
		}
	}
}
