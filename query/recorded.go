package query

import (
	"context"
	"fmt"
	"maps"
	"slices"

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
	orbitOf []int   // cell -> its cell orbit's index
	size    []int   // cell orbit -> its cells
	values  int     // values a cell is counted by: n² (magic), 1 (a queen)
	weight  []int64 // the sum over classes of orbit × (cells of the orbit holding the value)
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
	t.weight = make([]int64, slots)
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
			t.weight[k] += int64(orbit)
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
			t.weight[i] += int64(orbit)
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
	b.Solutions = t.weight[i] / int64(t.size[k])
	b.Classes = t.touched[i]
	if t.p.Kind == canon.Queens && v == 0 {
		b.Solutions, b.Classes = rec.Solutions-b.Solutions, rec.Classes-t.full[k]
	}
	return b
}

// check compares the recorded counts with the tally and reports every
// difference, every count missing and every row that names no cell, value
// or property of the puzzle.
func (t *recordedTally) check(ctx context.Context, cat *catalog.Catalog, rec catalog.Record, problem func(string, ...any)) error {
	n := t.p.N
	rows, err := cat.Breakdowns(ctx, rec.Name)
	if err != nil {
		return err
	}
	recorded := map[catalog.Stat]map[int]catalog.Breakdown{}
	for _, r := range rows {
		if recorded[r.Stat] == nil {
			recorded[r.Stat] = map[int]catalog.Breakdown{}
		}
		recorded[r.Stat][r.Value] = r
	}
	for x := 0; x < n*n; x++ {
		stat := catalog.StatCell(x/n+1, x%n+1)
		for _, v := range cellValues(t.p) {
			want := t.cell(x, v, rec)
			got, ok := recorded[stat][v]
			switch {
			case !ok:
				problem("recorded counts by %s: value %d is missing (the classes give %d solutions, %d classes)", stat, v, want.Solutions, want.Classes)
			case got.Solutions != want.Solutions || got.Classes != want.Classes:
				problem("recorded counts by %s, value %d: %d solutions, %d classes; the classes give %d and %d", stat, v, got.Solutions, got.Classes, want.Solutions, want.Classes)
			}
			delete(recorded[stat], v)
		}
		for v := range recorded[stat] {
			problem("recorded counts by %s: value %d is not a value of %s", stat, v, t.p)
		}
		delete(recorded, stat)
	}
	for _, prop := range recordedProps(t.p) {
		var solutions, classes int64
		for props, c := range t.props {
			if props&prop == prop {
				solutions, classes = solutions+c[0], classes+c[1]
			}
		}
		got, ok := recorded[catalog.StatProps][int(prop)]
		switch {
		case !ok:
			problem("recorded counts of %s are missing (the classes give %d solutions, %d classes)", prop, solutions, classes)
		case got.Solutions != solutions || got.Classes != classes:
			problem("recorded counts of %s: %d solutions, %d classes; the classes give %d and %d", prop, got.Solutions, got.Classes, solutions, classes)
		}
		delete(recorded[catalog.StatProps], int(prop))
	}
	for v := range recorded[catalog.StatProps] {
		problem("recorded counts by properties: %d is not a set of properties counted for %s", v, t.p)
	}
	delete(recorded, catalog.StatProps)
	for stat := range recorded {
		problem("recorded counts by %s: not a cell of %s or another statistic solcat records", stat, t.p)
	}
	return nil
}

// cellValues are the values a cell's recorded counts have a row for:
// queens 0 (no queen) and 1, magic squares 1 to n².
func cellValues(p canon.Puzzle) []int {
	if p.Kind == canon.Queens {
		return []int{0, 1}
	}
	var out []int
	for v := 1; v <= p.N*p.N; v++ {
		out = append(out, v)
	}
	return out
}

// recordedProps are the property sets the build of a puzzle stored as its
// classes records counts of.
func recordedProps(p canon.Puzzle) []canon.Property {
	if p.Kind == canon.Queens {
		return []canon.Property{canon.Rot90Symmetric, canon.Rot180Only, canon.Asymmetric}
	}
	return []canon.Property{canon.Pandiagonal, canon.Associative, canon.Associative | canon.Pandiagonal, canon.SelfComplementary}
}

// recordedCell reads the counts recorded by one cell, which have a row for
// every value: a missing one was lost, and is not read as 0.
func (t *BoundPuzzle) recordedCell(ctx context.Context, row, col int) (map[int]catalog.Breakdown, error) {
	stat := catalog.StatCell(row, col)
	rows, err := t.cat.Breakdown(ctx, t.Record.Name, stat)
	if err != nil {
		return nil, err
	}
	out := map[int]catalog.Breakdown{}
	for _, r := range rows {
		out[r.Value] = r
	}
	for _, v := range cellValues(t.Puzzle) {
		if _, ok := out[v]; !ok {
			return nil, &catalog.DamagedError{Puzzle: t.Puzzle.String(), Path: t.cat.Path(), Problem: fmt.Sprintf("the counts recorded by %s lack a row for value %d", stat, v)}
		}
	}
	return out, nil
}

// verifyNoBreakdown reports counts recorded for a puzzle whose build
// records none (one stored solution by solution).
func (t *BoundPuzzle) verifyNoBreakdown(ctx context.Context, problem func(string, ...any)) error {
	rows, err := t.cat.Breakdowns(ctx, t.Record.Name)
	if len(rows) > 0 {
		problem("the table count_breakdown holds %d counts recorded for it (the first by %s), but its build records none", len(rows), rows[0].Stat)
	}
	return err
}

// countsBreakdownProblems checks the counts recorded for a puzzle known by
// its counts alone, which count and stats answer from (a few dozen rows,
// so queries check them too). Only magic:5's count records some: by the
// centre value (each class counted once by its centre, which the
// complement x -> 26-x turns into 26 minus it) and for three properties,
// whose classes are published.
func (t *BoundPuzzle) countsBreakdownProblems(ctx context.Context) ([]string, error) {
	p, rec := t.Puzzle, t.Record
	rows, err := t.cat.Breakdowns(ctx, rec.Name)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var problems []string
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if p.Kind != canon.Magic || p.N != 5 {
		problem("the table count_breakdown holds %d counts recorded for it (the first by %s), but its count records none: count and stats would answer from them", len(rows), rows[0].Stat)
		return problems, nil
	}
	centre := catalog.StatCell(3, 3)
	byCentre := map[int]catalog.Breakdown{}
	props := map[canon.Property]catalog.Breakdown{}
	for _, r := range rows {
		switch {
		case r.Stat == centre && r.Value >= 1 && r.Value <= 25:
			byCentre[r.Value] = r
		case r.Stat == catalog.StatProps:
			props[canon.Property(r.Value)] = r
		default:
			problem("recorded counts by %s, value %d: not a count magic:5's count records", r.Stat, r.Value)
			continue
		}
		if r.Solutions != 8*r.Classes {
			problem("recorded counts by %s, value %d: %d solutions, %d classes; every class of magic:5 has 8 members", r.Stat, r.Value, r.Solutions, r.Classes)
		}
	}
	var solutions, classes int64
	for v := 1; v <= 25; v++ {
		r, ok := byCentre[v]
		if !ok {
			problem("recorded counts by %s: value %d is missing", centre, v)
			continue
		}
		solutions, classes = solutions+r.Solutions, classes+r.Classes
		if c, ok := byCentre[26-v]; ok && v < 13 && (c.Solutions != r.Solutions || c.Classes != r.Classes) {
			problem("recorded counts by %s: value %d has %d classes, value %d has %d; the complement makes them equal", centre, v, r.Classes, 26-v, c.Classes)
		}
	}
	if len(byCentre) == 25 && (solutions != rec.Solutions || classes != rec.Classes) {
		problem("recorded counts by %s add up to %d solutions and %d classes, %d and %d recorded", centre, solutions, classes, rec.Solutions, rec.Classes)
	}
	for _, want := range []struct {
		props   canon.Property
		classes int64
	}{
		{canon.Associative, canon.Magic5AssociativeClasses},
		{canon.Associative | canon.Pandiagonal, canon.Magic5UltramagicClasses},
		{canon.Pandiagonal, canon.Magic5PandiagonalClasses},
	} {
		r, ok := props[want.props]
		switch {
		case !ok:
			problem("recorded counts of %s are missing", want.props)
		case r.Classes != want.classes:
			problem("recorded counts of %s: %d classes, %d published", want.props, r.Classes, want.classes)
		}
		delete(props, want.props)
	}
	for _, ps := range slices.Sorted(maps.Keys(props)) {
		problem("recorded counts by properties: %d is not a set of properties counted for magic:5", int(ps))
	}
	return problems, nil
}
