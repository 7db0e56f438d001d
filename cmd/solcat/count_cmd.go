package main

import (
	"fmt"

	"solcat/cmd/solcat/cliparse"
	"solcat/query"
	"solcat/query/records"
)

type countCmd struct {
	Puzzle  string `arg:"" predictor:"puzzle" help:"The puzzle, for example magic:4."`
	Classes bool   `help:"Count the classes with at least one matching member instead of solutions."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
}

func (c *countCmd) Help() string { return helpText("count") }

func (c *countCmd) Run(e *env) error {
	format, err := c.Chosen()
	if err != nil {
		return err
	}
	q := query.Question{Ask: query.AskCount}
	of := "solutions"
	if c.Classes {
		q.Ask, of = query.AskCountClasses, "classes"
	}
	t, plan, done, err := e.planned(c.Puzzle, c.FilterFlags, q)
	if err != nil {
		return err
	}
	defer done()
	if c.Explain {
		return e.explain(t, plan, format)
	}
	n, err := t.Count(e.ctx, plan)
	if err != nil {
		return err
	}
	if format == records.Text {
		_, err = fmt.Fprintln(e.stdout, n)
		return err
	}
	return records.WriteOne(e.stdout, format, !c.NoHeaders, records.Obj("puzzle", t.Puzzle.String(), "of", of, "count", n))
}
