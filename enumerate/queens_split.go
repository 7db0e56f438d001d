package enumerate

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"solcat/canon"
)

// A filter moves the cheapest place to cut the board. The halves counter
// cuts it in the middle, which suits a whole count: both halves are alike.
// Under a filter the rows it fixes, and the rows next to them, have far
// fewer placements than free rows; cut in the middle, a filter on the top
// rows leaves the bottom half as large as in the whole count, and the
// count costs most of what the whole count of the bottom's column sets
// does. So a constrained count of queens:18 to queens:32 cuts the board
// below row s, for the s that makes the work least: the top half (rows
// 0..s-1, its queens on a column set D of s columns) and the bottom half
// (the other n-s rows, on the columns D leaves) are listed and matched
// just as the halves counter's are.
//
//   - Keys. A top's diagonals are carried down to row s, a bottom's (turned
//     upside down, a top of n-s rows) up to row s-1: the two rows are
//     adjacent, as for the halves counter on even n, so its key layout for
//     even n holds here for every n: 2(n-1) bits, 62 at queens:32.
//   - The cut. Knuth's estimator gives the number of placements of every
//     run of consecutive rows under the filter (each row's columns as the
//     filter and its queens' lines leave them). The work is about the
//     placements of the two halves, the pairs of tops and bottoms a column
//     set's table holds, and a little per column set; s is the cut with
//     the least, among those whose blocks (each half is an upper and a lower
//     block of rows, cut where their placements balance) fit in memory.
//   - Memory. Blocks are indexed by the rank of their column set among the
//     sets of as many columns in use (halfBlock.rank: at most C(32,16)
//     entries, not 2^32, and under a filter far fewer), and a
//     cut is taken only if each block holds at most blockCap placements:
//     about 16 bytes each, a few hundred megabytes a block. A filter that
//     leaves no such cut is counted by the row-by-row search.
//   - The tables. For each column set the smaller of the two lists is made
//     the table and the other matched against it (a top's key against the
//     bottom's is the same test either way round).
//   - Symmetry. A filter that is its own mirror image counts the column
//     sets no larger than their mirror image, twice unless their own.

// blockCap is the most placements a block of a cut may hold.
const blockCap = 12 << 20

// maxSplitSets is the most column sets a cut may go through.
const maxSplitSets = 40 << 20

// splitPlan is where a constrained count cuts the board.
type splitPlan struct {
	s      int // the top half: rows 0..s-1
	topCut int // the top's upper block: rows 0..topCut-1
	botCut int // the bottom's upper block, upside down: its last botCut rows
	// topMust and botMust are the columns that must be in the top's set,
	// and those that cannot; pick is how many others it takes.
	topMust, botMust uint32
	pick             int
	work             float64 // the estimated work, in placements
}

// binomial[n][k] is n choose k.
var binomial = func() (t [33][33]int64) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

// nextSameCount is the next larger number with as many bits set as x
// (x > 0; Gosper's hack): the subsets of a set's columns of one size, as
// numbers, come in the order of their rank.
func nextSameCount(x uint64) uint64 {
	low := x & -x
	next := x + low
	return next | (next^x)/low>>2
}

// placementEstimates estimates, for each row lo and number of rows k, the
// placements of queens on rows lo..lo+k-1 under c, by Knuth's estimator:
// each probe goes down from row lo, a random column at a time, its weight
// the product of the choices it had.
func placementEstimates(c QueensConstraint, probes int) [][]float64 {
	n := c.N
	all := uint64(1)<<n - 1
	rng := rand.New(rand.NewPCG(uint64(n), 41))
	est := make([][]float64, n)
	for lo := range n {
		est[lo] = make([]float64, n-lo+1)
		est[lo][0] = 1
		survived := make([]int, n-lo+1)
		for range probes {
			var cols, left, right uint64
			w := 1.0
			for r := lo; r < n; r++ {
				free := uint64(c.Allowed[r]) &^ (cols | left | right) & all
				k := bits.OnesCount64(free)
				if k == 0 {
					break
				}
				w *= float64(k)
				est[lo][r-lo+1] += w
				survived[r-lo+1]++
				for j := rng.IntN(k); j > 0; j-- {
					free &= free - 1
				}
				bit := free & -free
				cols |= bit
				left = (left | bit) << 1 & all
				right = (right | bit) >> 1
			}
		}
		for k := 1; k < len(est[lo]); k++ {
			est[lo][k] /= float64(probes)
			if survived[k] < minSurvivors {
				// Too few probes got this far to tell: on a free board
				// nearly every probe dies long before its placements run
				// out, and an estimate of 0 would take a block of
				// 10^20 placements for an empty one.
				est[lo][k] = math.Inf(1)
			}
		}
	}
	return est
}

// minSurvivors is the fewest probes that must reach a row for the
// estimate of the placements down to it to be taken.
const minSurvivors = 8

// chooseSplit finds the cut of the least work for the count under c
// (propagated), or false if no cut's blocks fit.
func chooseSplit(c QueensConstraint) (splitPlan, bool) {
	n := c.N
	est := placementEstimates(c, 2048)
	all := uint32(1)<<n - 1
	best := splitPlan{work: -1}
	for s := 2; s <= n-2; s++ {
		var topAny, botAny, topOne, botOne uint32
		for r, a := range c.Allowed {
			one := uint32(0)
			if bits.OnesCount32(a) == 1 {
				one = a
			}
			if r < s {
				topAny, topOne = topAny|a, topOne|one
			} else {
				botAny, botOne = botAny|a, botOne|one
			}
		}
		p := splitPlan{s: s}
		p.topMust = (topOne | all&^botAny) & all
		p.botMust = (botOne | all&^topAny) & all
		if p.topMust&p.botMust != 0 || bits.OnesCount32(p.topMust) > s || bits.OnesCount32(p.botMust) > n-s {
			return splitPlan{}, false // no solution: any cut counts 0
		}
		pool := all &^ p.topMust &^ p.botMust
		p.pick = s - bits.OnesCount32(p.topMust)
		sets := float64(binomial[bits.OnesCount32(pool)][p.pick])
		if sets > maxSplitSets {
			continue
		}
		var topList, botList float64
		p.topCut, topList = cheapestCut(c, est, 0, s, false, sets)
		p.botCut, botList = cheapestCut(c, est, s, n, true, sets)
		if topList < 0 || botList < 0 {
			continue
		}
		tops, bottoms := est[0][s], est[s][n-s]
		// Listing both halves, matching the smaller list of a set against
		// the other's table (512 a step), and a little per set.
		p.work = topList + botList + math.Max(tops, bottoms)*math.Max(1, math.Min(tops, bottoms)/(512*max(sets, 1))) + 200*sets
		if best.work < 0 || p.work < best.work {
			best = p
		}
	}
	return best, best.work >= 0
}

// newCheapestSplit prepares the count under c (propagated) cut where the
// work is least, or nil if no cut's blocks fit. A solution meets c
// exactly when its transpose meets c's transpose, so the transposed
// filter counts alike, and it often cuts far cheaper: a filter on the top
// rows leaves every row below them nearly free, but taken as columns it
// fixes a queen in rows spread down the board, and each free row keeps
// fewer placements (queens:26 with its first 6 rows fixed: 1.6 times
// less work). A filter that is its own mirror image counts half its
// column sets; its transpose, mirrored top to bottom, does not.
func newCheapestSplit(c QueensConstraint) *ConstrainedCounter {
	p, ok := chooseSplit(c)
	t := c.image(canon.Transpose).propagated()
	if slices.Equal(t.Allowed, c.Allowed) {
		// Its own transpose (a queen in the corner): the same plan.
		if !ok {
			return nil
		}
		return newSplitCounter(c, p)
	}
	pt, tok := chooseSplit(t)
	work := func(p splitPlan, c QueensConstraint) float64 {
		if c.Mirrored() {
			return p.work / 2
		}
		return p.work
	}
	switch {
	case tok && (!ok || work(pt, t) < work(p, c)):
		q := newSplitCounter(t, pt)
		q.transposed = true
		return q
	case ok:
		return newSplitCounter(c, p)
	}
	return nil
}

// cheapestCut cuts rows from..to-1 into an upper and a lower block where
// listing the half costs least: the nodes and placements of both blocks'
// searches, the pairs of them on disjoint columns, which the listing tests
// (a node as dear as 96 pairs: the pairs go 8 at a time through the larger
// of the two blocks' lists of a column set, and most stay in the cache),
// and the splits of each of the half's column sets into the blocks' sets.
// up: the half is turned upside down, its upper block its last rows. The
// cost is -1 if no cut's blocks fit. The weights are fitted to the times
// of 327 cuts of queens:24's six-cell filter (median error 8%).
func cheapestCut(c QueensConstraint, est [][]float64, from, to int, up bool, sets float64) (cut int, cost float64) {
	cost = -1
	rows := to - from
	// The nodes of the search that lists a block: its partial placements.
	nodes := func(from, k int) (sum float64) {
		for _, e := range est[from][1 : k+1] {
			sum += e
		}
		return sum
	}
	// The columns the half's rows with a choice share: a row with one
	// column keeps it from every other row (the filter is propagated), so
	// a block's placements meet the other block's only on the others.
	var pool, fixed uint32
	for _, a := range c.Allowed[from:to] {
		pool |= a
		if bits.OnesCount32(a) == 1 {
			fixed |= a
		}
	}
	free := bits.OnesCount32(pool &^ fixed)
	fixedIn := func(from, k int) (f int) {
		for _, a := range c.Allowed[from : from+k] {
			if bits.OnesCount32(a) == 1 {
				f++
			}
		}
		return f
	}
	for k := 1; k < rows; k++ {
		from1, from2 := from, from+k
		if up {
			from1, from2 = to-k, from
		}
		p1, p2 := est[from1][k], est[from2][rows-k]
		if p1 > blockCap || p2 > blockCap {
			continue
		}
		// Of a set of the k1 columns a first-block placement takes with a
		// choice and one of the l1 of the second, the share disjoint.
		k1, l1 := k-fixedIn(from1, k), rows-k-fixedIn(from2, rows-k)
		disjoint := 0.0
		if free-k1 >= l1 {
			disjoint = float64(binomial[free-k1][l1]) / float64(binomial[free][l1])
		}
		// Each column set of the half is cut into its two blocks' sets
		// every way their free rows can share its free columns: each way
		// costs the lookups of the sets' placements and a join begun, as
		// much as 2.5 nodes. A placement listed costs two nodes more: 36
		// bytes of fresh memory written, and sorted by its set (pages the
		// kernel clears cost most of it).
		splits := sets * float64(binomial[k1+l1][k1])
		c := 4*(nodes(from1, k)+nodes(from2, rows-k)) + 8*(p1+p2) + p1*p2*disjoint/24 + 10*splits
		if cost < 0 || c < cost {
			cut, cost = k, c
		}
	}
	return cut, cost
}

// splitLayout is the key layout of a cut counter: that of even n (see
// the design note), for any n.
func splitLayout(n int) keyLayout {
	return keyLayout{fieldBits: n - 1, field: 1<<(n-1) - 1}
}

// newSplitMatcher is a halves matcher for a cut counter of queens:n.
func newSplitMatcher(n int) *halvesMatcher {
	m := newHalvesMatcher(n, nil)
	m.layout = splitLayout(n)
	m.table.chunks = (2*m.layout.fieldBits + m.table.chunkBits - 1) / m.table.chunkBits
	h, f := n/2, m.layout.fieldBits
	m.table.cuts = [4]int{h - 4, h - 2, f + h - 2, f + h}
	return m
}

// splitSets lists the top's column sets of the cut: those with every
// column it must have, none it cannot, and pick others.
func (p splitPlan) splitSets(n int) []uint32 {
	all := uint32(1)<<n - 1
	pool := all &^ p.topMust &^ p.botMust
	if p.pick == 0 {
		return []uint32{p.topMust}
	}
	sets := topSets(pool, p.pick)
	for i := range sets {
		sets[i] |= p.topMust
	}
	return sets
}

// listSplit lists the blocks of the two halves of the cut under c, or nil
// if stop was set first.
func (p splitPlan) listSplit(c QueensConstraint, stop *atomic.Bool) (top, bottom *halvesBlocks) {
	n := c.N
	lay := splitLayout(n)
	// Ranked: an index of C(n, k) entries, not 2^n, stays in the caches.
	const ranked = true
	rowsUp := make([]uint32, n-p.s)
	for r := range rowsUp {
		rowsUp[r] = c.Allowed[n-1-r]
	}
	list := func(rows, cut int, allowed []uint32) *halvesBlocks {
		b := &halvesBlocks{}
		done := make(chan struct{})
		go func() {
			b.lower = newHalfBlockAt(n, rows, cut, rows-cut, false, allowed, stop, lay, ranked)
			close(done)
		}()
		b.upper = newHalfBlockAt(n, rows, 0, cut, true, allowed, stop, lay, ranked)
		<-done
		if b.upper == nil || b.lower == nil {
			return nil
		}
		return b
	}
	done := make(chan struct{})
	go func() {
		bottom = list(n-p.s, p.botCut, rowsUp)
		close(done)
	}()
	top = list(p.s, p.topCut, c.Allowed[:p.s])
	<-done
	if top == nil || bottom == nil {
		return nil, nil
	}
	return top, bottom
}

// splitHalves appends the keys of the half's placements on exactly the
// columns d (as halves does), going through the upper block's column sets
// with placements, or the sets of its size in d, whichever costs less.
func (m *halvesMatcher) splitHalves(dst []uint64, d uint32) []uint64 {
	up, low := m.blocks.upper, m.blocks.lower
	var pairs, swappedPairs int64
	splits, swapped := m.splits[:0], m.swapped[:0]
	pair := func(uFrom, uTo, lFrom, lTo int) {
		// The join goes 8 at a time through the placements of one block
		// for each of the other's: through the larger set.
		if uTo-uFrom > lTo-lFrom {
			swappedPairs += int64(uTo-uFrom) * int64(lTo-lFrom)
			swapped = append(swapped, int32(lFrom), int32(lTo), int32(uFrom), int32(uTo))
			return
		}
		pairs += int64(uTo-uFrom) * int64(lTo-lFrom)
		splits = append(splits, int32(uFrom), int32(uTo), int32(lFrom), int32(lTo))
	}
	add := func(q uint32, uFrom, uTo int) {
		if lFrom, lTo := low.on(d ^ q); lFrom < lTo {
			pair(uFrom, uTo, lFrom, lTo)
		}
	}
	// The upper block's sets in d: its fixed columns and pick of its free
	// ones in d.
	if up.fixed&^d != 0 || low.fixed&^d != 0 {
		return dst
	}
	free := d & up.free
	k, pick := bits.OnesCount32(free), up.pick
	// A set of a list costs a test of its columns; a set of d's columns,
	// a lookup of its rank, several times dearer (and one more for the
	// other block's set, which a set of the lower block's list looks up
	// only when it is in d).
	if cost := 8 * binomial[k][pick]; int64(len(low.sets)) < min(cost, int64(len(up.sets))) {
		for _, i := range m.setsIn(low.sets, d) {
			l := low.sets[i]
			if uFrom, uTo := up.on(d ^ l); uFrom < uTo {
				pair(uFrom, uTo, int(low.setFrom[i]), int(low.setFrom[i+1]))
			}
		}
	} else if int64(len(up.sets)) < cost {
		for _, i := range m.setsIn(up.sets, d) {
			add(up.sets[i], int(up.setFrom[i]), int(up.setFrom[i+1]))
		}
	} else {
		var cols [32]uint32
		i := 0
		for x := free; x != 0; x &= x - 1 {
			cols[i] = x & -x
			i++
		}
		// Gosper's hack on the ranks of those columns, mapped back.
		for r := uint64(1)<<pick - 1; r < 1<<k; {
			q := up.fixed
			for x := r; x != 0; x &= x - 1 {
				q |= cols[bits.TrailingZeros64(x)]
			}
			if uFrom, uTo := up.on(q); uFrom < uTo {
				add(q, uFrom, uTo)
			}
			if r == 0 {
				break
			}
			r = nextSameCount(r)
		}
	}
	m.splits = append(splits, make([]int32, joinReadAhead)...)
	splits = m.splits[:len(splits)]
	m.swapped = append(swapped, make([]int32, joinReadAhead)...)
	swapped = m.swapped[:len(swapped)]
	m.nodes += pairs + swappedPairs
	if len(splits) > 0 {
		dst = joinHalves(dst, m.blocks, splits, pairs, 0, m.vector, &m.scratch)
	}
	if len(swapped) > 0 {
		// The pairs' keys are the same sums either way round.
		turned := &halvesBlocks{upper: low, lower: up}
		dst = joinHalves(dst, turned, swapped, swappedPairs, 0, m.vector, &m.scratch)
	}
	return dst
}

// setsIn gives the indexes of the sets within d. They are gathered first,
// without a branch a set: whether a set is within d is a coin toss that
// the processor guesses wrong about as often as not.
func (m *halvesMatcher) setsIn(sets []uint32, d uint32) []int32 {
	in := slices.Grow(m.setsWithin[:0], len(sets))[:len(sets)]
	k := 0
	for i, q := range sets {
		in[k] = int32(i)
		if q&^d == 0 {
			k++
		}
	}
	m.setsWithin = in
	return in[:k]
}

// countSplitSets counts the solutions of the cut's column sets, weighted;
// -1 if stopped.
func (m *halvesMatcher) countSplitSets(top, bottom *halvesBlocks, sets []uint32, weights []uint8, stop *atomic.Bool) int64 {
	keyBits := uint64(1)<<(2*m.layout.fieldBits) - 1
	var total int64
	for k, d := range sets {
		if stop.Load() {
			return -1
		}
		m.blocks = top
		m.halvesX = m.splitHalves(m.halvesX[:0], d)
		if len(m.halvesX) == 0 {
			continue
		}
		m.blocks = bottom
		m.halvesY = m.splitHalves(m.halvesY[:0], m.all^d)
		if len(m.halvesY) == 0 {
			continue
		}
		allX, _ := orKeys(m.halvesX, m.vector)
		allY, _ := orKeys(m.halvesY, m.vector)
		var n int64
		if len(m.halvesX) <= len(m.halvesY) {
			n = m.match(m.halvesX, m.halvesY, m.layout.top(allX)&allY&keyBits)
		} else {
			n = m.match(m.halvesY, m.halvesX, m.layout.top(allY)&allX&keyBits)
		}
		if weights != nil {
			n *= int64(weights[k])
		}
		total += n
	}
	m.blocks = nil
	return total
}

// Halves reports whether the count matches halves of the board (cut where
// the filter makes the work least, or in the middle), rather than
// searching row by row.
func (q *ConstrainedCounter) Halves() bool { return q.halves }

// Cut reports whether the count cuts the board where the filter makes the
// work least, and below which row (right of which column if Transposed).
func (q *ConstrainedCounter) Cut() (row int, ok bool) {
	if q.split == nil {
		return 0, false
	}
	return q.split.s, true
}

// Transposed reports whether the count cuts the board between columns,
// counting the filter's transpose (see newCheapestSplit).
func (q *ConstrainedCounter) Transposed() bool { return q.transposed }

// sampleUnits is how many units Sample counts at least, where it may.
const sampleUnits = 8

// Sample lists the blocks of rows a cut count needs, kept for the count
// from then on, and counts units on one goroutine, spread over all of
// them (the middle one, then the quarters, ...), until budget is spent
// and sampleUnits are counted (while they are a tenth of the units at
// most, within ten budgets): the time the listing took, the time the
// units took, and their counts.
// A unit still counting after longest is stopped: then took is the time
// it had taken, a lower bound of one unit's time, and short is set.
func (q *ConstrainedCounter) Sample(ctx context.Context, budget, longest time.Duration) (listing, took time.Duration, counted map[int]int64, short bool, err error) {
	if !q.halves || len(q.units) == 0 {
		return 0, 0, nil, false, nil
	}
	q.stop.Store(false)
	ended := make(chan struct{})
	defer close(ended)
	var timedOut atomic.Bool
	go func() {
		select {
		case <-ctx.Done():
			q.stop.Store(true)
		case <-ended:
		}
	}()
	// Held: the blocks stay listed for the count (finished never lets go).
	// Cut in the middle, each middle column's blocks are listed as its
	// first unit is timed, and their time counts as the unit's.
	held := map[int]bool{}
	hold := func(mid int) {
		if !held[mid] {
			held[mid] = true
			q.blocksFor(mid).units++
		}
	}
	began := time.Now()
	if q.split != nil {
		hold(-1)
		if q.listed(-1) == nil {
			return 0, 0, nil, false, ctx.Err()
		}
	}
	listing = time.Since(began)
	counted = map[int]int64{}
	began = time.Now()
	timer := time.AfterFunc(longest, func() {
		timedOut.Store(true)
		q.stop.Store(true)
	})
	defer timer.Stop()
	units := len(q.units)
	// Two or three units judge a count of hundreds badly where units
	// differ severalfold; those counted are kept, so more cost little.
	more := func() bool {
		spent := time.Since(began)
		return spent < budget || len(counted) < sampleUnits && 10*len(counted) < units && spent < 10*budget
	}
	for step := units; more(); step /= 2 {
		for i := step / 2; i < units && more(); i += step {
			if _, ok := counted[i]; ok {
				continue
			}
			hold(q.units[i].Mid)
			n := q.countUnit(q.units[i])
			if n < 0 && timedOut.Load() && ctx.Err() == nil {
				q.stop.Store(false)
				return listing, time.Since(began), counted, true, nil
			}
			if n < 0 {
				return 0, 0, nil, false, ctx.Err()
			}
			counted[i] = n
		}
		if step <= 1 {
			break
		}
	}
	return listing, time.Since(began), counted, false, nil
}
