package build

import (
	"context"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// Unfinished is the state of a puzzle's build that has not finished: one
// running now, or one that stopped and waits to be resumed.
type Unfinished struct {
	Puzzle    string
	Running   bool           // a process is building it now
	Writer    catalog.Holder // that process, if Running
	CountOnly bool           // a count-only build: it resumes as one
	Foreign   bool           // its saved units were counted by another solver: it starts over
	Search    bool           // a stored magic:5 in its class search (Done of Total units)
	Done      int64          // saved so far: rows, work units, or search units
	Total     int64
	Percent   int
}

// Status returns the unfinished build of p in the catalog at path (cat
// may be nil when the file does not exist yet); ok is false if there is
// none.
func Status(ctx context.Context, cat *catalog.Catalog, path string, p canon.Puzzle) (u Unfinished, ok bool, err error) {
	u.Puzzle = p.String()
	writer, running := catalog.RunningWriter(path)
	u.Running, u.Writer = running && writer.Building(u.Puzzle), writer
	if cat == nil {
		return u, u.Running, nil
	}
	b, building, err := cat.Building(ctx, u.Puzzle)
	if err != nil {
		return u, false, err
	}
	if building {
		u.Done, u.Total, u.Percent = b.ClassesDone+b.SolutionsDone, b.RowsTotal, b.Percent()
		return u, true, nil
	}
	if done, ok := catalog.SpillUnitsDone(path + ".sort"); ok && p.Kind == canon.Magic && p.N == 5 {
		total := len(enumerate.Magic5Units())
		u.Search, u.Done, u.Total, u.Percent = true, int64(done), int64(total), 100*done/total
		return u, true, nil
	}
	units, err := cat.DoneUnits(ctx, u.Puzzle)
	if err != nil {
		return u, false, err
	}
	if len(units) > 0 {
		plan := newCountPlan(p)
		for _, unit := range units {
			if plan.owns(unit) {
				u.Done++
			}
		}
		u.CountOnly, u.Foreign, u.Total = true, u.Done == 0, int64(len(plan.prefixes))
		u.Percent = int(100 * u.Done / u.Total)
		return u, true, nil
	}
	return u, u.Running, nil
}
