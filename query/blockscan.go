package query

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"

	"solcat/catalog"
)

// A block scan tests a block's solutions eight at a time: a cell's values
// for eight consecutive solutions are one uint64 of the block's column,
// and one word operation compares all eight with a condition's value
// (SWAR). A match mask has the high bit of lane i set when solution 8j+i
// of the block matches; the masks of a block's conditions are ANDed.

const (
	lowBits  = 0x7f7f7f7f7f7f7f7f
	highBits = 0x8080808080808080
	oneBytes = 0x0101010101010101
)

// equalLanes sets the high bit of each byte lane of x that equals v.
// Adding 0x7f to the low seven bits of a lane sets its high bit unless they
// are all zero, and no carry crosses lanes.
func equalLanes(x uint64, v byte) uint64 {
	d := x ^ oneBytes*uint64(v)
	return ^((d&lowBits + lowBits) | d | lowBits)
}

// lanes is the mask of lanes a to b (inclusive) of a word.
func lanes(a, b int) uint64 {
	return highBits & (^uint64(0) << (8 * a)) & (^uint64(0) >> (8 * (7 - b)))
}

// mayMatch reports whether a block may hold a solution meeting conds:
// false when its synopsis shows a cell never holds a value it must.
func mayMatch(b *catalog.Block, conds []byteCondition) bool {
	for _, c := range conds {
		if c.Equal && !b.MayHold(c.Pos, c.Value) {
			return false
		}
	}
	return true
}

// matchBlock fills masks with the match masks of the block's solutions
// with IDs lo to hi that meet conds, and returns how many words it filled
// (masks holds at least maxBlockWords).
func matchBlock(b *catalog.Block, conds []byteCondition, lo, hi int64, masks []uint64) int {
	kLo, kHi := int(max(lo-b.First, 0)), int(min(hi-b.First, int64(b.N-1)))
	if kLo > kHi {
		return 0
	}
	words := (b.N + 7) / 8
	for j := range words {
		masks[j] = lanes(max(kLo-8*j, 0), min(kHi-8*j, 7))
	}
	var tail [8]byte
	for _, c := range conds {
		col := b.Column(c.Pos)
		for j := range words {
			m := masks[j]
			if m == 0 {
				continue
			}
			var x uint64
			if 8*j+8 <= len(col) {
				x = binary.LittleEndian.Uint64(col[8*j:])
			} else {
				tail = [8]byte{}
				copy(tail[:], col[8*j:])
				x = binary.LittleEndian.Uint64(tail[:])
			}
			eq := equalLanes(x, c.Value)
			if c.Equal {
				masks[j] = m & eq
			} else {
				masks[j] = m &^ eq
			}
		}
	}
	return words
}

// maxBlockWords is how many match-mask words the largest block takes.
const maxBlockWords = 1024 / 8

// countMasks is how many solutions the masks mark.
func countMasks(masks []uint64) int64 {
	var n int
	for _, m := range masks {
		n += bits.OnesCount64(m)
	}
	return int64(n)
}

// conditionCells lists the cells conds test, each once.
func conditionCells(conds []byteCondition) []int {
	cells := []int{}
	for _, c := range conds {
		if !slices.Contains(cells, c.Pos) {
			cells = append(cells, c.Pos)
		}
	}
	return cells
}

// paddedCount is one goroutine's running count on a cache line of its
// own: counts of several goroutines side by side would share a line, and
// each add of one would take it from the others.
type paddedCount struct {
	n int64
	_ [56]byte
}

// countBlocks counts the solutions with IDs lo to hi that meet conds,
// from the blocks alone, on workers goroutines: no solution is decoded.
// With classes it counts their distinct classes instead.
func (t *BoundPuzzle) countBlocks(ctx context.Context, conds []byteCondition, lo, hi int64, workers int, classes bool) (int64, catalog.ScanReport, error) {
	workers = max(workers, 1)
	counts := make([]paddedCount, workers)
	masks := make([][]uint64, workers)
	seen := newClassSets(workers, t.Record.Classes, classes)
	for w := range workers {
		masks[w] = make([]uint64, maxBlockWords)
	}
	q := catalog.BlockScan{Lo: lo, Hi: hi, Cells: conditionCells(conds), Classes: classes, Workers: workers,
		Select: func(_ int, b *catalog.Block) bool { return mayMatch(b, conds) }}
	report, err := t.store.ScanBlocks(ctx, q, func(w int, b *catalog.Block) error {
		words := matchBlock(b, conds, lo, hi, masks[w])
		if !classes {
			counts[w].n += countMasks(masks[w][:words])
			return nil
		}
		for j, m := range masks[w][:words] {
			for m != 0 {
				k := 8*j + bits.TrailingZeros64(m)/8
				m &= m - 1
				// A damaged entry is no class: verify names it; a count cannot.
				if id, ok := b.ClassOf(k); ok {
					seen.mark(w, id)
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, report, err
	}
	if classes {
		return seen.count(), report, nil
	}
	var n int64
	for _, c := range counts {
		n += c.n
	}
	return n, report, nil
}

// eachMatch calls fn for each solution with an ID lo to hi that meets
// conds, on workers goroutines, in ID order within each (w); the
// solution's cells are valid only during the call.
func (t *BoundPuzzle) eachMatch(ctx context.Context, conds []byteCondition, lo, hi int64, workers int, fn func(w int, s catalog.StoredSolution) error) error {
	workers = max(workers, 1)
	masks := make([][]uint64, workers)
	cells := make([][]byte, workers)
	for w := range workers {
		masks[w], cells[w] = make([]uint64, maxBlockWords), apart(t.Puzzle.Len())
	}
	q := catalog.BlockScan{Lo: lo, Hi: hi, Workers: workers, Select: func(_ int, b *catalog.Block) bool { return mayMatch(b, conds) }}
	_, err := t.store.ScanBlocks(ctx, q, func(w int, b *catalog.Block) error {
		words := matchBlock(b, conds, lo, hi, masks[w])
		for j, m := range masks[w][:words] {
			for m != 0 {
				k := 8*j + bits.TrailingZeros64(m)/8
				m &= m - 1
				if err := fn(w, b.Solution(k, cells[w])); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return err
}

// ExplainReading is Explain with, for a block scan, how many blocks it
// reads and how many their synopses let it skip: found by reading the
// synopses, which takes a fraction of the scan's time, so only --explain
// asks for it.
func (t *BoundPuzzle) ExplainReading(ctx context.Context, p *Plan) PlanReport {
	r := t.Explain(p)
	var line string
	switch {
	case p.Way == ConstrainedCount && p.Question.Ask == AskCount:
		line = t.estimateLine(ctx, p)
	case p.Way == ClassScan && t.classesOnly() && (p.Question.Ask == AskCount || p.Question.Ask == AskCountClasses):
		m, ok := t.packedCountable(p)
		if !ok {
			return r
		}
		line = t.explainClassBlocks(ctx, p, &m)
	case p.Way != BlockScan || p.IDs.Len() == 0:
		return r
	default:
		line = t.explainBlocks(ctx, p)
	}
	at := slices.IndexFunc(r.Detail, func(d string) bool { return strings.HasPrefix(d, "filter: ") })
	if at < 0 {
		at = len(r.Detail)
	}
	r.Detail = slices.Insert(r.Detail, at, line)
	return r
}

// explainBlocks says how many blocks a block scan reads and how many their
// synopses let it skip, from the synopses alone.
func (t *BoundPuzzle) explainBlocks(ctx context.Context, p *Plan) string {
	var read, skipped atomic.Int64
	q := catalog.BlockScan{Lo: p.IDs.Lo, Hi: p.IDs.Hi, Workers: p.Workers, Cells: []int{}, Select: func(_ int, b *catalog.Block) bool {
		if mayMatch(b, p.rest) {
			read.Add(1)
		} else {
			skipped.Add(1)
		}
		return false
	}}
	_, err := t.store.ScanBlocks(ctx, q, func(int, *catalog.Block) error { return nil })
	switch layout := t.store.BlockLayout(); {
	case err != nil:
		return "blocks: cannot be counted: " + err.Error()
	case layout == 1:
		return fmt.Sprintf("blocks: %d read, none skipped: they are of an older layout (row-major, without synopses)", read.Load())
	case len(p.rest) == 0:
		return fmt.Sprintf("blocks: %d read, none skipped: no cell condition to skip one by", read.Load())
	case layout == 2:
		return fmt.Sprintf("blocks: %d read, %d skipped (their synopses show that no solution of theirs matches); the synopses lie in the blocks (an older layout), so every block is read to find them, and the blocks carry no checksums", read.Load(), skipped.Load())
	}
	return fmt.Sprintf("blocks: %d read, %d skipped (the block index shows that no solution of theirs matches); only the cells the filter names are read, each run checked against its checksum, and compared 8 solutions at a time", read.Load(), skipped.Load())
}

// explainClassBlocks says how many class blocks a count over packed forms
// reads and how many the class index lets it skip, and in how many
// symmetries' lanes the blocks it reads are compared on average, from the
// index alone.
func (t *BoundPuzzle) explainClassBlocks(ctx context.Context, p *Plan, m *packedMatch) string {
	var read, skipped, lanes atomic.Int64
	q := catalog.ClassBlockScan{Lo: p.Classes.Lo, Hi: p.Classes.Hi, Workers: p.Workers, Select: func(_ int, g *catalog.ClassGroup) uint32 {
		blocks := t.store.BlocksOf(g)
		if l := m.lanesFor(g); l != 0 {
			read.Add(blocks)
			lanes.Add(blocks * int64(bits.OnesCount64(l)))
		} else {
			skipped.Add(blocks)
		}
		return 0
	}}
	report, err := t.store.ScanClassBlocks(ctx, q, func(int, int64, []byte, uint32) error { return nil })
	switch {
	case err != nil:
		return "class blocks: cannot be counted: " + err.Error()
	case !t.store.ClassIndexed():
		return fmt.Sprintf("class blocks: %d read, none skipped: the puzzle was stored without a class index (an older layout), and its blocks carry no checksums", report.Read)
	case read.Load() == 0:
		return fmt.Sprintf("class blocks: none read, %d skipped (the class index shows that no class of theirs matches)", skipped.Load())
	}
	return fmt.Sprintf("class blocks: %d read, %d skipped (the class index shows that no class of theirs matches); each block read is checked against its checksum and its forms compared in %.1f of %d symmetries' lanes on average",
		read.Load(), skipped.Load(), float64(lanes.Load())/float64(read.Load()), m.syms)
}
