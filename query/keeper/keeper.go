// Package keeper runs the counts whose work outlasts the process. It keeps
// a count's answer in the catalog, so that the same question is answered
// at once the next time; it saves a long count's units as they are
// counted and resumes from those an earlier run saved, so that Ctrl-C
// loses none of them; and it keeps estimates. It is handed the catalog's
// opener and says what the user should know through Note.
package keeper

import (
	"context"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query"
)

// Opener opens the catalog that keeps a command's work.
type Opener interface {
	// Keeping opens the catalog to keep the named puzzle's work in,
	// creating it if need be. ok is false when nothing is to be kept (a
	// question asked with no catalog at hand creates no file).
	Keeping(ctx context.Context, puzzle string) (cat *catalog.Catalog, ok bool, err error)
}

// Keeper keeps the work of counts and estimates in the catalog.
type Keeper struct {
	Open Opener
	// Note hears each line the user is told on the way: a long count
	// announced or resumed, work that could not be kept.
	Note func(line string)
	// Bar, if set, makes the progress bar of a long count, in units.
	Bar func() query.Progress
}

var (
	// KeepAfter is how long a count must have taken for its answer to be
	// kept: quicker ones are counted again faster than a write.
	KeepAfter = time.Second
	// SaveAfter is how long a count must be expected to take for its
	// units to be saved as it runs.
	SaveAfter = 10 * time.Second
	// LongStatsFrom is the least N whose row tables draw their progress:
	// on queens:18 and above they take from seconds to hours.
	LongStatsFrom = 18
	// UnitCounted, in tests, hears how many units are counted or saved.
	UnitCounted func(n int)
)

// announce is how long a count must be expected to take to be announced,
// with its progress drawn.
const announce = time.Minute

// StoppedError is a count stopped by Ctrl-C, with what it kept.
type StoppedError struct {
	Saved, Units int   // units saved, of the count's Units (0: none were being saved)
	SaveErr      error // why the units counted could not be saved
	Columns      int   // a table's columns counted and kept
}

func (e *StoppedError) Error() string {
	switch {
	case e.Columns > 0:
		return fmt.Sprintf("interrupted; %s counted and kept", canon.Plural(int64(e.Columns), "column"))
	case e.SaveErr != nil:
		return fmt.Sprintf("interrupted; the units counted could not be saved (%v)", e.SaveErr)
	case e.Units > 0:
		return fmt.Sprintf("interrupted; %s of %s units are saved", canon.Thousands(int64(e.Saved)), canon.Thousands(int64(e.Units)))
	}
	return "interrupted; nothing was recorded"
}

// Stopped is the error of a count that failed with err: if Ctrl-C
// stopped it, that it kept nothing.
func Stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return &StoppedError{}
	}
	return err
}

// Count answers plan over t. A constrained count (a puzzle recorded by its
// counts, counted again under the filter) expected to take SaveAfter or
// more saves its units as it runs and resumes from those saved; one of a
// minute or more is announced with its progress. release lets this
// process's reader of the catalog go before it writes.
func (k *Keeper) Count(ctx context.Context, t *query.BoundPuzzle, plan *query.Plan, release func()) (int64, error) {
	began := time.Now()
	var s *saver
	if plan.Way == query.ConstrainedCount {
		took, err := t.EstimateCount(ctx, plan)
		if err != nil {
			return 0, Stopped(ctx, err)
		}
		if took >= SaveAfter {
			release()
			if s, err = k.resume(ctx, t, plan); err != nil {
				return 0, err
			}
			took = t.TimeLeft(plan)
		}
		if took >= announce {
			k.Note(fmt.Sprintf("%s is recorded by its counts only: counting the filter's solutions again, %s; Ctrl-C stops, and the same command resumes", t.Puzzle, query.RoughDuration(took)))
			plan.Progress = k.bar()
		}
	}
	n, err := t.Count(ctx, plan)
	switch {
	case err != nil:
		return 0, s.stop(ctx, err)
	case s != nil:
		k.notKept(s.keep(ctx, t.Counted(plan)))
	case time.Since(began) >= KeepAfter:
		release()
		k.Keep(ctx, t.Counted(plan))
	}
	return n, nil
}

// resume opens the catalog to save plan's units, and gives the plan the
// units an earlier run saved; nil if the units are not saved.
func (k *Keeper) resume(ctx context.Context, t *query.BoundPuzzle, plan *query.Plan) (*saver, error) {
	key, units, ok, err := t.ConstrainedUnits(plan)
	if err != nil || !ok {
		return nil, err
	}
	s, saved, err := k.saving(ctx, t.Record.Name, key, units)
	if err != nil {
		k.cannotSave(err)
	}
	if s == nil {
		return nil, nil
	}
	if err := t.Resume(plan, saved); err != nil {
		s.close()
		return nil, err
	}
	plan.SaveUnit = s.add
	return s, nil
}

// Unrecorded counts u, a question the catalog needs nothing stored for,
// saving its units as it runs when it is long, and keeps its answer.
// (u.LookUp answers it when it was kept before.)
func (k *Keeper) Unrecorded(ctx context.Context, u query.Unrecorded) (int64, error) {
	if err := u.Refusal(); err != nil {
		return 0, err
	}
	var s *saver
	saved := map[int]int64{}
	if u.Units() > 0 && (u.Expect() >= SaveAfter || u.Resumes()) {
		var err error
		if s, saved, err = k.saving(ctx, u.PuzzleName(), u.UnitKey(), u.Units()); err != nil {
			k.cannotSave(err)
		}
	}
	var progress query.Progress
	if u.Expect() >= announce || s != nil && u.Expect() >= SaveAfter {
		note := u.Announce()
		if !u.Resumes() && len(saved) > 0 {
			note += " for the whole count (its units saved are not counted again)" // its time is the whole count's
		}
		k.Note(note + "; Ctrl-C stops, and the same command resumes")
		progress = k.bar()
	}
	var save func(int, int64)
	if s != nil {
		save = s.add
	}
	n, answers, err := u.Count(ctx, saved, save, progress)
	switch {
	case err != nil:
		return 0, s.stop(ctx, err)
	case s != nil:
		k.notKept(s.keep(ctx, answers))
	case answers[0].Seconds >= KeepAfter.Seconds():
		k.Keep(ctx, answers)
	}
	return n, nil
}

// Shard counts one shard of a split board count, saving each unit in the
// catalog as it is counted (a shard's catalog is made if need be), and
// gives what it counted. A shard run again counts only its units not
// saved; 'merge' gathers the shards' units.
func (k *Keeper) Shard(ctx context.Context, b *query.BoardCount) (query.ShardSum, error) {
	if err := b.Refusal(); err != nil {
		return query.ShardSum{}, err
	}
	s, saved, err := k.saving(ctx, b.PuzzleName(), b.UnitKey(), b.Units())
	switch {
	case err != nil:
		return query.ShardSum{}, err // it says what to do
	case s == nil:
		return query.ShardSum{}, fmt.Errorf("a shard saves its units in a catalog, and none is at hand; name one with --db")
	}
	progress := func(int, int) {}
	if b.Expect() >= announce {
		k.Note(b.Announce() + "; Ctrl-C stops, and the same command resumes")
		progress = k.bar()
	}
	sum, err := b.CountShard(ctx, saved, s.add, progress)
	if err != nil {
		return query.ShardSum{}, s.stop(ctx, err)
	}
	s.flush(ctx)
	s.close()
	if s.err != nil {
		return query.ShardSum{}, fmt.Errorf("the shard's units could not be saved (%v); run the same command again", s.err)
	}
	return sum, nil
}

// Stats answers plan's table over t. A table counted again column by
// column keeps the columns counted before a Ctrl-C: the same command
// counts only the others.
func (k *Keeper) Stats(ctx context.Context, t *query.BoundPuzzle, plan *query.Plan, release func()) ([]query.StatsRow, error) {
	began := time.Now()
	if plan.Way == query.ConstrainedCount && t.Puzzle.N >= LongStatsFrom {
		k.Note(fmt.Sprintf("%s is recorded by its counts only: counting each column's solutions again; Ctrl-C stops", t.Puzzle))
		draw := k.bar()
		plan.Progress = func(done, total int) {
			draw(done, total)
			if UnitCounted != nil {
				UnitCounted(done)
			}
		}
	}
	rows, err := t.Stats(ctx, plan)
	if err != nil {
		if kept := t.Counted(plan); len(kept) > 0 && ctx.Err() != nil {
			release()
			k.Keep(ctx, kept)
			return nil, &StoppedError{Columns: len(kept)}
		}
		return nil, Stopped(ctx, err)
	}
	if time.Since(began) >= KeepAfter {
		release()
		k.Keep(ctx, t.Counted(plan))
	}
	return rows, nil
}

// Keep records answers in the catalog. They are printed already: a
// catalog that cannot be written is only noted.
func (k *Keeper) Keep(ctx context.Context, answers []catalog.Answer) {
	if len(answers) == 0 {
		return
	}
	k.notKept(k.write(ctx, answers[0].Puzzle, func(ctx context.Context, cat *catalog.Catalog) error {
		return keepAll(ctx, cat, answers)
	}))
}

// keepAll records answers in cat.
func keepAll(ctx context.Context, cat *catalog.Catalog, answers []catalog.Answer) error {
	for _, a := range answers {
		if err := cat.Kept().Keep(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// KeepEstimate records an estimate in the catalog; kept is false when
// nothing is to be kept. The estimate is printed already: a catalog that
// cannot be written is only noted.
func (k *Keeper) KeepEstimate(ctx context.Context, rec catalog.Estimate) (kept bool) {
	err := k.write(ctx, rec.Puzzle, func(ctx context.Context, cat *catalog.Catalog) error {
		kept = true
		return cat.Kept().Keep(ctx, rec)
	})
	if err != nil {
		k.Note(fmt.Sprintf("the estimate was not kept in the catalog (%v)", err))
		return false
	}
	return kept
}

// write opens the catalog to keep puzzle's work, runs write and closes
// it; nothing is run when nothing is to be kept. Its context outlives
// Ctrl-C: what was worked out before it is still kept.
func (k *Keeper) write(ctx context.Context, puzzle string, write func(context.Context, *catalog.Catalog) error) error {
	ctx = context.WithoutCancel(ctx)
	cat, ok, err := k.Open.Keeping(ctx, puzzle)
	if err != nil || !ok {
		return err
	}
	err = write(ctx, cat)
	if cerr := cat.Close(); err == nil {
		err = cerr
	}
	return err
}

// bar is a long count's progress bar.
func (k *Keeper) bar() query.Progress {
	if k.Bar == nil {
		return func(int, int) {}
	}
	return k.Bar()
}

// cannotSave notes that a count runs without saving its units.
func (k *Keeper) cannotSave(err error) {
	k.Note(fmt.Sprintf("the count's units cannot be saved as it runs (%v); Ctrl-C will lose them", err))
}

// notKept notes answers that could not be kept.
func (k *Keeper) notKept(err error) {
	if err != nil {
		k.Note(fmt.Sprintf("the answer was not kept in the catalog (%v); the next time it is counted again", err))
	}
}
