package query

import (
	"context"

	"solcat/canon"
	"solcat/catalog"
)

// recordedTally works out again, from the canonical forms a verify reads,
// the counts a build of a puzzle stored as its classes records by cell and
// by property (count_breakdown), which one-cell counts, stats by cell or row
// and the heat map answer from.
//
// A class with form C has value v at cell x in its member s(C) exactly when
// C has v at s⁻¹(x); as s runs over the 8 symmetries, s⁻¹(x) runs over the
// orbit O of x, 8/|O| times each, and each member is met 8/orbit times. So
// orbit × (cells of O where C has v) / |O| of its members have v at x, and
// the class has such a member when C has v somewhere on O.
type recordedTally struct {
	p       canon.Puzzle
	orbitOf []int // cell -> its cell orbit's index
	size    []int // cell orbit -> its cells
	values  int   // values a cell is counted by: n² (magic), 1 (a queen)
	held    [9][]int64
	touched []int64 // classes with the value on the orbit
	full    []int64 // queens: classes with a queen on every cell of the orbit
	seen    []int   // queens: the current form's queens by cell orbit
	props   map[canon.Property][2]int64
}

func newRecordedTally(p canon.Puzzle) *recordedTally {
	n := p.N
	t := &recordedTally{p: p, values: 1, props: map[canon.Property][2]int64{}}
	t.orbitOf, t.size = canon.CellOrbits(n)
	if p.Kind == canon.Magic {
		t.values = n * n
	}
	slots := len(t.size) * t.values
	for o := range t.held {
		t.held[o] = make([]int64, slots)
	}
	t.touched = make([]int64, slots)
	t.full = make([]int64, len(t.size))
	t.seen = make([]int, len(t.size))
	return t
}

// add counts one class: its canonical form, orbit and properties.
func (t *recordedTally) add(form []byte, orbit int, props canon.Property) {
	if t.p.Kind == canon.Queens {
		n := t.p.N
		for r, c := range form {
			k := t.orbitOf[r*n+int(c)]
			t.held[orbit][k]++
			if t.seen[k]++; t.seen[k] == 1 {
				t.touched[k]++
			}
		}
		for r, c := range form {
			k := t.orbitOf[r*n+int(c)]
			if t.seen[k] == t.size[k] {
				t.full[k]++
			}
			t.seen[k] = 0
		}
		props = canon.SymmetryType(orbit)
	} else {
		for x, v := range form {
			i := t.orbitOf[x]*t.values + int(v) - 1
			t.held[orbit][i]++
			t.touched[i]++ // the values of a magic square differ: no class is counted twice
		}
	}
	c := t.props[props]
	t.props[props] = [2]int64{c[0] + int64(orbit), c[1] + 1}
}

// cell is what the build records for value v at cell x (0-based).
func (t *recordedTally) cell(x, v int, rec catalog.Record) catalog.Breakdown {
	n := t.p.N
	k := t.orbitOf[x]
	b := catalog.Breakdown{Stat: catalog.StatCell(x/n+1, x%n+1), Value: v}
	i := k*t.values + max(v, 1) - 1
	for o, held := range t.held {
		b.Solutions += int64(o) * held[i]
	}
	b.Solutions /= int64(t.size[k])
	b.Classes = t.touched[i]
	if t.p.Kind == canon.Queens && v == 0 {
		b.Solutions, b.Classes = rec.Solutions-b.Solutions, rec.Classes-t.full[k]
	}
	return b
}

// check compares the recorded counts with the tally and reports every
// difference, and every cell whose counts are missing.
func (t *recordedTally) check(ctx context.Context, cat *catalog.Catalog, rec catalog.Record, problem func(string, ...any)) error {
	n := t.p.N
	values := []int{0, 1}
	if t.p.Kind == canon.Magic {
		values = values[:0]
		for v := 1; v <= n*n; v++ {
			values = append(values, v)
		}
	}
	for x := 0; x < n*n; x++ {
		stat := catalog.StatCell(x/n+1, x%n+1)
		rows, err := cat.Breakdown(ctx, rec.Name, stat)
		if err != nil {
			return err
		}
		recorded := map[int]catalog.Breakdown{}
		for _, r := range rows {
			recorded[r.Value] = r
		}
		for _, v := range values {
			want := t.cell(x, v, rec)
			got, ok := recorded[v]
			switch {
			case !ok:
				problem("recorded counts by %s: value %d is missing (the classes give %d solutions, %d classes)", stat, v, want.Solutions, want.Classes)
			case got.Solutions != want.Solutions || got.Classes != want.Classes:
				problem("recorded counts by %s, value %d: %d solutions, %d classes; the classes give %d and %d", stat, v, got.Solutions, got.Classes, want.Solutions, want.Classes)
			}
			delete(recorded, v)
		}
		for v := range recorded {
			problem("recorded counts by %s: value %d is not a value of %s", stat, v, t.p)
		}
	}
	rows, err := cat.Breakdown(ctx, rec.Name, catalog.StatProps)
	if err != nil {
		return err
	}
	for _, r := range rows {
		var solutions, classes int64
		for props, c := range t.props {
			if props&canon.Property(r.Value) == canon.Property(r.Value) {
				solutions, classes = solutions+c[0], classes+c[1]
			}
		}
		if r.Solutions != solutions || r.Classes != classes {
			problem("recorded counts of %s: %d solutions, %d classes; the classes give %d and %d", canon.Property(r.Value), r.Solutions, r.Classes, solutions, classes)
		}
	}
	return nil
}
