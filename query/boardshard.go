package query

import (
	"context"
	"fmt"
	"time"

	"solcat/canon"
)

// A Part is the share of a board count's units one run counts. A shard
// (Of > 0) counts the units whose index modulo Of is Shard-1, into a
// catalog of its own, on a machine of its own; merge gathers the shards'
// units into one catalog, where the count without a shard finds them
// saved and counts only what no shard saved, with the solutions the turns
// fix, and checks the total. No run counts the units Saved again.
type Part struct {
	Shard, Of int
	Saved     map[int]int64 // units saved by earlier runs, by index
}

// Has reports whether the part counts unit i, saved or not.
func (p Part) Has(i int) bool { return p.Of == 0 || i%p.Of == p.Shard-1 }

// ErrNotSharded is a --shard on a count that is not split: a filter
// counted again, or a board count with no units.
var ErrNotSharded = filterMistake("only toroidal and superqueen counts of queens not stored split into shards")

// ErrFilterNotSharded is a --shard on a filter counted again.
var ErrFilterNotSharded = fmt.Errorf("%w: this is a filter counted again, which a stopped run resumes", ErrNotSharded)

// Take narrows the count to part: its time, its refusal and its report
// are those of the units it leaves to count. A shard of a count that has
// no units to split is refused (ErrNotSharded).
func (b *BoardCount) Take(p Part) error {
	units := b.Units()
	if p.Of > 0 && (b.Classes || b.Filter.Orbit != 0) {
		// A shard's units hold solutions only: the classes and orbits
		// come from the fixed searches the merged count runs.
		return filterMistake("--shard counts a share of the total's solutions only; count every shard and merge them, then ask for classes or orbits on the merged catalog, without --shard")
	}
	if p.Of > 0 && units == 0 {
		if b.counter == nil {
			return fmt.Errorf("%w: cells up to symmetry are counted as one search per set of images, which does not split", ErrNotSharded)
		}
		return fmt.Errorf("%w: this one is counted at once, with no units to split", ErrNotSharded)
	}
	if p.Of > units {
		return filterMistake(fmt.Sprintf("--shard %d/%d: the %s count of %s has %s; split it into at most as many shards", p.Shard, p.Of, b.Prop, b.Puzzle, canon.Plural(int64(units), "unit")))
	}
	b.part = p
	if units == 0 {
		return nil
	}
	mine, saved := p.tally(units)
	share := float64(mine-saved) / float64(units)
	b.Nodes *= share
	b.Took = time.Duration(float64(b.Took) * share)
	if p.Of > 0 {
		b.counter.Shard(p.Has)
	}
	return nil
}

// tally counts, of a count's units, those the part has and, of them,
// those saved.
func (p Part) tally(units int) (mine, saved int) {
	for i := range units {
		if p.Has(i) {
			mine++
			if _, ok := p.Saved[i]; ok {
				saved++
			}
		}
	}
	return mine, saved
}

// Resumes reports whether units saved by earlier runs wait to be resumed.
func (b *BoardCount) Resumes() bool {
	_, saved := b.part.tally(b.Units())
	return saved > 0
}

// Sharded reports whether the count is one shard of a split.
func (b *BoardCount) Sharded() bool { return b.part.Of > 0 }

// A ShardSum is what one shard of a split board count counted.
type ShardSum struct {
	Shard, Of int
	Units     int   // the shard's units
	AllUnits  int   // the count's
	Solutions int64 // in the shard's units
}

// CountShard counts a shard's units not in saved (counted by an earlier run
// of it), handing each to save and telling progress the shard's units
// done of all of its units after each.
func (b *BoardCount) CountShard(ctx context.Context, saved map[int]int64, save func(unit int, solutions int64), progress Progress) (ShardSum, error) {
	sum := ShardSum{Shard: b.part.Shard, Of: b.part.Of, AllUnits: b.Units()}
	sum.Units, _ = b.part.tally(sum.AllUnits)
	b.counter.Resume(saved)
	n, _, err := b.counter.Count(ctx, b.Workers, save, progress)
	sum.Solutions = n
	return sum, err
}

// partDetail says, for --explain, what share of the units the count
// counts: a shard's, and those earlier runs saved.
func (b *BoardCount) partDetail() []string {
	var out []string
	units := b.Units()
	mine, saved := b.part.tally(units)
	if b.part.Of > 0 {
		out = append(out, fmt.Sprintf("shard: %d/%d, the %s of %s whose index modulo %d is %d; each is saved in the catalog as it is counted, 'solcat merge' gathers the shards' units into one catalog, and the same count there without --shard counts what no shard saved and gives the total",
			b.part.Shard, b.part.Of, canon.Plural(int64(mine), "unit"), canon.Thousands(int64(units)), b.part.Of, b.part.Shard-1))
	}
	if saved > 0 {
		out = append(out, fmt.Sprintf("saved: %s of them counted by earlier runs (a run stopped, or shards merged), not counted again", canon.Thousands(int64(saved))))
	}
	return out
}
