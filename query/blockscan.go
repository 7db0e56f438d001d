package query

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"

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

// blockStats is what a block scan read and skipped.
type blockStats struct{ read, skipped int64 }

// countBlocks counts the solutions with IDs lo to hi that meet conds,
// from the blocks alone: no solution is decoded. With seen, a bit per
// class, it marks their classes too.
func (t *BoundPuzzle) countBlocks(ctx context.Context, conds []byteCondition, lo, hi int64, st *blockStats, seen []uint64) (int64, error) {
	masks := make([]uint64, maxBlockWords)
	var n int64
	var cells []int
	for _, c := range conds {
		if !slices.Contains(cells, c.Pos) {
			cells = append(cells, c.Pos)
		}
	}
	err := t.store.BlockColumns(ctx, lo, hi, cells, seen != nil, func(b *catalog.Block) error {
		if !mayMatch(b, conds) {
			st.skipped++
			return nil
		}
		st.read++
		words := matchBlock(b, conds, lo, hi, masks)
		n += countMasks(masks[:words])
		if seen == nil {
			return nil
		}
		for j, m := range masks[:words] {
			for m != 0 {
				k := 8*j + bits.TrailingZeros64(m)/8
				m &= m - 1
				// A damaged entry is no class: verify names it; a count cannot.
				if id, ok := b.ClassOf(k); ok && id >= 1 && id <= t.Record.Classes {
					seen[id/64] |= 1 << (id % 64)
				}
			}
		}
		return nil
	})
	return n, err
}

// eachMatch calls fn, in ID order, for each solution with an ID lo to hi
// that meets conds; the solution's cells are valid only during the call.
func (t *BoundPuzzle) eachMatch(ctx context.Context, conds []byteCondition, lo, hi int64, fn func(catalog.StoredSolution) error) error {
	masks := make([]uint64, maxBlockWords)
	cells := make([]byte, t.Puzzle.Len())
	return t.store.Blocks(ctx, lo, hi, func(b *catalog.Block) error {
		if !mayMatch(b, conds) {
			return nil
		}
		words := matchBlock(b, conds, lo, hi, masks)
		for j, m := range masks[:words] {
			for m != 0 {
				k := 8*j + bits.TrailingZeros64(m)/8
				m &= m - 1
				if err := fn(b.Solution(k, cells)); err != nil {
					return err
				}
			}
		}
		return nil
	})
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
// synopses let it skip.
func (t *BoundPuzzle) explainBlocks(ctx context.Context, p *Plan) string {
	var st blockStats
	err := t.store.BlockColumns(ctx, p.IDs.Lo, p.IDs.Hi, nil, false, func(b *catalog.Block) error {
		if mayMatch(b, p.rest) {
			st.read++
		} else {
			st.skipped++
		}
		return nil
	})
	switch {
	case err != nil:
		return "blocks: cannot be counted: " + err.Error()
	case !t.store.ColumnBlocks():
		return fmt.Sprintf("blocks: %d read, none skipped: they are of an older layout (row-major, without synopses); 'solcat build %s --force' stores them as column blocks", st.read, t.Puzzle)
	case len(p.rest) == 0:
		return fmt.Sprintf("blocks: %d read, none skipped: no cell condition to skip one by", st.read)
	}
	return fmt.Sprintf("blocks: %d read, %d skipped (their synopses show that no solution of theirs matches); only the cells the filter names are compared, 8 solutions at a time", st.read, st.skipped)
}
