package catalog

import (
	"context"
)

// Shard says which part of a split build a catalog holds for a puzzle.
type Shard struct {
	Puzzle string `db:"puzzle"`
	Shard  int    `db:"shard"` // 1-based
	Of     int    `db:"of"`
	Layout Layout `db:"-"` // stored as its text (shardRow)
	Units  int    `db:"units"`
	Done   bool   `db:"done"`
	// The work of a finished shard, which a merge sums: search nodes, and
	// the wall time of the run that finished it.
	Nodes   int64   `db:"nodes"`
	Seconds float64 `db:"seconds"`
}

// Possible reports whether the shard's number is one its split has: 1 to
// K. A mark that says otherwise is damaged.
func (s Shard) Possible() bool { return s.Shard >= 1 && s.Shard <= s.Of }

// SaveShard records (or updates) the shard a catalog holds for a puzzle.
func (w *Work) SaveShard(ctx context.Context, s Shard) error {
	c := w.c
	_, err := c.db.ExecContext(ctx, `INSERT OR REPLACE INTO shards (puzzle, shard, of, layout, units, done, nodes, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		s.Puzzle, s.Shard, s.Of, storedLayout(s.Layout), s.Units, s.Done, s.Nodes, s.Seconds)
	return err
}

// Shards lists the shards a catalog holds.
func (w *Work) Shards(ctx context.Context) ([]Shard, error) {
	c := w.c
	if has, err := hasTable(ctx, c.db, "shards"); err != nil || !has {
		return nil, err
	}
	nodes, err := orZero(ctx, c.db, "shards", "nodes")
	if err != nil {
		return nil, err
	}
	seconds, err := orZero(ctx, c.db, "shards", "seconds")
	if err != nil {
		return nil, err
	}
	var rows []struct {
		Shard
		Layout storedLayout `db:"layout"`
	}
	err = c.db.SelectContext(ctx, &rows, `SELECT puzzle, shard, of, layout, units, done, `+nodes+`, `+seconds+` FROM shards ORDER BY puzzle`)
	var out []Shard
	for _, r := range rows {
		r.Shard.Layout = Layout(r.Layout)
		out = append(out, r.Shard)
	}
	return out, err
}

// ShardOf returns the shard a catalog holds for a puzzle, if any.
func (w *Work) ShardOf(ctx context.Context, puzzle string) (s Shard, ok bool, err error) {
	shards, err := w.Shards(ctx)
	for _, s := range shards {
		if s.Puzzle == puzzle {
			return s, true, err
		}
	}
	return s, false, err
}
