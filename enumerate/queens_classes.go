package enumerate

import (
	"bytes"
	"context"
	"math/bits"
	"sort"
)

// The symmetry-reduced queens search visits one member of each class: its
// canonical form, the lexicographically smallest of its 8 images.
//
// The first-row queen of an image is an edge queen seen from one of the
// corners of its edge (each of the 4 edges holds exactly one queen), so the
// canonical form's first queen sits at d, the smallest distance from a
// corner of any edge queen, and every edge queen is at least d from both
// corners of its edge. The search fixes q[0] = d and bounds the edges, as
// the classic "unique solutions" counters do:
//
//   - d = 0, a queen in the top-left corner. No other corner can hold a
//     queen, and no solution is fixed by the transpose (a pair (r,c), (c,r)
//     shares an anti-diagonal), so these classes have 8 members, two with the
//     corner queen top-left; the canonical one has its second-row queen
//     above the queen of column 1. Rows above q[1] skip column 1, and no
//     check is needed at the leaves.
//   - d >= 1. Rows above d and below n-1-d skip the side columns, the last
//     row keeps its queen within [d, n-1-d], and by row n-1-d both side
//     columns must be taken. A leaf is kept only if no image is smaller (other
//     images may tie on d); the images equal to it give the stabilizer and so
//     the orbit size.
//
// Work units fix the first rows. Within a unit, columns are tried in
// increasing order, so units taken in order yield canonical forms in
// lexicographic order.

// ClassCounts holds the classes of a puzzle by orbit size.
type ClassCounts struct {
	Orbits [9]int64 // index 1, 2, 4, 8
	Joined int64    // solutions counted by the join counter, not yet in Orbits (ClassifyJoined)
	Nodes  int64
}

// Classes is the number of classes.
func (c ClassCounts) Classes() int64 { return c.Orbits[1] + c.Orbits[2] + c.Orbits[4] + c.Orbits[8] }

// Solutions is the number of solutions: each class counts its orbit size.
func (c ClassCounts) Solutions() int64 {
	return c.Orbits[1] + 2*c.Orbits[2] + 4*c.Orbits[4] + 8*c.Orbits[8] + c.Joined
}

// Add adds o's counts to c.
func (c *ClassCounts) Add(o ClassCounts) {
	for i := range c.Orbits {
		c.Orbits[i] += o.Orbits[i]
	}
	c.Joined += o.Joined
	c.Nodes += o.Nodes
}

// A QueensUnit is a work unit of the symmetry-reduced search: the
// canonical forms whose first rows are Prefix (0-based columns).
type QueensUnit struct {
	Prefix []byte
}

// unitRows is how many rows a unit fixes: enough units to keep every core
// busy and to resume a long count with little lost work.
func unitRows(n int) int {
	switch {
	case n < 6:
		return 1
	case n < 12:
		return 2
	case n < 19:
		return 3
	default:
		return 4
	}
}

// QueensClassUnits lists the work units of queens:n in lexicographic order.
func QueensClassUnits(n int) []QueensUnit {
	if n == 1 {
		return []QueensUnit{{Prefix: []byte{0}}}
	}
	var units []QueensUnit
	for d := 0; d < n-1-d; d++ {
		s := newClassSearch(n, d, nil)
		s.stopAt = min(unitRows(n), n-1)
		s.onPrefix = func(prefix []byte) {
			units = append(units, QueensUnit{Prefix: append([]byte(nil), prefix...)})
		}
		s.run([]byte{byte(d)})
	}
	return units
}

// CountQueensUnit counts the classes in one unit.
func CountQueensUnit(n int, u QueensUnit) ClassCounts {
	return searchUnit(n, u, nil)
}

// searchUnit runs one unit, calling emit (if not nil) with each canonical
// form it finds and the form's orbit size.
func searchUnit(n int, u QueensUnit, emit func([]byte, int)) ClassCounts {
	if n == 1 {
		if emit != nil {
			emit([]byte{0}, 1)
		}
		return ClassCounts{Orbits: [9]int64{1: 1}, Nodes: 1}
	}
	s := newClassSearch(n, int(u.Prefix[0]), emit)
	s.run(u.Prefix)
	return ClassCounts{Orbits: s.orbits, Nodes: s.nodes}
}

type classSearch struct {
	n, d     int
	q        []byte
	inv      []byte
	orbits   [9]int64
	nodes    int64
	emit     func([]byte, int)
	stopAt   int          // with onPrefix: report partial placements of this many rows
	onPrefix func([]byte) // instead of searching below them
}

func newClassSearch(n, d int, emit func([]byte, int)) *classSearch {
	return &classSearch{n: n, d: d, q: make([]byte, n), inv: make([]byte, n), emit: emit}
}

// run places the prefix (a valid start) and searches the rows below it.
// allowed[y] holds the columns the bounds leave to row y; the search takes
// away the columns attacked from the rows above. Row n-1-d, the last that
// may hold a side queen when d >= 1, has a bound that depends on the rows
// above: both side columns must be taken by then.
func (s *classSearch) run(prefix []byte) {
	n := s.n
	all := uint32(1)<<n - 1
	side := uint32(1) | 1<<(n-1)
	var allowed [32]uint32
	for y := 0; y < n; y++ {
		allowed[y] = all
	}
	bound2 := -1
	if s.d == 0 {
		allowed[1] &^= 1 << (n - 1) // column 1 needs a row below row 1's queen
	} else {
		bound2 = n - 1 - s.d
		for y := 0; y < n; y++ {
			if y < s.d || y > bound2 {
				allowed[y] &^= side
			}
		}
		for c := 0; c < n; c++ {
			if c < s.d || c > bound2 {
				allowed[n-1] &^= 1 << c
			}
		}
	}

	var left, down, right, free [32]uint32
	q := s.q
	nodes := int64(len(prefix))
	var l, d, r uint32
	for y, c := range prefix {
		bit := uint32(1) << c
		q[y] = c
		l, d, r = (l|bit)<<1&all, d|bit, (r|bit)>>1
	}
	y0 := len(prefix)
	if y0 == n {
		s.leaf()
		s.nodes += nodes
		return
	}
	if y0 == s.stopAt {
		s.onPrefix(q[:y0])
		return
	}
	if s.onPrefix == nil && y0 >= 2 {
		if s.d == 0 {
			for y := 2; y < int(q[1]); y++ {
				allowed[y] &^= 2 // the queen of column 1 lies below row 1's queen
			}
		}
		s.nodes += nodes + s.searchFast(y0, l, d, r, &allowed, bound2)
		return
	}
	// Making the units: q[1] may not be placed yet, and the search stops
	// at s.stopAt rows. This is small, so clarity wins over speed here.
	rowFree := func(y int, l, d, r uint32) uint32 {
		f := allowed[y] &^ (l | d | r)
		if s.d == 0 && y >= 2 && y < int(q[1]) {
			f &^= 2
		}
		if y == bound2 {
			f = sideBound(f, d, side)
		}
		return f
	}
	y := y0
	left[y], down[y], right[y] = l, d, r
	free[y] = rowFree(y, l, d, r)
	for {
		f := free[y]
		if f == 0 {
			if y == y0 {
				break
			}
			y--
			continue
		}
		bit := f & -f
		free[y] = f ^ bit
		nodes++
		q[y] = byte(bits.TrailingZeros32(bit))
		l, d, r := (left[y]|bit)<<1&all, down[y]|bit, (right[y]|bit)>>1
		if y+1 == s.stopAt {
			s.onPrefix(q[:y+1])
			continue
		}
		if y == n-2 {
			if last := allowed[n-1] &^ (l | d | r); last != 0 {
				nodes++
				q[n-1] = byte(bits.TrailingZeros32(last))
				s.leaf()
			}
			continue
		}
		y++
		left[y], down[y], right[y] = l, d, r
		free[y] = rowFree(y, l, d, r)
	}
	s.nodes += nodes
}

// searchFast is the search below a unit's fixed rows, where every row's
// bounds are known in advance except row bound2's. It returns the nodes
// visited. This loop is where a count spends its time.
func (s *classSearch) searchFast(y0 int, l0, d0, r0 uint32, allowed *[32]uint32, bound2 int) int64 {
	n := s.n
	all := uint32(1)<<n - 1
	side := uint32(1) | 1<<(n-1)
	lastRow := allowed[n-1]
	// Rows are indexed y&31 so the compiler drops the bounds checks, and the
	// chosen squares are kept as bits and turned into columns only at leaves.
	var left, down, right, free, chosen [32]uint32
	nodes := int64(0)
	y := y0
	left[y&31], down[y&31], right[y&31] = l0, d0, r0
	f := allowed[y&31] &^ (l0 | d0 | r0)
	if y == bound2 {
		f = sideBound(f, d0, side)
	}
	free[y&31] = f
	for {
		f := free[y&31]
		if f == 0 {
			if y == y0 {
				return nodes
			}
			y--
			continue
		}
		bit := f & -f
		free[y&31] = f ^ bit
		chosen[y&31] = bit
		nodes++
		l, d, r := (left[y&31]|bit)<<1&all, down[y&31]|bit, (right[y&31]|bit)>>1
		if y == n-2 {
			// The last row has at most one free column: no need to stack it.
			if last := lastRow &^ (l | d | r); last != 0 {
				nodes++
				chosen[(n-1)&31] = last
				for row := y0; row < n; row++ {
					s.q[row] = byte(bits.TrailingZeros32(chosen[row&31]))
				}
				s.leaf()
			}
			continue
		}
		// Look ahead to the last row: the squares attacked there now stay
		// attacked, so a last row with no square left ends the branch.
		k := uint(n - 2 - y)
		if lastRow&^(d|l<<k|r>>k) == 0 {
			continue
		}
		y++
		left[y&31], down[y&31], right[y&31] = l, d, r
		f = allowed[y&31] &^ (l | d | r)
		if y == bound2 {
			f = sideBound(f, d, side)
		}
		free[y&31] = f
	}
}

// sideBound applies the bound of row n-1-d, the last row that may hold a
// side queen: both side columns must be taken by then.
func sideBound(free, down, side uint32) uint32 {
	switch down & side {
	case 0:
		return 0 // two side columns left and one row that may hold them
	case side:
		return free
	}
	return free & side
}

// leaf counts the full placement in s.q if it is canonical.
func (s *classSearch) leaf() {
	orbit := 8
	if s.d > 0 {
		orbit = s.canonicalOrbit()
		if orbit == 0 {
			return
		}
	}
	s.orbits[orbit]++
	if s.emit != nil {
		s.emit(s.q, orbit)
	}
}

// canonicalOrbit compares the placement with its 7 other images: 0 if one is
// smaller, otherwise 8 divided by the number of images equal to it.
func (s *classSearch) canonicalOrbit() int {
	n := s.n
	q, inv := s.q, s.inv
	for r, c := range q {
		inv[c] = byte(r)
	}
	m := byte(n - 1)
	equal := 1
	for k := 0; k < 7; k++ {
		r := 0
		for ; r < n; r++ {
			var v byte
			// Row r of the image under the 7 symmetries other than the
			// identity, as canon.Symmetry acts on placements.
			switch k {
			case 0: // mirror-lr
				v = m - q[r]
			case 1: // mirror-ud
				v = q[n-1-r]
			case 2: // rot180
				v = m - q[n-1-r]
			case 3: // transpose
				v = inv[r]
			case 4: // rot90
				v = m - inv[r]
			case 5: // rot270
				v = inv[n-1-r]
			default: // anti-transpose
				v = m - inv[n-1-r]
			}
			if v < q[r] {
				return 0
			}
			if v > q[r] {
				break
			}
		}
		if r == n {
			equal++
		}
	}
	return 8 / equal
}

// CountQueens counts the solutions and classes of queens:n by the
// symmetry-reduced search on up to workers goroutines (0: one per core).
func CountQueens(ctx context.Context, n, workers int) (ClassCounts, error) {
	units := QueensClassUnits(n)
	var total ClassCounts
	err := runOrdered(ctx, len(units), workers, func(i int) ClassCounts {
		return CountQueensUnit(n, units[i])
	}, func(_ int, c ClassCounts) error {
		total.Add(c)
		return nil
	})
	return total, err
}

// CountQueensUnits counts the listed units of queens:n (indexes into
// QueensClassUnits(n)) on up to workers goroutines, and hands each unit's
// counts to done, in the order listed, from one goroutine.
func CountQueensUnits(ctx context.Context, n int, units []QueensUnit, todo []int, workers int, done func(i int, c ClassCounts) error) error {
	return runOrdered(ctx, len(todo), workers, func(k int) ClassCounts {
		return CountQueensUnit(n, units[todo[k]])
	}, func(k int, c ClassCounts) error {
		return done(todo[k], c)
	})
}

// QueensClasses streams the canonical form of every class of queens:n, in
// lexicographic order, with its orbit size. It searches on up to
// opt.Workers goroutines; the output does not depend on their number.
func QueensClasses(ctx context.Context, n int, opt Options, emit ClassEmit) (ClassCounts, error) {
	units := QueensClassUnits(n)
	var total ClassCounts
	from := 0
	if f := opt.Resume; f != nil && len(f.Orbits) > 0 && len(f.Forms) == n*len(f.Orbits) {
		// The classes of the units before the last found one's are all
		// found: they are handed on again, and the search starts at that
		// unit (its own classes may be found only in part). Their search
		// nodes are not counted again.
		if last, ok := QueensUnitOf(units, f.Forms[len(f.Forms)-n:]); ok {
			from = last
			if f.AllClasses {
				from = len(units)
			}
			for k, orbit := range f.Orbits {
				form := f.Forms[k*n : (k+1)*n]
				if from < len(units) && bytes.Compare(form[:len(units[from].Prefix)], units[from].Prefix) >= 0 {
					break
				}
				total.Orbits[orbit]++
				if err := emit(form, int(orbit)); err != nil {
					return total, err
				}
			}
		}
	}
	units = units[from:]
	type batch struct {
		forms  []byte // canonical forms back to back, n bytes each
		orbits []byte
		counts ClassCounts
	}
	err := runOrdered(ctx, len(units), opt.Workers, func(i int) batch {
		var b batch
		b.counts = searchUnit(n, units[i], func(form []byte, orbit int) {
			b.forms = append(b.forms, form...)
			b.orbits = append(b.orbits, byte(orbit))
		})
		return b
	}, func(i int, b batch) error {
		total.Add(b.counts)
		if opt.Progress != nil {
			opt.Progress(from+i+1, from+len(units))
		}
		for k, orbit := range b.orbits {
			if err := emit(b.forms[k*n:(k+1)*n], int(orbit)); err != nil {
				return err
			}
		}
		return nil
	})
	return total, err
}

// ClassEmit receives one canonical form and its orbit size. The slice is
// only valid during the call.
type ClassEmit func(canonical []byte, orbit int) error

// SearchQueensUnits searches the listed units of queens:n (indexes into
// units) on up to workers goroutines (0: one per core). digest turns a
// unit's canonical forms (n bytes each, back to back, in lexicographic
// order), their orbit sizes and its counts into a result, on the goroutine
// that searched it; consume receives the results in the order listed, from
// one goroutine. A stored build of the classes packs them and counts what
// it records about them in digest, on every core.
func SearchQueensUnits[T any](ctx context.Context, n int, units []QueensUnit, todo []int, workers int,
	digest func(i int, forms, orbits []byte, c ClassCounts) T, consume func(i int, result T) error) error {
	return runOrdered(ctx, len(todo), workers, func(k int) T {
		var forms, orbits []byte
		c := searchUnit(n, units[todo[k]], func(form []byte, orbit int) {
			forms = append(forms, form...)
			orbits = append(orbits, byte(orbit))
		})
		return digest(todo[k], forms, orbits, c)
	}, func(k int, r T) error {
		return consume(todo[k], r)
	})
}

// QueensUnitOf returns the index of the unit (of units, in lexicographic
// order, as QueensClassUnits lists them) whose search finds the canonical
// form; ok is false if none does.
func QueensUnitOf(units []QueensUnit, form []byte) (int, bool) {
	i := sort.Search(len(units), func(i int) bool {
		p := units[i].Prefix
		return bytes.Compare(p, form[:min(len(p), len(form))]) > 0
	}) - 1
	if i < 0 || !bytes.HasPrefix(form, units[i].Prefix) {
		return 0, false
	}
	return i, true
}
