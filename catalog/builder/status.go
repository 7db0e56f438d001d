package builder

import (
	"context"
	"fmt"
	"slices"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
)

// Unfinished is the state of a puzzle's build that has not finished: one
// running now, or one that stopped and waits to be resumed.
type Unfinished struct {
	Puzzle    canon.Puzzle
	Running   bool           // a process is building it now
	Writer    catfile.Holder // that process, if Running
	CountOnly bool           // a count-only build: it resumes as one
	Foreign   bool           // its saved units were counted by another solver: it starts over
	Search    bool           // a stored magic:5 in its class search (Done of Total units)
	Done      int64          // saved so far: solutions or classes (What), work units, or search units
	Total     int64
	What      string // a stored build's: "solutions" or "classes"
	Percent   int
	Stored    *catalog.Building // a stored build's saved rows and times, or nil
	Shard     Shard             // the shard a stored build makes, if it makes one
}

// Status returns the unfinished build of p in the catalog at path (cat
// may be nil when the file does not exist yet); ok is false if there is
// none.
func Status(ctx context.Context, cat *catalog.Catalog, path string, p canon.Puzzle) (u Unfinished, ok bool, err error) {
	u.Puzzle = p
	name := p.String()
	writer, running := catfile.RunningWriter(path)
	u.Running, u.Writer = running && writer.Building(name), writer
	if cat == nil {
		return u, u.Running, nil
	}
	b, building, err := cat.Work().Building(ctx, name)
	if err != nil {
		return u, false, err
	}
	if building {
		u.Stored, u.Shard = &b, Shard{I: b.Layout.Shard, Of: b.Layout.Of}
		u.Done, u.Total, u.What = savedRows(p, b, u.Shard)
		u.Percent = int(100 * u.Done / max(u.Total, 1))
		return u, true, nil
	}
	if done, ok := SpillUnitsDone(catfile.SortFolder(path)); ok && p.Kind == canon.Magic && p.N == 5 {
		total := len(enumerate.Magic5Units())
		u.Search, u.Done, u.Total, u.Percent = true, int64(done), int64(total), 100*done/total
		return u, true, nil
	}
	units, err := cat.Work().DoneUnits(ctx, name)
	if err != nil {
		return u, false, err
	}
	if len(units) > 0 {
		plan := resumePlan(p, units)
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

// savedRows is what a stored build has saved as users count it, as its
// progress bar and StoppedError do: classes for a build of the classes
// alone, and for one still writing its classes, else solutions (a
// shard's share of them, about), not the rows of both the catalog saves.
func savedRows(p canon.Puzzle, b catalog.Building, shard Shard) (done, total int64, what string) {
	known, ok := canon.KnownCounts(p)
	switch {
	case b.ClassesOnly:
		return b.ClassesDone, b.RowsTotal, "classes"
	case !ok:
		return b.ClassesDone + b.SolutionsDone, b.RowsTotal, "rows" // not built: no such puzzle is stored
	case b.SolutionsDone == 0 && b.ClassesDone > 0:
		return b.ClassesDone, known.Classes, "classes"
	}
	solutions := known.Solutions
	if shard.Of > 0 {
		part := shard.FirstRows(p.N)
		solutions = solutions * int64(part.To-part.From) / int64(p.N)
	}
	return b.SolutionsDone, solutions, "solutions"
}

// UnderWay returns every unfinished build in the catalog at path: stored
// builds with saved rows, a stored magic:5 in its class search, and
// count-only builds with saved units, each running or stopped.
func UnderWay(ctx context.Context, cat *catalog.Catalog, path string) ([]Unfinished, error) {
	var names []string
	builds, err := cat.Work().Builds(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range builds {
		names = append(names, b.Puzzle)
	}
	if _, ok := SpillUnitsDone(catfile.SortFolder(path)); ok && !slices.Contains(names, "magic:5") {
		names = append(names, "magic:5")
	}
	counting, err := cat.Work().Counting(ctx)
	if err != nil {
		return nil, err
	}
	names = append(names, counting...)
	var out []Unfinished
	for _, name := range names {
		p, err := canon.ParsePuzzle(name)
		if err != nil {
			continue
		}
		if u, ok, err := Status(ctx, cat, path, p); err != nil {
			return nil, err
		} else if ok {
			out = append(out, u)
		}
	}
	return out, nil
}

// SavedWorkProblems checks the work that unfinished count-only builds and
// count shards have saved: every unit must be one of its plan's, and a
// shard's number one of its split's. A damaged unit would make the next
// run start the count over.
func SavedWorkProblems(ctx context.Context, cat *catalog.Catalog) ([]string, error) {
	names, err := cat.Work().Counting(ctx)
	if err != nil {
		return nil, err
	}
	shards, err := cat.Work().Shards(ctx)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, s := range shards {
		if !s.Possible() {
			problems = append(problems, fmt.Sprintf("%s: the catalog says it holds shard %d of %d, which no split has (damaged)", s.Puzzle, s.Shard, s.Of))
		}
		names = append(names, s.Puzzle)
	}
	for _, name := range names {
		p, err := canon.ParsePuzzle(name)
		if err != nil {
			problems = append(problems, fmt.Sprintf("saved work units name %q, which is no puzzle (damaged)", name))
			continue
		}
		if enumerate.Supported(p, true) != nil {
			continue // not counted in units by this solcat (nor its plan made)
		}
		units, err := cat.Work().DoneUnits(ctx, name)
		if err != nil {
			return nil, err
		}
		plan := resumePlan(p, units)
		bad := 0
		for _, u := range units {
			if !plan.owns(u) {
				if bad++; bad == 1 {
					problems = append(problems, fmt.Sprintf("%s: saved work unit %d is none of this solcat's units of its count (damaged, or saved by another version); the next count of it starts over", name, u.Unit))
				}
			}
		}
		if bad > 1 {
			problems[len(problems)-1] += fmt.Sprintf(" (%d such units)", bad)
		}
	}
	return problems, nil
}
