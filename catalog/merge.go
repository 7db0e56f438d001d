package catalog

import (
	"context"
	"fmt"

	"solcat/migrations"
)

// MergeStored combines the shards of a split stored build, given in shard
// order, into this catalog: the classes from the first shard, the
// solutions from each in turn. It checks that the shards' solution IDs
// run on from one shard to the next, from 1, recomputes the content hash
// from the merged rows, lets finish complete (and check) the record, and
// puts the puzzle in place in one transaction. cellBytes is the length of
// one solution's cells.
func (c *Catalog) MergeStored(ctx context.Context, puzzle string, cellBytes int, paths []string, finish func(rec *Record) error) error {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, cls := puzzleTables(puzzle)
	blocks := blocksTable(puzzle)
	for i, path := range paths {
		uri, err := fileURI(path, "mode=ro")
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("ATTACH DATABASE ? AS shard%d", i), uri); err != nil {
			return fmt.Errorf("cannot read shard %s: %w", path, err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("DETACH DATABASE shard%d", i))
	}
	next := int64(1)
	for i, path := range paths {
		shard := blockTable{Table: fmt.Sprintf("shard%d.%s", i, blocks), CellBytes: cellBytes}
		rows, lo, hi, err := shard.extent(ctx, conn)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", puzzle, path, err)
		}
		if rows > 0 && (lo != next || hi != lo+rows-1) {
			return fmt.Errorf("%s: %s holds solutions %d to %d (%d rows), the shards before it end at %d; its shards do not fit together", puzzle, path, lo, hi, rows, next-1)
		}
		next += rows
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Every name in main is qualified: an unqualified one that main lacks
	// would be looked up in the attached shards.
	stBlocks, stCls := "main."+blocks+stagingSuffix, "main."+cls+stagingSuffix
	ddl := "DROP TABLE IF EXISTS " + stBlocks + "; DROP TABLE IF EXISTS " + stCls + ";" + migrations.PuzzleTables(stBlocks, stCls, readable(puzzle))
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO "+stCls+" (id, canonical, orbit, props) SELECT id, canonical, orbit, props FROM shard0."+cls+" ORDER BY id"); err != nil {
		return err
	}
	for i := range paths {
		// Blocks are copied as they are: where two shards meet, the blocks
		// on either side are shorter than the others.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s (first_id, cells, class_syms) SELECT first_id, cells, class_syms FROM shard%d.%s ORDER BY first_id", stBlocks, i, blocks)); err != nil {
			return err
		}
	}
	rec := Record{Name: puzzle, Storage: StorageSolutions, Solutions: next - 1}
	hash := NewContentHash()
	var orbits [9]int64
	rows, err := tx.QueryContext(ctx, "SELECT canonical, orbit FROM "+stCls+" ORDER BY id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var form []byte
		var orbit int
		if err := rows.Scan(&form, &orbit); err != nil {
			rows.Close()
			return err
		}
		hash.AddClass(form, orbit)
		if orbit == 1 || orbit == 2 || orbit == 4 || orbit == 8 {
			orbits[orbit]++
		}
		rec.Classes++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	staged := puzzleBlocks(puzzle, cellBytes, rec.Classes)
	staged.Table = stBlocks
	err = staged.Scan(ctx, tx, 1, rec.Solutions, func(s StoredSolution) error {
		class, symmetry, err := s.Class()
		hash.AddSolution(s.Cells, class, symmetry)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", puzzle, err)
	}
	rec.SetOrbits(orbits)
	rec.ContentHash = hash.Sum()
	if err := finish(&rec); err != nil {
		return err
	}
	if err := swapIn(ctx, tx, puzzle, cellBytes, staged.Digits); err != nil {
		return err
	}
	if err := insertRecord(ctx, tx, rec); err != nil {
		return err
	}
	return tx.Commit()
}
