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
// puts the puzzle in place in one transaction.
func (c *Catalog) MergeStored(ctx context.Context, puzzle string, paths []string, finish func(rec *Record) error) error {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	sol, cls := Tables(puzzle)
	for i, path := range paths {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("ATTACH DATABASE ? AS shard%d", i), "file:"+path+"?mode=ro"); err != nil {
			return fmt.Errorf("cannot read shard %s: %w", path, err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("DETACH DATABASE shard%d", i))
	}
	next := int64(1)
	for i, path := range paths {
		var rows, lo, hi int64
		q := fmt.Sprintf("SELECT count(*), coalesce(min(id), 0), coalesce(max(id), 0) FROM shard%d.%s", i, sol)
		if err := conn.QueryRowContext(ctx, q).Scan(&rows, &lo, &hi); err != nil {
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
	stSol, stCls := "main."+sol+stagingSuffix, "main."+cls+stagingSuffix
	ddl := "DROP TABLE IF EXISTS " + stSol + "; DROP TABLE IF EXISTS " + stCls + ";" + migrations.PuzzleTables(stSol, stCls)
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO "+stCls+" (id, canonical, orbit, props) SELECT id, canonical, orbit, props FROM shard0."+cls+" ORDER BY id"); err != nil {
		return err
	}
	for i := range paths {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s (id, cells, class_sym) SELECT id, cells, class_sym FROM shard%d.%s ORDER BY id", stSol, i, sol)); err != nil {
			return err
		}
	}
	rec := Record{Name: puzzle, Storage: "solutions", Solutions: next - 1}
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
	rows.Close()
	rows, err = tx.QueryContext(ctx, "SELECT cells, class_sym FROM "+stSol+" ORDER BY id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var cells []byte
		var classSym int64
		if err := rows.Scan(&cells, &classSym); err != nil {
			rows.Close()
			return err
		}
		hash.AddSolution(cells, classSym>>3, int(classSym&7))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	rec.SetOrbits(orbits)
	rec.ContentHash = hash.Sum()
	if err := finish(&rec); err != nil {
		return err
	}
	if err := swapIn(ctx, tx, puzzle); err != nil {
		return err
	}
	if err := insertRecord(ctx, tx, rec); err != nil {
		return err
	}
	return tx.Commit()
}
