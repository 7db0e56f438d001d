package canon

import (
	"bytes"
	"fmt"
)

// Form describes where a solution sits in its class.
type Form struct {
	Canonical []byte   // the class's canonical form; valid until the next call
	From      Symmetry // From applied to Canonical gives the solution
	Orbit     int      // how many distinct solutions the class has: 1, 2, 4 or 8
}

// Canonical computes sol's canonical form, the symmetry that carries it onto
// sol, and the size of sol's orbit. The canonical form is the
// lexicographically smallest of the 8 images, read row by row; for magic
// squares that is exactly Frénicle's standard form (the smallest corner
// top-left, then the right neighbour of that corner smaller than the one
// below it).
func (m *Images) Canonical(sol []byte) Form {
	best, fixed := 0, 0
	for s := range m.buf {
		m.p.Apply(Symmetry(s), m.buf[s], sol)
		if bytes.Equal(m.buf[s], sol) {
			fixed++
		}
		if bytes.Compare(m.buf[s], m.buf[best]) < 0 {
			best = s
		}
	}
	form := Form{Canonical: m.buf[best], Orbit: 8 / fixed}
	// Several symmetries carry the canonical form onto sol when the orbit is
	// smaller than 8; take the first in All so the stored choice is fixed.
	for _, t := range All {
		if bytes.Equal(m.buf[t.Inverse()], form.Canonical) {
			form.From = t
			break
		}
	}
	return form
}

// Stabilizer lists the symmetries that leave sol unchanged, in the order of All.
func (p Puzzle) Stabilizer(sol []byte) []Symmetry {
	img := make([]byte, len(sol))
	var out []Symmetry
	for _, s := range All {
		p.Apply(s, img, sol)
		if bytes.Equal(img, sol) {
			out = append(out, s)
		}
	}
	return out
}

// A Classifier gives each solution its class ID, the 1-based rank of the
// class's canonical form in lexicographic order. It needs the solutions in
// increasing lexicographic order: a canonical form is the smallest member of
// its class, so every class is met first through its canonical form, and
// classes are met in the order of their canonical forms.
type Classifier struct {
	c      *Images
	ids    map[string]int64
	last   []byte
	Orbits [9]int64 // number of classes by orbit size (index 1, 2, 4, 8)
}

// NewClassifier returns a Classifier for p.
func NewClassifier(p Puzzle) *Classifier {
	return &Classifier{c: NewImages(p), ids: map[string]int64{}}
}

// Placement is a solution's class, the symmetry from the class's canonical
// form, and whether this solution opened a new class.
type Placement struct {
	ClassID  int64
	From     Symmetry
	Orbit    int
	NewClass bool
}

// Add classifies the next solution.
func (k *Classifier) Add(sol []byte) (Placement, error) {
	if k.last != nil && bytes.Compare(sol, k.last) <= 0 {
		return Placement{}, fmt.Errorf("solutions out of lexicographic order: %v after %v", sol, k.last)
	}
	k.last = append(k.last[:0], sol...)
	f := k.c.Canonical(sol)
	if bytes.Equal(f.Canonical, sol) {
		id := int64(len(k.ids) + 1)
		k.ids[string(sol)] = id
		k.Orbits[f.Orbit]++
		return Placement{ClassID: id, From: f.From, Orbit: f.Orbit, NewClass: true}, nil
	}
	id, ok := k.ids[string(f.Canonical)]
	if !ok {
		return Placement{}, fmt.Errorf("canonical form %v of %v was not seen first", f.Canonical, sol)
	}
	return Placement{ClassID: id, From: f.From, Orbit: f.Orbit}, nil
}

// Classes is how many classes have been met.
func (k *Classifier) Classes() int64 { return int64(len(k.ids)) }

// QueensOrbit is the size of the class of a queens solution (the columns
// of its queens, row by row), as Images.Distinct counts it, without
// drawing the images: no placement of more than one queen is fixed by a
// reflection (see SymmetryType), so what fixes it is the half turn, or
// the quarter turn (and with it the half turn), or nothing, and each is
// told by one pass that usually stops at its first row.
func QueensOrbit(sol []byte) int {
	n := len(sol)
	if n <= 1 {
		return 1
	}
	for r, c := range sol { // the half turn sends (r,c) to (n-1-r,n-1-c)
		if int(sol[n-1-r]) != n-1-int(c) {
			return 8
		}
	}
	for r, c := range sol { // the quarter turn sends (r,c) to (c,n-1-r)
		if int(sol[c]) != n-1-r {
			return 4
		}
	}
	return 2
}

// Images works on the 8 images of one puzzle's solutions: a solution's
// canonical form (Canonical), and its distinct images, each with the first
// symmetry in All that produces it, the one a stored solution records
// (Distinct). It reuses its buffers, so use one per goroutine; what a call
// gives is valid until the next.
type Images struct {
	p   Puzzle
	buf [8][]byte
}

// NewImages returns an Images for p.
func NewImages(p Puzzle) *Images {
	m := &Images{p: p}
	for i := range m.buf {
		m.buf[i] = make([]byte, p.Len())
	}
	return m
}

// Distinct calls fn for each distinct image of sol: 8 divided by the size of
// its stabilizer. img is only valid during the call.
func (m *Images) Distinct(sol []byte, fn func(s Symmetry, img []byte) error) error {
	for k, s := range All {
		img := m.buf[k]
		m.p.Apply(s, img, sol)
		repeated := false
		for j := 0; j < k && !repeated; j++ {
			repeated = bytes.Equal(m.buf[j], img)
		}
		if !repeated {
			if err := fn(s, img); err != nil {
				return err
			}
		}
	}
	return nil
}
