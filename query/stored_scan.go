package query

import (
	"context"
	"maps"
	"math/bits"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"solcat/canon"
	"solcat/catalog"
)

// Solutions stored in blocks are filtered here, in Go, as the blocks are
// read: through the solutions view SQLite spends a few hundred nanoseconds
// on each row, a test here a few.

// classInfo is what the filters and listings need of a solution's class.
type classInfo struct {
	orbit int
	props canon.Property // as stored
}

// storedScan reads the stored solutions a filter covers and tests them.
type storedScan struct {
	t        *Target
	f        Filter
	rest     []byteCondition     // conditions on the solution's cells
	anyOf    *[8][]byteCondition // --up-to-symmetry: one group must hold
	lo, hi   int64               // the IDs to read, [lo, hi)
	members  []int64             // --class: the IDs to read instead
	queens   bool                // a class's orbit is found from any member
	classMap map[int64]classInfo // magic squares: every class (880 at most)
}

// newStoredScan prepares the scan of the solutions that may match f.
func (t *Target) newStoredScan(ctx context.Context, f Filter) (*storedScan, error) {
	sc := &storedScan{t: t, f: f, lo: 1, hi: t.Record.Solutions + 1}
	conds := f.byteConditions(t.Puzzle)
	if f.UpToSymmetry && len(conds) > 0 {
		groups := pullBack(t.Puzzle, conds)
		sc.anyOf, conds = &groups, nil
	}
	prefix, rest := splitPrefix(conds)
	sc.rest = rest
	if len(prefix) > 0 {
		var err error
		if sc.lo, sc.hi, err = t.prefixRange(ctx, prefix); err != nil {
			return nil, err
		}
	}
	if f.Class != 0 {
		ids, err := t.members(ctx, f.Class)
		if err != nil {
			return nil, err
		}
		slices.Sort(ids)
		sc.members = ids
	}
	if sc.queens = t.Puzzle.Kind == canon.Queens; !sc.queens {
		sc.classMap = map[int64]classInfo{}
		rows, err := t.db.QueryContext(ctx, "SELECT id, orbit, props FROM "+t.classes)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var c classInfo
			if err := rows.Scan(&id, &c.orbit, &c.props); err != nil {
				return nil, err
			}
			sc.classMap[id] = c
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// class returns the orbit and stored properties of a solution's class
// (images is the caller's own). A queens class's properties are its
// symmetry type, which is not stored.
func (sc *storedScan) class(s catalog.StoredSolution, images *canon.Images) classInfo {
	if !sc.queens {
		id, _, _ := s.Class() // a damaged entry is no class: verify names it
		return sc.classMap[id]
	}
	orbit := 0
	images.Distinct(s.Cells, func(canon.Symmetry, []byte) error { orbit++; return nil })
	return classInfo{orbit: orbit}
}

// run calls fn, in ID order, for each solution with an ID in [lo, hi) that
// matches. Runs may go on at once, on ranges of their own.
func (sc *storedScan) run(ctx context.Context, lo, hi int64, fn func(catalog.StoredSolution, classInfo) error) error {
	f := sc.f
	images := canon.NewImages(sc.t.Puzzle)
	test := func(s catalog.StoredSolution) error {
		if !meets(s.Cells, sc.rest) {
			return nil
		}
		if sc.anyOf != nil && !slices.ContainsFunc(sc.anyOf[:], func(group []byteCondition) bool { return meets(s.Cells, group) }) {
			return nil
		}
		var c classInfo
		if !sc.queens || f.Orbit != 0 || f.Props != 0 {
			c = sc.class(s, images)
		}
		switch stored := f.Props.Stored(); {
		case f.Orbit != 0 && c.orbit != f.Orbit:
		case f.Props.OrbitOf() != 0 && c.orbit != f.Props.OrbitOf():
		case c.props&stored != stored:
		default:
			return fn(s, c)
		}
		return nil
	}
	if sc.members == nil {
		return sc.t.blocks.Scan(ctx, sc.t.db, lo, hi-1, test)
	}
	for _, id := range sc.members {
		if id < lo || id >= hi {
			continue
		}
		if err := sc.t.blocks.Scan(ctx, sc.t.db, id, id, test); err != nil {
			return err
		}
	}
	return nil
}

// countStored counts the stored solutions that match f, or with classes
// set, their distinct classes.
func (t *Target) countStored(ctx context.Context, f Filter, classes bool) (int64, error) {
	sc, err := t.newStoredScan(ctx, f)
	if err != nil {
		return 0, err
	}
	// One range of IDs per core, each read on its own connection.
	workers := 1
	if sc.members == nil && sc.hi-sc.lo > 1<<20 {
		workers = runtime.NumCPU()
	}
	counts := make([]int64, workers)
	seen := make([][]uint64, workers) // a bit per class
	g, gctx := errgroup.WithContext(ctx)
	for w := range workers {
		if classes {
			seen[w] = make([]uint64, t.Record.Classes/64+1)
		}
		lo, hi := sc.lo+(sc.hi-sc.lo)*int64(w)/int64(workers), sc.lo+(sc.hi-sc.lo)*int64(w+1)/int64(workers)
		g.Go(func() error {
			return sc.run(gctx, lo, hi, func(s catalog.StoredSolution, _ classInfo) error {
				if !classes {
					counts[w]++
					return nil
				}
				id, _, err := s.Class()
				if err == nil && id >= 1 && id <= t.Record.Classes { // verify names damage; a count cannot
					seen[w][id/64] |= 1 << (id % 64)
				}
				return err
			})
		})
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	var n int64
	for w := range workers {
		n += counts[w]
	}
	if classes {
		for i := range seen[0] {
			var word uint64
			for w := range workers {
				word |= seen[w][i]
			}
			n += int64(bits.OnesCount64(word))
		}
	}
	return n, nil
}

// classesStored streams, in class ID order, the classes with stored
// solutions that match f (a prefix or a class: the filters that narrow the
// solutions to read) and how many of their members match.
func (t *Target) classesStored(ctx context.Context, f Filter, page Page, fn func(Class) error) error {
	sc, err := t.newStoredScan(ctx, f)
	if err != nil {
		return err
	}
	matching := map[int64]int64{}
	err = sc.run(ctx, sc.lo, sc.hi, func(s catalog.StoredSolution, _ classInfo) error {
		id, _, err := s.Class()
		matching[id]++
		return err
	})
	if err != nil {
		return err
	}
	ids := slices.Sorted(maps.Keys(matching))
	ids = ids[min(int64(len(ids)), page.Offset):]
	if page.Limit >= 0 {
		ids = ids[:min(int64(len(ids)), page.Limit)]
	}
	// The classes are read 500 to a statement: one query each costs more
	// than the scan when a prefix leaves many.
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 500)]
		ids = ids[len(batch):]
		args := make([]any, len(batch))
		for i, id := range batch {
			args[i] = id
		}
		q := "SELECT id, canonical, orbit, props, 0 AS matching FROM " + t.classes + " WHERE id IN (" + strings.TrimSuffix(strings.Repeat("?,", len(batch)), ",") + ") ORDER BY id"
		err := each(ctx, t.db, q, args, func(c Class) error {
			c.Matching = matching[c.ID]
			return fn(t.withDerived(c))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// listStored streams the stored solutions that match f in ID order.
func (t *Target) listStored(ctx context.Context, f Filter, page Page, fn func(Solution) error) error {
	sc, err := t.newStoredScan(ctx, f)
	if err != nil {
		return err
	}
	pg := pager{skip: page.Offset, left: page.Limit}
	if pg.left == 0 {
		return nil
	}
	images := canon.NewImages(t.Puzzle)
	err = sc.run(ctx, sc.lo, sc.hi, func(s catalog.StoredSolution, c classInfo) error {
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
	if err == errEnough {
		return nil
	}
	return err
}
