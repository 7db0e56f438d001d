package enumerate

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"
)

// Estimating queens (see docs/algorithms.md, "Estimates"): a probe places
// the queens of the top rows one row at a time, each in a column drawn
// uniformly from those still free (Knuth's estimator), multiplies the
// numbers of choices it had, and counts the rest of the board exactly.
// The product of the choices is one over the probability of the path, so
// the probe's expectation is the exact count. Counting the bottom rows
// exactly takes most of the variance out: queensExactRows rows left gave
// the smallest error per second from N=16 to N=32.
const queensExactRows = 10

// symmetricExactRows is the same cut for the symmetric solutions' search,
// whose nodes are slower and whose trees are smaller.
const symmetricExactRows = 12

// queensProber estimates the solutions of a constraint.
type queensProber struct {
	allowed []uint32
	cut     int // rows drawn at random; the rest are counted
}

func (q queensProber) Probe(rng *rand.Rand) float64 {
	n := len(q.allowed)
	w := 1.0
	var cols, d1, d2 uint32
	for r := 0; r < q.cut; r++ {
		avail := q.allowed[r] &^ (cols | d1 | d2)
		k := bits.OnesCount32(avail)
		if k == 0 {
			return 0
		}
		w *= float64(k)
		b := drawColumn(rng, avail, k)
		cols, d1, d2 = cols|b, (d1|b)<<1, (d2|b)>>1
	}
	if q.cut == n {
		return w
	}
	return w * float64(countRows(q.allowed, q.cut, cols, d1, d2))
}

// drawColumn draws one of the k columns of avail, uniformly, as a bit.
func drawColumn(rng *rand.Rand, avail uint32, k int) uint32 {
	for j := rng.IntN(k); j > 0; j-- {
		avail &= avail - 1
	}
	return avail & -avail
}

// countRows counts the placements of rows r.. under allowed, given the
// columns and diagonals the rows above attack.
func countRows(allowed []uint32, r int, cols, d1, d2 uint32) int64 {
	avail := allowed[r] &^ (cols | d1 | d2)
	if r == len(allowed)-1 {
		return int64(bits.OnesCount32(avail))
	}
	var c int64
	for ; avail != 0; avail &= avail - 1 {
		b := avail & -avail
		c += countRows(allowed, r+1, cols|b, (d1|b)<<1, (d2|b)>>1)
	}
	return c
}

// symmetricProber estimates the solutions a rotation keeps: the first free
// row's queen is drawn among the columns whose whole orbit under the
// rotation can be placed, and the orbit placed at once.
type symmetricProber struct {
	n       int
	quarter bool // the quarter turn (else the half turn)
}

// symmetricBoard is what the placed orbits occupy.
type symmetricBoard struct {
	rows, cols uint32
	d1, d2     uint64 // r+c and r-c+n-1
}

// orbit lists the squares of (r,c)'s orbit and reports whether they can
// all hold queens on b: no two share a line, none attacked by b.
func (p symmetricProber) orbit(b *symmetricBoard, r, c int) (symmetricBoard, bool) {
	n := p.n
	cells := [4][2]int{{r, c}, {n - 1 - r, n - 1 - c}}
	m := 2
	if p.quarter {
		cells[1], cells[2], cells[3] = [2]int{c, n - 1 - r}, [2]int{n - 1 - r, n - 1 - c}, [2]int{n - 1 - c, r}
		m = 4
	}
	out := *b
	for i := 0; i < m; i++ {
		cr, cc := cells[i][0], cells[i][1]
		dup := false
		for j := 0; j < i; j++ {
			if cells[j] == cells[i] {
				dup = true
			}
		}
		if dup {
			continue
		}
		rb, cb := uint32(1)<<cr, uint32(1)<<cc
		a, d := uint64(1)<<(cr+cc), uint64(1)<<(cr-cc+n-1)
		if out.rows&rb != 0 || out.cols&cb != 0 || out.d1&a != 0 || out.d2&d != 0 {
			return out, false
		}
		out.rows |= rb
		out.cols |= cb
		out.d1 |= a
		out.d2 |= d
	}
	return out, true
}

// choices lists the boards reachable by placing the first free row's orbit.
func (p symmetricProber) choices(b *symmetricBoard, out []symmetricBoard) []symmetricBoard {
	out = out[:0]
	r := bits.TrailingZeros32(^b.rows)
	for free := ^b.cols & (1<<p.n - 1); free != 0; free &= free - 1 {
		if nb, ok := p.orbit(b, r, bits.TrailingZeros32(free)); ok {
			out = append(out, nb)
		}
	}
	return out
}

func (p symmetricProber) count(b *symmetricBoard) int64 {
	if bits.OnesCount32(b.rows) == p.n {
		return 1
	}
	var buf [32]symmetricBoard
	var c int64
	for _, nb := range p.choices(b, buf[:0]) {
		c += p.count(&nb)
	}
	return c
}

func (p symmetricProber) Probe(rng *rand.Rand) float64 {
	var b symmetricBoard
	var buf [32]symmetricBoard
	w := 1.0
	for p.n-bits.OnesCount32(b.rows) > symmetricExactRows {
		next := p.choices(&b, buf[:0])
		if len(next) == 0 {
			return 0
		}
		w *= float64(len(next))
		b = next[rng.IntN(len(next))]
	}
	return w * float64(p.count(&b))
}

// QueensEstimate is the terms that estimate the solutions of c and, when c
// leaves every square open, the classes: by Burnside's lemma, the classes
// are the mean over the 8 symmetries of the solutions each keeps, and on a
// board larger than 1 only the half turn and the two quarter turns keep
// any (a reflection would put two queens on a line).
func QueensEstimate(c QueensConstraint) ([]EstimateTerm, error) {
	if c.N < 1 || c.N > MaxConstrainedQueens || len(c.Allowed) != c.N {
		return nil, fmt.Errorf("queens are estimated for N from 1 to %d", MaxConstrainedQueens)
	}
	p := c.propagated()
	cut := max(0, c.N-queensExactRows)
	terms := []EstimateTerm{{Name: "solutions", Prober: queensProber{allowed: p.Allowed, cut: cut}, Share: 1, Solutions: 1}}
	if !unconstrained(c) {
		return terms, nil
	}
	if c.N == 1 {
		terms[0].Classes = 1
		return terms, nil
	}
	terms[0].Classes = 1.0 / 8
	terms = append(terms, EstimateTerm{Name: "half-turn symmetric", Prober: symmetricProber{n: c.N}, Share: 1, Classes: 1.0 / 8})
	if c.N%4 <= 1 { // a quarter turn keeps no solution of other sizes
		terms = append(terms, EstimateTerm{Name: "quarter-turn symmetric", Prober: symmetricProber{n: c.N, quarter: true}, Share: 1, Classes: 2.0 / 8})
	}
	return terms, nil
}

func unconstrained(c QueensConstraint) bool {
	for _, a := range c.Allowed {
		if a != uint32(1<<c.N-1) {
			return false
		}
	}
	return true
}

// QueensEstimateMethod names the estimator of queens:n, for the record.
func QueensEstimateMethod(n int) string {
	cut := max(0, n-queensExactRows)
	if cut == 0 {
		return "every probe an exact count"
	}
	return fmt.Sprintf("Knuth probes over the top %d rows, the other %d counted exactly", cut, n-cut)
}

// SearchNodes estimates, by Knuth's estimator over probes random paths,
// how many nodes the row-by-row search under c visits (each node a queen
// placed): the number of nodes at depth d is the expectation of the
// product of the choices on the way down to d.
func SearchNodes(c QueensConstraint, probes int, seed uint64) float64 {
	p := c.propagated()
	rng := rand.New(rand.NewPCG(seed, 0))
	var sum float64
	for range probes {
		w := 1.0
		var cols, d1, d2 uint32
		for r := 0; r < c.N; r++ {
			avail := p.Allowed[r] &^ (cols | d1 | d2)
			k := bits.OnesCount32(avail)
			if k == 0 {
				break
			}
			w *= float64(k)
			sum += w
			b := drawColumn(rng, avail, k)
			cols, d1, d2 = cols|b, (d1|b)<<1, (d2|b)>>1
		}
	}
	return sum / float64(probes)
}

// SearchRate measures how many nodes a second the row-by-row search
// visits on one core, on queens:11: the median of five runs of about 5 ms,
// so that it is the speed the machine gives now (a busy machine's), not a
// lucky moment's. The speed a node on queens:24-32 is 0.75-0.95 of
// queens:11's (measured): 0.85 of it is given.
func SearchRate() float64 {
	c := NewQueensConstraint(11)
	per := float64(searchNodes(c.Allowed, 0, 0, 0, 0))
	var rates []float64
	for range 5 {
		start := time.Now()
		var nodes float64
		for time.Since(start) < 5*time.Millisecond {
			for col := range c.N { // every first-row column: the nodes per counts
				searchConstrained(c, col)
			}
			nodes += per
		}
		rates = append(rates, nodes/time.Since(start).Seconds())
	}
	slices.Sort(rates)
	return 0.85 * rates[2]
}

// searchNodes counts the nodes of the row-by-row search below row r.
func searchNodes(allowed []uint32, r int, cols, d1, d2 uint32) int64 {
	if r == len(allowed) {
		return 0
	}
	var n int64
	for avail := allowed[r] &^ (cols | d1 | d2); avail != 0; avail &= avail - 1 {
		b := avail & -avail
		n += 1 + searchNodes(allowed, r+1, cols|b, (d1|b)<<1, (d2|b)>>1)
	}
	return n
}
