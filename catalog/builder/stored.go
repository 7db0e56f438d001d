package builder

import (
	"context"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// unitRows is how many rows a stored build commits at a time: about 256
// units per puzzle, at least 4096 rows and at most about a million, so a
// killed build loses a fraction of a second of work, and one killed every
// few seconds on a busy machine still commits units between kills. It
// depends on the puzzle only, so the catalog's content does too.
func unitRows(known canon.Known) int64 {
	rows := (known.Solutions + known.Classes) / 256
	unit := int64(4096)
	for unit < rows && unit < 1<<20 {
		unit *= 2
	}
	return unit
}

// storedLayout names how a stored build of p is cut into units: a saved
// build with another layout starts over.
func storedLayout(p canon.Puzzle) catalog.Layout {
	known, _ := canon.KnownCounts(p)
	return catalog.Layout{Solver: SolverVersion, Cut: catalog.CutRows, UnitRows: unitRows(known)}
}

// storedSplitLayout names how a stored build is split into shards: merge
// takes only shards made with this solcat's.
func storedSplitLayout(p canon.Puzzle) catalog.Layout {
	l := storedLayout(p)
	l.ByFirstRow = true
	return l
}

// sameShardLayout reports whether a finished shard made with layout is
// what a build of p would make now: a count shard counted on a machine of
// the other kind (with or without AVX-512) is as good.
func sameShardLayout(p canon.Puzzle, countOnly bool, layout catalog.Layout) bool {
	if countOnly {
		return countPlanOf(p, layout).layout() == layout
	}
	return layout == storedSplitLayout(p)
}

// store enumerates p and writes its classes and solutions unit by unit,
// resuming a saved build of it if there is one, compares the counts with
// the published ones and puts the puzzle in place (a shard: marks it done).
func (b *Builder) store(ctx context.Context, p canon.Puzzle, o Options) (catalog.Record, error) {
	start := time.Now()
	known, _ := canon.KnownCounts(p)
	plan := catalog.BuildPlan{
		Layout:    storedLayout(p),
		UnitRows:  unitRows(known),
		RowsTotal: known.Solutions + known.Classes,
	}
	part := o.Shard.FirstRows(p.N)
	if o.Shard.Of > 0 {
		plan.RowsTotal = plan.RowsTotal * int64(part.To-part.From) / int64(p.N) // about
		plan.Layout = storedSplitLayout(p)
		plan.Layout.Shard, plan.Layout.Of = o.Shard.I, o.Shard.Of
	}
	w, err := b.Cat.BeginSolutions(ctx, p, plan, known.Classes)
	if err != nil {
		return catalog.Record{}, begun(ctx, p, err)
	}
	defer w.Rollback()
	if why := w.Discarded(); why != "" {
		o.notice("%s: the saved unfinished build could not be resumed (%s); starting over", p, why)
	}
	workers := o.workers()
	// The bar counts solutions, as users count them, not the rows
	// (solutions and classes) the catalog saves.
	solutions := known.Solutions
	if o.Shard.Of > 0 {
		solutions = solutions * int64(part.To-part.From) / int64(p.N) // about
	}
	if w.Resumed() > 0 {
		done, total, what := savedStored(w, known.Classes, solutions)
		o.notice("%s: resuming from %d%% saved by an earlier run (%s of %s %s)", p, 100*done/max(total, 1), canon.Thousands(done), canon.Thousands(total), what)
	}
	bar := o.progress(p.String(), "solutions")
	resumed := solutions * w.Resumed() / max(plan.RowsTotal, 1)
	bar.Update(resumed, solutions)
	// The search reports the share of its work done (from a goroutine of its
	// own): as solutions, never below what an earlier run saved.
	opt := enumerate.Options{Workers: workers, Progress: func(done, total int) {
		bar.Update(max(resumed, solutions*int64(done)/int64(max(total, 1))), solutions)
	}}
	rec := catalog.Record{
		Kind: p.Kind, N: p.N, Storage: catalog.StorageSolutions, Workers: workers,
		BuiltAt: now(), SolverVersion: SolverVersion,
	}
	tally := newStoredTally(p)
	if p.Kind == canon.Queens {
		// Queens in two bars, a phase each, as their speeds differ (the
		// search is most of the time on few cores, the writing most of the
		// rows): the classes the search finds, then the solutions written.
		// Each counts what it names, so its rate, and the time left, is that
		// of its phase alone.
		opt.Progress = nil
		search := o.progress(p.String()+" search", "classes")
		var classes, written int64
		endSearch := func() {
			if search != nil {
				search.Update(classes, known.Classes)
				search.Finish()
				search = nil
				// The writing's bar starts now: its rate is the writing's.
				bar = o.progress(p.String(), "solutions")
				bar.Update(resumed, solutions)
			}
		}
		found := func(n int64) {
			if classes = n; n%1024 == 0 {
				search.Update(n, known.Classes)
			}
		}
		wrote := func(n int64) {
			endSearch()
			if written = n; n%65536 == 0 {
				bar.Update(max(resumed, n), solutions)
			}
		}
		// A resumed build hands its search the classes it saved, which
		// are not searched for again: a build stopped again and again
		// still gets on.
		forms, orbits, savedErr := w.SavedClasses()
		if savedErr != nil {
			return rec, stoppedStored(ctx, p, w, savedErr, known.Classes, solutions)
		}
		last, lastErr := w.LastSaved()
		if lastErr != nil {
			return rec, stoppedStored(ctx, p, w, lastErr, known.Classes, solutions)
		}
		if _, savedSolutions := w.SavedRows(); len(orbits) > 0 || savedSolutions > 0 {
			opt.Resume = &enumerate.Resume{Forms: forms, Orbits: orbits, Solutions: savedSolutions, Last: last, AllClasses: int64(len(orbits)) == known.Classes}
		}
		err = storeQueens(ctx, w, p, opt, &rec, part, o.Shard.I <= 1, tally, found, wrote)
		endSearch()
		if err == nil {
			bar.Update(max(resumed, written), solutions)
		}
	} else {
		err = storeClassified(ctx, w, p, opt, &rec, tally)
	}
	bar.Finish()
	switch {
	case err == nil && o.Shard.Of > 0:
		err = w.CommitShard(catalog.Shard{Shard: o.Shard.I, Of: o.Shard.Of, Layout: storedSplitLayout(p), Units: part.To - part.From,
			Nodes: rec.SearchNodes, Seconds: time.Since(start).Seconds()})
		rec.Name, rec.Storage, rec.BuildSeconds = p.String(), catalog.StorageShard, time.Since(start).Seconds()
	case err == nil:
		rows := tally.breakdown(rec)
		if err = checkKnown(p, &rec, rows...); err != nil {
			w.Rollback() // Abandon needs the catalog's one connection
			b.Cat.Work().Abandon(ctx, p.String())
			return rec, err
		}
		rec.BuildSeconds = time.Since(start).Seconds()
		err = w.Commit(rec, rows...)
	}
	if err != nil {
		return rec, stoppedStored(ctx, p, w, err, known.Classes, solutions)
	}
	return rec, nil
}

// begun is the error of a stored build's writer that could not begin.
// Ctrl-C while it opens (the driver then reports only a cancelled
// context) is an interruption like any other: what earlier runs saved
// stays.
func begun(ctx context.Context, p canon.Puzzle, err error) error {
	if ctx.Err() != nil {
		return &StoppedError{Puzzle: p.String(), What: "solutions", Err: ErrInterrupted}
	}
	return err
}

// unitWriter is what a stopped build asks of its writer, a solution or a
// class writer.
type unitWriter interface {
	Rollback()
	Saved() (done, total int64)
	Fault(error) error
}

// stopped rolls back the unit in flight of a stored build that failed or
// was interrupted and says how much is saved. what names the units Saved
// counts (rows, classes).
func stopped(ctx context.Context, p canon.Puzzle, w unitWriter, err error, what string) error {
	w.Rollback()
	done, total := w.Saved()
	return &StoppedError{Puzzle: p.String(), Done: done, Total: total, What: what, Err: cause(ctx, err, w)}
}

// stoppedStored is stopped for a build stored solution by solution, of
// classes and solutions expected: it counts the solutions saved, as users
// count them, or while only classes are (queens write their classes
// first), the classes.
func stoppedStored(ctx context.Context, p canon.Puzzle, w *catalog.SolutionWriter, err error, classes, solutions int64) error {
	w.Rollback()
	s := &StoppedError{Puzzle: p.String(), Err: cause(ctx, err, w)}
	s.Done, s.Total, s.What = savedStored(w, classes, solutions)
	return s
}

// savedStored is what a build stored solution by solution has committed,
// as stoppedStored and the notice of a resumed build count it.
func savedStored(w *catalog.SolutionWriter, classes, solutions int64) (done, total int64, what string) {
	savedClasses, savedSolutions := w.SavedRows()
	if savedSolutions == 0 && savedClasses > 0 {
		return savedClasses, classes, "classes"
	}
	return savedSolutions, solutions, "solutions"
}

// storeQueens writes queens:n from the symmetry-reduced search: classes
// first, then their members in lexicographic order.
// found and wrote learn how many classes have been found and solutions
// written, as they grow (from the one goroutine that writes).
func storeQueens(ctx context.Context, w *catalog.SolutionWriter, p canon.Puzzle, opt enumerate.Options, rec *catalog.Record, part enumerate.FirstRows, classes bool,
	tally *storedTally, found, wrote func(int64)) error {
	var written int64
	if r := opt.Resume; r != nil {
		r.Skip = func(n int64) error {
			written += n
			wrote(written)
			return w.SkipSolutions(n)
		}
	}
	counts, err := enumerate.QueensCatalogPart(ctx, p.N, opt, part,
		func(id int64, form []byte, orbit int) error {
			found(id)
			if !classes {
				return nil // a shard after the first: the first writes the classes
			}
			tally.add(form, orbit, 0)
			// The queens properties are the symmetry type, which the orbit gives.
			return w.AddClass(id, form, orbit, uint32(canon.SymmetryType(orbit).Stored()))
		},
		w.EndClasses, w.SetFirstID,
		func(sol []byte, class int64, from canon.Symmetry) error {
			written++
			wrote(written)
			return w.AddSolution(sol, class, int(from))
		})
	if err != nil {
		return err
	}
	if part.From == 0 && part.To == p.N && written != counts.Solutions() {
		return fmt.Errorf("%s: %w: %d solutions written but the classes have %d members; nothing was stored", p, ErrBug, written, counts.Solutions())
	}
	rec.Solutions, rec.Classes, rec.SearchNodes = written, counts.Classes(), counts.Nodes
	rec.Orbits = counts.Orbits
	return nil
}

// storeClassified writes a puzzle from its plain lexicographic enumeration,
// classifying each solution as it streams in (magic squares).
func storeClassified(ctx context.Context, w *catalog.SolutionWriter, p canon.Puzzle, opt enumerate.Options, rec *catalog.Record, tally *storedTally) error {
	classifier := canon.NewClassifier(p)
	stats, err := enumerate.All(ctx, p, opt, func(sol []byte) error {
		place, err := classifier.Add(sol)
		if err != nil {
			return err
		}
		if place.NewClass {
			props := p.Properties(sol).Stored()
			tally.add(sol, place.Orbit, props)
			if err := w.AddClass(place.ClassID, sol, place.Orbit, uint32(props)); err != nil {
				return err
			}
		}
		return w.AddSolution(sol, place.ClassID, int(place.From))
	})
	if err != nil {
		return err
	}
	rec.Solutions, rec.Classes, rec.SearchNodes = stats.Solutions, classifier.Classes(), stats.Nodes
	rec.Orbits = classifier.Orbits
	return nil
}
