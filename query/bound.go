// Package query answers questions over a stored puzzle. It reads a user's
// filter (cells, a pattern, properties, a class, an orbit size), plans how
// to answer a question with it by the planner's table (from the record,
// from the ID range of a prefix found by binary search, by a direct jump
// to an ID, by scanning solution blocks or classes), and runs the plan
// through the catalog's reading API. It never writes SQL and never decodes
// the catalog's storage: that is catalog's alone; query/records writes
// the answers, query/verify checks what is stored.
package query

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/verify"
)

// BoundPuzzle is a puzzle bound to the catalog that holds it: its record,
// and the reader of what is stored of it, ready to be queried.
type BoundPuzzle struct {
	Puzzle canon.Puzzle
	Record catalog.Record
	cat    *catalog.Catalog
	store  *catalog.Content // nil for a puzzle recorded by its counts only, or unreadable
	// storeErr says why a puzzle that is stored cannot be read (a format of
	// an older solcat): questions its record answers still are.
	storeErr error
}

// Bind binds a puzzle's record to the catalog that holds it, once a
// quick look finds its record and tables agree (verify.QuickLook: a
// *catalog.DamagedError if not).
func Bind(ctx context.Context, cat *catalog.Catalog, p canon.Puzzle, rec catalog.Record) (*BoundPuzzle, error) {
	t := &BoundPuzzle{Puzzle: p, Record: rec, cat: cat}
	if rec.Storage != catalog.StorageCounts {
		store, err := cat.Content(ctx, p, rec)
		var old *catalog.OldFormatError
		switch {
		case errors.As(err, &old):
			t.storeErr = err
		case err != nil:
			return nil, err
		default:
			t.store = store
		}
	}
	if err := verify.QuickLook(ctx, cat, p, rec, t.store); err != nil {
		return nil, err
	}
	return t, nil
}

// Catalog is the catalog the puzzle is bound to.
func (t *BoundPuzzle) Catalog() *catalog.Catalog { return t.cat }

// Solution is one stored solution.
type Solution struct {
	ID       int64
	Cells    []byte
	ClassID  int64
	Symmetry canon.Symmetry
	Orbit    int
	Props    canon.Property // its class's
}

// Class is one stored class, with how many of its members matched a filter.
type Class struct {
	ID        int64
	Canonical []byte
	Orbit     int
	Props     canon.Property
	Matching  int64
}

// ErrCountsOnly means the puzzle's solutions are not stored, only its counts.
var ErrCountsOnly = errors.New("stored as counts only")

// CountsOnlyError is a question that needs the solutions (or classes) of a
// puzzle recorded by its counts only.
type CountsOnlyError struct {
	Puzzle  canon.Puzzle
	Record  catalog.Record
	Counted []string // the properties whose counts are recorded, if a property was asked
}

func (e *CountsOnlyError) Error() string { return e.Summary() + e.CountedText() }

// Summary says what is recorded of the puzzle, and what needs more: for
// queens, filters other than cells (counts under cells, and of the board
// properties, are counted again).
func (e *CountsOnlyError) Summary() string {
	need := "filters, list, classes, show and export need what is stored"
	if e.Puzzle.Kind == canon.Queens {
		need = "list, classes, show, export and filters other than cells need what is stored ('solcat count' answers cells and the toroidal and superqueen properties without it)"
	}
	return fmt.Sprintf("%s is %v (%s, %s): %s", e.Puzzle, ErrCountsOnly, canon.Plural(e.Record.Solutions, "solution"), canon.Plural(e.Record.Classes, "class"), need)
}

// CountedText names the properties whose counts are recorded, when a
// property was asked; else it is empty.
func (e *CountsOnlyError) CountedText() string {
	if e.Counted == nil {
		return ""
	}
	counted := "none"
	if len(e.Counted) > 0 {
		counted = strings.Join(e.Counted, "; ")
	}
	return "; of its properties only these are counted: " + counted
}

func (e *CountsOnlyError) Unwrap() error { return ErrCountsOnly }

// ErrNoDudeney means a magic:4 was stored before its classes' Dudeney
// groups were: every class would seem to be in none.
var ErrNoDudeney = errors.New("was built before Dudeney groups were stored")

// ErrNoClass means a class ID is not in the puzzle.
var ErrNoClass = errors.New("no such class")

// ErrNoSolution means a solution ID is not in the puzzle.
var ErrNoSolution = errors.New("no such solution")

func (t *BoundPuzzle) countsOnly() error {
	if t.storeErr != nil {
		return t.storeErr
	}
	if t.store == nil {
		return &CountsOnlyError{Puzzle: t.Puzzle, Record: t.Record}
	}
	return nil
}

func (t *BoundPuzzle) classesOnly() bool { return t.store != nil && t.store.ClassesOnly() }

// needDudeney refuses questions about Dudeney groups that the catalog
// cannot answer.
func (t *BoundPuzzle) needDudeney(ctx context.Context) error {
	if t.Puzzle.Kind != canon.Magic || t.Puzzle.N != 4 {
		return badFilter("prop", "", "Dudeney's groups classify magic squares of order 4 only, not %s", t.Puzzle)
	}
	if err := t.countsOnly(); err != nil {
		return err
	}
	mask := canon.Dudeney(1)<<12 - canon.Dudeney(1)
	has, err := t.store.HasProps(ctx, uint32(mask))
	if err == nil && !has {
		err = fmt.Errorf("%s %w", t.Puzzle, ErrNoDudeney)
	}
	return err
}

// Class returns one class.
func (t *BoundPuzzle) Class(ctx context.Context, id int64) (Class, error) {
	if err := t.countsOnly(); err != nil {
		return Class{}, err
	}
	r, ok, err := t.store.Class(ctx, id)
	if err == nil && !ok {
		err = outOfRange(ErrNoClass, t.Puzzle, "classes", t.Record.Classes, id)
	}
	return t.class(r, int64(r.Orbit)), err
}

// class turns a stored class into a Class, with the queens properties,
// which are not stored: the symmetry type its orbit gives, and what its
// canonical form's squares show.
func (t *BoundPuzzle) class(r catalog.ClassRow, matching int64) Class {
	c := Class{ID: r.ID, Canonical: r.Form, Orbit: r.Orbit, Props: canon.Property(r.Props), Matching: matching}
	if t.Puzzle.Kind == canon.Queens {
		c.Props |= canon.QueensProperties(r.Form, c.Orbit)
	}
	return c
}

// members returns the solution IDs of a class's members, in ID order: the
// images of its canonical form, each found by binary search.
func (t *BoundPuzzle) members(ctx context.Context, classID int64) ([]int64, error) {
	if err := t.countsOnly(); err != nil {
		return nil, err
	}
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
	slices.Sort(ids)
	return ids, err
}

// prefixRange returns the IDs [lo, hi) of the solutions whose cells start
// with prefix: IDs follow the lexicographic order of the cells.
func (t *BoundPuzzle) prefixRange(ctx context.Context, prefix []byte) (lo, hi int64, err error) {
	if err := t.countsOnly(); err != nil {
		return 0, 0, err // nothing stored to search
	}
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

// lowerBound returns the smallest solution ID whose cells are >= key, or
// the number of solutions + 1 if there is none.
func (t *BoundPuzzle) lowerBound(ctx context.Context, key []byte) (int64, error) {
	lo, hi := int64(1), t.Record.Solutions+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		cells, err := t.store.Cells(ctx, mid)
		if err != nil {
			return 0, err
		}
		if bytes.Compare(cells, key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// countsOnlyRecord reports whether the puzzle is recorded by its counts
// only.
func (t *BoundPuzzle) countsOnlyRecord() bool { return t.Record.Storage == catalog.StorageCounts }

// outOfRange says that id is not one of the puzzle's total classes or
// solutions.
func outOfRange(sentinel error, p canon.Puzzle, what string, total, id int64) error {
	if total == 0 {
		return fmt.Errorf("%w: %s has no %s", sentinel, p, what)
	}
	return fmt.Errorf("%w: %s has %s 1 to %d, not %d", sentinel, p, what, total, id)
}
