package builder

import (
	"context"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
)

// ShardState is a shard a catalog holds, and how far it is.
type ShardState struct {
	catalog.Shard
	UnitsDone int // the work units an unfinished count shard has counted
}

// shardState reads how far shard s is.
func shardState(ctx context.Context, cat *catalog.Catalog, s catalog.Shard) (ShardState, error) {
	st := ShardState{Shard: s}
	if s.Done {
		return st, nil
	}
	units, err := cat.Work().DoneUnits(ctx, s.Puzzle)
	st.UnitsDone = len(units)
	return st, err
}

// Absence is why a catalog has no record of a puzzle: it holds a shard of
// it, or a build of it is under way or stopped, or else it was never
// built (both nil), and then Reach says what a build can make of it.
type Absence struct {
	Shard      *ShardState
	Unfinished *Unfinished
	Reach      Reach
}

// Absent says why cat, the catalog at path, has no record of p. A build
// under way is seen from its first instant: it holds the catalog's lock.
func Absent(ctx context.Context, cat *catalog.Catalog, path string, p canon.Puzzle) (Absence, error) {
	a := Absence{Reach: ReachOf(p)}
	if s, ok, err := cat.Work().ShardOf(ctx, p.String()); err != nil {
		return a, err
	} else if ok {
		st, err := shardState(ctx, cat, s)
		a.Shard = &st
		return a, err
	}
	u, unfinished, err := Status(ctx, cat, path, p)
	if unfinished {
		a.Unfinished = &u
	}
	return a, err
}

// Holdings is what a catalog holds, as info tells it: the finished
// puzzles, the shards, the unfinished builds, the answers and estimates
// kept, and the process writing it.
type Holdings struct {
	Records    []catalog.Record
	Shards     []ShardState
	Unfinished []Unfinished
	Answers    []catalog.Answer     // kept constrained counts
	Counting   []catalog.SavedUnits // the units saved of counts not finished: stopped, or shards of a split count
	Estimates  []catalog.Estimate
	Board      []BoardCount // the toroidal and superqueen counts the queens builds recorded
	Writer     catfile.Holder
	Running    bool // a process writes the catalog now
}

// BoardCount is how many solutions and classes of a queens puzzle have a
// property of the board (toroidal, superqueen), as its build recorded and
// checked them against the published counts.
type BoardCount struct {
	Puzzle             string
	Prop               canon.Property
	Solutions, Classes int64
}

// Held reads what cat, the catalog at path, holds. A record, answer or
// estimate that does not match its seal is an error: it is never shown as
// a count.
func Held(ctx context.Context, cat *catalog.Catalog, path string) (Holdings, error) {
	var h Holdings
	var err error
	if h.Records, err = cat.Puzzles(ctx); err != nil {
		return h, err
	}
	shards, err := cat.Work().Shards(ctx)
	if err != nil {
		return h, err
	}
	for _, s := range shards {
		st, err := shardState(ctx, cat, s)
		if err != nil {
			return h, err
		}
		h.Shards = append(h.Shards, st)
	}
	if h.Unfinished, err = UnderWay(ctx, cat, path); err != nil {
		return h, err
	}
	if h.Answers, err = cat.Kept().Answers(ctx, ""); err != nil {
		return h, err
	}
	if h.Counting, err = cat.Kept().AllSavedUnits(ctx); err != nil {
		return h, err
	}
	for _, r := range h.Records {
		if r.Kind != canon.Queens || r.Storage != catalog.StorageSolutions && r.Storage != catalog.StorageClasses {
			continue
		}
		rows, err := cat.Breakdown(ctx, r.Name, catalog.StatProps)
		if err != nil {
			return h, err
		}
		for _, b := range rows {
			if prop := canon.Property(b.Value); prop.Board() == prop {
				h.Board = append(h.Board, BoardCount{Puzzle: r.Name, Prop: prop, Solutions: b.Solutions, Classes: b.Classes})
			}
		}
	}
	if h.Estimates, err = cat.Kept().Estimates(ctx, ""); err != nil {
		return h, err
	}
	for _, r := range h.Records {
		if r.SealProblem != "" {
			return h, &catalog.DamagedError{Puzzle: r.Name, Path: path, Problem: r.SealProblem}
		}
	}
	for _, a := range h.Answers {
		if a.Unsealed {
			return h, &catalog.DamagedError{Puzzle: a.Puzzle, Path: path, Problem: "the answer kept for " + a.Filter + " does not match its seal"}
		}
	}
	for _, e := range h.Estimates {
		if e.Unsealed {
			return h, &catalog.DamagedError{Puzzle: e.Puzzle, Path: path, Problem: "the estimate kept for " + e.Filter + " does not match its seal"}
		}
	}
	h.Writer, h.Running = catfile.RunningWriter(path)
	return h, nil
}
