package query

import (
	"math/rand/v2"
	"slices"
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
				if got := m.hits(loadPackedWords(packed, len(packed)), m.allLanes()); got != want {
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

// TestPackedSumVector checks the vector loop against the Go loop on blocks
// of random forms of 12 and 16 bytes, with conditions some forms meet
// through several symmetries at once.
func TestPackedSumVector(t *testing.T) {
	if !packedVector {
		t.Skip("no AVX-512 on this CPU: the Go loop is the only one")
	}
	r := rand.New(rand.NewPCG(12, 16))
	for _, p := range []canon.Puzzle{{Kind: canon.Magic, N: 5}, {Kind: canon.Queens, N: 19}, {Kind: canon.Queens, N: 18}} {
		size, cells := 16, 25
		if p.Kind == canon.Queens {
			size, cells = 12, p.N
		}
		for trial := range 300 {
			// Few values, so that conditions often hold.
			var forms []byte
			n := 1 + r.IntN(170)
			for range n {
				form := make([]byte, cells)
				for i := range form {
					form[i] = byte(1 + r.IntN(2))
				}
				if p.Kind == canon.Magic {
					forms = append(forms, canon.Pack25((*[25]byte)(form)).Bytes()...)
				} else {
					forms = append(forms, canon.PackQueens(nil, form)...)
				}
			}
			var conds []byteCondition
			for range trial % 4 {
				conds = append(conds, byteCondition{Pos: r.IntN(cells), Value: byte(1 + r.IntN(2)), Equal: true})
			}
			images := pullBack(p, conds)
			m, _ := newPackedMatch(p, &images)
			// The forms as the last of their buffer, and followed by
			// bytes of all ones that the compares must not see.
			clipped := slices.Clip(forms)
			followed := append(slices.Clip(forms), 0xff, 0xff, 0xff, 0xff)[:len(forms)]
			forms = [][]byte{clipped, followed}[trial%2]
			// Every lane, a random choice of them, and one to four
			// (packedSumLanes' cases).
			for _, lanes := range []uint64{m.allLanes(), m.allLanes() & r.Uint64(), m.allLanes() & (1 << (trial % max(1, m.syms))), m.allLanes() & 0x0f, m.allLanes() & 0xa8, m.allLanes() & 0x3} {
				h, k := m.sum(forms, size, lanes)
				hg, kg := m.sumGo(forms, size, lanes)
				if h != hg || k != kg {
					t.Fatalf("%s, %d forms, conditions %v, lanes %b: vector %d hits in %d forms, Go %d in %d", p, n, conds, lanes, h, k, hg, kg)
				}
				// The forms that meet some lanes, and which: as the Go loop
				// finds them.
				got := m.hitList(forms, size, lanes, nil)
				var want []uint32
				for i := range n {
					if l := m.laneSet(loadPackedWords(forms[i*size:], size), lanes); l != 0 {
						want = append(want, uint32(i)<<8|uint32(l))
					}
				}
				if !slices.Equal(got, want) || int64(len(got)) != k {
					t.Fatalf("%s, %d forms, conditions %v, lanes %b: hits %x, want %x", p, n, conds, lanes, got, want)
				}
			}
		}
	}
}
