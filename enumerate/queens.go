package enumerate

import (
	"context"
	"math/bits"
)

// Emit receives one solution. The slice is only valid during the call.
type Emit func(sol []byte) error

// Options tune an enumeration. The zero value uses every core and reports
// no progress.
type Options struct {
	Workers  int                   // goroutines searching; < 1 means one per core
	Progress func(done, total int) // called after each finished work unit, from one goroutine
	// Resume, for QueensCatalogPart, is what an earlier run saved.
	Resume *Resume
}

// Resume is what an earlier run of a stored queens build saved: the first
// classes it found (canonical forms back to back and orbit sizes, in
// order), after whose last whole unit the search goes on, and how many
// solutions it wrote, whose buckets are neither sorted nor handed on again
// but passed to Skip at once. Last, the last of those solutions (if any),
// tells the buckets written whole before the members are expanded: theirs
// are only counted.
type Resume struct {
	Forms, Orbits []byte
	AllClasses    bool // Forms holds every class: nothing is searched
	Solutions     int64
	Last          []byte
	Skip          func(solutions int64) error
}

// Stats describes the search behind an enumeration.
type Stats struct {
	Solutions int64
	Nodes     int64 // partial placements visited
}

// queensUnit is a work unit: the columns of the queens in rows 1 and 2.
type queensUnit struct{ c0, c1 int }

// queensUnits lists the work units in lexicographic order, so that emitting
// the units' solutions in unit order emits all solutions in order.
func queensUnits(n int) []queensUnit {
	if n < 2 {
		return []queensUnit{{0, -1}}
	}
	var units []queensUnit
	for c0 := 0; c0 < n; c0++ {
		for c1 := 0; c1 < n; c1++ {
			if d := c1 - c0; d < -1 || d > 1 {
				units = append(units, queensUnit{c0, c1})
			}
		}
	}
	return units
}

// Queens streams every placement of n non-attacking queens, one 0-based
// column per row, in lexicographic order. The search is bitmask
// backtracking; units (the first two rows) run on up to workers goroutines,
// and their solutions are emitted in unit order, so the output does not
// depend on the worker count.
func Queens(ctx context.Context, n int, opt Options, emit Emit) (Stats, error) {
	units := queensUnits(n)
	var stats Stats
	err := runOrdered(ctx, len(units), opt.Workers, func(i int) queensBatch {
		return solveQueensUnit(n, units[i])
	}, func(i int, b queensBatch) error {
		stats.Nodes += b.nodes
		if opt.Progress != nil {
			opt.Progress(i+1, len(units))
		}
		for off := 0; off < len(b.sols); off += n {
			stats.Solutions++
			if err := emit(b.sols[off : off+n]); err != nil {
				return err
			}
		}
		return nil
	})
	return stats, err
}

type queensBatch struct {
	sols  []byte // solutions back to back, n bytes each
	nodes int64
}

func solveQueensUnit(n int, u queensUnit) queensBatch {
	s := queensSearch{n: n, all: 1<<n - 1, sol: make([]byte, n)}
	if n == 1 {
		s.out = append(s.out, 0)
		return queensBatch{sols: s.out, nodes: 1}
	}
	b0, b1 := uint32(1)<<u.c0, uint32(1)<<u.c1
	s.sol[0], s.sol[1] = byte(u.c0), byte(u.c1)
	s.nodes = 2
	cols := b0 | b1
	left := (b0<<1 | b1) << 1 & s.all
	right := (b0>>1 | b1) >> 1
	s.place(2, cols, left, right)
	return queensBatch{sols: s.out, nodes: s.nodes}
}

type queensSearch struct {
	n     int
	all   uint32
	sol   []byte
	out   []byte
	nodes int64
}

// place fills row r. cols, left and right are the columns attacked in row r
// by earlier queens along columns and the two diagonals. Free squares are
// taken from the lowest column up, which keeps lexicographic order.
func (s *queensSearch) place(r int, cols, left, right uint32) {
	if r == s.n {
		s.out = append(s.out, s.sol...)
		return
	}
	free := s.all &^ (cols | left | right)
	for free != 0 {
		bit := free & -free
		free ^= bit
		s.nodes++
		s.sol[r] = byte(bits.TrailingZeros32(bit))
		s.place(r+1, cols|bit, (left|bit)<<1&s.all, (right|bit)>>1)
	}
}
