package advice

import (
	"solcat/canon"
	"solcat/catalog/builder"
	"solcat/enumerate"
)

// BuildRemedy adds to a refused build what would work instead.
func BuildRemedy(p canon.Puzzle, o builder.Options, err error) error {
	switch {
	case o.Shard.Of > 0 && !o.CountOnly && p.Kind == canon.Magic:
		return Usagef("%w; build it whole, or split magic:5 --count-only", err)
	case !o.CountOnly && enumerate.Supported(p, false) != nil && enumerate.Supported(p, true) == nil:
		return Usagef("%w; count it with --count-only instead (queens are counted up to N=%d)", err, enumerate.MaxCountedQueens)
	case o.CountOnly && p.Kind == canon.Magic && enumerate.Supported(p, false) == nil:
		return Usagef("%w; drop --count-only", err)
	}
	return UsageOf(err)
}
