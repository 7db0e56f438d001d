package main

import (
	"fmt"

	"solcat/canon"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query"
	"solcat/query/keeper"
	"solcat/query/records"
)

type countCmd struct {
	Puzzle  string `arg:"" predictor:"puzzle" help:"The puzzle, for example magic:4."`
	Classes bool   `help:"Count the classes with at least one matching member instead of solutions."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
}

func (c *countCmd) Help() string { return help.Text("count") }

func (c *countCmd) Run(e *env) error {
	format, err := c.Chosen()
	if err != nil {
		return err
	}
	if u, ok, err := c.unrecorded(e); err != nil || ok {
		if err != nil {
			return keeper.Stopped(e.ctx, err) // judging a count may be stopped by Ctrl-C
		}
		return c.countUnrecorded(e, u, format)
	}
	q, of := query.Question{Ask: query.AskCount}, "solutions"
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
	n, err := e.keeper().Count(e.ctx, t, plan, done)
	if err != nil {
		return err
	}
	return c.print(e, format, t.Puzzle.String(), of, n)
}

// unrecorded gives the count that needs nothing stored, if the question
// is one (query.PlanUnrecorded): a filter on queens too large to count
// whole, or a board property of queens not stored.
func (c *countCmd) unrecorded(e *env) (query.Unrecorded, bool, error) {
	p, err := canon.ParsePuzzle(c.Puzzle)
	if err != nil {
		return nil, false, nil // the catalog's way says what is wrong
	}
	f, err := c.Filter(p)
	if !query.PastReach(p) && (err != nil || !query.BoardAsked(p, f) && !query.FilterCounted(p, f)) {
		return nil, false, nil // the catalog answers, or says what is wrong
	} else if err != nil {
		return nil, false, err
	}
	cat, err := e.Reading(e.ctx)
	if cat != nil {
		defer cat.Close()
	}
	if err != nil {
		return nil, false, err
	}
	return query.PlanUnrecorded(e.ctx, cat, p, f, c.Classes, e.workers())
}

// countUnrecorded answers a count that needs nothing stored from the
// answer kept, or runs it and keeps its answer.
func (c *countCmd) countUnrecorded(e *env, u query.Unrecorded, format records.Format) error {
	n, kept, err := e.lookUp(u)
	switch {
	case err != nil:
		return err
	case c.Explain:
		return records.WriteExplain(e.stdout, format, u.Report())
	case !kept:
		if n, err = e.keeper().Unrecorded(e.ctx, u); err != nil {
			return err
		}
	}
	return c.print(e, format, u.PuzzleName(), u.Of(), n)
}

func (c *countCmd) print(e *env, format records.Format, puzzle, of string, n int64) error {
	if format == records.Text {
		_, err := fmt.Fprintln(e.stdout, n)
		return err
	}
	return records.WriteOne(e.stdout, format, !c.NoHeaders, records.Obj("puzzle", puzzle, "of", of, "count", n))
}
