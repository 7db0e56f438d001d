package builder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// A countPlan is a count-only build cut into work units.
type countPlan struct {
	prefixes [][]byte // what each unit fixes, saved with its counts
	run      func(ctx context.Context, todo []int, workers int, done func(i int, c enumerate.ClassCounts) error) error
	centre   func(i int) int // magic:5: the unit's centre value; nil for queens
	method   string          // the counter, when a puzzle has more than one
}

func newCountPlan(p canon.Puzzle) countPlan {
	if p.Kind == canon.Queens && p.N >= 4 {
		return queensCountPlan(enumerate.NewQueensCounter(p.N))
	}
	if p.Kind == canon.Queens {
		units := enumerate.QueensClassUnits(p.N)
		plan := countPlan{run: func(ctx context.Context, todo []int, workers int, done func(int, enumerate.ClassCounts) error) error {
			return enumerate.CountQueensUnits(ctx, p.N, units, todo, workers, done)
		}}
		for _, u := range units {
			plan.prefixes = append(plan.prefixes, u.Prefix)
		}
		return plan
	}
	units := enumerate.Magic5Units()
	plan := countPlan{
		run: func(ctx context.Context, todo []int, workers int, done func(int, enumerate.ClassCounts) error) error {
			return enumerate.CountMagic5Units(ctx, units, todo, workers, func(i int, c enumerate.Magic5Count) error {
				// Each basic square stands for 4 classes of 8 squares.
				return done(i, enumerate.ClassCounts{Orbits: [9]int64{8: 4 * c.Basic}, Nodes: c.Configs})
			})
		},
		centre: func(i int) int { return units[i].Centre },
	}
	for _, u := range units {
		plan.prefixes = append(plan.prefixes, u.Prefix())
	}
	return plan
}

func queensCountPlan(counter enumerate.QueensCounter) countPlan {
	return countPlan{prefixes: counter.Keys(), run: counter.Count, method: counter.Method()}
}

// ErrOtherShard means a shard build was asked of a catalog that holds the
// whole puzzle, or another shard of it whose saved units it would mix in.
var ErrOtherShard = errors.New("is no place for this shard")

// CheckOtherShard refuses a shard build of p into a catalog that holds
// all of p (the shard would stand beside it, or replace it), or another
// shard of p, unless o.Force: a count shard's saved units belong to its
// split, and a stored shard would replace the one there. The error is an
// *OtherShardError.
func CheckOtherShard(ctx context.Context, cat *catalog.Catalog, p canon.Puzzle, o Options) error {
	if o.Shard.Of == 0 {
		return nil
	}
	if rec, ok, err := cat.Puzzle(ctx, p.String()); err != nil || ok {
		if err == nil {
			err = &OtherShardError{Puzzle: p, Wanted: o.Shard, Whole: rec.Storage}
		}
		return err
	}
	had, ok, err := cat.Work().ShardOf(ctx, p.String())
	if err != nil || !ok || o.Force {
		return err
	}
	hadStored := had.Layout == storedSplitLayout(p)
	if had.Shard == o.Shard.I && had.Of == o.Shard.Of && hadStored == !o.CountOnly {
		return nil
	}
	return &OtherShardError{Puzzle: p, Wanted: o.Shard, Held: had, HeldStored: hadStored}
}

// OtherShardError is a shard build refused by what the catalog holds:
// all of the puzzle (Whole, its storage), or another shard of it (Held).
type OtherShardError struct {
	Puzzle     canon.Puzzle
	Wanted     Shard
	Whole      catalog.Storage
	Held       catalog.Shard
	HeldStored bool // Held is a stored shard, not a count shard
}

func (e *OtherShardError) Error() string {
	if e.Whole != "" {
		return fmt.Sprintf("the catalog %v: it holds all of %s (stored as %s)", ErrOtherShard, e.Puzzle, e.Whole)
	}
	state := "unfinished"
	if e.Held.Done {
		state = "it is finished"
	}
	return fmt.Sprintf("the catalog %v: it holds %s (%s)", ErrOtherShard, e.Holding(), state)
}

// Holding names the shard the catalog holds: "count shard 1/2 of queens:16".
func (e *OtherShardError) Holding() string {
	kind := "count shard"
	if e.HeldStored {
		kind = "stored shard"
	}
	return fmt.Sprintf("%s %d/%d of %s", kind, e.Held.Shard, e.Held.Of, e.Puzzle)
}

func (e *OtherShardError) Unwrap() error { return ErrOtherShard }

// resumePlan is the count plan that saved units: on a machine of the
// other kind, with or without AVX-512, a count goes on with the counter
// that began it rather than start over. Units neither counter made are
// for count to clear.
func resumePlan(p canon.Puzzle, saved []catalog.UnitCounts) countPlan {
	return resumePlanFrom(newCountPlan(p), p, saved)
}

// resumePlanFrom is resumePlan given the plan this machine would use.
func resumePlanFrom(plan countPlan, p canon.Puzzle, saved []catalog.UnitCounts) countPlan {
	if len(saved) == 0 || plan.owns(saved[0]) {
		return plan
	}
	if other, ok := eitherQueensPlan(p, func(c countPlan) bool { return c.owns(saved[0]) }); ok {
		return other
	}
	return plan
}

// countPlanOf is the count plan of p that made layout: for queens, either
// counter (machines with and without AVX-512 count some sizes with
// different ones); else, or if neither made it, newCountPlan's.
func countPlanOf(p canon.Puzzle, layout catalog.Layout) countPlan {
	plan := newCountPlan(p)
	if plan.layout() == layout {
		return plan
	}
	if other, ok := eitherQueensPlan(p, func(c countPlan) bool { return c.layout() == layout }); ok {
		return other
	}
	return plan
}

// eitherQueensPlan is the plan of the queens counter, halves or join, that
// made what accept recognises, if p is counted by them.
func eitherQueensPlan(p canon.Puzzle, accept func(countPlan) bool) (countPlan, bool) {
	if p.Kind != canon.Queens || p.N < 4 {
		return countPlan{}, false
	}
	for _, halves := range []bool{true, false} {
		if plan := queensCountPlan(enumerate.NewQueensCounterUsing(p.N, halves)); accept(plan) {
			return plan, true
		}
	}
	return countPlan{}, false
}

// owns reports whether a saved unit is one of this plan's (same index and
// prefix), not left by a solver that split the work differently.
func (plan countPlan) owns(u catalog.UnitCounts) bool {
	return u.Unit >= 0 && u.Unit < len(plan.prefixes) && bytes.Equal(u.Prefix, plan.prefixes[u.Unit])
}

// layout names the solver and the split into units: shards merge only if
// they were counted with the same.
func (plan countPlan) layout() catalog.Layout {
	return catalog.Layout{Solver: SolverVersion, Cut: catalog.CutCounts, Counter: plan.method, Units: len(plan.prefixes)}
}

// unitCounts is what a saved unit found, as the counters report it.
func unitCounts(u catalog.UnitCounts) enumerate.ClassCounts {
	return enumerate.ClassCounts{Orbits: [9]int64{1: u.Orbit1, 2: u.Orbit2, 4: u.Orbit4, 8: u.Orbit8}, Joined: u.Joined, Nodes: u.Nodes}
}

// unitBatch is the longest a count-only build keeps finished units
// before it commits them.
const unitBatch = 250 * time.Millisecond

// count runs a count-only build, or with a shard set, one shard of it.
// Finished work units are committed a fraction of a second apart at most
// (see unitBatch), so an interrupted count resumes from the units already
// saved; the puzzle's record appears once every unit is done (a shard is
// marked done instead, for Merge).
func (b *Builder) count(ctx context.Context, p canon.Puzzle, o Options) (catalog.Record, error) {
	start := time.Now()
	name := p.String()
	if o.Force {
		if err := b.Cat.Work().ClearUnits(ctx, name); err != nil {
			return catalog.Record{}, err
		}
	}
	saved, err := b.Cat.Work().DoneUnits(ctx, name)
	if err != nil {
		return catalog.Record{}, err
	}
	fresh := newCountPlan(p)
	plan := resumePlanFrom(fresh, p, saved)
	if plan.method != fresh.method {
		o.notice("%s: resuming with the %s that began it (this machine would use the %s)", name, plan.method, fresh.method)
	}
	units := len(plan.prefixes)
	counts := make([]enumerate.ClassCounts, units)
	finished := make([]bool, units)
	for _, u := range saved {
		if !plan.owns(u) {
			// Saved by a solver that split the work differently (another
			// solcat's): start over rather than mix them in.
			o.notice("%s: the %s units saved were counted with another split of the work; counting again", name, canon.Thousands(int64(len(saved))))
			if err := b.Cat.Work().ClearUnits(ctx, name); err != nil {
				return catalog.Record{}, err
			}
			counts, finished = make([]enumerate.ClassCounts, units), make([]bool, units)
			break
		}
		finished[u.Unit] = true
		counts[u.Unit] = unitCounts(u)
	}
	var todo []int
	mine := 0
	for i, done := range finished {
		if !o.Shard.Has(i) {
			continue
		}
		mine++
		if !done {
			todo = append(todo, i)
		}
	}
	shard := catalog.Shard{Puzzle: name, Shard: o.Shard.I, Of: o.Shard.Of, Layout: plan.layout(), Units: mine}
	if o.Shard.Of > 0 {
		if err := b.Cat.Work().SaveShard(ctx, shard); err != nil {
			return catalog.Record{}, err
		}
	}
	workers := o.workers()
	if len(todo) < mine {
		o.notice("%s%s: resuming, %s of %s units already counted", name, o.Shard.label(), canon.Thousands(int64(mine-len(todo))), canon.Thousands(int64(mine)))
	}
	bar := o.progress(name+o.Shard.label(), "work units")
	doneCount := mine - len(todo)
	bar.Update(int64(doneCount), int64(mine))
	// Finished units are committed together, unitBatch apart at most: a
	// commit costs as much as counting a small unit. A unit that finished
	// is saved even when the build is being interrupted.
	saveCtx := context.WithoutCancel(ctx)
	committed := doneCount
	var pending []catalog.UnitCounts
	last := time.Now()
	flush := func() error {
		if err := b.Cat.Work().SaveUnits(saveCtx, name, pending); err != nil {
			return err
		}
		committed += len(pending)
		pending, last = pending[:0], time.Now()
		return nil
	}
	err = plan.run(ctx, todo, workers, func(i int, c enumerate.ClassCounts) error {
		pending = append(pending, catalog.UnitCounts{Unit: i, Prefix: plan.prefixes[i],
			Orbit1: c.Orbits[1], Orbit2: c.Orbits[2], Orbit4: c.Orbits[4], Orbit8: c.Orbits[8], Joined: c.Joined, Nodes: c.Nodes})
		counts[i] = c
		doneCount++
		bar.Update(int64(doneCount), int64(mine))
		if time.Since(last) >= unitBatch {
			return flush()
		}
		return nil
	})
	if ferr := flush(); err == nil {
		err = ferr
	}
	bar.Finish()
	if err != nil {
		if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
			err = ErrInterrupted
		}
		return catalog.Record{}, &StoppedError{Puzzle: name + o.Shard.label(), Done: int64(committed), Total: int64(mine), What: "work units", Err: cause(ctx, err, b.Cat)}
	}
	if o.Shard.Of > 0 {
		shard.Done, shard.Seconds = true, time.Since(start).Seconds()
		for i, c := range counts {
			if o.Shard.Has(i) {
				shard.Nodes += c.Nodes
			}
		}
		err := b.Cat.Work().SaveShard(ctx, shard)
		return catalog.Record{Name: name, Kind: p.Kind, N: p.N, Storage: catalog.StorageShard, BuildSeconds: time.Since(start).Seconds()}, err
	}
	rec, breakdown, err := plan.record(ctx, p, counts, workers)
	if err != nil {
		return rec, err
	}
	rec.Workers, rec.BuiltAt, rec.SolverVersion = workers, start.UTC().Truncate(time.Second), SolverVersion
	if err := checkKnown(p, &rec); err != nil {
		return rec, err
	}
	rec.BuildSeconds = time.Since(start).Seconds()
	return rec, b.Cat.RecordCounts(ctx, rec, breakdown)
}

// record sums the units' counts into the puzzle's record (and, for
// magic:5, its counts by centre and of three properties).
func (plan countPlan) record(ctx context.Context, p canon.Puzzle, counts []enumerate.ClassCounts, workers int) (catalog.Record, []catalog.Breakdown, error) {
	var total enumerate.ClassCounts
	var breakdown []catalog.Breakdown
	if plan.centre == nil {
		for _, c := range counts {
			total.Add(c)
		}
		if total.Joined != 0 {
			if err := total.ClassifyJoined(); err != nil {
				return catalog.Record{}, nil, fmt.Errorf("%s: %w: %w", p, ErrBug, err)
			}
		}
	} else {
		// Centres 1 to 12 also stand for their complements 26-c.
		byCentre := make([]int64, 26)
		for i, c := range counts {
			centre := plan.centre(i)
			byCentre[centre] += c.Orbits[8]
			total.Add(c)
			if centre < 13 {
				byCentre[26-centre] += c.Orbits[8]
				total.Add(enumerate.ClassCounts{Orbits: c.Orbits}) // searched once
			}
		}
		for centre := 1; centre <= 25; centre++ {
			breakdown = append(breakdown, catalog.Breakdown{Stat: catalog.StatCell(3, 3), Value: centre, Solutions: 8 * byCentre[centre], Classes: byCentre[centre]})
		}
		props, err := magic5Properties(ctx, workers)
		if err != nil {
			return catalog.Record{}, nil, err
		}
		breakdown = append(breakdown, props...)
	}
	rec := catalog.Record{
		Name: p.String(), Kind: p.Kind, N: p.N, Storage: catalog.StorageCounts,
		Solutions: total.Solutions(), Classes: total.Classes(), SearchNodes: total.Nodes,
	}
	rec.Orbits = total.Orbits
	return rec, breakdown, nil
}

// magic5Properties counts the associative order-5 classes, those also
// pandiagonal (ultramagic), and the pandiagonal ones, by restricted searches
// (under a second, and about 15 seconds for pandiagonal on 2 cores), for
// counts by property on the count-only record.
func magic5Properties(ctx context.Context, workers int) ([]catalog.Breakdown, error) {
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	var associative, ultramagic int64
	enumerate.Magic5Associative(func(sq *[25]byte) {
		for _, member := range enumerate.Magic5Classes(sq[:]) {
			associative++
			if p.Properties(member)&canon.Pandiagonal != 0 {
				ultramagic++
			}
		}
	})
	pandiagonal, err := enumerate.CountMagic5Pandiagonal(ctx, workers)
	if err != nil {
		return nil, err
	}
	if associative != canon.Magic5AssociativeClasses || ultramagic != canon.Magic5UltramagicClasses || pandiagonal != canon.Magic5PandiagonalClasses {
		return nil, fmt.Errorf("magic:5: %w: %d associative, %d ultramagic and %d pandiagonal classes found, %d, %d and %d published; nothing was stored",
			ErrBug, associative, ultramagic, pandiagonal, canon.Magic5AssociativeClasses, canon.Magic5UltramagicClasses, canon.Magic5PandiagonalClasses)
	}
	return []catalog.Breakdown{
		{Stat: catalog.StatProps, Value: int(canon.Associative), Solutions: 8 * associative, Classes: associative},
		{Stat: catalog.StatProps, Value: int(canon.Associative | canon.Pandiagonal), Solutions: 8 * ultramagic, Classes: ultramagic},
		{Stat: catalog.StatProps, Value: int(canon.Pandiagonal), Solutions: 8 * pandiagonal, Classes: pandiagonal},
	}, nil
}

// CheckShardsAt is CheckOtherShard for each of puzzles in the catalog at
// path, read before the catalog is opened for writing (which touches it).
// A file that is not a catalog yet passes: Create says what is wrong.
func CheckShardsAt(ctx context.Context, path string, puzzles []canon.Puzzle, o Options) error {
	if o.Shard.Of == 0 {
		return nil
	}
	cat, err := catalog.Open(ctx, path)
	if err != nil {
		return nil
	}
	defer cat.Close()
	for _, p := range puzzles {
		if err := CheckOtherShard(ctx, cat, p, o); err != nil {
			return err
		}
	}
	return nil
}
