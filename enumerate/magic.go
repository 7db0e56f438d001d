package enumerate

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"slices"
)

// MaxMagicOrder is the largest order Magic enumerates square by square.
const MaxMagicOrder = 4

// Magic streams every normal magic square of order n (n² cell values row by
// row) in lexicographic order.
//
// The search fills cells in an order chosen so that lines complete early:
// whenever a line (row, column or main diagonal) has one empty cell left, that
// cell is forced to the value that makes the line sum right. Free cells take
// the values still unused, and every line through a placed cell must still be
// able to reach the magic sum with the smallest and largest values left. At
// order 4 only 8 of the 16 cells are free. The squares (7,040 at most) are
// gathered and sorted, so the caller sees them in lexicographic order.
// Options.Workers is ignored: order 4 takes a fraction of a second on one core.
func Magic(ctx context.Context, n int, opt Options, emit Emit) (Stats, error) {
	if n < 1 || n > MaxMagicOrder {
		return Stats{}, fmt.Errorf("magic squares of order %d cannot be enumerated one by one; orders 1 to %d can", n, MaxMagicOrder)
	}
	s := newMagicSearch(n)
	var found [][]byte
	s.found = func(grid []byte) { found = append(found, bytes.Clone(grid)) }
	if err := s.fill(ctx, 0); err != nil {
		return s.stats, err
	}
	slices.SortFunc(found, bytes.Compare)
	if opt.Progress != nil {
		opt.Progress(1, 1)
	}
	for _, sq := range found {
		if err := emit(sq); err != nil {
			return s.stats, err
		}
	}
	return s.stats, nil
}

// magicStep is one step of the fill plan.
type magicStep struct {
	cell   int
	forced int   // the line that forces this cell, or -1 if the cell is free
	lines  []int // lines through the cell
}

type magicSearch struct {
	n, target int
	plan      []magicStep
	lineCells [][]int // cells of each line
	sum       []int   // running sum of each line
	left      []int   // empty cells left in each line
	free      uint32  // bit v set: value v not yet placed
	grid      []byte
	stats     Stats
	found     func([]byte)
}

func newMagicSearch(n int) *magicSearch {
	s := &magicSearch{n: n, target: n * (n*n + 1) / 2, free: uint32(1)<<(n*n+1) - 2, grid: make([]byte, n*n)}
	for i := 0; i < n; i++ {
		var row, col []int
		for j := 0; j < n; j++ {
			row = append(row, i*n+j)
			col = append(col, j*n+i)
		}
		s.lineCells = append(s.lineCells, row, col)
	}
	var diag, anti []int
	for i := 0; i < n; i++ {
		diag = append(diag, i*n+i)
		anti = append(anti, i*n+n-1-i)
	}
	s.lineCells = append(s.lineCells, diag, anti)
	s.sum = make([]int, len(s.lineCells))
	s.left = make([]int, len(s.lineCells))
	for l, cells := range s.lineCells {
		s.left[l] = len(cells)
	}
	s.plan = s.makePlan()
	return s
}

// makePlan orders the cells. After each placement, cells that are the last
// empty one of a line are forced next; otherwise the free cell on the lines
// closest to completion (then on the most lines) comes next.
func (s *magicSearch) makePlan() []magicStep {
	cells := s.n * s.n
	linesOf := make([][]int, cells)
	for l, cs := range s.lineCells {
		for _, c := range cs {
			linesOf[c] = append(linesOf[c], l)
		}
	}
	left := slices.Clone(s.left)
	filled := make([]bool, cells)
	var plan []magicStep
	place := func(c, forced int) {
		filled[c] = true
		for _, l := range linesOf[c] {
			left[l]--
		}
		plan = append(plan, magicStep{cell: c, forced: forced, lines: linesOf[c]})
	}
	for len(plan) < cells {
		forcedCell, forcedBy := -1, -1
		for l, cs := range s.lineCells {
			if left[l] != 1 {
				continue
			}
			for _, c := range cs {
				if !filled[c] {
					forcedCell, forcedBy = c, l
				}
			}
			break
		}
		if forcedCell >= 0 {
			place(forcedCell, forcedBy)
			continue
		}
		best, bestKey := -1, [2]int{}
		for c := 0; c < cells; c++ {
			if filled[c] {
				continue
			}
			closest := cells
			for _, l := range linesOf[c] {
				closest = min(closest, left[l])
			}
			key := [2]int{closest, -len(linesOf[c])}
			if best < 0 || key[0] < bestKey[0] || key[0] == bestKey[0] && key[1] < bestKey[1] {
				best, bestKey = c, key
			}
		}
		place(best, -1)
	}
	return plan
}

func (s *magicSearch) fill(ctx context.Context, step int) error {
	if step == len(s.plan) {
		s.stats.Solutions++
		s.found(s.grid)
		return nil
	}
	if step == 3 {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	st := s.plan[step]
	if st.forced >= 0 {
		return s.try(ctx, step, s.target-s.sum[st.forced])
	}
	for free := s.free; free != 0; free &= free - 1 {
		if err := s.try(ctx, step, bits.TrailingZeros32(free)); err != nil {
			return err
		}
	}
	return nil
}

// try places v by step's plan if every line through the cell can still
// reach the magic sum.
func (s *magicSearch) try(ctx context.Context, step, v int) error {
	n := s.n
	if v < 1 || v > n*n || s.free&(1<<v) == 0 {
		return nil
	}
	s.stats.Nodes++
	st := s.plan[step]
	rest := s.free &^ (1 << v)
	for _, l := range st.lines {
		if !reachable(rest, s.target-s.sum[l]-v, s.left[l]-1) {
			return nil
		}
	}
	s.free = rest
	s.grid[st.cell] = byte(v)
	for _, l := range st.lines {
		s.sum[l] += v
		s.left[l]--
	}
	err := s.fill(ctx, step+1)
	s.free |= 1 << v
	for _, l := range st.lines {
		s.sum[l] -= v
		s.left[l]++
	}
	return err
}

// reachable reports whether k distinct values from free can sum to want:
// want must lie between the sum of the k smallest and of the k largest.
func reachable(free uint32, want, k int) bool {
	switch {
	case k == 0:
		return want == 0
	case k == 1:
		return want > 0 && want < 32 && free&(1<<want) != 0
	case bits.OnesCount32(free) < k:
		return false
	}
	low, high := 0, 0
	lo, hi := free, free
	for j := 0; j < k; j++ {
		low += bits.TrailingZeros32(lo)
		lo &= lo - 1
		t := 31 - bits.LeadingZeros32(hi)
		high += t
		hi &^= 1 << t
	}
	return low <= want && want <= high
}
