package main

import (
	"fmt"

	"solcat/canon"
	"solcat/catalog/builder"
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
	Shard   string `placeholder:"I/K" help:"A toroidal or superqueen count of queens not stored: count only shard I of K (the units whose index mod K is I-1), saved into this catalog; gather the K shard catalogs with 'solcat merge', then count there without --shard."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
}

func (c *countCmd) Help() string { return help.Text("count") }

func (c *countCmd) Run(e *env) error {
	shard, err := builder.ParseShard(c.Shard)
	if err != nil {
		return usagef("--shard %w", err)
	}
	if u, ok, err := c.unrecorded(e, shard); err != nil || ok {
		if err != nil {
			return keeper.Stopped(e.ctx, err) // judging a count may be stopped by Ctrl-C
		}
		if shard.Of > 0 {
			return c.countShard(e, u)
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
	if shard.Of > 0 {
		return usagef("--shard splits the toroidal and superqueen counts of queens not stored; this count is answered from the catalog, without it")
	}
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
func (c *countCmd) unrecorded(e *env, shard builder.Shard) (opener.Unrecorded, bool, error) {
	p, err := canon.ParsePuzzle(c.Puzzle)
	if err != nil {
		return opener.Unrecorded{}, false, nil // the catalog's way says what is wrong
	}
	f, err := c.Filter(p)
	if !query.NeedsNoRecord(p, f, err) {
		return opener.Unrecorded{}, false, nil // the catalog answers, or says what is wrong
	} else if err != nil {
		return opener.Unrecorded{}, false, err
	} else if shard.Of > 0 && !query.BoardAsked(p, f) {
		return opener.Unrecorded{}, false, query.ErrFilterNotSharded
	}
	u, ok, err := e.Unrecorded(e.ctx, p, f, c.Classes, shard)
	if ok && err == nil {
		e.noneCanMatch(p, f)
	}
	return u, ok, err
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

// countShard counts one shard of a split board count into the catalog,
// made if need be, and says what it counted.
func (c *countCmd) countShard(e *env, u opener.Unrecorded) error {
	b := u.Unrecorded.(*query.BoardCount) // only board counts take a shard
	if c.Explain {
		return records.WriteExplain(e.stdout, c.Format, u.Report())
	}
	e.Named = true // a shard's units go into the catalog named, or the default one
	sum, err := e.keeper().Shard(e.ctx, b)
	if err != nil {
		return err
	}
	if c.Format == records.Text {
		_, err = fmt.Fprintf(e.stdout, "shard %d/%d of %s (%s): %s in its %s of %s; 'solcat merge' the shards' catalogs, then count there without --shard\n",
			sum.Shard, sum.Of, b.Puzzle, b.Filter.String(b.Puzzle), canon.Plural(sum.Solutions, "solution"), canon.Plural(int64(sum.Units), "unit"), canon.Thousands(int64(sum.AllUnits)))
		return err
	}
	return records.WriteOne(e.stdout, c.Format, !c.NoHeaders, records.Obj("puzzle", b.Puzzle.String(), "filter", b.Filter.String(b.Puzzle),
		"shard", sum.Shard, "of", sum.Of, "units", sum.Units, "all_units", sum.AllUnits, "solutions", sum.Solutions))
}
