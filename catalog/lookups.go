package catalog

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/jmoiron/sqlx"

	"solcat/catalog/catfile"
)

// The schema versions that made the lookup tables: a catalog from before
// lacks them until its next build (a read-only open migrates nothing).
const (
	blockSlotsVersion    = 9
	lookupsVersion       = 10
	symmetryOrderVersion = 19 // symmetries.tie_break
)

// blockSlotsProblem checks that block_slots holds exactly the slots 0 to
// maxBlockSolutions-1, which every solutions view joins its blocks with: a
// slot missing hides that solution of every block, a stray one shows a
// solution that is not there. Its rows are integer keys, so their number
// and least and greatest say it all.
func blockSlotsProblem(ctx context.Context, q rowQueryer) (string, error) {
	var n, lo, hi int64
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'block_slots'").Scan(&n); err != nil || n == 0 {
		return "the table block_slots, which every solutions view joins its blocks with, is missing", err
	}
	// Apart, count(*) counts the table's pages' cells and min and max
	// read one row each; together they would read every row.
	err := q.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM block_slots), coalesce((SELECT min(slot) FROM block_slots), 0), coalesce((SELECT max(slot) FROM block_slots), 0)").Scan(&n, &lo, &hi)
	if err != nil || n == maxBlockSolutions && lo == 0 && hi == maxBlockSolutions-1 {
		return "", err
	}
	return fmt.Sprintf("the table block_slots holds %d slot numbers from %d to %d, not the %d from 0 to %d that every solutions view joins its blocks with",
		n, lo, hi, maxBlockSolutions, maxBlockSolutions-1), nil
}

// BlockSlotsProblem says what is wrong with the table block_slots, if
// anything: the solutions views of every puzzle stored solution by
// solution join it.
func (h *Health) BlockSlotsProblem(ctx context.Context) (string, error) {
	c := h.c
	problem, err := blockSlotsProblem(ctx, c.db)
	return problem, catfile.DamageError(c.path, err)
}

// lookupDefinitions holds the lookup tables as this solcat defines them
// for each schema version asked for: its own migrations up to that
// version, run on an empty database in memory.
var lookupDefinitions struct {
	sync.Mutex
	byVersion map[int64][]map[string][]string // version -> lookupTables[i] -> key -> the row's values as SQL literals
}

// lookupTables are the lookup tables verify compares with their
// definitions: their columns, the key first, from the schema version that
// made them (a table may be listed again with the columns a later version
// added).
var lookupTables = []struct {
	name    string
	columns []string
	version int64
}{
	{"symmetries", []string{"id", "name", "maps"}, lookupsVersion},
	{"symmetries", []string{"id", "tie_break"}, symmetryOrderVersion},
	{"properties", []string{"name", "kind", "bit", "orbits", "definition"}, lookupsVersion},
}

// lookupRows reads a lookup table's rows as SQL literals (quote()), so
// that a number stored as text, or a NULL, shows as what it is.
func lookupRows(ctx context.Context, db sqlx.QueryerContext, table string, columns []string) (map[string][]string, error) {
	rows, err := db.QueryxContext(ctx, "SELECT "+quotedColumns(columns)+" FROM "+table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		values := make([]string, len(columns))
		ptrs := make([]any, len(columns))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out[values[0]] = values
	}
	return out, rows.Err()
}

// definedLookups returns the lookup tables as the migrations up to
// version make them: what a catalog of that version holds, whatever later
// versions change.
func definedLookups(ctx context.Context, version int64) ([]map[string][]string, error) {
	d := &lookupDefinitions
	d.Lock()
	defer d.Unlock()
	if rows, ok := d.byVersion[version]; ok {
		return rows, nil
	}
	db, err := sqlx.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection: one database in memory
	provider, err := newProvider(db)
	if err == nil {
		_, err = provider.UpTo(ctx, version)
	}
	rows := make([]map[string][]string, len(lookupTables))
	for i, t := range lookupTables {
		if err != nil {
			return nil, err
		}
		if version >= t.version {
			rows[i], err = lookupRows(ctx, db, t.name, t.columns)
		}
	}
	if err != nil {
		return nil, err
	}
	if d.byVersion == nil {
		d.byVersion = map[int64][]map[string][]string{}
	}
	d.byVersion[version] = rows
	return rows, nil
}

// CheckLookups compares the lookup tables that every puzzle's SQL users
// read (block_slots, which the solutions views join with; symmetries and
// properties, which name what is stored as numbers) with their
// definitions in this solcat at the catalog's schema version, and returns
// each difference. No rebuild of a puzzle writes them again.
func (h *Health) CheckLookups(ctx context.Context) ([]string, error) {
	c := h.c
	version, err := c.schemaVersion(ctx)
	if err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	defined, err := definedLookups(ctx, max(version, lookupsVersion))
	if err != nil {
		return nil, fmt.Errorf("solcat's own lookup tables cannot be made: %w", err)
	}
	var problems []string
	present := func(table string, since int64) (bool, error) {
		has, err := hasTable(ctx, c.db, table)
		if err == nil && !has && version >= since {
			problems = append(problems, fmt.Sprintf("the table %s is missing (schema version %d has it)", table, version))
		}
		return has, err
	}
	if has, err := present("block_slots", blockSlotsVersion); err != nil {
		return nil, catfile.DamageError(c.path, err)
	} else if has {
		slots, err := blockSlotsProblem(ctx, c.db)
		if err != nil {
			return nil, catfile.DamageError(c.path, err)
		}
		if slots != "" {
			problems = append(problems, slots)
		}
	}
	for i, t := range lookupTables {
		more := i > 0 && lookupTables[i-1].name == t.name // columns a later version added
		if more && version < t.version {
			continue
		}
		has, err := hasTable(ctx, c.db, t.name)
		if !more {
			has, err = present(t.name, t.version)
		}
		if err != nil {
			return nil, catfile.DamageError(c.path, err)
		}
		if !has {
			continue
		}
		got, err := lookupRows(ctx, c.db, t.name, t.columns)
		if err != nil {
			return nil, catfile.DamageError(c.path, err)
		}
		problems = append(problems, lookupDifferences(t.name, t.columns, got, defined[i])...)
	}
	return problems, nil
}

// lookupDifferences names, in key order, each row of a lookup table that
// is missing, extra or different from its definition.
func lookupDifferences(table string, columns []string, got, want map[string][]string) []string {
	keys := slices.Collect(maps.Keys(got))
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var problems []string
	for _, k := range keys {
		g, inGot := got[k]
		w, inWant := want[k]
		switch {
		case !inGot:
			problems = append(problems, fmt.Sprintf("the table %s lacks the row of %s %s", table, columns[0], k))
		case !inWant:
			problems = append(problems, fmt.Sprintf("the table %s has a row for %s %s, which solcat does not define", table, columns[0], k))
		default:
			for i := 1; i < len(columns); i++ {
				if g[i] != w[i] {
					problems = append(problems, fmt.Sprintf("the table %s gives %s %s the %s %s; solcat defines %s", table, columns[0], k, columns[i], g[i], w[i]))
				}
			}
		}
	}
	return problems
}
