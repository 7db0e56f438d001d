package query

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"sort"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
)

// Count returns how many solutions match a planned question, or for
// AskCountClasses how many classes have at least one matching member.
func (t *BoundPuzzle) Count(ctx context.Context, p *Plan) (int64, error) {
	f := p.Question.Filter
	classes := p.Question.Ask == AskCountClasses
	switch p.Way {
	case ProvedEmpty:
		return 0, nil
	case ConstrainedCount:
		return t.countConstrained(ctx, p)
	case FromAnswer:
		return p.answer.Solutions, nil
	case FromRecord:
		if f.Orbit == 0 && f.Props == 0 {
			if classes {
				return t.Record.Classes, nil
			}
			return t.Record.Solutions, nil
		}
		var n int64
		for _, orbit := range []int{1, 2, 4, 8} {
			switch {
			case f.Orbit != 0 && orbit != f.Orbit, !f.Props.AllowsOrbit(orbit):
			case classes:
				n += t.Record.Orbits[orbit]
			default:
				n += t.Record.Orbits[orbit] * int64(orbit)
			}
		}
		return n, nil
	case FromBreakdown:
		if p.Stat != catalog.StatProps {
			c := f.Cells[0]
			rows, err := t.recordedCell(ctx, c.Row, c.Col)
			if err != nil {
				return 0, err
			}
			if classes {
				return rows[c.Value].Classes, nil
			}
			return rows[c.Value].Solutions, nil
		}
		rows, err := t.cat.Breakdown(ctx, t.Record.Name, p.Stat)
		if err != nil {
			return 0, err
		}
		for _, r := range rows {
			if p.Stat == catalog.StatProps && canon.Property(r.Value) != f.Props || p.Stat != catalog.StatProps && r.Value != f.Cells[0].Value {
				continue
			}
			if classes {
				return r.Classes, nil
			}
			return r.Solutions, nil
		}
		// The plan found the property's row: one missing now was lost.
		return 0, fmt.Errorf("%s: %w: the counts recorded by %s lack a row for the value asked for", t.Puzzle, catfile.ErrDamaged, p.Stat)
	case PrefixRange:
		return p.IDs.Len(), nil
	case ClassScan:
		return t.countByClasses(ctx, p, classes)
	}
	return t.countStored(ctx, p, classes)
}

// List streams the solutions that match a planned question, in ID order.
func (t *BoundPuzzle) List(ctx context.Context, p *Plan, fn func(Solution) error) error {
	win := p.Question.Window
	pg := pager{skip: win.Offset, left: win.Limit}
	if pg.left == 0 || p.Way == ProvedEmpty {
		return nil
	}
	if p.Way == Jump && !t.classesOnly() {
		pg.skip = 0 // the jump skipped them
	}
	var err error
	if t.classesOnly() {
		err = t.listExpanded(ctx, p, &pg, fn)
	} else {
		err = t.listStored(ctx, p, &pg, fn)
	}
	if errors.Is(err, errEnough) {
		return nil
	}
	return err
}

// Classes streams, in class ID order, the classes with at least one member
// that matches a planned question, with how many members match.
func (t *BoundPuzzle) Classes(ctx context.Context, p *Plan, fn func(Class) error) error {
	win := p.Question.Window
	pg := pager{skip: win.Offset, left: win.Limit}
	if pg.left == 0 || p.Way == ProvedEmpty {
		return nil
	}
	var err error
	switch p.Way {
	case Jump:
		err = t.store.Classes(ctx, p.Classes.Lo, p.Classes.Hi, catalog.ClassFilter{}, func(r catalog.ClassRow) error {
			c := t.class(r, int64(r.Orbit))
			c.Canonical = slices.Clone(c.Canonical)
			return fn(c)
		})
	case ClassScan:
		err = t.classesByScan(ctx, p, &pg, fn)
	default:
		err = t.classesStored(ctx, p, &pg, fn)
	}
	if errors.Is(err, errEnough) {
		return nil
	}
	return err
}

// pager applies a Window to a stream: skipped reports (and counts) an item
// that falls in the offset; gave, after an item is handed out, stops the
// stream with errEnough once the limit is reached.
type pager struct{ skip, left int64 }

func (p *pager) skipped() bool {
	if p.skip > 0 {
		p.skip--
		return true
	}
	return false
}

func (p *pager) gave() error {
	if p.left--; p.left == 0 {
		return errEnough
	}
	return nil
}

// errEnough stops a scan that has found all it was asked for.
var errEnough = errors.New("enough")

// classInfo is what the filters and listings need of a solution's class.
type classInfo struct {
	orbit int
	props canon.Property // as stored; for queens, those read off the squares
}

// blockScan reads the stored solutions a plan covers and tests them.
type blockScan struct {
	t        *BoundPuzzle
	p        *Plan
	queens   bool                // a class's orbit is found from any member
	classMap map[int64]classInfo // magic squares: every class (880 at most)
}

func (t *BoundPuzzle) newBlockScan(ctx context.Context, p *Plan) (*blockScan, error) {
	sc := &blockScan{t: t, p: p, queens: t.Puzzle.Kind == canon.Queens}
	if !sc.queens {
		sc.classMap = map[int64]classInfo{}
		err := t.store.Classes(ctx, 1, t.Record.Classes, catalog.ClassFilter{}, func(r catalog.ClassRow) error {
			sc.classMap[r.ID] = classInfo{orbit: r.Orbit, props: canon.Property(r.Props)}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// class returns the orbit and properties of a solution's class (images is
// the caller's own): a magic square's as stored; a queens solution's are
// not stored, but its orbit gives its symmetry type (added by the callers
// that show it) and its squares the others.
func (sc *blockScan) class(s catalog.StoredSolution, images *canon.Images) classInfo {
	if !sc.queens {
		id, _, _ := s.Class() // a damaged entry is no class: verify names it
		return sc.classMap[id]
	}
	return classInfo{orbit: canon.QueensOrbit(s.Cells), props: canon.QueensBoardProperties(s.Cells)}
}

// run calls fn for each solution with an ID in [lo, hi] that matches, on
// workers goroutines, in ID order within each (w).
func (sc *blockScan) run(ctx context.Context, lo, hi int64, workers int, fn func(w int, s catalog.StoredSolution, c classInfo) error) error {
	f := sc.p.Question.Filter
	workers = max(workers, 1)
	images := make([]*canon.Images, workers)
	for w := range images {
		images[w] = canon.NewImages(sc.t.Puzzle)
	}
	// The cell conditions are tested a block at a time (eachMatch): test
	// sees the solutions that meet them.
	test := func(w int, s catalog.StoredSolution) error {
		if f.UpToSymmetry && !slices.ContainsFunc(sc.p.imageConds[:], func(conds []byteCondition) bool { return meets(s.Cells, conds) }) {
			return nil
		}
		var c classInfo
		if !sc.queens || f.Orbit != 0 || f.Props != 0 {
			c = sc.class(s, images[w])
		}
		switch stored, board := f.Props.Stored(), f.Props.Board(); {
		case f.Orbit != 0 && c.orbit != f.Orbit:
		case !f.Props.AllowsOrbit(c.orbit):
		case c.props&stored != stored, c.props&board != board:
		default:
			return fn(w, s, c)
		}
		return nil
	}
	if sc.p.Way != ClassMembers {
		return sc.t.eachMatch(ctx, sc.p.rest, lo, hi, workers, test)
	}
	for _, id := range sc.p.Members {
		if id < lo || id > hi {
			continue
		}
		if err := sc.t.eachMatch(ctx, sc.p.rest, id, id, 1, test); err != nil {
			return err
		}
	}
	return nil
}

// countStored counts the stored solutions that match, or with classes
// set, their distinct classes.
func (t *BoundPuzzle) countStored(ctx context.Context, p *Plan, classes bool) (int64, error) {
	if f := p.Question.Filter; p.Way == BlockScan && !f.UpToSymmetry && f.Orbit == 0 && f.Props == 0 {
		n, _, err := t.countBlocks(ctx, p.rest, p.IDs.Lo, p.IDs.Hi, p.Workers, classes)
		return n, err
	}
	sc, err := t.newBlockScan(ctx, p)
	if err != nil {
		return 0, err
	}
	workers := max(p.Workers, 1)
	counts := make([]paddedCount, workers)
	seen := newClassSets(workers, t.Record.Classes, classes)
	err = sc.run(ctx, p.IDs.Lo, p.IDs.Hi, workers, func(w int, s catalog.StoredSolution, _ classInfo) error {
		if !classes {
			counts[w].n++
			return nil
		}
		id, _, err := s.Class()
		seen.mark(w, id)
		return err
	})
	if err != nil {
		return 0, err
	}
	if classes {
		return seen.count(), nil
	}
	var n int64
	for _, c := range counts {
		n += c.n
	}
	return n, nil
}

// classSets is a set of class IDs per goroutine, a bit a class, for
// counting distinct classes on several at once.
type classSets struct {
	sets    [][]uint64
	classes int64
}

// newClassSets makes sets for workers goroutines over classes classes, or
// empty ones (none asked).
func newClassSets(workers int, classes int64, asked bool) classSets {
	cs := classSets{sets: make([][]uint64, workers), classes: classes}
	for w := range cs.sets {
		if asked {
			cs.sets[w] = make([]uint64, classes/64+1)
		}
	}
	return cs
}

// mark adds class id to goroutine w's set. An ID no class has (a damaged
// entry: verify names it) is left out.
func (cs classSets) mark(w int, id int64) {
	if id >= 1 && id <= cs.classes {
		cs.sets[w][id/64] |= 1 << (id % 64)
	}
}

// count is how many classes the sets hold together.
func (cs classSets) count() int64 {
	var n int64
	for i := range cs.sets[0] {
		var word uint64
		for _, set := range cs.sets {
			word |= set[i]
		}
		n += int64(bits.OnesCount64(word))
	}
	return n
}

// listStored streams the stored solutions that match in ID order.
func (t *BoundPuzzle) listStored(ctx context.Context, p *Plan, pg *pager, fn func(Solution) error) error {
	sc, err := t.newBlockScan(ctx, p)
	if err != nil {
		return err
	}
	images := canon.NewImages(t.Puzzle)
	return sc.run(ctx, p.IDs.Lo, p.IDs.Hi, 1, func(_ int, s catalog.StoredSolution, c classInfo) error {
		if pg.skipped() {
			return nil
		}
		if c.orbit == 0 {
			c = sc.class(s, images)
		}
		class, symmetry, err := s.Class()
		if err != nil {
			return err
		}
		sol := Solution{ID: s.ID, Cells: slices.Clone(s.Cells), ClassID: class, Symmetry: canon.Symmetry(symmetry), Orbit: c.orbit, Props: c.props}
		if t.Puzzle.Kind == canon.Queens {
			sol.Props |= canon.SymmetryType(c.orbit)
		}
		if err := fn(sol); err != nil {
			return err
		}
		return pg.gave()
	})
}

// classesStored streams, in class ID order, the classes with stored
// solutions that match (a prefix or a class: the filters that narrow the
// solutions to read) and how many of their members match.
func (t *BoundPuzzle) classesStored(ctx context.Context, p *Plan, pg *pager, fn func(Class) error) error {
	sc, err := t.newBlockScan(ctx, p)
	if err != nil {
		return err
	}
	matching := map[int64]int64{}
	err = sc.run(ctx, p.IDs.Lo, p.IDs.Hi, 1, func(_ int, s catalog.StoredSolution, _ classInfo) error {
		id, _, err := s.Class()
		matching[id]++
		return err
	})
	if err != nil {
		return err
	}
	ids := slices.Sorted(maps.Keys(matching))
	ids = ids[sort.Search(len(ids), func(i int) bool { return ids[i] >= p.from }):] // a resumed stream's later piece
	ids = ids[min(int64(len(ids)), pg.skip):]
	if pg.left >= 0 {
		ids = ids[:min(int64(len(ids)), pg.left)]
	}
	return t.store.ClassesByID(ctx, ids, func(r catalog.ClassRow) error {
		c := t.class(r, matching[r.ID])
		c.Canonical = slices.Clone(c.Canonical)
		return fn(c)
	})
}

// Solution returns the solution with the given ID: a direct jump to it.
func (t *BoundPuzzle) Solution(ctx context.Context, id int64) (Solution, error) {
	if id < 1 || id > t.Record.Solutions {
		return Solution{}, outOfRange(ErrNoSolution, t.Puzzle, "solutions", t.Record.Solutions, id)
	}
	p, err := t.Plan(ctx, Question{Ask: AskList, Window: Window{Offset: id - 1, Limit: 1}})
	if err != nil {
		return Solution{}, err
	}
	var found *Solution
	err = t.List(ctx, p, func(s Solution) error { found = &s; return nil })
	if err == nil && found == nil {
		err = fmt.Errorf("%s: solution %d is not where its ID says", t.Puzzle, id)
	}
	if err != nil {
		return Solution{}, err
	}
	return *found, nil
}
