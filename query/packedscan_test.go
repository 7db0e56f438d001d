package query

import (
	"math/rand/v2"
	"testing"

	"solcat/canon"
)

// TestPackedMatch checks the masked compares against the conditions
// tested cell by cell on unpacked forms, for random forms and random
// equality conditions (some on the same cell twice) on magic:5 and on
// queens boards packed as classes.
func TestPackedMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 25))
	for _, p := range []canon.Puzzle{{Kind: canon.Magic, N: 5}, {Kind: canon.Queens, N: 12}, {Kind: canon.Queens, N: 18}, {Kind: canon.Queens, N: 19}, {Kind: canon.Queens, N: 25}} {
		t.Run(p.String(), func(t *testing.T) {
			size := p.N * p.N
			if p.Kind == canon.Queens {
				size = p.N
			}
			for range 2000 {
				cells := make([]byte, size)
				for i := range cells {
					if p.Kind == canon.Magic {
						cells[i] = byte(1 + r.IntN(25))
					} else {
						cells[i] = byte(r.IntN(p.N))
					}
				}
				var packed []byte
				if p.Kind == canon.Magic {
					packed = canon.Pack25((*[25]byte)(cells)).Bytes()
				} else {
					packed = canon.PackQueens(nil, cells)
				}
				var conds []byteCondition
				for range 1 + r.IntN(3) {
					pos := r.IntN(size)
					v := cells[pos] // often true: a value the form holds
					switch {
					case r.IntN(3) > 0:
					case p.Kind == canon.Magic:
						v = byte(r.IntN(27)) // 0 and 26 are in no square
					default:
						v = byte(r.IntN(p.N)) // a queen's square: pull back maps it on the board
					}
					conds = append(conds, byteCondition{Pos: pos, Value: v, Equal: true})
				}
				images := pullBack(p, conds)
				m, ok := newPackedMatch(p, &images)
				if !ok {
					t.Fatal("equality conditions refused")
				}
				var want int64
				for _, c := range images {
					if meets(cells, c) {
						want++
					}
				}
				if got := m.hits(loadPacked(packed, len(packed))); got != want {
					t.Fatalf("form %v, conditions %v: %d symmetries by masks, %d cell by cell", cells, conds, got, want)
				}
			}
		})
	}
	images := pullBack(canon.Puzzle{Kind: canon.Magic, N: 5}, []byteCondition{{Pos: 3, Value: 4, Equal: false}})
	if _, ok := newPackedMatch(canon.Puzzle{Kind: canon.Magic, N: 5}, &images); ok {
		t.Error("a condition that is not an equality was taken")
	}
}
