package catalog

import (
	"context"
	"testing"
)

// TestShardsBeforeWorkColumns reads the shards of a catalog made before the
// shards' nodes and seconds columns, as a read-only (not migrated) open
// finds it: their work reads as 0, the rest as saved.
func TestShardsBeforeWorkColumns(t *testing.T) {
	ctx := context.Background()
	c := newTestCatalog(t)
	s := Shard{Puzzle: "queens:12", Shard: 2, Of: 3, Layout: Layout{Solver: "solcat-2", Cut: CutCounts, Units: 12}, Units: 10, Done: true, Nodes: 99, Seconds: 1.5}
	if err := c.Work().SaveShard(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Work().Shards(ctx); err != nil || len(got) != 1 || got[0] != s {
		t.Fatalf("shards: %+v, %v; want %+v", got, err, s)
	}
	for _, column := range []string{"seconds", "nodes"} {
		if _, err := c.db.ExecContext(ctx, `ALTER TABLE shards DROP COLUMN `+column); err != nil {
			t.Fatal(err)
		}
	}
	s.Nodes, s.Seconds = 0, 0
	if got, err := c.Work().Shards(ctx); err != nil || len(got) != 1 || got[0] != s {
		t.Errorf("shards of an older catalog: %+v, %v; want %+v", got, err, s)
	}
}
