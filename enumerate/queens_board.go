package enumerate

import (
	"context"
	"fmt"
	"math/bits"
	"strconv"
	"sync/atomic"

	"solcat/canon"
)

// The board counters count the solutions of queens:n that have a property
// read off the squares (canon.Toroidal, canon.Superqueen): far fewer than
// all solutions, found by a search of their own rather than by testing
// every solution. Both are the textbook bitmask search (one word each for
// the columns and the two directions of diagonals taken, as seen from the
// row being filled) with one more rule:
//
//   - Toroidal: no two queens share a broken diagonal, one that wraps
//     around the board's edges. A queen at (r, c) takes the columns c+k and
//     c-k of row r+k modulo n, so the diagonal masks turn (rotate within
//     n bits) by one column a row instead of shifting off the edge.
//   - Superqueen: no two queens a knight's move apart. Only the two rows
//     above the row being filled can hold a knight's move from it: the
//     queen one row up takes the columns two to either side, the queen two
//     rows up the columns one to either side.
//
// A toroidal solution of n > 1 needs n prime to 6 (Pólya, 1918): its
// queens' columns c, the sums c+r and the differences c-r (mod n) each
// run over 0 to n-1 once, and adding up the sums, then their squares,
// gives a contradiction when 2 or 3 divides n. So for those n the counter
// has no units and counts none; the tests check this against the plain
// search up to 13 and the published zeros.
//
// Cuts by symmetry, each a bijection between the solutions counted and
// those left out, so the count is exact:
//
//   - Toroidal: a shift of every column by k modulo n keeps rows, columns
//     and broken diagonals, so each column of the first row holds the first
//     queen in as many solutions: the search fixes it in column 0 and
//     weighs each solution n. The mirror c -> -c modulo n (the left-right
//     mirror, then a shift) keeps column 0 and takes the second row's
//     column c to n-c: only c <= n-c is searched, c < n-c weighed twice.
//   - Superqueen: the left-right mirror takes the first row's column c to
//     n-1-c: the left half is searched, weighed twice, and the middle
//     column of odd n once.
//
// Under a constraint (squares fixed, as a constrained count's) a cut is
// taken only when the constraint is its own image: the shift when it
// restricts no row, the mirror when it is its own mirror image. Without
// one, the toroidal count of n prime to 6 (the only n with solutions,
// past 1) cuts by all the torus's maps that keep its lines instead
// (queens_torus.go), a cut some n/2 times deeper.
//
// The work units fix the queens of the first rows (3 for superqueens, 4
// for toroidal ones, the first of which is in column 0): a few thousand
// units at the sizes that take hours, each searched by the inner loop (an
// explicit stack, the last row counted by a popcount). The search polls a
// flag every 65,536 nodes, so a count stops within a fraction of a second
// of its context's end.
//
// This gives the number of solutions. The classes come from Burnside's
// lemma as for all queens (see the join counter): a solution of n >= 2 is
// fixed by no reflection, so with f90 and f180 the solutions with the
// property that a quarter and a half turn fix, found by searches that
// place whole orbits of squares, there are f90/2 classes of 2 members,
// (f180-f90)/4 of 4 and the rest of 8.

// MaxBoardQueens is the largest board the board counters take (the
// toroidal one: its masks turn within a 64-bit word; the published counts
// reach n = 34), and MaxSuperqueens the largest the superqueen one takes
// (the diagonals of its fixed searches fill a 64-bit word; the published
// counts reach n = 26). Under a constraint both stop at
// MaxConstrainedQueens.
const (
	MaxBoardQueens = 40
	MaxSuperqueens = 32
)

// A BoardUnit is a work unit of a board counter: the columns of the
// queens of the first rows, and how many solutions each one found stands
// for (the cuts by symmetry).
type BoardUnit struct {
	Prefix []byte
	Weight int64
}

// A BoardCounter counts the solutions of queens:n with a property read off
// the squares, under a constraint, unit by unit: the search units, then
// (without a constraint) one unit that counts the solutions turns fix, for
// the classes.
type BoardCounter struct {
	prop        canon.Property
	n           int
	allowed     []uint64 // by row, the columns the constraint allows
	units       []BoardUnit
	fixed       bool      // the last unit counts the solutions turns fix
	shift, flip bool      // the cuts taken
	torus       *torusCut // toroidal without a constraint: the cut by the torus's maps (queens_torus.go)
	none        bool      // toroidal, n a multiple of 2 or 3: no solutions, and no units
	filter      []uint64  // with torus under a constraint: the constraint, tested on each orbit's members
	restricted  []int     // the rows filter restricts
}

// NewBoardCounter prepares the count of the solutions of queens:c.N with
// prop (canon.Toroidal or canon.Superqueen) that meet c.
func NewBoardCounter(prop canon.Property, c QueensConstraint) (*BoardCounter, error) {
	if c.N < 1 || c.N > MaxConstrainedQueens || len(c.Allowed) != c.N {
		return nil, fmt.Errorf("a constrained count takes queens:1 to queens:%d", MaxConstrainedQueens)
	}
	allowed := make([]uint64, c.N)
	for r, a := range c.Allowed {
		allowed[r] = uint64(a)
	}
	return newBoardCounter(prop, c.N, allowed)
}

// newBoardCounter prepares the count of queens:n with prop, each row's
// queen in a column allowed.
func newBoardCounter(prop canon.Property, n int, allowed []uint64) (*BoardCounter, error) {
	most := map[canon.Property]int{canon.Toroidal: MaxBoardQueens, canon.Superqueen: MaxSuperqueens}[prop]
	switch {
	case most == 0:
		return nil, fmt.Errorf("no board counter for %v", prop)
	case n < 1 || n > most:
		return nil, fmt.Errorf("the %s counter takes queens:1 to queens:%d", prop, most)
	}
	all := uint64(1)<<n - 1
	free, mirrored := true, true
	for _, a := range allowed {
		free = free && a&all == all
		mirrored = mirrored && a&all == bits.Reverse64(a&all)>>(64-n)
	}
	q := &BoardCounter{prop: prop, n: n, allowed: allowed, fixed: free, flip: mirrored}
	q.shift = free && prop == canon.Toroidal
	if q.shift {
		q.torus = newTorusCut(n)
	}
	if q.none = prop == canon.Toroidal && n > 1 && (n%2 == 0 || n%3 == 0); !q.none {
		q.listUnits()
	}
	if !free && prop == canon.Toroidal && !q.none {
		// Under a constraint the search by the torus's maps, which finds
		// every orbit and tests its members against the constraint, may
		// be the smaller one: take it if Knuth's estimate of its nodes,
		// which cost about twice the plain search's, finds so.
		if orbits := newTorusFilter(n, allowed); orbits != nil && 2*orbits.SearchNodes(16, 1) < q.SearchNodes(16, 1) {
			return orbits, nil
		}
	}
	return q, nil
}

// newTorusFilter prepares the toroidal count of queens:n (prime to 6)
// under the constraint allowed by the cut by the torus's maps: every
// orbit is found, unconstrained, and its members that meet the constraint
// counted (torusCut.members). nil when the cut does not apply.
func newTorusFilter(n int, allowed []uint64) *BoardCounter {
	t := newTorusCut(n)
	if t == nil {
		return nil
	}
	all := make([]uint64, n)
	for r := range all {
		all[r] = uint64(1)<<n - 1
	}
	q := &BoardCounter{prop: canon.Toroidal, n: n, allowed: all, torus: t, filter: allowed}
	for r, a := range allowed {
		if a&all[r] != all[r] {
			q.restricted = append(q.restricted, r)
		}
	}
	q.listUnits()
	return q
}

// Units lists the search units, in the order Count hands them out.
func (q *BoardCounter) Units() []BoardUnit { return q.units }

// Keys identifies each unit for saved counts: the search units (the
// property's initial, n, the prefix), then the unit of the solutions turns
// fix, if the counter has it.
func (q *BoardCounter) Keys() [][]byte {
	initial := byte('S')
	if q.prop == canon.Toroidal {
		initial = 'T'
	}
	var keys [][]byte
	for _, u := range q.units {
		keys = append(keys, append([]byte{initial, byte(q.n)}, u.Prefix...))
	}
	if q.fixed {
		keys = append(keys, []byte{initial, byte(q.n), 'F'})
	}
	return keys
}

// Scheme tells units of the cut by the torus's maps ('G') from those of
// the other cuts (0), which a unit's index alone does not.
func (q *BoardCounter) Scheme() byte {
	if q.torus != nil {
		return 'G'
	}
	return 0
}

// Method names the way the count goes.
func (q *BoardCounter) Method() string {
	name := "superqueen counter"
	if q.prop == canon.Toroidal {
		name = "toroidal counter"
	}
	switch {
	case q.torus != nil && q.filter != nil:
		return name + ", by the orbits of the torus's shifts, multiples and mirror, their members tested against the filter"
	case q.none:
		return name + ", none without a search: " + strconv.Itoa(q.n) + " is a multiple of 2 or 3 (Pólya)"
	case q.torus != nil:
		return name + ", cut by the torus's shifts, multiples and mirror"
	case q.shift && q.flip:
		return name + ", cut by the torus's shifts and the mirror"
	case q.flip:
		return name + ", cut by the mirror"
	}
	return name
}

// prefixRows is how many first rows a unit fixes: one more from
// deepUnitsFrom on, so that a split count's units stay a few core-hours
// at most (toroidal queens:31 and superqueen queens:25 would have units of
// tens of core-hours with the rows fixed below those sizes).
func (q *BoardCounter) prefixRows() int {
	rows := 3
	if q.prop == canon.Toroidal {
		rows = 4
	}
	if q.n >= deepUnitsFrom[q.prop] && q.n > rows+1 {
		rows++ // leaving rows to search: the torus's weight is found there
	}
	return min(q.n, rows)
}

// deepUnitsFrom is the least N whose units fix one row more (tests lower
// it).
var deepUnitsFrom = map[canon.Property]int{canon.Toroidal: 31, canon.Superqueen: 25}

// listUnits lists the placements of the first rows that meet the rules and
// the constraint, each with its weight, skipping those a cut counts
// through another.
func (q *BoardCounter) listUnits() {
	n, k := q.n, q.prefixRows()
	prefix := make([]byte, k)
	var place func(r int, s boardState, weight int64)
	place = func(r int, s boardState, weight int64) {
		if r == k {
			q.units = append(q.units, BoardUnit{Prefix: append([]byte(nil), prefix...), Weight: weight})
			return
		}
		for free := s.free(q, r); free != 0; free &= free - 1 {
			c := bits.TrailingZeros64(free)
			w := weight
			switch {
			case q.torus != nil && r == 0:
				if c != 0 {
					continue
				}
			case q.torus != nil && r == 1:
				if c < 2 || 2*c > n-1 {
					continue // the least slope is from 2 to (n-1)/2
				}
			case q.shift && r == 0:
				if c != 0 {
					continue
				}
				w *= int64(n)
			case q.shift && r == 1:
				if c > n-c {
					continue
				}
				if c < n-c {
					w *= 2
				}
			case !q.shift && q.flip && r == 0:
				if c > n-1-c {
					continue
				}
				if c < n-1-c {
					w *= 2
				}
			}
			prefix[r] = byte(c)
			place(r+1, s.place(q, c), w)
		}
	}
	place(0, boardState{}, 1)
}

// boardState is what the queens placed take from the next row: columns,
// the two directions of diagonals (as columns of the next row), and the
// queens of the last two rows (bits; superqueens: their knight's moves).
type boardState struct {
	cols, left, right uint64
	prev, prev2       uint64
	placed            int                  // rows placed
	col               [MaxBoardQueens]int8 // their queens' columns
}

// free is the columns of row r that s leaves and the constraint allows.
func (s boardState) free(q *BoardCounter, r int) uint64 {
	all := uint64(1)<<q.n - 1
	taken := s.cols | s.left | s.right
	if q.prop == canon.Superqueen {
		taken |= s.prev<<2 | s.prev>>2 | s.prev2<<1 | s.prev2>>1
	}
	free := all &^ taken & q.allowed[r]
	if q.torus != nil && r >= 2 {
		if s.col[1] > 2 {
			free &^= q.torus.slopeMask(s.col[:], r, int(s.col[1]))
		}
		for f := free; f != 0; f &= f - 1 {
			if c := bits.TrailingZeros64(f); q.torus.below(s.col, r, c) {
				free &^= 1 << c
			}
		}
	}
	return free
}

// place is s after a queen in column c of the row it was for.
func (s boardState) place(q *BoardCounter, c int) boardState {
	n := q.n
	all := uint64(1)<<n - 1
	bit := uint64(1) << c
	out := boardState{cols: s.cols | bit, prev: bit, prev2: s.prev, placed: s.placed + 1, col: s.col}
	out.col[s.placed] = int8(c)
	if q.prop == canon.Toroidal {
		l, r := s.left|bit, s.right|bit
		out.left = (l<<1 | l>>(n-1)) & all
		out.right = (r>>1 | r<<(n-1)) & all
	} else {
		out.left = (s.left | bit) << 1 & all
		out.right = (s.right | bit) >> 1
	}
	return out
}

// Count counts the units todo (indexes into Keys) on up to workers
// goroutines (0: one per core) and hands each unit's counts to done, in
// the order of todo, from one goroutine: a search unit's solutions in
// Joined (weighed by the cuts), the fixed unit's classes of 2 and 4
// members in Orbits. Add up every unit's counts and call ClassifyJoined
// (without a constraint; under one, Joined is the count). A cancelled
// context stops the search within a fraction of a second.
func (q *BoardCounter) Count(ctx context.Context, todo []int, workers int, done func(i int, c ClassCounts) error) error {
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	return runOrdered(ctx, len(todo), workers, func(k int) ClassCounts {
		i := todo[k]
		if i == len(q.units) {
			f90, f180, nodes := q.fixedCounts(&stop)
			return ClassCounts{Orbits: [9]int64{2: f90 / 2, 4: (f180 - f90) / 4}, Nodes: nodes}
		}
		solutions, nodes := q.countUnit(q.units[i], &stop)
		return ClassCounts{Joined: solutions, Nodes: nodes}
	}, func(k int, c ClassCounts) error {
		if err := ctx.Err(); err != nil {
			return err // the unit may have stopped part way
		}
		return done(todo[k], c)
	})
}

// countUnit counts the solutions that begin with the unit's prefix,
// weighed.
func (q *BoardCounter) countUnit(u BoardUnit, stop *atomic.Bool) (solutions, nodes int64) {
	var s boardState
	for _, c := range u.Prefix {
		s = s.place(q, int(c))
	}
	row := len(u.Prefix)
	if row == q.n {
		return u.Weight, 0
	}
	switch {
	case q.torus != nil:
		return q.searchTorus(row, s, stop)
	case q.prop == canon.Toroidal:
		solutions, nodes = q.searchToroidal(row, s, stop)
	default:
		solutions, nodes = q.searchSuperqueens(row, s, stop)
	}
	return u.Weight * solutions, nodes
}

// pollMask: the search looks at its stop flag every 65,536 nodes.
const pollMask = 1<<16 - 1

// searchToroidal counts the toroidal completions of s from row row on.
func (q *BoardCounter) searchToroidal(row int, s boardState, stop *atomic.Bool) (count, nodes int64) {
	n := q.n
	all := uint64(1)<<n - 1
	allowed := q.allowed
	last := n - 1
	type frame struct{ free, cols, left, right uint64 }
	var stack [MaxBoardQueens]frame
	r := row
	stack[r] = frame{all &^ (s.cols | s.left | s.right) & allowed[r], s.cols, s.left, s.right}
	if r == last {
		return int64(bits.OnesCount64(stack[r].free)), 0
	}
	for {
		f := &stack[r]
		if f.free == 0 {
			if r == row {
				return count, nodes
			}
			r--
			continue
		}
		bit := f.free & -f.free
		f.free ^= bit
		if nodes++; nodes&pollMask == 0 && stop.Load() {
			return count, nodes
		}
		cols, l, rt := f.cols|bit, f.left|bit, f.right|bit
		l = (l<<1 | l>>(n-1)) & all
		rt = (rt>>1 | rt<<(n-1)) & all
		free := all &^ (cols | l | rt) & allowed[r+1]
		if r+1 == last {
			count += int64(bits.OnesCount64(free))
			continue
		}
		if free == 0 {
			continue
		}
		r++
		stack[r] = frame{free, cols, l, rt}
	}
}

// searchSuperqueens counts the superqueen completions of s from row row
// on.
func (q *BoardCounter) searchSuperqueens(row int, s boardState, stop *atomic.Bool) (count, nodes int64) {
	n := q.n
	all := uint64(1)<<n - 1
	allowed := q.allowed
	last := n - 1
	type frame struct{ free, cols, left, right, prev uint64 } // prev: the queen of the row above
	var stack [MaxBoardQueens]frame
	r := row
	stack[r] = frame{s.free(q, r), s.cols, s.left, s.right, s.prev}
	if r == last {
		return int64(bits.OnesCount64(stack[r].free)), 0
	}
	for {
		f := &stack[r]
		if f.free == 0 {
			if r == row {
				return count, nodes
			}
			r--
			continue
		}
		bit := f.free & -f.free
		f.free ^= bit
		if nodes++; nodes&pollMask == 0 && stop.Load() {
			return count, nodes
		}
		cols, l, rt := f.cols|bit, (f.left|bit)<<1&all, (f.right|bit)>>1
		knight := bit<<2 | bit>>2 | f.prev<<1 | f.prev>>1
		free := all &^ (cols | l | rt | knight) & allowed[r+1]
		if r+1 == last {
			count += int64(bits.OnesCount64(free))
			continue
		}
		if free == 0 {
			continue
		}
		r++
		stack[r] = frame{free, cols, l, rt, bit}
	}
}

// fixedCounts counts the solutions with the property that the quarter
// turn (f90) and the half turn (f180, f90 among them) map onto
// themselves, by searches that place whole orbits of squares.
func (q *BoardCounter) fixedCounts(stop *atomic.Bool) (f90, f180, nodes int64) {
	if q.none {
		return 0, 0, 0
	}
	quarter := boardFixedSearch{q: q, quarter: true, stop: stop}
	quarter.search(0, newFixedBoard(q.n))
	half := boardFixedSearch{q: q, stop: stop}
	half.search(0, newFixedBoard(q.n))
	return quarter.count, half.count, quarter.nodes + half.nodes
}

type boardFixedSearch struct {
	q            *BoardCounter
	quarter      bool // orbits under the quarter turn, else the half turn
	stop         *atomic.Bool
	stopped      bool  // stop was seen: the search unwinds
	calls        int64 // of search, for polling stop
	count, nodes int64
}

// fixedBoard is what the queens placed so far occupy: rows, columns, the
// two directions of diagonals (toroidal: broken ones, modulo n), and the
// column of each row's queen (-1: none), for knight's moves.
type fixedBoardState struct {
	rows, cols, diag, anti uint64
	at                     [MaxBoardQueens]int8
}

func newFixedBoard(n int) fixedBoardState {
	var b fixedBoardState
	for r := range b.at {
		b.at[r] = -1
	}
	return b
}

// search fills the first empty row at or after r with each column in turn
// whose square's orbit can be placed.
func (f *boardFixedSearch) search(r int, b fixedBoardState) {
	n := f.q.n
	for r < n && b.rows&(1<<r) != 0 {
		r++
	}
	if r == n {
		f.count++
		return
	}
	if f.calls++; f.stopped || f.calls&pollMask == 0 && f.stop.Load() {
		f.stopped = true
		return
	}
	for free := (uint64(1)<<n - 1) &^ b.cols & f.q.allowed[r]; free != 0; free &= free - 1 {
		if next, ok := f.placeOrbit(b, r, bits.TrailingZeros64(free)); ok {
			f.nodes++
			f.search(r+1, next)
		}
	}
}

// placeOrbit places (r, c) and its images under the turn, if none of them
// breaks a rule with another or with a queen already placed.
func (f *boardFixedSearch) placeOrbit(b fixedBoardState, r, c int) (fixedBoardState, bool) {
	n := f.q.n
	size := 2
	if f.quarter {
		size = 4
	}
	if 2*r == n-1 && 2*c == n-1 {
		size = 1 // the centre is its own orbit
	}
	for range size {
		if !f.fits(&b, r, c) {
			return b, false
		}
		d, a := n-1-r+c, r+c
		if f.q.prop == canon.Toroidal {
			d, a = (c-r+n)%n, (r+c)%n
		}
		b.rows |= 1 << r
		b.cols |= 1 << c
		b.diag |= 1 << d
		b.anti |= 1 << a
		b.at[r] = int8(c)
		if f.quarter {
			r, c = c, n-1-r
		} else {
			r, c = n-1-r, n-1-c
		}
	}
	return b, true
}

// fits reports whether a queen at (r, c) keeps the rules with the queens
// on b and meets the constraint.
func (f *boardFixedSearch) fits(b *fixedBoardState, r, c int) bool {
	n := f.q.n
	d, a := n-1-r+c, r+c
	if f.q.prop == canon.Toroidal {
		d, a = (c-r+n)%n, (r+c)%n
	}
	if b.rows&(1<<r) != 0 || b.cols&(1<<c) != 0 || b.diag&(1<<d) != 0 || b.anti&(1<<a) != 0 || f.q.allowed[r]&(1<<c) == 0 {
		return false
	}
	if f.q.prop != canon.Superqueen {
		return true
	}
	for _, k := range [4][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}} {
		if o := r + k[0]; o >= 0 && o < n && b.at[o] >= 0 {
			if d := int(b.at[o]) - c; d == k[1] || d == -k[1] {
				return false
			}
		}
	}
	return true
}

// CountToroidal counts the toroidal solutions of queens:n (OEIS A051906)
// and their classes under the 8 symmetries of the square, on up to
// workers goroutines (0: one per core); progress, if set, hears the units
// done and their number after each.
func CountToroidal(ctx context.Context, n, workers int, progress func(done, total int)) (ClassCounts, error) {
	return countBoard(ctx, canon.Toroidal, n, workers, progress)
}

// CountSuperqueens counts the superqueen solutions of queens:n (OEIS
// A051223) and their classes (A051224), as CountToroidal does.
func CountSuperqueens(ctx context.Context, n, workers int, progress func(done, total int)) (ClassCounts, error) {
	return countBoard(ctx, canon.Superqueen, n, workers, progress)
}

func countBoard(ctx context.Context, prop canon.Property, n, workers int, progress func(done, total int)) (ClassCounts, error) {
	allowed := make([]uint64, max(n, 0))
	for r := range allowed {
		allowed[r] = uint64(1)<<n - 1
	}
	q, err := newBoardCounter(prop, n, allowed)
	if err != nil {
		return ClassCounts{}, err
	}
	if n == 1 {
		return ClassCounts{Orbits: [9]int64{1: 1}}, nil // fixed by every symmetry
	}
	// The unit of the fixed solutions first: one worker counts it while the
	// others start on the rest.
	todo := []int{len(q.units)}
	for i := range q.units {
		todo = append(todo, i)
	}
	var total ClassCounts
	done := 0
	err = q.Count(ctx, todo, workers, func(_ int, c ClassCounts) error {
		total.Add(c)
		if done++; progress != nil {
			progress(done, len(todo))
		}
		return nil
	})
	if err != nil {
		return ClassCounts{}, err
	}
	return total, total.ClassifyJoined()
}

// CountBoardConstrained counts the solutions of queens:c.N with prop
// (canon.Toroidal or canon.Superqueen) that meet c, on up to workers
// goroutines (0: one per core), with progress as CountToroidal's.
func CountBoardConstrained(ctx context.Context, prop canon.Property, c QueensConstraint, workers int, progress func(done, total int)) (int64, error) {
	q, err := NewBoardCounter(prop, c)
	if err != nil {
		return 0, err
	}
	todo := make([]int, len(q.units))
	for i := range todo {
		todo[i] = i
	}
	var total int64
	done := 0
	err = q.Count(ctx, todo, workers, func(_ int, cc ClassCounts) error {
		total += cc.Joined
		if done++; progress != nil {
			progress(done, len(todo))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return total, nil
}
