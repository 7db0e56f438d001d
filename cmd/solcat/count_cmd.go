package main

import (
	"solcat/canon"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/cmd/solcat/opener"
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
	if u, ok, err := c.unrecorded(e); err != nil || ok {
		if err != nil {
			return keeper.Stopped(e.ctx, err) // judging a count may be stopped by Ctrl-C
		}
		return c.countUnrecorded(e, u)
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
		return e.explain(t, plan, c.Format)
	}
	n, err := e.keeper().Count(e.ctx, t, plan, done)
	if err != nil {
		return err
	}
	return records.WriteCount(e.stdout, c.Format, !c.NoHeaders, t.Puzzle.String(), of, n)
}

// unrecorded gives the count that needs nothing stored, if the question
// is one: a filter on queens too large to count whole, or a board
// property of queens not stored.
func (c *countCmd) unrecorded(e *env) (opener.Unrecorded, bool, error) {
	p, err := canon.ParsePuzzle(c.Puzzle)
	if err != nil {
		return opener.Unrecorded{}, false, nil // the catalog's way says what is wrong
	}
	f, err := c.Filter(p)
	if !query.NeedsNoRecord(p, f, err) {
		return opener.Unrecorded{}, false, nil // the catalog answers, or says what is wrong
	} else if err != nil {
		return opener.Unrecorded{}, false, err
	}
	return e.Unrecorded(e.ctx, p, f, c.Classes)
}

// countUnrecorded answers a count that needs nothing stored from the
// answer kept, or runs it and keeps its answer.
func (c *countCmd) countUnrecorded(e *env, u opener.Unrecorded) error {
	if c.Explain {
		return records.WriteExplain(e.stdout, c.Format, u.Report())
	}
	n := u.Answer
	if !u.Kept {
		var err error
		if n, err = e.keeper().Unrecorded(e.ctx, u.Unrecorded); err != nil {
			return err
		}
	}
	return records.WriteCount(e.stdout, c.Format, !c.NoHeaders, u.PuzzleName(), u.Of(), n)
}
