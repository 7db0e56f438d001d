package main

import (
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query"
	"solcat/query/records"
)

type listCmd struct {
	Puzzle string `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:6."`
	cliparse.FilterFlags
	cliparse.LimitFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
}

func (l *listCmd) Help() string { return help.Text("list") }

func (l *listCmd) Run(e *env) error {
	format := l.Format
	page, err := l.Window()
	if err != nil {
		return err
	}
	t, plan, done, err := e.planned(l.Puzzle, l.FilterFlags, query.Question{Ask: query.AskList, Window: page})
	if err != nil {
		return err
	}
	defer done()
	if l.Explain {
		return e.explain(t, plan, format)
	}
	w := records.NewSolutionWriter(e.stdout, format, t.Puzzle, !l.NoHeaders)
	if err := t.List(e.ctx, plan, w.Write); err != nil {
		return err
	}
	return w.Close()
}
