package query

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// Verify re-checks a stored puzzle from its tables alone and reports each
// problem it finds: every solution obeys the rules, solution and class IDs
// are the lexicographic ranks, every solution's class and symmetry agree
// with its canonical form, every class has as many members as its orbit
// size, the counts equal the record and the published values, and the
// content hash equals the one recorded at build time.
func (t *Target) Verify(ctx context.Context, report func(problem string)) error {
	p, rec := t.Puzzle, t.Record
	problem := func(format string, args ...any) { report(fmt.Sprintf(format, args...)) }
	if known, ok := enumerate.KnownCounts(p); ok {
		if m := known.Mismatch(rec.Solutions, rec.Classes, rec.Orbits()); m != "" {
			problem("recorded counts %s", m)
		}
	}
	if rec.Storage == "counts" {
		return nil
	}
	if t.classesOnly() {
		return t.verifyClasses(ctx, problem)
	}
	hash := catalog.NewContentHash()
	canonicalizer := canon.NewCanonicalizer(p)

	// Classes: IDs 1, 2, ... with canonical forms in increasing order.
	var forms [][]byte
	var orbits []int
	var orbitCounts [9]int64
	var prev []byte
	err := each(ctx, t.db, "SELECT id, canonical, orbit, props, orbit AS matching FROM "+t.classes+" ORDER BY id", nil, func(c Class) error {
		if c.ID != int64(len(forms)+1) {
			problem("class %d: expected class ID %d here (IDs must run 1, 2, 3, ...)", c.ID, len(forms)+1)
		}
		if err := p.Check(c.Canonical); err != nil {
			problem("class %d: canonical form is not a solution: %v", c.ID, err)
		} else if f := canonicalizer.Canonical(c.Canonical); !bytes.Equal(f.Canonical, c.Canonical) || f.Orbit != c.Orbit {
			problem("class %d: stored form is not canonical or its orbit %d is wrong (computed %d)", c.ID, c.Orbit, f.Orbit)
		}
		if want := p.Properties(c.Canonical).Stored(); p.Check(c.Canonical) == nil && c.Props != want {
			hint := ""
			if c.Props.DudeneyOf() == 0 && want.DudeneyOf() != 0 {
				hint = fmt.Sprintf(" (built before Dudeney groups were stored: rebuild with 'solcat build %s --force')", p)
			}
			problem("class %d: properties %s stored, %s computed%s", c.ID, c.Props, want, hint)
		}
		if prev != nil && bytes.Compare(c.Canonical, prev) <= 0 {
			problem("class %d: canonical form is not greater than class %d's (class IDs must follow lexicographic order)", c.ID, c.ID-1)
		}
		prev = c.Canonical
		forms = append(forms, c.Canonical)
		orbits = append(orbits, c.Orbit)
		if c.Orbit == 1 || c.Orbit == 2 || c.Orbit == 4 || c.Orbit == 8 {
			orbitCounts[c.Orbit]++
		}
		hash.AddClass(c.Canonical, c.Orbit)
		return nil
	})
	if err != nil {
		return err
	}

	// Solutions: IDs 1, 2, ... in increasing order, each in its class.
	members := make([]int, len(forms))
	var count, lastID int64
	prev = nil
	err = t.eachStored(ctx, func(err error) { problem("%v", err) }, func(s Solution) error {
		count++
		if s.ID != lastID+1 {
			problem("solution %d: expected solution ID %d here (a row is missing or extra)", s.ID, lastID+1)
		}
		lastID = s.ID
		if err := p.Check(s.Cells); err != nil {
			problem("solution %d: not a solution: %v", s.ID, err)
		} else {
			f := canonicalizer.Canonical(s.Cells)
			switch {
			case s.ClassID < 1 || s.ClassID > int64(len(forms)):
				problem("solution %d: class %d does not exist", s.ID, s.ClassID)
			case !bytes.Equal(f.Canonical, forms[s.ClassID-1]):
				problem("solution %d: stored in class %d, but its canonical form is not that class's", s.ID, s.ClassID)
			case f.From != s.Symmetry:
				problem("solution %d: symmetry %s stored, %s computed", s.ID, s.Symmetry, f.From)
			default:
				members[s.ClassID-1]++
			}
		}
		if prev != nil && bytes.Compare(s.Cells, prev) <= 0 {
			problem("solution %d: not greater than the solution before it (repeated, or IDs out of lexicographic order)", s.ID)
		}
		prev = append(prev[:0], s.Cells...) // s.Cells is gone with its block
		hash.AddSolution(s.Cells, s.ClassID, int(s.Symmetry))
		return nil
	})
	if err != nil {
		return err
	}
	for i, m := range members {
		if m != orbits[i] {
			problem("class %d: %d members found, orbit size %d", i+1, m, orbits[i])
		}
	}
	switch {
	case count != rec.Solutions:
		problem("%d solutions stored, %d recorded", count, rec.Solutions)
	case int64(len(forms)) != rec.Classes:
		problem("%d classes stored, %d recorded", len(forms), rec.Classes)
	case orbitCounts != rec.Orbits():
		problem("classes by orbit size stored %v, recorded %v", orbitCounts, rec.Orbits())
	}
	if sum := hash.Sum(); sum != rec.ContentHash {
		problem("content hash %s differs from the one recorded at build time, %s", sum, rec.ContentHash)
	}
	return nil
}

// eachStored calls fn for every stored solution in ID order, without
// its class's orbit and properties; Cells is valid only during the call.
// Damage that keeps a stored solution from being read (a block that is not
// whole solutions, a class entry that is not a number) goes to damaged, and
// the scan goes on.
func (t *Target) eachStored(ctx context.Context, damaged func(error), fn func(Solution) error) error {
	if t.blocks == nil {
		return each(ctx, t.db, "SELECT s.id, s.cells, s.class_id, s.symmetry, 0 AS orbit FROM "+t.solutions+" s ORDER BY s.id", nil, fn)
	}
	return t.blocks.ScanReporting(ctx, t.db, 1, math.MaxInt64, func(s catalog.StoredSolution) error {
		class, symmetry, err := s.Class()
		if err != nil {
			damaged(err)
			return nil
		}
		return fn(Solution{ID: s.ID, Cells: s.Cells, ClassID: class, Symmetry: canon.Symmetry(symmetry)})
	}, damaged)
}

// verifyClasses re-checks a classes-only puzzle (magic:5): IDs 1, 2, ...,
// forms in increasing order, each a magic square in Frénicle's standard form
// (which for order 5, where no square is fixed by a symmetry, is a class of
// exactly 8), properties as computed, the counts and the content hash. The
// reading and hashing run in order on one goroutine; the checks of the
// squares on one per core.
func (t *Target) verifyClasses(ctx context.Context, problem func(string, ...any)) error {
	p, rec := t.Puzzle, t.Record
	hash := catalog.NewContentHash()
	type batch struct {
		first int64
		forms []byte // 25 bytes a class
		props []canon.Property
	}
	batches := make(chan batch, 4)
	var mu sync.Mutex
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		problem(format, args...)
	}
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < runtime.NumCPU(); w++ {
		g.Go(func() error {
			for b := range batches {
				for k := range b.props {
					id, form := b.first+int64(k), b.forms[25*k:25*k+25]
					if err := p.Check(form); err != nil {
						report("class %d: canonical form is not a solution: %v", id, err)
						continue
					}
					if form[0] > form[4] || form[0] > form[20] || form[0] > form[24] || form[1] > form[5] {
						report("class %d: stored form is not in Frénicle's standard form", id)
					}
					want := enumerate.Magic5FormProperties((*[25]byte)(form))
					if form[12] == 13 {
						want = p.Properties(form).Stored() // the general computation, where properties are possible
					}
					if b.props[k] != want {
						report("class %d: properties %s stored, %s computed", id, b.props[k], want)
					}
				}
			}
			return nil
		})
	}
	var count int64
	g.Go(func() error {
		defer close(batches)
		var prev []byte
		b := batch{first: 1}
		err := t.classRows(gctx, 1, math.MaxInt64, Filter{}, func(c classRow) error {
			count++
			if c.ID != count {
				report("class %d: expected class ID %d here (IDs must run 1, 2, 3, ...)", c.ID, count)
			}
			if prev != nil && bytes.Compare(c.Form, prev) <= 0 {
				report("class %d: canonical form is not greater than class %d's (class IDs must follow lexicographic order)", c.ID, c.ID-1)
			}
			prev = append(prev[:0], c.Form...)
			packed := canon.Pack25((*[25]byte)(c.Form))
			hash.AddClass(packed.Bytes(), 8)
			b.forms, b.props = append(b.forms, c.Form...), append(b.props, c.Props)
			if len(b.props) == 1<<14 {
				select {
				case batches <- b:
				case <-gctx.Done():
					return gctx.Err()
				}
				b = batch{first: c.ID + 1}
			}
			return nil
		})
		if err == nil && len(b.props) > 0 {
			batches <- b
		}
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	// Rows the scan above cannot see: blocks or properties past the last class.
	var blocks, formBytes, strayProps int64
	if err := t.db.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(length(forms)), 0) FROM "+t.classes).Scan(&blocks, &formBytes); err != nil {
		return err
	}
	if want := (rec.Classes + catalog.ClassesPerBlock - 1) / catalog.ClassesPerBlock; blocks != want || formBytes != 16*rec.Classes {
		problem("%d blocks of %d bytes stored, %d blocks of %d bytes expected for %d classes", blocks, formBytes, want, 16*rec.Classes, rec.Classes)
	}
	if err := t.db.QueryRowContext(ctx, "SELECT count(*) FROM "+t.propsTable+" WHERE id < 1 OR id > ?", rec.Classes).Scan(&strayProps); err != nil {
		return err
	}
	if strayProps > 0 {
		problem("%d rows of %s name no class", strayProps, t.propsTable)
	}
	if count != rec.Classes || rec.Solutions != 8*rec.Classes || rec.Orbit8 != rec.Classes {
		problem("%d classes stored, recorded %d classes, %d solutions and %d classes of 8", count, rec.Classes, rec.Solutions, rec.Orbit8)
	}
	if sum := hash.Sum(); sum != rec.ContentHash {
		problem("content hash %s differs from the one recorded at build time, %s", sum, rec.ContentHash)
	}
	return nil
}
