package advice

import (
	"context"
	"fmt"

	"github.com/dustin/go-humanize"

	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/query/records"
)

// Contents is what a catalog holds, as info tells it: the finished
// puzzles, the shards, the unfinished builds, and the process writing it.
type Contents struct {
	Records    []catalog.Record
	Shards     []Shard
	Unfinished []Unfinished
	Answers    []catalog.Answer // kept constrained counts
	Estimates  []catalog.Estimate
	Writer     catfile.Holder
	Running    bool // a process writes the catalog now
}

// Shard is a shard the catalog holds, as users are told of it.
type Shard struct {
	catalog.Shard
	Line string
	JSON records.Object
}

// ContentsOf reads what the catalog at path holds.
func ContentsOf(ctx context.Context, cat *catalog.Catalog, path string) (Contents, error) {
	var c Contents
	var err error
	if c.Records, err = cat.Puzzles(ctx); err != nil {
		return c, err
	}
	shards, err := cat.Work().Shards(ctx)
	if err != nil {
		return c, err
	}
	for _, s := range shards {
		sh := Shard{Shard: s, JSON: records.Obj("puzzle", s.Puzzle, "storage", string(catalog.StorageShard), "shard", s.Shard, "of", s.Of, "units", s.Units, "done", s.Done)}
		if s.Done {
			sh.Line = fmt.Sprintf("%s: shard %d/%d (%s work units, finished); combine the shards with 'solcat merge OUT SHARD...'", s.Puzzle, s.Shard, s.Of, humanize.Comma(int64(s.Units)))
		} else {
			units, err := cat.Work().DoneUnits(ctx, s.Puzzle)
			if err != nil {
				return c, err
			}
			sh.JSON = append(sh.JSON, records.Field{Name: "units_done", Value: len(units)})
			state, err := ShardProgress(ctx, cat, s)
			if err != nil {
				state = err.Error()
			}
			sh.Line = fmt.Sprintf("%s: shard %d/%d, unfinished: %s", s.Puzzle, s.Shard, s.Of, state)
		}
		c.Shards = append(c.Shards, sh)
	}
	underway, err := builder.UnderWay(ctx, cat, path)
	if err != nil {
		return c, err
	}
	for _, u := range underway {
		c.Unfinished = append(c.Unfinished, Describe(u))
	}
	if c.Answers, err = cat.Kept().Answers(ctx, ""); err != nil {
		return c, err
	}
	if c.Estimates, err = cat.Kept().Estimates(ctx, ""); err != nil {
		return c, err
	}
	// A row that does not match its seal is never shown as a count.
	for _, r := range c.Records {
		if r.SealProblem != "" {
			return c, &catalog.DamagedError{Puzzle: r.Name, Path: path, Problem: r.SealProblem}
		}
	}
	for _, a := range c.Answers {
		if a.Unsealed {
			return c, &catalog.DamagedError{Puzzle: a.Puzzle, Path: path, Problem: "the answer kept for " + a.Filter + " does not match its seal"}
		}
	}
	for _, e := range c.Estimates {
		if e.Unsealed {
			return c, &catalog.DamagedError{Puzzle: e.Puzzle, Path: path, Problem: "the estimate kept for " + e.Filter + " does not match its seal"}
		}
	}
	c.Writer, c.Running = catfile.RunningWriter(path)
	return c, nil
}
