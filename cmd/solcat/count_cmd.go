package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/console"
	"solcat/cmd/solcat/help"
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

func (c *countCmd) Help() string { return help.Text("count") }

func (c *countCmd) Run(e *env) error {
	format, err := c.Chosen()
	if err != nil {
		return err
	}
	if p, err := canon.ParsePuzzle(c.Puzzle); err == nil {
		if u, ok, err := c.unrecorded(e, p); err != nil || ok {
			if err != nil {
				return e.stopped(err) // judging a count may be stopped by Ctrl-C
			}
			return c.countUnrecorded(e, u, format)
		}
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
	began := time.Now()
	var saver *unitSaver
	if plan.Way == query.ConstrainedCount {
		if saver, err = e.longCount(t, plan, done); err != nil {
			return err
		}
	}
	n, err := t.Count(e.ctx, plan)
	if err != nil {
		if saver != nil && e.ctx.Err() != nil {
			return saver.stopped()
		}
		saver.close()
		return e.stopped(err)
	}
	if saver != nil {
		saver.keep(t.Counted(plan))
	} else if time.Since(began) >= keepAfter {
		done() // this process's reader lets go before it writes
		e.keep(t.Counted(plan))
	}
	if format == records.Text {
		_, err = fmt.Fprintln(e.stdout, n)
		return err
	}
	return records.WriteOne(e.stdout, format, !c.NoHeaders, records.Obj("puzzle", t.Puzzle.String(), "of", of, "count", n))
}

// keepAfter is how long a constrained count must have taken for its answer
// to be kept: quicker ones are counted again faster than a write.
var keepAfter = time.Second

// keep records a constrained count's answer in the catalog, so that the
// same question is answered at once the next time. The answer is printed
// already: a catalog that cannot be written is only noted.
func (e *env) keep(answers []catalog.Answer) {
	if len(answers) == 0 {
		return
	}
	err := e.writeCatalog(answers[0].Puzzle, func(ctx context.Context, cat *catalog.Catalog) error {
		for _, a := range answers {
			if err := cat.Kept().Keep(ctx, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "solcat: the answer was not kept in the catalog (%v); the next time it is counted again\n", err)
	}
}

// writeCatalog opens the catalog to write (creating it if need be) for a
// puzzle's record, runs write and closes it. Its context outlives Ctrl-C:
// what was worked out before it is still kept.
func (e *env) writeCatalog(puzzle string, write func(context.Context, *catalog.Catalog) error) error {
	ctx := context.WithoutCancel(e.ctx)
	cat, err := catalog.Create(ctx, e.cli.DB, e.holder([]string{puzzle}))
	if err != nil {
		return err
	}
	err = write(ctx, cat)
	if cerr := cat.Close(); err == nil {
		err = cerr
	}
	return err
}

// saveAfter is how long a constrained count must be expected to take for
// its units to be saved as it runs, so that Ctrl-C loses none of them.
var saveAfter = 10 * time.Second

// longCount warns of a constrained count that should take over a minute,
// and draws its progress. A count expected to take saveAfter or more
// saves its units as it runs, and resumes from those an earlier run
// saved: release lets this process's reader go before it writes.
func (e *env) longCount(t *query.BoundPuzzle, plan *query.Plan, release func()) (*unitSaver, error) {
	took, err := t.EstimateCount(e.ctx, plan)
	if err != nil {
		return nil, e.stopped(err)
	}
	var saver *unitSaver
	if took >= saveAfter {
		release()
		if saver, err = e.saveUnits(t, plan); err != nil {
			return nil, err
		}
		took = t.TimeLeft(plan)
	}
	if took < time.Minute {
		return saver, nil
	}
	fmt.Fprintf(e.stderr, "solcat: %s is recorded by its counts only: counting the filter's solutions again, %s; Ctrl-C stops, and the same command resumes\n", t.Puzzle, query.RoughDuration(took))
	e.drawCounting(plan)
	return saver, nil
}

// drawCounting draws a constrained count's progress, in units, on stderr.
func (e *env) drawCounting(plan *query.Plan) { plan.Progress = e.countingBar() }

// countingBar is a count's progress bar, in units, on stderr.
func (e *env) countingBar() query.Progress {
	bar := console.NewProgress(e.stderr, "counting", "units")
	return func(done, total int) {
		bar.Update(int64(done), int64(total))
		if done == total {
			bar.Finish()
		}
	}
}

// stopped says a count stopped by Ctrl-C stopped; other errors pass.
func (e *env) stopped(err error) error {
	if e.ctx.Err() != nil {
		console.Interrupted(e.ctx, e.stderr)
		return fmt.Errorf("%w; nothing was recorded", advice.ErrInterrupted)
	}
	return err
}

// unrecorded gives the count that needs nothing stored, if the question
// is one (query.PlanUnrecorded): a filter on queens too large to count
// whole, or a board property of queens not stored.
func (c *countCmd) unrecorded(e *env, p canon.Puzzle) (query.Unrecorded, bool, error) {
	f, err := c.Filter(p)
	if !query.PastReach(p) && (err != nil || !query.BoardAsked(p, f) && !query.FilterCounted(p, f)) {
		return nil, false, nil // the catalog answers, or says what is wrong
	} else if err != nil {
		return nil, false, err
	}
	cat, err := catalog.Open(e.ctx, e.cli.DB)
	switch {
	case errors.Is(err, catalog.ErrNoCatalog):
		cat = nil
	case err != nil:
		return nil, false, err
	default:
		defer cat.Close()
	}
	return query.PlanUnrecorded(e.ctx, cat, p, f, c.Classes, runtime.GOMAXPROCS(0))
}

// countUnrecorded runs a count that needs nothing stored, or answers it
// from the answer kept, and keeps its answer.
func (c *countCmd) countUnrecorded(e *env, u query.Unrecorded, format records.Format) error {
	var n int64
	kept := false
	if cat, err := catalog.Open(e.ctx, e.cli.DB); err == nil {
		e.readers = append(e.readers, cat)
		n, kept, err = u.LookUp(e.ctx, cat)
		cat.Close()
		if err != nil {
			return err
		}
	} else if !errors.Is(err, catalog.ErrNoCatalog) {
		return err
	}
	if c.Explain {
		return records.WriteExplain(e.stdout, format, u.Report())
	}
	if !kept {
		if why := u.Refusal(); why != "" {
			return errors.New(why)
		}
		var saver *unitSaver
		saved := map[int]int64{}
		if u.Expect() >= saveAfter && u.Units() > 0 && e.mayKeep() {
			saver, saved = e.saveSearchUnits(u.PuzzleName(), u.UnitKey(), u.Units())
		}
		var progress query.Progress
		if u.Expect() >= time.Minute || saver != nil {
			fmt.Fprintf(e.stderr, "solcat: %s; Ctrl-C stops, and the same command resumes\n", u.Announce())
			progress = e.countingBar()
		}
		var save func(int, int64)
		if saver != nil {
			save = saver.add
		}
		var answers []catalog.Answer
		var err error
		n, answers, err = u.Count(e.ctx, saved, save, progress)
		switch {
		case err != nil && saver != nil && e.ctx.Err() != nil:
			return saver.stopped()
		case err != nil:
			saver.close()
			return e.stopped(err)
		case saver != nil:
			saver.keep(answers)
		case answers[0].Seconds >= keepAfter.Seconds() && e.mayKeep():
			e.keep(answers)
		}
	}
	if format == records.Text {
		_, err := fmt.Fprintln(e.stdout, n)
		return err
	}
	return records.WriteOne(e.stdout, format, !c.NoHeaders, records.Obj("puzzle", u.PuzzleName(), "of", u.Of(), "count", n))
}
