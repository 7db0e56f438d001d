package catalog

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"solcat/canon"
	"solcat/catalog/catfile"
	"solcat/migrations"
)

// MergeStored combines the shards of a split stored build of p, given in
// shard order, into this catalog: the classes from the first shard, the
// solutions from each in turn. It checks that the shards' solution IDs
// run on from one shard to the next, from 1, recomputes the content hash
// from the merged rows, hands each class to class (for the counts a build
// records), lets finish complete (and check) the record and give the
// breakdown, and puts the puzzle in place in one transaction.
func (c *Catalog) MergeStored(ctx context.Context, p canon.Puzzle, paths []string, class func(form []byte, orbit int, props uint32), finish func(rec *Record) ([]Breakdown, error)) (err error) {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	puzzle := p.String()
	_, cls := puzzleTables(puzzle)
	blocks := blocksTable(puzzle)
	total, err := ShardsFit(ctx, p, paths)
	if err != nil {
		return err
	}
	// Shards are attached one at a time (SQLite attaches at most 10), and
	// ATTACH is refused inside a transaction: the rows are copied into the
	// staging tables shard by shard, and the staging tables go if the merge
	// fails.
	// Every name in main is qualified: an unqualified one that main lacks
	// would be looked up in the attached shard.
	index, checks := blockIndexTable(puzzle), classChecksTable(puzzle)
	stBlocks, stIndex, stCls, stChecks := "main."+blocks+stagingSuffix, "main."+index+stagingSuffix, "main."+cls+stagingSuffix, "main."+checks+stagingSuffix
	dropStaged := "DROP TABLE IF EXISTS " + stBlocks + "; DROP TABLE IF EXISTS " + stIndex + "; DROP TABLE IF EXISTS " + stCls + "; DROP TABLE IF EXISTS " + stChecks + ";"
	if _, err := conn.ExecContext(ctx, dropStaged+migrations.PuzzleTables(stBlocks, stIndex, stCls, stChecks)); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			conn.ExecContext(context.WithoutCancel(ctx), dropStaged)
		}
	}()
	for i, path := range paths {
		err := withShard(ctx, conn, path, func() error {
			tx, err := conn.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if i == 0 { // the first shard holds the classes
				// A shard made by a solcat of schema 13 and below holds them
				// under classes_<p>.
				shardCls, err := classTable(ctx, tx, "shard", Record{Name: puzzle, Storage: StorageSolutions})
				if err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, "INSERT INTO "+stCls+" (id, canonical, orbit, props) SELECT id, canonical, orbit, props FROM shard."+shardCls+" ORDER BY id"); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, "INSERT INTO "+stChecks+" (first_id, checks, checksum) SELECT first_id, checks, checksum FROM shard."+checks+" ORDER BY first_id"); err != nil {
					return err
				}
			}
			// Blocks and their index rows are copied as they are: where two
			// shards meet, the blocks on either side are shorter than the
			// others, and so are the index rows.
			if layout, err := blockLayout(ctx, tx, "shard", puzzle); err != nil || layout != 3 {
				return cmp.Or(err, fmt.Errorf("the shard's solution blocks are of an older layout; build the shard again with this solcat"))
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO "+stBlocks+" (first_id, cells, class_syms) SELECT first_id, cells, class_syms FROM shard."+blocks+" ORDER BY first_id"); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO "+stIndex+" (first_id, entries, checksum) SELECT first_id, entries, checksum FROM shard."+index+" ORDER BY first_id"); err != nil {
				return err
			}
			return tx.Commit()
		})
		if err != nil {
			return fmt.Errorf("%s: %s: %w", puzzle, path, err)
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rec := Record{Name: puzzle, Storage: StorageSolutions, Solutions: total}
	hash := NewContentHash()
	var orbits [9]int64
	rows, err := tx.QueryContext(ctx, "SELECT canonical, orbit, props FROM "+stCls+" ORDER BY id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var form []byte
		var orbit int
		var props uint32
		if err := rows.Scan(&form, &orbit, &props); err != nil {
			rows.Close()
			return err
		}
		hash.AddClass(form, orbit)
		class(form, orbit, props)
		if orbit == 1 || orbit == 2 || orbit == 4 || orbit == 8 {
			orbits[orbit]++
		}
		rec.Classes++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	staged := puzzleBlocks(p, rec.Classes)
	staged.Table = stBlocks
	err = staged.ScanReporting(ctx, tx, 1, rec.Solutions, func(s StoredSolution) error {
		class, symmetry, err := s.Class()
		hash.AddSolution(s.Cells, class, symmetry)
		return err
	}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", puzzle, err)
	}
	rec.Orbits = orbits
	rec.ContentHash = hash.Sum()
	breakdown, err := finish(&rec)
	if err != nil {
		return err
	}
	if err := swapIn(ctx, tx, p, staged.Digits); err != nil {
		return err
	}
	if err := insertRecord(ctx, tx, rec); err != nil {
		return err
	}
	if err := insertBreakdown(ctx, tx, rec, breakdown); err != nil {
		return err
	}
	return tx.Commit()
}

// withShard attaches the shard catalog at path read-only as "shard" for
// the length of fn. Like a query, it reads the shard file immutable under
// the shard's read byte (catfile/access.go), so it makes no file beside the shard;
// a shard with a log that no one could copy in is read through it.
func withShard(ctx context.Context, conn *sql.Conn, path string, fn func() error) error {
	file := catfile.RealFile(path)
	params := []string{"mode=ro", "immutable=1"}
	if catfile.LogLeft(file) {
		params = []string{"mode=ro"}
	}
	locks, err := catfile.OpenLocks(file, false)
	if err != nil {
		return fmt.Errorf("cannot read shard %s: %w", path, err)
	}
	defer locks.Close()
	lease := catfile.NewReadLease(locks, path)
	if lease.Off() {
		params = []string{"mode=ro"}
	}
	if err := lease.Acquire(ctx); err != nil {
		return fmt.Errorf("cannot read shard %s: %w", path, err)
	}
	defer lease.Release()
	uri, err := catfile.FileURI(file, params...)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "ATTACH DATABASE ? AS shard", uri); err != nil {
		return fmt.Errorf("cannot read shard %s: %w", path, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DETACH DATABASE shard")
	return fn()
}

// ErrShardsApart means the stored shards given to a merge do not hold one
// run of solution IDs from 1: one is missing, repeated or altered.
var ErrShardsApart = errors.New("its shards do not fit together")

// ShardsFit checks that the stored shards of p at paths, in shard order,
// hold solution IDs that run on from 1 without a gap or an overlap, and
// returns how many they hold.
func ShardsFit(ctx context.Context, p canon.Puzzle, paths []string) (int64, error) {
	puzzle, next := p.String(), int64(1)
	for _, path := range paths {
		cat, err := Open(ctx, path)
		if err != nil {
			return 0, err
		}
		rows, lo, hi, err := blockTable{Table: blocksTable(puzzle), CellBytes: p.Len()}.extent(ctx, cat.db)
		cat.Close()
		if err != nil {
			return 0, fmt.Errorf("%s: %s: %w", puzzle, path, err)
		}
		if rows > 0 && (lo != next || hi != lo+rows-1) {
			return 0, fmt.Errorf("%s: %s holds solutions %d to %d (%d rows), the shards before it end at %d: %w", puzzle, path, lo, hi, rows, next-1, ErrShardsApart)
		}
		next += rows
	}
	return next - 1, nil
}
