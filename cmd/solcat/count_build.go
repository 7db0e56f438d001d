package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
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
}

func newCountPlan(p canon.Puzzle) countPlan {
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

// count runs a count-only build. Each finished work unit is committed on
// its own, so an interrupted count resumes from the units already saved;
// the puzzle's record appears once every unit is done.
func (b *buildCmd) count(e *env, cat *catalog.Catalog, p canon.Puzzle) (catalog.Record, error) {
	start := time.Now()
	name := p.String()
	if b.Force {
		if err := cat.ClearUnits(e.ctx, name); err != nil {
			return catalog.Record{}, err
		}
	}
	plan := newCountPlan(p)
	units := len(plan.prefixes)
	saved, err := cat.DoneUnits(e.ctx, name)
	if err != nil {
		return catalog.Record{}, err
	}
	counts := make([]enumerate.ClassCounts, units)
	finished := make([]bool, units)
	for _, u := range saved {
		if u.Unit >= units || !bytes.Equal(u.Prefix, plan.prefixes[u.Unit]) {
			// Saved by a solver that split the work differently: start over.
			if err := cat.ClearUnits(e.ctx, name); err != nil {
				return catalog.Record{}, err
			}
			counts, finished = make([]enumerate.ClassCounts, units), make([]bool, units)
			break
		}
		finished[u.Unit] = true
		counts[u.Unit] = enumerate.ClassCounts{Orbits: [9]int64{1: u.Orbit1, 2: u.Orbit2, 4: u.Orbit4, 8: u.Orbit8}, Nodes: u.Nodes}
	}
	var todo []int
	for i, done := range finished {
		if !done {
			todo = append(todo, i)
		}
	}
	workers := b.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	if len(todo) < units {
		fmt.Fprintf(e.stderr, "%s: resuming, %d of %d units already counted\n", name, units-len(todo), units)
	}
	bar := newProgress(e.stderr, name)
	doneCount := units - len(todo)
	// A unit that finished is saved even when the build is being interrupted.
	saveCtx := context.WithoutCancel(e.ctx)
	err = plan.run(e.ctx, todo, workers, func(i int, c enumerate.ClassCounts) error {
		err := cat.SaveUnit(saveCtx, name, catalog.UnitCounts{Unit: i, Prefix: plan.prefixes[i],
			Orbit1: c.Orbits[1], Orbit2: c.Orbits[2], Orbit4: c.Orbits[4], Orbit8: c.Orbits[8], Nodes: c.Nodes})
		if err != nil {
			return err
		}
		counts[i] = c
		doneCount++
		bar.update(doneCount, units)
		return nil
	})
	bar.finish()
	if err != nil {
		if errors.Is(err, e.ctx.Err()) && e.ctx.Err() != nil {
			return catalog.Record{}, fmt.Errorf("interrupted: %d of %d units of %s are counted and saved; run the same command to resume", doneCount, units, name)
		}
		return catalog.Record{}, err
	}
	var total enumerate.ClassCounts
	var breakdown []catalog.Breakdown
	if plan.centre == nil {
		for _, c := range counts {
			total.Add(c)
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
			breakdown = append(breakdown, catalog.Breakdown{Stat: "cell:3,3", Value: centre, Solutions: 8 * byCentre[centre], Classes: byCentre[centre]})
		}
	}
	rec := catalog.Record{
		Kind: string(p.Kind), N: p.N, Storage: "counts",
		Solutions: total.Solutions(), Classes: total.Classes(),
		SearchNodes: total.Nodes, Workers: workers,
		BuiltAt: start.UTC().Format(time.RFC3339), SolverVersion: solverVersion,
	}
	rec.SetOrbits(total.Orbits)
	if err := checkKnown(p, &rec); err != nil {
		return rec, err
	}
	rec.Name = name
	rec.BuildSeconds = time.Since(start).Seconds()
	return rec, cat.RecordCounts(e.ctx, rec, breakdown)
}
