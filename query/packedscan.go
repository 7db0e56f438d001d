package query

import (
	"context"
	"encoding/binary"
	"math/bits"
	"slices"
	"sort"

	"solcat/canon"
	"solcat/catalog"
)

// A classes-only puzzle's canonical forms are packed 5 bits a cell (magic:
// the value less 1) or a row (queens: the 0-based column), most
// significant first, in at most 128 bits. The conditions a filter's cells
// pull back to through one symmetry are then one mask and one pattern over
// those bits, and a form meets them when its bits under the mask are the
// pattern: eight masked compares test a class against all eight
// symmetries, without unpacking it, reading each form's bytes in place.

// packedMatch is a filter's equality conditions as masks and patterns over
// packed forms, one per symmetry whose conditions can hold together.
type packedMatch struct {
	syms       int // how many of mask, want, weight and conds are used
	mask, want [8][2]uint64
	weight     [8]int64 // how many symmetries pull the conditions back to these
	conds      [8][]byteCondition
	of         [8]uint8 // the symmetries (indexes of canon.All, a bit each) that pull back to these
	vec        *packedVec
}

// packedVec is a packedMatch as the vector loop reads it: a lane per
// symmetry, the masks and patterns byte swapped to compare the forms'
// words as they lie in memory.
type packedVec struct {
	maskHi, wantHi, maskLo, wantLo [8]uint64
	weight                         [8]int64
}

// vector fills m.vec from the masks.
func (m *packedMatch) vector() {
	v := &packedVec{}
	swap := bits.ReverseBytes64
	for s := range 8 {
		if s < m.syms {
			v.maskHi[s], v.wantHi[s], v.maskLo[s], v.wantLo[s], v.weight[s] = swap(m.mask[s][0]), swap(m.want[s][0]), swap(m.mask[s][1]), swap(m.want[s][1]), m.weight[s]
		}
	}
	m.vec = v
}

// field places a 5-bit value at field k of a packed form, as (high, low)
// 64-bit words.
func field(k int, v uint64) (hi, lo uint64) {
	switch shift := 128 - 5 - 5*k; {
	case shift >= 64:
		return v << (shift - 64), 0
	case shift+5 <= 64:
		return 0, v << shift
	default:
		return v >> (64 - shift), v << shift
	}
}

// newPackedMatch turns the pulled-back conditions into masks; ok is false
// when some condition is not an equality, which needs the general path.
func newPackedMatch(p canon.Puzzle, imageConds *[8][]byteCondition) (m packedMatch, ok bool) {
	for k, conds := range imageConds {
		var mask, want [2]uint64
		possible := true
		for _, c := range conds {
			if !c.Equal {
				return packedMatch{}, false
			}
			v := int(c.Value)
			if p.Kind == canon.Magic {
				v--
			}
			if v < 0 || v > 31 || c.Pos < 0 || 5*c.Pos+5 > 128 {
				possible = false // a value no form holds there
				continue
			}
			mh, ml := field(c.Pos, 31)
			vh, vl := field(c.Pos, uint64(v))
			if mask[0]&mh != 0 || mask[1]&ml != 0 {
				// The same cell twice: two values cannot both hold.
				possible = possible && want[0]&mh == vh && want[1]&ml == vl
				continue
			}
			mask[0], mask[1], want[0], want[1] = mask[0]|mh, mask[1]|ml, want[0]|vh, want[1]|vl
		}
		if !possible {
			continue
		}
		// Symmetries that pull the conditions back to the same cells and
		// values are one compare, counted for each of them.
		same := -1
		for k := range m.syms {
			if m.mask[k] == mask && m.want[k] == want {
				same = k
			}
		}
		if same >= 0 {
			m.weight[same]++
			m.of[same] |= 1 << k
			continue
		}
		m.mask[m.syms], m.want[m.syms], m.weight[m.syms], m.conds[m.syms], m.of[m.syms] = mask, want, 1, conds, 1<<k
		m.syms++
	}
	if packedVector {
		m.vector()
	}
	return m, true
}

// allLanes is the lane set of every symmetry's conditions.
func (m *packedMatch) allLanes() uint64 { return 1<<m.syms - 1 }

// lanesFor is the set of lanes whose conditions some class of a group
// may meet, by the group's synopsis: 0 when none can.
func (m *packedMatch) lanesFor(g *catalog.ClassGroup) uint64 {
	var lanes uint64
	for s := range m.syms {
		if !slices.ContainsFunc(m.conds[s], func(c byteCondition) bool { return !g.MayHold(c.Pos, c.Value) }) {
			lanes |= 1 << s
		}
	}
	return lanes
}

// hits is how many of the symmetries' conditions in lanes the form (its
// high and low words) meets.
func (m *packedMatch) hits(form [2]uint64, lanes uint64) int64 {
	var n int64
	for s := range m.syms {
		if lanes&(1<<s) != 0 && form[0]&m.mask[s][0] == m.want[s][0] && form[1]&m.mask[s][1] == m.want[s][1] {
			n += m.weight[s]
		}
	}
	return n
}

// loadPacked reads a packed form of size bytes as (high, low) words.
func loadPacked(form []byte, size int) (hi, lo uint64) {
	switch size {
	case 16:
		return binary.BigEndian.Uint64(form), binary.BigEndian.Uint64(form[8:])
	case 12:
		return binary.BigEndian.Uint64(form), uint64(binary.BigEndian.Uint32(form[8:])) << 32
	}
	var b [16]byte
	copy(b[:], form[:size])
	return binary.BigEndian.Uint64(b[:]), binary.BigEndian.Uint64(b[8:])
}

// loadPackedWords is loadPacked as one value.
func loadPackedWords(form []byte, size int) [2]uint64 {
	hi, lo := loadPacked(form, size)
	return [2]uint64{hi, lo}
}

// packedCountable reports whether a count over a classes-only puzzle can
// test packed forms: only equality conditions, and no orbit or property
// asked of the classes (a queens property read off the squares is tested
// on the unpacked form).
func (t *BoundPuzzle) packedCountable(p *Plan) (packedMatch, bool) {
	cf := classFilter(p.Question.Filter)
	if !t.classesOnly() || cf.Orbits != nil || cf.Props != 0 || p.Question.Filter.Props.Board() != 0 {
		return packedMatch{}, false
	}
	return newPackedMatch(t.Puzzle, &p.imageConds)
}

// countPacked counts, over packed forms, the matching members of the
// classes lo to hi (classes with one, if classes is set), on workers
// goroutines, a partial count each: a group of blocks whose synopsis no symmetry's conditions
// can meet is skipped unread, and the others are compared in the lanes
// that can.
func (t *BoundPuzzle) countPacked(ctx context.Context, m *packedMatch, upToSymmetry bool, lo, hi int64, workers int, classes bool) ([]int64, error) {
	ids, orbits, err := t.store.SmallOrbits(ctx)
	if err != nil {
		return nil, err
	}
	size := t.store.PackedFormSize()
	// Each goroutine's count, and its next class with fewer than 8 members
	// (in ids), on a cache line of its own.
	type partial struct {
		n    int64
		next int
		_    [48]byte
	}
	parts := make([]partial, workers)
	q := catalog.ClassBlockScan{Lo: lo, Hi: hi, Workers: workers,
		Select: func(_ int, g *catalog.ClassGroup) uint32 { return uint32(m.lanesFor(g)) }}
	_, err = t.store.ScanClassBlocks(ctx, q, func(w int, first int64, forms []byte, tag uint32) error {
		part := &parts[w]
		lanes := uint64(tag) & m.allLanes()
		k := max(lo-first, 0)
		end := min(int64(len(forms)/size), hi-first+1)
		// The goroutine's blocks come in ID order, with jumps between
		// pieces of the range: find the next small orbit from here.
		if i := part.next; i > 0 && ids[i-1] >= first || i < len(ids) && ids[i] < first {
			part.next = sort.Search(len(ids), func(j int) bool { return ids[j] >= first })
		}
		if part.next >= len(ids) || ids[part.next] >= first+end {
			// Every class here has 8 members.
			hits, matched := m.sum(forms[k*int64(size):end*int64(size)], size, lanes)
			switch {
			case classes:
				part.n += matched
			case upToSymmetry:
				part.n += 8 * matched
			default:
				part.n += hits
			}
			return nil
		}
		for ; k < end; k++ {
			h := m.hits(loadPackedWords(forms[k*int64(size):], size), lanes)
			for part.next < len(ids) && ids[part.next] < first+k {
				part.next++
			}
			orbit := int64(8)
			if part.next < len(ids) && ids[part.next] == first+k {
				orbit = int64(orbits[part.next])
			}
			switch {
			case h == 0:
			case classes:
				part.n++
			case upToSymmetry:
				part.n += orbit
			default:
				part.n += h * orbit / 8
			}
		}
		return nil
	})
	counts := make([]int64, workers)
	for w, part := range parts {
		counts[w] = part.n
	}
	return counts, err
}

// laneConsts are up to 4 lanes of a packedVec as packedSumLanes reads
// them: each one's masks and patterns, then its weight.
type laneConsts [4]struct {
	maskHi, wantHi, maskLo, wantLo uint64
	weight                         int64
}

// sum is how many symmetries' conditions in lanes the forms meet in all,
// and how many forms meet some.
func (m *packedMatch) sum(forms []byte, size int, lanes uint64) (hits, matched int64) {
	n := len(forms) / size
	if packedLanes && m.vec != nil && (size == 16 || size == 12) && n >= 8 && lanes != 0 && bits.OnesCount64(lanes) <= 4 {
		// Few lanes: 8 forms a turn, across the lanes that can hold.
		var c laneConsts
		nl := 0
		for l := lanes; l != 0; l &= l - 1 {
			s := bits.TrailingZeros64(l)
			v := m.vec
			c[nl].maskHi, c[nl].wantHi, c[nl].maskLo, c[nl].wantLo, c[nl].weight = v.maskHi[s], v.wantHi[s], v.maskLo[s], v.wantLo[s], v.weight[s]
			nl++
		}
		turns := n &^ 7
		hits, matched = packedSumLanes(&forms[0], turns, size, &c, nl)
		if turns == n {
			return hits, matched
		}
		h, k := m.sum(forms[turns*size:], size, lanes)
		return hits + h, matched + k
	}
	switch {
	case m.vec == nil || size != 16 && size != 12 || n == 0:
		return m.sumGo(forms, size, lanes)
	case lanes == 0:
		return 0, 0
	case size == 12 && cap(forms)-len(forms) >= 4:
		// The loop reads 16 bytes of each form, the last form's 4 more
		// from the buffer the block lies in (their masks clear them).
		return packedSumAVX512(&forms[0], n, size, m.vec, lanes)
	case size == 12:
		// The loop reads 16 bytes of each form: the last is left to Go.
		hits, matched = packedSumAVX512(&forms[0], n-1, size, m.vec, lanes)
		h, k := m.sumGo(forms[(n-1)*size:n*size], size, lanes)
		return hits + h, matched + k
	}
	return packedSumAVX512(&forms[0], n, size, m.vec, lanes)
}

// hits appends to out (as hits does: index << 8 | lanes) each of the
// forms that meets some lanes of lanes.
func (m *packedMatch) hitList(forms []byte, size int, lanes uint64, out []uint32) []uint32 {
	n := len(forms) / size
	out = out[:0]
	if m.vec != nil && (size == 16 || size == 12) && n > 1 && lanes != 0 {
		vec := n
		if size == 12 && cap(forms)-len(forms) < 4 {
			vec = n - 1 // the loop reads 16 bytes of each form: the last is left to Go
		}
		out = out[:cap(out)]
		if len(out) < n {
			out = make([]uint32, n)
		}
		out = out[:packedHitsAVX512(&forms[0], vec, size, m.vec, lanes, &out[0])]
		forms, n = forms[vec*size:], n-vec
		for k := range n {
			if l := m.laneSet(loadPackedWords(forms[k*size:], size), lanes); l != 0 {
				out = append(out, uint32(vec+k)<<8|uint32(l))
			}
		}
		return out
	}
	for k := range n {
		if l := m.laneSet(loadPackedWords(forms[k*size:], size), lanes); l != 0 {
			out = append(out, uint32(k)<<8|uint32(l))
		}
	}
	return out
}

// laneSet is the set of lanes of lanes whose conditions form meets.
func (m *packedMatch) laneSet(form [2]uint64, lanes uint64) uint64 {
	var set uint64
	for s := range m.syms {
		if lanes&(1<<s) != 0 && form[0]&m.mask[s][0] == m.want[s][0] && form[1]&m.mask[s][1] == m.want[s][1] {
			set |= 1 << s
		}
	}
	return set
}

// sumGo is sum in Go, one symmetry at a time.
func (m *packedMatch) sumGo(forms []byte, size int, lanes uint64) (hits, matched int64) {
	for ; len(forms) >= size; forms = forms[size:] {
		if h := m.hits(loadPackedWords(forms, size), lanes); h > 0 {
			hits, matched = hits+h, matched+1
		}
	}
	return hits, matched
}
