package enumerate

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"solcat/canon"
)

// A constrained count answers "how many solutions of queens:n have these
// squares as given" without storing the solutions: the queen of each row r
// must stand in a column of Allowed[r]. A cell with a queen leaves one
// column to its row; an empty cell takes its column away.
//
// It is the halves counter (queens_halves.go) with the rows' columns
// restricted when the blocks of rows are listed, and without its symmetry:
// the tops are listed from the top rows' restrictions and the bottoms from
// the bottom rows', so a top and a bottom are no longer the same list, and
// a filter is in general not its own mirror image. For odd n each middle
// column allowed is counted on its own, the middle queen's column and
// diagonals taken out of the other rows' columns before their blocks are
// listed. Past the halves counter's sizes (and below queens:4) a row-by-row
// search with the same restrictions counts instead.

// MaxConstrainedQueens is the largest board a constrained count takes.
const MaxConstrainedQueens = 32

// A QueensConstraint is the columns each row's queen may use, by row
// (0-based), as bits (bit c: column c, 0-based).
type QueensConstraint struct {
	N       int
	Allowed []uint32
}

// NewQueensConstraint allows every column to every row of queens:n.
func NewQueensConstraint(n int) QueensConstraint {
	allowed := make([]uint32, n)
	for r := range allowed {
		allowed[r] = uint32(1<<n - 1)
	}
	return QueensConstraint{N: n, Allowed: allowed}
}

// Queen puts the queen of row r (0-based) in column c.
func (q QueensConstraint) Queen(r, c int) { q.Allowed[r] &= 1 << c }

// Empty keeps the queen of row r out of column c.
func (q QueensConstraint) Empty(r, c int) { q.Allowed[r] &^= 1 << c }

// Clone is a copy of q to change.
func (q QueensConstraint) Clone() QueensConstraint {
	return QueensConstraint{N: q.N, Allowed: append([]uint32(nil), q.Allowed...)}
}

// Mirrored reports whether q is its own mirror image (left to right).
func (q QueensConstraint) Mirrored() bool {
	for _, a := range q.Allowed {
		if a != reverseBits(a, q.N) {
			return false
		}
	}
	return true
}

// Question identifies the number of solutions the constraint leaves: the
// smallest key of its 8 images under the symmetries of the square, each
// with what its queens imply (see propagated). A solution meets the
// constraint exactly when its image meets the image, so the images count
// alike: the spellings of one filter and of its images are one question
// (a queen in any corner, or the first row's table read from the last).
func (q QueensConstraint) Question() []byte { return q.Canonical().Key() }

// Canonical is the image of q, with what its queens imply, whose key is
// the question: the one every spelling and image of q turns into.
func (q QueensConstraint) Canonical() QueensConstraint {
	var best QueensConstraint
	var bestKey []byte
	for _, s := range canon.All {
		img := q.image(s).propagated()
		if key := img.Key(); bestKey == nil || string(key) < string(bestKey) {
			best, bestKey = img, key
		}
	}
	return best
}

// Image is q under symmetry s: the squares allowed, moved by s.
func (q QueensConstraint) Image(s canon.Symmetry) QueensConstraint { return q.image(s) }

// And is the constraint of the solutions that meet both q and o.
func (q QueensConstraint) And(o QueensConstraint) QueensConstraint {
	out := q.Clone()
	for r := range out.Allowed {
		out.Allowed[r] &= o.Allowed[r]
	}
	return out
}

// Impossible reports whether some row has no column left.
func (q QueensConstraint) Impossible() bool {
	for _, a := range q.propagated().Allowed {
		if a == 0 {
			return true
		}
	}
	return false
}

// image is q under symmetry s: the squares allowed, moved by s.
func (q QueensConstraint) image(s canon.Symmetry) QueensConstraint {
	out := QueensConstraint{N: q.N, Allowed: make([]uint32, q.N)}
	for r, a := range q.Allowed {
		for ; a != 0; a &= a - 1 {
			r2, c2 := s.Map(q.N, r, bits.TrailingZeros32(a))
			out.Allowed[r2] |= 1 << c2
		}
	}
	return out
}

// ConstraintOfKey reads a constraint back from its Key.
func ConstraintOfKey(key []byte) (QueensConstraint, bool) {
	if len(key) == 0 || len(key) != 1+4*int(key[0]) {
		return QueensConstraint{}, false
	}
	n := int(key[0])
	c := QueensConstraint{N: n, Allowed: make([]uint32, n)}
	for r := range n {
		c.Allowed[r] = binary.BigEndian.Uint32(key[1+4*r:])
	}
	return c, true
}

// Key identifies the constraint in saved units.
func (q QueensConstraint) Key() []byte {
	key := []byte{byte(q.N)}
	for _, a := range q.Allowed {
		key = binary.BigEndian.AppendUint32(key, a)
	}
	return key
}

// propagated is c with the columns and diagonals of every row's only
// column taken from the other rows, until no more rows are left one: the
// same solutions, with fewer placements of the blocks to list and match.
func (q QueensConstraint) propagated() QueensConstraint {
	allowed := append([]uint32(nil), q.Allowed...)
	done := make([]bool, q.N)
	for changed := true; changed; {
		changed = false
		for r, a := range allowed {
			if done[r] || bits.OnesCount32(a) != 1 {
				continue
			}
			done[r], changed = true, true
			for o := range allowed {
				if o == r {
					continue
				}
				d := max(o-r, r-o)
				allowed[o] &^= a | a>>d | uint32(uint64(a)<<d) // its column and the diagonals d rows off
			}
		}
	}
	return QueensConstraint{N: q.N, Allowed: allowed}
}

// A ConstrainedUnit is a work unit of a constrained count: for the middle
// queen in column Mid (odd n; -1 for even n), the column sets of the top
// half from the From-th to the To-th (in increasing order). For the
// row-by-row search, the queen of the first row with a choice is in column
// Mid and that of the row below in column From (-1: it is the last row).
type ConstrainedUnit struct {
	Mid      int
	From, To int
}

// A ConstrainedCounter counts the solutions of queens:n under a constraint,
// unit by unit (so that a long count can be saved and resumed).
type ConstrainedCounter struct {
	c      QueensConstraint
	halves bool
	vector bool // the halves counter's vector loops (where the CPU has them)
	units  []ConstrainedUnit
	sets   [][]uint32 // by middle column (index 0 for even n): the top column sets
	// weights, when the constraint is its own image under a mirror or the
	// half turn, is how many (middle, top set) pairs each one listed
	// stands for; the others are its images, and count alike (by middle
	// column, as sets; nil: one each).
	weights [][]uint8
	// searchWeight is the same for the row-by-row search's first-row
	// columns (2 for a column whose mirror image is counted through it).
	searchWeight []int64
	splitRow     int // the row whose columns are the search's units
	// split is where the board is cut (nil: in the middle, with the middle
	// row's queen fixed for odd n).
	split *splitPlan
	// transposed: c is the filter turned about the main diagonal (its
	// columns as rows), which cuts cheaper (see newCheapestSplit).
	transposed bool

	stop    atomic.Bool // set as the count is stopped
	mu      sync.Mutex
	listing time.Duration // spent listing blocks of rows, lists times
	lists   int
	blocks  map[int]*constrainedBlocks // by middle column, while units of it are counted
	pool    sync.Pool
}

// constrainedBlocks are the blocks of rows of one middle column's count.
type constrainedBlocks struct {
	mu           sync.Mutex    // held as they are listed
	top, bottom  *halvesBlocks // nil until listed whole
	free         uint32        // the columns the two halves share out
	units, spent int           // the units of this middle column, and those done
}

// NewConstrainedCounter prepares the count of queens:n under c (4 <= n <=
// 32; smaller boards are counted by search too).
func NewConstrainedCounter(c QueensConstraint) (*ConstrainedCounter, error) {
	n := c.N
	if n < 1 || n > MaxConstrainedQueens || len(c.Allowed) != n {
		return nil, fmt.Errorf("a constrained count takes queens:1 to queens:%d", MaxConstrainedQueens)
	}
	c = c.propagated()
	if slices.Contains(c.Allowed, 0) {
		return newConstrainedCounter(c, false), nil // no solution: no unit
	}
	if n >= MinSplitQueens {
		if q := newCheapestSplit(c); q != nil {
			return q, nil
		}
	}
	// Up to queens:23 the halves counter cut in the middle fits whatever
	// the filter; past it the row-by-row search counts.
	return newConstrainedCounter(c, halvesCounts(n)), nil
}

// MinSplitQueens is the smallest board whose constrained counts cut the
// board where the filter makes the work least (queens_split.go); smaller
// ones cut it in the middle and use the halves counter's symmetry.
const MinSplitQueens = 18

// newSplitCounter prepares the count under c, propagated, cut as p says.
func newSplitCounter(c QueensConstraint, p splitPlan) *ConstrainedCounter {
	q := &ConstrainedCounter{c: c, halves: true, vector: vectorMatch, blocks: map[int]*constrainedBlocks{}, split: &p}
	sets := p.splitSets(c.N)
	var weights []uint8
	if c.Mirrored() {
		sets, weights = representatives(c.N, -1, sets, []flip{flipMirror})
		q.weights = [][]uint8{weights}
	}
	q.sets = [][]uint32{sets}
	// About 200 units, none under 64 sets.
	size := max(64, (len(sets)+199)/200)
	for from := 0; from < len(sets); from += size {
		q.units = append(q.units, ConstrainedUnit{Mid: -1, From: from, To: min(from+size, len(sets))})
	}
	return q
}

// newConstrainedCounter prepares the count under c, propagated, by the
// halves counter or the row-by-row search.
func newConstrainedCounter(c QueensConstraint, halves bool) *ConstrainedCounter {
	n := c.N
	q := &ConstrainedCounter{c: c, halves: halves, vector: vectorMatch, blocks: map[int]*constrainedBlocks{}}
	if !q.halves {
		// One unit per pair of columns of the first two rows with a choice
		// (the rows above have one column each), so that units are short
		// enough to stop, save and show progress by; a filter that is its
		// own mirror image counts the right half through the left.
		q.searchWeight = make([]int64, n)
		for q.splitRow < n-1 && bits.OnesCount32(c.Allowed[q.splitRow]) == 1 {
			q.splitRow++
		}
		for col := range n {
			if c.Allowed[q.splitRow]&(1<<col) == 0 || slices.Contains(c.Allowed, 0) {
				continue
			}
			q.searchWeight[col] = 1
			if c.Mirrored() {
				if col > n-1-col {
					continue
				}
				if col < n-1-col {
					q.searchWeight[col] = 2
				}
			}
			if q.splitRow == n-1 {
				q.units = append(q.units, ConstrainedUnit{Mid: col, From: -1, To: -1})
				continue
			}
			for next := range n {
				if c.Allowed[q.splitRow+1]&(1<<next) != 0 && next != col && next != col-1 && next != col+1 {
					q.units = append(q.units, ConstrainedUnit{Mid: col, From: next, To: next + 1})
				}
			}
		}
		return q
	}
	kept := keptFlips(c)
	h := n / 2
	mids := []int{-1}
	if n%2 == 1 {
		mids = mids[:0]
		for col := range n {
			if c.Allowed[h]&(1<<col) != 0 {
				mids = append(mids, col)
			}
		}
	}
	q.sets = make([][]uint32, n)
	for _, mid := range mids {
		free := uint32(1)<<n - 1
		if mid >= 0 {
			free &^= 1 << mid
		}
		sets := topSets(free, h)
		if len(kept) > 0 {
			var w []uint8
			sets, w = representatives(n, mid, sets, kept)
			if q.weights == nil {
				q.weights = make([][]uint8, n)
			}
			q.weights[max(mid, 0)] = w
		}
		q.sets[max(mid, 0)] = sets
		// About 200 units a middle column, none under 64 sets.
		size := max(64, (len(sets)+199)/200)
		for from := 0; from < len(sets); from += size {
			q.units = append(q.units, ConstrainedUnit{Mid: mid, From: from, To: min(from+size, len(sets))})
		}
	}
	return q
}

// topSets lists the subsets of free with h columns, in increasing order.
func topSets(free uint32, h int) []uint32 {
	var sets []uint32
	k := bits.OnesCount32(free)
	if h > k {
		return nil
	}
	// Gosper's hack on the ranks of free's columns, mapped back.
	var cols []int
	for x := free; x != 0; x &= x - 1 {
		cols = append(cols, bits.TrailingZeros32(x))
	}
	for r := uint64(1)<<h - 1; r < 1<<k; {
		var set uint32
		for x := r; x != 0; x &= x - 1 {
			set |= 1 << cols[bits.TrailingZeros64(x)]
		}
		sets = append(sets, set)
		r = nextSameCount(r)
	}
	return sets
}

// SearchNodes estimates the nodes of the row-by-row search's count (a
// counter that is not the halves counter): Knuth's estimate in each unit
// apart, probes probes a unit (sampling the units apart keeps one unit's
// large tree from being missed or counted for all).
func (q *ConstrainedCounter) SearchNodes(probes int, seed uint64) float64 {
	var nodes float64
	for _, u := range q.units {
		c := q.c.Clone()
		c.Allowed[q.splitRow] = 1 << u.Mid
		if u.From >= 0 {
			c.Allowed[q.splitRow+1] = 1 << u.From
		}
		nodes += float64(q.searchWeight[u.Mid]) * SearchNodes(c, probes, seed)
	}
	return nodes
}

// Listing is the time spent listing the halves counter's blocks of rows,
// and how many times they were listed: once for each middle column whose
// units are counted together, once for each unit counted alone.
func (q *ConstrainedCounter) Listing() (time.Duration, int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.listing, q.lists
}

// Question identifies the number of solutions counted (see
// QueensConstraint.Question).
func (q *ConstrainedCounter) Question() []byte { return q.c.Question() }

// Units lists the counter's units.
func (q *ConstrainedCounter) Units() []ConstrainedUnit { return q.units }

// UnitsKey identifies the counter's units, to save and resume them by:
// the way it counts (with the cut row, so that the units of another cut
// are never taken for its own) and the filter as typed. It is not the
// Question: the images of a filter share their answer, but each is cut
// into units of its own.
func (q *ConstrainedCounter) UnitsKey() []byte {
	kind := "units of the search "
	if q.split != nil && q.transposed {
		kind = "units of the halves cut " + q.cutPlace() + ", transposed "
	} else if q.split != nil {
		kind = "units of the halves cut " + q.cutPlace() + " "
	} else if q.halves {
		kind = "units of the halves "
	}
	return append([]byte(kind), q.c.Key()...)
}

// cutPlace is where a cut count cuts the board: "below row 16", or
// "right of column 15" when it counts the filter's transpose.
func (q *ConstrainedCounter) cutPlace() string {
	if q.transposed {
		return fmt.Sprintf("right of column %d", q.split.s)
	}
	return fmt.Sprintf("below row %d", q.split.s)
}

// Method names the way the count goes.
func (q *ConstrainedCounter) Method() string {
	cut := ""
	if q.weights != nil || q.c.Mirrored() {
		cut = ", cut by the filter's own symmetry"
	}
	if q.split != nil {
		return "halves counter cut " + q.cutPlace() + cut
	}
	if q.halves {
		return "halves counter" + cut
	}
	return "row-by-row search" + cut
}

// Count counts the units todo (indexes into Units, in increasing order) on
// up to workers goroutines, handing each unit's count to done in the order
// of todo, from one goroutine.
func (q *ConstrainedCounter) Count(ctx context.Context, todo []int, workers int, done func(i int, solutions int64) error) error {
	if q.halves {
		for _, i := range todo {
			q.blocksFor(q.units[i].Mid).units++
		}
	}
	// Units stop within milliseconds of Ctrl-C: a stopped unit's count,
	// cut short, is -1 and is never handed on.
	q.stop.Store(false)
	ended := make(chan struct{})
	defer close(ended)
	go func() {
		select {
		case <-ctx.Done():
			q.stop.Store(true)
		case <-ended:
		}
	}()
	return runOrdered(ctx, len(todo), workers, func(k int) int64 {
		return q.countUnit(q.units[todo[k]])
	}, func(k int, solutions int64) error {
		if q.halves {
			q.finished(q.units[todo[k]].Mid)
		}
		if solutions < 0 {
			return context.Canceled
		}
		return done(todo[k], solutions)
	})
}

// CountAll counts every unit, as Count does.
func (q *ConstrainedCounter) CountAll(ctx context.Context, workers int, done func(solutions int64) error) error {
	todo := make([]int, len(q.units))
	for i := range todo {
		todo[i] = i
	}
	return q.Count(ctx, todo, workers, func(_ int, s int64) error { return done(s) })
}

// blocksFor is the (not yet listed) blocks' record of middle column mid.
func (q *ConstrainedCounter) blocksFor(mid int) *constrainedBlocks {
	q.mu.Lock()
	defer q.mu.Unlock()
	b := q.blocks[mid]
	if b == nil {
		b = &constrainedBlocks{}
		q.blocks[mid] = b
	}
	return b
}

// finished notes a unit of middle column mid done, and lets its blocks go
// after the last: they take up to hundreds of megabytes.
func (q *ConstrainedCounter) finished(mid int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	b := q.blocks[mid]
	b.spent++
	if b.spent == b.units {
		delete(q.blocks, mid)
	}
}

// listed gives the blocks of middle column mid, listing them the first
// time, or nil if the count was stopped first.
func (q *ConstrainedCounter) listed(mid int) *constrainedBlocks {
	b := q.blocksFor(mid)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.top != nil && b.bottom != nil {
		return b
	}
	func() {
		began := time.Now()
		defer func() {
			q.mu.Lock()
			q.listing, q.lists = q.listing+time.Since(began), q.lists+1
			q.mu.Unlock()
		}()
		if q.split != nil {
			b.top, b.bottom = q.split.listSplit(q.c, &q.stop)
			return
		}
		n, h := q.c.N, q.c.N/2
		c := q.c
		b.free = uint32(1)<<n - 1
		if mid >= 0 {
			// The middle queen fixed: its column and diagonals leave the
			// other rows as any fixed queen's do.
			c = c.Clone()
			c.Allowed[h] = 1 << mid
			c = c.propagated()
			b.free &^= 1 << mid
		}
		top, bottom := make([]uint32, h), make([]uint32, h)
		for r := range h {
			// Row r of the top half is the board's row r; of the bottom
			// half, turned upside down, row n-1-r.
			top[r], bottom[r] = c.Allowed[r], c.Allowed[n-1-r]
		}
		done := make(chan struct{})
		go func() {
			b.bottom = newHalvesBlocksIn(n, bottom, &q.stop)
			close(done)
		}()
		b.top = newHalvesBlocksIn(n, top, &q.stop)
		<-done
	}()
	if b.top == nil || b.bottom == nil {
		return nil // stopped: listed again if counted again
	}
	return b
}

// countUnit counts one unit's solutions.
func (q *ConstrainedCounter) countUnit(u ConstrainedUnit) int64 {
	if !q.halves {
		c := q.c.Clone()
		c.Allowed[q.splitRow] = 1 << u.Mid
		if u.From >= 0 {
			c.Allowed[q.splitRow+1] = 1 << u.From
		}
		n, stopped := searchStoppable(c, bits.TrailingZeros32(c.Allowed[0]), &q.stop)
		if stopped {
			return -1
		}
		return q.searchWeight[u.Mid] * n
	}
	b := q.listed(u.Mid)
	if b == nil {
		return -1
	}
	m, _ := q.pool.Get().(*halvesMatcher)
	if m == nil {
		m = newHalvesMatcher(q.c.N, nil)
		if q.split != nil {
			m = newSplitMatcher(q.c.N)
		}
	}
	defer q.pool.Put(m)
	m.vector = q.vector
	if q.split != nil {
		var weights []uint8
		if q.weights != nil {
			weights = q.weights[0][u.From:u.To]
		}
		return m.countSplitSets(b.top, b.bottom, q.sets[0][u.From:u.To], weights, &q.stop)
	}
	keyBits := uint64(1)<<(2*m.layout.fieldBits) - 1
	var total int64
	var weights []uint8
	if q.weights != nil {
		weights = q.weights[max(u.Mid, 0)][u.From:u.To]
	}
	for k, d := range q.sets[max(u.Mid, 0)][u.From:u.To] {
		if q.stop.Load() {
			return -1
		}
		w := int64(1)
		if weights != nil {
			w = int64(weights[k])
		}
		m.blocks = b.top
		m.halvesX = m.halves(m.halvesX[:0], d, 0)
		if len(m.halvesX) == 0 {
			continue
		}
		m.blocks = b.bottom
		m.halvesY = m.halves(m.halvesY[:0], b.free^d, 0)
		if len(m.halvesY) == 0 {
			continue
		}
		allX, _ := orKeys(m.halvesX, m.vector)
		allY, _ := orKeys(m.halvesY, m.vector)
		total += w * m.match(m.halvesX, m.halvesY, m.layout.top(allX)&allY&keyBits)
	}
	m.blocks = nil
	return total
}

// searchConstrained counts the solutions under c whose first-row queen is
// in column first, row by row.
func searchConstrained(c QueensConstraint, first int) int64 {
	n, _ := searchStoppable(c, first, nil)
	return n
}

// searchStoppable is searchConstrained that gives up (stopped true) soon
// after stop is set; stop may be nil. It looks at stop in the rows above
// the last few, whose nodes are a small share of the search's.
func searchStoppable(c QueensConstraint, first int, stop *atomic.Bool) (count int64, stopped bool) {
	n := c.N
	all := uint64(1)<<n - 1
	look := -1 // the rows that look at stop: those above it
	if stop != nil {
		look = n - 6
	}
	var place func(r int, cols, left, right uint64) int64
	place = func(r int, cols, left, right uint64) int64 {
		if r == n {
			return 1
		}
		if r < look && stop.Load() {
			stopped = true
			return 0
		}
		var count int64
		for free := all &^ (cols | left | right) & uint64(c.Allowed[r]); free != 0 && !stopped; free &= free - 1 {
			bit := free & -free
			count += place(r+1, cols|bit, (left|bit)<<1&all, (right|bit)>>1)
		}
		return count
	}
	bit := uint64(1) << first
	if c.Allowed[0]&uint32(bit) == 0 {
		return 0, false
	}
	count = place(1, bit, bit<<1&all, bit>>1)
	return count, stopped
}

// CountQueensConstrained counts the solutions of queens:n under c on up to
// workers goroutines (0: one per core).
func CountQueensConstrained(ctx context.Context, c QueensConstraint, workers int) (int64, error) {
	q, err := NewConstrainedCounter(c)
	if err != nil {
		return 0, err
	}
	var total int64
	err = q.CountAll(ctx, workers, func(s int64) error {
		total += s
		return nil
	})
	return total, err
}

// The symmetries the halves counter cuts by: those that keep rows in the
// same half or swap the halves whole, acting on a solution's (middle
// column, top column set).
type flip int

const (
	flipMirror   flip = iota // left to right: column c to n-1-c
	flipUpDown               // rows r to n-1-r: the halves swap
	flipHalfTurn             // both
)

// keptFlips lists the flips that keep c: a solution meets c exactly when
// its image does, so the two count alike.
func keptFlips(c QueensConstraint) []flip {
	n := c.N
	mirror, upDown, halfTurn := true, true, true
	for r, a := range c.Allowed {
		mirror = mirror && a == reverseBits(a, n)
		upDown = upDown && a == c.Allowed[n-1-r]
		halfTurn = halfTurn && reverseBits(a, n) == c.Allowed[n-1-r]
	}
	var out []flip
	for f, ok := range []bool{mirror, upDown, halfTurn} {
		if ok {
			out = append(out, flip(f))
		}
	}
	return out
}

// image is (mid, d) under f: the top set of the image is d mirrored, or
// the bottom's set (the columns d leaves of those besides the middle's).
func (f flip) image(n, mid int, d uint32) (int, uint32) {
	free := uint32(1)<<n - 1
	if mid >= 0 {
		free &^= 1 << mid
	}
	switch f {
	case flipMirror:
		return mirrorMid(n, mid), reverseBits(d, n)
	case flipUpDown:
		return mid, free ^ d
	}
	return mirrorMid(n, mid), reverseBits(free^d, n)
}

func mirrorMid(n, mid int) int {
	if mid < 0 {
		return mid
	}
	return n - 1 - mid
}

// representatives keeps, of one middle column's top sets, those that are
// the least of their images under the kept flips (by middle column, then
// set), each with the number of distinct images it stands for; a middle
// column whose mirror image is less keeps none.
func representatives(n, mid int, sets []uint32, kept []flip) ([]uint32, []uint8) {
	var out []uint32
	var weights []uint8
	for _, d := range sets {
		least := true
		images := [][2]int64{{int64(mid), int64(d)}}
		for _, f := range kept {
			m2, d2 := f.image(n, mid, d)
			if m2 < mid || m2 == mid && d2 < d {
				least = false
				break
			}
			img := [2]int64{int64(m2), int64(d2)}
			if !slices.Contains(images, img) {
				images = append(images, img)
			}
		}
		if least {
			out = append(out, d)
			weights = append(weights, uint8(len(images)))
		}
	}
	return out, weights
}
