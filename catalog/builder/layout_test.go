package builder

import (
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// TestLayoutsAsBefore checks that every layout a build writes is stored as
// the text earlier solcats wrote for it, so that their saved builds and
// shards are resumed and merged. (The
// stored layouts name the block and class indexes, which solcats of schema
// 17 and below did not write: their saved builds start over.) catalog's
// TestLayoutText reads these texts back.
func TestLayoutsAsBefore(t *testing.T) {
	q8 := canon.Puzzle{Kind: canon.Queens, N: 8}
	shard := storedSplitLayout(q8)
	shard.Shard, shard.Of = 2, 4
	for _, tc := range []struct {
		name   string
		layout catalog.Layout
		text   string
	}{
		{"stored", storedLayout(q8), "solcat-2, 4096 rows per unit, indexed blocks"},
		{"stored split", storedSplitLayout(q8), "solcat-2, 4096 rows per unit, indexed blocks, stored by first row"},
		{"stored shard", shard, "solcat-2, 4096 rows per unit, indexed blocks, stored by first row shard 2/4"},
		{"queens classes", queensClassesLayout(len(enumerate.QueensClassUnits(18)), queensClassesUnitRows(666090624)),
			"solcat-2, queens classes: 1354 search units, 4194304 classes per unit, packed forms, class index"},
		{"magic:5 classes", magic5Layout(len(enumerate.Magic5Units())), "solcat-2, magic:5 classes: 3636 frame units, 10-bit buckets, class index"},
		{"count", newCountPlan(canon.Puzzle{Kind: canon.Magic, N: 5}).layout(), "solcat-2, 3636 units"},
		{"join counter", queensCountPlan(enumerate.NewQueensCounterUsing(17, false)).layout(), "solcat-2, join counter, 1016 units"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.layout.String(); got != tc.text {
				t.Errorf("stored as %q, earlier solcats wrote %q", got, tc.text)
			}
		})
	}
}
