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

// count runs a count-only build of a queens puzzle. Each finished work unit
// is committed on its own, so an interrupted count resumes from the units
// already saved; the puzzle's record appears once every unit is done.
func (b *buildCmd) count(e *env, cat *catalog.Catalog, p canon.Puzzle) (catalog.Record, error) {
	start := time.Now()
	name := p.String()
	if b.Force {
		if err := cat.ClearUnits(e.ctx, name); err != nil {
			return catalog.Record{}, err
		}
	}
	units := enumerate.QueensClassUnits(p.N)
	saved, err := cat.DoneUnits(e.ctx, name)
	if err != nil {
		return catalog.Record{}, err
	}
	var total enumerate.ClassCounts
	finished := make([]bool, len(units))
	for _, u := range saved {
		if u.Unit >= len(units) || !bytes.Equal(u.Prefix, units[u.Unit].Prefix) {
			// Saved by a solver that split the work differently: start over.
			if err := cat.ClearUnits(e.ctx, name); err != nil {
				return catalog.Record{}, err
			}
			total, finished = enumerate.ClassCounts{}, make([]bool, len(units))
			break
		}
		finished[u.Unit] = true
		total.Add(enumerate.ClassCounts{Orbits: [9]int64{1: u.Orbit1, 2: u.Orbit2, 4: u.Orbit4, 8: u.Orbit8}, Nodes: u.Nodes})
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
	if len(todo) < len(units) {
		fmt.Fprintf(e.stderr, "%s: resuming, %d of %d units already counted\n", name, len(units)-len(todo), len(units))
	}
	bar := newProgress(e.stderr, name)
	doneCount := len(units) - len(todo)
	// A unit that finished is saved even when the build is being interrupted.
	saveCtx := context.WithoutCancel(e.ctx)
	err = enumerate.CountQueensUnits(e.ctx, p.N, units, todo, workers, func(i int, c enumerate.ClassCounts) error {
		err := cat.SaveUnit(saveCtx, name, catalog.UnitCounts{Unit: i, Prefix: units[i].Prefix,
			Orbit1: c.Orbits[1], Orbit2: c.Orbits[2], Orbit4: c.Orbits[4], Orbit8: c.Orbits[8], Nodes: c.Nodes})
		if err != nil {
			return err
		}
		total.Add(c)
		doneCount++
		bar.update(doneCount, len(units))
		return nil
	})
	bar.finish()
	if err != nil {
		if errors.Is(err, e.ctx.Err()) && e.ctx.Err() != nil {
			return catalog.Record{}, fmt.Errorf("interrupted: %d of %d units of %s are counted and saved; run the same command to resume", doneCount, len(units), name)
		}
		return catalog.Record{}, err
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
	return rec, cat.RecordCounts(e.ctx, rec)
}
