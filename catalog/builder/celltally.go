package builder

import (
	"solcat/canon"
	"solcat/catalog"
)

// storedTally counts, over the classes of a build stored solution by
// solution, what the build records beside them: every one-cell count (by
// cell and value) and the counts of the property sets, as a build stored
// as its classes records them, so that one-cell counts, stats by a cell, a
// row or a column, and the heat map are answered without a scan.
type storedTally struct {
	p      canon.Puzzle
	queens *queensClassStats // queens: by cell orbit
	// magic squares: for each cell orbit O and value v, the sum over classes
	// of orbit × (cells of O holding v), and the classes holding v on O
	cellOrb       []int
	orbSize       []int64
	weight, touch []int64
	props         map[canon.Property][2]int64 // stored property set -> solutions, classes
}

func newStoredTally(p canon.Puzzle) *storedTally {
	t := &storedTally{p: p, props: map[canon.Property][2]int64{}}
	if p.Kind == canon.Queens {
		t.queens = newQueensClassStats(p.N)
		return t
	}
	var size []int
	t.cellOrb, size = canon.CellOrbits(p.N)
	for _, k := range size {
		t.orbSize = append(t.orbSize, int64(k))
	}
	values := p.N * p.N
	t.weight, t.touch = make([]int64, len(size)*values), make([]int64, len(size)*values)
	return t
}

// add counts one class: its canonical form, orbit size and stored
// properties.
func (t *storedTally) add(form []byte, orbit int, props canon.Property) {
	if t.queens != nil {
		t.queens.add(form, orbit)
		return
	}
	values := t.p.N * t.p.N
	for x, v := range form {
		i := t.cellOrb[x]*values + int(v) - 1
		t.weight[i] += int64(orbit)
		t.touch[i]++ // a magic square's values differ: a class holds v once
	}
	c := t.props[props]
	t.props[props] = [2]int64{c[0] + int64(orbit), c[1] + 1}
}

// breakdown is what the build records, with the puzzle's record.
func (t *storedTally) breakdown(rec catalog.Record) []catalog.Breakdown {
	if t.queens != nil {
		return t.queens.breakdown(rec)
	}
	n, values := t.p.N, t.p.N*t.p.N
	var out []catalog.Breakdown
	for _, set := range []canon.Property{canon.Pandiagonal, canon.Associative, canon.Associative | canon.Pandiagonal, canon.SelfComplementary} {
		b := catalog.Breakdown{Stat: catalog.StatProps, Value: int(set)}
		for props, c := range t.props {
			if props&set == set {
				b.Solutions, b.Classes = b.Solutions+c[0], b.Classes+c[1]
			}
		}
		out = append(out, b)
	}
	for x, o := range t.cellOrb {
		for v := 1; v <= values; v++ {
			i := o*values + v - 1
			out = append(out, catalog.Breakdown{Stat: catalog.StatCell(x/n+1, x%n+1), Value: v, Solutions: t.weight[i] / t.orbSize[o], Classes: t.touch[i]})
		}
	}
	return out
}
