package advice

import (
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
	Counting   []catalog.SavedUnits
	Estimates  []catalog.Estimate
	Board      []builder.BoardCount
	Writer     catfile.Holder
	Running    bool // a process writes the catalog now
}

// Shard is a shard the catalog holds, as users are told of it.
type Shard struct {
	catalog.Shard
	Line string
	JSON records.Object
}

// ContentsOf puts what a catalog holds into words.
func ContentsOf(h builder.Holdings) Contents {
	c := Contents{Records: h.Records, Answers: h.Answers, Counting: h.Counting, Estimates: h.Estimates, Board: h.Board, Writer: h.Writer, Running: h.Running}
	for _, s := range h.Shards {
		sh := Shard{Shard: s.Shard, JSON: records.Obj("puzzle", s.Puzzle, "storage", string(catalog.StorageShard), "shard", s.Shard.Shard, "of", s.Of, "units", s.Units, "done", s.Done)}
		if s.Done {
			sh.Line = fmt.Sprintf("%s: shard %d/%d (%s work units, finished); combine the shards with 'solcat merge OUT SHARD...'", s.Puzzle, s.Shard.Shard, s.Of, humanize.Comma(int64(s.Units)))
		} else {
			sh.JSON = append(sh.JSON, records.Field{Name: "units_done", Value: s.UnitsDone})
			sh.Line = fmt.Sprintf("%s: shard %d/%d, unfinished: %s", s.Puzzle, s.Shard.Shard, s.Of, ShardProgress(s))
		}
		c.Shards = append(c.Shards, sh)
	}
	for _, u := range h.Unfinished {
		c.Unfinished = append(c.Unfinished, Describe(u))
	}
	return c
}
