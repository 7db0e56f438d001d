package advice

import (
	"solcat/canon"
	"solcat/catalog/builder"
)

// BuildRemedy adds to a refused build what would work instead.
func BuildRemedy(p canon.Puzzle, o builder.Options, err error) error {
	reach := builder.ReachOf(p)
	switch {
	case o.Shard.Of > 0 && !o.CountOnly && p.Kind == canon.Magic:
		return Usagef("%w; build it whole, or split magic:5 --count-only", err)
	case !o.CountOnly && !reach.Stored && reach.Counted:
		return Usagef("%w; count it with --count-only instead (queens are counted up to N=%d)", err, builder.BuildLimits.QueensCounted)
	case o.CountOnly && p.Kind == canon.Magic && reach.Stored:
		return Usagef("%w; drop --count-only", err)
	}
	return UsageOf(err)
}
