package query

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// Target is a stored puzzle ready to be queried.
type Target struct {
	db         *sqlx.DB
	Puzzle     canon.Puzzle
	Record     catalog.Record
	solutions  string          // a view over the blocks, or a table of one row per solution
	blocks     *catalog.Blocks // nil for a puzzle stored before solution blocks
	classes    string
	propsTable string // classes-only puzzles: the classes with properties
	propsCache
}

// NewTarget binds a puzzle's record to the database that holds its tables.
func NewTarget(ctx context.Context, db *sqlx.DB, p canon.Puzzle, rec catalog.Record) (*Target, error) {
	t := &Target{db: db, Puzzle: p, Record: rec}
	t.solutions, t.classes = catalog.Tables(p.String())
	t.propsTable = catalog.PropsTable(p.String())
	if rec.Storage == catalog.StorageSolutions {
		has, err := catalog.HasBlocks(ctx, db, p.String())
		if err != nil {
			return nil, err
		}
		if has {
			b := catalog.PuzzleBlocks(p.String(), p.Len(), rec.Classes)
			t.blocks = &b
		}
	}
	return t, nil
}

// Solution is one stored solution.
type Solution struct {
	ID       int64          `db:"id"`
	Cells    []byte         `db:"cells"`
	ClassID  int64          `db:"class_id"`
	Symmetry canon.Symmetry `db:"symmetry"`
	Orbit    int            `db:"orbit"`
	Props    canon.Property `db:"props"` // its class's
}

// Class is one stored class, with how many of its members matched a filter.
type Class struct {
	ID        int64          `db:"id"`
	Canonical []byte         `db:"canonical"`
	Orbit     int            `db:"orbit"`
	Props     canon.Property `db:"props"`
	Matching  int64          `db:"matching"`
}

// ErrCountsOnly means the puzzle's solutions are not stored, only its counts.
var ErrCountsOnly = errors.New("stored as counts only")

// NeedSolutions refuses questions that need the solutions of a puzzle
// stored as counts only.
func (t *Target) NeedSolutions() error {
	if t.Record.Storage == catalog.StorageCounts {
		fix := fmt.Sprintf("store them with 'solcat build %s --force'", t.Puzzle)
		switch {
		case t.Puzzle.Kind == canon.Magic && t.Puzzle.N > enumerate.MaxMagicOrder:
			fix = "store its classes with 'solcat build magic:5' (about 6 minutes on 2 cores, a 4.5 GB catalog); meanwhile count and stats answer by the centre, cell 3,3"
		case t.Puzzle.N > enumerate.MaxStoredQueens:
			fix = fmt.Sprintf("solutions are stored up to queens:%d", enumerate.MaxStoredQueens)
		}
		return fmt.Errorf("%s is %w (%d solutions, %d classes): filters, list, classes, show and export need its solutions; %s",
			t.Puzzle, ErrCountsOnly, t.Record.Solutions, t.Record.Classes, fix)
	}
	return nil
}

// breakdown returns the recorded counts of a counts-only puzzle by the
// value of cell (row, col), or nil if the build recorded none.
func (t *Target) breakdown(ctx context.Context, row, col int) ([]catalog.Breakdown, error) {
	return t.breakdownBy(ctx, fmt.Sprintf("cell:%d,%d", row, col))
}

// recordedCell answers a count with one cell fixed from the counts the build
// recorded by that cell; recorded is false if it recorded none.
func (t *Target) recordedCell(ctx context.Context, c Cell, classes bool) (n int64, recorded bool, err error) {
	rows, err := t.breakdown(ctx, c.Row, c.Col)
	if err != nil || rows == nil {
		return 0, false, err
	}
	for _, r := range rows {
		if r.Value == c.Value {
			if classes {
				return r.Classes, true, nil
			}
			return r.Solutions, true, nil
		}
	}
	return 0, true, nil
}

// orbitCount is how many classes (or solutions) of the given orbit size
// the record holds.
func (t *Target) orbitCount(orbit int, classes bool) int64 {
	n := t.Record.Orbits()[orbit]
	if classes {
		return n
	}
	return n * int64(orbit)
}

// breakdownBy returns the recorded counts by stat ("cell:3,3", "props").
func (t *Target) breakdownBy(ctx context.Context, stat string) ([]catalog.Breakdown, error) {
	if has, err := catalog.HasTable(ctx, t.db, "count_breakdown"); err != nil || !has {
		return nil, err
	}
	var rows []catalog.Breakdown
	err := t.db.SelectContext(ctx, &rows, `SELECT stat, value, solutions, classes FROM count_breakdown WHERE puzzle = ? AND stat = ? ORDER BY value`,
		t.Puzzle.String(), stat)
	return rows, err
}

// NeedDudeney refuses to answer on Dudeney groups from a magic:4 stored
// before they were: every class would seem to be in none.
func (t *Target) NeedDudeney(ctx context.Context) error {
	if t.Puzzle.Kind != canon.Magic || t.Puzzle.N != 4 {
		return fmt.Errorf("Dudeney's groups classify magic squares of order 4 only, not %s; ask magic:4", t.Puzzle)
	}
	var with int
	mask := canon.Dudeney(1)<<12 - canon.Dudeney(1)
	if err := t.db.GetContext(ctx, &with, "SELECT count(*) FROM "+t.classes+" WHERE props & ? != 0", mask); err != nil {
		return err
	}
	if with == 0 {
		return fmt.Errorf("%s was built before Dudeney groups were stored; rebuild it with 'solcat build %s --force' (a second or less)", t.Puzzle, t.Puzzle)
	}
	return nil
}

// where turns a filter into a WHERE clause over the solutions table (alias
// s) of a puzzle stored before solution blocks (blocks are filtered in Go,
// in stored_scan.go). Conditions that fix a prefix of the cells become an
// ID range found by binary search, since IDs follow the lexicographic order
// of the cells.
func (t *Target) where(ctx context.Context, f Filter) (string, []any, error) {
	if err := t.NeedSolutions(); err != nil {
		return "", nil, err
	}
	clauses := []string{"1"}
	var args []any
	conds := f.byteConditions(t.Puzzle)
	if f.UpToSymmetry && len(conds) > 0 {
		// One group of conditions per symmetry, any of which may hold.
		var groups []string
		for _, pulled := range pullBack(t.Puzzle, conds) {
			group, groupArgs := cellClauses(pulled)
			groups = append(groups, "("+strings.Join(group, " AND ")+")")
			args = append(args, groupArgs...)
		}
		clauses = append(clauses, "("+strings.Join(groups, " OR ")+")")
		conds = nil
	}
	prefix, rest := splitPrefix(conds)
	if len(prefix) > 0 {
		lo, hi, err := t.prefixRange(ctx, prefix)
		if err != nil {
			return "", nil, err
		}
		clauses = append(clauses, "s.id >= ? AND s.id < ?")
		args = append(args, lo, hi)
	}
	restClauses, restArgs := cellClauses(rest)
	clauses = append(clauses, restClauses...)
	args = append(args, restArgs...)
	if f.Class != 0 {
		ids, err := t.members(ctx, f.Class)
		if err != nil {
			return "", nil, err
		}
		clauses = append(clauses, "s.id IN ("+strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",")+")")
		for _, id := range ids {
			args = append(args, id)
		}
	}
	if f.Orbit != 0 || f.Props != 0 {
		cw, cargs := classConditions(f)
		clauses = append(clauses, "s.class_id IN (SELECT id FROM "+t.classes+" WHERE "+cw+")")
		args = append(args, cargs...)
	}
	return strings.Join(clauses, " AND "), args, nil
}

// classConditions are the filter's conditions on the classes table. The
// queens symmetry types are not stored: they are conditions on the orbit.
func classConditions(f Filter) (string, []any) {
	conds := []string{"1"}
	var args []any
	if f.Orbit != 0 {
		conds = append(conds, "orbit = ?")
		args = append(args, f.Orbit)
	}
	if o := f.Props.OrbitOf(); o != 0 {
		conds = append(conds, "orbit = ?")
		args = append(args, o)
	}
	if stored := f.Props.Stored(); stored != 0 {
		conds = append(conds, "props & ? = ?")
		args = append(args, int64(stored), int64(stored))
	}
	return strings.Join(conds, " AND "), args
}

// withDerived completes a class's properties with those its orbit gives.
func (t *Target) withDerived(c Class) Class {
	if t.Puzzle.Kind == canon.Queens {
		c.Props |= canon.SymmetryType(c.Orbit)
	}
	return c
}

// cellClauses turns cell conditions into SQL conditions on s.cells.
func cellClauses(conds []byteCondition) ([]string, []any) {
	var clauses []string
	var args []any
	for _, c := range conds {
		op := "="
		if !c.Equal {
			op = "<>"
		}
		clauses = append(clauses, "substr(s.cells, ?, 1) "+op+" ?")
		args = append(args, c.Pos+1, []byte{c.Value})
	}
	return clauses, args
}

// splitPrefix takes the equality conditions on positions 0, 1, 2, ... as a
// byte prefix and leaves the others.
func splitPrefix(conds []byteCondition) ([]byte, []byteCondition) {
	var prefix []byte
	used := make([]bool, len(conds))
	for {
		found := false
		for i, c := range conds {
			if !used[i] && c.Equal && c.Pos == len(prefix) {
				prefix = append(prefix, c.Value)
				used[i], found = true, true
				break
			}
		}
		if !found {
			break
		}
	}
	var rest []byteCondition
	for i, c := range conds {
		if !used[i] {
			rest = append(rest, c)
		}
	}
	return prefix, rest
}

// prefixRange returns the IDs [lo, hi) of the solutions whose cells start
// with prefix.
func (t *Target) prefixRange(ctx context.Context, prefix []byte) (lo, hi int64, err error) {
	if lo, err = t.lowerBound(ctx, prefix); err != nil {
		return 0, 0, err
	}
	hi = t.Record.Solutions + 1
	if next, ok := successor(prefix); ok {
		hi, err = t.lowerBound(ctx, next)
	}
	return lo, hi, err
}

// successor is the smallest byte string greater than every string that
// starts with prefix; ok is false if there is none.
func successor(prefix []byte) ([]byte, bool) {
	next := bytes.Clone(prefix)
	for i := len(next) - 1; i >= 0; i-- {
		if next[i] < 0xff {
			next[i]++
			return next[:i+1], true
		}
	}
	return nil, false
}

// members returns the solution IDs of a class's members: the images of its
// canonical form under the 8 symmetries, each found by binary search.
func (t *Target) members(ctx context.Context, classID int64) ([]int64, error) {
	class, err := t.Class(ctx, classID)
	if err != nil {
		return nil, err
	}
	var ids []int64
	err = canon.NewImages(t.Puzzle).Distinct(class.Canonical, func(_ canon.Symmetry, img []byte) error {
		id, err := t.lowerBound(ctx, img)
		ids = append(ids, id)
		return err
	})
	return ids, err
}

// lowerBound returns the smallest solution ID whose cells are >= key, or
// the number of solutions + 1 if there is none.
func (t *Target) lowerBound(ctx context.Context, key []byte) (int64, error) {
	lo, hi := int64(1), t.Record.Solutions+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		cells, err := t.solutionCells(ctx, mid)
		if err != nil {
			return 0, fmt.Errorf("reading solution %d: %w", mid, err)
		}
		if bytes.Compare(cells, key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// solutionCells reads the cells of one solution.
func (t *Target) solutionCells(ctx context.Context, id int64) ([]byte, error) {
	if t.blocks == nil {
		var cells []byte
		err := t.db.GetContext(ctx, &cells, "SELECT cells FROM "+t.solutions+" WHERE id = ?", id)
		return cells, err
	}
	cells, err := t.blocks.Cells(ctx, t.db, id)
	if err == nil && cells == nil {
		err = fmt.Errorf("no block of %s holds it; 'solcat verify %s' checks the catalog", t.Puzzle, t.Puzzle)
	}
	return cells, err
}

// Count returns how many solutions match f, or with classes set, how many
// classes have at least one matching member.
func (t *Target) Count(ctx context.Context, f Filter, classes bool) (int64, error) {
	if f.IsZero() {
		if classes {
			return t.Record.Classes, nil
		}
		return t.Record.Solutions, nil
	}
	if err := t.NeedSolutions(); err != nil {
		// One cell fixed: the build may have recorded counts by that cell.
		if len(f.Cells) == 1 && f.Class == 0 && f.Props == 0 && f.Orbit == 0 && !f.UpToSymmetry {
			n, recorded, berr := t.recordedCell(ctx, f.Cells[0], classes)
			if berr != nil || !recorded {
				return 0, errors.Join(err, berr)
			}
			return n, nil
		}
		// Properties alone: the build may have recorded counts of them.
		if f.Props != 0 && len(f.Cells) == 0 && f.Class == 0 && f.Orbit == 0 {
			rows, berr := t.breakdownBy(ctx, "props")
			if berr != nil || rows == nil {
				return 0, errors.Join(err, berr)
			}
			var recorded []string
			for _, r := range rows {
				if canon.Property(r.Value) == f.Props {
					if classes {
						return r.Classes, nil
					}
					return r.Solutions, nil
				}
				recorded = append(recorded, canon.Property(r.Value).String())
			}
			return 0, fmt.Errorf("%w; of its properties only these are counted: %s", err, strings.Join(recorded, "; "))
		}
		// Counts by orbit size are in the record itself.
		if len(f.Cells) > 0 || f.Class != 0 || f.Props != 0 {
			return 0, err
		}
		return t.orbitCount(f.Orbit, classes), nil
	}
	if t.classesOnly() && len(f.Cells) == 0 && f.Class == 0 && f.Props == 0 && f.Orbit != 0 {
		// Counts by orbit size are in the record (all 8 for magic:5).
		return t.orbitCount(f.Orbit, classes), nil
	}
	if t.classesOnly() && len(f.Cells) == 1 && f.Class == 0 && f.Props == 0 && f.Orbit == 0 && !f.UpToSymmetry {
		// The build recorded every single-cell count.
		if n, recorded, err := t.recordedCell(ctx, f.Cells[0], classes); err != nil || recorded {
			return n, err
		}
	}
	if prefix, rest := splitPrefix(f.byteConditions(t.Puzzle)); len(prefix) > 0 && len(rest) == 0 && !classes && f.Class == 0 && f.Orbit == 0 && f.Props == 0 && !f.UpToSymmetry && !t.classesOnly() {
		// Only a prefix: the answer is the size of its ID range (IDs
		// follow lexicographic order, except for puzzles stored as classes).
		lo, hi, err := t.prefixRange(ctx, prefix)
		return hi - lo, err
	}
	// Solutions in blocks are read faster than the classes are, except
	// where each queens solution would need its orbit worked out.
	if t.blocks != nil && (!t.scanClasses(f) || t.Puzzle.Kind == canon.Magic || (f.Orbit == 0 && f.Props == 0)) {
		return t.countStored(ctx, f, classes)
	}
	if t.scanClasses(f) {
		return t.countByClasses(ctx, f, classes)
	}
	where, args, err := t.where(ctx, f)
	if err != nil {
		return 0, err
	}
	what := "count(*)"
	if classes {
		what = "count(DISTINCT s.class_id)"
	}
	var n int64
	err = t.db.GetContext(ctx, &n, "SELECT "+what+" FROM "+t.solutions+" s WHERE "+where, args...)
	return n, err
}

// scanClasses reports whether a filter is best answered from the classes
// table: a filter that fixes a prefix narrows the solutions to an ID range,
// and a class filter to 8 IDs; anything else would read every solution.
func (t *Target) scanClasses(f Filter) bool {
	if t.classesOnly() {
		return true
	}
	prefix, _ := splitPrefix(f.byteConditions(t.Puzzle))
	return (len(prefix) == 0 || f.UpToSymmetry) && f.Class == 0
}

// Page limits a listing. Limit < 0 means no limit.
type Page struct{ Limit, Offset int64 }

// List streams the matching solutions in lexicographic order.
func (t *Target) List(ctx context.Context, f Filter, page Page, fn func(Solution) error) error {
	if t.classesOnly() {
		return t.listExpanded(ctx, f, page, fn)
	}
	if err := t.NeedSolutions(); err != nil {
		return err
	}
	if t.blocks != nil {
		return t.listStored(ctx, f, page, fn)
	}
	where, args, err := t.where(ctx, f)
	if err != nil {
		return err
	}
	q := "SELECT s.id, s.cells, s.class_id, s.symmetry, c.orbit, c.props FROM " + t.solutions + " s JOIN " + t.classes +
		" c ON c.id = s.class_id WHERE " + where + " ORDER BY s.id LIMIT ? OFFSET ?"
	return each(ctx, t.db, q, append(args, page.Limit, page.Offset), func(s Solution) error {
		s.Props |= canon.SymmetryType(s.Orbit)
		return fn(s)
	})
}

// Classes streams, in class ID order, the classes with at least one member
// matching f and how many members match.
func (t *Target) Classes(ctx context.Context, f Filter, page Page, fn func(Class) error) error {
	if err := t.NeedSolutions(); err != nil {
		return err
	}
	if f.IsZero() && !t.classesOnly() {
		q := "SELECT id, canonical, orbit, props, orbit AS matching FROM " + t.classes + " ORDER BY id LIMIT ? OFFSET ?"
		return each(ctx, t.db, q, []any{page.Limit, page.Offset}, func(c Class) error { return fn(t.withDerived(c)) })
	}
	if t.scanClasses(f) {
		return t.classesByScan(ctx, f, page, func(c Class) error { return fn(t.withDerived(c)) })
	}
	if t.blocks != nil {
		return t.classesStored(ctx, f, page, fn)
	}
	where, args, err := t.where(ctx, f)
	if err != nil {
		return err
	}
	q := "SELECT c.id, c.canonical, c.orbit, c.props, count(*) AS matching FROM " + t.solutions + " s JOIN " + t.classes +
		" c ON c.id = s.class_id WHERE " + where + " GROUP BY s.class_id ORDER BY s.class_id LIMIT ? OFFSET ?"
	return each(ctx, t.db, q, append(args, page.Limit, page.Offset), func(c Class) error { return fn(t.withDerived(c)) })
}

// ErrNoClass means a class ID is not in the puzzle.
var ErrNoClass = errors.New("no such class")

// Class returns one class.
func (t *Target) Class(ctx context.Context, id int64) (Class, error) {
	var c Class
	if err := t.NeedSolutions(); err != nil {
		return c, err
	}
	if t.classesOnly() {
		found := false
		err := t.classRows(ctx, id, id, Filter{}, func(r classRow) error {
			c, found = Class{ID: r.ID, Canonical: slices.Clone(r.Form), Orbit: int(r.Orbit), Props: r.Props, Matching: r.Orbit}, true
			return nil
		})
		if err == nil && !found {
			err = fmt.Errorf("%w: %s has classes 1 to %d, not %d", ErrNoClass, t.Puzzle, t.Record.Classes, id)
		}
		return c, err
	}
	err := t.db.GetContext(ctx, &c, "SELECT id, canonical, orbit, props, orbit AS matching FROM "+t.classes+" WHERE id = ?", id)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("%w: %s has classes 1 to %d, not %d", ErrNoClass, t.Puzzle, t.Record.Classes, id)
	}
	return t.withDerived(c), err
}

func each[T any](ctx context.Context, db *sqlx.DB, q string, args []any, fn func(T) error) error {
	rows, err := db.QueryxContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var v T
		if err := rows.StructScan(&v); err != nil {
			return err
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return rows.Err()
}
