package advice

import (
	"fmt"

	"solcat/canon"
	"solcat/catalog"
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

// Built is the line a build prints of a puzzle's result, its columns
// separated by tabs; shard is the build's.
func Built(p canon.Puzzle, shard builder.Shard, res builder.Result) string {
	rec := res.Record
	switch {
	case res.Outcome == builder.ShardDone:
		return fmt.Sprintf("%s\tshard %s already done; use --force to redo it", p, shard)
	case res.Outcome == builder.AlreadyBuilt:
		return fmt.Sprintf("%s\talready built: %s, %s; use --force to rebuild", p, canon.Plural(rec.Solutions, "solution"), canon.Plural(rec.Classes, "class"))
	case rec.Storage == catalog.StorageShard:
		return fmt.Sprintf("%s\tshard %s done\t%.2fs\tmerge the %d shard catalogs with 'solcat merge OUT SHARD...'", p, shard, rec.BuildSeconds, shard.Of)
	}
	return fmt.Sprintf("%s\t%s, %s\tmatches OEIS\t%.2fs\t%s", p, canon.Plural(rec.Solutions, "solution"), canon.Plural(rec.Classes, "class"), rec.BuildSeconds, rec.Storage)
}
