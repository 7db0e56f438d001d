package catalog

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"

	"solcat/canon"
	"solcat/migrations"
)

// The checks here find damage that the rows of a puzzle's own tables do
// not show by themselves: a record that disagrees with where its tables
// end, lookup tables that SQL users join with, the solutions view, the
// builds table. verify runs them all; a query runs QuickCheck, which reads
// a few rows by their keys.

// DamagedError is a puzzle whose record and tables disagree: a query on it
// would answer wrongly, so it answers nothing.
type DamagedError struct {
	Puzzle  string // queens:8
	Path    string // the catalog
	Problem string // the first thing found wrong
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s in %s is damaged: %s", e.Puzzle, e.Path, e.Problem)
}

// Unwrap makes a damaged puzzle an ErrDamaged.
func (e *DamagedError) Unwrap() error { return ErrDamaged }

// The schema versions that made the lookup tables: a catalog from before
// lacks them until its next build (a read-only open migrates nothing).
const (
	blockSlotsVersion = 9
	lookupsVersion    = 10
)

// schemaVersion is the highest migration applied to the catalog.
func (c *Catalog) schemaVersion(ctx context.Context) (int64, error) {
	if has, err := hasTable(ctx, c.db, "goose_db_version"); err != nil || !has {
		return 0, err
	}
	var v int64
	err := c.db.GetContext(ctx, &v, `SELECT coalesce(max(version_id), 0) FROM goose_db_version WHERE is_applied`)
	return v, err
}

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

// QuickCheck compares a stored puzzle's record with the ends of its
// tables, reading a few rows by their keys: where the solution or class
// blocks begin and end, the lowest and highest class ID (and of a puzzle
// stored as its classes, its orbits table, which numbers the members). A
// query makes it before it answers (well under a millisecond); verify
// reads every row.
func (s *Stored) QuickCheck(ctx context.Context) ([]string, error) {
	if s.ClassesOnly() {
		return s.quickCheckClasses(ctx)
	}
	rec, b := s.Record, s.blocks
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var first, last, cells, syms, lowClass, highClass int64
	err := s.c.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT coalesce((SELECT min(first_id) FROM %[1]s), 0),
		coalesce((SELECT first_id FROM %[1]s ORDER BY first_id DESC LIMIT 1), 0),
		coalesce((SELECT length(cells) FROM %[1]s ORDER BY first_id DESC LIMIT 1), 0),
		coalesce((SELECT length(CAST(class_syms AS BLOB)) FROM %[1]s ORDER BY first_id DESC LIMIT 1), 0),
		coalesce((SELECT min(id) FROM %[2]s), 0), coalesce((SELECT max(id) FROM %[2]s), 0)`, b.Table, s.classes)).
		Scan(&first, &last, &cells, &syms, &lowClass, &highClass)
	if err != nil {
		return nil, Describe(s.c.path, err)
	}
	// The classes first: their number sets the width of the class entries
	// in the blocks.
	switch {
	case highClass != rec.Classes:
		report("its classes table ends at class %d, %d classes recorded", highClass, rec.Classes)
	case rec.Classes > 0 && lowClass != 1:
		report("its classes table begins at class %d, not 1", lowClass)
	}
	n := cells / int64(b.CellBytes)
	switch {
	case rec.Solutions == 0 && last != 0:
		report("its solution blocks hold solutions from %d, 0 solutions recorded", first)
	case rec.Solutions == 0:
	case last == 0:
		report("it has no solution blocks, %d solutions recorded", rec.Solutions)
	case first != 1:
		report("its first solution block begins at solution %d, not 1", first)
	case cells%int64(b.CellBytes) != 0 || n == 0 || n > maxBlockSolutions || syms != n*int64(b.Digits):
		report("its last solution block (from solution %d) is damaged: %d cell bytes and %d class bytes are not whole solutions of %d cells and %d digits",
			last, cells, syms, b.CellBytes, b.Digits)
	case last+n-1 != rec.Solutions:
		report("its solution blocks end at solution %d, %d solutions recorded", last+n-1, rec.Solutions)
	}
	return problems, nil
}

// BlockSlotsProblem says what is wrong with the table block_slots, if
// anything: the solutions views of every puzzle stored solution by
// solution join it.
func (c *Catalog) BlockSlotsProblem(ctx context.Context) (string, error) {
	problem, err := blockSlotsProblem(ctx, c.db)
	return problem, Describe(c.path, err)
}

// quickCheckClasses is QuickCheck for a puzzle stored as its classes.
func (s *Stored) quickCheckClasses(ctx context.Context) ([]string, error) {
	rec, f := s.Record, s.form
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var first, last, size, lowProps, highProps int64
	err := s.c.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT coalesce((SELECT min(block) FROM %[1]s), 0),
		coalesce((SELECT block FROM %[1]s ORDER BY block DESC LIMIT 1), 0),
		coalesce((SELECT length(forms) FROM %[1]s ORDER BY block DESC LIMIT 1), 0),
		coalesce((SELECT min(id) FROM %[2]s), 1), coalesce((SELECT max(id) FROM %[2]s), 0)`, s.classes, s.props)).
		Scan(&first, &last, &size, &lowProps, &highProps)
	if err != nil {
		return nil, Describe(s.c.path, err)
	}
	per, formBytes := int64(f.perBlock), int64(f.size)
	switch {
	case rec.Classes == 0 && last != 0:
		report("its class blocks hold classes, 0 classes recorded")
	case rec.Classes == 0:
	case last == 0:
		report("it has no class blocks, %d classes recorded", rec.Classes)
	case first != 1:
		report("its first class block is block %d, not 1", first)
	case size%formBytes != 0 || size == 0 || size > per*formBytes:
		report("its last class block (%d) is damaged: %d bytes are not whole %d-byte forms", last, size, formBytes)
	case (last-1)*per+size/formBytes != rec.Classes:
		report("its class blocks end at class %d, %d classes recorded", (last-1)*per+size/formBytes, rec.Classes)
	}
	if lowProps < 1 || highProps > rec.Classes {
		report("its properties table names classes %d to %d, %d classes recorded", lowProps, highProps, rec.Classes)
	}
	// Members are numbered class by class, 8 to a class but for those in
	// the orbits table (a few thousand rows at most, which the queries
	// that number members read anyway): each row's first member must
	// follow from the rows before it, and all of them give the number of
	// members.
	m, err := s.numbering(ctx)
	if err != nil {
		return nil, Describe(s.c.path, err)
	}
	numbering, members := m.problems(rec.Classes)
	problems = append(problems, numbering...)
	if members != rec.Solutions {
		report("its classes have %d members by its orbits table, %d solutions recorded", members, rec.Solutions)
	}
	return problems, nil
}

// problems checks the numbering of the members of classes classes: each
// row names a class, with fewer than 8 members, and the first member that
// the rows before it give. It returns what is wrong and the number of
// members.
func (m memberNumbering) problems(classes int64) (problems []string, members int64) {
	var lacking int64 // members the classes so far lack, below 8 each
	for _, r := range m.rows {
		switch want := 8*(r.id-1) + 1 - lacking; {
		case r.id < 1 || r.id > classes:
			problems = append(problems, fmt.Sprintf("its orbits table names class %d, which does not exist", r.id))
		case r.orbit != 1 && r.orbit != 2 && r.orbit != 4:
			problems = append(problems, fmt.Sprintf("class %d: orbit %d in its orbits table, which holds orbits 1, 2 and 4 only", r.id, r.orbit))
		case r.first != want:
			problems = append(problems, fmt.Sprintf("class %d: first member %d in its orbits table, %d by the orbits before it", r.id, r.first, want))
		}
		lacking += 8 - int64(r.orbit)
	}
	return problems, 8*classes - lacking
}

// StorageProblems checks that the tables a record's storage needs are
// there, and that a puzzle recorded by its counts has none.
func (c *Catalog) StorageProblems(ctx context.Context, rec Record) ([]string, error) {
	var names []string
	err := c.db.SelectContext(ctx, &names, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name IN (?, ?, ?, ?, ?) ORDER BY name",
		ownedTables(rec.Name)...)
	if err != nil {
		return nil, Describe(c.path, err)
	}
	return storageProblems(rec, names), nil
}

// HasTables reports whether the catalog holds any table of the puzzle's
// (or its view), whatever its record says.
func (c *Catalog) HasTables(ctx context.Context, puzzle string) (bool, error) {
	var n int
	err := c.db.GetContext(ctx, &n, "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name IN (?, ?, ?, ?, ?)", ownedTables(puzzle)...)
	return n > 0, Describe(c.path, err)
}

// ownedTables names the tables (and view) a puzzle may own.
func ownedTables(puzzle string) []any {
	out := make([]any, len(puzzleTablePrefixes))
	for i, prefix := range puzzleTablePrefixes {
		out[i] = prefix + tableSuffix(puzzle)
	}
	return out
}

// storageProblems compares a record's storage with the tables the puzzle
// owns (present).
func storageProblems(rec Record, present []string) []string {
	var need []string
	sol, cls := puzzleTables(rec.Name)
	switch rec.Storage {
	case StorageSolutions:
		need = []string{cls, sol}
	case StorageClasses:
		need = []string{cls, propsTable(rec.Name)}
		if strings.HasPrefix(rec.Name, "queens:") {
			need = append(need, orbitsTable(rec.Name))
		}
	case StorageCounts:
		if len(present) > 0 {
			return []string{fmt.Sprintf("recorded as counts only, but the tables %s are there too", strings.Join(present, ", "))}
		}
	default:
		return []string{fmt.Sprintf("recorded with storage %q, which is none of solutions, classes and counts", rec.Storage)}
	}
	var problems []string
	for _, t := range need {
		if !slices.Contains(present, t) {
			problems = append(problems, fmt.Sprintf("recorded as stored (%s), but its table %s is missing", rec.Storage, t))
		}
	}
	return problems
}

// lookupDefinitions holds the lookup tables as this solcat defines them:
// its own migrations, run once on an empty database in memory.
var lookupDefinitions struct {
	once sync.Once
	rows map[string]map[string][]string // table -> key -> the row's values as SQL literals
	err  error
}

// lookupTables are the lookup tables verify compares with their
// definitions: their columns, the key first.
var lookupTables = []struct {
	name    string
	columns []string
	version int64
}{
	{"symmetries", []string{"id", "name", "maps"}, lookupsVersion},
	{"properties", []string{"name", "kind", "bit", "orbits", "definition"}, lookupsVersion},
}

// lookupRows reads a lookup table's rows as SQL literals (quote()), so
// that a number stored as text, or a NULL, shows as what it is.
func lookupRows(ctx context.Context, db sqlx.QueryerContext, table string, columns []string) (map[string][]string, error) {
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = "quote(" + c + ")"
	}
	rows, err := db.QueryxContext(ctx, "SELECT "+strings.Join(quoted, ", ")+" FROM "+table)
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

func definedLookups(ctx context.Context) (map[string]map[string][]string, error) {
	d := &lookupDefinitions
	d.once.Do(func() {
		db, err := sqlx.Open("sqlite", ":memory:")
		if err != nil {
			d.err = err
			return
		}
		defer db.Close()
		db.SetMaxOpenConns(1) // one connection: one database in memory
		provider, err := goose.NewProvider(goose.DialectSQLite3, db.DB, migrations.FS())
		if err == nil {
			_, err = provider.Up(ctx)
		}
		d.rows = map[string]map[string][]string{}
		for _, t := range lookupTables {
			if err != nil {
				break
			}
			d.rows[t.name], err = lookupRows(ctx, db, t.name, t.columns)
		}
		d.err = err
	})
	return d.rows, d.err
}

// CheckLookups compares the lookup tables that every puzzle's SQL users
// read (block_slots, which the solutions views join with; symmetries and
// properties, which name what is stored as numbers) with their
// definitions in this solcat, and returns each difference. No rebuild of a
// puzzle writes them again.
func (c *Catalog) CheckLookups(ctx context.Context) ([]string, error) {
	version, err := c.schemaVersion(ctx)
	if err != nil {
		return nil, Describe(c.path, err)
	}
	defined, err := definedLookups(ctx)
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
		return nil, Describe(c.path, err)
	} else if has {
		slots, err := blockSlotsProblem(ctx, c.db)
		if err != nil {
			return nil, Describe(c.path, err)
		}
		if slots != "" {
			problems = append(problems, slots)
		}
	}
	for _, t := range lookupTables {
		has, err := present(t.name, t.version)
		if err != nil {
			return nil, Describe(c.path, err)
		}
		if !has {
			continue
		}
		got, err := lookupRows(ctx, c.db, t.name, t.columns)
		if err != nil {
			return nil, Describe(c.path, err)
		}
		problems = append(problems, lookupDifferences(t.name, t.columns, got, defined[t.name])...)
	}
	return problems, nil
}

// lookupDifferences names, in key order, each row of a lookup table that
// is missing, extra or different from its definition.
func lookupDifferences(table string, columns []string, got, want map[string][]string) []string {
	keys := make([]string, 0, len(got)+len(want))
	for k := range got {
		keys = append(keys, k)
	}
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

// BuildProblem is something wrong with a row of the builds table, which
// records an unfinished stored build.
type BuildProblem struct {
	Puzzle  string
	Problem string
}

// CheckBuilds compares each row of the builds table (those of the named
// puzzles; every row for nil) with the build tables it stands for, as a
// resumed build would find them: the tables are there, hold the rows the
// row says were committed, and the saved content hash state can be read.
// A row whose tables are gone would make queries and info say the puzzle
// is unfinished when it is not.
func (c *Catalog) CheckBuilds(ctx context.Context, puzzles []string) ([]BuildProblem, error) {
	if has, err := hasTable(ctx, c.db, "builds"); err != nil || !has {
		return nil, err
	}
	var rows []struct {
		Building
		HashState []byte `db:"hash_state"`
	}
	if err := c.db.SelectContext(ctx, &rows, `SELECT puzzle, layout, classes_done, solutions_done, rows_total, hash_state, started_at, updated_at FROM builds ORDER BY puzzle`); err != nil {
		return nil, Describe(c.path, err)
	}
	var problems []BuildProblem
	for _, b := range rows {
		if puzzles != nil && !slices.Contains(puzzles, b.Puzzle) {
			continue
		}
		found, err := c.checkBuild(ctx, b.Building, b.HashState)
		if err != nil {
			return nil, Describe(c.path, err)
		}
		for _, p := range found {
			problems = append(problems, BuildProblem{Puzzle: b.Puzzle, Problem: p})
		}
	}
	return problems, nil
}

func (c *Catalog) checkBuild(ctx context.Context, b Building, hashState []byte) ([]string, error) {
	p, err := canon.ParsePuzzle(b.Puzzle)
	if err != nil || p.String() != b.Puzzle {
		return []string{fmt.Sprintf("the builds table records an unfinished build of %q, which is not a puzzle's name", b.Puzzle)}, nil
	}
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	_, cls := puzzleTables(b.Puzzle)
	cls += stagingSuffix
	blocks := blockTable{Table: blocksTable(b.Puzzle) + stagingSuffix, CellBytes: p.Len()}
	hasBlocks, err := hasTable(ctx, c.db, blocks.Table)
	if err != nil {
		return nil, err
	}
	hasClasses, err := hasTable(ctx, c.db, cls)
	if err != nil {
		return nil, err
	}
	var classes, solutions, maxID int64
	switch {
	case !hasClasses:
		report("the builds table records an unfinished build (%d classes and %d solutions saved), but its build tables are missing", b.ClassesDone, b.SolutionsDone)
		return problems, nil
	case hasBlocks:
		if err := c.db.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM "+cls).Scan(&classes); err != nil {
			return nil, err
		}
		if solutions, _, maxID, err = blocks.extent(ctx, c.db); err != nil {
			return nil, err
		}
	default: // stored as classes: units end at block boundaries
		form, err := packedFormOf(b.Puzzle)
		if err != nil {
			report("the builds table records an unfinished build, but its build tables are of no kind this solcat writes")
			return problems, nil
		}
		if err := c.db.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) * %d FROM %s", form.perBlock, cls)).Scan(&classes); err != nil {
			return nil, err
		}
	}
	// A shard's solution IDs start further on.
	shard := strings.Contains(string(b.Layout), " shard ")
	if classes != b.ClassesDone || solutions != b.SolutionsDone || (maxID != solutions && !shard) {
		report("the builds table says %d classes and %d solutions of an unfinished build are saved, its build tables hold %d and %d (the next build starts over)",
			b.ClassesDone, b.SolutionsDone, classes, solutions)
	}
	if b.ClassesDone+b.SolutionsDone > b.RowsTotal {
		report("the builds table says %d rows of an unfinished build are saved, more than the %d it expects", b.ClassesDone+b.SolutionsDone, b.RowsTotal)
	}
	if _, err := resumeContentHash(hashState); err != nil {
		report("the saved content hash state of its unfinished build is damaged (the next build starts over)")
	}
	started, err1 := time.Parse(time.RFC3339, b.StartedAt)
	updated, err2 := time.Parse(time.RFC3339, b.UpdatedAt)
	if err1 != nil || err2 != nil || updated.Before(started) {
		report("its unfinished build's times (started %q, updated %q) are not RFC 3339 times, the update after the start", b.StartedAt, b.UpdatedAt)
	}
	return problems, nil
}

// BreakdownPuzzles names the puzzles that have counts recorded in
// count_breakdown.
func (c *Catalog) BreakdownPuzzles(ctx context.Context) ([]string, error) {
	if has, err := hasTable(ctx, c.db, "count_breakdown"); err != nil || !has {
		return nil, err
	}
	var out []string
	err := c.db.SelectContext(ctx, &out, "SELECT DISTINCT puzzle FROM count_breakdown ORDER BY puzzle")
	return out, err
}

// CheckView compares a puzzle's solutions view, which SQL users read, with
// the blocks it shows. A view as this solcat makes it shows the blocks
// exactly as long as block_slots is whole (CheckLookups), so only what it
// shows in all is counted: its rows, the lowest, highest and sum of its IDs.
// Any other view (made by an older solcat, or by hand) is compared row by
// row, a range of blocks at a time.
func (s *Stored) CheckView(ctx context.Context) ([]string, error) {
	if s.ClassesOnly() {
		return nil, nil
	}
	view, _ := puzzleTables(s.Record.Name)
	var text string
	err := s.c.db.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", view).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return []string{fmt.Sprintf("its view %s is missing", view)}, nil
	}
	if err != nil {
		return nil, Describe(s.c.path, err)
	}
	_, cls := puzzleTables(s.Record.Name)
	want := migrations.SolutionsView(view, s.blocks.Table, cls, s.blocks.CellBytes, s.blocks.Digits, readable(s.Record.Name))
	if strings.TrimSpace(text) != strings.TrimSuffix(strings.TrimSpace(want), ";") {
		return s.compareView(ctx, view)
	}
	var shown, expected [4]int64 // rows, lowest, highest and sum of IDs
	if err := s.c.db.QueryRowContext(ctx, "SELECT count(*), coalesce(min(id), 0), coalesce(max(id), 0), coalesce(sum(id), 0) FROM "+view).
		Scan(&shown[0], &shown[1], &shown[2], &shown[3]); err != nil {
		if ctx.Err() != nil || errors.Is(Describe(s.c.path, err), ErrDamaged) {
			return nil, Describe(s.c.path, err)
		}
		return []string{fmt.Sprintf("its view %s cannot be read: %v", view, err)}, nil // a table it names is gone
	}
	if err := s.c.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT coalesce(sum(n), 0), coalesce(min(first_id), 0), coalesce(max(first_id + n - 1), 0), coalesce(sum(n * first_id + n * (n - 1) / 2), 0)
		FROM (SELECT first_id, length(cells) / %d AS n FROM %s)`, s.blocks.CellBytes, s.blocks.Table)).
		Scan(&expected[0], &expected[1], &expected[2], &expected[3]); err != nil {
		return nil, Describe(s.c.path, err)
	}
	if shown != expected {
		return []string{fmt.Sprintf("its view %s shows %d solutions with IDs %d to %d (sum %d), its blocks hold %d with IDs %d to %d (sum %d)",
			view, shown[0], shown[1], shown[2], shown[3], expected[0], expected[1], expected[2], expected[3])}, nil
	}
	return nil, nil
}

// viewColumns are the columns a solutions view may have, as solcat has
// made them over time; an older view lacks the readable ones.
var viewColumns = []string{"id", "cells", "class_id", "symmetry", "class_sym", "block", "slot", "solution", "symmetry_name"}

// compareView compares a view that is not the one this solcat makes with
// the blocks, a range of blocks at a time, matching rows by block and slot,
// and names the first difference.
func (s *Stored) compareView(ctx context.Context, view string) ([]string, error) {
	var present []string
	if err := s.c.db.SelectContext(ctx, &present, "SELECT name FROM pragma_table_info(?)", view); err != nil {
		return nil, Describe(s.c.path, err)
	}
	var columns []string
	for _, c := range viewColumns {
		if slices.Contains(present, c) {
			columns = append(columns, c)
		}
	}
	if !slices.Contains(columns, "block") || !slices.Contains(columns, "slot") {
		return []string{fmt.Sprintf("its view %s has no columns block and slot: it is not a view solcat makes", view)}, nil
	}
	var firsts []int64
	if err := s.c.db.SelectContext(ctx, &firsts, "SELECT first_id FROM "+s.blocks.Table+" ORDER BY first_id"); err != nil {
		return nil, Describe(s.c.path, err)
	}
	p, err := canon.ParsePuzzle(s.Record.Name)
	if err != nil {
		return nil, err
	}
	var differ, shown int64
	var first string
	found := func(what string) {
		if differ++; first == "" {
			first = what
		}
	}
	const chunk = 64 // blocks compared at a time
	for i := 0; i < len(firsts); i += chunk {
		blocks := firsts[i:min(i+chunk, len(firsts))]
		lo, hi := blocks[0], blocks[len(blocks)-1]
		end := int64(math.MaxInt64)
		if i+chunk < len(firsts) {
			end = firsts[i+chunk] - 1
		}
		var want []viewRow
		err := s.blocks.ScanReporting(ctx, s.c.db, lo, end, func(sol StoredSolution) error {
			want = append(want, expectedViewRow(p, sol, blocks, columns))
			return nil
		}, func(error) {}) // a damaged block is verify's to name
		if err != nil {
			return nil, Describe(s.c.path, err)
		}
		rows, err := s.c.db.QueryContext(ctx, "SELECT block, slot, "+quotedColumns(columns)+" FROM "+view+" WHERE block BETWEEN ? AND ? ORDER BY block, slot", lo, hi)
		if err != nil {
			return nil, Describe(s.c.path, err)
		}
		k := 0
		for rows.Next() {
			got := viewRow{values: make([]string, len(columns))}
			ptrs := []any{&got.block, &got.slot}
			for j := range got.values {
				ptrs = append(ptrs, &got.values[j])
			}
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return nil, Describe(s.c.path, err)
			}
			shown++
			for k < len(want) && want[k].before(got) {
				found(fmt.Sprintf("solution %d is not shown", want[k].block+want[k].slot))
				k++
			}
			if k == len(want) || got.before(want[k]) {
				found(fmt.Sprintf("a row (%s) that no block holds", strings.Join(got.values, ", ")))
				continue
			}
			for j, c := range columns {
				if got.values[j] != want[k].values[j] {
					found(fmt.Sprintf("solution %d has %s %s, its block gives %s", want[k].block+want[k].slot, c, got.values[j], want[k].values[j]))
					break
				}
			}
			k++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, Describe(s.c.path, err)
		}
		for ; k < len(want); k++ {
			found(fmt.Sprintf("solution %d is not shown", want[k].block+want[k].slot))
		}
	}
	// Rows outside every block's range, which the ranges above miss.
	var all int64
	if err := s.c.db.QueryRowContext(ctx, "SELECT count(*) FROM "+view).Scan(&all); err != nil {
		return nil, Describe(s.c.path, err)
	}
	if all > shown {
		found(fmt.Sprintf("%d rows whose block is none of its blocks", all-shown))
	}
	if differ == 0 {
		return nil, nil
	}
	return []string{fmt.Sprintf("its view %s is not the one solcat makes and differs from its blocks in %d rows; first: %s", view, differ, first)}, nil
}

// viewRow is one row of a solutions view: where it is stored, and its
// columns as SQL literals.
type viewRow struct {
	block, slot int64
	values      []string
}

func (r viewRow) before(o viewRow) bool {
	return r.block < o.block || r.block == o.block && r.slot < o.slot
}

// quotedColumns selects the columns as SQL literals, to compare as text.
func quotedColumns(columns []string) string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = "quote(" + c + ")"
	}
	return strings.Join(out, ", ")
}

// expectedViewRow is what solcat's view shows of one solution, column by
// column as SQL literals; blocks are the first IDs of the blocks read.
func expectedViewRow(p canon.Puzzle, sol StoredSolution, blocks []int64, columns []string) viewRow {
	block := blocks[0]
	for _, f := range blocks {
		if f <= sol.ID {
			block = f
		}
	}
	classSym, _ := parseDigits(sol.entry)
	r := viewRow{block: block, slot: sol.ID - block, values: make([]string, len(columns))}
	for i, c := range columns {
		switch c {
		case "id":
			r.values[i] = fmt.Sprint(sol.ID)
		case "cells":
			r.values[i] = fmt.Sprintf("X'%X'", sol.Cells)
		case "class_id":
			r.values[i] = fmt.Sprint(classSym >> 3)
		case "symmetry":
			r.values[i] = fmt.Sprint(classSym & 7)
		case "class_sym":
			r.values[i] = fmt.Sprint(classSym)
		case "block":
			r.values[i] = fmt.Sprint(block)
		case "slot":
			r.values[i] = fmt.Sprint(r.slot)
		case "solution":
			var b bytes.Buffer
			for k, v := range sol.Cells {
				if k > 0 {
					b.WriteByte(' ')
				}
				if p.Kind == canon.Queens {
					v++ // people count columns from 1
				}
				fmt.Fprint(&b, v)
			}
			r.values[i] = "'" + b.String() + "'"
		case "symmetry_name":
			r.values[i] = "'" + canon.Symmetry(classSym&7).String() + "'"
		}
	}
	return r
}
