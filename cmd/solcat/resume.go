package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dustin/go-humanize"

	"solcat/catalog"
	"solcat/cmd/solcat/advice"
	"solcat/query"
)

// unitSaver saves the units of a long constrained count as they are
// counted, every few seconds in one transaction, so that a count stopped
// by Ctrl-C resumes where it stopped (see migration 00017).
type unitSaver struct {
	e       *env
	cat     *catalog.Catalog
	puzzle  string
	key     []byte
	units   int
	pending map[int]int64
	saved   int // units in the catalog
	last    time.Time
	err     error
}

// saveEvery is how often the counted units are saved.
const saveEvery = 2 * time.Second

// saveUnits opens the catalog to save the plan's units, and gives the plan
// the units an earlier run saved. A catalog that cannot be written counts
// without saving (nil, and a note on stderr).
func (e *env) saveUnits(t *query.BoundPuzzle, plan *query.Plan) (*unitSaver, error) {
	key, units, ok, err := t.ConstrainedUnits(plan)
	if err != nil || !ok {
		return nil, err
	}
	cat, err := catalog.Create(e.ctx, e.cli.DB, e.holder([]string{t.Record.Name}))
	if err != nil {
		fmt.Fprintf(e.stderr, "solcat: the count's units cannot be saved as it runs (%v); Ctrl-C will lose them\n", err)
		return nil, nil
	}
	s := &unitSaver{e: e, cat: cat, puzzle: t.Record.Name, key: key, units: units, pending: map[int]int64{}, last: time.Now()}
	saved, err := cat.Kept().SavedAnswerUnits(e.ctx, s.puzzle, key, units)
	if err == nil {
		err = t.Resume(plan, saved)
	}
	if err != nil {
		cat.Close()
		return nil, err
	}
	s.saved = len(saved)
	if s.saved > 0 {
		fmt.Fprintf(e.stderr, "solcat: resuming the count: %s of %s units were saved by a run that stopped\n", humanize.Comma(int64(s.saved)), humanize.Comma(int64(units)))
	}
	plan.SaveUnit = s.add
	return s, nil
}

// saveSearchUnits opens the catalog to save the units of a count past the
// counted sizes (no record of the puzzle needed), and gives the units an
// earlier run saved. A catalog that cannot be written counts without
// saving (nil, and a note on stderr).
func (e *env) saveSearchUnits(puzzle string, key []byte, units int) (*unitSaver, map[int]int64) {
	cat, err := catalog.Create(e.ctx, e.cli.DB, e.holder([]string{puzzle}))
	if err == nil {
		var saved map[int]int64
		if saved, err = cat.Kept().SavedAnswerUnits(e.ctx, puzzle, key, units); err == nil {
			s := &unitSaver{e: e, cat: cat, puzzle: puzzle, key: key, units: units, pending: map[int]int64{}, last: time.Now(), saved: len(saved)}
			if s.saved > 0 {
				fmt.Fprintf(e.stderr, "solcat: resuming the count: %s of %s units were saved by a run that stopped\n", humanize.Comma(int64(s.saved)), humanize.Comma(int64(units)))
			}
			return s, saved
		}
		cat.Close()
	}
	fmt.Fprintf(e.stderr, "solcat: the count's units cannot be saved as it runs (%v); Ctrl-C will lose them\n", err)
	return nil, map[int]int64{}
}

// unitCounted, in tests, hears how many units are counted or saved.
var unitCounted func(n int)

func (s *unitSaver) add(unit int, solutions int64) {
	s.pending[unit] = solutions
	if unitCounted != nil {
		unitCounted(s.saved + len(s.pending))
	}
	if time.Since(s.last) >= saveEvery {
		s.flush()
	}
}

// flush saves the pending units; after Ctrl-C too.
func (s *unitSaver) flush() {
	s.last = time.Now()
	if len(s.pending) == 0 || s.err != nil {
		return
	}
	if s.err = s.cat.Kept().SaveAnswerUnits(context.WithoutCancel(s.e.ctx), s.puzzle, s.key, s.units, s.pending); s.err == nil {
		s.saved += len(s.pending)
		s.pending = map[int]int64{}
	}
}

// close lets the catalog go; a nil saver has none.
func (s *unitSaver) close() {
	if s != nil {
		s.cat.Close()
	}
}

// stopped saves what Ctrl-C left counted and says so.
func (s *unitSaver) stopped() error {
	s.flush()
	s.close()
	if s.err != nil {
		return fmt.Errorf("%w; the units counted could not be saved (%v)", advice.ErrInterrupted, s.err)
	}
	return fmt.Errorf("%w; %s of %s units are saved: the same command resumes the count", advice.ErrInterrupted,
		humanize.Comma(int64(s.saved)), humanize.Comma(int64(s.units)))
}

// keep records the finished count's answer and drops its saved units.
func (s *unitSaver) keep(answers []catalog.Answer) {
	ctx := context.WithoutCancel(s.e.ctx) // a Ctrl-C as the count ends still keeps its answer
	var err error
	for _, a := range answers {
		if err == nil {
			err = s.cat.Kept().Keep(ctx, a)
		}
	}
	if err == nil {
		err = s.cat.Kept().DropAnswerUnits(ctx, s.puzzle, s.key)
	}
	if cerr := s.cat.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(s.e.stderr, "solcat: the answer was not kept in the catalog (%v); the next time it is counted again\n", err)
	}
}
