package main

import (
	"fmt"

	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query"
	"solcat/query/records"
)

type classesCmd struct {
	Puzzle string `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:8."`
	cliparse.FilterFlags
	cliparse.LimitFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
}

func (c *classesCmd) Help() string { return help.Text("classes") }

func (c *classesCmd) Run(e *env) error {
	format := c.Format
	page, err := c.Window()
	if err != nil {
		return err
	}
	t, plan, done, err := e.planned(c.Puzzle, c.FilterFlags, query.Question{Ask: query.AskClasses, Window: page})
	if err != nil {
		return err
	}
	defer done()
	if c.Explain {
		return e.explain(t, plan, format)
	}
	w := records.NewClassWriter(e.stdout, format, t.Puzzle, t.Record.Classes, !c.NoHeaders)
	if format == records.Text && !c.NoHeaders {
		fmt.Fprintln(e.stdout, records.ClassesHeading(t.Puzzle))
	}
	if err := t.Classes(e.ctx, plan, w.Write); err != nil {
		return err
	}
	return w.Close()
}
