package main

import (
	"solcat/canon"
	"solcat/cmd/solcat/cliparse"
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
	rows, err := e.keeper().Stats(e.ctx, t, plan, done)
	if err != nil {
		return err
	}
	return records.WriteStats(e.stdout, format, records.StatsTable{Puzzle: t.Puzzle, By: by, Given: s.By,
		Filter: plan.Question.Filter.String(t.Puzzle), Rows: rows, Headers: !s.NoHeaders, ASCII: s.ASCII})
}
