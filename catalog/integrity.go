package catalog

import (
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"solcat/catalog/catfile"
)

// The checks here and in lookups.go, unfinished.go and view.go find
// damage that the rows of a puzzle's own tables do not show by
// themselves: a record that disagrees with where its tables end, lookup
// tables that SQL users join with, the solutions view, the builds table.
// verify runs them all; a query runs QuickCheck, which reads a few rows by
// their keys.

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
func (e *DamagedError) Unwrap() error { return catfile.ErrDamaged }

// QuickCheck compares a stored puzzle's record with the ends of its
// tables, reading a few rows by their keys: where the solution or class
// blocks begin and end, the lowest and highest class ID (and of a puzzle
// stored as its classes, its orbits table, which numbers the members). A
// query makes it before it answers (well under a millisecond); verify
// reads every row.
func (s *Content) QuickCheck(ctx context.Context) ([]string, error) {
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
		return nil, catfile.DamageError(s.c.path, err)
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

// quickCheckClasses is QuickCheck for a puzzle stored as its classes.
func (s *Content) quickCheckClasses(ctx context.Context) ([]string, error) {
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
		return nil, catfile.DamageError(s.c.path, err)
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
		return nil, catfile.DamageError(s.c.path, err)
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
		switch want := 8*(r.ID-1) + 1 - lacking; {
		case r.ID < 1 || r.ID > classes:
			problems = append(problems, fmt.Sprintf("its orbits table names class %d, which does not exist", r.ID))
		case r.Orbit != 1 && r.Orbit != 2 && r.Orbit != 4:
			problems = append(problems, fmt.Sprintf("class %d: orbit %d in its orbits table, which holds orbits 1, 2 and 4 only", r.ID, r.Orbit))
		case r.First != want:
			problems = append(problems, fmt.Sprintf("class %d: first member %d in its orbits table, %d by the orbits before it", r.ID, r.First, want))
		}
		lacking += 8 - int64(r.Orbit)
	}
	return problems, 8*classes - lacking
}

// StorageProblems checks that the tables a record's storage needs are
// there, and that a puzzle recorded by its counts has none.
func (h *Health) StorageProblems(ctx context.Context, rec Record) ([]string, error) {
	c := h.c
	var names []string
	owned := ownedTables(rec.Name)
	err := c.db.SelectContext(ctx, &names, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name IN ("+placeholders(len(owned))+") ORDER BY name",
		owned...)
	if err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	_, cls := puzzleTables(rec.Name)
	legacy, err := hasTable(ctx, c.db, cls)
	if err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	return storageProblems(rec, names, legacy), nil
}

// HasTables reports whether the catalog holds any table of the puzzle's
// (or its view), whatever its record says.
func (h *Health) HasTables(ctx context.Context, puzzle string) (bool, error) {
	c := h.c
	var n int
	owned := ownedTables(puzzle)
	err := c.db.GetContext(ctx, &n, "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name IN ("+placeholders(len(owned))+")", owned...)
	return n > 0, catfile.DamageError(c.path, err)
}

// ownedTables names the tables (and views) a puzzle may own, but for the
// views beside its solutions view.
func ownedTables(puzzle string) []any {
	out := make([]any, 0, len(puzzleTablePrefixes)+1)
	for _, prefix := range puzzleTablePrefixes {
		out = append(out, prefix+tableSuffix(puzzle))
	}
	_, clsRaw := rawNames(puzzle)
	return append(out, clsRaw)
}

// placeholders is n parameters of an IN list: ?, ?, ?.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// storageProblems compares a record's storage with the tables the puzzle
// owns (present); classTableNamed says classes_<p> is a table (schema 13
// and below), not the view over classes_<p>_raw.
func storageProblems(rec Record, present []string, classTableNamed bool) []string {
	var need []string
	sol, cls := puzzleTables(rec.Name)
	switch rec.Storage {
	case StorageSolutions:
		// The classes lie in classes_<p>_raw (the view classes_<p> over it
		// is for SQL users: verify checks it, a query needs it not); in a
		// catalog of schema 13 and below, in classes_<p>.
		need = []string{cls, sol}
		if !classTableNamed {
			_, clsRaw := rawNames(rec.Name)
			need = []string{clsRaw, sol}
		}
	case StorageClasses:
		need = []string{cls, propsTable(rec.Name)}
		if !classTableNamed {
			_, clsRaw := rawNames(rec.Name)
			need = []string{clsRaw, propsTable(rec.Name)}
		}
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

// BreakdownPuzzles names the puzzles that have counts recorded in
// count_breakdown.
func (h *Health) BreakdownPuzzles(ctx context.Context) ([]string, error) {
	c := h.c
	if has, err := hasTable(ctx, c.db, "count_breakdown"); err != nil || !has {
		return nil, err
	}
	var out []string
	err := c.db.SelectContext(ctx, &out, "SELECT DISTINCT puzzle FROM count_breakdown ORDER BY puzzle")
	return out, err
}

// maxIndexProblems is how many problems CheckIndex names before it says
// how many more it found.
const maxIndexProblems = 20

// CheckIndex checks, through SQLite, what a puzzle's index says of its
// blocks against the blocks themselves: every index row's checksum; every
// block listed once, in ID order, with as many solutions as its bytes hold,
// its synopsis and the checksum of each column as its bytes give them; the
// index covering the solutions (classes) from 1 to the record's count. A
// puzzle stored before the indexes has none to check. It returns the
// problems it finds.
func (s *Content) CheckIndex(ctx context.Context) ([]string, error) {
	var problems []string
	more := 0
	report := func(format string, args ...any) {
		if len(problems) < maxIndexProblems {
			problems = append(problems, fmt.Sprintf(format, args...))
		} else {
			more++
		}
	}
	var err error
	switch {
	case s.ClassesOnly() && s.classIndex != "":
		err = s.checkClassIndex(ctx, report)
	case !s.ClassesOnly() && s.blocks.Layout == 3:
		err = s.checkBlockIndex(ctx, report)
	}
	if err == nil && !s.ClassesOnly() && s.classChecks != "" {
		err = s.checkClassChecks(ctx, report)
	}
	if more > 0 {
		problems = append(problems, fmt.Sprintf("and %d more problems of its index", more))
	}
	return problems, err
}

// checkBlockIndex is CheckIndex for solution blocks.
func (s *Content) checkBlockIndex(ctx context.Context, report func(string, ...any)) error {
	b := s.blocks
	synBytes, size := b.synopsisBytes(), b.indexEntryBytes()
	// The index first: a few MB even for queens:17.
	type entry struct {
		first int64
		e     indexEntry
	}
	var entries []entry
	next := int64(1)
	rows, err := s.c.db.QueryContext(ctx, "SELECT first_id, entries, checksum FROM "+b.Index+" ORDER BY first_id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var first, sum int64
		var data []byte
		if err := rows.Scan(&first, &data, &sum); err != nil {
			rows.Close()
			return err
		}
		end, err := b.checkGroup(first, data, sum)
		if err != nil {
			report("%s", err)
			continue
		}
		if first != next {
			report("its block index skips or repeats solutions %d to %d", min(first, next), max(first, next)-1)
		}
		for at, id := 0, first; at < len(data); at += size {
			e := indexEntry(data[at : at+size])
			entries = append(entries, entry{id, e})
			id += int64(e.solutions())
		}
		next = end
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if next != s.Record.Solutions+1 {
		report("its block index holds solutions 1 to %d, %d recorded", next-1, s.Record.Solutions)
	}
	// Then every block, against its entry.
	rows, err = s.c.db.QueryContext(ctx, "SELECT first_id, cells, class_syms FROM "+b.Table+" ORDER BY first_id")
	if err != nil {
		return err
	}
	defer rows.Close()
	k := 0
	var syn []byte
	for rows.Next() {
		var first int64
		var cells, syms []byte
		if err := rows.Scan(&first, &cells, &syms); err != nil {
			return err
		}
		for k < len(entries) && entries[k].first < first {
			report("solution block %d is in the block index but missing", entries[k].first)
			k++
		}
		if k == len(entries) || entries[k].first != first {
			report("solution block %d is not in the block index", first)
			continue
		}
		e := entries[k].e
		k++
		n := e.solutions()
		if len(cells) != n*b.CellBytes || len(syms) != n*b.Digits {
			report("solution block %d holds %d cell bytes and %d class bytes, its index entry says %d solutions", first, len(cells), len(syms), n)
			continue
		}
		if syn = b.appendSynopsis(syn[:0], cells, n); string(syn) != string(e.synopsis(synBytes)) {
			report("solution block %d does not match the synopsis of its index entry", first)
		}
		for c := range b.CellBytes {
			if columnCheck(first, c, cells[c*n:(c+1)*n]) != e.check(synBytes, c) {
				report("solution block %d does not match its checksum (cell %d)", first, c)
			}
		}
		if columnCheck(first, b.CellBytes, syms) != e.check(synBytes, b.CellBytes) {
			report("solution block %d does not match its checksum (class entries)", first)
		}
	}
	for ; k < len(entries); k++ {
		report("solution block %d is in the block index but missing", entries[k].first)
	}
	return rows.Err()
}

// checkClassIndex is CheckIndex for class blocks.
func (s *Content) checkClassIndex(ctx context.Context, report func(string, ...any)) error {
	f, bits := s.form, classSynopsisBits(s.p)
	synBytes := (f.cells*bits + 7) / 8
	lastBlock := f.blockOf(s.Record.Classes)
	groups := (lastBlock + classGroupBlocks - 1) / classGroupBlocks
	type group struct{ syn, checks []byte }
	index := map[int64]group{}
	rows, err := s.c.db.QueryContext(ctx, "SELECT grp, synopsis, checks, checksum FROM "+s.classIndex+" ORDER BY grp")
	if err != nil {
		return err
	}
	for rows.Next() {
		var g, sum int64
		var syn, checks []byte
		if err := rows.Scan(&g, &syn, &checks, &sum); err != nil {
			rows.Close()
			return err
		}
		if err := checkClassGroup(g, syn, checks, sum, synBytes, lastBlock); err != nil {
			report("%s", err)
			continue
		}
		index[g] = group{syn, checks}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for g := int64(1); g <= groups; g++ {
		if _, ok := index[g]; !ok {
			report("its class index lacks group %d (class blocks %d to %d)", g, (g-1)*classGroupBlocks+1, min(g*classGroupBlocks, lastBlock))
		}
	}
	rows, err = s.c.db.QueryContext(ctx, "SELECT block, forms FROM "+s.classes+" ORDER BY block")
	if err != nil {
		return err
	}
	defer rows.Close()
	cells := make([]byte, f.cells)
	var cur classGroup
	finish := func() {
		if want, ok := index[cur.group]; ok && cur.group != 0 && string(cur.syn) != string(want.syn) {
			report("class blocks %d to %d do not match the synopsis of their index row", (cur.group-1)*classGroupBlocks+1, min(cur.group*classGroupBlocks, lastBlock))
		}
	}
	for rows.Next() {
		var k int64
		var forms []byte
		if err := rows.Scan(&k, &forms); err != nil {
			return err
		}
		g := (k-1)/classGroupBlocks + 1
		if g != cur.group {
			finish()
			cur = classGroup{group: g, syn: make([]byte, synBytes)}
		}
		cur.addForms(f, bits, forms, cells)
		want, ok := index[g]
		if i := int(k - (g-1)*classGroupBlocks - 1); ok && 4*i+4 <= len(want.checks) && blockCheck(k, forms) != groupCheckAt(want.checks, i) {
			report("class block %d does not match its checksum", k)
		}
	}
	finish()
	return rows.Err()
}

// checkClassChecks is CheckIndex for the class rows of a puzzle stored
// solution by solution: every checks row's checksum, and each class row
// against its check.
func (s *Content) checkClassChecks(ctx context.Context, report func(string, ...any)) error {
	want := map[int64]uint32{}
	next := int64(1)
	rows, err := s.c.db.QueryContext(ctx, "SELECT first_id, checks, checksum FROM "+s.classChecks+" ORDER BY first_id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var first, sum int64
		var checks []byte
		if err := rows.Scan(&first, &checks, &sum); err != nil {
			rows.Close()
			return err
		}
		if uint32(sum) != rowCheck(first, checks) || sum < 0 || sum > 1<<32-1 || len(checks)%4 != 0 {
			report("the class checks of class %d are damaged: their checksum does not match", first)
			continue
		}
		if first != next {
			report("its class checks skip or repeat classes %d to %d", min(first, next), max(first, next)-1)
		}
		for i := range len(checks) / 4 {
			want[first+int64(i)] = binary.LittleEndian.Uint32(checks[4*i:])
		}
		next = first + int64(len(checks)/4)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if next != s.Record.Classes+1 {
		report("its class checks cover classes 1 to %d, %d recorded", next-1, s.Record.Classes)
	}
	rows, err = s.c.db.QueryContext(ctx, "SELECT id, canonical, orbit, props FROM "+s.classes+" ORDER BY id")
	if err != nil {
		return err
	}
	defer rows.Close()
	var scratch []byte
	for rows.Next() {
		var id, orbit, props int64
		var form []byte
		if err := rows.Scan(&id, &form, &orbit, &props); err != nil {
			return err
		}
		w, ok := want[id]
		if !ok {
			report("class %d has no check", id)
			continue
		}
		delete(want, id)
		var sum uint32
		if sum, scratch = classCheck(id, form, orbit, props, scratch); sum != w {
			report("class %d does not match its checksum", id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(want)) {
		report("class %d is checked but missing", id)
	}
	return rows.Err()
}
