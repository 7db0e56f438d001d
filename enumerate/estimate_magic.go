package enumerate

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
)

// The magic-square prober is sequential importance sampling over cells.
//
// A probe fills the empty cells in a fixed order. At each cell it weighs
// every unused value v by the product, over the lines through the cell, of
// the number of ways that line's other empty cells can still be filled
// with distinct unused values making the line's sum: k-subsets of the
// unused values with a given sum, read from one table of subset counts of
// the unused set (rows k, columns sum) that is kept up to date as values are
// placed. It draws v with probability w(v)/W, W the sum of the weights, and
// multiplies the probe's weight by W/w(v). A value with weight 0 cannot
// lead to a square (some line through the cell could not be completed),
// so every square stays reachable, and the probability of drawing a given
// square is the product of its w/W along its one path: the probe's weight
// when it completes a square (0 when it reaches a cell with W = 0) has
// expectation exactly the number of squares. The last cells of a probe
// are counted exactly by a search with the same weights as pruning, which
// removes the variance of the steps where most dead ends fall.
//
// Lines are rows, columns and the two main diagonals. The last empty cell
// of a line has weight 1 for its one value and 0 for any other, so every
// line is checked by the cell that closes it.

// MagicCell is a given value of a magic square: 0-based row and column,
// value 1..n².
type MagicCell struct{ Row, Col, Value int }

// MaxEstimateMagicOrder is the largest order NewMagicProber estimates.
const MaxEstimateMagicOrder = 7

const (
	magicMaxCells = MaxEstimateMagicOrder * MaxEstimateMagicOrder
	magicMaxLines = 2*MaxEstimateMagicOrder + 2
	magicMaxSumP1 = MaxEstimateMagicOrder*(magicMaxCells+1)/2 + 1
	magicTabSize  = (MaxEstimateMagicOrder + 1) * magicMaxSumP1
)

type magicProber struct {
	n, target, cells int
	order            []int8 // the empty cells in fill order
	closes           []int8 // closes[i]: a line order[i] is the last empty cell of, or -1
	exactFrom        int    // cells order[exactFrom:] are counted exactly
	lines            [magicMaxCells][4]int8
	nlines           [magicMaxCells]int8
	start            magicState
	dead             bool // the fixed cells already break a line
	pool             sync.Pool
}

// magicState is one probe's partial square.
type magicState struct {
	free  uint64                // bit v: value v unused
	need  [magicMaxLines]int    // sum still missing from each line
	empty [magicMaxLines]int    // empty cells in each line
	tab   [magicTabSize]float64 // tab[k*stride+s]: k-subsets of free summing to s
}

// NewMagicProber returns a prober whose probes are unbiased samples of the
// number of normal magic squares of order n with the fixed values.
func NewMagicProber(n int, fixed []MagicCell) (Prober, error) {
	if n < 1 || n > MaxEstimateMagicOrder {
		return nil, fmt.Errorf("magic squares of order %d cannot be estimated; orders 1 to %d can", n, MaxEstimateMagicOrder)
	}
	p := &magicProber{n: n, target: n * (n*n + 1) / 2, cells: n * n}
	lineCells := magicLines(n)
	for l, cs := range lineCells {
		for _, c := range cs {
			p.lines[c][p.nlines[c]] = int8(l)
			p.nlines[c]++
		}
	}
	st := &p.start
	st.free = (uint64(1)<<(n*n+1) - 1) &^ 1
	for l := range lineCells {
		st.need[l] = p.target
		st.empty[l] = n
	}
	filled := make([]bool, p.cells)
	for _, f := range fixed {
		if f.Row < 0 || f.Row >= n || f.Col < 0 || f.Col >= n {
			return nil, fmt.Errorf("cell (%d,%d) is outside a square of order %d", f.Row, f.Col, n)
		}
		if f.Value < 1 || f.Value > n*n {
			return nil, fmt.Errorf("value %d is outside 1..%d", f.Value, n*n)
		}
		c := f.Row*n + f.Col
		if filled[c] {
			return nil, fmt.Errorf("cell (%d,%d) is given twice", f.Row, f.Col)
		}
		if st.free&(1<<f.Value) == 0 {
			return nil, fmt.Errorf("value %d is given twice", f.Value)
		}
		filled[c] = true
		st.free &^= 1 << f.Value
		for _, l := range p.lines[c][:p.nlines[c]] {
			st.need[l] -= f.Value
			st.empty[l]--
		}
	}
	for l := range lineCells {
		if st.need[l] < 0 || st.empty[l] == 0 && st.need[l] != 0 {
			p.dead = true
		}
	}
	p.fillTable(st)
	p.order = magicFillOrder(n, lineCells, p.lines[:p.cells], p.nlines[:p.cells], filled)
	p.closes = magicClosingLines(p.order, st.empty, p.lines[:p.cells], p.nlines[:p.cells])
	p.exactFrom = max(0, len(p.order)-magicExactCells[n])
	p.pool.New = func() any { return new(magicState) }
	return p, nil
}

// magicExactCells is how many cells at the end of a probe are counted
// exactly, by order. More cells make probes slower and their spread
// smaller; these minimise the variance per second of probing, as
// measured, choosing the longer cut of two about equal: its probes have
// lighter tails, so their standard error is trustworthy sooner.
var magicExactCells = [MaxEstimateMagicOrder + 1]int{0, 1, 4, 9, 10, 13, 16, 15}

// magicLines lists the cells of each line: rows, columns, the diagonal and
// the antidiagonal.
func magicLines(n int) [][]int {
	var lines [][]int
	for i := 0; i < n; i++ {
		var row []int
		for j := 0; j < n; j++ {
			row = append(row, i*n+j)
		}
		lines = append(lines, row)
	}
	for j := 0; j < n; j++ {
		var col []int
		for i := 0; i < n; i++ {
			col = append(col, i*n+j)
		}
		lines = append(lines, col)
	}
	var diag, anti []int
	for i := 0; i < n; i++ {
		diag = append(diag, i*n+i)
		anti = append(anti, i*n+n-1-i)
	}
	return append(lines, diag, anti)
}

// magicFillOrder orders the empty cells so that lines close early: the
// next cell is one on the line with the fewest empty cells left (ties to
// the cell on most lines, then the lowest), as lines that close early cut
// dead ends off before the probe has spent its weight on them.
func magicFillOrder(n int, lineCells [][]int, lines [][4]int8, nlines []int8, filled []bool) []int8 {
	filled = append([]bool(nil), filled...)
	left := make([]int, len(lineCells))
	for l, cs := range lineCells {
		for _, c := range cs {
			if !filled[c] {
				left[l]++
			}
		}
	}
	var order []int8
	for {
		best, bestKey := -1, [2]int{}
		for c := range filled {
			if filled[c] {
				continue
			}
			closest := n + 1
			for _, l := range lines[c][:nlines[c]] {
				closest = min(closest, left[l])
			}
			key := [2]int{closest, -int(nlines[c])}
			if best < 0 || key[0] < bestKey[0] || key[0] == bestKey[0] && key[1] < bestKey[1] {
				best, bestKey = c, key
			}
		}
		if best < 0 {
			return order
		}
		filled[best] = true
		for _, l := range lines[best][:nlines[best]] {
			left[l]--
		}
		order = append(order, int8(best))
	}
}

// magicClosingLines finds, for each step of the order, a line that the
// step's cell closes: that cell's value is forced.
func magicClosingLines(order []int8, empty [magicMaxLines]int, lines [][4]int8, nlines []int8) []int8 {
	closes := make([]int8, len(order))
	for i, c := range order {
		closes[i] = -1
		for _, l := range lines[c][:nlines[c]] {
			empty[l]--
			if empty[l] == 0 {
				closes[i] = l
			}
		}
	}
	return closes
}

// fillTable counts the k-subsets of st.free by sum.
func (p *magicProber) fillTable(st *magicState) {
	clear(st.tab[:])
	st.tab[0] = 1
	for f := st.free; f != 0; f &= f - 1 {
		p.add(st, bits.TrailingZeros64(f), p.n, p.target)
	}
}

// add puts v into the table's set (v must not be in it): the k-subsets
// with v are the (k-1)-subsets without it, shifted by v.
func (p *magicProber) add(st *magicState, v, maxK, maxS int) {
	stride := p.target + 1
	for k := maxK; k >= 1; k-- {
		row, prev := st.tab[k*stride:k*stride+maxS+1], st.tab[(k-1)*stride:k*stride]
		for s := v; s <= maxS; s++ {
			row[s] += prev[s-v]
		}
	}
}

// remove takes v out of the table's set, undoing add.
func (p *magicProber) remove(st *magicState, v, maxK, maxS int) {
	stride := p.target + 1
	for k := 1; k <= maxK; k++ {
		row, prev := st.tab[k*stride:k*stride+maxS+1], st.tab[(k-1)*stride:k*stride]
		for s := v; s <= maxS; s++ {
			row[s] -= prev[s-v]
		}
	}
}

// without is the number of k-subsets of free minus v (v in free) summing
// to s: by inclusion and exclusion on how many times v would be counted.
func (p *magicProber) without(st *magicState, v, k, s int) float64 {
	stride := p.target + 1
	var total float64
	sign := 1.0
	for i := 0; i <= k && s >= 0; i++ {
		total += sign * st.tab[(k-i)*stride+s]
		sign = -sign
		s -= v
	}
	return total
}

// weight is the product over c's lines of the ways to finish the line
// after v goes into c.
func (p *magicProber) weight(st *magicState, c, v int) float64 {
	w := 1.0
	for _, l := range p.lines[c][:p.nlines[c]] {
		need := st.need[l] - v
		k := st.empty[l] - 1
		if need < 0 {
			return 0
		}
		var ways float64
		if k == 0 {
			if need == 0 {
				ways = 1
			}
		} else {
			ways = p.without(st, v, k, need)
		}
		if ways < 0.5 {
			return 0
		}
		w *= ways
	}
	return w
}

// place puts v into c. The table is brought up to date only for the
// subset sizes and sums a line can still ask for: both only shrink as the
// square fills, so the entries left stale are never read again, and
// unplace restores exactly what place changed.
func (p *magicProber) place(st *magicState, c, v int) {
	st.free &^= 1 << v
	for _, l := range p.lines[c][:p.nlines[c]] {
		st.need[l] -= v
		st.empty[l]--
	}
	k, s := p.reach(st)
	p.remove(st, v, k, s)
}

func (p *magicProber) unplace(st *magicState, c, v int) {
	k, s := p.reach(st)
	p.add(st, v, k, s)
	st.free |= 1 << v
	for _, l := range p.lines[c][:p.nlines[c]] {
		st.need[l] += v
		st.empty[l]++
	}
}

// reach is the largest subset size and sum any line can still ask for.
func (p *magicProber) reach(st *magicState) (k, s int) {
	for l := 0; l < 2*p.n+2; l++ {
		k = max(k, st.empty[l])
		s = max(s, st.need[l])
	}
	return k, s
}

// Probe draws one weighted partial square and counts its completions.
func (p *magicProber) Probe(rng *rand.Rand) float64 {
	if p.dead {
		return 0
	}
	st := p.pool.Get().(*magicState)
	defer p.pool.Put(st)
	*st = p.start
	weight := 1.0
	var ws [magicMaxCells + 1]float64
	for i := 0; i < p.exactFrom; i++ {
		c := int(p.order[i])
		if l := p.closes[i]; l >= 0 {
			v := st.need[l]
			if v < 1 || v > p.cells || st.free&(1<<v) == 0 || p.weight(st, c, v) == 0 {
				return 0
			}
			p.place(st, c, v)
			continue
		}
		total := 0.0
		for f := st.free; f != 0; f &= f - 1 {
			v := bits.TrailingZeros64(f)
			ws[v] = p.weight(st, c, v)
			total += ws[v]
		}
		if total == 0 {
			return 0
		}
		u := rng.Float64() * total
		pick := -1
		for f := st.free; f != 0; f &= f - 1 {
			v := bits.TrailingZeros64(f)
			if ws[v] == 0 {
				continue
			}
			pick = v
			if u < ws[v] {
				break
			}
			u -= ws[v]
		}
		weight *= total / ws[pick]
		p.place(st, c, pick)
	}
	return weight * float64(p.countRest(st, p.exactFrom))
}

// countRest counts the completions of the square from cell order[i] on.
func (p *magicProber) countRest(st *magicState, i int) int64 {
	if i == len(p.order) {
		return 1
	}
	c := int(p.order[i])
	if l := p.closes[i]; l >= 0 {
		v := st.need[l]
		if v < 1 || v > p.cells || st.free&(1<<v) == 0 || p.weight(st, c, v) == 0 {
			return 0
		}
		if i == len(p.order)-1 {
			return 1
		}
		p.place(st, c, v)
		count := p.countRest(st, i+1)
		p.unplace(st, c, v)
		return count
	}
	var count int64
	for f := st.free; f != 0; f &= f - 1 {
		v := bits.TrailingZeros64(f)
		if p.weight(st, c, v) == 0 {
			continue
		}
		if i == len(p.order)-1 {
			count++
			continue
		}
		p.place(st, c, v)
		count += p.countRest(st, i+1)
		p.unplace(st, c, v)
	}
	return count
}

// MagicEstimateMethod names the estimator of magic:n with fixed cells
// given, for the record.
func MagicEstimateMethod(n, fixed int) string {
	exact := min(magicExactCells[min(n, MaxEstimateMagicOrder)], n*n-fixed)
	return fmt.Sprintf("importance sampling of the values cell by cell, weighed by the ways each line can still be completed, the last %d cells counted exactly", exact)
}
