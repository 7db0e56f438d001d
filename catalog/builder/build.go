// Package build is the build engine: it drives the enumerators into a
// catalog. It owns stored builds (every solution, unit by unit, resumable),
// count-only builds (work units saved as they finish), the two phases of a
// stored magic:5 (the class search into sort buckets, then the classes in
// order), shards of a split build and their merge, the checks of every
// count against the published values, and the state of unfinished work.
// It takes its dependencies explicitly (a context, an open catalog, a
// progress sink, a writer for notices) and returns typed results and
// errors; it prints nothing of its own and knows no command line.
package builder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
)

// SolverVersion is recorded with every build, so a catalog says which
// enumerators produced it. solcat-2: queens counts by the join counter.
const SolverVersion = "solcat-2"

// MaxWorkers bounds the worker count: more goroutines than this only cost
// memory.
const MaxWorkers = 1024

// Progress receives how far a long step has come.
type Progress interface {
	Update(done, total int64)
	Finish()
}

// Options say how to build.
type Options struct {
	CountOnly bool  // record counts only (queens up to N=23, magic:5 with counts by centre)
	Force     bool  // rebuild a puzzle that is complete
	Workers   int   // search goroutines; 0 means one per core
	Shard     Shard // the zero Shard is the whole build
	// AsClasses stores queens as their classes only, as queens:18 and 19
	// always are, whatever N (tests compare the two layouts on small boards).
	AsClasses bool
	// NewProgress starts a progress sink for one step: label names it,
	// unit what it counts (rows, work units, classes). Nil reports nothing.
	NewProgress func(label, unit string) Progress
	// Notices receives one line per notice: a resumed build, work that
	// could not be resumed, a sort folder removed. Nil discards them.
	Notices io.Writer
}

func (o Options) workers() int {
	if o.Workers == 0 {
		return runtime.NumCPU()
	}
	return o.Workers
}

func (o Options) progress(label, unit string) Progress {
	if o.NewProgress == nil {
		return noProgress{}
	}
	return o.NewProgress(label, unit)
}

func (o Options) notice(format string, args ...any) {
	if o.Notices != nil {
		fmt.Fprintf(o.Notices, format+"\n", args...)
	}
}

type noProgress struct{}

func (noProgress) Update(done, total int64) {}
func (noProgress) Finish()                  {}

// Outcome says what Build did with a puzzle.
type Outcome int

const (
	Built        Outcome = iota // built (or resumed and finished)
	AlreadyBuilt                // complete already: nothing done
	ShardDone                   // this shard was done already: nothing done
)

// Result is what Build did.
type Result struct {
	Outcome Outcome
	Record  catalog.Record // the puzzle's record (for a shard: its name, storage shard and time)
}

// ErrUnsupported means the build asked for cannot be made: a size beyond
// the limits, or a split the puzzle does not allow.
var ErrUnsupported = errors.New("cannot be built")

// Reach is what builds make of a puzzle: the facts the words that tell
// users which build to run are made of.
type Reach struct {
	Stored    bool // a build stores its solutions
	AsClasses bool // stored, as its classes only (queens past MaxStoredQueens, magic:5)
	Counted   bool // a count-only build counts it
}

// ReachOf is what builds make of p.
func ReachOf(p canon.Puzzle) Reach {
	r := Reach{Stored: enumerate.Supported(p, false) == nil, Counted: enumerate.Supported(p, true) == nil}
	r.AsClasses = r.Stored && (p.Kind == canon.Queens && p.N > enumerate.MaxStoredQueens || p.Kind == canon.Magic && p.N > enumerate.MaxMagicOrder)
	return r
}

// Limits are the largest puzzles builds store, and count.
type Limits struct {
	Magic         int // magic squares are stored up to this order (the largest as classes)
	QueensStored  int // queens are stored up to this N (the largest as classes)
	QueensCounted int // queens are counted up to this N
}

// BuildLimits are the limits of this solcat's builds.
var BuildLimits = Limits{Magic: enumerate.MaxCountedMagic, QueensStored: enumerate.MaxClassStoredQueens, QueensCounted: enumerate.MaxCountedQueens}

// Check refuses, before anything is opened, a build that cannot be made.
func Check(p canon.Puzzle, o Options) error {
	if o.Workers < 0 || o.Workers > MaxWorkers {
		return fmt.Errorf("%w: %d workers; give 1 to %d, or 0 for one per core (%d here)", ErrUnsupported, o.Workers, MaxWorkers, runtime.NumCPU())
	}
	if err := enumerate.Supported(p, o.CountOnly); err != nil {
		return fmt.Errorf("%s %w: %v", p, ErrUnsupported, err)
	}
	if o.AsClasses && (p.Kind != canon.Queens || o.CountOnly) {
		return fmt.Errorf("%s %w: only queens are stored as their classes, and only when they are stored, not counted", p, ErrUnsupported)
	}
	if o.Shard.Of == 0 || o.CountOnly {
		return nil
	}
	switch {
	case asClasses(p, o):
		return fmt.Errorf("%s %w: a stored %s (its classes) is built whole, only its count is split", p, ErrUnsupported, p)
	case p.Kind == canon.Magic && p.N == 5:
		return fmt.Errorf("%s %w: a stored magic:5 is built whole, only its count is split", p, ErrUnsupported)
	case p.Kind == canon.Magic:
		return fmt.Errorf("%s %w: it builds whole in under a second; only magic:5's count is split", p, ErrUnsupported)
	case o.Shard.Of > p.N:
		return fmt.Errorf("%s %w: shard %s: a stored %s splits by the first row's queen into at most %d shards", p, ErrUnsupported, o.Shard, p, p.N)
	}
	return nil
}

// Builder builds puzzles into one catalog.
type Builder struct {
	Cat *catalog.Catalog
}

// All builds puzzles in order as o says, telling each result to done. A
// catalog this build created is removed when the first puzzle fails having
// saved nothing of its work: a failed creation leaves no file behind.
func (b *Builder) All(ctx context.Context, puzzles []canon.Puzzle, o Options, done func(canon.Puzzle, Result)) error {
	for i, p := range puzzles {
		res, err := b.Build(ctx, p, o)
		if err != nil {
			var stopped *StoppedError
			if b.Cat.Created() && i == 0 && (!errors.As(err, &stopped) || stopped.Done == 0) {
				b.Cat.Discard()
			}
			return err
		}
		done(p, res)
	}
	return nil
}

// Build builds p as o says: it resumes a saved unfinished build, skips a
// complete puzzle unless o.Force, compares every count with the published
// ones and puts the puzzle in place.
func (b *Builder) Build(ctx context.Context, p canon.Puzzle, o Options) (Result, error) {
	if err := Check(p, o); err != nil {
		return Result{}, err
	}
	if err := CheckOtherShard(ctx, b.Cat, p, o); err != nil {
		return Result{}, err
	}
	name := p.String()
	rec, ok, err := b.Cat.Puzzle(ctx, name)
	if err != nil {
		return Result{}, err
	}
	_, building, err := b.Cat.Work().Building(ctx, name)
	if err != nil {
		return Result{}, err
	}
	if saved, has, err := b.Cat.Work().ShardOf(ctx, name); err != nil {
		return Result{}, err
	} else if has && saved.Done && saved.Shard == o.Shard.I && saved.Of == o.Shard.Of && sameShardLayout(p, o.CountOnly, saved.Layout) && !o.Force && !building {
		return Result{Outcome: ShardDone, Record: catalog.Record{Name: name, Storage: catalog.StorageShard}}, nil
	}
	// A finished magic:5 build may have been killed before it removed its
	// sort folder.
	if ok && rec.Storage == catalog.StorageClasses && p.Kind == canon.Magic && !building && !o.Force {
		b.removeStaleSort(o)
	}
	// Counts alone do not stop a build that stores the puzzle.
	if ok && !o.Force && !building && (rec.Storage != catalog.StorageCounts || o.CountOnly) {
		return Result{Outcome: AlreadyBuilt, Record: rec}, nil
	}
	switch {
	case o.CountOnly:
		rec, err = b.count(ctx, p, o)
	case p.Kind == canon.Magic && p.N == 5:
		rec, err = b.storeMagic5(ctx, p, o, enumerate.Magic5Units(), true)
	case asClasses(p, o):
		rec, err = b.storeQueensClasses(ctx, p, o, enumerate.QueensClassUnits(p.N), true)
	default:
		rec, err = b.store(ctx, p, o)
	}
	if err != nil {
		var stopped *StoppedError
		if !errors.As(err, &stopped) {
			err = catfile.FaultError(name, b.Cat.Path(), err)
		}
		return Result{}, err
	}
	// Read back what was committed: the record as info shows it (name,
	// content hash).
	if stored, ok, err := b.Cat.Puzzle(ctx, name); err == nil && ok {
		rec = stored
	}
	return Result{Outcome: Built, Record: rec}, nil
}

// asClasses reports whether a stored build of p keeps its classes only.
func asClasses(p canon.Puzzle, o Options) bool {
	return p.Kind == canon.Queens && !o.CountOnly && (o.AsClasses || p.N > enumerate.MaxStoredQueens)
}

// checkKnown compares rec's counts, and the toroidal and superqueen counts
// among a queens build's rows (OEIS A051906, A051223 and A051224), with the
// published ones, records rec's and the result, and fails on any
// difference: a count that differs is a bug, and nothing is stored.
func checkKnown(p canon.Puzzle, rec *catalog.Record, rows ...catalog.Breakdown) error {
	known, ok := canon.KnownCounts(p)
	if !ok {
		return fmt.Errorf("%s: %w: no published counts to check against", p, ErrBug)
	}
	rec.KnownSolutions, rec.KnownClasses = &known.Solutions, &known.Classes
	if m := known.Mismatch(rec.Solutions, rec.Classes, rec.Orbits); m != "" {
		return fmt.Errorf("%s: %w: found %s; nothing was stored", p, ErrBug, m)
	}
	for _, r := range rows {
		prop := canon.Property(r.Value)
		if r.Stat != catalog.StatProps || prop.Board() != prop {
			continue
		}
		k, ok := canon.KnownWithProperty(p, prop)
		if ok && (r.Solutions != k.Solutions || k.Classes >= 0 && r.Classes != k.Classes) {
			return fmt.Errorf("%s: %w: found %s and %s with the %s property, published %s; nothing was stored", p, ErrBug,
				canon.Plural(r.Solutions, "solution"), canon.Plural(r.Classes, "class"), prop, canon.Plural(k.Solutions, "solution"))
		}
	}
	rec.Verified = true
	return nil
}

// now is the time recorded as a build's start.
func now() time.Time { return time.Now().UTC().Truncate(time.Second) }
