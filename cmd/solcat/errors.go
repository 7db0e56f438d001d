package main

import (
	"solcat/canon"
	"solcat/catalog/builder"
	"solcat/cmd/solcat/advice"
	"solcat/enumerate"
)

// buildRemedy adds to a refused build what would work instead.
func buildRemedy(p canon.Puzzle, o builder.Options, err error) error {
	switch {
	case o.Shard.Of > 0 && !o.CountOnly && p.Kind == canon.Magic:
		return usagef("%w; build it whole, or split magic:5 --count-only", err)
	case !o.CountOnly && enumerate.Supported(p, false) != nil && enumerate.Supported(p, true) == nil:
		return usagef("%w; count it with --count-only", err)
	case o.CountOnly && p.Kind == canon.Magic && enumerate.Supported(p, false) == nil:
		return usagef("%w; drop --count-only", err)
	}
	return advice.UsageOf(err)
}
